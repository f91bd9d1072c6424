# ruff: noqa: E501 (the SRD's sentences are quoted as they are)
"""The importer's patterns read the SRD's own lines: each case is an SRD line (a field's cell, an attack, a spell
list, an ability's paragraph as a chapter prints it) and what the importer reads out of it.

The field and attack cases call the readers directly, with a :class:`~arena.srd.context.Reading` of one field;
the ability cases import a small pasted stat block (:data:`BLOCK`) whose Special Attacks hold the entry and whose
description holds the SRD paragraph, and look at the stat-block field the reader fills.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from arena.srd.attacks import read_attack
from arena.srd.blocks import find_blocks
from arena.srd.build import kebab, read_field
from arena.srd.context import Reading
from arena.srd.importer import import_text
from arena.srd.patterns import singular
from arena.srd.spells import read_spell_like, read_spell_like_prose, read_spell_list
from arena.srd.text import Cell, RawBlock, drop_parens, is_type_line, title_case
from arena.srd.vocabulary import IGNORED, NO_EFFECT, entry_name, key_in, split_items


def reading(name: str, text: str, size: str = "medium") -> Reading:
    """A reading of one field's cell, ``name: text``, on line 1 of a block."""
    block = RawBlock(
        file="srd.txt",
        line=1,
        title="Test",
        title_guessed=False,
        type_line=None,
        fields={name: Cell(text, 1)},
        layout="lines",
    )
    return Reading(block, size=size)


# --------------------------------------------------------------------------------------------- fields
FIELDS = [
    ("Size/Type", "Large Giant", lambda r: (r.size, r.type, r.subtypes) == ("large", "giant", ())),
    (
        "Size/Type",
        "Medium Outsider (Evil, Lawful)",
        lambda r: (r.size, r.type, r.subtypes) == ("medium", "outsider", ("evil", "lawful")),
    ),
    ("Size/Type", "Huge Magical Beast", lambda r: r.type == "magical beast"),
    ("Hit Dice", "6d8+36 (63 hp)", lambda r: (r.expression, r.hp, r.hd) == ("6d8+36", 63, 6)),
    (
        "Hit Dice",
        "6d8+6d8+72 (130 hp)",
        lambda r: (r.expression, r.hp, r.terms) == ("6d8+6d8+72", 130, ((6, 8), (6, 8))),
    ),
    ("Hit Dice", "1/4 d8 (1 hp)", lambda r: (r.expression, r.hp, r.hd) == ("1d8", 1, 0.25)),
    ("Initiative", "+7 (+3 Dex, +4 Improved Initiative)", lambda r: r == 7),
    ("Initiative", "-1", lambda r: r == -1),
    ("Speed", "30 ft. (6 squares), climb 30 ft.", lambda r: r == 30),
    ("Speed", "Fly 60 ft. (good)", lambda r: r == 0),
    ("Space/Reach", "10 ft./10 ft.", lambda r: r == (10, 10)),
    ("Space/Reach", "2-1/2 ft./0 ft.", lambda r: r == (2, 0)),
    ("Space/Reach", "15 ft./10 ft. (20 ft. with tentacles)", lambda r: r == (15, 10)),
    ("Base Attack/Grapple", "+4/+14", lambda r: (r.bab, r.grapple) == (4, 14)),
    ("Base Attack/Grapple", "+2/—", lambda r: (r.bab, r.grapple) == (2, None)),
    ("Saves", "Fort +11, Ref +4, Will +3", lambda r: (r.fort, r.ref, r.will) == (11, 4, 3)),
    ("Saves", "Fort +4, Ref +3, Will +4*", lambda r: (r.fort, r.ref, r.will) == (4, 3, 4)),
    (
        "Abilities",
        "Str 23, Dex 14, Con 23, Int 6, Wis 9, Cha 6",
        lambda r: r == {"str": 23, "dex": 14, "con": 23, "int": 6, "wis": 9, "cha": 6},
    ),
    (
        "Abilities",
        "Str 13, Dex 11, Con —, Int —, Wis 10, Cha 1",
        lambda r: (r["con"], r["int"], r["cha"]) == (None, None, 1),
    ),
    ("Challenge Rating", "1/2", lambda r: r == Fraction(1, 2)),
    ("Challenge Rating", "11", lambda r: r == 11),
    (
        "Feats",
        "Alertness, Cleave, EnduranceB, Iron Will, Power Attack, TrackB",
        lambda r: r == ("Alertness", "Cleave", "Endurance", "Iron Will", "Power Attack", "Track"),
    ),
    ("Feats", "Weapon FocusB (claw), Multiattack", lambda r: r == ("Weapon Focus (claw)", "Multiattack")),
    (
        "Armor Class",
        "16 (-1 size, +2 Dex, +5 natural), touch 11, flat-footed 14",
        lambda r: (r.ac, r.touch, r.flat, r.components) == (16, 11, 14, ((-1, "size"), (2, "dex"), (5, "natural"))),
    ),
    (
        "Armor Class",
        "21 (-1 size, +1 Dex, +6 natural, +5 +1 chain shirt), touch 10, flat-footed 20",
        lambda r: (r.ac, r.components[-1]) == (21, (5, "armor")),
    ),
    (
        "Armor Class",
        "17 (+2 Dex, +4 natural, +1 ring of protection), touch 13, flat-footed 15",
        lambda r: r.deflection == 1,
    ),
]


