//! `repetitions`, the game's history read by the rules, in two test games against independent
//! plain-Rust generators written only from the rules in each game's header comment, which keep
//! their own list of earlier positions: `tests/games/shuffle.game` (a repeated position draws)
//! and `tests/games/lift.game` (no move may recreate an earlier position), and
//! `tests/games/clocklift.game` (the same with a move counter and no arrangement of stones
//! twice whoever is to move: `repetitions ignore`). Perft from the start
//! and for every line of the games' `.perft` tables, seeded random games move for move, short
//! games worked by hand, and the history kept through undo and `--after`-style replays.

mod common;

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, GameResult, Move};

/// An independent generator: the legal moves in notation, each with the position it leads to.
trait Oracle: Sized + Clone {
    fn moves(&self) -> Vec<(String, Self)>;
    fn result(&self) -> Option<GameResult>;

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|(_, next)| next.perft(depth - 1))
            .sum()
    }

    fn play(&self, moves: &[String]) -> Self {
        let mut s = self.clone();
        for m in moves {
            s = s
                .moves()
                .into_iter()
                .find(|(text, _)| text == m)
                .unwrap_or_else(|| panic!("the oracle finds `{m}` illegal"))
                .1;
        }
        s
    }

    fn move_texts(&self) -> BTreeSet<String> {
        self.moves().into_iter().map(|(t, _)| t).collect()
    }
}

fn cell_name(x: i32, y: i32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + u8::try_from(x).unwrap_or(0)),
        y + 1
    )
}

// ---- Shuffle ------------------------------------------------------------------------------

/// Where the two kings stand (White's first).
type Kings = [(i32, i32); 2];

#[derive(Clone, Debug)]
struct Shuffle {
    kings: Kings,
    mover: u8,
    result: Option<GameResult>,
    repeats: usize,
    /// Every position of the game so far (kings, player to move), the start included.
    history: Vec<(Kings, u8)>,
}

impl Shuffle {
    fn start(repeats: usize) -> Shuffle {
        let kings = [(0, 0), (3, 3)];
        Shuffle {
            kings,
            mover: 0,
            result: None,
            repeats,
            history: vec![(kings, 0)],
        }
    }
}

impl Oracle for Shuffle {
    fn moves(&self) -> Vec<(String, Shuffle)> {
        if self.result.is_some() {
            return Vec::new();
        }
        let me = usize::from(self.mover);
        let (x, y) = self.kings[me];
        let mut out = Vec::new();
        for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let to = (x + dx, y + dy);
            if !(0..4).contains(&to.0) || !(0..4).contains(&to.1) || to == self.kings[1 - me] {
                continue;
            }
            let mut next = self.clone();
            next.kings[me] = to;
            let goal = if me == 0 { (3, 3) } else { (0, 0) };
            let after = (next.kings, 1 - self.mover);
            if to == goal {
                next.result = Some(GameResult::Win(self.mover));
            } else if 1 + self.history.iter().filter(|p| **p == after).count() >= self.repeats {
                next.result = Some(GameResult::Draw);
            } else {
                next.mover = 1 - self.mover;
            }
            next.history.push(after);
            out.push((
                format!("{}-{}", cell_name(x, y), cell_name(to.0, to.1)),
                next,
            ));
        }
        out
    }

    fn result(&self) -> Option<GameResult> {
        self.result.or_else(|| {
            // A player who cannot move loses.
            self.moves()
                .is_empty()
                .then_some(GameResult::Win(1 - self.mover))
        })
    }
}

// ---- Lift ---------------------------------------------------------------------------------

/// The 3 by 3 board, index `x * 3 + y` (board order): 0 empty, 1 X, 2 O.
type Board = [u8; 9];

const LINES: [[usize; 3]; 8] = [
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Debug)]
struct Lift {
    board: Board,
    mover: u8,
    result: Option<GameResult>,
    /// Whether a move may not recreate an earlier position (off: the same game without it).
    superko: bool,
    /// Clock Lift: stones may also slide, and positions compare by their stones only, whoever
    /// is to move.
    board_only: bool,
    /// The number of moves after which the game is drawn (Clock Lift), and the moves made.
    limit: Option<u32>,
    plies: u32,
    /// Every position of the game so far (stones, player to move or 0 with `board_only`), the
    /// start included.
    history: Vec<(Board, u8)>,
}

