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
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.limits import MAX_WORKERS
from arena.study.plan import DEFAULT_CHUNK, KEY_COLUMNS, VARIANTS, Chunk, Plan, ScenarioPlan, make_plan
from arena.study.results_folder import (
    code_fingerprint,
    file_sha256,
    locked,
    looks_like_results,
    os_problem,
    record_chunk,
    refuse_links,
    refuse_other_kind,
    remove_chunks,
    remove_run_files,
    verified_chunks,
)
from arena.study.tables import arrow_schema, assemble, chunk_table, write_summary
from arena.study.workers import (
    EngineSimulator,
    Task,
    WorkerDied,
    _prepared,
    _warm_rules,
    cluster_session,
    connect_cluster,
    execute,
    run_chunk,
)

if TYPE_CHECKING:
    import pandas as pd

    from arena.rules import RuleSet
    from arena.study.scenario import Scenario

    ScenarioLike = Scenario | str | os.PathLike | Sequence[Scenario | str | os.PathLike]
    RulesLike = RuleSet | str | Sequence[RuleSet | str] | None

FORMAT = 2
"""Version of the results folder layout (in the manifest); 2 added the chunk ledger and the code fingerprint."""


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
    for name in (
        "d20-arena",
        "numpy",
        "pandas",
        "pyarrow",
        "pydantic",
        "simpy",
        "icepool",
        "joblib",
        "scipy",
        "statsmodels",
        "dask",
        "distributed",
    ):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _commit_of(folder: Path) -> str | None:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _project_checkout(folder: Path) -> Path | None:
    """The top of the d20 Arena git checkout ``folder`` lies in (its pyproject names d20-arena), or None."""
    for top in (folder, *folder.parents):
        project = top / "pyproject.toml"
        if project.is_file() and (top / ".git").exists():
            try:
                text = project.read_text(encoding="utf-8")[:20_000]
            except (OSError, UnicodeDecodeError):
                return None
            return top if 'name = "d20-arena"' in text else None
    return None


def git_commit() -> str | None:
    """The commit of the source tree this package runs from (``+dirty`` if it has changes), or None.

    An installed package (``pip install .`` from a clone) runs from site-packages, which is no checkout: then the
    d20 Arena checkout the run was started in (the working directory or above) is asked, if there is one."""
    here = Path(__file__).resolve().parent
    found = _commit_of(here) if (here.parent / ".git").exists() or _project_checkout(here) else None
    if found is None:
        checkout = _project_checkout(Path.cwd().resolve())
        found = _commit_of(checkout) if checkout is not None else None
    return found


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
        raise ArenaError(
            f"{out} was run with different scenarios or settings (n, seed, grid, chunk size); "
            "--resume needs the same ones (or use --force to start again)"
        )
    if code_before != code_now:
        raise ArenaError(
            f"{out} was started by another version of d20 Arena (code {str(code_before)[:12]}, now "
            f"{code_now[:12]}); resuming would mix two engines in one file: use --force to fight it "
            "again"
        )


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
        for s in sessions
    )
    if not isinstance(manifest, dict) or not valid or not isinstance(manifest.get("plan", {}), dict):
        raise ArenaError(f"{path}: not a run manifest (or edited by hand); use --force to start again")
    return manifest


def _prepare_folder(out: Path, plan: Plan, resume: bool, force: bool, say: Callable[[str], None]) -> dict | None:
    """Check ``out`` (locked by the caller) may be used; return the existing manifest when resuming.

    ``force`` removes only what a run wrote (:func:`arena.study.results_folder.remove_run_files`); a folder another
    command wrote (a claims study, a calibration) is refused whatever the flags."""
    refuse_links(out)
    contents = [p for p in out.iterdir() if p.name != ".arena-lock"]
    if not contents:
        return None
    refuse_other_kind(out, "run")
    if force:
        if not looks_like_results(out):
            raise ArenaError(
                f"{out} is not empty and does not look like a results folder (no manifest.json); "
                "refusing to delete anything in it with --force"
            )
        left = remove_run_files(out)
        if left:
            say(
                f"--force left {len(left)} file(s) in {out} that arena did not write: {', '.join(left[:3])}"
                + (" ..." if len(left) > 3 else "")
            )
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


