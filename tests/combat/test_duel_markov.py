"""A duel computed exactly with a Markov chain over hit points, held against the engine's sampled fights.

The duel has no criticals (both creatures are immune to critical hits) and no specials: one attack each, one
swing a turn, fixed hit points. The chain models everything else the engine does:

* initiative: the kernel's natural (d20 or 3d6) plus the initiative modifier; ties go to the higher modifier,
  then to a fair random tie-break;
* round 1: the first to act attacks its opponent's flat-footed AC (the opponent has not acted yet);
* a hit deals max(1, damage roll); a creature below 0 hit points is out and the fight ends; at exactly 0 it is
  disabled: it still takes its turn's one attack, then the strain drops it to -1 and it is out (if that attack
  also drops its opponent, its opponent fell first: it wins, SRD-fix ``disabled-win``);
* the round cap: a fight still going after ``round_cap`` rounds is a draw.

The chain is in exact fractions; the hit chance of each attack is the kernel's ``exact()``. The engine's
frequencies over a fixed block of seeds must lie within 4.5 standard errors of the chain's probabilities.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from fractions import Fraction

import pytest

from arena.combat.engine import fight, prepare
from arena.rules import Check, RuleSet, exact
from arena.world.creatures import Creature

N_FIGHTS = 4000
Z = 4.5


def duellist(name: str, side: str, hp: int, ac: int, ff: int, init: int, bonus: int, damage: str) -> Creature:
    return Creature(
        name=name,
        type="humanoid",
        side=side,
        cr=None if side == "pc" else 1,
        hp=hp,
        hit_dice="2d8",
        initiative=init,
        ac=ac,
        touch_ac=10,
        flat_footed_ac=ff,
        bab=bonus,
        grapple=bonus,
        saves={"fort": 0, "ref": 0, "will": 0},
        attack=[[{"name": "blade", "bonuses": [bonus], "damage": damage, "damage_types": ["slashing"]}]],
        immunities=["critical hits"],
    )


def damage_distribution(text: str) -> dict[int, Fraction]:
    """max(1, NdS+K), enumerated face by face (independent of the dice module)."""
    count, rest = text.split("d")
    sides, _, const = rest.partition("+")
    count, sides, const = int(count), int(sides), int(const or 0)
    dist: dict[int, Fraction] = defaultdict(Fraction)
    combos = sides**count
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        dist[max(1, sum(faces) + const)] += Fraction(1, combos)
    return dict(dist)


def natural_distribution(die: str) -> dict[int, Fraction]:
    """The natural initiative roll, enumerated (independent of the kernel)."""
    if die == "d20":
        return {n: Fraction(1, 20) for n in range(1, 21)}
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for faces in itertools.product(range(1, 7), repeat=3):
        dist[sum(faces)] += Fraction(1, 216)
    return dict(dist)


def p_first(die: str, init_a: int, init_b: int) -> Fraction:
    """Chance that A acts before B: higher total, then higher modifier, then a fair coin."""
    nat = natural_distribution(die)
    p = Fraction(0)
    for na, pa in nat.items():
        for nb, pb in nat.items():
            ta, tb = na + init_a, nb + init_b
            if ta > tb or (ta == tb and init_a > init_b):
                p += pa * pb
            elif ta == tb and init_a == init_b:
                p += pa * pb / 2
    return p


def hit_chance(rules: RuleSet, side: str, bonus: int, ac: int, flat_footed: bool) -> Fraction:
    opponent = "monster" if side == "pc" else "pc"
    check = Check("attack", side, bonus, ac, 0, 20, 2, opponent, flat_footed=flat_footed)
    return exact(check, rules)["success"]


def duel_odds(rules: RuleSet, a: dict, b: dict, round_cap: int, first_a: Fraction | None = None) -> dict[str, Fraction]:
    """Exact P(A wins), P(B wins), P(draw) of the duel (A is the PC, B the monster).

    The weights are integers over one common denominator (``scale``), so hundreds of rounds stay exact and fast;
    ``first_a`` overrides the chance that A acts first (to show that initiative matters)."""
    dmg = {who: damage_distribution(stats["damage"]) for who, stats in (("a", a), ("b", b))}
    dmg_den = {who: math.lcm(*(q.denominator for q in d.values())) for who, d in dmg.items()}
    dmg_num = {who: {amount: int(q * dmg_den[who]) for amount, q in d.items()} for who, d in dmg.items()}
    stats = {"a": a, "b": b}
    side = {"a": "pc", "b": "monster"}
    result = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
    if first_a is None:
        first_a = p_first(rules.die, a["init"], b["init"])
    for first, p_order in (("a", first_a), ("b", 1 - first_a)):
        if not p_order:
            continue
        second = "b" if first == "a" else "a"
        states: dict[tuple[int, int], int] = {(a["hp"], b["hp"]): 1}  # (hp_a, hp_b) -> weight / scale
        scale = 1
        for rnd in range(1, round_cap + 1):
            for attacker in (first, second):
                defender = "b" if attacker == "a" else "a"
                flat = rnd == 1 and attacker == first
                ac = stats[defender]["ff"] if flat else stats[defender]["ac"]
                p_hit = hit_chance(rules, side[attacker], stats[attacker]["bonus"], ac, flat)
                hit, den = p_hit.numerator, p_hit.denominator
                q_den = dmg_den[attacker]
                index = 0 if defender == "a" else 1
                new: dict[tuple[int, int], int] = defaultdict(int)
                won = lost = 0
                for hps, w in states.items():
                    strains = hps[1 - index] == 0  # the attacker is disabled: this is its last action
                    if strains:
                        lost += w * (den - hit) * q_den
                    else:
                        new[hps] += w * (den - hit) * q_den
                    for amount, q in dmg_num[attacker].items():
                        left = list(hps)
                        left[index] -= amount
                        if left[index] < 0:
                            won += w * hit * q  # the defender falls first, even if the attacker strains after
                        elif strains:
                            lost += w * hit * q
                        else:
                            new[tuple(left)] += w * hit * q
                scale *= den * q_den
                result[attacker] += p_order * Fraction(won, scale)
                result[defender] += p_order * Fraction(lost, scale)
                states = dict(new)
        result["draw"] += p_order * Fraction(sum(states.values()), scale)
    assert sum(result.values()) == 1
    return result


A_STATS = {"hp": 14, "ac": 15, "ff": 11, "init": 1, "bonus": 5, "damage": "1d8+1"}
B_STATS = {"hp": 17, "ac": 14, "ff": 13, "init": 1, "bonus": 4, "damage": "2d4"}
A_QUICK = {**A_STATS, "init": 3}
B_SLOW = {**B_STATS, "init": 0}


def simulate(rules: RuleSet, a: dict, b: dict, round_cap: int) -> dict[str, int]:
    pc = duellist("alice", "pc", a["hp"], a["ac"], a["ff"], a["init"], a["bonus"], a["damage"])
    mon = duellist("brute", "monster", b["hp"], b["ac"], b["ff"], b["init"], b["bonus"], b["damage"])
    encounter = prepare([pc], [(mon, 1)], round_cap=round_cap, monsters_die_at_zero=True)
    counts = {"party": 0, "monsters": 0, "draw": 0}
    for seed in range(N_FIGHTS):
        record = fight(encounter, rules, 10_000 + seed).record
        counts[record.winner] += 1
        assert record.party.crits == record.monsters.crits == 0
    return counts


def within(observed: int, p: Fraction, n: int) -> tuple[bool, str]:
    pf = float(p)
    se = math.sqrt(max(pf * (1 - pf), 1e-12) / n)
    freq = observed / n
    return abs(freq - pf) <= Z * se, f"observed {freq:.4f}, exact {pf:.4f}, {Z} SE = {Z * se:.4f}"


@pytest.mark.parametrize(
    ("key", "a", "b", "cap"),
    [
        ("d20", A_STATS, B_STATS, 4),
        ("3d6", A_STATS, B_STATS, 4),
        ("d20", A_QUICK, B_SLOW, 60),
        ("3d6", A_QUICK, B_SLOW, 60),
    ],
)
def test_duel_matches_the_markov_chain(key, a, b, cap):
    rules = RuleSet.from_key(key)
    odds = duel_odds(rules, a, b, cap)
    counts = simulate(rules, a, b, cap)
    for outcome, winner in (("a", "party"), ("b", "monsters"), ("draw", "draw")):
        ok, detail = within(counts[winner], odds[outcome], N_FIGHTS)
        assert ok, f"{key} {winner}: {detail}"


def test_chain_is_sensitive_to_what_it_models():
    """The chain's own parts matter at this sample size: initiative order, flat-footed AC and the cap each move
    the answer by more than the tolerance, so a wrong engine cannot pass by accident."""
    rules = RuleSet.from_key("d20")
    base = duel_odds(rules, A_STATS, B_STATS, 4)["a"]
    tolerance = Z * math.sqrt(float(base) * (1 - float(base)) / N_FIGHTS)
    assert abs(duel_odds(rules, {**A_STATS, "ff": A_STATS["ac"]}, {**B_STATS, "ff": 5}, 4)["a"] - base) > tolerance
    a_first = duel_odds(rules, A_STATS, B_STATS, 4, first_a=Fraction(1))["a"]
    b_first = duel_odds(rules, A_STATS, B_STATS, 4, first_a=Fraction(0))["a"]
    assert a_first - b_first > 2 * tolerance
    assert abs(duel_odds(rules, A_STATS, B_STATS, 8)["a"] - base) > tolerance
    # initiative ties: equal modifiers are a coin flip, a higher modifier wins every tie
    assert p_first("d20", 1, 1) == Fraction(1, 2)
    assert p_first("d20", 1, 0) == Fraction(229, 400)  # A first unless B rolls 2+ higher: 1 - 171/400
    assert p_first("3d6", 0, 0) == Fraction(1, 2)


def test_hit_chance_from_exact_is_the_counted_d20_chance():
    """exact() against a hand count: natural 20 always hits, natural 1 always misses."""
    rules = RuleSet.from_key("d20")
    for bonus, ac in ((5, 15), (4, 14), (0, 25), (30, 10)):
        hits = sum(1 for n in range(1, 21) if n == 20 or (n != 1 and n + bonus >= ac))
        assert hit_chance(rules, "pc", bonus, ac, False) == Fraction(hits, 20)
