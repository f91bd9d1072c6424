"""Regression suites (`arena check SUITE.yaml`): a YAML file of checks, each an assertion about a scenario's run.

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
      - name: the ambush costs the party about a quarter of its hit points
        file: goblin-ambush.yaml
        hp_lost: {rules: d20, min: 0.15, max: 0.35}
      - name: and it is over in six rounds
        file: goblin-ambush.yaml
        rounds: {rules: d20, max: 6}

What must hold:

* ``win_rate``: the party's observed win rate lies in ``[min, max]`` (the 95% Wilson interval is shown);
* ``equivalent``: the two rule sets' win rates differ by less than ``margin``, shown by a TOST equivalence
  test at level ``alpha`` (paired on the shared encounters: both rule sets fight the same seeds);
* ``better``: ``rules`` has a higher win rate than ``than``, by a one-sided test at level ``alpha`` (exact
  McNemar on the shared encounters);
* ``hp_lost``, ``deaths``, ``dropped``, ``rounds``: what the fight costs the party, for the fights designers tune
  (which the party wins anyway): the mean per fight of the share of its hit points lost, of PCs dead at the end,
  of PCs the monsters dropped during the fight, or of rounds, lies in ``[min, max]`` (``min`` 0 and no ``max`` by
  default; the 95% interval is shown).

Every check of a suite with the same scenario, n and seed shares one run. The assertions themselves, and the same
for pytest, are :mod:`arena.study.checks.assertions`.

Why a module of its own: a suite is a file a person writes, validated where it is read (every error names its
file, line and field), whose scenario files are found relative to it and fought once per scenario, size and seed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from arena.errors import ArenaError, nearest
from arena.limits import MAX_ENCOUNTERS, MAX_NAME_LENGTH, MAX_RUN_ENCOUNTERS, MAX_SEED
from arena.rules import RuleSet
from arena.study.checks.assertions import (
    OUTCOMES,
    Verdict,
    evaluate_better,
    evaluate_equivalent,
    evaluate_outcome,
    evaluate_win_rate,
)

if TYPE_CHECKING:
    import pandas as pd

MAX_PATH_LENGTH = 4096
"""Characters of a suite's ``file:`` (PATH_MAX on Linux)."""
MAX_BAND = 1_000_000
"""The largest bound a suite may give an outcome per fight (rounds, deaths, PCs dropped)."""
EXPECTATIONS = ("win_rate", "equivalent", "better", *OUTCOMES)
"""What a check may assert, exactly one each."""


def _key(value: str) -> str:
    """The canonical key of a rule set (``" d20"`` -> ``"d20"``), so the check finds it in the results."""
    try:
        return RuleSet.from_key(value).key
    except ArenaError as err:  # as a ValueError, pydantic reports it with its file, line and field
        raise ValueError(str(err)) from None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class WinRate(_Model):
    rules: str = Field(max_length=MAX_NAME_LENGTH)
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

    @field_validator("rules", mode="before")
    @classmethod
    def _as_tuple(cls, v: Any) -> Any:
        return tuple(v) if isinstance(v, list) else v  # YAML gives a list; strict mode wants the tuple itself

    @field_validator("rules")
    @classmethod
    def _keys(cls, v: tuple[str, str]) -> tuple[str, str]:
        keys = (_key(v[0]), _key(v[1]))
        if keys[0] == keys[1]:
            raise ValueError("name two different rule sets")
        return keys


class Better(_Model):
    rules: str = Field(max_length=MAX_NAME_LENGTH)
    than: str = Field(max_length=MAX_NAME_LENGTH)
    alpha: float = Field(0.05, gt=0, lt=1)

    @field_validator("rules", "than")
    @classmethod
    def _known(cls, v: str) -> str:
        return _key(v)

    @model_validator(mode="after")
    def _different(self) -> Better:
        if self.rules == self.than:
            raise ValueError("'rules' and 'than' name the same rule set")
        return self


