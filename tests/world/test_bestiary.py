"""The built-in bestiary against the SRD 3.5 stat blocks, and loading user files."""

import math
from fractions import Fraction

import pytest
from stat_blocks import CAVE_BEAR as GOOD

from arena.combat.tactics import POLICIES
from arena.dice import parse
from arena.errors import ArenaError
from arena.world.bestiary import check_files, creature_names, get_creature, load_bestiary, normalise

NAMES = [
    "goblin",
    "kobold",
    "orc",
    "hobgoblin",
    "gnoll",
    "bugbear",
    "ogre",
    "troll",
    "wolf",
    "dire-wolf",
    "human-warrior-skeleton",
    "human-commoner-zombie",
    "dire-rat",
    "dwarf-warrior",
    "owlbear",
    "minotaur",
    "hill-giant",
    "young-red-dragon",
    "adult-red-dragon",
]


def one(creature, routine="full_attack", index=0, which=0):
    return getattr(creature, routine)[index][which]


def test_all_nineteen_monsters_present():
    assert sorted(NAMES) == creature_names()
    assert len(load_bestiary()) == 19


@pytest.mark.parametrize("name", NAMES)
def test_hp_is_the_rounded_down_average_of_the_hit_dice(name):
    c = get_creature(name)
    assert math.floor(parse(c.hit_dice).mean) == c.hp
    assert c.side == "monster" and c.cr is not None


def test_troll():
    t = get_creature("troll")
    assert (t.ac, t.touch_ac, t.flat_footed_ac, t.hp, t.cr) == (16, 11, 14, 63, 5)
    assert (t.size, t.type) == ("large", "giant")
    claw, bite = t.full_attack[0]
    assert (claw.name, claw.count, claw.bonuses, claw.damage) == ("claw", 2, (9,), "1d6+6")
    assert (bite.name, bite.count, bite.bonuses, bite.damage) == ("bite", 1, (4,), "1d6+3")
    assert one(t, "attack").damage == "1d6+6" and one(t, "attack").count == 1
    assert t.rend.damage == "2d6+9" and t.rend.attack == "claw"
    assert t.regeneration.amount == 5 and set(t.regeneration.overcome_by) == {"fire", "acid"}
    assert (t.saves.fort, t.saves.ref, t.saves.will) == (11, 4, 3)
    assert t.ac_modifiers == 6


def test_ogre_greatclub():
    o = get_creature("ogre")
    club = one(o)
    assert (club.name, club.bonuses, club.damage, club.kind) == ("greatclub", (8,), "2d8+7", "melee")
    assert club.bonuses[0] + 11 == 19  # the players-roll-all text's "attack score 19"
    assert (o.ac, o.hp, o.cr) == (16, 29, 3)
    javelin = one(o, index=1)
    assert (javelin.kind, javelin.bonuses, javelin.damage) == ("ranged", (1,), "1d8+5")


def test_goblin_is_cr_one_third():
    g = get_creature("goblin")
    assert g.cr == Fraction(1, 3)
    assert (g.size, g.ac, g.hp) == ("small", 15, 5)
    assert one(g).name == "morningstar" and one(g).damage == "1d6"


