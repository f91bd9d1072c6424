"""The calibration grid (Delta-CR per variant with sequential stopping and a CR-ladder search), the group-CR claim
by model comparison, the replacement CR rule per variant, and the DMG anchor check.

**Calibration** (the method of :mod:`arena.study.calibration.equivalent_cr`): for a cell (party level, monster,
group size) and a variant V, c*(V) is the CR of the typical monster (same group size, standard d20, same seeds)
whose difficulty (hit points lost) equals the subject's under V; Delta-CR(V) = c*(V) - c*(d20). Here the ladder is
*searched* rather than fought whole: it starts at two rungs either side of the subject's CR and grows by two rungs
in the direction an arm fell off it, at each look, within the ladder's ends (CR 1/8 and 20: a cell below 1/2 is
censored at 1/8 now, not at 1/2). Sampling is sequential (:mod:`arena.study.statistics.sequential`):
looks at :data:`STAGES` encounters per arm, intervals at 1 - 0.05/K, a cell stops when every variant's Delta-CR
interval is at most :data:`TARGET` rungs either side. The report counts the encounters saved against fighting the
whole ladder of :mod:`arena.study.calibration.calibrate` (9 rungs) to the last stage.

Why a module of its own: the grid is the claims' calibration (its cells are the factor design's,
:mod:`arena.study.claims.design`), fought in batches look by look and judged by the group-CR models of
:mod:`arena.study.calibration.cr_rule`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from arena.study.calibration import censored
from arena.study.calibration.equivalent_cr import EXPANDED, difficulty_values, equivalent_cr, percentile_level
from arena.study.claims import design
from arena.study.claims.design import Arm, matchup
from arena.study.runs.matchups import Matchup, run_batch
from arena.study.runs.offload import map_on_workers
from arena.study.statistics.sequential import SequentialRule, stage_seed

STAGES, QUICK_STAGES = (150, 300, 600), (40,)
TARGET = 0.25
RESAMPLES, INTERVAL = 3000, EXPANDED
"""Delta-CR intervals: the expanded percentile bootstrap (small samples keep their coverage) of 3,000 resamples, so
each tail of a 98.3% interval rests on 20 or more (200 left it on under two); the sequential rule's coverage for
this interval is tested (tests/study/test_grid_coverage.py)."""
INITIAL_RUNGS, GROW, MAX_FROM_SUBJECT = 2, 2, 6
SEARCHES = 3
"""Tries of the ladder search per look: fight, look, grow the ladder where an arm fell off it, fight again."""
LOWEST, HIGHEST = design.LOWEST_RUNG, design.HIGHEST_RUNG
"""The search's bounds: the ladder's ends, CR 1/8 (position -4) and 20."""
FULL_LADDER = 9
"""Rungs the fixed-ladder calibration fights (4 below to 4 above): what the search saves against."""
D20 = Arm("d20")
VARIANTS: dict[str, Arm] = {
    "3d6": Arm("3d6"),
    "3d6 + Luck domain spells": Arm("3d6", model=(("domain_spells", "by-die"),)),
    "players roll all": Arm("d20+prad"),
    "variable modifiers": Arm("d20+var"),
    "open-ended": Arm("d20+open"),
    "3d6 press your luck": Arm("3d6+luck", party_press="when-better"),
    "3d6 press luck + called shots": Arm("3d6+luck+called", party_press="when-better", party_called="when-better"),
}
"""Every variant of the documents (and the documented combinations), each against standard d20."""
SRD_LEVELS, SRD_SIZES, SRD_EL = (1, 3, 5, 8), (1, 2, 4), (0, 2)


MEASURE = "resources"
"""The calibration measure, fixed before any number (issue 26): what the DMG means by an encounter's challenge, the
party's resources spent (hit points and spell levels: :data:`arena.study.calibration.equivalent_cr.RESOURCES`).
Hit points lost alone was chosen before because it separated the ladder's rungs best, which is not what challenge
means; PC deaths are the DMG's other cost, a separate measure."""
SIDE_MEASURES = ("hp-lost", "death", "win")
"""Delta-CR is published under these too, side by side (each cell's last look; the rule is fitted on
:data:`MEASURE`)."""
SATURATED = censored.SATURATED
"""An arm or rung whose party loses at least 95% of its hit points on average is saturated (a wipe): every rung
that saturates too matches it, so its c* is that span of rungs, open upward when the span reaches the top of the
ladder fought (:func:`arena.study.calibration.censored.arm_interval`), never the middle of the span."""


