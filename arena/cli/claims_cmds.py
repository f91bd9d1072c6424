"""`arena claims` (every claim of the documents, evaluated) and `arena calibrate` (equivalent CR)."""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import BestiaryFlag, bestiary_book, console, default_workers, fail
from arena.cli.run_cmds import Stopped, stop_on_signals
from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


def _workers(workers: int | None) -> int:
    """--workers, checked (1 to MAX_WORKERS); by default every core, at most MAX_WORKERS."""
    from arena.study.runs.options import check_workers

    return min(default_workers(), MAX_WORKERS) if workers is None else check_workers(workers)


def _progress(enabled: bool, what: str) -> Any:
    from arena.study.runs.progress import rich_progress

    return rich_progress(enabled and sys.stderr.isatty() and sys.stdout.isatty(), what)


def _command() -> str:
    return "arena " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _resume_command() -> str:
    """This command with ``--resume`` (and without ``--force``): what completes an interrupted study."""
    args = [a for a in sys.argv[1:] if a != "--force"]
    return "arena " + " ".join(shlex.quote(a) for a in [*args, *(["--resume"] if "--resume" not in args else [])])


RESUME_HELP = (
    "Complete the interrupted study in --out (the same command and settings): the finished fights kept "
    "there are not fought again."
)
FORCE_HELP = "Start again in --out: only the files this command wrote there are removed."
CLUSTER_HELP = (
    "A Dask scheduler address, tcp://HOST:PORT (checked before anything is written: it must answer within 5 s)."
)


class _Session:
    """What an interrupt message needs: the study folder, once open."""

    def __init__(self, out: Path | None):
        self.out = out
        self.study: Any = None


@contextlib.contextmanager
def _study(session: _Session, kind: str, settings: dict, resume: bool, force: bool) -> Iterator[Any]:
    """The study folder of ``--out`` (locked, prepared; None without --out), its chunks kept for ``--resume``."""
    if session.out is None:
        if resume or force:
            raise ArenaError(
                f"{'--resume' if resume else '--force'} needs --out: a study keeps its finished work "
                "on disk only in an --out folder"
            )
        yield None
        return
    from arena.study.runs.study_folder import open_study

    with open_study(
        session.out,
        kind,
        settings,
        command=_command(),
        resume=resume,
        force=force,
        say=lambda msg: typer.echo(f"warning: {printable(msg, 500)}", err=True),
    ) as study:
        session.study = study
        yield study


