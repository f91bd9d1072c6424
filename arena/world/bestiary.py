"""The bestiary: built-in SRD stat blocks plus the user's own files, looked up by name.

Built-in files ship in the package (``arena.bestiary_data``, the repo's ``bestiary/`` folder) and are read
with :mod:`importlib.resources`, so a normal install works without the source tree. A YAML file holds one
stat block (a mapping) or several (a list of mappings). Names are compared lowercased. ``typical-crN`` names
are built on demand by :mod:`arena.world.typical`.

Three layers answer a name, the first that has it: the 19 hand-written built-in blocks (``bestiary/*.yaml``) and
the user's files; the typical monsters; the imported SRD bestiary (``bestiary/srd/``, :mod:`arena.world.srd_bestiary`,
read lazily through its index). An imported block whose name a hand-written one has is ``srd/<name>``
(``srd/troll``); ``srd/`` works before any imported name. A user's file may define a creature with a built-in's
name (``arena bestiary import`` of the SRD troll writes ``troll.yaml``): it replaces the built-in for that command,
with a ``warning:`` line on stderr naming both; two of the user's files defining one name is still an error.
"""

from __future__ import annotations

import difflib
import os
import stat
import sys
from collections.abc import Callable, Collection, Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from arena.errors import ArenaError, nearest
from arena.labels import printable
from arena.limits import MAX_FILES_PER_FOLDER, MAX_NAME_LENGTH
from arena.world.creatures import Creature
from arena.world.srd_bestiary import PREFIX as SRD_PREFIX
from arena.world.srd_bestiary import srd_creature, srd_names
from arena.world.typical import parse_typical_name, typical_named, typical_names
from arena.world.yamlio import YamlValidationError, display_name, iter_models, load_yaml

BUILTIN_PACKAGE = "arena.bestiary_data"
YAML_SUFFIXES = (".yaml", ".yml")
MAX_FOLDER_ENTRIES = 20 * MAX_FILES_PER_FOLDER
"""Entries of any kind (files, folders, links) looked at below one named folder before giving up: naming ``/`` or a
home folder by mistake is refused quickly instead of walking the whole disk for YAML files."""


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
        root = Path(__file__).resolve().parents[2] / "bestiary"
    return sorted((f for f in root.iterdir() if f.name.endswith(YAML_SUFFIXES)), key=lambda f: f.name)


def _shown(path: object) -> str:
    text = str(path)
    return text if len(text) <= 120 else f"{text[:60]}...({len(text):,} characters)"


