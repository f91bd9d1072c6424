"""Encounter tables: a finished chunk as a typed arrow table, and the chunks assembled into ``encounters.parquet``
row group by row group (memory stays flat however many encounters a run has).

Why a module of its own: every way of running turns the workers' column arrays into the same typed table, and the run on
disk assembles its file from them.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import numpy as np

from arena.errors import ArenaError
from arena.study.runs.plan import KEY_COLUMNS, Chunk, Plan


def arrow_schema(record: dict[str, str]) -> Any:
    import pyarrow as pa

    types = {
        "int64": pa.int64(),
        "uint64": pa.uint64(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
        "string": pa.string(),
    }
    fields = [pa.field(name, types[kind]) for name, kind in KEY_COLUMNS.items()]
    fields += [pa.field(name, types[kind]) for name, kind in record.items() if name not in KEY_COLUMNS]
    return pa.schema(fields)


def chunk_table(plan: Plan, chunk: Chunk, columns: dict[str, np.ndarray], schema: Any) -> Any:
    """The typed arrow table of one finished chunk: key columns, then the record's fields."""
    import pyarrow as pa

    sp = plan.scenarios[chunk.scenario]
    rules = sp.rule_sets[chunk.rules]
    rows = chunk.size
    constants = {
        "scenario": sp.name,
        "rules": rules.key,
        "die": rules.die,
        "players_roll_all": rules.players_roll_all,
        "modifiers": rules.modifiers,
        "open_ended": rules.open_ended,
        "called_shots": rules.called_shots,
    }
    arrays = []
    for f in schema:
        if f.name in constants:
            arrays.append(pa.array([constants[f.name]] * rows, type=f.type))
        else:
            arrays.append(pa.array(columns[f.name], type=f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


ROW_GROUP = 65_536
"""Rows per row group of ``encounters.parquet``: part files are merged up to this size, no further."""


def _read_chunk(path: Path, chunk: Chunk, schema: Any) -> Any:
    """A chunk file as a table, checked to hold exactly the chunk's encounters."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path, schema=schema)
    except (pa.ArrowException, OSError) as err:
        raise ArenaError(
            f"{path}: a damaged chunk ({str(err).splitlines()[0][:120]}); rerun with --resume to fight it again"
        ) from None
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
        if os.path.lexists(tmp):  # left by an interrupted assembly (or a link): never written through
            tmp.unlink()
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


class Assembly:
    """``encounters.parquet`` written while the run fights: each chunk goes into the file as soon as every chunk
    before it in plan order is in (a chunk that finished early waits in memory, one found on disk by a resumed run
    is read when its turn comes), so only the last row group is left to write when the fighting ends.

    The file is the one :func:`assemble` writes from the part files afterwards, byte for byte: the same tables, in
    the same order, written in the same row groups. It is written aside (``encounters.parquet.tmp``) and put in
    place by :meth:`finish`; :meth:`abort` removes it."""

    def __init__(self, plan: Plan, parts: Path, target: Path, schema: Any, on_disk: set[str]) -> None:
        self.order = list(plan.chunks())
        self.parts, self.target, self.schema, self.on_disk = parts, target, schema, on_disk
        self.tmp = target.with_name(target.name + ".tmp")
        self.next = 0
        self.waiting: dict[Chunk, Any] = {}
        self.buffer: list[Any] = []
        self.rows = 0
        self.writer: Any = None

    def add(self, chunk: Chunk, table: Any) -> None:
        """A chunk finished (its typed table): write it and every chunk after it that is ready."""
        self.waiting[chunk] = table
        self._advance(at_end=False)

    def _advance(self, at_end: bool) -> None:
        while self.next < len(self.order):
            chunk = self.order[self.next]
            table = self.waiting.pop(chunk, None)
            if table is None:
                if chunk.filename not in self.on_disk and not at_end:
                    return
                path = self.parts / chunk.filename
                if not path.is_file():
                    raise ArenaError(f"{path}: a finished chunk is missing; rerun with --resume")
                table = _read_chunk(path, chunk, self.schema)
            self.buffer.append(table)
            self.rows += chunk.size
            self.next += 1
            if self.rows >= ROW_GROUP:
                self._write()

    def _write(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.writer is None:
            if os.path.lexists(self.tmp):
                self.tmp.unlink()
            self.writer = pq.ParquetWriter(self.tmp, self.schema)
        if self.buffer:
            self.writer.write_table(pa.concat_tables(self.buffer), row_group_size=ROW_GROUP)
        self.buffer, self.rows = [], 0

    def finish(self) -> None:
        """Every chunk is fought: write what is left (any chunk not handed over is read from its part file), and
        put the file in place."""
        try:
            self._advance(at_end=True)
            self._write()
            self.writer.close()
        except BaseException:
            self.abort()
            raise
        os.replace(self.tmp, self.target)

    def abort(self) -> None:
        """The run stopped: close and remove the half-written file (the part files are what a resume uses)."""
        self.waiting.clear()
        self.buffer = []
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
            self.writer = None
        with contextlib.suppress(OSError):
            self.tmp.unlink()


def write_summary(out: Path) -> None:
    from arena.study.statistics.encounters import read_encounters
    from arena.study.statistics.summaries import SUMMARY_COLUMNS, summarise

    table = summarise(read_encounters(out, columns=SUMMARY_COLUMNS))
    tmp = out / "summary.csv.tmp"
    table.to_csv(tmp, index=False)
    os.replace(tmp, out / "summary.csv")
