"""Smoke (SRD 3.5 nightmare): "fills a 15-foot cone with a hot, sulfurous smoke ... DC 16 Fortitude save or take a
-2 penalty on all attack and damage rolls", once as a free action each round: at the start of each of its turns the
foes its cone catches save or choke, for the fight.

The whole ability: the stat-block field (:class:`Smoke`, the field ``smoke``), how the importer reads it
(:func:`read_smoke`: the cone, the creature's own DC and the penalty) and what it does in a fight (:func:`smoke`, at
the start of each of its turns, after a gaze and a song kept up, before entangling plants and eye rays).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat import tactics
from arena.combat.abilities import free_to_act
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.limits import MAX_MODIFIER
from arena.srd.auras import own_dc
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.text import number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.spellbook import area_count
from arena.world.stat_types import MAX_FEET, Frozen, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Smoke(Frozen):
    """Smoke (SRD 3.5 nightmare: a 15-foot cone of "hot, sulfurous smoke ... DC 16 Fortitude save or take a -2
    penalty on all attack and damage rolls until 1d6 minutes after leaving the cone ... once as a free action during
    its turn each round"): at the start of each of its turns the foes a ``length_ft`` cone catches save or choke (for
    the fight: it stays near them)."""

    length_ft: Annotated[int, _int(1, MAX_FEET)] = 15
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "fort"


# --------------------------------------------------------------------------------------------- reading the SRD
SMOKE_CONE = re.compile(r"(?<!\d)(\d+)-foot cone")
"""A nightmare's: ``fills a 15-foot cone with a hot, sulfurous smoke``."""
SMOKE_PENALTY = "-2 penalty on all attack and damage rolls"
"""``or take a -2 penalty on all attack and damage rolls until 1d6 minutes after leaving the cone``."""
CONCEALMENT = "concealment"


def read_smoke(ctx: Reading, item: dict) -> dict:
    """``fills a 15-foot cone with a hot, sulfurous smoke ... DC 16 Fortitude save or take a -2 penalty on all
    attack and damage rolls until 1d6 minutes after leaving the cone ... once as a free action during its turn each
    round``."""
    desc, text = ctx.text_of(item, "smoke")
    cone = SMOKE_CONE.search(text)
    dc = own_dc(ctx, item, text, "Fortitude")
    if cone is None or dc is None or SMOKE_PENALTY not in text:
        return ctx.unread(item, "smoke", "its cone, DC and penalty not read", text)
    how = "; the concealment its smoke gives it is left out" if CONCEALMENT in ctx.following(desc, 1) else ""
    ctx.save_of("smoke", dc, "fort")
    ctx.mark(
        "smoke",
        "modelled",
        f"smoke: a {cone.group(1)}-ft. cone at the start of each of its turns (a free "
        f"action), Fort DC {dc} or -2 on attack and damage rolls for the fight{how}",
    )
    return {"smoke": {"length_ft": number(cone.group(1)), "dc": dc, "save": "fort"}}


# --------------------------------------------------------------------------------------------- in a fight
def smoke(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Nightmare: "fills a 15-foot cone with a hot, sulfurous smoke ... Anyone in the cone must succeed on
    a DC 16 Fortitude save or take a -2 penalty on all attack and damage rolls until 1d6 minutes after leaving the
    cone ... the nightmare uses it once as a free action during its turn each round" (it stays near them: the
    penalty lasts the fight). Creatures that do not breathe (undead, constructs) are not choked."""
    if not free_to_act(c):
        return
    s: Smoke = c.t.ability_data["smoke"]
    enemies = [e for e in c.foes if e.is_able]
    if not enemies:
        return
    first = tactics.choose_target(f.view, c, enemies)
    if first is None:  # no foe it can choose (never, with able foes: choose_target picks one of them)
        return
    caught = [first] + [e for e in enemies if e is not first]
    for e in caught[: area_count(f"cone-{s.length_ft}", len(enemies))]:
        if "choking" in e.conditions or e.t.type in ("undead", "construct", "elemental"):
            continue
        if not save(f, e, s.save, s.dc, c).success:
            add_condition(f, e, "choking", FOREVER)


add_fields(AbilityField("smoke", Smoke | None, doc=Smoke.__doc__ or "", after="roar"))
add_reading(AbilityReading("smoke", ("smoke",), read_smoke, after="roar", only_ignored=True))
add_fight_ability(FightAbility("smoke", turn_start=smoke, order=30))
