"""A results folder on disk (a run's or a study's): locked, cleaned only of what its command wrote, chunks verified.

Why a module of its own: the folder is where a careless or hostile user meets the file system. A run must never
delete a file it did not write (``--force`` removes the run's own files, by name, inside the folder it was
given, and refuses a folder another command wrote: :func:`folder_kind`), never share the folder with a second
run (an exclusive lock for the whole run), and never trust a chunk it cannot verify (every finished chunk is
listed in ``chunks/ledger.jsonl`` with its encounter range, row count, size and SHA-256; one that does not match
is fought again). The studies (``arena claims``, ``arena calibrate``) keep their folders with the same lock and
ledger (:func:`open_study`, below the run's part).

Layout::

    NAME/.arena-lock            held (flock) by the run using the folder
    NAME/manifest.json          what was run, by which code; ``status`` running / failed / complete
    NAME/encounters.parquet     written at the end, its SHA-256 in the manifest
    NAME/summary.csv
    NAME/chunks/*.parquet       finished chunks while the run is incomplete
    NAME/chunks/ledger.jsonl    one JSON line per finished chunk (appended after the chunk is in place)

**Study folders** (``arena claims --out``, ``arena calibrate --out``): finished fights kept on disk, so an
interrupted study resumes instead of starting again.

A study asks for batches of matchups (:func:`arena.study.matchups.run_batch`), one after another, each decided by
what the earlier ones found (the sequential calibration grid looks, then grows its ladder). Every batch is cut into
chunks as before (one matchup, one rule set, a range of encounters); with a study folder each finished chunk is
also written to ``chunks/`` under a name that is a digest of what it holds: the matchup (its monster's stat block
by content), the rule set, the run seed, the encounter range, the fields kept and the code that fought it
(:func:`chunk_name`). A resumed study runs its deterministic logic again from the start and finds the chunks it
finished instead of fighting them; the sequential grid replays its looks. The numbers are the very ones an
uninterrupted study computes (the chunks are the same; only where their rows come from differs).

Layout::

    NAME/.arena-lock            held (flock) for the whole study, the report's writing included
    NAME/manifest.json          kind (claims / calibration), status running / complete, the settings, the code
    NAME/chunks/<digest>.parquet, chunks/ledger.jsonl
                                finished chunks, each listed with its range, size and SHA-256 (as a run's); removed
                                once the study's files are written
    NAME/...                    the study's own files (claims.md, calibration.csv, ...), written together at the end

``--resume`` continues an unfinished study with the same settings and code (anything else is refused, as for
``arena run``); ``--force`` removes the study's own files and starts again; a folder holding another command's
files is refused whatever the flags; a complete study of the same command is replaced by a new one (its files
are removed when the new one starts).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

LOCK_NAME = ".arena-lock"
LEDGER_NAME = "ledger.jsonl"
CHUNK_RE = re.compile(r"^\d{3}-\d{3}-\d{10}-\d{10}\.parquet(\.tmp)?$")
"""The names of chunk files (``Chunk.filename``) and their half-written ``.tmp`` twins."""
RUN_FILES = ("manifest.json", "encounters.parquet", "summary.csv")
"""The files a run writes at the top of its folder (each also as a half-written ``.tmp``)."""
REPORT_FOLDER = "report"
REPORT_RE = re.compile(r"^[A-Za-z0-9_.-]+\.(md|html|png|tmp)$")
"""Files ``arena report`` writes into ``NAME/report/``."""
STUDY_CHUNK_RE = re.compile(r"^[0-9a-f]{40}\.parquet(\.tmp)?$")
"""The names of a study's chunk files (a digest of what they hold: :func:`chunk_name`)."""

KINDS = {
    "run": "a results folder of `arena run`",
    "claims": "a study of `arena claims`",
    "calibration": "a calibration of `arena calibrate`",
}
"""What a folder can hold (:func:`folder_kind`), as an error message names it."""
KIND_FILES = {
    "run": RUN_FILES,
    "claims": (
        "manifest.json",
        "summary.csv",
        "claims.json",
        "calibration.csv",
        "effects.png",
        "delta-cr-maps.png",
        "rule-fit.png",
        "claims.md",
    ),
    "calibration": ("manifest.json", "calibration.csv", "delta-cr.png"),
}
"""The files each command writes at the top of its folder (each also as a half-written ``.tmp``): all that its
``--force`` removes there, besides its chunks."""


