//! End-to-end tests of the `rulestone` binary: help texts, every command on the bundled Pylos,
//! option and move errors, interactive play from piped input, records, replay and playouts.
//!
//! Snapshots live in `snapshots/cli/`. Update them with `INSTA_UPDATE=always cargo test --test cli`
//! (or `cargo insta review`), then read `git diff snapshots/`.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use clap::CommandFactory;

mod common;
use common::cli::{cmd, code, run, stderr, stdout, transcript};
use common::root;

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::cli::scratch("cli", name)
}

const PYLOS: &str = "games/pylos.game";

/// Runs with `input` piped to standard input.
fn run_with_input(args: &[&str], input: &str) -> Output {
    run_cmd_with_input(cmd(args), input)
}

fn run_cmd_with_input(mut c: Command, input: &str) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rulestone");
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    // A command that refuses its arguments may exit before it reads its input.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait for rulestone")
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or_default().to_string()
}

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "../snapshots/cli",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

// ---- the command line itself ----------------------------------------------------------------

#[test]
fn cli_definition_is_valid() {
    rulestone::cli::Cli::command().debug_assert();
}

#[test]
fn help_texts() {
    let o = run(&["--help"]);
    assert_eq!(code(&o), 0);
    snap!("help", stdout(&o));
    for sub in [
        "check", "explain", "fmt", "info", "moves", "perft", "play", "replay", "playout", "match",
        "bench", "compile", "dump", "new",
    ] {
        let o = run(&[sub, "--help"]);
        assert_eq!(code(&o), 0, "{sub} --help");
        snap!(format!("help_{sub}"), stdout(&o));
    }
}

#[test]
fn usage_errors_exit_2() {
    let o = run(&["perft", PYLOS]);
    assert_eq!(code(&o), 2, "missing --depth");
    let o = run(&["frobnicate"]);
    assert_eq!(code(&o), 2);
}

// ---- info ----------------------------------------------------------------------------------

