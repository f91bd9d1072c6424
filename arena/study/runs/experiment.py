"""``arena run`` and :func:`run_experiment`: scenarios x rule sets x encounters, on local workers or a Dask cluster,
written to a results folder that an interrupted run resumes.

A run is a :class:`~arena.study.runs.plan.Plan`: for every scenario, every rule set of its grid, encounters
``0..n-1``. Encounter ``i`` of a scenario is fought with ``encounter_seed(seed, i)`` under *every* rule set (common
random numbers), so the rule sets are compared on the same dice, and the result does not depend on how many workers
ran it.

The plan is cut into chunks (one scenario, one rule set, a range of encounter indices, 500 by default): a worker
prepares the scenario once (cached per process), fights the chunk and sends back compact column arrays. The parent
writes every finished chunk as its own parquet part file (written aside, then renamed, then listed in the ledger),
so an interrupted run leaves whole chunks only and ``resume=True`` completes it; at the end the part files are
assembled, in plan order, into ``encounters.parquet`` row group by row group (memory stays flat).

``results/NAME/`` holds ``encounters.parquet`` (one typed row per encounter), ``combatants.parquet`` when asked
for (one row per encounter and combatant: :mod:`arena.study.runs.combatant_tables`), ``manifest.json`` (what was
run, how, and how fast) and ``summary.csv`` (see :func:`arena.study.statistics.summaries.summarise`). A notebook's run
that writes nothing is :mod:`arena.study.runs.in_memory`.

Why a module of its own: it is the one writer of a run's results folder, from the first manifest to the checksummed
``encounters.parquet``; a notebook's run that writes nothing is :mod:`arena.study.runs.in_memory`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.limits import MAX_WORKERS
from arena.study.runs import combatant_tables
from arena.study.runs.cluster import cluster_session
from arena.study.runs.folder import (
    locked,
    looks_like_results,
    now,
    os_problem,
    refuse_links,
    refuse_other_kind,
    remove_chunks,
    remove_run_files,
    write_json_atomic,
)
from arena.study.runs.identity import git_commit, package_versions
from arena.study.runs.ledger import file_sha256, record_chunk, verified_chunks
from arena.study.runs.plan import Chunk, Plan, make_plan
from arena.study.runs.tables import Assembly, arrow_schema, chunk_table, write_summary
from arena.study.runs.workers import EngineSimulator, execute, prepared_encounter, warm_rules

FORMAT = 2
"""Version of the results folder layout (in the manifest); 2 added the chunk ledger and the code fingerprint."""


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

    ``force`` removes only what a run wrote (:func:`arena.study.runs.folder.remove_run_files`); a folder another
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


def _intact(path: Path, expected: object) -> bool:
    return path.is_file() and bool(expected) and file_sha256(path) == expected


def _complete_and_intact(out: Path, old: dict, say: Callable[[str], None], plan: Plan) -> bool:
    """A complete run whose encounters.parquet (and combatants.parquet, when the plan has it) still has the checksum
    the manifest gives."""
    if old.get("status") != "complete":
        return False
    target = out / "encounters.parquet"
    combatants = not plan.combatants or _intact(out / combatant_tables.COMBATANTS_FILE, old.get("combatants_sha256"))
    if _intact(target, old.get("encounters_sha256")) and combatants:
        if not (out / "summary.csv").is_file():
            say(f"{out / 'summary.csv'} was missing; written again from encounters.parquet")
            write_summary(out)
        return True
    say(
        f"{target if combatants else out / combatant_tables.COMBATANTS_FILE} is missing or damaged (its checksum "
        "does not match the manifest); fighting the run again"
    )
    for name in ("encounters.parquet", combatant_tables.COMBATANTS_FILE, "summary.csv"):
        if (out / name).is_file():
            (out / name).unlink()
    return False


def _preflight(plan: Plan, simulator: Any) -> None:
    """Fight encounter 0 of every scenario under every rule set before anything is written, so a rule a stat block
    cannot meet (a 10-20 threat range under 3d6) or a failing policy is reported before a results folder exists."""
    for sp in plan.scenarios:
        for rules in sp.rule_sets:
            prepared = prepared_encounter(simulator, sp.scenario, sp.digest, rules)
            simulator.fight(prepared, warm_rules(rules), encounter_seed(sp.seed, 0))


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
    combatants: bool = False,
) -> RunOutcome:
    """Run every scenario under every rule set and write ``out/`` (see the module docstring).

    ``progress(done, total)`` is called with encounters finished (including those found on resume).
    ``combatants``: write ``combatants.parquet`` too, one row per encounter and combatant (the simulator needs a
    ``fight_combatants``; the engine's has one). Ctrl-C (KeyboardInterrupt) propagates after the finished chunks
    are safely on disk. The folder is locked for the whole run; an error of the file system (a full disk, a
    read-only folder) is an ArenaError naming it. A ``cluster`` is connected to before the folder is made, so an
    unreachable scheduler leaves nothing behind.
    """
    simulator = simulator or EngineSimulator()
    if not 1 <= workers <= MAX_WORKERS:
        raise ArenaError(f"--workers must be 1 to {MAX_WORKERS}, got {workers}")
    plan = make_plan(scenarios, n=n, seed=seed, rules=rules, chunk_size=chunk_size, combatants=combatants)
    if combatants and not hasattr(simulator, "fight_combatants"):
        raise ArenaError(f"{type(simulator).__name__} cannot report combatants (it has no fight_combatants)")
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
    """The run in its locked folder: the chunks on disk verified, the rest fought and written, then assembled."""
    address, client = cluster  # the address (for the manifest) and its open client
    old = _prepare_folder(out, plan, resume, force, say)
    if old is not None and _complete_and_intact(out, old, say, plan):
        if progress:
            progress(plan.total, plan.total)
        return RunOutcome(out, plan.total, 0, 0.0, events=[*events, "already complete: nothing to do"])
    parts = out / "chunks"
    parts.mkdir(exist_ok=True)
    all_chunks = list(plan.chunks())
    expected = {c.filename: (c.start, c.stop) for c in all_chunks}
    if plan.combatants:
        expected.update({combatant_tables.part_name(c): (c.start, c.stop) for c in all_chunks})
    present, notes = verified_chunks(parts, expected)
    for note in notes:
        say(note)
    if plan.combatants:  # a chunk is done when its combatants are too (their part is listed first)
        present = {c.filename for c in all_chunks if c.filename in present and combatant_tables.part_name(c) in present}

    started = now()
    manifest = _new_manifest(plan, old, started, workers, address)
    write_json_atomic(out / "manifest.json", manifest)

    todo = [c for c in all_chunks if c.filename not in present]
    already = plan.total - sum(c.size for c in todo)
    schema = arrow_schema(simulator.schema())
    assembly = Assembly(plan, parts, out / "encounters.parquet", schema, present)
    sink = _ChunkWriter(plan, parts, schema, already, progress, assembly)
    try:
        seconds = _fight_session(plan, todo, sink, (workers, client, simulator, say), (out, manifest, started))
        _complete(plan, out, assembly, manifest)
    except BaseException:
        assembly.abort()
        raise
    return RunOutcome(out, plan.total, sink.finished - already, seconds, len(all_chunks) - len(todo), events)


class _ChunkWriter:
    """The sink of a run on disk: each finished chunk written aside as its typed table, put in place, then listed in
    the ledger (flushed); the table handed on to ``encounters.parquet``, written as the chunks come
    (:class:`arena.study.runs.tables.Assembly`), and the progress told."""

    def __init__(
        self,
        plan: Plan,
        parts: Path,
        schema: Any,
        already: int,
        progress: Callable[[int, int], None] | None,
        assembly: Assembly,
    ) -> None:
        self.plan, self.parts, self.schema, self.progress, self.assembly = plan, parts, schema, progress, assembly
        self.already = self.finished = already
        if progress:
            resumed = getattr(progress, "resumed", None)
            if resumed is not None:
                resumed(already)
            progress(already, plan.total)

    def __call__(self, chunk: Chunk, columns: dict) -> None:
        import pyarrow.parquet as pq

        if self.plan.combatants:  # in the ledger before the chunk: a chunk listed has its combatants on disk
            fought = combatant_tables.chunk_table(self.plan, chunk, columns)
            name = combatant_tables.write_part(self.parts, chunk, fought)
            record_chunk(self.parts, name, chunk.start, chunk.stop)
        table = chunk_table(self.plan, chunk, columns, self.schema)
        tmp = self.parts / (chunk.filename + ".tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, self.parts / chunk.filename)
        record_chunk(self.parts, chunk.filename, chunk.start, chunk.stop)
        self.assembly.add(chunk, table)
        self.finished += chunk.size
        if self.progress:
            self.progress(self.finished, self.plan.total)


def _fight_session(
    plan: Plan,
    todo: list[Chunk],
    sink: _ChunkWriter,
    how: tuple[int, Any, Any, Callable[[str], None]],
    record: tuple[Path, dict, str],
) -> float:
    """Fight the chunks not on disk (``how``: workers, the cluster's client, the simulator, where to say what
    happens); the manifest (``record``: the folder, the manifest, when the session started) lists the session
    however it ends, with the run's status (running, interrupted or failed). Returns the seconds it fought."""
    workers, client, simulator, say = how
    out, manifest, started = record
    t0 = time.perf_counter()
    status = "interrupted"
    try:
        execute(
            plan,
            todo,
            sink,
            workers=workers,
            cluster=client,
            simulator=simulator,
            on_event=say,
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
                "ended": now(),
                "workers": workers,
                "encounters": sink.finished - sink.already,
                "seconds": round(seconds, 3),
            },
        ]
        manifest["status"] = status
        write_json_atomic(out / "manifest.json", manifest)
    return seconds


