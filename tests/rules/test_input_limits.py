"""Hostile numbers, names and files for the dice kernel, `arena odds`, stat blocks and `arena bestiary`.

Every case here once crashed, hung or ate the machine, or was silently accepted. Commands that used to run out of
memory are run in a child process with an address-space limit, so a regression fails the test instead of the
machine. What must be fast is held to a budget of CPU time in a child process (``tests/cpu_limits.py``), never to
wall-clock time, which a busy machine stretches many times over.
"""

import json
import os
import resource
import subprocess
import sys
from fractions import Fraction

import cpu_limits
import pytest
import yaml

from arena.dice import MAX_CONSTANT, MAX_TEXT_LENGTH, Stream, parse
from arena.errors import ArenaError, DiceSyntaxError, RulesError
from arena.limits import MAX_DICE, MAX_DICE_TERMS, MAX_FILES_PER_FOLDER, MAX_MODIFIER, MAX_NAME_LENGTH, MAX_SIDES
from arena.rules import Check, RuleSet, exact, resolve
from arena.rules.check_limits import MAX_CHECK_VALUE
from arena.rules.kernel import kernel_for
from arena.rules.plan import _SummedPlan
from arena.rules.variable_modifiers import variable_dice, variable_text
from arena.world.bestiary import check_files, expand_paths, get_creature
from arena.world.challenge import MAX_COUNT, group_el, group_size_offset
from arena.world.challenge import parse_cr as challenge_cr
from arena.world.creatures import Creature, parse_cr
from arena.world.typical import parse_typical_name
from arena.world.yamlio import YamlValidationError, parse_yaml, validate
from tests.stat_blocks import CAVE_BEAR

MEMORY_LIMIT = 2 * 1024**3
COMMAND_CPU = 20
"""Seconds of CPU time an `arena` command here may use (they use 1-2 s)."""


def arena(*args: str, cwd=None, cpu: float = COMMAND_CPU) -> subprocess.CompletedProcess:
    """Run `arena` in a child process limited to 2 GB of address space and ``cpu`` seconds of CPU time."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return cpu_limits.run(
        [sys.executable, "-m", "arena", *args],
        cpu=cpu,
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=limit,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    """The one ``error:`` line of a command that must exit 2 (no traceback, no raw control characters)."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr[-2000:]
    assert "\x1b" not in proc.stderr and "Traceback" not in proc.stderr
    return lines[0]


# ================================================================================= 1. large variable modifiers
def test_plus_200_under_variable_modifiers_is_exact_and_cheap():
    """+200 is twenty d20s: the kernel used to list all 20**20 combinations (24 GB) before refusing them."""
    proc = arena("odds", "attack", "--bonus", "200", "--ac", "18", "--modifiers", "variable", "--json", cpu=20)
    assert proc.returncode == 0, proc.stderr[-2000:]
    outcomes = json.loads(proc.stdout)["outcomes"]
    assert outcomes["hit"]["exact"] == "19/20"  # everything but the natural 1 hits
    assert outcomes["threat"]["exact"] == "1/20"


@pytest.mark.parametrize("key", ["d20+var", "3d6+prad+var+open", "d20+luck+open"])
def test_the_largest_modifiers_compute_fast_under_every_variant(key):
    rules = RuleSet.from_key(key)

    def compute() -> None:
        for modifier, target in ((MAX_MODIFIER, -MAX_MODIFIER), (-MAX_MODIFIER, MAX_MODIFIER), (MAX_CHECK_VALUE, 18)):
            side = "monster" if "prad" in key else "pc"
            probabilities = exact(
                Check("attack", side, modifier, target, threat=15, press_luck="luck" in key), rules
            ).probabilities
            assert 0 <= probabilities["success"] <= 1

    cpu_limits.call(compute, cpu=5)  # open-ended chains times 761 totals were seconds each in Fractions


