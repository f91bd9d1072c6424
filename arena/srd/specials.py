"""What a creature does besides or instead of its routines, read once the attacks are: trample, webs, a manticore's
spikes, an earth elemental's earth mastery.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description (``Trample (Ex): Reflex half DC 25``) or from the family's table by
size (the monstrous spiders' webs), returns the :class:`~arena.world.creatures.Creature` field and marks the ability
``modelled``; an ability whose numbers cannot be read, or whose effect the engine's field cannot carry, stays
``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.context import Reading
from arena.srd.patterns import AMOUNT, DICE, NUMBER_WORDS
from arena.srd.prose import size_number
from arena.srd.text import clean, dice_text, number

WORD_TRAMPLE = re.compile(r"^\s*trample\s*", re.IGNORECASE)
"""An entry's name before its dice: ``Trample 2d8+15``."""
FIRST_AMOUNT = re.compile(f"({AMOUNT})")
"""An entry's dice or number: ``2d8+15`` of ``Trample 2d8+15``."""
TRAMPLE_DAMAGE = re.compile(rf"\bdeals? ({DICE}) points? of (?:bludgeoning )?damage", re.IGNORECASE)
"""``deals 2d8+15 points of bludgeoning damage``."""
REFLEX_HALF = re.compile(r"\bReflex (?:half )?DC (\d+)|\bDC (\d+) Reflex")
"""``Reflex half DC 25``, ``a DC 25 Reflex save``."""
WEB_USES = re.compile(r"throw a web (?:up to )?(\w+) times per day", re.IGNORECASE)
"""``can throw a web eight times per day``."""
WEB_BURST = re.compile(r"burst (?:the web|it) with a DC (\d+) Strength check", re.IGNORECASE)
"""``can burst the web with a DC 26 Strength check``."""
WEB_SPINNERS = re.compile(r"web-spinners can throw", re.IGNORECASE)
"""``Web-spinners can throw a web eight times per day`` (the hunting spiders throw none)."""
ANCHORS = re.compile(r"anchors the target in place", re.IGNORECASE)
"""``The web anchors the target in place``."""
EARTH_MASTERY = "+1 bonus on attack and damage rolls if both it and its foe are touching the ground"
"""An earth elemental's: ``gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
ground``."""
MODIFIER_END = re.compile(r"(.*?)([+-]\d+)?")
"""Dice and their modifier: ``2d8+7``."""
SPIKE = "spike"


# --------------------------------------------------------------------------------------------- trample
def trample(ctx: Reading, item: dict) -> dict:
    """``Trample 2d8+15`` (the entry) and ``Trample (Ex): Reflex half DC 25`` (the description); the damage is
    bludgeoning (SRD 3.5, Special Abilities: Trample)."""
    desc, text = ctx.text_of(item, "trample")
    entry = FIRST_AMOUNT.search(WORD_TRAMPLE.sub("", clean(item["name"])))
    told = TRAMPLE_DAMAGE.search(text)
    dmg = entry if entry and "d" in entry.group(1) else told
    dcs = set(REFLEX_HALF.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    if dc is None or dmg is None:
        return ctx.unread(item, "trample", f"{'no Reflex DC' if dc is None else 'no damage'} read", text)
    damage = dice_text(dmg.group(1))
    for a in ctx.abilities:
        if a["key"] == "trample":
            a["damage"], a["dc"], a["save"] = damage, dc, "ref"
    ctx.mark(
        "trample",
        "modelled",
        f"trample: {damage} bludgeoning, Reflex DC {dc} half, on two or more smaller foes instead of its attacks",
    )
    return {"trample": {"damage": damage, "dc": dc, "damage_types": ["bludgeoning"]}}


# --------------------------------------------------------------------------------------------- webs and rays
def web(ctx: Reading, item: dict) -> dict:
    """``can throw a web eight times per day ... can burst the web with a DC 26 Strength check`` (the DC of its
    table by size when the text gives none)."""
    desc, _ = ctx.text_of(item, "web")
    text = ctx.following(desc, 2)
    uses, burst = WEB_USES.search(text), WEB_BURST.search(text)
    how = ""
    dc = number(burst.group(1)) if burst else None
    if dc is None:
        dc, row = size_number(ctx.block, ctx.size, desc, "Break DC")
        if dc is not None:
            how = f"; its burst DC from the {row} row of its table by size"
    count = NUMBER_WORDS.get(uses.group(1).lower()) if uses else None
    if dc is None or count is None:
        what = "no Strength DC to burst it" if dc is None else "how many webs a day"
        return ctx.unread(item, "web", f"{what} read", text)
    if WEB_SPINNERS.search(text):
        how += "; as a web-spinner (the SRD's hunting spiders throw none)"
        ctx.note_on(
            item,
            "guess",
            "web: the block is a web-spinner (hunting spiders cannot use their webs as weapons)",
            text[:200],
        )
    if ANCHORS.search(text):
        how += "; anchored in place: the engine's entangles"
    ctx.save_of("web", dc, None)
    ctx.mark("web", "modelled", f"web: {count} a fight, burst with a DC {dc} Strength check{how}")
    return {"web": {"burst_dc": dc, "uses": count}}


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
