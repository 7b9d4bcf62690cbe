//! Embeds the bundled games (`games/*.game` of the workspace) in the binary: writes
//! `bundled.rs` into `OUT_DIR`, a table of each file's name and `include_str!` of its text.
//! The list is read from the directory, so no game is named here.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let games = Path::new(&manifest).join("../../games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut names: Vec<(String, String)> = std::fs::read_dir(&games)
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter_map(|e| {
                    let path = e.path();
                    let name = path.file_name()?.to_str()?.to_string();
                    let full = std::fs::canonicalize(&path).ok()?;
                    (name.ends_with(".game") && full.is_file())
                        .then(|| (name, full.to_string_lossy().into_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::from(
        "/// Each bundled game's file name and text.\npub static BUNDLED: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &names {
        let _ = writeln!(out, "    ({name:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".to_string())).join("bundled.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
