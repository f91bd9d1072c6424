"""`arena fight`: the JSON shape, determinism, errors, and the golden log (tests/golden/)."""

import difflib
import importlib.util
import json
import os
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from arena.cli import fight_cmds
from arena.combat.record import record_schema
from arena.world.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden"
REGENERATE = os.environ.get("ARENA_REGENERATE_GOLDEN") == "1"

runner = CliRunner()


def scenario_files() -> list[Path]:
    """Every ``scenarios/*.yaml`` except regression suites (a mapping with ``checks:``)."""
    paths = sorted((ROOT / "scenarios").glob("*.yaml"))
    return [p for p in paths if not (isinstance(d := load_yaml(p).data, dict) and "checks" in d)]


def _app() -> typer.Typer:
    """An app with only `fight` on it, so these tests do not depend on the other command groups."""
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """(group mode, so that `fight` is a subcommand)"""

    fight_cmds.register(app)
    return app


APP = _app()


def run(*args):
    return runner.invoke(APP, ["fight", *map(str, args)])


def duel() -> str:
    return str(ROOT / "scenarios" / "duel.yaml")


def test_json_shape():
    result = run(duel(), "--seed", 3, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"scenario", "seed", "encounter", "rules", "model", "record", "log", "events"}
    assert doc["model"] == {}  # the fight model's options that differ from the defaults
    assert doc["scenario"] == "duel" and doc["seed"] == 3 and doc["encounter"] is None and doc["rules"] == "d20"
    assert list(doc["record"]) == list(record_schema())
    assert doc["record"]["winner"] in ("party", "monsters", "draw") and doc["record"]["rounds"] >= 1
    assert doc["log"] and all(isinstance(line, str) for line in doc["log"])
    assert any("initiative" in line for line in doc["log"])


def test_same_seed_same_fight_and_different_seeds_differ():
    first = run(duel(), "--seed", 7, "--rules", "3d6+prad+luck+open")
    again = run(duel(), "--seed", 7, "--rules", "3d6+prad+luck+open")
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    logs = {json.dumps(json.loads(run(duel(), "--seed", s, "--json").stdout)["log"]) for s in range(6)}
    assert len(logs) > 1


def test_rule_flags_and_key():
    doc = json.loads(
        run(
            duel(),
            "--die",
            "3d6",
            "--players-roll-all",
            "--modifiers",
            "press-luck",
            "--open-ended",
            "--called-shots",
            "--json",
        ).stdout
    )
    assert doc["rules"] == "3d6+prad+luck+open+called"
    doc = json.loads(run(duel(), "--rules", "d20+var", "--die", "3d6", "--json").stdout)
    assert doc["rules"] == "d20+var"  # --rules overrides the flags


def test_default_seed_is_the_scenarios_and_encounter_replays_a_run_seed():
    from arena.dice import encounter_seed

    assert json.loads(run(duel(), "--json").stdout)["seed"] == 0  # duel.yaml leaves seed at 0
    doc = json.loads(run(duel(), "--seed", 4, "--encounter", 2, "--json").stdout)
    assert doc["encounter"] == {"index": 2, "run_seed": 4} and doc["seed"] == encounter_seed(4, 2)
    same = json.loads(run(duel(), "--seed", encounter_seed(4, 2), "--json").stdout)
    assert same["log"] == doc["log"]


def test_scenario_choice():
    path = ROOT / "scenarios" / "goblin-gang.yaml"
    result = run(path, "--seed", 1)
    assert result.exit_code == 2 and "choose one with --scenario" in result.stderr
    result = run(path, "--scenario", "goblins-6", "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    log = json.loads(result.stdout)["log"]
    assert any("goblin 6" in line for line in log) and not any("goblin 7" in line for line in log)
    result = run(path, "--scenario", "goblins-7")
    assert result.exit_code == 2 and "did you mean" in result.stderr


def test_errors_are_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nparty: {level: 1}\nmonsters: [gobln:4, ogr]\n", encoding="utf-8")
    result = run(bad)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "bad.yaml:3: monsters.0.name" in lines[0]
    assert lines[0].endswith("(and 1 more problem)")
    result = run(duel(), "--rules", "fixed10+open")
    assert result.exit_code == 2 and result.stderr.startswith("error: rule set 'fixed10+open'")
    result = run(tmp_path / "missing.yaml")
    assert result.exit_code == 2 and "no such file" in result.stderr
    result = run(duel(), "--encounter", -1)
    assert result.exit_code == 2 and "--encounter" in result.stderr


def _regenerate_module():
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN_DIR / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(_regenerate_module().GOLDEN))
def test_golden_fight_log(name):
    """A seeded fight printed by the CLI equals the committed log; a rules change shows up as a readable diff.

    If the change is intended: ``python tests/golden/regenerate.py`` (or ``ARENA_REGENERATE_GOLDEN=1``), then
    review ``git diff tests/golden``.
    """
    regen = _regenerate_module()
    call = regen.GOLDEN[name]
    golden = GOLDEN_DIR / name
    if REGENERATE:
        regen.regenerate()
        pytest.skip("golden logs regenerated (ARENA_REGENERATE_GOLDEN=1): review `git diff tests/golden`")
    result = run(ROOT / call["path"], "--seed", call["seed"])
    assert result.exit_code == 0, result.output
    expected = golden.read_text(encoding="utf-8")
    if result.stdout != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), result.stdout.splitlines(True), f"tests/golden/{name}", "arena fight (now)"
            )
        )
        pytest.fail(f"the fight changed; if intended, run `python tests/golden/regenerate.py`:\n{diff}")
    assert regen.render(**call) == expected  # the regeneration script prints exactly what the CLI prints


def test_fight_is_registered_on_the_arena_app():
    """`arena fight` exists on the real app (arena/cli/__init__.py registers fight_cmds)."""
    from arena.cli import app

    result = runner.invoke(app, ["fight", duel(), "--seed", 1])
    assert result.exit_code == 0, result.output
    assert result.stdout == (GOLDEN_DIR / "duel-seed-1.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.name)
def test_every_shipped_scenario_fights(path):
    """Each shipped scenario compiles for the engine and fights to an end under contrasting rule sets."""
    from arena.combat.engine import fight
    from arena.rules import RuleSet
    from arena.study.scenarios.loading import load_scenarios

    for scenario in load_scenarios(path, trust_policies=True):
        for key in ("d20", "3d6+prad+luck+open+called", "fixed10"):
            rules = RuleSet.from_key(key)
            record = fight(scenario.prepare(rules.die), rules, 11).record
            assert record.winner in ("party", "monsters", "draw")
            assert 1 <= record.rounds <= scenario.round_cap
