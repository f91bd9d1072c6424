"""The equivalent-CR method: where a subject's difficulty falls on the ladder of typical monsters, and how far a
variant moves it (Delta-CR), with paired bootstrap intervals.

For a party of level L, a group of ``size`` monsters and a rule set V, the difficulty D_V is one of four metrics
(per encounter, averaged): ``resources`` (the share of the party's resources spent: :data:`RESOURCES`),
``hp-lost`` (the fraction of the party's hit points lost), ``death`` (at least one PC dead) or ``win`` (the party
loses or draws: 1 - win rate). Every metric is oriented so that larger is harder.
The *ladder* is the typical monster of each CR rung (1/8, 1/6, 1/4, 1/3, 1/2, 1, 2, ... 20; positions -4 ... -1,
0, 1, 2, ... 20, the ladder step of :func:`arena.world.challenge.cr_rank`) in a group of the same size, fought
under the standard d20 rules on the same seeds. The ladder's difficulties are made non-decreasing (isotonic
regression, weights n) and c*(V) is the position where that curve reaches D_V, interpolated linearly between rungs
(the middle of a flat stretch; clamped to the ladder's ends and flagged ``below`` / ``above`` when D_V is outside
it). Delta-CR(V) = c*(V) - c*(d20). The 95% interval is a paired percentile bootstrap: the encounters are resampled
by index, the same indices for every rung and arm (they share seeds); the expanded percentile interval
(:func:`percentile_level`) widens it for small samples, and is the one the calibration grid's sequential looks
are tested with (tests/study/test_grid_coverage.py).

Why a module of its own: the method is numbers only (no fight), shared by ``arena calibrate``
(:mod:`arena.study.calibration.calibrate`) and the claims' sequential calibration grid
(:mod:`arena.study.claims.grid`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pandas as pd

from arena.errors import ArenaError
from arena.study.runs.options import METRICS

BOOTSTRAP = 400
"""Bootstrap resamples for the equivalent-CR intervals."""


RESOURCES = (
    "the party's resources spent: the mean of the share of its hit points lost and the share of its spell levels "
    "cast (levels 1 and up, as prepared at the start of the fight); hit points alone for a party without spells"
)
"""What the DMG means by an encounter's cost ("the party's resources: hit points and spells", the 20% of an EL =
party level encounter), weighting hit points and spells equally; PC deaths are a separate measure."""
SPELL_LEVELS_SPENT, SPELL_LEVELS = "spell_levels_spent_party", "spell_levels_available_party"
"""The encounter record's columns the ``resources`` metric reads (:mod:`arena.combat.record`)."""


def resources_spent(rows: pd.DataFrame) -> np.ndarray:
    """Per encounter, :data:`RESOURCES`."""
    missing = [c for c in (SPELL_LEVELS_SPENT, SPELL_LEVELS) if c not in rows.columns]
    if missing:
        raise ArenaError(f"the resources metric needs the record's column(s) {', '.join(missing)}")
    hp = rows["party_hp_lost"].to_numpy(dtype=float)
    total = rows[SPELL_LEVELS].to_numpy(dtype=float)
    spent = rows[SPELL_LEVELS_SPENT].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, (hp + np.minimum(spent / total, 1.0)) / 2, hp)


def difficulty_values(rows: pd.DataFrame, metric: str) -> np.ndarray:
    """Per-encounter difficulty (larger is harder): resources spent, hit points lost, a PC died, or loss/draw."""
    if metric == "resources":
        return resources_spent(rows)
    if metric == "win":
        return (rows["winner"].to_numpy() != "party").astype(float)
    if metric == "hp-lost":
        return rows["party_hp_lost"].to_numpy(dtype=float)
    if metric == "death":
        return (rows["pcs_dead"].to_numpy() > 0).astype(float)
    raise ArenaError(f"--metric must be one of {', '.join(METRICS)}, not {metric!r}")


def ladder_position(cr: Fraction | int | str) -> float:
    """A CR's place on the ladder: 1/8 -> -4, 1/3 -> -1, 1/2 -> 0, 1 -> 1, 5 -> 5 (the step of
    :func:`arena.world.challenge.cr_rank`)."""
    from arena.world.challenge import cr_rank, parse_cr

    return float(cr_rank(parse_cr(cr)))


def position_text(x: float) -> str:
    """A ladder position as text: a rung at or below 1/2 by its CR (0 -> "1/2", -1 -> "1/3", -4 -> "1/8"), any
    other position by its number (4.3 -> "4.3", -1.5 -> "-1.5", between 1/4 and 1/3), as c* is interpolated on the
    ladder's even steps, not on the CR's value."""
    from arena.world.challenge import FRACTIONAL_CR_LADDER, format_cr

    if not math.isfinite(x):
        return "-"
    rung = round(x)
    if abs(x - rung) < 1e-9 and 1 - len(FRACTIONAL_CR_LADDER) < rung <= 0:
        return format_cr(FRACTIONAL_CR_LADDER[1 - rung])
    return f"{x:.2f}".rstrip("0").rstrip(".")


