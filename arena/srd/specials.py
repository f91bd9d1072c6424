"""What a creature does besides or instead of its routines, read once the attacks are: rake, rage, powerful charge,
a manticore's spikes, an earth elemental's earth mastery.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description (``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``), returns the
:class:`~arena.world.creatures.Creature` field and marks the ability
``modelled``; an ability whose numbers cannot be read, or whose effect the engine's field cannot carry, stays
``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.context import Reading, named
from arena.srd.patterns import DICE, NUMBER_WORDS
from arena.srd.text import clean, dice_text, number

ATTACK_BONUS = re.compile(r"attack bonus ([+-]\d+)", re.IGNORECASE)
"""A rake's: ``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``."""
RAKE_DAMAGE = re.compile(rf"damage ({DICE})", re.IGNORECASE)
"""``damage 1d6+2``."""
ENTRY_DICE = re.compile(rf"(?<!\d)({DICE})")
"""An entry's dice: ``Rake 1d6+2``, ``Trample 2d8+15``."""
WHILE_SWIMMING = re.compile(r"\bwhile swimming\b", re.IGNORECASE)
"""A rake of the water: ``A sea cat that ... while swimming``."""
RAKE_COUNT = re.compile(r"\b(two|three|four|five|six|eight)\s+(?:claws|rakes|rake attacks)", re.IGNORECASE)
"""``two rake attacks``."""
RAGE_NUMBERS = re.compile(
    r"\+4 (?:to )?Strength, \+4 (?:to )?Constitution,?(?: \+2 morale bonus on Will saves,)? "
    r"and -2 (?:to )?(?:AC|Armor Class)|\+4 Strength, \+4 Constitution, \+2 morale bonus on "
    r"Will saves, -2 AC",
    re.IGNORECASE,
)
"""The engine's rage: ``gains +4 to Strength, +4 to Constitution, and -2 to Armor Class``."""
BLOOD_FRENZY = "gains +2 Constitution and +2 Strength, and takes a -2 penalty to Armor Class"
"""A sahuagin's blood frenzy: ``gains +2 Constitution and +2 Strength, and takes a -2 penalty to Armor Class``."""
FRENZY_WHEN = "takes damage in combat can fly into a frenzy"
"""``A sahuagin that takes damage in combat can fly into a frenzy``."""
TAKES_DAMAGE = re.compile(r"takes damage", re.IGNORECASE)
"""A rage that starts when it is hurt: ``takes damage``."""
CHARGE_DAMAGE = re.compile(rf"\bdeals? ({DICE}) points? of damage", re.IGNORECASE)
"""A powerful charge's: ``deals 4d6+6 points of damage``."""
CHARGE_ATTACK = re.compile(r"\b(?:its|a single|single|an?) ([a-z]+) attack\b", re.IGNORECASE)
"""``a single gore attack``, ``its gore attack``."""
CHARGE_BONUS = re.compile(r"\bwith an? ([+-]\d+) attack bonus|\battack bonus (?:of )?([+-]\d+)", re.IGNORECASE)
"""``with a +9 attack bonus``."""
EARTH_MASTERY = "+1 bonus on attack and damage rolls if both it and its foe are touching the ground"
"""An earth elemental's: ``gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
ground``."""
MODIFIER_END = re.compile(r"(.*?)([+-]\d+)?")
"""Dice and their modifier: ``2d8+7``."""
SPIKE = "spike"


# --------------------------------------------------------------------------------------------- rake, rage
def rake(ctx: Reading, item: dict) -> dict:
    """``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``: two claws (or as many as the text says) at the end of a
    pounce and each round it holds a foe; none while it swims."""
    desc, text = ctx.text_of(item, "rake")
    if not text and " -- " in item["text"]:
        text = clean(item["text"].split(" -- ", 1)[1])
    entry = clean(item["name"])
    bonus, dmg, entry_dmg = ATTACK_BONUS.search(text), RAKE_DAMAGE.search(text), ENTRY_DICE.search(entry)
    found = dmg or entry_dmg
    if bonus is None or found is None:
        ctx.note_on(item, "unread", "rake: its attack bonus and damage not read: not modelled", text[:200] or entry)
        return ctx.ignored("rake", "its attack bonus and damage not read")
    if WHILE_SWIMMING.search(text):
        ctx.mark("rake", "no effect", "its rakes come only while it swims, and the arena has no water")
        return {}
    damage = dice_text(found.group(1))
    how = ""
    if dmg and entry_dmg and dice_text(entry_dmg.group(1)) != damage:
        ctx.note_on(
            item,
            "discrepancy",
            f"rake: the entry says {entry_dmg.group(1)}, its description {damage}: kept the description's",
            f"{entry} -- {text[:150]}",
        )
        how = f"; the entry's {entry_dmg.group(1)} disagrees: the description's {damage}"
    count_word = RAKE_COUNT.search(text)
    count = NUMBER_WORDS[count_word.group(1).lower()] if count_word else 2
    claws = {
        "name": "rake",
        "bonuses": [number(bonus.group(1))],
        "count": count,
        "damage": damage,
        "damage_types": ["slashing"],
    }
    if parse_dice(damage).maximum < 1:
        claws["damage"] = "1"
    for a in ctx.abilities:
        if a["key"] == "rake":
            a["damage"] = claws["damage"]
    ctx.mark(
        "rake",
        "modelled",
        f"rake: {count} claws at {number(bonus.group(1)):+d} for {claws['damage']} (at the "
        f"end of a pounce and each round it holds a foe){how}",
    )
    return {"rake": claws}