class FolderInUse(ArenaError):
    """Another run holds the folder's lock."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file, read in blocks."""
    return _sha256(path)


def os_problem(err: OSError) -> str:
    """A short reason for an OS error, naming a full disk or a read-only file system plainly."""
    if err.errno == errno.ENOSPC:
        return "the disk is full"
    if err.errno == errno.EROFS:
        return "the file system is read-only"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return err.strerror or str(err)


# --------------------------------------------------------------------------------------------- the lock
@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s run lock (creating the folder if need be) for the ``with`` block, or raise FolderInUse.

    An ``flock`` lock dies with its process, so a killed run never leaves the folder locked; the lock file is
    removed when the block ends (a waiting run that opened it re-checks that it locked the file still there)."""
    path = folder / LOCK_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArenaError(f"{folder}: cannot create the results folder ({os_problem(err)})") from None
    for _attempt in range(10):
        try:
            handle = open(path, "a+")  # noqa: SIM115 (held for the whole block)
        except OSError as err:
            raise ArenaError(f"{folder}: cannot write in the results folder ({os_problem(err)})") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip()[:20]
            handle.close()
            raise FolderInUse(
                f"{folder} is in use by another arena run{f' (process {holder})' if holder else ''}; "
                "wait for it to finish or stop it first"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        handle.close()  # the file was removed by the run that held it: lock anew
    else:
        raise FolderInUse(f"{folder}: could not lock the results folder")
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        handle.close()


# --------------------------------------------------------------------------------------------- cleaning
def looks_like_results(folder: Path) -> bool:
    """True when ``folder`` holds a run's manifest or chunks folder."""
    return (folder / "manifest.json").is_file() or (folder / "chunks").is_dir()


def refuse_links(folder: Path, names: tuple[str, ...] = ("chunks", *RUN_FILES, REPORT_FOLDER)) -> None:
    """A run's own paths inside ``folder`` (or a study's: ``names``) must be real files and folders, not symbolic
    links (a linked ``chunks`` would let a run write or delete files elsewhere)."""
    for name in names:
        path = folder / name
        if path.is_symlink():
            raise ArenaError(
                f"{path} is a symbolic link; a results folder's own files must be real files (remove the link)"
            )


def remove_run_files(folder: Path) -> list[str]:
    """Remove what a run (and ``arena report``) wrote in ``folder``, by name; return what was left untouched.

    Nothing outside ``folder`` is touched, and no file whose name a run does not write is removed."""
    refuse_links(folder)
    for name in RUN_FILES:
        for path in (folder / name, folder / (name + ".tmp")):
            if path.is_file():
                path.unlink()
    return [
        *_remove_own(folder / "chunks", lambda name: name == LEDGER_NAME or bool(CHUNK_RE.match(name))),
        *_remove_own(folder / REPORT_FOLDER, lambda name: bool(REPORT_RE.match(name))),
    ]


def _remove_own(inner: Path, ours: Callable[[str], bool]) -> list[str]:
    """Remove the regular files of ``inner`` whose names are ``ours`` (never a link), then ``inner`` if it is empty;
    return what was left."""
    left: list[str] = []
    if not inner.is_dir():
        return left
    for entry in inner.iterdir():
        if ours(entry.name) and entry.is_file() and not entry.is_symlink():
            entry.unlink()
        else:
            left.append(str(entry))
    with contextlib.suppress(OSError):
        inner.rmdir()  # only if empty
    return left


