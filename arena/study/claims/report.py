"""The published claims report: ``claims.md`` (the command at its top, the DMG anchor, the verdict table, every
claim with quote, source, criterion, readable tables, verdict and robustness), its plots, ``claims.json``,
``summary.csv``, the calibration cells (``calibration.csv``) and the manifest, written aside and renamed together
(:mod:`arena.study.reports.staging`).

Why a module of its own: the report is what the study publishes (``results/claims/``); it reads an
:class:`~arena.study.claims.evaluation.Evaluation` and computes nothing of its own beyond the tables' layout.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from arena.study.calibration import holdout
from arena.study.calibration.equivalent_cr import RESOURCES
from arena.study.claims.evaluation import QUICK_PREVIEW, Evaluation, summary_rows, to_json
from arena.study.claims.grid import MEASURE, SIDE_MEASURES, Grid, anchor_summary
from arena.study.claims.group_cr import ANCHOR_MATCHUPS, GROUP_VARIANT, Judgement
from arena.study.claims.plots import plot_effects, plot_maps, plot_rule
from arena.study.claims.statements import GROUP_CR
from arena.study.reports.staging import Staged, output_folder
from arena.study.reports.text import md_code
from arena.study.reports.text import md_table as text_table
from arena.study.runs.folder import refuse_other_kind
from arena.study.runs.identity import git_commit, package_versions


def _fmt(x: Any) -> str:
    if isinstance(x, float | np.floating):
        if not math.isfinite(x):
            return "-"
        return f"{x:.3g}" if abs(float(x)) < 1000 else f"{x:,.0f}"
    return str(x).replace("|", "\\|")


def md_table(frame: pd.DataFrame) -> list[str]:
    """A DataFrame as a Markdown table, every row, numbers to three significant figures."""
    return text_table(frame, _fmt)


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
    """A single-roll claim's numbers: scalars as a list, a list of records as a table (open-ended's 36 checks)."""
    if isinstance(numbers, dict):
        flat = {k: v for k, v in numbers.items() if not isinstance(v, dict | list)}
        lines = [f"- {k}: {_fmt(v)}" for k, v in flat.items()]
        for k, v in numbers.items():
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                lines += ["", f"*{k}*", "", *md_table(pd.DataFrame(v))]
            elif isinstance(v, dict | list):
                lines.append(f"- {k}: {_fmt(v)}")
        return lines
    return [f"- {_fmt(numbers)}"]


def write_report(
    ev: Evaluation, out: Any, command: str, workers: int, cluster: str | None, study: dict | None = None
) -> Path:
    """Write the study; returns the page. A failure (a full disk, a read-only folder) leaves no page that looks
    complete: every file is written aside and put in place only once all are written. ``study``: the fields of the
    study folder's manifest (:meth:`arena.study.runs.study_folder.StudyFolder.final_manifest`: kind, status,
    settings, code), put first in manifest.json; a folder holding another command's files is refused."""
    import json

    out = output_folder(out, "claims")
    refuse_other_kind(out, "claims")
    summary = summary_rows(ev.results)
    manifest = _manifest(ev, command, workers, cluster, study)
    with Staged(out, "claims report") as stage:
        stage.text("summary.csv", summary.to_csv(index=False))
        stage.text("manifest.json", json.dumps(manifest, indent=2, default=str) + "\n")
        stage.text("claims.json", json.dumps(to_json(ev.results), indent=1, default=str) + "\n")
        lines = _opening(ev, command, workers, cluster)
        lines += ["## Verdicts", ""]
        lines += md_table(summary[["id", "source", "verdict", "robustness", "headline"]])
        if plot_effects(ev.results, lambda fig: stage.figure("effects.png", fig)):
            lines += ["", "![effects against their thresholds](effects.png)"]
        if ev.grid is not None:
            lines += _grid_section(ev.grid, stage)
            stage.text("calibration.csv", ev.grid.cells.to_csv(index=False))
        for r in ev.results:
            lines += _claim_section(r)
        if ev.bestiary is not None:
            stage.text("bestiary-cr.csv", ev.bestiary.table.to_csv(index=False))
            lines += _bestiary_section(ev.bestiary.table)
        stage.text("claims.md", "\n".join(lines) + "\n")
        stage.commit()
    return out / "claims.md"


