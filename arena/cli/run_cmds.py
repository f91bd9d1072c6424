"""`arena run`: experiments over the variant grid into a results folder."""

from __future__ import annotations

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


def register(app: typer.Typer) -> None:
    """Add `arena run` to the app."""
    app.command("run")(run_cmd)
