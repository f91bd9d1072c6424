"""The command line's conventions: --version and completion, choices as enums, one error line without the
validation library's wording, tables whole in a pipe, --json where a table is printed, --bestiary on the commands
that take a creature name, "did you mean" on misspelt fields, and colour only on a terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cpu_limits
import pytest
from stat_blocks import BOG_HAG

ROOT = Path(__file__).resolve().parents[2]
HAG = BOG_HAG


def arena(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m arena ARGS` in a child with 30 s of CPU time (the commands here use 1-3 s)."""
    return cpu_limits.run(
        [sys.executable, "-m", "arena", *args],
        cpu=30,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": ""},
    )


def test_version_and_completion():
    from arena import __version__
    from arena.engine_build import describe

    done = arena("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"d20 Arena {__version__} (fight engine: {describe()})"
    assert describe() in ("compiled with mypyc", "pure Python")
    assert "--install-completion" in arena("--help").stdout


@pytest.mark.parametrize(
    "args, shown",
    [
        (["el", "troll", "--die", "d21"], "--die: 'd21' is not one of"),
        (["party", "--level", "3", "--die", "d12"], "--die: 'd12' is not one of"),
        (["report", "results", "--format", "pdf"], "--format: 'pdf' is not one of 'md', 'html'"),
        (["odds", "attack", "--bonus", "1", "--ac", "10", "--modifiers", "wild"], "--modifiers: 'wild'"),
    ],
)
def test_bad_choices_are_one_plain_error_line(args, shown):
    done = arena(*args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and shown in lines[0], done.stderr
    assert "Value error" not in done.stderr and "Invalid value for" not in done.stderr


def test_bestiary_on_el_fight_and_run(tmp_path):
    hag = tmp_path / "my-monsters.yaml"
    hag.write_text(HAG)
    el = arena("el", "bog-hag:2", "--bestiary", str(hag), "--party-level", "5", "--json")
    assert el.returncode == 0, el.stderr
    assert json.loads(el.stdout)["groups"][0] == {"name": "bog-hag", "count": 2, "cr": "4", "effective_cr": "4"}
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "hag.yaml").write_text(HAG)
    assert arena("el", "bog-hag", "-b", str(folder)).returncode == 0
    missing = arena("el", "bog-hag")
    assert missing.returncode == 2 and "unknown creature 'bog-hag'" in missing.stderr
    scenario = tmp_path / "hag.yaml"
    scenario.write_text("name: hag\nparty: {level: 5}\nmonsters: [bog-hag]\nrules: [d20]\nn: 20\n")
    fought = arena("fight", str(scenario), "--bestiary", str(hag), "--json")
    assert fought.returncode == 0, fought.stderr
    assert json.loads(fought.stdout)["record"]["winner"] in ("party", "monsters", "draw")
    ran = arena(
        "run", str(scenario), "--bestiary", str(hag), "--out", str(tmp_path / "out"), "--workers", "1", "--quiet"
    )
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "out" / "encounters.parquet").is_file()
    shown = arena("bestiary", "show", "bog-hag", "--bestiary", str(hag))
    assert shown.returncode == 0 and "bog-hag" in shown.stdout
    nowhere = arena("el", "bog-hag", "--bestiary", str(tmp_path / "nowhere.yaml"))
    assert nowhere.returncode == 2 and nowhere.stderr.startswith("error: --bestiary")


def test_a_grid_of_rule_sets_that_cannot_change_anything_is_said_once(tmp_path):
    scenario = tmp_path / "never.yaml"
    scenario.write_text(
        "name: never\nparty: [fighter-1]\nmonsters: [orc]\nn: 10\n"
        "tactics: {party: {press_luck: never, called_shot: never},"
        " monsters: {press_luck: never, called_shot: never}}\nrules: [d20, d20+luck, d20+called]\n"
    )
    ran = arena("run", str(scenario), "--out", str(tmp_path / "out"), "--workers", "1", "--quiet")
    assert ran.returncode == 0, ran.stderr
    warnings = [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and "d20+luck, d20+called" in warnings[0] and "press_luck is never" in warnings[0]
    report = arena("report", str(tmp_path / "out"))
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "out" / "report" / "report.md").read_text()
    assert "the same fights as `d20`" in page or "`d20+luck` = `d20`" in page


def test_default_tactics_make_luck_and_called_shots_matter(tmp_path):
    """Left to their defaults, creatures press luck and call shots when-better, so +luck and +called fight
    differently from the standard rules (they were duplicates before)."""
    import arena as api

    scenario = tmp_path / "plain.yaml"
    scenario.write_text("name: plain\nparty: {level: 3}\nmonsters: [ogre]\n")
    frame = api.run(str(scenario), n=60, seed=3, rules=["d20", "d20+luck", "d20+called"], workers=1)
    by = {k: cell[["winner", "rounds", "party_hp_lost"]].to_numpy().tolist() for k, cell in frame.groupby("rules")}
    assert by["d20+luck"] != by["d20"] and by["d20+called"] != by["d20"]


def test_misspelt_fields_get_did_you_mean(tmp_path):
    block = tmp_path / "block.yaml"
    block.write_text(HAG.replace("cr: 4", "cr: 4\nregeneraton: 5").replace("count: 2}", "count: 2, treat: 19-20}"))
    done = arena("bestiary", "validate", str(block))
    assert done.returncode == 2
    assert "regeneraton: unknown field; did you mean regeneration?" in done.stderr
    assert "treat: unknown field; did you mean threat?" in done.stderr
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nparty: {level: 1}\nmonsters: [orc]\ntactics:\n  party: {polcy: random}\n")
    done = arena("fight", str(scenario))
    assert done.returncode == 2 and "tactics.party.polcy: unknown field; did you mean policy?" in done.stderr


def test_tables_stay_whole_in_a_pipe(tmp_path):
    from experiment_fakes import FakeScenario, FakeSimulator

    from arena.study.runs.experiment import run_experiment

    long = "a-scenario-with-a-rather-long-name-for-a-table"
    for name in ("base", "new"):
        run_experiment(
            [FakeScenario(name=long, n=60, keys=("d20", "3d6+prad+luck+open+called"))],
            tmp_path / name,
            simulator=FakeSimulator(),
        )
    done = arena("compare", str(tmp_path / "base"), str(tmp_path / "new"))
    assert done.returncode == 0, done.stderr
    assert long in done.stdout and "3d6+prad+luck+open+called" in done.stdout and "…" not in done.stdout
    assert "compared 2 cells" in done.stdout and "\x1b[" not in done.stdout
    doc = json.loads(arena("compare", str(tmp_path / "base"), str(tmp_path / "new"), "--json").stdout)
    assert len(doc["compared"]) == 2 and doc["only_base"] == [] and doc["only_new"] == []


def test_fight_log_is_coloured_only_on_a_terminal():
    from rich.console import Console

    from arena.cli.fight_cmds import coloured

    plain = arena("fight", "scenarios/duel.yaml", "--seed", "1")
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout
    console = Console(force_terminal=True, color_system="standard", width=200)
    with console.capture() as capture:
        console.print(coloured(plain.stdout))
    assert "\x1b[" in capture.get()
