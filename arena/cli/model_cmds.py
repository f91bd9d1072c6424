"""`arena model-effects`: the paired effect of each fight-model change (the table of docs/model-changes.md)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import default_workers, fail
from arena.errors import ArenaError
from arena.limits import MAX_ENCOUNTERS, MAX_WORKERS


def model_effects_cmd(
    n: Annotated[
        int, typer.Option("--n", help="Paired encounters per matchup, rule set and change.", min=10, max=MAX_ENCOUNTERS)
    ] = 2000,
    workers: Annotated[
        int | None, typer.Option(help="Local worker processes (default: every core).", min=1, max=MAX_WORKERS)
    ] = None,
    only: Annotated[
        list[str] | None, typer.Option("--only", help="Only the changes whose name contains this (repeatable).")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write the markdown table here (docs/model-changes.md).")] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the effects as JSON.")] = False,
) -> None:
    """Fight each matchup under the default fight model and with each change reverted, from the same seeds."""
    from arena.study.reports.model_effects import markdown, measure

    try:
        effects = measure(n, workers or default_workers(), only)
    except ArenaError as err:
        raise fail(err) from None
    command = f"arena model-effects --n {n}" + "".join(f" --only {o!r}" for o in only or ())
    text = markdown(effects, command + (f" --out {out}" if out else ""))
    if out is not None:
        out.write_text(text, encoding="utf-8")
    if json_:
        typer.echo(json.dumps([asdict(e) for e in effects], indent=2))
    elif out is None:
        typer.echo(text)
    else:
        typer.echo(f"wrote {out}")


def dmg_baseline_cmd(
    n: Annotated[int, typer.Option("--n", help="Encounters per matchup.", min=1, max=MAX_ENCOUNTERS)] = 400,
    workers: Annotated[int, typer.Option(help="Local worker processes.", min=1, max=MAX_WORKERS)] = 1,
    quick: Annotated[bool, typer.Option("--quick", help="40 encounters a matchup, 2 SRD creatures a CR.")] = False,
    levels: Annotated[
        list[int] | None,
        typer.Option("--level", help="Party levels (repeatable; default 1 3 5 8 12 16).", min=1, max=20),
    ] = None,
    srd_per_cr: Annotated[int, typer.Option(help="SRD creatures fought per CR.", min=1, max=20)] = 4,
    seed: Annotated[int, typer.Option(help="The run's seed.")] = 0,
    csv: Annotated[Path | None, typer.Option(help="Also write the per-matchup table here (CSV).")] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write the report here (docs/dmg-baseline.md): its generated part "
            "is replaced, the prose around it kept."
        ),
    ] = None,
) -> None:
    """The DMG anchor fought again: PC deaths by cause, the typical monster of both tables beside SRD creatures, and
    the EL check (four of CR L against one of CR L+4)."""
    from arena.study.claims.baseline import LEVELS, markdown, run_baseline

    if quick:
        n, srd_per_cr = min(n, 40), min(srd_per_cr, 2)
    try:
        b = run_baseline(n=n, levels=levels or LEVELS, srd_per_cr=srd_per_cr, seed=seed, workers=workers)
    except ArenaError as err:
        raise fail(err) from None
    parts = [f"arena dmg-baseline --n {n}", " --quick" if quick else "", f" --srd-per-cr {srd_per_cr}"]
    parts += [f" --level {lv}" for lv in levels or ()]
    b.command = "".join(parts) + (f" --seed {seed}" if seed else "")
    if csv is not None:
        b.table.to_csv(csv, index=False)
    existing = out.read_text(encoding="utf-8") if out is not None and out.is_file() else None
    text = markdown(b, existing)
    if out is None:
        typer.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out}")


def register(app: typer.Typer) -> None:
    app.command("model-effects")(model_effects_cmd)
    app.command("dmg-baseline")(dmg_baseline_cmd)
