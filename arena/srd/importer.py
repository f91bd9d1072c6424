"""`arena bestiary import`: SRD-layout stat blocks (Markdown tables or ``Field: value`` lines) to YAML stat blocks.

:func:`import_files` reads each file (:mod:`arena.srd.sources`), finds its stat blocks (:mod:`arena.srd.blocks`, the
true dragons' "by Age" tables through :mod:`arena.srd.dragons`), builds each creature (:mod:`arena.srd.build`) and
writes one YAML file per creature (:mod:`arena.srd.writing`). What it could not read, read with a guess, rewrote or
found in disagreement with itself is reported with file, line and text (and recorded in the creature's
``import_notes``); a block that cannot make a creature, and a file with no stat block, is an error; every good
creature is still written. Lines too long and numbers too large are refused before anything reads them, and each
creature that reads one is an error of its own (:func:`refusals`).

The shipped SRD bestiary (``bestiary/srd/``, package ``arena.bestiary_data``) is made once from the SRD 3.5
monster chapters with :func:`build_shipped` (``python -m arena.srd SRC OUT``, see docs/bestiary.md), and checked
against them with :func:`check_shipped` (``python -m arena.srd --check SRC``); nothing reads the SRD text at run
time.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import ArenaError
from arena.limits import MAX_IMPORT_BLOCKS, MAX_IMPORT_DESCRIPTION, MAX_IMPORT_DESCRIPTION_LINES
from arena.srd.blocks import find_blocks
from arena.srd.build import Built, Problem, build, kebab
from arena.srd.context import Note
from arena.srd.dragons import dragon_blocks
from arena.srd.sources import SourceError, decode_source, read_source, refusals, refused_lines_read, screen
from arena.srd.text import Cell, RawBlock
from arena.srd.writing import to_yaml, write_atomically, write_stat_blocks
from arena.world.srd_bestiary import write_index


# --------------------------------------------------------------------------------------------- the SRD's mends
@dataclass(frozen=True)
class Fix:
    """A cell of the SRD Markdown conversion mended before it is read (the SRD's own text where the conversion lost
    or moved it)."""

    file: str
    title: str
    field: str
    old: str
    new: str
    kind: str
    reason: str


REFERENCE_FIXES: tuple[Fix, ...] = (
    Fix(
        "MonstersDr-Dw.md",
        "Dwarf, 1st-Level Warrior",
        "Challenge Rating",
        '"',
        "1/2",
        "guess",
        "the converted cell holds a ditto mark; 1/2, the SRD's CR of a 1st-level dwarf warrior",
    ),
    Fix(
        "MonstersAnimals.md",
        "Cheetah",
        "Attack",
        "Bite +6 melee",
        "Bite +6 melee (1d6+3)",
        "changed",
        "the converted cell lost the damage; the bite's damage of the Full Attack",
    ),
    Fix(
        "MonstersK-L.md",
        "Werewolf Lord, Hybrid Form",
        "Attack",
        "Claw +24 melee (1d6+11) or +2 bastard sword +27 melee",
        "Claw +24 melee (1d6+11) or +2 bastard sword +27 melee (2d8+15/17-20)",
        "changed",
        "the converted cell lost the sword's damage; the sword's damage of the Full Attack",
    ),
    Fix(
        "MonstersT-Z.md",
        "Juvenile Tojanida",
        "Special Qualities",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to electricity 10 and fire 10",
        "changed",
        "the converted row moved part of the cell into the next column",
    ),
    Fix(
        "MonstersT-Z.md",
        "Adult Tojanida",
        "Special Qualities",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, electricity 10 and fire 10",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to electricity 10 and fire 10",
        "changed",
        "the converted row moved part of the cell into the next column",
    ),
    Fix(
        "MonstersT-Z.md",
        "Elder Tojanida",
        "Special Qualities",
        "All-around vision, darkvision 60 ft., resistance to electricity 10 and fire 10 immunity to acid and cold, "
        "resistance to electricity 10 and fire 10",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to electricity 10 and fire 10",
        "changed",
        "the converted row moved part of the previous column's cell into this one",
    ),
    Fix(
        "MonstersT-Z.md",
        "Average Xorn",
        "Abilities",
        "Str 17, Dex 10, Con 15,",
        "Str 17, Dex 10, Con 15, Int 10, Wis 11, Cha 10",
        "changed",
        "the converted row moved the end of the cell into the next column",
    ),
    Fix(
        "MonstersT-Z.md",
        "Elder Xorn",
        "Abilities",
        "Str 25, Dex 10, Con 19, Int 10, Wis 11, Cha 10 Int 10, Wis 11, Cha 10",
        "Str 25, Dex 10, Con 19, Int 10, Wis 11, Cha 10",
        "changed",
        "the converted row moved the end of the previous column's cell into this one",
    ),
    Fix(
        "MonstersE-F.md",
        "Earth Elemental, Greater",
        "Full Attack",
        "2 slams +23 melee (2d10+10) 2",
        "2 slams +23 melee (2d10+10)",
        "changed",
        "the converted row moved the next column's first word here",
    ),
    Fix(
        "MonstersE-F.md",
        "Earth Elemental, Elder",
        "Full Attack",
        "slams +27 melee (2d10+11/19-20)",
        "2 slams +27 melee (2d10+11/19-20)",
        "changed",
        "the converted row moved this cell's first word away",
    ),
)
"""Mends of the SRD 3.5 monster chapters' Markdown conversion (``../shared/reference/srd35-monsters``): each names
the file, the creature, the field and the exact converted text, so it touches nothing else."""


def apply_fixes(block: RawBlock, fixes: tuple[Fix, ...]) -> list[tuple[Fix, Cell]]:
    """Mend the cells of ``block`` that a fix names (file, creature, field and exact old text): the fixes applied,
    each with the cell it replaced."""
    applied = []
    base = os.path.basename(block.file)
    for fix in fixes:
        cell = block.fields.get(fix.field)
        if (
            fix.file == base
            and fix.title == block.title
            and cell is not None
            and " ".join(cell.text.split()) == fix.old
        ):
            block.fields[fix.field] = Cell(fix.new, cell.line)
            applied.append((fix, cell))
    return applied


def fix_note(fix: Fix, cell: Cell) -> Note:
    """The note a mend leaves in the creature's import notes."""
    return Note(fix.kind, fix.field, cell.line, fix.old, f"read as {fix.new!r}: {fix.reason}")


