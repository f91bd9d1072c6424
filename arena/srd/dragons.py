"""The SRD's true dragons, one stat block per variety and age category, from the "Dragons by Age" tables.

The SRD gives a true dragon's numbers in two tables per variety (``Red Dragons by Age``: size, hit dice,
abilities, BAB/grapple, bite, saves, breath weapon damage and DC, frightful presence DC; ``Red Dragon Abilities by
Age``: speed, initiative, AC, special abilities, caster level, SR) and the rest in the general rules of
``DRAGON, TRUE``: the natural attacks and their damage by size (bite; 2 claws, 2 wings, a tail slap as secondary
attacks at -5 with half, half and 1-1/2 Str), space and reach by size, the breath weapon's length by size, crush
(Huge and larger) and tail sweep (Gargantuan and larger), and that a dragon gains the special abilities of its age
"plus all previous ones". This module puts the two together into the same :class:`~arena.srd.text.RawBlock` as
the other stat blocks (:func:`dragon_blocks`), so the importer writes, checks and reports them alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arena.limits import MAX_IMPORT_BLOCKS, MAX_IMPORT_DESCRIPTION, MAX_IMPORT_DESCRIPTION_LINES
from arena.srd.blocks import table_rows
from arena.srd.patterns import ROLL
from arena.srd.text import Cell, RawBlock, clean, is_dash, number, title_case
from arena.world.stat_types import ability_modifier

AGES = (
    "Wyrmling",
    "Very young",
    "Young",
    "Juvenile",
    "Young adult",
    "Adult",
    "Mature adult",
    "Old",
    "Very old",
    "Ancient",
    "Wyrm",
    "Great wyrm",
)
SIZE_LETTERS = {
    "F": "fine",
    "D": "diminutive",
    "T": "tiny",
    "S": "small",
    "M": "medium",
    "L": "large",
    "H": "huge",
    "G": "gargantuan",
    "C": "colossal",
}

# SRD 3.5 "Dragon Space/Reach, Attacks, and Damage" and "Dragon Breath Weapons"
SPACE_REACH = {
    "tiny": "2-1/2 ft./0 ft.",
    "small": "5 ft./5 ft.",
    "medium": "5 ft./5 ft.",
    "large": "10 ft./5 ft.",
    "huge": "15 ft./10 ft.",
    "gargantuan": "20 ft./15 ft.",
    "colossal": "30 ft./20 ft.",
}
BITE = {
    "tiny": "1d4",
    "small": "1d6",
    "medium": "1d8",
    "large": "2d6",
    "huge": "2d8",
    "gargantuan": "4d6",
    "colossal": "4d8",
}
CLAW = {
    "tiny": "1d3",
    "small": "1d4",
    "medium": "1d6",
    "large": "1d8",
    "huge": "2d6",
    "gargantuan": "2d8",
    "colossal": "4d6",
}
WING = {"medium": "1d4", "large": "1d6", "huge": "1d8", "gargantuan": "2d6", "colossal": "2d8"}
TAIL_SLAP = {"large": "1d8", "huge": "2d6", "gargantuan": "2d8", "colossal": "4d6"}
CRUSH = {"huge": "2d8", "gargantuan": "4d6", "colossal": "4d8"}
TAIL_SWEEP = {"gargantuan": "2d6", "colossal": "2d8"}
LINE = {"tiny": 30, "small": 40, "medium": 60, "large": 80, "huge": 100, "gargantuan": 120, "colossal": 140}
CONE = {"tiny": 15, "small": 20, "medium": 30, "large": 40, "huge": 50, "gargantuan": 60, "colossal": 70}

BREATH_TYPES = {
    "fire": "fire",
    "acid": "acid",
    "corrosive (acid) gas": "acid",
    "lightning": "electricity",
    "cold": "cold",
    "frost": "cold",
}
"""What a variety breathes, as the damage type of its breath weapon (``a line of lightning``)."""

VARIETY_HEADING = re.compile(r"^\s*([A-Z]+) DRAGON\s*$")
"""A variety's heading, the whole line: ``RED DRAGON``."""
STATS_TABLE = re.compile(r"^\|\s*([a-z]+) Dragons by Age", re.IGNORECASE)
"""The first row of a variety's table of numbers: ``| Red Dragons by Age |``."""
ABILITIES_TABLE = re.compile(r"^\|\s*([a-z]+) Dragon Abilities by Age", re.IGNORECASE)
"""The first row of its table of abilities: ``| Red Dragon Abilities by Age |``."""
SUBTYPE_LINE = re.compile(r"^\s*Dragon\s*\(")
"""A variety's type line: ``Dragon (Fire)``."""
SUBTYPE_WRAP = re.compile(r"^\s*Dragon\s*\(|\)\s*$")
"""What is around its subtypes: ``Dragon (`` and ``)``."""
CR_LINE = re.compile(r"^\s*Challenge Ratings?:")
"""``Challenge Ratings: Wyrmling 4; very young 5; young 7; ...``."""
AGE_CR = re.compile(
    r"(wyrmling|very young|young adult|young|juvenile|mature adult|adult|very old|old|ancient|"
    r"great wyrm|wyrm)\s+(\d+)"
)
"""One age's CR (lowercase): ``very young 5``."""
BREATH_KIND = re.compile(r"\b(cone|line) of ([a-z]+(?: \(acid\) gas)?)")
"""What a variety breathes: ``Breath Weapon (Su): A red dragon has one type of breath weapon, a cone of fire``."""
TABLE_HP = re.compile(r"\((\d+)\)")
"""The hit points of a table's hit dice: ``4d12+4 (30)``."""
BREATH_CELL = re.compile(rf"^\s*({ROLL})\s*\((\d+)\)")
"""A table's breath weapon: its damage and save DC, ``2d10 (13)``."""
DR_MAGIC = re.compile(r"^(DR\s*)?\d+/magic$", re.IGNORECASE)
"""A table's damage reduction: ``DR 5/magic``."""
DR_LABEL = re.compile(r"^(DR\s*)?", re.IGNORECASE)
"""The label a damage reduction is written with: ``DR 5/magic`` (and ``5/magic`` gets it)."""
ORDINAL_ONLY = re.compile(r"^\d+(st|nd|rd|th)$")
"""A table's caster level in its special abilities' column: ``7th``."""
ORDINAL_END = re.compile(r"\s+\d+(st|nd|rd|th)$")
"""A spell-like ability's caster level: ``fog cloud 5th``."""
SAVE_WORD = re.compile(r"\b(Fortitude|Reflex|Will) save")
"""The save of a variety's second breath: ``must succeed on a Will save or fall asleep``."""


