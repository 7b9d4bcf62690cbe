"""Random playouts per CPU-second from Python: OpenSpiel's `pyspiel` and Rulestone's `rulestone`
module side by side, on the same games in the same sitting (the README's Python speed table).

    python3 benches/python_speed.py [SECONDS PER FIGURE] [--profile]

Needs `pyspiel` (pip install open_spiel) and `rulestone` (pip install ./python). Per game:

- pyspiel's Python loop: `state.apply_action(rng.choice(state.legal_actions()))` until the
  game ends, as OpenSpiel's users write it;
- the same loop over a Rulestone `State`;
- `game.playouts(n)`: the same random games played in Rust (one call, the GIL released);
- `game.batch(256)`: a batched stepper's state-steps per CPU-second, each step taking the
  legal-action masks, choosing a random legal action per state with numpy, and stepping; in
  brackets, the same counting only the time spent in `masks` and `step`.

Every figure is CPU time of this process (`time.process_time`). `--profile` runs Rulestone's
Python loop under cProfile instead and prints where its time goes.
"""

import cProfile
import pstats
import random
import sys
import time

import numpy as np
import pyspiel

import rulestone

# (OpenSpiel's name, its parameters, the bundled game file, its option values)
GAMES = [
    ("breakthrough", {}, "games/breakthrough.game", {}),
    ("othello", {}, "games/reversi.game", {}),
    ("checkers", {}, "games/draughts.game", {"preset": "openspiel"}),
    ("connect_four", {}, "games/connect4.game", {}),
]

#: A Rulestone game still running after this many moves is counted and left (none are, in
#: these games); OpenSpiel's games all end by their own rules.
MAX_PLIES = 2000

#: The most entries of a legal-action mask (`rulestone.Batch.masks`): a game with more action ids
#: has no batch figure.
MAX_MASK = 1 << 24


def loop_rate(new_state, seconds, by_notation=False):
    """Games per CPU-second of the Python loop over states `new_state()` makes; `by_notation`
    plays moves by their text (`legal_moves`, `apply_move`), for a game without action ids."""
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_state()
        plies = 0
        if by_notation:
            while not state.is_terminal() and plies < MAX_PLIES:
                state.apply_move(rng.choice(state.legal_moves()))
                plies += 1
        else:
            while not state.is_terminal() and plies < MAX_PLIES:
                state.apply_action(rng.choice(state.legal_actions()))
                plies += 1
        games += 1
    return games / (time.process_time() - start)


def has_ids(game):
    try:
        game.num_distinct_actions()
        return True
    except rulestone.GameError:
        return False


def playouts_rate(game, seconds):
    """Games per CPU-second of `game.playouts(n)`, n grown until a call takes `seconds`."""
    n = 16
    while True:
        start = time.process_time()
        game.playouts(n, seed=1)
        spent = time.process_time() - start
        if spent >= seconds / 2 or n >= 1 << 24:
            return n / spent
        n = min(1 << 24, max(2 * n, int(n * seconds / max(spent, 1e-3))))


def batch_rate(game, seconds, size=256):
    """State-steps per CPU-second of `game.batch(size)`: masks, a random legal action per state
    chosen with numpy, a step; and the same counting only the time in `masks` and `step` (the
    numpy choice reads every mask entry, which costs most with a large action space)."""
    rng = np.random.default_rng(0)
    batch = game.batch(size)
    steps = 0
    inside = 0.0
    start = time.process_time()
    while time.process_time() - start < seconds:
        began = time.process_time()
        masks = batch.masks()
        middle = time.process_time()
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1).tolist()
        resumed = time.process_time()
        batch.step(actions)
        inside += (middle - began) + (time.process_time() - resumed)
        steps += size
    return steps / (time.process_time() - start), steps / inside


def profile(seconds):
    for _, _, path, options in GAMES:
        game = rulestone.load(path, **options)
        print(f"== {path}")
        profiler = cProfile.Profile()
        profiler.enable()
        loop_rate(game.new_initial_state, seconds, not has_ids(game))
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(8)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seconds = float(args[0]) if args else 3.0
    if "--profile" in sys.argv:
        profile(seconds)
        return
    print(f"games per CPU-second ({seconds:g} s of CPU time per figure); batch: state-steps")
    print("| game | pyspiel loop | rulestone loop | loop ratio | `playouts(n)` | playouts / pyspiel loop "
          "| `batch(256)` steps/s (in `masks` and `step`) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, params, path, options in GAMES:
        spiel = pyspiel.load_game(name, params)
        game = rulestone.load(path, **options)
        theirs = loop_rate(spiel.new_initial_state, seconds)
        ids = has_ids(game)
        ours = loop_rate(game.new_initial_state, seconds, not ids)
        fast = playouts_rate(game, seconds)
        if not ids:
            stepped = "- (no action ids)"
        elif game.num_distinct_actions() > MAX_MASK:
            stepped = "- (too many action ids for masks)"
        else:
            whole, inside = batch_rate(game, seconds)
            stepped = f"{whole:,.0f} ({inside:,.0f})"
        shown = f"{name} ({path.split('/')[-1]})"
        how = "" if ids else " (by notation)"
        print(f"| {shown} | {theirs:,.0f} | {ours:,.0f}{how} | {ours / theirs:.2f}x | {fast:,.0f} "
              f"| {fast / theirs:.1f}x | {stepped} |", flush=True)


if __name__ == "__main__":
    main()
