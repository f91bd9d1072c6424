"""The importer reads SRD text on every clone: three SRD 3.5 monster chapters kept in ``tests/srd/fixtures/`` (Open
Game Content, with their OGL notice) are imported again and give the shipped stat blocks of their creatures, byte for
byte: the true dragons of every variety and age (``MonstersDr-Dw.md``, with the dwarves, dryads and duergar), the
tables of many columns and shared descriptions of ``MonstersT-Z.md`` (the troll, the xorn's three sizes, the
tojanidas the importer mends), and the tables by size of the monstrous vermin (``MonstersVermin.md``: poison DCs and
web DCs by size).

The whole bestiary's rebuild is a command, not a test (it needs the SRD's seventeen chapters):
``python -m arena.srd --check ../shared/reference/srd35-monsters`` (CONTRIBUTING.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.srd.importer import REFERENCE_FIXES, import_files

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHIPPED = ROOT / "bestiary" / "srd"
CHAPTERS = ("MonstersDr-Dw.md", "MonstersT-Z.md", "MonstersVermin.md")


def _chapter_of(path: Path) -> str:
    """The chapter a shipped stat block was imported from: its first line, ``# Troll. SRD 3.5 MonstersT-Z.md:123.``"""
    head = path.open(encoding="utf-8").readline()
    return head.split("SRD 3.5 ", 1)[1].split(":", 1)[0]


@pytest.fixture(scope="module")
def reimported(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("srd")
    report = import_files([FIXTURES / name for name in CHAPTERS], out)
    return report, out


def test_the_fixture_chapters_import_without_an_error(reimported):
    report, _ = reimported
    assert report.errors == []
    assert {b.block.layout for b in report.built} == {"table", "dragon tables"}
    assert sum(b.block.layout == "dragon tables" for b in report.built) == 10 * 12  # every variety and age


def test_each_creature_is_its_shipped_stat_block_byte_for_byte(reimported):
    _, out = reimported
    written = sorted(p.name for p in out.iterdir())
    shipped = sorted(p.name for p in SHIPPED.glob("*.yaml") if _chapter_of(p) in CHAPTERS)
    assert written == shipped
    differ = [name for name in written if (out / name).read_bytes() != (SHIPPED / name).read_bytes()]
    assert differ == [], f"re-imported stat blocks differ from bestiary/srd: {differ[:10]}"


def test_the_fixtures_hold_the_mends_of_their_chapters(reimported):
    """The reference mends of these chapters are applied (each names its chapter, creature, field and text)."""
    report, _ = reimported
    mended = {(n.field, b.title) for b in report.built for n in b.notes if n.message.startswith("read as ")}
    expected = {(f.field, f.title) for f in REFERENCE_FIXES if f.file in CHAPTERS}
    assert expected and expected <= mended


def test_the_ogl_notice_travels_with_the_fixtures():
    notice = (FIXTURES / "OGL.md").read_text(encoding="utf-8")
    assert "OPEN GAME LICENSE" in notice.upper() and "System Reference Document" in notice
    assert "Wizards of the Coast" in notice and all(name in notice for name in CHAPTERS)
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted([*CHAPTERS, "OGL.md"])