@dataclass
class DragonRow:
    """One age of one variety: the cells of its two table rows, by column name."""

    variety: str
    age: str
    line: int
    stats: dict[str, Cell]
    abilities: dict[str, Cell]


@dataclass
class Variety:
    name: str
    heading_line: int
    subtypes: tuple[str, ...]
    crs: dict[str, str]
    breath: list[tuple[str, str, str]]
    """(shape, what, sentence) of each breath weapon: ("cone", "fire", ...), ("cone", "sleep", ...)."""
    text: list[Cell]
    rows: list[DragonRow] = field(default_factory=list)
    problems: list[tuple[int, str, str, str]] = field(default_factory=list)


def _table_cells(lines: list[str], start: int) -> tuple[list[str], list[tuple[int, list[str]]], int]:
    rows, end = table_rows(lines, start)
    header = rows[1].cells if len(rows) > 1 else []
    body = [(r.line, r.cells) for r in rows[2:]]
    return header, body, end


def _by_header(header: list[str], cells: list[str]) -> dict[str, str]:
    """Cells by their header's column: by filled position when the counts agree, else by raw position."""
    head = [(i, h) for i, h in enumerate(header) if h.strip()]
    filled = [c for c in cells if c.strip()]
    if len(filled) == len(head):
        return {h: v for (_, h), v in zip(head, filled, strict=True)}
    return {h: (cells[i] if i < len(cells) else "") for i, h in head}


