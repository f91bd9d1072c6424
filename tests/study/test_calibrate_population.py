"""`arena calibrate --population srd --cr C`: the fully modelled SRD creatures of a CR, calibrated one by one, with
the population's median Delta-CR per group size."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ArenaError
from arena.study.calibration.calibrate import population_names

runner = CliRunner()


def test_the_population_is_the_fully_modelled_creatures_of_the_cr_sampled_evenly():
    every = population_names("1", sample=100)
    assert every == sorted(every) and all(n.startswith("srd/") for n in every) and len(every) > 2
    two = population_names("1", sample=2)
    assert len(two) == 2 and set(two) <= set(every) and two == population_names("1", sample=2)
    with pytest.raises(ArenaError, match="no fully modelled SRD creature of CR 30"):
        population_names("30")


def test_calibrate_a_population_prints_each_creature_and_the_median():
    result = runner.invoke(
        app,
        [
            "calibrate",
            "--population",
            "srd",
            "--cr",
            "1",
            "--sample",
            "2",
            "--sizes",
            "1",
            "--n",
            "20",
            "--party-level",
            "3",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert len({row["monster"] for row in doc["creatures"]}) == 2
    (row,) = doc["population"]
    assert row["creatures"] == 2 and row["min"] <= row["median delta"] <= row["max"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--population", "srd"], "needs --cr"),
        (["--population", "typical", "--cr", "1"], "--population must be srd"),
        (["troll", "--population", "srd", "--cr", "1"], "troll is CR 5, not --cr 1"),
        (["--population", "srd", "--cr", "1", "--grid"], "give no --grid"),
        (["troll", "--cr", "3"], "--cr names the CR of --population srd"),
        (["--grid", "--cr", "3"], "give no --cr"),
    ],
)
def test_calibrate_population_errors_are_one_line(args, message):
    result = runner.invoke(app, ["calibrate", *args])
    assert result.exit_code == 2 and message in result.output and result.output.count("\n") == 1


def test_a_monster_of_the_population_is_fought_once_and_shown_last():
    """MONSTER is itself one of the creatures sampled: its rows are the population's own, put last under its name
    and compared with the others, never fought a second time (a second copy would count it twice)."""
    first, second = population_names("1", sample=2)
    args = ["calibrate", second.removeprefix("srd/"), "--population", "srd", "--sample", "2", "--sizes", "1"]
    result = runner.invoke(app, [*args, "--n", "20", "--party-level", "3", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    monsters = [row["monster"] for row in doc["creatures"]]
    mine = second.removeprefix("srd/")
    assert set(monsters) == {first, mine} and monsters.count(first) == monsters.count(mine)
    assert monsters[-1] == mine and "harder than" in json.dumps(doc["population"])
