"""The SRD's true dragons, one stat block per variety and age category, from the "Dragons by Age" tables.

The SRD gives a true dragon's numbers in two tables per variety (``Red Dragons by Age``: size, hit dice,
abilities, BAB/grapple, bite, saves, breath weapon damage and DC, frightful presence DC; ``Red Dragon Abilities by
Age``: speed, initiative, AC, special abilities, caster level, SR) and the rest in the general rules of
``DRAGON, TRUE``: the natural attacks and their damage by size (bite; 2 claws, 2 wings, a tail slap as secondary
attacks at -5 with half, half and 1-1/2 Str), space and reach by size, the breath weapon's length by size, crush
(Huge and larger) and tail sweep (Gargantuan and larger), and that a dragon gains the special abilities of its age
"plus all previous ones". This module puts the two together into the same :class:`RawBlock`-like reading as
the other stat blocks (:func:`dragon_blocks`), so the importer writes, checks and reports them alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arena.srd.fields import Notes, _clean, is_dash, number
from arena.srd.text import Cell, _rows, title_case

AGES = ("Wyrmling", "Very young", "Young", "Juvenile", "Young adult", "Adult", "Mature adult", "Old", "Very old",
        "Ancient", "Wyrm", "Great wyrm")
SIZE_LETTERS = {"F": "fine", "D": "diminutive", "T": "tiny", "S": "small", "M": "medium", "L": "large", "H": "huge",
                "G": "gargantuan", "C": "colossal"}
ORDER = ("tiny", "small", "medium", "large", "huge", "gargantuan", "colossal")

# SRD 3.5 "Dragon Space/Reach, Attacks, and Damage" and "Dragon Breath Weapons"
SPACE_REACH = {"tiny": "2-1/2 ft./0 ft.", "small": "5 ft./5 ft.", "medium": "5 ft./5 ft.",
               "large": "10 ft./5 ft.", "huge": "15 ft./10 ft.", "gargantuan": "20 ft./15 ft.",
               "colossal": "30 ft./20 ft."}
BITE = {"tiny": "1d4", "small": "1d6", "medium": "1d8", "large": "2d6", "huge": "2d8", "gargantuan": "4d6",
        "colossal": "4d8"}
CLAW = {"tiny": "1d3", "small": "1d4", "medium": "1d6", "large": "1d8", "huge": "2d6", "gargantuan": "2d8",
        "colossal": "4d6"}
WING = {"medium": "1d4", "large": "1d6", "huge": "1d8", "gargantuan": "2d6", "colossal": "2d8"}
TAIL_SLAP = {"large": "1d8", "huge": "2d6", "gargantuan": "2d8", "colossal": "4d6"}
CRUSH = {"huge": "2d8", "gargantuan": "4d6", "colossal": "4d8"}
TAIL_SWEEP = {"gargantuan": "2d6", "colossal": "2d8"}
LINE = {"tiny": 30, "small": 40, "medium": 60, "large": 80, "huge": 100, "gargantuan": 120, "colossal": 140}
CONE = {"tiny": 15, "small": 20, "medium": 30, "large": 40, "huge": 50, "gargantuan": 60, "colossal": 70}

BREATH_TYPES = {"fire": "fire", "acid": "acid", "corrosive (acid) gas": "acid", "lightning": "electricity",
                "cold": "cold", "frost": "cold"}


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
    rows, end = _rows(lines, start)
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
    for key, name in (("age", "Age"), ("size", "Size"), ("hit dice", "Hit Dice"), ("base attack", "BAB"),
                      ("attack", "Attack"), ("fort", "Fort"), ("ref", "Ref"), ("will", "Will"),
                      ("breath", "Breath"), ("frightful", "Frightful"), ("speed", "Speed"),
                      ("initiative", "Initiative"), ("ac", "AC"), ("special", "Special"), ("caster", "Caster"),
                      ("sr", "SR")):
        if h == key or h.startswith(key):
            return name
    return header.strip().capitalize()


def find_varieties(text: str) -> list[Variety]:
    """Every true-dragon variety in ``text`` that has both "by Age" tables."""
    lines = text.split("\n")
    out: list[Variety] = []
    heads = [(i, m.group(1)) for i, line in enumerate(lines)
             if (m := re.match(r"^\s*([A-Z]+) DRAGON\s*$", line))]
    for k, (start, color) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        section = lines[start:end]
        stats_at = next((j for j, line in enumerate(section) if re.match(rf"^\|\s*{color} Dragons by Age", line,
                                                                          re.IGNORECASE)), None)
        abil_at = next((j for j, line in enumerate(section) if re.match(rf"^\|\s*{color} Dragon Abilities by Age",
                                                                        line, re.IGNORECASE)), None)
        if stats_at is None or abil_at is None:
            continue
        name = f"{color.capitalize()} Dragon"
        sub_line = next((t for t in section[:8] if re.match(r"^\s*Dragon\s*\(", t)), "")
        subtypes = tuple(s.strip().lower() for s in re.sub(r"^\s*Dragon\s*\(|\)\s*$", "", sub_line).split(",")
                         if s.strip()) if sub_line else ()
        crs: dict[str, str] = {}
        cr_line = next((t for t in section if re.match(r"^\s*Challenge Ratings?:", t)), "")
        for age, value in re.findall(r"(wyrmling|very young|young adult|young|juvenile|mature adult|adult|very old|"
                                     r"old|ancient|great wyrm|wyrm)\s+(\d+)", cr_line.lower()):
            crs.setdefault(age, value)
        breath_line = next((t for t in section if t.startswith("Breath Weapon (Su):")), "")
        breath = []
        for shape, what in re.findall(r"\b(cone|line) of ([a-z]+(?: \(acid\) gas)?)", breath_line):
            breath.append((shape, what, breath_line))
        variety = Variety(name, start + 1, subtypes, crs, breath, [Cell(t, start + 1 + j) for j, t in
                                                                  enumerate(section)])
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
            variety.rows.append(DragonRow(name, age, line_no, {k: Cell(v.strip(), line_no) for k, v in row.items()},
                                          {k: Cell(v.strip(), a_line) for k, v in a_row.items()}))
        out.append(variety)
    return out


def general_rules(text: str) -> list[Cell]:
    """The ``DRAGON, TRUE`` section (its ability descriptions: frightful presence, crush, tail sweep ...)."""
    lines = text.split("\n")
    start = next((i for i, t in enumerate(lines) if t.strip() == "DRAGON, TRUE"), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^\s*[A-Z]+ DRAGON\s*$", lines[i])),
               len(lines))
    return [Cell(lines[j], j + 1) for j in range(start, end)]


def _str_part(str_mod: int, factor: float) -> str:
    bonus = int(str_mod * factor) if str_mod >= 0 else str_mod
    return f"{bonus:+d}" if bonus else ""


def age_index(age: str) -> int:
    return AGES.index(age)


def dragon_fields(variety: Variety, row: DragonRow, notes: Notes) -> dict[str, Cell]:
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
        out["Hit Dice"] = Cell(re.sub(r"\((\d+)\)", r"(\1 hp)", hd.text), hd.line)
    for key in ("Initiative", "Speed"):
        if key in a:
            out[key] = a[key]
    if "AC" in a:
        out["Armor Class"] = a["AC"]
    if "BAB" in s:
        out["Base Attack/Grapple"] = s["BAB"]
    out["Abilities"] = Cell(", ".join(f"{k} {s[k].text if k in s else '-'}" for k in
                                      ("Str", "Dex", "Con", "Int", "Wis", "Cha")), line)
    out["Saves"] = Cell(f"Fort {s['Fort'].text}, Ref {s['Ref'].text}, Will {s['Will'].text}" if all(
        k in s for k in ("Fort", "Ref", "Will")) else "", line)
    cr = variety.crs.get(row.age.lower())
    out["Challenge Rating"] = Cell(cr or "", line)
    out["Space/Reach"] = Cell(SPACE_REACH.get(size, ""), line)
    # attacks: the bite at the table's bonus, the secondary attacks at -5
    try:
        bite_bonus = number(s["Attack"].text.replace("+", "").strip())
        str_mod = (number(s["Str"].text) - 10) // 2
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
    bm = re.match(r"^\s*(\d+d\d+)\s*\((\d+)\)", breath.text) if breath else None
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
    qualities = ["Blindsense 60 ft.", "keen senses", "immunity to sleep and paralysis"]
    dr = None
    for older in variety.rows[: age_index(row.age) + 1]:
        cell = older.abilities.get("Special")
        if cell is None or is_dash(cell.text):
            continue
        for part in re.split(r",", _clean(cell.text)):
            part = part.strip()
            if not part:
                continue
            if re.match(r"^(DR\s*)?\d+/magic$", part, re.IGNORECASE):
                dr = re.sub(r"^(DR\s*)?", "DR ", part, flags=re.IGNORECASE)
                continue
            if re.match(r"^\d+(st|nd|rd|th)$", part):
                continue
            part = re.sub(r"\s+\d+(st|nd|rd|th)$", "", part)
            qualities.append(part[:1].upper() + part[1:])
    if dr:
        qualities.append(dr)
    sr = a.get("SR")
    if sr and not is_dash(sr.text) and sr.text.strip().isdigit():
        qualities.append(f"spell resistance {sr.text.strip()}")
    out["Special Attacks"] = Cell(", ".join(attacks), line)
    out["Special Qualities"] = Cell(", ".join(qualities), a["Age"].line if "Age" in a else line)
    return out


def dragon_title(variety: Variety, row: DragonRow) -> str:
    return f"{variety.name}, {title_case(row.age.upper())}"
