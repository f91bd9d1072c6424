"""The assertions of a regression check, on a run's rows: the party's win rate within bounds (Wilson interval shown),
two rule sets equivalent (TOST), one rule set better than another (one-sided), and what a fight the party wins anyway
costs it, within bounds: hit points lost, PC deaths, PCs dropped, rounds (a mean per fight, its 95% interval shown);
each a :class:`Verdict`, and the same as pytest assertions (``assert_win_rate``, ``assert_equivalent``,
``assert_better``, ``assert_outcome``) on the DataFrame of :func:`arena.run`.

Why a module of its own: a suite (:mod:`arena.study.checks.suites`) and a user's own pytest make the very same
assertions; the tests are the paired ones of :mod:`arena.study.statistics.two_samples` when the rule sets fought
the same encounters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.errors import ArenaError
from arena.study.statistics.summaries import wilson
from arena.study.statistics.two_samples import equivalence, superiority, win_vectors

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check: what was measured and whether it held."""

    name: str
    scenario: str
    rules: str
    n: int
    measured: str
    expected: str
    passed: bool


def _fmt(p: float) -> str:
    return f"{100 * p:.1f}%"


def evaluate_win_rate(frame: pd.DataFrame, rules: str, low: float, high: float, scenario: str | None = None) -> Verdict:
    cell = _cell(frame, rules, scenario)
    wins, n = int((cell["winner"] == "party").sum()), len(cell)
    lo, hi = wilson(wins, n)
    rate = wins / n
    return Verdict(
        "",
        _scenario_name(cell),
        rules,
        n,
        f"{_fmt(rate)} (95% CI {_fmt(lo)}-{_fmt(hi)})",
        f"win rate in [{_fmt(low)}, {_fmt(high)}]",
        low <= rate <= high,
    )


def evaluate_equivalent(
    frame: pd.DataFrame, a: str, b: str, margin: float, alpha: float = 0.05, scenario: str | None = None
) -> Verdict:
    wa, wb, paired = win_vectors(frame, a, b, scenario)
    p = equivalence(wa, wb, margin, paired)
    diff = wa.mean() - wb.mean()
    return Verdict(
        "",
        scenario or _only_scenario(frame),
        f"{a} vs {b}",
        min(len(wa), len(wb)),
        f"difference {100 * diff:+.1f} points, TOST p={p:.3g}" + (" (paired)" if paired else ""),
        f"|difference| < {100 * margin:g} points at alpha {alpha:g}",
        p < alpha,
    )


def evaluate_better(frame: pd.DataFrame, a: str, b: str, alpha: float = 0.05, scenario: str | None = None) -> Verdict:
    wa, wb, paired = win_vectors(frame, a, b, scenario)
    p = superiority(wa, wb, paired)
    return Verdict(
        "",
        scenario or _only_scenario(frame),
        f"{a} > {b}",
        min(len(wa), len(wb)),
        f"{_fmt(wa.mean())} vs {_fmt(wb.mean())}, one-sided p={p:.3g}" + (" (paired)" if paired else ""),
        f"{a} wins more often, at alpha {alpha:g}",
        p < alpha,
    )


@dataclass(frozen=True)
class Outcome:
    """A per-fight measure a check can bound: its column in a run's rows, and how it reads."""

    column: str
    label: str
    percent: bool
    """Shown as a percentage (a share of the party's hit points), else as a number per fight."""

    def text(self, x: float) -> str:
        return _fmt(x) if self.percent else f"{x:.2f}"


OUTCOMES = {
    "hp_lost": Outcome("party_hp_lost", "hit points lost", True),
    "deaths": Outcome("pcs_dead", "PC deaths per fight", False),
    "dropped": Outcome("downs_monsters", "PCs dropped per fight", False),
    "rounds": Outcome("rounds", "rounds", False),
}
"""What a fight costs the party, by the name a suite gives it: the share of its hit points lost, the PCs dead at the
end, the PCs the monsters dropped during the fight (each time one went down), the rounds it lasted."""


