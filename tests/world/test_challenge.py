"""CR / EL / XP / band arithmetic (arena.world.challenge)."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.errors import ArenaError
from arena.world.challenge import (
    FRACTIONAL_CR_LADDER,
    bell_curve_cr,
    cr_rank,
    difficulty_band,
    effective_crs,
    encounter_level,
    format_cr,
    group_el,
    group_size_offset,
    pair_el,
    parse_cr,
    party_xp_for_creature,
    step_down,
    xp_per_pc,
)


# --------------------------------------------------------------------------------------------- CR text
@pytest.mark.parametrize("text, value", [("5", F(5)), ("1/3", F(1, 3)), (" 1/10 ", F(1, 10)), ("20", F(20))])
def test_parse_and_format_round_trip(text, value):
    assert parse_cr(text) == value
    assert format_cr(value) == text.strip()


@pytest.mark.parametrize("bad", ["0", "-1", "1/5", "2/3", "x", "", "1/0", "3/2", True])
def test_parse_rejects_non_crs(bad):
    with pytest.raises(ArenaError):
        parse_cr(bad)


def test_ladder_and_ranks():
    assert [format_cr(c) for c in FRACTIONAL_CR_LADDER] == ["1", "1/2", "1/3", "1/4", "1/6", "1/8", "1/10"]
    assert [cr_rank(c) for c in FRACTIONAL_CR_LADDER] == [1, 0, -1, -2, -3, -4, -5]
    assert cr_rank(F(7)) == 7


def test_step_down_ladder():
    stepped = [format_cr(step_down(c)) for c in FRACTIONAL_CR_LADDER]
    assert stepped == ["1/2", "1/3", "1/4", "1/6", "1/8", "1/10", "1/10"]
    assert step_down(F(5)) == 4
    assert step_down(F(1), cr1_to_half=False) == 1


# --------------------------------------------------------------------------------------------- EL tables
@pytest.mark.parametrize(
    "count, offset",
    [
        (1, 0),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 5),
        (7, 6),
        (9, 6),
        (10, 7),
        (12, 7),
        # doubling beyond the table: 13-18 is a doubled 7-9 (+8), 19-24 a doubled 10-12 (+9), 25-36 (+10)
        (13, 8),
        (18, 8),
        (19, 9),
        (24, 9),
        (25, 10),
        (36, 10),
        (37, 11),
    ],
)
def test_group_size_offsets(count, offset):
    assert group_size_offset(count) == offset


@given(st.integers(min_value=7, max_value=5000))
def test_doubling_adds_two(n):
    assert group_size_offset(2 * n) == group_size_offset(n) + 2


@pytest.mark.parametrize("cr", [2, 5, 9, 15])
def test_same_cr_groups_of_two_or_more(cr):
    assert [group_el(F(cr), n) for n in (1, 2, 3, 4, 6, 9, 12)] == [cr + o for o in (0, 2, 3, 4, 5, 6, 7)]


# Cells of the DMG grid as transcribed in the reference (low-medium confidence for fractional cells): (EL, count, CR).
GRID_CELLS = [
    (1, 2, "1/2"),
    (1, 3, "1/3"),
    (1, 4, "1/4"),
    (1, 5, "1/6"),
    (1, 6, "1/6"),
    (1, 8, "1/8"),
    (2, 2, "1"),
    (2, 3, "1/2"),
    (2, 4, "1/2"),
    (2, 6, "1/3"),
    (2, 8, "1/4"),
    (2, 12, "1/6"),
    (3, 3, "1"),
    (3, 5, "1/2"),
    (3, 12, "1/4"),
    (4, 4, "1"),
    (4, 8, "1/2"),
    (4, 2, "2"),
    (5, 6, "1"),
    (5, 12, "1/2"),
    (5, 3, "2"),
    (6, 8, "1"),
    (6, 4, "2"),
    (8, 9, "2"),
    (9, 12, "2"),
    (10, 4, "6"),
    (10, 12, "3"),
]


@pytest.mark.parametrize("el, count, cr", GRID_CELLS)
def test_dmg_grid_cells(el, count, cr):
    assert group_el(parse_cr(cr), count) == el


def test_fractional_crs_add_linearly():
    assert group_el(F(1, 2), 2) == 1  # two CR 1/2 count as one CR 1
    assert group_el(F(1, 3), 3) == 1
    assert group_el(F(1, 6), 2) == F(1, 3)  # stays on the ladder below 1
    assert group_el(F(1, 3), 1) == F(1, 3)
    assert encounter_level([(F(1, 2), 1), (F(1, 3), 1)]) == 1  # DMG pair column: 1/2 + 1/3 = EL 1
    assert encounter_level([(F(1), 1), (F(1, 2), 1)]) == 2  # DMG pair column: 1 + 1/2 = EL 2


# --------------------------------------------------------------------------------------------- mixed groups
@pytest.mark.parametrize("el", range(4, 21))
def test_pair_column_x_plus_x_minus_2(el):
    assert encounter_level([(F(el - 1), 1), (F(el - 3), 1)]) == el


def test_worked_pairing_example():
    # Two ogres (CR 3) = EL 5; + a troll (CR 5) -> EL 7; + a hill giant (CR 7) -> EL 9.
    assert encounter_level([(F(3), 2)]) == 5
    assert encounter_level([(F(3), 2), (F(5), 1)]) == 7
    assert encounter_level([(F(3), 2), (F(5), 1), (F(7), 1)]) == 9


def test_weak_creatures_barely_change_el():
    assert encounter_level([(F(4), 1), (F(10), 1)]) == 10
    assert encounter_level([(F(4), 6), (F(12), 1)]) == 12  # six CR 4 are not enough ...
    assert encounter_level([(F(4), 8), (F(12), 1)]) == 13  # ... eight add +1
    assert pair_el(F(5), F(1, 2)) == 5
    assert pair_el(F(2), F(1, 2)) == 3  # 1/2 sits at 0 on the whole-number scale: gap 2


def test_pairing_is_order_independent():
    groups = [(F(3), 2), (F(5), 1), (F(7), 1), (F(1, 3), 4)]
    assert encounter_level(groups) == encounter_level(list(reversed(groups)))


def test_empty_encounter_is_an_error():
    with pytest.raises(ArenaError):
        encounter_level([])


# --------------------------------------------------------------------------------------------- bell curve
def test_troll_example_from_the_bell_curve_text():
    assert encounter_level(zip(effective_crs([(F(5), 1)], die="3d6"), [1], strict=True)) == 5
    two = effective_crs([(F(5), 2)], die="3d6")
    assert two == [5] and encounter_level(zip(two, [2], strict=True)) == 7
    four = effective_crs([(F(5), 4)], die="3d6")
    assert four == [4] and encounter_level(zip(four, [4], strict=True)) == 8
    # under d20 nothing is reduced: four trolls are EL 9
    assert effective_crs([(F(5), 4)], die="d20") == [5]
    assert encounter_level([(F(5), 4)]) == 9


def test_srd_goblin_in_a_group_of_four():
    # The text's example calls the goblin CR 1/2 (-> 1/3); the SRD goblin is CR 1/3, so it goes to 1/4.
    assert effective_crs([(F(1, 3), 4)], die="3d6") == [F(1, 4)]
    assert effective_crs([(F(1, 2), 4)], die="3d6") == [F(1, 3)]
    assert effective_crs([(F(1, 3), 3)], die="3d6") == [F(1, 3)]


def test_fraction_ladder_under_the_bell_curve():
    pairs = [("1/2", "1/3"), ("1/3", "1/4"), ("1/4", "1/6"), ("1/6", "1/8"), ("1/8", "1/10")]
    for before, after in pairs:
        assert bell_curve_cr(parse_cr(before), 4) == parse_cr(after)


def test_option_cr1_to_half():
    assert effective_crs([(F(1), 4)], die="3d6") == [F(1, 2)]
    assert effective_crs([(F(1), 4)], die="3d6", cr1_to_half=False) == [F(1)]


def test_option_group_by():
    groups = [(F(1, 3), 2), (F(1), 2)]  # two goblins and two orc-like CR 1 creatures
    assert effective_crs(groups, die="3d6") == [F(1, 3), F(1)]  # default: by kind, neither group reaches four
    assert effective_crs(groups, die="3d6", group_by="encounter") == [F(1, 4), F(1, 2)]
    with pytest.raises(ArenaError):
        effective_crs(groups, die="3d6", group_by="everything")
    with pytest.raises(ArenaError):
        effective_crs(groups, die="2d10")


# --------------------------------------------------------------------------------------------- XP and bands
@pytest.mark.parametrize(
    "level, cr, xp",
    [
        (1, "1", 300),
        (3, "4", 1350),
        (2, "10", 10800),
        (4, "3", 800),
        (7, "1", 262.5),
        (8, "1", 200),
        (1, "1/2", 150),
        (1, "1/3", 100),
        (7, "1/2", 131.25),
        (9, "1", 0),
        (1, "11", 0),
        (20, "20", 6000),
        (12, "19", 43200),
        (20, "12", 0),
    ],
)
def test_xp_table_cells(level, cr, xp):
    assert party_xp_for_creature(level, parse_cr(cr)) == pytest.approx(xp)


def test_xp_per_pc_divides_among_the_party():
    # Four trolls at party level 5: 4 x 1500 / 4 PCs.
    assert xp_per_pc(5, [(F(5), 4)]) == 1500
    assert xp_per_pc(5, [(F(5), 4)], party_size=5) == 1200
    assert xp_per_pc(1, [(F(1, 3), 4), (F(1), 1)]) == pytest.approx((4 * 100 + 300) / 4)


def test_xp_rejects_out_of_table():
    with pytest.raises(ArenaError):
        party_xp_for_creature(21, F(5))
    with pytest.raises(ArenaError):
        party_xp_for_creature(20, F(21))


@pytest.mark.parametrize(
    "el, level, band",
    [
        (4, 5, "easy"),
        (F(1, 3), 1, "easy"),
        (5, 5, "challenging"),
        (6, 5, "very difficult"),
        (9, 5, "very difficult"),
        (10, 5, "overpowering"),
        (20, 1, "overpowering"),
    ],
)
def test_difficulty_bands(el, level, band):
    assert difficulty_band(F(el), level) == band
