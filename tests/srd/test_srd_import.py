# ruff: noqa: E501 (the SRD text is quoted as it is, long rows and all)
"""The SRD stat-block importer: Markdown tables and `Field: value` lines to validated stat blocks, its notes,
its errors (file, line, field) and its self-checks."""

from fractions import Fraction

import pytest

from arena.srd.blocks import find_blocks
from arena.srd.build import kebab
from arena.srd.importer import import_files, import_text
from arena.world.bestiary import load_bestiary

TROLLS = """\
TROLL

|  | | Troll | | Troll Hunter, 6th-Level Ranger | |  |
|  | Large Giant | Large Giant | |  |
| Hit Dice: | 6d8+36 (63 hp) | 6d8+6d8+72 (130 hp) | |  |
| Initiative: | +2 | +1 | |  |
| Speed: | 30 ft. (6 squares) | 30 ft. (6 squares) | |  |
| Armor Class: | 16 (-1 size, +2 Dex, +5 natural), touch 11, flat-footed 14 | 21 (-1 size, +1 Dex, +6 natural, +5 +1 chain shirt), touch 10, flat-footed 20 | |  |
| Base Attack/Grapple: | +4/+14 | +10/+21 | |  |
| Attack: | Claw +9 melee (1d6+6) | Claw +16 melee (1d6+7) or +1 battleaxe +17 melee (2d6+8/x3) or javelin +10 ranged (1d8+7) | |  |
| Full Attack: | 2 claws +9 melee (1d6+6) and bite +4 melee (1d6+3) | 2 claws +16 melee (1d6+7) and bite +11 melee (1d6+3); or +1 battleaxe +17/+12 melee (2d6+8/x3) and claw +12 melee (1d6+3) and bite +12 (1d6+3); or javelin +10 ranged (1d8+7) | |  |
| Space/Reach: | 10 ft./10 ft. | 10 ft./10 ft. | |  |
| Special Attacks: | Rend 2d6+9  | Rend 2d6+10, spells | |  |
| Special Qualities: | Darkvision 90 ft., low-light vision, regeneration 5, scent | Darkvision 90 ft., favored enemy elves (+4), favored enemy humans (+2), low-light vision, regeneration 5, scent, wild empathy | |  |
| Saves: | Fort +11, Ref +4, Will +3 | Fort +16, Ref +8, Will +8 | |  |
| Abilities: | Str 23, Dex 14, Con 23, Int 6, Wis 9, Cha 6 | Str 25, Dex 12, Con 22, Int 10, Wis 15, Cha 10 | |  |
| Skills: | Listen +5, Spot +6 | Listen +13, Spot +13 | |  |
| Feats: | Alertness, Iron Will, Track | Alertness, Cleave, EnduranceB, Iron Will, Power Attack, TrackB | |  |
| Environment: | Cold mountains

(Scrag: Cold aquatic) | Cold mountains | |  |
| Organization: | Solitary or gang (2-4) | Solitary | |  |
| Challenge Rating: | 5 | 11 | |  |
| Treasure: | Standard | Standard | |  |
| Alignment: | Usually chaotic evil | Usually chaotic evil | |  |
| Advancement: | By character class | -- | |  |
| Level Adjustment: | +5 | +5 | |  |

COMBAT

Rend (Ex): If a troll hits with both claw attacks, it latches onto the opponent's body and tears the flesh. This attack automatically deals an additional 2d6+9 points of damage.

Regeneration (Ex): Fire and acid deal normal damage to a troll. If a troll loses a limb or body part, the lost portion regrows in 3d6 minutes.
"""

