"""The coverage of the interval the calibration grid reports (issue 26): the paired bootstrap of
:func:`arena.study.calibration.equivalent_cr.equivalent_cr` (expanded percentile, :data:`INTERVAL`) with the
grid's resamples, at the grid's confidence 1 - 0.05/K, under the grid's sequential looks and stopping rule, on
synthetic cells whose true Delta-CR is known.

A synthetic cell: a ladder of five rungs (the grid's first ladder, two either side of the subject) whose mean
difficulty is a logistic curve of the position, and three arms (d20 and two variants) whose means sit on the
ladder's piecewise-linear curve at known positions between rungs, so that c* of each arm, and Delta-CR of each
variant, is known exactly. Each encounter's values are paired by index as the real fights are (the same seed for
every rung and arm): one shared normal per encounter (the party's luck) and one of its own per series, through
the normal's distribution function to a uniform U, and the value U ** (1/m - 1), which lies in [0, 1] like the
fraction of hit points lost and has mean exactly m. Each look fights fresh encounters on its stage seed.

The stages are the grid's divided by three (50, 100, 200: the same K = 3 looks, so the same confidence, and the
same ratios), so that a few hundred replications stay a few seconds: a smaller sample is the harder case for a
bootstrap (at 50 encounters the plain percentile interval covered 97.95% and 97.45% of 2,000 such cells at
98.33%, the expanded one 98.3% and 97.8%; at 150 both 98.6% and 98.1% of 800). The tolerance is three binomial
standard errors of the realised coverage at the nominal level.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtr

from arena.errors import ArenaError
from arena.study.calibration import equivalent_cr as eq
from arena.study.claims import grid
from arena.study.statistics.sequential import SequentialRule, stage_seed

RUNGS = (3.0, 4.0, 5.0, 6.0, 7.0)
TRUE_C = {"d20": 5.3, "3d6": 4.6, "open-ended": 5.9}
"""Each arm's true equivalent position: Delta-CR is -0.7 for 3d6 and +0.6 for open-ended, between rungs."""
VARIANTS = ("3d6", "open-ended")
SHARED = 0.88
"""The correlation of an encounter's latent luck across series (the pairing by seed)."""
STAGES = tuple(s // 3 for s in grid.STAGES)
INTERVAL = eq.EXPANDED
"""The interval the grid asks of :func:`~arena.study.calibration.equivalent_cr.equivalent_cr`: the expanded
percentile interval (the plain one under-covers here at 50 encounters)."""


def _curve(q: float) -> float:
    """The ladder's true mean difficulty at a rung: a logistic curve, steep in the middle, flat at the ends."""
    return 0.1 + 0.8 / (1 + math.exp(-(q - 5) / 0.6))


def _mean_at(c: float) -> float:
    """The mean that the ladder's piecewise-linear curve reaches at position ``c``: an arm with this mean has c* = c."""
    q0 = math.floor(c)
    return _curve(q0) + (c - q0) * (_curve(q0 + 1) - _curve(q0))


MEANS = np.array([_curve(q) for q in RUNGS] + [_mean_at(c) for c in TRUE_C.values()])


def _encounters(n: int, seed: list[int]) -> np.ndarray:
    """n encounters of every series (rungs, then arms), paired by index: (series, n)."""
    rng = np.random.default_rng(seed)
    luck = rng.standard_normal(n)
    own = rng.standard_normal((MEANS.size, n))
    u = ndtr(SHARED * luck + math.sqrt(1 - SHARED**2) * own)
    return np.asarray(u ** (1 / MEANS - 1)[:, None], float)  # E[U ** k] = 1 / (k + 1) = m


def _calibrate(data: np.ndarray, seed: int, confidence: float) -> dict[str, dict]:
    """The grid's call: every rung and arm on the same encounters, the grid's resamples and bootstrap seed."""
    ladder = {q: data[i] for i, q in enumerate(RUNGS)}
    arms = {a: data[len(RUNGS) + j] for j, a in enumerate(TRUE_C)}
    return eq.equivalent_cr(ladder, arms, resamples=grid.RESAMPLES, seed=seed, confidence=confidence, interval=INTERVAL)


def _cell(rule: SequentialRule, seed: int) -> tuple[dict[str, dict], int]:
    """One synthetic cell fought look by look as :func:`arena.study.claims.grid.run_grid` fights one: fresh
    encounters on each stage's seed, the interval on everything fought so far, stop by the rule."""
    parts: list[np.ndarray] = []
    for look, add in enumerate(rule.increments()):
        parts.append(_encounters(add, [seed, stage_seed(seed, look) % 2**32]))
        out = _calibrate(np.concatenate(parts, axis=1), seed, rule.confidence)
        widths = [(out[a]["delta_high"] - out[a]["delta_low"]) / 2 for a in VARIANTS]
        if rule.stops(look, widths, any(r["censored"] for r in out.values())):
            return out, look + 1
    raise AssertionError("the rule stops at its last look")


def _covers(out: dict[str, dict], arm: str) -> bool:
    truth = TRUE_C[arm] - TRUE_C["d20"]
    return out[arm]["delta_low"] <= truth <= out[arm]["delta_high"]


def _floor(nominal: float, reps: int) -> float:
    """The lowest realised coverage the test accepts: three binomial standard errors below the nominal."""
    return nominal - 3 * math.sqrt(nominal * (1 - nominal) / reps)


def test_synthetic_cells_have_the_stated_truth():
    """The generator's means are what the truths assume: on 40,000 encounters the point estimates of c* and
    Delta-CR sit on the known positions."""
    data = _encounters(40_000, [7, 7])
    assert data.mean(axis=1) == pytest.approx(MEANS, abs=0.005)
    out = eq.equivalent_cr(
        {q: data[i] for i, q in enumerate(RUNGS)},
        {a: data[len(RUNGS) + j] for j, a in enumerate(TRUE_C)},
        resamples=10,
    )
    for arm, c in TRUE_C.items():
        assert out[arm]["c_star"] == pytest.approx(c, abs=0.03)
    assert np.corrcoef(data)[0, 5] > 0.5  # paired by index, as fights on the same seeds are


def test_the_grid_rests_each_tail_of_its_interval_on_many_resamples():
    """At the grid's confidence (three looks) and the quick study's (one look), each tail of the interval holds
    at least 20 resamples, at any sample size (the grid once used 200 resamples: under 2 in each tail)."""
    for stages in (grid.STAGES, grid.QUICK_STAGES):
        confidence = SequentialRule(tuple(stages), grid.TARGET).confidence
        for n in (stages[0], 10**6):
            level = eq.percentile_level(confidence, n, INTERVAL)
            assert grid.RESAMPLES * (1 - level) / 2 >= 20


def test_the_expanded_interval_widens_the_percentile_one_on_the_same_resamples():
    """The same draws: the expanded interval holds the percentile one, by a widening that fades with n."""
    data = _encounters(50, [3, 3])
    ladder = {q: data[i] for i, q in enumerate(RUNGS)}
    arms = {a: data[len(RUNGS) + j] for j, a in enumerate(TRUE_C)}
    plain = eq.equivalent_cr(ladder, arms, resamples=400, seed=3, interval=eq.PERCENTILE)
    wide = eq.equivalent_cr(ladder, arms, resamples=400, seed=3, interval=eq.EXPANDED)
    for arm in VARIANTS:
        assert wide[arm]["delta_low"] < plain[arm]["delta_low"] < plain[arm]["delta_high"] < wide[arm]["delta_high"]
        assert wide[arm]["delta"] == plain[arm]["delta"]
    assert eq.percentile_level(0.95, 40, eq.EXPANDED) == pytest.approx(0.9595, abs=1e-4)
    assert eq.percentile_level(0.95, 10**6, eq.EXPANDED) == pytest.approx(0.95, abs=1e-5)
    assert eq.percentile_level(0.95, 40) == 0.95
    with pytest.raises(ArenaError, match="interval must be one of percentile, expanded, not 'bca'"):
        eq.percentile_level(0.95, 40, "bca")


def test_sequential_coverage_of_the_grids_interval():
    """The interval a cell stops with covers the true Delta-CR at least 95% of the time (the rule's promise),
    whatever look it stopped at: 120 synthetic cells, each variant judged on its own."""
    rule = SequentialRule(STAGES, grid.TARGET)
    reps = 120
    hits = dict.fromkeys(VARIANTS, 0)
    looks = []
    for rep in range(reps):
        out, look = _cell(rule, rep)
        looks.append(look)
        for arm in VARIANTS:
            hits[arm] += _covers(out, arm)
    floor = _floor(1 - rule.alpha, reps)
    for arm in VARIANTS:
        assert hits[arm] / reps >= floor, (arm, hits[arm] / reps, floor)
    assert len(set(looks)) > 1  # the cells stopped at different looks: the stopping rule was exercised
    assert looks.count(rule.looks) < reps  # and some stopped early, at a half-width within the target


def test_single_look_coverage_of_the_grids_interval():
    """One look's interval, at the grid's per-look confidence 1 - 0.05/3, on the smallest stage (50 encounters),
    covers the true Delta-CR at least that often: 200 synthetic cells."""
    confidence = SequentialRule(grid.STAGES, grid.TARGET).confidence
    reps = 200
    hits = dict.fromkeys(VARIANTS, 0)
    for rep in range(reps):
        out = _calibrate(_encounters(STAGES[0], [1000 + rep, 0]), 1000 + rep, confidence)
        for arm in VARIANTS:
            hits[arm] += _covers(out, arm)
    for arm in VARIANTS:
        assert hits[arm] / reps >= _floor(confidence, reps), (arm, hits[arm] / reps)


def test_resampled_means_by_counts_equal_the_gathered_draws():
    """The bootstrap's means are counts (how often each encounter is drawn) times values: for every kind of values,
    they equal the means of the drawn values gathered one by one (the computation the one-resample-at-a-time
    reference of tests/study/test_calibrate.py makes), to rounding, and exactly for whole-number values (wins,
    deaths, saturated rungs); the counts are the draws of the seed's generator, and every row sums to n."""
    rng = np.random.default_rng(5)
    for trial in range(12):
        series, n, resamples = int(rng.integers(1, 18)), int(rng.integers(2, 200)), int(rng.integers(1, 700))
        values = rng.random((series, n)) if trial % 2 else (rng.random((series, n)) < 0.3).astype(float)
        idx = np.random.default_rng(trial).integers(0, n, (resamples, n))
        counts = eq.resample_counts(trial, n, resamples)
        assert (counts.sum(axis=1) == n).all() and not counts.flags.writeable
        assert np.array_equal(counts[0], np.bincount(idx[0], minlength=n))
        gathered = values[:, idx].mean(axis=2).T
        got = eq.resampled_means(values, counts)
        if trial % 2:
            np.testing.assert_allclose(got, gathered, rtol=1e-13, atol=1e-15)
        else:
            assert np.array_equal(got, gathered)


def test_the_rule_stops_as_the_grid_stops():
    """At the last look; before it only when every half-width is within the target and no arm is off the ladder."""
    rule = SequentialRule(grid.STAGES, grid.TARGET)
    assert not rule.stops(0, [0.2, 0.3]) and rule.stops(0, [0.2, 0.25])
    assert not rule.stops(1, [0.1], censored=True) and not rule.stops(1, [])
    assert rule.stops(2, [9.0], censored=True)
