"""The censored fit of Delta-CR on synthetic cells with a known answer: slopes and tau recovered where dropping the
censored cells or taking their bounds as values is biased; saturated cells no longer pull the fit; bad input is
an ArenaError."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from arena.errors import ArenaError
from arena.study.calibration import censored, cr_rule

A, B, TAU, SE = 0.2, 0.25, 0.3, 0.15
FLOOR = -0.75
"""The synthetic ladder's bottom, as a Delta-CR: a cell whose measured value falls below it is only 'at most' it."""


def _grid(seed: int, levels=(1, 3, 5, 8, 12, 16), sizes=(1, 2, 3, 4, 6, 8), gaps=(-6, -4, -3, -2, 0, 2)):
    """Cells of the truth A + B * gap, spread tau between cells and se within, censored below FLOOR as the grid
    would see them: the measured value (true + both errors) fell off the ladder."""
    rng = np.random.default_rng(seed)
    rows = []
    for level in levels:
        for size in sizes:
            for gap in gaps:
                latent = A + B * gap + rng.normal(0, TAU) + rng.normal(0, SE)
                cell = censored.exact(latent, SE) if latent > FLOOR else censored.at_most(FLOOR, SE)
                rows.append({"level": level, "size": size, "gap": gap, **cell})
    return pd.DataFrame(rows)


def _as_values(frame: pd.DataFrame) -> pd.DataFrame:
    """The naive reading: every censored cell's bound taken as its exact value."""
    out = frame.copy()
    bound = np.where(out["censor"] == "left", out["high"], out["delta"])
    out["delta"], out["censor"] = bound, "exact"
    return out


def test_the_censored_fit_recovers_the_slope_where_the_naive_fits_are_biased():
    frame = _grid(7)
    share = float(np.mean(frame["censor"] != "exact"))
    assert 0.25 <= share <= 0.35  # about 30% censored
    fit = censored.fit(frame, "cr-gap")
    (a, b), (sa, sb) = fit.params, fit.bse
    assert fit.converged and fit.censored == round(share * len(frame))
    assert abs(b - B) < 4 * sb and abs(a - A) < 4 * sa
    # Dropping the censored cells (today's grid) and taking their bounds as values both flatten the slope. Over ten
    # grids the bias is plain against the spread of the estimates: the censored fit's mean is within 4 standard
    # errors of the mean of B, the naive fits' are more than 4 below it (so the test fails for them).
    slopes: dict[str, list[float]] = {"censored": [], "dropped": [], "bounds": [], "wls": []}
    for seed in range(10):
        grid = _grid(100 + seed)
        exact = grid[grid["censor"] == "exact"].reset_index(drop=True)
        slopes["censored"].append(censored.fit(grid, "cr-gap").params[1])
        slopes["dropped"].append(censored.fit(exact, "cr-gap").params[1])
        slopes["bounds"].append(censored.fit(_as_values(grid), "cr-gap").params[1])
        slopes["wls"].append(cr_rule.fit_model(exact, "cr-gap")["params"][1])  # cr_rule's fit, floored weights
    for method, values in slopes.items():
        v = np.asarray(values)
        error = (v.mean() - B) / (v.std(ddof=1) / math.sqrt(len(v)))
        assert (abs(error) < 4) == (method == "censored"), (method, v.mean(), error)
        if method != "censored":
            assert error < -4  # biased towards no slope


