"""The SRD's words and numbers that the importer's readers share, each defined once: the dice pattern (and the
patterns built from it with f-strings), the sizes and types, ability and save names, number words, energy
types, and the one :func:`singular`.

A reader's own sentence patterns live beside the reader, each with the SRD sentence it reads; what two readers
both read is here. The pieces are strings, not compiled patterns, because every reader puts them inside its own
sentence (``rf"paralyzed for ({AMOUNT}) (round|minute|hour)s?"``).
"""

from __future__ import annotations

from typing import get_args

from arena.world.stat_types import SIZES, CreatureType

DIE = r"d\d+"
"""The die of a roll: ``d6``."""
ROLL = rf"\d+{DIE}"
"""A roll of dice, no modifier: ``1d4`` (``once every 1d4 rounds``)."""
DICE = rf"{ROLL}(?:\s*[+-]\s*\d+)?"
"""Dice with a modifier, the SRD's damage: ``2d6+9`` (``Rend 2d6+9``), ``1d8 - 1``. The one dice pattern: every
other is built from it or from :data:`ROLL`."""
AMOUNT = rf"(?:{DICE}|\d+)"
"""Dice or a plain number: ``1d4+1`` (``paralyzed for 1d4+1 rounds``), ``10`` (``sickened for 10 rounds``)."""
TERM = rf"\d+(?:{DIE})?"
"""One term of a sum of damage, dice or a number: ``2d6``, ``3`` (the terms of ``2d6+1d8+3``)."""

ORDINAL = r"(\d+)(?:st|nd|rd|th)"
"""An ordinal, its number in the group: ``6th`` (``Caster level 6th``, ``6th-Level Ranger``)."""

SIZE_WORDS: tuple[str, ...] = SIZES
"""The nine sizes of SRD 3.5, smallest first (the order the size modifiers are listed in): the stat-block model's."""
SIZE_ROW_WORDS = (*SIZE_WORDS, "greater", "elder")
"""The rows of a family's table by size: the sizes, and the elementals' ``Greater`` and ``Elder`` (``Fire
Elemental, Greater``)."""
TYPE_WORDS: tuple[str, ...] = get_args(CreatureType)
"""The creature types of SRD 3.5 (``Large Giant``, ``Medium Monstrous Humanoid``): the stat-block model's."""

ABILITY_KEYS = {
    "str": "str",
    "strength": "str",
    "dex": "dex",
    "dexterity": "dex",
    "con": "con",
    "constitution": "con",
    "int": "int",
    "intelligence": "int",
    "wis": "wis",
    "wisdom": "wis",
    "cha": "cha",
    "charisma": "cha",
}
"""An ability's name, short or long, as its key (``Strength`` and ``Str`` are ``str``)."""
ABILITY = r"(Str|Dex|Con|Int|Wis|Cha|Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma)\b"
"""An ability's name, short or long, in a group: ``1d6 Str``, ``2d6 Constitution``."""

SAVE = r"(Fortitude|Reflex|Will)"
"""A save's name in a group: ``DC 13 Fortitude``, ``Reflex DC 17 half``."""
SAVE_KEYS = {"fortitude": "fort", "fort": "fort", "reflex": "ref", "will": "will"}
"""A save's name (lowercase) as the stat block's key."""

ENERGY = r"(fire|cold|acid|electricity|sonic)"
"""The five energy types of a damage rider, in a group: ``plus 1d6 fire``."""
ENERGY_WORDS = {
    "fire": "fire",
    "cold": "cold",
    "acid": "acid",
    "electricity": "electricity",
    "electrical": "electricity",
    "lightning": "electricity",
    "sonic": "sonic",
    "force": "force",
    "negative energy": "negative",
    "positive energy": "positive",
    "holy": "positive",
}
"""The words of a damage's energy as the model's damage type (``lightning`` is electricity)."""

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "once": 1,
    "twice": 2,
}
"""Numbers the SRD writes as words (``gains two negative levels``, ``throw a web eight times per day``)."""
TIMES = {"once": 1, "twice": 2, "three times": 3, "four times": 4, "five times": 5}
"""How often, in words: ``Once per day``, ``three times per day``."""

IRREGULAR_PLURALS = {"hooves": "hoof", "dretches": "dretch", "hezrous": "hezrou"}
"""Plurals of the SRD's attack and creature names that :func:`singular`'s rules do not make (``4d10 dretches``,
``1d4 hezrous``)."""


def singular(word: str) -> str:
    """The singular of an attack's or a creature's name, as the SRD's plurals make it: ``claws`` -> ``claw``,
    ``hooves`` -> ``hoof``, ``2d10 lemures`` -> ``2d10 lemure``, ``bearded devils`` -> ``bearded devil``; a word of
    three letters or fewer, or ending in ``ss``, ``us`` or ``is`` (``octopus``) is kept."""
    word = word.strip().lower()
    for plural, single in IRREGULAR_PLURALS.items():
        if word.endswith(plural):
            return word[: -len(plural)] + single
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word
