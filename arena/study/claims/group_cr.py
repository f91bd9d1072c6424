"""The group-CR claim and the replacement CR rules, judged out of sample on the calibration grid.

Everything here is stated before any number is computed (issue 26).

**The cells.** Each calibrated cell of :mod:`arena.study.claims.grid` is a Delta-CR with what is known of it: exact,
or censored (off the ladder, saturated, nothing spent: :mod:`arena.study.calibration.censored`), never dropped and
never an exact value with a floored error. The measure is the grid's (:data:`arena.study.claims.grid.MEASURE`).

**Out of sample** (:mod:`arena.study.calibration.holdout`): the cells at party levels 2, 7, 10 and 14 and those of the
held-out monsters are never fitted; every model (the document's -1 at four or more; none; a fitted step; a CR-gap
line; a smooth log2(size) line; gap + size) and every at-table rule form is fitted on the rest by censored maximum
likelihood and judged on them: RMSE over the exact held-out cells and the share within half a rung.

**The verdict** on the document's "groups of four or more count 1 CR lower" under 3d6:

* **supported** when the document's model *fits* the held-out cells (RMSE at most 0.5 rung and at least two thirds
  within half a rung) and its held-out RMSE is within :data:`DOCUMENT_SLACK` (0.05) rung of the best model's;
* **not supported** when it does not fit them and either another model does or the best model's held-out RMSE
  beats it by more than :data:`AGAINST` (0.10) rung;
* **inconclusive** otherwise (it fits but another model is better by 0.05-0.10 rung, or nothing fits and the
  document is within 0.10 rung of the best).

**Robustness.** The SRD creatures as a population (:mod:`arena.study.claims.srd_population`: each creature's own
group step, an interval over creatures, leave-one-creature-out) give the SRD verdict; and they are a second hold-out,
by population: the models fitted on the typical monster's fit cells predict the SRD cells, judged the same way
(shown, not a verdict). The grid re-run under each of the fight model's contested
choices is judged the same way (its own fit and held-out cells). A verdict that turns under one of them says so.

**A rule a DM can use**: per variant, the simplest at-table rule that fits the held-out cells; where none does, the
lookup table by party level, group size and CR gap if it fits; else "nothing fits", said as such
(:func:`arena.study.calibration.holdout.run_holdout`).

Why a module of its own: the judgement reads the grid's cells and nothing else (no fight), and is the one place
the group-CR verdict is decided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from arena.study.calibration import holdout
from arena.study.claims import srd_population
from arena.study.claims.grid import VARIANTS, Anchor, Grid

DOCUMENT_SLACK, AGAINST = 0.05, 0.10
"""The verdict's margins (module docstring): a twentieth and a tenth of a rung, below the half rung a DM can act
on, so a document "supported" is as good as the best model at the table."""
MIN_CELLS, MIN_LEVELS = 4, 2
"""A variant's cells are judged when at least four, at two party levels or more, are in the fit set."""
ANCHOR_MATCHUPS = "DMG anchor (EL = party level, standard d20), per matchup"
"""The key of the DMG anchor's matchups in the group-CR result (so they are in claims.json and on the page)."""
GROUP_VARIANT = "3d6"


@dataclass
class Judgement:
    """The grid's out-of-sample judgement: per variant its hold-out check, the SRD population judged by the typical
    fit's models, and the verdict."""

    holdouts: dict[str, holdout.HoldOut] = field(default_factory=dict)
    srd: pd.DataFrame | None = None
    """The typical fit's models judged on the SRD cells (one row per model)."""
    population: srd_population.Population | None = None
    """The SRD population's own verdict on the document's step, over creatures."""
    verdict: str = ""
    srd_verdict: str | None = None


