"""`arena claims` (every claim of the documents, evaluated) and `arena calibrate` (equivalent CR)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import BestiaryFlag, bestiary_book, console, default_workers, fail
from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


def _workers(workers: int | None) -> int:
    """--workers, checked (1 to MAX_WORKERS); by default every core, at most MAX_WORKERS."""
    from arena.study.calibrate import check_workers

    return min(default_workers(), MAX_WORKERS) if workers is None else check_workers(workers)


def _progress(enabled: bool, what: str) -> Any:
    from arena.study.experiment import rich_progress

    return rich_progress(enabled and sys.stderr.isatty() and sys.stdout.isatty(), what)


def _command() -> str:
    return "arena " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def claims_cmd(
    quick: Annotated[bool, typer.Option("--quick", help="A small size that finishes in minutes (wide "
                                                        "intervals).")] = False,
    n: Annotated[int | None, typer.Option("--n", help="Encounters per arm of every encounter claim "
                                                      "(default: each claim's full size, or the quick size).")]
    = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes, 1 to 64 (default: every core, at most "
                                                     "64; results are the same for any number).")] = None,
    cluster: Annotated[str | None, typer.Option(help="A Dask scheduler address, tcp://HOST:PORT.")] = None,
    seed: Annotated[int | None, typer.Option(help="Run seed.")] = None,
    only: Annotated[str | None, typer.Option(help="Claim ids, comma-separated.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list of claims as JSON.")] = False,
    out: Annotated[Path | None, typer.Option(help="Write claims.md, plots, manifest.json, summary.csv here.")]
    = None,
    bestiary: BestiaryFlag = None,
) -> None:
    """Evaluate every claim of the documents: single rolls exactly, encounters by paired simulation. --bestiary
    files are read and checked, but the claims fight only typical and srd/ creatures, which yours cannot replace."""
    from arena.study import claims, claims_report
    from arena.study.calibrate import check_n, check_seed

    try:
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
        folder = None
        if out is not None:
            from arena.study.report import output_folder

            folder = output_folder(out, "claims")
            if (folder / "encounters.parquet").exists() or (folder / "chunks").exists():
                raise ArenaError(f"{folder} is a results folder of `arena run`: its manifest.json and summary.csv "
                                 "are not the claims' to replace (choose another --out)")
        if book is not None:
            _say_claims_bestiary(book)
        with _progress(not as_json, "encounters") as progress:
            ev = claims.evaluate(quick=quick, n=n, seed=run_seed, workers=chosen_workers, cluster=cluster,
                                 only=ids, progress=progress)
        page = claims_report.write_report(ev, folder, _command(), chosen_workers, cluster) if folder else None
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


def _say_claims_bestiary(book: dict) -> None:
    """On stderr, before any fight: what ``--bestiary`` does to the claims (nothing to their verdicts)."""
    from arena.world.bestiary import creature_names

    mine = sorted(set(book) - set(creature_names()))
    listed = ", ".join(printable(n, limit=60) for n in mine[:5]) + (f" and {len(mine) - 5} more" if len(mine) > 5
                                                                      else "")
    typer.echo(f"--bestiary: {len(mine)} creature{'s' * (len(mine) != 1)} read and checked"
               + (f" ({listed})" if mine else "") + "; the claims fight only typical-crN and srd/ creatures, which "
               "your files cannot replace, so the verdicts are the ones without them (calibrate one of yours with "
               "`arena calibrate NAME --bestiary PATH`)", err=True)


def _print_verdicts(summary: Any) -> None:
    """The verdict table first: one row per claim."""
    from rich.table import Table
    from rich.text import Text

    colour = {"holds": "green", "supported": "green", "imprecise": "yellow", "partly supported": "yellow",
              "inconclusive": "yellow"}
    t = Table(title="the documents' claims")
    for col in ("claim", "verdict", "robustness", "headline (95% interval over matchups)"):
        t.add_column(col, overflow="fold")
    for r in summary.itertuples(index=False):
        t.add_row(Text(printable(r.id)), Text(r.verdict, style=colour.get(r.verdict, "red")),
                  Text(printable(str(r.robustness))), Text(printable(str(r.headline))))
    console().print(t)


def calibrate_cmd(
    monster: Annotated[str | None, typer.Argument(help="An SRD monster or typical-crN.", show_default=False)]
    = None,
    party_level: Annotated[int, typer.Option("--party-level", help="The generated party's level.")] = 5,
    sizes: Annotated[str, typer.Option(help="Group sizes, comma-separated.")] = "1,2,4,6",
    rules: Annotated[str, typer.Option(help="Rule sets to calibrate against d20, comma-separated.")] = "3d6",
    metric: Annotated[str | None, typer.Option(help="Difficulty: win, hp-lost or death (default: hp-lost).")] = None,
    n: Annotated[int | None, typer.Option("--n", help="Encounters per rung and arm (default 1000; --grid "
                                                      "150).")] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    grid: Annotated[bool, typer.Option("--grid", help="Party levels 1,3,5,8,12,16 x sizes 1,2,3,4,6,8 x CRs "
                                                      "with EL in [L-2, L+3]; draws a heat map.")] = False,
    workers: Annotated[int | None, typer.Option(help="Local worker processes, 1 to 64 (default: every core, at most "
                                                     "64; results are the same for any number).")] = None,
    cluster: Annotated[str | None, typer.Option(help="A Dask scheduler address, tcp://HOST:PORT.")] = None,
    out: Annotated[Path | None, typer.Option(help="Folder for the table (CSV) and, with --grid, the heat "
                                                  "map (default for --grid: results/calibrate-grid).")] = None,
    population: Annotated[str | None, typer.Option("--population", help="srd: calibrate the fully modelled SRD "
                                                                        "creatures of --cr instead of one MONSTER.")]
    = None,
    cr: Annotated[str | None, typer.Option("--cr", help="The CR of the --population (1/2, 3, ...).")] = None,
    sample: Annotated[int, typer.Option("--sample", help="At most this many creatures of the population (chosen "
                                                         "evenly by name).", min=1, max=100)] = 8,
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
    bestiary: BestiaryFlag = None,
) -> None:
    """Equivalent CR: the typical-monster CR at which d20 is as hard as MONSTER (or each SRD creature of a CR, with
    --population srd --cr C) under another rule set. MONSTER may be one of your own with --bestiary PATH."""
    from arena.study import calibrate as cal

    try:
        if bestiary and (population is not None or grid):
            raise ArenaError("--bestiary adds your creatures for MONSTER; --population srd and --grid calibrate "
                             "built-in creatures only")
        chosen = cal.DEFAULT_METRIC if metric is None else cal.check_metric(metric)
        keys = cal.rule_keys([k.strip() for k in rules.split(",") if k.strip()])
        size_n = cal.check_n(150 if grid and n is None else 1000 if n is None else n, 2)
        chosen_seed = cal.check_seed(seed)
        chosen_workers = _workers(workers)
        summary = None
        if population is not None:
            if population != "srd":
                raise ArenaError(f"--population must be srd, not {population!r}")
            if monster is not None or grid:
                raise ArenaError("--population srd calibrates the creatures of --cr: give no MONSTER and no --grid")
            if cr is None:
                raise ArenaError("--population srd needs --cr (the CR of the creatures, such as 3 or 1/2)")
            level = cal.check_level(party_level)
            size_list = cal.parse_sizes(sizes)
            cal.population_names(cr, sample)          # no such creatures: one error line before any fight
        elif grid:
            if monster is not None:
                raise ArenaError("--grid uses typical monsters: give no MONSTER with it")
            if len(keys) != 1:
                raise ArenaError("--grid takes one rule set (--rules 3d6)")
        else:
            if monster is None:
                raise ArenaError("name a MONSTER (an SRD monster or typical-crN), or use --grid")
            level = cal.check_level(party_level)
            size_list = cal.parse_sizes(sizes)
            book = _calibrated(monster, bestiary)
        folder = out or (Path("results/calibrate-grid") if grid else None)
        if folder is not None:
            from arena.study.report import output_folder

            folder = output_folder(folder, "calibration")
        with _progress(not as_json, "encounters") as progress:
            if population is not None:
                table, summary = cal.calibrate_population(cr, level, size_list, keys, sample=sample, metric=chosen,
                                                          n=size_n, seed=chosen_seed, workers=chosen_workers,
                                                          cluster=cluster, progress=progress)
            elif grid:
                table = cal.calibrate_grid(n=size_n, seed=chosen_seed, metric=chosen, rules=keys[0],
                                           workers=chosen_workers, cluster=cluster, progress=progress)
            else:
                table = cal.calibrate(monster, level, size_list, keys, metric=chosen, n=size_n, seed=chosen_seed,
                                      workers=chosen_workers, cluster=cluster, progress=progress, bestiary=book)
        if folder is not None:
            _write_calibration(table, folder, grid, f"Delta-CR ({keys[0]} - d20), metric {chosen}, n={size_n} "
                               "per rung")
    except ArenaError as err:
        raise fail(err) from None
    if as_json:
        if summary is not None:
            print(json.dumps({"creatures": json.loads(table.to_json(orient="records")),
                              "population": json.loads(summary.to_json(orient="records"))}, indent=2))
        else:
            print(table.to_json(orient="records", indent=2))
        return
    _print_table(table, chosen)
    if summary is not None and not summary.empty:
        typer.echo(f"SRD population of CR {printable(cr)} ({summary['creatures'].max()} creatures):")
        typer.echo(summary.to_string(index=False, float_format=lambda x: f"{x:+.2f}"))
    if folder:
        typer.echo(f"wrote {printable(folder / 'calibration.csv', limit=4000)}"
                   + (f" and {printable(folder / 'delta-cr.png', limit=4000)}" if grid else ""))
    if grid:
        typer.echo(f"(--grid at n={size_n} per rung: intervals are wide; raise --n for tighter ones)")


def _calibrated(monster: str, bestiary: list[Path] | None) -> dict | None:
    """The bestiary to calibrate MONSTER from (None: the built-in one), checked before any fight: a missing
    file, a bad stat block, an unknown name, no CR or an unknown policy is an ArenaError."""
    from arena.study.calibrate import calibration_monster

    book = bestiary_book(bestiary)
    calibration_monster(monster, book)
    return book


def _write_calibration(table: Any, folder: Path, grid: bool, title: str) -> None:
    """calibration.csv (and with --grid the heat map) in ``folder``, written aside and put in place together."""
    from arena.study import calibrate as cal
    from arena.study.report import Staged

    with Staged(folder, "calibration") as stage:
        if grid:
            cal.heat_map(table, lambda fig: stage.figure("delta-cr.png", fig), title)
        stage.text("calibration.csv", table.to_csv(index=False))
        stage.commit()


def _print_table(table: Any, metric: str) -> None:
    from rich.table import Table
    from rich.text import Text

    from arena.study.calibrate import position_text

    t = Table(title=f"equivalent CR (metric: {metric}; c* on the ladder 1/2, 1, 2, ...; 95% bootstrap)")
    for col in ("L", "monster", "size", "rules", "n", "difficulty", "d20", "c*", "c* d20", "Delta-CR",
                "95% CI", "rule", "note"):
        t.add_column(col, justify="left" if col in ("monster", "rules", "note") else "right")
    for r in table.itertuples(index=False):
        t.add_row(str(r.party_level), Text(printable(r.monster)), str(r.size), Text(printable(r.rules)), str(r.n),
                  f"{r.difficulty:.3f}",
                  f"{r.difficulty_d20:.3f}", position_text(r.c_star), position_text(r.c_star_d20),
                  f"{r.delta:+.2f}", f"{r.delta_low:+.2f} .. {r.delta_high:+.2f}", f"{r.predicted_delta:+.0f}",
                  f"off the ladder ({r.censored})" if r.censored else "")
    console().print(t)


def register(app: typer.Typer) -> None:
    """Add `arena claims` and `arena calibrate` to the app."""
    app.command("claims")(claims_cmd)
    app.command("calibrate")(calibrate_cmd)
