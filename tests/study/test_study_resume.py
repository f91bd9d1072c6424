"""`arena claims` and `arena calibrate` keep their finished fights in --out: an interrupted study (Ctrl-C, SIGTERM)
says what it kept and resumes to the very files an uninterrupted one writes; the folder is locked for the whole
study; --force removes only the files of the command's own kind (the audit's findings 1 and 4)."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from fractions import Fraction
from pathlib import Path

import cpu_limits
import pytest
from experiment_fakes import FakeScenario, FakeSimulator
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ArenaError
from arena.study.claims import design, statements
from arena.study.runs.experiment import run_experiment
from arena.study.runs.folder import FolderInUse, folder_kind, locked
from arena.study.runs.study_folder import StudyFolder, open_study

runner = CliRunner()
ARENA = [sys.executable, "-m", "arena"]
"""The installed command, as this interpreter runs it."""

CLAIMS = ["claims", "--only", "bell-favours-stronger,bell-group-cr", "--n", "6", "--workers", "1"]
"""A tiny study (the cells below): one encounter claim with its robustness re-runs, and the sequential grid."""
REAL_SAVE = StudyFolder.save
CALIBRATE = ["calibrate", "orc", "--party-level", "1", "--sizes", "1", "--n", "20", "--workers", "1"]


@pytest.fixture
def tiny(monkeypatch):
    """Every claim and the grid on two cells, the anchor on one: a study of a few seconds."""
    cells = ((3, Fraction(3), 1), (3, Fraction(1), 4))
    for c in statements.ENCOUNTER_CLAIMS:
        monkeypatch.setattr(c, "cells", lambda cells=cells: cells)
    monkeypatch.setattr(design, "grid_cells", lambda *a, **k: cells)
    monkeypatch.setattr(design, "anchor_cells", lambda *a, **k: ((3, Fraction(3), 1),))


def counting_saves(monkeypatch, stop_after: int | None = None) -> list[int]:
    """Count the chunks a study writes; with ``stop_after``, Ctrl-C (KeyboardInterrupt) once that many are kept."""
    count = [0]

    def save(self, *args, **kwargs):
        REAL_SAVE(self, *args, **kwargs)
        count[0] += 1
        if stop_after is not None and count[0] >= stop_after:
            raise KeyboardInterrupt

    monkeypatch.setattr(StudyFolder, "save", save)
    return count


def chunk_files(out: Path) -> list[Path]:
    return sorted((out / "chunks").glob("*.arrow")) if (out / "chunks").is_dir() else []


def without_timings(text: str) -> str:
    """claims.md without the seconds a study took (the one thing two runs of it never share)."""
    return re.sub(r"in [\d,.]+ s of fighting, [\d,.]+ s in all", "in (timing)", text)


def same_study(a: Path, b: Path) -> None:
    """Every file of two studies byte for byte, but the timings of claims.md and manifest.json."""
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        if name == "manifest.json":
            one, two = (json.loads((f / name).read_text()) for f in (a, b))
            for doc in (one, two):
                for key in ("started", "finished", "fight_seconds", "total_seconds", "timings"):
                    doc.pop(key, None)
            assert one == two
        elif name == "claims.md":
            assert without_timings((a / name).read_text()) == without_timings((b / name).read_text())
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def one_line(stderr: str) -> str:
    """The one line of stderr that is not a study's progress (`arena claims` says each phase off a terminal)."""
    lines = [line for line in stderr.strip().splitlines() if not line.startswith("arena claims")]
    assert len(lines) == 1, stderr
    return lines[0]


