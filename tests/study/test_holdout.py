"""The hold-out check on synthetic cells with a known answer: a right rule is accepted, a rule that fits the
fitted levels but not the held-out ones is reported as failing, the lookup table stands in when no simple rule
fits, and "within half a rung" of a censored cell means what the module says."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from arena.errors import ArenaError
from arena.study.calibration import censored, cr_rule, holdout

LEVELS = (1, 2, 3, 5, 7, 8, 10, 12, 14, 16)
"""The grid's fitted levels and the held-out ones (2, 7, 10, 14)."""
SIZES, GAPS = (1, 2, 3, 4, 6, 8), (-6, -4, -3, -2, 0, 2)
FLOOR = -1.6


def _cells(truth, seed: int = 1, tau: float = 0.1, se: float = 0.1) -> pd.DataFrame:
    """One cell per (level, size, gap): the truth plus spread and measurement error, 'at most FLOOR' below it."""
    rng = np.random.default_rng(seed)
    rows = []
    for level in LEVELS:
        for size in SIZES:
            for gap in GAPS:
                value = truth(level, size, gap) + rng.normal(0, tau) + rng.normal(0, se)
                cell = censored.exact(value, se) if value > FLOOR else censored.at_most(FLOOR, se)
                rows.append({"level": level, "size": size, "gap": gap, "monster": f"m{gap}", **cell})
    return pd.DataFrame(rows)


def _step(level: int, size: int, gap: int) -> float:
    return -1.0 if gap <= -4 else 0.0


def test_a_right_rule_is_accepted():
    frame = _cells(_step)
    out = holdout.run_holdout(frame, models=("none", "cr-gap"))
    rules = out.rules.set_index("form")
    assert out.rule == cr_rule.Rule("below", m=-1, n=4)
    assert rules.loc["below", "verdict"] == holdout.FITS
    assert rules.loc["below", "rmse"] < 0.3 and rules.loc["below", "within_half_rung"] > 0.9
    assert rules.loc["none", "verdict"] == rules.loc["all", "verdict"] == holdout.FAILS
    assert rules.loc[holdout.PUBLISHED, "rule"] == "a monster 4 or more CR below the party level counts 1 lower"
    assert out.recommendation.startswith("a monster 4 or more CR below the party level counts 1 lower")
    assert out.held_cells == 4 * len(SIZES) * len(GAPS) and out.fit_cells == 6 * len(SIZES) * len(GAPS)


def test_a_rule_that_fits_the_fitted_levels_but_not_the_held_out_ones_fails():
    """The truth has a size effect at levels 7, 10 and 14 only (none of them fitted): every rule and model fitted
    on levels 1, 3, 5, 8, 12, 16 fits there and is reported as failing out of sample."""

    def truth(level: int, size: int, gap: int) -> float:
        return _step(level, size, gap) - (1.5 if level in (7, 10, 14) and size >= 4 else 0.0)

    frame = _cells(truth)
    fit_set, held = holdout.split(frame)
    rule = censored.fit_rule(fit_set, "below").rule
    assert rule == cr_rule.Rule("below", m=-1, n=4)
    assert holdout.judge(fit_set, rule.value(fit_set))["verdict"] == holdout.FITS  # in sample it fits
    out = holdout.run_holdout(frame, models=("document", "cr-gap", "gap+smooth"))
    assert (out.rules["verdict"] == holdout.FAILS).all() and holdout.PUBLISHED in set(out.rules["form"])
    assert (out.models["verdict"] == holdout.FAILS).all()
    assert out.table_judgement["verdict"] == holdout.FAILS
    assert out.rule is None and out.recommendation.startswith("nothing fits")
    below = out.rules.set_index("form").loc["below"]
    assert below["rmse"] > 0.5 and below["within_half_rung"] < 2 / 3


