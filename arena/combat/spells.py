"""The spells the engine supports, with the SRD 3.5 numbers, and what each does when cast.

Every saving throw and spell resistance check goes through the fight's `save()` / `gets_through()`, which use the
rules kernel, so players roll all the dice turns a PC's spell into a magic check and a monster's spell against a
PC into the PC's own save. Damage goes through the fight's `deal()` (resistances, immunities, regeneration).

Areas are abstract (no grid): an area spell catches half the enemies it is aimed at plus one, up to the cap its
area makes plausible (:data:`AREA_CAPS`); the caster aims it so it never catches allies.
"""

from __future__ import annotations

from arena.dice import parse
from arena.rules import Check
from arena.world.spellbook import AREA_CAPS, SPELLS, Spell, area_count

__all__ = ["AREA_CAPS", "SPELLS", "Spell", "area_count", "cast", "complete_casting", "spell_dc"]

ROUND = 6.0
"""Seconds in a combat round."""


CURE = {"cure light wounds": (1, 5), "cure moderate wounds": (2, 10), "cure serious wounds": (3, 15),
        "cure critical wounds": (4, 20)}
"""Cure spells: d8s and the cap on the caster-level bonus (1d8+CL max +5, 2d8 max +10, 3d8 max +15, 4d8 max +20)."""
SLEEP_HD = 4
"""Sleep affects 4 Hit Dice of creatures, those of 5 HD or more not at all."""
DEEP_SLUMBER_HD = 10
"""SRD deep slumber: "This spell functions like sleep, except that it affects 10 HD of creatures"."""
MAGIC_MISSILE = parse("1d4+1")
"""Each missile: 1d4+1 force; one missile per two caster levels above 1st (max 5)."""
SCORCHING_RAY = parse("4d6")
"""Each ray: 4d6 fire; one ray, two at 7th level, three at 11th."""
ICE_STORM = (parse("3d6"), parse("2d6"))
"""Ice storm: 3d6 bludgeoning and 2d6 cold, no save."""
AREA_DAMAGE_CAP = {"fireball": 10, "lightning bolt": 10, "cone of cold": 15, "flame strike": 15}
"""d6 per caster level, to this many dice."""
CONCENTRATION_DC = 10
"""SRD 3.5 Concentration: DC 10 + damage dealt, for damage taken while casting a spell of a round or more."""
CURE_DICE = {name: parse(f"{count}d8") for name, (count, _cap) in CURE.items()}


def _d6(n: int):
    return parse(f"{max(1, n)}d6")


def spell_dc(fight, caster, spell_name: str, level: int) -> int:
    """10 + spell level + the casting ability's modifier, +1 for each Spell Focus and Greater Spell Focus in the
    spell's school (SRD 3.5 feats; the ``spell-focus`` fix)."""
    dc = caster.t.spell_dc_base + level
    if fight.fix_spell_focus and caster.t.spell_focus:
        dc += caster.t.spell_focus.get(SPELLS[spell_name].school, 0)
    return dc


