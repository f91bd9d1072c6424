"""Attack checks resolved per second on one core, under every single-roll variant combination.

Target (issue 2): at least 250,000 per second under every combination. Run:
    python benchmarks/bench_checks.py [--n 300000]
"""

from __future__ import annotations

import argparse
import time

from arena.dice import Stream
from arena.rules import Check, resolve
from arena.rules.odds import kernel_variants

TARGET = 250_000


def checks_for(rules) -> list[Check]:
    """A PC's and a monster's attack, pressing luck where the rule set lets the roller choose."""
    press = rules.modifiers == "press-luck"
    return [
        Check("attack", "pc", 7, 17, threat=19, press_luck=press),
        Check("attack", "monster", 8, 18, press_luck=press and rules.players_roll_all),
    ]


def measure(rules, n: int) -> float:
    checks = checks_for(rules)
    stream = Stream(1)
    for check in checks:  # compile once, as a fight does
        resolve(check, rules, stream)
    a, b = checks
    start = time.process_time()
    for _ in range(n // 2):
        resolve(a, rules, stream)
        resolve(b, rules, stream)
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300_000)
    args = parser.parse_args()
    worst = None
    print(f"{'rule set':<24}{'checks/s':>12}")
    for rules in kernel_variants():
        rate = measure(rules, args.n)
        worst = rate if worst is None else min(worst, rate)
        print(f"{rules.key:<24}{rate:>12,.0f}")
    print(f"{'slowest':<24}{worst:>12,.0f}  (target {TARGET:,}: {'met' if worst >= TARGET else 'NOT met'})")


if __name__ == "__main__":
    main()
