//! The loading pipeline every game command shares, and the reading of moves typed as text.
//!
//! read → [`parse`](crate::syntax::parse) → [`check`](crate::check::check) → options →
//! [`lower`](crate::ir::lower) → [`Engine::new`], then the `--after` moves.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::check::options::split_set;
use crate::diag::{self, Diag};
use crate::ir::Program;
use crate::runtime::compiled::{Backend, Compiled};
use crate::runtime::{Engine, GameResult, Move};
use crate::syntax::{self, ast};
use crate::Built;

use super::{color_stderr, CliError, Fail, GameArgs, Result};

/// The note for a command that runs board games only, given a table game.
pub(crate) const TABLE_COMMANDS: &str =
    "table games run with `check`, `info`, `moves`, `play`, `playout`, `arena`, `analyze` and `replay`";

/// A game file read, checked and lowered for a set of option values.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// The path as given on the command line (or in a record).
    pub path: PathBuf,
    pub program: Program,
    /// The generator this program's engines use.
    pub backend: Backend,
    /// The game file's text, for quoting its rules.
    pub source: String,
    /// Raised when one of this program's engines runs out of generation steps (E1008): the
    /// command's figures are then wrong, and it ends with that error.
    pub exhausted: Arc<AtomicBool>,
}

impl Loaded {
    /// A new engine at the start position, on this program's backend.
    pub fn engine(&self) -> Engine<'_> {
        let mut engine = Engine::with_backend(&self.program, self.backend);
        engine.share_alarm(Arc::clone(&self.exhausted));
        engine
    }

    /// The E1008 error once one of this program's engines ran out of generation steps.
    ///
    /// # Errors
    /// That error, rendered on standard error.
    pub fn steps_ok(&self) -> Result<()> {
        if self.exhausted.load(Ordering::Relaxed) {
            return super::steps_exceeded(&self.path);
        }
        Ok(())
    }
}

/// Reads a file to a string.
pub(crate) fn read(path: &Path) -> Result<String> {
    super::read_file(path).map_err(|e| CliError::io("read", path, &e).into())
}

/// The path as it should appear in messages: as given, with `/` separators.
pub(crate) fn shown(path: &Path) -> String {
    path.display().to_string().replace('\\', "/")
}

/// Renders the errors among `diags` on standard error (warnings are `check`'s business); the
/// first error's code, for the closing hint (see [`Fail::Reported`]).
pub(crate) fn report_errors(diags: Vec<Diag>, source: &str, path: &Path) -> Option<String> {
    let errors: Vec<Diag> = diags
        .into_iter()
        .filter(|d| diag::severity(d.as_ref()) == diag::Severity::Error)
        .collect();
    eprint!(
        "{}",
        diag::render(&errors, source, &shown(path), color_stderr())
    );
    eprintln!(
        "error: cannot load `{}` due to {}",
        shown(path),
        super::plural(errors.len(), "previous error")
    );
    errors.iter().find_map(|d| diag::code_of(d.as_ref()))
}

/// Reads and parses a game file; syntax errors, or that it is no game file, are rendered
/// (exit 1).
pub(crate) fn parse(path: &Path) -> Result<(String, ast::File)> {
    let source = read(path)?;
    if let Some(d) = crate::not_a_game_file(&shown(path), &source) {
        return Err(Fail::Reported(report_errors(vec![d], &source, path)));
    }
    match syntax::parse(&source) {
        Ok(file) => Ok((source, file)),
        Err(errors) => Err(Fail::Reported(report_errors(
            diag::boxed(errors),
            &source,
            path,
        ))),
    }
}

/// Splits the `--set NAME=VALUE` arguments.
pub(crate) fn split_sets(sets: &[String]) -> Result<Vec<(String, String)>> {
    sets.iter()
        .map(|s| split_set(s).map_err(|e| CliError::new(e.to_string()).into()))
        .collect()
}

/// The whole pipeline for a game file and `--set` arguments.
pub(crate) fn load(args: &GameArgs, compiled: Compiled) -> Result<Loaded> {
    let sets = split_sets(&args.set)?;
    load_with(&args.file, &sets, compiled)
}

