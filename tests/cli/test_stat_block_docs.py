"""Every stat-block field is documented in docs/bestiary.md, generated from the model (so the page cannot fall behind
a new ability's field), and `arena bestiary show` lists every ability the engine models, for your blocks too."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from arena.cli import app
from arena.cli import stat_block_docs as docs
from arena.world.ability_fields import registered
from arena.world.creatures import Creature

runner = CliRunner()


def test_docs_bestiary_md_holds_the_generated_fields_section():
    page = docs.DOC.read_text(encoding="utf-8")
    assert docs.START in page and docs.END in page
    written = page[page.index(docs.START) : page.index(docs.END) + len(docs.END)]
    assert written == docs.section(), (
        "docs/bestiary.md's stat-block fields are out of date: run python -m arena.cli.stat_block_docs --write"
    )


def test_every_field_of_the_model_has_its_row_poison_among_them():
    section = docs.section()
    for name in Creature.model_fields:
        assert f"| `{name}` |" in section, name
    poison = next(line for line in section.splitlines() if line.startswith("| `poison` |"))
    assert poison.startswith("| `poison` | Poison or null | none | Poison delivered by ``attack``")
    group = next(line for line in section.splitlines() if line.startswith("| `Poison` |"))
    assert "`attack` text, required; `dc` whole number 1..200, required; `save` fort\\|ref\\|will, fort" in group


def test_a_field_without_a_meaning_fails_the_generator(monkeypatch):
    monkeypatch.delitem(docs.CORE, "side")
    with pytest.raises(ValueError, match="stat-block field 'side' has no description"):
        docs.section()


def test_the_first_sentence_stops_outside_quotes_and_parentheses():
    text = 'Roar (SRD 3.5 dragonne: "every 1d4 rounds. All creatures"): a standard action. More.'
    assert docs.first_sentence(text) == 'Roar (SRD 3.5 dragonne: "every 1d4 rounds. All creatures"): a standard action.'


FEN_DRAKE = {
    "name": "fen-drake",
    "type": "magical beast",
    "cr": 4,
    "hp": 45,
    "hit_dice": "6d12+6",
    "ac": 18,
    "touch_ac": 10,
    "flat_footed_ac": 17,
    "bab": 6,
    "grapple": 14,
    "saves": {"fort": 6, "ref": 6, "will": 5},
    "attack": [[{"name": "bite", "bonuses": [9], "damage": "2d6+4", "damage_types": ["piercing"]}]],
    "poison": {
        "attack": "bite",
        "dc": 14,
        "initial": {"dice": "1d6", "ability": "con"},
        "secondary": {"dice": "2d6", "ability": "con"},
    },
    "pounce": True,
    "evasion": True,
}


def test_show_lists_poison_for_a_homebrew_block(tmp_path):
    path = tmp_path / "my.yaml"
    path.write_text(yaml.safe_dump(FEN_DRAKE, sort_keys=False))
    result = runner.invoke(app, ["bestiary", "show", "fen-drake", "--bestiary", str(path)])
    assert result.exit_code == 0, result.output
    (special,) = [line for line in result.output.splitlines() if line.startswith("  Special:")]
    assert special == "  Special: poison (attack bite, dc 14, initial 1d6 Con, secondary 2d6 Con); pounce; evasion"


def test_show_lists_the_abilities_of_a_built_in_block():
    result = runner.invoke(app, ["bestiary", "show", "srd/aranea"])
    assert result.exit_code == 0, result.output
    (special,) = [line for line in result.output.splitlines() if line.startswith("  Special:")]
    assert special == (
        "  Special: poison (attack bite, dc 13, initial 1d6 Str, secondary 2d6 Str); web (burst dc 17, uses 6, "
        "escape dc 13)"
    )


def test_every_registered_ability_is_shown_when_set():
    from arena.cli.stat_block_text import _ability_fields
    from arena.world.srd_bestiary import srd_population

    shown = set()
    for creature in srd_population():
        for text in _ability_fields(creature):
            shown.add(text.split(" (")[0])
    said_own_way = {"rend", "breath weapon"}
    missing = {f.name.replace("_", " ") for f in registered()} - shown - said_own_way - {"rage strength"}
    assert not missing, f"no SRD block shows {sorted(missing)}"
