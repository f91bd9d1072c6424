"""The statistics of the encounter claims: proportions with Wilson intervals, paired differences, paired
bootstrap intervals and ratios of changes, each a small dict the claims and the report read."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd

from arena.study.analysis import paired_proportion, paired_values, wilson

BOOTSTRAP = 400
"""Resamples of a paired bootstrap."""


def _win(rows: pd.DataFrame, side: str = "party") -> np.ndarray:
    return rows["winner"].to_numpy() == side


def _pt(x: float) -> float:
    return round(100 * float(x), 2)


def prop(wins: np.ndarray) -> dict:
    """A win rate (percent) with its Wilson interval."""
    k, n = int(np.sum(wins)), len(wins)
    low, high = wilson(k, n)
    return {"pct": _pt(k / n if n else float("nan")), "ci": [_pt(low), _pt(high)], "n": n}


def diff_prop(base: np.ndarray, new: np.ndarray) -> dict:
    """Paired change of a proportion (points), t interval on the differences, McNemar p."""
    d = paired_proportion(base, new)
    return {
        "base_pct": _pt(d.base),
        "new_pct": _pt(d.new),
        "change_pts": _pt(d.diff),
        "ci": [_pt(d.low), _pt(d.high)],
        "p": round(d.p, 4),
        "n": d.n,
    }


def diff_values(base: np.ndarray, new: np.ndarray, scale: float = 1.0) -> dict:
    d = paired_values(np.asarray(base, float) * scale, np.asarray(new, float) * scale)
    return {
        "base": round(d.base, 4),
        "new": round(d.new, 4),
        "change": round(d.diff, 4),
        "ci": [round(d.low, 4), round(d.high, 4)],
        "p": round(d.p, 4),
        "n": d.n,
    }


def paired_bootstrap(
    stat: Callable[..., float], *arrays: np.ndarray, resamples: int = BOOTSTRAP, seed: int = 0
) -> tuple[float, float, float]:
    """(estimate, low, high): scipy's paired percentile bootstrap of ``stat(*arrays)``."""
    from scipy.stats import DegenerateDataWarning, bootstrap

    est = float(stat(*arrays))
    if len(arrays[0]) < 3:
        return est, float("nan"), float("nan")
    with warnings.catch_warnings():  # a statistic every resample gives alike (no lucky hit at all, say)
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = bootstrap(
            arrays,
            stat,
            paired=True,
            vectorized=False,
            n_resamples=resamples,
            method="percentile",
            random_state=np.random.default_rng(seed),
        )
    low, high = res.confidence_interval
    if np.ptp(res.bootstrap_distribution) == 0:  # ... has that value as its interval
        return est, est, est
    return est, float(low), float(high)


def ratio_change(num_a: np.ndarray, den_a: np.ndarray, num_b: np.ndarray, den_b: np.ndarray, seed: int = 0) -> dict:
    """sum(num)/sum(den) under arm a and b and the change b - a (percent), paired bootstrap interval."""

    def r(n: np.ndarray, d: np.ndarray) -> float:
        s = float(np.sum(d))
        return float(np.sum(n)) / s if s else float("nan")

    def change(na: np.ndarray, da: np.ndarray, nb: np.ndarray, db: np.ndarray) -> float:
        return r(nb, db) - r(na, da)

    arrays = [np.asarray(x, float) for x in (num_a, den_a, num_b, den_b)]
    est, low, high = paired_bootstrap(change, *arrays, seed=seed)
    return {
        "base_pct": _pt(r(arrays[0], arrays[1])),
        "new_pct": _pt(r(arrays[2], arrays[3])),
        "change_pts": _pt(est),
        "ci": [_pt(low), _pt(high)],
        "n": len(arrays[0]),
    }


def _significant(entry: dict, sign: int) -> bool:
    """The interval lies strictly on the ``sign`` side of 0."""
    low, high = entry["ci"]
    return low > 0 if sign > 0 else high < 0