/// The whole pipeline for a game file and option values ([`crate::compile_parsed`]); every
/// problem is rendered against the source (exit 1).
pub(crate) fn load_with(
    path: &Path,
    sets: &[(String, String)],
    compiled: Compiled,
) -> Result<Loaded> {
    let (source, file) = parse(path)?;
    load_parsed(path, &source, &file, sets, compiled)
}

/// [`load_with`] for a file already read and parsed (`compile` lowers one file for several
/// option values).
pub(crate) fn load_parsed(
    path: &Path,
    source: &str,
    file: &ast::File,
    sets: &[(String, String)],
    compiled: Compiled,
) -> Result<Loaded> {
    match build(path, source, file, sets)? {
        Built::Board(program) => Ok(board(path, source, program, compiled)),
        Built::Table(..) => Err(CliError::new(format!(
            "`{}` is a table game: its shots are continuous, so this command does not apply",
            shown(path)
        ))
        .note(TABLE_COMMANDS)
        .into()),
    }
}

/// A board game's program, loaded for the backend `compiled` offers.
pub(crate) fn board(path: &Path, source: &str, program: Program, compiled: Compiled) -> Loaded {
    Loaded {
        path: path.to_path_buf(),
        backend: compiled.backend_for(&program),
        exhausted: Arc::default(),
        program,
        source: source.to_string(),
    }
}

/// The whole pipeline for a parsed file of either kind ([`crate::build_parsed`]); every
/// problem is rendered against the source (exit 1, or 2 for a refused option).
pub(crate) fn build(
    path: &Path,
    source: &str,
    file: &ast::File,
    sets: &[(String, String)],
) -> Result<Built> {
    crate::build_parsed(file, sets).map_err(|e| {
        let code = report_errors(e.diags, source, path);
        if e.bad_options {
            Fail::ReportedUsage(code)
        } else {
            Fail::Reported(code)
        }
    })
}

/// A player's name, or `player N` if the program has no name for it.
pub(crate) fn player_name(program: &Program, player: u8) -> String {
    program
        .players
        .get(usize::from(player))
        .cloned()
        .unwrap_or_else(|| format!("player {}", u32::from(player) + 1))
}

/// The option values of a program, `size=5, variant=short`; `None` without options.
pub(crate) fn options_text(program: &Program) -> Option<String> {
    let opts: Vec<String> = program
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    (!opts.is_empty()).then(|| opts.join(", "))
}

/// `White wins`, `draw`.
pub(crate) fn result_text(program: &Program, result: GameResult) -> String {
    match result {
        GameResult::Win(p) => format!("{} wins", player_name(program, p)),
        GameResult::Draw => "draw".to_string(),
    }
}

/// Collapses runs of whitespace to one space and trims.
pub(crate) fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits a `;`-separated move list into normalized moves, dropping empty entries.
pub(crate) fn split_moves(list: &str) -> Vec<String> {
    list.split(';')
        .map(normalize)
        .filter(|m| !m.is_empty())
        .collect()
}

/// The legal moves of the engine's position with their notation, in generation order.
pub(crate) fn legal_with_text(engine: &mut Engine<'_>) -> Vec<(Move, String)> {
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

/// Why a typed move could not be played.
#[derive(Debug)]
pub(crate) enum BadMove {
    /// The game ended before this move.
    GameOver(String),
    /// Not the notation of any legal move; carries notes for the message: why, when it can be
    /// told (a cell that is not on the board, a near miss of a legal move's spelling), then a
    /// hint listing legal moves.
    Illegal { notes: Vec<String> },
}

/// Finds the legal move written `text` (whitespace normalized; letter case is ignored when
/// that leaves exactly one candidate).
pub(crate) fn find_move(engine: &mut Engine<'_>, text: &str) -> std::result::Result<Move, BadMove> {
    let text = normalize(text);
    if let Some(r) = engine.outcome() {
        return Err(BadMove::GameOver(result_text(engine.program(), r)));
    }
    let legal = legal_with_text(engine);
    if let Some((m, _)) = legal.iter().find(|(_, t)| *t == text) {
        return Ok(*m);
    }
    let folded: Vec<&(Move, String)> = legal
        .iter()
        .filter(|(_, t)| t.eq_ignore_ascii_case(&text))
        .collect();
    if let [(m, _)] = folded.as_slice() {
        return Ok(*m);
    }
    let mut notes = why_illegal(engine.program(), &legal, &text);
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
fn why_illegal(program: &Program, legal: &[(Move, String)], text: &str) -> Vec<String> {
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
                super::plural(cells.len(), "cell")
            ));
        }
    }
    for word in unused {
        notes.push(format!("no legal move names the cell `{word}` now"));
    }
    if let Some(note) = failing_part(legal, text) {
        notes.push(note);
    }
    notes
}