def _bestiary_section(table: pd.DataFrame) -> list[str]:
    """The re-rated bestiary: every creature, sorted by how far its equivalent CR under d20 is from its own."""
    from arena.study.claims.bestiary_cr import ARMS

    if table.empty:
        return []
    shown = table[["creature", "cr", "party level", "d20 - CR (rungs)"]].copy()
    for label in ARMS:
        shown[label] = [
            f"{c} [{lo}, {hi}]" + ("" if k == "measured" else f" ({k})")
            for c, lo, hi, k in zip(
                table[f"{label} c*"],
                table[f"{label} low"],
                table[f"{label} high"],
                table[f"{label} known"],
                strict=True,
            )
        ]
    return [
        "",
        "## The re-rated bestiary",
        "",
        f"Every fully modelled SRD creature ({len(table)}), alone against the party of the level its CR implies "
        "(EL = CR), placed on the typical-monster ladder by the resources the fight costs the party "
        "(arena/study/claims/bestiary_cr.py): its equivalent CR under standard d20 (is the SRD's CR right in this "
        "model?) and under each variant, with intervals; sorted by how far the d20 answer is from the printed CR. "
        "The same table: bestiary-cr.csv beside this page.",
        "",
        *md_table(shown),
    ]


def _fighting(ev: Evaluation) -> tuple[int, float]:
    """The encounters fought and the seconds of fighting, over every part of the study."""
    return sum(v[0] for v in ev.timings.values()), sum(v[1] for v in ev.timings.values())


