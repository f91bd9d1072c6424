"""`arena odds ...`: exact odds of single rolls under any variant."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import typer
from rich.console import Console
from rich.table import Table

from arena.errors import ArenaError, RulesError
from arena.limits import MAX_MODIFIER
from arena.rules import Check, RuleSet, odds, roll_claims
from arena.rules.kernel import MAX_MULTIPLIER, shown_number

odds_app = typer.Typer(help="Exact odds of single rolls under the house-rule variants.", no_args_is_help=True)
console = Console(width=None if sys.stdout.isatty() else 160)
"""Wide tables when printing to a file or pipe, where there is no terminal width to respect."""


class Die(StrEnum):
    d20 = "d20"
    bell = "3d6"
    fixed10 = "fixed10"


class Modifiers(StrEnum):
    static = "static"
    variable = "variable"
    press_luck = "press-luck"


class Side(StrEnum):
    pc = "pc"
    monster = "monster"


# Options shared by every roll command (typer reads them from each signature).
DIE = typer.Option(Die.d20, "--die", help="The resolution die.")
PRAD = typer.Option(False, "--players-roll-all", help="Players roll all the dice.")
MODS = typer.Option(Modifiers.static, "--modifiers", help="Static, variable, or press-luck modifiers.")
OPEN = typer.Option(False, "--open-ended", help="Open-ended (exploding) rolls.")
RULES = typer.Option(None, "--rules", help="A rule-set key such as 3d6+prad+luck; overrides the flags.")
HIDDEN = typer.Option(0, "--hidden-modifier", help="A modifier the roller does not know (applied static).")
ALL = typer.Option(False, "--all-variants", help="One row per rule set, side by side.")
JSON = typer.Option(False, "--json", help="Print JSON.")
PRESS = typer.Option(False, "--press-luck", help="The roller presses luck.")
REROLL = typer.Option(False, "--luck-reroll", help="The roller uses the Luck domain reroll if the roll fails.")
AUSPICIOUS = typer.Option(False, "--auspicious", help="The roller is under auspicious odds (3d6 only).")


def _within(option: str, value: int, low: int = -MAX_MODIFIER, high: int = MAX_MODIFIER) -> int:
    """``value`` of ``option`` if it lies in low..high, else a one-line error naming the option and the limit
    (the limits are :data:`arena.limits.MAX_MODIFIER` for every modifier, bonus, AC, DC, SR and target)."""
    if not low <= value <= high:
        raise ArenaError(f"{option} {shown_number(value)} is outside {low}..{high} (the limit; see docs/limits.md)")
    return value


def _rules(die: Die, prad: bool, mods: Modifiers, open_ended: bool, key: str | None) -> RuleSet:
    if key:
        return RuleSet.from_key(key)
    return RuleSet(die=die.value, players_roll_all=prad, modifiers=mods.value, open_ended=open_ended)


def _show(check: Check, rules: RuleSet, all_variants: bool, as_json: bool) -> None:
    objects = odds.all_variants(check) if all_variants else [odds.odds_object(check, rules)]
    if as_json:
        print(json.dumps(objects if all_variants else objects[0], indent=2))
        return
    names = [n for n in odds.OUTCOME_ORDER if any(n in o["outcomes"] for o in objects)]
    table = Table(title=_describe(check), show_lines=False)
    table.add_column("rules", no_wrap=True)
    table.add_column("roller")
    for name in names:
        table.add_column(name, justify="right")
    for obj in objects:
        cells = []
        for name in names:
            entry = obj["outcomes"].get(name)
            if entry is None:
                cells.append("-")
            elif all_variants:      # many rows: percentages only (--json has the fractions)
                cells.append(f"{entry['p'] * 100:.3f}%")
            else:
                cells.append(f"{entry['p'] * 100:.3f}%\n{_short(entry['exact'])}")
        table.add_row(obj["rules"]["key"], obj["roller"], *cells)
    console.print(table)
    if any("truncated" in o for o in objects):
        console.print("Open-ended chains are infinite: computed to a depth whose error is below 1e-12.")


def _short(fraction: str) -> str:
    return fraction if len(fraction) <= 24 else "(" + str(len(fraction.split("/")[1])) + "-digit denominator)"


def _describe(check: Check) -> str:
    extras = [name for flag, name in ((check.press_luck, "luck pressed"), (check.luck_reroll, "Luck reroll"),
                                      (check.auspicious, "auspicious odds")) if flag]
    return (f"{check.kind} by a {check.side}: modifier {check.modifier:+d}"
            + (f" (hidden {check.hidden:+d})" if check.hidden else "") + f" against {check.target}"
            + (f" ({', '.join(extras)})" if extras else ""))


def _bonuses(text: str) -> list[int]:
    """``8`` or a full attack routine ``13/8/3``."""
    try:
        values = [int(part) for part in text.replace(" ", "").split("/") if part != ""]
    except ValueError:
        raise typer.BadParameter(f"--bonus {text!r}: an attack bonus such as 8, or a routine such as 13/8/3") from None
    if not values or len(values) > 8:
        raise typer.BadParameter(f"--bonus {text!r}: one to eight attack bonuses separated by /")
    return [_within("--bonus", v) for v in values]


def _damage_lines(check: Check, rules: RuleSet, damage: str, bonuses: list[int]) -> dict:
    """Expected damage per attack and per full attack routine, criticals included."""
    from arena.dice import parse

    try:
        mean = parse(damage).mean
    except ArenaError as err:
        raise typer.BadParameter(f"--damage: {err}") from None
    per = [odds.expected_damage(check._replace(modifier=b), rules, mean) for b in bonuses]
    return {"damage": damage, "mean_damage": mean, "per_attack": dict(zip([f"{b:+d}" for b in bonuses], per,
                                                                           strict=True)),
            "per_routine": sum(per)}


@odds_app.command()
def attack(bonus: str = typer.Option(..., "--bonus", help="Attack bonus, or a full attack routine such as "
                                                             "13/8/3 (the odds are for the first)."),
           ac: int = typer.Option(..., "--ac", help="The target's AC."),
           threat: str = typer.Option("20", "--threat", help="Threat range, e.g. 19-20."),
           multiplier: int = typer.Option(2, "--multiplier", help="Critical multiplier."),
           attacker: Side = typer.Option(Side.pc, "--attacker", help="The side that attacks."),
           flat_footed: bool = typer.Option(False, "--flat-footed", help="The defender is flat-footed."),
           die: Die = DIE, players_roll_all: bool = PRAD, modifiers: Modifiers = MODS, open_ended: bool = OPEN,
           rules: str = RULES, hidden_modifier: int = HIDDEN, press_luck: bool = PRESS, luck_reroll: bool = REROLL,
           auspicious: bool = AUSPICIOUS, all_variants: bool = ALL, json_: bool = JSON,
           damage: str | None = typer.Option(None, "--damage", help="Damage of a hit, e.g. 2d6+7: adds the "
                                                                   "expected damage per attack and per routine.")
           ) -> None:
    """Odds of an attack roll (or, under players roll all, the player's defense check)."""
    bonuses = _bonuses(bonus)
    check = Check("attack", attacker.value, bonuses[0], _within("--ac", ac),
                  _within("--hidden-modifier", hidden_modifier), odds.parse_threat(threat),
                  _within("--multiplier", multiplier, 2, MAX_MULTIPLIER), flat_footed=flat_footed,
                  press_luck=press_luck, luck_reroll=luck_reroll, auspicious=auspicious)
    chosen = _rules(die, players_roll_all, modifiers, open_ended, rules)
    if damage is None or all_variants:
        _show(check, chosen, all_variants, json_)
        return
    expected = _damage_lines(check, chosen, damage, bonuses)
    if json_:
        print(json.dumps({**odds.odds_object(check, chosen), "expected_damage": expected}, indent=2))
        return
    _show(check, chosen, False, False)
    per = ", ".join(f"{b} {v:.2f}" for b, v in expected["per_attack"].items())
    console.print(f"expected damage ({damage}, mean {expected['mean_damage']:g}, x{check.multiplier} on a "
                  f"critical): per attack {per}; per full attack routine {expected['per_routine']:.2f}")


@odds_app.command()
def save(save_bonus: int = typer.Option(..., "--save", help="The saving creature's save bonus."),
         dc: int = typer.Option(..., "--dc", help="The save DC."),
         caster: Side = typer.Option(Side.pc, "--caster", help="The side that cast the spell."),
         die: Die = DIE, players_roll_all: bool = PRAD, modifiers: Modifiers = MODS, open_ended: bool = OPEN,
         rules: str = RULES, hidden_modifier: int = HIDDEN, press_luck: bool = PRESS, luck_reroll: bool = REROLL,
         auspicious: bool = AUSPICIOUS, all_variants: bool = ALL, json_: bool = JSON) -> None:
    """Odds of a saving throw (or, under players roll all, the player's magic check). `success` = the save succeeds."""
    saver = "monster" if caster is Side.pc else "pc"
    check = Check("save", saver, _within("--save", save_bonus), _within("--dc", dc),
                  _within("--hidden-modifier", hidden_modifier), opponent=caster.value, press_luck=press_luck,
                  luck_reroll=luck_reroll, auspicious=auspicious)
    _show(check, _rules(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


@odds_app.command()
def sr(caster_level: int = typer.Option(..., "--caster-level", help="Caster level (plus Spell Penetration)."),
       sr_: int = typer.Option(..., "--sr", help="The target's spell resistance."),
       caster: Side = typer.Option(Side.pc, "--caster", help="The side that cast the spell."),
       die: Die = DIE, players_roll_all: bool = PRAD, modifiers: Modifiers = MODS, open_ended: bool = OPEN,
       rules: str = RULES, hidden_modifier: int = HIDDEN, press_luck: bool = PRESS, luck_reroll: bool = REROLL,
       auspicious: bool = AUSPICIOUS, all_variants: bool = ALL, json_: bool = JSON) -> None:
    """Odds of a caster level check against spell resistance. `success` = the spell gets through."""
    check = Check("caster-level", caster.value, _within("--caster-level", caster_level, 0),
                  _within("--sr", sr_, 0), _within("--hidden-modifier", hidden_modifier), press_luck=press_luck,
                  luck_reroll=luck_reroll, auspicious=auspicious)
    _show(check, _rules(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


@odds_app.command()
def check(modifier: int = typer.Option(..., "--modifier", help="The check's modifier."),
          target: int = typer.Option(..., "--target", help="The DC or target number."),
          take: int = typer.Option(None, "--take", help="Take 10, 16, 18 or 20."),
          kind: str = typer.Option("skill", "--kind", help="skill, ability or initiative."),
          die: Die = DIE, players_roll_all: bool = PRAD, modifiers: Modifiers = MODS, open_ended: bool = OPEN,
          rules: str = RULES, hidden_modifier: int = HIDDEN, press_luck: bool = PRESS, luck_reroll: bool = REROLL,
          auspicious: bool = AUSPICIOUS, all_variants: bool = ALL, json_: bool = JSON) -> None:
    """Odds of a skill, ability or initiative check."""
    if kind not in ("skill", "ability", "initiative"):
        raise RulesError(f"--kind must be skill, ability or initiative, not {kind[:40]!r}")
    chk = Check(kind, "pc", _within("--modifier", modifier), _within("--target", target),
                _within("--hidden-modifier", hidden_modifier),
                take=None if take is None else _within("--take", take, 0, 20), press_luck=press_luck,
                luck_reroll=luck_reroll, auspicious=auspicious)
    _show(chk, _rules(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


@odds_app.command("modifiers")
def modifiers_table(json_: bool = JSON) -> None:
    """The variable-modifier table from -25 to +25: dice, mean, variance, drift from the static value."""
    rows = odds.modifier_table()
    if json_:
        print(json.dumps(rows, indent=2))
        return
    table = Table(title="Variable modifiers (seed 000, 003)")
    for col in ("modifier", "dice", "mean", "variance", "drift"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(f"{r['modifier']:+d}", r["dice"], f"{r['mean']:+.2f}", f"{r['variance']:.2f}",
                      f"{r['drift']:+.2f}")
    console.print(table)


@odds_app.command("press-luck")
def press_luck_table(json_: bool = JSON) -> None:
    """For modifiers 1-25, the chance to roll (18 + modifier - 3) or better, static against pressed."""
    rows = odds.press_luck_table()
    if json_:
        print(json.dumps([{k: r[k] for k in ("modifier", "p_static", "p_pressed", "ratio")} for r in rows],
                         indent=2))
        return
    table = Table(title="Press your luck: P(3d6 + modifier >= 18 + modifier - 3)")
    for col in ("modifier", "target", "static", "pressed", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(f"{r['modifier']:+d}", str(r["target"]), f"{r['p_static'] * 100:.2f}%",
                      f"{r['p_pressed'] * 100:.2f}%", f"{r['ratio']:.3f}x")
    console.print(table)


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

    from arena.cli.common import console as make_console

    out = make_console()
    colours = {"holds": "green", "supported": "green", "imprecise": "yellow", "partly supported": "yellow"}
    summary = Table(title="Claims", show_lines=False)
    for col in ("claim", "source", "verdict"):
        summary.add_column(col, overflow="fold")
    for r in results:
        summary.add_row(Text(str(r["id"])), Text(str(r["source"])),
                        Text(str(r["verdict"]), style=colours.get(r["verdict"], "red")))
    out.print(summary)
    for r in results:
        out.print()
        out.print(Text(f"{r['id']} ({r['source']}): {r['verdict']}", style="bold"))
        out.print(Text(f"\u201c{r['quote']}\u201d"))
        out.print(Text(f"criterion: {r['criterion']}", style="dim"))
        numbers = Table(show_header=True, box=None, pad_edge=False)
        numbers.add_column("number", overflow="fold")
        numbers.add_column("value", overflow="fold")
        for name, value in _flat(r["numbers"]):
            numbers.add_row(Text(name), Text(value))
        out.print(numbers)


def register(app: typer.Typer) -> None:
    app.add_typer(odds_app, name="odds")
