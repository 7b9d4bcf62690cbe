//! A stable, readable text form of a [`Program`], for `rulestone dump ir` and snapshots.

use std::fmt::Write as _;

use super::{
    AssignSlot, BoolExpr, CellRef, CellSet, Finish, Op, PlayerRef, Program, SetExpr, TemplatePart,
};

/// Renders the whole program.
#[must_use]
pub fn dump(p: &Program) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "game {:?}", p.name);
    let _ = writeln!(w, "players {}", p.players.join(", "));
    for (name, value) in &p.options {
        let _ = writeln!(w, "option {name} = {value}");
    }
    let _ = writeln!(
        w,
        "\ncells {} (axes {})",
        p.board.len(),
        p.board.axes.join(", ")
    );
    for c in 0..p.board.len() {
        let coords: Vec<String> = (0..p.board.axes.len())
            .map(|a| p.board.coord(c, a).to_string())
            .collect();
        let _ = writeln!(w, "  {c:>3} {:<6} ({})", p.board.names[c], coords.join(","));
    }
    for (i, r) in p.relations.iter().enumerate() {
        let _ = writeln!(w, "\nrelation #{i} {}", r.name);
        let tables: Vec<(String, &Vec<crate::ir::CellSet>)> = if r.per_player.is_empty() {
            vec![(String::new(), &r.masks)]
        } else {
            r.per_player
                .iter()
                .enumerate()
                .map(|(pl, t)| (format!(" for {}", p.players[pl]), t))
                .collect()
        };
        for (who, table) in tables {
            for (c, m) in table.iter().enumerate() {
                if !m.is_empty() {
                    let _ = writeln!(w, "  {}{who} -> {}", p.board.names[c], cells(p, m));
                }
            }
        }
    }
    for (i, pat) in p.patterns.iter().enumerate() {
        let _ = writeln!(
            w,
            "\npattern #{i} {} ({} entries)",
            pat.name,
            pat.instances.len()
        );
        for c in 0..p.board.len() {
            let (a, b) = (pat.offsets[c] as usize, pat.offsets[c + 1] as usize);
            for inst in &pat.instances[a..b] {
                let _ = writeln!(w, "  {} in {}", p.board.names[c], cells(p, inst));
            }
        }
    }
    for (i, z) in p.zones.iter().enumerate() {
        let _ = writeln!(w, "\nzone #{i} {} = {}", z.name, cells(p, &z.cells));
    }
    let _ = writeln!(w);
    for (i, k) in p.pieces.iter().enumerate() {
        let _ = writeln!(w, "piece #{i} {} symbols {:?}", k.name, k.symbols);
    }
    for (i, c) in p.counters.iter().enumerate() {
        let who = c
            .player
            .map_or(String::new(), |pl| format!("[{}]", p.players[pl as usize]));
        let _ = writeln!(w, "counter slot {i} {}{who} = {}", c.name, c.initial);
    }
    let _ = writeln!(w, "\nsets");
    for (i, s) in p.sets.iter().enumerate() {
        let _ = writeln!(w, "  s{i} = {}", set(p, s));
    }
    let _ = writeln!(w, "ints");
    for (i, x) in p.ints.iter().enumerate() {
        let _ = writeln!(w, "  i{i} = {x:?}");
    }
    let _ = writeln!(w, "bools");
    for (i, b) in p.bools.iter().enumerate() {
        let _ = writeln!(w, "  b{i} = {}", boolean(b));
    }
    for (name, code) in [
        ("setup", &p.setup),
        ("turn", &p.turn),
        ("no moves", &p.no_moves),
    ] {
        let _ = writeln!(w, "\n{name}");
        for (pc, op) in code.ops.iter().enumerate() {
            let _ = writeln!(w, "  {pc:>3}  {}", op_text(p, op));
        }
    }
    out
}

fn cells(p: &Program, s: &CellSet) -> String {
    let names: Vec<&str> = s.iter().map(|c| p.board.names[c].as_str()).collect();
    format!("{{{}}}", names.join(" "))
}

fn cell_ref(c: CellRef) -> String {
    match c {
        CellRef::Var(v) => format!("v{v}"),
        CellRef::Const(c) => format!("cell#{c}"),
        CellRef::Candidate => "candidate".into(),
        CellRef::Slot(s) => format!("cell(c{s})"),
    }
}

