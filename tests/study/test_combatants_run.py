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
