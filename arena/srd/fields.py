"""Reading the numbers out of an SRD 3.5 stat block's fields: hit dice, AC and its components, attacks, saves...

Each reader takes one field's :class:`~arena.srd.text.Cell` and a :class:`Notes` it reports to: text it
could not read (``unread``), read with a guess (``guess``), or rewrote to fit the model (``changed``). A field
that cannot be read at all, or holds an impossible number, raises :class:`FieldError` (the block is then not
imported: see :mod:`arena.srd.importer`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

from arena.dice import parse as parse_dice
from arena.errors import ArenaError
from arena.limits import MAX_IMPORT_DIGITS
from arena.srd.text import SIZE_WORDS, TYPE_WORDS, Cell, drop_parens
from arena.world.stat_types import parse_cr

DASHES = ("--", "—", "–", "-", "---", "none", "None", "—-")

SIZE_MODIFIER = dict(zip(SIZE_WORDS, (8, 4, 2, 1, 0, -1, -2, -4, -8), strict=True))
"""Size modifier to AC and attack rolls (SRD 3.5 Table: Size Modifiers)."""
GRAPPLE_SIZE_MODIFIER = dict(zip(SIZE_WORDS, (-16, -12, -8, -4, 0, 4, 8, 12, 16), strict=True))
"""Special size modifier to grapple checks (and trip, bull rush)."""

ENERGY_WORDS = {"fire": "fire", "cold": "cold", "acid": "acid", "electricity": "electricity",
                "electrical": "electricity", "lightning": "electricity", "sonic": "sonic", "force": "force",
                "negative energy": "negative", "positive energy": "positive", "holy": "positive"}

NATURAL_DAMAGE_TYPES: dict[str, tuple[str, ...]] = {
    # SRD 3.5 "Natural Weapons": bite (bludgeoning, piercing and slashing), claw or talon (piercing and slashing),
    # gore (piercing), slap or slam (bludgeoning), sting (piercing), tentacle (bludgeoning)
    "bite": ("bludgeoning", "piercing", "slashing"), "claw": ("piercing", "slashing"),
    "talon": ("piercing", "slashing"), "rake": ("piercing", "slashing"), "gore": ("piercing",),
    "horn": ("piercing",), "tusk": ("piercing", "slashing"), "sting": ("piercing",), "stinger": ("piercing",),
    "tail sting": ("piercing",), "spike": ("piercing",), "quill": ("piercing",), "slam": ("bludgeoning",),
    "slap": ("bludgeoning",), "tail slap": ("bludgeoning",), "tail": ("bludgeoning",), "wing": ("bludgeoning",),
    "hoof": ("bludgeoning",), "stamp": ("bludgeoning",), "tentacle": ("bludgeoning",), "arm": ("bludgeoning",),
    "fist": ("bludgeoning",), "ram": ("bludgeoning",), "butt": ("bludgeoning",), "head butt": ("bludgeoning",),
    "pincer": ("bludgeoning",), "pincers": ("bludgeoning",), "snake": ("bludgeoning", "piercing", "slashing"),
    "tongue": ("bludgeoning",), "unarmed strike": ("bludgeoning",), "rock": ("bludgeoning",),
    "hair": ("bludgeoning",), "tendril": ("bludgeoning",), "foreclaw": ("piercing", "slashing"),
    "rake claw": ("piercing", "slashing"), "crush": ("bludgeoning",), "trample": ("bludgeoning",),
    "swarm": ("bludgeoning", "piercing", "slashing"), "beak": ("piercing",), "mandible": ("piercing", "slashing"),
    "leg": ("bludgeoning",), "lash": ("bludgeoning",), "bite attack": ("bludgeoning", "piercing", "slashing"),
}
"""Damage types of natural attacks (SRD 3.5 Monster Manual, Natural Weapons)."""

WEAPON_DAMAGE_TYPES: dict[str, tuple[str, ...]] = {
    **{w: ("slashing",) for w in ("longsword", "greatsword", "scimitar", "falchion", "battleaxe", "greataxe",
                                  "handaxe", "dwarven waraxe", "waraxe", "glaive", "guisarme", "kukri", "sickle",
                                  "whip", "throwing axe", "bastard sword", "sword", "axe", "orc double axe",
                                  "double axe", "two-bladed sword", "scythe blade", "sword of", "saber",
                                  "holy avenger", "greatscimitar", "vorpal")},
    **{w: ("piercing",) for w in ("longspear", "spear", "shortspear", "trident", "javelin", "short sword",
                                  "rapier", "lance", "ranseur", "pick", "heavy pick", "light pick", "dart",
                                  "shuriken", "longbow", "shortbow", "composite longbow", "composite shortbow",
                                  "bow", "crossbow", "light crossbow", "heavy crossbow", "hand crossbow",
                                  "repeating crossbow", "arrow", "spiked chain", "punching dagger", "gnome hooked",
                                  "hooked hammer", "barbs", "harpoon", "spiked gauntlet")},
    **{w: ("bludgeoning",) for w in ("flail", "heavy flail", "light flail", "dire flail", "mace", "heavy mace",
                                     "light mace", "club", "greatclub", "quarterstaff", "warhammer",
                                     "light hammer", "hammer", "maul", "sling", "sap", "gauntlet", "bolas",
                                     "staff", "sling bullet", "throwing hammer", "gnome hooked hammer")},
    "morningstar": ("bludgeoning", "piercing"), "dagger": ("piercing", "slashing"), "halberd": ("piercing", "slashing"),
    "scythe": ("piercing", "slashing"), "chain": ("piercing", "slashing"), "bardiche": ("slashing",),
}
"""Damage types of the SRD 3.5 weapons a stat block names."""

RANGED_WORDS = ("bow", "crossbow", "javelin", "sling", "dart", "shuriken", "rock", "spit", "bolas", "net",
                "ray", "arrow", "spine", "throwing", "spear (thrown)")

ABILITY_NAMES = {"str": "str", "strength": "str", "dex": "dex", "dexterity": "dex", "con": "con",
                 "constitution": "con", "int": "int", "intelligence": "int", "wis": "wis", "wisdom": "wis",
                 "cha": "cha", "charisma": "cha"}


class FieldError(ArenaError):
    """A field that cannot be read at all, or holds an impossible number: ``message`` says which and why."""

    def __init__(self, field_name: str, cell: Cell | None, message: str):
        self.field = field_name
        self.cell = cell
        self.message = message
        super().__init__(f"{field_name}: {message}")


@dataclass
class Note:
    kind: str
    field: str
    line: int | None
    text: str
    message: str


@dataclass
class Notes:
    """What the readers of one block report."""

    items: list[Note] = field(default_factory=list)
    _seen: set[tuple[str, str, str, str]] = field(default_factory=set, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._seen = {(n.kind, n.field, n.text, n.message) for n in self.items}

    def add(self, kind: str, field_name: str, cell: Cell | None, message: str, text: str | None = None) -> None:
        """Add a note, unless the same one (kind, field, text, message) is there already."""
        shown = text if text is not None else (cell.text if cell else "")
        note = Note(kind, field_name, cell.line if cell else None, shown[:500], message)
        key = (note.kind, note.field, note.text, note.message)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(note)


def is_dash(text: str | None) -> bool:
    return text is None or text.strip().strip("*").strip() in DASHES or not text.strip()


def _clean(text: str) -> str:
    return " ".join(text.replace("−", "-").replace("–", "-").replace("×", "x").split())


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
    return number(text.replace(" ", "").replace("+", ""))


# --------------------------------------------------------------------------------------------- size and type
@dataclass(frozen=True)
class SizeType:
    size: str
    type: str
    subtypes: tuple[str, ...]


def read_size_type(cell: Cell | None, notes: Notes) -> SizeType:
    if cell is None:
        raise FieldError("Size/Type", None, "no size and type line (like 'Large Giant') above Hit Dice")
    text = _clean(cell.text)
    m = re.match(rf"^({'|'.join(SIZE_WORDS)})\s+({'|'.join(TYPE_WORDS)})\s*(?:\((.*?)\)?)?\s*$", text,
                 re.IGNORECASE)
    if not m:
        raise FieldError("Size/Type", cell, f"cannot read a size and type from {text[:80]!r} (like 'Large Giant' "
                                            "or 'Medium Outsider (Evil, Lawful)')")
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


def read_hit_dice(cell: Cell | None, notes: Notes) -> HitDiceRead:
    if cell is None or is_dash(cell.text):
        raise FieldError("Hit Dice", cell, "missing")
    text = _clean(cell.text)
    m = re.match(r"^(.*?)\(\s*(-?[\d,]+)\s*hp\s*\)", text)
    if not m:
        raise FieldError("Hit Dice", cell, f"no hit points in {text[:80]!r} (like '6d8+36 (63 hp)')")
    dice_text, hp = m.group(1).strip(), number(m.group(2).replace(",", ""))
    if hp < 1:
        raise FieldError("Hit Dice", cell, f"{hp} hit points: a creature has at least 1")
    dice_text = re.sub(r"\s+plus\s+", "+", dice_text, flags=re.IGNORECASE).replace(" ", "")
    if dice_text.startswith("-") or re.search(r"(^|[+])-\d*d", dice_text):
        raise FieldError("Hit Dice", cell, f"negative hit dice {dice_text!r}")
    terms: list[tuple[float, int]] = []
    constant = 0
    for sign, count_text, die, const in re.findall(r"([+-]?)(?:(\d+(?:/\d+)?)d(\d+)|(\d+))", dice_text):
        if die:
            top, _, bottom = count_text.partition("/")
            if bottom and number(bottom) == 0:
                raise FieldError("Hit Dice", cell, f"cannot read hit dice {dice_text[:80]!r} (a fraction over 0)")
            count = number(top) / number(bottom) if bottom else float(number(top))
            if sign == "-":
                raise FieldError("Hit Dice", cell, f"negative hit dice {dice_text!r}")
            terms.append((count, number(die)))
        else:
            constant += number(const) * (-1 if sign == "-" else 1)
    rebuilt = re.sub(r"([+-]?)(?:(\d+(?:/\d+)?)d(\d+)|(\d+))", "", dice_text)
    if not terms or rebuilt.strip("+"):
        raise FieldError("Hit Dice", cell, f"cannot read hit dice {dice_text!r} (like 6d8+36)")
    if any(count <= 0 for count, _ in terms):
        raise FieldError("Hit Dice", cell, f"zero hit dice in {dice_text!r}")
    whole = [(max(1, math.floor(c)), d) for c, d in terms]
    expression = "+".join(f"{c}d{d}" for c, d in whole)
    if constant:
        expression += f"{constant:+d}"
    if any(c != int(c) for c, _ in terms):
        notes.add("changed", "Hit Dice", cell, f"fractional hit dice stored as {expression} (a stat block's hit dice "
                                               "are whole dice; the hit points stay the SRD's)")
    try:
        parse_dice(expression)
    except ArenaError as err:
        raise FieldError("Hit Dice", cell, f"cannot read hit dice {dice_text!r} ({err})") from None
    return HitDiceRead(expression, hp, sum(c for c, _ in terms), tuple(terms), constant)


# --------------------------------------------------------------------------------------------- simple numbers
def read_initiative(cell: Cell | None, notes: Notes) -> int:
    if cell is None or is_dash(cell.text):
        notes.add("unread", "Initiative", cell, "no initiative: +0")
        return 0
    m = re.match(r"^\s*([+-]?\s*\d+)", _clean(cell.text))
    if not m:
        raise FieldError("Initiative", cell, f"cannot read an initiative modifier from {cell.text[:60]!r}")
    return signed(m.group(1))


def read_speed(cell: Cell | None, notes: Notes) -> int:
    """Land speed in feet (0 for a creature that only flies, swims or burrows)."""
    if cell is None or is_dash(cell.text):
        notes.add("unread", "Speed", cell, "no speed: 30 ft.")
        return 30
    text = _clean(cell.text).lower()
    if re.match(r"^(fly|swim|burrow|climb)\b", text):
        return 0
    m = re.match(r"^(\d+)\s*(ft|feet)", text)
    if not m:
        notes.add("unread", "Speed", cell, "cannot read a land speed: 30 ft.")
        return 30
    return number(m.group(1))


_FEET = r"(\d+(?:-\d+/\d+|/\d+)?)"
r"""A length: ``5``, ``1/2``, ``2-1/2`` (one pattern per value: ``[\d/-]+`` rescanned ``1/1/1/...`` from every
``/``)."""


def _feet(text: str) -> float | None:
    """``5`` -> 5, ``1/2`` -> 0.5, ``2-1/2`` -> 2.5; None for a fraction over 0."""
    whole, _, fraction = text.strip().rpartition("-") if "-" in text else ("0", "", text.strip())
    top, _, bottom = fraction.partition("/")
    if bottom and number(bottom) == 0:
        return None
    return number(whole) + (number(top) / number(bottom) if bottom else number(top))


def read_space_reach(cell: Cell | None, notes: Notes, size: str) -> tuple[int, int]:
    default = {"fine": (1, 0), "diminutive": (1, 0), "tiny": (2, 0), "small": (5, 5), "medium": (5, 5),
               "large": (10, 10), "huge": (15, 15), "gargantuan": (20, 20), "colossal": (30, 30)}[size]
    if cell is None or is_dash(cell.text):
        notes.add("guess", "Space/Reach", cell, f"no space/reach: {default[0]} ft./{default[1]} ft. (a "
                                                f"{size} creature's usual)")
        return default
    text = re.sub(r"\s*\(\d+ squares?\)\s*\.?", "", _clean(cell.text))
    m = re.match(rf"^\s*{_FEET}\s*(?:ft\.?|feet)?\s*/\s*{_FEET}\s*(?:ft|feet)", text)
    space, reach = (_feet(m.group(1)), _feet(m.group(2))) if m else (None, None)
    if space is None or reach is None:
        notes.add("guess", "Space/Reach", cell, f"cannot read space/reach: {default[0]} ft./{default[1]} ft.")
        return default
    return max(1, math.floor(space)), math.floor(reach)


@dataclass(frozen=True)
class BabRead:
    bab: int
    grapple: int | None


def read_bab_grapple(cell: Cell | None, notes: Notes) -> BabRead | None:
    if cell is None or is_dash(cell.text):
        return None
    text = _clean(cell.text)
    m = re.match(r"^([+-]?\s*\d+)\s*/\s*(?:([+-]?\s*\d+)|(-+|—|–|n/a))", text)
    if not m:
        raise FieldError("Base Attack/Grapple", cell, f"cannot read {text[:60]!r} (like '+4/+14')")
    bab = signed(m.group(1))
    if bab < 0:
        raise FieldError("Base Attack/Grapple", cell, f"base attack bonus {bab} is negative")
    return BabRead(bab, signed(m.group(2)) if m.group(2) else None)


@dataclass(frozen=True)
class SavesRead:
    fort: int
    ref: int
    will: int


def read_saves(cell: Cell | None, notes: Notes) -> SavesRead:
    if cell is None or is_dash(cell.text):
        raise FieldError("Saves", cell, "missing")
    text = _clean(cell.text)
    out = {}
    for key, word in (("fort", r"fort(?:itude)?"), ("ref", r"ref(?:lex)?"), ("will", "will")):
        m = re.search(word + r"\s*([+-]\s*\d+|-)", text, re.IGNORECASE)
        if not m:
            raise FieldError("Saves", cell, f"no {word.split('(')[0].capitalize()} save in {text[:80]!r}")
        out[key] = 0 if m.group(1).strip() == "-" else signed(m.group(1))
        if m.group(1).strip() == "-":
            notes.add("guess", "Saves", cell, f"no {key} save given ('-'): +0")
    if "*" in text or "(" in text:
        notes.add("changed", "Saves", cell, "conditional save bonuses (footnotes, '+4 against poison') are not "
                                            "counted: the block keeps the plain totals")
    return SavesRead(**out)


def read_abilities(cell: Cell | None, notes: Notes) -> dict[str, int | None]:
    if cell is None or is_dash(cell.text):
        raise FieldError("Abilities", cell, "missing")
    text = _clean(cell.text)
    out: dict[str, int | None] = {}
    for m in re.finditer(r"\b(Str|Dex|Con|Int|Wis|Cha)\w*\s*(\d+|-+|—|–)", text, re.IGNORECASE):
        key = m.group(1).lower()
        value = m.group(2)
        out[key] = number(value) if value.isdigit() else None
    missing = [k for k in ("str", "dex", "con", "int", "wis", "cha") if k not in out]
    if missing:
        raise FieldError("Abilities", cell, f"no {', '.join(m.capitalize() for m in missing)} in {text[:80]!r}")
    for key, value in out.items():
        if value == 0:
            raise FieldError("Abilities", cell, f"{key.capitalize()} 0: write '-' for an ability the creature "
                                                "does not have")
        if value is None and key not in ("con", "int", "str"):
            notes.add("guess", "Abilities", cell, f"{key.capitalize()} '-' read as a nonability")
    return out


def read_cr(cell: Cell | None, notes: Notes) -> Fraction:
    if cell is None or is_dash(cell.text):
        raise FieldError("Challenge Rating", cell, "missing")
    text = _clean(cell.text)
    m = re.match(r"^([\d.]+(?:\s*/\s*\d+)?)(.*)$", text)
    if not m:
        raise FieldError("Challenge Rating", cell, f"cannot read a challenge rating from {text[:60]!r}")
    try:
        cr = parse_cr(float(m.group(1)) if "." in m.group(1) else m.group(1))
    except ValueError as err:
        raise FieldError("Challenge Rating", cell, str(err)) from None
    rest = m.group(2).strip()
    if rest:
        notes.add("guess", "Challenge Rating", cell, f"read as {cr} (the rest, {rest[:60]!r}, left out)")
    return cr


def read_feats(cell: Cell | None, notes: Notes) -> tuple[str, ...]:
    if cell is None or is_dash(cell.text):
        return ()
    out = []
    for part in _top_level_split(_clean(cell.text), (",",)):
        part = part.strip().rstrip(".")
        part = re.sub(r"(?<=[a-z)])\s?B$", "", part)            # TrackB, Improved Initiative B: a bonus feat
        part = re.sub(r"(?<=[a-z)])\s?B(?=\s*\()", "", part)
        part = re.sub(r"\*+$", "", part).strip()
        if part and not is_dash(part):
            out.append(part[:200])
    return tuple(dict.fromkeys(out))


def class_levels(title: str) -> dict[str, int]:
    """``Troll Hunter, 6th-Level Ranger`` -> ``{"ranger": 6}``; ``Goblin, 1st-Level Warrior`` -> ``{"warrior": 1}``."""
    out = {}
    for level, cls in re.findall(r"(?<!\d)(\d+)(?:st|nd|rd|th)-level\s+([a-z]+)", title.lower()):
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


def read_armor(cell: Cell | None, notes: Notes) -> ArmorRead:
    if cell is None or is_dash(cell.text):
        raise FieldError("Armor Class", cell, "missing")
    text = re.sub(r"^(AC|Armor Class:?)\s*", "", _clean(cell.text), flags=re.IGNORECASE)
    m = re.match(r"^(-?\d+)", text)
    t = re.search(r"touch\s*(-?\d+)", text, re.IGNORECASE)
    f = re.search(r"flat-?\s?footed\s*(-?\d+)", text, re.IGNORECASE)
    if not m:
        raise FieldError("Armor Class", cell, f"cannot read an armor class from {text[:80]!r}")
    ac = number(m.group(1))
    touch = number(t.group(1)) if t else None
    flat = number(f.group(1)) if f else None
    components: list[tuple[int, str]] = []
    paren = re.match(r"^-?\d+\s*\((.*?)\)", text)
    if paren:
        for part in paren.group(1).split(","):
            pm = re.match(r"^\s*([+-]\s*\d+)\s+(.*)$", part.strip())
            tail = re.match(r"^\s*([a-z][a-z ]*?)\s*([+-]\s*\d+)\s*$", part.strip(), re.IGNORECASE)
            if pm:
                components.append((signed(pm.group(1)), _component_kind(pm.group(2))))
            elif tail:                                  # "ring of protection +1"
                components.append((signed(tail.group(2)), _component_kind(tail.group(1))))
            elif part.strip():
                notes.add("unread", "Armor Class", cell, f"AC component {part.strip()!r} not read")
    if touch is None or flat is None:
        dex = sum(b for b, k in components if k in ("dex", "dodge"))
        touch_guess = 10 + sum(b for b, k in components if k in ("size", "dex", "deflection", "dodge", "insight",
                                                                  "luck", "sacred", "profane"))
        flat_guess = ac - max(0, dex)
        if touch is None:
            notes.add("guess", "Armor Class", cell, f"no touch AC: {touch_guess} from the components")
            touch = touch_guess
        if flat is None:
            notes.add("guess", "Armor Class", cell, f"no flat-footed AC: {flat_guess} from the components")
            flat = flat_guess
    return ArmorRead(ac, touch, flat, tuple(components))


# --------------------------------------------------------------------------------------------- attacks
@dataclass
class AttackRead:
    """One attack of a routine as the SRD writes it, plus what the model needs."""

    name: str
    count: int
    bonuses: tuple[int, ...]
    kind: str
    touch: bool
    damage: str | None
    """Hit-point damage dice, or None for an attack that deals none (``(paralysis)``, ``(0)``)."""
    damage_types: tuple[str, ...]
    threat: int = 20
    multiplier: int = 2
    extra_damage: str | None = None
    extra_damage_type: str | None = None
    riders: tuple[str, ...] = ()
    """What else a hit does, in the SRD's words: ``poison``, ``1d6 Str``, ``energy drain``, ``attach``."""
    text: str = ""
    secondary: bool = False
    enhancement: int = 0
    materials: tuple[str, ...] = ()