@pytest.mark.parametrize(
    ("name", "cr", "ac", "touch", "flat", "bab", "grapple"),
    [
        ("kobold", "1/4", 15, 12, 14, 1, -4),
        ("orc", "1/2", 13, 10, 13, 1, 4),
        ("hobgoblin", "1/2", 15, 11, 14, 1, 2),
        ("gnoll", "1", 15, 10, 15, 1, 3),
        ("bugbear", "2", 17, 11, 16, 2, 4),
        ("wolf", "1", 14, 12, 12, 1, 2),
        ("dire-wolf", "3", 14, 11, 12, 4, 15),
        ("human-warrior-skeleton", "1/3", 15, 11, 14, 0, 1),
        ("human-commoner-zombie", "1/2", 11, 9, 11, 1, 2),
        ("dire-rat", "1/3", 15, 14, 12, 0, -4),
        ("dwarf-warrior", "1/2", 16, 10, 16, 1, 2),
        ("owlbear", "4", 15, 10, 14, 5, 14),
        ("minotaur", "4", 14, 9, 14, 6, 14),
        ("hill-giant", "7", 20, 8, 20, 9, 20),
        ("young-red-dragon", "7", 21, 9, 21, 13, 24),
        ("adult-red-dragon", "15", 29, 8, 29, 22, 41),
    ],
)
def test_srd_defence_numbers(name, cr, ac, touch, flat, bab, grapple):
    c = get_creature(name)
    assert (c.cr, c.ac, c.touch_ac, c.flat_footed_ac, c.bab, c.grapple) == (Fraction(cr), ac, touch, flat, bab, grapple)


@pytest.mark.parametrize(
    ("name", "routine", "index", "which", "expected"),
    [
        # (name, count, bonuses, damage, threat, multiplier, kind)
        ("kobold", "attack", 0, 0, ("spear", 1, (1,), "1d6-1", 20, 3, "melee")),
        ("orc", "attack", 0, 0, ("falchion", 1, (4,), "2d4+4", 18, 2, "melee")),
        ("hobgoblin", "attack", 0, 0, ("longsword", 1, (2,), "1d8+1", 19, 2, "melee")),
        ("gnoll", "attack", 1, 0, ("shortbow", 1, (1,), "1d6", 20, 3, "ranged")),
        ("bugbear", "attack", 0, 0, ("morningstar", 1, (5,), "1d8+2", 20, 2, "melee")),
        ("wolf", "attack", 0, 0, ("bite", 1, (3,), "1d6+1", 20, 2, "melee")),
        ("dire-wolf", "attack", 0, 0, ("bite", 1, (11,), "1d8+10", 20, 2, "melee")),
        ("human-warrior-skeleton", "full_attack", 1, 0, ("claw", 2, (1,), "1d4+1", 20, 2, "melee")),
        ("human-warrior-skeleton", "attack", 0, 0, ("scimitar", 1, (1,), "1d6+1", 18, 2, "melee")),
        ("human-commoner-zombie", "attack", 0, 0, ("slam", 1, (2,), "1d6+1", 20, 2, "melee")),
        ("dire-rat", "attack", 0, 0, ("bite", 1, (4,), "1d4", 20, 2, "melee")),
        ("dwarf-warrior", "attack", 0, 0, ("dwarven waraxe", 1, (3,), "1d10+1", 20, 3, "melee")),
        ("owlbear", "full_attack", 0, 1, ("bite", 1, (4,), "1d8+2", 20, 2, "melee")),
        ("minotaur", "full_attack", 0, 0, ("greataxe", 1, (9, 4), "3d6+6", 20, 3, "melee")),
        ("minotaur", "full_attack", 0, 1, ("gore", 1, (4,), "1d8+2", 20, 2, "melee")),
        ("hill-giant", "full_attack", 0, 0, ("greatclub", 1, (16, 11), "2d8+10", 20, 2, "melee")),
        ("hill-giant", "full_attack", 2, 0, ("rock", 1, (8,), "2d6+7", 20, 2, "ranged")),
        ("young-red-dragon", "full_attack", 0, 3, ("tail slap", 1, (14,), "1d8+10", 20, 2, "melee")),
        ("adult-red-dragon", "full_attack", 0, 0, ("bite", 1, (31,), "2d8+11", 20, 2, "melee")),
        ("adult-red-dragon", "full_attack", 0, 1, ("claw", 2, (26,), "2d6+5", 20, 2, "melee")),
    ],
)
def test_srd_attacks(name, routine, index, which, expected):
    a = one(get_creature(name), routine, index, which)
    assert (a.name, a.count, a.bonuses, a.damage, a.threat, a.multiplier, a.kind) == expected


