"""Variable modifiers (seed 000) and pressing your luck (seed 003).

A static modifier beyond +-1 becomes dice added to (or, for a penalty, subtracted from) the resolution roll;
from +-11 the pattern repeats every 10 points (+13 = 1d20 + 1d6, -15 = -(1d20 + 1d10)). Never on damage, hit
points or percentile rolls, and not when taking 10, 16, 18 or 20. Pressing your luck is the same conversion,
chosen before a 3d6 roll; the variable dice are rolled apart from the 3d6, so naturals are read from the 3d6
alone, and modifiers the roller did not know are added afterwards, static.
"""

from __future__ import annotations

from functools import lru_cache

from arena.dice import DiceExpr, parse

VARIABLE_BONUS = {1: "1", 2: "1d4", 3: "1d6", 4: "1d8", 5: "1d10", 6: "1d12", 7: "2d6", 8: "3d4", 9: "2d8", 10: "1d20"}
"""Table: Variable Bonuses (+1 to +10). Penalties mirror it (Table: Variable Penalties)."""
REPEAT = 10
"""Starting at +-11 the pattern repeats every 10 points."""
PRESS_LUCK_FORBIDDEN = ("unconscious", "initiative", "flat-footed defense")
"""You can't press your luck while unconscious, on initiative checks, or on flat-footed AC, touch AC or CMD rolls."""
PRESS_LUCK_CLAIMS = {5: 2.24, 15: 3.81}
"""Seed 003: "at modifier 5, you're 2.24x as likely to roll a 20 (best roll -3) or better by pressing your luck.
At modifier 15 though, you're 3.81x as likely to roll a 30 (best roll -3) or better"."""


MAX_WRITTEN_OUT = 5
""":func:`variable_text` writes up to five d20s one by one (``1d20+1d20+1d6``, as the document's table does);
more are counted (``20d20`` for +200), so the text stays short whatever the modifier."""


def _signed(parts: list[str], modifier: int) -> str:
    body = "+".join(parts)
    if modifier > 0:
        return body
    return f"-({body})" if len(parts) > 1 else f"-{body}"


@lru_cache(maxsize=512)
def variable_text(modifier: int) -> str:
    """The dice a static modifier becomes: ``+13`` -> ``1d20+1d6``, ``-15`` -> ``-(1d20+1d10)``, ``0`` -> ``0``;
    past five d20s they are counted: ``+200`` -> ``20d20``."""
    size = abs(modifier)
    if size == 0:
        return "0"
    tens, rest = divmod(size, REPEAT)
    d20s = ["1d20"] * tens if tens <= MAX_WRITTEN_OUT else [f"{tens}d20"]
    return _signed(d20s + ([VARIABLE_BONUS[rest]] if rest else []), modifier)


@lru_cache(maxsize=512)
def variable_dice(modifier: int) -> DiceExpr:
    """The variable equivalent of ``modifier`` as a dice expression, the d20s counted in one term (``4d20+1d6``):
    the same dice, rolled in the same order, as ``1d20+1d20+1d20+1d20+1d6``, and within the parser's limits on
    terms and dice for any modifier the kernel accepts."""
    size = abs(modifier)
    if size == 0:
        return parse("0")
    tens, rest = divmod(size, REPEAT)
    return parse(_signed(([f"{tens}d20"] if tens else []) + ([VARIABLE_BONUS[rest]] if rest else []), modifier))


def table_row(modifier: int) -> dict:
    """One row of ``arena odds modifiers``: dice, mean, variance, and drift of the mean from the static value."""
    die = variable_dice(modifier).exact()
    mean = die.mean()
    return {
        "modifier": modifier,
        "dice": variable_text(modifier),
        "mean": float(mean),
        "variance": float(die.variance()),
        "drift": float(mean - modifier),
    }
