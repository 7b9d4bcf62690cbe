"""Campaigns on a local Ray instance: the report of `rulestone.campaign` is the command line's
`rulestone analyze` report for the same game, options and seeds (its JSON, table and HTML page),
whatever the split into tasks; bad input raises before any task runs.

The command line is `$RULESTONE_BIN`, else `target/debug/rulestone` or `target/release/rulestone`
of the repository (or of `$CARGO_TARGET_DIR`); without one the comparison is skipped. Without Ray
the whole file is skipped.
"""

import json
import os
import pathlib
import subprocess

import pytest

ray = pytest.importorskip("ray")

import rulestone  # noqa: E402
from rulestone import _rulestone  # noqa: E402
from rulestone.campaign import arena, campaign, main  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAME = "games/clobber.game"
GRID = {"rows": [3, 4], "columns": 4}
SETS = ["--set", "rows=3,4", "--set", "columns=4"]
ARGS = dict(agent="mcts:iterations=20", games=6, seed=7, max_steps=200)
FLAGS = ["--agent", "mcts:iterations=20", "--games", "6", "--seed", "7", "--max-steps", "200"]


def cli():
    given = os.environ.get("RULESTONE_BIN")
    if given:
        assert pathlib.Path(given).is_file(), f"RULESTONE_BIN={given} is no file"
        return given
    targets = [pathlib.Path(os.environ["CARGO_TARGET_DIR"])] if "CARGO_TARGET_DIR" in os.environ else []
    targets.append(ROOT / "target")
    for target in targets:
        for profile in ("debug", "release"):
            binary = target / profile / "rulestone"
            if binary.is_file():
                return str(binary)
    pytest.skip("no rulestone binary: set RULESTONE_BIN or build it with cargo")


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(*args):
    done = subprocess.run([cli(), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def analyze(*extra):
    return run("analyze", GAME, *SETS, *FLAGS, *extra)


def test_campaign_reports_what_analyze_reports(tmp_path):
    report = campaign(GAME, GRID, share=4, **ARGS)
    # Two variants of six games each, in shares of 4 and 2 games.
    assert report.tasks == 4
    expected = json.loads(analyze("--format", "json"))
    got = report.json()
    assert got == expected
    for variant in got["variants"]:
        assert variant["random"]["games"] == variant["self_play"]["games"] == 6
        assert variant["skill"]["games"] == 6
    assert report.table() == analyze()
    page = tmp_path / "cli.html"
    analyze("--html", str(page))
    assert report.html() == page.read_text(encoding="utf-8")


def test_the_split_does_not_change_the_report():
    one = campaign(GAME, GRID, share=6, **ARGS)
    many = campaign(GAME, GRID, share=1, **ARGS)
    assert (one.tasks, many.tasks) == (2, 12)
    assert one.json() == many.json()


def test_the_command_runs_a_campaign(capsys):
    code = main([GAME, *SETS, *FLAGS, "--share", "3", "--format", "json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == json.loads(analyze("--format", "json"))


@pytest.mark.parametrize("call", [
    lambda: campaign("games/missing.game", **ARGS),
    lambda: campaign(GAME, {"rows": [3, 99]}, **ARGS),
    lambda: campaign(GAME, {"no_such_option": 3}, **ARGS),
    lambda: campaign(GAME, {"rows": []}, **ARGS),
    lambda: campaign(GAME, agent="mcts:iterations=x"),
    lambda: campaign(GAME, games=0),
    lambda: campaign(GAME, games=10_001),
    lambda: campaign(GAME, seed=-1),
    lambda: campaign(GAME, seed=2**64),
    lambda: campaign(GAME, max_steps=0),
    lambda: campaign(GAME, share=0),
    lambda: campaign(GAME, {"rows": list(range(1, 11)), "columns": list(range(1, 11))}),
], ids=["missing-file", "bad-value", "unknown-option", "no-value", "bad-agent", "no-games",
        "too-many-games", "negative-seed", "seed-too-large", "no-steps", "empty-share",
        "too-many-variants"])
def test_bad_input_raises(call):
    with pytest.raises(rulestone.GameError):
        call()


SOURCE = (ROOT / GAME).read_text(encoding="utf-8")


@pytest.mark.parametrize("first,count", [(0, 0), (5, 2), (7, 1), (2**32 - 1, 1)])
def test_a_share_outside_the_games_raises(first, count):
    with pytest.raises(rulestone.GameError):
        _rulestone.analysis_share(SOURCE, {}, "random", None, 6, 0, first, count)


def test_shares_that_do_not_cover_the_games_raise():
    share = lambda first, count: _rulestone.analysis_share(  # noqa: E731
        SOURCE, {}, "random", None, 4, 0, first, count)
    header = json.dumps({"file": GAME, "agent": "random", "stronger": None, "games": 4,
                         "seed": 0, "max_steps": 1000, "grid": []})
    whole = [[share(0, 2), share(2, 2)]]
    assert json.loads(_rulestone.analysis_report(SOURCE, header, whole))["games"] == 4
    for shares in ([[share(0, 2)]], [[share(0, 3), share(2, 2)]], [["{}"]], [["not json"]], []):
        with pytest.raises(rulestone.GameError):
            _rulestone.analysis_report(SOURCE, header, shares)
    with pytest.raises(rulestone.GameError):
        _rulestone.analysis_report(SOURCE, header, whole, "pdf")


AGENTS = "random,mcts:iterations=10,mcts:iterations=30"
ARENA = ["--agents", AGENTS, "--games", "6", "--seed", "3", "--max-steps", "200"]


def test_an_arena_campaign_reports_what_arena_reports():
    reports = arena(GAME, AGENTS, GRID, games=6, seed=3, max_steps=200, share=4)
    # Two variants, each in shares of 4 and 2 games of every pair.
    assert reports.tasks == 4 and len(reports) == 2
    for report in reports:
        sets = [word for name, value in report.options.items()
                for word in ("--set", f"{name}={value}")]
        assert report.json() == json.loads(run("arena", GAME, *sets, *ARENA, "--format", "json"))
        assert report.table() == run("arena", GAME, *sets, *ARENA)
    again = arena(GAME, AGENTS.split(","), GRID, games=6, seed=3, max_steps=200, share=1)
    assert [r.json() for r in again] == [r.json() for r in reports]


def test_the_command_runs_an_arena_campaign(capsys):
    code = main([GAME, "--set", "rows=4", *ARENA, "--share", "5", "--format", "json"])
    assert code == 0
    expected = json.loads(run("arena", GAME, "--set", "rows=4", *ARENA, "--format", "json"))
    assert json.loads(capsys.readouterr().out) == [expected]


@pytest.mark.parametrize("call", [
    lambda: arena("games/missing.game", AGENTS),
    lambda: arena(GAME, "random"),
    lambda: arena(GAME, "random,mcts:iterations=x"),
    lambda: arena(GAME, AGENTS, {"rows": 0}),
    lambda: arena(GAME, AGENTS, games=0),
    lambda: arena(GAME, AGENTS, seed=-1),
    lambda: arena(GAME, AGENTS, share=0),
    lambda: arena(GAME, AGENTS, max_steps=100_001),
], ids=["missing-file", "one-agent", "bad-agent", "bad-value", "no-games", "negative-seed",
        "empty-share", "too-many-steps"])
def test_bad_arena_input_raises(call):
    with pytest.raises(rulestone.GameError):
        call()


def test_arena_shares_that_do_not_cover_the_games_raise():
    share = lambda first, count: _rulestone.arena_share(  # noqa: E731
        SOURCE, {}, "random,random", 4, 0, first, count)
    report = lambda shares: _rulestone.arena_report(  # noqa: E731
        SOURCE, {}, GAME, "random,random", 4, 0, 1000, shares)
    assert json.loads(report([share(0, 2), share(2, 2)]))["games_per_pair"] == 4
    for shares in ([share(0, 2)], [share(0, 3), share(2, 2)], ["{}"], ["not json"], []):
        with pytest.raises(rulestone.GameError):
            report(shares)
    with pytest.raises(rulestone.GameError):
        share(3, 2)
