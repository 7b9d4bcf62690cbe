"""A game compiled by `rulestone compile` (a plugin library) loaded with `load_compiled`: the
game then runs compiled, with the interpreter's counts, and files that are not plugins raise
`GameError`. The plugin is built by the command line (`$RULESTONE_BIN`, as `.ci/run` sets it)
into the directory the Rust test `tests/plugin.rs` uses, so that CI builds it once."""

import os
import pathlib
import subprocess
import sys

import pytest

import rulestone

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "games" / "mirror.game"
SUFFIX = {"darwin": ".dylib", "win32": ".dll"}.get(sys.platform, ".so")


@pytest.fixture(scope="module")
def plugin():
    binary = os.environ.get("RULESTONE_BIN")
    if not binary:
        pytest.skip("RULESTONE_BIN is not set: no command line to compile with")
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    out = target / "tmp" / "compiled-plugin"
    subprocess.run([binary, "compile", str(GAME), "--out", str(out)], cwd=ROOT, check=True)
    return out / f"rulestone-compiled{SUFFIX}"


def test_a_loaded_plugin_runs_its_game_compiled(plugin):
    before = rulestone.load(str(GAME))
    assert before.backend == "interpreter"
    labels = rulestone.load_compiled(str(plugin))
    assert labels == ["Mirror"], labels
    after = rulestone.load(str(GAME))
    assert after.backend == "compiled"
    assert [after.perft(d) for d in range(4)] == [before.perft(d) for d in range(4)]
    # Loading it again changes nothing.
    assert rulestone.load_compiled(str(plugin)) == labels
    assert rulestone.load(str(GAME)).backend == "compiled"


def test_files_that_are_not_plugins_raise_game_error():
    with pytest.raises(rulestone.GameError, match="cannot load"):
        rulestone.load_compiled(str(GAME))
    with pytest.raises(rulestone.GameError, match="cannot load"):
        rulestone.load_compiled("no/such/plugin.so")
