"""``arena.run``: scenarios fought on workers into one pandas DataFrame, one row per encounter, with nothing written
to disk.

Why a module of its own: a notebook's run shares the plan, the workers and the typed tables of a run on disk
(:mod:`arena.study.runs.experiment`), but none of its folder, lock, ledger or resume; the rows come back in plan
order, the same for any number of workers.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Literal, overload

import pandas as pd

from arena.errors import ArenaError
from arena.limits import MAX_WORKERS
from arena.rules import RuleSet
from arena.study.runs import combatant_tables
from arena.study.runs.plan import Chunk, make_plan
from arena.study.runs.progress import ProgressCallback, progress_for
from arena.study.runs.tables import arrow_schema, chunk_table
from arena.study.runs.workers import EngineSimulator, execute
from arena.study.scenarios.scenario import Scenario

ScenarioLike = Scenario | str | os.PathLike | Sequence[Scenario | str | os.PathLike]
"""What ``run`` fights: a Scenario, a scenario file's path, or a list of them. Defined at run time (not only for the
type checker), so that ``typing.get_type_hints(arena.run)`` and a notebook's help can read ``run``'s signature."""
RulesLike = RuleSet | str | Sequence[RuleSet | str] | None
"""The rule sets of ``run``: a RuleSet, its key, a list of them, or None (each scenario's own)."""


def _load(scenario: Any, trust_policies: bool = False, bestiary: Sequence[str | os.PathLike] = ()) -> list[Any]:
    if isinstance(scenario, str | os.PathLike):
        from arena.study.scenarios.loading import load_scenarios

        return list(load_scenarios(scenario, trust_policies=trust_policies, bestiary=bestiary))
    if isinstance(scenario, list | tuple):
        return [s for item in scenario for s in _load(item, trust_policies, bestiary)]
    if bestiary:
        raise ArenaError(
            "bestiary= adds creatures to the names of scenario files; a Scenario object has looked its "
            "names up already (give load_scenarios(..., bestiary=) instead)"
        )
    return [scenario]


def every_core() -> int:
    """The default number of workers of a notebook's run or calibration: every local core (at most the limit), as
    the command line; the results are the same for any number."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


@overload
def run(
    scenario: ScenarioLike,
    n: int | None = None,
    seed: int | None = None,
    rules: RulesLike = None,
    *,
    workers: int | None = None,
    chunk_size: int | None = None,
    simulator: Any = None,
    trust_policies: bool = False,
    progress: bool | ProgressCallback | None = None,
    bestiary: str | os.PathLike | Sequence[str | os.PathLike] = (),
    combatants: Literal[False] = False,
) -> pd.DataFrame: ...


@overload
def run(
    scenario: ScenarioLike,
    n: int | None = None,
    seed: int | None = None,
    rules: RulesLike = None,
    *,
    workers: int | None = None,
    chunk_size: int | None = None,
    simulator: Any = None,
    trust_policies: bool = False,
    progress: bool | ProgressCallback | None = None,
    bestiary: str | os.PathLike | Sequence[str | os.PathLike] = (),
    combatants: Literal[True],
) -> tuple[pd.DataFrame, pd.DataFrame]: ...


def run(
    scenario: ScenarioLike,
    n: int | None = None,
    seed: int | None = None,
    rules: RulesLike = None,
    *,
    workers: int | None = None,
    chunk_size: int | None = None,
    simulator: Any = None,
    trust_policies: bool = False,
    progress: bool | ProgressCallback | None = None,
    bestiary: str | os.PathLike | Sequence[str | os.PathLike] = (),
    combatants: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Fight ``scenario`` (a Scenario, a YAML path, or a list of them) and return one pandas row per encounter.

    ``rules``: None (the scenario's own grid), a RuleSet or key, or a list of them. Nothing is written to disk.
    Rows are in plan order (scenario, rule set, index), whatever ``workers`` is (default: every core, as the CLI;
    the rows are the same for any number). ``progress``: a progress bar (rich) on stderr; by default (None) shown
    for runs of 10,000 encounters or more, in a terminal or a notebook only (a script whose output is redirected
    gets none); a function ``progress(done, total)`` is told instead. ``trust_policies`` lets the Python policy
    files a scenario file lists run (as ``--trust-policies`` does). ``bestiary``: stat-block files or folders whose
    creatures the scenario files' names reach (as ``--bestiary`` does); their stat blocks travel with the scenarios
    to the workers.
    ``combatants``: return ``(encounters, combatants)``, the second one row per encounter and combatant (who went
    down, died, hit points left, damage dealt: the table ``arena run`` writes as ``combatants.parquet``).
    """
    import pyarrow as pa

    simulator = simulator or EngineSimulator()
    workers = every_core() if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        raise ArenaError(f"workers must be 1 to {MAX_WORKERS}, got {workers}")
    extra = [bestiary] if isinstance(bestiary, str | os.PathLike) else list(bestiary)
    loaded = _load(scenario, trust_policies, extra)
    plan = make_plan(loaded, n=n, seed=seed, rules=rules, chunk_size=chunk_size, combatants=combatants)
    if combatants and not hasattr(simulator, "fight_combatants"):
        raise ArenaError(f"{type(simulator).__name__} cannot report combatants (it has no fight_combatants)")
    chunks = list(plan.chunks())
    workers = min(workers, max(1, len(chunks)))
    schema = arrow_schema(simulator.schema())
    tables: dict[Chunk, Any] = {}
    fought: dict[Chunk, Any] = {}
    with progress_for(progress, long=plan.total >= 10_000) as tick:
        tick(0, plan.total)

        def keep(chunk: Chunk, cols: dict) -> None:
            tables[chunk] = chunk_table(plan, chunk, cols, schema)
            if combatants:
                fought[chunk] = combatant_tables.chunk_table(plan, chunk, cols)
            tick(sum(c.size for c in tables), plan.total)

        execute(plan, chunks, keep, workers=workers, simulator=simulator)
    encounters = pa.concat_tables([tables[c] for c in plan.chunks()]).to_pandas()
    if not combatants:
        return encounters
    return encounters, pa.concat_tables([fought[c] for c in plan.chunks()]).to_pandas()
