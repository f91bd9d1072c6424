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


def register(app: typer.Typer) -> None:
    app.command("model-effects")(model_effects_cmd)