fn player_ref(p: PlayerRef) -> String {
    match p {
        PlayerRef::Mover => "mover".into(),
        PlayerRef::Opponent => "opponent".into(),
        PlayerRef::Const(i) => format!("player#{i}"),
        PlayerRef::Owner(c) => format!("owner({})", cell_ref(c)),
    }
}

fn set(p: &Program, s: &SetExpr) -> String {
    match s {
        SetExpr::Const(c) => cells(p, c),
        SetExpr::Empty => "empty".into(),
        SetExpr::Occupied => "occupied".into(),
        SetExpr::PlayerPieces(pl) => format!("pieces of {}", player_ref(*pl)),
        SetExpr::Pieces { code, player } => format!("code {code} of {}", player_ref(*player)),
        SetExpr::Single(c) => format!("{{{}}}", cell_ref(*c)),
        SetExpr::Union(a, b) => format!("s{a} | s{b}"),
        SetExpr::Inter(a, b) => format!("s{a} & s{b}"),
        SetExpr::Diff(a, b) => format!("s{a} - s{b}"),
        SetExpr::All { relation, of } => format!("all(rel#{relation}, s{of})"),
        SetExpr::None { relation, of } => format!("none(rel#{relation}, s{of})"),
        SetExpr::Any { relation, of } => format!("any(rel#{relation}, s{of})"),
        SetExpr::Step { relation, of } => format!("step(rel#{relation}, s{of})"),
        SetExpr::Between {
            relation,
            from,
            run,
            end,
        } => format!(
            "between(rel#{relation}, {}, s{run}, s{end})",
            cell_ref(*from)
        ),
        SetExpr::Brackets { relation, run, end } => {
            format!("brackets(rel#{relation}, s{run}, s{end})")
        }
        SetExpr::Where { base, cond } => format!("s{base} where b{cond}"),
        SetExpr::Local(slot) => format!("local{slot}"),
        SetExpr::StepDir { relation, dir, of } => format!("step(rel#{relation} {dir:?}, s{of})"),
        SetExpr::Line {
            relation,
            dir,
            from,
            run,
        } => format!("line(rel#{relation} {dir:?}, {}, {run:?})", cell_ref(*from)),
        SetExpr::Placed { slot, table } => format!("cells of placed{slot} (table {table})"),
        SetExpr::AxisCmp { axis, op, value } => {
            format!(
                "cells with {} {op:?} i{value}",
                p.board.axes[usize::from(*axis)]
            )
        }
    }
}

fn boolean(b: &BoolExpr) -> String {
    match b {
        BoolExpr::Const(v) => v.to_string(),
        BoolExpr::Not(x) => format!("not b{x}"),
        BoolExpr::And(x, y) => format!("b{x} and b{y}"),
        BoolExpr::Or(x, y) => format!("b{x} or b{y}"),
        BoolExpr::Cmp { op, lhs, rhs } => format!("i{lhs} {op:?} i{rhs}"),
        BoolExpr::CellEq { eq, lhs, rhs } => {
            format!(
                "{} {} {}",
                cell_ref(*lhs),
                if *eq { "==" } else { "!=" },
                cell_ref(*rhs)
            )
        }
        BoolExpr::PlayerEq { eq, lhs, rhs } => format!(
            "{} {} {}",
            player_ref(*lhs),
            if *eq { "==" } else { "!=" },
            player_ref(*rhs)
        ),
        BoolExpr::In { cell, set } => format!("{} in s{set}", cell_ref(*cell)),
        BoolExpr::DirIn {
            relation,
            dir,
            members,
        } => format!("rel#{relation} {dir:?} in {members:?}"),
        BoolExpr::Connected {
            relation,
            through,
            from,
            to,
        } => format!("connected(rel#{relation}, s{through}, s{from}, s{to})"),
        BoolExpr::Completes { pattern, cell, set } => {
            format!("completes(pattern#{pattern}, {}, s{set})", cell_ref(*cell))
        }
    }
}

