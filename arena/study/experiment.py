"""Experiments: scenarios x rule sets x encounters, on local workers or a Dask cluster, written to disk.

A run is a :class:`Plan`: for every scenario, every rule set of its grid, encounters ``0..n-1``. Encounter ``i``
of a scenario is fought with ``encounter_seed(seed, i)`` under *every* rule set (common random numbers), so the
rule sets are compared on the same dice, and the result does not depend on how many workers ran it.

The plan is cut into :class:`Chunk` s (one scenario, one rule set, a range of encounter indices, 500 by
default): a worker prepares the scenario once (cached per process), fights the chunk and sends back compact
column arrays. The parent writes every finished chunk as its own parquet part file (written aside, then
renamed), so an interrupted run leaves whole chunks only and ``resume=True`` completes it; at the end the part
files are assembled, in plan order, into ``encounters.parquet`` row group by row group (memory stays flat).

``results/NAME/`` holds ``encounters.parquet`` (one typed row per encounter), ``manifest.json`` (what was run,
how, and how fast) and ``summary.csv`` (see :func:`arena.study.analysis.summarise`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.fight.policy_guard import PolicyError
from arena.labels import printable
from arena.limits import MAX_ENCOUNTERS, MAX_RUN_ENCOUNTERS, MAX_SEED, MAX_WORKERS
from arena.rules import RuleSet
from arena.study.results_folder import (
    code_fingerprint,
    file_sha256,
    locked,
    looks_like_results,
    os_problem,
    record_chunk,
    refuse_links,
    remove_run_files,
    verified_chunks,
)

DEFAULT_CHUNK = 500
"""Encounters per task: large enough to amortise pickling and scheduling (a few ms), small enough to balance."""
MAX_RETRIES = 3
"""How often the chunks of a dead worker are rerun before the run gives up."""
FORMAT = 2
"""Version of the results folder layout (in the manifest); 2 added the chunk ledger and the code fingerprint."""

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


# --------------------------------------------------------------------------------------------- simulators
class EngineSimulator:
    """The real thing: ``Scenario.prepare()`` once per process, :func:`arena.fight.engine.fight` per encounter.

    Any object with the same three methods can stand in (tests use a tiny deterministic one).
    """

    def prepare(self, scenario: Any, rules: RuleSet) -> Any:
        return scenario.prepare(rules.die)  # the generated party depends on the die

    def fight(self, prepared: Any, rules: RuleSet, seed: int) -> dict:
        from arena.fight.engine import fight

        return fight(prepared, rules, seed).record.as_row()

    def schema(self) -> dict[str, str]:
        from arena.fight.record import record_schema

        return record_schema()


_PREPARED: dict[tuple[str, str, str], Any] = {}
"""Per-process cache of prepared encounters, keyed by (simulator type, scenario digest, die): a worker
prepares a scenario once, however many chunks of it it fights."""


def _prepared(simulator: Any, scenario: Any, digest: str, rules: RuleSet) -> Any:
    key = (type(simulator).__qualname__, digest, rules.die)
    encounter = _PREPARED.get(key)
    if encounter is None:
        if len(_PREPARED) >= 16:
            _PREPARED.clear()
        encounter = _PREPARED[key] = simulator.prepare(scenario, rules)
    return encounter


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
            "scenarios": [{"name": sp.name, "digest": sp.digest, "n": sp.n, "seed": sp.seed,
                           "rule_sets": [r.model_dump(mode="json") for r in sp.rule_sets]}
                          for sp in self.scenarios],
        }


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
    twice = {x for x in items if x in seen or seen.add(x)}
    return min(twice) if twice else None


def make_plan(scenarios: Iterable[Any], *, n: int | None = None, seed: int | None = None,
              rules: Any = None, chunk_size: int | None = None) -> Plan:
    """The plan of a run. ``n``, ``seed`` and ``rules`` (rule sets or keys) override every scenario's own."""
    plans = []
    for sc in scenarios:
        contents = sc.model_dump(mode="json") if hasattr(sc, "model_dump") else {"name": sc.name}
        digest = sc.digest() if hasattr(sc, "digest") else scenario_digest(contents)
        own = list(sc.rule_sets())
        common = {r.options for r in own}
        grid = _as_rule_sets(rules, next(iter(common)) if len(common) == 1 else None) or own
        count = int(n if n is not None else sc.n)
        if not 1 <= count <= MAX_ENCOUNTERS:
            raise ArenaError(f"scenario {sc.name!r}: the number of encounters must be 1 to {MAX_ENCOUNTERS:,}, "
                             f"got {count:,}")
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
    plan = Plan(plans, size)
    if plan.total > MAX_RUN_ENCOUNTERS:
        raise ArenaError(f"the run would fight {plan.total:,} encounters, more than the limit of "
                         f"{MAX_RUN_ENCOUNTERS:,}; lower --n or the grid, or split the run")
    return plan


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