@dataclass
class CellState:
    cell: design.Cell
    monster: str
    population: str
    arms: dict[str, Arm]
    rungs: set[int] = field(default_factory=set)
    looks: int = 0
    done: bool = False
    rows: list[dict] = field(default_factory=list)


@dataclass
class Grid:
    """The calibration grid's cells (one row per cell and arm) and its cost; the group-CR judgement fills
    ``judgement`` (:mod:`arena.study.claims.group_cr`)."""

    cells: pd.DataFrame
    encounters: int
    seconds: float
    saved: int
    full_cost: int
    rule: SequentialRule
    judgement: Any = None


def _position(cr: Fraction) -> int:
    from arena.world.challenge import cr_rank

    return int(cr_rank(cr))


def start_rungs(state: CellState) -> None:
    """A cell's first ladder: two rungs either side of its subject's CR, within the ladder's ends."""
    p = _position(state.cell[1])
    state.rungs = {q for q in range(p - INITIAL_RUNGS, p + INITIAL_RUNGS + 1) if LOWEST <= q <= HIGHEST}


def _cells(quick: bool, variation: str | None = None) -> list[CellState]:
    """The grid's cells; under a model ``variation`` (a robustness re-run) only the typical monster's, and only the
    arms the group-CR verdict reads (d20 and 3d6)."""
    out = []
    subject_arms = {"d20": D20, **VARIANTS} if variation is None else {"d20": D20, "3d6": VARIANTS["3d6"]}
    for cell in design.grid_cells():
        out.append(CellState(cell, design.typical(cell[1]), "typical", subject_arms))
    srd_cells = design.grid_cells(SRD_LEVELS, SRD_SIZES, SRD_EL) if variation is None else []
    for cell in srd_cells:
        for m in design.srd_monsters(cell[1]):
            out.append(CellState(cell, m, "srd", {"d20": D20, "3d6": VARIANTS["3d6"]}))
    for s in out:
        start_rungs(s)
    return out


def _series(
    state: CellState, seed: int, look: int, n: int, variation: str | None = None
) -> list[tuple[str, Matchup, str]]:
    """(label, matchup, rules) of everything a cell fights at a stage (under a model ``variation``)."""
    level, _cr, size = state.cell
    s_seed = stage_seed(seed, look)
    out = []
    for label, arm in state.arms.items():
        m = matchup(state.cell, state.monster, arm, n, s_seed, variation)
        out.append((label, m, arm.rules))
    for q in sorted(state.rungs):
        cr = design.rung_cr(q)
        m = matchup((level, cr, size), design.typical(cr), D20, n, s_seed, variation)
        out.append((f"rung {q}", m, "d20"))
    return out


Values = dict[tuple[str, str, int], dict[str, np.ndarray]]
"""Per (matchup, rules, stage): every measure's per-encounter values."""


def _measures(rows: pd.DataFrame) -> dict[str, np.ndarray]:
    return {m: difficulty_values(rows, m) for m in (MEASURE, *SIDE_MEASURES)}


def run_grid(*, quick: bool = False, variation: str | None = None, **options: Any) -> Grid:
    """Calibrate every cell (sequentially, searching the ladder); ``variation``: under one of the fight model's
    contested choices (:data:`arena.study.claims.design.VARIATIONS`), the typical monster under d20 and 3d6 only.
    ``options``: as :func:`calibrate_cells` (``n``, ``seed``, ``workers``, ``cluster``, ``progress``, ``store``: a
    study folder keeping every batch's chunks, so a resumed grid replays its looks on the chunks it finds; ``stop``,
    ``share_pool``: :func:`arena.study.runs.matchups.run_batch`)."""
    return calibrate_cells(_cells(quick, variation), quick=quick, variation=variation, **options)


