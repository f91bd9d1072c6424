"""Sequential sampling with the stopping rule accounted for: a cell is fought in stages and stops as soon as its
interval is as narrow as asked, and the interval it stops with still has its stated coverage.

The rule (stated before any number): at most ``K`` looks at fixed sizes ``stages`` (cumulative encounters per
arm). At every look the interval is computed at confidence ``1 - alpha / K`` (Bonferroni over the looks); the
cell stops at the first look whose half-width is at most ``target``, or at the last. Whatever look it stops at,
the chance that *any* of the K intervals misses is at most ``K * alpha / K = alpha``, so the reported interval
covers with probability at least ``1 - alpha`` if each look's interval covers at its stated confidence (tested
on a synthetic Bernoulli cell with a Wilson interval, tests/study/test_sequential.py, and on synthetic calibration
cells with the grid's own bootstrap interval of Delta-CR, tests/study/test_grid_coverage.py). The price is a
wider interval per look than a fixed-size design's; the gain is that cells whose answer is clear early stop early
(the report counts the encounters saved against fighting every cell to the last stage).

Each stage fights fresh encounters on its own derived seed (:func:`stage_seed`), the same for every arm and rung
of a cell, so arms stay paired within a stage and stages are independent.

Why a module of its own: the stopping rule is a statement about coverage that holds whatever is sampled; the calibration
grid uses it, and its coverage is tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from arena.dice import encounter_seed


@dataclass(frozen=True)
class SequentialRule:
    stages: tuple[int, ...]
    """Cumulative encounters per arm at each look."""
    target: float
    """Stop when the interval's half-width is at most this."""
    alpha: float = 0.05

    @property
    def looks(self) -> int:
        return len(self.stages)

    @property
    def confidence(self) -> float:
        """The confidence of each look's interval: 1 - alpha / K."""
        return 1 - self.alpha / self.looks

    def stops(self, look: int, half_widths: Sequence[float], censored: bool = False) -> bool:
        """Whether a cell stops after look ``look`` (0-based): at the last look, or when every interval's
        half-width is at most :attr:`target` and none is censored (an arm off the ladder has no interval yet: the
        calibration grid grows the ladder and looks again)."""
        if look >= self.looks - 1:
            return True
        return bool(half_widths) and max(half_widths) <= self.target and not censored

    def increments(self) -> list[int]:
        """Encounters added at each stage."""
        return [b - a for a, b in zip((0, *self.stages[:-1]), self.stages, strict=True)]


def stage_seed(seed: int, stage: int) -> int:
    """The run seed of a stage (stage 0 is the run seed itself, so a one-stage study equals a fixed-size one)."""
    return seed if stage == 0 else int(encounter_seed(seed, 1_000_000_007 + stage) % (2**63))


def run_sequential(
    sample: Callable[[int, int], np.ndarray],
    interval: Callable[[np.ndarray, float], tuple[float, float, float]],
    rule: SequentialRule,
    seed: int = 0,
) -> dict:
    """Run one cell: ``sample(n, stage_seed)`` returns n new observations; ``interval(data, confidence)`` gives
    (estimate, low, high). Returns the estimate and interval at the stopping look, the look and the n used."""
    data: list[np.ndarray] = []
    est = low = high = float("nan")
    for look, add in enumerate(rule.increments()):
        data.append(np.asarray(sample(add, stage_seed(seed, look))))
        est, low, high = interval(np.concatenate(data), rule.confidence)
        if rule.stops(look, [(high - low) / 2]):
            break
    return {"estimate": est, "low": low, "high": high, "look": look + 1, "n": int(sum(len(d) for d in data))}


def wilson_interval(data: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """A proportion's Wilson interval (statsmodels) at ``confidence``."""
    from statsmodels.stats.proportion import proportion_confint

    k, n = int(np.sum(data)), len(data)
    low, high = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    return k / n, float(low), float(high)


def saved(rule: SequentialRule, used: Sequence[int]) -> int:
    """Encounters per arm saved against fighting every cell to the last stage."""
    return int(sum(rule.stages[-1] - u for u in used))
