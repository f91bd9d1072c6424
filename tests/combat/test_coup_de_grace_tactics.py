"""The ``coup_de_grace`` tactic per side and per creature (a scenario's ``tactics:``), over the model's option.

Issue 24, finding 2: "Which monsters finish a helpless PC before fighting the PCs still standing is a tactic, not a
rule: make it a named choice". The model's ``coup_de_grace`` option sets it for every creature (``by-creature``, the
DM's default, :func:`arena.combat.tactics.view.coup_style`); a scenario's ``tactics`` set it for a side or one
creature: the creature's own setting wins over its side's, which wins over the model's option. Each creature's
style is worked out once, when it joins the fight (:attr:`arena.combat.combatant.Combatant.coup`).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from arena.combat.engine import Fight, prepare
from arena.combat.tactics import COUP_DE_GRACE, TacticsSettings
from arena.errors import ArenaError
from arena.rules import RuleSet
from arena.study.scenarios.loading import load_scenarios
from arena.study.scenarios.scenario import Scenario
from arena.world.bestiary import get_creature
from arena.world.party import generate_party
from arena.world.yamlio import YamlValidationError


def scenario(tmp_path: Path, text: str) -> Scenario:
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    (loaded,) = load_scenarios(path)
    return loaded


def mummies(tmp_path: Path, extra: str = "") -> Fight:
    """The issue's mummies (``party: {level: 5}``, ``monsters: [mummy:2]``, seed 5), with ``extra`` lines."""
    sc = scenario(tmp_path, "name: mummies\nparty: {level: 5}\nmonsters: [mummy:2]\n" + extra)
    f = Fight(sc.prepare("d20"), RuleSet.from_key("d20"), 5, log=True)
    f.run()
    return f


def coups(f: Fight) -> list[str]:
    assert f.lines is not None
    return [line for line in f.lines if "delivers a coup de grace" in line]


def test_the_mummy_set_to_after_threats_fights_the_standing_pcs_first(tmp_path):
    """By default a mummy (an undead of Intelligence 6) is ruthless: despair paralyses the cleric and the rogue and
    mummy 2 kills the cleric beside the standing fighter in round 2. Set to ``after-threats`` for the mummy alone,
    neither mummy delivers a coup de grace while the fighter stands: the paralysed cleric lives."""
    ruthless = mummies(tmp_path)
    assert [m.coup for m in ruthless.monsters] == ["ruthless", "ruthless"]
    assert any("[r2] mummy 2 delivers a coup de grace to cleric-5" in line for line in coups(ruthless))
    cleric = next(c for c in ruthless.pcs if c.name == "cleric-5")
    assert cleric.dead

    patient = mummies(tmp_path, "tactics: {creatures: {mummy: {coup_de_grace: after-threats}}}\n")
    assert [m.coup for m in patient.monsters] == ["after-threats", "after-threats"]
    assert not coups(patient)
    cleric = next(c for c in patient.pcs if c.name == "cleric-5")
    assert not cleric.dead


def test_a_side_setting_overrides_the_model_option(tmp_path):
    """``model: {coup_de_grace: ruthless}`` with ``tactics: {monsters: {coup_de_grace: never}}``: no coup de grace
    (the side's setting wins); the party, with no setting of its own, follows the model's option."""
    f = mummies(tmp_path, "model: {coup_de_grace: ruthless}\ntactics: {monsters: {coup_de_grace: never}}\n")
    assert {m.coup for m in f.monsters} == {"never"}
    assert {c.coup for c in f.pcs} == {"ruthless"}
    assert not coups(f)


def test_the_creature_setting_overrides_its_side(tmp_path):
    """``monsters: never`` but ``mummy: ruthless``: the mummies are ruthless again (the round-2 coup de grace)."""
    f = mummies(
        tmp_path, "tactics: {monsters: {coup_de_grace: never}, creatures: {mummy: {coup_de_grace: ruthless}}}\n"
    )
    assert {m.coup for m in f.monsters} == {"ruthless"}
    assert any("[r2] mummy 2 delivers a coup de grace to cleric-5" in line for line in coups(f))