def _stopped(session: _Session, signum: int | None) -> typer.Exit:
    """One line on stderr for an interrupted study (Ctrl-C, SIGTERM, SIGHUP): what was kept, how to resume."""
    head = f"stopped by signal {signum}" if signum else "interrupted"
    study = session.study
    if session.out is None:
        line = (
            f"{head}: nothing was kept (a study keeps its finished work only with --out DIR; run it with "
            "--out DIR to be able to --resume)"
        )
    elif study is None:
        line = f"{head} before the study began: nothing to keep in {printable(session.out)}"
    else:
        kept = study.kept()
        line = (
            f"{head}: {kept:,} finished chunk{'s' * (kept != 1)} kept in {printable(session.out)}; complete "
            f"the study with: {printable(_resume_command(), 2000)}"
        )
    typer.echo(line, err=True)
    return typer.Exit(128 + signum if signum else 130)


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
    workers: Annotated[
        int | None,
        typer.Option(
            help="Local worker processes, 1 to 64 (default: every core, at most "
            "64; results are the same for any number)."
        ),
    ] = None,
    cluster: Annotated[str | None, typer.Option(help=CLUSTER_HELP)] = None,
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
    resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
    bestiary: BestiaryFlag = None,
) -> None:
    """Evaluate every claim of the documents: single rolls exactly, encounters by paired simulation. --bestiary
    files are read and checked, but the claims fight only typical and srd/ creatures, which yours cannot replace.
    With --out the study keeps its finished fights in that folder (locked while it runs): after Ctrl-C or SIGTERM
    the same command with --resume completes it, with the same numbers."""
    from arena.study.claims import evaluation as claims
    from arena.study.claims.report import write_report
    from arena.study.claims.statements import claim_ids
    from arena.study.runs.cluster import cluster_session
    from arena.study.runs.options import check_n, check_seed

    session = _Session(out)
    try:
        with stop_on_signals():
            if resume and force:
                raise ArenaError("--resume and --force contradict each other: choose one")
            book = bestiary_book(bestiary)
            chosen_workers = _workers(workers)
            run_seed = claims.RUN_SEED if seed is None else check_seed(seed)
            if n is not None:
                check_n(n, 3)
            ids = None
            if only is not None:
                ids = [x.strip() for x in only.split(",") if x.strip()]
                if not ids:
                    raise ArenaError("--only: give claim ids separated by commas (see `arena claims --json`)")
                unknown = [x for x in ids if x not in claim_ids()]
                if unknown:
                    raise ArenaError(f"unknown claim {unknown[0]!r} (known: {', '.join(claim_ids())})")
            if book is not None:
                _say_claims_bestiary(book)
            settings = {"quick": quick, "n": n, "seed": run_seed, "only": ids}
            with cluster_session(cluster) as client, _study(session, "claims", settings, resume, force) as study:
                if study is not None and study.complete:
                    _show_complete_claims(study.folder, as_json)
                    return
                with _progress(not as_json, "encounters") as progress:
                    ev = claims.evaluate(
                        quick=quick,
                        n=n,
                        seed=run_seed,
                        workers=chosen_workers,
                        cluster=client,
                        only=ids,
                        progress=progress,
                        store=study,
                    )
                page = None
                if study is not None:
                    page = write_report(
                        ev, study.folder, study.command, chosen_workers, cluster, study=study.final_manifest()
                    )
                    study.finish()
    except Stopped as stop:
        raise _stopped(session, stop.signum) from None
    except KeyboardInterrupt:
        raise _stopped(session, None) from None
    except ArenaError as err:
        raise fail(err) from None
    if as_json:
        print(json.dumps(claims.to_json(ev.results), indent=2, default=str))
        return
    _print_verdicts(claims.summary_rows(ev.results))
    size = "quick size: wide intervals" if quick else f"{n} per arm" if n else "full size"
    encounters = sum(v[0] for v in ev.timings.values())
    typer.echo(f"{len(ev.results)} claims ({size}); {encounters:,} encounters, {ev.seconds:.0f} s")
    if page:
        typer.echo(f"wrote {printable(page, limit=4000)}")
    else:
        typer.echo("criteria, tables and robustness: add --out DIR (or see results/claims/claims.md)")


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
    from rich.table import Table
    from rich.text import Text

    colour = {
        "holds": "green",
        "supported": "green",
        "imprecise": "yellow",
        "partly supported": "yellow",
        "inconclusive": "yellow",
    }
    t = Table(title="the documents' claims")
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


