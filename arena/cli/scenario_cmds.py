"""`arena scenario ...`: the scenario file format for editors."""

from __future__ import annotations

import json

import typer

scenario_app = typer.Typer(name="scenario", help="Scenario files: their JSON Schema.", no_args_is_help=True)


@scenario_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of a scenario file (one scenario or a list), with the shorthands the loader takes
    (troll:4, party: [fighter-5], rules: [d20, 3d6]); point your editor's YAML plugin at it."""
    from arena.cli.schemas import scenario_schema

    typer.echo(json.dumps(scenario_schema(), indent=2))


def register(app: typer.Typer) -> None:
    app.add_typer(scenario_app, name="scenario")
