"""Scenario files: loading, rule-set grids, name resolution, tactics, digests and file:line:field errors."""

import json
import sys
import textwrap
import types
from fractions import Fraction
from pathlib import Path

import pytest

from arena.combat.tactics import POLICIES, TacticsSettings
from arena.errors import ArenaError
from arena.rules.ruleset import RuleOptions, RuleSet, default_grid
from arena.study.scenarios.loading import load_scenarios, pick
from arena.study.scenarios.scenario import Scenario
from arena.world.yamlio import YamlValidationError, load_yaml

ROOT = Path(__file__).resolve().parents[2]


def scenario_files() -> list[Path]:
    """The shipped scenario files: every ``scenarios/*.yaml`` except regression suites (a mapping with ``checks:``)."""
    out = []
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        data = load_yaml(path).data
        if not (isinstance(data, dict) and "checks" in data):
            out.append(path)
    return out


SHIPPED = scenario_files()


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    """Every problem reported for a scenario file, with the file named by its bare name."""
    path = write(tmp_path, text)
    with pytest.raises(YamlValidationError) as info:
        load_scenarios(path)
    return [p.replace(str(path), "s.yaml").replace(path.name, "s.yaml") for p in info.value.problems]


def one(tmp_path: Path, text: str) -> Scenario:
    (scenario,) = load_scenarios(write(tmp_path, text))
    return scenario


# --------------------------------------------------------------------------------------------- shipped files
def test_the_shipped_files_are_there():
    names = {p.name for p in SHIPPED}
    assert {"trolls.yaml", "goblin-gang.yaml", "ogre.yaml", "mixed-band.yaml", "reference.yaml", "duel.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_scenario_loads(path):
    scenarios = load_scenarios(path, trust_policies=True)
    assert scenarios
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#"), "each scenario file starts with a comment saying what it serves"
    for scenario in scenarios:
        assert scenario.rule_sets()
        assert scenario.monster_groups()
        for die in ("d20", "3d6"):
            party = scenario.party_members(die)
            assert party and all(c.side == "pc" for c in party)
            tactics = scenario.creature_tactics(die)
            assert all(t.policy in POLICIES for t in tactics.values())
        assert len(scenario.digest()) == 64


def by_name(file: str) -> dict[str, Scenario]:
    return {s.name: s for s in load_scenarios(ROOT / "scenarios" / file)}


def test_shipped_encounter_levels_are_what_their_comments_say():
    trolls = by_name("trolls.yaml")
    assert trolls["trolls"].party_level() == 9 and trolls["trolls"].encounter_level("d20") == 9
    assert trolls["trolls"].encounter_level("3d6") == 8
    assert trolls["trolls-level-8"].party_level() == 8 and trolls["trolls-level-8"].encounter_level("3d6") == 8
    goblins = by_name("goblin-gang.yaml")
    assert [goblins[f"goblins-{n}"].monster_groups()[0][1] for n in (4, 6, 9)] == [4, 6, 9]
    assert [goblins[f"goblins-{n}"].encounter_level() for n in (4, 6, 9)] == [1, 2, 3]
    assert all(s.party_level() == 1 for s in goblins.values())
    ogre = by_name("ogre.yaml")["ogre"]
    assert ogre.party_level() == 3 and ogre.encounter_level() == 3
    band = by_name("mixed-band.yaml")["mixed-band"]
    assert band.party_level() == 4 and band.encounter_level() == band.encounter_level("3d6") == 4
    ref = by_name("reference.yaml")["reference"]
    assert ref.party_level() == 5 and ref.encounter_level() == 6
    crs = [c.cr for c, n in ref.monster_groups() for _ in range(n)]
    assert len(crs) == 4 and all(Fraction(2) <= cr <= 3 for cr in crs)


# --------------------------------------------------------------------------------------------- rule sets
def test_default_grid_is_the_48_rule_sets():
    scenario = Scenario.model_validate({"name": "x", "party": {"level": 1}, "monsters": ["goblin"]})
    sets = scenario.rule_sets()
    assert len(sets) == 48 and len({r.key for r in sets}) == 48
    assert [r.key for r in sets] == [r.key for r in default_grid()]


def test_rules_as_a_list_of_keys(tmp_path):
    s = one(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin]
        rules: [3d6+prad+luck+open, d20, fixed10]
    """,
    )
    assert [r.key for r in s.rule_sets()] == ["3d6+prad+luck+open", "d20", "fixed10"]
    single = Scenario.model_validate(
        {"name": "x", "party": {"level": 1}, "monsters": ["goblin"], "rules": "d20+called"}
    )
    assert [r.key for r in single.rule_sets()] == ["d20+called"]


def test_rules_as_a_product_of_variant_values(tmp_path):
    s = one(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin]
        rules:
          die: [d20, 3d6]
          modifiers: [static, press-luck]
          open_ended: true
    """,
    )
    assert [r.key for r in s.rule_sets()] == ["d20+open", "d20+luck+open", "3d6+open", "3d6+luck+open"]
    full = Scenario.model_validate(
        {
            "name": "x",
            "party": {"level": 1},
            "monsters": ["goblin"],
            "rules": {
                "die": ["d20", "3d6"],
                "players_roll_all": [False, True],
                "modifiers": ["static", "variable", "press-luck"],
                "open_ended": [False, True],
                "called_shots": [False, True],
            },
        }
    )
    assert [r.key for r in full.rule_sets()] == [r.key for r in default_grid()]