#[test]
fn info_describes_board_games() {
    let o = run(&[
        "info",
        PYLOS,
        "--set",
        "variant=advanced",
        "--set",
        "base=3",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("info_pylos", transcript(&o));
    let o = run(&["info", "games/stoneball.game"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("info_stoneball", transcript(&o));
    let o = run(&["info", "games/tankball.game", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("info --format json");
    assert_eq!(v["chance"], true);
    assert_eq!(v["players"][0], "White");
    snap!("info_tankball_json", stdout(&o));
}

#[test]
fn info_describes_a_table_game() {
    let o = run(&["info", "games/warstone.game", "--set", "friction=12.5"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("info_warstone", transcript(&o));
}

#[test]
fn info_refuses_bad_options() {
    let o = run(&["info", PYLOS, "--set", "base=9"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("E0304"), "{}", stderr(&o));
    let o = run(&["info", "no/such.game"]);
    assert_eq!(code(&o), 2);
    snap!("info_missing_file", transcript(&o));
}

#[test]
fn match_needs_games_or_a_target() {
    let o = run(&["match", "games/steinplatz.game"]);
    assert_eq!(code(&o), 2);
    snap!("match_without_length", transcript(&o));
    let o = run(&[
        "match",
        "games/steinplatz.game",
        "--target",
        "5",
        "--seed",
        "1",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let games = stdout(&o)
        .lines()
        .filter(|l| l.starts_with("game "))
        .count();
    let one = if games == 1 { "game" } else { "games" };
    assert!(
        last_line(&o).ends_with(&format!("after {games} {one}")),
        "{}",
        stdout(&o)
    );
}

// ---- fmt ------------------------------------------------------------------------------------

const UNFORMATTED: &str = "tests/fmt/unformatted.game";

#[test]
fn fmt_check_lists_an_unformatted_file() {
    let o = run(&["fmt", "--check", UNFORMATTED, PYLOS]);
    assert_eq!(code(&o), 1);
    snap!("fmt_check_unformatted", transcript(&o));
    let o = run(&["fmt", "--check", "games/", "tests/games/"]);
    assert_eq!(code(&o), 0, "{}", transcript(&o));
}

#[test]
fn fmt_stdin_prints_the_canonical_layout() {
    let source = fs::read_to_string(root().join(UNFORMATTED)).expect("read fixture");
    let o = run_with_input(&["fmt", "-"], &source);
    assert_eq!(code(&o), 0, "{}", transcript(&o));
    snap!("fmt_stdin", stdout(&o));
    let o = run_with_input(&["fmt", "--check", "-"], &stdout(&o));
    assert_eq!(code(&o), 0, "{}", transcript(&o));
}

#[test]
fn fmt_refuses_a_file_that_does_not_parse() {
    let o = run(&["fmt", "tests/ui/syntax/E0001-missing-at.game"]);
    assert_eq!(code(&o), 1);
    snap!("fmt_does_not_parse", transcript(&o));
}

#[test]
fn fmt_rewrites_files_in_place_only_when_they_change() {
    let dir = scratch("fmt");
    fs::create_dir_all(dir.join("sub")).expect("mkdir");
    fs::copy(root().join(UNFORMATTED), dir.join("sub/a.game")).expect("copy");
    fs::copy(root().join(PYLOS), dir.join("sub/pylos.game")).expect("copy");
    fs::write(dir.join("sub/notes.txt"), "not a game").expect("write");
    let in_dir = |args: &[&str]| {
        let mut c = cmd(args);
        c.current_dir(&dir);
        c.output().expect("run rulestone")
    };
    let o = in_dir(&["fmt", "sub"]);
    assert_eq!(code(&o), 0, "{}", transcript(&o));
    assert_eq!(
        stdout(&o),
        "formatted sub/a.game\n1 file reformatted, 1 file already formatted\n"
    );
    let canonical = stdout(&run_with_input(
        &["fmt", "-"],
        &fs::read_to_string(root().join(UNFORMATTED)).expect("read fixture"),
    ));
    assert_eq!(
        fs::read_to_string(dir.join("sub/a.game")).ok(),
        Some(canonical)
    );
    let pylos = fs::read_to_string(root().join(PYLOS)).ok();
    assert_eq!(fs::read_to_string(dir.join("sub/pylos.game")).ok(), pylos);
    let o = in_dir(&["fmt", "--check", "sub"]);
    assert_eq!(code(&o), 0, "{}", transcript(&o));
    assert_eq!(stdout(&o), "2 files already formatted\n");

    let o = in_dir(&["fmt", "sub/notes.txt"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("`sub/notes.txt` is not a `.game` file"),
        "{}",
        transcript(&o)
    );
    let o = in_dir(&["fmt", "missing.game"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("cannot read `missing.game`"),
        "{}",
        transcript(&o)
    );

    let bad = fs::read_to_string(root().join("tests/ui/syntax/E0004-unclosed-brace.game"))
        .expect("read fixture");
    fs::write(dir.join("bad.game"), &bad).expect("write");
    let o = in_dir(&["fmt", "bad.game", "sub"]);
    assert_eq!(code(&o), 1, "{}", transcript(&o));
    assert!(
        stderr(&o).contains("cannot format `bad.game`"),
        "{}",
        transcript(&o)
    );
    assert_eq!(fs::read_to_string(dir.join("bad.game")).ok(), Some(bad));
}

// ---- moves and perft ------------------------------------------------------------------------

#[test]
fn moves_from_the_start() {
    let o = run(&["moves", PYLOS]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let moves: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(moves.len(), 16);
    assert_eq!(moves[0], "1a1");
    assert_eq!(moves[15], "1d4");
}

#[test]
fn moves_after_moves() {
    let o = run(&["moves", PYLOS, "--after", " 1a1 ;1b1; "]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 14);
    assert!(!moves.contains(&"1a1") && !moves.contains(&"1b1"));
}

#[test]
fn moves_of_a_finished_game_print_nothing() {
    // Base 2 with one ball each: after two placements Light has no move and loses.
    let o = run(&[
        "moves",
        PYLOS,
        "--set",
        "base=2",
        "--set",
        "reserve=1",
        "--after",
        "1a1; 1a2",
    ]);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("Dark wins"), "{}", stderr(&o));
}

#[test]
fn perft_depth_3() {
    let o = run(&["perft", PYLOS, "--depth", "3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(last_line(&o), "3360");
}

#[test]
fn perft_small_depths() {
    for (depth, nodes) in [("0", "1"), ("1", "16"), ("2", "240")] {
        let o = run(&["perft", PYLOS, "--depth", depth]);
        assert_eq!(stdout(&o), format!("{nodes}\n"));
    }
}

#[test]
fn perft_divide() {
    let o = run(&["perft", PYLOS, "--depth", "3", "--divide"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(last_line(&o), "3360");
    snap!("perft_divide", stdout(&o));
}

#[test]
fn perft_after_moves() {
    let o = run(&["perft", PYLOS, "--depth", "1", "--after", "1a1; 1b1"]);
    assert_eq!(last_line(&o), "14");
}

#[test]
fn options_change_the_game() {
    let o = run(&["perft", PYLOS, "--depth", "1", "--set", "base=3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(last_line(&o), "9");
    let o = run(&["perft", PYLOS, "--depth", "2", "--set", "reserve=7"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(last_line(&o), "240");
    let o = run(&[
        "perft",
        PYLOS,
        "--depth",
        "1",
        "--set",
        "variant=basic",
        "--set",
        "base=2",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(last_line(&o), "4");
}

#[test]
fn bad_options_exit_2() {
    let mut all = String::new();
    for set in ["bsae=3", "base=9", "variant=expert", "base"] {
        let o = run(&["perft", PYLOS, "--depth", "1", "--set", set]);
        assert_eq!(code(&o), 2, "--set {set}");
        assert_eq!(stdout(&o), "");
        let _ = writeln!(all, "--set {set}\n{}", stderr(&o));
    }
    snap!("bad_options", all);
}

#[test]
fn bad_after_move_exit_2() {
    let o = run(&["moves", PYLOS, "--after", "1a1; 1b1; 1a1; 1c1"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("move 3") && err.contains("`1a1`"), "{err}");
    snap!("bad_after_move", transcript(&o));

    let o = run(&["perft", PYLOS, "--depth", "1", "--after", "1a1; zz top"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("move 2 of `--after`, `zz top`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn illegal_moves_say_why() {
    let mut out = String::new();
    for (game, after) in [
        ("games/breakthrough.game", "b2b3"),
        ("games/breakthrough.game", "b2-b3; D7 - D6"),
        ("games/draughts.game", "c3 d4"),
        ("games/steinplatz.game", "Block z1 n"),
        ("games/tankball.game", "H@e6:E; H@z9:W"),
        ("games/tictactoe.game", "a1; a1"),
        ("games/steinplatz.game", "Beam c6 q"),
        ("games/tankball.game", "H@e6:Q"),
    ] {
        let o = run(&["moves", game, "--after", after]);
        assert_eq!(code(&o), 2, "{game} {after}");
        let _ = writeln!(out, "$ rulestone moves {game} --after \"{after}\"");
        out.push_str(&stderr(&o));
    }
    snap!("illegal_moves_say_why", out);
}

/// `why MOVE` in `play` tells whether a move is legal and, if not, which part fails, without
/// playing it.
#[test]
fn play_says_why_a_move_is_illegal() {
    let o = run_with_input(
        &["play", "games/steinplatz.game"],
        "why Beam c6 q\nwhy block a1 n\nwhy\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let from = text.find("Black> why").unwrap_or(0);
    snap!("play_why", &text[from..]);
}

/// `why MOVE` names the `require` that refuses a move (here a third heavy tank in the setup,
/// which one rule forbids), quoting its line of the game file.
#[test]
fn play_why_names_the_refusing_rule() {
    let o = run_with_input(
        &[
            "play",
            "games/tankball.game",
            "--after",
            "H@e6:E; H@b7:E; H@c2:E; H@h7:E",
        ],
        "why H@e2:E\nwhy h@E2 e\nwhy L@e2:E\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let from = text.find("White> why").unwrap_or(0);
    snap!("play_why_rule", &text[from..]);
}

/// `why MOVE` names the `pick` whose set leaves a cell of the move out, quoting the set with
/// its line, and the part of the set that excludes the cell: an occupied cell for `empty`, a
/// cell outside `own`, a cell in the part a `-` takes away.
#[test]
fn play_why_names_the_set_that_leaves_a_cell_out() {
    let o = run_with_input(
        &["play", "games/tictactoe.game", "--after", "a1"],
        "why a1\nwhy b2\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let mut out = text[text.find("O> why").unwrap_or(0)..].to_string();
    let o = run_with_input(
        &["play", "games/breakthrough.game", "--after", "b2-b3; c7-c6"],
        "why b3-c4\nwhy a7-a6\nwhy a2-b3\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    out.push_str(&text[text.find("White> why").unwrap_or(0)..]);
    snap!("play_why_pick", out);
}

/// A game whose moves can fail a `pick` and a `require` at once, for `why`.
const CLIMB: &str = "game \"Climb\"
players White, Black
board {
    axes x, y
    cells x in 0..3, y in 0..3
    name \"{letter(x)}{y + 1}\"
}
relation king = (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, 1) | (1, -1) | (-1, 1) | (-1, -1)
piece stone \"W\" \"B\"
setup {
    put stone of White at {a1, b2}
    put stone of Black at {d4}
}
turn {
    pick from in own
    pick to in empty & step(king, from)
    // Stones only climb.
    require mover == White and to.y > from.y or mover == Black and to.y < from.y
    move from to to
    write \"{from}-{to}\"
}
on no moves {
    lose mover
}
";

/// `why MOVE` names every failure of a refused move: each `pick` whose set leaves a cell out,
/// with every side of an `&` that does (occupied and out of reach at once), the `require` that
/// fails beside it with its line, and a `let` set by the parts of its own expression (Pylos's
/// `open`: a cell not supported). Lines of Action's hidden direction gives the reasons of each
/// way at once.
#[test]
fn play_why_names_every_failure() {
    let dir = std::env::temp_dir().join(format!("rulestone-why-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("climb.game");
    std::fs::write(&path, CLIMB).expect("the game written");
    let shown = path.to_str().expect("utf-8 temp path");
    let o = run_with_input(
        &["play", shown],
        "why a1-c1\nwhy d4-c4\nwhy a1-d4\nwhy a1-b1\nwhy a1-a2\nquit\n",
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let mut out = text[text.find("White> why").unwrap_or(0)..].to_string();
    let o = run_with_input(&["play", PYLOS, "--after", "1a1"], "why 2a1\nquit\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    out.push_str(&text[text.find("Dark> why").unwrap_or(0)..]);
    let o = run_with_input(&["play", "games/lines_of_action.game"], "why b1-b2\nquit\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    out.push_str(&text[text.find("Black> why").unwrap_or(0)..]);
    snap!("play_why_every_failure", out);
}

#[test]
fn after_the_end_of_the_game_exit_2() {
    let o = run(&[
        "moves",
        PYLOS,
        "--set",
        "base=2",
        "--set",
        "reserve=1",
        "--after",
        "1a1; 1a2; 1b1",
    ]);
    assert_eq!(code(&o), 2);
    snap!("move_after_the_end", stderr(&o));
}

/// `--max-nodes` stops a count with exit status 3 and a report of what it finished: every
/// depth counted before the bound, and how far the unfinished one got. Within the bound the
/// output is the count's own.
#[test]
fn perft_stops_at_max_nodes_exit_3() {
    // Pylos: 16 + 240 + 3,360 leaves at depths 1 to 3 fit in 5,000.
    let o = run(&["perft", PYLOS, "--depth", "3", "--max-nodes", "5000"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let full = run(&["perft", PYLOS, "--depth", "3"]);
    assert_eq!(stdout(&o), stdout(&full));
    let o = run(&["perft", PYLOS, "--depth", "3", "--max-nodes", "1000"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    snap!("perft_max_nodes", stdout(&o));
    let o = run(&[
        "perft",
        PYLOS,
        "--depth",
        "3",
        "--max-nodes",
        "1000",
        "--divide",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let mut report = report;
    report["seconds"] = serde_json::json!(0.0);
    snap!(
        "perft_max_nodes_json",
        serde_json::to_string_pretty(&report).expect("json")
    );
    // A game with chance counts its lines with the rolls given, within the same bound.
    let o = run(&[
        "perft",
        "games/tankball.game",
        "--depth",
        "2",
        "--after",
        TANKBALL_SETUP,
        "--rolls",
        "1 2 3; 2 2 2",
        "--max-nodes",
        "100",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(
            "depth 1: unfinished, 100 leaves counted so far (100 of 149 first moves finished)\n"
        ),
        "{}",
        stdout(&o)
    );
    // The position itself is one leaf: within any bound.
    let o = run(&["perft", PYLOS, "--depth", "0", "--max-nodes", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "1\n");
}

/// A tiny `--time-limit` on a count far too long to finish: exit 3 and the shape of the
/// report (finished depths, the unfinished one, the bound), whatever the machine's speed.
#[test]
fn perft_stops_at_time_limit_exit_3() {
    let o = run(&[
        "perft",
        "games/connect4.game",
        "--depth",
        "20",
        "--time-limit",
        "0.001",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let (last, rest) = lines.split_last().expect("a report");
    assert!(
        last.starts_with("perft stopped by --time-limit 0.001 s at depth "),
        "{out}"
    );
    let (unfinished, finished) = rest.split_last().expect("the unfinished depth");
    assert!(
        unfinished.contains(": unfinished, ")
            && unfinished.ends_with(" of 7 first moves finished)"),
        "{out}"
    );
    for (d, line) in finished.iter().enumerate() {
        assert!(line.starts_with(&format!("depth {}: ", d + 1)), "{out}");
    }
}

/// `moves --max-nodes N` writes the first N moves, says on standard error how many the
/// position has, and exits with 3; `--time-limit` stops the writing the same way.
#[test]
fn moves_stop_at_a_bound_exit_3() {
    let o = run(&["moves", PYLOS, "--max-nodes", "3"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    snap!("moves_max_nodes", transcript(&o));
    let o = run(&["moves", PYLOS, "--max-nodes", "16"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 16);
    let o = run(&["moves", PYLOS, "--max-nodes", "2", "--format", "json"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    snap!("moves_max_nodes_json", stdout(&o));
    // The clock is read before the first move is written: a limit already past shows none.
    let o = run(&["moves", PYLOS, "--time-limit", "0.000000001"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("stopped by --time-limit 0.000000001 s: "),
        "{}",
        stderr(&o)
    );
}

/// `playout` starts no game past `--max-nodes` moves in all or past `--time-limit`: the
/// report covers the games played and names the bound; exit status 3.
#[test]
fn playout_stops_at_a_bound_exit_3() {
    let o = run(&[
        "playout",
        "games/connect4.game",
        "--games",
        "100",
        "--seed",
        "1",
        "--max-nodes",
        "500",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let text = stdout(&o);
    let shown: Vec<&str> = text.lines().filter(|l| !l.starts_with("speed:")).collect();
    snap!("playout_max_nodes", shown.join("\n"));
    let o = run(&[
        "playout",
        "games/connect4.game",
        "--games",
        "1000000000",
        "--time-limit",
        "0.01",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(report["stopped_by"]["bound"], "time_limit");
    assert_eq!(report["stopped_by_time_limit"], true);
}

/// A bound stops a game in progress too: `playout --max-nodes 3` gives up the first chess game
/// after three moves (it is not counted), and every long-running command takes `--time-limit`
/// and stops at it with exit status 3, saying so: `solve`, `arena`, `analyze` and `match`.
#[test]
fn long_commands_stop_inside_a_game_at_their_bounds() {
    let o = run(&[
        "playout",
        "games/chess.game",
        "--games",
        "1",
        "--max-nodes",
        "3",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("--max-nodes 3: 0 of 1 game played"),
        "{}",
        stdout(&o)
    );
    let solve = run(&["solve", "games/connect4.game", "--time-limit", "0.2"]);
    assert_eq!(code(&solve), 3, "{}", stderr(&solve));
    assert!(
        stdout(&solve).starts_with("solve stopped by --time-limit 0.2 s after "),
        "{}",
        stdout(&solve)
    );
    let arena = run(&[
        "arena",
        "games/connect4.game",
        "--agents",
        "mcts,mcts",
        "--games",
        "10000",
        "--time-limit",
        "0.3",
    ]);
    assert_eq!(code(&arena), 3, "{}", stderr(&arena));
    assert!(
        stdout(&arena).contains("arena stopped by --time-limit 0.3 s: "),
        "{}",
        stdout(&arena)
    );
    let analyze = run(&[
        "analyze",
        "games/tictactoe.game",
        "--games",
        "10000",
        "--time-limit",
        "0.3",
        "--format",
        "json",
    ]);
    assert_eq!(code(&analyze), 3, "{}", stderr(&analyze));
    let report: serde_json::Value = serde_json::from_str(&stdout(&analyze)).expect("json");
    assert_eq!(report["stopped_by"]["bound"], "time_limit");
    assert!(report["unplayed"].as_u64().is_some_and(|n| n > 0));
    let matched = run(&[
        "match",
        "games/go.game",
        "--games",
        "10000",
        "--time-limit",
        "0.2",
    ]);
    assert_eq!(code(&matched), 3, "{}", stderr(&matched));
    assert!(
        stdout(&matched).contains("match stopped by --time-limit 0.2 s"),
        "{}",
        stdout(&matched)
    );
}

/// Bounds and counts that are no bounds at all are usage errors (exit 2) that say what is
/// accepted: zero, negative, not a number, infinite, absurdly large.
#[test]
fn bad_bounds_are_usage_errors() {
    let mut shown = String::new();
    for (command, flag, value) in [
        ("perft", "--max-nodes", "0"),
        ("perft", "--max-nodes", "-5"),
        ("perft", "--max-nodes", "1e6"),
        ("perft", "--max-nodes", "99999999999999999999999"),
        ("moves", "--max-nodes", "2000000000000000"),
        ("playout", "--max-nodes", "x"),
        ("perft", "--time-limit", "0"),
        ("perft", "--time-limit", "-1"),
        ("moves", "--time-limit", "NaN"),
        ("playout", "--time-limit", "inf"),
        ("playout", "--time-limit", "1e300"),
    ] {
        let mut args = vec![command, PYLOS, flag, value];
        if command == "perft" {
            args.extend(["--depth", "1"]);
        }
        let o = run(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        let first = stderr(&o).lines().next().unwrap_or_default().to_string();
        let _ = writeln!(shown, "{command} {flag} {value}\n  {first}");
    }
    snap!("bad_bounds", shown);
}

/// A `solve` table larger than the machine's memory is refused before it grows (exit 2),
/// where the machine says how much it has: a million MB is more than any test machine holds.
#[test]
fn a_solve_table_past_the_machine_memory_is_refused() {
    let o = run(&["solve", "games/tictactoe.game", "--memory", "1048576"]);
    assert_eq!(code(&o), 2);
    if std::path::Path::new("/proc/meminfo").exists() {
        assert!(
            stderr(&o).contains("more than this machine's memory"),
            "{}",
            stderr(&o)
        );
    }
}

/// Sizes that would fill the memory or run for ever are refused at once with a message that
/// names the limit (exit 2): every run's memory is bounded by a documented limit.
#[test]
fn absurd_sizes_are_refused() {
    let many_agents = vec!["random"; 33].join(",");
    let mut shown = String::new();
    for args in [
        vec!["playout", PYLOS, "--games", "1000000000000"],
        vec!["playout", PYLOS, "--max-plies", "1000000000"],
        vec!["perft", PYLOS, "--depth", "1000"],
        vec!["match", "games/steinplatz.game", "--games", "1000000"],
        vec![
            "match",
            "games/steinplatz.game",
            "--games",
            "2",
            "--max-plies",
            "4000000000",
        ],
        vec![
            "arena",
            PYLOS,
            "--agents",
            "random,random",
            "--games",
            "1000000",
        ],
        vec![
            "arena",
            PYLOS,
            "--agents",
            "random,random",
            "--max-steps",
            "1000000",
        ],
        vec!["arena", PYLOS, "--agents", &many_agents],
        vec![
            "arena",
            PYLOS,
            "--agents",
            "alphabeta:memory=1000000,random",
        ],
        vec!["arena", PYLOS, "--agents", "mcts:steps=4000000000,random"],
        vec!["bench", PYLOS, "--max-plies", "1000000"],
        vec!["analyze", PYLOS, "--max-steps", "1000000"],
        vec!["solve", PYLOS, "--memory", "100000000"],
    ] {
        let o = run(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let first = stderr(&o).lines().next().unwrap_or_default().to_string();
        let _ = writeln!(
            shown,
            "{}\n  {first}",
            args.join(" ").replace(&many_agents, "random,... (33)")
        );
    }
    snap!("absurd_sizes", shown);
}

/// A device such as `/dev/zero` named as a file is refused before it is read (it is no
/// regular file); a huge standard input is refused after reading 16 MiB, not read until the
/// memory is full.
#[cfg(unix)]
#[test]
fn endless_files_are_refused() {
    for args in [
        vec!["check", "/dev/zero"],
        vec!["perft", "/dev/zero", "--depth", "1"],
        vec!["replay", "/dev/zero"],
    ] {
        let o = run(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).contains("cannot read `/dev/zero`: it is not a regular file"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let zeros = fs::File::open("/dev/zero").expect("/dev/zero");
    let o = cmd(&["fmt", "-"])
        .stdin(zeros)
        .output()
        .expect("run rulestone");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("more than 16 MiB"), "{}", stderr(&o));
}

#[test]
fn rolls_on_a_game_without_dice_exit_2() {
    let o = run(&["perft", PYLOS, "--depth", "1", "--rolls", "3"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no dice"), "{}", stderr(&o));
}

const TANKBALL: &str = "games/tankball.game";
const TANKBALL_SETUP: &str =
    "H@e6:E; H@e10:W; L@d6:NE; L@d10:SW; H@f6:E; H@f10:W; L@c6:NE; L@c10:SW";

#[test]
fn a_due_roll_lists_every_outcome() {
    let o = run(&["moves", TANKBALL, "--after", TANKBALL_SETUP]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 216);
    assert_eq!(lines[0], "roll 1 1 1");
    assert!(lines.contains(&"roll 3 5 2"));
}

#[test]
fn perft_takes_rolls_in_order() {
    let o = run(&[
        "perft",
        TANKBALL,
        "--depth",
        "1",
        "--after",
        TANKBALL_SETUP,
        "--rolls",
        "1 2 3",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let with_roll = last_line(&o);
    // The same position with the roll already played counts the same.
    let after = format!("{TANKBALL_SETUP}; roll 1 2 3");
    let o = run(&["perft", TANKBALL, "--depth", "1", "--after", &after]);
    assert_eq!(last_line(&o), with_roll);
}

#[test]
fn perft_takes_rolls_for_chance_points_in_a_row() {
    // EinStein würfelt nicht! starts with three chance points in a row (Black's arrangement,
    // White's, White's die): each takes the next roll given, none is counted as a ply.
    let einstein = "games/einstein.game";
    let o = run(&[
        "perft",
        einstein,
        "--depth",
        "2",
        "--rolls",
        "0 0 0 0 0; 5 4 3 2 1; 3; 6",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let from_start = last_line(&o);
    // games/einstein.perft, as OpenSpiel counts it.
    assert_eq!(from_start, "9");
    let after = "black 123456; white 654321";
    let o = run(&[
        "perft", einstein, "--depth", "2", "--after", after, "--rolls", "3; 6",
    ]);
    assert_eq!(last_line(&o), from_start);
    let o = run(&[
        "perft",
        einstein,
        "--depth",
        "2",
        "--max-nodes",
        "1000000",
        "--rolls",
        "0 0 0 0 0; 5 4 3 2 1; 3; 6",
    ]);
    assert_eq!(last_line(&o), from_start);
}

#[test]
fn play_rolls_the_dice_unless_asked_to_let_people_type_them() {
    let args = ["play", TANKBALL, "--seed", "3", "--after", TANKBALL_SETUP];
    // The program rolls; `undo` takes back the person's move, not the roll before it.
    let o = run_with_input(&args, "m4 c6>b5:NE\nundo\nquit\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("chance for White: roll 4 5 3"), "{out}");
    assert!(out.contains("took back m4 c6>b5:NE\n"), "{out}");
    assert_eq!(
        out.matches("chance for").count(),
        1,
        "no second roll: {out}"
    );
    snap!("play_rolls", transcript(&o));
    // With `--manual-chance`, the person types the roll.
    let mut manual = args.to_vec();
    manual.push("--manual-chance");
    let o = run_with_input(&manual, "roll 6 6 6\nquit\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("chance for"), "{out}");
    assert!(out.contains("the players type the rolls"), "{out}");
    assert!(out.contains("White> roll 6 6 6"), "{out}");
}

/// The JSON object a command printed with `--format json`.
fn json_of(args: &[&str]) -> serde_json::Value {
    let o = run(args);
    assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)))
}

#[test]
fn counting_commands_report_json_for_machines() {
    let moves = json_of(&[
        "moves",
        "games/tictactoe.game",
        "--after",
        "a1",
        "--format",
        "json",
    ]);
    assert_eq!(moves["game"], "Tic-tac-toe");
    assert_eq!(moves["after"], serde_json::json!(["a1"]));
    assert_eq!(moves["moves"].as_array().map(Vec::len), Some(8));
    assert!(moves["result"].is_null());

    let table = json_of(&["moves", "games/warstone.game", "--format", "json"]);
    assert!(
        table["moves"].as_array().is_some_and(|m| !m.is_empty()),
        "{table}"
    );

    let args = ["perft", "games/tictactoe.game", "--depth", "2"];
    let perft = json_of(&[&args[..], &["--divide", "--format", "json"]].concat());
    assert_eq!(perft["nodes"], 72);
    assert_eq!(perft["divide"].as_array().map(Vec::len), Some(9));
    assert_eq!(
        perft["divide"][0],
        serde_json::json!({ "move": "a1", "nodes": 8 })
    );
    let plain = json_of(&[&args[..], &["--format", "json"]].concat());
    assert!(plain["divide"].is_null());

    let args = [
        "playout",
        "games/connect4.game",
        "--games",
        "20",
        "--seed",
        "4",
    ];
    let playout = json_of(&[&args[..], &["--format", "json"]].concat());
    let wins = &playout["wins"];
    let total = wins["Red"].as_u64().unwrap_or(0)
        + wins["Yellow"].as_u64().unwrap_or(0)
        + playout["draws"].as_u64().unwrap_or(0)
        + playout["unfinished"].as_u64().unwrap_or(0);
    assert_eq!(total, 20, "{playout}");
    let text = stdout(&run(&args));
    assert!(
        text.contains(&format!("Red wins: {} ", wins["Red"])),
        "{text}"
    );

    let args = [
        "bench",
        "games/tictactoe.game",
        "--seconds",
        "0.3",
        "--format",
        "json",
    ];
    let bench = json_of(&args);
    assert_eq!(bench[0]["game"], "Tic-tac-toe", "{bench}");
    for part in ["perft", "playouts", "mcts"] {
        assert!(bench[0][part]["per_second"].as_f64().is_some(), "{bench}");
    }

    let args = [
        "match",
        "games/steinplatz.game",
        "--games",
        "2",
        "--format",
        "json",
    ];
    let scored = json_of(&args);
    assert_eq!(
        scored["games"].as_array().map(Vec::len),
        Some(2),
        "{scored}"
    );
    assert_eq!(scored["games"][1]["totals"], scored["totals"], "{scored}");

    let table = json_of(&[
        "playout",
        "games/warstone.game",
        "--games",
        "2",
        "--format",
        "json",
    ]);
    // One report for every kind of game: the table's figures beside the common ones.
    assert_eq!(table["games"], 2);
    assert_eq!(table["unfinished"], 0, "{table}");
    assert!(
        table["armies"].as_array().is_some_and(|a| !a.is_empty()),
        "{table}"
    );
}

#[test]
fn long_move_lists_are_filtered_and_grouped() {
    let after = format!("{TANKBALL_SETUP}; roll 4 5 3");
    let o = run(&["moves", TANKBALL, "--after", &after, "--group"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("moves_grouped", stdout(&o));
    let o = run(&[
        "moves", TANKBALL, "--after", &after, "--from", "M5  e6", "--group",
    ]);
    let groups = stdout(&o);
    assert!(groups.lines().all(|l| l.starts_with("m5 e6>")), "{groups}");
    assert!(groups.lines().count() > 6, "{groups}");

    // In play: many moves come in groups; a prefix narrows them down.
    let args = ["play", TANKBALL, "--manual-chance", "--after", &after];
    let o = run_with_input(&args, "moves\nmoves m4\nmoves m4 c6>b5\nmoves zz\nquit\n");
    let out = stdout(&o);
    assert!(
        out.contains("1123 moves in 4 groups; type `moves PREFIX`"),
        "{out}"
    );
    assert!(out.contains("405 moves in "), "{out}");
    assert!(out.contains("m4 c6>b5:NE"), "{out}");
    assert!(out.contains("no legal move starts with `zz`"), "{out}");
}

#[test]
fn running_out_of_rolls_exit_2() {
    let o = run(&["perft", TANKBALL, "--depth", "1", "--after", TANKBALL_SETUP]);
    assert_eq!(code(&o), 2);
    snap!("out_of_rolls", stderr(&o));
    let o = run(&[
        "perft",
        TANKBALL,
        "--depth",
        "1",
        "--after",
        TANKBALL_SETUP,
        "--rolls",
        "3 five 2",
    ]);
    assert_eq!(code(&o), 2);
    snap!("bad_rolls", stderr(&o));
    let o = run(&[
        "perft",
        TANKBALL,
        "--depth",
        "1",
        "--after",
        TANKBALL_SETUP,
        "--rolls",
        "3 7 2",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("not an outcome"), "{}", stderr(&o));
}

/// Stoneball's rammed piece's owner chooses where it goes (`pick ... by opponent`): `play` asks.
#[test]
fn play_asks_the_player_who_chooses() {
    let table = fs::read_to_string(root().join("games/stoneball.perft")).expect("perft table");
    let line = table
        .lines()
        .find(|l| l.contains("f4*d6/b7"))
        .expect("a line with the owner's choice");
    let history = line.split("after:").nth(1).expect("moves").trim();
    let before = history
        .split("; f4*d6/b7")
        .next()
        .expect("the moves before");
    let o = run_with_input(
        &["play", "games/stoneball.game", "--after", before],
        "f4*d6\nz9\nb7\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let asked: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("chooses") || l.contains("not one of"))
        .collect();
    snap!("play_asks_the_owner", asked.join("\n"));
}

// ---- check, explain, dump -------------------------------------------------------------------

#[test]
fn check_the_bundled_game() {
    let o = run(&["check", PYLOS]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(&["check", PYLOS, "--format", "json"]);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o).trim(), "[]");
}

#[test]
fn check_a_missing_file_exit_2() {
    let o = run(&["check", "games/no-such-game.game"]);
    assert_eq!(code(&o), 2);
    snap!("check_missing_file", stderr(&o));
}

/// A copy of Pylos with a misspelt name, written to `dir/broken.game`.
fn broken_game(dir: &Path) {
    let source = fs::read_to_string(root().join(PYLOS)).expect("read pylos");
    let broken = source.replace("per player = reserve", "per player = reserv");
    assert_ne!(source, broken);
    fs::write(dir.join("broken.game"), broken).expect("write broken game");
}

#[test]
fn check_a_failing_file() {
    let dir = scratch("check_failing");
    broken_game(&dir);
    let mut c = cmd(&["check", "broken.game"]);
    c.current_dir(&dir);
    let o = c.output().expect("run");
    assert_eq!(code(&o), 1);
    snap!("check_failing", transcript(&o));

    let mut c = cmd(&["check", "broken.game", "--format", "json"]);
    c.current_dir(&dir);
    let o = c.output().expect("run");
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("\"E0101\""), "{}", stdout(&o));

    // Game commands render the errors and exit 1 too.
    let mut c = cmd(&["moves", "broken.game"]);
    c.current_dir(&dir);
    let o = c.output().expect("run");
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("error[E0101]"), "{}", stderr(&o));
}

/// A file that is not a `.game` file, as `games/*` passes perft tables along, is said to be
/// one (E0006), not read as rules; the human report closes with the hint to `explain`.
#[test]
fn check_says_what_is_not_a_game_file() {
    let o = run(&["check", "games/tictactoe.game", "games/tictactoe.perft"]);
    assert_eq!(code(&o), 1);
    snap!("check_not_a_game_file", transcript(&o));

    // Other commands say the same of the file they are given.
    let o = run(&["moves", "games/tictactoe.perft"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("error[E0006]"), "{}", stderr(&o));

    // A game file by another name is read as one.
    let dir = scratch("not_a_game_file");
    let game = fs::read_to_string(root().join("games/tictactoe.game")).expect("read game");
    fs::write(dir.join("rules.txt"), game).expect("write");
    let mut c = cmd(&["check", "rules.txt"]);
    c.current_dir(&dir);
    let o = c.output().expect("run");
    assert_eq!(code(&o), 0, "{}", transcript(&o));
}

/// JSON diagnostics: one primary label each, start and end lines and columns, and no hint to
/// `explain` (that is for people reading the text).
#[test]
fn check_json_marks_the_primary_label_and_the_end() {
    let o = run(&[
        "check",
        "tests/ui/syntax/E0004-missing-brace-before-or.game",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 1);
    assert!(!stderr(&o).contains("rulestone explain"), "{}", stderr(&o));
    snap!("check_json_labels", stdout(&o));
}

#[test]
fn check_decks_against_a_table_game() {
    const GAME: &str = "games/warstone.game";
    const GOOD: &str = "tests/ui/deck/good.deck";
    const COPIES: &str = "tests/ui/deck/E0917-too-many-copies.deck";
    let o = run(&["check", GAME, "--deck", COPIES]);
    assert_eq!(code(&o), 1);
    snap!("check_deck_failing", transcript(&o));

    let o = run(&["check", GAME, "--deck", COPIES, "--format", "json"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("\"E0917\""), "{}", stdout(&o));
    assert!(stdout(&o).contains(COPIES), "{}", stdout(&o));

    let o = run(&["check", GAME, "--deck", GOOD]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("checked 2 files: 0 errors"),
        "{}",
        stderr(&o)
    );

    // Two deck files: the first army of each are the two players' armies.
    let shared = "tests/ui/deck/E0920-shared-faction.deck";
    let o = run(&["check", GAME, "--deck", GOOD, "--deck", shared]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("armies `Embers` and `Embers` share faction `Crimson`"),
        "{}",
        stderr(&o)
    );

    // A game without army rules, a missing deck file, too many game files: exit 2.
    let o = run(&["check", PYLOS, "--deck", GOOD]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("has no army rules"), "{}", stderr(&o));
    let o = run(&["check", GAME, "--deck", "tests/ui/deck/no-such.deck"]);
    assert_eq!(code(&o), 2);
    let o = run(&["check", GAME, PYLOS, "--deck", GOOD]);
    assert_eq!(code(&o), 2);
}

#[test]
fn explain_codes() {
    let o = run(&["explain", "e0101"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("# E0101"), "{}", stdout(&o));
    let o = run(&["explain", "E9999"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("E0101"), "{}", stderr(&o));
    let o = run(&["explain"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).lines().count() >= 10);
}

#[test]
fn dump_ir() {
    let o = run(&["dump", "ir", PYLOS]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("dump_ir", stdout(&o));
}

#[test]
fn dump_ast() {
    let o = run(&["dump", "ast", PYLOS]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("File {"));
    let o = run(&["dump", "ast", PYLOS, "--set", "base=3"]);
    assert_eq!(code(&o), 2);
}

// ---- boards, play, records, replay ----------------------------------------------------------

#[test]
fn board_after_a_few_moves() {
    // Light completes a square and takes a ball back; both sides then build on level 2, Dark
    // by raising a ball.
    let o = run(&[
        "replay",
        PYLOS,
        "--moves",
        "1a1; 1c1; 1a2; 1c2; 1b1; 1d4; 1b2 x1b2; 1b2; 2a1; 1d4-2b1",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("board_after_moves", stdout(&o));
}

/// Every drawing ends with a legend of what it shows (pieces, markers and their `legend` words,
/// per-cell counters), and cells are as wide as any position makes them: the field's columns and
/// labels stay put when the tanks' facings appear.
#[test]
fn drawings_end_with_a_legend_and_keep_their_columns() {
    let o = run(&[
        "replay",
        "games/tankball.game",
        "--moves",
        "H@e6:E; H@e10:W; L@d6:NE",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("board_legend_tankball", stdout(&o));
    let o = run(&["replay", "games/stoneball.game", "--moves", "c2-c3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("board_legend_stoneball", stdout(&o));
}

/// A `while` whose body chooses can outgrow a move's 23 decisions at run time (`check` cannot
/// know its rounds): the commands say that moves were left out instead of staying silent.
#[test]
fn moves_left_out_are_reported() {
    let dir = scratch("while_picks");
    let game = dir.join("walk.game");
    std::fs::write(
        &game,
        "game \"Walk\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..0\n    name \"c{x}\"\n}\n\
         piece stone \"X\" \"O\"\ncounter k = 0\non no moves { lose mover }\n\
         turn {\n    k = 0\n    while k < 30 {\n        pick d in cells\n        k += 1\n    }\n\
         \x20   pick e in empty\n    put stone at e\n}\n",
    )
    .expect("write the game");
    let path = game.to_string_lossy().into_owned();
    let o = run(&["check", &path]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for args in [vec!["moves", &path], vec!["perft", &path, "--depth", "1"]] {
        let o = run(&args);
        assert!(
            stderr(&o).contains("warning: some moves were left out: a move needed more than 23"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn board_with_other_options() {
    let o = run(&[
        "replay",
        PYLOS,
        "--set",
        "base=5",
        "--set",
        "reserve=3",
        "--moves",
        "1e5",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("board_base_5", stdout(&o));
}

#[test]
fn play_rejects_an_illegal_move_and_undoes() {
    let o = run_with_input(&["play", PYLOS], "1z9\n1b2\nundo\nquit\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("`1z9` is not a legal move"), "{out}");
    // The illegal move changed nothing: the legal one is the first move of the game.
    let after_move = out.split("Light> 1b2").nth(1).expect("the move was read");
    assert!(
        after_move.contains("Dark to move\nstock: Light 14, Dark 15"),
        "{out}"
    );
    let after_undo = out.split("took back 1b2").nth(1).expect("undo ran");
    assert!(
        after_undo.contains("Light to move\nstock: Light 15, Dark 15"),
        "{out}"
    );
    snap!("play_illegal_then_undo", out);
}

#[test]
fn play_ends_at_end_of_input() {
    let o = run_with_input(&["play", PYLOS, "--after", "1a1"], "moves\n");
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("Dark> moves\n1a2, 1a3"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn play_against_the_computer() {
    let o = run_with_input(
        &["play", PYLOS, "--vs", "random", "--seed", "1"],
        "1a1\n1d4\nundo\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("(computer) plays").count(), 2, "{out}");
    // Undo takes back the computer's answer and your move.
    assert!(out.contains("took back"), "{out}");
    snap!("play_vs_random", out);

    // The same seed gives the same game.
    let again = run_with_input(
        &["play", PYLOS, "--vs", "random", "--seed", "1"],
        "1a1\n1d4\nundo\nquit\n",
    );
    assert_eq!(stdout(&again), stdout(&o));
}

#[test]
fn play_to_the_end_against_the_computer() {
    // Base 2, one ball each: Light places, the computer answers, Light is stuck and loses.
    let o = run_with_input(
        &[
            "play",
            PYLOS,
            "--set",
            "base=2",
            "--set",
            "reserve=1",
            "--vs",
            "random",
            "--seed",
            "3",
        ],
        "1a1\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(computer) plays"), "{out}");
    assert!(
        out.trim_end()
            .ends_with("game over: Dark wins\nstock: Light 0, Dark 0"),
        "{out}"
    );
}

#[test]
fn play_records_the_finished_game() {
    let dir = scratch("finished");
    let path = dir.join("end.record");
    let o = run_with_input(
        &[
            "play",
            PYLOS,
            "--set",
            "base=2",
            "--set",
            "reserve=1",
            "--record",
            &path.display().to_string(),
        ],
        "1a1\n1a2\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = fs::read_to_string(&path).expect("record written");
    assert!(
        text.ends_with("move 1a1\nmove 1a2\nresult Dark wins\n"),
        "{text}"
    );
    let o = run(&["replay", &path.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("result: Dark wins\n"),
        "{}",
        stdout(&o)
    );
}

/// A record path that cannot be written is refused before the game starts, not after it.
#[test]
fn play_refuses_an_unwritable_record_before_playing() {
    let dir = scratch("unwritable");
    for path in [dir.join("no-such-folder/game.record"), dir.clone()] {
        let shown = path.display().to_string();
        let o = run_with_input(&["play", PYLOS, "--record", &shown], "1a1\n");
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write the record"),
            "{}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("nothing was played"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
}

/// A file the user keeps is never replaced by what a command writes: the game file itself,
/// or any other text, given to `--record`, `save`, `--html` or `draw -o` by a slip of the path
/// is refused and left as it was. A file of the command's own kind is replaced.
#[test]
fn outputs_never_replace_a_file_of_another_kind() {
    let dir = scratch("foreign-outputs");
    let game = dir.join("copy.game");
    let rules = fs::read_to_string(PYLOS).expect("the game");
    fs::write(&game, &rules).expect("a copy");
    let shown = game.display().to_string();
    let refusals = [
        run_with_input(&["play", &shown, "--record", &shown], "quit\n"),
        run(&["draw", &shown, "-o", &shown]),
        run(&["analyze", &shown, "--games", "1", "--html", &shown]),
    ];
    for o in &refusals {
        assert_eq!(code(o), 2, "{}", stderr(o));
        assert!(stderr(o).contains("exists and is not"), "{}", stderr(o));
    }
    let o = run_with_input(&["play", &shown], &format!("save {shown}\nquit\n"));
    assert!(
        stdout(&o).contains("exists and is not a game record"),
        "{}",
        stdout(&o)
    );
    assert_eq!(fs::read_to_string(&game).expect("kept"), rules);
    let picture = dir.join("board.svg").display().to_string();
    for _ in 0..2 {
        let o = run(&["draw", &shown, "-o", &picture]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
}

/// Ctrl-C during play writes the game so far to the record and ends with status 130.
#[cfg(unix)]
#[test]
fn play_interrupted_keeps_the_record() {
    let dir = scratch("interrupted");
    let path = dir.join("cut.record");
    let mut child = cmd(&["play", PYLOS, "--record", &path.display().to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"1a1\n1a2\n").expect("write moves");
    stdin.flush().expect("flush");
    // Wait until both moves are kept: the record appears only when play is interrupted, so
    // poll the transcript instead.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while !seen.contains("1a2") {
        let n = std::io::Read::read(&mut stdout, &mut buf).expect("read transcript");
        assert!(n > 0, "play ended early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pid = child.id().to_string();
    let killed = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let status = child.wait().expect("wait for play");
    drop(stdin);
    assert_eq!(status.code(), Some(130), "{status}");
    let text = fs::read_to_string(&path).expect("record written on Ctrl-C");
    assert!(text.ends_with("move 1a1\nmove 1a2\n"), "{text}");
}

#[test]
fn play_as_the_second_player() {
    let o = run_with_input(
        &[
            "play", PYLOS, "--vs", "random", "--as", "dark", "--seed", "5",
        ],
        "quit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Light (computer) plays"),
        "{}",
        stdout(&o)
    );
    let o = run(&["play", PYLOS, "--vs", "random", "--as", "Blue"]);
    assert_eq!(code(&o), 2);
    let o = run(&["play", PYLOS, "--as", "Dark"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn save_and_load_round_trip() {
    let dir = scratch("round_trip");
    let first = dir.join("first.record");
    let second = dir.join("second.record");
    let o = run_with_input(
        &["play", PYLOS, "--set", "reserve=9"],
        &format!("1a1\n1b1\n1a2\nsave {}\n", first.display()),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = fs::read_to_string(&first).expect("record written");
    snap!("record", redact_record(&text, &dir));

    // Load into a game with other options: the record brings its own, then play on.
    let o = run_with_input(
        &["play", PYLOS, "--set", "base=3"],
        &format!("load {}\n1b2\nsave {}\n", first.display(), second.display()),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("reserve=9"), "{}", stdout(&o));
    let reloaded = fs::read_to_string(&second).expect("second record written");
    assert_eq!(reloaded, format!("{text}move 1b2\n"));

    let o = run(&["replay", &second.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("replay_record", stdout(&o));
}

/// A record's text with its `game` line (relative to `dir`, so it depends on where the tests'
/// scratch directory is) checked to lead to Pylos and then replaced, and its hash replaced.
fn redact_record(text: &str, dir: &Path) -> String {
    text.lines()
        .map(|line| {
            if let Some(game) = line.strip_prefix("game ") {
                let found =
                    fs::canonicalize(dir.join(game)).expect("the game line leads to a file");
                assert_eq!(found, fs::canonicalize(root().join(PYLOS)).expect("pylos"));
                "game [relative path to games/pylos.game]\n".to_string()
            } else if line.starts_with("game-hash ") {
                "game-hash [hash]\n".to_string()
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

#[test]
fn records_say_when_their_game_file_changed() {
    let dir = scratch("changed_game");
    let game = dir.join("pylos.game");
    fs::copy(root().join(PYLOS), &game).expect("copy game");
    let record = dir.join("r.record");
    let o = run_with_input(
        &[
            "play",
            &game.display().to_string(),
            "--record",
            &record.display().to_string(),
        ],
        "1a1\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = fs::read_to_string(&record).expect("record written");
    assert!(
        text.contains("\ngame pylos.game\ngame-name Pylos\ngame-hash fnv1a64:"),
        "{text}"
    );
    let o = run(&["replay", &record.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let mut source = fs::read_to_string(&game).expect("read copy");
    source.push_str("\n// changed\n");
    fs::write(&game, source).expect("change the game");
    let o = run(&["replay", &record.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("changed since the record") && stderr(&o).contains("r.record"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn records_reach_the_game_from_their_own_directory() {
    let dir = scratch("relative_game");
    fs::copy(root().join(PYLOS), dir.join("pylos.game")).expect("copy game");
    let record = dir.join("r.record");
    fs::write(&record, "rulestone-record 1\ngame pylos.game\nmove 1a1\n").expect("write");
    let o = run(&["replay", &record.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn corrupt_records_exit_2() {
    let dir = scratch("corrupt");
    let cases = [
        ("empty", ""),
        ("not_a_record", "hello\n"),
        ("no_game", "rulestone-record 1\nmove 1a1\n"),
        (
            "bad_line",
            "rulestone-record 1\ngame games/pylos.game\nmov 1a1\n",
        ),
        (
            "bad_option",
            "rulestone-record 1\ngame games/pylos.game\noption base=99\n",
        ),
        (
            "illegal_move",
            "rulestone-record 1\ngame games/pylos.game\nmove 1a1\nmove 1a1\n",
        ),
        (
            "wrong_result",
            "rulestone-record 1\ngame games/pylos.game\nmove 1a1\nresult Dark wins\n",
        ),
        (
            "missing_game",
            "rulestone-record 1\ngame games/nothing.game\n",
        ),
    ];
    let mut all = String::new();
    for (name, text) in cases {
        let path = dir.join(format!("{name}.record"));
        fs::write(&path, text).expect("write record");
        let o = run(&["replay", &path.display().to_string()]);
        assert_eq!(code(&o), 2, "{name}: {}", stderr(&o));
        let err = stderr(&o).replace(&dir.display().to_string(), "[DIR]");
        let _ = writeln!(all, "{name}:\n{err}");
    }
    snap!("corrupt_records", all);

    // Inside `play`, a bad record leaves the game as it was.
    let bad = dir.join("illegal_move.record");
    let o = run_with_input(
        &["play", PYLOS],
        &format!("1c3\nload {}\nboard\n", bad.display()),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("the game goes on unchanged"), "{out}");
    let after = out.split("Dark> board").nth(1).expect("board drawn");
    assert!(after.contains("stock: Light 14, Dark 15"), "{out}");
}

#[test]
fn replay_reports_bad_moves() {
    let o = run(&["replay", PYLOS, "--moves", "1a1; 5z5"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("move 2 of `--moves`, `5z5`"),
        "{}",
        stderr(&o)
    );
}

/// `replay --format json`: every position with its legal moves and their action ids, the move
/// played from it (a legal one, with its id), and the result at the end.
#[test]
fn replay_as_json_lists_every_position() {
    let o = run(&[
        "replay",
        "games/tictactoe.game",
        "--moves",
        "b2; a1; c3; a2; b1; a3",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(v["moves"], 6);
    let positions = v["positions"].as_array().expect("positions");
    assert_eq!(positions.len(), 7, "the start, then one after each move");
    for (ply, p) in positions.iter().enumerate().take(6) {
        let legal = p["legal"].as_array().expect("legal");
        let ids = p["legal_actions"].as_array().expect("action ids");
        assert_eq!(legal.len(), 9 - ply);
        assert_eq!(ids.len(), legal.len());
        let k = legal
            .iter()
            .position(|m| *m == p["played"])
            .expect("a legal move was played");
        assert_eq!(ids[k], p["played_action"]);
    }
    assert_eq!(positions[0]["to_move"], "X");
    assert_eq!(positions[6]["legal"].as_array().map(Vec::len), Some(0));
    assert_eq!(positions[6]["to_move"], serde_json::Value::Null);
    assert_eq!(v["result"], "O wins");
}

// ---- playouts -------------------------------------------------------------------------------

/// The playout report without its timing line.
fn without_timing(report: &str) -> String {
    let mut out = String::new();
    for line in report.lines().filter(|l| !l.starts_with("speed:")) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[test]
fn playouts_are_deterministic() {
    let o = run(&["playout", PYLOS, "--games", "20", "--seed", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let report = without_timing(&stdout(&o));
    assert!(stdout(&o).contains("playouts/s"));
    let again = run(&["playout", PYLOS, "--games", "20", "--seed", "1"]);
    let again = without_timing(&stdout(&again));
    assert_eq!(report, again);
    snap!("playout_20_seed_1", report);
}

#[test]
fn playouts_stop_at_the_ply_limit() {
    let o = run(&[
        "playout",
        PYLOS,
        "--games",
        "5",
        "--seed",
        "2",
        "--max-plies",
        "3",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("unfinished: 5 (100.0%)"),
        "{}",
        stdout(&o)
    );
}

/// `new` writes a game that checks clean and is formatted, and never overwrites a file.
#[test]
fn new_writes_a_starting_game_and_overwrites_nothing() {
    let dir = std::env::temp_dir().join(format!("rulestone-new-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("three-stones.game");
    let _ = std::fs::remove_file(&path);
    let shown = path.to_str().expect("utf-8 temp path");
    let o = run(&["new", shown]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("rulestone check"), "{}", stdout(&o));
    let written = std::fs::read_to_string(&path).expect("written");
    assert!(written.contains("game \"three-stones\""), "{written}");
    let o = run(&["check", shown]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
    let o = run(&["fmt", "--check", shown]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let o = run(&["perft", shown, "--depth", "3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // A second time, the file is left as it was.
    std::fs::write(&path, "kept").expect("overwrite for the test");
    let o = run(&["new", shown]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), "kept");
    let o = run(&["new", "say \"hi\""]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_runs_briefly() {
    let o = run(&["bench", PYLOS, "--seconds", "0.2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("leaves/s") && out.contains("games/s"), "{out}");
}

/// A game that starts with a roll is measured without `--rolls` (perft over every roll's
/// outcomes), and `--set` chooses the variant measured.
#[test]
fn bench_needs_no_rolls_and_takes_options() {
    let o = run(&["bench", "games/einstein.game", "--seconds", "0.3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("every roll's outcomes"),
        "{}",
        stdout(&o)
    );
    let o = run(&[
        "bench",
        PYLOS,
        "--set",
        "variant=basic",
        "--seconds",
        "0.2",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(&["bench", "games/tictactoe.game", "--set", "size=4"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("declares no options"), "{}", stderr(&o));
}

#[test]
fn compile_writes_the_generated_module() {
    let dir = std::env::temp_dir().join(format!("rulestone-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let module = dir.join("games.rs");
    let o = run(&[
        "compile",
        "games/tictactoe.game",
        "--module",
        module.to_str().expect("utf-8 temp path"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&module).expect("module written");
    assert!(text.contains("pub static TURNS: [CompiledTurn; 1]"));
    // The engine lists moves with the walk on its position value; replay is per host.
    assert!(text.contains("generate: fast_generate::<p0::Turn>") && text.contains("pub fn apply"));
    // A crate to build: with rulestone's own lock file, so nothing is resolved afresh.
    let out = dir.join("crate");
    let o = run(&[
        "compile",
        "games/tictactoe.game",
        "--no-build",
        "--out",
        out.to_str().expect("utf-8 temp path"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let lock = std::fs::read_to_string(out.join("Cargo.lock")).expect("lock file copied");
    let ours = std::fs::read_to_string(root().join("Cargo.lock")).expect("our lock file");
    assert_eq!(lock, ours);
    // Without link-time optimisation unless asked: a rebuild compiles only the generated code.
    let manifest = |out: &std::path::Path| {
        std::fs::read_to_string(out.join("Cargo.toml")).expect("manifest written")
    };
    assert!(manifest(&out).contains("lto = false"), "{}", manifest(&out));
    let out_path = out.to_str().expect("utf-8 temp path");
    let o = run(&[
        "compile",
        "games/tictactoe.game",
        "--no-build",
        "--lto",
        "--out",
        out_path,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        manifest(&out).contains("lto = \"thin\""),
        "{}",
        manifest(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
    // A game with errors is reported like everywhere else, and nothing is written.
    let o = run(&[
        "compile",
        "tests/ui/resolve/E0101-unknown-function-and-axis.game",
        "--module",
        "x.rs",
    ]);
    assert_eq!(code(&o), 1);
}

/// `compile` writes only into a new or empty directory or one it made, and `--module` only a
/// new file or one it wrote: a user's files are never replaced.
#[test]
fn compile_never_overwrites_what_it_did_not_write() {
    let dir = std::env::temp_dir().join(format!("rulestone-compile-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mine = dir.join("project");
    std::fs::create_dir_all(mine.join("src")).expect("temp dir");
    std::fs::write(mine.join("Cargo.toml"), "[package]\nname = \"mine\"\n").expect("write");
    std::fs::write(mine.join("src/main.rs"), "fn main() {}\n").expect("write");
    let path = |p: &std::path::Path| p.to_str().expect("utf-8 temp path").to_string();
    let o = run(&[
        "compile",
        "games/tictactoe.game",
        "--no-build",
        "--out",
        &path(&mine),
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not empty and was not made by `rulestone compile`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("src/main.rs")).expect("still there"),
        "fn main() {}\n"
    );
    let module = mine.join("src/main.rs");
    let o = run(&[
        "compile",
        "games/tictactoe.game",
        "--module",
        &path(&module),
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not a module written by `rulestone compile`"),
        "{}",
        stderr(&o)
    );
    // An empty directory is taken, marked, and taken again by the next compile; two crates get
    // two package names, so that a shared target directory keeps their binaries apart.
    let ours = [dir.join("a"), dir.join("b")];
    for out in &ours {
        std::fs::create_dir_all(out).expect("temp dir");
        for _ in 0..2 {
            let o = run(&[
                "compile",
                "games/tictactoe.game",
                "--no-build",
                "--out",
                &path(out),
            ]);
            assert_eq!(code(&o), 0, "{}", stderr(&o));
        }
        assert!(out.join(".rulestone-compiled").is_file());
    }
    let package = |out: &std::path::Path| {
        let manifest = std::fs::read_to_string(out.join("Cargo.toml")).expect("manifest");
        manifest
            .lines()
            .find(|l| l.starts_with("name = "))
            .unwrap_or_default()
            .to_string()
    };
    assert_ne!(package(&ours[0]), package(&ours[1]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A byte-order mark and old Mac line endings (a lone carriage return) read like any file:
/// the game checks, and an error is reported on its own line.
#[test]
fn byte_order_marks_and_carriage_returns_read_as_usual() {
    let dir = scratch("line-endings");
    let text = fs::read_to_string(root().join("games/tictactoe.game")).expect("read");
    let bom = dir.join("bom.game");
    fs::write(&bom, format!("\u{FEFF}{text}")).expect("write");
    let o = run(&["check", &bom.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mac = dir.join("mac.game");
    fs::write(&mac, text.replace('\n', "\r")).expect("write");
    let o = run(&["check", &mac.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let line = text
        .lines()
        .position(|l| l.contains("put stone at c"))
        .expect("a put")
        + 1;
    let broken = dir.join("broken.game");
    fs::write(
        &broken,
        text.replace("put stone at c", "put stnoe at c")
            .replace('\n', "\r"),
    )
    .expect("write");
    let o = run(&["check", &broken.display().to_string(), "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("\"line\": {line},")),
        "line {line}: {}",
        stdout(&o)
    );
}

// ---- a table game: WarStone ----------------------------------------------------------------

const WARSTONE: &str = "games/warstone.game";

#[test]
fn warstone_moves_and_commands_that_do_not_apply() {
    let o = run(&["moves", WARSTONE, "--deal", "3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("warstone_moves_muster", transcript(&o));
    let after = "army Crimson_host; army Azure_tide";
    let o = run(&["moves", WARSTONE, "--deal", "3", "--after", after]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("warstone_moves", transcript(&o));
    let o = run(&["moves", WARSTONE, "--deal", "3", "--set", "mode=referee"]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).lines().all(|l| !l.contains('@')),
        "referee shots have no angle"
    );
    let o = run(&["perft", WARSTONE, "--depth", "1"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("is a table game"), "{}", stderr(&o));
    snap!("warstone_perft_does_not_apply", transcript(&o));
    let o = run(&["moves", WARSTONE, "--set", "friction=fast"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("parameter `friction` takes a number"));
    let o = run(&["moves", WARSTONE, "--after", "army Azure_tide; Nope"]);
    assert_eq!(code(&o), 2);
    snap!("warstone_bad_after", transcript(&o));
}

/// `tests/games/slide.game`, a table game without cards scoring by zones, written with no Rust
/// of its own: the commands that do not need a player run it.
#[test]
fn a_second_dexterity_game_runs_through_the_commands() {
    const SLIDE: &str = "tests/games/slide.game";
    let o = run(&["check", SLIDE]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(&["moves", SLIDE]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().collect::<Vec<_>>(),
        [
            "free BW1 0..359@0.0..32.0",
            "free BW2 0..359@0.0..32.0",
            "free BW3 0..359@0.0..32.0"
        ]
    );
    for policy in ["random", "aim"] {
        let o = run(&[
            "playout", SLIDE, "--games", "20", "--seed", "3", "--policy", policy,
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains("unfinished: 0 "), "{}", stdout(&o));
    }
    let o = run(&[
        "arena",
        SLIDE,
        "--agents",
        "random,random",
        "--games",
        "4",
        "--threads",
        "1",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run(&["replay", "tests/games/slide.record"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("slide_replay", transcript(&o));
}

#[test]
fn warstone_playout_reports_armies() {
    let o = run(&["playout", WARSTONE, "--games", "10", "--seed", "3"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("shots/s"), "{}", stdout(&o));
    snap!("warstone_playout", without_timing(&stdout(&o)));
    let o = run(&[
        "playout", WARSTONE, "--games", "10", "--seed", "3", "--policy", "aim",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("warstone_playout_aimed", without_timing(&stdout(&o)));
    // Armies from a deck file: West chooses between its two, never the one that would leave
    // East (Azure only) sharing a faction; a deck breaking the army rules is refused.
    let o = run(&[
        "playout",
        WARSTONE,
        "--games",
        "6",
        "--seed",
        "1",
        "--army",
        "tests/ui/deck/good.deck",
        "--army",
        "games/warstone.game:Azure_tide",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stdout(&o).contains("army Tides"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("army Embers: 6 matches"),
        "{}",
        stdout(&o)
    );
    // `replay --moves` runs on a table game as on a board game: each decision, what it did,
    // the table after it; a decision that is not open is refused with its place.
    let o = run(&[
        "replay",
        WARSTONE,
        "--moves",
        "army Crimson_host; army Azure_tide",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("2. West: army Azure_tide\n   West takes Azure_tide"),
        "{}",
        stdout(&o)
    );
    let o = run(&[
        "replay",
        WARSTONE,
        "--moves",
        "army Crimson_host; army Nowhere",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("move 2 of `--moves`, `army Nowhere`, is not a legal move"),
        "{}",
        stderr(&o)
    );
    let bad = "tests/ui/deck/E0916-too-few-cards.deck";
    let o = run(&["playout", WARSTONE, "--games", "1", "--army", bad]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("E0916"), "{}", stderr(&o));
    let o = run(&["bench", WARSTONE, "--seconds", "0.2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("shots/s"), "{}", stdout(&o));
}

/// A referee's whole match, typed: the armies are chosen, West is warned for a foul, and each
/// turn the mover declares the first shot open and the referee enters that it knocked an
/// opponent's stone out, until someone has 8 captures.
fn referee_script() -> String {
    use rulestone::runtime::table::{Choice, TableMatch};
    let source = fs::read_to_string(root().join(WARSTONE)).expect("read");
    let file = rulestone::syntax::parse(&source).expect("parse");
    let sets = vec![("mode".to_string(), "referee".to_string())];
    let (_, p) = rulestone::compile_table_parsed(&file, &sets).expect("a table game");
    let mut m = TableMatch::new(&p, [p.armies.clone(), p.armies.clone()], 5);
    let mut lines = Vec::new();
    let mut warned = false;
    while m.outcome().is_none() {
        if !warned && m.position.phase != rulestone::runtime::table::Phase::Muster {
            // The referee warns West once for a foul.
            lines.push("penalty foul West".to_string());
            let d = m.parse("penalty foul West").expect("penalty");
            m.apply(&d).expect("penalty");
            warned = true;
        }
        let choices = m.choices();
        let text = match choices.first() {
            Some(Choice::Result) => {
                let opponent = 1 - m.position.mover;
                let target = (0..m.position.stones.len()).find(|&i| {
                    let s = &m.position.stones[i];
                    s.owner == opponent && s.disc.on_table
                });
                match target {
                    Some(t) => format!("result capture {}", m.stone_name(t)),
                    None => "result none".to_string(),
                }
            }
            Some(c) => m.choice_text(c),
            None => "time".to_string(),
        };
        let d = m.parse(&text).expect("parse");
        m.apply(&d).expect("legal");
        lines.push(text);
    }
    lines.push("board".into());
    lines.join("\n") + "\n"
}

#[test]
fn warstone_referee_mode_runs_a_whole_match_and_replays() {
    let dir = scratch("warstone_referee");
    let record = dir.join("match.record");
    let record_arg = record.to_string_lossy().into_owned();
    let script = referee_script();
    let o = run_with_input(
        &[
            "play",
            WARSTONE,
            "--set",
            "mode=referee",
            "--deal",
            "5",
            "--record",
            &record_arg,
        ],
        &script,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("referee mode"), "{out}");
    assert!(out.contains("clock: 1:00 left"), "the clock is shown");
    assert!(out.contains("the match is over after"), "{out}");
    assert!(out.contains("warning to West"), "{out}");
    snap!(
        "warstone_referee_match",
        out.replace(&record_arg, "[DIR]/match.record")
    );
    let text = fs::read_to_string(&record).expect("the record");
    assert!(text.starts_with("rulestone-record 1\n"), "{text}");
    assert!(text.contains("\ndeal 5\n"), "{text}");
    let o = run(&["replay", &record_arg]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("result: East wins"), "{}", stdout(&o));
    // A record in the table games' format of old replays the same.
    let old: String = text
        .replace("rulestone-record 1", "rulestone-table-record 1")
        .lines()
        .filter(|l| !l.starts_with("game-"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&record, &old).expect("write");
    let o = run(&["replay", &record_arg]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("result: East wins"), "{}", stdout(&o));
    // A corrupt record is refused with its line.
    fs::write(&record, text.replace("move result", "move resalt")).expect("write");
    let o = run(&["replay", &record_arg]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(" line ") && stderr(&o).contains("is not a legal move"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn arena_round_robin() {
    let args = [
        "arena",
        "games/tictactoe.game",
        "--agents",
        "alphabeta:depth=9,random",
        "--games",
        "4",
        "--threads",
        "1",
    ];
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    snap!("arena_tictactoe", stdout(&o));

    // JSON, the same whatever the number of threads.
    let json = |threads: &str| {
        let mut a = args.to_vec();
        a.extend(["--format", "json"]);
        a[7] = threads;
        let o = run(&a);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v
    };
    let one = json("1");
    assert_eq!(one, json("2"));
    assert_eq!(one["pairings"][0]["losses"], 0, "{one}");
    assert!(one["elo"]["alphabeta:depth=9"].as_f64() > one["elo"]["random"].as_f64());
}

#[test]
fn arena_refuses_bad_agents() {
    let o = run(&["arena", PYLOS, "--agents", "mtcs,random"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("did you mean `mcts`"), "{}", stderr(&o));
    let o = run(&["arena", PYLOS, "--agents", "mcts:depth=2,random"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no setting `depth`"), "{}", stderr(&o));
    let o = run(&["arena", PYLOS, "--agents", "mcts"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("at least two"), "{}", stderr(&o));
    let o = run(&["play", PYLOS, "--vs", "alphabeta:depth=x"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("not a positive whole number"),
        "{}",
        stderr(&o)
    );
}

/// `play` is one loop for every kind of game: a table game and a board game each played
/// against the computer with `--record`, saved with `save`, replayed, and loaded into each
/// other's session with `load`.
#[test]
fn play_is_one_loop_for_table_and_board_games() {
    let dir = scratch("one_play_loop");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (sling_record, sling_saved) = (path("sling.record"), path("sling_saved.record"));
    let (ttt_record, ttt_saved) = (path("ttt.record"), path("ttt_saved.record"));
    let sling = "tests/games/sling.game";
    let o = run_with_input(
        &[
            "play",
            sling,
            "--vs",
            "random",
            "--seed",
            "2",
            "--deal",
            "4",
            "--record",
            &sling_record,
        ],
        &format!("help\nmoves\narmy Three\nstones\nsave {sling_saved}\nquit\n"),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("you play North, the computer plays South"),
        "{out}"
    );
    // The help lists the game's own views.
    assert!(out.contains("  stones       every stone"), "{out}");
    assert!(out.contains("South (computer) plays"), "{out}");
    assert!(out.contains("saved "), "{out}");
    let o = run_with_input(
        &[
            "play",
            "games/tictactoe.game",
            "--vs",
            "random",
            "--seed",
            "2",
            "--record",
            &ttt_record,
        ],
        &format!("help\nb2\nundo\nb2\nsave {ttt_saved}\nquit\n"),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("  stones"), "{out}");
    assert!(out.contains("took back"), "{out}");
    for (record, header) in [
        (&sling_record, "deal 4\narmy North "),
        (&sling_saved, "deal 4\narmy North "),
        (&ttt_record, "move b2\n"),
        (&ttt_saved, "move b2\n"),
    ] {
        let text = fs::read_to_string(record).expect("the record");
        assert!(text.starts_with("rulestone-record 1\n"), "{text}");
        assert!(text.contains(header), "{text}");
        let o = run(&["replay", record]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains("result: "), "{}", stdout(&o));
    }
    // `load` goes from a board game to a table game's record and back.
    let o = run_with_input(
        &["play", "games/tictactoe.game"],
        &format!("load {sling_record}\nstones\nload {ttt_record}\nboard\nquit\n"),
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("loaded `") && out.contains(": Sling ("),
        "{out}"
    );
    assert!(out.contains(": Tic-tac-toe ("), "{out}");
    assert!(!out.contains("goes on unchanged"), "{out}");
}

#[test]
fn arena_runs_table_games_too() {
    let o = run(&[
        "arena",
        "games/warstone.game",
        "--agents",
        "random,random",
        "--games",
        "2",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("WarStone"), "{}", stdout(&o));
}

/// A search given no budget thinks a fixed CPU time per decision, said in the intro and in
/// the account of its work.
#[test]
fn play_against_a_search_without_a_budget_thinks_a_cpu_second() {
    let o = run_with_input(
        &[
            "play",
            "games/tictactoe.game",
            "--vs",
            "mcts:c=1",
            "--as",
            "O",
            "--seed",
            "1",
        ],
        "quit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(mcts:cpu=1s:c=1, seed 1)"), "{out}");
    assert!(out.contains("s CPU)"), "{out}");
}

#[test]
fn play_against_mcts_with_a_hint() {
    let o = run_with_input(
        &[
            "play",
            "games/tictactoe.game",
            "--vs",
            "mcts:iterations=300",
            "--seed",
            "1",
        ],
        "hint\nb2\nquit\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("the computer plays O (mcts:iterations=300"),
        "{out}"
    );
    assert!(
        out.contains("hint (mcts:iterations=300: 300 iterations"),
        "{out}"
    );
    assert!(out.contains("visits)"), "{out}");
    assert!(out.contains("O (computer) plays"), "{out}");
    assert!(out.contains("expects"), "{out}");
}

/// Runs `args` and waits at most 20 s for the end: a command that blocks (reading a pipe with
/// no writer) is killed and fails the test instead of hanging it.
fn run_within_20s(args: &[&str]) -> Output {
    let mut child = cmd(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rulestone");
    for _ in 0..200 {
        if child.try_wait().expect("wait for rulestone").is_some() {
            return child.wait_with_output().expect("output of rulestone");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("`rulestone {}` still runs after 20 s", args.join(" "));
}

/// A named pipe given as a game, a record, a record's game, a deck or an army file is refused
/// with exit 2 before it is opened: opening it would wait for a writer forever.
#[cfg(unix)]
#[test]
fn named_pipes_are_refused_not_waited_on() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe.game");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo");
    let pipe = fifo.display().to_string();
    let record = dir.join("game_is_a_pipe.rec");
    fs::write(&record, format!("rulestone-record 1\ngame {pipe}\n")).expect("write record");
    let record = record.display().to_string();
    let army = format!("{pipe}:X");
    let cases: [Vec<&str>; 6] = [
        vec!["check", &pipe],
        vec!["moves", &pipe],
        vec!["replay", &pipe],
        vec!["replay", &record],
        vec!["check", WARSTONE, "--deck", &pipe],
        vec!["moves", WARSTONE, "--army", &army],
    ];
    for args in cases {
        let o = run_within_20s(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("cannot read `{pipe}`: it is not a regular file")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // In `play`, `load` of a pipe is refused and play goes on.
    let o = run_with_input(
        &["play", "games/tictactoe.game"],
        &format!("load {pipe}\nquit\n"),
    );
    assert!(
        stderr(&o).contains("it is not a regular file")
            || stdout(&o).contains("it is not a regular file"),
        "{}",
        transcript(&o)
    );
}

/// Control characters and bidirectional overrides in a game file, a record or a typed move
/// never reach the terminal raw: messages escape them (`\u{1b}`), and the source line a
/// diagnostic draws shows each as one visible character, the columns still right.
#[test]
fn control_characters_are_shown_not_sent() {
    let dir = scratch("control");
    let game = dir.join("esc.game");
    fs::write(&game, "game \"T\"\nplayers X\u{1b}[31m, O\u{7}\n").expect("write game");
    let record = dir.join("esc.rec");
    let tictactoe = root().join("games/tictactoe.game").display().to_string();
    fs::write(
        &record,
        format!("rulestone-record 1\ngame {tictactoe}\nmove a1\u{1b}]0;TITLE\u{7}\u{202e}\n"),
    )
    .expect("write record");
    let o = run(&["check", &game.display().to_string()]);
    let check = transcript(&o).replace(&dir.display().to_string(), "DIR");
    let mut replay = cmd(&["replay", "esc.rec"]);
    let o = replay.current_dir(&dir).output().expect("run rulestone");
    let replay = transcript(&o).replace(&tictactoe, "GAME");
    for out in [&check, &replay] {
        assert!(!out.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{out:?}");
    }
    assert!(
        replay.contains("`a1\\u{1b}]0;TITLE\\u{7}\\u{202e}`"),
        "{replay}"
    );
    snap!("control_characters", format!("{check}\n{replay}"));
}
