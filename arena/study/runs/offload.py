"""The parent's own number work (judging the calibration grid's cells, its hold-out checks, the encounter claims'
measures) run on the study's workers.

Why: between two batches of the grid, the parent judges every cell (bootstrap intervals on each arm and rung), and
with the study's other parts fighting meanwhile on threads of the parent, that work was serial behind one GIL: on
two workers the parent spent more CPU than either worker (``claims --quick``: 102 s against 84 s), and the study
scaled 1.1x from one worker to two (issue 25). Sent to the workers as tasks beside the fights, the judging runs on
every core; and at the end of a study, when its last parts are judged and nothing is left to fight, on both cores
instead of one.

The numbers do not change: a task is a pure function of what it is sent (its bootstrap seeded by its arguments),
and the answers come back in the order the items were given. One local worker, or ``workers`` 1: in this process.
A pool of local workers: the study's own loky pool (same initializer, so joblib reuses it). A Dask cluster: the
client's workers. A task whose worker dies is done again here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def map_on_workers(
    fn: Callable[[T], R], items: Sequence[T], *, workers: int = 1, cluster: Any = None, **_fighting: Any
) -> list[R]:
    """``[fn(x) for x in items]``, computed where the study fights (``workers``, ``cluster``: as
    :func:`arena.study.runs.matchups.run_batch`; its other fighting options are ignored)."""
    if not items:
        return []
    if cluster is not None:
        return _on_cluster(fn, items, cluster)
    if workers <= 1 or len(items) == 1:
        return [fn(x) for x in items]
    return _on_pool(fn, items, workers)


def _on_pool(fn: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
    from joblib import Parallel, delayed, parallel_config

    from arena.study.runs.workers import _is_worker_death, _worker_init

    try:
        with parallel_config(backend="loky", initializer=_worker_init, initargs=(os.getpid(),)):
            parallel = Parallel(n_jobs=workers, return_as="list", pre_dispatch="2*n_jobs")
        return list(parallel(delayed(fn)(x) for x in items))
    except Exception as err:
        if not _is_worker_death(err):
            raise
        return [fn(x) for x in items]  # a worker died (the fights retry theirs): the same answers, computed here


def _on_cluster(fn: Callable[[T], R], items: Sequence[T], cluster: Any) -> list[R]:
    from arena.study.runs.cluster import cluster_session
    from arena.study.runs.workers import MAX_RETRIES

    with cluster_session(cluster) as client:
        futures = client.map(fn, list(items), pure=False, retries=MAX_RETRIES)
        try:
            return list(client.gather(futures))
        finally:
            for future in futures:
                future.release()
