"""`arena ... | head -1`: a reader that stops reading is no failed check (exit 1) and no bad input (exit 2): the
command ends quietly with exit 0, whether rich, click or a plain print met the closed pipe (issue 22, finding 10)."""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest
from cpu_limits import hang_after, limit_cpu

COMMANDS = [
    ["bestiary", "coverage"],  # rich: exited 1
    ["bestiary", "list"],  # rich
    ["bestiary", "schema"],  # click.echo: exited 1
    ["odds", "claims", "--json"],  # click.echo
    ["party", "--level", "20", "--json"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_reader_that_reads_one_line_and_closes_the_pipe(argv):
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "100"},
        preexec_fn=functools.partial(limit_cpu, 20),
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # `| head -1`
    err = proc.stderr.read()
    code = proc.wait(timeout=hang_after(20))  # a hang guard only: the bound is 20 s of CPU (an honest run: ~1 s)
    assert first
    assert code == 0, err.decode(errors="replace")
    assert b"Traceback" not in err and b"error:" not in err
