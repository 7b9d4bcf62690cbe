"""The `rulestone` module against the repository's games: perft tables, action ids, errors,
observations, records, agents and the batched stepper."""

import random
import re
from pathlib import Path

import numpy as np
import pytest

import rulestone

GAMES = Path(__file__).resolve().parents[2] / "games"
BOARD_GAMES = sorted(p for p in GAMES.glob("*.game") if p.stem != "warstone")


def perft_rows(limit=200_000):
    """(game file, depth, count, options) of every perft table row with no fixed rolls or
    moves before it and a count below `limit`."""
    rows = []
    for table in sorted(GAMES.glob("*.perft")):
        for line in table.read_text().splitlines():
            m = re.fullmatch(r"perft (\d+) (\d+)((?: \w+=\S+)*)", line.strip())
            if not m or int(m.group(2)) > limit:
                continue
            options = dict(kv.split("=", 1) for kv in m.group(3).split())
            rows.append((table.with_suffix(".game"), int(m.group(1)), int(m.group(2)), options))
    return rows


@pytest.mark.parametrize("path,depth,count,options", perft_rows(),
                         ids=lambda v: v.stem if isinstance(v, Path) else None)
def test_perft_equals_the_tables(path, depth, count, options):
    game = rulestone.load(str(path), **options)
    assert game.perft(depth) == count


def random_states(path, plies=24, seed=7):
    """States along a seeded random game of `path`, start included."""
    game = rulestone.load(str(path))
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(plies):
        if state.is_terminal():
            return
        moves = state.legal_moves()
        state.apply_move(rng.choice(moves))
        yield state


@pytest.mark.parametrize("path", BOARD_GAMES, ids=lambda p: p.stem)
def test_action_ids_round_trip_through_notation(path):
    game = rulestone.load(str(path))
    try:
        size = game.num_distinct_actions()
    except rulestone.GameError as e:
        # A space past 2^63 ids (docs/actions.md): moves are named by notation alone.
        assert e.code == "no-action-ids" and "2^63" in str(e)
        with pytest.raises(rulestone.GameError):
            game.new_initial_state().legal_actions()
        assert game.new_initial_state().legal_moves()
        return
    for state in random_states(path):
        if state.is_terminal():
            break
        ids = state.legal_actions()
        assert ids == sorted(set(ids)), "ids are distinct and ascending"
        assert len(ids) == len(state.legal_moves())
        assert all(0 <= a < size for a in ids)
        for a in random.Random(len(ids)).sample(ids, min(len(ids), 12)):
            assert state.string_to_action(state.action_to_string(a)) == a


@pytest.mark.parametrize("path", BOARD_GAMES, ids=lambda p: p.stem)
def test_observations_have_the_declared_shape(path):
    game = rulestone.load(str(path))
    shape = tuple(game.observation_tensor_shape())
    assert len(game.observation_planes()) == shape[0]
    assert len(game.cells()) == shape[1]
    for state in random_states(path, plies=10):
        for player in (0, 1):
            obs = state.observation_tensor(player)
            assert obs.shape == shape and obs.dtype == np.float32
        assert state.observation_tensor().shape == shape


def test_observation_planes_are_per_observer():
    game = rulestone.load(str(GAMES / "tictactoe.game"))
    state = game.new_initial_state()
    state.apply_move("b2")
    x, o = state.observation_tensor(0), state.observation_tensor(1)
    centre = game.cells().index("b2")
    assert x[0, centre] == 1 and x[1, centre] == 0
    assert o[0, centre] == 0 and o[1, centre] == 1
    assert x[2].sum() == 0 and (o[2] == 1).all()  # O is to move


def test_a_seeded_random_game_plays_to_its_end_and_back():
    game = rulestone.load(str(GAMES / "connect4.game"))
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        assert state.current_player() in (0, 1)
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == rulestone.TERMINAL_PLAYER
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert state.legal_actions() == []
    again = game.from_record(state.to_record())
    assert again.history() == state.history()
    assert again.returns() == state.returns()
    copy = state.clone()
    while copy.move_number():
        copy.undo()
    assert str(copy) == str(game.new_initial_state())
    assert state.move_number() > 0


@pytest.mark.parametrize("path", BOARD_GAMES, ids=lambda p: p.stem)
def test_a_clone_is_the_same_position_and_goes_its_own_way(path):
    # A clone copies the position rather than replaying the game: it must hold everything the
    # replayed game would, its history and undo included.
    rng = random.Random(11)
    for state in random_states(path, plies=16):
        copy = state.clone()
        assert str(copy) == str(state)
        assert copy.moves() == state.moves()
        assert copy.legal_moves() == state.legal_moves()
        assert copy.is_terminal() == state.is_terminal()
        assert copy.current_player() == state.current_player()
        assert np.array_equal(copy.observation_tensor(0), state.observation_tensor(0))
        before = str(state)
        if not copy.is_terminal():
            copy.apply_move(rng.choice(copy.legal_moves()))
            assert str(state) == before
            copy.undo()
            assert str(copy) == before
        if copy.move_number():
            copy.undo()
            assert str(state) == before and state.move_number() == copy.move_number() + 1


