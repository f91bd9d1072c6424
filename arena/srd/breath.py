"""Breath weapons read once the attacks are, beyond the cone or line of damage the entry's reader reads
(:mod:`arena.srd.abilities`): the metallic dragons' second breath (sleep, paralysis, slow, fear, weakness,
repulsion), the gorgon's breath that turns to stone, the chimera's breath of its dragon head's color, and the sprays
that are breath weapons to the engine (a bombardier beetle's and a digester's acid spray, an ankheg's spit acid).

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order) and returns the
``breath_effect`` or ``breath_weapon`` field, or marks the ability ignored and says why.
"""

from __future__ import annotations

import re

from arena.srd.context import Reading
from arena.srd.dragons import AGES
from arena.srd.patterns import ABILITY, ABILITY_KEYS, AMOUNT, ROLL, SAVE, SAVE_KEYS
from arena.srd.prose import column_of, size_tables
from arena.srd.text import clean, dice_text, number

BREATH_EFFECTS = {
    "sleep": "sleep",
    "paralyzing": "paralysis",
    "paralysis": "paralysis",
    "slow": "slow",
    "weakening": "weakness",
    "fear": "fear",
    "repulsion": "repulsion",
}
"""The non-damaging breath weapons of the dragons that the engine's ``breath_effect`` carries, by their first word
(``Sleep breath weapon``)."""

CONE_OR_LINE = re.compile(r"(?<!\d)(\d+)-foot (cone|line)")
"""``a 40-foot cone``, ``a 100-foot line``."""
SAVE_DC = re.compile(rf"\b{SAVE} DC (\d+)")
"""``Will DC 19 negates``."""
AGE_TITLE = re.compile(r",\s*([a-z ]+)$")
"""A true dragon's age in its title (lowercase): ``gold dragon, young adult``."""
PER_AGE = "per age category"
"""The general rule of a dragon's second breath: ``for 1d6 rounds plus 1 round per age category``."""
ROUNDS_PER_AGE = re.compile(rf"for ({ROLL}) rounds plus 1 round per age category")
"""``fall asleep for 1d6 rounds plus 1 round per age category``."""
LOSS_PER_AGE = re.compile(rf"take 1 point of {ABILITY} damage per age category")
"""``take 1 point of Strength damage per age category``."""
STONE_SHAPE = re.compile(rf"(?<!\d)(\d+)-foot (cone|line), once every ({AMOUNT}) rounds", re.IGNORECASE)
"""The gorgon's: ``60-foot cone, once every 1d4 rounds``."""
STONE_SAVE = re.compile(rf"turn to stone permanently, {SAVE} DC (\d+) negates", re.IGNORECASE)
"""``turn to stone permanently, Fortitude DC 19 negates``."""
USES_A_DAY = re.compile(r"no more than (\w+) times per day")
"""``but no more than five times per day``."""
HEAD_DAMAGE = re.compile(rf"deals ({ROLL}) points of damage, and allows a DC (\d+) Reflex save for half")
"""The chimera's: ``deals 3d8 points of damage, and allows a DC 17 Reflex save for half damage``."""
EVERY_ROUNDS = re.compile(rf"once every ({ROLL}) rounds")
"""``once every 1d4 rounds``."""
TABLE_BREATH = re.compile(
    r"(?<!\d)(\d+)-foot (cone|line) of (?:gas \()?(acid|lightning|fire|cold|electricity)", re.IGNORECASE
)
"""A row of the chimera's table of heads: ``40-foot line of acid``."""
SPRAY_CONE = re.compile(r"(?<!\d)(\d+)-foot cone", re.IGNORECASE)
"""``a 10-foot cone of acidic vapor``."""
SPRAY_DAMAGE = re.compile(rf"(?:take|dealing|deals) ({AMOUNT}) points? of (?:acid )?damage", re.IGNORECASE)
"""``or take 1d4+2 points of acid damage``, ``dealing 4d8 points of damage``."""
SPRAY_SAVE = re.compile(r"\bDC (\d+) (Fortitude|Reflex) save (or take|halves)", re.IGNORECASE)
"""``a DC 13 Fortitude save or take``, ``a DC 17 Reflex save halves the damage``."""
SPRAY_AGAIN = (re.compile(rf"until ({ROLL}) rounds later"), re.compile(r"once (per) round"))
"""How often: ``it can't use it again until 1d4 rounds later``, ``once per round``."""
CONCENTRATED = "concentrated stream"
"""A digester's other use: ``a concentrated stream``."""
SPIT = re.compile(rf"(?<!\d)(\d+)-ft\. line, once every \d+ hours; damage ({AMOUNT}) acid, Reflex DC (\d+) half")
"""The ankheg's: ``30-ft. line, once every 6 hours; damage 4d4 acid, Reflex DC 14 half``."""


def age_category(title: str) -> int | None:
    """A true dragon's age category from its title (``Gold Dragon, Young Adult``: 5)."""
    ages = [a.lower() for a in AGES]
    m = AGE_TITLE.search(title.lower())
    return ages.index(m.group(1).strip()) + 1 if m and m.group(1).strip() in ages else None


