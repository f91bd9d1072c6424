"""`arena report`, `arena compare` and `arena check`: what a finished run says, and regressions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import announce_policies, default_workers, fail
from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


def _console() -> Any:
    import sys

    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 200)


def _cell(value: Any) -> Any:
    """A table cell from data: control characters escaped and no rich markup (``[red]`` or a stray ``[/x]``)."""
    from rich.text import Text

    return Text(printable(value))


# --------------------------------------------------------------------------------------------- report
def report_cmd(
    results: Annotated[Path, typer.Argument(help="A results folder (or its encounters.parquet).")],
    fmt: Annotated[str, typer.Option("--format", help="md or html.")] = "md",
    out: Annotated[Path | None, typer.Option(help="Folder for the page and plots (default: RESULTS/report).")]
    = None,
) -> None:
    """Win rates with 95% Wilson intervals, rounds, hit points lost, deaths, hit rates and lucky damage,
    per scenario and rule set, as a page with plots."""
    from arena.study.report import build_report

    try:
        page = build_report(results, out, fmt)
    except ArenaError as err:
        raise fail(err) from None
    typer.echo(f"wrote {printable(page, limit=4000)}")


# --------------------------------------------------------------------------------------------- compare
def _num(x: float, metric: str) -> str:
    if x != x:  # NaN
        return "-"
    return f"{x:+.3f}" if metric == "rounds" else f"{100 * x:+.1f}"


def compare_cmd(
    base: Annotated[Path, typer.Argument(help="The results folder to compare against.")],
    new: Annotated[Path, typer.Argument(help="The new results folder.")],
    alpha: Annotated[float, typer.Option(help="Significance level (after Holm correction).")] = 0.05,
    tolerance: Annotated[float, typer.Option(help="Largest acceptable change of win rate or hit points lost "
                                                  "(a fraction: 0.02 = 2 points).")] = 0.02,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Change of win rate, rounds and hit points lost for every scenario and rule set in both runs.

    Exit 1 if any win rate or hit points lost moved by more than the tolerance, significantly."""
    from arena.study.analysis import check_alpha, check_tolerance, compare_runs

    try:
        alpha, tolerance = check_alpha(alpha), check_tolerance(tolerance)
        table = compare_runs(base, new, alpha=alpha, tolerance=tolerance)
    except ArenaError as err:
        raise fail(err) from None
    moved = bool(table["moved"].any())
    if as_json:
        rows = json.loads(table.to_json(orient="records"))
        typer.echo(json.dumps({"base": str(base), "new": str(new), "alpha": alpha, "tolerance": tolerance,
                               "moved": moved, "cells": rows}, indent=2))
    else:
        from rich.table import Table

        t = Table(title=_cell(f"{new} vs {base} (win rate and hp lost in points; Holm-corrected p)"))
        for col in ("scenario", "rules", "metric", "base", "new", "change", "95% CI", "p (Holm)", "test", ""):
            t.add_column(col, justify="left" if col in ("scenario", "rules", "metric", "test") else "right")
        for r in table.itertuples(index=False):
            scale = (lambda v: f"{v:.2f}") if r.metric == "rounds" else (lambda v: f"{100 * v:.1f}%")
            t.add_row(_cell(r.scenario), _cell(r.rules), r.metric, scale(r.base), scale(r.new), _num(r.diff, r.metric),
                      f"{_num(r.low, r.metric)} .. {_num(r.high, r.metric)}", f"{r.p_holm:.3g}",
                      r.test, "[red]MOVED[/red]" if r.moved else ("significant" if r.significant else ""))
        _console().print(t)
        typer.echo("moved beyond tolerance" if moved else "no cell moved beyond tolerance")
    if moved:
        raise typer.Exit(1)


# --------------------------------------------------------------------------------------------- check
def check_cmd(
    suite: Annotated[Path, typer.Argument(help="A regression suite YAML file.")],
    workers: Annotated[int | None, typer.Option(help="Local worker processes, 1 to 64 (default: every core, at most "
                                                     "64; results are the same for any number).")] = None,
    trust_policies: Annotated[bool, typer.Option("--trust-policies", help="Run the Python policy files the "
                                                                          "scenarios list.")] = False,
) -> None:
    """Run a regression suite: exit 1 if any check fails."""
    from arena.study.calibrate import check_workers
    from arena.study.regression import run_suite

    try:
        chosen = min(default_workers(), MAX_WORKERS) if workers is None else check_workers(workers)
        verdicts = run_suite(suite, workers=chosen, trust_policies=trust_policies, on_policy=announce_policies)
    except ArenaError as err:
        raise fail(err) from None
    from rich.table import Table

    t = Table(title=_cell(suite))
    for col in ("check", "scenario", "rules", "n", "measured", "expected", "result"):
        t.add_column(col)
    for v in verdicts:
        t.add_row(_cell(v.name), _cell(v.scenario), _cell(v.rules), str(v.n), _cell(v.measured), _cell(v.expected),
                  "[green]pass[/green]" if v.passed else "[red]FAIL[/red]")
    _console().print(t)
    failed = sum(not v.passed for v in verdicts)
    typer.echo(f"{len(verdicts) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)




def register(app: typer.Typer) -> None:
    """Add `arena report`, `arena compare` and `arena check` to the app."""
    app.command("report")(report_cmd)
    app.command("compare")(compare_cmd)
    app.command("check")(check_cmd)
