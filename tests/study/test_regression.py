"""`arena check` suites and the pytest helpers."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from experiment_fakes import FakeScenario, FakeSimulator, cli_app
from typer.testing import CliRunner

from arena.errors import ArenaError
from arena.study.checks.assertions import assert_better, assert_equivalent, assert_win_rate
from arena.study.checks.suites import run_suite
from arena.study.runs.in_memory import run

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
app = cli_app()


@pytest.fixture(scope="module")
def frame():
    return run(FakeScenario(n=600, keys=("d20", "3d6", "d20+called")), simulator=FakeSimulator(0.1))


def test_pytest_helpers(frame):
    assert_win_rate(frame, "d20", 0.4, 0.6)
    with pytest.raises(AssertionError, match=r"win rate .* expected win rate in \[60.0%, 100.0%\]"):
        assert_win_rate(frame, "d20", 0.6, 1.0)
    assert_better(frame, "3d6", "d20")
    with pytest.raises(AssertionError, match="not shown better"):
        assert_better(frame, "d20", "3d6")
    assert_equivalent(frame, "d20", "d20+called", 0.02)  # the fake ignores called shots: identical results
    with pytest.raises(AssertionError, match="not shown equivalent"):
        assert_equivalent(frame, "d20", "3d6", 0.05)
    with pytest.raises(ArenaError, match="not in the results"):
        assert_win_rate(frame, "3d6+prad", 0, 1)


def _suite(tmp_path, body: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(body)
    return path


def test_run_suite_with_fakes(tmp_path):
    path = _suite(
        tmp_path,
        """\
defaults: {n: 300, seed: 5}
checks:
  - name: band
    file: fake.yaml
    win_rate: {rules: d20, min: 0.4, max: 0.6}
  - name: better
    file: fake.yaml
    better: {rules: 3d6, than: d20}
  - name: too strict
    file: fake.yaml
    n: 100
    win_rate: {rules: 3d6, min: 0.9, max: 1.0}
""",
    )
    (tmp_path / "fake.yaml").write_text("placeholder: the loader below does not read it\n")
    calls = []

    def loader(p):
        calls.append(p)
        return [FakeScenario()]

    verdicts = run_suite(path, simulator=FakeSimulator(), loader=loader)
    assert [v.passed for v in verdicts] == [True, True, False]
    assert [v.n for v in verdicts] == [300, 300, 100] and len(calls) == 1


def test_check_cli_pass_and_fail(tmp_path):
    duel = ROOT / "scenarios" / "duel.yaml"
    good = _suite(
        tmp_path,
        f"""\
checks:
  - name: fighter beats orc
    file: {duel}
    n: 150
    seed: 1
    win_rate: {{rules: d20, min: 0.5, max: 1.0}}
