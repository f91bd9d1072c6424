"""The calibration grid (Delta-CR per variant with sequential stopping and a CR-ladder search), the group-CR claim
by model comparison, the replacement CR rule per variant, and the DMG anchor check.

**Calibration** (the method of :mod:`arena.study.calibration.equivalent_cr`): for a cell (party level, monster,
group size) and a variant V, c*(V) is the CR of the typical monster (same group size, standard d20, same seeds)
whose difficulty (hit points lost) equals the subject's under V; Delta-CR(V) = c*(V) - c*(d20). Here the ladder is
*searched* rather than fought whole: it starts at two rungs either side of the subject's CR and grows by two rungs
in the direction an arm fell off it, at each look, within the ladder's ends (CR 1/8 and 20: a cell below 1/2 is
censored at 1/8 now, not at 1/2). Sampling is sequential (:mod:`arena.study.statistics.sequential`):
looks at :data:`STAGES` encounters per arm, intervals at 1 - 0.05/K, a cell stops when every variant's Delta-CR
interval is at most :data:`TARGET` rungs either side. The report counts the encounters saved against fighting the
whole ladder of :mod:`arena.study.calibration.calibrate` (9 rungs) to the last stage.

Why a module of its own: the grid is the claims' calibration (its cells are the factor design's,
:mod:`arena.study.claims.design`), fought in batches look by look and judged by the group-CR models of
:mod:`arena.study.calibration.cr_rule`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from arena.study.calibration import cr_rule
from arena.study.calibration.equivalent_cr import difficulty_values, equivalent_cr
from arena.study.claims import design
from arena.study.claims.design import Arm, matchup
from arena.study.runs.matchups import Matchup, run_batch
from arena.study.statistics.sequential import SequentialRule, stage_seed

METRIC = "hp-lost"
STAGES, QUICK_STAGES = (150, 300, 600), (40,)
TARGET = 0.25
RESAMPLES = 3000
INITIAL_RUNGS, GROW, MAX_FROM_SUBJECT = 2, 2, 6
LOWEST, HIGHEST = design.LOWEST_RUNG, design.HIGHEST_RUNG
"""The search's bounds: the ladder's ends, CR 1/8 (position -4) and 20."""
FULL_LADDER = 9
"""Rungs the fixed-ladder calibration fights (4 below to 4 above): what the search saves against."""
D20 = Arm("d20")
VARIANTS: dict[str, Arm] = {
    "3d6": Arm("3d6"),
    "3d6 + Luck domain spells": Arm("3d6", model=(("domain_spells", "by-die"),)),
    "players roll all": Arm("d20+prad"),
    "variable modifiers": Arm("d20+var"),
    "open-ended": Arm("d20+open"),
    "3d6 press your luck": Arm("3d6+luck", party_press="when-better"),
    "3d6 press luck + called shots": Arm("3d6+luck+called", party_press="when-better", party_called="when-better"),
}
"""Every variant of the documents (and the documented combinations), each against standard d20."""
SRD_LEVELS, SRD_SIZES, SRD_EL = (1, 3, 5, 8), (1, 2, 4), (0, 2)


@dataclass
class CellState:
    cell: design.Cell
    monster: str
    population: str
    arms: dict[str, Arm]
    rungs: set[int] = field(default_factory=set)
    looks: int = 0
    done: bool = False
    rows: list[dict] = field(default_factory=list)


@dataclass
class Grid:
    cells: pd.DataFrame
    encounters: int
    seconds: float
    saved: int
    full_cost: int
    rule: SequentialRule
    comparison: pd.DataFrame | None = None
    srd_comparison: pd.DataFrame | None = None
    rules: list[dict] = field(default_factory=list)


def _position(cr: Fraction) -> int:
    from arena.world.challenge import cr_rank

    return int(cr_rank(cr))


def _cells(quick: bool, variation: str | None = None) -> list[CellState]:
    """The grid's cells; under a model ``variation`` (a robustness re-run) only the typical monster's, and only the
    arms the group-CR verdict reads (d20 and 3d6)."""
    out = []
    subject_arms = {"d20": D20, **VARIANTS} if variation is None else {"d20": D20, "3d6": VARIANTS["3d6"]}
    for cell in design.grid_cells():
        out.append(CellState(cell, design.typical(cell[1]), "typical", subject_arms))
    srd_cells = design.grid_cells(SRD_LEVELS, SRD_SIZES, SRD_EL) if variation is None else []
    for cell in srd_cells:
        for m in design.srd_monsters(cell[1]):
            out.append(CellState(cell, m, "srd", {"d20": D20, "3d6": VARIANTS["3d6"]}))
    for s in out:
        p = _position(s.cell[1])
        s.rungs = {q for q in range(p - INITIAL_RUNGS, p + INITIAL_RUNGS + 1) if LOWEST <= q <= HIGHEST}
    return out


def _series(
    state: CellState, seed: int, look: int, n: int, variation: str | None = None
) -> list[tuple[str, Matchup, str]]:
    """(label, matchup, rules) of everything a cell fights at a stage (under a model ``variation``)."""
    level, _cr, size = state.cell
    s_seed = stage_seed(seed, look)
    out = []
    for label, arm in state.arms.items():
        m = matchup(state.cell, state.monster, arm, n, s_seed, variation)
        out.append((label, m, arm.rules))
    for q in sorted(state.rungs):
        cr = design.rung_cr(q)
        m = matchup((level, cr, size), design.typical(cr), D20, n, s_seed, variation)
        out.append((f"rung {q}", m, "d20"))
    return out


def run_grid(
    *,
    quick: bool = False,
    n: int | None = None,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    progress: Callable[[int, int], None] | None = None,
    variation: str | None = None,
    store: Any = None,
    **fighting: Any,
) -> Grid:
    """Calibrate every cell (sequentially, searching the ladder); ``variation``: under one of the fight model's
    contested choices (:data:`arena.study.claims.design.VARIATIONS`), the typical monster under d20 and 3d6 only.
    ``store``: a study folder keeping every batch's chunks (:func:`arena.study.runs.matchups.run_batch`); resumed,
    the grid replays its looks on the chunks it finds. ``fighting``: more options for every batch (``stop``,
    ``share_pool``: :func:`arena.study.runs.matchups.run_batch`)."""
    stages = (n,) if n is not None else QUICK_STAGES if quick else STAGES
    rule = SequentialRule(tuple(stages), TARGET if len(stages) > 1 else math.inf)
    incs = rule.increments()
    states = _cells(quick, variation)
    values: dict[tuple[str, str, int], np.ndarray] = {}
    encounters, seconds = 0, 0.0
    for look in range(rule.looks):
        active = [s for s in states if not s.done]
        if not active:
            break
        for _ in range(3):  # the ladder search: fight, look, grow the ladder, fight again
            for k in range(look + 1):  # one batch per stage: a matchup's name is unique within a run
                wanted: list[Matchup] = []
                for s in active:
                    for _label, m, rules in _series(s, seed, k, incs[k], variation):
                        if (m.name, rules, k) not in values:
                            wanted.append(replace(m, rules=(rules,)))
                if not wanted:
                    continue
                batch = run_batch(wanted, workers=workers, cluster=cluster, progress=progress, store=store, **fighting)
                encounters += batch.encounters
                seconds += batch.seconds
                for m in wanted:
                    values[(m.name, m.rules[0], k)] = difficulty_values(batch.rows(m, m.rules[0], incs[k]), METRIC)
            grew = False
            for s in active:
                grew |= _evaluate(s, seed, look, incs, values, rule, variation)
            if not grew:
                break
        for s in active:
            s.looks = look + 1
            widths = [(r["delta_high"] - r["delta_low"]) / 2 for r in s.rows if r["variant"] != "d20"]
            if look == rule.looks - 1 or (
                widths and max(widths) <= rule.target and not any(r["censored"] for r in s.rows)
            ):
                s.done = True
    rows = [r for s in states for r in s.rows]
    cells = pd.DataFrame(rows)
    series = [len(s.arms) + FULL_LADDER - 1 for s in states]  # the full ladder holds the subject's own rung
    full_cost = int(sum(rule.stages[-1] * k for k in series))
    saved = max(0, full_cost - encounters)
    grid = Grid(cells, encounters, seconds, saved, full_cost, rule)
    _analyse(grid)
    return grid


def _evaluate(
    s: CellState, seed: int, look: int, incs: list[int], store: dict, rule: SequentialRule, variation: str | None = None
) -> bool:
    """Calibrate a cell on what it has fought; grow its ladder where an arm fell off it. True if it grew."""
    level, cr, size = s.cell
    k_range = range(look + 1)
    parts: dict[str, list[np.ndarray]] = {}
    for k in k_range:
        for label, m, rules in _series(s, seed, k, incs[k], variation):
            parts.setdefault(label, []).append(store[(m.name, rules, k)])
    series = {label: np.concatenate(v) for label, v in parts.items()}
    ladder = {float(q): series[f"rung {q}"] for q in sorted(s.rungs)}
    arms = {label: series[label] for label in s.arms}
    result = equivalent_cr(ladder, arms, resamples=RESAMPLES, seed=seed, confidence=rule.confidence)
    p = _position(cr)
    grew = False
    low_needed = any(r["censored"] == "below" for r in result.values())
    high_needed = any(r["censored"] == "above" for r in result.values())
    if low_needed and min(s.rungs) > max(LOWEST, p - MAX_FROM_SUBJECT):
        s.rungs |= {q for q in range(min(s.rungs) - GROW, min(s.rungs)) if q >= LOWEST}
        grew = True
    if high_needed and max(s.rungs) < min(HIGHEST, p + MAX_FROM_SUBJECT):
        s.rungs |= {q for q in range(max(s.rungs) + 1, max(s.rungs) + 1 + GROW) if q <= HIGHEST}
        grew = True
    z = _z(rule.confidence)
    s.rows = []
    for label, r in result.items():
        s.rows.append(
            {
                "population": s.population,
                "monster": s.monster,
                "level": level,
                "cr": str(cr),
                "cr_pos": p,
                "gap": p - level,
                "size": size,
                "variant": label,
                "n": r["n"],
                "difficulty": r["difficulty"],
                "c_star": r["c_star"],
                "delta": r.get("delta", 0.0),
                "delta_low": r.get("delta_low", 0.0),
                "delta_high": r.get("delta_high", 0.0),
                "se": (r.get("delta_high", 0.0) - r.get("delta_low", 0.0)) / (2 * z),
                "censored": r["censored"] or result["d20"]["censored"],
                "rungs": f"{min(s.rungs)}..{max(s.rungs)}",
                "looks": look + 1,
            }
        )
    return grew


def _z(confidence: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + confidence / 2))


def _usable(cells: pd.DataFrame, population: str, variant: str) -> pd.DataFrame:
    if cells.empty:
        return cells
    sel = cells[(cells["population"] == population) & (cells["variant"] == variant) & (cells["censored"] == "")]
    return sel.rename(columns={"level": "level"}).reset_index(drop=True)


def _analyse(grid: Grid) -> None:
    typ = _usable(grid.cells, "typical", "3d6")
    if len(typ) >= 4 and typ["level"].nunique() >= 2:
        grid.comparison = cr_rule.compare_models(typ)
    srd = _usable(grid.cells, "srd", "3d6")
    if len(srd) >= 6 and srd["level"].nunique() >= 2:
        grid.srd_comparison = cr_rule.compare_models(srd)
    for variant in VARIANTS:
        frame = _usable(grid.cells, "typical", variant)
        if len(frame) >= 4 and frame["level"].nunique() >= 2:
            out = cr_rule.replacement_rule(frame)
            grid.rules.append({"variant": variant, **out, "text": out["rule"].text(variant)})


DOCUMENT_SLACK, AGAINST = 0.05, 0.10
"""Group-CR verdict: supported if the document's step is within 0.05 rung of the best cross-validated error; not
supported if the best model beats it by more than 0.10 rung; inconclusive between."""


def _group_verdict(table: pd.DataFrame | None) -> str:
    from arena.study.statistics.inference import INCONCLUSIVE, NOT, SUPPORTED

    if table is None or table.empty:
        return INCONCLUSIVE
    errors = table["cv_rmse"].to_numpy(float)
    finite = errors[~np.isnan(errors)]
    best = float(finite.min()) if finite.size else math.nan
    doc = _cv_error(table, "document")
    if doc <= best + DOCUMENT_SLACK:
        return SUPPORTED
    if doc > best + AGAINST:
        return NOT
    return INCONCLUSIVE


def _cv_error(table: pd.DataFrame, model: str) -> float:
    """A model's cross-validated error in a comparison of models (one row per model:
    :func:`arena.study.calibration.cr_rule.compare_models`)."""
    return float(table.loc[table["model"] == model, "cv_rmse"].to_numpy(float)[0])


ANCHOR_MATCHUPS = "DMG anchor (EL = party level, standard d20), per matchup"
"""The key of the DMG anchor's matchups in the group-CR result (so they are in claims.json and on the page)."""


