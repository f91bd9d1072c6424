"""Inference for the encounter claims: the matchup as the independent unit, intervals on ratios, practical margins,
Holm across claims, and verdicts that say ``inconclusive`` when the data cannot decide.

**The unit.** A claim that pools matchups pools *clusters*: the fights of one matchup share a party, a monster and
a difficulty, and a claim about "fights" is a claim about matchups in general. So every pooled effect is the mean
of the per-matchup paired effects (each matchup weighs the same), and its interval counts matchups, not fights:
a t interval on the G matchup means (G - 1 degrees of freedom; the cluster-robust interval of a mean of cluster
means) for a difference, and a cluster bootstrap (scipy's BCa over matchups, all arms of a matchup resampled
together) for a ratio of two pooled effects. :func:`fight_level_interval` gives the old fights-as-units interval
beside it, to show what the unit changes.

**Margins and verdicts.** Each claim states, before any number, the direction it predicts and a practical margin
``m`` (the smallest effect a designer would notice). With ``d`` the predicted sign and ``e`` the effect:

* ``supported``: ``d * e > m``, shown (the one-sided p of H0 ``d * e <= m``, Holm-adjusted, below alpha; the
  unadjusted 95% interval then lies beyond the margin);
* ``not supported``: ``d * e < m``, shown (the one-sided p of H0 ``d * e >= m``, Holm-adjusted, below alpha): the
  effect is smaller than what matters, or the other way;
* ``inconclusive``: neither (the interval straddles the margin).

An equivalence claim ("effectively the same") is the mirror: supported when ``|e| < m`` is shown (two one-sided
tests), not supported when ``|e| > m`` is shown, inconclusive otherwise. Holm's step-down (statsmodels) runs over
the primary tests of all encounter claims at once.

Why a module of its own: the claims' statistics differ from a run's (the matchup, not the fight, is the unit, and a
verdict needs a margin), so they are stated here once, before any claim uses them.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
import numpy.typing as npt

ALPHA = 0.05
SUPPORTED, NOT, INCONCLUSIVE, PARTLY = "supported", "not supported", "inconclusive", "partly supported"
BOOTSTRAP = 2000
"""Resamples of a cluster bootstrap (over matchups: cheap, so many)."""


@dataclass
class Effect:
    """A pooled effect with its interval at the level of the independent unit."""

    estimate: float
    low: float
    high: float
    units: int
    """Independent units (matchups) behind the interval."""
    fights: int
    unit: str = "matchup"
    p_beyond: float = float("nan")
    """One-sided p of H0: the effect is not beyond the margin in the predicted direction."""
    p_within: float = float("nan")
    """One-sided p of H0: the effect is at least the margin in the predicted direction."""
    method: str = "t over matchup means"
    extra: dict = field(default_factory=dict)

    def as_dict(self, digits: int = 4) -> dict:
        d = asdict(self)
        for k in ("estimate", "low", "high", "p_beyond", "p_within"):
            d[k] = None if not math.isfinite(d[k]) else round(d[k], digits)
        return d


def _t_p(mean: float, se: float, df: int, null: float, greater: bool) -> float:
    """One-sided p of H0 ``mean <= null`` (greater) or ``mean >= null``."""
    from scipy.stats import t

    if not (se > 0) or df < 1:
        if mean == null:
            return 1.0
        return 0.0 if (mean > null) == greater else 1.0
    z = (mean - null) / se
    return float(t.sf(z, df) if greater else t.cdf(z, df))


def cluster_mean(
    diffs: Sequence[np.ndarray], *, margin: float = 0.0, direction: int = 1, confidence: float = 0.95
) -> Effect:
    """The mean of per-matchup paired differences (each array one matchup's per-fight differences).

    Interval: t on the matchup means with G - 1 degrees of freedom. With a single matchup the fights are the only
    units there are (said in ``unit``)."""
    from scipy.stats import t

    arrays = [np.asarray(d, float) for d in diffs if len(d)]
    fights = int(sum(len(d) for d in arrays))
    if not arrays:
        return Effect(float("nan"), float("nan"), float("nan"), 0, 0)
    if len(arrays) == 1:
        values, unit = arrays[0], "fight (one matchup)"
    else:
        values, unit = np.array([d.mean() for d in arrays]), "matchup"
    g = len(values)
    mean = float(values.mean())
    se = float(values.std(ddof=1) / math.sqrt(g)) if g > 1 else float("nan")
    if g > 1 and se > 0:
        q = float(t.ppf(0.5 + confidence / 2, g - 1))
        low, high = mean - q * se, mean + q * se
    else:
        low = high = mean if g > 1 else float("nan")
    null = direction * margin
    return Effect(
        mean,
        low,
        high,
        len(arrays),
        fights,
        unit,
        p_beyond=_t_p(mean, se, g - 1, null, greater=direction > 0),
        p_within=_t_p(mean, se, g - 1, null, greater=direction < 0),
    )


def fight_level_interval(diffs: Sequence[np.ndarray], confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high) treating every fight as independent (the old study's interval), for comparison."""
    from scipy.stats import t

    d = np.concatenate([np.asarray(x, float) for x in diffs]) if diffs else np.array([])
    if len(d) < 2:
        return float("nan"), float("nan"), float("nan")
    se = d.std(ddof=1) / math.sqrt(len(d))
    q = float(t.ppf(0.5 + confidence / 2, len(d) - 1))
    return float(d.mean()), float(d.mean() - q * se), float(d.mean() + q * se)


def cluster_bootstrap(
    stat: Callable[..., float],
    columns: Sequence[np.ndarray],
    *,
    resamples: int = BOOTSTRAP,
    seed: int = 0,
    confidence: float = 0.95,
    method: str = "BCa",
) -> tuple[float, float, float, np.ndarray]:
    """(estimate, low, high, bootstrap distribution) of ``stat(*columns)``, resampling rows (matchups) of the
    columns together: scipy's paired bootstrap, one row per cluster."""
    from scipy.stats import DegenerateDataWarning, bootstrap

    cols = [np.asarray(c, float) for c in columns]
    est = float(stat(*cols))
    if len(cols[0]) < 3:
        return est, float("nan"), float("nan"), np.array([est])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        res = bootstrap(
            cols,
            stat,
            paired=True,
            vectorized=False,
            n_resamples=resamples,
            method=method,
            confidence_level=confidence,
            random_state=np.random.default_rng(seed),
        )
    low, high = (float(x) for x in res.confidence_interval)
    dist = np.asarray(res.bootstrap_distribution, float)
    if not (math.isfinite(low) and math.isfinite(high)):  # BCa undefined (a degenerate sample): percentile
        finite = dist[np.isfinite(dist)]
        a = (1 - confidence) / 2
        low, high = (float(np.quantile(finite, a)), float(np.quantile(finite, 1 - a))) if finite.size else (est, est)
    return est, low, high, dist


def cluster_ratio(
    num: npt.ArrayLike,
    den: npt.ArrayLike,
    *,
    margin: float = 1.0,
    direction: int = 1,
    seed: int = 0,
    confidence: float = 0.95,
) -> Effect:
    """mean(num) / mean(den) over matchups (each entry one matchup's effect), with a cluster-bootstrap interval;
    the p values against ``margin`` are the bootstrap shares on the wrong side (a bootstrap test)."""
    nums, dens = np.asarray(num, float), np.asarray(den, float)

    def ratio(a: np.ndarray, b: np.ndarray) -> float:
        s = float(np.mean(b))
        return float(np.mean(a)) / s if s else float("nan")

    est, low, high, dist = cluster_bootstrap(ratio, [nums, dens], seed=seed, confidence=confidence)
    finite = dist[np.isfinite(dist)]
    if finite.size:
        p_beyond = float(np.mean(direction * finite <= direction * margin))
        p_within = float(np.mean(direction * finite >= direction * margin))
    else:
        p_beyond = p_within = 1.0
    return Effect(est, low, high, len(nums), 0, "matchup", p_beyond, p_within, "BCa cluster bootstrap of a ratio")


def holm(pvalues: Sequence[float], alpha: float = ALPHA) -> list[float]:
    """Holm-adjusted p values; NaN stays NaN. ``alpha`` does not change the adjusted values (kept for callers).

    Holm's step-down written out (sorted p times m, m - 1, ..., 1, running maximum, capped at 1) rather than
    statsmodels' ``multipletests(method="holm")``, which gives the same numbers (a test holds them equal) but runs a
    full ``gc.collect()`` on every call: 0.3-0.5 s each on a study's heap, a third of the claims' judging."""
    del alpha
    p = np.asarray(pvalues, float)
    out = np.full(len(p), np.nan)
    ok = np.isfinite(p)
    if ok.any():
        finite = p[ok]
        order = np.argsort(finite)
        adjusted = np.maximum.accumulate(finite[order] * np.arange(finite.size, 0, -1))
        adjusted[adjusted > 1] = 1
        back = np.empty_like(adjusted)
        back[order] = adjusted
        out[ok] = back
    return [float(x) for x in out]


def directional_verdict(p_beyond: float, p_within: float, alpha: float = ALPHA) -> str:
    """``supported`` / ``not supported`` / ``inconclusive`` from the two (adjusted) one-sided p values."""
    if math.isfinite(p_beyond) and p_beyond < alpha:
        return SUPPORTED
    if math.isfinite(p_within) and p_within < alpha:
        return NOT
    return INCONCLUSIVE


def equivalence(effect: Effect, margin: float) -> tuple[float, float]:
    """(p that |e| < margin is not shown: TOST, p that |e| > margin is not shown) from a t-interval effect."""
    from scipy.stats import norm

    # Recover the standard error from the 95% interval (t with the effect's units; normal is close enough here
    # and only used when the interval is finite).
    half = (effect.high - effect.low) / 2
    if not (math.isfinite(half) and half > 0):
        inside = abs(effect.estimate) < margin
        return (0.0, 1.0) if inside else (1.0, 0.0)
    se = half / norm.ppf(0.975)
    e = effect.estimate
    p_equiv = max(norm.sf((e + margin) / se), norm.cdf((e - margin) / se))  # TOST: both bounds inside
    p_beyond = min(norm.cdf((e + margin) / se), norm.sf((e - margin) / se)) * 2  # outside on either side
    return float(p_equiv), float(min(1.0, p_beyond))


def combine(parts: Sequence[str]) -> str:
    """A claim of several stated parts (a conjunction): supported if every part is; partly supported if some part
    is supported and another decided against; not supported if a part is decided against and none supported;
    otherwise inconclusive."""
    parts = list(parts)
    if parts and all(p == SUPPORTED for p in parts):
        return SUPPORTED
    if NOT in parts:
        return PARTLY if SUPPORTED in parts else NOT
    return INCONCLUSIVE