def calibrate_cells(
    states: list[CellState],
    *,
    quick: bool = False,
    n: int | None = None,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    progress: Callable[[int, int], None] | None = None,
    variation: str | None = None,
    store: Any = None,
    **fighting: Any,
) -> Grid:
    """Calibrate ``states`` (cells with their subject and arms) as :func:`run_grid` does: the sequential looks, the
    ladder search, censoring and the side measures (also the re-rated bestiary's creatures,
    :mod:`arena.study.claims.bestiary_cr`)."""
    fighting_at = {"workers": workers, "cluster": cluster}  # where the cells are judged too (map_on_workers)
    stages = (n,) if n is not None else QUICK_STAGES if quick else STAGES
    rule = SequentialRule(tuple(stages), TARGET if len(stages) > 1 else math.inf)
    incs = rule.increments()
    values: Values = {}
    encounters, seconds = 0, 0.0
    for look in range(rule.looks):
        active = [s for s in states if not s.done]
        if not active:
            break
        for attempt in range(SEARCHES):  # the ladder search: fight, look, grow the ladder, fight again
            for k in range(look + 1):  # one batch per stage: a matchup's name is unique within a run
                wanted: list[Matchup] = []
                for s in active:
                    for _label, m, rules in _series(s, seed, k, incs[k], variation):
                        if (m.name, rules, k) not in values:
                            wanted.append(replace(m, rules=(rules,)))
                if not wanted:
                    continue
                batch = run_batch(wanted, workers=workers, cluster=cluster, progress=progress, store=store, **fighting)
                encounters += batch.encounters
                seconds += batch.seconds
                whole = _measures(batch.frame)  # every measure over the batch once, then sliced per matchup
                for m in wanted:
                    start, stop = batch.span(m, m.rules[0], incs[k])
                    values[(m.name, m.rules[0], k)] = {name: v[start:stop] for name, v in whole.items()}
            jobs = [
                Judging(s, _series_values(s, seed, look + 1, incs, values, variation), seed, look, rule, attempt)
                for s in active
            ]
            judged = map_on_workers(judge_cell, jobs, **fighting_at)
            grew = False
            for s, (rungs, rows, cell_grew) in zip(active, judged, strict=True):
                s.rungs, s.rows = rungs, rows
                grew |= cell_grew
            if not grew:
                break
        for s in active:
            s.looks = look + 1
            widths = [(r["delta_high"] - r["delta_low"]) / 2 for r in s.rows if r["variant"] != "d20"]
            s.done = rule.stops(look, widths, any(r["off_ladder"] for r in s.rows))
    jobs = [
        Judging(s, _series_values(s, seed, s.looks, incs, values, variation), seed, s.looks - 1, rule) for s in states
    ]
    for s, rows in zip(states, map_on_workers(side_measures, jobs, **fighting_at), strict=True):
        s.rows = rows
    rows = [r for s in states for r in s.rows]
    cells = pd.DataFrame(rows)
    series = [len(s.arms) + FULL_LADDER - 1 for s in states]  # the full ladder holds the subject's own rung
    full_cost = int(sum(rule.stages[-1] * k for k in series))
    saved = max(0, full_cost - encounters)
    return Grid(cells, encounters, seconds, saved, full_cost, rule)


def _series_values(
    s: CellState, seed: int, looks: int, incs: list[int], values: Values, variation: str | None
) -> dict[str, dict[str, np.ndarray]]:
    """Every series of a cell (arms and rungs) over its first ``looks`` stages: label -> measure -> values."""
    parts: dict[str, list[dict[str, np.ndarray]]] = {}
    for k in range(looks):
        for label, m, rules in _series(s, seed, k, incs[k], variation):
            parts.setdefault(label, []).append(values[(m.name, rules, k)])
    return {label: {meas: np.concatenate([v[meas] for v in vs]) for meas in vs[0]} for label, vs in parts.items()}


def _arm_interval(
    entry: dict, arm_hp: float, arm_value: float, rungs: list[int], rung_hp: np.ndarray, rung_value: np.ndarray
) -> tuple[tuple[float, float], str]:
    """What is known of one arm's c* (an interval of ladder positions) and why: "" measured, "below"/"above" off
    the ladder fought, "saturated" (:data:`SATURATED`: the span of the rungs that saturate too), "nothing spent"
    (the party spends nothing, as on every rung from the ladder's foot up to the last that costs nothing)."""

    ends = (float(rungs[0]), float(rungs[-1]))
    span = censored.saturated_span(arm_hp, rungs, rung_hp)
    if span is not None:
        return censored.arm_interval(entry["c_star"], "", ends, span), "saturated"
    idle = censored.idle_span(arm_value, rungs, rung_value)
    if idle is not None:
        return (-math.inf, idle[1]), "nothing spent"
    flag = str(entry["censored"])
    return censored.arm_interval(entry["c_star"], flag, ends), flag


