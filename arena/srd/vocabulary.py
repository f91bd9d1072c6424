"""The importer's vocabulary of special attacks and qualities: what each SRD ability is (its key), and whether
the fight engine models it (``modelled``), it does nothing in an arena fight (``no effect``), or it matters in a
fight and the engine does not model it yet (``ignored``).

The vocabulary is kept by hand, not read from the engine (the importer imports nothing of ``arena.combat``): an
ability's entry (``Darkvision 60 ft.``, ``Improved grab``) is reduced to its name (:func:`entry_name`) and looked up
by its key or the patterns beside it (:func:`key_in`). Each pattern is a name as the SRD writes it, a regular
expression only where the SRD writes one ability several ways (``low-? ?light vision``, ``(wild|bear) empathy``).
"""

from __future__ import annotations

import re
from typing import get_args

from arena.srd.patterns import DICE, ENERGY_WORDS
from arena.srd.text import Cell, clean, drop_parens, is_dash, top_level_split
from arena.world.stat_types import DrOvercome

# --------------------------------------------------------------------------------------------- the vocabulary
NO_EFFECT: dict[str, tuple[str, ...]] = {
    # key: patterns (regular expressions on the lowercase name, numbers and parentheses removed)
    "darkvision": ("darkvision",),
    "low-light vision": (r"low-? ?light vision", "superior low-light vision", "superior lowlight vision"),
    "scent": ("scent", "keen scent"),
    "blindsight": ("blindsight",),
    "blindsense": ("blindsense",),
    "tremorsense": ("tremorsense",),
    "see in darkness": ("see in darkness",),
    "keen senses": ("keen senses",),
    "all-around vision": ("all-around vision", "all around vision"),
    "lifesense": ("lifesense",),
    "electricity sense": ("electricity sense",),
    "true seeing": ("true seeing",),
    "see invisibility": ("see invisibility",),
    "detect": (r"detect \w+", "detect thoughts"),
    "telepathy": ("telepathy",),
    "tongues": ("tongues",),
    "speak with animals": (r"speak with \w+",),
    "empathy": (r"(wild|bear|boar|wolf|rat|tiger|animal) empathy",),
    "hold breath": ("hold breath",),
    "amphibious": ("amphibious",),
    "water breathing": ("water breathing",),
    "aquatic": ("aquatic subtype",),
    "water dependent": ("water dependent", "tree dependent", "freshwater sensitivity"),
    "light sensitivity": (
        "light sensitivity",
        "light blindness",
        "aversion to daylight",
        r"(daylight|sunlight) powerlessness",
        "vulnerability to sunlight",
    ),
    "unnatural aura": ("unnatural aura",),
    "alternate form": ("alternate form", "change shape", "mimic shape", "change size", "shapechanger"),
    "mimicry": ("mimicry", "sound imitation", "babble"),
    "tracking": ("improved tracking", "track"),
    "trap sense": ("trap sense",),
    "favored enemy": (r"favored enemy.*",),
    "guarded thoughts": ("guarded thoughts",),
    "travel": (
        "plane shift",
        "teleport",
        "dimension door",
        "astral projection",
        "planewalk",
        "etherealness",
        "ethereal jaunt",
        "earth glide",
        "shadow shift",
        "find target",
        "find master",
        "flight",
        "freshwater",
        "spider climb",
        "water walk",
        "rush",
        "sprint",
        "leap",
        "jet",
        "ink cloud",
        "gaseous form",
        "smoke form",
        "greater teleport",
    ),
    "rock catching": ("rock catching",),
    "hive mind": ("hive mind",),
    "stability": ("stability", "can't be tripped"),
    "mindless": ("mindless",),
    "amorphous": ("amorphous",),
    "elemental endurance": ("elemental endurance",),
    "transparent": ("transparent", "camouflage"),
    "turn resistance": ("turn resistance",),
    "turn undead": ("turn undead", "rebuke undead", "command undead"),
    "create spawn": ("create spawn",),
    "curse of lycanthropy": ("curse of lycanthropy",),
    "aquatic subtype": ("aquatic subtype",),
    "disease": (
        "disease",
        "mummy rot",
        "ghoul fever",
        "filth fever",
        "demon fever",
        "devil chills",
        "red ache",
        "slimy doom",
    ),
    "racial traits": (r"(dwarf|elven|elf|gnome|halfling|drow|duergar|svirfneblin|orc|half-orc|human) traits",),
    "oversized weapon": ("oversized? weapon", r"superior two.?weapon( fighting)?", "superior two", "rock throwing"),
    "double damage against objects": ("double damage against objects",),
    "feed": ("feed",),
    "single actions only": ("single actions only",),
    "water mastery": ("water mastery", "air mastery"),
    "make whole": ("make whole",),
    "inhabit": ("inhabit",),
    "dream haunting": ("dream haunting",),
    "shield guardian's amulet": ("find master", "guard"),
    "dominated creature": ("dominated creature",),
    "sunlight vulnerability": ("sunlight vulnerability",),
    "paladin abilities": ("paladin abilities",),
    "resistance to charm": ("resistance to charm",),
    "unearthly grace": (),
    "summon familiar": ("summon familiar",),
    "light": ("daylight", "blinding beauty"),
    "natural armor": ("natural armor",),
    "flaming hooves": ("flaming hooves",),
    "shield other": ("shield other",),
    "skills": ("skills",),
    "none": ("none", "see text", "also see text", "see below"),
    "utility spell-like abilities": (
        "locate object",
        "create/destroy water",
        "create water",
        "ventriloquism",
        "hallucinatory terrain",
        "veil",
        "mirage arcana",
        "plant growth",
        "corrupt water",
        "find the path",
        "discern location",
        "endure elements",
        "create food and water",
        "detect gems",
        "control water",
        "control weather",
        "control winds",
        "move earth",
        "geas/quest",
        "feather fall",
        "icewalking",
        "cloudwalking",
        "luck bonus",
        "charm reptiles",
        "command plants",
        "woodland stride",
        "trackless step",
        "speak with plants",
        "tree shape",
        "tree stride",
        "dancing lights",
        "clairaudience/clairvoyance",
        "levitate",
        "commune with nature",
        "pass without trace",
        "foresight",
    ),
}
"""Abilities with no effect in an arena fight (senses, languages, travel, racial trait lists that only shift a
skill, abilities whose numbers are already in the block)."""

