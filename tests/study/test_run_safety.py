"""The results folder against careless and hostile use: what --force may delete, two runs at once, and --resume
over damaged, replaced or foreign chunks, code changes, links and full disks (issue: hostile input)."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from experiment_fakes import FakeScenario, FakeSimulator, InterruptingSimulator

from arena.dice import encounter_seed
from arena.errors import ArenaError
from arena.labels import printable, slug
from arena.study.runs import folder
from arena.study.runs import plan as plan_module
from arena.study.runs.experiment import run_experiment
from arena.study.runs.folder import FolderInUse, locked

SC = FakeScenario(n=600, keys=("d20", "3d6"))


def full_run(tmp_path: Path) -> Path:
    out = tmp_path / "full"
    run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150)
    return out


def partial_run(tmp_path: Path, name: str = "part") -> Path:
    """A run stopped (Ctrl-C) in the fourth chunk of d20: three whole chunks on disk, listed in the ledger."""
    out = tmp_path / name
    with pytest.raises(KeyboardInterrupt):
        run_experiment([SC], out, simulator=InterruptingSimulator(encounter_seed(SC.seed, 460)), chunk_size=150)
    return out


def chunk_files(out: Path) -> list[Path]:
    return sorted(p for p in (out / "chunks").iterdir() if p.name.endswith(".parquet"))


def resume(out: Path, **kwargs):
    return run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150, resume=True, **kwargs)


def same_rows(a: Path, b: Path) -> None:
    pd.testing.assert_frame_equal(pd.read_parquet(a / "encounters.parquet"), pd.read_parquet(b / "encounters.parquet"))


# --------------------------------------------------------------------------------------------- names and paths
@pytest.mark.parametrize(
    "name",
    [
        "/tmp/v",
        "../..",
        "..",
        ".",
        "a/../../b",
        "x\x1b[31mred",
        "tab\there",
        "",
        "\u202eevil",
        "ünïcødé",
        "x" * 100_000,
        "CON",
        "-rf",
    ],
)
def test_a_name_becomes_a_safe_slug(name):
    s = slug(name)
    assert s and len(s) <= 80 and "/" not in s and not s.startswith(".") and s not in ("..", ".")
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in s)
    assert slug(name) == s  # the same name, the same folder


def test_different_names_do_not_share_a_folder():
    assert slug("/tmp/v") != slug("tmp-v") and slug("a b") != slug("a-b")
    assert slug("reference") == "reference"  # a plain name stays as written


def test_printable_escapes_control_characters_and_cuts_long_names():
    assert printable("x\x1b[31m\x00\n") == "x\\x1b[31m\\x00\\x0a"
    assert printable("\u202eabc") == "\\u202eabc"
    text = printable("y" * 1000, limit=10)
    assert text.startswith("y" * 10) and "990 more characters" in text


def test_the_default_folder_is_under_results_whatever_the_name():
    from arena.cli.run_cmds import default_folder

    for name in ("/tmp/v", "../../etc", "a\x1b]0;title\x07"):
        folder = default_folder(name)
        assert folder.parent == Path("results") and ".." not in folder.parts


# --------------------------------------------------------------------------------------------- --force
def test_force_removes_only_what_a_run_wrote(tmp_path):
    out = full_run(tmp_path)
    (out / "notes.txt").write_text("a user's own file")
    (out / "report").mkdir()
    (out / "report" / "report.md").write_text("# report")
    (out / "report" / "mine.docx").write_text("keep me")
    events = []
    run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150, force=True, on_event=events.append)
    assert (out / "notes.txt").read_text() == "a user's own file"
    assert (out / "report" / "mine.docx").exists() and not (out / "report" / "report.md").exists()
    assert any("did not write" in e for e in events)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_force_refuses_a_folder_that_is_not_a_results_folder(tmp_path):
    out = tmp_path / "docs"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    with pytest.raises(ArenaError, match="does not look like a results folder"):
        run_experiment([SC], out, simulator=FakeSimulator(), force=True)
    assert (out / "thesis.tex").read_text() == "years of work"


def test_force_never_follows_a_chunks_link(tmp_path):
    out = partial_run(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "000-000-0000000000-0000000150.parquet.tmp").write_text("not arena's")
    shutil.rmtree(out / "chunks")
    (out / "chunks").symlink_to(elsewhere)
    for kwargs in ({"force": True}, {"resume": True}):
        with pytest.raises(ArenaError, match="symbolic link"):
            run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150, **kwargs)
    assert (elsewhere / "000-000-0000000000-0000000150.parquet.tmp").exists()


# --------------------------------------------------------------------------------------------- one run per folder
def test_a_locked_folder_is_refused_to_a_second_run(tmp_path):
    out = partial_run(tmp_path)
    with locked(out):
        for kwargs in ({"resume": True}, {"force": True}):
            with pytest.raises(FolderInUse, match="in use by another arena run"):
                run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150, **kwargs)
        assert chunk_files(out)  # nothing was deleted under the first run
    assert resume(out).fought == 1200 - 3 * 150  # the lock ends with its holder


def test_the_lock_is_released_by_a_killed_holder(tmp_path):
    """flock locks die with their process: a run killed with SIGKILL does not leave the folder locked."""
    out = tmp_path / "r"
    out.mkdir()
    pid = os.fork()
    if pid == 0:  # the child takes the lock and is killed holding it
        with locked(out):
            os.kill(os.getpid(), 9)
    os.waitpid(pid, 0)
    with locked(out):
        pass


# --------------------------------------------------------------------------------------------- --resume
@pytest.mark.parametrize("damage", ["random", "truncated", "empty", "copy-of-another", "unlisted"])
def test_resume_refights_a_chunk_it_cannot_verify(tmp_path, damage):
    full = full_run(tmp_path)
    out = partial_run(tmp_path)
    first, second, third = chunk_files(out)
    if damage == "random":
        second.write_bytes(os.urandom(4096))
    elif damage == "truncated":
        second.write_bytes(second.read_bytes()[:200])
    elif damage == "empty":
        second.write_bytes(b"")
    elif damage == "copy-of-another":
        shutil.copyfile(first, second)
    else:
        (out / "chunks" / "ledger.jsonl").write_text("")  # a chunk the ledger does not list
    events = []
    outcome = resume(out, on_event=events.append)
    assert any(second.name in e and "fighting it again" in e for e in events)
    assert outcome.encounters == 1200
    same_rows(out, full)


def test_resume_stops_at_a_chunk_path_that_is_a_folder(tmp_path):
    out = partial_run(tmp_path)
    second = chunk_files(out)[1]
    second.unlink()
    second.mkdir()
    (second / "x").write_text("a user's")
    with pytest.raises(ArenaError, match="not a chunk file"):
        resume(out)
    assert (second / "x").exists()


def test_a_torn_ledger_line_only_costs_its_chunk(tmp_path):
    full = full_run(tmp_path)
    out = partial_run(tmp_path)
    ledger = out / "chunks" / "ledger.jsonl"
    ledger.write_text(ledger.read_text()[:-20])  # the last line cut off half-way
    events = []
    resume(out, on_event=events.append)
    assert sum("fighting it again" in e for e in events) == 1
    same_rows(out, full)


def test_resume_after_a_code_change_is_refused(tmp_path, monkeypatch):
    out = partial_run(tmp_path)
    monkeypatch.setattr(plan_module, "code_fingerprint", lambda: "0" * 64)
    with pytest.raises(ArenaError, match="another version of d20 Arena.*--force"):
        resume(out)
    run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150, force=True)


def test_a_complete_run_with_a_damaged_parquet_is_fought_again(tmp_path):
    full = full_run(tmp_path)
    out = tmp_path / "again"
    shutil.copytree(full, out)
    data = bytearray((out / "encounters.parquet").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (out / "encounters.parquet").write_bytes(bytes(data))
    events = []
    outcome = resume(out, on_event=events.append)
    assert outcome.fought == 1200 and any("damaged" in e for e in events)
    same_rows(out, full)
    assert resume(out).fought == 0  # intact now: nothing to do


def test_an_unreadable_manifest_is_an_error_not_a_traceback(tmp_path):
    out = partial_run(tmp_path)
    (out / "manifest.json").write_bytes(b"\x00\xff{")
    with pytest.raises(ArenaError, match="unreadable manifest"):
        resume(out)
    (out / "manifest.json").write_text("[1, 2]")
    with pytest.raises(ArenaError, match="not a run manifest"):
        resume(out)


# --------------------------------------------------------------------------------------------- the file system
def test_a_full_disk_is_one_error_and_the_finished_chunks_stay(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    out = tmp_path / "r"
    real = pq.write_table
    calls = []

    def fill_up(table, where, *args, **kwargs):
        calls.append(where)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(where))
        return real(table, where, *args, **kwargs)

    monkeypatch.setattr(pq, "write_table", fill_up)
    with pytest.raises(ArenaError, match="the disk is full.*--resume"):
        run_experiment([SC], out, simulator=FakeSimulator(), chunk_size=150)
    assert len(chunk_files(out)) == 2
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] != "complete" and not (out / "encounters.parquet").exists()
    monkeypatch.setattr(pq, "write_table", real)
    assert resume(out).fought == 1200 - 300


def test_out_naming_a_file_or_a_system_folder(tmp_path):
    file = tmp_path / "a-file"
    file.write_text("x")
    with pytest.raises(ArenaError, match="not a folder"):
        run_experiment([SC], file, simulator=FakeSimulator())
    with pytest.raises(ArenaError, match="cannot create the results folder"):
        run_experiment([SC], "/proc/arena-results", simulator=FakeSimulator())


def test_workers_and_sizes_are_bounded():
    with pytest.raises(ArenaError, match="--workers must be 1 to 64"):
        run_experiment([SC], "unused", simulator=FakeSimulator(), workers=1000)
    with pytest.raises(ArenaError, match="1 to 10,000,000"):
        plan_module.make_plan([SC], n=10**12)
    with pytest.raises(ArenaError, match="seed must be 0"):
        plan_module.make_plan([SC], seed=-1)
    with pytest.raises(ArenaError, match="more than the limit"):  # 6 scenarios x 2 rule sets x 10 million
        plan_module.make_plan([FakeScenario(name=f"s{i}") for i in range(6)], n=10_000_000)


def test_a_run_never_starts_more_workers_than_it_has_chunks(tmp_path, monkeypatch):
    """The cap is ``execute``'s own (every caller gets it): the fighting it hands on asks for one worker here."""
    from arena.study.runs import workers as workers_module

    seen = []
    real = workers_module._execute

    def spy(plan, left, sink, workers, *args):
        seen.append(workers)
        return real(plan, left, sink, workers, *args)

    monkeypatch.setattr(workers_module, "_execute", spy)
    run_experiment([FakeScenario(n=20, keys=("d20",))], tmp_path / "r", simulator=FakeSimulator(), workers=64)
    assert seen == [1]


