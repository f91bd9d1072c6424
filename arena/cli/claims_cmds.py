"""`arena claims`: every claim of the documents evaluated, single rolls exactly and encounters by paired
simulation, with its study kept in --out to resume."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from arena.cli.common import BestiaryFlag, bestiary_book, console, fail, plural
from arena.cli.progress import StudyLines
from arena.cli.run_cmds import Stopped, stop_on_signals
from arena.cli.study_session import (
    ClusterOption,
    ForceFlag,
    ResumeFlag,
    Session,
    WorkersOption,
    progress_bar,
    stopped,
    study_folder,
    workers_asked,
)
from arena.errors import ArenaError
from arena.labels import printable

if TYPE_CHECKING:  # the study is loaded when the command runs
    from arena.study.claims.evaluation import Evaluation


def claims_cmd(
    quick: Annotated[
        bool, typer.Option("--quick", help="A small size that finishes in minutes (wide intervals).")
    ] = False,
    n: Annotated[
        int | None,
        typer.Option(
            "--n",
            help="Encounters per arm of every encounter claim (default: each claim's full size, or the quick size).",
        ),
    ] = None,
    workers: WorkersOption = None,
    cluster: ClusterOption = None,
    seed: Annotated[int | None, typer.Option(help="Run seed.")] = None,
    only: Annotated[str | None, typer.Option(help="Claim ids, comma-separated.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list of claims as JSON.")] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write claims.md, plots, manifest.json, summary.csv here; the "
            "finished fights are kept here as the study goes, so an "
            "interrupted study can --resume."
        ),
    ] = None,
    resume: ResumeFlag = False,
    force: ForceFlag = False,
    bestiary: BestiaryFlag = None,
) -> None:
    """Evaluate every claim of the documents: single rolls exactly, encounters by paired simulation. --bestiary
    files are read and checked, but the claims fight only typical and srd/ creatures, which yours cannot replace.
    With --out the study keeps its finished fights in that folder (locked while it runs): after Ctrl-C or SIGTERM
    the same command with --resume completes it, with the same numbers."""
    from arena.study.claims import evaluation as claims
    from arena.study.claims import report as claims_report
    from arena.study.runs.cluster import cluster_session
    from arena.study.runs.options import check_n, check_seed

    session = Session(out)
    try:
        with stop_on_signals():
            if resume and force:
                raise ArenaError("--resume and --force contradict each other: choose one")
            book = bestiary_book(bestiary)
            chosen_workers = workers_asked(workers)
            run_seed = claims.RUN_SEED if seed is None else check_seed(seed)
            if n is not None:
                check_n(n, 3)
            ids = _claim_ids(only)
            if book is not None:
                _say_claims_bestiary(book)
            settings = {"quick": quick, "n": n, "seed": run_seed, "only": ids}
            with cluster_session(cluster) as client, study_folder(session, "claims", settings, resume, force) as study:
                if study is not None and study.complete:
                    _show_complete_claims(study.folder, as_json)
                    return
                plan, fights = _plan(ids, chosen_workers, quick)
                lines = None
                if fights and _says_phases(as_json):
                    lines = StudyLines("arena claims" + (" --quick" if quick else ""))
                    lines.phase(plan)
                with progress_bar(not as_json, "encounters") as bar:
                    ev = claims.evaluate(
                        quick=quick,
                        n=n,
                        seed=run_seed,
                        workers=chosen_workers,
                        cluster=client,
                        only=ids,
                        progress=bar if lines is None else lines,
                        store=study,
                        announce=None if lines is None else lines.phase,
                    )
                if lines is not None:
                    fought = sum(v[0] for v in ev.timings.values())
                    lines.phase(f"fought {fought:,} encounters; {len(ev.results)} claims judged")
                page = None
                if study is not None:
                    if lines is not None:
                        lines.phase(f"writing the report to {printable(study.folder, limit=4000)}")
                    page = claims_report.write_report(
                        ev, study.folder, study.command, chosen_workers, cluster, study=study.final_manifest()
                    )
                    study.finish()
    except Stopped as stop:
        raise stopped(session, stop.signum) from None
    except KeyboardInterrupt:
        raise stopped(session, None) from None
    except ArenaError as err:
        raise fail(err) from None
    _show_claims(ev, quick, n, page, as_json)


def _says_phases(as_json: bool) -> bool:
    """Whether :class:`StudyLines` says each phase of a study that fights on stderr: for the table off a terminal,
    where the study's progress bar is not drawn (:func:`progress_bar`); ``--json`` keeps stderr for errors, as a
    program reading it expects."""
    return not as_json and not (sys.stderr.isatty() and sys.stdout.isatty())


def _plan(ids: list[str] | None, workers: int, quick: bool = True) -> tuple[str, bool]:
    """The study's phases as one line, before the first: what is judged exactly and what is fought, on how many
    workers (the parts :func:`arena.study.claims.evaluation.evaluate` runs for these claims); and whether anything
    is fought (single-roll claims alone take no time: no phase lines). The full study (not ``quick``) also re-rates
    the bestiary."""
    from arena.study.claims import design
    from arena.study.claims.statements import ENCOUNTER_CLAIMS, GROUP_CR, claim_ids

    every = claim_ids()
    encounter = [c.id for c in ENCOUNTER_CLAIMS if not ids or c.id in ids]
    single = [i for i in every if (not ids or i in ids) and i not in encounter and i != GROUP_CR]
    fought = []
    if encounter:
        fought.append(f"{len(encounter)} encounter claim{'s' * (len(encounter) != 1)}")
    if not ids or GROUP_CR in ids:
        anchor = "the DMG anchor" if quick else "the DMG anchor and the re-rated bestiary"
        fought.append(f"the calibration grid (and {len(design.VARIATIONS)} re-runs of it) and {anchor}")
    said = f"{len(single)} single-roll claim{'s' * (len(single) != 1)} by exact odds"
    if fought:
        from arena.engine_build import describe

        # the engine named: `python -m arena` in a clone imports the clone's uncompiled source (`python -P` does not)
        said += f"; fighting {', '.join(fought)} on {workers} worker{'s' * (workers != 1)} (engine: {describe()})"
    return said, bool(fought)


def _claim_ids(only: str | None) -> list[str] | None:
    """``--only``: the claim ids asked for, each known (None: every claim)."""
    from arena.study.claims.statements import claim_ids

    if only is None:
        return None
    ids = [x.strip() for x in only.split(",") if x.strip()]
    if not ids:
        raise ArenaError("--only: give claim ids separated by commas (see `arena claims --json`)")
    unknown = [x for x in ids if x not in claim_ids()]
    if unknown:
        raise ArenaError(f"unknown claim {unknown[0]!r} (known: {', '.join(claim_ids())})")
    return ids


def _show_claims(ev: Evaluation, quick: bool, n: int | None, page: Any, as_json: bool) -> None:
    """The evaluated claims: as JSON, or the verdict table and what was fought (and where the report is)."""
    from arena.study.claims import evaluation as claims

    if as_json:
        print(json.dumps(claims.to_json(ev.results), indent=2, default=str))
        return
    rows = claims.summary_rows(ev.results)
    rows["headline"] = [headline(r) for r in ev.results]
    _print_verdicts(rows)
    size = "quick size: wide intervals" if quick else f"{n} per arm" if n else "full size"
    encounters = sum(v[0] for v in ev.timings.values())
    typer.echo(f"{plural(len(ev.results), 'claim')} ({size}); {encounters:,} encounters, {ev.seconds:.0f} s")
    if quick and (ev.batch is not None or ev.grid is not None):  # fights were judged (exact odds are no preview)
        typer.echo(claims.QUICK_PREVIEW)
    if page:
        typer.echo(f"wrote {printable(page, limit=4000)}")
    else:
        typer.echo("criteria, tables and robustness: add --out DIR (or see results/claims/claims.md)")
    typer.echo(NEXT_STEPS)


NEXT_STEPS = """next, for your own table:
  is your monster its CR?   arena calibrate MONSTER --bestiary my.yaml --party-level 5 --rules d20,3d6
  your own encounter:       arena run my-scenario.yaml --grid d20,3d6 --out results/mine && arena report results/mine
  guard what you tuned:     arena check my-suite.yaml   (win rates, hit points lost, PC deaths, rounds)"""
"""What a designer does after the claims: the commands that answer for their own monsters and scenarios."""


def headline(r: dict) -> str:
    """A claim's headline figure for the table: its first stated part (a difference signed, a ratio not), else the
    claim's own headline, else its numbers (a single-roll claim's exact figures) in a few words."""
    parts = r.get("parts") or []
    if parts:
        p, e = parts[0], parts[0].effect
        if p.units == "ratio":
            return f"{p.name}: {e.estimate:.3g} [{e.low:.3g}, {e.high:.3g}]"
        return f"{p.name}: {e.estimate:+.3g} [{e.low:+.3g}, {e.high:+.3g}]"
    if r.get("headline"):
        return str(r["headline"])
    return numbers_text(r.get("numbers") or {})


HEADLINE_FIGURES = 3
"""A single-roll claim's headline shows at most this many of its figures (the report shows them all)."""


