"""A user's policy file: a Python file that registers policies, run once per process under a time limit.

Scenario files name such files under ``policies:``; the scenario loader (:mod:`arena.study.scenarios.loading`) runs them
only when they are trusted, and every process that fights the scenario (each worker of a run too) loads them before
the tactics are read. The policies a file registers are guarded while they decide
(:mod:`arena.combat.tactics.policy_guard`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from pathlib import Path

from arena.combat.tactics.attack import TARGETING, Targeting
from arena.combat.tactics.policies import POLICIES, Policy
from arena.combat.tactics.policy_guard import Deadline, TimeUp
from arena.errors import ArenaError
from arena.limits import POLICY_LOAD_SECONDS

_POLICY_FILES: set[str] = set()
"""The policy files (resolved paths) this process has run."""
POLICY_SOURCES: dict[str, str] = {}
"""Policy name -> the policy file (resolved path) that registered it: a scenario may use such a name only if it
lists that file itself, so every worker of a run, loading only its own scenarios' files, knows the name."""


def load_policy_file(path: str | Path, shown: str | None = None) -> None:
    """Run a Python file that registers policies (``register(...)`` at its top level), once per process.

    A file may not register a name that is already taken (a built-in, a policy registered from Python, another
    file's): which one won would depend on loading order. Errors name the file as ``shown`` (the path as written);
    a file that fails, runs past :data:`~arena.limits.POLICY_LOAD_SECONDS` or takes a name leaves the registry as
    it found it."""
    resolved = Path(path).resolve()
    key = str(resolved)
    if key in _POLICY_FILES:
        return
    shown = shown or str(path)
    if not resolved.is_file():
        raise ArenaError(f"no such policy file {shown!r}")
    if resolved.suffix != ".py":
        raise ArenaError(f"policy file {shown!r} is not a Python file (.py)")
    name = f"arena_policies_{resolved.stem}_{hashlib.sha1(key.encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:  # a .py file always has a spec and a loader
        raise ArenaError(f"policy file {shown!r} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    policies_before, targeting_before = dict(POLICIES), dict(TARGETING)
    sys.modules[name] = module

    def undo() -> None:
        """Leave the registry, and the modules, as before the file ran."""
        _restore(policies_before, targeting_before)
        del sys.modules[name]

    try:
        with Deadline(POLICY_LOAD_SECONDS):
            spec.loader.exec_module(module)
    except TimeUp:
        undo()
        raise ArenaError(
            f"policy file {shown} took longer than {POLICY_LOAD_SECONDS:g} s to load (an endless "
            "loop at its top level?)"
        ) from None
    except (Exception, SystemExit) as err:  # the user's code: report it as their input's problem
        undo()
        lines = [frame.lineno for frame in traceback.extract_tb(err.__traceback__) if frame.filename == key]
        where = f"{shown}:{lines[-1]}" if lines else shown
        what = f"called sys.exit({err.code!r})" if isinstance(err, SystemExit) else f"{type(err).__name__}: {err}"
        raise ArenaError(f"policy file {where} failed: {what}") from None
    taken = sorted(
        policy_name
        for policy_name, policy in POLICIES.items()
        if policy_name in policies_before and policies_before[policy_name] is not policy
    )
    if taken:
        undo()
        raise ArenaError(
            f"policy file {shown!r} registers {', '.join(map(repr, taken))}, a name already taken"
            f"{f' by {Path(POLICY_SOURCES[taken[0]]).name}' if taken[0] in POLICY_SOURCES else ''}: "
            "choose another name"
        )
    for added in POLICIES.keys() - policies_before.keys():
        POLICY_SOURCES[added] = key
    _POLICY_FILES.add(key)


def _restore(policies: dict[str, Policy], targeting: dict[str, Targeting]) -> None:
    """Put the registry back as it was (the same dictionaries: everyone who imported them sees it)."""
    POLICIES.clear()
    POLICIES.update(policies)
    TARGETING.clear()
    TARGETING.update(targeting)
