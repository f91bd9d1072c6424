"""Two samples of one metric compared: paired tests when the two sides fought the same encounters (same ``index``
and ``seed``: common random numbers), independent ones otherwise; and two rule sets of one scenario compared on
the party's wins (equivalence, superiority), for the regression checks.

Every interval and test comes from statsmodels or scipy; nothing here hand-writes a formula. Paired: McNemar's
test on win / not-win, Wilcoxon's signed-rank test on rounds and hit points lost, and a t interval on the paired
differences; independent: the score test with Newcombe's interval, Mann-Whitney with Welch's interval.

Why a module of its own: these are the classical tests of two samples, kept for a notebook and for the regression
checks, apart from the t tests a comparison of runs uses.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.study.statistics.summaries import CONFIDENCE


@dataclass(frozen=True)
class Difference:
    """``new - base`` of one metric in one cell, with its interval and test."""

    base: float
    new: float
    diff: float
    low: float
    high: float
    p: float
    test: str
    paired: bool
    n: int


def _nan_diff(base: float, new: float, test: str, paired: bool, n: int) -> Difference:
    return Difference(base, new, new - base, float("nan"), float("nan"), float("nan"), test, paired, n)


def mcnemar_p(base: np.ndarray, new: np.ndarray) -> float:
    """McNemar's test (statsmodels) on paired booleans; exact binomial when discordant pairs are few."""
    from statsmodels.stats.contingency_tables import mcnemar

    base, new = np.asarray(base, bool), np.asarray(new, bool)
    table = [[int((base & new).sum()), int((base & ~new).sum())], [int((~base & new).sum()), int((~base & ~new).sum())]]
    discordant = table[0][1] + table[1][0]
    if discordant == 0:
        return 1.0
    return float(mcnemar(table, exact=discordant < 25, correction=True).pvalue)


def _paired_interval(d: np.ndarray, confidence: float) -> tuple[float, float]:
    from statsmodels.stats.weightstats import DescrStatsW

    if len(d) < 2 or np.all(d == d[0]):
        return float(d.mean()), float(d.mean())
    low, high = DescrStatsW(d).tconfint_mean(alpha=1 - confidence)
    return float(low), float(high)


