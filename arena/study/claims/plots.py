"""The plots of the published claims report: every claim's effects against their thresholds, the Delta-CR maps of
the calibration grid per variant, and a fitted replacement rule against its measurements.

Why a module of its own: the report's pictures, apart from its text (:mod:`arena.study.claims.report`); each
returns False when there is nothing to draw, so the page names only the plots it has.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from arena.study.claims.grid import Grid
from arena.study.reports.figures import figure, pyplot
from arena.study.statistics.inference import DIRECTION


def plot_effects(results: list[dict], path: Any) -> bool:
    """Every stated part's effect minus its threshold, with its interval, coloured by its verdict."""
    items = []
    for r in results:
        for p in r.get("parts") or []:
            e = p.effect
            if math.isfinite(e.estimate) and math.isfinite(e.low) and math.isfinite(e.high):
                items.append(
                    (
                        f"{r['id']}: {p.name[:60]}",
                        e.estimate - p.threshold,
                        e.low - p.threshold,
                        e.high - p.threshold,
                        p.verdict,
                    )
                )
    if not items:
        return False
    y = np.arange(len(items))[::-1]
    colour = {"supported": "tab:green", "not supported": "tab:red", DIRECTION: "tab:blue"}
    with figure(path, (9, 1 + 0.35 * len(items))) as (_fig, ax):
        for yi, (_label, est, lo, hi, verdict) in zip(y, items, strict=True):
            ax.errorbar(
                [est], [yi], xerr=[[est - lo], [hi - est]], fmt="o", capsize=3, color=colour.get(verdict, "tab:grey")
            )
        ax.set_yticks(y, [i[0] for i in items], fontsize=6)
        ax.axvline(0, color="black", lw=0.5)
        ax.set_xlabel(
            "effect minus the claim's threshold (95% interval over matchups; green supported, red not, "
            "blue direction shown (size undecided), grey inconclusive)",
            fontsize=7,
        )
    return True


def plot_maps(grid: Grid, path: Callable[[Any], None]) -> bool:
    """Delta-CR of every variant against the CR gap and the group size (typical monster, uncensored cells)."""
    cells = grid.cells
    if cells.empty:
        return False
    typ = cells[(cells["population"] == "typical") & (cells["variant"] != "d20") & (cells["censored"] == "")]
    variants = list(dict.fromkeys(typ["variant"]))
    if not variants:
        return False
    cols = 4
    rows = math.ceil(len(variants) / cols)
    plt = pyplot()
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    try:
        for ax, v in zip(axes.flat, variants, strict=False):
            sel = typ[typ["variant"] == v]
            sc = ax.scatter(sel["gap"], sel["size"], c=sel["delta"], cmap="coolwarm_r", vmin=-2, vmax=2, s=40)
            ax.set_title(v, fontsize=9)
            ax.set_xlabel("monster CR - party level", fontsize=8)
            ax.set_ylabel("group size", fontsize=8)
        for ax in list(axes.flat)[len(variants) :]:
            ax.axis("off")
        fig.colorbar(sc, ax=axes, label="Delta-CR (rungs)")
        path(fig)
    finally:
        plt.close(fig)
    return True


def plot_rule(grid: Grid, path: Any) -> bool:
    """The first fitted replacement rule (3d6's) against the measured Delta-CR of its cells."""
    if not grid.rules:
        return False
    first = next((r for r in grid.rules if r["variant"] == "3d6"), grid.rules[0])
    cells = grid.cells
    sel = cells[
        (cells["population"] == "typical") & (cells["variant"] == first["variant"]) & (cells["censored"] == "")
    ].copy()
    sel["rule"] = first["rule"].value(sel)
    with figure(path, (7, 4)) as (_fig, ax):
        for size, g in sel.groupby("size"):
            ax.errorbar(
                g["gap"] + 0.06 * size,
                g["delta"],
                yerr=1.96 * g["se"],
                fmt="o",
                ms=3,
                capsize=2,
                label=f"groups of {size}",
            )
        xs = np.arange(sel["gap"].min(), sel["gap"].max() + 1)
        ax.step(
            xs,
            first["rule"].value(pd.DataFrame({"gap": xs, "size": np.ones(len(xs), int)})),
            where="mid",
            color="black",
            label=f"rule: {first['text']}"[:70],
        )
        ax.step(xs, np.zeros(len(xs)), color="grey", ls=":")
        ax.set_xlabel("monster CR - party level (ladder rungs)")
        ax.set_ylabel(f"Delta-CR ({first['variant']} - d20)")
        ax.legend(fontsize=6)
    return True
