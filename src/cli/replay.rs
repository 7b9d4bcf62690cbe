//! `rulestone replay`: a saved game (or a game file and moves), of any kind, drawn after every
//! move.

use crate::runtime::{Compiled, Game, GameResult};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use super::any::{with_game_armies, Games, OnGame, Shown};
use super::load::{shown, BadMove};
use super::record;
use super::{emit, CliError, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct ReplayArgs {
    /// A game record written by `save` in `play`; with `--moves`, a game file.
    #[arg(value_name = "RECORD|FILE")]
    pub path: PathBuf,

    /// Replay these moves (separated by `;`) of the game file PATH instead of a record.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,

    /// Set an option of the game file (only with `--moves`; a record holds its options).
    #[arg(long = "set", value_name = "NAME=VALUE", requires = "moves")]
    pub set: Vec<String>,
}

/// What `replay` plays: a game with its options (and, for a table record, its deal and
/// armies), the decisions, and the result the record claims.
pub(crate) struct Replaying {
    pub game: GameArgs,
    /// Each player's armies as a table record keeps them; `None` for the game's own.
    pub armies: Option<[Vec<String>; 2]>,
    pub moves: Moves,
    /// The record's `result` line: its line number and text.
    pub result: Option<(usize, String)>,
    /// The record file, when replaying one.
    pub record: Option<PathBuf>,
}

/// The decisions to replay.
pub(crate) enum Moves {
    /// A `;`-separated list typed on the command line (`--moves`).
    Typed(String),
    /// A record's decisions, each with its line.
    Recorded(Vec<(usize, String)>),
}

pub(crate) fn run(args: &ReplayArgs, compiled: Compiled) -> Result<()> {
    let replaying = match &args.moves {
        Some(list) => Replaying {
            game: GameArgs {
                file: args.path.clone(),
                set: args.set.clone(),
                army: Vec::new(),
                deal: 1,
            },
            armies: None,
            moves: Moves::Typed(list.clone()),
            result: None,
            record: None,
        },
        // Records come in two formats: a table record also keeps the deal and the armies.
        None if super::table::is_record(&args.path) => super::table::read_record(&args.path)?,
        None => board_record(&args.path)?,
    };
    let task = Replay {
        replaying: &replaying,
    };
    let armies = replaying.armies.as_ref();
    match with_game_armies(&replaying.game, armies, None, compiled, task) {
        Ok(replayed) => replayed,
        Err(failed) => Err(match &replaying.record {
            Some(path) => record::while_loading(failed, path),
            None => failed,
        }),
    }
}

/// A game record of `play`'s `save`, ready to replay.
fn board_record(path: &Path) -> Result<Replaying> {
    let record = record::read(path)?;
    let game = record.game_path(path);
    record::warn_if_changed(&record, &game, path);
    Ok(Replaying {
        game: GameArgs {
            file: game,
            set: record
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            army: Vec::new(),
            deal: 1,
        },
        armies: None,
        moves: Moves::Recorded(record.moves.clone()),
        result: record.result.clone(),
        record: Some(path.to_path_buf()),
    })
}

/// Draws the game at the start and after every decision; the errors of the replay itself
/// (loading errors are the caller's).
struct Replay<'a> {
    replaying: &'a Replaying,
}

impl OnGame for Replay<'_> {
    type Output = Result<()>;

    fn run<G: Shown>(self, games: &Games<'_, G>) -> Result<Result<()>> {
        Ok(replay(self.replaying, games))
    }
}

fn replay<G: Shown>(r: &Replaying, games: &Games<'_, G>) -> Result<()> {
    let mut game = (games.start)(games.deal)?;
    let moves: Vec<(String, String)> = match &r.moves {
        Moves::Typed(list) => game
            .split(list)
            .into_iter()
            .enumerate()
            .map(|(i, m)| (format!("move {} of `--moves`", i + 1), m))
            .collect(),
        Moves::Recorded(lines) => lines
            .iter()
            .enumerate()
            .map(|(i, (line, m))| {
                let path = r.record.as_deref().map(shown).unwrap_or_default();
                (format!("`{path}` line {line}: move {}", i + 1), m.clone())
            })
            .collect(),
    };
    // An absurdly long list is refused before anything is drawn.
    super::load::list_fits(moves.len(), || {
        moves
            .last()
            .map_or_else(String::new, |(place, _)| place.clone())
    })?;
    let mut out = format!("{}\n", games.title);
    if let Some(opts) = &games.options {
        let _ = writeln!(out, "options: {opts}");
    }
    out.push_str("\nstart\n");
    out.push_str(&game.drawing());
    emit(&out)?;
    for (i, (place, text)) in moves.iter().enumerate() {
        let d = match game.read(text) {
            Ok(d) => d,
            Err(BadMove::GameOver(result)) => {
                return Err(CliError::new(format!(
                    "{place}, `{text}`, comes after the end of the {}",
                    games.kind
                ))
                .note(format!("the {} ended: {result}", games.kind))
                .into())
            }
            Err(BadMove::Illegal { notes }) => {
                return Err(
                    CliError::new(format!("{place}, `{text}`, is not a legal move"))
                        .notes(notes)
                        .into(),
                );
            }
        };
        let mover = game.player_name(game.to_move());
        let shown_move = game.text(&d);
        game.apply(&d);
        let mut step = format!("\n{}. {mover}: {shown_move}\n", i + 1);
        for l in game.log() {
            let _ = writeln!(step, "   {l}");
        }
        step.push_str(&game.drawing());
        emit(&step)?;
    }

    let reached = game.outcome().map(|result| result_text(&game, result));
    if let (Some(path), Some((line, claimed))) = (&r.record, &r.result) {
        if reached.as_deref() != Some(claimed.as_str()) {
            return Err(CliError::new(format!(
                "`{}` line {line}: the record says `{claimed}`, but its moves end with {}",
                shown(path),
                reached.map_or("the game still going".to_string(), |a| format!("`{a}`"))
            ))
            .into());
        }
    }
    let end = match reached {
        Some(result) => format!("\nresult: {result}\n"),
        None => format!(
            "\nresult: unfinished after {}, {} to move\n",
            super::plural(moves.len(), "move"),
            game.player_name(game.to_move())
        ),
    };
    emit(&end)
}

/// `White wins`, `draw`.
fn result_text<G: Game>(game: &G, result: GameResult) -> String {
    match result {
        GameResult::Win(p) => format!("{} wins", game.player_name(p)),
        GameResult::Draw => "draw".to_string(),
    }
}
