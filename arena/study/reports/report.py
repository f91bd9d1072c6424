"""`arena report`: what each rule set changes, as a markdown page with PNG plots or one self-contained HTML page.

The page leads with what a designer asks: the change of every rule set against a baseline (standard d20 unless
``--baseline KEY``), paired over the shared encounters, Holm-corrected, as a table and a forest plot sorted by the
measure that moved (the party's win rate, its hit points lost or the rounds; ``--metric`` chooses); then the variant
grid as a heat map per measure that moved; then the details (win rates with Wilson intervals, rounds as counts, hit
points lost).
Each scenario opens with its description, party, monsters and Encounter Level. The page is rendered from jinja2
templates (:mod:`arena.study.reports.page`); the HTML embeds its images, so it is one file.

Why a module of its own: it puts the report together, one section per scenario, from the tables of
:mod:`~arena.study.reports.changes` and the plots of :mod:`~arena.study.reports.plots`. Names in a results file and
in its manifest are data, not markup (:mod:`~arena.study.reports.text`), and every file is staged
(:mod:`~arena.study.reports.staging`), so a failure leaves the folder as it was.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_FILE_BYTES, MAX_NAME_LENGTH
from arena.study.reports.changes import (
    ALPHA,
    TABLE_COLUMNS,
    baseline_of,
    change_columns,
    change_rows,
    changes_against,
    identical_twins,
    sorted_rules,
    table_rows,
)
from arena.study.reports.combatants import add_sections
from arena.study.reports.measures import Lead, Measure, check_measure, lead_of
from arena.study.reports.plots import grid_matrix, plot_changes, plot_grid, plot_hp_lost, plot_rounds, plot_win_rates
from arena.study.reports.staging import Staged, output_folder
from arena.study.reports.text import file_stem, md_code, md_text
from arena.study.statistics.encounters import check_complete, read_encounters
from arena.study.statistics.summaries import SUMMARY_COLUMNS, summarise

FORMATS = ("md", "html")
MAX_REPORT_SCENARIOS = 100
"""Scenarios in one report: each is a section with three plots (about a second of matplotlib); a run has a few."""
MAX_REPORT_RULE_SETS = 200
"""Rule sets of one scenario in a report: each is a row of a plot (the whole variant grid is 50)."""


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
        from arena.study.scenarios.scenario import Scenario
        from arena.world.challenge import format_cr

        scenario = Scenario.model_validate(contents)
        d20, bell = scenario.encounter_level("d20"), scenario.encounter_level("3d6")
    except Exception:  # a label on the page, never a reason to fail the report
        return ""
    return format_cr(d20) + (f" (3d6: {format_cr(bell)})" if bell != d20 else "")


def scenario_facts(manifest: dict, name: str) -> dict[str, str]:
    """What the page says about a scenario before any number: description, party, monsters, EL, n and seed."""
    found: dict = {}
    for entry in manifest.get("scenarios") or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            found = entry
            break
    contents = given if isinstance(given := found.get("contents"), dict) else {}
    monsters = listed if isinstance(listed := contents.get("monsters"), list) else []
    facts = {
        "description": printable(contents.get("description") or "", limit=1000),
        "party": _party_text(contents.get("party")) if contents else "",
        "monsters": ", ".join(_group_text(g) for g in monsters[:20]),
        "el": _encounter_level(contents) if contents else "",
        "n": printable(found.get("n", ""), limit=20),
        "seed": printable(found.get("seed", ""), limit=40),
    }
    level = party.get("level") if isinstance(party := contents.get("party"), dict) else None
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
    metric: str | None = None,
) -> Path:
    """Write the report page (and, for markdown, its plots) into ``out`` (default ``RESULTS/report``); return
    the page's path. ``baseline``: the rule set every other is compared with (default standard d20). ``metric``
    (``win``, ``hp-lost`` or ``rounds``): the measure the change table is sorted by and the first heat map shows
    (default: the one that moved, :func:`arena.study.reports.measures.lead_of`)."""
    from arena.study.reports.page import render

    if fmt not in FORMATS:
        raise ArenaError(f"--format must be md or html, not {printable(fmt)!r}")
    wanted = check_measure(metric)
    results = Path(results)
    check_complete(results)
    frame = read_encounters(results, SUMMARY_COLUMNS)
    summary = summarise(frame)
    summary["rounds_max"] = frame.groupby(["scenario", "rules"], sort=False)["rounds"].max().to_numpy(float)
    _check_shown(results, summary, baseline)
    manifest = read_manifest(results)
    folder = _report_folder(results, out)
    with Staged(folder, "report") as stage:
        pictures = _Pictures(stage, fmt)
        sections = [
            _section(str(scenario), cells, frame, manifest, pictures, _Choice(baseline, alpha, wanted))
            for scenario, cells in summary.groupby("scenario", sort=False)
        ]
        add_sections(results, sections, fmt)  # per combatant, from combatants.parquet when the run wrote it
        name = f"report.{fmt}"
        context = {
            "results": str(results),
            "manifest": manifest,
            "commit": commit_text(manifest),
            "sections": sections,
            "alpha": alpha,
            "seeds": _seeds(manifest),
        }
        stage.text(name, render(fmt, context, md_text, md_code))
        stage.commit()
    return folder / name


def _check_shown(results: Path, summary: pd.DataFrame, baseline: str | None) -> None:
    """Refuse a results file with more scenarios or rule sets than one report shows, or a ``--baseline`` it lacks."""
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


class _Pictures:
    """Where the report's plots go: staged PNG files beside a markdown page, or ``data:`` URIs inside an HTML page
    (one file); each scenario's plots under a file stem of its own, even when two names make one slug."""

    def __init__(self, stage: Staged, fmt: str) -> None:
        self.stage, self.fmt = stage, fmt
        self.used: set[str] = set()

    def stem(self, scenario: str) -> str:
        stem = file_stem(scenario)
        stem_base, i = stem, 2
        while stem in self.used:  # two names, one slug: keep their plots apart
            stem, i = f"{stem_base}-{i}", i + 1
        self.used.add(stem)
        return stem

    def picture(self, name: str, alt: str) -> tuple[dict[str, str], Callable[[Any], None]]:
        """The page's image entry for ``name`` and the function that saves a figure to it."""
        image = {"alt": alt, "src": name}

        def save(fig: Any) -> None:
            if self.fmt == "md":
                self.stage.figure(name, fig)
            else:  # embedded: the page is one file
                import base64
                import io

                buffer = io.BytesIO()
                fig.savefig(buffer, format="png", dpi=100)
                image["src"] = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")

        return image, save


