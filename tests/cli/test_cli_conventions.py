"""The command line's conventions: --version and completion, choices as enums, one error line without the
validation library's wording, tables whole in a pipe, --json where a table is printed, --bestiary on the commands
that take a creature name, "did you mean" on misspelt fields, and colour only on a terminal."""

from __future__ import annotations

import json
import re
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
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "", "PYTHONPATH": str(ROOT)},  # this checkout, from any cwd
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


# --------------------------------------------------------------------------------------------- issue 27: conventions
def _in_process(capsys, *args: str) -> tuple[int, str, str]:
    """`arena ARGS` in this process (no interpreter to start): exit code, stdout, stderr."""
    from arena.cli import main

    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return done.value.code, out.out, out.err


def test_no_flag_shows_a_type_in_any_help(capsys):
    """typer's rich help printed a type after every flag (`--quick <bool>`, even `--help <bool>`): a flag takes no
    value. Every command's --help, and the root's."""
    from arena.cli import root_command

    def paths(command, prefix=()):
        yield prefix
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from paths(sub, (*prefix, name))

    helps = {}
    for path in paths(root_command()):
        code, out, err = _in_process(capsys, *path, "--help")
        assert code == 0 and "Usage" in out and err == "", path
        helps[" ".join(path)] = out
    assert len(helps) > 30
    assert [name for name, out in helps.items() if "<bool>" in out] == []
    assert "--quick " in helps["claims"] and "--json " in helps["claims"]  # the flags are still listed
    assert "<int>" in helps["claims"]  # and an option that takes a value still shows its type


BOXES = "┏┓┗┛━┃┳┻╇╈┡┩╭╮╰╯│┌┐└┘"
"""Characters of every rich box style but the one (SIMPLE_HEAD: a rule of ─ under the header, nothing else)."""


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "modifiers"),
        ("odds", "press-luck"),
        ("odds", "attack", "--bonus", "5", "--ac", "15"),
        ("odds", "claims"),
        ("party", "--level", "1"),
        ("el", "orc:2"),
        ("claims", "--only", "bell-automatic-rate"),
    ],
)
def test_every_table_has_the_one_box_style(capsys, args):
    code, out, err = _in_process(capsys, *args)
    assert code == 0, err
    rules = [line for line in out.splitlines() if line.strip() and set(line.strip()) == {"─"}]
    assert rules and not set(out) & set(BOXES), out[:400]


def test_a_count_of_one_is_singular(capsys):
    code, out, _ = _in_process(capsys, "claims", "--only", "bell-automatic-rate")
    assert code == 0
    assert re.search(r"^1 claim \(full size\); 0 encounters, \d+ s$", out, re.MULTILINE), out


PARTY_9 = """\
The generated party of level 9 (d20)

  PC                hp   AC   touch   flat-footed   init        F/R/W   attack                                    spells
RULE
  Human Fighter 9   72   27      13            26     +5    +12/+8/+8   longsword +16/+11 (1d8+8/17-20)
  Human Cleric 9    65   25      11            25     +3   +10/+6/+12   morningstar +10/+5 (1d8+3)                1: \
cure light wounds x3, bless x2, shield of faith; 2: cure moderate wounds x4, hold
                                                                                                                  \
person x2; 3: cure serious wounds x3, searing light x2; 4: cure critical wounds x4;
                                                                                                                  \
5: flame strike x2
  Human Rogue 9     52   23      16            19     +8    +7/+12/+7   rapier +13/+8 (1d6+3/18-20) + sneak 5d6
  Human Wizard 9    36   18      14            16     +6     +6/+9/+9   light crossbow +6 (1d8/19-20)             1: \
magic missile x2, sleep x2, color spray; 2: scorching ray x5; 3: fireball x2,
                                                                                                                  \
hold person, lightning bolt; 4: ice storm x3; 5: cone of cold

""".replace("RULE", " " + "─" * 198)


def test_party_spells_are_whole_in_a_pipe():
    """`arena party` cut a cleric's spells to '... (224 more characters)' in a pipe; each spell is now named once
    with its count, and nothing is cut."""
    done = arena("party", "--level", "9")
    assert done.returncode == 0, done.stderr
    assert [line.rstrip() for line in done.stdout.splitlines()] == PARTY_9.splitlines()


