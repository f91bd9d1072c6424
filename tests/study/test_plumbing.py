"""The study's plumbing (issue 25): records written into column arrays, the prepared-encounter cache by matchup, the
generated party built once per process, a batch's frame joined column by column, a run's ``encounters.parquet``
written while it fights, and workers that fight without importing the statistics.

Nothing here times anything: each test checks what the plumbing gives (the same columns, frames and files as the
paths it replaced) or what it does (how often it prepares, which modules a worker loads)."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from experiment_fakes import FakeScenario, FakeSimulator

from arena.combat.engine import fight
from arena.combat.record import record_schema
from arena.rules import RuleSet
from arena.study.runs import workers
from arena.study.runs.experiment import run_experiment
from arena.study.runs.matchups import KEEP, Batch, Matchup, batch_frame, merge_requests, raise_attacks
from arena.study.runs.plan import KEY_COLUMNS, make_plan
from arena.study.runs.tables import arrow_schema, assemble
from arena.study.scenarios.loading import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
RULES = ("d20", "3d6+called", "d20+prad+luck+open+called", "d20+var")


@pytest.fixture(scope="module")
def reference():
    return load_scenarios(ROOT / "scenarios" / "reference.yaml")[0]


# --------------------------------------------------------------------------------------------- column arrays
def test_record_values_are_its_row_in_schema_order(reference):
    """``EncounterRecord.values()`` is ``as_row()`` without its keys, field for field, in the schema's order."""
    schema = list(record_schema())
    called = 0
    for key in RULES:
        rules = RuleSet.from_key(key)
        encounter = reference.prepare(rules.die)
        for seed in range(12):
            record = fight(encounter, rules, seed).record
            row = record.as_row()
            assert list(row) == schema
            assert record.values() == tuple(row.values())
            called += bool(row["called_hits_by_part"])
    assert called  # the one string built from a dict was exercised


class RowsOnly:
    """The engine as a simulator without ``fight_values``: the dict-per-row path."""

    def __init__(self) -> None:
        self.engine = workers.EngineSimulator()

    def prepare(self, scenario, rules):
        return self.engine.prepare(scenario, rules)

    def fight(self, prepared, rules, seed):
        return self.engine.fight(prepared, rules, seed)

    def schema(self):
        return self.engine.schema()


def _old_columns(simulator, task: workers.Task) -> dict[str, np.ndarray]:
    """The columns as ``run_chunk`` made them before: a dict per row, a list per field."""
    from arena.dice import encounter_seed

    prepared = simulator.prepare(task.scenario, task.rules)
    seeds = [encounter_seed(task.seed, i) for i in range(task.chunk.start, task.chunk.stop)]
    rows = [simulator.fight(prepared, task.rules, s) for s in seeds]
    columns = {
        "index": np.arange(task.chunk.start, task.chunk.stop, dtype=np.int64),
        "seed": np.array(seeds, dtype=np.uint64),
    }
    for name, kind in simulator.schema().items():
        if name not in KEY_COLUMNS:
            columns[name] = np.array([row[name] for row in rows], dtype=object if kind == "string" else kind)
    return columns


