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
from arena.combat.model import ModelFlags
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
}
"""Cure spells: 1d8+CL max +5, 2d8 max +10, 3d8 max +15, 4d8 max +20."""
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
AREA_DAMAGE_CAP = {"fireball": 10, "lightning bolt": 10, "cone of cold": 15, "flame strike": 15}
"""d6 per caster level, to this many dice."""
CONCENTRATION_DC = 10
"""SRD 3.5 Concentration: DC 10 + damage dealt, for damage taken while casting a spell of a round or more."""
CURE_DICE = {name: parse(f"{cure.d8s}d8") for name, cure in CURE.items()}


def spell_dc(fight: ModelFlags, caster: Combatant, spell_name: str, level: int) -> int:
    """10 + spell level + the casting ability's modifier, +1 for each Spell Focus and Greater Spell Focus in the
    spell's school (SRD 3.5 feats; the ``spell-focus`` fix)."""
    dc = caster.t.spell_dc_base + level
    if fight.fix_spell_focus and caster.t.spell_focus:
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
AREA_DAMAGE_TYPE = {"fireball": FIRE, "lightning bolt": ELECTRICITY, "cone of cold": COLD, "flame strike": FIRE}
BLUDGEONING_SPELL = frozenset({"bludgeoning", "magic"})
"""Ice storm's hailstones: bludgeoning from a spell, which damage reduction does not stop (SRD: DR does not apply
to spells)."""
