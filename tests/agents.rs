//! The agents on real games, with small budgets: they beat a random player, see forced lines,
//! and give the same games for the same seed. (The full strength tables are benches: `arena`.)

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use rulestone::agents::contest::{arena, play_game, ArenaConfig};
use rulestone::agents::AgentSpec;
use rulestone::runtime::table::{Decision, TableMatch};
use rulestone::runtime::{BoardGame, Engine, Game, GameResult};

mod common;

fn game(name: &str, sets: &[(&str, &str)]) -> rulestone::ir::Program {
    let sets: Vec<(String, String)> = sets
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    common::program(&common::root().join("games").join(name), &sets)
}

fn specs(text: &str) -> Vec<AgentSpec> {
    AgentSpec::parse_list(text).expect("valid specs")
}

fn round_robin(
    program: &rulestone::ir::Program,
    agents: &str,
    games: u32,
) -> rulestone::agents::contest::Arena {
    let config = ArenaConfig {
        specs: specs(agents),
        games,
        seed: 7,
        max_steps: 400,
        threads: 2,
        deadline: None,
    };
    arena(
        &config,
        &|_| Ok(BoardGame::new(Engine::new(program))),
        &|| {},
    )
    .expect("arena runs")
}

#[test]
fn mcts_never_loses_tictactoe_to_random() {
    let program = game("tictactoe.game", &[]);
    let a = round_robin(&program, "mcts:iterations=300,random", 20);
    let t = a.pairings[0].tally;
    assert_eq!(t.losses, 0, "{t:?}");
    assert!(t.wins >= 14, "{t:?}");
}

#[test]
fn alphabeta_plays_tictactoe_perfectly() {
    let program = game("tictactoe.game", &[]);
    let a = round_robin(&program, "alphabeta:depth=9,mcts:iterations=300", 6);
    let t = a.pairings[0].tally;
    assert_eq!(t.losses, 0, "{t:?}");
    // Against itself, perfect play draws.
    let a = round_robin(&program, "alphabeta:depth=9,alphabeta:depth=9", 2);
    assert_eq!(a.pairings[0].tally.draws, 2, "{:?}", a.pairings[0].tally);
}

#[test]
fn alphabeta_beats_random_at_connect_four() {
    let program = game("connect4.game", &[]);
    let a = round_robin(&program, "alphabeta:depth=3,random", 10);
    let t = a.pairings[0].tally;
    assert!(t.wins >= 9, "{t:?}");
}

