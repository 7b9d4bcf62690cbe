//! The `rulestone` command line: the only module that touches files and the terminal.
//!
//! [`Cli`] is parsed by clap from the doc comments below (they are the `--help` text); [`run`]
//! turns it into work and an [`ExitStatus`]: 0 when all went well, 1 when diagnostics with errors
//! were reported, 2 for usage, IO, bad options, bad moves and internal errors, 3 when a bound
//! given on the command line (`--max-nodes`, `--time-limit`) stopped a run that then reported
//! what it had finished.
//!
//! Every game command shares one loading pipeline (`load`): read the file, parse, check
//! (errors are rendered, warnings are left to `rulestone check`), resolve the `--set` options,
//! lower to the IR, and build an engine, then play the `--after` moves.

mod analyze;
mod any;
mod arena;
mod bench;
mod check;
mod clock;
pub mod compile;
mod draw;
mod dump;
mod engine;
mod explain;
mod format;
mod info;
pub mod inputs;
mod listing;
mod load;
mod lsp;
mod matches;
mod moves;
mod new;
mod output;
mod perft;
mod play;
mod playout;
mod record;
mod replay;
mod serve;
mod solve;
mod table;

use crate::runtime::Compiled;
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// How a command reports: for people, or for machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text for people: labelled lines and tables.
    #[value(alias = "human")]
    Text,
    /// One JSON object for machines, with stable field names.
    Json,
}

/// Rules language, checker and generic runtime for two-player board games.
///
/// A game is one `.game` file: its board, pieces, options and turn program. Every command below
/// reads such a file, checks it, and runs it on the same generic engine.
#[derive(Debug, Parser)]
#[command(
    name = "rulestone",
    version,
    max_term_width = 100,
    after_help = "\
Examples:
  rulestone check my.game                       check a game file for errors
  rulestone info my.game                        players, options, board and example moves
  rulestone moves my.game --after \"a1; b2\"      the legal moves after two moves
  rulestone perft my.game --depth 3             count the move sequences 3 moves deep
  rulestone play my.game --vs random            play against the computer
  rulestone explain E0101                       what an error code means

Exit status: 0 success, 1 errors reported in a game file, 2 usage, IO or move error,
3 stopped by --max-nodes or --time-limit (what was finished is reported)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Run every game on the interpreter, even a bundled game whose compiled move generation
    /// is built into this binary (to compare the two, or to rule the compiled code out).
    #[arg(long, global = true)]
    pub interpreter: bool,

    /// Load a game compiled by `rulestone compile` (the library it builds, e.g.
    /// `target/rulestone-compiled/rulestone-compiled.so`); repeatable. Its games then run on
    /// compiled move generation in every command, `serve` included; any other game, or the same
    /// file changed since, runs as before.
    #[arg(long, global = true, value_name = "LIBRARY")]
    pub compiled: Vec<std::path::PathBuf>,
}

/// The subcommands. Each variant's doc comment is its `--help` text.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check game files and report every problem found, with codes and source excerpts.
    ///
    /// Beyond the rules themselves, `check` plays a few seeded random games of each file (at
    /// most 0.15 s a file) and warns (W0607) when a position has two legal moves written the
    /// same, with the moves that lead there.
    ///
    /// Exit status 0 when no file has errors (warnings are allowed), 1 when some file has an
    /// error, 2 when a file cannot be read.
    #[command(after_help = "\
