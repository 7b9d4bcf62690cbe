//! Game records on disk: reading and writing the files `save` writes and `load` and `replay`
//! read. The format itself, and its text, is [`rulestone_session::record`]'s.

use std::path::{Path, PathBuf};

use crate::runtime::{Engine, Game, GameResult};

use super::load::{self, result_text, shown};
use super::output::{self, Output};
use super::replay::{Moves, Replaying};
use super::{CliError, GameArgs, Result};

pub(crate) use rulestone_session::record::{file_hash, Record};

/// What only the command line knows of a record: the files it names, and the record of a game
/// in play, which hashes its game file.
pub(crate) trait RecordFiles {
    /// The record of a game in play: its file and name, the values it was loaded with, its
    /// deal and armies when it has them, the moves so far and its result when over.
    fn of<G: Game>(game: &mut G, keys: &Keys, moves: &[String]) -> Record;

    /// The game file: a relative path is tried against the directory of the record at
    /// `record_path`, then against the current directory.
    fn game_path(&self, record_path: &Path) -> PathBuf;

    /// The record as written at `record_path`: its game file and the files of its armies
    /// relative to the record's directory, where both can be resolved.
    fn relative_to(&self, record_path: &Path) -> Record;
}

impl RecordFiles for Record {
    fn of<G: Game>(game: &mut G, keys: &Keys, moves: &[String]) -> Record {
        let result = game.outcome().map(|r| (0, result_of(game, r)));
        Record {
            game: keys.path.clone(),
            game_name: Some(keys.name.clone()),
            game_hash: super::read_file(&keys.path)
                .ok()
                .map(|text| file_hash(text.as_bytes())),
            options: keys.options.clone(),
            deal: game.dealt().then_some(keys.deal),
            armies: keys.armies.clone(),
            moves: moves.iter().map(|m| (0, m.clone())).collect(),
            result,
        }
    }

    fn game_path(&self, record_path: &Path) -> PathBuf {
        found_from(&self.game, record_path)
    }

    fn relative_to(&self, record_path: &Path) -> Record {
        let dir = record_path.parent().map(|d| {
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            }
        });
        let from = dir.and_then(|d| std::fs::canonicalize(d).ok());
        let relative = |file: &Path| {
            from.as_ref()
                .zip(std::fs::canonicalize(file).ok())
                .map_or_else(|| file.to_path_buf(), |(from, to)| relative_path(from, &to))
        };
        let armies = self
            .armies
            .iter()
            .map(|(player, spec)| {
                let (file, name) = army_parts(spec);
                let file = relative(Path::new(file)).display().to_string();
                let spec = name.map_or_else(|| file.clone(), |n| format!("{file}:{n}"));
                (player.clone(), spec)
            })
            .collect();
        Record {
            game: relative(&self.game),
            armies,
            ..self.clone()
        }
    }
}

/// A file a record names: a relative path is tried against the directory of the record at
/// `record_path`, then against the current directory.
fn found_from(file: &Path, record_path: &Path) -> PathBuf {
    if file.is_absolute() {
        return file.to_path_buf();
    }
    match record_path.parent() {
        Some(dir) if dir.join(file).is_file() => tidy(&dir.join(file)),
        _ => file.to_path_buf(),
    }
}

/// An army's `FILE:NAME` (or `FILE`) in its parts.
fn army_parts(spec: &str) -> (&str, Option<&str>) {
    match spec.rsplit_once(':') {
        Some((f, n)) if !f.is_empty() && !n.contains('/') => (f, Some(n)),
        _ => (spec, None),
    }
}

/// Reads and parses the record at `path`.
pub(crate) fn read(path: &Path) -> Result<Record> {
    let text = load::read(path)?;
    Record::parse(&text).map_err(|e| {
        let mut err =
            CliError::new(format!("`{}` is not a valid game record", shown(path))).note(e);
        if path.extension().is_some_and(|x| x == "game") {
            err = err.note("to replay moves of a game file, add `--moves \"M1; M2; ...\"`");
        }
        err.into()
    })
}

