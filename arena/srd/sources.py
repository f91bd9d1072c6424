"""The text ``arena bestiary import`` reads, and what it refuses before any reader sees it.

A file is read as the YAML loader reads one (:func:`read_source`: a regular file, never a FIFO, a device or a file
under /proc, at most :data:`~arena.limits.MAX_FILE_BYTES`), then decoded (:func:`decode_source`: UTF-8, or UTF-16
with its byte-order mark; anything else is an error at its line, never text read with replacement characters).
Its lines are then screened (:func:`screen`, docs/limits.md): a line longer than
:data:`~arena.limits.MAX_IMPORT_LINE` characters and a number of more than :data:`~arena.limits.MAX_IMPORT_DIGITS`
digits are cut, and refused, so no pattern ever reads a long line and no reader converts a long number.
"""

from __future__ import annotations

import bisect
import codecs
import re
from pathlib import Path

from arena.errors import ArenaError
from arena.limits import MAX_FILE_BYTES, MAX_IMPORT_DIGITS, MAX_IMPORT_LINE
from arena.srd.build import Problem
from arena.srd.text import RawBlock
from arena.world.yamlio import read_user_bytes


# --------------------------------------------------------------------------------------------- reading a file
class SourceError(ArenaError):
    """A file ``bestiary import`` cannot read as text: ``line`` (or None) and ``message`` say where and why."""

    def __init__(self, line: int | None, message: str):
        self.line = line
        self.message = message
        super().__init__(message)


def _line_at(data: bytes, offset: int) -> int:
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode_source(data: bytes) -> str:
    """The text of a stat-block file: UTF-8 (a byte-order mark dropped), or UTF-16 with its byte-order mark; line
    ends made ``\\n``. Anything else is a :class:`SourceError` with the line: text that is not UTF-8 is never read
    with replacement characters."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as err:
            line = data[: err.start].decode("utf-16", errors="replace").count("\n") + 1
            raise SourceError(
                line,
                f"not UTF-16 text ({err.reason}), though it starts with a UTF-16 byte-order mark: save it as UTF-8",
            ) from None
        if "\0" in text:
            line = text.count("\n", 0, text.index("\0")) + 1
            raise SourceError(line, "a NUL character: binary data, not text in the SRD layout")
    else:
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        nul = data.find(b"\0")
        if nul >= 0:
            raise SourceError(
                _line_at(data, nul),
                "a NUL byte: binary data, not text in the SRD layout (UTF-16 text "
                "without a byte-order mark must be saved as UTF-8)",
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise SourceError(
                _line_at(data, err.start),
                f"not UTF-8 text (byte 0x{data[err.start]:02x}: {err.reason}): save it as UTF-8",
            ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_source(path: Path, label: str | None = None) -> str:
    """The text of a file ``bestiary import`` reads: the YAML loader's rules (a regular file, never a FIFO, a
    device or a file under /proc, at most :data:`~arena.limits.MAX_FILE_BYTES`), then :func:`decode_source`."""
    label = str(path) if label is None else label
    try:
        data = read_user_bytes(path, label, "a text file of stat blocks", MAX_FILE_BYTES)
    except SourceError:
        raise
    except ArenaError as err:
        message = str(err)
        raise SourceError(None, message[len(label) + 2 :] if message.startswith(f"{label}: ") else message) from None
    return decode_source(data)


# --------------------------------------------------------------------------------------------- lines not read
LONG_NUMBER = re.compile(rf"\d{{{MAX_IMPORT_DIGITS + 1},}}")
"""A number of more digits than a stat block may have."""


def screen(text: str) -> tuple[str, dict[int, str]]:
    """``text`` made safe to read, and the lines it refuses (line -> why): a line longer than
    :data:`~arena.limits.MAX_IMPORT_LINE` characters is cut to it, a number of more than
    :data:`~arena.limits.MAX_IMPORT_DIGITS` digits to one digit more. Nothing downstream then reads a long line or
    converts a long number; the creatures that read a refused line are not imported
    (:func:`refusals`)."""
    lines = text.split("\n")
    refused: dict[int, str] = {}
    for i, line in enumerate(lines):
        if len(line) > MAX_IMPORT_LINE:
            refused[i + 1] = f"line too long ({len(line):,} characters; the limit is {MAX_IMPORT_LINE:,})"
            line = lines[i] = line[:MAX_IMPORT_LINE]
        m = LONG_NUMBER.search(line)
        if m:
            if i + 1 not in refused:
                digits = m.group(0)
                refused[i + 1] = (
                    f"number too large ({digits[:12]}{'...' if len(digits) > 12 else ''}: "
                    f"{len(digits):,} digits; the limit is {MAX_IMPORT_DIGITS})"
                )
            lines[i] = LONG_NUMBER.sub(lambda n: n.group(0)[: MAX_IMPORT_DIGITS + 1], line)
    return ("\n".join(lines), refused) if refused else (text, refused)


def refused_lines_read(block: RawBlock, refused: dict[int, str], order: list[int]) -> dict[int, str]:
    """The refused lines (``order``: their numbers, ascending) that a block reads, each with the field it holds
    (``name`` for the title's line, ``stat block`` for a row between, ``description`` for the prose)."""
    out: dict[int, str] = {}
    for name, cell in block.fields.items():
        if cell.line in refused:
            out.setdefault(cell.line, name)
    if block.type_line is not None and block.type_line.line in refused:
        out.setdefault(block.type_line.line, "Size/Type")
    last = max((c.line for c in (*block.fields.values(), block.type_line) if c is not None), default=block.line)
    for line in order[bisect.bisect_left(order, block.line) : bisect.bisect_right(order, last)]:
        out.setdefault(line, "name" if line == block.line else "stat block")  # the title, a table's names row
    for cell in block.description:
        if cell.line in refused:
            out.setdefault(cell.line, "description")
    return out


def refusals(block: RawBlock, read: dict[int, str], refused: dict[int, str], owned: dict[int, int]) -> list[Problem]:
    """A problem for each refused line the block reads (``read``), and for each field longer than
    :data:`~arena.limits.MAX_IMPORT_LINE` (a table cell wrapped over many lines). A line another block holds as
    one of its fields (the next pasted block, within the 400 lines of prose after this one) is that block's."""
    problems = [
        Problem(
            block.file,
            cell.line,
            name,
            f"field too long ({len(cell.text):,} characters; the limit is {MAX_IMPORT_LINE:,})",
            block.title,
        )
        for name, cell in block.fields.items()
        if len(cell.text) > MAX_IMPORT_LINE
    ]
    own = [
        (line, name)
        for line, name in sorted(read.items())
        if name != "description" or owned.get(line, id(block)) == id(block)
    ]
    if own:  # one problem a creature: its first line, and how many more
        (line, name), more = own[0], len(own) - 1
        problems.append(
            Problem(
                block.file,
                line,
                name,
                refused[line] + (f" (and {more:,} more line{'s' * (more > 1)} of it not read)" if more else ""),
                block.title,
            )
        )
    return problems
