"""The plan of a run: every scenario under every rule set of its grid, encounters ``0..n-1``, cut into chunks.

Encounter ``i`` of a scenario is fought with ``encounter_seed(seed, i)`` under *every* rule set (common random
numbers), so the rule sets are compared on the same dice and the result does not depend on how the chunks are
spread over workers. :meth:`Plan.fingerprint` is what a resumed run must share, the code that fights included.

Why a module of its own: the plan is what decides which seed each encounter gets, and so what every way of running (on
disk, in memory, a batch) must agree on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from arena.errors import ArenaError
from arena.limits import MAX_ENCOUNTERS, MAX_RUN_ENCOUNTERS, MAX_SEED
from arena.rules import RuleSet
from arena.study.runs.identity import code_fingerprint

DEFAULT_CHUNK = 500
"""Encounters per task: large enough to amortise pickling and scheduling (a few ms), small enough to balance."""

KEY_COLUMNS: dict[str, str] = {
    "scenario": "string",
    "rules": "string",
    "die": "string",
    "players_roll_all": "bool",
    "modifiers": "string",
    "open_ended": "bool",
    "called_shots": "bool",
    "index": "int64",
    "seed": "uint64",
}
"""The columns every encounter row starts with; the encounter record's fields follow."""
VARIANTS = ("die", "players_roll_all", "modifiers", "open_ended", "called_shots")


# --------------------------------------------------------------------------------------------- the plan
@dataclass
class ScenarioPlan:
    """One scenario of a run: how many encounters, the run seed, the rule sets."""

    scenario: Any
    name: str
    n: int
    seed: int
    rule_sets: list[RuleSet]
    digest: str
    contents: dict


@dataclass(frozen=True, order=True)
class Chunk:
    """Encounters ``start..stop-1`` of scenario ``scenario`` (its position in the plan) under rule set ``rules``."""

    scenario: int
    rules: int
    start: int
    stop: int

    @property
    def filename(self) -> str:
        return f"{self.scenario:03d}-{self.rules:03d}-{self.start:010d}-{self.stop:010d}.parquet"

    @property
    def size(self) -> int:
        return self.stop - self.start


@dataclass
class Plan:
    scenarios: list[ScenarioPlan]
    chunk_size: int = DEFAULT_CHUNK
    combatants: bool = False
    """Fight with one row per combatant too (:mod:`arena.study.runs.combatant_tables`)."""

    def chunks(self) -> Iterator[Chunk]:
        """Every chunk, in plan order (scenario, rule set, index): the order rows are written in."""
        for s, sp in enumerate(self.scenarios):
            for r in range(len(sp.rule_sets)):
                for start in range(0, sp.n, self.chunk_size):
                    yield Chunk(s, r, start, min(start + self.chunk_size, sp.n))

    @property
    def total(self) -> int:
        return sum(sp.n * len(sp.rule_sets) for sp in self.scenarios)

    def fingerprint(self) -> dict:
        """What must be identical for ``--resume`` to continue a run: the settings, and the code that fights."""
        return {
            "code": code_fingerprint(),
            "chunk_size": self.chunk_size,
            **({"combatants": True} if self.combatants else {}),  # a run without them keeps its fingerprint
            "scenarios": [
                {
                    "name": sp.name,
                    "digest": sp.digest,
                    "n": sp.n,
                    "seed": sp.seed,
                    "rule_sets": [r.model_dump(mode="json") for r in sp.rule_sets],
                    **_model_of(sp.scenario),
                }
                for sp in self.scenarios
            ],
        }


def _model_of(scenario: Any) -> dict:
    """The fight model's options a scenario is fought under, as the manifest records them (if it has any)."""
    model = getattr(scenario, "model", None)
    return {"model": model.model_dump(mode="json")} if model is not None and hasattr(model, "model_dump") else {}


def scenario_digest(contents: dict) -> str:
    """SHA-256 of a scenario's canonical JSON (used when the scenario has no ``digest()`` of its own)."""
    text = json.dumps(contents, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _as_rule_sets(rules: Any, options: Any = None) -> list[RuleSet] | None:
    if rules is None:
        return None
    if isinstance(rules, RuleSet | str):
        rules = [rules]
    out = [r if isinstance(r, RuleSet) else RuleSet.from_key(str(r), options) for r in rules]
    if not out:
        raise ArenaError("the grid is empty: name at least one rule set")
    dup = _first_duplicate(r.key for r in out)
    if dup is not None:
        raise ArenaError(f"rule set {dup!r} is named twice in the grid")
    return out


def _first_duplicate(items: Iterable[str]) -> str | None:
    """The first (alphabetically) item that appears more than once, or None."""
    seen: set[str] = set()
    twice: set[str] = set()
    for x in items:
        if x in seen:
            twice.add(x)
        seen.add(x)
    return min(twice) if twice else None


def make_plan(
    scenarios: Iterable[Any],
    *,
    n: int | None = None,
    seed: int | None = None,
    rules: Any = None,
    chunk_size: int | None = None,
    combatants: bool = False,
) -> Plan:
    """The plan of a run. ``n``, ``seed`` and ``rules`` (rule sets or keys) override every scenario's own;
    ``combatants``: the workers send one row per combatant too."""
    plans = []
    for sc in scenarios:
        contents = sc.model_dump(mode="json") if hasattr(sc, "model_dump") else {"name": sc.name}
        digest = sc.digest() if hasattr(sc, "digest") else scenario_digest(contents)
        own = list(sc.rule_sets())
        common = {r.options for r in own}
        grid = _as_rule_sets(rules, next(iter(common)) if len(common) == 1 else None) or own
        count = int(n if n is not None else sc.n)
        if not 1 <= count <= MAX_ENCOUNTERS:
            raise ArenaError(
                f"scenario {sc.name!r}: the number of encounters must be 1 to {MAX_ENCOUNTERS:,}, got {count:,}"
            )
        run_seed = int(seed if seed is not None else sc.seed)
        if not 0 <= run_seed <= MAX_SEED:
            raise ArenaError(f"the seed must be 0 to {MAX_SEED:,} (2**64 - 1), got {run_seed:,}")
        plans.append(ScenarioPlan(sc, sc.name, count, run_seed, grid, digest, contents))
    if not plans:
        raise ArenaError("no scenario to run")
    dup = _first_duplicate(p.name for p in plans)
    if dup is not None:
        raise ArenaError(f"scenario name {dup!r} appears twice; names must be unique within a run")
    size = int(chunk_size or DEFAULT_CHUNK)
    if not 1 <= size <= MAX_ENCOUNTERS:
        raise ArenaError(f"the chunk size must be 1 to {MAX_ENCOUNTERS:,}, got {size:,}")
    plan = Plan(plans, size, combatants)
    if plan.total > MAX_RUN_ENCOUNTERS:
        raise ArenaError(
            f"the run would fight {plan.total:,} encounters, more than the limit of "
            f"{MAX_RUN_ENCOUNTERS:,}; lower --n or the grid, or split the run"
        )
    return plan
