"""The abilities of a hold that no ability module reads (improved grab and its parts, and swallow whole, are
:mod:`arena.abilities.grab`'s and :mod:`arena.abilities.swallow_whole`'s), read once the attacks are: pounce and
ferocity (the engine's flags), a dragon's crush and a mimic's (its crush entry names the damage of the hold its
adhesive starts: the ``improved_grab`` field), a gelatinous cube's engulf.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description, returns the :class:`~arena.world.creatures.Creature` field and marks the ability
``modelled``; an ability whose numbers cannot be read stays ``ignored`` with an ``unread`` note, one the engine's
field cannot carry stays ``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.srd.context import Reading
from arena.srd.patterns import AMOUNT, SIZE_WORDS
from arena.srd.text import clean, dice_text, number, search_chain

WORD_CRUSH = re.compile(r"^\s*crush\s*", re.IGNORECASE)
"""An entry's name before its dice: ``Crush 2d8+16``."""
FIRST_AMOUNT = re.compile(f"({AMOUNT})")
"""An entry's dice or number: ``2d8+16`` of ``Crush 2d8+16``."""
ADHESIVE = re.compile(r"automatically grapples any creature it hits with its (\w+) attack")
"""A mimic's: ``A mimic exudes a thick slime ... automatically grapples any creature it hits with its slam
attack``."""
GRAPPLE_DAMAGE = re.compile(rf"deals ({AMOUNT}) points of damage with a successful grapple check")
"""A mimic's crush: ``A mimic deals 1d8+4 points of damage with a successful grapple check``."""
ENGULF = (r"mow down (\w+) or smaller creatures as a standard action", r"DC (\d+) Reflex save or be engulfed")
"""A gelatinous cube's, its parts in order: ``can simply mow down Large or smaller creatures as a standard action
... DC 13 Reflex save or be engulfed``."""


def flag(field: str):
    """The reader of an ability that is a flag of the stat block (``pounce``, ``ferocity``): marked modelled."""

    def reader(ctx: Reading, item: dict) -> dict:
        ctx.mark(item["key"], "modelled", field)
        return {field: True}

    return reader


# --------------------------------------------------------------------------------------------- crush
def crush(ctx: Reading, item: dict) -> dict:
    """A dragon's (``Crush 2d8+16``: against foes three or more size categories smaller, Reflex at the breath
    weapon's DC) or the mimic's ("deals 1d8+4 points of damage with a successful grapple check", with its adhesive:
    "automatically grapples any creature it hits with its slam attack")."""
    desc, text = ctx.text_of(item, "crush")
    entry = FIRST_AMOUNT.search(WORD_CRUSH.sub("", clean(item["name"])))
    if "with a successful grapple check" in text:
        return _adhesive(ctx, item, text)
    breath = ctx.data.get("breath_weapon")
    if entry is None or "d" not in entry.group(1) or breath is None:
        what = "no damage" if entry is None else "no breath weapon to take the DC from"
        return ctx.unread(item, "crush", f"{what} read", text)
    damage = dice_text(entry.group(1))
    smaller = 3  # "three or more size categories smaller"
    for a in ctx.abilities:
        if a["key"] == "crush":
            a["damage"], a["dc"], a["save"] = damage, breath["dc"], "ref"
    ctx.mark(
        "crush",
        "modelled",
        f"crush: {damage} on foes {smaller} or more sizes smaller, Reflex DC {breath['dc']} "
        "(its breath weapon's) negates, as its standard action (the pin's damage at once, "
        "the pin not kept)",
    )
    return {"crush": {"damage": damage, "dc": breath["dc"], "smaller_by": smaller}}


def _adhesive(ctx: Reading, item: dict, text: str) -> dict:
    glue = ctx.first("adhesive")
    _, glue_text = ctx.text_of(glue, "adhesive") if glue is not None else (None, "")
    m = ADHESIVE.search(glue_text)
    attack = ctx.named(m.group(1)) if m else None
    dmg = GRAPPLE_DAMAGE.search(text)
    if attack is None or dmg is None or ctx.data.get("improved_grab") is not None:
        return ctx.ignored("crush", "the damage of a grapple, and no adhesive or grab that starts it read")
    slam = next(a for r in ctx.routines() for a in r if a["name"] == attack)
    how = ""
    if dice_text(dmg.group(1)) != slam["damage"]:
        how = f"; its crush {dice_text(dmg.group(1))} differs from the {attack}'s {slam['damage']}: the {attack}'s"
        ctx.note_on(item, "guess", f"crush: the hold deals the {attack}'s damage", text[:200])
    ctx.mark(
        "crush",
        "modelled",
        f"crush: its hold deals {slam['damage']} on each won grapple check (improved_grab on the {attack}){how}",
    )
    ctx.mark(
        "adhesive",
        "modelled",
        f"adhesive: a hit with its {attack} holds the foe, of any size, with no grapple "
        "check, and the foe cannot escape while it lives",
    )
    return {"improved_grab": {"attack": attack, "constrict": None, "any_size": True, "automatic": True}}


def engulf(ctx: Reading, item: dict) -> dict:
    """The gelatinous cube's: ``can simply mow down Large or smaller creatures as a standard action ... DC 13
    Reflex save or be engulfed ... subject to the cube's paralysis and acid``: its acid is its slam's (``1d6
    acid``), its paralysis the slam's."""
    desc, text = ctx.text_of(item, "engulf")
    m = search_chain(text, *ENGULF)
    acid = next((a for r in (ctx.data.get("attack") or []) for a in r if a.get("extra_damage_type") == "acid"), None)
    if m is None or acid is None or m.group(1).lower() not in SIZE_WORDS:
        return ctx.ignored("engulf", "an engulfing of other terms (a cloaker's, a mouther's)")
    ctx.save_of("engulf", number(m.group(2)), "ref")
    for a in ctx.abilities:
        if a["key"] == "paralysis" and a.get("notes"):
            a["notes"] = a["notes"].replace(
                "; its engulf left out (not an attack the engine rolls)",
                "; and on each of its turns inside it (engulf)",
            )
    ctx.mark(
        "engulf",
        "modelled",
        f"engulf: instead of its slam, foes {m.group(1).lower()} or smaller (as many as a "
        f"10-foot burst covers) Reflex DC {m.group(2)} or inside it: out of the fight, "
        f"{acid['extra_damage']} acid and its paralysis each turn (the attacks of "
        "opportunity that forgo the save, and escaping, are not modelled)",
    )
    return {"engulf": {"dc": number(m.group(2)), "max_size": m.group(1).lower(), "damage": acid["extra_damage"]}}