def _top_level_split(text: str, separators: tuple[str, ...]) -> list[str]:
    """Split at separators outside parentheses (longest separator first)."""
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


_ATTACK = re.compile(
    r"^(?:(?P<count>\d+)\s+)?(?P<name>.{0,200}?)\s*(?P<bonus>[+-]\s?\d+(?:\s*/\s*[+-]\s?\d+){0,12})\s*\*?\s*"
    r"(?:(?P<kind>melee|ranged)\s*(?P<touch>touch)?)?\s*\*?\s*\((?P<damage>.*)\)\s*\*?$", re.IGNORECASE)
"""One attack: ``2 claws +9 melee (1d6+6)``. The name (the SRD's longest is 60 characters) and the iterative
bonuses are bounded, so that an attack cell of thousands of ``+1/`` is refused in linear time, not rescanned from
every position."""

_WORD_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _singular(name: str) -> str:
    for plural, single in (("hooves", "hoof"), ("claws", "claw"), ("ies", "y")):
        if name.endswith(plural):
            return name[: -len(plural)] + single
    if name.endswith("s") and not name.endswith(("ss", "us", "is")) and len(name) > 3:
        return name[:-1]
    return name


def damage_types_of(name: str) -> tuple[tuple[str, ...], bool]:
    """(damage types, known) of an attack's name; unknown names are guessed bludgeoning."""
    base = re.sub(r"^[+]\d+\s+", "", name.lower())
    base = drop_parens(base, "")
    base = re.sub(r"\b(masterwork|mwk|huge|large|gargantuan|colossal|small|tiny|medium|flaming|frost|shock|"
                  r"keen|unholy|holy|axiomatic|anarchic|burst|icy|thundering|wounding|vorpal|defending|"
                  r"speed|greater|lesser|dancing|returning|cold iron|silver|adamantine|alchemical|"
                  r"incorporeal|primary|secondary|flurry of|with|spiked)\b", " ", base)
    base = " ".join(base.split())
    for table in (NATURAL_DAMAGE_TYPES, WEAPON_DAMAGE_TYPES):
        if base in table:
            return table[base], True
        single = _singular(base)
        if single in table:
            return table[single], True
    words = base.split()
    for n in range(len(words), 0, -1):
        for start in range(0, len(words) - n + 1):
            phrase = " ".join(words[start:start + n])
            for table in (WEAPON_DAMAGE_TYPES, NATURAL_DAMAGE_TYPES):
                for key in (phrase, _singular(phrase)):
                    if key in table:
                        return table[key], True
    return ("bludgeoning",), False


