"""Reading the numbers out of an SRD 3.5 stat block's fields: size and type, hit dice, initiative, speed, space and
reach, base attack and grapple, saves, ability scores, challenge rating, feats, armor class. The attack routines
are :mod:`arena.srd.attacks`'.

Each reader is ``reader(reading)``: it reads the cell of the field being read (:meth:`Reading.at
<arena.srd.context.Reading.at>`), reports what it could not read (``unread``), read with a guess (``guess``) or
rewrote to fit the model (``changed``) with :meth:`~arena.srd.context.Reading.note`, and raises the field's error
(:meth:`~arena.srd.context.Reading.error`) when the field cannot make a creature at all, or holds an impossible
number (the block is then not imported). The build looks each field's reader up in its table
(:data:`arena.srd.build.FIELD_READERS`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from arena.dice import parse as parse_dice
from arena.errors import ArenaError
from arena.srd.context import Reading
from arena.srd.patterns import ORDINAL, SIZE_WORDS, TYPE_WORDS
from arena.srd.text import clean, is_dash, number, signed, top_level_split
from arena.world.stat_types import parse_cr

SIZE_MODIFIER = dict(zip(SIZE_WORDS, (8, 4, 2, 1, 0, -1, -2, -4, -8), strict=True))
"""Size modifier to AC and attack rolls (SRD 3.5 Table: Size Modifiers)."""
GRAPPLE_SIZE_MODIFIER = dict(zip(SIZE_WORDS, (-16, -12, -8, -4, 0, 4, 8, 12, 16), strict=True))
"""Special size modifier to grapple checks (and trip, bull rush)."""
SPACE_REACH = dict(
    zip(SIZE_WORDS, ((1, 0), (1, 0), (2, 0), (5, 5), (5, 5), (10, 10), (15, 15), (20, 20), (30, 30)), strict=True)
)
"""A creature's usual space and reach in feet by size (SRD 3.5 Table: Creature Size and Scale; a long creature's
reach)."""

SIZE_TYPE = re.compile(rf"^({'|'.join(SIZE_WORDS)})\s+({'|'.join(TYPE_WORDS)})\s*(?:\((.*?)\)?)?\s*$", re.IGNORECASE)
"""``Large Giant``, ``Medium Outsider (Evil, Lawful)``: size, type and subtypes."""
HIT_POINTS = re.compile(r"^(.*?)\(\s*(-?[\d,]+)\s*hp\s*\)")
"""The hit dice and, in parentheses, the hit points: ``6d8+36 (63 hp)``."""
PLUS_WORD = re.compile(r"\s+plus\s+", re.IGNORECASE)
"""Hit dice written with a word: ``6d8 plus 12``."""
NEGATIVE_DICE = re.compile(r"(^|[+])-\d*d")
"""Dice subtracted, which no hit dice are: ``-2d8``, ``6d8+-1d4``."""
HIT_DICE_TERM = re.compile(r"([+-]?)(?:(\d+(?:/\d+)?)d(\d+)|(\d+))")
"""One term of hit dice with its sign: ``6d8``, ``+6d8``, ``+72``, and a fraction of a die, ``1/2d8`` (a fine
vermin's). The one dice pattern that is not :data:`~arena.srd.patterns.DICE`: hit dice may be a fraction."""
INITIATIVE = re.compile(r"^\s*([+-]?\s*\d+)")
"""``+7`` (``Initiative: +7 (+3 Dex, +4 Improved Initiative)``)."""
NOT_ON_LAND = re.compile(r"^(fly|swim|burrow|climb)\b")
"""A speed that starts with no land speed: ``fly 60 ft. (good)``, ``swim 40 ft.``."""
LAND_SPEED = re.compile(r"^(\d+)\s*(ft|feet)")
"""``30 ft. (6 squares)``."""
SQUARES = re.compile(r"\s*\(\d+ squares?\)\s*\.?")
"""The squares a length covers, left out: ``10 ft. (2 squares)``."""
FEET = r"(\d+(?:-\d+/\d+|/\d+)?)"
r"""A length: ``5``, ``1/2``, ``2-1/2`` (one pattern per value: ``[\d/-]+`` rescanned ``1/1/1/...`` from every
``/``)."""
SPACE_AND_REACH = re.compile(rf"^\s*{FEET}\s*(?:ft\.?|feet)?\s*/\s*{FEET}\s*(?:ft|feet)")
"""``10 ft./10 ft.``, ``2-1/2 ft./0 ft.``, ``15 ft./10 ft. (20 ft. with tentacles)``."""
BAB_GRAPPLE = re.compile(r"^([+-]?\s*\d+)\s*/\s*(?:([+-]?\s*\d+)|(-+|—|–|n/a))")
"""``+4/+14``; ``+0/-`` for a creature that cannot grapple."""
SAVES = (
    ("fort", re.compile(r"fort(?:itude)?\s*([+-]\s*\d+|-)", re.IGNORECASE), "Fort"),
    ("ref", re.compile(r"ref(?:lex)?\s*([+-]\s*\d+|-)", re.IGNORECASE), "Ref"),
    ("will", re.compile(r"will\s*([+-]\s*\d+|-)", re.IGNORECASE), "Will"),
)
"""Each save's key, its pattern and its name: ``Fort +11, Ref +4, Will +3`` (``Fort -`` for none)."""
ABILITY_SCORE = re.compile(r"\b(Str|Dex|Con|Int|Wis|Cha)\w*\s*(\d+|-+|—|–)", re.IGNORECASE)
"""One ability score: ``Str 23`` of ``Str 23, Dex 14, Con 23, Int 6, Wis 9, Cha 6``; ``Con -`` for none."""
CHALLENGE_RATING = re.compile(r"^([\d.]+(?:\s*/\s*\d+)?)(.*)$")
"""``5``, ``1/2``, ``1/3 (see text)``."""
BONUS_FEAT = (re.compile(r"(?<=[a-z)])\s?B$"), re.compile(r"(?<=[a-z)])\s?B(?=\s*\()"))
"""A bonus feat's mark: ``TrackB``, ``Improved Initiative B``, ``Weapon FocusB (claw)``."""
FOOTNOTE = re.compile(r"\*+$")
"""A footnote's mark: ``Alertness*``."""
CLASS_LEVEL = re.compile(rf"(?<!\d){ORDINAL}-level\s+([a-z]+)")
"""A class level in a title (lowercase): ``troll hunter, 6th-level ranger``."""
AC_LABEL = re.compile(r"^(AC|Armor Class:?)\s*", re.IGNORECASE)
"""A label repeated in the cell: ``AC 16 (...)``."""
ARMOR_CLASS = re.compile(r"^(-?\d+)")
"""``16`` of ``16 (-1 size, +2 Dex, +5 natural), touch 11, flat-footed 14``."""
TOUCH = re.compile(r"touch\s*(-?\d+)", re.IGNORECASE)
"""``touch 11``."""
FLAT_FOOTED = re.compile(r"flat-?\s?footed\s*(-?\d+)", re.IGNORECASE)
"""``flat-footed 14``."""
AC_COMPONENTS = re.compile(r"^-?\d+\s*\((.*?)\)")
"""The components in parentheses: ``-1 size, +2 Dex, +5 natural``."""
COMPONENT = re.compile(r"^\s*([+-]\s*\d+)\s+(.*)$")
"""A component, bonus first: ``+5 natural``."""
COMPONENT_AFTER = re.compile(r"^\s*([a-z][a-z ]*?)\s*([+-]\s*\d+)\s*$", re.IGNORECASE)
"""A component, bonus last: ``ring of protection +1``."""


@dataclass(frozen=True)
class SizeType:
    size: str
    type: str
    subtypes: tuple[str, ...]


def read_size_type(ctx: Reading) -> SizeType:
    cell = ctx.cell
    if cell is None:
        raise ctx.error("no size and type line (like 'Large Giant') above Hit Dice")
    text = clean(cell.text)
    m = SIZE_TYPE.match(text)
    if not m:
        raise ctx.error(
            f"cannot read a size and type from {text[:80]!r} (like 'Large Giant' or 'Medium Outsider (Evil, Lawful)')"
        )
    subtypes = tuple(" ".join(s.lower().split()) for s in (m.group(3) or "").split(",") if s.strip())
    return SizeType(m.group(1).lower(), " ".join(m.group(2).lower().split()), subtypes)


# --------------------------------------------------------------------------------------------- hit dice
@dataclass(frozen=True)
class HitDiceRead:
    expression: str
    hp: int
    hd: float
    """Hit dice, all terms together (1/2 for ``1/2 d8``)."""
    terms: tuple[tuple[float, int], ...]
    """(number, die) of each term: ((6, 8), (6, 8)) for ``6d8+6d8+72``."""
    constant: int


def read_hit_dice(ctx: Reading) -> HitDiceRead:
    text = ctx.text()
    if text is None:
        raise ctx.error("missing")
    m = HIT_POINTS.match(text)
    if not m:
        raise ctx.error(f"no hit points in {text[:80]!r} (like '6d8+36 (63 hp)')")
    dice, hp = m.group(1).strip(), number(m.group(2).replace(",", ""))
    if hp < 1:
        raise ctx.error(f"{hp} hit points: a creature has at least 1")
    dice = PLUS_WORD.sub("+", dice).replace(" ", "")
    if dice.startswith("-") or NEGATIVE_DICE.search(dice):
        raise ctx.error(f"negative hit dice {dice!r}")
    terms: list[tuple[float, int]] = []
    constant = 0
    for sign, count_text, die, const in HIT_DICE_TERM.findall(dice):
        if die:
            top, _, bottom = count_text.partition("/")
            if bottom and number(bottom) == 0:
                raise ctx.error(f"cannot read hit dice {dice[:80]!r} (a fraction over 0)")
            count = number(top) / number(bottom) if bottom else float(number(top))
            if sign == "-":
                raise ctx.error(f"negative hit dice {dice!r}")
            terms.append((count, number(die)))
        else:
            constant += number(const) * (-1 if sign == "-" else 1)
    if not terms or HIT_DICE_TERM.sub("", dice).strip("+"):
        raise ctx.error(f"cannot read hit dice {dice!r} (like 6d8+36)")
    if any(count <= 0 for count, _ in terms):
        raise ctx.error(f"zero hit dice in {dice!r}")
    whole = [(max(1, math.floor(c)), d) for c, d in terms]
    expression = "+".join(f"{c}d{d}" for c, d in whole)
    if constant:
        expression += f"{constant:+d}"
    if any(c != int(c) for c, _ in terms):
        ctx.note(
            "changed",
            f"fractional hit dice stored as {expression} (a stat block's hit dice are whole dice; "
            "the hit points stay the SRD's)",
        )
    try:
        parse_dice(expression)
    except ArenaError as err:
        raise ctx.error(f"cannot read hit dice {dice!r} ({err})") from None
    return HitDiceRead(expression, hp, sum(c for c, _ in terms), tuple(terms), constant)


# --------------------------------------------------------------------------------------------- simple numbers
def read_initiative(ctx: Reading) -> int:
    cell = ctx.cell
    if cell is None or is_dash(cell.text):
        ctx.note("unread", "no initiative: +0")
        return 0
    m = INITIATIVE.match(clean(cell.text))
    if not m:
        raise ctx.error(f"cannot read an initiative modifier from {cell.text[:60]!r}")
    return signed(m.group(1))


def read_speed(ctx: Reading) -> int:
    """Land speed in feet (0 for a creature that only flies, swims or burrows)."""
    text = ctx.text()
    if text is None:
        ctx.note("unread", "no speed: 30 ft.")
        return 30
    text = text.lower()
    if NOT_ON_LAND.match(text):
        return 0
    m = LAND_SPEED.match(text)
    if not m:
        ctx.note("unread", "cannot read a land speed: 30 ft.")
        return 30
    return number(m.group(1))


def _feet(text: str) -> float | None:
    """``5`` -> 5, ``1/2`` -> 0.5, ``2-1/2`` -> 2.5; None for a fraction over 0."""
    whole, _, fraction = text.strip().rpartition("-") if "-" in text else ("0", "", text.strip())
    top, _, bottom = fraction.partition("/")
    if bottom and number(bottom) == 0:
        return None
    return number(whole) + (number(top) / number(bottom) if bottom else number(top))


def read_space_reach(ctx: Reading) -> tuple[int, int]:
    cell, size = ctx.cell, ctx.size
    default = SPACE_REACH[size]
    if cell is None or is_dash(cell.text):
        ctx.note("guess", f"no space/reach: {default[0]} ft./{default[1]} ft. (a {size} creature's usual)")
        return default
    m = SPACE_AND_REACH.match(SQUARES.sub("", clean(cell.text)))
    space, reach = (_feet(m.group(1)), _feet(m.group(2))) if m else (None, None)
    if space is None or reach is None:
        ctx.note("guess", f"cannot read space/reach: {default[0]} ft./{default[1]} ft.")
        return default
    return max(1, math.floor(space)), math.floor(reach)


@dataclass(frozen=True)
class BabRead:
    bab: int
    grapple: int | None


def read_bab_grapple(ctx: Reading) -> BabRead | None:
    text = ctx.text()
    if text is None:
        return None
    m = BAB_GRAPPLE.match(text)
    if not m:
        raise ctx.error(f"cannot read {text[:60]!r} (like '+4/+14')")
    bab = signed(m.group(1))
    if bab < 0:
        raise ctx.error(f"base attack bonus {bab} is negative")
    return BabRead(bab, signed(m.group(2)) if m.group(2) else None)


@dataclass(frozen=True)
class SavesRead:
    fort: int
    ref: int
    will: int


def read_saves(ctx: Reading) -> SavesRead:
    text = ctx.text()
    if text is None:
        raise ctx.error("missing")
    out = {}
    for key, pattern, name in SAVES:
        m = pattern.search(text)
        if not m:
            raise ctx.error(f"no {name} save in {text[:80]!r}")
        out[key] = 0 if m.group(1).strip() == "-" else signed(m.group(1))
        if m.group(1).strip() == "-":
            ctx.note("guess", f"no {key} save given ('-'): +0")
    if "*" in text or "(" in text:
        ctx.note(
            "changed",
            "conditional save bonuses (footnotes, '+4 against poison') are not counted: the block "
            "keeps the plain totals",
        )
    return SavesRead(**out)


def read_ability_scores(ctx: Reading) -> dict[str, int | None]:
    text = ctx.text()
    if text is None:
        raise ctx.error("missing")
    out: dict[str, int | None] = {}
    for m in ABILITY_SCORE.finditer(text):
        key = m.group(1).lower()
        value = m.group(2)
        out[key] = number(value) if value.isdigit() else None
    missing = [k for k in ("str", "dex", "con", "int", "wis", "cha") if k not in out]
    if missing:
        raise ctx.error(f"no {', '.join(m.capitalize() for m in missing)} in {text[:80]!r}")
    for key, value in out.items():
        if value == 0:
            raise ctx.error(f"{key.capitalize()} 0: write '-' for an ability the creature does not have")
        if value is None and key not in ("con", "int", "str"):
            ctx.note("guess", f"{key.capitalize()} '-' read as a nonability")
    return out


def read_cr(ctx: Reading) -> Fraction:
    text = ctx.text()
    if text is None:
        raise ctx.error("missing")
    m = CHALLENGE_RATING.match(text)
    if not m:
        raise ctx.error(f"cannot read a challenge rating from {text[:60]!r}")
    try:
        cr = parse_cr(float(m.group(1)) if "." in m.group(1) else m.group(1))
    except ValueError as err:
        raise ctx.error(str(err)) from None
    rest = m.group(2).strip()
    if rest:
        ctx.note("guess", f"read as {cr} (the rest, {rest[:60]!r}, left out)")
    return cr


def read_feats(ctx: Reading) -> tuple[str, ...]:
    text = ctx.text()
    if text is None:
        return ()
    out = []
    for part in top_level_split(text, (",",)):
        part = part.strip().rstrip(".")
        for mark in BONUS_FEAT:
            part = mark.sub("", part)
        part = FOOTNOTE.sub("", part).strip()
        if part and not is_dash(part):
            out.append(part[:200])
    return tuple(dict.fromkeys(out))


def class_levels(title: str) -> dict[str, int]:
    """``Troll Hunter, 6th-Level Ranger`` -> ``{"ranger": 6}``; ``Goblin, 1st-Level Warrior`` -> ``{"warrior": 1}``."""
    out = {}
    for level, cls in CLASS_LEVEL.findall(title.lower()):
        out[cls] = min(20, number(level))
    return out


# --------------------------------------------------------------------------------------------- armour class
@dataclass(frozen=True)
class ArmorRead:
    ac: int
    touch: int
    flat: int
    components: tuple[tuple[int, str], ...]
    """(bonus, what) of each listed component: ((-1, "size"), (2, "dex"), (5, "natural"))."""

    def total(self, *kinds: str) -> int:
        return sum(b for b, k in self.components if not kinds or k in kinds)

    @property
    def deflection(self) -> int:
        return self.total("deflection")


def _component_kind(text: str) -> str:
    t = text.lower()
    if "ring of protection" in t:
        return "deflection"
    for key in ("size", "dex", "natural", "deflection", "dodge", "insight", "profane", "sacred", "luck"):
        if key in t:
            return key
    if any(w in t for w in ("shield", "buckler")):
        return "shield"
    return "armor"


def read_armor(ctx: Reading) -> ArmorRead:
    text = ctx.text()
    if text is None:
        raise ctx.error("missing")
    text = AC_LABEL.sub("", text)
    m = ARMOR_CLASS.match(text)
    t = TOUCH.search(text)
    f = FLAT_FOOTED.search(text)
    if not m:
        raise ctx.error(f"cannot read an armor class from {text[:80]!r}")
    ac = number(m.group(1))
    touch = number(t.group(1)) if t else None
    flat = number(f.group(1)) if f else None
    components: list[tuple[int, str]] = []
    paren = AC_COMPONENTS.match(text)
    for part in paren.group(1).split(",") if paren else ():
        first, last = COMPONENT.match(part.strip()), COMPONENT_AFTER.match(part.strip())
        if first:
            components.append((signed(first.group(1)), _component_kind(first.group(2))))
        elif last:
            components.append((signed(last.group(2)), _component_kind(last.group(1))))
        elif part.strip():
            ctx.note("unread", f"AC component {part.strip()!r} not read")
    if touch is None or flat is None:
        dex = sum(b for b, k in components if k in ("dex", "dodge"))
        touch_guess = 10 + sum(
            b
            for b, k in components
            if k in ("size", "dex", "deflection", "dodge", "insight", "luck", "sacred", "profane")
        )
        flat_guess = ac - max(0, dex)
        if touch is None:
            ctx.note("guess", f"no touch AC: {touch_guess} from the components")
            touch = touch_guess
        if flat is None:
            ctx.note("guess", f"no flat-footed AC: {flat_guess} from the components")
            flat = flat_guess
    return ArmorRead(ac, touch, flat, tuple(components))


@dataclass(frozen=True)
class Stats:
    """A block's numbers as its fields give them: what the build makes the stat block of, and the checks hold
    against each other (:mod:`arena.srd.checks`)."""

    size_type: SizeType
    hit_dice: HitDiceRead
    armor: ArmorRead
    saves: SavesRead
    scores: dict[str, int | None]
    cr: Fraction
    feats: tuple[str, ...]
    levels: dict[str, int]
    """Class levels of its title (``6th-Level Ranger``)."""
    profane: int = 0
    """What its text adds to its own rolls: a desecrating aura's +2 profane bonus."""
    grace: int = 0
    """What its text adds to its saves besides: unearthly grace's Charisma bonus."""

    @property
    def size(self) -> str:
        return self.size_type.size