@pytest.mark.parametrize(("name", "text", "holds"), FIELDS, ids=[f"{n}: {t}" for n, t, _ in FIELDS])
def test_a_field_reads_the_srds_cell(name, text, holds):
    ctx = reading(name, text)
    assert holds(read_field(ctx, name))
    assert not [n for n in ctx.notes.items if n.kind == "unread"]


# --------------------------------------------------------------------------------------------- attacks
ATTACKS = [
    (
        "2 claws +9 melee (1d6+6)",
        [dict(name="claw", count=2, bonuses=(9,), kind="melee", damage="1d6+6", damage_types=("piercing", "slashing"))],
    ),
    (
        "+1 battleaxe +17/+12 melee (2d6+8/x3)",
        [
            dict(
                name="battleaxe",
                bonuses=(17, 12),
                damage="2d6+8",
                multiplier=3,
                enhancement=1,
                damage_types=("slashing",),
            )
        ],
    ),
    ("Longsword +5 melee (1d8+3/19-20)", [dict(name="longsword", threat=19, multiplier=2)]),
    ("Bite +5 melee (1d8+2 plus poison)", [dict(name="bite", damage="1d8+2", riders=("poison",))]),
    ("Slam +8 melee (1d6+4 plus 1d6 fire)", [dict(name="slam", extra_damage="1d6", extra_damage_type="fire")]),
    (
        "Incorporeal touch +3 melee (1d6 Str)",
        [dict(name="incorporeal touch", damage=None, touch=True, riders=("1d6 Str",))],
    ),
    (
        "Electricity ray +9 ranged touch (2d6)",
        [dict(name="electricity ray", kind="ranged", touch=True, damage_types=("electricity",))],
    ),
    ("javelin +10 ranged (1d8+7)", [dict(name="javelin", kind="ranged", damage_types=("piercing",))]),
    ("Greataxe +12/+7 melee (1d12+6/x3)", [dict(name="greataxe", bonuses=(12, 7), multiplier=3, enhancement=0)]),
    (
        "2 short swords +5 melee (1d6+2/19-20, 1d6+1/19-20)",
        [dict(name="short swords", damage="1d6+2", threat=19), dict(name="short swords", damage="1d6+1", threat=19)],
    ),
    ("web +11 ranged", [dict(name="web", kind="ranged", damage=None, riders=("web",))]),
    (
        "Swarm (2d6 plus poison)",
        [dict(name="swarm", bonuses=(0,), damage=None, riders=("swarm (automatic hit, 2d6 plus poison)", "poison"))],
    ),
    ("Arms +5 melee (0)", [dict(name="arms", damage=None)]),
]