def breath_effect(ctx: Reading, item: dict) -> dict:
    """A dragon's second breath (``Sleep Breath Weapon (Su): ... 40-foot cone ... Will DC 19 negates``, and the
    general rule: ``fall asleep for 1d6 rounds plus 1 round per age category``); the block's one breath weapon
    when it is not a cone or line of damage (:func:`_plain_breath`)."""
    key = "breath weapon (non-damage)"
    entry = clean(item["name"]).lower()
    word = entry.split()[0]
    if word == "breath":  # the block's one breath weapon, of no cone of damage
        return _plain_breath(ctx, item)
    effect = BREATH_EFFECTS.get(word)
    if effect is None:
        return ctx.ignored(
            key,
            "not a breath effect the engine's breath_effect has (sleep, paralysis, slow, fear, weakness, repulsion)",
        )
    desc, text = ctx.text_of(item, entry)
    shape, save, age = CONE_OR_LINE.search(text), SAVE_DC.search(text), age_category(ctx.block.title)
    the_word = re.compile(rf"\b{re.escape(word)}", re.IGNORECASE)
    general = next((c.text for c in ctx.block.description if PER_AGE in c.text and the_word.search(c.text)), "")
    if shape is None or save is None or age is None or not general:
        what = (
            "no cone or line"
            if shape is None
            else "no save DC"
            if save is None
            else "no age category"
            if age is None
            else "no duration"
        )
        ctx.note_on(item, "unread", f"breath weapon ({word}): {what} read: not modelled", text[:200] or entry)
        return ctx.ignored(key, f"{what} read")
    field: dict = {
        "shape": shape.group(2),
        "length_ft": number(shape.group(1)),
        "effect": effect,
        "save": SAVE_KEYS[save.group(1).lower()],
        "dc": number(save.group(2)),
    }
    rounds, loss = ROUNDS_PER_AGE.search(general), LOSS_PER_AGE.search(general)
    if effect == "weakness" and loss:
        field["loss"] = {"dice": str(age), "ability": ABILITY_KEYS[loss.group(1).lower()], "drain": False}
        told = f"{age} {field['loss']['ability']} damage (1 a category)"
    elif rounds:
        field["rounds"] = f"{rounds.group(1)}+{age}"
        told = f"{field['rounds']} rounds (1d6 + 1 a category)"
    else:
        ctx.note_on(item, "unread", f"breath weapon ({word}): its duration not read: not modelled", general[:200])
        return ctx.ignored(key, "its duration not read")
    ctx.save_of(key, field["dc"], field["save"])
    ctx.mark(
        key,
        "modelled",
        f"breath_effect: {field['length_ft']}-ft. {field['shape']} of {effect}, "
        f"{field['save'].capitalize()} DC {field['dc']} negates, {told}; it alternates with the "
        "damaging breath",
    )
    return {"breath_effect": field}


def _turn_to_stone(text: str) -> tuple[str, ...] | None:
    """(length, shape, recharge, save, DC) of ``60-foot cone, once every 1d4 rounds ..., turn to stone permanently,
    Fortitude DC 19 negates``: the shape, then the first save after it (one pattern with ``.*?`` between the two
    rescanned the rest of the text from every shape)."""
    shape = STONE_SHAPE.search(text)
    save = STONE_SAVE.search(text, shape.end()) if shape else None
    return (*shape.groups(), *save.groups()) if shape and save else None


def _plain_breath(ctx: Reading, item: dict) -> dict:
    """A breath weapon that is not a cone or line of damage in its own words: the gorgon's ("60-foot cone, once
    every 1d4 rounds (but no more than five times per day), turn to stone permanently, Fortitude DC 19 negates") is
    a breath effect; the chimera's ("depends on the color of its dragon head, as summarized on the table below ...
    once every 1d4 rounds, deals 3d8 points of damage, and allows a DC 17 Reflex save for half damage") is a
    damaging breath of the table's first head (the SRD rolls 1d10 for it)."""
    key = "breath weapon (non-damage)"
    desc, text = ctx.text_of(item, "breath weapon")
    stone = _turn_to_stone(text)
    if stone:
        length, shape, every, save, dc = stone
        field: dict = {
            "shape": shape.lower(),
            "length_ft": number(length),
            "effect": "petrify",
            "save": SAVE_KEYS[save.lower()],
            "dc": number(dc),
            "recharge": dice_text(every),
        }
        how = "; its limit of uses a day is left out (a fight is over first)" if USES_A_DAY.search(text) else ""
        ctx.save_of(key, field["dc"], field["save"])
        ctx.mark(
            key,
            "modelled",
            f"breath_effect: {field['length_ft']}-ft. {field['shape']}, turned to stone for "
            f"good, {field['save'].capitalize()} DC {field['dc']} negates, every "
            f"{field['recharge']} rounds{how}",
        )
        return {"breath_effect": field}
    dmg, recharge = HEAD_DAMAGE.search(text), EVERY_ROUNDS.search(text)
    rows = (
        [row for table in size_tables(ctx.block, desc.line, "Breath Weapon") for row in table.values()]
        if desc is not None and dmg
        else []
    )
    first = next((TABLE_BREATH.search(column_of(row, "Breath Weapon") or "") for row in rows), None)
    if dmg is None or first is None or recharge is None:
        return ctx.ignored(key, "not a cone or line of damage, nor a breath effect the engine's breath_effect has")
    energy = {"lightning": "electricity"}.get(first.group(3).lower(), first.group(3).lower())
    head = column_of(rows[0], "Head") or "the first"
    weapon: dict = {
        "shape": first.group(2).lower(),
        "length_ft": number(first.group(1)),
        "damage": dmg.group(1),
        "damage_type": energy,
        "save": "ref",
        "dc": number(dmg.group(2)),
        "recharge": recharge.group(1),
        "half_on_save": True,
    }
    ctx.note_on(
        item,
        "guess",
        f"breath weapon: its shape and energy by the color of its dragon head (rolled on "
        f"1d10): the table's first row, {head.lower()} ({first.group(0)})",
        text[:200],
    )
    for a in ctx.abilities:
        if a["key"] == key:
            a.update(key="breath weapon", dc=weapon["dc"], save="ref", damage=weapon["damage"])
    ctx.mark(
        "breath weapon",
        "modelled",
        f"breath_weapon: {weapon['length_ft']}-ft. {weapon['shape']} of "
        f"{weapon['damage']} {energy}, Reflex DC {weapon['dc']} half, every "
        f"{weapon['recharge']} rounds; the {head.lower()} head of the table's first "
        "row (the SRD rolls the head's color)",
    )
    return {"breath_weapon": weapon}


