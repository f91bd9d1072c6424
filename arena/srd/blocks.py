"""Finding SRD 3.5 stat blocks in text: Markdown tables in the SRD layout and plain ``Field: value`` lines.

The SRD writes a stat block as a column of fields (``Hit Dice:``, ``Armor Class:``, ``Full Attack:`` ...). The
Markdown conversion of the SRD chapters puts them in tables, one creature per column and several columns per
table, with the conversion's marks (stray empty cells, a cell wrapped over two lines, a value glued to its label
as in ``Special Attacks:--``); a stat block copied from an SRD web page is plain lines, ``Hit Dice: 6d8+36 (63
hp)``. Both become :class:`~arena.srd.text.RawBlock` objects (:func:`find_blocks`): the creature's title, its
size-and-type line and every field's text with the line it is on. Reading the numbers out of them is
:mod:`arena.srd.fields`' job; the true dragons' tables by age are :mod:`arena.srd.dragons`'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.limits import MAX_IMPORT_BLOCKS
from arena.srd.text import FIELDS, Cell, RawBlock, field_name, is_type_line, title_case

MAX_WRAPPED_LINES = 24
"""Lines one table row may be wrapped over (a cell with a line break in it) before the row counts as broken."""


@dataclass
class Row:
    """One row of a Markdown table: its (1-based) line and its cells, stripped."""

    line: int
    cells: list[str]


def table_rows(lines: list[str], start: int) -> tuple[list[Row], int]:
    """The table rows from ``lines[start]`` on (a row wrapped over several lines is joined): (rows, next index)."""
    rows: list[Row] = []
    i = start
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        first = i
        text = lines[i].strip()
        wrapped = 0
        while not text.endswith("|") and i + 1 < len(lines) and wrapped < MAX_WRAPPED_LINES:
            nxt = lines[i + 1].strip()
            if nxt.startswith("|"):
                break
            i += 1
            wrapped += 1
            if nxt:
                text = f"{text} {nxt}"
        body = text.strip()
        body = body[1:] if body.startswith("|") else body
        body = body[:-1] if body.endswith("|") else body
        rows.append(Row(first + 1, [c.strip() for c in body.split("|")]))
        i += 1
    return rows, i


def _split_label(cells: list[str]) -> tuple[str | None, str, list[str]]:
    """(field, label text, value cells) of a row; a value glued to its label (``Special Attacks:--``) is split off."""
    if not cells:
        return None, "", []
    label, values = cells[0], cells[1:]
    name = field_name(label)
    if name is None and ":" in label:
        head, _, rest = label.partition(":")
        name = field_name(head)
        if name is not None and rest.strip():
            values = [rest.strip(), *values]
    return name, label, values


def _filled(values: list[str]) -> list[tuple[int, str]]:
    return [(i, v) for i, v in enumerate(values) if v]


@dataclass
class _Table:
    start: int
    end: int
    rows: list[Row]


def _stat_tables(lines: list[str]) -> list[_Table]:
    tables: list[_Table] = []
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|"):
            rows, nxt = table_rows(lines, i)
            known = {_split_label(r.cells)[0] for r in rows} - {None}
            if "Hit Dice" in known and len(known) >= 3:
                tables.append(_Table(i, nxt, rows))
            i = nxt
        else:
            i += 1
    return tables


_HEADING = re.compile(r"^[A-Z0-9][A-Z0-9 ,'()\-/.]+$")
"""A heading above a table, in capitals: ``TROLL``, ``ELEMENTAL, AIR``, ``BEAR, BLACK``."""


def _heading_before(lines: list[str], index: int, floor: int) -> str | None:
    """The nearest heading line (capitals, ``TROLL``; or a short title line) above ``index``, not above ``floor``."""
    for j in range(index - 1, max(floor, index - 60) - 1, -1):
        text = lines[j].strip()
        if not text or text.startswith("|"):
            continue
        if _HEADING.match(text) and any(c.isalpha() for c in text) and text.upper() != "COMBAT":
            return text
    for j in range(index - 1, max(floor, index - 8) - 1, -1):
        text = lines[j].strip()
        if text and not text.startswith("|") and len(text) <= 40 and not text.endswith((".", ":")):
            return text
    return None


_FIELDS_ALT = "|".join(re.escape(f) for f in FIELDS if f != "Size/Type")
_EMBEDDED = re.compile(rf"\s({_FIELDS_ALT}):\s*")
"""A field the conversion put in another's cell: ``+10/+26 Attack:Morningstar +26 melee (2d6+12)``."""


