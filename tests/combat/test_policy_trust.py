"""Policy files are someone's Python code: they run only when the user says so, only after the scenario validated,
only from the scenario's folder (or a trusted one), and whatever they do wrong fails their encounter with their
name, file and line (issue: hostile input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.combat import tactics
from arena.combat.engine import fight
from arena.combat.tactics import NOTHING, Action, policy_files
from arena.combat.tactics.policy_guard import PolicyError, guarded
from arena.errors import ArenaError
from arena.rules import RuleSet
from arena.study.scenarios.loading import load_scenarios
from arena.world.yamlio import YamlValidationError


@pytest.fixture(autouse=True)
def registry(monkeypatch, tmp_path):
    """Leave the policy registry as the test found it, and use no settings file of the machine's."""
    monkeypatch.setenv("ARENA_CONFIG", str(tmp_path / "no-config.yaml"))
    saved = (
        dict(tactics.POLICIES),
        dict(tactics.TARGETING),
        set(policy_files._POLICY_FILES),
        dict(policy_files.POLICY_SOURCES),
    )
    yield
    for live, old in zip(
        (tactics.POLICIES, tactics.TARGETING, policy_files._POLICY_FILES, policy_files.POLICY_SOURCES),
        saved,
        strict=True,
    ):
        live.clear()
        live.update(old)


def policy_file(path: Path, body: str, name: str = "mine", marker: Path | None = None) -> Path:
    """A policy file whose decision runs ``body``; with ``marker``, loading it writes that file (proof it ran)."""
    touch = f"open({str(marker)!r}, 'w').write('ran')\n" if marker else ""
    path.write_text(
        "from arena.combat.tactics import Action, NOTHING, register\n"
        f"{touch}"
        "def decide(view, creature):\n"
        f"    {body}\n"
        f"register({name!r}, decide)\n"
    )
    return path


def scenario(path: Path, policy_path: str, extra: str = "") -> Path:
    path.write_text(
        f"name: s\npolicies: [{policy_path}]\nparty: {{level: 3}}\nmonsters: [orc:2]\n"
        f"tactics:\n  monsters: {{policy: mine}}\n{extra}"
    )
    return path


def test_policy_files_do_not_run_without_trust(tmp_path):
    marker = tmp_path / "ran"
    policy_file(tmp_path / "p.py", "return NOTHING", marker=marker)
    with pytest.raises(
        YamlValidationError,
        match=r"s.yaml:2: policies.0: 'p.py' is Python code and runs only when "
        r"you trust it: add --trust-policies",
    ):
        load_scenarios(scenario(tmp_path / "s.yaml", "p.py"))
    assert not marker.exists()


def test_trusted_files_run_after_they_are_announced(tmp_path):
    marker = tmp_path / "ran"
    policy_file(tmp_path / "p.py", "return NOTHING", marker=marker)
    said = []
    (sc,) = load_scenarios(
        scenario(tmp_path / "s.yaml", "p.py"),
        trust_policies=True,
        on_policy=lambda paths: said.append((paths, marker.exists())),
    )
    assert said and said[0][1] is False and said[0][0][0].endswith("p.py")  # announced before it ran
    assert marker.exists() and "mine" in tactics.POLICIES


def test_an_invalid_scenario_runs_no_code_even_when_trusted(tmp_path):
    marker = tmp_path / "ran"
    policy_file(tmp_path / "p.py", "return NOTHING", marker=marker)
    with pytest.raises(YamlValidationError, match="round_cap"):
        load_scenarios(scenario(tmp_path / "s.yaml", "p.py", "round_cap: -1\n"), trust_policies=True)
    assert not marker.exists()


@pytest.mark.parametrize("where", ["../outside.py", "ABSOLUTE"])
def test_a_file_outside_the_scenario_folder_needs_a_trusted_folder(tmp_path, monkeypatch, where):
    home = tmp_path / "scenarios"
    home.mkdir()
    marker = tmp_path / "ran"
    outside = policy_file(tmp_path / "outside.py", "return NOTHING", marker=marker)
    shown = str(outside) if where == "ABSOLUTE" else where
    path = scenario(home / "s.yaml", shown)
    with pytest.raises(YamlValidationError, match="outside the scenario's folder"):
        load_scenarios(path, trust_policies=True)
    assert not marker.exists()
    config = tmp_path / "config.yaml"
    config.write_text(f"trusted_policy_folders: [{tmp_path}]\n")
    monkeypatch.setenv("ARENA_CONFIG", str(config))
    load_scenarios(path)  # a trusted folder is the user's say-so: no flag needed
    assert marker.exists()


