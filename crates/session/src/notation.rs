//! Moves as text: the notation of legal moves, reading a typed move (with the reasons a move
//! is refused), and the names of players and results, the same for every front end.

use std::fmt::Write as _;
use std::path::Path;

use rulestone_ir::Program;
use rulestone_runtime::{Engine, GameResult, Move, RefusedBy};

/// The path as it should appear in messages: as given, with `/` separators.
#[must_use]
pub fn shown(path: &Path) -> String {
    path.display().to_string().replace('\\', "/")
}

/// `1 cell`, `3 cells`, `2 matches`, `4 entries`: a count and its noun.
pub fn plural<N: std::fmt::Display + TryInto<u64> + Copy>(n: N, word: &str) -> String {
    if n.try_into().ok() == Some(1) {
        format!("{n} {word}")
    } else if ["s", "x", "ch", "sh"].iter().any(|e| word.ends_with(e)) {
        format!("{n} {word}es")
    } else if word.ends_with('y') && !word.ends_with("ay") && !word.ends_with("ey") {
        format!("{n} {}ies", &word[..word.len() - 1])
    } else {
        format!("{n} {word}s")
    }
}

/// The option values of a program, `size=5, variant=short`; `None` without options.
pub fn options_text(program: &Program) -> Option<String> {
    let opts: Vec<String> = program
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    (!opts.is_empty()).then(|| opts.join(", "))
}

/// `White wins`, `draw`.
pub fn result_text(program: &Program, result: GameResult) -> String {
    match result {
        GameResult::Win(p) => format!("{} wins", program.player_name(p)),
        GameResult::Draw => "draw".to_string(),
    }
}

/// Collapses runs of whitespace to one space and trims.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits a `;`-separated move list into normalized moves, dropping empty entries.
pub fn split_moves(list: &str) -> Vec<String> {
    list.split(rulestone_syntax::MOVE_SEPARATOR)
        .map(normalize)
        .filter(|m| !m.is_empty())
        .collect()
}

/// The legal moves of the engine's position with their notation, in generation order.
pub fn legal_with_text(engine: &mut Engine<'_>) -> Vec<(Move, String)> {
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let text = normalize(&engine.move_text(&m));
            (m, text)
        })
        .collect()
}

/// Two or more legal moves of one position written the same: a typed move or a record could
/// not say which was played, so a saved game could replay as another. The game's `write`s
/// must spell each move differently.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("{count} legal moves of one position are written `{text}`")]
#[diagnostic(
    code(E1010),
    help(
        "a move's notation must name it alone, or records would replay another game; make the \
         turn's `write`s spell what tells these moves apart (every cell or value chosen)"
    )
)]
pub struct SameNotation {
    pub text: String,
    pub count: usize,
}

impl SameNotation {
    /// The refusal's message, the same in every front end: `{text}` names several moves.
    #[must_use]
    pub fn message(&self) -> String {
        format!(
            "`{}` is the notation of {} legal moves here, so it cannot tell which is meant",
            self.text, self.count
        )
    }

    /// The note that says what is wrong with the game and where to read more.
    #[must_use]
    pub fn note(&self) -> String {
        "the game's notation must name each move alone (error E1010; `rulestone explain E1010`)"
            .to_string()
    }
}

/// The first notation that more than one of `legal` is written as, if any.
#[must_use]
pub fn same_notation(legal: &[(Move, String)]) -> Option<SameNotation> {
    let mut texts: Vec<&str> = legal.iter().map(|(_, t)| t.as_str()).collect();
    texts.sort_unstable();
    texts
        .windows(2)
        .find(|w| w[0] == w[1])
        .map(|w| SameNotation {
            text: w[0].to_string(),
            count: texts.iter().filter(|t| **t == w[0]).count(),
        })
}

