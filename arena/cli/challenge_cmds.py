"""`arena party` (the generated four-character party) and `arena el` (Encounter Level, XP and difficulty)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

import typer

from arena.cli.common import BestiaryFlag, JsonFlag, bestiary_book, cell, console, fail, table
from arena.cli.odds_options import Die
from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_COMBATANTS, MAX_GROUP_COUNT, MAX_NAME_LENGTH

GROUP_RE = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9 _/'.-]*?)(?::(?P<count>[^:]*))?$")
COUNT_RE = re.compile(r"[0-9]{1,9}")
"""A count: ASCII digits only (``int`` would also take "１２" or "1_000", and ``str.isdigit`` "²", which ``int``
refuses)."""


def _shown(text: str) -> str:
    return repr(printable(text, limit=MAX_NAME_LENGTH))


def parse_group(text: str) -> tuple[str, int]:
    """``troll:4`` -> ("troll", 4); ``ogre`` -> ("ogre", 1). Malformed text, or a count outside 1 to
    :data:`~arena.limits.MAX_GROUP_COUNT`, is an ArenaError."""
    m = GROUP_RE.match(text.strip()) if len(text) <= 2 * MAX_NAME_LENGTH else None
    if not m or not m.group("name").strip():
        raise ArenaError(f"group {_shown(text)} is not NAME or NAME:COUNT (e.g. troll:4)")
    count_text = m.group("count")
    if count_text is None:
        return m.group("name").strip(), 1
    count_text = count_text.strip()
    if not COUNT_RE.fullmatch(count_text) or not 1 <= int(count_text) <= MAX_GROUP_COUNT:
        raise ArenaError(
            f"group {_shown(text)}: the count after ':' must be a whole number from 1 to {MAX_GROUP_COUNT}"
        )
    return m.group("name").strip(), int(count_text)


def _fmt_number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(float(x), 2)


class GroupBy(StrEnum):
    kind = "kind"
    encounter = "encounter"


class PartyDie(StrEnum):
    d20 = "d20"
    bell = "3d6"


def el_report(
    groups_text: list[str],
    die: str = "d20",
    party_level: int | None = None,
    group_by: str = "kind",
    cr1_to_half: bool = True,
    book: dict | None = None,
) -> dict:
    """The `arena el --json` document for the given group texts."""
    from arena.world.bestiary import get_creature, normalise
    from arena.world.challenge import (
        difficulty_band,
        effective_crs,
        encounter_level,
        format_cr,
        parse_cr,
        xp_per_pc,
    )

    if not groups_text:
        raise ArenaError("give at least one group, e.g. `arena el troll:4 ogre:2`")
    merged: dict[str, list] = {}
    for text in groups_text:
        name, count = parse_group(text)
        creature = get_creature(name, book)
        if creature.cr is None:
            raise ArenaError(f"{creature.name} has no challenge rating")
        key = normalise(creature.name)
        if key in merged:
            merged[key][1] += count
        else:
            merged[key] = [creature.name, count, parse_cr(Fraction(creature.cr))]
        if merged[key][1] > MAX_GROUP_COUNT:
            raise ArenaError(
                f"{printable(creature.name)}: {merged[key][1]} in all, more than the {MAX_GROUP_COUNT} of one group"
            )
    rows = list(merged.values())
    total = sum(n for _, n, _ in rows)
    if total > MAX_COMBATANTS:
        raise ArenaError(f"{total} creatures in all, more than the {MAX_COMBATANTS} of one encounter")
    eff = effective_crs([(cr, n) for _, n, cr in rows], die=die, group_by=group_by, cr1_to_half=cr1_to_half)
    groups = [(cr, n) for cr, (_, n, _) in zip(eff, rows, strict=True)]
    el = encounter_level(groups)
    xp = band = None
    if party_level is not None:
        band = difficulty_band(el, party_level)
        try:
            xp = _fmt_number(xp_per_pc(party_level, groups))
        except ArenaError:
            xp = None  # a CR beyond the transcribed XP table (CR 20)
    return {
        "groups": [
            {"name": name, "count": n, "cr": format_cr(cr), "effective_cr": format_cr(e)}
            for (name, n, cr), e in zip(rows, eff, strict=True)
        ],
        "el": int(el) if el.denominator == 1 else round(float(el), 3),
        "xp_per_pc": xp,
        "band": band,
    }


def el_cmd(
    groups: Annotated[list[str], typer.Argument(help="Creature groups NAME[:COUNT], e.g. troll:4 ogre:2.")],
    die: Annotated[
        Die, typer.Option("--die", help="d20, or 3d6 for the bell curve (groups of 4+ lose 1 CR).")
    ] = Die.d20,
    party_level: Annotated[int | None, typer.Option("--party-level", help="Party level 1-20: XP and band.")] = None,
    group_by: Annotated[
        GroupBy, typer.Option("--group-by", help="Bell curve: count a group per kind or per encounter.")
    ] = GroupBy.kind,
    cr1_to_half: Annotated[
        bool, typer.Option("--cr1-to-half/--cr1-stays", help="Bell curve: CR 1 in a group of 4+ becomes 1/2.")
    ] = True,
    bestiary: BestiaryFlag = None,
    as_json: JsonFlag = False,
) -> None:
    """Encounter Level of creature groups, with each creature's effective CR, XP per PC and difficulty band."""
    try:
        report = el_report(
            groups,
            die=die.value,
            party_level=party_level,
            group_by=group_by.value,
            cr1_to_half=cr1_to_half,
            book=bestiary_book(bestiary),
        )
    except ArenaError as err:
        raise fail(err) from None
    if as_json:
        typer.echo(json.dumps(report))
        return
    el = report["el"]
    from arena.world.challenge import format_cr

    el_text = format_cr(Fraction(el).limit_denominator(10)) if isinstance(el, float) else str(el)
    line = f"EL {el_text} (die {die.value})"
    if party_level is not None:
        xp = report["xp_per_pc"]
        xp_text = f"{xp} XP per PC (party of 4)" if xp is not None else "XP beyond the CR 20 table"
        line += f"; party level {party_level}: {report['band']}, {xp_text}"
    t = table(None, ("creature", "count", "CR", "effective CR"), right=("count", "CR", "effective CR"))
    for g in report["groups"]:
        t.add_row(cell(g["name"]), str(g["count"]), g["cr"], g["effective_cr"])
    console().print(t)
    typer.echo(line)


