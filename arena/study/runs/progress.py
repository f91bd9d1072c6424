"""The one progress bar of the study (rich): encounters done, their rate and the time left, for ``arena.run`` on long
runs (in a terminal or a notebook) and for ``arena run``, ``arena claims`` and ``arena calibrate``.

Why a module of its own: it is the only thing the study draws on a terminal itself; everything else that is shown
is the command line's. It is a ``progress(done, total)`` callback like any other, so a run needs no terminal.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any


@contextlib.contextmanager
def rich_progress(enabled: bool, description: str = "encounters") -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar (encounters done, rate, ETA) as a ``progress(done, total)`` callback."""
    if not enabled:
        yield lambda _done, _total: None
        return
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
    with Progress(*columns, transient=False) as bar:
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
