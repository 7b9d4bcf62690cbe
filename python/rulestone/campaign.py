"""Analysis campaigns on Ray: `rulestone analyze` with its games spread over a cluster.

`campaign(path, grid=..., games=..., seed=...)` splits every variant's games into shares (one
game file, one option set and one range of game numbers each), plays each share as a Ray task,
and merges them into the report `rulestone analyze` writes for the same arguments: the same
seeds give the same figures, whatever the number of workers or shares. The games are played by
the same Rust code as the command line's (`rulestone._rulestone.analysis_share`), and the
report is rendered by it too (`analysis_report`). `arena(path, agents, grid=..., games=...)` does
the same for `rulestone arena`, one round robin per variant.

Ray is started locally (`ray.init()`) unless it already runs: call `ray.init(address=...)`
first to use a cluster. From a shell: `python -m rulestone.campaign FILE --set NAME=V1,V2
--games N --seed S [--agents SPECS] [--address ADDR] [--format json] [--html PAGE]`.
"""

import argparse
import itertools
import json
import os
import sys
import time

from . import _rulestone, load

#: The most variants of one campaign, as `rulestone analyze`.
MAX_VARIANTS = 64
#: The most games per variant and kind of play, as `rulestone analyze --games`.
MAX_GAMES = 10_000


class Report:
    """A campaign's report: `table()` (the terminal table), `json()` (the JSON report as a
    dict), `json_text()`, `html()` (the self-contained page) and `write_html(path)`, each as
    `rulestone analyze` renders it. `tasks` is how many Ray tasks played the games,
    `wall_seconds` how long they took from the first sent to the last gathered, and
    `cpu_seconds` the CPU time of the worker processes while they played them, all together."""

    def __init__(self, source, header, shares, tasks, wall_seconds, cpu_seconds):
        self._source = source
        self._header = header
        self._shares = shares
        self.tasks = tasks
        self.wall_seconds = wall_seconds
        self.cpu_seconds = cpu_seconds

    def _render(self, form):
        return _rulestone.analysis_report(
            self._source, json.dumps(self._header), self._shares, form
        )

    def table(self):
        return self._render("text")

    def json_text(self):
        return self._render("json")

    def json(self):
        return json.loads(self.json_text())

    def html(self):
        return self._render("html")

    def write_html(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())


