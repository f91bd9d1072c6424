"""A burst of its own about it (SRD 3.5 nalfeshnee's smite: "Three times per day a nalfeshnee can create a nimbus of
unholy light ... burst in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will save or be
dazed for 1d10 rounds"): as a standard action, every able foe saves or is dazed, out of the fight.

The whole ability: the stat-block field (:class:`Burst`, the field ``burst``), how the importer reads the nimbus
(:func:`read_nimbus`: the SRD calls it a smite, so the smite's reader, :mod:`arena.abilities.smite`, asks it first)
and the burst in a fight (:func:`burst_turn`, instead of its attack).
"""

from __future__ import annotations

from typing import Annotated

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability, worth_the_turn
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.patterns import AMOUNT, TIMES
from arena.srd.text import dice_text, number, search_chain
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, RoundsDice, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Burst(Frozen):
    """A burst of its own about it, ``uses`` times a fight as a standard action (SRD 3.5 nalfeshnee's smite: "a
    nimbus of unholy light ... burst in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will
    save or be dazed for 1d10 rounds ... can take no actions"): every able foe saves or is dazed (out of the fight,
    not helpless) for ``rounds``. The SRD's round of delay before the burst is left out."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "will"
    rounds: RoundsDice = "1d10"
    uses: Annotated[int, _int(1, 10)] = 3


# --------------------------------------------------------------------------------------------- reading the SRD
NIMBUS = (
    r"(Once|Twice|Three times) per day [\w' ]{1,80}? can create a nimbus",
    rf"DC (\d+) Will save or be dazed for ({AMOUNT}) rounds",
)
"""A nalfeshnee's smite, its parts in order: ``Three times per day a nalfeshnee can create a nimbus of unholy light
... must succeed on a DC 22 Will save or be dazed for 1d10 rounds``."""


def read_nimbus(ctx: Reading, item: dict) -> dict | None:
    """The nalfeshnee's smite, a burst: ``Three times per day a nalfeshnee can create a nimbus of unholy light ...
    One round later they burst in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will save or
    be dazed for 1d10 rounds``; None for any other smite."""
    desc, text = ctx.text_of(item, "smite")
    m = search_chain(text, *NIMBUS)
    if m is None:
        return None
    uses = TIMES[m.group(1).lower()]
    ctx.save_of("smite", number(m.group(2)), "will")
    ctx.mark(
        "smite",
        "modelled",
        f"burst: {uses} a fight as its standard action, every foe Will DC {m.group(2)} or "
        f"dazed {dice_text(m.group(3))} rounds (out of the fight, not helpless; the round "
        "before it bursts is left out)",
    )
    return {"burst": {"dc": number(m.group(2)), "save": "will", "rounds": dice_text(m.group(3)), "uses": uses}}


# --------------------------------------------------------------------------------------------- in a fight
def burst_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn goes to the burst while it has uses left and the burst is worth it (two or more foes it can daze,
    or the only one)."""
    b: Burst = c.t.ability_data["burst"]
    st = state_of(c)
    if st.get("bursts", 0) >= b.uses:
        return False
    enemies = [e for e in c.foes if e.is_able]
    fresh = [e for e in enemies if "stupefied" not in e.conditions and "mind-affecting" not in e.t.immunities]
    if not worth_the_turn(len(fresh), len(enemies)):
        return False
    burst(f, c, fresh, st)
    return True


def burst(f: FightState, c: Combatant, targets: list[Combatant], st: dict) -> None:
    """SRD 3.5 Nalfeshnee: "Smite (Su): Three times per day a nalfeshnee can create a nimbus of unholy light ... burst
    in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will save or be dazed for 1d10 rounds
    ... The creature receives its full Dexterity and shield bonuses to AC if attacked but can take no actions"."""
    b: Burst = c.t.ability_data["burst"]
    st["bursts"] = st.get("bursts", 0) + 1
    if f.lines is not None:
        f.log(f"{c.name}'s nimbus bursts", actor=c.name, action="nimbus")
    for e in targets:
        if not e.dead and not save(f, e, b.save, b.dc, c).success:
            add_condition(f, e, "stupefied", parse(b.rounds).roll(f.stream) * ROUND)


add_fields(AbilityField("burst", Burst | None, doc=Burst.__doc__ or "", after="invisible"))
add_fight_ability(FightAbility("burst", instead_of_attack=burst_turn, order=90))