#[test]
fn same_seed_same_results_whatever_the_threads() {
    let program = game("tictactoe.game", &[]);
    let run = |threads| {
        let config = ArenaConfig {
            specs: specs("mcts:iterations=50,random"),
            games: 8,
            seed: 3,
            max_steps: 100,
            threads,
            deadline: None,
        };
        arena(
            &config,
            &|_| Ok(BoardGame::new(Engine::new(&program))),
            &|| {},
        )
        .expect("runs")
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn agents_leave_the_position_as_they_found_it() {
    for name in ["pylos.game", "tankball.game", "draughts.game"] {
        let program = game(name, &[]);
        let mut g = BoardGame::new(Engine::new(&program));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..6 {
            if g.outcome().is_some() {
                break;
            }
            let d = g.sample(&mut rng).expect("a decision");
            g.apply(&d);
        }
        let before = g.engine.state.clone();
        for spec in [
            "mcts:iterations=60",
            "mcts:iterations=60:threads=2",
            "alphabeta:depth=1",
        ] {
            let mut agent = AgentSpec::parse(spec).expect("spec").build::<BoardGame>(1);
            let thought = agent.choose(&mut g).expect("a decision");
            assert_eq!(
                g.engine.state, before,
                "{name}: {spec} restored the position"
            );
            let mut listed = Vec::new();
            g.decisions(&mut listed);
            assert!(
                listed.contains(&thought.decision),
                "{name}: {spec} chose a legal move"
            );
        }
    }
}

#[test]
fn a_whole_game_between_agents_ends() {
    let program = game("breakthrough.game", &[]);
    let mut g = BoardGame::new(Engine::new(&program));
    let mut agents = [
        specs("mcts:iterations=100")[0].build(1),
        specs("random")[0].build(2),
    ];
    let played = play_game(&mut g, &mut agents, &mut ChaCha8Rng::seed_from_u64(0), 500);
    assert_eq!(played.result, Some(GameResult::Win(0)), "{played:?}");
    assert!(played.opening.is_some());
    assert!(!played.branching.is_empty());
}

#[test]
fn mcts_samples_and_weighs_a_table_games_shots() {
    let program = common::table_program("games/warstone.game");
    let armies = [program.armies.clone(), program.armies.clone()];
    let mut m = TableMatch::new(&program, armies, 3);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut agent = AgentSpec::parse("mcts:iterations=40:threads=2")
        .expect("spec")
        .build::<TableMatch>(1);
    // Up to the first shot: armies and cards are listed decisions.
    for _ in 0..20 {
        let mut listed = Vec::new();
        if !m.decisions(&mut listed) {
            break;
        }
        let d = m.sample(&mut rng).expect("a decision");
        Game::apply(&mut m, &d);
    }
    let before = m.decisions_text();
    let thought = agent.choose(&mut m).expect("a shot");
    assert_eq!(m.decisions_text(), before, "the match is where it was");
    assert!(
        matches!(thought.decision, Decision::Shot { .. }),
        "{:?}",
        thought.decision
    );
    assert!(thought.ranked.len() > 1, "several shots were tried");
    let text = m.text(&thought.decision);
    assert_eq!(m.parse(&text), Ok(thought.decision), "`{text}` is legal");
}

/// MCTS-Solver: a win one decision away is proven (value 1, no more search), and a loss one
/// reply away is avoided even with a small budget.
#[test]
fn mcts_proves_wins_and_avoids_proven_losses() {
    let program = game("tictactoe.game", &[]);
    let at = |moves: &[&str]| {
        let mut g = BoardGame::new(Engine::new(&program));
        for m in moves {
            let d = g.parse(m).expect("a legal move");
            g.apply(&d);
        }
        g
    };
    let mut g = at(&["a1", "b1", "a2", "b2"]);
    let mut agent = specs("mcts:iterations=100000")[0].build::<BoardGame>(3);
    let thought = agent.choose(&mut g).expect("a decision");
    assert_eq!(g.text(&thought.decision), "a3");
    assert_eq!(thought.value, Some(1.0));
    let iterations: u32 = thought
        .summary
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the summary starts with the iterations");
    assert!(iterations < 1000, "{}", thought.summary);
    // O must block a3, or X wins at once.
    for seed in 0..10 {
        let mut g = at(&["a1", "b2", "a2"]);
        let mut agent = specs("mcts:iterations=200")[0].build::<BoardGame>(seed);
        let thought = agent.choose(&mut g).expect("a decision");
        assert_eq!(g.text(&thought.decision), "a3", "seed {seed}");
    }
}

/// Root-parallel MCTS (`threads=2`) on a real game: it proves a win one decision away, blocks
/// a loss one reply away, and repeats its decision for the same seed and iterations.
#[test]
fn mcts_on_two_threads_proves_blocks_and_repeats() {
    let program = game("tictactoe.game", &[]);
    let at = |moves: &[&str]| {
        let mut g = BoardGame::new(Engine::new(&program));
        for m in moves {
            let d = g.parse(m).expect("a legal move");
            g.apply(&d);
        }
        g
    };
    let spec = &specs("mcts:iterations=400:threads=2")[0];
    let mut g = at(&["a1", "b1", "a2", "b2"]);
    let thought = spec
        .build::<BoardGame>(3)
        .choose(&mut g)
        .expect("a decision");
    assert_eq!(g.text(&thought.decision), "a3");
    assert_eq!(thought.value, Some(1.0));
    for seed in 0..6 {
        let mut g = at(&["a1", "b2", "a2"]);
        let thought = spec
            .build::<BoardGame>(seed)
            .choose(&mut g)
            .expect("a decision");
        assert_eq!(g.text(&thought.decision), "a3", "seed {seed}");
    }
    let program = game("connect4.game", &[]);
    let spec = &specs("mcts:iterations=3000:threads=2")[0];
    let think = || {
        let mut g = BoardGame::new(Engine::new(&program));
        spec.build::<BoardGame>(5)
            .choose(&mut g)
            .expect("a decision")
    };
    let (first, again) = (think(), think());
    assert_eq!(first.decision, again.decision);
    assert_eq!(first.ranked, again.ranked);
    assert!(
        first.summary.starts_with("3000 iterations"),
        "{}",
        first.summary
    );
}

/// First-play urgency and RAVE (all-moves-as-first values from the game's decision keys):
/// still never losing tic-tac-toe to random play, blocking a loss one reply away, and the
/// same decisions for the same seed.
#[test]
fn mcts_with_urgency_and_rave_plays_well_and_repeats() {
    let program = game("tictactoe.game", &[]);
    for spec in [
        "mcts:iterations=300:fpu=0.6:rave=300",
        "mcts:iterations=300:fpu=inf:rave=50",
    ] {
        let a = round_robin(&program, &format!("{spec},random"), 20);
        let t = a.pairings[0].tally;
        assert_eq!(t.losses, 0, "{spec}: {t:?}");
        assert!(t.wins >= 14, "{spec}: {t:?}");
    }
    for seed in 0..6 {
        let mut g = BoardGame::new(Engine::new(&program));
        for m in ["a1", "b2", "a2"] {
            let d = g.parse(m).expect("a legal move");
            g.apply(&d);
        }
        // Every decision tried once first (the default urgency), so the one that does not
        // lose at once is found; a finite urgency may never try it in so few iterations.
        let spec = &specs("mcts:iterations=300:rave=200")[0];
        let first = spec
            .build::<BoardGame>(seed)
            .choose(&mut g)
            .expect("a decision");
        assert_eq!(g.text(&first.decision), "a3", "seed {seed}");
        let spec = &specs("mcts:iterations=300:fpu=0.5:rave=200")[0];
        let first = spec
            .build::<BoardGame>(seed)
            .choose(&mut g)
            .expect("a decision");
        let again = spec
            .build::<BoardGame>(seed)
            .choose(&mut g)
            .expect("a decision");
        assert_eq!(first.ranked, again.ranked, "seed {seed}");
    }
}
