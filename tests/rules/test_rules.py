"""Rule sets, keys, refusals, and the rules each document adds."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.errors import RulesError
from arena.rules import Check, RuleOptions, RuleSet, default_grid, exact, roller
from arena.rules.check import attack_check, simple_check


@pytest.mark.parametrize(
    "key", ["d20", "3d6", "fixed10", "3d6+prad+luck+open", "d20+var+called", "3d6+prad+var+open+called", "fixed10+prad"]
)
def test_keys_round_trip(key):
    assert RuleSet.from_key(key).key == key


@pytest.mark.parametrize(
    "key",
    [
        "d12",
        "3d6+luck+prad",
        "d20+var+luck",
        "d20+open+open",
        "fixed10+var",
        "fixed10+open",
        "fixed10+called",
        "d20+wild",
    ],
)
def test_bad_keys_are_refused_with_a_reason(key):
    with pytest.raises(RulesError) as err:
        RuleSet.from_key(key)
    assert key in str(err.value)


def test_default_grid_is_every_documented_combination():
    keys = [r.key for r in default_grid()]
    assert len(keys) == len(set(keys)) == 48
    assert "d20" in keys and "3d6+prad+luck+open+called" in keys


@pytest.mark.parametrize(
    ("check", "rules", "message"),
    [
        (Check("skill", "pc", 0, 10, take=20), RuleSet(die="3d6"), "take 20"),
        (Check("skill", "pc", 0, 10, take=16), RuleSet(), "take 16"),
        (Check("attack", "pc", 0, 10, take=10), RuleSet(), "skill and ability"),
        (Check("attack", "pc", 0, 10, threat=21), RuleSet(), "threat range"),
        (Check("attack", "pc", 0, 10, threat=1), RuleSet(), "threat range"),
        (Check("initiative", "pc", 0, 10, press_luck=True), RuleSet(die="3d6", modifiers="press-luck"), "initiative"),
        (Check("attack", "pc", 0, 10, unconscious=True, press_luck=True), RuleSet(die="3d6"), "unconscious"),
        (
            Check("attack", "monster", 5, 15, flat_footed=True, press_luck=True),
            RuleSet(die="3d6", players_roll_all=True, modifiers="press-luck"),
            "flat-footed",
        ),
        (Check("attack", "pc", 0, 10, auspicious=True), RuleSet(), "bell curve"),
        (Check("bogus", "pc"), RuleSet(), "check kind"),
    ],
)
def test_checks_the_documents_forbid(check, rules, message):
    with pytest.raises(RulesError, match=message):
        exact(check, rules)


def test_take_is_static_even_under_variable_modifiers():
    probs = exact(Check("skill", "pc", 7, 17, take=10), RuleSet(modifiers="variable")).probabilities
    assert probs["success"] == 1
    probs = exact(Check("skill", "pc", 7, 25, take=18), RuleSet(die="3d6", modifiers="variable")).probabilities
    assert probs["success"] == 1


def test_bell_curve_threat_16_20_option():
    check = Check("attack", "pc", 30, 10, threat=16)
    assert exact(check, RuleSet(die="3d6"))["threat"] == Fraction(56, 216)  # 13-18
    rules = RuleSet(die="3d6", options=RuleOptions(bell_threat_16_20=14))
    assert exact(check, rules)["threat"] == Fraction(35, 216)


def test_bell_curve_threat_below_15_has_no_conversion():
    with pytest.raises(RulesError, match="conversion"):
        exact(Check("attack", "pc", 0, 10, threat=12), RuleSet(die="3d6"))


def test_players_roll_all_moves_the_roll_to_the_player():
    prad = RuleSet(players_roll_all=True)
    assert roller(Check("attack", "monster", 5, 15), prad) == "pc"
    assert roller(Check("save", "monster", 5, 15), prad) == "pc"
    assert roller(Check("caster-level", "monster", 5, 15), prad) == "pc"
    assert roller(Check("attack", "pc", 5, 15), prad) == "pc"
    assert roller(Check("save", "pc", 5, 15), prad) == "pc"
    assert roller(Check("attack", "monster", 5, 15, opponent="monster"), prad) == "monster"
    assert roller(Check("skill", "monster", 5, 15), prad) == "monster"


def test_players_roll_all_ties_go_to_the_player():
    # standard: +8 against AC 18 hits on 10+ (55%); defense: 1d20+8 >= 19 misses on 11+, so hits on 2-10 (+nat 1)
    assert exact(Check("attack", "monster", 8, 18), RuleSet())["success"] == Fraction(11, 20)
    assert exact(Check("attack", "monster", 8, 18), RuleSet(players_roll_all=True))["success"] == Fraction(1, 2)


def test_magic_check_natural_20_damages_items():
    probs = exact(Check("save", "monster", 30, 10), RuleSet(players_roll_all=True)).probabilities
    assert probs["item_damage"] == Fraction(1, 20)
    assert probs["success"] == Fraction(19, 20)  # the natural 20 magic check always affects


def test_prad_threat_is_the_documents_natural_1_unless_mirrored():
    """Doc 001: "If a player rolls a natural 1 on a defense check, his character's opponent has scored a threat"
    (the default, ``die-minimum``: only the die's lowest natural, whatever the weapon's range); ``mirror`` keeps a
    19-20 weapon's 10% (defense naturals 1-2; on 3d6, a 16-18 weapon's 3-5)."""
    check = Check("attack", "monster", 30, 10, threat=19)
    assert RuleOptions().prad_threat == "die-minimum"
    assert exact(check, RuleSet(players_roll_all=True))["threat"] == Fraction(1, 20)
    mirror = RuleSet(players_roll_all=True, options=RuleOptions(prad_threat="mirror"))
    assert exact(check, mirror)["threat"] == Fraction(2, 20)
    bell = Check("attack", "monster", 30, 10, threat=17)
    assert exact(bell, RuleSet(die="3d6", players_roll_all=True))["threat"] == Fraction(1, 216)
    bell_mirror = RuleSet(die="3d6", players_roll_all=True, options=RuleOptions(prad_threat="mirror"))
    assert exact(bell, bell_mirror)["threat"] > Fraction(1, 216)


def test_hidden_modifier_is_static_after_pressing():
    rules = RuleSet(die="3d6", modifiers="press-luck")
    seen = exact(Check("attack", "pc", 5, 15, hidden=-2, press_luck=True), rules)["success"]
    known = exact(Check("attack", "pc", 5, 17, press_luck=True), rules)["success"]
    assert seen == known


def test_open_ended_removes_automatic_results_unless_kept():
    probs = exact(Check("attack", "pc", 0, 15), RuleSet(open_ended=True)).probabilities
    assert "auto_success" not in probs
    kept = RuleSet(open_ended=True, options=RuleOptions(open_automatic=True))
    assert "auto_success" in exact(Check("attack", "pc", 0, 15), kept).probabilities


def test_open_ended_exact_reports_its_truncation():
    result = exact(Check("attack", "pc", 0, 15), RuleSet(open_ended=True))
    assert result.truncated and result.error_bound < 1e-12 and result.depth >= 9


def test_luck_reroll_helps_more_on_d20_than_a_plain_3d6_reroll():
    once = exact(Check("skill", "pc", 0, 11), RuleSet())["success"]
    twice = exact(Check("skill", "pc", 0, 11, luck_reroll=True), RuleSet())["success"]
    assert twice == once + (1 - once) * once


def test_auspicious_odds_ends_on_four_ones():
    probs = exact(Check("attack", "pc", 5, 15, auspicious=True), RuleSet(die="3d6")).probabilities
    assert probs["spell_ends"] >= Fraction(1, 1296)


@given(
    side=st.sampled_from(["pc", "monster"]),
    modifier=st.integers(-20, 40),
    target=st.integers(0, 60),
    threat=st.integers(15, 20),
    multiplier=st.integers(2, 4),
    flat_footed=st.booleans(),
    press=st.booleans(),
)
def test_the_fast_check_builders_give_the_checks_of_the_keyword_constructor(
    side, modifier, target, threat, multiplier, flat_footed, press
):
    """``attack_check`` and ``simple_check`` build a Check from the full tuple of its fields (the hot loop's): each
    field must land where the keyword constructor puts it."""
    other = "monster" if side == "pc" else "pc"
    assert attack_check(side, modifier, target, threat, multiplier, other, flat_footed, press) == Check(
        "attack",
        side,
        modifier=modifier,
        target=target,
        threat=threat,
        multiplier=multiplier,
        opponent=other,
        flat_footed=flat_footed,
        press_luck=press,
    )
    for kind in ("save", "ability", "skill", "caster-level"):
        assert simple_check(kind, side, modifier, target, other) == Check(
            kind, side, modifier=modifier, target=target, opponent=other
        )
    assert simple_check("ability", side, modifier, target, None) == Check("ability", side, modifier, target)
