//! The runtime against the hand-written Pylos generator (benches/baseline/pylos.rs, written from
//! the rule text without the runtime): along seeded random games, both must list exactly the
//! same moves at every ply, and agree on when and how the game ends. This reaches positions far
//! deeper than perft can (take-backs, raises, full pyramids, empty reserves).

mod common;

#[path = "../benches/baseline/pylos.rs"]
mod pylos;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{Engine, GameResult};

fn compare(variant: pylos::Variant, name: &str, base: usize, reserve: u32, games: u32) {
    let options = vec![
        ("variant".to_string(), name.to_string()),
        ("base".to_string(), base.to_string()),
        ("reserve".to_string(), reserve.to_string()),
    ];
    let program = common::program(&common::root().join("games/pylos.game"), &options);
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(games) + base as u64);
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for game in 0..games {
        let mut reference = pylos::Pylos::new(variant, base, reserve);
        let mut undos = Vec::new();
        for ply in 0..300 {
            engine.legal_moves(&mut ours);
            reference.legal_moves(&mut theirs);
            let mut a: Vec<String> = ours.iter().map(|m| engine.move_text(m)).collect();
            let mut b: Vec<String> = theirs.iter().map(|m| reference.move_to_string(m)).collect();
            a.sort();
            b.sort();
            assert_eq!(
                a, b,
                "{name} base {base} reserve {reserve}: game {game} ply {ply}"
            );
            if ours.is_empty() {
                let ended = engine.outcome();
                let winner = reference.winner();
                assert_eq!(
                    ended,
                    winner.map(GameResult::Win),
                    "result differs in game {game}"
                );
                break;
            }
            let i = rng.gen_range(0..ours.len());
            let text = engine.move_text(&ours[i]);
            let j = theirs
                .iter()
                .position(|m| reference.move_to_string(m) == text)
                .expect("same move lists");
            reference.play(&theirs[j]);
            undos.push(engine.apply(&ours[i]));
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
}

#[test]
fn standard_matches_hand_written_generator() {
    compare(pylos::Variant::Standard, "standard", 4, 15, 60);
}

#[test]
fn basic_matches_hand_written_generator() {
    compare(pylos::Variant::Basic, "basic", 4, 15, 40);
}

#[test]
fn advanced_matches_hand_written_generator() {
    compare(pylos::Variant::Advanced, "advanced", 4, 15, 40);
}

#[test]
fn other_sizes_match_hand_written_generator() {
    compare(pylos::Variant::Standard, "standard", 3, 15, 40);
    compare(pylos::Variant::Advanced, "advanced", 5, 15, 15);
    compare(pylos::Variant::Standard, "standard", 4, 6, 40);
    compare(pylos::Variant::Advanced, "advanced", 2, 3, 20);
}
