"""The sequential stopping rule keeps its stated coverage on a synthetic Bernoulli cell."""

from __future__ import annotations

import math

import numpy as np

from arena.study.statistics import sequential as sq


def _coverage(rule, p, reps, corrected=True):
    hits, looks, used = 0, [], []
    for r in range(reps):

        def sample(n, seed, r=r):
            return np.random.default_rng([r, seed % 2**32]).random(n) < p

        def interval(data, conf):
            return sq.wilson_interval(data, conf if corrected else 1 - rule.alpha)

        out = sq.run_sequential(sample, interval, rule, seed=r)
        hits += out["low"] <= p <= out["high"]
        looks.append(out["look"])
        used.append(out["n"])
    return hits / reps, looks, used


def test_sequential_rule_keeps_its_coverage():
    rule = sq.SequentialRule(stages=(50, 100, 200, 400), target=0.081)
    reps = 1500
    cover, looks, used = _coverage(rule, 0.3, reps)
    se = math.sqrt(0.95 * 0.05 / reps)
    assert cover >= 0.95 - 3 * se  # stated coverage kept, whatever look it stopped at
    assert len(set(looks)) > 1  # and it did stop at different looks
    assert sq.saved(rule, used) > 0
    assert rule.confidence == 1 - 0.05 / 4


def test_stage_seeds_are_distinct_and_stage_zero_is_the_run_seed():
    seeds = [sq.stage_seed(5, k) for k in range(4)]
    assert seeds[0] == 5 and len(set(seeds)) == 4
