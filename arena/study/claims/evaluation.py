"""Every claim of the documents, evaluated (`arena claims`): the single-roll claims of :mod:`arena.rules.roll_claims`
(exact odds) and the encounter claims of :mod:`arena.study.claims.statements` (simulated fights), redesigned for
issue 16.

Each encounter claim states, in the code and before any number is computed: its matchups (a selection rule of
:mod:`arena.study.claims.design`), its arms (rule sets, tactics, the +1 bonus), its measure, the direction it
predicts and its practical margin. The method (docs/claims.md):

* **Fair comparisons.** Every arm fights the same party with the same spells
  (:data:`arena.study.claims.design.BASE_MODEL`: the d20 domain list under every die); the Luck domain's spells are
  their own arm.
* **Paired, and the matchup the unit.** Every arm of a matchup fights encounter ``i`` on ``encounter_seed(seed,
  i)``; a claim's effect is the mean of per-matchup paired effects, with an interval over matchups
  (:mod:`arena.study.statistics.inference`): t for differences, a cluster bootstrap for ratios.
* **Verdicts** against the stated margin: ``supported``, ``not supported``, ``direction shown (size undecided)``,
  ``inconclusive`` (and ``partly supported`` for a claim of several parts that split), with Holm's step-down over
  every part of every encounter claim (:mod:`arena.study.statistics.inference`). A claim that states a motive, not
  an effect, is ``descriptive``: its numbers with intervals, no margin, no test, outside Holm's families.
* **Robustness.** Each claim is evaluated again under each contested fight-model option
  (:data:`arena.study.claims.design.VARIATIONS`) and with SRD monsters instead of the typical one; the report says
  ``robust`` or which choice turns the verdict.
* **Die-invariant measures**: long shots (hits that needed a natural a d20 makes at most 25% of the time, and saves
  against a spell or special attack failed although a d20 fails them at most 25% of the time; 35% and 45% beside)
  counted by the engine's record (``long_shot_hits_<side>``, ``long_shot_saves_<side>``, ``long_shot35_*``,
  ``long_shot45_*``); PCs dropped during the fight (``downs_monsters``); deaths; hit points lost.

The group-CR claim is judged on the calibration grid by model comparison (:mod:`arena.study.claims.grid`).

Why a module of its own: it is the one place that fights every claim's matchups (one batch over every variation)
and judges them together (Holm over every part of every encounter claim).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.study.claims import design
from arena.study.claims.bestiary_cr import Bestiary, run_bestiary
from arena.study.claims.design import matchup
from arena.study.claims.grid import Anchor, Grid, run_anchor, run_grid
from arena.study.claims.group_cr import group_cr_result, judge_grid
from arena.study.claims.measures import DESCRIPTIVE, Data, Part
from arena.study.claims.statements import ENCOUNTER_CLAIMS, GROUP_CR, EncounterClaim, claim_ids
from arena.study.runs.cluster import cluster_session
from arena.study.runs.matchups import Batch, Matchup, run_batch
from arena.study.runs.options import check_n, check_seed, check_workers
from arena.study.runs.parent_threads import one_blas_thread
from arena.study.statistics import inference as inf

RUN_SEED = 20250607
QUICK_N = 40
"""Encounters per arm and matchup in ``--quick`` (the matchup being the unit, 40 fights each still give usable
matchup means). Its verdicts use the full study's rules (alpha 0.05 after Holm): they are a preview at a small size,
with wide intervals, that the full study may turn (the quick output says so)."""
QUICK_PREVIEW = (
    "quick verdicts are a preview at a small size (wide intervals), judged by the full study's rules; "
    "the full study (without --quick) may turn them"
)
FULL_N = 300
ROBUST_SHARE = 0.5
"""Robustness re-runs fight this share of the main size per arm (at least the quick size)."""
SUPPORTED, PARTLY, NOT, INCONCLUSIVE, DIRECTION = inf.SUPPORTED, inf.PARTLY, inf.NOT, inf.INCONCLUSIVE, inf.DIRECTION


def sizes(quick: bool, n: int | None) -> dict[str, int]:
    """Encounters per arm and matchup of the main analysis and of the robustness re-runs."""
    main = n if n is not None else QUICK_N if quick else FULL_N
    robust = n if n is not None else QUICK_N // 2 if quick else max(QUICK_N, int(FULL_N * ROBUST_SHARE))
    return {"main": main, "robustness": robust}


VARIATION_NAMES = (None, *design.VARIATIONS, design.POPULATION_VARIATION)


def _units(claim: EncounterClaim, variation: str | None) -> list[tuple[design.Cell, str]]:
    population = "srd" if variation == design.POPULATION_VARIATION else "typical"
    return [(cell, m) for cell in claim.cells() for m in design.monsters(cell[1], population, design.CLAIMS_SRD_PER_CR)]


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


@dataclass
class Judged:
    """One encounter claim judged under one variation: its stated parts (each with its verdict), the numbers
    reported beside them, the matchups behind them, and the claim's verdict."""

    parts: list[Part]
    extra: dict
    matchups: int = 0
    verdict: str = INCONCLUSIVE


