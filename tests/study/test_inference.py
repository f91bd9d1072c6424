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


def test_combine_with_direction_shown():
    """Every part's direction shown (some with their size) is the claim's direction shown; a part that shows
    nothing leaves the claim inconclusive; a part decided against still decides."""
    d = inf.DIRECTION
    assert inf.combine([d]) == d
    assert inf.combine([inf.SUPPORTED, d]) == d
    assert inf.combine([d, d]) == d
    assert inf.combine([d, inf.INCONCLUSIVE]) == inf.INCONCLUSIVE
    assert inf.combine([d, inf.NOT]) == inf.NOT
    assert inf.combine([inf.SUPPORTED, d, inf.NOT]) == inf.PARTLY
    assert inf.combine([]) == inf.INCONCLUSIVE
    assert set(inf.VERDICTS) == {inf.SUPPORTED, inf.PARTLY, d, inf.NOT, inf.INCONCLUSIVE, inf.DESCRIPTIVE}


def test_directional_verdict_order():
    v = inf.directional_verdict
    assert v(0.01, 0.99, p_direction=0.001) == inf.SUPPORTED
    assert v(0.99, 0.01, p_direction=0.01) == inf.NOT  # shown short of the margin even though shown above 0
    assert v(0.3, 0.7, p_direction=0.01) == inf.DIRECTION
    assert v(0.3, 0.7, p_direction=0.2) == inf.INCONCLUSIVE
    assert v(0.3, 0.7) == inf.INCONCLUSIVE  # no direction test
    assert v(0.3, 0.7, 0.001, p_direction=0.01) == inf.INCONCLUSIVE  # alpha applies to the direction too


def test_direction_shown_for_a_mean_and_a_ratio():
    """An effect clearly above no effect whose interval straddles the margin: the direction is shown, the size is
    not (a t effect against 0, a bootstrap ratio against 1)."""
    rng = np.random.default_rng(17)
    mean = inf.cluster_mean([rng.normal(0.05, 0.03, 1) for _ in range(30)], margin=0.05)
    assert mean.low > 0 and mean.low < 0.05 < mean.high
    assert inf.directional_verdict(mean.p_beyond, mean.p_within, p_direction=mean.p_direction) == inf.DIRECTION
    assert mean.p_direction == pytest.approx(_t_sf(mean.estimate / mean.se, 29), rel=1e-9)
    den = rng.normal(1.0, 0.1, 20)
    ratio = inf.cluster_ratio(1.5 * den + rng.normal(0, 0.15, 20), den, margin=1.5)
    assert ratio.low > 1 and ratio.low < 1.5 < ratio.high and ratio.no_effect == 1.0
    assert inf.directional_verdict(ratio.p_beyond, ratio.p_within, p_direction=ratio.p_direction) == inf.DIRECTION
    down = inf.cluster_ratio(0.9 * den + rng.normal(0, 0.01, 20), den, margin=0.8, direction=-1)
    assert down.high < 1 and down.low > 0.8  # fewer, but not 20% fewer: shown short of the margin
    assert inf.directional_verdict(down.p_beyond, down.p_within, p_direction=down.p_direction) == inf.NOT


def _t_sf(z, df):
    from scipy.stats import t

    return float(t.sf(z, df))


def test_a_bootstrap_p_is_at_least_one_over_b_plus_one():
    """A bootstrap of B resamples cannot show p below 1/(B + 1): (k + 1)/(B + 1), never 0."""
    assert inf.bootstrap_p(np.array([2.0, 3.0, 4.0]), 1.0, +1) == 1 / 4
    assert inf.bootstrap_p(np.array([2.0, 3.0, 0.5, np.nan]), 1.0, +1) == 2 / 4
    assert inf.bootstrap_p(np.array([0.5, 0.7]), 1.0, -1) == 1 / 3
    assert inf.bootstrap_p(np.array([np.nan]), 1.0, +1) == 1.0
    rng = np.random.default_rng(19)
    den = rng.normal(1.0, 0.05, 15)
    far = inf.cluster_ratio(3 * den, den, margin=1.5)  # every resample beyond the margin and beyond 1
    assert far.p_beyond == far.p_direction == 1 / (inf.BOOTSTRAP + 1)
    assert far.p_within == 1.0
    two = inf.cluster_ratio([3.0, 3.1], [1.0, 1.0], margin=1.5)  # too few matchups to resample: no decision
    assert two.p_beyond == 0.5 and inf.directional_verdict(two.p_beyond, two.p_within) == inf.INCONCLUSIVE


