#!/usr/bin/env python3
"""Rulestone beside other game engines, in one sitting: random playouts and perft leaves per
CPU-second, for the games they share.

Systems (a column each, measured in interleaved rounds: every system once per game, then the
next round, so a busy machine slows them alike):

- **no build**: `rulestone bench games/G.game`: the bundled games' compiled code that is built
  into the binary;
- **interpreter**: `rulestone --interpreter bench games/G.game`;
- **plugin**: `rulestone --compiled DIR/rulestone-compiled.so bench games/G.game`, after
  `rulestone compile games/*.game --out DIR` (built once, before the rounds);
- **RBG**: the C++ that Regular Boardgames' compiler `rbg2cpp` generates, with its own flat
  Monte Carlo benchmark and perft programs (`--rbg DIR`: a build of rbg2cpp made by its own
  instructions, holding `bin/rbg2cpp`, `test/` and `rbgGames/`; its columns are skipped when
  absent);
- **OpenSpiel**: random games from Python over pyspiel (C++ underneath), as its users run it
  (`--openspiel-python PY`: a Python with `open_spiel` installed; skipped when absent);
- **shakmaty** (chess only): a hand-written chess move generator, `benches/reference/`.

CPU time: `rulestone bench` reports the CPU time of its measuring thread; OpenSpiel's loop
measures its own `time.process_time()`; RBG's and shakmaty's programs run for a wall-clock time
and are divided by the CPU time the process used (`getrusage` of the children).

    python3 benches/compare.py --rulestone target/release/rulestone --rbg ~/rbg2cpp \\
        --openspiel-python venv/bin/python --seconds 1 --rounds 3

Only the standard library is used.
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Each shared game: its name in the table, Rulestone's file, RBG's game file (in rbgGames),
# OpenSpiel's game string, and the perft depth every system counts (deep enough for a
# measurement, shallow enough for the interpreter).
GAMES = {
    "tictactoe": ("Tic-tac-toe", "tictactoe", "ticTacToe", "tic_tac_toe", 9),
    "connect4": ("Connect Four", "connect4", "connect4", "connect_four", 7),
    "breakthrough": ("Breakthrough", "breakthrough", "breakthrough", "breakthrough", 4),
    "reversi": ("Reversi", "reversi", "reversi", "othello", 8),
    "draughts": ("English draughts", "draughts", "englishDraughts", "checkers", 8),
    "hex": ("Hex 11×11", "hex", "hex", "hex(board_size=11)", 3),
    "amazons": ("Amazons", "amazons", "amazons", "amazons", 2),
    "chess": ("Chess", "chess", "chess", "chess", 4),
    "go": ("Go 19×19", "go", "go", "go(board_size=19)", 2),
}

SYSTEMS = ["nobuild", "interpreter", "plugin", "rbg", "openspiel", "shakmaty"]

# RBG's release flags (its Makefile's RELEASE_FLAGS, random generator 0).
RBG_FLAGS = ["-std=c++17", "-Ofast", "-march=native", "-flto", "-s", "-DNDEBUG",
             "-DRBG_RANDOM_GENERATOR=0"]

# The OpenSpiel side: random games for `seconds` of CPU, run by the given Python.
OPENSPIEL_LOOP = r"""
import json, random, sys, time
import pyspiel
game = pyspiel.load_game(sys.argv[1])
seconds = float(sys.argv[2])
rng = random.Random(0)
games = plies = 0
start = time.process_time()
while time.process_time() - start < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    games += 1
cpu = time.process_time() - start
print(json.dumps({"playouts": games, "plies": plies, "cpu": cpu}))
"""


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(cmd, env=None):
    """Runs `cmd`; returns its output and the CPU seconds it used."""
    before = children_cpu()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    cpu = children_cpu() - before
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout, cpu


def log(text):
    print(text, file=sys.stderr, flush=True)


class Rulestone:
    """The three ways the `rulestone` binary runs a game."""

    def __init__(self, binary, plugin):
        self.binary = binary
        self.plugin = plugin

    def prefix(self, system):
        if system == "interpreter":
            return [self.binary, "--interpreter"]
        if system == "plugin":
            return [self.binary, "--compiled", self.plugin]
        return [self.binary]

    def measure(self, system, game, seconds):
        _, file, _, _, depth = GAMES[game]
        # `bench` splits its budget in three: perft, playouts and MCTS (not reported here).
        out, _ = run(self.prefix(system) + [
            "bench", os.path.join(ROOT, "games", file + ".game"), "--seconds", str(3 * seconds),
            "--depth", str(depth), "--format", "json"])
        report = json.loads(out)[0]
        playouts, perft = report["playouts"], report["perft"]
        return {
            "playouts": playouts["per_second"],
            "plies": playouts["mean_plies"],
            "perft": perft["per_second"],
            "backend": report.get("backend", ""),
        }

    def perft_count(self, system, game):
        _, file, _, _, depth = GAMES[game]
        out, _ = run(self.prefix(system) + [
            "perft", os.path.join(ROOT, "games", file + ".game"), "--depth", str(depth)])
        numbers = re.findall(r"\d[\d,]*", out.strip().splitlines()[-1])
        return int(numbers[-1].replace(",", "")) if numbers else None


class Rbg:
    """RBG's generated C++ and its benchmark and perft programs, built per game under `work`."""

    def __init__(self, root, work):
        self.root = root
        self.work = work

    def build(self, game):
        rbg_name = GAMES[game][2]
        out = os.path.join(self.work, rbg_name)
        bench, perft = os.path.join(out, "benchmark"), os.path.join(out, "perft")
        if os.path.exists(bench) and os.path.exists(perft):
            return
        os.makedirs(out, exist_ok=True)
        source = os.path.join(self.root, "rbgGames", "games", rbg_name + ".rbg")
        subprocess.run([os.path.join(self.root, "bin", "rbg2cpp"), "-o", "reasoner", source],
                       cwd=out, check=True, capture_output=True)
        for program in ("benchmark", "perft"):
            subprocess.run(["g++", *RBG_FLAGS, "-I", out, "-o", os.path.join(out, program),
                            os.path.join(out, "reasoner.cpp"),
                            os.path.join(self.root, "test", program + ".cpp")],
                           check=True, capture_output=True)

    def measure(self, game, seconds):
        out_dir = os.path.join(self.work, GAMES[game][2])
        out, cpu = run([os.path.join(out_dir, "benchmark"), str(int(seconds * 1000))])
        playouts = int(re.search(r"number of playouts: (\d+)", out).group(1))
        plies = float(re.search(r"depth: avg ([\d.]+)", out).group(1))
        # perft at the shared depth, repeated until the budget's CPU is spent.
        leaves = spent = 0.0
        count = None
        while spent < seconds:
            out, used = run([os.path.join(out_dir, "perft"), str(GAMES[game][4])])
            count = int(re.search(r"perft: (\d+)", out).group(1))
            leaves += count
            spent += used
        return {"playouts": playouts / cpu, "plies": plies, "perft": leaves / spent,
                "count": count}


