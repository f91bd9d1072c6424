"""The SRD 3.5 class tables the generated party is built from (base attack, saves and spells per day by level, hit
dice, from ``arena/data/srd35_class_progressions.yaml``), and the party's class choices: ability arrays, feats by
level, spell rotations and domains. Every assumption is listed in :mod:`arena.world.party`'s docstring."""

from __future__ import annotations

import math
import re
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
    # SRD 3.5 "Experience and Level-Dependent Benefits": a feat at 1st, 3rd, 6th, 9th, 12th, 15th, 18th; a human's
    # bonus feat at 1st; the fighter's bonus feats (1st, 2nd and every even level, from the fighter bonus feat list)
    # and the wizard's (5th, 10th, 15th, 20th: metamagic, item creation or Spell Mastery); the wizard's Scribe
    # Scroll at 1st. Each level's feats in the order: the level's feat, the human feat, the class's bonus feat(s).
    "fighter": {
        1: ("Improved Initiative", "Power Attack", "Weapon Focus (longsword)"),
        2: ("Dodge",),
        3: ("Iron Will",),
        4: ("Weapon Specialization (longsword)",),
        6: ("Lightning Reflexes", "Cleave"),
        8: ("Improved Critical (longsword)",),
        9: ("Great Fortitude",),
        10: ("Greater Weapon Focus (longsword)",),
        12: ("Toughness", "Greater Weapon Specialization (longsword)"),
        14: ("Great Cleave",),
        15: ("Combat Reflexes",),
        16: ("Improved Sunder",),
        18: ("Blind-Fight", "Improved Bull Rush"),
        20: ("Improved Shield Bash",),
    },
    "cleric": {
        1: ("Improved Initiative", "Toughness"),
        3: ("Lightning Reflexes",),
        6: ("Weapon Focus (morningstar)",),
        9: ("Combat Casting",),
        12: ("Extra Turning",),
        15: ("Quicken Spell",),
        18: ("Empower Spell",),
    },
    "rogue": {
        1: ("Weapon Finesse", "Improved Initiative"),
        3: ("Weapon Focus (rapier)",),
        6: ("Dodge",),
        9: ("Iron Will",),
        12: ("Toughness",),
        15: ("Great Fortitude",),
        18: ("Lightning Reflexes",),
    },
    "wizard": {
        1: ("Improved Initiative", "Toughness", "Scribe Scroll"),
        3: ("Spell Focus (evocation)",),
        5: ("Craft Wand",),
        6: ("Greater Spell Focus (evocation)",),
        9: ("Lightning Reflexes",),
        10: ("Empower Spell",),
        12: ("Spell Penetration",),
        15: ("Greater Spell Penetration", "Quicken Spell"),
        18: ("Iron Will",),
        20: ("Maximize Spell",),
    },
}
"""The feats each generated PC takes, by the level it takes them. Legacy ``class-features`` (the former table,
:data:`LEGACY_FEATS`) gave the fighter two feats at 8th and 10th's Toughness (not a fighter bonus feat), one feat at
6th and 12th, none after 12th; the cleric, rogue and wizard no feat after 6th, 12th and 9th, nor the wizard's
bonus feats."""
LEGACY_FEATS: dict[str, dict[int, tuple[str, ...]]] = {
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
NOT_MODELLED_FEATS = (
    "Power Attack",
    "Scribe Scroll",
    "Cleave",
    "Great Cleave",
    "Combat Reflexes",
    "Improved Sunder",
    "Blind-Fight",
    "Improved Bull Rush",
    "Improved Shield Bash",
    "Combat Casting",
    "Extra Turning",
    "Quicken Spell",
    "Empower Spell",
    "Maximize Spell",
    "Craft Wand",
    "Spell Penetration",
    "Greater Spell Penetration",
)
"""Feats taken but without effect in a fight here: no metamagic, item creation, turning, extra attacks of
opportunity, cleaving, sundering, bull rush or shield bash is modelled, nor Combat Casting (no defensive casting)
or Spell Penetration (not added to the caster level check against spell resistance)."""

ROGUE_SPECIAL_ABILITIES: dict[int, str] = {
    10: "improved evasion",
    13: "defensive roll",
    16: "crippling strike",
    19: "slippery mind",
}
"""SRD 3.5 rogue: "On attaining 10th level, and at every three levels thereafter (13th, 16th, and 19th), a rogue
gains a special ability of her choice from among the following options" (crippling strike, defensive roll,
improved evasion, opportunist, skill mastery, slippery mind, feat). The generated rogue's choices, as a player
would take them for a fight: improved evasion first (modelled), then defensive roll (modelled), crippling strike
and slippery mind (not modelled: see :data:`NOT_MODELLED_FEATURES`)."""

NOT_MODELLED_FEATURES: dict[str, str] = {
    "trapfinding": "the arena has no traps and no searching",
    "trap sense": "its bonus on Reflex saves and AC is against traps only, and the arena has none",
    "crippling strike": "2 points of Strength damage per sneak attack hit: not modelled yet",
    "slippery mind": "a second save a round after failing one against an enchantment: the engine keeps no "
    "retry of a failed save",
    "turn undead": "the cleric never turns undead: a turning check and its turning damage are not modelled",
    "spontaneous casting": "no prepared spell is swapped for a cure spell (the rotation prepares cures)",
    "summon familiar": "the wizard has no familiar: a familiar stays out of the fight, and what it grants its "
    "master (Alertness, a skill bonus) changes no number a fight uses",
}
"""The class features of the four classes that a fight does not model, and why."""

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


def class_special(cls: str) -> dict[int, tuple[str, ...]]:
    """The Special column of the SRD table of ``cls``: level -> its entries, lowercase (``("sneak attack +2d6",
    "trap sense +1")``); levels with none are left out."""
    column = _progressions()["special"].get(cls) or {}
    return {int(lv): tuple(e.strip().lower() for e in text.split(",")) for lv, text in column.items()}


SCALED = re.compile(r"^(sneak attack|trap sense) \+")
"""The entries a later level raises (``sneak attack +3d6`` replaces ``+2d6``)."""


def feature_name(feature: str) -> str:
    """A class feature without its number: ``trap sense +3`` -> ``trap sense``."""
    scaled = SCALED.match(feature)
    return scaled.group(1) if scaled else feature


def class_features(cls: str, level: int) -> tuple[str, ...]:
    """The class features a generated PC of ``cls`` has at ``level``, from the SRD table's Special column up to
    ``level``: a raised one at its latest value (``sneak attack +5d6``), the rogue's "special ability" as chosen
    (:data:`ROGUE_SPECIAL_ABILITIES`); bonus feats are in :func:`class_feats` (Scribe Scroll too); the cleric's
    spontaneous casting and domains (SRD cleric text, not the table) follow its turning."""
    features: list[str] = []
    for lv, entries in sorted(class_special(cls).items()):
        if lv > level:
            break
        for entry in entries:
            if entry in ("bonus feat", "scribe scroll"):
                continue
            if entry == "special ability":
                entry = ROGUE_SPECIAL_ABILITIES[lv]
            elif entry == "turn or rebuke undead":
                entry = "turn undead"  # a good cleric turns undead
            scaled = SCALED.match(entry)
            if scaled:
                features = [f for f in features if not f.startswith(scaled.group(1) + " +")]
            features.append(entry)
    if cls == "cleric":  # the class text's other features: spontaneous casting, two domains
        features += ["spontaneous casting", *(f"{d.lower()} domain" for d in DOMAINS)]
    return tuple(features)


def class_feats(cls: str, level: int, legacy: bool = False) -> tuple[str, ...]:
    """The feats a generated PC of ``cls`` has at ``level`` (:data:`FEATS`, or :data:`LEGACY_FEATS`), in the order
    taken."""
    table = LEGACY_FEATS if legacy else FEATS
    return tuple(f for lv, feats in sorted(table[cls].items()) if level >= lv for f in feats)


def check_level(level: int) -> int:
    """``level``, if it is a party level (1-20); else an ArenaError."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ArenaError(f"party level must be 1-20, not {level!r}")
    return level
