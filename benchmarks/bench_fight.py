"""The reference fight: encounters per second on one core, under every variant combination.

Timed in CPU seconds of this process (so other load on the machine does not skew it).
The generated level-5 party against two bugbears, an ogre and a dire wolf (EL 6), full rules and the default
policies. Target (issue 4): at least 3,000 encounters per second under the standard rules, and no combination
below half of that. Run:
    python benchmarks/bench_fight.py [--n 2000] [--rules d20,3d6+prad]
"""

from __future__ import annotations

import argparse
import time

from arena.bestiary import get_creature
from arena.engine import fight, prepare
from arena.party import generate_party
from arena.rules import RuleSet, default_grid
from arena.tactics import TacticsSettings

TARGET = 3_000
MONSTERS = [("bugbear", 2), ("ogre", 1), ("dire-wolf", 1)]


def encounter(die: str):
    return prepare(generate_party(5, die), [(get_creature(name), n) for name, n in MONSTERS],
                   party_tactics=TacticsSettings(press_luck="when-better", called_shot="when-better"),
                   monster_tactics=TacticsSettings(press_luck="when-better", called_shot="when-better"))


def measure(rules: RuleSet, n: int) -> tuple[float, float]:
    enc = encounter(rules.die)
    for seed in range(50):                      # warm the kernel's caches, as a batch run does
        fight(enc, rules, seed)
    rounds = 0
    start = time.process_time()
    for seed in range(n):
        rounds += fight(enc, rules, 10_000 + seed).record.rounds
    return n / (time.process_time() - start), rounds / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--rules", default=None, help="comma-separated keys (default: the 48-set grid)")
    args = parser.parse_args()
    grid = [RuleSet.from_key(k) for k in args.rules.split(",")] if args.rules else default_grid()
    print(f"{'rule set':<28}{'enc/s':>10}{'rounds':>8}")
    rates = {}
    for rules in grid:
        rate, rounds = measure(rules, args.n)
        rates[rules.key] = rate
        print(f"{rules.key:<28}{rate:>10,.0f}{rounds:>8.2f}")
    standard = rates.get("d20")
    worst = min(rates.values())
    if standard:
        print(f"standard {standard:,.0f}/s (target {TARGET:,}); slowest {worst:,.0f}/s (target {TARGET // 2:,})")


if __name__ == "__main__":
    main()
