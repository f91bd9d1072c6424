"""`arena bestiary ...`: list, show, validate stat blocks, and print their JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from arena.labels import printable, printable_lines
from arena.world.bestiary import check_files, creature_names, get_creature, load_bestiary
from arena.world.creatures import Attack, Creature, cr_text

MAX_PROBLEM_LENGTH = 500
"""Characters of one problem line that `bestiary validate` prints: a 100,000-character value is cut, not echoed."""

bestiary_app = typer.Typer(name="bestiary", help="Stat blocks: list, show, validate, schema.",
                           no_args_is_help=True)

ExtraPaths = Annotated[list[Path] | None, typer.Option(
    "--bestiary", "-b", help="Extra stat-block file or folder (repeatable).")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


@bestiary_app.command("list")
def list_cmd(json_out: JsonFlag = False, extra: ExtraPaths = None) -> None:
    """List the creatures: name, CR, size and type, hp, AC."""
    book = load_bestiary(extra or ())
    rows = [book[n] for n in creature_names(book)]
    if json_out:
        typer.echo(json.dumps([{"name": c.name, "cr": cr_text(c.cr) if c.cr is not None else None,
                                "size": c.size, "type": c.type, "hp": c.hp, "ac": c.ac} for c in rows],
                              indent=2))
        return
    typer.echo(f"{'name':<24} {'CR':>4}  {'size/type':<26} {'hp':>4} {'AC':>3}")
    for c in rows:
        cr = cr_text(c.cr) if c.cr is not None else "-"
        typer.echo(f"{printable(c.name):<24} {cr:>4}  {c.size + ' ' + c.type:<26} {c.hp:>4} {c.ac:>3}")
    typer.echo("(also typical-cr1/2, typical-cr1 ... typical-cr20: the typical monster of that CR)")


def _attack_text(a: Attack) -> str:
    bonus = "/".join(f"{b:+d}" for b in a.bonuses)
    crit = "" if a.threat == 20 else f"/{a.threat_range}"
    crit += "" if a.multiplier == 2 else f"/x{a.multiplier}"
    extra = f" plus {a.extra_damage} {a.extra_damage_type}" if a.extra_damage else ""
    extra += f" plus sneak attack {a.sneak_attack}" if a.sneak_attack else ""
    extra += " plus trip" if a.trip else ""
    name = f"{a.count} {a.name}s" if a.count > 1 else a.name
    touch = " touch" if a.touch else ""
    return f"{name} {bonus} {a.kind}{touch} ({a.damage}{crit}{extra}) [{', '.join(a.damage_types)}]"


def _routines(routines: tuple[tuple[Attack, ...], ...]) -> str:
    return " or ".join(" and ".join(_attack_text(a) for a in r) for r in routines) or "-"


def stat_block(c: Creature) -> str:
    """A readable SRD-style stat block."""
    ab = c.abilities
    abil = ", ".join(f"{k.capitalize()} {'-' if v is None else v}" for k, v in ab.model_dump().items())
    sub = f" ({', '.join(c.subtypes)})" if c.subtypes else ""
    lines = [
        f"{c.display_name} [{c.name}]",
        f"  {c.size.capitalize()} {c.type}{sub}; {c.side}; CR {cr_text(c.cr) if c.cr is not None else '-'}"
        + (f"; levels {', '.join(f'{k} {v}' for k, v in c.class_levels.items())}" if c.class_levels else ""),
        f"  Hit Dice: {c.hit_dice} ({c.hp} hp); first hit die d{c.first_hit_die}",
        f"  Initiative: {c.initiative:+d}; Speed: {c.speed} ft.; Space/Reach: {c.space_ft} ft./{c.reach_ft} ft.",
        f"  AC {c.ac}, touch {c.touch_ac}, flat-footed {c.flat_footed_ac}",
        f"  Base Attack/Grapple: {c.bab:+d}/{c.grapple:+d}",
        f"  Attack: {_routines(c.attack)}",
        f"  Full Attack: {_routines(c.full_attack)}",
        f"  Saves: Fort {c.saves.fort:+d}, Ref {c.saves.ref:+d}, Will {c.saves.will:+d}",
        f"  Abilities: {abil}",
    ]
    special = []
    if c.rend:
        special.append(f"rend {c.rend.damage} (both {c.rend.attack}s hit)")
    if c.breath_weapon:
        bw = c.breath_weapon
        special.append(f"breath weapon {bw.length_ft}-ft. {bw.shape} {bw.damage} {bw.damage_type} "
                       f"({bw.save} DC {bw.dc} {'half' if bw.half_on_save else 'negates'}, every {bw.recharge} rounds)")
    if c.damage_reduction:
        special.append(f"DR {c.damage_reduction}")
    if c.regeneration:
        special.append(f"regeneration {c.regeneration.amount} ({' and '.join(c.regeneration.overcome_by)} "
                       "deal normal damage)")
    if c.fast_healing:
        special.append(f"fast healing {c.fast_healing}")
    if c.spell_resistance:
        special.append(f"SR {c.spell_resistance}")
    if c.energy_resistance:
        special.append("resist " + ", ".join(f"{k} {v}" for k, v in c.energy_resistance.items()))
    if c.all_immunities:
        special.append("immune to " + ", ".join(sorted(c.all_immunities)))
    if c.all_vulnerabilities:
        special.append("vulnerable to " + ", ".join(sorted(c.all_vulnerabilities)))
    lines.append(f"  Special: {'; '.join(special) or '-'}")
    if c.spellcasting:
        sc = c.spellcasting
        spells = "; ".join(f"{lvl}: {', '.join(names)}" for lvl, names in sorted(sc.prepared.items()))
        domains = f"; domains {', '.join(sc.domains)}" if sc.domains else ""
        lines.append(f"  Spells: caster level {sc.caster_level} ({sc.ability}){domains}; {spells or '-'}")
    parts = ", ".join(f"{p.part}{' x' + str(p.count) if p.count > 1 else ''} +{p.ac_bonus}"
                      for p in c.called_shot_parts)
    lines.append(f"  Called-shot parts (improved AC): {parts or '-'}")
    if c.feats:
        lines.append(f"  Feats: {', '.join(c.feats)}")
    lines.append(f"  Tactics: {c.tactics}")
    if c.notes:
        lines.append(f"  Notes: {c.notes}")
    if c.source:
        lines.append(f"  Source: {c.source}")
    return "\n".join(lines)


@bestiary_app.command("show")
def show_cmd(name: Annotated[str, typer.Argument(help="Creature name, or typical-crN.")],
             json_out: JsonFlag = False, extra: ExtraPaths = None) -> None:
    """Show one stat block."""
    book = load_bestiary(extra or ()) if extra else None
    creature = get_creature(name, book)
    if json_out:
        typer.echo(json.dumps(creature.model_dump(mode="json", exclude_none=True), indent=2))
    else:
        typer.echo(printable_lines(stat_block(creature)))


@bestiary_app.command("validate")
def validate_cmd(paths: Annotated[list[Path] | None, typer.Argument(
        help="Stat-block files or folders (default: the built-in bestiary).")] = None) -> None:
    """Check stat-block files: print OK, or every problem as file:line: field: message (exit 2)."""
    from arena.combat.tactics import POLICIES

    count, problems = check_files(paths or (), known_policies=POLICIES)
    if problems:
        for line in problems:
            typer.echo(printable(line, limit=MAX_PROBLEM_LENGTH), err=True)
        typer.echo(f"{len(problems)} problem{'s' * (len(problems) != 1)} found", err=True)
        raise typer.Exit(2)
    typer.echo(f"OK: {count} creature{'s' * (count != 1)}")


def _array_lengths(node: object) -> object:
    """Pydantic writes the length limits of a list that also takes a single value (``bonuses: 9``) as
    ``minLength``/``maxLength``, which JSON Schema reads for strings only: call them ``minItems``/``maxItems``."""
    if isinstance(node, dict):
        out = {k: _array_lengths(v) for k, v in node.items()}
        if out.get("type") == "array":
            for text_key, array_key in (("minLength", "minItems"), ("maxLength", "maxItems")):
                if text_key in out:
                    out[array_key] = out.pop(text_key)
        return out
    if isinstance(node, list):
        return [_array_lengths(v) for v in node]
    return node


@bestiary_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of a stat block (point your editor's YAML plugin at it)."""
    schema = _array_lengths(Creature.model_json_schema())
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "d20 Arena stat block"
    typer.echo(json.dumps(schema, indent=2))


def register(app: typer.Typer) -> None:
    """Add the `bestiary` command group to ``app``."""
    app.add_typer(bestiary_app, name="bestiary")
