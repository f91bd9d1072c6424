"""The reference fight: encounters per second on one core, under every variant combination.

Timed in CPU seconds of this process (so other load on the machine does not skew it).
The generated level-5 party against two bugbears, an ogre and a dire wolf (EL 6), full rules and the default
policies. Target (issue 4): at least 3,000 encounters per second under the standard rules, and no combination
below half of that. Run:
    python benchmarks/bench_fight.py [--n 2000] [--passes 3] [--rules d20,3d6+prad]

The grid is timed ``--passes`` times over, the passes one after another (so a slow spell of a shared machine hits
one pass, not one rule set). Each rule set reports its best pass (the convention of ``timeit``: the fastest run is
what the code costs; slower ones measure other load on the machine) and the median of its passes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from arena.combat.engine import fight, prepare
from arena.combat.tactics import TacticsSettings
from arena.rules import RuleSet, default_grid
from arena.world.bestiary import get_creature
from arena.world.party import generate_party

TARGET = 3_000
MONSTERS = [("bugbear", 2), ("ogre", 1), ("dire-wolf", 1)]


def encounter(die: str):
    return prepare(
        generate_party(5, die),
        [(get_creature(name), n) for name, n in MONSTERS],
        party_tactics=TacticsSettings(press_luck="when-better", called_shot="when-better"),
        monster_tactics=TacticsSettings(press_luck="when-better", called_shot="when-better"),
    )


def measure(rules: RuleSet, n: int, encounters: dict) -> tuple[float, float]:
    """(encounters per CPU second, mean rounds) of ``n`` seeded fights; the first call per rule set warms the
    kernel's caches on 50 other seeds first, as a batch run's first chunk does."""
    if rules.key not in encounters:
        encounters[rules.key] = encounter(rules.die)
        for seed in range(50):
            fight(encounters[rules.key], rules, seed)
    enc = encounters[rules.key]
    rounds = 0
    start = time.process_time()
    for seed in range(n):
        rounds += fight(enc, rules, 10_000 + seed).record.rounds
    return n / (time.process_time() - start), rounds / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="fights per rule set and pass")
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the grid (best and median)")
    parser.add_argument("--rules", default=None, help="comma-separated keys (default: the 48-set grid)")
    args = parser.parse_args()
    grid = [RuleSet.from_key(k) for k in args.rules.split(",")] if args.rules else default_grid()
    encounters: dict = {}
    rates: dict[str, list[float]] = {rules.key: [] for rules in grid}
    rounds: dict[str, float] = {}
    for _ in range(args.passes):
        for rules in grid:
            rate, rounds[rules.key] = measure(rules, args.n, encounters)
            rates[rules.key].append(rate)
    print(f"{'rule set':<28}{'best enc/s':>12}{'median':>10}{'rounds':>8}")
    for key, runs in rates.items():
        print(f"{key:<28}{max(runs):>12,.0f}{statistics.median(runs):>10,.0f}{rounds[key]:>8.2f}")
    best = {key: max(runs) for key, runs in rates.items()}
    median = {key: statistics.median(runs) for key, runs in rates.items()}
    slowest = min(best, key=best.get)
    if "d20" in best:
        print(f"standard: best {best['d20']:,.0f}/s, median {median['d20']:,.0f}/s (target {TARGET:,})")
    print(
        f"slowest: {slowest} best {best[slowest]:,.0f}/s, median {median[slowest]:,.0f}/s "
        f"(target {TARGET // 2:,}); lowest median {min(median.values()):,.0f}/s"
    )


if __name__ == "__main__":
    main()
