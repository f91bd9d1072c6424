"""The d20 core rules (SRD 3.5) that every variant starts from.

Attack rolls and saving throws: a natural 20 always succeeds and a natural 1 always fails; skill and ability
checks have no automatic results. An attack that hits with a natural in its threat range is a threat; a second
attack roll with the same modifiers that hits the same AC confirms it as a critical hit. A character may take 10,
or take 20 on a check with plenty of time and no consequence for failure.
"""

SIDES = 20
"""The standard die: 1d20."""
NATURAL_HIGH = 20
"""A natural 20 on an attack roll or saving throw always succeeds (and threatens, for attacks)."""
NATURAL_LOW = 1
"""A natural 1 on an attack roll or saving throw always fails; on a save it exposes the saver's items to damage."""
AUTOMATIC_KINDS = frozenset({"attack", "save"})
"""The rolls that have automatic successes and failures: attack rolls and saving throws, not checks."""
TAKE_OPTIONS = (10, 20)
"""Take 10, or take 20 (twenty times as long) on skill and ability checks."""
TAKE_KINDS = frozenset({"skill", "ability"})
"""Taking 10 or 20 applies to skill and ability checks only."""
