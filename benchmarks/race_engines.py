"""Engines raced side by side in one run: encounters per CPU second of each contender, fight by fight.

    python benchmarks/race_engines.py \\
        old=/tmp/a3568c2 pure=.:python compiled=installed        # the README's table (issue 25)
    python benchmarks/race_engines.py compiled=installed --two-at-once   # what two workers can give here

A contender is ``LABEL=WHERE[:python]``:

- ``WHERE`` a checkout: the engine of that tree (first on ``PYTHONPATH``), as it is there: pure Python unless the
  tree holds compiled modules (``python setup.py build_ext --inplace``);
- ``WHERE`` ``installed``: the engine ``pip install .`` put in this Python's site-packages (run from a folder
  outside the checkout, so the checkout's sources do not shadow it);
- ``:python``: the same tree's pure-Python engine even where compiled modules are present (``ARENA_ENGINE=python``,
  read by ``arena/__init__.py``).

Each contender is one long-lived, single-threaded child process (BLAS threads 1, hash seed 0). The parent hands
the children one-second chunks of CPU time in turn, contender after contender (so a slow spell of a shared machine
falls on all of them), for ``--chunks`` rounds; a child fights seeded encounters for its chunk and reports how many
it finished in how much CPU time (``resource.getrusage``: other load on the machine is not counted). Each figure is
the median over the chunks of encounters per CPU second, with the ratio to the first contender beside it.

``--two-at-once``: each contender also gets a twin process, and every chunk it fights alone is followed by one
fought by it and its twin at the same moment, on two cores. A fight's CPU time grows when another process fights
beside it (the cores share caches and memory bandwidth: on this project's VM one day, 1,870 encounters per CPU
second alone and 1,535 two at once), so ``2 x two-at-once / alone`` is the most that two workers can give over one
on this machine for these fights: the ceiling against which ``benchmarks/bench_study.py``'s 1 -> 2 worker
scaling of ``arena claims --quick`` is to be read.

The fights (``--fights``): ``reference`` is scenarios/reference.yaml (the generated level-5 party against two
bugbears, an ogre and a dire wolf, with pressing luck and called shots ``when-better``), under ``d20`` and the
slowest rule set, ``d20+luck+open+called``; ``srd`` is the level-5 party against two ghasts, an ettercap and a
black dragon wyrmling (paralysis, poison, a web, a breath weapon) under ``d20``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

FIGHTS = {
    "reference/d20": ("reference", "d20"),
    "reference/d20+luck+open+called": ("reference", "d20+luck+open+called"),
    "srd/d20": ("srd", "d20"),
}
"""The fights raced by default: (encounter, rule set) by the name the table shows."""

CHILD = r"""
import resource, sys
from pathlib import Path

from arena.combat.engine import fight, prepare
from arena.rules import RuleSet
from arena.world.bestiary import get_creature
from arena.world.party import generate_party

try:
    from arena.study.scenarios.loading import load_scenarios
except ImportError:  # a checkout from before the study's packages
    from arena.study.scenario import load_scenarios

ROOT = Path(sys.argv[1])
SRD = [("ghast", 2), ("ettercap", 1), ("black-dragon-wyrmling", 1)]


def encounter(name, die):
    if name == "reference":
        (scenario,) = load_scenarios(ROOT / "scenarios" / "reference.yaml")
        return scenario.prepare(die)
    return prepare(generate_party(5, die), [(get_creature(c), n) for c, n in SRD])


prepared, seeds = {}, {}
engine = sys.modules["arena.combat.engine"].__file__
print("ready", "compiled" if not engine.endswith(".py") else "python", flush=True)
for line in sys.stdin:
    name, key, seconds = line.split()
    rules = RuleSet.from_key(key)
    if (name, key) not in prepared:
        prepared[name, key] = encounter(name, rules.die)
        for seed in range(30):  # warm-up: the kernel's plans, the parsed dice
            fight(prepared[name, key], rules, 10**9 + seed)
    enc, budget, done = prepared[name, key], float(seconds), 0
    seed = seeds.get((name, key), 0)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    start = usage.ru_utime + usage.ru_stime
    spent = 0.0
    while spent < budget:
        for _ in range(20):
            fight(enc, rules, seed)
            seed += 1
        done += 20
        usage = resource.getrusage(resource.RUSAGE_SELF)
        spent = usage.ru_utime + usage.ru_stime - start
    seeds[name, key] = seed
    print(done, spent, flush=True)
