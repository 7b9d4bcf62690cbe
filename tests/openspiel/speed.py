"""OpenSpiel's random playouts per CPU-second from Python (pyspiel, as its users run it), for
the games of traces.py: the figure the README's speed table puts beside `rulestone bench`.

    python3 tests/openspiel/speed.py [SECONDS PER GAME]
"""

import random
import sys
import time

import pyspiel

from traces import GAMES, WHOLE_TURNS


def playouts_per_second(game, seconds):
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.process_time() - start)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for spiel_name, params, game_file, sets, translate, _, _ in GAMES:
        game = pyspiel.load_game(spiel_name, params)
        rate = playouts_per_second(game, seconds)
        options = " ".join(f"--set {s}" for s in sets)
        note = " (a ply per part of a turn)" if translate in WHOLE_TURNS else ""
        print(f"{spiel_name} {params}: {rate:,.0f} playouts/s  [{game_file} {options}]{note}")


if __name__ == "__main__":
    main()
