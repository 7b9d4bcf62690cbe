//! `rulestone draw`: a picture of a board game's position, SVG or PNG, from its geometry alone
//! (the `rulestone-draw` crate lays it out), or of a table game's table with its stones at
//! their simulated positions and the last shot's path.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::runtime::table::Decision;
use crate::runtime::Compiled;
use crate::Built;

/// Every this many simulation steps a shot's path is sampled.
const SHOT_TRACE_EVERY: u32 = 4;

use super::load::{build, parse, play_texts, shown, split_moves, split_sets};
use super::output::{self, Output};
use super::{CliError, GameArgs, PositionArgs, Result};

/// The picture's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// Scalable vector graphics: text, for browsers and documents.
    Svg,
    /// A raster image, rendered with the font shipped in `rulestone`.
    Png,
}

#[derive(Clone, Debug, Args)]
pub struct DrawArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// The picture's format (default: `png` when `-o` ends in `.png`, else `svg`).
    #[arg(long, value_enum)]
    pub format: Option<PictureFormat>,

    /// Write the picture to this file (replaced if it exists). Without it, the picture goes to
    /// standard output; a PNG only when standard output is not a terminal.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// The picture's width in pixels (its height follows the board's shape).
    #[arg(long, value_name = "PX", default_value_t = rulestone_draw::DEFAULT_SIZE)]
    pub size: u32,
}

pub(crate) fn run(args: &DrawArgs, compiled: Compiled) -> Result<()> {
    if !rulestone_draw::SIZES.contains(&args.size) {
        return Err(CliError::new(format!(
            "`--size {}` is out of range: a picture is {} to {} pixels wide",
            args.size,
            rulestone_draw::SIZES.start(),
            rulestone_draw::SIZES.end()
        ))
        .into());
    }
    let format = args.format.unwrap_or_else(|| match &args.output {
        Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) => {
            PictureFormat::Png
        }
        _ => PictureFormat::Svg,
    });
    if let Some(path) = &args.output {
        if path.is_dir() {
            return Err(CliError::new(format!(
                "cannot write `{}`: it is a directory",
                shown(path)
            ))
            .note("give a file name, e.g. `-o board.svg`")
            .into());
        }
    } else if format == PictureFormat::Png && io::stdout().is_terminal() {
        return Err(CliError::new("a PNG is not written to a terminal")
            .note("give a file with `-o board.png`, or redirect standard output")
            .into());
    }
    let file = &args.game.file;
    let (source, parsed) = parse(file)?;
    let sets = split_sets(&args.game.set)?;
    let program = match build(file, &source, &parsed, &sets)? {
        Built::Board(program) => program,
        Built::Table(game, program) => {
            let specs = super::table::army_specs(&args.game)?;
            let table = super::table::with_armies(file, &game, program, &specs)?;
            let svg = table_picture(args, &table)?;
            return emit(args, format, svg);
        }
    };
    let loaded = super::load::board(file, &source, program, compiled);
    let mut engine = loaded.engine();
    let mut before = None;
    let mut last_text = None;
    if let Some(list) = &args.position.after {
        let texts = split_moves(list);
        let place = |i: usize| format!("move {} of `--after`", i + 1);
        if let Some((last, first)) = texts.split_last() {
            play_texts(&mut engine, first, place)?;
            before = Some((engine.state.board.clone(), engine.state.counters.clone()));
            let played = play_texts(&mut engine, std::slice::from_ref(last), |_| {
                place(first.len())
            })?;
            last_text = played.into_iter().next().map(|(_, text)| text);
        }
    }
    loaded.steps_ok()?;
    let before = before.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()));
    let view = rulestone_draw::View::of(&mut engine, before, last_text);
    loaded.steps_ok()?;
    let svg = rulestone_draw::svg(&view, args.size);
    emit(args, format, svg)
}

/// A table game's match after `--after` (from the deal `--deal`): its table, with the path of
/// the last decision's shot when it was one.
fn table_picture(args: &DrawArgs, table: &super::table::LoadedTable) -> Result<String> {
    let texts = args
        .position
        .after
        .as_deref()
        .map(super::table::split_decisions)
        .unwrap_or_default();
    let Some((last, first)) = texts.split_last() else {
        let m = super::table::start(table, args.game.deal, None)?;
        return Ok(rulestone_draw::table::svg(&m, &[], args.size));
    };
    let mut m = super::table::start(table, args.game.deal, Some(&first.join("; ")))?;
    let place = format!("decision {} of `--after`", texts.len());
    if let Some(r) = m.outcome() {
        return Err(CliError::new(format!(
            "{place}, `{last}`, comes after the end of the match"
        ))
        .note(format!(
            "the match ended: {}",
            super::table::result_text(&m, r)
        ))
        .into());
    }
    let d = m.parse(last).map_err(|e| {
        CliError::new(format!("{place}, `{last}`, is not a decision of this game")).note(e.0)
    })?;
    m.trace_shots(SHOT_TRACE_EVERY);
    m.apply(&d)
        .map_err(|e| CliError::new(format!("{place}, `{last}`, is not legal")).note(e.0))?;
    let path: Vec<(f64, f64)> = match d {
        Decision::Shot { stone, .. } => m
            .shot_trace()
            .iter()
            .filter_map(|f| f.positions.get(stone).copied())
            .collect(),
        _ => Vec::new(),
    };
    Ok(rulestone_draw::table::svg(&m, &path, args.size))
}

/// Writes the picture, SVG or PNG, to `-o` or standard output.
fn emit(args: &DrawArgs, format: PictureFormat, svg: String) -> Result<()> {
    let bytes = match format {
        PictureFormat::Svg => svg.into_bytes(),
        PictureFormat::Png => {
            rulestone_draw::png(&svg).map_err(|e| CliError::new(e.to_string()))?
        }
    };
    match &args.output {
        Some(path) => {
            let kind = match format {
                PictureFormat::Svg => Output::Svg,
                PictureFormat::Png => Output::Png,
            };
            output::refuse_other(path, kind)?;
            write(path, &bytes)
        }
        None => {
            let mut out = io::stdout().lock();
            match out.write_all(&bytes).and_then(|()| out.flush()) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(CliError::io("write", Path::new("<standard output>"), &e).into()),
            }
        }
    }
}

/// Writes the picture to the file the user named.
fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| CliError::io("write", path, &e).into())
}
