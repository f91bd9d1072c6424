"""`arena calibrate`: the equivalent CR of a monster (or of each SRD creature of a CR, or the grid of typical
monsters) under another rule set, with its study kept in --out to resume."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import BestiaryFlag, bestiary_book, console, fail
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

GridFlag = Annotated[
    bool,
    typer.Option(
        "--grid",
        help="Party levels 1,3,5,8,12,16 x sizes 1,2,3,4,6,8 x CRs with EL in [L-2, L+3]; draws a heat map.",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        help="Folder for the table (CSV) and, with --grid, the heat map "
        "(default for --grid: results/calibrate-grid); the finished "
        "fights are kept there as it goes, so an interrupted calibration "
        "can --resume (without --out nothing is kept)."
    ),
]
PopulationOption = Annotated[
    str | None,
    typer.Option(
        "--population",
        help="srd: calibrate the fully modelled SRD creatures of --cr (with a MONSTER: of its CR, and it beside them).",
    ),
]
SampleOption = Annotated[
    int,
    typer.Option(
        "--sample", help="At most this many creatures of the population (chosen evenly by name).", min=1, max=100
    ),
]


def calibrate_cmd(
    monster: Annotated[str | None, typer.Argument(help="An SRD monster or typical-crN.", show_default=False)] = None,
    party_level: Annotated[int, typer.Option("--party-level", help="The generated party's level.")] = 5,
    sizes: Annotated[str, typer.Option(help="Group sizes, comma-separated.")] = "1,2,4,6",
    rules: Annotated[str, typer.Option(help="Rule sets to calibrate against d20, comma-separated.")] = "3d6",
    metric: Annotated[
        str | None,
        typer.Option(
            help="Difficulty: resources (hit points and spell levels spent), hp-lost, death or win "
            "(default: resources)."
        ),
    ] = None,
    n: Annotated[
        int | None, typer.Option("--n", help="Encounters per rung and arm (default 1000; --grid 150).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
    grid: GridFlag = False,
    workers: WorkersOption = None,
    cluster: ClusterOption = None,
    out: OutOption = None,
    population: PopulationOption = None,
    cr: Annotated[str | None, typer.Option("--cr", help="The CR of the --population (1/2, 3, ...).")] = None,
    sample: SampleOption = 8,
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
    resume: ResumeFlag = False,
    force: ForceFlag = False,
    bestiary: BestiaryFlag = None,
) -> None:
    """Equivalent CR: the typical-monster CR at which d20 is as hard as MONSTER (or each SRD creature of a CR, with
    --population srd --cr C) under each rule set. It is said first in one sentence per group size, with a verdict on
    the stated CR. MONSTER may be one of your own with --bestiary PATH, and stand beside the SRD creatures of its CR
    with --population srd (compared with the others; if it is one of the creatures sampled, it is fought once). With
    --out the finished fights are kept there (the folder locked while it runs): after
    Ctrl-C or SIGTERM the same command with --resume completes it, with the same table."""
    from arena.study.runs.cluster import cluster_session

    folder = out or (Path("results/calibrate-grid") if grid else None)
    session = Session(folder)
    try:
        with stop_on_signals():
            request = _request(
                monster,
                party_level,
                sizes,
                rules,
                metric,
                n,
                seed,
                grid,
                workers,
                population,
                cr,
                sample,
                resume,
                force,
                bestiary,
            )
            with (
                cluster_session(cluster) as client,
                study_folder(session, "calibration", request.settings(), resume, force) as study,
            ):
                if study is not None and study.complete:
                    _show_complete_calibration(study.folder, as_json, request.metric)
                    return
                with progress_bar(not as_json, "encounters") as progress:
                    full, population = _calibrate(request, client, progress, study)
                table = _asked(full, request)
                if study is not None:
                    _write_calibration(
                        table,
                        study,
                        grid,
                        f"Delta-CR ({request.keys[0]} - d20), metric {request.metric}, n={request.n} per rung",
                        _manifest(study, request.workers, cluster),
                    )
                    study.finish()
    except Stopped as stop:
        raise stopped(session, stop.signum) from None
    except KeyboardInterrupt:
        raise stopped(session, None) from None
    except ArenaError as err:
        raise fail(err) from None
    _show_calibration(full, population, request, folder, as_json)


@dataclass(frozen=True)
class _Request:
    """A calibration as asked for, every option checked before anything is written or fought."""

    mode: str
    """``population`` (the SRD creatures of a CR), ``grid`` (typical monsters) or ``monster`` (one MONSTER)."""
    monster: str | None
    population: str | None
    cr: str | None
    sample: int
    level: int | None
    sizes: tuple[int, ...] | None
    keys: tuple[str, ...]
    metric: str
    n: int
    seed: int
    workers: int
    book: dict | None
    """The bestiary MONSTER is read from (None: the built-in one)."""

    def settings(self) -> dict:
        """What the study folder records and a ``--resume`` must match."""
        return {
            "mode": self.mode,
            "monster": self.monster,
            "population": self.population,
            "cr": self.cr,
            "sample": self.sample if self.population is not None else None,
            "party_level": self.level,
            "sizes": self.sizes,
            "rules": self.keys,
            "metric": self.metric,
            "n": self.n,
            "seed": self.seed,
        }


def _request(
    monster: str | None,
    party_level: int,
    sizes: str,
    rules: str,
    metric: str | None,
    n: int | None,
    seed: int,
    grid: bool,
    workers: int | None,
    population: str | None,
    cr: str | None,
    sample: int,
    resume: bool,
    force: bool,
    bestiary: list[Path] | None,
) -> _Request:
    """The options checked, in the order their errors are reported: one error line before any fight."""
    from arena.study.calibration import calibrate as cal
    from arena.study.runs import options

    if resume and force:
        raise ArenaError("--resume and --force contradict each other: choose one")
    if bestiary and (monster is None or grid):
        raise ArenaError(
            "--bestiary adds your creatures for MONSTER; --population srd and --grid calibrate built-in creatures only"
            " (name your MONSTER to calibrate it beside the SRD creatures of its CR)"
        )
    chosen = cal.DEFAULT_METRIC if metric is None else options.check_metric(metric)
    keys = options.rule_keys([k.strip() for k in rules.split(",") if k.strip()])
    size_n = options.check_n(150 if grid and n is None else 1000 if n is None else n, 2)
    chosen_seed = options.check_seed(seed)
    chosen_workers = workers_asked(workers)
    level = size_list = book = None
    if population is not None:
        if population != "srd":
            raise ArenaError(f"--population must be srd, not {population!r}")
        if grid:
            raise ArenaError("--population srd calibrates the creatures of --cr: give no --grid")
        if monster is not None:
            book = _calibrated(monster, bestiary)
            cr = _monster_cr(monster, book, cr)
        if cr is None:
            raise ArenaError("--population srd needs --cr (the CR of the creatures, such as 3 or 1/2) or a MONSTER")
        level = options.check_level(party_level)
        size_list = options.parse_sizes(sizes)
        cal.population_names(cr, sample)  # no such creatures: one error line before any fight
    elif grid:
        if monster is not None:
            raise ArenaError("--grid uses typical monsters: give no MONSTER with it")
        if cr is not None:
            raise ArenaError("--grid calibrates every CR of the typical monsters: give no --cr with it")
        if len(keys) != 1:
            raise ArenaError("--grid takes one rule set (--rules 3d6)")
    else:
        if monster is None:
            raise ArenaError("name a MONSTER (an SRD monster or typical-crN), or use --grid")
        if cr is not None:
            raise ArenaError(
                "--cr names the CR of --population srd; a MONSTER's CR is its stat block's (leave --cr out, or add "
                "--population srd to calibrate it beside the SRD creatures of its CR)"
            )
        level = options.check_level(party_level)
        size_list = options.parse_sizes(sizes)
        book = _calibrated(monster, bestiary)
    mode = "population" if population is not None else "grid" if grid else "monster"
    return _Request(
        mode, monster, population, cr, sample, level, size_list, keys, chosen, size_n, chosen_seed, chosen_workers, book
    )


def _with_d20(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The rule sets calibrated: d20 always among them (its arm is fought anyway; its row gives the sentence d20's
    own interval), the table showing only those asked for."""
    return tuple(dict.fromkeys(("d20", *keys)))


