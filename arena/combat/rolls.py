"""Rolls: every d20-type check of a fight, resolved through the rules kernel, and what a roll is worth.

Owns who physically rolls a check and the roller's choices (pressing luck, the Luck domain's reroll, auspicious
odds), saving throws, spell resistance, the called-shot injury penalties on a roll, and a roll's tallies and log
text. The bottom of the fight's parts: it calls no other part.

Like every part, its functions take the fight first (``f``, an :class:`arena.combat.engine.Fight`: the shared
state). Every check of a fight goes through :func:`resolve`; :func:`watch_rolls` lets a caller see each one (the
tests' spies do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from arena.combat import injuries
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.record import LUCKY_CHANCE, SideTally, count_long_shot, count_long_shot_save
from arena.combat.tactics.view import FOE_SIDE
from arena.dice import parse
from arena.rules import Check, Outcome
from arena.rules.check import simple_check
from arena.rules.kernel import Plan

CHANCE_SLACK = 1e-9
"""Exact chances are sums of floats that can be off in the last bits (0.49999999999999994 for one half, 9/20 as
0.44999999999999984 one way and 0.45000000000000007 another): two chances closer than this are equal, a chance
this close to a threshold is on it (histogram tenths, lucky hits, pressing only when strictly better, the
called-shot floor)."""
LUCK_REROLL_ON = ("save", "magic", "defense")
"""Under the model's ``luck_reroll: known-failure``, the Luck domain's once-a-day reroll is spent on the first of
its owner's saves (or, when players roll all, magic and defense checks) that fails. Under ``low-natural`` (the
SRD's "before the DM declares whether the roll results in success or failure") it is spent on the first roll of
its owner's own, of any kind, whose natural is low (:func:`arena.rules.naturals.low_natural`)."""
ON_FAILURE, LOW_NATURAL = 1, 2
"""How the roller's Luck reroll is decided (a key of the plan's cached choices: one kernel serves both models)."""
LUCKY_AT = LUCKY_CHANCE + CHANCE_SLACK
"""A hit whose exact chance was at most this is a lucky hit."""


Watcher = Callable[[FightState, Check, Combatant, "Combatant | None", Outcome], None]
_WATCHERS: list[Watcher] = []
"""What :func:`watch_rolls` installed: each sees every check resolved in this process (empty in a run)."""


@contextmanager
def watch_rolls(watcher: Watcher) -> Iterator[None]:
    """Within the block, ``watcher(fight, check, actor, opponent, outcome)`` sees every check the fights of this
    process resolve, after it is resolved."""
    _WATCHERS.append(watcher)
    try:
        yield
    finally:
        _WATCHERS.remove(watcher)


def _tell_watchers(f: FightState, check: Check, actor: Combatant, opponent: Combatant | None, outcome: Outcome) -> None:
    for watcher in _WATCHERS:
        watcher(f, check, actor, opponent, outcome)


def resolve(f: FightState, check: Check, actor: Combatant, opponent: Combatant | None) -> Outcome:
    """Resolve a check made by ``actor`` (the standard-rules roller) against ``opponent``, deciding the
    roller's choices (pressing luck, a Luck reroll, auspicious odds) from who physically rolls."""
    plan = f.plans.get(check)
    if plan is None:
        plan = f.kernel.plan(check)
    roller = actor if plan.roller == actor.side or opponent is None else opponent
    auspicious = f.bell and "auspicious" in roller.conditions
    if not (auspicious or roller.t.luck_domain or f.press_luck_rules or check.press_luck):
        f.last_plan = plan
        outcome = plan.resolve(f.rand)
        if _WATCHERS:
            _tell_watchers(f, check, actor, opponent, outcome)
        return outcome
    reroll = 0
    if roller.t.luck_domain and not roller.luck_used:
        if f.flags.luck_low_natural:
            reroll = LOW_NATURAL  # any roll of its own, decided from the natural alone
        elif plan.roller_kind in LUCK_REROLL_ON:
            reroll = ON_FAILURE
    press = roller.settings.press_luck
    if (
        not f.press_luck_rules
        or check.kind == "initiative"
        or not roller.is_able
        or (plan.roller_kind == "defense" and check.flat_footed)
    ):
        press = "never"
    if auspicious or reroll or press != "never":
        key = (auspicious, reroll, press, roller is actor)
        choices = plan.choices
        if choices is None:
            choices = plan.choices = {}
        final = choices.get(key)  # the roller's choices for this check, decided once per rule set
        if final is None:
            final = choices[key] = _choose(f, check, auspicious, reroll, press, roller is actor)
        plan = final
    f.last_plan = plan
    outcome = plan.resolve(f.rand)
    if outcome.rerolled:
        roller.luck_used = True
    if outcome.spell_ends:
        _end_auspicious(f, roller)
    if outcome.pressed:
        tally = roller.tally
        tally.luck_pressed += 1
        tally.luck_pressed_successes += outcome.success == (roller is actor)
    if _WATCHERS:
        _tell_watchers(f, check, actor, opponent, outcome)
    return outcome


