"""Regression suites (`arena check SUITE.yaml`) and the same assertions for pytest.

A suite is YAML (validated by pydantic; errors name file, line and field)::

    defaults: {n: 400, seed: 2024}          # optional; any check may override them
    checks:
      - name: the party usually beats the goblins
        file: goblin-ambush.yaml             # a scenario file, relative to the suite
        scenario: goblin-ambush              # which scenario of the file (optional if it holds one)
        win_rate: {rules: d20, min: 0.6, max: 1.0}
      - name: called shots change nothing here
        file: goblin-ambush.yaml
        equivalent: {rules: [d20, d20+called], margin: 0.05}
      - name: the bell curve favours the stronger side
        file: goblin-ambush.yaml
        better: {rules: 3d6, than: d20}

What must hold:

* ``win_rate``: the party's observed win rate lies in ``[min, max]`` (the 95% Wilson interval is shown);
* ``equivalent``: the two rule sets' win rates differ by less than ``margin``, shown by a TOST equivalence
  test at level ``alpha`` (paired on the shared encounters: both rule sets fight the same seeds);
* ``better``: ``rules`` has a higher win rate than ``than``, by a one-sided test at level ``alpha`` (exact
  McNemar on the shared encounters).

Every check of a suite with the same scenario, n and seed shares one run.
In pytest, :func:`assert_win_rate`, :func:`assert_equivalent` and :func:`assert_better` make the same
assertions on the DataFrame of :func:`arena.run`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from arena.analysis import equivalence, superiority, wilson, win_vectors
from arena.errors import ArenaError
from arena.rules import RuleSet


def _key(value: str) -> str:
    try:
        RuleSet.from_key(value)
    except ArenaError as err:  # as a ValueError, pydantic reports it with its file, line and field
        raise ValueError(str(err)) from None
    return value


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WinRate(_Model):
    rules: str
    min: float = Field(0.0, ge=0, le=1)
    max: float = Field(1.0, ge=0, le=1)

    @field_validator("rules")
    @classmethod
    def _known(cls, v: str) -> str:
        return _key(v)

    @model_validator(mode="after")
    def _ordered(self) -> WinRate:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        return self


class Equivalent(_Model):
    rules: tuple[str, str]
    margin: float = Field(gt=0, le=1)
    alpha: float = Field(0.05, gt=0, lt=1)

    @field_validator("rules")
    @classmethod
    def _keys(cls, v: tuple[str, str]) -> tuple[str, str]:
        if v[0] == v[1]:
            raise ValueError("name two different rule sets")
        return (_key(v[0]), _key(v[1]))


class Better(_Model):
    rules: str
    than: str
    alpha: float = Field(0.05, gt=0, lt=1)

    @model_validator(mode="after")
    def _keys(self) -> Better:
        _key(self.rules)
        _key(self.than)
        if self.rules == self.than:
            raise ValueError("'rules' and 'than' name the same rule set")
        return self


class Defaults(_Model):
    n: int = Field(400, ge=1)
    seed: int = Field(2024, ge=0)


class SuiteCheck(_Model):
    name: str = Field(min_length=1)
    file: str = Field(min_length=1)
    scenario: str | None = None
    n: int | None = Field(None, ge=1)
    seed: int | None = Field(None, ge=0)
    win_rate: WinRate | None = None
    equivalent: Equivalent | None = None
    better: Better | None = None

    @model_validator(mode="after")
    def _one_expectation(self) -> SuiteCheck:
        given = [k for k in ("win_rate", "equivalent", "better") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of win_rate, equivalent, better"
                             + (f" (found {', '.join(given)})" if given else ""))
        return self

    @property
    def rule_keys(self) -> list[str]:
        if self.win_rate:
            return [self.win_rate.rules]
        if self.equivalent:
            return list(self.equivalent.rules)
        return [self.better.rules, self.better.than]


class Suite(_Model):
    defaults: Defaults = Defaults()
    checks: list[SuiteCheck] = Field(min_length=1)


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


# --------------------------------------------------------------------------------------------- evaluation
def _fmt(p: float) -> str:
    return f"{100 * p:.1f}%"


def evaluate_win_rate(frame: Any, rules: str, low: float, high: float, scenario: str | None = None) -> Verdict:
    cell = _cell(frame, rules, scenario)
    wins, n = int((cell["winner"] == "party").sum()), len(cell)
    lo, hi = wilson(wins, n)
    rate = wins / n
    return Verdict("", _scenario_name(cell), rules, n, f"{_fmt(rate)} (95% CI {_fmt(lo)}-{_fmt(hi)})",
                   f"win rate in [{_fmt(low)}, {_fmt(high)}]", low <= rate <= high)


def evaluate_equivalent(frame: Any, a: str, b: str, margin: float, alpha: float = 0.05,
                        scenario: str | None = None) -> Verdict:
    wa, wb, paired = win_vectors(frame, a, b, scenario)
    p = equivalence(wa, wb, margin, paired)
    diff = wa.mean() - wb.mean()
    return Verdict("", scenario or _only_scenario(frame), f"{a} vs {b}", min(len(wa), len(wb)),
                   f"difference {100 * diff:+.1f} points, TOST p={p:.3g}" + (" (paired)" if paired else ""),
                   f"|difference| < {100 * margin:g} points at alpha {alpha:g}", p < alpha)


def evaluate_better(frame: Any, a: str, b: str, alpha: float = 0.05, scenario: str | None = None) -> Verdict:
    wa, wb, paired = win_vectors(frame, a, b, scenario)
    p = superiority(wa, wb, paired)
    return Verdict("", scenario or _only_scenario(frame), f"{a} > {b}", min(len(wa), len(wb)),
                   f"{_fmt(wa.mean())} vs {_fmt(wb.mean())}, one-sided p={p:.3g}" + (" (paired)" if paired else ""),
                   f"{a} wins more often, at alpha {alpha:g}", p < alpha)


def _only_scenario(frame: Any) -> str:
    names = frame["scenario"].unique()
    return str(names[0]) if len(names) == 1 else "(several)"


def _scenario_name(cell: Any) -> str:
    return str(cell["scenario"].iloc[0])


def _cell(frame: Any, rules: str, scenario: str | None) -> Any:
    if scenario is not None:
        frame = frame[frame["scenario"] == scenario]
    elif frame["scenario"].nunique() > 1:
        raise ArenaError("the results hold several scenarios: name one")
    cell = frame[frame["rules"] == rules]
    if cell.empty:
        raise ArenaError(f"rule set {rules!r} is not in the results (they have "
                         f"{', '.join(sorted(frame['rules'].unique()))})")
    return cell


# --------------------------------------------------------------------------------------------- pytest helpers
def assert_win_rate(results: Any, rules: str, low: float, high: float, *, scenario: str | None = None) -> None:
    """Assert the party's win rate under ``rules`` in ``results`` (a DataFrame of :func:`arena.run`) lies in
    ``[low, high]``."""
    v = evaluate_win_rate(results, rules, low, high, scenario)
    assert v.passed, f"{v.scenario} under {rules}: win rate {v.measured}, expected {v.expected}"


def assert_equivalent(results: Any, a: str, b: str, margin: float, *, alpha: float = 0.05,
                      scenario: str | None = None) -> None:
    """Assert rule sets ``a`` and ``b`` have win rates within ``margin`` of each other (TOST at ``alpha``)."""
    v = evaluate_equivalent(results, a, b, margin, alpha, scenario)
    assert v.passed, f"{v.scenario}: {a} and {b} not shown equivalent: {v.measured}; expected {v.expected}"


def assert_better(results: Any, a: str, b: str, *, alpha: float = 0.05, scenario: str | None = None) -> None:
    """Assert rule set ``a`` gives the party a higher win rate than ``b`` (one-sided test at ``alpha``)."""
    v = evaluate_better(results, a, b, alpha, scenario)
    assert v.passed, f"{v.scenario}: {a} not shown better than {b}: {v.measured}"


# --------------------------------------------------------------------------------------------- suites
def load_suite(path: str | os.PathLike) -> tuple[Suite, Any]:
    """The validated suite and its parsed document (for ``file:line`` in later messages)."""
    from arena.yamlio import load_yaml, validate

    doc = load_yaml(path)
    return validate(doc, Suite), doc


def run_suite(path: str | os.PathLike, *, workers: int = 1, simulator: Any = None,
              loader: Any = None) -> list[Verdict]:
    """Run every check of the suite at ``path``; scenario files are relative to it.

    ``loader(path) -> list[Scenario]`` defaults to :func:`arena.scenario.load_scenarios`.
    """
    from arena.experiment import run

    suite, doc = load_suite(path)
    base = Path(path).resolve().parent
    if loader is None:
        from arena.scenario import load_scenarios as loader
    from arena.scenario import pick

    files: dict[Path, list[Any]] = {}
    picked: list[tuple[SuiteCheck, Any, int, int]] = []
    for i, check in enumerate(suite.checks):
        file = (base / check.file).resolve()
        if file not in files:
            if not file.exists():
                raise ArenaError(f"{doc.where(('checks', i, 'file'))}: checks.{i}.file: no such scenario file "
                                 f"{check.file!r} (relative to the suite)")
            files[file] = list(loader(file))
        where = doc.where(("checks", i, "scenario") if check.scenario else ("checks", i))
        scenario = pick(files[file], check.scenario, f"{where}: checks.{i}.scenario: the file")
        picked.append((check, scenario, check.n or suite.defaults.n, suite.defaults.seed
                       if check.seed is None else check.seed))

    runs: dict[tuple, set[str]] = {}
    for check, scenario, n, seed in picked:
        runs.setdefault((id(scenario), n, seed), set()).update(check.rule_keys)
    frames: dict[tuple, Any] = {}
    verdicts = []
    for check, scenario, n, seed in picked:
        key = (id(scenario), n, seed)
        if key not in frames:
            frames[key] = run(scenario, n=n, seed=seed, rules=sorted(runs[key]), workers=workers,
                              simulator=simulator)
        frame = frames[key]
        if check.win_rate:
            v = evaluate_win_rate(frame, check.win_rate.rules, check.win_rate.min, check.win_rate.max)
        elif check.equivalent:
            v = evaluate_equivalent(frame, *check.equivalent.rules, check.equivalent.margin, check.equivalent.alpha)
        else:
            v = evaluate_better(frame, check.better.rules, check.better.than, check.better.alpha)
        verdicts.append(Verdict(check.name, scenario.name, v.rules, v.n, v.measured, v.expected, v.passed))
    return verdicts
