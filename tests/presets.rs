//! Presets (`preset NAME: OPTION = VALUE, ...`): `--set preset=NAME` plays the preset's values,
//! another `--set` overrides one of them whatever their order, `info` lists them, an unknown
//! preset is refused with E0303, and a bundled game's preset runs on its compiled code with no
//! build step.

mod common;

use common::cli::{code, run, stderr, stdout};

/// A test game with a preset of two integer options.
const GAME: &str = "tests/games/capture_lines.game";

/// `perft` to depth 6 (past two stones in hand) with these `--set` values: the leaf count.
fn perft(sets: &[&str]) -> String {
    let mut args = vec!["perft", GAME, "--depth", "6"];
    for s in sets {
        args.extend(["--set", s]);
    }
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn a_preset_plays_its_values_and_a_set_overrides_them() {
    let by_name = perft(&["preset=quick"]);
    assert_eq!(by_name, perft(&["size=3", "stones=3"]));
    assert_ne!(by_name, perft(&[]));
    let overridden = perft(&["size=3", "stones=2"]);
    assert_ne!(overridden, by_name);
    assert_eq!(perft(&["stones=2", "preset=quick"]), overridden);
    assert_eq!(perft(&["preset=quick", "stones=2"]), overridden);
}

#[test]
fn info_lists_the_presets_and_an_unknown_one_is_refused() {
    let o = run(&["info", GAME]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("presets (--set preset=NAME):\n  quick   size=3, stones=3\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["perft", GAME, "--depth", "1", "--set", "preset=quik"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("error[E0303]: unknown preset `quik`"));
    assert!(stderr(&o).contains("did you mean `quick`?"));
}

/// The heading of `bench`, `Name (file, backend)`.
fn bench_heading(sets: &[&str]) -> String {
    let mut args = vec!["bench", "games/draughts.game", "--seconds", "0.05"];
    for s in sets {
        args.extend(["--set", s]);
    }
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stdout(&o).lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_bundled_games_preset_is_compiled_in() {
    let compiled = "(games/draughts.game, compiled move generation)";
    assert!(bench_heading(&["preset=openspiel"]).ends_with(compiled));
    // The same values by hand are the same program, so the same compiled code.
    assert!(bench_heading(&["quiet_draw=40"]).ends_with(compiled));
    let other = bench_heading(&["quiet_draw=41"]);
    assert!(other.ends_with("interpreter move generation)"), "{other}");
}
