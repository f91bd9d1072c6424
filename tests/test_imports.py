"""Every module of the package imports on its own, first.

The special abilities register with the world, the importer and the fight when the stat-block model is defined
(docs/architecture.md, "How the special abilities join the layers below them"), so an import cycle through
``arena.abilities`` would break only for the programs that import a particular module first. One child imports each
module in turn as the package's first, every ``arena`` module forgotten before each import.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules() -> list[str]:
    names = []
    for path in sorted((ROOT / "arena").rglob("*.py")):
        if "__pycache__" in path.parts or path.name == "__main__.py":
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


CHILD = """
import importlib, sys, traceback
failed = {}
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "arena" or m.startswith("arena.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as err:
        failed[name] = f"{type(err).__name__}: {err}"
print(repr(failed))
"""
"""Imports each module named in its arguments as the first module of the package: before each, every ``arena``
module is forgotten (the libraries they use stay loaded, which is what keeps this quick)."""


def test_every_module_imports_first():
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *modules()], capture_output=True, text=True, cwd=ROOT, timeout=1200
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "{}", done.stdout
