"""`rulestone.openspiel`: games registered with OpenSpiel, loaded by `pyspiel.load_game` and
played by OpenSpiel's own algorithms (its MCTSBot, evaluate_bots, rl_environment and tabular
Q-learner). Skipped when the `open_spiel` package is not installed."""

import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import rulestone  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, tabular_qlearner  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from rulestone import openspiel  # noqa: E402

GAMES = Path(__file__).resolve().parents[2] / "games"

# OpenSpiel's registry lives as long as the process: each game is registered once, by name.
REGISTERED = {
    "rulestone_test_tictactoe": "tictactoe",
    "rulestone_test_connect4": "connect4",
    "rulestone_test_einstein": "einstein",
}


@pytest.fixture(scope="module", autouse=True)
def registered():
    for name, stem in REGISTERED.items():
        if name not in pyspiel.registered_names():
            openspiel.register(str(GAMES / f"{stem}.game"), name)


def mcts_vs_random(game, simulations, seed):
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return [
        mcts.MCTSBot(game, 2, simulations, evaluator, random_state=rng, solve=True),
        uniform_random.UniformRandomBot(1, rng),
    ], rng


def test_load_game_gives_the_rules_sizes():
    for name, stem in REGISTERED.items():
        game = pyspiel.load_game(name)
        rules = rulestone.load(str(GAMES / f"{stem}.game"))
        assert game.num_players() == 2
        assert game.num_distinct_actions() == rules.num_distinct_actions()
        assert game.observation_tensor_shape() == rules.observation_tensor_shape()
        assert game.get_type().short_name == name


def test_parameters_are_the_game_options():
    game = pyspiel.load_game("rulestone_test_connect4", {"width": 8})
    rules = rulestone.load(str(GAMES / "connect4.game"), width=8)
    assert game.num_distinct_actions() == rules.num_distinct_actions()
    assert game.num_distinct_actions() != pyspiel.load_game(
        "rulestone_test_connect4").num_distinct_actions()
    assert game.get_parameters()["width"] == 8


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_states_follow_the_rules(name):
    """A seeded random game through pyspiel's API agrees with rulestone's State move by move."""
    game = pyspiel.load_game(name)
    rules = rulestone.load(str(GAMES / f"{REGISTERED[name]}.game"))
    rng = random.Random(3)
    state, mirror = game.new_initial_state(), rules.new_initial_state()
    while not state.is_terminal():
        assert state.is_chance_node() == mirror.is_chance_node()
        assert state.legal_actions() == mirror.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert pytest.approx(sum(p for _, p in outcomes)) == 1.0
            action = rng.choice(outcomes)[0]
        else:
            assert state.current_player() == mirror.current_player()
            player = state.current_player()
            assert np.array_equal(
                np.asarray(state.observation_tensor(player), dtype=np.float32),
                mirror.observation_tensor(player).ravel())
            assert state.observation_string(player) == mirror.observation_string(player)
            action = rng.choice(state.legal_actions())
            assert state.action_to_string(player, action) == mirror.action_to_string(action)
        copy = state.clone()
        state.apply_action(action)
        mirror.apply_action(action)
        assert copy.history() == state.history()[:-1]
    assert mirror.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == mirror.returns()


@pytest.mark.parametrize("name,simulations,games", [
    ("rulestone_test_tictactoe", 300, 4),
    ("rulestone_test_connect4", 100, 2),
    ("rulestone_test_einstein", 30, 2),
])
def test_mcts_bot_plays_against_random(name, simulations, games):
    game = pyspiel.load_game(name)
    bots, rng = mcts_vs_random(game, simulations, seed=1)
    totals = np.zeros(2)
    for _ in range(games):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(returns) == 0
        totals += returns
    # Seeded: the same games every run. OpenSpiel's MCTS beats random play on these.
    assert totals[0] >= 0


def test_tabular_q_learner_trains():
    env = rl_environment.Environment("rulestone_test_tictactoe")
    actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=actions) for p in range(2)]
    for _ in range(30):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([agents[player].step(step).action])
        assert sum(step.rewards) == 0
        for agent in agents:
            agent.step(step)
    assert len(agents[0]._q_values) > 0


def test_refusals_are_game_errors():
    with pytest.raises(rulestone.GameError) as err:
        openspiel.register(str(GAMES / "tictactoe.game"), "rulestone_test_tictactoe")
    assert err.value.code == "bad-name"
    with pytest.raises(rulestone.GameError) as err:
        openspiel.register(str(GAMES / "stoneball.game"), "rulestone_test_stoneball")
    assert err.value.code == "no-action-ids"
    assert "rulestone_test_stoneball" not in pyspiel.registered_names()
    # More ids than OpenSpiel's C++ `int` counts.
    for name in ["draughts", "xiangqi"]:
        with pytest.raises(rulestone.GameError) as err:
            openspiel.register(str(GAMES / f"{name}.game"), f"rulestone_test_{name}")
        assert err.value.code == "too-many-actions"
        assert f"rulestone_test_{name}" not in pyspiel.registered_names()
    with pytest.raises(rulestone.GameError) as err:
        openspiel.register(str(GAMES / "missing.game"), "rulestone_test_missing")
    assert err.value.code == "bad-file"
    with pytest.raises(rulestone.GameError) as err:
        openspiel.register(str(GAMES / "tictactoe.game"), "")
    assert err.value.code == "bad-name"
    state = pyspiel.load_game("rulestone_test_tictactoe").new_initial_state()
    with pytest.raises(Exception):
        state.apply_action(10_000)
    assert state.history() == []
