"""`arena bestiary import` given hostile text: every pattern in linear time (the work bounded in a child process by
its CPU, never by the clock), only regular files of at most 4 MiB, text that is UTF-8 or says what it is, numbers
of any length a problem of one creature, writes that never follow a link nor replace a file without --force."""

from __future__ import annotations

import codecs
import errno
import os
import re
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import arena.srd.importer as srd_import
import arena.srd.sources as sources
from arena.errors import ArenaError
from arena.limits import (
    MAX_FILE_BYTES,
    MAX_IMPORT_ABILITIES,
    MAX_IMPORT_BLOCKS,
    MAX_IMPORT_DESCRIPTION_LINES,
    MAX_IMPORT_DIGITS,
    MAX_IMPORT_LINE,
)
from arena.srd.importer import decode_source, import_files, import_text, read_source
from arena.srd.text import NumberTooLarge, drop_parens, number, search_chain
from arena.world.yamlio import parse_yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_srd_import import PASTED, TROLLS  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CPU_SECONDS = 30
"""The CPU budget of a child: an honest run of each uses under 2 s (the quadratic patterns took 40 s for one
100 kB line, an hour for 1 MB)."""
HANG_SECONDS = 30 * CPU_SECONDS
"""Only a hang guard (a process that waits uses no CPU): never reached by a run that progresses, however busy the
machine is."""


def field(name: str, value: str, text: str = PASTED) -> str:
    """``text`` (the pasted ettercap) with the ``name:`` line's value replaced."""
    lines = text.split("\n")
    return "\n".join(f"{name}:\t{value}" if line.startswith(f"{name}:") else line for line in lines)


def titled(text: str, title: str) -> str:
    return text.replace("Ettercap\n", f"{title}\n", 1)


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))


def run_limited(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``args`` in a child process whose CPU time is limited (SIGXCPU kills it past the budget)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        args,
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        preexec_fn=_limit_cpu,
        timeout=HANG_SECONDS,
        check=False,
    )


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_limited([sys.executable, "-m", "arena", *args], cwd)


