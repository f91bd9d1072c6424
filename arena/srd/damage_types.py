"""The damage types of an attack by its name: the SRD 3.5 natural weapons (``claw``: piercing and slashing) and
weapons (``morningstar``: bludgeoning and piercing) a stat block names, found in a name however it is dressed
(``Huge +1 flaming greatsword``), and the energy of a damage's words (``1d6 fire``)."""

from __future__ import annotations

import re

from arena.srd.patterns import ENERGY_WORDS, singular
from arena.srd.text import drop_parens

NATURAL_DAMAGE_TYPES: dict[str, tuple[str, ...]] = {
    # SRD 3.5 "Natural Weapons": bite (bludgeoning, piercing and slashing), claw or talon (piercing and slashing),
    # gore (piercing), slap or slam (bludgeoning), sting (piercing), tentacle (bludgeoning)
    "bite": ("bludgeoning", "piercing", "slashing"),
    "claw": ("piercing", "slashing"),
    "talon": ("piercing", "slashing"),
    "rake": ("piercing", "slashing"),
    "gore": ("piercing",),
    "horn": ("piercing",),
    "tusk": ("piercing", "slashing"),
    "sting": ("piercing",),
    "stinger": ("piercing",),
    "tail sting": ("piercing",),
    "spike": ("piercing",),
    "quill": ("piercing",),
    "slam": ("bludgeoning",),
    "slap": ("bludgeoning",),
    "tail slap": ("bludgeoning",),
    "tail": ("bludgeoning",),
    "wing": ("bludgeoning",),
    "hoof": ("bludgeoning",),
    "stamp": ("bludgeoning",),
    "tentacle": ("bludgeoning",),
    "arm": ("bludgeoning",),
    "fist": ("bludgeoning",),
    "ram": ("bludgeoning",),
    "butt": ("bludgeoning",),
    "head butt": ("bludgeoning",),
    "pincer": ("bludgeoning",),
    "pincers": ("bludgeoning",),
    "snake": ("bludgeoning", "piercing", "slashing"),
    "tongue": ("bludgeoning",),
    "unarmed strike": ("bludgeoning",),
    "rock": ("bludgeoning",),
    "hair": ("bludgeoning",),
    "tendril": ("bludgeoning",),
    "foreclaw": ("piercing", "slashing"),
    "rake claw": ("piercing", "slashing"),
    "crush": ("bludgeoning",),
    "trample": ("bludgeoning",),
    "swarm": ("bludgeoning", "piercing", "slashing"),
    "beak": ("piercing",),
    "mandible": ("piercing", "slashing"),
    "leg": ("bludgeoning",),
    "lash": ("bludgeoning",),
    "bite attack": ("bludgeoning", "piercing", "slashing"),
}
"""Damage types of natural attacks (SRD 3.5 Monster Manual, Natural Weapons)."""

WEAPON_DAMAGE_TYPES: dict[str, tuple[str, ...]] = {
    **{
        w: ("slashing",)
        for w in (
            "longsword",
            "greatsword",
            "scimitar",
            "falchion",
            "battleaxe",
            "greataxe",
            "handaxe",
            "dwarven waraxe",
            "waraxe",
            "glaive",
            "guisarme",
            "kukri",
            "sickle",
            "whip",
            "throwing axe",
            "bastard sword",
            "sword",
            "axe",
            "orc double axe",
            "double axe",
            "two-bladed sword",
            "scythe blade",
            "sword of",
            "saber",
            "holy avenger",
            "greatscimitar",
            "vorpal",
        )
    },
    **{
        w: ("piercing",)
        for w in (
            "longspear",
            "spear",
            "shortspear",
            "trident",
            "javelin",
            "short sword",
            "rapier",
            "lance",
            "ranseur",
            "pick",
            "heavy pick",
            "light pick",
            "dart",
            "shuriken",
            "longbow",
            "shortbow",
            "composite longbow",
            "composite shortbow",
            "bow",
            "crossbow",
            "light crossbow",
            "heavy crossbow",
            "hand crossbow",
            "repeating crossbow",
            "arrow",
            "spiked chain",
            "punching dagger",
            "gnome hooked",
            "hooked hammer",
            "barbs",
            "harpoon",
            "spiked gauntlet",
        )
    },
    **{
        w: ("bludgeoning",)
        for w in (
            "flail",
            "heavy flail",
            "light flail",
            "dire flail",
            "mace",
            "heavy mace",
            "light mace",
            "club",
            "greatclub",
            "quarterstaff",
            "warhammer",
            "light hammer",
            "hammer",
            "maul",
            "sling",
            "sap",
            "gauntlet",
            "bolas",
            "staff",
            "sling bullet",
            "throwing hammer",
            "gnome hooked hammer",
        )
    },
    "morningstar": ("bludgeoning", "piercing"),
    "dagger": ("piercing", "slashing"),
    "halberd": ("piercing", "slashing"),
    "scythe": ("piercing", "slashing"),
    "chain": ("piercing", "slashing"),
    "bardiche": ("slashing",),
}
"""Damage types of the SRD 3.5 weapons a stat block names."""

