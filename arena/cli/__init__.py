"""The `arena` command: thin typer wrappers that parse, call the library and print.

Each command group lives in its own module and registers itself on the one app here. Any
:class:`~arena.errors.ArenaError` becomes one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from arena.errors import ArenaError

app = typer.Typer(
    name="arena",
    help="d20 Arena: exact odds and simulated fights under d20 house-rule variants.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from arena import __version__
        from arena.engine_build import describe

        typer.echo(f"d20 Arena {__version__} (fight engine: {describe()})")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", is_eager=True, callback=_version
    ),
) -> None:
    """d20 Arena: exact odds and simulated fights under d20 house-rule variants."""


def _register() -> None:
    from arena.cli import (
        bestiary_cmds,
        calibrate_cmds,
        challenge_cmds,
        claims_cmds,
        fight_cmds,
        model_cmds,
        odds,
        results_cmds,
        run_cmds,
        scenario_cmds,
    )

    odds.register(app)
    bestiary_cmds.register(app)
    challenge_cmds.register(app)
    fight_cmds.register(app)
    run_cmds.register(app)
    results_cmds.register(app)
    claims_cmds.register(app)
    calibrate_cmds.register(app)
    model_cmds.register(app)
    scenario_cmds.register(app)


_register()


def root_command() -> Any:
    """The click command ``main`` runs: ``app``, its flags shown in ``--help`` without a type."""
    import typer.main

    root = typer.main.get_command(app)
    _flags_take_no_type(root)
    return root


def _flags_take_no_type(command: Any) -> None:
    """Give every flag of ``command`` and its subcommands an empty metavar. typer's rich help (0.29) prints a type
    after every option, a flag's too (``--quick <bool>``, even ``--help <bool>``), though a flag takes no value:
    its ``TyperOption.display_type_rich`` does not look at ``is_flag`` (its plain help does); an empty metavar is
    printed instead of the type. Done on the built command, so that no option's declaration has to remember it."""
    context = _click().Context(command)
    for param in [*command.params, command.get_help_option(context)]:
        if getattr(param, "is_flag", False) and param.metavar is None:  # an option (an argument has no is_flag)
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _flags_take_no_type(sub)


def _click() -> Any:
    """The click that typer runs on: typer 0.2x carries its own copy, older ones import click."""
    try:
        from typer import _click as click
    except ImportError:
        import click
    return click


def _say(message: str) -> None:
    """One line on stderr, control characters escaped (a message may quote what the user typed)."""
    from arena.cli.common import plain
    from arena.labels import printable

    print(f"error: {printable(plain(message), limit=2000)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: every failure is one line on stderr and an exit code, never a traceback.

    Exit codes: 0 done, 1 a check or comparison failed (``check``, ``compare``), 2 bad input (the line says what
    and where), 3 an internal error (a bug: set ``ARENA_DEBUG=1`` for the traceback), 130/143 interrupted."""
    import os

    click = _click()
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code = root_command()(args=args or ["--help"], standalone_mode=False)
    except ArenaError as err:
        _say(str(err))
        code = 2
    except click.exceptions.UsageError as err:
        if not err.format_message():  # a command group called with nothing: show its help
            print(err.ctx.get_help() if err.ctx is not None else "")
            sys.exit(0)
        command = err.ctx.command_path if err.ctx is not None else "arena"
        _say(f"{err.format_message()} (see `{command} --help`)")
        code = 2
    except typer.Exit as err:
        code = err.exit_code
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        code = 130
    except click.exceptions.ClickException as err:
        _say(err.format_message())
        code = err.exit_code
    except BrokenPipeError:  # `arena bestiary list | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 0
    except OSError as err:  # the machine's, not the input's: a full disk, stdout on /dev/full
        from arena.study.runs.folder import os_problem

        where = f"{err.filename}: " if err.filename else ""
        _say(f"{where}cannot read or write ({os_problem(err)})")
        code = 2
    except MemoryError:
        _say("out of memory: the request is too large for this machine (see docs/limits.md)")
        code = 2
    except SystemExit as err:  # raised by code d20 Arena does not own (a policy file's exit is
        code = err.code if isinstance(err.code, int) else 2  # caught where it runs)
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click's answer to a closed pipe is exit 1, which
            code = 0  # d20 Arena keeps for a failed check
    except Exception as err:  # a bug: say so in one line, the traceback only when asked for
        if os.environ.get("ARENA_DEBUG"):
            raise
        _say(
            f"internal error: {type(err).__name__}: {err} (a bug in d20 Arena; rerun with ARENA_DEBUG=1 "
            "for the traceback and report it)"
        )
        code = 3
    code = _flush_stdout(code if isinstance(code, int) else 0)
    sys.exit(code)


def _flush_stdout(code: int) -> int:
    """Write what is still buffered now, so that a reader who closed the pipe costs nothing (exit ``code``, no
    "Exception ignored ... BrokenPipeError" and exit 120 at the interpreter's own flush), and a full disk is one
    ``error:`` line and exit 2."""
    import os

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as err:
        from arena.study.runs.folder import os_problem

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _say(f"cannot write the output ({os_problem(err)})")
        return 2
    return code