def test_rule_options_apply_to_every_rule_set():
    s = Scenario.model_validate(
        {
            "name": "x",
            "party": {"level": 1},
            "monsters": ["goblin"],
            "rules": ["d20", "3d6+open"],
            "rule_options": {"open_automatic": True},
        }
    )
    assert all(r.options == RuleOptions(open_automatic=True) for r in s.rule_sets())
    assert all(
        r.options.open_automatic
        for r in Scenario.model_validate(
            {"name": "x", "party": {"level": 1}, "monsters": ["goblin"], "rule_options": {"open_automatic": True}}
        ).rule_sets()
    )


def test_bad_rule_key_names_file_line_and_field(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin]
        rules:
          - d20
          - 3d6+bogus
    """,
    )
    assert len(found) == 1
    assert found[0].startswith("s.yaml:6: rules.1: rule set '3d6+bogus': unknown variant 'bogus'")


def test_impossible_product_and_duplicates_are_refused(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin]
        rules: {die: [d20, fixed10], open_ended: [false, true]}
    """,
    )
    assert found[0].startswith("s.yaml:4: rules: ") and "fixed10" in found[0]
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin]
        rules: [d20, d20]
    """,
    )
    assert "listed twice" in found[0]
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin]
        rules: {die: [d12]}
    """,
    )
    assert found[0].startswith("s.yaml:4: rules.die.0: ") and "'d12'" in found[0]


# --------------------------------------------------------------------------------------------- errors
def test_malformed_yaml(tmp_path):
    path = write(tmp_path, "name: x\nparty: {level: 1\nmonsters: [goblin]\n")
    with pytest.raises(ArenaError, match=r"s\.yaml:\d+: malformed YAML"):
        load_scenarios(path)


def test_unknown_monster_suggests_the_nearest_names(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 9}
        monsters:
          - trol:4
          - {name: ogr, count: 2}
    """,
    )
    assert len(found) == 2
    assert found[0].startswith("s.yaml:4: monsters.0.name: unknown creature 'trol'; did you mean troll")
    assert found[1].startswith("s.yaml:5: monsters.1.name: unknown creature 'ogr'; did you mean ogre")


def test_unknown_policy_suggests_the_nearest(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters: [goblin:4]
        tactics:
          party:
            policy: focus-weakst
          monsters: {press_luck: sometimes}
    """,
    )
    assert found[0].startswith(
        "s.yaml:6: tactics.party.policy: unknown policy 'focus-weakst'; did you mean focus-weakest"
    )
    assert found[1].startswith("s.yaml:7: tactics.monsters.press_luck: unknown press_luck setting 'sometimes'")


