"""The one progress bar of the study (rich): encounters done, their rate and the time left, for ``arena.run`` and
``arena.calibrate`` on long runs (in a terminal or a notebook) and for ``arena run``, ``arena claims`` and ``arena
calibrate``. It draws on stderr, so that what a script prints on stdout (``python x.py > out.csv``) is only its own.

Why a module of its own: it is the only thing the study draws on a terminal itself; everything else that is shown
is the command line's. It is a ``progress(done, total)`` callback like any other, so a run needs no terminal.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

ProgressCallback = Callable[[int, int], None]
"""``progress(done, total)``: told the encounters finished and the encounters in all, as they finish."""


def watched() -> bool:
    """Someone sees a bar drawn now: stderr is a terminal, or this is a Jupyter kernel (whose stderr is not one)."""
    if sys.stderr is not None and sys.stderr.isatty():
        return True
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


@contextlib.contextmanager
def progress_for(progress: bool | ProgressCallback | None, long: bool = True) -> Iterator[ProgressCallback]:
    """A library call's ``progress=`` as a callback: a callable as it is, True a bar, False none, and None (the
    default) a bar only when the work is ``long`` and someone is watching (:func:`watched`)."""
    if callable(progress):
        yield progress
        return
    with rich_progress(long and watched() if progress is None else bool(progress)) as tick:
        yield tick


@contextlib.contextmanager
def rich_progress(enabled: bool, description: str = "encounters") -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar (encounters done, rate, ETA) on stderr as a ``progress(done, total)`` callback."""
    if not enabled:
        yield lambda _done, _total: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f}/s" if speed else "-/s", style="progress.data.speed")

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=False, console=Console(stderr=True)) as bar:
        task = bar.add_task(description, total=None)
        state = {"resumed": 0}

        def update(done: int, total: int) -> None:
            # encounters found on resume are not part of the rate, nor of this bar; the total is taken every time,
            # as a study's parts add their batches to it (arena.study.runs.phases)
            bar.update(task, total=max(0, total - state["resumed"]), completed=max(0, done - state["resumed"]))

        def resumed(count: int) -> None:
            """Told by :func:`run_experiment` before any fighting: these encounters were already on disk."""
            state["resumed"] = count
            if count:
                bar.update(task, description=f"{description} ({count:,} resumed)")

        update.resumed = resumed  # type: ignore[attr-defined]
        yield update
