"""`arena report`: what each rule set changes, as a markdown page with PNG plots or one self-contained HTML page.

The page leads with what a designer asks: the change of every rule set against a baseline (standard d20 unless
``--baseline KEY``), paired over the shared encounters, Holm-corrected, as a sorted table and a forest plot; then the
variant grid as a heat map; then the details (win rates with Wilson intervals, rounds as counts, hit points lost).
Each scenario opens with its description, party, monsters and Encounter Level. The page is rendered from jinja2
templates (:mod:`arena.study.report_page`); the HTML embeds its images, so it is one file.

Names in a results file (scenarios, rule sets) and in its manifest are data, not markup: they are escaped for
the page (markdown or HTML), for matplotlib (``$`` would start mathtext) and for the terminal, and a name used in
a file name becomes a slug. Every file is written aside (``NAME.tmp``) and put in place only when all of them are
written (:class:`Staged`), so a failure (a full disk, a read-only folder) leaves the folder as it was: never a
page that looks complete beside plots of another run.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import stat
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.labels import printable, slug
from arena.limits import MAX_FILE_BYTES, MAX_NAME_LENGTH
from arena.study.analysis import SUMMARY_COLUMNS, check_complete, read_encounters, summarise

TABLE_COLUMNS = {
    "rules": "rule set",
    "n": "n",
    "win": "party wins (95% CI)",
    "draw_rate": "draws",
    "rounds": "rounds: mean (median, most)",
    "hp_lost_mean": "party hp lost",
    "pc_deaths_mean": "PC deaths",
    "monster_hit_rate": "monster hit rate",
    "lucky_damage_share": "lucky share of monster damage",
    "note": "note",
}
CHANGE_COLUMNS = {
    "rules": "rule set",
    "win": "party wins",
    "win_change": "win rate change, points (interval)",
    "hp_change": "hp lost change, points (interval)",
    "rounds_change": "rounds change (interval)",
    "verdict": "after Holm",
    "note": "note",
}
DEFAULT_BASELINE = "d20"
ALPHA = 0.05
FORMATS = ("md", "html")
MAX_REPORT_SCENARIOS = 100
"""Scenarios in one report: each is a section with three plots (about a second of matplotlib); a run has a few."""
MAX_REPORT_RULE_SETS = 200
"""Rule sets of one scenario in a report: each is a row of a plot (the whole variant grid is 50)."""
MAX_PLOT_LABEL = 80
"""Characters of a name shown in a plot's title or axis (the page has the full name)."""


# --------------------------------------------------------------------------------------------- escaping
def _slug(text: str) -> str:
    """A file-name stem for ``text``: see :func:`arena.labels.slug` (never empty, never a dot file)."""
    return slug(str(text), "scenario") if str(text) else "scenario"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]#!|~])")
_CODE_SAFE = re.compile(r"[A-Za-z0-9+_.,:=/ -]+")


