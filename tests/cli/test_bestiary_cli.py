"""`arena bestiary ...` through the real CLI: output on success, one clear line and exit 2 on bad input."""

import json

import pytest
from stat_blocks import CAVE_BEAR as GOOD
from typer.testing import CliRunner

from arena.cli import app, main

runner = CliRunner()


def run_main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """Run the console-script entry point as a user would: (exit code, stdout, stderr)."""
    monkeypatch.setattr("sys.argv", ["arena", *args])
    with pytest.raises(SystemExit) as info:
        main()
    out = capsys.readouterr()
    code = info.value.code
    return (0 if code is None else code), out.out, out.err


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


# --------------------------------------------------------------------------------------------- success
def test_list():
    out = ok("bestiary", "list")
    assert "troll" in out and "adult-red-dragon" in out and "1/3" in out
    rows = json.loads(ok("bestiary", "list", "--json", "--source", "built-in"))
    assert len(rows) == 19
    goblin = next(r for r in rows if r["name"] == "goblin")
    assert {
        "name": "goblin",
        "cr": "1/3",
        "size": "small",
        "type": "humanoid",
        "hp": 5,
        "ac": 15,
    }.items() <= goblin.items()


def test_show_text_and_json():
    out = ok("bestiary", "show", "troll")
    assert "AC 16, touch 11, flat-footed 14" in out
    assert "rend 2d6+9" in out and "regeneration 5 (fire and acid" in out
    assert "2 claws +9 melee (1d6+6)" in out
    data = json.loads(ok("bestiary", "show", "ogre", "--json"))
    assert data["attack"][0][0]["damage"] == "2d8+7" and data["cr"] == "3"
    assert "CR 1/2" in ok("bestiary", "show", "typical-cr1/2")


def test_show_typical_monsters_below_half(monkeypatch, capsys):
    out = ok("bestiary", "show", "typical-cr1/4")
    assert "Typical monster, CR 1/4 [typical-cr1/4]" in out and "Hit Dice: 1d10-1 (4 hp)" in out
    assert "claw +3 melee (1d2)" in ok("bestiary", "show", "typical-cr0.25")
    assert "typical-cr1/8" in ok("bestiary", "show", "typical-cr1/8")
    code, out, err = run_main(monkeypatch, capsys, "bestiary", "show", "typical-pf-cr1/3")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "no Pathfinder typical monster (typical-pf-crN) for CR 1/3" in err


def test_show_with_user_bestiary(tmp_path):
    (tmp_path / "bear.yaml").write_text(GOOD)
    assert "cave-bear" in ok("bestiary", "show", "cave-bear", "--bestiary", str(tmp_path))
    assert "cave-bear" in ok("bestiary", "list", "-b", str(tmp_path / "bear.yaml"))


def test_validate_builtin_and_good_file(tmp_path):
    assert "OK: 19 creatures" in ok("bestiary", "validate")
    (tmp_path / "bear.yaml").write_text(GOOD)
    assert "OK: 1 creature" in ok("bestiary", "validate", str(tmp_path / "bear.yaml"))


def test_schema_is_json_schema_of_the_stat_block():
    schema = json.loads(ok("bestiary", "schema"))
    assert schema["type"] == ["object", "array"] and schema["items"] == {"$ref": "#/$defs/Creature"}
    block = schema["$defs"]["Creature"]
    assert block["type"] == "object" and schema["properties"] == block["properties"]
    assert {"name", "hp", "ac", "attack", "full_attack", "regeneration"} <= set(block["properties"])
    assert "hp" in block["required"]
    assert block.get("additionalProperties") is False


