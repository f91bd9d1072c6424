"""The group-CR verdict judged out of sample, on synthetic grids with a known answer, and the grid's censoring of
each arm (saturated, off the ladder, nothing spent) read from what the arms and rungs cost."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from arena.study.calibration import censored, holdout
from arena.study.claims import group_cr
from arena.study.claims.grid import SATURATED, Grid, _arm_interval
from arena.study.statistics.inference import INCONCLUSIVE, NOT, SUPPORTED
from arena.study.statistics.sequential import SequentialRule

LEVELS = (1, 2, 3, 5, 7, 8, 10, 12, 14, 16)
SIZES, GAPS = (1, 2, 3, 4, 6, 8), (-6, -4, -2, 0, 2)


def _grid(truth, srd_truth=None, seed: int = 3) -> Grid:
    """A grid whose 3d6 cells are ``truth(level, size, gap)`` plus spread (0.1) and error (se 0.1); every variant
    gets the same cells; an SRD population from ``srd_truth`` at four levels."""
    rng = np.random.default_rng(seed)
    rows = []

    def add(population, monster, level, size, gap, value):
        for variant in ("d20", "3d6"):
            v = 0.0 if variant == "d20" else value + rng.normal(0, 0.1) + rng.normal(0, 0.1)
            cell = censored.exact(v, 0.1)
            rows.append(
                {
                    "population": population,
                    "monster": monster,
                    "level": level,
                    "size": size,
                    "gap": gap,
                    "variant": variant,
                    **cell,
                }
            )

    for level in LEVELS:
        for size in SIZES:
            for gap in GAPS:
                add("typical", f"typical-cr{max(1, level + gap)}", level, size, gap, truth(level, size, gap))
    for level in (1, 3, 5, 8):
        for size in (1, 2, 4):
            for gap in (-2, 0):
                for j in range(5):  # five creatures per gap, each met at every level and size
                    add("srd", f"srd/m{gap}-{j}", level, size, gap, (srd_truth or truth)(level, size, gap))
    return Grid(pd.DataFrame(rows), 0, 0.0, 0, 0, SequentialRule((10,), 1.0))


def _document(level: int, size: int, gap: int) -> float:
    return -1.0 if size >= 4 else 0.0


def _gap_line(level: int, size: int, gap: int) -> float:
    return 0.4 * gap


def test_the_document_is_supported_when_its_step_is_the_truth_out_of_sample():
    grid = _grid(_document)
    j = group_cr.judge_grid(grid)
    assert j.verdict == SUPPORTED
    doc = j.holdouts["3d6"].models.set_index("model").loc["document"]
    assert doc["verdict"] == holdout.FITS and doc["rmse"] < 0.3
    assert group_cr.group_cr_result(grid)["robustness"].startswith("robust")


def test_the_document_is_not_supported_when_the_truth_is_a_cr_gap_line():
    j = group_cr.judge_grid(_grid(_gap_line))
    assert j.verdict == NOT
    assert "not supported" not in j.holdouts["3d6"].recommendation  # the recommendation is a rule or a table
    models = j.holdouts["3d6"].models.set_index("model")
    assert models.loc["cr-gap", "verdict"] == holdout.FITS and models.loc["document", "verdict"] == holdout.FAILS


def test_the_srd_population_that_disagrees_turns_the_verdict_and_says_so():
    grid = _grid(_document, srd_truth=_gap_line)
    result = group_cr.group_cr_result(grid)
    assert result["verdict"] == SUPPORTED
    assert result["robustness"].startswith(f"population=srd -> {NOT}")
    population = group_cr.judge_grid(grid).population
    assert population is not None and population.creatures == 10 and abs(population.mean) < 0.2
    assert population.rests_on == [] and "leaving out any one creature keeps the verdict" in population.text()


def test_a_population_verdict_resting_on_one_creature_says_so():
    from arena.study.claims import srd_population

    rows = []
    for j, step in enumerate([-1.0, -0.95, -1.05, -1.0, 3.0]):  # one creature far off: without it, supported
        for level, size in ((1, 1), (3, 2), (5, 4), (8, 4)):
            delta = step if size >= 4 else 0.0
            rows.append({"monster": f"srd/c{j}", "level": level, "size": size, "gap": 0, **censored.exact(delta, 0.1)})
    out = srd_population.population(pd.DataFrame(rows))
    assert out.creatures == 5 and out.verdict == INCONCLUSIVE and out.rests_on == ["srd/c4"]
    assert "rests on srd/c4" in out.text()


def test_the_verdict_rule_as_written():
    def table(doc_rmse, doc_fits, best_rmse, best_fits):
        return pd.DataFrame(
            {
                "model": ["document", "cr-gap"],
                "rmse": [doc_rmse, best_rmse],
                "verdict": [holdout.FITS if doc_fits else holdout.FAILS, holdout.FITS if best_fits else holdout.FAILS],
            }
        )

    assert group_cr.verdict(table(0.30, True, 0.27, True)) == SUPPORTED  # within 0.05 of the best
    assert group_cr.verdict(table(0.40, True, 0.30, True)) == INCONCLUSIVE  # fits, but 0.10 behind
    assert group_cr.verdict(table(0.60, False, 0.30, True)) == NOT  # fails where another fits
    assert group_cr.verdict(table(0.70, False, 0.65, False)) == INCONCLUSIVE  # nothing fits, close
    assert group_cr.verdict(table(0.90, False, 0.70, False)) == NOT  # nothing fits, the best far ahead


def test_held_out_cells_are_never_fitted():
    grid = _grid(_document)
    h = group_cr.judge_grid(grid).holdouts["3d6"]
    typical = grid.cells[(grid.cells["population"] == "typical") & (grid.cells["variant"] == "3d6")]
    held = typical["level"].isin(holdout.HELD_OUT_LEVELS) | typical["monster"].isin(holdout.HELD_OUT_MONSTERS)
    assert h.held_cells == int(held.sum()) and h.fit_cells == int((~held).sum())


def test_the_hold_out_checks_computed_on_two_workers_are_those_of_one_process():
    """A study on workers judges its grid there (``judge_grid(grid, workers=...)``: each variant's check a task):
    every table is the one computed in the parent."""
    here = group_cr.judge_grid(_grid(_document))
    there = group_cr.judge_grid(_grid(_document), workers=2)
    assert list(there.holdouts) == list(here.holdouts) and "3d6" in here.holdouts
    for variant, h in here.holdouts.items():
        pd.testing.assert_frame_equal(there.holdouts[variant].models, h.models)
        pd.testing.assert_frame_equal(there.holdouts[variant].rules, h.rules)
        assert there.holdouts[variant].recommendation == h.recommendation
    assert there.verdict == here.verdict and there.srd_verdict == here.srd_verdict


RUNGS = [1, 2, 3, 4, 5]


def test_a_saturated_arm_is_the_span_of_the_rungs_that_saturate_open_at_the_top():
    rung_hp = np.array([0.3, 0.6, 0.96, 0.99, 1.0])
    interval, why = _arm_interval({"c_star": 4.0, "censored": ""}, 0.98, 0.9, RUNGS, rung_hp, rung_hp)
    assert why == "saturated" and interval == (3.0, math.inf)


def test_a_saturated_span_closed_below_the_top_is_an_interval():
    rung_hp = np.array([0.3, 0.96, 0.97, 0.9, 0.8])  # noise: a saturated stretch, then lower rungs
    interval, _ = _arm_interval({"c_star": 2.5, "censored": ""}, SATURATED, 0.9, RUNGS, rung_hp, rung_hp)
    assert interval == (2.0, 3.0)


def test_nothing_spent_is_at_most_the_last_rung_that_costs_nothing():
    cost = np.array([0.0, 0.0, 0.1, 0.3, 0.5])
    interval, why = _arm_interval({"c_star": 1.5, "censored": ""}, 0.0, 0.0, RUNGS, cost, cost)
    assert why == "nothing spent" and interval == (-math.inf, 2.0)


def test_off_the_ladder_and_measured_arms():
    cost = np.array([0.1, 0.2, 0.3, 0.4, 0.5])
    assert _arm_interval({"c_star": 1.0, "censored": "below"}, 0.05, 0.05, RUNGS, cost, cost) == (
        (-math.inf, 1.0),
        "below",
    )
    assert _arm_interval({"c_star": 5.0, "censored": "above"}, 0.6, 0.6, RUNGS, cost, cost) == (
        (5.0, math.inf),
        "above",
    )
    assert _arm_interval({"c_star": 2.5, "censored": ""}, 0.25, 0.25, RUNGS, cost, cost) == ((2.5, 2.5), "")
