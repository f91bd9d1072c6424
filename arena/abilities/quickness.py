"""Quickness (SRD 3.5 choker: "It can take an extra standard action or move action during its turn each round"): an
extra standard attack on each of its turns, before what its turn does (the arena has no moving to do).

The whole ability: the stat-block field (``quickness``, a flag), how the importer reads it (:func:`read_quickness`)
and the extra attack in a fight (:func:`quick`, the first of the ``instead_of_attack`` hooks: the attack does not
take the turn, which goes on).
"""

from __future__ import annotations

from pydantic import StrictBool

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.attacks import attack_routine
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.world.ability_fields import AbilityField, add_fields

QUICKNESS_DOC = """Quickness (SRD 3.5 choker): "It can take an extra standard action or move action during its turn each
round": an extra standard attack on each of its turns."""

# --------------------------------------------------------------------------------------------- reading the SRD
EXTRA_ACTION = "extra standard action or move action during its turn each round"
"""A choker's: ``It can take an extra standard action or move action during its turn each round``."""


def read_quickness(ctx: Reading, item: dict) -> dict:
    """The choker's: ``It can take an extra standard action or move action during its turn each round``."""
    desc, text = ctx.text_of(item, "quickness")
    if EXTRA_ACTION not in text:
        return ctx.ignored("quickness", "its terms not read")
    ctx.mark(
        "quickness",
        "modelled",
        "quickness: an extra standard attack on each of its turns (the extra action as "
        "an attack: the arena has no moving to do)",
    )
    return {"quickness": True}


# --------------------------------------------------------------------------------------------- in a fight
def quick(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """SRD 3.5 Choker: "Quickness (Su): Although not particularly dexterous, a choker is supernaturally quick. It
    can take an extra standard action or move action during its turn each round": a standard attack first. Returns
    False: its turn goes on."""
    if target is not None and target.is_able:
        routine = c.t.ranged_standard if c.ranged else c.t.standard
        if routine and not (c.weapon_lost and routine[0].ranged):
            attack_routine(f, c, target, routine, False)
    return False


add_fields(AbilityField("quickness", StrictBool, default=False, doc=QUICKNESS_DOC, after="lay_on_hands"))
add_reading(AbilityReading("quickness", ("quickness",), read_quickness, after="slow", only_ignored=True))
add_fight_ability(FightAbility("quickness", instead_of_attack=quick, order=10))