def _same_columns(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert list(a) == list(b)
    for name in a:
        assert a[name].dtype == b[name].dtype, name
        assert a[name].tolist() == b[name].tolist(), name


@pytest.mark.parametrize("key", ["d20", "3d6+prad+luck+open+called"])
def test_the_column_writer_gives_the_columns_of_a_dict_per_row(reference, key):
    plan = make_plan([reference], n=30, rules=[key], seed=11, chunk_size=30)
    task = next(workers._tasks(plan, plan.chunks()))
    _, engine = workers.run_chunk(task, workers.EngineSimulator())
    _, rows_only = workers.run_chunk(task, RowsOnly())
    old = _old_columns(RowsOnly(), task)
    _same_columns(engine, old)
    _same_columns(rows_only, old)
    fake_plan = make_plan([FakeScenario(n=9)], chunk_size=9)
    fake_task = next(workers._tasks(fake_plan, fake_plan.chunks()))
    _same_columns(workers.run_chunk(fake_task, FakeSimulator())[1], _old_columns(FakeSimulator(), fake_task))


def test_a_task_sends_only_the_fields_kept(reference):
    plan = make_plan([reference], n=8, rules=["d20"], chunk_size=8)
    full = workers.run_chunk(next(workers._tasks(plan, plan.chunks())), workers.EngineSimulator())[1]
    kept = workers.run_chunk(next(workers._tasks(plan, plan.chunks(), KEEP)), workers.EngineSimulator())[1]
    assert list(kept) == ["index", "seed", *[f for f in record_schema() if f in KEEP]]
    for name, values in kept.items():
        assert values.tolist() == full[name].tolist()


def test_chunk_columns_refuses_rows_of_another_length():
    with pytest.raises(ValueError):
        workers.chunk_columns({"winner": "string", "rounds": "int64"}, [("party", 3, 1)])


# --------------------------------------------------------------------------------------------- the cache
class Counting(FakeSimulator):
    def __init__(self) -> None:
        super().__init__()
        self.prepared: list[str] = []

    def prepare(self, scenario, rules):
        self.prepared.append(scenario.name)
        return super().prepare(scenario, rules)


def test_the_prepared_encounter_cache_survives_alternating_matchups():
    """Chunks of more matchups than the old cache held (16), in turn, as a batch's chunks reach a worker: each
    matchup is prepared once."""
    workers._PREPARED.clear()
    sim = Counting()
    rules = RuleSet.from_key("d20")
    scenarios = [FakeScenario(name=f"m{i}", edge=i / 40) for i in range(24)]
    for _ in range(3):
        for sc in scenarios:
            assert workers.prepared_encounter(sim, sc, sc.name, rules) == {"edge": sc.edge}
    assert sorted(sim.prepared) == sorted(sc.name for sc in scenarios)


def test_the_prepared_encounter_cache_drops_the_least_recently_used(monkeypatch):
    monkeypatch.setattr(workers, "PREPARED_KEEP", 3)
    workers._PREPARED.clear()
    sim = Counting()
    rules = RuleSet.from_key("d20")
    a, b, c, d = (FakeScenario(name=x) for x in "abcd")
    for sc in (a, b, c, a, d):  # a used again before d: b is the one dropped
        workers.prepared_encounter(sim, sc, sc.name, rules)
    assert len(workers._PREPARED) == 3
    for sc in (a, c, d, b):
        workers.prepared_encounter(sim, sc, sc.name, rules)
    assert sim.prepared == ["a", "b", "c", "d", "b"]
    workers._PREPARED.clear()


def test_the_generated_party_is_built_once_per_choice():
    from arena.study.scenarios.parts import party_options
    from arena.world.party import generate_party

    one, other = Matchup(5, "typical-cr5", 1, ("d20",), 4), Matchup(5, "srd/ogre", 2, ("3d6",), 4)
    first = one.party("d20")
    assert all(a is b for a, b in zip(first, other.party("d20+prad"), strict=True))  # one party, shared
    assert first == generate_party(5, "d20", **party_options(one.model))
    assert one.party("3d6") == generate_party(5, "3d6", **party_options(one.model)) != first
    bonus = Matchup(5, "typical-cr5", 1, ("d20",), 4, attack_bonus=1)
    assert bonus.party("d20") == [raise_attacks(c, 1) for c in first] != first
    first.pop()  # a caller's list is its own
    assert len(one.party("d20")) == 4


# --------------------------------------------------------------------------------------------- a batch's frame
def _frame_per_chunk(plan, chunks, parts) -> pd.DataFrame:
    """A batch's frame as ``run_batch`` made it before: a frame per chunk, concatenated."""
    frames = []
    for chunk in chunks:
        sp = plan.scenarios[chunk.scenario]
        frame = pd.DataFrame({k: np.asarray(v) for k, v in parts[chunk].items()})
        frame.insert(0, "rules", sp.rule_sets[chunk.rules].key)
        frame.insert(0, "matchup", sp.name)
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True)
    frame["winner"] = frame["winner"].astype(str)
    return frame


def test_the_batch_frame_is_the_frame_per_chunk_and_its_rows_the_grouped_ones():
    requests = [
        Matchup(3, "typical-cr3", 2, ("d20", "3d6"), 7, seed=4),
        Matchup(3, "typical-cr4", 1, ("d20",), 5, seed=4),
        Matchup(3, "typical-cr4", 1, ("d20+prad",), 7, seed=4),  # merged with the one above
    ]
    merged = merge_requests(requests)
    plan = make_plan(merged, chunk_size=3)
    chunks = list(plan.chunks())
    columns = ("index", *KEEP)
    parts = {}
    for task in workers._tasks(plan, reversed(chunks), KEEP):  # finished in any order
        chunk, cols = workers.run_chunk(task, workers.EngineSimulator())
        parts[chunk] = {k: cols[k] for k in columns}
    frame, spans = batch_frame(plan, chunks, parts, columns)
    old = _frame_per_chunk(plan, chunks, parts)
    pd.testing.assert_frame_equal(frame, old, check_exact=True)
    new_batch = Batch(frame, 0.0, plan.total, merged, spans)
    groups = {  # the rows as grouping the frame per chunk finds them (what Batch.rows did before the spans)
        k: g.sort_values("index").reset_index(drop=True) for k, g in old.groupby(["matchup", "rules"], sort=False)
    }
    asked = 0
    for m in requests:
        for rules in m.rules:
            for n in (None, 1, 4, m.n):
                pd.testing.assert_frame_equal(
                    new_batch.rows(m, rules, n),
                    groups[(m.name, rules)].iloc[: (n or m.n)].reset_index(drop=True),
                    check_exact=True,
                )
                asked += 1
    assert asked == 16
    from arena.errors import ArenaError

    with pytest.raises(ArenaError, match="no rows"):
        new_batch.rows(requests[1], "3d6")


