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
"""One kernel per distinct rule set in this process."""
_BY_OBJECT: dict[int, tuple[RuleSet, Kernel]] = {}
"""The kernel of each rule-set object a fight has asked for, by its id (the object is held, so its id is not reused
while it is here): hashing a pydantic rule set costs microseconds, and every fight asks."""
MAX_RULE_SET_OBJECTS = 4096
"""More rule-set objects than this and :data:`_BY_OBJECT` starts again (the kernels themselves are kept)."""


def kernel_for(rules: RuleSet) -> Kernel:
    """The compiled rules of ``rules``: one per distinct rule set in a process, so equal rule sets share their caches.

    Found by the rule set's identity first, so that a fight hashes each rule-set object once; nothing is stored on
    the rule set itself (it is pickled into every worker's task, and the compiled engine's kernel is not)."""
    found = _BY_OBJECT.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    kernel = _KERNELS.get(rules)
    if kernel is None:
        kernel = _KERNELS[rules] = Kernel(rules)
    if len(_BY_OBJECT) >= MAX_RULE_SET_OBJECTS:
        _BY_OBJECT.clear()
    _BY_OBJECT[id(rules)] = (rules, kernel)
    return kernel
