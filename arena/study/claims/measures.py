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
DESCRIPTIVE = inf.DESCRIPTIVE
"""The label of a claim (and its parts) reported as numbers without a verdict: a claim that states a motive, not an
effect (issue 26: "called shots worth it"). Its parts have no test, so they stay out of Holm's families."""


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
        return self.kind == "directional" and self.direction * (self.threshold - self.effect.no_effect) > 0

    def pvalues(self) -> tuple[float, float, float]:
        """The raw p of the tests that decide ``supported``, ``not supported`` and ``direction shown`` (NaN where
        the part has no such test: NaN stays out of Holm's family)."""
        if self.kind == "equivalence":
            return (*inf.equivalence(self.effect, self.margin), float("nan"))
        if self.kind == DESCRIPTIVE:
            return float("nan"), float("nan"), float("nan")
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
            "claim predicts": "(descriptive: no prediction)"
            if self.kind == DESCRIPTIVE
            else ("|effect| < " if self.kind == "equivalence" else "> " if self.direction > 0 else "< ")
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
F10 = Arm("fixed10")


def _hit_share(frames: list[pd.DataFrame], side: str) -> float:
    """A side's attack rolls that hit, over the fights of one matchup (hits / attack rolls)."""
    attacks = sum(float(f[f"attacks_{side}"].sum()) for f in frames)
    return sum(float(f[f"hits_{side}"].sum()) for f in frames) / attacks if attacks else float("nan")


def per_roll_advantage(fixed10: pd.DataFrame) -> float:
    """The party's per-roll advantage in a matchup, in points: the share of its attack rolls that succeed on a
    natural 10 minus the monsters' share, measured in the fixed10 arm (every d20-type roll a natural 10: a roll
    hits exactly when it needs 10 or less, with the buffs, flanking and conditions of the fight as fought). 3d6
    makes a roll that needs 10 or less likelier and one that needs 11 or more rarer, so the side whose rolls need
    lower numbers is the one the bell curve should favour. NaN when a side made no attack roll."""
    return 100 * (_hit_share([fixed10], "party") - _hit_share([fixed10], "monsters"))


def favourite_gain(data: Data, seed: int) -> tuple[list[Part], dict]:
    """The favourite (by per-roll odds, :func:`per_roll_advantage`) in every judging matchup, its win rate under
    3d6 minus d20 per fight, regressed (OLS) on its per-roll advantage centred on the mean over matchups, errors
    clustered by matchup: the intercept is the favourite's mean gain over every matchup (the stated part), the slope
    how the gain grows with the advantage (reported)."""
    from arena.study.claims.per_roll import per_roll_odds

    ys, xs, groups, rows = [], [], [], []
    no_favourite = 0
    for i, ((cell, monster), f10, a, b) in enumerate(zip(data.units, data[F10], data[D20], data[B36], strict=True)):
        adv = per_roll_advantage(f10)
        if not np.isfinite(adv) or adv == 0:
            no_favourite += 1
            continue
        fav = "party" if adv > 0 else "monsters"
        d = 100 * (_win(b, fav) - _win(a, fav))
        ys.append(d)
        xs.append(np.full(len(d), abs(adv)))
        groups.append(np.full(len(d), i))
        static = per_roll_odds(cell[0], monster)
        static_fav = None
        if static is not None and static[0] != static[1]:
            static_fav = "party" if static[0] > static[1] else "monsters"
        pooled = (_win(a).mean() + _win(b).mean()) / 2
        rows.append(
            {
                "matchup": _label(cell, monster),
                "favourite (per roll, fixed10)": fav,
                "advantage (pts per roll)": abs(adv),
                "favourite (static exact odds)": static_fav or "-",
                "party win % d20": 100 * _win(a).mean(),
                "party win % 3d6": 100 * _win(b).mean(),
                "favourite by pooled win rate": "party" if pooled >= 0.5 else "monsters",
                "3d6 - d20 (pts)": float(d.mean()),
                "static favourite's gain (pts)": float("nan")
                if static_fav is None
                else float(100 * (_win(b, static_fav) - _win(a, static_fav)).mean()),
            }
        )
    fights = int(sum(len(y) for y in ys))
    mean_gain, slope = _favourite_regression(ys, xs, groups, fights)
    part = Part("favourite's win rate, 3d6 - d20 (per-roll favourite, every matchup)", mean_gain, 2.0, +1)
    table = pd.DataFrame(rows)
    extra: dict = {
        "selection": "every judging matchup; the favourite is the side whose attack rolls succeed more often on a "
        "natural 10 (fixed10 arm)",
        "matchups judged / without a per-roll favourite": f"{len(rows)} / {no_favourite}",
        "slope: gain per point of per-roll advantage (OLS, errors clustered by matchup)": _fmt_effect(slope),
        "per matchup": table,
    }
    if rows:
        same = table[
            (table["party win % d20"] == table["party win % 3d6"]) & table["party win % d20"].isin([0.0, 100.0])
        ]
        extra["matchups won 100% or 0% by the party under both dice"] = f"{len(same)}/{len(rows)}"
        extra["by favourite"] = _by_favourite(table)
        m, lo, hi = inf.fight_level_interval(ys)
        extra["fights as units (the old interval)"] = f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]"
    return [part], extra


