"""The study's factor design, written down before any fight: which matchups each question fights, and why.

Factors (issue 16): party level, the monster's CR relative to the party, group size, the monster population and
the fight model's options. A *cell* is (party level, monster CR, group size); a matchup is a cell with one
monster of a population. The selection rules:

* :func:`judging_cells`: where the encounter claims are judged: party levels :data:`LEVELS`, groups of 1, 2 and
  4, at an Encounter Level from the party level to four above (``EL - L`` in :data:`JUDGE_EL`): the DMG's
  "challenging" to "very difficult" range the documents speak of, judged with measures that still vary there
  (hit points lost, PCs dropped, deaths), not only the win rate. Monster CRs from 1/2 up (:data:`CLAIMS_LOWEST`).
* :func:`low_cells`: "low-CR monsters encountered in groups": groups of 4, 6, 8 of CR L-4 (at least 1/2).
* :func:`grid_cells`: the calibration grid: every level of :data:`GRID_LEVELS` (:data:`LEVELS` and the held-out
  levels 2, 7, 10, 14) x size of :data:`SIZES` x EL offset of
  :data:`GRID_EL`, so the monster's CR relative to the party runs from far below (a group of 8 at EL L-2 is CR
  L-8) to above (one monster at EL L+4), and group size and CR gap are crossed rather than tied to one EL. Its CRs
  reach down to 1/8 (:data:`LOWEST_RUNG`), so levels 1 and 3 have groups of CR 1/8-1/3, the low-CR groups of the
  bell-curve document (its goblin moved from 1/2 to 1/3).
* :func:`anchor_cells`: the DMG anchor: EL = party level, one monster of CR L and four of CR L-4 (at least 1/2).

**The ladder**: positions are the steps of :func:`arena.world.challenge.cr_rank`: 1/8, 1/6, 1/4, 1/3 are -4 to
-1, 1/2 is 0, CR n is n. Here an Encounter Level is a position plus the DMG group offset, which chooses the
cells: the grid is read by CR gap (position - L) and group size. Below CR 1 the DMG adds CRs instead
(:func:`arena.world.challenge.group_el`: four CR 1/3 are EL 1, not 3), so only the grid fights the rungs below
1/2 (:data:`CLAIMS_LOWEST`): the anchor, which checks the DMG's EL = L, would fight EL 1 against level 3 there,
and the encounter claims keep the cells the study published.

Populations: ``typical`` (the SRD-medians monster of the CR) and ``srd`` (SRD 3.5 creatures of that CR that the
engine models fully: all of them, or a seeded random sample of :data:`SRD_PER_CR`, :func:`srd_monsters`; a CR with
none is skipped and the report says so). As the engine models more abilities, more creatures
become ``full`` and a re-run fights them.

The fight model: every dice comparison fights the same party with the same spells (:data:`BASE_MODEL`: the d20
domain list under every die); the document's Luck-domain spells are a separate arm. Robustness re-runs each
encounter claim under :data:`VARIATIONS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from arena.combat.model import ModelOptions
from arena.study.runs.matchups import Matchup

LEVELS = (1, 3, 5, 8, 12, 16)
GRID_LEVELS = (1, 2, 3, 5, 7, 8, 10, 12, 14, 16)
"""The calibration grid's party levels: :data:`LEVELS` and the levels held out of its fit, 2, 7, 10 and 14
(:data:`arena.study.calibration.holdout.HELD_OUT_LEVELS`), fought so the fitted rule is judged where it was not
fitted."""
SIZES = (1, 2, 3, 4, 6, 8)
JUDGE_SIZES = (1, 2, 4)
JUDGE_EL = (0, 2, 4)
LOW_SIZES = (4, 6, 8)
GRID_EL = (-2, 0, 2, 4)
SRD_PER_CR = 8
"""The SRD population of a CR: every fully modelled creature, or a seeded random sample of eight
(:func:`srd_monsters`), weighted equally (issue 26: two per CR chosen by name let one creature decide a verdict)."""
CLAIMS_SRD_PER_CR = 2
"""The encounter claims' SRD re-run (:data:`POPULATION_VARIATION`) fights two of those eight (the first two of the
same seeded sample): a robustness check of each claim, at a quarter of the cost."""
SRD_SAMPLE_SEED = 20261202
BASE_MODEL = ModelOptions(domain_spells="standard")
"""Dice comparisons: the same party and spells under every die (the Luck domain's changes are their own arm)."""
VARIATIONS: dict[str, dict[str, str]] = {
    "flanking=any-melee-ally": {"flanking": "any-melee-ally"},
    "back_line=reachable": {"back_line": "reachable"},
    "pc_hit_points=rounded-up": {"pc_hit_points": "rounded-up"},
    "helpless_ac=flat-footed": {"helpless_ac": "flat-footed"},
}
"""The fight model's contested choices each claim is evaluated under again (the other value of each option)."""
POPULATION_VARIATION = "population=srd"

Cell = tuple[int, Fraction, int]
"""(party level, monster CR, group size)."""

LOWEST_RUNG, HIGHEST_RUNG = -4, 20
"""The ladder's ends: CR 1/8 (position -4) and CR 20, the typical monsters of the SRD-medians table."""
CLAIMS_LOWEST = 0
"""The lowest position (CR 1/2) of every selection but the grid's (module docstring, "The ladder")."""


def position_cr(position: int) -> Fraction | None:
    """The CR at a ladder position (-4 -> 1/8, -1 -> 1/3, 0 -> 1/2, 1 -> 1, ...); None off the ladder (below 1/8,
    above 20)."""
    from arena.world.challenge import rank_cr

    if position < LOWEST_RUNG or position > HIGHEST_RUNG:
        return None
    return rank_cr(position)


def rung_cr(position: int) -> Fraction:
    """The CR of a rung of the ladder (-4 -> 1/8, 0 -> 1/2, 1 -> 1, ... 20); a position off the ladder is an
    error."""
    cr = position_cr(position)
    if cr is None:
        raise ValueError(f"no rung of the CR ladder at position {position} ({LOWEST_RUNG} to {HIGHEST_RUNG})")
    return cr


def cr_for_el(level: int, size: int, el_offset: int, lowest: int = LOWEST_RUNG) -> Fraction | None:
    """The CR whose group of ``size`` has EL ``level + el_offset`` (DMG group offsets), or None off the ladder or
    below position ``lowest``."""
    from arena.world.challenge import group_size_offset

    position = level + el_offset - group_size_offset(size)
    return position_cr(position) if position >= lowest else None


def _unique(cells: list[Cell]) -> tuple[Cell, ...]:
    return tuple(dict.fromkeys(cells))


def judging_cells(
    levels: Sequence[int] = LEVELS, sizes: Sequence[int] = JUDGE_SIZES, offsets: Sequence[int] = JUDGE_EL
) -> tuple[Cell, ...]:
    return _unique(
        [
            (lv, cr, s)
            for lv in levels
            for s in sizes
            for off in offsets
            if (cr := cr_for_el(lv, s, off, CLAIMS_LOWEST)) is not None
        ]
    )


def low_cells(levels: Sequence[int] = LEVELS, sizes: Sequence[int] = LOW_SIZES) -> tuple[Cell, ...]:
    return _unique([(lv, rung_cr(max(CLAIMS_LOWEST, lv - 4)), s) for lv in levels for s in sizes])


def grid_cells(
    levels: Sequence[int] = GRID_LEVELS, sizes: Sequence[int] = SIZES, offsets: Sequence[int] = GRID_EL
) -> tuple[Cell, ...]:
    return _unique(
        [(lv, cr, s) for lv in levels for s in sizes for off in offsets if (cr := cr_for_el(lv, s, off)) is not None]
    )


def anchor_cells(levels: Sequence[int] = LEVELS) -> tuple[Cell, ...]:
    out: list[Cell] = []
    for lv in levels:
        out.append((lv, Fraction(lv), 1))
        if (cr := cr_for_el(lv, 4, 0, CLAIMS_LOWEST)) is not None:
            out.append((lv, cr, 4))
    return _unique(out)


def typical(cr: Fraction) -> str:
    from arena.world.challenge import format_cr

    return f"typical-cr{format_cr(cr)}"


@lru_cache(maxsize=512)
def srd_population(cr: Fraction) -> tuple[str, ...]:
    """Every fully modelled SRD creature of CR ``cr`` whose stat block loads, in name order (``srd/<name>``)."""
    from arena.errors import ArenaError
    from arena.world.bestiary import get_creature
    from arena.world.challenge import format_cr
    from arena.world.srd_bestiary import select, srd_rows

    names = []
    for r in sorted(select(srd_rows(), cr=format_cr(cr), modelled="full"), key=lambda r: r.name):
        try:  # a creature whose stat block does not load (the bestiary being mended) is left out
            get_creature(f"srd/{r.name}")
        except ArenaError:
            continue
        names.append(f"srd/{r.name}")
    return tuple(names)


@lru_cache(maxsize=512)
def srd_monsters(cr: Fraction, k: int = SRD_PER_CR) -> tuple[str, ...]:
    """The SRD population of CR ``cr`` as the study samples it: every fully modelled creature when there are at
    most ``k``, else a random sample of ``k`` (seed :data:`SRD_SAMPLE_SEED` and the CR's ladder position, so the
    sample is recorded and a smaller ``k`` is a subset of a larger one), in name order."""
    import numpy as np

    from arena.world.challenge import cr_rank

    names = srd_population(cr)
    if len(names) <= k:
        return names
    order = np.random.default_rng([SRD_SAMPLE_SEED, int(cr_rank(cr)) + 10]).permutation(len(names))
    return tuple(sorted(names[i] for i in order[:k]))


def monsters(cr: Fraction, population: str, k: int = SRD_PER_CR) -> list[str]:
    return [typical(cr)] if population == "typical" else list(srd_monsters(cr, k))


def model_for(variation: str | None) -> ModelOptions:
    if variation is None or variation == POPULATION_VARIATION:
        return BASE_MODEL
    return BASE_MODEL.model_copy(update=VARIATIONS[variation])


@dataclass(frozen=True)
class Arm:
    """One way of fighting a matchup: a rule set, the party's tactics, a bonus, model changes."""

    rules: str
    attack_bonus: int = 0
    party_press: str = "never"
    party_called: str = "never"
    model: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        extra = "".join(
            [
                f"+atk{self.attack_bonus}" if self.attack_bonus else "",
                f"/press-{self.party_press}" if self.party_press != "never" else "",
                f"/called-{self.party_called}" if self.party_called != "never" else "",
                "".join(f"/{k}={v}" for k, v in self.model),
            ]
        )
        return self.rules + extra


def matchup(cell: Cell, monster: str, arm: Arm, n: int, seed: int, variation: str | None) -> Matchup:
    level, _cr, size = cell
    model = model_for(variation)
    if arm.model:
        model = model.model_copy(update=dict(arm.model))
    return Matchup(
        level,
        monster,
        size,
        (arm.rules,),
        n,
        seed,
        attack_bonus=arm.attack_bonus,
        party_press=arm.party_press,
        party_called=arm.party_called,
        model=model,
    )
