"""The prose around a stat block: the paragraphs that describe its abilities (``Rend (Ex): If a troll hits with
both claw attacks ...``), the creature's own section of a description its table shares, the family's general rules
above it, and the family's tables by size.

A chapter is read once per file, not once per block: :func:`lines_where` and :func:`paragraph_heads` keep the
indexes of the last few files and descriptions, so a file of many blocks costs its length, not its length times
their number.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from arena.srd.patterns import SIZE_ROW_WORDS
from arena.srd.text import Cell, RawBlock, clean, is_type_line, number

PARAGRAPH = re.compile(r"^\s*([A-Z][A-Za-z' ,/\-]{1,60}?)(?:\s*+(\((?:Ex|Su|Sp|Ex or Su|Su or Sp)\)))?\s*+:\s")
r"""An ability's paragraph, its name and ``(Ex)``, ``(Su)`` or ``(Sp)``: ``Rend (Ex): If a troll hits ...``,
``Spell-Like Abilities: At will--...``. The blanks are taken whole (``\s*+``): two optional runs of them in a row
rescanned a long run of blanks from every place in it."""
CREATURE_HEADING = re.compile(r"[A-Z][A-Z ,'\-]{2,}")
"""A chapter's heading in capitals, the whole line: ``DWARF``, ``HARPY ARCHER``, ``DRAGON TURTLE``."""
BROKEN_POSSESSIVE = re.compile(r"'\s+s\b")
"""A possessive the conversion broke: ``the elemental' s``."""

MAX_NAMING = 50
"""Paragraphs describing one ability that are weighed for naming the creature (the SRD has at most three)."""
MAX_WORDS = 20
"""Words of a creature's title looked for in them (the SRD's longest title has eight)."""
MAX_SIZE_TABLE_ROWS = 100
"""Rows of a table by size read (the SRD's have at most ten): every block near a table reads it again."""


# --------------------------------------------------------------------------------------------- the file's lines
_INDEXES: list[tuple[tuple[str, ...], dict]] = []
"""The line indexes of the last few files' contexts (:func:`lines_where`)."""


def lines_where(context: tuple[str, ...], key: object, test: Callable[[str], object]) -> list[int]:
    """The (0-based, ascending) indices of the lines of ``context`` (a block's file) that pass ``test``, found once
    per file and ``key``: each block then looks up the nearest one (:func:`nearest_before`) instead of scanning
    the file again, which made a file of many blocks cost its length times their number."""
    index = next((found for ctx, found in _INDEXES if ctx is context), None)
    if index is None:
        index = {}
        _INDEXES.insert(0, (context, index))
        del _INDEXES[4:]
    if key not in index:
        index[key] = [i for i, text in enumerate(context) if test(text)]
    return index[key]


def nearest_before(indices: list[int], limit: int) -> int | None:
    """The largest of ``indices`` (ascending) below ``limit``, or None."""
    k = bisect.bisect_left(indices, limit)
    return indices[k - 1] if k else None


def rule_above(block: RawBlock, pattern: str) -> str | None:
    """The nearest line above the block (in its file) that matches ``pattern`` (a family's general rule)."""
    rx = re.compile(pattern, re.IGNORECASE)
    found = nearest_before(
        lines_where(block.context, ("rule", pattern), rx.search), min(block.line, len(block.context))
    )
    return None if found is None else block.context[found]


def is_heading(line: str) -> bool:
    """A chapter's heading in capitals (:data:`CREATURE_HEADING`)."""
    return CREATURE_HEADING.fullmatch(line.strip()) is not None


def is_creature_heading(line: str) -> bool:
    """A heading that names a creature: ``HARPY ARCHER``, not ``COMBAT`` or ``TACTICS``."""
    return is_heading(line) and line.strip() not in ("COMBAT", "TACTICS")


def heading_above(block: RawBlock, line: int) -> str:
    """The chapter's creature heading (``HARPY ARCHER``) nearest above ``line``, as its lowercase words."""
    headings = lines_where(block.context, "capitals heading", is_creature_heading)
    found = nearest_before(headings, min(line, len(block.context)) - 1)
    return "" if found is None else " ".join(re.findall(r"[a-z]+", block.context[found].strip().lower()))


