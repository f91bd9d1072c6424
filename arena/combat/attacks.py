"""Attacks: weapon attack routines and each swing, fumbles, trips, rays, coups de grace, and choosing targets.

Owns everything from an attack roll's modifiers and AC to its damage roll: the swing is the fight's hottest code
(see :func:`swing_at`). Calls the rolls, states, called shots and damage below it; the functions take the fight first
(see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat import tactics
from arena.combat.abilities import MAX_TIE_ROLLS, state_of
from arena.combat.called_shots import call_shot, called_effect, called_hit, called_text, lethal_against, may_press
from arena.combat.combatant import Combatant
from arena.combat.concealment import misses, misses_ray
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.record import LONG_SHOT_45_NATURAL, count_long_shot
from arena.combat.rolls import LUCKY_AT, count_hit, count_lucky, count_roll, penalty, resolve, roll_fields, roll_text
from arena.combat.rolls import save as saving_throw
from arena.combat.states import DEAD_AT, DEATH_COUP_DE_GRACE, die, lose_weapon
from arena.combat.tactics.view import coup_weapon, threatens
from arena.combat.template import CompiledAttack
from arena.dice import DiceExpr
from arena.rules import called_shots as cs
from arena.rules.check import attack_check, simple_check

PRONE_MELEE = 4
"""Prone: -4 on the prone creature's melee attacks; -4 AC against melee, +4 against ranged."""
SHOOTING_INTO_MELEE = -4
"""A ranged attack into a melee where an ally is engaged takes -4 (no Precise Shot is modelled)."""
HELPLESS_AC = -4
"""Melee attackers get +4 against a helpless defender (modelled as AC - 4; ranged attackers get no bonus), whose
AC is that of Dexterity 0 (the model's ``helpless_ac: dex-zero``) or its flat-footed AC (``flat-footed``)."""
STUNNED_AC = -2
"""A stunned defender takes -2 to AC and loses its Dexterity bonus: flat-footed AC - 2."""
FUMBLE_WEAPON_LOSS = 0.5
"""Seed 002: a fumbled ranged attack "may lose or break" the weapon: here half the time, for the rest of the fight."""
BLIND_MISS_CHANCE = 0.5
"""A blinded attacker (every eye severely damaged) misses half its hits (total concealment for it, SRD 3.5)."""
BLIND_AC = -2
"""A blinded defender takes -2 to AC and loses its Dexterity bonus (the latter under the ``blind-dex`` fix)."""
FLANKING_BONUS = 2
"""SRD 3.5: flanking gives +2 on melee attack rolls (and sneak attack)."""


def pick_target(f: FightState, c: Combatant, spell: bool = False) -> Combatant | None:
    """A new target for ``c``'s attacks (those its weapons reach), or for its spell (anyone)."""
    return tactics.choose_target(f.view, c, f.view.enemies(c) if spell else None)


def can_target(f: FightState, creature: Combatant) -> bool:
    return creature.is_able


def attack_routine(
    f: FightState, c: Combatant, target: Combatant, routine: tuple[CompiledAttack, ...], full: bool
) -> None:
    """``c``'s attacks of ``routine`` at ``target`` (each swing of a full attack, or the first of each attack), on the
    next foe its weapons reach when ``target`` drops; after a full attack, its abilities' ``after_routine`` hooks
    with the hits it scored (a rend)."""
    after = c.t.after_routine_hooks if full else ()
    hits: dict[tuple[int, str], int] | None = {} if after else None  # by foe and attack (a rend: both claws)
    for attack in routine:
        for swing, bonus in enumerate(attack.full_bonuses if full else attack.first_bonus):
            if not target.is_able:
                next_target = pick_target(f, c)
                if next_target is None:
                    return
                target = next_target
            if swing_at(f, c, target, attack, bonus, swing) and hits is not None:
                key = (target.uid, attack.name)
                hits[key] = hits.get(key, 0) + 1
    if after:
        for hook in after:
            hook(f, c, target, routine, hits)


