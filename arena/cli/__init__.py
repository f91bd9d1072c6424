"""The `arena` command: thin typer wrappers that parse, call the library and print.

Each command group lives in its own module and registers itself on the one app here. Any
:class:`~arena.errors.ArenaError` becomes one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer

from arena.errors import ArenaError

app = typer.Typer(
    name="arena",
    help="d20 Arena: exact odds and simulated fights under d20 house-rule variants.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    from arena.cli import bestiary_cmds, challenge_cmds, claims_cmds, fight_cmds, odds, results_cmds, run_cmds

    odds.register(app)
    bestiary_cmds.register(app)
    challenge_cmds.register(app)
    fight_cmds.register(app)
    run_cmds.register(app)
    results_cmds.register(app)
    claims_cmds.register(app)


_register()


def main() -> None:
    """Console-script entry point."""
    try:
        app(standalone_mode=True)
    except ArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