def _labelled_rows(table: _Table) -> tuple[list[Row], list[tuple[str, str, Row, list[str]]]]:
    """(the unlabelled rows above ``Hit Dice``, the rows below it as (field, label, row, value cells)).

    Conversion marks are mended here: an unlabelled row under a row with too few values holds the missing ones
    (a cell the converter moved one line down); a second ``Attack:`` row where ``Full Attack:`` is missing is
    the full attack; a value holding another field (``+10/+26 Attack:Morningstar ...``) is split in two.
    """
    head_rows: list[Row] = []
    labelled: list[tuple[str, str, Row, list[str]]] = []
    for row in table.rows:
        name, label, values = _split_label(row.cells)
        if name is None and not labelled and not label.strip():
            head_rows.append(row)
            continue
        if name is None and not label.strip() and labelled and labelled[-1][0]:
            prev_name, prev_label, prev_row, prev_values = labelled[-1]
            merged = list(prev_values)
            extra = [v for v in values if v]
            for k, v in enumerate(merged):
                if not v and extra and k < len(merged):
                    merged[k] = extra.pop(0)
            if not extra:
                labelled[-1] = (prev_name, prev_label, prev_row, merged)
                continue
        labelled.append((name or "", label, row, values))
    names = [n for n, *_ in labelled]
    if names.count("Attack") == 2 and "Full Attack" not in names:
        k = [i for i, n in enumerate(names) if n == "Attack"][1]
        labelled[k] = ("Full Attack", "Attack: (the second)", labelled[k][2], labelled[k][3])
    out: list[tuple[str, str, Row, list[str]]] = []
    present = {n for n, *_ in labelled}
    for name, label, row, values in labelled:
        split: list[tuple[str, list[str]]] = [(name, [])]
        for v in values:
            m = _EMBEDDED.search(v)
            if m and m.group(1) not in present and name:
                split[-1][1].append(v[: m.start()].strip())
                split.append((m.group(1), [v[m.end() :].strip()]))
                present.add(m.group(1))
            else:
                split[-1][1].append(v)
        out.extend((n, label if n == name else n + ":", row, vals) for n, vals in split)
    return head_rows, out


def _join_wrapped(head_rows: list[Row]) -> None:
    """Join to the head row above it each head row that only continues it: "(Human, Shapechanger)" wrapped under
    "Medium Humanoid" (in place)."""
    for k in range(len(head_rows) - 1, 0, -1):
        filled = _filled(head_rows[k].cells[1:])
        above = head_rows[k - 1].cells
        if filled and all(v.startswith("(") for _, v in filled) and len(_filled(above[1:])) == len(filled):
            for (_, v), (j, _) in zip(filled, _filled(above[1:]), strict=True):
                above[j + 1] = f"{above[j + 1]} {v}"
            del head_rows[k]


def _type_and_names(head_rows: list[Row]) -> tuple[Row | None, Row | None]:
    """The head row of the creatures' types (``Medium Humanoid``, the last row when every cell of it is a type line)
    and the head row of their names (the last other row with anything in it), either None when missing."""
    type_row = names_row = None
    for row in reversed(head_rows):
        filled = _filled(row.cells[1:])
        if type_row is None and names_row is None and filled and all(is_type_line(v) for _, v in filled):
            type_row = row
        elif names_row is None and filled:
            names_row = row
    return type_row, names_row