def test_by_creature_per_creature_and_the_rest_of_the_side(tmp_path):
    """A per-creature setting touches that creature only: the others of its side keep the side's (here the model's
    ``by-creature`` default: a wolf never, an ogre after-threats), and ``by-creature`` named in the tactics picks by
    the creature even under another model option."""
    sc = scenario(
        tmp_path,
        """
        name: mixed
        party: {level: 5}
        monsters: [mummy, ogre, wolf]
        model: {coup_de_grace: never}
        tactics:
          monsters: {coup_de_grace: by-creature}
          creatures: {mummy: {coup_de_grace: after-threats}, fighter-5: {coup_de_grace: ruthless}}
        """,
    )
    f = Fight(sc.prepare("d20"), RuleSet.from_key("d20"), 1, log=False)
    assert {m.name: m.coup for m in f.monsters} == {"mummy": "after-threats", "ogre": "after-threats", "wolf": "never"}
    assert {c.name: c.coup for c in f.pcs} == {
        "fighter-5": "ruthless",
        "cleric-5": "never",
        "rogue-5": "never",
        "wizard-5": "never",
    }


def test_a_bad_value_names_the_file_line_and_field(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: x\nparty: {level: 1}\nmonsters: [goblin:2]\ntactics:\n"
        "  monsters: {coup_de_grace: sometimes}\n"
        "  creatures:\n    goblin: {coup_de_grace: ruthles}\n",
        encoding="utf-8",
    )
    with pytest.raises(YamlValidationError) as info:
        load_scenarios(path)
    found = [p.replace(str(path), "s.yaml") for p in info.value.problems]
    assert found[0].startswith("s.yaml:5: tactics.monsters.coup_de_grace: unknown coup_de_grace setting 'sometimes'")
    assert found[1].startswith("s.yaml:7: tactics.creatures.goblin.coup_de_grace: ")
    assert "'ruthles'" in found[1] and "ruthless" in found[1]


def test_the_engine_settings_check_the_value_too():
    assert COUP_DE_GRACE == ("by-creature", "ruthless", "after-threats", "never")
    assert TacticsSettings().coup_de_grace is None  # the model's option decides
    with pytest.raises(ArenaError, match="coup_de_grace must be one of"):
        TacticsSettings(coup_de_grace="merciful")


def test_the_setting_is_in_the_manifest_contents_only_when_given(tmp_path):
    """A run's manifest holds the scenario as written (``model_dump``): the setting shows when given; a scenario
    without it dumps (and digests) as before the field existed."""
    given = scenario(
        tmp_path, "name: x\nparty: {level: 1}\nmonsters: [goblin]\ntactics: {monsters: {coup_de_grace: never}}\n"
    )
    assert given.model_dump(mode="json")["tactics"]["monsters"]["coup_de_grace"] == "never"
    plain = scenario(tmp_path, "name: x\nparty: {level: 1}\nmonsters: [goblin]\n")
    dumped = plain.model_dump(mode="json")["tactics"]
    assert all("coup_de_grace" not in spec for spec in (dumped["party"], dumped["monsters"]))
    assert '"tactics":{"creatures":{},"monsters":{"called_shot":null,"policy":null,"press_luck":null}' in (
        plain.canonical_json()
    )


def test_the_docs_example_loads_and_sets_what_it_says(tmp_path):
    """docs/scenarios.md's ``coup_de_grace`` example: the mummies ``after-threats``, the ogre ``never``."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = next(block for block in text.split("```yaml\n")[1:] if "coup_de_grace" in block.split("```")[0])
    path = tmp_path / "example.yaml"
    path.write_text(example.split("```")[0], encoding="utf-8")
    (sc,) = load_scenarios(path)
    f = Fight(sc.prepare("d20"), RuleSet.from_key("d20"), 1, log=False)
    assert {m.name: m.coup for m in f.monsters} == {
        "mummy 1": "after-threats",
        "mummy 2": "after-threats",
        "ogre": "never",
    }


@pytest.mark.parametrize(("side", "lemure"), [(None, "never"), ("ruthless", "ruthless")])
def test_a_summoned_creature_is_set_up_by_its_own_intelligence_and_its_summoners_tactics(side, lemure):
    """A bearded devil's lemures (SRD: "summon 2d10 lemures with a 50% chance of success") join with a style of their
    own, worked out as they join: mindless (Int "-"), they never deliver one by the creature; the devil's side's
    ``ruthless`` is theirs too."""
    settings = TacticsSettings(coup_de_grace=side)
    encounter = prepare(generate_party(5), [(get_creature("bearded-devil"), 1)], monster_tactics=settings)
    joined = []
    for seed in range(12):
        f = Fight(encounter, RuleSet.from_key("d20"), seed, log=False)
        f.run()
        joined += f.monsters[1:]
    assert joined and {m.t.creature.name for m in joined} == {"lemure"}
    assert {m.coup for m in joined} == {lemure}
