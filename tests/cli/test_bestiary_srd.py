"""`arena bestiary list` filters and sorts over the hand-written and the imported SRD creatures; `show` lists the
special abilities and what the engine does with them; `coverage`, `typical-vs-srd` and `errata` report on the SRD
bestiary."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.world.srd_bestiary import srd_rows

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def rows(*args: str) -> list[dict]:
    return json.loads(ok("bestiary", "list", "--json", *args))


def test_list_holds_the_hand_written_and_the_imported_creatures():
    everything = rows()
    assert len(everything) == 19 + len(srd_rows())
    by_name = {r["name"]: r for r in everything}
    assert by_name["troll"]["source"] == "built-in" and by_name["srd/troll"]["source"] == "srd"
    assert by_name["red-dragon-young"]["source"] == "srd"  # no hand-written block of that name
    assert by_name["troll"]["modelled"] == "full"  # its imported twin's
    assert by_name["adult-red-dragon"]["modelled"] == "full"  # crush, and a sorcerer's spells (DRAGON_SPELLS)
    assert "frightful presence" not in by_name["adult-red-dragon"]["ignored"]  # modelled (DC 24)


@pytest.mark.parametrize(
    ("cr", "low", "high"), [("3", 3, 3), ("1/2..5", Fraction(1, 2), 5), ("..1/3", 0, Fraction(1, 3)), ("18..", 18, 99)]
)
def test_list_by_cr(cr, low, high):
    found = rows("--cr", cr)
    assert found and all(low <= Fraction(r["cr"]) <= high for r in found)
    assert len(found) == sum(1 for r in rows() if low <= Fraction(r["cr"]) <= high)


def test_list_by_type_name_and_modelling():
    undead = rows("--type", "undead")
    assert undead and {r["type"] for r in undead} == {"undead"}
    assert {"human-warrior-skeleton", "wraith", "srd/human-warrior-skeleton"} <= {r["name"] for r in undead}
    beasts = rows("--type", "magical-beast", "--cr", "3")
    assert beasts and all(r["type"] == "magical beast" and r["cr"] == "3" for r in beasts)
    trolls = {r["name"] for r in rows("--name", "troll")}
    assert {"troll", "srd/troll", "troll-hunter-6th-level-ranger", "troll-skeleton"} <= trolls
    full = rows("--modelled", "full", "--cr", "1/2..15")
    partial = rows("--modelled", "partial", "--cr", "1/2..15")
    assert {r["modelled"] for r in full} == {"full"} and {r["modelled"] for r in partial} == {"partial"}
    assert len(full) + len(partial) == len(rows("--cr", "1/2..15"))
    assert [r["name"] for r in rows("--source", "built-in")] == sorted(r["name"] for r in rows("--source", "built-in"))


def test_list_sorts():
    by_hp = rows("--sort", "hp", "--type", "dragon")
    assert [r["hp"] for r in by_hp] == sorted(r["hp"] for r in by_hp)
    by_cr = rows("--sort", "cr", "--name", "red-dragon")
    assert [Fraction(r["cr"]) for r in by_cr] == sorted(Fraction(r["cr"]) for r in by_cr)
    text = ok("bestiary", "list", "--cr", "20", "--sort", "ac")
    assert text.splitlines()[0].split()[:3] == ["name", "CR", "size/type"] and "creatures" in text.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--cr", "0.7"], "--cr '0.7': challenge rating 0.7 does not exist"),
        (["--sort", "weight"], "--sort 'weight': sort by one of name, cr, hp, ac, type, modelled"),
    ],
)
def test_list_bad_options_are_one_line(args, words):
    result = runner.invoke(app, ["bestiary", "list", *args])
    assert result.exit_code != 0 and words in str(result.exception)


def test_show_lists_the_special_abilities_and_their_engine_status():
    assert "partly modelled: the engine ignores acid" in ok("bestiary", "show", "black-pudding")
    out = ok("bestiary", "show", "gelatinous-cube")
    assert "Special abilities (fully modelled)" in out and "modelled  attack  engulf" in out
    assert "modelled  attack  paralysis [Fort DC 20] (paralysis on the slam: Fort DC 20, 3d6 rounds" in out
    assert "modelled  quality ooze traits" in out and "no effect quality Blindsight 60 ft" in out
    out = ok("bestiary", "show", "troll")  # hand-written: its imported twin's
    assert "Special abilities (fully modelled) -- of the imported SRD block srd/troll" in out
    data = json.loads(ok("bestiary", "show", "red-dragon-old", "--json"))
    assert data["modelled"] == "partial" and data["breath_weapon"]["dc"] == 31
    assert any(a["key"] == "frightful presence" and a["dc"] == 29 for a in data["special_abilities"])
    assert data["frightful_presence"] == {"dc": 29, "duration": "4d6"}


def test_coverage_orders_the_ignored_abilities():
    data = json.loads(ok("bestiary", "coverage", "--json"))
    assert data["creatures"] == len(srd_rows()) and data["band"] == "1/2..15"
    assert data["band_full"] == sum(
        1 for r in srd_rows() if Fraction(1, 2) <= r.cr_value <= 15 and r.modelled == "full"
    )
    order = data["order"]
    assert (
        order[-1]["cumulative_full"] == 1.0
        and sum(o["decides"] for o in order) == data["band_creatures"] - data["band_full"]
    )
    shares = [o["cumulative_full"] for o in order]
    assert shares == sorted(shares)
    assert {"spell-like abilities", "spells"} <= {o["ability"] for o in order[:5]}
    assert not {"pounce", "ferocity", "constrict", "frightful presence"} & {o["ability"] for o in order}
    assert sum(v["creatures"] for v in data["by_cr"].values()) == data["creatures"]
    text = ok("bestiary", "coverage", "--cr", "1..5")
    assert "CR 1..5:" in text and "decides" in text


def test_typical_against_the_srd_and_the_errata():
    table = ok("bestiary", "typical-vs-srd", "--markdown").splitlines()
    assert table[0].startswith("| CR | SRD creatures | full | hp typical | hp SRD |") and len(table) == 2 + 21
    data = json.loads(ok("bestiary", "typical-vs-srd", "--json"))
    five = next(r for r in data if r["cr"] == "5")
    assert five["typical_hp"] == 55 and five["srd_creatures"] == sum(1 for r in srd_rows() if r.cr == "5")
    errata = ok("bestiary", "errata")
    assert "gray-render-zombie: Hit Dice: 133 hp, but the average of the hit dice is 93: kept 133" in errata
    assert errata.strip().splitlines()[-1].endswith("discrepancies")


def test_the_tables_of_the_docs_are_the_commands_output():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "bestiary.md").read_text()
    for args in (["typical-vs-srd", "--markdown"], ["errata", "--markdown"], ["coverage", "--markdown", "--top", "20"]):
        table = ok("bestiary", *args).strip()
        assert table in docs, f"docs/bestiary.md is out of date: regenerate with arena bestiary {' '.join(args)}"
