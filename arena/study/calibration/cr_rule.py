"""The group-CR question by model comparison, and a replacement CR rule a DM can apply at the table, per variant.

Input: one row per calibrated cell (party level, group size, the monster's ladder position ``cr_pos``, its gap to
the party ``gap = cr_pos - level``, the measured Delta-CR ``delta`` and its standard error ``se``). Everything
below is stated before any number is computed.

**Models of Delta-CR** (weighted least squares, weights 1 / se^2, se floored at :data:`SE_FLOOR`):

* ``document``: -1 for groups of four or more, else 0 (the bell-curve document's rule; no free parameter);
* ``none``: a constant (no size effect);
* ``step``: a constant plus a step at four;
* ``cr-gap``: linear in the monster's CR minus the party level;
* ``smooth``: linear in log2(group size);
* ``gap+smooth``: both.

**Criterion**: leave-one-party-level-out cross-validated error (the weighted root mean square of the held-out
levels' residuals in units of their standard errors is not used: the plain root mean square, in rungs, is what a
DM feels). The model with the lowest cross-validated error wins; AIC (statsmodels) is reported beside it.

**The replacement rule**: the best rule of these at-table forms, whole CRs only, chosen by the same
cross-validated error (within a form, its N and M by weighted least squares on the training levels):

* ``none``: "no change";
* ``all``: "every monster counts M";
* ``below``: "a monster N or more CR below the party level counts M" (M < 0 is lower);
* ``group``: "groups of K or more count M".

Its fit (root mean square error, share of cells within half a rung) and its failures (cells whose interval
excludes the rule's value by more than half a rung) are reported.

Why a module of its own: the models and the rule forms are stated here, apart from any fight, so that they are fixed
before the calibration grid (:mod:`arena.study.claims.grid`) produces a number.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

SE_FLOOR = 0.05
MODELS = ("document", "none", "step", "cr-gap", "smooth", "gap+smooth")
M_VALUES = (-3, -2, -1, 1, 2, 3)
N_VALUES = tuple(range(0, 11))
K_VALUES = (2, 3, 4, 6, 8)
TOLERANCE = 0.5
"""A cell "fits" a rule when its Delta-CR is within half a rung of the rule's value."""


def _design(frame: pd.DataFrame, model: str) -> np.ndarray:
    """The design matrix of a fitted model (the document's has no free parameter, so none: callers predict it
    directly)."""
    one = np.ones(len(frame))
    size = frame["size"].to_numpy(float)
    gap = frame["gap"].to_numpy(float)
    cols = {
        "none": [one],
        "step": [one, (size >= 4).astype(float)],
        "cr-gap": [one, gap],
        "smooth": [one, np.log2(size)],
        "gap+smooth": [one, gap, np.log2(size)],
    }[model]
    return np.column_stack(cols)


def _weights(frame: pd.DataFrame) -> np.ndarray:
    se = np.maximum(frame["se"].to_numpy(float), SE_FLOOR)
    return 1 / se**2


def fit_model(frame: pd.DataFrame, model: str) -> dict:
    """WLS fit of one model: parameters, their standard errors, AIC and the fitted values."""
    import statsmodels.api as sm

    y = frame["delta"].to_numpy(float)
    if model == "document":
        pred = np.where(frame["size"].to_numpy() >= 4, -1.0, 0.0)
        w = _weights(frame)
        ll = -0.5 * float(np.sum(w * (y - pred) ** 2))
        return {"params": [], "bse": [], "aic": -2 * ll, "fitted": pred}
    import warnings

    x = _design(frame, model)
    with warnings.catch_warnings():  # a tiny grid (the tests') can be rank-deficient: the fit still stands
        warnings.simplefilter("ignore")
        res = sm.WLS(y, x, weights=_weights(frame)).fit()
    return {
        "params": [float(p) for p in res.params],
        "bse": [float(b) for b in res.bse],
        "aic": float(-2 * _known_variance_ll(res, frame) + 2 * x.shape[1]),
        "fitted": res.fittedvalues,
    }


def _known_variance_ll(res: Any, frame: pd.DataFrame) -> float:
    """Log likelihood with the cells' own variances (the standard errors are known, not fitted)."""
    w = _weights(frame)
    return -0.5 * float(np.sum(w * res.resid**2))


def _predict(train: pd.DataFrame, test: pd.DataFrame, model: str) -> np.ndarray:
    if model == "document":
        return np.where(test["size"].to_numpy() >= 4, -1.0, 0.0)
    fit = fit_model(train, model)
    return _design(test, model) @ np.asarray(fit["params"])


