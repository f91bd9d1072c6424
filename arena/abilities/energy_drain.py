"""Energy drain (SRD 3.5): each hit of its attack bestows negative levels (a wight's slam: "Living creatures hit by a
wight's slam attack gain one negative level"): -1 on attack rolls, saves and checks and -5 hit points each; as many
negative levels as Hit Dice kill (:func:`arena.combat.conditions.drain_levels`). A drain of a swallowed foe or by a
kiss is not a hit's, and stays ``ignored``.

The whole ability: the stat-block field (:class:`EnergyDrain`), how the importer reads it
(:func:`read_energy_drain`) and the drain in a fight (:func:`energy_drain_on_hit`).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import drain_levels
from arena.combat.fight_state import FightState
from arena.combat.template import CompiledAttack
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.onhit import deliverer, named_attack, rider_attacks
from arena.srd.patterns import NUMBER_WORDS
from arena.srd.text import number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, Label, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class EnergyDrain(Frozen):
    """Energy drain (SRD 3.5): each hit of ``attack`` bestows ``levels`` negative levels: -1 on attack rolls, saves
    and checks and -5 hit points each; as many negative levels as Hit Dice kill."""

    attack: Label
    levels: Annotated[int, _int(1, 10)] = 1


# --------------------------------------------------------------------------------------------- reading the SRD
NEGATIVE_LEVELS = (
    re.compile(r"\bgains? (one|two|three|four|five|\d+) negative levels?", re.IGNORECASE),
    re.compile(r"\bbestows (one|two|three|four|five|\d+) negative levels?", re.IGNORECASE),
)
"""``the target gains one negative level``, ``bestows two negative levels``."""
INSIDE = re.compile(r"\binside\b|\bswallow|\bgizzard")
"""A drain of a foe it swallowed: ``a creature inside its gizzard``."""
KISS = re.compile(r"\bkiss|\bembrace")
"""A succubus's: ``energy drain through a kiss``."""
TEMPORARY_HP = "temporary hit points"
"""``it gains 5 temporary hit points``."""


def read_energy_drain(ctx: Reading, item: dict) -> dict:
    """``Living creatures hit by a wight's slam attack gain one negative level``."""
    desc, text = ctx.text_of(item, "energy drain")
    m = NEGATIVE_LEVELS[0].search(text) or NEGATIVE_LEVELS[1].search(text)
    if m is None:
        return ctx.unread(item, "energy drain", "how many negative levels not read", text)
    levels = NUMBER_WORDS.get(m.group(1).lower()) or number(m.group(1))
    low = text.lower()
    if INSIDE.search(low):
        return ctx.ignored(
            "energy drain", "only a swallowed foe is drained, not one it hits; the engine's energy drain is on a hit"
        )
    if KISS.search(low):
        return ctx.ignored(
            "energy drain",
            "drained by a kiss or an embrace (a grapple), not a hit; the engine's energy drain is on a hit",
        )
    words = named_attack(text) or rider_attacks(ctx, re.compile("energy drain", re.IGNORECASE))
    attack, why = deliverer(ctx, words) if words else (None, "is named nowhere")
    if attack is None:
        return ctx.ignored(
            "energy drain",
            f"its {' or '.join(words) or 'attack'} {why}: not an attack the engine "
            "rolls, and the engine's energy drain is on a hit with one",
        )
    how = "; the 5 temporary hit points it gains per level are left out" if TEMPORARY_HP in low else ""
    ctx.mark(
        "energy drain",
        "modelled",
        f"energy_drain on the {attack}: {levels} negative level{'s' if levels > 1 else ''}{how}",
    )
    return {"energy_drain": {"attack": attack, "levels": levels}}


# --------------------------------------------------------------------------------------------- in a fight
def energy_drain_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with its attack bestows its negative levels (no save in a fight: the SRD's Fortitude save to remove one
    comes 24 hours later)."""
    drain: EnergyDrain = c.t.ability_data["energy_drain"]
    if attack.name == drain.attack and not target.dead:
        drain_levels(f, target, drain.levels)


add_fields(
    AbilityField(
        "energy_drain", EnergyDrain | None, doc=EnergyDrain.__doc__ or "", after="ability_damage", every_number=True
    )
)
add_reading(AbilityReading("energy drain", ("energy drain",), read_energy_drain, after="poison"))
add_fight_ability(
    FightAbility("energy_drain", on_hit=energy_drain_on_hit, rides_on=lambda drain: drain.attack, order=80)
)
