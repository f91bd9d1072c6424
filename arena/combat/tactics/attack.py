"""The attack policy (``random``, ``focus-weakest``, ``focus-threat``) and the targeting every policy's blows use.

A creature with weapons hits the enemy its targeting picks among those it reaches; a helpless enemy it can kill gets
a coup de grace first; a monster's special action (its abilities' own: a breath weapon, a web, a trample) comes
before its weapons. The caster policy (:mod:`arena.combat.tactics.caster`) and the engine's parts (a new target when
the first is out of reach) pick their targets through :func:`choose_target` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from arena.combat.actions import NOTHING, Action
from arena.combat.combatant import Combatant
from arena.combat.tactics.view import View, coup_candidate
from arena.combat.template import Template

Targeting = Callable[[View, Combatant, list[Combatant]], Combatant | None]
"""A targeting: ``(view, creature, enemies) -> one of enemies`` (None only when a user's targeting gives none)."""


def focus_weakest(view: View, creature: Combatant, enemies: list[Combatant]) -> Combatant | None:
    best: Combatant | None = None
    best_hp = 0
    for enemy in enemies:  # a plain loop: cheaper than min() with a key on a handful of enemies
        hp = enemy.hp - enemy.nonlethal
        if best is None or hp < best_hp:
            best, best_hp = enemy, hp
    return best


def focus_threat(view: View, creature: Combatant, enemies: list[Combatant]) -> Combatant | None:
    return max(enemies, key=lambda enemy: (enemy.damage_dealt, potential(enemy), -enemy.uid))


def random_target(view: View, creature: Combatant, enemies: list[Combatant]) -> Combatant | None:
    return enemies[int(view.rand() * len(enemies))]


def potential(creature: Combatant) -> float:
    """The damage of the creature's full attack routine, every blow hitting: how dangerous it is."""
    return sum(attack.damage.mean * len(attack.swings()) for attack in creature.t.full)


TARGETING: dict[str, Targeting] = {
    "random": random_target,
    "focus-weakest": focus_weakest,
    "focus-threat": focus_threat,
    "caster": focus_weakest,
}
"""Each policy's targeting, by policy name (:func:`arena.combat.tactics.policies.register` adds a user's)."""


def choose_target(view: View, creature: Combatant, enemies: list[Combatant] | None = None) -> Combatant | None:
    """The enemy ``creature``'s targeting picks from ``enemies`` (default: those its weapons reach)."""
    enemies = view.reachable(creature) if enemies is None else enemies
    if not enemies:
        return None
    return TARGETING.get(creature.policy, focus_weakest)(view, creature, enemies)


def ordered(view: View, creature: Combatant, enemies: list[Combatant]) -> list[Combatant]:
    """Enemies in the order this creature's targeting prefers them."""
    first = choose_target(view, creature, enemies)
    if first is None:  # no enemy (or a user's targeting chose none): their own order
        return list(enemies)
    return [first] + [enemy for enemy in enemies if enemy is not first]


def attack_policy(view: View, creature: Combatant) -> Action:
    """The policy of ``random``, ``focus-weakest`` and ``focus-threat``: a monster's breath weapon, web or trample
    when it is worth it (:func:`special_action`), else a coup de grace on a helpless enemy it can kill (a melee
    creature's first choice, the fewest hit points first, when its ``coup_de_grace`` tactic or the model's lets this
    creature: :attr:`Combatant.coup`, from :func:`~arena.combat.tactics.view.resolve_coup_style`), else an attack
    on the enemy its targeting picks."""
    template = creature.t
    if template.special_action:  # a breath weapon, a web or a trample before its weapons
        special = special_action(view, creature, template)
        if special is not None:
            return special
    # One pass over the enemies it reaches (the hot loop: View.helpless_enemies and focus_weakest inlined): a
    # helpless one for a coup de grace, and the weakest able one.
    coup = template.full and not template.prefers_ranged
    weakest = creature.policy == "focus-weakest"
    everyone = view.reaches_all(creature)
    target: Combatant | None = None
    helpless: Combatant | None = None
    srd: bool | None = None  # the coup-de-grace-rules fix, read at the first helpless foe
    best_hp = 0
    for foe in creature.foes:
        if not everyone and foe.ranged:
            continue
        if foe.is_able:
            if weakest:
                hp = foe.hp - foe.nonlethal
                if target is None or hp < best_hp:
                    target, best_hp = foe, hp
        elif coup:
            if srd is None:
                srd = view.flags.fix_coup
            if coup_candidate(creature, foe, srd) and (
                helpless is None or (foe.hp, foe.uid) < (helpless.hp, helpless.uid)
            ):
                helpless = foe
    if helpless is not None:
        style = creature.coup  # a tactic: ruthless, after-threats or never (resolve_coup_style), set up once
        if style == "ruthless" or (style == "after-threats" and not view.threatened(creature)):
            return Action("coup", helpless)
    if not weakest:
        target = choose_target(view, creature)
    if target is None:
        return NOTHING
    action = target.attack_action  # attacking a creature is the same action all fight long
    if action is None:
        action = target.attack_action = Action("attack", target)
    return cast(Action, action)


def special_action(view: View, creature: Combatant, template: Template) -> Action | None:
    """The first special action its abilities choose (their ``choose_action`` hooks, in order: a breath weapon when
    it is ready and worth it, a web, a trample: :mod:`arena.combat.ability_hooks`), else None."""
    for choose in template.choose_action_hooks:
        action = choose(view, creature)
        if action is not None:
            return action
    return None
