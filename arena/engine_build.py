"""Which fight engine is loaded: the modules compiled with mypyc, or their Python source (the reference engine).

``pip install .`` compiles the engine's modules where a C compiler is at hand (``setup.py`` lists them) and installs
their Python source beside them; where none is, it installs the source alone. The two are the same code and fight
the same encounters to the same records (``tests/combat/test_compiled_engine.py``). ``ARENA_ENGINE=python`` in the
environment loads the source even where compiled modules are present: the reference engine, for a comparison, a
debugger or a profiler that reads Python frames. :func:`honour_environment` (called by ``arena/__init__.py``, before
any engine module is imported) reads it.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ExtensionFileLoader, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

ENVIRONMENT = "ARENA_ENGINE"
"""The environment variable that chooses the engine: ``python`` (the source) or ``compiled`` (the default: the
compiled modules where they are installed, else the source)."""
CHOICES = ("compiled", "python")


class _SourceFirst(MetaPathFinder):
    """Finds an ``arena`` module's Python source where the module is also installed compiled."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("arena."):
            return None
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or spec.origin is None:
            return None
        source = Path(spec.origin).with_name(fullname.rpartition(".")[2] + ".py")
        return spec_from_file_location(fullname, source) if source.is_file() else None


def honour_environment() -> None:
    """Load the engine's Python source when ``ARENA_ENGINE=python`` (a value it does not know is warned about and
    ignored: the default engine is loaded)."""
    choice = os.environ.get(ENVIRONMENT, "").strip().lower()
    if choice == "python":
        if not any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
            sys.meta_path.insert(0, _SourceFirst())
    elif choice not in ("", "compiled"):
        warnings.warn(
            f"{ENVIRONMENT}={choice!r} is not one of {', '.join(CHOICES)}: the default engine is loaded",
            stacklevel=2,
        )


def engine() -> str:
    """``compiled`` when the fight engine's modules were compiled with mypyc and are loaded, else ``python``."""
    import arena.combat.engine as fight_engine

    return "python" if (fight_engine.__file__ or "").endswith(".py") else "compiled"


def describe() -> str:
    """The engine in words, for ``arena --version`` and run manifests."""
    return "compiled with mypyc" if engine() == "compiled" else "pure Python"
