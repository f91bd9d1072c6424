"""Inference for the encounter claims: the matchup as the independent unit, intervals on ratios, practical margins,
Holm across claims, and verdicts that say what was shown: the size, only the direction, or nothing.

**The unit.** A claim that pools matchups pools *clusters*: the fights of one matchup share a party, a monster and
a difficulty, and a claim about "fights" is a claim about matchups in general. So every pooled effect is the mean
of the per-matchup paired effects (each matchup weighs the same), and its interval counts matchups, not fights:
a t interval on the G matchup means (G - 1 degrees of freedom; the cluster-robust interval of a mean of cluster
means) for a difference, and a cluster bootstrap (scipy's BCa over matchups, all arms of a matchup resampled
together) for a ratio of two pooled effects. :func:`fight_level_interval` gives the old fights-as-units interval
beside it, to show what the unit changes.

**Margins and verdicts.** Each claim states, before any number, the direction it predicts and a practical margin
``m`` (the smallest effect a designer would notice; docs/claims.md justifies each). With ``d`` the predicted sign,
``e`` the effect and ``e0`` the no-effect value (0 for a difference, 1 for a ratio), in this order:

* ``supported``: ``d * e > m``, shown (the one-sided p of H0 ``d * e <= m``, Holm-adjusted, below alpha; the
  unadjusted 95% interval then lies beyond the margin);
* ``not supported``: ``d * e < m``, shown (the one-sided p of H0 ``d * e >= m``, Holm-adjusted, below alpha): the
  effect is smaller than what matters, or the other way;
* ``direction shown (size undecided)``: neither, but the effect is shown on the predicted side of no effect (the
  one-sided p of H0 ``d * (e - e0) <= 0``, Holm-adjusted, below alpha): the claim's direction holds, its size
  against the margin is not decided. Only where the margin lies beyond ``e0`` in the predicted direction (otherwise
  the direction is no weaker a statement than the margin, and the part has no direction test);
* ``inconclusive``: none of these.

An equivalence claim ("effectively the same") is the mirror: supported when ``|e| < m`` is shown (two one-sided
tests), not supported when ``|e| > m`` is shown (:func:`equivalence`), inconclusive otherwise; it predicts no
direction. Holm's step-down runs over all parts of all encounter claims at once, one family per kind of test.

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
DIRECTION = "direction shown (size undecided)"
DESCRIPTIVE = "descriptive"
"""Not a verdict: a claim that states a motive, not an effect, reported by its effect sizes (no margin, no test)."""
VERDICTS = (SUPPORTED, PARTLY, DIRECTION, NOT, INCONCLUSIVE, DESCRIPTIVE)
"""Every label an encounter claim can get (the exact single-roll claims have their own)."""
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
    p_direction: float = float("nan")
    """One-sided p of H0: the effect is not on the predicted side of ``no_effect`` (the direction alone)."""
    no_effect: float = 0.0
    """The value of no effect: 0 for a difference, 1 for a ratio."""
    se: float = float("nan")
    """Standard error of a t effect (NaN for a bootstrap ratio)."""
    df: float = float("nan")
    """Degrees of freedom of a t effect's interval (NaN for a bootstrap ratio)."""

    def as_dict(self, digits: int = 4) -> dict:
        d = asdict(self)
        for k in ("estimate", "low", "high", "p_beyond", "p_within", "p_direction", "se", "df"):
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
    return t_effect(mean, se, g - 1, low, high, len(arrays), fights, margin=margin, direction=direction, unit=unit)


def t_effect(
    mean: float,
    se: float,
    df: int,
    low: float,
    high: float,
    units: int,
    fights: int,
    *,
    margin: float,
    direction: int,
    unit: str = "matchup",
    method: str = "t over matchup means",
) -> Effect:
    """An effect with a t reference distribution: its three one-sided p values (beyond the margin, within it, and
    the direction alone against 0), its standard error and degrees of freedom kept for :func:`equivalence`."""
    null = direction * margin
    return Effect(
        mean,
        low,
        high,
        units,
        fights,
        unit,
        p_beyond=_t_p(mean, se, df, null, greater=direction > 0),
        p_within=_t_p(mean, se, df, null, greater=direction < 0),
        method=method,
        p_direction=_t_p(mean, se, df, 0.0, greater=direction > 0),
        se=se,
        df=float(df),
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
    fights: int = 0,
) -> Effect:
    """mean(num) / mean(den) over matchups (each entry one matchup's effect), with a cluster-bootstrap interval;
    the p values against ``margin`` and against no effect (a ratio of 1) are bootstrap tests (:func:`bootstrap_p`).
    ``fights``: the fights per arm behind the matchups, for the report."""
    nums, dens = np.asarray(num, float), np.asarray(den, float)

    def ratio(a: np.ndarray, b: np.ndarray) -> float:
        s = float(np.mean(b))
        return float(np.mean(a)) / s if s else float("nan")

    est, low, high, dist = cluster_bootstrap(ratio, [nums, dens], seed=seed, confidence=confidence)
    return Effect(
        est,
        low,
        high,
        len(nums),
        fights,
        "matchup",
        p_beyond=bootstrap_p(dist, margin, direction),
        p_within=bootstrap_p(dist, margin, -direction),
        method="BCa cluster bootstrap of a ratio",
        p_direction=bootstrap_p(dist, 1.0, direction),
        no_effect=1.0,
    )


