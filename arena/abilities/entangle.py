"""Entangle (SRD 3.5 assassin vine): "can animate plants within 30 feet of itself as a free action (Ref DC 13
partial)", as the entangle spell: at the start of each of its turns every foe not entangled saves (Reflex) or is
entangled, and spends its turns bursting free (a DC 20 Strength check, the spell's).

The whole ability: the stat-block field (:class:`Entangle`, the field ``entangle``), how the importer reads it
(:func:`read_entangle`: the assassin vine's plants, not an entangling weapon) and what it does in a fight
(:func:`entangle`, at the start of each of its turns, after smoke, before eye rays). The entangled condition itself
is the fight's (:mod:`arena.combat.conditions`), shared with webs and the entangle spell.
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.abilities import free_to_act
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.text import number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Entangle(Frozen):
    """Entangle (SRD 3.5 assassin vine: "can animate plants within 30 feet of itself as a free action (Ref DC 13
    partial)", as the entangle spell): at the start of each of its turns every foe not entangled makes a Reflex save
    or is entangled (-2 on attack rolls, -4 Dexterity) and spends its turns bursting free (a Strength check against
    ``burst_dc``, the spell's 20)."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    burst_dc: Annotated[int, _int(1, MAX_MODIFIER)] = 20


# --------------------------------------------------------------------------------------------- reading the SRD
REF_PARTIAL = re.compile(r"\(Ref(?:lex)? DC (\d+) partial\)")
"""An assassin vine's: ``can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)``."""
ANIMATE_PLANTS = "animate plants"


def read_entangle(ctx: Reading, item: dict) -> dict:
    """The assassin vine's: ``can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)``,
    as the entangle spell (entangled; a DC 20 Strength check to break free). An entangling weapon (the erinyes'
    rope, the balor's whip) is not this one."""
    desc, text = ctx.text_of(item, "entangle")
    dc = REF_PARTIAL.search(text)
    if dc is None or ANIMATE_PLANTS not in text:
        return ctx.ignored("entangle", "an entangling weapon or rope (not the assassin vine's plants)")
    ctx.save_of("entangle", number(dc.group(1)), "ref")
    ctx.mark(
        "entangle",
        "modelled",
        f"entangle: at the start of each of its turns (a free action) every foe not "
        f"entangled, Reflex DC {dc.group(1)} or entangled (a DC 20 Strength check to "
        "burst free, the entangle spell's)",
    )
    return {"entangle": {"dc": number(dc.group(1)), "burst_dc": 20}}


# --------------------------------------------------------------------------------------------- in a fight
def entangle(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Assassin vine: "can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)", as
    the entangle spell: "Creatures that fail their save are entangled ... Each round on your turn, the plants once
    again attempt to entangle all creatures that have avoided or escaped entanglement ... a DC 20 Strength check or a
    DC 20 Escape Artist check" (the Escape Artist DC is the Strength DC, ``burst_dc``)."""
    if not free_to_act(c):
        return
    e_: Entangle = c.t.ability_data["entangle"]
    for e in c.foes:
        if not e.is_able or "entangled" in e.conditions:
            continue
        if not save(f, e, "ref", e_.dc, c).success:
            add_condition(f, e, "entangled", FOREVER, dc=e_.burst_dc, escape_dc=e_.burst_dc)


add_fields(AbilityField("entangle", Entangle | None, doc=Entangle.__doc__ or "", after="smoke"))
add_reading(AbilityReading("entangle", ("entangle",), read_entangle, after="smoke", only_ignored=True))
add_fight_ability(FightAbility("entangle", turn_start=entangle, order=40))