def _is_regular(path: Path) -> bool:
    """A regular file (through symbolic links): not a pipe, device, socket, folder or dangling link."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def _yaml_files_below(folder: Path) -> list[Path]:
    """Every regular ``*.yaml``/``*.yml`` file below ``folder`` (sorted), without following linked folders; pipes,
    devices and sockets are skipped. More than :data:`~arena.limits.MAX_FILES_PER_FOLDER` files, or more than
    :data:`MAX_FOLDER_ENTRIES` entries looked at, is an ArenaError."""
    found: list[Path] = []
    seen = 0

    def unreadable(err: OSError) -> None:
        raise ArenaError(f"{_shown(err.filename or folder)}: cannot read the folder ({err.strerror})")

    for root, dirs, files in os.walk(folder, onerror=unreadable):
        seen += len(dirs) + len(files)
        if seen > MAX_FOLDER_ENTRIES:
            raise ArenaError(
                f"{_shown(folder)}: more than {MAX_FOLDER_ENTRIES:,} files and folders below it (the "
                "limit): name the folder that holds the stat blocks"
            )
        for name in files:
            path = Path(root, name)
            if path.suffix in YAML_SUFFIXES and _is_regular(path):
                found.append(path)
                if len(found) > MAX_FILES_PER_FOLDER:
                    raise ArenaError(
                        f"{_shown(folder)}: more than {MAX_FILES_PER_FOLDER:,} YAML files (the limit for one folder)"
                    )
    return sorted(found)


def expand_paths(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files named directly plus every ``*.yaml``/``*.yml`` below named folders (sorted). A missing path, one that
    cannot be read, or one that is not a regular file or folder (a pipe, a device) is an ArenaError."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            raise ArenaError(f"{_shown(p)}: no such file or folder") from None
        except OSError as err:
            raise ArenaError(f"{_shown(p)}: cannot read ({err.strerror})") from None
        except ValueError:  # an embedded NUL
            raise ArenaError(f"{_shown(p)}: not a file name (it holds a NUL character)") from None
        if stat.S_ISDIR(mode):
            out.extend(_yaml_files_below(path))
        elif stat.S_ISREG(mode):
            out.append(path)
        else:
            raise ArenaError(f"{_shown(p)}: not a regular file or folder (a device, pipe or socket)")
    return out


_WARNED: set[str] = set()


def _warn(message: str) -> None:
    """One ``warning:`` line on stderr, once per process (a command may load the same files more than once)."""
    if message not in _WARNED:
        _WARNED.add(message)
        print(f"warning: {printable(message, limit=2000)}", file=sys.stderr)


def _read(
    files: Iterable,
    builtin: bool,
    into: dict[str, Creature],
    origin: dict[str, str],
    problems: list[str] | None,
    known_policies: Collection[str] | None = None,
    summons: list[tuple[str, str]] | None = None,
    on_file: Callable[[], None] | None = None,
    replaceable: set[str] | None = None,
) -> None:
    """Load each file's creatures into ``into``; ``problems`` collects errors instead of raising. With
    ``known_policies``, a ``tactics`` name outside it is a problem too (at its line); ``summons`` collects what each
    creature summons (the name, and where it is written); ``on_file`` is called after each file (progress).
    A name in ``replaceable`` (the built-ins') is replaced once, with a warning, and taken out of it: a second
    definition is a duplicate."""
    for file in files:
        if on_file is not None:
            on_file()
        source = f"bestiary/{file.name}" if builtin else display_name(file)
        try:
            doc = load_yaml(file, source)
            for creature, path in iter_models(doc, Creature):
                key = normalise(creature.name)
                where = doc.where((*path, "name"))
                if key in into and replaceable is not None and key in replaceable:
                    replaceable.discard(key)
                    _warn(
                        f"{where}: {creature.name!r} replaces the built-in creature of that name "
                        f"({origin[key]}) in this command"
                    )
                elif key in into:
                    raise ArenaError(
                        f"{where}: duplicate creature name {creature.name!r} (also defined at {origin[key]})"
                    )
                if parse_typical_name(key) is not None:
                    raise ArenaError(f"{where}: the name {creature.name!r} is reserved for typical monsters")
                if known_policies is not None and creature.tactics not in known_policies:
                    field = (*path, "tactics")
                    raise ArenaError(
                        f"{doc.where(field)}: tactics: " + nearest(creature.tactics, sorted(known_policies), "policy")
                    )
                into[key] = creature
                origin[key] = where
                summon = getattr(creature, "summon", None)  # the field of arena.abilities.summon
                if summons is not None and summon is not None:
                    at = (*path, "summon", "creature")
                    summons.append((summon.creature, f"{doc.where(at)}: {'.'.join(map(str, at))}"))
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

    A file's creature with a built-in's name replaces it (a ``warning:`` line on stderr says so); a name defined
    twice in the files is an ArenaError naming both places.
    """
    builtin, origin = _builtin()
    into, origin = dict(builtin), dict(origin)
    _read(expand_paths(extra_paths), False, into, origin, None, replaceable=set(builtin))
    return into


def check_files(
    paths: Iterable[str | os.PathLike] = (),
    known_policies: Collection[str] | None = None,
    on_file: Callable[[int], Callable[[], None]] | None = None,
) -> tuple[int, list[str]]:
    """Validate stat-block files without stopping at the first error: (creatures checked, problems).

    With no ``paths`` the built-in files are checked. Otherwise the given files and folders are, and a name
    defined in two given files is reported, as :func:`load_bestiary` would (one that replaces a built-in's is a
    warning), and so is a summoned name that no stat block holds (in a fight nothing would come).
    ``known_policies`` (the fight layer's registry, passed by ``arena bestiary validate``) also checks each
    creature's ``tactics`` name. ``on_file(count)`` is told how many files there are and returns what to call after
    each (a progress bar).
    """
    paths = list(paths)
    into: dict[str, Creature] = {}
    origin: dict[str, str] = {}
    problems: list[str] = []
    summons: list[tuple[str, str]] = []
    if not paths:
        files = builtin_files()
        _read(files, True, into, origin, problems, known_policies, summons, on_file(len(files)) if on_file else None)
        return len(into), problems + unknown_summons(summons, into)
    builtin, builtin_origin = _builtin()
    into, origin = dict(builtin), dict(builtin_origin)
    try:
        files = expand_paths(paths)
    except ArenaError as err:
        return 0, [str(err)]
    replaceable = set(builtin)
    _read(
        files,
        False,
        into,
        origin,
        problems,
        known_policies,
        summons,
        on_file(len(files)) if on_file else None,
        replaceable,
    )
    replaced = len(builtin) - len(replaceable)
    return len(into) - len(builtin) + replaced, problems + unknown_summons(summons, into)


def unknown_summons(summons: Iterable[tuple[str, str]], book: dict[str, Creature]) -> list[str]:
    """A problem, where it is written, for each summoned name that ``book`` (the built-ins plus the files), the
    typical monsters and the imported SRD bestiary do not hold."""
    problems: list[str] = []
    for name, where in summons:
        try:
            get_creature(name, book)
        except ArenaError as err:
            problems.append(f"{where}: {err}")
    return problems


def creature_names(bestiary: dict[str, Creature] | None = None) -> list[str]:
    """Names of the creatures in ``bestiary`` (default: the built-in one), sorted."""
    return sorted(bestiary if bestiary is not None else _builtin()[0])


def get_creature(name: str, bestiary: dict[str, Creature] | None = None) -> Creature:
    """The creature called ``name`` (case-insensitive), or the typical monster for ``typical-crN``.

    Unknown names raise ArenaError suggesting the nearest names.
    """
    if not isinstance(name, str) or not name.strip():
        raise ArenaError("no creature name given; see `arena bestiary list`")
    if len(name) > MAX_NAME_LENGTH:
        raise ArenaError(
            f"creature name {name[:40]!r}... is {len(name):,} characters long; names are at most {MAX_NAME_LENGTH}"
        )
    key = normalise(name)
    book = bestiary if bestiary is not None else _builtin()[0]
    if key in book and not key.startswith(SRD_PREFIX):
        return book[key]
    typical = typical_named(key)
    if typical is not None:
        return typical
    imported = srd_creature(key)
    if imported is not None:
        return imported
    candidates = list(dict.fromkeys([*book, *typical_names(), *srd_names()]))
    near = difflib.get_close_matches(key, candidates, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(near)}?" if near else "; see `arena bestiary list`"
    raise ArenaError(f"unknown creature {name!r}{hint}")