def test_a_bad_settings_file_names_its_line(tmp_path, monkeypatch):
    policy_file(tmp_path / "p.py", "return NOTHING")
    config = tmp_path / "config.yaml"
    config.write_text("trusted_policy_folder: [x]\n")
    monkeypatch.setenv("ARENA_CONFIG", str(config))
    with pytest.raises(ArenaError, match=r"config.yaml:1: trusted_policy_folder: unknown field"):
        load_scenarios(scenario(tmp_path / "s.yaml", "p.py"), trust_policies=True)


def test_a_policy_file_that_exits_while_loading_is_an_error(tmp_path):
    (tmp_path / "p.py").write_text("import sys\nsys.exit(0)\n")
    with pytest.raises(YamlValidationError, match=r"policy file p.py:2 failed: called sys.exit\(0\)"):
        load_scenarios(scenario(tmp_path / "s.yaml", "p.py"), trust_policies=True)


@pytest.mark.parametrize(
    "body, problem",
    [
        ("raise ValueError('boom')", r"\(.*p.py:3\) raised ValueError: boom"),
        ("import sys; sys.exit(0)", r"\(.*p.py:3\) called sys.exit\(0\)"),
        ("return None", r"returned NoneType None, not an Action"),
        ("return Action('dance')", r"returned an action of unknown kind 'dance'"),
        ("return Action('attack', 'the orc')", r"returned an attack action whose target is a str, not a creature"),
        ("return Action('cast', spell='wish', level=9)", r"cast 'wish', which is not a spell the engine knows"),
        ("return Action('breath', targets=[])", r"breathed without a breath weapon ready"),
        ("return Action('web', view.enemies(creature)[0])", r"threw a web without a web"),
        ("return Action('trample', targets=view.enemies(creature))", r"trampled without a trample"),
    ],
)
def test_a_failing_policy_fails_its_encounter_with_its_name_file_and_line(tmp_path, body, problem):
    policy_file(tmp_path / "p.py", body)
    (sc,) = load_scenarios(scenario(tmp_path / "s.yaml", "p.py"), trust_policies=True)
    with pytest.raises(
        PolicyError,
        match=rf"policy 'mine' {problem}" if problem.startswith(r"\(") else rf"policy 'mine' \(.*p.py:2\) {problem}",
    ):
        for seed in range(20):  # the orcs must live long enough to act in one of these
            fight(sc.prepare("d20"), RuleSet.from_key("d20"), seed)


def test_a_policy_that_loops_is_stopped_at_its_time_limit():
    def endless(view, creature):
        while True:
            pass

    policy = guarded("spin", endless, seconds=0.2)
    with pytest.raises(PolicyError, match=r"policy 'spin' \(.*test_policy_trust.py:\d+\) took longer than 0.2 s"):
        policy(None, None)


def test_a_policy_cannot_swallow_its_time_limit():
    def stubborn(view, creature):
        while True:
            try:
                while True:
                    pass
            except Exception:  # noqa: S112 (the point of the test)
                continue

    with pytest.raises(PolicyError, match="took longer than"):
        guarded("stubborn", stubborn, seconds=0.2)(None, None)


def test_a_guarded_policy_that_behaves_costs_nothing_in_results(tmp_path):
    """The guard changes no result: a file policy that defers to the built-in gives the built-in's fight."""
    policy_file(
        tmp_path / "p.py", "from arena.combat.tactics import attack_policy; return attack_policy(view, creature)"
    )
    (mine,) = load_scenarios(scenario(tmp_path / "s.yaml", "p.py"), trust_policies=True)
    (tmp_path / "b.yaml").write_text(
        "name: s\nparty: {level: 3}\nmonsters: [orc:2]\ntactics:\n  monsters: {policy: focus-weakest}\n"
    )
    (builtin,) = load_scenarios(tmp_path / "b.yaml")
    rules = RuleSet.from_key("d20")
    for seed in range(5):
        ours = fight(mine.prepare("d20"), rules, seed).record.as_row()
        assert ours == fight(builtin.prepare("d20"), rules, seed).record.as_row()