def _column(header: str) -> str:
    h = " ".join(header.split()).lower()
    for key, name in (
        ("age", "Age"),
        ("size", "Size"),
        ("hit dice", "Hit Dice"),
        ("base attack", "BAB"),
        ("attack", "Attack"),
        ("fort", "Fort"),
        ("ref", "Ref"),
        ("will", "Will"),
        ("breath", "Breath"),
        ("frightful", "Frightful"),
        ("speed", "Speed"),
        ("initiative", "Initiative"),
        ("ac", "AC"),
        ("special", "Special"),
        ("caster", "Caster"),
        ("sr", "SR"),
    ):
        if h == key or h.startswith(key):
            return name
    return header.strip().capitalize()


def find_varieties(text: str) -> list[Variety]:
    """Every true-dragon variety in ``text`` that has both "by Age" tables."""
    lines = text.split("\n")
    heads = [(i, m.group(1)) for i, line in enumerate(lines) if (m := VARIETY_HEADING.match(line))]
    out = []
    for k, (start, color) in enumerate(heads):
        variety = _variety(lines, start, heads[k + 1][0] if k + 1 < len(heads) else len(lines), color)
        if variety is not None:
            out.append(variety)
    return out


def _table_at(section: list[str], pattern: re.Pattern[str], color: str) -> int | None:
    return next(
        (j for j, line in enumerate(section) if (m := pattern.match(line)) and m.group(1).upper() == color), None
    )


def _variety(lines: list[str], start: int, end: int, color: str) -> Variety | None:
    """The variety whose heading (``RED DRAGON``) is ``lines[start]``, its section up to ``end``; None without its two
    tables by age."""
    section = lines[start:end]
    stats_at, abil_at = _table_at(section, STATS_TABLE, color), _table_at(section, ABILITIES_TABLE, color)
    if stats_at is None or abil_at is None:
        return None
    name = f"{color.capitalize()} Dragon"
    sub_line = next((t for t in section[:8] if SUBTYPE_LINE.match(t)), "")
    subtypes = (
        tuple(s.strip().lower() for s in SUBTYPE_WRAP.sub("", sub_line).split(",") if s.strip()) if sub_line else ()
    )
    crs: dict[str, str] = {}
    cr_line = next((t for t in section if CR_LINE.match(t)), "")
    for age, value in AGE_CR.findall(cr_line.lower()):
        crs.setdefault(age, value)
    breath_line = next((t for t in section if t.startswith("Breath Weapon (Su):")), "")
    breath = [(shape, what, breath_line) for shape, what in BREATH_KIND.findall(breath_line)]
    variety = Variety(name, start + 1, subtypes, crs, breath, [Cell(t, start + 1 + j) for j, t in enumerate(section)])
    s_head, s_rows, _ = _table_cells(lines, start + stats_at)
    a_head, a_rows, _ = _table_cells(lines, start + abil_at)
    s_cols = [_column(h) if h.strip() else "" for h in s_head]
    a_cols = [_column(h) if h.strip() else "" for h in a_head]
    abilities_by_age = {}
    for line_no, cells in a_rows:
        row = _by_header(a_cols, cells)
        age = row.get("Age", "").strip()
        if age in AGES:
            abilities_by_age[age] = (line_no, row)
    for line_no, cells in s_rows:
        row = _by_header(s_cols, cells)
        age = row.get("Age", "").strip()
        if age not in AGES or age not in abilities_by_age:
            continue
        a_line, a_row = abilities_by_age[age]
        variety.rows.append(
            DragonRow(
                name,
                age,
                line_no,
                {k: Cell(v.strip(), line_no) for k, v in row.items()},
                {k: Cell(v.strip(), a_line) for k, v in a_row.items()},
            )
        )
    return variety


def general_rules(text: str) -> list[Cell]:
    """The ``DRAGON, TRUE`` section (its ability descriptions: frightful presence, crush, tail sweep ...)."""
    lines = text.split("\n")
    start = next((i for i, t in enumerate(lines) if t.strip() == "DRAGON, TRUE"), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines)) if VARIETY_HEADING.match(lines[i])), len(lines))
    return [Cell(lines[j], j + 1) for j in range(start, end)]


def _str_part(str_mod: int, factor: float) -> str:
    bonus = int(str_mod * factor) if str_mod >= 0 else str_mod
    return f"{bonus:+d}" if bonus else ""


def age_index(age: str) -> int:
    return AGES.index(age)


