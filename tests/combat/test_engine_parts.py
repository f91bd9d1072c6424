"""The engine's parts: their order is an import-linter contract (pyproject.toml, checked by ``lint-imports`` in
tests/test_lint.py) over every module of the layer, and the fight binds one part function, the seam every roll
goes through."""

import tomllib
import types
from pathlib import Path

from arena.combat import attacks
from arena.combat.engine import Fight

ROOT = Path(__file__).resolve().parents[2]
FIGHT = Path(attacks.__file__).parent


def parts_contract(container: str = "arena.combat") -> dict:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c.get("containers") == [container]]
    return contract


def modules_of(folder: Path) -> set[str]:
    """The modules and subpackages of a package folder, by name (``__init__`` aside)."""
    modules = {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}
    return modules | {path.parent.name for path in folder.glob("*/__init__.py")}


def named_in(contract: dict) -> list[str]:
    return [name.strip() for layer in contract["layers"] for name in layer.split("|")]


def test_the_parts_contract_orders_every_module_of_the_layer():
    """A new module of arena/combat must take its place in the order (a module the contract does not name could
    import any part)."""
    contract = parts_contract()
    assert contract["type"] == "layers"
    assert sorted(named_in(contract)) == sorted(modules_of(FIGHT))
    assert contract["layers"][0] == "engine"  # the round driver on top: no part imports it


def test_the_tactics_contract_orders_every_module_of_the_tactics():
    """The tactics subpackage (one layer of the parts' order) has its own order, over all of its modules."""
    contract = parts_contract("arena.combat.tactics")
    assert contract["type"] == "layers"
    assert sorted(named_in(contract)) == sorted(modules_of(FIGHT / "tactics"))
    assert contract["layers"][0] == "policy_files"  # a user's file on top: it runs register, nothing imports it


def test_the_fight_binds_no_function_of_another_module():
    """No part's function is bound onto the fight at run time (the compiled engine's classes are fixed): the parts
    call each other as functions, which the contract checks, and every roll goes through ``rolls.resolve``, whose
    watchers (``rolls.watch_rolls``) are how a test sees each check."""
    bound = {
        name
        for name, value in vars(Fight).items()
        if isinstance(value, types.FunctionType) and value.__module__ != Fight.__module__
    }
    assert bound == set()
    assert not hasattr(Fight, "resolve")
