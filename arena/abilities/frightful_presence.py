"""Frightful presence (SRD 3.5 "Frightful Presence"): when the creature first acts, every able foe of fewer Hit Dice
saves (Will) or is panicked (4 HD or fewer: it flees, out of the fight) or shaken (-2 on attacks, saves and checks).

The whole ability: the stat-block field (:class:`FrightfulPresence`, the field ``frightful_presence``), how the
importer reads it (:func:`read_frightful_presence`: ``Frightful presence (DC 21)`` and the paragraph's duration)
and what it does in a fight (:func:`frighten`, on the creature's first action, before its stench and its aura).
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
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.ability_items import ENTRY_DC
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import in_rounds, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, RoundsDice, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class FrightfulPresence(Frozen):
    """Frightful presence (SRD 3.5): when the creature first attacks, each foe of fewer Hit Dice makes a Will save
    (``dc``) or is panicked (4 HD or fewer) or shaken (more) for 4d6 rounds."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    duration: RoundsDice = "4d6"


# --------------------------------------------------------------------------------------------- reading the SRD
WILL_DC = re.compile(r"\bDC (\d+) Will")
"""``a DC 21 Will save``."""
FRIGHTENED_FOR = re.compile(
    rf"\b(?:panicked|shaken|frightened|afraid) for ({AMOUNT}) (round|minute|hour)s?", re.IGNORECASE
)
"""``becomes shaken for 4d6 rounds``."""
AS_LONG_AS = "as long as"
"""A fear that lasts while the foe is near: ``shaken for as long as it remains within 60 feet``."""


def read_frightful_presence(ctx: Reading, item: dict) -> dict:
    """``Frightful presence (DC 21)`` and ``... must succeed on a DC 21 Will save or become panicked for 4d6
    rounds``; shaken for as long as the foe is near is the whole fight."""
    desc, text = ctx.text_of(item, "frightful presence")
    m = ENTRY_DC.search(item["name"])
    dc = number(m.group(1)) if m else None
    if dc is None and text:
        found = set(WILL_DC.findall(text))
        dc = number(found.pop()) if len(found) == 1 else None
    if dc is None:
        ctx.note_on(item, "unread", "frightful presence: no Will DC read: not modelled", text[:200] or item["name"])
        return ctx.ignored("frightful presence", "no Will DC read")
    duration = "4d6"
    how = ""
    rounds = FRIGHTENED_FOR.search(text)
    if rounds:
        duration, changed = in_rounds(rounds.group(1), rounds.group(2))
        if changed:
            ctx.note_on(item, "changed", f"frightful presence: {changed}", text[:200])
            how = f"; {changed}"
    elif AS_LONG_AS in text:
        duration = "100"
        how = "; shaken as long as the foe stays near it: for the whole fight (100 rounds)"
        ctx.note_on(
            item,
            "guess",
            "frightful presence: shaken as long as the foe stays within its range: 100 rounds, the whole fight",
            text[:200],
        )
    if text and "panicked" not in text.lower() and "shaken" in text.lower():
        how += "; the SRD's makes every foe shaken, the engine's panics those of 4 HD or fewer"
        ctx.note_on(
            item,
            "guess",
            "frightful presence: the SRD's makes a foe shaken whatever its Hit Dice; the "
            "engine's panics foes of 4 HD or fewer",
            text[:200],
        )
    ctx.mark("frightful presence", "modelled", f"frightful_presence: Will DC {dc}, {duration} rounds{how}")
    ctx.save_of("frightful presence", dc, "will")
    return {"frightful_presence": {"dc": dc, "duration": duration}}


# --------------------------------------------------------------------------------------------- in a fight
PANIC_HD = 4
"""SRD 3.5 frightful presence: a creature of 4 Hit Dice or fewer is panicked, one of more is shaken."""


def frighten(f: FightState, c: Combatant) -> None:
    """Frightful presence, when the creature first attacks: every able foe of fewer Hit Dice saves (Will) or is
    panicked (4 HD or fewer: it flees, out of the fight) or shaken (-2 on attacks, saves and checks)."""
    presence: FrightfulPresence = c.t.ability_data["frightful_presence"]
    c.frightened = True
    rounds = parse(presence.duration)
    for foe in list(c.foes):
        if not foe.is_able or foe.t.hd >= c.t.hd or "fear" in foe.t.immunities or "mind-affecting" in foe.t.immunities:
            continue
        if save(f, foe, "will", presence.dc, c).success:
            continue
        name = "panicked" if foe.t.hd <= PANIC_HD else "shaken"
        add_condition(f, foe, name, rounds.roll(f.stream) * ROUND)
        if f.lines is not None:
            f.log(
                f"{foe.name} is {name} by {c.name}'s frightful presence",
                actor=foe.name,
                action="frightful-presence",
                source=c.name,
                result=name,
            )


add_fields(
    AbilityField(
        "frightful_presence",
        FrightfulPresence | None,
        doc=FrightfulPresence.__doc__ or "",
        after="improved_grab",
        every_number=True,
    )
)
add_reading(AbilityReading("frightful presence", ("frightful presence",), read_frightful_presence, after="constrict"))
add_fight_ability(FightAbility("frightful_presence", first_action=frighten, order=10))
