"""Checking the options of a study command (workers, seeds, sizes of runs, party levels, group sizes, metrics,
rule-set keys) in one place, for the command line and the library alike: one line naming the option and the limit.

Why a module of its own: the same limits hold for the CLI and the library (``arena.calibrate``, the claims), so they are
checked once, with the same messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.errors import ArenaError
from arena.limits import MAX_ENCOUNTERS, MAX_GROUP_COUNT, MAX_SEED, MAX_WORKERS

METRICS = ("win", "hp-lost", "death", "resources")
PARTY_LEVELS = range(1, 21)


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ArenaError(f"{what} must be a whole number, not {value!r}")
    return int(value)


def check_workers(workers: Any, what: str = "--workers") -> int:
    """Local worker processes: 1 to :data:`~arena.limits.MAX_WORKERS`."""
    workers = _whole(workers, what)
    if not 1 <= workers <= MAX_WORKERS:
        raise ArenaError(f"{what} must be 1 to {MAX_WORKERS}, not {workers}")
    return workers


def check_seed(seed: Any, what: str = "--seed") -> int:
    """A run seed: 0 to :data:`~arena.limits.MAX_SEED`."""
    seed = _whole(seed, what)
    if not 0 <= seed <= MAX_SEED:
        raise ArenaError(f"{what} must be 0 to {MAX_SEED:,}, not {seed:,}")
    return seed


def check_n(n: Any, least: int, what: str = "--n") -> int:
    """Encounters per arm: ``least`` to :data:`~arena.limits.MAX_ENCOUNTERS`."""
    n = _whole(n, what)
    if not least <= n <= MAX_ENCOUNTERS:
        raise ArenaError(f"{what} must be {least} to {MAX_ENCOUNTERS:,}, not {n:,}")
    return n


def check_level(level: Any, what: str = "--party-level") -> int:
    level = _whole(level, what)
    if level not in PARTY_LEVELS:
        raise ArenaError(f"{what} must be 1-20, not {level}")
    return level


def check_sizes(sizes: Sequence[Any], what: str = "--sizes") -> tuple[int, ...]:
    """Group sizes: at least one, each 1 to :data:`~arena.limits.MAX_GROUP_COUNT`, none twice."""
    if not sizes:
        raise ArenaError(f"{what}: give group sizes of 1 to {MAX_GROUP_COUNT}, e.g. 1,2,4,6")
    out = []
    for s in sizes:
        s = _whole(s, what)
        if not 1 <= s <= MAX_GROUP_COUNT:
            raise ArenaError(f"{what}: a group size must be 1 to {MAX_GROUP_COUNT}, not {s:,}")
        if s in out:
            raise ArenaError(f"{what}: size {s} is given twice")
        out.append(s)
    return tuple(out)


def check_metric(metric: Any) -> str:
    if metric not in METRICS:
        raise ArenaError(f"--metric must be one of {', '.join(METRICS)}, not {metric!r}")
    return metric


def parse_sizes(text: str, what: str = "--sizes") -> tuple[int, ...]:
    """``"1,2,4,6"`` -> (1, 2, 4, 6); anything else (an empty item, a word, a sign, a duplicate) is an error."""
    import re

    items = [item.strip() for item in text.split(",")]
    if not text.strip():
        raise ArenaError(f"{what}: give group sizes separated by commas, e.g. 1,2,4,6")
    for item in items:
        if not re.fullmatch(r"[0-9]{1,9}", item):
            shown = "an empty item" if not item else repr(item[:40])
            raise ArenaError(
                f"{what} {text[:60]!r}: {shown} is not a group size (whole numbers 1 to "
                f"{MAX_GROUP_COUNT}, separated by commas)"
            )
    return check_sizes([int(item) for item in items], what)


def rule_keys(rules: Sequence[str], what: str = "--rules") -> tuple[str, ...]:
    """The canonical keys of ``rules`` (each a valid rule-set key), at least one, in order, without repeats."""
    from arena.rules import RuleSet

    keys = []
    for r in rules:
        try:
            keys.append(RuleSet.from_key(r).key)
        except ArenaError as err:
            raise ArenaError(f"{what}: {err}") from None
    if not keys:
        raise ArenaError(f"{what}: give at least one rule set, e.g. 3d6")
    return tuple(dict.fromkeys(keys))
