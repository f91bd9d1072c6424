"""`arena fight --json` events: the fight as structured records, one per log line (issue 17: "structured events
(`{"round", "actor", "action", "target", "roll": {...}, "damage": ...}`), not preformatted strings")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.cli.fight_cmds import fight_document

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = [
    ("reference.yaml", None),
    ("trolls.yaml", "trolls-level-8"),
    ("goblin-gang.yaml", "goblins-6"),
    ("mixed-band.yaml", None),
    ("ogre.yaml", None),
]
RULES = ["d20", "3d6+prad+luck+open+called"]
ROLL_KEYS = {"natural", "total", "roller", "check", "needs", "pressed", "rerolled"}


def documents():
    for path, name in SCENARIOS:
        for rules in RULES:
            for seed in (1, 4):
                yield (
                    (name or path),
                    rules,
                    seed,
                    fight_document(ROOT / "scenarios" / path, name, seed=seed, rules_key=rules),
                )


SRD_MONSTERS = [
    ("imp", 2),
    ("quasit", 2),
    ("nixie", 1),
    ("annis", 6),
    ("black-dragon-juvenile", 7),
    ("ogre-mage", 8),
    ("dryad", 3),
    ("krenshar", 1),
    ("ghoul", 1),
    ("wight", 3),
    ("medusa", 7),
    ("shadow", 3),
    ("owlbear", 4),
    ("vrock", 9),
    ("elemental-air-large", 5),
    ("gelatinous-cube", 3),
    ("basilisk", 5),
    ("allip", 3),
]
"""SRD creatures whose fights use the special abilities and monster spells (each logs through its own part)."""


def monster_documents(tmp: Path):
    for monster, level in SRD_MONSTERS:
        path = tmp / f"{monster}.yaml"
        path.write_text(f"name: {monster}\nparty: {{level: {level}}}\nmonsters:\n  - {monster}\n")
        for seed in (1, 2, 3):
            yield monster, "d20", seed, fight_document(path, seed=seed, rules_key="d20")


DOCS = list(documents())


@pytest.mark.parametrize("name, rules, seed, doc", DOCS, ids=[f"{n}-{r}-{s}" for n, r, s, _ in DOCS])
def test_every_log_line_has_its_event_in_order(name, rules, seed, doc):
    lines = [line for line in doc["log"] if line.startswith("[r")]
    assert [f"[r{e['round']}] {e['text']}" for e in doc["events"]] == lines


@pytest.mark.parametrize("name, rules, seed, doc", DOCS, ids=[f"{n}-{r}-{s}" for n, r, s, _ in DOCS])
def test_every_event_names_who_did_what(name, rules, seed, doc):
    for event in doc["events"]:
        assert isinstance(event["round"], int)
        assert "action" in event and isinstance(event["action"], str), event
        assert "actor" in event, event
        if "roll" in event:
            assert isinstance(event["roll"]["natural"], int) and isinstance(event["roll"]["total"], int), event
        if "damage" in event:
            assert isinstance(event["damage"], int), event


def test_an_attack_event_carries_its_numbers():
    doc = fight_document(ROOT / "scenarios" / "reference.yaml", seed=4, rules_key="d20")
    attacks = [e for e in doc["events"] if e["action"] == "attack"]
    assert attacks
    for event in attacks:
        assert set(event["roll"]) == ROLL_KEYS
        assert event["result"] in {"hit", "critical", "miss", "fumble"}
        assert {"target", "attack", "modifier", "ac"} <= set(event)
        text = event["text"]
        assert f"{event['modifier']:+d} vs {event['target']} AC {event['ac']}" in text
        assert f"natural {event['roll']['natural']}, total {event['roll']['total']}" in text
        if event["result"] in {"hit", "critical"}:
            assert re.search(rf"hit for {event['damage']}\b", text)
        else:
            assert "damage" not in event


def test_saves_and_casts_are_structured():
    doc = fight_document(ROOT / "scenarios" / "reference.yaml", seed=4, rules_key="d20")
    casts = [e for e in doc["events"] if e["action"] == "cast"]
    assert casts and all(isinstance(e["targets"], list) and e["spell"] for e in casts)
    saves = [e for e in doc["events"] if e["action"] == "save"]
    assert saves and all(e["result"] in {"saved", "failed"} and isinstance(e["dc"], int) for e in saves)


@pytest.fixture(scope="module")
def monster_docs(tmp_path_factory):
    return list(monster_documents(tmp_path_factory.mktemp("srd-fights")))


def test_the_special_abilities_and_monster_spells_log_structured_events(monster_docs):
    actions = set()
    for name, _rules, seed, doc in monster_docs:
        lines = [line for line in doc["log"] if line.startswith("[r")]
        assert [f"[r{e['round']}] {e['text']}" for e in doc["events"]] == lines, (name, seed)
        for event in doc["events"]:
            assert isinstance(event.get("action"), str) and "actor" in event, (name, seed, event)
            actions.add(event["action"])
    assert {"attack", "damage", "cast"} <= actions
    assert len(actions) >= 15, sorted(actions)  # more than the plain fights' attacks, saves and casts
