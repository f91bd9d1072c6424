"""What a creature does besides or instead of its routines, read once the attacks are: a manticore's spikes, an
earth elemental's earth mastery.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description, returns the
:class:`~arena.world.creatures.Creature` field and marks the ability
``modelled``; an ability whose numbers cannot be read, or whose effect the engine's field cannot carry, stays
``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.context import Reading
from arena.srd.text import number

EARTH_MASTERY = "+1 bonus on attack and damage rolls if both it and its foe are touching the ground"
"""An earth elemental's: ``gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
ground``."""
MODIFIER_END = re.compile(r"(.*?)([+-]\d+)?")
"""Dice and their modifier: ``2d8+7``."""
SPIKE = "spike"


# --------------------------------------------------------------------------------------------- spikes
def spikes(ctx: Reading, item: dict) -> dict:
    """The manticore's ``volley of six spikes as a standard action (make an attack roll for each spike)``: its
    ranged routine (``6 spikes +8 ranged``), one of the routines the engine chooses between."""
    ranged = [
        a
        for r in (ctx.data.get("full_attack") or [])
        for a in r
        if a.get("kind") == "ranged" and a["name"].startswith(SPIKE)
    ]
    if not ranged:
        return ctx.ignored("spikes", "no spike volley in its routines")
    ctx.mark(
        "spikes",
        "modelled",
        f"its ranged routine: {ranged[0].get('count', 1)} spikes "
        f"{ranged[0]['bonuses'][0]:+d}; the engine fights with its melee routine when it "
        "can (its 24 spikes a day are left out)",
    )
    return {}


# --------------------------------------------------------------------------------------------- hit dice
def hit_dice_count(data: dict) -> int:
    """The creature's hit dice (the dice added of its hit dice expression): an air elemental's whirlwind lasts a round
    for every 2 (:mod:`arena.abilities.whirlwind`), a smite may deal as much (:mod:`arena.abilities.smite`)."""
    return sum(count for sign, count, _, _ in parse_dice(data["hit_dice"]).dice if sign > 0) or 1


# --------------------------------------------------------------------------------------------- earth mastery
def _plus(damage: str, more: int) -> str:
    """``2d8+7`` plus 1 is ``2d8+8``."""
    m = MODIFIER_END.fullmatch(damage)
    if m is None:  # a line break: no dice of a stat block
        return damage
    total = number(m.group(2) or 0) + more
    return f"{m.group(1)}{total:+d}" if total else m.group(1)


def earth_mastery(ctx: Reading, item: dict) -> dict:
    """SRD 3.5 Earth elemental: "gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
    ground ... (These modifiers are not included in the statistics block.)": every arena fight is on the ground, so
    its attacks gain +1 and +1."""
    desc, text = ctx.text_of(item, "earth mastery")
    if EARTH_MASTERY not in text:
        return ctx.ignored("earth mastery", "its numbers not read")
    out = {
        key: [
            [{**a, "bonuses": [b + 1 for b in a["bonuses"]], "damage": _plus(a["damage"], 1)} for a in routine]
            for routine in ctx.data.get(key) or []
        ]
        for key in ("attack", "full_attack")
    }
    ctx.note_on(
        item,
        "changed",
        "earth mastery: +1 on its attack and damage rolls (the fight is on the ground), added to its attacks",
        text[:200],
    )
    ctx.mark(
        "earth mastery",
        "modelled",
        "+1 on attack and damage rolls, added to its attacks: an arena fight is on "
        "the ground (no foe of the party flies)",
    )
    return out
