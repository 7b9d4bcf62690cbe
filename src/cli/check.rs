//! `rulestone check`: diagnostics for each file, then a summary line. With `--deck`, the armies
//! of deck files are checked against one table game's army rules.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use crate::check::deck;
use crate::check::table::TableGame;
use crate::diag::{self, Diag, Severity};
use crate::syntax::{self, ast};

use super::load::shown;
use super::{color_stderr, emit, plural, CliError, ExitStatus};

#[derive(Clone, Debug, Args)]
pub struct CheckArgs {
    /// The game files to check.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// A deck file whose armies are checked against the game's army rules (at most 2).
    ///
    /// Needs exactly one game file, a table game. Each army of the deck file is checked on its
    /// own; with two deck files (or one deck file with two armies) the first army of each (or
    /// the two armies) are also checked against each other, as the two players' armies.
    /// Example: `rulestone check my.game --deck my.deck`.
    #[arg(long, value_name = "FILE")]
    pub deck: Vec<PathBuf>,

    /// Check the game for these option values, e.g. `--set width=30` (repeatable).
    ///
    /// Whatever another command would refuse for these values (an unknown option, a value
    /// outside the option's type, a board or table too large) is reported here first, with its
    /// code. Without `--set`, `check` tries the defaults, each preset and each option's extreme
    /// values.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,

    /// How to report: `human` text on standard error, or `json` on standard output.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source excerpts with labels, like rustc (colour on a terminal unless `NO_COLOR` is set).
    Human,
    /// One JSON array of every diagnostic, each with `code`, `severity`, `message`, `file`,
    /// `labels` (byte offsets, 1-based start and end lines and columns, and which label is
    /// `primary`), `help` and `related`.
    Json,
}

/// The report being built: counts, and in JSON mode every diagnostic so far.
struct Report {
    format: Format,
    color: bool,
    errors: usize,
    warnings: usize,
    /// Files that could not be read (or whose diagnostics could not be written).
    unreadable: usize,
    /// Files whose diagnostics were reported.
    checked: usize,
    json: Vec<serde_json::Value>,
    /// The code of the first error reported, for the closing hint to `rulestone explain`.
    first_error_code: Option<String>,
}

impl Report {
    fn new(format: Format) -> Report {
        Report {
            format,
            color: color_stderr(),
            errors: 0,
            warnings: 0,
            unreadable: 0,
            checked: 0,
            json: Vec::new(),
            first_error_code: None,
        }
    }

    /// Reads a file, counting it as unreadable (with a message) if it cannot be read.
    fn read(&mut self, path: &std::path::Path) -> Option<String> {
        match super::read_file(path) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("{}", CliError::io("read", path, &e));
                self.unreadable += 1;
                None
            }
        }
    }

    /// Counts and renders the diagnostics of one file, against its source.
    fn file(&mut self, diags: &[Diag], source: &str, shown: &str) {
        self.checked += 1;
        for d in diags {
            match diag::severity(d.as_ref()) {
                Severity::Error => {
                    self.errors += 1;
                    if self.first_error_code.is_none() {
                        self.first_error_code = diag::code_of(d.as_ref());
                    }
                }
                Severity::Warning => self.warnings += 1,
                Severity::Advice => {}
            }
        }
        match self.format {
            Format::Human => {
                if !diags.is_empty() {
                    eprintln!(
                        "{}",
                        diag::render(diags, source, shown, self.color).trim_end()
                    );
                    eprintln!();
                }
            }
            Format::Json => {
                let text = diag::render_json(diags, source, shown);
                match serde_json::from_str::<Vec<serde_json::Value>>(&text) {
                    Ok(values) => self.json.extend(values),
                    Err(e) => {
                        eprintln!(
                            "{}",
                            CliError::new(format!(
                                "internal: diagnostics of `{shown}` are not JSON: {e}"
                            ))
                        );
                        self.unreadable += 1;
                    }
                }
            }
        }
    }

    /// The summary line (or the JSON array) and the exit status.
    fn finish(self) -> ExitStatus {
        match self.format {
            Format::Human => {
                eprintln!(
                    "checked {}: {}, {}",
                    plural(self.checked, "file"),
                    plural(self.errors, "error"),
                    plural(self.warnings, "warning")
                );
                if let Some(code) = &self.first_error_code {
                    eprintln!("{}", explain_hint(code));
                }
            }
            Format::Json => {
                let text =
                    serde_json::to_string_pretty(&self.json).unwrap_or_else(|_| "[]".to_string());
                if emit(&format!("{text}\n")).is_err() {
                    return ExitStatus::Error;
                }
            }
        }
        if self.unreadable > 0 {
            ExitStatus::Error
        } else if self.errors > 0 {
            ExitStatus::Failure
        } else {
            ExitStatus::Success
        }
    }
}

