"""The group-CR claim on SRD creatures as a population: each creature's own group step, an interval over
creatures, and which creature a verdict rests on.

Stated before any number (issue 26):

* **the unit** is the creature, not the cell: the creatures of the SRD population (:func:`design.srd_monsters`:
  every fully modelled creature of a CR or a seeded sample of eight), weighted equally;
* **a creature's group step** is the difference its group size makes to Delta-CR(3d6): the "step" model of
  :mod:`arena.study.calibration.cr_rule` (Delta = a + b [size >= 4]) fitted to that creature's cells alone by
  censored maximum likelihood (tau 0: within one creature the spread is the cells' own error), b its step. The
  document says b = -1. A creature whose cells do not hold an exactly measured Delta on both sides of four (a CR met
  in the grid's SRD cells only in small groups, or only in large ones) has no step and is counted, not used;
* **the population's step** is the mean of the creatures' steps, with a 95% t interval over creatures (df = the
  number of creatures - 1);
* **the verdict**: supported when that interval lies within the document's -1 +- :data:`MARGIN` (half a rung, the
  smallest error a DM acts on: a CR is applied in whole rungs); not supported when it lies wholly outside that band;
  inconclusive otherwise;
* **influence**: the verdict again without each creature in turn; a creature whose removal changes it is named.

Why a module of its own: the population's verdict is a different unit and test from the typical monster's model
comparison (:mod:`arena.study.claims.group_cr`), which reads it as its SRD robustness check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from arena.study.calibration import censored

DOCUMENT_STEP = -1.0
MARGIN = 0.5
CONFIDENCE = 0.95


@dataclass
class Population:
    steps: pd.DataFrame
    """One row per creature: cells, exact cells, its step and standard error (nan when it has none)."""
    creatures: int
    mean: float
    low: float
    high: float
    verdict: str
    rests_on: list[str] = field(default_factory=list)
    """Creatures whose removal alone changes the verdict."""

    def text(self) -> str:
        if self.creatures < 2:
            return f"{self.creatures} SRD creature(s) with a group step: too few for an interval"
        rest = (
            f"; rests on {', '.join(self.rests_on)} (without it the verdict changes)"
            if self.rests_on
            else "; leaving out any one creature keeps the verdict"
        )
        return (
            f"mean group step over {self.creatures} SRD creatures {self.mean:+.2f} rung "
            f"[{self.low:+.2f}, {self.high:+.2f}] (the document: {DOCUMENT_STEP:+.0f}; within +-{MARGIN:g}: "
            f"{self.verdict}){rest}"
        )


def creature_steps(cells: pd.DataFrame) -> pd.DataFrame:
    """Each creature's group step (module docstring) from its 3d6 cells (censored-fit frame: ``delta`` only where
    exact)."""
    rows = []
    for monster, g in cells.groupby("monster", sort=True):
        g = g.reset_index(drop=True)
        exact = g["censor"] == "exact"
        big = g["size"] >= 4
        row = {"monster": monster, "cells": len(g), "exact": int(exact.sum()), "step": math.nan, "se": math.nan}
        if (exact & big).any() and (exact & ~big).any():
            fit = censored.fit(g, "step", tau=0.0)
            row["step"], row["se"] = float(fit.params[1]), float(fit.bse[1])
        rows.append(row)
    return pd.DataFrame(rows, columns=["monster", "cells", "exact", "step", "se"])


def _verdict(steps: np.ndarray) -> tuple[float, float, float, str]:
    from scipy.stats import t

    from arena.study.statistics.inference import INCONCLUSIVE, NOT, SUPPORTED

    k = len(steps)
    if k < 2:
        return (float(steps.mean()) if k else math.nan), math.nan, math.nan, INCONCLUSIVE
    mean = float(steps.mean())
    half = float(t.ppf(0.5 + CONFIDENCE / 2, k - 1) * steps.std(ddof=1) / math.sqrt(k))
    low, high = mean - half, mean + half
    band = (DOCUMENT_STEP - MARGIN, DOCUMENT_STEP + MARGIN)
    if band[0] <= low and high <= band[1]:
        return mean, low, high, SUPPORTED
    if high < band[0] or low > band[1]:
        return mean, low, high, NOT
    return mean, low, high, INCONCLUSIVE


def population(cells: pd.DataFrame) -> Population:
    """The SRD population's verdict on the document's step, with its influence check."""
    steps = creature_steps(cells)
    used = steps.dropna(subset=["step"]).reset_index(drop=True)
    values = used["step"].to_numpy(float)
    mean, low, high, verdict = _verdict(values)
    rests_on = [
        str(used.loc[i, "monster"])
        for i in range(len(used))
        if len(used) > 2 and _verdict(np.delete(values, i))[3] != verdict
    ]
    return Population(steps, len(used), mean, low, high, verdict, rests_on)
