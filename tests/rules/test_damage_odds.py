"""Exact damage distributions (arena.rules.damage_odds): small cases worked by hand, a routine against brute-force
enumeration of every die, the chance to drop a foe against enumeration of every sequence of rounds, and the mean
against the expected damage `arena odds attack --damage` already gives, under every single-roll rule set."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from arena.dice import parse
from arena.errors import ArenaError, RulesError
from arena.rules import Check, RuleSet, odds
from arena.rules.damage_odds import (
    Blow,
    Dist,
    HitOdds,
    attack_damage,
    drop_chances,
    hit_damage,
    hit_odds,
    mixture,
    parse_rider,
    routine_damage,
    routine_odds,
)

D20 = RuleSet()
# +0 against AC 11 under the d20: naturals 11-20 hit (1/2); 19-20 threaten (2/20) and confirm on 11+ (1/2): 1/20.
HALF = Check("attack", "pc", 0, 11, 0, 19, 2)


def as_dict(dist: Dist) -> dict[int, F]:
    return {v: dist.p(v) for v in dist.support()}


def test_the_attack_roll_odds_come_from_the_kernel():
    assert hit_odds(HALF, D20) == HitOdds(F(1, 2), F(1, 20), False, "pc")


def test_one_attack_by_hand_a_critical_doubles_the_weapon():
    # miss 1/2; a plain hit 9/20 deals 2..5 (9/80 each); a critical 1/20 deals two rolls of 1d4+1 summed:
    # 4..10 with counts 1,2,3,4,3,2,1 of 16, so 1/320 per count.
    got = as_dict(attack_damage(hit_odds(HALF, D20), Blow(parse("1d4+1"))))
    assert got == {
        0: F(1, 2),
        2: F(36, 320),
        3: F(36, 320),
        4: F(37, 320),
        5: F(38, 320),
        6: F(3, 320),
        7: F(4, 320),
        8: F(3, 320),
        9: F(2, 320),
        10: F(1, 320),
    }


def test_a_rider_is_not_multiplied_by_a_critical():
    blow = Blow(parse("1d4+1"), riders=(parse_rider("+1d6 fire"),))
    dist = attack_damage(hit_odds(HALF, D20), blow)
    # the most: a critical (1/20) with both weapon rolls at 5 (1/16) and the fire at 6 (1/6): 10 + 6, not 10 + 12
    assert dist.high == 16 and dist.p(16) == F(1, 20 * 16 * 6)
    # mean: plain hits 9/20 x (3.5 + 3.5), criticals 1/20 x (7 + 3.5); a doubled rider would make it 77/20
    assert dist.mean() == F(9, 20) * 7 + F(1, 20) * F(21, 2) == F(147, 40)


def test_damage_reduction_stops_physical_damage_never_energy():
    # DR 10 takes all of a 1d4+1 hit, even a critical's 10: only the fire is left, 1d6 on every hit
    blow = Blow(parse("1d4+1"), riders=(parse_rider("1d6 fire"),), reduction=10)
    assert as_dict(hit_damage(blow, False)) == {v: F(1, 6) for v in range(1, 7)}
    assert as_dict(hit_damage(blow, True)) == {v: F(1, 6) for v in range(1, 7)}
    # DR 2 against 1d4+1 (2..5): 0..3, each 1/4; a physical rider (a sneak attack's 1d6) is reduced with it
    assert as_dict(hit_damage(Blow(parse("1d4+1"), reduction=2), False)) == {v: F(1, 4) for v in range(4)}
    # 2..5 + 1..6 = 3..11 with counts 1,2,3,4,4,4,3,2,1 of 24, less 8, floored at 0
    sneak = hit_damage(Blow(parse("1d4+1"), riders=(parse_rider("1d6 sneak"),), reduction=8), False)
    assert as_dict(sneak) == {0: F(18, 24), 1: F(3, 24), 2: F(2, 24), 3: F(1, 24)}


def test_a_hit_deals_at_least_one_before_damage_reduction():
    # 1d4-3 totals -2..1: every hit deals 1; a critical's two rolls sum to -4..2: 2 only when both show 4 (1/16)
    assert as_dict(hit_damage(Blow(parse("1d4-3")), False)) == {1: F(1)}
    assert as_dict(hit_damage(Blow(parse("1d4-3")), True)) == {1: F(15, 16), 2: F(1, 16)}
    # the minimum is the weapon's, before DR 1: a plain hit then deals nothing
    assert as_dict(hit_damage(Blow(parse("1d4-3"), reduction=1), False)) == {0: F(1)}


def test_the_hand_case_with_everything():
    """1d4+1, hit 1/2, 19-20/x2, DR 2, concealment 50%, +1d6 fire, worked out by hand."""
    blow = Blow(parse("1d4+1"), 2, (parse_rider("+1d6 fire"),), 2, F(1, 2))
    got = as_dict(attack_damage(hit_odds(HALF, D20), blow))
    # Nothing: a miss (1/2) or a hit lost to concealment (1/2 x 1/2): 3/4. Criticals lost to it deal nothing too.
    # A plain hit that lands (9/20 x 1/2 = 9/40): max(1d4+1 - 2, 0) is 0..3 (1/4 each), plus 1d6: 1..9 with
    # counts 1,2,3,4,4,4,3,2,1 of 24.
    plain = {1: 1, 2: 2, 3: 3, 4: 4, 5: 4, 6: 4, 7: 3, 8: 2, 9: 1}
    # A critical that lands (1/20 x 1/2 = 1/40): 2(1d4+1) is 4..10 (counts 1,2,3,4,3,2,1 of 16), less 2: 2..8;
    # plus 1d6: 3..14, counts of 96 by adding six shifted copies of 1,2,3,4,3,2,1.
    crit_counts: dict[int, int] = defaultdict(int)
    for base, count in zip(range(2, 9), (1, 2, 3, 4, 3, 2, 1), strict=True):
        for fire in range(1, 7):
            crit_counts[base + fire] += count
    assert dict(crit_counts) == {3: 1, 4: 3, 5: 6, 6: 10, 7: 13, 8: 15, 9: 15, 10: 13, 11: 10, 12: 6, 13: 3, 14: 1}
    expected = {0: F(3, 4)}
    for v, c in plain.items():
        expected[v] = expected.get(v, F(0)) + F(9, 40) * F(c, 24)
    for v, c in crit_counts.items():
        expected[v] = expected.get(v, F(0)) + F(1, 40) * F(c, 96)
    assert got == expected
    assert got[1] == F(3, 320) and got[14] == F(1, 3840)  # two cells as the table prints them (--exact)


# --------------------------------------------------------------------------------------------- brute force
def brute_attack(bonus: int, ac: int, threat: int, mult: int, weapon: int, rider: int, dr: int, conceal: int):
    """Every die of one d20 attack enumerated: the attack roll, the confirmation roll, the concealment roll (d100 in
    steps of 10), the weapon's d``weapon`` rolled ``mult`` times and a d``rider`` of fire. {damage: probability}."""
    counts: dict[int, int] = defaultdict(int)  # equally likely paths through every die, counted
    weapons = list(itertools.product(range(1, weapon + 1), repeat=mult))
    for nat, confirm, miss_roll in itertools.product(range(1, 21), range(1, 21), range(10)):
        hit = nat == 20 or (nat != 1 and nat + bonus >= ac)
        landed = hit and miss_roll * 10 >= conceal
        critical = hit and nat >= threat and (confirm == 20 or (confirm != 1 and confirm + bonus >= ac))
        if not landed:
            counts[0] += len(weapons) * rider
            continue
        for rolls in weapons:
            physical = max(sum(rolls if critical else rolls[:1]), 1)
            for fire in range(1, rider + 1):
                counts[max(physical - dr, 0) + fire] += 1
    paths = 20 * 20 * 10 * len(weapons) * rider
    return {v: F(c, paths) for v, c in counts.items()}


