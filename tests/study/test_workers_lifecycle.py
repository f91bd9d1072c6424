"""Worker processes and clusters: a local worker dies with its run at any point of its life (SIGKILL of the run
while the pool is still starting left loky workers and resource trackers behind for minutes), and --cluster is
checked before anything is written (a bad address stalled, printed a Client.__del__ traceback and left a results
folder that refused the corrected retry). The audit's findings 2 and 3.

No test here bounds the wall clock tightly: waits are counted polls with a generous total, and the commands run
with a CPU budget (tests/cpu_limits.py)."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import cpu_limits
import pandas as pd
import pytest
from experiment_fakes import FakeScenario, FakeSimulator
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ArenaError
from arena.study.runs import cluster, workers
from arena.study.runs.experiment import run_experiment
from arena.study.runs.in_memory import run

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "scenarios" / "duel.yaml")
ARENA = [sys.executable, "-m", "arena"]
"""The installed command, as this interpreter runs it."""
runner = CliRunner()
linux = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not Path("/proc/self/stat").exists(),
    reason="reads /proc and the Linux parent-death signal",
)


# --------------------------------------------------------------------------------------------- processes
def _stat(pid: int) -> tuple[str, int] | None:
    """(state, session id) of a process from /proc, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[3])


def session_alive(sid: int) -> list[str]:
    """The command lines of the live (not zombie) processes of session ``sid``."""
    alive = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is None or stat[1] != sid or stat[0] in ("Z", "X"):
            continue
        try:
            cmd = Path(f"/proc/{entry.name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        alive.append(f"{entry.name} {cmd.strip()}")
    return alive


def wait_until(condition, polls: int, pause: float):
    """Poll ``condition`` at most ``polls`` times, ``pause`` seconds apart; its last value."""
    value = condition()
    for _ in range(polls):
        if value:
            return value
        time.sleep(pause)
        value = condition()
    return value


def kill_all(sid: int) -> None:
    """Clean up after a failed test: whatever of session ``sid`` still lives (these are the test's own processes)."""
    for line in session_alive(sid):
        with contextlib.suppress(OSError):
            os.kill(int(line.split()[0]), signal.SIGKILL)


def kill_at_pool_start(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc`` (a session leader) once its first loky worker appears, before it has a task (with no
    initializer, every such kill left both workers and both resource trackers behind); then nothing of it may live
    on."""
    started = wait_until(
        lambda: any("LokyProcess" in p for p in session_alive(proc.pid)) or proc.poll() is not None,
        polls=30_000,
        pause=0.01,
    )
    assert started and proc.poll() is None, "the run ended before its pool started"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    gone = wait_until(lambda: not session_alive(proc.pid), polls=600, pause=0.2)  # 120 s at most
    assert gone, f"still alive after the run was killed: {session_alive(proc.pid)}"


@linux
def test_sigkill_of_a_run_while_its_pool_starts_leaves_no_process(tmp_path):
    """`arena run --workers 2`, SIGKILL once its first loky worker appears: every process of its session goes."""
    for attempt in range(2):
        proc = subprocess.Popen(
            [*ARENA, "run", DUEL, "--n", "3000", "--workers", "2", "--quiet", "--out", str(tmp_path / f"r{attempt}")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=lambda: cpu_limits.limit_cpu(60),
        )
        try:
            kill_at_pool_start(proc)
        finally:
            kill_all(proc.pid)


@linux
def test_a_worker_whose_run_is_gone_exits_at_once():
    pid = os.fork()
    if pid == 0:  # a "worker" told that its run is a process that is not its parent
        try:
            workers._worker_init(os.getppid() + 1_000_000)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1


@linux
def test_a_worker_dies_with_its_run(tmp_path):
    """A run process starts a worker (which runs the initializer and then waits for tasks forever); SIGKILL of the
    run takes the worker with it."""
    read_end, write_end = os.pipe()
    run_pid = os.fork()
    if run_pid == 0:  # the "run"
        os.setsid()
        worker = os.fork()
        if worker == 0:  # the "worker"
            workers._worker_init(os.getppid())
            os.write(write_end, f"{os.getpid()}\n".encode())
            while True:
                time.sleep(1)
        time.sleep(3600)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        worker_pid = int(pipe.readline())
    assert _stat(worker_pid) is not None
    os.kill(run_pid, signal.SIGKILL)
    os.waitpid(run_pid, 0)
    gone = wait_until(lambda: (_stat(worker_pid) or ("Z",))[0] in ("Z", "X"), polls=600, pause=0.1)
    assert gone, "the worker outlived its run"


class ParentDeathProbe(FakeSimulator):
    """Reports, as each fight's ``rounds``, the signal the kernel promised the worker at its parent's death."""

    def fight(self, prepared, rules, seed):
        row = super().fight(prepared, rules, seed)
        value = ctypes.c_int(0)
        ctypes.CDLL(None).prctl(2, ctypes.byref(value), 0, 0, 0)  # PR_GET_PDEATHSIG
        return {**row, "rounds": value.value}


@linux
def test_local_workers_are_started_with_the_initializer():
    rows = run(FakeScenario(n=6, keys=("d20",)), workers=2, chunk_size=1, simulator=ParentDeathProbe())
    assert set(rows["rounds"]) == {int(signal.SIGUSR1)}


def test_local_workers_do_not_collect_garbage_every_second():
    """loky checks its workers' memory with psutil (a dependency); without it, a worker runs a full gc.collect()
    after any task once a second has passed, a quarter of a study worker's time on a large heap (issue 25)."""
    from joblib.externals.loky import process_executor

    assert process_executor._USE_PSUTIL


# --------------------------------------------------------------------------------------------- --cluster
@pytest.mark.parametrize(
    "address", ["inproc://x", "ucx://127.0.0.1:1", "://", "tcp://127.0.0.1", "tcp://:80", "tcp://127.0.0.1:1"]
)
def test_a_bad_cluster_is_refused_before_any_folder(tmp_path, address):
    out = tmp_path / "r"
    with pytest.raises(ArenaError, match="(tcp://HOST:PORT|cannot reach the Dask scheduler|needs Dask)"):
        run_experiment([FakeScenario(n=5)], out, simulator=FakeSimulator(), cluster=address)
    assert not out.exists()


@pytest.fixture
def silent_port():
    """A port that accepts connections and never says a word (not a Dask scheduler)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []
    stop = threading.Event()

    def serve():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    server.close()


def test_a_port_that_never_answers_is_given_up_quietly(silent_port, monkeypatch, capfd):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    with pytest.raises(ArenaError, match="cannot reach the Dask scheduler .*no answer within 0.5 s"):
        cluster.connect_cluster(silent_port)
    gc.collect()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "__del__" not in err


def test_the_help_states_the_connect_timeout():
    from arena.cli import study_session  # the --cluster help of `arena claims` and `arena calibrate`

    assert f"within {cluster.CONNECT_TIMEOUT:g} s" in study_session.CLUSTER_HELP
    result = runner.invoke(app, ["run", "--help"], env={"COLUMNS": "300"})
    assert f"within {cluster.CONNECT_TIMEOUT:g} s" in " ".join(result.stdout.split())


def test_cli_bad_cluster_one_line_no_folder_and_the_retry_works(tmp_path):
    out = tmp_path / "r"
    base = ["run", DUEL, "--n", "5", "--workers", "1", "--quiet", "--out", str(out)]
    for address in ("inproc://x", "tcp://127.0.0.1:1"):
        result = runner.invoke(app, [*base, "--cluster", address])
        assert result.exit_code == 2 and result.stderr.startswith("error: ")
        assert len(result.stderr.strip().splitlines()) == 1 and not out.exists()
    assert runner.invoke(app, base).exit_code == 0  # the corrected command is not refused


@pytest.mark.parametrize(
    "command",
    [
        ["claims", "--only", "bell-favours-stronger", "--n", "5"],
        ["calibrate", "orc", "--party-level", "1", "--sizes", "1", "--n", "20"],
        ["calibrate", "--grid", "--n", "5"],
    ],
)
def test_claims_and_calibrate_check_the_cluster_before_the_folder(tmp_path, command):
    out = tmp_path / "s"
    result = cpu_limits.run(
        [*ARENA, *command, "--cluster", "inproc://x", "--out", str(out)],
        cpu=30,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 2 and result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not out.exists() and not (tmp_path / "results").exists()


def test_calibrate_on_a_cluster_gives_the_local_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    args = ["calibrate", "orc", "--party-level", "1", "--sizes", "1", "--n", "20", "--workers", "1"]
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        result = runner.invoke(app, [*args, "--cluster", cluster.scheduler_address, "--out", str(tmp_path / "dask")])
        assert result.exit_code == 0, result.output
    assert runner.invoke(app, [*args, "--out", str(tmp_path / "local")]).exit_code == 0
    pd.testing.assert_frame_equal(
        pd.read_csv(tmp_path / "dask" / "calibration.csv"), pd.read_csv(tmp_path / "local" / "calibration.csv")
    )
