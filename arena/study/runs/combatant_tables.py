"""The combatants table of a run: one row per encounter and combatant (who went down, died, hit points left,
damage dealt), beside ``encounters.parquet`` as ``combatants.parquet``, which stays one row per encounter.

A worker asked for the rows (``Task.combatants``) fights with ``combatants=True`` and sends them with the chunk's
encounter columns, under names that start with :data:`PREFIX` (so every other reader of a chunk's columns, which
picks its columns by name, never sees them). The run writes them as a part file of their own beside the chunk's
(:func:`part_name`), listed in the ledger before the chunk's, and assembles them in plan order at the end, as it
does the encounters: the file is the same for any number of workers and after any resume.

Why a module of its own: the second table of a run has its own shape (a varying number of rows per encounter), and
the run, the workers and the command line share its names and its assembly.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.combat.record import COMBATANT_SCHEMA
from arena.errors import ArenaError
from arena.study.runs.plan import Chunk, Plan
from arena.study.runs.tables import ROW_GROUP

COMBATANTS_FILE = "combatants.parquet"
PREFIX = "combatant:"
"""The names of the combatant columns among a chunk's columns, as a worker sends them (``combatant:side`` ...)."""
KEY_COLUMNS: dict[str, str] = {"scenario": "string", "rules": "string", "index": "int64"}
"""What a combatant row starts with: the encounter it fought in (its row of ``encounters.parquet``)."""


def part_name(chunk: Chunk) -> str:
    """The part file of a chunk's combatants, beside the chunk's own (``...-0000000500.combatants.parquet``)."""
    return chunk.filename.removesuffix(".parquet") + ".combatants.parquet"


def combatant_columns(indices: Sequence[int], rows: Sequence[Sequence[tuple]]) -> dict[str, np.ndarray]:
    """The combatants of a chunk's encounters (``rows[k]``: the rows of encounter ``indices[k]``) as prefixed
    column arrays: the encounter index of each row, then every field of
    :data:`~arena.combat.record.COMBATANT_SCHEMA`."""
    flat = [row for fight in rows for row in fight]
    index = np.repeat(np.asarray(indices, dtype=np.int64), [len(fight) for fight in rows])
    columns: dict[str, np.ndarray] = {PREFIX + "index": index}
    by_field = list(zip(*flat, strict=True)) if flat else [() for _ in COMBATANT_SCHEMA]
    for (name, kind), values in zip(COMBATANT_SCHEMA.items(), by_field, strict=True):
        columns[PREFIX + name] = np.array(values, dtype=object if kind == "string" else kind)
    return columns


def arrow_schema() -> Any:
    import pyarrow as pa

    types = {"int64": pa.int64(), "bool": pa.bool_(), "string": pa.string()}
    fields = {**KEY_COLUMNS, **COMBATANT_SCHEMA}
    return pa.schema([pa.field(name, types[kind]) for name, kind in fields.items()])


def chunk_table(plan: Plan, chunk: Chunk, columns: dict[str, np.ndarray]) -> Any:
    """The typed table of a chunk's combatants, from the columns a worker sent."""
    import pyarrow as pa

    sp = plan.scenarios[chunk.scenario]
    schema = arrow_schema()
    try:
        rows = len(columns[PREFIX + "index"])
    except KeyError:
        raise ArenaError("the simulator sent no combatant rows (it has no fight_combatants)") from None
    constants = {"scenario": sp.name, "rules": sp.rule_sets[chunk.rules].key}
    arrays = [
        pa.array([constants[f.name]] * rows, type=f.type)
        if f.name in constants
        else pa.array(columns[PREFIX + f.name], type=f.type)
        for f in schema
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def write_part(parts: Path, chunk: Chunk, table: Any) -> str:
    """Write a chunk's combatants as its part file (aside, then renamed); returns its name."""
    import pyarrow.parquet as pq

    name = part_name(chunk)
    tmp = parts / (name + ".tmp")
    if os.path.lexists(tmp):
        tmp.unlink()
    pq.write_table(table, tmp)
    os.replace(tmp, parts / name)
    return name


def _read_part(path: Path, chunk: Chunk) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path, schema=arrow_schema())
    except (pa.ArrowException, OSError) as err:
        raise ArenaError(
            f"{path}: a damaged chunk ({str(err).splitlines()[0][:120]}); rerun with --resume to fight it again"
        ) from None
    index = table.column("index").to_numpy()
    if len(index) and (index[0] < chunk.start or index[-1] >= chunk.stop):
        raise ArenaError(f"{path}: holds other encounters than its name says; rerun with --resume to fight it again")
    return table


def assemble(plan: Plan, parts: Path, target: Path) -> None:
    """Merge the combatants' part files, in plan order, into ``target`` (written aside, then renamed), in row groups
    of at least :data:`~arena.study.runs.tables.ROW_GROUP` rows: the same bytes whoever fought which chunk."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = target.with_name(target.name + ".tmp")
    if os.path.lexists(tmp):  # a half-written file, or a planted link: never written through
        tmp.unlink()
    buffer: list[Any] = []
    rows = 0
    try:
        with pq.ParquetWriter(tmp, arrow_schema()) as writer:
            for chunk in plan.chunks():
                path = parts / part_name(chunk)
                if not path.is_file():
                    raise ArenaError(f"{path}: a finished chunk is missing; rerun with --resume")
                table = _read_part(path, chunk)
                buffer.append(table)
                rows += table.num_rows
                if rows >= ROW_GROUP:
                    writer.write_table(pa.concat_tables(buffer), row_group_size=rows)
                    buffer, rows = [], 0
            if buffer:
                writer.write_table(pa.concat_tables(buffer), row_group_size=rows)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    os.replace(tmp, target)


def read_combatants(results: Path) -> Any:
    """A run's combatants table as a pandas DataFrame; None when the run wrote none (``--no-combatants``, or a run
    older than the table)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = results / COMBATANTS_FILE
    if not path.is_file():
        return None
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as err:
        raise ArenaError(f"{path}: unreadable ({(str(err).splitlines() or [''])[0][:120]})") from None
    missing = [name for name in arrow_schema().names if name not in table.column_names]
    if missing:
        raise ArenaError(f"{path}: not a combatants table (no column {missing[0]!r})")
    return table.to_pandas()