def cast(fight, caster, spell_name: str, level: int, targets: list, begun: bool = False) -> None:
    """Cast ``spell_name`` (from a slot of ``level``) at ``targets``. A spell whose casting time is one round
    (sleep, under the model's ``sleep_casting: full-round``) begins now and takes effect at the caster's next turn
    (:func:`complete_casting`, which calls this again with ``begun``)."""
    if not begun:
        fight.note_cast(caster, spell_name, targets)
        if spell_name == "sleep" and fight.sleep_full_round:
            caster.casting = (spell_name, level, targets, caster.hp)
            caster.afflicted = True
            if fight.lines is not None:
                fight.log(f"{caster.name} begins casting {spell_name} (1 round)", actor=caster.name,
                          action="begin-cast", spell=spell_name, targets=[t.name for t in targets])
            return
    cl = caster.t.caster_level
    dc = spell_dc(fight, caster, spell_name, level)
    if spell_name == "magic missile":
        target = targets[0]
        if fight.gets_through(caster, target):
            missiles = min(5, (cl + 1) // 2)
            fight.deal(caster, target, sum(MAGIC_MISSILE.roll(fight.stream) for _ in range(missiles)), FORCE)
    elif spell_name == "scorching ray":
        rays = 1 + (cl >= 7) + (cl >= 11)
        through: dict[int, bool] = {}     # spell resistance: once per target and spell (``sr-once``)
        for _ in range(rays):
            target = fight.pick_target(caster, spell=True) if not fight.can_target(targets[0]) else targets[0]
            if target is None:
                continue
            passes = through.get(target.uid) if target.t.sr else True
            if passes is None:
                passes = fight.gets_through(caster, target)
                if fight.fix_sr_once:
                    through[target.uid] = passes
            if passes:
                fight.ray(caster, target, SCORCHING_RAY, FIRE)
    elif spell_name == "searing light":
        target = targets[0]
        if fight.gets_through(caster, target):
            if target.t.type == "undead":
                dice = _d6(min(10, cl))
            elif target.t.type == "construct":
                dice = _d6(min(5, cl // 2))
            else:
                dice = parse(f"{max(1, min(5, cl // 2))}d8")
            fight.ray(caster, target, dice, DIVINE)
    elif spell_name in AREA_DAMAGE_CAP:
        dice = _d6(min(cl, AREA_DAMAGE_CAP[spell_name]))
        types = AREA_DAMAGE_TYPE[spell_name]
        rolled = dice.roll(fight.stream) if fight.area_roll_once else None     # one roll for everyone caught
        for target in targets:
            if fight.gets_through(caster, target):
                fight.area_damage(caster, target, dice, types, "ref", dc, half_divine=spell_name == "flame strike",
                                  rolled=rolled)
    elif spell_name == "ice storm":
        once = (ICE_STORM[0].roll(fight.stream), ICE_STORM[1].roll(fight.stream)) if fight.area_roll_once else None
        for target in targets:
            if fight.gets_through(caster, target):
                hail, cold = once or (ICE_STORM[0].roll(fight.stream), ICE_STORM[1].roll(fight.stream))
                fight.deal(caster, target, hail, BLUDGEONING_SPELL)
                fight.deal(caster, target, cold, COLD)
    elif spell_name == "sleep":
        budget = SLEEP_HD
        for target in sorted(targets, key=lambda c: c.t.hd):
            if target.t.hd > budget or target.t.hd >= SLEEP_HD + 1:
                continue
            budget -= target.t.hd
            if fight.gets_through(caster, target) and not (
                    fight.sleep_save(target, dc, caster) if target.conditions and "drowsy" in target.conditions
                    else fight.save(target, "will", dc, caster).success):
                fight.add_condition(target, "asleep", cl * 10 * ROUND)
    elif spell_name == "color spray":
        for target in targets:
            if not fight.gets_through(caster, target):
                continue
            outcome = fight.save(target, "will", dc, caster)
            if outcome.success:
                continue
            worst = outcome.fumble and fight.fix_color_spray   # open-ended: a fumbled save, the longest durations
            hd = target.t.hd
            if hd <= 2:     # unconscious, blinded and stunned 2d4 rounds, then blinded and stunned 1d4, then 1
                out = 8 if worst else fight.roll("2d4")
                fight.add_condition(target, "knocked-out", out * ROUND)
                fight.add_condition(target, "stunned", (out + (4 if worst else fight.roll("1d4")) + 1) * ROUND)
            elif hd <= 4:   # blinded and stunned 1d4 rounds, then stunned 1 round
                fight.add_condition(target, "stunned", ((4 if worst else fight.roll("1d4")) + 1) * ROUND)
            else:           # stunned 1 round
                fight.add_condition(target, "stunned", ROUND)
    elif spell_name == "hold person":
        target = targets[0]
        if target.t.humanoid and fight.gets_through(caster, target) \
                and not fight.save(target, "will", dc, caster).success:
            fight.add_condition(target, "held", cl * ROUND, dc=dc)
    elif spell_name in CURE:
        if caster.t.healing_domain and fight.fix_healing_domain:
            cl += 1                      # SRD Healing domain: healing spells at +1 caster level
        amount = CURE_DICE[spell_name].roll(fight.stream) + min(cl, CURE[spell_name][1])
        for target in targets:
            if target.t.type == "undead":           # harmful to undead: spell resistance applies (SRD: "harmless"
                if not fight.gets_through(caster, target):     # protects only willing targets)
                    continue
                saved = fight.save(target, "will", dc, caster).success
                fight.deal(caster, target, amount // 2 if saved else amount, POSITIVE)
            else:
                fight.heal(target, amount)
    elif spell_name == "bless":
        for target in targets:
            fight.add_condition(target, "bless", cl * 10 * ROUND)
    elif spell_name == "shield of faith":
        fight.add_condition(targets[0], "shield of faith", cl * 10 * ROUND,
                            bonus=shield_of_faith_gain(fight, cl, targets[0]))
    elif spell_name == "auspicious odds":
        fight.add_condition(targets[0], "auspicious", cl * 10 * ROUND, caster=caster.uid)
    elif spell_name == "mass auspicious odds":
        for target in targets[:max(1, cl // 3)]:
            fight.add_condition(target, "auspicious", cl * ROUND, caster=caster.uid)
    else:                       # a monster's spell (invisibility, darkness, charm person ...): its own module
        fight.cast_monster(caster, spell_name, level, targets, begun)


def complete_casting(fight, caster) -> None:
    """A spell begun last round takes effect just before the caster's turn (SRD: casting time 1 round), unless
    the caster was hurt meanwhile and fails a Concentration check (DC 10 + the damage taken)."""
    spell_name, level, targets, hp_before = caster.casting
    caster.casting = None
    if not caster.is_able:
        return
    hurt = hp_before - caster.hp
    if hurt > 0:
        check = Check("skill", caster.side, caster.t.concentration, CONCENTRATION_DC + hurt, opponent=caster.side)
        if not fight.resolve(check, caster, None).success:
            if fight.lines is not None:
                fight.log(f"{caster.name} loses {spell_name}: hurt for {hurt} while casting, Concentration failed",
                          actor=caster.name, action="spell-lost", spell=spell_name, hurt=hurt)
            return
    targets = [t for t in targets if not t.dead]
    if targets:
        if fight.lines is not None:
            fight.log(f"{caster.name}'s {spell_name} takes effect", actor=caster.name, action="spell-takes-effect",
                      spell=spell_name, targets=[t.name for t in targets])
        cast(fight, caster, spell_name, level, targets, begun=True)


def shield_of_faith_gain(fight, cl: int, target) -> int:
    """What shield of faith adds to ``target``'s AC: +2, +1 per six caster levels (max +5), less the deflection
    bonus it already has (deflection bonuses do not stack: the ``deflection-stacking`` fix)."""
    bonus = min(5, 2 + cl // 6)
    if fight.fix_deflection:
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
