"""The chunk ledger of a results folder: every finished chunk listed with its encounter range, size and SHA-256, so
that a resumed run or study trusts only the chunks it can verify.

Why a module of its own: the ledger is the one record of what an interrupted run finished. A chunk is listed only
once it is in place (the line flushed to disk before the next chunk is written), and a chunk the ledger does not
list, lists with another range, or lists with another size or checksum is fought again (``chunks/ledger.jsonl``,
one JSON line per chunk; a torn last line is ignored).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.study.runs.folder import CHUNK_RE, LEDGER_NAME


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
    entry = LedgerEntry(name, start, stop, path.stat().st_size, file_sha256(path))
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
    if path.stat().st_size != listed.size or file_sha256(path) != listed.sha256:
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
