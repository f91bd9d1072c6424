"""Delta-CR models fitted by a likelihood that knows censoring: a cell says what the data say, never more.

Everything here is stated before any number is computed.

**A cell** is a row with ``level``, ``size``, ``gap`` (as in :mod:`arena.study.calibration.cr_rule`), ``se`` (the
measurement's standard error, from its interval) and what is known of its Delta-CR, in three columns:

* ``censor`` ``"exact"``: Delta-CR was measured, ``delta`` (``low``/``high`` unused);
* ``"left"``: Delta-CR is *at most* ``high`` (the variant's c* fell below the ladder's lowest rung, or the base
  arm's above its top);
* ``"right"``: Delta-CR is *at least* ``low`` (the variant's c* above the ladder's top, or the base arm's below
  its bottom);
* ``"interval"``: Delta-CR is between ``low`` and ``high`` (``low < high``; either may be infinite).

Build rows with :func:`exact`, :func:`at_most`, :func:`at_least`, :func:`between`, or with :func:`delta_bounds`
from what is known of each arm's c* (:func:`arm_interval`). Each arm's c* lies in an interval of ladder positions:
a point when measured; from minus infinity to the lowest rung when it fell below the ladder; from the top rung to
infinity when above it; and **for a saturated arm** (the party loses everything, so every rung whose difficulty is
saturated too matches it) the span of those saturated rungs, open to infinity when that span reaches the top of the
ladder fought, since a harder monster would saturate as well. Delta = c*(V) - c*(base) then lies in
[V.low - base.high, V.high - base.low]. A cell where both arms saturate on a span open at the top is therefore
uninformative (Delta could be anything): it is kept, counted, and adds nothing to the likelihood, which is what such
a cell knows. A censored cell's ``se`` is its bound's own measurement error (when the variant fell off the ladder,
the bound moves with the base arm's c*; 0 when the bound is a rung). A censored cell's ``delta``, when it has one
(the grid writes the clamped value), is checked to lie within its bounds (else: a bound on the wrong side, an
error) and is otherwise unused.

**The models** are :mod:`arena.study.calibration.cr_rule`'s (its design matrices; the document's -1 at four or more
is a fixed prediction with no free parameter), and the at-table rules of the same module. The latent Delta-CR of
cell i is normal with mean x_i b and variance se_i^2 + tau^2: se_i is the cell's measurement error, tau the spread
between cells that the model does not explain (estimated, parameterised as log tau; or fixed, for example at 0).
An exact cell contributes the normal density of its value; a censored cell the normal probability of its bound(s)
(Phi((high - mu)/s), 1 - Phi((low - mu)/s), or their difference). Maximum likelihood (scipy's BFGS with the analytic
score); standard errors from the inverse of the Hessian (central differences of the score); AIC = -2 log L + 2k,
k counting tau when it is estimated. **A rule** (a whole-CR prediction with no free parameter) is chosen within its
form by the same likelihood, tau profiled over :data:`TAU_GRID`.

**The floor.** cr_rule floors se at :data:`cr_rule.SE_FLOOR` because a weighted least squares weight is 1/se^2, and
a saturated cell's zero-width bootstrap interval gave it an infinite weight: the floor turned that into the largest
finite weight, so the cells that knew least weighed most. Here a saturated or off-ladder cell is censored: its
contribution is a probability, at most 1 (log at most 0), so it cannot dominate the fit whatever its se, and a
censored cell needs no floor (with tau fixed at 0 and se 0 its bound is hard: a cell consistent with the
prediction adds nothing, one that is not costs much). An *exact* cell's density, though, grows without bound as
its variance goes to 0, and tau may be estimated at 0 (or fixed there): so an exact cell's se is floored at
:data:`EXACT_SE_FLOOR` (0.05 rung, cr_rule's value: below the resolution of an interpolated ladder position
measured from a few hundred fights and a 200-resample percentile bootstrap, a zero width means "too small to
resolve", not "known exactly").

Why a module of its own: numbers only (no fight), fixed before the calibration grid
(:mod:`arena.study.claims.grid`) produces a number, and shared by the hold-out check
(:mod:`arena.study.calibration.holdout`).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from arena.errors import ArenaError
from arena.study.calibration import cr_rule

EXACT_SE_FLOOR = cr_rule.SE_FLOOR
"""The floor on an exact cell's se (see the module docstring): censored cells are not floored."""
CENSOR_KINDS = ("exact", "left", "right", "interval")
_TINY = 1e-12
"""A guard on a censored cell's standard deviation when se and tau are both 0 (the bound is then hard)."""
_LOG_2PI = math.log(2 * math.pi)


