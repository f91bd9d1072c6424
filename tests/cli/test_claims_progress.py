"""`arena claims` off a terminal: a line on stderr as each phase starts and ends and every ten seconds while it
fights, a headline for every row of the verdict table, and the next steps at the end. The study is a fake (the real
evaluation's single-roll claims, with encounters counted by a fake fight), on a fake clock: nothing is fought."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arena.cli import app, claims_cmds, progress
from arena.engine_build import describe
from arena.rules.roll_claims import evaluate_all
from arena.study.claims import evaluation

runner = CliRunner()


@pytest.fixture
def fake_study(monkeypatch):
    """``evaluate`` replaced: it reports 250 encounters in three calls over 25 fake seconds (the total growing, as a
    study's parts add their batches), and returns the single-roll claims."""
    now = [100.0]
    monkeypatch.setattr(progress, "CLOCK", lambda: now[0])

    def fake_evaluate(*, progress, announce=None, **_options):
        if announce is not None:
            announce("encounter claims: started")
        for at, done, total in ((1.0, 0, 100), (12.0, 40, 100), (25.0, 100, 250)):
            now[0] = 100.0 + at
            progress(done, total)
        if announce is not None:
            announce("encounter claims: done in 25 s")
        now[0] = 126.0
        return evaluation.Evaluation(
            results=evaluate_all(),
            batch=None,
            seconds=26.0,
            sizes={},
            seed=0,
            quick=True,
            timings={"encounter claims": (250, 25.0)},
        )

    monkeypatch.setattr(evaluation, "evaluate", fake_evaluate)


def test_claims_off_a_terminal_says_each_phase_on_stderr(fake_study):
    result = runner.invoke(app, ["claims", "--quick", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "arena claims --quick: 14 single-roll claims by exact odds; fighting 8 encounter claims, the calibration grid "
        f"(and 4 re-runs of it) and the DMG anchor on 1 worker (engine: {describe()}) (0 s)",
        "arena claims --quick: encounter claims: started (0 s)",
        "arena claims --quick: 40 of 100 encounters (40%) after 12 s, about 18 s left",
        "arena claims --quick: 100 of 250 encounters (40%) after 25 s, about 38 s left",
        "arena claims --quick: encounter claims: done in 25 s (25 s)",
        "arena claims --quick: fought 250 encounters; 14 claims judged (26 s)",
    ]


def test_every_row_has_a_headline_and_the_run_ends_on_the_next_steps(fake_study):
    result = runner.invoke(app, ["claims", "--quick", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith(claims_cmds.NEXT_STEPS)
    assert "arena calibrate MONSTER --bestiary my.yaml" in claims_cmds.NEXT_STEPS
    assert "arena run my-scenario.yaml" in claims_cmds.NEXT_STEPS
    for r in evaluate_all():
        assert claims_cmds.headline(r), r["id"]
    assert "document 4.6%; exact 4.63%; d20 5%" in result.stdout  # bell-narrowest-threat, from its numbers


def test_headlines_sign_a_difference_and_not_a_ratio():
    from arena.study.claims.measures import Part
    from arena.study.statistics.inference import Effect

    ratio = Part("long shots per fight, 3d6 / d20", Effect(0.09, 0.06, 0.15, 10, 100), 0.8, -1, units="ratio")
    points = Part("win rate", Effect(0.05, -0.01, 0.11, 10, 100), 0.02)
    assert claims_cmds.headline({"parts": [ratio]}) == "long shots per fight, 3d6 / d20: 0.09 [0.06, 0.15]"
    assert claims_cmds.headline({"parts": [points]}) == "win rate: +0.05 [-0.01, +0.11]"
    assert claims_cmds.numbers_text({"old_18_20_pct": 15.0, "table": [1, 2]}) == "old 18-20 15%"
    assert claims_cmds.numbers_text({"rows": [1]}) == "exact figures in the report (--out DIR)"


def test_study_lines_count_resumed_encounters_apart(monkeypatch, capsys):
    now = [0.0]
    monkeypatch.setattr(progress, "CLOCK", lambda: now[0])
    lines = progress.StudyLines("arena claims")
    lines.resumed(60)
    now[0] = 10.0
    lines(80, 160)
    now[0] = 15.0
    lines(90, 160)  # within ten seconds of the last line: silent
    assert capsys.readouterr().err.splitlines() == [
        "arena claims: 60 encounters resumed from the study folder",
        "arena claims: 20 of 100 encounters (20%) after 10 s, about 40 s left",
    ]


def test_single_roll_claims_alone_say_no_phase(fake_study):
    result = runner.invoke(app, ["claims", "--only", "press-luck-5", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert claims_cmds._plan(["press-luck-5"], 1) == ("1 single-roll claim by exact odds", False)


def test_study_lines_from_many_threads_never_run_together():
    """The study's parts announce from their own threads: each line is one write, never two writes interleaved
    (seen: "grid: a: started (0 s)arena claims --quick: grid: b: started (0 s)" on one line)."""
    import threading
    import time

    class SlowStream:
        def __init__(self) -> None:
            self.writes: list[str] = []
            self.inside = 0
            self.overlapped = False

        def write(self, text: str) -> None:
            self.inside += 1
            self.overlapped |= self.inside > 1
            time.sleep(0.001)  # a slow terminal: another thread would get in here
            self.writes.append(text)
            self.inside -= 1

        def flush(self) -> None:
            pass

    stream = SlowStream()
    lines = progress.StudyLines("arena claims", stream=stream)
    threads = [threading.Thread(target=lambda i=i: [lines.phase(f"part {i}: {k}") for k in range(5)]) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not stream.overlapped
    assert all(w.endswith("\n") and w.count("\n") == 1 for w in stream.writes)
    assert len("".join(stream.writes).splitlines()) == 30
