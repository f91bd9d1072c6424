"""Every claim of the documents, evaluated (`arena claims`): the single-roll claims of :mod:`arena.rules.roll_claims`
(exact odds) and the encounter claims below (simulated fights), redesigned for issue 16.

Each encounter claim states, in the code and before any number is computed: its matchups (a selection rule of
:mod:`arena.study.design`), its arms (rule sets, tactics, the +1 bonus), its measure, the direction it predicts
and its practical margin. The method (docs/claims.md):

* **Fair comparisons.** Every arm fights the same party with the same spells (:data:`arena.study.design.BASE_MODEL`:
  the d20 domain list under every die); the Luck domain's spells are their own arm.
* **Paired, and the matchup the unit.** Every arm of a matchup fights encounter ``i`` on ``encounter_seed(seed,
  i)``; a claim's effect is the mean of per-matchup paired effects, with an interval over matchups
  (:mod:`arena.study.inference`): t for differences, a cluster bootstrap for ratios.
* **Verdicts** against the stated margin: ``supported``, ``not supported``, ``inconclusive`` (and ``partly
  supported`` for a claim of several parts that split), with Holm's step-down over every part of every encounter
  claim.
* **Robustness.** Each claim is evaluated again under each contested fight-model option
  (:data:`arena.study.design.VARIATIONS`) and with SRD monsters instead of the typical one; the report says
  ``robust`` or which choice turns the verdict.
* **Die-invariant measures**: long shots (hits that needed a natural a d20 makes at most 25% of the time) counted
  by the engine's record (``long_shot_hits_<side>``); PCs dropped during the fight (``downs_monsters``); deaths;
  hit points lost.

The group-CR claim is judged on the calibration grid by model comparison (:mod:`arena.study.grid`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from arena.rules.roll_claims import BELL_CURVE, OPEN_ENDED, PLAYERS_ROLL, PRESS_LUCK
from arena.study import design
from arena.study import inference as inf
from arena.study.design import Arm, matchup
from arena.study.matchups import Batch, Matchup, run_batch
from arena.study.workers import cluster_session

RUN_SEED = 20250607
QUICK_N = 40
"""Encounters per arm and matchup in ``--quick`` (the matchup being the unit, 40 fights each still give usable
matchup means; intervals are wide and verdicts fall to ``inconclusive`` rather than flip)."""
QUICK_ALPHA = 0.001
"""``--quick`` decides a claim only at this level (after Holm), not the full study's 0.05: a quick verdict needs
an effect so clear that the full study, with intervals about 2.7 times narrower, does not turn it; otherwise it
says ``inconclusive``. (On the published study's seed the quick and full studies agree on every claim the quick
one decides.)"""
FULL_N = 300
ROBUST_SHARE = 0.5
"""Robustness re-runs fight this share of the main size per arm (at least the quick size)."""
SUPPORTED, PARTLY, NOT, INCONCLUSIVE = inf.SUPPORTED, inf.PARTLY, inf.NOT, inf.INCONCLUSIVE


# --------------------------------------------------------------------------------------------- arms and data
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
    p_adjusted: tuple[float, float] = (float("nan"), float("nan"))

    @property
    def threshold(self) -> float:
        """The value the claim's effect must pass (a ratio's margin is the ratio itself)."""
        return self.margin if self.units == "ratio" or self.kind == "equivalence" else self.direction * self.margin

    def pvalues(self) -> tuple[float, float]:
        if self.kind == "equivalence":
            return inf.equivalence(self.effect, self.margin)
        return self.effect.p_beyond, self.effect.p_within

    def row(self) -> dict:
        e = self.effect
        return {
            "part": self.name,
            "estimate": e.estimate,
            "low": e.low,
            "high": e.high,
            "units": self.units,
            "claim predicts": ("|effect| < " if self.kind == "equivalence" else "> " if self.direction > 0 else "< ")
            + f"{self.threshold:g}",
            "matchups": e.units,
            "fights": e.fights,
            "p (Holm)": self.p_adjusted[0],
            "verdict": self.verdict,
        }


def _diff_part(
    name: str, diffs: list[np.ndarray], margin: float, direction: int, units: str = "points", kind: str = "directional"
) -> Part:
    e = inf.cluster_mean(diffs, margin=margin, direction=direction)
    return Part(name, e, margin, direction, kind, units)


def _ratio_part(
    name: str, num: Sequence[float], den: Sequence[float], margin: float, direction: int, seed: int
) -> Part:
    return Part(
        name,
        inf.cluster_ratio(num, den, margin=margin, direction=direction, seed=seed),
        margin,
        direction,
        units="ratio",
    )


# --------------------------------------------------------------------------------------------- the claims
D20, B36 = Arm("d20"), Arm("3d6")


@dataclass
class EncounterClaim:
    id: str
    source: str
    quote: str
    criterion: str
    cells: Callable[[], tuple[design.Cell, ...]]
    arms: tuple[Arm, ...]
    measure: Callable[[Data, int], tuple[list[Part], dict]]
    """(data, seed) -> (the stated parts, further numbers reported beside them)."""
    extra: dict = field(default_factory=dict)


def _favourite(data: Data, seed: int) -> tuple[list[Part], dict]:
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


def _per_fight(data: Data, arm: Arm, col: str) -> np.ndarray:
    return np.array([f[col].to_numpy(float).mean() for f in data[arm]])


def _lucky(data: Data, seed: int) -> tuple[list[Part], dict]:
    hits = _ratio_part(
        "long-shot hits per fight, 3d6 / d20",
        _per_fight(data, B36, "long_shot_hits_monsters"),
        _per_fight(data, D20, "long_shot_hits_monsters"),
        0.8,
        -1,
        seed,
    )
    dmg = _ratio_part(
        "long-shot damage per fight, 3d6 / d20",
        _per_fight(data, B36, "long_shot_damage_monsters"),
        _per_fight(data, D20, "long_shot_damage_monsters"),
        0.8,
        -1,
        seed + 1,
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
        d = inf.cluster_mean(_paired(data, D20, B36, lambda f, c=col: f[c].to_numpy(float)))
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


def _ten(data: Data, seed: int) -> tuple[list[Part], dict]:
    closer = []
    for f10, f3, f20 in zip(data[F10], data[B36], data[D20], strict=True):
        h10 = _hp(f10).mean()
        closer.append(np.array([abs(_hp(f3).mean() - h10) - abs(_hp(f20).mean() - h10)]))
    p1 = Part(
        "|hp lost 3d6 - fixed10| - |hp lost d20 - fixed10| (points)", _t_over(np.concatenate(closer), 1.0, -1), 1.0, -1
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


def _bonus(data: Data, seed: int) -> tuple[list[Part], dict]:
    gain = {
        die: np.array([_hp(a).mean() - _hp(b).mean() for a, b in zip(data[base], data[plus], strict=True)])
        for die, base, plus in (("d20", D20, A20), ("3d6", B36, A36))
    }
    part = _ratio_part("hp-lost saved by +1 to hit, 3d6 / d20", gain["3d6"], gain["d20"], 1.5, +1, seed)
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


def _prad(data: Data, seed: int) -> tuple[list[Part], dict]:
    hp = _diff_part("hp lost, prad - d20 (points)", _paired(data, D20, PRAD, _hp), 2.0, 1, kind="equivalence")
    win = _diff_part(
        "win rate, prad - d20 (points)", _paired(data, D20, PRAD, lambda f: 100 * _win(f)), 2.0, 1, kind="equivalence"
    )
    return [hp, win], {}


VAR = Arm("d20+var")


def _variable(data: Data, seed: int) -> tuple[list[Part], dict]:
    sd = {k: np.array([_hp(f).std(ddof=1) for f in data[a]]) for k, a in (("d20", D20), ("var", VAR))}
    rd = {
        k: np.array([f["rounds"].to_numpy(float).std(ddof=1) for f in data[a]]) for k, a in (("d20", D20), ("var", VAR))
    }
    p1 = _ratio_part("spread (SD) of hp lost, variable / static", sd["var"], sd["d20"], 1.05, +1, seed)
    p2 = _ratio_part("spread (SD) of fight length, variable / static", rd["var"], rd["d20"], 1.05, +1, seed + 1)
    under = inf.cluster_mean(_paired(data, D20, VAR, lambda f: 100 * _win(f, "monsters")))
    return [p1, p2], {
        "monsters' (the underdog's) win-rate change, pts": (
            f"{under.estimate:+.2f} [{under.low:+.2f}, {under.high:+.2f}]"
        )
    }


O20, O36 = Arm("d20+open"), Arm("3d6+open")


def _open(data: Data, seed: int) -> tuple[list[Part], dict]:
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
                        _t_over(np.concatenate(rates), -5.0, -1),
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


def _t_over(v: np.ndarray, margin: float, direction: int) -> inf.Effect:
    """A t interval over matchup summaries (one value per matchup)."""
    from scipy.stats import t

    g = len(v)
    mean = float(v.mean())
    se = float(v.std(ddof=1) / np.sqrt(g)) if g > 1 else float("nan")
    q = float(t.ppf(0.975, g - 1)) if g > 1 else float("nan")
    null = direction * margin
    return inf.Effect(
        mean,
        mean - q * se,
        mean + q * se,
        g,
        0,
        "matchup",
        inf._t_p(mean, se, g - 1, null, greater=direction > 0),
        inf._t_p(mean, se, g - 1, null, greater=direction < 0),
    )


PN, PW = Arm("3d6+luck"), Arm("3d6+luck", party_press="when-better")


def _press(data: Data, seed: int) -> tuple[list[Part], dict]:
    gains = np.array([_hp(a).mean() - _hp(b).mean() for a, b in zip(data[PN], data[PW], strict=True)])
    levels = np.array([cell[0] for cell, _m in data.units], float)
    import statsmodels.api as sm

    fit = sm.OLS(gains, sm.add_constant(levels)).fit()
    slope, se = float(fit.params[1]), float(fit.bse[1])
    df = max(1, len(gains) - 2)
    lo, hi = fit.conf_int()[1] if len(gains) > 2 else (float("nan"), float("nan"))
    e = inf.Effect(
        slope,
        float(lo),
        float(hi),
        len(gains),
        0,
        "matchup",
        inf._t_p(slope, se, df, 0.05, True),
        inf._t_p(slope, se, df, 0.05, False),
        "OLS slope over matchups",
    )
    p1 = Part("hp lost saved by pressing, slope per party level (pts/level)", e, 0.05, +1, units="pts/level")
    p2 = Part("hp lost saved by pressing when-better, overall (pts)", _t_over(gains, 0.5, +1), 0.5, +1)
    by = pd.DataFrame({"level": levels, "saved": gains}).groupby("level")["saved"].mean().reset_index()
    return [p2, p1], {"hp lost saved by level (pts)": by}


CN20, CH20 = Arm("d20+called"), Arm("d20+called", party_called="head")
CN36, CH36 = Arm("3d6+called"), Arm("3d6+called", party_called="head")


def _called(data: Data, seed: int) -> tuple[list[Part], dict]:
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


ENCOUNTER_CLAIMS: list[EncounterClaim] = [
    EncounterClaim(
        "bell-favours-stronger",
        BELL_CURVE,
        "Rolling 3d6 gives you a lot more average rolls, which favors the stronger side in combat.",
        "Judging matchups (levels 1-16, groups of 1, 2, 4, EL L to L+4) with a clear favourite (the side winning "
        ">= 65% pooled over both arms, < 98%): the favourite's win rate under 3d6 minus d20, paired, mean over "
        "matchups. Margin +2 points: supported if the gain is shown above +2, not supported if shown below.",
        design.judging_cells,
        (D20, B36),
        _favourite,
    ),
    EncounterClaim(
        "bell-fewer-lucky-shots",
        BELL_CURVE,
        "Many monsters — especially low-CR monsters encountered in groups — rely heavily on a lucky shot to damage "
        "PCs. When rolling 3d6, those lucky shots are fewer and farther between.",
        "Groups of 4, 6, 8 monsters of CR L-4 (at least 1/2), levels 1-16, d20 against 3d6: long shots (monster hits "
        "that needed a natural a d20 makes at most 25% of the time, the same definition under both dice) per "
        "fight and their damage, 3d6 / d20 over matchups. Margin: at least 20% fewer (ratio < 0.8) for both. "
        "Secondary (reported): monster hit rate, PCs dropped during the fight, deaths, the old definition.",
        design.low_cells,
        (D20, B36),
        _lucky,
    ),
    EncounterClaim(
        "bell-closer-to-10",
        BELL_CURVE,
        "In a fair fight when everyone rolls a 10, the PCs should win almost every time. The bell curve variant "
        "adheres more tightly to that average.",
        "Judging matchups with every d20-type roll a natural 10 (fixed10): (1) hit points lost under 3d6 are closer "
        "to fixed10's than under d20's (|3d6 - fixed10| - |d20 - fixed10| below -1 point, over matchups); (2) in "
        "fair fights (EL = L) fixed10 wins at least 90% (shown above 90%).",
        design.judging_cells,
        (F10, B36, D20),
        _ten,
    ),
    EncounterClaim(
        "bell-bonuses-matter-more",
        BELL_CURVE,
        "A character's skill ranks, ability scores, and gear have a much bigger impact on success and failure than "
        "they do in the standard d20 rules.",
        "+1 to every weapon attack bonus of the party in the judging matchups: the hit points lost it saves under "
        '3d6 divided by those it saves under d20 (a ratio of matchup means, cluster bootstrap). "Much bigger": '
        "the ratio shown above 1.5.",
        design.judging_cells,
        (D20, B36, A20, A36),
        _bonus,
    ),
    EncounterClaim(
        "prad-same-in-fights",
        PLAYERS_ROLL,
        "This is effectively the same as rolling d20, adding your total AC, and then subtracting 10.",
        "Judging matchups, players roll all (d20+prad) against standard rolling: hit points lost and the party's "
        'win rate. "Effectively the same": both within +-2 points (shown by two one-sided tests); not supported '
        "if either is shown beyond it.",
        design.judging_cells,
        (D20, PRAD),
        _prad,
    ),
    EncounterClaim(
        "variable-less-predictable",
        BELL_CURVE,
        "The actual modifier added to the 1d20 roll might then be any value from 1 to 8, making the final result "
        "less predictable, even though the average would remain virtually the same.",
        "Judging matchups, variable modifiers against static (d20): the spread (SD over fights) of hit points "
        'lost and of fight length, variable / static over matchups; "less predictable": both shown above 1.05.',
        design.judging_cells,
        (D20, VAR),
        _variable,
    ),
    EncounterClaim(
        "open-ended-in-fights",
        OPEN_ENDED,
        "the possibility of a critical or fumble occurs only if the initial resolution roll is rolled naturally, "
        "i.e. before modifiers, 20 (or within the Threat Range) or 1",
        "Judging matchups with open-ended rolls (d20+open, 3d6+open): critical successes and fumbles per attack "
        "roll of each side, mean over matchups, each shown below the 5% of a natural 20 / natural 1.",
        design.judging_cells,
        (D20, B36, O20, O36),
        _open,
    ),
    EncounterClaim(
        "press-luck-pays-with-modifier",
        PRESS_LUCK,
        "At lower static modifiers it's almost not worth pressing your luck, but as the static modifier goes up, "
        "the probability for a potential pay-off for pressing your luck goes up.",
        "Under 3d6+luck in the judging matchups, the party pressing when-better against never: (1) hit points lost "
        "it saves, shown above 0.5 point; (2) the saving grows with party level (modifiers grow with level): the "
        "slope over matchups shown above 0.05 point per level.",
        design.judging_cells,
        (PN, PW),
        _press,
    ),
    EncounterClaim(
        "called-shots-worth-it",
        PRESS_LUCK,
        "Sometimes, despite the abstract nature of combat, you're going to want to apply damage to specific parts "
        "of the body",
        "Under d20+called and 3d6+called in the judging matchups, the party calling shots at the head against "
        "never: the hit points it loses, shown to fall by more than 1 point under each die.",
        design.judging_cells,
        (CN20, CH20, CN36, CH36),
        _called,
    ),
]
GROUP_CR = "bell-group-cr"


def claim_ids() -> list[str]:
    from arena.rules.roll_claims import CLAIMS

    return [c.id for c in CLAIMS] + [c.id for c in ENCOUNTER_CLAIMS] + [GROUP_CR]


def sizes(quick: bool, n: int | None) -> dict[str, int]:
    """Encounters per arm and matchup of the main analysis and of the robustness re-runs."""
    main = n if n is not None else QUICK_N if quick else FULL_N
    robust = n if n is not None else QUICK_N // 2 if quick else max(QUICK_N, int(FULL_N * ROBUST_SHARE))
    return {"main": main, "robustness": robust}


VARIATION_NAMES = (None, *design.VARIATIONS, design.POPULATION_VARIATION)


def _units(claim: EncounterClaim, variation: str | None) -> list[tuple[design.Cell, str]]:
    population = "srd" if variation == design.POPULATION_VARIATION else "typical"
    return [(cell, m) for cell in claim.cells() for m in design.monsters(cell[1], population)]


def requests(
    claims: Sequence[EncounterClaim], per: dict[str, int], seed: int, variations: Sequence[str | None] = VARIATION_NAMES
) -> list[Matchup]:
    out = []
    for v in variations:
        n = per["main"] if v is None else per["robustness"]
        for c in claims:
            for cell, monster in _units(c, v):
                out += [matchup(cell, monster, arm, n, seed, v) for arm in c.arms]
    return out


def _data(batch: Batch, claim: EncounterClaim, variation: str | None, n: int, seed: int) -> Data:
    units = _units(claim, variation)
    frames = {
        arm.name: [batch.rows(matchup(cell, m, arm, n, seed, variation), arm.rules, n) for cell, m in units]
        for arm in claim.arms
    }
    return Data(units, frames)


def judge(
    claims: Sequence[EncounterClaim], batch: Batch, n: int, seed: int, variation: str | None, alpha: float = inf.ALPHA
) -> dict:
    """Every claim's parts under one variation, Holm over all their parts, verdicts at level ``alpha`` (the quick
    study's is :data:`QUICK_ALPHA`)."""
    out, parts = {}, []
    for c in claims:
        data = _data(batch, c, variation, n, seed)
        if not data.units:
            out[c.id] = {"parts": [], "extra": {"note": "no matchups in this population"}, "verdict": INCONCLUSIVE}
            continue
        ps, extra = c.measure(data, seed)
        out[c.id] = {"parts": ps, "extra": extra, "matchups": len(data.units)}
        parts += ps
    pv = [p.pvalues() for p in parts]
    first, second = inf.holm([a for a, _ in pv]), inf.holm([b for _, b in pv])
    for p, a, b in zip(parts, first, second, strict=True):
        p.p_adjusted = (a, b)
        if p.kind == "equivalence":
            p.verdict = SUPPORTED if a < alpha else NOT if b < alpha else INCONCLUSIVE
        else:
            p.verdict = inf.directional_verdict(a, b, alpha)
    for r in out.values():
        if r["parts"]:
            r["verdict"] = inf.combine([p.verdict for p in r["parts"]])
    return out


