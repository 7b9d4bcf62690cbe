//! The IR's text form (`rulestone dump ir`, `rulestone::ir::dump::dump`) reads back with
//! `rulestone::ir::parse::parse`: for every bundled and test board game in each combination of
//! its enum options, the parsed program dumps to the same text, is the same program (the same
//! fingerprint, which hashes every field) and counts the same perft; malformed texts are errors
//! naming their line.

mod common;

use rulestone::ir::dump::dump;
use rulestone::ir::parse::{parse, IrParseError};
use rulestone::ir::Program;
use rulestone::runtime::compiled::fingerprint;
use rulestone::runtime::perft::perft;
use rulestone::runtime::Engine;

/// Every board game (`games/`, `tests/games/`) in each of its enum variants, with a label.
fn programs() -> Vec<(String, Program)> {
    common::variants(&common::board_games())
}

#[test]
fn every_game_round_trips_through_text() {
    let programs = programs();
    assert!(programs.len() > 10, "too few programs: {}", programs.len());
    for (label, program) in &programs {
        let text = dump(program);
        let parsed = parse(&text).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(dump(&parsed), text, "{label}: the text changed");
        assert_eq!(
            fingerprint(&parsed),
            fingerprint(program),
            "{label}: the parsed program differs"
        );
        let want = perft(&mut Engine::new(program), 2);
        let got = perft(&mut Engine::new(&parsed), 2);
        assert_eq!(got, want, "{label}: perft 2");
    }
}

/// The text of a small game, for the malformed inputs below.
fn tictactoe() -> String {
    dump(&common::program(
        &common::root().join("games/tictactoe.game"),
        &[],
    ))
}

fn error(text: &str) -> IrParseError {
    match parse(text) {
        Ok(_) => panic!("parsed:\n{text}"),
        Err(e) => e,
    }
}

/// The 1-based number of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no line with `{needle}`"))
}

#[test]
fn a_truncated_text_is_an_error_at_its_end() {
    let text = tictactoe();
    let lines: Vec<&str> = text.lines().collect();
    // Cut after every line but the last (`end`): each prefix is an error, none panics.
    for n in 0..lines.len() {
        let cut = lines[..n].join("\n");
        let e = error(&cut);
        assert!(e.line >= 1 && e.line <= n + 1, "{n} lines: {e}");
    }
    let cut = lines[..lines.len() - 1].join("\n");
    let e = error(&cut);
    assert_eq!(e.line, cut.lines().count() + 1, "the line past the text");
    assert!(e.message.contains("`end`"), "{e}");
    // Cut in the middle of a line.
    let at = text.find("completes(pattern#2").expect("a `completes`") + 12;
    let e = error(&text[..at]);
    assert_eq!(e.line, line_of(&text, "completes(pattern#2"));
    assert!(e.message.starts_with("expected"), "{e}");
}

#[test]
fn an_unknown_op_names_its_line() {
    let text = tictactoe().replace("  put code 1+mover at v0", "  teleport v0");
    let e = error(&text);
    assert_eq!(e.line, line_of(&text, "teleport"));
    assert!(e.message.contains("expected an op"), "{e}");
    assert!(e.message.contains("`teleport v0`"), "{e}");
}

#[test]
fn a_bad_cell_name_names_its_line() {
    let text = tictactoe().replace("a1 -> {b1}", "a1 -> {z9}");
    let e = error(&text);
    assert_eq!(e.line, line_of(&text, "{z9}"));
    assert_eq!(e.message, "unknown cell `z9`");
    assert_eq!(e.to_string(), format!("line {}: unknown cell `z9`", e.line));
}

