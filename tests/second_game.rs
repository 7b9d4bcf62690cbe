//! A second game for the constructs Pylos uses: `tests/games/capture_lines.game`.
//!
//! The runtime is checked against an independent brute-force implementation of the rules in the
//! game file's header comment (own board arrays, own move generation, nothing shared with the
//! runtime): perft counts from `tests/games/capture_lines.perft`, the sorted move notations at
//! every ply of seeded random games, the position after every move, the result of finished
//! games, and apply/undo restoring the runtime's state exactly.

use std::collections::BTreeMap;

use rulestone::runtime::{perft::perft, Engine, GameResult, Move};

const SOURCE: &str = include_str!("games/capture_lines.game");
const PERFT: &str = include_str!("games/capture_lines.perft");

// ---- the oracle ------------------------------------------------------------------------------

/// The largest board the oracle supports (`size` 6).
const MAX_CELLS: usize = 36;
/// Captures that win.
const WIN_CAPTURES: i32 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    size: usize,
    /// `None` for empty, else the owner (0 = Cross, 1 = Nought). Cell `x * size + y`.
    board: [Option<u8>; MAX_CELLS],
    hand: [i32; 2],
    captured: [i32; 2],
    mover: u8,
    winner: Option<u8>,
}

/// One oracle move: a placement (`from == None`) or a slide, then the captured cells.
#[derive(Clone, Debug, PartialEq, Eq)]
struct OMove {
    from: Option<usize>,
    to: usize,
    captures: Vec<usize>,
}

impl Pos {
    fn start(size: usize, stones: i32) -> Pos {
        assert!((3..=6).contains(&size));
        Pos {
            size,
            board: [None; MAX_CELLS],
            hand: [stones; 2],
            captured: [0; 2],
            mover: 0,
            winner: None,
        }
    }

    fn cells(&self) -> usize {
        self.size * self.size
    }

    fn xy(&self, c: usize) -> (usize, usize) {
        (c / self.size, c % self.size)
    }

    fn at(&self, x: usize, y: usize) -> usize {
        x * self.size + y
    }

    fn name(&self, c: usize) -> String {
        let (x, y) = self.xy(c);
        format!("{}{}", char::from(b'a' + x as u8), y + 1)
    }

    fn is_corner(&self, c: usize) -> bool {
        let (x, y) = self.xy(c);
        let edge = |v: usize| v == 0 || v == self.size - 1;
        edge(x) && edge(y)
    }

    /// The orthogonal neighbours of a cell.
    fn neighbours(&self, c: usize) -> Vec<usize> {
        let (x, y) = self.xy(c);
        let mut out = Vec::new();
        if x > 0 {
            out.push(self.at(x - 1, y));
        }
        if x + 1 < self.size {
            out.push(self.at(x + 1, y));
        }
        if y > 0 {
            out.push(self.at(x, y - 1));
        }
        if y + 1 < self.size {
            out.push(self.at(x, y + 1));
        }
        out
    }

    /// Whether the stone on `c` lies in three consecutive stones of `p` along x or along y.
    fn in_three(&self, c: usize, p: u8) -> bool {
        let (x, y) = self.xy(c);
        let own = |x: usize, y: usize| self.board[self.at(x, y)] == Some(p);
        for start in x.saturating_sub(2)..=x {
            if start + 2 < self.size && (start..start + 3).all(|i| own(i, y)) {
                return true;
            }
        }
        for start in y.saturating_sub(2)..=y {
            if start + 2 < self.size && (start..start + 3).all(|j| own(x, j)) {
                return true;
            }
        }
        false
    }

    /// The board after the placement or slide part of a move, before captures.
    fn after_step(&self, from: Option<usize>, to: usize) -> Pos {
        let mut next = *self;
        if let Some(f) = from {
            next.board[f] = None;
        }
        next.board[to] = Some(self.mover);
        next
    }

