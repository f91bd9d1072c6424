"""The shipped SRD bestiary (bestiary/srd/): what it holds, its index against its stat blocks, the imported numbers
against the 19 hand-written blocks, and that nothing reads it before it is asked for."""

import json
import re
import sys
from fractions import Fraction
from pathlib import Path

import cpu_limits
import pytest

from arena.srd.dragons import AGES
from arena.world import srd_bestiary
from arena.world.bestiary import get_creature, load_bestiary
from arena.world.srd_bestiary import HAND_WRITTEN, row_of, srd_creature, srd_rows

ROOT = Path(__file__).resolve().parents[2]
SRD = ROOT / "bestiary" / "srd"

VARIETIES = ("black", "blue", "green", "red", "white", "brass", "bronze", "copper", "gold", "silver")
SIZES = ("small", "medium", "large", "huge", "greater", "elder")


@pytest.fixture(scope="module")
def everything():
    """Every imported stat block, parsed (about two seconds)."""
    return {r.name: srd_creature(r.name) for r in srd_rows()}


def test_at_least_400_creatures_ship_with_the_ogl():
    rows = srd_rows()
    assert len(rows) >= 400
    files = sorted(p.name for p in SRD.glob("*.yaml"))
    assert files == sorted(r.file for r in rows)
    ogl = (SRD / "OGL.md").read_text()
    assert "OPEN GAME LICENSE" in ogl.upper() and "System Reference Document" in ogl and "Wizards of the Coast" in ogl


def test_names_are_kebab_case_and_each_block_names_its_source():
    for row in srd_rows():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", row.name), row.name
        assert re.fullmatch(r"SRD 3\.5 Monsters[A-Za-z-]+\.md:\d+", row.source), row.source


def test_true_dragons_in_every_age_and_elementals_in_every_size():
    names = {r.name for r in srd_rows()}
    for variety in VARIETIES:
        for age in AGES:
            assert f"{variety}-dragon-{age.lower().replace(' ', '-')}" in names
    for element in ("air", "earth", "fire", "water"):
        for size in SIZES:
            assert f"elemental-{element}-{size}" in names
    assert {
        "troll",
        "tarrasque",
        "gelatinous-cube",
        "owlbear-skeleton",
        "twelve-headed-hydra",
        "animated-object-colossal",
        "monstrous-spider-gargantuan",
    } <= names


def test_a_great_wyrm_and_a_wyrmling():
    wyrm = srd_creature("red-dragon-great-wyrm")
    assert (wyrm.size, wyrm.hp, wyrm.cr, wyrm.ac, wyrm.spell_resistance) == ("colossal", 660, 26, 41, 32)
    assert str(wyrm.damage_reduction) == "20/magic"
    bw = wyrm.breath_weapon
    assert (bw.shape, bw.length_ft, bw.damage, bw.damage_type, bw.dc) == ("cone", 70, "24d10", "fire", 40)
    assert {a.key for a in wyrm.special_abilities if a.engine == "ignored"} >= {"tail sweep"}
    assert wyrm.spellcasting.caster_level == 19 and 9 in wyrm.spellcasting.prepared  # a 19th-level sorcerer
    assert (wyrm.crush.damage, wyrm.crush.dc, wyrm.crush.smaller_by) == ("4d8+25", 40, 3)
    assert wyrm.frightful_presence.dc == 38 and wyrm.frightful_presence.duration == "4d6"
    hatchling = srd_creature("white-dragon-wyrmling")
    assert (hatchling.size, hatchling.breath_weapon.length_ft, hatchling.breath_weapon.damage_type) == (
        "tiny",
        15,
        "cold",
    )
    assert [a.name for a in hatchling.full_attack[0]] == ["bite", "claw"]  # tiny: no wings, no tail
    brass = srd_creature("brass-dragon-adult")
    assert brass.breath_weapon.shape == "line" and brass.breath_effect.effect == "sleep"


def test_the_index_is_the_stat_blocks(everything):
    for row in srd_rows():
        assert row_of(everything[row.name], row.file) == row, row.name