# --------------------------------------------------------------------------------------------- files
@dataclass
class FileReport:
    file: str
    built: list[Built] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)


@dataclass
class ImportReport:
    files: list[FileReport] = field(default_factory=list)
    written: list[tuple[Built, Path]] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [e for f in self.files for e in f.errors]

    @property
    def built(self) -> list[Built]:
        return [b for f in self.files for b in f.built]


def blocks_in(text: str, file: str) -> list[RawBlock]:
    """Every stat block of ``text``: its tables' columns, its ``Field: value`` blocks and its true dragons."""
    return sorted(find_blocks(text, file) + dragon_blocks(text, file), key=lambda b: (b.line, b.column))


# --------------------------------------------------------------------------------------------- lines not read
def bounded_description(
    block: RawBlock, notes: list[Note], done: dict[int, tuple[list[Cell], list[Cell], Note | None]]
) -> None:
    """At most :data:`~arena.limits.MAX_IMPORT_DESCRIPTION` characters and
    :data:`~arena.limits.MAX_IMPORT_DESCRIPTION_LINES` lines of prose per block (the nearest first); the blocks that
    share a description (a table's columns) share the bounded one (``done``, by the original's id)."""
    original = block.description
    if id(original) not in done:
        kept, note, total = original, None, 0
        for k, cell in enumerate(original):
            total += len(cell.text) + 1
            if total > MAX_IMPORT_DESCRIPTION or k >= MAX_IMPORT_DESCRIPTION_LINES:
                kept = original[:k]
                note = Note(
                    "guess",
                    "description",
                    cell.line,
                    "",
                    f"more than {MAX_IMPORT_DESCRIPTION:,} characters or {MAX_IMPORT_DESCRIPTION_LINES:,} "
                    "lines of prose with this block: the rest, from this line on, not read",
                )
                break
        done[id(original)] = (original, kept, note)
    _, block.description, note = done[id(original)]
    if note is not None:
        notes.append(note)


def import_text(text: str, file: str, fixes: tuple[Fix, ...] = REFERENCE_FIXES) -> FileReport:
    """Build every stat block of ``text`` (named ``file`` in messages)."""
    report = FileReport(file)
    text, refused = screen(text)
    blocks = blocks_in(text, file)
    if not blocks:
        report.errors += [Problem(file, line, "line", why) for line, why in sorted(refused.items())]
        report.errors.append(
            Problem(
                file,
                None,
                "file",
                "no stat block found (no 'Hit Dice:' field in an SRD-layout table or in 'Field: value' lines)",
            )
        )
        return report
    if len(blocks) > MAX_IMPORT_BLOCKS:
        report.errors.append(
            Problem(
                file,
                None,
                "file",
                f"more than {MAX_IMPORT_BLOCKS:,} stat blocks (the limit for one file); split the file",
            )
        )
        return report
    bounded: dict[int, tuple[list[Cell], list[Cell], Note | None]] = {}
    firsts: list[list[Note]] = []
    for block in blocks:
        firsts.append([])
        bounded_description(block, firsts[-1], bounded)
    order = sorted(refused)
    reads = [refused_lines_read(block, refused, order) if refused else {} for block in blocks]
    owned = {
        line: id(block)
        for block, read in zip(blocks, reads, strict=True)
        for line, name in read.items()
        if name != "description"
    }  # a refused line -> the block that holds it in a field
    seen: set[int] = set()
    for block, read, first in zip(blocks, reads, firsts, strict=True):
        problems = refusals(block, read, refused, owned)
        seen.update(read)
        if problems:
            report.built.append(
                Built(title=block.title, name=kebab(block.title), block=block, notes=first, errors=problems)
            )
            report.errors.extend(problems)
            continue
        applied = apply_fixes(block, fixes)
        built = build(block, os.path.basename(file), tuple(first) + tuple(fix_note(fix, cell) for fix, cell in applied))
        report.built.append(built)
        report.errors.extend(built.errors)
    alone = [line for line in order if line not in seen]
    if alone:  # in no stat block: one problem for them all
        more = len(alone) - 1
        report.errors.append(
            Problem(
                file,
                alone[0],
                "line",
                f"{refused[alone[0]]}: not read"
                + (f" (and {more:,} more line{'s' * (more > 1)} in no stat block)" if more else ""),
            )
        )
    return report


