"""Lay on hands (SRD 3.5 avoral, leonal: "As the paladin class feature, except that each day, an avoral can heal an
amount of damage equal to its full normal hit points"): once below half its hit points, it heals itself as a
standard action, up to that amount in a fight.

The whole ability: the stat-block field (``lay_on_hands``, the hit points it can heal), how the importer reads it
(:func:`read_lay_on_hands`) and the healing in a fight (:func:`lay_on_hands_turn`, instead of its attack).
"""

from __future__ import annotations

from typing import Annotated

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.states import heal
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import MAX_HP, _int

LAY_ON_HANDS_DOC = """Lay on hands (SRD 3.5 avoral, leonal: "each day ... can heal an amount of damage equal to its
full normal hit points"): the hit points it can heal itself in a fight, as a standard action once it is below
half."""

# --------------------------------------------------------------------------------------------- reading the SRD
FULL_HEALING = "heal an amount of damage equal to its full normal hit points"
"""An avoral's: ``each day, an avoral can heal an amount of damage equal to its full normal hit points``."""


def read_lay_on_hands(ctx: Reading, item: dict) -> dict:
    """The avoral's and leonal's: ``As the paladin class feature, except that each day, an avoral can heal an amount
    of damage equal to its full normal hit points``."""
    desc, text = ctx.text_of(item, "lay on hands")
    if FULL_HEALING not in text:
        return ctx.ignored("lay on hands", "its amount not read")
    ctx.mark(
        "lay on hands",
        "modelled",
        f"lay_on_hands: {ctx.data['hp']} hit points a fight, healing itself as a standard action once below half",
    )
    return {"lay_on_hands": ctx.data["hp"]}


# --------------------------------------------------------------------------------------------- in a fight
def lay_on_hands_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn goes to healing itself while it is below half its hit points and has healing left."""
    total: int = c.t.ability_data["lay_on_hands"]
    st = state_of(c)
    if c.hp * 2 >= c.max_hp or st.get("healed", 0) >= total:
        return False
    lay_on_hands(f, c, total, st)
    return True


def lay_on_hands(f: FightState, c: Combatant, total: int, st: dict) -> None:
    """SRD 3.5 Avoral: "Lay on Hands (Su): As the paladin class feature, except that each day, an avoral can heal an
    amount of damage equal to its full normal hit points" (a standard action; it heals itself once below half)."""
    amount = min(total - st.get("healed", 0), c.max_hp - c.hp)
    st["healed"] = st.get("healed", 0) + amount
    if f.lines is not None:
        f.log(f"{c.name} lays hands on itself", actor=c.name, action="lay-on-hands", target=c.name)
    heal(f, c, amount)


add_fields(AbilityField("lay_on_hands", Annotated[int, _int(1, MAX_HP)] | None, doc=LAY_ON_HANDS_DOC, after="burst"))
add_reading(AbilityReading("lay on hands", ("lay on hands",), read_lay_on_hands, after="acid sting", only_ignored=True))
add_fight_ability(FightAbility("lay_on_hands", instead_of_attack=lay_on_hands_turn, order=80))