/// Which `require` of the game's source refuses the move written `text` here: the rules that
/// refuse a move spelt `text` (spacing, letter case and punctuation aside) when every other
/// rule of its way through the turn holds. Up to three rules are quoted.
pub(crate) fn refusing_rules(engine: &mut Engine<'_>, source: &str, text: &str) -> Option<String> {
    let typed = squashed(text);
    let mut rules: Vec<crate::ir::BoolId> = Vec::new();
    for r in engine.refusals() {
        if squashed(&r.text) == typed && !rules.contains(&r.rule) {
            rules.push(r.rule);
        }
    }
    let quoted: Vec<String> = rules
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

/// ``the rule at line 42, `require not blocked(c)` ``: a rule's line and its first line.
fn quote_rule(source: &str, (start, end): (usize, usize)) -> String {
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
    format!("the rule at line {line}, `{first}{cut}`")
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
        super::plural(starting.len(), "legal move"),
        shown.join(", "),
        typed[k]
    ))
}

/// `White to move; legal moves: a1, a2, … (16 in all)`, listing first the moves that
/// start like `text` (e.g. the take-backs a placement must name).
pub(crate) fn legal_hint(engine: &Engine<'_>, legal: &[(Move, String)], text: &str) -> String {
    const SHOWN: usize = 8;
    let mover = player_name(engine.program(), engine.state.mover);
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

/// Plays a `;`-separated list of moves from the engine's position. `source` names the list in
/// messages (`--after`, `--moves`). Returns the moves played with their notation.
pub(crate) fn play_list(
    engine: &mut Engine<'_>,
    list: &str,
    source: &str,
) -> Result<Vec<(Move, String)>> {
    let texts = split_moves(list);
    play_texts(engine, &texts, |i| format!("move {} of {source}", i + 1))
}

/// The most moves a typed list (`--after`) or a record may hold: far more than any game lasts,
/// few enough that playing them all ends within seconds.
pub(crate) const MAX_LISTED_MOVES: usize = 100_000;

/// Refuses a list of more than [`MAX_LISTED_MOVES`] moves; `last` names its last move.
///
/// # Errors
/// The count and the limit.
pub(crate) fn list_fits(count: usize, last: impl FnOnce() -> String) -> Result<()> {
    if count <= MAX_LISTED_MOVES {
        return Ok(());
    }
    Err(CliError::new(format!(
        "{} moves are too many: a list of moves holds at most {}",
        super::grouped(count as u64),
        super::grouped(MAX_LISTED_MOVES as u64)
    ))
    .note(format!("the last would be {}", last()))
    .into())
}

/// Plays moves given as text; `place(i)` names the `i`th (0-based) in messages. A list longer
/// than [`MAX_LISTED_MOVES`] is refused before any is played.
pub(crate) fn play_texts(
    engine: &mut Engine<'_>,
    texts: &[String],
    place: impl Fn(usize) -> String,
) -> Result<Vec<(Move, String)>> {
    list_fits(texts.len(), || place(texts.len() - 1))?;
    let mut played = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        match find_move(engine, text) {
            Ok(m) => {
                let shown = normalize(&engine.move_text(&m));
                let _ = engine.apply(&m);
                played.push((m, shown));
            }
            Err(BadMove::GameOver(result)) => {
                return Err(CliError::new(format!(
                    "{}, `{text}`, comes after the end of the game",
                    place(i)
                ))
                .note(format!("the game ended: {result}"))
                .into());
            }
            Err(BadMove::Illegal { notes }) => {
                return Err(
                    CliError::new(format!("{}, `{text}`, is not a legal move", place(i)))
                        .notes(notes)
                        .into(),
                );
            }
        }
    }
    Ok(played)
}
