"""The rules kernel: every d20-type roll of the source documents, sampled (`resolve`) and exact (`exact`).

One module per source document: `standard` (the d20 core), `bell_curve` (seed 000), `players_roll` (seeds 000,
001), `variable_modifiers` (seeds 000, 003, with press your luck), `open_ended` (seed 002); `compiler` compiles a
check under a rule set into one `plan` that both faces read, and `kernel` caches the plans of each rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from arena.dice import Stream
from arena.rules.check import KINDS, SIDES, Check, Outcome
from arena.rules.kernel import kernel_for
from arena.rules.naturals import chain_error
from arena.rules.open_ended import ERROR_BOUND
from arena.rules.ruleset import STANDARD, RuleOptions, RuleSet, default_grid, grid

__all__ = [
    "KINDS",
    "SIDES",
    "STANDARD",
    "Check",
    "Exact",
    "Outcome",
    "RuleOptions",
    "RuleSet",
    "default_grid",
    "exact",
    "grid",
    "resolve",
    "roller",
]


def resolve(check: Check, rules: RuleSet, stream: Stream) -> Outcome:
    """Sample one check under ``rules`` from ``stream``."""
    kernel = kernel_for(rules)
    plan = kernel._plans.get(check)  # inlined Kernel.resolve: this is the hottest call in the project
    if plan is None:
        plan = kernel.plan(check)
    return plan.resolve(stream.rand)


def roller(check: Check, rules: RuleSet) -> str:
    """The side that physically rolls ``check`` under ``rules`` (players roll all moves monsters' rolls)."""
    return kernel_for(rules).plan(check).roller


@dataclass(frozen=True)
class Exact:
    """The exact chance of every outcome a check can produce under a rule set."""

    probabilities: dict[str, Fraction]
    roller: str
    truncated: bool = False
    """Open-ended chains are infinite: they were followed to ``depth`` extra dice."""
    depth: int | None = None
    error_bound: float | None = None
    """An upper bound on any probability's error from the cut (below 1e-12)."""
    extra: dict = field(default_factory=dict)

    def __getitem__(self, name: str) -> Fraction:
        return self.probabilities[name]


def exact(check: Check, rules: RuleSet) -> Exact:
    """The exact outcome distribution of ``check`` under ``rules`` (fractions; icepool for the dice)."""
    plan = kernel_for(rules).plan(check)
    probabilities = plan.exact()
    if plan.open:
        depth, left_out = chain_error(plan.die)
        return Exact(probabilities, plan.roller, True, depth, max(left_out, 0.0) or ERROR_BOUND)
    return Exact(probabilities, plan.roller)
