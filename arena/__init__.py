"""d20 Arena: exact odds and simulated fights under d20 house-rule variants.

What a notebook needs is here, imported on first use (``import arena`` stays light; ``arena --help`` and
``arena odds`` do not load pandas or the engine)::

    import arena
    frame = arena.run("scenarios/reference.yaml", n=500, seed=1)             # one pandas row per encounter
    result = arena.fight("scenarios/duel.yaml", "3d6+luck", seed=1, log=True)  # as `arena fight` fights it
    encounter = arena.prepare(arena.generate_party(7), [(arena.get_creature("troll"), 4)])
    result = arena.fight(encounter, arena.RuleSet.from_key("3d6"), seed=1, log=True)
    arena.exact(arena.Check("attack", "monster", modifier=8, target=18), arena.RuleSet.from_key("3d6+prad"))
    table = arena.calibrate("bog-hag", 5, [1, 4], ["3d6"], bestiary="my-monsters.yaml")  # equivalent CR of yours

The layers below (``arena.rules``, ``arena.world``, ``arena.combat``, ``arena.study``, ``arena.cli``) hold the rest;
``docs/architecture.md`` says what each owns.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from arena import engine_build as _engine_build

_engine_build.honour_environment()  # ARENA_ENGINE=python: the engine's source, even where it is compiled

__version__ = "0.4.0.dev0"
"""The next release is 0.4 (CHANGELOG.md: the work after 0.3, its fight model 0.4); pyproject.toml reads it here."""

_EXPORTS: dict[str, str] = {
    # running studies
    "run": "arena.study.runs.in_memory",
    "run_experiment": "arena.study.runs.experiment",
    "calibrate": "arena.study.calibration.calibrate",
    "load_scenarios": "arena.study.scenarios.loading",
    "Scenario": "arena.study.scenarios.scenario",
    # one fight
    "prepare": "arena.study.scenarios.one_fight",
    "fight": "arena.study.scenarios.one_fight",
    "Encounter": "arena.combat.engine",
    "FightResult": "arena.combat.engine",
    "register_policy": "arena.combat.tactics",
    "Action": "arena.combat.actions",
    "NOTHING": "arena.combat.actions",
    # who fights
    "get_creature": "arena.world.bestiary",
    "load_bestiary": "arena.world.bestiary",
    "Creature": "arena.world.creatures",
    "generate_party": "arena.world.party",
    "typical_creature": "arena.world.typical",
    "encounter_level": "arena.world.challenge",
    # the dice rules
    "RuleSet": "arena.rules",
    "RuleOptions": "arena.rules",
    "Check": "arena.rules",
    "exact": "arena.rules",
    "resolve": "arena.rules",
    "Stream": "arena.dice",
    "ArenaError": "arena.errors",
}
_RENAMED = {"register_policy": "register"}
"""Exports whose name differs from the name in their module."""

__all__ = [
    "Action",
    "ArenaError",
    "Check",
    "Creature",
    "Encounter",
    "FightResult",
    "NOTHING",
    "RuleOptions",
    "RuleSet",
    "Scenario",
    "Stream",
    "calibrate",
    "encounter_level",
    "exact",
    "fight",
    "generate_party",
    "get_creature",
    "load_bestiary",
    "load_scenarios",
    "prepare",
    "register_policy",
    "resolve",
    "run",
    "run_experiment",
    "typical_creature",
]

if TYPE_CHECKING:  # what type checkers and editors see; at run time each name is imported on first use
    from arena.combat.actions import NOTHING, Action
    from arena.combat.engine import Encounter, FightResult
    from arena.combat.tactics import register as register_policy
    from arena.dice import Stream
    from arena.errors import ArenaError
    from arena.rules import Check, RuleOptions, RuleSet, exact, resolve
    from arena.study.calibration.calibrate import calibrate
    from arena.study.runs.experiment import run_experiment
    from arena.study.runs.in_memory import run
    from arena.study.scenarios.loading import load_scenarios
    from arena.study.scenarios.one_fight import fight, prepare
    from arena.study.scenarios.scenario import Scenario
    from arena.world.bestiary import get_creature, load_bestiary
    from arena.world.challenge import encounter_level
    from arena.world.creatures import Creature
    from arena.world.party import generate_party
    from arena.world.typical import typical_creature


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena' has no attribute {name!r}")
    value = _documented(getattr(import_module(module), _RENAMED.get(name, name)))
    globals()[name] = value  # later lookups skip this function
    return value


def _documented(value: Any) -> Any:
    """``value``, a class given back its docstring when it has none: mypyc keeps no class docstring, so a class of
    the compiled engine (``FightResult``, ``Encounter``) would have nothing to show in ``help()`` or a notebook's
    ``?``; the docstring is read from the Python source that is installed beside the compiled module."""
    import sys

    where = getattr(sys.modules.get(getattr(value, "__module__", "")), "__file__", None)
    if not isinstance(value, type) or value.__doc__ or not where:
        return value
    import ast
    import contextlib
    from pathlib import Path

    source = Path(where).with_name(f"{Path(where).name.split('.')[0]}.py")
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return value
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == value.__name__:
            with contextlib.suppress(AttributeError, TypeError):  # a type that refuses it: left as it is
                value.__doc__ = ast.get_docstring(node)
            break
    return value


def __dir__() -> list[str]:
    """The public names (what ``from arena import *`` gives, and the version), not the module's own helpers."""
    return sorted({*__all__, "__version__"})
