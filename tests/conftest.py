"""Fixtures shared by the engine tests."""

import pytest
from hypothesis import settings

from arena.combat.engine import Fight

settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")
"""Property tests draw the same examples on every run and machine: a failure is a bug, never a flake."""


@pytest.fixture
def spy(monkeypatch):
    """Every check the engine resolves, with its actor and outcome."""
    seen: list[tuple] = []
    original = Fight.resolve

    def resolve(self, check, actor, opponent):
        outcome = original(self, check, actor, opponent)
        seen.append((check, actor, outcome))
        return outcome

    monkeypatch.setattr(Fight, "resolve", resolve)
    return seen
