"""The abilities that become stat-block fields once a block's attacks are read: the table of which reader reads
which ability, in the order they run.

:func:`arena.srd.abilities.read_abilities` records every special attack and quality with the SRD's words, the
vocabulary's key and ``ignored`` (or ``modelled`` for the few its own readers fill); once the routines are read,
:func:`read_ability_fields` runs :data:`RULES` in order. A rule is an ability's key and its reader (``reader(reading,
item)``, run when the block has the ability, or only while it is still ``ignored``), or a step over several abilities
(``reader(reading)``). Each reader's fields join the stat block as read (``reading.data``) at once, so a later
reader sees them (a paralysis of a held foe reads the improved grab's attack; a fear aura is left out when another
aura was read). The readers live by what they read: :mod:`arena.srd.holds`, :mod:`arena.srd.auras`,
:mod:`arena.srd.specials`, :mod:`arena.srd.traits`, the spells last (:mod:`arena.srd.spells`), and those of the
ability modules (:mod:`arena.abilities`) in the places they name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arena.srd import holds, specials, spells, traits, vocabulary
from arena.srd.context import Reading

AbilityReader = Callable[[Reading, dict], dict]
"""The reader of one ability: the stat-block fields it fills (``{}`` for none); it sets the ability's ``engine`` and
``notes``."""
StepReader = Callable[[Reading], dict]
"""A step over several abilities (every ray of the block, the abilities of no effect here)."""


@dataclass(frozen=True)
class Ability:
    """An ability's key and its reader: run with the first ability of the key the block has."""

    key: str
    reader: AbilityReader
    only_ignored: bool = False
    """Run only while the ability is still ``ignored`` (not read by an earlier rule)."""

    def run(self, ctx: Reading) -> dict:
        item = ctx.first(self.key)
        if item is None or (self.only_ignored and item["engine"] != "ignored"):
            return {}
        return self.reader(ctx, item)


@dataclass(frozen=True)
class Step:
    """A reader run for every block."""

    reader: StepReader

    def run(self, ctx: Reading) -> dict:
        return self.reader(ctx)


def _ignored(*rules: tuple[str, AbilityReader]) -> tuple[Ability, ...]:
    return tuple(Ability(key, reader, only_ignored=True) for key, reader in rules)


RULES: tuple[Ability | Step, ...] = (
    # a hold, fear and paralysis: what the routines deliver
    Ability("ferocity", holds.flag("ferocity")),
    # what a hit does, the breaths and the moves of its own
    Ability("incorporeal", traits.incorporeal),
    # what it does instead of its attacks, and its auras
    *_ignored(),
    # the rest of what it is and does
    *_ignored(
        ("acid", traits.acid),
        ("earth mastery", specials.earth_mastery),
        ("freedom of movement", traits.freedom),
        ("natural invisibility", traits.invisible),
        ("greater invisibility", traits.invisible),
        ("invisible in light", traits.invisible),
        ("evasion", traits.evasion),
        ("uncanny dodge", traits.uncanny_dodge),
        ("spikes", specials.spikes),
    ),
    Step(traits.no_effect_here),
    Ability("magic circle against evil", traits.magic_circle),
    Ability("immunity to compulsion", traits.immune_to_compulsion),
    # its spells and spell-like abilities, once every other ability is read
    Step(spells.spell_fields),
)
"""Every ability reader, in the order they run: an ability's reader, or a step over several."""


@dataclass(frozen=True)
class AbilityReading:
    """How the importer reads a special ability of its own module (:mod:`arena.abilities`): the vocabulary's key
    and the names the SRD writes it by, and its reader, run after the reader of the key ``after`` (the readers run
    in one order: a later one sees the fields of those before it)."""

    key: str
    names: tuple[str, ...]
    """Names as the SRD writes them, lowercase, numbers and parentheses removed; a regular expression only where
    the SRD writes one ability several ways (see :mod:`arena.srd.vocabulary`)."""
    reader: AbilityReader
    after: str | None = None
    """The key of the rule it runs after (None: after every other rule but the spells)."""
    only_ignored: bool = False


_READINGS: list[AbilityReading] = []
_ORDERED: list[tuple[Ability | Step, ...]] = []


def add_reading(reading: AbilityReading) -> None:
    """Register how the importer reads an ability (by the ability's module, once): its names join the vocabulary of
    abilities that matter in a fight, its reader the rules."""
    if reading.key in vocabulary.IGNORED or any(r.key == reading.key for r in _READINGS):
        raise ValueError(f"the importer already reads an ability {reading.key!r}")
    vocabulary.add_ignored(reading.key, reading.names)
    _READINGS.append(reading)
    _ORDERED.clear()


def rules() -> tuple[Ability | Step, ...]:
    """:data:`RULES` with each registered ability's reader after its ``after`` rule (the spells stay last)."""
    if not _ORDERED:
        ordered: list[Ability | Step] = list(RULES)
        waiting = list(_READINGS)
        while waiting:
            keys = [rule.key if isinstance(rule, Ability) else None for rule in ordered]  # a step has no key
            placed = [r for r in waiting if r.after is None or r.after in keys]
            if not placed:
                missing = ", ".join(f"{r.key} (after {r.after})" for r in waiting)
                raise ValueError(f"ability readers placed after readers that do not exist: {missing}")
            for r in placed:
                rule = Ability(r.key, r.reader, only_ignored=r.only_ignored)
                at = len(ordered) - 1 if r.after is None else _place_of(ordered, r.after) + 1
                ordered.insert(at, rule)
                keys.append(r.key)
            waiting = [r for r in waiting if r not in placed]
        _ORDERED.append(tuple(ordered))
    return _ORDERED[0]


def _place_of(ordered: list[Ability | Step], key: str) -> int:
    """Where the first rule of ``key`` is among the rules (the steps counted too)."""
    return next(i for i, rule in enumerate(ordered) if isinstance(rule, Ability) and rule.key == key)


def read_ability_fields(ctx: Reading) -> None:
    """Run :func:`rules` on the block being read: each reader's fields join ``ctx.data`` as it returns them."""
    for rule in rules():
        ctx.data.update(rule.run(ctx))
