"""A short seeded run's records held against a committed copy (tests/golden/reference-records.csv): any change to
the model, the rules or the engine that moves a single number fails here, and the diff of the regenerated file
(``python tests/golden/regenerate.py``, then ``git diff tests/golden``) shows what it moved."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import regenerate  # noqa: E402


def test_the_reference_run_records_are_unchanged():
    expected = (GOLDEN / regenerate.RECORDS).read_text(encoding="utf-8")
    now = regenerate.render_records()
    if now != expected:
        diff = "".join(
            list(difflib.unified_diff(expected.splitlines(True), now.splitlines(True), "committed", "now", n=0))[:40]
        )
        raise AssertionError(
            "the golden run's records changed; if that is intended, run "
            f"`python tests/golden/regenerate.py` and explain the diff:\n{diff}"
        )