def errors_of(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error: ")]


# --------------------------------------------------------------------------------------------- linear time
HOSTILE_LINES = {  # the audit's lines, each about 100 kB, and the fuzzing's
    "Space/Reach": "1/" * 50_000,
    "Special Qualities": "30 ft. " * 14_300,
    "Special Attacks": "1 " * 50_000,
    "Attack": "+1/" * 33_000,
    "Full Attack": "(" * 100_000,
    "Hit Dice": "1" * 100_000,
    "Initiative": "+" + "9" * 100_000,
}


def hostile_file() -> tuple[str, list[tuple[int, str, str]]]:
    """About 1 MB: one ettercap per hostile line (and a hostile title, type line and ability description), and a
    good one at the end; with the (line, field, creature) of the problem each must give."""
    parts, expected, line = [], [], 1
    for k, (name, value) in enumerate(HOSTILE_LINES.items()):
        block = titled(field(name, value), f"Ettercap {k}")
        row = next(i for i, t in enumerate(block.split("\n")) if t.startswith(f"{name}:"))
        expected.append((line + row, name, f"Ettercap {k}"))
        parts.append(block)
        line += block.count("\n") + 1
    extra = [
        (titled(PASTED, "1" * 50_000 + "d" + "1" * 50_000), 0, "name"),
        (PASTED.replace("Medium Aberration", "Medium Aberration " + " " * 100_000 + "x"), 1, "Size/Type"),
        (
            titled(PASTED, "Ettercap Gazer")
            + "\nThe save DC against this creature's gaze is "
            + "\t" * 100_000
            + "x\n",
            PASTED.count("\n") + 1,
            "description",
        ),
    ]
    for block, row, name in extra:
        expected.append((line + row, name, ""))
        parts.append(block)
        line += block.count("\n") + 1
    parts.append(titled(PASTED, "Good Ettercap"))
    return "\n".join(parts), expected


def test_a_megabyte_of_hostile_lines_is_read_within_a_cpu_budget(tmp_path):
    text, expected = hostile_file()
    assert len(text) > 1_000_000
    (tmp_path / "hostile.txt").write_text(text)
    done = arena("bestiary", "import", "hostile.txt", "--out", "out", cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]  # not killed: a signal is negative
    errors = errors_of(done.stderr)
    for line, name, creature in expected:
        found = [e for e in errors if e.startswith(f"error: hostile.txt:{line}: {name}: line too long (")]
        assert found, (line, name, errors)
        assert creature in found[0]
    assert done.stdout == "" and "warning: wrote 1 stat block to out (1 clean);" in done.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["good-ettercap.yaml"]


PATTERN_CHILD = """
import re, sys
import arena.srd.importer as si
import arena.srd.sources as sources
sources.MAX_IMPORT_LINE = 10 ** 9             # no line bound: each pattern alone must be linear
sources.LONG_NUMBER = re.compile(r"(?!x)x")
sys.path.insert(0, {tests!r})
from test_srd_import_hostile import HOSTILE_LINES, PASTED, field, titled
for size in (100_000,):
    for name, value in HOSTILE_LINES.items():
        si.import_text(field(name, value), "x")
    for value in ("(" * size, "1" * size + "d", " " * size + "x", "a " * (size // 2) + "1"):
        si.import_text(titled(PASTED, value), "x")
        si.import_text(field("Special Attacks", "gaze, spell-like abilities, " + value), "x")
        si.import_text(PASTED + "\\nBreath Weapon (Su): " + value + "\\n", "x")
        si.import_text(PASTED + "\\nSpell-Like Abilities: " + value + "\\n", "x")
        si.import_text(PASTED.replace("Medium Aberration", "Medium Aberration " + value), "x")
print("done")
"""


def test_every_pattern_is_linear_without_the_line_bound(tmp_path):
    """The line bound is a second defence: with it off, 100 kB of each hostile token is still read in linear time
    (before, one such line of Space/Reach took 40 s of CPU)."""
    script = PATTERN_CHILD.format(tests=str(Path(__file__).resolve().parent))
    done = run_limited([sys.executable, "-c", script], tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "done", done.stderr[-2000:]


def test_a_long_line_is_a_problem_of_its_creature_and_the_others_are_read():
    text = titled(field("Special Qualities", "30 ft. " * 1000), "Long") + "\n" + titled(PASTED, "Short")
    report = import_text(text, "pasted.txt")
    [problem] = report.errors
    assert (problem.file, problem.line, problem.field, problem.creature) == (
        "pasted.txt",
        12,
        "Special Qualities",
        "Long",
    )
    assert problem.message == f"line too long (7,019 characters; the limit is {MAX_IMPORT_LINE:,})"
    assert [b.creature.name for b in report.built if b.creature] == ["short"]


def test_a_long_line_in_no_stat_block_is_reported_alone():
    report = import_text(PASTED + "\n" * 500 + "x" * 5000 + "\n", "a.txt")
    assert [str(e) for e in report.errors] == [
        f"a.txt:{PASTED.count(chr(10)) + 501}: line: line too long (5,000 characters; the limit is 4,000): not read"
    ]
    assert report.built[0].creature is not None


def test_many_refused_lines_are_one_problem_a_creature():
    """A creature whose prose holds 300 long numbers is one error (its first line, and how many more), and so are
    the long lines in no stat block; a line the next pasted block holds as a field is that block's alone."""
    numbers = "\n".join(f"Line {k} says 12345678901." for k in range(300))
    text = titled(PASTED, "First") + numbers + "\n" + titled(field("Speed", "9" * 20), "Second")
    report = import_text(text + "\n" * 500 + "\n".join(["y" * 5000] * 3), "m.txt")
    first, second, alone = (str(e) for e in report.errors)
    assert first == (
        f"m.txt:{PASTED.count(chr(10)) + 1}: description: number too large (12345678901: 11 digits; "
        "the limit is 9) (and 299 more lines of it not read) (First)"
    )
    assert second.endswith(": Speed: number too large (999999999999...: 20 digits; the limit is 9) (Second)")
    assert alone.endswith(
        ": line: line too long (5,000 characters; the limit is 4,000): not read (and 2 more lines in no stat block)"
    )


def test_a_table_cell_wrapped_past_the_bound_is_too_long():
    wrapped = TROLLS.replace(
        "| Skills: | Listen +5, Spot +6 |", "| Skills: | Listen +5,\n" + "\n".join(["x" * 1000] * 5) + " |"
    )
    report = import_text(wrapped, "t.md")
    assert any(e.field == "Skills" and e.message.startswith("field too long (") for e in report.errors)


def test_linear_helpers_read_as_the_patterns_did():
    import random

    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice("ab()(\n) x") for _ in range(rng.randint(0, 25)))
        assert drop_parens(text, " ") == re.sub(r"\(.*?\)", " ", text)
        expected = re.search(r"a(b*)x.*?\((\w*)\)", text)
        got = search_chain(text, r"a(b*)x", r"\((\w*)\)")
        assert (got.groups if got else None) == (expected.groups() if expected else None), text


# --------------------------------------------------------------------------------------------- numbers
@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("Initiative", "+{n}"),
        ("Armor Class", "{n} (+1 natural), touch 10, flat-footed 10"),
        ("Base Attack/Grapple", "+{n}/+5"),
        ("Attack", "Bite +{n} melee (1d8+2 plus poison)"),
        ("Full Attack", "Bite +5 melee ({n}d8)"),
        ("Saves", "Fort +{n}, Ref +4, Will +6"),
        ("Abilities", "Str {n}, Dex 17, Con 13, Int 6, Wis 15, Cha 8"),
        ("Challenge Rating", "{n}"),
        ("Hit Dice", "5d8+{n} (27 hp)"),
        ("Speed", "{n} ft."),
        ("Space/Reach", "{n} ft./5 ft."),
        ("Special Qualities", "Darkvision {n} ft., spell resistance {n}"),
        ("Feats", "Weapon Focus ({n})"),
    ],
)
@pytest.mark.parametrize("digits", [MAX_IMPORT_DIGITS + 1, 3900, 5000])
@pytest.mark.parametrize("screened", [True, False])
def test_a_number_too_large_is_a_problem_of_its_creature(name, value, digits, screened, monkeypatch):
    """Screened: the line is refused before it is read (a line of 5,000 digits is also too long). Not screened (the
    line bound off): each reader's number goes through one parser, and its error is the creature's, at its field."""
    if not screened:
        monkeypatch.setattr(sources, "MAX_IMPORT_LINE", 10**9)
        monkeypatch.setattr(sources, "LONG_NUMBER", re.compile(r"(?!x)x"))
    bad = titled(field(name, value.format(n="9" * digits)), "Huge Number")
    report = import_text(bad + "\n" + titled(PASTED, "Plain"), "n.txt")
    if name == "Feats" and not screened:  # a feat's name holds no number the importer reads
        assert report.errors == [] and len(report.built) == 2
        return
    [problem] = report.errors
    line = next(i for i, t in enumerate(bad.split("\n"), 1) if t.startswith(f"{name}:"))
    assert (problem.line, problem.field, problem.creature) == (line, name, "Huge Number")
    if screened and len(bad.split("\n")[line - 1]) > MAX_IMPORT_LINE:
        assert problem.message.startswith("line too long (")
    elif screened:
        assert problem.message.startswith(
            "number too large (999999999999...: " if digits > 12 else "number too large ("
        )
    else:  # the readers' own words: 'challenge rating ... does not exist' ...
        assert "Traceback" not in problem.message and "ValueError" not in problem.message
    written = [b.creature.name for b in report.built if b.creature]
    assert written == ["plain"] if screened else "plain" in written  # an unread attack leaves the block in


