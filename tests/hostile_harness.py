"""The hostile-input harness: every `arena` command over the corpus in ``tests/hostile/``, fast and contained.

The contract under test (the issue): *every command, given any file or argument, exits 0 with a right answer, or
exits 2 with one line naming the file, line and field (or the argument) and what is wrong. Never a traceback, a
hang, an out-of-memory, or partial output left looking complete.*

How a case runs. The parent process (pytest) imports ``arena`` and its heavy dependencies once. Per case it
builds a fresh folder ``{TMP}`` (below a private temporary root)::

    {TMP}/work/        the working folder: the case's files (and the standard fixtures); the command runs here
    {TMP}/sentinel/    files that must stay exactly as they are (one of them a manifest.json, bait for --force)
    {TMP}/.io .tmp .home   stdout/stderr of the case, its TMPDIR and HOME (not looked at)

and ``os.fork()`` s a child that starts a session of its own, sets resource limits (address space about 3 GB so
that memory bombs fail fast, CPU time, file size), drops to a user id of its own when the harness runs as root
(so read-only folders are read-only, and the case can touch nothing of anyone else's), sets a clean environment
(plus the case's ``env``), redirects stdin, stdout and stderr, ``chdir`` s into ``work/`` and calls the console
entry point ``arena.cli.main()`` with ``sys.argv`` set. The parent waits, then kills anything left running under
the case's user id (loky workers, say) and checks the contract:

* the case stays within its CPU budget: its ``timeout`` is seconds of *CPU time*, the soft ``RLIMIT_CPU`` of the
  child (worker processes inherit it, each on its own), and a case killed there fails with ``cpu: used more than
  N s of CPU``. The wall clock never fails an honest case on a busy machine: it only catches a *hang* (a child
  waiting forever uses no CPU), after ``cpu_limits.hang_after(timeout)`` seconds (at least 300 s), far beyond
  any honest run (``tests/cpu_limits.py`` says why);
* the exit code is in the case's allowed set (default ``{0, 2}``);
* no ``Traceback`` (nor a fatal error or death by a signal) on stderr;
* exit 2: stdout is empty and stderr is one ``error: ...`` line (``warning:`` lines only if the case allows), with
  no raw control characters, naming the file (or argument) where the case says which;
* exit 0: a right answer, as far as the command's output shows one (``fight`` printed who won, ``run`` left a
  complete folder, ``report`` wrote the page it names, JSON parses, ...); a resumed run equals a clean run;
* after a non-zero exit no folder looks complete (a ``manifest.json`` with status ``complete``, an
  ``encounters.parquet``, a ``summary.csv``, a report page ...) that the case created or changed;
* nothing was created, changed or deleted outside ``work/`` (the sentinel folder and ``{TMP}`` itself).

The corpus is YAML (``tests/hostile/*.yaml``); the format is described in ``tests/hostile/README.md``.

Run one case by hand (it is set up in a temporary folder, run with the real ``arena`` command, and left there)::

    python tests/hostile_harness.py CASE_ID
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import ctypes
import fnmatch
import functools
import glob
import hashlib
import io
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from cpu_limits import cpu_message, hang_after, killed_at_cpu_limit, limit_cpu

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "hostile"
REPO = HERE.parent

DEFAULT_TIMEOUT = 10.0
"""Seconds of CPU time a case may use (the soft RLIMIT_CPU of its process, and of each worker process it starts;
the hard limit is CPU_GRACE seconds more). Most cases use well under 1 s; a case still running after
``hang_after(timeout)`` seconds of wall-clock time (300 s at least) is killed as a hang."""
TEMPLATE_CPU = 30.0
"""Seconds of CPU time the run that makes a results template may use (it uses about 2 s)."""
ADDRESS_SPACE = 3 * 1024**3
"""RLIMIT_AS of a case: a memory bomb fails at once instead of eating the machine."""
FILE_SIZE = 1024**3
"""RLIMIT_FSIZE of a case."""
PROCESSES = 96
"""RLIMIT_NPROC of a case's own user id (threads count too)."""
UID_BASE = 61000
"""Cases run as user ids base + 1, base + 2, ... when the harness runs as root, where base is UID_BASE plus a
random multiple of UID_BLOCK (below 2**31 and what the user namespace maps): two harness runs at once (two
sessions on one machine) then do not share user ids, and neither kills the other's cases when it kills what its
own case left running under its id."""
UID_BLOCK = 5000
"""User ids a run may use (more than the cases of the corpus)."""
COMMANDS = ("odds", "bestiary", "party", "el", "fight", "run", "report", "compare", "check", "claims", "calibrate")
PRIVATE = (".io", ".tmp", ".home")
"""Folders of {TMP} that belong to the harness, not to the case."""
COMPLETE_NAMES = (
    "encounters.parquet",
    "summary.csv",
    "report.md",
    "report.html",
    "calibration.csv",
    "claims.md",
    "delta-cr.png",
)
"""A file of one of these names, created or changed by a case that failed, is a folder left looking complete."""
MAX_ERROR_LINE = 5000
"""An error line longer than this echoes a whole value back (a 3 MB name, say) instead of naming it."""
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

# --------------------------------------------------------------------------------------------- fixtures
DUEL = {
    "name": "duel",
    "description": "Fighter 1 against an orc.",
    "party": ["fighter-1"],
    "monsters": ["orc"],
    "tactics": {"party": {"policy": "focus-weakest", "press_luck": "when-better"}},
    "rules": ["d20", "3d6"],
    "n": 20,
    "round_cap": 20,
}
"""The standard scenario (``work/duel.yaml``) and the base of every generated scenario."""

STAT_BLOCK = {
    "name": "hostile-brute",
    "title": "Hostile Brute",
    "type": "humanoid",
    "size": "medium",
    "cr": 1,
    "hp": 12,
    "hit_dice": "2d8+3",
    "initiative": 1,
    "speed": 30,
    "ac": 14,
    "touch_ac": 11,
    "flat_footed_ac": 13,
    "bab": 1,
    "grapple": 3,
    "abilities": {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 10, "cha": 8},
    "saves": {"fort": 4, "ref": 1, "will": 0},
    "attack": [[{"name": "club", "bonuses": [3], "damage": "1d6+2", "damage_types": ["bludgeoning"]}]],
}
"""The standard stat block (``work/statblock.yaml``) and the base of every generated one."""

SUITE = {
    "defaults": {"n": 20, "seed": 1},
    "checks": [
        {
            "name": "the fighter sometimes wins",
            "file": "duel.yaml",
            "win_rate": {"rules": "d20", "min": 0.0, "max": 1.0},
        }
    ],
}
"""The standard regression suite (``work/suite.yaml``)."""

RESUME_RUN = [
    "run",
    "duel6.yaml",
    "--n",
    "600",
    "--grid",
    "d20,3d6",
    "--chunk",
    "150",
    "--workers",
    "1",
    "--quiet",
    "--out",
    "out",
]
"""The run that the resume templates are made with (``duel6.yaml`` is the duel with n 600)."""


DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's emitter when PyYAML has it: the pure-Python one takes milliseconds per long string."""


def dump(doc: Any) -> str:
    """YAML text of ``doc`` (control characters come out escaped in double quotes, as YAML requires)."""
    return yaml.dump(doc, Dumper=DUMPER, sort_keys=False, allow_unicode=True, width=10**9)


@functools.cache
def standard_files() -> dict[str, str]:
    return {
        "duel.yaml": dump(DUEL),
        "statblock.yaml": dump(STAT_BLOCK),
        "suite.yaml": dump(SUITE),
        "duel6.yaml": dump({**DUEL, "n": 600}),
    }


# --------------------------------------------------------------------------------------------- generators
def set_path(doc: Any, dotted: str, value: Any) -> None:
    """Set ``doc[a][b][0]...`` for ``"a.b.0"``; ``value == "<delete>"`` removes the key."""
    parts = [int(p) if re.fullmatch(r"-?\d+", p) else p for p in dotted.split(".")]
    here = doc
    for part in parts[:-1]:
        here = here[part]
    if value == "<delete>":
        del here[parts[-1]]
    else:
        here[parts[-1]] = value


REPEAT = re.compile(r"<repeat:(.+?):(\d+)>", re.S)
"""``"<repeat:x:100000>"`` in a generated document or an argument is ``"x" * 100000`` (too long to write in a case
file); it may stand inside a longer string (``"typical-cr<repeat:9:5000>"``)."""
LIST = re.compile(r"^<list:(.*):(\d+)>$", re.S)
"""``"<list:orc:10000>"`` is a list of 10,000 ``"orc"``."""
NUMBER = re.compile(r"^<(int|float):(.+)>$")
"""``"<int:10**30>"`` / ``"<float:nan>"``: numbers YAML cannot write plainly (or that must not be strings)."""


def expand(value: Any) -> Any:
    if isinstance(value, str):
        m = LIST.match(value)
        if m:
            return [m.group(1)] * int(m.group(2))
        m = NUMBER.match(value)
        if m:
            kind, text = m.groups()
            if kind == "float":
                return float(text)
            base, _, exponent = text.partition("**")
            return int(base) ** int(exponent) if exponent else int(text)
        return REPEAT.sub(lambda r: r.group(1) * int(r.group(2)), value)
    if isinstance(value, list):
        return [expand(v) for v in value]
    if isinstance(value, dict):
        return {expand(k): expand(v) for k, v in value.items()}
    return value


