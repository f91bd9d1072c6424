"""The equivalent-CR interpolation on synthetic difficulty curves with known answers, and the batch runner."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from arena.errors import ArenaError
from arena.study.calibration import calibrate as cal
from arena.study.calibration import equivalent_cr as eq
from arena.study.runs import matchups


def test_interpolates_linearly_between_rungs():
    assert eq.equivalent_position([0, 1, 2, 3], [0.1, 0.3, 0.5, 0.9], 0.4)[0] == pytest.approx(1.5)
    assert eq.equivalent_position([0, 1, 2, 3], [0.1, 0.3, 0.5, 0.9], 0.8)[0] == pytest.approx(2.75)
    assert eq.equivalent_position([0, 1, 2, 3], [0.1, 0.3, 0.5, 0.9], 0.3)[0] == pytest.approx(1.0)


def test_flags_targets_off_the_ladder():
    assert eq.equivalent_position([1, 2, 3], [0.2, 0.4, 0.6], 0.1) == (1.0, "below")
    assert eq.equivalent_position([1, 2, 3], [0.2, 0.4, 0.6], 0.7) == (3.0, "above")


def test_flat_stretch_gives_its_middle_and_violations_are_pooled():
    assert eq.equivalent_position([0, 1, 2, 3], [0.0, 0.5, 0.5, 1.0], 0.5)[0] == pytest.approx(1.5)
    # 0.6 then 0.4 is not monotone: pooled to 0.5, 0.5
    fitted = eq.isotonic(np.array([0.2, 0.6, 0.4, 0.8]))
    assert fitted.tolist() == pytest.approx([0.2, 0.5, 0.5, 0.8])


def _synthetic(shift: float, n: int, rng: np.random.Generator):
    """A ladder whose loss probability is logistic in the position; the subject is the rung 5 curve moved by
    ``shift`` rungs, so its true equivalent CR is 5 + shift."""

    def p(x: float) -> float:
        return 1 / (1 + np.exp(-(x - 5)))

    u = rng.random(n)  # common random numbers: the same uniforms for every rung and arm
    ladder = {float(x): (u < p(x)).astype(float) for x in range(1, 10)}
    arms = {"d20": (u < p(5.0)).astype(float), "3d6": (u < p(5.0 + shift)).astype(float)}
    return ladder, arms


def test_recovers_known_equivalent_cr_and_bootstrap_covers_it():
    rng = np.random.default_rng(3)
    ladder, arms = _synthetic(-1.0, 4000, rng)
    out = eq.equivalent_cr(ladder, arms, resamples=200, seed=1)
    assert out["d20"]["c_star"] == pytest.approx(5.0)
    assert out["3d6"]["c_star"] == pytest.approx(4.0, abs=0.15)
    assert out["3d6"]["c_star_low"] <= 4.0 <= out["3d6"]["c_star_high"]
    assert out["3d6"]["delta_low"] <= -1.0 <= out["3d6"]["delta_high"]
    assert out["3d6"]["delta_high"] < 0  # and it excludes "no change"
    assert out["3d6"]["censored"] == ""


def _one_resample_at_a_time(ladder, arms, resamples, seed, confidence):
    """The bootstrap written plainly (one resample, one isotonic fit, one search per arm at a time): the reference
    the vectorised :func:`equivalent_cr` must agree with to the bit."""
    positions = sorted(ladder)
    n = min(len(v) for v in [*ladder.values(), *arms.values()])
    lad = np.vstack([ladder[p][:n] for p in positions])
    sub = np.vstack([arms[a][:n] for a in arms])
    rng = np.random.default_rng(seed)
    boots: dict[str, list[float]] = {a: [] for a in arms}
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        fit = eq.fitted_curve(positions, lad[:, idx].mean(axis=1))
        means = sub[:, idx].mean(axis=1)
        for i, a in enumerate(arms):
            boots[a].append(eq.reached(fit, float(means[i]))[0])
    lo, hi = (1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100
    out = {}
    for a in arms:
        deltas = np.subtract(boots[a], boots["d20"])
        out[a] = (
            np.percentile(boots[a], lo),
            np.percentile(boots[a], hi),
            np.percentile(deltas, lo),
            np.percentile(deltas, hi),
        )
    return out


@pytest.mark.parametrize("kind", ["continuous", "ties", "saturated", "binary"])
def test_vectorised_bootstrap_agrees_with_one_resample_at_a_time(kind):
    """The vectorised bootstrap (resamples at once, isotonic fits of every row at once) against the plain loop of
    one resample at a time with scipy's isotonic regression: the same intervals and flags, to rounding."""
    rng = np.random.default_rng({"continuous": 1, "ties": 2, "binary": 3, "saturated": 4}[kind])
    for trial in range(40):
        k, n, m = int(rng.integers(2, 12)), int(rng.integers(2, 60)), int(rng.integers(1, 9))

        def values(scale: float, n: int = n) -> np.ndarray:
            if kind == "continuous":
                return rng.random(n) * scale
            if kind == "binary":
                return (rng.random(n) < scale).astype(float)
            if kind == "saturated":  # rungs that lose every hit point, or none, in every fight
                return np.clip(rng.random(n) * 3 * scale - scale, 0.0, 1.0)
            return np.minimum(1.0, rng.integers(0, 5, n) / 4 * scale)

        positions = sorted(rng.choice(21, k, replace=False).astype(float))
        ladder = {p: values((i + 1) / k) for i, p in enumerate(positions)}
        arms = {("d20" if j == 0 else f"arm {j}"): values(rng.random()) for j in range(m)}
        got = eq.equivalent_cr(ladder, arms, resamples=50, seed=trial, confidence=0.983)
        want = _one_resample_at_a_time(ladder, arms, 50, trial, 0.983)
        for a in arms:
            r = got[a]
            assert (r["c_star_low"], r["c_star_high"], r["delta_low"], r["delta_high"]) == pytest.approx(
                want[a], rel=1e-12, abs=1e-12
            )  # the rows' isotonic fits are scipy's up to rounding (the minimax form, all rows at once)
        lad = np.vstack([ladder[p][:n] for p in positions]).mean(axis=1)
        sub = np.vstack([arms[a][:n] for a in arms]).mean(axis=1)
        for i, a in enumerate(arms):
            c_star, flag = eq.reached(eq.fitted_curve(positions, lad), sub[i])
            assert got[a]["c_star"] == pytest.approx(c_star, rel=1e-12, abs=1e-12) and got[a]["censored"] == flag