# --------------------------------------------------------------------------------------------- a run on disk
def test_encounters_parquet_written_while_fighting_is_the_assembled_one(tmp_path, monkeypatch):
    """The file the run writes as its chunks come in is, byte for byte, the one assembled from the part files once
    the fighting is done (the way it was written before), on one worker and on two; the row groups cross chunks."""
    import arena.study.runs.experiment as experiment
    import arena.study.runs.tables as tables

    monkeypatch.setattr(tables, "ROW_GROUP", 250)
    sc = FakeScenario(n=700, keys=("d20", "3d6", "d20+prad"))
    plan = make_plan([sc], chunk_size=60)
    files = {}
    bait = tmp_path / "bait.txt"
    bait.write_text("not arena's\n")
    for w in (1, 2):
        out, kept = tmp_path / f"w{w}", tmp_path / f"kept{w}"
        monkeypatch.setattr(experiment, "remove_chunks", lambda parts, _to=kept: parts.rename(_to))
        run_experiment([sc], out, simulator=FakeSimulator(), chunk_size=60, workers=w)
        (tmp_path / f"assembled{w}.parquet.tmp").symlink_to(bait)  # a stale .tmp, as a link: replaced, not followed
        assemble(plan, kept, tmp_path / f"assembled{w}.parquet", arrow_schema(FakeSimulator().schema()))
        assert bait.read_text() == "not arena's\n" and not (tmp_path / f"assembled{w}.parquet.tmp").exists()
        files[w] = (out / "encounters.parquet").read_bytes()
        assert files[w] == (tmp_path / f"assembled{w}.parquet").read_bytes()
        assert pq.ParquetFile(out / "encounters.parquet").metadata.num_row_groups > 8  # written in several goes
        assert not (out / "encounters.parquet.tmp").exists()
    assert files[1] == files[2]


def test_an_interrupted_run_leaves_no_half_written_encounters_parquet(tmp_path):
    from experiment_fakes import InterruptingSimulator

    from arena.dice import encounter_seed

    sc = FakeScenario(n=300)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(
            [sc], tmp_path / "r", simulator=InterruptingSimulator(encounter_seed(sc.seed, 250)), chunk_size=50
        )
    assert not (tmp_path / "r" / "encounters.parquet").exists()
    assert not (tmp_path / "r" / "encounters.parquet.tmp").exists()
    run_experiment([sc], tmp_path / "r", simulator=FakeSimulator(), chunk_size=50, resume=True)
    run_experiment([sc], tmp_path / "clean", simulator=FakeSimulator(), chunk_size=50)
    assert (tmp_path / "r" / "encounters.parquet").read_bytes() == (
        tmp_path / "clean" / "encounters.parquet"
    ).read_bytes()


# --------------------------------------------------------------------------------------------- imports
WORKER = """
import json, pickle, sys
function, task, simulator = pickle.loads(sys.stdin.buffer.read())
chunk, columns = function(task, simulator)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("pandas", "statsmodels", "scipy", "matplotlib")
                or m.startswith(("arena.study.statistics", "arena.study.claims")))
print(json.dumps({"rows": len(columns["index"]), "loaded": loaded}))
"""


@pytest.mark.parametrize("what", ["batch", "run"])
def test_a_worker_fights_without_importing_the_statistics(what, reference):
    """What a worker process does with a task (unpickle it, fight its chunk) loads neither pandas nor the
    statistics, for a batch's matchup and for a run's scenario: a fresh interpreter is given the pickled task as
    loky gives it."""
    if what == "batch":
        plan = make_plan([Matchup(2, "typical-cr2", 1, ("d20",), 6, seed=3)], chunk_size=6)
        task = next(workers._tasks(plan, plan.chunks(), KEEP))
    else:
        plan = make_plan([reference], n=6, rules=["3d6+called"], chunk_size=6)
        task = next(workers._tasks(plan, plan.chunks()))
    payload = pickle.dumps((workers.run_chunk, task, workers.EngineSimulator()))
    done = subprocess.run(
        [sys.executable, "-c", WORKER], input=payload, capture_output=True, check=True, cwd=ROOT, timeout=600
    )
    report = json.loads(done.stdout.decode().strip().splitlines()[-1])
    assert report == {"rows": 6, "loaded": []}


def test_the_study_parent_does_its_blas_on_one_thread_and_gives_the_cores_back(monkeypatch):
    """A study's parent limits numpy's BLAS to one thread while it runs (its threads only wait for each other on
    the workers' cores: arena/study/runs/parent_threads.py), and restores the limit after; ``evaluate`` runs in it."""
    from threadpoolctl import threadpool_info

    from arena.study.claims import evaluation
    from arena.study.runs.parent_threads import one_blas_thread

    def blas_threads() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    before = blas_threads()
    assert before, "numpy's BLAS is not seen by threadpoolctl"
    with one_blas_thread():
        assert set(blas_threads()) == {1}
    assert blas_threads() == before

    seen: list[list[int]] = []
    monkeypatch.setattr(evaluation, "_evaluate", lambda *args: seen.append(blas_threads()))
    evaluation.evaluate(only=["press-luck-5"])
    assert seen == [[1] * len(before)]