def acid_spray(ctx: Reading, item: dict) -> dict:
    """Acid spray as a breath weapon (unless it has one): the giant bombardier beetle's ("release a 10-foot cone of
    acidic vapor once per round. Those within the cone must succeed on a DC 13 Fortitude save or take 1d4+2 points
    of acid damage": the save negates) and the digester's ("spray acid in a 20-foot cone, dealing 4d8 points of
    damage ... it can't use it again until 1d4 rounds later" and, a paragraph on, "a DC 17 Reflex save halves the
    damage")."""
    if "breath_weapon" in ctx.data:
        return {}
    desc, _ = ctx.text_of(item, "acid spray")
    text = ctx.following(desc, 2)
    cone, dmg, save = SPRAY_CONE.search(text), SPRAY_DAMAGE.search(text), SPRAY_SAVE.search(text)
    every = SPRAY_AGAIN[0].search(text) or SPRAY_AGAIN[1].search(text)
    if cone is None or dmg is None or save is None or every is None:
        what = (
            "no cone" if cone is None else "no damage" if dmg is None else "no save DC" if save is None else "how often"
        )
        ctx.note_on(item, "unread", f"acid spray: {what} read: not modelled", text[:200])
        return ctx.ignored("acid spray", f"{what} read")
    half = save.group(3).lower() == "halves"
    weapon: dict = {
        "shape": "cone",
        "length_ft": number(cone.group(1)),
        "damage": dice_text(dmg.group(1)),
        "damage_type": "acid",
        "save": SAVE_KEYS[save.group(2).lower()],
        "dc": number(save.group(1)),
        "recharge": "1" if every.group(1) == "per" else every.group(1),
        "half_on_save": half,
    }
    how = "; its stream at a single foot-near target is left out (the cone only)" if CONCENTRATED in text else ""
    for a in ctx.abilities:
        if a["key"] == "acid spray":
            a["dc"], a["save"], a["damage"] = weapon["dc"], weapon["save"], weapon["damage"]
    saved = f"{weapon['save'].capitalize()} DC {weapon['dc']} {'half' if half else 'negates'}"
    ctx.mark(
        "acid spray",
        "modelled",
        f"breath_weapon: {weapon['length_ft']}-ft. cone of {weapon['damage']} acid, "
        f"{saved}, every {weapon['recharge']} round(s), as its action{how}",
    )
    return {"breath_weapon": weapon}


def spit_acid(ctx: Reading, item: dict) -> dict:
    """The ankheg's ``30-ft. line, once every 6 hours; damage 4d4 acid, Reflex DC 14 half``: a breath weapon once a
    fight (its bite's acid, which the SRD says the spitting uses up for 6 hours, is left in)."""
    desc, text = ctx.text_of(item, "spit acid")
    m = SPIT.search(text)
    if m is None or ctx.data.get("breath_weapon"):
        return ctx.unread(item, "spit acid", "its line, damage and DC not read", text)
    weapon: dict = {
        "shape": "line",
        "length_ft": number(m.group(1)),
        "damage": dice_text(m.group(2)),
        "damage_type": "acid",
        "save": "ref",
        "dc": number(m.group(3)),
        "recharge": "100",
        "half_on_save": True,
    }
    ctx.save_of("spit acid", weapon["dc"], "ref")
    ctx.mark(
        "spit acid",
        "modelled",
        f"breath_weapon: {weapon['length_ft']}-ft. line of {weapon['damage']} acid, "
        f"Reflex DC {weapon['dc']} half, once a fight (recharge 100 rounds); the bite's "
        "acid it uses up is left in",
    )
    return {"breath_weapon": weapon}
