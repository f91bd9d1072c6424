"""Roar (SRD 3.5 dragonne: "A dragonne can loose a devastating roar every 1d4 rounds. All creatures except dragonnes
within 120 feet must succeed on a DC 15 Will save or become fatigued. Those within 30 feet who fail their saves
become exhausted"): a standard action when it is ready and worth it; the foes in melee are the ones within 30 feet.

The whole ability: the stat-block field (:class:`Roar`, the field ``roar``), how the importer reads it
(:func:`read_roar`) and the roar in a fight (:func:`roar_turn`, instead of its attack).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability, worth_the_turn
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, drop_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.auras import dc_of
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import ROLL
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, RoundsDice, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Roar(Frozen):
    """Roar (SRD 3.5 dragonne: "every 1d4 rounds. All creatures ... within 120 feet must succeed on a DC 15 Will
    save or become fatigued. Those within 30 feet who fail their saves become exhausted"): a standard action when it
    is ready; the foes in melee are the ones within 30 feet. Fatigued: -2 Strength and Dexterity; a fatigued
    creature fatigued again, or exhausted: -6."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "will"
    recharge: RoundsDice = "1d4"


# --------------------------------------------------------------------------------------------- reading the SRD
ROAR_EVERY = re.compile(rf"roar every ({ROLL}) rounds")
"""A dragonne's: ``loose a devastating roar every 1d4 rounds``."""


def read_roar(ctx: Reading, item: dict) -> dict:
    """The dragonne's: ``loose a devastating roar every 1d4 rounds ... DC 15 Will save or become fatigued. Those
    within 30 feet who fail their saves become exhausted``. A roar of other effects (the androsphinx's fear, the
    leonal's holy word) is not this one."""
    desc, text = ctx.text_of(item, "roar")
    every = ROAR_EVERY.search(text)
    dc = dc_of(text)
    if every is None or dc is None or "fatigued" not in text:
        return ctx.ignored(
            "roar", "not the dragonne's roar of fatigue (a fear or holy word effect, or numbers not read)"
        )
    ctx.save_of("roar", dc, "will")
    ctx.mark(
        "roar",
        "modelled",
        f"roar: every {every.group(1)} rounds as its standard action, Will DC {dc} or "
        "fatigued (exhausted for the foes in melee with it, within 30 feet)",
    )
    return {"roar": {"dc": dc, "save": "will", "recharge": every.group(1)}}


# --------------------------------------------------------------------------------------------- in a fight
def roar_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn goes to the roar when it is ready and catches two or more foes it can tire (or the only one)."""
    if f.instant < state_of(c).get("roar_at", 0.0):
        return False
    enemies = [e for e in c.foes if e.is_able]
    open_to = [e for e in enemies if "exhausted" not in e.conditions and not _tireless(e)]
    if not worth_the_turn(len(open_to), len(enemies)):
        return False
    roar(f, c, open_to)
    return True


def _tireless(c: Combatant) -> bool:
    return bool({"fatigue", "exhaustion"} & c.t.immunities)


def roar(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """SRD 3.5 Dragonne: "A dragonne can loose a devastating roar every 1d4 rounds. All creatures except dragonnes
    within 120 feet must succeed on a DC 15 Will save or become fatigued. Those within 30 feet who fail their saves
    become exhausted" (within 30 feet: the foes in melee; a fatigued creature fatigued again is exhausted)."""
    r: Roar = c.t.ability_data["roar"]
    state_of(c)["roar_at"] = f.instant + parse(r.recharge).roll(f.stream) * ROUND
    if f.lines is not None:
        f.log(f"{c.name} roars", actor=c.name, action="roar")
    for e in targets:
        if e.dead or save(f, e, r.save, r.dc, c).success:
            continue
        worse = not e.ranged or "fatigued" in e.conditions
        if worse:
            if "fatigued" in e.conditions:
                drop_condition(f, e, "fatigued")
            add_condition(f, e, "exhausted", FOREVER)
        else:
            add_condition(f, e, "fatigued", FOREVER)


add_fields(AbilityField("roar", Roar | None, doc=Roar.__doc__ or "", after="aura"))
add_reading(AbilityReading("roar", ("roar",), read_roar, after="captivating song", only_ignored=True))
add_fight_ability(FightAbility("roar", instead_of_attack=roar_turn, order=40))
