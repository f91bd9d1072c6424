"""The natural rolls of every die, exactly and fast: face tables for one-draw sampling, the open-ended chains
(rolled and exact, truncated below a stated error), sums of variable-modifier dice, and the exact distribution of
a natural plus its modifier dice. The kernel's plans read these; they know nothing of checks.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import icepool

from arena.rules import open_ended

D20, D3D6, D4D6, FIXED = "d20", "3d6", "4d6kh3", "fixed10"
_FACES = {D20: (1, 20), D3D6: (3, 18), D4D6: (3, 18), FIXED: (10, 10)}


MAX_TABLE = 1 << 22
"""Variable dice with at most this many face combinations (to 5d20, +51) roll from a table of every combination
(one draw); larger ones from the cumulative distribution of their sum (:class:`_SummedPlan`). The combinations are
counted before any is built: enumerating twenty d20s (+200) would need 20**20 entries. (The threshold is the old
one, so every check that rolled before rolls the same numbers from the same seed.)"""


def _combinations(dice: tuple) -> int:
    """How many equally likely face combinations the dice have (stops counting past :data:`MAX_TABLE`)."""
    combos = 1
    for _sign, count, sides, _keep in dice:
        for _ in range(count):
            combos *= sides
            if combos > MAX_TABLE:
                return combos
    return combos


@lru_cache(maxsize=1024)
def _sum_table(dice: tuple) -> tuple[int, ...] | None:
    """Every equally likely sum of signed dice groups, one entry per combination (None for no dice, or for more
    than :data:`MAX_TABLE` combinations: see :func:`_sum_cdf`)."""
    if not dice or _combinations(dice) > MAX_TABLE:
        return None
    sums = [0]
    for sign, count, sides, _keep in dice:
        for _ in range(count):
            sums = [s + sign * face for s in sums for face in range(1, sides + 1)]
    return tuple(sums)


@lru_cache(maxsize=256)
def _sum_cdf(dice: tuple) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """(every possible sum, ascending; P(sum <= it)) of signed dice groups, exactly (icepool) then in floats; the
    last entry is exactly 1.0, so one draw in [0, 1) always finds a sum."""
    dist = _modifier_distribution(0, dice)
    values = tuple(sorted(dist))
    cdf, acc = [], Fraction(0)
    for v in values:
        acc += dist[v]
        cdf.append(float(acc))
    cdf[-1] = 1.0
    return values, tuple(cdf)


def _natural_table(die: str) -> tuple[int, ...]:
    if die == D20:
        return tuple(range(1, 21))
    if die == D3D6:
        return tuple(a + b + c for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))
    if die == D4D6:
        return tuple(
            a + b + c + d - min(a, b, c, d)
            for a in range(1, 7)
            for b in range(1, 7)
            for c in range(1, 7)
            for d in range(1, 7)
        )
    return (10,)


_TABLES = {die: _natural_table(die) for die in (D20, D3D6, D4D6, FIXED)}


def draw_for(die: str, faces: tuple[int, ...]) -> float:
    """The stream draw that makes ``die`` show these ``faces`` (d6 faces for 3d6 and 4d6kh3): for scripted tests."""
    index = 0
    for face in faces:
        index = index * (20 if die == D20 else 6) + face - 1
    return (index + 0.5) / len(_TABLES[die])


def _high_chain(die: str, rand: Callable[[], float]) -> int:
    """Open-ended rolling high: the extra dice added, while each shows the die's top."""
    table, top = _TABLES[die], _FACES[die][1]
    extra = total = table[int(rand() * len(table))]
    while extra == top:
        extra = table[int(rand() * len(table))]
        total += extra
    return total


def _low_chain(die: str, rand: Callable[[], float]) -> int:
    """Open-ended rolling low: the negative value that replaces the natural (1, 12 -> -12; 1, 1, 7 -> -27)."""
    table, (bottom, top) = _TABLES[die], _FACES[die]
    chain, extra = 0, table[int(rand() * len(table))]
    while extra == bottom:
        chain += top
        extra = table[int(rand() * len(table))]
    return -(chain + extra)


@lru_cache(maxsize=4096)
def _roll_table(key: tuple, die: str) -> list[tuple[int, int, Fraction]]:
    take, static, var_dice, is_open, explode_hi, explode_lo = key
    if take is not None:
        return [(take, take + static, Fraction(1))]
    naturals = natural_distribution(die)
    modifier = _modifier_distribution(static, var_dice)
    high = low = None  # chain + modifier, convolved once and shifted for every exploding natural
    rows: list[tuple[int, int, Fraction]] = []
    for natural, p in naturals.items():
        if is_open and natural in explode_hi:
            if high is None:
                high = _convolve(_chain(die, low=False)[0], 1, modifier)
            totals, shift = high, natural
        elif is_open and natural in explode_lo:
            if low is None:
                low = _convolve(_chain(die, low=True)[0], -1, modifier)
            totals, shift = low, 0
        else:
            totals, shift = modifier, natural
        rows.extend((natural, shift + t, p * q) for t, q in totals.items())
    return rows