def calibrate_cmd(
    monster: Annotated[str | None, typer.Argument(help="An SRD monster or typical-crN.", show_default=False)] = None,
    party_level: Annotated[int, typer.Option("--party-level", help="The generated party's level.")] = 5,
    sizes: Annotated[str, typer.Option(help="Group sizes, comma-separated.")] = "1,2,4,6",
    rules: Annotated[str, typer.Option(help="Rule sets to calibrate against d20, comma-separated.")] = "3d6",
    metric: Annotated[str | None, typer.Option(help="Difficulty: win, hp-lost or death (default: hp-lost).")] = None,
    n: Annotated[
        int | None, typer.Option("--n", help="Encounters per rung and arm (default 1000; --grid 150).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    grid: Annotated[
        bool,
        typer.Option(
            "--grid",
            help="Party levels 1,3,5,8,12,16 x sizes 1,2,3,4,6,8 x CRs with EL in [L-2, L+3]; draws a heat map.",
        ),
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Local worker processes, 1 to 64 (default: every core, at most "
            "64; results are the same for any number)."
        ),
    ] = None,
    cluster: Annotated[str | None, typer.Option(help=CLUSTER_HELP)] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the table (CSV) and, with --grid, the heat map "
            "(default for --grid: results/calibrate-grid); the finished "
            "fights are kept there as it goes, so an interrupted calibration "
            "can --resume (without --out nothing is kept)."
        ),
    ] = None,
    population: Annotated[
        str | None,
        typer.Option(
            "--population", help="srd: calibrate the fully modelled SRD creatures of --cr instead of one MONSTER."
        ),
    ] = None,
    cr: Annotated[str | None, typer.Option("--cr", help="The CR of the --population (1/2, 3, ...).")] = None,
    sample: Annotated[
        int,
        typer.Option(
            "--sample", help="At most this many creatures of the population (chosen evenly by name).", min=1, max=100
        ),
    ] = 8,
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
    bestiary: BestiaryFlag = None,
) -> None:
    """Equivalent CR: the typical-monster CR at which d20 is as hard as MONSTER (or each SRD creature of a CR, with
    --population srd --cr C) under another rule set. MONSTER may be one of your own with --bestiary PATH. With
    --out the finished fights are kept there (the folder locked while it runs): after Ctrl-C or SIGTERM the same
    command with --resume completes it, with the same table."""
    from arena.study.calibration import calibrate as cal
    from arena.study.runs import options
    from arena.study.runs.cluster import cluster_session

    folder = out or (Path("results/calibrate-grid") if grid else None)
    session = _Session(folder)
    try:
        with stop_on_signals():
            if resume and force:
                raise ArenaError("--resume and --force contradict each other: choose one")
            if bestiary and (population is not None or grid):
                raise ArenaError(
                    "--bestiary adds your creatures for MONSTER; --population srd and --grid calibrate "
                    "built-in creatures only"
                )
            chosen = cal.DEFAULT_METRIC if metric is None else options.check_metric(metric)
            keys = options.rule_keys([k.strip() for k in rules.split(",") if k.strip()])
            size_n = options.check_n(150 if grid and n is None else 1000 if n is None else n, 2)
            chosen_seed = options.check_seed(seed)
            chosen_workers = _workers(workers)
            summary = None
            level = size_list = None
            if population is not None:
                if population != "srd":
                    raise ArenaError(f"--population must be srd, not {population!r}")
                if monster is not None or grid:
                    raise ArenaError("--population srd calibrates the creatures of --cr: give no MONSTER and no --grid")
                if cr is None:
                    raise ArenaError("--population srd needs --cr (the CR of the creatures, such as 3 or 1/2)")
                level = options.check_level(party_level)
                size_list = options.parse_sizes(sizes)
                cal.population_names(cr, sample)  # no such creatures: one error line before any fight
            elif grid:
                if monster is not None:
                    raise ArenaError("--grid uses typical monsters: give no MONSTER with it")
                if len(keys) != 1:
                    raise ArenaError("--grid takes one rule set (--rules 3d6)")
            else:
                if monster is None:
                    raise ArenaError("name a MONSTER (an SRD monster or typical-crN), or use --grid")
                level = options.check_level(party_level)
                size_list = options.parse_sizes(sizes)
                book = _calibrated(monster, bestiary)
            settings = {
                "mode": "population" if population is not None else "grid" if grid else "monster",
                "monster": monster,
                "population": population,
                "cr": cr,
                "sample": sample if population is not None else None,
                "party_level": level,
                "sizes": size_list,
                "rules": keys,
                "metric": chosen,
                "n": size_n,
                "seed": chosen_seed,
            }
            with cluster_session(cluster) as client, _study(session, "calibration", settings, resume, force) as study:
                if study is not None and study.complete:
                    _show_complete_calibration(study.folder, as_json, chosen)
                    return
                with _progress(not as_json, "encounters") as progress:
                    if population is not None:
                        table, summary = cal.calibrate_population(
                            cr,
                            level,
                            size_list,
                            keys,
                            sample=sample,
                            metric=chosen,
                            n=size_n,
                            seed=chosen_seed,
                            workers=chosen_workers,
                            cluster=client,
                            progress=progress,
                            store=study,
                        )
                    elif grid:
                        table = cal.calibrate_grid(
                            n=size_n,
                            seed=chosen_seed,
                            metric=chosen,
                            rules=keys[0],
                            workers=chosen_workers,
                            cluster=client,
                            progress=progress,
                            store=study,
                        )
                    else:
                        table = cal.calibrate(
                            monster,
                            level,
                            size_list,
                            keys,
                            metric=chosen,
                            n=size_n,
                            seed=chosen_seed,
                            workers=chosen_workers,
                            cluster=client,
                            progress=progress,
                            bestiary=book,
                            store=study,
                        )
                if study is not None:
                    _write_calibration(
                        table,
                        study,
                        grid,
                        f"Delta-CR ({keys[0]} - d20), metric {chosen}, n={size_n} per rung",
                        _manifest(study, chosen_workers, cluster),
                    )
                    study.finish()
    except Stopped as stop:
        raise _stopped(session, stop.signum) from None
    except KeyboardInterrupt:
        raise _stopped(session, None) from None
    except ArenaError as err:
        raise fail(err) from None
    if as_json:
        if summary is not None:
            print(
                json.dumps(
                    {
                        "creatures": json.loads(table.to_json(orient="records")),
                        "population": json.loads(summary.to_json(orient="records")),
                    },
                    indent=2,
                )
            )
        else:
            print(table.to_json(orient="records", indent=2))
        return
    _print_table(table, chosen)
    if summary is not None and not summary.empty:
        typer.echo(f"SRD population of CR {printable(cr)} ({summary['creatures'].max()} creatures):")
        typer.echo(summary.to_string(index=False, float_format=lambda x: f"{x:+.2f}"))
    if folder:
        typer.echo(
            f"wrote {printable(folder / 'calibration.csv', limit=4000)}"
            + (f" and {printable(folder / 'delta-cr.png', limit=4000)}" if grid else "")
        )
    if grid:
        typer.echo(f"(--grid at n={size_n} per rung: intervals are wide; raise --n for tighter ones)")


