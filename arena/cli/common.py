"""Small helpers shared by the command modules."""

import os


def default_workers() -> int:
    """Every local core: results do not depend on the number of workers, so the default uses them all."""
    return max(1, os.cpu_count() or 1)
