"""The README's promises hold: every `arena` command it shows parses against the real command line (its options and
sub-commands exist, its values are of the right kind), the cheap ones run from a folder outside the clone on the
example files `arena scenario copy` writes there, and every version it or the docs name is `arena.__version__`."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

import arena
from arena.cli import main
from arena.cli.reference import root

try:  # typer 0.2x carries its own copy of click
    from typer import _click as click
except ImportError:  # pragma: no cover
    import click  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_commands() -> list[str]:
    """Every `arena ...` command line in the README's indented code blocks (`python -m arena ...` as `arena ...`)."""
    found = []
    for line in README.splitlines():
        command = (
            re.sub(r"^    (python -m pip install \S+ && )?(python -m )?", "", line) if line.startswith("    ") else ""
        )
        if command.startswith("arena "):
            found.append(command.split("  #")[0].strip())
    return found


def recipes() -> list[str]:
    start, end = README.index("--8<-- [start:recipes]"), README.index("--8<-- [end:recipes]")
    return [line.strip() for line in README[start:end].splitlines() if line.startswith("    arena ")]


CHEAP = ("arena scenario ", "arena odds ", "arena fight ")
"""Recipes run for real here (a second or two of CPU each); the rest fight thousands of encounters and are parsed."""


def parse(line: str) -> dict:
    """The parameters `line` gives its command, as the command line would read them (without running it)."""
    args = shlex.split(line)[1:]
    command, context = root()
    while hasattr(command, "list_commands"):
        name, args = args[0], args[1:]
        found = command.get_command(context, name)
        assert found is not None, f"README: `{line}`: no command {name!r}"
        command, context = found, click.Context(found, info_name=name, parent=context)
    return command.make_context(context.info_name, args, parent=context.parent).params


def test_the_readme_shows_five_recipes_and_its_two_commands_first():
    assert README.splitlines()[2:4] == [
        "    python -m pip install . && python -P -m arena claims --quick",
        '    python -m pip install ".[test]" && python -m pytest',
    ]
    titles = re.findall(r"^\*\*(.+?)\*\*", README[README.index("## Five recipes") :], flags=re.M)
    assert titles[:5] == [
        "Is my monster really CR N?",
        "Run my scenario.",
        "Compare rule sets, and report.",
        "Regression check.",
        "Exact odds.",
    ]
    shown = " ".join(recipes())
    for command in ("arena calibrate", "arena run", "arena report", "arena compare", "arena check", "arena odds"):
        assert command in shown, f"the README's recipes no longer show `{command}`"


@pytest.mark.parametrize("line", readme_commands())
def test_every_readme_command_parses(line):
    try:
        parse(line)
    except click.exceptions.UsageError as err:
        pytest.fail(f"README: `{line}`: {err.format_message()}")


def test_the_recipes_run_outside_the_clone(tmp_path, monkeypatch, capsys):
    """In an empty folder, in the README's order: the copies write the files the later recipes name, and the cheap
    recipes (copies, one fight, exact odds) run to exit 0."""
    monkeypatch.chdir(tmp_path)
    for line in recipes():
        if line.startswith(CHEAP):
            with pytest.raises(SystemExit) as done:
                main(shlex.split(line)[1:])
            assert done.value.code == 0, f"README: `{line}` exited {done.value.code}: {capsys.readouterr().err}"
        for word in shlex.split(line):
            if word.endswith(".yaml"):
                assert (tmp_path / word).is_file(), f"README: `{line}` names {word}, which no recipe before it wrote"
    out = capsys.readouterr().out
    assert "winner:" in out and "hit" in out


VERSION = re.compile(r"d20 Arena (\d[\w.]*\w)")
"""How the README and the docs name the package's version (`arena --version` prints `d20 Arena VERSION ...`)."""


def test_every_version_the_readme_and_the_docs_name_is_the_package_version():
    pages = {"README.md": README} | {
        f"docs/{path.name}": path.read_text(encoding="utf-8") for path in (ROOT / "docs").glob("*.md")
    }
    named = {(page, version) for page, text in pages.items() for version in VERSION.findall(text)}
    wrong = sorted((page, version) for page, version in named if version != arena.__version__)
    assert not wrong, f"these pages name another version than arena.__version__ ({arena.__version__}): {wrong}"
    assert ("README.md", arena.__version__) in named, "the README no longer says which version it describes"


def test_the_package_version_is_written_once_and_is_the_changelogs_next_release():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "arena.__version__"}
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+(?:\.\d+)*)\]", changelog, flags=re.M)
    unreleased = re.search(r"^## \[Unreleased\]\n(.*?)^## \[", changelog, flags=re.M | re.S)
    assert unreleased and releases, "CHANGELOG.md: no [Unreleased] section before the releases"
    number = tuple(int(part) for part in re.match(r"\d+(?:\.\d+)*", arena.__version__).group().split("."))
    latest = tuple(int(part) for part in releases[0].split("."))
    if unreleased.group(1).strip():  # work after the last release: a development version of the next one
        assert number > latest and ".dev" in arena.__version__, (
            f"CHANGELOG.md has unreleased work after {releases[0]}: arena.__version__ ({arena.__version__}) should be "
            "a .dev version of the next release"
        )
    else:
        assert number == latest, f"arena.__version__ {arena.__version__} is not the last release, {releases[0]}"
