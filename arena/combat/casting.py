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
from arena.combat.attacks import can_target, pick_target, ray, touch_attack
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition, drop_condition
from arena.combat.damage import area_damage, deal
from arena.combat.fight_state import FightState
from arena.combat.monster_spells import SpellCast, sleep_save
from arena.combat.rolls import gets_through, resolve, roll, save
from arena.combat.spells import (
    AREA_DAMAGE_CAP,
    AREA_DAMAGE_TYPE,
    BLUDGEONING_SPELL,
    COLD,
    CONCENTRATION_DC,
    CURE,
    CURE_DICE,
    DESTRUCTION_SAVED,
    DISINTEGRATE_MAX,
    DISINTEGRATE_PER_LEVEL,
    DISINTEGRATE_SAVED,
    DIVINE,
    FINGER_OF_DEATH_CAP,
    FINGER_OF_DEATH_SAVED,
    FIRE,
    FORCE,
    HEAL_CAP,
    HEAL_ENDS,
    HEAL_PER_LEVEL,
    ICE_STORM_COLD,
    ICE_STORM_HAIL,
    MAGIC_MISSILE,
    MASS_CURES,
    METEOR_FIRE,
    METEOR_SPHERES,
    METEOR_STRIKE,
    NEGATIVE,
    POLAR_RAY_MAX,
    POSITIVE,
    SAVE_NEGATES,
    SCORCHING_RAY,
    SLEEP_HD,
    UNTYPED,
    shield_of_faith_gain,
    spell_dc,
)
from arena.combat.states import DEAD_AT, die, heal
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
    (:func:`complete_casting`, which calls this again with ``begun``). What the spell does is its function in
    :data:`PARTY_CASTS`, given the caster level and the save DC worked out here (in this order, before it); a spell
    the table does not name is a monster's, for :func:`arena.combat.monster_spells.cast`."""
    if not begun:
        note_cast(fight, caster, spell_name, targets)
        if spell_name == "sleep" and fight.flags.sleep_full_round:
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
    dc = spell_dc(fight.flags, caster, spell_name, level)
    effect = PARTY_CASTS.get(spell_name)
    if effect is None:  # a monster's spell (invisibility, darkness, charm person ...): its own module
        monster_spells.cast(fight, caster, spell_name, level, targets, begun)
    else:
        effect(fight, caster, spell_name, targets, dc, cl)


def complete_casting(fight: FightState, caster: Combatant) -> None:
    """A spell begun last round takes effect just before the caster's turn (SRD: casting time 1 round), unless
    the caster was hurt meanwhile and fails a Concentration check (DC 10 + the damage taken)."""
    begun = caster.casting
    assert begun is not None, "complete_casting is called for a spell under way"
    spell_name, level, targets, hp_before = begun
    caster.casting = None
    if not caster.is_able:
        return
    hurt = hp_before - caster.hp
    if hurt > 0:
        check = Check("skill", caster.side, caster.t.concentration, CONCENTRATION_DC + hurt, opponent=caster.side)
        if not resolve(fight, check, caster, None).success:
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


# The party's spells, one function each (or one for a family that shares a rule), all of the shape
# :data:`arena.combat.monster_spells.SpellCast`: (fight, caster, spell name, targets, save DC, caster level).