_RULES: dict[str, RuleSet] = {}
"""Per-process rule sets: a rule set arriving in a task is a fresh copy whose compiled kernel is empty; the
cached one keeps its compiled plans across chunks."""


def _warm_rules(rules: RuleSet) -> RuleSet:
    key = rules.model_dump_json()
    return _RULES.setdefault(key, rules)


_WATCHING: list[int] = []


def _watch_parent(parent: int) -> None:
    """In a local worker process, exit as soon as the run that started it is gone (killed with SIGKILL, say), so
    no idle worker outlives its run. A worker of a cluster (whose parent is not the run) is left alone."""
    if _WATCHING or not parent or os.getpid() == parent or os.getppid() != parent:
        return
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    _WATCHING.append(parent)
    threading.Thread(target=watch, name="arena-parent-watch", daemon=True).start()


def run_chunk(task: Task, simulator: Any) -> tuple[Chunk, dict[str, np.ndarray]]:
    """Fight one chunk; return its columns (index, seed and every record field) as numpy arrays."""
    _watch_parent(task.parent)
    prepared = _prepared(simulator, task.scenario, task.digest, task.rules)
    schema = simulator.schema()
    chunk = task.chunk
    seeds = [encounter_seed(task.seed, i) for i in range(chunk.start, chunk.stop)]
    fight = simulator.fight
    rules = _warm_rules(task.rules)
    rows = []
    for s in seeds:
        try:
            rows.append(fight(prepared, rules, s))
        except PolicyError as err:               # a user's policy failed: this encounter is reported, not dropped
            index = chunk.start + len(rows)
            raise PolicyError(f"encounter {index} (engine seed {s}) of scenario {printable(task.scenario.name)!r} "
                              f"under {rules.key} failed: {err}") from None
    columns: dict[str, np.ndarray] = {
        "index": np.arange(chunk.start, chunk.stop, dtype=np.int64),
        "seed": np.array(seeds, dtype=np.uint64),
    }
    for name, kind in schema.items():
        if name in KEY_COLUMNS:
            continue  # the experiment's own column wins (same meaning)
        values = [row[name] for row in rows]
        columns[name] = np.array(values, dtype=object if kind == "string" else kind)
    return chunk, columns


def _tasks(plan: Plan, chunks: Iterable[Chunk]) -> Iterator[Task]:
    for c in chunks:
        sp = plan.scenarios[c.scenario]
        yield Task(c, sp.scenario, sp.digest, sp.rule_sets[c.rules], sp.seed, os.getpid())


class WorkerDied(ArenaError):
    """Workers kept dying: the run stopped (finished chunks are kept; ``--resume`` continues)."""


def _joblib_results(tasks: Iterator[Task], simulator: Any, workers: int) -> Iterator[tuple[Chunk, dict]]:
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=workers, return_as="generator_unordered", pre_dispatch="2*n_jobs")
    yield from parallel(delayed(run_chunk)(t, simulator) for t in tasks)


