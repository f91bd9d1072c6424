"""A study's folder (``arena claims --out``, ``arena calibrate --out``): the finished fights kept on disk, so an
interrupted study resumes instead of starting again.

Why a module of its own: a study is not a run. It asks for batches of matchups
(:func:`arena.study.runs.matchups.run_batch`), one after another, each decided by what the earlier ones found (the
sequential calibration grid looks, then grows its ladder). Every batch is cut into chunks as a run's (one matchup,
one rule set, a range of encounters); with a study folder each finished chunk is also written to ``chunks/`` under
a name that is a digest of what it holds: the matchup (its monster's stat block by content), the rule set, the run
seed, the encounter range, the fields kept and the code that fought it (:func:`chunk_name`). A resumed study runs
its deterministic logic again from the start and finds the chunks it finished instead of fighting them; the
sequential grid replays its looks. The numbers are the very ones an uninterrupted study computes (the chunks are
the same; only where their rows come from differs). The lock, the kinds of folder and the ledger are a run's
(:mod:`arena.study.runs.folder`, :mod:`arena.study.runs.ledger`).

Layout::

    NAME/.arena-lock            held (flock) for the whole study, the report's writing included
    NAME/manifest.json          kind (claims / calibration), status running / complete, the settings, the code
    NAME/chunks/<digest>.arrow, chunks/ledger.jsonl
                                finished chunks (Arrow IPC files, uncompressed), each listed with its range, size and
                                SHA-256 (as a run's); removed once the study's files are written
    NAME/...                    the study's own files (claims.md, calibration.csv, ...), written together at the end

``--resume`` continues an unfinished study with the same settings and code (anything else is refused, as for
``arena run``); ``--force`` removes the study's own files and starts again; a folder holding another command's
files is refused whatever the flags; a complete study of the same command is replaced by a new one (its files
are removed when the new one starts).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.study.runs.folder import (
    KIND_FILES,
    KINDS,
    LEDGER_NAME,
    STUDY_CHUNK_RE,
    folder_kind,
    locked,
    manifest_doc,
    now,
    os_problem,
    refuse_links,
    refuse_other_kind,
    remove_study_files,
    write_json_atomic,
)
from arena.study.runs.identity import code_fingerprint
from arena.study.runs.ledger import LedgerEntry, chunk_problem, read_ledger, record_chunk

STUDY_FORMAT = 2
"""Version of a study folder's layout (in its manifest). 2: chunks are Arrow IPC files, not Parquet. A quick study
writes some 9,000 chunks of 40 encounters, one at a time under the folder's lock: Parquet took 6-7 ms of the parent's
CPU for each (a minute of a two-minute study, with the workers waiting), an uncompressed Arrow file 0.6 ms. The
chunks live only until the study's files are written, so their size does not matter."""

CHUNK_SUFFIX = ".arrow"


@lru_cache(maxsize=4096)
def _builtin_stat_block_digest(name: str) -> str:
    from arena.world.bestiary import get_creature

    creature = get_creature(name)
    text = json.dumps(creature.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chunk_name(matchup: Any, rules: Any, seed: int, start: int, stop: int, keep: Sequence[str]) -> str:
    """The file name of a finished chunk: 40 hex digits of SHA-256 over everything its rows depend on (the matchup's
    digest and its monster's stat block by content, the rule set, the run seed, the encounter range, the fields
    kept, the code), so a chunk is found again only by a request for exactly these fights."""
    monster = matchup.stat_block_digest() or _builtin_stat_block_digest(matchup.monster)
    doc = {
        "v": 1,
        "code": code_fingerprint(),
        "matchup": matchup.digest(),
        "monster": monster,
        "rules": rules.model_dump(mode="json"),
        "seed": int(seed),
        "start": int(start),
        "stop": int(stop),
        "keep": list(keep),
    }
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40] + CHUNK_SUFFIX