# --------------------------------------------------------------------------------------------- resume
def test_an_interrupted_claims_study_resumes_to_the_same_files(tiny, tmp_path, monkeypatch):
    full, part = tmp_path / "full", tmp_path / "part"
    saves = counting_saves(monkeypatch)
    assert runner.invoke(app, [*CLAIMS, "--out", str(full)]).exit_code == 0
    total = saves[0]
    assert total >= 8 and not (full / "chunks").exists()  # the chunks go once the study's files are written
    assert json.loads((full / "manifest.json").read_text())["status"] == "complete"

    counting_saves(monkeypatch, stop_after=3)  # Ctrl-C after three chunks
    stopped = runner.invoke(app, [*CLAIMS, "--out", str(part)])
    assert stopped.exit_code == 130
    line = one_line(stopped.stderr)
    assert line.startswith("interrupted: 3 finished chunks kept in") and line.endswith("--resume")
    assert len(chunk_files(part)) == 3 and not (part / "claims.md").exists()
    assert json.loads((part / "manifest.json").read_text())["status"] == "running"

    again = runner.invoke(app, [*CLAIMS, "--out", str(part)])  # neither --resume nor --force: refused
    assert again.exit_code == 2 and "unfinished" in one_line(again.stderr) and len(chunk_files(part)) == 3

    counting_saves(monkeypatch, stop_after=2)  # interrupted again while resuming
    assert runner.invoke(app, [*CLAIMS, "--out", str(part), "--resume"]).exit_code == 130
    assert len(chunk_files(part)) == 5

    saves = counting_saves(monkeypatch)
    done = runner.invoke(app, [*CLAIMS, "--out", str(part), "--resume"])
    assert done.exit_code == 0, done.output
    assert saves[0] == total - 5  # the kept chunks were not fought again
    same_study(full, part)

    nothing = runner.invoke(app, [*CLAIMS, "--out", str(part), "--resume"])
    assert nothing.exit_code == 0 and "nothing to resume" in nothing.stdout and saves[0] == total - 5


def test_a_damaged_chunk_is_fought_again(tiny, tmp_path, monkeypatch):
    full, part = tmp_path / "full", tmp_path / "part"
    assert runner.invoke(app, [*CLAIMS, "--only", "bell-favours-stronger", "--out", str(full)]).exit_code == 0
    counting_saves(monkeypatch, stop_after=3)
    assert runner.invoke(app, [*CLAIMS, "--only", "bell-favours-stronger", "--out", str(part)]).exit_code == 130
    damaged = chunk_files(part)[1]
    damaged.write_bytes(os.urandom(300))
    counting_saves(monkeypatch)
    done = runner.invoke(app, [*CLAIMS, "--only", "bell-favours-stronger", "--out", str(part), "--resume"])
    assert done.exit_code == 0 and damaged.name in done.stderr and "fighting it again" in done.stderr
    same_study(full, part)


STOPPER = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)   # as from a shell: a test runner's worker may ignore it
signal.signal(signal.SIGTERM, signal.SIG_DFL)
from arena.study.runs.study_folder import StudyFolder
real, saved = StudyFolder.save, [0]
def save(self, *args, **kwargs):
    real(self, *args, **kwargs)
    saved[0] += 1
    if saved[0] == {after}:
        os.kill(os.getpid(), {signum})      # delivered in the main thread, as a user's Ctrl-C or kill would be
