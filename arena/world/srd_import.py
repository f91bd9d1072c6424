"""`arena bestiary import`: SRD-layout stat blocks (Markdown tables or ``Field: value`` lines) to YAML stat blocks.

:func:`import_files` reads each file, finds its stat blocks (:mod:`arena.world.srd_text`, the true dragons'
"by Age" tables through :mod:`arena.world.srd_dragons`), builds each creature (:mod:`arena.world.srd_build`) and
writes one YAML file per creature. What it could not read, read with a guess, rewrote or found in disagreement
with itself is reported with file, line and text (and recorded in the creature's ``import_notes``); a block
that cannot make a creature, and a file with no stat block, is an error; every good creature is still written.

The shipped SRD bestiary (``bestiary/srd/``, package ``arena.bestiary_data``) is made once from the SRD 3.5
monster chapters with :func:`build_shipped` (``python -m arena.world.srd_import SRC OUT``, see docs/bestiary.md);
nothing reads the SRD text at run time.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from arena.errors import ArenaError
from arena.world.srd_build import Built, Problem, build, kebab
from arena.world.srd_dragons import BREATH_TYPES as DRAGON_BREATH_TYPES
from arena.world.srd_dragons import CONE, LINE, SIZE_LETTERS, dragon_fields, dragon_title, find_varieties, general_rules
from arena.world.srd_fields import Note, Notes
from arena.world.srd_text import Cell, RawBlock, find_blocks

MAX_SOURCE_BYTES = 20_000_000
"""Largest file ``bestiary import`` reads (the SRD's largest chapter is 110 kB)."""


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
def _dragon_blocks(text: str, file: str) -> list[RawBlock]:
    general = general_rules(text)
    out = []
    for variety in find_varieties(text):
        for row in variety.rows:
            notes = Notes()
            fields = dragon_fields(variety, row, notes)
            size = SIZE_LETTERS.get(row.stats.get("Size", Cell("", 0)).text.strip().upper()[:1], "")
            description = _dragon_breath_text(variety, row, size, fields)
            block = RawBlock(file=file, line=row.line, title=dragon_title(variety, row), title_guessed=False,
                             type_line=fields.get("Size/Type"), fields=fields, layout="dragon tables",
                             description=description + variety.text + general)
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


def import_text(text: str, file: str, fixes: tuple[Fix, ...] = REFERENCE_FIXES) -> FileReport:
    """Build every stat block of ``text`` (named ``file`` in messages)."""
    report = FileReport(file)
    blocks = blocks_in(text, file)
    if not blocks:
        report.errors.append(Problem(file, None, "file", "no stat block found (no 'Hit Dice:' field in an SRD-layout "
                                                         "table or in 'Field: value' lines)"))
        return report
    for block in blocks:
        applied = _apply_fixes(block, fixes)
        built = build(block, os.path.basename(file), tuple(_fix_note(fix, cell) for fix, cell in applied))
        report.built.append(built)
        report.errors.extend(built.errors)
    return report


def _fix_note(fix: Fix, cell: Cell) -> Note:
    return Note(fix.kind, fix.field, cell.line, fix.old, f"read as {fix.new!r}: {fix.reason}")


def read_source(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError as err:
        raise ArenaError(f"{path}: cannot read ({err.strerror})") from None
    if size > MAX_SOURCE_BYTES:
        raise ArenaError(f"{path}: {size:,} bytes is more than a stat-block file holds (the limit is "
                         f"{MAX_SOURCE_BYTES:,})")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ArenaError(f"{path}: cannot read ({err.strerror})") from None
    if b"\0" in data[:8192]:
        raise ArenaError(f"{path}: a binary file, not a stat block (text in the SRD layout)")
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


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


def import_files(paths: list[Path], out: Path | None, fixes: tuple[Fix, ...] = REFERENCE_FIXES) -> ImportReport:
    """Import every file of ``paths``; with ``out``, write each creature there as ``<name>.yaml``."""
    report = ImportReport()
    names: dict[str, str] = {}
    for path in paths:
        label = str(path)
        try:
            text = read_source(Path(path))
        except ArenaError as err:
            fr = FileReport(label)
            fr.errors.append(Problem(label, None, "file", str(err).split(": ", 1)[-1]))
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
        out.mkdir(parents=True, exist_ok=True)
        for built in report.built:
            if built.creature is not None:
                target = out / f"{built.creature.name}.yaml"
                target.write_text(to_yaml(built), encoding="utf-8")
                report.written.append((built, target))
    return report


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
    write the index (:mod:`arena.world.srd_index`)."""
    from arena.world.srd_index import write_index

    chapters = sorted(src.glob("Monsters*.md"))
    if not chapters:
        raise ArenaError(f"{src}: no Monsters*.md chapters of the SRD here")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    report = import_files(chapters, out)
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
        print("usage: python -m arena.world.srd_import SRD_FOLDER OUT_FOLDER", file=sys.stderr)
        return 2
    report = build_shipped(Path(args[0]), Path(args[1]))
    for problem in report.errors:
        print(problem, file=sys.stderr)
    counts = json.dumps({"creatures": len(report.written), "errors": len(report.errors)})
    print(counts)
    return 2 if report.errors else 0


if __name__ == "__main__":                                      # pragma: no cover
    raise SystemExit(main())


__all__ = ["REFERENCE_FIXES", "Fix", "FileReport", "ImportReport", "blocks_in", "build_shipped", "import_files",
           "import_text", "kebab", "to_yaml"]