def judge(
    claims: Sequence[EncounterClaim], batch: Batch, n: int, seed: int, variation: str | None, alpha: float = inf.ALPHA
) -> dict[str, Judged]:
    """Every claim's parts under one variation, Holm over all their parts (one family per test: beyond the margin,
    within it, the direction alone), verdicts at level ``alpha``; by claim id."""
    return judge_variations(claims, batch, {variation: n}, seed, alpha)[variation]


def judge_variations(
    claims: Sequence[EncounterClaim],
    batch: Batch,
    sizes_by_variation: dict[str | None, int],
    seed: int,
    alpha: float = inf.ALPHA,
    **where: Any,
) -> dict[str | None, dict[str, Judged]]:
    """:func:`judge` under every variation (encounters per arm and matchup: ``sizes_by_variation``), by variation.

    Each claim's measure under each variation (bootstraps, regressions: the costly part) is computed where the study
    fights (``where``: ``workers``, ``cluster``; :func:`arena.study.runs.offload.map_on_workers`), each sent only the
    rows it reads; Holm and the verdicts follow here. The answers are those of one process: a measure is a pure
    function of its rows and the seed."""
    from arena.study.runs.offload import map_on_workers

    items = [
        (variation, c, _data(batch, c, variation, n, seed))
        for variation, n in sizes_by_variation.items()
        for c in claims
    ]
    measured = iter(map_on_workers(_measure, [(c, data, seed) for _v, c, data in items if data.units], **where))
    judged: dict[str | None, dict[str, Judged]] = {variation: {} for variation in sizes_by_variation}
    parts: dict[str | None, list[Part]] = {variation: [] for variation in sizes_by_variation}
    for variation, c, data in items:
        if not data.units:
            judged[variation][c.id] = Judged([], {"note": "no matchups in this population"})
            continue
        ps, extra = next(measured)
        judged[variation][c.id] = Judged(ps, extra, len(data.units))
        parts[variation] += ps
    for variation in sizes_by_variation:
        _verdicts(claims, judged[variation], parts[variation], alpha)
    return judged


def _measure(item: tuple[EncounterClaim, Data, int]) -> tuple[list[Part], dict]:
    """One claim's parts and reported numbers on its rows (a task of :func:`judge_variations`)."""
    claim, data, seed = item
    return claim.measure(data, seed)


def _verdicts(claims: Sequence[EncounterClaim], out: dict[str, Judged], parts: list[Part], alpha: float) -> None:
    """Holm over the parts of one variation, then each part's and each claim's verdict."""
    pv = [p.pvalues() for p in parts]  # a descriptive part's are NaN: it stays out of every family
    families = [inf.holm([v[i] for v in pv]) for i in range(3)]
    for p, a, b, d in zip(parts, *families, strict=True):
        p.p_adjusted = (a, b, d)
        if p.kind == DESCRIPTIVE:
            p.verdict = DESCRIPTIVE
        elif p.kind == "equivalence":
            p.verdict = SUPPORTED if a < alpha else NOT if b < alpha else INCONCLUSIVE
        else:
            p.verdict = inf.directional_verdict(a, b, alpha, p_direction=d)
    for c in claims:
        r = out[c.id]
        if c.descriptive:
            r.verdict = DESCRIPTIVE
        elif r.parts:
            r.verdict = inf.combine([p.verdict for p in r.parts])