@dataclass
class Evaluation:
    results: list[dict]
    batch: Batch | None
    seconds: float
    sizes: dict[str, int]
    seed: int
    quick: bool
    grid: Any = None
    anchor: Any = None
    timings: dict = field(default_factory=dict)


def evaluate(
    *,
    quick: bool = False,
    n: int | None = None,
    seed: int = RUN_SEED,
    workers: int = 1,
    cluster: Any = None,
    only: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    robustness: bool = True,
    store: Any = None,
) -> Evaluation:
    """Every claim: the single-roll claims (exact), the encounter claims (one batch of fights over every
    variation), then the calibration grid, the group-CR claim and the DMG anchor (when the claim is asked for).

    ``cluster``: a Dask scheduler address (connected to once, for the whole study) or an open client. ``store``: a
    study folder (:func:`arena.study.results_folder.open_study`) that keeps every finished chunk, so an interrupted
    study resumes where it stopped, with the same numbers."""
    from arena.errors import ArenaError
    from arena.study.options import check_n, check_seed, check_workers

    if n is not None:
        n = check_n(n, 3)
    seed, workers = check_seed(seed), check_workers(workers)
    if only is not None and not list(only):
        raise ArenaError("--only: give claim ids separated by commas (see `arena claims --json`)")
    if only:
        unknown = [x for x in only if x not in claim_ids()]
        if unknown:
            raise ArenaError(f"unknown claim {unknown[0]!r} (known: {', '.join(claim_ids())})")
    with cluster_session(cluster) as client:
        return _evaluate(quick, n, seed, workers, client, only, progress, robustness, store)