def test_every_imported_block_loads_as_a_user_file_would(everything):
    book = load_bestiary([SRD / "troll-hunter-6th-level-ranger.yaml", SRD / "tarrasque.yaml"])
    assert book["tarrasque"] == everything["tarrasque"]
    assert all(c.import_status in ("clean", "guessed") for c in everything.values())  # the SRD import is clean


def test_the_fast_parser_reads_every_shipped_block_as_the_strict_one():
    """The shipped SRD blocks are parsed by libyaml (:func:`load_shipped_yaml`); the strict, line-counting loader
    (duplicate keys refused, limits) must read the same data from every one, so the fast path changes nothing."""
    from arena.world.yamlio import load_shipped_yaml, load_yaml

    files = sorted(SRD.glob("*.yaml"))
    assert len(files) >= 400
    for path in files:
        fast = load_shipped_yaml(path, path.name)
        assert fast is not None and fast.data == load_yaml(path).data, path.name


def test_a_broken_shipped_block_is_reported_with_its_line(tmp_path, monkeypatch):
    """A shipped block that fails validation is read again by the strict loader, so the message names the line."""
    from arena.errors import ArenaError

    broken = tmp_path / "troll.yaml"
    text = (SRD / "troll.yaml").read_text(encoding="utf-8")
    broken.write_text(re.sub(r"(?m)^(\s*)hp: .*$", r"\1hp: lots", text, count=1), encoding="utf-8")
    assert srd_rows()  # the index read from the shipped folder before the folder is swapped for the broken copy
    monkeypatch.setattr(srd_bestiary, "root", lambda: tmp_path)
    monkeypatch.setattr(srd_bestiary, "_CREATURES", {})
    with pytest.raises(ArenaError, match=r"bestiary/srd/troll\.yaml:\d+: .*hp"):
        srd_creature("troll")


def test_modelled_status_agrees_with_the_fields_the_engine_reads(everything):
    for c in everything.values():
        keys = {a.key: a.engine for a in c.special_abilities}
        if keys.get("breath weapon") == "modelled":
            assert c.breath_weapon is not None, c.name
        if keys.get("rend") == "modelled":
            assert c.rend is not None, c.name
        if keys.get("regeneration") == "modelled":
            assert c.regeneration is not None, c.name
        if "spell resistance" in keys:
            assert c.spell_resistance > 0, c.name
        for key, field in (
            ("pounce", "pounce"),
            ("ferocity", "ferocity"),
            ("improved grab", "improved_grab"),
            ("frightful presence", "frightful_presence"),
            ("paralysis", "paralysis"),
            ("stench", "stench"),
            ("trample", "trample"),
            ("powerful charge", "powerful_charge"),
            ("incorporeal", "incorporeal"),
            ("summon", "summon"),
            ("whirlwind", "whirlwind"),
            ("roar", "roar"),
            ("smoke", "smoke"),
            ("entangle", "entangle"),
        ):
            glued = key == "improved grab" and "modelled" in (keys.get("adhesive"), keys.get("attach"))
            assert bool(getattr(c, field)) == (keys.get(key) == "modelled" or glued), (c.name, key)
        assert bool(c.smite or c.burst) == (keys.get("smite") == "modelled"), c.name  # a nalfeshnee's is a burst
        auras = [
            keys.get(k)
            for k in (
                "despair",
                "aura of menace",
                "captivating song",
                "bay",
                "horrific appearance",
                "fear aura",
                "pipes",
            )
        ]
        assert (c.aura is not None) == ("modelled" in auras), c.name
        if keys.get("constrict") == "modelled":
            assert c.improved_grab.constrict is not None, c.name
        names = {a.name for r in c.full_attack + c.attack for a in r}
        for field in ("improved_grab", "paralysis"):
            if getattr(c, field) is not None:
                assert getattr(c, field).attack in names, (c.name, field)  # an attack the engine rolls
        if c.modelled == "full":
            assert all(a.engine != "ignored" for a in c.special_abilities)


