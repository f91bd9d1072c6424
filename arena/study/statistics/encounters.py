"""A run's encounters read from ``encounters.parquet``: every column checked for its kind, missing values and
numbers that are not finite, and the file for its size, before a summary or a comparison reads it.

Why a module of its own: a results file may come from anywhere (``arena report`` and ``arena compare`` take any
path), so what it holds is checked once, here, and anything wrong is one error naming the file.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pandas as pd

from arena.errors import ArenaError
from arena.limits import MAX_FILE_BYTES, MAX_RUN_ENCOUNTERS

CELL = ["scenario", "rules"]
"""A cell: one scenario under one rule set."""
VARIANTS = ["die", "players_roll_all", "modifiers", "open_ended", "called_shots"]
REQUIRED_COLUMNS = {
    "scenario": "text",
    "rules": "text",
    "winner": "text",
    "rounds": "number",
    "party_hp_lost": "number",
}
"""What every results file must hold for a summary or a comparison, and of which kind."""
OPTIONAL_KINDS = {
    "index": "number",
    "seed": "number",
    "pcs_dead": "number",
    "hits_monsters": "number",
    "attacks_monsters": "number",
    "lucky_damage_monsters": "number",
    "damage_monsters": "number",
    "damage_by_monsters": "number",
}
"""Columns read when present; when present they must be of this kind (a text column of hits is not a count)."""
MAX_CELLS = 10_000
"""Scenario x rule-set cells in one results file read by ``arena report`` or ``arena compare``: every cell costs a
few statistical tests (and, in a report, a row of a plot). A run of 100 scenarios over the whole grid of 50 rule
sets has 5,000; a file with more was not written by ``arena run``."""


def results_file(path: str | os.PathLike) -> Path:
    """``encounters.parquet`` of a results folder (or the file itself): a regular file, or an ArenaError."""
    p = Path(path)
    try:
        if p.is_dir():
            p = p / "encounters.parquet"
            if not p.exists() and not p.is_symlink():
                hint = (
                    " (the run did not finish: complete it with `arena run --resume`)"
                    if (p.parent / "chunks").exists()
                    else ""
                    if (p.parent / "manifest.json").exists()
                    else " (is it a results folder of `arena run`?)"
                )
                raise ArenaError(f"{p.parent}: no encounters.parquet{hint}")
        elif not p.exists():
            raise ArenaError(f"{p}: no such results folder or file")
        mode = p.stat().st_mode
    except OSError as err:
        raise ArenaError(f"{p}: cannot read the results ({err.strerror or err})") from None
    if stat.S_ISDIR(mode):
        raise ArenaError(f"{p}: is a folder, expected a results folder's encounters.parquet")
    if not stat.S_ISREG(mode):
        raise ArenaError(f"{p}: is not a regular file (a device, pipe or socket), expected encounters.parquet")
    return p


def check_complete(path: str | os.PathLike) -> None:
    """Refuse a results folder whose manifest says its run has not finished (``status`` running, interrupted or
    failed): its encounters.parquet, if any, is not that run's. A folder without a manifest (or an older one
    without a status) is read as it is."""
    p = results_file(path).parent
    manifest = p / "manifest.json"
    try:
        if not manifest.is_file() or manifest.stat().st_size > MAX_FILE_BYTES:
            return
        doc = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return
    status = doc.get("status") if isinstance(doc, dict) else None
    if isinstance(status, str) and status != "complete":
        raise ArenaError(
            f"{manifest.parent}: the run is not complete (its manifest says status {status[:40]!r}); "
            "complete it with `arena run --resume`"
        )


def _kind(dtype: Any) -> str:
    import pyarrow as pa

    if pa.types.is_dictionary(dtype):
        dtype = dtype.value_type
    if (
        pa.types.is_string(dtype)
        or pa.types.is_large_string(dtype)
        or getattr(pa.types, "is_string_view", lambda _t: False)(dtype)
    ):
        return "text"
    if pa.types.is_integer(dtype) or pa.types.is_floating(dtype) or pa.types.is_boolean(dtype):
        return "number"
    return str(dtype)


def _check_table(file: Path, table: Any, required: dict[str, str]) -> None:
    """Refuse a table whose columns are missing, of the wrong kind, empty or not finite."""
    import pyarrow.compute as pc

    if table.num_rows == 0:
        raise ArenaError(f"{file}: holds no encounters")
    for name in table.column_names:
        want = required.get(name) or OPTIONAL_KINDS.get(name)
        if want is None:
            continue
        column = table.column(name)
        got = _kind(column.type)
        if got != want:
            raise ArenaError(f"{file}: column {name!r} holds {got} values, expected {want}")
        if column.null_count:
            raise ArenaError(f"{file}: column {name!r} has {column.null_count:,} missing values")
        if want == "number" and _is_float(column.type):
            finite = pc.all(pc.is_finite(column)).as_py()
            if finite is False:
                raise ArenaError(f"{file}: column {name!r} holds values that are not finite numbers (NaN or infinity)")


def _is_float(dtype: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_floating(dtype)


def read_encounters(
    path: str | os.PathLike, columns: list[str] | None = None, required: list[str] | None = None
) -> pd.DataFrame:
    """The encounter rows of a run (only ``columns`` if given; keys are always included).

    ``required`` (default: the scenario, rule set, winner, rounds and hit points lost) must be present; every
    column read is checked for its kind, missing values and non-finite numbers, and the file for its size (at
    most :data:`~arena.limits.MAX_RUN_ENCOUNTERS` rows). Anything wrong is an ArenaError naming the file."""
    import pyarrow.parquet as pq

    file = results_file(path)
    need = {
        k: REQUIRED_COLUMNS.get(k, OPTIONAL_KINDS.get(k, "number"))
        for k in (required if required is not None else REQUIRED_COLUMNS)
    }
    try:
        handle = pq.ParquetFile(file)
        names = handle.schema_arrow.names
        missing = [c for c in need if c not in names]
        if missing:
            raise ArenaError(
                f"{file}: not the encounters of a run: missing column(s) {', '.join(map(repr, missing))}"
                f" (it has {', '.join(map(repr, names[:8]))}{', ...' if len(names) > 8 else ''})"
            )
        rows = handle.metadata.num_rows
        if rows > MAX_RUN_ENCOUNTERS:
            raise ArenaError(f"{file}: {rows:,} encounters, more than one run can hold ({MAX_RUN_ENCOUNTERS:,})")
        if columns is not None:
            wanted = list(dict.fromkeys([*CELL, *VARIANTS, "index", "seed", *need, *columns]))
            columns = [c for c in wanted if c in names]
        table = handle.read(columns=columns)
    except ArenaError:
        raise
    except (OSError, ValueError, TypeError, IndexError, KeyError) as err:  # pyarrow's ArrowInvalid is a ValueError
        first = (str(err).splitlines() or [type(err).__name__])[0]
        raise ArenaError(f"{file}: not a readable parquet file ({first})") from None
    _check_table(file, table, need)
    try:
        frame = table.to_pandas()
    except (ValueError, TypeError) as err:
        raise ArenaError(f"{file}: cannot read the encounters ({str(err).splitlines()[0]})") from None
    cells = frame[[c for c in CELL if c in frame]].drop_duplicates()
    if len(cells) > MAX_CELLS:
        raise ArenaError(
            f"{file}: {len(cells):,} scenario and rule-set cells, more than {MAX_CELLS:,} (not a "
            "results file of `arena run`)"
        )
    return frame