def _apply(base: dict, spec: dict) -> dict:
    doc = copy.deepcopy(base)
    for key, value in (spec.get("set") or {}).items():
        set_path(doc, key, expand(value))
    for key in spec.get("unset") or ():
        set_path(doc, key, "<delete>")
    return doc


def statblock_doc(spec: dict) -> dict:
    return _apply(STAT_BLOCK, spec)


def scenario_doc(spec: dict) -> Any:
    doc = _apply(DUEL, spec)
    if "inline" in spec:  # a generated stat block as an inline monster
        doc["monsters"] = [{"count": spec.get("count", 1), "stat_block": statblock_doc(spec["inline"])}]
    if "inline_pc" in spec:  # ... or as an inline party member
        doc["party"] = [{"stat_block": {**statblock_doc(spec["inline_pc"]), "side": "pc", "cr": None}}]
        doc["party"][0]["stat_block"].pop("cr")
    if "copies" in spec:  # a top-level list of scenarios
        return [{**doc, "name": f"{doc['name']}-{i}"} for i in range(spec["copies"])]
    return doc


def alias_bomb(levels: int = 9, width: int = 9, base: str = "none") -> str:
    """The 'billion laughs': ``levels`` anchors, each a list of ``width`` aliases of the one before."""
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    text = "\n".join(lines) + "\n"
    if base == "scenario":
        text = dump(DUEL) + text.replace("a0:", "x0:", 1).replace("\na", "\nx")
        text += f"description: *a{levels - 1}\n"
        text = text.replace("description: Fighter 1 against an orc.\n", "", 1)
    return text


def nesting(depth: int, style: str = "flow-list", base: str = "none") -> str:
    """A document nested ``depth`` deep: ``[[[...]]]``, ``{a: {a: ...}}`` or block mappings."""
    if style == "flow-list":
        inner = "[" * depth + "1" + "]" * depth
    elif style == "flow-map":
        inner = "{a: " * depth + "1" + "}" * depth
    elif style == "block-map":
        return "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "b: 1\n"
    elif style == "block-list":
        return "".join(" " * i + "-\n" for i in range(depth)) + " " * depth + "- 1\n"
    else:
        raise ValueError(style)
    if base == "scenario":
        return dump({k: v for k, v in DUEL.items() if k != "description"}) + f"description: {inner}\n"
    if base == "monsters":
        return dump({k: v for k, v in DUEL.items() if k != "monsters"}) + f"monsters: {inner}\n"
    return inner + "\n"


def base_text(kind: str) -> str:
    return {
        "scenario": dump(DUEL),
        "statblock": dump(STAT_BLOCK),
        "suite": dump(SUITE),
        "results": dump(DUEL),
        "none": dump(DUEL),
    }[kind]


def inject(char: str, where: str = "value", base: str = "scenario") -> str:
    """A valid document with ``char`` (raw, unescaped) at ``where``: start, end, comment, key, value, quoted."""
    text = base_text(base)
    first_key, _, rest = text.partition(":")
    if where == "start":
        return char + text
    if where == "end":
        return text + char
    if where == "comment":
        return f"# a comment {char} here\n" + text
    if where == "key":
        return f"{first_key}{char}:{rest}"
    if where == "value":  # inside the first plain value (the name)
        line, nl, others = text.partition("\n")
        return f"{line}{char}x{nl}{others}"
    if where == "quoted":
        line, nl, others = text.partition("\n")
        key, _, value = line.partition(": ")
        return f'{key}: "{value}{char}x"{nl}{others}'
    raise ValueError(where)