def numbers_text(numbers: dict) -> str:
    """A single-roll claim's plain figures (text and numbers, not its tables): ``exact 4.63%; document 4.6%``."""
    said = []
    for key, value in numbers.items():
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            continue
        name = re.sub(r"(?<=\d)_(?=\d)", "-", str(key).removesuffix("_pct")).replace("_", " ")
        figure = f"{value:.4g}" if isinstance(value, float) else str(value)
        said.append(f"{name} {figure}{'%' if str(key).endswith('_pct') else ''}")
    return "; ".join(said[:HEADLINE_FIGURES]) or "exact figures in the report (--out DIR)"


def _show_complete_claims(folder: Path, as_json: bool) -> None:
    """``--resume`` of a complete study: nothing to fight; what its files say."""
    import pandas as pd

    if as_json:
        try:
            doc = json.loads((folder / "claims.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            raise ArenaError(
                f"{folder} holds a complete study but its claims.json is unreadable (run it again with --force)"
            ) from None
        print(json.dumps(doc, indent=2, default=str))
        return
    with contextlib.suppress(OSError, ValueError, KeyError):
        summary = pd.read_csv(folder / "summary.csv", keep_default_na=False, dtype=str)
        _print_verdicts(summary[["id", "verdict", "robustness", "headline"]])
    typer.echo(f"{printable(folder)} holds a complete study already: nothing to resume (run it again with --force)")


def _say_claims_bestiary(book: dict) -> None:
    """On stderr, before any fight: what ``--bestiary`` does to the claims (nothing to their verdicts)."""
    from arena.world.bestiary import creature_names

    mine = sorted(set(book) - set(creature_names()))
    listed = ", ".join(printable(n, limit=60) for n in mine[:5]) + (
        f" and {len(mine) - 5} more" if len(mine) > 5 else ""
    )
    typer.echo(
        f"--bestiary: {len(mine)} creature{'s' * (len(mine) != 1)} read and checked"
        + (f" ({listed})" if mine else "")
        + "; the claims fight only typical-crN and srd/ creatures, which "
        "your files cannot replace, so the verdicts are the ones without them (calibrate one of yours with "
        "`arena calibrate NAME --bestiary PATH`)",
        err=True,
    )


def _print_verdicts(summary: Any) -> None:
    """The verdict table first: one row per claim."""
    from rich.text import Text

    from arena.cli.common import table

    colour = {
        "holds": "green",
        "supported": "green",
        "imprecise": "yellow",
        "partly supported": "yellow",
        "inconclusive": "yellow",
        "direction shown (size undecided)": "cyan",
        "descriptive": "default",
    }
    t = table("the documents' claims")
    for col in ("claim", "verdict", "robustness", "headline (95% interval over matchups)"):
        t.add_column(col, overflow="fold")
    for r in summary.itertuples(index=False):
        t.add_row(
            Text(printable(r.id)),
            Text(r.verdict, style=colour.get(r.verdict, "red")),
            Text(printable(str(r.robustness))),
            Text(printable(str(r.headline))),
        )
    console().print(t)


def register(app: typer.Typer) -> None:
    """Add `arena claims` to the app."""
    app.command("claims")(claims_cmd)
