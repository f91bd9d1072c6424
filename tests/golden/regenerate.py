"""Rewrite the golden fight logs and the golden run records in this folder from the current code.

Run it only when a change to the rules or the engine is *meant* to change fights, and review the diff
(``git diff tests/golden``) before committing: it is the readable record of what the change did.

    python tests/golden/regenerate.py

(``ARENA_REGENERATE_GOLDEN=1 pytest tests/cli/test_fight_cli.py`` does the same from the test.)
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

GOLDEN: dict[str, dict] = {
    "duel-seed-1.txt": {"path": "scenarios/duel.yaml", "seed": 1},
}
"""File name -> the `arena fight` call it records (scenario path relative to the repository root)."""


def render(path: str, seed: int, **options) -> str:
    """The text `arena fight PATH --seed SEED` prints, with a final newline."""
    from arena.cli.fight_cmds import fight_document, format_fight

    return format_fight(fight_document(ROOT / path, seed=seed, **options)) + "\n"


RECORDS = "reference-records.csv"
"""A short seeded run of the reference scenario: every field of every encounter record, one row per encounter, so
that a change to the model shows its effect as a readable diff (``git diff tests/golden``)."""
RECORD_RUN = {"n": 12, "seed": 5, "rules": ["d20", "3d6", "d20+prad+var+open", "3d6+prad+luck+open+called"]}


def render_records() -> str:
    """The golden run as CSV text (floats written with repr precision, so equal text means equal numbers)."""
    from arena.study.runs.in_memory import run

    frame = run(ROOT / "scenarios" / "reference.yaml", **RECORD_RUN)
    return frame.to_csv(index=False, lineterminator="\n", float_format="%.17g")


def regenerate() -> list[Path]:
    written = []
    for name, call in GOLDEN.items():
        target = HERE / name
        target.write_text(render(**call), encoding="utf-8")
        written.append(target)
    target = HERE / RECORDS
    target.write_text(render_records(), encoding="utf-8")
    written.append(target)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for path in regenerate():
        print(f"wrote {path.relative_to(ROOT)}")
