//! Generates the compiled move generation of every game in the repository's `games/`
//! directory into `OUT_DIR/games.rs`, as `rulestone compile games/*.game --module` would: one
//! program per combination of each game's enum options, and one per preset. A bundled game
//! that does not build is an error of the build, with its diagnostics.

use std::path::{Path, PathBuf};

use rulestone_lower::{Built, CompileSet};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let games = manifest.join("../../games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut programs = CompileSet::default();
    for path in game_files(&games) {
        println!("cargo:rerun-if-changed={}", path.display());
        add_variants(&mut programs, &path);
    }
    let units = rulestone_codegen::units(programs.entries());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("games.rs");
    if let Err(e) = std::fs::write(&out, rulestone_codegen::emit_items(&units)) {
        panic!("cannot write {}: {e}", out.display());
    }
}

/// The `.game` files of `dir`, in name order (so the generated code is the same on every
/// machine); none when the directory is missing (a package built without them).
fn game_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    files
}

/// Every program of one game file; a table game has none (its shots are simulated).
fn add_variants(programs: &mut CompileSet, path: &Path) {
    let shown = path.display().to_string();
    let source =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {shown}: {e}"));
    let file = rulestone_syntax::parse(&source)
        .unwrap_or_else(|e| panic!("{shown} does not parse: {e:?}"));
    for sets in rulestone_check::options::variants(&file) {
        match rulestone_lower::build_parsed(&file, &sets) {
            Ok(Built::Board(program)) => programs.add(&shown, &sets, program),
            Ok(Built::Table(..)) => return,
            Err(e) => panic!("{shown} does not build: {e}"),
        }
    }
}