# --------------------------------------------------------------------------------------------- describing cells
def exact(delta: float, se: float) -> dict[str, object]:
    """A measured cell: Delta-CR ``delta`` with standard error ``se``."""
    return {"censor": "exact", "delta": float(delta), "se": float(se), "low": math.nan, "high": math.nan}


def at_most(bound: float, se: float = 0.0) -> dict[str, object]:
    """Delta-CR is at most ``bound`` (left-censored); ``se``: the bound's own measurement error."""
    return {"censor": "left", "delta": math.nan, "se": float(se), "low": -math.inf, "high": float(bound)}


def at_least(bound: float, se: float = 0.0) -> dict[str, object]:
    """Delta-CR is at least ``bound`` (right-censored)."""
    return {"censor": "right", "delta": math.nan, "se": float(se), "low": float(bound), "high": math.inf}


def between(low: float, high: float, se: float = 0.0) -> dict[str, object]:
    """Delta-CR is between ``low`` and ``high`` (interval-censored: a saturated cell)."""
    return {"censor": "interval", "delta": math.nan, "se": float(se), "low": float(low), "high": float(high)}


def arm_interval(
    c_star: float,
    flag: str,
    ladder: tuple[float, float],
    saturated: tuple[float, float] | None = None,
) -> tuple[float, float]:
    """What is known of one arm's c*, as an interval of ladder positions: ``flag`` is the equivalent-CR flag ("",
    "below", "above"), ``ladder`` the (lowest, highest) rung fought, ``saturated`` the (first, last) rung of the
    stretch whose difficulty equals the arm's saturated one (None when the arm is not saturated): that span, open
    to infinity when it reaches the top of the ladder."""
    low, high = ladder
    if saturated is not None:
        a, b = saturated
        if not low <= a <= b <= high:
            raise ArenaError(f"a saturated span {saturated} outside the ladder fought {ladder}")
        return (a, math.inf if b >= high else b)
    if flag == "below":
        return (-math.inf, low)
    if flag == "above":
        return (high, math.inf)
    if flag == "":
        return (c_star, c_star)
    raise ArenaError(f"unknown equivalent-CR flag {flag!r} (choose from '', 'below', 'above')")


SATURATED = 0.95
"""An arm or rung whose party loses at least 95% of its hit points on average is saturated (a wipe): every rung that
saturates too matches it (:func:`saturated_span`)."""


def saturated_span(arm_hp: float, positions: Sequence[float], rung_hp: npt.ArrayLike) -> tuple[float, float] | None:
    """The (first, last) rung of the stretch of saturated rungs an arm whose party loses at least :data:`SATURATED`
    of its hit points matches (the stretch holding the highest saturated rung); None when the arm is not saturated
    or no rung is."""
    hp = np.asarray(rung_hp, float)
    if arm_hp < SATURATED:
        return None
    hot = np.flatnonzero(hp >= SATURATED)
    if not hot.size:
        return None
    b = int(hot[-1])
    a = b
    while a > 0 and hp[a - 1] >= SATURATED:
        a -= 1
    return float(positions[a]), float(positions[b])


def idle_span(arm_cost: float, positions: Sequence[float], rung_cost: npt.ArrayLike) -> tuple[float, float] | None:
    """The (first, last) rung of the ladder's foot that costs the party nothing, when the arm costs it nothing too
    (any of those rungs, or an easier monster, matches it); None otherwise."""
    cost = np.asarray(rung_cost, float)
    if arm_cost > 0 or cost[0] > 0:
        return None
    b = 0
    while b + 1 < len(cost) and cost[b + 1] <= 0:
        b += 1
    return float(positions[0]), float(positions[b])


def delta_bounds(variant: tuple[float, float], base: tuple[float, float], se: float = 0.0) -> dict[str, object]:
    """The cell for Delta = c*(V) - c*(base) from each arm's c* interval (low, high) of ladder positions (a point
    when measured; see the module docstring for off-ladder and saturated arms). Two points make an exact cell."""
    (vl, vh), (bl, bh) = variant, base
    if vl > vh or bl > bh:
        raise ArenaError(f"an arm's c* interval has its low end above its high end: {variant} / {base}")
    low, high = vl - bh, vh - bl
    if low == high:
        return exact(low, se)
    if math.isinf(low) and math.isinf(high):
        return between(-math.inf, math.inf, se)
    if math.isinf(low):
        return at_most(high, se)
    if math.isinf(high):
        return at_least(low, se)
    return between(low, high, se)


