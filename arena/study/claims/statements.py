"""The encounter claims of the documents, each stated before any number is computed: its quote and source, its
criterion, the matchups it fights (a selection rule of :mod:`arena.study.claims.design`), its arms, and its measure
(:mod:`arena.study.claims.measures`) with the direction it predicts and its practical margin.

Why a module of its own: this is the list a reader checks the study against (docs/claims.md); adding a claim is a
statement here and a measure beside the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from arena.rules.roll_claims import BELL_CURVE, PLAYERS_ROLL, PRESS_LUCK
from arena.study.claims import design
from arena.study.claims.design import Arm
from arena.study.claims.measures import (
    A20,
    A36,
    B36,
    CH20,
    CH36,
    CN20,
    CN36,
    D20,
    F10,
    PN,
    PRAD,
    PW,
    VAR,
    Data,
    Part,
    bonus_gain,
    called_gain,
    closer_to_ten,
    favourite_gain,
    long_shots,
    prad_same,
    press_gain,
    variable_spread,
)


@dataclass
class EncounterClaim:
    id: str
    source: str
    quote: str
    criterion: str
    cells: Callable[[], tuple[design.Cell, ...]]
    arms: tuple[Arm, ...]
    measure: Callable[[Data, int], tuple[list[Part], dict]]
    """(data, seed) -> (the stated parts, further numbers reported beside them)."""
    extra: dict = field(default_factory=dict)
    descriptive: bool = False
    """Reported as numbers, with no margin and no verdict (a claim that states a motive, not an effect)."""


def lucky_cells() -> tuple[design.Cell, ...]:
    """The lucky-shot claim's matchups: the low-CR groups (:func:`design.low_cells`), and for comparison ("especially
    low-CR groups") one monster of the party's level at each level (EL = L)."""
    lone = tuple(
        (lv, cr, 1) for lv in design.LEVELS if (cr := design.cr_for_el(lv, 1, 0, design.CLAIMS_LOWEST)) is not None
    )
    return design.low_cells() + lone


