//! A game compiled as a plugin by `rulestone compile` (a real `cargo build` of the generated
//! crate, on the runtime alone) and loaded by the command line with `--compiled`: the game
//! runs on its compiled code with the interpreter's counts, and files that are not plugins are refused with a clear error.
//!
//! The crate is built under cargo's temporary directory for tests (`target/tmp/`), where the
//! Python package's test of `load_compiled` finds it again (the same game into the same
//! directory rebuilds in seconds).

mod common;

use std::path::{Path, PathBuf};

use common::cli::{code, run, stderr, stdout};

/// The test game compiled into a plugin; a test game, so that no bundled code stands in for it.
const GAME: &str = "tests/games/mirror.game";

/// The plugin's crate directory, shared with the Python package's tests.
fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("compiled-plugin")
}

fn library(out: &Path) -> PathBuf {
    out.join(format!(
        "rulestone-compiled{}",
        std::env::consts::DLL_SUFFIX
    ))
}

fn path(p: &Path) -> String {
    p.to_str().expect("utf-8 path").to_string()
}

/// The backend `bench` names in its heading, `Name (file, backend)`.
fn backend_of(o: &std::process::Output) -> String {
    let text = stdout(o);
    text.lines()
        .find_map(|l| {
            let inside = l.trim_end().strip_suffix(')')?;
            inside.rsplit(", ").next().map(str::to_string)
        })
        .unwrap_or_else(|| panic!("no heading in:\n{text}"))
}

#[test]
fn a_game_compiled_as_a_plugin_runs_compiled_in_every_command() {
    let out = out_dir();
    let o = run(&["compile", GAME, "--out", &path(&out)]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("--compiled"), "{}", stdout(&o));
    let lib = path(&library(&out));

    // Perft counts agree with the interpreter's.
    let interpreted = run(&["perft", GAME, "--depth", "3"]);
    let compiled = run(&["--compiled", &lib, "perft", GAME, "--depth", "3"]);
    assert_eq!(code(&compiled), 0, "{}", stderr(&compiled));
    let counts = |o: &std::process::Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter(|l| !l.contains("speed") && !l.contains("time"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(counts(&interpreted), counts(&compiled));

    // `bench` names the backend that ran.
    let bench = |extra: &[&str], game: &str| {
        let mut args: Vec<&str> = extra.to_vec();
        args.extend(["bench", game, "--seconds", "0.1"]);
        run(&args)
    };
    let o = bench(&["--compiled", &lib], GAME);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(backend_of(&o), "compiled move generation");
    assert_eq!(backend_of(&bench(&[], GAME)), "interpreter move generation");
    assert_eq!(
        backend_of(&bench(&["--compiled", &lib, "--interpreter"], GAME)),
        "interpreter move generation"
    );
}

#[test]
fn files_that_are_not_plugins_are_refused() {
    let o = run(&["--compiled", "no/such.so", "info", GAME]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot load `no/such.so` as a compiled game"),
        "{}",
        stderr(&o)
    );
    let o = run(&["--compiled", GAME, "info", GAME]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot load"), "{}", stderr(&o));
}