# --------------------------------------------------------------------------------------------- the hand-written 19
EXPLAINED: dict[tuple[str, str], str] = (
    {
        (name, "class_levels"): "the SRD title says 1st-Level Warrior; the hand-written block leaves class_levels out "
        "(nothing in the engine reads it)"
        for name in ("goblin", "kobold", "orc", "hobgoblin", "dwarf-warrior")
    }
    | {
        ("adult-red-dragon", "crush"): "the imported block has the SRD's crush, which lands only on foes three sizes "
        "smaller than the Huge dragon (never the Medium party); the hand-written one "
        "leaves it out"
    }
    | {
        (name, field): "the imported dragon casts as a sorcerer (the SRD's tables, its spells known the engine's "
        "choice: srd_spells.DRAGON_SPELLS) with the caster tactics; the hand-written one, which the "
        "golden fights use, keeps to its weapons and breath"
        for name in ("young-red-dragon", "adult-red-dragon")
        for field in ("spellcasting", "tactics")
    }
)
"""Every field where an imported block differs from the hand-written one (docs/bestiary.md explains them)."""
TEXT_FIELDS = {"name", "title", "notes", "source", "special_abilities", "import_status", "import_notes"}


def _numbers(creature) -> dict:
    data = creature.model_dump(mode="json")
    for key in ("attack", "full_attack"):
        data[key] = [[{k: v for k, v in a.items() if k != "notes"} for a in r] for r in data[key]]
    return {k: v for k, v in data.items() if k not in TEXT_FIELDS}


def test_the_imported_numbers_are_the_hand_written_ones():
    found = {}
    for hand, imported in HAND_WRITTEN.items():
        a, b = _numbers(get_creature(hand)), _numbers(srd_creature(imported))
        for key in a:
            if a[key] != b[key]:
                found[(hand, key)] = (a[key], b[key])
    assert set(found) == set(EXPLAINED), {k: v for k, v in found.items() if k not in EXPLAINED}
    assert all(found[k] == ({}, {"warrior": 1}) for k in found if k[1] == "class_levels")
    # the owlbear's improved grab, the adult red dragon's frightful presence and the minotaur's powerful charge were
    # added to the hand-written blocks when the engine learned them: every number the engine reads now agrees


def test_the_hand_written_blocks_stay_what_their_names_give():
    assert get_creature("troll").source == "SRD 3.5 MonstersT-Z.md"  # hand-written
    assert get_creature("srd/troll").source.startswith("SRD 3.5 MonstersT-Z.md:394")
    assert get_creature("red-dragon-young") == srd_creature("red-dragon-young")
    assert len(load_bestiary()) == 19


# --------------------------------------------------------------------------------------------- loading stays lazy
def test_help_and_odds_do_not_read_the_srd_bestiary():
    code = (
        "import sys\n"
        "from arena.cli import app\n"
        "from arena.world import srd_bestiary\n"
        "for args in (['--help'], ['odds', 'attack', '--bonus', '5', '--ac', '15'], ['bestiary', '--help']):\n"
        "    try:\n"
        "        app(args=args, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert not srd_bestiary.index_loaded() and not srd_bestiary._CREATURES, 'the SRD bestiary was read'\n"
        "from arena.world.bestiary import get_creature\n"
        "get_creature('troll')\n"
        "assert not srd_bestiary.index_loaded(), 'a hand-written name read the SRD index'\n"
        "get_creature('gelatinous-cube')\n"
        "assert srd_bestiary.index_loaded() and list(srd_bestiary._CREATURES) == ['gelatinous-cube']\n"
        "print('lazy')\n"
    )
    proc = cpu_limits.run([sys.executable, "-c", code], cpu=20, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("lazy"), proc.stdout + proc.stderr


def test_population_and_selection():
    cr3 = srd_bestiary.select(srd_rows(), cr="3")
    assert cr3 and all(r.cr_value == 3 for r in cr3)
    band = srd_bestiary.select(srd_rows(), cr="1/2..5", type_="undead", modelled="full")
    assert band and all(Fraction(1, 2) <= r.cr_value <= 5 and r.type == "undead" and r.modelled == "full" for r in band)
    assert [c.name for c in srd_bestiary.srd_population(cr="20", modelled="full")] == [
        r.name for r in srd_bestiary.select(srd_rows(), cr="20", modelled="full")
    ]
    assert json.loads(json.dumps(srd_rows()[0].as_json()))["name"] == srd_rows()[0].name
