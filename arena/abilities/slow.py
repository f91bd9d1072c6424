"""Slow on a hit (SRD 3.5 ice devil: "A hit from an ice devil's tail or spear induces numbing cold. The opponent must
succeed on a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds"): slowed, one action a
turn (the ``slowed`` condition of :mod:`arena.combat.conditions`).

The whole ability: the stat-block field (:class:`SlowOnHit`, the field ``slow_on_hit``), how the importer reads it
(:func:`read_slow`) and the cold in a fight (:func:`slow_on_hit`).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.template import CompiledAttack
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading, named
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import dice_text, number, search_chain
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, Label, RoundsDice, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class SlowOnHit(Frozen):
    """Slow on a hit with ``attack`` (SRD 3.5 ice devil: "A hit from an ice devil's tail or spear induces numbing
    cold. The opponent must succeed on a DC 23 Fortitude save or be affected as though by a slow spell for 1d6
    rounds"): slowed, one action a turn."""

    attack: Label
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "1d6"


# --------------------------------------------------------------------------------------------- reading the SRD
SLOW = (
    r"A hit from an? [\w' ]{1,80}?'s ([a-z ]{1,80}?) induces ",
    rf" DC (\d+) Fortitude save or be affected as though by a slow spell for ({AMOUNT}) rounds",
)
"""An ice devil's, its parts in order: ``A hit from an ice devil's tail or spear induces numbing cold. The opponent
must succeed on a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds``."""
OR_AND_ONLY = re.compile(r"\s+or\s+|\s+and\s+")
"""Between two attacks: ``tail or spear``."""


def read_slow(ctx: Reading, item: dict) -> dict:
    """The ice devil's: ``A hit from an ice devil's tail or spear induces numbing cold. The opponent must succeed on
    a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds`` (on the first of the attacks it
    names in its full attack)."""
    desc, text = ctx.text_of(item, "slow")
    m = search_chain(text, *SLOW)
    names = [a["name"] for r in ctx.routines() for a in r]
    words = [w.strip() for w in OR_AND_ONLY.split(m.group(1))] if m else []
    found = [n for n in names if any(named(w, [n]) for w in words)]
    if m is None or not found:
        return ctx.ignored("slow", "a slow effect of its own action, or its attack not read")
    attack = found[0]
    how = (
        f" (the SRD's also on its {' and '.join(w for w in words if not named(w, [attack]))})" if len(words) > 1 else ""
    )
    ctx.save_of("slow", number(m.group(2)), "fort")
    ctx.mark(
        "slow",
        "modelled",
        f"slow on the {attack}: Fort DC {m.group(2)} or slowed {dice_text(m.group(3))} rounds (one action a turn){how}",
    )
    return {"slow_on_hit": {"attack": attack, "dc": number(m.group(2)), "rounds": dice_text(m.group(3))}}


# --------------------------------------------------------------------------------------------- in a fight
def slow_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with its attack slows a foe not slowed already that fails its Fortitude save, for the rolled rounds."""
    slow: SlowOnHit = c.t.ability_data["slow_on_hit"]
    if (
        attack.name == slow.attack
        and not target.dead
        and "slowed" not in target.conditions
        and not save(f, target, "fort", slow.dc, c).success
    ):
        add_condition(f, target, "slowed", parse(slow.rounds).roll(f.stream) * ROUND)


add_fields(AbilityField("slow_on_hit", SlowOnHit | None, doc=SlowOnHit.__doc__ or "", after="glance"))
add_reading(AbilityReading("slow", ("slow",), read_slow, after="blood drain", only_ignored=True))
add_fight_ability(FightAbility("slow_on_hit", on_hit=slow_on_hit, rides_on=lambda slow: slow.attack, order=30))
