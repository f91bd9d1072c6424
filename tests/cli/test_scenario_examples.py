"""`arena scenario list` and `arena scenario copy`: the example scenarios ship in the package, and a copy runs
where it lands (a suite with its scenario files, a scenario with its policy and stat-block files), outside a
clone; an existing file is never overwritten without --force, and never through a link."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cpu_limits
import pytest

from arena.errors import ArenaError
from arena.study.checks.suites import load_suite
from arena.study.scenarios.examples import copy_examples, find_example
from arena.study.scenarios.loading import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(path.stem for path in (ROOT / "scenarios").glob("*.yaml"))


def arena(*args: str, cwd: Path) -> tuple[int, str, str]:
    done = cpu_limits.run(
        [sys.executable, "-m", "arena", *args],
        cpu=30,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "COLUMNS": "200"},
    )
    return done.returncode, done.stdout, done.stderr


def test_the_list_is_every_shipped_file_with_what_it_holds(tmp_path):
    code, out, err = arena("scenario", "list", "--json", cwd=tmp_path)
    assert code == 0, err
    listed = {row["name"]: row for row in json.loads(out)}
    assert sorted(listed) == SHIPPED
    assert listed["reference"] == {
        "name": "reference",
        "kind": "scenarios",
        "summary": "The reference benchmark fight",
        "scenarios": ["reference"],
        "files": ["reference.yaml"],
    }
    assert listed["goblin-gang"]["scenarios"] == ["goblins-4", "goblins-6", "goblins-9"]
    assert listed["custom-policy"]["files"] == ["custom-policy.yaml", "policies/toughest_first.py"]
    assert listed["my-monster"]["files"] == ["my-monster.yaml", "monsters/bog-hag.yaml"]
    assert listed["regression-suite"]["kind"] == "suite"
    code, out, _ = arena("scenario", "list", cwd=tmp_path)
    assert code == 0 and "reference" in out and "The reference benchmark fight" in out
    assert out.rstrip().endswith(f"{len(SHIPPED)} example files; `arena scenario copy NAME` copies one here")


def test_copy_writes_the_file_here_with_what_it_names(tmp_path):
    code, out, err = arena("scenario", "copy", "custom-policy", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines() == ["wrote custom-policy.yaml", "wrote policies/toughest_first.py"]
    assert (tmp_path / "custom-policy.yaml").read_bytes() == (ROOT / "scenarios" / "custom-policy.yaml").read_bytes()
    assert (tmp_path / "policies" / "toughest_first.py").is_file()


@pytest.mark.parametrize("name", SHIPPED)
def test_every_copied_example_loads_where_it_lands(tmp_path, name):
    copy_examples([name], tmp_path)
    example = find_example(name)
    for relative in example.files:
        assert (tmp_path / relative).read_bytes() == (ROOT / "scenarios" / relative).read_bytes()
    path = tmp_path / f"{name}.yaml"
    if example.kind == "suite":
        suite, _ = load_suite(path)
        for check in suite.checks:
            assert load_scenarios(path.parent / check.file, trust_policies=True)
    elif any(relative.endswith(".py") for relative in example.files):
        # a policy file registers its policy's name for the whole process: fight it in a process of its own
        code, out, err = arena("fight", path.name, "--seed", "1", "--trust-policies", cwd=tmp_path)
        assert code == 0 and "winner:" in out, err
    else:
        assert [s.name for s in load_scenarios(path)] == list(example.scenarios)


def test_an_existing_file_is_kept_unless_forced_and_nothing_is_half_copied(tmp_path):
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "toughest_first.py").write_text("mine")
    with pytest.raises(ArenaError, match=r"toughest_first.py: already exists \(add --force"):
        copy_examples(["custom-policy"], tmp_path)
    assert not (tmp_path / "custom-policy.yaml").exists()
    assert (tmp_path / "policies" / "toughest_first.py").read_text() == "mine"
    copy_examples(["custom-policy"], tmp_path, force=True)
    assert (tmp_path / "policies" / "toughest_first.py").read_text() != "mine"


def test_a_link_is_never_written_through_even_with_force(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("keep me")
    here = tmp_path / "here"
    here.mkdir()
    (here / "duel.yaml").symlink_to(outside)
    with pytest.raises(ArenaError, match="not a regular file"):
        copy_examples(["duel"], here, force=True)
    assert outside.read_text() == "keep me"


def test_a_link_planted_at_the_copy_aside_is_not_written_through(tmp_path):
    """The copy is written aside (``.NAME.PID.tmp``) and renamed: a link left there is removed, never followed."""
    import os

    outside = tmp_path / "outside.yaml"
    outside.write_text("keep me")
    here = tmp_path / "here"
    here.mkdir()
    (here / f".duel.yaml.{os.getpid()}.tmp").symlink_to(outside)
    copy_examples(["duel"], here)
    assert outside.read_text() == "keep me"
    assert (here / "duel.yaml").read_bytes() == (ROOT / "scenarios" / "duel.yaml").read_bytes()
    assert not (here / "duel.yaml").is_symlink()


def test_an_unknown_name_is_one_error_line_with_the_nearest(tmp_path):
    code, out, err = arena("scenario", "copy", "refrence", cwd=tmp_path)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown example scenario 'refrence'; did you mean reference")
    code, _, err = arena("scenario", "copy", "duel", "--to", "sub", cwd=tmp_path)
    assert code == 0 and (tmp_path / "sub" / "duel.yaml").is_file()
    code, _, err = arena("scenario", "copy", "duel", "--to", "sub", cwd=tmp_path)
    assert (
        code == 2
        and err.strip() == "error: sub/duel.yaml: already exists (add --force to replace it); nothing was copied"
    )
