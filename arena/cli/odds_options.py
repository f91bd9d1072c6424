"""The options every `arena odds` command shares, and the reading of what is typed into them: numbers within
their limits, an inclusive range to sweep (``15..25``), an attack routine (``13/8/3``), rule-set keys."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import typer

from arena.errors import ArenaError, RulesError
from arena.labels import printable
from arena.limits import MAX_MODIFIER
from arena.rules import RuleSet
from arena.rules.check_limits import shown_number

MAX_SWEEP = 101
"""Values in one sweep (``--ac 15..25``, ``--bonus 0..20``): AC -50..50 in one go; more is a mistake, refused."""
MAX_RULE_KEYS = 48
"""Rule-set keys in one ``--rules A,B,...`` (the default grid has 48)."""
NUMBER = re.compile(r"[+-]?[0-9]{1,40}")
"""One number of a range or a routine: ASCII digits only (``int`` would also take "１２" or "1_0")."""
RANGE = re.compile(rf"{NUMBER.pattern}(\.\.{NUMBER.pattern})?")
"""A number or an inclusive range ``A..B``."""


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


def within(
    option: str, value: int, low: int = -MAX_MODIFIER, high: int = MAX_MODIFIER, page: str = "docs/limits.md"
) -> int:
    """``value`` of ``option`` if it lies in low..high, else a one-line error naming the option and the limit
    (the limits are :data:`arena.limits.MAX_MODIFIER` for every modifier, bonus, AC, DC, SR and target), and the
    ``page`` that tells it."""
    if not low <= value <= high:
        raise ArenaError(f"{option} {shown_number(value)} is outside {low}..{high} (the limit; see {page})")
    return value


def asked_rule_sets(die: Die, prad: bool, mods: Modifiers, open_ended: bool, key: str | None) -> list[RuleSet]:
    """The rule sets asked for: ``--rules`` (one key or several, comma-separated), else the variant flags."""
    if key is None:
        return [RuleSet(die=die.value, players_roll_all=prad, modifiers=mods.value, open_ended=open_ended)]
    keys = list(dict.fromkeys(k.strip() for k in key.split(",") if k.strip()))
    if not keys:
        raise RulesError("--rules: give a rule-set key such as 3d6+prad+luck, or several separated by commas")
    if len(keys) > MAX_RULE_KEYS:
        raise RulesError(f"--rules: {len(keys):,} rule sets; at most {MAX_RULE_KEYS} at once (or --all-variants)")
    return [RuleSet.from_key(k) for k in keys]


def _number(text: str) -> int | None:
    return int(text) if NUMBER.fullmatch(text) else None


def sweep_values(option: str, text: str, example: str) -> tuple[list[int], bool]:
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
    within(option, first)
    within(option, last)
    if last < first:
        raise ArenaError(f"{option} {shown}: the range is empty; write the smaller number first ({last}..{first})")
    if last - first + 1 > MAX_SWEEP:
        raise ArenaError(f"{option} {shown}: {last - first + 1:,} values; a sweep has at most {MAX_SWEEP}")
    return list(range(first, last + 1)), bool(sep)


def bonus_routines(text: str, option: str = "--bonus") -> tuple[list[list[int]], bool]:
    """``--bonus``: one bonus (``8``), a full attack routine (``13/8/3``), or either swept (``0..20``,
    ``8..13/3..8``: every range in a routine has the same length and they step together). One routine per value
    of the sweep, and whether it is one. ``option`` is the name errors give it (``--attacks``)."""
    parts = [part for part in text.replace(" ", "").split("/") if part != ""]
    if not parts or len(parts) > 8 or not all(RANGE.fullmatch(part) for part in parts):
        raise ArenaError(
            f"{option} {printable(text, limit=40)!r}: an attack bonus such as 8, a routine such as "
            "13/8/3 (one to eight attacks), or a range to sweep such as 0..20"
        )
    swept = [sweep_values(option, part, "8") for part in parts]
    ranges = {len(values) for values, is_range in swept if is_range}
    if len(ranges) > 1 or (ranges and not swept[0][1]):
        raise ArenaError(
            f"{option} {printable(text, limit=40)!r}: in a swept routine the first bonus is a range "
            "and every range has as many values (8..13/3..8)"
        )
    if not ranges:
        return [[values[0] for values, _ in swept]], False
    count = ranges.pop()
    return [[values[i] if is_range else values[0] for values, is_range in swept] for i in range(count)], True


def bonus_span(bonus: str) -> str:
    """The swept bonus as the title shows it (``+0..+20``, ``+8..+13/+3..+8``)."""

    def one(part: str) -> str:
        low, sep, high = part.partition("..")
        return f"{int(low):+d}" + (f"..{int(high):+d}" if sep else "")

    return "/".join(one(p) for p in bonus.replace(" ", "").split("/") if p)


def check_plot(plot: Path) -> None:
    """``--plot`` names a PNG in a folder that exists: checked before any odds are computed, so that a plot that
    cannot be written costs no wait."""
    if plot.suffix.lower() != ".png":
        raise ArenaError(f"--plot {printable(str(plot), limit=80)!r}: the plot is a PNG; name the file *.png")
    if not plot.parent.is_dir():
        raise ArenaError(
            f"--plot {printable(str(plot), limit=80)!r}: no folder {printable(str(plot.parent), limit=80)!r}"
        )
