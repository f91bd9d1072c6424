"""Exact damage distributions of one attack, a full attack routine and several rounds (`arena odds damage`).

Why a module of its own: `arena odds attack --damage` gives only the expected damage; calculator users want the
whole distribution and the chance to drop a foe. The attack roll's odds (hit, critical) come from the rules kernel's
exact odds (:func:`arena.rules.exact`) under whichever rule set is asked for; this module adds the damage, by the
SRD 3.5 rules, exactly:

- a critical hit rolls the weapon's damage (its dice and static bonuses) ``multiplier`` times and adds the rolls;
  extra dice riders (``+1d6 fire``, a sneak attack) are not multiplied ("Extra damage over and above a weapon's
  normal damage is not multiplied when you score a critical hit");
- a hit's weapon damage is at least 1 when its roll totals below 1 (a critical's rolls summed first), as the fight
  engine does (:func:`arena.combat.attacks.swing_at`);
- damage reduction subtracts from each hit's physical damage (the weapon and physical riders), never below 0, and
  never from energy riders;
- concealment's miss chance is rolled after a hit: a hit (a critical one too) that misses on it deals nothing.

A distribution is a :class:`Dist` of integer weights over a common denominator: exact, and fast to convolve (no
fraction is reduced until the end). Attacks of a routine and successive rounds are independent, so their totals are
convolutions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

import numpy as np

from arena.dice import DiceExpr
from arena.errors import ArenaError, RulesError
from arena.rules import Check, RuleSet, exact

ENERGY_TYPES = ("acid", "cold", "electricity", "fire", "sonic")
"""The SRD's five energy types: a rider of one of these types ignores damage reduction."""
PHYSICAL_RIDERS = ("precision", "sneak", "physical")
"""Rider types that are part of the blow (a sneak attack's dice): damage reduction applies to them."""
MAX_OUTCOMES = 20_000
"""The most totals one distribution may span (a routine, or a critical of many dice): beyond it the exact tables
would take long and print pages no one reads; refused with a message."""
MAX_DICE_SPAN = 400
"""The most totals one damage expression or rider may span (``40d10`` spans 361, the tarrasque's bite ``4d8+17``
29): its exact table is built before anything is combined, and a wider one takes icepool minutes."""
MAX_CELLS = 4_000_000
"""The most products one convolution (two totals added) may take: a few seconds with Python's integers. Also the
budget of all the rounds of :func:`drop_chances` together."""