def manifest_doc(folder: Path) -> dict | None:
    """``folder/manifest.json`` as a JSON object, or None (missing, a link, unreadable, not an object)."""
    path = folder / "manifest.json"
    if path.is_symlink() or not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def folder_kind(folder: Path) -> str | None:
    """What ``folder`` holds: ``run``, ``claims`` or ``calibration`` (:data:`KINDS`), or None (missing, empty, or
    nothing a command of d20 Arena writes).

    The manifest says so when it names its ``kind``; older folders are known by their files (a claims manifest
    lists ``verdicts``, a run's has its ``plan``). A manifest.json or a chunks folder that says nothing else is a
    run's, as ``run --force`` has always taken it."""
    if folder.is_symlink() or not folder.is_dir():
        return None
    doc = manifest_doc(folder)
    if doc is not None:
        kind = doc.get("kind")
        if isinstance(kind, str) and kind in KINDS:
            return kind
        if "verdicts" in doc or str(doc.get("command", "")).startswith("arena claims"):
            return "claims"
        if "plan" in doc or "sessions" in doc or "format" in doc:
            return "run"
    names = {entry.name for entry in folder.iterdir()}
    if "encounters.parquet" in names:
        return "run"
    if names & {"claims.md", "claims.json"}:
        return "claims"
    if names & {"calibration.csv", "delta-cr.png"}:
        return "calibration"
    if "manifest.json" in names or "chunks" in names:
        return "run"
    return None


def describe_kind(folder: Path, kind: str) -> str:
    """``FOLDER is <what> (<some of its files>)`` for an error message."""
    mine = [
        n for n in dict.fromkeys((*KIND_FILES[kind], "encounters.parquet", "chunks")) if os.path.lexists(folder / n)
    ]
    files = f" ({', '.join(mine[:3])}{' ...' if len(mine) > 3 else ''})" if mine else ""
    return f"{folder} is {KINDS[kind]}{files}"


def refuse_other_kind(folder: Path, kind: str) -> None:
    """Refuse a folder that holds another command's files: no flag of ``kind``'s command may touch them."""
    found = folder_kind(folder)
    if found is not None and found != kind:
        raise ArenaError(
            f"{describe_kind(folder, found)}, not {KINDS[kind]}; its files are not this command's to "
            "replace or remove (choose another --out)"
        )


def remove_study_files(folder: Path, kind: str) -> list[str]:
    """Remove what ``arena claims`` or ``arena calibrate`` (``kind``) wrote in ``folder``, by name: its top-level
    files and its chunks. Returns what was left in ``chunks/`` (files it did not write)."""
    refuse_links(folder, ("chunks", *KIND_FILES[kind]))
    for name in KIND_FILES[kind]:
        for path in (folder / name, folder / (name + ".tmp")):
            if path.is_file() and not path.is_symlink():
                path.unlink()
    return _remove_own(folder / "chunks", lambda name: name == LEDGER_NAME or bool(STUDY_CHUNK_RE.match(name)))


def remove_chunks(parts: Path) -> None:
    """Remove the chunk files and the ledger once ``encounters.parquet`` holds them (and nothing else there)."""
    for entry in parts.iterdir():
        if (entry.name == LEDGER_NAME or CHUNK_RE.match(entry.name)) and entry.is_file() and not entry.is_symlink():
            entry.unlink()
    with contextlib.suppress(OSError):
        parts.rmdir()


# --------------------------------------------------------------------------------------------- the ledger
@dataclass(frozen=True)
class LedgerEntry:
    """One finished chunk as the run wrote it."""

    file: str
    start: int
    stop: int
    size: int
    sha256: str

    def as_line(self) -> str:
        return (
            json.dumps(
                {"file": self.file, "start": self.start, "stop": self.stop, "bytes": self.size, "sha256": self.sha256},
                separators=(",", ":"),
            )
            + "\n"
        )


def record_chunk(parts: Path, name: str, start: int, stop: int) -> LedgerEntry:
    """Append ``name`` (already in place) to the ledger, flushed to disk before the next chunk is written."""
    path = parts / name
    entry = LedgerEntry(name, start, stop, path.stat().st_size, _sha256(path))
    with open(parts / LEDGER_NAME, "a", encoding="utf-8") as ledger:
        ledger.write(entry.as_line())
        ledger.flush()
        os.fsync(ledger.fileno())
    return entry


def chunk_problem(path: Path, listed: LedgerEntry | None, span: tuple[int, int]) -> str | None:
    """Why the chunk file ``path`` cannot be trusted (None: the ledger lists it with ``span`` and its size and
    SHA-256 match)."""
    if listed is None:
        return "not in the chunk ledger (written by an interrupted run, or copied in)"
    if (listed.start, listed.stop) != span:
        return "the ledger gives it another encounter range"
    if path.stat().st_size != listed.size or _sha256(path) != listed.sha256:
        return "its contents do not match the ledger's checksum (damaged or replaced)"
    return None


