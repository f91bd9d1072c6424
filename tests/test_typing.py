"""mypy, configured in pyproject.toml's [tool.mypy]: the rules and study layers are clean, and the rest of the package
has at most the errors counted in tests/mypy-baseline.txt, module by module, so the count only shrinks.

One ``mypy arena`` run serves both tests (about 15 s of CPU with a cold cache, a second or two with a warm one). It
keeps its cache in the repository's ``.mypy_cache`` (git-ignored), the one ``mypy arena`` run by hand uses too.

When a module's count drops, the baseline test fails until the file is lowered to match, so it stays tight:

    python tests/test_typing.py        # rewrites tests/mypy-baseline.txt; refuses to raise any count
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "tests" / "mypy-baseline.txt"
CLEAN = (
    "arena/rules/",
    "arena/study/",
    "arena/combat/",
    "arena/abilities/",
    "arena/dice.py",
    "arena/engine_build.py",
    "arena/world/spellbook.py",
)
"""Folders and modules that must have no mypy error at all (they are not in the baseline): every module setup.py
compiles with mypyc among them (mypyc refuses a module with an error)."""
_ERROR = re.compile(r"^(?P<path>[^:\n]+\.py):\d+(?::\d+)?: error: ", re.MULTILINE)
HEADER = """\
# mypy errors per module of the package: `mypy arena` (its configuration is pyproject.toml's [tool.mypy]).
# tests/test_typing.py fails when a module has more errors than listed here, and when it has fewer until this file
# is lowered to match: the counts only shrink. A module not listed has none. Lower it with
#     python tests/test_typing.py
# Counted by mypy {version}.
"""


def run_mypy() -> tuple[str, dict[str, list[str]]]:
    """``mypy arena`` from the repository root: (mypy's whole report, the error lines by file path)."""
    from mypy import api

    here = os.getcwd()
    os.chdir(ROOT)  # mypy finds pyproject.toml and names files relative to where it runs
    try:
        stdout, stderr, status = api.run(["arena"])
    finally:
        os.chdir(here)
    if status not in (0, 1) or stderr.strip():
        raise RuntimeError(f"mypy did not finish its check (exit status {status}):\n{stderr}\n{stdout}")
    errors: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        found = _ERROR.match(line)
        if found:
            errors.setdefault(Path(found["path"]).as_posix(), []).append(line)
    return stdout, errors


def read_baseline() -> Counter[str]:
    counts: Counter[str] = Counter()
    for number, line in enumerate(BASELINE.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        path, _, count = line.rpartition(" ")
        if not path or not count.isdigit():
            raise ValueError(f"{BASELINE.name}, line {number}: write a module's path and its count, not {line!r}")
        counts[path.strip()] = int(count)
    return counts


def write_baseline(counts: Counter[str]) -> None:
    from mypy.version import __version__

    lines = [f"{path} {count}" for path, count in sorted(counts.items()) if count]
    BASELINE.write_text(HEADER.format(version=__version__) + "\n".join(lines) + "\n", encoding="utf-8")


def _version_note() -> str:
    """A hint when the installed mypy is not the one that counted the baseline (another mypy counts differently)."""
    from mypy.version import __version__

    found = re.search(r"Counted by mypy (\S+)\.", BASELINE.read_text(encoding="utf-8"))
    if found and found[1] != __version__:
        return (
            f"\n(the baseline was counted by mypy {found[1]}, this is mypy {__version__}: install the test "
            "extra's versions with `pip install -e .[test]`)"
        )
    return ""


@pytest.fixture(scope="module")
def mypy_errors() -> dict[str, list[str]]:
    pytest.importorskip("mypy", reason="mypy is part of the test extra: pip install -e .[test]")
    return run_mypy()[1]


def test_the_rules_layer_has_no_mypy_error(mypy_errors):
    found = [line for path, lines in sorted(mypy_errors.items()) if path.startswith(CLEAN) for line in lines]
    assert not found, (
        f"mypy finds {len(found)} errors in {', '.join(CLEAN)}, which must have none:\n"
        + "\n".join(found)
        + _version_note()
    )


def test_no_module_has_more_mypy_errors_than_its_baseline(mypy_errors):
    baseline = read_baseline()
    assert not [path for path in baseline if path.startswith(CLEAN)], f"{', '.join(CLEAN)} must stay at no error"
    counts = Counter({path: len(lines) for path, lines in mypy_errors.items() if not path.startswith(CLEAN)})
    rose = sorted(path for path in counts if counts[path] > baseline[path])
    dropped = sorted(path for path in baseline if counts[path] < baseline[path])
    if rose:
        shown = "\n".join(
            f"{path}: {counts[path]} errors, the baseline allows {baseline[path]}:\n  " + "\n  ".join(mypy_errors[path])
            for path in rose
        )
        pytest.fail(
            f"mypy finds more errors than tests/mypy-baseline.txt allows (fix the new ones; the "
            f"baseline only shrinks):\n{shown}{_version_note()}"
        )
    if dropped:
        shown = "\n".join(f"  {path}: {baseline[path]} -> {counts[path]}" for path in dropped)
        pytest.fail(
            "fewer mypy errors than tests/mypy-baseline.txt lists, well done: lower the baseline to match "
            f"with `python tests/test_typing.py` (and commit it), so it stays tight:\n{shown}"
            f"{_version_note()}"
        )


def main() -> int:
    """Rewrite the baseline from a fresh ``mypy arena``: counts may drop, never rise."""
    _, errors = run_mypy()
    clean = sorted(path for path in errors if path.startswith(CLEAN))
    counts = Counter({path: len(lines) for path, lines in errors.items() if not path.startswith(CLEAN)})
    old = read_baseline() if BASELINE.exists() else None
    rose = [path for path in counts if old is not None and counts[path] > old[path]]
    if clean or rose:
        for path in clean + sorted(rose):
            print("\n".join(errors[path]), file=sys.stderr)
        print(
            f"not written: {', '.join(clean + sorted(rose))} gained errors (fix them; {', '.join(CLEAN)} has none "
            "and the baseline only shrinks). A count that must rise (a new mypy) is an edit by hand, said in the "
            "commit.",
            file=sys.stderr,
        )
        return 1
    write_baseline(counts)
    print(f"wrote {BASELINE.relative_to(ROOT)}: {sum(counts.values())} errors in {len(counts)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def test_every_module_setup_py_compiles_is_held_clean():
    """mypyc compiles only a module mypy passes: each module of setup.py's ENGINE is under :data:`CLEAN`."""
    engine = re.findall(r'"(arena/[\w/]+\.py)"', (ROOT / "setup.py").read_text(encoding="utf-8"))
    assert len(engine) > 40
    assert [path for path in engine if not path.startswith(CLEAN)] == []
