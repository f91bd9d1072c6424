"""Corporeal instability (SRD 3.5 chaos beast: "A blow from a chaos beast against a living creature can cause a
terrible transformation. The creature must succeed on a DC 15 Fortitude save or become a spongy, amorphous mass ... A
victim can regain its own shape by taking a standard action to attempt a DC 15 Charisma check"): out of the fight
(not helpless) until that check succeeds on one of its turns (the ``amorphous`` condition of
:mod:`arena.combat.conditions`).

The whole ability: the stat-block field (:class:`Instability`, the field ``instability``), how the importer reads it
(:func:`read_instability`) and the blow in a fight (:func:`instability_on_hit`).
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
class Instability(Frozen):
    """Corporeal instability on a hit with ``attack`` (SRD 3.5 chaos beast: "The creature must succeed on a DC 15
    Fortitude save or become a spongy, amorphous mass ... it attacks blindly, unable to distinguish friend from foe
    ... A victim can regain its own shape by taking a standard action to attempt a DC 15 Charisma check"): out of
    the fight (not helpless) until a Charisma check against ``control_dc`` on one of its turns restores it."""

    attack: Label
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    control_dc: Annotated[int, _int(1, MAX_MODIFIER)] = 15


# --------------------------------------------------------------------------------------------- reading the SRD
SPONGY = re.compile(r"DC (\d+) Fortitude save or become a spongy, amorphous mass")
"""A chaos beast's: ``must succeed on a DC 15 Fortitude save or become a spongy, amorphous mass``."""
REGAIN_SHAPE = re.compile(r"regain its own shape by taking a standard action to attempt a DC (\d+) Charisma check")
"""``A victim can regain its own shape by taking a standard action to attempt a DC 15 Charisma check``."""


def read_instability(ctx: Reading, item: dict) -> dict:
    """The chaos beast's: ``A blow from a chaos beast against a living creature ... must succeed on a DC 15 Fortitude
    save or become a spongy, amorphous mass ... it attacks blindly, unable to distinguish friend from foe ... A victim
    can regain its own shape by taking a standard action to attempt a DC 15 Charisma check``: on its claws (the
    first attack of its routines)."""
    desc, _ = ctx.text_of(item, "corporeal instability")
    text = ctx.following(desc, 4)
    dc, control = SPONGY.search(text), REGAIN_SHAPE.search(text)
    names = [a["name"] for r in (ctx.data.get("full_attack") or []) for a in r]
    if dc is None or control is None or not names:
        return ctx.ignored("corporeal instability", "its DCs not read")
    ctx.save_of("corporeal instability", number(dc.group(1)), "fort")
    ctx.mark(
        "corporeal instability",
        "modelled",
        f"instability on the {names[0]}: Fort DC {dc.group(1)} or amorphous, out of the fight (its blind blows at "
        f"friend and foe alike are left out) until a DC {control.group(1)} Charisma check on one of its turns",
    )
    return {"instability": {"attack": names[0], "dc": number(dc.group(1)), "control_dc": number(control.group(1))}}


# --------------------------------------------------------------------------------------------- in a fight
def instability_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A blow with its attack makes a living foe that can act and fails its Fortitude save amorphous."""
    melt: Instability = c.t.ability_data["instability"]
    if (
        attack.name == melt.attack
        and not target.dead
        and target.is_able
        and target.t.type not in ("undead", "construct")
        and not save(f, target, "fort", melt.dc, c).success
    ):
        add_condition(f, target, "amorphous", FOREVER, dc=melt.control_dc)  # the chaos beast's blow


add_fields(AbilityField("instability", Instability | None, doc=Instability.__doc__ or "", after="engulf"))
add_reading(
    AbilityReading(
        "corporeal instability",
        ("corporeal instability",),
        read_instability,
        after="greater invisibility",
        only_ignored=True,
    )
)
add_fight_ability(FightAbility("instability", on_hit=instability_on_hit, rides_on=lambda melt: melt.attack, order=40))
