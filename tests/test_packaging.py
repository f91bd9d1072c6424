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


def test_every_shipped_folder_file_is_package_data():
    """The folders that ship as packages of their own (``package-dir``: ``bestiary/``, ``scenarios/``) install every
    file they hold: a file the globs of ``package-data`` miss is left out of the wheel, and ``arena scenario copy``
    of an example that names it would write a file its copy cannot run with."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    missed = []
    for package, folder in setuptools["package-dir"].items():
        globs = setuptools["package-data"].get(package, [])
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT / folder)
            if path.is_dir() or "__pycache__" in relative.parts or relative.name == "__init__.py":
                continue
            if not any(
                relative.match(pattern) and len(relative.parts) == len(Path(pattern).parts) for pattern in globs
            ):
                missed.append(f"{folder}/{relative.as_posix()}")
    assert not missed, f"files pyproject.toml's package-data does not ship: {missed}"
