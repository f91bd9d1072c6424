"""Small helpers shared by the command modules."""

import os
from typing import Annotated

import typer

from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


def default_workers() -> int:
    """Every local core (at most the workers limit): results do not depend on the number of workers, so the default
    uses them all."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def fail(err: ArenaError) -> typer.Exit:
    """Print ``err`` as the one ``error:`` line (control characters escaped) and return the exit to raise."""
    typer.echo(f"error: {printable(str(err), limit=2000)}", err=True)
    return typer.Exit(2)


def announce_policies(paths: list[str]) -> None:
    """Say which Python policy files are about to run (``--trust-policies``), on stderr, before they run."""
    for path in paths:
        typer.echo(f"running policy file {printable(path)}", err=True)


MODEL_HELP = ("A fight-model option, NAME=VALUE (repeatable), over the scenario's model: block, e.g. "
              "flanking=any-melee-ally, back_line=reachable, undo=spell-focus (README \"Fight model options\").")
ModelFlag = Annotated[list[str] | None, typer.Option("--model", help=MODEL_HELP, show_default=False)]
"""``--model NAME=VALUE`` on the commands that fight scenarios."""


def with_model(scenarios: list, pairs: list[str] | None) -> list:
    """The scenarios fought under their own model options with ``--model`` pairs over them."""
    if not pairs:
        return scenarios
    from arena.combat.model import parse_assignments

    return [s.with_model(parse_assignments(pairs, s.model)) for s in scenarios]