Examples:
  rulestone check my.game
  rulestone check games/*.game --format json
  rulestone explain E0101          the long explanation of a code in the report")]
    Check(check::CheckArgs),

    /// Explain a diagnostic code: what it means, why, and a bad and a fixed example.
    ///
    /// Without a code, lists every code with its title.
    #[command(after_help = "\
Examples:
  rulestone explain E0101
  rulestone explain            list every code")]
    Explain(explain::ExplainArgs),

    /// Format game files in the canonical layout, in place.
    ///
    /// Indentation of 4 spaces per block, one declaration or statement per line, one space
    /// between tokens (none inside brackets or before `,` and `:`), at most one blank line in a
    /// row; every comment is kept where it is, and line breaks inside long expressions are kept.
    /// The formatted text always parses to the same game: a file that does not parse is left as
    /// it is and its syntax errors are reported (exit 1). Only files that change are written,
    /// and each is named. With `--check` nothing is written: the files that would change are
    /// listed with their first differing line, and the exit status is 1 if there is any.
    #[command(after_help = "\
Examples:
  rulestone fmt my.game                  rewrite my.game if it is not formatted
  rulestone fmt games/ tests/games/      every .game file under these directories
  rulestone fmt --check games/           list what would change; exit 1 if anything would
  rulestone fmt - < my.game              standard input, formatted, to standard output")]
    Fmt(format::FmtArgs),
    /// Describe a game: players, options, board, pieces, zones, counters, chance, and a few
    /// moves from the start in the game's notation.
    ///
    /// With `--set`, the options show the values set. For a table game: players, options and
    /// parameters, the table, stone kinds, factions, cards and armies.
    #[command(after_help = "\
Examples:
  rulestone info my.game
  rulestone info my.game --set variant=advanced --set size=3
  rulestone info my.game --format json")]
    Info(info::InfoArgs),

    /// Write a new game file to start from: a commented game that checks clean (a board,
    /// options, a piece, a counter, a turn with a choice, a win), to change step by step.
    ///
    /// An existing file is never overwritten.
    #[command(after_help = "\
Examples:
  rulestone new \"Three Stones\"        writes three-stones.game
  rulestone new variants/mine.game     writes that file, titled `mine`")]
    New(new::NewArgs),

    /// Print every legal move of a position, one per line, in the game's notation.
    ///
    /// Moves are listed in generation order. A finished game has no moves: nothing is printed
    /// (a note on standard error says how it ended).
    #[command(after_help = "\
Examples:
  rulestone moves my.game
  rulestone moves my.game --after \"a1; b2\"          after two moves, separated by `;`
  rulestone moves my.game --set size=5 --set variant=short")]
    Moves(moves::MovesArgs),

    /// Count the move sequences of a given length from a position (perft).
    ///
    /// Every move is applied, so this is both a correctness test and a speed test of the move
    /// generator. The last line of standard output is the count alone.
    #[command(after_help = "\
Examples:
  rulestone perft my.game --depth 3
  rulestone perft my.game --depth 3 --divide        the count below each first move
  rulestone perft my.game --depth 2 --after \"a1\"")]
    Perft(perft::PerftArgs),

    /// Play a game in the terminal, against a person or the computer.
    ///
    /// At the prompt type a move in the game's notation, or one of: `moves`, `hint`, `why`,
    /// `undo`, `save PATH`, `load PATH`, `board`, `help`, `quit`, or a view the game offers
    /// (a table game's `stones`). Input may be piped: the game reads one line at a time and
    /// stops at the end of input.
    #[command(after_help = "\
Examples:
  rulestone play my.game                            two people at one terminal
  rulestone play my.game --vs mcts                  you move first, the computer second
  rulestone play my.game --vs mcts:time=2s --as 2   the computer moves first, 2 s a move
  rulestone play my.game --vs random --seed 7       a random opponent, seeded
  rulestone play my.game --after \"a1; b2\"          start from a position
  rulestone play my.game --record game.record       save the game when it ends")]
    Play(play::PlayArgs),

    /// Replay a saved game, drawing the board after every move.
    ///
    /// Reads a game record written by `save` in `play` (see the record format in the README),
    /// or, with `--moves`, a game file and a list of moves.
    #[command(after_help = "\
Examples:
  rulestone replay game.record
  rulestone replay my.game --moves \"a1; b2; c3\"
  rulestone replay my.game --set size=5 --moves \"a1; b2\"
  rulestone replay game.record --format json")]
    Replay(replay::ReplayArgs),

    /// Drive a game and its agents from another program: JSON lines on standard input and
    /// output.
    ///
    /// Each request is one JSON object a line, `{"cmd": ...}`, answered by one JSON object a
    /// line: `info`, `new`, `legal`, `apply`, `undo`, `state`, `go`, `quit`. A bad request is
    /// answered with `{"error": {...}}` and the session goes on; it ends at the end of input
    /// or on `quit` (exit status 0). The README's "Driving a game from another program" is the
    /// reference.
    #[command(after_help = "\
Examples:
  rulestone engine my.game
  rulestone engine my.game --set size=5
  echo '{\"cmd\": \"legal\"}' | rulestone engine my.game")]
    Engine(engine::EngineArgs),

    /// Play, edit and check games in a browser: a local web server and its page.
    ///
    /// Lists the bundled games and the `.game` files under DIR; the page draws the board, takes
    /// moves by clicking (a table game's shots by dragging, animated), plays against an agent,
    /// checks edited rules as you type, and analyses a game's options as `analyze` does. Only
    /// files under DIR are read. Listens on 127.0.0.1 unless `--host` says otherwise, prints
    /// the page's address, and serves until stopped (Ctrl-C).
    #[command(after_help = "\
Examples:
  rulestone serve
  rulestone serve my-games/ --port 8080
  rulestone serve --port 0                 any free port")]
    Serve(serve::ServeArgs),

    /// Draw a picture of a position, SVG or PNG, from the game's geometry.
    ///
    /// The board, the pieces, per-cell counters and markers, the last move marked, and a side
    /// panel with the player to move, the counters and a legend.
    ///
    /// SVG goes to standard output unless `-o` names a file; PNG (rendered with the font
    /// shipped in `rulestone`, so pictures are the same on every machine) goes to the file `-o`
    /// names, or to standard output when it is not a terminal. Square grids, hex boards (axial
    /// or doubled-width coordinates) and boards with levels are told apart by the board's axes
    /// and its relations' direction vectors. A table game is drawn as its table, the stones at
    /// their simulated positions and the last shot's path (`--after` takes its decisions).
    #[command(after_help = "\
Examples:
  rulestone draw my.game > start.svg                   the start position, as SVG
  rulestone draw my.game --after \"a1; b2\" -o pos.png   after two moves, as PNG
  rulestone draw my.game --set size=5 --size 480 -o small.svg")]
    Draw(draw::DrawArgs),

    /// Play random games and report who won, how often, and how long games last.
    ///
    /// Every move is chosen uniformly among the legal moves by a seeded generator, so the same
    /// seed gives the same games (only the timing line varies).
    #[command(after_help = "\
Examples:
  rulestone playout my.game --games 1000 --seed 1
  rulestone playout my.game --games 100 --seed 2 --set size=5")]
    Playout(playout::PlayoutArgs),

    /// Play a match of random games scored by the game's `score`: a fixed number of games
    /// (the higher total wins) or first to a target total.
    ///
    /// Each game's result and scores are printed with the running totals. The game must declare
    /// `score p = ...`.
    #[command(after_help = "\
Examples:
  rulestone match my.game --games 5 --seed 1
  rulestone match my.game --target 100 --seed 2")]
    Match(matches::MatchArgs),

    /// Play computer players against each other: a round robin with seats alternated.
    ///
    /// Every pair of agents plays `--games` games; the report gives each pair's wins, draws
    /// and losses, the score rate with its 95% interval, the mean game length, and an Elo
    /// rating per agent. Games run in parallel; the same seed gives the same results.
    #[command(after_help = "\
Examples:
  rulestone arena my.game --agents mcts,random --games 100
  rulestone arena my.game --agents mcts:iterations=2000,alphabeta:depth=4,random --games 20
  rulestone arena my.game --agents mcts:iterations=800,mcts:iterations=100 --format json")]
    Arena(arena::ArenaArgs),
    /// Analyse variants of a game for its designer: who wins, how long games last, how wide
    /// they are, and whether skill pays off.
    ///
    /// Each `--set` may list several values (`--set width=4,5`); the variants are every
    /// combination (at most 64). Per variant it plays `--games` games of random play, of the
    /// agent against itself, and of a stronger agent against the agent (seats alternated), and
    /// reports win rates by seat and draws with 95% intervals, games stopped by the step limit,
    /// game length, branching factor by ply, the stronger agent's score (the skill gradient)
    /// and the agent's favourite first moves. Games run in parallel; the same seed gives the
    /// same report whatever `--threads`.
    #[command(after_help = "\
Examples:
  rulestone analyze my.game --games 200
  rulestone analyze my.game --set width=5,6,7 --set height=4,6 --games 50
  rulestone analyze my.game --set variant=basic,standard --set size=3 \\
      --agent mcts:iterations=100 --html report.html
  rulestone analyze my.game --agent alphabeta:depth=2 --stronger alphabeta:depth=4
  rulestone analyze my.game --format json > analysis.json")]
    Analyze(analyze::AnalyzeArgs),

    /// Measure the engine's speed: perft leaves per second and random playouts per second.
    ///
    /// Times are CPU time of the measuring thread (wall time is shown beside it), so numbers
    /// from a busy machine stay comparable.
    #[command(after_help = "\
Examples:
  rulestone bench my.game
  rulestone bench games/*.game --seconds 10
  rulestone bench my.game --depth 4        repeat perft 4 instead of deepening")]
    Bench(bench::BenchArgs),

    /// Solve a position exactly: win, loss or draw for the player to move, with best play.
    ///
    /// Searches every line to the end (a position that comes back on a line is a draw: endless
    /// play draws) and prints the value, the number of decisions to the end (the shortest win,
    /// the longest loss), the principal variation, the positions searched and the time. For
    /// small games: the work grows with the number of positions. Games that roll dice and
    /// games with continuous decisions (shots) cannot be solved exactly and are refused.
    #[command(after_help = "\
Examples:
  rulestone solve my.game
  rulestone solve my.game --after \"a1; b1\"                 after two moves
  rulestone solve my.game --set width=5 --set height=4
  rulestone solve my.game --memory 4096 --format json       a larger table budget, JSON output")]
    Solve(solve::SolveArgs),

    /// Compile game files to move generation as generated Rust, loaded by every command.
    ///
    /// Writes a Cargo crate and builds it (this needs a Rust toolchain) into a library,
    /// `OUT/rulestone-compiled.so`, that any command loads with the global flag `--compiled LIB`
    /// (`serve` too; the Python package with `rulestone.load_compiled`). The library builds on
    /// rulestone's runtime alone: the first build takes under a minute of CPU, later ones
    /// compile only the generated code (seconds). It loads only into a rulestone built by the
    /// same Rust compiler from the same source. For the compiled games and options moves are
    /// generated by compiled code, for anything else by the interpreter; `bench` shows which
    /// one ran. `--binary` builds a whole `rulestone` with the games linked in instead.
    #[command(after_help = "\
Examples:
  rulestone compile my.game                       every variant of my.game
  rulestone --compiled target/rulestone-compiled/rulestone-compiled.so bench my.game
  rulestone compile games/*.game --out fast       every bundled game, crate in ./fast
  rulestone compile my.game --binary --lto        a whole rulestone, optimised as one program
  target/rulestone-compiled/target/release/rulestone-compiled bench my.game")]
    Compile(compile::CompileArgs),

    /// Serve editors: a language server for `.game` files on standard input and output.
    ///
    /// Speaks the Language Server Protocol (JSON-RPC over stdio): diagnostics as `check` gives
    /// them, on every change; formatting as `fmt` does it; the outline of a file's
    /// declarations; hover, go-to-definition, references and rename of names; completion; the
    /// checker's suggestions as quick fixes; semantic tokens. An editor starts it itself:
    /// configure your editor's LSP client to run `rulestone lsp` for `.game` files (see the
    /// README).
    #[command(after_help = "\
Examples:
  rulestone lsp                    run by an editor, never typed by hand
  Neovim: vim.lsp.start({ name = 'rulestone', cmd = { 'rulestone', 'lsp' } })")]
    Lsp(lsp::LspArgs),

    /// Print an internal stage of a game: the syntax tree (`ast`) or the lowered program (`ir`).
    #[command(
        hide = true,
        after_help = "\
Examples:
  rulestone dump ast my.game
  rulestone dump ir my.game --set size=5"
    )]
    Dump(dump::DumpArgs),
}

/// The game file and its option values: shared by every command that runs a game.
#[derive(Clone, Debug, Args)]
pub struct GameArgs {
    /// The game file (`.game`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Set an option the game declares, e.g. `--set size=5` (repeatable).
    ///
    /// An unknown option or a value outside the option's type is an error. `--set preset=NAME`
    /// sets the values of a preset the game declares (`info` lists them); another `--set`
    /// overrides one of them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,

    /// An army from a deck file, `FILE` (its first army) or `FILE:NAME`; the first `--army` is
    /// the first player's, the second the second player's (default: the armies the game file
    /// declares).
    #[arg(long, value_name = "FILE[:NAME]", help_heading = "Table games")]
    pub army: Vec<String>,

    /// The seed of the match's chance (who goes first, the shuffles, aim noise).
    #[arg(
        long,
        value_name = "SEED",
        default_value_t = 1,
        help_heading = "Table games"
    )]
    pub deal: u64,
}

/// A position: the start, then the given moves.
#[derive(Clone, Debug, Args)]
pub struct PositionArgs {
    /// Start from the position after these moves, separated by `;`, e.g. "a1; b2".
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub after: Option<String>,
}

/// How a command ended; [`From<ExitStatus>`](ExitCode) gives the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: all went well.
    Success,
    /// 1: diagnostics with errors were reported.
    Failure,
    /// 2: usage, IO, option or move error, or an internal error.
    Error,
    /// 3: a bound of the command line (`--max-nodes`, `--time-limit`) stopped the run; what
    /// it finished was reported.
    Stopped,
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        match status {
            ExitStatus::Success => ExitCode::SUCCESS,
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::Error => ExitCode::from(2),
            ExitStatus::Stopped => ExitCode::from(3),
        }
    }
}

/// A command that stopped early.
#[derive(Debug)]
pub(crate) enum Fail {
    /// Diagnostics were already rendered on standard error: exit 1. With the first error's
    /// code, for the closing hint to `rulestone explain` (printed once the command is done).
    Reported(Option<String>),
    /// Diagnostics about the command line (a refused `--set`) were rendered: exit 2; the
    /// first error's code, as for `Reported`.
    ReportedUsage(Option<String>),
    /// A problem outside a game file's source: printed as `error: ...`, exit 2.
    Error(CliError),
    /// A bound of the command line stopped the run; its partial report was written: exit 3.
    Stopped,
}

impl From<CliError> for Fail {
    fn from(e: CliError) -> Fail {
        Fail::Error(e)
    }
}

/// A usage, IO, option or move problem: a one-line message and optional notes.
#[derive(Debug)]
pub(crate) struct CliError {
    pub message: String,
    pub notes: Vec<String>,
}

impl CliError {
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            notes: Vec::new(),
        }
    }

    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> CliError {
        self.notes.push(note.into());
        self
    }

    #[must_use]
    pub fn notes(mut self, notes: impl IntoIterator<Item = String>) -> CliError {
        self.notes.extend(notes);
        self
    }

    /// Reading or writing `path` failed.
    pub fn io(action: &str, path: &std::path::Path, e: &io::Error) -> CliError {
        CliError::new(format!(
            "cannot {action} `{}`: {}",
            path.display(),
            io_reason(e)
        ))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Messages quote file names, records and typed moves: what they hold is shown, never
        // sent to the terminal as it is.
        write!(f, "error: {}", crate::diag::escape(&self.message))?;
        for n in &self.notes {
            write!(f, "\n  = {}", crate::diag::escape(n))?;
        }
        Ok(())
    }
}

/// The largest file a command reads (a game, a record, a deck, standard input for `fmt -`):
/// far more than any of them needs, so that a wrong path (`/dev/zero`, a disk image) ends
/// with an error instead of filling the memory.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads text from `reader`, refusing more than [`MAX_FILE_BYTES`].
///
/// # Errors
/// The reader's error, text that is not UTF-8, or more bytes than the limit.
pub(crate) fn read_bounded(reader: impl io::Read) -> io::Result<String> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut reader.take(MAX_FILE_BYTES + 1), &mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::other(format!(
            "it holds more than {} MiB, the limit of a file Rulestone reads",
            MAX_FILE_BYTES >> 20
        )));
    }
    let mut text = String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })?;
    crate::syntax::normalize_line_breaks(&mut text);
    Ok(text)
}

/// Reads the text file at `path`, at most [`MAX_FILE_BYTES`] of it: every game, record, army
/// and other file a command is given is read here.
///
/// # Errors
/// As [`read_bounded`], the file cannot be opened, or it is no regular file: reading a named
/// pipe or a terminal waits for a writer that may never come, and a device may never end, so
/// these are refused before they are opened (a directory fails when it is read, as ever).
pub(crate) fn read_file(path: &std::path::Path) -> io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() && !meta.is_dir() {
        return Err(io::Error::other(
            "it is not a regular file but a named pipe, a socket or a device, which could keep \
             Rulestone waiting: only regular files are read",
        ));
    }
    read_bounded(std::fs::File::open(path)?)
}

/// The OS message without the "(os error 2)" suffix, lowercased like our own messages.
fn io_reason(e: &io::Error) -> String {
    let text = match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

pub(crate) type Result<T> = std::result::Result<T, Fail>;

/// Parses the process's command line and runs it: the whole `rulestone` binary.
#[must_use]
pub fn main() -> ExitCode {
    main_with(bundled())
}

/// The compiled move generators built into this binary: the bundled games' (feature `bundled`),
/// or none.
#[must_use]
pub fn bundled() -> Compiled {
    #[cfg(feature = "bundled")]
    return rulestone_precompiled::BUNDLED;
    #[cfg(not(feature = "bundled"))]
    return Compiled::NONE;
}

/// The `rulestone` binary with compiled move generators linked in (what `rulestone compile`
/// builds): engines of a program that one of them was generated from use it.
#[must_use]
pub fn main_with(compiled: Compiled) -> ExitCode {
    let cli = <Cli as Parser>::parse();
    // Checking, lowering and running recurse over the rules, as deep as they nest (at most
    // `syntax::MAX_DEPTH` levels, E0005). The main thread's stack is enough for optimised code;
    // a thread with a larger one leaves room for unoptimised builds too. Only the pages used
    // are ever committed.
    let worker = std::thread::Builder::new()
        .name("rulestone".into())
        .stack_size(STACK_BYTES)
        .spawn(move || run_with(cli, compiled));
    match worker {
        Ok(handle) => match handle.join() {
            Ok(status) => status.into(),
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(_) => {
            let cli = <Cli as Parser>::parse();
            run_with(cli, compiled).into()
        }
    }
}

/// The stack of the thread that runs a command.
const STACK_BYTES: usize = 64 << 20;

/// Runs a parsed command line.
#[must_use]
pub fn run(cli: Cli) -> ExitStatus {
    run_with(cli, Compiled::NONE)
}

/// Runs a parsed command line with these compiled generators.
#[must_use]
pub fn run_with(cli: Cli, compiled: Compiled) -> ExitStatus {
    let compiled = if cli.interpreter {
        Compiled::NONE
    } else {
        match rulestone_plugin::load_all(compiled, &cli.compiled) {
            Ok(all) => all,
            Err(e) => {
                eprintln!("{}", CliError::new(e.to_string()).note(e.help()));
                return ExitStatus::Error;
            }
        }
    };
    let result = match cli.command {
        Command::Check(args) => return check::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Fmt(args) => format::run(&args),
        Command::New(args) => new::run(&args),
        Command::Info(args) => info::run(&args, compiled),
        Command::Moves(args) => moves::run(&args, compiled),
        Command::Perft(args) => perft::run(&args, compiled),
        Command::Play(args) => play::run(&args, compiled),
        Command::Replay(args) => replay::run(&args, compiled),
        Command::Engine(args) => engine::run(&args, compiled),
        Command::Draw(args) => draw::run(&args, compiled),
        Command::Playout(args) => playout::run(&args, compiled),
        Command::Match(args) => matches::run(&args, compiled),
        Command::Arena(args) => arena::run(&args, compiled),
        Command::Analyze(args) => analyze::run(&args, compiled),
        Command::Bench(args) => bench::run(&args, compiled),
        Command::Solve(args) => solve::run(&args, compiled),
        Command::Compile(args) => compile::run(&args),
        Command::Lsp(args) => lsp::run(&args),
        Command::Serve(args) => serve::run(&args, compiled),
        Command::Dump(args) => dump::run(&args, compiled),
    };
    let (status, code) = match result {
        Ok(()) => (ExitStatus::Success, None),
        Err(Fail::Reported(code)) => (ExitStatus::Failure, code),
        Err(Fail::ReportedUsage(code)) => (ExitStatus::Error, code),
        Err(Fail::Stopped) => (ExitStatus::Stopped, None),
        Err(Fail::Error(e)) => {
            eprintln!("{e}");
            (ExitStatus::Error, None)
        }
    };
    if let Some(code) = code {
        eprintln!("{}", check::explain_hint(&code));
    }
    status
}

/// A JSON report as `--format json` prints it: indented, with a final newline.
pub(crate) fn json_text(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}

/// Writes to standard output; a closed pipe (`rulestone moves ... | head`) ends quietly.
pub(crate) fn emit(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::new(format!("cannot write output: {}", io_reason(&e))).into()),
    }
}

/// Whether standard error is a terminal (progress, colour and timing go there).
pub(crate) fn stderr_is_tty() -> bool {
    io::stderr().is_terminal()
}

/// Colour for text written to standard error: a terminal, and `NO_COLOR` unset or empty.
pub(crate) fn color_stderr() -> bool {
    stderr_is_tty() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Ends a command whose move generation ran out of steps (E1008): its figures would be wrong.
/// The error is rendered on standard error like a diagnostic without a span; exit 2.
pub(crate) fn steps_exceeded(path: &std::path::Path) -> Result<()> {
    let limit = crate::runtime::game::StepLimit {
        limit: crate::ir::MAX_STEPS,
        rounds: crate::ir::MAX_PATH_ROUNDS,
    };
    report_steps(path, limit)
}

fn report_steps(path: &std::path::Path, limit: crate::runtime::game::StepLimit) -> Result<()> {
    let diags: Vec<crate::diag::Diag> = vec![Box::new(limit)];
    let shown = load::shown(path);
    eprint!(
        "{}",
        crate::diag::render(&diags, "", &shown, color_stderr())
    );
    Err(Fail::ReportedUsage(None))
}

/// A warning on standard error when the engine left moves out of its lists: the figures shown
/// miss them.
pub(crate) fn warn_dropped(why: Option<&'static str>) {
    if let Some(why) = why {
        eprintln!("warning: some moves were left out: {why}; the figures above miss them");
    }
}

/// `--time-limit SECONDS`: a positive, finite number of seconds, as a duration.
pub(crate) fn time_limit(text: &str) -> std::result::Result<std::time::Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds (e.g. `2.5`)"))?;
    if !(seconds.is_finite() && seconds > 0.0 && seconds < 1e9) {
        return Err(format!(
            "`{text}` is not a time limit: give a positive number of seconds (e.g. `2.5`)"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// The most moves a game of `playout`, `match`, `arena`, `analyze` or `bench` may last
/// (`--max-plies`, `--max-steps`): the longest move list a record holds, so that what one game
/// keeps (its history for `repetitions`, its undo records) stays within a few megabytes.
pub(crate) const MAX_PLIES: i64 = 100_000;

/// The most games one run of `playout` plays: its figures are added up game by game, so this
/// bounds only its time.
pub(crate) const MAX_GAMES: u64 = 1_000_000_000;

/// The largest `--max-nodes`: more than any run finishes (a million positions a second for
/// thirty years), so a larger value is a typing slip, not a bound.
pub(crate) const MAX_NODES_LIMIT: u64 = 1_000_000_000_000_000;

/// `--max-nodes N`: a whole number from 1 to [`MAX_NODES_LIMIT`].
pub(crate) fn max_nodes(text: &str) -> std::result::Result<u64, String> {
    let wrong = || {
        format!(
            "`{text}` is not a node limit: give a whole number from 1 to {} (e.g. `1000000`)",
            grouped(MAX_NODES_LIMIT)
        )
    };
    let n: u64 = text.trim().parse().map_err(|_| wrong())?;
    if n == 0 || n > MAX_NODES_LIMIT {
        return Err(wrong());
    }
    Ok(n)
}

/// A bound of the command line that stopped a run before it finished.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Bound {
    /// `--max-nodes N` (positions, moves or plies, as the command counts them).
    Nodes(u64),
    /// `--time-limit SECONDS`.
    Time(std::time::Duration),
}

impl Bound {
    /// The bound as typed: `--max-nodes 1,000`, `--time-limit 0.5 s`.
    pub(crate) fn flag(self) -> String {
        match self {
            Bound::Nodes(n) => format!("--max-nodes {}", grouped(n)),
            Bound::Time(limit) => format!("--time-limit {} s", limit.as_secs_f64()),
        }
    }

    /// The bound in a JSON report: `{"bound": "max_nodes", "value": 1000}`.
    pub(crate) fn json(self) -> serde_json::Value {
        match self {
            Bound::Nodes(n) => serde_json::json!({ "bound": "max_nodes", "value": n }),
            Bound::Time(limit) => {
                serde_json::json!({ "bound": "time_limit", "value": limit.as_secs_f64() })
            }
        }
    }
}

pub(crate) use rulestone_session::notation::plural;

/// A count with thousands separators: `1,234,567`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A rate per second, rounded to a whole number (0 when no time was measured).
pub(crate) fn per_second(count: u64, seconds: f64) -> u64 {
    if seconds > 0.0 {
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss
        )]
        let rate = (count as f64 / seconds).round() as u64;
        rate
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::{grouped, plural};

    #[test]
    fn numbers_read_well() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(plural(1, "error"), "1 error");
        assert_eq!(plural(2, "warning"), "2 warnings");
        assert_eq!(plural(1u32, "game"), "1 game");
        assert_eq!(plural(0u64, "game"), "0 games");
        assert_eq!(plural(2, "match"), "2 matches");
        assert_eq!(plural(3, "ply"), "3 plies");
        assert_eq!(plural(3, "army"), "3 armies");
    }
}
