"""The inference layer: the cluster interval against a brute-force resample, matchups as units, ratios, Holm,
margins and inconclusive verdicts (synthetic data, fixed seeds, tolerances from the sample sizes)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.study.statistics import inference as inf


def _clusters(rng, g=12, n=200, spread=0.1, mean=0.05):
    centres = rng.normal(mean, spread, g)
    return [rng.normal(c, 0.5, n) for c in centres]


def test_cluster_bootstrap_matches_a_brute_force_resample():
    rng = np.random.default_rng(3)
    num, den = rng.normal(2.0, 0.5, 15), rng.normal(1.0, 0.2, 15)

    def ratio(a, b):
        return float(np.mean(a) / np.mean(b))

    est, low, high, dist = inf.cluster_bootstrap(ratio, [num, den], resamples=4000, seed=1, method="percentile")
    brute = []
    r2 = np.random.default_rng(99)
    for _ in range(4000):
        idx = r2.integers(0, 15, 15)
        brute.append(ratio(num[idx], den[idx]))
    b_low, b_high = np.quantile(brute, [0.025, 0.975])
    sd = float(np.std(brute))
    # Two independent sets of 4000 resamples: their 2.5% quantiles differ by a few hundredths of an SD.
    assert abs(est - ratio(num, den)) < 1e-12
    assert abs(low - b_low) < 0.15 * sd and abs(high - b_high) < 0.15 * sd
    assert abs(float(np.std(dist)) - sd) < 0.05 * sd


def test_matchups_not_fights_are_the_unit():
    rng = np.random.default_rng(5)
    diffs = _clusters(rng, g=10, n=500, spread=0.2, mean=0.0)
    e = inf.cluster_mean(diffs)
    m, lo, hi = inf.fight_level_interval(diffs)
    assert e.units == 10 and e.unit == "matchup" and e.fights == 5000
    assert abs(e.estimate - m) < 1e-12  # equal sizes: the same estimate
    assert (e.high - e.low) > 2 * (hi - lo)  # between-matchup spread makes the honest interval far wider


def test_cluster_interval_covers_at_its_level():
    # 400 synthetic studies of 8 matchups with a true mean 0.1: the t interval over matchup means covers ~95%.
    rng = np.random.default_rng(7)
    hits = 0
    reps = 400
    for _ in range(reps):
        diffs = _clusters(rng, g=8, n=40, spread=0.3, mean=0.1)
        e = inf.cluster_mean(diffs)
        hits += e.low <= 0.1 <= e.high
    se = math.sqrt(0.95 * 0.05 / reps)
    assert hits / reps > 0.95 - 4 * se


def test_margin_verdicts():
    rng = np.random.default_rng(11)
    big = inf.cluster_mean([rng.normal(0.2, 0.05, 50) + rng.normal(0, 0.01) for _ in range(10)], margin=0.05)
    small = inf.cluster_mean([rng.normal(0.01, 0.05, 50) for _ in range(10)], margin=0.05)
    noisy = inf.cluster_mean([rng.normal(0.05, 1.0, 5) for _ in range(4)], margin=0.05)
    assert inf.directional_verdict(big.p_beyond, big.p_within) == inf.SUPPORTED
    assert inf.directional_verdict(small.p_beyond, small.p_within) == inf.NOT
    assert inf.directional_verdict(noisy.p_beyond, noisy.p_within) == inf.INCONCLUSIVE
    down = inf.cluster_mean([rng.normal(-0.2, 0.05, 50) for _ in range(10)], margin=0.05, direction=-1)
    assert inf.directional_verdict(down.p_beyond, down.p_within) == inf.SUPPORTED


def test_ratio_interval_and_bootstrap_test():
    rng = np.random.default_rng(13)
    den = rng.normal(1.0, 0.1, 14)
    num = 2.0 * den + rng.normal(0, 0.1, 14)
    e = inf.cluster_ratio(num, den, margin=1.5)
    assert e.low < 2.0 < e.high and e.low > 1.5
    assert inf.directional_verdict(e.p_beyond, e.p_within) == inf.SUPPORTED
    near = inf.cluster_ratio(1.5 * den + rng.normal(0, 0.5, 14), den, margin=1.5)
    assert inf.directional_verdict(near.p_beyond, near.p_within) == inf.INCONCLUSIVE


@pytest.mark.parametrize("seed", range(5))
def test_holm_gives_statsmodels_numbers(seed):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(seed)
    p = rng.random(int(rng.integers(1, 30))) ** 3
    p[rng.random(p.size) < 0.2] = p[0]  # ties
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
    assert inf.holm(p.tolist()) == adjusted.tolist()
    from arena.study.statistics.two_samples import holm as holm_reject

    assert holm_reject(p.tolist(), 0.05) == (reject.tolist(), adjusted.tolist())


def test_holm_and_combine():
    adj = inf.holm([0.01, 0.04, 0.03, float("nan")])
    assert adj[0] == 0.03 and math.isnan(adj[3]) and adj[1] == 0.06 and adj[2] == 0.06
    assert inf.combine([inf.SUPPORTED, inf.SUPPORTED]) == inf.SUPPORTED
    assert inf.combine([inf.SUPPORTED, inf.NOT]) == inf.PARTLY
    assert inf.combine([inf.SUPPORTED, inf.INCONCLUSIVE]) == inf.INCONCLUSIVE
    assert inf.combine([inf.NOT, inf.INCONCLUSIVE]) == inf.NOT


def test_equivalence():
    e = inf.Effect(0.001, -0.005, 0.007, 10, 1000)
    p_eq, p_out = inf.equivalence(e, 0.02)
    assert p_eq < 0.05 and p_out > 0.05
    far = inf.Effect(0.06, 0.05, 0.07, 10, 1000)
    p_eq, p_out = inf.equivalence(far, 0.02)
    assert p_eq > 0.05 and p_out < 0.05


def test_the_quick_study_decides_only_at_its_stricter_level():
    """--quick decides a claim at QUICK_ALPHA, so an effect the full study could still turn stays inconclusive."""
    from arena.study.claims.evaluation import QUICK_ALPHA

    assert inf.directional_verdict(0.01, 0.9) == inf.SUPPORTED
    assert inf.directional_verdict(0.01, 0.9, QUICK_ALPHA) == inf.INCONCLUSIVE
    assert inf.directional_verdict(0.0005, 0.9, QUICK_ALPHA) == inf.SUPPORTED