def group_cr_result(grid: Grid, variations: dict[str, Grid] | None = None, anchor: Anchor | None = None) -> dict:
    """The group-CR verdict from the grid, with its robustness: the SRD population, and the grid re-run under each
    of the fight model's contested choices (``variations``: name -> grid). ``anchor``: the DMG anchor fought beside
    the grid; its matchups go with the result (the page's opening shows their means per level)."""
    from arena.rules.roll_claims import BELL_CURVE

    verdict = _group_verdict(grid.comparison)
    srd = _group_verdict(grid.srd_comparison) if grid.srd_comparison is not None else None
    turned = [f"population=srd -> {srd}"] if srd is not None and srd != verdict else []
    for name, other in (variations or {}).items():
        theirs = _group_verdict(other.comparison)
        if theirs != verdict:
            turned.append(f"{name} -> {theirs}")
    robustness = "; ".join(turned) if turned else "robust"
    robustness += " (SRD population not run: too few fully modelled SRD cells)" if srd is None else ""
    if not variations:
        robustness += "; model options not re-run for the calibration grid"
    comparison = grid.comparison
    best = comparison.iloc[0] if comparison is not None else None
    doc = _cv_error(comparison, "document") if comparison is not None else math.nan
    return {
        "id": "bell-group-cr",
        "source": BELL_CURVE,
        "quote": "Any time creatures are encountered in groups of four or more, reduce their CR by 1.",
        "criterion": "The calibrated Delta-CR(3d6) of the typical monster over the grid (levels 1-16, groups of "
        "1, 2, 3, 4, 6, 8, EL L-2 to L+4, so size and CR gap are crossed), fitted by six models "
        "stated before the numbers (the document's step -1 at four; none; a fitted step; a CR-gap "
        "line; a smooth log2(size) line; gap + size), compared by leave-one-party-level-out "
        "cross-validated error. Supported if the document's step is within 0.05 rung of the best; "
        "not supported if the best beats it by more than 0.10 rung; inconclusive between.",
        "verdict": verdict,
        "robustness": robustness,
        "headline": ""
        if best is None
        else f"best model {best['model']} (CV error {best['cv_rmse']:.2f} rung; the document's {doc:.2f})",
        "parts": [],
        "extra": {} if anchor is None else {ANCHOR_MATCHUPS: anchor.table},
    }


