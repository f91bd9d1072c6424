"""Your own policies from Python files named in a scenario (``policies:``): loaded before the tactics are read,
in this process and in every worker of a run; bad files get an error naming the scenario file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.combat import tactics
from arena.combat.engine import fight
from arena.combat.tactics import policy_files
from arena.rules import RuleSet
from arena.study.runs.in_memory import run
from arena.study.scenarios.loading import load_scenarios
from arena.world.yamlio import YamlValidationError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "custom-policy.yaml"


@pytest.fixture(autouse=True)
def registry():
    """Leave the policy registry as the test found it."""
    saved = dict(tactics.POLICIES), dict(tactics.TARGETING), set(policy_files._POLICY_FILES)
    yield
    for live, old in zip((tactics.POLICIES, tactics.TARGETING, policy_files._POLICY_FILES), saved, strict=True):
        live.clear()
        live.update(old)


def scenario_text(policy_line: str, policy: str = "toughest-first") -> str:
    return (
        f"name: mine\n{policy_line}party: {{level: 3}}\nmonsters: [orc:2]\ntactics:\n  monsters: {{policy: {policy}}}\n"
    )


def test_the_example_registers_its_policy_and_the_monsters_use_it():
    (scenario,) = load_scenarios(EXAMPLE, trust_policies=True)
    assert "toughest-first" in tactics.POLICIES
    rules = RuleSet.from_key("d20")
    result = fight(scenario.prepare("d20"), rules, 3, log=True)
    assert result.record.winner in ("party", "monsters", "draw")
    encounter = scenario.prepare("d20")
    assert {settings.policy for _, settings in encounter.monsters} == {"toughest-first"}


def test_the_policy_decides_the_targets(tmp_path):
    """A policy that always attacks the last enemy listed: every monster swing goes at that PC."""
    (tmp_path / "last.py").write_text(
        "from arena.combat.tactics import Action, NOTHING, register\n"
        "def last(view, creature):\n"
        "    enemies = view.reachable(creature)\n"
        "    return Action('attack', enemies[-1]) if enemies else NOTHING\n"
        "register('last-enemy', last)\n"
    )
    (tmp_path / "s.yaml").write_text(scenario_text("policies: last.py\n", "last-enemy"))
    (scenario,) = load_scenarios(tmp_path / "s.yaml", trust_policies=True)
    swings = []
    for seed in range(10):  # two orcs against a level-3 party rarely live to swing twice
        result = fight(scenario.prepare("d20"), RuleSet.from_key("d20"), seed, log=True)
        swings += [line for line in result.log if "] orc " in line and " vs " in line]
    assert len(swings) >= 3 and all(" vs rogue-3 " in line for line in swings)


def test_same_results_on_one_and_two_workers():
    """Workers load the scenario's policy file themselves: the rows match a single-process run."""
    one = run(EXAMPLE, n=40, rules=["d20", "3d6"], workers=1, chunk_size=10, trust_policies=True)
    two = run(EXAMPLE, n=40, rules=["d20", "3d6"], workers=2, chunk_size=10, trust_policies=True)
    assert one.equals(two)


def test_a_missing_policy_file_names_the_scenario_line(tmp_path):
    (tmp_path / "s.yaml").write_text(scenario_text("policies: [nowhere.py]\n"))
    with pytest.raises(YamlValidationError) as err:
        load_scenarios(tmp_path / "s.yaml", trust_policies=True)
    (problem,) = err.value.problems
    assert "s.yaml:2: policies.0: no such policy file 'nowhere.py'" in problem


def test_a_failing_policy_file_is_reported_not_raised(tmp_path):
    (tmp_path / "bad.py").write_text("raise RuntimeError('oops')\n")
    (tmp_path / "s.yaml").write_text(scenario_text("policies: [bad.py]\n"))
    with pytest.raises(YamlValidationError) as err:
        load_scenarios(tmp_path / "s.yaml", trust_policies=True)
    (problem,) = err.value.problems
    assert "s.yaml:2: policies.0: policy file" in problem and "RuntimeError: oops" in problem


