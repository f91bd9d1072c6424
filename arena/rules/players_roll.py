"""Players roll all the dice (seeds 000 and 001): the player rolls where the GM used to.

A monster's attack on a PC becomes the player's defense check, 1d20 + the AC's modifiers (AC - 10), against the
attack score 11 + the attack bonus; equal or higher misses; a natural 1 is a threat, confirmed by a second defense
check that fails. A PC's spell becomes a magic check, 1d20 + (DC - 10), against the save score 11 + the save
modifier; equal or higher affects the creature as if it failed; a natural 20 may damage its equipment. A PC with
spell resistance rolls 1d20 + SR - 10 against the caster level score 11 + caster level; equal or higher and the
spell fails. The player's own attack rolls and caster level checks are unchanged.
"""

SCORE_BASE = 11
"""Attack score, save scores and caster level score: 11 + the modifier the monster would have rolled with."""
CHECK_BASE = 10
"""Defense, magic and spell resistance checks add the target number less 10 (AC - 10, DC - 10, SR - 10)."""
CONVERTED_KINDS = {"attack": "defense", "save": "magic", "caster-level": "spell-resistance"}
"""What a monster's roll against a PC becomes when the player rolls it."""


def score(modifier: int) -> int:
    """The number a player's check must equal or beat: 11 + the monster's modifier."""
    return SCORE_BASE + modifier


def check_modifier(target: int) -> int:
    """The player's modifier on a defense, magic or spell resistance check: the AC, DC or SR less 10."""
    return target - CHECK_BASE
