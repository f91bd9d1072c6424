"""The numbers a check may hold: the kernel's own bounds (:data:`MAX_CHECK_VALUE`, :data:`MAX_MULTIPLIER`) and the
refusal of a check past them, its numbers shown safely in the message."""

from __future__ import annotations

from arena.errors import RulesError
from arena.limits import MAX_MODIFIER
from arena.rules.check import ATTACK_LIKE, Check

MAX_CHECK_VALUE = 2 * MAX_MODIFIER
"""The kernel's own bound on a check's modifier, target and hidden modifier (in absolute value). Stat blocks and
``arena odds`` refuse numbers past :data:`~arena.limits.MAX_MODIFIER`; a fight adds situational modifiers to them
(bless, flanking, injuries, a called shot's +16 AC, a trip against a rolled total), so the kernel leaves room for
those and refuses only what no fight can build. Under variable modifiers +400 is forty d20s: 761 totals, exact in
well under a second."""
MAX_MULTIPLIER = 5
"""The largest critical multiplier (the SRD's largest is x4; x5 leaves room for a house rule)."""


def shown_number(value: object) -> str:
    """A value for a message: as written, except that a whole number of more than 15 digits is cut
    (``123456...(29 digits)``; Python refuses to print one of more than 4,300)."""
    if not isinstance(value, int) or isinstance(value, bool):
        text = repr(value)
        return text if len(text) <= 40 else text[:40] + "..."
    try:
        text = str(value)
    except ValueError:
        return "a number of more than 4,300 digits"
    digits = len(text.lstrip("-"))
    return text if digits <= 15 else f"{text[:7]}...({digits} digits)"


def check_numbers(check: Check) -> None:
    """Refuse a check whose numbers the rules cannot mean: not whole numbers, or past their limits."""
    for name in ("modifier", "target", "hidden"):
        value = getattr(check, name)
        if type(value) is not int:
            raise RulesError(f"a check's {name} must be a whole number, not {shown_number(value)}")
        if not -MAX_CHECK_VALUE <= value <= MAX_CHECK_VALUE:
            raise RulesError(
                f"a check's {name} {shown_number(value)} is beyond the limit of -{MAX_CHECK_VALUE}..{MAX_CHECK_VALUE}"
            )
    if check.kind in ATTACK_LIKE:
        if type(check.threat) is not int or not 2 <= check.threat <= 20:
            raise RulesError(f"threat range {shown_number(check.threat)}-20 cannot exist (the lowest threat is 2..20)")
        if type(check.multiplier) is not int or not 2 <= check.multiplier <= MAX_MULTIPLIER:
            raise RulesError(
                f"critical multiplier x{shown_number(check.multiplier)} cannot exist (x2 to x{MAX_MULTIPLIER})"
            )
    if check.take is not None and type(check.take) is not int:
        raise RulesError(f"taking {shown_number(check.take)}: take 10, 16, 18 or 20")
