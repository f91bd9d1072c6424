"""Experiment throughput and memory: the reference scenario under the full default grid.

    python benchmarks/bench_experiment.py [--n 1000] [--million] [--workers 2]

Prints encounters per second with 1 and ``--workers`` workers and the speed-up (target: >= 1.7x on 2 cores),
and with ``--million`` the peak memory of a 1,000,000-encounter run written to disk (target: < 1 GiB): the
resident set of the whole process tree (this process and its worker processes, summed from /proc every half
second), and this process's own peak from ``resource.getrusage``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _peak_mib() -> tuple[float, float]:
    """Peak resident set (MiB) of this process, and the largest of its finished children (Linux: KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def _tree_rss_mib() -> float:
    """Resident set (MiB) of this process and all its descendants now, from /proc (Linux; 0 elsewhere)."""
    proc = Path("/proc")
    if not proc.exists():
        return 0.0
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for d in proc.iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            parents[int(d.name)] = int(fields[1])
            rss[int(d.name)] = int(fields[21]) * resource.getpagesize()
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = set(), {os.getpid()}
    while frontier:
        tree |= frontier
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - tree
    return sum(rss.get(pid, 0) for pid in tree) / 2**20


class TreeSampler(threading.Thread):
    """Samples the process tree's resident set every ``interval`` seconds; ``peak`` is the largest sum seen."""

    def __init__(self, interval: float = 0.5):
        super().__init__(daemon=True)
        self.interval, self.peak, self.stop = interval, 0.0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, _tree_rss_mib())
            self.stop.wait(self.interval)


def _burn(_: int) -> float:
    t0 = time.perf_counter()
    x = 0
    for i in range(5_000_000):
        x += i
    return time.perf_counter() - t0


def parallel_capacity(workers: int) -> float:
    """How much faster ``workers`` processes burn pure-Python CPU than one: the ceiling of any speed-up here."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_burn, range(workers)))  # start the processes
        t0 = time.perf_counter()
        list(pool.map(_burn, range(workers)))
        together = time.perf_counter() - t0
    alone = _burn(0)
    return workers * alone / together


def timed_run(scenario, out: Path, n: int, workers: int) -> float:
    from arena.study.runs.experiment import run_experiment

    t0 = time.perf_counter()
    outcome = run_experiment([scenario], out, n=n, workers=workers, force=True)
    seconds = time.perf_counter() - t0
    return outcome.encounters / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="encounters per rule set (default 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--million", action="store_true", help="also run 1,000,000 encounters and report memory")
    args = parser.parse_args(argv)

    from arena.rules import default_grid
    from arena.study.scenarios.loading import load_scenarios

    scenario = load_scenarios(ROOT / "scenarios" / "reference.yaml")[0]
    grid = default_grid()
    print(f"reference scenario, {len(grid)} rule sets x {args.n} encounters = {len(grid) * args.n:,}")
    print(
        f"this machine: {args.workers} independent CPU-bound processes run {parallel_capacity(args.workers):.2f}x "
        "as fast as one (the ceiling for any speed-up below)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        one = timed_run(scenario, Path(tmp) / "one", args.n, 1)
        print(f"1 worker : {one:8,.0f} encounters/s")
        many = timed_run(scenario, Path(tmp) / "many", args.n, args.workers)
        print(f"{args.workers} workers: {many:8,.0f} encounters/s   speed-up {many / one:.2f}x (target >= 1.7x)")
        if args.million:
            per_rule_set = -(-1_000_000 // len(grid))
            from arena.study.runs.experiment import run_experiment

            sampler = TreeSampler()
            sampler.start()
            t0 = time.perf_counter()
            outcome = run_experiment(
                [scenario], Path(tmp) / "million", n=per_rule_set, workers=args.workers, force=True
            )
            seconds = time.perf_counter() - t0
            sampler.stop.set()
            sampler.join()
            own, _ = _peak_mib()
            size = (Path(tmp) / "million" / "encounters.parquet").stat().st_size / 2**20
            print(
                f"million: {outcome.encounters:,} encounters in {seconds:,.0f} s "
                f"({outcome.encounters / seconds:,.0f}/s), encounters.parquet {size:,.1f} MiB"
            )
            print(
                f"peak memory of the whole process tree (sampled every 0.5 s): {sampler.peak:,.0f} MiB "
                f"(target < 1024 MiB); peak of this process alone (getrusage): {own:,.0f} MiB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
