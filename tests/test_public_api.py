"""The package root is what a notebook user needs: every export resolves, tab completion lists it, and a fight
and a run work through it alone (docs/architecture.md)."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import types
import typing
from pathlib import Path

import pytest

import arena

ROOT = Path(__file__).resolve().parents[1]


def test_every_export_resolves_and_is_listed():
    for name in arena.__all__:
        assert getattr(arena, name) is not None, name
    assert set(arena.__all__) <= set(dir(arena))
    assert {"run", "fight", "prepare", "RuleSet", "get_creature", "generate_party"} <= set(arena.__all__)


def test_a_fight_through_the_root_alone():
    encounter = arena.prepare(arena.generate_party(3), [(arena.get_creature("orc"), 2)])
    result = arena.fight(encounter, arena.RuleSet.from_key("3d6"), seed=1, log=True)
    assert result.record.winner in ("party", "monsters", "draw") and result.log
    assert callable(arena.fight) and not hasattr(arena.fight, "__path__")  # the function, not a package


def test_a_run_through_the_root_alone():
    frame = arena.run(ROOT / "scenarios" / "duel.yaml", n=10, seed=1)
    assert len(frame) == 20 and set(frame["rules"]) == {"d20", "3d6"}


def test_exact_odds_through_the_root():
    odds = arena.exact(arena.Check("attack", "monster", modifier=8, target=18), arena.RuleSet.from_key("d20"))
    assert (
        odds.probabilities["success"]
        == arena.exact(arena.Check("attack", "monster", modifier=8, target=18), arena.RuleSet()).probabilities[
            "success"
        ]
    )


def test_an_unknown_name_is_an_attribute_error():
    try:
        arena.nonexistent  # noqa: B018
    except AttributeError as err:
        assert "nonexistent" in str(err)
    else:
        raise AssertionError("arena.nonexistent should not exist")


# --------------------------------------------------------------------------------------------- a notebook's fight
def test_fight_takes_a_scenario_or_its_file_and_fights_as_the_command():
    """`arena.fight(scenario)` failed with AttributeError ('Scenario' object has no attribute 'flags') until the
    scenario was prepared by hand; now a Scenario or its path fights as `arena fight` does."""
    from arena.cli.fight_cmds import fight_document

    path = ROOT / "scenarios" / "duel.yaml"
    command = fight_document(path, seed=4, rules_key="3d6+luck+called")
    (scenario,) = arena.load_scenarios(path)
    by_object = arena.fight(scenario, "3d6+luck+called", seed=4, log=True)
    by_path = arena.fight(path, arena.RuleSet.from_key("3d6+luck+called"), seed=4, log=True)
    assert by_object.log == by_path.log == command["log"] and by_object.log
    assert by_object.record.as_row() == by_path.record.as_row() == command["record"]
    assert arena.fight(path).rules == "d20" and arena.fight(path).seed == scenario.seed  # the command's defaults


def test_fight_refuses_what_it_cannot_fight_in_words():
    with pytest.raises(arena.ArenaError, match="fight\\(\\) takes an Encounter"):
        arena.fight(42)  # type: ignore[arg-type]
    with pytest.raises(arena.ArenaError, match="seed must be a whole number"):
        arena.fight(ROOT / "scenarios" / "duel.yaml", seed=-1)
    with pytest.raises(arena.ArenaError, match="for a scenario file's path"):
        arena.fight(arena.load_scenarios(ROOT / "scenarios" / "duel.yaml")[0], scenario="duel")


def test_prepare_defaults_to_a_scenario_files_tactics():
    """A notebook's encounter presses luck and calls shots when-better, as a scenario file's creatures do (the
    engine's own default is never): the same fights as the scenario under +luck and +called."""
    from arena.combat.engine import prepare as engine_prepare

    scenario = arena.Scenario.model_validate({"name": "plain", "party": {"level": 3}, "monsters": ["ogre"]})
    party, groups = scenario.party_members("d20"), scenario.monster_groups()
    notebook, never = arena.prepare(party, groups), engine_prepare(party, groups)
    rows = {"notebook": [], "scenario": [], "never": []}
    for seed in range(40):
        for key in ("d20+luck", "d20+called"):
            rows["notebook"].append(arena.fight(notebook, key, seed).record.as_row())
            rows["scenario"].append(arena.fight(scenario, key, seed).record.as_row())
            rows["never"].append(arena.fight(never, key, seed).record.as_row())
    assert rows["notebook"] == rows["scenario"]
    assert rows["never"] != rows["notebook"]  # the defaults matter: this held the bug


# --------------------------------------------------------------------------------------------- signatures and help
def _callables():
    for name in arena.__all__:
        value = getattr(arena, name)
        if callable(value):
            yield name, (value.__init__ if isinstance(value, type) else value)


def test_every_callable_exports_type_hints_that_resolve():
    """`typing.get_type_hints(arena.run)` raised NameError: ScenarioLike (a name only the type checker saw)."""
    for name, target in _callables():
        if getattr(target, "__module__", "").startswith("arena"):
            assert isinstance(typing.get_type_hints(target), dict), name  # raises on a name that does not resolve
    assert "Scenario" in str(typing.get_type_hints(arena.run)["scenario"])


def test_every_export_has_a_docstring():
    for name in arena.__all__:
        value = getattr(arena, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), name
    assert "record" in arena.FightResult.__doc__ and "log" in arena.FightResult.__doc__


def test_a_compiled_class_gets_its_docstring_back_from_its_source(tmp_path, monkeypatch):
    """mypyc keeps no class docstring (a compiled FightResult's ``__doc__`` is ''); the public API reads it from the
    Python source installed beside the compiled module."""
    (tmp_path / "compiled_like_engine.py").write_text('class Thing:\n    """What a thing is."""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("compiled_like_engine")
    monkeypatch.setitem(sys.modules, "compiled_like_engine", module)
    module.Thing.__doc__ = ""  # what the compiled class has
    assert arena._documented(module.Thing).__doc__ == "What a thing is."


def test_calibrate_takes_workers_and_progress_as_run(monkeypatch):
    """arena.calibrate used one worker while arena.run uses every core, and its progress was a callback only."""
    from arena.study.calibration import calibrate as calibration

    for function in (arena.run, arena.calibrate):
        parameters = inspect.signature(function).parameters
        assert parameters["workers"].default is None and parameters["progress"].default is None
        assert "bool" in str(typing.get_type_hints(function)["progress"])
    seen = {}

    class Stop(Exception):
        pass

    def spy(matchups, *, workers, progress, **kwargs):
        seen.update(workers=workers, progress=progress)
        raise Stop

    monkeypatch.setattr(calibration, "run_batch", spy)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    with pytest.raises(Stop):
        arena.calibrate("orc", 1, [1], ["d20"], n=10)
    assert seen["workers"] == 2
    told = []
    with pytest.raises(Stop):
        arena.calibrate("orc", 1, [1], ["d20"], n=10, workers=1, progress=lambda done, total: told.append(done))
    seen["progress"](3, 10)
    assert seen["workers"] == 1 and told == [3]


# --------------------------------------------------------------------------------------------- progress
def test_run_draws_no_progress_on_stdout(capsys):
    """`python x.py > out.csv` began with 'encounters ━━━ 12000/12000': the bar went to stdout even when it was
    redirected. By default it shows only in a terminal or a notebook; asked for, it draws on stderr."""
    from experiment_fakes import FakeScenario, FakeSimulator

    long = FakeScenario(n=5000, keys=("d20", "3d6"))  # 10,000 encounters: long enough for the default bar
    assert len(arena.run(long, simulator=FakeSimulator(), workers=1)) == 10_000
    quiet = capsys.readouterr()
    assert quiet.out == "" and quiet.err == ""
    arena.run(FakeScenario(n=60, keys=("d20", "3d6")), simulator=FakeSimulator(), workers=1, progress=True)
    shown = capsys.readouterr()
    assert shown.out == "" and "120/120" in shown.err


def test_progress_shows_by_default_in_a_notebook(monkeypatch):
    from arena.study.runs import progress

    assert not progress.watched()  # pytest's stderr is not a terminal, and no kernel runs
    shell = type("ZMQInteractiveShell", (), {})()
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert progress.watched()
