"""Every command over the hostile corpus (``tests/hostile/``): exit 0 with a right answer, or exit 2 with one line.

Each case is its own test. The cases selected for a session are run together, several at a time, by one
fixture (forked children of this process, which has imported ``arena`` once: see ``tests/hostile_harness.py``),
so the whole corpus takes about a minute on two cores; each test then states its case's verdict. A failing case
prints what broke the contract and a command line that reproduces it. A case's time limit is CPU time, never
wall-clock time (``tests/cpu_limits.py``): a busy machine slows the corpus down but fails no case.

Set ``HOSTILE_REPORT=path.json`` to write every case's outcome (exit code, wall and CPU seconds, symptoms) to a
file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import cpu_limits
import pytest
from hostile_harness import COMMANDS, CONTROL, RESUME_RUN, Case, Runner, case_env, load_corpus, preload, standard_files

CASES = load_corpus()
BY_ID = {case.id: case for case in CASES}


@pytest.fixture(scope="session")
def hostile_results(request):
    """Run every hostile case selected in this session (once, in parallel); {id: Result}."""
    wanted = [
        item.callspec.params["case_id"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_hostile_case" and hasattr(item, "callspec")
    ]
    preload()
    runner = Runner()
    started = time.monotonic()
    try:
        results = runner.run_all([BY_ID[i] for i in wanted])
    finally:
        runner.close()
    seconds = time.monotonic() - started
    report = os.environ.get("HOSTILE_REPORT")
    if report:
        rows = [
            {
                "id": r.case.id,
                "command": r.case.command,
                "argv": r.case.argv,
                "exit": r.code,
                "allowed": list(r.case.exit),
                "seconds": round(r.seconds, 3),
                "cpu": round(r.cpu, 3),
                "cpu_limit": r.case.timeout,
                "symptoms": r.symptoms,
                "problems": r.problems,
                "repro": r.case.repro(),
                "source": r.case.source,
                "stderr": "" if r.case.redact else r.stderr[-1500:],
            }
            for r in results.values()
        ]
        with open(report, "w", encoding="utf-8") as handle:
            json.dump({"seconds": round(seconds, 1), "cases": rows}, handle, indent=1)
    return results


@pytest.mark.parametrize("case_id", [case.id for case in CASES])
def test_hostile_case(case_id, hostile_results):
    result = hostile_results[case_id]
    case = result.case
    if result.problems:
        pytest.fail(
            f"{case.id} ({case.source}; exit {result.code}, {result.seconds:.1f} s, {result.cpu:.1f} s of "
            f"CPU of {case.timeout:g})\n  " + "\n  ".join(result.problems) + f"\n  reproduce: {case.repro()}",
            pytrace=False,
        )


def test_the_corpus_covers_every_command():
    """Several hundred cases, and every one of the eleven commands has a fair share of them."""
    per_command = Counter(case.argv[0] for case in CASES if case.argv)
    assert len(CASES) >= 450, len(CASES)
    for command in COMMANDS:
        assert per_command[command] >= 8, (command, per_command[command])


def test_the_audit_cases_are_in_the_corpus():
    """The cases the audit listed, by what they do (spot checks of the corpus, not of the code)."""

    def has(command: str, *words: str) -> bool:
        return any(
            case.argv[:1] == [command]
            and all(any(w in str(x) for x in [*case.argv, *case.files.values(), *case.files]) for w in words)
            for case in CASES
        )

    argv_of = {case.id: case.argv for case in CASES}
    for command in ("fight", "run", "check"):
        assert f"file-alias-bomb.{command}" in argv_of
        assert f"file-nest-10000.{command}" in argv_of
    assert "file-alias-bomb.validate" in argv_of
    for word in ("/dev/zero", "/dev/urandom"):
        assert any(word in case.argv for case in CASES)
    assert has("odds", "--bonus", "200", "variable")
    assert has("run", "1000000000000")
    assert has("calibrate", "100000")
    assert has("compare", "nan")
    assert any("--trust-policies" in case.argv for case in CASES)
    assert any(case.template and case.mutate for case in CASES)


# --------------------------------------------------------------------------------------------- the harness itself
def test_a_case_over_its_cpu_budget_fails_as_cpu_not_as_a_hang():
    """A case's timeout is CPU seconds (RLIMIT_CPU in the child): a case that computes past it is killed and
    reported as ``cpu: used more than N s of CPU``, however long it took on the wall clock."""
    preload()  # as the corpus runs (a child of another user id cannot import from /root)
    runner = Runner(jobs=1)
    try:
        case = Case(
            "cpu-budget",
            ["claims", "--only", "bell-favours-stronger", "--n", "20", "--workers", "1"],
            "test",
            timeout=1,
        )
        result = runner.run_case(case)
    finally:
        runner.close()
    assert [kind for kind, _ in result.symptoms][:1] == ["cpu"], result.problems
    assert result.problems[0].startswith("cpu: used more than 1 s of CPU"), result.problems
    assert result.cpu > 0.5, result.cpu  # the kernel samples CPU time per tick: about 1 s


def test_a_case_sets_environment_variables_in_the_child(tmp_path):
    """``env`` is set over the clean environment (``{TMP}`` replaced): here COLUMNS, which sets a table's width."""
    case = Case("env", ["party", "--level", "3"], "test", env={"COLUMNS": "60", "SOME_PATH": "{TMP}/cfg/x.yaml"})
    assert case_env(case, tmp_path) == {"COLUMNS": "60", "SOME_PATH": f"{tmp_path}/cfg/x.yaml"}
    preload()
    runner = Runner(jobs=1)
    try:
        narrow = runner.run_case(case)
        wide = runner.run_case(Case("env-wide", case.argv, "test", env={"COLUMNS": "200"}))
    finally:
        runner.close()
    assert narrow.code == 0 and wide.code == 0, (narrow.problems, wide.problems)
    assert not narrow.problems and not wide.problems, (narrow.problems, wide.problems)
    assert narrow.stdout != wide.stdout