    fn moves(&self) -> Vec<OMove> {
        let mut steps = Vec::new();
        if self.winner.is_some() {
            return Vec::new();
        }
        let me = self.mover;
        if self.hand[usize::from(me)] > 0 {
            for c in 0..self.cells() {
                if self.board[c].is_none() {
                    steps.push((None, c));
                }
            }
        }
        for f in 0..self.cells() {
            if self.board[f] == Some(me) {
                for t in self.neighbours(f) {
                    if self.board[t].is_none() {
                        steps.push((Some(f), t));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (from, to) in steps {
            let after = self.after_step(from, to);
            let targets: Vec<usize> = (0..self.cells())
                .filter(|&c| after.board[c] == Some(1 - me) && !after.is_corner(c))
                .collect();
            if !after.in_three(to, me) || targets.is_empty() {
                out.push(OMove {
                    from,
                    to,
                    captures: Vec::new(),
                });
                continue;
            }
            for (i, &a) in targets.iter().enumerate() {
                out.push(OMove {
                    from,
                    to,
                    captures: vec![a],
                });
                for &b in &targets[i + 1..] {
                    out.push(OMove {
                        from,
                        to,
                        captures: vec![a, b],
                    });
                }
            }
        }
        out
    }

    fn play(&self, m: &OMove) -> Pos {
        let me = usize::from(self.mover);
        let mut next = self.after_step(m.from, m.to);
        if m.from.is_none() {
            next.hand[me] -= 1;
        }
        for &c in &m.captures {
            next.board[c] = None;
            next.captured[me] += 1;
        }
        if next.captured[me] >= WIN_CAPTURES {
            next.winner = Some(self.mover);
        } else {
            next.mover = 1 - self.mover;
        }
        next
    }

    fn text(&self, m: &OMove) -> String {
        let mut s = match m.from {
            Some(f) => format!("{}-{}", self.name(f), self.name(m.to)),
            None => self.name(m.to),
        };
        for &c in &m.captures {
            s.push_str(" x");
            s.push_str(&self.name(c));
        }
        s
    }

    fn sorted_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.moves().iter().map(|m| self.text(m)).collect();
        v.sort();
        v
    }

    /// The result when the game is over: a capture win, or a loss for a player without moves.
    fn result(&self) -> Option<u8> {
        match self.winner {
            Some(w) => Some(w),
            None if self.moves().is_empty() => Some(1 - self.mover),
            None => None,
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

// ---- helpers ---------------------------------------------------------------------------------

fn program(size: usize, stones: i32) -> rulestone::ir::Program {
    let options = [
        ("size".to_string(), size.to_string()),
        ("stones".to_string(), stones.to_string()),
    ];
    rulestone::compile(SOURCE, &options).expect("capture_lines.game compiles")
}

fn runtime_texts(engine: &mut Engine<'_>, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| engine.move_text(m)).collect();
    v.sort();
    v
}

/// The counter slot of a per-player counter.
fn counter_slot(p: &rulestone::ir::Program, name: &str, player: u8) -> usize {
    p.counters
        .iter()
        .position(|c| c.name == name && c.player == Some(player))
        .expect("counter exists")
}

/// The runtime's position agrees with the oracle's, cell by cell and counter by counter.
fn assert_same_position(engine: &Engine<'_>, pos: &Pos, context: &str) {
    let p = engine.program();
    for c in 0..pos.cells() {
        assert_eq!(engine.state.owner(c), pos.board[c], "cell {c}: {context}");
    }
    for who in 0..2u8 {
        let i = usize::from(who);
        let hand = engine.state.counters[counter_slot(p, "hand", who)];
        let captured = engine.state.counters[counter_slot(p, "captured", who)];
        assert_eq!(hand, pos.hand[i], "hand[{who}]: {context}");
        assert_eq!(captured, pos.captured[i], "captured[{who}]: {context}");
    }
    let result = engine.state.result.map(|r| match r {
        GameResult::Win(w) => w,
        GameResult::Draw => u8::MAX,
    });
    assert_eq!(result, pos.winner, "result: {context}");
    if pos.winner.is_none() {
        assert_eq!(engine.state.mover, pos.mover, "mover: {context}");
    }
}

/// A tiny xorshift64* generator, so the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `perft <depth> <nodes> [NAME=VALUE ...]` lines: (size, stones, depth, nodes).
fn perft_lines() -> Vec<(usize, i32, u32, u64)> {
    let mut out = Vec::new();
    for line in PERFT.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "perft", "{line}");
        let depth = words[1].parse().expect("depth");
        let nodes = words[2].parse().expect("nodes");
        let (mut size, mut stones) = (4, 4);
        for set in &words[3..] {
            match set.split_once('=') {
                Some(("size", v)) => size = v.parse().expect("size"),
                Some(("stones", v)) => stones = v.parse().expect("stones"),
                _ => panic!("unknown option in `{line}`"),
            }
        }
        out.push((size, stones, depth, nodes));
    }
    out
}

// ---- tests -----------------------------------------------------------------------------------

#[test]
fn start_position_moves() {
    let prog = program(3, 4);
    let mut engine = Engine::new(&prog);
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|m| engine.move_text(m)).collect();
    assert_eq!(
        texts,
        ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    );
    assert_eq!(Pos::start(3, 4).sorted_texts(), texts);
}

#[test]
fn perft_matches_oracle() {
    let lines = perft_lines();
    assert!(lines.len() >= 8);
    for (size, stones, depth, nodes) in lines {
        let prog = program(size, stones);
        let mut engine = Engine::new(&prog);
        let oracle = Pos::start(size, stones).perft(depth);
        let runtime = perft(&mut engine, depth);
        let what = format!("perft {depth} size={size} stones={stones}");
        assert_eq!(
            oracle, nodes,
            "oracle disagrees with the .perft file: {what}"
        );
        assert_eq!(
            runtime, nodes,
            "runtime disagrees with the .perft file: {what}"
        );
    }
}

/// Hand-checked positions: the capture choices, the merging of two capture orders, the safe
/// corners, and the turn that completes a line with nothing capturable.
#[test]
fn capture_choices() {
    let prog = program(4, 4);
    let mut engine = Engine::new(&prog);
    let mut pos = Pos::start(4, 4);
    // Cross builds a1 b1 (c1 completes a row along x); Nought sits on a4 (a corner), b2, c2.
    for text in ["a1", "a4", "b1", "b2", "d4", "c2"] {
        play_text(&mut engine, &mut pos, text);
    }
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    let texts = runtime_texts(&mut engine, &moves);
    for expected in ["c1 xb2", "c1 xc2", "c1 xb2 xc2"] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    for absent in ["c1", "c1 xc2 xb2", "c1 xa4"] {
        assert!(
            !texts.iter().any(|t| t == absent),
            "{absent} not in {texts:?}"
        );
    }
    assert_eq!(texts, pos.sorted_texts());
}

fn play_text(engine: &mut Engine<'_>, pos: &mut Pos, text: &str) {
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    let m = moves
        .iter()
        .copied()
        .find(|m| engine.move_text(m) == text)
        .unwrap_or_else(|| panic!("runtime has no move {text}"));
    let om = pos
        .moves()
        .into_iter()
        .find(|m| pos.text(m) == text)
        .unwrap_or_else(|| panic!("oracle has no move {text}"));
    let _ = engine.apply(&m);
    *pos = pos.play(&om);
}

#[test]
fn random_games_match_oracle() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let configs = [(3, 4), (3, 3), (4, 4), (4, 6), (5, 5), (3, 5), (6, 8)];
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut moves = Vec::new();
    for game in 0..56 {
        let (size, stones) = configs[game % configs.len()];
        let prog = program(size, stones);
        let mut engine = Engine::new(&prog);
        let mut pos = Pos::start(size, stones);
        let mut history = Vec::new();
        for ply in 0..300 {
            let context =
                format!("game {game} (size={size} stones={stones}) ply {ply}: {history:?}");
            assert_same_position(&engine, &pos, &context);
            engine.legal_moves(&mut moves);
            let texts = runtime_texts(&mut engine, &moves);
            assert_eq!(texts, pos.sorted_texts(), "{context}");
            // Every move undoes exactly.
            for m in &moves {
                let before = engine.state.clone();
                let undo = engine.apply(m);
                engine.undo(undo);
                assert!(
                    engine.state == before,
                    "apply/undo of {}: {context}",
                    engine.move_text(m)
                );
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let text = engine.move_text(&m);
            let om = pos
                .moves()
                .into_iter()
                .find(|om| pos.text(om) == text)
                .expect("the oracle has the runtime's move");
            match om.captures.len() {
                0 => {}
                1 => *seen.entry("one capture").or_default() += 1,
                _ => *seen.entry("two captures").or_default() += 1,
            }
            if om.from.is_some() {
                *seen.entry("slide").or_default() += 1;
            }
            let _ = engine.apply(&m);
            pos = pos.play(&om);
            history.push(text);
        }
        let context = format!("game {game} (size={size} stones={stones}) end: {history:?}");
        assert_same_position(&engine, &pos, &context);
        let runtime = engine.outcome().map(|r| match r {
            GameResult::Win(w) => w,
            GameResult::Draw => u8::MAX,
        });
        assert_eq!(runtime, pos.result(), "{context}");
        match (pos.winner, pos.result()) {
            (Some(_), _) => *seen.entry("capture win").or_default() += 1,
            (None, Some(_)) => *seen.entry("no moves loss").or_default() += 1,
            (None, None) => *seen.entry("unfinished").or_default() += 1,
        }
    }
    // The games reach every rule.
    for what in [
        "one capture",
        "two captures",
        "slide",
        "capture win",
        "no moves loss",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) > 0,
            "no {what} in {seen:?}"
        );
    }
}
