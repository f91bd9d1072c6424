"""Time limits in the tests are CPU limits, never wall-clock limits.

A test that bounds how long something may take bounds the CPU time it uses: the work runs in a child process whose
``RLIMIT_CPU`` is the budget (the kernel sends SIGXCPU at the soft limit and SIGKILL a few seconds later), and the
test fails with ``cpu: used more than N s of CPU``. The wall clock says nothing about the code on a busy machine:
at load 7-14 on two cores an honest run takes 4-7 times its CPU time, and a wall-clock bound then fails correct
code. The wall clock is watched only to catch a *hang* (a process waiting forever uses no CPU), with a margin that
no honest run reaches however busy the machine is: :func:`hang_after`.

``RLIMIT_CPU`` is per process: worker processes started by the child inherit the limit, each its own budget.

* :func:`run` is ``subprocess.run`` with a CPU budget (``cpu=``) instead of ``timeout=``;
* :func:`call` runs a function of the test in a forked child with a CPU budget and returns what it returns;
* :func:`limit_cpu` sets the limit in a child (a ``preexec_fn``, or the forked child of the hostile harness).

Set ``CPU_LIMITS_LOG=path`` to append a line per child (CPU seconds used, the budget, what ran) to a file: the way
to check that a budget is several times what an honest run uses.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import resource
import select
import shlex
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

HANG_FLOOR = 300.0
"""Seconds of wall-clock time before any child is declared hung, however small its CPU budget.

The floor covers what costs wall time but little CPU: starting Python and importing numpy, pandas and pyarrow from
a cold disk cache, worker processes importing the same, a policy that sleeps until the product stops it (2 s).
Those take a few seconds on an idle laptop; 300 s is fifty times that, more than any honest run needs on a machine
whose every core is shared by a dozen busy processes."""
HANG_FACTOR = 30.0
"""Wall-clock seconds allowed per CPU second of the budget before a child is declared hung.