@dataclass(frozen=True)
class Dist:
    """A probability distribution over integer totals: ``weights[i] / denominator`` is P(total = ``low + i``).

    Integer weights over one denominator keep every probability exact while convolution multiplies plain integers;
    the fraction a reader sees is reduced when it is read (:meth:`p`)."""

    low: int
    weights: tuple[int, ...]
    denominator: int

    @staticmethod
    def point(value: int = 0) -> Dist:
        """Certainly ``value``."""
        return Dist(value, (1,), 1)

    @staticmethod
    def of_dice(expr: DiceExpr) -> Dist:
        """The exact distribution of a dice expression (icepool counts every combination of faces), at most
        :data:`MAX_DICE_SPAN` totals wide."""
        check_span(expr)
        die = expr.exact()
        items = [(int(value), int(count)) for value, count in die.items()]
        low = min(v for v, _ in items)
        weights = [0] * (max(v for v, _ in items) - low + 1)
        for value, count in items:
            weights[value - low] += count
        return _trimmed(low, weights, int(die.denominator()))

    @property
    def high(self) -> int:
        return self.low + len(self.weights) - 1

    def p(self, value: int) -> Fraction:
        """P(total = ``value``)."""
        i = value - self.low
        return Fraction(self.weights[i], self.denominator) if 0 <= i < len(self.weights) else Fraction(0)

    def at_least(self, value: int) -> Fraction:
        """P(total >= ``value``)."""
        start = max(value - self.low, 0)
        return Fraction(sum(self.weights[start:]), self.denominator)

    def support(self) -> list[int]:
        """The totals that can happen, smallest first."""
        return [self.low + i for i, w in enumerate(self.weights) if w]

    def mean(self) -> Fraction:
        return Fraction(sum((self.low + i) * w for i, w in enumerate(self.weights)), self.denominator)

    def mapped(self, f: Callable[[int], int]) -> Dist:
        """The distribution of ``f(total)`` (a clamp, a subtraction, a cap)."""
        moved: dict[int, int] = {}
        for i, w in enumerate(self.weights):
            if w:
                value = f(self.low + i)
                moved[value] = moved.get(value, 0) + w
        low = min(moved)
        weights = [0] * (max(moved) - low + 1)
        for value, w in moved.items():
            weights[value - low] = w
        return _trimmed(low, weights, self.denominator)

    def plus(self, other: Dist, cap: int | None = None) -> Dist:
        """The sum of two independent totals (their convolution); with ``cap``, totals above it count as ``cap``
        (enough for P(total >= cap), and the table stays cap + 1 long however many rounds are added)."""
        if cap is not None:
            return (
                self.mapped(lambda v: min(v, cap))
                .plus(other.mapped(lambda v: min(v, cap)))
                .mapped(lambda v: min(v, cap))
            )
        _check_work(len(self.weights), len(other.weights))
        return _trimmed(
            self.low + other.low, _convolve(self.weights, other.weights), self.denominator * other.denominator
        )