def run_experiment(
    scenarios: Iterable[Any],
    out: str | os.PathLike,
    *,
    n: int | None = None,
    seed: int | None = None,
    rules: Any = None,
    workers: int = 1,
    cluster: str | None = None,
    chunk_size: int | None = None,
    resume: bool = False,
    force: bool = False,
    simulator: Any = None,
    progress: Callable[[int, int], None] | None = None,
    on_event: Callable[[str], None] | None = None,
) -> RunOutcome:
    """Run every scenario under every rule set and write ``out/`` (see the module docstring).

    ``progress(done, total)`` is called with encounters finished (including those found on resume).
    Ctrl-C (KeyboardInterrupt) propagates after the finished chunks are safely on disk. The folder is locked for
    the whole run; an error of the file system (a full disk, a read-only folder) is an ArenaError naming it. A
    ``cluster`` is connected to before the folder is made, so an unreachable scheduler leaves nothing behind.
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
        with cluster_session(cluster) as client, locked(out):
            return _run_locked(plan, out, resume, force, workers, (cluster, client), simulator, progress, say, events)
    except OSError as err:
        where = err.filename or out
        raise ArenaError(
            f"{where}: cannot write the results ({os_problem(err)}); finished chunks are kept, "
            "complete the run with --resume once this is mended"
        ) from None


def _new_manifest(plan: Plan, old: dict | None, started: str, workers: int, cluster: str | None) -> dict:
    """The manifest of a run starting now (a resumed run keeps its first start and its earlier sessions)."""
    return {
        "kind": "run",
        "format": FORMAT,
        "status": "running",
        "started": old.get("started", started) if old else started,
        "finished": None,
        "sessions": (old.get("sessions", []) if old else []),
        "plan": json.loads(json.dumps(plan.fingerprint(), default=str)),
        "scenarios": [
            {
                "name": sp.name,
                "digest": sp.digest,
                "n": sp.n,
                "seed": sp.seed,
                "rule_sets": [r.key for r in sp.rule_sets],
                "contents": sp.contents,
            }
            for sp in plan.scenarios
        ],
        "grid": sorted({r.key for sp in plan.scenarios for r in sp.rule_sets}),
        "seeds": {sp.name: sp.seed for sp in plan.scenarios},
        "seed_rule": "encounter i of a scenario uses arena.dice.encounter_seed(seed, i) under every rule set",
        "versions": package_versions(),
        "git_commit": git_commit(),
        "workers": workers,
        "cluster": cluster,
    }


def _run_locked(
    plan: Plan,
    out: Path,
    resume: bool,
    force: bool,
    workers: int,
    cluster: tuple[str | None, Any],
    simulator: Any,
    progress: Callable[[int, int], None] | None,
    say: Callable[[str], None],
    events: list[str],
) -> RunOutcome:
    import pyarrow.parquet as pq

    cluster, client = cluster  # the address (for the manifest) and its open client
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
    manifest = _new_manifest(plan, old, started, workers, cluster)
    _write_json_atomic(out / "manifest.json", manifest)

    todo = [c for c in all_chunks if c.filename not in present]
    already = plan.total - sum(c.size for c in todo)
    schema = arrow_schema(simulator.schema())
    finished = already
    if progress:
        resumed = getattr(progress, "resumed", None)
        if resumed is not None:
            resumed(already)
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
        execute(
            plan, todo, sink, workers=min(workers, max(1, len(todo))), cluster=client, simulator=simulator, on_event=say
        )
        status = "running"
    except ArenaError as err:
        status = "failed"
        manifest["error"] = str(err)
        raise
    finally:
        seconds = time.perf_counter() - t0
        manifest["sessions"] = [
            *manifest["sessions"],
            {
                "started": started,
                "ended": _now(),
                "workers": workers,
                "encounters": finished - already,
                "seconds": round(seconds, 3),
            },
        ]
        manifest["status"] = status
        _write_json_atomic(out / "manifest.json", manifest)

    assemble(plan, parts, out / "encounters.parquet", schema)
    write_summary(out)
    total_fought = sum(s["encounters"] for s in manifest["sessions"])
    total_seconds = sum(s["seconds"] for s in manifest["sessions"])
    manifest.pop("error", None)
    manifest.update(
        status="complete",
        finished=_now(),
        encounters=plan.total,
        encounters_sha256=file_sha256(out / "encounters.parquet"),
        encounters_per_second=round(total_fought / total_seconds, 1) if total_seconds else None,
    )
    _write_json_atomic(out / "manifest.json", manifest)
    remove_chunks(parts)
    return RunOutcome(out, plan.total, finished - already, seconds, len(all_chunks) - len(todo), events)


# --------------------------------------------------------------------------------------------- in memory
def _load(scenario: Any, trust_policies: bool = False, bestiary: Sequence[str | os.PathLike] = ()) -> list[Any]:
    if isinstance(scenario, str | os.PathLike):
        from arena.study.scenario import load_scenarios

        return list(load_scenarios(scenario, trust_policies=trust_policies, bestiary=bestiary))
    if isinstance(scenario, list | tuple):
        return [s for item in scenario for s in _load(item, trust_policies, bestiary)]
    if bestiary:
        raise ArenaError(
            "bestiary= adds creatures to the names of scenario files; a Scenario object has looked its "
            "names up already (give load_scenarios(..., bestiary=) instead)"
        )
    return [scenario]


def _all_cores() -> int:
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


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
    progress: bool | None = None,
    bestiary: str | os.PathLike | Sequence[str | os.PathLike] = (),
) -> pd.DataFrame:
    """Fight ``scenario`` (a Scenario, a YAML path, or a list of them) and return one pandas row per encounter.

    ``rules``: None (the scenario's own grid), a RuleSet or key, or a list of them. Nothing is written to disk.
    Rows are in plan order (scenario, rule set, index), whatever ``workers`` is (default: every core, as the CLI;
    the rows are the same for any number). ``progress``: a progress bar (rich; it shows in a notebook too), by
    default on for runs of 10,000 encounters or more. ``trust_policies`` lets the Python policy files a scenario
    file lists run (as ``--trust-policies`` does). ``bestiary``: stat-block files or folders whose creatures the
    scenario files' names reach (as ``--bestiary`` does); their stat blocks travel with the scenarios to the workers.
    """
    import pyarrow as pa

    simulator = simulator or EngineSimulator()
    workers = _all_cores() if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        raise ArenaError(f"workers must be 1 to {MAX_WORKERS}, got {workers}")
    extra = [bestiary] if isinstance(bestiary, str | os.PathLike) else list(bestiary)
    plan = make_plan(_load(scenario, trust_policies, extra), n=n, seed=seed, rules=rules, chunk_size=chunk_size)
    chunks = list(plan.chunks())
    workers = min(workers, max(1, len(chunks)))
    schema = arrow_schema(simulator.schema())
    tables: dict[Chunk, Any] = {}
    show = plan.total >= 10_000 if progress is None else progress
    with rich_progress(show) as tick:
        tick(0, plan.total)

        def keep(chunk: Chunk, cols: dict) -> None:
            tables[chunk] = chunk_table(plan, chunk, cols, schema)
            tick(sum(c.size for c in tables), plan.total)

        execute(plan, chunks, keep, workers=workers, simulator=simulator)
    return pa.concat_tables([tables[c] for c in plan.chunks()]).to_pandas()


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

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(description, total=None)
        state = {"resumed": 0, "started": False}

        def update(done: int, total: int) -> None:
            if not state["started"]:  # encounters found on resume are not part of the rate, nor of this bar
                state["started"] = True
                bar.update(task, total=max(0, total - state["resumed"]))
            bar.update(task, completed=max(0, done - state["resumed"]))

        def resumed(count: int) -> None:
            """Told by :func:`run_experiment` before any fighting: these encounters were already on disk."""
            state["resumed"] = count
            if count:
                bar.update(task, description=f"{description} ({count:,} resumed)")

        update.resumed = resumed  # type: ignore[attr-defined]
        yield update


__all__ = [
    "DEFAULT_CHUNK",
    "FORMAT",
    "KEY_COLUMNS",
    "VARIANTS",
    "Chunk",
    "EngineSimulator",
    "Plan",
    "RunOutcome",
    "ScenarioPlan",
    "Task",
    "WorkerDied",
    "arrow_schema",
    "assemble",
    "chunk_table",
    "code_fingerprint",
    "connect_cluster",
    "execute",
    "make_plan",
    "rich_progress",
    "run",
    "run_chunk",
    "run_experiment",
    "write_summary",
]