def big(size_mb: float = 10, style: str = "comment", base: str = "scenario") -> str:
    """A file of about ``size_mb`` MB: a valid document plus a huge comment, one huge scalar, or a huge list."""
    size = int(size_mb * 1024 * 1024)
    text = base_text(base)
    if style == "comment":
        line = "# " + "x" * 98 + "\n"
        return text + line * (size // len(line))
    if style == "scalar":
        return (
            text.replace("description: Fighter 1 against an orc.", "description: " + "x" * size, 1)
            if "description:" in text
            else text + "notes: " + "x" * size + "\n"
        )
    if style == "monsters":
        return dump({k: v for k, v in DUEL.items() if k != "monsters"}) + "monsters:\n" + "- orc\n" * (size // 6)
    if style == "lines":
        return text + "\n" * size
    raise ValueError(style)


def policy(kind: str, name: str = "hostile") -> str:
    """A policy file registering ``name``; it writes ``policy-ran-<name>.txt`` when it is imported (so a case can
    tell whether it ran) and then misbehaves as ``kind`` says, at import or in a decision."""
    head = (
        "import os, sys, time\nfrom pathlib import Path\n"
        "from arena.combat.tactics import NOTHING, Action, register\n"
        f"Path('policy-ran-{name}.txt').write_text('ran')\n"
    )
    at_import = {
        "exit-import": "sys.exit(0)\n",
        "raise-import": "raise RuntimeError('boom at import')\n",
        "loop-import": "while True:\n    pass\n",
        "syntax-error": "def broken(:\n",
        "missing-import": "import arena_no_such_module\n",
        "register-builtin": "register('focus-weakest', lambda view, creature: NOTHING)\n",
        "evil-import": "import shutil\nshutil.rmtree(Path.cwd().parent / 'sentinel', ignore_errors=True)\n",
    }
    decisions = {
        "benign": "    target = max(view.reachable(creature), key=lambda e: e.hp, default=None)\n"
        "    return Action('attack', target) if target is not None else NOTHING\n",
        "exit-decision": "    sys.exit(0)\n",
        "osexit-decision": "    os._exit(0)\n",
        "raise-decision": "    raise ValueError('boom in a decision')\n",
        "none-decision": "    return None\n",
        "badkind-decision": "    return Action('teleport', None)\n",
        "badtarget-decision": "    return Action('attack', 'not a creature')\n",
        "loop-decision": "    while True:\n        pass\n",
        "sleep-decision": "    time.sleep(1000)\n    return NOTHING\n",
        "memory-decision": "    hog = bytearray(8 * 1024**3)\n    return NOTHING\n",
        "kbint-decision": "    raise KeyboardInterrupt\n",
        "recursion-decision": "    return decide(view, creature)\n",
        "string-decision": "    return 'attack'\n",
        "badspell-decision": "    return Action('cast', spell='wish', level=9, targets=view.enemies(creature))\n",
    }
    if kind in at_import:
        body = at_import[kind]
        if kind != "register-builtin":
            body += f"register('{name}', lambda view, creature: NOTHING)\n"
        return head + body
    return head + "def decide(view, creature):\n" + decisions[kind] + f"register('{name}', decide)\n"


def generate(spec: Any, tmp: str) -> bytes:
    """The bytes of a case file from its spec: text (``{TMP}`` replaced) or ``{gen: NAME, ...}``."""
    if isinstance(spec, str):
        return spec.replace("{TMP}", tmp).encode("utf-8")
    spec = dict(spec)
    gen = spec.pop("gen")
    encoding = spec.pop("encoding", "utf-8")
    text: str | None = None
    data: bytes | None = None
    if gen == "text":
        text = expand(spec["text"])
    elif gen == "scenario":
        text = dump(scenario_doc(spec))
    elif gen == "statblock":
        doc = statblock_doc(spec.get("stat", spec))
        text = dump([doc] * spec["repeat"] if "repeat" in spec else doc)
    elif gen == "suite":
        doc = _apply(SUITE, spec)
        if "repeat_checks" in spec:
            doc["checks"] = [{**doc["checks"][0], "name": f"check {i}"} for i in range(spec["repeat_checks"])]
        text = dump(doc)
    elif gen == "yaml":
        text = dump(expand(spec["doc"]))
    elif gen == "alias_bomb":
        text = alias_bomb(**spec)
    elif gen == "nesting":
        text = nesting(**spec)
    elif gen == "inject":
        text = inject(**spec)
    elif gen == "big":
        text = big(**spec)
    elif gen == "policy":
        text = policy(**spec)
    elif gen == "random_bytes":
        data = random.Random(spec.get("seed", 1)).randbytes(spec.get("size", 4096))
    elif gen == "invalid_utf8":
        data = (
            base_text(spec.get("base", "scenario"))
            .replace("Fighter", "Fi\udcff\udcfeghter")
            .encode("utf-8", "surrogateescape")
        )
        if spec.get("base") not in (None, "scenario", "results", "none"):
            data = b"# \xff\xfe\xc3\x28 bad bytes\n" + base_text(spec["base"]).encode()
    elif gen == "utf16":
        data = base_text(spec.get("base", "scenario")).encode("utf-16")
    elif gen == "bom":
        data = b"\xef\xbb\xbf" + base_text(spec.get("base", "scenario")).encode()
    elif gen == "crlf":
        data = base_text(spec.get("base", "scenario")).replace("\n", spec.get("newline", "\r\n")).encode()
    elif gen == "documents":
        data = ("---\n" + base_text(spec.get("base", "scenario"))).encode() * spec.get("count", 2)
    elif gen == "many_keys":
        data = (base_text("scenario") + "".join(f"k{i}: {i}\n" for i in range(spec.get("count", 100_000)))).encode()
    elif gen == "long_line":
        data = ("name: " + "n" * spec.get("size", 1_000_000) + "\n").encode()
    elif gen == "base":
        text = base_text(spec.get("kind", "scenario"))
    elif gen == "parquet":
        data = b""  # written by the runner (needs pyarrow and the reference run)
    else:
        raise ValueError(f"unknown generator {gen!r}")
    if data is None:
        assert text is not None
        data = text.replace("{TMP}", tmp).encode(encoding, "surrogateescape" if encoding == "utf-8" else "strict")
    return data


# --------------------------------------------------------------------------------------------- cases
@dataclass
class Case:
    id: str
    argv: list[str]
    source: str
    files: dict[str, Any] = field(default_factory=dict)
    dirs: list[str] = field(default_factory=list)
    symlinks: dict[str, str] = field(default_factory=dict)
    fifos: list[str] = field(default_factory=list)
    modes: dict[str, int] = field(default_factory=dict)
    template: dict | None = None
    mutate: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    exit: tuple[int, ...] = (0, 2)
    timeout: float = DEFAULT_TIMEOUT
    """Seconds of CPU time (RLIMIT_CPU) for each command of the case (its steps too); never wall-clock time."""
    env: dict[str, str] = field(default_factory=dict)
    """Environment variables set in the child, over the clean environment the harness builds ({TMP} replaced)."""
    error_names: tuple[str, ...] = ()
    stderr_has: tuple[str, ...] = ()
    warnings_ok: bool = False
    must_not_exist: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    """Paths below work/ that must still exist with the same contents (``--out`` naming an existing file ...)."""
    outside_ok: tuple[str, ...] = ()
    reference: dict | None = None
    stdout: str = "file"
    answer: bool = True
    redact: bool = False
    max_error_lines: int = 1
    not_in_output: tuple[str, ...] = ()
    complete_ok: bool = False
    """A non-zero exit may leave a complete folder (the run finished; only printing its last line failed)."""
    not_in_files: dict[str, str] = field(default_factory=dict)
    """glob (of a path below work/) -> text that no file the case wrote there may contain."""
    tags: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        """The top-level command, ``bestiary validate`` style for the groups."""
        if not self.argv:
            return "(none)"
        if self.argv[0] in ("odds", "bestiary") and len(self.argv) > 1:
            return f"{self.argv[0]} {self.argv[1]}"
        return self.argv[0]

    def repro(self) -> str:
        def short(arg: str) -> str:
            return arg if len(arg) <= 60 else f"{arg[:20]}...({len(arg):,} characters)"

        return f"python tests/hostile_harness.py {self.id}   # arena {shlex.join(short(a) for a in self.argv)}"


CASE_KEYS = {f for f in Case.__dataclass_fields__ if f not in ("id", "argv", "source")} | {"cmd"}


def _as_tuple(value: Any) -> tuple:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def _format(value: Any, names: dict[str, str]) -> Any:
    """Replace ``{INPUT}``-style names in strings (recursively); other braces are left alone."""
    if isinstance(value, str):
        for key, text in names.items():
            value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [_format(v, names) for v in value]
    if isinstance(value, dict):
        return {_format(k, names): _format(v, names) for k, v in value.items()}
    return value


def _substitute(value: Any, marker: str, replacement: Any) -> Any:
    if value == marker:
        return copy.deepcopy(replacement)
    if isinstance(value, list):
        return [_substitute(v, marker, replacement) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, marker, replacement) for k, v in value.items()}
    return value


def _case(raw: dict, source: str, defaults: dict) -> Case:
    raw = {**defaults, **raw}
    unknown = set(raw) - CASE_KEYS - {"id", "argv"}
    if unknown:
        raise ValueError(f"{source}: case {raw.get('id')!r}: unknown keys {sorted(unknown)}")
    if "cmd" in raw:
        argv = shlex.split(raw.pop("cmd"))
        raw.pop("argv", None)
    else:
        argv = [REPEAT.sub(lambda r: r.group(1) * int(r.group(2)), str(a)) for a in raw.pop("argv")]
    case_id = str(raw.pop("id"))
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key in (
            "exit",
            "error_names",
            "stderr_has",
            "must_not_exist",
            "outside_ok",
            "not_in_output",
            "tags",
            "unchanged",
        ):
            value = (
                tuple(int(v) for v in _as_tuple(value)) if key == "exit" else tuple(str(v) for v in _as_tuple(value))
            )
        if key == "modes":
            value = {k: int(str(v), 8) for k, v in value.items()}
        kwargs[key] = value
    return Case(case_id, argv, source, **kwargs)


def load_corpus(folder: Path = CORPUS) -> list[Case]:
    """Every case of every ``*.yaml`` file in ``folder`` (``cases``, ``bulk`` and ``matrix`` entries)."""
    cases: list[Case] = []
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
        unknown = set(doc) - {"defaults", "inputs", "matrix", "cases", "bulk", "about"}
        if unknown:
            raise ValueError(f"{path.name}: unknown top-level keys {sorted(unknown)}")
        defaults = doc.get("defaults") or {}
        inputs = doc.get("inputs") or {}
        for raw in doc.get("cases") or ():
            cases.append(_case(raw, path.name, defaults))
        for group in doc.get("bulk") or ():
            group = dict(group)
            prefix = group.pop("prefix")
            commands = group.pop("cmds")
            for name, command in commands.items():
                raw = {**group, "id": f"{prefix}-{name}"}
                if isinstance(command, dict):
                    raw.update(command)
                else:
                    raw["cmd"] = command
                cases.append(_case(raw, path.name, defaults))
        for group in doc.get("matrix") or ():
            cases.extend(_matrix(dict(group), inputs, path.name, defaults))
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise ValueError(f"duplicate case id {case.id!r}")
        seen.add(case.id)
    return cases


def _matrix(group: dict, inputs: dict, source: str, defaults: dict) -> list[Case]:
    """Every input of the group under every command of the group (``{INPUT}`` is the input's path)."""
    out = []
    pattern = group.pop("id")
    chosen = group.pop("inputs")
    chosen = list(inputs) if chosen == "*" else chosen
    exclude = group.pop("exclude", ())
    chosen = [c for c in chosen if not any(fnmatch.fnmatch(c, pattern) for pattern in exclude)]
    commands = group.pop("commands")
    skip = {tuple(s.rsplit(".", 1)) for s in group.pop("skip", ())}
    for input_name in chosen:
        spec = dict(inputs[input_name])
        for command_name, command in commands.items():
            if (input_name, command_name) in skip:
                continue
            command = dict(command)
            kind = command.pop("kind", "scenario")
            keep_exit = command.pop("exit_wins", False)
            file_path = spec.get("path", next(iter(spec.get("files") or {"in.yaml": 0})))
            names = {"INPUT": file_path, "KIND": kind, "NAME": input_name}
            raw: dict[str, Any] = {**group, **command}
            for key, value in spec.items():
                if key in ("path", "name_file", "stat"):
                    continue
                if key == "files":
                    raw["files"] = {**raw.get("files", {}), **value}
                elif key == "exit" and keep_exit:
                    continue
                else:
                    raw[key] = value
            if spec.get("name_file", True) and "error_names" not in spec and "error_names" not in command:
                shown = file_path.replace("{TMP}/", "")
                raw["error_names"] = [shown, Path(shown).name]
            raw["id"] = pattern.replace("{input}", input_name).replace("{command}", command_name)
            raw = _format(raw, names)
            if "stat" in spec:  # the input's stat-block changes, wherever the command says <STAT>
                raw = _substitute(raw, "<STAT>", spec["stat"])
            out.append(_case(raw, source, defaults))
    return out


# --------------------------------------------------------------------------------------------- results
@dataclass
class Result:
    case: Case
    code: int | None = None
    """Exit code; None when the case was killed as a hang; negative: killed by that signal (SIGXCPU, or SIGKILL
    at the hard limit: its CPU budget)."""
    seconds: float = 0.0
    """Wall-clock seconds (for the report; no verdict depends on them)."""
    cpu: float = 0.0
    """CPU seconds of the case's process (and the worker processes it waited for)."""
    stdout: str = ""
    stderr: str = ""
    problems: list[str] = field(default_factory=list)
    symptoms: list[tuple[str, str]] = field(default_factory=list)
    """(kind, detail) of every problem, for grouping: traceback, hang, exit, multi-line, ..."""
    setup_error: str | None = None

    def add(self, kind: str, detail: str, message: str) -> None:
        self.symptoms.append((kind, detail))
        self.problems.append(message)


def traceback_summary(text: str) -> tuple[str, str]:
    """(exception type, innermost ``arena/`` frame as ``file:line in func``) of the last traceback in ``text``."""
    block = text[text.rfind("Traceback (most recent call last)") :]
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', block)
    arena_frames = [f for f in frames if "/arena/" in f[0] and "/tests/" not in f[0]]
    frame = arena_frames[-1] if arena_frames else (frames[-1] if frames else ("?", "?", "?"))
    where = f"{frame[0].split('/arena/')[-1] if '/arena/' in frame[0] else frame[0]}:{frame[1]} in {frame[2]}"
    if "/arena/" in frame[0]:
        where = "arena/" + where
    kind = "?"
    for line in block.splitlines()[1:]:
        m = re.match(
            r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure|Timeout|"
            r"Exhausted|Overflow|StopIteration|Fault))\b",
            line,
        )
        if m:
            kind = m.group(1)
    if kind == "?":
        m = re.findall(r"^([A-Za-z_][\w.]*)(?::|$)", block, re.M)
        kind = m[-1] if m else "?"
    return kind, where


# --------------------------------------------------------------------------------------------- snapshots
def snapshot(root: Path, hash_all: bool = False, limit: int = 30_000) -> dict[str, tuple]:
    """Every path below ``root`` (not following symlinks) -> (kind, size, content hash or mtime)."""
    out: dict[str, tuple] = {}
    if not os.path.lexists(root):
        return out
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in PRIVATE]
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(full))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir",)
            elif stat.S_ISREG(st.st_mode):
                digest: Any = st.st_mtime_ns
                if hash_all or st.st_size < 1 << 16:
                    try:
                        with open(full, "rb") as handle:
                            digest = hashlib.sha1(handle.read(1 << 24)).hexdigest()
                    except OSError:
                        pass
                out[rel] = ("file", st.st_size, digest)
            else:
                out[rel] = ("special", stat.S_IFMT(st.st_mode))
            if len(out) > limit:
                return out
    return out


