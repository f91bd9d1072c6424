"""The SRD spell tables the importer sorts a monster's spells by: the levels of the spells the engine casts, the
spells that do nothing in an arena fight, and the sorcerer's tables a true dragon casts by, with the spells the engine
chooses for it.
"""

from __future__ import annotations

import re

from arena.world.spellbook import PARTY_ONLY, SPELLS

SPELL_LEVELS = {
    "magic missile": 1,
    "sleep": 1,
    "color spray": 1,
    "scorching ray": 2,
    "hold person": 3,
    "fireball": 3,
    "lightning bolt": 3,
    "ice storm": 4,
    "cone of cold": 5,
    "flame strike": 5,
    "searing light": 3,
    "cure light wounds": 1,
    "cure moderate wounds": 2,
    "cure serious wounds": 3,
    "cure critical wounds": 4,
    "bless": 1,
    "shield of faith": 1,
    "invisibility": 2,
    "darkness": 2,
    "fog cloud": 2,
    "obscuring mist": 1,
    "charm person": 1,
    "charm monster": 4,
    "suggestion": 3,
    "daze": 0,
    "cause fear": 1,
    "scare": 2,
    "hold monster": 5,
    "deep slumber": 3,
    "ray of frost": 0,
    "web": 2,
    "entangle": 1,
    "dispel magic": 3,
    "sound burst": 2,
    "lullaby": 0,
    "stinking cloud": 3,
    "aid": 2,
    "neutralize poison": 4,
    "acid arrow": 2,
    "faerie fire": 1,
    "ray of enfeeblement": 1,
    "blur": 2,
    "command": 1,
    "gust of wind": 2,
    "chain lightning": 6,
    "call lightning": 3,
    "wind wall": 3,
}
"""SRD 3.5 levels of the spells the engine casts (sorcerer/wizard where it is one, else cleric), for a spell-like
ability whose DC the SRD does not give."""

UTILITY: tuple[str, ...] = (
    r"detect \w+(?: \w+)?",
    "see invisibility",
    "true seeing",
    "read magic",
    "comprehend languages",
    "tongues",
    r"speak with \w+",
    "locate object",
    "locate creature",
    "message",
    "ghost sound",
    "mage hand",
    "prestidigitation",
    "light",
    "dancing lights",
    "continual flame",
    "arcane mark",
    "mending",
    "make whole",
    "open/close",
    "purify food and drink",
    "create food and water",
    "create water",
    "create/destroy water",
    "endure elements",
    "pass without trace",
    "water breathing",
    "water walk",
    "air walk",
    "wind walk",
    "feather fall",
    "levitate",
    "fly",
    "spider climb",
    "tree shape",
    "tree stride",
    "plant growth",
    "control weather",
    "control winds",
    "control water",
    "hallucinatory terrain",
    "mirage arcana",
    "veil",
    "clairaudience/clairvoyance",
    "commune",
    "commune with nature",
    "contact other plane",
    "divination",
    "legend lore",
    "scrying",
    "greater scrying",
    "augury",
    "identify",
    "analyze dweomer",
    "nondetection",
    "misdirection",
    "alter self",
    "disguise self",
    "change self",
    r"polymorph(?: \(self only\))?",
    "teleport",
    "greater teleport",
    "teleport object",
    "dimension door",
    "plane shift",
    "ethereal jaunt",
    "etherealness",
    "astral projection",
    "shadow walk",
    "know direction",
    "find the path",
    "discern location",
    "sending",
    "geas/quest",
    "geas",
    "foresight",
    "guidance",
    "resistance",
    "virtue",
    "cure minor wounds",
    "mage armor",
    "zone of truth",
    "calm animals",
    "animal messenger",
    "hold portal",
    "knock",
    "unseen servant",
    "obscure object",
    "magic aura",
    "nystul's magic aura",
    "rope trick",
    "secret page",
    "sepia snake sigil",
    "illusory script",
    "magic mouth",
    "alarm",
    "forbiddance",
    "hallow",
    "unhallow",
    "consecrate",
    "desecrate",
    "gentle repose",
    "deathwatch",
    "status",
    "find traps",
    "word of recall",
    "refuge",
    "move earth",
    "stone shape",
    "transmute rock to mud",
    "transmute mud to rock",
    "transmute rock to mud/mud to rock",
    "soften earth and stone",
    "wood shape",
    "speak with dead",
    "gaseous form",
    "expeditious retreat",
    "remove curse",
    "magic circle against evil",
    "protection from evil",
)
"""Spells that do nothing in an arena fight: senses and divinations (the party is in plain sight), languages,
travel and movement (the arena is a flat field, and a monster that flees is not a fight), disguises and
self-only shape changes (no statistics change in the model), light, weather and earth shaping, wards and
long-lasting protections cast beforehand (their numbers are already in the block: mage armor, endure elements),
and cantrips of a point of damage or healing. Gaseous form is a way out of a fight (its subject "can't attack or
cast spells" and drifts at fly 10 ft.), as teleport and dimension door are, and the model has no fleeing;
expeditious retreat only raises speed, which the model (no grid) does not use; remove curse ends curses, and
nothing in the model curses (no bestow curse, no lycanthropy or mummy rot is modelled); magic circle against evil
and protection from evil ward against evil creatures, and the party is not evil (as for the magic circle a creature
has as a quality: their +2 on AC and saves and their barrier never apply, and the party casts no mental control
they would block)."""

