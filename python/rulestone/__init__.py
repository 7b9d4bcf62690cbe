"""Rulestone's board games from Python.

`load` reads a `.game` file (or its text) into a `Game`; a `State` is a position in play, with
moves by action id (OpenSpiel's style) or by notation, numpy observation tensors and undo. The
agents (`mcts`, `alphabeta`, `random_move`, `agent`), `Game.perft`, `Game.playouts` and `Batch.step` run
in Rust with the GIL released; `load_compiled` loads a game built by `rulestone compile`, which
then runs at compiled speed. `rulestone.campaign` (with Ray installed) plays `rulestone analyze`
and `rulestone arena` as Ray tasks and gathers the same reports. The reference is docs/python.md
in the repository.
"""

from ._rulestone import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Batch,
    Game,
    GameError,
    State,
    agent,
    alphabeta,
    load,
    load_compiled,
    mcts,
    random_move,
)



def _error(message, code):
    """A `GameError` raised by the pure-Python part, with its `code` as the native ones have."""
    error = GameError(message)
    error.code = code
    return error


__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Batch",
    "Game",
    "GameError",
    "State",
    "agent",
    "alphabeta",
    "load",
    "load_compiled",
    "mcts",
    "random_move",
]