def _choose(f: FightState, check: Check, auspicious: bool, reroll: int, press: str, roller_is_actor: bool) -> Plan:
    """The plan the roller actually rolls: auspicious odds and the Luck reroll when it has them, and pressed
    luck always, or when the exact chance of success, from what the roller knows, is better pressed."""
    static = check._replace(
        auspicious=auspicious or check.auspicious,
        luck_reroll=reroll == ON_FAILURE or check.luck_reroll,
        reroll_low=(reroll == LOW_NATURAL and not check.luck_reroll) or check.reroll_low,
    )
    if press == "always" or (
        press == "when-better"
        and not check.press_luck
        and _better(f, static._replace(press_luck=True), static, roller_is_actor)
    ):
        static = static._replace(press_luck=True)
    return f.kernel.plan(static)


def _better(f: FightState, pressed: Check, static: Check, roller_is_actor: bool) -> bool:
    p_pressed = f.kernel.plan(pressed._replace(hidden=0)).success_probability()
    p_static = f.kernel.plan(static._replace(hidden=0)).success_probability()
    if roller_is_actor:
        return p_pressed > p_static + CHANCE_SLACK  # strictly better: an exact tie is not worth pressing
    return p_pressed < p_static - CHANCE_SLACK


NOT_AUSPICIOUS: tuple[float, dict[str, Any]] = (0, {})
"""What ``conditions.get("auspicious", ...)`` gives a creature without it (ends at 0, no caster)."""


def _end_auspicious(f: FightState, roller: Combatant) -> None:
    """Four 1s end auspicious odds for the roller, and for everyone when the roller is its caster."""
    entry = roller.conditions.get("auspicious")  # a condition: [ends at, its data]
    if entry is None:
        return
    _ends_at, data = entry
    caster_uid = data.get("caster")
    roller.conditions.pop("auspicious")
    if caster_uid == roller.uid:  # the caster's four 1s end it for everyone
        for creature in f.pcs + f.monsters:
            _ends_at, data = creature.conditions.get("auspicious", NOT_AUSPICIOUS)
            if data.get("caster") == caster_uid:
                del creature.conditions["auspicious"]
    if f.lines is not None:
        f.log(
            f"{roller.name} rolls four 1s: auspicious odds ends",
            actor=roller.name,
            action="spell-ends",
            spell="auspicious odds",
        )


def save(
    f: FightState, target: Combatant, kind: str, dc: int, source: Combatant | None, special: bool = True
) -> Outcome:
    """A saving throw by ``target`` (named from the saver: ``success`` = it saved).

    ``special``: the save is against a spell or special attack, which players roll all turns into the player's
    magic check when a monster saves against a PC. A massive-damage or coup-de-grace save is not (``special=False``):
    under the model's ``prad_fortitude: monster-rolls`` the monster rolls it, as under the standard rules."""
    bonus = target.t.saves[kind] + target.save_bonus + penalty(target, kind)
    if target.save_mods:  # lost ability points (poison, ability damage)
        bonus += target.save_mods[kind]
    if not special and f.flags.prad_monster_fortitude:
        opponent_side = target.side  # no opponent's roll to convert it into
    else:
        opponent_side = source.side if source is not None else FOE_SIDE[target.side]
    check = simple_check("save", target.side, bonus, dc, opponent_side)
    outcome = resolve(f, check, target, source)
    if outcome.extreme:
        count_roll(target.tally, outcome)
    if special and not outcome.success:
        count_long_shot_save(f.record.monsters if target.side == "pc" else f.record.party, dc - bonus)
    f.record.item_damage_events += outcome.item_damage
    if f.lines is not None:
        f.log(
            f"{target.name} {kind} save DC {dc}: {roll_text(outcome, f.last_plan)} - "
            f"{'saved' if outcome.success else 'failed'}",
            actor=target.name,
            action="save",
            save=kind,
            dc=dc,
            source=source.name if source is not None else None,
            roll=roll_fields(outcome, f.last_plan),
            result="saved" if outcome.success else "failed",
        )
    return outcome


