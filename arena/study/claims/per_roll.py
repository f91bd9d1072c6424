"""Each side's odds per roll in a matchup, exactly: the chance that one attack roll hits under the standard rules,
from the stat blocks' static numbers (each creature's first attack against each foe's AC), before any fight.

Why a module of its own: "the stronger side" of the bell-curve claim is defined by these odds (issue 26: the side
whose attacks need lower rolls, so 3d6's many average rolls help it), and the definition must be fixed and computable
without the fights it judges.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from arena.world.creatures import Creature


def first_attack_bonus(creature: Creature) -> int | None:
    """The bonus of the creature's first attack (its single-attack option, else its full attack); None without an
    attack roll (a creature that fights only with spells or special attacks)."""
    for routines in (creature.attack, creature.full_attack):
        for routine in routines or ():
            for attack in routine:
                if attack.bonuses:
                    return int(attack.bonuses[0])
    return None


def hit_chance(bonus: int, ac: int, side: str) -> Fraction:
    """The exact chance that an attack of ``bonus`` hits ``ac`` under the standard d20 rules."""
    from arena.rules import Check, RuleSet, exact

    return exact(Check("attack", side, bonus, ac), RuleSet()).probabilities["success"]


@lru_cache(maxsize=1024)
def per_roll_odds(level: int, monster: str) -> tuple[float, float] | None:
    """(the party's, the monsters') mean chance per attack roll of hitting, under the standard d20 rules: each PC's
    first attack against the monster's AC, and the monster's first attack against each PC's AC, averaged over the
    PCs. The generated party of the study (the d20 domain list, as every dice comparison fights it). None when a
    side has no attack roll."""
    from arena.world.bestiary import get_creature
    from arena.world.party import generate_party

    party = generate_party(level, "d20", domain_spells="standard")
    foe = get_creature(monster)
    theirs = first_attack_bonus(foe)
    ours = [b for pc in party if (b := first_attack_bonus(pc)) is not None]
    if theirs is None or not ours:
        return None
    party_p = sum(hit_chance(b, foe.ac, "pc") for b in ours) / len(ours)
    monster_p = sum(hit_chance(theirs, pc.ac, "monster") for pc in party) / len(party)
    return float(party_p), float(monster_p)