""",
    )
    result = runner.invoke(app, ["check", str(good)])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("min: 0.5, max: 1.0", "min: 0.0, max: 0.1"))
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1 and "0 passed, 1 failed" in result.stdout


@pytest.mark.parametrize(
    "body,message",
    [
        ("checks:\n  - name: x\n    file: duel.yaml\n", r"suite.yaml:2: checks.0: give exactly one of"),
        (
            "checks:\n  - name: x\n    file: duel.yaml\n    win_rate: {rules: d21}\n",
            r"suite.yaml:4: checks.0.win_rate.rules: rule set 'd21': unknown die",
        ),
        (
            "checks:\n  - name: x\n    file: duel.yaml\n    win_rate: {rules: d20, min: 0.9, max: 0.1}\n",
            r"suite.yaml:4: checks.0.win_rate: min \(0.9\) is above max",
        ),
        (
            "checks:\n  - name: x\n    file: nowhere.yaml\n    better: {rules: 3d6, than: d20}\n",
            r"suite.yaml:3: checks.0.file: no such scenario file",
        ),
        ("checks: []\n", r"suite.yaml:1: checks"),
        (
            "checks:\n  - name: x\n    file: duel.yaml\n    nn: 3\n    better: {rules: 3d6, than: d20}\n",
            r"suite.yaml:4: checks.0.nn: unknown field",
        ),
    ],
)
def test_malformed_suite_names_file_line_field(tmp_path, body, message):
    (tmp_path / "duel.yaml").write_text((ROOT / "scenarios" / "duel.yaml").read_text())
    path = _suite(tmp_path, body)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")

    assert re.search(message, result.stderr), result.stderr


def test_example_suite_is_valid():
    from arena.study.checks.suites import load_suite

    suite, _ = load_suite(ROOT / "scenarios" / "regression-suite.yaml")
    assert len(suite.checks) >= 3
    for check in suite.checks:
        assert (ROOT / "scenarios" / check.file).exists()


# --------------------------------------------------------------------------------------------- what a fight costs
def test_outcome_helpers_on_the_fake(frame):
    from arena.study.checks.assertions import assert_outcome, evaluate_outcome

    v = evaluate_outcome(frame, "rounds", "d20", 0, 6)
    assert v.measured.startswith("rounds ") and v.expected == "rounds at most 6.00" and v.passed
    assert_outcome(frame, "rounds", "3d6", 2.0)
    with pytest.raises(AssertionError, match=r"rounds .*, expected rounds in \[9.00, 10.00\]"):
        assert_outcome(frame, "rounds", "d20", 9, 10)
    assert_outcome(frame, "hp_lost", "d20", 0.0, 0.5)
    with pytest.raises(ArenaError, match="no column 'downs_monsters'"):
        assert_outcome(frame, "dropped", "d20", 0, 1)
    with pytest.raises(ArenaError, match="unknown outcome 'round'; did you mean rounds"):
        assert_outcome(frame, "round", "d20", 0, 1)


def test_an_outcome_interval_stays_within_what_the_measure_can_be():
    """The normal interval of a share of hit points is cut at 0% and 100% (a party wiped in most fights)."""
    from arena.study.checks.assertions import evaluate_outcome

    wiped = pd.DataFrame({"scenario": "s", "rules": "d20", "party_hp_lost": [1.0, 1.0, 1.0, 0.8]})
    assert evaluate_outcome(wiped, "hp_lost", "d20", 0.5, None).measured == (
        "hit points lost 95.0% (95% CI 85.2% to 100.0%)"
    )
    spared = pd.DataFrame({"scenario": "s", "rules": "d20", "party_hp_lost": [0.0, 0.0, 0.0, 0.2]})
    measured = evaluate_outcome(spared, "hp_lost", "d20", 0.0, 0.5).measured
    assert measured == "hit points lost 5.0% (95% CI 0.0% to 14.8%)"


def _costs_suite(tmp_path, hp_band: str, rounds_band: str) -> Path:
    duel = ROOT / "scenarios" / "duel.yaml"
    return _suite(
        tmp_path,
        f"""\
defaults: {{n: 100, seed: 1}}
checks:
  - name: the duel costs the fighter a quarter of his hit points
    file: {duel}
    hp_lost: {{rules: d20, {hp_band}}}
  - name: the duel is over in two rounds
    file: {duel}
    rounds: {{rules: d20, {rounds_band}}}
""",
    )


def test_check_cli_hit_points_lost_and_rounds_pass(tmp_path):
    result = runner.invoke(app, ["check", str(_costs_suite(tmp_path, "min: 0.15, max: 0.35", "max: 2")), "--json"])
    assert result.exit_code == 0, result.output
    import json

    doc = json.loads(result.stdout)
    assert [(c["measured"], c["expected"], c["passed"]) for c in doc["checks"]] == [
        ("hit points lost 23.8% (95% CI 16.3% to 31.4%)", "hit points lost in [15.0%, 35.0%]", True),
        ("rounds 1.63 (95% CI 1.44 to 1.82)", "rounds at most 2.00", True),
    ]


def test_check_cli_hit_points_lost_and_rounds_fail(tmp_path):
    result = runner.invoke(app, ["check", str(_costs_suite(tmp_path, "max: 0.1", "min: 3, max: 5")), "--json"])
    assert result.exit_code == 1, result.output
    import json

    doc = json.loads(result.stdout)
    assert doc["failed"] == 2
    assert [(c["expected"], c["passed"]) for c in doc["checks"]] == [
        ("hit points lost at most 10.0%", False),
        ("rounds in [3.00, 5.00]", False),
    ]


@pytest.mark.parametrize(
    "band,message",
    [
        ("hp_lost: {rules: d20, max: 1.5}", r"suite.yaml:4: checks.0.hp_lost.max: Input should be less than or equal"),
        ("rounds: {rules: d20, min: 5, max: 3}", r"suite.yaml:4: checks.0.rounds: min \(5\) is above max \(3\)"),
        ("deaths: {rules: d20, mx: 1}", r"suite.yaml:4: checks.0.deaths.mx: unknown field"),
        ("dropped: {rules: d21}", r"suite.yaml:4: checks.0.dropped.rules: rule set 'd21': unknown die"),
        ("rounds: {rules: d20, max: 1" + "0" * 400 + "}", r"suite.yaml:4: checks.0.rounds.max: Input should be"),
    ],
)
def test_malformed_outcome_bands_name_file_line_field(tmp_path, band, message):
    (tmp_path / "duel.yaml").write_text((ROOT / "scenarios" / "duel.yaml").read_text())
    path = _suite(tmp_path, f"checks:\n  - name: x\n    file: duel.yaml\n    {band}\n")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2, result.output
    assert re.search(message, result.stderr), result.stderr
