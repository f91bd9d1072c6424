"""`arena fight`: one encounter of a scenario, blow by blow.

The same scenario, rule set and seed always give the same fight (the engine draws every number from one
stream seeded with the seed), which is what the golden log test (``tests/golden/``) relies on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import BestiaryFlag, ModelFlag, announce_policies, console, fail, terminal, with_model
from arena.cli.odds_options import Die, Modifiers
from arena.errors import ArenaError
from arena.labels import printable_lines
from arena.limits import MAX_ENCOUNTERS, MAX_SEED


def fight_document(
    path: Path,
    scenario_name: str | None = None,
    seed: int | None = None,
    encounter: int | None = None,
    rules_key: str | None = None,
    die: str = "d20",
    players_roll_all: bool = False,
    modifiers: str = "static",
    open_ended: bool = False,
    called_shots: bool = False,
    trust_policies: bool = False,
    on_policy: Callable[[list[str]], None] | None = None,
    model: list[str] | None = None,
    bestiary: list[Path] | None = None,
) -> dict:
    """The `arena fight --json` document: ``scenario``, ``seed`` (the engine's), ``encounter`` (``{"index",
    "run_seed"}`` when replaying encounter I of a run, else null), ``rules`` (the key), ``record`` (every field of
    the encounter record), ``model`` (the fight model's options that differ from the defaults), ``log`` (the
    readable lines) and ``events`` (the same fight as structured events: ``{"round", "actor", "action", "target",
    "roll": {"natural", "total", "roller", "check", "needs", "pressed", "rerolled"}, "result", "damage", ...,
    "text"}``, one per line of the log but the round headers and the closing summary)."""
    from arena.combat.engine import fight
    from arena.dice import encounter_seed
    from arena.rules import RuleSet
    from arena.study.scenarios.loading import load_scenarios, pick
    from arena.world.yamlio import display_name

    for p in bestiary or ():
        if not Path(p).exists():
            raise ArenaError(f"--bestiary {p}: no such file or folder")
    scenario = pick(
        load_scenarios(path, trust_policies=trust_policies, on_policy=on_policy, bestiary=bestiary or ()),
        scenario_name,
        display_name(path),
    )
    (scenario,) = with_model([scenario], model)
    if rules_key:
        rules = RuleSet.from_key(rules_key, scenario.rule_options)
    else:
        rules = RuleSet(
            die=die,
            players_roll_all=players_roll_all,
            modifiers=modifiers,
            open_ended=open_ended,
            called_shots=called_shots,
            options=scenario.rule_options,
        )
    run_seed = scenario.seed if seed is None else seed
    if not 0 <= run_seed <= MAX_SEED:
        raise ArenaError(f"--seed must be 0 to {MAX_SEED:,}, not {run_seed:,}")
    if encounter is not None and not 0 <= encounter < MAX_ENCOUNTERS:
        raise ArenaError(f"--encounter must be 0 to {MAX_ENCOUNTERS - 1:,}, not {encounter:,}")
    engine_seed = run_seed if encounter is None else encounter_seed(run_seed, encounter)
    result = fight(scenario.prepare(rules.die), rules, engine_seed, log=True)
    return {
        "scenario": scenario.name,
        "seed": engine_seed,
        "encounter": None if encounter is None else {"index": encounter, "run_seed": run_seed},
        "rules": rules.key,
        "model": {k: sorted(v) if isinstance(v, frozenset) else v for k, v in scenario.model.changed().items()},
        "record": result.record.as_row(),
        "log": list(result.log),
        "events": list(result.events),
    }


def format_fight(doc: dict) -> str:
    """The readable fight: a header, the engine's log lines, and who won."""
    record = doc["record"]
    replay = doc["encounter"]
    seed = (
        f"encounter {replay['index']} of run seed {replay['run_seed']} (engine seed {doc['seed']})"
        if replay
        else f"seed {doc['seed']}"
    )
    rounds = record["rounds"]
    model = "".join(
        f" | {name}={','.join(value) if isinstance(value, list) else value}"
        for name, value in (doc.get("model") or {}).items()
    )
    lines = [
        f"scenario {doc['scenario']} | rules {doc['rules']} | {seed}{model}",
        *doc["log"],
        f"winner: {record['winner']} after {rounds} round{'s' * (rounds != 1)}",
    ]
    return "\n".join(lines)


STYLES = (
    (r"^(scenario .*|--- round \d+ ---|=== .* ===)$", "bold"),
    (r"^winner: party\b.*", "bold green"),
    (r"^winner: (monsters|draw)\b.*", "bold red"),
    (r"^\[r\d+\]", "dim"),
    (r"- (hit|critical hit|called hit)[^,;]*", "green"),
    (r"- (miss|fumble)\b[^,;]*", "yellow"),
    (r"\b(drops|dies|dead|destroyed|dying|unconscious|asleep|held|stunned)\b", "bold red"),
    (r"\bnatural \d+", "cyan"),
)
"""How the log is coloured on a terminal (the text is the same as in a pipe, which gets no colour)."""


def coloured(text: str):
    """The fight log as a rich Text with :data:`STYLES` applied (no markup is read from the log itself)."""
    from rich.text import Text

    out = Text()
    for line in text.splitlines():
        piece = Text(line)
        for pattern, style in STYLES:
            piece.highlight_regex(pattern, style)
        out.append(piece)
        out.append("\n")
    out.rstrip()
    return out


def fight_cmd(
    scenario_file: Annotated[Path, typer.Argument(help="A scenario YAML file.", show_default=False)],
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="Which scenario of the file (needed when it holds several).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="The seed (default: the scenario's seed).")] = None,
    encounter: Annotated[
        int | None,
        typer.Option("--encounter", help="Replay encounter I of a run seeded --seed (as `arena run` seeds it)."),
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help="A rule-set key such as 3d6+prad+luck; overrides the flags.")
    ] = None,
    die: Annotated[Die, typer.Option("--die", help="The resolution die.")] = Die.d20,
    players_roll_all: Annotated[bool, typer.Option("--players-roll-all", help="Players roll all the dice.")] = False,
    modifiers: Annotated[
        Modifiers, typer.Option("--modifiers", help="Static, variable, or press-luck modifiers.")
    ] = Modifiers.static,
    open_ended: Annotated[bool, typer.Option("--open-ended", help="Open-ended (exploding) rolls.")] = False,
    called_shots: Annotated[bool, typer.Option("--called-shots", help="Called shots.")] = False,
    trust_policies: Annotated[
        bool, typer.Option("--trust-policies", help="Run the Python policy files the scenario lists.")
    ] = False,
    model: ModelFlag = None,
    bestiary: BestiaryFlag = None,
    json_: Annotated[bool, typer.Option("--json", help="Print JSON: seed, rules, record, log.")] = False,
) -> None:
    """Fight one encounter of a scenario and print it blow by blow (standard d20 rules unless told otherwise)."""
    try:
        doc = fight_document(
            scenario_file,
            scenario,
            seed,
            encounter,
            rules,
            die.value,
            players_roll_all,
            modifiers.value,
            open_ended,
            called_shots,
            trust_policies,
            announce_policies,
            model,
            bestiary,
        )
    except ArenaError as err:
        raise fail(err) from None
    if json_:
        typer.echo(json.dumps(doc, indent=2))  # JSON escapes control characters itself
    elif terminal():
        console().print(coloured(printable_lines(format_fight(doc))))
    else:
        typer.echo(printable_lines(format_fight(doc)))


def register(app: typer.Typer) -> None:
    app.command("fight")(fight_cmd)