@dataclass
class Evaluation:
    """What ``arena claims`` found: every claim's result (the single-roll claims, the encounter claims, the group-CR
    claim), the batch of fights, the calibration grid and the DMG anchor, and the encounters and seconds of each."""

    results: list[dict]
    batch: Batch | None
    seconds: float
    sizes: dict[str, int]
    seed: int
    quick: bool
    grid: Grid | None = None
    anchor: Anchor | None = None
    timings: dict[str, tuple[int, float]] = field(default_factory=dict)
    bestiary: Bestiary | None = None


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
    announce: Callable[[str], None] | None = None,
) -> Evaluation:
    """Every claim: the single-roll claims (exact), the encounter claims (one batch of fights over every
    variation), then the calibration grid, the group-CR claim and the DMG anchor (when the claim is asked for).

    ``cluster``: a Dask scheduler address (connected to once, for the whole study) or an open client. ``store``: a
    study folder (:func:`arena.study.runs.study_folder.open_study`) that keeps every finished chunk, so an interrupted
    study resumes where it stopped, with the same numbers. ``announce``: told a line as each part of the study
    starts and ends (:func:`arena.study.runs.phases.run_phases`)."""

    if n is not None:
        n = check_n(n, 3)
    seed, workers = check_seed(seed), check_workers(workers)
    if only is not None and not list(only):
        raise ArenaError("--only: give claim ids separated by commas (see `arena claims --json`)")
    if only:
        unknown = [x for x in only if x not in claim_ids()]
        if unknown:
            raise ArenaError(f"unknown claim {unknown[0]!r} (known: {', '.join(claim_ids())})")
    with cluster_session(cluster) as client, one_blas_thread():
        return _evaluate(quick, n, seed, workers, client, only, progress, robustness, store, announce)


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
    announce: Callable[[str], None] | None = None,
) -> Evaluation:
    """:func:`evaluate` with its options checked and its cluster open. The study's parts (the encounter claims,
    the calibration grid, its re-runs under the model's options, the DMG anchor) are independent: they are fought
    at once on the pool (:func:`arena.study.runs.phases.run_phases`), each judged while the others fight."""
    from arena.rules.roll_claims import evaluate_all
    from arena.study.runs.phases import run_phases

    t0 = time.perf_counter()
    fighting: dict[str, Any] = {"workers": workers, "cluster": cluster, "progress": progress, "store": store}
    results = [r for r in evaluate_all() if not only or r["id"] in only]
    per = sizes(quick, n)
    chosen = [c for c in ENCOUNTER_CLAIMS if not only or c.id in only]
    variations: tuple[str | None, ...] = VARIATION_NAMES if robustness else (None,)
    group = not only or GROUP_CR in only
    grid_variations = tuple(design.VARIATIONS) if group and robustness else ()

    def encounter_claims(fights: dict[str, Any]) -> tuple[Batch, list[dict]]:
        batch = run_batch(requests(chosen, per, seed, variations), **fights)
        return batch, _encounter_results(chosen, batch, per, seed, variations, inf.ALPHA, robustness, fights)

    def grid_phase(variation: str | None) -> Callable[[dict[str, Any]], Grid]:
        def fight_and_judge(fights: dict[str, Any]) -> Grid:  # judged on the phase's thread, beside other fights
            # The main grid is the study's longest chain (each look's batches wait on the judging of the last):
            # its chunks lead on a shared pool, and the other parts fill the gaps (execute's ``lead``).
            grid = run_grid(quick=quick, n=n, seed=seed, variation=variation, lead=variation is None, **fights)
            judge_grid(grid, **fights)  # its hold-out checks computed on the workers
            return grid

        return fight_and_judge

    phases: dict[str, Callable[[dict[str, Any]], Any]] = {}
    if chosen:
        phases["encounter claims"] = encounter_claims
    if group:
        phases["calibration grid"] = grid_phase(None)
        phases.update({f"grid: {name}": grid_phase(name) for name in grid_variations})
        phases["DMG anchor"] = lambda fights: run_anchor(quick=quick, n=n, seed=seed, **fights)
        if not quick:  # the re-rated bestiary is the full study's (a quick look per creature would say little)
            phases["re-rated bestiary"] = lambda fights: run_bestiary(n=n, seed=seed, **fights)
    done = run_phases(phases, fighting, announce)

    batch: Batch | None = None
    timings: dict[str, tuple[int, float]] = {}
    if chosen:
        batch, judged = done["encounter claims"]
        timings["encounter claims"] = (batch.encounters, batch.seconds)
        results += judged
    grid: Grid | None = None
    anchor: Anchor | None = None
    if group:
        grid, anchor = done["calibration grid"], done["DMG anchor"]
        others = {name: done[f"grid: {name}"] for name in grid_variations}
        timings["calibration grid"] = (grid.encounters, grid.seconds)
        if others:
            timings["calibration grid, model options"] = (
                sum(g.encounters for g in others.values()),
                sum(g.seconds for g in others.values()),
            )
        timings["DMG anchor"] = (anchor.encounters, anchor.seconds)
        results.append(group_cr_result(grid, others, anchor))
    bestiary: Bestiary | None = done.get("re-rated bestiary")
    if bestiary is not None:
        timings["re-rated bestiary"] = (bestiary.encounters, bestiary.seconds)
    return Evaluation(results, batch, time.perf_counter() - t0, per, seed, quick, grid, anchor, timings, bestiary)


