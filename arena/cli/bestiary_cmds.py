"""`arena bestiary ...`: list, show, validate stat blocks, print their JSON Schema, import SRD-layout stat blocks,
and report what the engine models of the shipped SRD bestiary."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from arena.cli.common import cell, console, table
from arena.cli.progress import Progress
from arena.cli.srd_tables import TYPICAL_HEAD, coverage_markdown, typical_cells, typical_table
from arena.cli.stat_block_text import abilities_text, stat_block
from arena.errors import ArenaError
from arena.labels import printable, printable_lines
from arena.world.bestiary import check_files, creature_names, get_creature, load_bestiary
from arena.world.creatures import cr_text

if TYPE_CHECKING:  # the importer is loaded only by `bestiary import`
    from arena.srd.importer import ImportReport

MAX_PROBLEM_LENGTH = 500
"""Characters of one problem line that `bestiary validate` prints: a 100,000-character value is cut, not echoed."""

bestiary_app = typer.Typer(
    name="bestiary", help="Stat blocks: list, show, validate, schema, import, coverage.", no_args_is_help=True
)

ExtraPaths = Annotated[
    list[Path] | None, typer.Option("--bestiary", "-b", help="Extra stat-block file or folder (repeatable).")
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
SORT_KEYS = ("name", "cr", "hp", "ac", "type", "modelled")


def _rows(extra: list[Path] | None) -> list[dict]:
    """Every creature a name reaches: hand-written built-ins and the user's files, then the imported SRD ones (an
    imported one whose name is taken is ``srd/<name>``). Hand-written blocks report their SRD counterpart's
    modelling (they list no special abilities of their own)."""
    from arena.world.srd_bestiary import HAND_WRITTEN, PREFIX, srd_rows

    book = load_bestiary(extra or ())
    builtin = load_bestiary(())  # a file's creature may replace a built-in of its name
    srd = {r.name: r for r in srd_rows()}
    rows = []
    for key in creature_names(book):
        c = book[key]
        twin = srd.get(HAND_WRITTEN.get(key, ""))
        modelled, ignored = (
            (twin.modelled, list(twin.ignored))
            if twin and not c.special_abilities
            else (c.modelled, list(c.ignored_abilities))
        )
        rows.append(
            {
                "name": c.name,
                "title": c.display_name,
                "cr": cr_text(c.cr) if c.cr is not None else None,
                "size": c.size,
                "type": c.type,
                "hp": c.hp,
                "ac": c.ac,
                "modelled": modelled,
                "ignored": ignored,
                "source": "built-in" if builtin.get(key) is c else "file",
            }
        )
    for r in srd.values():
        name = f"{PREFIX}{r.name}" if r.name in book else r.name
        rows.append(
            {
                **{
                    k: v
                    for k, v in r.as_json().items()
                    if k in ("title", "cr", "size", "type", "hp", "ac", "modelled", "ignored")
                },
                "name": name,
                "source": "srd",
            }
        )
    return rows


def _sort_key(key: str):
    def value(row: dict):
        if key == "cr":
            return (Fraction(row["cr"]) if row["cr"] else Fraction(-1), row["name"])
        return (row[key], row["name"])

    return value


@bestiary_app.command("list")
def list_cmd(
    json_out: JsonFlag = False,
    extra: ExtraPaths = None,
    cr: Annotated[str | None, typer.Option("--cr", help="A CR (3, 1/2) or a range (1/2..5, ..3, 10..).")] = None,
    type_: Annotated[str | None, typer.Option("--type", help="Creature type (undead, magical-beast).")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Part of the name or title (troll).")] = None,
    modelled: Annotated[
        Literal["full", "partial"] | None,
        typer.Option("--modelled", help="full: every special ability that matters in a fight is modelled."),
    ] = None,
    source: Annotated[
        Literal["all", "built-in", "srd", "file"], typer.Option("--source", help="Where the stat blocks come from.")
    ] = "all",
    sort: Annotated[str, typer.Option("--sort", help=f"Sort by {', '.join(SORT_KEYS)}.")] = "name",
) -> None:
    """List the creatures (hand-written built-ins, your files, the imported SRD bestiary): name, CR, size and
    type, hp, AC, and whether the engine models them fully."""
    from arena.world.srd_bestiary import in_cr, parse_cr_range

    if sort not in SORT_KEYS:
        raise ArenaError(f"--sort {sort!r}: sort by one of {', '.join(SORT_KEYS)}")
    rows = _rows(extra)
    bounds = parse_cr_range(cr) if cr else None
    want = " ".join(type_.lower().replace("-", " ").split()) if type_ else None
    needle = name.lower().strip() if name else None
    rows = [
        r
        for r in rows
        if (bounds is None or (r["cr"] is not None and in_cr(Fraction(r["cr"]), bounds)))
        and (want is None or r["type"] == want)
        and (needle is None or needle in r["name"] or needle in r["title"].lower())
        and (modelled is None or r["modelled"] == modelled)
        and (source == "all" or r["source"] == source)
    ]
    rows.sort(key=_sort_key(sort))
    if json_out:
        typer.echo(json.dumps(rows, indent=2))
        return
    t = table(None, ("name", "CR", "size/type", "hp", "AC", "model", "source"), right=("CR", "hp", "AC"), edge=False)
    for r in rows:
        t.add_row(
            cell(r["name"]),
            r["cr"] or "-",
            cell(f"{r['size']} {r['type']}"),
            str(r["hp"]),
            str(r["ac"]),
            r["modelled"],
            r["source"],
        )
    console().print(t)
    typer.echo(
        f"{len(rows)} creature{'s' * (len(rows) != 1)}"
        + (
            "; also typical-cr1/8 ... typical-cr1/2, typical-cr1 ... typical-cr20: the typical monster of that CR"
            if not (cr or type_ or name or modelled)
            else ""
        )
    )


@bestiary_app.command("show")
def show_cmd(
    name: Annotated[str, typer.Argument(help="Creature name, or typical-crN.")],
    json_out: JsonFlag = False,
    extra: ExtraPaths = None,
) -> None:
    """Show one stat block."""
    from arena.world.srd_bestiary import HAND_WRITTEN, srd_creature

    book = load_bestiary(extra or ()) if extra else None
    creature = get_creature(name, book)
    twin = None
    if not creature.special_abilities and creature.name in HAND_WRITTEN and creature.import_status is None:
        twin = srd_creature(HAND_WRITTEN[creature.name])
    if json_out:
        data = creature.model_dump(mode="json", exclude_none=True)
        data["modelled"] = (twin or creature).modelled
        typer.echo(json.dumps(data, indent=2))
    else:
        text = stat_block(creature)
        more = abilities_text(creature, twin)
        typer.echo(printable_lines(text + ("\n" + more if more else "")))


@bestiary_app.command("validate")
def validate_cmd(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Stat-block files or folders (default: the built-in bestiary).")
    ] = None,
) -> None:
    """Check stat-block files: print OK, or every problem as file:line: field: message (exit 2)."""
    from arena.combat.tactics import POLICIES

    with contextlib.ExitStack() as stack:

        def progress(total: int) -> Callable[[], None]:
            bar = stack.enter_context(Progress("stat-block files checked", total))
            return bar.advance

        count, problems = check_files(paths or (), known_policies=POLICIES, on_file=progress)
    problems = list(dict.fromkeys(problems))  # each problem once
    if problems:
        for line in problems:
            typer.echo(printable(line, limit=MAX_PROBLEM_LENGTH), err=True)
        typer.echo(f"{len(problems)} problem{'s' * (len(problems) != 1)} found", err=True)
        raise typer.Exit(2)
    typer.echo(f"OK: {count} creature{'s' * (count != 1)}")


@bestiary_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of a stat-block file (point your editor's YAML plugin at it): one stat block or a list,
    with the shorthands the loader takes (threat: 19-20, damage_reduction: 5/magic, bonuses: 9)."""
    from arena.cli.schemas import bestiary_schema

    typer.echo(json.dumps(bestiary_schema(), indent=2))