def test_numbers_joined_by_commas_or_spaces_are_bounded_too():
    """Nothing cut by the screen: each run of digits is short, the reader joins them (hp's thousands commas)."""
    report = import_text(field("Hit Dice", "5d8+5 (" + "1," * 1500 + "1 hp)"), "c.txt")
    [problem] = report.errors
    assert (problem.line, problem.field) == (3, "Hit Dice") and problem.message.startswith("number too large (")


def test_a_number_in_the_description_is_a_problem_of_the_creature_that_reads_it():
    text = PASTED.replace("Poison (Ex): Injury, Fortitude DC 15", "Poison (Ex): Injury, Fortitude DC " + "1" * 3000)
    report = import_text(text, "d.txt")
    [problem] = report.errors
    line = next(i for i, t in enumerate(text.split("\n"), 1) if t.startswith("Poison (Ex):"))
    assert (problem.line, problem.field) == (line, "description") and "3,000 digits" in problem.message


def test_the_central_number_reader():
    assert number("+5") == 5 and number("- 3") == -3 and number("1,200") == 1200 and number(7) == 7
    assert number("9" * MAX_IMPORT_DIGITS) == int("9" * MAX_IMPORT_DIGITS)
    with pytest.raises(NumberTooLarge, match=r"number too large \(1111111111: 10 digits; the limit is 9\)"):
        number("1" * 10)
    with pytest.raises(NumberTooLarge):
        number("1" * 100_000)  # never Python's 4,300-digit ValueError