PASTED = """\
Ettercap
Medium Aberration
Hit Dice:\t5d8+5 (27 hp)
Initiative:\t+3
Speed:\t30 ft. (6 squares), climb 30 ft.
Armor Class:\t14 (+3 Dex, +1 natural), touch 13, flat-footed 11
Base Attack/Grapple:\t+3/+5
Attack:\tBite +5 melee (1d8+2 plus poison)
Full Attack:\tBite +5 melee (1d8+2 plus poison) and 2 claws +3 melee (1d3+1)
Space/Reach:\t5 ft./5 ft.
Special Attacks:\tPoison, web
Special Qualities:\tLow-light vision
Saves:\tFort +2, Ref +4, Will +6
Abilities:\tStr 14, Dex 17, Con 13, Int 6, Wis 15, Cha 8
Feats:\tGreat Fortitude, Multiattack
Challenge Rating:\t3

Poison (Ex): Injury, Fortitude DC 15, initial and secondary damage 1d6 Dex. The save DC is Constitution-based.

Web (Ex): An ettercap can throw a web eight times per day. This is similar to an attack with a net. An entangled \
creature can escape with a DC 13 Escape Artist check or burst the web with a DC 17 Strength check.
"""

ELEMENTALS = """\
FIRE ELEMENTAL

|   | Fire Elemental, Small | Fire Elemental, Large | |  |
|   | Small Elemental (Fire, Extraplanar) | Large Elemental (Fire, Extraplanar) | |  |
| Hit Dice: | 2d8 (9 hp) | 8d8+24 (60 hp) | |  |
| Initiative: | +5 | +9 | |  |
| Speed: | 50 ft. (10 squares) | 50 ft. (10 squares) | |  |
| Armor Class: | 15 (+1 size, +1 Dex, +3 natural), touch 12, flat-footed 14 | 18 (-1 size, +5 Dex, +4 natural), touch 14, flat-footed 13 | |  |
| Base Attack/Grapple: | +1/-3 | +6/+12 | |  |
| Attack: | Slam +3 melee (1d4 plus 1d4 fire) | Slam +10 melee (2d6+2 plus 2d6 fire) | |  |
| Full Attack: | Slam +3 melee (1d4 plus 1d4 fire) | 2 slams +10 melee (2d6+2 plus 2d6 fire) | |  |
| Space/Reach: | 5 ft./5 ft. | 10 ft./10 ft. | |  |
| Special Attacks: | Burn | Burn | |  |
| Special Qualities: | Darkvision 60 ft., elemental traits, immunity to fire, vulnerability to cold | Damage reduction 5/-, darkvision 60 ft., elemental traits, immunity to fire, vulnerability to cold | |  |
| Saves: | Fort +0, Ref +4, Will +0 | Fort +5, Ref +11, Will +2 | |  |
| Abilities: | Str 10, Dex 13, Con 10, Int 4, Wis 11, Cha 11 | Str 14, Dex 21, Con 16, Int 6, Wis 11, Cha 11 | |  |
| Feats: | Dodge, Improved InitiativeB, Weapon Finesse B | Dodge, Improved InitiativeB, Iron Will, Mobility, Spring Attack, Weapon FinesseB | |  |
| Challenge Rating: | 1 | 5 | |  |

Burn (Ex): A fire elemental's slam attack deals bludgeoning damage plus fire damage from the elemental's flaming body. Those hit by a fire elemental's slam attack also must succeed on a Reflex save or catch on fire. The flame burns for 1d4 rounds. The save DC varies with the elemental's size (see the table below). A burning creature can take a move action to put out the flame. The save DC is Constitution- based.

| Fire Elemental Sizes | |  |
| Elemental | | Height | Weight | Burn Save DC | |  |
| Small | | 4 ft. | 1 lb. | 11 | |  |
| Large | | 16 ft. | 4 lb. | 17 | |  |
"""


def one(text: str, name: str = "test.md"):
    report = import_text(text, name)
    return report, {b.name: b for b in report.built}


def notes_of(built, kind=None):
    return [n for n in built.notes if kind is None or n.kind == kind]


