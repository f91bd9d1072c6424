"""The importer's reading of monsters' spells and spell-like abilities (arena/srd/spells.py): the spells the
engine now casts for monsters, each block's own description only, caster levels the SRD gives in words, a true
dragon's uses a day; and the shipped SRD creatures those readings make fully modelled."""

import pytest

from arena.srd.spells import read_spell_like, spell_class
from arena.srd.text import Cell, RawBlock
from arena.world.srd_bestiary import srd_creature


def entry(name: str, key: str = "spell-like abilities"):
    return next(a for a in srd_creature(name).special_abilities if a.key == key)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("invisibility", "cast"),
        ("darkness", "cast"),
        ("fog cloud", "cast"),
        ("obscuring mist", "cast"),
        ("charm person", "cast"),
        ("charm monster", "cast"),
        ("suggestion", "cast"),
        ("daze", "cast"),
        ("cause fear", "cast"),
        ("scare", "cast"),
        ("hold monster", "cast"),
        ("deep slumber", "cast"),
        ("ray of frost", "cast"),
        ("web", "cast"),
        ("entangle", "cast"),
        ("dispel magic", "cast"),
        ("gaseous form", "no effect"),
        ("expeditious retreat", "no effect"),
        ("remove curse", "no effect"),
        ("silent image", "ignored"),
        ("blur", "cast"),
        ("enlarge person", "ignored"),
        ("aid", "cast"),
        ("command", "cast"),
        ("gust of wind", "cast"),
        ("chain lightning", "cast"),
        ("call lightning", "cast"),
        ("wind wall", "cast"),
        ("stinking cloud", "cast"),
        ("acid arrow", "cast"),
        ("neutralize poison", "cast"),
        ("magic circle against evil", "no effect"),
        ("protection from evil", "no effect"),
    ],
)
def test_the_monster_spells_and_the_new_utilities(name, kind):
    assert spell_class(name) == kind


def test_two_spells_joined_by_and_are_two_and_trailing_qualifiers_are_dropped():
    """Pegasus: "At will--detect good and detect evil within a 60-foot radius"; fire mephit: "scorching ray (DC 14)
    as the spell cast by a 3rd-level sorcerer"; formians: "clairaudience/ clairvoyance"."""
    assert read_spell_like("At will--detect good and detect evil within a 60-foot radius. Caster level 5th.") == [
        ("detect good", 6, None),
        ("detect evil", 6, None),
    ]
    assert read_spell_like("1/day--scorching ray as the spell cast by a 3rd-level sorcerer") == [
        ("scorching ray", 1, None)
    ]
    assert read_spell_like("3/day--clairaudience/ clairvoyance") == [("clairaudience/clairvoyance", 3, None)]
    assert read_spell_like("1/day--create food and water") == [("create food and water", 1, None)]


def test_spell_like_abilities_written_as_sentences():
    """The mephits' and the unicorn's: "Once per hour an ooze mephit can hurl an acidic blob that functions like acid
    arrow (caster level 3rd). Once per day it can create a mass of smelly fog that duplicates the effect of stinking
    cloud (DC 15, caster level 6th)"; "A unicorn can use cure light wounds three times per day and cure moderate
    wounds once per day"; a sentence of uses naming no spell (a steam mephit's boiling rain) is not modelled."""
    from arena.srd.spells import read_spell_like_prose

    assert read_spell_like_prose(
        "Once per hour an ooze mephit can hurl an acidic blob that functions like acid arrow "
        "(caster level 3rd). Once per day it can create a mass of smelly fog that duplicates "
        "the effect of stinking cloud (DC 15, caster level 6th)."
    ) == [("acid arrow", 6, None), ("stinking cloud", 1, 15)]
    assert read_spell_like_prose(
        "A unicorn can use cure light wounds three times per day and cure moderate wounds "
        "once per day (caster level 5th)."
    ) == [("cure light wounds", 3, None), ("cure moderate wounds", 1, None)]
    rain = read_spell_like_prose(
        "Once per day it can create a rainstorm of boiling water that affects a 20-foot-square area."
    )
    assert len(rain) == 1 and rain[0][0].startswith("an unnamed ability") and spell_class(rain[0][0]) == "ignored"
    unicorn = srd_creature("unicorn")
    assert unicorn.modelled == "full" and unicorn.spellcasting.prepared == {
        1: ("cure light wounds",) * 3,
        2: ("cure moderate wounds",),
        4: ("neutralize poison",),
    }
    assert srd_creature("steam-mephit").modelled == "partial"


