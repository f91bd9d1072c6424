"""The JSON Schemas of `arena bestiary schema` and `arena scenario schema` accept every shipped file and the
loaders' shorthands, and reject what the loaders reject (validated with jsonschema)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from arena.cli import app

jsonschema = pytest.importorskip("jsonschema")
ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _validator(*command):
    result = runner.invoke(app, list(command))
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def bestiary():
    return _validator("bestiary", "schema")


@pytest.fixture(scope="module")
def scenario():
    return _validator("scenario", "schema")


def _problems(validator, doc):
    return [f"{list(e.path)}: {e.message[:200]}" for e in validator.iter_errors(doc)]


def test_every_shipped_stat_block_file_validates(bestiary):
    files = sorted((ROOT / "bestiary").glob("*.yaml")) + sorted((ROOT / "bestiary" / "srd").glob("*.yaml"))
    assert len(files) > 500
    bad = {f.name: p for f in files if (p := _problems(bestiary, yaml.safe_load(f.read_text(encoding="utf-8"))))}
    assert not bad


def test_every_shipped_scenario_file_validates(scenario):
    files = [f for f in sorted((ROOT / "scenarios").glob("*.yaml")) if f.name != "regression-suite.yaml"]
    assert len(files) >= 7
    bad = {f.name: p for f in files if (p := _problems(scenario, yaml.safe_load(f.read_text(encoding="utf-8"))))}
    assert not bad


def test_the_docs_example_scenario_validates(scenario):
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = yaml.safe_load(text.split("```yaml\n", 1)[1].split("```", 1)[0])
    assert not _problems(scenario, example)


ORC = {
    "name": "x",
    "type": "humanoid",
    "cr": 1,
    "hp": 5,
    "hit_dice": "1d8+1",
    "ac": 13,
    "touch_ac": 10,
    "flat_footed_ac": 13,
    "bab": 1,
    "grapple": 2,
    "saves": {"fort": 3, "ref": 0, "will": -2},
    "attack": [
        [
            {
                "name": "falchion",
                "bonuses": 4,
                "damage": "2d4+4",
                "damage_types": "slashing",
                "threat": "18-20",
                "multiplier": "x2",
            }
        ]
    ],
}


@pytest.mark.parametrize(
    "change, ok",
    [
        ({}, True),
        ({"damage_reduction": "5/magic"}, True),
        ({"damage_reduction": {"amount": 5, "overcome_by": ["silver"]}}, True),
        ({"damage_reduction": "5"}, False),
        ({"colour": "green"}, False),  # unknown field
        ({"type": "x"}, False),
        ({"hp": "lots"}, False),
    ],
)
def test_stat_block_shorthands_and_refusals(bestiary, change, ok):
    from arena.errors import ArenaError
    from arena.world.creatures import Creature

    doc = {**ORC, **change}
    assert (not _problems(bestiary, doc)) is ok
    assert (not _problems(bestiary, [doc, doc])) is ok  # a list of stat blocks in one file
    try:  # and the loader agrees
        Creature.model_validate(doc)
        loaded = True
    except (ValueError, ArenaError):
        loaded = False
    assert loaded is ok


@pytest.mark.parametrize(
    "threat, ok", [("19-20", True), ("20", True), (19, True), ("10-19", False), ("1-20", False), (25, False)]
)
def test_threat_ranges(bestiary, threat, ok):
    attack = {**ORC["attack"][0][0], "threat": threat}
    assert (not _problems(bestiary, {**ORC, "attack": [[attack]]})) is ok


@pytest.mark.parametrize(
    "doc, ok",
    [
        ({"name": "s", "party": {"level": 3}, "monsters": ["troll:4", "ogre", {"name": "orc", "count": 2}]}, True),
        ({"name": "s", "party": ["fighter-1"], "monsters": ["orc"], "rules": ["d20", "3d6"]}, True),
        ({"name": "s", "party": {"level": 3}, "monsters": ["orc"], "rules": "3d6+prad", "bestiary": "mine.yaml"}, True),
        (
            {
                "name": "s",
                "party": {"level": 3},
                "monsters": ["orc"],
                "rules": {"die": "3d6", "open_ended": [False, True]},
            },
            True,
        ),
        ({"name": "s", "party": {"level": 3}, "monsters": ["troll:0"]}, False),
        ({"name": "s", "party": {"level": 30}, "monsters": ["orc"]}, False),
        (
            {"name": "s", "party": {"level": 3}, "monsters": ["orc"], "tactics": {"party": {"press_luck": "maybe"}}},
            False,
        ),
        ({"name": "s", "party": {"level": 3}, "monsters": ["orc"], "rounds": 5}, False),
    ],
)
def test_scenario_shorthands_and_refusals(scenario, doc, ok):
    assert (not _problems(scenario, doc)) is ok
