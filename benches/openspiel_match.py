#!/usr/bin/env python3
"""Rulestone's MCTS against OpenSpiel's C++ MCTSBot at equal CPU time per move.

Plays Rulestone's `mcts` agent (through the `rulestone` Python package, searching with the
GIL released in Rust) against `pyspiel.MCTSBot` (random rollouts, `uct_c=2`, solver on: its
defaults) on the same game in both engines, each move translated by its notation, seats
alternated game by game. OpenSpiel's simulations per move are set so that it spends the
same CPU time per move as Rulestone's budget: its simulations per CPU second are measured
(`time.process_time`) on positions of random games before the match, and during a game each
of its moves gets that rate (updated from its own moves so far in the game) times Rulestone's
CPU seconds. Both sides' mean CPU per move during the match is printed beside the result, so the equality can be checked.

    python benches/openspiel_match.py --games 40 --cpu 0.1 connect4 breakthrough hex reversi

Needs `open_spiel` (2.0.2) and the `rulestone` package (`pip install ./python`).
"""

import argparse
import math
import multiprocessing as mp
import os
import random
import sys
import time

import pyspiel
import rulestone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _rank_flip(text):
    """`b2` -> `b7` on an 8-rank board."""
    return text[0] + str(9 - int(text[1:]))


# Each game: Rulestone's file and options, OpenSpiel's name, and the translation of a move's
# notation from Rulestone's to OpenSpiel's (OpenSpiel's strings are matched after dropping a
# capture mark `*`).
GAMES = {
    "connect4": dict(
        file="games/connect4.game",
        options={},
        openspiel="connect_four",
        # Rulestone names a drop by its column's letter; OpenSpiel by the mover's mark and
        # the column's number.
        to_os=lambda m, player: ("x" if player == 0 else "o") + str(ord(m[0]) - ord("a")),
    ),
    "breakthrough": dict(
        file="games/breakthrough.game",
        options={},
        openspiel="breakthrough(rows=8,columns=8)",
        # Rulestone's first player (White) starts on ranks 1-2 going up, OpenSpiel's on ranks
        # 7-8 going down: the same game with the ranks flipped.
        to_os=lambda m, player: "".join(_rank_flip(p) for p in m.split("-")),
    ),
    "hex": dict(
        file="games/hex.game",
        options={"size": 11},
        openspiel="hex(board_size=11)",
        # The same cell names: column letter, row number from the first player's first edge.
        to_os=lambda m, player: m,
    ),
    "reversi": dict(
        file="games/reversi.game",
        options={},
        openspiel="othello",
        to_os=lambda m, player: m,
    ),
}


def os_moves(state):
    """OpenSpiel's legal actions by their notation (capture marks dropped)."""
    return {state.action_to_string(a).rstrip("*"): a for a in state.legal_actions()}


def translated(spec, rs, os_state):
    """Rulestone's legal moves mapped to OpenSpiel's actions; checks both lists agree."""
    player = rs.current_player()
    theirs = os_moves(os_state)
    mapping = {m: theirs.get(spec["to_os"](m, player)) for m in rs.legal_moves()}
    if None in mapping.values() or len(mapping) != len(theirs):
        raise SystemExit(
            f"the engines disagree at ply {len(rs.moves())}: rulestone {sorted(mapping)} "
            f"vs openspiel {sorted(theirs)}"
        )
    return mapping


def make_bot(game, simulations, seed):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)


def calibrate(name, seconds=3.0, probe=200):
    """OpenSpiel's MCTS simulations per CPU second on positions of random games."""
    spec = GAMES[name]
    game = pyspiel.load_game(spec["openspiel"])
    rng = random.Random(1)
    states = []
    for _ in range(4):
        s = game.new_initial_state()
        while not s.is_terminal():
            states.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
    # Early and middle positions: where the decisions of a game are spread.
    rng.shuffle(states)
    sims, spent, i = 0, 0.0, 0
    bot = make_bot(game, probe, 7)
    while spent < seconds:
        s = states[i % len(states)]
        i += 1
        t = time.process_time()
        bot.step(s)
        spent += time.process_time() - t
        sims += probe
    return sims / spent