def md_text(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` as literal markdown text: control characters escaped (:func:`arena.labels.printable`), markdown
    punctuation backslash-escaped and ``&``, ``<``, ``>`` as entities (so no raw HTML survives)."""
    return html.escape(_MD_SPECIAL.sub(r"\\\1", printable(value, limit=limit)), quote=False)


def md_code(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` in a code span when it holds only plain characters, else as :func:`md_text`."""
    text = printable(value, limit=limit)
    return f"`{text}`" if _CODE_SAFE.fullmatch(text) and text.strip() == text else md_text(value, limit)


def html_text(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` as HTML text (quotes escaped too: safe in an attribute)."""
    return html.escape(printable(value, limit=limit), quote=True)


def plot_text(value: object, limit: int = MAX_PLOT_LABEL) -> str:
    """``value`` for a matplotlib title or tick label: printable, shortened, and ``$`` escaped (no mathtext)."""
    return printable(value, limit=limit).replace("$", r"\$")


# --------------------------------------------------------------------------------------------- writing
def os_reason(err: OSError) -> str:
    """A short reason for an OS error (a full disk, a read-only file system, no permission ...)."""
    from arena.study.results_folder import os_problem

    return os_problem(err)


def output_folder(path: str | os.PathLike, what: str = "output") -> Path:
    """``path`` as a folder to write into (created if need be), or an ArenaError naming it and the reason."""
    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            raise ArenaError(f"{folder}: exists and is not a folder (choose another --out)")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArenaError(f"{folder}: cannot create the {what} folder ({os_reason(err)})") from None
    return folder


class Staged:
    """Files of one output written aside and put in place together by :meth:`commit`.

    Each file is first written as ``NAME.tmp`` (created afresh, never through a link); :meth:`commit` renames
    them in the order they were staged (stage the page last). Used as a context manager, an error before the
    commit removes the ``.tmp`` files, and an OSError becomes an ArenaError naming the file and the reason."""

    def __init__(self, folder: Path, what: str = "output"):
        self.folder = Path(folder)
        self.what = what
        self.pending: list[tuple[Path, Path]] = []

    def path(self, name: str) -> Path:
        """The ``.tmp`` path to write ``name`` to (an existing ``.tmp`` file or link there is removed first)."""
        final = self.folder / name
        tmp = final.with_name(final.name + ".tmp")
        if os.path.lexists(tmp):
            if tmp.is_dir() and not tmp.is_symlink():
                raise ArenaError(f"{tmp}: is a folder; remove it (arena writes {name} there first)")
            tmp.unlink()
        self.pending.append((tmp, final))
        return tmp

    @contextlib.contextmanager
    def open(self, name: str) -> Iterator[Any]:
        """A new binary file for ``name`` (``O_EXCL | O_NOFOLLOW``: never written through a planted link)."""
        tmp = self.path(name)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "wb") as handle:
            yield handle

    def text(self, name: str, text: str) -> None:
        with self.open(name) as handle:
            handle.write(text.encode("utf-8"))

    def figure(self, name: str, fig: Any) -> None:
        with self.open(name) as handle:
            fig.savefig(handle, format="png", dpi=100)

    def commit(self) -> None:
        for _tmp, final in self.pending:
            if final.is_dir() and not final.is_symlink():
                raise ArenaError(f"{final}: is a folder; remove it or choose another --out")
        for tmp, final in self.pending:
            os.replace(tmp, final)
        self.pending = []

    def discard(self) -> None:
        for tmp, _final in self.pending:
            with contextlib.suppress(OSError):
                tmp.unlink()
        self.pending = []

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, kind: Any, err: Any, _tb: Any) -> bool:
        if kind is None:
            return False
        self.discard()
        if isinstance(err, OSError):
            where = err.filename or self.folder
            if isinstance(where, str) and where.endswith(".tmp"):
                where = where[:-4]
            raise ArenaError(f"{where}: cannot write the {self.what} ({os_reason(err)})") from None
        return False


# --------------------------------------------------------------------------------------------- tables
def _pct(x: float) -> str:
    return "-" if pd.isna(x) else f"{100 * x:.1f}%"


def _points(x: float) -> str:
    return "-" if pd.isna(x) else f"{100 * x:+.1f}"


def table_rows(summary: pd.DataFrame, notes: dict[str, str] | None = None) -> list[dict[str, str]]:
    """The summary as display strings, one dict per rule set (names as they are: escape them for the page)."""
    notes = notes or {}
    out = []
    for r in summary.itertuples(index=False):
        most = getattr(r, "rounds_max", float("nan"))
        out.append(
            {
                "rules": str(r.rules),
                "n": f"{r.n:,}",
                "win": f"{_pct(r.win_rate)} ({_pct(r.win_low)}-{_pct(r.win_high)})",
                "draw_rate": _pct(r.draw_rate),
                "rounds": f"{r.rounds_mean:.2f} ({r.rounds_median:g}, {most:g})"
                if not pd.isna(most)
                else f"{r.rounds_mean:.2f} ({r.rounds_median:g})",
                "hp_lost_mean": _pct(r.hp_lost_mean),
                "pc_deaths_mean": "-" if pd.isna(r.pc_deaths_mean) else f"{r.pc_deaths_mean:.2f}",
                "monster_hit_rate": _pct(r.monster_hit_rate),
                "lucky_damage_share": _pct(r.lucky_damage_share),
                "note": notes.get(str(r.rules), ""),
            }
        )
    return out


