//! A stable, readable text form of a [`Program`], for `rulestone dump ir`, snapshots and tests
//! of IR transformations. [`super::parse::parse`] reads it back: `parse(&dump(p))` is `p`.
//!
//! The text holds every field of the program except the caches that the IR's own constructors
//! compute from the rest, which the parser computes again the same way: [`Board::all`] (the
//! first `cells` cells) and [`Board::axis_tables`] ([`Board::build_axis_tables`]),
//! [`Ray::shift`] ([`Ray::new`]), [`Code::decided`] and [`Code::busy`] ([`Code::new`]), and
//! each [`Placement`]'s `cells`, `max_top`, `first` and `len` (from its parts, laid out in
//! order). An edited text therefore stays consistent.
//!
//! The form, one item a line (`#N` is an index; `[...]` is optional; blank lines are ignored):
//!
//! ```text
//! game "NAME"
//! players P0, P1
//! option NAME = VALUE
//! cells N (axes X, Y)
//!     INDEX NAME (X,Y)
//! relation #N NAME [per player]
//!   CELL -> {CELLS}                        the neighbour table (its non-empty entries; with
//!                                          `per player`, where it is not the union of theirs)
//!   CELL for PLAYER -> {CELLS}             a player's table (`per player` only)
//!   vector K NAME [for PLAYER]: CELL>CELL ...   one ray: each cell and the next one
//!   opposite K K - ...                     per vector (`-`: none)
//!   mirror AXIS K - K ...                  per axis, per vector
//! pattern #N NAME (N entries)
//!   CELL in {CELLS}
//! zone #N NAME = {CELLS}
//! piece #N NAME symbols ["X", "O"]
//! counter slot N NAME[[PLAYER]] = INITIAL [(hidden) | (directions of rel#R)]
//! layer NAME slot N
//! shape #N NAME count C points P stock slot N [flip "MARK"]
//! sets / ints / bools, then one `sN = ...`, `iN = ...`, `bN = ...` a line
//! setup / turn / no moves, then one `PC  OP` a line (`shift sN along rel#R` walks vector 0)
//! distinct blocks N
//! score [decimal] iA, iB
//! heuristic iA, iB
//! repetitions ignore slot N, ..., mover    what `repetitions` leaves out
//! marker "TEXT" on sN legend "TEXT"
//! status tN [= PARTS] [when bN]
//! templates, then `tN = PARTS` for templates no `write` or `status` line defines
//! placements #N (N placements) facings F, F, ...
//!   by shape A..B A..B ...
//!   SHAPE at CELL facing F [flipped]: CELL BOTTOM-TOP [foot], ...
//! end
//! ```
//!
//! A template is defined where it is first used (`write t3 = "x" v0`, `status t5 = ...`);
//! a later use names it only (`write t3`). Names are written bare when they are plain words
//! (letters, digits, `_-.'`), else quoted; cells, axes, players, shapes and facings are named
//! when the name is plain, unique and no keyword of the form, else written `#INDEX`.
//!
//! [`Board::all`]: super::Board::all
//! [`Board::axis_tables`]: super::Board::axis_tables
//! [`Board::build_axis_tables`]: super::Board::build_axis_tables
//! [`Ray::shift`]: super::Ray::shift
//! [`Ray::new`]: super::Ray::new
//! [`Code::decided`]: super::Code::decided
//! [`Code::busy`]: super::Code::busy
//! [`Code::new`]: super::Code::new
//! [`Placement`]: super::Placement

use std::fmt::Write as _;

use super::{
    AssignKind, AssignSlot, BoolExpr, CellRef, CellSet, CmpOp, CounterView, DirExpr, Finish,
    IntExpr, IntOp, Op, PlayerRef, Program, SetExpr, TemplatePart, NO_CELL, NO_DIR,
};

/// Words a cell, shape or facing name may not be written as, because the form gives them
/// another meaning where such a name may stand.
pub(crate) const RESERVED: &[&str] = &[
    "-",
    "candidate",
    "cell",
    "vector",
    "opposite",
    "mirror",
    "by",
    "for",
    "at",
];