@pytest.mark.parametrize(("text", "expected"), ATTACKS, ids=[t for t, _ in ATTACKS])
def test_an_attack_reads_the_srds_entry(text, expected):
    ctx = reading("Full Attack", text)
    ctx.at("Full Attack")
    found = read_attack(ctx, text)
    assert len(found) == len(expected)
    for attack, wanted in zip(found, expected, strict=True):
        assert {k: getattr(attack, k) for k in wanted} == wanted


def test_the_conversions_marks_in_an_attack_cell_are_mended():
    ctx = reading("Attack", "Slam+2 melee, (1d6+1) or")
    [routine] = read_field(ctx, "Attack")
    assert [(a.name, a.bonuses, a.damage) for a in routine] == [("slam", (2,), "1d6+1")]


# --------------------------------------------------------------------------------------------- words
@pytest.mark.parametrize(
    ("plural", "single"),
    [
        ("claws", "claw"),
        ("hooves", "hoof"),
        ("tentacles", "tentacle"),
        ("2d10 dretches", "2d10 dretch"),
        ("hezrous", "hezrou"),
        ("bearded devils", "bearded devil"),
        ("lemures", "lemure"),
        ("flies", "fly"),
        ("octopus", "octopus"),
        ("gas", "gas"),
        ("arms", "arm"),
        ("Talons ", "talon"),
    ],
)
def test_one_singular_for_attacks_and_creatures(plural, single):
    assert singular(plural) == single


@pytest.mark.parametrize(
    ("entry", "name", "key"),
    [
        ("Darkvision 60 ft.", "darkvision", "darkvision"),
        ("low-light vision", "low-light vision", "low-light vision"),
        ("Frightful presence (DC 21)", "frightful presence", "frightful presence"),
        ("Rend 2d6+9", "rend", "rend"),  # arena.abilities.rend's name, read once the attacks are
        ("Constrict 2d8+6 plus 1d8 fire", "constrict", "constrict"),
        ("wild empathy", "wild empathy", "empathy"),
        ("Spell-like abilities", "spell-like abilities", "spell-like abilities"),
        ("Summon demon", "summon demon", "summon"),
        ("and scent", "scent", "scent"),
    ],
)
def test_an_entry_is_named_and_keyed_by_the_vocabulary(entry, name, key):
    assert entry_name(entry) == name
    assert (key_in(name, NO_EFFECT) or key_in(name, IGNORED)) == key


def test_a_cells_entries_keep_their_lists_together():
    cell = Cell(
        "Darkvision 60 ft., immunity to acid, cold, and poison, resistance to electricity 10, fire 10, scent", 1
    )
    assert split_items(cell) == [
        "Darkvision 60 ft",
        "immunity to acid, cold, and poison",
        "resistance to electricity 10, fire 10",
        "scent",
    ]


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("Troll", "troll"),
        ("Air Elemental, Large", "elemental-air-large"),
        ("Red Dragon, Young", "red-dragon-young"),
        ("Barbed Devil (Hamatula)", "barbed-devil"),
        ("Troll Hunter, 6th-Level Ranger", "troll-hunter-6th-level-ranger"),
    ],
)
def test_a_title_is_a_bestiary_name(title, name):
    assert kebab(title) == name


def test_titles_and_type_lines():
    assert title_case("BEAR, BLACK") == "Bear, Black" and title_case("WILL-O'-WISP") == "Will-O'-Wisp"
    assert title_case("SHIELD GUARDIAN") == "Shield Guardian" and title_case("Ettercap") == "Ettercap"
    assert is_type_line("Medium Outsider (Evil, Lawful)") and is_type_line("Huge Elemental (Air, Extraplanar)")
    assert not is_type_line("Hit Dice: 6d8+36 (63 hp)")
    assert drop_parens("Bite +5 melee (1d8+2) and claw (1d4)", "") == "Bite +5 melee  and claw "


