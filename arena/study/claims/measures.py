"""How each encounter claim is measured: the arms it fights, and from their rows (per matchup, paired on the
encounter index) the stated parts (an effect, its direction and margin) and the numbers reported beside them.

Why a module of its own: the measures are the claims' arithmetic, separate from their statements (the quote, the
criterion, the matchups: :mod:`arena.study.claims.statements`) and from running and judging them
(:mod:`arena.study.claims.evaluation`). Every effect is the mean of per-matchup effects with an interval over
matchups (:mod:`arena.study.statistics.inference`): t for differences, a cluster bootstrap for ratios.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt
import pandas as pd

from arena.study.claims import design
from arena.study.claims.design import Arm
from arena.study.statistics import inference as inf

INCONCLUSIVE = inf.INCONCLUSIVE


@dataclass
class Data:
    """The rows of one claim under one variation: per arm, one frame per matchup (the same matchups in order)."""

    units: list[tuple[design.Cell, str]]
    frames: dict[str, list[pd.DataFrame]]

    def __getitem__(self, arm: Arm) -> list[pd.DataFrame]:
        return self.frames[arm.name]


def _win(f: pd.DataFrame, side: str = "party") -> np.ndarray:
    return (f["winner"].to_numpy() == side).astype(float)


def _hp(f: pd.DataFrame) -> np.ndarray:
    return 100 * f["party_hp_lost"].to_numpy(float)


def _paired(data: Data, a: Arm, b: Arm, value: Callable[[pd.DataFrame], np.ndarray]) -> list[np.ndarray]:
    """Per matchup, the per-fight differences value(b) - value(a) (paired on the index)."""
    return [value(fb) - value(fa) for fa, fb in zip(data[a], data[b], strict=True)]


@dataclass
class Part:
    """One stated test of a claim: its effect, direction and margin (or equivalence band)."""

    name: str
    effect: inf.Effect
    margin: float
    direction: int = 1
    kind: str = "directional"
    units: str = "points"
    verdict: str = INCONCLUSIVE
    p_adjusted: tuple[float, float, float] = (float("nan"), float("nan"), float("nan"))
    """Holm-adjusted p of the tests that decide ``supported``, ``not supported`` and the direction alone."""

    @property
    def threshold(self) -> float:
        """The value the claim's effect must pass (a ratio's margin is the ratio itself)."""
        return self.margin if self.units == "ratio" or self.kind == "equivalence" else self.direction * self.margin

    @property
    def has_direction_test(self) -> bool:
        """Whether showing the direction alone says less than the margin: only when the threshold lies beyond the
        no-effect value in the predicted direction (not for an equivalence band, a margin of 0, or a rate held
        against a level such as the 5% of a natural 20)."""
        return self.kind != "equivalence" and self.direction * (self.threshold - self.effect.no_effect) > 0

    def pvalues(self) -> tuple[float, float, float]:
        """The raw p of the tests that decide ``supported``, ``not supported`` and ``direction shown`` (NaN where
        the part has no such test: NaN stays out of Holm's family)."""
        if self.kind == "equivalence":
            return (*inf.equivalence(self.effect, self.margin), float("nan"))
        e = self.effect
        return e.p_beyond, e.p_within, e.p_direction if self.has_direction_test else float("nan")

    def row(self) -> dict:
        e = self.effect
        supported, against, direction = self.p_adjusted
        return {
            "part": self.name,
            "estimate": e.estimate,
            "low": e.low,
            "high": e.high,
            "units": self.units,
            "claim predicts": ("|effect| < " if self.kind == "equivalence" else "> " if self.direction > 0 else "< ")
            + f"{self.threshold:g}",
            "matchups": e.units,
            "fights per arm": e.fights,
            "p supported (Holm)": supported,
            "p not supported (Holm)": against,
            "p direction (Holm)": direction,
            "verdict": self.verdict,
        }


def _diff_part(
    name: str, diffs: list[np.ndarray], margin: float, direction: int, units: str = "points", kind: str = "directional"
) -> Part:
    e = inf.cluster_mean(diffs, margin=margin, direction=direction)
    return Part(name, e, margin, direction, kind, units)


def _fights(data: Data) -> int:
    """The fights per arm behind a claim's matchups (every arm fights the same encounters)."""
    frames = next(iter(data.frames.values()), [])
    return int(sum(len(f) for f in frames))


def _ratio_part(
    name: str, num: npt.ArrayLike, den: npt.ArrayLike, margin: float, direction: int, seed: int, fights: int
) -> Part:
    return Part(
        name,
        inf.cluster_ratio(num, den, margin=margin, direction=direction, seed=seed, fights=fights),
        margin,
        direction,
        units="ratio",
    )


D20, B36 = Arm("d20"), Arm("3d6")


def favourite_gain(data: Data, seed: int) -> tuple[list[Part], dict]:
    diffs, rows = [], []
    for (cell, monster), a, b in zip(data.units, data[D20], data[B36], strict=True):
        party = (_win(a).mean() + _win(b).mean()) / 2
        mons = (_win(a, "monsters").mean() + _win(b, "monsters").mean()) / 2
        fav = "party" if party >= 0.65 else "monsters" if mons >= 0.65 else None
        if fav is None or max(party, mons) > 0.98:
            continue
        d = 100 * (_win(b, fav) - _win(a, fav))
        diffs.append(d)
        rows.append(
            {
                "matchup": _label(cell, monster),
                "favourite": fav,
                "pooled win %": 100 * max(party, mons),
                "3d6 - d20 (pts)": d.mean(),
            }
        )
    part = _diff_part("favourite's win rate, 3d6 - d20", diffs, 2.0, +1)
    m, lo, hi = inf.fight_level_interval(diffs)
    extra = {
        "selection": "favourite = the side winning >= 65% pooled over both arms, < 98%",
        "matchups considered": len(data.units),
        "per matchup": pd.DataFrame(rows),
        "fights as units (the old interval)": f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]",
        "matchups where the favourite gains": f"{sum(r['3d6 - d20 (pts)'] > 0 for r in rows)}/{len(rows)}",
    }
    return [part], extra


