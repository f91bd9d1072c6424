"""The spells the engine supports, with the SRD 3.5 numbers: dice, caps, damage types, the save DC. Data and small
sums only, read by the parts that time, aim and resolve spells; what each spell does when cast is in
:mod:`arena.combat.casting` (above the attacks and damage it calls). A round's length is the fight's clock
(:mod:`arena.combat.clock`).

Areas are abstract (no grid): an area spell catches half the enemies it is aimed at plus one, up to the cap its
area makes plausible (:data:`AREA_CAPS`); the caster aims it so it never catches allies.
"""

from __future__ import annotations

from typing import NamedTuple

from arena.combat.combatant import Combatant
from arena.combat.flags import ModelFlags
from arena.dice import parse
from arena.world.spellbook import AREA_CAPS, SPELLS, Spell, area_count

__all__ = ["AREA_CAPS", "SPELLS", "Spell", "area_count", "spell_dc"]


class Cure(NamedTuple):
    """A cure spell: how many d8 it heals, and the cap on the caster-level bonus added to them."""

    d8s: int
    cap: int


CURE = {
    "cure light wounds": Cure(1, 5),
    "cure moderate wounds": Cure(2, 10),
    "cure serious wounds": Cure(3, 15),
    "cure critical wounds": Cure(4, 20),
    "regenerate": Cure(4, 35),
    "mass cure serious wounds": Cure(3, 35),
    "mass cure critical wounds": Cure(4, 40),
}
"""Cure spells: 1d8+CL max +5, 2d8 max +10, 3d8 max +15, 4d8 max +20. SRD regenerate: "also cures 4d8 points of
damage +1 point per caster level (maximum +35)" (the regrowing of limbs does not matter in a fight); SRD mass cure
serious wounds "3d8 points of damage +1 point per caster level (maximum +35)", mass cure critical wounds "4d8
points of damage +1 point per caster level (maximum +40)", "One creature/level, no two of which can be more than
30 ft. apart" (:data:`MASS_CURES`)."""
MASS_CURES = frozenset({"mass cure serious wounds", "mass cure critical wounds", "mass heal"})
"""Healing spells of one creature per caster level."""
HEAL_PER_LEVEL = 10
"""SRD heal: "cures 10 hit points of damage per level of the caster, to a maximum of 150 points at 15th level";
harm: "deals 10 points of damage per caster level (to a maximum of 150 points at 15th level)"."""
HEAL_CAP = {"heal": 150, "mass heal": 250, "harm": 150}
"""SRD mass heal: "as heal, except ... the maximum number of hit points restored to each creature is 250"."""
HEAL_ENDS = frozenset(
    {"blinded", "confused", "dazed", "dazzled", "deafened", "exhausted", "fatigued", "nauseated", "sickened", "stunned"}
)
"""SRD heal: "It immediately ends any and all of the following adverse conditions affecting the target: ability
damage, blinded, confused, dazed, dazzled, deafened, diseased, exhausted, fatigued, feebleminded, insanity,
nauseated, poisoned, sickened, and stunned" (the conditions of these the model names)."""
DISINTEGRATE_PER_LEVEL, DISINTEGRATE_MAX, DISINTEGRATE_SAVED = 2, 40, parse("5d6")
"""SRD disintegrate: "deals 2d6 points of damage per caster level (to a maximum of 40d6)"; "A creature or object
that makes a successful Fortitude save is partially affected, taking only 5d6 points of damage"; "Any creature
reduced to 0 or fewer hit points by this spell is entirely disintegrated"."""
FINGER_OF_DEATH_SAVED, FINGER_OF_DEATH_CAP = parse("3d6"), 25
"""SRD finger of death: "If the save succeeds, the victim instead takes 3d6 points of damage +1 point per caster
level (maximum +25)"."""
DESTRUCTION_SAVED = parse("10d6")
"""SRD destruction: "If the spell succeeds, the subject is slain ... If the save succeeds, the subject instead takes
10d6 points of damage"."""
POLAR_RAY_MAX = 25
"""SRD polar ray: "1d6 points of cold damage per caster level (maximum 25d6)", ranged touch, no save."""
METEOR_SPHERES, METEOR_FIRE, METEOR_STRIKE = 4, parse("6d6"), parse("2d6")
"""SRD meteor swarm: "four 2-foot-diameter spheres"; "If you aim a sphere at a specific creature, you may make a
ranged touch attack to strike the target with the meteor. Any creature struck by one of these spheres takes 2d6
points of bludgeoning damage (no save) and receives no saving throw against the sphere's fire damage"; each
"explodes in a 40-foot-radius spread, dealing 6d6 points of fire damage to each creature in the area"."""
CHAIN_LIGHTNING_MAX = 20
"""SRD chain lightning: 1d6 per caster level (maximum 20d6) to the primary target, half to up to one secondary
target per caster level (maximum 20)."""
SLEEP_HD = 4
"""Sleep affects 4 Hit Dice of creatures, those of 5 HD or more not at all."""
DEEP_SLUMBER_HD = 10
"""SRD deep slumber: "This spell functions like sleep, except that it affects 10 HD of creatures"."""
MAGIC_MISSILE = parse("1d4+1")
"""Each missile: 1d4+1 force; one missile per two caster levels above 1st (max 5)."""
SCORCHING_RAY = parse("4d6")
"""Each ray: 4d6 fire; one ray, two at 7th level, three at 11th."""
ICE_STORM_HAIL = parse("3d6")
"""Ice storm's hailstones: 3d6 bludgeoning, no save (:data:`BLUDGEONING_SPELL`)."""
ICE_STORM_COLD = parse("2d6")
"""Ice storm's cold: 2d6, no save."""
AREA_DAMAGE_CAP = {
    "fireball": 10,
    "lightning bolt": 10,
    "cone of cold": 15,
    "flame strike": 15,
    "delayed blast fireball": 20,
    "blade barrier": 15,
    "fire storm": 20,
}
"""d6 per caster level, to this many dice. SRD delayed blast fireball: "deals 1d6 points of fire damage per caster
level (maximum 20d6)"; blade barrier "1d6 points of damage per caster level (maximum 15d6)"; fire storm "1d6
points of fire damage per caster level (maximum 20d6)"; each Reflex half (blade barrier: :data:`SAVE_NEGATES`)."""
SAVE_NEGATES = frozenset({"blade barrier"})
"""SRD blade barrier: "If you evoke the barrier so that it appears where creatures are, each creature takes damage
as if passing through the wall. Each such creature can avoid the wall (ending up on the side of its choice) and
thus take no damage by making a successful Reflex save"."""
CONCENTRATION_DC = 10
"""SRD 3.5 Concentration: DC 10 + damage dealt, for damage taken while casting a spell of a round or more."""
CURE_DICE = {name: parse(f"{cure.d8s}d8") for name, cure in CURE.items()}


