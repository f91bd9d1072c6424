"""`arena run`: experiments over the variant grid into a results folder."""

from __future__ import annotations

import contextlib
import math
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from arena.cli.common import BestiaryFlag, ModelFlag, announce_policies, default_workers, fail, with_model
from arena.errors import ArenaError
from arena.labels import printable, slug
from arena.limits import MAX_ENCOUNTERS, MAX_SEED, MAX_WORKERS

if TYPE_CHECKING:  # the study is loaded when a command runs
    from arena.study.scenarios.scenario import Scenario


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


def check_bestiary(paths: list[Path] | None) -> None:
    """Refuse a ``--bestiary`` path that does not exist (before any scenario names are looked up)."""
    for p in paths or ():
        if not p.exists():
            raise ArenaError(f"--bestiary {printable(str(p))}: no such file or folder")


def inert_warnings(scenarios: list, keys: list[str] | None) -> list[str]:
    """One line per scenario naming the rule sets of its grid that cannot change anything for it (nobody presses
    luck under +luck, nobody calls a shot under +called), so a grid of duplicates is never silent."""
    from arena.rules import RuleSet

    lines = []
    for s in scenarios:
        rule_sets = s.rule_sets() if keys is None else [RuleSet.from_key(k, s.rule_options) for k in keys]
        inert = s.inert_rule_sets(rule_sets)
        if not inert:
            continue
        reasons = sorted({why for whys in inert.values() for why in whys})
        shown = ", ".join(list(inert)[:6]) + (f" and {len(inert) - 6} more" if len(inert) > 6 else "")
        lines.append(
            f"scenario {s.name!r}: {len(inert)} rule set(s) fight exactly as a simpler one ({shown}): "
            f"{'; '.join(reasons)} (set the scenario's tactics to use them)"
        )
    return lines


# --------------------------------------------------------------------------------------------- run
class Stopped(KeyboardInterrupt):
    """SIGTERM (or SIGHUP) during a run: stop as Ctrl-C does, finished chunks kept."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Stopped` for the block, so a terminated run stops at once, says so,
    and leaves its finished chunks (the default action would kill the parent and leave its workers behind)."""

    def handler(signum: int, _frame: Any) -> None:
        raise Stopped(signum)

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def default_folder(scenario_name: str) -> Path:
    """``results/<slug of the name>``: a scenario's name is a label, never a path."""
    return Path("results") / slug(scenario_name, fallback="scenario")