def _calibrate(request: _Request, client: Any, progress: Any, study: Any) -> tuple[Any, Any]:
    """Fight the calibration asked for: its table (with d20's rows, see :func:`_with_d20`), and with
    ``--population`` the creatures' table with MONSTER's rows last (else None)."""
    from arena.study.calibration import calibrate as cal

    r = request
    if r.mode == "grid":
        table = cal.calibrate_grid(
            n=r.n,
            seed=r.seed,
            metric=r.metric,
            rules=r.keys[0],
            workers=r.workers,
            cluster=client,
            progress=progress,
            store=study,
        )
        return table, None
    options = {
        "metric": r.metric,
        "n": r.n,
        "seed": r.seed,
        "workers": r.workers,
        "cluster": client,
        "progress": progress,
        "store": study,
    }
    import pandas as pd

    keys = _with_d20(r.keys)
    if r.level is None or r.sizes is None:  # _request gives both to a monster and a population
        raise ArenaError("a calibration of a monster or a population needs --party-level and --sizes")
    if r.mode == "population" and r.cr is not None:
        table, _median = cal.calibrate_population(r.cr, r.level, r.sizes, keys, sample=r.sample, **options)
        if r.monster is not None:
            member = _member(r.monster, r.book, cal.population_names(r.cr, r.sample))
            if member is not None:  # MONSTER is one of the creatures sampled: not fought twice; its rows go last,
                own = table["monster"] == member  # under its own name, and it is compared with the others
                mine = table[own].assign(monster=_shown_name(r))
                table = pd.concat([table[~own], mine], ignore_index=True)
            else:
                mine = cal.calibrate(r.monster, r.level, r.sizes, keys, bestiary=r.book, **options)
                table = pd.concat([table, mine], ignore_index=True)
        return table, table
    if r.monster is None:  # _request names one (or a --cr for a population)
        raise ArenaError("name a MONSTER (an SRD monster or typical-crN), or use --grid")
    table = cal.calibrate(r.monster, r.level, r.sizes, keys, bestiary=r.book, **options)
    return table, None