# --------------------------------------------------------------------------------------------- what changed
def baseline_of(keys: list[str], wanted: str | None) -> str:
    """The baseline rule set of a scenario: ``wanted`` (``--baseline``), else standard d20, else the first."""
    if wanted is not None:
        return wanted
    return DEFAULT_BASELINE if DEFAULT_BASELINE in keys else keys[0]


def changes_against(rows: pd.DataFrame, baseline: str, alpha: float = ALPHA) -> pd.DataFrame:
    """Every other rule set of one scenario against ``baseline``: win rate, hit points lost and rounds, paired
    over the shared encounters (:func:`arena.study.analysis.compare_cells`: Holm across the rule sets, intervals
    at the level that agrees with each decision). One row per (rule set, metric); empty with one rule set."""
    from arena.study.analysis import compare_cells

    base = rows[rows["rules"] == baseline]
    others = [k for k in dict.fromkeys(rows["rules"].tolist()) if k != baseline]
    if base.empty or not others:
        return pd.DataFrame()
    stacked = pd.concat([base.assign(rules=k) for k in others], ignore_index=True)
    return compare_cells(stacked, rows[rows["rules"] != baseline], alpha=alpha, tolerance=0.0)


def identical_twins(rows: pd.DataFrame) -> dict[str, str]:
    """Rule sets whose every encounter came out exactly as under an earlier rule set of the scenario (same
    winner, rounds and hit points lost, encounter by encounter): ``{rules: earlier rules}``. Such a rule set
    changed nothing for this scenario (e.g. ``+luck`` where nobody presses luck)."""
    seen: dict[int, str] = {}
    twins: dict[str, str] = {}
    order = "index" if "index" in rows else None
    for key, cell in rows.groupby("rules", sort=False):
        cell = cell.sort_values(order) if order else cell
        digest = hash(
            (
                tuple(cell["winner"].astype(str)),
                cell["rounds"].to_numpy(float).tobytes(),
                cell["party_hp_lost"].to_numpy(float).tobytes(),
            )
        )
        if digest in seen:
            twins[str(key)] = seen[digest]
        else:
            seen[digest] = str(key)
    return twins


def change_rows(
    changes: pd.DataFrame, summary: pd.DataFrame, baseline: str, notes: dict[str, str]
) -> list[dict[str, str]]:
    """The sorted change table (largest win-rate gain first), as display strings; the baseline row first."""
    rate = dict(zip(summary["rules"].astype(str), summary["win_rate"], strict=True))
    out = [
        {
            "rules": baseline,
            "win": _pct(rate.get(baseline, float("nan"))),
            "win_change": "baseline",
            "hp_change": "",
            "rounds_change": "",
            "verdict": "",
            "note": notes.get(baseline, ""),
        }
    ]
    if changes.empty:
        return out
    by = {m: changes[changes["metric"] == m].set_index("rules") for m in ("win_rate", "hp_lost", "rounds")}
    win = by["win_rate"].assign(hp=by["hp_lost"]["diff"]).sort_values(["diff", "hp"], ascending=[False, True])
    for key, w in win.iterrows():
        hp, rd = by["hp_lost"].loc[key], by["rounds"].loc[key]
        moved = [name for name, r in (("win", w), ("hp", hp), ("rounds", rd)) if r["significant"]]
        out.append(
            {
                "rules": str(key),
                "win": _pct(rate.get(key, float("nan"))),
                "win_change": f"{_points(w['diff'])} ({_points(w['low'])} to {_points(w['high'])})",
                "hp_change": f"{_points(hp['diff'])} ({_points(hp['low'])} to {_points(hp['high'])})",
                "rounds_change": f"{rd['diff']:+.2f} ({rd['low']:+.2f} to {rd['high']:+.2f})",
                "verdict": ("significant: " + ", ".join(moved)) if moved else "no significant change",
                "note": notes.get(str(key), ""),
            }
        )
    return out