@dataclass(frozen=True)
class _Choice:
    """What the reader chose for every section: the baseline (None: standard d20), the level of the Holm
    decisions and the lead measure (None: the one that moved)."""

    baseline: str | None
    alpha: float
    metric: Measure | None


def _section(
    scenario: str,
    cells: pd.DataFrame,
    frame: pd.DataFrame,
    manifest: dict,
    pictures: _Pictures,
    choice: _Choice,
) -> dict[str, Any]:
    """One scenario's section of the page: its facts, then its parts in order (what changed, the heat maps, the
    details), each a dict whose ``kind`` names its template in :mod:`arena.study.reports.page`. A new part of a
    scenario's section is one more dict in ``parts`` and one more template there."""
    stem = pictures.stem(scenario)
    order = cells["rules"].astype(str).tolist()
    rows = frame[frame["scenario"] == scenario]
    base_key = baseline_of(order, choice.baseline)
    twins = identical_twins(rows)
    notes = {k: f"same fights as {v}" for k, v in twins.items()}
    notes.setdefault(base_key, "baseline")
    changes = changes_against(rows, base_key, choice.alpha) if base_key in order else pd.DataFrame()
    parts: list[dict[str, Any]] = []
    if not changes.empty:
        lead = lead_of(changes, choice.metric)
        parts.append(_changes_part(scenario, stem, changes, cells, base_key, notes, lead, pictures))
        maps = _grid_maps(scenario, stem, changes, cells, base_key, lead.mapped, pictures)
        if maps:
            parts.append({"kind": "grids", "maps": maps, "baseline": base_key})
    parts.append(_details_part(scenario, stem, cells, rows, order, notes, pictures))
    return {
        "name": scenario,
        "facts": scenario_facts(manifest, scenario),
        "baseline": base_key,
        "unchanged": sorted(twins.items()),
        "parts": parts,
    }


