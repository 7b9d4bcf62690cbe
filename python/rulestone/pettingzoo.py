"""A `.game` as a PettingZoo AEC environment with action masks.

`env(path, **options)` gives an environment whose two agents, `player_0` (the first player) and
`player_1`, take turns as the rules say (a player who moves again keeps the turn). An agent's
observation is a dict: `"observation"`, rulestone's observation tensor for it (float32,
`[planes, cells]`), and `"action_mask"`, an int8 mask over every action id (1 for the legal
moves, all 0 when it is not that agent's turn). Rolls are made by the environment with the seed
given to `reset`. The game's result is the reward at its end: 1 for the winner, -1 for the loser,
0 each for a draw. Needs the `pettingzoo` package; importing this module without it raises
`ImportError`.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _error, load

__all__ = ["env", "raw_env"]

# Moves after which a game that has not ended is truncated (`env(..., max_moves=N)` sets
# another); a mask longer than this many ids is refused at construction.
DEFAULT_MAX_MOVES = 1000
MAX_MASK = 1 << 24


def env(path, max_moves=DEFAULT_MAX_MOVES, render_mode=None, **options):
    """The game at `path` (or its text) with `options` as an AEC environment.

    Raises `GameError` when the game does not load, when its moves have no action ids, or when
    its action space is too large for a mask. The environment is wrapped in PettingZoo's
    order-enforcing wrapper, as PettingZoo's own environments are.
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(path, max_moves=max_moves, render_mode=render_mode, **options)
    )


class raw_env(AECEnv):
    """The environment without PettingZoo's wrappers; `env` is the usual entry."""

    def __init__(self, path, max_moves=DEFAULT_MAX_MOVES, render_mode=None, **options):
        super().__init__()
        if not isinstance(max_moves, int) or max_moves < 1:
            raise _error("max_moves must be a positive integer", "bad-count")
        if render_mode not in (None, "human", "ansi"):
            raise _error(
                f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}", "bad-option"
            )
        self.game = load(path, **options)
        size = self.game.num_distinct_actions()  # GameError when the moves have no ids
        if size > MAX_MASK:
            raise _error(
                f"{size} action ids: more than the {MAX_MASK} an action mask may hold",
                "mask-too-large",
            )
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["human", "ansi"],
            "name": f"rulestone_{self.game.name}",
            "is_parallelizable": False,
        }
        self.possible_agents = ["player_0", "player_1"]
        shape = tuple(self.game.observation_tensor_shape())
        space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        del options
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self._roll()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def _roll(self):
        """Plays the rolls the position waits for, drawn with the environment's generator."""
        while self.state.is_chance_node():
            outcomes = self.state.chance_outcomes()
            weights = np.array([p for _, p in outcomes], dtype=np.float64)
            pick = self._rng.choice(len(outcomes), p=weights / weights.sum())
            self.state.apply_action(outcomes[pick][0])

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        observation = np.asarray(self.state.observation_tensor(player), dtype=np.float32)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask = self.state.legal_actions_mask().astype(np.int8)
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.state.apply_action(int(action))  # GameError for a move that is not legal
        self._roll()
        mover = self.possible_agents.index(agent)
        if self.state.is_terminal():
            for agent_, value in zip(self.possible_agents, self.state.returns()):
                self.rewards[agent_] = value
            self.terminations = {agent_: True for agent_ in self.agents}
            self.agent_selection = self.possible_agents[1 - mover]
        else:
            if self.state.move_number() >= self.max_moves:
                self.truncations = {agent_: True for agent_ in self.agents}
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    def __str__(self):
        return self.metadata["name"]
