"""The special abilities: one module each, holding everything about one ability.

A module here is an ability's whole story: its stat-block field (a model, registered with
:func:`arena.world.ability_fields.add_fields`), how the SRD importer reads it (:func:`arena.srd.effects.add_reading`)
and what it does in a fight (:func:`arena.combat.ability_hooks.add_fight_ability`, a function for each moment it acts
at). Importing this package imports every module in it, and each registers itself; the world imports the package by
name when the stat-block model is defined (:func:`arena.world.ability_fields.discover`). ``docs/architecture.md``
shows how to add one.
"""

from __future__ import annotations

import importlib
import pkgutil

from arena.world import ability_fields

with ability_fields.registering():  # a field may follow one of a module imported after its own
    for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{_module}")