def test_a_yaml_integer_too_large_names_file_line_and_field():
    text = "name: big\nhp: 10\nsaves:\n  fort: " + "9" * 5000 + "\n  ref: 1\n"
    with pytest.raises(ArenaError) as info:
        parse_yaml(text, "big.yaml")
    assert str(info.value) == "big.yaml:4: saves.fort: number too large (5,000 digits)"
    with pytest.raises(ArenaError, match=r"^d.yaml:2: when: cannot read the value \(month must be in 1..12\)$"):
        parse_yaml("name: x\nwhen: 2024-13-45\n", "d.yaml")


# --------------------------------------------------------------------------------------------- bounds
def test_more_stat_blocks_than_a_file_may_hold_is_refused():
    text = "\n\n".join(titled(PASTED, f"Ettercap {k}") for k in range(MAX_IMPORT_BLOCKS + 1))
    report = import_text(text, "many.txt")
    assert [str(e) for e in report.errors] == [
        f"many.txt: file: more than {MAX_IMPORT_BLOCKS:,} stat blocks (the limit for one file); split the file"
    ]
    assert report.built == []


def test_more_special_abilities_than_a_block_may_list_is_a_problem():
    many = ", ".join(f"scent {k}" for k in range(MAX_IMPORT_ABILITIES + 1))
    report = import_text(field("Special Qualities", many), "sq.txt")
    [problem] = report.errors
    assert (problem.line, problem.field) == (12, "Special Qualities")
    assert problem.message.startswith(f"{MAX_IMPORT_ABILITIES + 3} special attacks and qualities: more than")


def test_the_prose_read_with_a_block_is_bounded_and_the_cut_noted():
    text = PASTED + "\n".join(f"Filler line {k}." for k in range(MAX_IMPORT_DESCRIPTION_LINES + 10)) + "\n"
    report = import_text(text.replace("Web (Ex):", "Filler:"), "long.txt")
    built = report.built[0]
    assert built.creature is not None
    assert len(built.block.description) == min(400, MAX_IMPORT_DESCRIPTION_LINES)  # pasted blocks read 400 lines
    table = TROLLS + "\n".join(f"Filler line {k}." for k in range(MAX_IMPORT_DESCRIPTION_LINES + 10)) + "\n"
    troll = import_text(table, "t.md").built[0]
    assert len(troll.block.description) == MAX_IMPORT_DESCRIPTION_LINES
    [note] = [n for n in troll.notes if n.field == "description"]
    assert note.kind == "guess" and "the rest, from this line on, not read" in note.message