/// Whether a name can be written bare: letters, digits and `_-.'`.
pub(crate) fn is_plain(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '\''))
}

/// A name, bare when plain, else quoted.
pub(crate) fn word(s: &str) -> String {
    if is_plain(s) {
        s.to_string()
    } else {
        format!("{s:?}")
    }
}

/// Whether a name may stand for its index (see [`RESERVED`]); `v0`, `v1`, ... are turn
/// variables.
pub(crate) fn is_reference(s: &str) -> bool {
    let var = s
        .strip_prefix('v')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
    is_plain(s) && !var && !RESERVED.contains(&s)
}

/// How each of a list of names is referred to: by name when [`is_reference`] and unique,
/// else `#INDEX`.
pub(crate) fn references(names: &[String]) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if is_reference(n) && names.iter().filter(|m| *m == n).count() == 1 {
                n.clone()
            } else {
                format!("#{i}")
            }
        })
        .collect()
}

/// Renders the whole program.
#[must_use]
pub fn dump(p: &Program) -> String {
    let mut d = Dumper {
        p,
        cells: references(&p.board.names),
        axes: references(&p.board.axes),
        players: references(&p.players),
        defined: vec![false; p.templates.len()],
        out: String::new(),
    };
    d.program();
    d.out
}

struct Dumper<'p> {
    p: &'p Program,
    cells: Vec<String>,
    axes: Vec<String>,
    players: Vec<String>,
    /// Templates already written out.
    defined: Vec<bool>,
    out: String,
}

fn index_ref(refs: &[String], i: usize) -> String {
    refs.get(i).cloned().unwrap_or_else(|| format!("#{i}"))
}

