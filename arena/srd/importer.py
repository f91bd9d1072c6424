"""`arena bestiary import`: SRD-layout stat blocks (Markdown tables or ``Field: value`` lines) to YAML stat blocks.

:func:`import_files` reads each file, finds its stat blocks (:mod:`arena.srd.text`, the true dragons'
"by Age" tables through :mod:`arena.srd.dragons`), builds each creature (:mod:`arena.srd.build`) and
writes one YAML file per creature. What it could not read, read with a guess, rewrote or found in disagreement
with itself is reported with file, line and text (and recorded in the creature's ``import_notes``); a block
that cannot make a creature, and a file with no stat block, is an error; every good creature is still written.
Files are read as the YAML loader reads them (:func:`read_source`), lines too long and numbers too large are
refused before anything reads them (:func:`screen`, docs/limits.md), and nothing is written through a link or over
an existing file without ``force`` (:func:`write_stat_blocks`).

The shipped SRD bestiary (``bestiary/srd/``, package ``arena.bestiary_data``) is made once from the SRD 3.5
monster chapters with :func:`build_shipped` (``python -m arena.srd SRC OUT``, see docs/bestiary.md);
nothing reads the SRD text at run time.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import json
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from arena.errors import ArenaError
from arena.limits import (
    MAX_FILE_BYTES,
    MAX_IMPORT_BLOCKS,
    MAX_IMPORT_DESCRIPTION,
    MAX_IMPORT_DESCRIPTION_LINES,
    MAX_IMPORT_DIGITS,
    MAX_IMPORT_LINE,
)
from arena.srd.build import Built, Problem, build, kebab
from arena.srd.dragons import BREATH_TYPES as DRAGON_BREATH_TYPES
from arena.srd.dragons import CONE, LINE, SIZE_LETTERS, dragon_fields, dragon_title, find_varieties, general_rules
from arena.srd.fields import Note, Notes
from arena.srd.text import Cell, RawBlock, find_blocks
from arena.world.yamlio import read_user_bytes


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
    Fix("MonstersDr-Dw.md", "Dwarf, 1st-Level Warrior", "Challenge Rating", '"', "1/2", "guess",
        "the converted cell holds a ditto mark; 1/2, the SRD's CR of a 1st-level dwarf warrior"),
    Fix("MonstersAnimals.md", "Cheetah", "Attack", "Bite +6 melee", "Bite +6 melee (1d6+3)", "changed",
        "the converted cell lost the damage; the bite's damage of the Full Attack"),
    Fix("MonstersK-L.md", "Werewolf Lord, Hybrid Form", "Attack",
        "Claw +24 melee (1d6+11) or +2 bastard sword +27 melee",
        "Claw +24 melee (1d6+11) or +2 bastard sword +27 melee (2d8+15/17-20)", "changed",
        "the converted cell lost the sword's damage; the sword's damage of the Full Attack"),
    Fix("MonstersT-Z.md", "Juvenile Tojanida", "Special Qualities",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to electricity 10 and fire 10",
        "changed", "the converted row moved part of the cell into the next column"),
    Fix("MonstersT-Z.md", "Adult Tojanida", "Special Qualities",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, electricity 10 and fire 10",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to electricity 10 and fire 10",
        "changed", "the converted row moved part of the cell into the next column"),
    Fix("MonstersT-Z.md", "Elder Tojanida", "Special Qualities",
        "All-around vision, darkvision 60 ft., resistance to electricity 10 and fire 10 immunity to acid and cold, "
        "resistance to electricity 10 and fire 10",
        "All-around vision, darkvision 60 ft., immunity to acid and cold, resistance to electricity 10 and fire 10",
        "changed", "the converted row moved part of the previous column's cell into this one"),
    Fix("MonstersT-Z.md", "Average Xorn", "Abilities", "Str 17, Dex 10, Con 15,",
        "Str 17, Dex 10, Con 15, Int 10, Wis 11, Cha 10", "changed",
        "the converted row moved the end of the cell into the next column"),
    Fix("MonstersT-Z.md", "Elder Xorn", "Abilities",
        "Str 25, Dex 10, Con 19, Int 10, Wis 11, Cha 10 Int 10, Wis 11, Cha 10",
        "Str 25, Dex 10, Con 19, Int 10, Wis 11, Cha 10", "changed",
        "the converted row moved the end of the previous column's cell into this one"),
    Fix("MonstersE-F.md", "Earth Elemental, Greater", "Full Attack", "2 slams +23 melee (2d10+10) 2",
        "2 slams +23 melee (2d10+10)", "changed", "the converted row moved the next column's first word here"),
    Fix("MonstersE-F.md", "Earth Elemental, Elder", "Full Attack", "slams +27 melee (2d10+11/19-20)",
        "2 slams +27 melee (2d10+11/19-20)", "changed", "the converted row moved this cell's first word away"),
)
"""Mends of the SRD 3.5 monster chapters' Markdown conversion (``../shared/reference/srd35-monsters``): each names
the file, the creature, the field and the exact converted text, so it touches nothing else."""


def _apply_fixes(block: RawBlock, fixes: tuple[Fix, ...]) -> list[tuple[Fix, Cell]]:
    applied = []
    base = os.path.basename(block.file)
    for fix in fixes:
        cell = block.fields.get(fix.field)
        if fix.file == base and fix.title == block.title and cell is not None and \
                " ".join(cell.text.split()) == fix.old:
            block.fields[fix.field] = Cell(fix.new, cell.line)
            applied.append((fix, cell))
    return applied


# --------------------------------------------------------------------------------------------- dragons as blocks
def _first_prose(cells: list[Cell]) -> list[Cell]:
    """The first of ``cells`` within the bounds of one block's prose (:func:`_bounded_description` says where it
    was cut): a block's description is never copied longer than that."""
    total = 0
    for k, cell in enumerate(cells):
        total += len(cell.text) + 1
        if total > MAX_IMPORT_DESCRIPTION or k >= MAX_IMPORT_DESCRIPTION_LINES:
            return cells[:k + 1]
    return cells