/// Why a typed move could not be played.
#[derive(Debug)]
pub enum BadMove {
    /// The game ended before this move.
    GameOver(String),
    /// The text is the notation of several legal moves (E1010): the game cannot tell which.
    Ambiguous(SameNotation),
    /// Not the notation of any legal move; carries notes for the message: why, when it can be
    /// told (a cell that is not on the board, a near miss of a legal move's spelling), then a
    /// hint listing legal moves.
    Illegal { notes: Vec<String> },
}

/// Finds the legal move written `text` (whitespace normalized; letter case is ignored when
/// that leaves exactly one candidate).
pub fn find_move(engine: &mut Engine<'_>, text: &str) -> std::result::Result<Move, BadMove> {
    let text = normalize(text);
    if let Some(r) = engine.outcome() {
        return Err(BadMove::GameOver(result_text(engine.program(), r)));
    }
    let legal = legal_with_text(engine);
    let mut exact = legal.iter().filter(|(_, t)| *t == text);
    if let Some((m, _)) = exact.next() {
        let others = exact.count();
        if others > 0 {
            return Err(BadMove::Ambiguous(SameNotation {
                text,
                count: others + 1,
            }));
        }
        return Ok(*m);
    }
    let folded: Vec<&(Move, String)> = legal
        .iter()
        .filter(|(_, t)| t.eq_ignore_ascii_case(&text))
        .collect();
    if let [(m, _)] = folded.as_slice() {
        return Ok(*m);
    }
    let mut notes = why_illegal(engine, &legal, &text);
    notes.push(legal_hint(engine, &legal, &text));
    Err(BadMove::Illegal { notes })
}

/// A move's text reduced to what a near miss keeps: letters and digits, lowercased
/// (`D5 - D6`, `d5d6` and `d5-d6` all read `d5d6`).
fn squashed(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .flat_map(char::to_lowercase)
        .collect()
}

/// The shape of a word: each run of letters `a`, each run of digits `9`, anything else as
/// itself (`1a1` and `2c3` are `9a9`; `z1` and `a10` are `a9`).
fn shape(word: &str) -> String {
    let mut out = String::new();
    for ch in word.chars() {
        let class = if ch.is_alphabetic() {
            'a'
        } else if ch.is_ascii_digit() {
            '9'
        } else {
            ch
        };
        if !(out.ends_with(class) && (class == 'a' || class == '9')) {
            out.push(class);
        }
    }
    out
}

/// Why `text` is no legal move, when that can be told: it differs from legal moves only in
/// spacing, letter case or punctuation; it names cells the board does not have (words shaped
/// like the board's cell names); or it names cells no legal move names.
fn why_illegal(engine: &Engine<'_>, legal: &[(Move, String)], text: &str) -> Vec<String> {
    let program = engine.program();
    let mut notes = Vec::new();
    let squashed_text = squashed(text);
    let near: Vec<&str> = legal
        .iter()
        .map(|(_, t)| t.as_str())
        .filter(|t| !squashed_text.is_empty() && squashed(t) == squashed_text)
        .collect();
    match near.as_slice() {
        [] => {}
        [one] => notes.push(format!("did you mean `{one}`?")),
        many => {
            let list: Vec<String> = many.iter().take(4).map(|t| format!("`{t}`")).collect();
            notes.push(format!("did you mean one of {}?", list.join(", ")));
        }
    }
    if !notes.is_empty() {
        return notes;
    }
    let cells = &program.board.names;
    let cell_shapes: Vec<String> = {
        let mut s: Vec<String> = cells.iter().map(|c| shape(c)).collect();
        s.sort();
        s.dedup();
        s
    };
    let used: std::collections::HashSet<String> = legal
        .iter()
        .flat_map(|(_, t)| t.split(|c: char| !c.is_alphanumeric()))
        .map(str::to_lowercase)
        .collect();
    let mut missing: Vec<&str> = Vec::new();
    let mut unused: Vec<&str> = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let lower = word.to_lowercase();
        if word.is_empty()
            || used.contains(&lower)
            || missing.contains(&word)
            || unused.contains(&word)
        {
            continue;
        }
        if cells.iter().any(|c| c.eq_ignore_ascii_case(word)) {
            unused.push(word);
        } else if cell_shapes.contains(&shape(word)) {
            missing.push(word);
        }
    }
    if let (Some(first), Some(last)) = (cells.first(), cells.last()) {
        for word in missing {
            notes.push(format!(
                "`{word}` is not a cell of the board (its {}: {first} … {last})",
                plural(cells.len(), "cell")
            ));
        }
    }
    for word in unused {
        let held = cells
            .iter()
            .position(|c| c.eq_ignore_ascii_case(word))
            .map_or_else(String::new, |cell| what_stands_on(engine, cell));
        notes.push(format!("no legal move names the cell `{word}` now{held}"));
    }
    if let Some(note) = failing_part(legal, text) {
        notes.push(note);
    }
    notes
}

