//! The exact solver (`agents::solve`, `rulestone solve`) against independent answers:
//!
//! - an oracle that lists every position reachable through [`Game`] and solves them backwards
//!   (retrograde analysis: wins and losses by rounds of distance, what is left is a draw), on
//!   random graph games full of cycles (with tables small enough to force replacement), on
//!   Tic-tac-toe, on small Connect Four boards and on `tests/games/orbit.game`, at every
//!   position; choices by another player (`pick ... by`) against a plain minimax over the
//!   parts on `tests/games/nudge.game`;
//! - positions worked by hand (`--after`), the draw by endless play of Orbit, and the command
//!   line: its output (a snapshot), JSON, and the games it refuses.
//!
//! Snapshots live in `snapshots/cli/`; update them with `INSTA_UPDATE=always cargo test --test
//! solve`, then read `git diff snapshots/`.

use std::collections::{HashMap, VecDeque};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use rulestone::agents::solve::{LineEnd, Solution, SolveConfig, SolveError, Solver, Value};
use rulestone::runtime::{BoardGame, Engine, Game, GameResult};

mod common;

const WIN: i64 = 1 << 40;

// ---- the oracle ---------------------------------------------------------------------------------

/// Every position reachable from a start, with its moves: what the oracle solves.
struct Graph {
    keys: Vec<u64>,
    /// The decisions (indices in listing order) that lead from the start to each position.
    paths: Vec<Vec<usize>>,
    mover: Vec<u8>,
    end: Vec<Option<GameResult>>,
    /// Each decision's position, and whether its player to move is the same.
    children: Vec<Vec<(usize, bool)>>,
    /// Each decision's parts when another player chooses some (`pick ... by`).
    parts: Vec<Vec<Vec<(u8, String)>>>,
}

/// Lists every position reachable from the game's position, breadth first (at most `limit`).
fn explore<G: Game>(game: &mut G, limit: usize) -> Graph {
    let mut g = Graph {
        keys: Vec::new(),
        paths: Vec::new(),
        mover: Vec::new(),
        end: Vec::new(),
        children: Vec::new(),
        parts: Vec::new(),
    };
    let mut index: HashMap<u64, usize> = HashMap::new();
    let root = game.position_key().expect("a position key");
    index.insert(root, 0);
    g.keys.push(root);
    g.paths.push(Vec::new());
    let mut queue = VecDeque::from([0usize]);
    while let Some(v) = queue.pop_front() {
        assert!(g.keys.len() <= limit, "more than {limit} positions");
        let path = g.paths[v].clone();
        replay(game, &path);
        let mut open = Vec::new();
        assert!(game.decisions(&mut open));
        let me = game.to_move();
        g.mover.push(me);
        g.end.push(if open.is_empty() {
            Some(game.outcome().expect("a result"))
        } else {
            None
        });
        let mut children = Vec::new();
        let mut parts = Vec::new();
        for (i, d) in open.iter().enumerate() {
            parts.push(game.decision_parts(d));
            game.apply(d);
            let key = game.position_key().expect("a position key");
            let same = game.to_move() == me;
            let c = *index.entry(key).or_insert_with(|| {
                g.keys.push(key);
                let mut p = path.clone();
                p.push(i);
                g.paths.push(p);
                queue.push_back(g.keys.len() - 1);
                g.keys.len() - 1
            });
            children.push((c, same));
            game.undo();
        }
        g.children.push(children);
        g.parts.push(parts);
        for _ in &path {
            game.undo();
        }
    }
    g
}

/// Plays decisions given by their index in the listing order.
fn replay<G: Game>(game: &mut G, path: &[usize]) {
    for &i in path {
        let mut open = Vec::new();
        game.decisions(&mut open);
        game.apply(&open[i]);
    }
}

/// A score as the oracle keeps it: `WIN - d` a win in `d`, `-(WIN - d)` a loss, 0 a draw.
fn terminal_score(result: GameResult, me: u8) -> i64 {
    match result {
        GameResult::Win(p) if p == me => WIN,
        GameResult::Win(_) => -WIN,
        GameResult::Draw => 0,
    }
}

