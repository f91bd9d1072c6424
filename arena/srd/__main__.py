"""``python -m arena.srd``: the shipped SRD bestiary, rebuilt from the SRD 3.5 monster chapters or checked against
them.

    python -m arena.srd SRC OUT              # import every Monsters*.md chapter of SRC into OUT (bestiary/srd)
    python -m arena.srd --check SRC [OUT]    # rebuild into a temporary folder and compare with OUT, byte for byte

OUT defaults to this clone's ``bestiary/srd``. The rebuild prints the counts as JSON; the check prints each file
that differs. Exit 0 when all is well, 1 when the check finds a difference, 2 when the import reports an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from arena.srd.importer import build_shipped, check_shipped

SHIPPED = Path(__file__).resolve().parents[2] / "bestiary" / "srd"
"""The shipped bestiary of this clone."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m arena.srd",
        description="Rebuild the shipped SRD bestiary from the SRD 3.5 monster chapters, or check it against them.",
    )
    parser.add_argument("--check", action="store_true", help="rebuild into a temporary folder and compare with OUT")
    parser.add_argument("src", type=Path, help="the folder of the SRD's Monsters*.md chapters and license.md")
    parser.add_argument("out", type=Path, nargs="?", default=SHIPPED, help=f"the bestiary folder (default {SHIPPED})")
    args = parser.parse_args(argv)
    if args.check:
        report, differ = check_shipped(args.src, args.out)
    else:
        report, differ = build_shipped(args.src, args.out), []
    for problem in report.errors:
        print(problem, file=sys.stderr)
    for line in differ:
        print(f"{args.out}/{line}")
    print(
        json.dumps({"creatures": len(report.written), "errors": len(report.errors), "differ": len(differ)}),
        file=sys.stderr if args.check else sys.stdout,
    )
    return 2 if report.errors else 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