def _dragon_blocks(text: str, file: str) -> list[RawBlock]:
    general = _first_prose(general_rules(text))
    out: list[RawBlock] = []
    for variety in find_varieties(text):
        if not variety.rows:
            continue
        shared = _first_prose(variety.text + general) if len(out) <= MAX_IMPORT_BLOCKS else []
        for row in variety.rows:
            notes = Notes()
            fields = dragon_fields(variety, row, notes)
            size = SIZE_LETTERS.get(row.stats.get("Size", Cell("", 0)).text.strip().upper()[:1], "")
            description = _dragon_breath_text(variety, row, size, fields)
            block = RawBlock(file=file, line=row.line, title=dragon_title(variety, row), title_guessed=False,
                             type_line=fields.get("Size/Type"), fields=fields, layout="dragon tables",
                             description=description + shared)
            out.append(block)
    return out


def _dragon_breath_text(variety, row, size: str, fields: dict[str, Cell]) -> list[Cell]:
    """The breath weapon sentences the general rules and the tables make together, as the importer reads them."""
    breath = row.stats.get("Breath")
    m = re.match(r"^\s*(\d+d\d+)\s*\((\d+)\)", breath.text) if breath else None
    if not m or not variety.breath or size not in LINE:
        return []
    out = []
    for k, (shape, what, sentence) in enumerate(variety.breath):
        length = (LINE if shape == "line" else CONE)[size]
        energy = DRAGON_BREATH_TYPES.get(what)
        if k == 0 and energy:
            out.append(Cell(f"Breath Weapon (Su): {length}-foot {shape}, once every 1d4 rounds, damage {m.group(1)} "
                            f"{energy}, Reflex DC {m.group(2)} half.", breath.line))
        else:
            after = sentence.split(f"{shape} of {what}", 1)[-1]
            save = re.search(r"\b(Fortitude|Reflex|Will) save", after)
            word = what.split()[0]
            out.append(Cell(f"{word.capitalize()} Breath Weapon (Su): {length}-foot {shape} of {what}, "
                            f"{save.group(1) if save else 'Will'} DC {m.group(2)} negates.", breath.line))
            sa = fields["Special Attacks"]
            fields["Special Attacks"] = Cell(f"{sa.text}, {word} breath weapon", sa.line)
    return out


