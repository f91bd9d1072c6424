"""What a creature is rather than what it does, read once the attacks are: incorporeality, an ooze's acid, constant
invisibility, freedom of movement, evasion, uncanny dodge; the abilities that do
nothing in an arena fight for a reason its text gives (:data:`NO_EFFECT_HERE`), a magic circle against evil, and an
immunity to compulsion that stands for one the model has.

Each reader is ``reader(reading, item)`` (or ``reader(reading)`` for a step over several abilities), run in order
by :mod:`arena.srd.effects`.
"""

from __future__ import annotations

import re

from arena.srd.context import Reading
from arena.srd.text import clean, search_chain

FLESH_ONLY = re.compile(r"dissolves only flesh|does not harm metal or stone")
"""An ooze's acid that harms only flesh: an ochre jelly's ``dissolves only flesh``."""
DISSOLVES_ARMOR = "armor and clothing dissolve"
DISSOLVES_WEAPON = (r"weapon ", r" dissolves")
"""A black pudding's, its parts in order: ``A metal or wooden weapon that strikes a black pudding also dissolves``."""
CONSTANT_INVISIBILITY = re.compile(r"remain invisible even when attacking|invisible in any area lit well enough")
"""An invisible stalker's ``allowing a stalker to remain invisible even when attacking``; a hellcat's ``invisible in
any area lit well enough for a human to see``."""
SUPPRESS = "can suppress"
"""A pixie's: ``can suppress or resume it as a free action``."""
CONTINUOUS_FREEDOM = "continuous freedom of movement ability as the spell"
"""``has a continuous freedom of movement ability as the spell``."""
EVASION = re.compile(r"successful Reflex save .* takes no damage")
"""``With a successful Reflex save against an attack that allows a Reflex save for half damage, a giant eagle takes
no damage``."""

UNCANNY_DODGE = re.compile(r"retains (?:his|her|its) Dex(?:terity)? bonus to AC")
"""``An ogre barbarian retains his Dex bonus to AC regardless of being caught flat-footed``; ``An astral deva retains
its Dexterity bonus to AC when flat-footed``."""
FLANKED_ONLY_BY = re.compile(r"cannot be flanked except by a rogue of at least (\d+)(?:st|nd|rd|th) level")
"""The astral deva's improved uncanny dodge: ``it cannot be flanked except by a rogue of at least 16th level``."""

NO_EFFECT_HERE: dict[str, tuple[str, str]] = {
    "push": (r"bull rush", "a bull rush pushes the foe back, and the arena has no squares to push it into"),
    "drench": (
        r"puts out torches",
        "it puts out flames and dispels magical fire it touches: the party's fire spells "
        "are instantaneous, and it carries no lasting fire",
    ),
    "vortex": (r"provided it is underwater", "only underwater, and the arena has no water"),
    "madness": (
        r"thought detection, mind control, or telepathic",
        "it harms those who read or control its mind, which the party never tries",
    ),
    "freeze": (r"appears to be a statue", "an ambush (a Spot check to see it); arena fights begin face to face"),
    "shriek": (r"attracts nearby creatures", "it calls other monsters to the noise; an arena fight has no others"),
    "howl": (r"for an hour or longer", "it takes an hour of listening, and a fight is over long before"),
    "resilient": (r"included in the statistics block", "its save bonus is already in the stat block's saves"),
    "spell storing": (
        r"cast into it by another creature",
        "it casts only a spell cast into it beforehand, and an arena fight begins with none stored",
    ),
}
"""Abilities that do nothing in an arena fight, for the reason given: each with the SRD's words that say so (a
pattern, so that an ability of the same name that does something stays ignored): a xorn's ``push``, a storm
giant's ... ``bull rush``."""
_NO_EFFECT_WORDS = {key: re.compile(words, re.IGNORECASE) for key, (words, _) in NO_EFFECT_HERE.items()}
"""The words of :data:`NO_EFFECT_HERE`, compiled."""


def incorporeal(ctx: Reading, item: dict) -> dict:
    ctx.mark(
        "incorporeal",
        "modelled",
        "incorporeal: only magic weapons, spells and incorporeal foes harm it, with a "
        "50% miss chance (force and positive energy always work)",
    )
    return {"incorporeal": True}


def acid(ctx: Reading, item: dict) -> dict:
    """An ooze's acid that its attacks already carry (``slam (2d4+3 plus 1d4 acid)``) and that harms only flesh (the
    ochre jelly's "dissolves only flesh", the gelatinous cube's "does not harm metal or stone"); one that dissolves
    armour and weapons (a black pudding's, a gray ooze's) stays ignored."""
    desc, text = ctx.text_of(item, "acid")
    carried = any(a.get("extra_damage_type") == "acid" for r in (ctx.data.get("attack") or []) for a in r)
    if not carried or not FLESH_ONLY.search(text) or (DISSOLVES_ARMOR in text or search_chain(text, *DISSOLVES_WEAPON)):
        return ctx.ignored(
            "acid",
            "its acid dissolves armour and weapons (not modelled)" if carried else "no acid damage on its attacks",
        )
    ctx.mark("acid", "modelled", "the acid damage rides on its attacks (extra_damage); it harms only flesh")
    return {}