def test_dice_beyond_a_table_are_sampled_from_their_exact_distribution():
    rules = RuleSet.from_key("d20+var")
    check = Check("skill", "pc", MAX_MODIFIER, 221)  # d20 + 20d20 has mean 220.5
    plan = kernel_for(rules).plan(check)
    assert isinstance(plan, _SummedPlan)
    p = float(exact(check, rules)["success"])
    stream = Stream(5)
    n = 20_000
    hits = sum(resolve(check, rules, stream).success for _ in range(n))
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_variable_dice_of_any_accepted_modifier_parse_within_the_dice_limits():
    assert variable_text(13) == "1d20+1d6" and variable_text(-15) == "-(1d20+1d10)"  # the document's table
    assert variable_text(MAX_MODIFIER) == "20d20"
    assert variable_text(10**9) == "100000000d20"  # no string of 100 million "1d20"s
    assert str(variable_dice(-MAX_CHECK_VALUE)) == "-40d20"
    assert variable_dice(23).dice == ((1, 2, 20, 0), (1, 1, 6, 0))


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"modifier": 10**9}, "modifier 1000000000 is beyond the limit of -400..400"),
        ({"target": -(10**30)}, "target -100000...(31 digits) is beyond the limit"),
        ({"hidden": 401}, "hidden 401 is beyond the limit"),
        ({"modifier": True}, "must be a whole number, not True"),
        ({"target": 1.5}, "must be a whole number, not 1.5"),
        ({"multiplier": 1000}, "x1000 cannot exist (x2 to x5)"),
        ({"threat": 1}, "threat range 1-20 cannot exist"),
    ],
)
def test_the_kernel_refuses_numbers_beyond_its_limits(fields, needle):
    check = Check("attack", "pc", 5, 18)._replace(**fields)
    with pytest.raises(RulesError, match=needle.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        exact(check, RuleSet.from_key("d20+var"))


# ================================================================================= 2. stat-block numbers in fights
def statblock(**changes) -> str:
    data = yaml.safe_load(CAVE_BEAR)
    for dotted, value in changes.items():
        *path, last = dotted.split("__")
        here = data
        for part in path:
            here = here[int(part)] if part.isdigit() else here.setdefault(part, {})
        here[int(last) if last.isdigit() else last] = value
    return yaml.safe_dump(data, sort_keys=False)


def test_a_stat_block_at_the_attack_bonus_limit_fights_under_variable_modifiers(tmp_path):
    """A +100000 attack was a MemoryError under d20+var and +1000000000 hung (a string of 100 million d20s)."""
    (tmp_path / "bear.yaml").write_text(statblock(**{"attack__0__0__bonuses": [MAX_MODIFIER]}))
    (tmp_path / "fight.yaml").write_text(
        "name: bear\nparty: [fighter-5]\nmonsters: [cave-bear]\n"
        "bestiary: bear.yaml\nrules: [d20+var]\nn: 2\nround_cap: 5\n"
    )
    proc = arena("fight", "fight.yaml", "--rules", "d20+var", "--seed", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (tmp_path / "bear.yaml").write_text(statblock(**{"attack__0__0__bonuses": [1_000_000_000]}))
    line = one_error_line(arena("fight", "fight.yaml", "--rules", "d20+var", cwd=tmp_path))
    assert "bear.yaml:19: attack.0.0.bonuses.0: Input should be less than or equal to 200" in line


# ================================================================================= 3. stat-block fields
def problems(text: str) -> list[str]:
    with pytest.raises(YamlValidationError) as err:
        validate(parse_yaml(text, "bear.yaml"), Creature)
    return err.value.problems


@pytest.mark.parametrize(
    ("changes", "field", "needle"),
    [
        ({"attack__0__0__damage": "-d6"}, "attack.0.0.damage", "subtracts dice"),
        ({"attack__0__0__damage": "1d6-10"}, "attack.0.0.damage", "can never be more than -4"),
        ({"attack__0__0__damage": "1d6+"}, "attack.0.0.damage", "ends too early"),
        ({"attack__0__0__damage": "d0"}, "attack.0.0.damage", "die size 0 is outside 1..1000"),
        ({"attack__0__0__damage": f"{MAX_DICE + 1}d6"}, "attack.0.0.damage", "dice count 101 is outside 1..100"),
        ({"attack__0__0__damage": f"1d{MAX_SIDES + 1}"}, "attack.0.0.damage", "die size 1001"),
        ({"attack__0__0__damage": "+".join(["1d4"] * (MAX_DICE_TERMS + 1))}, "attack.0.0.damage", "more than 32 terms"),
        ({"attack__0__0__damage": "1d6+" + "9" * 30}, "attack.0.0.damage", "is too large"),
        ({"attack__0__0__damage": "١d٦"}, "attack.0.0.damage", "unexpected"),
        ({"attack__0__0__damage": 5}, "attack.0.0.damage", "valid string"),
        ({"damage_reduction": "5/"}, "damage_reduction", "names nothing after '/'"),
        ({"damage_reduction": "1000000000000/-"}, "damage_reduction", "beyond the limit of 1000"),
        ({"abilities": {"str": -5}}, "abilities.str", "ability score -5 is outside 1..99"),
        ({"abilities": {"dex": 1000}}, "abilities.dex", "outside 1..99"),
        ({"abilities": {"con": 0}}, "abilities.con", "write null for a creature without the ability"),
        ({"abilities": {"wis": True}}, "abilities.wis", "not True"),
        ({"class_levels": {"fighter": True}}, "class_levels.fighter", "valid integer, got True"),
        ({"hp": True}, "hp", "valid integer, got True"),
        ({"hp": 12.0}, "hp", "valid integer"),
        ({"hp": 10**12}, "hp", "less than or equal to 100000"),
        ({"hit_dice": "24"}, "hit_dice", "have no die"),
        ({"hit_dice": "6d8-1d4"}, "hit_dice", "subtracts dice"),
        ({"ac": 10**9}, "ac", "less than or equal to 200"),
        ({"speed": 10**9}, "speed", "less than or equal to 1000"),
        ({"bab": -1}, "bab", "greater than or equal to 0"),
        ({"saves": {"fort": 10**9, "ref": 1, "will": 1}}, "saves.fort", "less than or equal to 200"),
        ({"initiative": 201}, "initiative", "less than or equal to 200"),
        ({"cr": 0.7}, "cr", "does not exist"),
        ({"cr": -1}, "cr", "does not exist"),
        ({"cr": float("inf")}, "cr", "must be a number"),
        ({"cr": "1e400"}, "cr", "from 1 to 100"),
        ({"cr": 101}, "cr", "from 1 to 100"),
        ({"name": ""}, "name", "at least 1 character"),
        ({"name": "   "}, "name", "must not be blank"),
        ({"name": "bear\x1b[2J"}, "name", "control character U+001B"),
        ({"name": "be\u202ear"}, "name", "control character U+202E"),
        ({"name": "b" * (MAX_NAME_LENGTH + 1)}, "name", "at most 200 characters"),
        ({"title": "Cave\nBear"}, "title", "control character U+000A"),
        ({"notes": "ok\n\tfine \x07"}, "notes", "control character U+0007"),
        ({"subtypes": ["\x00"]}, "subtypes.0", "control character U+0000"),
        ({"attack__0__0__count": True}, "attack.0.0.count", "valid integer, got True"),
        ({"attack__0__0__count": 51}, "attack.0.0.count", "less than or equal to 50"),
        ({"attack__0__0__bonuses": [True]}, "attack.0.0.bonuses.0", "valid integer, got True"),
        ({"attack__0__0__bonuses": list(range(11))}, "attack.0.0.bonuses", "at most 10 items"),
        (
            {"attack__0__0__trip": True, "attack__0__0__trip_modifier": 10**9},
            "attack.0.0.trip_modifier",
            "less than or equal to 200",
        ),
        ({"attack__0__0__name": "cl\x1baw"}, "attack.0.0.name", "control character"),
        (
            {
                "attack": [
                    [{"name": "claw", "count": 40, "bonuses": [5, 0], "damage": "1d4", "damage_types": ["slashing"]}]
                ]
            },
            "attack.0",
            "makes 80 attacks",
        ),
        ({"spell_resistance": 10**9}, "spell_resistance", "less than or equal to 200"),
        ({"regeneration": {"amount": 5, "overcome_by": ["fier"]}}, "regeneration.overcome_by.0", "'fire'"),
        ({"spellcasting": {"caster_level": True, "ability": "wis"}}, "spellcasting.caster_level", "got True"),
        (
            {"spellcasting": {"caster_level": 5, "ability": "wis", "prepared": {True: ["bless"]}}},
            "spellcasting.prepared.1",
            "a spell level is a whole number 0 to 9, not True",
        ),
        (
            {
                "breath_weapon": {
                    "shape": "cone",
                    "length_ft": 30,
                    "damage": "2d6",
                    "damage_type": "fire",
                    "dc": 12,
                    "recharge": "1d4-4",
                }
            },
            "breath_weapon.recharge",
            "it must be at least 1",
        ),
        (
            {"breath_weapon": {"shape": "cone", "length_ft": 30, "damage": "2d6", "damage_type": "fire", "dc": 10**9}},
            "breath_weapon.dc",
            "less than or equal to 200",
        ),
        ({"body_parts": [{"part": "head", "ac_bonus": 51}]}, "body_parts.0.ac_bonus", "less than or equal to 50"),
        (
            {"body_parts": [{"part": "head", "size_fraction": "1/" + "9" * 40}]},
            "body_parts.0.size_fraction",
            "at most 32 characters",
        ),
        ({"tactics": "x" * 100_000}, "tactics", "at most 200 characters"),  # before: difflib against every policy
    ],
)
def test_bad_stat_block_fields_are_refused_with_file_line_and_field(changes, field, needle):
    found = problems(statblock(**changes))
    assert any(f": {field}: " in p and needle in p for p in found), found
    assert all(p.startswith("bear.yaml:") for p in found)


@pytest.mark.parametrize(
    "changes",
    [
        {"abilities": {"con": None, "int": None}},
        {"abilities": {"str": 1, "dex": 99}},
        {"attack__0__0__damage": "1d6-1"},
        {"attack__0__0__damage": "100d1000kh50+10000"},
        {"attack__0__0__threat": "15-20"},
        {"attack__0__0__bonuses": [MAX_MODIFIER, -MAX_MODIFIER]},
        {"damage_reduction": "5/-"},
        {"damage_reduction": "10/magic or silver"},
        {"cr": "1/3"},
        {"cr": 0.5},
        {"ac": -5, "touch_ac": -5, "flat_footed_ac": -5},
        {"name": "Höhlenbär 🐻"},
        {"notes": "two\nlines\tand a tab"},
        {"spellcasting": {"caster_level": MAX_MODIFIER, "ability": "wis", "prepared": {"1": ["bless"]}}},
    ],
)
def test_edge_values_that_mean_something_are_accepted(changes):
    validate(parse_yaml(statblock(**changes), "bear.yaml"), Creature)


def test_challenge_ratings_are_bounded_everywhere():
    assert parse_cr(Fraction(1, 3)) == Fraction(1, 3)
    for bad in (float("inf"), float("nan"), "1e400", 10**400, "9" * 5000, True):
        with pytest.raises(ValueError):
            parse_cr(bad)
    with pytest.raises(ArenaError, match="beyond the limit of 100"):
        challenge_cr(10**400)
    with pytest.raises(ArenaError, match="expected typical-crN"):
        parse_typical_name("typical-cr.5e400")  # float('.5e400') is inf: was an OverflowError


def test_group_counts_are_bounded_and_the_doubling_rule_does_not_recurse():
    def recursive(count: int) -> int:  # the rule as the DMG states it (and as it was computed)
        table = {1: 0, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 6, 8: 6, 9: 6, 10: 7, 11: 7, 12: 7}
        return table[count] if count <= 12 else recursive(-(-count // 2)) + 2

    assert all(group_size_offset(n) == recursive(n) for n in [*range(1, 3000), 10**5 + 1, MAX_COUNT])
    assert group_el(Fraction(5), 1000) == 5 + recursive(1000)
    with pytest.raises(ArenaError, match="beyond the limit"):
        group_size_offset(2**2000)  # was a RecursionError


# ================================================================================= dice expressions
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("1d6+", "ends too early"),
        ("d0", "die size 0"),
        ("0d6", "dice count 0"),
        ("101d6", "outside 1..100"),
        ("1d1001", "outside 1..1000"),
        ("+".join(["1"] * (MAX_DICE_TERMS + 1)), "more than 32 terms"),
        ("1" * 40 + "d6", "is too large"),
        ("1d6+" + "9" * 5000, "characters long"),
        (str(MAX_CONSTANT + 1), "beyond the limit of 10,000"),
        ("1" * (MAX_TEXT_LENGTH + 1), "characters long"),
        ("1d6kh0", "cannot keep 0"),
        ("1d6*2", "unexpected"),
        ("١d٦", "unexpected"),
        ("(" * 30 + "1" + ")" * 30, "nested"),
    ],
)
def test_dice_expressions_past_the_limits_are_syntax_errors(text, needle):
    with pytest.raises(DiceSyntaxError, match=needle):
        parse(text)


def test_means_need_no_distribution_and_exact_refuses_huge_ones():
    for text in ("4d6kh3", "5d8kl2", "2d20kh1", "-(1d20+1d10)+3", "7d4kh7", "6d6kl1"):
        assert parse(text).mean == float(parse(text).exact().mean())

    def means() -> None:
        assert parse("100d1000").mean == 50050.0
        assert 37_000 < parse("100d1000kh50").mean < 38_000  # icepool took minutes (or recursed too deep)

    cpu_limits.call(means, cpu=5)
    with pytest.raises(ArenaError, match="too many outcomes"):
        parse("100d1000").exact()


# ================================================================================= 4. `arena odds` options
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["attack", "--bonus", "201", "--ac", "18"], "--bonus 201 is outside -200..200"),
        (["attack", "--bonus", "5", "--ac", "-1000000000000"], "--ac -1000000000000 is outside -200..200"),
        (["attack", "--bonus", "5", "--ac", "18", "--hidden-modifier", "1" * 40], "--hidden-modifier 1111111...(40"),
        (["attack", "--bonus", "1000000000", "--ac", "18", "--modifiers", "variable"], "--bonus 1000000000 is outside"),
        (["attack", "--bonus", "5", "--ac", "18", "--multiplier", "0"], "--multiplier 0 is outside 2..5"),
        (["attack", "--bonus", "5", "--ac", "18", "--multiplier", "1000"], "--multiplier 1000 is outside 2..5"),
        (["attack", "--bonus", "5", "--ac", "18", "--threat", "21-20"], "threat range '21-20' cannot exist"),
        (["attack", "--bonus", "5", "--ac", "18", "--threat", "0-20"], "threat range '0-20' cannot exist"),
        (["attack", "--bonus", "5", "--ac", "18", "--threat", "9" * 5000 + "-20"], "write it like 20, 19-20"),
        (["save", "--save", "4", "--dc", "1000000000000000000000"], "--dc 1000000...(22 digits) is outside"),
        (["sr", "--caster-level", "-5", "--sr", "18"], "--caster-level -5 is outside 0..200"),
        (["sr", "--caster-level", "9", "--sr", "1000000000"], "--sr 1000000000 is outside 0..200"),
        (["check", "--modifier", "5", "--target", "20", "--take", "1000000000"], "--take 1000000000 is outside 0..20"),
        (["check", "--modifier", "5", "--target", "20", "--take", "17"], "cannot take 17"),
        (["check", "--modifier", "1000000000", "--target", "20"], "--modifier 1000000000 is outside"),
        (["check", "--modifier", "5", "--target", "-201"], "--target -201 is outside"),
        (["attack", "--bonus", "5", "--ac", "18", "--rules", "d20+" * 5000], "is 20,000 characters long"),
        (["attack", "--bonus", "5", "--ac", "18", "--rules", "\x1b[2Jd20"], "unknown die"),
        (["attack", "--bonus", "5", "--ac", "18", "--rules", "ｄ２０"], "unknown die"),
        (["attack", "--bonus", "nan", "--ac", "18"], "--bonus"),
    ],
)
def test_odds_options_out_of_range_are_one_line_naming_the_option(args, needle):
    assert needle in one_error_line(arena("odds", *args))