fn backed(child: i64, same: bool) -> i64 {
    let further = child - child.signum();
    if same {
        further
    } else {
        -further
    }
}

/// Retrograde analysis: in round `r`, a position with a move to a position won for it (as
/// the previous rounds settled) wins in `r`; one whose moves all lose loses in `r`. Whatever no
/// round settles is a draw: neither side can force the end.
fn retrograde(g: &Graph) -> Vec<i64> {
    let n = g.keys.len();
    let mut score: Vec<Option<i64>> = (0..n)
        .map(|v| g.end[v].map(|r| terminal_score(r, g.mover[v])))
        .collect();
    loop {
        let mut settled = Vec::new();
        for v in 0..n {
            if score[v].is_some() {
                continue;
            }
            let known: Vec<Option<i64>> = g.children[v]
                .iter()
                .map(|&(c, same)| score[c].map(|s| backed(s, same)))
                .collect();
            if let Some(win) = known.iter().flatten().filter(|&&s| s > 0).max() {
                settled.push((v, *win));
            } else if known.iter().all(|s| s.is_some_and(|s| s < 0)) {
                settled.push((v, known.iter().flatten().copied().max().unwrap_or(-WIN)));
            }
        }
        if settled.is_empty() {
            break;
        }
        for (v, s) in settled {
            score[v] = Some(s);
        }
    }
    score.into_iter().map(|s| s.unwrap_or(0)).collect()
}

/// Plain minimax with memory for games without cycles, choices by other players played out
/// part by part (the mover takes its best option, anyone else the mover's worst).
fn minimax(g: &Graph) -> Vec<i64> {
    fn value(g: &Graph, v: usize, memo: &mut Vec<Option<i64>>) -> i64 {
        if let Some(s) = memo[v] {
            assert!(s != i64::MIN, "a cycle through {:?}", g.paths[v]);
            return s;
        }
        memo[v] = Some(i64::MIN);
        let s = match g.end[v] {
            Some(r) => terminal_score(r, g.mover[v]),
            None => {
                let scores: Vec<i64> = g.children[v]
                    .iter()
                    .map(|&(c, same)| backed(value(g, c, memo), same))
                    .collect();
                let all: Vec<usize> = (0..scores.len()).collect();
                by_parts(&g.parts[v], &scores, g.mover[v], &all, 0)
            }
        };
        memo[v] = Some(s);
        s
    }
    let mut memo = vec![None; g.keys.len()];
    (0..g.keys.len()).map(|v| value(g, v, &mut memo)).collect()
}

fn by_parts(parts: &[Vec<(u8, String)>], scores: &[i64], me: u8, of: &[usize], k: usize) -> i64 {
    let chooser = of.iter().find_map(|&i| parts[i].get(k).map(|p| p.0));
    match chooser {
        Some(who) if of.len() > 1 => {
            let mut options: Vec<&str> = Vec::new();
            for &i in of {
                let t = parts[i].get(k).map_or("", |p| p.1.as_str());
                if !options.contains(&t) {
                    options.push(t);
                }
            }
            let values = options.iter().map(|o| {
                let group: Vec<usize> = of
                    .iter()
                    .copied()
                    .filter(|&i| parts[i].get(k).map_or("", |p| p.1.as_str()) == *o)
                    .collect();
                by_parts(parts, scores, me, &group, k + 1)
            });
            if who == me {
                values.max().unwrap_or(0)
            } else {
                values.min().unwrap_or(0)
            }
        }
        _ => of.iter().map(|&i| scores[i]).max().unwrap_or(0),
    }
}

fn oracle_value(score: i64) -> (Value, u32) {
    let d = u32::try_from(WIN - score.abs()).unwrap_or(0);
    match score.signum() {
        1 => (Value::Win, d),
        -1 => (Value::Loss, d),
        _ => (Value::Draw, 0),
    }
}

