//! `rulestone check`: diagnostics for each file, then a summary line.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::diag::{self, Diag, Severity};
use crate::syntax;

use super::load::shown;
use super::{color_stderr, emit, plural, CliError, ExitStatus};

#[derive(Clone, Debug, Args)]
pub struct CheckArgs {
    /// The game files to check.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// How to report: `human` text on standard error, or `json` on standard output.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source excerpts with labels, like rustc (colour on a terminal unless `NO_COLOR` is set).
    Human,
    /// One JSON array of every diagnostic, each with `code`, `severity`, `message`, `file`,
    /// `labels` (byte offsets, 1-based lines and columns), `help` and `related`.
    Json,
}

/// Parses and checks one source text.
fn diagnose(source: &str) -> Vec<Diag> {
    match syntax::parse(source) {
        Err(errors) => diag::boxed(errors),
        Ok(file) => crate::check::check(&file).1,
    }
}

pub(crate) fn run(args: &CheckArgs) -> ExitStatus {
    let color = color_stderr();
    let mut errors = 0;
    let mut warnings = 0;
    let mut unreadable = 0;
    let mut json: Vec<serde_json::Value> = Vec::new();
    for path in &args.files {
        let source = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}", CliError::io("read", path, &e));
                unreadable += 1;
                continue;
            }
        };
        let diags = diagnose(&source);
        let shown = shown(path);
        for d in &diags {
            match diag::severity(d.as_ref()) {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Advice => {}
            }
        }
        match args.format {
            Format::Human => {
                if !diags.is_empty() {
                    eprintln!(
                        "{}",
                        diag::render(&diags, &source, &shown, color).trim_end()
                    );
                    eprintln!();
                }
            }
            Format::Json => {
                let text = diag::render_json(&diags, &source, &shown);
                match serde_json::from_str::<Vec<serde_json::Value>>(&text) {
                    Ok(values) => json.extend(values),
                    Err(e) => {
                        eprintln!(
                            "{}",
                            CliError::new(format!(
                                "internal: diagnostics of `{shown}` are not JSON: {e}"
                            ))
                        );
                        unreadable += 1;
                    }
                }
            }
        }
    }
    let checked = args.files.len() - unreadable;
    match args.format {
        Format::Human => eprintln!(
            "checked {}: {}, {}",
            plural(checked, "file"),
            plural(errors, "error"),
            plural(warnings, "warning")
        ),
        Format::Json => {
            let text = serde_json::to_string_pretty(&json).unwrap_or_else(|_| "[]".to_string());
            if emit(&format!("{text}\n")).is_err() {
                return ExitStatus::Error;
            }
        }
    }
    if unreadable > 0 {
        ExitStatus::Error
    } else if errors > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}
