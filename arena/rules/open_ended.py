"""Open-ended dice rolls (seed 002), for all resolution rolls.

Rolling high: a natural 20 (or, for an attack, a natural in the weapon's threat range) rolls again and adds,
again while the new die shows 20. Rolling low: a natural 1 rolls again and reads that die as negative (1 then 12
is -12); if that die is also a 1 it counts as 20 and another die is added, still negative (1, 1, 7 is -27).
A total 20 or more above what success needs is a critical success, 20 or more below a fumble, each only when
the initial roll was natural (high / low).

Under the bell curve the same words apply to 3d6: an 18 (or a natural in the converted threat range) rolls 3d6
again and adds, again on 18; a 3 rolls 3d6 again read as negative, another 3 counting as 18.
"""

from __future__ import annotations

from fractions import Fraction

CRITICAL_MARGIN = 20
"""A total beating the requirement by 20 or more is a critical success; falling short by 20 or more, a fumble."""
ERROR_BOUND = 1e-12
"""Exact distributions of exploding rolls are cut at a depth whose left-out probability is below this."""


def chain_depth(p_continue: Fraction) -> int:
    """How many extra dice to follow so that the chance of going further is below :data:`ERROR_BOUND`."""
    depth, mass = 0, Fraction(1)
    while mass >= Fraction(ERROR_BOUND) / 10:
        mass *= p_continue
        depth += 1
    return depth


def chain_distribution(
    faces: dict[int, Fraction], top: int, bottom: int, low: bool, depth: int
) -> tuple[dict[int, Fraction], Fraction]:
    """The value a chain of extra dice adds, exactly, to ``depth`` dice; returns it and the mass left out.

    High chain: sum of dice while each shows ``top``. Low chain: the dice read as a positive sum to subtract,
    each ``bottom`` counting as ``top`` and continuing.
    """
    trigger = bottom if low else top
    result: dict[int, Fraction] = {}
    reach = Fraction(1)  # chance of reaching the current die
    carried = 0  # what the chain holds before the current die
    for _ in range(depth):
        for face, p in faces.items():
            if face == trigger:
                continue
            value = carried + face
            result[value] = result.get(value, Fraction(0)) + reach * p
        reach *= faces[trigger]
        carried += top
    return result, reach
