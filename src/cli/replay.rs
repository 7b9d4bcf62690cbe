//! `rulestone replay`: a saved game (or a game file and moves), drawn after every move.

use crate::runtime::Compiled;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::board::draw;
use super::load::{
    find_move, load_with, normalize, options_text, player_name, shown, split_moves, split_sets,
    BadMove,
};
use super::record::{self, Record};
use super::{emit, CliError, Result};

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

pub(crate) fn run(args: &ReplayArgs, compiled: Compiled) -> Result<()> {
    if args.moves.is_none() && super::table::is_record(&args.path) {
        return super::table::replay(&args.path);
    }
    let (record, loaded, path_in_messages) = if let Some(list) = &args.moves {
        let record = Record {
            game: args.path.clone(),
            game_name: None,
            game_hash: None,
            options: split_sets(&args.set)?,
            moves: split_moves(list).into_iter().map(|m| (0, m)).collect(),
            result: None,
        };
        let loaded = load_with(&record.game, &record.options, compiled)?;
        (record, loaded, None)
    } else {
        let (record, loaded) = record::open(&args.path, compiled)?;
        (record, loaded, Some(args.path.clone()))
    };
    let program = &loaded.program;
    let mut engine = loaded.engine();
    super::load::list_fits(record.moves.len(), || {
        format!("move {}", record.moves.len())
    })?;

    let mut out = format!("{} ({})\n", program.name, shown(&loaded.path));
    if let Some(opts) = options_text(program) {
        let _ = writeln!(out, "options: {opts}");
    }
    out.push_str("\nstart\n");
    out.push_str(&draw(&mut engine));
    emit(&out)?;

    for (i, (line, text)) in record.moves.iter().enumerate() {
        let place = match &path_in_messages {
            Some(p) => format!("`{}` line {line}: move {}", shown(p), i + 1),
            None => format!("move {} of `--moves`", i + 1),
        };
        let m = match find_move(&mut engine, text) {
            Ok(m) => m,
            Err(BadMove::GameOver(result)) => {
                return Err(CliError::new(format!(
                    "{place}, `{text}`, comes after the end of the game"
                ))
                .note(format!("the game ended: {result}"))
                .into())
            }
            Err(BadMove::Illegal { notes }) => {
                loaded.steps_ok()?;
                return Err(
                    CliError::new(format!("{place}, `{text}`, is not a legal move"))
                        .notes(notes)
                        .into(),
                );
            }
        };
        let mover = player_name(program, engine.state.mover);
        let shown_move = normalize(&engine.move_text(&m));
        let _ = engine.apply(&m);
        emit(&format!(
            "\n{}. {mover}: {shown_move}\n{}",
            i + 1,
            draw(&mut engine)
        ))?;
    }

    if let Some(p) = &path_in_messages {
        record::check_result(&mut engine, &record, p)?;
    }
    let end = match engine.outcome() {
        Some(r) => format!("\nresult: {}\n", super::load::result_text(program, r)),
        None => format!(
            "\nresult: unfinished after {}, {} to move\n",
            super::plural(record.moves.len(), "move"),
            player_name(program, engine.state.mover)
        ),
    };
    emit(&end)
}