def dragon_fields(variety: Variety, row: DragonRow) -> dict[str, Cell]:
    """The SRD stat-block fields of one dragon, written out from the two tables and the general rules (so that the
    common readers and checks apply); cells keep the line of the table row they come from."""
    s, a = row.stats, row.abilities
    size = SIZE_LETTERS.get(s["Size"].text.strip().upper()[:1], "") if "Size" in s else ""
    line = row.line
    out: dict[str, Cell] = {}
    subtype = f" ({', '.join(x.capitalize() for x in variety.subtypes)})" if variety.subtypes else ""
    out["Size/Type"] = Cell(f"{size.capitalize()} Dragon{subtype}", line)
    hd = s.get("Hit Dice")
    if hd:
        out["Hit Dice"] = Cell(TABLE_HP.sub(r"(\1 hp)", hd.text), hd.line)
    for key in ("Initiative", "Speed"):
        if key in a:
            out[key] = a[key]
    if "AC" in a:
        out["Armor Class"] = a["AC"]
    if "BAB" in s:
        out["Base Attack/Grapple"] = s["BAB"]
    out["Abilities"] = Cell(
        ", ".join(f"{k} {s[k].text if k in s else '-'}" for k in ("Str", "Dex", "Con", "Int", "Wis", "Cha")), line
    )
    out["Saves"] = Cell(
        f"Fort {s['Fort'].text}, Ref {s['Ref'].text}, Will {s['Will'].text}"
        if all(k in s for k in ("Fort", "Ref", "Will"))
        else "",
        line,
    )
    cr = variety.crs.get(row.age.lower())
    out["Challenge Rating"] = Cell(cr or "", line)
    out["Space/Reach"] = Cell(SPACE_REACH.get(size, ""), line)
    # attacks: the bite at the table's bonus, the secondary attacks at -5
    try:
        bite_bonus = number(s["Attack"].text.replace("+", "").strip())
        str_mod = ability_modifier(number(s["Str"].text))
    except (KeyError, ValueError):
        return out
    bite = f"Bite {bite_bonus:+d} melee ({BITE[size]}{_str_part(str_mod, 1)})"
    parts = [bite, f"2 claws {bite_bonus - 5:+d} melee ({CLAW[size]}{_str_part(str_mod, 0.5)})"]
    if size in WING:
        parts.append(f"2 wings {bite_bonus - 5:+d} melee ({WING[size]}{_str_part(str_mod, 0.5)})")
    if size in TAIL_SLAP:
        parts.append(f"tail slap {bite_bonus - 5:+d} melee ({TAIL_SLAP[size]}{_str_part(str_mod, 1.5)})")
    out["Attack"] = Cell(bite, line)
    out["Full Attack"] = Cell(" and ".join(parts), line)
    # special attacks and qualities, gathered from this age and all younger ones
    attacks: list[str] = []
    breath = s.get("Breath")
    bm = BREATH_CELL.match(breath.text) if breath else None
    if bm and variety.breath:
        attacks.append("Breath weapon")
    if "Frightful" in s and not is_dash(s["Frightful"].text):
        attacks.append(f"Frightful presence (DC {s['Frightful'].text.strip()})")
    if size in CRUSH:
        attacks.append(f"Crush {CRUSH[size]}{_str_part(str_mod, 1.5)}")
    if size in TAIL_SWEEP:
        attacks.append(f"Tail sweep {TAIL_SWEEP[size]}{_str_part(str_mod, 1.5)}")
    caster = a.get("Caster")
    if caster and not is_dash(caster.text):
        attacks.append(f"Spells (caster level {caster.text.strip()})")
    out["Special Attacks"] = Cell(", ".join(attacks), line)
    out["Special Qualities"] = Cell(", ".join(_qualities(variety, row)), a["Age"].line if "Age" in a else line)
    return out


