//! End-to-end tests of `rulestone analyze`: the JSON fields, the same report whatever the
//! thread count, the HTML page, the terminal table, and refused input. Small counts and cheap
//! agents keep each run well under a second.
//!
//! Snapshots live in `snapshots/analyze/`. Update them with
//! `INSTA_UPDATE=always cargo test --test analyze`, then read `git diff snapshots/`.

use std::fs;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

const CONNECT4: &str = "games/connect4.game";
const TICTACTOE: &str = "games/tictactoe.game";
const CHEAP: &str = "mcts:iterations=10";

mod common;
use common::cli::{code, stderr, stdout, transcript};

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::cli::scratch("analyze", name)
}

/// `rulestone analyze ARGS`, from the crate root, with no colour.
fn analyze(args: &[&str]) -> Output {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    common::cli::run(&all)
}

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "../snapshots/analyze",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// The JSON report of a successful run.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let o = analyze(&all);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("valid JSON")
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn whole(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// A rate lies in its interval, and both in 0..=1.
fn check_rate(v: &Value) {
    let (rate, low, high) = (number(&v["rate"]), number(&v["low"]), number(&v["high"]));
    assert!(
        (0.0..=1.0).contains(&low) && low <= rate && rate <= high && high <= 1.0,
        "{v}"
    );
}

/// One kind of play's statistics: counts add up, rates hold, histograms count every game.
fn check_play(play: &Value, games: u64) {
    assert_eq!(whole(&play["games"]), games, "{play}");
    let ends = ["first_wins", "second_wins", "draws", "step_limit"];
    let total: u64 = ends.iter().map(|e| whole(&play[e]["count"])).sum();
    assert_eq!(total, games, "{play}");
    for e in ends {
        check_rate(&play[e]);
    }
    let length = &play["length"];
    let counts = length["histogram"]["counts"].as_array().expect("counts");
    assert_eq!(counts.iter().map(whole).sum::<u64>(), games);
    assert!(whole(&length["histogram"]["bin_width"]) >= 1);
    let (min, max) = (number(&length["min"]), number(&length["max"]));
    for field in ["mean", "median"] {
        let x = number(&length[field]);
        assert!(min <= x && x <= max, "{field}: {length}");
    }
    assert!(number(&play["branching"]["mean"]) > 0.0);
    let shares: f64 = play["openings"]
        .as_array()
        .expect("openings")
        .iter()
        .map(|o| number(&o["share"]))
        .sum();
    assert!(shares > 0.0 && shares <= 1.0 + 1e-9, "{shares}");
}

#[test]
fn json_holds_every_documented_field() {
    let report = json(&[
        CONNECT4,
        "--set",
        "width=4,5",
        "--set",
        "height=4",
        "--games",
        "4",
        "--agent",
        CHEAP,
    ]);
    assert_eq!(report["game"], "Connect Four");
    assert_eq!(report["agent"], CHEAP);
    assert_eq!(report["stronger"], "mcts:iterations=40");
    assert_eq!(report["games"], 4);
    assert_eq!(report["seed"], 0);
    assert_eq!(report["max_steps"], 1000);
    assert_eq!(report["players"][0], "Red");
    assert_eq!(report["grid"][0]["option"], "width");
    assert_eq!(report["grid"][0]["values"][1], "5");
    let variants = report["variants"].as_array().expect("variants");
    assert_eq!(variants.len(), 2);
    for (v, width) in variants.iter().zip([4.0, 5.0]) {
        assert_eq!(v["label"], format!("width={width}"));
        assert_eq!(v["options"]["height"], "4");
        for play in ["random", "self_play"] {
            check_play(&v[play], 4);
            // The first turn of Connect Four lists one drop per column.
            let first = &v[play]["branching"]["by_ply"][0];
            assert_eq!(whole(&first["ply"]), 1);
            assert_eq!(number(&first["mean"]), width);
        }
        let skill = &v["skill"];
        let results: u64 = ["wins", "draws", "losses", "step_limit"]
            .iter()
            .map(|f| whole(&skill[f]))
            .sum();
        assert_eq!(results, 4);
        check_rate(&skill["score"]);
    }
}

#[test]
fn same_seed_same_report_whatever_the_threads() {
    for game in [
        vec![TICTACTOE],
        vec![CONNECT4, "--set", "width=4,5", "--set", "height=4"],
    ] {
        let run = |threads: &str| {
            let mut args = game.clone();
            args.extend([
                "--games",
                "6",
                "--agent",
                CHEAP,
                "--seed",
                "3",
                "--format",
                "json",
                "--threads",
                threads,
            ]);
            let o = analyze(&args);
            assert_eq!(code(&o), 0, "{}", stderr(&o));
            stdout(&o)
        };
        let one = run("1");
        assert_eq!(one, run("2"), "{game:?}");
        assert_eq!(one, run("3"), "{game:?}");
    }
}

#[test]
fn a_variant_does_not_depend_on_the_rest_of_the_grid() {
    let args = |widths: &str| {
        json(&[
            CONNECT4, "--set", widths, "--set", "height=4", "--games", "4", "--agent", CHEAP,
        ])
    };
    let alone = args("width=5");
    let in_grid = args("width=4,5");
    assert_eq!(
        alone["variants"][0]["random"],
        in_grid["variants"][1]["random"]
    );
    assert_eq!(
        alone["variants"][0]["skill"],
        in_grid["variants"][1]["skill"]
    );
}

#[test]
fn html_report_is_one_self_contained_page() {
    let dir = scratch("html");
    let page = dir.join("report.html");
    let page_arg = page.to_string_lossy().into_owned();
    let o = analyze(&[
        CONNECT4,
        "--set",
        "width=4,5",
        "--set",
        "height=4",
        "--games",
        "4",
        "--agent",
        CHEAP,
        "--html",
        &page_arg,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html = fs::read_to_string(&page).expect("the page was written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    // Win rates, skill gradient, game length, branching by ply.
    assert_eq!(html.matches("<svg").count(), 4, "one <svg> per plot");
    assert_eq!(html.matches("</svg>").count(), 4);
    assert!(!html.contains("http"), "no addresses");
    assert!(!html.contains("<script"), "no scripts");
    assert!(!html.contains("<link"), "no external style");
    for label in [
        "width=4",
        "width=5",
        "Win rates",
        "Skill gradient",
        "Game length",
    ] {
        assert!(html.contains(label), "{label}");
    }
    // The table on standard output is there too.
    assert!(stdout(&o).contains("self-play"));
}

#[test]
fn terminal_table() {
    let o = analyze(&[
        TICTACTOE,
        "--games",
        "6",
        "--agent",
        CHEAP,
        "--stronger",
        "mcts:iterations=40",
        "--seed",
        "1",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).lines().all(|l| l.chars().count() <= 100));
    snap!("tictactoe_table", transcript(&o));
}

/// When games are stopped by the step limit, the verdict says so, in the terminal and on the
/// page, and the plots show those games as their own bar and mark.
#[test]
fn games_stopped_by_the_limit_are_their_own_verdict() {
    let page = scratch("limit").join("report.html");
    let _ = std::fs::remove_file(&page);
    let page_arg = page.display().to_string();
    let o = analyze(&[
        TICTACTOE,
        "--games",
        "4",
        "--agent",
        CHEAP,
        "--max-steps",
        "2",
        "--html",
        &page_arg,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
    assert!(
        out.contains("warning: 4 of 4 random games, 4 of 4 self-play games and 4 of 4 skill games"),
        "{out}"
    );
    let html = std::fs::read_to_string(&page).expect("the page was written");
    assert!(html.contains("<p class=\"warning\">Warning: 4 of 4 random games"));
    assert!(
        html.contains("\nstopped by the limit\n"),
        "the win-rate legend"
    );
    assert!(
        html.contains("\ngames stopped by the step limit\n"),
        "the skill legend"
    );
}

#[test]
fn wide_grids_fit_100_columns() {
    let o = analyze(&[
        CONNECT4,
        "--set",
        "width=4,5",
        "--set",
        "height=4,5",
        "--games",
        "2",
        "--agent",
        CHEAP,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("width=5 height=5"), "{out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 100, "{line}");
    }
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let html = scratch("bad").join("missing-dir").join("report.html");
    let html = html.to_string_lossy().into_owned();
    let cases: [&[&str]; 8] = [
        &[CONNECT4, "--set", "width=3"],
        &[CONNECT4, "--set", "nosuch=1"],
        &[CONNECT4, "--agent", "mtcs"],
        &[CONNECT4, "--stronger", "mcts:depth=3"],
        &[CONNECT4, "--set", "width=4,,5"],
        &[CONNECT4, "--set", "width=4", "--set", "width=5"],
        &[
            CONNECT4,
            "--set",
            "width=4,5,6,7,8,9,4,5,6",
            "--set",
            "height=4,5,6,7,8,4,5,6",
        ],
        &[CONNECT4, "--games", "2", "--html", &html],
    ];
    let mut all = String::new();
    for args in cases {
        let o = analyze(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
        all.push_str(&format!("$ analyze {}\n{}\n", args.join(" "), stderr(&o)));
    }
    let all = all.replace(&*html, "SCRATCH/missing-dir/report.html");
    assert!(all.contains("E0304") && all.contains("E0303"), "{all}");
    assert!(all.contains("did you mean `mcts`"), "{all}");
    assert!(all.contains("at most 64"), "{all}");
    snap!("bad_input", all);
}

#[test]
fn a_table_game_is_analyzed_like_a_board_game() {
    let args = [
        "games/warstone.game",
        "--games",
        "2",
        "--agent",
        "random",
        "--stronger",
        "random",
        "--format",
        "json",
    ];
    let o = analyze(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(report["variants"].as_array().map(Vec::len), Some(1));
    let random = &report["variants"][0]["random"];
    assert_eq!(random["games"], 2, "{report}");
    let mut threads = args.to_vec();
    threads.extend(["--threads", "1"]);
    assert_eq!(
        stdout(&analyze(&threads)),
        stdout(&o),
        "the same report on one thread"
    );
}

#[test]
fn counts_out_of_range_are_usage_errors() {
    for args in [
        [TICTACTOE, "--games", "0"],
        [TICTACTOE, "--max-steps", "0"],
        [TICTACTOE, "--format", "xml"],
    ] {
        let o = analyze(&args);
        assert_eq!(code(&o), 2, "{args:?}");
    }
}

#[test]
fn help_text() {
    let o = analyze(&["--help"]);
    assert_eq!(code(&o), 0);
    snap!("help_analyze", stdout(&o));
}