IGNORED: dict[str, tuple[str, ...]] = {
    "spell-like abilities": (
        r"spell-? ?like abilit(y|ies)",
        "psionics",
        "greater invisibility",
        "darkness",
        "charm person",
        "dominate monster",
        "cure serious wounds",
        "animate objects",
        "animate trees",
        "stone shape",
        "entangle",
        "haste",
        "slow",
        "charm",
        "dimensional anchor",
        "magic circle against evil",
        "magic circle against good",
        "sleep",
        "enslave",
        "suggestion",
        "dominate person",
        "insect plague",
        "fog cloud",
        "gust of wind",
        "freezing fog",
        "wall of ice",
        "wall of stone",
        "sunburst",
        "reverse gravity",
        "bless",
        "transmute rock to mud/mud to rock",
        "transmute rock to mud",
        "deep slumber",
        "faerie fire",
        "dispel magic",
        "scare",
        "vampiric touch",
    ),
    "spells": ("spells", "spell", "arcane spells", "divine spells"),
    "incorporeal": ("incorporeal traits", "incorporeal", "incorporeal subtype"),
    "swarm": ("swarm traits", "swarm subtype", r"swarm \(automatic hit.*"),
    "distraction": ("distraction",),
    "breath weapon": ("breath weapon",),
    "damage reduction (a and b)": (),
    "immunity to magic": ("immunity to magic",),
    "ferocity": ("ferocity",),
    "vortex": ("vortex",),
    "acid": ("acid",),
    "natural invisibility": ("natural invisibility",),
    "immune to weapon damage": ("immune to weapon damage", "immunity to weapon damage"),
}
"""Abilities that matter in a fight and the engine does not model yet, grouped where they are one mechanic
(the key is what the coverage counts)."""
KNOWN_IGNORED = frozenset(
    {
        "stampede",
        "flaming body",
        "fiery aura",
        "combustion",
        "corrosive slime",
        "spit",
        "spittle",
        "protective slime",
        "slime",
        "rust",
        "melt weapons",
        "rend armor",
        "crush item",
        "protective aura",
        "desecrating aura",
        "aura of evil",
        "dark blessing",
        "aura of despair",
        "unnerving gaze",
        "evasion",
        "uncanny dodge",
        "invisible in light",
        "shadow blend",
        "blink",
        "death throes",
        "explosion",
        "cursed wound",
        "wounding",
        "infernal wound",
        "moan",
        "howl",
        "shriek",
        "trumpet",
        "stunning screech",
        "gibbering",
        "destructive harmonics",
        "sonic lance",
        "trill",
        "fiddle",
        "kiss",
        "madness",
        "stun",
        "dance of ruin",
        "tail sweep",
        "earth mastery",
        "push",
        "drench",
        "capsize",
        "ground manipulation",
        "freeze",
        "impale",
        "quills",
        "spikes",
        "barbed defense",
        "beard",
        "dancing chains",
        "positive energy lash",
        "stunning shock",
        "lethal shock",
        "fists of thunder and lightning",
        "special arrows",
        "vorpal sword",
        "implant",
        "trap essence",
        "resilient",
        "carapace",
        "spell deflection",
        "freedom of movement",
        "protection from sonics",
        "half damage from slashing and piercing",
        "magic drain",
        "snatch",
        "drag",
        "strands",
        "adhesive",
        "black cloud",
        "mucus cloud",
        "spores",
        "weakness",
        "enervation ray",
        "poison use",
        "smoke claws",
    }
)
"""Abilities the importer knows that matter in a fight, each its own key."""