def test_run_names_the_failing_encounter(tmp_path):
    from arena.study.runs.experiment import run_experiment

    policy_file(
        tmp_path / "p.py",
        "if view.round >= 2: raise RuntimeError('round two')\n"
        "    from arena.combat.tactics import attack_policy\n"
        "    return attack_policy(view, creature)",
    )
    (sc,) = load_scenarios(scenario(tmp_path / "s.yaml", "p.py", "rules: [d20]\nn: 40\n"), trust_policies=True)
    with pytest.raises(
        PolicyError,
        match=r"encounter \d+ \(engine seed \d+\) of scenario 's' under d20 failed: "
        r"policy 'mine' \(.*p.py:3\) raised RuntimeError: round two",
    ):
        run_experiment([sc], tmp_path / "out")
    assert not (tmp_path / "out" / "encounters.parquet").exists()


def test_actions_the_guard_accepts():
    from arena.combat.tactics.policy_guard import _check_action

    assert _check_action(NOTHING, None, None) is None
    assert _check_action(Action("attack"), None, None) is None


# --- the settings file cannot make trust depend on the current folder (issue 22, finding 1)
@pytest.mark.parametrize("entry", ["policies", '""', '"."', "./policies", "policies/.."])
def test_a_relative_trusted_folder_is_an_error_naming_file_line_and_field(tmp_path, monkeypatch, entry):
    """`trusted_policy_folders: [policies]` once trusted ``./policies`` of whatever folder a command ran in, so a
    cloned repository's policies/evil.py ran untrusted; now the entry is refused where it is written."""
    clone = tmp_path / "some-clone"
    (clone / "policies").mkdir(parents=True)
    marker = tmp_path / "ran"
    policy_file(clone / "policies" / "evil.py", "return NOTHING", marker=marker)
    config = tmp_path / "config.yaml"
    config.write_text(f"# mine\ntrusted_policy_folders:\n  - /srv/d20/policies\n  - {entry}\n")
    monkeypatch.setenv("ARENA_CONFIG", str(config))
    monkeypatch.chdir(clone)
    with pytest.raises(
        ArenaError,
        match=r"config.yaml:4: trusted_policy_folders.1: .* is a relative folder: "
        r"trusted folders must be absolute",
    ):
        load_scenarios(scenario(clone / "scen.yaml", "policies/evil.py"))
    assert not marker.exists()


def test_a_relative_xdg_config_home_is_ignored(tmp_path, monkeypatch):
    """The XDG spec: a relative $XDG_CONFIG_HOME is invalid and ignored, so a repository cannot trust itself by
    holding ``d20-arena/config.yaml`` and being the folder a command runs in."""
    from arena.world.config import config_path

    clone = tmp_path / "some-clone"
    (clone / "d20-arena").mkdir(parents=True)
    marker = tmp_path / "ran"
    policy_file(clone / "evil.py", "return NOTHING", marker=marker)
    (clone / "d20-arena" / "config.yaml").write_text(f"trusted_policy_folders: [{clone}]\n")
    monkeypatch.delenv("ARENA_CONFIG")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for relative in (".", "some-clone/..", ""):
        monkeypatch.setenv("XDG_CONFIG_HOME", relative)
        monkeypatch.chdir(clone)
        assert config_path() == tmp_path / "home" / ".config" / "d20-arena" / "config.yaml"
        with pytest.raises(YamlValidationError, match="runs only when you trust it"):
            load_scenarios(scenario(clone / "scen.yaml", "evil.py"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(clone))  # an absolute one is the user's say-so
    load_scenarios(scenario(clone / "scen.yaml", "evil.py"))
    assert marker.exists()


def test_a_relative_arena_config_is_an_error(monkeypatch, tmp_path):
    from arena.world.config import config_path

    monkeypatch.setenv("ARENA_CONFIG", "config.yaml")
    with pytest.raises(ArenaError, match="ARENA_CONFIG='config.yaml': the settings file must be named by an absolute"):
        config_path()


def test_trusted_folders_are_resolved_once_from_home(tmp_path, monkeypatch):
    """``~/x`` is the user's home folder, whatever the current folder; the result is absolute and resolved."""
    from arena.world.config import trusted_policy_folders

    config = tmp_path / "config.yaml"
    config.write_text("trusted_policy_folders: [~/d20/policies, /srv/../srv/x]\n")
    monkeypatch.setenv("ARENA_CONFIG", str(config))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert trusted_policy_folders() == [(tmp_path / "home" / "d20" / "policies").resolve(), Path("/srv/x")]
