"""The compiled fight engine fights exactly as its Python source, the reference engine (issue 25).

Two child processes import the installed package from a folder outside the checkout: one loads the engine as
installed (compiled by mypyc when ``pip install .`` found a compiler), the other its Python source
(``ARENA_ENGINE=python``). Each fights 1,000 seeded encounters of the reference scenario under five rule sets and
1,000 of an SRD fight full of special abilities, and reports every record; the records must be identical, row by
row. Where the installed engine is not compiled (an editable install stays pure Python) the comparison would be of
the source with itself: the test says so and skips, except under CI (``CI=true``), where ``.ci/run`` installs the
package with ``pip install .`` and a compiled engine is required.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_SETS = ("d20", "3d6", "d20+prad", "3d6+prad+luck+open+called", "d20+var")
"""The rule sets the issue names: the plain die, the bell curve, players roll all, every option at once, and the
variable modifiers."""
SRD_MONSTERS = (("ghast", 2), ("ettercap", 1), ("black-dragon-wyrmling", 1))
"""Paralysis, poison, a web and a breath weapon against the level-5 party."""
ENCOUNTERS = 1000

CHILD = r"""
import json, sys
from pathlib import Path

from arena.engine_build import engine
from arena.combat.engine import fight, prepare
from arena.rules import RuleSet
from arena.study.scenarios.loading import load_scenarios
from arena.world.bestiary import get_creature
from arena.world.party import generate_party

root, count = Path(sys.argv[1]), int(sys.argv[2])
rule_sets, srd = json.loads(sys.argv[3]), json.loads(sys.argv[4])
(scenario,) = load_scenarios(root / "scenarios" / "reference.yaml")
records = {}
for key in rule_sets:
    rules = RuleSet.from_key(key)
    encounter = scenario.prepare(rules.die)
    records[f"reference/{key}"] = [fight(encounter, rules, seed).record.as_row() for seed in range(count)]
