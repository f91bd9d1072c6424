"""The out-of-sample check of the Delta-CR models and the at-table rules: fitted on some party levels and monsters,
judged on others that the fit never saw.

Everything here is stated before any number is computed.

**The split.** Cells whose party level is in :data:`HELD_OUT_LEVELS` (2, 7, 10, 14: between the grid's fitted levels
1, 3, 5, 8, 12, 16, and covering low, middle and high play), or whose monster is in :data:`HELD_OUT_MONSTERS`, are
held out; the rest are the fit set. Both lists are parameters, but a study must fix them *in the code, before any
number is computed*, and never change them after seeing one: a hold-out chosen after the fit is a second fit.

**The fits.** Every model of :mod:`arena.study.calibration.censored` (cr_rule's models by censored maximum
likelihood) and, for each at-table form (:data:`censored.RULE_FORMS`, simplest first), its rule of greatest censored
likelihood, are fitted on the fit set only, and predict the held-out cells.

**The judgement**, per model or rule, on the held-out cells:

* the root mean square error in rungs over the *exact* held-out cells (a censored cell has no value to subtract);
* the share of held-out cells *within half a rung*: an exact cell when |Delta - prediction| <= 0.5; a censored
  cell when the prediction is consistent with its bound widened by half a rung (at most b: prediction <= b + 0.5;
  at least a: prediction >= a - 0.5; between a and b: a - 0.5 <= prediction <= b + 0.5). An uninformative cell
  (both bounds infinite) is consistent with anything and is left out of the share, so it cannot flatter it;
* the cells (exact, censored, uninformative);
* the verdict: **fits** when the error is at most :data:`MAX_RMSE` (0.5 rung) and the share at least
  :data:`MIN_WITHIN` (2/3); else **fails**. Without exact held-out cells the error is not computed and the share
  alone decides (the report says so through ``rmse`` = nan).

**Why these criteria.** A DM applies a CR at the table in whole rungs (the ladder's steps; fractional CRs are
rungs too), so a prediction within half a rung rounds to the right rung: half a rung is the smallest error a DM
could act on. An error of 0.5 rung with unbiased normal errors puts 68% of cells within half a rung, so the two
criteria agree for well-behaved errors, and requiring both catches a rule that is right on average but wrong in
its tails (many cells out by a rung or more), or tight on most cells but far off on some. Two thirds, not a
larger share, because the cells' own measurement error (about 0.1-0.25 rung either side in the grid) already
spends part of the half rung.

**The fallback.** Where no simple rule fits: a lookup table by party level band, group size and CR gap band
(:data:`LEVEL_BANDS`, :data:`GAP_BANDS`), each entry the median Delta-CR of the fit set's cells in it, with counts,
judged the same way. A censored cell enters the median through its bounds: the median with every censored cell at
its lowest possible value and the median with every one at its highest bracket the entry; the entry is their
midpoint when both are finite, and no entry (a held-out cell in it counts as a miss) when either is infinite.

For comparison the rule the grid publishes today (cr_rule's least squares on the exact cells, the censored ones
dropped) is fitted on the same fit set and judged the same way (form ``published``); it is never recommended.

**The recommendation** is the simplest form whose rule fits the held-out cells; where none does, the table, if it
fits; else "nothing fits", said as such. Each rule's parameters see only the fit set, but choosing *among* the
forms looks at the held-out cells, so the chosen rule's held-out error is mildly optimistic (the best of five).

Why a module of its own: numbers only (no fight), fixed before the calibration grid
(:mod:`arena.study.claims.grid`) produces a number.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.study.calibration import censored, cr_rule

HELD_OUT_LEVELS = (2, 7, 10, 14)
HELD_OUT_MONSTERS: tuple[str, ...] = ("typical-cr1/3", "typical-cr4", "typical-cr9")
"""Monsters held out (by the cells' ``monster`` column): fixed here, in the code, before any number is computed
(issue 26): the typical monster of CR 1/3 (the document's own example, its goblin moved from 1/2 to 1/3), of CR 4
and of CR 9 (low, middle and upper-middle CRs, each met in cells at several party levels and gaps)."""
HALF_RUNG = 0.5
MAX_RMSE = 0.5
MIN_WITHIN = 2 / 3
LEVEL_BANDS = ((1, 4), (5, 9), (10, 14), (15, 20))
GAP_BANDS = ((-99, -5), (-4, -3), (-2, -1), (0, 0), (1, 2), (3, 99))
"""The lookup table's bands (inclusive): the held-out levels fall in bands that hold fitted levels."""
FITS, FAILS = "fits", "fails"
PUBLISHED = "published"
"""The rules table's row for cr_rule's least squares rule (exact cells only), judged beside the censored forms."""


@dataclass(frozen=True)
class Criteria:
    """When a prediction "fits" the held-out cells (module docstring)."""

    max_rmse: float = MAX_RMSE
    min_within: float = MIN_WITHIN
    half: float = HALF_RUNG

    def text(self) -> str:
        return (
            f"fits when the RMSE over exact held-out cells is at most {self.max_rmse:g} rung and at least "
            f"{self.min_within:.0%} of held-out cells are within {self.half:g} rung"
        )


def split(
    frame: pd.DataFrame, levels: Sequence[int] = HELD_OUT_LEVELS, monsters: Sequence[str] = HELD_OUT_MONSTERS
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(fit set, held-out set): held out when the party level is in ``levels`` or the monster in ``monsters``."""
    held = frame["level"].isin(list(levels)).to_numpy()
    if monsters:
        if "monster" not in frame.columns:
            raise ArenaError("hold-out: monsters are held out, but the cells have no 'monster' column")
        held = held | frame["monster"].isin(list(monsters)).to_numpy()
    fit_set, held_set = frame[~held].reset_index(drop=True), frame[held].reset_index(drop=True)
    if held_set.empty:
        raise ArenaError(f"hold-out: no cell at the held-out levels {tuple(levels)} or monsters {tuple(monsters)}")
    if fit_set.empty:
        raise ArenaError("hold-out: every cell is held out; nothing is left to fit")
    return fit_set, held_set


def within(held: pd.DataFrame, prediction: np.ndarray, half: float = HALF_RUNG) -> np.ndarray:
    """Per held-out cell: 1.0 within half a rung (module docstring), 0.0 not (or no prediction: nan), nan for an
    uninformative cell (left out of the share)."""
    c = censored.cells(held, need_exact=False)
    p = np.asarray(prediction, float)
    out = np.where(c.exact, np.abs(c.y - p) <= half, (p >= c.low - half) & (p <= c.high + half)).astype(float)
    out[~np.isfinite(p)] = 0.0
    out[c.uninformative] = np.nan
    return out


def judge(held: pd.DataFrame, prediction: np.ndarray, criteria: Criteria = Criteria()) -> dict[str, object]:
    """The error, the share within half a rung, the counts and the verdict of one prediction of the held-out cells."""
    c = censored.cells(held, need_exact=False)
    p = np.asarray(prediction, float)
    inside = within(held, p, criteria.half)
    informative = ~np.isnan(inside)
    if not informative.any():
        raise ArenaError("hold-out: every held-out cell is uninformative (both bounds infinite): nothing to judge")
    exact = c.exact & np.isfinite(p)
    rmse = float(math.sqrt(np.mean((c.y[exact] - p[exact]) ** 2))) if exact.any() else math.nan
    share = float(np.mean(inside[informative]))
    ok = share >= criteria.min_within and (math.isnan(rmse) or rmse <= criteria.max_rmse)
    return {
        "rmse": rmse,
        "within_half_rung": share,
        "cells": len(held),
        "exact": int(c.exact.sum()),
        "censored": int(c.censored.sum()),
        "uninformative": int(c.uninformative.sum()),
        "unpredicted": int((~np.isfinite(p) & informative).sum()),
        "verdict": FITS if ok else FAILS,
    }


# --------------------------------------------------------------------------------------------- the lookup table
def _band(values: np.ndarray, bands: Sequence[tuple[int, int]]) -> np.ndarray:
    out = np.full(len(values), "", dtype=object)
    for lo, hi in bands:
        out[(values >= lo) & (values <= hi)] = f"{lo}..{hi}"
    return out


@dataclass(frozen=True)
class LookupTable:
    """Median Delta-CR of the fit cells by party level band, group size and CR gap band (module docstring)."""

    table: pd.DataFrame
    level_bands: tuple[tuple[int, int], ...] = LEVEL_BANDS
    gap_bands: tuple[tuple[int, int], ...] = GAP_BANDS

    def keys(self, frame: pd.DataFrame) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "levels": _band(frame["level"].to_numpy(int), self.level_bands),
                "size": frame["size"].to_numpy(int),
                "gaps": _band(frame["gap"].to_numpy(int), self.gap_bands),
            }
        )

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        """Each cell's entry (nan where the table has none)."""
        if self.table.empty:
            return np.full(len(frame), math.nan)
        merged = self.keys(frame).merge(self.table, on=["levels", "size", "gaps"], how="left")
        return merged["delta"].to_numpy(float)


def lookup_table(
    fit_set: pd.DataFrame,
    level_bands: Sequence[tuple[int, int]] = LEVEL_BANDS,
    gap_bands: Sequence[tuple[int, int]] = GAP_BANDS,
) -> LookupTable:
    """The fallback table from the fit set: per entry the median's bounds, the entry, and the cells' counts."""
    c = censored.cells(fit_set, need_exact=False)
    lowest = np.where(c.exact, c.y, c.low)
    highest = np.where(c.exact, c.y, c.high)
    empty = LookupTable(pd.DataFrame(), tuple(level_bands), tuple(gap_bands))
    keys = empty.keys(fit_set).assign(lowest=lowest, highest=highest, exact=c.exact, censored=~c.exact)
    rows = []
    for (levels, _size, gaps), g in keys.groupby(["levels", "size", "gaps"], sort=True):
        if levels == "" or gaps == "":
            continue
        lo, hi = float(np.median(g["lowest"])), float(np.median(g["highest"]))
        entry = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else math.nan
        rows.append(
            {
                "levels": levels,
                "size": int(g["size"].iloc[0]),
                "gaps": gaps,
                "delta": entry,
                "median_low": lo,
                "median_high": hi,
                "cells": len(g),
                "exact": int(g["exact"].sum()),
                "censored": int(g["censored"].sum()),
            }
        )
    return LookupTable(pd.DataFrame(rows), tuple(level_bands), tuple(gap_bands))


# --------------------------------------------------------------------------------------------- the whole check
@dataclass
class HoldOut:
    """The hold-out check of one variant's cells: each model's and each rule form's judgement, the table's, and
    the recommendation (module docstring)."""

    criteria: Criteria
    levels: tuple[int, ...]
    monsters: tuple[str, ...]
    fit_cells: int
    held_cells: int
    models: pd.DataFrame
    rules: pd.DataFrame
    table: LookupTable
    table_judgement: dict[str, object]
    recommendation: str
    rule: cr_rule.Rule | None
    fits: dict[str, censored.CensoredFit] = field(default_factory=dict)


def run_holdout(
    frame: pd.DataFrame,
    *,
    levels: Sequence[int] = HELD_OUT_LEVELS,
    monsters: Sequence[str] = HELD_OUT_MONSTERS,
    criteria: Criteria = Criteria(),
    tau: float | None = None,
    models: Sequence[str] = cr_rule.MODELS,
    forms: Sequence[str] = censored.RULE_FORMS,
    variant: str = "",
    published: bool = True,
) -> HoldOut:
    """Fit on the fit set, judge on the held-out cells, recommend (module docstring). ``tau``: as
    :func:`censored.fit` (None estimates it). ``published``: also judge, for comparison, the rule the grid
    publishes today (:func:`cr_rule.replacement_rule`: least squares on the exact fit cells, censored ones
    dropped), as the form :data:`PUBLISHED`; it is never the recommendation."""
    fit_set, held = split(frame, levels, monsters)
    held_cells = censored.cells(held, need_exact=False)
    model_rows, fits = [], {}
    for model in models:
        f = censored.fit(fit_set, model, tau=tau)
        fits[model] = f
        pred = f.predict(held)
        held_ll = float(censored.loglik_matrix(held_cells, pred[None, :], f.tau)[0])
        model_rows.append({"model": model, **judge(held, pred, criteria), "held_out_loglik": held_ll, "aic": f.aic})
    rule_rows = []
    chosen: cr_rule.Rule | None = None
    for form in forms:
        r = censored.fit_rule(fit_set, form)
        j = judge(held, r.rule.value(held), criteria)
        rule_rows.append({"form": form, "rule": r.rule.text(variant), **j})
        if chosen is None and j["verdict"] == FITS:
            chosen = r.rule
    exact_fit = fit_set[censored.cells(fit_set).exact].reset_index(drop=True)
    if published and len(exact_fit) >= 4 and exact_fit["level"].nunique() >= 2:
        old = cr_rule.replacement_rule(exact_fit)["rule"]
        rule_rows.append({"form": PUBLISHED, "rule": old.text(variant), **judge(held, old.value(held), criteria)})
    table = lookup_table(fit_set)
    table_judgement = judge(held, table.predict(held), criteria)
    if chosen is not None:
        recommendation = f"{chosen.text(variant)} (fits the held-out cells: {criteria.text()})"
    elif table_judgement["verdict"] == FITS:
        recommendation = (
            "no simple rule fits the held-out cells; use the lookup table by party level, group size and CR gap "
            f"(it fits: {criteria.text()})"
        )
    else:
        recommendation = (
            "nothing fits: neither a simple rule nor the lookup table predicts the held-out cells within the stated "
            f"error ({criteria.text()})"
        )
    return HoldOut(
        criteria=criteria,
        levels=tuple(levels),
        monsters=tuple(monsters),
        fit_cells=len(fit_set),
        held_cells=len(held),
        models=pd.DataFrame(model_rows),
        rules=pd.DataFrame(rule_rows),
        table=table,
        table_judgement=table_judgement,
        recommendation=recommendation,
        rule=chosen,
        fits=fits,
    )