def swing_at(
    f: FightState,
    c: Combatant,
    target: Combatant,
    attack: CompiledAttack,
    bonus: int,
    swing: int = 0,
    provoked: bool = False,
) -> bool:
    """One attack roll and its damage. Returns whether it hit.

    Inlined for speed, the hottest code of a fight: the AC, the attack modifier and the damage roll stay in this
    one function; each split out as a helper of its own would cost one more Python call on every swing."""
    flat_footed = not target.acted
    helpless = not target.is_able
    stunned = not helpless and target.conditions and "stunned" in target.conditions
    t = target.t
    denied = flat_footed or helpless or stunned or (target.blind and f.flags.fix_blind_dex)
    """Denied its Dexterity bonus to AC: flat-footed, helpless, stunned or blinded (SRD 3.5 conditions)."""
    if flat_footed and t.uncanny_dodge and f.flags.fix_class_features:  # not flat-footed AC: uncanny_dodge_denied()
        denied = uncanny_dodge_denied(f, target)
    if denied:
        if helpless and f.flags.helpless_dex_zero:
            ac = t.helpless_touch_ac if attack.touch else t.helpless_ac
        elif attack.touch:
            ac = t.ff_touch_ac if f.flags.fix_touch_ff else t.touch_ac
        else:
            ac = t.ff_ac
    else:
        ac = t.touch_ac if attack.touch else t.ac
        if t.dodge:
            ac += dodge_bonus(f, target, c)
    ac += target.ac_bonus
    if helpless:
        if not attack.ranged:
            ac += HELPLESS_AC
    elif stunned:
        ac += STUNNED_AC
    mod = bonus + c.attack_bonus
    if attack.finesse and f.flags.fix_finesse:
        mod += c.finesse_shift  # Weapon Finesse: lost Dexterity counts on it, lost Strength not (conditions.py)
    if c.injuries:
        mod += penalty(c, "ranged" if attack.ranged else "attack", cs.hands_used(attack.name, swing, attack.count))
    if target.prone:
        ac += PRONE_MELEE if attack.ranged else -PRONE_MELEE
    if attack.ranged:
        flanked = False
        if engaged(f, c):
            mod += SHOOTING_INTO_MELEE
    else:
        f.melee_begun = True
        if provoked:  # an attack of opportunity: it is not who it fights
            flanked = f.flags.flank_bonus and target.melee_attackers - (c.melee_target is target) >= 1
        else:
            old = c.melee_target
            if old is not target:  # it now fights this target (flanking counts who fights whom)
                if old is not None:
                    old.melee_attackers -= 1
                c.melee_target = target
                target.melee_attackers += 1
            flanked = f.flags.flank_bonus and target.melee_attackers >= 2  # another able ally in melee with it
        if flanked and t.flank_guard and not flanks(f, c, target):
            flanked = False  # improved uncanny dodge
        if flanked:
            mod += FLANKING_BONUS
        if c.prone:
            mod -= PRONE_MELEE
    if target.blind:
        ac += BLIND_AC
    part = None
    if f.called_shots and not provoked:
        part = call_shot(f, c, target, attack, mod, ac, flat_footed)
    press = part is not None and may_press(f, c, target, flat_footed)
    check = attack_check(
        c.side,
        modifier=mod,
        target=ac,
        threat=attack.threat,
        multiplier=attack.multiplier,
        opponent=target.side,
        flat_footed=flat_footed,
        press=press,
    )
    outcome = resolve(f, check, c, target)
    plan = f.last_plan
    tally = c.tally
    tally.attacks += 1
    if outcome.extreme:
        count_roll(tally, outcome)
    if part is not None:
        tally.called_shots += 1
        c.called_this_round = True
    hit = outcome.success
    if hit and (c.blind or target.concealed) and misses(f, c, target):
        hit = False  # blinded, or the target concealed: the hit finds nothing
    if not hit:
        if f.lines is not None:
            f.log(
                f"{c.name} {attack.name} {mod:+d} vs {target.name} AC {ac}{called_text(part)}: "
                f"{roll_text(outcome, plan)} - miss{' (FUMBLE)' if outcome.fumble else ''}",
                actor=c.name,
                action="attack",
                attack=attack.name,
                target=target.name,
                modifier=mod,
                ac=ac,
                called=part,
                roll=roll_fields(outcome, plan),
                result="fumble" if outcome.fumble else "miss",
            )
        if outcome.fumble:
            fumble(f, c, target, attack)
        return False
    chance = count_hit(tally, plan)
    critical = outcome.critical and "critical hits" not in target.t.immunities
    table = attack.damage_table
    amount = table[int(f.rand() * len(table))] if table is not None else attack.damage.roll(f.stream)
    if critical:
        tally.crits += 1
        for _ in range(attack.multiplier - 1):
            amount += attack.damage.roll(f.stream)
    if c.damage_bonus:
        amount += c.damage_bonus  # rage, lost Strength (melee only, in the bonus), sickened
    if amount < 1:
        amount = 0 if attack.harmless else 1  # SRD: a hit deals at least 1 (a harmless attack none)
    if attack.sneak and sneak_applies(f, c, target, denied, flanked):
        amount += attack.sneak.roll(f.stream)
    part_hit = part is not None and called_hit(plan, outcome, target, part, attack)
    if f.lines is not None:
        f.log(
            f"{c.name} {attack.name} {mod:+d} vs {target.name} AC {ac}{called_text(part)}: "
            f"{roll_text(outcome, plan)} - {'CRITICAL ' if critical else ''}hit for {amount}"
            f"{' - CALLED HIT' if part_hit else ''}",
            actor=c.name,
            action="attack",
            attack=attack.name,
            target=target.name,
            modifier=mod,
            ac=ac,
            called=part,
            roll=roll_fields(outcome, plan),
            result="critical" if critical else "hit",
            damage=amount,
            called_hit=part_hit,
        )
    dealt = deal(f, c, target, amount, attack.types, attack.overcomes, weapon=True)
    if part_hit and part is not None:
        called_effect(f, c, target, part, dealt, index=0 if part in cs.PER_INSTANCE else None)
    if attack.extra is not None:
        dealt += deal(f, c, target, attack.extra.roll(f.stream), frozenset({attack.extra_type}))
    if attack.rider:  # what the hit does besides its damage: its abilities' on_hit hooks (a grab, a poison)
        for hook in c.t.on_hit_hooks:
            hook(f, c, target, attack, dealt)
    if chance <= LUCKY_AT:  # count_lucky inlined: the hot loop
        tally.lucky_hits += 1
        tally.lucky_damage += dealt
    if ac - mod >= LONG_SHOT_45_NATURAL:  # a call only for the hits that need a 12 or more
        count_long_shot(tally, ac - mod, dealt)
    if attack.trip and target.is_able and not target.prone:
        trip(f, c, target, attack)
    return True