WORD_DAMAGE = re.compile(r"\bdamage\b")
"""The word ``damage`` in a rider (``1d6 fire damage``)."""
NOT_THE_NAME = re.compile(
    r"\b(masterwork|mwk|huge|large|gargantuan|colossal|small|tiny|medium|flaming|frost|shock|"
    r"keen|unholy|holy|axiomatic|anarchic|burst|icy|thundering|wounding|vorpal|defending|"
    r"speed|greater|lesser|dancing|returning|cold iron|silver|adamantine|alchemical|"
    r"incorporeal|primary|secondary|flurry of|with|spiked)\b"
)
"""Words of an attack's name that are not what it is: ``masterwork``, ``flaming``, ``Huge`` (``Huge flaming
greatsword`` is a greatsword)."""
ENHANCED_NAME = re.compile(r"^[+]\d+\s+")
"""A name's enhancement bonus: ``+1 longsword``."""


def damage_types_of(name: str) -> tuple[tuple[str, ...], bool]:
    """(damage types, known) of an attack's name; unknown names are guessed bludgeoning."""
    base = ENHANCED_NAME.sub("", name.lower())
    base = " ".join(NOT_THE_NAME.sub(" ", drop_parens(base, "")).split())
    for table in (NATURAL_DAMAGE_TYPES, WEAPON_DAMAGE_TYPES):
        for key in (base, singular(base)):
            if key in table:
                return table[key], True
    words = base.split()
    for n in range(len(words), 0, -1):
        for start in range(0, len(words) - n + 1):
            phrase = " ".join(words[start : start + n])
            for table in (WEAPON_DAMAGE_TYPES, NATURAL_DAMAGE_TYPES):
                for key in (phrase, singular(phrase)):
                    if key in table:
                        return table[key], True
    return ("bludgeoning",), False


def is_natural(name: str) -> bool:
    """Whether an attack's name is a natural weapon's (``claws``, ``bite``)."""
    return name in NATURAL_DAMAGE_TYPES or singular(name) in NATURAL_DAMAGE_TYPES


FINESSE_WEAPONS = frozenset(
    {
        "rapier",
        "whip",
        "spiked chain",
        "chain",
        "dagger",
        "punching dagger",
        "short sword",
        "shortsword",
        "light mace",
        "light hammer",
        "light pick",
        "handaxe",
        "sickle",
        "kukri",
        "kama",
        "nunchaku",
        "sai",
        "siangham",
        "sap",
        "gauntlet",
        "spiked gauntlet",
        "unarmed strike",
        "throwing axe",
    }
)
"""The weapons Weapon Finesse applies to (SRD 3.5: "With a light weapon, rapier, whip, or spiked chain"): the
rapier, whip and spiked chain and the light weapons of the SRD's weapon table a stat block names."""


def finesse_weapon(name: str) -> bool:
    """Whether Weapon Finesse applies to an attack of this name: a natural weapon (SRD 3.5 Weapon Finesse: "Natural
    weapons are considered light weapons"), or a light weapon, rapier, whip or spiked chain (``+1 rapier``)."""
    if is_natural(name):
        return True
    base = ENHANCED_NAME.sub("", name.lower())
    base = " ".join(w for w in drop_parens(base, "").split() if w not in {"masterwork", "mwk"})
    words = base.split()
    phrases = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
    return any(p in FINESSE_WEAPONS or singular(p) in FINESSE_WEAPONS for p in phrases)


def energy_of(text: str) -> str | None:
    """The energy of a damage's words: ``fire`` and ``fire damage`` are fire, ``lightning`` electricity."""
    t = WORD_DAMAGE.sub("", text.lower().strip().rstrip(".")).strip()
    return ENERGY_WORDS.get(t)