# --------------------------------------------------------------------------------------------- the DMG anchor
@dataclass
class Anchor:
    table: pd.DataFrame
    encounters: int
    seconds: float


def _slots(level: int) -> int:
    from arena.world.party import generate_party

    return sum(
        len(v) for c in generate_party(level) if c.spellcasting for lv, v in c.spellcasting.prepared.items() if lv >= 1
    )


def run_anchor(
    *,
    quick: bool = False,
    n: int | None = None,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    progress: Callable[[int, int], None] | None = None,
    store: Any = None,
    **fighting: Any,
) -> Anchor:
    """EL = party level under the standard rules and the default (SRD-faithful) fight model, typical and SRD
    (``fighting``: more options for the batch, as :func:`run_grid`)."""
    from arena.combat.model import ModelOptions

    size_n = n if n is not None else 40 if quick else 400
    units = []
    for cell in design.anchor_cells():
        level, cr, size = cell
        for pop in ("typical", "srd"):
            for m in design.monsters(cr, pop):
                units.append((cell, pop, m, Matchup(level, m, size, ("d20",), size_n, seed, model=ModelOptions())))
    batch = run_batch(
        [u[3] for u in units], workers=workers, cluster=cluster, progress=progress, store=store, **fighting
    )
    rows = []
    for cell, pop, m, mu in units:
        f = batch.rows(mu, "d20", size_n)
        level, cr, size = cell
        slots = _slots(level)
        rows.append(
            {
                "level": level,
                "population": pop,
                "monster": m,
                "size": size,
                "hp lost %": 100 * f["party_hp_lost"].mean(),
                "spells cast % of slots": 100 * f["spells_cast_party"].mean() / slots if slots else 0.0,
                "fights with a PC death %": 100 * (f["pcs_dead"] > 0).mean(),
                "PCs dropped per fight": f["downs_monsters"].mean(),
                "party win %": 100 * (f["winner"] == "party").mean(),
            }
        )
    table = pd.DataFrame(rows)
    table["resources %"] = (table["hp lost %"] + table["spells cast % of slots"]) / 2
    return Anchor(table, batch.encounters, batch.seconds)


def anchor_summary(anchor: Anchor) -> pd.DataFrame:
    """Per level and population: the mean over its matchups (the DMG expects ~20% resources, no deaths)."""
    cols = [
        "hp lost %",
        "spells cast % of slots",
        "resources %",
        "fights with a PC death %",
        "PCs dropped per fight",
        "party win %",
    ]
    return anchor.table.groupby(["level", "population"])[cols].mean().reset_index()
