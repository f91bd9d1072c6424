"""Stat-block models: validation rules, derived values, called-shot body parts, and the YAML error messages."""

from fractions import Fraction

import pytest

from arena.errors import ArenaError
from arena.world.attacks import Attack
from arena.world.body_parts import PART_AC_DEFAULTS, BodyPart, improved_ac_bonus
from arena.world.creatures import Creature, DamageReduction
from arena.world.stat_types import ability_modifier, parse_cr
from arena.world.yamlio import YamlValidationError, parse_yaml, validate

BASE = {
    "name": "test-brute",
    "type": "humanoid",
    "cr": 1,
    "hp": 11,
    "hit_dice": "2d8+2",
    "ac": 15,
    "touch_ac": 10,
    "flat_footed_ac": 15,
    "bab": 1,
    "grapple": 3,
    "saves": {"fort": 4, "ref": 0, "will": 0},
    "attack": [[{"name": "battleaxe", "bonuses": [3], "damage": "1d8+2", "damage_types": ["slashing"]}]],
}


def make(**changes) -> Creature:
    return Creature.model_validate({**BASE, **changes})


def attack(**changes) -> Attack:
    return Attack.model_validate(
        {"name": "claw", "bonuses": 9, "damage": "1d6+6", "damage_types": "slashing", **changes}
    )


# --------------------------------------------------------------------------------------------- CR
@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (5, Fraction(5)),
        ("5", Fraction(5)),
        ("1/3", Fraction(1, 3)),
        (" 1 / 2 ", Fraction(1, 2)),
        (0.5, Fraction(1, 2)),
        ("1/10", Fraction(1, 10)),
        (Fraction(1, 8), Fraction(1, 8)),
    ],
)
def test_cr_accepted_forms(given, expected):
    assert parse_cr(given) == expected
    assert make(cr=given).cr == expected


@pytest.mark.parametrize("bad", ["2/3", 0, -1, "1/5", "abc", 0.3, True, "3/2"])
def test_cr_that_does_not_exist_is_an_error(bad):
    with pytest.raises(ValueError):
        parse_cr(bad)


def test_cr_serialises_as_text():
    assert make(cr="1/3").model_dump(mode="json")["cr"] == "1/3"


def test_monster_needs_cr_but_pc_does_not():
    data = {k: v for k, v in BASE.items() if k != "cr"}
    with pytest.raises(ValueError, match="needs a cr"):
        Creature.model_validate(data)
    pc = Creature.model_validate({**data, "side": "pc", "class_levels": {"fighter": 1}})
    assert pc.cr is None and pc.class_levels == {"fighter": 1}


# --------------------------------------------------------------------------------------------- basic rules
@pytest.mark.parametrize("hp", [0, -5])
def test_hit_points_must_be_positive(hp):
    with pytest.raises(ValueError, match="hp"):
        make(hp=hp)


def test_unknown_field_is_an_error():
    with pytest.raises(ValueError, match="armour_class"):
        make(armour_class=15)


def test_models_are_frozen():
    c = make()
    with pytest.raises(ValueError):
        c.hp = 3


def test_first_hit_die_defaults_to_first_term_of_hit_dice():
    assert make(hit_dice="5d10+25").first_hit_die == 10
    assert make(hit_dice="1d12").first_hit_die == 12
    assert make(hit_dice="1d8+2d10", first_hit_die=10).first_hit_die == 10


def test_full_attack_defaults_to_attack():
    c = make()
    assert c.full_attack == c.attack


def test_ac_modifiers_and_save_score():
    c = make(ac=16, saves={"fort": 11, "ref": 4, "will": 3})
    assert c.ac_modifiers == 6
    assert c.save_score("fort") == 22
    assert c.save_score("will") == 14


def test_abilities_nonability_modifier_is_zero():
    c = make(type="undead", abilities={"str": 13, "dex": 13, "con": None, "int": None, "wis": 10, "cha": 1})
    assert c.abilities.con is None
    assert c.abilities.modifier("con") == 0
    assert c.abilities.modifier("str") == 1
    assert c.abilities.modifier("cha") == -5