def _text(value):
    """An option value as `--set` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _grid(grid):
    """`{name: value or [values]}` as `[(name, [texts])]`, checked."""
    axes = []
    for name, values in (grid or {}).items():
        if not isinstance(values, (list, tuple)):
            values = [values]
        texts = [_text(v) for v in values]
        if not texts or any(not t.strip() for t in texts):
            raise _rulestone.GameError(f"option `{name}` is given no value or an empty one")
        axes.append((str(name), [t.strip() for t in texts]))
    size = 1
    for _, values in axes:
        size *= len(values)
    if size > MAX_VARIANTS:
        raise _rulestone.GameError(
            f"the grid makes {size} variants; a campaign runs at most {MAX_VARIANTS}"
        )
    return axes


def _count(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _rulestone.GameError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _ranges(games, share):
    """Game numbers `0..games` in consecutive ranges of at most `share` games: `(first, count)`."""
    return [(first, min(share, games - first)) for first in range(0, games, share)]


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            "rulestone.campaign needs Ray: `pip install ray` (or run `rulestone analyze`)"
        ) from e
    if not ray.is_initialized():
        ray.init()
    return ray


def _prepare(path, grid, games, seed, max_steps, share, min_steps=1):
    """The checked arguments: the file's name and text, the grid's axes, and every variant's
    options (each loaded once here, so that a bad option raises before any task)."""
    axes = _grid(grid)
    _count("games", games, 1, MAX_GAMES)
    _count("seed", seed, 0, 2**64 - 1)
    _count("max_steps", max_steps, min_steps, 100_000)
    if share is not None:
        _count("share", share, 1, MAX_GAMES)
    # The file is read here and its text sent to the workers, which need not see the file.
    file = os.fspath(path)
    try:
        with open(file, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        error = _rulestone.GameError(f"cannot read `{file}`: {e}")
        error.code = "bad-file"
        raise error from e
    variants = [dict(zip([a for a, _ in axes], values))
                for values in itertools.product(*[v for _, v in axes])]
    for options in variants:
        load(source, **options)  # Raises GameError here for a bad option, before any task.
    return file, source, axes, variants


def _run(ray, variants, games, share, call):
    """Plays every variant's games `0..games` in shares of `share` games (by default about two
    shares per CPU of the cluster over all variants), each share a task `call(options, first,
    count)`; the shares of each variant in order, how many tasks, the wall time and the tasks'
    CPU time."""
    if share is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pieces = max(1, -(-2 * cpus // len(variants)))
        share = max(1, -(-games // pieces))

    @ray.remote(num_cpus=1)
    def play(options, first, count):
        began = time.process_time()
        played = call(options, first, count)
        return played, time.process_time() - began

    began = time.perf_counter()
    pending = [[play.remote(options, first, count) for first, count in _ranges(games, share)]
               for options in variants]
    done = [ray.get(refs) for refs in pending]
    wall = time.perf_counter() - began
    shares = [[played for played, _ in variant] for variant in done]
    cpu = sum(spent for variant in done for _, spent in variant)
    return shares, sum(len(p) for p in pending), wall, cpu


def campaign(path, grid=None, agent="mcts:iterations=200", stronger=None, games=100, seed=0,
             max_steps=1000, share=None):
    """Runs `rulestone analyze PATH --set ... --agent AGENT --games GAMES --seed SEED
    --max-steps MAX_STEPS` as Ray tasks and returns its `Report`.

    `grid` maps option names to a value or a list of values (`{"width": [6, 7]}`); the variants
    are every combination, the last option varying fastest, as `--set` makes them. Each task
    plays `share` games of one variant (of each kind of play); by default each variant's games
    are cut into about two shares per CPU of the Ray cluster. Raises `GameError` for a file
    that does not load, an option or agent it refuses, or counts out of range; nothing is sent
    to Ray before the arguments are checked."""
    file, source, axes, variants = _prepare(path, grid, games, seed, max_steps, share)
    agent_text, stronger_text = _rulestone.analysis_agents(agent, stronger)
    ray = _ray()

    def call(options, first, count):
        return _rulestone.analysis_share(source, options, agent_text, stronger_text, games, seed,
                                         first, count, max_steps, 1)

    shares, tasks, wall, cpu = _run(ray, variants, games, share, call)
    header = {"file": file, "agent": agent_text, "stronger": stronger_text, "games": games,
              "seed": seed, "max_steps": max_steps, "grid": axes}
    return Report(source, header, shares, tasks, wall, cpu)


class ArenaReport:
    """One variant's round robin: `options` (the variant's option values, as given),
    `table()` and `json()` (a dict; `json_text()` the text), as `rulestone arena` prints them
    for that variant (`--set NAME=VALUE` for each of `options`)."""

    def __init__(self, source, options, call, shares):
        self._source = source
        self.options = options
        self._call = call
        self._shares = shares

    def _render(self, form):
        return self._call(self._source, self.options, self._shares, form)

    def table(self):
        return self._render("text")

    def json_text(self):
        return self._render("json")

    def json(self):
        return json.loads(self.json_text())


class ArenaCampaign(list):
    """The round robins of an arena campaign, one `ArenaReport` per variant in grid order, with
    the campaign's `tasks`, `wall_seconds` and `cpu_seconds` (as for `Report`)."""


