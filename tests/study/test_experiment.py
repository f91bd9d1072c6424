"""Experiments: common random numbers, determinism across workers, results on disk, resume, faults."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from experiment_fakes import DyingSimulator, FakeScenario, FakeSimulator, InterruptingSimulator, cli_app
from typer.testing import CliRunner

from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.study.runs.experiment import run_experiment
from arena.study.runs.in_memory import run
from arena.study.runs.plan import make_plan

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
app = cli_app()


def _read(folder: Path) -> pd.DataFrame:
    return pq.read_table(folder / "encounters.parquet").to_pandas()


def test_plan_chunks_cover_every_encounter_once():
    plan = make_plan([FakeScenario(n=1234, keys=("d20", "3d6", "d20+prad"))], chunk_size=500)
    chunks = list(plan.chunks())
    assert plan.total == 3 * 1234 == sum(c.size for c in chunks)
    assert len(chunks) == 9 and chunks == sorted(chunks)
    assert len({c.filename for c in chunks}) == 9


def test_plan_overrides_and_bad_input():
    plan = make_plan([FakeScenario()], n=10, seed=3, rules=["d20", "3d6"])
    sp = plan.scenarios[0]
    assert (sp.n, sp.seed, [r.key for r in sp.rule_sets]) == (10, 3, ["d20", "3d6"])
    with pytest.raises(ArenaError, match="unknown die"):
        make_plan([FakeScenario()], rules=["d12"])
    with pytest.raises(ArenaError, match="twice"):
        make_plan([FakeScenario(), FakeScenario()])
    with pytest.raises(ArenaError, match="must be 1 to"):
        make_plan([FakeScenario()], n=0)


def test_common_random_numbers_and_order():
    df = run(FakeScenario(n=60, seed=11, keys=("3d6", "d20")), simulator=FakeSimulator(), chunk_size=25)
    assert list(df["rules"].unique()) == ["3d6", "d20"]  # the grid's order, not alphabetical
    for _, cell in df.groupby("rules"):
        assert cell["index"].tolist() == list(range(60))
        assert cell["seed"].tolist() == [encounter_seed(11, i) for i in range(60)]
    # a rule set that helps the party can only turn losses into wins on the same dice
    wide = df.pivot(index="index", columns="rules", values="winner")
    assert not ((wide["d20"] == "party") & (wide["3d6"] != "party")).any()
    assert ((wide["d20"] != "party") & (wide["3d6"] == "party")).any()
    assert df["seed"].dtype == "uint64" and df["rounds"].dtype == "int64"


def test_same_results_for_one_and_two_workers():
    sc = FakeScenario(n=900, keys=("d20", "3d6", "3d6+prad"))
    one = run(sc, simulator=FakeSimulator(), chunk_size=250)
    two = run(sc, simulator=FakeSimulator(), chunk_size=250, workers=2)
    pd.testing.assert_frame_equal(one, two)
    assert len(one) == 2700


def test_results_folder(tmp_path):
    out = tmp_path / "r"
    outcome = run_experiment([FakeScenario(n=300)], out, simulator=FakeSimulator(), chunk_size=128)
    assert outcome.encounters == outcome.fought == 600
    assert sorted(p.name for p in out.iterdir()) == ["encounters.parquet", "manifest.json", "summary.csv"]
    frame = _read(out)
    pd.testing.assert_frame_equal(frame, run(FakeScenario(n=300), simulator=FakeSimulator()))
    assert list(frame.columns[:9]) == [
        "scenario",
        "rules",
        "die",
        "players_roll_all",
        "modifiers",
        "open_ended",
        "called_shots",
        "index",
        "seed",
    ]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["encounters"] == 600
    assert manifest["seeds"] == {"fake": 7} and manifest["grid"] == ["3d6", "d20"]
    assert manifest["scenarios"][0]["contents"]["edge"] == 0.5 and len(manifest["scenarios"][0]["digest"]) == 64
    assert manifest["versions"]["pyarrow"] and manifest["encounters_per_second"] > 0
    assert manifest["started"] <= manifest["finished"]
    summary = pd.read_csv(out / "summary.csv")
    assert summary["n"].tolist() == [300, 300] and summary["rules"].tolist() == ["d20", "3d6"]
    assert summary["wins"].tolist() == [int((frame[frame.rules == k].winner == "party").sum()) for k in ("d20", "3d6")]


def test_existing_folder_is_refused(tmp_path):
    out = tmp_path / "r"
    run_experiment([FakeScenario(n=20)], out, simulator=FakeSimulator())
    with pytest.raises(ArenaError, match="already exists.*--resume.*--force"):
        run_experiment([FakeScenario(n=20)], out, simulator=FakeSimulator())
    run_experiment([FakeScenario(n=30)], out, simulator=FakeSimulator(), force=True)
    assert len(_read(out)) == 60
    with pytest.raises(ArenaError, match="different scenarios or settings"):
        run_experiment([FakeScenario(n=40)], out, simulator=FakeSimulator(), resume=True)
    stranger = tmp_path / "mine"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("keep me")
    with pytest.raises(ArenaError, match="does not look like a results folder"):
        run_experiment([FakeScenario(n=20)], stranger, simulator=FakeSimulator(), force=True)
    assert (stranger / "notes.txt").exists()


def test_resume_after_interruption_gives_the_same_parquet(tmp_path):
    sc = FakeScenario(n=500, keys=("d20", "3d6"))
    full = tmp_path / "full"
    run_experiment([sc], full, simulator=FakeSimulator(), chunk_size=100)

    part = tmp_path / "part"
    stop = encounter_seed(sc.seed, 250)  # Ctrl-C inside the third chunk of d20
    with pytest.raises(KeyboardInterrupt):
        run_experiment([sc], part, simulator=InterruptingSimulator(stop), chunk_size=100)
    kept = sorted(p.name for p in (part / "chunks").iterdir() if p.name != "ledger.jsonl")
    assert len(kept) == 2 and all(k.endswith(".parquet") for k in kept)  # whole chunks only
    assert not (part / "encounters.parquet").exists()
    (part / "chunks" / "000-001-0000000000-0000000100.parquet.tmp").write_bytes(b"half a write")
    assert json.loads((part / "manifest.json").read_text())["status"] == "interrupted"

    done = []
    outcome = run_experiment(
        [sc], part, simulator=FakeSimulator(), chunk_size=100, resume=True, progress=lambda d, t: done.append((d, t))
    )
    assert outcome.fought == 800 and outcome.resumed_chunks == 2
    assert done[0] == (200, 1000) and done[-1] == (1000, 1000)
    pd.testing.assert_frame_equal(_read(part), _read(full))
    assert (
        pq.ParquetFile(part / "encounters.parquet").schema_arrow
        == pq.ParquetFile(full / "encounters.parquet").schema_arrow
    )
    manifest = json.loads((part / "manifest.json").read_text())
    assert manifest["status"] == "complete" and len(manifest["sessions"]) == 2
    assert [s["encounters"] for s in manifest["sessions"]] == [200, 800]
    # resuming a complete run does nothing
    assert run_experiment([sc], part, simulator=FakeSimulator(), chunk_size=100, resume=True).fought == 0


def test_dead_worker_is_reported_and_its_chunk_rerun(tmp_path):
    sc = FakeScenario(n=400, keys=("d20", "3d6"))
    events = []
    out = tmp_path / "r"
    outcome = run_experiment(
        [sc],
        out,
        simulator=DyingSimulator(encounter_seed(sc.seed, 150), str(tmp_path / "died")),
        workers=2,
        chunk_size=100,
        on_event=events.append,
    )
    assert (tmp_path / "died").exists()
    assert events and "worker died" in events[0] and outcome.events == events
    pd.testing.assert_frame_equal(_read(out), run(sc, simulator=FakeSimulator()))


def test_unreachable_cluster_fails_fast_with_one_line(tmp_path):
    with pytest.raises(ArenaError, match="tcp://HOST:PORT"):
        run_experiment([FakeScenario(n=5)], tmp_path / "a", simulator=FakeSimulator(), cluster="nonsense")
    with pytest.raises(ArenaError, match="(cannot reach the Dask scheduler|needs Dask)"):
        run_experiment([FakeScenario(n=5)], tmp_path / "b", simulator=FakeSimulator(), cluster="tcp://127.0.0.1:9")
    result = runner.invoke(
        app,
        [
            "run",
            str(ROOT / "scenarios" / "duel.yaml"),
            "--n",
            "5",
            "--quiet",
            "--cluster",
            "tcp://127.0.0.1:9",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1


def test_dask_cluster_gives_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    sc = FakeScenario(n=300, keys=("d20", "3d6"))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        run_experiment(
            [sc], tmp_path / "dask", simulator=FakeSimulator(), chunk_size=50, cluster=cluster.scheduler_address
        )
    run_experiment([sc], tmp_path / "local", simulator=FakeSimulator(), chunk_size=50)
    pd.testing.assert_frame_equal(_read(tmp_path / "dask"), _read(tmp_path / "local"))


# --------------------------------------------------------------------------------------------- the real engine
def test_real_engine_same_for_one_and_two_workers():
    from arena.combat.record import record_schema
    from arena.study.scenarios.loading import load_scenarios

    duel = load_scenarios(ROOT / "scenarios" / "duel.yaml")[0]
    one = run(duel, n=40, seed=5, chunk_size=15)
    two = run(duel, n=40, seed=5, chunk_size=15, workers=2)
    pd.testing.assert_frame_equal(one, two)
    assert len(one) == 80 and one["rules"].unique().tolist() == ["d20", "3d6"]
    for name, kind in record_schema().items():
        assert str(one[name].dtype).lower().startswith({"string": "str", "bool": "bool"}.get(kind, kind)), name
    assert set(one["winner"]) <= {"party", "monsters", "draw"}


def test_cli_run_real_engine(tmp_path):
    out = tmp_path / "duel"
    args = [
        "run",
        str(ROOT / "scenarios" / "duel.yaml"),
        "--n",
        "30",
        "--seed",
        "2",
        "--grid",
        "d20,3d6+prad",
        "--out",
        str(out),
        "--quiet",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    frame = _read(out)
    assert len(frame) == 60 and frame["rules"].unique().tolist() == ["d20", "3d6+prad"]
    assert frame["players_roll_all"].tolist() == [False] * 30 + [True] * 30
    combatants = pq.read_table(out / "combatants.parquet").to_pandas()  # written by default
    assert combatants.groupby(["rules", "index"]).size().tolist() == [2] * 60  # the duel: one against one
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert runner.invoke(app, [*args, "--resume"]).exit_code == 0
    other = runner.invoke(app, [*args, "--resume", "--no-combatants"])
    assert other.exit_code == 2 and "different scenarios or settings" in other.stderr
    bad = runner.invoke(
        app,
        ["run", str(ROOT / "scenarios" / "duel.yaml"), "--grid", "d20+wat", "--quiet", "--out", str(tmp_path / "x")],
    )
    assert bad.exit_code == 2 and "unknown variant" in bad.stderr
    missing = runner.invoke(app, ["run", str(tmp_path / "nope.yaml"), "--quiet", "--out", str(tmp_path / "y")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