# --------------------------------------------------------------------------------------------- tables
def test_a_table_of_two_creatures_gives_two_stat_blocks():
    report, built = one(TROLLS)
    assert not report.errors
    assert set(built) == {"troll", "troll-hunter-6th-level-ranger"}
    troll = built["troll"].creature
    assert (troll.size, troll.type, troll.cr, troll.hp, troll.hit_dice) == ("large", "giant", 5, 63, "6d8+36")
    assert (troll.ac, troll.touch_ac, troll.flat_footed_ac, troll.bab, troll.grapple) == (16, 11, 14, 4, 14)
    claw, bite = troll.full_attack[0]
    assert (claw.name, claw.count, claw.bonuses, claw.damage, claw.damage_types) == (
        "claw",
        2,
        (9,),
        "1d6+6",
        ("piercing", "slashing"),
    )
    assert (bite.name, bite.bonuses, bite.damage) == ("bite", (4,), "1d6+3")
    assert troll.rend.damage == "2d6+9" and troll.rend.attack == "claw"
    assert troll.regeneration.amount == 5 and set(troll.regeneration.overcome_by) == {"fire", "acid"}
    assert troll.feats == ("Alertness", "Iron Will", "Track")
    assert troll.source.startswith("SRD 3.5 test.md:3 ")


def test_the_second_column_is_read_with_its_own_numbers():
    _, built = one(TROLLS)
    hunter = built["troll-hunter-6th-level-ranger"].creature
    assert hunter.class_levels == {"ranger": 6} and hunter.cr == 11 and hunter.hp == 130
    assert hunter.hit_dice == "6d8+6d8+72"
    axe = hunter.attack[1][0]
    assert (axe.name, axe.bonuses, axe.damage, axe.multiplier, axe.materials) == (
        "battleaxe",
        (17,),
        "2d6+8",
        3,
        ("magic",),
    )
    assert [len(r) for r in hunter.full_attack] == [2, 3, 1]
    assert hunter.full_attack[1][0].bonuses == (17, 12)
    assert hunter.full_attack[2][0].kind == "ranged"
    assert "Endurance" in hunter.feats and "Track" in hunter.feats  # bonus-feat suffix B dropped


def test_an_attack_without_melee_or_ranged_is_a_guess_with_its_line_and_text():
    _, built = one(TROLLS)
    hunter = built["troll-hunter-6th-level-ranger"]
    guesses = notes_of(hunter, "guess")
    assert any(n.field == "Full Attack" and n.line == 11 and "bite +12 (1d6+3)" in n.text for n in guesses)
    assert hunter.creature.import_status == "guessed"
    assert built["troll"].creature.import_status == "clean"


def test_elementals_are_named_family_first_with_energy_riders():
    report, built = one(ELEMENTALS)
    assert set(built) == {"elemental-fire-small", "elemental-fire-large"}
    large = built["elemental-fire-large"].creature
    slam = large.full_attack[0][0]
    assert (slam.count, slam.damage, slam.extra_damage, slam.extra_damage_type) == (2, "2d6+2", "2d6", "fire")
    assert str(large.damage_reduction) == "5/-" and "fire" in large.all_immunities
    assert "cold" in large.all_vulnerabilities and large.immunities == ()  # both from the fire subtype
    burn = next(a for a in large.special_abilities if a.key == "burn")
    assert burn.engine == "modelled" and large.modelled == "full"  # its Reflex DC from the table by size
    assert (large.burn.attack, large.burn.dc, large.burn.damage, large.burn.rounds) == ("slam", 17, "2d6", "1d4")
    assert built["elemental-fire-small"].creature.burn.dc == 11
    assert next(a for a in large.special_abilities if a.key == "type traits").engine == "modelled"


def test_kebab_names():
    assert kebab("Troll") == "troll"
    assert kebab("Air Elemental, Large") == "elemental-air-large"
    assert kebab("Red Dragon, Young") == "red-dragon-young"
    assert kebab("Barbed Devil (Hamatula)") == "barbed-devil"
    assert kebab("Will-o'-Wisp") == "will-o-wisp"


# --------------------------------------------------------------------------------------------- pasted lines
def test_field_value_lines_pasted_from_a_web_page():
    report, built = one(PASTED, "ettercap.txt")
    assert not report.errors and list(built) == ["ettercap"]
    c = built["ettercap"].creature
    assert (c.type, c.size, c.cr, c.hp, c.ac, c.saves.will) == ("aberration", "medium", 3, 27, 14, 6)
    assert c.full_attack[0][1].count == 2 and c.full_attack[0][1].name == "claw"
    poison = next(a for a in c.special_abilities if a.key == "poison")
    assert (poison.engine, poison.dc, poison.save) == ("modelled", 15, "fort")
    assert (c.poison.attack, c.poison.dc, c.poison.initial.dice, c.poison.initial.ability) == ("bite", 15, "1d6", "dex")
    assert (c.web.burst_dc, c.web.uses, c.web.escape_dc) == (17, 8, 13)
    assert c.ignored_abilities == () and c.modelled == "full"
    assert next(a for a in c.special_abilities if a.key == "low-light vision").engine == "no effect"