def fumble(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack) -> None:
    """A fumbled melee attack provokes an immediate attack of opportunity from its target; a fumbled ranged
    attack loses or breaks the weapon half the time."""
    tally = c.tally
    if attack.ranged:
        if f.rand() < FUMBLE_WEAPON_LOSS:
            lose_weapon(f, c)
            tally.weapons_lost += 1
            if f.lines is not None:
                f.log(f"{c.name} loses its {attack.name}", actor=c.name, action="weapon-lost", attack=attack.name)
        return
    if not target.is_able or not c.is_able:
        return
    if f.flags.fix_ff_aoo and not target.acted:
        return  # SRD: a flat-footed creature cannot make attacks of opportunity
    melee = target.t.full or target.t.standard
    if not melee or melee[0].ranged:
        return
    tally.aoo_provoked += 1
    if f.lines is not None:
        f.log(
            f"{c.name}'s fumble provokes an attack of opportunity from {target.name}",
            actor=c.name,
            action="provoke",
            target=target.name,
        )
    swing_at(f, target, c, melee[0], melee[0].bonuses[0], provoked=True)


def engaged(f: FightState, c: Combatant) -> bool:
    """An ally of ``c`` is in melee (some able ally does not prefer ranged attacks), once the melee has begun
    (someone has made a melee attack: in round 1 the melee creatures are still closing in)."""
    return f.melee_begun and f.melee_count[c.side] - (c.is_able and not c.ranged) > 0


