"""The source documents' worked examples, as tests."""

from fractions import Fraction

from arena.dice import Stream
from arena.rules import Check, RuleSet, bell_curve, exact, players_roll, resolve
from arena.rules.kernel import kernel_for
from arena.rules.naturals import draw_for
from arena.rules.variable_modifiers import variable_text

OPEN = RuleSet(open_ended=True)


def d20s(*faces):
    return Stream.scripted([(f, 20) for f in faces])


def test_throg_20_then_12_is_41_a_critical_against_ac_18():
    out = resolve(Check("attack", "pc", 9, 18), OPEN, d20s(20, 12))
    assert (out.natural, out.total) == (20, 41)
    assert out.success and out.critical_success and out.critical


def test_throg_20_then_4_is_33_a_hit_but_no_critical_against_ac_16():
    out = resolve(Check("attack", "pc", 9, 16), OPEN, d20s(20, 4))
    assert out.total == 33
    assert out.success and not out.critical_success and not out.critical


def test_bob_1_then_16_with_10_is_minus_6_a_fumble_against_dc_15():
    out = resolve(Check("skill", "pc", 10, 15), OPEN, d20s(1, 16))
    assert out.total == -6
    assert not out.success and out.fumble


def test_throg_1_then_6_with_3_is_minus_3_no_fumble():
    out = resolve(Check("ability", "pc", 3, 15), OPEN, d20s(1, 6))
    assert out.total == -3
    assert not out.success and not out.fumble


def test_low_chain_1_1_7_is_minus_27():
    out = resolve(Check("skill", "pc", 0, 15), OPEN, d20s(1, 1, 7))
    assert out.total == -27


def test_high_chain_keeps_adding_while_20():
    out = resolve(Check("skill", "pc", 0, 15), OPEN, d20s(20, 20, 5))
    assert out.total == 45


def test_threat_range_natural_explodes_for_attacks_only():
    out = resolve(Check("attack", "pc", 0, 15, threat=19), OPEN, d20s(19, 3))
    assert out.total == 22
    assert resolve(Check("skill", "pc", 0, 15), OPEN, d20s(19)).total == 19


def test_ogre_greatclub_plus_8_is_attack_score_19():
    assert players_roll.score(8) == 19
    plan = kernel_for(RuleSet(players_roll_all=True)).plan(Check("attack", "monster", 8, 17))
    assert (plan.roller, plan.roller_kind, plan.target) == ("pc", "defense", 19)


def test_defense_check_equal_to_attack_score_misses():
    # AC 17 -> defense modifier +7; a natural 12 makes 19 = the ogre's attack score: the attack misses.
    out = resolve(Check("attack", "monster", 8, 17), RuleSet(players_roll_all=True), d20s(12))
    assert out.total == 19 and not out.success


def test_2_5_6_6_is_17_on_4d6_drop_lowest():
    rules = RuleSet(die="3d6")
    out = resolve(
        Check("skill", "pc", 0, 10, auspicious=True), rules, Stream.scripted([draw_for("4d6kh3", (2, 5, 6, 6))])
    )
    assert out.natural == 17


def test_variable_dice_from_the_tables():
    assert variable_text(4) == "1d8"
    assert variable_text(13) == "1d20+1d6"
    assert variable_text(-15) == "-(1d20+1d10)"
    assert variable_text(1) == "1" and variable_text(-1) == "-1"
    assert variable_text(11) == "1d20+1" and variable_text(-12) == "-(1d20+1d4)"
    assert variable_text(7) == "2d6" and variable_text(8) == "3d4" and variable_text(9) == "2d8"


def test_bell_curve_automatic_results_are_under_half_a_percent():
    probs = exact(Check("attack", "pc", 0, 11), RuleSet(die="3d6")).probabilities
    assert probs["auto_success"] == probs["auto_failure"] == Fraction(1, 216)


def test_threat_range_conversion_table():
    assert bell_curve.THREAT_RANGE_CONVERSION == {20: 16, 19: 15, 18: 14, 17: 14, 15: 13}
    narrow = exact(Check("attack", "pc", 30, 10), RuleSet(die="3d6")).probabilities
    assert narrow["threat"] == Fraction(10, 216)  # 16-18: 4.6%
    wide = exact(Check("attack", "pc", 30, 10, threat=18), RuleSet(die="3d6")).probabilities
    assert wide["threat"] == Fraction(35, 216)  # 14-18: 16%
