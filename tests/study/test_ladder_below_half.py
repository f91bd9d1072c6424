"""The CR ladder below 1/2 (issue 26): positions -4 (1/8) to -1 (1/3), their text, the cells the study's designs
choose (the grid gains low-CR groups, every other selection is as published), and the grid's ladder search
growing below 1/2."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from arena.study.calibration import calibrate as cal
from arena.study.calibration import equivalent_cr as eq
from arena.study.claims import baseline, design, grid
from arena.study.statistics.sequential import SequentialRule
from arena.world.challenge import cr_rank, format_cr
from arena.world.typical import srd_table_crs


def _cells(text: str) -> list[tuple[int, Fraction, int]]:
    return [(int(lv), Fraction(cr), int(size)) for lv, cr, size in (c.split(":") for c in text.split())]


# The cells of main before the rungs below 1/2 (81bf2ae), as level:CR:size.
GRID = _cells(
    "1:1:1 1:3:1 1:5:1 1:1:2 1:3:2 1:1/2:3 1:2:3 1:1:4 1:1/2:6 3:1:1 3:3:1 3:5:1 3:7:1 3:1:2 3:3:2 3:5:2 3:1/2:3 "
    "3:2:3 3:4:3 3:1:4 3:3:4 3:1/2:6 3:2:6 3:1:8 5:3:1 5:5:1 5:7:1 5:9:1 5:1:2 5:3:2 5:5:2 5:7:2 5:1/2:3 5:2:3 "
    "5:4:3 5:6:3 5:1:4 5:3:4 5:5:4 5:1/2:6 5:2:6 5:4:6 5:1:8 5:3:8 8:6:1 8:8:1 8:10:1 8:12:1 8:4:2 8:6:2 8:8:2 "
    "8:10:2 8:3:3 8:5:3 8:7:3 8:9:3 8:2:4 8:4:4 8:6:4 8:8:4 8:1:6 8:3:6 8:5:6 8:7:6 8:1/2:8 8:2:8 8:4:8 8:6:8 "
    "12:10:1 12:12:1 12:14:1 12:16:1 12:8:2 12:10:2 12:12:2 12:14:2 12:7:3 12:9:3 12:11:3 12:13:3 12:6:4 12:8:4 "
    "12:10:4 12:12:4 12:5:6 12:7:6 12:9:6 12:11:6 12:4:8 12:6:8 12:8:8 12:10:8 16:14:1 16:16:1 16:18:1 16:20:1 "
    "16:12:2 16:14:2 16:16:2 16:18:2 16:11:3 16:13:3 16:15:3 16:17:3 16:10:4 16:12:4 16:14:4 16:16:4 16:9:6 "
    "16:11:6 16:13:6 16:15:6 16:8:8 16:10:8 16:12:8 16:14:8"
)
SRD_GRID = _cells(
    "1:1:1 1:3:1 1:1:2 3:3:1 3:5:1 3:1:2 3:3:2 3:1:4 5:5:1 5:7:1 5:3:2 5:5:2 5:1:4 5:3:4 8:8:1 8:10:1 8:6:2 8:8:2 "
    "8:4:4 8:6:4"
)
ANCHOR = _cells("1:1:1 3:3:1 5:5:1 5:1:4 8:8:1 8:4:4 12:12:1 12:8:4 16:16:1 16:12:4")
JUDGING = _cells(
    "1:1:1 1:3:1 1:5:1 1:1:2 1:3:2 1:1:4 3:3:1 3:5:1 3:7:1 3:1:2 3:3:2 3:5:2 3:1:4 3:3:4 5:5:1 5:7:1 5:9:1 5:3:2 "
    "5:5:2 5:7:2 5:1:4 5:3:4 5:5:4 8:8:1 8:10:1 8:12:1 8:6:2 8:8:2 8:10:2 8:4:4 8:6:4 8:8:4 12:12:1 12:14:1 "
    "12:16:1 12:10:2 12:12:2 12:14:2 12:8:4 12:10:4 12:12:4 16:16:1 16:18:1 16:20:1 16:14:2 16:16:2 16:18:2 "
    "16:12:4 16:14:4 16:16:4"
)
LOW = _cells(
    "1:1/2:4 1:1/2:6 1:1/2:8 3:1/2:4 3:1/2:6 3:1/2:8 5:1:4 5:1:6 5:1:8 8:4:4 8:4:6 8:4:8 12:8:4 12:8:6 12:8:8 "
    "16:12:4 16:12:6 16:12:8"
)
BASELINE = (
    "1:1:1:anchor 1:1:4:el+4 1:5:1:el+4 3:3:1:anchor 3:1:2:anchor 3:3:4:el+4 3:7:1:el+4 5:5:1:anchor 5:3:2:anchor "
    "5:1:4:anchor 5:5:4:el+4 5:9:1:el+4 8:8:1:anchor 8:6:2:anchor 8:4:4:anchor 8:8:4:el+4 8:12:1:el+4 "
    "12:12:1:anchor 12:10:2:anchor 12:8:4:anchor 12:12:4:el+4 12:16:1:el+4 16:16:1:anchor 16:14:2:anchor "
    "16:12:4:anchor 16:16:4:el+4 16:20:1:el+4"
)
# The grid's new cells: the groups of CR 1/8-1/3 at levels 1, 3 and 5 (the ladder's EL: position + group offset).
NEW_GRID = _cells(
    "1:1/3:1 1:1/6:2 1:1/3:2 1:1/8:3 1:1/4:3 1:1/6:4 1:1/3:4 1:1/8:6 1:1/4:6 1:1/6:8 1:1/3:8 3:1/3:2 3:1/4:3 "
    "3:1/6:4 3:1/3:4 3:1/8:6 3:1/4:6 3:1/6:8 3:1/3:8 5:1/3:4 5:1/4:6 5:1/6:8 5:1/3:8"
)


def test_positions_reach_one_eighth():
    crs = {p: design.position_cr(p) for p in range(-6, 23)}
    assert [crs[p] for p in (-4, -3, -2, -1, 0, 1, 20)] == [
        Fraction(1, 8),
        Fraction(1, 6),
        Fraction(1, 4),
        Fraction(1, 3),
        Fraction(1, 2),
        Fraction(1),
        Fraction(20),
    ]
    assert [p for p, cr in crs.items() if cr is None] == [-6, -5, 21, 22]
    assert all(cr_rank(cr) == p for p, cr in crs.items() if cr is not None)
    assert design.rung_cr(-4) == Fraction(1, 8)
    for off in (-5, 21):
        with pytest.raises(ValueError, match="-4 to 20"):
            design.rung_cr(off)
    # the ladder's ends are the typical monsters' table's
    assert (cr_rank(min(srd_table_crs())), cr_rank(max(srd_table_crs()))) == (design.LOWEST_RUNG, design.HIGHEST_RUNG)


def test_position_text_names_the_rungs():
    assert [eq.position_text(float(p)) for p in range(-4, 2)] == ["1/8", "1/6", "1/4", "1/3", "1/2", "1"]
    assert eq.position_text(-1.5) == "-1.5" and eq.position_text(-0.25) == "-0.25" and eq.position_text(4.25) == "4.25"
    assert eq.position_text(-3.0000000001) == "1/6" and eq.position_text(math.nan) == "-"


def test_cr_text_says_a_position_as_the_cr_it_stands_for():
    """What a reader sees in the re-rated bestiary and the calibration sentences: a CR, never a position below 1
    (position -2.96 is a CR between 1/6 and 1/4, not "-2.96")."""
    assert [eq.cr_text(float(p)) for p in (-4, 0, 1, 5)] == ["1/8", "1/2", "1", "5"]
    assert [eq.cr_text(x) for x in (0.5, -1.5, -2.96, 12.884)] == ["0.75", "0.29", "0.17", "12.88"]
    assert eq.cr_text(6.08, decimals=1) == "6.1" and eq.cr_text(math.inf) == "-"
    assert eq.position_cr(-4.0) == pytest.approx(1 / 8) and eq.position_cr(0.5) == pytest.approx(0.75)
    assert [eq.ladder_position(c) for c in ("1/8", "1/6", "1/4", "1/3")] == [-4, -3, -2, -1]


def test_existing_cells_are_kept_and_the_grid_gains_low_cr_groups():
    cells = design.grid_cells(design.LEVELS)
    assert [c for c in cells if cr_rank(c[1]) >= 0] == GRID
    assert [c for c in cells if cr_rank(c[1]) < 0] == NEW_GRID
    srd = design.grid_cells(grid.SRD_LEVELS, grid.SRD_SIZES, grid.SRD_EL)
    assert [c for c in srd if cr_rank(c[1]) >= 0] == SRD_GRID
    assert [c for c in srd if cr_rank(c[1]) < 0] == _cells("1:1/3:2 1:1/6:4 1:1/3:4 3:1/3:4")
    assert list(design.anchor_cells()) == ANCHOR
    assert list(design.judging_cells()) == JUDGING and list(design.low_cells()) == LOW
    # the grid also fights the levels held out of its fit (issue 26): every old cell is still there
    whole = design.grid_cells()
    assert set(cells) <= set(whole) and {c[0] for c in whole} == set(design.GRID_LEVELS)
    assert {c[0] for c in set(whole) - set(cells)} == {2, 7, 10, 14}
    assert " ".join(f"{c.level}:{format_cr(c.cr)}:{c.size}:{c.check}" for c in baseline.cells()) == BASELINE


def test_calibrate_ladder_reaches_below_half():
    assert cal.ladder_rungs(2, 4, 4) == [Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), *map(Fraction, range(1, 7))]
    assert cal.ladder_rungs(-1, 4, 4)[0] == Fraction(1, 8)  # a goblin's (CR 1/3) ladder stops at the table's end
    monsters = {(c.level, c.monster, c.size) for c in cal.grid_cells()}
    assert (1, "typical-cr1/3", 1) in monsters and (3, "typical-cr1/8", 8) in monsters


def _store(state: grid.CellState, difficulty: dict[str, float], n: int) -> dict:
    """Per-encounter values of every series the cell fights: ``difficulty[label]`` plus noise, paired by index."""
    rng = np.random.default_rng(7)
    noise = rng.normal(0, 0.01, n)
    out = {}
    for label, m, rules in grid._series(state, 0, 0, n):
        values = difficulty[label] + noise
        out[(m.name, rules, 0)] = {measure: values for measure in (grid.MEASURE, *grid.SIDE_MEASURES)}
    return out


def test_grid_search_grows_below_half():
    """A group of four CR 1/3 whose variants are easier than every rung the search starts with (the cells censored
    at 1/2 before): the search adds 1/8 (-4) and reads c* there; a variant easier still stays censored at 1/8, where
    the ladder ends. The subject under d20 is the rung of its own CR (the same matchup), so c*(d20) is -1."""
    rule = SequentialRule((60,), math.inf)
    [state] = [s for s in grid._cells(quick=True) if s.cell == (1, Fraction(1, 3), 4) and s.population == "typical"]
    assert state.rungs == {-3, -2, -1, 0, 1}
    ladder = {f"rung {q}": 0.3 + 0.05 * q for q in range(-4, 21)}

    def evaluate(variants: float) -> bool:
        arms = {label: variants for label in state.arms} | {"d20": ladder["rung -1"]}
        series = grid._series_values(state, 0, 1, [60], _store(state, {**arms, **ladder}, 60), None)
        state.rungs, state.rows, grew = grid.judge_cell(grid.Judging(state, series, 0, 0, rule))
        return grew

    assert evaluate(0.12) and state.rungs == {-4, -3, -2, -1, 0, 1}
    assert not evaluate(0.12)  # the search stops: nothing is censored any more
    rows = {r["variant"]: r for r in state.rows}
    assert rows["d20"]["c_star"] == pytest.approx(-1.0, abs=1e-9) and rows["3d6"]["censored"] == ""
    assert rows["3d6"]["c_star"] == pytest.approx(-3.6, abs=0.05) and rows["3d6"]["delta"] == pytest.approx(
        -2.6, abs=0.05
    )
    assert rows["3d6"]["rungs"] == "-4..1" and rows["3d6"]["cr"] == "1/3" and rows["3d6"]["gap"] == -2
    assert not evaluate(0.05)  # no rung below 1/8 to grow to
    assert {r["censored"] for r in state.rows if r["variant"] != "d20"} == {"below"}
    assert {r["censor"] for r in state.rows if r["variant"] != "d20"} == {"left"}  # at most 1/8 - c*(d20)
    assert [r["high"] for r in state.rows if r["variant"] != "d20"] == [pytest.approx(-3.0, abs=1e-9)] * 7
    assert min(state.rungs) == design.LOWEST_RUNG