def test_bootstrap_covers_the_truth_most_of_the_time():
    hits = 0
    for s in range(20):
        ladder, arms = _synthetic(-0.5, 600, np.random.default_rng(100 + s))
        r = eq.equivalent_cr(ladder, arms, resamples=150, seed=s)["3d6"]
        hits += r["c_star_low"] <= 4.5 <= r["c_star_high"]
    assert hits >= 16


def test_discrimination_picks_the_mid_pair():
    rng = np.random.default_rng(0)
    ladder, _ = _synthetic(0, 2000, rng)
    data = {x: {"win": v, "hp-lost": v * 0.5 + rng.random(len(v)) * 0.5, "death": v} for x, v in ladder.items()}
    out = eq.discrimination(data)
    assert out["between"] == (4.0, 5.0) or out["between"] == (5.0, 6.0)
    assert out["win"] > 0


def test_ladder_positions_and_rungs():
    assert eq.ladder_position("1/2") == 0
    assert eq.ladder_position(7) == 7
    rungs = cal.ladder_rungs(0, 4, 4)
    assert rungs[0] == cal.ladder_rungs(-4, 0, 0)[0] == Fraction(1, 8)  # clamped at CR 1/8, the table's lowest
    assert max(rungs) == 4
    assert eq.position_text(0.0) == "1/2" and eq.position_text(4.25) == "4.25"


def test_predicted_delta_is_the_bell_curve_rule():
    assert [cal.predicted_delta(s, "3d6") for s in (1, 2, 3, 4, 6, 8)] == [0, 0, 0, -1, -1, -1]
    assert cal.predicted_delta(8, "d20+prad") == 0


def test_raise_attacks_adds_to_every_bonus():
    from arena.world.party import generate_party

    fighter = generate_party(5)[0]
    raised = matchups.raise_attacks(fighter, 1)
    before = [b for r in fighter.attack for a in r for b in a.bonuses]
    after = [b for r in raised.attack for a in r for b in a.bonuses]
    assert after == [b + 1 for b in before] and before


def test_batch_is_paired_and_independent_of_workers():
    ms = [
        matchups.Matchup(2, "typical-cr1", 2, ("d20", "3d6"), 12, seed=5),
        matchups.Matchup(2, "typical-cr1", 2, ("d20+prad",), 8, seed=5),
    ]  # merged with the first
    one = matchups.run_batch(ms, workers=1, chunk_size=5)
    assert len(one.matchups) == 1 and one.encounters == 36
    two = matchups.run_batch(ms, workers=2, chunk_size=5)
    assert one.frame.equals(two.frame)
    rows = one.rows(ms[0], "3d6")
    assert rows["index"].tolist() == list(range(12))


def test_calibrate_small_and_errors():
    table = cal.calibrate("typical-cr1", 2, [1], ["3d6"], n=10, metric="hp-lost", resamples=20)
    assert list(table["size"]) == [1] and table["c_star_d20"].iloc[0] == pytest.approx(1.0)
    assert table["predicted_delta"].iloc[0] == 0
    with pytest.raises(ArenaError):
        cal.calibrate("typical-cr1", 2, [1], ["3d6"], n=10, metric="fun")
    with pytest.raises(ArenaError):
        cal.calibrate("typical-cr1", 0, [1], ["3d6"], n=10)


def test_grid_cells_respect_the_el_window():
    from arena.world.challenge import cr_rank, group_el
    from arena.world.typical import parse_typical_name

    cells = cal.grid_cells(levels=(5,), sizes=(1, 4))
    assert cells
    for c in cells:
        el = cr_rank(group_el(parse_typical_name(c.monster), c.size))
        assert 3 <= el <= 8


def test_isotonic_rows_at_once_are_scipys_fits():
    """The minimax form fitted to many rows at once equals scipy's pool-adjacent-violators row by row (to rounding),
    for dipping rows, ties, saturated 0s and 1s, and rows already in order (kept as they are)."""
    rng = np.random.default_rng(5)
    rows = [rng.random(int(rng.integers(2, 14))) for _ in range(300)]
    rows += [np.round(rng.random(9) * 4) / 4 for _ in range(100)]  # ties
    rows += [np.clip(rng.random(9) * 3 - 1, 0, 1) for _ in range(100)]  # saturated rungs
    rows += [np.sort(rng.random(9)) for _ in range(50)]  # in order
    for k in sorted({len(r) for r in rows}):
        block = np.vstack([r for r in rows if len(r) == k])
        got = eq._isotonic_rows(block)
        want = np.vstack([eq.isotonic(r) for r in block])
        assert np.allclose(got, want, rtol=0, atol=1e-12)
        assert (np.diff(got, axis=1) >= -1e-15).all()