def _qualities(variety: Variety, row: DragonRow) -> list[str]:
    """A dragon's special qualities: every true dragon's, those of its age and all younger ones (the last damage
    reduction only: an older one replaces a younger one), and its spell resistance."""
    qualities = ["Blindsense 60 ft.", "keen senses", "immunity to sleep and paralysis"]
    dr = None
    for older in variety.rows[: age_index(row.age) + 1]:
        cell = older.abilities.get("Special")
        if cell is None or is_dash(cell.text):
            continue
        for part in clean(cell.text).split(","):
            part = part.strip()
            if not part:
                continue
            if DR_MAGIC.match(part):
                dr = DR_LABEL.sub("DR ", part, count=1)
                continue
            if ORDINAL_ONLY.match(part):
                continue
            part = ORDINAL_END.sub("", part)
            qualities.append(part[:1].upper() + part[1:])
    if dr:
        qualities.append(dr)
    sr = row.abilities.get("SR")
    if sr and not is_dash(sr.text) and sr.text.strip().isdigit():
        qualities.append(f"spell resistance {sr.text.strip()}")
    return qualities


def dragon_title(variety: Variety, row: DragonRow) -> str:
    return f"{variety.name}, {title_case(row.age.upper())}"


# --------------------------------------------------------------------------------------------- the blocks
def first_prose(cells: list[Cell]) -> list[Cell]:
    """The first of ``cells`` within the bounds of one block's prose (:data:`~arena.limits.MAX_IMPORT_DESCRIPTION`
    characters, :data:`~arena.limits.MAX_IMPORT_DESCRIPTION_LINES` lines, the line that passes them included): a
    block's description is never copied longer than that."""
    total = 0
    for k, cell in enumerate(cells):
        total += len(cell.text) + 1
        if total > MAX_IMPORT_DESCRIPTION or k >= MAX_IMPORT_DESCRIPTION_LINES:
            return cells[: k + 1]
    return cells


def dragon_blocks(text: str, file: str) -> list[RawBlock]:
    """A block for each age of each variety of ``text`` (its fields written out by :func:`dragon_fields`), its
    description its breath weapons' sentences, its variety's section and the general rules of ``DRAGON, TRUE``."""
    general = first_prose(general_rules(text))
    out: list[RawBlock] = []
    for variety in find_varieties(text):
        if not variety.rows:
            continue
        shared = first_prose(variety.text + general) if len(out) <= MAX_IMPORT_BLOCKS else []
        for row in variety.rows:
            fields = dragon_fields(variety, row)
            size = SIZE_LETTERS.get(row.stats.get("Size", Cell("", 0)).text.strip().upper()[:1], "")
            description = _breath_text(variety, row, size, fields)
            out.append(
                RawBlock(
                    file=file,
                    line=row.line,
                    title=dragon_title(variety, row),
                    title_guessed=False,
                    type_line=fields.get("Size/Type"),
                    fields=fields,
                    layout="dragon tables",
                    description=description + shared,
                )
            )
    return out


def _breath_text(variety: Variety, row: DragonRow, size: str, fields: dict[str, Cell]) -> list[Cell]:
    """The breath weapon sentences the general rules and the tables make together, as the importer reads them:
    ``Breath Weapon (Su): 40-foot cone, once every 1d4 rounds, damage 6d10 fire, Reflex DC 21 half.``; a second
    breath (``Sleep Breath Weapon (Su): 40-foot cone of sleep, Will DC 21 negates.``) joins its Special Attacks."""
    breath = row.stats.get("Breath")
    m = BREATH_CELL.match(breath.text) if breath is not None else None
    if breath is None or not m or not variety.breath or size not in LINE:
        return []
    out = []
    for k, (shape, what, sentence) in enumerate(variety.breath):
        length = (LINE if shape == "line" else CONE)[size]
        energy = BREATH_TYPES.get(what)
        if k == 0 and energy:
            out.append(
                Cell(
                    f"Breath Weapon (Su): {length}-foot {shape}, once every 1d4 rounds, damage {m.group(1)} "
                    f"{energy}, Reflex DC {m.group(2)} half.",
                    breath.line,
                )
            )
        else:
            save = SAVE_WORD.search(sentence.split(f"{shape} of {what}", 1)[-1])
            word = what.split()[0]
            out.append(
                Cell(
                    f"{word.capitalize()} Breath Weapon (Su): {length}-foot {shape} of {what}, "
                    f"{save.group(1) if save else 'Will'} DC {m.group(2)} negates.",
                    breath.line,
                )
            )
            sa = fields["Special Attacks"]
            fields["Special Attacks"] = Cell(f"{sa.text}, {word} breath weapon", sa.line)
    return out