def _by_favourite(table: pd.DataFrame) -> pd.DataFrame:
    """The gain split by which side is the favourite, under each definition (reported, not judged)."""
    out = []
    for definition, column, gain in (
        ("per roll (fixed10), the stated one", "favourite (per roll, fixed10)", "3d6 - d20 (pts)"),
        ("static exact odds of the first attacks", "favourite (static exact odds)", "static favourite's gain (pts)"),
    ):
        for side in ("party", "monsters"):
            sel = table[table[column] == side]
            out.append(
                {
                    "definition": definition,
                    "favourite": side,
                    "matchups": len(sel),
                    "favourite's gain, mean (pts)": float(sel[gain].mean()) if len(sel) else float("nan"),
                }
            )
    return pd.DataFrame(out)


def _fmt_effect(e: inf.Effect) -> str:
    return f"{e.estimate:+.3g} [{e.low:+.3g}, {e.high:+.3g}] ({e.units} matchups)"


def _favourite_regression(
    ys: list[np.ndarray], xs: list[np.ndarray], groups: list[np.ndarray], fights: int
) -> tuple[inf.Effect, inf.Effect]:
    """(the intercept, the slope) of the favourite's per-fight gain on its centred per-roll advantage: statsmodels
    OLS, errors clustered by matchup (t with G - 1 degrees of freedom). With fewer than three matchups the mean over
    fights (:func:`inf.cluster_mean`) and no slope."""
    g = len(ys)
    if g < 3:
        nan = float("nan")
        return inf.cluster_mean(ys, margin=2.0, direction=+1), inf.Effect(nan, nan, nan, g, fights)
    import statsmodels.api as sm

    y, x, grp = np.concatenate(ys), np.concatenate(xs), np.concatenate(groups)
    centred = x - np.mean([v[0] for v in xs])  # centred on the mean over matchups: the intercept is the mean gain
    design_matrix = sm.add_constant(centred, has_constant="add")
    fit = sm.OLS(y, design_matrix).fit(cov_type="cluster", cov_kwds={"groups": grp}, use_t=True)
    df = g - 1
    out = []
    for k, (margin, method) in enumerate(((2.0, "OLS intercept, errors clustered by matchup"), (0.0, "OLS slope"))):
        est, se = float(fit.params[k]), float(fit.bse[k])
        lo, hi = (float(v) for v in fit.conf_int()[k])
        if not np.isfinite(se):  # every gain the same (a degenerate sample): no spread to cluster
            se, lo, hi = 0.0, est, est
        out.append(inf.t_effect(est, se, df, lo, hi, g, fights, margin=margin, direction=+1, method=method))
    return out[0], out[1]


def _column(f: pd.DataFrame, name: str) -> np.ndarray:
    """One record field of every fight, as numbers."""
    return f[name].to_numpy(float)


def _per_fight(data: Data, arm: Arm, col: str) -> np.ndarray:
    return np.array([_column(f, col).mean() for f in data[arm]])


LONG_SHOT_THRESHOLDS = (("25%", "long_shot"), ("35%", "long_shot35"), ("45%", "long_shot45"))
"""The long-shot definitions the report puts side by side (a d20 makes the natural at most this often): 25% is the
claim's (fixed with it), 35% and 45% are reported beside it (issue 26)."""
HEAVY_SHARE = 0.25
"""The premise's bar: "rely heavily on a lucky shot to damage PCs" holds if long shots (the claim's 25% definition)
deal at least a quarter of the low-CR groups' damage under d20 (docs/claims.md says why)."""