impl Dumper<'_> {
    fn program(&mut self) {
        let p = self.p;
        let w = &mut String::new();
        let _ = writeln!(w, "game {:?}", p.name);
        let players: Vec<String> = p.players.iter().map(|s| word(s)).collect();
        let _ = writeln!(w, "players {}", players.join(", "));
        for (name, value) in &p.options {
            let _ = writeln!(w, "option {} = {}", word(name), word(value));
        }
        let axes: Vec<String> = p.board.axes.iter().map(|s| word(s)).collect();
        let _ = writeln!(w, "\ncells {} (axes {})", p.board.len(), axes.join(", "));
        let n_axes = p.board.axes.len();
        for (c, name) in p.board.names.iter().enumerate() {
            let coords: Vec<String> = (0..n_axes)
                .map(|a| {
                    p.board
                        .coords
                        .get(c * n_axes + a)
                        .map_or_else(String::new, i32::to_string)
                })
                .collect();
            let _ = writeln!(w, "  {c:>3} {:<6} ({})", word(name), coords.join(","));
        }
        self.out.push_str(w);
        for i in 0..p.relations.len() {
            self.relation(i);
        }
        let w = &mut String::new();
        for (i, pat) in p.patterns.iter().enumerate() {
            let _ = writeln!(
                w,
                "\npattern #{i} {} ({} entries)",
                word(&pat.name),
                pat.instances.len()
            );
            for (c, range) in pat.offsets.windows(2).enumerate() {
                let (a, b) = (range[0] as usize, range[1] as usize);
                for inst in pat.instances.get(a..b).unwrap_or(&[]) {
                    let _ = writeln!(w, "  {} in {}", self.cell(c), self.cells(inst));
                }
            }
        }
        for (i, z) in p.zones.iter().enumerate() {
            let _ = writeln!(
                w,
                "\nzone #{i} {} = {}",
                word(&z.name),
                self.cells(&z.cells)
            );
        }
        let _ = writeln!(w);
        for (i, k) in p.pieces.iter().enumerate() {
            let _ = writeln!(w, "piece #{i} {} symbols {:?}", word(&k.name), k.symbols);
        }
        for (i, c) in p.counters.iter().enumerate() {
            let who = c.player.map_or(String::new(), |pl| {
                format!("[{}]", index_ref(&self.players, usize::from(pl)))
            });
            let view = match c.view {
                CounterView::Plain => String::new(),
                CounterView::Hidden => " (hidden)".into(),
                CounterView::Directions(r) => format!(" (directions of rel#{r})"),
            };
            let _ = writeln!(
                w,
                "counter slot {i} {}{who} = {}{view}",
                word(&c.name),
                c.initial
            );
        }
        for (name, base) in &p.layers {
            let _ = writeln!(w, "layer {} slot {base}", word(name));
        }
        for (i, s) in p.shapes.iter().enumerate() {
            let flip = s
                .flip
                .as_ref()
                .map_or_else(String::new, |m| format!(" flip {m:?}"));
            let _ = writeln!(
                w,
                "shape #{i} {} count {} points {} stock slot {}{flip}",
                word(&s.name),
                s.count,
                s.points,
                s.stock
            );
        }
        let _ = writeln!(w, "\nsets");
        for (i, s) in p.sets.iter().enumerate() {
            let _ = writeln!(w, "  s{i} = {}", self.set(s));
        }
        let _ = writeln!(w, "ints");
        for (i, x) in p.ints.iter().enumerate() {
            let _ = writeln!(w, "  i{i} = {}", int_expr(x));
        }
        let _ = writeln!(w, "bools");
        for (i, b) in p.bools.iter().enumerate() {
            let _ = writeln!(w, "  b{i} = {}", boolean(b));
        }
        self.out.push_str(w);
        for (name, code) in [
            ("setup", &p.setup),
            ("turn", &p.turn),
            ("no moves", &p.no_moves),
        ] {
            let _ = writeln!(self.out, "\n{name}");
            for (pc, op) in code.ops.iter().enumerate() {
                let text = self.op_text(op);
                let _ = writeln!(self.out, "  {pc:>3}  {text}");
            }
        }
        self.tail();
    }

    /// Everything after the turn programs.
    fn tail(&mut self) {
        let p = self.p;
        let mut w = String::from("\n");
        if p.distinct_blocks > 0 {
            let _ = writeln!(w, "distinct blocks {}", p.distinct_blocks);
        }
        if let Some([a, b]) = p.score {
            let unit = if p.score_decimal { "decimal " } else { "" };
            let _ = writeln!(w, "score {unit}i{a}, i{b}");
        }
        if let Some([a, b]) = p.heuristic {
            let _ = writeln!(w, "heuristic i{a}, i{b}");
        }
        let ignores = &p.history_ignores;
        if ignores.mover || !ignores.slots.is_empty() {
            let mut parts: Vec<String> =
                ignores.slots.iter().map(|s| format!("slot {s}")).collect();
            if ignores.mover {
                parts.push("mover".into());
            }
            let _ = writeln!(w, "repetitions ignore {}", parts.join(", "));
        }
        for m in &p.markers {
            let _ = writeln!(w, "marker {:?} on s{} legend {:?}", m.text, m.set, m.legend);
        }
        for (t, when) in &p.status {
            let when = when.map_or_else(String::new, |b| format!(" when b{b}"));
            let _ = writeln!(w, "status {}{when}", self.template(*t));
        }
        if self.defined.iter().any(|d| !d) {
            let _ = writeln!(w, "templates");
            for t in 0..self.defined.len() {
                if !self.defined[t] {
                    let text = self.template(u16::try_from(t).unwrap_or(u16::MAX));
                    let _ = writeln!(w, "  {text}");
                }
            }
        }
        for (i, table) in p.placements.iter().enumerate() {
            let facings = references(&table.facings);
            let shapes = references(&p.shapes.iter().map(|s| s.name.clone()).collect::<Vec<_>>());
            let names: Vec<String> = table.facings.iter().map(|f| word(f)).collect();
            let _ = writeln!(
                w,
                "\nplacements #{i} ({} placements) facings {}",
                table.instances.len(),
                names.join(", ")
            );
            let ranges: Vec<String> = table
                .by_shape
                .iter()
                .map(|(a, b)| format!("{a}..{b}"))
                .collect();
            let _ = writeln!(w, "  by shape {}", ranges.join(" "));
            for inst in &table.instances {
                let parts: Vec<String> = table
                    .parts_of(inst)
                    .iter()
                    .map(|part| {
                        let foot = if part.foot { " foot" } else { "" };
                        format!(
                            "{} {}-{}{foot}",
                            self.cell(usize::from(part.cell)),
                            part.bottom,
                            part.top
                        )
                    })
                    .collect();
                let _ = writeln!(
                    w,
                    "  {} at {} facing {}{}: {}",
                    index_ref(&shapes, usize::from(inst.shape)),
                    self.cell(usize::from(inst.anchor)),
                    index_ref(&facings, usize::from(inst.facing)),
                    if inst.flipped { " flipped" } else { "" },
                    parts.join(", ")
                );
            }
        }
        let _ = writeln!(w, "end");
        self.out.push_str(&w);
    }

    fn relation(&mut self, i: usize) {
        let p = self.p;
        let r = &p.relations[i];
        let w = &mut String::new();
        let per = if r.per_player.is_empty() {
            ""
        } else {
            " per player"
        };
        let _ = writeln!(w, "\nrelation #{i} {}{per}", word(&r.name));
        // A player-relative relation's shared table is the union of the players' tables but
        // where a line says otherwise.
        for (c, m) in r.masks.iter().enumerate() {
            let default = r.per_player.iter().fold(CellSet::EMPTY, |acc, t| {
                acc | t.get(c).copied().unwrap_or_default()
            });
            if *m != default {
                let _ = writeln!(w, "  {} -> {}", self.cell(c), self.cells(m));
            }
        }
        for (pl, table) in r.per_player.iter().enumerate() {
            let who = index_ref(&self.players, pl);
            for (c, m) in table.iter().enumerate() {
                if !m.is_empty() {
                    let _ = writeln!(w, "  {} for {who} -> {}", self.cell(c), self.cells(m));
                }
            }
        }
        for (k, ray) in r.rays.iter().enumerate() {
            let name = r.names.get(k).map_or_else(|| "\"\"".into(), |n| word(n));
            let owner = ray.owner.map_or_else(String::new, |o| {
                format!(" for {}", index_ref(&self.players, usize::from(o)))
            });
            let steps: Vec<String> = ray
                .next
                .iter()
                .enumerate()
                .filter(|(_, &t)| t != NO_CELL)
                .map(|(c, &t)| format!("{}>{}", self.cell(c), self.cell(usize::from(t))))
                .collect();
            let _ = writeln!(w, "  vector {k} {name}{owner}: {}", steps.join(" "));
        }
        let _ = writeln!(w, "  opposite{}", dirs(&r.opposite));
        for (a, m) in r.mirrors.iter().enumerate() {
            let _ = writeln!(w, "  mirror {}{}", index_ref(&self.axes, a), dirs(m));
        }
        self.out.push_str(w);
    }

    fn cell(&self, c: usize) -> String {
        index_ref(&self.cells, c)
    }

    fn cells(&self, s: &CellSet) -> String {
        let names: Vec<String> = s.iter().map(|c| self.cell(c)).collect();
        format!("{{{}}}", names.join(" "))
    }

    /// `tN = PARTS` the first time, `tN` after.
    fn template(&mut self, t: u16) -> String {
        let i = usize::from(t);
        match self.defined.get(i) {
            Some(false) => {
                self.defined[i] = true;
                let parts = self.p.templates[i]
                    .parts
                    .iter()
                    .map(|part| format!(" {}", self.template_part(part)))
                    .collect::<String>();
                format!("t{t} ={parts}")
            }
            _ => format!("t{t}"),
        }
    }

    fn template_part(&self, part: &TemplatePart) -> String {
        match part {
            TemplatePart::Text(s) => format!("{s:?}"),
            TemplatePart::Cell(c) => cell_ref(*c),
            TemplatePart::Int(i) => format!("i{i}"),
            TemplatePart::Player(pl) => player_ref(*pl),
            TemplatePart::Letter(i) => format!("letter(i{i})"),
            TemplatePart::Decimal(i) => format!("decimal(i{i})"),
            TemplatePart::ShapeName { slot, table } => {
                format!("shape(placed{slot} table {table})")
            }
            TemplatePart::Facing { slot, table } => format!("facing(placed{slot} table {table})"),
            TemplatePart::Dir { relation, dir } => {
                format!("name(rel#{relation} {})", dir_expr(dir))
            }
        }
    }

    fn set(&self, s: &SetExpr) -> String {
        match s {
            SetExpr::Const(c) => self.cells(c),
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
            SetExpr::Group {
                relation,
                from,
                through,
            } => format!("group(rel#{relation}, s{from}, s{through})"),
            SetExpr::First(of) => format!("one(s{of})"),
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
            SetExpr::StepDir { relation, dir, of } => {
                format!("step(rel#{relation} {}, s{of})", dir_expr(dir))
            }
            SetExpr::Line {
                relation,
                dir,
                from,
                run,
            } => format!(
                "line(rel#{relation} {}, {}, {})",
                dir.as_ref()
                    .map_or_else(|| "None".into(), |d| format!("Some({})", dir_expr(d))),
                cell_ref(*from),
                run.map_or_else(|| "None".into(), |s| format!("Some({s})"))
            ),
            SetExpr::Placed { slot, table } => format!("cells of placed{slot} (table {table})"),
            SetExpr::AxisCmp { axis, op, value } => format!(
                "cells with {} {} i{value}",
                index_ref(&self.axes, usize::from(*axis)),
                cmp_op(*op)
            ),
            SetExpr::AxisRows { base, axis, cond } => format!(
                "s{base} by rows of {} where b{cond}",
                index_ref(&self.axes, usize::from(*axis))
            ),
            SetExpr::AxisKey {
                base,
                axis,
                key,
                op,
                value,
            } => format!(
                "s{base} by rows of {} where i{key} {} i{value}",
                index_ref(&self.axes, usize::from(*axis)),
                cmp_op(*op)
            ),
        }
    }

    fn op_text(&mut self, op: &Op) -> String {
        match op {
            Op::Pick { var, from } => format!("pick v{var} in s{from}"),
            Op::PickDir { var, relation } => {
                format!("pick v{var} in directions of rel#{relation}")
            }
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
            Op::Shift { at, relation } => format!("shift s{at} along rel#{relation}"),
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
            Op::Write(t) => format!("write {}", self.template(*t)),
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
                    AssignSlot::PerCell { base, cell } => {
                        format!("slot {base}+{}", cell_ref(*cell))
                    }
                };
                format!("counter {s} {} i{value}", assign_kind(*op))
            }
            Op::Roll { slot, lo, count } => format!(
                "roll slot {slot} in {lo}..{}",
                i64::from(*lo) + i64::from(*count) - 1
            ),
            Op::Again => "again".into(),
            Op::Chooser(p) => format!("next pick by {}", player_ref(*p)),
            Op::AssignAll {
                base,
                cells,
                op,
                value,
            } => format!(
                "counter slot {base}+each of s{cells} {} i{value}",
                assign_kind(*op)
            ),
            Op::SetVar { var, set } => format!("v{var} = one of s{set}"),
            Op::SetDir { var, relation, dir } => {
                format!("v{var} = rel#{relation} {}", dir_expr(dir))
            }
            Op::WhileCheck { var, cond, exit } => {
                format!("while b{cond} (rounds v{var}) exit {exit}")
            }
            Op::Memo { block } => format!("memo #{block}"),
            Op::Done => "done".into(),
        }
    }
}