def looks_complete(path: Path) -> bool:
    name = path.name
    if name in COMPLETE_NAMES:
        return True
    if name == "manifest.json":
        try:
            return json.loads(path.read_text(encoding="utf-8")).get("status") == "complete"
        except (OSError, ValueError, AttributeError):
            return False
    return False


# --------------------------------------------------------------------------------------------- the runner
def _forget_inherited_workers() -> None:
    """In a forked child: drop the parent's joblib/loky worker pool. Its management threads did not survive the
    fork, so reusing it would hang; the child starts a pool of its own, as a fresh `arena` process would."""
    import sys as _sys

    module = _sys.modules.get("joblib.externals.loky.reusable_executor")
    if module is not None:
        import threading as _threading

        module._executor = None
        module._executor_kwargs = None
        module._executor_lock = _threading.RLock()


def _uid_top() -> int:
    """One more than the highest user id this user namespace maps (at most 2**31)."""
    top = 65536
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/uid_map").read_text().splitlines():
            inside, _outside, count = (int(x) for x in line.split())
            top = max(top, inside + count)
    return min(top, 2**31)


def _libc() -> Any:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def preload() -> None:
    """Import what the commands import, once, in the parent: every case's child starts with it loaded."""
    import importlib

    for name in (
        "arena.cli",
        "arena.study.scenarios.loading",
        "arena.study.runs.experiment",
        "arena.combat.engine",
        "arena.study.statistics.comparisons",
        "arena.study.reports.report",
        "arena.study.checks.suites",
        "arena.study.calibration.calibrate",
        "arena.study.claims.evaluation",
        "arena.study.claims.report",
        "arena.world.bestiary",
        "arena.world.party",
        "arena.study.runs.study_folder",
        "arena.labels",
        "pyarrow",
        "pyarrow.parquet",
        "pandas",
        "scipy.stats",
        "statsmodels.api",
        "statsmodels.stats.proportion",
        "statsmodels.stats.contingency_tables",
        "joblib",
        "rich.console",
        "rich.table",
        "rich.progress",
        "matplotlib",
        "matplotlib.pyplot",
    ):
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    with contextlib.suppress(Exception):
        import matplotlib

        matplotlib.use("Agg")
    with contextlib.suppress(Exception):
        from arena.world.bestiary import load_bestiary

        load_bestiary()
    warm_up()
    import gc

    gc.collect()
    gc.freeze()  # forked children then leave the parent's objects alone (fewer copied pages)


WARM_UP = (
    ["fight", "duel.yaml"],
    ["fight", "duel.yaml", "--rules", "3d6+prad+luck+open+called", "--json"],
    ["odds", "attack", "--bonus", "5", "--ac", "18"],
    ["bestiary", "validate", "statblock.yaml"],
    ["run", "duel.yaml", "--n", "2", "--workers", "1", "--quiet", "--out", "w"],
    ["report", "w"],
    ["compare", "w", "w"],
    ["check", "suite.yaml", "--workers", "1"],
    ["el", "troll:4"],
    ["odds", "nonsense"],
)
"""Commands run once in the parent before any case: each forked child then finds the lazy imports done and the
pure caches (compiled checks, generated parties, typer's help machinery) filled, instead of paying ~70 ms for
them in every case. Nothing here is hostile, and no policy file is loaded (the registry stays built-in)."""


def warm_up() -> None:
    import contextlib as cl

    from arena.cli import main

    here = os.getcwd()
    folder = tempfile.mkdtemp(prefix="arena-warm-")
    saved = sys.argv
    try:
        os.chdir(folder)
        for name, text in standard_files().items():
            Path(name).write_text(text, encoding="utf-8")
        for argv in WARM_UP:
            sys.argv = ["arena", *argv]
            # warming only: a failure here is the corpus's to find, not this function's
            with (
                open(os.devnull, "w") as null,
                cl.redirect_stdout(null),
                cl.redirect_stderr(null),
                cl.suppress(BaseException),
            ):
                main()
    finally:
        sys.argv = saved
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)


