"""Casting a spell: what each of the party's spells does when cast (the SRD 3.5 numbers are in
:mod:`arena.combat.spells`), a spell of one round's casting time taking effect, and the monsters' own spells handed
to :mod:`arena.combat.monster_spells`.

Every saving throw and spell resistance check goes through the rolls part's ``save()`` / ``gets_through()``, which
use the rules kernel, so players roll all the dice turns a PC's spell into a magic check and a monster's spell
against a PC into the PC's own save. Damage goes through ``deal()`` (resistances, immunities, regeneration); a ray
is an attack roll (:func:`arena.combat.attacks.ray`).

Areas are abstract (no grid): an area spell catches half the enemies it is aimed at plus one, up to the cap its
area makes plausible (:data:`arena.world.spellbook.AREA_CAPS`); the caster aims it so it never catches allies.
"""

from __future__ import annotations

from arena.combat import monster_spells
from arena.combat.attacks import can_target, pick_target, ray
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.damage import area_damage, deal
from arena.combat.fight_state import FightState
from arena.combat.monster_spells import sleep_save
from arena.combat.rolls import gets_through, roll, save
from arena.combat.spells import (
    AREA_DAMAGE_CAP,
    AREA_DAMAGE_TYPE,
    BLUDGEONING_SPELL,
    COLD,
    CONCENTRATION_DC,
    CURE,
    CURE_DICE,
    DIVINE,
    FIRE,
    FORCE,
    ICE_STORM_COLD,
    ICE_STORM_HAIL,
    MAGIC_MISSILE,
    POSITIVE,
    SCORCHING_RAY,
    SLEEP_HD,
    shield_of_faith_gain,
    spell_dc,
)
from arena.combat.states import heal
from arena.dice import DiceExpr, parse
from arena.rules import Check


def note_cast(fight: FightState, caster: Combatant, spell: str, targets: list[Combatant]) -> None:
    """Count the cast in the caster's tally, and log it."""
    caster.tally.spells_cast += 1
    if fight.lines is not None:
        fight.log(
            f"{caster.name} casts {spell} on {', '.join(t.name for t in targets)}",
            actor=caster.name,
            action="cast",
            spell=spell,
            targets=[t.name for t in targets],
        )


def _d6(n: int) -> DiceExpr:
    return parse(f"{max(1, n)}d6")