def _manifest(ev: Evaluation, command: str, workers: int, cluster: str | None, study: dict | None) -> dict:
    """manifest.json: the study folder's fields, then how the study was made (command, seed, sizes, the seed rule,
    timings, the code and its versions) and what it found (verdicts, robustness, the sequential grid's savings)."""
    encounters, fight_seconds = _fighting(ev)
    manifest = {
        **(study or {"kind": "claims", "status": "complete"}),
        "command": command,
        "seed": ev.seed,
        "quick": ev.quick,
        "sizes_per_arm": ev.sizes,
        "seed_rule": "encounter i of every matchup and arm uses arena.dice.encounter_seed(seed, i); a sequential "
        "stage k > 0 of the calibration grid uses arena.study.statistics.sequential.stage_seed(seed, k)",
        "encounters": encounters,
        "fight_seconds": round(fight_seconds, 1),
        "total_seconds": round(ev.seconds, 1),
        "timings": {k: {"encounters": v[0], "seconds": round(v[1], 1)} for k, v in ev.timings.items()},
        "selection": "arena/study/claims/design.py: judging_cells, low_cells, grid_cells, anchor_cells",
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
    return manifest


def _opening(ev: Evaluation, command: str, workers: int, cluster: str | None) -> list[str]:
    """The page's top: the command that made it, its size and time, and the model against the DMG's anchor."""
    encounters, fight_seconds = _fighting(ev)
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
    if ev.quick and (ev.batch is not None or ev.grid is not None):
        lines += [f"**A preview.** {QUICK_PREVIEW[0].upper()}{QUICK_PREVIEW[1:]}.", ""]
    lines += [
        "Verdicts: *supported* (the effect shown beyond the claim's margin), *not supported* (shown short of it, or "
        "the other way), *direction shown (size undecided)* (shown on the predicted side of no effect, its size "
        "against the margin not decided), *inconclusive* (none of these); each after Holm's correction over every "
        "part of every encounter claim; *descriptive*: a claim that states a motive, not an effect, reported by its "
        "effect sizes without a verdict. The margins and why: [docs/claims.md](../../docs/claims.md).",
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
            f"the grid; the anchor's matchups are in claims.json and in the {GROUP_CR} section below "
            f"(*{ANCHOR_MATCHUPS}*).",
            "",
        ]
    return lines


def _grid_section(grid: Grid, stage: Staged) -> list[str]:
    """The calibration grid's part of the page: its size and savings, what is censored, Delta-CR under each measure,
    the models and rules judged on held-out cells, their plots and the grid's tables."""
    g = grid
    cells = g.cells
    typical = cells[(cells["population"] == "typical") & (cells["variant"] != "d20")] if not cells.empty else cells
    lines = [
        "",
        "## Delta-CR per variant, judged out of sample, and the replacement rules",
        "",
        f"Calibrated cells: {cells[['population', 'monster', 'level', 'size']].drop_duplicates().shape[0]} "
        f"(typical and SRD), difficulty = {MEASURE} ({RESOURCES}); sequential looks at "
        f"{', '.join(map(str, g.rule.stages))} encounters per arm, intervals at {100 * g.rule.confidence:.2f}% per "
        f"look, stop at half-width {g.rule.target:g} rung; {g.encounters:,} encounters against {g.full_cost:,} for "
        f"the fixed 9-rung ladder to the last look ({g.saved:,} saved). Held out of every fit: party levels "
        f"{', '.join(map(str, holdout.HELD_OUT_LEVELS))} and the monsters {', '.join(holdout.HELD_OUT_MONSTERS)}.",
        "",
    ]
    if not typical.empty:
        why = typical["censored"].replace("", "measured").value_counts()
        lines += [
            "What is known of each variant cell of the typical monster (a censored cell is a bound in every fit, "
            "never an exact value): " + ", ".join(f"{k} {v}" for k, v in why.items()) + ".",
            "",
        ]
        lines += [
            "**Delta-CR under each measure** (typical monster, mean over the cells measured exactly under "
            f"that measure; the rules are fitted on {MEASURE}):",
            "",
        ]
        lines += md_table(_by_measure(typical))
    j = g.judgement
    if j is not None:
        main = j.holdouts.get(GROUP_VARIANT)
        if main is not None:
            lines += [
                "",
                f"**Group-CR models, judged on the held-out cells** (Delta-CR({GROUP_VARIANT}); "
                f"{main.criteria.text()}; fitted by censored maximum likelihood on {main.fit_cells} cells, "
                f"judged on {main.held_cells}):",
                "",
            ]
            lines += md_table(main.models.drop(columns=["held_out_loglik"], errors="ignore"))
        if j.srd is not None:
            lines += ["", "The same models (fitted on the typical monster) judged on the SRD creatures' cells:", ""]
            lines += md_table(j.srd)
        lines += _rule_lines(j)
    if plot_maps(g, lambda fig: stage.figure("delta-cr-maps.png", fig)):
        lines += ["", "![Delta-CR maps per variant](delta-cr-maps.png)"]
    if plot_rule(g, lambda fig: stage.figure("rule-fit.png", fig)):
        lines += ["", "![the recommended rule against the measurements](rule-fit.png)"]
    return lines + _grid_tables(g)


def _by_measure(typical: pd.DataFrame) -> pd.DataFrame:
    """Per variant, the mean Delta-CR over its exactly measured cells under each measure, side by side."""
    rows = []
    for variant, v in typical.groupby("variant", sort=False):
        row: dict[str, Any] = {"variant": variant}
        exact = v[v["censor"] == "exact"]
        row[f"{MEASURE} (cells)"] = f"{exact['delta'].mean():+.2f} ({len(exact)})" if len(exact) else "-"
        for measure in SIDE_MEASURES:
            key = measure.replace("-", "_")
            col = f"censor_{key}"
            if col not in v.columns:
                continue
            e = v[v[col] == "exact"]
            row[f"{measure} (cells)"] = f"{e[f'delta_{key}'].mean():+.2f} ({len(e)})" if len(e) else "-"
        rows.append(row)
    return pd.DataFrame(rows)


def _rule_lines(j: Judgement) -> list[str]:
    """Per variant, the recommendation and every rule form judged on the held-out cells."""
    if not j.holdouts:
        return []
    lines = [
        "",
        "**A rule a DM can use, per variant** (judged on the held-out cells; the simplest form that fits is "
        "recommended, else the lookup table if it fits, else nothing):",
        "",
    ]
    lines += md_table(pd.DataFrame([{"variant": v, "recommendation": h.recommendation} for v, h in j.holdouts.items()]))
    for variant, h in j.holdouts.items():
        lines += [
            "",
            f"*{variant}*: each rule form fitted on {h.fit_cells} cells, judged on {h.held_cells}; the "
            f"lookup table {h.table_judgement['verdict']} (RMSE {_fmt(h.table_judgement['rmse'])}, "
            f"{h.table_judgement['within_half_rung']:.0%} within half a rung)",
            "",
        ]
        lines += md_table(h.rules[["form", "rule", "rmse", "within_half_rung", "exact", "censored", "verdict"]])
    return lines


def _grid_tables(g: Grid) -> list[str]:
    """The mean Delta-CR(3d6) by party level and group size, and the SRD creatures placed on the typical ladder."""
    lines: list[str] = []
    if g.cells.empty:
        return lines
    typ = g.cells[(g.cells["variant"] == "3d6") & (g.cells["population"] == "typical")]
    if not typ.empty:
        exact = typ[typ["censor"] == "exact"]
        piv = exact.pivot_table(index="level", columns="size", values="delta", aggfunc="mean")
        lines += [
            "",
            "Mean Delta-CR(3d6) by party level (rows) and group size (columns), typical monster, exactly "
            "measured cells (levels 2, 7, 10, 14 held out of every fit):",
            "",
        ]
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