class OpenSpiel:
    def __init__(self, python):
        self.python = python

    def measure(self, game, seconds):
        out, _ = run([self.python, "-c", OPENSPIEL_LOOP, GAMES[game][3], str(seconds)])
        figures = json.loads(out)
        return {"playouts": figures["playouts"] / figures["cpu"],
                "plies": figures["plies"] / max(figures["playouts"], 1)}


class Shakmaty:
    def __init__(self, binary):
        self.binary = binary

    def measure(self, game, seconds):
        out, cpu = run([self.binary, "playouts", str(seconds), "1"])
        games, plies = map(int, re.search(r"playouts (\d+) plies (\d+)", out).groups())
        out, perft_cpu = run([self.binary, "perft", str(GAMES[game][4]), str(seconds)])
        leaves, runs = map(int, re.search(r"leaves (\d+) runs (\d+)", out).groups())
        return {"playouts": games / cpu, "plies": plies / games, "perft": leaves / perft_cpu,
                "count": leaves // runs}


def build_plugin(binary, games, out):
    """`rulestone compile` of the games into one plugin (on one core); returns its path."""
    files = [os.path.join(ROOT, "games", GAMES[g][1] + ".game") for g in games]
    env = dict(os.environ, CARGO_BUILD_JOBS="1")
    log(f"compiling the plugin into {out} ...")
    _, cpu = run([binary, "compile", *files, "--out", out], env=env)
    log(f"  {cpu:.0f} CPU-s")
    for name in os.listdir(out):
        if name.startswith("rulestone-compiled.") or name.startswith("librulestone-compiled."):
            if name.endswith((".so", ".dylib", ".dll")):
                return os.path.join(out, name)
    raise RuntimeError(f"no library in {out} after `rulestone compile`")


def build_shakmaty():
    manifest = os.path.join(ROOT, "benches", "reference", "Cargo.toml")
    log("building benches/reference (shakmaty) ...")
    subprocess.run(["cargo", "build", "--release", "-j", "1", "--manifest-path", manifest],
                   check=True, capture_output=True)
    return os.path.join(ROOT, "benches", "reference", "target", "release", "chess-reference")


def rate(value):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "—"
    return f"{a / b:.2f}×"


def median(results, system, game, key):
    values = [r[key] for r in results.get((system, game), []) if r.get(key) is not None]
    return statistics.median(values) if values else None


def tables(results, games, counts):
    """The Markdown tables: playouts, then perft, then chess against shakmaty."""
    m = lambda s, g, k: median(results, s, g, k)  # noqa: E731
    lines = ["Random playouts per CPU-second (median of the rounds) and the mean plies of a "
             "random game:", "",
             "| game | no build | interpreter | plugin | RBG | OpenSpiel (Python) "
             "| plugin ÷ RBG | no build ÷ plugin | plies: Rulestone / RBG / OpenSpiel |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for g in games:
        p = {s: m(s, g, "playouts") for s in SYSTEMS}
        plies = " / ".join(f"{v:.0f}" if v is not None else "—"
                           for v in (m("nobuild", g, "plies"), m("rbg", g, "plies"),
                                     m("openspiel", g, "plies")))
        lines.append(f"| {GAMES[g][0]} | {rate(p['nobuild'])} | {rate(p['interpreter'])}"
                     f" | {rate(p['plugin'])} | {rate(p['rbg'])} | {rate(p['openspiel'])}"
                     f" | {ratio(p['plugin'], p['rbg'])} | {ratio(p['nobuild'], p['plugin'])}"
                     f" | {plies} |")
    lines += ["", "Perft leaves per CPU-second from the start position (median of the rounds; "
              "every system counts the same depth):", "",
              "| game | depth | leaves (Rulestone / RBG) | no build | interpreter | plugin | RBG "
              "| plugin ÷ RBG | no build ÷ plugin |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for g in games:
        p = {s: m(s, g, "perft") for s in SYSTEMS}
        ours, theirs = counts.get(("rulestone", g)), counts.get(("rbg", g))
        shown = f"{ours:,}" if ours is not None else "—"
        if theirs is not None:
            shown += " / " + ("same" if theirs == ours else f"{theirs:,}")
        lines.append(f"| {GAMES[g][0]} | {GAMES[g][4]} | {shown} | {rate(p['nobuild'])}"
                     f" | {rate(p['interpreter'])} | {rate(p['plugin'])} | {rate(p['rbg'])}"
                     f" | {ratio(p['plugin'], p['rbg'])} | {ratio(p['nobuild'], p['plugin'])} |")
    if "chess" in games and ("shakmaty", "chess") in results:
        s_play, s_perft = m("shakmaty", "chess", "playouts"), m("shakmaty", "chess", "perft")
        lines += ["", "Chess against a hand-written move generator (shakmaty; perft depth "
                  f"{GAMES['chess'][4]}, {counts.get(('shakmaty', 'chess'), 0):,} leaves):", "",
                  "| chess | shakmaty | no build ÷ shakmaty | interpreter ÷ shakmaty "
                  "| plugin ÷ shakmaty |", "|---|---:|---:|---:|---:|"]
        for label, key, ref in (("playouts/s", "playouts", s_play), ("perft leaves/s", "perft",
                                                                       s_perft)):
            lines.append(f"| {label} | {rate(ref)} | {ratio(m('nobuild', 'chess', key), ref)}"
                         f" | {ratio(m('interpreter', 'chess', key), ref)}"
                         f" | {ratio(m('plugin', 'chess', key), ref)} |")
    return "\n".join(lines)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES),
                        help="comma-separated games (default: all): " + ", ".join(GAMES))
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds per measurement (each of playouts and perft)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rulestone", default=os.path.join(ROOT, "target", "release",
                                                            "rulestone"),
                        help="the rulestone binary (default: target/release/rulestone)")
    parser.add_argument("--rbg", help="a build of rbg2cpp (holding bin/rbg2cpp, test/ and "
                        "rbgGames/); without it the RBG columns are empty")
    parser.add_argument("--openspiel-python", help="a Python with open_spiel installed; "
                        "without it the OpenSpiel column is empty")
    parser.add_argument("--plugin", help="a plugin built by `rulestone compile` for these games"
                        " (default: build one under --work)")
    parser.add_argument("--no-shakmaty", action="store_true", help="skip the chess reference")
    parser.add_argument("--work", default=os.path.join(ROOT, "target", "compare"),
                        help="where the plugin and RBG's programs are built")
    return parser.parse_args()


