"""The report's three measures of a change (the party's win rate, its hit points lost, the rounds), which of them
the page leads with, and signed numbers printed without a negative zero.

Why a module of its own: an easy fight (the party wins every time) moves its hit points lost while every win-rate
change is zero, and a page sorted and coloured by the win rate then shows a wall of zeros. Which measure leads is
decided here once, from what moved (or ``--metric``), and the table, the sort and the heat maps all follow it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from arena.errors import ArenaError
from arena.labels import printable


@dataclass(frozen=True)
class Measure:
    """One measure of a change: its key in the comparisons (``metric``), its ``--metric`` name, how the page names
    it (``label``, and ``short`` in a table cell), its table column, whether it is a fraction shown in points, and
    whether more of it is better for the party (the sort puts the party's best change first)."""

    metric: str
    option: str
    label: str
    short: str
    column: str
    points: bool
    higher_is_better: bool


MEASURES = (
    Measure("win_rate", "win", "party win rate", "win rate", "win_change", True, True),
    Measure("hp_lost", "hp-lost", "party hit points lost", "hp lost", "hp_change", True, False),
    Measure("rounds", "rounds", "rounds", "rounds", "rounds_change", False, False),
)
BY_METRIC = {m.metric: m for m in MEASURES}
BY_OPTION = {m.option: m for m in MEASURES}


def check_measure(option: str | None) -> Measure | None:
    """The measure ``--metric`` names (``win``, ``hp-lost`` or ``rounds``), None when it names none."""
    if option is None:
        return None
    if option not in BY_OPTION:
        raise ArenaError(f"--metric must be one of {', '.join(BY_OPTION)}, not {printable(option)!r}")
    return BY_OPTION[option]


@dataclass(frozen=True)
class Lead:
    """The measures a scenario's page shows first: ``order`` (the lead first: the sort and the first heat map),
    and ``moved``, the measures with at least one significant change after Holm (a heat map each)."""

    order: tuple[Measure, ...]
    moved: tuple[Measure, ...]

    @property
    def first(self) -> Measure:
        return self.order[0]

    @property
    def mapped(self) -> tuple[Measure, ...]:
        """The measures drawn as heat maps: every one that moved, the lead first; the lead alone when none moved."""
        return (self.first, *(m for m in self.moved if m != self.first))


def lead_of(changes: pd.DataFrame, wanted: Measure | None = None) -> Lead:
    """Which measure leads: ``wanted`` (``--metric``) when given; else the one with the most significant changes
    (ties in the order win rate, hit points lost, rounds); when nothing is significant, the first whose changes
    are not all exactly zero (a fight the party always wins has no win-rate change to show), else the win rate."""
    significant = {m: 0 for m in MEASURES}
    varies = {m: False for m in MEASURES}
    if not changes.empty:
        for m in MEASURES:
            rows = changes[changes["metric"] == m.metric]
            significant[m] = int(rows["significant"].astype(bool).sum())
            varies[m] = bool((rows["diff"].to_numpy(float) != 0).any())
    moved = tuple(sorted((m for m in MEASURES if significant[m]), key=lambda m: -significant[m]))
    if wanted is not None:
        first = wanted
    elif moved:
        first = moved[0]
    else:
        first = next((m for m in MEASURES if varies[m]), MEASURES[0])
    rest = [m for m in moved if m != first] + [m for m in MEASURES if m != first and m not in moved]
    return Lead((first, *rest), moved)


# --------------------------------------------------------------------------------------------- numbers shown
EXTRA_DIGITS = 3
"""Decimals a change may gain so that a small change is not shown as zero: an interval's bound of -0.003 points
reads ``-0.003``, not ``0.0`` beside a verdict that says the change is significant (nor ``-0.0``)."""


def _shown(x: float, digits: int, sign: str) -> str:
    for places in range(digits, digits + EXTRA_DIGITS + 1):
        if round(x, places) != 0:
            return f"{x:{sign}.{places}f}"
    return f"{0.0:.{digits}f}"  # nothing to show at any of those places: an unsigned zero, never -0.0


def signed(x: float | None, digits: int = 1) -> str:
    """``x`` with its sign (``+1.2``, ``-0.3``); a small value with up to three more decimals (``-0.004``), and zero
    as ``0.0`` (never ``-0.0``, never a sign on nothing); ``-`` for a missing value."""
    if x is None or not math.isfinite(x):
        return "-"
    return _shown(x, digits, "+")


def unsigned(x: float | None, digits: int = 1) -> str:
    """``x`` without a forced sign, a value that rounds to zero as ``0.0`` (never ``-0.0``); ``-`` when missing."""
    if x is None or not math.isfinite(x):
        return "-"
    return f"{0.0:.{digits}f}" if round(x, digits) == 0 else f"{x:.{digits}f}"


def change_text(measure: Measure, diff: float, low: float, high: float) -> str:
    """A change and its interval as the table shows it: ``-0.3 (-0.5 to 0.0)``, in points for a fraction."""
    scale, digits = (100.0, 1) if measure.points else (1.0, 2)
    return f"{signed(scale * diff, digits)} ({signed(scale * low, digits)} to {signed(scale * high, digits)})"
