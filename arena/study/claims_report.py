"""The published claims report: ``claims.md`` with its plots, ``claims.json``, ``summary.csv`` and the manifest,
written aside and renamed together (:mod:`arena.study.report`'s staging)."""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.study.claims import Evaluation, interval_widths, summary_rows
from arena.study.report import figure


def _plot_group_cr(result: dict, path: Any) -> bool:
    rows = result["numbers"].get("delta_cr_by_size") or []
    if not rows:
        return False
    x = [r["size"] for r in rows]
    y = [r["delta_cr"] for r in rows]
    err = np.array([[r["delta_cr"] - r["ci"][0] for r in rows], [r["ci"][1] - r["delta_cr"] for r in rows]])
    with figure(path, (6, 3.5)) as (_fig, ax):
        ax.errorbar(x, y, yerr=np.clip(err, 0, None), fmt="o", capsize=3, label="measured Delta-CR (95% bootstrap)")
        ax.step([0.5, 3.5, 3.5, 8.5], [0, 0, -1, -1], where="post", color="grey", ls="--",
                label="the rule: -1 at 4+")
        ax.set_xlabel("group size")
        ax.set_ylabel("Delta-CR (3d6 - d20), rungs")
        ax.axhline(0, color="black", lw=0.5)
        ax.legend(fontsize=8)
    return True


def _plot_changes(results: list[dict], path: Any) -> bool:
    items = []
    for r in results:
        for key in ("pooled_all", "3d6_gain_minus_d20_gain", "underdog_win_rate", "all_levels"):
            e = r["numbers"].get(key)
            if isinstance(e, dict) and "ci" in e:
                items.append((f"{r['id']}\n{key}", e.get("change_pts", e.get("pts")), e["ci"]))
        for key in ("party_win_rate",):
            e = r["numbers"].get(key)
            if isinstance(e, dict) and "ci" in e:
                items.append((f"{r['id']}\n{key}", e["change_pts"], e["ci"]))
        for key in ("d20+called", "3d6+called", "d20+open", "3d6+open"):
            e = r["numbers"].get(key)
            if isinstance(e, dict) and "party_win_rate" in e:
                items.append((f"{r['id']}\n{key} win", e["party_win_rate"]["change_pts"], e["party_win_rate"]["ci"]))
    if not items:
        return False
    y = np.arange(len(items))[::-1]
    est = np.array([i[1] for i in items], float)
    err = np.array([[i[1] - i[2][0] for i in items], [i[2][1] - i[1] for i in items]], float)
    with figure(path, (8, 1 + 0.5 * len(items))) as (_fig, ax):
        ax.errorbar(est, y, xerr=np.clip(err, 0, None), fmt="o", capsize=3)
        ax.set_yticks(y, [i[0] for i in items], fontsize=7)
        ax.axvline(0, color="black", lw=0.5)
        ax.set_xlabel("change (percentage points, paired 95% interval)")
    return True


def write_report(ev: Evaluation, out: Any, command: str, workers: int, cluster: str | None) -> Any:
    """``out/claims.md`` (with PNG plots), ``out/manifest.json``, ``out/claims.json`` and ``out/summary.csv``;
    returns the page. Every file is written aside and put in place only once all are written (the page last), so
    a failure (a full disk, a read-only folder) leaves no page that looks complete."""
    import json

    from arena.errors import ArenaError
    from arena.study.experiment import git_commit, package_versions
    from arena.study.report import Staged, md_code, md_text, output_folder

    out = output_folder(out, "claims")
    if (out / "encounters.parquet").exists() or (out / "chunks").exists():
        raise ArenaError(f"{out} is a results folder of `arena run`: its manifest.json and summary.csv are not the "
                         "claims' to replace (choose another --out)")
    summary = summary_rows(ev.results)
    widths = interval_widths(ev.results)
    manifest = {
        "command": command, "seed": ev.seed, "quick": ev.quick, "sizes_per_arm": ev.sizes,
        "seed_rule": "encounter i of every matchup and rule set uses arena.dice.encounter_seed(seed, i)",
        "encounters": ev.batch.encounters if ev.batch else 0,
        "fight_seconds": round(ev.batch.seconds, 2) if ev.batch else 0.0,
        "total_seconds": round(ev.seconds, 2),
        "encounters_per_second": round(ev.batch.encounters / ev.batch.seconds, 1) if ev.batch and
        ev.batch.seconds else None,
        "median_interval_half_width_pts": widths,
        "matchups": [m.model_dump() for m in ev.batch.matchups] if ev.batch else [],
        "workers": workers, "cluster": cluster, "versions": package_versions(), "git_commit": git_commit(),
        "verdicts": {r["id"]: r["verdict"] for r in ev.results},
    }
    with Staged(out, "claims report") as stage:
        stage.text("summary.csv", summary.to_csv(index=False))
        stage.text("manifest.json", json.dumps(manifest, indent=2, default=str) + "\n")
        stage.text("claims.json", json.dumps(ev.results, indent=2, default=str) + "\n")
        lines = ["# The documents' claims, evaluated", "",
                 f"{md_code(command, 2000)} - seed {ev.seed}, "
                 f"{'quick size (wide intervals)' if ev.quick else 'full size'}; "
                 f"{manifest['encounters']:,} encounters in {manifest['fight_seconds']:.0f} s "
                 f"({workers} worker(s){', cluster ' + md_text(cluster) if cluster else ''}). Method and criteria: "
                 "docs/claims.md.", "",
                 "| claim | source | verdict | headline (paired 95% interval) | median half-width (pts) |",
                 "|---|---|---|---|---|"]
        for row in summary.itertuples(index=False):
            w = widths.get(row.id)
            lines.append(f"| {row.id} | {row.source} | **{row.verdict}** | {row.headline} | "
                         f"{'' if w is None else f'{w:.2f}'} |")
        if _plot_changes(ev.results, lambda fig: stage.figure("changes.png", fig)):
            lines += ["", "![changes](changes.png)"]
        for r in ev.results:
            lines += ["", f"## {r['id']} - {r['verdict']}", "", f"> {r['quote']}", "", f"*{r['source']}*", "",
                      f"**Criterion.** {r['criterion']}", ""]
            if r["id"] == "bell-group-cr" and _plot_group_cr(r, lambda fig: stage.figure("group-cr.png", fig)):
                lines += ["![group CR](group-cr.png)", ""]
            lines += ["```json", json.dumps(r["numbers"], indent=1, default=str), "```"]
        stage.text("claims.md", "\n".join(lines) + "\n")
        stage.commit()
    return out / "claims.md"
