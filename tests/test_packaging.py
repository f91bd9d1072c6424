"""Every package of `arena` is in pyproject.toml's list of packages, so an ordinary `pip install .` (not editable)
installs it: a package left out installs a tree that fails at its first import, which the editable install of a
working copy never shows."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_for_install():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "arena").rglob("__init__.py")
        if "__pycache__" not in path.parts
    }
    assert found - listed == set(), f"packages missing from pyproject.toml: {sorted(found - listed)}"
