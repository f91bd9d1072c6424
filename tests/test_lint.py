"""`ruff check` stays clean (its configuration is in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: it is part of the test extra")
    proc = subprocess.run([ruff, "check", "arena", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_kept():
    """The tree is formatted by `ruff format` (adopted in one commit of its own): run it before you commit."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    proc = subprocess.run(
        [ruff, "format", "--check", "arena", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, "run `ruff format .`:\n" + proc.stdout + proc.stderr


def test_imports_run_one_way():
    """The import-linter contracts of pyproject.toml: each layer imports only the layers below it, and no modules
    of one layer import each other in a circle (docs/architecture.md). The output names an import that breaks it."""
    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(lint).exists():
        pytest.fail("import-linter is not installed: it is part of the test extra")
    proc = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
