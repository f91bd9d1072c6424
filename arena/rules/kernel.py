"""The kernel of a rule set: its checks compiled once each into a :class:`~arena.rules.plan.Plan` and cached
(:class:`Kernel`), one kernel per distinct rule set in a process (:func:`kernel_for`).

``resolve()`` and ``exact()`` (:mod:`arena.rules`) are two faces of the same cached plan: one samples it, the other
enumerates it.
"""

from __future__ import annotations

from arena.rules.check import Check, Outcome
from arena.rules.compiler import build_plan
from arena.rules.plan import Plan, Rand
from arena.rules.ruleset import RuleSet


class Kernel:
    """The compiled rules of one rule set, with a cache of compiled checks."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self._plans: dict[Check, Plan] = {}
        self.memo: dict = {}
        """Decisions derived from exact odds that callers cache per rule set (pressing luck, calling shots)."""

    def plan(self, check: Check) -> Plan:
        plan = self._plans.get(check)
        if plan is None:
            plan = self._plans[check] = build_plan(check, self.rules)
        return plan

    def resolve(self, check: Check, rand: Rand) -> Outcome:
        plan = self._plans.get(check)
        if plan is None:
            plan = self.plan(check)
        return plan.resolve(rand)


_KERNELS: dict[RuleSet, Kernel] = {}


def kernel_for(rules: RuleSet) -> Kernel:
    """The compiled rules of ``rules``: one per distinct rule set in a process, so equal rule sets share their caches.

    Kept on the rule set itself (as a cached property would be) so that a fight asks the dictionary only once per
    rule-set object; the rule set does not know the kernel, so the two modules do not import each other."""
    kernel = rules.__dict__.get("kernel")
    if kernel is None:
        kernel = _KERNELS.get(rules)
        if kernel is None:
            kernel = _KERNELS[rules] = Kernel(rules)
        rules.__dict__["kernel"] = kernel
    return kernel
