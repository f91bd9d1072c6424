"""Special attacks and special qualities of SRD 3.5 stat blocks: what each one is, its SRD numbers, and whether the
fight engine models it.

The engine fights with these stat-block fields (``arena.combat`` reads them): breath weapons (a cone or line of
damage with a save), rend, trip on a hit, damage reduction, regeneration, fast healing, spell resistance, energy
resistance, immunities (a type's traits included) and vulnerabilities, sneak attack, energy damage riding on an
attack (``plus 1d6 fire``), touch attacks and critical ranges; and, once the attacks are read
(:mod:`arena.srd.effects`), the abilities whose numbers are in their description. An ability that becomes one of
those is ``modelled``. Senses, languages, movement and the like do nothing in an arena fight (``no effect``).
Everything else that matters in a fight is ``ignored`` until the engine learns it (:mod:`arena.srd.vocabulary`),
and an ability the vocabulary does not know but the block's text describes (``Name (Ex): ...``) counts as ignored
too. An ability neither known nor described is an unknown special ability (an error of the block).

Each entry of the two cells (``Regeneration 5``, ``Breath weapon``) is read by the first reader of
:data:`~arena.srd.entry_readers.ENTRY_READERS` whose test it passes, else by its name's reader in
:data:`~arena.srd.entry_readers.NAMED_READERS`, else by the vocabulary (here). What one entry becomes is
:mod:`arena.srd.ability_items`'.
"""

from __future__ import annotations

import re

from arena.limits import MAX_IMPORT_ABILITIES
from arena.srd.ability_items import Effects, Entry, Item, UnknownAbility, described, item_of
from arena.srd.context import AttackRead, Reading
from arena.srd.entry_readers import ENTRY_READERS, NAMED_READERS
from arena.srd.patterns import DICE, ENERGY
from arena.srd.prose import described_abilities
from arena.srd.text import dice_text
from arena.srd.vocabulary import (
    IGNORED,
    KNOWN_IGNORED,
    NO_EFFECT,
    entry_name,
    key_in,
    split_items,
)

ENERGY_RIDER = re.compile(rf"extra ({DICE}) points? of {ENERGY} damage")
"""Energy damage that rides on an attack: ``deals an extra 1d6 points of fire damage``."""
ABILITY_RIDER = re.compile(
    rf"^({DICE}|\d+)?\s*(str|dex|con|int|wis|cha|strength|dexterity|constitution|"
    r"intelligence|wisdom|charisma)\w*\s*(drain|damage)?"
)
"""An attack's rider of ability damage or drain: ``1d6 Str``, ``1d4 Wisdom drain``."""
SPELL_LIKE_NAME = re.compile(r"spell-? ?like abilit(y|ies)|psionics")
"""The entries that name a list of spell-like abilities: ``Spell-like abilities``, ``psionics``."""
EX_OR_SU = re.compile(r"\((Ex|Su)\)\s*:")
"""An extraordinary or supernatural ability's paragraph: ``Entangle (Ex):`` (a whip's, not the spell)."""


def read_entry(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    """The items of one entry: its reader's (the fields it fills go into ``fx``), else the vocabulary's."""
    if not entry.name:
        return []
    for reader in ENTRY_READERS:
        items = reader(ctx, entry, fx)
        if items is not None:
            return items
    named = NAMED_READERS.get(entry.name)
    found = named(ctx, entry, fx) if named else None
    return found if found is not None else _from_vocabulary(ctx, entry)


def _from_vocabulary(ctx: Reading, entry: Entry) -> list[Item]:
    name = entry.name
    key = key_in(name, NO_EFFECT)
    if key:
        note = "incubation of a day or more (mummy rot: a minute): nothing within a fight" if key == "disease" else ""
        return [item_of(entry, key, "no effect", notes=note)]
    key = key_in(name, IGNORED) or (name if name in KNOWN_IGNORED else None)
    desc = described(ctx, name)
    if (
        key == "spell-like abilities"
        and desc is not None
        and EX_OR_SU.search(desc.text[:80])
        and not SPELL_LIKE_NAME.fullmatch(name)
    ):
        key = name  # a balor's whip "Entangle (Ex)" is not the spell
    if key:
        return [item_of(entry, key, "ignored", desc)]
    if desc is not None or name in described_abilities(ctx.block):
        return [
            item_of(entry, name, "ignored", desc, "not in the importer's vocabulary: counted as mattering in a fight")
        ]
    raise UnknownAbility(entry.shown)


def read_abilities(ctx: Reading) -> Effects:
    """Every special attack and quality of the block: their engine fields and their :class:`Item` records."""
    effects = Effects()
    block = ctx.block
    entries = {name: split_items(block.get(name)) for name in ("Special Attacks", "Special Qualities")}
    total = sum(map(len, entries.values()))
    if total > MAX_IMPORT_ABILITIES:
        ctx.at(max(entries, key=lambda k: len(entries[k])))
        raise ctx.error(
            f"{total:,} special attacks and qualities: more than a stat block may list (the limit is "
            f"{MAX_IMPORT_ABILITIES})"
        )
    for field_name, kind in (("Special Attacks", "attack"), ("Special Qualities", "quality")):
        ctx.at(field_name)
        for text in entries[field_name]:
            entry = Entry.of(text, kind)
            try:
                items = read_entry(ctx, entry, effects)
            except UnknownAbility as err:
                ctx.note(
                    "unread",
                    f"unknown special ability {err.name!r}: not an SRD ability the importer knows, "
                    f"and the text describes no '{err.name} (Ex/Su/Sp): ...'; counted as ignored",
                    err.name,
                )
                items = [
                    Item(
                        name=err.name[:200],
                        key=entry_name(err.name)[:200] or "unknown",
                        kind=kind,
                        engine="ignored",
                        text=err.name,
                        notes="unknown to the importer",
                    )
                ]
            effects.abilities.extend(item.as_dict() for item in items)
    return effects


def attack_riders(ctx: Reading, routines: list[list[AttackRead]]) -> list[dict]:
    """Special abilities an attack's rider names (``bite (1d6 plus poison)``, ``touch (1d6 Str)``)."""
    out: dict[str, Item] = {}
    for routine in routines:
        for attack in routine:
            for rider in attack.riders:
                name = entry_name(rider)
                if not name:
                    continue
                m = ABILITY_RIDER.match(rider.lower())
                key: str | None
                if m and m.group(2):
                    key = "ability drain" if m.group(3) == "drain" else "ability damage"
                    item = Item(
                        name=rider,
                        key=key,
                        kind="attack",
                        engine="ignored",
                        text=attack.text,
                        numbers={"damage": dice_text(m.group(1))} if m.group(1) and "d" in m.group(1) else {},
                    )
                else:
                    key = key_in(name, IGNORED) or key_in(name, NO_EFFECT) or (name if name in KNOWN_IGNORED else None)
                    if key is None:
                        key = key_in(entry_name(attack.name), IGNORED) or name
                    status = "no effect" if key_in(name, NO_EFFECT) else "ignored"
                    if name == "trip":
                        key, status = "trip", "modelled"
                    item = Item(name=rider, key=key, kind="attack", engine=status, text=attack.text)
                out.setdefault(key, item)
    return [i.as_dict() for i in out.values()]
