//! A board wider than two 64-bit words: `tests/games/flankfive.game` (169 cells by default,
//! up to 225), whose captures and five-in-a-row shapes cross every word boundary of the
//! runtime's cell sets.
//!
//! The runtime is checked against an independent brute-force implementation of the rules in the
//! game file's header comment (own board array and line walking, nothing shared with the
//! runtime): perft counts from `tests/games/flankfive.perft`, the sorted move notations along
//! seeded random games, the board after every move and the result.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, GameResult};

const SOURCE: &str = include_str!("games/flankfive.game");

/// The eight square directions in (x, y).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The oracle's position: `board[x * size + y]` is `None` or the owner (0 = Black, 1 = White).
#[derive(Clone, Debug)]
struct Pos {
    size: i32,
    board: Vec<Option<u8>>,
    mover: u8,
    result: Option<GameResult>,
}

impl Pos {
    fn new(size: i32) -> Pos {
        Pos {
            size,
            board: vec![None; (size * size) as usize],
            mover: 0,
            result: None,
        }
    }

    fn at(&self, x: i32, y: i32) -> Option<Option<u8>> {
        let inside = (0..self.size).contains(&x) && (0..self.size).contains(&y);
        inside.then(|| self.board[(x * self.size + y) as usize])
    }

    /// The enemy stones a placement on (x, y) flanks.
    fn flanked(&self, x: i32, y: i32) -> Vec<usize> {
        let mut out = Vec::new();
        for (dx, dy) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut cx, mut cy) = (x + dx, y + dy);
            while self.at(cx, cy) == Some(Some(1 - self.mover)) {
                line.push((cx * self.size + cy) as usize);
                cx += dx;
                cy += dy;
            }
            if !line.is_empty() && self.at(cx, cy) == Some(Some(self.mover)) {
                out.extend(line);
            }
        }
        out
    }

    /// Legal placements as (cell, captured cells), captures forced; none once decided.
    fn moves(&self) -> Vec<(usize, Vec<usize>)> {
        if self.result.is_some() {
            return Vec::new();
        }
        let all: Vec<(usize, Vec<usize>)> = (0..self.size * self.size)
            .filter(|&c| self.board[c as usize].is_none())
            .map(|c| (c as usize, self.flanked(c / self.size, c % self.size)))
            .collect();
        if all.iter().any(|(_, f)| !f.is_empty()) {
            all.into_iter().filter(|(_, f)| !f.is_empty()).collect()
        } else {
            all
        }
    }

    /// Whether the stone on `cell` is in a row of five or more of its owner's stones.
    fn makes_five(&self, cell: usize) -> bool {
        let (x, y) = (cell as i32 / self.size, cell as i32 % self.size);
        let own = self.board[cell];
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let run = |sign: i32| {
                (1..)
                    .take_while(|k| self.at(x + sign * k * dx, y + sign * k * dy) == Some(own))
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        })
    }

    fn play(&self, (cell, captured): &(usize, Vec<usize>)) -> Pos {
        let mut next = self.clone();
        for &c in captured {
            next.board[c] = None;
        }
        next.board[*cell] = Some(self.mover);
        next.mover = 1 - self.mover;
        if next.makes_five(*cell) {
            next.result = Some(GameResult::Win(self.mover));
        } else if next.board.iter().all(Option::is_some) {
            let count = |p: u8| next.board.iter().filter(|&&o| o == Some(p)).count();
            next.result = Some(match count(0).cmp(&count(1)) {
                std::cmp::Ordering::Greater => GameResult::Win(0),
                std::cmp::Ordering::Less => GameResult::Win(1),
                std::cmp::Ordering::Equal => GameResult::Draw,
            });
        }
        next
    }

    fn text(&self, (cell, captured): &(usize, Vec<usize>)) -> String {
        let (x, y) = (*cell as i32 / self.size, *cell as i32 % self.size);
        let name = format!("{}{}", char::from(b'a' + x as u8), y + 1);
        if captured.is_empty() {
            name
        } else {
            format!("{name}x")
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}

fn program(size: i32) -> rulestone::ir::Program {
    rulestone::compile(SOURCE, &[("size".to_string(), size.to_string())])
        .expect("flankfive.game compiles")
}

#[test]
fn perft_table_agrees_with_the_oracle() {
    let table = common::root().join("tests/games/flankfive.perft");
    let mut lines = 0;
    for case in common::perft_cases(&table) {
        let size = case
            .options
            .iter()
            .find(|(k, _)| k == "size")
            .map_or(13, |(_, v)| v.parse().expect("size is a number"));
        let oracle = Pos::new(size).perft(case.depth);
        assert_eq!(
            oracle, case.nodes,
            "oracle, size {size}, depth {}",
            case.depth
        );
        let p = program(size);
        let mut engine = Engine::new(&p);
        assert_eq!(perft(&mut engine, case.depth), case.nodes, "runtime");
        lines += 1;
    }
    assert!(lines >= 4);
}

#[test]
fn random_games_list_the_oracles_moves_and_reach_its_boards() {
    // 25 cells fit one word, 64 exactly one, 81 two; 169 and 225 need four; 361 (cell ids past
    // one byte, picks recorded in two decisions) sixteen.
    let mut total_ends = 0;
    for size in [5, 8, 9, 13, 15, 19] {
        let p = program(size);
        let mut engine = Engine::new(&p);
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let mut moves = Vec::new();
        let mut ends = 0;
        for _game in 0..8 {
            let mut pos = Pos::new(size);
            let mut undos = Vec::new();
            for _ply in 0..400 {
                engine.legal_moves(&mut moves);
                let oracle = pos.moves();
                let mut want: Vec<String> = oracle.iter().map(|m| pos.text(m)).collect();
                let mut got: Vec<String> = moves.iter().map(|m| engine.move_text(m)).collect();
                want.sort();
                got.sort();
                assert_eq!(got, want, "size {size}");
                assert_eq!(engine.state.result, pos.result, "size {size}");
                if oracle.is_empty() {
                    ends += 1;
                    break;
                }
                let k = rng.gen_range(0..moves.len());
                let text = engine.move_text(&moves[k]);
                let m = oracle
                    .iter()
                    .find(|m| pos.text(m) == text)
                    .expect("the oracle has the move");
                pos = pos.play(m);
                undos.push(engine.apply(&moves[k]));
                for (c, owner) in pos.board.iter().enumerate() {
                    let code = engine.state.board[c];
                    let runtime_owner = (code != 0).then(|| (code - 1) % 2);
                    assert_eq!(runtime_owner, *owner, "size {size}, cell {c}");
                }
            }
            while let Some(u) = undos.pop() {
                engine.undo(u);
            }
        }
        total_ends += ends;
    }
    // Captures can keep a small board from filling up; the 400-ply cap stops those games.
    assert!(total_ends > 0, "no game reached its end");
}
