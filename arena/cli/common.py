"""Small helpers shared by the command modules."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


def default_workers() -> int:
    """Every local core (at most the workers limit): results do not depend on the number of workers, so the default
    uses them all."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def plain(message: str) -> str:
    """A message without the validation library's own wording (pydantic's "Value error, ", click's "Invalid
    value for '--x': "): one plain sentence after ``error:``."""
    import re

    message = re.sub(r"\b(Value|Assertion) error, ", "", message)
    return re.sub(r"^Invalid value for '([^']+)': ", r"\1: ", message)


def fail(err: ArenaError) -> typer.Exit:
    """Print ``err`` as the one ``error:`` line (control characters escaped) and return the exit to raise."""
    typer.echo(f"error: {printable(plain(str(err)), limit=2000)}", err=True)
    return typer.Exit(2)


def announce_policies(paths: list[str]) -> None:
    """Say which Python policy files are about to run (``--trust-policies``), on stderr, before they run."""
    for path in paths:
        typer.echo(f"running policy file {printable(path)}", err=True)


MODEL_HELP = (
    "A fight-model option, NAME=VALUE (repeatable), over the scenario's model: block, e.g. "
    "flanking=any-melee-ally, back_line=reachable, undo=spell-focus (docs/model-options.md)."
)
ModelFlag = Annotated[list[str] | None, typer.Option("--model", help=MODEL_HELP, show_default=False)]
"""``--model NAME=VALUE`` on the commands that fight scenarios."""


def with_model(scenarios: list, pairs: list[str] | None) -> list:
    """The scenarios fought under their own model options with ``--model`` pairs over them."""
    if not pairs:
        return scenarios
    from arena.combat.model import parse_assignments

    return [s.with_model(parse_assignments(pairs, s.model)) for s in scenarios]


# --------------------------------------------------------------------------------------------- shared options
BESTIARY_HELP = (
    "An extra stat-block file or folder (repeatable): its creatures are looked up by name like the "
    "built-in ones; a name it shares with an imported SRD creature replaces it (srd/NAME still "
    "reaches that one), a hand-written built-in's name is refused as a duplicate."
)
BestiaryFlag = Annotated[list[Path] | None, typer.Option("--bestiary", "-b", help=BESTIARY_HELP, show_default=False)]
"""``--bestiary PATH`` (files or folders, repeatable) on every command that takes a creature name. Use it as
``bestiary: BestiaryFlag = None`` in a command's signature, then :func:`bestiary_book` (a name lookup) or pass the
paths to :func:`arena.study.scenarios.loading.load_scenarios` or :func:`arena.study.calibration.calibrate.calibrate`
(``bestiary=``)."""

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
"""``--json`` wherever a table is printed."""


def bestiary_book(paths: list[Path] | None) -> dict | None:
    """The bestiary with the ``--bestiary`` files (None: the built-in one), for ``get_creature(name, book)`` or a
    library function's ``bestiary=``. A missing path or a bad stat block is an ArenaError naming the file, line and
    field."""
    if not paths:
        return None
    from arena.world.bestiary import load_bestiary

    for p in paths:
        if not p.exists():
            raise ArenaError(f"--bestiary {printable(str(p))}: no such file or folder")
    return load_bestiary(paths)


# --------------------------------------------------------------------------------------------- tables
def terminal() -> bool:
    return sys.stdout.isatty()


PIPE_WIDTH = 200
"""Console width when stdout is not a terminal (a pipe, a file, a CI log): wide enough that no column of the
widest table (``arena compare``) is cut, and ``COLUMNS`` overrides it."""


def console(err: bool = False) -> Any:
    """A rich console: the terminal's width on a terminal; elsewhere ``COLUMNS`` or :data:`PIPE_WIDTH`, with no
    colour codes in the text. A reader that closes the pipe (``arena bestiary list | head -1``) ends the command
    with exit 0, as ``main`` does for any other write: rich's own answer is exit 1, which d20 Arena keeps for a
    failed check."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError  # arena.cli.main: stdout to /dev/null, exit 0

    stream = sys.stderr if err else sys.stdout
    if stream.isatty():
        return _Console(stderr=err)
    width = os.environ.get("COLUMNS", "")
    return _Console(
        stderr=err,
        width=int(width) if width.isdigit() and 40 <= int(width) <= 1000 else PIPE_WIDTH,
        no_color=True,
        highlight=False,
        soft_wrap=False,
    )


TABLE_BOX = "SIMPLE_HEAD"
"""The one box style of every table the commands print (a rule under the header, no frame): the same look in
every command, and nothing but spaces and one line for a pipe to carry."""


def table(
    title: Any = None,
    columns: list[str] | tuple[str, ...] = (),
    right: tuple[str, ...] = (),
    edge: bool = True,
    boxed: bool = True,
    **options: Any,
) -> Any:
    """The one table factory of the command line: every command's rich table is made here, so that all share
    :data:`TABLE_BOX`, a title on the left, and text columns that fold instead of being cut to ``scen...`` (names
    stay whole in a pipe). ``columns`` (``right``: those aligned right) may also be added by the caller with
    ``add_column``; ``edge=False``: no blank edge line, the header is the first line; ``boxed=False``: no rule
    at all (plain columns laid out inside another listing); ``options`` go to rich's ``Table``
    (``show_lines=True``...)."""
    from rich import box
    from rich.table import Table

    t = Table(
        title=title, box=getattr(box, TABLE_BOX) if boxed else None, title_justify="left", show_edge=edge, **options
    )
    for col in columns:
        t.add_column(col, justify="right" if col in right else "left", overflow="fold")
    return t


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 claim``, ``2 claims``, ``0 claims`` (``nouns``: an irregular plural)."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def cell(value: Any, limit: int | None = 200) -> Any:
    """A table cell from data: control characters escaped and no rich markup (``[red]`` or a stray ``[/x]``).
    ``limit``: cut a long value (what a user wrote) with a note of how much is left out; None for the program's
    own text, which is shown whole (a wizard's spells)."""
    from rich.text import Text

    return Text(printable(value, limit=10**9 if limit is None else limit))


def echo_json(doc: Any) -> None:
    """``doc`` as indented JSON on stdout (JSON escapes control characters itself)."""
    import json

    typer.echo(json.dumps(doc, indent=2, default=str))