@pytest.mark.parametrize(
    ("score", "modifier"),
    [(1, -5), (2, -4), (3, -4), (8, -1), (9, -1), (10, 0), (11, 0), (12, 1), (15, 2), (18, 4), (45, 17), (99, 44)],
)
def test_ability_modifier_follows_the_srd_table(score, modifier):
    # SRD Table: Ability Modifiers and Bonus Spells: 1 is -5, 2-3 -4, ..., 10-11 +0, 12-13 +1, ... (floor, not toward 0)
    assert ability_modifier(score) == modifier


def test_ability_modifier_of_a_nonability_is_zero():
    assert ability_modifier(None) == 0


# --------------------------------------------------------------------------------------------- attacks
def test_attack_accepts_plain_int_bonus_and_single_damage_type():
    a = attack()
    assert a.bonuses == (9,) and a.damage_types == ("slashing",)
    assert a.threat == 20 and a.multiplier == 2 and a.kind == "melee" and not a.touch


@pytest.mark.parametrize(("given", "threat"), [("19-20", 19), ("18-20", 18), (19, 19), ("20", 20)])
def test_threat_forms(given, threat):
    assert attack(threat=given).threat == threat


@pytest.mark.parametrize("bad", ["21-20", "0-20", "19-21", "1-20", 21, 1, "x"])
def test_impossible_threat_range(bad):
    with pytest.raises(ValueError):
        attack(threat=bad)


@pytest.mark.parametrize(("given", "mult"), [(3, 3), ("x3", 3), ("×4", 4)])
def test_multiplier_forms(given, mult):
    assert attack(multiplier=given).multiplier == mult


@pytest.mark.parametrize("bad", [1, 6, "x"])
def test_bad_multiplier(bad):
    with pytest.raises(ValueError):
        attack(multiplier=bad)


def test_unknown_damage_type():
    with pytest.raises(ValueError, match="damage_types"):
        attack(damage_types=["slashing", "psychic"])


@pytest.mark.parametrize("bad", ["1d6+", "d", "2x6", ""])
def test_unparseable_damage(bad):
    with pytest.raises(ValueError, match="unparseable dice expression"):
        attack(damage=bad)


def test_extra_damage_needs_a_type():
    with pytest.raises(ValueError, match="extra_damage_type"):
        attack(extra_damage="1d6")
    a = attack(extra_damage="1d6", extra_damage_type="fire", sneak_attack="2d6", trip=True, trip_modifier=1)
    assert a.extra_damage == "1d6" and a.sneak_attack == "2d6" and a.trip_modifier == 1


def test_rend_needs_two_of_the_attack():
    routine = [[{"name": "claw", "bonuses": 9, "damage": "1d6+6", "damage_types": "slashing"}]]
    with pytest.raises(ValueError, match="rend needs"):
        make(full_attack=routine, rend={"damage": "2d6+9"})
    routine[0][0]["count"] = 2
    assert make(full_attack=routine, rend={"damage": "2d6+9"}).rend.damage == "2d6+9"


# --------------------------------------------------------------------------------------------- special qualities
@pytest.mark.parametrize(
    ("text", "amount", "overcome"),
    [
        ("5/silver", 5, ("silver",)),
        ("10/magic", 10, ("magic",)),
        ("5/bludgeoning", 5, ("bludgeoning",)),
        ("5/-", 5, ()),
        ("10/cold iron", 10, ("cold iron",)),
    ],
)
def test_damage_reduction_text(text, amount, overcome):
    dr = make(damage_reduction=text).damage_reduction
    assert (dr.amount, dr.overcome_by) == (amount, overcome)


def test_damage_reduction_mapping_and_errors():
    assert make(damage_reduction={"amount": 5, "overcome_by": ["silver"]}).damage_reduction == DamageReduction(
        amount=5, overcome_by=("silver",)
    )
    for bad in ("5/wood", "five/silver", "5", 0):
        with pytest.raises(ValueError):
            make(damage_reduction=bad)


