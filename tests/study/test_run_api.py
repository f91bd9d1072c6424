"""`arena.run` from a notebook: a typed signature, every core by default, a progress bar; the run's progress
counts only what was really resumed; the manifest's commit comes from the checkout a run starts in."""

from __future__ import annotations

import inspect
import os
import subprocess

import pandas as pd
from experiment_fakes import FakeScenario, FakeSimulator

import arena
from arena.study.runs import identity, in_memory, progress


def test_run_signature_is_typed_and_uses_every_core(monkeypatch):
    sig = inspect.signature(arena.run)
    assert sig.return_annotation == "pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]"  # with combatants=True
    assert all(p.annotation is not inspect.Parameter.empty for p in sig.parameters.values())
    assert sig.parameters["workers"].default is None and "progress" in sig.parameters
    seen = {}
    real = in_memory.execute

    def spy(plan, chunks, sink, *, workers, **kwargs):
        seen["workers"] = workers
        return real(plan, chunks, sink, workers=1, **kwargs)

    monkeypatch.setattr(in_memory, "execute", spy)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    frame = arena.run(FakeScenario(n=600, keys=("d20", "3d6")), chunk_size=100, simulator=FakeSimulator())
    assert isinstance(frame, pd.DataFrame) and len(frame) == 1200 and seen["workers"] == 2


def test_progress_counts_only_resumed_encounters_as_resumed(monkeypatch):
    """A fresh run's first finished chunk is progress, not "resumed" (the bar said "150 resumed" before)."""
    events = []

    class Bar:
        def __init__(self, *columns, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def add_task(self, description, total=None):
            return 0

        def update(self, task, **kwargs):
            events.append(kwargs)

    import rich.progress

    monkeypatch.setattr(rich.progress, "Progress", Bar)
    with progress.rich_progress(True) as tick:
        tick(150, 600)  # a caller that never says what it resumed (calibrate, claims)
        tick(300, 600)
    assert not any("resumed" in str(e.get("description", "")) for e in events)
    assert events[-1] == {"total": 600, "completed": 300}
    with progress.rich_progress(True) as tick:  # a study whose parts add batches as they go: the total follows
        tick(100, 600)
        tick(150, 900)
    assert events[-1] == {"total": 900, "completed": 150}
    events.clear()
    with progress.rich_progress(True) as tick:
        tick.resumed(200)  # run_experiment on --resume
        tick(200, 600)
        tick(400, 600)
    assert any(e.get("description", "").endswith("(200 resumed)") for e in events)
    assert events[-1] == {"total": 400, "completed": 200}


def test_git_commit_from_the_checkout_a_run_starts_in(tmp_path, monkeypatch):
    """An installed package has no .git beside it; a run started in a d20 Arena clone records the clone's commit."""
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text('[project]\nname = "d20-arena"\n')
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for args in (["init", "-q"], ["add", "pyproject.toml"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", *args], cwd=clone, check=True, env=env, capture_output=True)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True).stdout.strip()
    installed = tmp_path / "site-packages" / "arena" / "study" / "runs" / "identity.py"
    monkeypatch.setattr(identity, "__file__", str(installed))
    monkeypatch.chdir(clone / ".git" / "..")
    assert identity.git_commit() == head
    monkeypatch.chdir(tmp_path)
    assert identity.git_commit() is None