# --------------------------------------------------------------------------------------------- plots
def win_rate_errors(summary: pd.DataFrame) -> np.ndarray:
    """The (2, k) error-bar lengths of the win rates: distances to the Wilson bounds, never negative (matplotlib
    refuses a negative one, and rounding can leave a bound a hair inside the estimate)."""
    rate = summary["win_rate"].to_numpy(dtype=float)
    err = np.vstack([rate - summary["win_low"].to_numpy(dtype=float), summary["win_high"].to_numpy(dtype=float) - rate])
    return np.clip(np.nan_to_num(err, nan=0.0), 0.0, None)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Any) -> None:
    """Save ``fig`` to ``path`` (a path, or a callable such as a :class:`Staged` file that saves it)."""
    if callable(path):
        path(fig)
    else:
        fig.savefig(path, dpi=100, format="png")


@contextlib.contextmanager
def figure(path: Any, figsize: tuple[float, float], ncols: int = 1, **kwargs: Any) -> Iterator[tuple[Any, Any]]:
    """``(fig, ax)`` for the block; laid out and saved to ``path`` when it ends, closed however it ends. A glyph
    missing from the font is not worth a line on stderr, so matplotlib's warnings are silenced here."""
    plt = _pyplot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig, ax = plt.subplots(1, ncols, figsize=figsize, **kwargs)
        try:
            yield fig, ax
            fig.tight_layout()
            save_figure(fig, path)
        finally:
            plt.close(fig)


def data_limits(
    low: np.ndarray, high: np.ndarray, floor: float | None = None, ceiling: float | None = None, least: float = 0.02
) -> tuple[float, float]:
    """Axis limits scaled to the data (the intervals' extent plus a margin), within ``floor``..``ceiling``."""
    values = np.concatenate([np.asarray(low, float), np.asarray(high, float)])
    values = values[np.isfinite(values)]
    if not len(values):
        return (floor if floor is not None else 0.0), (ceiling if ceiling is not None else 1.0)
    lo, hi = float(values.min()), float(values.max())
    pad = max(least, 0.08 * (hi - lo))
    lo, hi = lo - pad, hi + pad
    if floor is not None:
        lo = max(lo, floor)
    if ceiling is not None:
        hi = min(hi, ceiling)
    return lo, hi


def _height(k: int) -> float:
    return 1.3 + 0.24 * k


def plot_win_rates(summary: pd.DataFrame, path: Any, title: str) -> None:
    """Win rate by rule set with the 95% Wilson interval as error bars, the axis scaled to the intervals."""
    k = len(summary)
    with figure(path, (9, _height(k))) as (_fig, ax):
        y = np.arange(k)[::-1]
        ax.errorbar(
            summary["win_rate"].to_numpy(dtype=float),
            y,
            xerr=win_rate_errors(summary),
            fmt="o",
            capsize=3,
            markersize=4,
        )
        ax.set_yticks(y, [plot_text(r) for r in summary["rules"].tolist()], fontsize=8)
        ax.set_xlim(*data_limits(summary["win_low"], summary["win_high"], 0.0, 1.0))
        ax.xaxis.set_major_formatter(_percent())
        ax.set_xlabel("party win rate (95% Wilson interval)")
        ax.set_title(plot_text(title))
        ax.grid(axis="x", alpha=0.3)


def _percent(scale: float = 100, sign: bool = False) -> Any:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _pos: f"{scale * v:+g}" if sign else f"{scale * v:g}%")


def plot_changes(changes: pd.DataFrame, path: Any, title: str, baseline: str) -> None:
    """A forest plot: the change of win rate and of hit points lost against ``baseline``, each rule set a row
    (sorted by the win-rate change), with the interval that agrees with its Holm decision; significant changes
    filled, others hollow."""
    hp_diff = changes[changes["metric"] == "hp_lost"].set_index("rules")["diff"]
    win = changes[changes["metric"] == "win_rate"]
    win = win.assign(hp=win["rules"].map(hp_diff)).sort_values(["diff", "hp"], ascending=[True, False])
    order = win["rules"].tolist()
    hp = changes[changes["metric"] == "hp_lost"].set_index("rules").loc[order].reset_index()
    k = len(order)
    with figure(path, (9, _height(k)), ncols=2, sharey=True) as (_fig, axes):
        y = np.arange(k)
        for ax, part, label in ((axes[0], win, "party win rate"), (axes[1], hp, "party hit points lost")):
            diff = part["diff"].to_numpy(float)
            err = np.clip(np.vstack([diff - part["low"].to_numpy(float), part["high"].to_numpy(float) - diff]), 0, None)
            sig = part["significant"].to_numpy(bool)
            ax.axvline(0, color="0.4", linewidth=1)
            ax.errorbar(diff, y, xerr=err, fmt="none", ecolor="0.35", capsize=2, linewidth=1)
            ax.scatter(diff[sig], y[sig], color="C3", zorder=3, s=18, label="significant (Holm)")
            ax.scatter(diff[~sig], y[~sig], facecolor="white", edgecolor="C0", zorder=3, s=18, label="not significant")
            ax.set_xlim(*data_limits(part["low"], part["high"], -1.0, 1.0, least=0.01))
            ax.xaxis.set_major_formatter(_percent(sign=True))
            ax.set_xlabel(f"change of {label}, points")
            ax.grid(axis="x", alpha=0.3)
        axes[0].set_yticks(y, [plot_text(r) for r in order], fontsize=8)
        axes[0].legend(fontsize=7, loc="lower right")
        axes[0].set_title(plot_text(f"{title}: against {baseline}"), fontsize=10, loc="left")