def play_one(args):
    """One game; returns (rulestone's score, plies, rulestone CPU, its moves, OpenSpiel CPU, its
    moves)."""
    name, index, rs_first, cpu, rate, fixed, spec_text = args
    spec = GAMES[name]
    rs_game = rulestone.load(os.path.join(ROOT, spec["file"]), **spec["options"])
    os_game = pyspiel.load_game(spec["openspiel"])
    rs = rs_game.new_initial_state()
    os_state = os_game.new_initial_state()
    rs_seat = 0 if rs_first else 1
    cpu_rs = cpu_os = 0.0
    # OpenSpiel's rate in this game: the calibrated one counted as two moves' worth, then its
    # own moves' simulations over their CPU time.
    done_sims, done_cpu = 2 * (rate or 0) * cpu, 2 * cpu
    moves_rs = moves_os = 0
    while not os_state.is_terminal():
        mapping = translated(spec, rs, os_state)
        if rs.current_player() != os_state.current_player():
            raise SystemExit(f"the engines disagree on who moves at ply {len(rs.moves())}")
        if rs.current_player() == rs_seat:
            t = time.process_time()
            if spec_text:
                choice = rulestone.agent(rs, spec_text, seed=index * 1000 + len(rs.moves()))
            else:
                choice = rulestone.mcts(rs, cpu_seconds=cpu, seed=index * 1000 + len(rs.moves()))
            cpu_rs += time.process_time() - t
            moves_rs += 1
            move = choice["move"]
            action = mapping[move]
        else:
            # OpenSpiel's budget follows its rate in this game so far: its simulations cost
            # more in some phases of a game than in others.
            sims = fixed or max(1, round(done_sims / done_cpu * cpu))
            bot = make_bot(os_game, sims, 1000 * index + len(rs.moves()))
            t = time.process_time()
            action = bot.step(os_state)
            spent = time.process_time() - t
            cpu_os += spent
            done_sims += sims
            done_cpu += spent
            moves_os += 1
            move = next(m for m, a in mapping.items() if a == action)
        rs.apply_move(move)
        os_state.apply_action(action)
    if not rs.is_terminal() or list(rs.returns()) != list(os_state.returns()):
        raise SystemExit(
            f"the engines disagree on the end: rulestone {rs.returns()} (over: "
            f"{rs.is_terminal()}), openspiel {os_state.returns()}"
        )
    score = (os_state.returns()[rs_seat] + 1) / 2
    return score, len(rs.moves()), cpu_rs, moves_rs, cpu_os, moves_os


def interval(scores):
    """Score share and a 95% interval (normal approximation on per-game scores)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help=f"games to play (default: all of {', '.join(GAMES)})")
    parser.add_argument("--games", dest="count", type=int, default=40, help="games per series")
    parser.add_argument("--cpu", type=float, default=0.1, help="CPU seconds per move")
    parser.add_argument("--spec", default=None,
                        help="Rulestone agent spec (default: `mcts` with --cpu); give its "
                             "budget in it, e.g. `mcts:cpu=100ms:c=0.7`")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--simulations", type=int, default=None,
                        help="OpenSpiel's simulations per move (default: calibrated)")
    a = parser.parse_args()
    a.games = a.games or list(GAMES)
    for name in a.games:
        if name not in GAMES:
            parser.error(f"unknown game {name!r}: one of {', '.join(GAMES)}")
    print("command: python " + " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]))
    agent = a.spec or f"mcts:cpu={a.cpu * 1000:g}ms"
    rows = []
    for name in a.games:
        rate = calibrate(name) if a.simulations is None else None
        jobs = [(name, i, i % 2 == 0, a.cpu, rate, a.simulations, a.spec)
                for i in range(a.count)]
        results = []
        with mp.Pool(a.jobs) as pool:
            for r in pool.imap(play_one, jobs, chunksize=1):
                results.append(r)
                print(f"{name} game {len(results)}: {r[0]:g}", file=sys.stderr, flush=True)
        scores = [r[0] for r in results]
        wins = sum(1 for s in scores if s == 1)
        draws = sum(1 for s in scores if s == 0.5)
        losses = len(scores) - wins - draws
        mean, low, high = interval(scores)
        cpu_rs = sum(r[2] for r in results) / max(1, sum(r[3] for r in results))
        cpu_os = sum(r[4] for r in results) / max(1, sum(r[5] for r in results))
        plies = sum(r[1] for r in results) / len(results)
        sims = a.simulations or f"{rate * a.cpu:,.0f} ({rate:,.0f}/s)"
        row = (f"| {name} | {sims}"
               + f" | {wins}-{draws}-{losses} | **{100 * mean:.1f}%** "
               f"| {100 * low:.0f}–{100 * high:.0f}% | {cpu_rs * 1000:.0f} / {cpu_os * 1000:.0f} ms "
               f"| {plies:.0f} |")
        print(row, flush=True)
        rows.append(row)
    print()
    print(f"Rulestone `{agent}` against OpenSpiel MCTSBot (uct_c=2, random rollouts), "
          f"{a.count} games a game, seats alternated:")
    print()
    print("| game | OpenSpiel simulations a move at first (its rate per CPU s) | Rulestone W-D-L "
          "| score | 95% interval | CPU a move, Rulestone / OpenSpiel | plies a game |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