def test_a_block_of_only_modelled_and_no_effect_abilities_is_full():
    _, built = one(TROLLS)
    troll = built["troll"].creature
    assert troll.modelled == "full" and troll.ignored_abilities == ()
    assert {a.key: a.engine for a in troll.special_abilities} == {
        "rend": "modelled",
        "darkvision": "no effect",
        "low-light vision": "no effect",
        "regeneration": "modelled",
        "scent": "no effect",
    }


# --------------------------------------------------------------------------------------------- bad input
def _replace(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "line", "field", "words"),
    [
        ("| Hit Dice: | 6d8+36 (63 hp)", "| Hit Dice: | -6d8+36 (63 hp)", 5, "Hit Dice", "negative hit dice"),
        ("| Challenge Rating: | 5 |", "| Challenge Rating: | 0.7 |", 23, "Challenge Rating", "does not exist"),
        ("| Armor Class: | 16 (-1 size", "| Armor Class: | lots (-1 size", 8, "Armor Class", "cannot read"),
        ("| Saves: | Fort +11, Ref +4,", "| Saves: | Fortune +11, Ref +4,", 15, "Saves", "no Fort"),
    ],
)
def test_a_bad_field_names_file_line_and_field_and_the_good_creature_is_still_imported(old, new, line, field, words):
    report, built = one(_replace(TROLLS, old, new), "trolls.md")
    assert len(report.errors) == 1
    error = report.errors[0]
    assert (error.file, error.line, error.field) == ("trolls.md", line, field)
    assert words in error.message and str(error).startswith(f"trolls.md:{line}: {field}: ")
    assert built["troll"].creature is None
    assert built["troll-hunter-6th-level-ranger"].creature is not None


def test_an_unknown_special_ability_is_an_error_but_the_creature_is_written_marked_unread():
    text = _replace(TROLLS, "| Special Attacks: | Rend 2d6+9  |", "| Special Attacks: | Rend 2d6+9, zorch blast |")
    report, built = one(text, "trolls.md")
    assert [(e.line, e.field) for e in report.errors] == [(13, "Special Attacks")]
    assert "unknown special ability 'zorch blast'" in report.errors[0].message
    troll = built["troll"].creature
    assert troll is not None and troll.import_status == "unread" and "zorch blast" in troll.ignored_abilities


def test_a_described_ability_the_vocabulary_lacks_counts_as_ignored():
    text = _replace(TROLLS, "| Special Attacks: | Rend 2d6+9  |", "| Special Attacks: | Rend 2d6+9, zorch blast |")
    text += "\nZorch Blast (Su): Once per day the troll zorches a foe.\n"
    report, built = one(text)
    assert not report.errors
    zorch = next(a for a in built["troll"].creature.special_abilities if a.key == "zorch blast")
    assert zorch.engine == "ignored" and "vocabulary" in zorch.notes


def test_a_file_with_no_stat_block_is_an_error():
    report = import_text("# My notes\n\nTrolls are big. They regenerate.\n| a | b |\n", "notes.md")
    assert [str(e) for e in report.errors] == [
        "notes.md: file: no stat block found (no 'Hit Dice:' field in an SRD-layout table or in 'Field: value' lines)"
    ]
    assert report.built == []