def cell_frame(cells: pd.DataFrame, population: str, variant: str) -> pd.DataFrame:
    """One variant's cells of a population as the censored fit reads them: ``delta`` only where exact."""
    if cells.empty:
        return cells
    sel = cells[(cells["population"] == population) & (cells["variant"] == variant)].reset_index(drop=True)
    return sel.assign(delta=np.where(sel["censor"] == "exact", sel["delta"], math.nan))


def _enough(frame: pd.DataFrame) -> bool:
    if frame.empty:
        return False
    fit_set = frame[~frame["level"].isin(holdout.HELD_OUT_LEVELS) & ~frame["monster"].isin(holdout.HELD_OUT_MONSTERS)]
    held = len(frame) - len(fit_set)
    return len(fit_set) >= MIN_CELLS and fit_set["level"].nunique() >= MIN_LEVELS and held > 0


def judge_grid(grid: Grid, **where: Any) -> Judgement:
    """Fill ``grid.judgement``: every variant's hold-out check, the SRD population's and the verdict. ``where``: the
    study's fighting options (``workers``, ``cluster``): the variants' hold-out checks (model fits, independent of
    each other) are computed there, the same answers as in one process
    (:func:`arena.study.runs.offload.map_on_workers`)."""
    from arena.study.runs.offload import map_on_workers
    from arena.study.statistics.inference import INCONCLUSIVE

    out = Judgement(verdict=INCONCLUSIVE)
    frames = {variant: cell_frame(grid.cells, "typical", variant) for variant in VARIANTS}
    checked = [(variant, frame) for variant, frame in frames.items() if _enough(frame)]
    for (variant, _frame), result in zip(checked, map_on_workers(_holdout, checked, **where), strict=True):
        out.holdouts[variant] = result
    main = out.holdouts.get(GROUP_VARIANT)
    if main is not None:
        out.verdict = verdict(main.models)
        srd = cell_frame(grid.cells, "srd", GROUP_VARIANT)
        if not srd.empty and _informative(srd):
            rows = [
                {"model": name, **holdout.judge(srd, fit.predict(srd), main.criteria)}
                for name, fit in main.fits.items()
            ]
            out.srd = pd.DataFrame(rows)
    srd_cells = cell_frame(grid.cells, "srd", GROUP_VARIANT)
    if not srd_cells.empty:
        out.population = srd_population.population(srd_cells)
        if out.population.creatures >= 2:
            out.srd_verdict = out.population.verdict
    grid.judgement = out
    return out


def _holdout(item: tuple[str, pd.DataFrame]) -> holdout.HoldOut:
    """One variant's hold-out check (a task of :func:`judge_grid`)."""
    variant, frame = item
    return holdout.run_holdout(frame, variant=variant)


def _informative(frame: pd.DataFrame) -> bool:
    return bool(((frame["censor"] != "interval") | np.isfinite(frame["low"]) | np.isfinite(frame["high"])).any())


def verdict(models: pd.DataFrame) -> str:
    """The document's verdict from a table of held-out judgements, one row per model (module docstring)."""
    from arena.study.statistics.inference import INCONCLUSIVE, NOT, SUPPORTED

    doc = models.loc[models["model"] == "document"]
    if doc.empty:
        return INCONCLUSIVE
    d = doc.iloc[0]
    errors = models["rmse"].to_numpy(float)
    best = float(np.nanmin(errors)) if np.isfinite(errors).any() else math.nan
    doc_rmse = float(d["rmse"])
    if d["verdict"] == holdout.FITS and doc_rmse <= best + DOCUMENT_SLACK:
        return SUPPORTED
    others_fit = bool((models.loc[models["model"] != "document", "verdict"] == holdout.FITS).any())
    if d["verdict"] == holdout.FAILS and (others_fit or doc_rmse > best + AGAINST):
        return NOT
    return INCONCLUSIVE


