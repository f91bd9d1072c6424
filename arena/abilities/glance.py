"""A look at one foe as a standard action (SRD 3.5 nymph's stunning glance: "stun a creature within 30 feet with a
look ... DC 17 Fortitude save or be stunned for 2d4 rounds"; sea hag's evil eye: "Three times per day ... DC 13 Will
save or be dazed for three days ... In addition, an affected creature must succeed on a DC 13 Fortitude save or die
from fright").

The stat-block field (:class:`Glance`, the field ``glance``) and the look in a fight (:func:`glance_turn`, instead
of its attack). The importer reads it with the gazes: the SRD lists a nymph's stunning glance and a sea hag's evil
eye among gaze attacks, so the gaze's reader (:func:`arena.abilities.gaze.read_gaze`) finds them and fills this
field.
"""

from __future__ import annotations

from typing import Annotated, Literal

from arena.combat import tactics
from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.states import DEAD_AT, DEATH_SAVE, die
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, RoundsDice, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Glance(Frozen):
    """A look at one foe as a standard action (SRD 3.5 nymph's stunning glance: "stun a creature within 30 feet with
    a look ... DC 17 Fortitude save or be stunned for 2d4 rounds"; sea hag's evil eye: "Three times per day ... DC 13
    Will save or be dazed for three days ... In addition, an affected creature must succeed on a DC 13 Fortitude
    save or die from fright"): ``uses`` a fight (None: at will), at a foe it has not yet affected."""

    effect: Literal["stun", "daze"]
    save: SaveKind = "fort"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "1"
    uses: Annotated[int, _int(1, 100)] | None = None
    fright_dc: Annotated[int, _int(1, MAX_MODIFIER)] | None = None
    """A second save, Fortitude, against death from fright for a foe the glance affects (the sea hag's)."""


# --------------------------------------------------------------------------------------------- in a fight
def glance_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn goes to a look while it has looks left and a foe it may still affect (not stunned, not immune to
    the mind-affecting, not one it has already dazed or failed to daze); its targeting picks which."""
    g: Glance = c.t.ability_data["glance"]
    st = state_of(c)
    if g.uses is not None and st.get("glances", 0) >= g.uses:
        return False
    looked = st.setdefault("looked", set())
    fresh = [
        e
        for e in c.foes
        if e.is_able
        and e.uid not in looked
        and not (e.conditions and "stunned" in e.conditions)
        and "mind-affecting" not in e.t.immunities
    ]
    target = tactics.choose_target(f.view, c, fresh) if fresh else None
    if target is None:  # no foe to look at (or a user's targeting chose none)
        return False
    glance(f, c, target, st)
    return True


def glance(f: FightState, c: Combatant, target: Combatant, st: dict) -> None:
    """SRD 3.5 Nymph: "As a standard action, a wrathful nymph can stun a creature within 30 feet with a look. The
    target creature must succeed on a DC 17 Fortitude save or be stunned for 2d4 rounds"; Sea hag: "Evil Eye (Su):
    Three times per day, a sea hag can cast its dire gaze upon any single creature within 30 feet. The target must
    succeed on a DC 13 Will save or be dazed for three days ... In addition, an affected creature must succeed on a
    DC 13 Fortitude save or die from fright. Creatures with immunity to fear effects are not affected"."""
    g: Glance = c.t.ability_data["glance"]
    st["glances"] = st.get("glances", 0) + 1
    if g.effect == "stun" and "stunning" in target.t.immunities:
        return
    if f.lines is not None:
        f.log(f"{c.name} fixes {target.name} with its look", actor=c.name, action="look", target=target.name)
    if save(f, target, g.save, g.dc, c).success:
        if g.effect == "daze":
            st["looked"].add(target.uid)  # a foe it failed to daze it tries no more
        return
    st["looked"].add(target.uid)
    if g.effect == "stun":
        add_condition(f, target, "stunned", parse(g.rounds).roll(f.stream) * ROUND)
        st["looked"].discard(target.uid)  # stunned for rounds: it may look at it again later
    else:
        add_condition(f, target, "stupefied", FOREVER)  # dazed for three days: out of the fight, not helpless
        if (
            g.fright_dc is not None
            and "death effects" not in target.t.immunities
            and not save(f, target, "fort", g.fright_dc, c).success
        ):
            target.hp = min(target.hp, DEAD_AT)
            die(f, target, DEATH_SAVE)


add_fields(AbilityField("glance", Glance | None, doc=Glance.__doc__ or "", after="petrification"))
add_fight_ability(FightAbility("glance", instead_of_attack=glance_turn, order=60))
