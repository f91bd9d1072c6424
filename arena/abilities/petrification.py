"""Petrification on a hit (SRD 3.5 cockatrice: "Creatures hit by a cockatrice's bite attack must succeed on a DC 12
Fortitude save or instantly turn to stone"): stone for the rest of the fight. (A gaze that petrifies is
:mod:`arena.abilities.gaze`'s.)

The whole ability: the stat-block field (:class:`Petrification`), how the importer reads it
(:func:`read_petrification`) and the bite in a fight (:func:`petrification_on_hit`).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.template import CompiledAttack
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.text import number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, Label, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Petrification(Frozen):
    """Petrification on a hit with ``attack`` (SRD 3.5 cockatrice: "Creatures hit by a cockatrice's bite attack must
    succeed on a DC 12 Fortitude save or instantly turn to stone"): stone for the rest of the fight."""

    attack: Label
    dc: Annotated[int, _int(1, MAX_MODIFIER)]


# --------------------------------------------------------------------------------------------- reading the SRD
PETRIFIES = re.compile(
    r"hit by an? [\w' ]+?'s (\w+) attack must succeed on a DC (\d+) Fortitude save or instantly "
    r"turn to stone"
)
"""``Creatures hit by a cockatrice's bite attack must succeed on a DC 12 Fortitude save or instantly turn to
stone``."""


def read_petrification(ctx: Reading, item: dict) -> dict:
    """``Creatures hit by a cockatrice's bite attack must succeed on a DC 12 Fortitude save or instantly turn to
    stone``."""
    desc, text = ctx.text_of(item, "petrification")
    m = PETRIFIES.search(text)
    attack = ctx.named(m.group(1)) if m else None
    if m is None or attack is None:
        return ctx.ignored("petrification", "its attack and DC not read")
    ctx.save_of("petrification", number(m.group(2)), "fort")
    ctx.mark("petrification", "modelled", f"petrification on the {attack}: Fort DC {m.group(2)} or stone")
    return {"petrification": {"attack": attack, "dc": number(m.group(2))}}


# --------------------------------------------------------------------------------------------- in a fight
def petrification_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with its attack turns a foe to stone that fails its Fortitude save (and has no immunity)."""
    stone: Petrification = c.t.ability_data["petrification"]
    if (
        attack.name == stone.attack
        and not target.dead
        and "petrified" not in target.conditions
        and "petrification" not in target.t.immunities
        and not save(f, target, "fort", stone.dc, c).success
    ):
        add_condition(f, target, "petrified", FOREVER)  # the cockatrice's bite: "instantly turn to stone"
        if f.lines is not None:
            f.log(f"{target.name} turns to stone", actor=target.name, action="petrified", source=c.name)


add_fields(AbilityField("petrification", Petrification | None, doc=Petrification.__doc__ or "", after="smite"))
add_reading(
    AbilityReading(
        "petrification", ("petrification",), read_petrification, after="invisible in light", only_ignored=True
    )
)
add_fight_ability(
    FightAbility("petrification", on_hit=petrification_on_hit, rides_on=lambda stone: stone.attack, order=50)
)
