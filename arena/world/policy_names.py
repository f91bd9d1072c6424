"""The names of tactics policies, as a stat block or a scenario may write them.

Why here: a stat block names its default policy, and validating that name must not need the fight layer, where
the policies live (:mod:`arena.combat.tactics`, which holds the same built-in names). A name that is not built in
may come from a user's policy file; whether it is registered is checked when a scenario is resolved, once those
files have run.
"""

from __future__ import annotations

import re

from arena.errors import nearest

BUILT_IN_POLICIES = ("random", "focus-weakest", "focus-threat", "caster")
POLICY_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
"""A policy of your own: lower-case letters, digits, ``-`` and ``_``, at most 64 characters."""


def policy_name(value: str) -> str:
    """``value`` if it is a built-in policy or could be one of your own; a ValueError naming the nearest otherwise."""
    if value in BUILT_IN_POLICIES or POLICY_NAME_RE.match(value):
        return value
    raise ValueError(
        nearest(value, BUILT_IN_POLICIES, "policy") + "; a policy of your own is named with lower-case "
        "letters, digits, '-' and '_'"
    )