def test_equivalence():
    e = inf.Effect(0.001, -0.005, 0.007, 10, 1000)
    p_eq, p_out = inf.equivalence(e, 0.02)
    assert p_eq < 0.05 and p_out > 0.05
    far = inf.Effect(0.06, 0.05, 0.07, 10, 1000)
    p_eq, p_out = inf.equivalence(far, 0.02)
    assert p_eq > 0.05 and p_out < 0.05


def test_equivalence_uses_the_effect_s_own_t():
    rng = np.random.default_rng(23)
    e = inf.cluster_mean([rng.normal(0.3, 1.0, 1) for _ in range(12)])
    assert e.df == 11 and e.se > 0
    p_eq, p_out = inf.equivalence(e, 0.5)
    assert p_eq == pytest.approx(max(_t_sf((e.estimate + 0.5) / e.se, 11), _t_sf((0.5 - e.estimate) / e.se, 11)))
    near = _t_sf((abs(e.estimate) - 0.5) / e.se, 11)
    assert p_out == pytest.approx(near + _t_sf((abs(e.estimate) + 0.5) / e.se, 11))


def test_the_beyond_margin_test_has_its_size_at_the_boundary():
    """At the null's edge (effect = +margin or -margin, half the studies each) "|e| > margin" is rejected at alpha,
    not alpha / 2 as the doubled p did: 4000 synthetic studies of 20 matchups (t over matchup means, as
    :func:`inference.cluster_mean` computes it), the rejection rate within 4 binomial standard errors of 0.05 (the
    doubled p's 0.025 is 7 of them away)."""
    from scipy.stats import t

    rng = np.random.default_rng(29)
    margin, reps, g = 0.5, 4000, 20
    sign = np.where(np.arange(reps) % 2 == 0, 1.0, -1.0)
    means = rng.normal(sign[:, None] * margin, 1.0, (reps, g))
    est, se = means.mean(axis=1), means.std(axis=1, ddof=1) / math.sqrt(g)
    half = t.ppf(0.975, g - 1) * se
    rejected = tost = 0
    for m, s, h in zip(est, se, half, strict=True):
        e = inf.Effect(float(m), float(m - h), float(m + h), g, g, se=float(s), df=g - 1)
        p_eq, p_out = inf.equivalence(e, margin)
        rejected += p_out < 0.05
        tost += p_eq < 0.05
    sd = math.sqrt(0.05 * 0.95 / reps)
    assert abs(rejected / reps - 0.05) < 4 * sd
    assert tost / reps < 0.05 + 4 * sd  # TOST keeps its level at the boundary too


def test_players_roll_all_is_no_longer_halved():
    """The audit's case: prad's hit points lost, -3.25 [-4.12, -2.39] over 50 matchups against a 2-point band
    (results/claims/claims.json, prad-same-in-fights, its first part). The old p doubled the one-sided p; now it
    is the one-sided p (plus a far tail of about 1e-30)."""
    from scipy.stats import norm, t

    est, low, high = -3.2517, -4.1157, -2.3876
    published = inf.Effect(est, low, high, 50, 15000)  # as published: no se, the interval's normal se
    se = (high - low) / 2 / norm.ppf(0.975)
    one_sided = float(norm.sf((abs(est) - 2) / se))
    _, p_out = inf.equivalence(published, 2.0)
    assert p_out == pytest.approx(one_sided, rel=1e-12) and p_out < 0.0023  # the old doubled p was 0.0045
    t_se = (high - low) / 2 / t.ppf(0.975, 49)
    now = inf.Effect(est, low, high, 50, 15000, se=float(t_se), df=49)  # as the study now records it
    _, p_t = inf.equivalence(now, 2.0)
    assert p_t == pytest.approx(float(t.sf((abs(est) - 2) / t_se, 49)), rel=1e-9) and p_t < 0.003