@pytest.mark.parametrize(
    "group, line, field",
    [
        ("troll:-1", 3, "monsters.0"),
        ("troll:0", 3, "monsters.0"),
        ("troll:many", 3, "monsters.0"),
        ("{name: troll, count: -2}", 3, "monsters.0.count"),
    ],
)
def test_negative_or_bad_count(tmp_path, group, line, field):
    found = problems(
        tmp_path,
        f"""
        name: x
        party: {{level: 1}}
        monsters: [{group}]
    """,
    )
    assert len(found) == 1 and found[0].startswith(f"s.yaml:{line}: {field}: ")
    assert "from 1 to 100" in found[0] or "greater than or equal to 1" in found[0]


def test_missing_and_unknown_fields(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        monsters: [goblin]
        round_cp: 10
    """,
    )
    assert "s.yaml:1: party: missing required field" in found
    assert any(p.startswith("s.yaml:3: round_cp: unknown field") for p in found)


def test_errors_inside_inline_stat_blocks_point_into_them(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party:
          - fighter-1
          - stat_block:
              name: hero
              side: pc
              type: humanoid
              hp: -3
              hit_dice: 1d10
              ac: 15
              touch_ac: 10
              flat_footed_ac: 15
              bab: 1
              grapple: 1
              saves: {fort: 2, ref: 0, will: 0}
        monsters:
          - stat_block: {name: blob, type: ooze, cr: 1, hp: 10, hit_dice: 2d10, ac: 5, touch_ac: 5,
                         flat_footed_ac: 5, bab: 1, grapple: 1, saves: {fort: 0, ref: 0, will: 0}}
            count: 0
    """,
    )
    assert found[0].startswith("s.yaml:8: party.1.stat_block.hp: ")
    assert found[1].startswith("s.yaml:19: monsters.0.count: ")


def test_inline_stat_block_without_its_key_gets_a_hint(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1}
        monsters:
          - {name: blob, type: ooze, hp: 3}
    """,
    )
    assert found[0].startswith("s.yaml:4: monsters.0: ") and "stat_block:" in found[0]


def test_negative_and_zero_settings(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 21}
        monsters: [goblin]
        n: 0
        round_cap: -1
        seed: -5
    """,
    )
    fields = [p.split(": ")[1] for p in found]
    assert sorted(fields) == ["n", "party.level", "round_cap", "seed"]