MODELLED_KEYS = (
    "damage reduction",
    "spell resistance",
    "regeneration",
    "fast healing",
    "energy resistance",
    "immunity",
    "vulnerability",
    "type traits",
    "trip",
    "breath weapon",
    "sneak attack",
    "energy damage",
    "augmented critical",
)

TRAITS = {
    "undead traits": "undead",
    "construct traits": "construct",
    "elemental traits": "elemental",
    "plant traits": "plant",
    "ooze traits": "ooze",
    "vermin traits": "vermin",
    "dragon traits": "dragon",
}

IMMUNITY_WORDS = {
    "fire": "fire",
    "cold": "cold",
    "acid": "acid",
    "electricity": "electricity",
    "sonic": "sonic",
    "poison": "poison",
    "disease": "disease",
    "sleep": "sleep",
    "sleep effects": "sleep",
    "magic sleep": "sleep",
    "paralysis": "paralysis",
    "stunning": "stunning",
    "mind-affecting effects": "mind-affecting",
    "mind-affecting spells and abilities": "mind-affecting",
    "mind-affecting": "mind-affecting",
    "critical hits": "critical hits",
    "death effects": "death effects",
    "ability damage": "ability damage",
    "ability drain": "ability drain",
    "energy drain": "energy drain",
    "polymorph": "polymorph",
    "nonlethal damage": "nonlethal damage",
    "necromancy effects": "necromancy",
    "fatigue": "fatigue",
    "exhaustion": "exhaustion",
    "sneak attacks": "sneak attack",
    "sneak attack": "sneak attack",
    "flanking": "flanking",
    "maze": "maze",
}
"""Immunities the model carries (:data:`arena.world.stat_types.Effect` and damage types)."""
IMMUNITY_NO_EFFECT = {
    "petrification",
    "charm",
    "charm effects",
    "fear",
    "transformation",
    "gaze attacks",
    "visual effects",
    "illusions",
    "blindness",
    "deafness",
    "dazing",
    "confusion",
    "daze",
    "cold iron",
    "mind reading",
    "scrying",
    "detection",
    "ethereal",
}
"""Immunities to things no arena fight does to a monster (the party casts no petrification, charm or fear)."""
IMMUNITY_IGNORED = {
    "magic": "immunity to magic",
    "compulsion": "immunity to compulsion",
    "weapon damage": "immune to weapon damage",
}


DR_WORDS = frozenset(get_args(DrOvercome))
"""What overcomes damage reduction in the model (``DR 10/magic``, ``DR 5/cold iron``)."""

_COMPILED: dict[int, dict[str, re.Pattern[str]]] = {}


def add_ignored(key: str, names: tuple[str, ...]) -> None:
    """Add an ability that matters in a fight to :data:`IGNORED` (an ability module's names, through
    :func:`arena.srd.effects.add_reading`, which reads it)."""
    IGNORED[key] = names
    _COMPILED.pop(id(IGNORED), None)