@dataclass(frozen=True)
class Cells:
    """Validated cells as arrays: ``kind`` 0 exact, 1 censored (with ``low``/``high``), 2 uninformative."""

    frame: pd.DataFrame
    y: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    exact: np.ndarray
    censored: np.ndarray
    uninformative: np.ndarray


def cells(frame: pd.DataFrame, *, need_exact: bool = True) -> Cells:
    """Check a frame of cells (module docstring) and return its arrays; an ArenaError says what is wrong."""
    missing = [c for c in ("level", "size", "gap", "se") if c not in frame.columns]
    if missing:
        raise ArenaError(f"censored fit: the cells lack the column(s) {', '.join(missing)}")
    n = len(frame)
    if n == 0:
        raise ArenaError("censored fit: no cells")
    censor = frame["censor"].astype(str).to_numpy() if "censor" in frame.columns else np.full(n, "exact")
    bad = sorted({str(v) for v in censor} - set(CENSOR_KINDS))
    if bad:
        raise ArenaError(f"censored fit: unknown censoring {', '.join(bad)} (choose from {', '.join(CENSOR_KINDS)})")

    def col(name: str) -> np.ndarray:
        return frame[name].to_numpy(float) if name in frame.columns else np.full(n, math.nan)

    y, se, low, high = col("delta"), col("se"), col("low"), col("high")
    is_exact = censor == "exact"
    low = np.where(censor == "left", -np.inf, low)
    high = np.where(censor == "right", np.inf, high)
    where = frame.index.to_numpy()

    def fail(mask: np.ndarray, what: str) -> None:
        if mask.any():
            rows = ", ".join(str(r) for r in where[mask][:5])
            raise ArenaError(f"censored fit: {what} (row(s) {rows})")

    fail(~np.isfinite(se) | (se < 0), "a standard error that is missing or negative")
    fail(is_exact & ~np.isfinite(y), "an exact cell without a finite delta")
    fail((censor == "left") & ~np.isfinite(high), "a left-censored cell ('at most') without a finite high bound")
    fail((censor == "right") & ~np.isfinite(low), "a right-censored cell ('at least') without a finite low bound")
    fail((censor == "interval") & (np.isnan(low) | np.isnan(high)), "an interval cell without both bounds")
    fail(~is_exact & ~(low < high), "a bound on the wrong side (low not below high)")
    has_delta = ~is_exact & np.isfinite(y)
    fail(has_delta & ((y < low - 1e-9) | (y > high + 1e-9)), "a bound on the wrong side of the cell's own delta")
    uninformative = ~is_exact & np.isinf(low) & np.isinf(high)
    censored = ~is_exact & ~uninformative
    if need_exact and not is_exact.any():
        raise ArenaError("censored fit: no exact cell (bounds alone do not locate Delta-CR)")
    se = np.where(is_exact, np.maximum(se, EXACT_SE_FLOOR), se)
    return Cells(frame, y, se, low, high, is_exact, censored, uninformative)


# --------------------------------------------------------------------------------------------- the likelihood
def _log_ndtr(z: np.ndarray) -> np.ndarray:
    from scipy.special import log_ndtr

    return np.asarray(log_ndtr(z), float)


def _log_prob_between(za: np.ndarray, zb: np.ndarray) -> np.ndarray:
    """log(Phi(zb) - Phi(za)) for za < zb, computed in the tail where it does not cancel."""
    upper = za > 0  # both in the upper tail: use the mirror image, Phi(-za) - Phi(-zb)
    hi = np.where(upper, -za, zb)
    lo = np.where(upper, -zb, za)
    lhi, llo = _log_ndtr(hi), _log_ndtr(lo)
    # llo < lhi for a valid cell; the cap keeps a numerically empty interval finite (about exp(-34.5) of P(hi)).
    return np.asarray(lhi + np.log1p(-np.exp(np.minimum(llo - lhi, -1e-15))), float)