StudyFolder.save = save
from arena.cli import main
sys.argv = ["arena", *{args!r}]
main()
"""
"""The real command, which sends itself ``signum`` once it has kept ``after`` more chunks: the signal comes at a
known point, so the test never races the command (a poll for files on disk missed the window on a loaded machine
and the command finished first)."""


def test_a_calibration_stopped_by_signals_resumes_with_no_noise(tmp_path):
    """The real command stopped by SIGTERM (with two workers) and then by SIGINT: one line each (no loky warning, no
    traceback), and the resumed table is the uninterrupted one's."""
    args = ["calibrate", "orc", "--party-level", "1", "--sizes", "1", "--n", "200"]  # seven chunks of 200
    assert runner.invoke(app, [*args, "--workers", "1", "--out", str(tmp_path / "full")]).exit_code == 0
    part = tmp_path / "part"
    steps = ((signal.SIGTERM, ["--workers", "2"], 2, 2), (signal.SIGINT, ["--workers", "1", "--resume"], 2, 4))
    for signum, extra, after, kept in steps:
        code = STOPPER.format(after=after, signum=int(signum), args=[*args, "--out", str(part), *extra])
        proc = cpu_limits.run(
            [sys.executable, "-c", code], cpu=60, capture_output=True, text=True, start_new_session=True
        )
        assert proc.returncode == 128 + signum, proc.stderr
        line = one_line(proc.stderr)
        head = "stopped by signal 15" if signum == signal.SIGTERM else "interrupted"
        assert line.startswith(f"{head}: {kept} finished chunks kept") and line.endswith("--resume"), line
        assert "arena calibrate orc" in line and line.count("--resume") == 1
        assert len(chunk_files(part)) == kept
    done = cpu_limits.run(
        [*ARENA, *args, "--workers", "1", "--out", str(part), "--resume"], cpu=60, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert not done.stderr and not (part / "chunks").exists()
    assert (part / "calibration.csv").read_bytes() == (tmp_path / "full" / "calibration.csv").read_bytes()
    manifest = json.loads((part / "manifest.json").read_text())
    assert manifest["kind"] == "calibration" and manifest["status"] == "complete"


def test_interrupting_a_study_without_out_says_nothing_was_kept(tiny, monkeypatch):
    def stop(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("arena.study.runs.workers.execute", stop)
    result = runner.invoke(app, CLAIMS)
    assert result.exit_code == 130
    assert one_line(result.stderr).startswith("interrupted: nothing was kept") and "--out" in result.stderr


def test_resume_and_force_need_out_and_exclude_each_other(tmp_path):
    for flags in (["--resume"], ["--force"]):
        for args in (CLAIMS, CALIBRATE):
            result = runner.invoke(app, [*args, *flags])
            assert result.exit_code == 2 and "needs --out" in one_line(result.stderr)
    both = runner.invoke(app, [*CALIBRATE, "--out", str(tmp_path / "c"), "--resume", "--force"])
    assert both.exit_code == 2 and "contradict" in both.stderr and not (tmp_path / "c").exists()


# --------------------------------------------------------------------------------------------- the folder
def test_a_second_writer_is_refused(tmp_path):
    out = tmp_path / "busy"
    with locked(out):
        for args in (["claims", "--only", "press-luck-5"], CALIBRATE):
            result = runner.invoke(app, [*args, "--out", str(out)])
            assert result.exit_code == 2
            assert one_line(result.stderr).startswith("error: ") and "in use" in result.stderr
        assert [p.name for p in out.iterdir()] == [".arena-lock"]


def test_the_lock_is_held_for_the_whole_study(tmp_path):
    with open_study(tmp_path / "s", "claims", {"n": 1}, command="arena claims") as study:
        with pytest.raises(FolderInUse):
            run_experiment([FakeScenario(n=5)], study.folder, simulator=FakeSimulator(), force=True)
        with pytest.raises(FolderInUse), open_study(study.folder, "claims", {"n": 1}, command="x"):
            pass
    with open_study(tmp_path / "s", "claims", {"n": 1}, command="arena claims", resume=True) as again:
        assert not again.complete


def test_resume_with_other_settings_or_code_is_refused(tmp_path, monkeypatch):
    with open_study(tmp_path / "s", "calibration", {"n": 20}, command="arena calibrate"):
        pass
    with (
        pytest.raises(ArenaError, match=r"other settings \(n: 20 -> 40\).*--force"),
        open_study(tmp_path / "s", "calibration", {"n": 40}, command="x", resume=True),
    ):
        pass
    import arena.study.runs.study_folder as study_folder

    monkeypatch.setattr(study_folder, "code_fingerprint", lambda: "0" * 64)
    with (
        pytest.raises(ArenaError, match="another version of d20 Arena"),
        open_study(tmp_path / "s", "calibration", {"n": 20}, command="x", resume=True),
    ):
        pass


def test_resume_of_an_empty_folder_starts_the_study(tmp_path):
    (tmp_path / "new").mkdir()
    with open_study(tmp_path / "new", "claims", {}, command="arena claims", resume=True) as study:
        assert not study.complete and study.manifest["status"] == "running"


# --------------------------------------------------------------------------------------------- --force and kinds
def claims_folder(path: Path) -> Path:
    """A claims folder as an older `arena claims --out` wrote it (its manifest names no kind)."""
    path.mkdir()
    (path / "manifest.json").write_text(json.dumps({"command": "arena claims --out x", "verdicts": {"a": "b"}}))
    (path / "summary.csv").write_text("id,verdict\na,b\n")
    (path / "claims.md").write_text("# claims\n")
    return path


def snapshot(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_run_force_refuses_a_claims_folder(tmp_path):
    out = claims_folder(tmp_path / "c")
    before = snapshot(out)
    with pytest.raises(ArenaError, match=r"is a study of `arena claims` \(manifest.json, summary.csv"):
        run_experiment([FakeScenario(n=5)], out, simulator=FakeSimulator(), force=True)
    result = runner.invoke(
        app,
        [
            "run",
            str(Path(__file__).parents[2] / "scenarios" / "duel.yaml"),
            "--n",
            "5",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(out),
            "--force",
        ],
    )
    assert result.exit_code == 2 and "arena claims" in one_line(result.stderr)
    assert snapshot(out) == before


def test_claims_and_calibrate_force_refuse_another_commands_folder(tmp_path):
    run_folder = tmp_path / "r"
    run_experiment([FakeScenario(n=5)], run_folder, simulator=FakeSimulator())
    cal_folder = tmp_path / "cal"
    cal_folder.mkdir()
    (cal_folder / "calibration.csv").write_text("party_level\n1\n")
    claims_dir = claims_folder(tmp_path / "c")
    for args, folder, holds in (
        (["claims", "--only", "press-luck-5"], run_folder, "arena run"),
        (["claims", "--only", "press-luck-5"], cal_folder, "arena calibrate"),
        (CALIBRATE, claims_dir, "arena claims"),
        (CALIBRATE, run_folder, "arena run"),
    ):
        before = snapshot(folder)
        for flags in ([], ["--force"], ["--resume"]):
            result = runner.invoke(app, [*args, "--out", str(folder), *flags])
            assert result.exit_code == 2 and holds in one_line(result.stderr), (args, flags, result.stderr)
        assert snapshot(folder) == before


def test_force_removes_only_the_studys_own_files(tmp_path):
    out = claims_folder(tmp_path / "c")
    (out / "notes.txt").write_text("a user's own file")
    (out / "chunks").mkdir()
    (out / "chunks" / "mine.txt").write_text("keep me")
    result = runner.invoke(app, ["claims", "--only", "press-luck-5", "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert (out / "notes.txt").read_text() == "a user's own file" and (out / "chunks" / "mine.txt").exists()
    assert "arena did not write" in result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "claims" and manifest["verdicts"] == {
        "press-luck-5": manifest["verdicts"]["press-luck-5"]
    }


def test_folder_kinds(tmp_path):
    assert folder_kind(tmp_path / "missing") is None
    (tmp_path / "empty").mkdir()
    assert folder_kind(tmp_path / "empty") is None
    assert folder_kind(claims_folder(tmp_path / "old-claims")) == "claims"
    run_experiment([FakeScenario(n=5)], tmp_path / "run", simulator=FakeSimulator())
    assert folder_kind(tmp_path / "run") == "run"
    (tmp_path / "cal").mkdir()
    (tmp_path / "cal" / "calibration.csv").write_text("x\n")
    assert folder_kind(tmp_path / "cal") == "calibration"
    (tmp_path / "bait").mkdir()
    (tmp_path / "bait" / "manifest.json").write_text('{"status": "complete"}')
    assert folder_kind(tmp_path / "bait") == "run"  # what `run --force` has always taken as its own
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("years of work")
    assert folder_kind(tmp_path / "mine") is None


def test_a_complete_study_is_replaced_and_its_stale_files_go(tmp_path):
    out = claims_folder(tmp_path / "c")
    (out / "rule-fit.png").write_bytes(b"an old plot")
    result = runner.invoke(app, ["claims", "--only", "press-luck-5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert not (out / "rule-fit.png").exists() and "press-luck-5" in (out / "claims.md").read_text()