def _calibrate(
    s: CellState,
    series: dict[str, dict[str, np.ndarray]],
    measure: str,
    seed: int,
    confidence: float,
    fought: set[int] | None = None,
):
    """c*, Delta-CR and what is known of each (censoring) for every arm of a cell under one measure, on the rungs
    ``fought`` (default: the cell's ladder)."""

    rungs = sorted(s.rungs if fought is None else fought)
    ladder = {float(q): series[f"rung {q}"][measure] for q in rungs}
    arms = {label: series[label][measure] for label in s.arms}
    result = equivalent_cr(ladder, arms, resamples=RESAMPLES, seed=seed, confidence=confidence, interval=INTERVAL)
    rung_hp = np.array([series[f"rung {q}"]["hp-lost"].mean() for q in rungs])
    rung_value = np.array([v.mean() for v in ladder.values()])
    known = {
        label: _arm_interval(r, series[label]["hp-lost"].mean(), arms[label].mean(), rungs, rung_hp, rung_value)
        for label, r in result.items()
    }
    z = _z(percentile_level(confidence, int(result["d20"]["n"]), INTERVAL))  # the quantile the interval is cut at
    base_interval, base_why = known["d20"]
    for label, r in result.items():
        interval, why = known[label]
        se = (r.get("delta_high", 0.0) - r.get("delta_low", 0.0)) / (2 * z)
        cell = censored.exact(0.0, 0.0) if label == "d20" else censored.delta_bounds(interval, base_interval, se)
        r.update(
            arm_low=interval[0],
            arm_high=interval[1],
            why=why,
            base_why=base_why,
            se=se,
            censor=cell["censor"],
            low=cell["low"],
            high=cell["high"],
            off_ladder=why in ("below", "above") or base_why in ("below", "above"),
        )
    return result


def _off_the_ladder(s: CellState, series: dict[str, dict[str, np.ndarray]], measure: str) -> tuple[bool, bool]:
    """Whether some arm fell below / above the ladder fought, from the point estimates (what :func:`_calibrate`
    would say without its bootstrap: a saturated arm or one that costs nothing is not off the ladder)."""
    from arena.study.calibration.equivalent_cr import fitted_curve, reached

    rungs = sorted(s.rungs)
    means = np.array([series[f"rung {q}"][measure].mean() for q in rungs])
    rung_hp = np.array([series[f"rung {q}"]["hp-lost"].mean() for q in rungs])
    fit = fitted_curve([float(q) for q in rungs], means)
    below = above = False
    for label in s.arms:
        arm = float(series[label][measure].mean())
        c, flag = reached(fit, arm)
        why = _arm_interval(
            {"c_star": c, "censored": flag}, float(series[label]["hp-lost"].mean()), arm, rungs, rung_hp, means
        )[1]
        below |= why == "below"
        above |= why == "above"
    return below, above


@dataclass
class Judging:
    """What judging a cell needs, sent to a worker (:func:`arena.study.runs.offload.map_on_workers`): the cell, every
    series it has fought over its looks so far (label -> measure -> values), and the look and search try."""

    state: CellState
    series: dict[str, dict[str, np.ndarray]]
    seed: int
    look: int
    rule: SequentialRule
    attempt: int = SEARCHES - 1


def judge_cell(job: Judging) -> tuple[set[int], list[dict], bool]:
    """A cell's ladder and rows after judging what it has fought (:func:`_evaluate`), and whether its ladder grew;
    a worker judges a copy of the cell, so the parent sets what comes back (in process it is the cell itself)."""
    s = job.state
    grew = _evaluate(s, job.series, job.seed, job.look, job.rule, last=job.attempt == SEARCHES - 1)
    return s.rungs, s.rows, grew


def side_measures(job: Judging) -> list[dict]:
    """A cell's rows with Delta-CR under each of :data:`SIDE_MEASURES` beside the main one (:func:`_side_measures`)."""
    _side_measures(job.state, job.series, job.seed, job.rule)
    return job.state.rows


def _evaluate(
    s: CellState,
    series: dict[str, dict[str, np.ndarray]],
    seed: int,
    look: int,
    rule: SequentialRule,
    last: bool = True,
) -> bool:
    """Calibrate a cell on what it has fought (``series``); grow its ladder where an arm fell off it. True if it
    grew. Whether it grows is read from the point estimates alone; the bootstrap runs only for the ladder the cell
    keeps (or, on the search's ``last`` try, for the ladder it had)."""
    level, cr, size = s.cell
    p = _position(cr)
    low_needed, high_needed = _off_the_ladder(s, series, MEASURE)
    old_rungs = set(s.rungs)
    grew = False
    if low_needed and min(s.rungs) > max(LOWEST, p - MAX_FROM_SUBJECT):
        s.rungs |= {q for q in range(min(s.rungs) - GROW, min(s.rungs)) if q >= LOWEST}
        grew = True
    if high_needed and max(s.rungs) < min(HIGHEST, p + MAX_FROM_SUBJECT):
        s.rungs |= {q for q in range(max(s.rungs) + 1, max(s.rungs) + 1 + GROW) if q <= HIGHEST}
        grew = True
    if grew and not last:
        return True
    result = _calibrate(s, series, MEASURE, seed, rule.confidence, old_rungs)  # the rows: the ladder fought
    s.rows = []
    for label, r in result.items():
        why = r["why"] or (f"d20 {r['base_why']}" if r["base_why"] and label != "d20" else "")
        s.rows.append(
            {
                "population": s.population,
                "monster": s.monster,
                "level": level,
                "cr": str(cr),
                "cr_pos": p,
                "gap": p - level,
                "size": size,
                "variant": label,
                "measure": MEASURE,
                "n": r["n"],
                "difficulty": r["difficulty"],
                "hp_lost": float(series[label]["hp-lost"].mean()),
                "c_star": r["c_star"],
                "c_star_low": r["c_star_low"],
                "c_star_high": r["c_star_high"],
                "delta": r.get("delta", 0.0),
                "delta_low": r.get("delta_low", 0.0),
                "delta_high": r.get("delta_high", 0.0),
                "se": r["se"],
                "censored": why,
                "off_ladder": r["off_ladder"],
                "censor": r["censor"],
                "low": r["low"],
                "high": r["high"],
                "arm_low": r["arm_low"],
                "arm_high": r["arm_high"],
                "arm_why": r["why"],
                "rungs": f"{min(old_rungs)}..{max(old_rungs)}",
                "looks": look + 1,
            }
        )
    return grew