def _evaluate(
    quick: bool,
    n: int | None,
    seed: int,
    workers: int,
    cluster: Any,
    only: Sequence[str] | None,
    progress: Callable[[int, int], None] | None,
    robustness: bool,
    store: Any,
) -> Evaluation:
    from arena.rules.roll_claims import evaluate_all

    t0 = time.perf_counter()
    results = [r for r in evaluate_all() if not only or r["id"] in only]
    per = sizes(quick, n)
    chosen = [c for c in ENCOUNTER_CLAIMS if not only or c.id in only]
    variations = VARIATION_NAMES if robustness else (None,)
    batch, timings = None, {}
    if chosen:
        batch = run_batch(
            requests(chosen, per, seed, variations), workers=workers, cluster=cluster, progress=progress, store=store
        )
        timings["encounter claims"] = (batch.encounters, batch.seconds)
        judged = {
            v: judge(
                chosen,
                batch,
                per["main"] if v is None else per["robustness"],
                seed,
                v,
                QUICK_ALPHA if quick else inf.ALPHA,
            )
            for v in variations
        }
        for c in chosen:
            main = judged[None][c.id]
            turns = {
                v: judged[v][c.id]["verdict"]
                for v in variations
                if v is not None and judged[v][c.id]["verdict"] != main["verdict"]
            }
            robust = "robust" if not turns else "; ".join(f"{v} -> {w}" for v, w in turns.items())
            results.append(
                {
                    "id": c.id,
                    "source": c.source,
                    "quote": c.quote,
                    "criterion": c.criterion,
                    "verdict": main["verdict"],
                    "robustness": robust if robustness else "not run",
                    "parts": main["parts"],
                    "extra": main["extra"],
                    "matchups": main.get("matchups", 0),
                    "by_variation": {str(v): judged[v][c.id]["verdict"] for v in variations},
                }
            )
    grid = anchor = None
    if not only or GROUP_CR in only:
        from arena.study import grid as grid_mod

        grid = grid_mod.run_grid(
            quick=quick, n=n, seed=seed, workers=workers, cluster=cluster, progress=progress, store=store
        )
        timings["calibration grid"] = (grid.encounters, grid.seconds)
        others = {}
        if robustness:  # the grid again under each contested choice of the fight model
            for name in design.VARIATIONS:
                others[name] = grid_mod.run_grid(
                    quick=quick,
                    n=n,
                    seed=seed,
                    workers=workers,
                    cluster=cluster,
                    progress=progress,
                    variation=name,
                    store=store,
                )
            timings["calibration grid, model options"] = (
                sum(g.encounters for g in others.values()),
                sum(g.seconds for g in others.values()),
            )
        results.append(grid_mod.group_cr_result(grid, others))
        anchor = grid_mod.run_anchor(
            quick=quick, n=n, seed=seed, workers=workers, cluster=cluster, progress=progress, store=store
        )
        timings["DMG anchor"] = (anchor.encounters, anchor.seconds)
    return Evaluation(results, batch, time.perf_counter() - t0, per, seed, quick, grid, anchor, timings)


def headline(r: dict) -> str:
    """The claim's first stated part as a line: estimate [interval] (units)."""
    parts = r.get("parts") or []
    if parts:
        p = parts[0]
        e = p.effect
        return f"{p.name}: {e.estimate:+.3g} [{e.low:+.3g}, {e.high:+.3g}]"
    return r.get("headline", "")


def summary_rows(results: list[dict]) -> pd.DataFrame:
    """One row per claim: id, source, verdict, robustness and the headline figure."""
    return pd.DataFrame(
        [
            {
                "id": r["id"],
                "source": r["source"],
                "verdict": r["verdict"],
                "robustness": r.get("robustness", "exact"),
                "headline": headline(r),
            }
            for r in results
        ]
    )


def to_json(results: list[dict]) -> list[dict]:
    """The results as plain JSON-ready dicts (tables as records)."""

    def plain(x: Any) -> Any:
        if isinstance(x, pd.DataFrame):
            return x.to_dict(orient="records")
        if isinstance(x, Part):
            return {**x.row(), "effect": x.effect.as_dict()}
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [plain(v) for v in x]
        if isinstance(x, np.generic):
            return x.item()
        return x

    return [plain(r) for r in results]
