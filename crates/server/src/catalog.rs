//! The games the page lists: the bundled ones (embedded when the crate is built) and the
//! `.game` files under the served directory, read only from under it.

use std::io::Read as _;
use std::path::{Component, Path, PathBuf};

use crate::MAX_TEXT;

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The prefix of a bundled game's id.
const BUNDLED_PREFIX: &str = "bundled/";
/// The prefix of a served directory's game's id.
const DIR_PREFIX: &str = "dir/";
/// How deep the directory is searched for games, and how many are listed at most.
const MAX_DEPTH: usize = 4;
const MAX_LISTED: usize = 500;

/// One game the page can open.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Entry {
    /// `bundled/NAME.game` or `dir/RELATIVE/PATH.game`.
    pub id: String,
    /// The file's stem.
    pub name: String,
    /// `bundled` or `dir`.
    pub origin: &'static str,
}

/// The games served, and the directory they may be read from.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The served directory's canonical path.
    root: Option<PathBuf>,
}

impl Catalog {
    /// A catalog of the bundled games and of `dir`'s.
    ///
    /// # Errors
    /// `dir` is not a readable directory.
    pub fn new(dir: Option<&Path>) -> Result<Catalog, String> {
        let root = match dir {
            None => None,
            Some(d) => {
                let canonical = std::fs::canonicalize(d)
                    .map_err(|e| format!("cannot serve `{}`: {e}", d.display()))?;
                if !canonical.is_dir() {
                    return Err(format!(
                        "cannot serve `{}`: it is not a directory",
                        d.display()
                    ));
                }
                Some(canonical)
            }
        };
        Ok(Catalog { root })
    }

    /// Every game: the bundled ones, then the directory's, each group by path.
    #[must_use]
    pub fn list(&self) -> Vec<Entry> {
        let mut out: Vec<Entry> = BUNDLED
            .iter()
            .map(|(file, _)| Entry {
                id: format!("{BUNDLED_PREFIX}{file}"),
                name: stem(file),
                origin: "bundled",
            })
            .collect();
        if let Some(root) = &self.root {
            let mut found = Vec::new();
            walk(root, root, 0, &mut found);
            found.sort();
            out.extend(found.into_iter().map(|rel| Entry {
                name: stem(&rel),
                id: format!("{DIR_PREFIX}{rel}"),
                origin: "dir",
            }));
        }
        out
    }

    /// The text of the game `id`.
    ///
    /// # Errors
    /// An id that names no listed game, a path leading out of the directory, a file too large
    /// or not UTF-8.
    pub fn read(&self, id: &str) -> Result<String, String> {
        if let Some(file) = id.strip_prefix(BUNDLED_PREFIX) {
            return BUNDLED
                .iter()
                .find(|(name, _)| *name == file)
                .map(|(_, text)| (*text).to_string())
                .ok_or_else(|| format!("no bundled game is called `{file}`"));
        }
        let (Some(rel), Some(root)) = (id.strip_prefix(DIR_PREFIX), &self.root) else {
            return Err(format!("no game has the id `{id}`"));
        };
        let path = Path::new(rel);
        if rel.is_empty()
            || !path.components().all(|c| matches!(c, Component::Normal(_)))
            || path.extension().and_then(|e| e.to_str()) != Some("game")
        {
            return Err(format!(
                "`{rel}` is not a `.game` file's path inside the served directory"
            ));
        }
        let canonical = std::fs::canonicalize(root.join(path))
            .map_err(|_| format!("no game file `{rel}` in the served directory"))?;
        if !canonical.starts_with(root) || !canonical.is_file() {
            return Err(format!(
                "`{rel}` leads out of the served directory: only its own files are read"
            ));
        }
        read_bounded(&canonical).map_err(|e| format!("cannot read `{rel}`: {e}"))
    }
}

fn stem(file: &str) -> String {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.strip_suffix(".game").unwrap_or(name).to_string()
}

/// The `.game` files under `dir`, as `/`-separated paths relative to `root`; symbolic links
/// and hidden entries are skipped.
fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        if out.len() >= MAX_LISTED {
            return;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if meta.file_type().is_symlink() || name.starts_with('.') || name == "target" {
            continue;
        }
        if meta.is_dir() {
            walk(root, &path, depth + 1, out);
        } else if meta.is_file() && name.ends_with(".game") {
            if let Ok(rel) = path.strip_prefix(root) {
                let parts: Vec<&str> = rel
                    .components()
                    .filter_map(|c| c.as_os_str().to_str())
                    .collect();
                out.push(parts.join("/"));
            }
        }
    }
}

/// Reads at most [`MAX_TEXT`] bytes of UTF-8 text.
fn read_bounded(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_TEXT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() > MAX_TEXT {
        return Err(format!(
            "it holds more than {} KiB, the limit of a game text",
            MAX_TEXT >> 10
        ));
    }
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

/// A bundled game's text, for unit tests.
#[cfg(test)]
pub(crate) fn tests_source() -> String {
    BUNDLED
        .iter()
        .find(|(n, _)| n.starts_with("tic"))
        .or(BUNDLED.first())
        .map(|(_, t)| (*t).to_string())
        .unwrap_or_default()
}