def bootstrap_p(dist: np.ndarray, null: float, direction: int) -> float:
    """One-sided bootstrap p of H0 ``direction * value <= direction * null``: the share of the bootstrap
    distribution on the null's side, counted as (k + 1) / (B + 1) over its B finite resamples. The + 1 is the
    observed sample itself: a bootstrap of B resamples cannot show a p below 1/(B + 1), so none is 0 (with no
    finite resample it is 1)."""
    finite = dist[np.isfinite(dist)]
    k = int(np.count_nonzero(direction * finite <= direction * null))
    return (k + 1) / (finite.size + 1)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p values; NaN stays NaN.

    Holm's step-down written out (sorted p times m, m - 1, ..., 1, running maximum, capped at 1) rather than
    statsmodels' ``multipletests(method="holm")``, which gives the same numbers (a test holds them equal) but runs a
    full ``gc.collect()`` on every call: 0.3-0.5 s each on a study's heap, a third of the claims' judging."""
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


def directional_verdict(
    p_beyond: float, p_within: float, alpha: float = ALPHA, *, p_direction: float = float("nan")
) -> str:
    """The verdict of a directional part from its (adjusted) one-sided p values, in the module's order:
    ``supported``, ``not supported``, ``direction shown (size undecided)``, ``inconclusive``."""
    if math.isfinite(p_beyond) and p_beyond < alpha:
        return SUPPORTED
    if math.isfinite(p_within) and p_within < alpha:
        return NOT
    if math.isfinite(p_direction) and p_direction < alpha:
        return DIRECTION
    return INCONCLUSIVE


def equivalence(effect: Effect, margin: float) -> tuple[float, float]:
    """(p of H0 ``|e| >= margin``: TOST, p of H0 ``|e| <= margin``) from a t effect.

    The first is the larger of the two one-sided p values (both bounds must be shown inside). The second tests
    "``|e| > margin``", which rejects when the estimate is far enough beyond the margin on *either* side. Those two
    rejection regions are disjoint, and the null's least favourable point is the boundary (``e = +margin``, or
    ``-margin``), where the far region (beyond ``-margin``) has probability ``Phi(-2 margin / se - z)``: so the p
    value is the one-sided p on the estimate's side plus that far tail, not twice the one-sided p (doubling, as
    this function once did, tests at alpha / 2 and leaves effects shown beyond the margin undecided). The far tail
    is negligible whenever the margin is a few standard errors wide.

    The reference distribution is the effect's own: t with its degrees of freedom when it has them (the interval
    it was reported with), else a normal with the standard error recovered from the 95% interval."""
    from scipy.stats import norm, t

    e = effect.estimate
    if math.isfinite(effect.se) and effect.se > 0 and math.isfinite(effect.df) and effect.df >= 1:
        se, reference = effect.se, t(effect.df)
    else:
        half = (effect.high - effect.low) / 2
        if not (math.isfinite(half) and half > 0):
            inside = abs(e) < margin
            return (0.0, 1.0) if inside else (1.0, 0.0)
        se, reference = half / float(norm.ppf(0.975)), norm()

    def sf(z: float) -> float:
        return float(reference.sf(z))

    p_equiv = max(sf((e + margin) / se), sf((margin - e) / se))  # TOST: both bounds shown inside
    near, far = sf((abs(e) - margin) / se), sf((abs(e) + margin) / se)  # beyond on the estimate's side; the other
    return float(p_equiv), float(min(1.0, near + far))


def combine(parts: Sequence[str]) -> str:
    """The verdict of a claim of several stated parts (a conjunction: the claim holds if every part does).

    * ``supported`` if every part is;
    * ``partly supported`` if some part is supported and another decided against (``not supported``);
    * ``not supported`` if a part is decided against and none supported;
    * ``direction shown (size undecided)`` if no part is decided against or inconclusive and at least one part's
      direction is shown without its size (every part's direction then holds: the claim's direction is shown);
    * otherwise ``inconclusive`` (some part shows nothing, so neither the claim nor its direction is shown)."""
    parts = list(parts)
    if parts and all(p == SUPPORTED for p in parts):
        return SUPPORTED
    if NOT in parts:
        return PARTLY if SUPPORTED in parts else NOT
    if parts and all(p in (SUPPORTED, DIRECTION) for p in parts):
        return DIRECTION
    return INCONCLUSIVE