def _phi_z(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The normal density at z and z times it, both 0 at an infinite z."""
    finite = np.isfinite(z)
    zf = np.where(finite, z, 0.0)
    phi = np.where(finite, np.exp(-0.5 * zf**2) / math.sqrt(2 * math.pi), 0.0)
    return phi, phi * zf


def _censored_terms(
    low: np.ndarray, high: np.ndarray, mu: np.ndarray, s: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Censored cells' log probabilities of their bounds and the derivatives in mu and in s (the cells' standard
    deviations)."""
    s = np.maximum(s, _TINY)
    za, zb = (low - mu) / s, (high - mu) / s
    lp = _log_prob_between(za, zb)
    pa, pza = _phi_z(za)
    pb, pzb = _phi_z(zb)
    inv = np.exp(np.minimum(-lp, 700.0))  # 1 / P, capped where P is below 1e-304
    return lp, -(pb - pa) * inv / s, -(pzb - pza) * inv / s


def loglik_matrix(c: Cells, mu: np.ndarray, tau: float) -> np.ndarray:
    """The total log likelihood (module docstring) of each row of means ``mu`` (rows, cells) at ``tau``: many
    candidate predictions at once (uninformative cells add nothing)."""
    s = np.sqrt(c.se**2 + tau**2)
    e, k = c.exact, c.censored
    z = (c.y[e] - mu[:, e]) / s[e]
    total = np.sum(-0.5 * z**2 - np.log(s[e]) - 0.5 * _LOG_2PI, axis=1)
    if k.any():
        sk = np.maximum(s[k], _TINY)
        total = total + np.sum(_log_prob_between((c.low[k] - mu[:, k]) / sk, (c.high[k] - mu[:, k]) / sk), axis=1)
    return np.asarray(total, float)


def _offset_and_design(frame: pd.DataFrame, model: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """The fixed part of the mean, the design matrix and its columns' names, of one of cr_rule's models."""
    if model not in cr_rule.MODELS:
        raise ArenaError(f"censored fit: unknown model {model!r} (choose from {', '.join(cr_rule.MODELS)})")
    if model == "document":
        return np.where(frame["size"].to_numpy() >= 4, -1.0, 0.0), np.zeros((len(frame), 0)), ()
    names = {
        "none": ("const",),
        "step": ("const", "size>=4"),
        "cr-gap": ("const", "gap"),
        "smooth": ("const", "log2(size)"),
        "gap+smooth": ("const", "gap", "log2(size)"),
    }[model]
    return np.zeros(len(frame)), cr_rule._design(frame, model), names


@dataclass(frozen=True)
class CensoredFit:
    """A model fitted by maximum likelihood: parameters and standard errors (``names`` in order), tau (its
    standard error by the delta method from log tau; nan when fixed or at 0), log likelihood and AIC."""

    model: str
    names: tuple[str, ...]
    params: tuple[float, ...]
    bse: tuple[float, ...]
    tau: float
    tau_se: float
    tau_fixed: bool
    loglik: float
    aic: float
    cells: int
    exact: int
    censored: int
    uninformative: int
    converged: bool

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        """The model's Delta-CR for the cells of ``frame``."""
        offset, x, _ = _offset_and_design(frame, self.model)
        return offset + x @ np.asarray(self.params, float)


def fit(frame: pd.DataFrame, model: str, *, tau: float | None = None) -> CensoredFit:
    """Fit one of cr_rule's models to censored cells by maximum likelihood (module docstring). ``tau``: None
    estimates it; a number fixes it (0: the cells' own errors explain all the spread)."""
    from scipy.optimize import minimize

    c = cells(frame)
    offset, x, names = _offset_and_design(frame, model)
    p = x.shape[1]
    estimate_tau = tau is None
    if tau is not None and (not math.isfinite(tau) or tau < 0):
        raise ArenaError(f"censored fit: tau must be a number at least 0, not {tau}")
    if p > 0 and np.linalg.matrix_rank(x[~c.uninformative]) < p:
        raise ArenaError(f"censored fit: the cells cannot identify the {model} model's {p} parameters")

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, float]:
        return theta[:p], float(math.exp(theta[p])) if estimate_tau else float(tau or 0.0)

    e, k = c.exact, c.censored
    ye, se_e, xe, oe = c.y[e], c.se[e], x[e], offset[e]
    lo, hi, se_k, xk, ok = c.low[k], c.high[k], c.se[k], x[k], offset[k]
    constant = -0.5 * _LOG_2PI * len(ye)

    def negll(theta: np.ndarray) -> tuple[float, np.ndarray]:
        """Minus the log likelihood and its gradient in (b, log tau); ds/dlog tau = tau^2 / s."""
        b, t = unpack(theta)
        s_e = np.sqrt(se_e**2 + t * t)
        z = (ye - oe - xe @ b) / s_e
        total = float(np.sum(-0.5 * z * z - np.log(s_e))) + constant
        grad_b = xe.T @ (z / s_e)
        grad_t = float(np.sum((z * z - 1) / s_e * (t * t / s_e)))
        if lo.size:
            s_k = np.sqrt(se_k**2 + t * t)
            lp, dmu, ds = _censored_terms(lo, hi, ok + xk @ b, s_k)
            total += float(np.sum(lp))
            grad_b = grad_b + xk.T @ dmu
            grad_t += float(np.sum(ds * t * t / np.maximum(s_k, _TINY)))
        if not math.isfinite(total):
            return 1e300, np.zeros_like(theta)
        grad = np.append(grad_b, grad_t) if estimate_tau else grad_b
        return -total, -grad

    # Start from least squares on the exact cells, tau from their residual spread beyond their own errors.
    b0 = np.linalg.lstsq(x[e], c.y[e] - offset[e], rcond=None)[0] if p else np.zeros(0)
    r = c.y[e] - offset[e] - x[e] @ b0
    t0 = math.sqrt(max(float(np.mean(r**2) - np.mean(c.se[e] ** 2)), 0.01))
    theta0 = np.append(b0, math.log(t0)) if estimate_tau else b0
    if theta0.size:
        res = minimize(negll, theta0, jac=True, method="BFGS", options={"gtol": 1e-6, "maxiter": 2000})
        theta, converged = np.asarray(res.x, float), bool(res.success) or float(np.max(np.abs(res.jac))) < 1e-4
    else:
        theta, converged = theta0, True
    loglik = -negll(theta)[0]
    bse, tau_se = _standard_errors(lambda th: negll(th)[1], theta, p, estimate_tau)
    b, t = unpack(theta)
    if estimate_tau and t < 1e-4:  # at the boundary: tau is 0, and log tau has no finite standard error
        t, tau_se = 0.0, math.nan
    n_params = p + int(estimate_tau)
    return CensoredFit(
        model=model,
        names=names,
        params=tuple(float(v) for v in b),
        bse=tuple(bse),
        tau=t,
        tau_se=tau_se,
        tau_fixed=not estimate_tau,
        loglik=loglik,
        aic=-2 * loglik + 2 * n_params,
        cells=len(frame),
        exact=int(c.exact.sum()),
        censored=int(c.censored.sum()),
        uninformative=int(c.uninformative.sum()),
        converged=converged,
    )


def loglik(frame: pd.DataFrame, model: str, params: Sequence[float], tau: float) -> float:
    """The log likelihood of ``frame``'s cells under ``model`` at ``params`` and ``tau`` (module docstring):
    computed apart from the fit's own score, so a test can check one against the other."""
    c = cells(frame)
    offset, x, _ = _offset_and_design(frame, model)
    mu = offset + x @ np.asarray(params, float)
    return float(loglik_matrix(c, mu[None, :], tau)[0])


def _standard_errors(
    score: Callable[[np.ndarray], np.ndarray], theta: np.ndarray, p: int, estimate_tau: bool
) -> tuple[list[float], float]:
    """The parameters' standard errors from the inverse Hessian (central differences of the analytic score); when
    the full Hessian is singular (tau at 0), those of the slopes with tau held where it is."""
    if theta.size == 0:
        return [], math.nan
    g = score
    h = np.zeros((theta.size, theta.size))
    for j in range(theta.size):
        step = 1e-5 * max(1.0, abs(theta[j]))
        up, down = theta.copy(), theta.copy()
        up[j] += step
        down[j] -= step
        h[:, j] = (g(up) - g(down)) / (2 * step)
    h = (h + h.T) / 2
    try:
        cov = np.linalg.inv(h)
        if np.any(np.diag(cov) <= 0):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        cov = np.full_like(h, np.nan)
        if p:
            with contextlib.suppress(np.linalg.LinAlgError):
                cov[:p, :p] = np.linalg.inv(h[:p, :p])
    bse = [float(math.sqrt(v)) if v > 0 else math.nan for v in np.diag(cov)[:p]]
    tau_se = math.nan
    if estimate_tau and cov[p, p] > 0:
        tau_se = float(math.exp(theta[p]) * math.sqrt(cov[p, p]))  # the delta method from log tau
    return bse, tau_se


def compare(frame: pd.DataFrame, *, tau: float | None = None, models: Sequence[str] = cr_rule.MODELS) -> pd.DataFrame:
    """One row per model: log likelihood, AIC, tau and the parameters (standard errors); sorted by AIC."""
    rows = []
    for model in models:
        f = fit(frame, model, tau=tau)
        rows.append(
            {
                "model": model,
                "loglik": f.loglik,
                "aic": f.aic,
                "tau": f.tau,
                "params": ", ".join(
                    f"{n} {v:+.3f} ({s:.3f})" for n, v, s in zip(f.names, f.params, f.bse, strict=True)
                ),
                "converged": f.converged,
            }
        )
    return pd.DataFrame(rows).sort_values("aic").reset_index(drop=True)


# --------------------------------------------------------------------------------------------- the at-table rules
@dataclass(frozen=True)
class BothRule(cr_rule.Rule):
    """ "A monster N or more CR below the party level counts M; in groups of K or more, M2 more" (``form`` "both")."""

    m2: int = 0

    def value(self, frame: pd.DataFrame) -> np.ndarray:
        if self.form != "both":
            return super().value(frame)
        gap = np.where(frame["gap"].to_numpy(float) <= -self.n, float(self.m), 0.0)
        return gap + np.where(frame["size"].to_numpy() >= self.k, float(self.m2), 0.0)

    def text(self, variant: str = "") -> str:
        if self.form != "both":
            return super().text(variant)
        first = cr_rule.Rule("below", self.m, self.n).text(variant)
        more = f"{abs(self.m2)} {'lower' if self.m2 < 0 else 'higher'}"
        return f"{first}; in groups of {self.k} or more, {more} again"


RULE_FORMS = ("none", "all", "below", "group", "both")
"""The at-table forms, simplest first: cr_rule's four, then size and CR gap together."""
BOTH_M = (-2, -1, 1)


def candidate_rules(form: str) -> list[cr_rule.Rule]:
    """The whole-CR rules of one form (cr_rule's grids; "both" adds M2 in :data:`BOTH_M`)."""
    if form not in RULE_FORMS:
        raise ArenaError(f"unknown rule form {form!r} (choose from {', '.join(RULE_FORMS)})")
    if form == "both":
        return [
            BothRule("both", m, n, k, m2)
            for m in BOTH_M
            for n in cr_rule.N_VALUES
            for k in cr_rule.K_VALUES
            for m2 in BOTH_M
        ]
    return [r for r in cr_rule.candidate_rules() if r.form == form]


TAU_GRID = np.concatenate([[0.0], np.geomspace(0.02, 4.0, 60)])
"""The tau values a rule's likelihood is profiled over (a rule has no other free parameter)."""


def rule_values(frame: pd.DataFrame, rules: Sequence[cr_rule.Rule]) -> np.ndarray:
    """Every rule's values on ``frame`` (rules, cells): :meth:`cr_rule.Rule.value`, read from the columns once."""
    gap = frame["gap"].to_numpy(float)
    size = frame["size"].to_numpy(float)
    out = np.zeros((len(rules), len(frame)))
    for i, r in enumerate(rules):
        if r.form == "all":
            out[i] = r.m
        elif r.form in ("below", "both"):
            out[i] = np.where(gap <= -r.n, float(r.m), 0.0)
        elif r.form == "group":
            out[i] = np.where(size >= r.k, float(r.m), 0.0)
        if isinstance(r, BothRule) and r.form == "both":
            out[i] += np.where(size >= r.k, float(r.m2), 0.0)
    return out


def rule_loglik(frame: pd.DataFrame, rules: Sequence[cr_rule.Rule]) -> tuple[np.ndarray, np.ndarray]:
    """Each rule's censored log likelihood with tau profiled over :data:`TAU_GRID`, and the tau that maximises it."""
    c = cells(frame, need_exact=False)
    best = np.full(len(rules), -np.inf)
    at = np.zeros(len(rules))
    values = rule_values(frame, rules)
    for t in TAU_GRID:
        ll = loglik_matrix(c, values, float(t))
        better = ll > best
        best = np.where(better, ll, best)
        at = np.where(better, t, at)
    return best, at


@dataclass(frozen=True)
class RuleFit:
    rule: cr_rule.Rule
    loglik: float
    tau: float


def fit_rule(frame: pd.DataFrame, form: str) -> RuleFit:
    """The rule of ``form`` with the greatest censored likelihood on ``frame`` (ties: smaller |M|, N, K)."""
    rules = candidate_rules(form)
    ll, tau = rule_loglik(frame, rules)
    i = min(range(len(rules)), key=lambda j: (-round(float(ll[j]), 9), abs(rules[j].m), rules[j].n, rules[j].k))
    return RuleFit(rules[i], float(ll[i]), float(tau[i]))