# --------------------------------------------------------------------------------------------- import
def _note_line(file: str, note) -> str:
    where = f"{file}:{note.line}" if note.line else file
    text = f" -- {note.text[:120]!r}" if note.text else ""
    return f"{where}: {note.field}: {note.kind}: {note.message}{text}"


@bestiary_app.command("import")
def import_cmd(
    files: Annotated[
        list[Path],
        typer.Argument(help="Text files holding SRD-layout stat blocks (Markdown tables or 'Field: value' lines)."),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the YAML stat blocks to.")] = Path("."),
    force: Annotated[
        bool, typer.Option("--force", help="Replace stat-block files that already exist in --out.")
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Read SRD 3.5 stat blocks and write one YAML stat block per creature (named in kebab case).

    Every field read with a guess, rewritten, or found in disagreement with the block itself is reported with
    its file, line and text (and kept in the creature's import_notes). A field that cannot be read, an
    impossible number, an unknown special ability or a file without a stat block is an error: one line each,
    exit code 2; every good creature is still written (a warning line says so; stdout stays empty). A file that
    already exists in --out is replaced only with --force (otherwise nothing is written); links are never followed
    when writing."""
    from arena.srd.importer import import_files

    report = import_files(list(files), out, force=force)
    if json_out:
        typer.echo(json.dumps(_import_json(report), indent=2))
    else:
        _print_import(report, out)
    if report.errors:
        raise typer.Exit(2)


def _import_json(report: ImportReport) -> dict:
    """``bestiary import --json``: the stat blocks written, every note of the import, every error."""
    return {
        "written": [
            {
                "name": b.creature.name,
                "title": b.title,
                "file": str(path),
                "source_line": b.block.line,
                "import_status": b.creature.import_status,
                "modelled": b.creature.modelled,
                "ignored": list(b.creature.ignored_abilities),
            }
            for b, path in report.written
        ],
        "notes": [
            {
                "file": b.block.file,
                "creature": b.title,
                "kind": n.kind,
                "field": n.field,
                "line": n.line,
                "text": n.text,
                "message": n.message,
            }
            for b in report.built
            for n in b.notes
        ],
        "errors": [
            {
                "file": e.file,
                "line": e.line,
                "field": e.field,
                "message": e.message,
                "creature": e.creature or None,
            }
            for e in report.errors
        ],
    }


def _print_import(report: ImportReport, out: Path) -> None:
    """``bestiary import`` as text: warnings and errors on stderr; what was written on stdout, or (when there were
    errors, exit 2) on stderr as a warning."""
    for built in report.built:
        for note in built.notes:
            if note.kind != "unread":  # unread text is an error, printed below
                typer.echo(
                    printable(f"warning: {_note_line(built.block.file, note)}", limit=MAX_PROBLEM_LENGTH), err=True
                )
    for error in report.errors:
        typer.echo(printable(f"error: {error}", limit=MAX_PROBLEM_LENGTH), err=True)
    statuses = [b.creature.import_status for b, _ in report.written]
    summary = ", ".join(f"{statuses.count(s)} {s}" for s in ("clean", "guessed", "unread") if s in statuses)
    wrote = f"wrote {len(report.written)} stat block{'s' * (len(report.written) != 1)} to {printable(str(out))}" + (
        f" ({summary})" if summary else ""
    )
    if report.errors:  # exit 2: nothing on stdout; what was written (the good creatures) is said
        count = len(report.errors)
        typer.echo(f"warning: {wrote}; {count} error{'s' * (count != 1)} above", err=True)
    else:
        typer.echo(wrote)


# --------------------------------------------------------------------------------------------- the SRD bestiary
BandOption = Annotated[str, typer.Option("--cr", help="The CRs the ability order is for (a range: 1/2..15).")]


@bestiary_app.command("coverage")
def coverage_cmd(
    json_out: JsonFlag = False,
    cr: BandOption = "1/2..15",
    markdown: Annotated[
        bool, typer.Option("--markdown", help="The ability order as a Markdown table (as in docs/bestiary.md).")
    ] = False,
    top: Annotated[int | None, typer.Option("--top", min=1, help="Only the first N abilities.")] = None,
) -> None:
    """What the engine models of the imported SRD bestiary: the ignored special abilities in the order to model
    them (each one's count of creatures it alone stands between and full modelling), and full/partial by CR."""
    from arena.world.srd_bestiary import coverage, parse_cr_range, srd_rows

    report = coverage(srd_rows(), parse_cr_range(cr))
    if json_out:
        typer.echo(json.dumps(report, indent=2))
        return
    if markdown:
        typer.echo(coverage_markdown(report, top))
        return
    report["order"] = report["order"][:top]
    share = report["full"] / report["creatures"] if report["creatures"] else 0
    typer.echo(
        f"SRD bestiary: {report['creatures']} creatures, {report['full']} fully modelled ({share:.0%}); "
        f"CR {report['band']}: {report['band_creatures']} creatures, {report['band_full']} fully modelled "
        f"({report['band_full_share']:.0%})"
    )
    typer.echo(
        f"\nIgnored abilities in the order to model them (CR {report['band']}): 'decides' is how many more "
        "creatures become fully modelled with it"
    )
    out = console()
    band = f"have it (CR {report['band']})"
    order = table(
        None,
        ("#", "ability", "decides", "alone", band, "have it (all CRs)", "full then"),
        right=("#", "decides", "alone", band, "have it (all CRs)", "full then"),
        edge=False,
    )
    for k, row in enumerate(report["order"], 1):
        order.add_row(
            str(k),
            cell(row["ability"]),
            str(row["decides"]),
            str(row["alone"]),
            str(row["creatures_in_band"]),
            str(row["creatures"]),
            f"{row['cumulative_full']:.0%}",
        )
    out.print(order)
    typer.echo("\nFull and partial modelling by CR")
    by_cr = table(
        None, ("CR", "creatures", "full", "partial"), right=("CR", "creatures", "full", "partial"), edge=False
    )
    for cr_value, row in report["by_cr"].items():
        by_cr.add_row(cr_value, str(row["creatures"]), str(row["full"]), str(row["partial"]))
    out.print(by_cr)


@bestiary_app.command("typical-vs-srd")
def typical_vs_srd_cmd(
    markdown: Annotated[bool, typer.Option("--markdown", help="A Markdown table (as in docs/bestiary.md).")] = False,
    json_out: JsonFlag = False,
) -> None:
    """Per CR 1/2 to 20: the typical monster's hp, AC, attack bonus, damage per round and save DC beside the
    medians of the imported SRD creatures of that CR."""
    if json_out:
        from arena.world.srd_bestiary import srd_rows, typical_against_srd
        from arena.world.typical import table_crs, typical_stats

        typer.echo(json.dumps(typical_against_srd(srd_rows(), [typical_stats(c) for c in table_crs()]), indent=2))
        return
    if markdown:
        typer.echo(typical_table(True))
        return
    t = table(
        "The typical monster of each CR against the medians of the imported SRD creatures of that CR",
        TYPICAL_HEAD,
        right=TYPICAL_HEAD,
    )
    for cells in typical_cells():
        t.add_row(*cells)
    console().print(t)


@bestiary_app.command("errata")
def errata_cmd(
    markdown: Annotated[bool, typer.Option("--markdown", help="A Markdown table (as in docs/bestiary.md).")] = False,
    json_out: JsonFlag = False,
) -> None:
    """Where the imported SRD blocks disagree with themselves (hp against hit dice, AC against its components,
    attack bonuses, grapple, saves): the SRD's stated number is kept; this lists them."""
    from arena.world.srd_bestiary import srd_creature, srd_rows

    rows = []
    for r in srd_rows():
        for n in srd_creature(r.name).import_notes:
            if n.kind == "discrepancy":
                rows.append((r.name, r.source.replace("SRD 3.5 ", ""), n.field, n.message))
    if json_out:
        typer.echo(
            json.dumps(
                [
                    {"creature": name, "source": source, "field": field_name, "message": message}
                    for name, source, field_name, message in rows
                ],
                indent=2,
            )
        )
        return
    if markdown:
        typer.echo("| creature | source | field | discrepancy (the SRD number is kept) |\n|---|---|---|---|")
        for name, source, field_name, message in rows:
            typer.echo(f"| {name} | {source} | {field_name} | {message.replace('|', '/')} |")
    else:
        for name, source, field_name, message in rows:
            typer.echo(printable(f"{source}: {name}: {field_name}: {message}", limit=MAX_PROBLEM_LENGTH))
    typer.echo(f"{len(rows)} discrepanc{'ies' if len(rows) != 1 else 'y'}" if not markdown else "", nl=not markdown)


def register(app: typer.Typer) -> None:
    """Add the `bestiary` command group to ``app``."""
    app.add_typer(bestiary_app, name="bestiary")
