"""Progress on stderr for a request that may run long: the user hears within seconds that work is under way.

Short work prints nothing (so quick commands, and their exact output, are unchanged). Past a few seconds a
terminal shows a transient bar; anything else (a pipe, a CI log) gets one plain line every ten seconds, so a long
`arena odds attack --ac 100..200 --all-variants` or a `bestiary validate` of thousands of files is never silent.
A study off a terminal (`arena claims` in a CI log) gets :class:`StudyLines`: a line as each phase starts, and one
every ten seconds while it fights, whose total grows as its parts add their batches.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import Any

TERMINAL_DELAY = 2.0
"""Seconds of work before a terminal shows the bar."""
LINE_EVERY = 10.0
"""Seconds between two plain progress lines when stderr is not a terminal (the first comes after as long)."""
CLOCK = time.monotonic
"""The clock :class:`StudyLines` reads (a test sets its own)."""


class Progress:
    """Counts ``total`` steps of ``what``; a context manager (the bar goes away at its end)."""

    def __init__(self, what: str, total: int, *, clock: Any = time.monotonic, stream: Any = None) -> None:
        self.what, self.total, self.done = what, total, 0
        self._clock = clock
        self._stream = stream if stream is not None else sys.stderr
        self._started = clock()
        self._next_line = self._started + LINE_EVERY
        self._bar: Any = None
        self._task: Any = None
        self._terminal = bool(getattr(self._stream, "isatty", lambda: False)())

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        now = self._clock()
        if self._terminal:
            if self._bar is None and now - self._started >= TERMINAL_DELAY:
                self._start_bar()
            if self._bar is not None:
                self._bar.update(self._task, completed=self.done)
        elif now >= self._next_line:
            self._next_line = now + LINE_EVERY
            self._line(now)

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as Bar

        self._bar = Bar(
            TextColumn(self.what),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(file=self._stream),
            transient=True,
        )
        self._bar.start()
        self._task = self._bar.add_task(self.what, total=self.total, completed=self.done)

    def _line(self, now: float) -> None:
        elapsed = now - self._started
        share = self.done / self.total if self.total else 1.0
        left = f", about {_duration(elapsed / share - elapsed)} left" if 0 < share < 1 else ""
        print(
            f"{self.what}: {self.done:,} of {self.total:,} ({share:.0%}) after {_duration(elapsed)}{left}",
            file=self._stream,
            flush=True,
        )


class StudyLines:
    """A study's progress as plain lines on stderr, for a run off a terminal: :meth:`phase` says what starts, and as a
    ``progress(done, total)`` callback it prints the encounters fought every :data:`LINE_EVERY` seconds (the total
    is taken at every call: a study's parts add their batches to it)."""

    def __init__(self, what: str, *, stream: Any = None) -> None:
        self.what = what
        self._stream = stream if stream is not None else sys.stderr
        self._started = CLOCK()
        self._next_line = self._started + LINE_EVERY
        self._resumed = 0
        self._lock = threading.Lock()
        self.done = self.total = 0

    def phase(self, text: str) -> None:
        """One line: the study's next phase, with the time since it started."""
        self._print(f"{self.what}: {text} ({_duration(CLOCK() - self._started)})")

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        now = CLOCK()
        if now >= self._next_line:
            self._next_line = now + LINE_EVERY
            fought, of = max(0, done - self._resumed), max(0, total - self._resumed)
            share = fought / of if of else 1.0
            elapsed = now - self._started
            left = f", about {_duration(elapsed / share - elapsed)} left" if 0 < share < 1 else ""
            self._print(f"{self.what}: {fought:,} of {of:,} encounters ({share:.0%}) after {_duration(elapsed)}{left}")

    def resumed(self, count: int) -> None:
        """Told before any fighting that ``count`` encounters were on disk already (``--resume``): not counted."""
        self._resumed = count
        if count:
            self._print(f"{self.what}: {count:,} encounters resumed from the study folder")

    def _print(self, line: str) -> None:
        # A study's parts announce from their own threads: one write per line, under a lock, so two lines never
        # run together (``print`` writes the line and its newline apart).
        with self._lock:
            self._stream.write(line + "\n")
            self._stream.flush()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