def test_the_drows_following_spell_like_abilities():
    """SRD drow: "Drow can use the following spell-like abilities once per day: dancing lights, darkness, faerie
    fire. Caster level equals the drow's class levels"."""
    from arena.srd.spells import read_spell_like_prose

    assert read_spell_like_prose(
        "Drow can use the following spell-like abilities once per day: dancing lights, darkness, faerie fire."
    ) == [("dancing lights", 1, None), ("darkness", 1, None), ("faerie fire", 1, None)]
    drow = srd_creature("drow-1st-level-warrior")
    assert drow.spellcasting.caster_level == 1 and drow.spellcasting.prepared == {1: ("faerie fire",), 2: ("darkness",)}


def test_a_second_sentence_and_a_note_are_not_spells():
    """Gnome: "1/day--speak with animals (...). A gnome with a Charisma score of at least 10 also has ..."; duergar:
    "...; these abilities affect only the duergar and whatever it carries"."""
    assert read_spell_like(
        "1/day--speak with animals (burrowing mammal only). A gnome with a Charisma score of at "
        "least 10 also has the following spell-like abilities: 1/day--dancing lights"
    ) == [("speak with animals", 1, None), ("dancing lights", 1, None)]
    assert read_spell_like("1/day--invisibility; these abilities affect only the duergar") == [
        ("invisibility", 1, None)
    ]


def test_a_table_blocks_spells_come_from_its_own_creatures_prose():
    """The duergar's description ran into the dryad's (its spell-like abilities were the dryad's); the silver
    dragons' into the drider's (their spells were the drider sorcerer's list)."""
    duergar = entry("duergar-1st-level-warrior")
    assert "entangle" not in duergar.notes and "invisibility" in duergar.notes
    silver = entry("silver-dragon-juvenile", "spells")
    assert "the engine's choice" in silver.notes and "silent image" not in silver.notes
    assert "ray of frost" in entry("drider", "spells").notes  # the drider keeps its own list


def test_a_true_dragons_caster_level_is_its_age_category_or_its_sorcerer_level_and_its_uses_its_varietys():
    """SRD DRAGON, TRUE: "Its age category or its sorcerer caster level, whichever is higher, is the caster level
    for these abilities"; black dragon: "Other Spell-Like Abilities: 3/day--darkness (juvenile or older ...)"."""
    black = srd_creature("black-dragon-juvenile")  # juvenile: age category 4; sorcerer 1st
    assert black.spellcasting.caster_level == 4 and black.spellcasting.prepared == {2: ("darkness",) * 3}
    white = srd_creature("white-dragon-juvenile")
    assert white.spellcasting.prepared == {2: ("fog cloud",) * 3} and black.modelled == white.modelled == "full"


def test_the_dragon_caster_level_rule_reads_the_age_from_the_title():
    from arena.srd.spells import dragon_caster_level

    def dragon(title: str) -> RawBlock:
        return RawBlock(
            file="x.md", line=1, title=title, title_guessed=False, type_line=None, fields={}, layout="dragon tables"
        )

    spells = [{"key": "spells", "name": "Spells (caster level 3rd)"}]
    assert dragon_caster_level(dragon("Black Dragon, Juvenile"), []) == 4
    assert dragon_caster_level(dragon("Black Dragon, Juvenile"), spells) == 4
    assert dragon_caster_level(dragon("Gold Dragon, Wyrmling"), spells) == 3
    assert dragon_caster_level(dragon("Red Dragon, Great Wyrm"), spells) == 12


