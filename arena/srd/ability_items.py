"""One special ability of an SRD stat block as the importer reads it: the entry of a Special Attacks or Special
Qualities cell (:class:`Entry`), the record it becomes (:class:`Item`, later a
:class:`~arena.world.creatures.SpecialAbility`), its SRD numbers (save, DC, damage) from the entry and its
paragraph, and the engine fields the abilities fill (:class:`Effects`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arena.srd.context import Reading
from arena.srd.patterns import DICE, SAVE, SAVE_KEYS
from arena.srd.prose import description_of
from arena.srd.text import Cell, clean, dice_text, number
from arena.srd.vocabulary import entry_name

ENTRY_DC = re.compile(r"\bDC\s*(\d+)")
"""A DC: ``Frightful presence (DC 21)``, ``Fortitude DC 13``."""
SAVE_WORD = re.compile(rf"\b{SAVE}\b")
"""A save named in a description: ``a DC 13 Fortitude save``."""
ENTRY_DICE = re.compile(rf"\b({DICE})\b")
"""Dice in an entry: ``Rend 2d6+9``, ``sneak attack +3d6``."""
DAMAGE_DICE = re.compile(rf"\b({DICE}) points? of (?:[a-z]+ )?damage|\bdamage ({DICE})")
"""An ability's damage in its description: ``deals 2d6+9 points of damage``, ``damage 1d6 Str``."""


@dataclass
class Effects:
    """What the special abilities put into the stat block's engine fields."""

    damage_reduction: dict | None = None
    spell_resistance: int = 0
    regeneration: dict | None = None
    fast_healing: int = 0
    energy_resistance: dict[str, int] = field(default_factory=dict)
    immunities: list[str] = field(default_factory=list)
    vulnerabilities: list[str] = field(default_factory=list)
    trip: bool = False
    breath_weapon: dict | None = None
    sneak_attack: str | None = None
    abilities: list[dict] = field(default_factory=list)


@dataclass
class Item:
    """One special ability as read, before it becomes a :class:`~arena.world.creatures.SpecialAbility`."""

    name: str
    key: str
    kind: str
    engine: str
    text: str
    notes: str = ""
    numbers: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out = {
            "name": self.name[:200],
            "key": self.key,
            "kind": self.kind,
            "engine": self.engine,
            "text": self.text[:600],
        }
        for k in ("save", "dc", "damage", "amount"):
            if self.numbers.get(k) is not None:
                out[k] = self.numbers[k]
        if self.notes:
            out["notes"] = self.notes
        return out


@dataclass(frozen=True)
class Entry:
    """One entry of a Special Attacks or Special Qualities cell."""

    shown: str
    """As written, its blanks made one: ``Regeneration 5``."""
    low: str
    """Cleaned and lowercase: ``regeneration 5``."""
    name: str
    """As the vocabulary knows it (:func:`~arena.srd.vocabulary.entry_name`): ``regeneration``."""
    kind: str
    """``attack`` (of Special Attacks) or ``quality``."""

    @classmethod
    def of(cls, text: str, kind: str) -> Entry:
        return cls(" ".join(text.split()), clean(text).lower(), entry_name(text), kind)


class UnknownAbility(Exception):
    def __init__(self, name: str):
        self.name = name
        super().__init__(name)


def ability_numbers(description: str | None, entry: str) -> dict:
    """The SRD numbers of an ability: its save and DC (when the description gives one), its damage dice."""
    out: dict = {}
    m = ENTRY_DICE.search(entry)
    if m:
        out["damage"] = dice_text(m.group(1))
    dc = ENTRY_DC.search(entry)
    if dc:
        out["dc"] = number(dc.group(1))
    if description:
        dcs = set(ENTRY_DC.findall(description))
        saves = SAVE_WORD.findall(description)
        if len(dcs) == 1 and "dc" not in out:
            out["dc"] = number(dcs.pop())
        if saves and len(set(saves)) == 1:
            out["save"] = SAVE_KEYS[saves[0].lower()]
        if "damage" not in out:
            d = DAMAGE_DICE.search(description)
            if d:
                out["damage"] = dice_text(d.group(1) or d.group(2))
    return out


def described(ctx: Reading, name: str) -> Cell | None:
    """The paragraph describing the ability ``name``, or its first word's when that is longer than four letters
    (``breath weapon`` -> ``breath``)."""
    cell = description_of(ctx.block, name)
    if cell is None and " " in name:
        cell = description_of(ctx.block, name.split(" ")[0]) if len(name.split(" ")[0]) > 4 else None
    return cell


def item_of(
    entry: Entry, key: str, engine: str, desc: Cell | None = None, notes: str = "", numbers: dict | None = None
) -> Item:
    """The record of ``entry`` read as ``key``: its text (with its paragraph's when ``desc`` is given) and its SRD
    numbers (``numbers``, else read from the entry and the paragraph)."""
    text = entry.shown if desc is None else f"{entry.shown} -- {desc.text.strip()[:400]}"
    return Item(
        name=entry.shown,
        key=key,
        kind=entry.kind,
        engine=engine,
        text=text,
        notes=notes,
        numbers=numbers if numbers is not None else ability_numbers(desc.text if desc else None, entry.shown),
    )
