"""The importer's reading of monsters' spells and spell-like abilities (arena/world/srd_spells.py): each block's own
description only, two spells joined by "and", qualifiers after a spell's name, a true dragon's caster level."""

from arena.world.srd_index import srd_creature
from arena.world.srd_spells import read_spell_like
from arena.world.srd_text import Cell, RawBlock


def entry(name: str, key: str = "spell-like abilities"):
    return next(a for a in srd_creature(name).special_abilities if a.key == key)


def test_two_spells_joined_by_and_are_two_and_trailing_qualifiers_are_dropped():
    """Pegasus: "At will--detect good and detect evil within a 60-foot radius"; fire mephit: "scorching ray (DC 14)
    as the spell cast by a 3rd-level sorcerer"; formians: "clairaudience/ clairvoyance"."""
    assert read_spell_like("At will--detect good and detect evil within a 60-foot radius. Caster level 5th.") == [
        ("detect good", 6, None), ("detect evil", 6, None)]
    assert read_spell_like("1/day--scorching ray as the spell cast by a 3rd-level sorcerer") == [
        ("scorching ray", 1, None)]
    assert read_spell_like("3/day--clairaudience/ clairvoyance") == [("clairaudience/clairvoyance", 3, None)]
    assert read_spell_like("1/day--create food and water") == [("create food and water", 1, None)]


def test_a_second_sentence_and_a_note_are_not_spells():
    """Gnome: "1/day--speak with animals (...). A gnome with a Charisma score of at least 10 also has ..."; duergar:
    "...; these abilities affect only the duergar and whatever it carries"."""
    assert read_spell_like("1/day--speak with animals (burrowing mammal only). A gnome with a Charisma score of at "
                           "least 10 also has the following spell-like abilities: 1/day--dancing lights") == [
        ("speak with animals", 1, None), ("dancing lights", 1, None)]
    assert read_spell_like("1/day--invisibility; these abilities affect only the duergar") == [
        ("invisibility", 1, None)]


def test_a_table_blocks_spells_come_from_its_own_creatures_prose():
    """The duergar's description ran into the dryad's (its spell-like abilities were the dryad's); the silver
    dragons' into the drider's (their spells were the drider sorcerer's list)."""
    duergar = entry("duergar-1st-level-warrior")
    assert "entangle" not in duergar.notes and "invisibility" in duergar.notes
    silver = entry("silver-dragon-juvenile", "spells")
    assert "lists no spells" in silver.notes and "ray of frost" not in silver.notes
    assert "ray of frost" in entry("drider", "spells").notes                  # the drider keeps its own list


def test_the_dragon_caster_level_rule_reads_the_age_from_the_title():
    from arena.world.srd_spells import _dragon_caster_level

    def dragon(title: str) -> RawBlock:
        return RawBlock(file="x.md", line=1, title=title, title_guessed=False, type_line=None, fields={},
                        layout="dragon tables")

    spells = [{"key": "spells", "name": "Spells (caster level 3rd)"}]
    assert _dragon_caster_level(dragon("Black Dragon, Juvenile"), []) == 4
    assert _dragon_caster_level(dragon("Black Dragon, Juvenile"), spells) == 4
    assert _dragon_caster_level(dragon("Gold Dragon, Wyrmling"), spells) == 3
    assert _dragon_caster_level(dragon("Red Dragon, Great Wyrm"), spells) == 12


def test_the_pegasus_detections_do_nothing_in_a_fight_so_it_is_fully_modelled():
    assert srd_creature("pegasus").modelled == "full" and entry("pegasus").engine == "no effect"


def test_own_section_keeps_a_blocks_family_rules_above_and_stops_at_the_next_creature():
    from arena.world.srd_spells import own_section

    context = ("DWARF", "", "| | Medium Humanoid (Dwarf) | |", "| Hit Dice: | 1d8 | |", "", "Spell-Like Abilities: "
               "1/day--darkness.", "", "DRYAD", "", "| | Medium Fey | |", "", "Spell-Like Abilities: 1/day--charm "
               "person.")
    cells = [Cell(context[5], 6), Cell(context[11], 12)]
    block = RawBlock(file="x.md", line=3, title="Dwarf", title_guessed=False, type_line=None, fields={},
                     layout="table", description=cells, context=context)
    assert [c.line for c in own_section(block).description] == [6]