pub(crate) fn run(args: &CheckArgs) -> ExitStatus {
    if !args.deck.is_empty() {
        return run_decks(args);
    }
    let sets = match super::load::split_sets(&args.set) {
        Ok(sets) => sets,
        Err(super::Fail::Error(e)) => {
            eprintln!("{e}");
            return ExitStatus::Error;
        }
        Err(_) => return ExitStatus::Error,
    };
    let mut report = Report::new(args.format);
    for path in &args.files {
        let Some(source) = report.read(path) else {
            continue;
        };
        let name = shown(path);
        let diags = crate::diagnose_file(&name, &source, &sets, &mut explore_limit());
        report.file(&diags, &source, &name);
    }
    report.finish()
}

/// The most time the seeded random games of one file's check may take (W0607; their budget of
/// positions and moves bounds them too), counted from the first position they look at.
pub const EXPLORE_TIME: Duration = Duration::from_millis(150);

/// The stop check of one file's exploration: true once [`EXPLORE_TIME`] has passed since it
/// was first asked.
fn explore_limit() -> impl FnMut() -> bool {
    let mut start: Option<Instant> = None;
    move || start.get_or_insert_with(Instant::now).elapsed() >= EXPLORE_TIME
}

/// One deck file: its source, its armies (if it parsed) and its diagnostics so far.
struct Deck {
    shown: String,
    source: String,
    armies: Vec<ast::Army>,
    diags: Vec<Diag>,
}

/// `check GAME --deck FILE [--deck FILE]`: the game, then each deck file against its rules.
fn run_decks(args: &CheckArgs) -> ExitStatus {
    if args.files.len() != 1 {
        eprintln!(
            "{}",
            CliError::new(format!(
                "`--deck` checks armies against one game, but {} are given",
                plural(args.files.len(), "game file")
            ))
            .note("usage: rulestone check GAME --deck FILE [--deck FILE]")
        );
        return ExitStatus::Error;
    }
    if args.deck.len() > 2 {
        eprintln!(
            "{}",
            CliError::new(format!(
                "at most 2 deck files, one per player, but {} are given",
                args.deck.len()
            ))
        );
        return ExitStatus::Error;
    }
    let mut report = Report::new(args.format);
    let game_path = &args.files[0];
    let Some(source) = report.read(game_path) else {
        return report.finish();
    };
    let game_shown = shown(game_path);
    let file = match syntax::parse(&source) {
        Ok(file) => file,
        Err(errors) => {
            report.file(&diag::boxed(errors), &source, &game_shown);
            return report.finish();
        }
    };
    let (checked, diags) = crate::check::check(&file);
    let failed = diag::has_errors(&diags);
    report.file(&diags, &source, &game_shown);
    // The army rules are what the checked game holds for decks; a game with none has nothing
    // to check decks against.
    let Some(game) = checked.and_then(|c| c.table) else {
        if failed {
            // The game's errors are reported; its army rules cannot be trusted.
            return report.finish();
        }
        eprintln!(
            "{}",
            CliError::new(format!(
                "`{game_shown}` has no army rules, so it has no armies to check decks against"
            ))
            .note("`--deck` needs a game with a `table` and a `table turn`")
        );
        return ExitStatus::Error;
    };

    let mut decks: Vec<Deck> = Vec::new();
    for path in &args.deck {
        let Some(source) = report.read(path) else {
            continue;
        };
        decks.push(check_deck(&game, source, shown(path)));
    }
    if decks.len() == args.deck.len() {
        check_players(&game, &mut decks);
    }
    for d in &decks {
        report.file(&d.diags, &d.source, &d.shown);
    }
    for d in &decks {
        if d.armies.is_empty() && !diag::has_errors(&d.diags) {
            eprintln!(
                "{}",
                CliError::new(format!("`{}` declares no army", d.shown))
                    .note("a deck file holds `army Name { factions ...  stones ...  cards ... }`")
            );
            report.errors += 1;
        }
    }
    report.finish()
}

/// Parses a deck file and checks each of its armies on its own.
fn check_deck(game: &TableGame, source: String, shown: String) -> Deck {
    match syntax::parse_deck(&source) {
        Err(errors) => Deck {
            shown,
            source,
            armies: Vec::new(),
            diags: diag::boxed(errors),
        },
        Ok(armies) => {
            let diags = armies
                .iter()
                .flat_map(|a| deck::check_army(game, a))
                .collect();
            Deck {
                shown,
                source,
                armies,
                diags,
            }
        }
    }
}

/// The two players' armies against each other: the first army of each of two deck files, or
/// the first two armies of a single deck file. Problems are reported in the second army's file.
fn check_players(game: &TableGame, decks: &mut [Deck]) {
    match decks {
        [one] => {
            if let [first, second, ..] = one.armies.as_slice() {
                let found = deck::check_opponents(game, first, second);
                one.diags.extend(found);
            }
        }
        [a, b] => {
            if let (Some(first), Some(second)) = (a.armies.first(), b.armies.first()) {
                let found = deck::check_opponents(game, first, second);
                b.diags.extend(found);
            }
        }
        _ => {}
    }
}

/// The line that closes a human-readable report with errors, once per run, for the first
/// error's code (as rustc does). Only for people: JSON and the language server leave it out.
pub(crate) fn explain_hint(code: &str) -> String {
    format!("for more on this error, try `rulestone explain {code}`")
}