# --------------------------------------------------------------------------------------------- reading files
def test_only_regular_files_are_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.md")
    os.mkdir(tmp_path / "folder.md")
    big = tmp_path / "big.md"
    with open(big, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    cases = {
        "pipe.md": "is not a regular file (a device, pipe or socket), expected a text file of stat blocks",
        "folder.md": "is a folder, expected a text file of stat blocks",
        "big.md": "larger than 4,096 KiB, the limit for a text file of stat blocks",
        "missing.md": "no such file",
    }
    for name, message in cases.items():
        with pytest.raises(ArenaError) as info:
            read_source(tmp_path / name, name)
        assert (info.value.line, info.value.message) == (None, message)
    for system in ("/dev/zero", "/proc/self/status"):
        with pytest.raises(ArenaError, match=r"is a system file \(.*\), not a text file of stat blocks"):
            read_source(Path(system), system)


def test_a_fifo_dev_zero_and_proc_do_not_hang_the_command(tmp_path):
    os.mkfifo(tmp_path / "pipe.md")
    done = arena("bestiary", "import", "pipe.md", "/dev/zero", "/proc/self/status", "--out", "out", cwd=tmp_path)
    assert done.returncode == 2
    errors = errors_of(done.stderr)
    assert errors[:2] == [
        "error: pipe.md: file: is not a regular file (a device, pipe or socket), expected a text file of stat blocks",
        "error: /dev/zero: file: is a system file (/dev/zero), not a text file of stat blocks",
    ]
    assert (
        re.fullmatch(
            r"error: /proc/self/status: file: is a system file \(/proc/\d+/status\), not a text file "
            r"of stat blocks",
            errors[2],
        )
        and len(errors) == 3
    )
    assert not (tmp_path / "out").exists()


def test_encodings():
    assert decode_source(codecs.BOM_UTF8 + PASTED.encode()) == PASTED
    assert decode_source(codecs.BOM_UTF16_LE + PASTED.encode("utf-16-le")) == PASTED
    assert decode_source(PASTED.replace("\n", "\r\n").encode("utf-16")) == PASTED
    with pytest.raises(ArenaError) as info:
        decode_source(PASTED.replace("Ettercap\n", "Ettercap\nCréature\n").encode("latin-1"))
    assert (info.value.line, info.value.message) == (
        2,
        "not UTF-8 text (byte 0xe9: invalid continuation byte): save it as UTF-8",
    )
    with pytest.raises(ArenaError) as info:
        decode_source(PASTED.encode("utf-16-le"))
    assert info.value.line == 1 and "UTF-16 text without a byte-order mark must be saved as UTF-8" in info.value.message


def test_a_bom_and_utf16_import_clean_and_latin1_is_an_error_at_its_line(tmp_path):
    (tmp_path / "bom.txt").write_bytes(codecs.BOM_UTF8 + titled(PASTED, "Bom Ettercap").encode())
    (tmp_path / "utf16.txt").write_bytes(titled(PASTED, "Wide Ettercap").encode("utf-16"))
    (tmp_path / "latin1.txt").write_bytes(titled(PASTED, "Café Ettercap").encode("latin-1"))
    report = import_files([tmp_path / "bom.txt", tmp_path / "utf16.txt", tmp_path / "latin1.txt"], None)
    assert [b.creature.name for b in report.built] == ["bom-ettercap", "wide-ettercap"]
    assert all(b.creature.import_status == "clean" for b in report.built)
    assert [str(e) for e in report.errors] == [
        f"{tmp_path / 'latin1.txt'}:1: file: not UTF-8 text (byte 0xe9: invalid continuation byte): save it as UTF-8"
    ]


# --------------------------------------------------------------------------------------------- writing
def test_an_existing_file_is_kept_and_nothing_written_without_force(tmp_path):
    (tmp_path / "in.md").write_text(TROLLS)
    out = tmp_path / "out"
    out.mkdir()
    (out / "troll.yaml").write_text("my own troll\n")
    with pytest.raises(ArenaError, match=r"out/troll.yaml: already exists; nothing written \(--force replaces"):
        import_files([tmp_path / "in.md"], out)
    assert sorted(p.name for p in out.iterdir()) == ["troll.yaml"]  # not even the troll hunter
    assert (out / "troll.yaml").read_text() == "my own troll\n"
    report = import_files([tmp_path / "in.md"], out, force=True)
    assert len(report.written) == 2 and "Open Game License" in (out / "troll.yaml").read_text()


def test_a_link_is_replaced_never_followed(tmp_path):
    (tmp_path / "in.md").write_text(TROLLS)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "troll.yaml").symlink_to("../victim.txt")
    with pytest.raises(ArenaError, match="troll.yaml: already exists"):
        import_files([tmp_path / "in.md"], out)
    import_files([tmp_path / "in.md"], out, force=True)
    assert victim.read_text() == "precious\n"
    assert not (out / "troll.yaml").is_symlink() and "Troll" in (out / "troll.yaml").read_text()
    dangling = tmp_path / "out2"
    dangling.mkdir()
    (dangling / "troll.yaml").symlink_to(tmp_path / "created-through-the-link.txt")
    import_files([tmp_path / "in.md"], dangling, force=True)
    assert not (tmp_path / "created-through-the-link.txt").exists()


