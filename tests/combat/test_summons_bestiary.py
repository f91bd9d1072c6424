"""Summoned creatures come from the fight's own bestiary, an unknown summoned name is an error where it is written,
and the limit of one fight holds for summoned creatures too (issue 22, finding 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.combat.engine import Fight
from arena.errors import ArenaError
from arena.limits import MAX_COMBATANTS
from arena.rules import RuleSet
from arena.study.scenarios.loading import load_scenarios
from arena.world.bestiary import check_files
from arena.world.yamlio import YamlValidationError

RAT_CALLER = """\
- name: rat-caller
  type: humanoid
  cr: 1
  hp: 11
  hit_dice: 2d8+2
  ac: 12
  touch_ac: 11
  flat_footed_ac: 11
  bab: 1
  grapple: 1
  saves: {fort: 3, ref: 1, will: 0}
  attack:
    - - {name: dagger, bonuses: [2], damage: 1d4, damage_types: [piercing]}
  summon: {creature: SUMMONED, count: 1d4, chance: 1.0, uses: 10}
- name: my-rat
  type: animal
  size: tiny
  cr: 1/8
  hp: 4
  hit_dice: 1d8
  ac: 14
  touch_ac: 14
  flat_footed_ac: 12
  bab: 0
  grapple: -12
  saves: {fort: 2, ref: 4, will: 1}
  attack:
    - - {name: bite, bonuses: [4], damage: 1d3-1, damage_types: [piercing]}
"""


def files(
    tmp_path: Path,
    summoned: str = "my-rat",
    count: int = 1,
    level: int = 3,
    inline_bestiary: bool = True,
    sturdy: bool = False,
) -> Path:
    """The rat-caller's bestiary and a scenario; ``sturdy``: a rat-caller of 40 hp, which lives to see its rats
    join (with 11 hp the party can drop both callers in round 1, before the rats join at its end)."""
    text = RAT_CALLER.replace("SUMMONED", summoned)
    if sturdy:
        text = text.replace("hp: 11\n  hit_dice: 2d8+2", "hp: 40\n  hit_dice: 8d8+4")
    (tmp_path / "mine.yaml").write_text(text)
    bestiary = "bestiary: [mine.yaml]\n" if inline_bestiary else ""
    path = tmp_path / "s.yaml"
    path.write_text(f"name: rats\nparty: {{level: {level}}}\nmonsters: [rat-caller:{count}]\n{bestiary}")
    return path


def fought(path: Path, seed: int = 1, **kwargs) -> Fight:
    (scenario,) = load_scenarios(path, **kwargs)
    fight = Fight(scenario.prepare("d20"), RuleSet.from_key("d20"), seed, True)
    fight.run()
    return fight


@pytest.mark.parametrize("how", ["scenario-bestiary", "--bestiary"])
def test_a_creature_of_the_fights_own_bestiary_can_be_summoned(tmp_path, how):
    """Before: "rat-caller: no stat block for 'my-rat': nothing comes" (the summoning looked only at the built-ins)."""
    inline = how == "scenario-bestiary"
    path = files(tmp_path, count=2, inline_bestiary=inline, sturdy=True)
    fight = fought(path, **({} if inline else {"bestiary": [tmp_path / "mine.yaml"]}))
    assert any("my-rat join the fight, summoned by rat-caller" in line for line in fight.lines)
    assert not any("nothing comes" in line for line in fight.lines)
    joined = [c for c in fight.monsters if c.t.creature.name == "my-rat"]
    assert joined and all("summon" not in c.t.ability_data for c in joined)


def test_a_summoned_name_no_bestiary_holds_is_an_error_at_the_monster(tmp_path):
    path = files(tmp_path, summoned="my-ratt")
    with pytest.raises(
        YamlValidationError,
        match=r"s.yaml:3: monsters.0: rat-caller summons 'my-ratt': unknown "
        r"creature 'my-ratt'; did you mean my-rat",
    ):
        load_scenarios(path)


def test_bestiary_validate_refuses_an_unknown_summoned_name_at_its_line(tmp_path):
    files(tmp_path, summoned="my-ratt")
    checked, problems = check_files([tmp_path / "mine.yaml"])
    assert checked == 2
    assert len(problems) == 1
    assert problems[0].endswith(
        "mine.yaml:14: 0.summon.creature: unknown creature 'my-ratt'; did you mean my-rat, rat, rast?"
    )
    files(tmp_path)
    assert check_files([tmp_path / "mine.yaml"]) == (2, [])


def test_summons_respect_the_limit_of_creatures_in_one_fight(tmp_path):
    """Before: `rat-caller:100` put 8,104 creatures in one fight."""
    path = files(tmp_path, count=100, level=20)
    fight = fought(path)
    assert len(fight.pcs) + len(fight.monsters) == MAX_COMBATANTS
    assert any(f"cannot join: a fight holds at most {MAX_COMBATANTS} creatures" in line for line in fight.lines)


def test_the_summoned_stat_block_is_part_of_the_scenarios_identity(tmp_path):
    """A run's digest covers what the fight can summon, so two runs with different summoned stat blocks never
    share a result."""
    (first,) = load_scenarios(files(tmp_path))
    (tmp_path / "mine.yaml").write_text(RAT_CALLER.replace("SUMMONED", "my-rat").replace("hp: 4", "hp: 5"))
    (second,) = load_scenarios(tmp_path / "s.yaml")
    assert first.digest() != second.digest()


def test_calibrate_with_your_bestiary_summons_from_it(tmp_path):
    """`arena calibrate rat-caller --bestiary mine.yaml`: the carried stat block's summoned creature travels with
    the matchup (a worker's built-in bestiary does not hold it), and is part of the matchup's identity."""
    from arena.study.calibration.calibrate import CalibrationCell, calibration_subject

    files(tmp_path, sturdy=True)
    name, stat_block, summoned = calibration_subject("rat-caller", [tmp_path / "mine.yaml"])
    assert name == "rat-caller" and stat_block is not None and summoned is not None and summoned.name == "my-rat"
    cell = CalibrationCell(3, name, 2, ("d20",), stat_block, summoned)
    matchup = cell.subject(5, 1)
    fight = Fight(matchup.prepare("d20"), RuleSet.from_key("d20"), 1, True)
    fight.run()
    assert any("my-rat join the fight, summoned by rat-caller" in line for line in fight.lines)
    alone = CalibrationCell(3, name, 2, ("d20",), stat_block).subject(5, 1)
    assert alone.stat_block_digest() != matchup.stat_block_digest()
    files(tmp_path, summoned="my-ratt")
    with pytest.raises(ArenaError, match="unknown creature 'my-ratt'"):
        calibration_subject("rat-caller", [tmp_path / "mine.yaml"])