def test_wolves_trip():
    assert one(get_creature("wolf")).trip and one(get_creature("wolf")).trip_modifier == 1
    assert one(get_creature("dire-wolf")).trip_modifier == 11


def test_undead_traits_and_damage_reduction():
    sk = get_creature("human-warrior-skeleton")
    assert str(sk.damage_reduction) == "5/bludgeoning"
    assert {"cold", "critical hits", "sneak attack", "mind-affecting"} <= sk.all_immunities
    assert sk.abilities.con is None and sk.abilities.int is None and sk.first_hit_die == 12
    zombie = get_creature("human-commoner-zombie")
    assert zombie.damage_reduction.overcome_by == ("slashing",) and zombie.hp == 16


def test_dragons():
    young, adult = get_creature("young-red-dragon"), get_creature("adult-red-dragon")
    assert young.breath_weapon.model_dump() == {
        "shape": "cone",
        "length_ft": 40,
        "damage": "6d10",
        "damage_type": "fire",
        "save": "ref",
        "dc": 19,
        "recharge": "1d4",
        "half_on_save": True,
    }
    assert (adult.breath_weapon.damage, adult.breath_weapon.dc, adult.breath_weapon.length_ft) == ("12d10", 26, 50)
    assert young.spell_resistance == 0 and adult.spell_resistance == 21
    assert str(adult.damage_reduction) == "5/magic" and young.damage_reduction is None
    for d in (young, adult):
        assert {"fire", "sleep", "paralysis"} <= d.all_immunities and d.all_vulnerabilities == {"cold"}
    assert (young.hp, adult.hp, young.size, adult.size) == (123, 253, "large", "huge")


def test_misc_srd_numbers():
    assert get_creature("dwarf-warrior").speed == 20
    assert get_creature("hill-giant").saves.fort == 12
    assert get_creature("owlbear").hit_dice == "5d10+25"
    assert get_creature("minotaur").immunities == ("maze",)
    assert get_creature("dire-rat").abilities.dex == 17


# --------------------------------------------------------------------------------------------- lookups
def test_lookup_is_forgiving_about_case_and_spaces():
    assert normalise(" Dire Wolf ") == "dire-wolf" and normalise("dire_wolf") == "dire-wolf"
    assert get_creature("Dire Wolf").name == "dire-wolf"
    assert get_creature("TROLL").name == "troll"


def test_unknown_name_suggests_nearest():
    with pytest.raises(ArenaError, match=r"unknown creature 'trol'; did you mean troll"):
        get_creature("trol")
    with pytest.raises(ArenaError, match="hill-giant"):
        get_creature("hill-gaint")
    with pytest.raises(ArenaError, match="arena bestiary list"):
        get_creature("qqqqqqqqqq")


def test_typical_names_resolve():
    assert get_creature("typical-pf-cr5").hp == 55  # the Pathfinder table
    assert get_creature("typical-cr5").hp == 60  # the SRD 3.5 medians (arena/data/srd35_monster_medians_by_cr.yaml)
    assert get_creature("typical-cr1/2").cr == Fraction(1, 2)


# --------------------------------------------------------------------------------------------- user files


def test_user_file_and_folder(tmp_path):
    (tmp_path / "bear.yaml").write_text(GOOD)
    sub = tmp_path / "more"
    sub.mkdir()
    (sub / "two.yaml").write_text(
        f"- {GOOD.replace('cave-bear', 'bear-a').replace(chr(10), chr(10) + '  ')}\n"
        f"- {GOOD.replace('cave-bear', 'bear-b').replace(chr(10), chr(10) + '  ')}\n"
    )
    book = load_bestiary([tmp_path])
    assert {"cave-bear", "bear-a", "bear-b", "troll"} <= set(book)
    assert get_creature("bear-b", book).hp == 51
    assert load_bestiary([tmp_path / "bear.yaml"])["cave-bear"].cr == 4
    assert "cave-bear" not in load_bestiary()  # the built-in cache is not polluted