def test_out_must_be_a_folder_itself(tmp_path):
    (tmp_path / "in.md").write_text(PASTED)
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ArenaError, match=r"link: is a symbolic link; --out must name a folder itself"):
        import_files([tmp_path / "in.md"], tmp_path / "link", force=True)
    with pytest.raises(ArenaError, match=r"file: is not a folder"):
        import_files([tmp_path / "in.md"], tmp_path / "file", force=True)
    assert list((tmp_path / "real").iterdir()) == [] and (tmp_path / "file").read_text() == "x"
    (tmp_path / "out" / "ettercap.yaml").mkdir(parents=True)
    with pytest.raises(ArenaError, match=r"ettercap.yaml: is a folder; nothing written"):
        import_files([tmp_path / "in.md"], tmp_path / "out", force=True)


def test_a_failed_write_names_the_file_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    (tmp_path / "in.md").write_text(PASTED)
    out = tmp_path / "out"
    out.mkdir()
    (out / "ettercap.yaml").write_text("the old one\n")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(srd_import.os, "fsync", full)
    with pytest.raises(ArenaError, match=r"out/ettercap.yaml: cannot write \(No space left on device\)"):
        import_files([tmp_path / "in.md"], out, force=True)
    assert sorted(p.name for p in out.iterdir()) == ["ettercap.yaml"]
    assert (out / "ettercap.yaml").read_text() == "the old one\n"


def test_a_full_disk_leaves_nothing_behind(tmp_path):
    """A real short write: the child's file size is limited (RLIMIT_FSIZE), as a full disk would."""
    (tmp_path / "in.md").write_text(TROLLS)
    script = textwrap.dedent("""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
        from arena.cli import main
        sys.argv = ["arena", "bestiary", "import", "in.md", "--out", "out"]
        main()
    """)
    done = run_limited([sys.executable, "-c", script], tmp_path)
    assert done.returncode == 2
    [error] = errors_of(done.stderr)
    assert error.startswith("error: out/") and "cannot write (File too large)" in error
    assert [p for p in (tmp_path / "out").iterdir() if p.stat().st_size == 0 or p.name.startswith(".")] == []