_CRIT = re.compile(r"/\s*(?:(\d+)\s*-\s*20)?\s*(?:/?\s*x\s*(\d))?")


def _read_damage(text: str) -> tuple[str | None, int, int, list[str], list[str]]:
    """(hp damage dice or None, threat, multiplier, typed riders ``['2d6 fire']``, other riders)."""
    text = text.strip().strip("*").strip()
    parts = _top_level_split(text, (" plus ", " and ", ", plus "))
    main = parts[0] if parts else ""
    riders = parts[1:]
    threat, multiplier = 20, 2
    dice = None
    m = re.match(r"^(\d+(?:d\d+)?(?:\s*[+-]\s*\d+(?:d\d+)?)*)\s*\*?\s*((?:/\s*(?:\d+\s*-\s*20|x\s*\d)\s*)*)\s*(.*)$",
                 main)
    if m:
        dice = m.group(1).replace(" ", "")
        crit = m.group(2) or ""
        r = re.search(r"(?<!\d)(\d+)\s*-\s*20", crit)
        if r:
            threat = number(r.group(1))
        x = re.search(r"x\s*(\d)", crit)
        if x:
            multiplier = number(x.group(1))
        tail = m.group(3).strip()
        if tail:
            # "1d6 fire" (the whole damage is energy), "1d6 Str" (ability damage), "1d4 Wisdom drain"
            riders.insert(0, f"{dice} {tail}")
            dice = None if not _energy_of(tail) else dice
            if dice is not None:
                riders.pop(0)
                riders.insert(0, f"@type {_energy_of(tail)}")
    else:
        riders.insert(0, main)
    return dice, threat, multiplier, riders, []


