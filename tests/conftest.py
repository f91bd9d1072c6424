"""Fixtures shared by the engine tests."""

import pytest
from hypothesis import HealthCheck, settings

from arena.combat.rolls import watch_rolls

settings.register_profile(
    "deterministic", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("deterministic")
"""Property tests draw the same examples on every run and machine: a failure is a bug, never a flake. No wall-clock
limits: hypothesis's deadline (200 ms an example) and its too_slow health check time examples on the wall clock,
which a busy machine stretches many times over (tests/cpu_limits.py)."""


@pytest.fixture(autouse=True)
def no_terminal_size(monkeypatch):
    """Tables are laid out for a pipe (arena.cli.common.PIPE_WIDTH), whatever terminal runs the tests: a ``COLUMNS``
    of 80 inherited from the shell (or set by a test runner's worker) once cut the party and sweep tables the tests
    read. A test that needs a width sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture
def spy():
    """Every check the engine resolves, with its actor and outcome."""
    seen: list[tuple] = []

    def see(fight, check, actor, opponent, outcome):
        seen.append((check, actor, outcome))

    with watch_rolls(see):
        yield seen