/// What stands on `cell`, as the end of a note: `: it is empty`, `: it holds Black's pawn`.
fn what_stands_on(engine: &Engine<'_>, cell: usize) -> String {
    let program = engine.program();
    match engine.state.board.get(cell).copied() {
        None => String::new(),
        Some(0) => ": it is empty".to_string(),
        Some(code) => {
            let (kind, owner) = rulestone_ir::piece_kind_and_owner(code);
            let piece = program
                .pieces
                .get(kind)
                .map_or("piece", |p| p.name.as_str());
            format!(": it holds {}'s {piece}", program.player_name(owner))
        }
    }
}

/// Why the move written `text` here is refused, one note per failure: each `require` of the
/// game's source that fails (quoted with its line) and each `pick` whose set leaves out a cell
/// of the move, with every part of the set that does (`empty`, a step, a `where`, ...). Of the
/// ways through the turn that spell `text` (spacing, letter case and punctuation aside), those
/// with the fewest failures are told; a way is followed past several failures only towards
/// the cells the text names. At most [`MAX_REASONS`] notes.
pub fn refusing_rules(engine: &mut Engine<'_>, source: &str, text: &str) -> Vec<String> {
    let typed = squashed(text);
    let words = words_of(text);
    let named: Vec<usize> = engine
        .program()
        .board
        .names
        .iter()
        .enumerate()
        .filter(|(_, n)| words.iter().any(|w| n.eq_ignore_ascii_case(w)))
        .map(|(c, _)| c)
        .collect();
    let refusals: Vec<rulestone_runtime::Refusal> = engine
        .refusals_naming(&named)
        .into_iter()
        .filter(|r| squashed(&r.text) == typed)
        .collect();
    let Some(fewest) = refusals.iter().map(|r| r.failures).min() else {
        return Vec::new();
    };
    let closest: Vec<&[RefusedBy]> = refusals
        .iter()
        .filter(|r| r.failures == fewest)
        .map(|r| r.by.as_slice())
        .collect();
    let single_rules: Vec<rulestone_ir::BoolId> = closest
        .iter()
        .filter_map(|by| match by {
            [RefusedBy::Rule(rule)] => Some(*rule),
            _ => None,
        })
        .collect();
    if single_rules.len() == closest.len() {
        return rules_note(engine, source, &single_rules)
            .into_iter()
            .collect();
    }
    let mut notes: Vec<String> = Vec::new();
    for failure in failures_of(&closest) {
        let note = match failure {
            Failure::Rule(rule) => rules_note(engine, source, &[rule]),
            Failure::Pick(parts) => left_out(engine, source, &parts),
        };
        if let Some(note) = note.filter(|n| !notes.contains(n)) {
            notes.push(note);
        }
    }
    if notes.len() > MAX_REASONS {
        let more = notes.len() - (MAX_REASONS - 1);
        notes.truncate(MAX_REASONS - 1);
        notes.push(format!("(and {} more)", plural(more, "reason")));
    }
    notes
}

/// One failure of a way through the turn, as [`refusing_rules`] tells it.
enum Failure {
    Rule(rulestone_ir::BoolId),
    /// The refusals of one `pick` and cell: each part of the set that leaves the cell out.
    Pick(Vec<RefusedBy>),
}