def invisible(ctx: Reading, item: dict) -> dict:
    """Invisible all fight, even when attacking: the invisible stalker's ("This ability is constant, allowing a
    stalker to remain invisible even when attacking"), the phantom fungus's greater invisibility, the hellcat's
    ("invisible in any area lit well enough for a human to see": an arena is lit). A creature that can suppress it
    (a pixie's) or that only turns invisible when frightened (a will-o'-wisp's) is not."""
    key = item["key"]
    desc, text = ctx.text_of(item, key)
    if CONSTANT_INVISIBILITY.search(text) is None or SUPPRESS in text:
        return ctx.ignored(key, "an invisibility it can suppress or turns on when frightened (not modelled)")
    ctx.mark(
        key,
        "modelled",
        "invisible all fight, even when it attacks: total concealment (50% miss chance); its +2 "
        "and the foe's lost Dexterity bonus as an unseen attacker are left out",
    )
    return {"invisible": True}


def freedom(ctx: Reading, item: dict) -> dict:
    """``a continuous freedom of movement ability as the spell``: immune to paralysis and holds (the spell: "moving
    and attacking normally ... even under the influence of magic that usually impedes movement, such as paralysis,
    solid fog, slow, and web"); of the party's spells that is hold person."""
    desc, text = ctx.text_of(item, "freedom of movement")
    if CONTINUOUS_FREEDOM not in text:
        return ctx.ignored("freedom of movement", "its terms not read")
    ctx.mark(
        "freedom of movement",
        "modelled",
        "immunities: paralysis (freedom of movement: no hold or paralysis "
        "stops it; the party's webs and slows are none)",
    )
    return {"immunities": list(dict.fromkeys([*ctx.data.get("immunities", []), "paralysis"]))}


def evasion(ctx: Reading, item: dict) -> dict:
    """``With a successful Reflex save against an attack that allows a Reflex save for half damage, a giant eagle
    takes no damage``."""
    desc, text = ctx.text_of(item, "evasion")
    if text and not EVASION.search(text):
        return ctx.ignored("evasion", "not the SRD's evasion")
    ctx.mark("evasion", "modelled", "evasion: a made Reflex save against half damage takes none")
    return {"evasion": True}


def uncanny_dodge(ctx: Reading, item: dict) -> dict:
    """``An ogre barbarian retains his Dex bonus to AC regardless of being caught flat-footed or attacked by an
    invisible opponent``; the astral deva's also ``cannot be flanked except by a rogue of at least 16th level``
    (improved uncanny dodge: a rogue 4 levels above 12th). Its flanking "as if it were a 12th-level rogue" is not
    read (a monster flanks a rogue with improved uncanny dodge only by rogue class levels)."""
    desc, text = ctx.text_of(item, "uncanny dodge")
    if text and not UNCANNY_DODGE.search(text):
        return ctx.ignored("uncanny dodge", "not the SRD's uncanny dodge")
    fields: dict = {"uncanny_dodge": True}
    flanked = FLANKED_ONLY_BY.search(text or "")
    if flanked:
        fields["improved_uncanny_dodge"] = int(flanked.group(1)) - 4
    ctx.mark(
        "uncanny dodge",
        "modelled",
        "uncanny dodge: keeps its Dexterity bonus to AC when flat-footed (no sneak attack for that)"
        + (f"; flanked only by a rogue of level {flanked.group(1)}+" if flanked else ""),
    )
    return fields


def no_effect_here(ctx: Reading) -> dict:
    """The abilities of :data:`NO_EFFECT_HERE` whose entry says why they do nothing in an arena fight."""
    for key, (_, why) in NO_EFFECT_HERE.items():
        item = ctx.first(key)
        if item is not None and item["engine"] == "ignored" and _NO_EFFECT_WORDS[key].search(clean(item["text"])):
            ctx.mark(key, "no effect", why)
    return {}


def magic_circle(ctx: Reading, item: dict) -> dict:
    ctx.mark(
        "magic circle against evil",
        "no effect",
        "the party is not evil: the circle's +2 on AC and saves against evil creatures and its barrier against "
        "evil summoned creatures never apply, and the party casts no spell of ongoing mental control it blocks",
    )
    return {}


def immune_to_compulsion(ctx: Reading, item: dict) -> dict:
    """An immunity to compulsion is an immunity to sleep (the party's compulsions are sleep and hold person, and hold
    person affects only humanoids); a humanoid's is left out."""
    if ctx.data.get("type") == "humanoid":
        return ctx.ignored("immunity to compulsion", "a humanoid's immunity to hold person is not one the model has")
    ctx.mark(
        "immunity to compulsion",
        "modelled",
        "immunities: sleep; the party's compulsions are sleep and hold person, and hold person affects only humanoids",
    )
    return {"immunities": list(dict.fromkeys([*ctx.data.get("immunities", []), "sleep"]))}