def _energy_of(text: str) -> str | None:
    t = text.lower().strip().rstrip(".")
    t = re.sub(r"\bdamage\b", "", t).strip()
    return ENERGY_WORDS.get(t)


def read_routines(cell: Cell | None, field_name: str, notes: Notes) -> list[list[AttackRead]]:
    """The alternatives (SRD "or") of an Attack or Full Attack cell, each a list of attacks made together."""
    if cell is None or is_dash(cell.text):
        return []
    text = mend_attack_text(_clean(cell.text))
    routines = []
    for alternative in _top_level_split(text, ("; or ", " or ", ";or ")):
        attacks = []
        for part in _top_level_split(alternative, (", and ", " and ", "; and ", ", ", "; ")):
            attacks.extend(read_attack(part, field_name, cell, notes))
        if attacks:
            routines.append(attacks)
    return routines


def mend_attack_text(text: str) -> str:
    """The conversion's marks in an attack cell: ``Slam+2 melee, (1d6+1)``, ``(1d6-2)/x3``, ``(1d8+5`` (unclosed),
    ``(1d6+3))``, a trailing ``or``."""
    text = re.sub(r"\s+or\s*$", "", text)
    text = re.sub(r",\s*\(", " (", text)
    text = re.sub(r"\)\s*(/\s*(?:x\s*\d|\d+-20)(?:\s*/\s*x\s*\d)?)", r"\1)", text)
    text = text.replace("))", ")").replace("/?", "/x")
    if text.count("(") > text.count(")"):
        text += ")" * (text.count("(") - text.count(")"))
    return text


