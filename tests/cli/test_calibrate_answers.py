"""`arena calibrate` answers in one sentence per cell: the stated CR, the equivalent CR under each rule set with its
interval and a verdict; a saturated or off-ladder answer said as the bound it is. Small seeded runs (n=20, one
worker), so every number below is exact."""

from __future__ import annotations

import math

import pytest
import yaml
from typer.testing import CliRunner

from arena.cli import app
from arena.cli import calibration_answers as words

runner = CliRunner()
SMALL = ["--party-level", "5", "--n", "20", "--workers", "1", "--rules", "d20,3d6"]
HINT = words.HINT


def _calibrate(*args: str) -> list[str]:
    result = runner.invoke(app, ["calibrate", *args, *SMALL])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_a_monster_that_fits_its_cr_leads_with_one_sentence():
    lines = _calibrate("troll", "--sizes", "1")
    assert lines[0] == (
        "troll (CR 5) plays like CR 6.1 [4.8, 6.3] against a level-5 party under d20 (its CR fits); "
        "under 3d6 like CR 4.4 [3.9, 5.0] (easier than its CR)."
    )
    assert HINT not in lines


def test_a_saturated_group_is_said_as_a_bound_in_words_and_in_the_note():
    lines = _calibrate("troll", "--sizes", "6")
    assert lines[0] == (
        "6 x troll (CR 5) play like 6 x CR 4 or higher against a level-5 party under d20 (its CR fits; saturated: "
        "the party loses 95% or more of its hit points on average, as against the typical monsters of every CR from "
        "4 to 9); under 3d6 like CR 4 or higher (its CR fits; saturated too)."
    )
    assert lines[1] == HINT
    assert sum("saturated: any CR 4 .. 9 fits" in line for line in lines) == 2


def test_an_off_ladder_monster_is_harder_than_the_top_of_its_ladder():
    lines = _calibrate("srd/giant-stag-beetle", "--sizes", "1", "--metric", "hp-lost")  # by resources: 6.9
    assert lines[0] == (
        "srd/giant-stag-beetle (CR 4) plays like more than CR 8 against a level-5 party under d20 (harder than its "
        "CR; off the ladder, whose top is CR 8); under 3d6 like more than CR 8 (harder than its CR; off the ladder "
        "too)."
    )
    assert lines[1] == HINT


