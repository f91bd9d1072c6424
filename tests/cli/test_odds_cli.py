"""`arena odds`: JSON shapes, tables, claims, and one-line errors with exit code 2."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()


def run_json(*args):
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_attack_json_shape():
    obj = run_json("odds", "attack", "--bonus", "8", "--ac", "18", "--threat", "19-20")
    assert set(obj) >= {"check", "rules", "outcomes"}
    assert obj["rules"]["key"] == "d20"
    assert obj["outcomes"]["hit"] == {"p": 0.55, "exact": "11/20"}
    assert obj["outcomes"]["threat"]["exact"] == "1/10"
    assert "item_damage" not in obj["outcomes"] and "fumble" not in obj["outcomes"]


def test_open_ended_json_states_its_depth():
    obj = run_json("odds", "save", "--save", "4", "--dc", "16", "--rules", "3d6+open")
    assert obj["truncated"]["error_bound"] < 1e-12
    assert "critical_success" in obj["outcomes"] and "auto_success" not in obj["outcomes"]


def test_all_variants_lists_every_single_roll_rule_set():
    rows = run_json("odds", "sr", "--caster-level", "9", "--sr", "18", "--caster", "monster", "--all-variants")
    keys = [r["rules"]["key"] for r in rows]
    assert "d20" in keys and "3d6+prad+luck+open" in keys and "fixed10" in keys
    prad = next(r for r in rows if r["rules"]["key"] == "d20+prad")
    assert prad["roller"] == "pc" and prad["outcomes"]["success"]["exact"] == "11/20"  # d + 8 >= 20 fails the spell


def test_check_take_and_flags():
    obj = run_json("odds", "check", "--modifier", "5", "--target", "20", "--take", "16", "--die", "3d6")
    assert obj["outcomes"]["success"]["p"] == 1.0


def test_modifiers_and_press_luck_tables():
    rows = run_json("odds", "modifiers")
    assert len(rows) == 51 and next(r for r in rows if r["modifier"] == 13)["dice"] == "1d20+1d6"
    rows = run_json("odds", "press-luck")
    assert [set(r) for r in rows[:1]] == [{"modifier", "p_static", "p_pressed", "ratio"}]
    assert round(next(r for r in rows if r["modifier"] == 15)["ratio"], 2) == 3.81


def test_claims_json():
    claims = run_json("odds", "claims")
    ids = {c["id"] for c in claims}
    assert {"bell-automatic-rate", "press-luck-5", "press-luck-15", "prad-attacks-same", "open-ended-rates"} <= ids
    for c in claims:
        assert set(c) == {"id", "source", "quote", "criterion", "numbers", "verdict"}
        assert c["verdict"] in {"holds", "imprecise", "wrong"}
        assert c["source"].endswith(".txt")


def test_human_table_prints():
    result = runner.invoke(app, ["odds", "attack", "--bonus", "5", "--ac", "15", "--all-variants"])
    assert result.exit_code == 0 and "fixed10" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["odds", "attack", "--bonus", "5", "--ac", "15", "--threat", "21-20"], "threat range"),
        (["odds", "attack", "--bonus", "5", "--ac", "15", "--rules", "d20+wild"], "unknown variant"),
        (["odds", "check", "--modifier", "5", "--target", "15", "--take", "20", "--die", "3d6"], "take 20"),
        (["odds", "attack", "--bonus", "5", "--ac", "15", "--auspicious"], "bell curve"),
        (["odds", "attack", "--bonus", "5", "--ac", "15", "--modifiers", "wild"], "wild"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, needle):
    proc = subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr


def test_attack_expected_damage_per_attack_and_per_routine():
    """Issue 17, the calculator: --damage gives the expected damage with criticals (a critical multiplies the whole
    roll): +13 against AC 20, 19-20/x2, 2d6+7 (mean 14): hit 7/10, critical 7/100, so 0.63 x 14 + 0.07 x 28."""
    result = runner.invoke(
        app, ["odds", "attack", "--bonus", "13/8/3", "--ac", "20", "--threat", "19-20", "--damage", "2d6+7", "--json"]
    )
    assert result.exit_code == 0, result.output
    expected = json.loads(result.output)["expected_damage"]
    assert expected["per_attack"]["+13"] == pytest.approx(0.63 * 14 + 0.07 * 28)
    assert expected["per_attack"]["+3"] == pytest.approx((0.20 - 0.02) * 14 + 0.02 * 28)
    assert expected["per_routine"] == pytest.approx(sum(expected["per_attack"].values()))
    plain = runner.invoke(
        app, ["odds", "attack", "--bonus", "13/8/3", "--ac", "20", "--threat", "19-20", "--damage", "2d6+7"]
    )
    assert "per full attack routine 20.79" in plain.output
    bad = runner.invoke(app, ["odds", "attack", "--bonus", "13/x", "--ac", "20"])
    assert bad.exit_code == 2 and "13/8/3" in bad.output


def test_the_title_says_when_the_roll_is_pressed_or_rerolled():
    result = runner.invoke(app, ["odds", "attack", "--bonus", "8", "--ac", "18", "--luck-reroll"])
    assert result.exit_code == 0 and "(Luck reroll)" in result.output
