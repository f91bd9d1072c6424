"""Damage: dealing it (defences, temporary hit points, regeneration, massive damage, the states it causes), and
damage with a save for half (area spells; a breath weapon, :mod:`arena.abilities.breath`, as they do).

Every hit point lost in a fight goes through :func:`deal`. Calls the rolls, states and called shots below it (loud
sonic damage injures ears); the functions take the fight first (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat import spells
from arena.combat.called_shots import called_effect
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.rolls import save as saving_throw
from arena.combat.states import DEAD_AT, DEATH_DAMAGE, DEATH_MASSIVE, die, refresh
from arena.dice import DiceExpr
from arena.rules import Outcome
from arena.rules import called_shots as cs

MASSIVE_DAMAGE = 50
"""SRD 3.5: a single attack of 50 or more damage forces a DC 15 Fortitude save or the creature dies."""
MASSIVE_DAMAGE_DC = 15
PHYSICAL = frozenset({"slashing", "piercing", "bludgeoning"})
INCORPOREAL_MISS = 0.5
"""SRD 3.5 incorporeal: a 50% chance to ignore damage from a corporeal source (magic weapons and spells)."""
INCORPOREAL_ALWAYS = frozenset({"force", "positive"})
"""Force effects (magic missile) and positive energy (cure spells) always harm an incorporeal creature."""


def deal(
    f: FightState,
    source: Combatant,
    target: Combatant,
    amount: int,
    types: frozenset,
    overcomes: frozenset = frozenset(),
    weapon: bool = False,
    blow: bool = True,
) -> int:
    """Apply damage: immunity, energy resistance and vulnerability, damage reduction (weapons only),
    temporary hit points, regeneration (nonlethal unless a type that overcomes it), states; the abilities'
    ``damage_stopped`` hooks when its defences stop it all (a jelly splits), ``on_damaged`` once it lands (rage).

    One function on purpose (some 120 lines): every hit of a fight comes through it, and a helper per step would cost
    a Python call on each; a creature with no defences (``plain_defences``) skips them in one test.

    ``blow`` False: a weapon-like special attack (a trample, a crush) that damage reduction stops but a defensive
    roll cannot roll with (:func:`defensive_roll`)."""
    t = target.t
    if amount <= 0 or target.dead:
        return 0
    defended = ""
    """What its defences did to the damage, for the log ("15, DR 5/magic"), when the fight is logged."""
    if not t.plain_defences:
        rolled = amount
        if (
            t.incorporeal
            and not source.t.incorporeal
            and not (types & INCORPOREAL_ALWAYS)
            and ((weapon and "magic" not in overcomes) or f.rand() < INCORPOREAL_MISS)
        ):
            if f.lines is not None:
                f.log(
                    f"{target.name} is incorporeal: the blow passes through it",
                    actor=target.name,
                    action="damage",
                    source=source.name,
                    damage=0,
                    result="incorporeal",
                )
            return 0
        if types and types <= t.immunities:
            amount = 0
        elif len(types) == 1:
            (kind,) = types
            amount -= t.resist.get(kind, 0)
            if kind in t.vulnerabilities:
                amount += amount // 2
        dr = weapon and t.dr_amount and types <= PHYSICAL and not (overcomes & t.dr_overcome)
        if dr and t.dr_all is not None and t.dr_all <= overcomes:
            dr = False  # DR 10/evil and magic: a weapon that is both
        if dr:
            amount -= t.dr_amount
        if f.lines is not None and amount != rolled:
            defended = defences_text(t, types, rolled, bool(dr))
        if amount <= 0:
            if f.lines is not None:
                f.log(
                    f"{target.name} takes no damage ({kinds(types)}{defended})",
                    actor=target.name,
                    action="damage",
                    source=source.name,
                    damage=0,
                    types=sorted(types),
                    defences=defended.lstrip(", ") or None,
                    hp=target.hp,
                )
            if t.damage_stopped_hooks:  # an ochre jelly splits instead
                for hook in t.damage_stopped_hooks:
                    hook(f, target, source, types)
            return 0
    if target.temp_hp:
        soaked = min(target.temp_hp, amount)
        target.temp_hp -= soaked
        amount -= soaked
    if t.defensive_roll and weapon and blow and 0 < target.hp <= amount and f.flags.fix_class_features:
        amount = defensive_roll(f, source, target, amount)
    was_able = target.is_able
    lethal = not t.regen or bool((types | overcomes) & t.regen_overcome)
    if lethal:
        target.hp -= amount
    else:
        target.nonlethal += amount
    source.damage_dealt += amount
    source.tally.damage += amount
    if f.lines is not None:
        f.log(
            f"{target.name} takes {amount} {'' if lethal else 'nonlethal '}{kinds(types)} damage{defended} "
            f"({target.hp}/{t.max_hp} hp{f', {target.nonlethal} nonlethal' if target.nonlethal else ''})",
            actor=target.name,
            action="damage",
            source=source.name,
            damage=amount,
            types=sorted(types),
            lethal=lethal,
            defences=defended.lstrip(", ") or None,
            hp=target.hp,
            nonlethal=target.nonlethal,
        )
    if "sonic" in types and f.called_shots and "ear" in t.parts and amount >= cs.SONIC_EARS_FACTOR * t.first_hit_die:
        called_effect(f, source, target, "ear", amount, all_instances=True)
    if t.on_damaged_hooks:  # rage, once hurt
        for hook in t.on_damaged_hooks:
            hook(f, target, source, amount, types)
    woke = target.conditions and "asleep" in target.conditions
    if woke:  # damage wakes a sleeper
        del target.conditions["asleep"]
    massive = (
        lethal
        and amount >= MASSIVE_DAMAGE
        and target.hp > DEAD_AT
        and "fortitude effects" not in t.immunities
        and not saving_throw(f, target, "fort", MASSIVE_DAMAGE_DC, source, special=False).success
    )
    if massive:
        target.hp = DEAD_AT
    if target.hp <= DEAD_AT or (
        target.hp <= 0 and (t.type in ("undead", "construct") or (f.die_at_zero and target.side == "monster"))
    ):
        die(f, target, DEATH_MASSIVE if massive else DEATH_DAMAGE)
    elif target.hp < 0:
        target.stable = False
    if woke or target.hp <= 0 or target.nonlethal > target.hp:  # otherwise nothing that decides it changed
        refresh(f, target)
    if was_able and not target.is_able:
        source.tally.downs += 1
        if f.lines is not None and not target.dead:
            f.log(f"{target.name} drops ({target.state()})", actor=target.name, action="drops", result=target.state())
    return amount


def defensive_roll(f: FightState, source: Combatant, target: Combatant, amount: int) -> int:
    """The damage of a blow that would take ``target`` to 0 hit points or fewer, after its defensive roll. SRD 3.5
    rogue: "Once per day, when she would be reduced to 0 or fewer hit points by damage in combat (from a weapon or
    other blow, not a spell or special ability), the rogue can attempt to roll with the damage. To use this
    ability, the rogue must attempt a Reflex saving throw (DC = damage dealt). If the save succeeds, she takes only
    half damage from the blow; if it fails, she takes full damage. She must be aware of the attack and able to react
    to it in order to execute her defensive roll: if she is denied her Dexterity bonus to AC, she can't use this
    ability." Once a day is once a fight here. A trample or a crush is a special attack, not a blow: under
    ``defensive-roll-blows`` they pass ``blow=False`` to :func:`deal` and it does not roll with them."""
    specials = target.specials
    if specials is None:
        specials = target.specials = {}
    denied = (
        not target.is_able
        or (not target.acted and not target.t.uncanny_dodge)
        or "stunned" in target.conditions
        or (target.blind and f.flags.fix_blind_dex)
    )
    if specials.get("defensive roll") or denied:
        return amount
    specials["defensive roll"] = True
    if not saving_throw(f, target, "ref", amount, source, special=False).success:
        return amount
    if f.lines is not None:
        f.log(
            f"{target.name} rolls with the blow (defensive roll): half of {amount}",
            actor=target.name,
            action="defensive-roll",
            source=source.name,
            damage=amount // 2,
        )
    return amount // 2


def area_damage(
    f: FightState,
    caster: Combatant,
    target: Combatant,
    dice: DiceExpr,
    types: frozenset[str],
    save: str,
    dc: int,
    half_divine: bool = False,
    rolled: int | None = None,
    half_on_save: bool = True,
) -> None:
    """Area damage with a save for half (``rolled``: the spell's one damage roll for everyone it catches; None:
    roll for this target; ``half_on_save`` False: a made save negates it, a bombardier beetle's breath); open-ended
    saves: a critical success takes none, a fumble the maximum."""
    outcome = saving_throw(f, target, save, dc, caster)
    amount = dice.maximum if outcome.fumble else rolled if rolled is not None else dice.roll(f.stream)
    save_extremes(target, outcome)
    if outcome.critical_success:
        amount = 0
    elif save == "ref" and half_on_save:
        amount = reflex_half(f, target, outcome.success, amount)
    elif outcome.success:
        amount = amount // 2 if half_on_save else 0
    if half_divine:
        deal(f, caster, target, amount - amount // 2, types)
        deal(f, caster, target, amount // 2, spells.DIVINE)
    else:
        deal(f, caster, target, amount, types)


def reflex_half(f: FightState, target: Combatant, saved: bool, amount: int) -> int:
    """What ``target`` takes of ``amount`` after its Reflex save for half (an area spell's, a breath's, a trample's).
    SRD 3.5 Evasion: "If she makes a successful Reflex saving throw against an attack that normally deals half damage
    on a successful save, she instead takes no damage" (the rogue's, a giant eagle's); Improved Evasion: "she takes
    only half damage on a failed save" (under ``class-features``)."""
    if saved:
        return 0 if target.t.evasion else amount // 2
    if target.t.improved_evasion and f.flags.fix_class_features:
        return amount // 2
    return amount


def save_extremes(target: Combatant, outcome: Outcome) -> None:
    """Seed 002: a critical success on a save against half damage takes none; a fumble takes the maximum."""
    tally = target.tally
    tally.saves_negated += outcome.critical_success
    tally.saves_maximised += outcome.fumble


def defences_text(t, types: frozenset, rolled: int, dr: bool) -> str:
    """How the log shows what defences did: `` (15, DR 5/magic)``, `` (20, resist fire 10)``, `` (immune)``."""
    parts = [str(rolled)]
    if types and types <= t.immunities:
        parts.append("immune")
    elif len(types) == 1:
        (kind,) = types
        if t.resist.get(kind):
            parts.append(f"resist {kind} {t.resist[kind]}")
        if kind in t.vulnerabilities:
            parts.append(f"vulnerable to {kind} +50%")
    if dr:
        overcome = " and ".join(sorted(t.dr_all)) if t.dr_all else " or ".join(sorted(t.dr_overcome)) or "-"
        parts.append(f"DR {t.dr_amount}/{overcome}")
    return f" ({', '.join(parts)})"


def kinds(types: frozenset) -> str:
    """Damage types as the log names them."""
    return "/".join(sorted(types)) or "untyped"
