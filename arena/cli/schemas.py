"""JSON Schemas of stat-block and scenario files for editors (`arena bestiary schema`, `arena scenario schema`).

Pydantic writes the schema of the validated models; the loaders also take shorthands that a before-validator turns
into the model's form (``threat: "19-20"``, ``multiplier: x3``, ``damage_reduction: 5/magic``, ``bonuses: 9``, a
list of stat blocks in one file, ``troll:4`` monster groups, ``party: [fighter-5]``, ``rules: [d20, 3d6]``). The
functions here add those shorthands, and turn pydantic's keywords that JSON Schema does not read (``ge``/``le``,
string lengths on arrays) into the ones it does, so the schema accepts what the loaders accept and rejects what
they reject (tests/cli/test_schema.py validates every shipped file against it with ``jsonschema``).
"""

from __future__ import annotations

import copy
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
THREAT_TEXT = r"^\s*([2-9]|1[0-9]|20)\s*(-\s*20\s*)?$"
MULTIPLIER_TEXT = r"^\s*[xX×]?\s*[2-5]\s*$"
DR_TEXT = r"^\s*[0-9]{1,9}\s*/\s*\S.*$"
GROUP_TEXT = r"^\s*[A-Za-z0-9][A-Za-z0-9 _/'.-]*(:\s*[1-9][0-9]{0,8}\s*)?$"
_BOUNDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}


def _standard(node: Any) -> Any:
    """pydantic's extras as JSON Schema keywords: ``ge``/``le`` -> ``minimum``/``maximum``; an array's
    ``minLength``/``maxLength`` -> ``minItems``/``maxItems``."""
    if isinstance(node, dict):
        out = {k: _standard(v) for k, v in node.items()}
        for old, new in _BOUNDS.items():
            if old in out and isinstance(out[old], int | float) and "type" in out:
                out[new] = out.pop(old)
        if out.get("type") == "array":
            for text_key, array_key in (("minLength", "minItems"), ("maxLength", "maxItems")):
                if text_key in out:
                    out[array_key] = out.pop(text_key)
        return out
    if isinstance(node, list):
        return [_standard(v) for v in node]
    return node


def _one_or_many(prop: dict) -> dict:
    """An array property that also takes a single item."""
    meta = {k: prop[k] for k in ("title", "default", "description") if k in prop}
    array = {k: v for k, v in prop.items() if k not in meta}
    if "anyOf" in array:  # Optional[array]: widen the array branch
        branches = [_one_or_many(b) if b.get("type") == "array" else b for b in array["anyOf"]]
        return {**meta, "anyOf": [x for b in branches for x in (b["anyOf"] if "anyOf" in b and len(b) == 1 else [b])]}
    item = array.get("items", {})
    scalar = set(item) <= {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    if scalar and isinstance(item.get("type"), str):  # one schema: array keywords act on arrays only,
        return {
            **meta,
            **array,
            **{k: v for k, v in item.items() if k != "type"},  # numeric ones on numbers
            "type": ["array", item["type"]],
        }
    return {**meta, "anyOf": [array, item]}


def _with_text(prop: dict, pattern: str, what: str) -> dict:
    """A property that also takes a string written like ``pattern`` (``what`` is its description)."""
    meta = {k: prop[k] for k in ("title", "default", "description") if k in prop}
    rest = {k: v for k, v in prop.items() if k not in meta}
    branches = rest["anyOf"] if list(rest) == ["anyOf"] else [rest]
    return {**meta, "anyOf": [*branches, {"type": "string", "pattern": pattern, "description": what}]}


def _creature_defs(defs: dict) -> None:
    attack = defs["Attack"]["properties"]
    for name in ("bonuses", "damage_types"):
        attack[name] = _one_or_many(attack[name])
    attack["threat"] = _with_text(attack["threat"], THREAT_TEXT, "a threat range: 19-20, 18-20 or 20")
    attack["multiplier"] = _with_text(attack["multiplier"], MULTIPLIER_TEXT, "a critical multiplier: x3")
    creature = defs["Creature"]["properties"]
    creature["damage_reduction"] = _with_text(
        creature["damage_reduction"], DR_TEXT, "damage reduction: 5/magic, 10/silver or cold iron, 5/-"
    )


def _file_of(name: str, defs: dict, title: str, what: str) -> dict:
    """A file holding one ``name`` or a list of them. The root is the mapping's own schema, typed "object or
    array": ``properties``, ``required`` and ``additionalProperties`` act on a mapping only and ``items`` on a list
    only, so editors see the fields at the top and a list of mappings validates item by item."""
    one = copy.deepcopy(defs[name])
    return {
        "$schema": DRAFT,
        **one,
        "title": title,
        "description": f"One {what} (a mapping) or a list of them.",
        "type": ["object", "array"],
        "items": {"$ref": f"#/$defs/{name}"},
        "minItems": 1,
        "$defs": defs,
    }


def bestiary_schema() -> dict:
    """The JSON Schema of a stat-block file: one stat block or a list of them, with every shorthand."""
    from arena.world.creatures import Creature

    raw = _standard(Creature.model_json_schema())
    defs = raw.pop("$defs", {})
    defs["Creature"] = raw
    _creature_defs(defs)
    return _file_of("Creature", defs, "d20 Arena stat block", "stat block")


def scenario_schema() -> dict:
    """The JSON Schema of a scenario file: one scenario or a list of them, with every shorthand."""
    from arena.study.scenarios.scenario import Scenario

    raw = _standard(Scenario.model_json_schema())
    defs = raw.pop("$defs", {})
    defs["Scenario"] = raw
    _creature_defs(defs)
    props = raw["properties"]
    member = {
        "anyOf": [
            {
                "type": "string",
                "minLength": 1,
                "description": "a generated PC (fighter-5) or a side: pc stat block's name",
            },
            {"$ref": "#/$defs/PartyMember"},
        ]
    }
    props["party"] = {"anyOf": [{"$ref": "#/$defs/Party"}, {"type": "array", "items": member, "minItems": 1}]}
    party = defs["Party"]["properties"]
    party["members"] = {**party["members"], "anyOf": [{"type": "array", "items": member}, {"type": "null"}]}
    group = {
        "anyOf": [
            {"type": "string", "pattern": GROUP_TEXT, "description": "NAME or NAME:COUNT (troll:4)"},
            {"$ref": "#/$defs/MonsterGroup"},
        ]
    }
    props["monsters"] = {**props["monsters"], "items": group}
    for name in ("bestiary", "policies"):
        props[name] = _one_or_many(props[name])
    rules = defs["Rules"]["properties"]
    for name in list(rules):
        rules[name] = _one_or_many(rules[name])
    props["rules"] = {
        "anyOf": [
            {"$ref": "#/$defs/Rules"},
            {"type": "string", "description": "one rule-set key"},
            {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "rule-set keys"},
        ]
    }
    return _file_of("Scenario", defs, "d20 Arena scenario", "scenario")
