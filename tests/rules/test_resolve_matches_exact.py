"""The central invariant: for every check kind under every variant combination, the frequencies `resolve()`
samples agree with what `exact()` computes (fixed seeds, bounds from the sample size)."""

import math

import pytest

from arena.dice import Stream
from arena.rules import Check, exact, resolve
from arena.rules.kernel import kernel_for
from arena.rules.odds import kernel_variants

N = 12_000
OUTCOMES = (
    "success",
    "auto_success",
    "auto_failure",
    "threat",
    "critical",
    "critical_success",
    "fumble",
    "item_damage",
    "spell_ends",
    "rerolled",
)

RULE_SETS = kernel_variants()
"""Every combination that changes a single roll (called shots act in fights): 26 rule sets."""

CHECKS = {
    "attack-pc": Check("attack", "pc", 5, 16, threat=19),
    "attack-pc-pressed-hidden": Check("attack", "pc", 12, 20, hidden=-2, threat=18, press_luck=True),
    "attack-monster": Check("attack", "monster", 8, 18),
    "attack-monster-wide-threat": Check("attack", "monster", 4, 15, threat=17, multiplier=3),
    "attack-monster-flat-footed": Check("attack", "monster", 8, 14, flat_footed=True),
    "save-pc": Check("save", "pc", 3, 15),
    "save-monster": Check("save", "monster", 4, 16),
    "save-monster-reroll": Check("save", "monster", 2, 17, luck_reroll=True),
    "skill": Check("skill", "pc", 7, 20),
    "skill-take10": Check("skill", "pc", 7, 17, take=10),
    "ability-monster": Check("ability", "monster", -3, 8),
    "caster-level-pc": Check("caster-level", "pc", 9, 20),
    "caster-level-monster": Check("caster-level", "monster", 11, 18),
    "initiative": Check("initiative", "pc", 3, 12),
    "defense": Check("defense", "pc", 6, 19, threat=19),
    "defense-pressed": Check("defense", "pc", 14, 22, press_luck=True),
    "attack-pc-reroll": Check("attack", "pc", 2, 14, luck_reroll=True),
}
AUSPICIOUS = {
    "attack-pc-auspicious": Check("attack", "pc", 6, 17, auspicious=True),
    "save-monster-auspicious-reroll": Check("save", "monster", 5, 15, auspicious=True, luck_reroll=True),
    "defense-auspicious": Check("defense", "pc", 5, 16, auspicious=True),
    "skill-take16": Check("skill", "pc", 2, 18, take=16),
}


def cells():
    for rules in RULE_SETS:
        for name, check in CHECKS.items():
            if rules.die == "fixed10" and check.press_luck:
                continue
            yield pytest.param(rules, check, id=f"{rules.key}-{name}")
        if rules.die == "3d6":
            for name, check in AUSPICIOUS.items():
                yield pytest.param(rules, check, id=f"{rules.key}-{name}")


def bound(p: float, n: int) -> float:
    """Five standard errors plus a continuity margin: a fixed seed either passes or fails for good."""
    return 5 * math.sqrt(max(p * (1 - p), 1 / n) / n) + 2 / n


@pytest.mark.parametrize(("rules", "check"), list(cells()))
def test_sampled_frequencies_match_exact(rules, check):
    want = exact(check, rules)
    stream = Stream(20261129)
    counts = dict.fromkeys(OUTCOMES, 0)
    for _ in range(N):
        outcome = resolve(check, rules, stream)
        for name in OUTCOMES:
            counts[name] += getattr(outcome, name)
    for name, p in want.probabilities.items():
        assert abs(counts[name] / N - float(p)) <= bound(float(p), N), (name, counts[name] / N, float(p))
    for name in set(OUTCOMES) - set(want.probabilities):
        assert counts[name] == 0, f"{name} happened but the rule set cannot produce it"


def test_probabilities_are_coherent():
    for rules in RULE_SETS:
        for check in CHECKS.values():
            if rules.die == "fixed10" and check.press_luck:
                continue
            probs = exact(check, rules).probabilities
            assert all(0 <= p <= 1 for p in probs.values())
            if "critical" in probs and not rules.open_ended:
                assert probs["critical"] <= probs["threat"] <= probs["success"]


def test_float_success_probability_matches_exact():
    for rules in RULE_SETS:
        for check in [*CHECKS.values(), *(AUSPICIOUS.values() if rules.die == "3d6" else ())]:
            if rules.die == "fixed10" and check.press_luck:
                continue
            plan = kernel_for(rules).plan(check)
            assert abs(plan.success_probability() - float(plan.exact()["success"])) < 1e-9, (rules.key, check)
