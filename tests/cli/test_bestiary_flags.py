"""Issue 17, your own monsters everywhere: `arena calibrate MONSTER --bestiary PATH` calibrates a creature of the
user's files (on one worker or several: the stat block travels in the matchups), and `arena claims --bestiary PATH`
reads and checks the files and says it cannot change a verdict."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import cpu_limits
import pytest
from stat_blocks import BOG_HAG
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
HAG = BOG_HAG
FEEBLE = (
    HAG.replace("hp: 40", "hp: 1")
    .replace("hit_dice: 6d8+12", "hit_dice: 1d2")
    .replace("bonuses: [10], damage: 1d6+4", "bonuses: [-5], damage: '1'")
)
SMALL = ("--party-level", "5", "--sizes", "1,4", "--n", "6", "--workers", "1", "--json")


@pytest.fixture
def hag(tmp_path) -> Path:
    path = tmp_path / "my-monsters.yaml"
    path.write_text(HAG)
    return path


def calibrate(*args: str) -> list[dict]:
    result = runner.invoke(app, ["calibrate", *args])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


def test_the_issue_example_calibrates_your_hag(hag):
    rows = calibrate("bog-hag", "--bestiary", str(hag), *SMALL)
    assert [(r["monster"], r["cr"], r["size"], r["rules"]) for r in rows] == [
        ("bog-hag", "4", 1, "3d6"),
        ("bog-hag", "4", 4, "3d6"),
    ]
    assert all(r["ladder"] == "1/2..8" and r["n"] == 6 for r in rows)  # the ladder around its CR 4
    folder = hag.parent / "folder"
    folder.mkdir()
    (folder / "hag.yaml").write_text(HAG)
    assert calibrate("bog-hag", "-b", str(folder), *SMALL) == rows  # a folder, the same calibration


def test_the_calibration_fights_your_stat_block(tmp_path, hag):
    feeble = tmp_path / "feeble.yaml"
    feeble.write_text(FEEBLE)
    by_hp = ("--metric", "hp-lost")  # a feeble hag costs the party almost no hit points (its spells it casts anyway)
    strong = calibrate("bog-hag", "--bestiary", str(hag), *SMALL, *by_hp)
    weak = calibrate("bog-hag", "--bestiary", str(feeble), *SMALL, *by_hp)
    assert all(w["difficulty_d20"] < s["difficulty_d20"] for w, s in zip(weak, strong, strict=True))
    assert weak[1]["difficulty_d20"] <= 0.05 < strong[1]["difficulty_d20"]


def test_several_workers_fight_your_stat_block_too(hag):
    """Worker processes know only the built-in bestiary: the matchups carry the stat block to them, and the result
    is the same for any number of workers."""
    args = [
        "-m",
        "arena",
        "calibrate",
        "bog-hag",
        "--bestiary",
        str(hag),
        "--party-level",
        "5",
        "--sizes",
        "4",
        "--n",
        "4",
        "--json",
    ]
    done = {
        k: cpu_limits.run([sys.executable, *args, "--workers", k], cpu=30, capture_output=True, text=True, cwd=ROOT)
        for k in ("1", "2")
    }
    for k, d in done.items():
        assert d.returncode == 0, (k, d.stderr)
    assert json.loads(done["1"].stdout) == json.loads(done["2"].stdout)


def test_your_stat_block_travels_in_the_matchups_and_the_lookup_is_left_alone(hag):
    from arena.study.calibration import calibrate as cal
    from arena.world import bestiary

    lookup = bestiary.get_creature
    name, stat_block = cal.calibration_monster("Bog Hag", [hag])
    assert name == "bog-hag" and stat_block is not None and stat_block.hp == 40
    (subject,) = [
        m
        for m in cal.calibration_matchups([cal.CalibrationCell(5, name, 4, ("3d6",), stat_block)], 4, 0)
        if m.monster == "bog-hag"
    ]
    again = pickle.loads(pickle.dumps(subject))  # what a worker receives
    assert again.stat_block == stat_block and again.digest() == subject.digest()
    assert again.creature() == stat_block
    assert calibrate("bog-hag", "--bestiary", str(hag), *SMALL)  # a calibration in this process ...
    assert bestiary.get_creature is lookup and not hasattr(lookup, "__wrapped__")  # ... patches no lookup
    with pytest.raises(Exception, match="unknown creature 'bog-hag'"):
        bestiary.get_creature("bog-hag")  # a plain name is not the user's
    assert cal.calibration_monster("troll", [hag]) == ("troll", None)  # a built-in is looked up by name
    assert cal.calibration_monster("ogre") == ("ogre", None)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["bog-hag", "--party-level", "5"], "unknown creature 'bog-hag'"),
        (["bog-hag", "--bestiary", "nowhere.yaml"], "--bestiary nowhere.yaml: no such file or folder"),
        (["bog-haag", "--bestiary", "{hag}"], "did you mean bog-hag"),
        (["--grid", "--bestiary", "{hag}"], "--population srd and --grid calibrate built-in creatures only"),
        (["--population", "srd", "--cr", "3", "--bestiary", "{hag}"], "--grid calibrate built-in creatures only"),
        (["no-cr", "--bestiary", "{nocr}"], "nocr.yaml:1: (document): a monster needs a cr (challenge rating)"),
        (["sly", "--bestiary", "{sly}"], "sly: tactics: unknown policy 'focus-weakst'; did you mean focus-weakest"),
    ],
)
def test_bad_calibrations_are_one_error_line(tmp_path, hag, args, needle):
    nocr = tmp_path / "nocr.yaml"
    nocr.write_text(HAG.replace("name: bog-hag", "name: no-cr").replace("cr: 4\n", ""))
    sly = tmp_path / "sly.yaml"
    sly.write_text(HAG.replace("name: bog-hag", "name: sly") + "tactics: focus-weakst\n")
    args = [a.format(hag=hag, nocr=nocr, sly=sly) for a in args]
    result = runner.invoke(app, ["calibrate", *args, "--n", "4", "--workers", "1"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr
    assert result.stdout == ""


def test_claims_read_your_files_and_say_they_cannot_change_a_verdict(hag):
    plain = runner.invoke(app, ["claims", "--only", "press-luck-5,prad-attacks-same", "--json"])
    mine = runner.invoke(app, ["claims", "--only", "press-luck-5,prad-attacks-same", "--json", "--bestiary", str(hag)])
    assert plain.exit_code == 0 and mine.exit_code == 0, mine.output
    assert json.loads(mine.stdout) == json.loads(plain.stdout)
    note = mine.stderr.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("--bestiary: 1 creature read and checked (bog-hag)")
    assert "cannot replace" in note[0] and plain.stderr == ""
    table = runner.invoke(app, ["claims", "--only", "press-luck-5", "--bestiary", str(hag)])
    assert table.exit_code == 0 and "press-luck-5" in table.stdout and "cannot replace" in table.stderr


def test_claims_refuse_a_bad_stat_block_before_any_fight(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HAG.replace("hp: 40", "hp: lots"))
    result = runner.invoke(app, ["claims", "--only", "press-luck-5", "--bestiary", str(bad)])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "bad.yaml:4" in lines[0], result.stderr
    missing = runner.invoke(app, ["claims", "--only", "press-luck-5", "-b", str(tmp_path / "none.yaml")])
    assert missing.exit_code == 2 and "no such file or folder" in missing.stderr