def run_cmd(
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario YAML files.", show_default=False)],
    n: Annotated[
        int | None,
        typer.Option("--n", help="Encounters per rule set (default: each scenario's n).", min=1, max=MAX_ENCOUNTERS),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Run seed (default: each scenario's seed).", min=0, max=MAX_SEED)
    ] = None,
    grid: Annotated[
        str | None,
        typer.Option(help="Rule-set keys, comma-separated (default: each scenario's grid), e.g. d20,3d6,3d6+prad."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Local worker processes (default: every core; results are the same for any number).",
            min=1,
            max=MAX_WORKERS,
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            help="A Dask scheduler address, tcp://HOST:PORT (needs the dask "
            "extra; checked before anything is written: it must answer "
            "within 5 s)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Results folder (default: results/<first scenario name>, as a safe folder name): it gets "
            "encounters.parquet (one row per encounter), combatants.parquet (one row per encounter and combatant; "
            "see --combatants), summary.csv and manifest.json."
        ),
    ] = None,
    chunk: Annotated[int, typer.Option(help="Encounters per task.", min=1, max=MAX_ENCOUNTERS)] = 500,
    resume: Annotated[bool, typer.Option("--resume", help="Complete an interrupted run in --out.")] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace an existing results folder (only the files a run wrote are removed)."),
    ] = False,
    trust_policies: Annotated[
        bool, typer.Option("--trust-policies", help="Run the Python policy files the scenarios list.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar and no summary.")] = False,
    combatants: Annotated[
        bool,
        typer.Option(
            "--combatants/--no-combatants",
            help="Write OUT/combatants.parquet beside OUT/encounters.parquet: one row per encounter and combatant "
            "(side, name, kind, went_down, downs, died, hp_left, hp_end, hp_max, damage_dealt), and print each PC's "
            "share of fights it went down and died in, its mean hp left, and each monster kind's mean damage dealt. "
            "--no-combatants: the encounters only (a resume needs the same choice).",
        ),
    ] = True,
    model: ModelFlag = None,
    bestiary: BestiaryFlag = None,
) -> None:
    """Fight every scenario under every rule set of its grid, N encounters each, into results/NAME/."""
    from arena.study.runs.experiment import run_experiment
    from arena.study.runs.progress import rich_progress

    folder: Path | str = out or "results/NAME"
    try:
        if resume and force:
            raise ArenaError("--resume and --force contradict each other: choose one")
        loaded = _loaded(scenarios, trust_policies, model, bestiary, grid)
        folder = out or default_folder(loaded[0].name)
        with stop_on_signals(), rich_progress(not quiet and _tty()) as progress:
            outcome = run_experiment(
                loaded,
                folder,
                n=n,
                seed=seed,
                rules=_grid(grid),
                workers=workers or default_workers(),
                cluster=cluster,
                chunk_size=chunk,
                resume=resume,
                force=force,
                progress=progress,
                on_event=lambda msg: typer.echo(f"warning: {printable(msg, 500)}", err=True),
                combatants=combatants,
            )
        lines = _combatant_lines(outcome.out) if combatants and not quiet else []
    except KeyboardInterrupt as stop:  # Ctrl-C, or Stopped: SIGTERM or SIGHUP
        raise _stopped_run(stop.signum if isinstance(stop, Stopped) else None, folder) from None
    except ArenaError as err:
        raise fail(err) from None
    rate = f"{outcome.rate:,.0f} encounters/s" if outcome.fought and not math.isnan(outcome.rate) else "nothing to do"
    if not quiet:
        typer.echo(
            f"{outcome.encounters:,} encounters in {printable(outcome.out)} ({outcome.fought:,} fought now, {rate})"
        )
        for line in lines:
            typer.echo(line)


def _combatant_lines(out: Path) -> list[str]:
    """The per-combatant summary of a finished run (``OUT/combatants.parquet``)."""
    from arena.study.reports.combatants import terminal_lines
    from arena.study.runs.combatant_tables import read_combatants

    frame = read_combatants(out)
    return [] if frame is None else terminal_lines(frame)


def _loaded(
    scenarios: list[Path], trust_policies: bool, model: list[str] | None, bestiary: list[Path] | None, grid: str | None
) -> list[Scenario]:
    """Every scenario of the files, under ``--model``, with a warning for each inert choice under ``--grid``."""
    from arena.study.scenarios.loading import load_scenarios

    check_bestiary(bestiary)
    loaded = [
        s
        for path in scenarios
        for s in load_scenarios(
            path, trust_policies=trust_policies, on_policy=announce_policies, bestiary=bestiary or ()
        )
    ]
    if not loaded:
        raise ArenaError("no scenario to run")
    loaded = with_model(loaded, model)
    for line in inert_warnings(loaded, _grid(grid)):
        typer.echo(f"warning: {printable(line, 2000)}", err=True)
    return loaded


def _stopped_run(signum: int | None, folder: Path | str) -> typer.Exit:
    """One line on stderr for a run stopped by a signal (SIGTERM, SIGHUP) or Ctrl-C: its finished chunks are kept."""
    if signum:
        typer.echo(
            f"stopped by signal {signum}: finished chunks are kept; complete the run with the same "
            f"command and --resume (results in {printable(folder)})",
            err=True,
        )
        return typer.Exit(128 + signum)
    typer.echo(
        f"interrupted: finished chunks are kept; complete the run with the same command and "
        f"--resume (results in {printable(folder)})",
        err=True,
    )
    return typer.Exit(130)


def register(app: typer.Typer) -> None:
    """Add `arena run` to the app."""
    app.command("run")(run_cmd)