GRID_ROWS = [("d20", False), ("d20", True), ("3d6", False), ("3d6", True)]
GRID_COLUMNS = [(m, o, c) for m in ("static", "variable", "press-luck") for o in (False, True) for c in (False, True)]
SHORT_MODIFIERS = {"static": "static", "variable": "var", "press-luck": "luck"}


def grid_matrix(summary: pd.DataFrame, values: dict[str, float]) -> tuple[np.ndarray, list[str], list[str]] | None:
    """The variant grid as a matrix: rows die x players-roll-all, columns modifiers x open x called, each cell
    ``values[rule set]``; None when the rule sets span fewer than two rows or columns (no grid to draw)."""
    need = {"die", "players_roll_all", "modifiers", "open_ended", "called_shots"}
    if not need <= set(summary.columns):
        return None
    matrix = np.full((len(GRID_ROWS), len(GRID_COLUMNS)), np.nan)
    for r in summary.itertuples(index=False):
        row = (str(r.die), bool(r.players_roll_all))
        col = (str(r.modifiers), bool(r.open_ended), bool(r.called_shots))
        if row in GRID_ROWS and col in GRID_COLUMNS and str(r.rules) in values:
            matrix[GRID_ROWS.index(row), GRID_COLUMNS.index(col)] = values[str(r.rules)]
    rows = [i for i in range(len(GRID_ROWS)) if np.isfinite(matrix[i]).any()]
    cols = [j for j in range(len(GRID_COLUMNS)) if np.isfinite(matrix[:, j]).any()]
    if len(rows) < 2 and len(cols) < 2:
        return None
    row_names = [GRID_ROWS[i][0] + ("+prad" if GRID_ROWS[i][1] else "") for i in rows]
    col_names = [
        "\n".join(
            [
                SHORT_MODIFIERS[GRID_COLUMNS[j][0]],
                "open" if GRID_COLUMNS[j][1] else "-",
                "called" if GRID_COLUMNS[j][2] else "-",
            ]
        )
        for j in cols
    ]
    return matrix[np.ix_(rows, cols)], row_names, col_names


def plot_grid(matrix: np.ndarray, rows: list[str], cols: list[str], path: Any, title: str) -> None:
    """A heat map of the variant grid: the change of the party's win rate in points, annotated, on a diverging
    scale centred on zero (grey: no such rule set in the run)."""
    plt = _pyplot()
    points = 100 * matrix
    finite = points[np.isfinite(points)]
    bound = max(1.0, float(np.abs(finite).max())) if len(finite) else 1.0
    with figure(path, (min(9.0, 2.2 + 0.62 * len(cols)), 1.6 + 0.5 * len(rows))) as (fig, ax):
        cmap = plt.get_cmap("RdBu").copy()
        cmap.set_bad("0.85")
        image = ax.imshow(np.ma.masked_invalid(points), cmap=cmap, vmin=-bound, vmax=bound, aspect="auto")
        for i in range(len(rows)):
            for j in range(len(cols)):
                if np.isfinite(points[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{points[i, j]:+.1f}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if abs(points[i, j]) > 0.6 * bound else "black",
                    )
        ax.set_xticks(range(len(cols)), cols, fontsize=7)
        ax.set_yticks(range(len(rows)), rows, fontsize=8)
        ax.set_xlabel("modifiers / open-ended / called shots")
        ax.set_title(plot_text(title), fontsize=10, loc="left")
        fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="points")


