"""The SRD 3.5 class tables the generated party is built from (base attack, saves and spells per day by level, hit
dice, from ``arena/data/srd35_class_progressions.yaml``), and the party's class choices: ability arrays, feats by
level, spell rotations and domains. Every assumption is listed in :mod:`arena.world.party`'s docstring."""

from __future__ import annotations

import math
from functools import cache
from importlib import resources

import yaml

from arena.errors import ArenaError

CLASSES = ("fighter", "cleric", "rogue", "wizard")
LEVELS = range(1, 21)

ABILITIES: dict[str, dict[str, int]] = {
    # elite array 15, 14, 13, 12, 10, 8 (3.5 DMG; PRD NPC "heroic" array, reference pf1_encounter_rules.yaml)
    "fighter": {"str": 15, "dex": 13, "con": 14, "int": 10, "wis": 12, "cha": 8},
    "cleric": {"str": 13, "dex": 8, "con": 14, "int": 10, "wis": 15, "cha": 12},
    "rogue": {"str": 12, "dex": 15, "con": 14, "int": 13, "wis": 10, "cha": 8},
    "wizard": {"str": 8, "dex": 14, "con": 13, "int": 15, "wis": 12, "cha": 10},
}
KEY_ABILITY = {"fighter": "str", "cleric": "wis", "rogue": "dex", "wizard": "int"}
ABILITY_INCREASE_LEVELS = (4, 8, 12, 16, 20)
"""SRD 3.5 "Experience and Level-Dependent Benefits": +1 to one ability score at 4th, 8th, 12th, 16th, 20th."""

FEATS: dict[str, dict[int, tuple[str, ...]]] = {
    "fighter": {
        1: ("Improved Initiative", "Weapon Focus (longsword)", "Power Attack"),
        2: ("Dodge",),
        3: ("Iron Will",),
        4: ("Weapon Specialization (longsword)",),
        6: ("Lightning Reflexes",),
        8: ("Improved Critical (longsword)", "Greater Weapon Focus (longsword)"),
        9: ("Great Fortitude",),
        10: ("Toughness",),
        12: ("Greater Weapon Specialization (longsword)",),
    },
    "cleric": {1: ("Improved Initiative", "Toughness"), 3: ("Lightning Reflexes",), 6: ("Weapon Focus (morningstar)",)},
    "rogue": {
        1: ("Weapon Finesse", "Improved Initiative"),
        3: ("Weapon Focus (rapier)",),
        6: ("Dodge",),
        9: ("Iron Will",),
        12: ("Toughness",),
    },
    "wizard": {
        1: ("Improved Initiative", "Toughness", "Scribe Scroll"),
        3: ("Spell Focus (evocation)",),
        6: ("Greater Spell Focus (evocation)",),
        9: ("Lightning Reflexes",),
    },
}
NOT_MODELLED_FEATS = ("Power Attack", "Scribe Scroll")

IMPROVED_INITIATIVE = 4  # SRD feat: +4 initiative
TOUGHNESS_HP = 3  # SRD 3.5 feat: +3 hit points
SAVE_FEAT_BONUS = 2  # Iron Will, Lightning Reflexes, Great Fortitude: +2
WEAPON_FOCUS = 1  # Weapon Focus, Greater Weapon Focus: +1 attack each
WEAPON_SPECIALIZATION = 2  # Weapon Specialization, Greater Weapon Specialization: +2 damage each
DODGE_AC = 1