def _table_blocks(table: _Table, file: str, lines: list[str], floor: int) -> list[RawBlock]:
    """A block for each creature (column) of a Markdown stat-block table, its fields read by position under the
    Hit Dice row's columns; every row that does not fit is a problem the block carries."""
    head_rows, labelled = _labelled_rows(table)
    _join_wrapped(head_rows)
    hd = next(v for n, _, _, v in labelled if n == "Hit Dice")
    positions = [i for i, _ in _filled(hd)]
    count = len(positions)
    type_row, names_row = _type_and_names(head_rows)
    heading = _heading_before(lines, table.start, floor)
    problems: list[tuple[int, str, str, str]] = []

    def column_values(row: Row, values: list[str], what: str) -> list[str | None]:
        filled = _filled(values)
        if len(filled) == count:
            return [v for _, v in filled]
        by_position = [values[p] if p < len(values) and values[p] else None for p in positions]
        if filled and sum(v is not None for v in by_position) == len(filled):
            return by_position
        if not filled:
            return [None] * count
        shown = " | ".join(v for _, v in filled)
        problems.append((row.line, what, shown, f"{len(filled)} values for {count} creatures: read in order"))
        out: list[str | None] = [v for _, v in filled[:count]]
        return out + [None] * (count - len(out))

    titles = column_values(names_row, names_row.cells[1:], "name") if names_row else [None] * count
    types = column_values(type_row, type_row.cells[1:], "Size/Type") if type_row else [None] * count
    columns: list[tuple[str, int, list[str | None]]] = []
    for name, label, row, values in labelled:
        if not name:
            if any(values):
                problems.append(
                    (
                        row.line,
                        label.rstrip(":") or "(unlabelled row)",
                        " | ".join(v for v in values if v),
                        "not a field of an SRD stat block: left out",
                    )
                )
            continue
        columns.append((name, row.line, column_values(row, values, name)))
    blocks = []
    for col in range(count):
        title, guessed = titles[col], False
        if not title:
            guessed = count > 1 or heading is None
            base = title_case(heading) if heading else "Unnamed Creature"
            title = base if count == 1 else f"{base} {col + 1}"
        fields: dict[str, Cell] = {}
        type_text = types[col]
        if type_text and type_row is not None:
            fields["Size/Type"] = Cell(type_text, type_row.line)
        for name, line, texts in columns:
            text = texts[col]
            if text is not None and name not in fields:
                fields[name] = Cell(text, line)
        blocks.append(
            RawBlock(
                file=file,
                line=table.rows[0].line,
                title=" ".join(title.split()),
                title_guessed=guessed,
                type_line=fields.get("Size/Type"),
                fields=fields,
                layout="table",
                column=col,
                columns=count,
                problems=list(problems),
            )
        )
    return blocks


def _tables(text: str, file: str) -> list[RawBlock]:
    """The table columns of ``text``. Tables with no prose between them form a group (an elemental's six sizes
    in two tables) whose description is the prose after the group's last table, then the prose before its first
    one (a family's shared COMBAT section)."""
    lines = text.split("\n")
    tables = _stat_tables(lines)
    groups: list[tuple[int, int, list[RawBlock]]] = []  # (first table's start, last table's end, blocks)
    previous_end = 0
    for table in tables:
        made = _table_blocks(table, file, lines, previous_end)
        if groups and not _has_prose(lines[previous_end : table.start]):
            start, _, blocks = groups[-1]
            groups[-1] = (start, table.end, blocks + made)
        else:
            groups.append((table.start, table.end, made))
        previous_end = table.end
    out: list[RawBlock] = []
    for k, (start, end, blocks) in enumerate(groups):
        after_end = groups[k + 1][0] if k + 1 < len(groups) else len(lines)
        before_start = groups[k - 1][1] if k else 0
        description = [Cell(lines[j], j + 1) for j in range(end, after_end)]
        description += [Cell(lines[j], j + 1) for j in range(before_start, start)]
        for b in blocks:
            b.description = description
        out.extend(blocks)
    return out


def _has_prose(lines: list[str]) -> bool:
    """Lines that hold a sentence or an ability description (not only blanks, headings or table rows)."""
    return any(len(t.strip()) > 60 and not t.lstrip().startswith("|") for t in lines)