def test_regeneration_breath_and_energy():
    c = make(
        regeneration={"amount": 5, "overcome_by": ["fire", "acid"]},
        breath_weapon={
            "shape": "cone",
            "length_ft": 40,
            "damage": "6d10",
            "damage_type": "fire",
            "save": "ref",
            "dc": 19,
        },
        energy_resistance={"cold": 10},
        spell_resistance=21,
        fast_healing=2,
    )
    assert c.regeneration.overcome_by == ("fire", "acid")
    assert c.breath_weapon.recharge == "1d4" and c.breath_weapon.half_on_save
    assert c.energy_resistance == {"cold": 10}
    with pytest.raises(ValueError):
        make(energy_resistance={"psychic": 5})
    with pytest.raises(ValueError):
        make(breath_weapon={"shape": "sphere", "length_ft": 40, "damage": "6d10", "damage_type": "fire", "dc": 1})


def test_type_immunities():
    skeleton = make(type="undead", immunities=["cold"])
    assert {
        "critical hits",
        "sneak attack",
        "mind-affecting",
        "sleep",
        "paralysis",
        "poison",
        "stunning",
        "cold",
    } <= skeleton.all_immunities
    assert skeleton.is_immune("critical hits")
    golem = make(type="construct")
    assert {"critical hits", "sneak attack", "mind-affecting"} <= golem.all_immunities
    assert not make().all_immunities
    with pytest.raises(ValueError):
        make(immunities=["critcal hits"])


def test_fire_subtype_gives_fire_immunity_and_cold_vulnerability():
    dragon = make(type="dragon", subtypes=["fire"])
    assert {"fire", "sleep", "paralysis"} <= dragon.all_immunities
    assert dragon.all_vulnerabilities == {"cold"}


def test_spellcasting():
    c = make(
        spellcasting={
            "caster_level": 5,
            "ability": "wis",
            "prepared": {1: ["bless", "bless"]},
            "domains": ["luck", "war"],
        }
    )
    assert c.spellcasting.prepared[1] == ("bless", "bless")
    with pytest.raises(ValueError, match="unknown spell 'guidance'.*list only the spells the engine casts"):
        make(spellcasting={"caster_level": 5, "ability": "wis", "prepared": {0: ["guidance"]}})
    with pytest.raises(ValueError):
        make(spellcasting={"caster_level": 5, "ability": "wis", "prepared": {10: ["wish"]}})


# --------------------------------------------------------------------------------------------- called shots
@pytest.mark.parametrize(
    ("fraction", "bonus"),
    [
        ("1/64", 16),
        ("1/33", 16),
        ("1/32", 8),
        ("1/20", 8),
        ("1/16", 4),
        ("1/10", 4),
        ("1/8", 2),
        ("1/5", 2),
        ("1/4", 1),
        ("1/3", 1),
        ("1/2", 0),
        (0.2, 2),
    ],
)
def test_improved_ac_from_size_fraction(fraction, bonus):
    assert improved_ac_bonus(fraction) == bonus


@pytest.mark.parametrize("bad", ["3/4", "2/3", "0", "-1/8", "abc"])
def test_part_too_large_or_nonsense_cannot_be_called(bad):
    with pytest.raises(ArenaError):
        improved_ac_bonus(bad)


def test_body_part_defaults_follow_the_table():
    assert PART_AC_DEFAULTS == {
        "hand": 4,
        "arm": 2,
        "head": 4,
        "eye": 8,
        "ear": 8,
        "crotch": 6,
        "foot": 2,
        "leg": 2,
        "wing": 2,
        "tail": 2,
    }
    human = make()
    assert human.body_part("eye").ac_bonus == 8 and human.body_part("eye").count == 2
    assert human.improved_ac("crotch") == 15 + 6
    assert human.body_part("tail") is None
    with pytest.raises(ArenaError, match="no tail"):
        human.improved_ac("tail")
    assert make(type="dragon").body_part("wing").count == 2
    assert make(type="ooze").called_shot_parts == ()