_NO_DAMAGE = re.compile(r"^(?:(?P<count>\d+)\s+)?(?P<name>[^()]{0,200}?)\s*"
                        r"(?P<bonus>[+-]\s?\d+(?:\s*/\s*[+-]\s?\d+){0,12})\s*"
                        r"(?P<kind>melee|ranged)\s*(?P<touch>touch)?\s*$", re.IGNORECASE)
_AUTOMATIC = re.compile(r"^(?P<name>swarm|[a-z ]+?)\s*\((?P<damage>[^()]*)\)\s*$", re.IGNORECASE)


def read_attack(text: str, field_name: str, cell: Cell, notes: Notes) -> list[AttackRead]:
    """The attacks one entry of a routine makes: usually one; ``2 short swords +5 melee (1d6+2/19-20,
    1d6+1/19-20)`` is two (the second is the off hand's)."""
    split = re.match(r"^(\d+)\s+(.*?\()([^()]*,[^()]*)\)\s*$", text.strip())
    if split and len(_top_level_split(split.group(3), (",",))) == number(split.group(1)):
        out = []
        for damage in _top_level_split(split.group(3), (",",)):
            out.extend(read_attack(f"{split.group(2)}{damage.strip()})", field_name, cell, notes))
        return out
    read = _read_one_attack(text, field_name, cell, notes)
    return [read] if read is not None else []


