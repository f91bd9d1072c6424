"""Statistics: Wilson intervals, summaries, McNemar and Holm on constructed data, `arena compare`."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from experiment_fakes import FakeScenario, FakeSimulator, cli_app
from typer.testing import CliRunner

from arena.study.runs.experiment import run_experiment
from arena.study.runs.in_memory import run
from arena.study.statistics.comparisons import compare_cells
from arena.study.statistics.summaries import summarise, wilson
from arena.study.statistics.two_samples import (
    equivalence,
    holm,
    independent_proportion,
    mcnemar_p,
    paired_proportion,
    superiority,
)

runner = CliRunner()
app = cli_app()


def _wilson_reference(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson (1927), written out independently of statsmodels to hold it to the textbook formula."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(81, 263), (0, 10), (10, 10), (1, 2), (500, 1000), (3, 400)])
def test_wilson_interval(k, n):
    low, high = wilson(k, n)
    ref = _wilson_reference(k, n)
    assert low == pytest.approx(ref[0], abs=1e-9) and high == pytest.approx(ref[1], abs=1e-9)
    assert low - 1e-12 <= k / n <= high + 1e-12


def test_wilson_known_values():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)  # the classic "rule of three" neighbour
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)


def _frame(winners, rounds, hp, rules="d20", scenario="s", seeds=None):
    n = len(winners)
    return pd.DataFrame(
        {
            "scenario": scenario,
            "rules": rules,
            "index": np.arange(n),
            "seed": np.arange(n, dtype=np.uint64) if seeds is None else seeds,
            "winner": winners,
            "rounds": rounds,
            "party_hp_lost": hp,
        }
    )


def test_summarise_numbers():
    frame = _frame(["party"] * 6 + ["draw"] * 1 + ["monsters"] * 3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [0.5] * 10)
    frame["pcs_dead"] = [0] * 7 + [1, 2, 0]
    frame["hits_monsters"] = 2
    frame["attacks_monsters"] = 8
    frame["damage_monsters"] = 10
    frame["lucky_damage_monsters"] = [5] + [0] * 9
    s = summarise(frame).iloc[0]
    assert (s.n, s.wins, s.draws, s.losses) == (10, 6, 1, 3)
    assert s.win_rate == 0.6 and (s.win_low, s.win_high) == pytest.approx(_wilson_reference(6, 10))
    assert (s.rounds_mean, s.rounds_q1, s.rounds_median, s.rounds_q3) == (5.5, 3.25, 5.5, 7.75)
    assert s.pc_deaths_mean == pytest.approx(0.3) and s.pc_death_rate == pytest.approx(0.2)
    assert s.monster_hit_rate == 0.25 and s.lucky_damage_share == pytest.approx(0.05)


def test_mcnemar_on_constructed_pairs():
    base = np.array([True] * 50 + [False] * 50)
    new = base.copy()
    new[50:60] = True  # ten discordant pairs, all one way: exact p = 2 * 0.5**10
    assert mcnemar_p(base, new) == pytest.approx(2 * 0.5**10)
    balanced = base.copy()
    balanced[50:55] = True
    balanced[0:5] = False
    assert mcnemar_p(base, balanced) == pytest.approx(1.0)
    assert mcnemar_p(base, base) == 1.0
    d = paired_proportion(base, new)
    assert d.diff == pytest.approx(0.1) and d.low < 0.1 < d.high and d.paired


def test_independent_proportion():
    d = independent_proportion(50, 100, 70, 100)
    assert d.diff == pytest.approx(0.2) and d.low < 0.2 < d.high and 0 < d.p < 0.01 and not d.paired
    same = independent_proportion(50, 100, 50, 100)
    assert same.p == pytest.approx(1.0)


def test_holm_matches_step_down():
    reject, adjusted = holm([0.01, 0.04, 0.03, 0.5], 0.05)
    # sorted 0.01, 0.03, 0.04, 0.5 -> x4, x3, x2, x1, then a running maximum
    assert adjusted == pytest.approx([0.04, 0.09, 0.09, 0.5])  # 0.04 x 2 = 0.08 is raised to 0.09
    assert reject == [True, False, False, False]


def test_compare_cells_paired_and_holm():
    rng = np.random.default_rng(1)
    n = 400
    base_rows, new_rows = [], []
    for rules, shift in (("a", 0.0), ("b", 0.005), ("c", 0.15)):
        u = rng.random(n)
        base_rows.append(_frame(np.where(u < 0.5, "party", "monsters"), rng.integers(1, 9, n), u / 2, rules))
        new_rows.append(_frame(np.where(u < 0.5 + shift, "party", "monsters"), base_rows[-1]["rounds"], u / 2, rules))
    base, new = pd.concat(base_rows), pd.concat(new_rows)
    table = compare_cells(base, new, alpha=0.05, tolerance=0.02)
    win = table[table.metric == "win_rate"].set_index("rules")
    assert win["paired"].all() and (win["test"] == "paired t").all()
    assert win.loc["a", "p"] == 1.0 and not win.loc["a", "moved"]
    assert win.loc["c", "moved"] and win.loc["c", "diff"] == pytest.approx(0.15, abs=0.03)
    assert not win.loc["b", "moved"]  # within tolerance whatever its p
    _, expected = holm(win["p"].tolist(), 0.05)
    assert win["p_holm"].tolist() == pytest.approx(expected)
    rounds = table[table.metric == "rounds"]
    assert (rounds["diff"] == 0).all() and not rounds["moved"].any()


def test_compare_cells_independent_when_seeds_differ():
    base = _frame(["party"] * 60 + ["monsters"] * 40, [3] * 100, [0.2] * 100)
    new = _frame(["party"] * 40 + ["monsters"] * 60, [4] * 100, [0.2] * 100, seeds=np.arange(100, 200, dtype=np.uint64))
    table = compare_cells(base, new).set_index("metric")
    assert not table["paired"].any()
    assert table.loc["win_rate", "test"] == "welch t" and table.loc["win_rate", "moved"]
    assert table.loc["rounds", "test"] == "welch t" and table.loc["rounds", "diff"] == 1


@pytest.mark.parametrize("seed", range(6))
def test_compare_intervals_agree_with_holm(seed):
    """A flagged row's interval excludes zero and an unflagged row's includes it, whatever the mix of effects."""
    rng = np.random.default_rng(seed)
    n = 300
    base_rows, new_rows = [], []
    for k, shift in enumerate([0.0, 0.0, 0.004, -0.004, *rng.uniform(-0.12, 0.12, 8)]):
        u = rng.random(n)
        rounds = rng.integers(1, 9, n)
        base_rows.append(_frame(np.where(u < 0.5, "party", "monsters"), rounds, u / 2, f"r{k}"))
        new_rows.append(
            _frame(
                np.where(u < 0.5 + shift, "party", "monsters"),
                rounds + (rng.random(n) < abs(shift)),
                np.clip(u / 2 + shift / 3, 0, 1),
                f"r{k}",
            )
        )
    table = compare_cells(pd.concat(base_rows), pd.concat(new_rows), alpha=0.05)
    excludes = (table["low"] > 0) | (table["high"] < 0)
    assert (excludes == table["significant"]).all()
    assert table["significant"].any() and not table["significant"].all()
    assert ((table["level"] >= 0.95) & (table["level"] < 1)).all()


def test_equivalence_and_superiority():
    rng = np.random.default_rng(3)
    u = rng.random(2000)
    a, same = u < 0.5, u < 0.505
    assert equivalence(a, same, 0.03, paired=True) < 0.01
    assert equivalence(a, u < 0.6, 0.03, paired=True) > 0.5
    assert superiority(u < 0.6, a, paired=True) < 1e-10
    assert superiority(a, u < 0.6, paired=True) == pytest.approx(1.0)
    assert superiority(u < 0.6, a, paired=False) < 1e-3


def test_cli_compare(tmp_path):
    sc = FakeScenario(n=400)
    run_experiment([sc], tmp_path / "base", simulator=FakeSimulator(0.1))
    run_experiment([sc], tmp_path / "same", simulator=FakeSimulator(0.1))
    run_experiment([sc], tmp_path / "new", simulator=FakeSimulator(0.3))
    ok = runner.invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "same")])
    assert ok.exit_code == 0, ok.output
    assert "no cell moved" in ok.stdout
    moved = runner.invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "new"), "--json"])
    assert moved.exit_code == 1
    doc = json.loads(moved.stdout)
    cells = {(c["rules"], c["metric"]): c for c in doc["cells"]}
    assert doc["moved"] and cells[("3d6", "win_rate")]["moved"] and not cells[("d20", "win_rate")]["moved"]
    assert cells[("3d6", "win_rate")]["paired"] and cells[("3d6", "win_rate")]["diff"] == pytest.approx(0.2, abs=0.05)
    lenient = runner.invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "new"), "--tolerance", "0.5"])
    assert lenient.exit_code == 0
    missing = runner.invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and missing.stderr.startswith("error: ")


def test_run_frame_matches_summary():
    frame = run(FakeScenario(n=200), simulator=FakeSimulator())
    s = summarise(frame).set_index("rules")
    assert s.loc["3d6", "win_rate"] > s.loc["d20", "win_rate"]
