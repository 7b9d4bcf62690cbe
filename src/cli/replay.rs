//! `rulestone replay`: a saved game (or a game file and moves), of any kind, drawn after every
//! move.

use crate::runtime::{Compiled, Game};
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::any::{read_at, with_game_armies, Games, OnGame, Shown};
use super::load::shown;
use super::record::{self, result_of};
use super::{emit, json_text, Format, GameArgs, Result};
use serde_json::json;

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

    /// How to report: `text` (the board after every move), or `json` (one object: the game,
    /// its options, every position with the player to move, its legal moves in notation and
    /// their action ids, the move played, and the result).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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

impl Replaying {
    /// The decisions, each with its place for messages: `move 2 of `--moves``, or the record
    /// and its line. An absurdly long list is refused before anything is played.
    pub(crate) fn placed<G: Shown>(&self, game: &G) -> Result<Vec<(String, String)>> {
        let placed: Vec<(String, String)> = match &self.moves {
            Moves::Typed(list, option) => game
                .split(list)
                .into_iter()
                .enumerate()
                .map(|(i, m)| (format!("move {} of `{option}`", i + 1), m))
                .collect(),
            Moves::Recorded(lines) => lines
                .iter()
                .enumerate()
                .map(|(i, (line, m))| {
                    let path = self.record.as_deref().map(shown).unwrap_or_default();
                    (format!("`{path}` line {line}: move {}", i + 1), m.clone())
                })
                .collect(),
        };
        super::load::list_fits(placed.len(), || {
            placed
                .last()
                .map_or_else(String::new, |(place, _)| place.clone())
        })?;
        Ok(placed)
    }
}

/// The decisions to replay.
pub(crate) enum Moves {
    /// A `;`-separated list typed on the command line, with its option (`--moves`).
    Typed(String, &'static str),
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
            moves: Moves::Typed(list.clone(), "--moves"),
            result: None,
            record: None,
        },
        None => record::replaying(&args.path)?,
    };
    let task = Replay {
        replaying: &replaying,
        format: args.format,
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

/// Draws the game at the start and after every decision; the errors of the replay itself
/// (loading errors are the caller's).
struct Replay<'a> {
    replaying: &'a Replaying,
    format: Format,
}

impl OnGame for Replay<'_> {
    type Output = Result<()>;

    fn run<G: Shown>(self, games: &Games<'_, G>) -> Result<Result<()>> {
        Ok(match self.format {
            Format::Text => replay(self.replaying, games),
            Format::Json => replay_json(self.replaying, games),
        })
    }
}

fn replay<G: Shown>(r: &Replaying, games: &Games<'_, G>) -> Result<()> {
    let mut game = (games.start)(games.deal)?;
    let moves = r.placed(&game)?;
    let mut out = format!("{}\n", games.title);
    if let Some(opts) = &games.options {
        let _ = writeln!(out, "options: {opts}");
    }
    out.push_str("\nstart\n");
    out.push_str(&game.drawing());
    emit(&out)?;
    for (i, (place, text)) in moves.iter().enumerate() {
        let d = read_at(&mut game, place, text, games.kind)?;
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

    check_claim(&mut game, r)?;
    let reached = game.outcome().map(|result| result_of(&game, result));
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

/// The most legal moves one position of `replay --format json` lists; past it the list is cut
/// and `legal_in_all` says how many there were.
const MAX_LISTED: usize = 10_000;

/// The replay as one JSON object: every position from the start, each with the player to
/// move, its legal moves (notation and, where the game has them, action ids) and the move
/// played from it; then the result.
fn replay_json<G: Shown>(r: &Replaying, games: &Games<'_, G>) -> Result<()> {
    let mut game = (games.start)(games.deal)?;
    let moves = r.placed(&game)?;
    let mut positions = Vec::with_capacity(moves.len() + 1);
    for (place, text) in &moves {
        let mut position = position_json(&mut game);
        let d = read_at(&mut game, place, text, games.kind)?;
        position["played"] = json!(game.text(&d));
        position["played_action"] = json!(game
            .action_ids(std::slice::from_ref(&d))
            .and_then(|ids| ids.first().copied()));
        game.apply(&d);
        position["log"] = json!(game.log());
        positions.push(position);
    }
    positions.push(position_json(&mut game));
    check_claim(&mut game, r)?;
    let result = game.outcome().map(|result| result_of(&game, result));
    let options: serde_json::Map<String, serde_json::Value> = games
        .option_values
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    emit(&json_text(&json!({
        "game": games.name,
        "options": options,
        "moves": moves.len(),
        "positions": positions,
        "result": result,
    })))
}

/// One position of the JSON replay, before its move is played.
fn position_json<G: Shown>(game: &mut G) -> serde_json::Value {
    let mut decisions = Vec::new();
    let listed = !game.has_continuous_decisions() && game.decisions(&mut decisions);
    let (legal, ids, total) = if listed {
        let total = decisions.len();
        decisions.truncate(MAX_LISTED);
        let texts: Vec<String> = decisions.iter().map(|d| game.text(d)).collect();
        (texts, game.action_ids(&decisions), total)
    } else {
        let texts = game.decisions_text();
        (texts, None, 0)
    };
    let over = game.outcome().is_some();
    let mut position = json!({
        "to_move": (!over).then(|| game.player_name(game.to_move())),
        "chance": !over && game.chance(),
        "legal": legal,
        "legal_actions": ids,
    });
    if total > MAX_LISTED {
        position["legal_in_all"] = json!(total);
    }
    position
}

/// Checks the result a record claims (its `result` line), if any, against the game's.
pub(crate) fn check_claim<G: Game>(game: &mut G, r: &Replaying) -> Result<()> {
    let (Some(path), Some((line, claimed))) = (&r.record, &r.result) else {
        return Ok(());
    };
    let reached = game.outcome().map(|result| result_of(game, result));
    record::claim_holds(path, *line, claimed, reached)
}
