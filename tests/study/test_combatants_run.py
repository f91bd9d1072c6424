"""The combatants table of a run (issue 27): written beside encounters.parquet, one row per encounter and
combatant, the same bytes for any number of workers and after a resume, even after the run was killed."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.study.runs.combatant_tables import COMBATANTS_FILE, part_name, read_combatants
from arena.study.runs.experiment import run_experiment
from arena.study.runs.plan import make_plan
from arena.study.runs.workers import EngineSimulator
from arena.study.scenarios.loading import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load_scenarios(ROOT / "scenarios" / "goblin-gang.yaml")[0]
RUN = {"n": 24, "seed": 3, "rules": ["d20", "3d6"], "chunk_size": 8, "combatants": True}
"""Six chunks of eight encounters: the party of four against four goblins."""


def _run(out: Path, **kwargs):
    return run_experiment([SCENARIO], out, **{**RUN, **kwargs})


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("full") / "r"
    _run(out)
    return out


class KillingSimulator(EngineSimulator):
    """The engine, until the encounter of ``seed``: then the process is killed (SIGKILL), as a crash or an OOM would."""

    def __init__(self, seed: int):
        self.seed = seed

    def fight_combatants(self, prepared, rules, seed):
        if seed == self.seed:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().fight_combatants(prepared, rules, seed)


def test_one_row_per_combatant_of_each_encounter(full):
    encounters = pq.read_table(full / "encounters.parquet").to_pandas()
    combatants = read_combatants(full)
    assert sorted(p.name for p in full.iterdir()) == [
        "combatants.parquet",
        "encounters.parquet",
        "manifest.json",
        "summary.csv",
    ]
    assert list(combatants.columns[:3]) == ["scenario", "rules", "index"]
    assert len(combatants) == 8 * len(encounters)  # four PCs, four goblins (nothing summoned)
    pcs = combatants[combatants.side == "pc"].groupby(["rules", "index"], sort=False)
    monsters = combatants[combatants.side == "monster"].groupby(["rules", "index"], sort=False)
    merged = encounters.set_index(["rules", "index"]).join(
        pd.DataFrame(
            {
                "dead": pcs["died"].sum(),
                "hp_max": pcs["hp_max"].sum(),
                "hp_left": pcs["hp_left"].sum(),
                "monsters_dead": monsters["died"].sum(),
            }
        )
    )
    assert (merged["dead"] == merged["pcs_dead"]).all()
    assert (merged["monsters_dead"] == merged["monsters_killed"]).all()
    lost = (merged["hp_max"] - merged["hp_left"]) / merged["hp_max"]
    assert (lost - merged["party_hp_lost"]).abs().max() < 1e-12
    manifest = json.loads((full / "manifest.json").read_text())
    assert manifest["plan"]["combatants"] is True and len(manifest["combatants_sha256"]) == 64


def test_one_and_two_workers_write_the_same_bytes(full, tmp_path):
    two = tmp_path / "two"
    _run(two, workers=2)
    for name in ("encounters.parquet", COMBATANTS_FILE):
        assert (two / name).read_bytes() == (full / name).read_bytes(), name


def test_a_killed_run_resumes_to_the_same_bytes(full, tmp_path):
    out = tmp_path / "killed"
    pid = os.fork()
    if pid == 0:  # the child runs until the sixth chunk's second encounter, and is killed there
        try:
            _run(out, simulator=KillingSimulator(encounter_seed(RUN["seed"], 17)))
        finally:
            os._exit(3)  # never reached when the kill lands: then the wait below sees SIGKILL
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    names = sorted(p.name for p in (out / "chunks").iterdir())
    plan = make_plan([SCENARIO], n=RUN["n"], seed=RUN["seed"], rules=RUN["rules"], chunk_size=RUN["chunk_size"])
    first = list(plan.chunks())[:2]  # d20's chunks 0-7 and 8-15 were finished
    assert [part_name(c) for c in first] == [n for n in names if n.endswith(".combatants.parquet")]
    assert not (out / COMBATANTS_FILE).exists() and not (out / "encounters.parquet").exists()
    (out / "chunks" / part_name(first[1])).unlink()  # its chunk is fought again: a chunk counts with its combatants
    events: list[str] = []
    outcome = _run(out, resume=True, on_event=events.append)
    assert outcome.fought == 48 - 8 and outcome.resumed_chunks == 1
    for name in ("encounters.parquet", COMBATANTS_FILE):
        assert (out / name).read_bytes() == (full / name).read_bytes(), name
    assert not (out / "chunks").exists()


def test_a_damaged_combatants_file_fights_the_run_again(full, tmp_path):
    out = tmp_path / "r"
    _run(out)
    (out / COMBATANTS_FILE).write_bytes(b"not parquet")
    events: list[str] = []
    assert _run(out, resume=True, on_event=events.append).fought == 48
    assert any(COMBATANTS_FILE in e and "fighting the run again" in e for e in events)
    assert (out / COMBATANTS_FILE).read_bytes() == (full / COMBATANTS_FILE).read_bytes()


def test_without_combatants_nothing_is_written_and_resuming_with_them_is_refused(tmp_path):
    out = tmp_path / "r"
    _run(out, combatants=False)
    assert not (out / COMBATANTS_FILE).exists() and read_combatants(out) is None
    assert "combatants" not in json.loads((out / "manifest.json").read_text())["plan"]
    with pytest.raises(ArenaError, match="different scenarios or settings"):
        _run(out, resume=True)
    _run(out, force=True)  # --force removes a run's combatants file with the rest
    assert (out / COMBATANTS_FILE).exists()
    _run(out, force=True, combatants=False)
    assert not (out / COMBATANTS_FILE).exists()


def test_a_simulator_without_combatants_is_refused_before_anything_is_written(tmp_path):
    from experiment_fakes import FakeScenario, FakeSimulator

    with pytest.raises(ArenaError, match="cannot report combatants"):
        run_experiment([FakeScenario(n=5)], tmp_path / "r", simulator=FakeSimulator(), combatants=True)
    assert not (tmp_path / "r").exists()


# --------------------------------------------------------------------------------------------- what is shown
def _frame(rows):
    """A combatants table by hand: (rules, index, side, name, kind, went_down, died, hp_left, hp_max, damage)."""
    columns = ["rules", "index", "side", "name", "kind", "went_down", "died", "hp_left", "hp_max", "damage_dealt"]
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(0, "scenario", "s")
    frame["downs"] = frame["went_down"].astype(int)
    frame["hp_end"] = frame["hp_left"]
    return frame


HAND = _frame(
    [
        ("d20", 0, "pc", "rogue", "rogue", True, True, 0, 8, 3),
        ("d20", 0, "pc", "fighter", "fighter", False, False, 10, 12, 9),
        ("d20", 0, "monster", "orc 1", "orc", True, False, 0, 6, 12),
        ("d20", 0, "monster", "orc 2", "orc", False, False, 6, 6, 4),
        ("d20", 1, "pc", "rogue", "rogue", True, False, 0, 8, 0),
        ("d20", 1, "pc", "fighter", "fighter", False, False, 12, 12, 12),
        ("d20", 1, "monster", "orc 1", "orc", True, True, 0, 6, 5),
        ("d20", 1, "monster", "orc 2", "orc", True, False, 0, 6, 3),
        ("3d6", 0, "pc", "rogue", "rogue", False, False, 8, 8, 6),
        ("3d6", 0, "pc", "fighter", "fighter", True, False, 0, 12, 0),
        ("3d6", 0, "monster", "orc 1", "orc", False, False, 6, 6, 20),
        ("3d6", 0, "monster", "orc 2", "orc", True, False, 0, 6, 0),
    ]
)


def test_the_terminal_summary_says_who_needs_help():
    from arena.study.reports.combatants import terminal_lines

    assert terminal_lines(HAND) == [
        "s (per combatant, its 2 rule sets together):",
        "  rogue: went down in 66.7% of 3 fights, died in 33.3%, 2.7 of 8 hp left on average",
        "  fighter: went down in 33.3% of 3 fights, died in 0.0%, 7.3 of 12 hp left on average",
        "  orc (x2): 7.3 damage dealt each on average, went down 66.7%, died 16.7%",
    ]


def test_the_terminal_summary_counts_a_big_group_in_plain_numbers():
    """A hundred goblins (the most a group may hold) read ``x100``, not ``x1e+02``; a count that varies between
    fights keeps its decimals (``x10.5``, not ``x10``)."""
    from arena.study.reports.combatants import terminal_lines

    pc = [("d20", i, "pc", "fighter", "fighter", False, False, 12, 12, 9) for i in (0, 1)]
    horde = [("d20", 0, "monster", f"goblin {k}", "goblin", True, True, 0, 5, 1) for k in range(100)]
    assert terminal_lines(_frame(pc + horde[:1]))[-1].startswith("  goblin (x0.5): ")
    assert terminal_lines(_frame(pc + horde + horde[:1]))[-1].startswith("  goblin (x50.5): ")
    assert terminal_lines(_frame(pc[:1] + horde))[-1].startswith("  goblin (x100): ")


def test_two_pcs_of_one_name_are_told_apart(tmp_path):
    """A party of two fighter-5s: each is a PC of its own, in as many fights as were fought (they were one PC in
    twice the fights, its shares pooled)."""
    from arena.study.reports.combatants import add_sections, terminal_lines

    twins = _frame(
        [
            ("d20", 0, "pc", "fighter", "fighter", True, True, 0, 12, 3),
            ("d20", 0, "pc", "fighter", "fighter", False, False, 12, 12, 9),
            ("d20", 0, "monster", "orc 1", "orc", True, True, 0, 6, 5),
            ("d20", 1, "pc", "fighter", "fighter", True, False, 0, 12, 1),
            ("d20", 1, "pc", "fighter", "fighter", False, False, 10, 12, 7),
            ("d20", 1, "monster", "orc 1", "orc", True, True, 0, 6, 5),
        ]
    )
    assert terminal_lines(twins)[1:3] == [
        "  fighter (1): went down in 100.0% of 2 fights, died in 50.0%, 0.0 of 12 hp left on average",
        "  fighter (2): went down in 0.0% of 2 fights, died in 0.0%, 11.0 of 12 hp left on average",
    ]
    twins.to_parquet(tmp_path / COMBATANTS_FILE)
    sections = [{"name": "s", "baseline": "d20"}]
    add_sections(tmp_path, sections, "md")
    assert "| fighter (1) | 2 | 100.0% | 50.0% | 0.0 | 12 | 2.0 |" in sections[0]["combatants"]
    assert "| fighter (2) | 2 | 0.0% | 0.0% | 11.0 | 12 | 8.0 |" in sections[0]["combatants"]


def test_the_report_section_under_the_baseline_and_by_rule_set(tmp_path):
    from arena.study.reports.combatants import add_sections

    hostile = HAND.replace({"rogue": "<img src=x onerror=alert(1)>"})
    hostile.to_parquet(tmp_path / COMBATANTS_FILE)
    md = [{"name": "s", "baseline": "d20"}, {"name": "other", "baseline": "d20"}]
    add_sections(tmp_path, md, "md")
    text = md[0]["combatants"]
    assert md[1]["combatants"] == ""
    assert "### Per combatant" in text and "Under d20:" in text
    assert "| &lt;img src=x onerror=alert(1)&gt; | 2 | 100.0% | 50.0% | 0.0 | 8 | 1.5 |" in text
    assert "| fighter | 2 | 0.0% | 0.0% | 11.0 | 12 | 10.5 |" in text
    assert "| orc | 2.0 | 6.0 | 75.0% | 25.0% |" in text
    assert "| d20 | 100.0% | 0.0% |" in text and "| 3d6 | 0.0% | 100.0% |" in text
    html = [{"name": "s", "baseline": "3d6"}]
    add_sections(tmp_path, html, "html")
    assert "<img" not in html[0]["combatants"] and "&lt;img src=x onerror=alert(1)&gt;" in html[0]["combatants"]
    assert "<code>3d6</code>" in html[0]["combatants"]
    none = [{"name": "s", "baseline": "d20"}]
    add_sections(tmp_path / "nothing-here", none, "md")
    assert none[0]["combatants"] == ""


def test_a_creature_absent_under_a_rule_set_shows_no_share_there(tmp_path):
    """A creature on the party's side in some fights only (summoned under 3d6 alone) has no share under d20: a dash,
    not ``nan%``."""
    from arena.study.reports.combatants import add_sections

    summoned = _frame([("3d6", 0, "pc", "dog 1 (cleric's)", "dog", True, True, 0, 6, 2)])
    pd.concat([HAND, summoned], ignore_index=True).to_parquet(tmp_path / COMBATANTS_FILE)
    for fmt in ("md", "html"):
        sections = [{"name": "s", "baseline": "d20"}]
        add_sections(tmp_path, sections, fmt)
        assert "nan" not in sections[0]["combatants"]
    md = [{"name": "s", "baseline": "d20"}]
    add_sections(tmp_path, md, "md")
    assert "| d20 | 100.0% | 0.0% | - |" in md[0]["combatants"]


def test_arena_report_shows_the_section_of_a_run_with_combatants(full, tmp_path):
    from arena.study.reports.report import build_report

    page = build_report(full, tmp_path / "report").read_text()
    assert "### Per combatant" in page and "Went down, by rule set:" in page
    for name in ("fighter-1", "cleric-1", "rogue-1", "wizard-1", "goblin"):
        assert f"| {name} |" in page


def test_cli_run_prints_the_summary_and_writes_the_table(tmp_path):
    from experiment_fakes import cli_app
    from typer.testing import CliRunner

    from arena.study.reports.combatants import terminal_lines

    runner, app = CliRunner(), cli_app()
    args = ["run", str(ROOT / "scenarios" / "ogre.yaml"), "--n", "10", "--seed", "4", "--grid", "d20", "--workers", "1"]
    out = tmp_path / "on"
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("10 encounters in ")
    assert lines[1:] == terminal_lines(read_combatants(out)) and len(lines) == 7  # the scenario, 4 PCs, the ogre
    assert "rogue-3: went down in" in result.stdout
    off = tmp_path / "off"
    result = runner.invoke(app, [*args, "--out", str(off), "--no-combatants"])
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 1
    assert not (off / COMBATANTS_FILE).exists() and (off / "encounters.parquet").exists()
    quiet = runner.invoke(app, [*args, "--out", str(tmp_path / "q"), "--quiet"])
    assert quiet.exit_code == 0 and quiet.stdout == "" and (tmp_path / "q" / COMBATANTS_FILE).exists()


def test_the_notebook_gets_the_same_table_for_one_and_two_workers(full):
    import arena

    keys = {k: RUN[k] for k in ("n", "seed", "rules", "chunk_size")}
    encounters, one = arena.run(SCENARIO, workers=1, combatants=True, **keys)
    _, two = arena.run(SCENARIO, workers=2, combatants=True, **keys)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, read_combatants(full))
    pd.testing.assert_frame_equal(encounters, pq.read_table(full / "encounters.parquet").to_pandas())
    assert isinstance(arena.run(SCENARIO, workers=1, n=2, seed=1, rules="d20"), pd.DataFrame)  # not asked: one frame


def test_a_damaged_or_foreign_combatants_file_is_one_clear_error(tmp_path):
    (tmp_path / COMBATANTS_FILE).write_bytes(b"PAR1 not really")
    with pytest.raises(ArenaError, match=r"combatants\.parquet: unreadable"):
        read_combatants(tmp_path)
    pd.DataFrame({"scenario": ["s"], "rules": ["d20"]}).to_parquet(tmp_path / COMBATANTS_FILE)
    with pytest.raises(ArenaError, match=r"combatants\.parquet: not a combatants table \(no column 'index'\)"):
        read_combatants(tmp_path)
