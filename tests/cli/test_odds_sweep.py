"""Issue 17, the calculator: `arena odds attack` sweeps --ac or --bonus over an inclusive range A..B (a table row
per value, --json rows, --plot a line plot), under one rule set or several, and refuses a bad range in one line."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import cpu_limits
import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.cli.odds import plot_rows, sweep_rows
from arena.rules import Check, RuleSet

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def rows_of(*args: str) -> list[dict]:
    result = runner.invoke(app, ["odds", "attack", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_an_ac_sweep_has_one_row_per_value_with_the_exact_odds():
    rows = rows_of("--bonus", "8", "--ac", "15..25")
    assert [r["ac"] for r in rows] == list(range(15, 26))
    assert {r["bonus"] for r in rows} == {8} and {r["rules"]["key"] for r in rows} == {"d20"}
    # d20 + 8 >= AC: 14/20 at AC 15, down a twentieth per point; a natural 20 always hits
    assert [Fraction(r["outcomes"]["hit"]["exact"]) for r in rows] == [
        Fraction(max(1, 29 - ac), 20) for ac in range(15, 26)
    ]
    single = json.loads(runner.invoke(app, ["odds", "attack", "--bonus", "8", "--ac", "18", "--json"]).stdout)
    assert rows[3]["outcomes"] == single["outcomes"] and rows[3]["check"] == single["check"]


def test_a_bonus_sweep_with_damage_gives_expected_damage_per_attack_and_per_routine():
    rows = rows_of("--bonus", "0..20", "--ac", "20", "--threat", "19-20", "--damage", "2d6+7")
    assert [r["bonus"] for r in rows] == list(range(21))
    plus13 = rows[13]["expected_damage"]
    assert plus13["mean_damage"] == 14 and plus13["per_attack"] == {"+13": pytest.approx(0.63 * 14 + 0.07 * 28)}
    assert plus13["per_routine"] == pytest.approx(plus13["per_attack"]["+13"])
    spent = [r["expected_damage"]["per_routine"] for r in rows]
    assert spent == sorted(spent)  # a higher bonus never does less


def test_a_swept_routine_steps_its_ranges_together():
    rows = rows_of("--bonus", "8..13/3..8/0", "--ac", "18", "--damage", "1d8")
    assert [r["routine"] for r in rows] == [[8 + i, 3 + i, 0] for i in range(6)]
    assert [r["bonus"] for r in rows] == list(range(8, 14))
    full = rows_of("--bonus", "13/8/0", "--ac", "18", "--damage", "1d8")
    assert full["expected_damage"] == rows[-1]["expected_damage"]  # the last row is the routine 13/8/0
    last = rows[-1]["expected_damage"]
    assert list(last["per_attack"]) == ["+13", "+8", "+0"]
    assert last["per_routine"] == pytest.approx(sum(last["per_attack"].values()))


def test_several_rule_sets_give_a_row_per_value_and_rule_set():
    rows = rows_of("--bonus", "5", "--ac", "10..12", "--rules", "d20,3d6+open")
    assert [(r["ac"], r["rules"]["key"]) for r in rows] == [(ac, k) for ac in (10, 11, 12) for k in ("d20", "3d6+open")]
    assert all("truncated" in r for r in rows if r["rules"]["key"] == "3d6+open")
    every = rows_of("--bonus", "5", "--ac", "10..11", "--all-variants")
    keys = {r["rules"]["key"] for r in every}
    assert {"d20", "3d6+prad+luck+open", "fixed10"} <= keys and len(every) == 2 * len(keys)


def test_the_sweep_table_prints_a_row_per_value_whole():
    result = runner.invoke(
        app,
        ["odds", "attack", "--bonus", "13/8/3", "--ac", "15..25", "--damage", "2d6+7", "--rules", "3d6+prad+luck+open"],
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "against AC 15..25" in lines[0]
    for ac in range(15, 26):
        assert sum(1 for line in lines if line.split()[:2] == [str(ac), "3d6+prad+luck+open"]) == 1, ac
    assert "damage per attack" in result.stdout and "per routine" in result.stdout and "…" not in result.stdout
    row = next(line for line in lines if line.split()[:1] == ["18"])
    expected = sweep_rows(
        Check("attack", "pc", 13, 18), [RuleSet.from_key("3d6+prad+luck+open")], [18], [[13, 8, 3]], "2d6+7"
    )[0]["expected_damage"]
    assert f"{expected['per_routine']:.2f}" in row
    plain = runner.invoke(app, ["odds", "attack", "--bonus", "-5..-3", "--ac", "10"])
    assert plain.exit_code == 0 and "modifier -5..-3 against AC 10" in plain.stdout
    assert [line.split()[0] for line in plain.stdout.splitlines() if line.split()[1:2] == ["d20"]] == ["-5", "-4", "-3"]


def test_the_plot_is_a_png_with_one_line_per_rule_set_and_axes_scaled_to_the_data(tmp_path):
    out = tmp_path / "sweep.png"
    result = runner.invoke(
        app,
        [
            "odds",
            "attack",
            "--bonus",
            "8",
            "--ac",
            "15..25",
            "--rules",
            "d20,3d6",
            "--damage",
            "1d8",
            "--plot",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"wrote {out}" in result.stdout

    rows = sweep_rows(
        Check("attack", "pc", 8, 15),
        [RuleSet.from_key("d20"), RuleSet.from_key("3d6")],
        list(range(15, 26)),
        [[8]],
        "1d8",
    )
    seen = {}

    def capture(fig):
        hit, damage = fig.axes
        seen["lines"] = [(line.get_label(), list(line.get_xdata())) for line in hit.get_lines()]
        seen["hit_limits"], seen["damage_limits"] = hit.get_ylim(), damage.get_ylim()
        seen["labels"] = hit.get_xlabel(), hit.get_ylabel(), damage.get_ylabel()

    plot_rows(rows, capture, "ac", "title")
    assert seen["lines"] == [("d20", list(range(15, 26))), ("3d6", list(range(15, 26)))]
    hits = [100 * r["outcomes"]["hit"]["p"] for r in rows]
    low, high = seen["hit_limits"]
    assert low <= min(hits) and high >= max(hits) and (low > 0 or high < 100)  # not a fixed 0-100% axis
    spent = [r["expected_damage"]["per_routine"] for r in rows]
    assert seen["damage_limits"][0] <= min(spent) and seen["damage_limits"][1] < 2 * max(spent)
    assert seen["labels"] == ("target AC", "hit chance", "expected damage per attack")


def test_json_with_a_plot_keeps_stdout_json(tmp_path):
    out = tmp_path / "b.png"
    result = runner.invoke(app, ["odds", "attack", "--bonus", "0..4", "--ac", "18", "--json", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 5 and out.is_file() and "wrote" in result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["--bonus", "8", "--ac", "25..15"],
            "--ac '25..15': the range is empty; write the smaller number first (15..25)",
        ),
        (["--bonus", "8", "--ac", "a..b"], "--ac 'a..b': write a number such as 18 or an inclusive range A..B"),
        (["--bonus", "a..b", "--ac", "18"], "--bonus 'a..b': an attack bonus such as 8"),
        (["--bonus", "20..0", "--ac", "18"], "--bonus '20..0': the range is empty"),
        (["--bonus", "8", "--ac", "15..1000"], "--ac 1000 is outside -200..200"),
        (["--bonus", "8", "--ac", "-100..100"], "201 values; a sweep has at most 101"),
        (["--bonus", "0..5", "--ac", "15..20"], "sweep one of --ac and --bonus at a time"),
        (["--bonus", "8..10/3..4", "--ac", "18"], "every range has as many values"),
        (["--bonus", "8/3..5", "--ac", "18"], "the first bonus is a range"),
        (["--bonus", "8", "--ac", "18", "--plot", "x.png"], "--plot draws a sweep"),
        (["--bonus", "8", "--ac", "15..16", "--plot", "x.svg"], "the plot is a PNG"),
        (["--bonus", "8", "--ac", "15..16", "--plot", "no/such/folder/x.png"], "no folder"),
        (["--bonus", "8", "--ac", "15..16", "--damage", "2x6"], "--damage"),
        (["--bonus", "8", "--ac", "15..16", "--rules", "d20,d21"], "unknown die 'd21'"),
    ],
)
def test_a_bad_sweep_is_one_error_line_and_exit_2(args, needle):
    result = runner.invoke(app, ["odds", "attack", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr
    assert result.stdout == ""


def test_the_error_line_through_the_real_entry_point():
    done = cpu_limits.run(
        [sys.executable, "-m", "arena", "odds", "attack", "--bonus", "8", "--ac", "25..15"],
        cpu=20,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: --ac '25..15': the range is empty; write the smaller number first (15..25)"
    ]


def test_rules_lists_work_on_the_other_roll_commands_too():
    rows = rows_of_command("save", "--save", "4", "--dc", "16", "--rules", "d20,3d6")
    assert [r["rules"]["key"] for r in rows] == ["d20", "3d6"]
    one = rows_of_command("save", "--save", "4", "--dc", "16", "--rules", "d20")
    assert isinstance(one, dict) and one["rules"]["key"] == "d20"


def rows_of_command(*args: str):
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_plot_that_cannot_be_written_leaves_no_table(tmp_path):
    (tmp_path / "taken.png").mkdir()  # a folder where the PNG should go
    done = cpu_limits.run(
        [
            sys.executable,
            "-m",
            "arena",
            "odds",
            "attack",
            "--bonus",
            "8",
            "--ac",
            "15..17",
            "--plot",
            str(tmp_path / "taken.png"),
        ],
        cpu=20,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "taken.png" in lines[0], done.stderr