impl Lift {
    fn start(superko: bool) -> Lift {
        Lift {
            board: [0; 9],
            mover: 0,
            result: None,
            superko,
            board_only: false,
            limit: None,
            plies: 0,
            history: vec![([0; 9], 0)],
        }
    }

    /// Clock Lift (`tests/games/clocklift.game`) with its `limit` option.
    fn clock(superko: bool, options: &[(String, String)]) -> Lift {
        let mut limit = 12;
        for (n, v) in options {
            assert_eq!(n, "limit");
            limit = v.parse().expect("a number of moves");
        }
        Lift {
            board_only: true,
            limit: Some(limit),
            ..Lift::start(superko)
        }
    }

    fn name(i: usize) -> String {
        let i = i32::try_from(i).unwrap_or(0);
        cell_name(i / 3, i % 3)
    }

    /// The position after changing one cell, if the superko rule allows it.
    fn after(&self, cell: usize, stone: u8, text: String) -> Option<(String, Lift)> {
        self.after_changes(&[(cell, stone)], text)
    }

    /// The position after changing cells (the last one filled by a put or a slide), if the
    /// superko rule allows it.
    fn after_changes(&self, changes: &[(usize, u8)], text: String) -> Option<(String, Lift)> {
        let mut next = self.clone();
        for &(c, s) in changes {
            next.board[c] = s;
        }
        let &(cell, stone) = changes.last()?;
        next.plies += 1;
        let key = (next.board, if self.board_only { 0 } else { 1 - self.mover });
        if self.superko && self.history.contains(&key) {
            return None;
        }
        let mine = self.mover + 1;
        if stone == mine
            && LINES
                .iter()
                .any(|l| l.contains(&cell) && l.iter().all(|&c| next.board[c] == mine))
        {
            next.result = Some(GameResult::Win(self.mover));
        } else if self.limit.is_some_and(|limit| next.plies >= limit) {
            next.result = Some(GameResult::Draw);
        } else {
            next.mover = 1 - self.mover;
        }
        next.history.push(key);
        Some((text, next))
    }
}

impl Oracle for Lift {
    fn moves(&self) -> Vec<(String, Lift)> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mine = self.mover + 1;
        let puts = (0..9)
            .filter(|&c| self.board[c] == 0)
            .filter_map(|c| self.after(c, mine, Lift::name(c)));
        let lifts = (0..9)
            .filter(|&c| self.board[c] == mine)
            .filter_map(|c| self.after(c, 0, format!("^{}", Lift::name(c))));
        let slides = (0..9usize)
            .filter(|&c| self.board_only && self.board[c] == mine)
            .flat_map(|c| {
                let (x, y) = (c / 3, c % 3);
                let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)];
                steps.into_iter().filter_map(move |(dx, dy)| {
                    let (nx, ny) = (x.checked_add_signed(dx)?, y.checked_add_signed(dy)?);
                    (nx < 3 && ny < 3).then_some((c, nx * 3 + ny))
                })
            })
            .filter(|&(_, n)| self.board[n] == 0)
            .filter_map(|(c, n)| {
                let text = format!("{}-{}", Lift::name(c), Lift::name(n));
                self.after_changes(&[(c, 0), (n, mine)], text)
            });
        puts.chain(lifts).chain(slides).collect()
    }

    fn result(&self) -> Option<GameResult> {
        self.result.or_else(|| {
            self.moves()
                .is_empty()
                .then_some(GameResult::Win(1 - self.mover))
        })
    }
}

// ---- the engine against the oracles --------------------------------------------------------

