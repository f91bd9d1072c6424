"""The study's plumbing, measured from outside: CPU time and wall time of ``arena claims --quick`` on 1 and 2
workers, and the peak memory of a 200,000-encounter ``arena run`` of the reference scenario.

    python benchmarks/bench_study.py                                  # this checkout
    python benchmarks/bench_study.py --tree . --tree /work/wt-a3568c2 --repeat 3
    python benchmarks/bench_study.py --tree . --only claims --workers 1,2
    python benchmarks/bench_study.py --tree . --only run --run-n 4167 --run-workers 2

Every measurement is a fresh ``python -m arena ...`` child run with ``PYTHONPATH`` set to the tree being measured
(``--tree`` is repeatable: several checkouts are measured side by side in one run, interleaved repeat by repeat, so
a busy machine slows them alike). A tree must hold the ``arena`` package and ``scenarios/reference.yaml``, and,
when run from ``PYTHONPATH``, its stat blocks as ``arena/bestiary_data`` (a link to its ``bestiary/`` will do).

**CPU time** is that of the whole process tree: the command, its loky workers and loky's helpers. This process makes
itself the *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux), so a worker its run leaves behind (a local
worker exits on its own when its run has gone) is handed to this process instead of to init; after the command
exits, every descendant is reaped (``os.wait4`` until none is left, the live ones then watched until they exit) and
the CPU time is the sum of user and system time of every process reaped (each ``wait4`` counts a process and the
descendants it reaped itself). As a check, the process tree is also sampled from ``/proc`` while it runs: the sum
of the last CPU time seen of each process is a lower bound the reaped figure must not fall below (printed as
``seen``).

**Wall time** is the command's, from start to its exit. The 1 -> 2 worker scaling is ``wall(1) / wall(2)``; it is
a wall-clock figure, so on a shared machine repeat it (``--repeat``) and read the spread: every repeat is printed,
then the median and the range.

**Memory** of the run: each process's own peak resident set (``ru_maxrss`` of the ``wait4`` that reaped it, which is
the larger of its own and of the descendants it reaped itself; and ``VmHWM`` from ``/proc``, sampled every 0.2 s,
the process's own high-water mark). The parent is the ``arena run`` process; the workers are every other process
of the tree (loky's workers; loky's resource tracker is reported with them, being small). The figure to compare
is ``parent`` (the process that assembles the results) and ``worker max`` (the largest single worker); ``tree``
is the largest sum over the tree's processes at one sampling moment.

The run is ``arena run scenarios/reference.yaml --n N --workers W --out TMP --quiet`` with the scenario's own grid
of 48 rule sets; ``--run-n 4167`` (the default) makes 200,016 encounters. The claims study is ``arena claims
--quick --workers W`` (nothing written: no ``--out``). Output of the commands goes to a temporary folder; with
``--keep DIR`` it is kept there (each command's stdout, for comparing two trees' verdicts).

This is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from arena.study.runs.ledger import file_sha256  # the checksum of a run's parquet (this process's arena, not measured)

ROOT = Path(__file__).resolve().parents[1]
PR_SET_CHILD_SUBREAPER = 36
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = resource.getpagesize()


def become_subreaper() -> None:
    """Orphaned descendants of this process are re-parented to it (so their CPU time can be reaped here)."""
    if not sys.platform.startswith("linux"):
        raise SystemExit("bench_study.py needs Linux (PR_SET_CHILD_SUBREAPER, /proc)")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


@dataclass
class Seen:
    """What the /proc sampler saw of one process: its command line, last CPU seconds and peak resident set."""

    cmd: str = ""
    cpu: float = 0.0
    hwm_mib: float = 0.0


@dataclass
class Reaped:
    pid: int
    cpu: float
    maxrss_mib: float


@dataclass
class Measure:
    wall: float = 0.0
    cpu: float = 0.0
    seen_cpu: float = 0.0
    tree_peak_mib: float = 0.0
    reaped: list[Reaped] = field(default_factory=list)
    seen: dict[int, Seen] = field(default_factory=dict)
    returncode: int = 0
    root: int = 0
    load: tuple[float, float] = (0.0, 0.0)
    """The 1-minute load average when the command started and when it ended (a busy machine stretches walls)."""


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
    tree, frontier = set(), {root}
    while frontier:
        tree |= frontier
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - tree
    return tree


def _sample(pids: set[int], seen: dict[int, Seen]) -> float:
    """Update ``seen`` for ``pids``; return the sum of their resident sets now (MiB)."""
    total = 0.0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        entry = seen.setdefault(pid, Seen())
        entry.cmd = cmd or entry.cmd
        entry.cpu = max(entry.cpu, (int(stat[11]) + int(stat[12])) / CLOCK_TICKS)
        total += int(stat[21]) * PAGE / 2**20
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                entry.hwm_mib = max(entry.hwm_mib, int(line.split()[1]) / 1024)
    return total


def measure(cmd: list[str], tree: Path, cwd: Path, stdout: Path, interval: float = 0.2) -> Measure:
    """Run ``cmd`` with ``PYTHONPATH=tree``; reap it and every descendant; the tree's CPU, wall and memory."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "200"}
    result = Measure()
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout, "wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    result.root = proc.pid
    stop = threading.Event()
    pids: set[int] = {proc.pid}

    def sampler() -> None:
        while not stop.is_set():
            pids.update(_descendants(proc.pid))
            result.tree_peak_mib = max(result.tree_peak_mib, _sample(pids, result.seen))
            stop.wait(interval)

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    # Reap the command first (its wall time), then every descendant it left behind (re-parented to us).
    while True:
        pid, status, usage = os.wait4(-1, 0)
        if pid == proc.pid:
            result.wall = time.perf_counter() - t0
            proc.returncode = os.waitstatus_to_exitcode(status)
        result.reaped.append(Reaped(pid, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
        if pid == proc.pid:
            break
    deadline = time.monotonic() + 120
    while True:
        try:
            pid, _status, usage = os.wait4(-1, 0)
        except ChildProcessError:
            break
        result.reaped.append(Reaped(pid, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
        if time.monotonic() > deadline:
            raise SystemExit("descendants of the command did not exit within 120 s of it")
    stop.set()
    thread.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result.seen_cpu = sum(s.cpu for s in result.seen.values())
    result.returncode = proc.returncode
    result.load = (load_before, os.getloadavg()[0])
    reaped_sum = sum(r.cpu for r in result.reaped)
    if abs(reaped_sum - result.cpu) > 0.05:  # the two ways of adding must agree
        raise SystemExit(f"RUSAGE_CHILDREN says {result.cpu:.2f} s, the reaped processes {reaped_sum:.2f} s")
    return result


def _fmt_range(values: list[float], unit: str = "s") -> str:
    if len(values) == 1:
        return f"{values[0]:.1f} {unit}"
    return f"median {statistics.median(values):.1f} {unit} (range {min(values):.1f}-{max(values):.1f}; " + (
        ", ".join(f"{v:.1f}" for v in values) + ")"
    )


def bench_claims(trees: list[Path], workers: list[int], repeat: int, keep: Path) -> None:
    results: dict[tuple[Path, int], list[Measure]] = {}
    for rep in range(repeat):
        for tree in trees:
            for w in workers:
                out = keep / f"claims-{tree.name}-w{w}-r{rep}.txt"
                m = measure([sys.executable, "-m", "arena", "claims", "--quick", "--workers", str(w)], tree, keep, out)
                if m.returncode != 0:
                    raise SystemExit(f"{tree}: arena claims --quick --workers {w} failed; see {out}")
                results.setdefault((tree, w), []).append(m)
                print(
                    f"  claims --quick  {str(tree):40} workers {w}  repeat {rep + 1}: wall {m.wall:6.1f} s  "
                    f"CPU {m.cpu:6.1f} s (seen {m.seen_cpu:6.1f} s, {len(m.reaped)} processes reaped; the parent's "
                    f"own, sampled: {m.seen.get(m.root, Seen()).cpu:.1f} s; load {m.load[0]:.1f} -> {m.load[1]:.1f})",
                    flush=True,
                )
    print("\narena claims --quick")
    for tree in trees:
        print(f"  {tree}")
        walls = {}
        for w in workers:
            ms = results[(tree, w)]
            walls[w] = [m.wall for m in ms]
            print(f"    workers {w}: CPU {_fmt_range([m.cpu for m in ms])}; wall {_fmt_range(walls[w])}")
        if 1 in walls and 2 in walls:
            pairs = [a / b for a, b in zip(walls[1], walls[2], strict=True)]
            print(
                f"    1 -> 2 workers: {statistics.median(walls[1]) / statistics.median(walls[2]):.2f}x "
                f"(median over median; per repeat {', '.join(f'{p:.2f}x' for p in pairs)})"
            )
    if len(trees) > 1:
        base = trees[-1]
        for tree in trees[:-1]:
            for w in workers:
                a = statistics.median(m.cpu for m in results[(tree, w)])
                b = statistics.median(m.cpu for m in results[(base, w)])
                print(f"  CPU {tree.name} / {base.name}, workers {w}: {a / b:.2f}")


def bench_run(trees: list[Path], n: int, workers: int, repeat: int, keep: Path) -> None:
    for rep in range(repeat):
        for tree in trees:
            out = Path(tempfile.mkdtemp(prefix="bench-run-", dir=keep))
            cmd = [
                sys.executable,
                "-m",
                "arena",
                "run",
                str(tree / "scenarios" / "reference.yaml"),
                "--n",
                str(n),
                "--workers",
                str(workers),
                "--out",
                str(out / "results"),
                "--quiet",
            ]
            m = measure(cmd, tree, out, keep / f"run-{tree.name}-r{rep}.txt")
            if m.returncode != 0:
                raise SystemExit(f"{tree}: arena run failed; see {keep / f'run-{tree.name}-r{rep}.txt'}")
            parquet = out / "results" / "encounters.parquet"
            digest = file_sha256(parquet)
            shutil.rmtree(out)
            print(f"  run {n} x 48  {str(tree):40} workers {workers}  repeat {rep + 1}: " + _memory_line(m, digest))
            print(flush=True)


def _memory_line(m: Measure, digest: str) -> str:
    """The run's CPU, wall and peak memory: the parent's own (VmHWM; its wait4 figure is the larger of its own and
    of the workers it reaped itself) and the largest worker's (VmHWM), with the sampled tree sum."""
    parent = next(r for r in m.reaped if r.pid == m.root)
    seen_parent = m.seen.get(m.root, Seen())
    others = {pid: s for pid, s in m.seen.items() if pid != m.root}
    workers = [s for s in others.values() if "resource_tracker" not in s.cmd]
    return (
        f"wall {m.wall:6.1f} s  CPU {m.cpu:6.1f} s (the parent's own, sampled: {seen_parent.cpu:5.1f} s; "
        f"load {m.load[0]:.1f} -> {m.load[1]:.1f})\n"
        f"      peak RSS: parent {seen_parent.hwm_mib:6.0f} MiB (VmHWM; wait4 ru_maxrss {parent.maxrss_mib:.0f}); "
        f"largest worker {max((s.hwm_mib for s in workers), default=0):6.0f} MiB (VmHWM, {len(others)} other "
        f"processes); tree {m.tree_peak_mib:6.0f} MiB (largest sampled sum of RSS, shared pages counted in each); "
        f"encounters.parquet sha256 {digest[:16]}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", help="a checkout to measure (repeatable; default .)")
    parser.add_argument("--only", choices=("claims", "run"), help="one of the two measurements")
    parser.add_argument("--workers", default="1,2", help="claims: worker counts, comma-separated (default 1,2)")
    parser.add_argument("--repeat", type=int, default=1, help="repeats of every measurement (default 1)")
    parser.add_argument("--run-n", type=int, default=4167, help="run: encounters per rule set (default 4167)")
    parser.add_argument("--run-workers", type=int, default=2, help="run: workers (default 2)")
    parser.add_argument("--keep", type=Path, help="keep the commands' output here")
    args = parser.parse_args(argv)
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    for tree in trees:
        if not (tree / "arena" / "__init__.py").is_file():
            raise SystemExit(f"{tree}: no arena package there")
    become_subreaper()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="bench-study-"))
    keep.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; output in {keep}")
    try:
        if args.only in (None, "claims"):
            bench_claims(trees, [int(w) for w in args.workers.split(",")], args.repeat, keep)
        if args.only in (None, "run"):
            bench_run(trees, args.run_n, args.run_workers, args.repeat, keep)
    finally:
        if args.keep is None:
            shutil.rmtree(keep, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