WIZARD_ROTATION: dict[int, tuple[str, ...]] = {
    1: ("magic missile", "sleep", "color spray"),
    2: ("scorching ray",),
    3: ("fireball", "hold person", "lightning bolt"),
    4: ("ice storm",),
    5: ("cone of cold",),
    6: ("disintegrate", "chain lightning"),
    7: ("delayed blast fireball", "finger of death"),
    8: ("polar ray",),
    9: ("meteor swarm",),
}
"""The wizard's spells by level, prepared in turn (SRD 3.5 sorcerer/wizard list). 6th-9th: the ``high-level-spells``
fix (:data:`LEGACY_HIGHEST_SPELL_LEVEL`); greater dispel magic (6th) is left out: the party has no use for it that
the model plays (monsters' buffs are few)."""
CLERIC_ROTATION: dict[int, tuple[str, ...]] = {
    1: ("cure light wounds", "bless", "shield of faith"),
    2: ("cure moderate wounds", "hold person"),
    3: ("cure serious wounds", "searing light"),
    4: ("cure critical wounds",),
    5: ("flame strike",),
    6: ("heal", "harm", "blade barrier"),
    7: ("destruction", "mass cure serious wounds"),
    8: ("fire storm", "mass cure critical wounds"),
    9: ("mass heal",),
}
"""The cleric's spells by level, prepared in turn (SRD 3.5 cleric list); 6th-9th as the wizard's. Implosion (9th)
is left out: it needs concentration round after round, which the model does not play."""
DOMAINS = ("Luck", "Healing")
DOMAIN_SPELLS: dict[str, dict[int, str]] = {
    "d20": {
        1: "cure light wounds",
        2: "cure moderate wounds",
        3: "cure serious wounds",
        4: "cure critical wounds",
        5: "flame strike",
    },
    "3d6": {
        1: "cure light wounds",
        2: "cure moderate wounds",
        3: "auspicious odds",
        4: "cure critical wounds",
        5: "mass auspicious odds",
    },
}
HEALING_DOMAIN_HIGH = {6: "heal", 7: "regenerate", 8: "mass cure critical wounds", 9: "mass heal"}
"""SRD Healing domain 6th-9th: heal, regenerate, mass cure critical wounds, mass heal. The Luck domain's 6th-9th
(mislead, spell turning, moment of prescience, miracle) are not modelled, so the domain slot holds the Healing
spell under every die."""
for _domain in DOMAIN_SPELLS.values():
    _domain.update(HEALING_DOMAIN_HIGH)
HIGHEST_SUPPORTED_SPELL_LEVEL = 9
LEGACY_HIGHEST_SPELL_LEVEL = 5
"""Before the ``high-level-spells`` fix the rotations stopped at 5th: higher slots held the best 5th-level spell
(cone of cold, flame strike) and the cleric's domain slots 6th-9th flame strike."""


@cache
def _progressions() -> dict:
    text = resources.files("arena.data").joinpath("srd35_class_progressions.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def class_row(cls: str, level: int) -> tuple[int, int, int, int, tuple[int, ...]]:
    """(BAB, base Fort, base Ref, base Will, spells per day 0..9) from the SRD table."""
    row = _progressions()["levels"][cls][level]
    return row[0], row[1], row[2], row[3], tuple(row[4]) if len(row) > 4 else ()


def hit_die(cls: str) -> int:
    return int(_progressions()["hit_die"][cls])


def die_hit_points(hd: int, level: int, rule: str = "average") -> int:
    """The hit die's points for levels 2..``level`` (1st level is the maximum, not included): ``"average"``
    (hd+1)/2 a level, the halves adding up (floor((level-1) x (hd+1)/2)); ``"rounded-up"`` ceil((hd+1)/2) a level."""
    per_level = (hd + 1) / 2 if rule == "average" else math.ceil((hd + 1) / 2)
    return math.floor((level - 1) * per_level)


def bonus_spells(modifier: int, spell_level: int) -> int:
    """SRD Table: Ability Modifiers and Bonus Spells: one slot of level s for a modifier of s, +1 per 4 more."""
    if spell_level < 1 or modifier < spell_level:
        return 0
    return (modifier - spell_level) // 4 + 1


def iteratives(first: int, bab: int) -> tuple[int, ...]:
    """SRD: an extra attack at -5 for every 5 points of BAB above +1 (max four from BAB)."""
    n = max(1, min(4, (bab - 1) // 5 + 1))
    return tuple(first - 5 * i for i in range(n))


def class_feats(cls: str, level: int) -> tuple[str, ...]:
    """The feats a generated PC of ``cls`` has at ``level`` (:data:`FEATS`), in the order taken."""
    return tuple(f for lv, feats in sorted(FEATS[cls].items()) if level >= lv for f in feats)


def check_level(level: int) -> int:
    """``level``, if it is a party level (1-20); else an ArenaError."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ArenaError(f"party level must be 1-20, not {level!r}")
    return level