def mixture(parts: Iterable[tuple[Fraction, Dist]]) -> Dist:
    """A draw of one of several distributions, each with its chance (the chances sum to 1)."""
    chosen = [(p, d) for p, d in parts if p]
    if not chosen:
        raise RulesError("a mixture of nothing")
    denominator = 1
    for p, d in chosen:
        den = p.denominator * d.denominator
        denominator = denominator * den // gcd(denominator, den)
    low = min(d.low for _, d in chosen)
    weights = [0] * (max(d.high for _, d in chosen) - low + 1)
    for p, d in chosen:
        scale = p.numerator * (denominator // (p.denominator * d.denominator))
        for i, w in enumerate(d.weights):
            weights[d.low - low + i] += w * scale
    return _trimmed(low, weights, denominator)


def _trimmed(low: int, weights: list[int], denominator: int) -> Dist:
    """A :class:`Dist` without zero weights at either end, reduced by the weights' common divisor."""
    first = next(i for i, w in enumerate(weights) if w)
    last = len(weights) - next(i for i, w in enumerate(reversed(weights)) if w)
    kept = weights[first:last]
    common = denominator
    for w in kept:
        common = gcd(common, w)
        if common == 1:
            break
    return Dist(low + first, tuple(w // common for w in kept), denominator // common)


def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> list[int]:
    """The weights of a sum of two independent totals: numpy's integer convolution (exact: no FFT), in int64 when
    no sum can overflow it, else on Python's unbounded integers."""
    if max(a) * max(b) * min(len(a), len(b)) < 2**63:
        return [int(w) for w in np.convolve(np.array(a, dtype=np.int64), np.array(b, dtype=np.int64))]
    return [int(w) for w in np.convolve(np.array(a, dtype=object), np.array(b, dtype=object))]


def check_span(expr: DiceExpr, label: str = "") -> DiceExpr:
    """``expr`` if its exact table is at most :data:`MAX_DICE_SPAN` totals wide, else an :class:`ArenaError` that
    starts with ``label`` (the option that gave it) when there is one."""
    span = expr.maximum - expr.minimum + 1
    if span > MAX_DICE_SPAN:
        raise ArenaError(
            f"{label + ' ' if label else ''}{str(expr)[:60]!r} can total {span:,} different values; the damage of a "
            f"hit is tabulated exactly for at most {MAX_DICE_SPAN:,}"
        )
    return expr


def _check_work(left: int, right: int) -> None:
    """Refuse a convolution past :data:`MAX_OUTCOMES` totals or :data:`MAX_CELLS` products (not a RulesError: that
    is a rule set refusing a check)."""
    if left + right - 1 > MAX_OUTCOMES or left * right > MAX_CELLS:
        raise ArenaError(
            f"the damage can take {left + right - 1:,} different totals ({left:,} x {right:,} to combine); at most "
            f"{MAX_OUTCOMES:,} totals and {MAX_CELLS:,} combinations are tabulated exactly (fewer dice or attacks)"
        )


@dataclass(frozen=True)
class Rider:
    """Extra damage a hit adds that a critical does not multiply: ``1d6 fire`` (energy: damage reduction does not
    stop it) or ``2d6 sneak`` (physical: it does)."""

    dice: DiceExpr
    kind: str = ""
    """An energy type, a physical rider type, or empty (untyped: physical)."""

    @property
    def energy(self) -> bool:
        return self.kind in ENERGY_TYPES

    def __str__(self) -> str:
        return f"+{self.dice}" + (f" {self.kind}" if self.kind else "")


def parse_rider(text: str, label: str = "rider") -> Rider:
    """``"+1d6 fire"``, ``"1d6 fire"``, ``"2d6 sneak"`` or ``"1d4"`` (untyped: physical) as a :class:`Rider`; an
    :class:`ArenaError` that starts with ``label`` and the text says what is wrong."""
    from arena.dice import parse

    shown = f"{label} {text[:40]!r}"
    words = text.strip().lstrip("+").split()
    if not 1 <= len(words) <= 2:
        raise RulesError(f"{shown}: write dice and an optional type, such as '1d6 fire' or '2d6 sneak'")
    kind = words[1].lower() if len(words) == 2 else ""
    if kind and kind not in ENERGY_TYPES + PHYSICAL_RIDERS:
        raise RulesError(f"{shown}: the type {kind[:20]!r} is none of {', '.join(ENERGY_TYPES + PHYSICAL_RIDERS)}")
    try:
        dice = parse(words[0])
    except ArenaError as err:
        raise RulesError(f"{shown}: {err}") from None
    if dice.minimum < 0:
        raise RulesError(f"{shown}: a rider adds damage; {dice} can total {dice.minimum}, below 0")
    return Rider(check_span(dice, label), kind)


@dataclass(frozen=True)
class Blow:
    """What a hit deals, the same for every attack of a routine: the weapon's damage, its critical multiplier, the
    riders, the target's damage reduction and the concealment miss chance (0, 1/5, 1/2)."""

    weapon: DiceExpr
    multiplier: int = 2
    riders: tuple[Rider, ...] = ()
    reduction: int = 0
    miss_chance: Fraction = Fraction(0)


@dataclass(frozen=True)
class HitOdds:
    """The attack roll's exact chances, from the kernel (:func:`arena.rules.exact`)."""

    hit: Fraction
    """Any hit, a critical one included."""
    critical: Fraction
    """A critical hit (threatened and confirmed, or an open-ended critical success)."""
    truncated: bool = False
    """Open-ended chains were cut at a depth whose error is below 1e-12."""
    roller: str = "pc"
    """The side that physically rolls (players roll all the dice makes the defender roll)."""


def hit_odds(check: Check, rules: RuleSet) -> HitOdds:
    """The chance that ``check`` (an attack) hits, and that it is a critical hit, under ``rules``."""
    result = exact(check, rules)
    hit = result.probabilities.get("success", Fraction(0))
    critical = result.probabilities.get("critical", Fraction(0))
    if not 0 <= critical <= hit <= 1:
        raise RulesError(f"the exact odds of {rules.key} give a critical chance above the hit chance")
    return HitOdds(hit, critical, result.truncated, result.roller)


def hit_damage(blow: Blow, critical: bool) -> Dist:
    """The damage of one hit that concealment did not stop: the weapon's roll (``multiplier`` rolls summed on a
    critical), at least 1, plus the physical riders, less damage reduction (not below 0), plus the energy riders."""
    one = Dist.of_dice(blow.weapon)
    weapon = one
    for _ in range(blow.multiplier - 1 if critical else 0):
        weapon = weapon.plus(one)
    physical = weapon.mapped(lambda v: max(v, 1))
    energy = Dist.point(0)
    for rider in blow.riders:
        if rider.energy:
            energy = energy.plus(Dist.of_dice(rider.dice))
        else:
            physical = physical.plus(Dist.of_dice(rider.dice))
    if blow.reduction:
        reduction = blow.reduction
        physical = physical.mapped(lambda v: max(v - reduction, 0))
    return physical.plus(energy)


def attack_damage(odds: HitOdds, blow: Blow) -> Dist:
    """The damage of one attack: nothing on a miss or a hit lost to concealment, a hit's damage, or a critical's."""
    lands = 1 - blow.miss_chance
    plain = (odds.hit - odds.critical) * lands
    crit = odds.critical * lands
    return mixture(
        [
            (1 - plain - crit, Dist.point(0)),
            (plain, hit_damage(blow, False) if plain else Dist.point(0)),
            (crit, hit_damage(blow, True) if crit else Dist.point(0)),
        ]
    )


def routine_damage(attacks: Iterable[Dist]) -> Dist:
    """The damage of a full routine: its attacks' damage added (each rolled independently)."""
    total = Dist.point(0)
    for one in attacks:
        total = total.plus(one)
    return total


def drop_chances(round_damage: Dist, hp: int, rounds: int) -> list[Fraction]:
    """P(the damage of rounds 1..k totals ``hp`` or more), for k = 1..``rounds``: independent rounds, each dealing
    ``round_damage``, added by convolution with totals capped at ``hp`` (all a threshold needs)."""
    if hp < 1:
        raise RulesError(f"hit points {hp}: a foe has at least 1")
    capped = round_damage.mapped(lambda v: min(max(v, 0), hp))
    if (rounds - 1) * (hp + 1) * len(capped.weights) > MAX_CELLS:
        raise ArenaError(
            f"{rounds} rounds against {hp} hit points with {len(capped.weights):,} totals a round is too much to "
            f"compute exactly (at most {MAX_CELLS:,} combinations in all): fewer rounds or hit points"
        )
    total = capped
    out = [total.at_least(hp)]
    for _ in range(rounds - 1):
        total = total.plus(capped, cap=hp)
        out.append(total.at_least(hp))
    return out


@dataclass(frozen=True)
class RoutineOdds:
    """One routine under one rule set: each attack's roll odds, the round's damage, and the chances to drop a foe."""

    rules: RuleSet
    attacks: tuple[HitOdds, ...]
    damage: Dist
    drop: tuple[Fraction, ...]
    """P(drop the foe within k rounds), k = 1, 2, ... (empty without hit points)."""

    @property
    def truncated(self) -> bool:
        return any(a.truncated for a in self.attacks)

    @property
    def roller(self) -> str:
        return self.attacks[0].roller


def routine_odds(
    checks: list[Check], rules: RuleSet, blow: Blow, hp: int | None = None, rounds: int = 1
) -> RoutineOdds:
    """The full routine ``checks`` (one attack check each, with its bonus) under ``rules``: the damage of a round
    and, with ``hp``, the chance to drop a foe of ``hp`` hit points within 1..``rounds`` rounds."""
    odds = tuple(hit_odds(check, rules) for check in checks)
    damage = routine_damage(attack_damage(o, blow) for o in odds)
    drop = tuple(drop_chances(damage, hp, rounds)) if hp is not None else ()
    return RoutineOdds(rules, odds, damage, drop)