def _manifest(study: Any, workers: int, cluster: str | None) -> dict:
    """A calibration folder's manifest.json: what was calibrated, by which code, how."""
    from arena.study.runs.identity import git_commit, package_versions

    return {
        **study.final_manifest(),
        "command": study.command,
        "workers": workers,
        "cluster": cluster,
        "versions": package_versions(),
        "git_commit": git_commit(),
    }


def _show_complete_calibration(folder: Path, as_json: bool, metric: str) -> None:
    """``--resume`` of a complete calibration: nothing to fight; its table as it was written."""
    import pandas as pd

    try:
        table = pd.read_csv(folder / "calibration.csv", keep_default_na=False)
    except (OSError, ValueError) as err:
        raise ArenaError(
            f"{folder} holds a complete calibration but its calibration.csv is unreadable "
            f"({str(err)[:120]}); run it again with --force"
        ) from None
    if as_json:
        print(table.to_json(orient="records", indent=2))
        return
    with contextlib.suppress(AttributeError, ValueError, TypeError):
        _print_table(table, metric)
    typer.echo(
        f"{printable(folder)} holds a complete calibration already: nothing to resume (run it again with --force)"
    )


def _calibrated(monster: str, bestiary: list[Path] | None) -> dict | None:
    """The bestiary to calibrate MONSTER from (None: the built-in one), checked before any fight: a missing
    file, a bad stat block, an unknown name, no CR or an unknown policy is an ArenaError."""
    from arena.study.calibration.calibrate import calibration_monster

    book = bestiary_book(bestiary)
    calibration_monster(monster, book)
    return book


def _write_calibration(table: Any, study: Any, grid: bool, title: str, manifest: dict) -> None:
    """calibration.csv (and with --grid the heat map) and manifest.json in the study's folder, written aside and put
    in place together (the manifest last: it says complete)."""
    from arena.study.calibration import calibrate as cal
    from arena.study.reports.staging import Staged

    with Staged(study.folder, "calibration") as stage:
        if grid:
            cal.heat_map(table, lambda fig: stage.figure("delta-cr.png", fig), title)
        stage.text("calibration.csv", table.to_csv(index=False))
        stage.text("manifest.json", json.dumps(manifest, indent=2, default=str) + "\n")
        stage.commit()


def _print_table(table: Any, metric: str) -> None:
    from rich.table import Table
    from rich.text import Text

    from arena.study.calibration.equivalent_cr import position_text

    t = Table(title=f"equivalent CR (metric: {metric}; c* on the ladder 1/2, 1, 2, ...; 95% bootstrap)")
    for col in (
        "L",
        "monster",
        "size",
        "rules",
        "n",
        "difficulty",
        "d20",
        "c*",
        "c* d20",
        "Delta-CR",
        "95% CI",
        "rule",
        "note",
    ):
        t.add_column(col, justify="left" if col in ("monster", "rules", "note") else "right")
    for r in table.itertuples(index=False):
        t.add_row(
            str(r.party_level),
            Text(printable(r.monster)),
            str(r.size),
            Text(printable(r.rules)),
            str(r.n),
            f"{r.difficulty:.3f}",
            f"{r.difficulty_d20:.3f}",
            position_text(r.c_star),
            position_text(r.c_star_d20),
            f"{r.delta:+.2f}",
            f"{r.delta_low:+.2f} .. {r.delta_high:+.2f}",
            f"{r.predicted_delta:+.0f}",
            f"off the ladder ({r.censored})" if r.censored else "",
        )
    console().print(t)


def register(app: typer.Typer) -> None:
    """Add `arena claims` and `arena calibrate` to the app."""
    app.command("claims")(claims_cmd)
    app.command("calibrate")(calibrate_cmd)
