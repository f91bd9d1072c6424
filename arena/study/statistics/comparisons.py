"""Two runs compared (``arena compare``, and the report's changes against a baseline): per scenario and rule set,
the change of the win rate, rounds and hit points lost, Holm-corrected across cells.

The tests are t tests whose intervals are their exact duals (paired t on shared encounters, Welch's t otherwise),
with each interval drawn at the level that agrees with its Holm decision (:func:`holm_level`): a flagged row's
interval always excludes zero and an unflagged row's never does.

Why a module of its own: two runs compared is its own question (which cells moved), with its own test and correction,
shared by ``arena compare`` and the report.
"""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.study.statistics.encounters import CELL, check_complete, read_encounters
from arena.study.statistics.two_samples import holm, paired_rows

METRICS = {"win_rate": "party win rate", "rounds": "rounds", "hp_lost": "party hit points lost"}
GATED = ("win_rate", "hp_lost")
"""Metrics held against ``tolerance`` (both are fractions of 1). Rounds are reported, not gated: a tolerance in
win-rate units means nothing for a count of rounds."""


def check_alpha(alpha: Any, what: str = "--alpha") -> float:
    """A significance level: a finite number strictly between 0 and 1 (NaN compares false with everything, so a
    NaN level would make every test "not significant" without a word)."""
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not math.isfinite(alpha) or not 0 < alpha < 1:
        raise ArenaError(f"{what} must be a number between 0 and 1 (exclusive), not {alpha!r}")
    return float(alpha)


def check_tolerance(tolerance: Any, what: str = "--tolerance") -> float:
    """A tolerance of a win rate or a share of hit points: a finite fraction from 0 to 1 (a change of a fraction
    is never more than 1, so a larger tolerance, or NaN or infinity, would silently accept every change)."""
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, int | float)
        or not math.isfinite(tolerance)
        or not 0 <= tolerance < 1
    ):
        raise ArenaError(f"{what} must be a fraction from 0 to below 1 (0.02 = 2 points), not {tolerance!r}")
    return float(tolerance)


