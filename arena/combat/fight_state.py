"""What the parts see of a fight: its state, typed, and the one method every roll goes through.

The parts annotate the fight they take first as ``f: FightState``; :class:`arena.combat.engine.Fight` is its one
subclass (the round driver, set-up and result), and inherits the slots declared here. The class
sits below the parts that use it, so a part's annotation is an import of a module below it (the layers contract in
pyproject.toml), never of the engine above.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.combat.combatant import Combatant
from arena.combat.model import ModelFlags, ModelOptions
from arena.combat.record import EncounterRecord
from arena.combat.tactics import View
from arena.dice import Stream
from arena.rules import Check, Outcome, RuleSet
from arena.rules.kernel import Kernel
from arena.rules.plan import Plan


class FightState(ModelFlags):
    """A fight's state: the attributes below (and the model's options, :class:`~arena.combat.model.ModelFlags`),
    each a slot of :class:`~arena.combat.engine.Fight`; ``log`` and ``now``; and ``resolve``, which ``Fight``
    binds to :func:`arena.combat.rolls.resolve`."""

    rules: RuleSet
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

    __slots__ = tuple(__annotations__)
    """Each attribute above is a slot (the hot loop reads them on every swing: a slot is the fastest to read)."""

    def resolve(self, check: Check, actor: Combatant, opponent: Combatant | None) -> Outcome:
        """Resolve ``check`` made by ``actor`` against ``opponent`` (:func:`arena.combat.rolls.resolve`, which
        ``Fight`` binds here: every d20-type roll of the fight goes through this one method)."""
        raise NotImplementedError

    def now(self) -> float:
        return self.instant

    def log(self, text: str, **event: Any) -> None:
        """One line of the readable log, and its structured event: ``actor`` and ``action`` (what happened), then
        what the action has (``target``, ``roll``, ``result``, ``damage``...); the event keeps the line as ``text``.
        Called only when the log is on (``f.lines is not None``)."""
        self.lines.append(f"[r{self.round}] {text}")  # type: ignore[union-attr]
        self.events.append({"round": self.round, **event, "text": text})  # type: ignore[union-attr]
