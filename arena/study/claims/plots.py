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
    typ = cells[(cells["population"] == "typical") & (cells["variant"] != "d20") & (cells["censor"] == "exact")]
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
    """3d6's recommended rule (else its best-fitting rule of the simplest form that fits the fit cells) against the
    measured Delta-CR of its exactly measured cells, fitted and held-out cells apart."""
    from arena.study.calibration import censored, holdout

    j = grid.judgement
    if j is None or "3d6" not in j.holdouts:
        return False
    h = j.holdouts["3d6"]
    cells = grid.cells
    sel = cells[(cells["population"] == "typical") & (cells["variant"] == "3d6") & (cells["censor"] == "exact")].copy()
    if sel.empty:
        return False
    rule = h.rule if h.rule is not None else censored.fit_rule(sel, "below").rule
    text = rule.text("3d6") + ("" if h.rule is not None else " (no rule fits the held-out cells)")
    held = sel["level"].isin(h.levels) | sel["monster"].isin(h.monsters)
    with figure(path, (7, 4)) as (_fig, ax):
        for is_held, g in sel.groupby(held):
            ax.errorbar(
                g["gap"] + np.where(is_held, 0.15, 0.0),
                g["delta"],
                yerr=1.96 * g["se"],
                fmt="s" if is_held else "o",
                ms=3,
                capsize=2,
                label="held-out cells" if is_held else "fitted cells",
            )
        xs = np.arange(sel["gap"].min(), sel["gap"].max() + 1)
        for size, style in ((1, "-"), (holdout.LEVEL_BANDS[0][1], "--")):
            ax.step(
                xs,
                rule.value(pd.DataFrame({"gap": xs, "size": np.full(len(xs), size)})),
                where="mid",
                color="black",
                ls=style,
                label=f"rule, groups of {size}: {text}"[:80],
            )
        ax.step(xs, np.zeros(len(xs)), color="grey", ls=":")
        ax.set_xlabel("monster CR - party level (ladder rungs)")
        ax.set_ylabel("Delta-CR (3d6 - d20)")
        ax.legend(fontsize=6)
    return True
