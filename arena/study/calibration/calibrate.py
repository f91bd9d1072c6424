"""`arena calibrate`: the equivalent CR of a monster (yours or a built-in one) for each group size and rule set,
over the calibration grid, or over a population of SRD creatures of one CR; and its heat map.

Each calibration fights its matchups in one batch (:func:`arena.study.runs.matchups.run_batch`): the subject under
every rule set, and the typical monster of each ladder rung under d20, on the same seeds; the equivalent CR is read
off the ladder by :mod:`arena.study.calibration.equivalent_cr`.

**Your own monsters.** :func:`calibrate` takes a name with ``bestiary=`` (stat-block files or folders, or a
bestiary from :func:`arena.world.bestiary.load_bestiary`), or a :class:`~arena.world.creatures.Creature` itself. A
monster the built-in bestiary does not answer with the same stat block travels in its matchups
(``Matchup.stat_block``) to every worker, and is part of their digest: nothing is looked up by name there.

Why a module of its own: it is the command's part of calibration, which monsters and cells are fought and how the rows
are laid out; the method itself is numbers only and lives beside it.
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

from arena.abilities.summon import summon_of
from arena.errors import ArenaError
from arena.study.calibration.equivalent_cr import (
    BOOTSTRAP,
    difficulty_values,
    equivalent_cr,
    ladder_position,
    position_text,
)
from arena.study.runs.in_memory import every_core
from arena.study.runs.matchups import Batch, Matchup, own_stat_block, run_batch
from arena.study.runs.options import (
    _whole,
    check_level,
    check_metric,
    check_n,
    check_seed,
    check_sizes,
    check_workers,
    rule_keys,
)
from arena.study.runs.progress import ProgressCallback, progress_for
from arena.world.creatures import Creature

BestiaryLike = str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Mapping[str, Creature] | None
"""``bestiary=``: stat-block files or folders (one path or several), or a bestiary that
:func:`arena.world.bestiary.load_bestiary` returned; None is the built-in bestiary."""

DEFAULT_METRIC = "resources"
"""The default difficulty metric: the party's resources spent (hit points and spell levels), what the DMG means by
an encounter's challenge and the study's measure (issue 26); ``hp-lost``, ``death`` and ``win`` are the others."""
LADDER_BELOW, LADDER_ABOVE = 4, 4
"""The ladder runs from this many rungs below the monster's CR to this many above (within 1/8 .. 20)."""
GRID_LEVELS = (1, 3, 5, 8, 12, 16)
GRID_SIZES = (1, 2, 3, 4, 6, 8)
GRID_EL_WINDOW = (-2, 3)
"""``arena calibrate --grid``: monster CRs whose Encounter Level is within [L-2, L+3]."""


MAX_BOOTSTRAP = 100_000
"""Bootstrap resamples of one calibration (each solves every arm's position on the ladder once)."""


def ladder_rungs(center: float, below: int = LADDER_BELOW, above: int = LADDER_ABOVE) -> list[Fraction]:
    """The typical-monster CRs from ``below`` rungs under ``center`` to ``above`` over it, within 1/8 .. 20 (the
    SRD-medians table's CRs: a CR 1/3 goblin is measured on rungs below it too)."""
    from arena.world.typical import srd_table_crs

    return [c for c in srd_table_crs() if center - below <= ladder_position(c) <= center + above]


def typical_name(cr: Fraction) -> str:
    from arena.world.challenge import format_cr

    return f"typical-cr{format_cr(cr)}"