def read_ledger(parts: Path) -> dict[str, LedgerEntry]:
    """The ledger's entries by file name (a later line for the same file wins; a torn last line is ignored)."""
    path = parts / LEDGER_NAME
    if not path.is_file():
        return {}
    entries: dict[str, LedgerEntry] = {}
    with open(path, encoding="utf-8", errors="replace") as ledger:
        for line in ledger:
            try:
                raw = json.loads(line)
                entry = LedgerEntry(
                    str(raw["file"]), int(raw["start"]), int(raw["stop"]), int(raw["bytes"]), str(raw["sha256"])
                )
            except (ValueError, KeyError, TypeError, RecursionError):
                continue  # not a line this tool wrote: its chunk is fought again
            entries[entry.file] = entry
    return entries


def verified_chunks(parts: Path, expected: dict[str, tuple[int, int]]) -> tuple[set[str], list[str]]:
    """Which chunk files in ``parts`` can be trusted, and a note for each one that cannot (it is removed, so the
    run fights it again).

    ``expected`` maps each chunk file name of the plan to its encounter range. A chunk is trusted when the ledger
    lists it with that range and the file on disk has the listed size and SHA-256."""
    ledger = read_ledger(parts)
    good: set[str] = set()
    notes: list[str] = []
    for entry in sorted(parts.iterdir()):
        name = entry.name
        if name == LEDGER_NAME:
            continue
        if name.endswith(".tmp") and CHUNK_RE.match(name):
            if entry.is_file() and not entry.is_symlink():
                entry.unlink()  # a write interrupted half-way: fought again
            continue
        if name not in expected:
            continue
        if entry.is_symlink() or not entry.is_file():
            raise ArenaError(
                f"{entry} is not a chunk file written by arena (a folder or a link); remove it and resume again"
            )
        problem = chunk_problem(entry, ledger.get(name), expected[name])
        if problem:
            notes.append(f"chunk {name}: {problem}; fighting it again")
            entry.unlink()
        else:
            good.add(name)
    return good, notes


# --------------------------------------------------------------------------------------------- code identity
@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 over the source and data files of the installed ``arena`` package: a run resumed by different
    code would mix two engines in one file, so the manifest records this and ``--resume`` compares it."""
    import arena

    root = Path(arena.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts and path.is_file():
            digest.update(str(path.relative_to(root)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


# --------------------------------------------------------------------------------------------- study folders
STUDY_FORMAT = 1
"""Version of a study folder's layout (in its manifest)."""


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
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40] + ".parquet"


def _now() -> str:
    import datetime as dt

    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _write_json_atomic(path: Path, doc: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    if os.path.lexists(tmp):
        tmp.unlink()
    tmp.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _plain(doc: Any) -> Any:
    """``doc`` as JSON would give it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(doc, default=str))


@dataclass
class StudyFolder:
    """An open (locked) study folder: where :func:`arena.study.matchups.run_batch` keeps and finds chunks."""

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
        import pyarrow.parquet as pq

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
                    table = pq.read_table(path, columns=list(columns))
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
        self.found += len(out)
        return out

    def save(self, name: str, start: int, stop: int, columns: dict[str, Any]) -> None:
        """Write a finished chunk aside, put it in place, then list it in the ledger (flushed to disk). Ctrl-C or
        SIGTERM meanwhile takes effect once the chunk is listed: an interrupted study keeps whole chunks."""
        with _deferred_signals():
            self._save(self.parts / (name + ".tmp"), name, start, stop, columns)
        self.written += 1

    def _save(self, tmp: Path, name: str, start: int, stop: int, columns: dict[str, Any]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            self.parts.mkdir(exist_ok=True)
            if os.path.lexists(tmp):
                tmp.unlink()
            pq.write_table(pa.table({k: pa.array(v) for k, v in columns.items()}), tmp)
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
            "finished": _now(),
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
    (:class:`arena.study.results_folder.FolderInUse`)."""
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
        "started": (old or {}).get("started") or _now(),
    }
    _write_json_atomic(folder / "manifest.json", manifest)
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
