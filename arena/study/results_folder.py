"""A results folder on disk: locked while a run uses it, cleaned only of what a run wrote, chunks verified.

Why a module of its own: the folder is where a careless or hostile user meets the file system. A run must never
delete a file it did not write (``--force`` removes the run's own files, by name, inside the folder it was
given, and refuses a folder another command wrote: :func:`folder_kind`), never share the folder with a second
run (an exclusive lock for the whole run), and never trust a chunk it cannot verify (every finished chunk is
listed in ``chunks/ledger.jsonl`` with its encounter range, row count, size and SHA-256; one that does not match
is fought again). The studies (``arena claims``, ``arena calibrate``) keep their folders with the same lock and
ledger (:mod:`arena.study.study_folder`).

Layout::

    NAME/.arena-lock            held (flock) by the run using the folder
    NAME/manifest.json          what was run, by which code; ``status`` running / failed / complete
    NAME/encounters.parquet     written at the end, its SHA-256 in the manifest
    NAME/summary.csv
    NAME/chunks/*.parquet       finished chunks while the run is incomplete
    NAME/chunks/ledger.jsonl    one JSON line per finished chunk (appended after the chunk is in place)
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

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
"""The names of a study's chunk files (a digest of what they hold: :mod:`arena.study.study_folder`)."""

KINDS = {"run": "the results of `arena run`", "claims": "a study of `arena claims`",
         "calibration": "a calibration of `arena calibrate`"}
"""What a folder can hold (:func:`folder_kind`), as an error message names it."""
KIND_FILES = {
    "run": RUN_FILES,
    "claims": ("manifest.json", "summary.csv", "claims.json", "calibration.csv", "effects.png", "delta-cr-maps.png",
               "rule-fit.png", "claims.md"),
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
            raise FolderInUse(f"{folder} is in use by another arena run{f' (process {holder})' if holder else ''}; "
                              "wait for it to finish or stop it first") from None
        try:
            same = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        handle.close()                             # the file was removed by the run that held it: lock anew
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
            raise ArenaError(f"{path} is a symbolic link; a results folder's own files must be real files "
                             "(remove the link)")


def remove_run_files(folder: Path) -> list[str]:
    """Remove what a run (and ``arena report``) wrote in ``folder``, by name; return what was left untouched.

    Nothing outside ``folder`` is touched, and no file whose name a run does not write is removed."""
    refuse_links(folder)
    for name in RUN_FILES:
        for path in (folder / name, folder / (name + ".tmp")):
            if path.is_file():
                path.unlink()
    left: list[str] = []
    for sub, pattern in (("chunks", CHUNK_RE), (REPORT_FOLDER, REPORT_RE)):
        inner = folder / sub
        if not inner.is_dir():
            continue
        for entry in inner.iterdir():
            ours = entry.name == LEDGER_NAME if sub == "chunks" else False
            if (ours or pattern.match(entry.name)) and entry.is_file() and not entry.is_symlink():
                entry.unlink()
            else:
                left.append(str(entry))
        with contextlib.suppress(OSError):
            inner.rmdir()                          # only if empty
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
    """``FOLDER holds <what> (<some of its files>)`` for an error message."""
    mine = [n for n in dict.fromkeys((*KIND_FILES[kind], "encounters.parquet", "chunks"))
            if os.path.lexists(folder / n)]
    files = f" ({', '.join(mine[:3])}{' ...' if len(mine) > 3 else ''})" if mine else ""
    return f"{folder} holds {KINDS[kind]}{files}"


def refuse_other_kind(folder: Path, kind: str) -> None:
    """Refuse a folder that holds another command's files: no flag of ``kind``'s command may touch them."""
    found = folder_kind(folder)
    if found is not None and found != kind:
        raise ArenaError(f"{describe_kind(folder, found)}, not {KINDS[kind]}; its files are not this command's to "
                         "replace or remove (choose another --out)")


def remove_study_files(folder: Path, kind: str) -> list[str]:
    """Remove what ``arena claims`` or ``arena calibrate`` (``kind``) wrote in ``folder``, by name: its top-level
    files and its chunks. Returns what was left in ``chunks/`` (files it did not write)."""
    refuse_links(folder, ("chunks", *KIND_FILES[kind]))
    for name in KIND_FILES[kind]:
        for path in (folder / name, folder / (name + ".tmp")):
            if path.is_file() and not path.is_symlink():
                path.unlink()
    left: list[str] = []
    parts = folder / "chunks"
    if parts.is_dir():
        for entry in parts.iterdir():
            ours = entry.name == LEDGER_NAME or STUDY_CHUNK_RE.match(entry.name)
            if ours and entry.is_file() and not entry.is_symlink():
                entry.unlink()
            else:
                left.append(str(entry))
        with contextlib.suppress(OSError):
            parts.rmdir()                          # only if empty
    return left


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
        return json.dumps({"file": self.file, "start": self.start, "stop": self.stop, "bytes": self.size,
                           "sha256": self.sha256}, separators=(",", ":")) + "\n"


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
                entry = LedgerEntry(str(raw["file"]), int(raw["start"]), int(raw["stop"]), int(raw["bytes"]),
                                    str(raw["sha256"]))
            except (ValueError, KeyError, TypeError, RecursionError):
                continue                           # not a line this tool wrote: its chunk is fought again
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
                entry.unlink()                     # a write interrupted half-way: fought again
            continue
        if name not in expected:
            continue
        if entry.is_symlink() or not entry.is_file():
            raise ArenaError(f"{entry} is not a chunk file written by arena (a folder or a link); remove it and "
                             "resume again")
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
