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
    from arena.study.statistics.encounters import read_encounters
    from arena.study.statistics.summaries import SUMMARY_COLUMNS, summarise

    table = summarise(read_encounters(out, columns=SUMMARY_COLUMNS))
    tmp = out / "summary.csv.tmp"
    table.to_csv(tmp, index=False)
    os.replace(tmp, out / "summary.csv")