def test_a_pasted_block_and_a_table_column_are_found():
    pasted = (
        "Ettercap\nMedium Aberration\nHit Dice: 5d8+5 (27 hp)\nArmor Class: 14 (+3 Dex, +1 natural), touch 13, "
        "flat-footed 11\nSaves: Fort +2, Ref +4, Will +6\n"
    )
    [block] = find_blocks(pasted, "e.txt")
    assert (block.title, block.type_line.text, block.layout) == ("Ettercap", "Medium Aberration", "lines")
    table = (
        "TROLL\n\n| | Troll |\n| | Large Giant |\n| Hit Dice: | 6d8+36 (63 hp) |\n| Armor Class: | 16 |\n"
        "| Saves: | Fort +11, Ref +4, Will +3 |\n"
    )
    [column] = find_blocks(table, "t.md")
    assert (column.title, column.get("Hit Dice").text, column.layout) == ("Troll", "6d8+36 (63 hp)", "table")


# --------------------------------------------------------------------------------------------- spells
def test_spell_like_abilities_by_their_uses():
    assert read_spell_like("At will--blink, hold person (DC 16); 3/day--fireball (DC 19). Caster level 6th.") == [
        ("blink", 6, None),
        ("hold person", 6, 16),
        ("fireball", 3, 19),
    ]
    assert read_spell_like("1/day--clairaudience/ clairvoyance, detect evil within a 60-foot radius") == [
        ("clairaudience/clairvoyance", 1, None),
        ("detect evil", 1, None),
    ]


def test_spell_like_abilities_in_sentences():
    assert read_spell_like_prose(
        "A unicorn can use cure light wounds three times per day and cure moderate wounds once per day."
    ) == [("cure light wounds", 3, None), ("cure moderate wounds", 1, None)]
    assert read_spell_like_prose(
        "Once per hour an ooze mephit can hurl an acidic blob that functions like acid arrow (caster level 3rd)."
    ) == [("acid arrow", 6, None)]


def test_a_list_of_spells_known():
    assert read_spell_list(
        "0--daze, detect magic (2), ray of frost; 1st--magic missile, sleep; 2nd--scorching ray"
    ) == [
        ("daze", 0, 1),
        ("detect magic", 0, 2),
        ("ray of frost", 0, 1),
        ("magic missile", 1, 1),
        ("sleep", 1, 1),
        ("scorching ray", 2, 1),
    ]


# --------------------------------------------------------------------------------------------- abilities
BLOCK = """Test Creature
Large Magical Beast
Hit Dice:\t6d10+18 (51 hp)
Initiative:\t+2
Speed:\t40 ft. (8 squares)
Armor Class:\t15 (-1 size, +2 Dex, +4 natural), touch 11, flat-footed 13
Base Attack/Grapple:\t+6/+15
Attack:\t{attack}
Full Attack:\t{full}
Space/Reach:\t10 ft./5 ft.
Special Attacks:\t{entry}
Special Qualities:\tDarkvision 60 ft., low-light vision
Saves:\tFort +8, Ref +7, Will +3
Abilities:\tStr 21, Dex 15, Con 17, Int 2, Wis 12, Cha 6
Feats:\tAlertness, Track
Challenge Rating:\t5

{paragraph}
"""
"""A pasted stat block whose Special Attacks are the case's entry and whose description is its SRD paragraph."""