def _convolve(chain: dict[int, Fraction], sign: int, modifier: dict[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of ``sign * chain + modifier`` (independent), exactly: in integers over a common
    denominator, since Fraction arithmetic on 190 chain values times 381 modifier totals (+-200) takes seconds."""

    def scaled(dist: dict[int, Fraction]) -> tuple[dict[int, int], int]:
        denominator = math.lcm(*(q.denominator for q in dist.values()))
        return {v: q.numerator * (denominator // q.denominator) for v, q in dist.items()}, denominator

    a, da = scaled(chain)
    b, db = scaled(modifier)
    out: dict[int, int] = defaultdict(int)
    for v, x in a.items():
        v *= sign
        for m, y in b.items():
            out[v + m] += x * y
    denominator = da * db
    return {t: Fraction(n, denominator) for t, n in out.items()}


@lru_cache(maxsize=8)
def natural_distribution(die: str) -> dict[int, Fraction]:
    """The natural roll of a die kind, exactly (icepool)."""
    dice = {
        D20: icepool.d20,
        D3D6: 3 @ icepool.d6,
        D4D6: icepool.d6.pool(4).highest(3).sum(),
        FIXED: icepool.Die([10]),
    }[die]
    denominator = dice.denominator()
    return {int(o): Fraction(q, denominator) for o, q in zip(dice.outcomes(), dice.quantities(), strict=True)}


@lru_cache(maxsize=16)
def _chain(die: str, low: bool) -> tuple[dict[int, Fraction], Fraction]:
    faces = natural_distribution(die)
    lo, top = _FACES[die]
    trigger = lo if low else top
    depth = open_ended.chain_depth(faces[trigger])
    return open_ended.chain_distribution(faces, top, lo, low, depth)


def chain_error(die: str) -> tuple[int, float]:
    """(depth, probability left out) of an exploding chain of ``die``."""
    faces = natural_distribution(die)
    lo, top = _FACES[die]
    depth = open_ended.chain_depth(faces[top])
    return depth, float(_chain(die, False)[1])


@lru_cache(maxsize=16)
def _float_naturals(die: str) -> dict[int, float]:
    return {n: float(p) for n, p in natural_distribution(die).items()}


@lru_cache(maxsize=16)
def _float_chain(die: str, low: bool) -> tuple[tuple[int, float], ...]:
    return tuple((v, float(q)) for v, q in _chain(die, low)[0].items())


@lru_cache(maxsize=65536)
def _chain_at_least(die: str, var_dice: tuple, low: bool, need: int) -> float:
    """P(an exploding chain plus the variable dice reaches ``need``): rolling high, the chain adds to the natural
    (need = target - natural - static); rolling low, its negative replaces the natural (need = target - static).
    Summed over the chain in its stored order and cached: a new plan under open-ended rules costs a lookup."""
    lowest, survival = _survival(0, var_dice)
    size, sign, total = len(survival), 1 if low else -1, 0.0
    for v, q in _float_chain(die, low):  # P(variable dice >= need -+ v), added in the chain's order
        i = need + sign * v - lowest
        total += q * (1.0 if i <= 0 else 0.0 if i >= size else survival[i])
    return total


@lru_cache(maxsize=1024)
def _survival(static: int, var_dice: tuple) -> tuple[int, tuple[float, ...]]:
    """(lowest modifier, S) with S[i] = P(modifier >= lowest + i)."""
    dist = _modifier_distribution(static, var_dice)
    low, high = min(dist), max(dist)
    probs = [float(dist.get(v, 0)) for v in range(low, high + 1)]
    survival, acc = [0.0] * len(probs), 0.0
    for i in range(len(probs) - 1, -1, -1):
        acc += probs[i]
        survival[i] = acc
    return low, tuple(survival)


@lru_cache(maxsize=1024)
def _modifier_distribution(static: int, var_dice: tuple) -> dict[int, Fraction]:
    die = icepool.Die([static])
    for sign, count, sides, _keep in var_dice:
        part = count @ icepool.d(sides)
        die = die + part if sign > 0 else die - part
    denominator = die.denominator()
    return {int(o): Fraction(q, denominator) for o, q in zip(die.outcomes(), die.quantities(), strict=True)}


LOW_NATURAL_SHARE = 0.10
"""A natural is low when the die rolls it or less at most this often: on a d20 a 1 or 2 (10%), on 3d6 a 3 to 6
(9.3%), on 4d6 drop the lowest a 3 to 7 (5.7%; 8 or less is 10.5%); fixed10 has none."""


def low_natural(die: str) -> int | None:
    """The highest natural of ``die`` that is low (:data:`LOW_NATURAL_SHARE`), or None."""
    share, found = 0.0, None
    for natural, p in sorted(_float_naturals(die).items()):
        share += p
        if share > LOW_NATURAL_SHARE + 1e-12:
            break
        found = natural
    return found
