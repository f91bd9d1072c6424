"""The attack a hit's ability rides on, as the readers of those abilities find it (:mod:`arena.abilities`: ability
damage and drain, energy drain, burn, poison): the attack of the routines that words of its text name
(:func:`deliverer`), the attacks whose rider names it (:func:`rider_attacks`, ``bite (1d8 plus poison)``), the attack
words of its text (:func:`named_attack`, ``hit by a wight's slam attack``), and an ability loss as the stat block
writes it (:func:`loss_of`).
"""

from __future__ import annotations

import re

from arena.srd.context import Reading, named
from arena.srd.patterns import ABILITY_KEYS
from arena.srd.text import dice_text

OR_AND = re.compile(r"\s+or\s+|\s+and\s+|,")
"""Between the attacks of a list: ``bite or sting``."""
NAMED_ATTACK = re.compile(
    r"\b(?:hit by|hits with|bitten by|struck by)\s+(?:an? |the |its )?(?:[\w' -]*?'s?\s+)?"
    r"([a-z ]+?)\s+(?:attacks?|ability)\b"
)
"""The attack that delivers an effect (lowercase): ``hit by a wight's slam attack``, ``its incorporeal touch
attack``."""
TOUCH_OF = re.compile(r"\bthe (touch|bite|sting|slam|claw)s? of\b")
"""``the touch of a shadow``."""
POISONOUS = re.compile(r"\ba poisonous (bite|sting)\b")
"""``a poisonous bite``."""


# --------------------------------------------------------------------------------------------- the attack
def deliverer(ctx: Reading, words: list[str]) -> tuple[str | None, str]:
    """The attack of the routines that ``words`` name (the first of the full attack), or None and why not."""
    names = ctx.attack_names()
    found = [n for n in (named(w, names) for w in words) if n]
    if found:
        return next(n for n in names if n in found), ""
    if ctx.deal_no_damage(words):
        return None, "deals no hit-point damage"
    return None, "is not an attack of its routines"


def rider_attacks(ctx: Reading, pattern: re.Pattern[str]) -> list[str]:
    """The attacks (as read) one of whose riders ``pattern`` finds: ``bite (1d8 plus poison)``."""
    out: list[str] = []
    for a in (a for routine in ctx.reads for a in routine):
        if any(pattern.search(r) for r in a.riders) and a.name.lower() not in out:
            out.append(a.name.lower())
    return out


def named_attack(text: str) -> list[str]:
    """The attack words of ``hit by a wight's slam attack``, ``its incorporeal touch attack``, ``the touch of``."""
    low = text.lower()
    m = NAMED_ATTACK.search(low)
    if m:
        return [w.strip() for w in OR_AND.split(m.group(1)) if w.strip()]
    m = TOUCH_OF.search(low) or POISONOUS.search(low)
    return [m.group(1)] if m else []


def loss_of(dice: str, ability: str) -> dict:
    """An ability loss as the stat block writes it: ``1d6 Str`` -> ``{"dice": "1d6", "ability": "str"}``."""
    return {"dice": dice_text(dice), "ability": ABILITY_KEYS[ability.lower()]}