def gets_through(f: FightState, caster: Combatant, target: Combatant) -> bool:
    """Spell resistance: does the spell get through?"""
    if not target.t.sr:
        return True
    check = simple_check("caster-level", caster.side, caster.t.caster_level, target.t.sr, target.side)
    outcome = resolve(f, check, caster, target)
    if f.lines is not None:
        f.log(
            f"{caster.name} against {target.name}'s SR {target.t.sr}: {roll_text(outcome, f.last_plan)} - "
            f"{'through' if outcome.success else 'resisted'}",
            actor=caster.name,
            action="spell-resistance",
            target=target.name,
            sr=target.t.sr,
            roll=roll_fields(outcome, f.last_plan),
            result="through" if outcome.success else "resisted",
        )
    return outcome.success


def roll(f: FightState, text: str) -> int:
    """Roll a dice expression (damage, a duration) from the fight's stream."""
    return parse(text).roll(f.stream)


def penalty(creature: Combatant, roll: str, hands: tuple[int, ...] = ()) -> int:
    """Called-shot injury penalties on a roll (attack, ranged, fort, ref, will, str, dex), less any injury the
    creature toughs through this turn."""
    if not creature.injuries:
        return 0
    key = (roll, hands)
    value = creature.penalty_cache.get(key)
    if value is None:
        value = creature.penalty_cache[key] = injuries.penalty(creature, roll, hands, creature.toughed)
    return value


def count_roll(tally: SideTally, outcome: Outcome) -> None:
    """Count a roll's extremes: automatic success or failure, critical success or fumble (each pair exclusive)."""
    if outcome.auto_success:
        tally.auto_successes += 1
    elif outcome.auto_failure:
        tally.auto_failures += 1
    if outcome.critical_success:
        tally.critical_successes += 1
    elif outcome.fumble:
        tally.fumbles += 1


def count_hit(tally: SideTally, plan: Plan | None) -> float:
    """Count a hit in the histogram of hits by exact chance (tenths); returns the chance (lucky hits). ``plan`` is
    the hit's (``f.last_plan``, which :func:`resolve` has just set: None only before a fight's first roll)."""
    assert plan is not None, "a hit's plan: rolls.resolve sets f.last_plan"
    tally.hits += 1
    chance = plan.p_success
    if chance is None:
        chance = plan.success_probability()
    tenth = int(chance * 10 + CHANCE_SLACK)
    tally.hist[tenth if tenth < 10 else 9] += 1
    return chance


def count_lucky(tally: SideTally, chance: float, needed: int, dealt: int) -> None:
    """A hit's luck: a lucky hit (its exact chance at most 25%, under the rules in force) and a long shot (it needed
    a natural 16+ on its static numbers, whatever the die; 14+ and 12+ at the wider thresholds), each with the damage
    it dealt."""
    if chance <= LUCKY_AT:
        tally.lucky_hits += 1
        tally.lucky_damage += dealt
    count_long_shot(tally, needed, dealt)


def roll_fields(outcome: Outcome, plan: Plan | None) -> dict[str, object]:
    """A roll as a structured fight-log event has it (``arena fight --json``): the natural and total, who physically
    rolled (``pc`` or ``monster``) and what (``check``: attack, save, defense, magic ...), the number the roller
    needed (``needs``: its total must reach it), and whether it was pressed or rerolled. ``plan`` is the roll's
    (``f.last_plan``: set by :func:`resolve`, so never None once a roll is made)."""
    assert plan is not None, "a roll's plan: rolls.resolve sets f.last_plan"
    return {
        "natural": outcome.natural,
        "total": outcome.total,
        "roller": outcome.roller,
        "check": plan.roller_kind,
        "needs": plan.target,
        "pressed": outcome.pressed,
        "rerolled": outcome.rerolled,
    }


def roll_text(outcome: Outcome, plan: Plan | None) -> str:
    """How a roll reads in the log; under players roll all, the player's defense or magic check and its score.
    ``plan`` is the roll's, as for :func:`roll_fields`."""
    assert plan is not None, "a roll's plan: rolls.resolve sets f.last_plan"
    if outcome.roller != plan.roller or plan.flip:
        name = {"defense": "defense check", "magic": "magic check", "spell-resistance": "SR check"}[plan.roller_kind]
        return f"player's {name} natural {outcome.natural}, total {outcome.total} vs score {plan.target}"
    return f"natural {outcome.natural}, total {outcome.total}"