/// The failures of the ways, in the order met, each once: a rule once however many ways it
/// refuses, a `pick` and cell once with the parts that leave the cell out on any of them.
fn failures_of(ways: &[&[RefusedBy]]) -> Vec<Failure> {
    let mut out: Vec<Failure> = Vec::new();
    for by in ways {
        for b in *by {
            match *b {
                RefusedBy::Rule(rule) => {
                    if !out
                        .iter()
                        .any(|f| matches!(f, Failure::Rule(r) if *r == rule))
                    {
                        out.push(Failure::Rule(rule));
                    }
                }
                RefusedBy::Pick { set, cell, .. } => {
                    let same = |x: &RefusedBy| matches!(x, RefusedBy::Pick { set: s, cell: c, .. } if *s == set && *c == cell);
                    let found = out.iter_mut().find_map(|f| match f {
                        Failure::Pick(parts) if parts.first().is_some_and(same) => Some(parts),
                        _ => None,
                    });
                    match found {
                        Some(parts) if !parts.contains(b) => parts.push(*b),
                        Some(_) => {}
                        None => out.push(Failure::Pick(vec![*b])),
                    }
                }
            }
        }
    }
    out
}

/// The most notes [`refusing_rules`] gives.
pub const MAX_REASONS: usize = 8;

/// ``it is refused by the rule at line 42, `require ...` or ...``: the rules that each refuse
/// the move on some way (up to three quoted).
fn rules_note(engine: &Engine<'_>, source: &str, rules: &[rulestone_ir::BoolId]) -> Option<String> {
    let mut distinct: Vec<rulestone_ir::BoolId> = Vec::new();
    for r in rules {
        if !distinct.contains(r) {
            distinct.push(*r);
        }
    }
    let quoted: Vec<String> = distinct
        .iter()
        .filter_map(|rule| engine.program().rule_spans.of(*rule))
        .map(|span| quote_rule(source, span))
        .collect();
    let (first, rest) = quoted.split_first()?;
    let mut list = first.clone();
    for (i, q) in rest.iter().enumerate().take(2) {
        list.push_str(if i + 1 == rest.len().min(2) {
            " or "
        } else {
            ", "
        });
        list.push_str(q);
    }
    if rest.len() > 2 {
        let _ = write!(list, " (and {} more)", rest.len() - 2);
    }
    Some(format!("it is refused by {list}"))
}

/// ``the cell `b3` is not in `empty & adjacent(c)` (line 12): it is not empty, it holds
/// Black's pawn``: the set of the `pick` that leaves the cell out, and each part of it that
/// does (`parts`: the refusals of one `pick` and cell).
fn left_out(engine: &Engine<'_>, source: &str, parts: &[RefusedBy]) -> Option<String> {
    let Some(&RefusedBy::Pick { set, cell, .. }) = parts.first() else {
        return None;
    };
    let program = engine.program();
    let cell = usize::from(cell);
    let name = program.board.names.get(cell)?;
    let (line, expr) = quoted_span(source, program.pick_spans.of(set)?);
    let mut reasons: Vec<String> = Vec::new();
    for p in parts {
        if let RefusedBy::Pick { part, inside, .. } = *p {
            let r = why_not_in(engine, cell, part, inside);
            if !r.is_empty() && !reasons.contains(&r) {
                reasons.push(r);
            }
        }
    }
    let reason = if reasons.is_empty() {
        String::new()
    } else {
        format!(": {}", reasons.join("; "))
    };
    Some(format!(
        "the cell `{name}` is not in `{expr}` (line {line}){reason}"
    ))
}

