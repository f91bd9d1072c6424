"""Two versions of the engine raced on the reference fight, in CPU time: is one slower than the other?

    git worktree add /tmp/before <commit>
    python benchmarks/race_fight.py /tmp/before .            # 15 rounds of 3,000 fights each (the default)
    python benchmarks/race_fight.py /tmp/before . --rounds 21 --fights 5000 --rules d20+luck+open+called

Each round runs one child process per version, in alternating order (ABBA...), each with that version's checkout
first on ``PYTHONPATH``: the child fights ``--fights`` seeded reference fights after a warm-up and reports the CPU
time its fights took (``resource.getrusage``, so other load on a shared machine is not counted). The figure is the
median over the rounds of the ratio second / first (1.02: the second version is 2% slower), with the range of the
ratios beside it; interleaving the versions spreads a slow spell of the machine over both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import resource, sys
from pathlib import Path
from arena.combat.engine import fight
from arena.rules import RuleSet
try:
    from arena.study.scenarios.loading import load_scenarios
except ImportError:  # a checkout from before the study's packages (a race against an older commit)
    from arena.study.scenario import load_scenarios

root, key, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
(scenario,) = load_scenarios(root / "scenarios" / "reference.yaml")
rules = RuleSet.from_key(key)
encounter = scenario.prepare(rules.die)
for seed in range(20):
    fight(encounter, rules, 10**9 + seed)
usage = resource.getrusage(resource.RUSAGE_SELF)
start = usage.ru_utime + usage.ru_stime
for seed in range(count):
    fight(encounter, rules, seed)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime - start)
"""
"""The child: the reference fight, ``count`` seeds, timed after 20 warm-up fights (the kernel's caches)."""


def cpu_seconds(tree: Path, key: str, fights: int) -> float:
    """CPU seconds a child process with ``tree``'s engine takes for ``fights`` reference fights."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree), key, str(fights)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tree,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="a checkout of the first version (the reference)")
    parser.add_argument("second", type=Path, help="a checkout of the second version")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--fights", type=int, default=3000, help="reference fights per child process")
    parser.add_argument("--rules", default="d20")
    args = parser.parse_args()
    first, second = args.first.resolve(), args.second.resolve()
    ratios = []
    for round_ in range(args.rounds):
        order = (first, second) if round_ % 2 == 0 else (second, first)
        times = {tree: cpu_seconds(tree, args.rules, args.fights) for tree in order}
        ratios.append(times[second] / times[first])
        print(
            f"round {round_ + 1:>2}: first {times[first]:.3f} s, second {times[second]:.3f} s, ratio {ratios[-1]:.4f}",
            flush=True,
        )
    print(
        f"{args.rules}: second / first, median of {len(ratios)} rounds: {statistics.median(ratios):.4f} "
        f"(range {min(ratios):.4f} to {max(ratios):.4f})"
    )


if __name__ == "__main__":
    main()
