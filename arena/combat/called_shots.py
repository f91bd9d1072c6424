"""Called shots and injuries in a fight (seed 003): which part to aim at, whether the hit found it, the wound.

Owns the choice of a called shot before an attack roll (the policy's setting, the when-better floor, memoised in
the kernel), whether a roll beat the part's improved AC, the injury a called hit deals (through
:mod:`arena.combat.injuries`) and the free try each turn to tough through injuries. Calls the rolls below it; the
functions take the fight first (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat import injuries
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.rolls import CHANCE_SLACK, penalty, resolve
from arena.combat.template import CompiledAttack
from arena.rules import Check, Outcome
from arena.rules import called_shots as cs
from arena.rules.kernel import Plan
from arena.world.stat_types import PartName


def lethal_against(attack: CompiledAttack, target: Combatant) -> bool:
    """Would the attack deal lethal damage? (Not against regeneration it does not overcome.)"""
    return not target.t.regen or bool(attack.overcomes & target.t.regen_overcome)


def call_shot(
    f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, mod: int, ac: int, flat_footed: bool
) -> PartName | None:
    """The part to call a shot at before this roll, if the rules, the policy and the attack allow one: once per
    round, on the caller's own turn, a non-touch attack that would deal lethal damage, at a part it has."""
    setting = c.settings.called_shot
    t = target.t
    if (
        not f.called_shots
        or setting == "never"
        or c.called_this_round
        or attack.touch
        or not t.parts
        or (t.regen and not attack.overcomes & t.regen_overcome)
    ):  # lethal_against, inlined
        return None
    if flat_footed and f.flags.fix_called_pressed and not may_press(f, c, target, flat_footed):
        return None  # doc 003: "you must make an attack roll while pressing your luck", never on flat-footed AC
    if setting == "head":
        return "head" if "head" in t.parts else None
    key = (
        "call",
        c.side,
        target.side,
        t.parts_key,
        mod,
        ac,
        attack.ranged,
        attack.threat,
        attack.multiplier,
        flat_footed,
    )
    memo = f.kernel.memo
    part = memo.get(key, memo)
    if part is memo:
        part = memo[key] = _best_part(f, c, target, attack, mod, ac, flat_footed)
    return part


def _best_part(
    f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, mod: int, ac: int, flat_footed: bool
) -> PartName | None:
    """``when-better``: the most valuable part whose exact called-hit chance is at least the floor (an ear,
    worth nothing in a fight, is never called)."""
    best: PartName | None = None
    best_value = 0
    press = may_press(f, c, target, flat_footed)
    for part, (_count, bonus) in target.t.parts.items():
        value = cs.VALUE.get(part, 0)
        if value <= best_value:
            continue
        reach = 0 if attack.ranged else cs.MELEE_BONUS  # +2 against the improved AC, not on the dice
        p = f.kernel.plan(
            Check(
                "attack",
                c.side,
                mod,
                ac + bonus - reach,
                0,
                attack.threat,
                attack.multiplier,
                target.side,
                flat_footed=flat_footed,
                press_luck=press,
            )
        ).success_probability()
        if p >= cs.WHEN_BETTER_FLOOR - CHANCE_SLACK:
            best, best_value = part, value
    return best


def may_press(f: FightState, c: Combatant, target: Combatant, flat_footed: bool) -> bool:
    """A called shot presses luck, unless the roll is a flat-footed defense check (players roll all: doc 003, "You
    can't choose to press your luck ... on flat-footed AC rolls"). Such a shot cannot be called at all
    (:func:`call_shot`); undoing ``called-shot-pressed`` calls it unpressed, as the model did before 0.4."""
    return not (flat_footed and f.players_roll_all and c.side == "monster" and target.side == "pc")


def called_hit(plan: Plan | None, outcome: Outcome, target: Combatant, part: PartName, attack: CompiledAttack) -> bool:
    """Did the roll beat the part's improved AC (with +2 for a melee attack within reach)? An automatic hit
    (natural 20, or 18 on 3d6; a defense check's natural 1) hits whatever AC the attack was aimed at. ``plan`` is
    the roll's (``f.last_plan``: set by :func:`arena.combat.rolls.resolve`, so never None here)."""
    if outcome.auto_success:
        return True
    _count, bonus = target.t.parts[part]
    extra = bonus - (0 if attack.ranged else cs.MELEE_BONUS)
    assert plan is not None, "a roll's plan: rolls.resolve sets f.last_plan"
    if plan.defends:  # the player rolled a defense check: the called hit needs it to fail by the bonus
        return outcome.total + extra < plan.target
    return outcome.total >= plan.target + extra


def called_effect(
    f: FightState,
    c: Combatant,
    target: Combatant,
    part: PartName,
    damage: int,
    index: int | None = None,
    all_instances: bool = False,
) -> None:
    """A called hit (or loud enough sonic damage at the ears) that dealt ``damage`` injures ``target``'s part."""
    if damage <= 0 or target.dead:
        return
    tally = c.tally
    tally.called_hits += 1
    f.record.called_hits_by_part[part] = f.record.called_hits_by_part.get(part, 0) + 1
    hurt = injuries.injure(target, part, damage, index=index, all_instances=all_instances)
    if f.lines is not None:
        severe = " (severe)" if any(i.severe for i in hurt) else ""
        extra = (
            " - blinded" if part == "eye" and target.blind else " - deafened" if part == "ear" and target.deaf else ""
        )
        f.log(
            f"{target.name}'s {part} is injured{severe}: penalties {_penalties(target)}{extra}",
            actor=target.name,
            action="injured",
            part=part,
            severe=bool(severe),
            penalties=_penalties(target),
        )


def tough_through(f: FightState, c: Combatant) -> None:
    """Once per injured part, a free try to fight through the injury this turn: a Fortitude or Will save (the
    better one) against DC 10 + the greatest damage the part took. Monsters roll it even when players roll
    all the dice (the check is the creature's own, against no PC)."""
    kind = "fort" if c.t.saves["fort"] >= c.t.saves["will"] else "will"
    passed = []
    tally = c.tally
    for key, injury in list(c.injuries.items()):
        bonus = c.t.saves[kind] + c.save_bonus + penalty(c, kind)
        outcome = resolve(
            f,
            Check("save", c.side, modifier=bonus, target=injury.dc, opponent=c.side),
            c,
            None,
        )
        tally.tough_through_saves += 1
        if outcome.success:
            tally.tough_through_passed += 1
            passed.append(key)
        if f.lines is not None:
            f.log(
                f"{c.name} toughs through its {injury.part} (DC {injury.dc}): natural {outcome.natural}, "
                f"total {outcome.total} - {'passes' if outcome.success else 'fails'}",
                actor=c.name,
                action="tough-through",
                part=injury.part,
                dc=injury.dc,
                roll={"natural": outcome.natural, "total": outcome.total},
                result="passes" if outcome.success else "fails",
            )
    c.toughed = frozenset(passed)
    c.penalty_cache = {}


def called_text(part: PartName | None) -> str:
    """The log's note of a called shot."""
    return f" (called shot: {part})" if part else ""


def _penalties(c: Combatant) -> str:
    parts = sorted({i.part + ("*" if i.severe else "") for i in c.injuries.values()})
    return ", ".join(parts) or "none"
