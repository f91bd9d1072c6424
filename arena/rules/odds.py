"""Exact odds of single rolls, as the `arena odds` commands print them.

Each function returns plain JSON-ready data; the CLI only formats it. Outcomes are named from the side that
acts (the attacker, the creature saving, the caster against spell resistance, the one checking), whoever the
variant makes roll, so rows of different rule sets compare directly.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from arena.errors import RulesError
from arena.rules import Check, RuleSet, exact
from arena.rules.ruleset import DIES, MODIFIERS
from arena.rules.variable_modifiers import table_row

OUTCOME_ORDER = (
    "hit",
    "success",
    "threat",
    "critical",
    "auto_success",
    "auto_failure",
    "critical_success",
    "fumble",
    "item_damage",
    "spell_ends",
    "rerolled",
)


def parse_threat(text: str | int) -> int:
    """``"19-20"`` -> 19, ``"20"`` -> 20; a range that cannot exist is a :class:`RulesError`."""
    raw = str(text).strip()
    shown = repr(raw) if len(raw) <= 20 else repr(raw[:20]) + "..."
    low, sep, high = raw.partition("-")
    try:
        if len(raw) > 20:  # no threat range is that long; and int() of 5,000 digits is slow and refused
            raise ValueError
        first = int(low)
        last = int(high) if sep else first
    except ValueError:
        raise RulesError(f"threat range {shown}: write it like 20, 19-20 or 17-20") from None
    if last != 20 or not 2 <= first <= 20:
        raise RulesError(f"threat range {shown} cannot exist: it must end at 20 and start between 2 and 20")
    return first


def kernel_variants() -> list[RuleSet]:
    """One rule set per combination that changes a single roll (called shots act in fights, not here)."""
    out = []
    for die, prad, mods, open_ in itertools.product(DIES, (False, True), MODIFIERS, (False, True)):
        try:
            out.append(RuleSet(die=die, players_roll_all=prad, modifiers=mods, open_ended=open_))
        except RulesError:
            continue
    return out


def fraction_entry(p: Fraction) -> dict:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def odds_object(check: Check, rules: RuleSet) -> dict:
    """``{"check", "rules", "outcomes"}`` for one check under one rule set (the ``--json`` shape)."""
    result = exact(check, rules)
    outcomes = {}
    for name, p in result.probabilities.items():
        shown = "hit" if name == "success" and check.kind == "attack" else name
        outcomes[shown] = fraction_entry(p)
    outcomes = {name: outcomes[name] for name in OUTCOME_ORDER if name in outcomes}
    obj = {
        "check": check._asdict(),
        "rules": {"key": rules.key, **rules.model_dump()},
        "roller": result.roller,
        "outcomes": outcomes,
    }
    if result.truncated:
        obj["truncated"] = {
            "depth": result.depth,
            "error_below": 1e-12,
            "error_bound": result.error_bound,
            "note": "open-ended chains are infinite; followed to this many extra dice",
        }
    return obj


def all_variants(check: Check) -> list[dict]:
    """The same check under every single-roll rule set, skipping those that refuse it."""
    rows = []
    for rules in kernel_variants():
        try:
            rows.append(odds_object(check, rules))
        except RulesError:
            continue
    if not rows:
        raise RulesError("no rule set allows this check")
    return rows


def modifier_table(low: int = -25, high: int = 25) -> list[dict]:
    """The variable-modifier table: dice, mean, variance and drift from the static value."""
    return [table_row(m) for m in range(low, high + 1)]


def press_luck_row(modifier: int) -> dict:
    """The chance to roll (18 + modifier - 3) or better on 3d6, static against pressed (seed 003)."""
    rules = RuleSet(die="3d6", modifiers="press-luck")
    target = 18 + modifier - 3
    static = exact(Check("skill", "pc", modifier, target), rules)["success"]
    pressed = exact(Check("skill", "pc", modifier, target, press_luck=True), rules)["success"]
    return {
        "modifier": modifier,
        "target": target,
        "p_static": float(static),
        "p_pressed": float(pressed),
        "ratio": float(pressed / static),
    }


def press_luck_table(low: int = 1, high: int = 25) -> list[dict]:
    return [press_luck_row(m) for m in range(low, high + 1)]


def expected_damage(check: Check, rules: RuleSet, mean_damage: float) -> float:
    """Expected damage of one attack: a hit deals ``mean_damage``, a critical hit ``multiplier`` times it (SRD 3.5:
    a critical multiplies the whole damage roll), from the exact odds of hitting and of a critical."""
    probabilities = exact(check, rules).probabilities
    hit = float(probabilities.get("success", 0))
    critical = float(probabilities.get("critical", 0))
    return (hit - critical) * mean_damage + critical * check.multiplier * mean_damage