def _plain(doc: Any) -> Any:
    """``doc`` as JSON would give it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(doc, default=str))


@dataclass
class StudyFolder:
    """An open (locked) study folder: where :func:`arena.study.runs.matchups.run_batch` keeps and finds chunks."""

    folder: Path
    kind: str
    manifest: dict
    say: Callable[[str], None]
    complete: bool = False
    """``--resume`` of a study that is complete already: nothing to do (its files are there)."""
    ledger: dict[str, LedgerEntry] = field(default_factory=dict)
    found: int = 0
    """Chunks found on disk (and not fought again) by this session."""
    written: int = 0
    """Chunks fought and written by this session."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    """Held while a chunk is written and listed: parts of a study save from their own threads
    (:mod:`arena.study.runs.phases`), and the ledger is one file."""

    @property
    def parts(self) -> Path:
        return self.folder / "chunks"

    def kept(self) -> int:
        """Finished chunks on disk now, listed in the ledger (what an interrupted study keeps)."""
        try:
            return sum(1 for name in read_ledger(self.parts) if (self.parts / name).is_file())
        except OSError:
            return 0

    def load(self, wanted: dict[str, tuple[int, int]], columns: Sequence[str]) -> dict[str, dict]:
        """The finished chunks of ``wanted`` (name -> encounter range) that are on disk and verify, as column
        arrays; one that does not verify is reported, removed and left to be fought again."""
        import pyarrow.feather as feather

        out: dict[str, dict] = {}
        for name, span in wanted.items():
            path = self.parts / name
            if not os.path.lexists(path):
                continue
            if path.is_symlink() or not path.is_file():
                raise ArenaError(
                    f"{path} is not a chunk file written by arena (a folder or a link); remove it and resume again"
                )
            try:
                problem = chunk_problem(path, self.ledger.get(name), span)
                if problem is None:
                    table = feather.read_table(path, columns=list(columns), memory_map=False)
                    if table.num_rows != span[1] - span[0]:
                        problem = "it holds another number of rows than its range"
                    else:
                        out[name] = {c: table.column(c).to_numpy(zero_copy_only=False) for c in columns}
            except OSError as err:
                raise ArenaError(f"{path}: cannot read the chunk ({os_problem(err)})") from None
            except Exception:  # written by arena and checksummed, yet unreadable: fight again
                problem = "unreadable"
            if problem:
                self.say(f"chunk {name}: {problem}; fighting it again")
                with contextlib.suppress(OSError):
                    path.unlink()
        with self._lock:
            self.found += len(out)
        return out

    def save(self, name: str, start: int, stop: int, columns: dict[str, Any]) -> None:
        """Write a finished chunk aside, put it in place, then list it in the ledger (flushed to disk). Ctrl-C or
        SIGTERM meanwhile takes effect once the chunk is listed: an interrupted study keeps whole chunks."""
        with self._lock, _deferred_signals():
            self._save(self.parts / (name + ".tmp"), name, start, stop, columns)
            self.written += 1

    def _save(self, tmp: Path, name: str, start: int, stop: int, columns: dict[str, Any]) -> None:
        import pyarrow as pa
        import pyarrow.feather as feather

        try:
            self.parts.mkdir(exist_ok=True)
            if os.path.lexists(tmp):
                tmp.unlink()
            table = pa.table({k: pa.array(v) for k, v in columns.items()})
            feather.write_feather(table, tmp, compression="uncompressed")
            os.replace(tmp, self.parts / name)
            self.ledger[name] = record_chunk(self.parts, name, start, stop)
        except OSError as err:
            raise ArenaError(
                f"{err.filename or self.parts}: cannot write the study's chunks ({os_problem(err)}); "
                "finished chunks are kept, complete the study with --resume once this is mended"
            ) from None

    def final_manifest(self) -> dict:
        """What the study's manifest.json says once its files are written (the report adds its own fields)."""
        return {
            "kind": self.kind,
            "format": STUDY_FORMAT,
            "status": "complete",
            "started": self.manifest["started"],
            "finished": now(),
            "settings": self.manifest["settings"],
            "code": self.manifest["code"],
        }

    @property
    def command(self) -> str:
        """The command that started the study (a resumed study keeps it: its files say how it was made)."""
        return str(self.manifest.get("command", ""))

    def finish(self) -> None:
        """The study's files are in place: remove its chunks (and the ledger)."""
        parts = self.parts
        if not parts.is_dir() or parts.is_symlink():
            return
        for entry in parts.iterdir():
            ours = entry.name == LEDGER_NAME or STUDY_CHUNK_RE.match(entry.name)
            if ours and entry.is_file() and not entry.is_symlink():
                entry.unlink()
        with contextlib.suppress(OSError):
            parts.rmdir()
        self.ledger = {}


DEFERRED = ("SIGINT", "SIGTERM", "SIGHUP")


@contextlib.contextmanager
def _deferred_signals() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP for the block (a chunk being written and listed), then act on the first one
    that came as its own handler would have (in the main thread; elsewhere the block runs as it is)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    previous = {}
    for name in DEFERRED:
        signum = getattr(signal, name, None)
        if signum is not None:
            previous[signum] = signal.signal(signum, lambda s, _f: came.append(s))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if came:
            handler = previous[came[0]]
            if callable(handler):
                handler(came[0], None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), came[0])


@contextlib.contextmanager
def open_study(
    folder: str | os.PathLike,
    kind: str,
    settings: dict,
    *,
    command: str,
    resume: bool = False,
    force: bool = False,
    say: Callable[[str], None] | None = None,
) -> Iterator[StudyFolder]:
    """Lock ``folder`` for a study of ``kind`` (``claims`` or ``calibration``) and yield it, prepared.

    ``settings``: what must be the same for ``--resume`` (sizes, seed, claim ids, monsters; never workers or the
    cluster). The lock is held for the whole block; a second study (or run) of the folder is refused
    (:class:`arena.study.runs.folder.FolderInUse`)."""
    if kind not in KIND_FILES or kind == "run":
        raise ValueError(f"not a study's kind: {kind!r}")
    if resume and force:
        raise ArenaError("--resume and --force contradict each other: choose one")
    folder = Path(folder)
    say = say or (lambda _msg: None)
    if os.path.lexists(folder) and not folder.is_dir():
        raise ArenaError(f"{folder}: exists and is not a folder (choose another --out)")
    if folder.is_dir():
        refuse_other_kind(folder, kind)  # before the lock file: another command's folder is not touched
    with locked(folder):
        try:
            study = _prepare(folder, kind, _plain(settings), command, resume, force, say)
        except OSError as err:
            raise ArenaError(
                f"{err.filename or folder}: cannot prepare the study's folder ({os_problem(err)})"
            ) from None
        yield study


