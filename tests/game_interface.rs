//! The one engine interface ([`Game`]) on every bundled game, board and table alike, through
//! generic code only: seeded random play is reproducible, every listed decision's notation reads
//! back to that decision, and undoing every decision returns to the start.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use rulestone::runtime::game::random_play;
use rulestone::runtime::table::TableMatch;
use rulestone::runtime::{BoardGame, Clock, Engine, Game};

mod common;

/// Plays seeded random games through the interface and checks its invariants.
fn exercise<G: Game>(label: &str, game: &mut G, games: usize, max_steps: usize)
where
    G::Decision: PartialEq,
{
    let start: Vec<String> = game.decisions_text();
    let mut listed = Vec::new();
    for seed in 0..games as u64 {
        let (taken, _) = random_play(game, &mut ChaCha8Rng::seed_from_u64(seed), max_steps);
        for _ in &taken {
            assert!(game.undo(), "{label}: undo");
        }
        assert!(!game.undo(), "{label}: nothing left to undo");
        assert_eq!(game.decisions_text(), start, "{label}: back at the start");
        let (again, _) = random_play(game, &mut ChaCha8Rng::seed_from_u64(seed), max_steps);
        assert_eq!(taken, again, "{label}: seed {seed} replays");
        // Every listed decision of every position on the way reads back from its notation.
        for _ in &again {
            assert!(game.undo(), "{label}: undo");
            if game.decisions(&mut listed) {
                // A spread of at most 12 decisions per position keeps this quick.
                let every = listed.len() / 12 + 1;
                for d in listed.clone().into_iter().step_by(every) {
                    let text = game.text(&d);
                    assert_eq!(game.parse(&text), Ok(d), "{label}: `{text}` reads back");
                }
            }
        }
    }
}

#[test]
fn board_games_through_the_interface() {
    for path in common::board_games() {
        let program = common::program(&path, &[]);
        let mut game = BoardGame::new(Engine::new(&program));
        let label = path.display().to_string();
        exercise(&label, &mut game, 3, 60);
        assert_eq!(game.player_name(0), program.players[0]);
    }
}

#[test]
fn table_games_through_the_interface() {
    for file in [
        "games/warstone.game",
        "tests/games/sling.game",
        "tests/games/slide.game",
    ] {
        let program = common::table_program(file);
        let armies = [program.armies.clone(), program.armies.clone()];
        let mut game = TableMatch::new(&program, armies, 7);
        exercise(file, &mut game, 2, 40);
    }
}

/// The clocks a game declares, and the decision each one's running out takes, in the game's
/// notation: what `play` runs for every kind of game. A board game declares none; WarStone's
/// turn clock ends the turn (`time`), its match clock the match (`time match`), and neither is
/// taken before play starts or while a shot awaits its result.
#[test]
fn clocks_through_the_interface() {
    let program = common::program(std::path::Path::new("games/tictactoe.game"), &[]);
    let mut board = BoardGame::new(Engine::new(&program));
    assert_eq!(board.clocks(), rulestone::runtime::Clocks::default());
    assert_eq!(board.timeout(Clock::Turn), None);

    let program = common::table_program("games/warstone.game");
    let armies = [program.armies.clone(), program.armies.clone()];
    let mut game = TableMatch::new(&program, armies, 7);
    let clocks = game.clocks();
    assert!(
        clocks.turn.is_some() && clocks.whole.is_some(),
        "{clocks:?}"
    );
    for army in ["army Crimson_host", "army Azure_tide"] {
        let d = game.parse(army).expect("an army");
        Game::apply(&mut game, &d);
    }
    let turn = (game.turn(), game.to_move());
    for (clock, text) in [(Clock::Turn, "time"), (Clock::Whole, "time match")] {
        let d = game.timeout(clock).expect("a timeout");
        assert_eq!(game.text(&d), text);
        assert_eq!(
            (game.turn(), game.to_move()),
            turn,
            "asking changes nothing"
        );
    }
    let d = game.timeout(Clock::Turn).expect("a timeout");
    Game::apply(&mut game, &d);
    assert_ne!((game.turn(), game.to_move()), turn, "the turn ended");
}

/// `Game::playout`, what `playout` and `bench` run on every kind of game: a board game's is
/// the engine's own random game, move for move; a table game's plays a whole match (random or
/// aimed shots) and reports its end figures; both return to the start.
#[test]
fn playouts_through_the_interface() {
    for path in common::board_games() {
        let program = common::program(&path, &[]);
        let mut game = BoardGame::new(Engine::new(&program));
        let key = game.position_key();
        let played = game.playout(&mut ChaCha8Rng::seed_from_u64(5), 200, false);
        assert_eq!(
            game.position_key(),
            key,
            "{}: back at the start",
            path.display()
        );
        let mut engine = Engine::new(&program);
        let direct = rulestone::runtime::playout::random_game(
            &mut engine,
            &mut ChaCha8Rng::seed_from_u64(5),
            200,
            &mut Vec::new(),
            &mut Vec::new(),
        );
        assert_eq!(
            (played.steps, played.result, played.scores),
            (direct.plies, direct.result, direct.scores),
            "{}",
            path.display()
        );
        assert_eq!(played.end, Default::default(), "{}", path.display());
        assert!(!game.dealt() && !game.needs_reports());
    }
    for file in [
        "games/warstone.game",
        "tests/games/sling.game",
        "tests/games/slide.game",
    ] {
        let program = common::table_program(file);
        let armies = [program.armies.clone(), program.armies.clone()];
        let mut game = TableMatch::new(&program, armies, 7);
        assert!(game.dealt(), "{file}: each match is dealt");
        let start = game.decisions_text();
        for aim in [false, true] {
            let played = game.playout(&mut ChaCha8Rng::seed_from_u64(3), 10_000, aim);
            assert_eq!(game.decisions_text(), start, "{file}: back at the start");
            assert!(played.result.is_some(), "{file}: the match ends");
            assert!(played.continuous > 0, "{file}: shots were taken");
            let end = &played.end;
            assert!(
                end.setups.is_some() && end.captures.is_some(),
                "{file}: {end:?}"
            );
            assert!(end.turns.is_some_and(|t| t > 0), "{file}: {end:?}");
            let again = game.playout(&mut ChaCha8Rng::seed_from_u64(3), 10_000, aim);
            assert_eq!(played, again, "{file}: the seed replays the match");
        }
    }
}
