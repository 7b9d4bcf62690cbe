//! `rulestone fmt`: rewrites game files in the canonical layout ([`crate::syntax::format`]).
//! (The module is `format` because `fmt` would shadow `std::fmt` in `cli`.)

use std::path::{Path, PathBuf};

use clap::Args;

use crate::diag;
use crate::syntax::{format_source, FormatError};

use super::load::{read, shown};
use super::{color_stderr, emit, plural, CliError, Fail, Result};

#[derive(Clone, Debug, Args)]
pub struct FmtArgs {
    /// Game files (`.game`) and directories (every `.game` file under them, recursively); `-`
    /// reads a game from standard input and writes it formatted to standard output.
    #[arg(value_name = "FILE|DIR", required = true)]
    pub paths: Vec<PathBuf>,

    /// Change nothing: list the files that are not formatted, with their first differing
    /// line, and exit with 1 if there is any.
    #[arg(long)]
    pub check: bool,
}

/// What became of one file.
enum Outcome {
    Unchanged,
    Changed,
    /// Its syntax errors were rendered.
    Refused,
}

pub(crate) fn run(args: &FmtArgs) -> Result<()> {
    if args.paths.iter().any(|p| p.as_os_str() == "-") {
        if args.paths.len() > 1 {
            return Err(CliError::new("`-` (standard input) cannot be mixed with files").into());
        }
        return stdin(args.check);
    }
    let files = collect(&args.paths)?;
    let (mut unchanged, mut changed, mut refused) = (0, 0, 0);
    for file in &files {
        match one(file, args.check)? {
            Outcome::Unchanged => unchanged += 1,
            Outcome::Changed => changed += 1,
            Outcome::Refused => refused += 1,
        }
    }
    let mut parts = Vec::new();
    if changed > 0 {
        let verb = if args.check {
            "would be reformatted"
        } else {
            "reformatted"
        };
        parts.push(format!("{} {verb}", plural(changed, "file")));
    }
    if unchanged > 0 || files.is_empty() {
        parts.push(format!("{} already formatted", plural(unchanged, "file")));
    }
    if refused > 0 {
        parts.push(format!("{} not parsed", plural(refused, "file")));
    }
    let summary = parts.join(", ");
    emit(&format!("{summary}\n"))?;
    if refused > 0 || (args.check && changed > 0) {
        Err(Fail::Reported(None))
    } else {
        Ok(())
    }
}

/// The files named on the command line: `.game` files as given, directories searched.
fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| CliError::io("read", path, &e))?;
        if meta.is_dir() {
            let before = files.len();
            walk(path, &mut files)?;
            files[before..].sort();
        } else if is_game(path) {
            files.push(path.clone());
        } else {
            return Err(
                CliError::new(format!("`{}` is not a `.game` file", shown(path)))
                    .note("`fmt` formats game files (`.game`) and the `.game` files of directories")
                    .into(),
            );
        }
    }
    // A file named twice (or inside a directory also named) is formatted once.
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok(files)
}

fn is_game(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "game")
}

/// Every `.game` file under a directory.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| CliError::io("read", dir, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| CliError::io("read", dir, &e))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| CliError::io("read", &path, &e))?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if is_game(&path) {
            files.push(path);
        }
    }
    Ok(())
}

/// Formats one file: rewritten when it changes (or, with `--check`, reported).
fn one(path: &Path, check: bool) -> Result<Outcome> {
    let source = read(path)?;
    let Some(text) = formatted(&source, &shown(path))? else {
        return Ok(Outcome::Refused);
    };
    if text == source {
        return Ok(Outcome::Unchanged);
    }
    if check {
        emit(&format!(
            "would reformat {}\n{}",
            shown(path),
            first_difference(&source, &text)
        ))?;
    } else {
        std::fs::write(path, &text).map_err(|e| CliError::io("write", path, &e))?;
        emit(&format!("formatted {}\n", shown(path)))?;
    }
    Ok(Outcome::Changed)
}

/// `-`: standard input to standard output (with `--check`, only the verdict).
fn stdin(check: bool) -> Result<()> {
    let source = super::read_bounded(std::io::stdin())
        .map_err(|e| CliError::io("read", Path::new("<stdin>"), &e))?;
    let Some(text) = formatted(&source, "<stdin>")? else {
        return Err(Fail::Reported(None));
    };
    if !check {
        return emit(&text);
    }
    if text == source {
        Ok(())
    } else {
        emit(&format!(
            "would reformat <stdin>\n{}",
            first_difference(&source, &text)
        ))?;
        Err(Fail::Reported(None))
    }
}

/// The formatted text, or `None` when the source does not parse (its errors are rendered).
fn formatted(source: &str, name: &str) -> Result<Option<String>> {
    match format_source(source) {
        Ok(text) => Ok(Some(text)),
        Err(FormatError::Syntax(errors)) => {
            let n = errors.len();
            eprint!(
                "{}",
                diag::render(&diag::boxed(errors), source, name, color_stderr())
            );
            eprintln!(
                "error: cannot format `{name}` due to {}",
                plural(n, "previous error")
            );
            Ok(None)
        }
        Err(e @ FormatError::Changed(_)) => {
            Err(CliError::new(format!("cannot format `{name}`: {e}"))
                .note("this is a bug in `rulestone fmt`; the file was left as it is")
                .into())
        }
    }
}

/// The first line where two texts differ, as a two-line diff.
fn first_difference(old: &str, new: &str) -> String {
    let (mut a, mut b) = (old.lines(), new.lines());
    let mut line = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (None, None) => {
                return "  (line endings or the end of the file)\n".to_string();
            }
            (x, y) => {
                let mut out = format!("  line {line}:\n");
                if let Some(x) = x {
                    out.push_str(&format!("  - {x}\n"));
                }
                if let Some(y) = y {
                    out.push_str(&format!("  + {y}\n"));
                }
                return out;
            }
        }
    }
}