class Runner:
    """Sets up, runs (several at a time, forked) and checks cases."""

    def __init__(self, root: Path | None = None, jobs: int | None = None):
        self.root = Path(root or tempfile.mkdtemp(prefix="arena-hostile-"))
        os.chmod(self.root, 0o711)
        self.jobs = jobs or (os.cpu_count() or 1) + 1  # one more than the cores: the parent's own work overlaps
        self.as_root = os.geteuid() == 0
        self.counter = 0
        self.templates: dict[str, Path] = {}
        self.template_errors: dict[str, str] = {}
        self.mpl = self.root / "_mpl"
        self.mpl.mkdir(exist_ok=True)
        os.chmod(self.mpl, 0o777)
        self.uids = self._free_uids()
        self.shared_python = interpreter_shared()
        """Can another user run this Python (worker processes)? Not when it lives below a private /root."""

    def _free_uids(self) -> int:
        """The base of a block of user ids that no account and no running process has (chosen at random)."""
        used = set()
        with contextlib.suppress(OSError):
            for line in Path("/etc/passwd").read_text().splitlines():
                parts = line.split(":")
                if len(parts) > 2 and parts[2].isdigit():
                    used.add(int(parts[2]))
        with contextlib.suppress(OSError):
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    with contextlib.suppress(OSError):
                        used.add(entry.stat(follow_symlinks=False).st_uid)
        blocks = [UID_BASE + i * UID_BLOCK for i in range((_uid_top() - UID_BASE) // UID_BLOCK)]
        chooser = random.SystemRandom()
        for _ in range(100):
            if not blocks:
                break
            base = chooser.choice(blocks)
            if not any(base <= u < base + UID_BLOCK for u in used):
                return base
        base = UID_BASE  # a namespace that maps few ids: the first free block, as it always was
        while any(base <= u < base + UID_BLOCK for u in used):
            base += UID_BLOCK
        return base

    def close(self) -> None:
        def onerror(func: Any, path: str, _exc: Any) -> None:
            with contextlib.suppress(OSError):
                os.chmod(os.path.dirname(path), 0o700)
                os.chmod(path, 0o700)
                func(path)

        shutil.rmtree(self.root, onerror=onerror)

    # -- set-up
    def _new_uid(self, case: Case | None = None) -> int | None:
        self.counter += 1
        if not self.as_root or (case is not None and spawns_workers(case) and not self.shared_python):
            return None
        return self.uids + self.counter

    def _chown_tree(self, path: Path, uid: int | None) -> None:
        if uid is None:
            return
        for dirpath, dirnames, filenames in os.walk(path):
            for name in [dirpath, *(os.path.join(dirpath, n) for n in dirnames + filenames)]:
                with contextlib.suppress(OSError):
                    os.lchown(name, uid, uid)

    def setup(self, case: Case, uid: int | None) -> Path:
        tmp = self.root / f"c{self.counter:04d}-{re.sub(r'[^A-Za-z0-9_.-]', '_', case.id)[:60]}"
        work = tmp / "work"
        for sub in ("work", "sentinel", *PRIVATE):
            (tmp / sub).mkdir(parents=True)
        sentinel = tmp / "sentinel"
        (sentinel / "keep.txt").write_text("must stay\n")
        (sentinel / "manifest.json").write_text(json.dumps({"status": "complete", "note": "bait for --force"}))
        (sentinel / "sub").mkdir()
        (sentinel / "sub" / "encounters.parquet").write_bytes(b"PAR1 bait PAR1")
        for name, text in standard_files().items():
            (work / name).write_text(text, encoding="utf-8")
        if case.template:
            source = self.template(case.template["name"])
            dest = work / case.template.get("to", "out")
            shutil.copytree(source, dest, symlinks=True)
        placeholder = str(tmp)
        for op in case.mutate:
            mutate(work, op, placeholder)
        for name in case.dirs:
            (work / name.replace("{TMP}", placeholder)).mkdir(parents=True, exist_ok=True)
        for name, spec in case.files.items():
            path = work / name.replace("{TMP}", placeholder)
            path.parent.mkdir(parents=True, exist_ok=True)
            if name.endswith("/*"):  # {count, each}: a folder of that many files
                data = generate(spec["each"], placeholder)
                for i in range(spec["count"]):
                    (path.parent / f"f{i:06d}.yaml").write_bytes(data)
                continue
            if isinstance(spec, dict) and (
                spec.get("gen") == "parquet" or (spec.get("gen") == "base" and spec.get("kind") == "results")
            ):
                self._parquet(path, spec)
            else:
                path.write_bytes(generate(spec, placeholder))
        for name in case.fifos:
            os.mkfifo(work / name)
        for name, target in case.symlinks.items():
            link = work / name.replace("{TMP}", placeholder)
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(target.replace("{TMP}", placeholder), link)
        self._chown_tree(tmp, uid)
        for name, mode in case.modes.items():
            os.chmod(work / name.replace("{TMP}", placeholder), mode)
        return tmp

    def _parquet(self, path: Path, spec: dict) -> None:
        """A results file made from the reference run, changed as ``spec`` says."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        table = pq.read_table(self.template("duel600-complete") / "encounters.parquet")
        op = spec.get("op", "copy")
        if op == "drop":
            table = table.drop_columns([c for c in spec["columns"] if c in table.column_names])
        elif op == "head":
            table = table.slice(0, spec.get("rows", 0))
        elif op == "set":
            column = spec["column"]
            value = spec["value"]
            index = table.column_names.index(column)
            kind = table.schema.field(column).type
            if value == "nan":
                array = pa.array([float("nan")] * len(table), type=pa.float64())
            elif value in ("null", None):
                array = pa.nulls(len(table), type=kind)
            elif value == "inf":
                array = pa.array([float("inf")] * len(table), type=pa.float64())
            else:
                array = pa.array([value] * len(table))
            table = table.set_column(index, column, array)
        elif op == "cast-string":
            column = spec["column"]
            index = table.column_names.index(column)
            table = table.set_column(index, column, pc.cast(table.column(column), pa.string()))
        elif op == "repeat":
            table = pa.concat_tables([table] * spec.get("times", 2))
        elif op == "rules-only":
            table = table.filter(pc.equal(table.column("rules"), spec["rules"]))
        elif op == "rename":
            table = table.rename_columns([spec["to"] if c == spec["column"] else c for c in table.column_names])
        elif op != "copy":
            raise ValueError(op)
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path)

    # -- templates (real runs of the code under test, made once)
    def template(self, name: str) -> Path:
        if name in self.templates:
            return self.templates[name]
        if name in self.template_errors:
            raise RuntimeError(self.template_errors[name])
        tmp = self.root / f"_template-{name}"
        work = tmp / "work"
        for sub in ("work", "sentinel", *PRIVATE):
            (tmp / sub).mkdir(parents=True)
        for fname, text in standard_files().items():
            (work / fname).write_text(text, encoding="utf-8")
        uid = self._new_uid()
        self._chown_tree(tmp, uid)
        argv = list(RESUME_RUN)
        interrupt = name == "duel600-partial"
        if name == "duel600-complete":
            pass
        elif not interrupt:
            raise ValueError(f"unknown template {name!r}")
        case = Case(f"template-{name}", argv, "harness", timeout=TEMPLATE_CPU)
        result = Result(case)
        self._run_child(case, tmp, uid, result, interrupt_assemble=interrupt)
        out = work / "out"
        try:
            if interrupt:
                chunks = sorted((out / "chunks").glob("*.parquet"))
                if len(chunks) < 4 or not (out / "manifest.json").exists():
                    raise RuntimeError(
                        f"the partial run left {len(chunks)} chunks (exit {result.code}): {result.stderr[-500:]}"
                    )
            elif result.code != 0 or not (out / "encounters.parquet").exists():
                raise RuntimeError(f"the reference run failed (exit {result.code}): {result.stderr[-500:]}")
        except RuntimeError as err:
            self.template_errors[name] = f"template {name}: {err}"
            raise RuntimeError(self.template_errors[name]) from None
        self.templates[name] = out
        return out

    # -- running
    def _child(
        self,
        case: Case,
        tmp: Path,
        uid: int | None,
        argv: list[str],
        interrupt_assemble: bool,
        step: int,
        signal_at: dict | None = None,
    ) -> None:
        """In the forked child: contain, redirect, run the CLI, exit with its code. Never returns."""
        code = 1
        try:
            os.setsid()
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)
            for sig in (signal.SIGALRM, signal.SIGUSR1, signal.SIGUSR2, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            io_dir = tmp / ".io"
            out_fd = os.open(io_dir / f"stdout{step}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            err_fd = os.open(io_dir / f"stderr{step}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            if case.stdout == "closed_pipe":
                r, w = os.pipe()
                os.close(r)
                os.dup2(w, 1)
            elif case.stdout == "dev_full":
                os.dup2(os.open("/dev/full", os.O_WRONLY), 1)
            else:
                os.dup2(out_fd, 1)
            os.dup2(err_fd, 2)
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
            sys.stdout = io.TextIOWrapper(
                io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=False
            )
            sys.stderr = io.TextIOWrapper(
                io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
            )
            sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
            import faulthandler

            faulthandler.enable(file=sys.stderr)
            atexit._clear()
            _forget_inherited_workers()
            limit_cpu(case.timeout)
            resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": str(tmp / ".home"),
                "TMPDIR": str(tmp / ".tmp"),
                "LANG": "C.UTF-8",
                "LC_ALL": "C.UTF-8",
                "COLUMNS": "120",
                "TERM": "dumb",
                "MPLBACKEND": "Agg",
                "MPLCONFIGDIR": str(self.mpl),
                "OPENBLAS_NUM_THREADS": "1",
                "OMP_NUM_THREADS": "1",
                "PYTHONHASHSEED": "0",
            }
            for key in ("VIRTUAL_ENV", "PYTHONPATH", "ARENA_DEBUG"):  # ARENA_DEBUG=1: tracebacks, for a diagnosis
                if key in os.environ:
                    env[key] = os.environ[key]
            env.update(case_env(case, tmp))
            os.environ.clear()
            os.environ.update(env)
            tempfile.tempdir = None
            if uid is not None:
                resource.setrlimit(resource.RLIMIT_NPROC, (PROCESSES, PROCESSES))
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
                libc = _libc()
                if libc is not None:
                    libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: /proc/self stays ours
            os.chdir(tmp / "work")
            import types

            main_module = types.ModuleType("__main__")  # as the console script runs: click names it `arena`
            main_module.__package__ = None
            sys.modules["__main__"] = main_module
            sys.argv = [shutil.which("arena") or "arena", *argv]
            if interrupt_assemble:
                _interrupt_before_assembly()
            if signal_at:
                _signal_at_chunk(tmp, signal_at)
            from arena.cli import main

            try:
                main()
                code = 0
            except SystemExit as exc:
                if exc.code is None:
                    code = 0
                elif isinstance(exc.code, int):
                    code = exc.code
                else:
                    print(exc.code, file=sys.stderr)
                    code = 1
            except KeyboardInterrupt:
                traceback.print_exc()
                code = 130
            except BaseException:
                traceback.print_exc()
                code = 1
            try:
                atexit._run_exitfuncs()
            except BaseException:
                traceback.print_exc()
            try:
                sys.stdout.flush()
            except BaseException:
                print("Exception ignored on flushing sys.stdout:", file=sys.stderr)
                traceback.print_exc()
                code = 120
            with contextlib.suppress(BaseException):
                sys.stderr.flush()
        except BaseException:
            with contextlib.suppress(BaseException):
                traceback.print_exc()
                sys.stderr.flush()
            code = 1
        finally:
            os._exit(code & 0xFF)

    def _run_child(
        self,
        case: Case,
        tmp: Path,
        uid: int | None,
        result: Result,
        argv: list[str] | None = None,
        interrupt_assemble: bool = False,
        step: int = 0,
        signal_at: dict | None = None,
    ) -> None:
        """Fork, run one command of the case, wait for it (killing it as a hang after ``hang_after(timeout)``)."""
        argv = [a.replace("{TMP}", str(tmp)) for a in (argv or case.argv)]
        sys.stdout.flush()
        sys.stderr.flush()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            self._child(case, tmp, uid, argv, interrupt_assemble, step, signal_at)
        status, cpu = self._wait(pid, started, case.timeout, tmp)
        result.seconds += time.monotonic() - started
        result.cpu += cpu
        self._kill_leftovers(uid, pid)
        if status is None:
            result.code = None
        elif os.WIFEXITED(status):
            result.code = os.WEXITSTATUS(status)
        else:
            result.code = -os.WTERMSIG(status)
        result.stdout = _read(tmp / ".io" / f"stdout{step}")
        result.stderr = _read(tmp / ".io" / f"stderr{step}")

    def _wait(self, pid: int, started: float, timeout: float, tmp: Path) -> tuple[int | None, float]:
        """(wait status, or None for a hang; CPU seconds) of the child ``pid``."""
        delay = 0.002
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                return status, usage.ru_utime + usage.ru_stime
            if time.monotonic() - started > hang_after(timeout):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                _, _, usage = os.wait4(pid, 0)
                return None, usage.ru_utime + usage.ru_stime
            time.sleep(delay)
            delay = min(delay * 1.5, 0.02)

    def _kill_leftovers(self, uid: int | None, pid: int) -> None:
        """Kill what the case left running: its process group, and (as root) every process of its own user id."""
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        if uid is None:
            return
        for _ in range(3):
            found = []
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    try:
                        if entry.stat(follow_symlinks=False).st_uid == uid:
                            found.append(int(entry.name))
                    except OSError:
                        continue
            if not found:
                return
            for child in found:
                with contextlib.suppress(OSError):
                    os.kill(child, signal.SIGKILL)
            time.sleep(0.05)

    def run_case(self, case: Case) -> Result:
        """Set up and run one case synchronously (the parallel path is :meth:`run_all`)."""
        return self.run_all([case])[case.id]

    def run_all(self, cases: list[Case], progress: Any = None) -> dict[str, Result]:
        """Run ``cases``, ``self.jobs`` at a time; every result checked."""
        for case in cases:  # templates first (serial, once)
            for name in needed_templates(case):
                with contextlib.suppress(RuntimeError):
                    self.template(name)
        results: dict[str, Result] = {}
        pending = list(cases)
        running: dict[int, tuple[Case, Path, int | None, Result, float, int]] = {}
        while pending or running:
            while pending and len(running) < self.jobs:
                case = pending.pop(0)
                result = Result(case)
                uid = self._new_uid(case)
                try:
                    if case.modes and uid is None and self.as_root:
                        raise ValueError(
                            "the case relies on file modes, but starts worker processes and so runs as "
                            "root, for whom modes mean nothing: give it --workers 1"
                        )
                    tmp = self.setup(case, uid)
                    for i, step in enumerate(case.steps):  # preceding steps run synchronously
                        step_result = Result(case)
                        self._run_child(
                            case,
                            tmp,
                            uid,
                            step_result,
                            argv=[str(a) for a in step["argv"]],
                            step=i + 1,
                            signal_at=step.get("signal_at"),
                        )
                        _check_step(step, step_result, result, i + 1)
                    before = self._before(tmp)
                except Exception as err:  # a broken case or template: the test reports it
                    result.setup_error = f"{type(err).__name__}: {err}"
                    result.add("setup", type(err).__name__, f"case set-up failed: {err}")
                    results[case.id] = result
                    continue
                argv = [a.replace("{TMP}", str(tmp)) for a in case.argv]
                sys.stdout.flush()
                sys.stderr.flush()
                started = time.monotonic()
                pid = os.fork()
                if pid == 0:
                    self._child(case, tmp, uid, argv, False, 0)
                running[pid] = (case, tmp, uid, result, started, before)
            finished = []
            for pid, (case, tmp, uid, result, started, before) in running.items():
                done, status, usage = os.wait4(pid, os.WNOHANG)
                timed_out = not done and time.monotonic() - started > hang_after(case.timeout)
                if timed_out:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(pid, signal.SIGKILL)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                    _, _, usage = os.wait4(pid, 0)
                if done or timed_out:
                    result.seconds += time.monotonic() - started
                    result.cpu += usage.ru_utime + usage.ru_stime
                    self._kill_leftovers(uid, pid)
                    if timed_out:
                        result.code = None
                    elif os.WIFEXITED(status):
                        result.code = os.WEXITSTATUS(status)
                    else:
                        result.code = -os.WTERMSIG(status)
                    result.stdout = _read(tmp / ".io" / "stdout0")
                    result.stderr = _read(tmp / ".io" / "stderr0")
                    try:
                        self.check(result, tmp, before)
                    except Exception as err:
                        result.add("harness", type(err).__name__, f"checking the case failed: {err!r}")
                    results[case.id] = result
                    finished.append(pid)
                    if progress:
                        progress(result)
            for pid in finished:
                del running[pid]
            if running and not finished:
                time.sleep(0.003)
        return results

    def _before(self, tmp: Path) -> Any:
        return {"outside": self._outside(tmp), "work": snapshot(tmp / "work")}

    def _outside(self, tmp: Path) -> dict[str, tuple]:
        snap = snapshot(tmp, hash_all=False)
        return {k: v for k, v in snap.items() if not (k == "work" or k.startswith("work" + os.sep))} | {
            "sentinel/" + k: v for k, v in snapshot(tmp / "sentinel", hash_all=True).items()
        }

    # -- checking
    def check(self, result: Result, tmp: Path, before: Any) -> None:
        case = result.case
        code, out, err = result.code, result.stdout, result.stderr
        shown = "(stderr not shown)" if case.redact else _excerpt(err)
        if code is None:
            result.add(
                "hang",
                f"killed after {hang_after(case.timeout):g} s",
                f"hang: still running after {hang_after(case.timeout):g} s of wall-clock time (killed; "
                f"{result.cpu:.1f} s of CPU); stderr so far: {shown}",
            )
        elif killed_at_cpu_limit(code, result.cpu, case.timeout):
            result.add(
                "cpu",
                f"more than {case.timeout:g} s of CPU",
                f"{cpu_message(case.timeout)} (killed by signal {-code}); stderr so far: {shown}",
            )
        elif code < 0:
            result.add(
                "signal",
                signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code),
                f"died of signal {-code}; stderr: {shown}",
            )
        if "Traceback (most recent call last)" in err:
            kind, where = traceback_summary(err)
            result.add("traceback", f"{kind} at {where}", f"traceback: {kind} at {where}; stderr: {shown}")
        elif "Fatal Python error" in err:
            result.add("crash", "fatal error", f"fatal Python error: {shown}")
        elif re.search(r"^MemoryError\b", err, re.M):
            result.add("traceback", "MemoryError (no traceback)", f"MemoryError: {shown}")
        internal = re.search(r"internal error: ([A-Za-z_][\w.]*)", err)
        if code is not None and code >= 0 and code not in case.exit and internal:
            result.add(
                "internal-error",
                f"exit {code}: internal error {internal.group(1)}",
                f"exit {code} (allowed {list(case.exit)}), an internal error: {shown}",
            )
        elif code is not None and code >= 0 and code not in case.exit:
            result.add(
                "exit",
                f"exit {code} (allowed {list(case.exit)})",
                f"exit code {code}, allowed {list(case.exit)}; stdout: {_excerpt(out)}; stderr: {shown}",
            )
        if code == 2 and "Traceback (most recent call last)" not in err:
            self._check_error(result, shown)
        if code == 0 and case.answer:
            self._check_answer(result, tmp, before)
        if case.stderr_has and code != 0:
            for text in case.stderr_has:
                if text not in err:
                    result.add("message", f"stderr lacks {text!r}", f"stderr should contain {text!r}: {shown}")
        for text in case.not_in_output:
            for stream, name in ((out, "stdout"), (err, "stderr")):
                if text in stream:
                    result.add("output", f"{name} has {text!r}", f"{name} contains {text!r}")
        # artifacts
        after_work = snapshot(tmp / "work")
        for pattern, text in case.not_in_files.items():
            for rel, entry in after_work.items():
                if entry[0] != "file" or before["work"].get(rel) == entry or entry[1] > 1 << 22:
                    continue
                if fnmatch.fnmatch(rel, pattern) and text.encode() in (tmp / "work" / rel).read_bytes():
                    result.add("output", f"a written file holds {text!r}", f"{rel} contains {text!r}")
        if code != 0 and not case.complete_ok:
            leftovers = []
            for rel, entry in after_work.items():
                if entry[0] != "file" or before["work"].get(rel) == entry:
                    continue
                if looks_complete(tmp / "work" / rel):
                    leftovers.append(rel)
            if leftovers:
                result.add(
                    "leftover",
                    "complete-looking output after a failure",
                    f"exit {code} but left complete-looking output: {', '.join(sorted(leftovers)[:5])}",
                )
        for rel in case.must_not_exist:
            path = Path(rel.replace("{TMP}", str(tmp)))
            path = path if path.is_absolute() else tmp / "work" / path
            if os.path.lexists(path):
                result.add("created", f"{rel} exists", f"{rel} must not exist after this case (it does)")
        for rel in case.unchanged:
            entry = before["work"].get(os.path.normpath(rel))
            if after_work.get(os.path.normpath(rel)) != entry:
                result.add("clobbered", f"{rel} changed or deleted", f"{rel} was changed or deleted")
        # outside the working folder
        after = self._outside(tmp)
        allowed = [a.replace("{TMP}/", "").replace("{TMP}", "") for a in case.outside_ok]
        changed = []
        for rel in sorted(set(before["outside"]) | set(after)):
            if before["outside"].get(rel) == after.get(rel):
                continue
            if any(rel == a or rel.startswith(a.rstrip("/") + "/") or fnmatch.fnmatch(rel, a) for a in allowed if a):
                continue
            what = "created" if rel not in before["outside"] else "deleted" if rel not in after else "changed"
            changed.append(f"{what} {rel}")
        if not (tmp / "work").exists():
            changed.append("deleted work/ (the working folder itself)")
        if changed:
            result.add(
                "outside",
                "files outside the working folder touched",
                "outside the working folder: "
                + "; ".join(changed[:6])
                + (f" (+{len(changed) - 6} more)" if len(changed) > 6 else ""),
            )
        if case.reference and code == 0:
            self._check_reference(result, tmp)

    def _check_error(self, result: Result, shown: str) -> None:
        case = result.case
        out, err = result.stdout, result.stderr
        lines = [line for line in err.splitlines() if line.strip()]
        if out.strip():
            result.add(
                "stdout-on-error", "output on stdout with exit 2", f"exit 2 but stdout is not empty: {_excerpt(out)}"
            )
        if case.command == "bestiary validate" and not any(line.startswith("error: ") for line in lines):
            # its documented form: each problem as file:line: field: message, then "N problems found"
            problems = [line for line in lines if not re.fullmatch(r"\d+ problems? found", line)]
            summary = [line for line in lines if re.fullmatch(r"\d+ problems? found", line)]
            error_lines = problems
            extra = [] if len(summary) == 1 and lines[-1] == summary[0] else ["(no 'N problems found' line)"]
            if not problems:
                result.add("multi-line", "validate exit 2 without a problem line", f"exit 2, no problem: {shown}")
            if extra and problems:
                result.add("multi-line", "validate output malformed", f"validate output malformed: {shown}")
        else:
            error_lines = [line for line in lines if line.startswith("error: ")]
            # "running policy file X" is the announcement the issue asks for before trusted code runs
            others = [
                line
                for line in lines
                if not line.startswith("error: ")
                and not line.startswith("running policy file ")
                and not (case.warnings_ok and line.startswith("warning: "))
            ]
            if len(error_lines) != 1 or others:
                first = re.sub(r"\d+", "N", others[0])[:40] if others else ""
                kind = (
                    "usage error (click/typer)"
                    if any("Usage:" in line or "Try '" in line for line in lines)
                    else f"{len(error_lines)} error lines + {len(others)} other lines"
                    + (f" (first: {first!r})" if first else "")
                )
                if len(error_lines) > 1 and len(error_lines) <= case.max_error_lines and not others:
                    pass
                else:
                    result.add(
                        "multi-line", kind, f"exit 2 but stderr is not one 'error: ' line ({len(lines)} lines): {shown}"
                    )
        longest = max((len(line) for line in lines), default=0)
        if longest > MAX_ERROR_LINE:
            result.add(
                "long-line",
                "an error line longer than 5,000 characters",
                f"an error line of {longest:,} characters (the value echoed whole?)",
            )
        if CONTROL.search(err):
            result.add(
                "control-chars",
                "raw control characters on stderr",
                f"stderr holds raw control characters: {err[:300].encode('unicode_escape').decode()!r}",
            )
        if case.error_names and error_lines:
            joined = "\n".join(error_lines)
            if not any(name in joined for name in case.error_names):
                result.add(
                    "unnamed",
                    "error does not name the file/argument",
                    f"the error does not name {' or '.join(map(repr, case.error_names))}: {shown}",
                )

    def _check_answer(self, result: Result, tmp: Path, before: Any) -> None:
        case = result.case
        out = result.stdout
        argv = case.argv
        command = case.command
        if CONTROL.search(out.replace("\r", "")):
            result.add(
                "control-chars",
                "raw control characters on stdout",
                f"stdout holds raw control characters: {out[:200].encode('unicode_escape').decode()!r}",
            )
        wants_json = "--json" in argv
        if case.stdout != "file":
            return
        if wants_json and command not in ("run", "report"):
            try:
                doc = json.loads(out)
            except ValueError:
                result.add("answer", "--json output is not JSON", f"exit 0 but --json printed no JSON: {_excerpt(out)}")
                return
            if command == "fight" and not (isinstance(doc, dict) and "record" in doc):
                result.add("answer", "fight --json without a record", "exit 0 but the fight JSON has no record")
            return
        if command == "fight" and "winner:" not in out:
            result.add("answer", "fight printed no winner", f"exit 0 but no 'winner:' line: {_excerpt(out)}")
        elif command == "bestiary validate" and not out.startswith("OK:"):
            result.add("answer", "validate printed no OK", f"exit 0 but no 'OK:': {_excerpt(out)}")
        elif command == "bestiary schema":
            try:
                json.loads(out)
            except ValueError:
                result.add("answer", "schema is not JSON", "exit 0 but the schema is not JSON")
        elif command == "report":
            match = re.search(r"wrote (.+)", out)
            page = Path(match.group(1).strip()) if match else None
            if page is not None and not page.is_absolute():
                page = tmp / "work" / page
            if page is None or not page.is_file() or page.stat().st_size == 0:
                result.add("answer", "report wrote no page", f"exit 0 but no page written: {_excerpt(out)}")
        elif command == "run":
            self._check_run_folders(result, tmp, before)
        elif command == "check" and "passed" not in out:
            result.add("answer", "check printed no verdict", f"exit 0 but no 'passed': {_excerpt(out)}")
        elif not out.strip():
            result.add("answer", "no output", "exit 0 but printed nothing")

    def _check_run_folders(self, result: Result, tmp: Path, before: Any) -> None:
        """Exit 0 from `arena run`: every results folder it wrote is complete and holds what its manifest says."""
        import pyarrow.parquet as pq

        work = tmp / "work"
        argv = [a.replace("{TMP}", str(tmp)) for a in result.case.argv]
        if "--out" in argv[:-1]:
            out = Path(argv[argv.index("--out") + 1])
            out = out if out.is_absolute() else work / out
            manifests = [out / "manifest.json"] if (out / "manifest.json").is_file() else []
            if not manifests:
                result.add("answer", "run exit 0 but no results folder", f"exit 0 but {out} has no manifest.json")
                return
            work = Path(os.path.commonpath([work, out.resolve()]))
        else:
            after = snapshot(work)
            manifests = [
                work / rel
                for rel, entry in after.items()
                if os.path.basename(rel) == "manifest.json" and before["work"].get(rel) != entry
            ]
            if not manifests:  # e.g. resuming a complete run: nothing written, what is there must be complete
                manifests = [work / rel for rel in after if os.path.basename(rel) == "manifest.json"]
        if not manifests:
            result.add("answer", "run left no results folder", "exit 0 but no results folder (manifest.json)")
            return
        for manifest_path in manifests:
            folder = manifest_path.parent
            try:
                manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                result.add("answer", "run left an unreadable manifest", f"{folder}: unreadable manifest.json")
                continue
            if manifest.get("status") != "complete":
                result.add(
                    "answer",
                    "run exit 0 but manifest not complete",
                    f"exit 0 but {_rel(folder, work)}/manifest.json says {manifest.get('status')!r}",
                )
                continue
            parquet = folder / "encounters.parquet"
            try:
                rows = pq.read_metadata(parquet).num_rows
            except Exception as err:
                result.add(
                    "answer",
                    "run exit 0 but encounters.parquet unreadable",
                    f"exit 0 but {_rel(folder, work)}/encounters.parquet is unreadable ({err})",
                )
                continue
            expected = manifest.get("encounters")
            if isinstance(expected, int) and rows != expected:
                result.add(
                    "answer",
                    "encounters.parquet row count differs from the manifest",
                    f"{_rel(folder, work)}: {rows} rows, the manifest says {expected}",
                )
            if not (folder / "summary.csv").is_file():
                result.add("answer", "run exit 0 without summary.csv", f"{_rel(folder, work)}: no summary.csv")

    def _check_reference(self, result: Result, tmp: Path) -> None:
        import pyarrow.parquet as pq

        ref = self.template(result.case.reference.get("template", "duel600-complete")) / "encounters.parquet"
        got = tmp / "work" / result.case.reference.get("out", "out") / "encounters.parquet"
        try:
            same = pq.read_table(got).equals(pq.read_table(ref))
        except Exception as err:
            result.add("wrong-result", "resumed results unreadable", f"exit 0 but {got.name} unreadable: {err}")
            return
        if not same:
            result.add(
                "wrong-result",
                "resumed run differs from a clean run",
                "exit 0 but encounters.parquet differs from a clean run of the same command",
            )


def interpreter_shared() -> bool:
    """Whether every user may execute ``sys.executable`` (and so start worker processes as another user)."""
    path = Path(os.path.realpath(sys.executable))
    for part in [*reversed(path.parents), path]:
        try:
            if not os.stat(part).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


def spawns_workers(case: Case) -> bool:
    """Whether the case may start local worker processes (``--workers K`` with K > 1, or the default: every core).

    Such cases keep the harness's user id when the interpreter cannot be run by another user: read-only folders
    and the process limit are then not enforced for them, so none of them relies on either."""
    commands = [case.argv, *(step["argv"] for step in case.steps)]
    for argv in commands:
        argv = [str(a) for a in argv]
        if not argv or argv[0] not in ("run", "check", "claims", "calibrate"):
            continue
        if "--cluster" in argv[:-1] and argv[argv.index("--cluster") + 1]:
            continue
        if "--workers" in argv[:-1]:
            value = argv[argv.index("--workers") + 1]
            if value.isdigit() and 2 <= int(value) <= 64:
                return True
        else:
            return True
    return False


def needed_templates(case: Case) -> list[str]:
    names = [case.template["name"]] if case.template else []
    if case.reference:
        names.append(case.reference.get("template", "duel600-complete"))
    if any(
        isinstance(s, dict) and (s.get("gen") == "parquet" or (s.get("gen") == "base" and s.get("kind") == "results"))
        for s in case.files.values()
    ):
        names.append("duel600-complete")
    return names


def case_env(case: Case, tmp: Path) -> dict[str, str]:
    """The case's ``env`` with ``{TMP}`` replaced: set in the child over the clean environment."""
    return {str(key): str(value).replace("{TMP}", str(tmp)) for key, value in case.env.items()}


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _check_step(step: dict, step_result: Result, result: Result, index: int) -> None:
    allowed = step.get("exit")
    if "Traceback (most recent call last)" in step_result.stderr:
        kind, where = traceback_summary(step_result.stderr)
        result.add(
            "traceback",
            f"{kind} at {where} (step {index})",
            f"step {index} ({shlex.join(map(str, step['argv']))}): traceback {kind} at {where}",
        )
    if step_result.code is None:
        result.add(
            "hang",
            f"step {index} killed",
            f"step {index}: hang: still running after "
            f"{hang_after(step_result.case.timeout):g} s of wall-clock time (killed)",
        )
    elif killed_at_cpu_limit(step_result.code, step_result.cpu, step_result.case.timeout):
        result.add(
            "cpu",
            f"step {index} more than {step_result.case.timeout:g} s of CPU",
            f"step {index}: {cpu_message(step_result.case.timeout)}",
        )
    elif allowed is not None and step_result.code not in allowed:
        result.add(
            "exit",
            f"step {index} exit {step_result.code}",
            f"step {index}: exit {step_result.code}, allowed {allowed}: {_excerpt(step_result.stderr)}",
        )


def _signal_at_chunk(tmp: Path, signal_at: dict) -> None:
    """In the child: send ``signal_at['signal']`` to this process right after the ledger lists the chunk that brings
    the files matching ``signal_at['glob']`` to ``signal_at['count']`` (a run's and a study's chunks alike).

    The signal comes at a known point of the command, not when a watcher happens to look: a parent polling for the
    files could miss the window on a loaded machine (the last chunks written and removed with the finished study
    before it looked), and the case then saw a command that had finished instead of one it had stopped."""
    import arena.study.runs.experiment as experiment
    import arena.study.runs.ledger as ledger
    import arena.study.runs.study_folder as study_folder

    real = ledger.record_chunk
    pattern = str(tmp / "work" / signal_at["glob"])
    signum = getattr(signal, signal_at.get("signal", "SIGINT"))
    sent = [False]

    def record_chunk(*args: Any, **kwargs: Any) -> Any:
        entry = real(*args, **kwargs)
        if not sent[0] and len(glob.glob(pattern)) >= signal_at.get("count", 1):
            sent[0] = True
            os.kill(os.getpid(), signum)
        return entry

    study_folder.record_chunk = record_chunk  # a study's chunks
    experiment.record_chunk = record_chunk  # a run's


def _interrupt_before_assembly() -> None:
    """Make the run stop (as Ctrl-C would) once every chunk is written, before the chunks are assembled."""
    import arena.study.runs.experiment as experiment

    def interrupted(*_args: Any, **_kwargs: Any) -> None:
        raise KeyboardInterrupt

    for name in ("assemble", "assemble_chunks", "_assemble"):
        if hasattr(experiment, name):
            setattr(experiment, name, interrupted)
            return
    raise RuntimeError("arena.study.runs.experiment has no assemble(): update the harness's partial-run template")


def _read(path: Path, limit: int = 1 << 23) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit)
    except OSError:
        return ""
    return data.decode("utf-8", "backslashreplace")


def _excerpt(text: str, limit: int = 400) -> str:
    text = text.strip()
    if len(text) > limit:
        text = text[: limit // 2] + " [...] " + text[-limit // 2 :]
    return repr(text)


# --------------------------------------------------------------------------------------------- mutations
def mutate(work: Path, op: dict, tmp: str) -> None:
    """Change a copied results folder: corrupt, truncate, replace or move chunks and files."""
    op = dict(op)
    kind = op.pop("op")
    base = work / op.pop("folder", "out")
    chunks = sorted((base / "chunks").glob("*.parquet")) if (base / "chunks").is_dir() else []

    def chunk(i: int) -> Path:
        return chunks[i]

    def target(key: str = "path") -> Path:
        return (
            work / op[key].replace("{TMP}", tmp)
            if not op[key].startswith("{TMP}")
            else Path(op[key].replace("{TMP}", tmp))
        )

    if kind == "delete_chunks":
        for i in op.get("which", [1, 4, 6]):
            chunk(i).unlink()
    elif kind == "chunk_random":
        chunk(op.get("which", 1)).write_bytes(random.Random(7).randbytes(op.get("size", 5000)))
    elif kind == "chunk_truncate":
        path = chunk(op.get("which", 1))
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * op.get("keep", 0.5))])
    elif kind == "chunk_empty":
        chunk(op.get("which", 1)).write_bytes(b"")
    elif kind == "chunk_copy":
        shutil.copyfile(chunk(op.get("src", 0)), chunk(op.get("dst", 1)))
    elif kind == "chunk_dir":
        path = chunk(op.get("which", 1))
        path.unlink()
        path.mkdir()
        (path / "inside.txt").write_text("a folder where a chunk should be")
    elif kind == "chunk_symlink":
        path = chunk(op.get("which", 1))
        path.unlink()
        os.symlink(op["target"].replace("{TMP}", tmp), path)
    elif kind == "chunk_fifo":
        path = chunk(op.get("which", 1))
        path.unlink()
        os.mkfifo(path)
    elif kind == "chunk_bitflip":
        path = chunk(op.get("which", 1))
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    elif kind == "chunks_symlink":
        dest = Path(op["target"].replace("{TMP}", tmp))
        if not dest.is_absolute():
            dest = work / dest
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(base / "chunks"), dest)
        os.symlink(dest, base / "chunks")
    elif kind == "write":
        path = target()
        path.parent.mkdir(parents=True, exist_ok=True)
        text = op.get("text", "")
        path.write_bytes(generate(expand(text) if isinstance(text, str) else text, tmp))
    elif kind == "random":
        target().write_bytes(random.Random(3).randbytes(op.get("size", 10_000)))
    elif kind == "truncate":
        path = target()
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * op.get("keep", 0.5))])
    elif kind == "remove":
        path = target()
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif os.path.lexists(path):
            path.unlink()
    elif kind == "bitflip":
        path = target()
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x10
        path.write_bytes(bytes(data))
    elif kind == "mkdir":
        target().mkdir(parents=True, exist_ok=True)
    elif kind == "symlink":
        path = target()
        if os.path.lexists(path):
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        os.symlink(op["to"].replace("{TMP}", tmp), path)
    elif kind == "json_set":
        path = target()
        doc = json.loads(path.read_text())
        for key, value in op["set"].items():
            set_path(doc, key, value)
        path.write_text(json.dumps(doc))
    elif kind == "move":
        shutil.move(str(target()), str(target("to")))
    elif kind == "copy":
        src, dst = target(), target("to")
        if src.is_dir():
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copyfile(src, dst)
    else:
        raise ValueError(f"unknown mutation {kind!r}")