/// Why `cell` is left out by `part` of a set, when it can be said (empty when not).
fn why_not_in(engine: &Engine<'_>, cell: usize, part: rulestone_ir::SetId, inside: bool) -> String {
    use rulestone_ir::SetExpr;
    let program = engine.program();
    let stands = what_stands_on(engine, cell);
    let stands = stands.trim_start_matches(": ");
    if inside {
        return format!("it is in the part taken away by `-` ({stands})");
    }
    let relation = |r: &u16| {
        program
            .relations
            .get(usize::from(*r))
            .map_or_else(String::new, |r| r.name.clone())
    };
    match program.sets.get(usize::from(part)) {
        Some(SetExpr::Empty) => format!("it is not empty, {stands}"),
        Some(SetExpr::Occupied) => "it is empty".to_string(),
        Some(SetExpr::PlayerPieces(p)) => {
            let mover = engine.state.mover;
            let whose = match p {
                rulestone_ir::PlayerRef::Mover => Some(mover),
                rulestone_ir::PlayerRef::Opponent => Some(1 - mover.min(1)),
                rulestone_ir::PlayerRef::Const(q) => Some(*q),
                rulestone_ir::PlayerRef::Owner(_) => None,
            };
            match whose {
                Some(q) => format!(
                    "it does not hold a piece of {}, {stands}",
                    program.player_name(q)
                ),
                None => format!("it does not hold such a piece, {stands}"),
            }
        }
        Some(SetExpr::Pieces { .. }) => format!("it does not hold such a piece, {stands}"),
        Some(
            SetExpr::Where { .. }
            | SetExpr::AxisRows { .. }
            | SetExpr::AxisCmp { .. }
            | SetExpr::AxisKey { .. },
        ) => "its `where` condition does not hold".to_string(),
        Some(SetExpr::Step { relation: r, .. } | SetExpr::StepDir { relation: r, .. }) => {
            format!("no step along `{}` reaches it", relation(r))
        }
        Some(SetExpr::All { relation: r, of }) => {
            let what = match program.sets.get(usize::from(*of)) {
                Some(SetExpr::Occupied) => "occupied".to_string(),
                Some(SetExpr::Empty) => "empty".to_string(),
                _ => "in the set".to_string(),
            };
            format!("not all of its `{}` neighbours are {what}", relation(r))
        }
        Some(SetExpr::Any { relation: r, .. }) => {
            format!("none of its `{}` neighbours is in the set", relation(r))
        }
        Some(SetExpr::None { relation: r, .. }) => {
            format!("one of its `{}` neighbours is in the set", relation(r))
        }
        Some(SetExpr::Line { relation: r, .. }) => {
            format!("it is not on the line along `{}`", relation(r))
        }
        Some(SetExpr::Const(cells)) => match program.zones.iter().find(|z| z.cells == *cells) {
            Some(z) => format!("it is not in `{}`", z.name),
            None => "it is not one of the cells named there".to_string(),
        },
        Some(SetExpr::Local(_)) => "it is not in the `let` set".to_string(),
        _ => String::new(),
    }
}

/// A span's line and its first line of text, `…` marking the rest of a longer one.
fn quoted_span(source: &str, (start, end): (usize, usize)) -> (usize, String) {
    let line = source
        .get(..start)
        .map_or(0, |before| before.matches('\n').count())
        + 1;
    let text = source.get(start..end).unwrap_or("");
    let first = text.lines().next().unwrap_or("").trim();
    let cut = if text.trim().lines().count() > 1 {
        " …"
    } else {
        ""
    };
    (line, format!("{first}{cut}"))
}

/// ``the rule at line 42, `require not blocked(c)` ``: a rule's line and its first line.
fn quote_rule(source: &str, span: (usize, usize)) -> String {
    let (line, text) = quoted_span(source, span);
    format!("the rule at line {line}, `{text}`")
}

/// The words of a move's text: its runs of letters and digits, lowercased.
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// `text` as typed up to the end of its `k`-th word (`H@e6:Q`, 2: `H@e6`).
fn first_words(text: &str, k: usize) -> &str {
    let mut seen = 0;
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        let word = c.is_alphanumeric();
        if in_word && !word {
            seen += 1;
            if seen == k {
                return &text[..i];
            }
        }
        in_word = word;
    }
    text
}

