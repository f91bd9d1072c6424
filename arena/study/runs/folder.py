"""A results folder on disk (a run's or a study's): which command's it is, locked while in use, cleaned only of what
that command wrote.

Why a module of its own: the folder is where a careless or hostile user meets the file system. A run must never
delete a file it did not write (``--force`` removes the run's own files, by name, inside the folder it was
given, and refuses a folder another command wrote: :func:`folder_kind`), never share the folder with a second
run (an exclusive lock for the whole run), and never trust a chunk it cannot verify (the ledger,
:mod:`arena.study.runs.ledger`). The studies (``arena claims``, ``arena calibrate``) keep their folders with the
same lock and ledger (:mod:`arena.study.runs.study_folder`).

A run's layout::

    NAME/.arena-lock            held (flock) by the run using the folder
    NAME/manifest.json          what was run, by which code; ``status`` running / failed / complete
    NAME/encounters.parquet     written at the end, its SHA-256 in the manifest
    NAME/combatants.parquet     one row per encounter and combatant (arena.study.runs.combatant_tables)
    NAME/summary.csv
    NAME/chunks/*.parquet       finished chunks while the run is incomplete
    NAME/chunks/ledger.jsonl    one JSON line per finished chunk (appended after the chunk is in place)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from arena.errors import ArenaError

LOCK_NAME = ".arena-lock"
LEDGER_NAME = "ledger.jsonl"
CHUNK_RE = re.compile(r"^\d{3}-\d{3}-\d{10}-\d{10}(\.combatants)?\.parquet(\.tmp)?$")
"""The names of chunk files (``Chunk.filename``), of their combatants' part files, and of their half-written
``.tmp`` twins."""
RUN_FILES = ("manifest.json", "encounters.parquet", "combatants.parquet", "summary.csv")
"""The files a run writes at the top of its folder (each also as a half-written ``.tmp``)."""
REPORT_FOLDER = "report"
REPORT_RE = re.compile(r"^[A-Za-z0-9_.-]+\.(md|html|png|tmp)$")
"""Files ``arena report`` writes into ``NAME/report/``."""
STUDY_CHUNK_RE = re.compile(r"^[0-9a-f]{40}\.(arrow|parquet)(\.tmp)?$")
"""The names of a study's chunk files (a digest of what they hold: :func:`chunk_name`; ``.parquet``: written by a study
folder of format 1, cleared the same way)."""

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


def now() -> str:
    """The time now, as a manifest records it (UTC, to the second)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def write_json_atomic(path: Path, doc: dict) -> None:
    """Write ``doc`` as ``path`` (indented JSON): aside first (an old ``.tmp`` file or link there removed, never
    written through), then renamed into place."""
    tmp = path.with_name(path.name + ".tmp")
    if os.path.lexists(tmp):
        tmp.unlink()
    tmp.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)