# --------------------------------------------------------------------------------------------- files
@dataclass
class FileReport:
    file: str
    built: list[Built] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)


def blocks_in(text: str, file: str) -> list[RawBlock]:
    """Every stat block of ``text``: its tables' columns, its ``Field: value`` blocks and its true dragons."""
    return sorted(find_blocks(text, file) + _dragon_blocks(text, file), key=lambda b: (b.line, b.column))


# --------------------------------------------------------------------------------------------- lines not read
_LONG_NUMBER = re.compile(rf"\d{{{MAX_IMPORT_DIGITS + 1},}}")


def screen(text: str) -> tuple[str, dict[int, str]]:
    """``text`` made safe to read, and the lines it refuses (line -> why): a line longer than
    :data:`~arena.limits.MAX_IMPORT_LINE` characters is cut to it, a number of more than
    :data:`~arena.limits.MAX_IMPORT_DIGITS` digits to one digit more. Nothing downstream then reads a long line or
    converts a long number; the creatures that read a refused line are not imported (:func:`_refusals`)."""
    lines = text.split("\n")
    refused: dict[int, str] = {}
    for i, line in enumerate(lines):
        if len(line) > MAX_IMPORT_LINE:
            refused[i + 1] = f"line too long ({len(line):,} characters; the limit is {MAX_IMPORT_LINE:,})"
            line = lines[i] = line[:MAX_IMPORT_LINE]
        m = _LONG_NUMBER.search(line)
        if m:
            if i + 1 not in refused:
                digits = m.group(0)
                refused[i + 1] = (f"number too large ({digits[:12]}{'...' if len(digits) > 12 else ''}: "
                                  f"{len(digits):,} digits; the limit is {MAX_IMPORT_DIGITS})")
            lines[i] = _LONG_NUMBER.sub(lambda n: n.group(0)[:MAX_IMPORT_DIGITS + 1], line)
    return ("\n".join(lines), refused) if refused else (text, refused)


def _refused_lines_read(block: RawBlock, refused: dict[int, str], order: list[int]) -> dict[int, str]:
    """The refused lines (``order``: their numbers, ascending) that a block reads, each with the field it holds
    (``name`` for the title's line, ``stat block`` for a row between, ``description`` for the prose)."""
    out: dict[int, str] = {}
    for name, cell in block.fields.items():
        if cell.line in refused:
            out.setdefault(cell.line, name)
    if block.type_line is not None and block.type_line.line in refused:
        out.setdefault(block.type_line.line, "Size/Type")
    last = max((c.line for c in (*block.fields.values(), block.type_line) if c is not None), default=block.line)
    for line in order[bisect.bisect_left(order, block.line):bisect.bisect_right(order, last)]:
        out.setdefault(line, "name" if line == block.line else "stat block")   # the title, a table's names row
    for cell in block.description:
        if cell.line in refused:
            out.setdefault(cell.line, "description")
    return out


