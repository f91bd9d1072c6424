# ruff: noqa: E501 (the SRD text is quoted as it is)
"""Spell-like abilities and spells: each listed spell is cast (the engine casts it), no effect (utility) or
ignored; the entry is modelled, with a ``spellcasting`` field and caster tactics, only when every spell that
matters is one the engine casts."""

import pytest

from arena.srd.importer import import_text
from arena.srd.spells import read_spell_like, read_spell_list, spell_class
from arena.world.srd_bestiary import srd_creature

CASTER = """\
Sparker
Small Outsider
Hit Dice:\t4d8+4 (22 hp)
Initiative:\t+1
Speed:\t30 ft. (6 squares)
Armor Class:\t15 (+1 size, +1 Dex, +3 natural), touch 12, flat-footed 14
Base Attack/Grapple:\t+4/+1
Attack:\tClaw +6 melee (1d4+1)
Full Attack:\t2 claws +6 melee (1d4+1)
Space/Reach:\t5 ft./5 ft.
Special Attacks:\tSpell-like abilities
Special Qualities:\tDarkvision 60 ft.
Saves:\tFort +5, Ref +5, Will +4
Abilities:\tStr 12, Dex 13, Con 12, Int 10, Wis 10, Cha 14
Feats:\tAlertness, Weapon Finesse
Challenge Rating:\t3

Spell-Like Abilities: At will--detect magic, magic missile; 3/day--scorching ray (DC 14); 1/day--fireball (DC 15), greater teleport (self plus 50 pounds of objects only). Caster level 6th. The save DCs are Charisma-based.
"""


def test_a_block_whose_spell_like_abilities_the_engine_all_casts_gets_spellcasting():
    report = import_text(CASTER, "sparker.txt")
    c = {b.name: b for b in report.built}["sparker"].creature
    assert not report.errors
    sc = c.spellcasting
    assert (sc.caster_level, sc.ability) == (6, "cha") and c.tactics == "caster"
    # at will: 6 casts; 3/day: 3; 1/day: 1; the level from the DC (10 + level + Cha +2), else the spell's own
    assert sc.prepared == {1: ("magic missile",) * 6, 2: ("scorching ray",) * 3, 3: ("fireball",)}
    entry = next(a for a in c.special_abilities if a.key == "spell-like abilities")
    assert entry.engine == "modelled" and "detect magic" in entry.notes and "greater teleport" in entry.notes
    assert c.modelled == "full"


def test_one_spell_the_engine_does_not_cast_leaves_the_entry_ignored_and_named():
    text = CASTER.replace("magic missile;", "magic missile, mirror image;")
    c = {b.name: b for b in import_text(text, "sparker.txt").built}["sparker"].creature
    entry = next(a for a in c.special_abilities if a.key == "spell-like abilities")
    assert c.spellcasting is None and entry.engine == "ignored" and "does not cast mirror image" in entry.notes


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("fireball", "cast"),
        ("hold person", "cast"),
        ("detect evil", "no effect"),
        ("greater teleport", "no effect"),
        ("speak with animals", "no effect"),
        ("tongues", "no effect"),
        ("plane shift", "no effect"),
        ("invisibility", "cast"),
        ("dispel magic", "cast"),
        ("charm person", "cast"),
        ("gaseous form", "no effect"),
        ("mirror image", "ignored"),
        ("silent image", "ignored"),
        ("major image", "ignored"),
    ],
)
def test_the_table_of_spells(name, kind):
    assert spell_class(name) == kind


def test_the_srd_lists_are_read():
    listed = read_spell_like(
        "At will--blink, levitate, misdirection (DC 14), rage (DC 15); 1/day--charm monster "
        "(DC 16), dimension door. Caster level equals the barghest's HD."
    )
    assert listed == [
        ("blink", 6, None),
        ("levitate", 6, None),
        ("misdirection", 6, 14),
        ("rage", 6, 15),
        ("charm monster", 1, 16),
        ("dimension door", 1, None),
    ]
    spells = read_spell_list("0--daze, detect magic (2); 1st--magic missile; 2nd-- invisibility, web.")
    assert spells == [
        ("daze", 0, 1),
        ("detect magic", 0, 2),
        ("magic missile", 1, 1),
        ("invisibility", 2, 1),
        ("web", 2, 1),
    ]


@pytest.mark.parametrize(
    ("name", "key", "engine", "words"),
    [
        ("barbed-devil", "spell-like abilities", "ignored", "does not cast major image"),  # it casts hold person too
        ("copper-dragon-adult", "spell-like abilities", "no effect", "stone shape"),  # its sorcerer spells are cast
        ("red-dragon-adult", "spells", "modelled", "the engine's choice"),  # a sorcerer's: DRAGON_SPELLS
        ("formian-worker", "spell-like abilities", "ignored", "together"),  # eight workers in a circle
    ],
)
def test_the_shipped_srd(name, key, engine, words):
    c = srd_creature(name)
    entry = next(a for a in c.special_abilities if a.key == key)
    assert entry.engine == engine and words in entry.notes
    assert (c.spellcasting is None) == (name not in ("copper-dragon-adult", "red-dragon-adult"))
