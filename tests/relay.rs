//! `tests/games/relay.game` (a token, `move`, tracks) against an independent plain-Rust generator
//! written only from the rules in the game's header comment: the same moves, positions and
//! results along seeded random games, the same perft counts (from the start and for every line
//! of `tests/games/relay.perft`), and short games worked by hand for each rule.
//! Capturing the flag's carrier on its own home rank wins, as the header says
//! (`capturing_the_carrier_on_its_home_rank_wins`).

mod common;

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, GameResult, Move};

/// The default `turn_limit`.
const TURN_LIMIT: u32 = 30;

/// North, east, south, west in (x, y).
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The bench lanes as files along the player's bench rank (Red: rank 1, Blue: rank 6), entry
/// first; Red's in the order a return looks at them.
const RED_LANES: [&[usize]; 2] = [&[0, 1], &[3, 2]];
const BLUE_LANES: [&[usize]; 1] = [&[0, 1, 2, 3]];

fn lanes(player: u8) -> &'static [&'static [usize]] {
    if player == 0 {
        &RED_LANES
    } else {
        &BLUE_LANES
    }
}

/// The name of (x, y): files a-d, ranks 1-6.
fn name(x: i32, y: i32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + u8::try_from(x).unwrap_or(0)),
        y + 1
    )
}

/// Whether (x, y) is on the field (ranks 2-5).
fn on_field(x: i32, y: i32) -> bool {
    (0..4).contains(&x) && (1..=4).contains(&y)
}

/// The home rank (y) of a player: Red rank 2, Blue rank 5.
fn home(player: u8) -> i32 {
    if player == 0 {
        1
    } else {
        4
    }
}

/// The bench rank (y) of a player: Red rank 1, Blue rank 6.
fn bench_rank(player: u8) -> i32 {
    if player == 0 {
        0
    } else {
        5
    }
}