# --------------------------------------------------------------------------------------------- real processes
# The few cases a forked child cannot stand for: the installed console script itself, and Ctrl-C as a terminal
# sends it, to the whole process group (the run and its worker processes at once).
ARENA = shutil.which("arena") or str(Path(sys.executable).with_name("arena"))
REAL_CPU = 30
"""Seconds of CPU time for each real `arena` process here (a 600-encounter run uses 2-4 s, the others under 1 s);
a hang is caught after ``cpu_limits.hang_after(REAL_CPU)`` (900 s) of wall-clock time."""


def _arena(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return cpu_limits.run(
        [ARENA, *args], cpu=REAL_CPU, cwd=folder, capture_output=True, text=True, errors="backslashreplace"
    )


def _files(folder: Path) -> None:
    for name, text in standard_files().items():
        (folder / name).write_text(text, encoding="utf-8")


def test_real_ctrl_c_to_the_process_group_then_resume(tmp_path):
    """Ctrl-C reaches the run and its two workers together; the run stops with one line, and --resume then
    gives exactly what an uninterrupted run gives."""
    import pyarrow.parquet as pq

    _files(tmp_path)
    command = [ARENA, *RESUME_RUN[: RESUME_RUN.index("--workers")], "--workers", "2", "--quiet", "--out", "out"]
    proc = subprocess.Popen(
        command,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: cpu_limits.limit_cpu(REAL_CPU),
    )
    deadline = time.monotonic() + cpu_limits.hang_after(REAL_CPU)  # a hang guard only: CPU is the limit
    while proc.poll() is None and time.monotonic() < deadline:
        if len(list((tmp_path / "out" / "chunks").glob("*.parquet"))) >= 2:
            os.killpg(proc.pid, signal.SIGINT)
            break
        time.sleep(0.005)
    try:
        _out, err = proc.communicate(timeout=cpu_limits.hang_after(REAL_CPU))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"hang: the interrupted run was still running {cpu_limits.hang_after(REAL_CPU):g} s after Ctrl-C")
    assert proc.returncode != -signal.SIGXCPU, cpu_limits.cpu_message(REAL_CPU)
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 130), (proc.returncode, err)
    if proc.returncode == 130:
        assert len([line for line in err.splitlines() if line.strip()]) == 1, err
    resumed = _arena(tmp_path, *command[1:], "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert "Traceback" not in resumed.stderr, resumed.stderr
    clean = _arena(tmp_path, *RESUME_RUN[:-1], "clean")
    assert clean.returncode == 0, clean.stderr
    assert pq.read_table(tmp_path / "out" / "encounters.parquet").equals(
        pq.read_table(tmp_path / "clean" / "encounters.parquet")
    )


@pytest.mark.parametrize(
    "args",
    [
        ["bestiary", "show", "\x1b[31mtroll\x1b[0m"],
        ["fight", "in.yaml"],
        ["odds", "attack", "--bonus", "1000000000", "--ac", "18", "--modifiers", "variable"],
    ],
    ids=["ansi-name", "nul-in-file", "huge-bonus"],
)
def test_the_console_script_keeps_the_contract(tmp_path, args):
    """The installed `arena` script and `python -m arena`: exit 0 or 2 with one error line, never a traceback."""
    _files(tmp_path)
    (tmp_path / "in.yaml").write_text("name: a\x00b\n", encoding="utf-8")
    for command in ([ARENA, *args], [sys.executable, "-m", "arena", *args]):
        proc = cpu_limits.run(
            command, cpu=REAL_CPU, cwd=tmp_path, capture_output=True, text=True, errors="backslashreplace"
        )
        assert "Traceback" not in proc.stderr, proc.stderr
        assert proc.returncode in (0, 2), (command, proc.returncode, proc.stderr)
        if proc.returncode == 2:
            lines = [line for line in proc.stderr.splitlines() if line.strip()]
            assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
            assert not CONTROL.search(proc.stderr), proc.stderr
