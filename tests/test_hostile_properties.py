"""Generated hostile documents: loading a scenario or a stat block succeeds or raises the project's own error.

Hypothesis builds scenario and stat-block documents as YAML text: valid shapes with wild values (huge,
negative, NaN and infinite numbers, booleans where integers go, odd strings with control characters and
unicode) and broken shapes (wrong types, missing and extra fields, random nesting), then damages some of the
texts (a character inserted, a line cut, the text truncated). Whatever the document,
:func:`arena.study.scenarios.loading.load_scenarios`, the stat-block loaders of ``arena bestiary validate``
(:func:`arena.world.yamlio.load_models` with :class:`arena.world.creatures.Creature`,
:func:`arena.world.bestiary.check_files`)
and :func:`arena.world.yamlio.parse_yaml` must either succeed or raise :class:`arena.errors.ArenaError`: never another
exception. A few valid stat blocks with wild values also fight one short encounter each.

Every test is derandomized (the same examples every run, no example database), so it never flakes.
"""

from __future__ import annotations

import atexit
import math
import shutil
import tempfile
from pathlib import Path

import yaml
from hostile_harness import DUEL, STAT_BLOCK, dump
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.errors import ArenaError
from arena.world.creatures import Creature

SETTINGS = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}

# --------------------------------------------------------------------------------------------- wild values
ODD_TEXT = [
    "",
    " ",
    "\x00",
    "\x01",
    "\x1b[31m",
    "\x7f",
    "\u202e",
    "\u2028",
    "\ufeff",
    "../..",
    "/tmp/v",
    "~",
    "<img onerror=alert(1)>",
    "%s%n",
    "{0}",
    "${HOME}",
    "a\nb",
    "\t",
    "nan",
    "inf",
    "-0",
    "1e400",
    "0x10",
    "1/0",
    "typical-cr5",
    "typical-cr999",
    "typical-cr-1",
    "typical-crnan",
    "orc:0",
    "orc:-1",
    "orc:1000000000",
    "troll:4",
    "fighter-0",
    "fighter-21",
    "wizard-5",
    "d20",
    "3d6+prad+luck+open",
    "fixed10+open",
    "d20+d20",
    "1d6+",
    "-d6",
    "5/",
    "10/magic",
    "19-20",
    "10-20",
    "x3",
    "x1000000",
    "yes",
    "no",
    "null",
    "~",
    "true",
    "False",
]
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=30),
    st.sampled_from([0, -1, 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**9, 10**12, 10**30, 10**100]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.5, 1e308, -1e-308, 5.0]),
)
TEXT = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.text(max_size=12),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x3000), max_size=20),
)
SCALARS = st.one_of(NUMBERS, TEXT, st.booleans(), st.none())
WILD = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.one_of(TEXT, st.integers()), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Anything YAML can hold: wrong types and random nesting."""


def chance(times_in_ten: int):
    """True about ``times_in_ten`` times in ten (hypothesis prefers small integers, so no ``integers() == 0``)."""
    return st.sampled_from([False] * (10 - times_in_ten) + [True] * times_in_ten)


def maybe(valid, wild_in_ten: int = 2):
    """Mostly ``valid``, ``wild_in_ten`` times in ten anything at all."""
    return chance(wild_in_ten).flatmap(lambda wild: WILD if wild else valid)


# --------------------------------------------------------------------------------------------- stat blocks
DICE = st.one_of(
    st.sampled_from(
        [
            "1d6",
            "2d8+3",
            "1d4-1",
            "0d6",
            "1d0",
            "-d6",
            "d6",
            "1d6+",
            "1000d1000",
            "1d6+1d4+2",
            "3",
            "1d1000000000",
            "99999999999999d6",
            "1d6*2",
            "",
        ]
    ),
    st.from_regex(r"\A-?[0-9]{0,4}d[0-9]{0,5}([+-][0-9]{0,6})?\Z"),
)
FIELD_VALUES = {
    "name": maybe(st.one_of(st.sampled_from(["brute", "orc", "typical-cr5", "x" * 300]), TEXT)),
    "side": maybe(st.sampled_from(["monster", "pc", "neutral"])),
    "size": maybe(st.sampled_from(["medium", "large", "colossal", "enormous"])),
    "type": maybe(st.sampled_from(["humanoid", "undead", "construct", "dragon", "dinosaur"])),
    "cr": maybe(st.one_of(NUMBERS, st.sampled_from(["1/2", "1/3", "1/7", "1/0", "-1", "0", "20", "1e9"]))),
    "hp": maybe(NUMBERS),
    "hit_dice": maybe(DICE),
    "initiative": maybe(NUMBERS),
    "speed": maybe(NUMBERS),
    "reach_ft": maybe(NUMBERS),
    "space_ft": maybe(NUMBERS),
    "ac": maybe(NUMBERS),
    "touch_ac": maybe(NUMBERS),
    "flat_footed_ac": maybe(NUMBERS),
    "bab": maybe(NUMBERS),
    "grapple": maybe(NUMBERS),
    "abilities": maybe(
        st.dictionaries(
            st.sampled_from(["str", "dex", "con", "int", "wis", "cha", "luck"]),
            st.one_of(NUMBERS, st.none(), st.booleans()),
            max_size=6,
        )
    ),
    "saves": maybe(st.fixed_dictionaries({"fort": NUMBERS, "ref": NUMBERS, "will": NUMBERS})),
    "damage_reduction": maybe(
        st.one_of(
            st.sampled_from(["5/", "/magic", "5/magic", "10/-", "-5/-", "5/cheese"]),
            st.fixed_dictionaries({"amount": NUMBERS}),
        )
    ),
    "regeneration": maybe(st.fixed_dictionaries({"amount": NUMBERS, "overcome_by": st.lists(TEXT, max_size=2)})),
    "fast_healing": maybe(NUMBERS),
    "spell_resistance": maybe(NUMBERS),
    "energy_resistance": maybe(st.dictionaries(st.sampled_from(["fire", "cold", "cheese"]), NUMBERS, max_size=2)),
    "immunities": maybe(st.lists(st.sampled_from(["fire", "critical hits", "sleep", "boredom"]), max_size=3)),
    "class_levels": maybe(
        st.dictionaries(st.sampled_from(["fighter", "wizard", "x"]), st.one_of(NUMBERS, st.booleans()), max_size=2)
    ),
    "tactics": maybe(st.sampled_from(["focus-weakest", "random", "caster", "bogus"])),
    "notes": maybe(TEXT),
    "bogus_field": WILD,
}
ATTACK_VALUES = {
    "name": maybe(TEXT),
    "bonuses": maybe(st.one_of(st.lists(NUMBERS, max_size=4), NUMBERS)),
    "count": maybe(st.one_of(NUMBERS, st.booleans())),
    "damage": maybe(DICE),
    "damage_types": maybe(st.lists(st.sampled_from(["slashing", "fire", "psychic"]), max_size=2)),
    "threat": maybe(st.one_of(NUMBERS, st.sampled_from(["19-20", "10-20", "2-20", "20-19", "1-20", "x"]))),
    "multiplier": maybe(st.one_of(NUMBERS, st.sampled_from(["x3", "x1", "x1000000", "double"]))),
    "kind": maybe(st.sampled_from(["melee", "ranged", "psionic"])),
    "sneak_attack": maybe(DICE),
    "trip": maybe(st.booleans()),
    "trip_modifier": maybe(NUMBERS),
}


@st.composite
def stat_block_docs(draw) -> object:
    """A stat block: the standard one with some fields changed, removed or added; or anything at all."""
    if draw(chance(1)):
        return draw(WILD)
    doc = {k: (dict(v) if isinstance(v, dict) else v) for k, v in STAT_BLOCK.items()}
    doc["attack"] = [[dict(STAT_BLOCK["attack"][0][0])]]
    for key in draw(st.lists(st.sampled_from(sorted(FIELD_VALUES)), max_size=4, unique=True)):
        doc[key] = draw(FIELD_VALUES[key])
    for key in draw(st.lists(st.sampled_from(sorted(ATTACK_VALUES)), max_size=3, unique=True)):
        doc["attack"][0][0][key] = draw(ATTACK_VALUES[key])
    if draw(chance(2)):
        doc.pop(draw(st.sampled_from(["name", "type", "hp", "saves", "attack", "ac", "hit_dice"])), None)
    shape = draw(st.sampled_from(["one"] * 7 + ["list", "list", "list-with-junk"]))
    if shape != "one":
        doc = [doc, draw(WILD)] if shape == "list-with-junk" else [doc]
    return doc


# --------------------------------------------------------------------------------------------- scenarios
GROUPS = st.one_of(
    st.builds(
        lambda name, count: f"{name}:{count}",
        st.sampled_from(["orc", "goblin", "troll", "typical-cr3", "typical-cr999", "trol", "fighter-1", ""]),
        st.one_of(NUMBERS, TEXT),
    ),
    st.sampled_from(["orc", "goblin:2", "typical-cr1/2", "ogre", ":", "orc:", "orc:1:2"]),
    st.fixed_dictionaries(
        {"name": maybe(st.sampled_from(["orc", "kobold", "nobody"])), "count": maybe(st.one_of(NUMBERS, st.booleans()))}
    ),
    st.builds(
        lambda block, count: {"stat_block": block, "count": count},
        stat_block_docs(),
        st.one_of(st.integers(1, 3), NUMBERS),
    ),
)
SCENARIO_VALUES = {
    "name": maybe(TEXT),
    "description": maybe(TEXT),
    "party": maybe(
        st.one_of(
            st.fixed_dictionaries({"level": maybe(NUMBERS)}),
            st.lists(
                st.one_of(
                    st.sampled_from(["fighter-1", "cleric-3", "fighter-0", "bard-5", "orc", "wizard-20"]),
                    st.builds(lambda b: {"stat_block": b}, stat_block_docs()),
                ),
                max_size=3,
            ),
            st.fixed_dictionaries({"file": st.sampled_from(["party.yaml", "nowhere.yaml", "s.yaml", "", "."])}),
        )
    ),
    "monsters": maybe(st.lists(GROUPS, max_size=3)),
    "tactics": maybe(
        st.fixed_dictionaries(
            {},
            optional={
                "party": st.fixed_dictionaries(
                    {},
                    optional={
                        "policy": maybe(st.sampled_from(["random", "caster", "x"])),
                        "press_luck": maybe(st.sampled_from(["never", "when-better"])),
                        "called_shot": maybe(st.sampled_from(["head", "nose"])),
                    },
                ),
                "monsters": st.fixed_dictionaries(
                    {}, optional={"policy": maybe(st.sampled_from(["focus-threat", "y"]))}
                ),
                "creatures": st.dictionaries(
                    st.sampled_from(["orc", "fighter-1", "nobody"]),
                    st.fixed_dictionaries({"policy": maybe(st.sampled_from(["random"]))}),
                    max_size=2,
                ),
            },
        )
    ),
    "round_cap": maybe(NUMBERS),
    "monsters_die_at_zero": maybe(st.booleans()),
    "bestiary": maybe(
        st.sampled_from(["sb.yaml", "nowhere.yaml", "s.yaml", ".", ["sb.yaml", "sb.yaml"], [], "/dev/null"])
    ),
    "policies": maybe(st.sampled_from(["nowhere.py", ["nowhere.py"], "sb.yaml", [], "x.txt"])),
    "rules": maybe(
        st.one_of(
            st.lists(
                st.sampled_from(["d20", "3d6", "3d6+prad+luck+open", "fixed10", "fixed10+open", "d7", "d20+d20"]),
                max_size=3,
            ),
            st.sampled_from(["d20", "", "3d6+var+luck"]),
            st.fixed_dictionaries(
                {},
                optional={
                    "die": maybe(st.lists(st.sampled_from(["d20", "3d6", "fixed10"]), max_size=3)),
                    "open_ended": maybe(st.lists(st.booleans(), max_size=2)),
                    "modifiers": maybe(st.sampled_from(["static", "variable", "wild"])),
                },
            ),
        )
    ),
    "rule_options": maybe(
        st.dictionaries(st.sampled_from(["bell_threat_16_20", "prad_automatic", "bogus"]), SCALARS, max_size=2)
    ),
    "n": maybe(NUMBERS),
    "seed": maybe(NUMBERS),
    "scenarios": WILD,
    "bogus": WILD,
}


@st.composite
def scenario_docs(draw) -> object:
    """A scenario: the duel with some fields changed, removed or added; a list of them; or anything at all."""
    if draw(chance(1)):
        return draw(WILD)
    doc = dict(DUEL)
    for key in draw(st.lists(st.sampled_from(sorted(SCENARIO_VALUES)), max_size=4, unique=True)):
        doc[key] = draw(SCENARIO_VALUES[key])
    if draw(chance(1)):
        doc.pop(draw(st.sampled_from(["name", "party", "monsters"])), None)
    if draw(chance(2)):
        return [doc, {**doc, "name": draw(TEXT)}]
    return doc


INSERTS = [
    "\x00",
    "\x1b",
    "\x7f",
    ":",
    "- ",
    "&a ",
    "*a",
    "!!python/name:os",
    "<<: ",
    "\t",
    "'",
    '"',
    "{",
    "]",
    "\n  ",
    "%YAML 1.1\n---\n",
]


@st.composite
def yaml_texts(draw, docs) -> str:
    """The YAML text of a document, sometimes damaged: a character inserted, a line dropped, the end cut off."""
    try:
        text = dump(draw(docs))
    except (yaml.YAMLError, ValueError, RecursionError):
        text = "{}"
    damage = draw(st.sampled_from(["none"] * 7 + ["insert", "drop-line", "cut"]))
    if damage == "insert" and text:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(INSERTS)) + text[at:]
    elif damage == "drop-line" and "\n" in text:
        lines = text.split("\n")
        del lines[draw(st.integers(0, len(lines) - 1))]
        text = "\n".join(lines)
    elif damage == "cut" and text:
        text = text[: draw(st.integers(0, len(text)))]
    return text


# --------------------------------------------------------------------------------------------- helpers
def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="arena-hypothesis-"))
    (folder / "sb.yaml").write_text(dump(STAT_BLOCK), encoding="utf-8")
    (folder / "party.yaml").write_text(dump([{**STAT_BLOCK, "name": "hero", "side": "pc"}]), encoding="utf-8")
    return folder


FOLDER = _folder()
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)


def _write(name: str, text: str) -> Path:
    path = FOLDER / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def _load_or_arena_error(load, *args) -> object:
    try:
        return load(*args)
    except ArenaError as err:
        assert str(err).strip(), "an ArenaError without a message"
        return None


# --------------------------------------------------------------------------------------------- properties
@settings(max_examples=300, **SETTINGS)
@given(yaml_texts(scenario_docs()))
def test_loading_a_scenario_succeeds_or_raises_arena_error(text):
    from arena.study.scenarios.loading import load_scenarios
    from arena.study.scenarios.scenario import Scenario

    scenarios = _load_or_arena_error(load_scenarios, _write("s.yaml", text))
    if scenarios is not None:
        assert scenarios and all(isinstance(s, Scenario) for s in scenarios)
        for scenario in scenarios:  # what a command does next with a loaded scenario
            scenario.digest()
            scenario.rule_sets()


@settings(max_examples=300, **SETTINGS)
@given(yaml_texts(stat_block_docs()))
def test_loading_a_stat_block_succeeds_or_raises_arena_error(text):
    from arena.world.yamlio import load_models

    creatures = _load_or_arena_error(load_models, _write("block.yaml", text), Creature)
    if creatures is not None:
        assert all(isinstance(c, Creature) for c in creatures)


@settings(max_examples=150, **SETTINGS)
@given(yaml_texts(stat_block_docs()))
def test_validating_stat_block_files_reports_problems_as_lines(text):
    """`arena bestiary validate` collects problems instead of raising: it must never raise at all."""
    from arena.world.bestiary import check_files

    count, problems = check_files([_write("validate.yaml", text)])
    assert count >= 0
    assert all(isinstance(p, str) and p.strip() for p in problems)


@settings(max_examples=200, **SETTINGS)
@given(
    st.one_of(
        st.text(max_size=200), st.text(st.sampled_from("[]{}:-&*!|>'\"#%@`,? \n\t\\x0a"), max_size=80), yaml_texts(WILD)
    )
)
def test_parsing_any_text_succeeds_or_raises_arena_error(text):
    from arena.world.yamlio import parse_yaml

    _load_or_arena_error(parse_yaml, text, "fuzz.yaml")


SMALL = st.integers(min_value=-50, max_value=60)
FIGHTABLE = {
    "hp": st.integers(1, 10**6),
    "ac": SMALL,
    "touch_ac": SMALL,
    "flat_footed_ac": SMALL,
    "bab": SMALL,
    "initiative": st.integers(-30, 500),
    "speed": st.integers(0, 120),
    "reach_ft": st.integers(0, 100),
    "saves": st.fixed_dictionaries({"fort": SMALL, "ref": SMALL, "will": SMALL}),
    "abilities": st.fixed_dictionaries(
        {"str": st.one_of(st.integers(-5, 1000), st.none()), "dex": st.integers(-5, 1000)}
    ),
    "hit_dice": st.sampled_from(["1d8", "20d12+100", "1d1", "100d4"]),
    "damage_reduction": st.sampled_from(["5/magic", "10/-", {"amount": 1000, "overcome_by": ["silver"]}]),
    "energy_resistance": st.just({"fire": 10**6}),
    "spell_resistance": st.integers(0, 10**6),
}
FIGHTABLE_ATTACK = {
    "bonuses": st.lists(st.integers(-100, 500), min_size=1, max_size=4),
    "count": st.integers(1, 20),
    "damage": st.sampled_from(["1d6", "1d6+1000", "1d4-10", "20d6", "1d1"]),
    "threat": st.sampled_from([20, 19, 15, 2, "10-20", "17-20"]),
    "multiplier": st.integers(2, 5),
    "kind": st.sampled_from(["melee", "ranged"]),
    "sneak_attack": st.sampled_from(["1d6", "10d6"]),
}


@st.composite
def fightable_stat_blocks(draw) -> dict:
    doc = {k: (dict(v) if isinstance(v, dict) else v) for k, v in STAT_BLOCK.items()}
    doc["attack"] = [[dict(STAT_BLOCK["attack"][0][0])]]
    for key in draw(st.lists(st.sampled_from(sorted(FIGHTABLE)), max_size=5, unique=True)):
        doc[key] = draw(FIGHTABLE[key])
    for key in draw(st.lists(st.sampled_from(sorted(FIGHTABLE_ATTACK)), max_size=4, unique=True)):
        doc["attack"][0][0][key] = draw(FIGHTABLE_ATTACK[key])
    return doc


@settings(max_examples=40, **SETTINGS)
@given(
    fightable_stat_blocks(),
    st.sampled_from(["d20", "d20+var+open", "3d6+prad+luck+open+called", "3d6+var"]),
    st.integers(0, 2**32),
    st.integers(1, 3),
)
def test_a_loaded_stat_block_fights_or_raises_arena_error(block, key, seed, count):
    """Stat blocks that load (wild but fightable numbers) go through one short fight: a result or an ArenaError."""
    from arena.combat.engine import fight, prepare
    from arena.rules import RuleSet
    from arena.world.party import generate_party
    from arena.world.yamlio import load_models

    creatures = _load_or_arena_error(load_models, _write("fight.yaml", dump(block)), Creature)
    if not creatures:
        return
    try:
        rules = RuleSet.from_key(key)
        encounter = prepare(
            generate_party(1, "3d6" if key.startswith("3d6") else "d20"), [(creatures[0], count)], round_cap=5
        )
        result = fight(encounter, rules, seed)
    except ArenaError:
        return
    assert result.record.winner in ("party", "monsters", "draw")
