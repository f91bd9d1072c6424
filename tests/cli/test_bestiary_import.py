"""`arena bestiary import` through the real CLI: files written, notes reported with file and line, one line and
exit 2 per error, the good creatures of a bad file still written."""

import json
import sys
from pathlib import Path

import pytest

from arena.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "srd"))
from test_srd_import import ELEMENTALS, PASTED, TROLLS  # noqa: E402


def run(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.argv", ["arena", *args])
    with pytest.raises(SystemExit) as info:
        main()
    out = capsys.readouterr()
    return (info.value.code or 0), out.out, out.err


def test_import_writes_one_yaml_per_creature(tmp_path, monkeypatch, capsys):
    (tmp_path / "trolls.md").write_text(TROLLS)
    (tmp_path / "ettercap.txt").write_text(PASTED)
    code, out, err = run(
        monkeypatch,
        capsys,
        "bestiary",
        "import",
        str(tmp_path / "trolls.md"),
        str(tmp_path / "ettercap.txt"),
        "--out",
        str(tmp_path / "out"),
    )
    assert code == 0, err
    assert "wrote 3 stat blocks" in out and "(2 clean, 1 guessed)" in out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "ettercap.yaml",
        "troll-hunter-6th-level-ranger.yaml",
        "troll.yaml",
    ]
    # the guess and the SRD's own disagreements are reported with file, line and text
    assert f"warning: {tmp_path / 'trolls.md'}:11: Full Attack: guess: bite: no 'melee' or 'ranged'" in err
    assert "discrepancy: 130 hp, but the average of the hit dice is 126: kept 130" in err
    code, out, err = run(
        monkeypatch,
        capsys,
        "bestiary",
        "show",
        "troll-hunter-6th-level-ranger",
        "-b",
        str(tmp_path / "out" / "troll-hunter-6th-level-ranger.yaml"),
    )
    assert code == 0 and "Import: guessed" in out and "partly modelled: the engine ignores spells" in out


def test_bad_input_is_one_line_per_error_and_exit_2(tmp_path, monkeypatch, capsys):
    bad = TROLLS.replace("| Challenge Rating: | 5 |", "| Challenge Rating: | 0.7 |")
    (tmp_path / "trolls.md").write_text(bad)
    (tmp_path / "notes.md").write_text("Trolls are big and they regenerate.\n")
    code, out, err = run(
        monkeypatch,
        capsys,
        "bestiary",
        "import",
        str(tmp_path / "trolls.md"),
        str(tmp_path / "notes.md"),
        "-o",
        str(tmp_path / "out"),
    )
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert errors == [
        f"error: {tmp_path / 'trolls.md'}:23: Challenge Rating: challenge rating 0.7 does not exist: use 1/10, 1/8, "
        "1/6, 1/4, 1/3, 1/2 or a whole number from 1 to 100 (Troll)",
        f"error: {tmp_path / 'notes.md'}: file: no stat block found (no 'Hit Dice:' field in an SRD-layout table or "
        "in 'Field: value' lines)",
    ]
    assert out == "" and err.splitlines()[-1] == (
        f"warning: wrote 1 stat block to {tmp_path / 'out'} (1 guessed); 2 errors above"
    )  # the troll hunter
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["troll-hunter-6th-level-ranger.yaml"]


def test_import_json(tmp_path, monkeypatch, capsys):
    (tmp_path / "e.md").write_text(ELEMENTALS)
    code, out, _ = run(monkeypatch, capsys, "bestiary", "import", str(tmp_path / "e.md"), "-o", str(tmp_path), "--json")
    assert code == 0
    data = json.loads(out)
    assert [w["name"] for w in data["written"]] == ["elemental-fire-small", "elemental-fire-large"]
    assert data["written"][1]["ignored"] == [] and data["written"][1]["modelled"] == "full"
    assert data["errors"] == []


def test_a_missing_file_is_an_error(tmp_path, monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, "bestiary", "import", str(tmp_path / "nowhere.md"), "-o", str(tmp_path))
    assert code == 2 and f"{tmp_path / 'nowhere.md'}: file: no such file" in err


def test_an_existing_stat_block_is_replaced_only_with_force(tmp_path, monkeypatch, capsys):
    (tmp_path / "e.txt").write_text(PASTED)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "ettercap.yaml").write_text("mine\n")
    code, out, err = run(
        monkeypatch, capsys, "bestiary", "import", str(tmp_path / "e.txt"), "-o", str(tmp_path / "out")
    )
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == (
        f"error: {tmp_path / 'out' / 'ettercap.yaml'}: already exists; nothing written "
        "(--force replaces existing files)"
    )
    assert (tmp_path / "out" / "ettercap.yaml").read_text() == "mine\n"
    code, out, _ = run(
        monkeypatch, capsys, "bestiary", "import", str(tmp_path / "e.txt"), "-o", str(tmp_path / "out"), "--force"
    )
    assert code == 0 and "wrote 1 stat block" in out and "Ettercap" in (tmp_path / "out" / "ettercap.yaml").read_text()


def test_an_imported_creature_named_like_a_built_in_is_the_one_used(tmp_path, monkeypatch, capsys):
    """The SRD troll imports as troll.yaml; with the folder as --bestiary, `troll` is it (with a warning naming the
    file), not an error about a duplicate name."""
    (tmp_path / "trolls.md").write_text(TROLLS)
    code, _, _ = run(
        monkeypatch, capsys, "bestiary", "import", str(tmp_path / "trolls.md"), "-o", str(tmp_path / "out")
    )
    assert code == 0
    code, out, err = run(monkeypatch, capsys, "bestiary", "show", "troll", "--bestiary", str(tmp_path / "out"))
    assert code == 0 and "Import: clean" in out, err
    assert f"warning: {tmp_path / 'out' / 'troll.yaml'}:" in err and "replaces the built-in creature" in err
    code, out, err = run(monkeypatch, capsys, "el", "troll:2", "--bestiary", str(tmp_path / "out"))
    assert code == 0 and "error" not in err
    (tmp_path / "duel.yaml").write_text("name: troll duel\nparty: {level: 5}\nmonsters: [troll]\nrules: [d20]\n")
    code, out, err = run(
        monkeypatch, capsys, "fight", str(tmp_path / "duel.yaml"), "--seed", "1", "--bestiary", str(tmp_path / "out")
    )
    assert code == 0 and "winner:" in out, err
    code, out, err = run(monkeypatch, capsys, "bestiary", "validate", str(tmp_path / "out"))
    assert code == 0 and "OK: 2 creatures" in out, err