def test_explicit_body_parts_and_size_fraction():
    c = make(body_parts=[{"part": "head", "size_fraction": "1/10"}, {"part": "tail", "count": 1, "ac_bonus": 3}])
    assert c.body_part("head").ac_bonus == 4
    assert c.body_part("tail").ac_bonus == 3
    assert c.body_part("hand") is None
    with pytest.raises(ValueError, match="cannot be called"):
        BodyPart(part="wing", size_fraction="3/4")
    with pytest.raises(ValueError, match="contradicts"):
        BodyPart(part="head", size_fraction="1/10", ac_bonus=8)


# --------------------------------------------------------------------------------------------- YAML errors
TROLL_YAML = """\
name: troll
type: giant
size: large
cr: 5
hp: 63
hit_dice: 6d8+36
ac: 16
touch_ac: 11
flat_footed_ac: 14
bab: 4
grapple: 14
saves: {fort: 11, ref: 4, will: 3}
attack:
  - - name: claw
      bonuses: [9]
      damage: 1d6+6
      damage_types: [slashing]
"""


def problems(text: str) -> list[str]:
    with pytest.raises(YamlValidationError) as info:
        validate(parse_yaml(text, "bestiary/troll.yaml"), Creature)
    return info.value.problems


def test_yaml_ok():
    assert validate(parse_yaml(TROLL_YAML, "t.yaml"), Creature).attack[0][0].damage == "1d6+6"


def test_yaml_error_names_file_line_and_field():
    [msg] = problems(TROLL_YAML.replace("1d6+6", "1d6+"))
    assert msg.startswith("bestiary/troll.yaml:16: attack.0.0.damage: unparseable dice expression '1d6+'")


def test_yaml_missing_field_points_at_parent():
    [msg] = problems(TROLL_YAML.replace("hp: 63\n", ""))
    assert msg == "bestiary/troll.yaml:1: hp: missing required field"
    [msg] = problems(TROLL_YAML.replace("      damage: 1d6+6\n", ""))
    assert msg == "bestiary/troll.yaml:14: attack.0.0.damage: missing required field"


def test_yaml_several_problems_all_reported():
    found = problems(
        TROLL_YAML.replace("hp: 63", "hp: -1")
        .replace("[slashing]", "[slashing, fyre]")
        .replace("armr", "")
        .replace("bab: 4", "bab: 4\nthreat: 19-20")
    )
    assert any(p.startswith("bestiary/troll.yaml:5: hp: Input should be greater than or equal to 1") for p in found)
    assert any(p.startswith("bestiary/troll.yaml:18: attack.0.0.damage_types.1:") and "'fyre'" in p for p in found)
    assert any(p.startswith("bestiary/troll.yaml:11: threat: unknown field") for p in found)
    assert len(found) == 3


def test_yaml_duplicate_key_and_malformed():
    with pytest.raises(ArenaError, match=r"t.yaml:6: duplicate key 'hp' \(first given on line 5\)"):
        parse_yaml(TROLL_YAML.replace("hit_dice", "hp"), "t.yaml")
    with pytest.raises(ArenaError, match=r"^t.yaml:3: malformed YAML"):
        parse_yaml("name: x\nattack: [1, 2\nhp: 3\n", "t.yaml")
    with pytest.raises(ArenaError, match=r"t.yaml:3: YAML merge keys"):
        parse_yaml("a: &x {b: 1}\nc:\n  <<: *x\n", "t.yaml")


def test_yaml_never_constructs_python_objects():
    with pytest.raises(ArenaError, match="t.yaml:1: unsupported YAML tag"):
        parse_yaml("x: !!python/object/apply:os.system ['echo hi']\n", "t.yaml")
    with pytest.raises(ArenaError, match="t.yaml:2: malformed YAML"):
        parse_yaml("a: 1\nx: !!python/name:os.system\n", "t.yaml")


def test_yaml_top_level_must_be_mapping():
    for text, what in (("", "nothing"), ("- 1\n", "list"), ("3\n", "int")):
        with pytest.raises(YamlValidationError, match=what):
            validate(parse_yaml(text, "t.yaml"), Creature)


def test_empty_routine_is_one_error():
    with pytest.raises(ValueError, match="at least one attack") as info:
        make(attack=[[]])
    assert info.value.error_count() == 1
