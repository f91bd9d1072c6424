"""Summaries of a run: per scenario and rule set, the win rate with its Wilson interval, draws, rounds, hit points
lost, deaths, the monsters' hit rate and the share of lucky damage (``summary.csv``, the report's tables).

Why a module of its own: a run writes its summary the moment it completes, and the report and ``arena report``
read the same one; its interval is statsmodels' Wilson interval, made exact at 0 and n.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from arena.study.statistics.encounters import CELL, VARIANTS

CONFIDENCE = 0.95
SUMMARY_COLUMNS = [
    "winner",
    "rounds",
    "party_hp_lost",
    "pcs_dead",
    "hits_monsters",
    "attacks_monsters",
    "lucky_damage_monsters",
    "damage_monsters",
    "damage_by_monsters",
]
"""The record fields :func:`summarise` reads (read only these from a large run)."""


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion (statsmodels ``proportion_confint(method="wilson")``)."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return float("nan"), float("nan")
    if not 0 <= successes <= n:
        raise ValueError(f"wilson: {successes} successes out of {n}")
    low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    # In floating point the bounds at 0 and n come back as 1.7e-18 or 0.9999999999999999 for about a third of
    # all n, which puts the estimate outside its own interval: they are exactly 0 and 1 there.
    rate = successes / n
    low = 0.0 if successes == 0 else min(max(float(low), 0.0), rate)
    high = 1.0 if successes == n else max(min(float(high), 1.0), rate)
    return low, high


def _ratio(num: float, den: float) -> float:
    return float(num) / float(den) if den else float("nan")


def _col(frame: pd.DataFrame, *names: str) -> pd.Series | None:
    for name in names:
        if name in frame:
            return frame[name]
    return None


def summarise(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per scenario and rule set (in the order they first appear).

    Columns: the variants, ``n``, ``wins``, ``draws``, ``losses``, ``win_rate`` with its 95% Wilson interval
    (``win_low``, ``win_high``), ``draw_rate``, rounds (mean, quartiles), party hit points lost (mean, median;
    a fraction of the party's total), PC deaths (mean per encounter, and the share of encounters with one),
    the monsters' hit rate (hits / attacks over all encounters), and ``lucky_damage_share``: the share of the
    monsters' damage dealt by lucky hits (hits whose chance was 25% or less).
    """
    rows = []
    for (scenario, rules), cell in frame.groupby(CELL, sort=False):
        n = len(cell)
        wins = int((cell["winner"] == "party").sum())
        draws = int((cell["winner"] == "draw").sum())
        low, high = wilson(wins, n)
        rounds = cell["rounds"].to_numpy(dtype=float)
        hp = cell["party_hp_lost"].to_numpy(dtype=float)
        row: dict[str, Any] = {"scenario": scenario, "rules": rules}
        for v in VARIANTS:
            if v in cell:
                row[v] = cell[v].iloc[0]
        row.update(
            n=n,
            wins=wins,
            draws=draws,
            losses=n - wins - draws,
            win_rate=wins / n,
            win_low=low,
            win_high=high,
            draw_rate=draws / n,
            rounds_mean=rounds.mean(),
            rounds_q1=np.percentile(rounds, 25),
            rounds_median=np.median(rounds),
            rounds_q3=np.percentile(rounds, 75),
            hp_lost_mean=hp.mean(),
            hp_lost_median=np.median(hp),
        )
        dead = _col(cell, "pcs_dead")
        row["pc_deaths_mean"] = float(dead.mean()) if dead is not None else float("nan")
        row["pc_death_rate"] = float((dead > 0).mean()) if dead is not None else float("nan")
        hits, attacks = _col(cell, "hits_monsters"), _col(cell, "attacks_monsters")
        row["monster_hit_rate"] = (
            _ratio(hits.sum(), attacks.sum()) if hits is not None and attacks is not None else float("nan")
        )
        lucky = _col(cell, "lucky_damage_monsters")
        damage = _col(cell, "damage_monsters", "damage_by_monsters")
        row["lucky_damage_share"] = (
            _ratio(lucky.sum(), damage.sum()) if lucky is not None and damage is not None else float("nan")
        )
        rows.append(row)
    return pd.DataFrame(rows)