def arena(path, agents, grid=None, games=20, seed=1, max_steps=1000, share=None):
    """Runs `rulestone arena PATH --set ... --agents AGENTS --games GAMES --seed SEED
    --max-steps MAX_STEPS` for every variant of `grid` (as for `campaign`) as Ray tasks, each
    task playing `share` games of every pair of one variant; returns an `ArenaCampaign`, a list
    of `ArenaReport`s. `agents` is a comma-separated list of specs or a list of them. Raises
    `GameError` for bad input before any task is sent."""
    if not isinstance(agents, str):
        agents = ",".join(agents)
    file, source, _, variants = _prepare(path, grid, games, seed, max_steps, share, min_steps=0)
    _check_arena(source, variants[0], file, agents, games, seed, max_steps)
    ray = _ray()

    def call(options, first, count):
        return _rulestone.arena_share(source, options, agents, games, seed, first, count,
                                      max_steps)

    def render(text, options, shares, form):
        return _rulestone.arena_report(text, options, file, agents, games, seed, max_steps,
                                       shares, form)

    shares, tasks, wall, cpu = _run(ray, variants, games, share, call)
    result = ArenaCampaign(ArenaReport(source, options, render, variant_shares)
                           for options, variant_shares in zip(variants, shares))
    result.tasks, result.wall_seconds, result.cpu_seconds = tasks, wall, cpu
    return result


def _check_arena(source, options, file, agents, games, seed, max_steps):
    """Raises `GameError` for agents or counts `rulestone arena` refuses: the report of no
    share refuses them before it sees that the shares are missing."""
    try:
        _rulestone.arena_report(source, options, file, agents, games, seed, max_steps, [])
    except _rulestone.GameError as e:
        if getattr(e, "code", None) != "bad-share":
            raise


def main(argv=None):
    """`python -m rulestone.campaign`: the arguments of `rulestone analyze`, and the Ray
    cluster's address."""
    parser = argparse.ArgumentParser(
        prog="python -m rulestone.campaign",
        description="rulestone analyze, its games played as Ray tasks",
    )
    parser.add_argument("file", help="the game file (.game)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=V1,V2,...",
                        help="an option's values (repeatable); the variants are every combination")
    parser.add_argument("--agent", default="mcts:iterations=200")
    parser.add_argument("--stronger", default=None)
    parser.add_argument("--agents", metavar="SPECS", default=None,
                        help="run `rulestone arena --agents SPECS` for every variant instead")
    parser.add_argument("--games", type=int, default=None,
                        help="games per variant and kind of play [default: 100]; with "
                             "--agents, per pair [default: 20]")
    parser.add_argument("--seed", type=int, default=None,
                        help="[default: 0; with --agents, 1, as rulestone arena]")
    parser.add_argument("--max-steps", type=int, default=1000)
    parser.add_argument("--share", type=int, default=None,
                        help="games of one variant per task [default: two tasks per CPU]")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--html", metavar="PATH", help="also write the HTML page")
    parser.add_argument("--address", help="the Ray cluster to join (ray.init(address=...))")
    parser.add_argument("--num-cpus", type=int, default=None,
                        help="CPUs of a local Ray instance [default: every core]")
    args = parser.parse_args(argv)
    if args.agents is not None and args.html:
        parser.error("--html is a page of analyze's report; an arena has none")
    grid = {}
    for text in args.set:
        name, sep, values = text.partition("=")
        if not sep or not name.strip():
            parser.error(f"`--set {text}`: write NAME=V1,V2,...")
        if name.strip() in grid:
            parser.error(f"`{name.strip()}` is set twice")
        grid[name.strip()] = values.split(",")
    try:
        import ray
    except ImportError:
        print("error: rulestone.campaign needs Ray: pip install ray", file=sys.stderr)
        return 2
    if args.address or args.num_cpus:
        ray.init(address=args.address, num_cpus=args.num_cpus)
    try:
        if args.agents is not None:
            report = arena(args.file, args.agents, grid, 20 if args.games is None else args.games,
                           1 if args.seed is None else args.seed, args.max_steps, args.share)
            if args.format == "text":
                sys.stdout.write("\n".join(r.table() for r in report))
            else:
                sys.stdout.write(json.dumps([r.json() for r in report], indent=2) + "\n")
        else:
            report = campaign(args.file, grid, args.agent, args.stronger,
                              100 if args.games is None else args.games,
                              0 if args.seed is None else args.seed, args.max_steps, args.share)
            if args.html:
                report.write_html(args.html)
            sys.stdout.write(report.table() if args.format == "text" else report.json_text())
        print(f"{report.tasks} tasks: {report.wall_seconds:.1f} s wall time, "
              f"{report.cpu_seconds:.1f} s CPU time in the tasks", file=sys.stderr)
    except (_rulestone.GameError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
