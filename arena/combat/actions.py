"""What a policy returns: an :class:`Action`, one of the kinds :func:`action_kinds` lists.

A module of its own so that the tactics (which choose actions) and the guard around a user's policy (which checks
them) both use it without importing each other.
"""

from __future__ import annotations

from arena.combat import ability_hooks
from arena.combat.combatant import Combatant

CORE_KINDS = frozenset({"attack", "coup", "cast", "none"})
"""The kinds of action the engine carries out itself."""


def action_kinds() -> frozenset[str]:
    """The kinds of action the engine carries out: its own, and the special abilities' (a breath weapon, a web, a
    trample: :data:`arena.combat.ability_hooks.ACTIONS`)."""
    return CORE_KINDS | ability_hooks.action_kinds()


class Action:
    """What a creature does: ``attack`` (``target``), ``coup`` (a coup de grace on a helpless ``target``), ``cast``
    (``spell``, ``level``, ``targets``), ``none``, or a special ability's own kind: ``breath`` (``targets``), ``web``
    (a web at ``target``), ``trample`` (``targets``).

    A plain class with its own ``__init__`` (not a dataclass, whose generated ``__init__`` would stay interpreted
    under the compiled engine): policies build one on every turn."""

    def __init__(
        self,
        kind: str,
        target: Combatant | None = None,
        spell: str | None = None,
        level: int = 0,
        targets: list[Combatant] | None = None,
    ) -> None:
        self.kind = kind
        self.target = target
        self.spell = spell
        self.level = level
        self.targets = targets

    def _fields(self) -> tuple[str, Combatant | None, str | None, int, list[Combatant] | None]:
        return self.kind, self.target, self.spell, self.level, self.targets

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return (
            f"Action(kind={self.kind!r}, target={self.target!r}, spell={self.spell!r}, level={self.level!r}, "
            f"targets={self.targets!r})"
        )


NOTHING = Action("none")

__all__ = ["CORE_KINDS", "NOTHING", "Action", "action_kinds"]