def test_the_fit_is_the_maximum_of_the_likelihood_and_its_errors_its_curvature():
    """The fit (analytic score) against the likelihood computed apart: the same value at the optimum, no
    direction that raises it, and standard errors from second differences of it."""
    frame = _grid(21)
    columns = ["censor", "delta", "low", "high"]
    frame.loc[frame["gap"] == 2, columns] = ["interval", math.nan, 0.0, 1.5]  # some bounds on both sides
    frame.loc[(frame["gap"] == 0) & (frame["size"] == 8), columns] = ["right", math.nan, 0.1, math.inf]
    fit = censored.fit(frame, "cr-gap")
    theta = np.array([*fit.params, math.log(fit.tau)])

    def ll(th: np.ndarray) -> float:
        return censored.loglik(frame, "cr-gap", th[:2], math.exp(th[2]))

    assert ll(theta) == pytest.approx(fit.loglik, abs=1e-9)
    h = 1e-4
    hess = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            ei, ej = np.eye(3)[i] * h, np.eye(3)[j] * h
            hess[i, j] = (ll(theta + ei + ej) - ll(theta + ei - ej) - ll(theta - ei + ej) + ll(theta - ei - ej)) / (
                4 * h * h
            )
        assert ll(theta + np.eye(3)[i] * 1e-3) < fit.loglik and ll(theta - np.eye(3)[i] * 1e-3) < fit.loglik
    cov = np.linalg.inv(-hess)
    assert np.sqrt(np.diag(cov)[:2]) == pytest.approx(fit.bse, rel=1e-3)
    assert fit.tau * math.sqrt(cov[2, 2]) == pytest.approx(fit.tau_se, rel=1e-3)


def test_exact_cells_without_spread_give_cr_rules_least_squares():
    frame = _grid(5)
    exact = frame[frame["censor"] == "exact"].reset_index(drop=True)
    fit = censored.fit(exact, "gap+smooth", tau=0.0)
    assert fit.params == pytest.approx(cr_rule.fit_model(exact, "gap+smooth")["params"], abs=1e-5)


def test_right_and_interval_censoring_recover_the_slope():
    """The grid's other bounds: harder than the top rung ('at least'), and Delta known to a whole rung only."""
    rng = np.random.default_rng(17)
    rows = []
    for level in (1, 3, 5, 8, 12, 16):
        for size in (1, 2, 3, 4, 6, 8):
            for gap in (-6, -4, -3, -2, 0, 2):
                latent = A + B * gap + rng.normal(0, TAU) + rng.normal(0, SE)
                if latent > 0.4:
                    cell = censored.at_least(0.4, SE)
                elif size in (3, 6):
                    cell = censored.between(math.floor(latent), math.floor(latent) + 1)
                else:
                    cell = censored.exact(latent, SE)
                rows.append({"level": level, "size": size, "gap": gap, **cell})
    frame = pd.DataFrame(rows)
    assert {"right", "interval", "exact"} == set(frame["censor"]) and (frame["censor"] != "exact").mean() > 0.3
    fit = censored.fit(frame, "cr-gap")
    assert abs(fit.params[1] - B) < 4 * fit.bse[1] and abs(fit.tau - TAU) < 4 * fit.tau_se


def test_tau_is_recovered_and_can_be_fixed():
    frame = _grid(11)
    fit = censored.fit(frame, "cr-gap")
    assert abs(fit.tau - TAU) < 4 * fit.tau_se
    assert fit.tau_se < 0.1  # the test can tell 0.3 from 0 and from the se of 0.15
    fixed = censored.fit(frame, "cr-gap", tau=0.0)
    assert fixed.tau == 0.0 and fixed.tau_fixed and math.isnan(fixed.tau_se)
    assert fixed.loglik < fit.loglik - 10  # the cells' own errors do not explain the spread
    assert fit.aic == pytest.approx(-2 * fit.loglik + 2 * 3)
    assert fixed.aic == pytest.approx(-2 * fixed.loglik + 2 * 2)


def test_without_spread_tau_is_near_zero():
    rng = np.random.default_rng(3)
    frame = _grid(3)
    frame["delta"] = np.where(
        frame["censor"] == "exact", A + B * frame["gap"] + rng.normal(0, SE, len(frame)), frame["delta"]
    )
    fit = censored.fit(frame, "cr-gap")
    assert fit.tau < 0.1