def import_files(
    paths: list[Path], out: Path | None, fixes: tuple[Fix, ...] = REFERENCE_FIXES, force: bool = False
) -> ImportReport:
    """Import every file of ``paths``; with ``out``, write each creature there as ``<name>.yaml`` (see
    :func:`~arena.srd.writing.write_stat_blocks`: an existing file is replaced only with ``force``)."""
    report = ImportReport()
    names: dict[str, str] = {}
    for path in paths:
        label = str(path)
        try:
            text = read_source(Path(path), label)
        except SourceError as err:
            fr = FileReport(label)
            fr.errors.append(Problem(label, err.line, "file", err.message))
            report.files.append(fr)
            continue
        fr = import_text(text, label, fixes)
        report.files.append(fr)
        for built in fr.built:
            if built.creature is None:
                continue
            name = built.creature.name
            if name in names:
                k = 2
                while f"{name}-{k}" in names:
                    k += 1
                new = f"{name}-{k}"
                note = {
                    "kind": "guess",
                    "field": "name",
                    "line": built.block.line,
                    "text": built.title,
                    "message": f"the name {name} is taken (by {names[name]}): named {new}",
                }
                data = built.creature.model_dump(mode="json")
                data["name"] = new
                data["import_notes"] = [*data["import_notes"], note]
                data["import_status"] = "unread" if data["import_status"] == "unread" else "guessed"
                built.creature = type(built.creature).model_validate(data)
                built.name = new
                name = new
            names[name] = f"{label}:{built.block.line}"
    if out is not None:
        write_stat_blocks(report.built, Path(out), force, report.written)
    return report


# --------------------------------------------------------------------------------------------- the shipped bestiary
OGL_HEAD = (
    "# Open Game License\n\nThe stat blocks in this folder are Open Game Content: the SRD 3.5 monster chapters "
    "(System Reference Document, Copyright 2000-2003, Wizards of the Coast, Inc.) imported by d20 Arena's "
    "`arena bestiary import`. All of their text is Open Game Content under the Open Game License 1.0a below."
    "\n\n"
)
"""What heads the shipped bestiary's OGL notice (``bestiary/srd/OGL.md``), before the SRD's license text."""


def build_shipped(src: Path, out: Path, chapters: str = "Monsters*.md") -> ImportReport:
    """Import every chapter of ``src`` (``Monsters*.md``, the SRD 3.5 monster chapters) into ``out`` (stale YAML
    files removed), copy the OGL (``src/license.md``), and write the index (:mod:`arena.world.srd_bestiary`)."""
    files = sorted(src.glob(chapters))
    if not files:
        raise ArenaError(f"{src}: no {chapters} chapters of the SRD here")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    report = import_files(files, out, force=True)
    licence = src / "license.md"
    (out / "OGL.md").write_text(OGL_HEAD + licence.read_text(encoding="utf-8"), encoding="utf-8")
    write_index(out)
    return report


def check_shipped(src: Path, shipped: Path) -> tuple[ImportReport, list[str]]:
    """Rebuild the bestiary from ``src`` into a temporary folder and compare it with ``shipped``, file by file and
    byte for byte: (the import's report, what differs, one line each; none when they are the same)."""
    with tempfile.TemporaryDirectory(prefix="arena-srd-check-") as tmp:
        report = build_shipped(src, Path(tmp))
        new, old = {p.name for p in Path(tmp).iterdir()}, {p.name for p in shipped.iterdir() if p.is_file()}
        differ = [f"{name}: not in {shipped}" for name in sorted(new - old)]
        differ += [f"{name}: not made by the import (stale in {shipped})" for name in sorted(old - new)]
        differ += [
            f"{name}: differs"
            for name in sorted(new & old)
            if (Path(tmp) / name).read_bytes() != (shipped / name).read_bytes()
        ]
    return report, differ


__all__ = [
    "REFERENCE_FIXES",
    "FileReport",
    "Fix",
    "ImportReport",
    "SourceError",
    "blocks_in",
    "build_shipped",
    "check_shipped",
    "decode_source",
    "import_files",
    "import_text",
    "kebab",
    "read_source",
    "screen",
    "to_yaml",
    "write_atomically",
    "write_stat_blocks",
]
