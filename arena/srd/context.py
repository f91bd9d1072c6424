"""One stat block being read: the :class:`Reading` every reader is given, and what the readers report to it.

A reader is ``reader(reading, cell)`` for a field (``Hit Dice``, ``Armor Class`` ...) and ``reader(reading, item)``
for a special ability once the attacks are read (improved grab, poison ...). The reading holds the block, the
field being read (where a note or an error goes), the creature's size, the stat block as read so far (``data``),
its special abilities (each a dict that becomes a :class:`~arena.world.creatures.SpecialAbility`) and its attack
routines as read; its helpers are the ones every ability reader needs: find an ability, mark it modelled or
ignored with the reason, note what was guessed or not read, find the paragraph that describes it.

What the readers report: a :class:`Note` (``unread``, ``guess``, ``changed``, ``discrepancy``) into the block's
:class:`Notes`, or a :class:`FieldError` for a field that cannot make a creature at all. An attack as read
(:class:`AttackRead`, by :mod:`arena.srd.attacks`) is here too: the reading holds the routines of them.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from arena.errors import ArenaError
from arena.srd.patterns import DICE, singular
from arena.srd.prose import following, own_description
from arena.srd.text import Cell, RawBlock, clean, drop_parens, is_dash

ENTRY_NUMBERS = re.compile(rf"{DICE}|[+-]?\d+")
"""The numbers of an ability's entry, left out when its name is looked up: ``Constrict 2d6+9``, ``Poison DC 13``."""
PLUS_OR = re.compile(r"\s+(?:plus|or)\s+")
"""Where an entry's name ends: ``Bite 1d8 plus poison``, ``Web or Sticky``."""


class FieldError(ArenaError):
    """A field that cannot be read at all, or holds an impossible number: ``message`` says which and why."""

    def __init__(self, field_name: str, cell: Cell | None, message: str):
        self.field = field_name
        self.cell = cell
        self.message = message
        super().__init__(f"{field_name}: {message}")


@dataclass
class Note:
    """What a reader could not read (``unread``), read with a guess (``guess``), rewrote to fit the model
    (``changed``), or found in disagreement with the block itself (``discrepancy``): at a field, a line and a
    text."""

    kind: str
    field: str
    line: int | None
    text: str
    message: str


