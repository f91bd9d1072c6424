"""The plots of ``arena report``: each rule set's change against the baseline (a forest plot), the variant grid (a
heat map), win rates with Wilson intervals, rounds as counts, hit points lost.

Why a module of its own: the report's plots are its pictures of the numbers, kept apart from the page that places
them (:mod:`arena.study.reports.report`); each scales its axis to its intervals and escapes every label.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from arena.study.reports.figures import data_limits, figure, percent_axis, pyplot, row_height
from arena.study.reports.measures import Measure, signed
from arena.study.reports.text import plot_text

LABEL_SIZE = 10
"""Points of a rule set's name on a plot's axis: readable on the page at its natural size (a plot is 900 px wide)."""


def win_rate_errors(summary: pd.DataFrame) -> np.ndarray:
    """The (2, k) error-bar lengths of the win rates: distances to the Wilson bounds, never negative (matplotlib
    refuses a negative one, and rounding can leave a bound a hair inside the estimate)."""
    rate = summary["win_rate"].to_numpy(dtype=float)
    err = np.vstack([rate - summary["win_low"].to_numpy(dtype=float), summary["win_high"].to_numpy(dtype=float) - rate])
    return np.clip(np.nan_to_num(err, nan=0.0), 0.0, None)


def plot_win_rates(summary: pd.DataFrame, path: Any, title: str) -> None:
    """Win rate by rule set with the 95% Wilson interval as error bars, the axis scaled to the intervals."""
    k = len(summary)
    with figure(path, (9, row_height(k))) as (_fig, ax):
        y = np.arange(k)[::-1]
        ax.errorbar(
            summary["win_rate"].to_numpy(dtype=float),
            y,
            xerr=win_rate_errors(summary),
            fmt="o",
            capsize=3,
            markersize=4,
        )
        ax.set_yticks(y, [plot_text(r) for r in summary["rules"].tolist()], fontsize=LABEL_SIZE)
        ax.set_xlim(*data_limits(summary["win_low"], summary["win_high"], 0.0, 1.0))
        ax.xaxis.set_major_formatter(percent_axis())
        ax.set_xlabel("party win rate (95% Wilson interval)")
        ax.set_title(plot_text(title))
        ax.grid(axis="x", alpha=0.3)


def plot_changes(
    changes: pd.DataFrame, path: Any, title: str, baseline: str, order: list[str], measures: tuple[Measure, ...]
) -> None:
    """A forest plot: the change of the first two ``measures`` (the lead first) against ``baseline``, one row per
    rule set in the table's ``order`` (top first), with the interval that agrees with its Holm decision;
    significant changes filled, others hollow."""
    k = len(order)
    panels = measures[:2]
    with figure(path, (9, row_height(k)), ncols=len(panels), sharey=True, squeeze=False) as (_fig, axes):
        y = np.arange(k)[::-1]
        for ax, measure in zip(axes[0], panels, strict=True):
            part = changes[changes["metric"] == measure.metric].set_index("rules").loc[order].reset_index()
            diff = part["diff"].to_numpy(float)
            err = np.clip(np.vstack([diff - part["low"].to_numpy(float), part["high"].to_numpy(float) - diff]), 0, None)
            sig = part["significant"].to_numpy(bool)
            ax.axvline(0, color="0.4", linewidth=1)
            ax.errorbar(diff, y, xerr=err, fmt="none", ecolor="0.35", capsize=2, linewidth=1)
            ax.scatter(diff[sig], y[sig], color="C3", zorder=3, s=18, label="significant (Holm)")
            ax.scatter(diff[~sig], y[~sig], facecolor="white", edgecolor="C0", zorder=3, s=18, label="not significant")
            if measure.points:
                ax.set_xlim(*data_limits(part["low"], part["high"], -1.0, 1.0, least=0.01))
                ax.xaxis.set_major_formatter(percent_axis(sign=True))
                ax.set_xlabel(f"change of {measure.label}, points")
            else:
                ax.set_xlim(*data_limits(part["low"], part["high"], least=0.05))
                ax.xaxis.set_major_formatter(percent_axis(scale=1, sign=True))
                ax.set_xlabel(f"change of {measure.label}")
            ax.grid(axis="x", alpha=0.3)
        axes[0][0].set_yticks(y, [plot_text(r) for r in order], fontsize=LABEL_SIZE)
        axes[0][0].legend(fontsize=8, loc="lower right")
        axes[0][0].set_title(plot_text(f"{title}: against {baseline}"), fontsize=10, loc="left")


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


def plot_grid(matrix: np.ndarray, rows: list[str], cols: list[str], path: Any, title: str, measure: Measure) -> None:
    """A heat map of the variant grid: each cell the change of ``measure`` (in points for a fraction), annotated,
    on a diverging scale centred on zero, blue where the change is better for the party and red where it is worse
    (grey: no such rule set in the run)."""
    plt = pyplot()
    values = 100 * matrix if measure.points else matrix
    digits = 1 if measure.points else 2
    finite = values[np.isfinite(values)]
    least = 1.0 if measure.points else 0.1
    bound = max(least, float(np.abs(finite).max())) if len(finite) else least
    with figure(path, (min(9.0, 2.4 + 0.62 * len(cols)), 1.9 + 0.5 * len(rows))) as (fig, ax):
        cmap = plt.get_cmap("RdBu" if measure.higher_is_better else "RdBu_r").copy()
        cmap.set_bad("0.85")
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-bound, vmax=bound, aspect="auto")
        for i in range(len(rows)):
            for j in range(len(cols)):
                if np.isfinite(values[i, j]):
                    ax.text(
                        j,
                        i,
                        signed(float(values[i, j]), digits),
                        ha="center",
                        va="center",
                        fontsize=9,
                        color="white" if abs(values[i, j]) > 0.6 * bound else "black",
                    )
        ax.set_xticks(range(len(cols)), cols, fontsize=9)
        ax.set_yticks(range(len(rows)), rows, fontsize=LABEL_SIZE)
        ax.set_xlabel("modifiers / open-ended / called shots")
        ax.set_title(plot_text(title), fontsize=10, loc="left")
        colorbar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="points" if measure.points else "rounds")
        colorbar.formatter = percent_axis(scale=1, sign=True)
        colorbar.update_ticks()


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
    with figure(path, (9, row_height(len(order)))) as (fig, ax):
        image = ax.imshow(
            100 * shares, cmap="Blues", aspect="auto", vmin=0, extent=(low - 0.5, top + 0.5, len(order) - 0.5, -0.5)
        )
        ax.plot(means, np.arange(len(order)), "|", color="C3", markersize=9, label="mean")
        ax.set_yticks(np.arange(len(order)), [plot_text(r) for r in order], fontsize=LABEL_SIZE)
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
    with figure(path, (9, row_height(k))) as (_fig, ax):
        y = np.arange(k)[::-1]
        err = np.clip(np.nan_to_num(np.vstack([np.subtract(means, lows), np.subtract(highs, means)])), 0, None)
        ax.errorbar(means, y, xerr=err, fmt="o", capsize=3, markersize=4, color="C1")
        ax.set_yticks(y, [plot_text(r) for r in order], fontsize=LABEL_SIZE)
        ax.set_xlim(*data_limits(np.array(lows), np.array(highs), 0.0, None, least=0.01))
        ax.xaxis.set_major_formatter(percent_axis())
        ax.set_xlabel("party hit points lost, mean (95% interval)")
        ax.set_title(plot_text(title))
        ax.grid(axis="x", alpha=0.3)