fn program(game: &str, options: &[(String, String)]) -> rulestone::ir::Program {
    common::program(
        &common::root().join(format!("tests/games/{game}.game")),
        options,
    )
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

fn shuffle_oracle(options: &[(String, String)]) -> Shuffle {
    let mut repeats = 3;
    for (n, v) in options {
        assert_eq!(n, "repeats");
        repeats = v.parse().expect("a number of repeats");
    }
    Shuffle::start(repeats)
}

#[test]
fn shuffle_perft_matches_the_oracle() {
    for repeats in [2usize, 3] {
        let options = [("repeats".to_string(), repeats.to_string())];
        let program = program("shuffle", &options);
        let mut engine = Engine::new(&program);
        for depth in 1..=9 {
            assert_eq!(
                perft(&mut engine, depth),
                Shuffle::start(repeats).perft(depth),
                "repeats={repeats}, depth {depth}"
            );
        }
    }
}

#[test]
fn lift_perft_matches_the_oracle() {
    let program = program("lift", &[]);
    let mut engine = Engine::new(&program);
    for depth in 1..=5 {
        assert_eq!(
            perft(&mut engine, depth),
            Lift::start(true).perft(depth),
            "depth {depth}"
        );
    }
}

/// Every line of a game's `.perft` table agrees with the oracle, and at least one line counts
/// differently from the same game without its history rule (`plain`), so the table tests it.
fn check_table<O: Oracle>(
    game: &str,
    oracle: impl Fn(&[(String, String)]) -> O,
    plain: impl Fn(&[(String, String)]) -> O,
) {
    let path = common::root().join(format!("tests/games/{game}.perft"));
    let cases = common::perft_cases(&path);
    assert!(cases.len() >= 4, "{}: too few lines", path.display());
    let mut changed = 0;
    for case in cases {
        let at = format!("{}:{}", path.display(), case.line);
        let expected = oracle(&case.options).play(&case.after).perft(case.depth);
        assert_eq!(expected, case.nodes, "{at}: the oracle");
        let program = program(game, &case.options);
        let mut engine = Engine::new(&program);
        common::play_moves(&mut engine, &case.after);
        assert_eq!(
            perft(&mut engine, case.depth),
            case.nodes,
            "{at}: the engine"
        );
        if plain(&case.options).play(&case.after).perft(case.depth) != case.nodes {
            changed += 1;
        }
    }
    assert!(
        changed >= 2,
        "{game}: the history rule changes {changed} lines"
    );
}

#[test]
fn perft_tables_match_the_oracles() {
    check_table("shuffle", shuffle_oracle, |_| Shuffle::start(usize::MAX));
    check_table("lift", |_| Lift::start(true), |_| Lift::start(false));
    check_table(
        "clocklift",
        |o| Lift::clock(true, o),
        |o| Lift::clock(false, o),
    );
}

#[test]
fn clock_lift_perft_matches_the_oracle() {
    for limit in [6u32, 12] {
        let options = [("limit".to_string(), limit.to_string())];
        let program = program("clocklift", &options);
        let mut engine = Engine::new(&program);
        for depth in 1..=6 {
            assert_eq!(
                perft(&mut engine, depth),
                Lift::clock(true, &options).perft(depth),
                "limit={limit}, depth {depth}"
            );
        }
    }
}

/// `repetitions ignore mover` matters: some line of Clock Lift counts differently when the
/// player to move is part of the position, and the engine agrees with the board-only count.
#[test]
fn an_arrangement_with_the_other_player_to_move_counts_too() {
    // The slides, which keep the number of stones, let an arrangement come back with the other
    // player to move.
    let with_mover = |o: &[(String, String)]| Lift {
        board_only: false,
        ..Lift::clock(true, o)
    };
    let cases = common::perft_cases(&common::root().join("tests/games/clocklift.perft"));
    let differs = cases.iter().any(|case| {
        with_mover(&case.options)
            .play(&case.after)
            .perft(case.depth)
            != Lift::clock(true, &case.options)
                .play(&case.after)
                .perft(case.depth)
    });
    assert!(differs, "no line of clocklift.perft tells the two apart");
}

/// Seeded random games, move for move: the same moves and results in every position, and the
/// whole game taken back restores the start and its history.
fn random_games<O: Oracle>(
    program: &rulestone::ir::Program,
    start: &O,
    games: u32,
    seed: u64,
) -> [u32; 3] {
    let mut engine = Engine::new(program);
    let start_history = engine.history().to_vec();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list: Vec<Move> = Vec::new();
    // Games won by each player, and drawn.
    let mut ends = [0u32; 3];
    for _ in 0..games {
        let mut oracle = start.clone();
        let mut undos = Vec::new();
        let mut line: Vec<String> = Vec::new();
        loop {
            let context = format!("after {}", line.join("; "));
            assert_eq!(engine_moves(&mut engine), oracle.move_texts(), "{context}");
            assert_eq!(engine.outcome(), oracle.result(), "{context}");
            assert_eq!(engine.history().len(), line.len() + 1, "{context}");
            engine.legal_moves(&mut list);
            if list.is_empty() {
                match oracle.result() {
                    Some(GameResult::Win(w)) => ends[usize::from(w)] += 1,
                    _ => ends[2] += 1,
                }
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            let text = engine.move_text(&m);
            oracle = oracle.play(std::slice::from_ref(&text));
            line.push(text);
            undos.push(engine.apply(&m));
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
        assert_eq!(engine.history(), &start_history[..]);
    }
    ends
}

#[test]
fn random_games_match_the_oracles() {
    for repeats in [2usize, 3] {
        let options = [("repeats".to_string(), repeats.to_string())];
        let ends = random_games(
            &program("shuffle", &options),
            &Shuffle::start(repeats),
            100,
            3,
        );
        assert!(ends.iter().all(|&n| n > 0), "repeats={repeats}: {ends:?}");
    }
    let ends = random_games(&program("lift", &[]), &Lift::start(true), 100, 5);
    assert!(ends[0] > 0 && ends[1] > 0, "{ends:?}");
    let ends = random_games(&program("clocklift", &[]), &Lift::clock(true, &[]), 100, 7);
    assert!(ends.iter().all(|&n| n > 0), "{ends:?}");
}

#[test]
fn the_third_time_a_position_stands_draws() {
    let program = program("shuffle", &[]);
    let mut engine = Engine::new(&program);
    let there_and_back = moves("a1-a2; d4-d3; a2-a1; d3-d4");
    common::play_moves(&mut engine, &there_and_back);
    assert_eq!(engine.outcome(), None, "the start stood twice");
    common::play_moves(&mut engine, &there_and_back[..3]);
    let mut list = Vec::new();
    engine.legal_moves(&mut list);
    let back = list
        .iter()
        .copied()
        .find(|m| engine.move_text(m) == "d3-d4")
        .expect("d3-d4 is legal");
    let undo = engine.apply(&back);
    assert_eq!(
        engine.outcome(),
        Some(GameResult::Draw),
        "the start stood three times"
    );
    engine.undo(undo);
    assert_eq!(engine.outcome(), None, "undo takes the third time back");
    // The same position reached by another path counts too: d3-c3, a1-a2, c3-d3 brings back
    // the position after d4-d3 (its third time: after ply 2, after ply 6, and now).
    common::play_moves(&mut engine, &moves("d3-c3; a1-a2"));
    assert_eq!(engine.outcome(), None);
    common::play_moves(&mut engine, &moves("c3-d3"));
    assert_eq!(engine.outcome(), Some(GameResult::Draw));
}

#[test]
fn a_move_may_not_recreate_an_earlier_position() {
    let program = program("lift", &[]);
    let mut engine = Engine::new(&program);
    common::play_moves(&mut engine, &moves("a1; b1; ^a1"));
    // Lifting b1 would bring back the empty board with X to move: the start.
    assert!(!engine_moves(&mut engine).contains("^b1"));
    assert!(engine_moves(&mut engine).contains("a1"), "a1 is free again");
    common::play_moves(&mut engine, &moves("c3; a1"));
    // O lifting c3 would recreate the position after `a1; b1`.
    assert!(!engine_moves(&mut engine).contains("^c3"));
    assert!(engine_moves(&mut engine).contains("^b1"));
}
