"""Which code made a result: the fingerprint of the ``arena`` package's files, the git commit it runs from, and the
versions of the packages it used.

Why a module of its own: a run's and a study's manifests record them, and a resumed run or study compares the
fingerprint with the code resuming it (two engines must never be mixed in one results folder); the published claims
report records the commit and the versions.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]
"""The ``arena`` package's folder (this module is ``arena/study/runs/identity.py``): found from here rather than by
``import arena``, whose lazy exports reach every part of the study (an import the study's layers would refuse)."""


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 over the source and data files of the installed ``arena`` package: a run resumed by different
    code would mix two engines in one file, so the manifest records this and ``--resume`` compares it."""
    root = PACKAGE
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts and path.is_file():
            digest.update(str(path.relative_to(root)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def package_versions() -> dict[str, str | None]:
    from importlib import metadata

    out: dict[str, str | None] = {"python": sys.version.split()[0]}
    for name in (
        "d20-arena",
        "numpy",
        "pandas",
        "pyarrow",
        "pydantic",
        "simpy",
        "icepool",
        "joblib",
        "scipy",
        "statsmodels",
        "dask",
        "distributed",
    ):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _commit_of(folder: Path) -> str | None:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _project_checkout(folder: Path) -> Path | None:
    """The top of the d20 Arena git checkout ``folder`` lies in (its pyproject names d20-arena), or None."""
    for top in (folder, *folder.parents):
        project = top / "pyproject.toml"
        if project.is_file() and (top / ".git").exists():
            try:
                text = project.read_text(encoding="utf-8")[:20_000]
            except (OSError, UnicodeDecodeError):
                return None
            return top if 'name = "d20-arena"' in text else None
    return None


def git_commit() -> str | None:
    """The commit of the source tree this package runs from (``+dirty`` if it has changes), or None.

    An installed package (``pip install .`` from a clone) runs from site-packages, which is no checkout: then the
    d20 Arena checkout the run was started in (the working directory or above) is asked, if there is one."""
    here = Path(__file__).resolve().parent
    found = _commit_of(here) if (here.parent / ".git").exists() or _project_checkout(here) else None
    if found is None:
        checkout = _project_checkout(Path.cwd().resolve())
        found = _commit_of(checkout) if checkout is not None else None
    return found
