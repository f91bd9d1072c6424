"""The typical monster built from the SRD 3.5 medians by CR (arena/data/srd35_monster_medians_by_cr.yaml)."""

import statistics
from fractions import Fraction

import pytest

from arena.combat.engine import prepare
from arena.combat.model import LEGACY, ModelOptions
from arena.dice import parse
from arena.world.bestiary import get_creature
from arena.world.srd_bestiary import damage_per_round, srd_population
from arena.world.typical import (
    for_table,
    split_damage,
    srd_medians,
    table_crs,
    typical_creature,
)
from arena.world.typical_tables import FILE, attack_split, build_text, raw_rows


def test_shipped_table_is_the_bestiary_medians():
    """Recomputed from the shipped bestiary, the table is the file byte for byte."""
    assert FILE.read_text(encoding="utf-8") == build_text()


def test_unpooled_rows_are_plain_medians():
    """CR 3 (69 creatures) and CR 5 (47) are not pooled: their raw values are the plain medians, computed here
    independently of the module, and the shipped row equals them where the monotone fit does not bind."""
    pop = srd_population()
    for cr in (3, 5):
        group = [c for c in pop if c.cr == cr]
        raw = next(r for r in raw_rows(pop) if r["cr"] == str(cr))
        assert raw["creatures"] == len(group) and raw["pooled"] == str(cr)
        assert raw["hp"] == statistics.median(c.hp for c in group)
        assert raw["ac"] == statistics.median(c.ac for c in group)
        assert raw["damage_per_round"] == statistics.median(damage_per_round(c) for c in group)
        assert raw["will"] == statistics.median(c.saves.will for c in group)
    row = srd_medians(3)
    assert (row.hp, row.ac, row.attack, row.damage_per_round) == (26, 16, 6, 9.0)


def test_thin_crs_are_pooled():
    assert srd_medians(15).pooled == "14..16" and srd_medians(15).creatures >= 10
    assert srd_medians(12).pooled == "12"


@pytest.mark.parametrize("cr", table_crs())
def test_creature_matches_row(cr):
    row = srd_medians(cr)
    c = typical_creature(cr)
    assert c.name == f"typical-cr{row.cr}" and c.cr == cr
    assert (c.hp, c.ac, c.touch_ac, c.flat_footed_ac) == (row.hp, row.ac, row.touch_ac, row.flat_footed_ac)
    assert (c.saves.fort, c.saves.ref, c.saves.will) == (row.fort, row.ref, row.will)
    assert int(parse(c.hit_dice).mean) == row.hp
    # the full attack's average (every attack hits) is the table's damage per round, over its number of attacks
    assert damage_per_round(c) == pytest.approx(row.damage_per_round)
    [routine] = c.full_attack
    assert sum(a.count for a in routine) == row.attacks
    assert max(a.bonuses[0] for a in routine) == row.attack == c.bab
    split = attack_split(c)
    if split["lower"]:
        assert split["gap"] == row.lower_gap
        assert split["lower_damage"] / split["damage"] == pytest.approx(row.lower_damage_share, abs=0.02)


@pytest.mark.parametrize("total,k", [(4.5, 1), (5.0, 1), (42.5, 3), (75.0, 6), (9.0, 2), (2.0, 1)])
def test_split_damage(total, k):
    parts = split_damage(total, k)
    assert len(parts) == k and sum(parse(p).mean for p in parts) == pytest.approx(total)


def test_option_restores_the_pathfinder_creature_exactly():
    old = typical_creature(5, "pathfinder")
    assert old.hp == 55 and old.name == "typical-cr5"
    assert for_table(typical_creature(5), "pathfinder") == old
    assert for_table(typical_creature(5), "srd-medians") == typical_creature(5)
    assert for_table(get_creature("troll"), "pathfinder") == get_creature("troll")
    party = [get_creature("typical-cr1")]  # any side is fine for the compile
    for model, want in ((LEGACY, old), (ModelOptions(typical_monster="pathfinder"), old), (None, typical_creature(5))):
        enc = prepare(party, [(typical_creature(5), 1)], model=model)
        assert enc.monsters[0][0].creature == want
    assert get_creature("typical-pf-cr5").hp == 55 and get_creature("typical-pf-cr5").name == "typical-pf-cr5"
    assert LEGACY.typical_monster == "pathfinder"
    assert srd_medians(Fraction(1, 2)).cr == "1/2"