def test_an_unregistered_policy_is_an_error_with_its_line(tmp_path):
    tactics.POLICIES.pop("toughest-first", None)  # another test may have loaded the example (restored after)
    (tmp_path / "s.yaml").write_text(scenario_text(""))
    with pytest.raises(YamlValidationError) as err:
        load_scenarios(tmp_path / "s.yaml", trust_policies=True)
    assert any("s.yaml:5: tactics.monsters.policy: unknown policy 'toughest-first'" in p for p in err.value.problems)


def first_problem(path: Path) -> str:
    """The first problem loading ``path`` reports (it must fail)."""
    with pytest.raises(YamlValidationError) as err:
        load_scenarios(path, trust_policies=True)
    return err.value.problems[0]


def write_policy(path: Path, name: str) -> None:
    path.write_text(
        "from arena.combat.tactics import attack_policy, register\n"
        "def policy(view, creature):\n"
        "    return attack_policy(view, creature)\n"
        f"register({name!r}, policy)\n"
    )


def test_two_files_cannot_register_the_same_name(tmp_path):
    """Which file won would depend on loading order, and so on which worker ran which scenario."""
    write_policy(tmp_path / "a.py", "mine")
    write_policy(tmp_path / "b.py", "mine")
    (tmp_path / "a.yaml").write_text(scenario_text("policies: a.py\n", "mine"))
    (tmp_path / "b.yaml").write_text(scenario_text("policies: b.py\n", "mine"))
    load_scenarios(tmp_path / "a.yaml", trust_policies=True)
    assert "b.yaml:2: policies.0: policy file 'b.py' registers 'mine', a name already taken by a.py" in first_problem(
        tmp_path / "b.yaml"
    )


def test_a_file_cannot_replace_a_built_in_policy(tmp_path):
    write_policy(tmp_path / "a.py", "random")
    (tmp_path / "a.yaml").write_text(scenario_text("policies: a.py\n", "random"))
    with pytest.raises(YamlValidationError, match="registers 'random', a name already taken"):
        load_scenarios(tmp_path / "a.yaml", trust_policies=True)
    assert tactics.POLICIES["random"] is tactics.attack_policy


def test_a_scenario_must_list_the_file_of_every_policy_it_uses(tmp_path):
    """Another scenario's file registered the name in this process, but a worker would not know it."""
    write_policy(tmp_path / "a.py", "mine")
    (tmp_path / "a.yaml").write_text(scenario_text("policies: a.py\n", "mine"))
    (tmp_path / "b.yaml").write_text(scenario_text("", "mine"))
    load_scenarios(tmp_path / "a.yaml", trust_policies=True)
    assert (
        "b.yaml:5: tactics.monsters: policy 'mine' comes from a.py, which this scenario does not list under "
        "policies:" in first_problem(tmp_path / "b.yaml")
    )


def test_a_policy_file_must_be_python_and_its_errors_name_the_line(tmp_path):
    (tmp_path / "p.txt").write_text("x = 1\n")
    (tmp_path / "s.yaml").write_text(scenario_text("policies: [p.txt]\n"))
    with pytest.raises(YamlValidationError, match=r"s.yaml:2: policies.0: policy file 'p.txt' is not a Python"):
        load_scenarios(tmp_path / "s.yaml", trust_policies=True)
    (tmp_path / "bad.py").write_text("import math\n\nx = undefined_name\n")
    (tmp_path / "s.yaml").write_text(scenario_text("policies: [bad.py]\n"))
    with pytest.raises(YamlValidationError, match=r"policy file bad.py:3 failed: NameError"):
        load_scenarios(tmp_path / "s.yaml", trust_policies=True)


def test_a_prepared_scenario_sent_to_a_fresh_process_loads_its_policies():
    import pickle

    (scenario,) = load_scenarios(EXAMPLE, trust_policies=True)
    scenario.prepare("d20")
    copy = pickle.loads(pickle.dumps(scenario))
    tactics.POLICIES.pop("toughest-first")  # as in a new worker: the name is unknown
    policy_files._POLICY_FILES.clear()
    encounter = copy.prepare("d20")
    assert "toughest-first" in tactics.POLICIES
    assert fight(encounter, RuleSet.from_key("d20"), 1).record.rounds >= 1
