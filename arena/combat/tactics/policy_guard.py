"""A user's policy runs inside a guard: a failure of theirs fails the encounter with a message, never the tool.

Why: a policy is someone's Python code, called once per decision in the hot loop. Unguarded, ``sys.exit(0)`` in
it made ``arena run`` exit 0 with no results, an exception surfaced as a raw simpy or joblib traceback, an unknown
action kind was silently ignored and an endless loop was stopped only by Ctrl-C. Guarded, each of those raises
:class:`PolicyError` naming the policy, its file and line; the engine lets it through, so ``arena fight`` prints it
and ``arena run`` stops with the failing encounter named. Built-in policies are not wrapped (no cost to them).

The time limit per decision (:data:`~arena.limits.POLICY_DECISION_SECONDS`) uses ``SIGALRM``, so it holds in the
main thread of a process (the CLI, and every local worker of a run); in a thread (a Dask worker) it is not
enforced and the cluster's own task timeouts apply.
"""

from __future__ import annotations

import functools
import signal
import threading
import traceback
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

from arena.combat.ability_hooks import ACTIONS
from arena.combat.actions import Action, action_kinds
from arena.combat.combatant import Combatant
from arena.combat.tactics.view import View
from arena.errors import ArenaError
from arena.limits import POLICY_DECISION_SECONDS
from arena.world.spellbook import SPELLS
from arena.world.yamlio import display_name


class PolicyError(ArenaError):
    """A user's policy failed: raised, exited, returned a non-action, or ran past its time for one decision."""


def _origin(fn: Any) -> tuple[str, int]:
    """The file and first line of a function (``<unknown>`` for a callable without code)."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        return "<unknown>", 0
    return code.co_filename, code.co_firstlineno


class TimeUp(BaseException):
    """Raised into a policy by the alarm (a BaseException, so ``except Exception`` in the policy cannot eat it)."""


class Deadline:
    """``SIGALRM`` after ``seconds`` of wall-clock time, raising :class:`TimeUp` in the main thread."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = False
        self.previous: Any = None

    def __enter__(self) -> Deadline:
        if self.seconds > 0 and threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
            self.armed = True
        return self

    def __exit__(self, *_exc: Any) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
            self.armed = False


def _alarm(_signum: int, _frame: FrameType | None) -> None:
    raise TimeUp


def guarded(
    name: str, fn: Callable[..., Any], what: str = "policy", seconds: float = POLICY_DECISION_SECONDS
) -> Callable[..., Any]:
    """``fn`` wrapped so that any failure of it is a :class:`PolicyError` naming ``name``, its file and line.

    ``what`` is ``policy`` (``fn(view, creature) -> Action``, the action is checked) or ``targeting``
    (``fn(view, creature, enemies) -> one of enemies or None``)."""
    file, first_line = _origin(fn)

    def fail(err: BaseException | None, problem: str) -> PolicyError:
        line = first_line
        if err is not None:
            lines = [
                frame.lineno
                for frame in traceback.extract_tb(err.__traceback__)
                if frame.filename == file and frame.lineno is not None
            ]
            line = lines[-1] if lines else first_line
        return PolicyError(f"{what} {name!r} ({display_name(file)}:{line}) {problem}")

    def call(*args: Any) -> Any:
        try:
            with Deadline(seconds):
                result = fn(*args)
        except PolicyError:
            raise
        except TimeUp:
            raise fail(None, f"took longer than {seconds:g} s for one decision (an endless loop?)") from None
        except KeyboardInterrupt:
            raise
        except SystemExit as err:
            raise fail(err, f"called sys.exit({err.code!r}); a policy must return an action") from None
        except BaseException as err:
            raise fail(err, f"raised {type(err).__name__}: {err}") from None
        problem = _check_action(result, *args) if what == "policy" else _check_target(result, *args)
        if problem:
            raise fail(None, problem)
        return result

    functools.update_wrapper(call, fn, assigned=(), updated=())  # call.__wrapped__: the user's function
    call.__name__ = getattr(fn, "__name__", name)
    return call


def _check_target(
    result: object, view: View | None = None, creature: Combatant | None = None, enemies: Sequence[Combatant] = ()
) -> str | None:
    """Why a targeting's ``result`` is not a target it may give (one of ``enemies``, or None), or None."""
    if result is None or any(result is enemy for enemy in enemies):
        return None
    return f"returned {type(result).__name__} {result!r:.60}, not one of the enemies it was given (or None)"


def _check_action(action: object, view: View | None = None, creature: Combatant | None = None) -> str | None:
    """Why ``action``, a policy's answer for ``creature`` (seeing ``view``), cannot be carried out, or None."""
    if not isinstance(action, Action):
        return f"returned {type(action).__name__} {action!r:.60}, not an Action"
    kinds = action_kinds()
    if action.kind not in kinds:
        return f"returned an action of unknown kind {action.kind!r} (known: {', '.join(sorted(kinds))})"
    if action.target is not None and not isinstance(action.target, Combatant):
        return f"returned an {action.kind} action whose target is a {type(action.target).__name__}, not a creature"
    if action.targets is not None and not all(isinstance(target, Combatant) for target in action.targets):
        return f"returned an {action.kind} action whose targets are not all creatures"
    if action.kind == "cast":
        if action.spell not in SPELLS:
            return f"cast {action.spell!r}, which is not a spell the engine knows"
        slots = getattr(creature, "slots", {}) or {}
        if action.spell not in slots.get(action.level, ()):
            return f"cast {action.spell!r} at level {action.level!r} without a prepared spell of it left"
    special = ACTIONS.get(action.kind)  # a special ability's action (a breath weapon): may the creature take it?
    if (
        special is not None
        and special.can_act is not None
        and (view is None or creature is None or not special.can_act(view, creature))
    ):
        return special.cannot_act or f"returned a {action.kind} action it cannot take"
    return None