def key_in(name: str, table: dict[str, tuple[str, ...]]) -> str | None:
    """The key of ``table`` (:data:`NO_EFFECT`, :data:`IGNORED`) that ``name`` (an :func:`entry_name`) is: the key
    itself, or a name its patterns match whole."""
    compiled = _COMPILED.get(id(table))
    if compiled is None:
        compiled = _COMPILED[id(table)] = {
            key: re.compile("|".join(f"(?:{p})" for p in patterns) or r"(?!)") for key, patterns in table.items()
        }
    return next((key for key, rx in compiled.items() if name == key or rx.fullmatch(name)), None)


ENTRY_DICE = re.compile(rf"[+]?(?<!\d){DICE}")
"""Dice in an entry, left out of its name: ``Rend 2d6+9``."""
ENTRY_NUMBER = re.compile(r"[+-]?\d+(?:/\w[\w -]*)?")
"""A number in an entry, and what follows a slash, left out: ``darkvision 60``, ``DR 10/magic``."""
FEET_WORD = re.compile(r"\b(ft|feet)\b\.?")
"""A length's unit: ``60 ft.``."""
LEADING_AND_OR = re.compile(r"^\s*(and|or)\s+")
"""A list's last entry: ``and scent``, ``and fire 10``."""
PLUS_OR_END = re.compile(r"\s+plus\s+|\s+or\s*$")
"""Where a name ends: ``bite plus poison``, ``web or``."""
TRAILING_AND_OR = re.compile(r"\s+(or|and)\s*$")
"""A conjunction the cell's end cut from its next entry: ``spells and``."""


def entry_name(text: str) -> str:
    """An ability's entry as the name the vocabulary knows: lowercase, without its numbers, parentheses and units
    (``Darkvision 60 ft.`` -> ``darkvision``, ``Frightful presence (DC 21)`` -> ``frightful presence``, ``Rend
    2d6+9`` -> ``rend``)."""
    t = drop_parens(clean(text).lower(), " ")
    t = ENTRY_DICE.sub(" ", t)
    t = ENTRY_NUMBER.sub(" ", t)
    t = FEET_WORD.sub(" ", t)
    t = " ".join(t.replace("*", " ").replace("’", "'").split())  # one space: "\s+(or|and)" rescans no run
    t = LEADING_AND_OR.sub("", t)
    t = PLUS_OR_END.split(t)[0]
    t = TRAILING_AND_OR.sub("", t)
    return " ".join(t.strip(" .,;:").split())


# --------------------------------------------------------------------------------------------- the cells' entries
ENERGY_ALT = "|".join(ENERGY_WORDS)
"""Any energy's words, for a resistance list: ``resistance to cold 10, fire 10``."""
RESISTED = re.compile(rf"^({ENERGY_ALT})\s+\d+$")
"""An entry that continues a resistance list: ``fire 10`` of ``resistance to cold 10, fire 10``."""
LISTED = re.compile(r",|\band\b")
"""Between the items of a list: ``fire, poison, and ability damage``."""


def split_items(cell: Cell | None) -> list[str]:
    """The entries of a Special Attacks / Special Qualities cell, immunity and resistance lists kept together."""
    if cell is None or is_dash(cell.text):
        return []
    out: list[str] = []
    for part in top_level_split(clean(cell.text), (",", ";")):
        part = part.strip().rstrip(".")
        if not part or is_dash(part):
            continue
        bare = LEADING_AND_OR.sub("", part.lower()).strip()
        last = out[-1].lower() if out else ""
        immunity = (
            bare in IMMUNITY_WORDS
            or bare in IMMUNITY_NO_EFFECT
            or bare in IMMUNITY_IGNORED
            or bare.split(" and ")[0] in IMMUNITY_WORDS
        )
        if (last.startswith(("immunity to", "immune to")) and immunity) or (
            last.startswith(("resistance to", "resist")) and RESISTED.match(bare)
        ):
            out[-1] = f"{out[-1]}, {part}"
            continue
        out.append(part)
    return out


def listed(text: str) -> list[str]:
    """``fire, poison, and ability damage`` -> the items."""
    return [p for part in LISTED.split(text) if (p := part.strip().strip(".").strip())]
