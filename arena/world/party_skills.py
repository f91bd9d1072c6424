"""The generated party's one skill a fight uses: Escape Artist, to get out of a web (SRD 3.5 monstrous spider: "An
entangled creature can escape with a successful Escape Artist check or burst it with a Strength check. Both are
standard actions").

The generated party has no skill list, so its Escape Artist bonus is worked out here from these choices:

* The rogue puts the maximum ranks in Escape Artist, a rogue class skill (SRD 3.5 Rogue, class skills: "Escape
  Artist (Dex)"; SRD "Skills": the maximum ranks in a class skill are the character level + 3). A rogue spends 8 +
  Int skill points a level, and Escape Artist is one of the skills an adventuring rogue keeps at its maximum.
* The fighter, the cleric and the wizard have none (it is a cross-class skill for all three) and use it untrained
  (SRD: Escape Artist can be used untrained): their Dexterity modifier only.
* Every one takes its armor check penalty (SRD 3.5 Escape Artist: "Armor Check Penalty") of the armor and shield it
  wears (:data:`ARMOR_CHECK_PENALTY`, the SRD's Table: Armor and Shields; masterwork armor, which every enhanced suit
  or shield is, 1 less; mithral 3 less, never below 0).

A creature that is not a generated PC (a hand-written PC, a monster) has its Dexterity modifier (untrained, no armor
known): its stat block names no skill ranks.
"""

from __future__ import annotations

from arena.world.class_tables import check_level
from arena.world.creatures import Creature
from arena.world.party_gear import ARMOR_BY_LEVEL, HEAVY_STEEL_SHIELD, SHIELD_USERS, piece_at, scheduled

ESCAPE_ARTIST_CLASSES = frozenset({"rogue"})
"""The generated classes with Escape Artist as a class skill (SRD 3.5: the rogue's; not the fighter's, cleric's or
wizard's)."""
ARMOR_CHECK_PENALTY = {
    "studded leather": 1,
    "chain shirt": 2,
    "mithral chain shirt": 2,
    "chainmail": 5,
    "full plate": 6,
    "heavy steel shield": 2,
}
"""SRD 3.5 Table: Armor and Shields, the armor check penalty (as a positive number) of the party's armor."""
MASTERWORK_ACP = 1
"""SRD 3.5 masterwork armor: "its armor check penalty is lessened by 1" (every magic suit or shield is masterwork)."""
MITHRAL_ACP = 3
"""SRD 3.5 mithral: "armor check penalties are lessened by 3 (to a minimum of 0)"."""
GENERATED = "generated:"
"""How a generated PC's ``source`` begins (:func:`arena.world.party.build_character`)."""


def max_ranks(level: int) -> int:
    """SRD 3.5 Skills: the maximum ranks in a class skill, character level + 3."""
    return check_level(level) + 3


def armor_check_penalty(cls: str, level: int) -> int:
    """The armor check penalty (a positive number) of a generated PC's armor and shield at ``level``."""
    total = 0
    armor = piece_at(ARMOR_BY_LEVEL.get(cls, {}), level)
    if armor is not None:
        penalty = ARMOR_CHECK_PENALTY[armor.name]
        if armor.masterwork_included or scheduled("armor", level):
            penalty -= MASTERWORK_ACP
        if armor.name.startswith("mithral"):
            penalty -= MITHRAL_ACP
        total += max(0, penalty)
    if cls in SHIELD_USERS:
        total += ARMOR_CHECK_PENALTY[HEAVY_STEEL_SHIELD.name] - (MASTERWORK_ACP if scheduled("shield", level) else 0)
    return total


def escape_artist(creature: Creature) -> int:
    """The Escape Artist bonus of ``creature`` (the module docstring): ranks, Dexterity, armor check penalty."""
    bonus = creature.abilities.modifier("dex")
    if not creature.source.startswith(GENERATED) or len(creature.class_levels) != 1:
        return bonus
    ((cls, level),) = creature.class_levels.items()
    ranks = max_ranks(level) if cls in ESCAPE_ARTIST_CLASSES else 0
    return bonus + ranks - armor_check_penalty(cls, level)