def _is_lone(cell: design.Cell) -> bool:
    """A comparison matchup of the lucky-shot claim: one monster (the low-CR groups are 4 or more)."""
    return cell[2] == 1


def _only(data: Data, keep: Callable[[design.Cell], bool]) -> Data:
    """The claim's data restricted to the matchups whose cell ``keep`` accepts."""
    index = [i for i, (cell, _m) in enumerate(data.units) if keep(cell)]
    return Data([data.units[i] for i in index], {k: [v[i] for i in index] for k, v in data.frames.items()})


def _long_shots_total(f: pd.DataFrame, prefix: str = "long_shot") -> np.ndarray:
    """Long shots of the monsters per fight: hits that needed a long natural and saves the PCs failed although they
    needed a short one."""
    return (f[f"{prefix}_hits_monsters"] + f[f"{prefix}_saves_monsters"]).to_numpy(float)


def long_shots(data: Data, seed: int) -> tuple[list[Part], dict]:
    """The low-CR groups (4 or more monsters): long shots per fight and their damage, 3d6 / d20 (the claim), and
    the premise that those groups rely heavily on long shots (their share of the groups' damage under d20); the lone
    monsters of the claim's matchups are a comparison, reported."""
    groups, lone = _only(data, lambda c: not _is_lone(c)), _only(data, _is_lone)
    fights = _fights(groups)
    shots = _ratio_part(
        "long shots per fight (hits and failed saves), 3d6 / d20",
        [_long_shots_total(f).mean() for f in groups[B36]],
        [_long_shots_total(f).mean() for f in groups[D20]],
        0.8,
        -1,
        seed,
        fights,
    )
    dmg = _ratio_part(
        "long-shot damage per fight, 3d6 / d20",
        _per_fight(groups, B36, "long_shot_damage_monsters"),
        _per_fight(groups, D20, "long_shot_damage_monsters"),
        0.8,
        -1,
        seed + 1,
        fights,
    )
    premise = Part(
        "premise: long-shot share of the groups' damage under d20",
        inf.cluster_ratio(
            _per_fight(groups, D20, "long_shot_damage_monsters"),
            _per_fight(groups, D20, "damage_monsters"),
            margin=HEAVY_SHARE,
            direction=+1,
            seed=seed + 2,
            fights=fights,
        ),
        HEAVY_SHARE,
        +1,
        units="share",
    )
    return [shots, dmg, premise], {
        "long shots at each threshold (low-CR groups)": _thresholds(groups),
        "low-CR groups against a lone monster (3d6 / d20, ratios of matchup means)": _against_lone(groups, lone),
        "secondary measures (low-CR groups, matchups as units)": _secondary(groups),
    }


def _share(frames: list[pd.DataFrame], col: str, of: str = "damage_monsters") -> float:
    """A column's total as a share of another's, over the matchups (each matchup's means, then their ratio)."""
    num = np.mean([f[col].to_numpy(float).mean() for f in frames]) if frames else float("nan")
    den = np.mean([f[of].to_numpy(float).mean() for f in frames]) if frames else float("nan")
    return float(num / den) if den else float("nan")


def _thresholds(data: Data) -> pd.DataFrame:
    """The long-shot definitions side by side: share of the monsters' damage under each die, the 3d6 / d20 ratio of
    long-shot damage and of long shots, and the save-based ones per fight."""
    rows = []
    for label, prefix in LONG_SHOT_THRESHOLDS:
        d20 = _per_fight(data, D20, f"{prefix}_damage_monsters").mean()
        b36 = _per_fight(data, B36, f"{prefix}_damage_monsters").mean()
        n20 = np.mean([_long_shots_total(f, prefix).mean() for f in data[D20]])
        n36 = np.mean([_long_shots_total(f, prefix).mean() for f in data[B36]])
        rows.append(
            {
                "a d20 makes the natural at most": label + (" (the claim's)" if prefix == "long_shot" else ""),
                "share of damage, d20 %": 100 * _share(data[D20], f"{prefix}_damage_monsters"),
                "share of damage, 3d6 %": 100 * _share(data[B36], f"{prefix}_damage_monsters"),
                "long-shot damage 3d6 / d20": b36 / d20 if d20 else float("nan"),
                "long shots 3d6 / d20": n36 / n20 if n20 else float("nan"),
                "failed saves per fight, d20": _per_fight(data, D20, f"{prefix}_saves_monsters").mean(),
                "failed saves per fight, 3d6": _per_fight(data, B36, f"{prefix}_saves_monsters").mean(),
            }
        )
    return pd.DataFrame(rows)