def sneak_applies(f: FightState, c: Combatant, target: Combatant, denied_dex: bool, flanked: bool) -> bool:
    """Sneak attack: the target is denied its Dexterity bonus, or flanked (the model's ``flanking``: another able
    ally in melee with the same target, or the old reading, any able ally in melee). Creatures immune to critical
    hits or sneak attack take none."""
    if "sneak attack" in target.t.immunities or "critical hits" in target.t.immunities:
        return False
    if denied_dex or flanked:
        return True
    return f.flags.flanking == "any-melee-ally" and engaged(f, c) and flanks(f, c, target)


def uncanny_dodge_denied(f: FightState, target: Combatant) -> bool:
    """Whether a flat-footed ``target`` with uncanny dodge is denied its Dexterity bonus all the same. SRD 3.5
    rogue: "She retains her Dexterity bonus to AC (if any) even if she is caught flat-footed or struck by an
    invisible attacker. However, she still loses her Dexterity bonus to AC if immobilized." (An unseen attacker
    makes its target flat-footed here: :func:`arena.combat.monster_spells.unseen`.) It still makes no attack of
    opportunity while flat-footed, and a players-roll-all defense check stays a flat-footed one."""
    return (
        not target.is_able
        or bool(target.conditions and "stunned" in target.conditions)
        or (target.blind and f.flags.fix_blind_dex)
    )


def flanks(f: FightState, c: Combatant, target: Combatant) -> bool:
    """Whether ``c`` can flank ``target`` at all. SRD 3.5 rogue, improved uncanny dodge: she "can no longer be
    flanked. This defense denies another rogue the ability to sneak attack the character by flanking her, unless
    the attacker has at least four more rogue levels than the target does" (``flank_guard``: the target's rogue
    level; it bars the flanking bonus and a sneak attack from flanking, the gridless model's one flank)."""
    guard = target.t.flank_guard
    return not guard or not f.flags.fix_class_features or c.t.rogue_level >= guard + 4


def trip(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack) -> None:
    """A free trip attempt: opposed Strength checks (the attacker's trip modifier against the defender's best
    of Strength and Dexterity), each through the kernel. SRD opposed checks: the higher total wins, a tie goes to
    the higher modifier, and equal modifiers roll again (``trip-ties``; undone, ties go to the defender)."""
    defence = target.t.trip_defence
    mod = attack.trip_modifier if attack.trip_modifier is not None else c.t.str_mod
    if c.injuries:
        mod += penalty(c, "str")
    if target.injuries:
        defence += penalty(target, "dex")
    for _ in range(MAX_TIE_ROLLS):
        against = resolve(
            f,
            simple_check("ability", target.side, modifier=defence, target=0, opponent=None),
            target,
            None,
        ).total
        if not f.flags.fix_trip_ties:
            won = resolve(
                f,
                simple_check("ability", c.side, modifier=mod, target=against + 1, opponent=None),
                c,
                None,
            ).success
            break
        outcome = resolve(
            f,
            simple_check("ability", c.side, modifier=mod, target=against, opponent=None),
            c,
            None,
        )
        if not outcome.success or (outcome.total == against and mod < defence):
            won = False
            break
        if outcome.total > against or mod > defence:
            won = True
            break
    else:
        won = False  # ties every time (never in practice): the defender stays up
    if won:
        target.prone = True
        if f.lines is not None:
            f.log(f"{c.name} trips {target.name}", actor=c.name, action="trip", target=target.name, result="prone")


