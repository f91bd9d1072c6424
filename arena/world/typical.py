"""The "typical monster of CR c": a real :class:`~arena.world.creatures.Creature` built from one of two tables:

* ``srd-medians`` (the default; CR 1/8, 1/6, 1/4, 1/3, 1/2 and 1-20): the medians of the shipped SRD 3.5 bestiary
  by CR (``arena/data/srd35_monster_medians_by_cr.yaml``, written by :mod:`arena.world.typical_tables`);
* ``pathfinder`` (CR 1/2 and 1-20): the Pathfinder Bestiary's Table 1-1 "Monster Statistics by CR"
  (``arena/data/monster_stats_by_cr.yaml``), the typical monster before version 0.3 of the fight model.

Each table's own rows say which CRs it has: the calibration's ladder reaches below 1/2 (the bell-curve document's
goblin, moved from CR 1/2 to 1/3), and the Pathfinder table has no rows there.

Names: ``typical-cr5``, ``typical-cr1/4`` (the default table); ``typical-pf-cr5`` always the Pathfinder one;
``typical-cr0.5`` is accepted as another spelling of ``typical-cr1/2`` (the creature's name is always the
canonical ``typical-cr1/2``). A CR its table lacks (21, 1/10; ``typical-pf-cr1/3``) is an error. The model option
``typical_monster`` (:class:`~arena.combat.model.ModelOptions`, ``pathfinder`` in ``LEGACY``) makes a fight put
the Pathfinder creature, named ``typical-crN`` exactly as before, where ``typical-crN`` stands
(:func:`for_table`); a ``typical-crN`` below 1/2 has none, and such a fight is an error.

**The SRD-medians monster** is the Pathfinder one's body (below) with the table's numbers: hit points, AC, touch
and flat-footed AC, Fortitude/Reflex/Will, best attack bonus (= BAB = grapple). Its full attack has the table's
median number of attacks N; ``S = round(N * lower_attack_share)`` of them (0 when N = 1) are *secondary*
("bite", at the best bonus minus ``lower_gap``) and carry ``lower_damage_share`` of the damage per round (to 0.5),
the other ``N - S`` are primary ("claw", at the best bonus) and carry the rest; each group's damage is split as
evenly as half points allow and written as d6s carrying about half of it plus a flat bonus (d8/d4/d3 where the
half point needs it; below 2 a hit, where no die fits, 1d2 for 1.5 and a flat 1 for 1, as the CR 1/8 rat's 1d3-4
deals 1), so the full attack's average (every attack hits) is the table's ``damage_per_round`` exactly. The
standard-action attack is one claw. Hit points below 5.5 come from one d10 less a flat amount (CR 1/8's 2 hp:
``1d10-3``, Con 4), the table's hit points still the creature's.

**The Pathfinder monster.** The table gives numbers, not a body; the rest is chosen here and is the same at every
CR:

* **Type and body**: a Medium *magical beast* (d10 hit dice, full BAB, good Fortitude and Reflex, poor Will
  in the 3.5/PF type rules), speed 30 ft., initiative +0, all abilities 10 except Con (below).
* **Hit points**: the table's ``hp``. Hit dice: ``n = max(1, round(hp / 10))`` d10s (about 5.5 from the die and
  4.5 from Con per HD, as PF monsters have), plus a flat bonus ``hp - floor(5.5 n)`` so the SRD-style average
  (rounded down) of ``hit_dice`` is exactly ``hp``. Con = 10 + 2 * (bonus // n). First hit die: d10.
* **AC**: the table's ``ac``; touch AC 10 (Dex 10, the rest is natural armour), flat-footed AC = AC.
* **Attacks**: two claws (slashing and piercing, 20/x2, melee), both at the table's *high attack* bonus, whose
  average damages sum to the table's *high average damage* ``T`` (averages as the table counts them: d6 = 3.5,
  no minimum-damage clamp). Each claw gets ``n`` dice: for die size d in (6, 4, 3), the first with
  ``n = max(1, round(T / (2 (d + 1))))`` (the dice carry about half the damage) leaving a remainder
  ``R = T - n (d + 1) >= 0``; R is split into flat bonuses ``ceil(R/2)`` and ``floor(R/2)``. So CR 5 (T = 20):
  ``1d6+7`` and ``1d6+6``. The standard-action attack is one claw (the first); the full attack is both.
* **BAB and grapple**: both equal to the table's high attack (Str 10, size Medium), so the attack bonus is
  consistent with them.
* **Saves**: Fort and Ref = the table's good save, Will = its poor save.
* No special attacks or qualities; ``primary_dc`` / ``secondary_dc`` are available from :func:`typical_stats`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from pydantic import Field

from arena.errors import ArenaError
from arena.world.attacks import Attack
from arena.world.creatures import (
    Abilities,
    Creature,
    Frozen,
    Saves,
)
from arena.world.stat_types import cr_text, parse_cr
from arena.world.yamlio import load_yaml, validate

PREFIX = "typical-cr"
PF_PREFIX = "typical-pf-cr"
TABLES = ("srd-medians", "pathfinder")


class _RowByCR(Frozen):
    """A table row keyed by its CR (``"1/2"``, ``"5"``)."""

    cr: str

    @property
    def cr_value(self) -> Fraction:
        return parse_cr(self.cr)


def _rows_by_cr(name: str, table: Any) -> dict[Fraction, Any]:
    """The rows of ``arena/data/<name>`` (a mapping with ``rows:``, validated as ``table``), by CR."""
    file: Any = resources.files("arena.data").joinpath(name)  # a Traversable
    return {row.cr_value: row for row in validate(load_yaml(file, f"arena/data/{name}"), table).rows}


class TypicalStats(_RowByCR):
    """One row of Table 1-1 "Monster Statistics by CR"."""

    hp: int = Field(gt=0)
    ac: int
    high_attack: int
    low_attack: int
    avg_damage_high: int = Field(gt=0)
    avg_damage_low: int = Field(gt=0)
    primary_dc: int
    secondary_dc: int
    good_save: int
    poor_save: int


class _Table(Frozen):
    rows: tuple[TypicalStats, ...]


@cache
def _table() -> dict[Fraction, TypicalStats]:
    return _rows_by_cr("monster_stats_by_cr.yaml", _Table)


def table_crs() -> list[Fraction]:
    """The CRs the Pathfinder table covers, in order (1/2, 1, 2, ... 20)."""
    return sorted(_table())


def _cr(cr: Fraction | int | str) -> Fraction:
    try:
        return parse_cr(cr)
    except ValueError as err:
        raise ArenaError(str(err)) from None


def _covers(crs: list[Fraction]) -> str:
    """The CRs of a table as its errors name them: ``1/8, 1/6, 1/4, 1/3, 1/2 and 1-20``."""
    fractions = [cr_text(c) for c in crs if c < 1]
    whole = [int(c) for c in crs if c >= 1]
    return ", ".join(fractions) + f" and {whole[0]}-{whole[-1]}"


def _row(table: dict[Fraction, Any], cr: Fraction | int | str, what: str, whose: str) -> Any:
    """``table``'s row for ``cr``; an ArenaError naming the CRs the table covers if it has none."""
    value = _cr(cr)
    row = table.get(value)
    if row is None:
        raise ArenaError(f"no {what} for CR {cr_text(value)}: {whose} covers CR {_covers(sorted(table))}")
    return row