rules = RuleSet.from_key("d20")
encounter = prepare(generate_party(5), [(get_creature(name), n) for name, n in srd])
records["srd/d20"] = [fight(encounter, rules, seed).record.as_row() for seed in range(count)]
print(json.dumps({"engine": engine(), "records": records}))
"""


def fight_all(tmp_path: Path, engine: str) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ARENA_ENGINE")}
    env["ARENA_ENGINE"] = engine
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(ROOT),
            str(ENCOUNTERS),
            json.dumps(RULE_SETS),
            json.dumps(SRD_MONSTERS),
        ],
        cwd=tmp_path,  # outside the checkout: the installed package is imported, not the sources beside the tests
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def compiled_installed(tmp_path_factory):
    """The installed engine is compiled: else the comparisons would be of the source with itself, so they skip
    (saying why), except under CI, where ``.ci/run``'s ``pip install .`` must have compiled it."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ARENA_ENGINE")}
    done = subprocess.run(
        [sys.executable, "-c", "from arena.engine_build import engine; print(engine())"],
        cwd=tmp_path_factory.mktemp("engine"),
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    if done.stdout.strip() != "compiled":
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI installs the package with `pip install .`, which compiles the engine: it is pure Python")
        pytest.skip("the installed engine is pure Python (an editable install): `pip install .` compiles it")


def test_the_compiled_engine_fights_every_encounter_as_the_python_engine(tmp_path, compiled_installed):
    compiled = fight_all(tmp_path, "compiled")
    assert compiled["engine"] == "compiled"
    reference = fight_all(tmp_path, "python")
    assert reference["engine"] == "python"
    assert compiled["records"].keys() == reference["records"].keys()
    for fight, rows in reference["records"].items():
        assert len(rows) == ENCOUNTERS
        for seed, (mine, theirs) in enumerate(zip(compiled["records"][fight], rows, strict=True)):
            assert mine == theirs, f"{fight}, seed {seed}: the compiled engine's record differs from the reference"


def test_arena_engine_python_loads_the_source_and_names_it(tmp_path):
    """``ARENA_ENGINE=python`` loads the engine's Python source, and ``arena --version`` says which engine is loaded;
    an unknown value is warned about, not an error."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    code = "import arena.combat.engine as e, arena.engine_build as b; print(e.__file__, b.describe())"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**env, "ARENA_ENGINE": "python"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    path, described = done.stdout.split(" ", 1)
    assert path.endswith("engine.py") and described.strip() == "pure Python"
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        cwd=tmp_path,
        env={**env, "ARENA_ENGINE": "fastest"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "ARENA_ENGINE='fastest' is not one of compiled, python" in done.stderr


def test_a_finished_fight_leaves_almost_nothing_to_the_garbage_collector():
    """``fight`` releases the fight's reference cycles (``Fight.release``): its creatures, lists and actions are freed
    by reference counts, not left for the cyclic collector (7-10% of the compiled engine's time). What is left is
    simpy's environment, whose bound methods name it."""
    import gc

    from arena.combat.engine import fight
    from arena.rules import RuleSet
    from arena.study.scenarios.loading import load_scenarios

    (scenario,) = load_scenarios(ROOT / "scenarios" / "reference.yaml")
    rules = RuleSet.from_key("d20")
    encounter = scenario.prepare(rules.die)
    fight(encounter, rules, 0)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for seed in range(5):
            fight(encounter, rules, seed)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [type(thing).__name__ for thing in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert "Combatant" not in left and "Fight" not in left and "Action" not in left
    assert len(left) <= 10 * 5  # simpy's environment and its bound methods: about 8 a fight (79 before)


def test_a_run_on_two_workers_is_the_same_file_under_either_engine(tmp_path):
    """``arena run`` on two worker processes (its tasks pickled to them, the compiled engine's objects never among
    them) writes the same encounters.parquet, byte for byte, under the installed engine and under its source."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ARENA_ENGINE")}
    files = {}
    for engine in ("compiled", "python"):
        out = tmp_path / engine
        done = subprocess.run(
            [sys.executable, "-m", "arena", "run", str(ROOT / "scenarios" / "reference.yaml")]
            + ["--n", "150", "--workers", "2", "--out", str(out)],
            cwd=tmp_path,
            env={**env, "ARENA_ENGINE": engine},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        files[engine] = (out / "encounters.parquet").read_bytes()
    assert files["compiled"] == files["python"]


def _setup_module(monkeypatch):
    """setup.py's functions, read without building anything (``setuptools.setup`` stubbed for the read)."""
    import runpy

    import setuptools

    monkeypatch.setattr(setuptools, "setup", lambda **_: None)
    monkeypatch.setattr(sys, "argv", ["setup.py", "egg_info"])
    return runpy.run_path(str(ROOT / "setup.py"))


def test_setup_installs_the_pure_engine_where_it_cannot_compile(monkeypatch):
    """The install never fails for want of a compiler: setup.py says why it installs the pure-Python engine (no C
    compiler, ARENA_PURE_PYTHON, an editable install) and builds no extension then, nor for a metadata-only step."""
    setup = _setup_module(monkeypatch)
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert "no C compiler" in setup["_wanted"]()
    monkeypatch.delenv("CC")
    monkeypatch.setenv("ARENA_PURE_PYTHON", "1")
    assert setup["_wanted"]() == "ARENA_PURE_PYTHON is set"
    monkeypatch.delenv("ARENA_PURE_PYTHON")
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel"])
    assert "editable" in setup["_wanted"]()
    monkeypatch.setattr(sys, "argv", ["setup.py", "dist_info", "--output-dir", "/tmp/x"])
    assert setup["_extensions"]() == []  # pip's metadata step: mypyc does not run
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setenv("ARENA_PURE_PYTHON", "1")
    assert setup["_extensions"]() == []


FINGERPRINTS = r"""
import json, runpy, sys
bench = runpy.run_path(sys.argv[1])
from arena.engine_build import engine
from arena.world.bestiary import creature_names
from arena.world.srd_bestiary import srd_rows
names = [*creature_names(), *(f"srd/{row.name}" for row in srd_rows())]
print(json.dumps({"engine": engine(), "prints": bench["fingerprints"](bench["RULES"], (1, 2), names)}))
"""


def test_every_creature_fights_word_for_word_alike_under_either_engine(tmp_path, compiled_installed):
    """Every special ability the bestiary has, in both builds: two of each built-in and SRD creature against a party
    of its CR, under three rule sets and two seeds, each fight's whole log hashed
    (``benchmarks/fight_fingerprints.py``); the two builds' hashes must be equal creature by creature."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ARENA_ENGINE")}
    prints = {}
    for engine in ("compiled", "python"):
        done = subprocess.run(
            [sys.executable, "-c", FINGERPRINTS, str(ROOT / "benchmarks" / "fight_fingerprints.py")],
            cwd=tmp_path,
            env={**env, "ARENA_ENGINE": engine},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        prints[engine] = json.loads(done.stdout)
    assert prints["compiled"]["engine"] == "compiled"
    assert len(prints["python"]["prints"]) > 580
    differ = sorted(n for n, p in prints["python"]["prints"].items() if prints["compiled"]["prints"].get(n) != p)
    assert differ == [], f"{len(differ)} creatures fight differently under the compiled engine: {differ[:10]}"