# --------------------------------------------------------------------------------------------- ability paragraphs
@dataclass
class Heads:
    """The paragraphs of one description that an ability heads (``Rend (Ex): ...``), read once per description
    (the columns of a table share theirs): every lookup of an ability then reads the heads, not every line again."""

    heads: list[tuple[Cell, str, bool]]
    """(paragraph, its head in lowercase, whether ``(Ex)``, ``(Su)`` or ``(Sp)`` follows the name), in order."""
    of: dict[Cell, str]
    """The head of each paragraph that has one."""
    first: dict[str, list[int]]
    """Positions in ``heads`` by each key a head answers to: itself and its prefixes before a space or a slash."""
    slashed: list[int]
    """Positions of the heads with a slash (``rend/rake``): ``/rake`` in one is looked for by reading them."""


_HEADS: list[tuple[list[Cell], Heads]] = []


def ability_head(name: str) -> str:
    """An ability's name as a paragraph's head is compared: lowercase, only letters, ``'``, ``/``, ``-`` and single
    spaces (``Breath Weapon`` -> ``breath weapon``)."""
    return " ".join(re.sub(r"[^a-z' /\-]", " ", name.lower()).split())


def paragraph_heads(description: list[Cell]) -> Heads:
    """The :class:`Heads` of ``description`` (the last few descriptions' are kept)."""
    found = next((heads for desc, heads in _HEADS if desc is description), None)
    if found is not None:
        return found
    heads: list[tuple[Cell, str, bool]] = []
    for cell in description:
        m = PARAGRAPH.match(cell.text)
        if m:
            heads.append((cell, ability_head(m.group(1)), bool(m.group(2))))
    first: dict[str, list[int]] = {}
    slashed: list[int] = []
    for k, (_, head, _) in enumerate(heads):
        if not head:
            continue
        keys = {head} | {head[:i] for i, ch in enumerate(head) if ch in " /"}
        for key in keys:
            first.setdefault(key, []).append(k)
        if "/" in head:
            slashed.append(k)
    found = Heads(heads, {cell: head for cell, head, _ in heads}, first, slashed)
    _HEADS.insert(0, (description, found))
    del _HEADS[8:]
    return found


def describing(description: list[Cell], name: str) -> list[Cell]:
    """Every paragraph of ``description`` whose head is the ability ``name``: the head is the name, or starts with it
    and a space or a slash, or holds a slash and the name (``rend/rake``), in order."""
    wanted = ability_head(name)
    if not wanted:
        return []
    index = paragraph_heads(description)
    positions = set(index.first.get(wanted, ()))
    positions.update(k for k in index.slashed if f"/{wanted}" in index.heads[k][1])
    return [index.heads[k][0] for k in sorted(positions)]


def description_of(block: RawBlock, name: str) -> Cell | None:
    """The paragraph that describes the ability ``name`` (``Rend (Ex): ...``) in the block's description."""
    found = describing(block.description, name)
    return found[0] if found else None


def described_abilities(block: RawBlock) -> dict[str, Cell]:
    """Every ``Name (Ex|Su|Sp): ...`` paragraph of the block's description, by lowercase name."""
    out: dict[str, Cell] = {}
    for cell, head, described in paragraph_heads(block.description).heads:
        if described:
            out.setdefault(head, cell)
    return out


def own_description(block: RawBlock, name: str) -> Cell | None:
    """The paragraph that describes the ability ``name`` for this creature: where the columns of one table share
    their prose and it describes the ability once per creature (the ghoul's paralysis, then the ghast's), the
    paragraph that names the creature (``a ghast's bite``); else the first."""
    found = describing(block.description, name)
    if len(found) < 2:
        return found[0] if found else None
    words = list(dict.fromkeys(w for w in re.findall(r"[a-z]+", block.title.lower()) if len(w) > 3))[:MAX_WORDS]
    return max(found[:MAX_NAMING], key=lambda c: sum(1 for w in words if re.search(rf"\b{w}", c.text.lower())))


def following(block: RawBlock, desc: Cell | None, count: int = 3) -> str:
    """The description and the paragraphs after it that no ability heads, at most ``count`` of them (the behir's
    swallowed creature 'takes 2d8+8 points of bludgeoning damage' two paragraphs on), as one cleaned text."""
    if desc is None:
        return ""
    cells = block.description
    try:
        i = cells.index(desc)
    except ValueError:
        return clean(desc.text)
    out = [desc.text]
    for cell in cells[i + 1 :]:
        if len(out) > count:
            break
        if not cell.text.strip():
            continue
        if PARAGRAPH.match(cell.text):
            break
        out.append(cell.text)
    return BROKEN_POSSESSIVE.sub("'s", clean(" ".join(out)))


# --------------------------------------------------------------------------------------------- own section
def _is_table_start(line: str) -> bool:
    return line.lstrip().startswith("|") and any(is_type_line(cell) for cell in line.split("|")[1:3] if cell.strip())


