"""`rulestone.pettingzoo`: the AEC environment passes PettingZoo's own API test, plays whole
games by its masks and refuses games whose moves have no usable ids. Skipped when the
`pettingzoo` package is not installed."""

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import rulestone  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from rulestone import pettingzoo as rzoo  # noqa: E402

GAMES = Path(__file__).resolve().parents[2] / "games"


def game(stem):
    return str(GAMES / f"{stem}.game")


# PettingZoo warns about every dict observation (its own board games' too): "observation" and
# "action_mask" are the layout it documents for masked actions.
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("stem", ["tictactoe", "connect4", "einstein"])
def test_api_test_passes(stem):
    api_test(rzoo.env(game(stem)), num_cycles=200)


def play(env, seed):
    """A masked random game from `reset(seed)`; the moves played and the final rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves, totals = [], dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            mask = observation["action_mask"]
            assert observation["observation"].shape == env.observation_space(
                agent)["observation"].shape
            action = int(rng.choice(np.flatnonzero(mask)))
            moves.append(action)
        env.step(action)
    return moves, totals


@pytest.mark.parametrize("stem", ["connect4", "einstein"])
def test_seeded_games_repeat_and_reward_the_result(stem):
    moves, totals = play(rzoo.env(game(stem)), seed=11)
    again, _ = play(rzoo.env(game(stem)), seed=11)
    assert moves == again
    assert sum(totals.values()) == 0
    assert set(totals.values()) <= {-1.0, 0.0, 1.0}


def test_options_and_truncation():
    env = rzoo.env(game("connect4"), max_moves=3, width=8)
    assert env.action_space("player_0").n == rulestone.load(
        game("connect4"), width=8).num_distinct_actions()
    moves, totals = play(env, seed=2)
    assert len(moves) == 3
    assert totals == {"player_0": 0, "player_1": 0}


def test_only_the_player_to_move_has_a_mask():
    env = rzoo.env(game("tictactoe"))
    env.reset(seed=0)
    assert env.observe("player_0")["action_mask"].sum() == 9
    assert env.observe("player_1")["action_mask"].sum() == 0


def test_refusals_are_game_errors():
    with pytest.raises(rulestone.GameError) as err:
        rzoo.env(game("stoneball"))
    assert err.value.code == "no-action-ids"
    with pytest.raises(rulestone.GameError) as err:
        rzoo.env(game("draughts"))
    assert err.value.code == "mask-too-large"
    with pytest.raises(rulestone.GameError) as err:
        rzoo.env(game("chess"))
    assert err.value.code == "mask-too-large"
    with pytest.raises(rulestone.GameError) as err:
        rzoo.env(game("tictactoe"), max_moves=0)
    assert err.value.code == "bad-count"
    env = rzoo.env(game("tictactoe"))
    env.reset(seed=0)
    env.step(1)
    with pytest.raises(rulestone.GameError):
        env.step(1)
