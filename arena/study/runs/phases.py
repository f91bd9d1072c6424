"""A study's independent parts run at once on one pool of workers, so the parent's own work (judging one part's
fights, calibrating a look of the grid) is done while the workers fight another part's encounters.

Why: a study is several parts (the encounter claims, the calibration grid and its re-runs, the DMG anchor), each a
chain of batches with the parent's serial work between them. Run one after another on two workers, the workers
waited through every gap: ``claims --quick`` scaled 1.4x from one worker to two (issue 25). Run at once, each part
on a thread of the parent, the gaps of one are filled with another's fights.

Which part the pool serves first: the pool takes chunks in the order they come, so each part gets a share of it
like the number of chunks it keeps waiting there. The part whose batches wait on each other longest (the main
calibration grid: look, judge, grow the ladder, fight again) keeps more (``lead``:
:func:`arena.study.runs.workers.execute`), so its chain ends sooner and the parts with no chain (the encounter
claims: one batch) fill the gaps and the end. With the last parts' judging sent to the workers too, ``claims
--quick`` on two workers went from 196.9 s to 170.3 s, side by side (docs/benchmarks.md).

The numbers do not change: a part's results depend only on its own batches, and a batch's rows only on its seeds
(every chunk is seeded by its encounter index), never on when or where a chunk was fought. Parts are handed back in
the order they were given. With one local worker nothing is gained (the parent fights), so the parts run one after
another on the calling thread, as before.

Safety: a part that fails, Ctrl-C or SIGTERM (raised in the main thread, which waits here) stops the other parts
at their next finished chunk (their ``stop`` event; :func:`arena.study.runs.workers.execute`), and the first error
is raised once every part has stopped; finished chunks are kept (``--resume``).
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

from arena.study.runs.workers import JOBLIB_CANCELLED, Cancelled

T = TypeVar("T")
Phase = Callable[[dict[str, Any]], Any]
"""A part of a study: called with the fighting options to hand to every batch it fights
(:func:`arena.study.runs.matchups.run_batch`: ``workers``, ``cluster``, ``progress``, ``store`` and, when parts run at
once, ``stop`` and ``share_pool``)."""


def concurrent(fighting: dict[str, Any]) -> bool:
    """Whether parts gain by running at once: a pool of local workers or a cluster fights while the parent works."""
    return fighting.get("cluster") is not None or int(fighting.get("workers", 1)) > 1


def announced(name: str, phase: Phase, announce: Callable[[str], None] | None) -> Phase:
    """``phase``, saying when it starts and when it is done (``announce``: one line each, e.g. on stderr)."""
    if announce is None:
        return phase

    def run(fighting: dict[str, Any]) -> Any:
        announce(f"{name}: started")
        started = time.perf_counter()
        out = phase(fighting)
        announce(f"{name}: done in {time.perf_counter() - started:.0f} s")
        return out

    return run


def run_phases(
    phases: dict[str, Phase], fighting: dict[str, Any], announce: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Each phase's result, by name, in the order given; at once on the pool when that gains (:func:`concurrent`),
    otherwise one after another. ``announce``: told a line as each phase starts and ends."""
    phases = {name: announced(name, phase, announce) for name, phase in phases.items()}
    if len(phases) <= 1 or not concurrent(fighting):
        return {name: phase(fighting) for name, phase in phases.items()}
    stop = threading.Event()
    progress = SharedProgress(fighting.get("progress"))
    shared = {**fighting, "progress": progress, "stop": stop, "share_pool": True}
    with warnings.catch_warnings():  # set here, in the main thread, for every part (execute leaves it to us)
        warnings.filterwarnings("ignore", JOBLIB_CANCELLED, UserWarning)
        with ThreadPoolExecutor(max_workers=len(phases), thread_name_prefix="arena-phase") as pool:
            futures = {name: pool.submit(phase, shared) for name, phase in phases.items()}
            try:
                done, _ = wait(list(futures.values()), return_when=FIRST_EXCEPTION)
                failed = [f for f in futures.values() if f in done and f.exception() is not None]
                if failed:
                    stop.set()
                    wait(list(futures.values()))
                    raise _first_error(list(futures.values()))
            except BaseException:
                stop.set()  # Ctrl-C, SIGTERM or a failed part: the others stop at their next chunk
                raise
    return {name: f.result() for name, f in futures.items()}


def _first_error(futures: list[Future]) -> BaseException:
    """The error to report: the first part's that is not a :class:`Cancelled` (a part stopped because another
    failed)."""
    errors = [e for e in (f.exception() for f in futures) if e is not None]
    return next((e for e in errors if not isinstance(e, Cancelled)), errors[0])


class SharedProgress:
    """One ``progress(done, total)`` over every batch the parts fight at once: the sums of each thread's batch in
    flight and of the batches finished. Called from the parts' threads; the wrapped callback is called under a lock,
    one call at a time."""

    def __init__(self, report: Callable[[int, int], None] | None) -> None:
        self._report = report
        self._lock = threading.Lock()
        self._finished = (0, 0)
        self._current: dict[int, tuple[int, int]] = {}

    def __call__(self, done: int, total: int) -> None:
        with self._lock:
            key = threading.get_ident()
            if done >= total:  # this thread's batch is complete: counted with the finished ones
                self._current.pop(key, None)
                self._finished = (self._finished[0] + done, self._finished[1] + total)
            else:
                self._current[key] = (done, total)
            if self._report is not None:
                flying = list(self._current.values())
                self._report(
                    self._finished[0] + sum(d for d, _ in flying), self._finished[1] + sum(t for _, t in flying)
                )
