"""`arena scenario ...`: the example scenario files that ship with d20 Arena, and the scenario file format for
editors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import cell, console, echo_json, table

scenario_app = typer.Typer(
    name="scenario",
    help="Scenario files: the shipped examples (list, copy) and their JSON Schema.",
    no_args_is_help=True,
)


@scenario_app.command("list")
def list_cmd(json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
    """List the example scenario files that ship with d20 Arena: name, what each is for, the scenarios it holds;
    `arena scenario copy NAME` writes one into the current folder."""
    from arena.study.scenarios.examples import list_examples

    examples = list_examples()
    if json_out:
        echo_json(
            [
                {
                    "name": e.name,
                    "kind": e.kind,
                    "summary": e.summary,
                    "scenarios": list(e.scenarios),
                    "files": list(e.files),
                }
                for e in examples
            ]
        )
        return
    t = table(None, ("name", "what it is", "scenarios"), edge=False)
    for e in examples:
        t.add_row(cell(e.name), cell(e.summary), cell(", ".join(e.scenarios) or "(a regression suite: arena check)"))
    console().print(t)
    typer.echo(f"{len(examples)} example files; `arena scenario copy NAME` copies one here")


@scenario_app.command("copy")
def copy_cmd(
    names: Annotated[list[str], typer.Argument(help="Example names from `arena scenario list` (reference, duel ...).")],
    to: Annotated[Path, typer.Option("--to", help="Folder to copy into (created if missing).")] = Path("."),
    force: Annotated[bool, typer.Option("--force", help="Replace files that already exist there.")] = False,
) -> None:
    """Copy example scenario files, with the files they name (a suite's scenarios, a scenario's policy files), into
    a folder of yours: nothing is copied when a file exists there, unless --force."""
    from arena.study.scenarios.examples import copy_examples

    for path in copy_examples(names, to, force=force):
        typer.echo(f"wrote {path}")


@scenario_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of a scenario file (one scenario or a list), with the shorthands the loader takes
    (troll:4, party: [fighter-5], rules: [d20, 3d6]); point your editor's YAML plugin at it."""
    from arena.cli.schemas import scenario_schema

    typer.echo(json.dumps(scenario_schema(), indent=2))


def register(app: typer.Typer) -> None:
    app.add_typer(scenario_app, name="scenario")
