"""Who a monster spell can affect: shared by a monster's choice of spell (:mod:`arena.combat.tactics.monster_caster`)
and the spells themselves (:mod:`arena.combat.monster_spells`), which cannot import each other's neighbours."""

from __future__ import annotations

from arena.combat.combatant import Combatant
from arena.world.spellbook import Spell

MONSTER_SPELL_NAMES = frozenset(
    {
        "invisibility",
        "darkness",
        "fog cloud",
        "obscuring mist",
        "charm person",
        "charm monster",
        "suggestion",
        "daze",
        "cause fear",
        "scare",
        "hold monster",
        "ray of frost",
        "web",
        "entangle",
        "dispel magic",
        "deep slumber",
        "sound burst",
        "lullaby",
        "stinking cloud",
        "aid",
        "neutralize poison",
        "acid arrow",
        "ray of enfeeblement",
        "faerie fire",
        "blur",
        "command",
        "gust of wind",
        "chain lightning",
        "call lightning",
        "wind wall",
    }
)
"""The spells :mod:`arena.combat.monster_spells` casts (:func:`arena.combat.spells.cast` sends them there)."""
CONDITION_OF = {
    "charm person": "panicked",
    "charm monster": "panicked",
    "suggestion": "panicked",
    "daze": "dazed",
    "cause fear": "panicked",
    "scare": "panicked",
    "hold monster": "held",
    "web": "entangled",
    "entangle": "entangled",
    "invisibility": "invisible",
    "darkness": "obscured",
    "fog cloud": "obscured",
    "obscuring mist": "obscured",
    "deep slumber": "asleep",
    "lullaby": "drowsy",
    "stinking cloud": "nauseated",
    "aid": "aided",
    "faerie fire": "outlined",
    "ray of enfeeblement": "enfeebled",
    "blur": "blurred",
    "command": "dazed",
    "gust of wind": "prone",
    "wind wall": "walled",
}
"""The condition each spell puts on its targets (a target already under it is not worth the spell): a charmed,
suggested or frightened creature is out of the fight but not helpless, the model's ``panicked``."""
UNDEAD_OR_CONSTRUCT = ("undead", "construct")
SIZE_ORDER = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal")
SMALL = SIZE_ORDER.index("small")


def affects(spell: Spell, target: Combatant) -> bool:
    """Can ``spell`` (a monster spell) do anything to ``target``: its type (humanoid, living),
    its Hit Dice, its immunities (mind-affecting, fear, sleep, paralysis), and not already under it."""
    template = target.t
    if spell.mind and "mind-affecting" in template.immunities:
        return False
    if spell.only == "humanoid" and not template.humanoid:
        return False
    if spell.only == "living" and template.type in UNDEAD_OR_CONSTRUCT:
        return False
    if spell.max_hd and template.hd > spell.max_hd:
        return False
    name = spell.name
    if name in ("cause fear", "scare") and "fear" in template.immunities:
        return False
    if name == "hold monster" and "paralysis" in template.immunities:
        return False
    if name == "deep slumber" and "sleep" in template.immunities:
        return False
    conditions = target.conditions
    if name == "faerie fire":  # it only outlines what an invisibility or a blur hides
        return ("invisible" in conditions or "blurred" in conditions) and "outlined" not in conditions
    if name == "gust of wind":  # it knocks down only the Small and smaller, and not the prone
        return SIZE_ORDER.index(template.creature.size) <= SMALL and not target.prone
    return not (conditions and CONDITION_OF.get(name) in conditions)
