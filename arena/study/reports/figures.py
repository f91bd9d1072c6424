"""Matplotlib figures for the pages the study writes: a figure laid out, saved (to a path or a staged file) and
closed however its block ends, axis limits scaled to the data, percent axes.

Why a module of its own: every plot (the report's, the claims report's, the calibration's heat map, ``arena odds
--plot``) goes through one place that picks the non-interactive backend and silences matplotlib's font warnings.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Any) -> None:
    """Save ``fig`` to ``path`` (a path, or a callable such as a :class:`Staged` file that saves it)."""
    if callable(path):
        path(fig)
    else:
        fig.savefig(path, dpi=100, format="png")


@contextlib.contextmanager
def figure(path: Any, figsize: tuple[float, float], ncols: int = 1, **kwargs: Any) -> Iterator[tuple[Any, Any]]:
    """``(fig, ax)`` for the block; laid out and saved to ``path`` when it ends, closed however it ends. A glyph
    missing from the font is not worth a line on stderr, so matplotlib's warnings are silenced here."""
    plt = pyplot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig, ax = plt.subplots(1, ncols, figsize=figsize, **kwargs)
        try:
            yield fig, ax
            fig.tight_layout()
            save_figure(fig, path)
        finally:
            plt.close(fig)


def data_limits(
    low: npt.ArrayLike,
    high: npt.ArrayLike,
    floor: float | None = None,
    ceiling: float | None = None,
    least: float = 0.02,
) -> tuple[float, float]:
    """Axis limits scaled to the data (the intervals' extent plus a margin), within ``floor``..``ceiling``."""
    values = np.concatenate([np.asarray(low, float), np.asarray(high, float)])
    values = values[np.isfinite(values)]
    if not len(values):
        return (floor if floor is not None else 0.0), (ceiling if ceiling is not None else 1.0)
    lo, hi = float(values.min()), float(values.max())
    pad = max(least, 0.08 * (hi - lo))
    lo, hi = lo - pad, hi + pad
    if floor is not None:
        lo = max(lo, floor)
    if ceiling is not None:
        hi = min(hi, ceiling)
    return lo, hi


def row_height(k: int) -> float:
    return 1.3 + 0.24 * k


def tick_text(value: float, sign: bool = False, suffix: str = "") -> str:
    """A tick label: ``value`` in the shortest form, signed when ``sign``, and zero always as ``0`` (a tick a hair
    below zero, such as -1e-17, would otherwise read ``-0``)."""
    if abs(value) < 1e-9:
        return f"0{suffix}"
    return f"{value:+g}{suffix}" if sign else f"{value:g}{suffix}"


def percent_axis(scale: float = 100, sign: bool = False) -> Any:
    """Ticks in percent (``40%``), or signed points of a change (``+2``) when ``sign``."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _pos: tick_text(scale * v, sign, "" if sign else "%"))