def test_chance_nodes_list_their_outcomes():
    game = rulestone.load(str(GAMES / "einstein.game"))
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.current_player() == rulestone.CHANCE_PLAYER
    outcomes = state.chance_outcomes()
    assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    state.apply_action(outcomes[0][0])


def test_bundled_games_run_compiled_and_edited_copies_interpreted():
    path = GAMES / "tictactoe.game"
    bundled = rulestone.load(str(path))
    assert bundled.backend == "compiled"
    # A comment leaves the lowered program, and so its fingerprint, unchanged.
    assert rulestone.load(path.read_text() + "\n// a comment\n").backend == "compiled"
    # A changed rule is another program: it runs on the interpreter, with its own counts.
    wider = rulestone.load(path.read_text().replace("x in 0..2", "x in 0..3"))
    assert wider.backend == "interpreter"
    assert wider.perft(1) == 12 and bundled.perft(1) == 9
    assert bundled.perft(4) == rulestone.load(path.read_text() + "\n").perft(4)


def test_a_bundled_preset_runs_compiled():
    path = str(GAMES / "draughts.game")
    preset = rulestone.load(path, preset="openspiel")
    assert preset.backend == "compiled"
    by_hand = rulestone.load(path, quiet_draw=40)
    assert by_hand.backend == "compiled"
    assert preset.perft(5) == by_hand.perft(5)
    assert rulestone.load(path, quiet_draw=41).backend == "interpreter"


def test_playouts_are_seeded():
    game = rulestone.load(str(GAMES / "breakthrough.game"))
    a, b = game.playouts(50, seed=5), game.playouts(50, seed=5)
    assert a == b
    assert a["games"] == 50 == sum(a["wins"]) + a["draws"] + a["unfinished"]


def test_agents_answer_a_legal_move():
    game = rulestone.load(str(GAMES / "tictactoe.game"))
    state = game.new_initial_state()
    for choice in (rulestone.mcts(state, iterations=200), rulestone.alphabeta(state, depth=3),
                   rulestone.random_move(state, seed=1),
                   rulestone.agent(state, "mcts:iterations=200:c=0.7:rave=300:fpu=0.6", seed=2)):
        assert choice["action"] in state.legal_actions()
        assert state.action_to_string(choice["action"]) == choice["move"]


def test_the_batch_steps_every_state():
    game = rulestone.load(str(GAMES / "tictactoe.game"))
    batch = game.batch(8)
    rng = np.random.default_rng(0)
    ended_games = 0
    for _ in range(40):
        masks = batch.masks()
        assert masks.shape == (8, game.num_distinct_actions())
        actions = [int(rng.choice(np.flatnonzero(row))) for row in masks]
        returns, ended = batch.step(actions)
        assert returns.shape == (8, 2) and ended.shape == (8,)
        ended_games += int(ended.sum())
    assert ended_games > 0
    assert batch.observations().shape == (8, *game.observation_tensor_shape())


ERRORS = [
    lambda: rulestone.load(str(GAMES / "missing.game")),
    lambda: rulestone.load(str(GAMES / "hex.game"), size=99),
    lambda: rulestone.load(str(GAMES / "hex.game"), no_such_option=1),
    lambda: rulestone.load(str(GAMES / "draughts.game"), preset="no_such_preset"),
    lambda: rulestone.load(str(GAMES / "hex.game"), size=[1]),
    lambda: rulestone.load("game broken\nboard {\n"),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state().apply_action(0),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state().apply_action(10**9),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state().apply_move("z9"),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state().undo(),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state().observation_tensor(2),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).from_record("not a record"),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).perft(1000),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).perft(9, max_nodes=10),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).batch(0),
    lambda: rulestone.load(str(GAMES / "tictactoe.game")).batch(2).step([1]),
    lambda: rulestone.mcts(rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state(),
                           cpu_seconds=-1),
    lambda: rulestone.agent(rulestone.load(str(GAMES / "tictactoe.game")).new_initial_state(),
                            "mcts:rave=much"),
]


@pytest.mark.parametrize("call", ERRORS)
def test_every_error_raises_game_error(call):
    with pytest.raises(rulestone.GameError) as raised:
        call()
    assert str(raised.value)
    assert hasattr(raised.value, "code")


def test_a_finished_game_refuses_moves():
    game = rulestone.load(str(GAMES / "tictactoe.game"))
    state = game.new_initial_state()
    for move in ["a1", "b1", "a2", "b2", "a3"]:
        state.apply_move(move)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    with pytest.raises(rulestone.GameError) as raised:
        state.apply_move("c1")
    assert raised.value.code == "game-over"
    with pytest.raises(rulestone.GameError):
        rulestone.mcts(state, iterations=10)


def test_a_load_error_carries_the_diagnostic_code():
    with pytest.raises(rulestone.GameError) as raised:
        rulestone.load(str(GAMES / "hex.game"), size=99)
    assert raised.value.code == "E0304"
    assert "hex.game" in str(raised.value)