# --------------------------------------------------------------------------------------------- Field: value lines
_LABEL = re.compile(r"[A-Za-z][A-Za-z /]*")
"""A field's label in a ``Field: value`` line: ``Hit Dice``, ``Base Attack/Grapple``."""
_STAT_LOOKS = {
    "Hit Dice": re.compile(r"(?<!\d)\d+\s*d\s*\d+|^\s*-\s*\d"),
    "Armor Class": re.compile(r"^\s*-?\d+"),
    "Saves": re.compile(r"\bfort", re.IGNORECASE),
    "Abilities": re.compile(r"\bstr\b", re.IGNORECASE),
    "Base Attack/Grapple": re.compile(r"^\s*[+-]?\d+\s*/"),
    "Challenge Rating": re.compile(r"^\s*[\d/.\-]+\s*$"),
}
"""What a field's value looks like in lines that are a stat block: hit dice (``6d8+36 (63 hp)``, ``6 d 8``), an
armor class (``16 (...)``), saves (``Fort +11 ...``), abilities (``Str 23 ...``), BAB (``+4/+14``), a CR (``1/2``).
Two of them make a run of ``Field: value`` lines a block."""


def _field_of_line(text: str) -> tuple[str, str] | None:
    r"""(field, value) of a ``Field: value`` line (``**Hit Dice:** 6d8+36``), or None: what
    ``^\s*\**([A-Za-z][A-Za-z /]*?)\**\s*:\s*\**\s*(.*)$`` reads, without a pattern (its label rescanned a long
    run of blanks before a missing colon from every place in it)."""
    text = text.replace("\t", " ")
    colon = text.find(":")
    if colon < 0:
        return None
    label = text[:colon].lstrip().lstrip("*").rstrip().rstrip("*")
    if not _LABEL.fullmatch(label):
        return None
    name = field_name(label)
    return (name, text[colon + 1 :].lstrip().lstrip("*").strip()) if name else None


def _line_blocks(text: str, file: str) -> list[RawBlock]:
    lines = text.split("\n")
    runs: list[list[tuple[int, str, str]]] = []
    current: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("|"):
            if current:
                runs.append(current)
                current = []
            continue
        found = _field_of_line(line)
        if found:
            if current and found[0] in {n for _, n, _ in current}:
                runs.append(current)
                current = []
            current.append((i, *found))
        elif line.strip() and current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    blocks = []
    previous_end = 0
    for run in runs:
        looks = sum(1 for _, name, value in run if name in _STAT_LOOKS and _STAT_LOOKS[name].search(value))
        if looks < 2 or not any(name == "Hit Dice" for _, name, _ in run):
            continue
        first = run[0][0]
        fields = {name: Cell(value, i + 1) for i, name, value in run}
        type_line = fields.get("Size/Type")
        title, title_line = None, first
        for j in range(first - 1, max(previous_end, first - 6) - 1, -1):
            t = lines[j].strip().strip("*#").strip()
            if not t:
                continue
            if type_line is None and is_type_line(t):
                type_line = Cell(t, j + 1)
                fields["Size/Type"] = type_line
                continue
            title, title_line = t, j + 1
            break
        guessed = title is None
        blocks.append(
            RawBlock(
                file=file,
                line=title_line + (0 if title else 1),
                title=title_case(title or "Unnamed Creature"),
                title_guessed=guessed,
                type_line=type_line,
                fields=fields,
                layout="lines",
            )
        )
        end = run[-1][0] + 1
        nxt = len(lines)
        description = [Cell(lines[j], j + 1) for j in range(end, min(nxt, end + 400))]
        blocks[-1].description = description
        previous_end = end
        if len(blocks) > MAX_IMPORT_BLOCKS:  # the file is refused: no need to read the rest
            break
    return blocks


def find_blocks(text: str, file: str) -> list[RawBlock]:
    """Every stat block in ``text`` (tables first, then ``Field: value`` blocks), in the order of their lines."""
    blocks = _tables(text, file) + _line_blocks(text, file)
    context = tuple(text.split("\n"))
    for b in blocks:
        b.context = context
    return sorted(blocks, key=lambda b: (b.line, b.column))