def party_cmd(
    level: Annotated[int, typer.Option("--level", help="Party level 1-20.")],
    die: Annotated[
        PartyDie, typer.Option("--die", help="d20, or 3d6 (bell curve: Luck domain spells).")
    ] = PartyDie.d20,
    as_json: Annotated[bool, typer.Option("--json", help="Print the four stat blocks as JSON.")] = False,
) -> None:
    """The generated fighter, cleric, rogue and wizard of a level (assumptions: docs/party.md)."""
    from arena.world.party import generate_party

    try:
        party = generate_party(level, die.value)
    except ArenaError as err:
        raise fail(err) from None
    if as_json:
        typer.echo(json.dumps([c.model_dump(mode="json", exclude_none=True) for c in party], indent=2))
        return
    t = table(
        f"The generated party of level {level} ({die.value})",
        ("PC", "hp", "AC", "touch", "flat-footed", "init", "F/R/W", "attack", "spells"),
        right=("hp", "AC", "touch", "flat-footed", "init", "F/R/W"),
    )
    for c in party:
        a = c.full_attack[0][0]
        bonuses = "/".join(f"{b:+d}" for b in a.bonuses)
        crit = "" if a.threat == 20 else f"/{a.threat_range}"
        sneak = f" + sneak {a.sneak_attack}" if a.sneak_attack else ""
        saves = f"{c.saves.fort:+d}/{c.saves.ref:+d}/{c.saves.will:+d}"
        spells = (
            "; ".join(f"{lv}: {_prepared(names)}" for lv, names in sorted(c.spellcasting.prepared.items()))
            if c.spellcasting
            else ""
        )
        t.add_row(
            cell(c.display_name),
            str(c.hp),
            str(c.ac),
            str(c.touch_ac),
            str(c.flat_footed_ac),
            f"{c.initiative:+d}",
            saves,
            cell(f"{a.name} {bonuses} ({a.damage}{crit}){sneak}"),
            cell(spells, limit=None),  # the generator's own text: whole, in a terminal or a pipe
        )
    console().print(t)


def _prepared(names: Iterable[str]) -> str:
    """One level's prepared spells, each named once with how many times it is prepared, in the order first
    prepared: ``cure light wounds x3, bless x2, shield of faith``."""
    counts = Counter(names)
    return ", ".join(name if counts[name] == 1 else f"{name} x{counts[name]}" for name in counts)


def register(app: typer.Typer) -> None:
    """Add `arena party` and `arena el` to the app."""
    app.command("party")(party_cmd)
    app.command("el")(el_cmd)