@dataclass
class Notes:
    """What the readers of one block report."""

    items: list[Note] = dataclasses.field(default_factory=list)
    _seen: set[tuple[str, str, str, str]] = dataclasses.field(default_factory=set, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._seen = {(n.kind, n.field, n.text, n.message) for n in self.items}

    def add(self, kind: str, field_name: str, cell: Cell | None, message: str, text: str | None = None) -> None:
        """Add a note, unless the same one (kind, field, text, message) is there already."""
        shown = text if text is not None else (cell.text if cell else "")
        note = Note(kind, field_name, cell.line if cell else None, shown[:500], message)
        key = (note.kind, note.field, note.text, note.message)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(note)


@dataclass
class AttackRead:
    """One attack of a routine as the SRD writes it, plus what the model needs."""

    name: str
    count: int
    bonuses: tuple[int, ...]
    kind: str
    touch: bool
    damage: str | None
    """Hit-point damage dice, or None for an attack that deals none (``(paralysis)``, ``(0)``)."""
    damage_types: tuple[str, ...]
    threat: int = 20
    multiplier: int = 2
    extra_damage: str | None = None
    extra_damage_type: str | None = None
    riders: tuple[str, ...] = ()
    """What else a hit does, in the SRD's words: ``poison``, ``1d6 Str``, ``energy drain``, ``attach``."""
    text: str = ""
    secondary: bool = False
    enhancement: int = 0
    materials: tuple[str, ...] = ()


def bare_name(name: str) -> str:
    """An ability's name without its numbers, its parentheses and what follows ``plus`` or ``or``, in lowercase:
    ``Constrict 2d6+9`` -> ``constrict``, ``Bite 1d8 plus poison`` -> ``bite``."""
    return PLUS_OR.split(ENTRY_NUMBERS.sub(" ", drop_parens(name.lower(), " ")))[0].strip(" .,")


def entry_field(kind: str) -> str:
    """The field an ability's entry is in: ``Special Attacks`` for an ``attack``, else ``Special Qualities``."""
    return "Special Attacks" if kind == "attack" else "Special Qualities"


def attack_names(routines: list[list[dict]]) -> list[str]:
    """The names of the attacks of ``routines`` (as written), each once, in order."""
    out: list[str] = []
    for routine in routines:
        for a in routine:
            if a["name"] not in out:
                out.append(a["name"])
    return out


def named(word: str, names: list[str]) -> str | None:
    """The attack of ``names`` that ``word`` names (``claws`` is the ``claw`` attack, ``talons`` the ``talon``)."""
    w = word.strip().lower()
    if w in names:
        return w
    return next((name for name in names if singular(name) == singular(w)), None)


@dataclass
class Reading:
    """One stat block being read, passed to every reader."""

    block: RawBlock
    notes: Notes = dataclasses.field(default_factory=Notes)
    field: str = "stat block"
    """The field being read: where a note goes, and an error no reader expected is reported."""
    cell: Cell | None = None
    """Its cell."""
    size: str = "medium"
    """The creature's size, once its Size/Type is read."""
    data: dict = dataclasses.field(default_factory=dict)
    """The stat block as read so far: each ability reader's fields are added to it in turn."""
    abilities: list[dict] = dataclasses.field(default_factory=list)
    """Its special abilities, each the dict of a SpecialAbility (``key``, ``engine``, ``notes`` ...)."""
    reads: list[list[AttackRead]] = dataclasses.field(default_factory=list)
    """Its attack routines as read, the attacks that deal no hit-point damage too (they are not in ``data``)."""

    # ----------------------------------------------------------------------------------------- fields
    def at(self, name: str) -> Cell | None:
        """The cell of the field ``name``, which is read next (and reported at)."""
        self.field, self.cell = name, self.block.get(name)
        return self.cell

    def text(self) -> str | None:
        """The cleaned text of the field being read; None when the block leaves it out (no cell, blank or a dash)."""
        cell = self.cell
        return None if cell is None or is_dash(cell.text) else clean(cell.text)

    def note(self, kind: str, message: str, text: str | None = None) -> None:
        """A note at the field being read."""
        self.notes.add(kind, self.field, self.cell, message, text)

    def error(self, message: str) -> FieldError:
        """The error of the field being read: it cannot make a creature."""
        return FieldError(self.field, self.cell, message)

    # ----------------------------------------------------------------------------------------- routines
    def routines(self) -> list[list[dict]]:
        """The full attack's routines, then the standard attack's, as written."""
        return list(self.data.get("full_attack") or []) + list(self.data.get("attack") or [])

    def attack_names(self) -> list[str]:
        """The names of its attacks, the full attack's first."""
        return attack_names(self.routines())

    def melee_names(self) -> list[str]:
        """The names of the full attack's melee attacks."""
        return attack_names(
            [[a for a in r if a.get("kind", "melee") == "melee"] for r in self.data.get("full_attack") or []]
        )

    def unrolled(self) -> set[str]:
        """The attacks of its routines that deal no hit-point damage (not attacks the engine rolls)."""
        return {a.name.lower() for r in self.reads for a in r if a.damage is None}

    def deal_no_damage(self, words: list[str]) -> bool:
        """Whether one of ``words`` names an attack of its routines that deals no hit-point damage."""
        unrolled = {singular(u) for u in self.unrolled()}
        return any(singular(w) in unrolled for w in words)

    def named(self, word: str) -> str | None:
        """The attack of its routines that ``word`` names (``claws`` is the ``claw``)."""
        return named(word, self.attack_names())

    # ----------------------------------------------------------------------------------------- abilities
    def first(self, key: str) -> dict | None:
        """The first of its special abilities of ``key``."""
        return next((a for a in self.abilities if a["key"] == key), None)

    def mark(self, key: str, engine: str, why: str) -> None:
        """Every ability of ``key`` is ``engine`` (``modelled``, ``ignored``, ``no effect``), for the reason given."""
        for a in self.abilities:
            if a["key"] == key:
                a["engine"] = engine
                a["notes"] = why

    def ignored(self, key: str, why: str) -> dict:
        """An ability the engine leaves out: marked ignored, saying why; no stat-block field."""
        self.mark(key, "ignored", why)
        return {}

    def save_of(self, key: str, dc: int | None, save: str | None) -> None:
        """The DC and save of every ability of ``key`` (those given)."""
        for a in self.abilities:
            if a["key"] == key:
                if dc is not None:
                    a["dc"] = dc
                if save is not None:
                    a["save"] = save

    def note_on(self, item: dict, kind: str, message: str, text: str | None = None) -> None:
        """A note at the entry of the ability ``item`` (its Special Attacks or Special Qualities)."""
        name = entry_field(item["kind"])
        self.notes.add(kind, name, self.block.get(name), message, text)

    def unread(self, item: dict, key: str, what: str, text: str, label: str | None = None) -> dict:
        """An ability whose numbers the text does not give: noted as unread (file, line and text) and marked
        ignored, with what was missing; no stat-block field."""
        self.note_on(item, "unread", f"{label or key}: {what}: not modelled", text[:200] or item["name"])
        return self.ignored(key, what)

    def description(self, item: dict, *names: str) -> Cell | None:
        """The paragraph that describes the ability ``item`` for this creature, looked for under its entry's name,
        then under ``names``; the entry's text gets it when the entry named it otherwise (a ghast's
        ``paralyis``)."""
        for name in (item["name"], *names):
            name = bare_name(name)
            if name:
                desc = own_description(self.block, name)
                if desc is not None:
                    if " -- " not in item["text"]:
                        item["text"] = f"{item['text']} -- {desc.text.strip()[:400]}"[:600]
                    return desc
        return None

    def text_of(self, item: dict, *names: str) -> tuple[Cell | None, str]:
        """:meth:`description` and its text, cleaned (or ``""``)."""
        desc = self.description(item, *names)
        return desc, (clean(desc.text) if desc else "")

    def following(self, desc: Cell | None, count: int = 3) -> str:
        """The paragraph ``desc`` and the next ``count`` that no ability heads (:func:`arena.srd.prose.following`)."""
        return following(self.block, desc, count)