def typical_stats(cr: Fraction | int | str) -> TypicalStats:
    """The Pathfinder table's row for ``cr``; ArenaError if the table has no such row."""
    return _row(_table(), cr, "Pathfinder typical monster (typical-pf-crN)", "the Pathfinder table")


def parse_typical(name: str) -> tuple[str, Fraction] | None:
    """``("srd-medians", 5)`` for ``typical-cr5``, ``("pathfinder", 5)`` for ``typical-pf-cr5``; None if ``name`` is
    not of either form. A name of that form with an impossible CR raises ArenaError."""
    key = name.strip().lower()
    if key.startswith(PF_PREFIX):
        table, text = "pathfinder", key[len(PF_PREFIX) :]
    elif key.startswith(PREFIX):
        table, text = "srd-medians", key[len(PREFIX) :]
    else:
        return None
    try:
        return table, parse_cr(float(text) if "." in text else text)
    except (ValueError, OverflowError):
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        raise ArenaError(
            f"{shown}: expected typical-crN with N one of 1/8, 1/6, 1/4, 1/3, 1/2, 1, 2, ... 20 "
            "(typical-pf-crN: 1/2, 1, 2, ... 20)"
        ) from None


def parse_typical_name(name: str) -> Fraction | None:
    """The CR in ``typical-cr5`` / ``typical-cr1/2`` / ``typical-cr0.5`` (or ``typical-pf-cr5``); None if ``name``
    is not of that form.

    A name of that form with an impossible CR raises ArenaError.
    """
    parsed = parse_typical(name)
    return None if parsed is None else parsed[1]