fn index(x: i32, y: i32) -> usize {
    usize::try_from(x * 4 + y - 1).unwrap_or(0)
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Relay {
    /// The owner of the runner per field (x, y), index `x * 4 + y - 1`.
    field: [Option<u8>; 16],
    /// The flag's field.
    flag: (i32, i32),
    /// Runners per bench field: `bench[player][x]` on the player's bench rank.
    bench: [[u8; 4]; 2],
    mover: u8,
    turns: u32,
    limit: u32,
    winner: Option<u8>,
}

impl Relay {
    fn start(limit: u32) -> Relay {
        let mut s = Relay {
            field: [None; 16],
            flag: (1, 2),
            bench: [[0; 4]; 2],
            mover: 0,
            turns: 0,
            limit,
            winner: None,
        };
        for x in [0, 3] {
            s.field[index(x, 1)] = Some(0);
            s.field[index(x, 4)] = Some(1);
        }
        s
    }

    fn at(&self, x: i32, y: i32) -> Option<u8> {
        if on_field(x, y) {
            self.field[index(x, y)]
        } else {
            None
        }
    }

    fn result(&self) -> Option<GameResult> {
        match self.winner {
            Some(w) => Some(GameResult::Win(w)),
            None if self.turns >= self.limit => Some(GameResult::Draw),
            None => None,
        }
    }

    /// The lane entry (a file of the bench rank) for a runner of `player` captured on (x, y):
    /// Blue's is a6; Red's the nearer of a1 (0, 0) and d1 (3, 0), a1 when equally near.
    fn entry(player: u8, x: i32, y: i32) -> usize {
        if player == 1 {
            return 0;
        }
        let to_a1 = x * x + y * y;
        let to_d1 = (x - 3) * (x - 3) + y * y;
        if to_a1 <= to_d1 {
            0
        } else {
            3
        }
    }

    /// The end of the first of the mover's lanes with a runner waiting there.
    fn waiting(&self) -> Option<usize> {
        let me = usize::from(self.mover);
        lanes(self.mover)
            .iter()
            .map(|lane| lane[lane.len() - 1])
            .find(|&end| self.bench[me][end] > 0)
    }

    /// The bench step, then the next player's turn.
    fn end_turn(&mut self) {
        let me = usize::from(self.mover);
        for lane in lanes(self.mover) {
            for i in (1..lane.len()).rev() {
                let moving = self.bench[me][lane[i - 1]];
                self.bench[me][lane[i - 1]] = 0;
                self.bench[me][lane[i]] += moving;
            }
        }
        self.turns += 1;
        self.mover = 1 - self.mover;
    }

    /// Every legal move with the position it leads to.
    fn moves(&self) -> Vec<(String, Relay)> {
        let mut out = Vec::new();
        if self.result().is_some() {
            return out;
        }
        let me = self.mover;
        // Runs.
        for x in 0..4 {
            for y in 1..=4 {
                if self.at(x, y) != Some(me) {
                    continue;
                }
                for (dx, dy) in STEPS {
                    let (tx, ty) = (x + dx, y + dy);
                    if !on_field(tx, ty) || self.at(tx, ty) == Some(me) {
                        continue;
                    }
                    let mut next = self.clone();
                    let victim = self.at(tx, ty);
                    next.field[index(x, y)] = None;
                    next.field[index(tx, ty)] = Some(me);
                    if let Some(v) = victim {
                        next.bench[usize::from(v)][Relay::entry(v, tx, ty)] += 1;
                    }
                    if self.flag == (x, y) {
                        next.flag = (tx, ty);
                    }
                    // The flag is never left on a field without a runner once picked up, so the
                    // runner holds it when they share a field (also after a capture there).
                    if next.flag == (tx, ty) && ty == home(1 - me) {
                        next.winner = Some(me);
                        next.turns += 1;
                    } else {
                        next.end_turn();
                    }
                    let sep = if victim.is_some() { 'x' } else { '-' };
                    out.push((format!("{}{sep}{}", name(x, y), name(tx, ty)), next));
                }
            }
        }
        // Returns.
        if let Some(end) = self.waiting() {
            let y = home(me);
            for x in 0..4 {
                if self.at(x, y).is_some() {
                    continue;
                }
                let mut next = self.clone();
                next.bench[usize::from(me)][end] -= 1;
                next.field[index(x, y)] = Some(me);
                next.end_turn();
                out.push((format!("+{}", name(x, y)), next));
            }
        }
        if out.is_empty() {
            let mut next = self.clone();
            next.end_turn();
            out.push(("pass".to_string(), next));
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|(_, s)| s.perft(depth - 1)).sum()
    }

    /// Plays moves in notation; panics naming the first one that is not legal.
    fn play(&self, moves: &[String]) -> Relay {
        let mut s = self.clone();
        for (i, text) in moves.iter().enumerate() {
            s = s
                .moves()
                .into_iter()
                .find(|(t, _)| t == text)
                .map(|(_, n)| n)
                .unwrap_or_else(|| panic!("oracle: move {} `{text}` is not legal", i + 1));
        }
        s
    }

    fn move_texts(&self) -> BTreeSet<String> {
        self.moves().into_iter().map(|(t, _)| t).collect()
    }
}

fn program(options: &[(String, String)]) -> rulestone::ir::Program {
    common::program(&common::root().join("tests/games/relay.game"), options)
}

fn moves(list: &str) -> Vec<String> {
    list.split(';')
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

fn engine_moves(engine: &mut Engine<'_>) -> BTreeSet<String> {
    let mut list = Vec::new();
    engine.legal_moves(&mut list);
    list.iter().map(|m| engine.move_text(m)).collect()
}

/// The engine's position in the oracle's terms: the board's runners, the flag's marker, the
/// bench track's per-cell counts, whose turn and how many turns were played.
fn observe(engine: &Engine<'_>) -> Relay {
    let program = engine.program();
    let cell = |x: i32, y: i32| {
        program
            .board
            .names
            .iter()
            .position(|n| *n == name(x, y))
            .unwrap_or_else(|| panic!("no cell {}", name(x, y)))
    };
    let mut s = Relay::start(u32::MAX);
    for x in 0..4 {
        for y in 1..=4 {
            s.field[index(x, y)] = engine.state.owner(cell(x, y));
        }
    }
    let flag: Vec<usize> = engine
        .markers()
        .into_iter()
        .find(|(n, _)| n == "F")
        .map(|(_, set)| set.iter().collect())
        .unwrap_or_default();
    assert_eq!(flag.len(), 1, "one flag");
    let names = &program.board.names;
    let flag = names[flag[0]].as_bytes();
    s.flag = (i32::from(flag[0] - b'a'), i32::from(flag[1] - b'1'));
    let base = program
        .layers
        .iter()
        .find(|(n, _)| n == "bench")
        .map(|(_, slot)| usize::from(*slot))
        .expect("the bench track's counts");
    for player in 0..2 {
        for x in 0..4 {
            let count = engine.state.counters[base + cell(x, bench_rank(player))];
            s.bench[usize::from(player)][usize::try_from(x).unwrap_or(0)] =
                u8::try_from(count).expect("a bench count");
        }
    }
    s.mover = engine.state.mover;
    s.turns = engine.state.ply;
    s
}

/// Asserts that the engine and the oracle agree on the position, the result and the moves.
fn assert_same(engine: &mut Engine<'_>, oracle: &Relay, context: &str) {
    let mut seen = observe(engine);
    seen.limit = oracle.limit;
    seen.winner = oracle.winner;
    if oracle.result().is_some() {
        // Whose turn it would be after the end is no part of the rules.
        seen.mover = oracle.mover;
    }
    assert_eq!(seen, *oracle, "{context}");
    assert_eq!(engine.outcome(), oracle.result(), "{context}");
    assert_eq!(engine_moves(engine), oracle.move_texts(), "{context}");
}

/// Plays `list` in the engine and the oracle from the start, checking every position.
fn replay(list: &str) -> Relay {
    let program = program(&[]);
    let mut engine = Engine::new(&program);
    let mut oracle = Relay::start(TURN_LIMIT);
    let list = moves(list);
    for (i, m) in list.iter().enumerate() {
        common::play_moves(&mut engine, std::slice::from_ref(m));
        oracle = oracle.play(std::slice::from_ref(m));
        assert_same(
            &mut engine,
            &oracle,
            &format!("after {}", list[..=i].join("; ")),
        );
    }
    oracle
}

#[test]
fn perft_matches_the_oracle() {
    let program = program(&[]);
    let mut engine = Engine::new(&program);
    for depth in 1..=6 {
        assert_eq!(
            perft(&mut engine, depth),
            Relay::start(TURN_LIMIT).perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_file_matches_the_oracle() {
    let path = common::root().join("tests/games/relay.perft");
    let cases = common::perft_cases(&path);
    assert!(cases.len() >= 14);
    for case in cases {
        let mut limit = TURN_LIMIT;
        for (n, v) in &case.options {
            assert_eq!(n, "turn_limit", "line {}", case.line);
            limit = v.parse().expect("a turn limit");
        }
        let oracle = Relay::start(limit).play(&case.after);
        assert_eq!(
            oracle.perft(case.depth),
            case.nodes,
            "{}:{}: the oracle",
            path.display(),
            case.line
        );
        let program = program(&case.options);
        let mut engine = Engine::new(&program);
        common::play_moves(&mut engine, &case.after);
        assert_eq!(
            perft(&mut engine, case.depth),
            case.nodes,
            "{}:{}: the engine",
            path.display(),
            case.line
        );
    }
}

#[test]
fn random_games_match_the_oracle() {
    let program = program(&[]);
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut list: Vec<Move> = Vec::new();
    let mut plies = 0;
    // What the games met: captures into a1, d1 and a6, returns, passes, Red wins, Blue wins,
    // draws.
    let mut seen = [0u32; 8];
    for _ in 0..200 {
        let mut undos = Vec::new();
        let mut oracle = Relay::start(TURN_LIMIT);
        let mut history: Vec<String> = Vec::new();
        loop {
            assert_same(
                &mut engine,
                &oracle,
                &format!("after {}", history.join("; ")),
            );
            engine.legal_moves(&mut list);
            if list.is_empty() {
                match oracle.result() {
                    Some(GameResult::Win(w)) => seen[5 + usize::from(w)] += 1,
                    _ => seen[7] += 1,
                }
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            let text = engine.move_text(&m);
            let next = oracle.play(std::slice::from_ref(&text));
            for (k, (p, x)) in [(0, 0), (0, 3), (1, 0)].into_iter().enumerate() {
                if next.bench[p][x] > oracle.bench[p][x] {
                    seen[k] += 1;
                }
            }
            if text.starts_with('+') {
                seen[3] += 1;
            }
            if text == "pass" {
                seen[4] += 1;
            }
            history.push(text);
            oracle = next;
            undos.push(engine.apply(&m));
            plies += 1;
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
    assert!(plies > 2000, "{plies} plies");
    assert!(seen.iter().all(|&n| n > 0), "not every rule met: {seen:?}");
}

#[test]
fn the_flag_follows_its_carrier_and_wins_on_the_far_rank() {
    let s = replay("a2-b2; a5-b5; b2-b3; d5-d4");
    // Standing on the flag's field does not move it.
    assert_eq!((s.flag, s.at(1, 2)), ((1, 2), Some(0)));
    let s = replay("a2-b2; a5-b5; b2-b3; d5-d4; b3-c3; d4-d5; c3-c4; b5-a5; d2-d3; a5-b5");
    assert_eq!((s.flag, s.at(2, 3)), ((2, 3), Some(0)));
    // Red's other runner reaches rank 5 without the flag: no win.
    let s = replay(
        "a2-b2; a5-b5; b2-b3; d5-d4; b3-c3; d4-d5; c3-c4; b5-a5; d2-d3; a5-b5; d3-d4; b5-a5; \
         d4xd5",
    );
    assert_eq!(s.result(), None);
    assert_eq!(s.bench[1][0], 1, "the Blue runner went to a6");
    // The carrier does.
    let s = replay(
        "a2-b2; a5-b5; b2-b3; d5-d4; b3-c3; d4-d5; c3-c4; b5-a5; d2-d3; a5-b5; d3-d4; b5-a5; \
         d4xd5; a5-b5; c4-c5",
    );
    assert_eq!((s.flag, s.result()), ((2, 4), Some(GameResult::Win(0))));
    // No bench step follows the win: Blue's captured runner stays on b6.
    assert_eq!(s.bench[1], [0, 1, 0, 0]);
}

#[test]
fn capturing_the_carrier_takes_the_flag() {
    let s = replay("a2-b2; a5-a4; b2-b3; a4-a3; d2-d3; a3xb3");
    // The flag stays on b3, now Blue's; the Red runner (b3 = (1, 2): 5 to a1, 8 to d1) is on a1.
    assert_eq!((s.flag, s.at(1, 2)), ((1, 2), Some(1)));
    assert_eq!(s.bench[0], [1, 0, 0, 0]);
    // The capturer carries it on, onto Red's home rank: Blue wins.
    let s = replay("a2-b2; a5-a4; b2-b3; a4-a3; d2-d3; a3xb3; d3-d4; b3-b2");
    assert_eq!((s.flag, s.result()), ((1, 1), Some(GameResult::Win(1))));
}

#[test]
fn capturing_the_carrier_on_its_home_rank_wins() {
    // Red carries the flag back to b2, its own home rank: nothing happens.
    let s = replay("a2-b2; a5-a4; b2-b3; a4-a3; b3-b2; a3-a2; d2-d3");
    assert_eq!((s.flag, s.at(1, 1), s.result()), ((1, 1), Some(0), None));
    // Blue captures it there, the flag staying on b2: that brings it onto Red's home rank.
    let s = replay("a2-b2; a5-a4; b2-b3; a4-a3; b3-b2; a3-a2; d2-d3; a2xb2");
    assert_eq!((s.flag, s.at(1, 1)), ((1, 1), Some(1)));
    assert_eq!(s.result(), Some(GameResult::Win(1)));
}

#[test]
fn captured_red_runners_enter_the_nearer_lane() {
    // Squared distances from a capture on (x, y) to a1 (0, 0) and d1 (3, 0) differ by 6x - 9,
    // never 0 on this board: files a and b are nearer a1, files c and d nearer d1, whatever the
    // rank. (No field is equally near both, so the tie rule, a1, never applies.)
    for (x, y) in [(1, 1), (1, 4), (2, 1), (2, 4)] {
        let (a1, d1) = (x * x + y * y, (x - 3) * (x - 3) + y * y);
        assert_eq!(Relay::entry(0, x, y), if x <= 1 { 0 } else { 3 });
        assert_ne!(a1, d1);
    }
    // On b3 (5 to a1, 8 to d1): a1.
    let s = replay("a2-b2; a5-a4; b2-b3; a4-a3; d2-d3; a3xb3");
    assert_eq!(s.bench[0], [1, 0, 0, 0]);
    // On c4 (13 to a1, 10 to d1): d1, even though rank 4 is as far from both.
    let s = replay("d2-c2; d5-c5; c2-c3; a5-b5; c3-c4; c5xc4");
    assert_eq!(s.bench[0], [0, 0, 0, 1]);
    // On b4 (10 to a1, 13 to d1): a1.
    let s = replay("a2-a3; a5-b5; a3-a4; d5-d4; a4-b4; b5xb4");
    assert_eq!(s.bench[0], [1, 0, 0, 0]);
    // On c2 (5 to a1, 2 to d1): d1.
    let s = replay("d2-c2; d5-d4; a2-a3; d4-d3; a3-a4; d3-d2; a4-b4; d2xc2");
    assert_eq!(s.bench[0], [0, 0, 0, 1]);
    // Both lanes take one Red turn: after Red's next move the runner waits on c1.
    let s = replay("d2-c2; d5-d4; a2-a3; d4-d3; a3-a4; d3-d2; a4-b4; d2xc2; b4-c4");
    assert_eq!(s.bench[0], [0, 0, 1, 0]);
}

#[test]
fn blue_lane_advances_one_field_per_blue_turn() {
    let start = "a2-a3; a5-a4; a3xa4";
    let s = replay(start);
    assert_eq!(s.bench[1], [1, 0, 0, 0]);
    let steps = ["d5-d4", "a4-a3", "d4-d3", "d2-c2", "d3-d4", "c2-b2"];
    let mut played = start.to_string();
    for (i, m) in steps.iter().enumerate() {
        played = format!("{played}; {m}");
        let s = replay(&played);
        // Blue's turns move it on; Red's do not.
        let blue_turns = i / 2 + 1;
        let mut lane = [0; 4];
        lane[blue_turns.min(3)] = 1;
        assert_eq!(s.bench[1], lane, "after {played}");
        let returns = s.move_texts().iter().filter(|t| t.starts_with('+')).count();
        let waiting = s.mover == 1 && lane[3] == 1;
        assert_eq!(returns, if waiting { 4 } else { 0 }, "after {played}");
    }
    // On d6 it stays until it returns.
    let s = replay(&format!("{played}; d4-c4; b2-b3"));
    assert_eq!(s.bench[1], [0, 0, 0, 1]);
    let s = replay(&format!("{played}; +b5"));
    assert_eq!((s.bench[1], s.at(1, 4)), ([0; 4], Some(1)));
}

#[test]
fn returns_only_from_a_lane_end_onto_an_empty_home_field() {
    // Captured on c4, the Red runner is on d1, the entry: no return yet.
    let s = replay("d2-c2; d5-c5; c2-c3; a5-b5; c3-c4; c5xc4");
    assert_eq!(
        s.move_texts(),
        moves("a2-a3; a2-b2").into_iter().collect::<BTreeSet<_>>()
    );
    // After Red's turn it waits on c1; Blue on c2 blocks one field of rank 2.
    let s = replay("d2-c2; d5-c5; c2-c3; a5-b5; c3-c4; c5xc4; a2-a3; c4-c3");
    assert_eq!(s.bench[0], [0, 0, 1, 0]);
    let s = replay("d2-c2; d5-c5; c2-c3; a5-b5; c3-c4; c5xc4; a2-a3; c4-c3; a3-a4; c3-c2");
    let returns: Vec<String> = s
        .move_texts()
        .into_iter()
        .filter(|t| t.starts_with('+'))
        .collect();
    assert_eq!(returns, moves("+a2; +b2; +d2"));
    let s = replay("d2-c2; d5-c5; c2-c3; a5-b5; c3-c4; c5xc4; a2-a3; c4-c3; a3-a4; c3-c2; +d2");
    assert_eq!((s.bench[0], s.at(3, 1)), ([0; 4], Some(0)));
}

#[test]
fn pass_only_when_there_is_nothing_else() {
    // Both Blue runners captured, neither at the end of the lane: Blue can only pass, and the
    // bench step still happens.
    let s = replay("a2-a3; a5-a4; a3xa4; d5-c5; a4-b4; c5-c4; b4xc4");
    assert_eq!(s.bench[1], [1, 0, 1, 0]);
    assert_eq!(s.move_texts(), moves("pass").into_iter().collect());
    let s = replay("a2-a3; a5-a4; a3xa4; d5-c5; a4-b4; c5-c4; b4xc4; pass");
    assert_eq!(s.bench[1], [0, 1, 0, 1]);
    // Next time one waits on d6: returns, no pass.
    let s = replay("a2-a3; a5-a4; a3xa4; d5-c5; a4-b4; c5-c4; b4xc4; pass; d2-d3");
    assert_eq!(
        s.move_texts(),
        moves("+a5; +b5; +c5; +d5").into_iter().collect()
    );
}

#[test]
fn the_turn_limit_draws() {
    let options = [("turn_limit".to_string(), "4".to_string())];
    let program = program(&options);
    let mut engine = Engine::new(&program);
    common::play_moves(&mut engine, &moves("a2-a3; a5-a4; d2-d3"));
    assert_eq!(engine.outcome(), None);
    common::play_moves(&mut engine, &moves("d5-d4"));
    assert_eq!(engine.outcome(), Some(GameResult::Draw));
    assert!(engine_moves(&mut engine).is_empty());
    let s = Relay::start(4).play(&moves("a2-a3; a5-a4; d2-d3; d5-d4"));
    assert_eq!((s.result(), s.perft(1)), (Some(GameResult::Draw), 0));
}
