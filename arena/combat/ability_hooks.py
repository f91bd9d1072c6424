"""Where a special ability hooks into a fight: the engine's end of the ability registry.

A special ability's module (:mod:`arena.abilities`) registers a :class:`FightAbility`: the stat-block field it
reads, what a fight keeps of it (``compile``, run once per stat block, never per fight), and a function for each
moment it acts at. The moments are the engine's hook points:

- ``turn_start``: at the start of each of the creature's turns, before anything else it does (a gaze). The engine
  calls ``hook(fight, combatant)``, and ends the turn when the fight is over after it.

A stat block's hooks are gathered once, when its :class:`~arena.combat.combatant.Template` is compiled
(:func:`compile_abilities`), in each moment's order (``order``, low first), so that a creature without abilities
pays one test of an empty tuple per hook point, and one with them a loop over its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Hook = Callable[..., Any]
"""A hook point's function: ``hook(fight, combatant, ...)`` (the arguments of its moment, above)."""


@dataclass(frozen=True)
class FightAbility:
    """What a special ability does in a fight."""

    field: str
    """The stat-block field it reads (``gaze``): the ability is in the fight when the field is set."""
    compile: Callable[[Any], Any] | None = None
    """What a fight keeps of the field's value, worked out once per stat block (default: the value itself)."""
    turn_start: Hook | None = None
    """``turn_start(fight, combatant)``, at the start of each of its turns."""
    order: int = 100
    """Its place among the hooks of one moment: low first (two abilities' hooks at one moment run in this order)."""


@dataclass(frozen=True)
class CompiledAbilities:
    """A stat block's abilities as a fight uses them."""

    data: dict[str, Any]
    """Each of its abilities' compiled value, by field (``t.ability_data["gaze"]``)."""
    turn_start: tuple[Hook, ...]


_ABILITIES: dict[str, FightAbility] = {}


def add_fight_ability(ability: FightAbility) -> None:
    """Register what an ability does in a fight (by the ability's module, once)."""
    if ability.field in _ABILITIES:
        raise ValueError(f"the fight ability of {ability.field!r} is registered twice")
    _ABILITIES[ability.field] = ability


def registered() -> tuple[FightAbility, ...]:
    return tuple(_ABILITIES.values())


def compile_abilities(creature: Any) -> CompiledAbilities:
    """The abilities ``creature``'s stat block has (a set field: not None, not False), compiled, and their hooks in
    each moment's order."""
    data: dict[str, Any] = {}
    present: list[FightAbility] = []
    for ability in _ABILITIES.values():
        value = getattr(creature, ability.field, None)
        if value is None or value is False:
            continue
        data[ability.field] = value if ability.compile is None else ability.compile(value)
        present.append(ability)
    present.sort(key=lambda a: a.order)
    turn_start = tuple(a.turn_start for a in present if a.turn_start is not None)
    return CompiledAbilities(data, turn_start)
