"""OpenSpiel's perft with fixed chance outcomes, counted the way `rulestone perft --rolls` counts:
chance nodes are not plies, and the k-th chance node met along any line takes the k-th outcome.

    python3 tests/openspiel/rolls_perft.py GAME DEPTH OUTCOME[,OUTCOME...] [PARAMS]

OUTCOME is OpenSpiel's chance action. For `einstein_wurfelt_nicht` (games/einstein.game) an
arrangement's action is c1*120 + c2*24 + c3*6 + c4*2 + c5 for the game file's roll
`c1 c2 c3 c4 c5`, and a die's action is the number rolled less one.
"""

import sys

import pyspiel


def perft(state, depth, outcomes, used=0):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if state.is_chance_node():
        if used >= len(outcomes):
            raise SystemExit(f"a line needs chance outcome number {used + 1}")
        child = state.child(outcomes[used])
        return perft(child, depth, outcomes, used + 1)
    return sum(perft(state.child(a), depth - 1, outcomes, used) for a in state.legal_actions())


def main():
    name, depth, outcomes = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    game = pyspiel.load_game(name if len(sys.argv) < 5 else f"{name}({sys.argv[4]})")
    outcomes = [int(o) for o in outcomes.split(",")]
    print(perft(game.new_initial_state(), depth, outcomes))


if __name__ == "__main__":
    main()
