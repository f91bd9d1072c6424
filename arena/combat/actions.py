"""What a policy returns: an :class:`Action`, one of :data:`ACTION_KINDS`.

A module of its own so that the tactics (which choose actions) and the guard around a user's policy (which checks
them) both use it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.combat.combatant import Combatant

ACTION_KINDS = frozenset({"attack", "coup", "cast", "breath", "web", "trample", "none"})
"""The kinds of action the engine carries out."""


@dataclass(slots=True)
class Action:
    """What a creature does: ``attack`` (``target``), ``coup`` (a coup de grace on a helpless ``target``), ``cast``
    (``spell``, ``level``, ``targets``), ``breath`` (``targets``), ``web`` (a web at ``target``), ``trample``
    (``targets``) or ``none``."""

    kind: str
    target: Combatant | None = None
    spell: str | None = None
    level: int = 0
    targets: list[Combatant] | None = None


NOTHING = Action("none")

__all__ = ["ACTION_KINDS", "NOTHING", "Action"]