def _encounter_results(
    chosen: Sequence[EncounterClaim],
    batch: Batch,
    per: dict[str, int],
    seed: int,
    variations: Sequence[str | None],
    alpha: float,
    robustness: bool,
    where: dict[str, Any] | None = None,
) -> list[dict]:
    """Every chosen encounter claim judged under every variation: its main verdict, and which variation turns it.
    ``where``: the study's fighting options; the claims are measured on its workers (:func:`judge_variations`)."""
    n_of = {v: per["main"] if v is None else per["robustness"] for v in variations}
    judged = judge_variations(chosen, batch, n_of, seed, alpha, **(where or {}))
    results = []
    for c in chosen:
        main = judged[None][c.id]
        turns = {
            v: judged[v][c.id].verdict for v in variations if v is not None and judged[v][c.id].verdict != main.verdict
        }
        robust = "robust" if not turns else "; ".join(f"{v} -> {w}" for v, w in turns.items())
        results.append(
            {
                "id": c.id,
                "source": c.source,
                "quote": c.quote,
                "criterion": c.criterion,
                "verdict": main.verdict,
                "robustness": robust if robustness else "not run",
                "parts": main.parts,
                "extra": main.extra,
                "matchups": main.matchups,
                "by_variation": {str(v): judged[v][c.id].verdict for v in variations},
            }
        )
    return results


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
    """The results as plain JSON-ready dicts (tables as records; NaN as null, so the file is strict JSON)."""

    def plain(x: Any) -> Any:
        if isinstance(x, pd.DataFrame):
            return plain(x.to_dict(orient="records"))
        if isinstance(x, Part):
            raw = dict(zip(("supported", "not supported", "direction"), x.pvalues(), strict=True))
            return plain({**x.row(), "p (raw)": raw, "effect": x.effect.as_dict()})
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [plain(v) for v in x]
        if isinstance(x, np.generic):
            x = x.item()
        if isinstance(x, float) and not math.isfinite(x):
            return None  # JSON has no NaN: a test the part does not have, or a number it cannot have
        return x

    return [plain(r) for r in results]