def test_results_folder_layout_constants_match_chunk_names():
    from arena.study.runs.plan import Chunk

    assert folder.CHUNK_RE.match(Chunk(1, 2, 300, 450).filename)
    assert folder.CHUNK_RE.match(Chunk(1, 2, 300, 450).filename + ".tmp")
    from arena.study.runs.combatant_tables import COMBATANTS_FILE, part_name

    assert folder.CHUNK_RE.match(part_name(Chunk(1, 2, 300, 450)))
    assert folder.CHUNK_RE.match(part_name(Chunk(1, 2, 300, 450)) + ".tmp")
    assert not folder.CHUNK_RE.match("001-002-0000000300-0000000450.other.parquet")
    assert COMBATANTS_FILE in folder.RUN_FILES  # --force removes it, a planted link there is refused


def test_a_half_written_combatants_part_is_removed_and_its_chunk_fought_again(tmp_path):
    """A kill between a chunk's combatants part and its ledger line leaves a part the ledger does not list (or a
    ``.tmp``): the resumed run fights that chunk again and the files come out as an uninterrupted run's."""
    from arena.study.runs.combatant_tables import COMBATANTS_FILE
    from arena.study.scenarios.loading import load_scenarios

    scenario = load_scenarios(Path(__file__).resolve().parents[2] / "scenarios" / "duel.yaml")[0]
    run = {"n": 9, "seed": 2, "rules": ["d20"], "chunk_size": 3, "combatants": True}
    full, out = tmp_path / "full", tmp_path / "out"
    run_experiment([scenario], full, **run)
    run_experiment([scenario], out, **run)
    (out / COMBATANTS_FILE).unlink()
    (out / "encounters.parquet").unlink()
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "status": "interrupted"}))
    chunks = out / "chunks"
    chunks.mkdir()
    (chunks / "000-000-0000000003-0000000006.combatants.parquet").write_bytes(b"unlisted")
    (chunks / "000-000-0000000006-0000000009.combatants.parquet.tmp").write_bytes(b"half")
    events: list[str] = []
    outcome = run_experiment([scenario], out, resume=True, on_event=events.append, **run)
    assert outcome.fought == 9
    assert any(
        "000-000-0000000003-0000000006.combatants.parquet" in e and "not in the chunk ledger" in e for e in events
    )
    for name in ("encounters.parquet", COMBATANTS_FILE):
        assert (out / name).read_bytes() == (full / name).read_bytes()
    assert not chunks.exists()