"""
"""A contender's process: prepares each fight once, then fights seeded encounters for each chunk it is handed
(``NAME RULES SECONDS`` on a line of its stdin), answering ``FIGHTS CPU_SECONDS``."""


class Contender:
    """One engine in its own child process."""

    def __init__(self, spec: str, repo: Path) -> None:
        label, _, where = spec.partition("=")
        if not where:
            raise SystemExit(f"contender {spec!r}: write LABEL=TREE, LABEL=TREE:python or LABEL=installed")
        where, _, build = where.partition(":")
        env = {
            **os.environ,
            "PYTHONHASHSEED": "0",
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        env.pop("PYTHONPATH", None)
        env.pop("ARENA_ENGINE", None)
        if build == "python":
            env["ARENA_ENGINE"] = "python"
        self._workdir = tempfile.TemporaryDirectory()
        if where == "installed":
            cwd, root = self._workdir.name, repo
        else:
            root = Path(where).resolve()
            env["PYTHONPATH"] = str(root)
            cwd = str(root)
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
        )
        ready = self._line().split()
        self.engine = ready[1] if len(ready) > 1 and ready[0] == "ready" else "?"

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"contender {self.label!r} stopped (see its error above)")
        return line

    def chunk(self, fight: str, rules: str, seconds: float) -> float:
        """Encounters per CPU second over one chunk of about ``seconds`` of CPU time."""
        self.send(fight, rules, seconds)
        return self.receive()

    def send(self, fight: str, rules: str, seconds: float) -> None:
        """Start a chunk (:meth:`receive` its rate): two contenders sent chunks at once fight side by side."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{fight} {rules} {seconds}\n")
        self.process.stdin.flush()

    def receive(self) -> float:
        """The encounters per CPU second of the chunk :meth:`send` started."""
        done, spent = self._line().split()
        return int(done) / float(spent)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()
        self._workdir.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("contenders", nargs="+", help="LABEL=TREE, LABEL=TREE:python or LABEL=installed")
    parser.add_argument("--chunks", type=int, default=7, help="one-second chunks per contender and fight")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per chunk")
    parser.add_argument("--fights", default=",".join(FIGHTS), help=f"comma-separated, of: {', '.join(FIGHTS)}")
    parser.add_argument(
        "--two-at-once",
        action="store_true",
        help="instead, race each contender against a twin of itself: alone, then two processes at once",
    )
    args = parser.parse_args()
    repo = Path(__file__).resolve().parents[1]
    if args.two_at_once:
        two_at_once(args.contenders, repo, args.fights.split(","), args.chunks, args.seconds)
        return
    contenders = [Contender(spec, repo) for spec in args.contenders]
    try:
        print("| fight | rules | " + " | ".join(f"{c.label} ({c.engine})" for c in contenders) + " |")
        print("|---|---|" + "---:|" * len(contenders))
        for name in args.fights.split(","):
            fight, rules = FIGHTS[name]
            rates: dict[str, list[float]] = {c.label: [] for c in contenders}
            for _ in range(args.chunks):
                for contender in contenders:
                    rates[contender.label].append(contender.chunk(fight, rules, args.seconds))
            first = statistics.median(rates[contenders[0].label])
            cells = []
            for contender in contenders:
                rate = statistics.median(rates[contender.label])
                cells.append(f"{rate:,.0f}" + ("" if contender is contenders[0] else f" ({rate / first:.2f}x)"))
            print(f"| {fight} | {rules} | " + " | ".join(cells) + " |", flush=True)
    finally:
        for contender in contenders:
            contender.close()
    print(
        f"\n{args.chunks} chunks of {args.seconds:g} CPU s per contender and fight, medians; {os.uname().machine}, "
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
    )


def two_at_once(specs: list[str], repo: Path, fights: list[str], chunks: int, seconds: float) -> None:
    """Each contender's fights alone and beside a twin of itself (``--two-at-once``), chunk after chunk."""
    print("| fight | rules | contender | alone | two at once | two workers' ceiling |")
    print("|---|---|---|---:|---:|---:|")
    for spec in specs:
        one, twin = Contender(spec, repo), Contender(spec, repo)
        try:
            for name in fights:
                fight, rules = FIGHTS[name]
                alone: list[float] = []
                paired: list[float] = []
                for _ in range(chunks):
                    alone.append(one.chunk(fight, rules, seconds))
                    one.send(fight, rules, seconds)
                    twin.send(fight, rules, seconds)
                    paired += [one.receive(), twin.receive()]
                solo, pair = statistics.median(alone), statistics.median(paired)
                print(
                    f"| {fight} | {rules} | {one.label} ({one.engine}) | {solo:,.0f} | {pair:,.0f} | "
                    f"{2 * pair / solo:.2f}x |",
                    flush=True,
                )
        finally:
            one.close()
            twin.close()
    print(
        f"\n{chunks} chunks of {seconds:g} CPU s alone and as many two at once, medians; {os.uname().machine}, "
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
    )


if __name__ == "__main__":
    main()