/// Vector indices, `-` for [`NO_DIR`], each after a space.
fn dirs(list: &[u8]) -> String {
    list.iter()
        .map(|&d| {
            if d == NO_DIR {
                " -".to_string()
            } else {
                format!(" {d}")
            }
        })
        .collect()
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

/// A cell reference inside an integer expression (the form of Rust's `Debug`).
fn cell_term(c: CellRef) -> String {
    match c {
        CellRef::Var(v) => format!("Var({v})"),
        CellRef::Const(c) => format!("Const({c})"),
        CellRef::Candidate => "Candidate".into(),
        CellRef::Slot(s) => format!("Slot({s})"),
    }
}

/// A player reference inside an integer expression (the form of Rust's `Debug`).
fn player_term(p: PlayerRef) -> String {
    match p {
        PlayerRef::Mover => "Mover".into(),
        PlayerRef::Opponent => "Opponent".into(),
        PlayerRef::Const(i) => format!("Const({i})"),
        PlayerRef::Owner(c) => format!("Owner({})", cell_term(c)),
    }
}

/// A direction value (the form of Rust's `Debug`).
fn dir_expr(d: &DirExpr) -> String {
    match d {
        DirExpr::Var(v) => format!("Var({v})"),
        DirExpr::Neg(d) => format!("Neg({})", dir_expr(d)),
        DirExpr::Turn(d, k) => format!("Turn({}, {k})", dir_expr(d)),
        DirExpr::Index(i) => format!("Index({i})"),
        DirExpr::Mirror(d, axis) => format!("Mirror({}, {axis})", dir_expr(d)),
    }
}

fn cmp_op(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "Eq",
        CmpOp::Ne => "Ne",
        CmpOp::Lt => "Lt",
        CmpOp::Le => "Le",
        CmpOp::Gt => "Gt",
        CmpOp::Ge => "Ge",
    }
}