class Band(_Model):
    """A bound on what a fight costs the party (``hp_lost``, ``deaths``, ``dropped``, ``rounds``): its mean per fight
    under ``rules`` lies in ``[min, max]``."""

    rules: str = Field(max_length=MAX_NAME_LENGTH)
    min: float = Field(0.0, ge=0, le=MAX_BAND)
    max: float | None = Field(None, ge=0, le=MAX_BAND)

    @field_validator("rules")
    @classmethod
    def _known(cls, v: str) -> str:
        return _key(v)

    @model_validator(mode="after")
    def _ordered(self) -> Band:
        if self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min:g}) is above max ({self.max:g})")
        return self


class HitPointsLost(Band):
    """``hp_lost``: the share of the party's hit points lost, 0 to 1."""

    min: float = Field(0.0, ge=0, le=1)
    max: float | None = Field(None, ge=0, le=1)


class Defaults(_Model):
    n: int = Field(default=400, ge=1, le=MAX_ENCOUNTERS)
    seed: int = Field(default=2024, ge=0, le=MAX_SEED)


class SuiteCheck(_Model):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    file: str = Field(min_length=1, max_length=MAX_PATH_LENGTH)
    scenario: str | None = Field(None, min_length=1, max_length=MAX_NAME_LENGTH)
    n: int | None = Field(None, ge=1, le=MAX_ENCOUNTERS)
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    win_rate: WinRate | None = None
    equivalent: Equivalent | None = None
    better: Better | None = None
    hp_lost: HitPointsLost | None = None
    deaths: Band | None = None
    dropped: Band | None = None
    rounds: Band | None = None

    @field_validator("name")
    @classmethod
    def _visible(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("give the check a name (it is blank)")
        return v

    @field_validator("file")
    @classmethod
    def _path(cls, v: str) -> str:
        if not v.strip() or "\0" in v:
            raise ValueError("give the scenario file's path (relative to the suite)")
        return v

    @model_validator(mode="after")
    def _one_expectation(self) -> SuiteCheck:
        given = [k for k in EXPECTATIONS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                f"give exactly one of {', '.join(EXPECTATIONS)}" + (f" (found {', '.join(given)})" if given else "")
            )
        return self

    @property
    def measure(self) -> str:
        """The name of what the check asserts (one of :data:`EXPECTATIONS`)."""
        for name in EXPECTATIONS:
            if getattr(self, name) is not None:
                return name
        raise ValueError("the check asserts nothing")  # refused when it was read (_one_expectation)

    @property
    def expectation(self) -> WinRate | Equivalent | Better | Band:
        """What the check asserts: the one of :data:`EXPECTATIONS` it gives."""
        given: WinRate | Equivalent | Better | Band = getattr(self, self.measure)
        return given

    @property
    def rule_keys(self) -> list[str]:
        expected = self.expectation
        if isinstance(expected, WinRate | Band):
            return [expected.rules]
        if isinstance(expected, Equivalent):
            return list(expected.rules)
        return [expected.rules, expected.than]

    def judge(self, frame: pd.DataFrame) -> Verdict:
        """The check's assertion on the rows of its run (:mod:`arena.study.checks.assertions`)."""
        expected = self.expectation
        if isinstance(expected, WinRate):
            return evaluate_win_rate(frame, expected.rules, expected.min, expected.max)
        if isinstance(expected, Equivalent):
            return evaluate_equivalent(frame, *expected.rules, expected.margin, expected.alpha)
        if isinstance(expected, Band):
            return evaluate_outcome(frame, self.measure, expected.rules, expected.min, expected.max)
        return evaluate_better(frame, expected.rules, expected.than, expected.alpha)


class Suite(_Model):
    defaults: Defaults = Defaults()
    checks: list[SuiteCheck] = Field(min_length=1)

    @field_validator("checks", mode="before")
    @classmethod
    def _as_list(cls, v: Any) -> Any:
        return list(v) if isinstance(v, tuple) else v


def load_suite(path: str | os.PathLike) -> tuple[Suite, Any]:
    """The validated suite and its parsed document (for ``file:line`` in later messages)."""
    from arena.world.yamlio import load_yaml, validate

    doc = load_yaml(path)
    return validate(doc, Suite), doc


def run_suite(
    path: str | os.PathLike,
    *,
    workers: int = 1,
    simulator: Any = None,
    loader: Any = None,
    trust_policies: bool = False,
    on_policy: Any = None,
) -> list[Verdict]:
    """Run every check of the suite at ``path``; scenario files are relative to it.

    ``loader(path) -> list[Scenario]`` defaults to :func:`arena.study.scenarios.loading.load_scenarios` (with
    ``trust_policies`` and ``on_policy``: the Python policy files a scenario file lists run only when trusted).
    """
    from arena.study.runs.in_memory import run
    from arena.study.runs.options import check_workers

    workers = check_workers(workers)
    suite, doc = load_suite(path)
    base = Path(os.path.abspath(path)).parent
    if loader is None:
        from arena.study.scenarios.loading import load_scenarios

        def loader(file: Path) -> list[Any]:
            return load_scenarios(file, trust_policies=trust_policies, on_policy=on_policy)

    files: dict[Path, list[Any]] = {}
    picked: list[tuple[SuiteCheck, Any, int, int]] = []
    for i, check in enumerate(suite.checks):
        field_at = f"{doc.where(('checks', i, 'file'))}: checks.{i}.file"
        file = _resolve(base / check.file)
        if file not in files:
            if not os.path.lexists(file):
                raise ArenaError(f"{field_at}: no such scenario file {check.file!r} (relative to the suite)")
            try:
                files[file] = list(loader(file))
            except ArenaError as err:  # the scenario file's own problem, with where the suite names it
                raise ArenaError(f"{field_at}: {err}") from None
            if not files[file]:
                raise ArenaError(f"{field_at}: {check.file!r} holds no scenario")
        scenario = _pick(files[file], check, doc, i)
        picked.append(
            (check, scenario, check.n or suite.defaults.n, suite.defaults.seed if check.seed is None else check.seed)
        )

    runs: dict[tuple, set[str]] = {}
    first: dict[tuple, int] = {}
    for i, (check, scenario, n, seed) in enumerate(picked):
        key = (id(scenario), n, seed)
        runs.setdefault(key, set()).update(check.rule_keys)
        first.setdefault(key, i)
    total = 0
    for key, keys in runs.items():
        total += key[1] * len(keys)
        if total > MAX_RUN_ENCOUNTERS:
            i = first[key]
            raise ArenaError(
                f"{doc.where(('checks', i))}: checks.{i}: the suite would fight more than "
                f"{MAX_RUN_ENCOUNTERS:,} encounters in all; lower n"
            )
    frames: dict[tuple, pd.DataFrame] = {}
    verdicts = []
    for check, scenario, n, seed in picked:
        key = (id(scenario), n, seed)
        if key not in frames:
            frames[key] = run(scenario, n=n, seed=seed, rules=sorted(runs[key]), workers=workers, simulator=simulator)
        v = check.judge(frames[key])
        verdicts.append(Verdict(check.name, scenario.name, v.rules, v.n, v.measured, v.expected, v.passed))
    return verdicts


def _resolve(path: Path) -> Path:
    """``path`` with links resolved where they can be (a link loop is left for the loader to report)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def _pick(scenarios: list[Any], check: SuiteCheck, doc: Any, i: int) -> Any:
    """The scenario a check names (or the file's only one), or an error at the check's ``scenario:`` field."""
    names = [s.name for s in scenarios]
    if check.scenario is None:
        if len(scenarios) == 1:
            return scenarios[0]
        raise ArenaError(
            f"{doc.where(('checks', i))}: checks.{i}: {check.file!r} holds {len(scenarios)} "
            f"scenarios; name one with scenario: ({', '.join(names[:10])}"
            f"{', ...' if len(names) > 10 else ''})"
        )
    for s in scenarios:
        if s.name == check.scenario:
            return s
    raise ArenaError(
        f"{doc.where(('checks', i, 'scenario'))}: checks.{i}.scenario: "
        + nearest(check.scenario, names[:50], f"scenario in {check.file!r}:")
    )
