"""docs/architecture.md lists every module of the `arena` package with its job: the map and the code cannot drift.

Every ``*.py`` file under ``arena/`` counts, ``__init__.py`` and ``__main__.py`` included (each package's
``__init__.py`` is listed in its package's room, with what it holds or that it holds no code). The page's "Rooms"
section names them in the form it uses: a heading per package that names its folder (``### `arena/world/` ``, the
ground is ``### Ground: `arena/` ``), then one line per module, ``- `text.py`: its job.``. So the module
``arena/srd/text.py`` is the line ``text.py`` under the heading of ``arena/srd/``.

The tests fail, naming the modules, when a module is missing from the page, when the page lists one that does not
exist (or lists it twice), and when any file path the page names anywhere (``arena/...py``, ``tests/...py``) is
gone.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "arena"

HEADING = re.compile(r"^### .*?`(arena/(?:\w+/)*)`")
"""A room's heading: the package folder it lists, e.g. ``arena/world/``."""
ENTRY = re.compile(r"^- `(\w+\.py)`: \S")
"""A module's line: its file name, then its job."""
PATH = re.compile(r"(?<![\w./-])((?:arena|tests|benchmarks)/[\w./-]*\w\.py)\b")
"""A file path named anywhere on the page."""
BARE = re.compile(r"`(\w+\.py)`")
"""A file name in backquotes, anywhere on the page."""


def modules() -> list[str]:
    """Every module of the package, as its path from the repository root (``arena/srd/text.py``)."""
    return sorted(p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def rooms_section(text: str) -> list[str]:
    """The lines of the page's "Rooms" section (up to the next ``## `` heading)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("## Rooms"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start + 1 : end]


def listed() -> list[str]:
    """The modules the page lists, as paths from the repository root, in the order (and as often as) it lists them."""
    found, package = [], None
    for line in rooms_section(DOC.read_text(encoding="utf-8")):
        if line.startswith("### "):
            heading = HEADING.match(line)
            assert heading, f"docs/architecture.md: a room's heading names no package folder: {line!r}"
            package = heading.group(1)
            continue
        entry = ENTRY.match(line)
        if entry:
            assert package, f"docs/architecture.md: a module listed before any room's heading: {line!r}"
            found.append(package + entry.group(1))
    return found


def test_every_module_is_on_the_page_and_every_listed_module_exists():
    actual = set(modules())
    pages = listed()
    missing = sorted(actual - set(pages))
    stale = sorted(set(pages) - actual)
    twice = sorted(name for name, count in Counter(pages).items() if count > 1)
    problems = []
    if missing:
        problems.append(
            "missing from docs/architecture.md (add a line `- `name.py`: its job.` under its "
            "package's heading):\n  " + "\n  ".join(missing)
        )
    if stale:
        problems.append("listed in docs/architecture.md but no such module:\n  " + "\n  ".join(stale))
    if twice:
        problems.append("listed more than once in docs/architecture.md:\n  " + "\n  ".join(twice))
    assert not problems, "\n".join(problems)


def test_every_file_the_page_names_exists():
    text = DOC.read_text(encoding="utf-8")
    gone = sorted({path for path in PATH.findall(text) if not (ROOT / path).is_file()})
    known = {p.name for folder in ("arena", "tests", "benchmarks") for p in (ROOT / folder).rglob("*.py")}
    known |= {p.name for p in ROOT.glob("*.py")}  # setup.py
    unknown = sorted({name for name in BARE.findall(text) if name not in known})
    assert not gone and not unknown, "docs/architecture.md names files that do not exist:\n  " + "\n  ".join(
        gone + unknown
    )