fn assign_kind(op: AssignKind) -> &'static str {
    match op {
        AssignKind::Set => "Set",
        AssignKind::Add => "Add",
        AssignKind::Sub => "Sub",
    }
}

fn int_op(op: IntOp) -> &'static str {
    match op {
        IntOp::Add => "Add",
        IntOp::Sub => "Sub",
        IntOp::Mul => "Mul",
        IntOp::Div => "Div",
        IntOp::Rem => "Rem",
        IntOp::Max => "Max",
        IntOp::Min => "Min",
    }
}

/// An integer expression (the form of Rust's `Debug`).
fn int_expr(x: &IntExpr) -> String {
    match x {
        IntExpr::Const(v) => format!("Const({v})"),
        IntExpr::Counter(s) => format!("Counter({s})"),
        IntExpr::PlayerCounter { base, player } => format!(
            "PlayerCounter {{ base: {base}, player: {} }}",
            player_term(*player)
        ),
        IntExpr::Axis { cell, axis } => {
            format!("Axis {{ cell: {}, axis: {axis} }}", cell_term(*cell))
        }
        IntExpr::CellCounter { base, cell } => {
            format!("CellCounter {{ base: {base}, cell: {} }}", cell_term(*cell))
        }
        IntExpr::Points(p) => format!("Points({})", player_term(*p)),
        IntExpr::DirIndex { relation, dir } => format!(
            "DirIndex {{ relation: {relation}, dir: {} }}",
            dir_expr(dir)
        ),
        IntExpr::Won(p) => format!("Won({})", player_term(*p)),
        IntExpr::Repetitions => "Repetitions".into(),
        IntExpr::CellId(c) => format!("CellId({})", cell_term(*c)),
        IntExpr::Cond {
            cond,
            then,
            otherwise,
        } => format!("Cond {{ cond: {cond}, then: {then}, otherwise: {otherwise} }}"),
        IntExpr::Count(s) => format!("Count({s})"),
        IntExpr::CellSum { base, of } => format!("CellSum {{ base: {base}, of: {of} }}"),
        IntExpr::Neg(i) => format!("Neg({i})"),
        IntExpr::Bin { op, lhs, rhs } => {
            format!("Bin {{ op: {}, lhs: {lhs}, rhs: {rhs} }}", int_op(*op))
        }
    }
}

fn boolean(b: &BoolExpr) -> String {
    match b {
        BoolExpr::Const(v) => v.to_string(),
        BoolExpr::Not(x) => format!("not b{x}"),
        BoolExpr::And(x, y) => format!("b{x} and b{y}"),
        BoolExpr::Or(x, y) => format!("b{x} or b{y}"),
        BoolExpr::Cmp { op, lhs, rhs } => format!("i{lhs} {} i{rhs}", cmp_op(*op)),
        BoolExpr::CellEq { eq, lhs, rhs } => format!(
            "{} {} {}",
            cell_ref(*lhs),
            if *eq { "==" } else { "!=" },
            cell_ref(*rhs)
        ),
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
        } => format!(
            "rel#{relation} {} in [{}, {}]",
            dir_expr(dir),
            members[0],
            members[1]
        ),
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
