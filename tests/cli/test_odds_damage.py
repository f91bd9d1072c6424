"""`arena odds damage`: the exact output of one call, the JSON with exact fractions per rule set, the plot, the
routine's two spellings, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.rules import Check, RuleSet, odds

runner = CliRunner()
HAND = ["--bonus", "0", "--ac", "11", "--threat", "19-20", "--damage", "1d4+1", "--rider", "+1d6 fire", "--dr", "2"]
"""The hand-worked case of tests/rules/test_damage_odds.py: hit 1/2, critical 1/20, x2, DR 2, +1d6 fire."""


def run(*args: str, width: str = "100"):
    return runner.invoke(app, ["odds", "damage", *args], env={"COLUMNS": width})


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


EXPECTED = """\
damage of an attack +0 by a pc against AC 11: 1d4+1 (19-20/x2), +1d6 fire, DR 2, concealment 50%

  damage   P(damage = d)   P(damage >= d)
 ─────────────────────────────────────────
       0             3/4                1
       1           3/320              1/4
       2           3/160           77/320
       3        109/3840           71/320
       4         49/1280         743/3840
       5           5/128          149/960
       6         77/1920         223/1920
       7        121/3840           73/960
       8         29/1280          57/1280
       9         17/1280            7/320
      10         13/3840          11/1280
      11           1/384            1/192
      12           1/640            1/384
      13          1/1280            1/960
      14          1/3840           1/3840


  rules   roller   hit   critical   mean damage
 ───────────────────────────────────────────────
  d20     pc       1/2       1/20        107/80

chance to drop a foe of 10 hp (to deal 10 damage or more)

  within               d20
 ──────────────────────────
  1 round          11/1280
  2 rounds   64229/1228800

"""


def test_the_exact_output_of_one_call():
    result = run(*HAND, "--concealment", "50", "--hp", "10", "--rounds", "2", "--exact")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    # rich pads each line to the table's width: the lines are compared without their trailing spaces
    assert [line.rstrip() for line in result.stdout.splitlines()] == EXPECTED.splitlines()


def test_percentages_by_default():
    result = run(*HAND, "--concealment", "50")
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert "0         75.000%         100.000%" in lines
    assert "14          0.026%           0.026%" in lines  # 1/3840
    assert "d20     pc       50.000%     5.000%         1.337" in lines


def test_several_rule_sets_keep_their_exact_fractions_side_by_side():
    doc = run_json(*HAND, "--rules", "d20,3d6,3d6+var+open", "--hp", "12", "--rounds", "3")
    assert [r["rules"]["key"] for r in doc["rule_sets"]] == ["d20", "3d6", "3d6+var+open"]
    assert doc["riders"] == [{"dice": "1d6", "type": "fire", "energy": True}] and doc["damage_reduction"] == 2
    for r in doc["rule_sets"]:
        dist = {row["damage"]: Fraction(row["exact"]) for row in r["distribution"]}
        assert sum(dist.values()) == 1
        assert r["distribution"][0]["at_least"]["exact"] == "1/1"
        mean = sum(d * p for d, p in dist.items())
        assert Fraction(r["mean_damage"]["exact"]) == mean and r["mean_damage"]["value"] == float(mean)
        assert Fraction(r["drop"][0]["exact"]) == sum(p for d, p in dist.items() if d >= 12)
        assert [d["rounds"] for d in r["drop"]] == [1, 2, 3]
    d20, bell, open_ = doc["rule_sets"]
    assert d20["attacks"] == [{"bonus": 0, "hit": {"p": 0.5, "exact": "1/2"}, "critical": {"p": 0.05, "exact": "1/20"}}]
    kernel = odds.odds_object(Check("attack", "pc", 0, 11, 0, 19, 2), RuleSet.from_key("3d6"))["outcomes"]
    assert bell["attacks"][0]["hit"] == kernel["hit"] and bell["attacks"][0]["critical"] == kernel["critical"]
    assert "truncated" in open_ and "truncated" not in d20
    table = run(*HAND, "--rules", "d20,3d6", "--exact", width="200")
    assert "d20 P(=d)" in table.stdout and "3d6 P(>=d)" in table.stdout


def test_a_routine_by_attacks_or_by_repeated_bonus():
    common = ["--ac", "18", "--damage", "2d6+4", "--multiplier", "3", "--hp", "30", "--rounds", "2"]
    by_attacks = run_json("--attacks", "+12/+7", *common)
    by_bonus = run_json("--bonus", "12", "--bonus", "7", *common)
    assert by_attacks == by_bonus and by_attacks["routine"] == [12, 7]
    assert len(by_attacks["rule_sets"][0]["attacks"]) == 2


def test_all_variants_compares_every_single_roll_rule_set():
    doc = run_json(*HAND, "--all-variants")
    assert len(doc["rule_sets"]) == len(odds.kernel_variants())


def test_rule_sets_too_many_for_the_console_get_a_block_each():
    """26 rule sets side by side fold every cell to one character a line: each gets its own tables instead."""
    doc = run_json(*HAND, "--all-variants", "--hp", "5", "--rounds", "2")
    result = run(*HAND, "--all-variants", "--hp", "5", "--rounds", "2", width="200")
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    for r in doc["rule_sets"]:
        block = lines[lines.index(f"rules {r['rules']['key']}:") :]
        first = r["distribution"][0]
        p = f"{first['p'] * 100:.3f}%"
        assert block[4] == f"{first['damage']} {p} 100.000%"
        drop = block[block.index("within " + r["rules"]["key"]) + 2]
        assert drop == f"1 round {r['drop'][0]['p'] * 100:.3f}%"
    assert max(len(line) for line in result.stdout.splitlines()) <= 200


def test_a_plot_is_written(tmp_path):
    out = tmp_path / "damage.png"
    result = run(*HAND, "--rules", "d20,3d6", "--hp", "8", "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert result.stdout.rstrip().endswith(f"wrote {out}")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--ac", "11", "--damage", "1d4"], "give the attack bonus"),
        (["--attacks", "+5/+0", "--bonus", "3", "--ac", "11", "--damage", "1d4"], "not both"),
        (["--bonus", "0..5", "--ac", "11", "--damage", "1d4"], "sweep the hit chance with arena odds attack"),
        (["--attacks", "1/2/3/4/5/6/7/8/9", "--ac", "11", "--damage", "1d4"], "one to eight attacks"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4+"], "--damage"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--rider", "1d6 poison"], "none of acid"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--rider", "1d6x fire"], "--rider '1d6x fire': dice"),
        (["--attacks", "+5/x", "--ac", "11", "--damage", "1d4"], "--attacks '+5/x'"),
        (["--attacks", "8..13/3..5", "--ac", "11", "--damage", "1d4"], "--attacks '8..13/3..5': in a swept routine"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--rounds", "3"], "--hp"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--hp", "0"], "--hp 0 is outside 1..2000"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--concealment", "120"], "--concealment 120"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--dr", "-1"], "--dr -1"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--multiplier", "9"], "--multiplier 9"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--plot", "out.svg"], "name the file *.png"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--rules", "d30"], "d30"),
        (["--bonus", "0", "--ac", "11", "--damage", "100d100"], "--damage '100d100' can total 9,901 different"),
        (["--bonus", "0", "--ac", "11", "--damage", "1d4", "--rider", "100d6 fire"], "--rider '100d6' can total 501"),
        (
            ["--bonus", "0", "--ac", "11", "--damage", "40d10", "--multiplier", "5", "--hp", "2000", "--rounds", "20"],
            "fewer rounds or hit points",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert words in result.stderr and result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1