def _column(f: pd.DataFrame, name: str) -> np.ndarray:
    """One record field of every fight, as numbers."""
    return f[name].to_numpy(float)


def _per_fight(data: Data, arm: Arm, col: str) -> np.ndarray:
    return np.array([_column(f, col).mean() for f in data[arm]])


def long_shots(data: Data, seed: int) -> tuple[list[Part], dict]:
    hits = _ratio_part(
        "long-shot hits per fight, 3d6 / d20",
        _per_fight(data, B36, "long_shot_hits_monsters"),
        _per_fight(data, D20, "long_shot_hits_monsters"),
        0.8,
        -1,
        seed,
        _fights(data),
    )
    dmg = _ratio_part(
        "long-shot damage per fight, 3d6 / d20",
        _per_fight(data, B36, "long_shot_damage_monsters"),
        _per_fight(data, D20, "long_shot_damage_monsters"),
        0.8,
        -1,
        seed + 1,
        _fights(data),
    )
    rows = []
    for what, col in (
        ("long-shot hits (d20 chance <= 25%)", "long_shot_hits_monsters"),
        ("long-shot damage", "long_shot_damage_monsters"),
        ("lucky hits, the old die-relative definition", "lucky_hits_monsters"),
        ("monster hits", "hits_monsters"),
        ("PCs dropped during the fight", "downs_monsters"),
        ("PCs down at the end (the old harm measure)", "pcs_down"),
        ("PC deaths", "pcs_dead"),
    ):
        d = inf.cluster_mean(_paired(data, D20, B36, partial(_column, name=col)))
        rows.append(
            {
                "per fight": what,
                "d20": _per_fight(data, D20, col).mean(),
                "3d6": _per_fight(data, B36, col).mean(),
                "3d6 - d20": d.estimate,
                "low": d.low,
                "high": d.high,
            }
        )
    hr = {
        k: float(
            sum(f["hits_monsters"].sum() for f in data[a]) / max(1, sum(f["attacks_monsters"].sum() for f in data[a]))
        )
        for k, a in (("d20", D20), ("3d6", B36))
    }
    return [hits, dmg], {
        "secondary measures (matchups as units)": pd.DataFrame(rows),
        "monster hit rate %": f"d20 {100 * hr['d20']:.1f}, 3d6 {100 * hr['3d6']:.1f}",
    }


