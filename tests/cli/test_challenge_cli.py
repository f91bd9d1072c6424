"""`arena party` and `arena el` through typer's CliRunner."""

import json

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_el_json_shape_troll_example():
    result = run("el", "troll:4", "--die", "3d6", "--party-level", "5", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"groups", "el", "xp_per_pc", "band"}
    assert doc["groups"] == [{"name": "troll", "count": 4, "cr": "5", "effective_cr": "4"}]
    assert doc["el"] == 8
    assert doc["xp_per_pc"] == 1000  # 4 x CR 4 at level 5 = 4 x 1000 / 4 PCs
    assert doc["band"] == "very difficult"


def test_el_d20_does_not_reduce():
    doc = json.loads(run("el", "troll:4", "--json").stdout)
    assert doc["groups"][0]["effective_cr"] == "5" and doc["el"] == 9
    assert doc["xp_per_pc"] is None and doc["band"] is None


def test_el_goblins_and_mixed_groups():
    doc = json.loads(run("el", "goblin:4", "--die", "3d6", "--json").stdout)
    assert doc["groups"][0]["cr"] == "1/3" and doc["groups"][0]["effective_cr"] == "1/4"
    doc = json.loads(run("el", "ogre:2", "troll", "hill-giant", "--json").stdout)
    assert [g["count"] for g in doc["groups"]] == [2, 1, 1] and doc["el"] == 9
    doc = json.loads(run("el", "goblin", "--json").stdout)
    assert doc["groups"][0]["count"] == 1 and doc["el"] == pytest.approx(1 / 3, abs=1e-3)


def test_el_same_name_twice_is_one_group():
    doc = json.loads(run("el", "troll:2", "troll:2", "--die", "3d6", "--json").stdout)
    assert doc["groups"] == [{"name": "troll", "count": 4, "cr": "5", "effective_cr": "4"}]


def test_el_options():
    doc = json.loads(run("el", "goblin:2", "orc:2", "--die", "3d6", "--group-by", "encounter", "--json").stdout)
    assert [g["effective_cr"] for g in doc["groups"]] == ["1/4", "1/3"]  # SRD orc is CR 1/2
    assert json.loads(run("el", "gnoll:4", "--die", "3d6", "--json").stdout)["groups"][0]["effective_cr"] == "1/2"
    stays = json.loads(run("el", "gnoll:4", "--die", "3d6", "--cr1-stays", "--json").stdout)
    assert stays["groups"][0]["cr"] == "1" and stays["groups"][0]["effective_cr"] == "1"


def test_el_text_output():
    result = run("el", "troll:4", "--die", "3d6", "--party-level", "5")
    assert result.exit_code == 0
    assert "EL 8" in result.stdout and "very difficult" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["el", "trol"], "did you mean troll"),
        (["el", "troll:x"], "count"),
        (["el", "troll:0"], "count"),
        (["el", ":3"], "NAME"),
        (["el", "troll", "--die", "2d6"], "die"),
        (["el", "troll", "--party-level", "25"], "party level"),
        (["el", "troll", "--group-by", "x"], "group-by"),
        (["party", "--level", "0"], "party level"),
        (["party", "--level", "3", "--die", "d12"], "die"),
    ],
)
def test_bad_input_exits_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_party_table_and_json():
    result = run("party", "--level", "5")
    assert result.exit_code == 0
    for name in ("Fighter 5", "Cleric 5", "Rogue 5", "Wizard 5"):
        assert name in result.stdout
    doc = json.loads(run("party", "--level", "9", "--die", "3d6", "--json").stdout)
    assert [next(iter(c["class_levels"])) for c in doc] == ["fighter", "cleric", "rogue", "wizard"]
    assert all(c["side"] == "pc" for c in doc)
    assert "auspicious odds" in doc[1]["spellcasting"]["prepared"]["3"]
