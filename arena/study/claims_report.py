"""The published claims report: ``claims.md`` (the command at its top, the DMG anchor, the verdict table, every
claim with quote, source, criterion, readable tables, verdict and robustness), its plots, ``claims.json``,
``summary.csv``, the calibration cells (``calibration.csv``) and the manifest, written aside and renamed together
(:mod:`arena.study.report`'s staging)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from arena.study.claims import Evaluation, summary_rows, to_json
from arena.study.report import figure


def _fmt(x: Any) -> str:
    if isinstance(x, float | np.floating):
        if not math.isfinite(x):
            return "-"
        return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"
    return str(x).replace("|", "\\|")


def md_table(frame: pd.DataFrame) -> list[str]:
    """A DataFrame as a Markdown table, every row, numbers to three significant figures."""
    if frame is None or frame.empty:
        return ["(no rows)"]
    cols = list(frame.columns)
    lines = ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v) for v in row) + " |")
    return lines


def _plot_effects(results: list[dict], path: Any) -> bool:
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
    colour = {"supported": "tab:green", "not supported": "tab:red"}
    with figure(path, (9, 1 + 0.35 * len(items))) as (_fig, ax):
        for yi, (_label, est, lo, hi, verdict) in zip(y, items, strict=True):
            ax.errorbar(
                [est], [yi], xerr=[[est - lo], [hi - est]], fmt="o", capsize=3, color=colour.get(verdict, "tab:grey")
            )
        ax.set_yticks(y, [i[0] for i in items], fontsize=6)
        ax.axvline(0, color="black", lw=0.5)
        ax.set_xlabel(
            "effect minus the claim's threshold (95% interval over matchups; green supported, red not, "
            "grey inconclusive)",
            fontsize=7,
        )
    return True


def _plot_maps(ev: Evaluation, path: Any) -> bool:
    cells = ev.grid.cells if ev.grid is not None else pd.DataFrame()
    if cells.empty:
        return False
    typ = cells[(cells["population"] == "typical") & (cells["variant"] != "d20") & (cells["censored"] == "")]
    variants = list(dict.fromkeys(typ["variant"]))
    if not variants:
        return False
    cols = 4
    rows = math.ceil(len(variants) / cols)
    import matplotlib.pyplot as plt

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


def _plot_rule(ev: Evaluation, path: Any) -> bool:
    grid = ev.grid
    if grid is None or not grid.rules:
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


def _claim_section(r: dict) -> list[str]:
    lines = [
        "",
        f"## {r['id']}: {r['verdict']}",
        "",
        f"> {r['quote']}",
        "",
        f"*{r['source']}*",
        "",
        f"**Criterion.** {r['criterion']}",
        "",
        f"**Robustness.** {r.get('robustness', 'exact')}",
        "",
    ]
    parts = r.get("parts") or []
    if parts:
        lines += md_table(pd.DataFrame([p.row() for p in parts]))
    if r.get("by_variation"):
        lines += ["", "Verdict under each variation:", ""]
        lines += md_table(
            pd.DataFrame(
                [
                    {"variation": "main (SRD-faithful model, typical monster)" if k == "None" else k, "verdict": v}
                    for k, v in r["by_variation"].items()
                ]
            )
        )
    for key, value in (r.get("extra") or {}).items():
        if isinstance(value, pd.DataFrame):
            lines += ["", f"*{key}*", ""] + md_table(value)
        else:
            lines += ["", f"*{key}*: {value}"]
    if "numbers" in r and r["numbers"]:  # a single-roll claim
        lines += ["", *_numbers(r["numbers"])]
    return lines


def _numbers(numbers: Any) -> list[str]:
    if isinstance(numbers, dict):
        flat = {k: v for k, v in numbers.items() if not isinstance(v, dict | list)}
        lines = [f"- {k}: {_fmt(v)}" for k, v in flat.items()]
        for k, v in numbers.items():
            if isinstance(v, dict | list):
                lines.append(f"- {k}: {_fmt(v)}")
        return lines
    return [f"- {_fmt(numbers)}"]


def write_report(
    ev: Evaluation, out: Any, command: str, workers: int, cluster: str | None, study: dict | None = None
) -> Any:
    """Write the study; returns the page. A failure (a full disk, a read-only folder) leaves no page that looks
    complete: every file is written aside and put in place only once all are written. ``study``: the fields of the
    study folder's manifest (:meth:`arena.study.results_folder.StudyFolder.final_manifest`: kind, status, settings,
    code), put first in manifest.json; a folder holding another command's files is refused."""
    import json

    from arena.study.experiment import git_commit, package_versions
    from arena.study.grid import anchor_summary
    from arena.study.report import Staged, md_code, output_folder
    from arena.study.results_folder import refuse_other_kind

    out = output_folder(out, "claims")
    refuse_other_kind(out, "claims")
    summary = summary_rows(ev.results)
    encounters = sum(v[0] for v in ev.timings.values())
    fight_seconds = sum(v[1] for v in ev.timings.values())
    manifest = {
        **(study or {"kind": "claims", "status": "complete"}),
        "command": command,
        "seed": ev.seed,
        "quick": ev.quick,
        "sizes_per_arm": ev.sizes,
        "seed_rule": "encounter i of every matchup and arm uses arena.dice.encounter_seed(seed, i); a sequential "
        "stage k > 0 of the calibration grid uses arena.study.sequential.stage_seed(seed, k)",
        "encounters": encounters,
        "fight_seconds": round(fight_seconds, 1),
        "total_seconds": round(ev.seconds, 1),
        "timings": {k: {"encounters": v[0], "seconds": round(v[1], 1)} for k, v in ev.timings.items()},
        "selection": "arena/study/design.py: judging_cells, low_cells, grid_cells, anchor_cells",
        "matchups": [m.name for m in ev.batch.matchups] if ev.batch else [],
        "workers": workers,
        "cluster": cluster,
        "versions": package_versions(),
        "git_commit": git_commit(),
        "verdicts": {r["id"]: r["verdict"] for r in ev.results},
        "robustness": {r["id"]: r.get("robustness", "exact") for r in ev.results},
    }
    if ev.grid is not None:
        manifest["sequential"] = {
            "stages": list(ev.grid.rule.stages),
            "target_half_width": ev.grid.rule.target,
            "confidence_per_look": ev.grid.rule.confidence,
            "encounters": ev.grid.encounters,
            "fixed_design_encounters": ev.grid.full_cost,
            "saved": ev.grid.saved,
        }
    with Staged(out, "claims report") as stage:
        stage.text("summary.csv", summary.to_csv(index=False))
        stage.text("manifest.json", json.dumps(manifest, indent=2, default=str) + "\n")
        stage.text("claims.json", json.dumps(to_json(ev.results), indent=1, default=str) + "\n")
        lines = [
            "# The documents' claims, evaluated",
            "",
            "Made by",
            "",
            f"    {command}",
            "",
            f"seed {ev.seed}, {'quick size (wide intervals)' if ev.quick else 'full size'}"
            f"; {encounters:,} encounters in {fight_seconds:.0f} s of fighting, {ev.seconds:.0f} s in all "
            f"({workers} worker(s){', cluster ' + md_code(cluster, 200) if cluster else ''}). Method: "
            "[docs/claims.md](../../docs/claims.md).",
            "",
        ]
        if ev.anchor is not None:
            lines += [
                "## The model against the DMG",
                "",
                "The DMG's anchor: an encounter of EL = party level should cost the party about 20% of its "
                "resources and no lives. Measured under the standard rules and the default (SRD-faithful) "
                "fight model, one monster of CR L and four of CR L-4, the typical monster and fully modelled "
                "SRD creatures of that CR (resources % = the mean of hit points lost and spell slots spent):",
                "",
            ]
            lines += md_table(anchor_summary(ev.anchor))
            lines += [
                "",
                "Where the measured cost is well below 20%, the generated party is stronger than the DMG "
                "assumes for that opponent (the typical monster has statistics and no special abilities); "
                "where PCs die at EL = L, the opposite. Per matchup: calibration.csv beside this page lists "
                "the grid; the anchor's matchups are in claims.json.",
                "",
            ]
        lines += ["## Verdicts", ""]
        lines += md_table(summary[["id", "source", "verdict", "robustness", "headline"]])
        if _plot_effects(ev.results, lambda fig: stage.figure("effects.png", fig)):
            lines += ["", "![effects against their thresholds](effects.png)"]
        if ev.grid is not None:
            lines += _grid_section(ev, stage)
            stage.text("calibration.csv", ev.grid.cells.to_csv(index=False))
        for r in ev.results:
            lines += _claim_section(r)
        stage.text("claims.md", "\n".join(lines) + "\n")
        stage.commit()
    return out / "claims.md"