def _cv(frame: pd.DataFrame, predict: Callable[[pd.DataFrame, pd.DataFrame], np.ndarray]) -> float:
    """Leave-one-party-level-out root mean square error (rungs)."""
    errors = []
    levels = sorted(frame["level"].unique())
    if len(levels) < 2:
        return float("nan")
    for level in levels:
        test = frame[frame["level"] == level]
        train = frame[frame["level"] != level]
        errors.append(test["delta"].to_numpy(float) - predict(train, test))
    e = np.concatenate(errors)
    return float(math.sqrt(np.mean(e**2)))


def compare_models(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per model: cross-validated error, AIC, parameters (with standard errors); sorted best first."""
    rows = []
    for model in MODELS:
        fit = fit_model(frame, model)
        cv = _cv(frame, partial(_predict, model=model))
        resid = frame["delta"].to_numpy(float) - np.asarray(fit["fitted"], float)
        rows.append(
            {
                "model": model,
                "cv_rmse": cv,
                "rmse": float(math.sqrt(np.mean(resid**2))),
                "aic": fit["aic"],
                "params": ", ".join(f"{p:+.3f} ({b:.3f})" for p, b in zip(fit["params"], fit["bse"], strict=True)),
            }
        )
    return pd.DataFrame(rows).sort_values(["cv_rmse", "aic"]).reset_index(drop=True)


# --------------------------------------------------------------------------------------------- the table rule
@dataclass(frozen=True)
class Rule:
    form: str
    m: int = 0
    n: int = 0
    k: int = 0

    def value(self, frame: pd.DataFrame) -> np.ndarray:
        if self.form == "none":
            return np.zeros(len(frame))
        if self.form == "all":
            return np.full(len(frame), float(self.m))
        if self.form == "below":
            return np.where(frame["gap"].to_numpy(float) <= -self.n, float(self.m), 0.0)
        if self.form == "group":
            return np.where(frame["size"].to_numpy() >= self.k, float(self.m), 0.0)
        raise ValueError(self.form)

    def text(self, variant: str = "") -> str:
        under = f"under {variant}, " if variant else ""

        def counts(m: int) -> str:
            return f"counts {abs(m)} {'lower' if m < 0 else 'higher'}"

        if self.form == "none":
            return f"{under}no change: use the CR as printed"
        if self.form == "all":
            return f"{under}every monster {counts(self.m)}"
        if self.form == "below":
            where = "at or below the party level" if self.n == 0 else f"{self.n} or more CR below the party level"
            return f"{under}a monster {where} {counts(self.m)}"
        return f"{under}groups of {self.k} or more {counts(self.m).replace('counts', 'count')}"


def candidate_rules() -> list[Rule]:
    rules = [Rule("none")]
    rules += [Rule("all", m) for m in M_VALUES]
    rules += [Rule("below", m, n) for m in M_VALUES for n in N_VALUES]
    rules += [Rule("group", m, k=k) for m in M_VALUES for k in K_VALUES]
    return rules


def _best_of(frame: pd.DataFrame, form: str) -> Rule:
    w = _weights(frame)
    y = frame["delta"].to_numpy(float)
    options = [r for r in candidate_rules() if r.form == form]
    return min(options, key=lambda r: (float(np.sum(w * (y - r.value(frame)) ** 2)), abs(r.m), r.n, r.k))


def _rule_predict(train: pd.DataFrame, test: pd.DataFrame, form: str) -> np.ndarray:
    """The values on ``test`` of the best rule of ``form`` fitted on ``train``."""
    return _best_of(train, form).value(test)


def replacement_rule(frame: pd.DataFrame) -> dict:
    """The at-table rule for one variant's cells, its fit and where it fails (see the module docstring)."""
    forms = ("none", "all", "below", "group")
    cv = {
        f: _cv(frame, partial(_rule_predict, form=f)) if f != "none" else _cv(frame, lambda tr, te: np.zeros(len(te)))
        for f in forms
    }
    finite = {f: v for f, v in cv.items() if math.isfinite(v)}
    # The simplest form within 0.02 rung of the best cross-validated error wins (forms are listed simplest first).
    if finite:
        best_cv = min(finite.values())
        form = next(f for f in forms if f in finite and finite[f] <= best_cv + 0.02)
    else:
        form = "none"
    rule = _best_of(frame, form) if form != "none" else Rule("none")
    value = rule.value(frame)
    y = frame["delta"].to_numpy(float)
    half = 1.96 * np.maximum(frame["se"].to_numpy(float), SE_FLOOR)
    fails = (np.abs(y - value) > TOLERANCE) & ((y - half > value) | (y + half < value))
    failed = frame.assign(rule=value)[fails]
    return {
        "rule": rule,
        "form": form,
        "cv_rmse": cv,
        "rmse": float(math.sqrt(np.mean((y - value) ** 2))),
        "within_half_rung": float(np.mean(np.abs(y - value) <= TOLERANCE)),
        "cells": len(frame),
        "failures": failed,
    }