fn op_text(p: &Program, op: &Op) -> String {
    match op {
        Op::Pick { var, from } => format!("pick v{var} in s{from}"),
        Op::PickDir { var, relation } => format!("pick v{var} in directions of rel#{relation}"),
        Op::Place {
            slot,
            anchor,
            table,
            player,
            layer,
            max,
            feet,
        } => {
            let feet = feet.map_or_else(String::new, |s| format!(" feet in s{s}"));
            format!(
                "place placed{slot} (anchor v{anchor}) from table {table} stock of {} on slot {layer} max i{max}{feet}",
                player_ref(*player)
            )
        }
        Op::Let { slot, set, replay } => {
            let when = if *replay { "" } else { " (not on replay)" };
            format!("let local{slot} = s{set}{when}")
        }
        Op::Put {
            code_base,
            owner,
            at,
        } => format!(
            "put code {code_base}+{} at {}",
            player_ref(*owner),
            cell_ref(*at)
        ),
        Op::Remove { at } => format!("remove {}", cell_ref(*at)),
        Op::Move { from, to } => format!("move {} to {}", cell_ref(*from), cell_ref(*to)),
        Op::PutAll {
            code_base,
            owner,
            at,
        } => format!("put code {code_base}+{} on s{at}", player_ref(*owner)),
        Op::RemoveAll { at } => format!("remove s{at}"),
        Op::Require(b) => format!("require b{b}"),
        Op::Unless { cond, target } => format!("unless b{cond} goto {target}"),
        Op::Jump(t) => format!("goto {t}"),
        Op::Either(b) => format!("either {b:?}"),
        Op::First(b) => format!("first {b:?}"),
        Op::RepeatStart { var } => format!("repeat-start v{var}"),
        Op::RepeatCheck {
            var,
            min,
            max,
            exit,
        } => format!("repeat-check v{var} {min}..{max} exit {exit}"),
        Op::RepeatNext { var, check } => format!("repeat-next v{var} goto {check}"),
        Op::DistinctStart { block } => format!("distinct-start #{block}"),
        Op::DistinctEnd { block } => format!("distinct-end #{block}"),
        Op::Write(t) => {
            let parts: Vec<String> = p.templates[*t as usize]
                .parts
                .iter()
                .map(|part| match part {
                    TemplatePart::Text(s) => format!("{s:?}"),
                    TemplatePart::Cell(c) => cell_ref(*c),
                    TemplatePart::Int(i) => format!("i{i}"),
                    TemplatePart::Player(pl) => player_ref(*pl),
                    TemplatePart::Letter(i) => format!("letter(i{i})"),
                    TemplatePart::ShapeName { slot, .. } => format!("shape(placed{slot})"),
                    TemplatePart::Facing { slot, .. } => format!("facing(placed{slot})"),
                    TemplatePart::Dir { relation, dir } => format!("name(rel#{relation} {dir:?})"),
                })
                .collect();
            format!("write {}", parts.join(" "))
        }
        Op::Finish(f) => match f {
            Finish::Win(pl) => format!("win {}", player_ref(*pl)),
            Finish::Lose(pl) => format!("lose {}", player_ref(*pl)),
            Finish::Draw => "draw".into(),
        },
        Op::Assign { slot, op, value } => {
            let s = match slot {
                AssignSlot::Global(i) => format!("slot {i}"),
                AssignSlot::PerPlayer { base, player } => {
                    format!("slot {base}+{}", player_ref(*player))
                }
                AssignSlot::PerCell { base, cell } => format!("slot {base}+{}", cell_ref(*cell)),
            };
            format!("counter {s} {op:?} i{value}")
        }
        Op::Roll { slot, lo, count } => {
            format!("roll slot {slot} in {lo}..{}", lo + i32::from(*count) - 1)
        }
        Op::Again => "again".into(),
        Op::Chooser(p) => format!("next pick by {}", player_ref(*p)),
        Op::AssignAll {
            base,
            cells,
            op,
            value,
        } => format!("counter slot {base}+each of s{cells} {op:?} i{value}"),
        Op::SetVar { var, set } => format!("v{var} = one of s{set}"),
        Op::SetDir { var, relation, dir } => format!("v{var} = rel#{relation} {dir:?}"),
        Op::WhileCheck { var, cond, exit } => format!("while b{cond} (rounds v{var}) exit {exit}"),
        Op::Memo { block } => format!("memo #{block}"),
        Op::Done => "done".into(),
    }
}
