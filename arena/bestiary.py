"""The bestiary: built-in SRD stat blocks plus the user's own files, looked up by name.

Built-in files ship in the package (``arena.bestiary_data``, the repo's ``bestiary/`` folder) and are read
with :mod:`importlib.resources`, so a normal install works without the source tree. A YAML file holds one
stat block (a mapping) or several (a list of mappings). Names are compared lowercased. ``typical-crN`` names
are built on demand by :mod:`arena.typical`.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from arena.creatures import Creature
from arena.errors import ArenaError
from arena.typical import parse_typical_name, typical_creature, typical_names
from arena.yamlio import YamlValidationError, display_name, iter_models, load_yaml

BUILTIN_PACKAGE = "arena.bestiary_data"
YAML_SUFFIXES = (".yaml", ".yml")


def normalise(name: str) -> str:
    """Lookup key of a name: lowercase, spaces and underscores as hyphens (``Dire Wolf`` -> ``dire-wolf``)."""
    return "-".join(name.strip().lower().replace("_", " ").split())


def builtin_files() -> list:
    """The built-in stat-block files (``importlib.resources`` Traversables), sorted by name."""
    try:
        root = resources.files(BUILTIN_PACKAGE)
    except ModuleNotFoundError:
        # Running from a source tree that shadows the installed package (``python -m arena`` in the repo root
        # after a non-editable install): the stat blocks are the repo's own ``bestiary/`` folder.
        root = Path(__file__).resolve().parents[1] / "bestiary"
    return sorted((f for f in root.iterdir() if f.name.endswith(YAML_SUFFIXES)), key=lambda f: f.name)


def expand_paths(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files named directly plus every ``*.yaml``/``*.yml`` below named folders (sorted); missing -> ArenaError."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(f for f in path.rglob("*") if f.suffix in YAML_SUFFIXES and f.is_file()))
        elif path.exists():
            out.append(path)
        else:
            raise ArenaError(f"{p}: no such file or folder")
    return out


def _read(files: Iterable, builtin: bool, into: dict[str, Creature], origin: dict[str, str],
          problems: list[str] | None) -> None:
    """Load each file's creatures into ``into``; ``problems`` collects errors instead of raising."""
    for file in files:
        source = f"bestiary/{file.name}" if builtin else display_name(file)
        try:
            doc = load_yaml(file, source)
            for creature, path in iter_models(doc, Creature):
                key = normalise(creature.name)
                where = doc.where((*path, "name"))
                if key in into:
                    raise ArenaError(f"{where}: duplicate creature name {creature.name!r} "
                                     f"(also defined at {origin[key]})")
                if parse_typical_name(key) is not None:
                    raise ArenaError(f"{where}: the name {creature.name!r} is reserved for typical monsters")
                into[key] = creature
                origin[key] = where
        except YamlValidationError as err:
            if problems is None:
                raise
            problems.extend(err.problems)
        except ArenaError as err:
            if problems is None:
                raise
            problems.append(str(err))


@cache
def _builtin() -> tuple[dict[str, Creature], dict[str, str]]:
    into: dict[str, Creature] = {}
    origin: dict[str, str] = {}
    _read(builtin_files(), True, into, origin, None)
    return into, origin


def load_bestiary(extra_paths: Iterable[str | os.PathLike] = ()) -> dict[str, Creature]:
    """All creatures by lowercase name: the built-in ones plus those in ``extra_paths`` (files or folders).

    A name defined twice (in any two files) is an ArenaError naming both places.
    """
    builtin, origin = _builtin()
    into, origin = dict(builtin), dict(origin)
    _read(expand_paths(extra_paths), False, into, origin, None)
    return into


def check_files(paths: Iterable[str | os.PathLike] = ()) -> tuple[int, list[str]]:
    """Validate stat-block files without stopping at the first error: (creatures checked, problems).

    With no ``paths`` the built-in files are checked. Otherwise the given files and folders are, and a name
    that clashes with a built-in creature (or another given file) is reported, as :func:`load_bestiary` would.
    """
    paths = list(paths)
    into: dict[str, Creature] = {}
    origin: dict[str, str] = {}
    problems: list[str] = []
    if not paths:
        _read(builtin_files(), True, into, origin, problems)
        return len(into), problems
    builtin, builtin_origin = _builtin()
    into, origin = dict(builtin), dict(builtin_origin)
    try:
        files = expand_paths(paths)
    except ArenaError as err:
        return 0, [str(err)]
    _read(files, False, into, origin, problems)
    return len(into) - len(builtin), problems


def creature_names(bestiary: dict[str, Creature] | None = None) -> list[str]:
    """Names of the creatures in ``bestiary`` (default: the built-in one), sorted."""
    return sorted(bestiary if bestiary is not None else _builtin()[0])


def get_creature(name: str, bestiary: dict[str, Creature] | None = None) -> Creature:
    """The creature called ``name`` (case-insensitive), or the typical monster for ``typical-crN``.

    Unknown names raise ArenaError suggesting the nearest names.
    """
    key = normalise(name)
    book = bestiary if bestiary is not None else _builtin()[0]
    if key in book:
        return book[key]
    cr = parse_typical_name(key)
    if cr is not None:
        return typical_creature(cr)
    candidates = [*book, *typical_names()]
    near = difflib.get_close_matches(key, candidates, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(near)}?" if near else "; see `arena bestiary list`"
    raise ArenaError(f"unknown creature {name!r}{hint}")