def _magic_missile(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD magic missile: 1d4+1 force per missile, one per two caster levels above 1st (max 5); no save, SR applies."""
    target = targets[0]
    if gets_through(fight, caster, target):
        missiles = min(5, (cl + 1) // 2)
        deal(fight, caster, target, sum(MAGIC_MISSILE.roll(fight.stream) for _ in range(missiles)), FORCE)


def _scorching_ray(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD scorching ray: a ray of 4d6 fire (ranged touch), two rays at 7th level, three at 11th; SR once a target."""
    rays = 1 + (cl >= 7) + (cl >= 11)
    through: dict[int, bool] = {}  # spell resistance: once per target and spell (``sr-once``)
    for _ in range(rays):
        target = pick_target(fight, caster, spell=True) if not can_target(fight, targets[0]) else targets[0]
        if target is None:
            continue
        passes = through.get(target.uid) if target.t.sr else True
        if passes is None:
            passes = gets_through(fight, caster, target)
            if fight.flags.fix_sr_once:
                through[target.uid] = passes
        if passes:
            ray(fight, caster, target, SCORCHING_RAY, FIRE)


def _searing_light(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD searing light: a ray, 1d8 per two levels (max 5d8); undead 1d6 a level (max 10d6), constructs 1d6 per two."""
    target = targets[0]
    if gets_through(fight, caster, target):
        if target.t.type == "undead":
            dice = _d6(min(10, cl))
        elif target.t.type == "construct":
            dice = _d6(min(5, cl // 2))
        else:
            dice = parse(f"{max(1, min(5, cl // 2))}d8")
        ray(fight, caster, target, dice, DIVINE)


def _area_damage(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD fireball, lightning bolt, cone of cold, flame strike, delayed blast fireball, fire storm: 1d6 per caster
    level (to a cap), Reflex half; blade barrier: Reflex negates (:data:`arena.combat.spells.SAVE_NEGATES`)."""
    dice = _d6(min(cl, AREA_DAMAGE_CAP[name]))
    types = AREA_DAMAGE_TYPE[name]
    rolled = dice.roll(fight.stream) if fight.flags.area_roll_once else None  # one roll for everyone caught
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
                half_divine=name == "flame strike",
                rolled=rolled,
                half_on_save=name not in SAVE_NEGATES,
            )


def _ice_storm(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD ice storm: 3d6 bludgeoning from the hailstones and 2d6 cold to everyone caught, no save."""
    once = (
        (ICE_STORM_HAIL.roll(fight.stream), ICE_STORM_COLD.roll(fight.stream)) if fight.flags.area_roll_once else None
    )
    for target in targets:
        if gets_through(fight, caster, target):
            hail, cold = once or (ICE_STORM_HAIL.roll(fight.stream), ICE_STORM_COLD.roll(fight.stream))
            deal(fight, caster, target, hail, BLUDGEONING_SPELL)
            deal(fight, caster, target, cold, COLD)


def _sleep(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD sleep: 4 HD of creatures, the fewest HD first, none of 5 HD or more; Will negates; 1 minute/level."""
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


def _color_spray(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD color spray: Will negates, else by HD: 2 or less knocked out then stunned, 3-4 stunned, 5 or more 1 round."""
    for target in targets:
        if not gets_through(fight, caster, target):
            continue
        outcome = save(fight, target, "will", dc, caster)
        if outcome.success:
            continue
        worst = outcome.fumble and fight.flags.fix_color_spray  # open-ended: a fumbled save, the longest durations
        hd = target.t.hd
        if hd <= 2:  # unconscious, blinded and stunned 2d4 rounds, then blinded and stunned 1d4, then 1
            out = 8 if worst else roll(fight, "2d4")
            add_condition(fight, target, "knocked-out", out * ROUND)
            add_condition(fight, target, "stunned", (out + (4 if worst else roll(fight, "1d4")) + 1) * ROUND)
        elif hd <= 4:  # blinded and stunned 1d4 rounds, then stunned 1 round
            add_condition(fight, target, "stunned", ((4 if worst else roll(fight, "1d4")) + 1) * ROUND)
        else:  # stunned 1 round
            add_condition(fight, target, "stunned", ROUND)


def _hold_person(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD hold person: a humanoid that fails its Will save is paralyzed (held) 1 round/level, saving each round."""
    target = targets[0]
    if (
        target.t.humanoid
        and gets_through(fight, caster, target)
        and not save(fight, target, "will", dc, caster).success
    ):
        add_condition(fight, target, "held", cl * ROUND, dc=dc)


def _cure(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD cure wounds: heals its d8s + 1 per caster level (to its cap); undead take it as damage (SR, Will half)."""
    if caster.t.healing_domain and fight.flags.fix_healing_domain:
        cl += 1  # SRD Healing domain: healing spells at +1 caster level
    amount = CURE_DICE[name].roll(fight.stream) + min(cl, CURE[name].cap)
    for target in targets[: max(1, cl) if name in MASS_CURES else 1]:
        if target.t.type == "undead":  # harmful to undead: spell resistance applies (SRD: "harmless"
            if not gets_through(fight, caster, target):  # protects only willing targets)
                continue
            saved = save(fight, target, "will", dc, caster).success
            deal(fight, caster, target, amount // 2 if saved else amount, POSITIVE)
        else:
            heal(fight, target, amount)


def _bless(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD bless: each ally a +1 morale bonus on attack rolls (the ``bless`` condition) for 1 minute/level."""
    for target in targets:
        add_condition(fight, target, "bless", cl * 10 * ROUND)


def _shield_of_faith(
    fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int
) -> None:
    """SRD shield of faith: a deflection bonus to AC of +2, +1 per six caster levels (max +5), 1 minute/level."""
    add_condition(
        fight,
        targets[0],
        "shield of faith",
        cl * 10 * ROUND,
        bonus=shield_of_faith_gain(fight.flags.fix_deflection, cl, targets[0]),
    )


def _auspicious_odds(
    fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int
) -> None:
    """Bell-curve auspicious odds (for SRD protection from energy): ``auspicious`` on one creature, 1 minute/level."""
    add_condition(fight, targets[0], "auspicious", cl * 10 * ROUND, caster=caster.uid)


def _mass_auspicious_odds(
    fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int
) -> None:
    """Bell-curve mass auspicious odds (for break enchantment): one creature per three levels, 1 round/level."""
    for target in targets[: max(1, cl // 3)]:
        add_condition(fight, target, "auspicious", cl * ROUND, caster=caster.uid)


def _slain(fight: FightState, caster: Combatant, target: Combatant, spell: str) -> None:
    """A death effect kills ``target`` (finger of death, destruction)."""
    was_able = target.is_able
    target.hp = min(target.hp, DEAD_AT)
    if fight.lines is not None:
        fight.log(f"{target.name} is slain by {spell}", actor=target.name, action="slain", spell=spell)
    die(fight, target)
    if was_able:
        caster.tally.downs += 1


def _disintegrate(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD disintegrate: "You must make a successful ranged touch attack to hit. Any creature struck by the ray
    takes 2d6 points of damage per caster level (to a maximum of 40d6). Any creature reduced to 0 or fewer hit
    points by this spell is entirely disintegrated"; Fortitude partial: "taking only 5d6 points of damage"; SR
    applies. It works on objects, so the undead's and constructs' immunity to Fortitude effects does not stop it."""
    target = targets[0]
    if not gets_through(fight, caster, target):
        return
    hit = touch_attack(fight, caster, target)
    if not hit:
        return
    saved = save(fight, target, "fort", dc, caster).success
    dice = DISINTEGRATE_SAVED if saved else _d6(min(DISINTEGRATE_MAX, DISINTEGRATE_PER_LEVEL * cl))
    amount = sum(dice.roll(fight.stream) for _ in range(hit))  # a critical hit: the dice twice
    if deal(fight, caster, target, amount, UNTYPED) and target.hp <= 0 and not target.dead:
        if fight.lines is not None:
            fight.log(f"{target.name} is disintegrated", actor=target.name, action="slain", spell=name)
        die(fight, target)


def _save_or_die(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD finger of death (a living creature, death effect): "The victim is entitled to a Fortitude saving throw.
    If the save succeeds, the victim instead takes 3d6 points of damage +1 point per caster level (maximum +25)".
    SRD destruction: "the subject is slain ... If the save succeeds, the subject instead takes 10d6 points of
    damage". SR applies to both; a creature immune to death effects is unaffected."""
    target = targets[0]
    if "death effects" in target.t.immunities or target.t.type in ("undead", "construct"):
        return
    if not gets_through(fight, caster, target):
        return
    if not save(fight, target, "fort", dc, caster).success:
        _slain(fight, caster, target, name)
    elif name == "finger of death":
        deal(fight, caster, target, FINGER_OF_DEATH_SAVED.roll(fight.stream) + min(cl, FINGER_OF_DEATH_CAP), UNTYPED)
    else:
        deal(fight, caster, target, DESTRUCTION_SAVED.roll(fight.stream), UNTYPED)


def _polar_ray(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD polar ray: "A blue-white ray of freezing air and ice springs from your hand. You must succeed on a ranged
    touch attack with the ray to deal damage to a target. The ray deals 1d6 points of cold damage per caster level
    (maximum 25d6)"; no save, SR applies."""
    target = targets[0]
    if gets_through(fight, caster, target):
        ray(fight, caster, target, _d6(min(POLAR_RAY_MAX, cl)), COLD)


def _meteor_swarm(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD meteor swarm: four spheres, each aimed at a creature (:data:`arena.combat.spells.METEOR_SPHERES`, in turn
    at ``targets``, so a lone enemy gets all four: "You may aim more than one meteor at the same target"). A ranged
    touch attack: a creature struck "takes 2d6 points of bludgeoning damage (no save) and receives no saving throw
    against the sphere's fire damage"; each sphere "explodes in a 40-foot-radius spread, dealing 6d6 points of fire
    damage to each creature in the area. If a creature is within the area of more than one sphere, it must save
    separately against each. (Fire resistance applies to each sphere's damage individually.)" Gridless: a creature
    is in the spread of each sphere aimed at it, and of one sphere if none is (Reflex half); SR once a creature."""
    aimed = [targets[i % len(targets)] for i in range(METEOR_SPHERES)]
    through = {target.uid: gets_through(fight, caster, target) for target in targets}
    for target in targets:
        if not through[target.uid]:
            continue
        spheres = aimed.count(target)
        for _ in range(spheres):
            if target.dead:
                break
            struck = touch_attack(fight, caster, target)
            fire = METEOR_FIRE.roll(fight.stream)
            if struck:
                deal(fight, caster, target, METEOR_STRIKE.roll(fight.stream), BLUDGEONING_SPELL)
                deal(fight, caster, target, fire, FIRE)
            else:
                area_damage(fight, caster, target, METEOR_FIRE, FIRE, "ref", dc, rolled=fire)
        if not spheres:
            area_damage(fight, caster, target, METEOR_FIRE, FIRE, "ref", dc)


def _heal(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD heal: ends "blinded, confused, dazed, dazzled, deafened, ... exhausted, fatigued, ... nauseated, ...
    sickened, and stunned" and "cures 10 hit points of damage per level of the caster, to a maximum of 150 points";
    "If used against an undead creature, heal instead acts like harm" (Will half). SRD mass heal: "as heal, except
    that it affects one creature per level ... the maximum number of hit points restored to each creature is 250"."""
    if caster.t.healing_domain and fight.flags.fix_healing_domain:
        cl += 1  # SRD Healing domain: healing spells at +1 caster level
    amount = min(HEAL_PER_LEVEL * cl, HEAL_CAP[name])
    for target in targets[: max(1, cl) if name in MASS_CURES else 1]:
        if target.t.type == "undead":
            if gets_through(fight, caster, target):
                saved = save(fight, target, "will", dc, caster).success
                _harm_damage(fight, caster, target, amount // 2 if saved else amount, POSITIVE)
            continue
        if target.conditions:
            for condition in sorted(HEAL_ENDS.intersection(target.conditions)):
                drop_condition(fight, target, condition)
        heal(fight, target, amount)


def _harm_damage(fight: FightState, caster: Combatant, target: Combatant, amount: int, types: frozenset) -> None:
    """Harm's (and heal's on undead) damage: "it cannot reduce the target's hit points to less than 1"."""
    deal(fight, caster, target, min(amount, target.hp - 1), types)


def _harm(fight: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD harm: a melee touch attack; "deals 10 points of damage per caster level (to a maximum of 150 points at
    15th level). If the creature successfully saves, harm deals half this amount, but it cannot reduce the target's
    hit points to less than 1. If used on an undead creature, harm acts like heal" (the caster aims it at the
    living only); Will half, SR applies."""
    target = targets[0]
    if target.t.type == "undead" or not gets_through(fight, caster, target):
        return
    if not touch_attack(fight, caster, target, melee=True):
        return
    amount = min(HEAL_PER_LEVEL * cl, HEAL_CAP[name])
    saved = save(fight, target, "will", dc, caster).success
    _harm_damage(fight, caster, target, amount // 2 if saved else amount, NEGATIVE)


PARTY_CASTS: dict[str, SpellCast] = {
    "magic missile": _magic_missile,
    "scorching ray": _scorching_ray,
    "searing light": _searing_light,
    **dict.fromkeys(AREA_DAMAGE_CAP, _area_damage),
    "ice storm": _ice_storm,
    "sleep": _sleep,
    "color spray": _color_spray,
    "hold person": _hold_person,
    **dict.fromkeys(CURE, _cure),
    "bless": _bless,
    "shield of faith": _shield_of_faith,
    "auspicious odds": _auspicious_odds,
    "mass auspicious odds": _mass_auspicious_odds,
    "disintegrate": _disintegrate,
    "finger of death": _save_or_die,
    "destruction": _save_or_die,
    "polar ray": _polar_ray,
    "meteor swarm": _meteor_swarm,
    **dict.fromkeys(("heal", "mass heal"), _heal),
    "harm": _harm,
}
"""What each of the party's spells does when cast: its function, by spell name (a family of spells that share a
rule, the area damage spells of :data:`arena.combat.spells.AREA_DAMAGE_CAP` and the cures of
:data:`arena.combat.spells.CURE`, one function under each of their names). A new spell is a function above and its
line here; :func:`cast` sends a spell this table does not name to :mod:`arena.combat.monster_spells`."""