def ray(f: FightState, caster: Combatant, target: Combatant, dice: DiceExpr, types: frozenset[str]) -> None:
    """A ray: a ranged touch attack (threat 20, x2), damage on a hit."""
    mod = caster.t.ray_bonus + caster.attack_bonus + penalty(caster, "ranged", (0,))
    if engaged(f, caster):
        mod += SHOOTING_INTO_MELEE
    if target.acted and target.is_able and not (target.conditions or target.prone or target.blind or target.t.dodge):
        ac = target.t.touch_ac + target.ac_bonus  # the common case of ranged_touch_ac(), inlined
    else:
        ac = ranged_touch_ac(f, caster, target)
    check = attack_check(caster.side, mod, ac, 20, 2, target.side, flat_footed=not target.acted, press=False)
    outcome = resolve(f, check, caster, target)
    plan = f.last_plan
    tally = caster.tally
    tally.attacks += 1
    count_roll(tally, outcome)
    if not outcome.success or (target.concealed and misses_ray(f, caster, target)):
        if f.lines is not None:
            f.log(
                f"{caster.name} ray {mod:+d} vs {target.name} touch AC {ac}: {roll_text(outcome, plan)} - "
                f"miss{' (FUMBLE)' if outcome.fumble else ''}",
                actor=caster.name,
                action="ray",
                target=target.name,
                modifier=mod,
                ac=ac,
                roll=roll_fields(outcome, plan),
                result="fumble" if outcome.fumble else "miss",
            )
        return
    chance = count_hit(tally, plan)
    critical = outcome.critical and "critical hits" not in target.t.immunities
    amount = dice.roll(f.stream)
    if critical:
        amount += dice.roll(f.stream)
        tally.crits += 1
    if f.lines is not None:
        f.log(
            f"{caster.name} ray {mod:+d} vs {target.name} touch AC {ac}: {roll_text(outcome, plan)} - "
            f"{'CRITICAL ' if critical else ''}hit for {amount}",
            actor=caster.name,
            action="ray",
            target=target.name,
            modifier=mod,
            ac=ac,
            roll=roll_fields(outcome, plan),
            result="critical" if critical else "hit",
            damage=amount,
        )
    dealt = deal(f, caster, target, amount, types)
    count_lucky(tally, chance, ac - mod, dealt)


def dodge_bonus(f: FightState, target: Combatant, attacker: Combatant) -> int:
    """What the defender's Dodge feat adds to the AC it printed, against this attacker.

    SRD 3.5 Dodge: "During your action, you designate an opponent and receive a +1 dodge bonus to Armor Class
    against attacks from that opponent." A stat block's AC never includes it (succubus "AC 20 (+1 Dex, +9
    natural)"; the generated party follows the SRD): +1 against the designated opponent only. Undoing
    ``dodge-printed-ac`` reads the AC as including it (-1 against everyone else, the model before 0.4); undoing
    ``dodge-one-opponent`` applies it against every opponent."""
    dodge = target.t.dodge
    if f.flags.fix_dodge_printed:
        return dodge if target.dodge_against is attacker or not f.flags.fix_dodge else 0
    return -dodge if target.dodge_against is not attacker and f.flags.fix_dodge else 0


def touch_attack(f: FightState, caster: Combatant, target: Combatant, melee: bool = False) -> int:
    """A touch attack of a spell whose effect is not a plain damage roll (disintegrate, harm, heal on undead, a
    meteor aimed at a creature): 0 a miss, 1 a hit, 2 a critical hit (threat 20, x2). ``melee``: a touch spell
    (no -4 for shooting into a melee); else a ranged touch attack, as :func:`ray`'s."""
    t = caster.t
    base = t.creature.bab + t.str_mod if melee else t.ray_bonus
    mod = base + caster.attack_bonus + penalty(caster, "attack" if melee else "ranged", (0,))
    if not melee and engaged(f, caster):
        mod += SHOOTING_INTO_MELEE
    ac = ranged_touch_ac(f, caster, target)
    check = attack_check(caster.side, mod, ac, 20, 2, target.side, flat_footed=not target.acted, press=False)
    outcome = resolve(f, check, caster, target)
    tally = caster.tally
    tally.attacks += 1
    count_roll(tally, outcome)
    hit = outcome.success and not (not melee and target.concealed and misses_ray(f, caster, target))
    critical = hit and outcome.critical and "critical hits" not in target.t.immunities
    if f.lines is not None:
        f.log(
            f"{caster.name} touch {mod:+d} vs {target.name} touch AC {ac}: {roll_text(outcome, f.last_plan)} - "
            f"{'critical hit' if critical else 'hit' if hit else 'miss'}",
            actor=caster.name,
            action="touch",
            target=target.name,
            modifier=mod,
            ac=ac,
            roll=roll_fields(outcome, f.last_plan),
            result="critical" if critical else "hit" if hit else "miss",
        )
    if hit:
        count_hit(tally, f.last_plan)
    return 2 if critical else 1 if hit else 0