F10 = Arm("fixed10")


def closer_to_ten(data: Data, seed: int) -> tuple[list[Part], dict]:
    closer = []
    for f10, f3, f20 in zip(data[F10], data[B36], data[D20], strict=True):
        h10 = _hp(f10).mean()
        closer.append(np.array([abs(_hp(f3).mean() - h10) - abs(_hp(f20).mean() - h10)]))
    p1 = Part(
        "|hp lost 3d6 - fixed10| - |hp lost d20 - fixed10| (points)",
        _t_over(np.concatenate(closer), 1.0, -1, _fights(data)),
        1.0,
        -1,
    )
    fair = [i for i, (cell, _m) in enumerate(data.units) if _el_offset(cell) == 0]
    win10 = [100 * _win(data[F10][i]) - 90.0 for i in fair]
    p2 = _diff_part("fixed10 win rate in fair fights (EL = L) minus 90%", win10, 0.0, +1)
    rows = [
        {
            "arm": a.name,
            "win %": 100 * np.mean([_win(f).mean() for f in data[a]]),
            "hp lost %": np.mean([_hp(f).mean() for f in data[a]]),
        }
        for a in (F10, B36, D20)
    ]
    return [p1, p2], {"pooled over matchups": pd.DataFrame(rows)}


def _el_offset(cell: design.Cell) -> int:
    from arena.world.challenge import cr_rank, group_el

    level, cr, size = cell
    return int(cr_rank(group_el(cr, size))) - level


A20, A36 = Arm("d20", attack_bonus=1), Arm("3d6", attack_bonus=1)


def bonus_gain(data: Data, seed: int) -> tuple[list[Part], dict]:
    gain = {
        die: np.array([_hp(a).mean() - _hp(b).mean() for a, b in zip(data[base], data[plus], strict=True)])
        for die, base, plus in (("d20", D20, A20), ("3d6", B36, A36))
    }
    part = _ratio_part("hp-lost saved by +1 to hit, 3d6 / d20", gain["3d6"], gain["d20"], 1.5, +1, seed, _fights(data))
    win = {
        die: inf.cluster_mean(_paired(data, base, plus, lambda f: 100 * _win(f)))
        for die, base, plus in (("d20", D20, A20), ("3d6", B36, A36))
    }
    rows = [
        {
            "die": die,
            "hp lost saved (pts)": gain[die].mean(),
            "win-rate gain (pts)": win[die].estimate,
            "win low": win[die].low,
            "win high": win[die].high,
        }
        for die in ("d20", "3d6")
    ]
    return [part], {"gains": pd.DataFrame(rows)}


PRAD = Arm("d20+prad")


def prad_same(data: Data, seed: int) -> tuple[list[Part], dict]:
    hp = _diff_part("hp lost, prad - d20 (points)", _paired(data, D20, PRAD, _hp), 2.0, 1, kind="equivalence")
    win = _diff_part(
        "win rate, prad - d20 (points)", _paired(data, D20, PRAD, lambda f: 100 * _win(f)), 2.0, 1, kind="equivalence"
    )
    return [hp, win], {}


VAR = Arm("d20+var")


def variable_spread(data: Data, seed: int) -> tuple[list[Part], dict]:
    sd = {k: np.array([_hp(f).std(ddof=1) for f in data[a]]) for k, a in (("d20", D20), ("var", VAR))}
    rd = {
        k: np.array([f["rounds"].to_numpy(float).std(ddof=1) for f in data[a]]) for k, a in (("d20", D20), ("var", VAR))
    }
    p1 = _ratio_part("spread (SD) of hp lost, variable / static", sd["var"], sd["d20"], 1.05, +1, seed, _fights(data))
    p2 = _ratio_part(
        "spread (SD) of fight length, variable / static", rd["var"], rd["d20"], 1.05, +1, seed + 1, _fights(data)
    )
    under = inf.cluster_mean(_paired(data, D20, VAR, lambda f: 100 * _win(f, "monsters")))
    return [p1, p2], {
        "monsters' (the underdog's) win-rate change, pts": (
            f"{under.estimate:+.2f} [{under.low:+.2f}, {under.high:+.2f}]"
        )
    }


