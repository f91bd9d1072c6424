"""The parent of a study does its numpy arithmetic on one thread while its workers fight.

Why: OpenBLAS (numpy's and scipy's linear algebra) starts a thread per core for a matrix product. In a study's
parent the products are small (a cell's bootstrap: 3,000 resamples times a few dozen encounters) and the cores are
the workers', so those threads only wait for each other: on two busy cores one bootstrap product took 1.7 ms of CPU
on OpenBLAS's threads and 0.19 ms on one (issue 25). Local workers are limited by joblib already; this is the
parent's limit, for the length of a study (``threadpoolctl``, the limit joblib uses), and lifted after it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's and scipy's BLAS on one thread in this process for the ``with`` block (restored after it)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield
