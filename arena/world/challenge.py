"""Challenge Rating, Encounter Level, XP and difficulty-band arithmetic (D&D 3.5), with the bell-curve CR rule.

CRs are :class:`fractions.Fraction` values: whole numbers 1, 2, 3, ... or one of the fractional rungs 1/2, 1/3,
1/4, 1/6, 1/8, 1/10. :func:`parse_cr` and :func:`format_cr` convert to and from text ("1/3", "5").

How an Encounter Level is computed (see ``docs/challenge.md`` for the reasoning):

1. Each *kind* of creature (a group of identical creatures) gets a group EL.
   * CR 2 or more: CR + the DMG "Encounter Numbers" offset for the group size (1, 2, 3, 4, 5-6, 7-9, 10-12 creatures:
     +0, +2, +3, +4, +5, +6, +7). Beyond 12 the doubling rule continues: ``offset(n) = offset(ceil(n/2)) + 2``.
   * CR 1 or less: the DMG warns the doubling rule is unreliable there; fractional CRs "pair up" (two CR 1/2 count
     as one CR 1, three CR 1/3 as one CR 1). So the CRs are *added* (n x CR), and the sum v is read as an EL:
     v < 1 -> the nearest fractional rung; 1 <= v < 2 -> v rounded; v >= 2 -> 2*log2(v) rounded (the same
     scale on which doubling adds +2). This reproduces the DMG grid cells for low CRs (4 x CR 1/2 = EL 2,
     10-12 x CR 1/4 = EL 3, 3 x CR 1 = EL 3 ...).
2. Mixed encounters: group ELs are paired, the two lowest first (the reference's worked example: two ogres EL 5,
   + a troll CR 5 -> EL 7, + a hill giant CR 7 -> EL 9). Pairing rules: equal -> +2; the weaker 1 or 2 lower ->
   +1 (DMG: "CR X plus CR X-2 = CR X+1"); 3 or more lower -> +0 (reference: it takes eight CR 4 creatures,
   i.e. EL 10, to add +1 to a CR 12). When both sides are at most 1 they add as fractions (1/2 + 1/3 -> EL 1).
   A fractional side facing a side of 2 or more is placed on the whole-number scale by its ladder step
   (1/2 -> 0, 1/3 -> -1, 1/4 -> -2, ...).

The bell-curve rule (Unearthed Arcana, seed document 000): creatures encountered in groups of four or more have
their CR reduced by 1; fractional CRs move down to the next lower fraction. See :func:`effective_crs`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Literal

import yaml

from arena.errors import ArenaError

# ----------------------------------------------------------------------------------------------- source numbers
# Every number taken from the documents appears once, here, next to its source.

FRACTIONAL_CR_LADDER: tuple[Fraction, ...] = (
    Fraction(1),
    Fraction(1, 2),
    Fraction(1, 3),
    Fraction(1, 4),
    Fraction(1, 6),
    Fraction(1, 8),
    Fraction(1, 10),
)
"""The CRs below 1, top to bottom; each step down counts as CR - 1. Source: SRD 3.5 stat blocks (bat/toad 1/10 ...),
SRD "CR equal to character level -2" for goblins (warrior 1 -> 1/3); PF CRB "1/2, 1/3, 1/4, 1/6, 1/8"."""

ENCOUNTER_NUMBER_OFFSETS: tuple[tuple[int, int, int], ...] = (
    # (fewest creatures, most creatures, EL offset). Source: DMG 3.5 p.49 Table 3-1 "Encounter Numbers" via
    # reference dnd35_encounter_rules.yaml el_identical_creatures (confidence high for CR >= 2).
    (1, 1, 0),
    (2, 2, 2),
    (3, 3, 3),
    (4, 4, 4),
    (5, 6, 5),
    (7, 9, 6),
    (10, 12, 7),
)
DOUBLING_EL_BONUS = 2
"""Doubling the number of identical creatures adds +2 to EL. Source: DMG 3.5 p.49 (reference, confidence high)."""

PAIR_EQUAL_BONUS = 2
"""Two equal CRs (or group ELs) -> +2. Source: DMG 3.5 p.49 mixed pairs (reference el_mixed_groups, high)."""
PAIR_NEAR_BONUS = 1
PAIR_NEAR_MAX_GAP = 2
"""CR X plus CR X-2 = EL X+1 (and so X plus X-1). Source: DMG p.49 "9+7 -> 10" (reference el_mixed_groups)."""
# A weaker side 3 or more below adds nothing: reference el_mixed_groups "8 CR-4 creatures needed to add +1 to a
# CR-12" (8 x CR 4 = EL 10, gap 2: +1; 6 x CR 4 = EL 9, gap 3: must add 0).

LINEAR_CR_LIMIT = 1
"""At or below CR 1 the doubling rule is unreliable and CRs add linearly (two CR 1/2 = one CR 1).
Source: DMG caveat reported on EN World (reference el_identical_creatures.caveats_reported_from_dmg)."""
POWER_LINEAR_BELOW = 2
"""d20srd.org calculator: power = CR below 2, else 2**(CR/2); EL = 2*log2(power) from 2 up (reference
power_model_d20srd_calculator, confidence high that this is the calculator)."""

BELL_CURVE_GROUP_SIZE = 4
BELL_CURVE_CR_REDUCTION = 1
"""UA Bell Curve: "Any time creatures are encountered in groups of four or more, reduce their CR by 1."
Source: seed document 000, MONSTER CHALLENGE RATINGS (OGL)."""

DIFFICULTY_BANDS: tuple[tuple[str, int | None, int | None], ...] = (
    # (band, lowest EL - party level, highest EL - party level). Source: DMG 3.5 ch.3 encounter difficulty via
    # reference dnd35_encounter_rules.yaml difficulty_bands (confidence high): EL lower = easy, equal =
    # challenging, 1-4 higher = very difficult, 5+ higher = overpowering. "Easy if handled properly" is a special
    # case the DMG does not define by EL, so it is never returned.
    ("easy", None, -1),
    ("challenging", 0, 0),
    ("very difficult", 1, 4),
    ("overpowering", 5, None),
)

XP_TABLE_RESOURCE = "dnd35_xp_table.yaml"
"""DMG 3.5 Table 2-6, transcribed in ``arena/data/dnd35_xp_table.yaml`` (source and confidence in that file)."""
XP_TABLE_MAX_CR = 20
PARTY_LEVELS = range(1, 21)
MAX_CR = 100
"""The largest challenge rating read (the SRD's largest is 26, a great wyrm; epic monsters reach the 60s). Past it a
CR is a typo, and ``2 ** (CR / 2)`` on the power scale leaves floating point."""
MAX_COUNT = 1_000_000
"""The most creatures of one kind in an EL or XP calculation: the doubling rule reads any count, but beyond a
million the answer means nothing."""

GroupBy = Literal["kind", "encounter"]


# ----------------------------------------------------------------------------------------------- CR text
def parse_cr(value: str | int | Fraction) -> Fraction:
    """A CR from text ("1/3", "5", " 2 "), an int or a Fraction; it must be a whole number >= 1 or a ladder rung."""
    if isinstance(value, bool):
        raise ArenaError(f"challenge rating {value!r} is not a number")
    if isinstance(value, Fraction | int):
        cr = Fraction(value)
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > 20:
            raise ArenaError(f"challenge rating {text[:20]!r}... is not a CR like '5' or '1/3'")
        try:
            if "/" in text:
                num, den = text.split("/")
                cr = Fraction(int(num), int(den))
            else:
                cr = Fraction(int(text))
        except (ValueError, ZeroDivisionError):
            raise ArenaError(f"challenge rating {value!r} is not a CR like '5' or '1/3'") from None
    else:
        raise ArenaError(f"challenge rating {value!r} is not a CR like '5' or '1/3'")
    if cr >= 1 and cr.denominator == 1:
        if cr > MAX_CR:
            raise ArenaError(
                f"challenge rating {format_cr(cr) if cr < 10**15 else 'of over 15 digits'} is beyond "
                f"the limit of {MAX_CR}"
            )
        return cr
    if cr in FRACTIONAL_CR_LADDER:
        return cr
    rungs = ", ".join(format_cr(r) for r in FRACTIONAL_CR_LADDER[1:])
    raise ArenaError(f"challenge rating {value!r} is not a whole number of 1 or more nor one of {rungs}")


def format_cr(cr: Fraction | int) -> str:
    """``Fraction(1, 3)`` -> "1/3", ``Fraction(5)`` -> "5"."""
    cr = Fraction(cr)
    return str(cr.numerator) if cr.denominator == 1 else f"{cr.numerator}/{cr.denominator}"


def cr_rank(cr: Fraction) -> int:
    """Position on the whole-number scale: CR n -> n; 1/2 -> 0, 1/3 -> -1, 1/4 -> -2, ... 1/10 -> -5."""
    cr = parse_cr(cr)
    if cr >= 1:
        return int(cr)
    return 1 - FRACTIONAL_CR_LADDER.index(cr)


def rank_cr(rank: int) -> Fraction:
    """The inverse of :func:`cr_rank`: n -> CR n from 1 up; 0 -> 1/2, -1 -> 1/3, ... -5 -> 1/10 (clamped there: no
    CR lies below the table's end)."""
    if rank >= 1:
        return Fraction(rank)
    return FRACTIONAL_CR_LADDER[min(1 - rank, len(FRACTIONAL_CR_LADDER) - 1)]


def step_down(cr: Fraction, *, cr1_to_half: bool = True) -> Fraction:
    """One step down: whole CRs lose 1, fractions move to the next lower rung (1/10 stays 1/10: there is no lower
    rung). CR 1 goes to 1/2 when ``cr1_to_half`` (default; 1/2 is the next rung), else it stays 1 (CR 0 is not a
    CR on the SRD scale)."""
    cr = parse_cr(cr)
    if cr > 1:
        return cr - 1
    if cr == 1:
        return FRACTIONAL_CR_LADDER[1] if cr1_to_half else cr
    index = FRACTIONAL_CR_LADDER.index(cr)
    return FRACTIONAL_CR_LADDER[min(index + 1, len(FRACTIONAL_CR_LADDER) - 1)]


# ----------------------------------------------------------------------------------------------- bell curve
def bell_curve_cr(cr: Fraction, group_size: int, *, cr1_to_half: bool = True) -> Fraction:
    """The CR of one creature encountered in a group of ``group_size`` under the bell-curve rule."""
    cr = parse_cr(cr)
    if group_size >= BELL_CURVE_GROUP_SIZE:
        for _ in range(BELL_CURVE_CR_REDUCTION):
            cr = step_down(cr, cr1_to_half=cr1_to_half)
    return cr


def effective_crs(
    groups: Sequence[tuple[Fraction, int]],
    *,
    die: str = "d20",
    group_by: GroupBy = "kind",
    cr1_to_half: bool = True,
) -> list[Fraction]:
    """The CR each kind group counts at: unchanged under ``die="d20"``; bell-curve reduced under ``die="3d6"``.

    ``groups`` is one (CR, count) per kind of creature. ``group_by="kind"`` (default) counts a group as the
    creatures of one kind, as the rule's examples do (one troll, two trolls, four trolls);
    ``group_by="encounter"`` counts every creature in the encounter (two goblins and two hobgoblins are a group of
    four).
    """
    die = _check_die(die)
    if group_by not in ("kind", "encounter"):
        raise ArenaError(f"group_by must be 'kind' or 'encounter', not {group_by!r}")
    checked = [(parse_cr(cr), _check_count(n)) for cr, n in groups]
    if die == "d20":
        return [cr for cr, _ in checked]
    total = sum(n for _, n in checked)
    return [bell_curve_cr(cr, n if group_by == "kind" else total, cr1_to_half=cr1_to_half) for cr, n in checked]


# ----------------------------------------------------------------------------------------------- EL
def group_size_offset(count: int) -> int:
    """The EL offset for ``count`` identical creatures: the DMG table to 12, then +2 per doubling."""
    count = _check_count(count)
    doublings = 0
    while count > ENCOUNTER_NUMBER_OFFSETS[-1][1]:  # halve (rounding up) until the table covers it
        count = -(-count // 2)
        doublings += 1
    for low, high, offset in ENCOUNTER_NUMBER_OFFSETS:
        if low <= count <= high:
            return offset + doublings * DOUBLING_EL_BONUS
    raise AssertionError(count)  # pragma: no cover - the table covers 1..12


def el_from_value(value: Fraction | float) -> Fraction:
    """Read a linear CR sum as an EL: below 1 the nearest ladder rung, below 2 rounded, else 2*log2 rounded."""
    if value <= 0:
        raise ArenaError("an encounter needs at least one creature")
    if value < 1:
        return min(FRACTIONAL_CR_LADDER, key=lambda rung: (abs(rung - Fraction(value)), -rung))
    if value < POWER_LINEAR_BELOW:
        return Fraction(_round_half_up(value))
    return Fraction(_round_half_up(2 * math.log2(value)))


def group_el(cr: Fraction, count: int) -> Fraction:
    """EL of ``count`` identical creatures of CR ``cr`` (see the module docstring, step 1)."""
    cr = parse_cr(cr)
    count = _check_count(count)
    if cr <= LINEAR_CR_LIMIT:
        return el_from_value(cr * count)
    return cr + group_size_offset(count)


def pair_el(a: Fraction, b: Fraction) -> Fraction:
    """EL of two group ELs together (see the module docstring, step 2)."""
    high, low = max(a, b), min(a, b)
    if high <= LINEAR_CR_LIMIT:
        return el_from_value(high + low)
    gap = high - cr_rank(low)
    if gap == 0:
        return high + PAIR_EQUAL_BONUS
    if gap <= PAIR_NEAR_MAX_GAP:
        return high + PAIR_NEAR_BONUS
    return high


def encounter_level(groups: Iterable[tuple[Fraction, int]]) -> Fraction:
    """EL of an encounter given one (CR, count) per kind of creature (CRs already effective)."""
    els = sorted(group_el(cr, n) for cr, n in groups)
    if not els:
        raise ArenaError("an encounter needs at least one creature")
    while len(els) > 1:
        low, next_low = els.pop(0), els.pop(0)
        els.append(pair_el(next_low, low))
        els.sort()
    return els[0]


# ----------------------------------------------------------------------------------------------- XP and bands
@cache
def _xp_table() -> dict[int, tuple[float, ...]]:
    text = resources.files("arena.data").joinpath(XP_TABLE_RESOURCE).read_text(encoding="utf-8")
    rows = yaml.safe_load(text)["xp_by_party_level"]
    table = {int(level): tuple(float(v) for v in values) for level, values in rows.items()}
    assert set(table) == set(PARTY_LEVELS) and all(len(v) == XP_TABLE_MAX_CR for v in table.values())
    return table


def party_xp_for_creature(party_level: int, cr: Fraction) -> float:
    """Total XP a party of ``party_level`` earns for one creature of CR ``cr`` (DMG Table 2-6; 0 is the dash)."""
    party_level = _check_party_level(party_level)
    cr = parse_cr(cr)
    if cr > XP_TABLE_MAX_CR:
        raise ArenaError(f"the transcribed XP table stops at CR {XP_TABLE_MAX_CR}; CR {format_cr(cr)} is beyond it")
    row = _xp_table()[party_level]
    if cr < 1:
        return row[0] * float(cr)
    return row[int(cr) - 1]


def xp_per_pc(party_level: int, groups: Iterable[tuple[Fraction, int]], party_size: int = 4) -> float:
    """XP each PC earns for defeating the encounter: sum of the table values over every creature / party size."""
    if party_size < 1:
        raise ArenaError(f"party size must be at least 1, not {party_size}")
    total = sum(party_xp_for_creature(party_level, cr) * _check_count(n) for cr, n in groups)
    return total / party_size


def difficulty_band(el: Fraction, party_level: int) -> str:
    """'easy', 'challenging', 'very difficult' or 'overpowering' for an EL against a party level."""
    party_level = _check_party_level(party_level)
    diff = Fraction(el) - party_level
    for band, low, high in DIFFICULTY_BANDS:
        if (low is None or diff >= low) and (high is None or diff <= high):
            return band
    # A fractional gap between bands (only possible for ELs below 1, all easy) falls through to here.
    return "easy" if diff < 0 else "overpowering"


# ----------------------------------------------------------------------------------------------- checks
def _check_count(count: int) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ArenaError(f"a creature count must be a whole number of 1 or more, not {str(count)[:20]}")
    if count > MAX_COUNT:
        raise ArenaError(
            f"a creature count of {count if count < 10**15 else 'over 15 digits'} is beyond the limit of {MAX_COUNT:,}"
        )
    return count


def _check_party_level(level: int) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level not in PARTY_LEVELS:
        raise ArenaError(f"party level must be 1-20, not {level!r}")
    return level


def _check_die(die: str) -> str:
    if die not in ("d20", "3d6"):
        raise ArenaError(f"die must be 'd20' or '3d6', not {die!r}")
    return die


def _round_half_up(x: float | Fraction) -> int:
    return math.floor(x + Fraction(1, 2)) if isinstance(x, Fraction) else math.floor(x + 0.5 + 1e-9)
