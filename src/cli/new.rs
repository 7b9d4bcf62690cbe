//! `rulestone new NAME`: a commented starting file that checks clean (a board, options, a
//! piece, a counter, a turn with a choice, a win), for a designer to change step by step.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{emit, CliError, Result};

/// The starting file, with `{title}` and `{file}` to fill in.
const TEMPLATE: &str = include_str!("../../templates/new.game");

#[derive(Clone, Debug, Args)]
pub struct NewArgs {
    /// The game's title (`"Three Stones"`, written to `three-stones.game`), or the path of the
    /// file to write (`games/mine.game`, titled `mine`; missing directories are made).
    #[arg(value_name = "NAME")]
    pub name: String,
}

pub(crate) fn run(args: &NewArgs) -> Result<()> {
    let (title, path) = title_and_path(&args.name)?;
    let shown = path.display().to_string();
    let text = TEMPLATE
        .replace("{title}", &title)
        .replace("{file}", &shown);
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| CliError::io("create", parent, &e))?;
    }
    // `create_new`: an existing file is never overwritten, even one made a moment ago.
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                CliError::new(format!("`{shown}` already exists; nothing was written"))
                    .note("give another name, or a path: rulestone new my-variant.game")
            }
            _ => CliError::io("write", &path, &e),
        })?;
    file.write_all(text.as_bytes())
        .map_err(|e| CliError::io("write", &path, &e))?;
    emit(&format!(
        "wrote {shown}, a game that checks clean; change it step by step:\n  \
         rulestone check {shown}     what is wrong, and how to fix it\n  \
         rulestone play {shown}      try it at the terminal\n  \
         rulestone draw {shown} -o board.svg\n"
    ))
}

/// The title and the file of `name`: a path ending in `.game` is the file, titled by its
/// stem; anything else is the title, written to its lower-case words joined by `-`.
fn title_and_path(name: &str) -> Result<(String, PathBuf)> {
    let name = name.trim();
    let (title, path) = if name.ends_with(".game") {
        let path = PathBuf::from(name);
        let stem = Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        (stem, path)
    } else {
        let words: Vec<String> = name
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        (
            name.to_string(),
            PathBuf::from(format!("{}.game", words.join("-"))),
        )
    };
    let bad = |c: char| c == '"' || c == '{' || c == '}' || c == '\\' || c.is_control();
    if title.is_empty() || title.chars().any(bad) || path.as_os_str() == ".game" {
        return Err(CliError::new(format!("`{name}` cannot be a game's title"))
            .note("give a name of letters, digits and spaces (no quotes, braces or backslashes), e.g. rulestone new \"Three Stones\"")
            .into());
    }
    Ok((title, path))
}

#[cfg(test)]
mod tests {
    use super::title_and_path;

    #[test]
    fn a_title_names_its_file_and_a_path_its_title() {
        let (title, path) = title_and_path("Three Stones").expect("a title");
        assert_eq!(
            (title.as_str(), path.to_str()),
            ("Three Stones", Some("three-stones.game"))
        );
        let (title, path) = title_and_path("games/mine.game").expect("a path");
        assert_eq!(
            (title.as_str(), path.to_str()),
            ("mine", Some("games/mine.game"))
        );
        for bad in ["", "  ", "say \"hi\"", "{x}", "!!!"] {
            assert!(title_and_path(bad).is_err(), "{bad:?}");
        }
    }
}
