"""docs/cli.md is the `arena` command's own help, and stays so: a command or option added, removed or changed without
regenerating the page fails here, with the command that regenerates it (as sqlite-utils holds its docs with cog)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from arena.cli import reference

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "cli.md"


def _sections(text: str) -> dict[str, str]:
    """The page's text under each command's heading (``## `arena run` ``), by command path."""
    found: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        heading = re.match(r"^#{2,4} `(arena[^`]*)`$", line)
        if heading:
            current = heading.group(1)
            found[current] = ""
        elif current is not None:
            found[current] += line + "\n"
    return found


def test_the_page_is_what_the_commands_say():
    page = PAGE.read_text(encoding="utf-8")
    generated = reference.render()
    if page != generated:
        diff = "".join(
            list(
                difflib.unified_diff(
                    page.splitlines(keepends=True), generated.splitlines(keepends=True), "docs/cli.md", "the commands"
                )
            )[:60]
        )
        raise AssertionError(
            f"docs/cli.md differs from the commands' help: regenerate it with `{reference.COMMAND}`\n{diff}"
        )


def test_every_command_argument_and_option_is_on_the_page_with_its_help():
    """Walked apart from the generator: each visible command has its heading, and each of its parameters its names
    and a help text of its own (an option without help is undocumented, whatever the page says)."""
    sections = _sections(PAGE.read_text(encoding="utf-8"))
    command, context = reference.root()
    seen = 0
    for sub, ctx in reference.walk(command, context):
        path = ctx.command_path
        assert path in sections, f"`{path}` has no section in docs/cli.md (`{reference.COMMAND}`)"
        assert (sub.help or "").strip(), f"`{path}` has no help text: give its function a docstring"
        for param in sub.get_params(ctx):
            if getattr(param, "hidden", False) or param.name == "help":
                continue
            names = [*param.opts, *getattr(param, "secondary_opts", [])]
            if param.param_type_name == "argument":
                names = [param.name]
            assert (getattr(param, "help", None) or "").strip(), f"`{path}` {names[0]} has no help text"
            for name in names:
                assert f"{name}" in sections[path], f"`{path}` {name} is not in its section of docs/cli.md"
        seen += 1
    assert seen == len(sections), "docs/cli.md has sections for commands that do not exist"
    assert {"arena run", "arena odds attack", "arena scenario copy", "arena bestiary import"} <= set(sections)


def test_help_text_is_escaped_for_markdown_but_code_is_kept():
    assert reference._markdown("scenarios/*.yaml and `a_b*c` [x] <y>") == (
        r"scenarios/\*.yaml and `a_b*c` \[x\] &lt;y>"
    )