def _grid_section(ev: Evaluation, stage: Any) -> list[str]:
    g = ev.grid
    lines = [
        "",
        "## Delta-CR per variant, the group-CR models and the replacement rules",
        "",
        f"Calibrated cells: {g.cells[['population', 'monster', 'level', 'size']].drop_duplicates().shape[0]} "
        f"(typical and SRD), sequential looks at {', '.join(map(str, g.rule.stages))} encounters per arm, "
        f"intervals at {100 * g.rule.confidence:.2f}% per look, stop at half-width "
        f"{g.rule.target:g} rung; {g.encounters:,} encounters against {g.full_cost:,} for the fixed 9-rung "
        f"ladder to the last look ({g.saved:,} saved).",
        "",
    ]
    if g.comparison is not None:
        lines += [
            "**Group-CR models** (Delta-CR(3d6), typical monster, uncensored cells; stated before the numbers "
            "in arena/study/cr_rule.py; params are intercept, then slopes, with standard errors):",
            "",
        ]
        lines += md_table(g.comparison)
    if g.srd_comparison is not None:
        lines += ["", "The same on SRD creatures:", ""] + md_table(g.srd_comparison)
    if g.rules:
        rows = [
            {
                "variant": r["variant"],
                "rule": r["text"],
                "cells": r["cells"],
                "rmse (rungs)": r["rmse"],
                "within half a rung": f"{100 * r['within_half_rung']:.0f}%",
                "CV error of none / all / below / group": " / ".join(
                    _fmt(r["cv_rmse"][f]) for f in ("none", "all", "below", "group")
                ),
                "failures": len(r["failures"]),
            }
            for r in g.rules
        ]
        lines += [
            "",
            "**Replacement rules** (the simplest at-table rule within 0.02 rung of the best cross-validated error):",
            "",
        ] + md_table(pd.DataFrame(rows))
        for r in g.rules:
            f = r["failures"]
            if len(f):
                lines += [
                    "",
                    f"Where *{r['variant']}*'s rule fails (interval excludes the rule by more than half a rung):",
                    "",
                ]
                lines += md_table(f[["level", "cr", "size", "delta", "delta_low", "delta_high", "rule"]])
    if _plot_maps(ev, lambda fig: stage.figure("delta-cr-maps.png", fig)):
        lines += ["", "![Delta-CR maps per variant](delta-cr-maps.png)"]
    if _plot_rule(ev, lambda fig: stage.figure("rule-fit.png", fig)):
        lines += ["", "![the fitted rule against the measurements](rule-fit.png)"]
    typ = g.cells[(g.cells["variant"] == "3d6") & (g.cells["population"] == "typical")]
    if not typ.empty:
        piv = typ[typ["censored"] == ""].pivot_table(index="level", columns="size", values="delta", aggfunc="mean")
        lines += ["", "Mean Delta-CR(3d6) by party level (rows) and group size (columns), typical monster:", ""]
        lines += md_table(piv.reset_index())
    srd = g.cells[(g.cells["variant"] == "d20") & (g.cells["population"] == "srd")]
    if not srd.empty:
        srd = srd.assign(**{"SRD c* - CR (how much harder than its CR, d20)": srd["c_star"] - srd["cr_pos"]})
        lines += ["", "SRD creatures on the typical ladder (standard d20): their equivalent CR minus their own:", ""]
        lines += md_table(
            srd[
                [
                    "monster",
                    "level",
                    "size",
                    "cr",
                    "c_star",
                    "SRD c* - CR (how much harder than its CR, d20)",
                    "censored",
                ]
            ]
        )
    return lines