def evaluate_outcome(
    frame: pd.DataFrame, measure: str, rules: str, low: float, high: float | None, scenario: str | None = None
) -> Verdict:
    """The mean of ``measure`` (one of :data:`OUTCOMES`) per fight under ``rules``, within ``[low, high]`` (None:
    no upper bound); its 95% interval (normal, over the fights) is shown."""
    import math

    outcome = _outcome(measure)
    cell = _cell(frame, rules, scenario)
    if outcome.column not in cell.columns:
        raise ArenaError(f"the results have no column {outcome.column!r} ({outcome.label}): run them again")
    values = cell[outcome.column].to_numpy(dtype=float)
    n, mean = len(values), float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    top = min(1.0, mean + half) if outcome.percent else mean + half  # a share of the hit points: never over 100%
    shown = f"{outcome.text(mean)} (95% CI {outcome.text(max(0.0, mean - half))} to {outcome.text(top)})"
    if high is None:
        bound = f"at least {outcome.text(low)}"
    elif low == 0:
        bound = f"at most {outcome.text(high)}"
    else:
        bound = f"in [{outcome.text(low)}, {outcome.text(high)}]"
    return Verdict(
        "",
        _scenario_name(cell),
        rules,
        n,
        f"{outcome.label} {shown}" if math.isfinite(half) else f"{outcome.label} {outcome.text(mean)}",
        f"{outcome.label} {bound}",
        low <= mean and (high is None or mean <= high),
    )


def _outcome(measure: str) -> Outcome:
    if measure not in OUTCOMES:
        from arena.errors import nearest

        raise ArenaError(nearest(measure, sorted(OUTCOMES), "outcome"))
    return OUTCOMES[measure]


def _only_scenario(frame: pd.DataFrame) -> str:
    names = frame["scenario"].unique()
    return str(names[0]) if len(names) == 1 else "(several)"


def _scenario_name(cell: pd.DataFrame) -> str:
    return str(cell["scenario"].iloc[0])


def _cell(frame: pd.DataFrame, rules: str, scenario: str | None) -> pd.DataFrame:
    if scenario is not None:
        frame = frame[frame["scenario"] == scenario]
    elif frame["scenario"].nunique() > 1:
        raise ArenaError("the results hold several scenarios: name one")
    cell = frame[frame["rules"] == rules]
    if cell.empty:
        raise ArenaError(
            f"rule set {rules!r} is not in the results (they have {', '.join(sorted(frame['rules'].unique()))})"
        )
    return cell


def assert_win_rate(results: pd.DataFrame, rules: str, low: float, high: float, *, scenario: str | None = None) -> None:
    """Assert the party's win rate under ``rules`` in ``results`` (a DataFrame of :func:`arena.run`) lies in
    ``[low, high]``."""
    v = evaluate_win_rate(results, rules, low, high, scenario)
    assert v.passed, f"{v.scenario} under {rules}: win rate {v.measured}, expected {v.expected}"


def assert_equivalent(
    results: pd.DataFrame, a: str, b: str, margin: float, *, alpha: float = 0.05, scenario: str | None = None
) -> None:
    """Assert rule sets ``a`` and ``b`` have win rates within ``margin`` of each other (TOST at ``alpha``)."""
    v = evaluate_equivalent(results, a, b, margin, alpha, scenario)
    assert v.passed, f"{v.scenario}: {a} and {b} not shown equivalent: {v.measured}; expected {v.expected}"


def assert_better(results: pd.DataFrame, a: str, b: str, *, alpha: float = 0.05, scenario: str | None = None) -> None:
    """Assert rule set ``a`` gives the party a higher win rate than ``b`` (one-sided test at ``alpha``)."""
    v = evaluate_better(results, a, b, alpha, scenario)
    assert v.passed, f"{v.scenario}: {a} not shown better than {b}: {v.measured}"


def assert_outcome(
    results: pd.DataFrame,
    measure: str,
    rules: str,
    low: float = 0.0,
    high: float | None = None,
    *,
    scenario: str | None = None,
) -> None:
    """Assert the mean per fight of ``measure`` (``hp_lost``, ``deaths``, ``dropped`` or ``rounds``) under ``rules``
    lies in ``[low, high]`` (``high`` None: no upper bound)."""
    v = evaluate_outcome(results, measure, rules, low, high, scenario)
    assert v.passed, f"{v.scenario} under {rules}: {v.measured}, expected {v.expected}"
