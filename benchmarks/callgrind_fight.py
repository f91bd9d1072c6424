"""Instructions per reference fight, counted by callgrind: a figure that does not drift with the machine's speed.

    python benchmarks/callgrind_fight.py                     # d20 and d20+luck+open+called
    python benchmarks/callgrind_fight.py --rules 3d6 --small 200 --large 600
    python benchmarks/callgrind_fight.py --model legacy      # the fight model before 0.3 (arena.combat.model.LEGACY)

Runs ``valgrind --tool=callgrind`` on two seeded runs of the reference fight (``--small`` and ``--large`` fights,
the same set-up), and prints ``(large - small) / (large - small fights)``: the set-up, imports and compilation
cancel out, what is left is the cost of one fight. Needs valgrind (``apt-get install valgrind``).

String hashing is randomised per process, and the count moves by a few per cent with the hash seed (dict and set
layouts change), so each figure is the mean over ``--hash-seeds`` (PYTHONHASHSEED values, default 0,1,2), with the
range beside it. numpy's BLAS runs on one thread (its idle threads' spinning would be counted too).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""numpy's BLAS threads spin while they wait, and callgrind counts their instructions too: tens of millions a run,
a different number each time. One thread keeps the count to the fights."""


def fight_many(key: str, count: int, model: str = "default") -> None:
    """The measured work: ``count`` reference fights under ``key`` (seeds 0..count-1), after one warm-up fight,
    under the default fight model or the one before 0.3 (``legacy``: the same code, the old choices)."""
    from arena.combat.engine import fight
    from arena.combat.model import LEGACY
    from arena.rules import RuleSet

    try:
        from arena.study.scenarios.loading import load_scenarios
    except ImportError:  # a checkout from before the study's packages (a race against an older commit)
        from arena.study.scenario import load_scenarios

    (scenario,) = load_scenarios(ROOT / "scenarios" / "reference.yaml")
    if model == "legacy":
        scenario = scenario.with_model(LEGACY)
    rules = RuleSet.from_key(key)
    encounter = scenario.prepare(rules.die)
    fight(encounter, rules, 10**9)
    for seed in range(count):
        fight(encounter, rules, seed)


def instructions(key: str, count: int, hash_seed: int, model: str = "default") -> int:
    """Instructions callgrind counts for a process that fights ``count`` fights, with string hashing seeded."""
    import os

    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), **ONE_THREAD}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--child",
            key,
            str(count),
            model,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
        if not found:
            raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="rule-set keys (default: d20 and d20+luck+open+called)")
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--large", type=int, default=600)
    parser.add_argument("--hash-seeds", default="0,1,2", help="PYTHONHASHSEED values to average over")
    parser.add_argument(
        "--model",
        choices=("default", "legacy"),
        default="default",
        help="the fight model: today's defaults, or the one before 0.3",
    )
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        fight_many(args.child[0], int(args.child[1]), args.child[2])
        return
    seeds = [int(x) for x in args.hash_seeds.split(",") if x.strip()]
    for key in args.rules or ["d20", "d20+luck+open+called"]:
        per_fight = []
        for seed in seeds:
            small = instructions(key, args.small, seed, args.model)
            large = instructions(key, args.large, seed, args.model)
            per_fight.append((large - small) / (args.large - args.small))
        mean = sum(per_fight) / len(per_fight)
        print(
            f"{key:<28} {args.model:<8} {mean:>12,.0f} instructions per reference fight (mean of hash seeds "
            f"{args.hash_seeds}: {min(per_fight):,.0f} to {max(per_fight):,.0f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