@dataclass(frozen=True)
class Contrast:
    """One metric of one cell compared: the per-encounter values of both sides, tested by a t test whose
    interval is its exact dual (paired t on the per-encounter differences when the encounters were shared, Welch's
    t otherwise), so that an interval excludes zero exactly when its test rejects at the interval's level."""

    base: np.ndarray
    new: np.ndarray
    paired: bool

    @property
    def diff(self) -> float:
        return float(self.new.mean() - self.base.mean())

    @property
    def n(self) -> int:
        return len(self.base) if self.paired else len(self.base) + len(self.new)

    @property
    def test(self) -> str:
        return "paired t" if self.paired else "welch t"

    def _constant(self) -> bool:
        """No spread at all: every paired difference equal, or both independent samples constant."""
        if self.paired:
            d = self.new - self.base
            return len(d) < 2 or bool(np.all(d == d[0]))
        return (
            len(self.base) < 2
            or len(self.new) < 2
            or bool(np.all(self.base == self.base[0]) and np.all(self.new == self.new[0]))
        )

    def p(self) -> float:
        from scipy.stats import ttest_1samp, ttest_ind

        if self._constant():
            return 1.0 if self.diff == 0 else 0.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if self.paired:
                value = ttest_1samp(self.new - self.base, 0.0).pvalue
            else:
                value = ttest_ind(self.new, self.base, equal_var=False).pvalue
        return float(value) if np.isfinite(value) else 1.0

    def interval(self, alpha: float) -> tuple[float, float]:
        """The ``1 - alpha`` interval of ``new - base`` (the dual of :meth:`p`)."""
        from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

        if self._constant():
            return self.diff, self.diff
        alpha = min(max(alpha, 1e-300), 1.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if self.paired:
                low, high = DescrStatsW(self.new - self.base).tconfint_mean(alpha=alpha)
            else:
                low, high = CompareMeans(DescrStatsW(self.new), DescrStatsW(self.base)).tconfint_diff(
                    alpha=alpha, usevar="unequal"
                )
        return float(low), float(high)


def holm_level(p: float, p_holm: float, alpha: float) -> float:
    """The level at which a test's own interval agrees with its Holm decision: ``alpha * p / p_holm``. The
    interval excludes zero exactly when ``p <= alpha * p / p_holm``, that is when ``p_holm <= alpha``."""
    if p_holm <= 0 or p <= 0:
        return alpha
    return min(alpha, alpha * p / p_holm)


def contrasts(base: pd.DataFrame, new: pd.DataFrame) -> dict[str, Contrast]:
    """The three metrics of one cell compared (paired on shared encounters when there are any)."""
    merged = paired_rows(base, new)
    if merged is not None:
        return {
            "win_rate": Contrast(
                (merged["winner_b"] == "party").to_numpy(float), (merged["winner_n"] == "party").to_numpy(float), True
            ),
            "rounds": Contrast(merged["rounds_b"].to_numpy(float), merged["rounds_n"].to_numpy(float), True),
            "hp_lost": Contrast(
                merged["party_hp_lost_b"].to_numpy(float), merged["party_hp_lost_n"].to_numpy(float), True
            ),
        }
    return {
        "win_rate": Contrast(
            (base["winner"] == "party").to_numpy(float), (new["winner"] == "party").to_numpy(float), False
        ),
        "rounds": Contrast(base["rounds"].to_numpy(float), new["rounds"].to_numpy(float), False),
        "hp_lost": Contrast(base["party_hp_lost"].to_numpy(float), new["party_hp_lost"].to_numpy(float), False),
    }


COMPARE_COLUMNS = [
    "scenario",
    "rules",
    "metric",
    "base",
    "new",
    "diff",
    "low",
    "high",
    "level",
    "p",
    "p_holm",
    "significant",
    "moved",
    "test",
    "paired",
    "n",
]


def holm_table(rows: list[dict], found: list[Contrast], alpha: float, tolerance: float) -> pd.DataFrame:
    """Rows of contrasts with Holm-adjusted p-values (within each metric) and intervals at the level that agrees
    with each row's Holm decision (:func:`holm_level`); ``moved`` is significant and beyond ``tolerance`` for the
    gated metrics."""
    if not rows:
        return pd.DataFrame(columns=COMPARE_COLUMNS)
    table = pd.DataFrame(rows)
    table["p"] = [c.p() for c in found]
    table["p_holm"] = np.nan
    table["significant"] = False
    for metric in table["metric"].unique():
        mask = table["metric"] == metric
        reject, adjusted = holm(table.loc[mask, "p"].tolist(), alpha)
        table.loc[mask, "p_holm"] = adjusted
        table.loc[mask, "significant"] = reject
    table["significant"] = table["significant"].astype(bool)
    levels, lows, highs = [], [], []
    for contrast, p, p_holm in zip(found, table["p"], table["p_holm"], strict=True):
        level = holm_level(p, p_holm, alpha)
        low, high = contrast.interval(level)
        levels.append(1 - level)
        lows.append(low)
        highs.append(high)
    table["level"], table["low"], table["high"] = levels, lows, highs
    table["moved"] = table["significant"] & table["metric"].isin(GATED) & (table["diff"].abs() > tolerance)
    return table[COMPARE_COLUMNS]


def compare_cells(
    base: pd.DataFrame, new: pd.DataFrame, *, alpha: float = 0.05, tolerance: float = 0.02
) -> pd.DataFrame:
    """Every scenario and rule set present in both: one row per (cell, metric) with the change, the raw and
    Holm-adjusted p-values (Holm across cells, within each metric), and the change's interval at the level that
    agrees with its Holm decision (``level``; the interval excludes zero exactly when the row is ``significant``).
    ``moved``: the change is larger than ``tolerance`` and significant (only for the gated metrics, win rate and
    hit points lost). The tests are t tests (paired on shared encounters, Welch otherwise) because their
    intervals are their exact duals."""
    alpha, tolerance = check_alpha(alpha), check_tolerance(tolerance)
    keys_b = base[CELL].drop_duplicates()
    keys = keys_b.merge(new[CELL].drop_duplicates(), on=CELL)
    groups_b = dict(tuple(base.groupby(CELL, sort=False)))
    groups_n = dict(tuple(new.groupby(CELL, sort=False)))
    rows, found = [], []
    for scenario, rules in keys.itertuples(index=False):
        for metric, c in contrasts(groups_b[(scenario, rules)], groups_n[(scenario, rules)]).items():
            rows.append(
                {
                    "scenario": scenario,
                    "rules": rules,
                    "metric": metric,
                    "base": float(c.base.mean()),
                    "new": float(c.new.mean()),
                    "diff": c.diff,
                    "test": c.test,
                    "paired": c.paired,
                    "n": c.n,
                }
            )
            found.append(c)
    return holm_table(rows, found, alpha, tolerance)


def coverage(base: pd.DataFrame, new: pd.DataFrame) -> dict[str, list[dict[str, str]]]:
    """Which scenario and rule-set cells two runs share (compared), and which only one of them has."""
    b = set(map(tuple, base[CELL].drop_duplicates().itertuples(index=False)))
    w = set(map(tuple, new[CELL].drop_duplicates().itertuples(index=False)))

    def listed(cells: set) -> list[dict[str, str]]:
        return [{"scenario": str(s), "rules": str(r)} for s, r in sorted(cells, key=lambda c: (str(c[0]), str(c[1])))]

    return {"compared": listed(b & w), "only_base": listed(b - w), "only_new": listed(w - b)}


def compare_runs(
    base: str | os.PathLike,
    new: str | os.PathLike,
    *,
    alpha: float = 0.05,
    tolerance: float = 0.02,
    with_coverage: bool = False,
) -> Any:
    """:func:`compare_cells` on two results folders (with ``with_coverage``: ``(table, coverage)``, see
    :func:`coverage`)."""
    alpha, tolerance = check_alpha(alpha), check_tolerance(tolerance)
    check_complete(base)
    check_complete(new)
    cols = ["winner", "rounds", "party_hp_lost"]
    frame_b, frame_n = read_encounters(base, cols), read_encounters(new, cols)
    table = compare_cells(frame_b, frame_n, alpha=alpha, tolerance=tolerance)
    if table.empty:
        raise ArenaError(f"{base} and {new} have no scenario and rule set in common")
    return (table, coverage(frame_b, frame_n)) if with_coverage else table
