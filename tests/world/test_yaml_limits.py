"""Reading YAML a user wrote: limits on size, kind of file, characters, nesting and alias expansion, each an
ArenaError naming the file and line, never a traceback, a hang or gigabytes of memory (issue: hostile input)."""

from __future__ import annotations

import re

import pytest

from arena.errors import ArenaError
from arena.limits import MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES
from arena.world.yamlio import load_yaml, parse_yaml


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The billion laughs: each anchor a list of ``width`` aliases of the one before (9**9 = 387 million values)."""
    lines = ["a0: &a0 [" + ", ".join(["x"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_quickly():
    with pytest.raises(ArenaError, match=r"bomb.yaml:\d+: the document expands to more than 100,000 values"):
        parse_yaml(alias_bomb(), "bomb.yaml")


def test_aliases_within_the_limit_still_work():
    doc = parse_yaml("base: &b {hp: 5}\ncopy: *b\n")
    assert doc.data == {"base": {"hp": 5}, "copy": {"hp": 5}}


def test_the_node_budget_counts_expanded_values(monkeypatch):
    import arena.world.yamlio

    monkeypatch.setattr(arena.world.yamlio, "MAX_YAML_NODES", 1000)  # the same rule at a size a test reads fast
    assert len(parse_yaml("\n".join(f"k{i}: v" for i in range(990))).data) == 990
    with pytest.raises(ArenaError, match="expands to more than 1,000 values"):
        parse_yaml("\n".join(f"k{i}: v" for i in range(1010)))
    with pytest.raises(ArenaError, match="expands to more than 1,000 values"):
        parse_yaml("a: &a [" + ", ".join(["x"] * 40) + "]\nb: [" + ", ".join(["*a"] * 40) + "]\n")
    assert MAX_YAML_NODES == 100_000


@pytest.mark.parametrize("depth", [MAX_YAML_DEPTH + 1, 900, 10_000])
def test_deep_nesting_is_refused_with_a_line(depth):
    with pytest.raises(ArenaError, match=rf"deep.yaml:1: nested more than {MAX_YAML_DEPTH} levels deep"):
        parse_yaml("a: " + "[" * depth + "]" * depth + "\n", "deep.yaml")


def test_nesting_up_to_the_limit_is_read():
    depth = MAX_YAML_DEPTH - 1
    assert parse_yaml("[" * depth + "]" * depth).data is not None


@pytest.mark.parametrize("char, code", [("\x00", "U+0000"), ("\x01", "U+0001"), ("\x1b", "U+001B"), ("\x7f", "U+007F")])
def test_control_characters_name_their_line(char, code):
    with pytest.raises(ArenaError, match=re.escape(f"c.yaml:3: a control character ({code})")):
        parse_yaml(f"name: x\nparty: 1\nmonsters: [o{char}rc]\n", "c.yaml")


def test_files_that_are_not_regular_files(tmp_path):
    with pytest.raises(ArenaError, match="is a system file"):
        load_yaml("/dev/zero")
    with pytest.raises(ArenaError, match="is a system file"):
        load_yaml("/proc/self/environ")
    with pytest.raises(ArenaError, match="is a folder"):
        load_yaml(tmp_path)
    with pytest.raises(ArenaError, match="no such file"):
        load_yaml(tmp_path / "missing.yaml")
    fifo = tmp_path / "pipe.yaml"
    import os

    os.mkfifo(fifo)
    with pytest.raises(ArenaError, match="not a regular file"):
        load_yaml(fifo)  # opening a FIFO for reading would block: it must not
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    with pytest.raises(ArenaError, match="loop.yaml"):
        load_yaml(loop)


def test_a_huge_file_is_refused_without_reading_it(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES * 50)  # a sparse 200 MiB file
    with pytest.raises(ArenaError, match="larger than 4,096 KiB"):
        load_yaml(big)


def test_invalid_utf8_names_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: x\nparty: \xff\xfe\n")
    with pytest.raises(ArenaError, match="bad.yaml:2: not UTF-8"):
        load_yaml(bad)


@pytest.mark.parametrize(
    "text",
    [
        "when: 2024-13-45\n",
        "a: !!python/object:os.system ls\n",
        "? [a]\n: 1\n",
        "a: 1\n---\nb: 2\n",
        "<<: {a: 1}\n",
        "a: *nowhere\n",
        "a: [\n",
        "a: 1\na: 2\n",
        "x: !!binary '%%%'\n",
        "n: 1e400\n",
    ],
)
def test_odd_yaml_is_an_arena_error(text):
    try:
        parse_yaml(text, "odd.yaml")
    except ArenaError as err:
        assert str(err).startswith("odd.yaml:")
