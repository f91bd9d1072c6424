"""The re-rated bestiary: every fully modelled SRD creature's equivalent CR, under the standard rules and under each
dice variant, against the party its CR implies.

Stated before any number (issue 26): for each creature of CR c, one creature against the generated party of level
L = c (at least 1, at most 20: a CR 1/2 creature meets a level-1 party, a CR 21 one a level-20 party), an encounter
of EL = c; its equivalent CR is c*, the rung of the typical-monster ladder (same party, one monster, standard d20,
same seeds) that costs the party the same resources (:data:`arena.study.claims.grid.MEASURE`), found by the grid's
own sequential ladder search with its intervals and censoring (:func:`arena.study.claims.grid.calibrate_cells`).
Under standard d20, c* - c says whether the SRD's CR is right in this model; under 3d6, players roll all and
variable modifiers, c* is the CR a DM would use with that variant.

Why a module of its own: it is the table a designer opens instead of the stat block's CR line
(``results/claims/bestiary-cr.csv``), fought as one phase of the study.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pandas as pd

from arena.study.claims.grid import D20, VARIANTS, CellState, calibrate_cells, start_rungs

ARMS = {"d20": D20, "3d6": VARIANTS["3d6"], "players roll all": VARIANTS["players roll all"]}
ARMS["variable modifiers"] = VARIANTS["variable modifiers"]
"""The rule sets a creature is re-rated under (the standard rules first)."""


@dataclass
class Bestiary:
    table: pd.DataFrame
    """One row per creature: its CR, the party level, and c* with its interval under each rule set."""
    encounters: int
    seconds: float


def party_level(cr: Fraction) -> int:
    """The party level a CR implies: an encounter of EL = CR (module docstring)."""
    return min(20, max(1, int(cr)))


def creatures() -> list[tuple[str, Fraction]]:
    """Every fully modelled SRD creature whose stat block loads, with its CR, in name order."""
    from arena.study.claims.design import srd_population
    from arena.world.challenge import parse_cr
    from arena.world.srd_bestiary import select, srd_rows

    crs = sorted({parse_cr(r.cr) for r in select(srd_rows(), modelled="full")})
    return sorted((name, cr) for cr in crs for name in srd_population(cr))


def run_bestiary(
    *,
    quick: bool = False,
    n: int | None = None,
    seed: int = 0,
    only: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    **fighting: Any,
) -> Bestiary:
    """Re-rate every creature (``only``: these ``srd/<name>`` creatures); ``fighting``: workers, cluster, store,
    stop, share_pool (:func:`arena.study.claims.grid.calibrate_cells`)."""
    states = []
    for name, cr in creatures():
        if only is not None and name not in only:
            continue
        state = CellState((party_level(cr), cr, 1), name, "bestiary", dict(ARMS))
        start_rungs(state)
        states.append(state)
    grid = calibrate_cells(states, quick=quick, n=n, seed=seed, progress=progress, **fighting)
    return Bestiary(table(grid.cells), grid.encounters, grid.seconds)


def table(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per creature, sorted by how far its equivalent CR under d20 is from its printed CR."""
    from arena.study.calibration.equivalent_cr import cr_text

    if cells.empty:
        return pd.DataFrame()
    rows = []
    for monster, g in cells.groupby("monster", sort=False):
        by: dict[str, dict[Hashable, Any]] = {str(r["variant"]): r for r in g.to_dict("records")}
        d20 = by["d20"]
        row: dict[str, Any] = {
            "creature": str(monster).removeprefix("srd/"),
            "cr": d20["cr"],
            "party level": int(d20["level"]),
            "encounters per arm": int(d20["n"]),
            "d20 - CR (rungs)": float(d20["c_star"] - d20["cr_pos"]),
        }
        for label in ARMS:
            r = by[label]
            row[f"{label} c*"] = cr_text(float(r["c_star"]))
            row[f"{label} low"] = cr_text(float(r["c_star_low"]))
            row[f"{label} high"] = cr_text(float(r["c_star_high"]))
            row[f"{label} known"] = _known(r)
        rows.append(row)
    out = pd.DataFrame(rows)
    order = out["d20 - CR (rungs)"].abs().sort_values(ascending=False, kind="stable").index
    return out.loc[order].reset_index(drop=True)


def _known(r: dict[Hashable, Any]) -> str:
    """What is known of a c* in words: measured, or the bound it is (off the ladder, saturated, nothing spent)."""
    from arena.study.calibration.equivalent_cr import cr_text

    low, high = float(r["arm_low"]), float(r["arm_high"])
    if low == high:
        return "measured"
    if low == float("-inf"):
        return f"at most {cr_text(high)} ({r['arm_why'] or 'censored'})"
    if high == float("inf"):
        return f"at least {cr_text(low)} ({r['arm_why'] or 'censored'})"
    return f"between {cr_text(low)} and {cr_text(high)} ({r['arm_why'] or 'censored'})"
