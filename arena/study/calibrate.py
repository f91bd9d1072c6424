"""The equivalent-CR method (`arena calibrate`), and the batch runner the encounter claims use.

**Batches.** A :class:`Matchup` is a duck-typed scenario for :mod:`arena.study.experiment`: the generated party of one
level (optionally with every attack bonus raised, and with party tactics for pressing luck and called shots)
against ``count`` copies of one monster (an SRD name or ``typical-crN``), under a list of rule sets, ``n``
encounters from one run seed. :func:`run_batch` hands a list of matchups to ``arena.study.workers.execute`` (one
process, joblib workers, or a Dask cluster), keeps only the record fields asked for, and returns the rows in plan
order (matchup, rule set, index). Encounter ``i`` of every matchup and rule set is fought on
``encounter_seed(seed, i)`` (common random numbers), so rule sets, tactics and matchups compare paired, and the
result is the same for any number of workers.

**Equivalent CR.** For a party of level L, a group of ``size`` monsters and a rule set V, the difficulty D_V is
one of three metrics (per encounter, averaged): ``win`` (the party loses or draws: 1 - win rate), ``hp-lost``
(the fraction of the party's hit points lost) or ``death`` (at least one PC dead). Every metric is oriented so
that larger is harder. The *ladder* is the typical monster of each CR rung (1/2, 1, 2, ... 20; positions 0, 1,
2, ... 20, the ladder step of :func:`arena.world.challenge.cr_rank`) in a group of the same size, fought under the
standard d20 rules on the same seeds. The ladder's difficulties are made non-decreasing (isotonic regression,
weights n) and c*(V) is the position where that curve reaches D_V, interpolated linearly between rungs (the
middle of a flat stretch; clamped to the ladder's ends and flagged ``below`` / ``above`` when D_V is outside
it). Delta-CR(V) = c*(V) - c*(d20). The 95% interval is a paired percentile bootstrap: the encounters are
resampled by index, the same indices for every rung and arm (they share seeds).

**Your own monsters.** :func:`calibrate` takes a name with ``bestiary=`` (stat-block files or folders, or a
bestiary from :func:`arena.world.bestiary.load_bestiary`), or a :class:`~arena.world.creatures.Creature` itself. A
monster the built-in bestiary does not answer with the same stat block travels in its matchups
(``Matchup.stat_block``) to every worker, and is part of their digest: nothing is looked up by name there.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.study.matchups import (
    KEEP,
    Batch,
    Matchup,
    merge_requests,
    own_stat_block,
    raise_attacks,
    run_batch,
)
from arena.study.options import (
    METRICS,
    PARTY_LEVELS,
    _whole,
    check_level,
    check_metric,
    check_n,
    check_seed,
    check_sizes,
    check_workers,
    parse_sizes,
    rule_keys,
)
from arena.world.creatures import Creature

BestiaryLike = str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Mapping[str, Creature] | None
"""``bestiary=``: stat-block files or folders (one path or several), or a bestiary that
:func:`arena.world.bestiary.load_bestiary` returned; None is the built-in bestiary."""

DEFAULT_METRIC = "hp-lost"
"""The default difficulty metric: the one with the steepest ladder slope relative to its standard error at mid
difficulty (measured with :func:`discrimination`; the numbers are in docs/claims.md)."""
BOOTSTRAP = 400
"""Bootstrap resamples for the equivalent-CR intervals."""
LADDER_BELOW, LADDER_ABOVE = 4, 4
"""The ladder runs from this many rungs below the monster's CR to this many above (within 1/2 .. 20)."""
GRID_LEVELS = (1, 3, 5, 8, 12, 16)
GRID_SIZES = (1, 2, 3, 4, 6, 8)
GRID_EL_WINDOW = (-2, 3)
"""``arena calibrate --grid``: monster CRs whose Encounter Level is within [L-2, L+3]."""


MAX_BOOTSTRAP = 100_000
"""Bootstrap resamples of one calibration (each solves every arm's position on the ladder once)."""