/// Solves every position of the graph (or every `step`-th) with `solver` and compares with the
/// oracle's scores: value, distance, and a principal variation that keeps the value.
fn check_positions<G: Game>(
    game: &mut G,
    g: &Graph,
    scores: &[i64],
    solver: &mut Solver<G>,
    step: usize,
    label: &str,
) where
    G::Decision: std::hash::Hash + Eq,
{
    let index: HashMap<u64, usize> = g.keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    for v in (0..g.keys.len()).step_by(step.max(1)) {
        replay(game, &g.paths[v]);
        let solved = solver
            .solve(game)
            .unwrap_or_else(|e| panic!("{label}: position {v}: {e}"));
        assert_eq!(game.position_key(), Some(g.keys[v]), "{label}: game moved");
        let (value, distance) = oracle_value(scores[v]);
        assert_eq!(
            solved.value, value,
            "{label}: position {v} {:?}",
            g.paths[v]
        );
        if value != Value::Draw {
            assert_eq!(
                solved.distance, distance,
                "{label}: position {v} {:?}",
                g.paths[v]
            );
            assert_eq!(solved.line.len() as u32, distance, "{label}: position {v}");
        }
        check_line(game, &solved, scores, &index, label);
        for _ in &g.paths[v] {
            game.undo();
        }
    }
}

/// The principal variation moves from position to position of the same oracle score (passed
/// up one decision), and ends as the solution says.
fn check_line<G: Game>(
    game: &mut G,
    solved: &Solution<G::Decision>,
    scores: &[i64],
    index: &HashMap<u64, usize>,
    label: &str,
) {
    let at = |game: &G| index[&game.position_key().expect("a key")];
    let mut score = scores[at(game)];
    for (d, text) in &solved.line {
        assert_eq!(&game.text(d), text, "{label}");
        let me = game.to_move();
        game.apply(d);
        let next = scores[at(game)];
        assert_eq!(backed(next, game.to_move() == me), score, "{label}: {text}");
        score = next;
    }
    match solved.end {
        LineEnd::Over(r) => assert_eq!(game.outcome(), Some(r), "{label}"),
        LineEnd::Repeats { after } => {
            assert_eq!(score, 0, "{label}: a repetition ends a draw");
            assert!(after < solved.line.len(), "{label}");
        }
    }
    for _ in &solved.line {
        game.undo();
    }
}

fn solver<G: Game>(bytes: usize) -> Solver<G>
where
    G::Decision: std::hash::Hash + Eq,
{
    Solver::new(&SolveConfig { table_bytes: bytes }).expect("a table")
}

// ---- random graph games -----------------------------------------------------------------------

/// A game given as a graph: each position has a player to move and either a result or moves
/// to other positions (cycles welcome; some moves keep the same player to move).
struct GraphGame {
    mover: Vec<u8>,
    end: Vec<Option<GameResult>>,
    moves: Vec<Vec<usize>>,
    at: usize,
    trail: Vec<usize>,
    /// A position whose decisions are continuous (cannot be listed).
    continuous: Option<usize>,
}

impl GraphGame {
    fn random(rng: &mut ChaCha8Rng, n: usize) -> GraphGame {
        let mut g = GraphGame {
            mover: Vec::new(),
            end: Vec::new(),
            moves: Vec::new(),
            at: 0,
            trail: Vec::new(),
            continuous: None,
        };
        for v in 0..n {
            let end = (v > 0 && rng.gen_bool(0.2)).then(|| match rng.gen_range(0..3) {
                0 => GameResult::Win(0),
                1 => GameResult::Win(1),
                _ => GameResult::Draw,
            });
            g.mover.push(rng.gen_range(0..2));
            g.end.push(end);
            let count = if end.is_some() {
                0
            } else {
                rng.gen_range(1..4)
            };
            g.moves
                .push((0..count).map(|_| rng.gen_range(0..n)).collect());
        }
        g
    }
}

impl Game for GraphGame {
    type Decision = usize;

    fn player_name(&self, player: u8) -> String {
        format!("P{player}")
    }

    fn to_move(&self) -> u8 {
        self.mover[self.at]
    }

    fn outcome(&mut self) -> Option<GameResult> {
        self.end[self.at]
    }