# --------------------------------------------------------------------------------------------- self-checks
@pytest.mark.parametrize(
    ("old", "new", "field", "words"),
    [
        ("6d8+36 (63 hp)", "6d8+36 (64 hp)", "Hit Dice", "64 hp, but the average of the hit dice is 63: kept 64"),
        (
            "16 (-1 size, +2 Dex, +5 natural)",
            "17 (-1 size, +2 Dex, +5 natural)",
            "Armor Class",
            "AC 17, but 10 + its components is 16: kept 17",
        ),
        ("2 claws +9 melee (1d6+6)", "2 claws +11 melee (1d6+6)", "Full Attack", "claw +11, but BAB +4 + Str +6"),
        ("| +4/+14 |", "| +4/+15 |", "Base Attack/Grapple", "grapple +15, but BAB +4 + Str +6 + size +4 is +14"),
        ("Fort +11, Ref +4, Will +3 |", "Fort +11, Ref +4, Will +5 |", "Saves", "Will +5, but a giant's poor save"),
    ],
)
def test_a_block_that_disagrees_with_itself_keeps_the_srd_number_and_lists_it(old, new, field, words):
    report, built = one(_replace(TROLLS, old, new))
    assert not report.errors
    troll = built["troll"]
    found = [n for n in notes_of(troll, "discrepancy") if n.field == field]
    assert found and words in found[0].message, [n.message for n in notes_of(troll, "discrepancy")]
    assert troll.creature.import_status == "clean"  # the SRD's own errata, not a guess
    stated = {
        "Hit Dice": troll.creature.hp == 64,
        "Armor Class": troll.creature.ac == 17,
        "Full Attack": troll.creature.full_attack[0][0].bonuses == (11,),
        "Base Attack/Grapple": troll.creature.grapple == 15,
        "Saves": troll.creature.saves.will == 5,
    }
    assert stated[field]


def test_a_consistent_block_has_no_discrepancy():
    _, built = one(TROLLS)
    assert notes_of(built["troll"], "discrepancy") == []


# --------------------------------------------------------------------------------------------- the conversion's marks
def test_conversion_marks_are_mended():
    text = _replace(TROLLS, "| Attack: | Claw +9 melee (1d6+6) |", "| Attack: | Claw+9 melee, (1d6+6 |")
    text = _replace(text, "| Special Attacks: | Rend 2d6+9  |", "| Special Attacks:Rend 2d6+9 |")
    report, built = one(text)
    assert not report.errors
    troll = built["troll"].creature
    assert troll.attack[0][0].damage == "1d6+6" and troll.rend is not None


def test_the_tables_in_a_file_are_all_found():
    blocks = find_blocks(TROLLS + "\n\n" + ELEMENTALS, "x.md")
    assert [b.title for b in blocks] == [
        "Troll",
        "Troll Hunter, 6th-Level Ranger",
        "Fire Elemental, Small",
        "Fire Elemental, Large",
    ]
    assert blocks[0].fields["Environment"].text.startswith("Cold mountains (Scrag")  # a wrapped cell


# --------------------------------------------------------------------------------------------- writing
def test_written_stat_blocks_load_as_a_bestiary(tmp_path):
    src = tmp_path / "in.md"
    src.write_text(TROLLS + "\n" + ELEMENTALS)
    report = import_files([src], tmp_path / "out")
    assert not report.errors and len(report.written) == 4
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == [
        "elemental-fire-large.yaml",
        "elemental-fire-small.yaml",
        "troll-hunter-6th-level-ranger.yaml",
        "troll.yaml",
    ]
    book = load_bestiary([tmp_path / "out" / "elemental-fire-large.yaml"])
    loaded = book["elemental-fire-large"]
    assert loaded == next(b.creature for b, _ in report.written if b.name == "elemental-fire-large")
    assert loaded.cr == Fraction(5) and loaded.special_abilities[0].name == "Burn"
    assert "Open Game License" in (tmp_path / "out" / "troll.yaml").read_text()


def test_a_name_taken_twice_in_one_import_gets_a_number(tmp_path):
    (tmp_path / "a.md").write_text(PASTED)
    (tmp_path / "b.md").write_text(PASTED)
    report = import_files([tmp_path / "a.md", tmp_path / "b.md"], tmp_path / "out")
    assert [b.creature.name for b, _ in report.written] == ["ettercap", "ettercap-2"]
    second = report.written[1][0].creature
    assert second.import_status == "guessed" and "taken" in second.import_notes[-1].message