def _refusals(block: RawBlock, read: dict[int, str], refused: dict[int, str], owned: dict[int, int]) -> list[Problem]:
    """A problem for each refused line the block reads (``read``), and for each field longer than
    :data:`~arena.limits.MAX_IMPORT_LINE` (a table cell wrapped over many lines). A line another block holds as
    one of its fields (the next pasted block, within the 400 lines of prose after this one) is that block's."""
    problems = [Problem(block.file, cell.line, name, f"field too long ({len(cell.text):,} characters; the limit is "
                                                     f"{MAX_IMPORT_LINE:,})", block.title)
                for name, cell in block.fields.items() if len(cell.text) > MAX_IMPORT_LINE]
    own = [(line, name) for line, name in sorted(read.items())
           if name != "description" or owned.get(line, id(block)) == id(block)]
    if own:                                         # one problem a creature: its first line, and how many more
        (line, name), more = own[0], len(own) - 1
        problems.append(Problem(block.file, line, name, refused[line] + (f" (and {more:,} more line{'s' * (more > 1)} "
                                                                         "of it not read)" if more else ""),
                                block.title))
    return problems


def _bounded_description(block: RawBlock, notes: list[Note],
                         done: dict[int, tuple[list[Cell], list[Cell], Note | None]]) -> None:
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
                note = Note("guess", "description", cell.line, "",
                            f"more than {MAX_IMPORT_DESCRIPTION:,} characters or {MAX_IMPORT_DESCRIPTION_LINES:,} "
                            "lines of prose with this block: the rest, from this line on, not read")
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
        report.errors.append(Problem(file, None, "file", "no stat block found (no 'Hit Dice:' field in an SRD-layout "
                                                         "table or in 'Field: value' lines)"))
        return report
    if len(blocks) > MAX_IMPORT_BLOCKS:
        report.errors.append(Problem(file, None, "file", f"more than {MAX_IMPORT_BLOCKS:,} stat blocks (the limit for "
                                                         "one file); split the file"))
        return report
    bounded: dict[int, tuple[list[Cell], list[Cell], Note | None]] = {}
    firsts: list[list[Note]] = []
    for block in blocks:
        firsts.append([])
        _bounded_description(block, firsts[-1], bounded)
    order = sorted(refused)
    reads = [_refused_lines_read(block, refused, order) if refused else {} for block in blocks]
    owned = {line: id(block) for block, read in zip(blocks, reads, strict=True) for line, name in read.items()
             if name != "description"}                # a refused line -> the block that holds it in a field
    seen: set[int] = set()
    for block, read, first in zip(blocks, reads, firsts, strict=True):
        problems = _refusals(block, read, refused, owned)
        seen.update(read)
        if problems:
            report.built.append(Built(title=block.title, name=kebab(block.title), block=block, notes=first,
                                      errors=problems))
            report.errors.extend(problems)
            continue
        applied = _apply_fixes(block, fixes)
        built = build(block, os.path.basename(file),
                      tuple(first) + tuple(_fix_note(fix, cell) for fix, cell in applied))
        report.built.append(built)
        report.errors.extend(built.errors)
    alone = [line for line in order if line not in seen]
    if alone:                                       # in no stat block: one problem for them all
        more = len(alone) - 1
        report.errors.append(Problem(file, alone[0], "line", f"{refused[alone[0]]}: not read" + (
            f" (and {more:,} more line{'s' * (more > 1)} in no stat block)" if more else "")))
    return report


def _fix_note(fix: Fix, cell: Cell) -> Note:
    return Note(fix.kind, fix.field, cell.line, fix.old, f"read as {fix.new!r}: {fix.reason}")


# --------------------------------------------------------------------------------------------- reading a file
class SourceError(ArenaError):
    """A file ``bestiary import`` cannot read as text: ``line`` (or None) and ``message`` say where and why."""

    def __init__(self, line: int | None, message: str):
        self.line = line
        self.message = message
        super().__init__(message)


