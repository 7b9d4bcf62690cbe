//! `rulestone draw`: the SVG of every bundled board game's start and of a position six seeded
//! random moves in are snapshotted in `snapshots/draw/`, so a change to the layout shows up as
//! a reviewable diff; a PNG is rendered and read back; the command's errors are checked.

mod common;

use std::process::Command;

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::Engine;

/// The width of the snapshotted pictures.
const WIDTH: u32 = 480;

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "../snapshots/draw",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

/// The picture after up to `plies` seeded random moves from the start, with the last marked.
fn picture(program: &rulestone::ir::Program, plies: usize, seed: u64) -> String {
    let mut engine = Engine::new(program);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut before = None;
    let mut last = None;
    for _ in 0..plies {
        if engine.outcome().is_some() {
            break;
        }
        engine.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        before = Some((engine.state.board.clone(), engine.state.counters.clone()));
        last = Some(engine.move_text(&m));
        let _ = engine.apply(&m);
    }
    let before = before.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()));
    let view = rulestone_draw::View::of(&mut engine, before, last);
    rulestone_draw::svg(&view, WIDTH)
}

#[test]
fn every_board_game_start_and_midgame() {
    let games = common::board_games();
    let mut stems = Vec::new();
    for path in games {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("file name")
            .to_string();
        assert!(!stems.contains(&stem), "two games named {stem}");
        let program = common::program(&path, &[]);
        snapshot(&format!("{stem}.start"), &picture(&program, 0, 0));
        snapshot(&format!("{stem}.mid"), &picture(&program, 6, 7));
        stems.push(stem);
    }
}

#[test]
fn png_decodes_at_the_asked_width_and_is_not_blank() {
    let program = common::program(&common::root().join("games/chess.game"), &[]);
    let svg = picture(&program, 2, 1);
    let png = rulestone_draw::png(&svg).expect("renders");
    let pixmap = rulestone_draw::tiny_skia::Pixmap::decode_png(&png).expect("decodes");
    assert_eq!(pixmap.width(), WIDTH);
    assert!(pixmap.height() > 100);
    let pixels = pixmap.pixels();
    let first = pixels[0];
    let differing = pixels.iter().filter(|p| **p != first).count();
    assert!(
        differing > pixels.len() / 10,
        "only {differing} pixels differ"
    );
}

#[test]
fn png_is_the_same_every_time() {
    let program = common::program(&common::root().join("games/hex.game"), &[]);
    let svg = picture(&program, 3, 2);
    let a = rulestone_draw::png(&svg).expect("renders");
    let b = rulestone_draw::png(&svg).expect("renders");
    assert_eq!(a, b);
}

fn rulestone(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulestone"))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_writes_svg_and_marks_the_last_move() {
    let (code, out, err) = rulestone(&["draw", "games/tictactoe.game", "--after", "a1; b2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg"), "{out}");
    assert!(out.contains("last move: b2"), "{out}");
}

/// A table game's table: every stone by its name, and the last shot's path.
#[test]
fn cli_draws_a_table_game_and_its_last_shot() {
    let (code, out, err) = rulestone(&["draw", "games/warstone.game"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("<svg") && !out.contains("class=\"path\""),
        "{out}"
    );
    let after = "army Crimson_host; army Azure_tide";
    let (code, out, err) = rulestone(&["draw", "games/warstone.game", "--after", after]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("data-stone=\"WM\""), "{out}");
    snapshot("warstone.start", &out);
    let shot = format!("{after}; Flare EC1 180@30.0");
    let (code, out, err) = rulestone(&["draw", "games/warstone.game", "--after", &shot]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("class=\"path\"").count(), 1, "{out}");
    snapshot("warstone.mid", &out);
    let (code, again, err) = rulestone(&["draw", "games/warstone.game", "--after", &shot]);
    assert_eq!(
        (code, &again),
        (0, &out),
        "{err}: the same picture every time"
    );
    let png = std::env::temp_dir().join(format!("rulestone-table-{}.png", std::process::id()));
    let path = png.display().to_string();
    let (code, _, err) = rulestone(&["draw", "games/warstone.game", "--after", &shot, "-o", &path]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png).unwrap_or_default();
    let _ = std::fs::remove_file(&png);
    assert!(bytes.starts_with(b"\x89PNG"), "a PNG");
}

#[test]
fn cli_refuses_bad_input_clearly() {
    let (code, _, err) = rulestone(&["draw", "games/warstone.game", "--after", "nonsense"]);
    assert_eq!(code, 2);
    assert!(err.contains("decision 1 of `--after`"), "{err}");
    let (code, _, err) = rulestone(&["draw", "games/tictactoe.game", "-o", "games"]);
    assert_eq!(code, 2);
    assert!(err.contains("is a directory"), "{err}");
    let (code, _, err) = rulestone(&["draw", "games/tictactoe.game", "--after", "z9"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a legal move"), "{err}");
    let (code, _, err) = rulestone(&["draw", "games/tictactoe.game", "--size", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("out of range"), "{err}");
    let (code, _, err) = rulestone(&[
        "draw",
        "games/tictactoe.game",
        "-o",
        "/nonexistent-dir/x.svg",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot write"), "{err}");
}

#[test]
fn help_teaches_with_examples() {
    let (code, out, err) = rulestone(&["draw", "--help"]);
    assert_eq!(code, 0, "{err}");
    snapshot("help_draw", &out);
}