def plot_rounds(frame: pd.DataFrame, order: list[str], path: Any, title: str) -> None:
    """Rounds are a count: the share of fights that lasted each number of rounds, per rule set, as a heat map
    (a histogram per row) with the mean marked; the axis spans the rounds that occurred."""
    values = frame["rounds"].to_numpy(dtype=float)
    top = int(np.nanmax(values)) if len(values) else 1
    low = int(np.nanmin(values)) if len(values) else 0
    span = np.arange(low, top + 1)
    shares = np.zeros((len(order), len(span)))
    means = []
    for i, key in enumerate(order):
        cell = frame.loc[frame["rules"] == key, "rounds"].to_numpy(dtype=int)
        counts = np.bincount(cell - low, minlength=len(span))[: len(span)] if len(cell) else np.zeros(len(span))
        shares[i] = counts / max(1, len(cell))
        means.append(cell.mean() if len(cell) else np.nan)
    with figure(path, (9, _height(len(order)))) as (fig, ax):
        image = ax.imshow(
            100 * shares, cmap="Blues", aspect="auto", vmin=0, extent=(low - 0.5, top + 0.5, len(order) - 0.5, -0.5)
        )
        ax.plot(means, np.arange(len(order)), "|", color="C3", markersize=9, label="mean")
        ax.set_yticks(np.arange(len(order)), [plot_text(r) for r in order], fontsize=8)
        step = max(1, len(span) // 15)
        ax.set_xticks(span[::step])
        ax.set_xlabel("rounds (share of fights)")
        ax.set_title(plot_text(title))
        ax.legend(fontsize=7, loc="lower right")
        fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="% of fights")


def plot_hp_lost(frame: pd.DataFrame, order: list[str], path: Any, title: str) -> None:
    """The party's mean share of hit points lost per rule set, with a 95% t interval; the axis scaled to them."""
    from scipy import stats

    means, lows, highs = [], [], []
    for key in order:
        cell = frame.loc[frame["rules"] == key, "party_hp_lost"].to_numpy(dtype=float)
        m = float(cell.mean()) if len(cell) else np.nan
        half = float(stats.sem(cell) * stats.t.ppf(0.975, len(cell) - 1)) if len(cell) > 1 and cell.std() > 0 else 0.0
        means.append(m)
        lows.append(m - half)
        highs.append(m + half)
    k = len(order)
    with figure(path, (9, _height(k))) as (_fig, ax):
        y = np.arange(k)[::-1]
        err = np.clip(np.nan_to_num(np.vstack([np.subtract(means, lows), np.subtract(highs, means)])), 0, None)
        ax.errorbar(means, y, xerr=err, fmt="o", capsize=3, markersize=4, color="C1")
        ax.set_yticks(y, [plot_text(r) for r in order], fontsize=8)
        ax.set_xlim(*data_limits(np.array(lows), np.array(highs), 0.0, None, least=0.01))
        ax.xaxis.set_major_formatter(_percent())
        ax.set_xlabel("party hit points lost, mean (95% interval)")
        ax.set_title(plot_text(title))
        ax.grid(axis="x", alpha=0.3)


# --------------------------------------------------------------------------------------------- the report
def read_manifest(results: Path) -> dict:
    """The run's manifest.json as a dict, or {} when there is none or it is not a readable JSON object (the
    report does not need it: it only adds the run's dates, seeds, commit and scenarios)."""
    path = (results if results.is_dir() else results.parent) / "manifest.json"
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return {}
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _report_folder(results: Path, out: str | os.PathLike | None) -> Path:
    if out is not None:
        return output_folder(out, "report")
    folder = (results if results.is_dir() else results.parent) / "report"
    if folder.is_symlink():
        raise ArenaError(
            f"{folder} is a symbolic link; a results folder's report must be a real folder (remove "
            "the link, or give --out)"
        )
    return output_folder(folder, "report")


