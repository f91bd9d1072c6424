"""Every claim of the documents, evaluated (`arena claims`): the single-roll claims of :mod:`arena.rules.roll_claims`
(exact odds) and the encounter claims below (simulated fights).

Each encounter claim names the matchups it fights, the rule sets and tactics of its arms, and its criterion,
written before any number is computed. All claims' matchups are merged (same party, monsters and tactics: one
matchup with the union of rule sets) and fought in one batch by :func:`arena.study.calibrate.run_batch`
(arena.study.experiment's
execution: one process, joblib workers or a Dask cluster). Every arm of a matchup fights encounter ``i`` on
``encounter_seed(seed, i)``, so every comparison is paired (common random numbers): win rates by the paired
t interval and McNemar's test (:func:`arena.study.analysis.paired_proportion`), numbers by the paired t interval and
Wilcoxon's test (:func:`arena.study.analysis.paired_values`), ratios of sums (hit rates, lucky-damage shares) and
spreads by a paired percentile bootstrap (scipy). Verdicts: ``supported``, ``partly supported``, ``not supported``.

The matchups are the generated party (:func:`arena.world.party.generate_party`) against groups of the typical monster
of a CR (:mod:`arena.world.typical`); the sets below were chosen from a pilot run (docs/claims.md):

* ``EVEN``: party levels 3, 5, 8, groups of 1, 2 and 4 at an Encounter Level 3-4 above the party level, where
  the generated party wins roughly 30-95% of fights under d20 (the typical monster is weak for its CR against
  this party: at EL = party level the party wins ~100%).
* ``FAIR``: the same levels and sizes at EL = party level (the DMG's "challenging" fight).
* ``SPREAD``: the same levels and sizes at EL L+1 .. L+5 (a range from easy to overpowering).
* ``LOW``: groups of 4, 6 and 8 typical monsters 4 CRs (or more) below the party level.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from arena.rules.roll_claims import BELL_CURVE, OPEN_ENDED, PLAYERS_ROLL, PRESS_LUCK
from arena.study.analysis import wilson
from arena.study.calibrate import (
    Batch,
    CalibrationCell,
    Matchup,
    calibration_matchups,
    evaluate_cell,
    run_batch,
    typical_name,
)
from arena.study.claim_statistics import (
    _pt,
    _significant,
    _win,
    diff_prop,
    diff_values,
    paired_bootstrap,
    prop,
    ratio_change,
)

LEVELS = (3, 5, 8)
SIZES = (1, 2, 4)
RUN_SEED = 20250607
QUICK_N = 150
"""Encounters per arm in ``--quick`` (intervals of roughly +-5-8 points per matchup, +-2-3 pooled)."""
SUPPORTED, PARTLY, NOT = "supported", "partly supported", "not supported"


# --------------------------------------------------------------------------------------------- matchup sets
def _cr_for(level: int, size: int, el_offset: int) -> Fraction:
    """The typical-monster CR whose group of ``size`` has EL nearest ``level + el_offset`` (at least 1/2)."""
    from arena.world.challenge import group_size_offset

    cr = level + el_offset - group_size_offset(size)
    return Fraction(cr) if cr >= 1 else Fraction(1, 2)


EVEN: tuple[tuple[int, Fraction, int], ...] = tuple(
    (level, Fraction(cr), size) for level, crs in ((3, (6, 4, 3)), (5, (8, 6, 4)), (8, (12, 9, 7)))
    for cr, size in zip(crs, SIZES, strict=True))
"""(level, CR, size): from the pilot, EL L+3 except where the party still won > 95% (then EL L+4)."""
FAIR: tuple[tuple[int, Fraction, int], ...] = tuple(
    (level, _cr_for(level, size, 0), size) for level in LEVELS for size in SIZES)
SPREAD: tuple[tuple[int, Fraction, int], ...] = tuple(
    (level, _cr_for(level, size, off), size) for level in LEVELS for size in SIZES for off in (1, 2, 3, 4, 5))
LOW: tuple[tuple[int, Fraction, int], ...] = tuple(
    (level, Fraction(level - 4) if level - 4 >= 1 else Fraction(1, 2), size) for level in LEVELS
    for size in (4, 6, 8))
CALIBRATION_LEVEL = 5
CALIBRATION_SIZES = (1, 2, 3, 4, 6, 8)


def _m(spec: tuple[int, Fraction, int], rules: Sequence[str], n: int, seed: int, **kw: Any) -> Matchup:
    level, cr, size = spec
    return Matchup(level, typical_name(cr), size, tuple(rules), n, seed, **kw)


# --------------------------------------------------------------------------------------------- claims
@dataclass
class EncounterClaim:
    id: str
    source: str
    quote: str
    criterion: str
    requests: Callable[[int, int], list[Matchup]]
    """(n, seed) -> the matchups this claim needs."""
    evaluate: Callable[[Batch, int, int], tuple[dict, str]]
    """(batch, n, seed) -> (numbers, verdict)."""
    full_n: int = 3000
    extra: dict = field(default_factory=dict)

    def result(self, batch: Batch, n: int, seed: int) -> dict:
        numbers, verdict = self.evaluate(batch, n, seed)
        return {"id": self.id, "source": self.source, "quote": self.quote, "criterion": self.criterion,
                "numbers": numbers, "verdict": verdict}


# 1 -------------------------------------------------------------------------------------------- favourite
def _favourite_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20", "3d6"), n, seed) for s in SPREAD]


def _favourite(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    rows, diffs = [], {"party": [], "monsters": []}
    for spec in SPREAD:
        m = _m(spec, ("d20",), n, seed)
        a, b = batch.rows(m, "d20", n), batch.rows(m, "3d6", n)
        pooled = (np.mean(_win(a)) + np.mean(_win(b))) / 2
        pooled_m = (np.mean(_win(a, "monsters")) + np.mean(_win(b, "monsters"))) / 2
        fav = "party" if pooled >= 0.65 else "monsters" if pooled_m >= 0.65 else None
        fav_rate = max(pooled, pooled_m)
        if fav is None or fav_rate > 0.98:
            continue   # no clear favourite, or an outcome too certain to move
        d = _win(b, fav).astype(float) - _win(a, fav).astype(float)
        diffs[fav].append(d)
        rows.append({"matchup": m.name, "favourite": fav, **diff_prop(_win(a, fav), _win(b, fav))})
    numbers: dict[str, Any] = {"selection": "favourite = the side winning >= 65% pooled over both arms, excluding "
                               "> 98%", "matchups_considered": len(SPREAD), "matchups": rows}
    verdicts = {}
    for side in ("party", "monsters"):
        if diffs[side]:
            d = np.concatenate(diffs[side])
            low, high = _tint(d)
            numbers[f"pooled_{side}_favourite"] = {"change_pts": _pt(d.mean()), "ci": [_pt(low), _pt(high)],
                                                   "matchups": len(diffs[side]), "n": len(d)}
            verdicts[side] = low > 0
    if not rows:
        return numbers, NOT
    alld = np.concatenate([*diffs["party"], *diffs["monsters"]])
    low, high = _tint(alld)
    numbers["pooled_all"] = {"change_pts": _pt(alld.mean()), "ci": [_pt(low), _pt(high)], "n": len(alld)}
    up = sum(r["change_pts"] > 0 for r in rows)
    numbers["matchups_favourite_gains"] = f"{up}/{len(rows)}"
    if low > 0 and all(verdicts.values()) and up >= 2 * len(rows) / 3:
        return numbers, SUPPORTED
    if low > 0 or any(verdicts.values()):
        return numbers, PARTLY
    return numbers, NOT


def _tint(d: np.ndarray) -> tuple[float, float]:
    from statsmodels.stats.weightstats import DescrStatsW

    if len(d) < 2 or np.all(d == d[0]):
        return float(d.mean()), float(d.mean())
    low, high = DescrStatsW(d).tconfint_mean(alpha=0.05)
    return float(low), float(high)


# 2 -------------------------------------------------------------------------------------------- lucky shots
def _low_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20", "3d6"), n, seed) for s in LOW]


def _concat(batch: Batch, specs: Sequence, rules: str, n: int, seed: int, **kw: Any) -> pd.DataFrame:
    return pd.concat([batch.rows(_m(s, (rules,), n, seed, **kw), rules, n) for s in specs], ignore_index=True)


def _lucky(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    a, b = _concat(batch, LOW, "d20", n, seed), _concat(batch, LOW, "3d6", n, seed)
    numbers = {
        "matchups": [_m(s, ("d20",), n, seed).name for s in LOW],
        "monster_hit_rate": ratio_change(a["hits_monsters"], a["attacks_monsters"], b["hits_monsters"],
                                         b["attacks_monsters"], seed),
        "lucky_share_of_monster_damage": ratio_change(a["lucky_damage_monsters"], a["damage_monsters"],
                                                      b["lucky_damage_monsters"], b["damage_monsters"], seed),
        "lucky_hits_share_of_monster_hits": ratio_change(a["lucky_hits_monsters"], a["hits_monsters"],
                                                         b["lucky_hits_monsters"], b["hits_monsters"], seed),
        "lucky_hits_per_fight": diff_values(a["lucky_hits_monsters"], b["lucky_hits_monsters"]),
        "lucky_damage_per_fight": diff_values(a["lucky_damage_monsters"], b["lucky_damage_monsters"]),
        "pcs_down_per_fight": diff_values(a["pcs_down"], b["pcs_down"]),
        "fights_with_a_pc_death": diff_prop(a["pcs_dead"].to_numpy() > 0, b["pcs_dead"].to_numpy() > 0),
        "party_hp_lost_pct": diff_values(a["party_hp_lost"], b["party_hp_lost"], 100),
    }
    luck_down = _significant(numbers["lucky_hits_per_fight"], -1)     # "fewer and farther between"
    harm_down = _significant(numbers["pcs_down_per_fight"], -1) and \
        not _significant(numbers["fights_with_a_pc_death"], +1)
    if luck_down and harm_down:
        return numbers, SUPPORTED
    if luck_down or harm_down:
        return numbers, PARTLY
    return numbers, NOT


# 3 -------------------------------------------------------------------------------------------- fixed 10
def _ten_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("fixed10", "3d6", "d20"), n, seed) for s in (*FAIR, *EVEN)]


def _ten(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    numbers: dict[str, Any] = {}
    ok = {}
    for label, specs in (("fair_EL_equals_level", FAIR), ("even_EL_level_plus_3_4", EVEN)):
        arms = {k: _concat(batch, specs, k, n, seed) for k in ("fixed10", "3d6", "d20")}
        wins = {k: _win(v) for k, v in arms.items()}
        step1 = diff_prop(wins["3d6"], wins["fixed10"])   # fixed10 - 3d6
        step2 = diff_prop(wins["d20"], wins["3d6"])       # 3d6 - d20
        numbers[label] = {"win_rate": {k: prop(w) for k, w in wins.items()},
                          "fixed10_minus_3d6": step1, "3d6_minus_d20": step2}
        no_reversal = not _significant(step1, -1) and not _significant(step2, -1)
        some_step = _significant(step1, +1) or _significant(step2, +1)
        ok[label] = no_reversal and some_step
    numbers["fixed10_wins_almost_always_in_fair_fights"] = numbers["fair_EL_equals_level"]["win_rate"][
        "fixed10"]["ci"][0] >= 90
    if all(ok.values()) and numbers["fixed10_wins_almost_always_in_fair_fights"]:
        return numbers, SUPPORTED
    if any(ok.values()) or numbers["fixed10_wins_almost_always_in_fair_fights"]:
        return numbers, PARTLY
    return numbers, NOT


# 4 -------------------------------------------------------------------------------------------- group CR
def _cal_cells() -> list[CalibrationCell]:
    return [CalibrationCell(CALIBRATION_LEVEL, typical_name(_cr_for(CALIBRATION_LEVEL, size, 3)), size, ("3d6",))
            for size in CALIBRATION_SIZES]


def _cal_requests(n: int, seed: int) -> list[Matchup]:
    return calibration_matchups(_cal_cells(), n, seed)


def _calibration(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    from arena.study.calibrate import DEFAULT_METRIC

    rows = []
    for cell in _cal_cells():
        r = evaluate_cell(batch, cell, n, seed, DEFAULT_METRIC)[0]
        rows.append({"size": cell.size, "monster": cell.monster, "delta_cr": round(r["delta"], 2),
                     "ci": [round(r["delta_low"], 2), round(r["delta_high"], 2)],
                     "predicted": r["predicted_delta"], "censored": r["censored"],
                     "difficulty_3d6": round(r["difficulty"], 4), "difficulty_d20": round(r["difficulty_d20"], 4)})
    numbers: dict[str, Any] = {"party_level": CALIBRATION_LEVEL, "metric": DEFAULT_METRIC,
                               "delta_cr_by_size": rows}
    usable = [r for r in rows if not r["censored"]]
    if not usable:
        return numbers, NOT

    def sse(pred: Callable[[int], float]) -> float:
        return float(sum((r["delta_cr"] - pred(r["size"])) ** 2 for r in usable))

    mean_all = float(np.mean([r["delta_cr"] for r in usable]))
    numbers["sum_sq_error"] = {"step_-1_at_4": round(sse(lambda s: -1.0 if s >= 4 else 0.0), 3),
                               "no_change": round(sse(lambda s: 0.0), 3),
                               f"constant_{mean_all:+.2f}": round(sse(lambda s: mean_all), 3)}
    covered = [r["ci"][0] - 0.25 <= r["predicted"] <= r["ci"][1] + 0.25 for r in usable]
    numbers["sizes_where_prediction_within_interval_plus_0.25"] = f"{sum(covered)}/{len(usable)}"
    small = [r["delta_cr"] for r in usable if r["size"] < 4]
    big = [r["delta_cr"] for r in usable if r["size"] >= 4]
    step_shape = bool(small and big and np.mean(big) < np.mean(small) - 0.5)
    best = min(numbers["sum_sq_error"], key=numbers["sum_sq_error"].get)
    if all(covered):
        return numbers, SUPPORTED
    if step_shape or best == "step_-1_at_4":
        return numbers, PARTLY
    return numbers, NOT


# 5 -------------------------------------------------------------------------------------------- +1 to hit
def _bonus_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20", "3d6"), n, seed, attack_bonus=b) for s in EVEN for b in (0, 1)]


def _bonus(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    numbers: dict[str, Any] = {}
    gains = {}
    for die in ("d20", "3d6"):
        base = _win(_concat(batch, EVEN, die, n, seed))
        plus = _win(_concat(batch, EVEN, die, n, seed, attack_bonus=1))
        numbers[f"plus_1_attack_{die}"] = diff_prop(base, plus)
        gains[die] = plus.astype(float) - base.astype(float)
    did = gains["3d6"] - gains["d20"]
    low, high = _tint(did)
    numbers["3d6_gain_minus_d20_gain"] = {"pts": _pt(did.mean()), "ci": [_pt(low), _pt(high)], "n": len(did)}
    g20, g36 = numbers["plus_1_attack_d20"]["change_pts"], numbers["plus_1_attack_3d6"]["change_pts"]
    numbers["ratio_3d6_to_d20"] = round(g36 / g20, 2) if g20 else None
    numbers["much_bigger_means"] = "at least 1.5 times the d20 gain, and the difference significant"
    if low > 0 and g20 > 0 and g36 >= 1.5 * g20:
        return numbers, SUPPORTED
    if g36 > g20:
        return numbers, PARTLY
    return numbers, NOT


# 6 -------------------------------------------------------------------------------------------- players roll
EQUIVALENCE_PTS = 2.0


def _prad_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20", "d20+prad"), n, seed) for s in EVEN]


def _prad(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    from arena.rules.roll_claims import CLAIMS

    a, b = _concat(batch, EVEN, "d20", n, seed), _concat(batch, EVEN, "d20+prad", n, seed)
    exact = {c.id: c.evaluate()[0].get("max_shift_pct") for c in CLAIMS if c.id.startswith("prad-")}
    numbers = {"exact_per_roll_shift_pct": exact,
               "party_win_rate": diff_prop(_win(a), _win(b)),
               "party_hp_lost_pct": diff_values(a["party_hp_lost"], b["party_hp_lost"], 100),
               "equivalence_margin_pts": EQUIVALENCE_PTS}
    inside = [max(abs(x) for x in numbers[k]["ci"]) < EQUIVALENCE_PTS for k in ("party_win_rate",
                                                                                "party_hp_lost_pct")]
    outside = [min(abs(x) for x in numbers[k]["ci"]) > EQUIVALENCE_PTS and
               (numbers[k]["ci"][0] > 0 or numbers[k]["ci"][1] < 0)
               for k in ("party_win_rate", "party_hp_lost_pct")]
    if all(inside):
        return numbers, SUPPORTED
    if any(outside):
        return numbers, NOT
    return numbers, PARTLY


# 7 -------------------------------------------------------------------------------------------- variable
def _var_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20", "d20+var"), n, seed) for s in EVEN]


def _variable(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    under_base, under_new, rows = [], [], []
    rounds_a, rounds_b = [], []
    for spec in EVEN:
        m = _m(spec, ("d20",), n, seed)
        a, b = batch.rows(m, "d20", n), batch.rows(m, "d20+var", n)
        pooled = (np.mean(_win(a)) + np.mean(_win(b))) / 2
        under = "party" if pooled < 0.5 else "monsters"
        under_base.append(_win(a, under))
        under_new.append(_win(b, under))
        rounds_a.append(a["rounds"].to_numpy(float))
        rounds_b.append(b["rounds"].to_numpy(float))
        rows.append({"matchup": m.name, "underdog": under, **diff_prop(_win(a, under), _win(b, under))})
    ra, rb = np.concatenate(rounds_a), np.concatenate(rounds_b)

    def sd_change(x: np.ndarray, y: np.ndarray) -> float:
        return float(np.std(y, ddof=1) - np.std(x, ddof=1))

    est, low, high = paired_bootstrap(sd_change, ra, rb, seed=seed)
    numbers = {"underdog_win_rate": diff_prop(np.concatenate(under_base), np.concatenate(under_new)),
               "by_matchup": rows,
               "rounds_sd": {"base": round(float(np.std(ra, ddof=1)), 3), "new": round(float(np.std(rb, ddof=1)), 3),
                             "change": round(est, 3), "ci": [round(low, 3), round(high, 3)], "n": len(ra)},
               "rounds_mean": diff_values(ra, rb)}
    up = _significant(numbers["underdog_win_rate"], +1)
    spread = low > 0
    if up and spread:
        return numbers, SUPPORTED
    if up or spread:
        return numbers, PARTLY
    return numbers, NOT


# 8 -------------------------------------------------------------------------------------------- open-ended
def _open_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20", "d20+open", "3d6", "3d6+open"), n, seed) for s in EVEN]


def _open(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    numbers: dict[str, Any] = {}
    below = []
    for die in ("d20", "3d6"):
        base, new = _concat(batch, EVEN, die, n, seed), _concat(batch, EVEN, f"{die}+open", n, seed)
        entry: dict[str, Any] = {"party_win_rate": diff_prop(_win(base), _win(new))}
        for side in ("party", "monsters"):
            attacks = int(new[f"attacks_{side}"].sum())
            for what in ("critical_successes", "fumbles"):
                count = int(new[f"{what}_{side}"].sum())
                low, high = wilson(count, attacks)
                entry[f"{what}_{side}"] = {"per_fight": round(count / len(new), 4),
                                           "per_attack_pct": _pt(count / attacks if attacks else float("nan")),
                                           "ci": [_pt(low), _pt(high)], "attacks": attacks}
                below.append(high < 0.05)
        numbers[f"{die}+open"] = entry
    numbers["note"] = ("per attack counts every critical success or fumble of the side (saves and checks "
                       "included) over its attack rolls, so it is an upper bound of the per-attack rate")
    if all(below):
        return numbers, SUPPORTED
    if any(below):
        return numbers, PARTLY
    return numbers, NOT


# 9 -------------------------------------------------------------------------------------------- press luck
def _press_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("3d6+luck",), n, seed, party_press=p) for s in EVEN for p in ("never", "when-better")]


def _press(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    numbers: dict[str, Any] = {}
    gains = []
    for level in sorted({s[0] for s in EVEN}):
        specs = [s for s in EVEN if s[0] == level]
        base = _concat(batch, specs, "3d6+luck", n, seed)
        new = _concat(batch, specs, "3d6+luck", n, seed, party_press="when-better")
        entry = diff_prop(_win(base), _win(new))
        pressed = int(new["luck_pressed_party"].sum())
        entry["rolls_pressed_per_fight"] = round(pressed / len(new), 3)
        numbers[f"level_{level}"] = entry
        gains.append(entry)
    base = _concat(batch, EVEN, "3d6+luck", n, seed)
    new = _concat(batch, EVEN, "3d6+luck", n, seed, party_press="when-better")
    numbers["all_levels"] = diff_prop(_win(base), _win(new))
    rising = all(gains[i + 1]["change_pts"] >= gains[i]["change_pts"] for i in range(len(gains) - 1))
    numbers["gain_rises_with_level"] = rising
    worth = _significant(numbers["all_levels"], +1)
    if worth and rising:
        return numbers, SUPPORTED
    if worth or rising:
        return numbers, PARTLY
    return numbers, NOT


# 10 ------------------------------------------------------------------------------------------- called shots
def _called_requests(n: int, seed: int) -> list[Matchup]:
    return [_m(s, ("d20+called", "3d6+called"), n, seed, party_called=c) for s in EVEN for c in ("never", "head")]


def _called(batch: Batch, n: int, seed: int) -> tuple[dict, str]:
    numbers: dict[str, Any] = {}
    wins = []
    for key in ("d20+called", "3d6+called"):
        base = _concat(batch, EVEN, key, n, seed)
        new = _concat(batch, EVEN, key, n, seed, party_called="head")
        calls, hits = int(new["called_shots_party"].sum()), int(new["called_hits_party"].sum())
        numbers[key] = {"party_win_rate": diff_prop(_win(base), _win(new)),
                        "rounds": diff_values(base["rounds"], new["rounds"]),
                        "called_shots_per_fight": round(calls / len(new), 3),
                        "called_hit_rate_pct": _pt(hits / calls) if calls else None}
        wins.append(_significant(numbers[key]["party_win_rate"], +1))
    shorter = any(_significant(numbers[k]["rounds"], -1) for k in ("d20+called", "3d6+called"))
    if all(wins):
        return numbers, SUPPORTED
    if any(wins) or shorter:
        return numbers, PARTLY
    return numbers, NOT


ENCOUNTER_CLAIMS: list[EncounterClaim] = [
    EncounterClaim(
        "bell-favours-stronger", BELL_CURVE,
        "Rolling 3d6 gives you a lot more average rolls, which favors the stronger side in combat.",
        "Over matchups at EL L+1..L+5 (levels 3, 5, 8; groups of 1, 2, 4) with a clear favourite (the side winning "
        ">= 65% pooled over both arms, < 98%), the favourite's win rate under 3d6 minus d20, paired. Supported if "
        "the pooled change is > 0 (95% interval), also separately for party and monster favourites, and in at "
        "least 2/3 of the matchups; partly if the pooled change or one side's is > 0; not supported otherwise.",
        _favourite_requests, _favourite, full_n=2000),
    EncounterClaim(
        "bell-fewer-lucky-shots", BELL_CURVE,
        "Many monsters — especially low-CR monsters encountered in groups — rely heavily on a lucky shot to damage "
        "PCs. When rolling 3d6, those lucky shots are fewer and farther between.",
        "Groups of 4, 6, 8 typical monsters of CR L-4 (at least 1/2) against parties of level 3, 5, 8, d20 against "
        "3d6 on the same seeds: the monsters' hit rate, the share of their damage dealt by lucky hits (chance <= "
        "25%) and lucky hits per fight, PCs down per fight and fights with a PC death. Supported if lucky hits per "
        "fight fall (\"fewer and farther between\"; interval below 0) and PCs down fall without deaths rising; partly "
        "if only one of the two; not supported otherwise. The lucky share of damage is reported beside it.",
        _low_requests, _lucky, full_n=3000),
    EncounterClaim(
        "bell-closer-to-10", BELL_CURVE,
        "In a fair fight when everyone rolls a 10, the PCs should win almost every time. The bell curve variant "
        "adheres more tightly to that average.",
        "The same fights with every d20-type roll a natural 10 (fixed10), under 3d6 and under d20, in fair fights "
        "(EL = party level) and even ones (EL L+3/L+4, where d20 wins are 30-95%): win rate fixed10 >= 3d6 >= d20. "
        "Supported if, in both sets, no step is reversed significantly and at least one is significantly in order, "
        "and fixed10 wins >= 90% (lower bound) of fair fights; partly if one of these; not supported otherwise.",
        _ten_requests, _ten, full_n=3000),
    EncounterClaim(
        "bell-group-cr", BELL_CURVE,
        "Any time creatures are encountered in groups of four or more, reduce their CR by 1.",
        f"Equivalent CR (arena calibrate) at party level {CALIBRATION_LEVEL} for groups of "
        f"{', '.join(map(str, CALIBRATION_SIZES))} typical monsters at EL L+3: Delta-CR(3d6). Supported if the rule's "
        "prediction (0 below four, -1 from four) lies within every size's 95% interval widened by 0.25 rung; partly "
        "if groups of four or more fall at least half a rung below smaller groups, or the step fits best of "
        "(step, no change, a constant); not supported otherwise.",
        _cal_requests, _calibration, full_n=2000),
    EncounterClaim(
        "bell-bonuses-matter-more", BELL_CURVE,
        "A character's skill ranks, ability scores, and gear have a much bigger impact on success and failure than "
        "they do in the standard d20 rules.",
        "+1 to every attack bonus of the party, in the even matchups: the change of the party's win rate under "
        "3d6 against under d20. Supported if the 3d6 gain is at least 1.5 times the d20 gain and their paired "
        "difference is > 0 (95% interval); partly if the 3d6 gain is larger at all; not supported otherwise.",
        _bonus_requests, _bonus, full_n=3000),
    EncounterClaim(
        "prad-same-in-fights", PLAYERS_ROLL,
        "This is effectively the same as rolling d20, adding your total AC, and then subtracting 10.",
        f"In the even matchups, players rolling all the dice against standard rolling: the party's win rate and "
        f"hit points lost (paired). Supported if both 95% intervals lie within +-{EQUIVALENCE_PTS:g} points; not "
        "supported if either lies wholly beyond it; partly otherwise. The exact per-roll shift (arena odds claims) "
        "is shown beside it.", _prad_requests, _prad, full_n=3000),
    EncounterClaim(
        "variable-less-predictable", BELL_CURVE,
        "The actual modifier added to the 1d20 roll might then be any value from 1 to 8, making the final result "
        "less predictable, even though the average would remain virtually the same.",
        "In the even matchups, variable modifiers against static (d20): the underdog's win rate (the side winning "
        "< 50% pooled) and the standard deviation of fight length in rounds. Supported if both rise (95% "
        "intervals above 0); partly if one does; not supported otherwise.", _var_requests, _variable, full_n=3000),
    EncounterClaim(
        "open-ended-in-fights", OPEN_ENDED,
        "the possibility of a critical or fumble occurs only if the initial resolution roll is rolled naturally, "
        "i.e. before modifiers, 20 (or within the Threat Range) or 1",
        "In the even matchups with open-ended rolls (d20+open, 3d6+open): critical successes and fumbles per "
        "attack roll of each side, and the change of the party's win rate against the same die without them. "
        "Supported if every rate's upper 95% bound is below the 5% of a natural 20 / natural 1; partly if some "
        "are; not supported otherwise (the win-rate effect is reported, not judged).",
        _open_requests, _open, full_n=2000),
    EncounterClaim(
        "press-luck-pays-with-modifier", PRESS_LUCK,
        "At lower static modifiers it's almost not worth pressing your luck, but as the static modifier goes up, "
        "the probability for a potential pay-off for pressing your luck goes up.",
        "Under 3d6+luck in the even matchups, the party pressing its luck when-better (when pressing gives the "
        "better exact chance) against never: the change of its win rate, overall and by party level (3, 5, 8: "
        "modifiers grow with level). Supported if the overall gain is > 0 (95% interval) and the gain does not "
        "fall as the level rises; partly if one of these; not supported otherwise.",
        _press_requests, _press, full_n=3000),
    EncounterClaim(
        "called-shots-worth-it", PRESS_LUCK,
        "Sometimes, despite the abstract nature of combat, you're going to want to apply damage to specific parts "
        "of the body",
        "Under d20+called and 3d6+called in the even matchups, the party calling shots at the head against "
        "never: the change of its win rate and of fight length. Supported if the win rate rises (95% interval) "
        "under both dice; partly if under one, or fights get shorter; not supported otherwise.",
        _called_requests, _called, full_n=2000),
]


def claim_ids() -> list[str]:
    from arena.rules.roll_claims import CLAIMS

    return [c.id for c in CLAIMS] + [c.id for c in ENCOUNTER_CLAIMS]


def sizes(quick: bool, n: int | None) -> dict[str, int]:
    """Encounters per arm of every encounter claim."""
    return {c.id: (n if n is not None else QUICK_N if quick else c.full_n) for c in ENCOUNTER_CLAIMS}


def requests(quick: bool = False, n: int | None = None, seed: int = RUN_SEED,
             only: Sequence[str] | None = None) -> list[Matchup]:
    per = sizes(quick, n)
    return [m for c in ENCOUNTER_CLAIMS if not only or c.id in only for m in c.requests(per[c.id], seed)]


@dataclass
class Evaluation:
    results: list[dict]
    batch: Batch | None
    seconds: float
    sizes: dict[str, int]
    seed: int
    quick: bool


def evaluate(*, quick: bool = False, n: int | None = None, seed: int = RUN_SEED, workers: int = 1,
             cluster: str | None = None, only: Sequence[str] | None = None,
             progress: Callable[[int, int], None] | None = None) -> Evaluation:
    """Every claim: the single-roll claims (exact) then the encounter claims (one batch of fights)."""
    from arena.errors import ArenaError
    from arena.rules.roll_claims import evaluate_all
    from arena.study.calibrate import check_n, check_seed, check_workers

    if n is not None:
        n = check_n(n, 3)
    seed, workers = check_seed(seed), check_workers(workers)
    if only is not None and not list(only):
        raise ArenaError("--only: give claim ids separated by commas (see `arena claims --json`)")
    if only:
        unknown = [x for x in only if x not in claim_ids()]
        if unknown:
            raise ArenaError(f"unknown claim {unknown[0]!r} (known: {', '.join(claim_ids())})")
    t0 = time.perf_counter()
    results = [r for r in evaluate_all() if not only or r["id"] in only]
    per = sizes(quick, n)
    chosen = [c for c in ENCOUNTER_CLAIMS if not only or c.id in only]
    batch = None
    if chosen:
        batch = run_batch(requests(quick, n, seed, only), workers=workers, cluster=cluster, progress=progress)
        for c in chosen:
            results.append(c.result(batch, per[c.id], seed))
    return Evaluation(results, batch, time.perf_counter() - t0, per, seed, quick)


def summary_rows(results: list[dict]) -> pd.DataFrame:
    """One row per claim: id, source, verdict, and the headline figure where there is one."""
    rows = []
    for r in results:
        rows.append({"id": r["id"], "source": r["source"], "verdict": r["verdict"],
                     "headline": _headline(r["numbers"])})
    return pd.DataFrame(rows)


def _headline(numbers: dict) -> str:
    for key in ("pooled_all", "underdog_win_rate", "all_levels", "3d6_gain_minus_d20_gain", "party_win_rate",
                "lucky_hits_per_fight"):
        if key in numbers and isinstance(numbers[key], dict):
            e = numbers[key]
            value = e.get("change_pts", e.get("pts"))
            if value is not None and "ci" in e:
                return f"{key}: {value:+.2f} pts [{e['ci'][0]:+.2f}, {e['ci'][1]:+.2f}]"
            if e.get("change") is not None and "ci" in e:     # a count per fight, not a percentage
                return f"{key}: {e['change']:+.3f} [{e['ci'][0]:+.3f}, {e['ci'][1]:+.3f}]"
    return ""


def _half_widths(x: Any, out: list[float]) -> list[float]:
    if isinstance(x, dict):
        ci = x.get("ci")
        if isinstance(ci, list) and len(ci) == 2 and ("change_pts" in x or "pts" in x) and \
                all(isinstance(v, int | float) and math.isfinite(v) for v in ci):
            out.append((ci[1] - ci[0]) / 2)
        for v in x.values():
            _half_widths(v, out)
    elif isinstance(x, list):
        for v in x:
            _half_widths(v, out)
    return out


def interval_widths(results: list[dict]) -> dict[str, float]:
    """The median half-width (points) of the change intervals of each encounter claim (for the report)."""
    out = {}
    for r in results:
        widths = _half_widths(r["numbers"], [])
        if widths:
            out[r["id"]] = round(float(np.median(widths)), 2)
    return out