def test_odds_at_the_limits_answer():
    for args in (
        ["attack", "--bonus", "-200", "--ac", "200", "--threat", "10-20", "--rules", "d20+var+open"],
        ["attack", "--bonus", "200", "--ac", "-200", "--multiplier", "5", "--all-variants"],
        ["check", "--modifier", "200", "--target", "-200", "--hidden-modifier", "-200", "--take", "20"],
        ["sr", "--caster-level", "0", "--sr", "200", "--modifiers", "variable"],
    ):
        proc = arena("odds", *args, "--json")
        assert proc.returncode == 0, (args, proc.stderr[-2000:])
        json.loads(proc.stdout)


# ================================================================================= 5. `arena bestiary`
@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("", "no creature name given"),
        ("   ", "no creature name given"),
        ("x" * 100_000, "is 100,000 characters long; names are at most 200"),
        ("typical-cr" + "9" * 5000, "characters long"),
        ("\x1b[31mtroll\x1b[0m", "did you mean troll"),
    ],
)
def test_show_with_odd_names_is_one_escaped_line(name, needle):
    line = one_error_line(arena("bestiary", "show", name))
    assert needle in line and len(line) < 300


def test_get_creature_refuses_long_names_before_looking():
    with pytest.raises(ArenaError, match="at most 200"):
        get_creature("a" * 10**6)