def naive_sum(dists: list[dict[int, F]]) -> dict[int, F]:
    """Independent totals added by visiting every combination."""
    out: dict[int, F] = defaultdict(F)
    for combo in itertools.product(*(d.items() for d in dists)):
        p = F(1)
        for _, q in combo:
            p *= q
        out[sum(v for v, _ in combo)] += p
    return dict(out)


def test_a_routine_is_the_convolution_of_its_attacks_checked_by_brute_force():
    blow = Blow(parse("1d3"), 3, (parse_rider("1d2 fire"),), 1, F(1, 5))
    routine = [5, 0, -5]
    checks = [Check("attack", "pc", b, 14, 0, 19, 3) for b in routine]
    each = [brute_attack(b, 14, 19, 3, 3, 2, 1, 20) for b in routine]
    for check, brute in zip(checks, each, strict=True):
        assert as_dict(attack_damage(hit_odds(check, D20), blow)) == brute
    result = routine_odds(checks, D20, blow)
    assert as_dict(result.damage) == naive_sum(each)
    assert sum(result.damage.p(v) for v in result.damage.support()) == 1


def test_drop_within_k_rounds_against_every_sequence_of_rounds():
    blow = Blow(parse("1d4+1"), 2, (parse_rider("1d2 fire"),), 1, F(1, 5))
    checks = [Check("attack", "pc", b, 13, 0, 19, 2) for b in (4, -1)]
    result = routine_odds(checks, D20, blow, hp=13, rounds=3)
    one = as_dict(result.damage)
    for k in (1, 2, 3):
        direct = sum(
            (F(1) * _product(one[v] for v in seq) for seq in itertools.product(one, repeat=k) if sum(seq) >= 13),
            F(0),
        )
        assert result.drop[k - 1] == direct
    assert result.drop[0] < result.drop[1] < result.drop[2] < 1


