//! `games/stoneball.game` against an independent Stoneball move generator written in plain
//! Rust from the rules text (`tests/stoneball/oracle.rs`): the same moves, spelled the same, at
//! every ply of seeded random games (pushes, the owner's tiers, out of play, returning pieces
//! and their placements, touchdowns, the turn limit), and the same perft counts.

#[path = "stoneball/oracle.rs"]
mod oracle;

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, GameResult, Move};

fn program(options: &[(String, String)]) -> rulestone::ir::Program {
    common::program(&common::root().join("games/stoneball.game"), options)
}

fn moves_of(engine: &mut Engine<'_>) -> Vec<String> {
    let mut list = Vec::new();
    engine.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|m| engine.move_text(m)).collect();
    texts.sort();
    texts
}

#[test]
fn perft_from_the_start_matches_the_oracle() {
    let program = program(&[]);
    let mut engine = Engine::new(&program);
    let start = oracle::Position::start();
    for depth in 1..=4 {
        assert_eq!(
            perft(&mut engine, depth),
            start.perft(depth),
            "depth {depth}"
        );
    }
}

fn random_games(limit: u32, games: usize, seed: u64) -> (usize, usize) {
    let options = [("turn_limit".to_string(), limit.to_string())];
    let program = program(&options);
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list: Vec<Move> = Vec::new();
    let (mut plies, mut ended) = (0, 0);
    for _ in 0..games {
        let mut undos = Vec::new();
        let mut oracle = oracle::Position::with_turn_limit(limit);
        loop {
            let mut expected = oracle.moves();
            expected.sort();
            assert_eq!(
                moves_of(&mut engine),
                expected,
                "moves differ after {plies} plies"
            );
            engine.legal_moves(&mut list);
            if list.is_empty() {
                let result = engine.outcome();
                let want = match oracle.result() {
                    Some(oracle::Outcome::Win(p)) => {
                        Some(GameResult::Win(u8::try_from(p.index()).unwrap_or(0)))
                    }
                    Some(oracle::Outcome::Draw) => Some(GameResult::Draw),
                    None => None,
                };
                assert_eq!(result, want, "results differ");
                ended += 1;
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            let text = engine.move_text(&m);
            oracle.play(&text).expect("the oracle accepts the move");
            undos.push(engine.apply(&m));
            plies += 1;
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
    (plies, ended)
}

#[test]
fn random_games_match_the_oracle() {
    let (plies, ended) = random_games(200, 60, 3);
    assert!(plies > 2000 && ended == 60);
}

#[test]
fn short_games_reach_the_turn_limit_like_the_oracle() {
    let (_, ended) = random_games(12, 40, 9);
    assert_eq!(ended, 40);
}

/// Finds positions that show each rule, for `games/stoneball.perft`: prints the moves that lead
/// to the first position (in seeded random games) where some legal move shows the feature.
#[test]
#[ignore = "a search run by hand: cargo test --release --test stoneball -- --ignored --nocapture"]
fn find_positions() {
    type Test = fn(&oracle::Position, &str, &oracle::Position) -> bool;
    let features: &[(&str, Test)] = &[
        ("a ram", |_, m, _| m.contains('*') && !m.contains('/')),
        ("the owner's choice", |_, m, _| m.contains('/')),
        ("out of play", |p, _, c| {
            c.pieces_returning(oracle::Player::White) + c.pieces_returning(oracle::Player::Black)
                > p.pieces_returning(oracle::Player::White)
                    + p.pieces_returning(oracle::Player::Black)
        }),
        ("a placement", |_, m, _| m.contains('+')),
        ("a touchdown", |_, _, c| c.result().is_some()),
        ("a pass", |_, m, _| m.starts_with("pass")),
        ("attacking", |p, _, _| p.carrier() == Some(p.to_move())),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut found = vec![0; features.len()];
    for _ in 0..3000 {
        let mut pos = oracle::Position::start();
        let mut path: Vec<String> = Vec::new();
        while pos.result().is_none() {
            let moves = pos.moves_with_children();
            if moves.is_empty() {
                break;
            }
            for (i, (what, test)) in features.iter().enumerate() {
                if found[i] < 3 && moves.iter().any(|(m, c)| test(&pos, m, c)) {
                    found[i] += 1;
                    println!("{what}: {}", path.join("; "));
                }
            }
            let (m, c) = moves[rng.gen_range(0..moves.len())].clone();
            path.push(m);
            pos = c;
        }
    }
}

#[test]
fn perft_file_agrees_with_the_oracle() {
    let path = common::root().join("games/stoneball.perft");
    let mut checked = 0;
    for case in common::perft_cases(&path) {
        if case.nodes > 2_000_000 {
            continue;
        }
        let mut pos = oracle::Position::start();
        for m in &case.after {
            pos.play(m)
                .unwrap_or_else(|e| panic!("line {}: the oracle rejects `{m}`: {e}", case.line));
        }
        assert_eq!(pos.perft(case.depth), case.nodes, "line {}", case.line);
        checked += 1;
    }
    assert!(checked >= 20);
}