def test_validate_walks_folders_safely(tmp_path):
    folder = tmp_path / "mixed"
    (folder / "sub").mkdir(parents=True)
    (folder / "bear.yaml").write_text(CAVE_BEAR)
    (folder / "readme.txt").write_text("not a stat block")
    (folder / "data.bin").write_bytes(bytes(range(256)))
    os.mkfifo(folder / "pipe.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    (folder / "gone.yaml").symlink_to(tmp_path / "nowhere")
    (folder / "sub" / "loop").symlink_to(folder)
    assert expand_paths([folder]) == [folder / "bear.yaml"]
    assert check_files([folder]) == (1, [])
    for bad, needle in (
        (folder / "pipe.yaml", "not a regular file"),
        (folder / "zero.yaml", "not a regular file"),
        (folder / "gone.yaml", "no such file"),
        (tmp_path / ("y" * 300), "File name too long"),
    ):
        count, found = check_files([bad])
        assert count == 0 and len(found) == 1 and needle in found[0], found


def test_validate_refuses_a_folder_of_more_files_than_the_limit(tmp_path):
    many = tmp_path / "many"
    many.mkdir()
    for i in range(MAX_FILES_PER_FOLDER + 1):
        (many / f"{i}.yaml").write_text("name: [unclosed\n")
    line = one_error_line_or_summary(arena("bestiary", "validate", "many", cwd=tmp_path, cpu=20))
    assert f"more than {MAX_FILES_PER_FOLDER:,} YAML files" in line


def one_error_line_or_summary(proc: subprocess.CompletedProcess) -> str:
    """`bestiary validate` prints each problem, then a count: the first line."""
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return proc.stderr.splitlines()[0]


def test_validate_cuts_a_huge_value_it_would_echo(tmp_path):
    (tmp_path / "bear.yaml").write_text(statblock(name="n" * 100_000))
    proc = arena("bestiary", "validate", "bear.yaml", cwd=tmp_path)
    first = one_error_line_or_summary(proc)
    assert first.startswith("bear.yaml:1: name: String should have at most 200 characters") and len(first) < 700


def test_schema_states_the_limits():
    proc = arena("bestiary", "schema")
    assert proc.returncode == 0
    schema = json.loads(proc.stdout)
    assert schema["properties"]["hp"]["maximum"] == 100_000
    assert schema["properties"]["name"]["maxLength"] == MAX_NAME_LENGTH
    bonuses = schema["$defs"]["Attack"]["properties"]["bonuses"]
    assert bonuses["maxItems"] == 10 and bonuses["items"]["maximum"] == MAX_MODIFIER and "maxLength" not in bonuses
