"""The example scenario files that ship in the package, listed and copied out.

The repository's ``scenarios/`` folder ships inside the package as ``arena.scenarios_data`` (as ``bestiary/`` ships
as ``arena.bestiary_data``), so that the README's recipes work after a plain ``pip install``, outside a clone:
``arena scenario copy reference`` writes ``reference.yaml`` into the current folder. A file is copied with the files
it names (a suite's scenario files, a scenario's policy files), so that the copy runs as it is.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from arena.errors import ArenaError, nearest

PACKAGE = "arena.scenarios_data"
SUFFIX = ".yaml"


@dataclass(frozen=True)
class Example:
    """One shipped example file: its name (the file name without ``.yaml``), what it is for (its first comment
    line, up to the first colon or full stop), the scenarios it holds, and every file a copy writes (itself first,
    as paths relative to the shipped folder)."""

    name: str
    summary: str
    scenarios: tuple[str, ...]
    files: tuple[str, ...]
    kind: str
    """``scenarios`` (a scenario file) or ``suite`` (a regression suite for ``arena check``)."""


def shipped_root() -> Traversable:
    """The shipped examples' folder: the installed package, or the repository's ``scenarios/`` when a source tree
    shadows an installed package that lacks it (``python -m arena`` in a clone, as the bestiary does)."""
    try:
        return resources.files(PACKAGE)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[3] / "scenarios"


def _summary(text: str) -> str:
    """The first comment line's first clause: enough to tell the examples apart in a list."""
    for line in text.splitlines():
        if line.startswith("#"):
            first = line.lstrip("#").strip()
            for stop in (": ", ". "):
                if stop in first:
                    first = first.split(stop, 1)[0]
            return first.rstrip(".")
        if line.strip():
            break
    return ""


def _named_files(doc: Any) -> list[str]:
    """The files a shipped document names relative to itself: a suite's ``checks[].file``, a scenario's
    ``policies`` and ``bestiary`` files."""
    named: list[str] = []
    if isinstance(doc, dict) and isinstance(doc.get("checks"), list):
        named += [check["file"] for check in doc["checks"] if isinstance(check, dict) and "file" in check]
    for scenario in doc if isinstance(doc, list) else [doc]:
        if not isinstance(scenario, dict):
            continue
        for field in ("policies", "bestiary"):
            paths = scenario.get(field)
            named += [str(path) for path in (paths if isinstance(paths, list) else [paths] if paths else [])]
    return named


def _read(root: Traversable, relative: str) -> tuple[str, Any]:
    text = root.joinpath(*PurePosixPath(relative).parts).read_text(encoding="utf-8")
    return text, yaml.safe_load(text)


def _with_dependencies(root: Traversable, name: str) -> tuple[str, ...]:
    """The file and, recursively, every shipped file it names (each once, in the order found)."""
    order: list[str] = []
    waiting = [name]
    while waiting:
        relative = waiting.pop(0)
        if relative in order:
            continue
        order.append(relative)
        if relative.endswith(SUFFIX):
            _, doc = _read(root, relative)
            base = PurePosixPath(relative).parent
            waiting += [(base / path).as_posix() for path in _named_files(doc) if not PurePosixPath(path).is_absolute()]
    return tuple(order)


def list_examples() -> list[Example]:
    """Every shipped example, sorted by name."""
    root = shipped_root()
    found = []
    for entry in sorted(root.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(SUFFIX) or not entry.is_file():
            continue
        text, doc = _read(root, entry.name)
        is_suite = isinstance(doc, dict) and "checks" in doc
        scenarios = () if is_suite else tuple(s["name"] for s in (doc if isinstance(doc, list) else [doc]))
        found.append(
            Example(
                name=entry.name.removesuffix(SUFFIX),
                summary=_summary(text),
                scenarios=scenarios,
                files=_with_dependencies(root, entry.name),
                kind="suite" if is_suite else "scenarios",
            )
        )
    return found


def find_example(name: str) -> Example:
    """The shipped example called ``name`` (``reference`` or ``reference.yaml``), or an ArenaError naming the
    nearest ones."""
    examples = {example.name: example for example in list_examples()}
    key = name.removesuffix(SUFFIX)
    if key not in examples:
        raise ArenaError(nearest(name, examples, "example scenario") + "; `arena scenario list` shows them")
    return examples[key]


def copy_examples(names: list[str], to: Path, *, force: bool = False) -> list[Path]:
    """Copy the named examples, with the files they name, into ``to`` (created if missing); returns the paths
    written. Nothing is written when any target exists (unless ``force``) or is not a regular file: a link there is
    refused, even with ``force``, never written through."""
    root = shipped_root()
    wanted: list[str] = []
    for name in names:
        wanted += [f for f in find_example(name).files if f not in wanted]
    targets = [(relative, to.joinpath(*PurePosixPath(relative).parts)) for relative in wanted]
    for _, target in targets:
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise ArenaError(f"{target}: not a regular file; the example is not copied over it")
        if target.exists() and not force:
            raise ArenaError(f"{target}: already exists (add --force to replace it); nothing was copied")
    written = []
    for relative, target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        data = root.joinpath(*PurePosixPath(relative).parts).read_bytes()
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)
        written.append(target)
    return written
