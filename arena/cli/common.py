"""Small helpers shared by the command modules."""

import os

from arena.limits import MAX_WORKERS


def default_workers() -> int:
    """Every local core (at most the workers limit): results do not depend on the number of workers, so the default
    uses them all."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))
