"""The text the importer reads, and the few ways it reads any of it: a :class:`Cell` (text and its line), a
:class:`RawBlock` (one creature's stat block as text, found by :mod:`arena.srd.blocks`), and the helpers every
reader uses: the canonical field names, :func:`clean`, :func:`is_dash`, the one number reader :func:`number`,
:func:`top_level_split`, and :func:`drop_parens` and :func:`search_chain`, which do in linear time what a
regular expression did in quadratic time on a hostile line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from arena.dice import parse as parse_dice
from arena.limits import MAX_IMPORT_DIGITS
from arena.srd.patterns import SIZE_WORDS, TYPE_WORDS

FIELDS = (
    "Size/Type",
    "Hit Dice",
    "Initiative",
    "Speed",
    "Armor Class",
    "Base Attack/Grapple",
    "Attack",
    "Full Attack",
    "Space/Reach",
    "Special Attacks",
    "Special Qualities",
    "Saves",
    "Abilities",
    "Skills",
    "Feats",
    "Environment",
    "Organization",
    "Challenge Rating",
    "Treasure",
    "Alignment",
    "Advancement",
    "Level Adjustment",
)
"""The fields of an SRD 3.5 stat block, in the SRD's order (``Size/Type`` is the web pages' name for the line
under the creature's name)."""

ALIASES = {
    "special qualitiy": "Special Qualities",
    "special quality": "Special Qualities",
    "special attack": "Special Attacks",
    "base attack / grapple": "Base Attack/Grapple",
    "base attack": "Base Attack/Grapple",
    "armour class": "Armor Class",
    "space / reach": "Space/Reach",
    "full attacks": "Full Attack",
    "attacks": "Attack",
    "challenge ratings": "Challenge Rating",
    "size / type": "Size/Type",
    "save": "Saves",
    "ability scores": "Abilities",
    "ac": "Armor Class",
}
"""Labels the SRD pages misspell or vary (``Special Qualitiy:``), as their field."""
_BY_KEY = {f.lower(): f for f in FIELDS} | ALIASES

TYPE_LINE = re.compile(
    rf"^\s*(?:({'|'.join(SIZE_WORDS)})(?:[- ]size)?\s+)?({'|'.join(TYPE_WORDS)})\b"
    r"(?:\s*(\([^)]*\)?))?\s*$",
    re.IGNORECASE,
)
"""A size-and-type line: ``Large Giant``, ``Medium Outsider (Evil, Lawful)``, ``Huge Elemental (Air,
Extraplanar)``. One ``\\s*`` before the end: two in a row rescan a run of spaces."""

DASHES = ("--", "—", "–", "-", "---", "none", "None", "—-")
"""What a field holds when the creature has none: ``Special Attacks: --``."""

ROUNDS_PER = {"round": 1, "minute": 10, "hour": 600}
"""SRD 3.5: a round is 6 seconds."""


@dataclass(frozen=True)
class Cell:
    """A piece of text and the (1-based) line of the source it starts on."""

    text: str
    line: int


@dataclass
class RawBlock:
    """One creature's stat block as text: where it is, its title, type line and fields."""

    file: str
    line: int
    title: str
    title_guessed: bool
    type_line: Cell | None
    fields: dict[str, Cell]
    layout: str
    """``table`` (a Markdown table column), ``lines`` (``Field: value`` lines) or ``dragon tables`` (a true
    dragon's row of its variety's tables by age)."""
    column: int = 0
    columns: int = 1
    description: list[Cell] = field(default_factory=list)
    """The prose after the block (its ability descriptions), shared by the columns of one table group."""
    problems: list[tuple[int, str, str, str]] = field(default_factory=list)
    """``(line, field, text, message)``: what the layout itself got wrong (a row with too few cells ...)."""
    context: tuple[str, ...] = ()
    """Every line of the file (a family's general rules above the block: "a mephit can use its breath weapon
    once every 1d4 rounds")."""
    context_end: int | None = None
    """Where the creature's own section of ``context`` ends (its spells are read up to there), when it is known."""

    def get(self, name: str) -> Cell | None:
        return self.fields.get(name)


def field_name(label: str) -> str | None:
    """The canonical field of a label (``Special Qualitiy:`` -> ``Special Qualities``), or None."""
    key = " ".join(label.strip().rstrip(":").strip().lower().split())
    return _BY_KEY.get(key)


def is_type_line(text: str) -> bool:
    """``Large Giant``, ``Medium Outsider (Evil, Lawful)``, ``Huge Elemental (Air, Extraplanar)``."""
    return bool(TYPE_LINE.match(text.strip()))


def title_case(text: str) -> str:
    """``BEAR, BLACK`` -> ``Bear, Black``; ``WILL-O'-WISP`` -> ``Will-O'-Wisp`` (the small words of the second word on:
    ``MAN OF WAR`` -> ``Man of War``); mixed case is kept."""
    if text != text.upper():
        return text.strip()
    small = {"of", "the", "and", "o'", "with"}
    words: list[str] = []
    for word in text.lower().split():
        parts = word.split("-")
        parts = [p if p in small and words else p[:1].upper() + p[1:] for p in parts]
        words.append("-".join(parts))
    return " ".join(words).strip()


# --------------------------------------------------------------------------------------------- reading any text
def clean(text: str) -> str:
    """The text with the SRD's typographic minus, en dash and times sign as ``-`` and ``x``, blanks made one space."""
    return " ".join(text.replace("−", "-").replace("–", "-").replace("×", "x").split())


def is_dash(text: str | None) -> bool:
    """Whether a field holds nothing: missing, blank, or a dash (:data:`DASHES`)."""
    return text is None or text.strip().strip("*").strip() in DASHES or not text.strip()


class NumberTooLarge(ValueError):
    """A number of more than :data:`~arena.limits.MAX_IMPORT_DIGITS` digits in an imported stat block."""


def number(text: str | int) -> int:
    """The whole number ``text`` holds (``12``, ``+5``, ``- 3``, ``1,200``): every whole number the importer reads
    goes through here. More than :data:`~arena.limits.MAX_IMPORT_DIGITS` digits is :class:`NumberTooLarge` (never
    Python's ValueError for a 4,300-digit string, and no creature has a number that large)."""
    if isinstance(text, int):
        return text
    compact = text.replace(" ", "").replace(",", "")
    digits = compact.lstrip("+-")
    if len(digits) > MAX_IMPORT_DIGITS:
        shown = digits[:12] + "..." if len(digits) > 12 else digits
        raise NumberTooLarge(f"number too large ({shown}: {len(digits):,} digits; the limit is {MAX_IMPORT_DIGITS})")
    return int(compact)


def signed(text: str) -> int:
    """A bonus: ``+5``, ``-2``, ``+ 3``."""
    return number(text.replace(" ", "").replace("+", ""))


def dice_text(text: str) -> str:
    """Dice as the stat block writes them: ``2d6 + 3`` -> ``2d6+3``."""
    return text.replace(" ", "")


def in_rounds(amount: str, unit: str) -> tuple[str, str | None]:
    """``1d4+1`` rounds as dice; minutes and hours as their average in rounds (RoundsDice holds no product), with
    what was done."""
    amount = dice_text(amount)
    per = ROUNDS_PER[unit.lower()]
    if per == 1:
        return amount, None
    expr = parse_dice(amount)
    mean = Fraction(expr.minimum + expr.maximum, 2)  # a sum of dice is symmetric about its middle
    rounds = max(1, round(mean * per))
    return str(rounds), (
        f"{amount} {unit}s is {per} x {amount} rounds, which a dice expression cannot write: "
        f"stored as its average, {rounds} rounds (a fight is over long before)"
    )


def top_level_split(text: str, separators: tuple[str, ...]) -> list[str]:
    """``text`` split at separators outside parentheses (the longest separator first), each part stripped, empty
    parts left out: ``2 claws +9 melee (1d6+6, 1d4) and bite +4 melee (1d6+3)`` at `` and `` is two parts."""
    out, depth, cur, i = [], 0, "", 0
    seps = sorted(separators, key=len, reverse=True)
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if depth == 0:
            hit = next((s for s in seps if text.startswith(s, i)), None)
            if hit:
                out.append(cur)
                cur = ""
                i += len(hit)
                continue
        cur += ch
        i += 1
    out.append(cur)
    return [p.strip() for p in out if p.strip()]


def drop_parens(text: str, repl: str = " ") -> str:
    r"""``re.sub(r"\(.*?\)", repl, text)`` in linear time: each ``(...)`` (to the first ``)``, on one line) is
    ``repl``. The regular expression rescans the rest of the text from every ``(`` that has no ``)`` after it."""
    out: list[str] = []
    kept = pos = 0
    close = -1
    while True:
        start = text.find("(", pos)
        if start < 0:
            break
        if close <= start:
            close = text.find(")", start + 1)
            if close < 0:
                break
        newline = text.find("\n", start + 1, close)
        if newline >= 0:  # "." stops at a line's end: no "(" before it closes
            pos = newline + 1
            continue
        out += (text[kept:start], repl)
        kept = pos = close + 1
    out.append(text[kept:])
    return "".join(out)


@dataclass(frozen=True)
class Chain:
    """The groups of a :func:`search_chain`: ``group(1)`` is the first, as a match's."""

    groups: tuple[str | Any, ...]

    def group(self, index: int) -> str | Any:
        """As ``re.Match.group``'s type says: the text of a group (None for one that took no part)."""
        return self.groups[index - 1]


def search_chain(text: str, *parts: str, flags: int = 0) -> Chain | None:
    """What ``re.search(".*?".join(parts), text, flags)`` finds, in linear time: the first match of each part after
    the end of the one before, on one line (``.`` stops at a line's end). The one pattern rescans the rest of the
    text from every match of its first part that has no match of the others after it. No part may match a line
    break."""
    for line in text.split("\n"):
        pos, groups = 0, list[str | Any]()
        for part in parts:
            m = re.compile(part, flags).search(line, pos)
            if m is None:
                break
            pos = m.end()
            groups += m.groups()
        else:
            return Chain(tuple(groups))
    return None