# --------------------------------------------------------------------------------------------- by hand
def _main(argv: list[str]) -> int:
    """``python tests/hostile_harness.py CASE_ID...``: set each case up, run it with the real ``arena`` (a
    subprocess), print what happened, and leave the folder for a look."""
    if not argv:
        print(__doc__.split("Run one case by hand")[0])
        return 2
    by_id = {c.id: c for c in load_corpus()}
    runner = Runner()
    runner.as_root = False
    for case_id in argv:
        matches = [c for c in by_id.values() if fnmatch.fnmatch(c.id, case_id)]
        if not matches:
            print(f"no case {case_id!r}")
            return 2
        for case in matches:
            if case.template:
                preload()
            runner.counter += 1
            tmp = runner.setup(case, None)
            env = {**os.environ, **case_env(case, tmp)}
            limit = functools.partial(limit_cpu, case.timeout)  # CPU seconds, as in the corpus run
            for i, step in enumerate(case.steps, 1):
                args = [str(a).replace("{TMP}", str(tmp)) for a in step["argv"]]
                print(f"== step {i}: arena {shlex.join(args)}")
                _by_hand(case, ["arena", *args], tmp / "work", env, limit, capture=False)
            args = [a.replace("{TMP}", str(tmp)) for a in case.argv]
            print(f"== {case.id}  (in {tmp / 'work'}; {case.timeout:g} s of CPU)\n$ arena {shlex.join(args)}")
            _by_hand(case, ["arena", *args], tmp / "work", env, limit, capture=True)
    return 0


def _by_hand(case: Case, command: list[str], cwd: Path, env: dict[str, str], limit: Any, capture: bool) -> None:
    """Run one command of a case by hand, limited as the corpus run limits it; print what happened."""
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=capture,
            text=True,
            errors="backslashreplace",
            preexec_fn=limit,
            timeout=hang_after(case.timeout),
        )
    except subprocess.TimeoutExpired:
        print(f"hang: still running after {hang_after(case.timeout):g} s of wall-clock time (killed)")
        return
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    verdict = (
        f"{cpu_message(case.timeout)} (killed by signal {-proc.returncode})"
        if killed_at_cpu_limit(proc.returncode, used, case.timeout)
        else f"exit {proc.returncode}"
    )
    print(f"{verdict} ({used:.2f} s of CPU)")
    if capture:
        print(f"--- stdout\n{proc.stdout[-2000:]}\n--- stderr\n{proc.stderr[-3000:]}")


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