/// Which part of `text` no legal move has: the longest run of its first words that begins some
/// legal moves, and the word after it (`Beam c6` begins 3 legal moves, none goes on with `q`).
fn failing_part(legal: &[(Move, String)], text: &str) -> Option<String> {
    let typed = words_of(text);
    let moves: Vec<(Vec<String>, &str)> = legal
        .iter()
        .map(|(_, t)| (words_of(t), t.as_str()))
        .collect();
    let begins = |k: usize| -> Vec<&str> {
        moves
            .iter()
            .filter(|(w, _)| w.len() > k && w[..k] == typed[..k])
            .map(|(_, t)| *t)
            .collect()
    };
    let k = (1..typed.len()).rev().find(|&k| !begins(k).is_empty())?;
    let starting = begins(k);
    let shown: Vec<String> = starting.iter().take(3).map(|t| format!("`{t}`")).collect();
    let more = if starting.len() > 3 { ", …" } else { "" };
    let prefix = first_words(text, k);
    Some(format!(
        "`{prefix}` begins {} ({}{more}), but none goes on with `{}`",
        plural(starting.len(), "legal move"),
        shown.join(", "),
        typed[k]
    ))
}

/// `White to move; legal moves: a1, a2, … (16 in all)`, listing first the moves that
/// start like `text` (e.g. the take-backs a placement must name).
pub fn legal_hint(engine: &Engine<'_>, legal: &[(Move, String)], text: &str) -> String {
    const SHOWN: usize = 8;
    let mover = engine.program().player_name(engine.state.mover);
    let starting: Vec<&str> = legal
        .iter()
        .map(|(_, t)| t.as_str())
        .filter(|t| !text.is_empty() && t.starts_with(text))
        .collect();
    if !starting.is_empty() {
        let more = starting.len().saturating_sub(SHOWN);
        let mut list = starting[..starting.len().min(SHOWN)].join(", ");
        if more > 0 {
            let _ = write!(list, ", … ({} in all)", starting.len());
        }
        return format!("{mover} to move; did you mean one of: {list}");
    }
    let all: Vec<&str> = legal.iter().map(|(_, t)| t.as_str()).collect();
    let mut list = all[..all.len().min(SHOWN)].join(", ");
    if all.len() > SHOWN {
        let _ = write!(list, ", … ({} in all)", all.len());
    }
    format!("{mover} to move; legal moves: {list}")
}

#[cfg(test)]
mod tests {
    use super::refusing_rules;
    use rulestone_runtime::Engine;

    const GAME: &str = "game \"Climb\"
players White, Black
board {
    axes x, y
    cells x in 0..3, y in 0..3
    name \"{letter(x)}{y + 1}\"
}
relation king = (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, 1) | (1, -1) | (-1, 1) | (-1, -1)
piece stone \"W\" \"B\"
setup {
    put stone of White at {a1, b2}
    put stone of Black at {d4}
}
turn {
    pick from in own
    pick to in empty & step(king, from)
    require to.y > from.y
    move from to to
    write \"{from}-{to}\"
}
on no moves {
    lose mover
}
";

    fn why(text: &str) -> Vec<String> {
        let program = rulestone_lower::compile(GAME, &[]).expect("compiles");
        let mut engine = Engine::new(&program);
        refusing_rules(&mut engine, GAME, text)
    }

    /// A move that fails a `pick` and a `require` is told both; a cell that both sides of an
    /// `&` leave out, both sides.
    #[test]
    fn every_failure_is_told() {
        let notes = why("d4-c4");
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].starts_with("the cell `d4` is not in `own`"),
            "{notes:?}"
        );
        assert!(
            notes[1].contains("line 17, `require to.y > from.y`"),
            "{notes:?}"
        );
        let notes = why("a1-d4");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("it is not empty") && notes[0].contains("no step along `king`"),
            "{notes:?}"
        );
        assert!(why("a1-a2").is_empty());
    }
}
