//! `heuristic p = ...`: the engine evaluates the declaration for each player, `BoardGame::evaluate`
//! squashes the lead into `-1.0..=1.0` (`d / (|d| + 10)`), games without one keep the default
//! material count, and the alpha-beta agent plays the moves the heuristic prefers.
//!
//! On `tests/games/hill.game` (a hill cell is worth 3, a slope 1, a corner 0) and
//! `games/pylos.game` (3 per ball in reserve, 1 per ball with nothing resting on it).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use rulestone::agents::AgentSpec;
use rulestone::ir::Program;
use rulestone::runtime::{BoardGame, Engine, Game};

mod common;

const HILL: &str = "tests/games/hill.game";
const PYLOS: &str = "games/pylos.game";

fn source(path: &str) -> String {
    std::fs::read_to_string(common::root().join(path)).expect("readable game")
}

fn compile(source: &str) -> Program {
    rulestone::compile(source, &[]).expect("the game compiles")
}

/// Hill with its `heuristic` line removed: the same rules, the default evaluation.
fn hill_without_heuristic() -> Program {
    let text: String = source(HILL)
        .lines()
        .filter(|l| !l.starts_with("heuristic"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!text.contains("heuristic p"), "the declaration is gone");
    compile(&text)
}

/// A game at the position after `moves` (in notation).
fn after<'p>(program: &'p Program, moves: &[&str]) -> BoardGame<'p> {
    let mut game = BoardGame::new(Engine::new(program));
    for text in moves {
        let decision = game.parse(text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        game.apply(&decision);
    }
    game
}

/// What the alpha-beta agent searching two plies deep plays here, in notation.
fn alphabeta_choice(game: &mut BoardGame<'_>) -> String {
    let spec = AgentSpec::parse("alphabeta:depth=2").expect("a valid spec");
    let mut agent = spec.build::<BoardGame<'_>>(1);
    let thought = agent.choose(game).expect("a decision is open");
    game.text(&thought.decision)
}

fn assert_close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-12, "got {got}, want {want}");
}

#[test]
fn the_engine_evaluates_the_declaration_for_each_player() {
    let hill = compile(&source(HILL));
    // White: b2 on the hill (3), b1 on a slope (1); Black: a1 in a corner (0).
    let game = after(&hill, &["b2", "a1", "b1"]);
    assert_eq!(game.engine.heuristic(), Some([4, 0]));
    assert_eq!(after(&hill, &[]).engine.heuristic(), Some([0, 0]));

    let pylos = compile(&source(PYLOS));
    // Light placed 1a1: 14 in reserve and one free ball; Dark still holds all 15.
    let game = after(&pylos, &["1a1"]);
    assert_eq!(game.engine.heuristic(), Some([3 * 14 + 1, 3 * 15]));
}

#[test]
fn evaluate_squashes_the_lead() {
    let hill = compile(&source(HILL));
    let mut game = after(&hill, &["b2", "a1", "b1"]);
    assert_close(game.evaluate(0), 4.0 / 14.0);
    assert_close(game.evaluate(1), -4.0 / 14.0);
    let mut start = after(&hill, &[]);
    assert_close(start.evaluate(0), 0.0);

    let pylos = compile(&source(PYLOS));
    let mut game = after(&pylos, &["1a1"]);
    assert_close(game.evaluate(0), -2.0 / 12.0);
    assert_close(game.evaluate(1), 2.0 / 12.0);
}

#[test]
fn evaluations_are_the_squashed_lead_along_random_games() {
    for path in [HILL, PYLOS] {
        let program = compile(&source(path));
        let mut game = BoardGame::new(Engine::new(&program));
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..10 {
            let mut plies = 0;
            while game.outcome().is_none() && plies < 60 {
                let [a, b] = game.engine.heuristic().expect("a heuristic");
                let lead = f64::from(a) - f64::from(b);
                let v = game.evaluate(0);
                assert_close(v, lead / (lead.abs() + 10.0));
                assert_close(game.evaluate(1), -v);
                assert!(v.abs() < 1.0, "{path}: {v}");
                let d = game.sample(&mut rng).expect("a move");
                game.apply(&d);
                plies += 1;
            }
            while game.undo() {}
        }
    }
}

#[test]
fn without_a_heuristic_evaluate_is_the_default() {
    let plain = hill_without_heuristic();
    let mut game = after(&plain, &["b2", "a1", "b1"]);
    assert_eq!(game.engine.heuristic(), None);
    // The default (material, even here, and seeded random continuations) is the same for
    // the same position, and one player's gain is the other's loss.
    let (first, second) = (game.evaluate(0), game.evaluate(1));
    assert_close(game.evaluate(0), first);
    assert_close(first, -second);
    assert!(first.abs() < 1.0, "{first}");
}

/// From the start, two plies deep: a stone on the hill is answered by one on the hill (lead 0),
/// a stone elsewhere by one on the hill too (lead -2 from a slope, -3 from a corner). So the
/// heuristic makes White take the hill.
#[test]
fn alphabeta_takes_the_hill_because_the_heuristic_says_so() {
    let hill = compile(&source(HILL));
    let choice = alphabeta_choice(&mut after(&hill, &[]));
    assert!(
        ["b2", "b3", "c2", "c3"].contains(&choice.as_str()),
        "with the heuristic: {choice}"
    );
}

/// White holds b2 and the slope a2, Black c2 and c3: the hill's last cell b3 is open. Placing
/// there gives White two hill cells (lead 0 after Black's best answer, a stone on a slope); any
/// other move lets Black take b3 and win.
#[test]
fn alphabeta_takes_the_last_hill_cell() {
    let hill = compile(&source(HILL));
    let mut game = after(&hill, &["b2", "c2", "a2", "c3"]);
    assert_eq!(alphabeta_choice(&mut game), "b3");
}