ABILITIES = [
    (
        "Improved grab",
        "Improved Grab (Ex): To use this ability, a lion must hit with its bite attack. It can then attempt to start a grapple as a free action without provoking an attack of opportunity. If it wins the grapple check, it establishes a hold and can rake.",
        "Claw +10 melee (1d4+5)",
        "2 claws +10 melee (1d4+5) and bite +5 melee (1d8+2)",
        "improved_grab",
        {"attack": "bite"},
    ),
    (
        "Paralysis",
        "Paralysis (Ex): Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save or be paralyzed for 1d4+1 rounds. Elves have immunity to this paralysis. The save DC is Charisma-based.",
        "Bite +10 melee (1d6+5 plus paralysis)",
        "Bite +10 melee (1d6+5 plus paralysis) and 2 claws +8 melee (1d3+2 plus paralysis)",
        "paralysis",
        {"attack": "bite", "dc": 12, "duration": "1d4+1"},
    ),
    (
        "Energy drain",
        "Energy Drain (Su): Living creatures hit by a wight's slam attack gain one negative level. The DC is 14 for the Fortitude save to remove a negative level. The save DC is Charisma-based. For each such negative level bestowed, the wight gains 5 temporary hit points.",
        "Slam +10 melee (1d4+5 plus energy drain)",
        "Slam +10 melee (1d4+5 plus energy drain)",
        "energy_drain",
        {"attack": "slam", "levels": 1},
    ),
    (
        "Rend 2d6+9",
        "Rend (Ex): If a troll hits with both claw attacks, it latches onto the opponent's body and tears the flesh. This attack automatically deals an additional 2d6+9 points of damage.",
        "Claw +10 melee (1d6+5)",
        "2 claws +10 melee (1d6+5) and bite +5 melee (1d6+2)",
        "rend",
        {"damage": "2d6+9", "attack": "claw"},
    ),
    (
        "Despair",
        "Despair (Su): At the mere sight of a mummy, the viewer must succeed on a DC 16 Will save or be paralyzed with fear for 1d4 rounds. Whether or not the save is successful, that creature cannot be affected again by the same mummy's despair ability for 24 hours. The save DC is Charisma-based.",
        "Slam +10 melee (1d6+7)",
        "Slam +10 melee (1d6+7)",
        "aura",
        {"effect": "paralysis", "dc": 16, "save": "will", "rounds": "1d4"},
    ),
    (
        "Stench",
        "Stench (Ex): When a troglodyte is angry or frightened, it secretes an oily, musk-like chemical that nearly every form of animal life finds offensive. All living creatures (except troglodytes) within 30 feet of a troglodyte must succeed on a DC 13 Fortitude save or be sickened for 10 rounds. The save DC is Constitution-based.",
        "Claw +10 melee (1d4+5)",
        "2 claws +10 melee (1d4+5)",
        "stench",
        {"dc": 13, "rounds": "10"},
    ),
    (
        "Summon demon",
        "Summon Demon (Sp): Once per day a vrock can attempt to summon 2d10 dretches or another vrock with a 35% chance of success. This ability is the equivalent of a 3rd-level spell.",
        "Claw +10 melee (1d4+5)",
        "2 claws +10 melee (1d4+5)",
        "summon",
        {"creature": "dretch", "count": "2d10", "chance": 0.35, "uses": 1},
    ),
    (
        "Smoke",
        "Smoke (Su): During the excitement of battle, a nightmare snorts and neighs with rage. This snorting fills a 15-foot cone with a hot, sulfurous smoke that chokes and blinds opponents. Anyone in the cone must succeed on a DC 16 Fortitude save or take a -2 penalty on all attack and damage rolls until 1d6 minutes after leaving the cone.",
        "Hoof +10 melee (1d8+5)",
        "2 hooves +10 melee (1d8+5)",
        "smoke",
        {"length_ft": 15, "dc": 16, "save": "fort"},
    ),
    (
        "Captivating song",
        "Captivating Song (Su): The most insidious ability of the harpy is its song. When a harpy sings, all creatures (other than harpies) within a 300-foot spread must succeed on a DC 16 Will save or become captivated.",
        "Claw +10 melee (1d3+5)",
        "2 claws +10 melee (1d3+5)",
        "aura",
        {"effect": "captivate", "dc": 16},
    ),
    (
        "Acid spray",
        "Acid Spray (Ex): When attacked or disturbed, the creature can release a 10-foot cone of acidic vapor once per round. Those within the cone must succeed on a DC 13 Fortitude save or take 1d4+2 points of acid damage. The save DC is Constitution-based.",
        "Bite +10 melee (2d4+5)",
        "Bite +10 melee (2d4+5)",
        "breath_weapon",
        {
            "shape": "cone",
            "length_ft": 10,
            "damage": "1d4+2",
            "damage_type": "acid",
            "save": "fort",
            "dc": 13,
            "recharge": "1",
            "half_on_save": False,
        },
    ),
    (
        "Spit acid",
        "Spit Acid (Ex): 30-ft. line, once every 6 hours; damage 4d4 acid, Reflex DC 14 half. One such attack depletes the ankheg's acid supply for 6 hours.",
        "Bite +10 melee (2d6+7 plus 1d4 acid)",
        "Bite +10 melee (2d6+7 plus 1d4 acid)",
        "breath_weapon",
        {
            "shape": "line",
            "length_ft": 30,
            "damage": "4d4",
            "save": "ref",
            "dc": 14,
            "recharge": "100",
            "half_on_save": True,
        },
    ),
    (
        "Petrification",
        "Petrification (Su): Creatures hit by a cockatrice's bite attack must succeed on a DC 12 Fortitude save or instantly turn to stone. The save DC is Constitution-based.",
        "Bite +10 melee (1d4+5)",
        "Bite +10 melee (1d4+5)",
        "petrification",
        {"attack": "bite", "dc": 12},
    ),
    (
        "Slow",
        "Slow (Su): A hit from an ice devil's tail or spear induces numbing cold. The opponent must succeed on a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds. The save DC is Constitution-based.",
        "Spear +10 melee (1d8+5/x3)",
        "Spear +10 melee (1d8+5/x3) and tail +5 melee (3d6+2)",
        "slow_on_hit",
        {"attack": "spear", "dc": 23, "rounds": "1d6"},
    ),
    (
        "Web",
        "Web (Ex): An ettercap can throw a web eight times per day. This is similar to an attack with a net but has a maximum range of 50 feet, with a range increment of 10 feet, and is effective against targets of up to Medium size. The web anchors the target in place, allowing no movement. An entangled creature can escape with a successful DC 13 Escape Artist check or burst the web with a DC 17 Strength check.",
        "Bite +10 melee (1d8+5)",
        "Bite +10 melee (1d8+5)",
        "web",
        {"burst_dc": 17, "uses": 8, "escape_dc": 13},
    ),
    (
        "Powerful charge",
        "Powerful Charge (Ex): A minotaur typically begins a battle by charging at an opponent, lowering its head to bring its mighty horns into play. In addition to the normal benefits and hazards of a charge, this allows the beast to make a single gore attack with a +9 attack bonus that deals 4d6+6 points of damage.",
        "Gore +10 melee (1d8+5)",
        "Gore +10 melee (1d8+5)",
        "powerful_charge",
        {"name": "gore", "bonuses": [9], "damage": "4d6+6"},
    ),
    (
        "Rake 1d6+2",
        "Rake (Ex): Attack bonus +8 melee, damage 1d6+2.",
        "Claw +10 melee (1d4+5)",
        "2 claws +10 melee (1d4+5) and bite +5 melee (1d8+2)",
        "rake",
        {"bonuses": [8], "count": 2, "damage": "1d6+2"},
    ),
    (
        "Trample 2d8+15",
        "Trample (Ex): Reflex half DC 25. The save DC is Strength-based.",
        "Slam +10 melee (2d8+5)",
        "Slam +10 melee (2d8+5)",
        "trample",
        {"damage": "2d8+15", "dc": 25},
    ),
    (
        "Petrifying gaze",
        "Petrifying Gaze (Su): Turn to stone permanently, 30 feet, Fortitude DC 15 negates. The save DC is Charisma-based.",
        "Bite +10 melee (1d4+5)",
        "Bite +10 melee (1d4+5)",
        "gaze",
        {"effect": "petrify", "save": "fort", "dc": 15},
    ),
    (
        "Poison",
        "Poison (Ex): Injury, Fortitude DC 13, initial damage 1d6 Str, secondary damage 2d6 Str. The save DC is Constitution-based.",
        "Sting +10 melee (1d4+5 plus poison)",
        "Sting +10 melee (1d4+5 plus poison)",
        "poison",
        {
            "attack": "sting",
            "dc": 13,
            "initial": {"dice": "1d6", "ability": "str", "drain": False},
            "secondary": {"dice": "2d6", "ability": "str", "drain": False},
        },
    ),
    (
        "Poison",
        "Poison (Ex): Injury, Fortitude DC 13, initial damage sleep for 1 minute, secondary damage sleep for another 5d6 minutes. The save DC is Constitution-based and includes a +2 racial bonus.",
        "Bite +10 melee (1d3+5 plus poison)",
        "Bite +10 melee (1d3+5 plus poison)",
        "poison",
        {"attack": "bite", "dc": 13, "unconscious": "10", "secondary_unconscious": "175"},
    ),
    (
        "Breath weapon",
        "Breath Weapon (Su): 40-foot cone, once every 1d4 rounds, damage 6d10 fire, Reflex DC 21 half.",
        "Bite +10 melee (2d6+5)",
        "Bite +10 melee (2d6+5)",
        "breath_weapon",
        {
            "shape": "cone",
            "length_ft": 40,
            "damage": "6d10",
            "damage_type": "fire",
            "save": "ref",
            "dc": 21,
            "recharge": "1d4",
        },
    ),
    (
        "Breath weapon",
        "Breath Weapon (Su): 60-foot cone, once every 1d4 rounds (but no more than five times per day), turn to stone permanently, Fortitude DC 19 negates. The save DC is Constitution-based.",
        "Gore +10 melee (1d8+7)",
        "Gore +10 melee (1d8+7)",
        "breath_effect",
        {"shape": "cone", "length_ft": 60, "effect": "petrify", "save": "fort", "dc": 19, "recharge": "1d4"},
    ),
    (
        "Improved grab, constrict 2d8+6",
        "Improved Grab (Ex): To use this ability, a giant octopus must hit an opponent of any size with an arm attack. It can then attempt to start a grapple as a free action without provoking an attack of opportunity. If it wins the grapple check, it establishes a hold and can constrict.\nConstrict (Ex): A giant octopus deals 2d8+6 points of damage with a successful grapple check.",
        "Tentacle +10 melee (1d4+5)",
        "8 arms +10 melee (1d4+5) and bite +5 melee (1d8+2)",
        "improved_grab",
        {"attack": "arm", "constrict": "2d8+6", "any_size": True},
    ),
    (
        "Improved grab, swallow whole",
        "Improved Grab (Ex): To use this ability, a tyrannosaurus must hit an opponent of up to one size smaller with its bite attack. It can then attempt to start a grapple as a free action without provoking an attack of opportunity. If it wins the grapple check, it establishes a hold and can try to swallow the foe the following round.\nSwallow Whole (Ex): A tyrannosaurus can try to swallow a grabbed opponent of up to two sizes smaller by making a successful grapple check. The swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid damage per round from the tyrannosaurus's gizzard.",
        "Bite +10 melee (3d6+13)",
        "Bite +10 melee (3d6+13)",
        "swallow_whole",
        {"damage": "2d8+8", "damage_types": ["bludgeoning"]},
    ),
    (
        "Strength damage",
        "Strength Damage (Su): The touch of a shadow deals 1d6 points of Strength damage to a living foe. A creature reduced to Strength 0 by a shadow dies. This is a negative energy effect.",
        "Incorporeal touch +10 melee touch (1d6 Str)",
        "Incorporeal touch +10 melee touch (1d6 Str)",
        "ability_damage",
        {"attack": "incorporeal touch", "loss": {"dice": "1d6", "ability": "str", "drain": False}},
    ),
    (
        "Frightful presence",
        "Frightful Presence (Su): The tarrasque can inspire terror by charging or attacking. Affected creatures must succeed on a DC 36 Will save or become shaken, remaining in that condition as long as they remain with 60 feet of the tarrasque. The save DC is Charisma-based.",
        "Bite +10 melee (4d8+17)",
        "Bite +10 melee (4d8+17)",
        "frightful_presence",
        {"dc": 36, "duration": "100"},
    ),
    (
        "Pipes",
        "Pipes (Su): Satyrs can play a variety of magical tunes on their pan pipes. Usually, only one satyr in a group carries pipes. When it plays, all creatures within a 60-foot spread (except satyrs) must succeed on a DC 13 Will save or be affected by charm person, sleep, or fear (caster level 10th; the satyr chooses the tune and its effect).",
        "Head butt +10 melee (1d6+5)",
        "Head butt +10 melee (1d6+5)",
        "aura",
        {"effect": "panic", "dc": 13, "rounds": "10"},
    ),
    (
        "Bay",
        "Bay (Su): When a yeth hound howls or barks, all creatures except other evil outsiders within a 300-foot spread must succeed on a DC 11 Will save or become panicked for 2d4 rounds. This is a sonic mind-affecting fear effect. Whether or not the save is successful, an affected creature is immune to the same hound's bay for 24 hours. The save DC is Charisma-based.",
        "Bite +10 melee (1d8+5)",
        "Bite +10 melee (1d8+5)",
        "aura",
        {"effect": "panic", "dc": 11, "rounds": "2d4"},
    ),
    (
        "Horrific appearance",
        "Horrific Appearance (Su): The sight of a sea hag is so revolting that anyone (other than another hag) who sets eyes upon one must succeed on a DC 13 Fortitude save or instantly be weakened, taking 2d6 points of Strength damage.",
        "Claw +10 melee (1d4+5)",
        "2 claws +10 melee (1d4+5)",
        "aura",
        {"effect": "weakness", "dc": 13, "save": "fort"},
    ),
    (
        "Roar",
        "Roar (Su): A dragonne can loose a devastating roar every 1d4 rounds. All creatures except dragonnes within 120 feet must succeed on a DC 15 Will save or become fatigued. Those within 30 feet who fail their saves become exhausted. The save DC is Charisma-based.",
        "Bite +10 melee (2d6+5)",
        "Bite +10 melee (2d6+5)",
        "roar",
        {"dc": 15, "save": "will", "recharge": "1d4"},
    ),
    (
        "Rage",
        "Rage (Ex): A badger that takes damage in combat flies into a berserk rage on its next turn, clawing and biting madly until either it or its opponent is dead. It gains +4 to Strength, +4 to Constitution, and -2 to Armor Class. The creature cannot end its rage voluntarily.",
        "Claw +10 melee (1d2+5)",
        "2 claws +10 melee (1d2+5) and bite +5 melee (1d3+2)",
        "rage",
        True,
    ),
    (
        "Earth mastery",
        "Earth Mastery (Ex): An earth elemental gains a +1 bonus on attack and damage rolls if both it and its foe are touching the ground. If an opponent is airborne or waterborne, the elemental takes a -4 penalty on attack and damage rolls. (These modifiers are not included in the statistics block.)",
        "Slam +10 melee (2d8+7)",
        "2 slams +10 melee (2d8+7)",
        "full_attack",
        [[{"name": "slam", "bonuses": (11,), "damage": "2d8+8"}]],
    ),
    (
        "Quickness",
        "Quickness (Su): Although not particularly dexterous, a choker is supernaturally quick. It can take an extra standard action or move action during its turn each round.",
        "Tentacle +10 melee (1d3+5)",
        "2 tentacles +10 melee (1d3+5)",
        "quickness",
        True,
    ),
]


@pytest.mark.parametrize(
    ("entry", "paragraph", "attack", "full", "field", "expected"),
    ABILITIES,
    ids=[f"{case[4]}: {case[1][:40]}" for case in ABILITIES],
)
def test_an_ability_reads_its_srd_paragraph(entry, paragraph, attack, full, field, expected):
    report = import_text(BLOCK.format(entry=entry, paragraph=paragraph, attack=attack, full=full), "srd.txt")
    assert report.errors == []
    [built] = report.built
    value = getattr(built.creature, field)
    if isinstance(expected, dict):
        value = value.model_dump(mode="json")
        assert {k: value[k] for k in expected} == expected
    elif isinstance(expected, list):
        assert [
            [{k: getattr(a, k) for k in e} for a, e in zip(r, er, strict=True)]
            for r, er in zip(value, expected, strict=True)
        ] == expected
    else:
        assert value == expected
    assert all(a.engine == "modelled" for a in built.creature.special_abilities if a.kind == "attack"), [
        (a.key, a.engine, a.notes) for a in built.creature.special_abilities
    ]
