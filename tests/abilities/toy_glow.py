"""A toy special ability, the recipe of docs/architecture.md ("Adding a special ability") followed to the letter: its
stat-block field, how the importer reads it, and what it does in a fight, in this one file. Nothing else in the
repository names it; tests/abilities/test_toy_glow.py proves that it works end to end.

Searing glow (Su): at the start of each of its turns, every able foe takes 1 point of fire damage unless it makes a
Reflex save (DC as given).

A built-in ability is a module like this one in ``arena/abilities/``, found there by the package; this one lives
with the tests, so it is imported by hand (in a child process: registering it changes the stat-block model).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.text import number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, _int

FIRE = frozenset({"fire"})


class SearingGlow(Frozen):
    """Searing glow: each able foe, at the start of the glowing creature's turns, saves or takes 1 fire damage."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]


GLOW_DC = re.compile(r"Reflex DC (\d+) negates")
"""``Searing Glow (Su): 1 point of fire damage to each foe each round, Reflex DC 12 negates``."""


def read_glow(ctx: Reading, item: dict) -> dict:
    desc, text = ctx.text_of(item, "searing glow")
    found = GLOW_DC.search(text) if desc is not None else None
    if found is None:
        return ctx.ignored("searing glow", "no save DC read")
    ctx.mark("searing glow", "modelled", f"searing glow: Reflex DC {found.group(1)} negates 1 fire damage")
    return {"searing_glow": {"dc": number(found.group(1))}}


def glow(f: FightState, c: Combatant) -> None:
    dc = c.t.ability_data["searing_glow"].dc
    for foe in list(c.foes):
        if foe.is_able and not foe.dead and not save(f, foe, "ref", dc, c).success:
            if f.lines is not None:
                f.log(f"{foe.name} is seared by {c.name}'s glow", actor=foe.name, action="searing-glow")
            deal(f, c, foe, 1, FIRE)


add_fields(AbilityField("searing_glow", SearingGlow | None, doc=SearingGlow.__doc__ or ""))
add_reading(AbilityReading("searing glow", ("searing glow",), read_glow))
add_fight_ability(FightAbility("searing_glow", turn_start=glow))
