"""What a policy returns: an :class:`Action`, one of the kinds :func:`action_kinds` lists.

A module of its own so that the tactics (which choose actions) and the guard around a user's policy (which checks
them) both use it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.combat import ability_hooks
from arena.combat.combatant import Combatant

CORE_KINDS = frozenset({"attack", "coup", "cast", "none"})
"""The kinds of action the engine carries out itself."""


def action_kinds() -> frozenset[str]:
    """The kinds of action the engine carries out: its own, and the special abilities' (a breath weapon, a web, a
    trample: :data:`arena.combat.ability_hooks.ACTIONS`)."""
    return CORE_KINDS | ability_hooks.action_kinds()


@dataclass
class Action:
    """What a creature does: ``attack`` (``target``), ``coup`` (a coup de grace on a helpless ``target``), ``cast``
    (``spell``, ``level``, ``targets``), ``none``, or a special ability's own kind: ``breath`` (``targets``), ``web``
    (a web at ``target``), ``trample`` (``targets``)."""

    kind: str
    target: Combatant | None = None
    spell: str | None = None
    level: int = 0
    targets: list[Combatant] | None = None


NOTHING = Action("none")

__all__ = ["CORE_KINDS", "NOTHING", "Action", "action_kinds"]
