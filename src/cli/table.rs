//! Table games (discs on a simulated or real table) for the commands: loading a game with its
//! armies, starting a match, reading lists of decisions.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::check::table::TableGame;
use crate::diag;
use crate::ir::table::{Army, Axis, TableProgram};
use crate::runtime::table::TableMatch;
use crate::runtime::GameResult;
use crate::syntax;

use super::load::shown;
use super::{CliError, Fail, GameArgs, Result};

/// A table game loaded for one set of options, with the armies each player may choose from.
pub(crate) struct LoadedTable {
    pub path: PathBuf,
    pub program: TableProgram,
    pub armies: [Vec<Army>; 2],
    /// Where each option came from, for records: `FILE:NAME`.
    pub army_sources: [Vec<String>; 2],
}

/// The armies `--army` gives each player (`FILE` or `FILE:NAME`): the first player's, then
/// the second's; none means every army the game file declares.
pub(crate) fn army_specs(args: &GameArgs) -> Result<[Vec<String>; 2]> {
    if args.army.len() > 2 {
        return Err(
            CliError::new("at most two `--army` (the first player's, then the second's)").into(),
        );
    }
    Ok([
        args.army.first().cloned().into_iter().collect(),
        args.army.get(1).cloned().into_iter().collect(),
    ])
}

/// A built table game with each player's armies: `specs[p]` are player `p`'s, `FILE` (every
/// army in a deck file) or `FILE:NAME`, where FILE may be the game file itself; none means
/// every army the game file declares.
pub(crate) fn with_armies(
    path: &Path,
    game: &TableGame,
    program: TableProgram,
    specs: &[Vec<String>; 2],
) -> Result<LoadedTable> {
    let mut armies = [Vec::new(), Vec::new()];
    let mut sources = [Vec::new(), Vec::new()];
    for p in 0..2 {
        let own: Vec<String> = if specs[p].is_empty() {
            vec![shown(path)]
        } else {
            specs[p].clone()
        };
        for spec in &own {
            for (army, src) in armies_of(game, &program, path, spec)? {
                armies[p].push(army);
                sources[p].push(src);
            }
        }
        if armies[p].is_empty() {
            return Err(CliError::new(format!(
                "{} has no army: `{}` declares none; give one with `--army FILE`",
                program.players.get(p).map_or("a player", String::as_str),
                shown(path)
            ))
            .into());
        }
    }
    Ok(LoadedTable {
        path: path.to_path_buf(),
        program,
        armies,
        army_sources: sources,
    })
}

/// The armies of `FILE` or `FILE:NAME`: the game file's own, or a deck file's, checked against
/// the army rules.
fn armies_of(
    game: &TableGame,
    program: &TableProgram,
    game_path: &Path,
    spec: &str,
) -> Result<Vec<(Army, String)>> {
    let (file, name) = match spec.rsplit_once(':') {
        Some((f, n)) if !f.is_empty() && !n.contains('/') => (f, Some(n)),
        _ => (spec, None),
    };
    let wanted = |n: &str| name.is_none_or(|w| w == n);
    let path = Path::new(file);
    let mut out = Vec::new();
    if shown(path) == shown(game_path) {
        for a in program.armies.iter().filter(|a| wanted(&a.name)) {
            out.push((a.clone(), format!("{}:{}", shown(path), a.name)));
        }
    } else {
        let source = super::load::read(path)?;
        let armies = match syntax::parse_deck(&source) {
            Ok(a) => a,
            Err(errors) => {
                let errors = diag::boxed(errors);
                eprint!(
                    "{}",
                    diag::render(&errors, &source, &shown(path), super::color_stderr())
                );
                return Err(Fail::Reported(None));
            }
        };
        for army in armies.iter().filter(|a| wanted(&a.name.name)) {
            let diags = crate::check::deck::check_army(game, army);
            if diag::has_errors(&diags) {
                eprint!(
                    "{}",
                    diag::render(&diags, &source, &shown(path), super::color_stderr())
                );
                return Err(Fail::Reported(None));
            }
            let resolved =
                crate::lower::table::resolve_army(program, army).map_err(CliError::new)?;
            out.push((resolved, format!("{}:{}", shown(path), army.name.name)));
        }
    }
    if out.is_empty() {
        return Err(CliError::new(format!(
            "`{}` has no army{}",
            shown(path),
            name.map_or(String::new(), |n| format!(" `{n}`"))
        ))
        .into());
    }
    Ok(out)
}