def test_party_must_be_one_form_and_pcs(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 1, file: p.yaml}
        monsters: [goblin]
    """,
    )
    assert found[0].startswith("s.yaml:2: party: ") and "level and file" in found[0]
    found = problems(
        tmp_path,
        """
        name: x
        party: [fighter-1, troll, figter-1]
        monsters: [goblin]
    """,
    )
    assert found[0].startswith("s.yaml:2: party.1: troll is a monster")
    assert found[1].startswith("s.yaml:2: party.2.name: unknown creature 'figter-1'")


def test_all_problems_of_a_file_are_reported_together(tmp_path):
    found = problems(
        tmp_path,
        """
        - name: a
          party: {level: 1}
          monsters: [gobln]
        - name: b
          party: {level: 1}
          monsters: [goblin]
          tactics: {monsters: {policy: nope}}
        - name: a
          party: {level: 1}
          monsters: [goblin]
    """,
    )
    assert [p.split(": ")[0] for p in found] == ["s.yaml:3", "s.yaml:7", "s.yaml:8"]
    assert "defined twice" in found[2] and "s.yaml:1" in found[2]


def test_file_shapes(tmp_path):
    assert "empty" in problems(tmp_path, "")[0]
    assert "no scenarios" in problems(tmp_path, "[]")[0]
    found = problems(
        tmp_path,
        """
        scenarios:
          - name: x
    """,
    )
    assert "top-level list" in found[0]
    assert "expected a scenario" in problems(tmp_path, "- 3\n")[0]


def test_unknown_per_creature_tactics_name(tmp_path):
    found = problems(
        tmp_path,
        """
        name: x
        party: {level: 5}
        monsters: [troll]
        tactics:
          creatures:
            trol: {policy: random}
    """,
    )
    assert found[0].startswith(
        "s.yaml:6: tactics.creatures.trol: unknown creature in this scenario 'trol'; did you mean troll?"
    )


# --------------------------------------------------------------------------------------------- resolution
def test_bestiary_and_party_files_are_relative_to_the_scenario(tmp_path, monkeypatch):
    write(
        tmp_path,
        """
        name: blob
        type: ooze
        cr: 1
        hp: 10
        hit_dice: 2d10
        ac: 5
        touch_ac: 5
        flat_footed_ac: 5
        bab: 1
        grapple: 1
        saves: {fort: 0, ref: 0, will: 0}
    """,
        "studies/extra/blob.yaml",
    )
    write(
        tmp_path,
        """
        - {name: hero, side: pc, type: humanoid, hp: 12, hit_dice: 1d10+2, ac: 16, touch_ac: 11,
           flat_footed_ac: 15, bab: 1, grapple: 3, saves: {fort: 4, ref: 1, will: 0}}
    """,
        "studies/party.yaml",
    )
    path = write(
        tmp_path,
        """
        - name: folder
          party: {file: party.yaml}
          monsters: [blob:3]
          bestiary: extra
        - name: file
          party: [hero, fighter-2]
          monsters: [{name: blob, count: 2}, goblin]
          bestiary: [extra/blob.yaml, party.yaml]
    """,
        "studies/s.yaml",
    )
    monkeypatch.chdir(tmp_path)
    folder, file = load_scenarios(path)
    assert [(c.name, n) for c, n in folder.monster_groups()] == [("blob", 3)]
    assert [c.name for c in folder.party_members()] == ["hero"]
    assert [c.name for c in file.party_members()] == ["hero", "fighter-2"]
    assert [(c.name, n) for c, n in file.monster_groups()] == [("blob", 2), ("goblin", 1)]
    found = problems(
        tmp_path,
        """
        name: x
        party: {file: nowhere.yaml}
        monsters: [goblin]
        bestiary: [missing/]
    """,
    )
    assert found[0].startswith("s.yaml:4: bestiary.0: no such file or folder 'missing/'")


def test_generated_party_depends_on_the_die():
    s = Scenario.model_validate({"name": "x", "party": {"level": 5}, "monsters": ["troll"]})
    named = Scenario.model_validate({"name": "x", "party": ["cleric-5"], "monsters": ["troll"]})

    def spells(party):
        cleric = next(c for c in party if c.name == "cleric-5")
        return [spell for level in cleric.spellcasting.prepared.values() for spell in level]

    for scenario in (s, named):
        assert "auspicious odds" in spells(scenario.party_members("3d6"))
        assert "auspicious odds" not in spells(scenario.party_members("d20"))
        assert "auspicious odds" not in spells(scenario.party_members("fixed10"))


def test_tactics_inherit_creature_then_side_then_stat_block(tmp_path):
    s = one(
        tmp_path,
        """
        name: x
        party: {level: 5}
        monsters: [troll:2, ogre]
        tactics:
          party: {press_luck: always}
          monsters: {policy: random, called_shot: head}
          creatures:
            ogre: {policy: focus-threat}
            wizard-5: {press_luck: never}
    """,
    )
    t = s.creature_tactics()
    # press_luck and called_shot given nowhere are when-better (they act only under +luck and +called)
    assert t["fighter-5"] == TacticsSettings("focus-weakest", "always", "when-better")
    assert t["cleric-5"] == TacticsSettings("caster", "always", "when-better")  # the stat block's own policy
    assert t["wizard-5"] == TacticsSettings("caster", "never", "when-better")
    assert t["troll"] == TacticsSettings("random", "when-better", "head")
    assert t["ogre"] == TacticsSettings("focus-threat", "when-better", "head")
    assert s.tactics.side_settings("pc") == TacticsSettings(press_luck="always", called_shot="when-better")
    assert s.tactics.side_settings("monster") == TacticsSettings("random", "when-better", "head")


def test_prepare_calls_the_engine_once_per_die(monkeypatch):
    calls = []

    def prepare(party, groups, **kwargs):
        calls.append((party, groups, kwargs))
        return object()

    monkeypatch.setitem(sys.modules, "arena.combat.engine", types.SimpleNamespace(prepare=prepare))
    s = Scenario.model_validate(
        {"name": "x", "party": {"level": 5}, "monsters": ["troll:4"], "round_cap": 7, "monsters_die_at_zero": True}
    )
    first = s.prepare("3d6")
    assert s.prepare("3d6") is first and s.prepare("d20") is not first
    assert len(calls) == 2
    party, groups, kwargs = calls[0]
    assert [c.name for c in party] == ["fighter-5", "cleric-5", "rogue-5", "wizard-5"]
    assert [(c.name, n) for c, n in groups] == [("troll", 4)]
    assert kwargs["round_cap"] == 7 and kwargs["monsters_die_at_zero"] is True
    assert set(kwargs["creature_tactics"]) == {"fighter-5", "cleric-5", "rogue-5", "wizard-5", "troll"}
    assert isinstance(kwargs["party_tactics"], TacticsSettings)
    with pytest.raises(ArenaError, match="die must be"):
        s.prepare("d12")


def test_rule_sets_of_a_scenario_are_rule_sets():
    s = Scenario.model_validate({"name": "x", "party": {"level": 1}, "monsters": ["goblin"], "rules": ["3d6+prad"]})
    assert s.rule_sets() == [RuleSet.from_key("3d6+prad")]


# --------------------------------------------------------------------------------------------- identity
def test_digest_is_stable_and_sensitive(tmp_path):
    text = """
        name: x
        party: {level: 3}
        monsters: [ogre]
    """
    a = one(tmp_path, text).digest()
    assert one(tmp_path, text.replace("[ogre]", "['ogre:1']")).digest() == a  # the same scenario, written two ways
    assert one(tmp_path, text.replace("[ogre]", "[ogre:2]")).digest() != a
    assert one(tmp_path, text.replace("[ogre]", "[ogre]\n        seed: 1")).digest() != a
    doc = json.loads(one(tmp_path, text).canonical_json())
    assert doc["stat_blocks"]["ogre"]["cr"] == "3"


def test_pick():
    scenarios = load_scenarios(ROOT / "scenarios" / "goblin-gang.yaml")
    assert pick(scenarios, "goblins-6").name == "goblins-6"
    with pytest.raises(ArenaError, match="choose one with --scenario: goblins-4, goblins-6, goblins-9"):
        pick(scenarios, None)
    with pytest.raises(ArenaError, match="did you mean .*goblins-6"):
        pick(scenarios, "goblins-7")


def test_json_schema():
    schema = Scenario.model_json_schema()
    text = json.dumps(schema)
    assert "monsters" in schema["properties"] and "focus-weakest" in text
    assert set(schema["required"]) == {"name", "party", "monsters"}


def test_the_example_in_the_docs_loads(tmp_path):
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    first, second = load_scenarios(path)
    assert [r.key for r in first.rule_sets()] == ["d20", "d20+prad", "3d6", "3d6+prad"]
    assert [c.name for c in first.party_members()] == ["fighter-4", "cleric-4", "ranger"]
    assert [(c.name, n) for c, n in first.monster_groups()] == [("ogre", 2), ("goblin", 3), ("goblin-shaman", 1)]
    assert first.creature_tactics()["ogre"] == TacticsSettings("focus-weakest", "when-better", "when-better")
    assert first.creature_tactics()["ranger"] == TacticsSettings("focus-threat", "when-better", "when-better")
    assert [r.key for r in second.rule_sets()] == ["d20", "3d6+prad+luck+open"]


def test_a_loaded_scenario_survives_pickling_for_workers(tmp_path, monkeypatch):
    """Workers get pickled scenarios: the resolved names travel with them (no re-reading relative paths)."""
    import pickle

    write(
        tmp_path,
        """
        {name: blob, type: ooze, cr: 1, hp: 10, hit_dice: 2d10, ac: 5, touch_ac: 5, flat_footed_ac: 5, bab: 1,
         grapple: 1, saves: {fort: 0, ref: 0, will: 0}}
    """,
        "d/blob.yaml",
    )
    (scenario,) = load_scenarios(
        write(
            tmp_path,
            """
        name: x
        party: {level: 2}
        monsters: [blob:2]
        bestiary: blob.yaml
    """,
            "d/s.yaml",
        )
    )
    monkeypatch.chdir(tmp_path)
    copy = pickle.loads(pickle.dumps(scenario))
    assert copy.digest() == scenario.digest()
    assert [(c.name, n) for c, n in copy.monster_groups()] == [("blob", 2)]
