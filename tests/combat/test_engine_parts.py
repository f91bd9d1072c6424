"""The engine's parts: their order is an import-linter contract (pyproject.toml, checked by ``lint-imports`` in
tests/test_lint.py) over every module of the layer, and the fight binds one part function, the seam every roll
goes through."""

import tomllib
import types
from pathlib import Path

from arena.combat import attacks, rolls
from arena.combat.engine import Fight

ROOT = Path(__file__).resolve().parents[2]
FIGHT = Path(attacks.__file__).parent


def parts_contract() -> dict:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c.get("containers") == ["arena.combat"]]
    return contract


def test_the_parts_contract_orders_every_module_of_the_layer():
    """A new module of arena/combat must take its place in the order (a module the contract does not name could
    import any part)."""
    contract = parts_contract()
    assert contract["type"] == "layers"
    named = [name.strip() for layer in contract["layers"] for name in layer.split("|")]
    modules = {path.stem for path in FIGHT.glob("*.py") if path.stem != "__init__"}
    assert sorted(named) == sorted(modules)
    assert contract["layers"][0] == "engine"  # the round driver on top: no part imports it


def test_the_fight_binds_only_the_seam_every_roll_goes_through():
    """``Fight.resolve`` is the parts' one method on the fight (a wrapper set on the class sees every check); the
    parts call each other as functions, which the contract checks."""
    assert Fight.resolve is rolls.resolve
    bound = {
        name
        for name, value in vars(Fight).items()
        if isinstance(value, types.FunctionType) and value.__module__ != Fight.__module__
    }
    assert bound == {"resolve"}