def _table_starts(block: RawBlock) -> list[int]:
    """The (1-based) lines where a stat table of the block's file starts (its type row, ``| | Large Aberration |``)."""
    return [i + 1 for i in lines_where(block.context, "table start", _is_table_start)]


def own_section(block: RawBlock) -> RawBlock:
    """The block with only its own creature's description paragraphs, for reading its spells: a table block's
    description runs into its neighbours' prose (the duergar's held the dryad's spell-like abilities, the silver
    dragon's the drider's spells). Kept: from the last capitalised heading (``DWARF``) above the block's stat table
    to the next stat table; a block with no stat table above it (the true dragons' tables by age) keeps everything
    above, its family's general rules."""
    if block.layout not in ("table", "dragon tables"):
        return block
    if not block.context:  # a true dragon (built from its variety's tables): up to the next heading
        after = min((c.line for c in block.description if c.line > block.line and is_heading(c.text)), default=None)
        if after is None:
            return block
        return dataclasses.replace(block, description=[c for c in block.description if c.line < after])
    starts = _table_starts(block)
    headings = lines_where(block.context, "heading", is_heading)  # 0-based, ascending
    k = bisect.bisect_right(starts, block.line + 2)
    own = starts[k - 1] if k else 0
    # the next stat table with a creature heading between (the formians' two tables share one description)
    h = bisect.bisect_left(headings, block.line + 2)
    k = bisect.bisect_right(starts, max(block.line + 2, headings[h] + 1)) if h < len(headings) else len(starts)
    after = starts[k] if k < len(starts) else len(block.context) + 1
    above = nearest_before(headings, own - 1) if own else None
    first = 0 if above is None else above + 1
    kept = [c for c in block.description if first <= c.line < after]
    return dataclasses.replace(block, description=kept, context_end=after - 1)


# --------------------------------------------------------------------------------------------- tables by size
def size_tables(block: RawBlock, line: int, column: str, before: int = 12, after: int = 30) -> list[dict]:
    """The Markdown tables near ``line`` of the block's file whose header names ``column`` (``Fort DC``, ``Break
    DC``): each as {row key (``medium``, ``greater``): {header: cell}}; a table of two column groups side by side
    (``| Size | Fort DC | Damage | Size | Fort DC | Damage |``) gives the rows of both."""
    lines = block.context
    start, stop = max(0, line - 1 - before), min(len(lines), line - 1 + after)
    tables = []
    j = start
    while j < stop:
        row = lines[j]
        if row.lstrip().startswith("|") and column.lower() in row.lower():
            head = [c.strip() for c in row.strip().strip("|").split("|") if c.strip()]
            key = head[0]
            groups: list[list[str]] = []
            for cell in head:
                if cell == key:
                    groups.append([])
                groups[-1].append(cell)
            width = len(groups[0])
            table: dict = {}
            j += 1
            end = min(len(lines), j + MAX_SIZE_TABLE_ROWS)
            while j < end and lines[j].lstrip().startswith("|"):
                cells = [c.strip() for c in lines[j].strip().strip("|").split("|") if c.strip()]
                for k in range(0, len(cells) - width + 1, width):
                    chunk = cells[k : k + width]
                    table[chunk[0].lower()] = dict(zip(groups[0], chunk, strict=True))
                j += 1
            tables.append(table)
        j += 1
    return tables


def size_row(block: RawBlock, size: str, line: int, column: str) -> tuple[str, dict] | None:
    """This creature's row of the nearest table naming ``column``: the title's size word (``Monstrous Spider,
    Medium``; ``Fire Elemental, Greater``; ``Snake, Tiny Viper``), else its size; with the key it was found by."""
    words = [w for w in re.findall(r"[a-z]+", block.title.lower()) if w in SIZE_ROW_WORDS]
    for table in size_tables(block, line, column):
        for word in [*reversed(words), size]:
            if word in table:
                return word, table[word]
    return None


def column_of(row: dict, column: str) -> str | None:
    """The cell of a table row whose header names ``column`` (``Fort DC`` in ``Fort DC*``)."""
    return next((v for k, v in row.items() if column.lower() in k.lower()), None)


def size_number(block: RawBlock, size: str, desc: Cell | None, column: str) -> tuple[int | None, str | None]:
    """A whole number from ``column`` of this creature's row of its table by size, and the row's key (or None)."""
    if desc is None:
        return None, None
    found = size_row(block, size, desc.line, column)
    if found is None:
        return None, None
    key, row = found
    value = column_of(row, column)
    return (number(value), key) if value and value.isdigit() else (None, None)
