"""The "typical monster of CR c": a real :class:`~arena.world.creatures.Creature` built from the Pathfinder
Bestiary's Table 1-1 "Monster Statistics by CR" (``arena/data/monster_stats_by_cr.yaml``, CR 1/2 and 1-20).

Names: ``typical-cr5``, ``typical-cr1/2``; ``typical-cr0.5`` is accepted as another spelling of
``typical-cr1/2`` (the creature's name is always the canonical ``typical-cr1/2``). Other CRs (1/3, 21...) are
not in the table and are an error.

The table gives numbers, not a body; the rest is chosen here and is the same at every CR:

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


class TypicalStats(Frozen):
    """One row of Table 1-1 "Monster Statistics by CR"."""

    cr: str
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

    @property
    def cr_value(self) -> Fraction:
        return parse_cr(self.cr)


class _Table(Frozen):
    rows: tuple[TypicalStats, ...]


@cache
def _table() -> dict[Fraction, TypicalStats]:
    file = resources.files("arena.data").joinpath("monster_stats_by_cr.yaml")
    table = validate(load_yaml(file, "arena/data/monster_stats_by_cr.yaml"), _Table)
    return {row.cr_value: row for row in table.rows}


def table_crs() -> list[Fraction]:
    """The CRs the table covers, in order (1/2, 1, 2, ... 20)."""
    return sorted(_table())


def typical_stats(cr: Fraction | int | str) -> TypicalStats:
    """The table row for ``cr``; ArenaError if the table has no such row."""
    try:
        value = parse_cr(cr)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    row = _table().get(value)
    if row is None:
        raise ArenaError(f"no typical monster for CR {cr_text(value)}: the table covers CR 1/2 and 1-20")
    return row


def parse_typical_name(name: str) -> Fraction | None:
    """The CR in ``typical-cr5`` / ``typical-cr1/2`` / ``typical-cr0.5``; None if ``name`` is not of that form.

    A name of that form with an impossible CR raises ArenaError.
    """
    key = name.strip().lower()
    if not key.startswith(PREFIX):
        return None
    text = key[len(PREFIX) :]
    try:
        return parse_cr(float(text) if "." in text else text)
    except (ValueError, OverflowError):
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        raise ArenaError(f"{shown}: expected typical-crN with N one of 1/2, 1, 2, ... 20") from None


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
def _build(cr: Fraction) -> Creature:
    row = typical_stats(cr)
    hd = max(1, round(row.hp / 10))
    bonus = row.hp - math.floor(hd * 5.5)
    con = 10 + 2 * (bonus // hd)
    first, second = _claw_damages(row.avg_damage_high)
    claw = dict(name="claw", bonuses=(row.high_attack,), damage_types=("piercing", "slashing"))
    if first == second:
        full = (Attack(**claw, count=2, damage=first),)
    else:
        full = (Attack(**claw, damage=first), Attack(**claw, damage=second))
    return Creature(
        name=f"{PREFIX}{cr_text(cr)}",
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


def typical_creature(cr: Fraction | int | str) -> Creature:
    """The typical monster of ``cr`` (``5``, ``"1/2"``, ``Fraction(1, 2)``), named ``typical-cr<cr>``."""
    return _build(typical_stats(cr).cr_value)


def typical_names() -> list[str]:
    """``typical-cr1/2``, ``typical-cr1``, ... ``typical-cr20``."""
    return [f"{PREFIX}{cr_text(cr)}" for cr in table_crs()]