def test_a_true_dragons_sorcerer_spells_are_the_srd_tables_filled_with_the_engines_choice():
    """SRD DRAGON, TRUE: "A dragon knows and casts arcane spells as a sorcerer of the level indicated in its variety
    description, gaining bonus spells for a high Charisma score": the sorcerer's spells per day and known (SRD
    tables), the known spells chosen by DRAGON_SPELLS. Young red dragon: caster level 1st, Cha 14 (+2): 5 cantrips,
    3 + 1 first-level slots, 2 first-level spells known."""
    from arena.srd.spell_tables import DRAGON_SPELLS, SORCERER_KNOWN, SORCERER_PER_DAY

    assert SORCERER_PER_DAY[1] == (5, 3) and SORCERER_PER_DAY[20] == (6,) * 10 and SORCERER_KNOWN[20][9] == 3
    assert all(len(SORCERER_PER_DAY[n]) == len(SORCERER_KNOWN[n]) for n in range(1, 21))
    red = srd_creature("red-dragon-young")
    assert red.spellcasting.caster_level == 1 and red.modelled == "full" and red.tactics == "caster"
    assert red.spellcasting.prepared == {
        0: ("daze", "ray of frost", "daze", "ray of frost", "daze"),
        1: ("magic missile", "charm person") * 2,
    }
    assert "the engine's choice" in entry("red-dragon-young", "spells").notes
    assert all(spell_class(n) == "cast" for names in DRAGON_SPELLS.values() for n in names)
    adult = srd_creature("black-dragon-adult")  # sorcerer 5th, age category 6: darkness at 6
    assert adult.spellcasting.caster_level == 6 and "darkness" in adult.spellcasting.prepared[2]
    assert 6 not in adult.spellcasting.prepared  # no 6th-level slots at caster level 5


@pytest.mark.parametrize(
    ("name", "level", "prepared"),
    [
        ("tiefling-1st-level-warrior", 1, {2: ("darkness",)}),  # "caster level equal to class levels"
        ("krenshar", 3, {2: ("scare",)}),  # "a scare spell from a 3rd-level caster"
    ],
)
def test_caster_levels_written_in_words(name, level, prepared):
    c = srd_creature(name)
    assert c.spellcasting.caster_level == level and c.spellcasting.prepared == prepared and c.modelled == "full"


@pytest.mark.parametrize(
    "name",
    [
        "annis",
        "black-dragon-juvenile",
        "cloud-giant",
        "dryad",
        "gynosphinx",
        "imp",
        "hound-archon",
        "lantern-archon",
        "dretch",
        "ooze-mephit",
        "water-mephit",
        "drow-1st-level-warrior",
        "night-hag",
        "unicorn",
        "air-mephit",
        "avoral",
        "white-dragon-adult",
        "storm-giant",
        "dust-mephit",
        "janni",
        "krenshar",
        "lillend",
        "nixie",
        "ogre-mage",
        "pegasus",
        "quasit",
        "tiefling-1st-level-warrior",
        "white-dragon-juvenile",
        "white-dragon-young-adult",
    ],
)
def test_srd_creatures_the_monster_spells_make_fully_modelled(name):
    c = srd_creature(name)
    assert c.modelled == "full", c.ignored_abilities
    if name != "pegasus":  # its detections do nothing in a fight
        assert c.tactics == "caster" and c.spellcasting is not None


def test_own_section_keeps_a_blocks_family_rules_above_and_stops_at_the_next_creature():
    from arena.srd.prose import own_section

    context = (
        "DWARF",
        "",
        "| | Medium Humanoid (Dwarf) | |",
        "| Hit Dice: | 1d8 | |",
        "",
        "Spell-Like Abilities: 1/day--darkness.",
        "",
        "DRYAD",
        "",
        "| | Medium Fey | |",
        "",
        "Spell-Like Abilities: 1/day--charm person.",
    )
    cells = [Cell(context[5], 6), Cell(context[11], 12)]
    block = RawBlock(
        file="x.md",
        line=3,
        title="Dwarf",
        title_guessed=False,
        type_line=None,
        fields={},
        layout="table",
        description=cells,
        context=context,
    )
    assert [c.line for c in own_section(block).description] == [6]