# --------------------------------------------------------------------------------------------- difficulty
def difficulty_values(rows: pd.DataFrame, metric: str) -> np.ndarray:
    """Per-encounter difficulty (larger is harder): loss/draw, hit points lost, or a PC died."""
    if metric == "win":
        return (rows["winner"].to_numpy() != "party").astype(float)
    if metric == "hp-lost":
        return rows["party_hp_lost"].to_numpy(dtype=float)
    if metric == "death":
        return (rows["pcs_dead"].to_numpy() > 0).astype(float)
    raise ArenaError(f"--metric must be one of {', '.join(METRICS)}, not {metric!r}")


def ladder_position(cr: Fraction | int | str) -> float:
    """A CR's place on the ladder: 1/2 -> 0, 1 -> 1, 5 -> 5 (the step of :func:`arena.world.challenge.cr_rank`)."""
    from arena.world.challenge import cr_rank, parse_cr

    return float(cr_rank(parse_cr(cr)))


def position_text(x: float) -> str:
    """A ladder position as text: 0 -> "1/2", 4.3 -> "4.3"."""
    if not math.isfinite(x):
        return "-"
    return "1/2" if abs(x) < 1e-9 else f"{x:.2f}".rstrip("0").rstrip(".")


def isotonic(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """The non-decreasing least-squares fit (scipy's isotonic regression)."""
    from scipy.optimize import isotonic_regression

    values = np.asarray(values, float)
    w = None if weights is None else np.asarray(weights, float)
    return np.asarray(isotonic_regression(values, weights=w, increasing=True).x, float)


def equivalent_position(
    positions: Sequence[float], curve: Sequence[float], target: float, weights: Sequence[float] | None = None
) -> tuple[float, str]:
    """Where the (isotonic) ladder curve reaches ``target``: (position, "" | "below" | "above")."""
    x = np.asarray(positions, float)
    order = np.argsort(x)
    x = x[order]
    f = isotonic(np.asarray(curve, float)[order], None if weights is None else np.asarray(weights, float)[order])
    eps = 1e-12
    if target < f[0] - eps:
        return float(x[0]), "below"
    if target > f[-1] + eps:
        return float(x[-1]), "above"
    equal = np.flatnonzero(np.abs(f - target) <= eps)
    if equal.size:
        return float((x[equal[0]] + x[equal[-1]]) / 2), ""
    j = int(np.searchsorted(f, target, side="right"))
    x0, x1, f0, f1 = x[j - 1], x[j], f[j - 1], f[j]
    return float(x0 + (target - f0) / (f1 - f0) * (x1 - x0)), ""


def equivalent_cr(
    ladder: dict[float, np.ndarray],
    arms: dict[str, np.ndarray],
    *,
    base: str = "d20",
    resamples: int = BOOTSTRAP,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, dict]:
    """c* of every arm and Delta-CR against ``base``, with paired bootstrap intervals.

    ``ladder`` maps ladder positions to per-encounter difficulty values (the d20 typical monster of that rung),
    ``arms`` names to per-encounter values of the subject (the arm ``base`` included); all arrays are aligned on
    the encounter index (the same seeds), so they are resampled together.
    """
    positions = sorted(ladder)
    n = min(len(v) for v in [*ladder.values(), *arms.values()])
    if n < 2:
        raise ArenaError("equivalent CR: at least 2 encounters per rung are needed")
    lad = np.vstack([np.asarray(ladder[p], float)[:n] for p in positions])
    arm_names = list(arms)
    sub = np.vstack([np.asarray(arms[a], float)[:n] for a in arm_names])

    def solve(lmeans: np.ndarray, ameans: np.ndarray) -> dict[str, tuple[float, str]]:
        return {a: equivalent_position(positions, lmeans, float(ameans[i])) for i, a in enumerate(arm_names)}

    point = solve(lad.mean(axis=1), sub.mean(axis=1))
    rng = np.random.default_rng(seed)
    boots: dict[str, list[float]] = {a: [] for a in arm_names}
    deltas: dict[str, list[float]] = {a: [] for a in arm_names}
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        got = solve(lad[:, idx].mean(axis=1), sub[:, idx].mean(axis=1))
        for a in arm_names:
            boots[a].append(got[a][0])
            if base in got:
                deltas[a].append(got[a][0] - got[base][0])
    lo_q, hi_q = (1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100
    out: dict[str, dict] = {}
    for i, a in enumerate(arm_names):
        c, flag = point[a]
        entry = {
            "difficulty": float(sub[i].mean()),
            "c_star": c,
            "censored": flag,
            "c_star_low": float(np.percentile(boots[a], lo_q)),
            "c_star_high": float(np.percentile(boots[a], hi_q)),
            "n": int(n),
        }
        if base in point:
            entry["delta"] = c - point[base][0]
            entry["delta_low"] = float(np.percentile(deltas[a], lo_q))
            entry["delta_high"] = float(np.percentile(deltas[a], hi_q))
        out[a] = entry
    return out


def discrimination(ladder: dict[float, dict[str, np.ndarray]]) -> dict[str, float]:
    """For each metric, |slope| / standard error between the two adjacent rungs around mid difficulty.

    ``ladder`` maps positions to {metric: per-encounter values}. Mid difficulty is where the win metric (1 - win
    rate) crosses 0.5 (the adjacent pair whose mean is nearest 0.5 when it does not cross).
    """
    positions = sorted(ladder)
    if len(positions) < 2:
        raise ArenaError("discrimination needs at least two rungs")
    win = [float(np.mean(ladder[p]["win"])) for p in positions]
    pairs = list(zip(range(len(positions) - 1), range(1, len(positions)), strict=True))
    crossing = [(i, j) for i, j in pairs if (win[i] - 0.5) * (win[j] - 0.5) <= 0]
    i, j = crossing[0] if crossing else min(pairs, key=lambda ij: abs((win[ij[0]] + win[ij[1]]) / 2 - 0.5))
    out = {}
    for metric in METRICS:
        a, b = np.asarray(ladder[positions[i]][metric], float), np.asarray(ladder[positions[j]][metric], float)
        d = b - a  # paired on the index (same seeds)
        se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        slope = d.mean() / (positions[j] - positions[i])
        out[metric] = abs(slope) / se * (positions[j] - positions[i]) if se > 0 else float("nan")
    out["between"] = (positions[i], positions[j])
    return out


# --------------------------------------------------------------------------------------------- calibration
def ladder_rungs(center: float, below: int = LADDER_BELOW, above: int = LADDER_ABOVE) -> list[Fraction]:
    """The typical-monster CRs from ``below`` rungs under ``center`` to ``above`` over it, within 1/2 .. 20."""
    from arena.world.typical import table_crs

    return [c for c in table_crs() if center - below <= ladder_position(c) <= center + above]


def typical_name(cr: Fraction) -> str:
    from arena.world.challenge import format_cr

    return f"typical-cr{format_cr(cr)}"


@dataclass(frozen=True)
class CalibrationCell:
    """One calibration: party level, monster, group size, the rule sets to compare with d20. ``stat_block``: the
    monster's own stat block when the built-in bestiary does not answer ``monster`` with it (see
    :func:`calibration_monster`); its matchups carry it."""

    level: int
    monster: str
    size: int
    rules: tuple[str, ...]
    stat_block: Creature | None = None
    summoned: Creature | None = None
    """What the carried stat block summons, from the user's own files (see :attr:`Matchup.summoned`)."""

    def creature(self) -> Creature:
        from arena.world.bestiary import get_creature

        return self.stat_block if self.stat_block is not None else get_creature(self.monster)

    def ladder(self) -> list[Fraction]:
        return ladder_rungs(ladder_position(self.creature().cr))

    def subject(self, n: int, seed: int, rules: tuple[str, ...] | None = None) -> Matchup:
        """The matchup against the calibrated monster (every arm by default)."""
        arms = tuple(dict.fromkeys(("d20", *self.rules))) if rules is None else rules
        return Matchup(
            self.level, self.monster, self.size, arms, n, seed, stat_block=self.stat_block, summoned=self.summoned
        )


def calibration_matchups(cells: Sequence[CalibrationCell], n: int, seed: int) -> list[Matchup]:
    out = []
    for cell in cells:
        for cr in cell.ladder():
            out.append(Matchup(cell.level, typical_name(cr), cell.size, ("d20",), n, seed))
        out.append(cell.subject(n, seed))
    return out


def predicted_delta(size: int, rules: str) -> float:
    """What the bell-curve rule predicts: -1 rung for groups of four or more under 3d6, else 0."""
    from arena.rules import RuleSet
    from arena.world.challenge import BELL_CURVE_CR_REDUCTION, BELL_CURVE_GROUP_SIZE

    bell = RuleSet.from_key(rules).die == "3d6"
    return -float(BELL_CURVE_CR_REDUCTION) if bell and size >= BELL_CURVE_GROUP_SIZE else 0.0


def evaluate_cell(
    batch: Batch, cell: CalibrationCell, n: int, seed: int, metric: str, resamples: int = BOOTSTRAP
) -> list[dict]:
    """The table rows of one calibration cell (one per rule set other than d20, or d20 itself if alone)."""
    from arena.world.challenge import format_cr

    ladder = {}
    for cr in cell.ladder():
        m = Matchup(cell.level, typical_name(cr), cell.size, ("d20",), n, seed)
        ladder[ladder_position(cr)] = difficulty_values(batch.rows(m, "d20", n), metric)
    subject = cell.subject(n, seed)
    arms = {key: difficulty_values(batch.rows(subject, key, n), metric) for key in subject.rules}
    result = equivalent_cr(ladder, arms, resamples=resamples, seed=seed)
    monster = subject.creature()
    rows = []
    for key in cell.rules or ("d20",):
        r = result[key]
        rows.append(
            {
                "party_level": cell.level,
                "monster": cell.monster,
                "cr": format_cr(monster.cr),
                "size": cell.size,
                "rules": key,
                "metric": metric,
                "n": r["n"],
                "difficulty": r["difficulty"],
                "difficulty_d20": result["d20"]["difficulty"],
                "c_star": r["c_star"],
                "c_star_low": r["c_star_low"],
                "c_star_high": r["c_star_high"],
                "c_star_d20": result["d20"]["c_star"],
                "censored": r["censored"] or result["d20"]["censored"],
                "delta": r["delta"],
                "delta_low": r["delta_low"],
                "delta_high": r["delta_high"],
                "predicted_delta": predicted_delta(cell.size, key),
                "ladder": f"{position_text(min(ladder))}..{position_text(max(ladder))}",
            }
        )
    return rows


def calibration_monster(monster: str | Creature, bestiary: BestiaryLike = None) -> tuple[str, Creature | None]:
    """(the name its rows show, the stat block its matchups carry): :func:`calibration_subject` without what the
    monster summons."""
    name, stat_block, _summoned = calibration_subject(monster, bestiary)
    return name, stat_block


def calibration_subject(
    monster: str | Creature, bestiary: BestiaryLike = None
) -> tuple[str, Creature | None, Creature | None]:
    """The monster of a calibration: (the name its rows show, the stat block its matchups carry, what that stat block
    summons when the user's files hold it), checked to have what a calibration needs (a CR, a policy the engine
    knows). A built-in monster shows the name as given, a carried one its stat block's name.

    ``monster`` is a name, looked up in ``bestiary`` (see :data:`BestiaryLike`; None: the built-in one), or a stat
    block. The stat block is None when the built-in bestiary answers the name with this very stat block (a worker
    looks it up); a creature of the user's files, or one that replaces a built-in name, is carried. A missing file,
    a bad stat block or an unknown name is an ArenaError."""
    from arena.combat.tactics import POLICIES
    from arena.errors import nearest
    from arena.labels import printable
    from arena.world.bestiary import get_creature, load_bestiary

    book: dict[str, Creature] | None = None
    if isinstance(monster, Creature):
        if bestiary is not None:
            raise ArenaError("calibrate: bestiary= is where a monster's name is looked up; a stat block needs none")
        name, creature = monster.name, monster
    elif isinstance(monster, str):
        if isinstance(bestiary, str | os.PathLike):
            bestiary = [bestiary]
        book = dict(bestiary) if isinstance(bestiary, Mapping) else load_bestiary(bestiary) if bestiary else None
        name, creature = monster, get_creature(monster, book)
    else:
        raise ArenaError(f"calibrate: the monster is a name or a stat block (Creature), not {type(monster).__name__}")
    if creature.cr is None:
        raise ArenaError(f"{printable(creature.name)} has no challenge rating (cr:), which a calibration starts from")
    if creature.tactics not in POLICIES:
        raise ArenaError(
            f"{printable(creature.name)}: tactics: " + nearest(creature.tactics, sorted(POLICIES), "policy")
        )
    stat_block = own_stat_block(creature, name)
    if stat_block is None:
        return name, None, None
    summoned = None
    if creature.summon is not None and book is not None:  # the user's files may hold what it summons
        summoned = own_stat_block(get_creature(creature.summon.creature, book), creature.summon.creature)
    return creature.name, stat_block, summoned


def calibrate(
    monster: str | Creature,
    party_level: int,
    sizes: Sequence[int],
    rules: Sequence[str],
    *,
    metric: str = DEFAULT_METRIC,
    n: int = 1000,
    seed: int = 0,
    workers: int = 1,
    cluster: Any = None,
    resamples: int = BOOTSTRAP,
    progress: Callable[[int, int], None] | None = None,
    bestiary: BestiaryLike = None,
    store: Any = None,
) -> pd.DataFrame:
    """The equivalent-CR table of ``monster`` for every group size and rule set (see the module docstring).

    ``monster``: a name (an SRD monster, ``typical-crN``, or one of ``bestiary``: stat-block files or folders, or a
    loaded bestiary) or a :class:`~arena.world.creatures.Creature`. Your own stat block is sent to every worker
    with the matchups (``workers``, ``cluster``: an address or an open client); the table is the same for any
    number of workers. ``store``: a study folder keeping the finished chunks
    (:func:`arena.study.results_folder.open_study`), so an interrupted calibration resumes."""
    metric = check_metric(metric)
    party_level = check_level(party_level)
    sizes = check_sizes(sizes)
    n, seed, workers = check_n(n, 2), check_seed(seed), check_workers(workers)
    resamples = _check_resamples(resamples)
    keys = rule_keys(rules)
    name, stat_block, summoned = calibration_subject(monster, bestiary)
    cells = [CalibrationCell(party_level, name, s, keys, stat_block, summoned) for s in sizes]
    batch = run_batch(
        calibration_matchups(cells, n, seed), workers=workers, cluster=cluster, progress=progress, store=store
    )
    rows = [row for cell in cells for row in evaluate_cell(batch, cell, n, seed, metric, resamples)]
    return pd.DataFrame(rows)


def _check_resamples(resamples: Any) -> int:
    resamples = _whole(resamples, "resamples")
    if not 1 <= resamples <= MAX_BOOTSTRAP:
        raise ArenaError(f"resamples must be 1 to {MAX_BOOTSTRAP:,}, not {resamples:,}")
    return resamples


def grid_cells(
    levels: Sequence[int] = GRID_LEVELS,
    sizes: Sequence[int] = GRID_SIZES,
    window: tuple[int, int] = GRID_EL_WINDOW,
    rules: str = "3d6",
) -> list[CalibrationCell]:
    """Every (level, size, typical CR) whose d20 Encounter Level lies within [L + window[0], L + window[1]]."""
    from arena.world.challenge import cr_rank, group_el
    from arena.world.typical import table_crs

    cells = []
    for level in levels:
        for size in sizes:
            for cr in table_crs():
                el = cr_rank(group_el(cr, size))
                if level + window[0] <= el <= level + window[1]:
                    cells.append(CalibrationCell(level, typical_name(cr), size, (rules,)))
    return cells


def calibrate_grid(
    *,
    n: int = 150,
    seed: int = 0,
    metric: str = DEFAULT_METRIC,
    rules: str = "3d6",
    levels: Sequence[int] = GRID_LEVELS,
    sizes: Sequence[int] = GRID_SIZES,
    workers: int = 1,
    cluster: Any = None,
    resamples: int = 200,
    progress: Callable[[int, int], None] | None = None,
    store: Any = None,
) -> pd.DataFrame:
    """Delta-CR for every cell of :func:`grid_cells` (one row per level, size and monster CR); ``store`` as for
    :func:`calibrate`."""
    metric = check_metric(metric)
    n, seed, workers = check_n(n, 2), check_seed(seed), check_workers(workers)
    resamples = _check_resamples(resamples)
    (rules,) = rule_keys([rules])
    levels = tuple(check_level(level, "a grid level") for level in levels)
    sizes = check_sizes(sizes, "the grid sizes")
    cells = grid_cells(levels, sizes, rules=rules)
    batch = run_batch(
        calibration_matchups(cells, n, seed), workers=workers, cluster=cluster, progress=progress, store=store
    )
    rows = [row for cell in cells for row in evaluate_cell(batch, cell, n, seed, metric, resamples)]
    return pd.DataFrame(rows)


def heat_map(table: pd.DataFrame, path: Any, title: str = "Delta-CR (3d6 - d20), mean over monster CRs") -> Any:
    """A PNG heat map of the mean Delta-CR by party level (rows) and group size (columns)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arena.study.report import save_figure

    usable = table[table["censored"] == ""]
    pivot = usable.pivot_table(index="party_level", columns="size", values="delta", aggfunc="mean")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    im = ax.imshow(pivot.to_numpy(dtype=float), cmap="coolwarm_r", vmin=-2, vmax=2, aspect="auto")
    ax.set_xticks(range(len(pivot.columns)), [str(c) for c in pivot.columns])
    ax.set_yticks(range(len(pivot.index)), [str(i) for i in pivot.index])
    ax.set_xlabel("group size")
    ax.set_ylabel("party level")
    for (i, j), v in np.ndenumerate(pivot.to_numpy(dtype=float)):
        if math.isfinite(v):
            ax.text(j, i, f"{v:+.2f}", ha="center", va="center", fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, label="Delta-CR (rungs)")
    fig.tight_layout()
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)
    return path


__all__ = [  # the option checks and matchups are re-exported: commands read them from here
    "Batch",
    "BestiaryLike",
    "BOOTSTRAP",
    "calibrate",
    "calibrate_grid",
    "calibration_matchups",
    "calibration_monster",
    "CalibrationCell",
    "check_level",
    "check_metric",
    "check_n",
    "check_seed",
    "check_sizes",
    "check_workers",
    "DEFAULT_METRIC",
    "difficulty_values",
    "discrimination",
    "equivalent_cr",
    "equivalent_position",
    "evaluate_cell",
    "grid_cells",
    "GRID_EL_WINDOW",
    "GRID_LEVELS",
    "GRID_SIZES",
    "heat_map",
    "isotonic",
    "KEEP",
    "ladder_position",
    "ladder_rungs",
    "Matchup",
    "MAX_BOOTSTRAP",
    "merge_requests",
    "METRICS",
    "own_stat_block",
    "parse_sizes",
    "PARTY_LEVELS",
    "position_text",
    "predicted_delta",
    "raise_attacks",
    "rule_keys",
    "run_batch",
    "typical_name",
]


POPULATION_SAMPLE = 8
"""``calibrate --population srd``: at most this many creatures of the CR (chosen evenly through the name order, so
the same command calibrates the same creatures)."""


def population_names(cr: str, sample: int = POPULATION_SAMPLE) -> list[str]:
    """The fully modelled SRD creatures of ``cr`` (``srd/<name>``), at most ``sample`` of them, spread evenly over
    the name order."""
    from arena.world.srd_bestiary import srd_population

    names = sorted(c.name for c in srd_population(cr=cr, modelled="full"))
    if not names:
        raise ArenaError(
            f"no fully modelled SRD creature of CR {cr} (see `arena bestiary list --cr {cr} --modelled full`)"
        )
    if sample < 1:
        raise ArenaError(f"--sample must be at least 1, not {sample}")
    if len(names) > sample:
        step = len(names) / sample
        names = [names[int(i * step)] for i in range(sample)]
    return [f"srd/{name}" for name in names]


def calibrate_population(
    cr: str, party_level: int, sizes: Sequence[int], rules: Sequence[str], *, sample: int = POPULATION_SAMPLE, **options
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Calibrate a population of SRD creatures of one CR: every creature's table (:func:`calibrate`), and the
    population's median Delta-CR per group size and rule set with the creatures' range. A ``cluster`` address is
    connected to once for them all."""
    from arena.study.workers import cluster_session

    names = population_names(cr, sample)
    with cluster_session(options.pop("cluster", None)) as client:
        tables = [calibrate(name, party_level, sizes, rules, cluster=client, **options) for name in names]
    table = pd.concat(tables, ignore_index=True)
    summary = (
        table.groupby(["size", "rules"])["delta"]
        .agg(["median", "min", "max", "count"])
        .reset_index()
        .rename(columns={"median": "median delta", "count": "creatures"})
    )
    return table, summary
