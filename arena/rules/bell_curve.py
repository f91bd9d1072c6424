"""Unearthed Arcana's bell curve (seed 000): 3d6 replaces every d20.

Automatic success on a natural 18 and failure on a natural 3 (attacks and saves); threat ranges convert by the
document's table; taking 10 is unchanged, taking 20 is replaced by taking 16 (ten times as long) and taking 18
(a hundred times as long); the Luck domain's reroll and the auspicious odds spells roll 4d6 and drop the lowest.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.errors import RulesError

DICE = "3d6"
"""The bell-curve resolution roll."""
NATURAL_HIGH = 18
"""Automatic success (attack rolls and saves) on a natural 18."""
NATURAL_LOW = 3
"""Automatic failure on a natural 3."""
THREAT_RANGE_CONVERSION = {20: 16, 19: 15, 18: 14, 17: 14, 15: 13}
"""Table: Threat Range Conversion, keyed by the lowest natural of the final d20 threat range:
20 -> 16-18, 19-20 -> 15-18, 18-20 -> 14-18, 17-20 -> 14-18, 15-20 -> 13-18. There is no 16-20 row
(``RuleOptions.bell_threat_16_20`` decides it)."""
TAKE_OPTIONS = (10, 16, 18)
"""Take 10 (unchanged), 16 or 18; no taking 20."""
TAKE_TIME_MULTIPLIER = {16: 10, 18: 100}
"""Taking 16 takes ten times as long (1 minute for a standard-action check), taking 18 a hundred times (10 minutes)."""
LUCK_DICE = "4d6kh3"
"""The Luck domain reroll and auspicious odds: roll 4d6 and drop the lowest die."""
LUCK_SPELL_ENDS_NATURAL = 3
"""Auspicious odds ends when all four dice are 1s: with the lowest dropped, exactly a natural 3."""


@dataclass(frozen=True)
class LuckSpell:
    """A Luck-domain spell the bell curve adds, with the numbers the document gives."""

    name: str
    level: int
    replaces: str
    range: str
    target: str
    duration: str


AUSPICIOUS_ODDS = LuckSpell(
    "auspicious odds", 3, "protection from energy", "touch", "creature touched", "1 minute/level"
)
MASS_AUSPICIOUS_ODDS = LuckSpell(
    "mass auspicious odds",
    5,
    "break enchantment",
    "close (25 ft. + 5 ft./2 levels)",
    "one creature/three levels, no two more than 30 ft. apart",
    "1 round/level",
)
AUSPICIOUS_KINDS = frozenset({"attack", "save", "ability", "skill", "initiative"})
"""The rolls the spell names: attack rolls, saving throws, ability and skill checks (initiative is a Dexterity
check)."""


def threat_low(d20_low: int, range_16_20: int) -> int:
    """The lowest 3d6 natural that threatens, for a final d20 threat range ``d20_low``-20."""
    if d20_low == 16:
        return range_16_20
    try:
        return THREAT_RANGE_CONVERSION[d20_low]
    except KeyError:
        raise RulesError(
            f"threat range {d20_low}-20 has no bell-curve conversion (the table covers 20, 19-20, 18-20, "
            "17-20 and 15-20)"
        ) from None