def _asked(table: Any, request: _Request) -> Any:
    """The rows of the rule sets asked for (the table, the CSV and the JSON show no others)."""
    if request.mode == "grid":
        return table
    return table[table["rules"].isin(request.keys)].reset_index(drop=True)


def _show_calibration(full: Any, population: Any, request: _Request, folder: Path | None, as_json: bool) -> None:
    """The answer in sentences, then the calibration's table (and the population's summary), or all of it as JSON,
    and the files it wrote. ``full`` has d20's rows too (the sentences read them); the table shows the rules
    asked for."""
    from arena.cli import calibration_answers as words

    table = _asked(full, request)
    summary = None
    if population is not None:
        summary = words.population_summary(_asked(population, request), _shown_name(request))
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
    grid = request.mode == "grid"
    if not grid:
        for line in _sentences(full, request):
            typer.echo(line)
    _print_table(table, request.metric)
    if summary is not None and not summary.empty:
        _print_population(summary, request)
    if folder:
        typer.echo(
            f"wrote {printable(folder / 'calibration.csv', limit=4000)}"
            + (f" and {printable(folder / 'delta-cr.png', limit=4000)}" if grid else "")
        )
    if grid:
        typer.echo(f"(--grid at n={request.n} per rung: intervals are wide; raise --n for tighter ones)")


def _shown_name(request: _Request) -> str | None:
    """The name MONSTER's rows show (its stat block's name when it is your own), or None without one."""
    if request.monster is None:
        return None
    from arena.study.calibration.calibrate import calibration_monster

    return calibration_monster(request.monster, request.book)[0]


def _sentences(full: Any, request: _Request) -> list[str]:
    """The answer's sentences: MONSTER's (or, for a population without one, the population's per group size)."""
    from arena.cli import calibration_answers as words

    name = _shown_name(request)
    if request.mode == "population":
        median = words.population_summary(full, name)
        lines = words.population_sentences(median, str(request.cr), int(request.level or 0), name)
        said = words.answers(full[full["monster"] == name], request.metric) if name is not None else []
        mine = [line for line in said if line != words.HINT]
        bounded = len(mine) < len(said) or bool(median["bounds only"].any())
        return [*mine, *lines, *([words.HINT] if bounded else [])]
    return words.answers(full, request.metric)


def _print_population(summary: Any, request: _Request) -> None:
    """The population's summary: the median equivalent CR of the SRD creatures and its range per size and rules."""
    shown = summary.copy()
    for col in shown.columns:
        if col.endswith("c*") or col in ("c* min", "c* max"):
            shown[col] = shown[col].map(lambda x: f"{x:.2f}")
        elif col in ("median delta", "min", "max"):
            shown[col] = shown[col].map(lambda x: f"{x:+.2f}")
    shown = shown.rename(columns={"min": "delta min", "max": "delta max"})
    typer.echo(f"SRD population of CR {printable(request.cr)} ({summary['creatures'].max()} creatures):")
    typer.echo(shown.to_string(index=False))


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


def _member(monster: str, book: dict | None, names: list[str]) -> str | None:
    """The population's name of MONSTER when it is one of ``names`` (the very same stat block), else None."""
    from arena.world.bestiary import get_creature

    mine = get_creature(monster, book)
    return next((name for name in names if get_creature(name) == mine), None)


def _monster_cr(monster: str, book: dict | None, cr: str | None) -> str:
    """The CR of the population MONSTER stands in: its own (a different --cr is an error: the SRD creatures it is
    compared with are those of its CR)."""
    from arena.world.bestiary import get_creature
    from arena.world.challenge import format_cr, parse_cr

    own = get_creature(monster, book).cr
    if own is None:  # calibration_monster said so already; for mypy
        raise ArenaError(f"{printable(monster)} has no challenge rating (cr:), which a calibration starts from")
    if cr is not None and parse_cr(cr) != own:
        raise ArenaError(
            f"{printable(monster)} is CR {format_cr(own)}, not --cr {printable(cr)}: it stands beside the SRD "
            "creatures of its own CR (leave --cr out)"
        )
    return format_cr(own)


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
    from rich.text import Text

    from arena.cli.calibration_answers import note
    from arena.cli.common import table as new_table
    from arena.study.calibration.equivalent_cr import position_text

    ladder = "1/8, 1/6, 1/4, 1/3 (-4 .. -1), 1/2 (0), 1, 2, ..."
    t = new_table(f"equivalent CR (metric: {metric}; c* on the ladder {ladder}; 95% bootstrap)")
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
            note(r._asdict()),
        )
    console().print(t)


def register(app: typer.Typer) -> None:
    """Add `arena calibrate` to the app."""
    app.command("calibrate")(calibrate_cmd)