def rage(ctx: Reading, item: dict) -> dict:
    """The engine's rage (``+4 to Strength, +4 to Constitution, and -2 to Armor Class``, from the moment it is hurt)
    and a sahuagin's blood frenzy (``+2 Constitution and +2 Strength``)."""
    desc, text = ctx.text_of(item, "rage")
    if not text and " -- " in item["text"]:
        text = clean(item["text"].split(" -- ", 1)[1])
    if BLOOD_FRENZY in text and FRENZY_WHEN in text:
        ctx.mark(
            "rage",
            "modelled",
            "rage: +2 Str, +2 Con, -2 AC once hurt (a sahuagin's blood frenzy, once a day: "
            "the fight), until it or its foe is dead",
        )
        return {"rage": True, "rage_strength": 2}
    if not RAGE_NUMBERS.search(text):
        return ctx.ignored(
            "rage",
            "its numbers differ from the engine's rage (+4 Strength, +4 Constitution, -2 AC once hurt)"
            if text
            else "no description read",
        )
    how = ""
    if not TAKES_DAMAGE.search(text):
        how = "; the SRD's is at will for a few rounds a day, the engine's starts once it is hurt and lasts the fight"
        ctx.note_on(
            item,
            "guess",
            "rage: the SRD's starts at will and lasts a few rounds; the engine's starts when it "
            "is first hurt and lasts the fight",
            text[:200],
        )
    ctx.mark("rage", "modelled", f"rage: +4 Str, +4 Con, -2 AC once hurt{how}")
    return {"rage": True}


# --------------------------------------------------------------------------------------------- charge
def powerful_charge(ctx: Reading, item: dict) -> dict:
    """The attack it charges with, as the SRD prints it (the engine adds the charge's +2): ``a single gore attack
    with a +9 attack bonus that deals 4d6+6 points of damage`` (the minotaur's), ``its gore attack deals 4d8+20``
    (the triceratops's: the gore's bonus of its routines); a text that names no attack (the rhinoceros's) charges
    with its standard attack."""
    desc, text = ctx.text_of(item, "powerful charge")
    dmg = CHARGE_DAMAGE.search(text)
    if dmg is None:
        return ctx.unread(item, "powerful charge", "its damage not read", text)
    damage = dice_text(dmg.group(1))
    for a in ctx.abilities:
        if a["key"] == "powerful charge":
            a["damage"] = damage
    standard = [a for r in ctx.data.get("attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    melee = standard + [a for r in ctx.data.get("full_attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    attack = CHARGE_ATTACK.search(text)
    how = ""
    if attack:
        found = named(attack.group(1), [a["name"] for a in melee])
        if found is None:
            return ctx.ignored(
                "powerful charge", f"its {attack.group(1).lower()} attack is not an attack of its routines"
            )
        base = next(a for a in melee if a["name"] == found)
    elif standard:
        base = standard[0]
        how = f"; the text names no attack: its standard attack, the {base['name']}"
    else:
        return ctx.ignored("powerful charge", "the text names no attack and it has no melee attack")
    bonus = CHARGE_BONUS.search(text)
    bonuses = [number(bonus.group(1) or bonus.group(2))] if bonus else [base["bonuses"][0]]
    if not bonus:
        how += f"; at the {base['name']}'s bonus, {bonuses[0]:+d}"
    charge = {
        "name": base["name"],
        "bonuses": bonuses,
        "damage": damage,
        "damage_types": list(base.get("damage_types") or ["bludgeoning"]),
    }
    for key in ("threat", "multiplier"):
        if key in base:
            charge[key] = base[key]
    ctx.mark(
        "powerful charge",
        "modelled",
        f"powerful_charge: {charge['name']} {bonuses[0]:+d} melee ({damage}) as it "
        f"closes in, round 1, the charge's +2 added by the engine{how}",
    )
    return {"powerful_charge": charge}


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