/// Writes the record to `path`, its game file relative to the record's directory.
/// Checks, before a game starts, that a record can be written at `path`: a directory, a
/// missing folder or a read-only place is refused then rather than after the game.
pub(crate) fn check_writable(path: &Path) -> Result<()> {
    let refuse = |why: String| -> Result<()> {
        Err(CliError::new(format!(
            "cannot write the record to `{}`: {why}",
            shown(path)
        ))
        .note("give `--record` a file in a folder you can write; nothing was played")
        .into())
    };
    if path.is_dir() {
        return refuse("it is a directory".to_string());
    }
    output::refuse_other(path, Output::Record)?;
    let existed = path.exists();
    match std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
    {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => refuse(e.to_string()),
    }
}

/// Writes a record's text to `path`; when that fails, to a new file beside the working
/// directory (`rulestone-unsaved-N.rec`), or as a last resort to standard error, and fails
/// saying where the game went: a game played is never lost.
pub(crate) fn write_or_rescue(path: &Path, text: &str) -> Result<()> {
    let written = match output::refuse_other(path, Output::Record) {
        Ok(()) => std::fs::write(path, text).map_err(|e| e.to_string()),
        Err(_) => Err("it exists and is not a game record".to_string()),
    };
    let Err(e) = written else {
        return Ok(());
    };
    let failed = format!("cannot write `{}`: {e}", shown(path));
    for n in 0..1000 {
        let rescue = PathBuf::from(format!("rulestone-unsaved-{}-{n}.rec", std::process::id()));
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&rescue);
        if let Ok(mut file) = created {
            if std::io::Write::write_all(&mut file, text.as_bytes()).is_ok() {
                return Err(CliError::new(failed)
                    .note(format!(
                        "the game was saved to `{}` instead",
                        shown(&rescue)
                    ))
                    .into());
            }
        }
    }
    eprintln!("{text}");
    Err(CliError::new(failed)
        .note("no file could be written: the record is printed above")
        .into())
}

/// `path` without `..` steps, and relative to the current directory when it lies below it: how
/// messages show a game file found next to its record.
fn tidy(path: &Path) -> PathBuf {
    let Ok(full) = std::fs::canonicalize(path) else {
        return path.to_path_buf();
    };
    std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .ok()
        .and_then(|here| full.strip_prefix(here).ok().map(Path::to_path_buf))
        .unwrap_or(full)
}

/// Whether two paths lead to the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    std::fs::canonicalize(a)
        .ok()
        .zip(std::fs::canonicalize(b).ok())
        .is_some_and(|(a, b)| a == b)
}

/// The path that leads from the directory `from` to `to`, both absolute and canonical.
fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path = PathBuf::new();
    for _ in shared..from.len() {
        path.push("..");
    }
    for part in &to[shared..] {
        path.push(part);
    }
    path
}

/// Warns (on standard error) when the record's game file is not the one it was written for.
pub(crate) fn warn_if_changed(record: &Record, game: &Path, path: &Path) {
    let Some(hash) = &record.game_hash else {
        return;
    };
    let Ok(text) = super::read_file(game) else {
        return;
    };
    let now = file_hash(text.as_bytes());
    if &now != hash {
        eprintln!(
            "warning: `{}` changed since the record `{}` was written (hash {hash}, now {now}); \
             its moves may no longer be legal",
            shown(game),
            shown(path)
        );
    }
}

/// What a game records beside its moves ([`Record::of`]).
pub(crate) struct Keys {
    /// The game file.
    pub path: PathBuf,
    /// The game's name.
    pub name: String,
    /// Every value the game was loaded with (`--set`).
    pub options: Vec<(String, String)>,
    /// The seed of the game's own chance (`--deal`).
    pub deal: u64,
    /// Each player's name and one army they could choose, `FILE:NAME`.
    pub armies: Vec<(String, String)>,
}

/// `White wins`, `draw`: a result as records write it.
pub(crate) fn result_of<G: Game>(game: &G, result: GameResult) -> String {
    match result {
        GameResult::Win(p) => format!("{} wins", game.player_name(p)),
        GameResult::Draw => "draw".to_string(),
    }
}

/// Reads the record at `path`, ready to play or replay: its game with the values it was loaded
/// with, deal and armies, and its moves with their lines.
pub(crate) fn replaying(path: &Path) -> Result<Replaying> {
    let record = read(path)?;
    let game = record.game_path(path);
    warn_if_changed(&record, &game, path);
    let armies = if record.armies.is_empty() {
        None
    } else {
        Some(armies_by_player(&record, &game, path)?)
    };
    Ok(Replaying {
        game: GameArgs {
            file: game,
            set: record
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            army: Vec::new(),
            deal: record.deal.unwrap_or(1),
        },
        armies,
        moves: Moves::Recorded(record.moves.clone()),
        result: record.result.clone(),
        record: Some(path.to_path_buf()),
    })
}

