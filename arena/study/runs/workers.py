"""Fighting chunks: in this process, on local joblib (loky) workers, or on a Dask cluster.

A worker receives a :class:`Task` (everything to fight one chunk), prepares its scenario once per process, fights
the chunk and sends back compact column arrays; :func:`execute` hands each finished chunk to a sink in whatever
order they finish. A local worker exits when the run that started it is gone, at any point of its life (it is told
by the kernel, and watches for it from its first moment: :func:`_worker_init`); a dead worker's chunks are rerun.
On a Dask cluster the chunks go to the client of :mod:`arena.study.runs.cluster`.

Why a module of its own: this is where a run's chunks leave the process and come back, and where a worker that
died is noticed and its chunks fought again, the same way for every caller (a run on disk, ``arena.run``, a batch
of matchups).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.combat.tactics.policy_guard import PolicyError
from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.labels import printable
from arena.rules import RuleSet
from arena.study.runs.cluster import cluster_session
from arena.study.runs.combatant_tables import combatant_columns
from arena.study.runs.plan import KEY_COLUMNS, Chunk, Plan

MAX_RETRIES = 3
"""How often the chunks of a dead worker are rerun before the run gives up."""


# --------------------------------------------------------------------------------------------- simulators
class EngineSimulator:
    """The real thing: ``Scenario.prepare()`` once per process, :func:`arena.combat.engine.fight` per encounter.

    Any object with the same three methods can stand in (tests use a tiny deterministic one); one that also has
    ``fight_values`` (the record's values as a tuple in the order of ``schema()``) has its encounters written
    straight into the chunk's columns, without a dict per row (:func:`run_chunk`).
    """

    def prepare(self, scenario: Any, rules: RuleSet) -> Any:
        return scenario.prepare(rules.die)  # the generated party depends on the die

    def fight(self, prepared: Any, rules: RuleSet, seed: int) -> dict:
        from arena.combat.engine import fight

        return fight(prepared, rules, seed).record.as_row()

    def fight_values(self, prepared: Any, rules: RuleSet, seed: int) -> tuple:
        """:meth:`fight`'s row as a tuple of its values in the order of :meth:`schema`."""
        from arena.combat.engine import fight

        return fight(prepared, rules, seed).record.values()

    def fight_combatants(self, prepared: Any, rules: RuleSet, seed: int) -> tuple[tuple, list[tuple]]:
        """:meth:`fight_values` and the fight's rows per combatant (:data:`arena.combat.record.COMBATANT_SCHEMA`)."""
        from arena.combat.engine import fight

        result = fight(prepared, rules, seed, combatants=True)
        return result.record.values(), result.combatants

    def schema(self) -> dict[str, str]:
        from arena.combat.record import record_schema

        return record_schema()


PREPARED_KEEP = 64
"""How many prepared encounters a process keeps (:data:`_PREPARED`), the least recently used one dropped first."""

_PREPARED: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
"""Per-process cache of prepared encounters, keyed by matchup (simulator type, scenario digest, die) and kept in
the order they were last used: a worker prepares a scenario once however many chunks of it it fights, and a
matchup whose chunks are still coming is not dropped because others came between them (a cache emptied whenever
it filled up prepared such a matchup again)."""


def prepared_encounter(simulator: Any, scenario: Any, digest: str, rules: RuleSet) -> Any:
    """The simulator's encounter of ``scenario`` for ``rules``' die, prepared once per process (:data:`_PREPARED`)."""
    key = (type(simulator).__qualname__, digest, rules.die)
    encounter = _PREPARED.get(key)
    if encounter is None:
        encounter = simulator.prepare(scenario, rules)
        _PREPARED[key] = encounter
        while len(_PREPARED) > PREPARED_KEEP:
            _PREPARED.popitem(last=False)
    else:
        _PREPARED.move_to_end(key)
    return encounter


# --------------------------------------------------------------------------------------------- workers
@dataclass(frozen=True)
class Task:
    """What a worker receives: everything to fight one chunk, nothing it must look up."""

    chunk: Chunk
    scenario: Any
    digest: str
    rules: RuleSet
    seed: int
    parent: int = 0
    """The process id of the run that sent it: a local worker stops when that process is gone."""
    fields: tuple[str, ...] | None = None
    """The record fields the caller keeps (None: every one): the worker makes and sends only their columns."""
    combatants: bool = False
    """Send the chunk's rows per combatant too (:func:`arena.study.runs.combatant_tables.combatant_columns`)."""


_RULES: dict[str, RuleSet] = {}
"""Per-process rule sets: a rule set arriving in a task is a fresh copy whose compiled kernel is empty; the
cached one keeps its compiled plans across chunks."""


def warm_rules(rules: RuleSet) -> RuleSet:
    """This process's copy of ``rules``, whose compiled kernel is kept across chunks (:data:`_RULES`)."""
    key = rules.model_dump_json()
    return _RULES.setdefault(key, rules)


_WATCHING: list[int] = []


def _watch_parent(parent: int) -> None:
    """In a local worker process, exit as soon as the run that started it is gone (killed with SIGKILL, say), so
    no idle worker outlives its run. A worker of a cluster (whose parent is not the run) is left alone."""
    if _WATCHING or not parent or os.getpid() == parent or os.getppid() != parent:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    _WATCHING.append(parent)
    threading.Thread(target=watch, name="arena-parent-watch", daemon=True).start()


PARENT_DEATH_SIGNAL = "SIGUSR1"
"""The signal the kernel sends a local worker when the thread that started it ends (``PR_SET_PDEATHSIG``)."""


def _ask_kernel_for_parent_death(parent: int) -> None:
    """On Linux, have the kernel signal this worker the moment its parent goes (``prctl(PR_SET_PDEATHSIG)``).

    The kernel sends it when the parent *thread* that started the worker ends, which may be a thread of a run
    still alive: the handler exits only when the parent process is gone (the worker has been given to another)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    def gone(_signum: int, _frame: Any) -> None:
        if os.getppid() != parent:
            os._exit(1)

    with contextlib.suppress(OSError, AttributeError, ValueError, TypeError):
        signum = getattr(signal, PARENT_DEATH_SIGNAL)
        signal.signal(signum, gone)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signum), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG


def _worker_init(parent: int) -> None:
    """The initializer of a local (loky) worker, run before it takes any task: it dies with the run ``parent``
    whenever that goes, even while the pool is still starting (the kernel's signal, and a watching thread that
    polls the parent id twice a second). A run already gone by now: exit at once."""
    if os.getppid() != parent:
        os._exit(1)
    _ask_kernel_for_parent_death(parent)
    _watch_parent(parent)
    if os.getppid() != parent:  # gone between the first look and the kernel's promise
        os._exit(1)


def run_chunk(task: Task, simulator: Any) -> tuple[Chunk, dict[str, np.ndarray]]:
    """Fight one chunk; return its columns (index, seed and every record field the task keeps) as numpy arrays.

    Each encounter's record is taken as a tuple of its values in schema order (``simulator.fight_values``, or a
    simulator's dict row read in that order), and the tuples are turned into columns once, at the end of the chunk
    (:func:`chunk_columns`)."""
    _watch_parent(task.parent)
    prepared = prepared_encounter(simulator, task.scenario, task.digest, task.rules)
    schema = simulator.schema()
    chunk = task.chunk
    seeds = [encounter_seed(task.seed, i) for i in range(chunk.start, chunk.stop)]
    fight = _values_of(simulator, schema)
    rules = warm_rules(task.rules)
    rows: list[tuple] = []
    per_combatant: list[list[tuple]] = []
    if task.combatants:
        fight = _keeping_combatants(simulator, per_combatant)
    for s in seeds:
        try:
            rows.append(fight(prepared, rules, s))
        except PolicyError as err:  # a user's policy failed: this encounter is reported, not dropped
            index = chunk.start + len(rows)
            raise PolicyError(
                f"encounter {index} (engine seed {s}) of scenario {printable(task.scenario.name)!r} "
                f"under {rules.key} failed: {err}"
            ) from None
    columns: dict[str, np.ndarray] = {
        "index": np.arange(chunk.start, chunk.stop, dtype=np.int64),
        "seed": np.array(seeds, dtype=np.uint64),
    }
    columns.update(chunk_columns(schema, rows, task.fields))
    if task.combatants:
        columns.update(combatant_columns(range(chunk.start, chunk.stop), per_combatant))
    return chunk, columns


def _keeping_combatants(simulator: Any, into: list[list[tuple]]) -> Callable[[Any, RuleSet, int], tuple]:
    """The simulator's fight with its rows per combatant (``fight_combatants``), which it appends to ``into``."""
    both = getattr(simulator, "fight_combatants", None)
    if both is None:
        raise ArenaError(f"{type(simulator).__name__} cannot report combatants (it has no fight_combatants)")

    def fight(prepared: Any, rules: RuleSet, seed: int) -> tuple:
        values, combatants = both(prepared, rules, seed)
        into.append(combatants)
        return tuple(values)

    return fight


def _values_of(simulator: Any, schema: dict[str, str]) -> Callable[[Any, RuleSet, int], tuple]:
    """The simulator's fight as a function giving the record's values in schema order."""
    values = getattr(simulator, "fight_values", None)
    if values is not None:
        return values
    fight, names = simulator.fight, tuple(schema)

    def from_row(prepared: Any, rules: RuleSet, seed: int) -> tuple:
        row = fight(prepared, rules, seed)
        return tuple([row[name] for name in names])

    return from_row


def chunk_columns(
    schema: dict[str, str], rows: Sequence[tuple], fields: Sequence[str] | None = None
) -> dict[str, np.ndarray]:
    """The record fields of a chunk as numpy arrays (strings as object arrays), from its rows of values in schema
    order: the rows are transposed once (``zip``), and only the fields kept (``fields``, None: all) are made into
    arrays. The key columns of a run are its own and are left out."""
    wanted = None if fields is None else set(fields)
    by_field = list(zip(*rows, strict=True)) if rows else [() for _ in schema]
    columns: dict[str, np.ndarray] = {}
    for (name, kind), values in zip(schema.items(), by_field, strict=True):
        if name in KEY_COLUMNS or (wanted is not None and name not in wanted):
            continue  # the experiment's own column wins (same meaning); a field the caller drops is not sent
        columns[name] = np.array(values, dtype=object if kind == "string" else kind)
    return columns


def _tasks(plan: Plan, chunks: Iterable[Chunk], fields: Sequence[str] | None = None) -> Iterator[Task]:
    kept = None if fields is None else tuple(fields)
    for c in chunks:
        sp = plan.scenarios[c.scenario]
        yield Task(c, sp.scenario, sp.digest, sp.rule_sets[c.rules], sp.seed, os.getpid(), kept, plan.combatants)


JOBLIB_CANCELLED = r".*tasks .*(cancelled|not used)"
"""joblib's warning counting the tasks an interrupt cancelled: not news to the user, who interrupted."""


class Cancelled(Exception):
    """A batch stopped because its ``stop`` event was set: another part of the study failed or was interrupted
    (:mod:`arena.study.runs.phases`). Its finished chunks are kept."""


class WorkerDied(ArenaError):
    """Workers kept dying: the run stopped (finished chunks are kept; ``--resume`` continues)."""


LEAD_IN_FLIGHT = 4
"""How many times more chunks a batch marked ``lead`` keeps in flight on a shared pool than the others
(:func:`execute`)."""


def _joblib_results(
    tasks: Iterator[Task], simulator: Any, workers: int, lead: bool = False
) -> Iterator[tuple[Chunk, dict]]:
    from joblib import Parallel, delayed, parallel_config

    in_flight = 2 * (LEAD_IN_FLIGHT if lead else 1)
    with parallel_config(backend="loky", initializer=_worker_init, initargs=(os.getpid(),)):
        parallel = Parallel(n_jobs=workers, return_as="generator_unordered", pre_dispatch=f"{in_flight}*n_jobs")
    yield from parallel(delayed(run_chunk)(t, simulator) for t in tasks)


def _dask_results(tasks: Iterator[Task], simulator: Any, client: Any, window: int) -> Iterator[tuple[Chunk, dict]]:
    from dask.distributed import as_completed

    pending = None
    for task in tasks:  # keep at most `window` chunks in flight: memory stays flat on both sides
        future = client.submit(run_chunk, task, simulator, pure=False, retries=MAX_RETRIES)
        if pending is None:
            pending = as_completed([future], loop=client.loop)
        else:
            pending.add(future)
        if pending.count() >= window:
            done = next(pending)
            yield done.result()
            done.release()
    for done in pending or ():
        yield done.result()
        done.release()


@contextlib.contextmanager
def _quiet_cancellations() -> Iterator[None]:
    """joblib's count of the tasks an interrupt cancelled silenced (:data:`JOBLIB_CANCELLED`). Only in the main
    thread: the warnings filters are the process's, and ``catch_warnings`` from two threads at once can leave them
    wrong; parts run on other threads are silenced by :func:`arena.study.runs.phases.run_phases` around them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", JOBLIB_CANCELLED, UserWarning)
        yield


def _is_worker_death(err: BaseException) -> bool:
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(err, BrokenProcessPool) or type(err).__name__ in ("TerminatedWorkerError", "KilledWorker")


def execute(
    plan: Plan,
    chunks: Sequence[Chunk],
    sink: Callable[[Chunk, dict], None],
    *,
    workers: int = 1,
    cluster: Any = None,
    simulator: Any = None,
    on_event: Callable[[str], None] | None = None,
    fields: Sequence[str] | None = None,
    stop: threading.Event | None = None,
    share_pool: bool = False,
    lead: bool = False,
) -> None:
    """Fight ``chunks`` of ``plan`` and hand each finished one to ``sink(chunk, columns)`` (in any order).

    ``fields``: the record fields the sink keeps (None: every one); the workers send only those columns.

    ``workers == 1`` runs in this process; more use joblib (loky processes), never more than there are chunks
    unless ``share_pool`` (other batches are fighting on the same pool at the same time, from other threads: its
    size must not change under them); ``cluster`` a Dask scheduler address (connected to for this call) or a client
    of :func:`arena.study.runs.cluster.connect_cluster` (left open). If a worker dies, the event is reported and the
    chunks not yet finished are rerun. ``stop``: set from another thread, the batch stops at its next finished chunk
    (:class:`Cancelled`). ``lead`` (only with ``share_pool``): this batch is on the study's critical path
    (a chain of batches waiting on each other): it keeps :data:`LEAD_IN_FLIGHT` times as many chunks in flight, so
    the pool, which takes chunks in the order they come, fights more of its chunks while the others fill the gaps.
    Where and when a chunk is fought never changes its rows.
    """
    simulator = simulator or EngineSimulator()
    say = on_event or (lambda _msg: None)
    left = list(chunks)
    if not share_pool:
        workers = min(workers, max(1, len(left)))
    with cluster_session(cluster or None) as client:
        _execute(plan, left, sink, workers, client, simulator, say, fields, stop, lead and share_pool)


def _execute(
    plan: Plan,
    left: list[Chunk],
    sink: Callable[[Chunk, dict], None],
    workers: int,
    client: Any,
    simulator: Any,
    say: Callable[[str], None],
    fields: Sequence[str] | None,
    stop: threading.Event | None = None,
    lead: bool = False,
) -> None:
    """The retry loop of :func:`execute` (its client open); ``fields``: the record fields kept."""
    for attempt in range(MAX_RETRIES + 1):
        done: set[Chunk] = set()
        if stop is not None and stop.is_set():
            raise Cancelled(f"stopped with {len(left)} chunks unfinished")
        try:
            tasks = _tasks(plan, left, fields)
            if client is not None:
                window = 2 * max(1, sum(client.nthreads().values()))
                results = _dask_results(tasks, simulator, client, window)
            elif workers <= 1:
                results = (run_chunk(t, simulator) for t in tasks)
            else:
                results = _joblib_results(tasks, simulator, workers, lead)
            with _quiet_cancellations():
                try:
                    for chunk, columns in results:
                        sink(chunk, columns)
                        done.add(chunk)
                        if stop is not None and stop.is_set():
                            raise Cancelled(f"stopped with {len(left) - len(done)} chunks unfinished")
                finally:
                    close = getattr(results, "close", None)
                    if close is not None:
                        close()
            return
        except Exception as err:
            if not _is_worker_death(err):
                raise
            left = [c for c in left if c not in done]
            if attempt == MAX_RETRIES:
                raise WorkerDied(
                    f"a worker died {MAX_RETRIES + 1} times ({type(err).__name__}); "
                    f"{len(left)} chunks unfinished, finished ones are kept"
                ) from None
            say(f"a worker died ({type(err).__name__}); rerunning its chunk ({len(left)} chunks left)")