def _against_lone(groups: Data, lone: Data) -> pd.DataFrame:
    """'Especially low-CR groups': what 3d6 does to the monsters' damage and harm in the groups and in the lone
    monsters of the same claim (one monster of the party's level)."""
    rows = []
    for who, d in (("low-CR groups (4, 6, 8)", groups), ("lone monster", lone)):
        if not d.units:
            continue
        rows.append(
            {
                "matchups": who,
                "n": len(d.units),
                "monster damage 3d6 / d20": _per_fight(d, B36, "damage_monsters").mean()
                / max(1e-9, _per_fight(d, D20, "damage_monsters").mean()),
                "long-shot share of damage, d20 %": 100 * _share(d[D20], "long_shot_damage_monsters"),
                "fights with a PC death, d20 %": 100 * np.mean([(f["pcs_dead"] > 0).mean() for f in d[D20]]),
                "fights with a PC death, 3d6 %": 100 * np.mean([(f["pcs_dead"] > 0).mean() for f in d[B36]]),
            }
        )
    return pd.DataFrame(rows)


def _secondary(data: Data) -> pd.DataFrame:
    rows = []
    for what, col in (
        ("long-shot hits (d20 chance <= 25%)", "long_shot_hits_monsters"),
        ("long-shot failed saves (d20 fails <= 25%)", "long_shot_saves_monsters"),
        ("long-shot damage", "long_shot_damage_monsters"),
        ("lucky hits, the old die-relative definition", "lucky_hits_monsters"),
        ("monster hits", "hits_monsters"),
        ("monster damage", "damage_monsters"),
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
    return pd.DataFrame(rows)


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
    open_fair = [i for i in fair if any(0 < _win(data[a][i]).mean() < 1 for a in (F10, B36, D20))]
    parts = [p1]
    if open_fair:
        win10 = [100 * _win(data[F10][i]) - 90.0 for i in open_fair]
        parts.append(_diff_part(FAIR_PART, win10, 0.0, +1))
    rows = [
        {
            "arm": a.name,
            "win %": 100 * np.mean([_win(f).mean() for f in data[a]]),
            "hp lost %": np.mean([_hp(f).mean() for f in data[a]]),
        }
        for a in (F10, B36, D20)
    ]
    decided = len(fair) - len(open_fair)
    return parts, {
        "pooled over matchups": pd.DataFrame(rows),
        "part 2, fair matchups (EL = L) that can discriminate": f"{len(open_fair)} of {len(fair)}: in the other "
        f"{decided} every arm (fixed10, 3d6, d20) wins 100% or every arm 0%, so they cannot tell the rolls apart"
        + ("" if open_fair else "; part 2 is not judged (not discriminating), the claim rests on part 1"),
    }


FAIR_PART = "fixed10 win rate in fair fights (EL = L) that discriminate, minus 90%"
"""Part 2 of bell-closer-to-10: judged only on fair matchups where some arm's win rate lies strictly between 0 and 1
(issue 26: where every arm wins every fight, the fights cannot discriminate)."""


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
    """Descriptive (issue 26: the quote states a motive, not an effect): what calling shots at the head does to the
    party's hit points lost and win rate under each die, with intervals over matchups, and how often the called
    shots land; no margin, no verdict."""
    parts, rows = [], []
    for base, head in ((CN20, CH20), (CN36, CH36)):
        for what, value in (("hp lost", _hp), ("win rate", lambda f: 100 * _win(f))):
            e = inf.cluster_mean(_paired(data, base, head, value))
            parts.append(Part(f"{what}, calling at the head - never, {base.rules} (points)", e, 0.0, kind=DESCRIPTIVE))
        calls = sum(float(f["called_shots_party"].sum()) for f in data[head])
        rows.append(
            {
                "rules": base.rules,
                "called shots per fight": calls / max(1, sum(len(f) for f in data[head])),
                "called shots that hit %": 100 * sum(float(f["called_hits_party"].sum()) for f in data[head]) / calls
                if calls
                else float("nan"),
            }
        )
    return parts, {"called shots made": pd.DataFrame(rows)}


def _label(cell: design.Cell, monster: str) -> str:
    level, _cr, size = cell
    return f"L{level} {monster} x{size}"