def ranged_touch_ac(f: FightState, attacker: Combatant, target: Combatant) -> int:
    """The AC a ranged touch attack (a ray) needs: the same defender states as :func:`swing_at` (which keeps its
    own inlined copy for speed): touch AC without Dexterity when denied it, Dexterity 0 when helpless, stunned and
    blinded, prone (+4 against ranged), Dodge against another opponent."""
    t = target.t
    helpless = not target.is_able
    stunned = not helpless and target.conditions and "stunned" in target.conditions
    denied = not target.acted or helpless or stunned or (target.blind and f.flags.fix_blind_dex)
    if not target.acted and t.uncanny_dodge and f.flags.fix_class_features:
        denied = uncanny_dodge_denied(f, target)
    if helpless and f.flags.helpless_dex_zero:
        ac = t.helpless_touch_ac
    elif denied and f.flags.fix_touch_ff:
        ac = t.ff_touch_ac
    else:
        ac = t.touch_ac
    if t.dodge and not denied:
        ac += dodge_bonus(f, target, attacker)
    ac += target.ac_bonus
    if stunned:
        ac += STUNNED_AC
    if target.prone:
        ac += PRONE_MELEE
    if target.blind:
        ac += BLIND_AC
    return ac


def coup_de_grace(f: FightState, c: Combatant, target: Combatant) -> None:
    """A coup de grace against a helpless creature: an automatic critical hit, then a Fortitude save against
    DC 10 + the damage or die. Under called shots it includes a called shot at the head with no roll.

    SRD 3.5: "As a full-round action, you can use a melee weapon to deliver a coup de grace to a helpless opponent.
    ... You automatically hit and score a critical hit. If the defender survives the damage, he must make a
    Fortitude save (DC 10 + damage dealt) or die. ... Delivering a coup de grace provokes attacks of opportunity
    from threatening opponents. You can't deliver a coup de grace against a creature that is immune to critical
    hits." Under the model's ``coup-de-grace-rules`` fix (:func:`_coup_srd`) it is delivered with a weapon that
    deals damage, for the hit's whole damage, after the attacks of opportunity it provokes; undone, as the model
    was before: the routine's first attack, its dice alone (at least 1), no attack of opportunity."""
    if f.flags.fix_coup:
        _coup_srd(f, c, target)
        return
    routine = c.t.full or c.t.standard
    if not routine or target.dead or "critical hits" in target.t.immunities:  # SRD: no coup de grace then
        return
    attack = routine[0]
    c.tally.coups_de_grace += 1
    amount = sum(attack.damage.roll(f.stream) for _ in range(attack.multiplier))
    if attack.sneak and "sneak attack" not in target.t.immunities:
        amount += attack.sneak.roll(f.stream)
    dealt = _coup_blow(f, c, target, attack, amount, max(1, amount))  # the 0.3 log showed the unclamped roll
    _coup_end(f, c, target, attack, dealt)


def _coup_blow(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, shown: int, amount: int) -> int:
    """The coup de grace's blow: logged (for ``shown``), ``amount`` dealt as a weapon's; the damage dealt."""
    if f.lines is not None:
        f.log(
            f"{c.name} delivers a coup de grace to {target.name} for {shown}",
            actor=c.name,
            action="coup-de-grace",
            target=target.name,
            damage=shown,
        )
    return deal(f, c, target, amount, attack.types, attack.overcomes, weapon=True)