def _side_measures(s: CellState, series: dict[str, dict[str, np.ndarray]], seed: int, rule: SequentialRule) -> None:
    """Delta-CR of the cell's arms under each of :data:`SIDE_MEASURES` (at its last look), beside the main one."""
    for measure in SIDE_MEASURES:
        result = _calibrate(s, series, measure, seed, rule.confidence)
        key = measure.replace("-", "_")
        for row in s.rows:
            r = result[row["variant"]]
            row[f"delta_{key}"] = r.get("delta", 0.0)
            row[f"delta_{key}_low"] = r.get("delta_low", 0.0)
            row[f"delta_{key}_high"] = r.get("delta_high", 0.0)
            row[f"censor_{key}"] = r["censor"]


def _z(confidence: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + confidence / 2))


# --------------------------------------------------------------------------------------------- the DMG anchor
@dataclass
class Anchor:
    table: pd.DataFrame
    encounters: int
    seconds: float


def _slots(level: int) -> int:
    from arena.world.party import generate_party

    return sum(
        len(v) for c in generate_party(level) if c.spellcasting for lv, v in c.spellcasting.prepared.items() if lv >= 1
    )


def run_anchor(
    *,
    quick: bool = False,
    n: int | None = None,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    progress: Callable[[int, int], None] | None = None,
    store: Any = None,
    **fighting: Any,
) -> Anchor:
    """EL = party level under the standard rules and the default (SRD-faithful) fight model, typical and SRD
    (``fighting``: more options for the batch, as :func:`run_grid`)."""
    from arena.combat.model import ModelOptions

    size_n = n if n is not None else 40 if quick else 400
    units = []
    for cell in design.anchor_cells():
        level, cr, size = cell
        for pop in ("typical", "srd"):
            for m in design.monsters(cr, pop):
                units.append((cell, pop, m, Matchup(level, m, size, ("d20",), size_n, seed, model=ModelOptions())))
    batch = run_batch(
        [u[3] for u in units], workers=workers, cluster=cluster, progress=progress, store=store, **fighting
    )
    rows = []
    for cell, pop, m, mu in units:
        f = batch.rows(mu, "d20", size_n)
        level, cr, size = cell
        slots = _slots(level)
        rows.append(
            {
                "level": level,
                "population": pop,
                "monster": m,
                "size": size,
                "hp lost %": 100 * f["party_hp_lost"].mean(),
                "spells cast % of slots": 100 * f["spells_cast_party"].mean() / slots if slots else 0.0,
                "fights with a PC death %": 100 * (f["pcs_dead"] > 0).mean(),
                "PCs dropped per fight": f["downs_monsters"].mean(),
                "party win %": 100 * (f["winner"] == "party").mean(),
            }
        )
    table = pd.DataFrame(rows)
    table["resources %"] = (table["hp lost %"] + table["spells cast % of slots"]) / 2
    return Anchor(table, batch.encounters, batch.seconds)


def anchor_summary(anchor: Anchor) -> pd.DataFrame:
    """Per level and population: the mean over its matchups (the DMG expects ~20% resources, no deaths)."""
    cols = [
        "hp lost %",
        "spells cast % of slots",
        "resources %",
        "fights with a PC death %",
        "PCs dropped per fight",
        "party win %",
    ]
    return anchor.table.groupby(["level", "population"])[cols].mean().reset_index()