def test_duplicate_name_names_both_files(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    with pytest.raises(
        ArenaError, match=r"b.yaml:1: duplicate creature name 'cave-bear' \(also defined at .*a.yaml:1\)"
    ):
        load_bestiary([tmp_path])


def test_a_file_replaces_a_built_in_of_its_name_with_a_warning(tmp_path, capsys):
    """`arena bestiary import` of the SRD troll writes troll.yaml: the user's file wins for that name, and says so;
    two of the user's files with one name are still an error."""
    (tmp_path / "b.yaml").write_text(GOOD.replace("cave-bear", "Troll"))
    book = load_bestiary([tmp_path / "b.yaml"])
    assert book["troll"].hp == 51 and load_bestiary()["troll"].hp != 51  # the built-ins stay as they were
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and "b.yaml:1: 'Troll' replaces the built-in creature of that name" in err
    assert "bestiary/troll.yaml:" in err
    (tmp_path / "c.yaml").write_text(GOOD.replace("cave-bear", "troll"))
    with pytest.raises(ArenaError, match=r"c.yaml:1: duplicate creature name 'troll' \(also defined at .*b.yaml:1\)"):
        load_bestiary([tmp_path / "b.yaml", tmp_path / "c.yaml"])


def test_missing_path_and_reserved_name(tmp_path):
    with pytest.raises(ArenaError, match="no such file or folder"):
        load_bestiary([tmp_path / "nope.yaml"])
    (tmp_path / "t.yaml").write_text(GOOD.replace("cave-bear", "typical-cr3"))
    with pytest.raises(ArenaError, match="reserved"):
        load_bestiary([tmp_path])


def test_check_files_reports_every_problem(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD.replace("hp: 51", "hp: 0"))
    (tmp_path / "b.yaml").write_text(GOOD.replace("name: cave-bear", "name: b\n  bad: indent"))
    (tmp_path / "c.yaml").write_text(GOOD.replace("cave-bear", "c"))
    count, problems = check_files([tmp_path])
    assert count == 1
    assert len(problems) == 2
    assert problems[0].endswith("a.yaml:5: hp: Input should be greater than or equal to 1, got 0")
    assert "b.yaml:2: malformed YAML" in problems[1]
    assert check_files() == (19, [])


def test_unknown_policy_and_unsupported_spell_are_errors_with_their_line(tmp_path):
    """A stat block naming a policy nobody registered, or a spell the engine does not cast, is rejected where it
    is written (a misspelt spell would otherwise never be cast)."""
    caster = GOOD + "spellcasting:\n  caster_level: 3\n  ability: wis\n  prepared:\n    1: [bless, magic missle]\n"
    (tmp_path / "a.yaml").write_text(caster + "tactics: caster\n")
    (tmp_path / "b.yaml").write_text(GOOD.replace("cave-bear", "b") + "tactics: smart\n")
    count, problems = check_files([tmp_path], known_policies=POLICIES)  # as `arena bestiary validate` checks
    assert count == 0 and len(problems) == 2
    assert (
        "a.yaml:" in problems[0]
        and "spellcasting.prepared.1.1: unknown spell 'magic missle'; did you mean magic missile?" in problems[0]
    )
    assert "tactics: unknown policy 'smart'" in problems[1]
    (tmp_path / "a.yaml").write_text(caster.replace("magic missle", "magic missile") + "tactics: caster\n")
    (tmp_path / "b.yaml").unlink()
    assert check_files([tmp_path], known_policies=POLICIES) == (1, [])
    (tmp_path / "a.yaml").write_text(caster.replace("magic missle", "magic missile") + "tactics: smart\n")
    assert check_files([tmp_path]) == (1, [])  # without the registry, a policy of your own may come later
