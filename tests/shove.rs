//! `tests/games/shove.game` (direction values: `pick d in R`, `-d`, `step(d, ...)`,
//! `run(d, ...)`, `d in R`) against an independent plain-Rust generator written from the rules
//! in the game's header: the same moves along seeded random games, the same results, and the
//! same perft counts.

mod common;

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, GameResult, Move};

/// Axial directions, in the order the game declares them: ne, se, s, sw, nw, n.
const DIRS: [(i32, i32, &str); 6] = [
    (1, 0, "ne"),
    (1, -1, "se"),
    (0, -1, "s"),
    (-1, 0, "sw"),
    (-1, 1, "nw"),
    (0, 1, "n"),
];

#[derive(Clone, PartialEq, Eq)]
struct Shove {
    /// `Some(player)` per (q, r) with q, r in -2..=2 (index (q + 2) * 5 + r + 2).
    cells: [Option<u8>; 25],
    mover: u8,
    captured: [u8; 2],
    winner: Option<u8>,
}

fn on_board(q: i32, r: i32) -> bool {
    (-2..=2).contains(&q) && (-2..=2).contains(&r) && (-2..=2).contains(&(q + r))
}

fn index(q: i32, r: i32) -> usize {
    usize::try_from((q + 2) * 5 + r + 2).unwrap_or(0)
}

fn name(q: i32, r: i32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + u8::try_from(q + 2).unwrap_or(0)),
        r + 3
    )
}

impl Shove {
    fn start() -> Shove {
        let mut s = Shove {
            cells: [None; 25],
            mover: 0,
            captured: [0; 2],
            winner: None,
        };
        for (q, r) in [(-2, 0), (-1, -1), (0, -2)] {
            s.cells[index(q, r)] = Some(0);
            s.cells[index(-q, -r)] = Some(1);
        }
        s
    }

    fn at(&self, q: i32, r: i32) -> Option<u8> {
        if on_board(q, r) {
            self.cells[index(q, r)]
        } else {
            None
        }
    }

    fn backward(&self, d: usize) -> bool {
        match self.mover {
            0 => DIRS[d].2 == "s" || DIRS[d].2 == "se",
            _ => DIRS[d].2 == "n" || DIRS[d].2 == "nw",
        }
    }

    /// Every legal move with the position it leads to.
    fn moves(&self) -> Vec<(String, Shove)> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        let me = self.mover;
        for q in -2..=2 {
            for r in -2..=2 {
                if !on_board(q, r) || self.at(q, r) != Some(me) {
                    continue;
                }
                for (d, &(dq, dr, dname)) in DIRS.iter().enumerate() {
                    if self.backward(d) {
                        continue;
                    }
                    let mut pushers = 0;
                    while self.at(q - (pushers + 1) * dq, r - (pushers + 1) * dr) == Some(me) {
                        pushers += 1;
                    }
                    let mut victims = 0;
                    while self.at(q + (victims + 1) * dq, r + (victims + 1) * dr) == Some(1 - me) {
                        victims += 1;
                    }
                    let (bq, br) = (q + (victims + 1) * dq, r + (victims + 1) * dr);
                    let beyond = on_board(bq, br);
                    if beyond && self.at(bq, br) == Some(me) {
                        continue;
                    }
                    if victims > pushers || (victims == 0 && !beyond) {
                        continue;
                    }
                    let mut next = self.clone();
                    next.cells[index(q, r)] = None;
                    next.cells[index(q + dq, r + dr)] = Some(me);
                    if victims > 0 {
                        if beyond {
                            next.cells[index(bq, br)] = Some(1 - me);
                        } else {
                            next.captured[usize::from(me)] += 1;
                        }
                    }
                    if next.captured[usize::from(me)] == 2 {
                        next.winner = Some(me);
                    } else {
                        next.mover = 1 - me;
                    }
                    out.push((format!("{}{dname}", name(q, r)), next));
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|(_, s)| s.perft(depth - 1)).sum()
    }
}

fn program() -> rulestone::ir::Program {
    common::program(&common::root().join("tests/games/shove.game"), &[])
}

#[test]
fn perft_matches_the_oracle() {
    let program = program();
    let mut engine = Engine::new(&program);
    for depth in 1..=5 {
        assert_eq!(
            perft(&mut engine, depth),
            Shove::start().perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn random_games_match_the_oracle() {
    let program = program();
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut list: Vec<Move> = Vec::new();
    let mut plies = 0;
    for _ in 0..40 {
        let mut undos = Vec::new();
        let mut oracle = Shove::start();
        for _ in 0..200 {
            engine.legal_moves(&mut list);
            let ours: BTreeSet<String> = list.iter().map(|m| engine.move_text(m)).collect();
            let expected = oracle.moves();
            let theirs: BTreeSet<String> = expected.iter().map(|(t, _)| t.clone()).collect();
            assert_eq!(ours, theirs, "moves differ after {plies} plies");
            if list.is_empty() {
                // A player who cannot move loses.
                assert_eq!(engine.outcome(), Some(GameResult::Win(1 - oracle.mover)));
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            let text = engine.move_text(&m);
            oracle = expected
                .into_iter()
                .find(|(t, _)| *t == text)
                .map(|(_, s)| s)
                .expect("the oracle has the move");
            undos.push(engine.apply(&m));
            plies += 1;
            if let Some(w) = oracle.winner {
                assert_eq!(engine.state.result, Some(GameResult::Win(w)));
                break;
            }
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
    assert!(plies > 500);
}