A process that uses its whole budget of B CPU seconds at load L on C cores gets about C / L of a core, so it
needs about B * L / C seconds of wall time: 7 B at load 14 on two cores (the audit's busy laptop). 30 B stays
ahead up to load 60 on two cores, and an honest run uses a fraction of its budget (budgets are set at several
times the measured use), so the margin is larger still. Only a process that makes no progress reaches it."""
CPU_GRACE = 5
"""Seconds of CPU between the soft ``RLIMIT_CPU`` (SIGXCPU, which Python does not catch: the process dies) and the
hard one (SIGKILL, for a process that ignores or handles SIGXCPU)."""


def hang_after(cpu_seconds: float) -> float:
    """Wall-clock seconds after which a child with a budget of ``cpu_seconds`` CPU seconds counts as hung."""
    return max(HANG_FLOOR, HANG_FACTOR * cpu_seconds)


def soft_limit(cpu_seconds: float) -> int:
    """The soft ``RLIMIT_CPU`` (whole seconds, at least 1) for a budget of ``cpu_seconds``."""
    return max(1, math.ceil(cpu_seconds))


def limit_cpu(cpu_seconds: float) -> None:
    """In a child: limit this process (and what it starts) to ``cpu_seconds`` of CPU time (plus CPU_GRACE)."""
    soft = soft_limit(cpu_seconds)
    hard = soft + CPU_GRACE
    _, current = resource.getrlimit(resource.RLIMIT_CPU)
    if current != resource.RLIM_INFINITY:
        hard = min(hard, current)
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def killed_at_cpu_limit(returncode: int | None, cpu_used: float, cpu_seconds: float) -> bool:
    """Whether a child that ended with ``returncode`` (negative: the signal) after ``cpu_used`` CPU seconds was
    stopped by its CPU limit: SIGXCPU at the soft limit, or SIGKILL once it has used the hard one."""
    if returncode == -signal.SIGXCPU:
        return True
    return returncode == -signal.SIGKILL and cpu_used >= soft_limit(cpu_seconds)


def cpu_message(cpu_seconds: float) -> str:
    return f"cpu: used more than {soft_limit(cpu_seconds)} s of CPU"


class CPULimitExceeded(AssertionError):
    """The child used more CPU time than its budget (a test failure)."""


class Hang(AssertionError):
    """The child was still running after :func:`hang_after` its budget of wall-clock time (a test failure)."""


def _log(used: float, cpu: float, what: str) -> None:
    path = os.environ.get("CPU_LIMITS_LOG")
    if path:
        with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as log:
            log.write(f"{used:8.2f} {soft_limit(cpu):5d} {what[:200]!r}\n")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _describe(args: Any) -> str:
    if isinstance(args, str | bytes | os.PathLike):
        return str(args)
    return shlex.join(str(a) for a in args)


def run(
    args: Sequence[Any] | str, *, cpu: float, preexec_fn: Callable[[], None] | None = None, **kwargs: Any
) -> subprocess.CompletedProcess:
    """``subprocess.run(args, **kwargs)`` in a child limited to ``cpu`` seconds of CPU time.

    Raises :class:`CPULimitExceeded` when the child was stopped at that limit, and :class:`Hang` (after killing
    it) when it is still running after ``hang_after(cpu)`` seconds of wall-clock time. ``preexec_fn``, if given,
    runs in the child after the limit is set (an address-space limit, say)."""
    if "timeout" in kwargs:
        raise TypeError("cpu_limits.run takes a CPU budget (cpu=), not a wall-clock timeout")

    def limit() -> None:
        limit_cpu(cpu)
        if preexec_fn is not None:
            preexec_fn()

    wall = hang_after(cpu)
    before = _children_cpu()
    try:
        proc = subprocess.run(args, preexec_fn=limit, timeout=wall, **kwargs)
    except subprocess.TimeoutExpired:
        raise Hang(f"hang: still running after {wall:g} s of wall-clock time (killed): {_describe(args)}") from None
    used = _children_cpu() - before
    _log(used, cpu, _describe(args))
    if killed_at_cpu_limit(proc.returncode, used, cpu):
        stderr = proc.stderr if isinstance(proc.stderr, str) else (proc.stderr or b"").decode("utf-8", "replace")
        raise CPULimitExceeded(
            f"{cpu_message(cpu)} (killed by signal {-proc.returncode}): {_describe(args)}"
            + (f"\nstderr: {stderr[-2000:]}" if stderr else "")
        )
    return proc


def call(func: Callable[..., Any], /, *args: Any, cpu: float, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` run in a forked child limited to ``cpu`` seconds of CPU time: what it returns.

    The return value comes back pickled; an exception it raises (an ``AssertionError`` of the test, say) is raised
    again here, with the child's traceback as a note. :class:`CPULimitExceeded` and :class:`Hang` as :func:`run`.
    The child is a copy of this process (imports, caches and fixtures included), and what it changes stays in it."""
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            os.close(read_end)
            limit_cpu(cpu)
            try:
                payload = pickle.dumps((True, func(*args, **kwargs)))
            except BaseException as exc:
                with contextlib.suppress(Exception):
                    exc.add_note("in the child of cpu_limits.call:\n" + traceback.format_exc())
                try:
                    payload = pickle.dumps((False, exc))
                except Exception:
                    payload = pickle.dumps((False, AssertionError(traceback.format_exc())))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)
    wall = hang_after(cpu)
    deadline = time.monotonic() + wall
    chunks: list[bytes] = []
    hung = False
    with os.fdopen(read_end, "rb", buffering=0) as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                hung = True
                break
            ready, _, _ = select.select([pipe], [], [], min(left, 1.0))
            if ready:
                data = pipe.read(1 << 16)
                if not data:
                    break
                chunks.append(data)
    if hung:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    used = usage.ru_utime + usage.ru_stime
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    name = getattr(func, "__qualname__", repr(func))
    _log(used, cpu, name)
    if hung:
        raise Hang(f"hang: {name} still running after {wall:g} s of wall-clock time (killed; {used:.1f} s of CPU)")
    if killed_at_cpu_limit(code, used, cpu):
        raise CPULimitExceeded(f"{cpu_message(cpu)}: {name}")
    if not chunks:
        raise AssertionError(f"{name}: the child ended (status {code}) without an answer")
    ok, value = pickle.loads(b"".join(chunks))
    if ok:
        return value
    raise value