def challenge_rating(creature: Creature) -> Fraction:
    """The creature's CR, which a calibration starts from (none: an ArenaError naming it)."""
    if creature.cr is None:
        from arena.labels import printable

        raise ArenaError(f"{printable(creature.name)} has no challenge rating (cr:), which a calibration starts from")
    return creature.cr


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
        return ladder_rungs(ladder_position(challenge_rating(self.creature())))

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
    from arena.study.calibration.censored import idle_span, saturated_span
    from arena.world.challenge import format_cr

    ladder, ladder_hp = {}, {}
    for cr in cell.ladder():
        m = Matchup(cell.level, typical_name(cr), cell.size, ("d20",), n, seed)
        rows_of_rung = batch.rows(m, "d20", n)
        ladder[ladder_position(cr)] = difficulty_values(rows_of_rung, metric)
        ladder_hp[ladder_position(cr)] = float(difficulty_values(rows_of_rung, "hp-lost").mean())
    subject = cell.subject(n, seed)
    subject_rows = {key: batch.rows(subject, key, n) for key in subject.rules}
    arms = {key: difficulty_values(rows, metric) for key, rows in subject_rows.items()}
    result = equivalent_cr(ladder, arms, resamples=resamples, seed=seed)
    positions = sorted(ladder)
    rung_hp = [ladder_hp[p] for p in positions]
    rung_cost = [float(ladder[p].mean()) for p in positions]

    def saturation(key: str) -> tuple[str, float, float]:
        """("top" | "bottom" | "", first, last): the stretch of rungs a saturated answer matches as well."""
        hp = float(difficulty_values(subject_rows[key], "hp-lost").mean())
        span = saturated_span(hp, positions, rung_hp)
        if span is not None:
            return "top", span[0], span[1]
        idle = idle_span(float(arms[key].mean()), positions, rung_cost)
        if idle is not None:
            return "bottom", idle[0], idle[1]
        return "", math.nan, math.nan

    monster = subject.creature()
    rows = []
    for key in cell.rules or ("d20",):
        r = result[key]
        rows.append(
            {
                "party_level": cell.level,
                "monster": cell.monster,
                "cr": format_cr(challenge_rating(monster)),
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
                **dict(zip(("saturated", "saturated_from", "saturated_to"), saturation(key), strict=True)),
                **dict(
                    zip(("saturated_d20", "saturated_d20_from", "saturated_d20_to"), saturation("d20"), strict=True)
                ),
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
    challenge_rating(creature)
    if creature.tactics not in POLICIES:
        raise ArenaError(
            f"{printable(creature.name)}: tactics: " + nearest(creature.tactics, sorted(POLICIES), "policy")
        )
    stat_block = own_stat_block(creature, name)
    if stat_block is None:
        return name, None, None
    summoned = None
    summon = summon_of(creature)
    if summon is not None and book is not None:  # the user's files may hold what it summons
        summoned = own_stat_block(get_creature(summon.creature, book), summon.creature)
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
    workers: int | None = None,
    cluster: Any = None,
    resamples: int = BOOTSTRAP,
    progress: bool | ProgressCallback | None = None,
    bestiary: BestiaryLike = None,
    store: Any = None,
) -> pd.DataFrame:
    """The equivalent-CR table of ``monster`` for every group size and rule set (see the module docstring).

    ``monster``: a name (an SRD monster, ``typical-crN``, or one of ``bestiary``: stat-block files or folders, or a
    loaded bestiary) or a :class:`~arena.world.creatures.Creature`. Your own stat block is sent to every worker
    with the matchups (``workers``, default every core as :func:`arena.run`; ``cluster``: an address or an open
    client); the table is the same for any number of workers. ``progress``: as :func:`arena.run`'s (a bar on
    stderr, by default in a terminal or a notebook only; or a function ``progress(done, total)``). ``store``: a
    study folder keeping the finished chunks (:func:`arena.study.runs.study_folder.open_study`), so an interrupted
    calibration resumes."""
    metric = check_metric(metric)
    party_level = check_level(party_level)
    sizes = check_sizes(sizes)
    n, seed = check_n(n, 2), check_seed(seed)
    workers = check_workers(every_core() if workers is None else workers)
    resamples = _check_resamples(resamples)
    keys = rule_keys(rules)
    name, stat_block, summoned = calibration_subject(monster, bestiary)
    cells = [CalibrationCell(party_level, name, s, keys, stat_block, summoned) for s in sizes]
    with progress_for(progress) as tick:
        batch = run_batch(
            calibration_matchups(cells, n, seed), workers=workers, cluster=cluster, progress=tick, store=store
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
    from arena.world.typical import srd_table_crs

    cells = []
    for level in levels:
        for size in sizes:
            for cr in srd_table_crs():
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

    from arena.study.reports.figures import save_figure

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
    from arena.study.runs.cluster import cluster_session

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