def _prepare(
    folder: Path, kind: str, settings: dict, command: str, resume: bool, force: bool, say: Callable[[str], None]
) -> StudyFolder:
    refuse_links(folder, ("chunks", *KIND_FILES[kind]))
    old = None
    if any(entry.name != ".arena-lock" for entry in folder.iterdir()):
        refuse_other_kind(folder, kind)
        old = _existing(folder, kind, settings, resume, force, say)
    if old is not None and old.get("status") == "complete":
        return StudyFolder(folder, kind, old, say, complete=True)
    parts = folder / "chunks"  # made with the first chunk (a study may fight nothing)
    for entry in parts.iterdir() if parts.is_dir() else ():  # chunks written half-way by an interrupted session
        if (
            entry.name.endswith(".tmp")
            and STUDY_CHUNK_RE.match(entry.name)
            and entry.is_file()
            and not entry.is_symlink()
        ):
            entry.unlink()
    manifest = {
        "kind": kind,
        "format": STUDY_FORMAT,
        "status": "running",
        "command": (old or {}).get("command") or command,  # resumed: the command that started it
        "settings": settings,
        "code": code_fingerprint(),
        "started": (old or {}).get("started") or now(),
    }
    write_json_atomic(folder / "manifest.json", manifest)
    return StudyFolder(folder, kind, manifest, say, ledger=read_ledger(parts))


def _existing(
    folder: Path, kind: str, settings: dict, resume: bool, force: bool, say: Callable[[str], None]
) -> dict | None:
    """The manifest of the study of ``kind`` in ``folder`` to resume, or ``{"status": "complete", ...}`` for one
    complete already (``resume``); None: start afresh (the study's own files removed)."""
    if folder_kind(folder) != kind:  # only files of the user's: nothing to resume or remove
        return None
    doc = manifest_doc(folder)
    status = doc.get("status") if doc is not None else None
    unfinished = status == "running" or _has_chunks(folder / "chunks")  # chunks: its files were not all written
    if force or not (resume or unfinished):  # --force, or a complete study replaced by a new one
        left = remove_study_files(folder, kind)
        if left:
            say(
                f"left {len(left)} file(s) in {folder / 'chunks'} that arena did not write: {', '.join(left[:3])}"
                + (" ..." if len(left) > 3 else "")
            )
        return None
    what = KINDS[kind].removeprefix("a ")
    if not unfinished:
        return {**(doc or {}), "status": "complete"}
    if not resume:
        raise ArenaError(
            f"{folder} holds an unfinished {what}: complete it with the same command and --resume, or "
            "start again with --force"
        )
    if doc is None or doc.get("kind") != kind:
        raise ArenaError(
            f"{folder}: its manifest.json is missing or unreadable, so the study cannot be resumed "
            "(start again with --force)"
        )
    if _plain(doc.get("settings")) != settings:
        raise ArenaError(
            f"{folder} was started with other settings ({_difference(doc.get('settings'), settings)}); "
            "--resume needs the same ones (or use --force to start again)"
        )
    if doc.get("code") != code_fingerprint():
        raise ArenaError(
            f"{folder} was started by another version of d20 Arena (code {str(doc.get('code'))[:12]}, "
            f"now {code_fingerprint()[:12]}); resuming would mix two engines in one study: use --force "
            "to start again"
        )
    return doc


def _has_chunks(parts: Path) -> bool:
    """Whether ``parts`` holds a study's ledger or chunk files (what a study removes once its files are written)."""
    if parts.is_symlink() or not parts.is_dir():
        return False
    return any(e.name == LEDGER_NAME or STUDY_CHUNK_RE.match(e.name) for e in parts.iterdir())


def _difference(before: Any, now: dict) -> str:
    """The first setting that differs, as ``name: before -> now``."""
    if not isinstance(before, dict):
        return "none recorded"
    for key in sorted(set(before) | set(now)):
        if before.get(key) != now.get(key):
            return f"{key}: {json.dumps(before.get(key))[:60]} -> {json.dumps(now.get(key))[:60]}"
    return "none"


def batch_names(plan: Any, chunks: Sequence[Any], keep: Sequence[str]) -> dict[Any, str]:
    """The chunk file name of every chunk of a batch's plan (:func:`chunk_name`)."""
    out = {}
    for c in chunks:
        sp = plan.scenarios[c.scenario]
        out[c] = chunk_name(sp.scenario, sp.rule_sets[c.rules], sp.seed, c.start, c.stop, keep)
    return out
