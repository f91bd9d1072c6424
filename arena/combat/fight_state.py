"""What the parts see of a fight: its state, typed.

The parts annotate the fight they take first as ``f: FightState``; :class:`arena.combat.engine.Fight` is its one
subclass (the round driver, set-up and result), and inherits the fields declared here (each a typed field of a
native class under the compiled engine). Every roll goes through :func:`arena.combat.rolls.resolve`. The class
sits below the parts that use it, so a part's annotation is an import of a module below it (the layers contract in
pyproject.toml), never of the engine above.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.combat.combatant import Combatant
from arena.combat.flags import ModelFlags
from arena.combat.model import ModelOptions
from arena.combat.record import EncounterRecord
from arena.combat.tactics import View
from arena.dice import Stream
from arena.rules import Check, RuleSet
from arena.rules.kernel import Kernel
from arena.rules.plan import Plan


class FightState:
    """A fight's state: the attributes below (the model's options among them, ``flags``), each a field of
    :class:`~arena.combat.engine.Fight`; and ``log`` and ``now``."""

    __deletable__ = ("view",)
    """The one field that may be deleted (mypyc's declaration; the release of a finished fight's cycles)."""

    rules: RuleSet
    flags: ModelFlags
    """The fight model's options, worked out once per encounter (:class:`~arena.combat.flags.ModelFlags`)."""
    kernel: Kernel
    plans: dict[Check, Plan]
    """The kernel's compiled checks (read directly: the hot loop)."""
    stream: Stream
    rand: Callable[[], float]
    record: EncounterRecord
    pcs: list[Combatant]
    monsters: list[Combatant]
    model: ModelOptions
    lines: list[str] | None
    """The readable log (``log=True``), else None: ``if f.lines is not None: f.log(...)``."""
    events: list[dict[str, Any]] | None
    round: int
    view: View
    """What the policies see of this fight (deleted when :meth:`~arena.combat.engine.Fight.release` breaks the
    fight's cycles)."""
    press_luck_rules: bool
    bell: bool
    """Auspicious odds exists only under the bell curve."""
    called_shots: bool
    players_roll_all: bool
    die_at_zero: bool
    last_plan: Plan | None
    """The plan of the last resolved check: what the rules used for that roll (lucky-hit chances)."""
    instant: float
    """Simulated seconds at the current turn: the round's start plus the acting creature's offset."""
    next_expiry: float
    """No condition on anyone ends before this time: conditions end when their time comes, on anyone's turn."""
    able_count: dict[str, int]
    """How many creatures of each side can act: the fight ends when a side has none."""
    side_out: str | None
    """The side that had no creature able to act first: the other side won, even if its last creature then fell
    too (a disabled PC who kills the last monster and strains to -1 has won)."""
    melee_count: dict[str, int]
    """How many creatures of each side can act and fight in melee (shooting into melee, flanking)."""
    melee_begun: bool
    """Someone has made a melee attack: until then there is no melee to shoot into."""
    joining: list[tuple[Any, ...]] | None
    """Creatures summoned this round, waiting to join at its end: [(summoner, template, count, ...)]."""

    def now(self) -> float:
        return self.instant

    def log(self, text: str, **event: Any) -> None:
        """One line of the readable log, and its structured event: ``actor`` and ``action`` (what happened), then
        what the action has (``target``, ``roll``, ``result``, ``damage``...); the event keeps the line as ``text``.
        Called only when the log is on (``f.lines is not None``)."""
        self.lines.append(f"[r{self.round}] {text}")  # type: ignore[union-attr]
        self.events.append({"round": self.round, **event, "text": text})  # type: ignore[union-attr]