/// The record's `army` lines, each player's (first, then second) as the game file names them.
fn armies_by_player(record: &Record, game: &Path, path: &Path) -> Result<[Vec<String>; 2]> {
    let (_, file) = load::parse(game).map_err(|f| while_loading(f, path))?;
    let players: Vec<String> = file
        .items
        .iter()
        .find_map(|i| match &i.kind {
            crate::syntax::ast::ItemKind::Players(ps) => {
                Some(ps.iter().map(|p| p.name.clone()).collect())
            }
            _ => None,
        })
        .unwrap_or_default();
    let mut specs = [Vec::new(), Vec::new()];
    for (player, spec) in &record.armies {
        let p = players.iter().position(|n| n == player).filter(|&p| p < 2);
        let p = p.ok_or_else(|| {
            CliError::new(format!("{}: no player `{player}`", shown(path)))
                .note(format!("the players are {}", players.join(" and ")))
        })?;
        let (file, name) = army_parts(spec);
        let file = found_from(Path::new(file), path);
        // The game file's own armies are named by the game file as it is loaded.
        let file = if same_file(&file, game) {
            game.to_path_buf()
        } else {
            file
        };
        let file = shown(&file);
        specs[p].push(name.map_or_else(|| file.clone(), |n| format!("{file}:{n}")));
    }
    Ok(specs)
}

/// A failure to load the game of the record at `path`, saying so.
pub(crate) fn while_loading(failed: super::Fail, path: &Path) -> super::Fail {
    match failed {
        super::Fail::Error(e) => {
            super::Fail::Error(e.note(format!("while loading the record `{}`", shown(path))))
        }
        other @ (super::Fail::Reported(_)
        | super::Fail::ReportedUsage(_)
        | super::Fail::Stopped) => {
            eprintln!("  = while loading the record `{}`", shown(path));
            other
        }
    }
}

/// Plays the record's moves on a fresh engine of its game, and checks its `result` line.
/// Returns the moves as played (normalized notation).
pub(crate) fn replay_moves(
    engine: &mut Engine<'_>,
    record: &Record,
    path: &Path,
) -> Result<Vec<String>> {
    let texts: Vec<String> = record.moves.iter().map(|(_, m)| m.clone()).collect();
    let played = load::play_texts(engine, &texts, |i| {
        format!(
            "`{}` line {}: move {}",
            shown(path),
            record.moves.get(i).map_or(0, |(n, _)| *n),
            i + 1
        )
    })?;
    check_result(engine, record, path)?;
    Ok(played.into_iter().map(|(_, t)| t).collect())
}

/// Checks the record's `result` line (if any) against the engine's position.
pub(crate) fn check_result(engine: &mut Engine<'_>, record: &Record, path: &Path) -> Result<()> {
    let Some((line, claimed)) = &record.result else {
        return Ok(());
    };
    let reached = engine.outcome().map(|r| result_text(engine.program(), r));
    claim_holds(path, *line, claimed, reached)
}

/// Whether the result a record's `result` line (at `line`) claims is the one its moves
/// `reached` (none while the game goes on); else the error that says both.
pub(crate) fn claim_holds(
    path: &Path,
    line: usize,
    claimed: &str,
    reached: Option<String>,
) -> Result<()> {
    if reached.as_deref() == Some(claimed) {
        return Ok(());
    }
    Err(CliError::new(format!(
        "`{}` line {line}: the record says `{claimed}`, but its moves end with {}",
        shown(path),
        reached.map_or("the game still going".to_string(), |a| format!("`{a}`"))
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    #[test]
    fn relative_paths_lead_from_the_record_to_the_game() {
        let path = |p: &str| PathBuf::from(p);
        let rel = super::relative_path;
        assert_eq!(
            rel(&path("/a/b"), &path("/a/g/x.game")),
            path("../g/x.game")
        );
        assert_eq!(rel(&path("/a"), &path("/a/x.game")), path("x.game"));
        assert_eq!(
            rel(&path("/a/b/c"), &path("/x.game")),
            path("../../../x.game")
        );
    }
}
