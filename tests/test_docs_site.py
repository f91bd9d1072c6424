"""The documentation site builds strictly: every page in the nav, no broken link between pages, the README's recipes
included where docs/index.md takes them, and an API page mkdocstrings can write from the docstrings of every public
export (mkdocs-material and mkdocstrings are test dependencies: this test never skips)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import cpu_limits

import arena

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path):
    """`mkdocs build --strict` turns every warning (a link to a page that is not there, a page left out of the nav, a
    snippet that is missing, a docstring mkdocstrings cannot read) into a failure; about 8 s of CPU."""
    site = tmp_path / "site"
    done = cpu_limits.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(site),
        ],
        cpu=120,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "arena scenario copy my-monster" in home, "docs/index.md no longer includes the README's recipes"
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert "Add a policy under" in api, "the API page holds no docstring of arena.register_policy"
    assert (site / "cli" / "index.html").is_file()


def test_the_api_page_documents_every_public_export():
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: arena\.(\w+)$", page, flags=re.M))
    missing = sorted(set(arena.__all__) - documented)
    unknown = sorted(documented - set(arena.__all__))
    assert not missing, f"docs/api.md: add `::: arena.NAME` for {missing}"
    assert not unknown, f"docs/api.md documents names arena does not export: {unknown}"


def test_every_page_of_docs_is_in_the_nav():
    """The strict build warns of a page left out of the nav too; this says which, without building."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", nav, flags=re.M))
    pages = {path.name for path in (ROOT / "docs").glob("*.md")}
    assert pages - listed == set(), f"pages not in mkdocs.yml's nav: {sorted(pages - listed)}"
    assert listed - pages == set(), f"mkdocs.yml's nav names pages that do not exist: {sorted(listed - pages)}"