def _coup_srd(f: FightState, c: Combatant, target: Combatant) -> None:
    """The coup de grace of the ``coup-de-grace-rules`` fix: with the attack :func:`coup_weapon` picks (none with a
    harmless touch), after the attacks of opportunity it provokes (:func:`_coup_provokes`; one that drops or kills
    the deliverer stops it), for the damage of a critical hit with that attack as a swing deals it: the weapon's
    dice times the multiplier plus the creature's damage changes (rage, sickened, lost Strength), at least 1 (SRD
    "Minimum Weapon Damage": "you deal at least 1 point of damage even if penalties reduce the damage to less than
    1"), then its sneak attack and its extra energy damage; the death save's DC counts all the damage dealt."""
    attack = coup_weapon(c)
    if attack is None or target.dead or "critical hits" in target.t.immunities:  # SRD: no coup de grace then
        return
    if not _coup_provokes(f, c):
        return
    c.tally.coups_de_grace += 1
    amount = sum(attack.damage.roll(f.stream) for _ in range(attack.multiplier)) + c.damage_bonus
    if amount < 1:
        amount = 1  # SRD: a hit deals at least 1 point of damage
    if attack.sneak and "sneak attack" not in target.t.immunities:
        amount += attack.sneak.roll(f.stream)
    dealt = _coup_blow(f, c, target, attack, amount, amount)
    if attack.extra is not None and not target.dead:
        dealt += deal(f, c, target, attack.extra.roll(f.stream), frozenset({attack.extra_type}))
    _coup_end(f, c, target, attack, dealt)


def _coup_provokes(f: FightState, c: Combatant) -> bool:
    """SRD 3.5: "Delivering a coup de grace provokes attacks of opportunity from threatening opponents." Every able
    enemy in the melee with a melee weapon threatens the deliverer (:func:`threatens`: the model has no squares),
    unless flat-footed (the ``flat-footed-aoo`` fix) or it has made its attack of opportunity this round (SRD: "You
    may make only one attack of opportunity per round"; Combat Reflexes is not modelled). Each swings its first melee
    attack at the deliverer. Returns whether the deliverer is still able to deliver it."""
    for foe in c.foes:
        if not threatens(foe) or (f.flags.fix_ff_aoo and not foe.acted):
            continue
        state = state_of(foe)
        if state.get("aoo_round") == f.round:
            continue
        state["aoo_round"] = f.round
        melee = foe.t.full or foe.t.standard
        c.tally.aoo_provoked += 1
        if f.lines is not None:
            f.log(
                f"{c.name}'s coup de grace provokes an attack of opportunity from {foe.name}",
                actor=c.name,
                action="provoke",
                target=foe.name,
            )
        swing_at(f, foe, c, melee[0], melee[0].bonuses[0], provoked=True)
        if not c.is_able:
            if f.lines is not None and not c.dead:
                f.log(f"{c.name} cannot deliver its coup de grace", actor=c.name, action="coup-lost")
            return False
    return True


def _coup_end(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """After a coup de grace's damage: its called shot at the head (called shots), then the Fortitude save against
    DC 10 + the damage dealt or die."""
    tally = c.tally
    if target.dead:  # the blow itself killed (its damage or massive damage): a death by coup de grace
        target.death_cause = DEATH_COUP_DE_GRACE
    if (
        f.rules.called_shots
        and c.settings.called_shot != "never"
        and "head" in target.t.parts
        and lethal_against(attack, target)
    ):
        tally.called_shots += 1
        called_effect(f, c, target, "head", dealt)
    # the death save only when the blow can kill (not a weapon that regeneration turns into nonlethal damage)
    if (
        not target.dead
        and "fortitude effects" not in target.t.immunities
        and lethal_against(attack, target)
        and not saving_throw(f, target, "fort", 10 + dealt, c, special=False).success
    ):
        target.hp = min(target.hp, DEAD_AT)
        die(f, target, DEATH_COUP_DE_GRACE)
