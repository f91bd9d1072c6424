"""Where a special ability adds its fields to the stat block: the world's end of the ability registry.

A special ability is one module of :mod:`arena.abilities` (its stat-block field, how the importer reads it, what it
does in a fight). Its fields are not written in :class:`~arena.world.creatures.Creature`: the module registers them
here (:func:`add_fields`), and they join the model as if they had been (validation, errors by file/line/field,
defaults, JSON Schema, ``model_dump``), at the place in a stat block the module names (``after=``), so a written
block keeps its order.

The world imports nothing above it, so it finds the built-in abilities by name: :func:`discover`, run once when the
stat-block model has been defined (the last lines of :mod:`arena.world.creatures`), imports
``arena.abilities``, whose package imports each of its modules. That is the one reference from the world to a layer
above it, a plugin discovery (as pytest finds its plugins): nothing in the world calls an ability's code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

BUILTIN_ABILITIES = "arena.abilities"
"""The package of the built-in special abilities, one module each."""


@dataclass(frozen=True)
class AbilityField:
    """One stat-block field of a special ability."""

    name: str
    """The field's name in a stat block (``gaze``)."""
    annotation: Any
    """Its type, as a model field's annotation (``Gaze | None``)."""
    default: Any = None
    doc: str = ""
    """What the field holds (the field's description: ``arena bestiary fields``, the JSON Schema)."""
    after: str | None = None
    """The field it follows in a written stat block (None: at the end)."""
    every_number: bool = False
    """An imported block writes it with every number, its defaults too (not only the numbers that differ)."""
    check: Callable[[Any, Any], None] | None = None
    """``check(creature, value)`` once the block is complete: raises ValueError when the value does not fit the
    rest of the block (rend names an attack the block does not have)."""


_MODEL: list[type[BaseModel]] = []
"""The stat-block model the fields join (one; set by :func:`bind`)."""
_FIELDS: dict[str, AbilityField] = {}
"""Every registered field, by name, in the order registered."""
_PENDING: list[AbilityField] = []
_DISCOVERING: list[bool] = []
"""Non-empty while fields are kept to be added together (:func:`registering`, :func:`discover`)."""
_DISCOVERED: list[bool] = []


def bind(model: type[BaseModel]) -> None:
    """Name the stat-block model the fields join (``Creature``, once it is defined)."""
    _MODEL[:] = [model]


def add_fields(*fields: AbilityField) -> None:
    """Register an ability's fields. Inside :func:`registering` (the built-in abilities' import, :func:`discover`)
    they are kept and join the model together at its end (one rebuild of the model); otherwise (an ability module
    imported later, a test's toy ability) at once."""
    for f in fields:
        if f.name in _FIELDS:
            raise ValueError(f"stat-block field {f.name!r} is registered twice")
        model = _MODEL[0] if _MODEL else None
        if model is not None and f.name in model.model_fields:
            raise ValueError(f"stat-block field {f.name!r} is already a field of {model.__name__}")
        _FIELDS[f.name] = f
        _PENDING.append(f)
    if not _DISCOVERING:
        _apply()


def registered() -> tuple[AbilityField, ...]:
    """Every special ability's stat-block field, in the order registered."""
    return tuple(_FIELDS.values())


def field(name: str) -> AbilityField | None:
    return _FIELDS.get(name)


def check_block(creature: Any) -> None:
    """Run each registered field's ``check`` on a complete stat block (from the model's own last validator)."""
    for f in _FIELDS.values():
        if f.check is not None:
            value = getattr(creature, f.name)
            if value is not None and value is not False:
                f.check(creature, value)


def discover() -> None:
    """Import the built-in ability modules (each registers itself), then add their fields to the model at once."""
    if _DISCOVERING or _DISCOVERED:
        return
    _DISCOVERED.append(True)
    with registering():
        importlib.import_module(BUILTIN_ABILITIES)


@contextmanager
def registering() -> Iterator[None]:
    """Keep the fields registered inside it and add them to the model together when the outermost ends (one
    rebuild, each field after its ``after`` field whichever module registered first). The package of the built-in
    abilities imports its modules inside it: a program that imports one of them first imports the package, whose
    modules then register while :func:`discover` (run by the stat-block model, which the first of them imports) has
    already returned."""
    _DISCOVERING.append(True)
    try:
        yield
    finally:
        _DISCOVERING.pop()
        if not _DISCOVERING:
            _apply()


def _apply() -> None:
    """Add the pending fields to the model, each after its ``after`` field, and rebuild the model once."""
    if not _PENDING or not _MODEL:
        return
    model = _MODEL[0]
    pending, _PENDING[:] = list(_PENDING), []
    order = list(model.__pydantic_fields__.items())
    names = [name for name, _ in order]
    waiting = list(pending)
    while waiting:  # a field may follow another field of the batch: place those whose anchor is placed
        placed = [f for f in waiting if f.after is None or f.after in names]
        if not placed:
            missing = ", ".join(f"{f.name} (after {f.after})" for f in waiting)
            raise ValueError(f"stat-block fields placed after fields that do not exist: {missing}")
        for f in placed:
            info = FieldInfo.from_annotated_attribute(f.annotation, f.default)
            if f.doc:
                info.description = f.doc
            at = len(order) if f.after is None else names.index(f.after) + 1
            order.insert(at, (f.name, info))
            names.insert(at, f.name)
            model.__annotations__[f.name] = f.annotation
        waiting = [f for f in waiting if f not in placed]
    model.__pydantic_fields__ = dict(order)
    model.model_rebuild(force=True)
