"""Registration of a `.game` with OpenSpiel, so `pyspiel.load_game(name)` gives it.

`register(path, name, **options)` registers the game under `name` as a Python game of
`pyspiel`: its states wrap rulestone's `State`, moves are rulestone's stable action ids, and the
observation tensor is rulestone's (flattened). OpenSpiel's own algorithms (its `MCTSBot`,
`evaluate_bots`, the `rl_environment` and its learners) then run on it. Needs the `open_spiel`
package; importing this module without it raises `ImportError`.
"""

import numpy as np
import pyspiel

from . import GameError, _error, load

__all__ = ["register"]

# A bound on a game's length for OpenSpiel's `GameInfo`, which requires one; the rules bound
# none in general. `register(..., max_game_length=N)` sets another.
DEFAULT_MAX_GAME_LENGTH = 1000

#: The most action ids OpenSpiel's `GameInfo` takes (a C++ `int`).
MAX_OPENSPIEL_ACTIONS = 2**31 - 1


def _typed(value):
    """An option's value (a string, as `Game.options()` gives it) as an int, float or bool."""
    if value in ("true", "false"):
        return value == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def register(path, name, max_game_length=DEFAULT_MAX_GAME_LENGTH, **options):
    """Registers the game at `path` (or its text) with `pyspiel` under the short name `name`.

    `options` are the game's option values, as `rulestone.load` takes them; they become the
    defaults of the registered game's parameters, so `pyspiel.load_game(name, {"width": 8})`
    sets another value. Raises `GameError` when the game does not load, when its moves have no
    action ids, or when `name` is already registered with OpenSpiel. Returns the `pyspiel.Game`
    loaded with the defaults.
    """
    if not isinstance(name, str) or not name:
        raise _error("an OpenSpiel game's name must be a non-empty string", "bad-name")
    if name in pyspiel.registered_names():
        raise _error(f"a game named {name!r} is already registered with OpenSpiel", "bad-name")
    if not isinstance(max_game_length, int) or max_game_length < 1:
        raise _error("max_game_length must be a positive integer", "bad-count")
    base = load(path, **options)
    if base.num_distinct_actions() > MAX_OPENSPIEL_ACTIONS:  # GameError for a game without ids
        raise _error(
            f"the game has {base.num_distinct_actions()} action ids, more than OpenSpiel counts "
            f"({MAX_OPENSPIEL_ACTIONS}, a C++ int): play it with rulestone's own states",
            "too-many-actions",
        )
    defaults = {key: _typed(value) for key, value in base.options()}
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{base.name} (rulestone)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # A game's rolls are chance nodes; a game without any just never reaches one.
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )

    def __init__(self, params=None):
        _Game.__init__(self, game_type, path, max_game_length, defaults, params or {})

    # A class per registered game, as OpenSpiel's own Python games register theirs.
    game_class = type(f"Game[{name}]", (_Game,), {"__init__": __init__})
    pyspiel.register_game(game_type, game_class)
    return pyspiel.load_game(name)


class _Game(pyspiel.Game):
    """A rulestone game seen by OpenSpiel."""

    def __init__(self, game_type, path, max_game_length, defaults, params):
        values = dict(defaults)
        values.update(params)
        rules = load(path, **values)
        num_actions = rules.num_distinct_actions()
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions,
            max_chance_outcomes=num_actions,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length,
        )
        super().__init__(game_type, info, values)
        self.rules = rules

    def new_initial_state(self):
        return _State(self, self.rules.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise _error(f"observation parameters are not supported: {params}", "bad-option")
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return _Observer(self.rules)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _State(pyspiel.State):
    """A position: rulestone's `State` behind OpenSpiel's state API."""

    def __init__(self, game, state):
        super().__init__(game)
        self.rules = state

    def current_player(self):
        player = self.rules.current_player()
        if self.rules.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.rules.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return player

    def _legal_actions(self, player):
        del player
        return self.rules.legal_actions()

    def chance_outcomes(self):
        return self.rules.chance_outcomes()

    def _apply_action(self, action):
        self.rules.apply_action(int(action))

    def _action_to_string(self, player, action):
        del player
        try:
            return self.rules.action_to_string(int(action))
        except GameError:
            # OpenSpiel also names moves of other positions (a history's, say): their id then.
            return f"action {action}"

    def is_terminal(self):
        return self.rules.is_terminal()

    def returns(self):
        return self.rules.returns()

    def rewards(self):
        return self.rules.rewards()

    def __str__(self):
        return str(self.rules)

    def __deepcopy__(self, memo):
        # OpenSpiel clones a Python state by copying it.
        return _State(self.get_game(), self.rules.clone())


class _Observer:
    """OpenSpiel's observer interface over rulestone's observation tensor."""

    def __init__(self, rules):
        shape = tuple(rules.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state, player):
        self.dict["observation"][...] = state.rules.observation_tensor(player)

    def string_from(self, state, player):
        return state.rules.observation_string(player)