def _claw_damages(total: int) -> tuple[str, str]:
    """Two claw damage expressions whose averages sum to ``total`` (the rule in the module docstring)."""
    for die in (6, 4, 3):
        pair = die + 1  # average of one die on each of the two claws
        n = max(1, round(total / (2 * pair)))
        rest = total - n * pair
        if rest >= 0:
            break
    else:  # pragma: no cover - total >= 4 in the table; 1d3 + 1d3 covers it
        raise ArenaError(f"average damage {total} is too small for two claws")

    def expr(bonus: int) -> str:
        return f"{n}d{die}" + (f"+{bonus}" if bonus else "")

    return expr(math.ceil(rest / 2)), expr(rest // 2)


@cache
def _build_pf(cr: Fraction, name: str) -> Creature:
    row = typical_stats(cr)
    hd = max(1, round(row.hp / 10))
    bonus = row.hp - math.floor(hd * 5.5)
    con = 10 + 2 * (bonus // hd)
    first, second = _claw_damages(row.avg_damage_high)
    claw: dict[str, Any] = dict(name="claw", bonuses=(row.high_attack,), damage_types=("piercing", "slashing"))
    full: tuple[Attack, ...]
    if first == second:
        full = (Attack(**claw, count=2, damage=first),)
    else:
        full = (Attack(**claw, damage=first), Attack(**claw, damage=second))
    return Creature(
        name=name,
        title=f"Typical monster, CR {cr_text(cr)}",
        side="monster",
        size="medium",
        type="magical beast",
        cr=cr,
        hp=row.hp,
        hit_dice=f"{hd}d10+{bonus}",
        first_hit_die=10,
        initiative=0,
        speed=30,
        ac=row.ac,
        touch_ac=10,
        flat_footed_ac=row.ac,
        bab=row.high_attack,
        grapple=row.high_attack,
        abilities=Abilities(con=con),
        saves=Saves(fort=row.good_save, ref=row.good_save, will=row.poor_save),
        attack=((full[0].model_copy(update={"count": 1}),),),
        full_attack=(full,),
        notes=(
            f"Built from Pathfinder Bestiary Table 1-1 (CR {row.cr}): hp {row.hp}, AC {row.ac}, high attack "
            f"+{row.high_attack}, high average damage {row.avg_damage_high}, good save +{row.good_save}, "
            f"poor save +{row.poor_save}, primary DC {row.primary_dc}, secondary DC {row.secondary_dc}."
        ),
        source="Pathfinder RPG Bestiary, Table 1-1 Monster Statistics by CR (PRD, OGL 1.0a)",
    )


# --------------------------------------------------------------------------------------------- SRD medians
class SrdMedians(_RowByCR):
    """One row of ``srd35_monster_medians_by_cr.yaml`` (:mod:`arena.world.typical_tables` says what each is)."""

    creatures: int
    pooled: str
    hp: int = Field(gt=0)
    ac: int
    touch_ac: int
    flat_footed_ac: int
    attack: int
    damage_per_round: float = Field(gt=0)
    attacks: int = Field(ge=1)
    lower_attack_share: float
    lower_damage_share: float
    lower_gap: int
    fort: int
    ref: int
    will: int
    dc: int
    with_dc: float


class _SrdTable(Frozen):
    rows: tuple[SrdMedians, ...]


@cache
def _srd_table() -> dict[Fraction, SrdMedians]:
    return _rows_by_cr("srd35_monster_medians_by_cr.yaml", _SrdTable)


def srd_table_crs() -> list[Fraction]:
    """The CRs the SRD-medians table covers, in order (1/8, 1/6, 1/4, 1/3, 1/2, 1, ... 20): the typical monsters
    and the calibration's ladder."""
    return sorted(_srd_table())


def srd_medians(cr: Fraction | int | str) -> SrdMedians:
    """The SRD-medians row for ``cr``; ArenaError if the table has no such row."""
    return _row(_srd_table(), cr, "typical monster (typical-crN)", "the SRD-medians table")


def _one_damage(amount: float) -> str:
    """A dice expression of average ``amount`` (a multiple of 0.5): d6s carrying about half of it, the rest flat;
    another die (d8, d4, d3) or one die fewer where the half point needs it."""
    target = max(1, round(amount / 7))
    counts = sorted(range(1, target + 3), key=lambda n: (abs(n - target), n))
    for die in (6, 8, 4, 3):
        for n in counts:
            mean = n * (die + 1) / 2
            rest = amount - mean
            if rest >= 0 and float(rest).is_integer():
                return f"{n}d{die}" + (f"+{int(rest)}" if rest else "")
    if amount == 1.5:
        return "1d2"  # below 2 no die of the list fits (CR 1/4 deals 1.5 a round)
    return str(max(1, int(amount)))  # a flat 1 (CR 1/8 and 1/6), as the shipped SRD rat's bite (1d3-4) is stored


def split_damage(total: float, k: int) -> list[str]:
    """``k`` dice expressions whose averages sum to ``total`` (to 0.5), as even as half points allow."""
    halves = round(total * 2)
    base, extra = divmod(halves, k)
    return [_one_damage((base + (1 if i < extra else 0)) / 2) for i in range(k)]


def _routine(name: str, bonus: int, damages: list[str]) -> list[Attack]:
    out: list[Attack] = []
    for expr in dict.fromkeys(damages):
        out.append(
            Attack(
                name=name,
                bonuses=(bonus,),
                count=damages.count(expr),
                damage=expr,
                damage_types=("piercing", "slashing"),
            )
        )
    return out


@cache
def _build_srd(cr: Fraction) -> Creature:
    row = srd_medians(cr)
    hd = max(1, round(row.hp / 10))
    bonus = row.hp - math.floor(hd * 5.5)
    con = max(1, 10 + 2 * (bonus // hd))
    lower = round(row.attacks * row.lower_attack_share) if row.attacks > 1 else 0
    lower = min(lower, row.attacks - 1)
    primary = row.attacks - lower
    lower_damage = round(row.damage_per_round * row.lower_damage_share * 2) / 2 if lower else 0.0
    claws = _routine("claw", row.attack, split_damage(row.damage_per_round - lower_damage, primary))
    bites = _routine("bite", row.attack - row.lower_gap, split_damage(lower_damage, lower)) if lower else []
    return Creature(
        name=f"{PREFIX}{cr_text(cr)}",
        title=f"Typical monster, CR {cr_text(cr)}",
        side="monster",
        size="medium",
        type="magical beast",
        cr=cr,
        hp=row.hp,
        hit_dice=f"{hd}d10{bonus:+d}" if bonus else f"{hd}d10",
        first_hit_die=10,
        initiative=0,
        speed=30,
        ac=row.ac,
        touch_ac=row.touch_ac,
        flat_footed_ac=row.flat_footed_ac,
        bab=row.attack,
        grapple=row.attack,
        abilities=Abilities(con=con),
        saves=Saves(fort=row.fort, ref=row.ref, will=row.will),
        attack=((claws[0].model_copy(update={"count": 1}),),),
        full_attack=((*claws, *bites),),
        notes=(
            f"Built from the SRD 3.5 medians of CR {row.cr} ({row.creatures} creatures, CR {row.pooled}): hp "
            f"{row.hp}, AC {row.ac} (touch {row.touch_ac}, flat-footed {row.flat_footed_ac}), attack +{row.attack}, "
            f"damage per round {row.damage_per_round:g} over {row.attacks} attacks ({lower} secondary at "
            f"-{row.lower_gap}), Fort +{row.fort}, Ref +{row.ref}, Will +{row.will}, DC {row.dc}."
        ),
        source="SRD 3.5 medians by CR (arena/data/srd35_monster_medians_by_cr.yaml; SRD 3.5, OGL 1.0a)",
    )


def typical_creature(cr: Fraction | int | str, table: str = "srd-medians") -> Creature:
    """The typical monster of ``cr`` (``5``, ``"1/2"``, ``Fraction(1, 2)``), named ``typical-cr<cr>``, from
    ``table`` (``srd-medians`` or ``pathfinder``)."""
    if table == "pathfinder":
        value = typical_stats(cr).cr_value
        return _build_pf(value, f"{PREFIX}{cr_text(value)}")
    if table != "srd-medians":
        raise ArenaError(f"typical monster table {table!r}: expected one of {', '.join(TABLES)}")
    return _build_srd(srd_medians(cr).cr_value)


def typical_named(name: str) -> Creature | None:
    """The creature of a ``typical-crN`` / ``typical-pf-crN`` name; None if ``name`` is not of that form."""
    parsed = parse_typical(name)
    if parsed is None:
        return None
    table, cr = parsed
    if table == "pathfinder":
        value = typical_stats(cr).cr_value
        return _build_pf(value, f"{PF_PREFIX}{cr_text(value)}")
    return typical_creature(cr)


def for_table(creature: Creature, table: str) -> Creature:
    """``creature``, or the ``table`` typical monster where ``creature`` is the default table's ``typical-crN``
    (what the model option ``typical_monster`` does to a fight's monsters)."""
    if table == "srd-medians" or not creature.name.startswith(PREFIX):
        return creature
    cr = parse_typical_name(creature.name)
    if cr is None or cr not in _srd_table() or creature != _build_srd(cr):
        return creature
    if cr not in _table():
        raise ArenaError(
            f"{creature.name} has no counterpart in the {table} table (model option typical_monster: {table}), "
            f"which covers CR {_covers(table_crs())}"
        )
    return typical_creature(cr, table)


def typical_names() -> list[str]:
    """``typical-cr1/8``, ``typical-cr1/6``, ... ``typical-cr1/2``, ``typical-cr1``, ... ``typical-cr20``."""
    return [f"{PREFIX}{cr_text(cr)}" for cr in srd_table_crs()]
