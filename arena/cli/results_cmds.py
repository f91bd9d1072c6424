"""`arena report`, `arena compare` and `arena check`: what a finished run says, and regressions."""

from __future__ import annotations

import json
import math
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import (
    JsonFlag,
    announce_policies,
    cell,
    console,
    default_workers,
    echo_json,
    fail,
    plural,
    table,
)
from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


class Format(StrEnum):
    md = "md"
    html = "html"


class ReportMetric(StrEnum):
    """`arena report --metric`: the measures of :data:`arena.study.reports.measures.MEASURES`."""

    win = "win"
    hp_lost = "hp-lost"
    rounds = "rounds"


# --------------------------------------------------------------------------------------------- report
def report_cmd(
    results: Annotated[Path, typer.Argument(help="A results folder (or its encounters.parquet).")],
    fmt: Annotated[
        Format, typer.Option("--format", help="md (with PNG files) or html (one self-contained page).")
    ] = Format.md,
    out: Annotated[Path | None, typer.Option(help="Folder for the page and plots (default: RESULTS/report).")] = None,
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", help="The rule set every other is compared with (default: d20, standard rules)."),
    ] = None,
    metric: Annotated[
        ReportMetric | None,
        typer.Option(
            "--metric",
            help="The measure the change table is sorted by and the first heat map shows (default: the one that "
            "moved most often, significantly).",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """What each rule set changes against a baseline (paired intervals, Holm-corrected), sorted by the measure that
    moved, the variant grid as a heat map per measure that moved, then win rates, rounds and hit points lost per
    scenario and rule set."""
    from arena.study.reports.report import build_report

    try:
        page = build_report(results, out, fmt.value, baseline=baseline, metric=metric.value if metric else None)
    except ArenaError as err:
        raise fail(err) from None
    if as_json:
        echo_json({"page": str(page), "format": fmt.value})
    else:
        typer.echo(f"wrote {printable(page, limit=4000)}")


# --------------------------------------------------------------------------------------------- compare
def _num(x: float, metric: str) -> str:
    """A change as the table prints it: rounds to three decimals, rates in points to one; a change that rounds to
    nothing as ``0.0`` (never ``-0.0`` or ``+0.0``); ``-`` for a missing one."""
    if not math.isfinite(x):
        return "-"
    digits, value = (3, x) if metric == "rounds" else (1, 100 * x)
    if round(value, digits) == 0:
        return f"{0.0:.{digits}f}"
    return f"{value:+.{digits}f}"


def compare_cmd(
    base: Annotated[Path, typer.Argument(help="The results folder to compare against.")],
    new: Annotated[Path, typer.Argument(help="The new results folder.")],
    alpha: Annotated[float, typer.Option(help="Significance level (after Holm correction).")] = 0.05,
    tolerance: Annotated[
        float,
        typer.Option(help="Largest acceptable change of win rate or hit points lost (a fraction: 0.02 = 2 points)."),
    ] = 0.02,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Change of win rate, rounds and hit points lost for every scenario and rule set in both runs.

    Says which cells were compared and which only one run has. Intervals are drawn at the level that agrees with
    each row's Holm-corrected decision. Exit 1 if any win rate or hit points lost moved by more than the
    tolerance, significantly."""
    from arena.study.statistics.comparisons import check_alpha, check_tolerance, compare_runs

    try:
        alpha, tolerance = check_alpha(alpha), check_tolerance(tolerance)
        frame, cover = compare_runs(base, new, alpha=alpha, tolerance=tolerance, with_coverage=True)
    except ArenaError as err:
        raise fail(err) from None
    moved = bool(frame["moved"].any())
    models = model_differences(base, new, sorted({c["scenario"] for c in cover["compared"]}))
    if as_json:
        rows = json.loads(frame.to_json(orient="records"))
        echo_json(
            {
                "base": str(base),
                "new": str(new),
                "alpha": alpha,
                "tolerance": tolerance,
                "moved": moved,
                "compared": cover["compared"],
                "only_base": cover["only_base"],
                "only_new": cover["only_new"],
                "model_differences": models,
                "cells": rows,
            }
        )
    else:
        _print_comparison(frame, cover, base, new, moved, models)
    if moved:
        raise typer.Exit(1)


def model_differences(base: Path, new: Path, scenarios: list[str]) -> list[dict]:
    """The fight-model options (``--model``, a scenario's ``model:``) that differ between the two runs, for each
    scenario both fought, as their manifests record them: ``{"scenario", "option", "base", "new"}``. A change
    between two runs under different models may be the model's doing, not the code's; a run whose manifest does not
    record its model (written before it did) is not compared."""
    from arena.study.reports.report import read_manifest

    def models(folder: Path) -> dict[str, dict]:
        plan = read_manifest(folder).get("plan")
        listed = plan.get("scenarios") if isinstance(plan, dict) else None
        return {
            s["name"]: s["model"]
            for s in listed or ()
            if isinstance(s, dict) and isinstance(s.get("model"), dict) and isinstance(s.get("name"), str)
        }

    old, now = models(base), models(new)
    return [
        {"scenario": name, "option": option, "base": old[name].get(option), "new": now[name].get(option)}
        for name in scenarios
        if name in old and name in now
        for option in sorted({*old[name], *now[name]})
        if old[name].get(option) != now[name].get(option)
    ]


def _print_comparison(frame: Any, cover: dict, base: Path, new: Path, moved: bool, models: list[dict]) -> None:
    """``arena compare`` as text: one row per cell and metric, then which cells were compared and which only one
    run has, the fight-model options the two runs differ in, and the verdict line."""
    t = table(
        cell(f"{new} vs {base}: win rate and hp lost in points; intervals at the Holm level of each row"),
        (
            "scenario",
            "rules",
            "metric",
            "base",
            "new",
            "change",
            "interval",
            "level",
            "p (Holm)",
            "test",
            "verdict",
        ),
        right=("base", "new", "change", "interval", "level", "p (Holm)"),
    )
    for r in frame.itertuples(index=False):
        scale = (lambda v: f"{v:.2f}") if r.metric == "rounds" else (lambda v: f"{100 * v:.1f}%")
        verdict = "MOVED" if r.moved else ("significant" if r.significant else "")
        t.add_row(
            cell(r.scenario),
            cell(r.rules),
            r.metric,
            scale(r.base),
            scale(r.new),
            _num(r.diff, r.metric),
            f"{_num(r.low, r.metric)} .. {_num(r.high, r.metric)}",
            f"{100 * r.level:.2f}%",
            f"{r.p_holm:.3g}",
            r.test,
            f"[red]{verdict}[/red]" if r.moved else verdict,
        )
    out = console()
    out.print(t)
    cells = len(cover["compared"])
    out.print(cell(f"compared {plural(cells, 'cell')} (scenario x rule set) present in both runs"))
    for key, where in (("only_base", str(base)), ("only_new", str(new))):
        missing = cover[key]
        if missing:
            shown = ", ".join(f"{c['scenario']}/{c['rules']}" for c in missing[:10])
            more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
            out.print(cell(f"not compared, only in {where}: {plural(len(missing), 'cell')}: {shown}{more}"))
    for name in dict.fromkeys(d["scenario"] for d in models):
        changed = ", ".join(
            f"{d['option']} {_option(d['base'])} -> {_option(d['new'])}" for d in models if d["scenario"] == name
        )
        out.print(cell(f"the runs used different fight-model options for {name} (base -> new): {changed}", None))
    typer.echo("moved beyond tolerance" if moved else "no cell moved beyond tolerance")


def _option(value: Any) -> str:
    """A model option's value as ``--model`` takes it (a list as ``a,b``; none as ``-``)."""
    if isinstance(value, list):
        return ",".join(map(str, value)) or "-"
    return "-" if value is None else str(value)


# --------------------------------------------------------------------------------------------- check
def check_cmd(
    suite: Annotated[Path, typer.Argument(help="A regression suite YAML file.")],
    workers: Annotated[
        int | None,
        typer.Option(
            help="Local worker processes, 1 to 64 (default: every core, at most "
            "64; results are the same for any number)."
        ),
    ] = None,
    trust_policies: Annotated[
        bool, typer.Option("--trust-policies", help="Run the Python policy files the scenarios list.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Run a regression suite: exit 1 if any check fails."""
    from arena.study.checks.suites import run_suite
    from arena.study.runs.options import check_workers

    try:
        chosen = min(default_workers(), MAX_WORKERS) if workers is None else check_workers(workers)
        verdicts = run_suite(suite, workers=chosen, trust_policies=trust_policies, on_policy=announce_policies)
    except ArenaError as err:
        raise fail(err) from None
    failed = sum(not v.passed for v in verdicts)
    if as_json:
        echo_json(
            {
                "suite": str(suite),
                "passed": len(verdicts) - failed,
                "failed": failed,
                "checks": [
                    {
                        "name": v.name,
                        "scenario": v.scenario,
                        "rules": v.rules,
                        "n": v.n,
                        "measured": v.measured,
                        "expected": v.expected,
                        "passed": v.passed,
                    }
                    for v in verdicts
                ],
            }
        )
    else:
        t = table(cell(suite), ("check", "scenario", "rules", "n", "measured", "expected", "result"), right=("n",))
        for v in verdicts:
            t.add_row(
                cell(v.name),
                cell(v.scenario),
                cell(v.rules),
                str(v.n),
                cell(v.measured),
                cell(v.expected),
                "[green]pass[/green]" if v.passed else "[red]FAIL[/red]",
            )
        console().print(t)
        typer.echo(f"{len(verdicts) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add `arena report`, `arena compare` and `arena check` to the app."""
    app.command("report")(report_cmd)
    app.command("compare")(compare_cmd)
    app.command("check")(check_cmd)
