"""Lasting called-shot injuries on a creature, and the penalties they put on its rolls (seed 003).

An injury is kept per part instance (``("hand", 0)``): the greatest damage one attack dealt it (which sets the
tough-through DC, critical multipliers included) and whether any hit was severe (damage at least the maximum of the
creature's first hit die). Penalties on one part instance do not stack; on different instances they do.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.combat.combatant import Combatant
from arena.rules.called_shots import AFFECTS, PENALTY, PER_INSTANCE, TOUGH_THROUGH_BASE, severity_penalty
from arena.world.stat_types import PartName


class Injury:
    def __init__(self, part: PartName, index: int) -> None:
        self.part = part
        self.index = index
        self.worst = 0
        self.severe = False

    @property
    def dc(self) -> int:
        """Tough-through DC: 10 + the greatest damage one attack dealt this part."""
        return TOUGH_THROUGH_BASE + self.worst


def injure(
    creature: Combatant, part: PartName, damage: int, index: int | None = None, all_instances: bool = False
) -> list[Injury]:
    """Record a called hit of ``damage`` on instance ``index`` of ``part`` (None: the first one not yet severely
    damaged), or on every instance (sonic damage on all ears)."""
    count, _ac_bonus = creature.t.parts.get(part, (1, 0))  # part -> (how many, improved-AC bonus)
    severe = damage >= creature.t.first_hit_die
    indices: Sequence[int]
    if all_instances:
        indices = range(count)
    elif index is not None:
        indices = (min(index, count - 1),)
    elif count == 1:
        indices = (0,)
    else:
        done = {i.index for i in creature.injuries.values() if i.part == part and i.severe}
        indices = [next((i for i in range(count) if i not in done), 0)]
    hit = []
    for i in indices:
        injury = creature.injuries.get((part, i))
        if injury is None:
            injury = creature.injuries[(part, i)] = Injury(part, i)
        injury.worst = max(injury.worst, damage)
        injury.severe = injury.severe or severe
        hit.append(injury)
    changed(creature, part)
    return hit


def changed(creature: Combatant, part: PartName | None = None) -> None:
    """Recompute what follows from the creature's injuries (to ``part`` only, when given): cached penalties,
    blindness, deafness."""
    creature.penalty_cache = {}
    if part is None or part == "eye":
        creature.blind = fully_severe(creature, "eye")
    if part is None or part == "ear":
        creature.deaf = fully_severe(creature, "ear")


def penalty(
    creature: Combatant, roll: str, hands: tuple[int, ...] = (), toughed: frozenset[tuple[PartName, int]] = frozenset()
) -> int:
    """The total injury penalty on a roll of kind ``roll`` (attack, ranged, fort, ref, will, initiative, str, dex)
    that uses ``hands``. Injuries the creature toughs through this turn (``toughed``) do not count."""
    injuries = creature.injuries
    if not injuries:
        return 0
    total = 0
    severe_by_part: dict[PartName, int] = {}
    for key, injury in injuries.items():
        if key in toughed:
            continue
        part = injury.part
        affects = AFFECTS[part]
        if part in PER_INSTANCE:  # that hand's attacks (and, for an arm, Strength checks)
            if roll in affects or (roll in ("attack", "ranged") and injury.index in hands):
                total += PENALTY
            continue
        if roll in affects or (roll == "ranged" and "attack" in affects):
            severe_by_part[part] = severe_by_part.get(part, 0) + (injury.severe or _single(creature, part))
    for part, severe in severe_by_part.items():
        count, _ac_bonus = creature.t.parts.get(part, (1, 0))
        total += severity_penalty(severe, count)
    return total


def _single(creature: Combatant, part: PartName) -> bool:
    """A part the creature has only one of: any lethal damage to it counts in full."""
    count, _ac_bonus = creature.t.parts.get(part, (1, 0))
    return count <= 1


def fully_severe(creature: Combatant, part: PartName) -> bool:
    """Every instance of ``part`` severely damaged (all eyes: blinded; all ears: deafened)."""
    count, _ac_bonus = creature.t.parts.get(part, (0, 0))
    return count > 0 and sum(1 for i in creature.injuries.values() if i.part == part and i.severe) >= count


def heal_minor(creature: Combatant) -> int:
    """Magical healing (fast healing and regeneration count) ends minor wounds: injuries with no severe hit."""
    minor = [key for key, injury in creature.injuries.items() if not injury.severe]
    for key in minor:
        del creature.injuries[key]
    changed(creature)
    return len(minor)


def heal_all(creature: Combatant) -> None:
    """No lethal damage left: every wound, minor or severe, is healed."""
    creature.injuries.clear()
    changed(creature)