def prepare(args, games):
    """Builds what the systems need; returns the measurers by system."""
    binary = os.path.abspath(args.rulestone)
    plugin = args.plugin or build_plugin(binary, games, os.path.join(args.work, "plugin"))
    rulestone = Rulestone(binary, os.path.abspath(plugin))
    systems = {s: (lambda g, t, s=s: rulestone.measure(s, g, t))
               for s in ("nobuild", "interpreter", "plugin")}
    if args.rbg and os.path.exists(os.path.join(args.rbg, "bin", "rbg2cpp")):
        rbg = Rbg(os.path.abspath(args.rbg), os.path.join(args.work, "rbg"))
        for g in games:
            log(f"building RBG's {GAMES[g][2]} ...")
            rbg.build(g)
        systems["rbg"] = rbg.measure
    elif args.rbg:
        log(f"no bin/rbg2cpp in {args.rbg}: RBG's columns stay empty")
    if args.openspiel_python and shutil.which(args.openspiel_python):
        systems["openspiel"] = OpenSpiel(args.openspiel_python).measure
    if not args.no_shakmaty and "chess" in games:
        systems["shakmaty"] = Shakmaty(build_shakmaty()).measure
    return rulestone, systems


def main():
    args = parse_args()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        sys.exit(f"unknown games: {', '.join(unknown)} (known: {', '.join(GAMES)})")
    rulestone, systems = prepare(args, games)
    results, counts = {}, {}
    for g in games:
        counts[("rulestone", g)] = rulestone.perft_count("nobuild", g)
    for r in range(args.rounds):
        for g in games:
            for s in SYSTEMS:
                if s not in systems or (s == "shakmaty" and g != "chess"):
                    continue
                figures = systems[s](g, args.seconds)
                results.setdefault((s, g), []).append(figures)
                if "count" in figures:
                    counts[(s, g)] = figures["count"]
                log(f"round {r + 1} {g:<12} {s:<11} playouts/s {rate(figures['playouts']):>12}"
                    f"  perft/s {rate(figures.get('perft')):>12}")
    print(tables(results, games, counts))


if __name__ == "__main__":
    main()