def position_cr(x: float) -> float:
    """The CR a ladder position stands for: the position itself from CR 1 up; below, the CR between its two rungs'
    CRs (0.5 -> 0.75, halfway from 1/2 to 1; -1.5 -> 0.29, halfway from 1/4 to 1/3)."""
    from arena.world.challenge import rank_cr

    low = math.floor(x)
    below, above = float(rank_cr(low)), float(rank_cr(low + 1))
    return below + (x - low) * (above - below)


def cr_text(x: float, decimals: int = 2) -> str:
    """A ladder position said as a CR, for a reader: a whole rung by its CR ("1/3", "5"), any other position as the
    CR it stands for (:func:`position_cr`), to ``decimals`` from CR 1 up and to two below (never a position such as
    "-2.96", which no stat block prints)."""
    if not math.isfinite(x):
        return "-"
    if abs(x - round(x)) < 1e-9:
        return position_text(float(round(x)))
    if x >= 1:
        return f"{x:.{decimals}f}"
    return f"{position_cr(x):.2f}"


def isotonic(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """The non-decreasing least-squares fit (scipy's isotonic regression)."""
    from scipy.optimize import isotonic_regression

    values = np.asarray(values, float)
    w = None if weights is None else np.asarray(weights, float)
    return np.asarray(isotonic_regression(values, weights=w, increasing=True).x, float)


def equivalent_position(
    positions: Sequence[float], curve: npt.ArrayLike, target: float, weights: npt.ArrayLike | None = None
) -> tuple[float, str]:
    """Where the (isotonic) ladder curve reaches ``target``: (position, "" | "below" | "above")."""
    return reached(fitted_curve(positions, curve, weights), target)


def fitted_curve(
    positions: Sequence[float], curve: npt.ArrayLike, weights: npt.ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The ladder's positions in order and the isotonic fit of its curve there: what :func:`reached` reads (fitted
    once for every arm judged against one curve)."""
    x = np.asarray(positions, float)
    order = np.argsort(x)
    x = x[order]
    f = isotonic(np.asarray(curve, float)[order], None if weights is None else np.asarray(weights, float)[order])
    return x, f


def reached(fit: tuple[np.ndarray, np.ndarray], target: float) -> tuple[float, str]:
    """Where a fitted ladder curve (:func:`fitted_curve`) reaches ``target``: (position, "" | "below" | "above")."""
    x, f = fit
    eps = 1e-12
    if target < f[0] - eps:
        return float(x[0]), "below"
    if target > f[-1] + eps:
        return float(x[-1]), "above"
    equal = np.flatnonzero(np.abs(f - target) <= eps)
    if equal.size:
        return float((x[equal[0]] + x[equal[-1]]) / 2), ""
    j = int(np.searchsorted(f, target, side="right"))
    x0, x1, f0, f1 = x[j - 1], x[j], f[j - 1], f[j]
    return float(x0 + (target - f0) / (f1 - f0) * (x1 - x0)), ""


def reached_all(x: np.ndarray, curves: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`reached` for many fitted curves at once: ``curves`` (R, K) non-decreasing over positions ``x`` (K,),
    ``targets`` (R, M); the positions (R, M) and the flags (R, M: "", "below", "above"). The same arithmetic as
    :func:`reached`, element by element, so the numbers agree to the bit."""
    eps = 1e-12
    f = curves[:, None, :]  # (R, 1, K)
    t = targets[:, :, None]  # (R, M, 1)
    below = targets < curves[:, :1] - eps
    above = targets > curves[:, -1:] + eps
    equal = np.abs(f - t) <= eps  # (R, M, K)
    any_equal = equal.any(axis=2)
    k = x.size
    first = np.argmax(equal, axis=2)
    last = k - 1 - np.argmax(equal[:, :, ::-1], axis=2)
    middle = (x[first] + x[last]) / 2
    j = np.clip((f <= t).sum(axis=2), 1, k - 1)  # searchsorted(side="right") on a sorted row
    f0 = np.take_along_axis(curves, j - 1, axis=1)
    f1 = np.take_along_axis(curves, j, axis=1)
    x0, x1 = x[j - 1], x[j]
    with np.errstate(divide="ignore", invalid="ignore"):  # rows answered below, above or equal never divide
        between = x0 + (targets - f0) / (f1 - f0) * (x1 - x0)
    position = np.where(below, x[0], np.where(above, x[-1], np.where(any_equal, middle, between)))
    flags = np.where(below, "below", np.where(above, "above", ""))
    return position, flags


def _isotonic_rows(curves: np.ndarray) -> np.ndarray:
    """Every row made non-decreasing (:func:`isotonic`, unweighted), all rows at once. A row that never falls is its
    own fit and is kept as it is; so is a tie of 0 or 1 (no hit points lost, or all of them: saturated rungs). The
    rows that dip or tie elsewhere are fitted together by the minimax form of isotonic regression, f_i = max over
    j <= i of min over k >= i of mean(y_j .. y_k) (Barlow et al. 1972), on the block means of every row at once:
    the same fit as scipy's pool-adjacent-violators up to rounding (1e-15; tested), where fitting 3,000 resampled
    ladders one by one cost 50 ms a cell."""
    out = curves.copy()
    step = np.diff(curves, axis=1)
    after = curves[:, 1:]
    inexact_tie = (step == 0) & (after != 0) & (after != 1)
    rows = np.flatnonzero((step < 0).any(axis=1) | inexact_tie.any(axis=1))
    if rows.size:
        out[rows] = _minimax_isotonic(curves[rows])
    return out


def _minimax_isotonic(y: np.ndarray) -> np.ndarray:
    """The non-decreasing least-squares fit of every row of ``y`` (R, K) by the minimax formula (see
    :func:`_isotonic_rows`): (R, K, K) block means, a running minimum over the block's end from the right and a
    running maximum over its start from the left."""
    r, k = y.shape
    sums = np.concatenate([np.zeros((r, 1)), np.cumsum(y, axis=1)], axis=1)
    start, end = np.arange(k)[:, None], np.arange(k)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        means = (sums[:, None, 1:] - sums[:, :-1, None]) / (end - start + 1)  # [row, start j, end k]
    means = np.where(end >= start, means, np.inf)
    lowest_from = np.minimum.accumulate(means[:, :, ::-1], axis=2)[:, :, ::-1]  # [row, j, i]: min over k >= i
    lowest_from = np.where(end >= start, lowest_from, -np.inf)  # only starts j <= i count
    return np.asarray(lowest_from.max(axis=1), float)


@functools.lru_cache(maxsize=8)
def resample_counts(seed: int, n: int, resamples: int) -> np.ndarray:
    """How often each of ``n`` encounters is drawn in each of ``resamples`` resamples, (R, n), read-only: the draws
    of ``numpy.random.default_rng(seed).integers(0, n, (R, n))``, one row per resample.

    Why counts: a resample's mean of a series is its counts times the series' values over n, so every series and
    every measure of a cell is resampled by one matrix product (:func:`resampled_means`), where gathering the
    values (series x R x n) cost most of the grid's judging. Kept (a few per process) because the grid resamples
    every cell and measure with the study's seed at the same stage sizes."""
    idx = np.random.default_rng(seed).integers(0, n, (resamples, n))
    flat = (idx + (np.arange(resamples) * n)[:, None]).ravel()
    counts = np.bincount(flat, minlength=resamples * n).reshape(resamples, n).astype(float)
    counts.flags.writeable = False
    return counts


def resampled_means(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The means (R, series) of every series ``values`` (series, n) in each resample of ``counts``
    (:func:`resample_counts`): ``values[:, idx].mean(axis=2).T`` of the drawn indices, summed in another order
    (equal to rounding, 1e-15; exactly for whole-number values such as wins and deaths)."""
    return np.asarray((counts @ values.T) / values.shape[1], float)


PERCENTILE, EXPANDED = "percentile", "expanded"
INTERVALS = (PERCENTILE, EXPANDED)


@functools.lru_cache(maxsize=256)
def percentile_level(confidence: float, n: int, interval: str = PERCENTILE) -> float:
    """The central share of the resamples an interval at ``confidence`` keeps: ``confidence`` itself for the
    percentile interval. The expanded percentile interval (Hesterberg, "What teachers should know about the
    bootstrap", The American Statistician 69, 2015) keeps more, so that its normal quantile is the Student
    quantile on n - 1 degrees of freedom times sqrt(n / (n - 1)): a bootstrap distribution is narrower than the
    sampling distribution by sqrt((n - 1) / n) and knows nothing of the t's heavier tails, so the plain percentile
    interval under-covers in small samples (on the calibration grid's synthetic cells,
    tests/study/test_grid_coverage.py). At 1 - 0.05/3 it is 1.5% wider than the percentile interval at 150
    encounters, 4.6% at 50 (4.5% at 0.95 and 40 encounters, the quick study)."""
    if interval not in INTERVALS:
        raise ArenaError(f"interval must be one of {', '.join(INTERVALS)}, not {interval!r}")
    if interval == PERCENTILE:
        return confidence
    from scipy.stats import norm, t

    return float(1 - 2 * norm.sf(math.sqrt(n / (n - 1)) * t.isf((1 - confidence) / 2, n - 1)))


def equivalent_cr(
    ladder: dict[float, np.ndarray],
    arms: dict[str, np.ndarray],
    *,
    base: str = "d20",
    resamples: int = BOOTSTRAP,
    seed: int = 0,
    confidence: float = 0.95,
    interval: str = PERCENTILE,
) -> dict[str, dict]:
    """c* of every arm and Delta-CR against ``base``, with paired bootstrap intervals (``interval``:
    :data:`PERCENTILE` or :data:`EXPANDED`, :func:`percentile_level`).

    ``ladder`` maps ladder positions to per-encounter difficulty values (the d20 typical monster of that rung),
    ``arms`` names to per-encounter values of the subject (the arm ``base`` included); all arrays are aligned on
    the encounter index (the same seeds), so they are resampled together. The resamples are taken as one array
    (the same draws, in the same order, as one resample at a time) and solved together (:func:`reached_all`).
    """
    positions = sorted(ladder)
    n = min(len(v) for v in [*ladder.values(), *arms.values()])
    if n < 2:
        raise ArenaError("equivalent CR: at least 2 encounters per rung are needed")
    lad = np.vstack([np.asarray(ladder[p], float)[:n] for p in positions])
    arm_names = list(arms)
    sub = np.vstack([np.asarray(arms[a], float)[:n] for a in arm_names])
    x = np.asarray(positions, float)

    def solve(lmeans: np.ndarray, ameans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions and flags (R, arms) of resampled means: ``lmeans`` (R, rungs), ``ameans`` (R, arms)."""
        return reached_all(x, _isotonic_rows(lmeans), ameans)

    point, point_flags = solve(lad.mean(axis=1)[None, :], sub.mean(axis=1)[None, :])
    counts = resample_counts(seed, n, resamples)  # the same draws for every rung and arm (paired)
    boots, _ = solve(resampled_means(lad, counts), resampled_means(sub, counts))  # (R, arms)
    level = percentile_level(confidence, n, interval)
    qs = ((1 - level) / 2 * 100, (1 + level) / 2 * 100)
    c_low, c_high = np.percentile(boots, qs, axis=0)  # every arm's interval in one call (the same numbers)
    b = arm_names.index(base) if base in arm_names else None
    if b is not None:
        d_low, d_high = np.percentile(boots - boots[:, [b]], qs, axis=0)
    out: dict[str, dict] = {}
    for i, a in enumerate(arm_names):
        c = float(point[0, i])
        entry = {
            "difficulty": float(sub[i].mean()),
            "c_star": c,
            "censored": str(point_flags[0, i]),
            "c_star_low": float(c_low[i]),
            "c_star_high": float(c_high[i]),
            "n": int(n),
        }
        if b is not None:
            entry["delta"] = c - float(point[0, b])
            entry["delta_low"] = float(d_low[i])
            entry["delta_high"] = float(d_high[i])
        out[a] = entry
    return out


def discrimination(ladder: dict[float, dict[str, np.ndarray]]) -> dict[str, float]:
    """For each metric, |slope| / standard error between the two adjacent rungs around mid difficulty.

    ``ladder`` maps positions to {metric: per-encounter values}. Mid difficulty is where the win metric (1 - win
    rate) crosses 0.5 (the adjacent pair whose mean is nearest 0.5 when it does not cross).
    """
    positions = sorted(ladder)
    if len(positions) < 2:
        raise ArenaError("discrimination needs at least two rungs")
    win = [float(np.mean(ladder[p]["win"])) for p in positions]
    pairs = list(zip(range(len(positions) - 1), range(1, len(positions)), strict=True))
    crossing = [(i, j) for i, j in pairs if (win[i] - 0.5) * (win[j] - 0.5) <= 0]
    i, j = crossing[0] if crossing else min(pairs, key=lambda ij: abs((win[ij[0]] + win[ij[1]]) / 2 - 0.5))
    out = {}
    for metric in (m for m in METRICS if m in ladder[positions[i]]):
        a, b = np.asarray(ladder[positions[i]][metric], float), np.asarray(ladder[positions[j]][metric], float)
        d = b - a  # paired on the index (same seeds)
        se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        slope = d.mean() / (positions[j] - positions[i])
        out[metric] = abs(slope) / se * (positions[j] - positions[i]) if se > 0 else float("nan")
    out["between"] = (positions[i], positions[j])
    return out