ENCOUNTER_CLAIMS: list[EncounterClaim] = [
    EncounterClaim(
        "bell-favours-stronger",
        BELL_CURVE,
        "Rolling 3d6 gives you a lot more average rolls, which favors the stronger side in combat.",
        "Every judging matchup (levels 1-16, groups of 1, 2, 4, EL L to L+4). The stronger side is defined per "
        "roll, before the dice are compared: the side whose attack rolls succeed more often on a natural 10 (the "
        "fixed10 arm, fought as it is: 3d6 makes a roll that needs 10 or less likelier); its per-roll advantage is "
        "the difference of the two sides' shares, in points. The favourite's win rate under 3d6 minus d20 per fight "
        "is regressed (OLS) on its centred per-roll advantage, errors clustered by matchup: the intercept, the "
        "favourite's mean gain over every matchup, is judged. Margin +2 points: supported if shown above +2, not "
        "supported if shown below. Reported: the slope, the split by which side is the favourite, the favourite by "
        "the static exact odds of the first attacks, the matchups won 100% or 0% under both dice.",
        design.judging_cells,
        (D20, B36, F10),
        favourite_gain,
    ),
    EncounterClaim(
        "bell-fewer-lucky-shots",
        BELL_CURVE,
        "Many monsters — especially low-CR monsters encountered in groups — rely heavily on a lucky shot to damage "
        "PCs. When rolling 3d6, those lucky shots are fewer and farther between.",
        "Groups of 4, 6, 8 monsters of CR L-4 (at least 1/2), levels 1-16, d20 against 3d6. A long shot is a "
        "monster hit that needed a natural a d20 makes at most 25% of the time (16+ on the attack's static "
        "numbers), or a save against a monster's spell or special attack that a PC failed although a d20 fails it "
        "at most 25% of the time (it needed 6 or less), the same definition under both dice. (1) Long shots per "
        "fight and (2) long-shot damage per fight, 3d6 / d20 over matchups, each shown below 0.8 (at least 20% "
        "fewer). (3) The premise: long shots deal at least a quarter of the groups' damage under d20 (shown above "
        "0.25). Reported: the 35% and 45% definitions beside the 25% one, and one monster of the party's level at "
        "each level (EL = L) as the comparison for 'especially low-CR groups'.",
        lucky_cells,
        (D20, B36),
        long_shots,
    ),
    EncounterClaim(
        "bell-closer-to-10",
        BELL_CURVE,
        "In a fair fight when everyone rolls a 10, the PCs should win almost every time. The bell curve variant "
        "adheres more tightly to that average.",
        "Judging matchups with every d20-type roll a natural 10 (fixed10): (1) hit points lost under 3d6 are closer "
        "to fixed10's than under d20's (|3d6 - fixed10| - |d20 - fixed10| below -1 point, over matchups); (2) in "
        "fair fights (EL = L) fixed10 wins at least 90% (shown above 90%), judged only on the fair matchups where "
        "some arm's (fixed10, 3d6, d20) win rate lies strictly between 0 and 1; where there is none, part 2 is "
        "reported as not discriminating and the claim rests on part 1.",
        design.judging_cells,
        (F10, B36, D20),
        closer_to_ten,
    ),
    EncounterClaim(
        "bell-bonuses-matter-more",
        BELL_CURVE,
        "A character's skill ranks, ability scores, and gear have a much bigger impact on success and failure than "
        "they do in the standard d20 rules.",
        "+1 to every weapon attack bonus of the party in the judging matchups: the hit points lost it saves under "
        '3d6 divided by those it saves under d20 (a ratio of matchup means, cluster bootstrap). "Much bigger": '
        "the ratio shown above 1.5.",
        design.judging_cells,
        (D20, B36, A20, A36),
        bonus_gain,
    ),
    EncounterClaim(
        "prad-same-in-fights",
        PLAYERS_ROLL,
        "This is effectively the same as rolling d20, adding your total AC, and then subtracting 10.",
        "Judging matchups, players roll all (d20+prad) against standard rolling: hit points lost and the party's "
        'win rate. "Effectively the same": both within +-2 points (shown by two one-sided tests); not supported '
        "if either is shown beyond it.",
        design.judging_cells,
        (D20, PRAD),
        prad_same,
    ),
    EncounterClaim(
        "variable-less-predictable",
        BELL_CURVE,
        "The actual modifier added to the 1d20 roll might then be any value from 1 to 8, making the final result "
        "less predictable, even though the average would remain virtually the same.",
        "Judging matchups, variable modifiers against static (d20): the spread (SD over fights) of hit points "
        'lost and of fight length, variable / static over matchups; "less predictable": both shown above 1.05.',
        design.judging_cells,
        (D20, VAR),
        variable_spread,
    ),
    EncounterClaim(
        "press-luck-pays-with-modifier",
        PRESS_LUCK,
        "At lower static modifiers it's almost not worth pressing your luck, but as the static modifier goes up, "
        "the probability for a potential pay-off for pressing your luck goes up.",
        "Under 3d6+luck in the judging matchups, the party pressing when-better against never: (1) hit points lost "
        "it saves, shown above 0.5 point; (2) the saving grows with party level (modifiers grow with level): the "
        "slope over matchups shown above 0.05 point per level.",
        design.judging_cells,
        (PN, PW),
        press_gain,
    ),
    EncounterClaim(
        "called-shots-worth-it",
        PRESS_LUCK,
        "Sometimes, despite the abstract nature of combat, you're going to want to apply damage to specific parts "
        "of the body",
        "Descriptive (the quote states a motive, not an effect: no margin, no verdict). Under d20+called and "
        "3d6+called in the judging matchups, the party calling shots at the head against never: the change in "
        "hit points lost and in win rate under each die, with intervals over matchups, and how often the called "
        "shots land.",
        design.judging_cells,
        (CN20, CH20, CN36, CH36),
        called_gain,
        descriptive=True,
    ),
]
GROUP_CR = "bell-group-cr"


def claim_ids() -> list[str]:
    from arena.rules.roll_claims import CLAIMS

    return [c.id for c in CLAIMS] + [c.id for c in ENCOUNTER_CLAIMS] + [GROUP_CR]