def paired_proportion(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> Difference:
    """Paired win/not-win: McNemar's test, a t interval on the per-encounter differences."""
    base, new = np.asarray(base, bool), np.asarray(new, bool)
    d = new.astype(float) - base.astype(float)
    low, high = _paired_interval(d, confidence)
    return Difference(base.mean(), new.mean(), d.mean(), low, high, mcnemar_p(base, new), "mcnemar", True, len(d))


def independent_proportion(
    base_wins: int, base_n: int, new_wins: int, new_n: int, confidence: float = CONFIDENCE
) -> Difference:
    """Two independent proportions: score test and Newcombe interval (statsmodels)."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    b, w = base_wins / base_n, new_wins / new_n
    if base_wins + new_wins in (0, base_n + new_n):  # nothing varies: the test is undefined, nothing moved
        return Difference(b, w, w - b, 0.0, 0.0, 1.0, "two-proportion score", False, base_n + new_n)
    res = test_proportions_2indep(new_wins, new_n, base_wins, base_n, method="score", compare="diff")
    low, high = confint_proportions_2indep(
        new_wins, new_n, base_wins, base_n, method="newcomb", compare="diff", alpha=1 - confidence
    )
    p = float(res.pvalue) if np.isfinite(res.pvalue) else 1.0
    return Difference(b, w, w - b, float(low), float(high), p, "two-proportion score", False, base_n + new_n)


def paired_values(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> Difference:
    """Paired numbers (rounds, hit points lost): Wilcoxon signed-rank (scipy), t interval on differences."""
    from scipy.stats import wilcoxon

    base, new = np.asarray(base, float), np.asarray(new, float)
    d = new - base
    low, high = _paired_interval(d, confidence)
    if not np.any(d != 0):
        p = 1.0
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(wilcoxon(new, base, zero_method="wilcox").pvalue)
    return Difference(base.mean(), new.mean(), d.mean(), low, high, p, "wilcoxon", True, len(d))


def independent_values(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> Difference:
    """Independent numbers: Mann-Whitney U (scipy), Welch interval on the difference of means (statsmodels)."""
    from scipy.stats import mannwhitneyu
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    base, new = np.asarray(base, float), np.asarray(new, float)
    if len(base) < 2 or len(new) < 2:
        return _nan_diff(base.mean(), new.mean(), "mann-whitney", False, len(base) + len(new))
    if np.all(base == base[0]) and np.all(new == base[0]):
        return Difference(base.mean(), new.mean(), 0.0, 0.0, 0.0, 1.0, "mann-whitney", False, len(base) + len(new))
    p = float(mannwhitneyu(new, base, alternative="two-sided").pvalue)
    cm = CompareMeans(DescrStatsW(new), DescrStatsW(base))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low, high = cm.tconfint_diff(alpha=1 - confidence, usevar="unequal")
    return Difference(
        base.mean(),
        new.mean(),
        new.mean() - base.mean(),
        float(low),
        float(high),
        p,
        "mann-whitney",
        False,
        len(base) + len(new),
    )


def holm(pvalues: list[float], alpha: float) -> tuple[list[bool], list[float]]:
    """Holm's step-down correction (:func:`arena.study.statistics.inference.holm`): (reject, adjusted p) per test;
    a NaN p counts as 1. A test is rejected when its adjusted p is at most ``alpha`` (Holm's step-down rule)."""
    from arena.study.statistics.inference import holm as adjust

    if not pvalues:
        return [], []
    adjusted = adjust(np.nan_to_num(np.asarray(pvalues, float), nan=1.0).tolist())
    return [a <= alpha for a in adjusted], adjusted


def paired_rows(base: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame | None:
    """The encounters both cells fought on the same seed (merged on index), or None if they did not share seeds."""
    if "index" not in base or "seed" not in base or "index" not in new or "seed" not in new:
        return None
    if not (base["index"].is_unique and new["index"].is_unique):  # not one run's encounters: a merge on a
        return None  # repeated index would multiply the rows
    merged = base.merge(new, on="index", suffixes=("_b", "_n"))
    if merged.empty or not (merged["seed_b"] == merged["seed_n"]).all():
        return None
    return merged


def win_vectors(frame: pd.DataFrame, a: str, b: str, scenario: str | None = None) -> tuple[Any, Any, bool]:
    """Win indicators of rule sets ``a`` and ``b`` (one scenario); paired (aligned on index) if seeds are shared."""
    if scenario is not None:
        frame = frame[frame["scenario"] == scenario]
    elif frame["scenario"].nunique() > 1:
        raise ArenaError("the results hold several scenarios: name one")
    cells = {}
    for key in (a, b):
        cell = frame[frame["rules"] == key]
        if cell.empty:
            have = ", ".join(sorted(frame["rules"].unique()))
            raise ArenaError(f"rule set {key!r} is not in the results (they have {have})")
        cells[key] = cell
    merged = paired_rows(cells[a], cells[b])
    if merged is not None:
        return (merged["winner_b"] == "party").to_numpy(), (merged["winner_n"] == "party").to_numpy(), True
    return (cells[a]["winner"] == "party").to_numpy(), (cells[b]["winner"] == "party").to_numpy(), False


def equivalence(a: np.ndarray, b: np.ndarray, margin: float, paired: bool) -> float:
    """TOST p-value that win rates ``a`` and ``b`` differ by less than ``margin`` (statsmodels)."""
    from statsmodels.stats.proportion import tost_proportions_2indep
    from statsmodels.stats.weightstats import ttost_paired

    a, b = np.asarray(a, float), np.asarray(b, float)
    if paired:
        d = a - b
        if np.all(d == d[0]):  # identical outcomes: no variance; equivalent iff the constant is inside
            return 0.0 if abs(d[0]) < margin else 1.0
        return float(ttost_paired(a, b, -margin, margin)[0])
    if a.sum() + b.sum() in (0, len(a) + len(b)):
        return 0.0
    res = tost_proportions_2indep(int(a.sum()), len(a), int(b.sum()), len(b), -margin, margin, compare="diff")
    return float(res.pvalue)


def superiority(a: np.ndarray, b: np.ndarray, paired: bool) -> float:
    """One-sided p-value that win rate ``a`` is higher than ``b``: exact McNemar (binomial test on the
    discordant pairs, scipy) when paired, the two-proportion score test otherwise (statsmodels)."""
    from scipy.stats import binomtest
    from statsmodels.stats.proportion import test_proportions_2indep

    a, b = np.asarray(a, bool), np.asarray(b, bool)
    if paired:
        only_a, only_b = int((a & ~b).sum()), int((~a & b).sum())
        if only_a + only_b == 0:
            return 1.0
        return float(binomtest(only_a, only_a + only_b, 0.5, alternative="greater").pvalue)
    if a.sum() + b.sum() in (0, len(a) + len(b)):
        return 1.0
    res = test_proportions_2indep(
        int(a.sum()), len(a), int(b.sum()), len(b), method="score", compare="diff", alternative="larger"
    )
    return float(res.pvalue)