def test_without_d20_asked_the_sentence_still_gives_d20_its_interval_and_the_table_shows_only_3d6():
    result = runner.invoke(
        app, ["calibrate", "troll", "--sizes", "1", "--party-level", "5", "--n", "20", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("troll (CR 5) plays like CR 6.1 [4.8, 6.3] against a level-5 party under d20")
    rows = [line.split() for line in lines if line.split()[:1] == ["5"]]  # the table's rows: party level 5
    assert len(rows) == 1 and rows[0][3] == "3d6"


FEN_DRAKE = {
    "name": "fen-drake",
    "type": "dragon",
    "size": "large",
    "cr": 4,
    "hp": 45,
    "hit_dice": "6d12+6",
    "initiative": 1,
    "speed": 40,
    "ac": 18,
    "touch_ac": 10,
    "flat_footed_ac": 17,
    "bab": 6,
    "grapple": 14,
    "abilities": {"str": 19, "dex": 12, "con": 13, "int": 6, "wis": 11, "cha": 9},
    "saves": {"fort": 6, "ref": 6, "will": 5},
    "attack": [[{"name": "bite", "bonuses": [9], "damage": "2d6+4", "damage_types": ["piercing"]}]],
    "full_attack": [
        [
            {"name": "bite", "bonuses": [9], "damage": "2d6+4", "damage_types": ["piercing"]},
            {"name": "claw", "count": 2, "bonuses": [4], "damage": "1d6+2", "damage_types": ["slashing"]},
        ]
    ],
}


@pytest.fixture
def fen_drake(tmp_path):
    path = tmp_path / "my.yaml"
    path.write_text(yaml.safe_dump(FEN_DRAKE, sort_keys=False))
    return str(path)


def test_your_monster_stands_beside_the_srd_creatures_of_its_cr(fen_drake):
    lines = _calibrate("fen-drake", "--bestiary", fen_drake, "--population", "srd", "--sample", "3", "--sizes", "1")
    assert lines[:2] == [
        "fen-drake (CR 4) plays like CR 4.4 [3.9, 4.9] against a level-5 party under d20 (its CR fits); "
        "under 3d6 like CR 3.8 [3.5, 4.3] (its CR fits).",
        "Against a level-5 party under d20 the 3 SRD creatures of CR 4 play like CR 6.2 (median; 6.1 to 6.9), "
        "fen-drake harder than 0 of them; under 3d6 like CR 6.1 (median; 4.5 to 6.4), fen-drake harder than 0 of "
        "them.",
    ]
    assert HINT not in lines
    summary = lines[lines.index("SRD population of CR 4 (3 creatures):") + 1 :]
    assert " ".join(summary[0].split()) == (
        "size rules median c* c* min c* max median delta delta min delta max creatures bounds only fen-drake c* "
        "harder than"
    )
    assert " ".join(summary[1].split()) == "1 d20 6.23 6.05 6.93 +0.00 +0.00 +0.00 3 0 4.36 0"


def test_a_population_monster_of_another_cr_is_one_error_line(fen_drake):
    result = runner.invoke(app, ["calibrate", "fen-drake", "--bestiary", fen_drake, "--population", "srd", "--cr", "3"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "fen-drake is CR 4, not --cr 3" in result.output


ROW = {
    "party_level": 5,
    "monster": "m",
    "cr": "4",
    "size": 1,
    "rules": "d20",
    "difficulty": 0.5,
    "difficulty_d20": 0.5,
    "c_star": 4.0,
    "c_star_low": 3.5,
    "c_star_high": 4.5,
    "c_star_d20": 4.0,
    "censored": "",
    "ladder": "1/2..8",
}


@pytest.mark.parametrize(
    ("changes", "kind", "stretch", "verdict"),
    [
        ({}, "", (0.0, 8.0), "its CR fits"),
        ({"c_star": 6.0, "c_star_low": 5.0, "c_star_high": 7.0}, "", (0.0, 8.0), "harder than its CR"),
        ({"c_star": 2.0, "c_star_low": 1.0, "c_star_high": 3.0}, "", (0.0, 8.0), "easier than its CR"),
        ({"difficulty": 1.0, "c_star": 6.5}, "saturated-top", (5.0, 8.0), "harder than its CR"),
        ({"difficulty": 1.0, "c_star": 5.5}, "saturated-top", (3.0, 8.0), "its CR fits"),
        ({"difficulty": 0.0, "c_star": 1.0}, "saturated-bottom", (0.0, 2.0), "easier than its CR"),
        ({"c_star": 0.0, "censored": "below"}, "below", (0.0, 8.0), "easier than its CR"),
        ({"c_star": 8.0, "censored": "above"}, "above", (0.0, 8.0), "harder than its CR"),
    ],
)
def test_a_row_is_read_as_a_number_a_saturated_stretch_or_a_side_off_the_ladder(changes, kind, stretch, verdict):
    r = words.row_reading({**ROW, **changes})
    assert (r.kind, r.stretch, words.verdict(r, 4.0)) == (kind, stretch, verdict)


def test_a_censored_flag_from_d20_is_not_the_other_rule_sets_own():
    row = {**ROW, "rules": "3d6", "c_star": 7.2, "c_star_d20": 8.0, "censored": "above"}
    assert words.row_reading(row).kind == ""
    assert words.d20_reading(row).kind == "above"
    assert math.isnan(words.d20_reading(row).low)


def test_cr_text_names_the_rungs_below_one_by_their_fraction():
    assert [words.cr_text(x) for x in (-4.0, 0.0, 5.0, 6.08)] == ["1/8", "1/2", "5", "6.1"]
    # between rungs below CR 1, the CR between the two rungs' CRs: never a position a reader takes for a CR
    assert [words.cr_text(x) for x in (0.5, -1.5, -0.25)] == ["0.75", "0.29", "0.46"]


def test_resuming_a_complete_calibration_prints_its_table_again(tmp_path):
    """The CSV's empty saturation cells (a row that is not saturated) are read back as text, not NaN: the note
    column must still read them, or the table is silently left out."""
    folder = str(tmp_path / "cal")
    first = _calibrate("troll", "--sizes", "1", "--out", folder)
    rows = [" ".join(line.split()) for line in first if line.split()[:2] == ["5", "troll"]]
    assert len(rows) == 2
    again = _calibrate("troll", "--sizes", "1", "--out", folder, "--resume")
    assert [" ".join(line.split()) for line in again if line.split()[:2] == ["5", "troll"]] == rows
    assert again[-1].endswith("holds a complete calibration already: nothing to resume (run it again with --force)")


def test_a_group_off_the_ladder_is_compared_with_a_group_of_the_top_rung():
    row = {**ROW, "size": 6, "c_star": 8.0, "c_star_d20": 8.0, "censored": "above"}
    assert words.sentence([row], "resources").startswith(
        "6 x m (CR 4) play like more than 6 x CR 8 against a level-5 party under d20 (harder than its CR; "
    )
