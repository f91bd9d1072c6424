"""The factor design's selection rules, written before the run."""

from __future__ import annotations

from fractions import Fraction

from arena.study.claims import design
from arena.world.challenge import cr_rank, group_el


def _el(cell):
    level, cr, size = cell
    return int(cr_rank(group_el(cr, size)))


def test_judging_cells_span_el_l_to_l_plus_4():
    cells = design.judging_cells()
    assert {c[0] for c in cells} == set(design.LEVELS)
    assert all(-1 <= _el(c) - c[0] <= 5 for c in cells)


def test_grid_crosses_size_and_cr_gap():
    cells = design.grid_cells()
    gaps = {(c[2], cr_rank(c[1]) - c[0]) for c in cells}
    assert {s for s, _ in gaps} == set(design.SIZES)
    assert min(g for _, g in gaps) <= -8 and max(g for _, g in gaps) >= 3


def test_anchor_is_el_equal_to_level_and_srd_members_are_full():
    assert all(abs(_el(c) - c[0]) <= 1 for c in design.anchor_cells())
    names = design.srd_monsters(Fraction(3))
    assert 1 <= len(names) <= design.SRD_PER_CR and all(n.startswith("srd/") for n in names)


def test_dice_comparisons_fight_the_same_spells():
    assert design.BASE_MODEL.domain_spells == "standard"
    assert design.model_for("back_line=reachable").back_line == "reachable"
    assert design.model_for(design.POPULATION_VARIATION) == design.BASE_MODEL