# --------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace("bonuses: [11]", "bonuses: [11"), "bear.yaml:16: malformed YAML"),
        (lambda t: t.replace("hp: 51\n", ""), "bear.yaml:1: hp: missing required field"),
        (
            lambda t: t.replace("hp: 51", "hp: -4"),
            "bear.yaml:5: hp: Input should be greater than or equal to 1, got -4",
        ),
        (lambda t: t.replace("piercing]", "psychic]"), "bear.yaml:17: attack.0.0.damage_types.1: Input should be"),
        (
            lambda t: t.replace("threat: 20", "threat: 21-20"),
            "bear.yaml:18: attack.0.0.threat: threat range '21-20' cannot exist",
        ),
        (
            lambda t: t.replace("damage: 1d8+8", "damage: 1d8+"),
            "bear.yaml:16: attack.0.0.damage: unparseable dice expression '1d8+'",
        ),
        (lambda t: t.replace("hp: 51", "hp: 51\nhp: 52"), "bear.yaml:6: duplicate key 'hp'"),
        (lambda t: t.replace("grapple:", "grapel:"), "bear.yaml:11: grapel: unknown field"),
    ],
)
def test_validate_reports_file_line_field(tmp_path, monkeypatch, capsys, edit, expected):
    path = tmp_path / "bear.yaml"
    path.write_text(edit(GOOD))
    code, out, err = run_main(monkeypatch, capsys, "bestiary", "validate", str(path))
    assert code == 2
    assert expected in err
    assert "OK" not in out


def test_validate_reports_all_problems_in_all_files(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.yaml").write_text(GOOD.replace("hp: 51", "hp: 0").replace("piercing]", "psychic]"))
    (tmp_path / "b.yaml").write_text(GOOD.replace("cave-bear", "bear-b").replace("cr: 4", "cr: 2/3"))
    code, _, err = run_main(monkeypatch, capsys, "bestiary", "validate", str(tmp_path))
    assert code == 2
    assert "a.yaml:5: hp:" in err and "a.yaml:17: attack.0.0.damage_types.1:" in err
    assert "b.yaml:4: cr: challenge rating '2/3' does not exist" in err
    assert "3 problems found" in err


def test_duplicate_name_across_files(tmp_path, monkeypatch, capsys):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    code, _, err = run_main(monkeypatch, capsys, "bestiary", "validate", str(tmp_path))
    assert code == 2
    assert "b.yaml:1: duplicate creature name 'cave-bear' (also defined at" in err and "a.yaml:1)" in err
    code, _, err = run_main(monkeypatch, capsys, "bestiary", "list", "-b", str(tmp_path))
    assert code == 2 and err.startswith("error: ") and "duplicate creature name" in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_creature_suggests_nearest(monkeypatch, capsys):
    code, out, err = run_main(monkeypatch, capsys, "bestiary", "show", "trol")
    assert code == 2
    assert err.strip() == "error: unknown creature 'trol'; did you mean troll, triton, troglodyte?"
    code, _, err = run_main(monkeypatch, capsys, "bestiary", "show", "owlbare")
    assert code == 2 and "owlbear" in err


def test_bad_file_in_show_is_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "bear.yaml").write_text(GOOD.replace("hp: 51", "hp: -1").replace("ac: 15", "ac: x"))
    code, _, err = run_main(monkeypatch, capsys, "bestiary", "show", "cave-bear", "-b", str(tmp_path))
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "bear.yaml:5: hp:" in err and "(and 2 more problems)" in err  # ac and flat_footed_ac


def test_missing_path(monkeypatch, capsys, tmp_path):
    code, _, err = run_main(monkeypatch, capsys, "bestiary", "validate", str(tmp_path / "nope"))
    assert code == 2 and "no such file or folder" in err


def test_show_gives_the_rogue_level_of_improved_uncanny_dodge():
    """Improved uncanny dodge carries the rogue level a flanker must beat by four (SRD 3.5 rogue, 8th): the stat
    block says it, as a plain "improved uncanny dodge" would not."""
    from arena.cli.stat_block_text import stat_block
    from arena.world.party import generate_party

    rogue = next(c for c in generate_party(12) if c.improved_uncanny_dodge)
    text = stat_block(rogue)
    assert f"improved uncanny dodge (rogue level {rogue.improved_uncanny_dodge})" in text
    assert "uncanny dodge, " in text or text.count("uncanny dodge") >= 2
