"""The AI policy layer: what each creature does on its turn (being written; see issue 4)."""

from __future__ import annotations

from dataclasses import dataclass

POLICIES = ("random", "focus-weakest", "focus-threat", "caster")
PRESS_LUCK = ("never", "always", "when-better")
CALLED_SHOT = ("never", "head", "when-better")


@dataclass(frozen=True)
class TacticsSettings:
    """How one creature (or a whole side) fights: the policy, when to press luck, when to call a shot."""

    policy: str = "focus-weakest"
    press_luck: str = "never"
    called_shot: str = "never"