O20, O36 = Arm("d20+open"), Arm("3d6+open")


def open_crits(data: Data, seed: int) -> tuple[list[Part], dict]:
    parts, rows = [], []
    for arm in (O20, O36):
        for side in ("party", "monsters"):
            for what in ("critical_successes", "fumbles"):
                rates = [
                    np.array([100 * f[f"{what}_{side}"].sum() / max(1, f[f"attacks_{side}"].sum())]) for f in data[arm]
                ]
                parts.append(
                    Part(
                        f"{arm.rules} {what.replace('_', ' ')} of the {side} per attack roll (%)",
                        _t_over(np.concatenate(rates), -5.0, -1, _fights(data)),
                        -5.0,
                        -1,
                    )
                )
        d = inf.cluster_mean(_paired(data, D20 if arm is O20 else B36, arm, _hp))
        rows.append(
            {
                "rules": arm.rules,
                "hp lost change vs the same die without (pts)": d.estimate,
                "low": d.low,
                "high": d.high,
            }
        )
    return parts, {
        "fight effect": pd.DataFrame(rows),
        "note": "a side's critical successes and fumbles include its saves and checks; per attack roll is "
        "an upper bound",
    }


def _t_over(v: np.ndarray, margin: float, direction: int, fights: int) -> inf.Effect:
    """A t interval over matchup summaries (one value per matchup); ``fights``: the fights per arm behind them."""
    from scipy.stats import t

    g = len(v)
    mean = float(v.mean())
    se = float(v.std(ddof=1) / np.sqrt(g)) if g > 1 else float("nan")
    q = float(t.ppf(0.975, g - 1)) if g > 1 else float("nan")
    return inf.t_effect(mean, se, g - 1, mean - q * se, mean + q * se, g, fights, margin=margin, direction=direction)


PN, PW = Arm("3d6+luck"), Arm("3d6+luck", party_press="when-better")


def press_gain(data: Data, seed: int) -> tuple[list[Part], dict]:
    gains = np.array([_hp(a).mean() - _hp(b).mean() for a, b in zip(data[PN], data[PW], strict=True)])
    levels = np.array([cell[0] for cell, _m in data.units], float)
    import statsmodels.api as sm

    fit = sm.OLS(gains, sm.add_constant(levels)).fit()
    slope, se = float(fit.params[1]), float(fit.bse[1])
    df = max(1, len(gains) - 2)
    lo, hi = fit.conf_int()[1] if len(gains) > 2 else (float("nan"), float("nan"))
    e = inf.t_effect(
        slope,
        se,
        df,
        float(lo),
        float(hi),
        len(gains),
        _fights(data),
        margin=0.05,
        direction=+1,
        method="OLS slope over matchups",
    )
    p1 = Part("hp lost saved by pressing, slope per party level (pts/level)", e, 0.05, +1, units="pts/level")
    p2 = Part("hp lost saved by pressing when-better, overall (pts)", _t_over(gains, 0.5, +1, _fights(data)), 0.5, +1)
    by = pd.DataFrame({"level": levels, "saved": gains}).groupby("level")["saved"].mean().reset_index()
    return [p2, p1], {"hp lost saved by level (pts)": by}


CN20, CH20 = Arm("d20+called"), Arm("d20+called", party_called="head")
CN36, CH36 = Arm("3d6+called"), Arm("3d6+called", party_called="head")


def called_gain(data: Data, seed: int) -> tuple[list[Part], dict]:
    parts = [
        _diff_part(
            f"hp lost, calling at the head - never, {base.rules} (points)", _paired(data, base, head, _hp), 1.0, -1
        )
        for base, head in ((CN20, CH20), (CN36, CH36))
    ]
    return parts, {}


def _label(cell: design.Cell, monster: str) -> str:
    level, _cr, size = cell
    return f"L{level} {monster} x{size}"