def group_cr_result(grid: Grid, variations: dict[str, Grid] | None = None, anchor: Anchor | None = None) -> dict:
    """The group-CR verdict from the grid, with its robustness: the SRD population, and the grid re-run under each
    of the fight model's contested choices (``variations``: name -> grid). ``anchor``: the DMG anchor fought beside
    the grid; its matchups go with the result (the page's opening shows their means per level)."""
    from arena.rules.roll_claims import BELL_CURVE

    j = grid.judgement if grid.judgement is not None else judge_grid(grid)
    turned = [f"population=srd -> {j.srd_verdict}"] if j.srd_verdict is not None and j.srd_verdict != j.verdict else []
    for name, other in (variations or {}).items():
        theirs = (other.judgement if other.judgement is not None else judge_grid(other)).verdict
        if theirs != j.verdict:
            turned.append(f"{name} -> {theirs}")
    robustness = "; ".join(turned) if turned else "robust"
    robustness += " (SRD population not judged: too few fully modelled SRD cells)" if j.srd_verdict is None else ""
    if not variations:
        robustness += "; model options not re-run for the calibration grid"
    extra: dict = {}
    main = j.holdouts.get(GROUP_VARIANT)
    if main is not None:
        extra[f"held-out judgement of the Delta-CR({GROUP_VARIANT}) models ({main.criteria.text()})"] = main.models[
            ["model", "rmse", "within_half_rung", "cells", "exact", "censored", "uninformative", "verdict"]
        ]
    if j.population is not None:
        extra["the SRD population (the unit is the creature)"] = j.population.text()
        extra["each SRD creature's group step under 3d6 (censored fit of Delta = a + b [size >= 4])"] = (
            j.population.steps
        )
    if j.srd is not None:
        extra["the same models (fitted on the typical monster) judged on the SRD creatures' cells"] = j.srd[
            ["model", "rmse", "within_half_rung", "cells", "exact", "censored", "uninformative", "verdict"]
        ]
    if anchor is not None:
        extra[ANCHOR_MATCHUPS] = anchor.table
    return {
        "id": "bell-group-cr",
        "source": BELL_CURVE,
        "quote": "Any time creatures are encountered in groups of four or more, reduce their CR by 1.",
        "criterion": "The calibrated Delta-CR(3d6) of the typical monster over the grid (party levels 1-16, groups "
        "of 1, 2, 3, 4, 6, 8, EL L-2 to L+4, so size and CR gap are crossed; difficulty = resources spent), "
        "censored cells kept as bounds. Six models stated before the numbers (the document's step -1 at four; "
        "none; a fitted step; a CR-gap line; a smooth log2(size) line; gap + size) are fitted by censored maximum "
        f"likelihood on all but the held-out cells (party levels {', '.join(map(str, holdout.HELD_OUT_LEVELS))}; "
        f"monsters {', '.join(holdout.HELD_OUT_MONSTERS) or 'none'}) and judged on those: supported if the "
        "document's model fits them (RMSE <= 0.5 rung, >= 2/3 within half a rung) within 0.05 rung of the best "
        "model's RMSE; not supported if it does not fit and another model does, or the best beats it by more "
        "than 0.10 rung; inconclusive between.",
        "verdict": j.verdict,
        "robustness": robustness,
        "headline": _headline(main),
        "parts": [],
        "extra": extra,
    }


def _headline(main: holdout.HoldOut | None) -> str:
    if main is None:
        return "too few cells to judge out of sample"
    rows = {str(r["model"]): r for r in main.models.to_dict("records")}
    best = min(
        rows, key=lambda name: float(rows[name]["rmse"]) if math.isfinite(float(rows[name]["rmse"])) else math.inf
    )
    doc, top = rows["document"], rows[best]
    return (
        f"held out: the document's -1 at four or more misses by {doc['rmse']:.2f} rung RMSE, "
        f"{100 * doc['within_half_rung']:.0f}% within half a rung ({doc['verdict']}); best model {best} "
        f"{top['rmse']:.2f} rung, {100 * top['within_half_rung']:.0f}%"
    )
