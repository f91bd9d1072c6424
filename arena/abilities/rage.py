"""Rage (SRD 3.5 dire badger, wolverine: "A dire badger that takes damage in combat flies into a berserk rage on its
next turn ... It gains +4 Strength, +4 Constitution, and -2 AC"), and a sahuagin's blood frenzy (+2 and +2): once
hurt, the creature rages for the rest of the fight.

The whole ability: the stat-block fields (``rage``, a flag; ``rage_strength``, the Strength and Constitution it
adds), how the importer reads it (:func:`read_rage`), and the rage in a fight (:func:`rage_when_hurt`, an
``on_damaged`` hook, and :func:`rage`). While it rages the creature's ``raging`` holds its change to melee attack
and damage rolls, which :func:`arena.combat.conditions.recompute_bonuses` adds with the -2 AC
(:data:`arena.combat.conditions.RAGE_AC`) where it adds up every bonus.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import StrictBool

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import recompute_bonuses
from arena.combat.fight_state import FightState
from arena.combat.states import DEAD_AT
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.text import clean
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import _int

RAGE_DOC = """Rage (SRD 3.5, dire badger and the like): once hurt, +4 Strength, +4 Constitution and -2 AC for the
fight."""
RAGE_STRENGTH_DOC = """The Strength and Constitution its rage adds: +4 (+2 on melee attack and damage rolls, +2 hit
points per Hit Die), or a sahuagin's blood frenzy's +2 (+1 and +1)."""

# --------------------------------------------------------------------------------------------- reading the SRD
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


def read_rage(ctx: Reading, item: dict) -> dict:
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


# --------------------------------------------------------------------------------------------- in a fight
RAGE_MODIFIER = 2
"""Rage's +4 Strength: +2 on melee attack and damage rolls (its +4 Constitution: +2 hit points per Hit Die)."""


def rage_strength(creature: Any) -> int:
    """The Strength and Constitution a stat block's rage adds (its ``rage_strength``, this module's field)."""
    strength: int = creature.rage_strength
    return strength


def rage_when_hurt(f: FightState, c: Combatant, source: Combatant, amount: int, types: frozenset) -> None:
    """Once a blow has hurt it, it rages, unless it rages already or the blow killed it."""
    if not c.raging and c.hp > DEAD_AT:
        rage(f, c)


def rage(f: FightState, c: Combatant) -> None:
    """Rage (SRD 3.5 dire badger, wolverine): once hurt, +4 Strength and Constitution, -2 AC, for the fight (a
    sahuagin's blood frenzy: "+2 Constitution and +2 Strength, and takes a -2 penalty to Armor Class"): +2 (+1) on
    its melee attack and damage rolls and hit points per Hit Die."""
    bonus = rage_strength(c.t.creature) // 2
    c.raging = bonus
    c.hp += bonus * c.t.hd
    recompute_bonuses(c)
    if f.lines is not None:
        f.log(f"{c.name} flies into a rage", actor=c.name, action="rage")


add_fields(
    AbilityField("rage", StrictBool, default=False, doc=RAGE_DOC, after="rake"),
    AbilityField("rage_strength", Annotated[int, _int(2, 8)], default=4, doc=RAGE_STRENGTH_DOC, after="rage"),
)
add_reading(AbilityReading("rage", ("rage", "berserk", "battle frenzy", "blood frenzy"), read_rage, after="rake"))
add_fight_ability(FightAbility("rage", on_damaged=rage_when_hurt))
