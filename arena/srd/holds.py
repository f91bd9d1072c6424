"""The abilities of a hold that no ability module reads (improved grab and its parts, swallow whole, crush and
engulf are modules of :mod:`arena.abilities`), read once the attacks are: ferocity (the engine's flag).

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description, returns the :class:`~arena.world.creatures.Creature` field and marks the ability
``modelled``; an ability whose numbers cannot be read stays ``ignored`` with an ``unread`` note, one the engine's
field cannot carry stays ``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

from arena.srd.context import Reading


def flag(field: str):
    """The reader of an ability that is a flag of the stat block (``ferocity``; :mod:`arena.abilities.pounce`'s
    ``pounce``): marked modelled."""

    def reader(ctx: Reading, item: dict) -> dict:
        ctx.mark(item["key"], "modelled", field)
        return {field: True}

    return reader