def test_the_95_interval_of_the_slope_covers_the_truth_as_often_as_it_says():
    """200 synthetic grids (about 30% censored): the Hessian's 95% interval must cover B a number of times within
    the binomial's 99.9% range for 200 trials at 0.95. The same check fails for the fit that ignores the spread
    between cells (tau fixed at 0; 60 grids are plenty to show it), so it can fail."""
    runs = 200
    covered = ignoring_tau = 0
    for seed in range(runs):
        frame = _grid(1000 + seed, levels=(1, 5, 12), sizes=(1, 4, 8))
        fit = censored.fit(frame, "cr-gap")
        covered += abs(fit.params[1] - B) <= 1.96 * fit.bse[1]
        if seed < 60:
            no_tau = censored.fit(frame, "cr-gap", tau=0.0)
            ignoring_tau += abs(no_tau.params[1] - B) <= 1.96 * no_tau.bse[1]
    low, high = binom.interval(0.999, runs, 0.95)
    assert low <= covered <= high, covered
    assert ignoring_tau < binom.interval(0.999, 60, 0.95)[0], ignoring_tau


def test_saturated_cells_as_intervals_do_not_pull_the_fit_as_floored_exact_values_do():
    """The audit's item 2: a wipe reads +1.5 with a zero-width interval; as an exact value with the floored se it
    outweighs everything, as "Delta somewhere in the saturated span" it says only that."""
    rng = np.random.default_rng(5)
    rows = [{"level": lv, "size": 2, "gap": 0, **censored.exact(rng.normal(0, 0.2), 0.2)} for lv in (1, 3, 5, 8) * 10]
    wipes = [{"level": 12, "size": 8, "gap": 2, **censored.exact(1.5, 0.0)} for _ in range(6)]
    as_exact = pd.DataFrame(rows + wipes)
    old = cr_rule.fit_model(as_exact, "none")
    assert old["params"][0] > 4 * old["bse"][0]  # pulled off the truth (0) by the six wipes
    # The same wipes described by what they know: both arms' c* lie in the saturated rungs 10..13 of the ladder.
    saturated = censored.delta_bounds((10.0, 13.0), (10.0, 13.0))
    assert saturated["censor"] == "interval" and (saturated["low"], saturated["high"]) == (-3.0, 3.0)
    as_interval = pd.DataFrame(rows + [{"level": 12, "size": 8, "gap": 2, **saturated}] * 6)
    new = censored.fit(as_interval, "none")
    assert abs(new.params[0]) < 4 * new.bse[0]


def test_uninformative_cells_add_nothing_and_are_counted():
    frame = _grid(2)
    # Both arms saturate on a span open at the top: Delta could be anything.
    anything = censored.delta_bounds((12.0, math.inf), (12.0, math.inf))
    assert anything["censor"] == "interval" and math.isinf(anything["low"]) and math.isinf(anything["high"])
    more = pd.concat([frame, pd.DataFrame([{"level": 16, "size": 8, "gap": 2, **anything}] * 5)], ignore_index=True)
    a, b = censored.fit(frame, "cr-gap"), censored.fit(more, "cr-gap")
    assert b.uninformative == 5 and b.params == pytest.approx(a.params, abs=1e-6)
    assert b.loglik == pytest.approx(a.loglik, abs=1e-6)


def test_delta_bounds_from_each_arms_interval():
    assert censored.delta_bounds((3.0, 3.0), (4.5, 4.5), se=0.1) == censored.exact(-1.5, 0.1)
    below = censored.delta_bounds((-math.inf, 0.0), (2.0, 2.0))  # the variant fell below the ladder
    assert below["censor"] == "left" and below["high"] == -2.0
    above = censored.delta_bounds((20.0, math.inf), (17.0, 17.0))
    assert above["censor"] == "right" and above["low"] == 3.0
    base_below = censored.delta_bounds((1.0, 1.0), (-math.inf, 0.0))  # the base arm below: Delta at least 1
    assert base_below["censor"] == "right" and base_below["low"] == 1.0


