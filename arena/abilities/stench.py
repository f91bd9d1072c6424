"""Stench (SRD 3.5 troglodyte, hezrou): on the creature's first action every living foe saves (Fortitude) or is
sickened for the stated rounds; a hezrou's nauseates the foes in melee with it instead.

The whole ability: the stat-block field (:class:`Stench`, the field ``stench``), how the importer reads it
(:func:`read_stench`: the DC and how long it sickens, or the hezrou's nausea) and what it does in a fight
(:func:`stink`, on the creature's first action, after its frightful presence).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import StrictBool

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import dice_text, in_rounds, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, RoundsDice, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Stench(Frozen):
    """Stench (SRD 3.5 troglodyte): at the start of the fight every living foe saves (Fortitude ``dc``) or is
    sickened (-2 on attack rolls, weapon damage, saves and checks) for ``rounds``."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "10"
    nauseates: StrictBool = False
    """The hezrou's: "Any living creature ... within 10 feet must succeed on a DC 24 Fortitude save or be nauseated
    for as long as it remains within the affected area ... Creatures that successfully save are sickened for as long
    as they remain in the area": the foes in melee with it (within 10 feet), nauseated (no actions but a move: out
    of the fight, not helpless) or sickened, for the fight."""


# --------------------------------------------------------------------------------------------- reading the SRD
FORTITUDE_DC = re.compile(r"\bDC (\d+) Fortitude|\bFortitude DC (\d+)")
"""``a DC 13 Fortitude save``."""
NAUSEATED = re.compile(r"\bnauseated\b", re.IGNORECASE)
"""A stench that nauseates: ``or be nauseated for as long as it remains within the affected area``."""
NAUSEA_TERMS = re.compile(
    r"within 10 feet must succeed .* or be nauseated for as long as it remains within the "
    r"affected area.*Creatures that successfully save are sickened",
    re.IGNORECASE,
)
"""A hezrou's: ``Any living creature (except other demons) within 10 feet must succeed on a DC 24 Fortitude save or
be nauseated for as long as it remains within the affected area ... Creatures that successfully save are sickened
for as long as they remain in the area``."""
SICKENED_FOR = re.compile(rf"sickened for ({AMOUNT}) (round|minute|hour)s?", re.IGNORECASE)
"""A troglodyte's: ``must succeed on a DC 13 Fortitude save or be sickened for 10 rounds``."""


def read_stench(ctx: Reading, item: dict) -> dict:
    """``must succeed on a DC 13 Fortitude save or be sickened for 10 rounds`` (the troglodyte's); minutes are
    their average in rounds. A stench that nauseates (the hezrou's) is the engine's nausea when its terms are."""
    desc, text = ctx.text_of(item, "stench")
    text = ctx.following(desc, 1) or text
    dcs = set(FORTITUDE_DC.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    if dc is not None:
        ctx.save_of("stench", dc, "fort")
    if NAUSEATED.search(text):
        if dc is None or not NAUSEA_TERMS.search(text):
            return ctx.ignored("stench", "its nausea's terms not read")
        ctx.mark(
            "stench",
            "modelled",
            f"stench: the foes in melee with it (within 10 feet), Fort DC {dc} or nauseated "
            "(no actions but a move: out of the fight, not helpless), else sickened, for "
            "the fight (they stay near it), on its first action",
        )
        return {"stench": {"dc": dc, "rounds": "1", "nauseates": True}}
    m = SICKENED_FOR.search(text)
    if dc is None or m is None:
        return ctx.unread(item, "stench", f"{'no Fortitude DC' if dc is None else 'how long it sickens'} read", text)
    rounds, changed = in_rounds(m.group(1), m.group(2))
    how = ""
    if changed:
        ctx.note_on(item, "changed", f"stench: {changed}", text[:200])
        how = f" ({dice_text(m.group(1))} {m.group(2).lower()}s: their average)"
    ctx.mark("stench", "modelled", f"stench: Fort DC {dc} or sickened for {rounds} rounds{how}, on its first action")
    return {"stench": {"dc": dc, "rounds": rounds}}


# --------------------------------------------------------------------------------------------- in a fight
def stink(f: FightState, c: Combatant) -> None:
    """Stench: every living foe saves (Fortitude) or is sickened for the stated rounds (SRD 3.5 troglodyte)."""
    stench: Stench = c.t.ability_data["stench"]
    for foe in list(c.foes):
        if foe.dead or not foe.is_able or foe.t.type in ("undead", "construct") or "poison" in foe.t.immunities:
            continue
        if stench.nauseates:  # the hezrou's: within 10 feet, the foes in melee with it
            if not foe.ranged:
                saved = save(f, foe, "fort", stench.dc, c).success
                add_condition(f, foe, "sickened" if saved else "nauseated", FOREVER)
            continue
        if not save(f, foe, "fort", stench.dc, c).success:
            add_condition(f, foe, "sickened", parse(stench.rounds).roll(f.stream) * ROUND)


add_fields(AbilityField("stench", Stench | None, doc=Stench.__doc__ or "", after="breath_effect", every_number=True))
add_reading(AbilityReading("stench", ("stench",), read_stench, after="breath weapon (non-damage)"))
add_fight_ability(FightAbility("stench", first_action=stink, order=20))