    fn decisions(&mut self, out: &mut Vec<usize>) -> bool {
        out.clear();
        if self.continuous == Some(self.at) {
            return false;
        }
        out.extend(0..self.moves[self.at].len());
        true
    }

    fn chance(&mut self) -> bool {
        false
    }

    fn decisions_text(&mut self) -> Vec<String> {
        (0..self.moves[self.at].len())
            .map(|i| format!("m{i}"))
            .collect()
    }

    fn sample(&mut self, _rng: &mut ChaCha8Rng) -> Option<usize> {
        None
    }

    fn apply(&mut self, decision: &usize) {
        self.trail.push(self.at);
        self.at = self.moves[self.at][*decision];
    }

    fn undo(&mut self) -> bool {
        match self.trail.pop() {
            Some(v) => {
                self.at = v;
                true
            }
            None => false,
        }
    }

    fn text(&mut self, decision: &usize) -> String {
        format!("m{decision}")
    }

    fn parse(&mut self, text: &str) -> Result<usize, String> {
        text.trim_start_matches('m')
            .parse()
            .map_err(|e| format!("{e}"))
    }

    fn position_key(&self) -> Option<u64> {
        // Spread like a Zobrist key (splitmix64).
        let mut z = (self.at as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Some(z ^ (z >> 31))
    }
}

/// Solves every position of a graph game with one solver per table size, against the oracle.
fn check_graph(game: &mut GraphGame, label: &str) -> usize {
    let g = explore(game, 1000);
    let scores = retrograde(&g);
    // A large table, and one of two buckets that must keep replacing.
    for bytes in [1 << 20, 2 * 4 * 24] {
        let mut s = solver(bytes);
        check_positions(game, &g, &scores, &mut s, 1, label);
    }
    g.keys.len()
}

fn graph(mover: &[u8], end: &[Option<GameResult>], moves: &[&[usize]]) -> GraphGame {
    GraphGame {
        mover: mover.to_vec(),
        end: end.to_vec(),
        moves: moves.iter().map(|m| m.to_vec()).collect(),
        at: 0,
        trail: Vec::new(),
        continuous: None,
    }
}

/// Found by the random test: deepening kept testing longer wins, because the table's bounds
/// stood in for the rest of every line and no line ever came back to a position. It must
/// stop and leave the value to the search that scores repetitions.
#[test]
fn deepening_stops_where_the_table_hides_the_cycles() {
    let mut game = graph(
        &[
            1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 0,
        ],
        &[None; 26],
        &[
            &[23],
            &[17],
            &[3],
            &[10, 1, 4],
            &[5, 18],
            &[16, 25, 17],
            &[8],
            &[17, 1],
            &[2, 17],
            &[22, 5, 3],
            &[2],
            &[13, 1],
            &[23],
            &[9, 5, 9],
            &[24, 18, 8],
            &[15],
            &[10, 4],
            &[5, 14, 7],
            &[10, 24],
            &[21, 4, 4],
            &[22, 11],
            &[16, 13, 13],
            &[24, 16, 16],
            &[11, 20, 24],
            &[2],
            &[19, 10, 5],
        ],
    );
    check_graph(&mut game, "no position ever ends");
}

/// Found by the random test: a line that repeats a position the table already settled must
/// still count as a line that came back, or deepening never stops.
#[test]
fn deepening_notices_cycles_the_table_settles() {
    use GameResult::Draw;
    let mut game = graph(
        &[1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1],
        &[
            None,
            None,
            None,
            None,
            None,
            Some(Draw),
            None,
            None,
            None,
            Some(Draw),
            None,
            Some(Draw),
            None,
            Some(Draw),
            None,
        ],
        &[
            &[5, 4, 7],
            &[6],
            &[0, 7],
            &[1, 1, 14],
            &[3, 13, 12],
            &[],
            &[4, 11, 11],
            &[3, 10],
            &[7],
            &[],
            &[10, 2, 4],
            &[],
            &[7, 9, 8],
            &[],
            &[4, 0, 5],
        ],
    );
    check_graph(&mut game, "a cycle behind the table");
}

#[test]
fn random_graph_games_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    for round in 0..400 {
        let n = rng.gen_range(2..30);
        let mut game = GraphGame::random(&mut rng, n);
        checked += check_graph(&mut game, &format!("graph {round}"));
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn a_fresh_solver_per_position_agrees_with_a_shared_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for round in 0..100 {
        let mut game = GraphGame::random(&mut rng, 40);
        let g = explore(&mut game, 1000);
        let scores = retrograde(&g);
        for (path, &score) in g.paths.iter().zip(&scores).take(g.keys.len()) {
            replay(&mut game, path);
            let mut s = solver(1 << 16);
            let solved = s.solve(&mut game).expect("solved");
            assert_eq!(solved.value, oracle_value(score).0, "graph {round}");
            for _ in path {
                game.undo();
            }
        }
    }
}

// ---- real games --------------------------------------------------------------------------------

fn program(file: &str, sets: &[(&str, &str)]) -> rulestone::ir::Program {
    let sets: Vec<(String, String)> = sets
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    common::program(&common::root().join(file), &sets)
}

/// Every `step`-th position reachable in a board game, solved and compared with the oracle.
fn check_board_game(file: &str, sets: &[(&str, &str)], limit: usize, step: usize) {
    let program = program(file, sets);
    let mut game = BoardGame::new(Engine::new(&program));
    let g = explore(&mut game, limit);
    let scores = if g.parts.iter().flatten().any(|p| p.len() > 1) {
        minimax(&g)
    } else {
        retrograde(&g)
    };
    let mut s = solver(64 << 20);
    check_positions(&mut game, &g, &scores, &mut s, step, file);
}

#[test]
fn tictactoe_matches_the_oracle_everywhere() {
    check_board_game("games/tictactoe.game", &[], 10_000, 1);
}

#[test]
fn orbit_matches_the_oracle_everywhere() {
    check_board_game("tests/games/orbit.game", &[], 1_000, 1);
    check_board_game("tests/games/orbit.game", &[("runners", "2")], 10_000, 1);
    check_board_game(
        "tests/games/orbit.game",
        &[("side", "4"), ("runners", "2")],
        10_000,
        7,
    );
}

#[test]
fn connect_four_4x4_matches_the_oracle() {
    check_board_game(
        "games/connect4.game",
        &[("width", "4"), ("height", "4")],
        1_000_000,
        97,
    );
}

/// Pylos on the smallest pyramid that plays (base 3, reserves of 5: fewer balls than the 14
/// cells), where take-backs in the standard variant make positions repeat.
#[test]
fn pylos_base_3_matches_the_oracle() {
    let pylos = |variant| [("base", "3"), ("variant", variant), ("reserve", "5")];
    check_board_game("games/pylos.game", &pylos("basic"), 100_000, 7);
    check_board_game("games/pylos.game", &pylos("standard"), 100_000, 97);
}

/// The advanced variant repeats positions far more (a take-back after every row); its draws
/// take the solver a minute.
#[test]
#[ignore]
fn pylos_base_3_advanced_matches_the_oracle() {
    let sets = [("base", "3"), ("variant", "advanced"), ("reserve", "5")];
    check_board_game("games/pylos.game", &sets, 100_000, 2_003);
}

#[test]
fn choices_by_the_opponent_match_a_minimax_over_the_parts() {
    check_board_game("tests/games/nudge.game", &[], 100_000, 1);
}

/// Solves a board game's position after `after` (moves in notation, `;` between them).
fn solve(file: &str, sets: &[(&str, &str)], after: &str) -> (Value, u32, Vec<String>, LineEnd) {
    let program = program(file, sets);
    let mut engine = Engine::new(&program);
    let moves: Vec<String> = after
        .split(';')
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect();
    common::play_moves(&mut engine, &moves);
    let mut game = BoardGame::new(engine);
    let mut s = solver(64 << 20);
    let solved = s.solve(&mut game).expect("solved");
    let line = solved.line.iter().map(|(_, t)| t.clone()).collect();
    (solved.value, solved.distance, line, solved.end)
}

#[test]
fn tictactoe_is_a_draw() {
    let (value, distance, line, end) = solve("games/tictactoe.game", &[], "");
    assert_eq!(value, Value::Draw);
    // Every draw fills the board.
    assert_eq!((distance, line.len()), (9, 9));
    assert_eq!(end, LineEnd::Over(GameResult::Draw));
}

/// X on a1, O on the edge next to it (b1): X takes the centre, threatening c3; O must block;
/// X plays a3, threatening a2 and c1 at once, and wins on its next move: 5 decisions. No win is
/// quicker: two more X stones can make a line with a1 only if O leaves one open.
#[test]
fn tictactoe_a_won_position_after_two_moves() {
    let (value, distance, line, end) = solve("games/tictactoe.game", &[], "a1; b1");
    assert_eq!((value, distance), (Value::Win, 5), "{line:?}");
    assert_eq!(end, LineEnd::Over(GameResult::Win(0)));
}

/// Then with X on the centre, O to move loses: blocking c3 holds out longest, and X's fork
/// (a3) then wins in 4 decisions in all.
#[test]
fn tictactoe_a_lost_position_after_three_moves() {
    let (value, distance, line, _) = solve("games/tictactoe.game", &[], "a1; b1; b2");
    assert_eq!((value, distance), (Value::Loss, 4), "{line:?}");
    assert_eq!(line.first().map(String::as_str), Some("c3"));
}

/// Orbit with one runner each is a draw by endless play (the argument is in the game file),
/// and the principal variation ends where a position comes back.
#[test]
fn orbit_is_a_draw_by_endless_play() {
    for side in ["3", "4", "5"] {
        let (value, _, line, end) = solve("tests/games/orbit.game", &[("side", side)], "");
        assert_eq!(value, Value::Draw, "side {side}");
        assert!(
            matches!(end, LineEnd::Repeats { .. }),
            "side {side}: {line:?}"
        );
    }
    // A runner that steps next to the enemy runner is captured at once.
    let (value, distance, line, _) = solve("tests/games/orbit.game", &[], "a1-b1; c3-c2; b1-c1");
    assert_eq!((value, distance), (Value::Win, 1));
    assert_eq!(line, ["c2xc1"]);
}

/// Nudge, after `b2xb3/a2` (see the game file): Black nudges b2 next to a2, and whichever of
/// a1 and a3 White puts it back on is a corner: Black wins in one decision, White choosing.
#[test]
fn nudge_a_win_whatever_the_opponent_chooses() {
    let (value, distance, line, _) = solve("tests/games/nudge.game", &[], "b2xb3/a2");
    assert_eq!((value, distance), (Value::Win, 1), "{line:?}");
}

#[test]
fn connect_four_small_boards() {
    let (value, _, line, end) = solve(
        "games/connect4.game",
        &[("width", "4"), ("height", "4")],
        "",
    );
    assert_eq!(value, Value::Draw, "{line:?}");
    assert_eq!(end, LineEnd::Over(GameResult::Draw));
    assert_eq!(line.len(), 16, "a draw fills the board");
}

/// Larger boards (seconds each in a release build; the values agree with the published
/// results for these sizes).
#[test]
#[ignore]
fn connect_four_larger_boards() {
    let c4 = |w, h| solve("games/connect4.game", &[("width", w), ("height", h)], "");
    assert_eq!(c4("5", "4").0, Value::Draw);
    assert_eq!(c4("4", "5").0, Value::Draw);
    assert_eq!(c4("6", "4").0, Value::Loss);
    assert_eq!(c4("6", "4").1, 24);
    assert_eq!(c4("5", "5").0, Value::Draw);
}

#[test]
fn errors_leave_the_game_where_it_was() {
    // A line that meets a continuous decision deep down: the solver stops with an error, and
    // every decision it took is taken back.
    let mut game = GraphGame {
        mover: vec![0, 1, 0, 1],
        end: vec![None, None, None, None],
        moves: vec![vec![1], vec![2], vec![3], vec![0]],
        at: 0,
        trail: Vec::new(),
        continuous: Some(3),
    };
    let key = game.position_key();
    let mut s = solver(1 << 20);
    assert_eq!(s.solve(&mut game).err(), Some(SolveError::Continuous));
    assert_eq!(game.position_key(), key);
    assert!(game.trail.is_empty());
}

// ---- the command line --------------------------------------------------------------------------

use common::cli::{run, stderr, stdout};

/// The output without its time line, which varies.
fn without_time(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("time: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "../snapshots/cli",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[test]
fn cli_solves_tictactoe() {
    let o = run(&["solve", "games/tictactoe.game"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\ntime: "));
    snap!("solve_tictactoe", without_time(&stdout(&o)));
}

#[test]
fn cli_help() {
    let o = run(&["solve", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    snap!("help_solve", stdout(&o));
}

#[test]
fn cli_json_for_machines() {
    let o = run(&[
        "solve",
        "games/tictactoe.game",
        "--after",
        "a1; b1",
        "--format",
        "json",
        "--memory",
        "16",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["value"], "win");
    assert_eq!(v["winner"], "X");
    assert_eq!(v["to_move"], "X");
    assert_eq!(v["distance"], 5);
    assert_eq!(v["line"].as_array().map(Vec::len), Some(5));
    assert_eq!(v["end"], "X wins");
    assert_eq!(v["after"], serde_json::json!(["a1", "b1"]));
    assert_eq!(v["memory_mb"], 16);
    assert!(v["positions"].as_u64().is_some_and(|p| p > 0));
}

#[test]
fn cli_draw_by_repetition_in_json() {
    let o = run(&["solve", "tests/games/orbit.game", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["value"], "draw");
    assert_eq!(v["winner"], serde_json::Value::Null);
    assert_eq!(v["end"], "repetition");
    assert!(v["repeats_after"].as_u64().is_some());
}

#[test]
fn cli_refuses_a_game_with_dice() {
    let o = run(&["solve", "games/tankball.game"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: `games/tankball.game` rolls dice"),
        "{e}"
    );
    assert!(e.contains("rulestone playout"), "{e}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn cli_refuses_a_game_with_continuous_decisions() {
    let o = run(&["solve", "games/warstone.game"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: `games/warstone.game` has continuous decisions"),
        "{e}"
    );
    assert!(e.contains("rulestone playout"), "{e}");
}

#[test]
fn cli_bad_input_is_a_clear_error() {
    for (args, expected) in [
        (
            vec!["solve", "games/tictactoe.game", "--after", "z9"],
            "is not a legal move",
        ),
        (
            vec!["solve", "games/tictactoe.game", "--memory", "0"],
            "0 is not in 1..=1048576",
        ),
        (
            vec!["solve", "games/tictactoe.game", "--memory", "1048576"],
            // Refused up front where the system tells the machine's memory, else when the
            // table cannot be allocated.
            if std::path::Path::new("/proc/meminfo").exists() {
                "more than this machine's memory"
            } else {
                "cannot allocate a table"
            },
        ),
        (vec!["solve", "games/nope.game"], "cannot read"),
        (
            vec!["solve", "games/connect4.game", "--set", "width=99"],
            "E0304",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn cli_a_finished_game() {
    let o = run(&[
        "solve",
        "games/tictactoe.game",
        "--after",
        "a1; b1; a2; b2; a3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("value: win for X, to move"), "{out}");
    assert!(out.contains("distance: 0 decisions"), "{out}");
}

/// A game whose rules read `repetitions` has moves that depend on the line that reached a
/// position, which the table's keys leave out: the solver refuses it before searching.
#[test]
fn games_that_read_their_history_are_refused() {
    for file in ["tests/games/shuffle.game", "tests/games/lift.game"] {
        let program = program(file, &[]);
        let mut game = BoardGame::new(Engine::new(&program));
        let mut s = solver(1 << 20);
        assert!(
            matches!(s.solve(&mut game), Err(SolveError::History)),
            "{file}"
        );
    }
    let o = run(&["solve", "tests/games/lift.game"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`repetitions`"), "{}", stderr(&o));
}