def _group_text(group: Any) -> str:
    if not isinstance(group, dict):
        return printable(group, limit=MAX_NAME_LENGTH)
    block = group.get("stat_block")
    name = block.get("name") if isinstance(block, dict) else group.get("name")
    count = group.get("count", 1)
    shown = printable(name, limit=MAX_NAME_LENGTH)
    return f"{shown} x{printable(count, limit=10)}" if count != 1 else shown


def _party_text(party: Any) -> str:
    if not isinstance(party, dict):
        return "-"
    if party.get("level") is not None:
        return f"the generated fighter, cleric, rogue and wizard of level {printable(party['level'], limit=10)}"
    if party.get("file"):
        return f"from {printable(party['file'], limit=MAX_NAME_LENGTH)}"
    members = party.get("members") or []
    names = [m.get("name") or (m.get("stat_block") or {}).get("name") if isinstance(m, dict) else m for m in members]
    return ", ".join(printable(n, limit=MAX_NAME_LENGTH) for n in names[:12]) or "-"


def _encounter_level(contents: dict) -> str:
    """The Encounter Level of a scenario as written in the manifest (under d20, and under 3d6 if it differs), or
    '' when it cannot be worked out here (a bestiary file elsewhere, an older manifest)."""
    try:
        from arena.study.scenario import Scenario
        from arena.world.challenge import format_cr

        scenario = Scenario.model_validate(contents)
        d20, bell = scenario.encounter_level("d20"), scenario.encounter_level("3d6")
    except Exception:  # a label on the page, never a reason to fail the report
        return ""
    return format_cr(d20) + (f" (3d6: {format_cr(bell)})" if bell != d20 else "")


def scenario_facts(manifest: dict, name: str) -> dict[str, str]:
    """What the page says about a scenario before any number: description, party, monsters, EL, n and seed."""
    found = {}
    for entry in manifest.get("scenarios") or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            found = entry
            break
    contents = found.get("contents") if isinstance(found.get("contents"), dict) else {}
    monsters = contents.get("monsters") if isinstance(contents.get("monsters"), list) else []
    facts = {
        "description": printable(contents.get("description") or "", limit=1000),
        "party": _party_text(contents.get("party")) if contents else "",
        "monsters": ", ".join(_group_text(g) for g in monsters[:20]),
        "el": _encounter_level(contents) if contents else "",
        "n": printable(found.get("n", ""), limit=20),
        "seed": printable(found.get("seed", ""), limit=40),
    }
    level = (contents.get("party") or {}).get("level") if isinstance(contents.get("party"), dict) else None
    facts["party_level"] = printable(level, limit=10) if level is not None else ""
    return facts


def commit_text(manifest: dict) -> str:
    """The run's commit as the page shows it; never "None"."""
    commit = manifest.get("git_commit")
    if isinstance(commit, str) and commit:
        return printable(commit, limit=80)
    if not manifest:
        return "not recorded (no manifest)"
    return "not recorded (the run's code was not a git checkout)"