def _changes_part(
    scenario: str,
    stem: str,
    changes: pd.DataFrame,
    cells: pd.DataFrame,
    base_key: str,
    notes: dict[str, str],
    lead: Lead,
    pictures: _Pictures,
) -> dict[str, Any]:
    """What each rule set changes against the baseline: the forest plot and the table, sorted by the lead measure."""
    ranked = sorted_rules(changes, lead)
    image, save = pictures.picture(f"{stem}-changes.png", f"change of each rule set against {base_key}")
    plot_changes(changes, save, scenario, base_key, ranked, lead.order)
    return {
        "kind": "changes",
        "baseline": base_key,
        "image": image,
        "lead": lead.first.label,
        "shown": [m.label for m in lead.order[:2]],
        "moved": [m.label for m in lead.moved],
        "columns": change_columns(lead),
        "rows": change_rows(changes, cells, base_key, notes, lead),
    }


def _grid_maps(
    scenario: str,
    stem: str,
    changes: pd.DataFrame,
    cells: pd.DataFrame,
    base_key: str,
    measures: tuple[Measure, ...],
    pictures: _Pictures,
) -> list[dict[str, Any]]:
    """A heat map of the variant grid per measure (none when the rule sets do not span a grid)."""
    maps = []
    for measure in measures:
        part = changes[changes["metric"] == measure.metric]
        grid = grid_matrix(cells, {**dict(zip(part["rules"].astype(str), part["diff"], strict=True)), base_key: 0.0})
        if grid is None:
            return []
        unit = "points" if measure.points else "rounds"
        image, save = pictures.picture(
            f"{stem}-grid-{measure.option}.png", f"the variant grid: change of the {measure.label}"
        )
        plot_grid(*grid, save, f"{scenario}: change of the {measure.label} against {base_key}, {unit}", measure)
        maps.append({"image": image, "label": measure.label, "unit": unit})
    return maps


def _details_part(
    scenario: str,
    stem: str,
    cells: pd.DataFrame,
    rows: pd.DataFrame,
    order: list[str],
    notes: dict[str, str],
    pictures: _Pictures,
) -> dict[str, Any]:
    """Each rule set's own numbers: the summary table, win rates, rounds and hit points lost."""
    win, save = pictures.picture(f"{stem}-win-rate.png", "win rate by rule set")
    plot_win_rates(cells, save, f"{scenario}: party win rate")
    rounds, save = pictures.picture(f"{stem}-rounds.png", "rounds by rule set")
    plot_rounds(rows, order, save, f"{scenario}: rounds")
    hp, save = pictures.picture(f"{stem}-hp-lost.png", "party hit points lost by rule set")
    plot_hp_lost(rows, order, save, f"{scenario}: party hit points lost")
    return {
        "kind": "details",
        "columns": TABLE_COLUMNS,
        "rows": table_rows(cells, notes),
        "images": [win, rounds, hp],
    }


def _seeds(manifest: dict) -> str:
    seeds = manifest.get("seeds")
    if not isinstance(seeds, dict) or not seeds:
        return ""
    shown = list(seeds.items())[:MAX_REPORT_SCENARIOS]
    return ", ".join(f"{printable(k, limit=MAX_NAME_LENGTH)} = {printable(v, limit=40)}" for k, v in shown) + (
        ", ..." if len(seeds) > len(shown) else ""
    )