SPELL_CLASSES = {
    "cast": "the engine casts it",
    "no effect": "nothing in an arena fight",
    "ignored": "matters in a fight, the engine does not cast it",
}

SORCERER_PER_DAY = {
    1: (5, 3),
    2: (6, 4),
    3: (6, 5),
    4: (6, 6, 3),
    5: (6, 6, 4),
    6: (6, 6, 5, 3),
    7: (6, 6, 6, 4),
    8: (6, 6, 6, 5, 3),
    9: (6, 6, 6, 6, 4),
    10: (6, 6, 6, 6, 5, 3),
    11: (6, 6, 6, 6, 6, 4),
    12: (6, 6, 6, 6, 6, 5, 3),
    13: (6, 6, 6, 6, 6, 6, 4),
    14: (6, 6, 6, 6, 6, 6, 5, 3),
    15: (6, 6, 6, 6, 6, 6, 6, 4),
    16: (6, 6, 6, 6, 6, 6, 6, 5, 3),
    17: (6, 6, 6, 6, 6, 6, 6, 6, 4),
    18: (6, 6, 6, 6, 6, 6, 6, 6, 5, 3),
    19: (6, 6, 6, 6, 6, 6, 6, 6, 6, 4),
    20: (6,) * 10,
}
"""SRD 3.5 Table: The Sorcerer, spells per day by spell level 0-9 (before bonus spells)."""
SORCERER_KNOWN = {
    1: (4, 2),
    2: (5, 2),
    3: (5, 3),
    4: (6, 3, 1),
    5: (6, 4, 2),
    6: (7, 4, 2, 1),
    7: (7, 5, 3, 2),
    8: (8, 5, 3, 2, 1),
    9: (8, 5, 4, 3, 2),
    10: (9, 5, 4, 3, 2, 1),
    11: (9, 5, 5, 4, 3, 2),
    12: (9, 5, 5, 4, 3, 2, 1),
    13: (9, 5, 5, 4, 4, 3, 2),
    14: (9, 5, 5, 4, 4, 3, 2, 1),
    15: (9, 5, 5, 4, 4, 4, 3, 2),
    16: (9, 5, 5, 4, 4, 4, 3, 2, 1),
    17: (9, 5, 5, 4, 4, 4, 3, 3, 2),
    18: (9, 5, 5, 4, 4, 4, 3, 3, 2, 1),
    19: (9, 5, 5, 4, 4, 4, 3, 3, 3, 2),
    20: (9, 5, 5, 4, 4, 4, 3, 3, 3, 3),
}
"""SRD 3.5 Table: Sorcerer Spells Known, by spell level 0-9."""
DRAGON_SPELLS: dict[int, tuple[str, ...]] = {
    0: ("daze", "ray of frost"),
    1: ("magic missile", "charm person", "cause fear", "color spray", "sleep"),
    2: ("scorching ray", "web", "invisibility", "scare"),
    3: ("fireball", "hold person", "suggestion", "lightning bolt", "dispel magic"),
    4: ("ice storm", "charm monster"),
    5: ("cone of cold", "hold monster"),
}
"""A true dragon's sorcerer spells known, the engine's choice: the SRD gives the dragon's sorcerer level ("A dragon
knows and casts arcane spells as a sorcerer of the level indicated in its variety description, gaining bonus
spells for a high Charisma score") and leaves the spells to the DM, as it does a PC sorcerer's; the engine picks,
at each level, the first of its own sorcerer/wizard spells in this order (damage first, then the spells that take
a foe out of the fight), as the generated wizard's rotation does. The other cantrips a sorcerer knows (detect
magic, read magic ...) do nothing in a fight. Slots above 5th, where the engine casts no sorcerer spell, hold the
spells known of the highest level below (the SRD lets a caster use a higher-level slot for a lower-level spell);
a sorcerer casts spontaneously, which the model reads as its slots filled in turn with its spells known."""

_UTILITY = re.compile("|".join(f"(?:{p})" for p in UTILITY))
"""Any spell of :data:`UTILITY`, the whole name: ``detect evil``, ``speak with animals``."""


def spell_class(name: str) -> str:
    """``cast``, ``no effect`` or ``ignored`` for a spell's name (lowercase, parentheses removed)."""
    if name in SPELLS and name not in PARTY_ONLY:
        return "cast"
    if _UTILITY.fullmatch(name):
        return "no effect"
    return "ignored"
