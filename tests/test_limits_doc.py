"""docs/limits.md lists every limit of arena/limits.py with its value: the page and the code cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import arena.limits

DOC = Path(__file__).resolve().parents[1] / "docs" / "limits.md"


def _shown(value: float) -> set[str]:
    """The ways the page may write ``value``: 4 MiB, 100,000, 2^64 - 1, 2 s."""
    forms = {f"{value:,}", f"{value:g}", f"{value:g} s"}
    if isinstance(value, int) and value and value % (1024 * 1024) == 0:
        forms.add(f"{value // (1024 * 1024)} MiB")
    if isinstance(value, int) and (value + 1).bit_length() - 1 == value.bit_length() and value > 2**32:
        forms.add(f"2^{value.bit_length()} - 1")
    return forms


def test_every_limit_is_on_the_page_with_its_value():
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", DOC.read_text(encoding="utf-8"), flags=re.M))
    limits = {name: value for name, value in vars(arena.limits).items() if name.isupper()}
    assert set(rows) == set(limits), "docs/limits.md and arena/limits.py list different limits"
    for name, value in limits.items():
        assert rows[name] in _shown(value), f"{name}: the page says {rows[name]}, the code {value}"