def _assemble(assembly: Assembly) -> None:
    """Put ``encounters.parquet`` in place: its last rows written (the rest went in as the chunks came), the file
    moved in (a run stopped before this leaves its chunks and no ``encounters.parquet``)."""
    assembly.finish()


def _complete(plan: Plan, out: Path, assembly: Assembly, manifest: dict) -> None:
    """Every chunk is on disk: finish ``encounters.parquet`` (written as the chunks came in) and write
    ``summary.csv``, mark the manifest complete (with the file's checksum and the rate over every session), then
    remove the chunks."""
    parts = assembly.parts
    _assemble(assembly)
    if plan.combatants:
        target = out / combatant_tables.COMBATANTS_FILE
        combatant_tables.assemble(plan, parts, target)
        manifest["combatants_sha256"] = file_sha256(target)
    write_summary(out)
    total_fought = sum(s["encounters"] for s in manifest["sessions"])
    total_seconds = sum(s["seconds"] for s in manifest["sessions"])
    manifest.pop("error", None)
    manifest.update(
        status="complete",
        finished=now(),
        encounters=plan.total,
        encounters_sha256=file_sha256(out / "encounters.parquet"),
        encounters_per_second=round(total_fought / total_seconds, 1) if total_seconds else None,
    )
    write_json_atomic(out / "manifest.json", manifest)
    remove_chunks(parts)
