"""The body parts a called shot can target (Unearthed Arcana's called shots, seed 003): :class:`BodyPart`, the
improved-AC bonus of a part from its size (:func:`improved_ac_bonus`) or the table's "usually" values
(:data:`PART_AC_DEFAULTS`), and the default parts of each creature type (:data:`BODY_BY_TYPE`)."""

from fractions import Fraction
from typing import Annotated

from pydantic import Field, model_validator

from arena.errors import ArenaError
from arena.world.stat_types import MAX_PART_AC_BONUS, MAX_PART_COUNT, Frozen, PartName, _int

PART_AC_DEFAULTS: dict[str, int] = {
    "hand": 4,  # "Hand (usually AC +4)"
    "arm": 2,  # "Arm (usually AC +2)"
    "head": 4,  # "Head (usually AC +4)"
    "eye": 8,  # "One eye (usually AC +8)"
    "ear": 8,  # "One ear (usually AC +8)"
    "crotch": 6,  # "Crotch (usually AC +6)"
    "foot": 2,  # "Foot/Leg/Wing/Tail (usually AC +2)"
    "leg": 2,
    "wing": 2,
    "tail": 2,
}
"""Improved-AC bonus of each body part, the "usually" values of Table: Called Shots and Effects."""


def improved_ac_bonus(fraction: Fraction | float | str) -> int:
    """Improved-AC bonus of a body part from its size as a fraction of the creature (called-shot table note 1).

    "AC +16 = smaller than one thirty-second its size, +8 = smaller than one sixteenth, +4 = smaller than one
    eighth, +2 = smaller than one quarter, +1 = smaller than one half"; "If a body part is larger than half of
    its size, the body part is too large for you to make a called shot against it" (an error here). A part of
    exactly one half is in neither band: it can be called at +0.
    """
    try:
        f = Fraction(fraction) if not isinstance(fraction, float) else Fraction(fraction).limit_denominator(1024)
    except (ValueError, ZeroDivisionError):
        raise ArenaError(f"body-part size {fraction!r} is not a fraction like 1/8") from None
    if f <= 0:
        raise ArenaError(f"body-part size {fraction!r} must be more than 0")
    if f > Fraction(1, 2):
        raise ArenaError(f"a body part of {f} of the creature's size is larger than half: it cannot be called")
    for limit, bonus in (
        (Fraction(1, 32), 16),
        (Fraction(1, 16), 8),
        (Fraction(1, 8), 4),
        (Fraction(1, 4), 2),
        (Fraction(1, 2), 1),
    ):
        if f < limit:
            return bonus
    return 0


class BodyPart(Frozen):
    """A part a called shot can target: how many the creature has and its improved-AC bonus.

    Give ``ac_bonus`` directly, or ``size_fraction`` (its size relative to the creature) to compute it with
    :func:`improved_ac_bonus`; with neither the table's "usually" value is used.
    """

    part: PartName
    count: Annotated[int, _int(1, MAX_PART_COUNT)] = 1
    ac_bonus: Annotated[int, _int(0, MAX_PART_AC_BONUS)] | None = None
    size_fraction: Annotated[str, Field(strict=True, max_length=32)] | None = None

    @model_validator(mode="after")
    def _bonus(self) -> "BodyPart":
        if self.size_fraction is not None:
            try:
                bonus = improved_ac_bonus(self.size_fraction)
            except ArenaError as err:
                raise ValueError(str(err)) from None
            if self.ac_bonus is not None and self.ac_bonus != bonus:
                raise ValueError(
                    f"ac_bonus {self.ac_bonus} contradicts size_fraction {self.size_fraction} (which gives +{bonus})"
                )
            object.__setattr__(self, "ac_bonus", bonus)
        elif self.ac_bonus is None:
            object.__setattr__(self, "ac_bonus", PART_AC_DEFAULTS[self.part])
        return self


_HUMANOID_BODY = (("hand", 2), ("arm", 2), ("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 2), ("leg", 2))
_QUADRUPED_BODY = (("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 4), ("leg", 4), ("tail", 1))
_DRAGON_BODY = (("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 4), ("leg", 4), ("wing", 2), ("tail", 1))
BODY_BY_TYPE: dict[str, tuple[tuple[str, int], ...]] = {
    "humanoid": _HUMANOID_BODY,
    "giant": _HUMANOID_BODY,
    "monstrous humanoid": _HUMANOID_BODY,
    "undead": _HUMANOID_BODY,
    "outsider": _HUMANOID_BODY,
    "fey": _HUMANOID_BODY,
    "construct": _HUMANOID_BODY,
    "animal": _QUADRUPED_BODY,
    "magical beast": _QUADRUPED_BODY,
    "vermin": (("head", 1), ("eye", 2), ("leg", 6)),
    "dragon": _DRAGON_BODY,
    # oozes, plants, elementals, aberrations: no default parts ("an ooze almost never does" have arms);
    # list them in the stat block if they have some.
}
"""Default body parts by creature type (a guess at the usual body plan; override with ``body_parts``)."""
