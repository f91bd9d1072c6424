"""`arena odds ...`: exact odds of single rolls under any variant."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from arena.cli.common import cell, fail
from arena.cli.common import console as make_console
from arena.cli.common import table as make_table
from arena.cli.progress import Progress
from arena.errors import ArenaError, RulesError
from arena.labels import printable
from arena.limits import MAX_MODIFIER
from arena.rules import Check, RuleSet, odds, roll_claims
from arena.rules.kernel import MAX_MULTIPLIER, shown_number

odds_app = typer.Typer(help="Exact odds of single rolls under the house-rule variants.", no_args_is_help=True)

MAX_SWEEP = 101
"""Values in one sweep (``--ac 15..25``, ``--bonus 0..20``): AC -50..50 in one go; more is a mistake, refused."""
MAX_RULE_KEYS = 48
"""Rule-set keys in one ``--rules A,B,...`` (the default grid has 48)."""
NUMBER = re.compile(r"[+-]?[0-9]{1,40}")
"""One number of a range or a routine: ASCII digits only (``int`` would also take "１２" or "1_0")."""
RANGE = re.compile(rf"{NUMBER.pattern}(\.\.{NUMBER.pattern})?")
"""A number or an inclusive range ``A..B``."""
TRUNCATED = "Open-ended chains are infinite: computed to a depth whose error is below 1e-12."
"""The note under a table with an open-ended (truncated) chain."""


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
RULES = typer.Option(
    None,
    "--rules",
    help="A rule-set key such as 3d6+prad+luck, or several separated by commas "
    "(d20,3d6: one row each); overrides the flags.",
)
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


def _rule_sets(die: Die, prad: bool, mods: Modifiers, open_ended: bool, key: str | None) -> list[RuleSet]:
    """The rule sets asked for: ``--rules`` (one key or several, comma-separated), else the variant flags."""
    if key is None:
        return [RuleSet(die=die.value, players_roll_all=prad, modifiers=mods.value, open_ended=open_ended)]
    keys = list(dict.fromkeys(k.strip() for k in key.split(",") if k.strip()))
    if not keys:
        raise RulesError("--rules: give a rule-set key such as 3d6+prad+luck, or several separated by commas")
    if len(keys) > MAX_RULE_KEYS:
        raise RulesError(f"--rules: {len(keys):,} rule sets; at most {MAX_RULE_KEYS} at once (or --all-variants)")
    return [RuleSet.from_key(k) for k in keys]


def _show(check: Check, rule_sets: list[RuleSet], all_variants: bool, as_json: bool) -> None:
    objects = odds.all_variants(check) if all_variants else [odds.odds_object(check, r) for r in rule_sets]
    many = len(objects) > 1 or all_variants
    if as_json:
        print(json.dumps(objects if many else objects[0], indent=2))
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
            elif many:  # many rows: percentages only (--json has the fractions)
                cells.append(f"{entry['p'] * 100:.3f}%")
            else:
                cells.append(f"{entry['p'] * 100:.3f}%\n{_short(entry['exact'])}")
        table.add_row(obj["rules"]["key"], obj["roller"], *cells)
    out = make_console()
    out.print(table)
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


# --------------------------------------------------------------------------------------------- attack sweeps
def _number(text: str) -> int | None:
    return int(text) if NUMBER.fullmatch(text) else None


def _values(option: str, text: str, example: str) -> tuple[list[int], bool]:
    """``18`` -> ([18], False); an inclusive range ``15..25`` -> ([15, 16, ..., 25], True). Anything else, an
    empty range (``25..15``) or one longer than :data:`MAX_SWEEP` values is an ArenaError naming ``option``."""
    raw = text.strip()
    shown = repr(printable(raw, limit=40))
    low, sep, high = raw.partition("..")
    first = _number(low.strip())
    last = _number(high.strip()) if sep else first
    if first is None or last is None:
        raise ArenaError(
            f"{option} {shown}: write a number such as {example} or an inclusive range A..B such "
            f"as {example}..{int(example) + 10}"
        )
    _within(option, first)
    _within(option, last)
    if last < first:
        raise ArenaError(f"{option} {shown}: the range is empty; write the smaller number first ({last}..{first})")
    if last - first + 1 > MAX_SWEEP:
        raise ArenaError(f"{option} {shown}: {last - first + 1:,} values; a sweep has at most {MAX_SWEEP}")
    return list(range(first, last + 1)), bool(sep)


def _routines(text: str) -> tuple[list[list[int]], bool]:
    """``--bonus``: one bonus (``8``), a full attack routine (``13/8/3``), or either swept (``0..20``,
    ``8..13/3..8``: every range in a routine has the same length and they step together). One routine per value
    of the sweep, and whether it is one."""
    parts = [part for part in text.replace(" ", "").split("/") if part != ""]
    if not parts or len(parts) > 8 or not all(RANGE.fullmatch(part) for part in parts):
        raise ArenaError(
            f"--bonus {printable(text, limit=40)!r}: an attack bonus such as 8, a routine such as "
            "13/8/3 (one to eight attacks), or a range to sweep such as 0..20"
        )
    swept = [_values("--bonus", part, "8") for part in parts]
    ranges = {len(values) for values, is_range in swept if is_range}
    if len(ranges) > 1 or (ranges and not swept[0][1]):
        raise ArenaError(
            f"--bonus {printable(text, limit=40)!r}: in a swept routine the first bonus is a range "
            "and every range has as many values (8..13/3..8)"
        )
    if not ranges:
        return [[values[0] for values, _ in swept]], False
    count = ranges.pop()
    return [[values[i] if is_range else values[0] for values, is_range in swept] for i in range(count)], True


def sweep_rows(
    check: Check,
    rule_sets: list[RuleSet] | None,
    acs: list[int],
    routines: list[list[int]],
    damage: str | None = None,
    progress: Progress | None = None,
) -> list[dict]:
    """One row per AC, routine and rule set (``None``: every single-roll rule set that allows the check): the odds
    object of ``arena odds attack --json`` with the ``ac`` and ``bonus`` (the routine's first) in front and, with
    ``damage``, the expected damage per attack and per full routine."""
    mean = None
    if damage is not None:
        from arena.dice import parse

        try:
            mean = parse(damage).mean
        except ArenaError as err:
            raise ArenaError(f"--damage: {err}") from None
    candidates = odds.kernel_variants() if rule_sets is None else rule_sets
    rows = []
    for ac in acs:
        for bonuses in routines:
            first = check._replace(modifier=bonuses[0], target=ac)
            for rules in candidates:
                try:
                    obj = odds.odds_object(first, rules)
                except RulesError:
                    if rule_sets is None:  # --all-variants: the rule sets that refuse the check are left out
                        continue
                    raise
                row: dict[str, Any] = {"ac": ac, "bonus": bonuses[0]}
                if len(bonuses) > 1:
                    row["routine"] = bonuses
                row.update(obj)
                if mean is not None:
                    row["expected_damage"] = _expected(first, rules, damage, mean, bonuses)
                rows.append(row)
                if progress is not None:
                    progress.advance()
    if not rows:
        raise RulesError("no rule set allows this check")
    return rows


def _expected(check: Check, rules: RuleSet, damage: str, mean: float, bonuses: list[int]) -> dict:
    """Expected damage per attack and per full attack routine, criticals included."""
    per = [odds.expected_damage(check._replace(modifier=b), rules, mean) for b in bonuses]
    return {
        "damage": damage,
        "mean_damage": mean,
        "per_attack": dict(zip([f"{b:+d}" for b in bonuses], per, strict=True)),
        "per_routine": sum(per),
    }


def _percent(row: dict, name: str) -> str:
    entry = row["outcomes"].get(name)
    return "-" if entry is None else f"{entry['p'] * 100:.3f}%"


def _print_rows(rows: list[dict], title: str, swept: str | None) -> None:
    """The sweep as a table: one row per value (and rule set), hit, threat and critical chance, expected damage."""
    keys = list(dict.fromkeys(r["rules"]["key"] for r in rows))
    damage = "expected_damage" in rows[0]
    routine = any("routine" in r for r in rows)
    columns = ([] if swept is None else ["AC" if swept == "ac" else "bonus"]) + [
        "rules",
        "roller",
        "hit",
        "threat",
        "critical",
    ]
    if damage:
        columns += ["damage per attack", "per routine"] if routine else ["expected damage"]
    t = make_table(
        title,
        columns,
        right=("AC", "bonus", "hit", "threat", "critical", "damage per attack", "per routine", "expected damage"),
    )
    last = None
    for r in rows:
        value = r["ac"] if swept == "ac" else r["routine"] if swept and "routine" in r else r["bonus"]
        if len(keys) > 1 and swept is not None and last is not None and value != last:
            t.add_section()
        last = value
        cells = (
            []
            if swept is None
            else [
                str(value)
                if swept == "ac"
                else "/".join(f"{b:+d}" for b in (value if isinstance(value, list) else [value]))
            ]
        )
        cells += [
            cell(r["rules"]["key"]),
            r["roller"],
            _percent(r, "hit"),
            _percent(r, "threat"),
            _percent(r, "critical"),
        ]
        if damage:
            e = r["expected_damage"]
            if routine:
                cells += [" / ".join(f"{v:.2f}" for v in e["per_attack"].values()), f"{e['per_routine']:.2f}"]
            else:
                cells.append(f"{e['per_routine']:.2f}")
        t.add_row(*cells)
    out = make_console()
    out.print(t)
    if damage:
        e = rows[0]["expected_damage"]
        out.print(
            f"expected damage: {printable(e['damage'], limit=80)} (mean {e['mean_damage']:g}) a hit, x"
            f"{rows[0]['check']['multiplier']} on a critical"
        )
    if any("truncated" in r for r in rows):
        out.print(TRUNCATED)


def plot_rows(rows: list[dict], path: Path, swept: str, title: str) -> None:
    """A line plot of the sweep: x the swept AC or bonus, y the hit chance (and, with --damage, a second panel of
    the expected damage per full routine), one line per rule set, axes scaled to the data. PNG, Agg backend."""
    import numpy as np
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from arena.study.reports.figures import data_limits, figure
    from arena.study.reports.text import plot_text

    keys = list(dict.fromkeys(r["rules"]["key"] for r in rows))
    damage = "expected_damage" in rows[0]
    routine = any("routine" in r for r in rows)
    panels = 2 if damage else 1
    with figure(path, (6.5 * panels, 4.4), ncols=panels) as (fig, axes):
        axes = list(np.atleast_1d(axes))
        hits_all, damage_all = [], []
        for key in keys:
            mine = [r for r in rows if r["rules"]["key"] == key]
            xs = [r[swept] for r in mine]
            hits = [100 * r["outcomes"].get("hit", {"p": 0.0})["p"] for r in mine]
            hits_all += hits
            axes[0].plot(xs, hits, marker="o", markersize=3, linewidth=1.4, label=plot_text(key))
            if damage:
                spent = [r["expected_damage"]["per_routine"] for r in mine]
                damage_all += spent
                axes[1].plot(xs, spent, marker="o", markersize=3, linewidth=1.4, label=plot_text(key))
        label = "target AC" if swept == "ac" else "attack bonus (the routine's first)"
        axes[0].set_ylim(*data_limits(np.array(hits_all), np.array(hits_all), 0.0, 100.0, least=1.0))
        axes[0].set_ylabel("hit chance (the routine's first attack)" if routine else "hit chance")
        axes[0].yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}%"))
        if damage:
            axes[1].set_ylim(*data_limits(np.array(damage_all), np.array(damage_all), 0.0, None, least=0.1))
            axes[1].set_ylabel("expected damage per full routine" if routine else "expected damage per attack")
        for ax in axes:
            ax.set_xlabel(label)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.grid(True, alpha=0.3)
            if len(keys) > 1:
                ax.legend(fontsize=7 if len(keys) <= 8 else 5, ncol=1 if len(keys) <= 8 else 2)
        fig.suptitle(plot_text(title, limit=120), fontsize=10)


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
        None, "--damage", help="Damage of a hit, e.g. 2d6+7: adds the expected damage per attack and per routine."
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
        routines, bonus_swept = _routines(bonus)
        acs, ac_swept = _values("--ac", ac, "18")
        if bonus_swept and ac_swept:
            raise ArenaError("sweep one of --ac and --bonus at a time (run one sweep per value of the other)")
        swept = "ac" if ac_swept else "bonus" if bonus_swept else None
        if plot is not None:
            if swept is None:
                raise ArenaError("--plot draws a sweep: give --ac or --bonus as a range A..B (--ac 15..25)")
            if plot.suffix.lower() != ".png":
                raise ArenaError(f"--plot {printable(str(plot), limit=80)!r}: the plot is a PNG; name the file *.png")
            if not plot.parent.is_dir():
                raise ArenaError(
                    f"--plot {printable(str(plot), limit=80)!r}: no folder {printable(str(plot.parent), limit=80)!r}"
                )
        check = Check(
            "attack",
            attacker.value,
            routines[0][0],
            acs[0],
            _within("--hidden-modifier", hidden_modifier),
            odds.parse_threat(threat),
            _within("--multiplier", multiplier, 2, MAX_MULTIPLIER),
            flat_footed=flat_footed,
            press_luck=press_luck,
            luck_reroll=luck_reroll,
            auspicious=auspicious,
        )
        chosen = _rule_sets(die, players_roll_all, modifiers, open_ended, rules)
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
    title = _describe(
        check,
        modifier=None if swept != "bonus" else _span(bonus),
        target=None if swept != "ac" else f"{acs[0]}..{acs[-1]}",
    )
    if plot is not None and swept is not None:  # drawn first: a plot that cannot be written leaves no table
        plot_rows(rows, plot, swept, title)
    if json_:
        print(json.dumps(rows, indent=2))
    else:
        _print_rows(rows, title, swept)
    if plot is not None:
        typer.echo(f"wrote {printable(str(plot), limit=4000)}", err=json_)


def _span(bonus: str) -> str:
    """The swept bonus as the title shows it (``+0..+20``, ``+8..+13/+3..+8``)."""

    def one(part: str) -> str:
        low, sep, high = part.partition("..")
        return f"{int(low):+d}" + (f"..{int(high):+d}" if sep else "")

    return "/".join(one(p) for p in bonus.replace(" ", "").split("/") if p)


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
        _within("--save", save_bonus),
        _within("--dc", dc),
        _within("--hidden-modifier", hidden_modifier),
        opponent=caster.value,
        press_luck=press_luck,
        luck_reroll=luck_reroll,
        auspicious=auspicious,
    )
    _show(check, _rule_sets(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


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
        _within("--caster-level", caster_level, 0),
        _within("--sr", sr_, 0),
        _within("--hidden-modifier", hidden_modifier),
        press_luck=press_luck,
        luck_reroll=luck_reroll,
        auspicious=auspicious,
    )
    _show(check, _rule_sets(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


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
        _within("--modifier", modifier),
        _within("--target", target),
        _within("--hidden-modifier", hidden_modifier),
        take=None if take is None else _within("--take", take, 0, 20),
        press_luck=press_luck,
        luck_reroll=luck_reroll,
        auspicious=auspicious,
    )
    _show(chk, _rule_sets(die, players_roll_all, modifiers, open_ended, rules), all_variants, json_)


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
        table.add_row(
            f"{r['modifier']:+d}", r["dice"], f"{r['mean']:+.2f}", f"{r['variance']:.2f}", f"{r['drift']:+.2f}"
        )
    make_console().print(table)


@odds_app.command("press-luck")
def press_luck_table(json_: bool = JSON) -> None:
    """For modifiers 1-25, the chance to roll (18 + modifier - 3) or better, static against pressed."""
    rows = odds.press_luck_table()
    if json_:
        print(json.dumps([{k: r[k] for k in ("modifier", "p_static", "p_pressed", "ratio")} for r in rows], indent=2))
        return
    table = Table(title="Press your luck: P(3d6 + modifier >= 18 + modifier - 3)")
    for col in ("modifier", "target", "static", "pressed", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            f"{r['modifier']:+d}",
            str(r["target"]),
            f"{r['p_static'] * 100:.2f}%",
            f"{r['p_pressed'] * 100:.2f}%",
            f"{r['ratio']:.3f}x",
        )
    make_console().print(table)


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
    summary = Table(title="Claims", show_lines=False)
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
        numbers = Table(show_header=True, box=None, pad_edge=False)
        numbers.add_column("number", overflow="fold")
        numbers.add_column("value", overflow="fold")
        for name, value in _flat(r["numbers"]):
            numbers.add_row(Text(name), Text(value))
        out.print(numbers)


def register(app: typer.Typer) -> None:
    app.add_typer(odds_app, name="odds")