def _line_at(data: bytes, offset: int) -> int:
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode_source(data: bytes) -> str:
    """The text of a stat-block file: UTF-8 (a byte-order mark dropped), or UTF-16 with its byte-order mark; line
    ends made ``\\n``. Anything else is a :class:`SourceError` with the line: text that is not UTF-8 is never read
    with replacement characters."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as err:
            line = data[:err.start].decode("utf-16", errors="replace").count("\n") + 1
            raise SourceError(line, f"not UTF-16 text ({err.reason}), though it starts with a UTF-16 byte-order "
                                    "mark: save it as UTF-8") from None
        if "\0" in text:
            line = text.count("\n", 0, text.index("\0")) + 1
            raise SourceError(line, "a NUL character: binary data, not text in the SRD layout")
    else:
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8):]
        nul = data.find(b"\0")
        if nul >= 0:
            raise SourceError(_line_at(data, nul), "a NUL byte: binary data, not text in the SRD layout (UTF-16 text "
                                                   "without a byte-order mark must be saved as UTF-8)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise SourceError(_line_at(data, err.start), f"not UTF-8 text (byte 0x{data[err.start]:02x}: "
                                                         f"{err.reason}): save it as UTF-8") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_source(path: Path, label: str | None = None) -> str:
    """The text of a file ``bestiary import`` reads: the YAML loader's rules (a regular file, never a FIFO, a
    device or a file under /proc, at most :data:`~arena.limits.MAX_FILE_BYTES`), then :func:`decode_source`."""
    label = str(path) if label is None else label
    try:
        data = read_user_bytes(path, label, "a text file of stat blocks", MAX_FILE_BYTES)
    except SourceError:
        raise
    except ArenaError as err:
        message = str(err)
        raise SourceError(None, message[len(label) + 2:] if message.startswith(f"{label}: ") else message) from None
    return decode_source(data)


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


def import_files(paths: list[Path], out: Path | None, fixes: tuple[Fix, ...] = REFERENCE_FIXES,
                 force: bool = False) -> ImportReport:
    """Import every file of ``paths``; with ``out``, write each creature there as ``<name>.yaml`` (see
    :func:`write_stat_blocks`: an existing file is replaced only with ``force``)."""
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
                note = {"kind": "guess", "field": "name", "line": built.block.line, "text": built.title,
                        "message": f"the name {name} is taken (by {names[name]}): named {new}"}
                data = built.creature.model_dump(mode="json")
                data["name"] = new
                data["import_notes"] = [*data["import_notes"], note]
                data["import_status"] = "unread" if data["import_status"] == "unread" else "guessed"
                built.creature = type(built.creature).model_validate(data)
                built.name = new
                name = new
            names[name] = f"{label}:{built.block.line}"
    if out is not None:
        write_stat_blocks(report, Path(out), force)
    return report


# --------------------------------------------------------------------------------------------- writing
def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ArenaError(f"{path}: cannot write ({err.strerror or err})") from None


def write_stat_blocks(report: ImportReport, out: Path, force: bool = False) -> None:
    """Write each creature of ``report`` to ``out/<name>.yaml`` (into ``report.written``).

    ``out`` must be a folder, not a link to one (it is made when missing). Every target is checked before anything
    is written: one that exists (a file, a link, anything) is an ArenaError naming it unless ``force``, and nothing
    is written then. Each file is written to a new temporary file in ``out`` (never through a link), flushed to disk
    and renamed over its target, so a failure (a full disk) leaves the old file or none, never half of one; the
    error names the file."""
    info = _lstat(out)
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise ArenaError(f"{out}: is a symbolic link; --out must name a folder itself (links are not followed when "
                         "writing)")
    if info is not None and not stat.S_ISDIR(info.st_mode):
        raise ArenaError(f"{out}: is not a folder (--out names the folder to write the stat blocks to)")
    targets = [(built, out / f"{built.creature.name}.yaml") for built in report.built if built.creature is not None]
    if info is not None:
        taken = [(target, found) for _, target in targets if (found := _lstat(target)) is not None]
        if taken and not force:
            more = f" (and {len(taken) - 1:,} more)" if len(taken) > 1 else ""
            raise ArenaError(f"{taken[0][0]}: already exists{more}; nothing written (--force replaces existing "
                             "files)")
        for target, found in taken:
            if stat.S_ISDIR(found.st_mode):
                raise ArenaError(f"{target}: is a folder; nothing written (only a file is replaced)")
    elif targets:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ArenaError(f"{out}: cannot make the folder ({err.strerror or err})") from None
    for built, target in targets:
        write_atomically(target, to_yaml(built))
        report.written.append((built, target))


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` through a temporary file beside it (created anew, so never through a link),
    fsync'd and renamed over ``target`` (a link there is replaced, not followed). On any failure the temporary file
    is removed and the ArenaError names ``target``."""
    data = text.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for k in range(100):
        tmp = target.with_name(f".{target.name}.{os.getpid()}-{k}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as err:
            raise ArenaError(f"{target}: cannot write ({err.strerror or err})") from None
    else:
        raise ArenaError(f"{target}: cannot write (100 temporary files of that name are in the way)")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise ArenaError(f"{target}: cannot write ({err.strerror or err})") from None
        raise


# --------------------------------------------------------------------------------------------- YAML
class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if "\n" in value else None)


