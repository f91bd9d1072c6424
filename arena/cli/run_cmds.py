"""`arena run`, `arena report`, `arena compare` and `arena check`: experiments, their reports and regressions."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import default_workers
from arena.errors import ArenaError


def _fail(err: ArenaError) -> typer.Exit:
    typer.echo(f"error: {err}", err=True)
    return typer.Exit(2)


def _console() -> Any:
    from rich.console import Console

    return Console()


def _tty() -> bool:
    return sys.stdout.isatty()


def _grid(text: str | None) -> list[str] | None:
    if text is None:
        return None
    keys = [k.strip() for k in text.split(",") if k.strip()]
    if not keys:
        raise ArenaError("--grid: give rule-set keys separated by commas, e.g. d20,3d6+prad")
    return keys


# --------------------------------------------------------------------------------------------- run
def run_cmd(
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario YAML files.", show_default=False)],
    n: Annotated[int | None, typer.Option("--n", help="Encounters per rule set (default: each scenario's n).")]
    = None,
    seed: Annotated[int | None, typer.Option(help="Run seed (default: each scenario's seed).")] = None,
    grid: Annotated[str | None, typer.Option(help="Rule-set keys, comma-separated (default: each scenario's "
                                                  "grid), e.g. d20,3d6,3d6+prad.")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: every core; results are the "
                                                     "same for any number).", min=1)] = None,
    cluster: Annotated[str | None, typer.Option(help="A Dask scheduler address, tcp://HOST:PORT "
                                                     "(needs the dask extra).")] = None,
    out: Annotated[Path | None, typer.Option(help="Results folder (default: results/<first scenario name>).")]
    = None,
    chunk: Annotated[int, typer.Option(help="Encounters per task.", min=1)] = 500,
    resume: Annotated[bool, typer.Option("--resume", help="Complete an interrupted run in --out.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing results folder.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Fight every scenario under every rule set of its grid, N encounters each, into results/NAME/."""
    from arena.experiment import rich_progress, run_experiment
    from arena.scenario import load_scenarios

    try:
        if resume and force:
            raise ArenaError("--resume and --force contradict each other: choose one")
        folder: Path | str = out or "results/NAME"
        loaded = [s for path in scenarios for s in load_scenarios(path)]
        if not loaded:
            raise ArenaError("no scenario to run")
        folder = out or Path("results") / loaded[0].name
        with rich_progress(not quiet and _tty()) as progress:
            outcome = run_experiment(
                loaded, folder, n=n, seed=seed, rules=_grid(grid), workers=workers or default_workers(),
                cluster=cluster,
                chunk_size=chunk, resume=resume, force=force, progress=progress,
                on_event=lambda msg: typer.echo(f"warning: {msg}", err=True))
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished chunks are kept; complete the run with the same command and "
                   f"--resume (results in {folder})", err=True)
        raise typer.Exit(130) from None
    except ArenaError as err:
        raise _fail(err) from None
    rate = f"{outcome.rate:,.0f} encounters/s" if outcome.fought and not math.isnan(outcome.rate) else "nothing to do"
    if not quiet:
        typer.echo(f"{outcome.encounters:,} encounters in {outcome.out} ({outcome.fought:,} fought now, {rate})")


# --------------------------------------------------------------------------------------------- report
def report_cmd(
    results: Annotated[Path, typer.Argument(help="A results folder (or its encounters.parquet).")],
    fmt: Annotated[str, typer.Option("--format", help="md or html.")] = "md",
    out: Annotated[Path | None, typer.Option(help="Folder for the page and plots (default: RESULTS/report).")]
    = None,
) -> None:
    """Win rates with 95% Wilson intervals, rounds, hit points lost, deaths, hit rates and lucky damage,
    per scenario and rule set, as a page with plots."""
    from arena.report import build_report

    try:
        if fmt not in ("md", "html"):
            raise ArenaError(f"--format must be md or html, not {fmt!r}")
        page = build_report(results, out, fmt)
    except ArenaError as err:
        raise _fail(err) from None
    typer.echo(f"wrote {page}")


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
    from arena.analysis import compare_runs

    try:
        if not 0 < alpha < 1:
            raise ArenaError(f"--alpha must be between 0 and 1, not {alpha}")
        if tolerance < 0:
            raise ArenaError(f"--tolerance must be 0 or more, not {tolerance}")
        table = compare_runs(base, new, alpha=alpha, tolerance=tolerance)
    except ArenaError as err:
        raise _fail(err) from None
    moved = bool(table["moved"].any())
    if as_json:
        rows = json.loads(table.to_json(orient="records"))
        typer.echo(json.dumps({"base": str(base), "new": str(new), "alpha": alpha, "tolerance": tolerance,
                               "moved": moved, "cells": rows}, indent=2))
    else:
        from rich.table import Table

        t = Table(title=f"{new} vs {base} (win rate and hp lost in points; Holm-corrected p)")
        for col in ("scenario", "rules", "metric", "base", "new", "change", "95% CI", "p (Holm)", "test", ""):
            t.add_column(col, justify="left" if col in ("scenario", "rules", "metric", "test") else "right")
        for r in table.itertuples(index=False):
            scale = (lambda v: f"{v:.2f}") if r.metric == "rounds" else (lambda v: f"{100 * v:.1f}%")
            t.add_row(r.scenario, r.rules, r.metric, scale(r.base), scale(r.new), _num(r.diff, r.metric),
                      f"{_num(r.low, r.metric)} .. {_num(r.high, r.metric)}", f"{r.p_holm:.3g}",
                      r.test, "[red]MOVED[/red]" if r.moved else ("significant" if r.significant else ""))
        _console().print(t)
        typer.echo("moved beyond tolerance" if moved else "no cell moved beyond tolerance")
    if moved:
        raise typer.Exit(1)


# --------------------------------------------------------------------------------------------- check
def check_cmd(
    suite: Annotated[Path, typer.Argument(help="A regression suite YAML file.")],
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: every core; results are the "
                                                     "same for any number).", min=1)] = None,
) -> None:
    """Run a regression suite: exit 1 if any check fails."""
    from arena.regression import run_suite

    try:
        verdicts = run_suite(suite, workers=workers or default_workers())
    except ArenaError as err:
        raise _fail(err) from None
    from rich.table import Table

    t = Table(title=f"{suite}")
    for col in ("check", "scenario", "rules", "n", "measured", "expected", "result"):
        t.add_column(col)
    for v in verdicts:
        t.add_row(v.name, v.scenario, v.rules, str(v.n), v.measured, v.expected,
                  "[green]pass[/green]" if v.passed else "[red]FAIL[/red]")
    _console().print(t)
    failed = sum(not v.passed for v in verdicts)
    typer.echo(f"{len(verdicts) - failed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add `arena run`, `arena report`, `arena compare` and `arena check` to the app."""
    app.command("run")(run_cmd)
    app.command("report")(report_cmd)
    app.command("compare")(compare_cmd)
    app.command("check")(check_cmd)