def spell_dc(flags: ModelFlags, caster: Combatant, spell_name: str, level: int) -> int:
    """10 + spell level + the casting ability's modifier, +1 for each Spell Focus and Greater Spell Focus in the
    spell's school (SRD 3.5 feats; the ``spell-focus`` fix)."""
    dc = caster.t.spell_dc_base + level
    if flags.fix_spell_focus and caster.t.spell_focus:
        dc += caster.t.spell_focus.get(SPELLS[spell_name].school, 0)
    return dc


def shield_of_faith_gain(fix_deflection: bool, cl: int, target: Combatant) -> int:
    """What shield of faith adds to ``target``'s AC: +2, +1 per six caster levels (max +5), less the deflection
    bonus it already has when deflection bonuses do not stack (``fix_deflection``: the fight model's
    ``deflection-stacking`` fix in force)."""
    bonus = min(5, 2 + cl // 6)
    if fix_deflection:
        bonus -= target.t.deflection
    return max(0, bonus)


FIRE = frozenset({"fire"})
COLD = frozenset({"cold"})
ELECTRICITY = frozenset({"electricity"})
FORCE = frozenset({"force"})
POSITIVE = frozenset({"positive"})
DIVINE = frozenset({"divine"})
"""Untyped divine damage (searing light, half of flame strike): no resistance applies."""
BLADES = frozenset({"slashing", "magic"})
"""Blade barrier's blades: slashing from a spell, which damage reduction does not stop."""
NEGATIVE = frozenset({"negative"})
UNTYPED: frozenset[str] = frozenset()
"""Damage of no type (disintegrate, finger of death, destruction): no resistance or immunity but to the spell."""
AREA_DAMAGE_TYPE = {
    "fireball": FIRE,
    "lightning bolt": ELECTRICITY,
    "cone of cold": COLD,
    "flame strike": FIRE,
    "delayed blast fireball": FIRE,
    "blade barrier": BLADES,
    "fire storm": FIRE,
}
BLUDGEONING_SPELL = frozenset({"bludgeoning", "magic"})
"""Ice storm's hailstones: bludgeoning from a spell, which damage reduction does not stop (SRD: DR does not apply
to spells)."""