_Dumper.add_representer(str, _str)


def to_yaml(built: Built) -> str:
    """The YAML stat block of a built creature, with a header naming its source."""
    creature = built.creature
    data = creature.model_dump(mode="json", exclude_defaults=True)
    data["name"] = creature.name
    data["abilities"] = creature.abilities.model_dump(mode="json")       # all six, defaults too
    for key in ("improved_grab", "frightful_presence", "paralysis", "poison", "ability_damage", "energy_drain",
                "burn", "gaze", "swallow_whole", "web", "breath_effect", "stench",
                "trample"):                                      # every number, the defaults too
        value = getattr(creature, key)
        if value is not None:
            data[key] = value.model_dump(mode="json")
    data = {k: data[k] for k in type(creature).model_fields if k in data}
    head = (f"# {creature.display_name}. {creature.source.split(' (')[0]}.\n"
            "# Open Game Content under the Open Game License 1.0a (bestiary/srd/OGL.md). Written by `arena bestiary "
            "import`:\n# re-import rather than edit by hand (docs/bestiary.md).\n")
    return head + yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120,
                            default_flow_style=None)


# --------------------------------------------------------------------------------------------- the shipped bestiary
def build_shipped(src: Path, out: Path) -> ImportReport:
    """Import every ``Monsters*.md`` chapter of ``src`` into ``out`` (stale YAML files removed), copy the OGL, and
    write the index (:mod:`arena.world.srd_bestiary`)."""
    from arena.world.srd_bestiary import write_index

    chapters = sorted(src.glob("Monsters*.md"))
    if not chapters:
        raise ArenaError(f"{src}: no Monsters*.md chapters of the SRD here")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    report = import_files(chapters, out, force=True)
    licence = src / "license.md"
    (out / "OGL.md").write_text(
        "# Open Game License\n\nThe stat blocks in this folder are Open Game Content: the SRD 3.5 monster chapters "
        "(System Reference Document, Copyright 2000-2003, Wizards of the Coast, Inc.) imported by d20 Arena's "
        "`arena bestiary import`. All of their text is Open Game Content under the Open Game License 1.0a below.\n\n"
        + licence.read_text(encoding="utf-8"), encoding="utf-8")
    write_index(out)
    return report


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m arena.srd SRD_FOLDER OUT_FOLDER", file=sys.stderr)
        return 2
    report = build_shipped(Path(args[0]), Path(args[1]))
    for problem in report.errors:
        print(problem, file=sys.stderr)
    counts = json.dumps({"creatures": len(report.written), "errors": len(report.errors)})
    print(counts)
    return 2 if report.errors else 0


if __name__ == "__main__":                                      # pragma: no cover
    raise SystemExit(main())


__all__ = ["REFERENCE_FIXES", "Fix", "FileReport", "ImportReport", "SourceError", "blocks_in", "build_shipped",
           "decode_source", "import_files", "import_text", "kebab", "read_source", "screen", "to_yaml",
           "write_atomically", "write_stat_blocks"]
