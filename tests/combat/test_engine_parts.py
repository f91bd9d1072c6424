"""The engine's parts: one-way dependencies, and the fight's methods are the parts' own functions."""

import ast
from pathlib import Path

from arena.combat import attacks, called_shots, conditions, damage, rolls, states
from arena.combat.engine import Fight

FIGHT = Path(attacks.__file__).parent
PARTS = ["rolls", "states", "conditions", "called_shots", "damage", "abilities", "attacks"]
"""Bottom first: each part may import only the parts before it."""


def imported_fight_modules(name: str) -> set[str]:
    tree = ast.parse((FIGHT / f"{name}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "arena.combat":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("arena.combat."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names if alias.name.startswith("arena.combat.")}
    return found


def test_each_part_imports_only_the_parts_below_it_and_never_the_engine():
    for place, name in enumerate(PARTS):
        above = set(PARTS[place:]) | {"engine"}
        assert not imported_fight_modules(name) & above, name


def test_the_fight_methods_are_the_parts_functions():
    assert Fight.resolve is rolls.resolve and Fight.save is rolls.save and Fight.gets_through is rolls.gets_through
    assert Fight.refresh is states.refresh and Fight.heal is states.heal
    assert Fight.add_condition is conditions.add_condition
    assert Fight._call_shot is called_shots.call_shot and Fight._tough_through is called_shots.tough_through
    assert Fight.deal is damage.deal and Fight.area_damage is damage.area_damage and Fight._breath is damage.breath
    assert Fight._swing is attacks.swing_at and Fight.ray is attacks.ray
