"""Statistics over encounter rows: win rates with Wilson intervals, summaries, and comparisons of two runs.

Every interval and test comes from statsmodels or scipy; nothing here hand-writes a formula.

Two-rule-set helpers (:func:`paired_proportion`, :func:`paired_values`, used by the claims) are *paired* when the
two sides fought the same encounters (same ``index`` and ``seed``: common random numbers): McNemar's test on
win / not-win, Wilcoxon's signed-rank test on rounds and hit points lost, and a t interval on the paired
differences. ``arena compare`` and the report's changes against a baseline (:func:`compare_cells`) use t tests
whose intervals are their exact duals (paired t on shared encounters, Welch's t otherwise), Holm-corrected across
cells, with each interval drawn at the level that agrees with its Holm decision (:func:`holm_level`): a flagged
row's interval always excludes zero and an unflagged row's never does.
"""

from __future__ import annotations

import json
import math
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.limits import MAX_FILE_BYTES, MAX_RUN_ENCOUNTERS

CELL = ["scenario", "rules"]
"""A cell: one scenario under one rule set."""
VARIANTS = ["die", "players_roll_all", "modifiers", "open_ended", "called_shots"]
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
REQUIRED_COLUMNS = {
    "scenario": "text",
    "rules": "text",
    "winner": "text",
    "rounds": "number",
    "party_hp_lost": "number",
}
"""What every results file must hold for a summary or a comparison, and of which kind."""
OPTIONAL_KINDS = {
    "index": "number",
    "seed": "number",
    "pcs_dead": "number",
    "hits_monsters": "number",
    "attacks_monsters": "number",
    "lucky_damage_monsters": "number",
    "damage_monsters": "number",
    "damage_by_monsters": "number",
}
"""Columns read when present; when present they must be of this kind (a text column of hits is not a count)."""
MAX_CELLS = 10_000
"""Scenario x rule-set cells in one results file read by ``arena report`` or ``arena compare``: every cell costs a
few statistical tests (and, in a report, a row of a plot). A run of 100 scenarios over the whole grid of 50 rule
sets has 5,000; a file with more was not written by ``arena run``."""


# --------------------------------------------------------------------------------------------- reading
def results_file(path: str | os.PathLike) -> Path:
    """``encounters.parquet`` of a results folder (or the file itself): a regular file, or an ArenaError."""
    p = Path(path)
    try:
        if p.is_dir():
            p = p / "encounters.parquet"
            if not p.exists() and not p.is_symlink():
                hint = (
                    " (the run did not finish: complete it with `arena run --resume`)"
                    if (p.parent / "chunks").exists()
                    else ""
                    if (p.parent / "manifest.json").exists()
                    else " (is it a results folder of `arena run`?)"
                )
                raise ArenaError(f"{p.parent}: no encounters.parquet{hint}")
        elif not p.exists():
            raise ArenaError(f"{p}: no such results folder or file")
        mode = p.stat().st_mode
    except OSError as err:
        raise ArenaError(f"{p}: cannot read the results ({err.strerror or err})") from None
    if stat.S_ISDIR(mode):
        raise ArenaError(f"{p}: is a folder, expected a results folder's encounters.parquet")
    if not stat.S_ISREG(mode):
        raise ArenaError(f"{p}: is not a regular file (a device, pipe or socket), expected encounters.parquet")
    return p


def check_complete(path: str | os.PathLike) -> None:
    """Refuse a results folder whose manifest says its run has not finished (``status`` running, interrupted or
    failed): its encounters.parquet, if any, is not that run's. A folder without a manifest (or an older one
    without a status) is read as it is."""
    p = results_file(path).parent
    manifest = p / "manifest.json"
    try:
        if not manifest.is_file() or manifest.stat().st_size > MAX_FILE_BYTES:
            return
        doc = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return
    status = doc.get("status") if isinstance(doc, dict) else None
    if isinstance(status, str) and status != "complete":
        raise ArenaError(
            f"{manifest.parent}: the run is not complete (its manifest says status {status[:40]!r}); "
            "complete it with `arena run --resume`"
        )


def _kind(dtype: Any) -> str:
    import pyarrow as pa

    if pa.types.is_dictionary(dtype):
        dtype = dtype.value_type
    if (
        pa.types.is_string(dtype)
        or pa.types.is_large_string(dtype)
        or getattr(pa.types, "is_string_view", lambda _t: False)(dtype)
    ):
        return "text"
    if pa.types.is_integer(dtype) or pa.types.is_floating(dtype) or pa.types.is_boolean(dtype):
        return "number"
    return str(dtype)