def _product(values):
    out = F(1)
    for v in values:
        out *= v
    return out


def test_drop_by_hand():
    # one attack, the 1d4+1 case: 1 hp drops on any hit (1/2); 11 hp only to a critical of 11 or more: none
    dist = attack_damage(hit_odds(HALF, D20), Blow(parse("1d4+1")))
    assert drop_chances(dist, 1, 2) == [F(1, 2), F(3, 4)]
    assert drop_chances(dist, 11, 1) == [F(0)]
    # 10 hp in one round: the critical of 10 (1/320); in two rounds also any pair that totals 10 or more
    two = sum((dist.p(a) * dist.p(b) for a in dist.support() for b in dist.support() if a + b >= 10), F(0))
    assert drop_chances(dist, 10, 2) == [F(1, 320), two]


@pytest.mark.parametrize("rules", odds.kernel_variants(), ids=lambda r: r.key)
def test_the_mean_is_the_expected_damage_of_arena_odds_attack(rules):
    """Without riders, DR or concealment, and a weapon that never rolls below 1, the routine's mean is what
    `arena odds attack --damage` computes from the same exact odds (hit x mean + critical x (multiplier - 1) x mean)."""
    checks = [Check("attack", "pc", b, 18, 0, 19, 3) for b in (9, 4)]
    result = routine_odds(checks, rules, Blow(parse("2d6+3"), 3))
    expected = sum(odds.expected_damage(c, rules, 10.0) for c in checks)
    assert float(result.damage.mean()) == pytest.approx(expected, rel=1e-12)
    assert sum(result.damage.p(v) for v in result.damage.support()) == 1
    for a in result.attacks:
        assert 0 <= a.critical <= a.hit <= 1


def test_a_players_roll_all_defense_check_gives_the_attackers_odds():
    monster = Check("attack", "monster", 5, 15, 0, 19, 2)
    rules = RuleSet.from_key("d20+prad")
    result = routine_odds([monster], rules, Blow(parse("1d8")))
    assert result.roller == "pc" and result.attacks[0].hit == odds.exact(monster, rules)["success"]


def test_dist_building_blocks():
    assert mixture([(F(1, 2), Dist.point(3)), (F(1, 2), Dist.point(5))]) == Dist(3, (1, 0, 1), 2)
    assert Dist.of_dice(parse("2d2")).plus(Dist.point(1)) == Dist(3, (1, 2, 1), 4)
    assert mixture([(F(1, 3), Dist.point(0)), (F(2, 3), Dist.point(2))]).at_least(1) == F(2, 3)
    assert Dist.of_dice(parse("1d6")).plus(Dist.of_dice(parse("1d6")), cap=4).p(4) == F(33, 36)
    assert routine_damage([]) == Dist.point(0)


def test_riders_and_limits_are_refused_with_a_message():
    assert str(parse_rider(" +2d6   Fire ")) == "+2d6 fire" and parse_rider("1d4").energy is False
    for bad, words in (
        ("1d6 poison", "none of acid"),
        ("1d6 fire hot", "optional type"),
        ("1d4-3", "below 0"),
        ("", "optional type"),
    ):
        with pytest.raises(ArenaError, match=words):
            parse_rider(bad)
    with pytest.raises(RulesError, match="at least 1"):
        drop_chances(Dist.point(3), 0, 1)
    wide = Dist(0, (1,) * 3000, 3000)  # refused before any product is taken
    with pytest.raises(ArenaError, match="combinations are tabulated exactly"):
        wide.plus(wide)
    with pytest.raises(ArenaError, match="fewer rounds or hit points"):
        drop_chances(Dist(0, (1,) * 1001, 1001), 1000, 20)