def build_report(
    results: str | os.PathLike,
    out: str | os.PathLike | None = None,
    fmt: str = "md",
    baseline: str | None = None,
    alpha: float = ALPHA,
) -> Path:
    """Write the report page (and, for markdown, its plots) into ``out`` (default ``RESULTS/report``); return
    the page's path. ``baseline``: the rule set every other is compared with (default standard d20)."""
    from arena.study.report_page import render

    if fmt not in FORMATS:
        raise ArenaError(f"--format must be md or html, not {printable(fmt)!r}")
    results = Path(results)
    check_complete(results)
    frame = read_encounters(results, SUMMARY_COLUMNS)
    summary = summarise(frame)
    summary["rounds_max"] = frame.groupby(["scenario", "rules"], sort=False)["rounds"].max().to_numpy(float)
    scenarios = list(dict.fromkeys(summary["scenario"].tolist()))
    if len(scenarios) > MAX_REPORT_SCENARIOS:
        raise ArenaError(
            f"{results}: {len(scenarios):,} scenarios, more than one report shows ({MAX_REPORT_SCENARIOS})"
        )
    widest = int(summary.groupby("scenario", sort=False).size().max())
    if widest > MAX_REPORT_RULE_SETS:
        raise ArenaError(
            f"{results}: a scenario with {widest:,} rule sets, more than one report shows ({MAX_REPORT_RULE_SETS})"
        )
    if baseline is not None and baseline not in set(summary["rules"].astype(str)):
        have = ", ".join(list(dict.fromkeys(summary["rules"].astype(str)))[:12])
        raise ArenaError(f"--baseline {printable(baseline)!r} is not a rule set of the results (they have {have})")
    manifest = read_manifest(results)
    folder = _report_folder(results, out)

    used: set[str] = set()
    sections = []
    with Staged(folder, "report") as stage:

        def picture(name: str, alt: str) -> tuple[dict[str, str], Any]:
            image = {"alt": alt, "src": name}

            def save(fig: Any) -> None:
                if fmt == "md":
                    stage.figure(name, fig)
                else:  # embedded: the page is one file
                    import base64
                    import io

                    buffer = io.BytesIO()
                    fig.savefig(buffer, format="png", dpi=100)
                    image["src"] = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")

            return image, save

        for scenario, cells in summary.groupby("scenario", sort=False):
            stem = _slug(str(scenario))
            stem_base, i = stem, 2
            while stem in used:  # two names, one slug: keep their plots apart
                stem, i = f"{stem_base}-{i}", i + 1
            used.add(stem)
            order = cells["rules"].astype(str).tolist()
            rows = frame[frame["scenario"] == scenario]
            base_key = baseline_of(order, baseline)
            twins = identical_twins(rows)
            notes = {k: f"the same fights as {v}: this rule set changes nothing here" for k, v in twins.items()}
            notes.setdefault(base_key, "baseline")
            images = []
            changes = changes_against(rows, base_key, alpha) if base_key in order else pd.DataFrame()
            if not changes.empty:
                image, save = picture(f"{stem}-changes.png", f"change of each rule set against {base_key}")
                plot_changes(changes, save, str(scenario), base_key)
                images.append(("changes", image))
                win = changes[changes["metric"] == "win_rate"]
                grid = grid_matrix(
                    cells, {**dict(zip(win["rules"].astype(str), win["diff"], strict=True)), base_key: 0.0}
                )
                if grid is not None:
                    image, save = picture(f"{stem}-grid.png", "the variant grid: change of the party's win rate")
                    plot_grid(*grid, save, f"{scenario}: change of the party's win rate against {base_key}, points")
                    images.append(("grid", image))
            image, save = picture(f"{stem}-win-rate.png", "win rate by rule set")
            plot_win_rates(cells, save, f"{scenario}: party win rate")
            images.append(("win", image))
            image, save = picture(f"{stem}-rounds.png", "rounds by rule set")
            plot_rounds(rows, order, save, f"{scenario}: rounds")
            images.append(("rounds", image))
            image, save = picture(f"{stem}-hp-lost.png", "party hit points lost by rule set")
            plot_hp_lost(rows, order, save, f"{scenario}: party hit points lost")
            images.append(("hp", image))
            sections.append(
                {
                    "name": str(scenario),
                    "facts": scenario_facts(manifest, str(scenario)),
                    "baseline": base_key,
                    "changes": change_rows(changes, cells, base_key, notes) if base_key in order else [],
                    "rows": table_rows(cells, notes),
                    "images": dict(images),
                    "unchanged": sorted(twins.items()),
                }
            )
        name = f"report.{fmt}"
        stage.text(
            name,
            render(
                fmt,
                {
                    "results": str(results),
                    "manifest": manifest,
                    "commit": commit_text(manifest),
                    "sections": sections,
                    "columns": TABLE_COLUMNS,
                    "change_columns": CHANGE_COLUMNS,
                    "alpha": alpha,
                    "seeds": _seeds(manifest),
                },
                md_text,
                md_code,
            ),
        )
        stage.commit()
    return folder / name


def _seeds(manifest: dict) -> str:
    seeds = manifest.get("seeds")
    if not isinstance(seeds, dict) or not seeds:
        return ""
    shown = list(seeds.items())[:MAX_REPORT_SCENARIOS]
    return ", ".join(f"{printable(k, limit=MAX_NAME_LENGTH)} = {printable(v, limit=40)}" for k, v in shown) + (
        ", ..." if len(seeds) > len(shown) else ""
    )
