"""Long requests are never silent: past a few seconds a progress line every ten seconds on stderr (a bar on a
terminal); short work prints nothing (issue 22, finding 11). The clock is a fake: nothing here is timed."""

from __future__ import annotations

import io

from arena.cli.odds import sweep_rows
from arena.cli.progress import LINE_EVERY, Progress
from arena.rules import Check, RuleSet


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_short_work_prints_nothing():
    clock, out = FakeClock(), io.StringIO()
    with Progress("cells", 100, clock=clock, stream=out) as progress:
        for _ in range(100):
            clock.now += 0.01
            progress.advance()
    assert out.getvalue() == ""


def test_long_work_in_a_pipe_prints_a_line_every_ten_seconds_with_what_is_left():
    clock, out = FakeClock(), io.StringIO()
    with Progress("exact odds (cells)", 320, clock=clock, stream=out) as progress:
        for _ in range(320):
            clock.now += 0.125  # 40 s in all (exact in binary)
            progress.advance()
    lines = out.getvalue().splitlines()
    assert len(lines) == 40 / LINE_EVERY
    assert lines[0] == "exact odds (cells): 80 of 320 (25%) after 10 s, about 30 s left"
    assert lines[-1] == "exact odds (cells): 320 of 320 (100%) after 40 s"


def test_the_odds_sweep_counts_every_cell():
    class Counter:
        done = 0

        def advance(self, steps: int = 1) -> None:
            self.done += steps

    counter = Counter()
    rules = [RuleSet.from_key("d20"), RuleSet.from_key("3d6")]
    rows = sweep_rows(Check("attack", "pc", 5, 15), rules, [15, 16, 17], [[5, 0]], "1d8", counter)  # type: ignore[arg-type]
    assert len(rows) == counter.done == 6