/// Splits a `;`-separated list of decisions; a `result` keeps its own `;`-separated parts.
pub(crate) fn split_decisions(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(';').map(super::load::normalize) {
        if piece.is_empty() {
            continue;
        }
        let continues = ["capture ", "move ", "off "]
            .iter()
            .any(|p| piece.starts_with(p));
        match out.last_mut() {
            Some(last) if continues && last.starts_with("result") => {
                last.push_str("; ");
                last.push_str(&piece);
            }
            _ => out.push(piece),
        }
    }
    out
}

/// Plays `list` (`--after`, a record); `place(i)` names the i-th in messages.
fn play_all(
    m: &mut TableMatch<'_>,
    texts: &[String],
    place: impl Fn(usize) -> String,
) -> Result<()> {
    for (i, text) in texts.iter().enumerate() {
        if let Some(r) = m.outcome() {
            return Err(CliError::new(format!(
                "{}, `{text}`, comes after the end of the match",
                place(i)
            ))
            .note(format!("the match ended: {}", result_text(m, r)))
            .into());
        }
        let d = m.parse(text).map_err(|e| {
            CliError::new(format!(
                "{}, `{text}`, is not a decision of this game",
                place(i)
            ))
            .note(e.0)
        })?;
        m.apply(&d).map_err(|e| {
            CliError::new(format!("{}, `{text}`, is not legal", place(i))).note(e.0)
        })?;
    }
    Ok(())
}

pub(crate) fn result_text(m: &TableMatch<'_>, r: GameResult) -> String {
    match r {
        GameResult::Win(p) => format!("{} wins", m.player(p)),
        GameResult::Draw => "draw".into(),
    }
}

/// A match of a loaded table game from its deal, after the `--after` decisions.
pub(crate) fn start<'t>(
    t: &'t LoadedTable,
    deal: u64,
    after: Option<&str>,
) -> Result<TableMatch<'t>> {
    let mut m = TableMatch::new(&t.program, t.armies.clone(), deal);
    if let Some(list) = after {
        play_all(&mut m, &split_decisions(list), |i| {
            format!("decision {} of `--after`", i + 1)
        })?;
    }
    Ok(m)
}

/// The table drawn as text, 60 characters across its length: lines, and each stone on the table
/// by its kind's letter (the first player's in capitals). Drawing is the command line's: the
/// runtime only keeps the match.
pub(crate) fn draw(m: &TableMatch<'_>) -> String {
    let p = m.program;
    let cols = 60usize;
    let rows = 15usize;
    #[allow(clippy::cast_precision_loss)]
    let (sx, sy) = (p.length / cols as f64, p.width / rows as f64);
    let mut grid = vec![vec![' '; cols]; rows];
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let col = |x: f64| ((x / sx).floor().max(0.0) as usize).min(cols - 1);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let row = |y: f64| rows - 1 - ((y / sy).floor().max(0.0) as usize).min(rows - 1);
    for l in &p.lines {
        if l.axis == Axis::X {
            let c = col(l.at);
            let mark = if l.capture.is_some() { '|' } else { ':' };
            for r in &mut grid {
                r[c] = mark;
            }
        }
    }
    for s in &m.position.stones {
        if s.disc.on_table {
            let letter = p.discs[s.kind].letter.chars().next().unwrap_or('o');
            let ch = if s.owner == 0 {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            grid[row(s.disc.y)][col(s.disc.x)] = ch;
        }
    }
    let mut out = String::new();
    let wall = format!("+{}+\n", "=".repeat(cols));
    out.push_str(&wall);
    for r in grid {
        out.push('|');
        out.extend(r);
        out.push_str("|\n");
    }
    out.push_str(&wall);
    let _ = writeln!(
        out,
        "{} stones are capitals, {} stones small letters; `|` capture lines, `:` other lines",
        m.player(0),
        m.player(1)
    );
    out
}