def _read_one_attack(text: str, field_name: str, cell: Cell, notes: Notes) -> AttackRead | None:
    text = text.strip().rstrip(";.").strip()
    # a name with its own parentheses before the bonus: "composite longbow (+1 Str bonus) +5 ranged (1d8+1/x3)"
    pre = re.match(r"^(.*?\))\s*(?=[+-]\s?\d)", text)
    inner_name = None
    work = text
    if pre and "(" in pre.group(1) and not re.search(r"[+-]\d+\s*(melee|ranged)", pre.group(1)):
        inner_name = pre.group(1)
        work = "X " + text[pre.end():]
    m = _ATTACK.match(work)
    if not m and (nd := _NO_DAMAGE.match(text)):            # "web +11 ranged", "eye ray +8 ranged touch"
        name = nd.group("name").strip().lower()
        return AttackRead(name=name, count=number(nd.group("count") or 1),
                          bonuses=tuple(signed(b) for b in re.split(r"\s*/\s*", nd.group("bonus"))),
                          kind=nd.group("kind").lower(), touch=bool(nd.group("touch")), damage=None,
                          damage_types=("bludgeoning",), riders=(name,), text=text)
    if not m and (auto := _AUTOMATIC.match(text)):          # a swarm's "Swarm (2d6 plus poison)": no attack roll
        name = auto.group("name").strip().lower()
        riders = tuple(r.strip() for r in _top_level_split(auto.group("damage"), (" plus ",))[1:])
        return AttackRead(name=name, count=1, bonuses=(0,), kind="melee", touch=False, damage=None,
                          damage_types=("bludgeoning",), riders=(f"{name} (automatic hit, {auto.group('damage')})",
                                                              *riders), text=text)
    if not m:
        notes.add("unread", field_name, cell, f"attack {text[:80]!r} not read (like 'claw +9 melee (1d6+6)'): "
                                              "left out", text)
        return None
    count = number(m.group("count")) if m.group("count") else 1
    name = (inner_name if inner_name else m.group("name")).strip()
    word = name.split(" ", 1)
    if word[0].lower() in _WORD_COUNTS and len(word) > 1:
        count, name = _WORD_COUNTS[word[0].lower()], word[1]
    name = re.sub(r"\s+", " ", name).strip(" ,*")
    enhancement = 0
    em = re.match(r"^(.*?)\+(\d)\s+(.*)$", name)
    if em:
        enhancement, name = number(em.group(2)), f"{em.group(1)}{em.group(3)}".strip()
    lname = name.lower()
    materials = tuple(m for m in ("adamantine", "cold iron", "silver") if m in lname)
    if count > 1:
        lname = _singular(lname)
    bonuses = tuple(signed(b) for b in re.split(r"\s*/\s*", m.group("bonus")))
    kind = (m.group("kind") or "").lower()
    if not kind:
        kind = "ranged" if any(w in lname for w in RANGED_WORDS) else "melee"
        notes.add("guess", field_name, cell, f"{name}: no 'melee' or 'ranged': read as {kind}", text)
    touch = bool(m.group("touch")) or "touch" in lname
    dice, threat, multiplier, riders, _ = _read_damage(m.group("damage"))
    types, known = damage_types_of(lname)
    extra = extra_type = None
    other: list[str] = []
    energy_main = None
    for rider in riders:
        if rider.startswith("@type "):
            energy_main = rider[6:]
            continue
        rm = re.match(r"^(\d+d\d+(?:[+-]\d+)?|\d+)\s+(.*)$", rider.strip())
        energy = _energy_of(rm.group(2)) if rm else None
        if rm and energy and extra is None:
            extra, extra_type = rm.group(1), energy
        else:
            other.append(rider.strip())
    named_energy = next((ENERGY_WORDS[w] for w in ("electricity", "fire", "cold", "acid", "sonic", "lightning")
                         if re.search(rf"\b{w}\b", lname)), None)
    if energy_main:
        types, known = (energy_main,), True
    elif named_energy and not known:
        types, known = (named_energy,), True
    elif ("touch" in lname or "ray" in lname) and not known:
        types = ("force",)
        if dice is not None:
            notes.add("guess", field_name, cell, f"{name}: untyped damage of a touch or ray: read as force (no damage "
                                                 "reduction or energy resistance applies)", text)
        known = True
    if not known and dice is not None:
        notes.add("guess", field_name, cell, f"{name}: damage type not known for this attack: read as "
                                             f"{'/'.join(types)}", text)
    if dice is not None:
        dice = _minimum_one(dice, name, field_name, cell, notes, text)
    return AttackRead(name=lname, count=count, bonuses=bonuses, kind=kind, touch=touch, damage=dice,
                      damage_types=types, threat=threat, multiplier=multiplier, extra_damage=extra,
                      extra_damage_type=extra_type, riders=tuple(other), text=text, enhancement=enhancement,
                      materials=materials)


def _minimum_one(dice: str, name: str, field_name: str, cell: Cell, notes: Notes, text: str) -> str | None:
    try:
        expr = parse_dice(dice)
    except ArenaError:
        notes.add("unread", field_name, cell, f"{name}: damage {dice!r} not read: attack left out", text)
        return None
    if expr.maximum < 1:
        if expr.dice:
            notes.add("changed", field_name, cell, f"{name}: damage {dice} is always below 1: stored as 1 (the SRD's "
                                                   "minimum damage on a hit)", text)
            return "1"
        return None
    if any(sign < 0 for sign, *_ in expr.dice):
        notes.add("unread", field_name, cell, f"{name}: damage {dice} subtracts dice: attack left out", text)
        return None
    return dice
