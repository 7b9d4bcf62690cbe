//! `games/steinplatz.game` against an independent Steinplatz move generator written in plain
//! Rust from the rules text (`tests/steinplatz/oracle.rs`): the same moves, spelled the same, in
//! constructed positions that exercise each placement rule and along random games; the same
//! perft counts; the same scores at the end.

#[path = "steinplatz/oracle.rs"]
mod oracle;

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, Move};

fn program() -> rulestone::ir::Program {
    common::program(&common::root().join("games/steinplatz.game"), &[])
}

fn moves_of(engine: &mut Engine<'_>) -> Vec<String> {
    let mut list = Vec::new();
    engine.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|m| engine.move_text(m)).collect();
    texts.sort();
    texts
}

/// The oracle's position after the moves.
fn oracle_after(moves: &[&str]) -> oracle::Position {
    let mut pos = oracle::Position::start();
    for m in moves {
        pos.play(m)
            .unwrap_or_else(|e| panic!("oracle rejects `{m}`: {e}"));
    }
    pos
}

/// Positions that exercise the rules, each as the moves leading to it and what it shows.
const POSITIONS: &[(&str, &[&str])] = &[
    (
        "stacked on own colour",
        &["Block e5 n", "Block a1 n", "Post e5 n", "Block a2 n"],
    ),
    (
        "an arch over its own beam",
        &["Beam c5 e", "Block a1 n", "Arch c5 e", "Block a2 n"],
    ),
    (
        "a crossing over the opponent",
        &["Block a1 n", "Block d5 n", "Arch c5 e", "Block a3 n"],
    ),
    ("an overhang is illegal", &["Block e5 n", "Block a1 n"]),
    ("an upside-down step", &["Block f5 n", "Block a1 n"]),
    (
        "the height limit",
        &["Pillar e5 n", "Block a1 n", "Post e5 n", "Block a2 n"],
    ),
    (
        "one move from a win",
        &["Span e1 n", "Block a1 n", "Bridge e5 n", "Block a2 n"],
    ),
    (
        "won",
        &[
            "Span e1 n",
            "Block a1 n",
            "Bridge e5 n",
            "Block a2 n",
            "Brick e9 n",
        ],
    ),
    (
        "the opponent's stones are no feet",
        &["Block a1 n", "Pillar e5 n", "Block b1 n", "Post f5 n"],
    ),
    (
        "a beam over a gap",
        &[
            "Post c5 n",
            "Block a1 n",
            "Post e5 n",
            "Block a2 n",
            "Beam c5 e",
        ],
    ),
];

#[test]
fn constructed_positions_match_the_oracle() {
    let program = program();
    for (what, moves) in POSITIONS {
        let owned: Vec<String> = moves.iter().map(|m| (*m).to_string()).collect();
        let mut engine = Engine::new(&program);
        common::play_moves(&mut engine, &owned);
        let oracle = oracle_after(moves);
        let mut expected = oracle.moves();
        expected.sort();
        assert_eq!(moves_of(&mut engine), expected, "{what}: moves differ");
        assert_eq!(
            perft(&mut engine, 2),
            oracle.perft(2),
            "{what}: perft 2 differs"
        );
    }
}

#[test]
fn constructed_positions_show_their_rule() {
    let program = program();
    let moves_after = |moves: &[&str]| {
        let owned: Vec<String> = moves.iter().map(|m| (*m).to_string()).collect();
        let mut engine = Engine::new(&program);
        common::play_moves(&mut engine, &owned);
        moves_of(&mut engine)
    };
    let has = |list: &[String], m: &str| list.iter().any(|x| x == m);
    // Black's Brick with one foot on its block and one on the board would overhang.
    let overhang = moves_after(&["Block e5 n", "Block a1 n"]);
    assert!(!has(&overhang, "Brick e5 e") && has(&overhang, "Post e5 n"));
    // Upside down, a Step needs its short end one level up.
    let step = moves_after(&["Block f5 n", "Block a1 n"]);
    assert!(has(&step, "Step! e5 e"));
    // Pillar + Post = 5: nothing more on e5.
    let limit = moves_after(&["Pillar e5 n", "Block a1 n", "Post e5 n", "Block a2 n"]);
    assert!(!has(&limit, "Block e5 n"));
    // The game is won: no moves.
    let won = moves_after(POSITIONS[7].1);
    assert!(won.is_empty());
}

#[test]
fn random_games_match_the_oracle() {
    let program = program();
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut list: Vec<Move> = Vec::new();
    for _ in 0..12 {
        let mut undos = Vec::new();
        let mut oracle = oracle::Position::start();
        loop {
            let mut expected = oracle.moves();
            expected.sort();
            assert_eq!(moves_of(&mut engine), expected, "moves differ");
            engine.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            let text = engine.move_text(&m);
            oracle.play(&text).expect("the oracle accepts the move");
            undos.push(engine.apply(&m));
        }
        let expected = oracle
            .scores()
            .map(|s| i32::try_from(s).unwrap_or(i32::MAX));
        assert_eq!(engine.scores(), Some(expected), "scores differ");
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
}
