"""Rend (SRD 3.5 troll: "If a troll hits with both claw attacks, it latches onto the opponent's body and tears the
flesh. This attack automatically deals an additional 2d6+9 points of damage"): extra damage when both attacks of one
name hit one foe in a full attack.

The whole ability: the stat-block field (:class:`Rend`, the field ``rend``, checked against the block's full attack),
how the importer reads it (:func:`read_rend`: the entry's dice, the attack its paragraph names twice, and a full
attack that has two of it), and the rend in a fight (:func:`rend`, an ``after_routine`` hook: after a full attack,
on the foe it ended on).
"""

from __future__ import annotations

import re
from typing import Annotated, NamedTuple

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.dice import DiceExpr, parse
from arena.srd.ability_items import ENTRY_DICE, described
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.text import clean, dice_text
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.creatures import Creature
from arena.world.stat_types import MAX_ATTACKS_PER_ROUTINE, DamageDice, Frozen, Label, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Rend(Frozen):
    """Extra damage when both attacks named ``attack`` hit in one round (troll: 2d6+9 if both claws hit)."""

    damage: DamageDice
    attack: Label = "claw"
    hits_needed: Annotated[int, _int(2, MAX_ATTACKS_PER_ROUTINE)] = 2


def rend_of(creature: Creature) -> Rend | None:
    """``creature``'s rend (None: it has none): the field this module adds to the stat block, typed for the layers
    above that read it (``arena bestiary show``)."""
    return getattr(creature, "rend", None)


def check_rend(creature: Creature, rend: Rend) -> None:
    """A rend needs a full-attack routine with ``hits_needed`` attacks of its name."""
    needed = rend.hits_needed
    if not any(
        sum(a.attacks_per_routine for a in routine if a.name == rend.attack) >= needed
        for routine in creature.full_attack or ()  # set by the time the block is checked
    ):
        raise ValueError(f"rend needs a full-attack routine with {needed} {rend.attack!r} attacks")


# --------------------------------------------------------------------------------------------- reading the SRD
BOTH_CLAWS = re.compile(r"hits with (?:both|two) (\w+?)s? attacks")
"""The attack a rend needs twice: ``If a troll hits with both claw attacks``."""


def read_rend(ctx: Reading, item: dict) -> dict:
    """``Rend 2d6+9``, on the attack its paragraph names twice (``hits with both claw attacks``), when the full attack
    has two of it."""
    desc = described(ctx, "rend")
    dmg = ENTRY_DICE.search(clean(item["name"]).lower())
    if not dmg:
        ctx.note_on(item, "unread", "rend without damage dice: not modelled", item["name"])
        return ctx.ignored("rend", "no damage dice")
    both = BOTH_CLAWS.search(desc.text) if desc else None
    rend = {"damage": dice_text(dmg.group(1)), "attack": both.group(1).lower() if both else "claw"}
    full = ctx.data.get("full_attack") or []
    if not any(sum(a.get("count", 1) * len(a["bonuses"]) for a in r if a["name"] == rend["attack"]) >= 2 for r in full):
        return ctx.ignored("rend", f"the full attack has no two {rend['attack']} attacks the engine's rend needs")
    ctx.mark("rend", "modelled", "rend")
    return {"rend": rend}


# --------------------------------------------------------------------------------------------- in a fight
class CompiledRend(NamedTuple):
    damage: DiceExpr
    attack: str
    hits_needed: int


def compile_rend(rend: Rend) -> CompiledRend:
    return CompiledRend(parse(rend.damage), rend.attack, rend.hits_needed)


def rend(f: FightState, c: Combatant, target: Combatant, routine, hits: dict[tuple[int, str], int]) -> None:
    """After a full attack, when its attacks of the rend's name hit the foe it ended on often enough: the rend's
    damage, of that attack's types (its damage reduction counts as the attack's)."""
    r: CompiledRend = c.t.ability_data["rend"]
    if hits.get((target.uid, r.attack), 0) >= r.hits_needed and not target.dead:
        amount = r.damage.roll(f.stream)
        if f.lines is not None:
            f.log(f"{c.name} rends {target.name}", actor=c.name, action="rend", target=target.name)
        claw = next(a for a in routine if a.name == r.attack)
        deal(f, c, target, amount, claw.types, claw.overcomes, weapon=True)


add_fields(AbilityField("rend", Rend | None, doc=Rend.__doc__ or "", after="feats", check=check_rend))
add_reading(AbilityReading("rend", ("rend",), read_rend, after="ferocity"))
add_fight_ability(FightAbility("rend", compile=compile_rend, after_routine=rend))