def _check_table(file: Path, table: Any, required: dict[str, str]) -> None:
    """Refuse a table whose columns are missing, of the wrong kind, empty or not finite."""
    import pyarrow.compute as pc

    if table.num_rows == 0:
        raise ArenaError(f"{file}: holds no encounters")
    for name in table.column_names:
        want = required.get(name) or OPTIONAL_KINDS.get(name)
        if want is None:
            continue
        column = table.column(name)
        got = _kind(column.type)
        if got != want:
            raise ArenaError(f"{file}: column {name!r} holds {got} values, expected {want}")
        if column.null_count:
            raise ArenaError(f"{file}: column {name!r} has {column.null_count:,} missing values")
        if want == "number" and _is_float(column.type):
            finite = pc.all(pc.is_finite(column)).as_py()
            if finite is False:
                raise ArenaError(f"{file}: column {name!r} holds values that are not finite numbers (NaN or infinity)")


def _is_float(dtype: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_floating(dtype)


def read_encounters(
    path: str | os.PathLike, columns: list[str] | None = None, required: list[str] | None = None
) -> pd.DataFrame:
    """The encounter rows of a run (only ``columns`` if given; keys are always included).

    ``required`` (default: the scenario, rule set, winner, rounds and hit points lost) must be present; every
    column read is checked for its kind, missing values and non-finite numbers, and the file for its size (at
    most :data:`~arena.limits.MAX_RUN_ENCOUNTERS` rows). Anything wrong is an ArenaError naming the file."""
    import pyarrow.parquet as pq

    file = results_file(path)
    need = {
        k: REQUIRED_COLUMNS.get(k, OPTIONAL_KINDS.get(k, "number"))
        for k in (required if required is not None else REQUIRED_COLUMNS)
    }
    try:
        handle = pq.ParquetFile(file)
        names = handle.schema_arrow.names
        missing = [c for c in need if c not in names]
        if missing:
            raise ArenaError(
                f"{file}: not the encounters of a run: missing column(s) {', '.join(map(repr, missing))}"
                f" (it has {', '.join(map(repr, names[:8]))}{', ...' if len(names) > 8 else ''})"
            )
        rows = handle.metadata.num_rows
        if rows > MAX_RUN_ENCOUNTERS:
            raise ArenaError(f"{file}: {rows:,} encounters, more than one run can hold ({MAX_RUN_ENCOUNTERS:,})")
        if columns is not None:
            wanted = list(dict.fromkeys([*CELL, *VARIANTS, "index", "seed", *need, *columns]))
            columns = [c for c in wanted if c in names]
        table = handle.read(columns=columns)
    except ArenaError:
        raise
    except (OSError, ValueError, TypeError, IndexError, KeyError) as err:  # pyarrow's ArrowInvalid is a ValueError
        first = (str(err).splitlines() or [type(err).__name__])[0]
        raise ArenaError(f"{file}: not a readable parquet file ({first})") from None
    _check_table(file, table, need)
    try:
        frame = table.to_pandas()
    except (ValueError, TypeError) as err:
        raise ArenaError(f"{file}: cannot read the encounters ({str(err).splitlines()[0]})") from None
    cells = frame[[c for c in CELL if c in frame]].drop_duplicates()
    if len(cells) > MAX_CELLS:
        raise ArenaError(
            f"{file}: {len(cells):,} scenario and rule-set cells, more than {MAX_CELLS:,} (not a "
            "results file of `arena run`)"
        )
    return frame


# --------------------------------------------------------------------------------------------- intervals
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


# --------------------------------------------------------------------------------------------- tests
@dataclass(frozen=True)
class Difference:
    """``new - base`` of one metric in one cell, with its interval and test."""

    base: float
    new: float
    diff: float
    low: float
    high: float
    p: float
    test: str
    paired: bool
    n: int


def _nan_diff(base: float, new: float, test: str, paired: bool, n: int) -> Difference:
    return Difference(base, new, new - base, float("nan"), float("nan"), float("nan"), test, paired, n)


def mcnemar_p(base: np.ndarray, new: np.ndarray) -> float:
    """McNemar's test (statsmodels) on paired booleans; exact binomial when discordant pairs are few."""
    from statsmodels.stats.contingency_tables import mcnemar

    base, new = np.asarray(base, bool), np.asarray(new, bool)
    table = [[int((base & new).sum()), int((base & ~new).sum())], [int((~base & new).sum()), int((~base & ~new).sum())]]
    discordant = table[0][1] + table[1][0]
    if discordant == 0:
        return 1.0
    return float(mcnemar(table, exact=discordant < 25, correction=True).pvalue)


def _paired_interval(d: np.ndarray, confidence: float) -> tuple[float, float]:
    from statsmodels.stats.weightstats import DescrStatsW

    if len(d) < 2 or np.all(d == d[0]):
        return float(d.mean()), float(d.mean())
    low, high = DescrStatsW(d).tconfint_mean(alpha=1 - confidence)
    return float(low), float(high)


def paired_proportion(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> Difference:
    """Paired win/not-win: McNemar's test, a t interval on the per-encounter differences."""
    base, new = np.asarray(base, bool), np.asarray(new, bool)
    d = new.astype(float) - base.astype(float)
    low, high = _paired_interval(d, confidence)
    return Difference(base.mean(), new.mean(), d.mean(), low, high, mcnemar_p(base, new), "mcnemar", True, len(d))


def independent_proportion(
    base_wins: int, base_n: int, new_wins: int, new_n: int, confidence: float = CONFIDENCE
) -> Difference:
    """Two independent proportions: score test and Newcombe interval (statsmodels)."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    b, w = base_wins / base_n, new_wins / new_n
    if base_wins + new_wins in (0, base_n + new_n):  # nothing varies: the test is undefined, nothing moved
        return Difference(b, w, w - b, 0.0, 0.0, 1.0, "two-proportion score", False, base_n + new_n)
    res = test_proportions_2indep(new_wins, new_n, base_wins, base_n, method="score", compare="diff")
    low, high = confint_proportions_2indep(
        new_wins, new_n, base_wins, base_n, method="newcomb", compare="diff", alpha=1 - confidence
    )
    p = float(res.pvalue) if np.isfinite(res.pvalue) else 1.0
    return Difference(b, w, w - b, float(low), float(high), p, "two-proportion score", False, base_n + new_n)


def paired_values(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> Difference:
    """Paired numbers (rounds, hit points lost): Wilcoxon signed-rank (scipy), t interval on differences."""
    from scipy.stats import wilcoxon

    base, new = np.asarray(base, float), np.asarray(new, float)
    d = new - base
    low, high = _paired_interval(d, confidence)
    if not np.any(d != 0):
        p = 1.0
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(wilcoxon(new, base, zero_method="wilcox").pvalue)
    return Difference(base.mean(), new.mean(), d.mean(), low, high, p, "wilcoxon", True, len(d))


def independent_values(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> Difference:
    """Independent numbers: Mann-Whitney U (scipy), Welch interval on the difference of means (statsmodels)."""
    from scipy.stats import mannwhitneyu
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    base, new = np.asarray(base, float), np.asarray(new, float)
    if len(base) < 2 or len(new) < 2:
        return _nan_diff(base.mean(), new.mean(), "mann-whitney", False, len(base) + len(new))
    if np.all(base == base[0]) and np.all(new == base[0]):
        return Difference(base.mean(), new.mean(), 0.0, 0.0, 0.0, 1.0, "mann-whitney", False, len(base) + len(new))
    p = float(mannwhitneyu(new, base, alternative="two-sided").pvalue)
    cm = CompareMeans(DescrStatsW(new), DescrStatsW(base))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low, high = cm.tconfint_diff(alpha=1 - confidence, usevar="unequal")
    return Difference(
        base.mean(),
        new.mean(),
        new.mean() - base.mean(),
        float(low),
        float(high),
        p,
        "mann-whitney",
        False,
        len(base) + len(new),
    )


def holm(pvalues: list[float], alpha: float) -> tuple[list[bool], list[float]]:
    """Holm's step-down correction (statsmodels ``multipletests``): (reject, adjusted p) per test."""
    from statsmodels.stats.multitest import multipletests

    if not pvalues:
        return [], []
    p = np.nan_to_num(np.asarray(pvalues, float), nan=1.0)
    reject, adjusted, _, _ = multipletests(p, alpha=alpha, method="holm")
    return [bool(r) for r in reject], [float(a) for a in adjusted]


METRICS = {"win_rate": "party win rate", "rounds": "rounds", "hp_lost": "party hit points lost"}
GATED = ("win_rate", "hp_lost")
"""Metrics held against ``tolerance`` (both are fractions of 1). Rounds are reported, not gated: a tolerance in
win-rate units means nothing for a count of rounds."""


def _paired_rows(base: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame | None:
    """The encounters both cells fought on the same seed (merged on index), or None if they did not share seeds."""
    if "index" not in base or "seed" not in base or "index" not in new or "seed" not in new:
        return None
    if not (base["index"].is_unique and new["index"].is_unique):  # not one run's encounters: a merge on a
        return None  # repeated index would multiply the rows
    merged = base.merge(new, on="index", suffixes=("_b", "_n"))
    if merged.empty or not (merged["seed_b"] == merged["seed_n"]).all():
        return None
    return merged


def check_alpha(alpha: Any, what: str = "--alpha") -> float:
    """A significance level: a finite number strictly between 0 and 1 (NaN compares false with everything, so a
    NaN level would make every test "not significant" without a word)."""
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not math.isfinite(alpha) or not 0 < alpha < 1:
        raise ArenaError(f"{what} must be a number between 0 and 1 (exclusive), not {alpha!r}")
    return float(alpha)


def check_tolerance(tolerance: Any, what: str = "--tolerance") -> float:
    """A tolerance of a win rate or a share of hit points: a finite fraction from 0 to 1 (a change of a fraction
    is never more than 1, so a larger tolerance, or NaN or infinity, would silently accept every change)."""
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, int | float)
        or not math.isfinite(tolerance)
        or not 0 <= tolerance < 1
    ):
        raise ArenaError(f"{what} must be a fraction from 0 to below 1 (0.02 = 2 points), not {tolerance!r}")
    return float(tolerance)


@dataclass(frozen=True)
class Contrast:
    """One metric of one cell compared: the per-encounter values of both sides, tested by a t test whose
    interval is its exact dual (paired t on the per-encounter differences when the encounters were shared, Welch's
    t otherwise), so that an interval excludes zero exactly when its test rejects at the interval's level."""

    base: np.ndarray
    new: np.ndarray
    paired: bool

    @property
    def diff(self) -> float:
        return float(self.new.mean() - self.base.mean())

    @property
    def n(self) -> int:
        return len(self.base) if self.paired else len(self.base) + len(self.new)

    @property
    def test(self) -> str:
        return "paired t" if self.paired else "welch t"

    def _constant(self) -> bool:
        """No spread at all: every paired difference equal, or both independent samples constant."""
        if self.paired:
            d = self.new - self.base
            return len(d) < 2 or bool(np.all(d == d[0]))
        return (
            len(self.base) < 2
            or len(self.new) < 2
            or bool(np.all(self.base == self.base[0]) and np.all(self.new == self.new[0]))
        )

    def p(self) -> float:
        from scipy.stats import ttest_1samp, ttest_ind

        if self._constant():
            return 1.0 if self.diff == 0 else 0.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if self.paired:
                value = ttest_1samp(self.new - self.base, 0.0).pvalue
            else:
                value = ttest_ind(self.new, self.base, equal_var=False).pvalue
        return float(value) if np.isfinite(value) else 1.0

    def interval(self, alpha: float) -> tuple[float, float]:
        """The ``1 - alpha`` interval of ``new - base`` (the dual of :meth:`p`)."""
        from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

        if self._constant():
            return self.diff, self.diff
        alpha = min(max(alpha, 1e-300), 1.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if self.paired:
                low, high = DescrStatsW(self.new - self.base).tconfint_mean(alpha=alpha)
            else:
                low, high = CompareMeans(DescrStatsW(self.new), DescrStatsW(self.base)).tconfint_diff(
                    alpha=alpha, usevar="unequal"
                )
        return float(low), float(high)


def holm_level(p: float, p_holm: float, alpha: float) -> float:
    """The level at which a test's own interval agrees with its Holm decision: ``alpha * p / p_holm``. The
    interval excludes zero exactly when ``p <= alpha * p / p_holm``, that is when ``p_holm <= alpha``."""
    if p_holm <= 0 or p <= 0:
        return alpha
    return min(alpha, alpha * p / p_holm)


def contrasts(base: pd.DataFrame, new: pd.DataFrame) -> dict[str, Contrast]:
    """The three metrics of one cell compared (paired on shared encounters when there are any)."""
    merged = _paired_rows(base, new)
    if merged is not None:
        return {
            "win_rate": Contrast(
                (merged["winner_b"] == "party").to_numpy(float), (merged["winner_n"] == "party").to_numpy(float), True
            ),
            "rounds": Contrast(merged["rounds_b"].to_numpy(float), merged["rounds_n"].to_numpy(float), True),
            "hp_lost": Contrast(
                merged["party_hp_lost_b"].to_numpy(float), merged["party_hp_lost_n"].to_numpy(float), True
            ),
        }
    return {
        "win_rate": Contrast(
            (base["winner"] == "party").to_numpy(float), (new["winner"] == "party").to_numpy(float), False
        ),
        "rounds": Contrast(base["rounds"].to_numpy(float), new["rounds"].to_numpy(float), False),
        "hp_lost": Contrast(base["party_hp_lost"].to_numpy(float), new["party_hp_lost"].to_numpy(float), False),
    }


COMPARE_COLUMNS = [
    "scenario",
    "rules",
    "metric",
    "base",
    "new",
    "diff",
    "low",
    "high",
    "level",
    "p",
    "p_holm",
    "significant",
    "moved",
    "test",
    "paired",
    "n",
]


def holm_table(rows: list[dict], found: list[Contrast], alpha: float, tolerance: float) -> pd.DataFrame:
    """Rows of contrasts with Holm-adjusted p-values (within each metric) and intervals at the level that agrees
    with each row's Holm decision (:func:`holm_level`); ``moved`` is significant and beyond ``tolerance`` for the
    gated metrics."""
    if not rows:
        return pd.DataFrame(columns=COMPARE_COLUMNS)
    table = pd.DataFrame(rows)
    table["p"] = [c.p() for c in found]
    table["p_holm"] = np.nan
    table["significant"] = False
    for metric in table["metric"].unique():
        mask = table["metric"] == metric
        reject, adjusted = holm(table.loc[mask, "p"].tolist(), alpha)
        table.loc[mask, "p_holm"] = adjusted
        table.loc[mask, "significant"] = reject
    table["significant"] = table["significant"].astype(bool)
    levels, lows, highs = [], [], []
    for contrast, p, p_holm in zip(found, table["p"], table["p_holm"], strict=True):
        level = holm_level(p, p_holm, alpha)
        low, high = contrast.interval(level)
        levels.append(1 - level)
        lows.append(low)
        highs.append(high)
    table["level"], table["low"], table["high"] = levels, lows, highs
    table["moved"] = table["significant"] & table["metric"].isin(GATED) & (table["diff"].abs() > tolerance)
    return table[COMPARE_COLUMNS]


def compare_cells(
    base: pd.DataFrame, new: pd.DataFrame, *, alpha: float = 0.05, tolerance: float = 0.02
) -> pd.DataFrame:
    """Every scenario and rule set present in both: one row per (cell, metric) with the change, the raw and
    Holm-adjusted p-values (Holm across cells, within each metric), and the change's interval at the level that
    agrees with its Holm decision (``level``; the interval excludes zero exactly when the row is ``significant``).
    ``moved``: the change is larger than ``tolerance`` and significant (only for the gated metrics, win rate and
    hit points lost). The tests are t tests (paired on shared encounters, Welch otherwise) because their
    intervals are their exact duals."""
    alpha, tolerance = check_alpha(alpha), check_tolerance(tolerance)
    keys_b = base[CELL].drop_duplicates()
    keys = keys_b.merge(new[CELL].drop_duplicates(), on=CELL)
    groups_b = dict(tuple(base.groupby(CELL, sort=False)))
    groups_n = dict(tuple(new.groupby(CELL, sort=False)))
    rows, found = [], []
    for scenario, rules in keys.itertuples(index=False):
        for metric, c in contrasts(groups_b[(scenario, rules)], groups_n[(scenario, rules)]).items():
            rows.append(
                {
                    "scenario": scenario,
                    "rules": rules,
                    "metric": metric,
                    "base": float(c.base.mean()),
                    "new": float(c.new.mean()),
                    "diff": c.diff,
                    "test": c.test,
                    "paired": c.paired,
                    "n": c.n,
                }
            )
            found.append(c)
    return holm_table(rows, found, alpha, tolerance)


def coverage(base: pd.DataFrame, new: pd.DataFrame) -> dict[str, list[dict[str, str]]]:
    """Which scenario and rule-set cells two runs share (compared), and which only one of them has."""
    b = set(map(tuple, base[CELL].drop_duplicates().itertuples(index=False)))
    w = set(map(tuple, new[CELL].drop_duplicates().itertuples(index=False)))

    def listed(cells: set) -> list[dict[str, str]]:
        return [{"scenario": str(s), "rules": str(r)} for s, r in sorted(cells, key=lambda c: (str(c[0]), str(c[1])))]

    return {"compared": listed(b & w), "only_base": listed(b - w), "only_new": listed(w - b)}


def compare_runs(
    base: str | os.PathLike,
    new: str | os.PathLike,
    *,
    alpha: float = 0.05,
    tolerance: float = 0.02,
    with_coverage: bool = False,
) -> Any:
    """:func:`compare_cells` on two results folders (with ``with_coverage``: ``(table, coverage)``, see
    :func:`coverage`)."""
    alpha, tolerance = check_alpha(alpha), check_tolerance(tolerance)
    check_complete(base)
    check_complete(new)
    cols = ["winner", "rounds", "party_hp_lost"]
    frame_b, frame_n = read_encounters(base, cols), read_encounters(new, cols)
    table = compare_cells(frame_b, frame_n, alpha=alpha, tolerance=tolerance)
    if table.empty:
        raise ArenaError(f"{base} and {new} have no scenario and rule set in common")
    return (table, coverage(frame_b, frame_n)) if with_coverage else table


# --------------------------------------------------------------------------------------------- two rule sets
def win_vectors(frame: pd.DataFrame, a: str, b: str, scenario: str | None = None) -> tuple[Any, Any, bool]:
    """Win indicators of rule sets ``a`` and ``b`` (one scenario); paired (aligned on index) if seeds are shared."""
    if scenario is not None:
        frame = frame[frame["scenario"] == scenario]
    elif frame["scenario"].nunique() > 1:
        raise ArenaError("the results hold several scenarios: name one")
    cells = {}
    for key in (a, b):
        cell = frame[frame["rules"] == key]
        if cell.empty:
            have = ", ".join(sorted(frame["rules"].unique()))
            raise ArenaError(f"rule set {key!r} is not in the results (they have {have})")
        cells[key] = cell
    merged = _paired_rows(cells[a], cells[b])
    if merged is not None:
        return (merged["winner_b"] == "party").to_numpy(), (merged["winner_n"] == "party").to_numpy(), True
    return (cells[a]["winner"] == "party").to_numpy(), (cells[b]["winner"] == "party").to_numpy(), False


def equivalence(a: np.ndarray, b: np.ndarray, margin: float, paired: bool) -> float:
    """TOST p-value that win rates ``a`` and ``b`` differ by less than ``margin`` (statsmodels)."""
    from statsmodels.stats.proportion import tost_proportions_2indep
    from statsmodels.stats.weightstats import ttost_paired

    a, b = np.asarray(a, float), np.asarray(b, float)
    if paired:
        d = a - b
        if np.all(d == d[0]):  # identical outcomes: no variance; equivalent iff the constant is inside
            return 0.0 if abs(d[0]) < margin else 1.0
        return float(ttost_paired(a, b, -margin, margin)[0])
    if a.sum() + b.sum() in (0, len(a) + len(b)):
        return 0.0
    res = tost_proportions_2indep(int(a.sum()), len(a), int(b.sum()), len(b), -margin, margin, compare="diff")
    return float(res.pvalue)


def superiority(a: np.ndarray, b: np.ndarray, paired: bool) -> float:
    """One-sided p-value that win rate ``a`` is higher than ``b``: exact McNemar (binomial test on the
    discordant pairs, scipy) when paired, the two-proportion score test otherwise (statsmodels)."""
    from scipy.stats import binomtest
    from statsmodels.stats.proportion import test_proportions_2indep

    a, b = np.asarray(a, bool), np.asarray(b, bool)
    if paired:
        only_a, only_b = int((a & ~b).sum()), int((~a & b).sum())
        if only_a + only_b == 0:
            return 1.0
        return float(binomtest(only_a, only_a + only_b, 0.5, alternative="greater").pvalue)
    if a.sum() + b.sum() in (0, len(a) + len(b)):
        return 1.0
    res = test_proportions_2indep(
        int(a.sum()), len(a), int(b.sum()), len(b), method="score", compare="diff", alternative="larger"
    )
    return float(res.pvalue)