def cast(
    fight: FightState, caster: Combatant, spell_name: str, level: int, targets: list[Combatant], begun: bool = False
) -> None:
    """Cast ``spell_name`` (from a slot of ``level``) at ``targets``. A spell whose casting time is one round
    (sleep, under the model's ``sleep_casting: full-round``) begins now and takes effect at the caster's next turn
    (:func:`complete_casting`, which calls this again with ``begun``)."""
    if not begun:
        note_cast(fight, caster, spell_name, targets)
        if spell_name == "sleep" and fight.sleep_full_round:
            caster.casting = (spell_name, level, targets, caster.hp)
            caster.afflicted = True
            if fight.lines is not None:
                fight.log(
                    f"{caster.name} begins casting {spell_name} (1 round)",
                    actor=caster.name,
                    action="begin-cast",
                    spell=spell_name,
                    targets=[t.name for t in targets],
                )
            return
    cl = caster.t.caster_level
    dc = spell_dc(fight, caster, spell_name, level)
    if spell_name == "magic missile":
        target = targets[0]
        if gets_through(fight, caster, target):
            missiles = min(5, (cl + 1) // 2)
            deal(fight, caster, target, sum(MAGIC_MISSILE.roll(fight.stream) for _ in range(missiles)), FORCE)
    elif spell_name == "scorching ray":
        rays = 1 + (cl >= 7) + (cl >= 11)
        through: dict[int, bool] = {}  # spell resistance: once per target and spell (``sr-once``)
        for _ in range(rays):
            target = pick_target(fight, caster, spell=True) if not can_target(fight, targets[0]) else targets[0]
            if target is None:
                continue
            passes = through.get(target.uid) if target.t.sr else True
            if passes is None:
                passes = gets_through(fight, caster, target)
                if fight.fix_sr_once:
                    through[target.uid] = passes
            if passes:
                ray(fight, caster, target, SCORCHING_RAY, FIRE)
    elif spell_name == "searing light":
        target = targets[0]
        if gets_through(fight, caster, target):
            if target.t.type == "undead":
                dice = _d6(min(10, cl))
            elif target.t.type == "construct":
                dice = _d6(min(5, cl // 2))
            else:
                dice = parse(f"{max(1, min(5, cl // 2))}d8")
            ray(fight, caster, target, dice, DIVINE)
    elif spell_name in AREA_DAMAGE_CAP:
        dice = _d6(min(cl, AREA_DAMAGE_CAP[spell_name]))
        types = AREA_DAMAGE_TYPE[spell_name]
        rolled = dice.roll(fight.stream) if fight.area_roll_once else None  # one roll for everyone caught
        for target in targets:
            if gets_through(fight, caster, target):
                area_damage(
                    fight,
                    caster,
                    target,
                    dice,
                    types,
                    "ref",
                    dc,
                    half_divine=spell_name == "flame strike",
                    rolled=rolled,
                )
    elif spell_name == "ice storm":
        once = (ICE_STORM_HAIL.roll(fight.stream), ICE_STORM_COLD.roll(fight.stream)) if fight.area_roll_once else None
        for target in targets:
            if gets_through(fight, caster, target):
                hail, cold = once or (ICE_STORM_HAIL.roll(fight.stream), ICE_STORM_COLD.roll(fight.stream))
                deal(fight, caster, target, hail, BLUDGEONING_SPELL)
                deal(fight, caster, target, cold, COLD)
    elif spell_name == "sleep":
        budget = SLEEP_HD
        for target in sorted(targets, key=lambda c: c.t.hd):
            if target.t.hd > budget or target.t.hd >= SLEEP_HD + 1:
                continue
            budget -= target.t.hd
            if gets_through(fight, caster, target) and not (
                sleep_save(fight, target, dc, caster)
                if target.conditions and "drowsy" in target.conditions
                else save(fight, target, "will", dc, caster).success
            ):
                add_condition(fight, target, "asleep", cl * 10 * ROUND)
    elif spell_name == "color spray":
        for target in targets:
            if not gets_through(fight, caster, target):
                continue
            outcome = save(fight, target, "will", dc, caster)
            if outcome.success:
                continue
            worst = outcome.fumble and fight.fix_color_spray  # open-ended: a fumbled save, the longest durations
            hd = target.t.hd
            if hd <= 2:  # unconscious, blinded and stunned 2d4 rounds, then blinded and stunned 1d4, then 1
                out = 8 if worst else roll(fight, "2d4")
                add_condition(fight, target, "knocked-out", out * ROUND)
                add_condition(fight, target, "stunned", (out + (4 if worst else roll(fight, "1d4")) + 1) * ROUND)
            elif hd <= 4:  # blinded and stunned 1d4 rounds, then stunned 1 round
                add_condition(fight, target, "stunned", ((4 if worst else roll(fight, "1d4")) + 1) * ROUND)
            else:  # stunned 1 round
                add_condition(fight, target, "stunned", ROUND)
    elif spell_name == "hold person":
        target = targets[0]
        if (
            target.t.humanoid
            and gets_through(fight, caster, target)
            and not save(fight, target, "will", dc, caster).success
        ):
            add_condition(fight, target, "held", cl * ROUND, dc=dc)
    elif spell_name in CURE:
        if caster.t.healing_domain and fight.fix_healing_domain:
            cl += 1  # SRD Healing domain: healing spells at +1 caster level
        amount = CURE_DICE[spell_name].roll(fight.stream) + min(cl, CURE[spell_name].cap)
        for target in targets:
            if target.t.type == "undead":  # harmful to undead: spell resistance applies (SRD: "harmless"
                if not gets_through(fight, caster, target):  # protects only willing targets)
                    continue
                saved = save(fight, target, "will", dc, caster).success
                deal(fight, caster, target, amount // 2 if saved else amount, POSITIVE)
            else:
                heal(fight, target, amount)
    elif spell_name == "bless":
        for target in targets:
            add_condition(fight, target, "bless", cl * 10 * ROUND)
    elif spell_name == "shield of faith":
        add_condition(
            fight,
            targets[0],
            "shield of faith",
            cl * 10 * ROUND,
            bonus=shield_of_faith_gain(fight.fix_deflection, cl, targets[0]),
        )
    elif spell_name == "auspicious odds":
        add_condition(fight, targets[0], "auspicious", cl * 10 * ROUND, caster=caster.uid)
    elif spell_name == "mass auspicious odds":
        for target in targets[: max(1, cl // 3)]:
            add_condition(fight, target, "auspicious", cl * ROUND, caster=caster.uid)
    else:  # a monster's spell (invisibility, darkness, charm person ...): its own module
        monster_spells.cast(fight, caster, spell_name, level, targets, begun)


def complete_casting(fight: FightState, caster: Combatant) -> None:
    """A spell begun last round takes effect just before the caster's turn (SRD: casting time 1 round), unless
    the caster was hurt meanwhile and fails a Concentration check (DC 10 + the damage taken)."""
    # Combatant.casting is typed None in combatant.py (its FRESH_STATE): cast() above put this tuple there.
    begun: tuple[str, int, list[Combatant], int] = caster.casting  # type: ignore[assignment]
    spell_name, level, targets, hp_before = begun
    caster.casting = None
    if not caster.is_able:
        return
    hurt = hp_before - caster.hp
    if hurt > 0:
        check = Check("skill", caster.side, caster.t.concentration, CONCENTRATION_DC + hurt, opponent=caster.side)
        if not fight.resolve(check, caster, None).success:
            if fight.lines is not None:
                fight.log(
                    f"{caster.name} loses {spell_name}: hurt for {hurt} while casting, Concentration failed",
                    actor=caster.name,
                    action="spell-lost",
                    spell=spell_name,
                    hurt=hurt,
                )
            return
    targets = [t for t in targets if not t.dead]
    if targets:
        if fight.lines is not None:
            fight.log(
                f"{caster.name}'s {spell_name} takes effect",
                actor=caster.name,
                action="spell-takes-effect",
                spell=spell_name,
                targets=[t.name for t in targets],
            )
        cast(fight, caster, spell_name, level, targets, begun=True)
