"""The policies by name: the built-in ones, :func:`register` for your own, :func:`decide`, and the settings a side
or a creature fights with (:class:`TacticsSettings`).

A policy is a function ``(view, creature) -> Action``; a scenario or a stat block names it. A user's policy is
registered guarded (:mod:`arena.combat.tactics.policy_guard`); the built-in ones are not (no cost to them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arena.combat.actions import Action
from arena.combat.combatant import Combatant
from arena.combat.tactics.attack import TARGETING, Targeting, attack_policy, focus_weakest
from arena.combat.tactics.caster import caster_policy
from arena.combat.tactics.policy_guard import guarded
from arena.combat.tactics.view import COUP_STYLES, View
from arena.errors import ArenaError

Policy = Callable[[View, Combatant], Action]
"""A policy: ``(view, creature) -> Action``."""

PRESS_LUCK = ("never", "always", "when-better")
CALLED_SHOT = ("never", "head", "when-better")
COUP_DE_GRACE = ("by-creature", *COUP_STYLES)
"""The ``coup_de_grace`` tactic of a side or a creature: the model's option's values (``ModelOptions.coup_de_grace``,
:func:`arena.combat.tactics.view.coup_style`)."""

POLICIES: dict[str, Policy] = {
    "random": attack_policy,
    "focus-weakest": attack_policy,
    "focus-threat": attack_policy,
    "caster": caster_policy,
}
"""Every policy a scenario or stat block may name: the built-in ones and those :func:`register` added."""


@dataclass(frozen=True)
class TacticsSettings:
    """How one creature (or a whole side) fights: the policy, when to press luck, when to call a shot, which
    helpless foes it finishes with a coup de grace."""

    policy: str | None = None
    """None: each creature's own stat-block policy (the generated cleric and wizard are ``caster``)."""
    press_luck: str = "never"
    called_shot: str = "never"
    coup_de_grace: str | None = None
    """One of :data:`COUP_DE_GRACE`; None: the model's ``coup_de_grace`` option decides. The fight resolves it once
    per combatant at its set-up (:func:`arena.combat.tactics.view.coup_style`), not on every turn."""

    def __post_init__(self) -> None:
        if self.policy is not None and self.policy not in POLICIES:
            raise ArenaError(f"unknown policy {self.policy!r} (known: {', '.join(sorted(POLICIES))})")
        if self.press_luck not in PRESS_LUCK:
            raise ArenaError(f"press_luck must be one of {', '.join(PRESS_LUCK)}, not {self.press_luck!r}")
        if self.called_shot not in CALLED_SHOT:
            raise ArenaError(f"called_shot must be one of {', '.join(CALLED_SHOT)}, not {self.called_shot!r}")
        if self.coup_de_grace is not None and self.coup_de_grace not in COUP_DE_GRACE:
            raise ArenaError(f"coup_de_grace must be one of {', '.join(COUP_DE_GRACE)}, not {self.coup_de_grace!r}")


def register(name: str, policy: Policy, targeting: Targeting | None = None) -> None:
    """Add a policy under ``name`` (usable in YAML); ``targeting`` picks attack targets for it.

    The policy is guarded (:func:`arena.combat.tactics.policy_guard.guarded`): if it raises, exits, returns
    something that is not a valid action or takes longer than :data:`~arena.limits.POLICY_DECISION_SECONDS` for
    one decision, its encounter fails with a :class:`~arena.combat.tactics.policy_guard.PolicyError` naming the
    policy, its file and line."""
    if not isinstance(name, str) or not name:
        raise ArenaError(f"register(): a policy's name must be a non-empty string, not {name!r}")
    if not callable(policy):
        raise ArenaError(f"register({name!r}, ...): the policy must be a function (view, creature) -> Action")
    POLICIES[name] = guarded(name, policy)
    TARGETING[name] = guarded(name, targeting, what="targeting") if targeting is not None else focus_weakest


def decide(view: View, creature: Combatant) -> Action:
    """What ``creature`` does on its turn, by its policy (an unknown policy is an error naming the known ones)."""
    try:
        policy = POLICIES[creature.policy]
    except KeyError:
        raise ArenaError(f"unknown policy {creature.policy!r} (known: {', '.join(sorted(POLICIES))})") from None
    return policy(view, creature)
