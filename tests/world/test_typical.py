"""Typical monsters built from Pathfinder Table 1-1 "Monster Statistics by CR" (the ``pathfinder`` table; the
default SRD-medians table is tests/world/test_typical_srd.py)."""

import math
from fractions import Fraction

import pytest

from arena.dice import parse
from arena.errors import ArenaError
from arena.world.typical import (
    _claw_damages,
    parse_typical_name,
    table_crs,
    typical_creature,
    typical_names,
    typical_stats,
)

# Spot checks transcribed from the PRD table: cr -> (hp, ac, high attack, avg damage high, good, poor save)
ROWS = {
    "1/2": (10, 11, 1, 4, 3, 0),
    "1": (15, 12, 2, 7, 4, 1),
    "5": (55, 18, 10, 20, 8, 4),
    "10": (130, 24, 18, 45, 13, 9),
    "15": (220, 30, 24, 70, 18, 13),
    "20": (370, 36, 30, 120, 22, 17),
}


def test_table_covers_half_and_one_to_twenty():
    assert table_crs() == [Fraction(1, 2), *map(Fraction, range(1, 21))]
    # the names are the default table's, which reaches below 1/2 (tests/world/test_typical_ladder.py)
    assert typical_names()[4] == "typical-cr1/2" and typical_names()[-1] == "typical-cr20"
    s = typical_stats(5)
    assert (s.primary_dc, s.secondary_dc, s.low_attack, s.avg_damage_low) == (15, 11, 7, 15)


@pytest.mark.parametrize("cr", list(ROWS))
def test_typical_creature_matches_table(cr):
    hp, ac, attack, damage, good, poor = ROWS[cr]
    c = typical_creature(cr, "pathfinder")
    assert c.name == f"typical-cr{cr}" and c.cr == Fraction(cr)
    assert (c.hp, c.ac, c.touch_ac, c.flat_footed_ac) == (hp, ac, 10, ac)
    assert math.floor(parse(c.hit_dice).mean) == hp and c.first_hit_die == 10
    assert (c.saves.fort, c.saves.ref, c.saves.will) == (good, good, poor)
    [routine] = c.full_attack
    assert all(a.bonuses == (attack,) for a in routine)
    assert sum(parse(a.damage).mean * a.count for a in routine) == pytest.approx(damage)
    assert sum(a.count for a in routine) == 2
    assert len(c.attack) == 1 and c.attack[0][0].count == 1 and c.bab == attack == c.grapple


@pytest.mark.parametrize("total", sorted({4, 7, 10, 13, 16, 20, 25, 30, 35, 45, 55, 65, 80, 100, 110, 120}))
def test_claw_split(total):
    a, b = _claw_damages(total)
    assert parse(a).mean + parse(b).mean == pytest.approx(total)
    assert abs(parse(a).constant - parse(b).constant) <= 1
    assert parse(a).constant >= 0


def test_cr5_attacks_exactly():
    assert _claw_damages(20) == ("1d6+7", "1d6+6")
    assert _claw_damages(4) == ("1d3", "1d3")
    assert typical_creature(5, "pathfinder").hit_dice == "6d10+22"


def test_names():
    assert parse_typical_name("typical-cr5") == 5
    assert parse_typical_name("typical-cr1/2") == Fraction(1, 2)
    assert parse_typical_name("typical-cr0.5") == Fraction(1, 2)
    assert parse_typical_name("troll") is None
    assert typical_creature("0.5").name == "typical-cr1/2"
    with pytest.raises(ArenaError):
        parse_typical_name("typical-crX")


@pytest.mark.parametrize("cr", ["1/3", 21, "1/4", "1/10"])
def test_cr_outside_table(cr):
    with pytest.raises(ArenaError, match="the Pathfinder table covers CR 1/2 and 1-20"):
        typical_creature(cr, "pathfinder")
