"""The Luck domain's reroll decided from the natural alone (``Check.reroll_low``, the fight model's
``luck_reroll: low-natural``), in the kernel: which naturals are low, and the exact, float and sampled faces of a
check with the reroll against a direct computation.

SRD 3.5 Luck Domain: "Granted Power: You gain the power of good fortune, which is usable once per day. This
extraordinary ability allows you to reroll one roll that you have just made before the DM declares whether the
roll results in success or failure. You must take the result of the reroll, even if it's worse than the original
roll." Deciding before success or failure is known, the roller rerolls a low natural: one the die makes at most 10%
of the time from the bottom (:data:`arena.rules.naturals.LOW_NATURAL_SHARE`). Under the bell curve the reroll is
made on 4d6 drop the lowest (document 000's Luck domain), as the kernel's failure-decided reroll is.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from arena.dice import Stream
from arena.errors import RulesError
from arena.rules import Check, RuleSet, exact
from arena.rules.kernel import kernel_for
from arena.rules.naturals import D3D6, D4D6, D20, FIXED, LOW_NATURAL_SHARE, low_natural, natural_distribution

SHARE = Fraction(1, 10)
"""A natural is low when the die rolls it or less at most a tenth of the time."""
REROLL_DIE = {"d20": D20, "3d6": D4D6}
"""The die of the Luck reroll: the same d20, or 4d6 drop the lowest under the bell curve."""
KEYS = ("d20", "3d6", "d20+open", "3d6+open", "d20+prad", "d20+var")
CHECKS = {
    "attack": lambda side: Check("attack", side, 5, 16, threat=19),
    "save": lambda side: Check("save", side, 3, 15),
    "skill": lambda side: Check("skill", side, 7, 20),
    "ability": lambda side: Check("ability", side, -1, 8),
    "caster-level": lambda side: Check("caster-level", side, 9, 20),
    "initiative": lambda side: Check("initiative", side, 3, 12),
    "defense": lambda side: Check("defense", side, 6, 19, threat=19),
}
TOLERANCE = 0.02
"""Sampled frequencies are held to four standard errors; at the widest (p = 1/2) that is this much."""
N = math.ceil((4 * 0.5 / TOLERANCE) ** 2)
"""Rolls sampled per check: four standard errors of a frequency near 1/2 are :data:`TOLERANCE` (10,000)."""
SEED = 20260314


def enumerated(die: str) -> dict[int, Fraction]:
    """The natural roll of ``die`` by listing every combination of faces (no icepool)."""
    if die == FIXED:
        return {10: Fraction(1)}
    if die == D20:
        rolls = [(face,) for face in range(1, 21)]
        value = sum
    else:
        rolls = list(itertools.product(range(1, 7), repeat=3 if die == D3D6 else 4))
        value = sum if die == D3D6 else (lambda faces: sum(faces) - min(faces))
    counts = Counter(value(faces) for faces in rolls)
    return {natural: Fraction(count, len(rolls)) for natural, count in sorted(counts.items())}


def highest_low(dist: dict[int, Fraction]) -> int | None:
    """The highest natural the die rolls or less at most a tenth of the time."""
    found, share = None, Fraction(0)
    for natural in sorted(dist):
        share += dist[natural]
        if share > SHARE:
            break
        found = natural
    return found


# ------------------------------------------------------------------------------------------ low naturals
@pytest.mark.parametrize(
    ("die", "low", "share"),
    [
        (D20, 2, Fraction(2, 20)),
        (D3D6, 6, Fraction(20, 216)),
        (D4D6, 7, Fraction(74, 1296)),
        (FIXED, None, Fraction(0)),
    ],
)
def test_the_low_naturals_of_each_die(die, low, share):
    """d20: 1-2 (10%); 3d6: 3-6 (9.3%; 7 or less is 16.2%); 4d6 drop the lowest: 3-7 (5.7%; 8 or less is 10.5%);
    fixed10: none (its only natural comes up every time)."""
    direct = enumerated(die)
    icepool_die = {
        D20: icepool.d20,
        D3D6: 3 @ icepool.d6,
        D4D6: icepool.d6.pool(4).highest(3).sum(),
        FIXED: icepool.Die([10]),
    }[die]
    denominator = icepool_die.denominator()
    assert direct == {int(o): Fraction(q, denominator) for o, q in icepool_die.items()}
    assert direct == natural_distribution(die)
    assert float(SHARE) == LOW_NATURAL_SHARE
    assert low_natural(die) == highest_low(direct) == low
    assert sum(p for natural, p in direct.items() if low is not None and natural <= low) == share
    if low is not None:
        assert share <= SHARE < share + direct[low + 1]  # one more natural would pass a tenth


# ------------------------------------------------------------------------------------------ a check's odds
def low_share(die: str) -> Fraction:
    """P(the natural is low), by enumeration."""
    low = low_natural(die)
    return sum((p for natural, p in enumerated(die).items() if low is not None and natural <= low), Fraction(0))


def direct_success(check: Check, rules: RuleSet) -> Fraction:
    """The chance of success (the acting side's view) with the reroll from a low natural, from the plain check's
    single physical roll (every natural and total, open-ended chains cut at the kernel's stated depth):
    P(success, natural > low) + P(natural <= low) x P(the reroll succeeds)."""
    plain = kernel_for(rules).plan(check)
    low = low_natural(plain.die)
    kept = sum(
        (p for natural, total, p in plain.roll_table(plain.die) if natural > low and plain.judge(natural, total)[0]),
        Fraction(0),
    )
    rerolled = sum((p for natural, _, p in plain.roll_table(plain.die) if natural <= low), Fraction(0))
    assert abs(rerolled - low_share(plain.die)) < 1e-12  # the chains' cut: below 1e-12
    again = sum(
        (p for natural, total, p in plain.roll_table(REROLL_DIE[rules.die]) if plain.judge(natural, total)[0]),
        Fraction(0),
    )
    roller = kept + rerolled * again  # the physical roller's chance (the player's, when converted)
    return 1 - roller if plain.flip else roller


def cells():
    for key in KEYS:
        rules = RuleSet.from_key(key)
        for kind, make in CHECKS.items():
            for side in ("pc", "monster") if rules.players_roll_all else ("pc",):
                yield pytest.param(rules, make(side)._replace(reroll_low=True), id=f"{key}-{kind}-{side}")


@pytest.mark.parametrize(("rules", "check"), list(cells()))
def test_the_low_natural_reroll_matches_a_direct_computation(rules, check):
    want = direct_success(check._replace(reroll_low=False), rules)
    got = exact(check, rules)
    assert got["success"] == want
    plan = kernel_for(rules).plan(check)
    if rules.open_ended:  # exploding chains are cut below the stated error
        assert got.truncated and abs(got["rerolled"] - low_share(plan.die)) <= got.error_bound
    else:
        assert got["rerolled"] == low_share(plan.die)
    assert abs(plan.success_probability() - float(got["success"])) < 1e-9
    # sampled: within four standard errors of the exact chances
    rand = Stream(SEED).rand
    successes = rerolls = 0
    for _ in range(N):
        outcome = plan.resolve(rand)
        successes += outcome.success
        rerolls += outcome.rerolled
    for name, count in (("success", successes), ("rerolled", rerolls)):
        p = float(got[name])
        error = math.sqrt(max(p * (1 - p), 1 / N) / N)
        assert abs(count / N - p) <= 4 * error, (name, count / N, p)


def test_the_reroll_by_hand():
    """d20, +5 against 16: 11-20 hit (1/2), 3-10 miss; a 1 or 2 (1/10) rolls again: 1/2 + 1/10 x 1/2 = 11/20.
    3d6, save +4 against 15: 11 or more saves (1/2); a 3-6 (20/216) rolls 4d6 drop the lowest again."""
    assert exact(Check("attack", "pc", 5, 16, reroll_low=True), RuleSet.from_key("d20"))["success"] == Fraction(11, 20)
    four_d6 = enumerated(D4D6)
    again = sum(p for natural, p in four_d6.items() if natural >= 11)
    assert (
        exact(Check("save", "pc", 4, 15, reroll_low=True), RuleSet.from_key("3d6"))["success"]
        == Fraction(1, 2) + Fraction(20, 216) * again
    )
    # whether or not the first roll would have succeeded: a natural 2 that would hit (+20) is rerolled too
    sure = exact(Check("attack", "pc", 20, 10, reroll_low=True), RuleSet.from_key("d20"))
    assert sure["success"] == Fraction(19, 20) - Fraction(1, 20) + Fraction(1, 10) * Fraction(19, 20)
    assert sure["rerolled"] == Fraction(1, 10)


def test_fixed10_has_no_low_natural_to_reroll():
    rules = RuleSet.from_key("fixed10")
    check = Check("save", "pc", 3, 15)
    assert exact(check._replace(reroll_low=True), rules).probabilities == exact(check, rules).probabilities
    assert "rerolled" not in exact(check._replace(reroll_low=True), rules).probabilities


@pytest.mark.parametrize("kind", list(CHECKS))
def test_a_reroll_on_failure_and_from_a_low_natural_at_once_is_refused(kind):
    check = CHECKS[kind]("pc")._replace(luck_reroll=True, reroll_low=True)
    for key in ("d20", "3d6"):
        with pytest.raises(RulesError, match="either on failure or from a low natural"):
            exact(check, RuleSet.from_key(key))


def test_a_check_that_takes_10_has_nothing_to_reroll():
    with pytest.raises(RulesError, match="nothing to press or reroll"):
        exact(Check("skill", "pc", 5, 15, take=10, reroll_low=True), RuleSet.from_key("d20"))
