"""Concealment: the miss chance of a hit against a creature that cannot be seen clearly (SRD 3.5 Concealment).

SRD 3.5 *Concealment*: "If the attacker has line of sight to the target but it is obscured ... the target has
concealment: 20% miss chance"; *Total Concealment*: "If you have line of effect to a target but not line of
sight ... 50% miss chance"; "Multiple concealment conditions do not stack." The miss chance is rolled only for an
attack that hits ("If the attacker hits, the defender must make a miss chance percentile roll").

A creature is concealed while it is invisible (``invisible``: total concealment, 50%), blurred (``blurred``: 20%)
or stands in a darkness,
fog cloud or obscuring mist (``obscured``: 20%; in a fog, an attack from beyond 5 feet, which is a ranged
attacker's or one against a creature that stands back, faces total concealment); a gazer is concealed (20%) against
the foes that avert their eyes from it (``averted``, :mod:`arena.abilities.gaze`). Its :attr:`Combatant.concealed`
flag tells the swing to look (one attribute on a hit); the conditions hold the numbers. A blinded attacker's own
50% (:data:`arena.combat.attacks.BLIND_MISS_CHANCE`) does not stack with them: the higher chance is rolled once.
Calls nothing of the fight's parts; the functions take the fight first (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState

CONCEALMENT = 0.2
"""SRD 3.5 concealment (darkness's shadowy illumination, fog or mist at 5 feet): 20% miss chance."""
TOTAL_CONCEALMENT = 0.5
"""SRD 3.5 total concealment (invisible, or fog beyond 5 feet): 50% miss chance."""
WIND_WALL = 1.0
"""SRD wind wall: "Arrows and bolts are deflected upward and miss" (an attacker who stands back shoots)."""
BLINDED = 0.5
"""A blinded attacker: every foe has total concealment for it (the swing's ``BLIND_MISS_CHANCE``)."""


def concealment(attacker: Combatant, target: Combatant, ray: bool = False) -> float:
    """The miss chance ``target``'s concealment gives against ``attacker`` (0.0 when it has none left); a ``ray``
    passes a wind wall, which stops only arrows and bolts."""
    conditions = target.conditions
    outlined = "outlined" in conditions
    chance = TOTAL_CONCEALMENT if "invisible" in conditions and not outlined else 0.0
    if "blurred" in conditions and not outlined and chance < CONCEALMENT:
        chance = CONCEALMENT  # blur: "concealment (20% miss chance)"
    if not ray and attacker.ranged and "walled" in conditions:
        return WIND_WALL  # arrows and bolts into a wind wall miss
    averted = conditions.get("averted")  # a gazer: the foes that avert their eyes from it
    if averted is not None and attacker.uid in averted[1]["by"] and chance < CONCEALMENT:
        chance = CONCEALMENT  # SRD Gaze: "The creature with the gaze attack, however, gains concealment against
        #                       that opponent"
    zone = conditions.get("obscured")  # a condition: [ends at, its data]
    if zone is not None:
        _ends_at, data = zone
        near = data["chance"]
        if data["fog"] and (attacker.ranged or target.ranged):
            near = TOTAL_CONCEALMENT  # fog: beyond 5 feet, total concealment
        if near > chance:
            chance = near
    return chance


def misses(f: FightState, attacker: Combatant, target: Combatant) -> bool:
    """Does the miss chance turn this hit into a miss? One percentile roll against the highest miss chance that
    applies (blinded attacker, concealed target); no roll when none does."""
    chance = BLINDED if attacker.blind else 0.0
    if target.concealed:
        hidden = concealment(attacker, target)
        if not hidden and CONCEALING.isdisjoint(target.conditions):
            target.concealed = False  # its concealment has ended
        if hidden > chance:
            chance = hidden
    if not chance:
        return False
    missed = f.rand() < chance
    if missed and f.lines is not None and not attacker.blind:
        f.log(
            f"{attacker.name}'s hit on {target.name} misses: concealment ({int(chance * 100)}% miss chance)",
            actor=attacker.name,
            action="concealment",
            target=target.name,
            chance=chance,
            result="miss",
        )
    return missed


def misses_ray(f: FightState, attacker: Combatant, target: Combatant) -> bool:
    """A ray's hit against a concealed target: the same percentile roll (rays ignore a blinded caster, as before,
    and pass a wind wall, which stops only arrows and bolts)."""
    chance = concealment(attacker, target, ray=True)
    if not chance:
        if CONCEALING.isdisjoint(target.conditions):
            target.concealed = False
        return False
    missed = f.rand() < chance
    if missed and f.lines is not None:
        f.log(
            f"{attacker.name}'s ray at {target.name} misses: concealment ({int(chance * 100)}% miss chance)",
            actor=attacker.name,
            action="concealment",
            target=target.name,
            chance=chance,
            result="miss",
        )
    return missed


CONCEALING = frozenset({"invisible", "obscured", "blurred", "walled", "averted"})
"""The conditions that conceal a creature (faerie fire's ``outlined`` takes an invisibility's away: SRD "Outlined
creatures do not benefit from the concealment normally provided by darkness (though a 2nd-level or higher magical
darkness effect functions normally), blur, displacement, invisibility, or similar effects")."""