def connect_cluster(address: str) -> Any:
    """A ``dask.distributed.Client`` for ``address``; ArenaError (one line) if dask is missing or unreachable."""
    import socket
    from urllib.parse import urlparse

    try:
        parsed = urlparse(address if "://" in address else f"tcp://{address}")
        host, port = parsed.hostname, parsed.port
    except ValueError:
        raise ArenaError(f"--cluster {address!r}: expected a scheduler address like tcp://HOST:PORT") from None
    tcp = parsed.scheme in ("tcp", "tls")
    if tcp and (not host or not port):
        raise ArenaError(f"--cluster {address!r}: expected a scheduler address like tcp://HOST:PORT")
    try:
        from dask.distributed import Client
    except ImportError:
        raise ArenaError("--cluster needs Dask: pip install 'd20-arena[dask]'") from None
    if tcp:  # fail fast: Client() would keep retrying a refused connection until its timeout
        try:
            socket.create_connection((host, port), timeout=3).close()
        except OSError as err:
            raise ArenaError(f"cannot reach the Dask scheduler at {address} ({err.strerror or err})") from None
    try:
        return Client(address, timeout="5s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ArenaError(f"cannot reach the Dask scheduler at {address} ({reason[:160]})") from None


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


def _is_worker_death(err: BaseException) -> bool:
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(err, BrokenProcessPool) or type(err).__name__ in ("TerminatedWorkerError", "KilledWorker")


def execute(plan: Plan, chunks: Sequence[Chunk], sink: Callable[[Chunk, dict], None], *, workers: int = 1,
            cluster: str | None = None, simulator: Any = None,
            on_event: Callable[[str], None] | None = None) -> None:
    """Fight ``chunks`` of ``plan`` and hand each finished one to ``sink(chunk, columns)`` (in any order).

    ``workers == 1`` runs in this process; more use joblib (loky processes); ``cluster`` a Dask scheduler
    address. If a worker dies, the event is reported and the chunks not yet finished are rerun.
    """
    simulator = simulator or EngineSimulator()
    say = on_event or (lambda _msg: None)
    left = list(chunks)
    client = connect_cluster(cluster) if cluster else None
    try:
        for attempt in range(MAX_RETRIES + 1):
            done: set[Chunk] = set()
            try:
                if client is not None:
                    window = 2 * max(1, sum(client.nthreads().values()))
                    results = _dask_results(_tasks(plan, left), simulator, client, window)
                elif workers <= 1:
                    results = (run_chunk(t, simulator) for t in _tasks(plan, left))
                else:
                    results = _joblib_results(_tasks(plan, left), simulator, workers)
                for chunk, columns in results:
                    sink(chunk, columns)
                    done.add(chunk)
                return
            except Exception as err:
                if not _is_worker_death(err):
                    raise
                left = [c for c in left if c not in done]
                if attempt == MAX_RETRIES:
                    raise WorkerDied(f"a worker died {MAX_RETRIES + 1} times ({type(err).__name__}); "
                                     f"{len(left)} chunks unfinished, finished ones are kept") from None
                say(f"a worker died ({type(err).__name__}); rerunning its chunk ({len(left)} chunks left)")
    finally:
        if client is not None:
            client.close()


# --------------------------------------------------------------------------------------------- tables
def arrow_schema(record: dict[str, str]) -> Any:
    import pyarrow as pa

    types = {"int64": pa.int64(), "uint64": pa.uint64(), "float64": pa.float64(), "bool": pa.bool_(),
             "string": pa.string()}
    fields = [pa.field(name, types[kind]) for name, kind in KEY_COLUMNS.items()]
    fields += [pa.field(name, types[kind]) for name, kind in record.items() if name not in KEY_COLUMNS]
    return pa.schema(fields)


def chunk_table(plan: Plan, chunk: Chunk, columns: dict[str, np.ndarray], schema: Any) -> Any:
    """The typed arrow table of one finished chunk: key columns, then the record's fields."""
    import pyarrow as pa

    sp = plan.scenarios[chunk.scenario]
    rules = sp.rule_sets[chunk.rules]
    rows = chunk.size
    constants = {"scenario": sp.name, "rules": rules.key, "die": rules.die,
                 "players_roll_all": rules.players_roll_all, "modifiers": rules.modifiers,
                 "open_ended": rules.open_ended, "called_shots": rules.called_shots}
    arrays = []
    for f in schema:
        if f.name in constants:
            arrays.append(pa.array([constants[f.name]] * rows, type=f.type))
        else:
            arrays.append(pa.array(columns[f.name], type=f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


# --------------------------------------------------------------------------------------------- disk
def _write_json_atomic(path: Path, doc: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def package_versions() -> dict[str, str | None]:
    from importlib import metadata

    out: dict[str, str | None] = {"python": sys.version.split()[0]}
    for name in ("d20-arena", "numpy", "pandas", "pyarrow", "pydantic", "simpy", "icepool", "joblib", "scipy",
                 "statsmodels", "dask", "distributed"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def git_commit() -> str | None:
    """The commit of the source tree this package runs from (``+dirty`` if it has changes), or None."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=5)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


@dataclass
class RunOutcome:
    """What :func:`run_experiment` did."""

    out: Path
    encounters: int
    """Encounters in the results (all of them, including any finished before a resume)."""
    fought: int
    """Encounters fought by this call."""
    seconds: float
    resumed_chunks: int = 0
    events: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.fought / self.seconds if self.seconds > 0 else float("nan")


def _same_plan(out: Path, old: dict, plan: Plan) -> None:
    """Refuse to resume ``out`` with other settings or other code than it was started with."""
    before = dict(old.get("plan") or {})
    now = json.loads(json.dumps(plan.fingerprint(), default=str))
    code_before, code_now = before.pop("code", None), now.pop("code")
    if before != now:
        raise ArenaError(f"{out} was run with different scenarios or settings (n, seed, grid, chunk size); "
                         "--resume needs the same ones (or use --force to start again)")
    if code_before != code_now:
        raise ArenaError(f"{out} was started by another version of d20 Arena (code {str(code_before)[:12]}, now "
                         f"{code_now[:12]}); resuming would mix two engines in one file: use --force to fight it "
                         "again")


def _read_manifest(out: Path) -> dict:
    path = out / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as err:
        reason = str(err)[:120] if not isinstance(err, RecursionError) else "nested too deeply"
        raise ArenaError(f"{path}: unreadable manifest ({reason}); use --force to start again") from None
    sessions = manifest.get("sessions", []) if isinstance(manifest, dict) else None
    valid = isinstance(sessions, list) and all(
        isinstance(s, dict) and isinstance(s.get("encounters"), int) and isinstance(s.get("seconds"), int | float)
        for s in sessions)
    if not isinstance(manifest, dict) or not valid or not isinstance(manifest.get("plan", {}), dict):
        raise ArenaError(f"{path}: not a run manifest (or edited by hand); use --force to start again")
    return manifest


def _prepare_folder(out: Path, plan: Plan, resume: bool, force: bool,
                    say: Callable[[str], None]) -> dict | None:
    """Check ``out`` (locked by the caller) may be used; return the existing manifest when resuming.

    ``force`` removes only what a run wrote (:func:`arena.study.results_folder.remove_run_files`)."""
    refuse_links(out)
    contents = [p for p in out.iterdir() if p.name != ".arena-lock"]
    if not contents:
        return None
    if force:
        if not looks_like_results(out):
            raise ArenaError(f"{out} is not empty and does not look like a results folder (no manifest.json); "
                             "refusing to delete anything in it with --force")
        left = remove_run_files(out)
        if left:
            say(f"--force left {len(left)} file(s) in {out} that arena did not write: {', '.join(left[:3])}"
                + (" ..." if len(left) > 3 else ""))
        return None
    if not resume:
        raise ArenaError(f"{out} already exists: use --resume to complete it or --force to replace it")
    if not (out / "manifest.json").is_file():
        raise ArenaError(f"{out}: no manifest.json, nothing to resume (use --force to start again)")
    manifest = _read_manifest(out)
    _same_plan(out, manifest, plan)
    return manifest


def _complete_and_intact(out: Path, old: dict, say: Callable[[str], None]) -> bool:
    """A complete run whose encounters.parquet still has the checksum the manifest gives."""
    if old.get("status") != "complete":
        return False
    target = out / "encounters.parquet"
    expected = old.get("encounters_sha256")
    if target.is_file() and expected and file_sha256(target) == expected:
        if not (out / "summary.csv").is_file():
            say(f"{out / 'summary.csv'} was missing; written again from encounters.parquet")
            write_summary(out)
        return True
    say(f"{target} is missing or damaged (its checksum does not match the manifest); fighting the run again")
    for name in ("encounters.parquet", "summary.csv"):
        if (out / name).is_file():
            (out / name).unlink()
    return False


def _preflight(plan: Plan, simulator: Any) -> None:
    """Fight encounter 0 of every scenario under every rule set before anything is written, so a rule a stat block
    cannot meet (a 10-20 threat range under 3d6) or a failing policy is reported before a results folder exists."""
    for sp in plan.scenarios:
        for rules in sp.rule_sets:
            prepared = _prepared(simulator, sp.scenario, sp.digest, rules)
            simulator.fight(prepared, _warm_rules(rules), encounter_seed(sp.seed, 0))


def run_experiment(scenarios: Iterable[Any], out: str | os.PathLike, *, n: int | None = None,
                   seed: int | None = None, rules: Any = None, workers: int = 1, cluster: str | None = None,
                   chunk_size: int | None = None, resume: bool = False, force: bool = False,
                   simulator: Any = None, progress: Callable[[int, int], None] | None = None,
                   on_event: Callable[[str], None] | None = None) -> RunOutcome:
    """Run every scenario under every rule set and write ``out/`` (see the module docstring).

    ``progress(done, total)`` is called with encounters finished (including those found on resume).
    Ctrl-C (KeyboardInterrupt) propagates after the finished chunks are safely on disk. The folder is locked for
    the whole run; an error of the file system (a full disk, a read-only folder) is an ArenaError naming it.
    """
    simulator = simulator or EngineSimulator()
    if not 1 <= workers <= MAX_WORKERS:
        raise ArenaError(f"--workers must be 1 to {MAX_WORKERS}, got {workers}")
    plan = make_plan(scenarios, n=n, seed=seed, rules=rules, chunk_size=chunk_size)
    _preflight(plan, simulator)
    out = Path(out)
    events: list[str] = []

    def say(msg: str) -> None:
        events.append(msg)
        if on_event:
            on_event(msg)

    try:
        if out.exists() and not out.is_dir():
            raise ArenaError(f"{out} exists and is not a folder")
        with locked(out):
            return _run_locked(plan, out, resume, force, workers, cluster, simulator, progress, say, events)
    except OSError as err:
        where = err.filename or out
        raise ArenaError(f"{where}: cannot write the results ({os_problem(err)}); finished chunks are kept, "
                         "complete the run with --resume once this is mended") from None


def _run_locked(plan: Plan, out: Path, resume: bool, force: bool, workers: int, cluster: str | None,
                simulator: Any, progress: Callable[[int, int], None] | None, say: Callable[[str], None],
                events: list[str]) -> RunOutcome:
    import pyarrow.parquet as pq

    old = _prepare_folder(out, plan, resume, force, say)
    if old is not None and _complete_and_intact(out, old, say):
        if progress:
            progress(plan.total, plan.total)
        return RunOutcome(out, plan.total, 0, 0.0, events=[*events, "already complete: nothing to do"])
    parts = out / "chunks"
    parts.mkdir(exist_ok=True)
    all_chunks = list(plan.chunks())
    expected = {c.filename: (c.start, c.stop) for c in all_chunks}
    present, notes = verified_chunks(parts, expected)
    for note in notes:
        say(note)

    started = _now()
    manifest = {
        "format": FORMAT,
        "status": "running",
        "started": old.get("started", started) if old else started,
        "finished": None,
        "sessions": (old.get("sessions", []) if old else []),
        "plan": json.loads(json.dumps(plan.fingerprint(), default=str)),
        "scenarios": [{"name": sp.name, "digest": sp.digest, "n": sp.n, "seed": sp.seed,
                       "rule_sets": [r.key for r in sp.rule_sets], "contents": sp.contents}
                      for sp in plan.scenarios],
        "grid": sorted({r.key for sp in plan.scenarios for r in sp.rule_sets}),
        "seeds": {sp.name: sp.seed for sp in plan.scenarios},
        "seed_rule": "encounter i of a scenario uses arena.dice.encounter_seed(seed, i) under every rule set",
        "versions": package_versions(),
        "git_commit": git_commit(),
        "workers": workers,
        "cluster": cluster,
    }
    _write_json_atomic(out / "manifest.json", manifest)

    todo = [c for c in all_chunks if c.filename not in present]
    already = plan.total - sum(c.size for c in todo)
    schema = arrow_schema(simulator.schema())
    finished = already
    if progress:
        progress(finished, plan.total)

    def sink(chunk: Chunk, columns: dict) -> None:
        nonlocal finished
        table = chunk_table(plan, chunk, columns, schema)
        tmp = parts / (chunk.filename + ".tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, parts / chunk.filename)
        record_chunk(parts, chunk.filename, chunk.start, chunk.stop)
        finished += chunk.size
        if progress:
            progress(finished, plan.total)

    t0 = time.perf_counter()
    status = "interrupted"
    try:
        execute(plan, todo, sink, workers=min(workers, max(1, len(todo))), cluster=cluster, simulator=simulator,
                on_event=say)
        status = "running"
    except ArenaError as err:
        status = "failed"
        manifest["error"] = str(err)
        raise
    finally:
        seconds = time.perf_counter() - t0
        manifest["sessions"] = [*manifest["sessions"], {"started": started, "ended": _now(), "workers": workers,
                                                        "encounters": finished - already,
                                                        "seconds": round(seconds, 3)}]
        manifest["status"] = status
        _write_json_atomic(out / "manifest.json", manifest)

    assemble(plan, parts, out / "encounters.parquet", schema)
    write_summary(out)
    total_fought = sum(s["encounters"] for s in manifest["sessions"])
    total_seconds = sum(s["seconds"] for s in manifest["sessions"])
    manifest.pop("error", None)
    manifest.update(status="complete", finished=_now(), encounters=plan.total,
                    encounters_sha256=file_sha256(out / "encounters.parquet"),
                    encounters_per_second=round(total_fought / total_seconds, 1) if total_seconds else None)
    _write_json_atomic(out / "manifest.json", manifest)
    remove_run_files_in_chunks(parts)
    return RunOutcome(out, plan.total, finished - already, seconds, len(all_chunks) - len(todo), events)


def remove_run_files_in_chunks(parts: Path) -> None:
    """Remove the chunk files and the ledger once ``encounters.parquet`` holds them (and nothing else there)."""
    from arena.study.results_folder import CHUNK_RE, LEDGER_NAME

    for entry in parts.iterdir():
        if (entry.name == LEDGER_NAME or CHUNK_RE.match(entry.name)) and entry.is_file() and not entry.is_symlink():
            entry.unlink()
    with contextlib.suppress(OSError):
        parts.rmdir()


ROW_GROUP = 65_536
"""Rows per row group of ``encounters.parquet``: part files are merged up to this size, no further."""


def _read_chunk(path: Path, chunk: Chunk, schema: Any) -> Any:
    """A chunk file as a table, checked to hold exactly the chunk's encounters."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path, schema=schema)
    except (pa.ArrowException, OSError) as err:
        raise ArenaError(f"{path}: a damaged chunk ({str(err).splitlines()[0][:120]}); rerun with --resume to "
                         "fight it again") from None
    index = table.column("index").to_numpy()
    if len(index) != chunk.size or (len(index) and (index[0] != chunk.start or index[-1] != chunk.stop - 1)):
        raise ArenaError(f"{path}: holds other encounters than its name says; rerun with --resume to fight it again")
    return table


def assemble(plan: Plan, parts: Path, target: Path, schema: Any) -> None:
    """Merge the part files, in plan order, into ``target`` (written aside, then renamed)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = target.with_name(target.name + ".tmp")
    buffer: list[Any] = []
    rows = 0
    try:
        with pq.ParquetWriter(tmp, schema) as writer:
            for chunk in plan.chunks():
                path = parts / chunk.filename
                if not path.is_file():
                    raise ArenaError(f"{path}: a finished chunk is missing; rerun with --resume")
                buffer.append(_read_chunk(path, chunk, schema))
                rows += chunk.size
                if rows >= ROW_GROUP:
                    writer.write_table(pa.concat_tables(buffer), row_group_size=ROW_GROUP)
                    buffer, rows = [], 0
            if buffer:
                writer.write_table(pa.concat_tables(buffer), row_group_size=ROW_GROUP)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    os.replace(tmp, target)


def write_summary(out: Path) -> None:
    from arena.study.analysis import SUMMARY_COLUMNS, read_encounters, summarise

    table = summarise(read_encounters(out, columns=SUMMARY_COLUMNS))
    tmp = out / "summary.csv.tmp"
    table.to_csv(tmp, index=False)
    os.replace(tmp, out / "summary.csv")


# --------------------------------------------------------------------------------------------- in memory
def _load(scenario: Any, trust_policies: bool = False) -> list[Any]:
    if isinstance(scenario, str | os.PathLike):
        from arena.study.scenario import load_scenarios

        return list(load_scenarios(scenario, trust_policies=trust_policies))
    if isinstance(scenario, list | tuple):
        return [s for item in scenario for s in _load(item, trust_policies)]
    return [scenario]


def run(scenario: Any, n: int | None = None, seed: int | None = None, rules: Any = None, *, workers: int = 1,
        chunk_size: int | None = None, simulator: Any = None, trust_policies: bool = False) -> Any:
    """Fight ``scenario`` (a Scenario, a YAML path, or a list of them) and return one pandas row per encounter.

    ``rules``: None (the scenario's own grid), a RuleSet or key, or a list of them. Nothing is written to disk.
    Rows are in plan order (scenario, rule set, index), whatever ``workers`` is. ``trust_policies`` lets the
    Python policy files a scenario file lists run (as ``--trust-policies`` does).
    """
    import pyarrow as pa

    simulator = simulator or EngineSimulator()
    if not 1 <= workers <= MAX_WORKERS:
        raise ArenaError(f"workers must be 1 to {MAX_WORKERS}, got {workers}")
    plan = make_plan(_load(scenario, trust_policies), n=n, seed=seed, rules=rules, chunk_size=chunk_size)
    schema = arrow_schema(simulator.schema())
    tables: dict[Chunk, Any] = {}
    execute(plan, list(plan.chunks()), lambda c, cols: tables.__setitem__(c, chunk_table(plan, c, cols, schema)),
            workers=workers, simulator=simulator)
    frame = pa.concat_tables([tables[c] for c in plan.chunks()]).to_pandas()
    return frame


@contextlib.contextmanager
def rich_progress(enabled: bool, description: str = "encounters") -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar (encounters done, rate, ETA) as a ``progress(done, total)`` callback."""
    if not enabled:
        yield lambda _done, _total: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f}/s" if speed else "-/s", style="progress.data.speed")

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
               RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(description, total=None)
        first: list[int] = []

        def update(done: int, total: int) -> None:
            if not first:  # chunks found on resume are not part of the rate
                first.append(done)
                bar.update(task, total=total - done, completed=0)
                bar.update(task, description=f"{description} ({done:,} resumed)" if done else description)
            else:
                bar.update(task, completed=done - first[0])

        yield update
