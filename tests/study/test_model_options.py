"""The fight model's options reach every place a user sets them: a scenario's ``model:`` block, ``--model`` on
the command line, the run manifest, matchups; and ``arena model-effects`` pairs each change over shared seeds."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.combat.model import FIXES, LEGACY, ModelOptions, parse_assignments
from arena.errors import ArenaError
from arena.study.reports.model_effects import MATCHUPS, changes, markdown, measure
from arena.study.runs.experiment import run_experiment
from arena.study.runs.matchups import Matchup
from arena.study.scenarios.loading import load_scenarios
from arena.world.yamlio import YamlValidationError

runner = CliRunner()
SCENARIO = "name: m\nparty: {level: 3}\nmonsters: [orc:2]\nn: 20\n"


def test_a_scenario_model_block_reaches_the_encounter(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + "model: {flanking: never, undo: [spell-focus]}\n")
    (scenario,) = load_scenarios(path)
    assert scenario.model == ModelOptions(flanking="never", undo=frozenset({"spell-focus"}))
    assert scenario.prepare("d20").model == scenario.model


@pytest.mark.parametrize(
    ("block", "words"),
    [
        ("model: {flanking: sideways}\n", ["s.yaml:5", "model.flanking", "same-target"]),
        ("model: {undo: [nothing]}\n", ["s.yaml:5", "model", "unknown fix 'nothing'"]),
        ("model: {speed: 3}\n", ["s.yaml:5", "model.speed"]),
    ],
)
def test_a_bad_model_block_names_the_file_line_and_field(tmp_path, block, words):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + block)
    with pytest.raises(YamlValidationError) as err:
        load_scenarios(path)
    text = str(err.value)
    for word in words:
        assert word in text


def test_cli_model_pairs_override_the_scenario_and_show_in_the_fight(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = runner.invoke(app, ["fight", str(path), "--seed", "1", "--model", "flanking=never", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["model"] == {"flanking": "never"}
    plain = runner.invoke(app, ["fight", str(path), "--seed", "1", "--model", "flanking=never"])
    assert "| flanking=never" in plain.output.splitlines()[0]
    bad = runner.invoke(app, ["fight", str(path), "--model", "flanking"])
    assert bad.exit_code == 2 and "error: --model 'flanking': write NAME=VALUE" in bad.output
    bad = runner.invoke(app, ["fight", str(path), "--model", "flanking=sideways"])
    assert bad.exit_code == 2 and "error: --model 'flanking=sideways': flanking: Input should be" in bad.output


def test_parse_assignments_reads_undo_lists_and_refuses_unknown_names():
    model = parse_assignments(["back-line=reachable", "undo=sr-once,trip-ties"])
    assert model.back_line == "reachable" and model.undo == frozenset({"sr-once", "trip-ties"})
    with pytest.raises(ArenaError, match="no model option 'speed'"):
        parse_assignments(["speed=3"])


def test_the_manifest_records_the_model(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + "model: {back_line: reachable}\n")
    out = tmp_path / "out"
    run_experiment(load_scenarios(path), out, rules=["d20"], workers=1)
    manifest = json.loads((out / "manifest.json").read_text())
    (entry,) = manifest["plan"]["scenarios"]
    assert entry["model"]["back_line"] == "reachable"


def test_a_matchup_under_another_model_is_another_matchup():
    plain = Matchup(3, "orc", 2, ("d20",), 10)
    other = Matchup(3, "orc", 2, ("d20",), 10, model=ModelOptions(flanking="never"))
    assert plain.key != other.key and plain.digest() != other.digest()
    assert other.name.endswith("+flanking-never") and plain.name == "L3-orcx2"
    assert other.prepare("d20").model.flanking == "never"


def test_every_change_reverts_exactly_one_thing():
    found = changes()
    default = ModelOptions()
    together = [change for change in found if change.name.startswith(("all ", "the 0.3 model"))]
    assert [change.name for change in together] == ["the 0.3 model (before issue 24)", "all (the 0.2 model)"]
    for change in found:
        if change in together:  # many changes at once, by design
            continue
        if change.rule_options:  # a rule option, not a model option
            assert change.reverted == default
            continue
        differing = {k for k in ModelOptions.model_fields if getattr(change.reverted, k) != getattr(default, k)}
        assert len(differing) == 1
        if "undo" in differing:
            assert len(change.reverted.undo) == 1
    assert found[-1].reverted == LEGACY and LEGACY.undo == frozenset(FIXES)


def test_model_effects_pairs_the_arms_over_the_same_seeds(monkeypatch):
    """With a 'change' that changes nothing (the default model twice) every paired difference is exactly 0."""
    from arena.study.reports import model_effects

    monkeypatch.setattr(model_effects, "MATCHUPS", {"L3-dire-wolf:2": MATCHUPS["L3-dire-wolf:2"]})
    monkeypatch.setattr(
        model_effects, "changes", lambda: [model_effects.Change("nothing", "the same model", ModelOptions())]
    )
    effects = measure(n=30, workers=1)
    assert len(effects) == 2 and all(e.win_effect == 0 and e.hp_effect == 0 and e.win_half_width == 0 for e in effects)
    text = markdown(effects, "arena model-effects --n 30")
    assert "| nothing | +0.0 ±0.0 | +0.0 ±0.0 |" in text and "arena model-effects --n 30" in text