def test_compare_says_when_the_runs_used_different_model_options(tmp_path):
    from dataclasses import dataclass
    from typing import Any

    from experiment_fakes import FakeScenario, FakeSimulator

    from arena.combat.model import ModelOptions
    from arena.study.runs.experiment import run_experiment

    @dataclass
    class Modelled(FakeScenario):
        model: Any = None

    for name, model in (
        ("base", ModelOptions()),
        ("same", ModelOptions()),
        ("new", ModelOptions(flanking="any-melee-ally")),
    ):
        run_experiment([Modelled(n=40, keys=("d20",), model=model)], tmp_path / name, simulator=FakeSimulator())
    base, new, same = (str(tmp_path / n) for n in ("base", "new", "same"))
    done = arena("compare", base, new)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-2:] == [
        "the runs used different fight-model options for fake (base -> new): flanking same-target -> any-melee-ally",
        "no cell moved beyond tolerance",
    ]
    doc = json.loads(arena("compare", base, new, "--json").stdout)
    assert doc["model_differences"] == [
        {"scenario": "fake", "option": "flanking", "base": "same-target", "new": "any-melee-ally"}
    ]
    alike = arena("compare", base, same)
    assert alike.returncode == 0 and "fight-model options" not in alike.stdout
    assert json.loads(arena("compare", base, same, "--json").stdout)["model_differences"] == []


SUMMONER = HAG + "summon: {creature: bog-hag, count: COUNT, chance: 0.5}\n"


@pytest.mark.parametrize(
    "count, stderr",
    [
        ("2", ""),
        ("1d4+1", ""),
        ("0", "mine.yaml:14: summon.count: count 0 is less than 1: a count is at least 1 (e.g. 2 or 1d4)\n"),
        ("1d4-1", "mine.yaml:14: summon.count: count '1d4-1' can be 0: a count is at least 1 (e.g. 2 or 1d4)\n"),
        ("true", "mine.yaml:14: summon.count: a count is a whole number such as 2 or dice such as 1d4, not True\n"),
    ],
)
def test_a_summons_count_is_a_number_or_dice_and_its_error_is_said_once(tmp_path, count, stderr):
    """`count: 2` was refused ('Input should be a valid string, got 2'): a count had to be a dice string."""
    (tmp_path / "mine.yaml").write_text(SUMMONER.replace("COUNT", count))
    done = arena("bestiary", "validate", "mine.yaml", cwd=tmp_path)
    if stderr:
        assert (done.returncode, done.stdout, done.stderr) == (2, "", stderr + "1 problem found\n")
    else:
        assert (done.returncode, done.stdout, done.stderr) == (0, "OK: 1 creature\n", "")


def test_a_bad_count_in_a_list_of_stat_blocks_is_one_line_per_block(tmp_path):
    block = "- " + SUMMONER.replace("COUNT", "0").rstrip().replace("\n", "\n  ") + "\n"
    (tmp_path / "mine.yaml").write_text(block + block.replace("name: bog-hag", "name: bog-hag-2"))
    done = arena("bestiary", "validate", "mine.yaml", cwd=tmp_path)
    problem = "summon.count: count 0 is less than 1: a count is at least 1 (e.g. 2 or 1d4)\n"
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"mine.yaml:14: 0.{problem}mine.yaml:28: 1.{problem}2 problems found\n"
    el = arena("el", "bog-hag", "--bestiary", "mine.yaml", cwd=tmp_path)
    assert el.returncode == 2 and el.stderr == f"error: mine.yaml:14: 0.{problem.rstrip()} (and 1 more problem)\n"


def test_compare_prints_a_change_that_rounds_to_nothing_without_a_sign():
    """`arena compare`'s table: never ``-0.0`` or ``+0.0`` (the project's convention, as the report's)."""
    from arena.cli.results_cmds import _num

    assert _num(-1e-9, "win") == "0.0" and _num(0.0, "hp_lost") == "0.0" and _num(-1e-7, "rounds") == "0.000"
    assert _num(0.0123, "win") == "+1.2" and _num(-0.0123, "win") == "-1.2" and _num(0.25, "rounds") == "+0.250"
    assert _num(float("nan"), "win") == "-"