def test_each_arms_interval_from_the_grids_flags():
    ladder = (2.0, 9.0)
    assert censored.arm_interval(4.3, "", ladder) == (4.3, 4.3)
    assert censored.arm_interval(2.0, "below", ladder) == (-math.inf, 2.0)
    assert censored.arm_interval(9.0, "above", ladder) == (9.0, math.inf)
    assert censored.arm_interval(7.5, "", ladder, saturated=(6.0, 9.0)) == (6.0, math.inf)  # open at the top
    assert censored.arm_interval(7.0, "", ladder, saturated=(6.0, 8.0)) == (6.0, 8.0)
    wipe = censored.delta_bounds(censored.arm_interval(7.0, "", ladder, (6.0, 8.0)), (5.5, 5.5))
    assert wipe["censor"] == "interval" and (wipe["low"], wipe["high"]) == (0.5, 2.5)
    with pytest.raises(ArenaError, match="flag"):
        censored.arm_interval(3.0, "under", ladder)
    with pytest.raises(ArenaError, match="outside the ladder"):
        censored.arm_interval(3.0, "", ladder, saturated=(1.0, 3.0))


def test_the_document_model_has_no_free_parameter_but_tau():
    frame = _grid(4)
    doc = censored.fit(frame, "document")
    assert doc.params == () and doc.names == () and doc.tau > 0
    assert doc.aic == pytest.approx(-2 * doc.loglik + 2)
    table = censored.compare(frame)
    assert list(table["model"])[0] in ("cr-gap", "gap+smooth")
    assert set(table["model"]) == set(cr_rule.MODELS)


def test_a_rule_is_chosen_by_the_censored_likelihood():
    rng = np.random.default_rng(9)
    rows = []
    for level in (1, 3, 5, 8, 12, 16):
        for size in (1, 2, 4, 8):
            for gap in (-6, -4, -3, -2, 0):
                latent = (-2.0 if gap <= -4 else 0.0) + rng.normal(0, 0.2)
                cell = censored.exact(latent, 0.1) if latent > -2.0 else censored.at_most(-2.0, 0.1)
                rows.append({"level": level, "size": size, "gap": gap, **cell})
    frame = pd.DataFrame(rows)
    effect = frame.loc[frame["gap"] <= -4, "censor"]
    assert 0.3 < (effect == "left").mean() < 0.7  # half the effect's cells are known only by their bound
    assert censored.fit_rule(frame, "below").rule == cr_rule.Rule("below", m=-2, n=4)
    rules = censored.candidate_rules("both")
    values = censored.rule_values(frame, rules)
    assert all(np.array_equal(values[i], r.value(frame)) for i, r in enumerate(rules))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([censored.at_most(-1.0, 0.1), censored.at_least(0.5, 0.1)], "no exact cell"),
        ([censored.exact(0.0, 0.1), censored.between(1.0, -1.0)], "wrong side"),
        ([censored.exact(0.0, 0.1), {**censored.at_most(-1.0), "delta": 0.5}], "wrong side"),
        ([censored.exact(0.0, 0.1), {**censored.at_least(1.0), "censor": "above"}], "unknown censoring"),
        ([censored.exact(0.0, -0.1)], "standard error"),
        ([censored.exact(0.0, 0.1), {**censored.at_least(0.0), "low": math.nan}], "finite low bound"),
    ],
)
def test_bad_cells_are_a_clear_error(rows, message):
    frame = pd.DataFrame([{"level": 1, "size": 1, "gap": 0, **r} for r in rows])
    with pytest.raises(ArenaError, match=message):
        censored.fit(frame, "none")


def test_bad_models_and_arms_are_a_clear_error():
    frame = _grid(1)
    with pytest.raises(ArenaError, match="unknown model"):
        censored.fit(frame, "quadratic")
    with pytest.raises(ArenaError, match="tau"):
        censored.fit(frame, "none", tau=-1.0)
    with pytest.raises(ArenaError, match="identify"):
        censored.fit(frame[frame["gap"] == 0], "cr-gap")
    with pytest.raises(ArenaError, match="low end above"):
        censored.delta_bounds((3.0, 2.0), (1.0, 1.0))
    with pytest.raises(ArenaError, match="column"):
        censored.fit(frame.drop(columns="se"), "none")