#[test]
fn references_to_missing_entries_are_errors() {
    let text = tictactoe();
    for (from, to, message) in [
        (
            "b2 = b0 or b1",
            "b2 = b0 or b99",
            "there is no `b99` (there are 7 conditions)",
        ),
        (
            "pick v0 in s0",
            "pick v0 in s40",
            "there is no `s40` (there are 5 sets)",
        ),
        (
            "unless b6 goto 5",
            "unless b6 goto 50",
            "jump target 50 is outside `turn`",
        ),
        (
            "pick v0 in s0",
            "pick v99 in s0",
            "there is no `v99` (there are 16 turn variables)",
        ),
        (
            "completes(pattern#3",
            "completes(pattern#7",
            "there is no `pattern#7` (there are 4 patterns)",
        ),
        ("write t0 = v0", "write t3", "template t3 is never defined"),
        (
            "    2  write t0 = v0",
            "    2  write t0 = v0 ~",
            "expected a template part",
        ),
        (
            "    5  done",
            "    5  draw",
            "expected `done` as the last op of `turn`",
        ),
        ("  s0 = empty", "  s1 = empty", "expected `s0`, found `s1`"),
        (
            "pattern #1 column (9",
            "pattern #1 column (8",
            "expected 8 entries",
        ),
        ("players X, O", "players X, O,", "expected a player's name"),
        ("game \"Tic-tac-toe\"", "game \"Tic-tac-toe", "closing `\"`"),
    ] {
        assert!(text.contains(from), "no `{from}` in the text");
        let bad = text.replacen(from, to, 1);
        let e = error(&bad);
        assert!(
            e.message.contains(message),
            "`{to}`: expected a message with `{message}`, got {e}"
        );
        let changed = bad
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        if !message.starts_with("expected 8") {
            assert_eq!(e.line, changed, "`{to}`: {e}");
        }
    }
}

#[test]
fn text_after_end_and_garbage_are_errors() {
    let e = error(&format!("{}more\n", tictactoe()));
    assert_eq!(e.message, "expected nothing after `end`");
    for garbage in [
        "",
        "\n\n",
        "nonsense",
        "game",
        "game \"x\"\nplayers",
        "\u{0}\u{1}",
    ] {
        let _ = error(garbage);
    }
}

#[test]
fn an_edited_text_is_the_edited_program() {
    // Tic-tac-toe without its diagonals: remove the `or` that adds the diagonal patterns.
    let text = tictactoe();
    let edited = text
        .replace("b4 = b2 or b3", "b4 = b2 or b1")
        .replace("b6 = b4 or b5", "b6 = b4 or b4");
    let program = parse(&edited).expect("the edited text parses");
    assert_eq!(dump(&program), edited);
    let original = parse(&text).expect("the text parses");
    // The same number of moves two plies deep (no game ends that early) ...
    assert_eq!(
        perft(&mut Engine::new(&program), 2),
        perft(&mut Engine::new(&original), 2)
    );
    // ... but no win on a diagonal.
    let mut engine = Engine::new(&program);
    common::play_moves(
        &mut engine,
        &["a1", "a2", "b2", "a3", "c3"].map(String::from),
    );
    assert!(engine.outcome().is_none(), "a diagonal still wins");
}

/// Texts cut, with a line dropped, doubled or swapped with the next, or with one character
/// changed: each parses or is an error, never a panic (`every_game_round_trips_through_text`
/// shows the intact texts parse).
#[test]
fn damaged_texts_never_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let budget: usize = std::env::var("IR_TEXT_DAMAGE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for (label, program) in programs() {
        let text = dump(&program);
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..budget {
            let i = rng.gen_range(0..lines.len());
            let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            match rng.gen_range(0..5) {
                0 => damaged.truncate(i),
                1 => {
                    damaged.remove(i);
                }
                2 => damaged.insert(i, lines[i].to_string()),
                3 => damaged.swap(i, (i + 1).min(lines.len() - 1)),
                _ => {
                    let line: Vec<char> = lines[i].chars().collect();
                    if !line.is_empty() {
                        let at = rng.gen_range(0..line.len());
                        let with = ['0', '9', 'x', ' ', '#', '"', '{', '-', '\\', 'é'];
                        let mut line = line;
                        line[at] = with[rng.gen_range(0..with.len())];
                        damaged[i] = line.into_iter().collect();
                    }
                }
            }
            let damaged = damaged.join("\n");
            let result = std::panic::catch_unwind(|| parse(&damaged).map(|p| dump(&p)));
            match result {
                Err(_) => panic!("{label}: the parser panicked on\n{damaged}"),
                Ok(Ok(again)) => {
                    // What parses dumps back to a text that parses to the same.
                    let back = parse(&again).unwrap_or_else(|e| panic!("{label}: {e}"));
                    assert_eq!(dump(&back), again, "{label}");
                }
                Ok(Err(e)) => assert!(e.line >= 1, "{label}: {e}"),
            }
        }
    }
}
