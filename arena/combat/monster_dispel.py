"""Targeted dispel magic, for the monsters that cast it: which conditions a dispel can end (the spells on a
creature that put them there) and the caster level check against each (:func:`dispel`).
:mod:`arena.combat.monster_spells` casts it under "dispel magic" in its ``MONSTER_CASTS``.
"""

from __future__ import annotations

from arena.combat.combatant import Combatant
from arena.combat.conditions import drop_condition
from arena.combat.fight_state import FightState
from arena.combat.monster_controls import OUT_OF_FIGHT
from arena.combat.rolls import resolve
from arena.rules import Check

__all__ = ["DISPELLABLE", "DISPEL_BONUS_CAP", "dispel", "spell_caster_level"]

DISPELLABLE = {
    "bless": ("bless",),
    "shield of faith": ("shield of faith",),
    "auspicious": ("auspicious odds", "mass auspicious odds"),
    "held": ("hold person", "hold monster"),
    "asleep": ("sleep", "deep slumber"),
    OUT_OF_FIGHT: ("charm person", "charm monster", "suggestion", "cause fear", "scare"),
    "dazed": ("daze", "command"),
    "invisible": ("invisibility",),
    "aided": ("aid",),
    "blurred": ("blur",),
}
"""The conditions a targeted dispel magic can end, and the spells that put them on a creature (a zone, an area's
web and color spray's instantaneous stun are not spells *on* the creature; a panic from frightful presence or a
gaze is no spell)."""
DISPEL_BONUS_CAP = 10
"""SRD dispel magic: "a dispel check (1d20 + your caster level, maximum +10)"."""


def dispel(f: FightState, caster: Combatant, target: Combatant, cl: int) -> None:
    """SRD dispel magic, targeted: "You make a dispel check (1d20 + your caster level, maximum +10) against the
    spell or against each ongoing spell currently in effect on the object or creature. The DC for this dispel
    check is 11 + the spell's caster level. If you succeed on a particular check, that spell is dispelled". The
    check is a caster level check through the kernel (under players roll all, the player's when the spell is on
    a PC, as for spell resistance); a spell's caster level is that of the creature who cast it (the highest of
    those who prepared it, for the spells that do not record it)."""
    for name in [n for n in target.conditions if n in DISPELLABLE]:
        data = target.conditions[name][1]
        if (name == OUT_OF_FIGHT and "spell" not in data) or data.get("natural"):
            continue  # panicked by a gaze or frightful presence, invisible by nature
        effect_cl = spell_caster_level(f, target, name)
        check = Check("caster-level", caster.side, min(cl, DISPEL_BONUS_CAP), 11 + effect_cl, opponent=target.side)
        outcome = resolve(f, check, caster, target)
        if f.lines is not None:
            f.log(
                f"{caster.name} dispels {name} on {target.name} (DC {11 + effect_cl}): natural {outcome.natural}, "
                f"total {outcome.total} - {'dispelled' if outcome.success else 'holds'}",
                actor=caster.name,
                action="dispel",
                target=target.name,
                result="dispelled" if outcome.success else "holds",
            )
        if outcome.success:
            drop_condition(f, target, name)


def spell_caster_level(f: FightState, target: Combatant, condition: str) -> int:
    """The caster level of the spell behind ``target``'s ``condition``: recorded (``cl``) by the monster spells,
    else the highest caster level among the creatures who prepared a spell that makes it."""
    data = target.conditions[condition][1]
    if "cl" in data:
        return data["cl"]
    names = DISPELLABLE[condition]
    best = 0
    for c in (*f.pcs, *f.monsters):
        if c.t.caster_level > best and any(n in names for spells in c.t.spells.values() for n in spells):
            best = c.t.caster_level
    return best or 1