def test_the_table_stands_in_when_no_simple_rule_fits():
    """A truth that alternates with group size and turns over at level 10: no rule of a form fits; the table by
    level band, size and gap band does, and the recommendation says so."""

    def truth(level: int, size: int, gap: int) -> float:
        sign = 1.0 if level < 10 else -1.0
        return sign * (0.9 if SIZES.index(size) % 2 else -0.9)

    out = holdout.run_holdout(_cells(truth), models=("none",))
    assert (out.rules["verdict"] == holdout.FAILS).all()
    assert out.table_judgement["verdict"] == holdout.FITS
    assert out.rule is None and out.recommendation.startswith("no simple rule fits")
    table = out.table.table
    assert set(table.columns) >= {"levels", "size", "gaps", "delta", "cells", "exact", "censored"}
    assert table["cells"].sum() == out.fit_cells


def test_within_half_a_rung_of_a_censored_cell():
    cells = pd.DataFrame(
        [
            {"level": 2, "size": 1, "gap": 0, **c}
            for c in (
                censored.exact(0.0, 0.1),
                censored.at_most(-1.0),
                censored.at_least(1.0),
                censored.between(-1.0, 1.0),
                censored.between(-math.inf, math.inf),
            )
        ]
    )
    inside = holdout.within(cells, np.array([0.5, -0.5, 0.5, 1.5, 9.0]))
    assert list(inside[:4]) == [1.0, 1.0, 1.0, 1.0] and math.isnan(inside[4])
    outside = holdout.within(cells, np.array([0.51, -0.49, 0.49, 1.51, 9.0]))
    assert list(outside[:4]) == [0.0, 0.0, 0.0, 0.0]
    judged = holdout.judge(cells, np.array([0.6, -0.5, 0.5, 1.5, 9.0]))
    assert judged["rmse"] == pytest.approx(0.6) and judged["within_half_rung"] == 0.75
    assert judged["uninformative"] == 1 and judged["verdict"] == holdout.FAILS  # 0.6 rung of error is too much
    no_exact = holdout.judge(cells.iloc[1:4], np.array([-0.5, 0.5, 1.5]))
    assert math.isnan(no_exact["rmse"]) and no_exact["verdict"] == holdout.FITS  # the share alone decides


def test_the_tables_medians_know_the_bounds():
    rows = [censored.exact(0.0, 0.1), censored.exact(0.2, 0.1), censored.at_most(-1.0)]  # median 0 either way
    rows += [censored.at_most(-1.0), censored.at_most(-1.0), censored.exact(0.0, 0.1)]  # median at most -1
    frame = pd.DataFrame(
        [{"level": 1, "size": 2 if i < 3 else 4, "gap": 0, **r} for i, r in enumerate(rows)],
    )
    table = holdout.lookup_table(frame).table.set_index("size")
    assert table.loc[2, "delta"] == 0.0 and table.loc[2, "censored"] == 1
    assert math.isnan(table.loc[4, "delta"]) and table.loc[4, "median_high"] == -1.0
    held = pd.DataFrame([{"level": 2, "size": s, "gap": 0, **censored.exact(0.0, 0.1)} for s in (2, 4, 8)])
    judged = holdout.judge(held, holdout.lookup_table(frame).predict(held))
    assert judged["unpredicted"] == 2 and judged["within_half_rung"] == pytest.approx(1 / 3)


def test_held_out_monsters_and_bad_splits():
    frame = _cells(_step)
    fit_set, held = holdout.split(frame, monsters=("m2",))
    assert (fit_set["monster"] != "m2").all() and set(held.loc[held["monster"] == "m2", "level"]) == set(LEVELS)
    with pytest.raises(ArenaError, match="no cell at the held-out levels"):
        holdout.split(frame, levels=(9,))
    with pytest.raises(ArenaError, match="nothing is left to fit"):
        holdout.split(frame, levels=LEVELS)
    with pytest.raises(ArenaError, match="no 'monster' column"):
        holdout.split(frame.drop(columns="monster"), monsters=("m2",))
    blank = pd.DataFrame([{"level": 2, "size": 1, "gap": 0, **censored.between(-math.inf, math.inf)}])
    with pytest.raises(ArenaError, match="uninformative"):
        holdout.judge(blank, np.zeros(1))
    wrong = frame.copy()
    wrong.loc[wrong["level"] == 1, ["censor", "low", "high"]] = ["interval", 1.0, -1.0]
    with pytest.raises(ArenaError, match="wrong side"):
        holdout.run_holdout(wrong, models=("none",))
