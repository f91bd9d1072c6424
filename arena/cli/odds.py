"""`arena odds ...`: exact odds of single rolls under any variant (the options they share are
:mod:`arena.cli.odds_options`'s, an attack sweep :mod:`arena.cli.odds_sweeps`')."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from arena.cli.common import console as make_console
from arena.cli.common import fail, table
from arena.cli.odds_damage import damage as damage_command
from arena.cli.odds_options import (
    ALL,
    AUSPICIOUS,
    DIE,
    HIDDEN,
    JSON,
    MODS,
    OPEN,
    PRAD,
    PRESS,
    REROLL,
    RULES,
    Die,
    Modifiers,
    Side,
    asked_rule_sets,
    bonus_routines,
    bonus_span,
    check_plot,
    sweep_values,
    within,
)
from arena.cli.odds_sweeps import TRUNCATED, plot_rows, print_rows, sweep_rows
from arena.cli.progress import Progress
from arena.errors import ArenaError, RulesError
from arena.labels import printable
from arena.rules import Check, RuleSet, odds, roll_claims
from arena.rules.check_limits import MAX_MULTIPLIER

odds_app = typer.Typer(help="Exact odds of single rolls under the house-rule variants.", no_args_is_help=True)
odds_app.command("damage")(damage_command)


def _show(check: Check, rule_sets: list[RuleSet], all_variants: bool, as_json: bool) -> None:
    objects = odds.all_variants(check) if all_variants else [odds.odds_object(check, r) for r in rule_sets]
    many = len(objects) > 1 or all_variants
    if as_json:
        print(json.dumps(objects if many else objects[0], indent=2))
        return
    names = [n for n in odds.OUTCOME_ORDER if any(n in o["outcomes"] for o in objects)]
    grid = table(_describe(check))
    grid.add_column("rules", no_wrap=True)
    grid.add_column("roller")
    for name in names:
        grid.add_column(name, justify="right")
    for obj in objects:
        cells = []
        for name in names:
            entry = obj["outcomes"].get(name)
            if entry is None:
                cells.append("-")
            elif many:  # many rows: percentages only (--json has the fractions)
                cells.append(f"{entry['p'] * 100:.3f}%")
            else:
                cells.append(f"{entry['p'] * 100:.3f}%\n{_short(entry['exact'])}")
        grid.add_row(obj["rules"]["key"], obj["roller"], *cells)
    out = make_console()
    out.print(grid)
    if any("truncated" in o for o in objects):
        out.print(TRUNCATED)


def _short(fraction: str) -> str:
    return fraction if len(fraction) <= 24 else "(" + str(len(fraction.split("/")[1])) + "-digit denominator)"


def _describe(check: Check, modifier: str | None = None, target: str | None = None) -> str:
    """The title: who rolls what against what, and any Luck flag (``modifier``/``target`` name a swept range)."""
    extras = [
        name
        for flag, name in (
            (check.press_luck, "luck pressed"),
            (check.luck_reroll, "Luck reroll"),
            (check.auspicious, "auspicious odds"),
        )
        if flag
    ]
    return (
        f"{check.kind} by a {check.side}: modifier {modifier or f'{check.modifier:+d}'}"
        + (f" (hidden {check.hidden:+d})" if check.hidden else "")
        + f" against {'AC ' if check.kind == 'attack' else ''}{target or check.target}"
        + (f" ({', '.join(extras)})" if extras else "")
    )


@odds_app.command()
def attack(
    bonus: str = typer.Option(
        ...,
        "--bonus",
        help="Attack bonus, a full attack routine such as 13/8/3 "
        "(the odds are for the first), or a range to sweep "
        "(0..20; a routine 8..13/3..8).",
    ),
    ac: str = typer.Option(..., "--ac", help="The target's AC, or a range to sweep (15..25)."),
    threat: str = typer.Option("20", "--threat", help="Threat range, e.g. 19-20."),
    multiplier: int = typer.Option(2, "--multiplier", help="Critical multiplier."),
    attacker: Side = typer.Option(Side.pc, "--attacker", help="The side that attacks."),
    flat_footed: bool = typer.Option(False, "--flat-footed", help="The defender is flat-footed."),
    die: Die = DIE,
    players_roll_all: bool = PRAD,
    modifiers: Modifiers = MODS,
    open_ended: bool = OPEN,
    rules: str = RULES,
    hidden_modifier: int = HIDDEN,
    press_luck: bool = PRESS,
    luck_reroll: bool = REROLL,
    auspicious: bool = AUSPICIOUS,
    all_variants: bool = ALL,
    json_: bool = JSON,
    damage: str | None = typer.Option(
        None,
        "--damage",
        help="Damage of a hit, e.g. 2d6+7: adds the expected damage per attack and per routine "
        "(its whole distribution: arena odds damage).",
    ),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        help="With a sweep: write a line plot (PNG) of the hit chance (and expected damage) to this file.",
        show_default=False,
    ),
) -> None:
    """Odds of an attack roll (or, under players roll all, the player's defense check). Sweep --ac or --bonus over
    an inclusive range A..B for one row per value (one of them at a time), with --plot for a line plot."""
    try:
        routines, acs, swept = _sweep_asked(bonus, ac, plot)
        check = Check(
            "attack",
            attacker.value,
            routines[0][0],
            acs[0],
            within("--hidden-modifier", hidden_modifier),
            odds.parse_threat(threat),
            within("--multiplier", multiplier, 2, MAX_MULTIPLIER),
            flat_footed=flat_footed,
            press_luck=press_luck,
            luck_reroll=luck_reroll,
            auspicious=auspicious,
        )
        chosen = asked_rule_sets(die, players_roll_all, modifiers, open_ended, rules)
        if swept is None and (damage is None or (len(chosen) == 1 and not all_variants)):
            if damage is None:
                _show(check, chosen, all_variants, json_)
                return
            _one_with_damage(check, chosen[0], damage, routines[0], json_)
            return
        variants = len(odds.kernel_variants()) if all_variants else len(chosen)
        with Progress("exact odds (cells)", len(acs) * len(routines) * variants) as progress:
            rows = sweep_rows(check, None if all_variants else chosen, acs, routines, damage, progress)
    except ArenaError as err:
        raise fail(err) from None
    _show_sweep(rows, check, swept, bonus, acs, plot, json_)


def _sweep_asked(bonus: str, ac: str, plot: Path | None) -> tuple[list[list[int]], list[int], str | None]:
    """``--bonus`` and ``--ac`` read (the routines, the ACs) and which of them is swept (``ac``, ``bonus`` or None),
    with ``--plot`` checked against them before any odds are computed."""
    routines, bonus_swept = bonus_routines(bonus)
    acs, ac_swept = sweep_values("--ac", ac, "18")
    if bonus_swept and ac_swept:
        raise ArenaError("sweep one of --ac and --bonus at a time (run one sweep per value of the other)")
    swept = "ac" if ac_swept else "bonus" if bonus_swept else None
    if plot is not None:
        if swept is None:
            raise ArenaError("--plot draws a sweep: give --ac or --bonus as a range A..B (--ac 15..25)")
        check_plot(plot)
    return routines, acs, swept


def _show_sweep(
    rows: list[dict], check: Check, swept: str | None, bonus: str, acs: list[int], plot: Path | None, as_json: bool
) -> None:
    """The rows of ``arena odds attack`` with a sweep or damage: the plot first (a plot that cannot be written
    leaves no table), then the table or the JSON."""
    title = _describe(
        check,
        modifier=None if swept != "bonus" else bonus_span(bonus),
        target=None if swept != "ac" else f"{acs[0]}..{acs[-1]}",
    )
    if plot is not None and swept is not None:  # drawn first: a plot that cannot be written leaves no table
        plot_rows(rows, plot, swept, title)
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        print_rows(rows, title, swept)
    if plot is not None:
        typer.echo(f"wrote {printable(str(plot), limit=4000)}", err=as_json)


def _one_with_damage(check: Check, rules: RuleSet, damage: str, bonuses: list[int], as_json: bool) -> None:
    """One check under one rule set with the expected damage per attack and per routine (no sweep)."""
    expected = sweep_rows(check, [rules], [check.target], [bonuses], damage)[0]["expected_damage"]
    if as_json:
        print(json.dumps({**odds.odds_object(check, rules), "expected_damage": expected}, indent=2))
        return
    _show(check, [rules], False, False)
    per = ", ".join(f"{b} {v:.2f}" for b, v in expected["per_attack"].items())
    make_console().print(
        f"expected damage ({printable(damage, limit=80)}, mean {expected['mean_damage']:g}, "
        f"x{check.multiplier} on a critical): per attack {per}; per full attack routine "
        f"{expected['per_routine']:.2f}"
    )


@odds_app.command()
def save(
    save_bonus: int = typer.Option(..., "--save", help="The saving creature's save bonus."),
    dc: int = typer.Option(..., "--dc", help="The save DC."),
    caster: Side = typer.Option(Side.pc, "--caster", help="The side that cast the spell."),
    die: Die = DIE,
    players_roll_all: bool = PRAD,
    modifiers: Modifiers = MODS,
    open_ended: bool = OPEN,
    rules: str = RULES,
    hidden_modifier: int = HIDDEN,
    press_luck: bool = PRESS,
    luck_reroll: bool = REROLL,
    auspicious: bool = AUSPICIOUS,
    all_variants: bool = ALL,
    json_: bool = JSON,
) -> None:
    """Odds of a saving throw (or, under players roll all, the player's magic check). `success` = the save succeeds."""
    saver = "monster" if caster is Side.pc else "pc"
    check = Check(
        "save",
        saver,
        within("--save", save_bonus),
        within("--dc", dc),
        within("--hidden-modifier", hidden_modifier),
        opponent=caster.value,
        press_luck=press_luck,
        luck_reroll=luck_reroll,
        auspicious=auspicious,
    )
    _show(check, asked_rule_sets(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


@odds_app.command()
def sr(
    caster_level: int = typer.Option(..., "--caster-level", help="Caster level (plus Spell Penetration)."),
    sr_: int = typer.Option(..., "--sr", help="The target's spell resistance."),
    caster: Side = typer.Option(Side.pc, "--caster", help="The side that cast the spell."),
    die: Die = DIE,
    players_roll_all: bool = PRAD,
    modifiers: Modifiers = MODS,
    open_ended: bool = OPEN,
    rules: str = RULES,
    hidden_modifier: int = HIDDEN,
    press_luck: bool = PRESS,
    luck_reroll: bool = REROLL,
    auspicious: bool = AUSPICIOUS,
    all_variants: bool = ALL,
    json_: bool = JSON,
) -> None:
    """Odds of a caster level check against spell resistance. `success` = the spell gets through."""
    check = Check(
        "caster-level",
        caster.value,
        within("--caster-level", caster_level, 0),
        within("--sr", sr_, 0),
        within("--hidden-modifier", hidden_modifier),
        press_luck=press_luck,
        luck_reroll=luck_reroll,
        auspicious=auspicious,
    )
    _show(check, asked_rule_sets(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


@odds_app.command()
def check(
    modifier: int = typer.Option(..., "--modifier", help="The check's modifier."),
    target: int = typer.Option(..., "--target", help="The DC or target number."),
    take: int = typer.Option(None, "--take", help="Take 10, 16, 18 or 20."),
    kind: str = typer.Option("skill", "--kind", help="skill, ability or initiative."),
    die: Die = DIE,
    players_roll_all: bool = PRAD,
    modifiers: Modifiers = MODS,
    open_ended: bool = OPEN,
    rules: str = RULES,
    hidden_modifier: int = HIDDEN,
    press_luck: bool = PRESS,
    luck_reroll: bool = REROLL,
    auspicious: bool = AUSPICIOUS,
    all_variants: bool = ALL,
    json_: bool = JSON,
) -> None:
    """Odds of a skill, ability or initiative check."""
    if kind not in ("skill", "ability", "initiative"):
        raise RulesError(f"--kind must be skill, ability or initiative, not {kind[:40]!r}")
    chk = Check(
        kind,
        "pc",
        within("--modifier", modifier),
        within("--target", target),
        within("--hidden-modifier", hidden_modifier),
        take=None if take is None else within("--take", take, 0, 20),
        press_luck=press_luck,
        luck_reroll=luck_reroll,
        auspicious=auspicious,
    )
    _show(chk, asked_rule_sets(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


@odds_app.command("modifiers")
def modifiers_table(json_: bool = JSON) -> None:
    """The variable-modifier table from -25 to +25: dice, mean, variance, drift from the static value."""
    rows = odds.modifier_table()
    if json_:
        print(json.dumps(rows, indent=2))
        return
    grid = table("Variable modifiers (seed 000, 003)")
    for col in ("modifier", "dice", "mean", "variance", "drift"):
        grid.add_column(col, justify="right")
    for r in rows:
        grid.add_row(
            f"{r['modifier']:+d}", r["dice"], f"{r['mean']:+.2f}", f"{r['variance']:.2f}", f"{r['drift']:+.2f}"
        )
    make_console().print(grid)


@odds_app.command("press-luck")
def press_luck_table(json_: bool = JSON) -> None:
    """For modifiers 1-25, the chance to roll (18 + modifier - 3) or better, static against pressed."""
    rows = odds.press_luck_table()
    if json_:
        print(json.dumps([{k: r[k] for k in ("modifier", "p_static", "p_pressed", "ratio")} for r in rows], indent=2))
        return
    grid = table("Press your luck: P(3d6 + modifier >= 18 + modifier - 3)")
    for col in ("modifier", "target", "static", "pressed", "ratio"):
        grid.add_column(col, justify="right")
    for r in rows:
        grid.add_row(
            f"{r['modifier']:+d}",
            str(r["target"]),
            f"{r['p_static'] * 100:.2f}%",
            f"{r['p_pressed'] * 100:.2f}%",
            f"{r['ratio']:.3f}x",
        )
    make_console().print(grid)


@odds_app.command("claims")
def claims(json_: bool = JSON) -> None:
    """Every claim the documents make about single rolls, with exact numbers and a verdict."""
    results = roll_claims.evaluate_all()
    if json_:
        print(json.dumps(results, indent=2))
        return
    print_claims(results)


def _flat(numbers: object, prefix: str = "") -> list[tuple[str, str]]:
    """A claim's numbers as (name, value) rows, nested mappings as dotted names, nothing cut short."""
    if isinstance(numbers, dict):
        return [row for k, v in numbers.items() for row in _flat(v, f"{prefix}{k}" if not prefix else f"{prefix}.{k}")]
    if isinstance(numbers, list) and all(not isinstance(v, dict | list) for v in numbers):
        return [(prefix, ", ".join(map(str, numbers)))]
    if isinstance(numbers, list):
        return [row for i, v in enumerate(numbers) for row in _flat(v, f"{prefix}[{i}]")]
    return [(prefix, str(numbers))]


def print_claims(results: list[dict]) -> None:
    """A verdict table first (claim, source, verdict), then each claim's quote, criterion and every number as a
    table (no number is cut short; ``--json`` has the same numbers)."""
    from rich.text import Text

    out = make_console()
    colours = {"holds": "green", "supported": "green", "imprecise": "yellow", "partly supported": "yellow"}
    summary = table("Claims")
    for col in ("claim", "source", "verdict"):
        summary.add_column(col, overflow="fold")
    for r in results:
        summary.add_row(
            Text(str(r["id"])), Text(str(r["source"])), Text(str(r["verdict"]), style=colours.get(r["verdict"], "red"))
        )
    out.print(summary)
    for r in results:
        out.print()
        out.print(Text(f"{r['id']} ({r['source']}): {r['verdict']}", style="bold"))
        out.print(Text(f"\u201c{r['quote']}\u201d"))
        out.print(Text(f"criterion: {r['criterion']}", style="dim"))
        numbers = table(boxed=False, pad_edge=False)
        numbers.add_column("number", overflow="fold")
        numbers.add_column("value", overflow="fold")
        for name, value in _flat(r["numbers"]):
            numbers.add_row(Text(name), Text(value))
        out.print(numbers)


def register(app: typer.Typer) -> None:
    app.add_typer(odds_app, name="odds")
