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
:data:`ENTRY_READERS` whose test it passes, else by its name's reader in :data:`NAMED_READERS`, else by the
vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.limits import MAX_IMPORT_ABILITIES
from arena.srd.context import AttackRead, Reading, entry_field
from arena.srd.patterns import DICE, ENERGY, ENERGY_WORDS, ROLL, SAVE, SAVE_KEYS
from arena.srd.prose import described_abilities, description_of, rule_above
from arena.srd.text import Cell, clean, dice_text, number
from arena.srd.vocabulary import (
    DR_WORDS,
    ENERGY_ALT,
    IGNORED,
    IMMUNITY_IGNORED,
    IMMUNITY_WORDS,
    KNOWN_IGNORED,
    NO_EFFECT,
    TRAITS,
    entry_name,
    key_in,
    listed,
    split_items,
)

ENTRY_DC = re.compile(r"\bDC\s*(\d+)")
"""A DC: ``Frightful presence (DC 21)``, ``Fortitude DC 13``."""
SAVE_WORD = re.compile(rf"\b{SAVE}\b")
"""A save named in a description: ``a DC 13 Fortitude save``."""
ENTRY_DICE = re.compile(rf"\b({DICE})\b")
"""Dice in an entry: ``Rend 2d6+9``, ``sneak attack +3d6``."""
DAMAGE_DICE = re.compile(rf"\b({DICE}) points? of (?:[a-z]+ )?damage|\bdamage ({DICE})")
"""An ability's damage in its description: ``deals 2d6+9 points of damage``, ``damage 1d6 Str``."""
ENERGY_RIDER = re.compile(rf"extra ({DICE}) points? of {ENERGY} damage")
"""Energy damage that rides on an attack: ``deals an extra 1d6 points of fire damage``."""
DR_NUMBERS = re.compile(r"(?<!\d)\d+\s*/")
"""The amount of damage reduction: ``10/`` of ``damage reduction 10/magic``."""
DAMAGE_REDUCTION = re.compile(r"(?<!\d)(\d+)\s*/\s*([^,;]*)")
"""Damage reduction and what overcomes it: ``10/magic``, ``5/cold iron or good``, ``15/good and silver``."""
DR_OR = re.compile(r"\s+or\s+|,")
"""Between the words that each overcome damage reduction: ``cold iron or good``."""
SPELL_RESISTANCE = re.compile(r"^(spell resistance|sr)\s*(\d+)")
"""``SR 18``, ``spell resistance 25``."""
FAST_HEALING = re.compile(r"^fast healing\s*(\d+)")
"""``fast healing 5``."""
REGENERATION = re.compile(r"^regeneration\s*(\d+)")
"""``regeneration 5``."""
RESISTANCES = re.compile(rf"({ENERGY_ALT})\s*(\d+)")
"""One energy's resistance: ``cold 10`` of ``resistance to cold 10 and fire 10``."""
IMMUNITY_HEAD = re.compile(r"^(immunity to|immune to|immunities)\s*")
"""``immunity to fire, poison, and sleep``."""
BOTH_CLAWS = re.compile(r"hits with (?:both|two) (\w+?)s? attacks")
"""The attack a rend needs twice: ``If a troll hits with both claw attacks``."""
NORMAL_DAMAGE = re.compile(r"deals? normal damage|deal normal damage")
"""Where a regeneration's text says what overcomes it: ``Fire and acid deal normal damage to a troll``."""
REGENERATION_WORDS = tuple(
    (w, re.compile(rf"\b{w}\b"))
    for w in (
        "fire",
        "acid",
        "cold",
        "electricity",
        "sonic",
        "bludgeoning",
        "piercing",
        "slashing",
        "silver",
        "cold iron",
        "good",
        "evil",
        "lawful",
        "chaotic",
        "holy",
        "epic",
        "adamantine",
    )
)
"""What can overcome regeneration, each with its word's pattern (``holy`` is good)."""
BREATH_SHAPE = re.compile(r"(?<!\d)(\d+)[- ](?:foot|feet|ft\.?)[- ](cone|line)", re.IGNORECASE)
"""A breath weapon's shape: ``60-foot cone``, ``120-foot line``."""
BREATH_DAMAGE = re.compile(rf"damage ({DICE})\s*{ENERGY}?")
"""A breath weapon's damage: ``damage 12d10 fire``."""
BREATH_RECHARGE = re.compile(rf"every ({DICE}|\d+) rounds")
"""``once every 1d4 rounds``."""
BREATH_ONCE = re.compile(r"once per (hour|day|minute)|(\d)/day")
"""A breath weapon of one use: ``once per day``, ``1/day``."""
FAMILY_RECHARGE = re.compile(rf"once every ({ROLL}) rounds")
"""A family's rule for its breath weapons: ``A mephit can use its breath weapon once every 1d4 rounds``."""
ABILITY_RIDER = re.compile(
    rf"^({DICE}|\d+)?\s*(str|dex|con|int|wis|cha|strength|dexterity|constitution|"
    r"intelligence|wisdom|charisma)\w*\s*(drain|damage)?"
)
"""An attack's rider of ability damage or drain: ``1d6 Str``, ``1d4 Wisdom drain``."""
SPELL_LIKE_NAME = re.compile(r"spell-? ?like abilit(y|ies)|psionics")
"""The entries that name a list of spell-like abilities: ``Spell-like abilities``, ``psionics``."""
EX_OR_SU = re.compile(r"\((Ex|Su)\)\s*:")
"""An extraordinary or supernatural ability's paragraph: ``Entangle (Ex):`` (a whip's, not the spell)."""


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
    rend: dict | None = None
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


def _item(
    entry: Entry, key: str, engine: str, desc: Cell | None = None, notes: str = "", numbers: dict | None = None
) -> Item:
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


# --------------------------------------------------------------------------------------------- the readers
def _damage_reduction(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    if not (entry.name.startswith(("damage reduction", "dr")) and DR_NUMBERS.search(entry.low)):
        return None
    m = DAMAGE_REDUCTION.search(entry.low)
    if not m:
        ctx.notes.add(
            "unread", entry_field(entry.kind), ctx.cell, f"damage reduction {entry.shown!r} not read", entry.shown
        )
        return [_item(entry, "damage reduction", "ignored", notes="not read")]
    amount, rest = number(m.group(1)), m.group(2).strip().strip(".").lower()
    both = " and " in rest
    words = (
        []
        if rest in ("-", "--", "—", "–", "")
        else [w.strip() for w in rest.split(" and ")]
        if both
        else [w.strip() for w in DR_OR.split(rest) if w.strip()]
    )
    unknown = [w for w in words if w not in DR_WORDS]
    if unknown:
        ctx.notes.add(
            "guess",
            entry_field(entry.kind),
            ctx.cell,
            f"damage reduction {entry.shown!r}: {', '.join(unknown)} not a material the model knows: left out",
            entry.shown,
        )
        words = [w for w in words if w in DR_WORDS]
    if both:
        fx.damage_reduction = {"amount": amount, "overcome_by": words, "all_needed": True}
        return [
            _item(
                entry,
                "damage reduction (a and b)",
                "modelled",
                notes=f"damage_reduction: only a weapon that is {' and '.join(words)} bypasses it (all_needed)",
                numbers={"amount": amount},
            )
        ]
    fx.damage_reduction = {"amount": amount, "overcome_by": words}
    return [_item(entry, "damage reduction", "modelled", notes="damage_reduction", numbers={"amount": amount})]


def _spell_resistance(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    m = SPELL_RESISTANCE.match(entry.low)
    if m is None:
        return None
    fx.spell_resistance = number(m.group(2))
    return [
        _item(entry, "spell resistance", "modelled", notes="spell_resistance", numbers={"amount": fx.spell_resistance})
    ]


def _fast_healing(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    m = FAST_HEALING.match(entry.low)
    if m is None:
        return None
    fx.fast_healing = number(m.group(1))
    return [_item(entry, "fast healing", "modelled", notes="fast_healing", numbers={"amount": fx.fast_healing})]


def _regeneration(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    """``Regeneration 5`` and what its paragraph says deals normal damage (``Fire and acid deal normal damage to a
    troll``); fire and acid when it says nothing."""
    m = REGENERATION.match(entry.low)
    if m is None:
        return None
    amount = number(m.group(1))
    desc = described(ctx, "regeneration")
    text = desc.text.lower() if desc is not None else ""
    head = NORMAL_DAMAGE.split(text)[0].replace("silvered", "silver")
    overcome = list(dict.fromkeys("good" if w == "holy" else w for w, word in REGENERATION_WORDS if word.search(head)))
    if "no form of attack" in text:
        overcome = []
    if not overcome:
        if "no form of attack" in text:
            guess = ["epic"]
            message = (
                f"regeneration {amount}: no form of attack deals normal damage; the model needs one: epic "
                "(nothing a party below epic levels has)"
            )
        else:
            guess = ["fire", "acid"]
            message = f"regeneration {amount}: what deals normal damage not read: fire and acid"
        ctx.notes.add("guess", "Special Qualities", ctx.cell, message, entry.shown)
        overcome = guess
    fx.regeneration = {"amount": amount, "overcome_by": overcome}
    return [_item(entry, "regeneration", "modelled", desc, "regeneration", {"amount": amount})]


def _resistance(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    if not (entry.low.startswith(("resistance to", "resist ")) and any(c.isdecimal() for c in entry.low)):
        return None
    found = RESISTANCES.findall(entry.low)
    for word, amount in found:
        energy = ENERGY_WORDS[word]
        if energy in ("fire", "cold", "acid", "electricity", "sonic"):
            fx.energy_resistance[energy] = max(fx.energy_resistance.get(energy, 0), number(amount))
    if not found:
        ctx.notes.add("unread", entry_field(entry.kind), ctx.cell, f"resistance {entry.shown!r} not read", entry.shown)
    return [_item(entry, "energy resistance", "modelled" if found else "ignored", notes="energy_resistance")]


def _immunities(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    if not entry.low.startswith(("immunity to", "immune to", "immunities")):
        return None
    items: list[Item] = []
    modelled, no_effect = [], []
    for word in listed(IMMUNITY_HEAD.sub("", entry.low).strip(". ")):
        word = word.strip()
        if word in IMMUNITY_WORDS:
            fx.immunities.append(IMMUNITY_WORDS[word])
            modelled.append(word)
        elif word in IMMUNITY_IGNORED:
            items.append(_item(entry, IMMUNITY_IGNORED[word], "ignored", notes=""))
        else:
            no_effect.append(word)
    if modelled:
        items.append(_item(entry, "immunity", "modelled", notes=f"immunities: {', '.join(modelled)}"))
    if no_effect:
        items.append(
            _item(entry, "immunity (no effect)", "no effect", notes=f"nothing in a fight does {', '.join(no_effect)}")
        )
    return items


def _vulnerabilities(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    if not entry.low.startswith(("vulnerability to", "vulnerable to")):
        return None
    items = []
    for word in listed(entry.low.split(" to ", 1)[1].strip(". ")):
        energy = ENERGY_WORDS.get(word)
        if energy:
            fx.vulnerabilities.append(energy)
            items.append(_item(entry, "vulnerability", "modelled", notes="vulnerabilities"))
        else:
            items.append(_item(entry, "sunlight vulnerability" if "sun" in word else "vulnerability", "no effect"))
    return items


def _traits(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    return [_item(entry, "type traits", "modelled", notes=f"the {TRAITS[entry.name]} type's immunities")]


def _rend(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    """``Rend 2d6+9``, on the attack its paragraph names twice (``hits with both claw attacks``)."""
    desc = described(ctx, "rend")
    dmg = ENTRY_DICE.search(entry.low)
    if not dmg:
        ctx.notes.add(
            "unread", entry_field(entry.kind), ctx.cell, "rend without damage dice: not modelled", entry.shown
        )
        return [_item(entry, "rend", "ignored", desc, "no damage dice")]
    both = BOTH_CLAWS.search(desc.text) if desc else None
    fx.rend = {"damage": dice_text(dmg.group(1)), "attack": both.group(1).lower() if both else "claw"}
    return [_item(entry, "rend", "modelled", desc, "rend")]


def _trip(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    fx.trip = True
    return [_item(entry, "trip", "modelled", described(ctx, "trip"), "trip on the bite")]


def _sneak_attack(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    dmg = ENTRY_DICE.search(entry.low)
    if not dmg:
        return None  # the vocabulary's
    fx.sneak_attack = dmg.group(1)
    return [_item(entry, "sneak attack", "modelled", notes="sneak_attack on every attack")]


def _natural_cunning(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    """A minotaur's: immune to maze, never caught flat-footed."""
    fx.immunities.append("maze")
    return [
        _item(
            entry,
            "natural cunning",
            "modelled",
            described(ctx, "natural cunning"),
            "immunities: maze; never flat-footed: its flat-footed AC is its AC",
        )
    ]


def _augmented_critical(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    return [
        _item(
            entry,
            "augmented critical",
            "modelled",
            described(ctx, "augmented critical"),
            "the threat range and multiplier are in the attack",
        )
    ]


def _breath(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    """A breath weapon of damage in a cone or line: ``Breath Weapon (Su): 60-foot cone, once every 1d4 rounds,
    damage 12d10 fire, Reflex DC 29 half``. Without a recharge of its own, the family's rule above it
    (``A mephit can use its breath weapon once every 1d4 rounds``), else 1d4 rounds."""
    desc = described(ctx, "breath weapon")
    if desc is None:
        return [_item(entry, "breath weapon", "ignored", notes="no description of it in the text")]
    text = desc.text
    numbers = ability_numbers(text, "")
    shape = BREATH_SHAPE.search(text)
    dmg = BREATH_DAMAGE.search(text)
    if not shape or not dmg or "dc" not in numbers:
        return [
            _item(
                entry,
                "breath weapon (non-damage)" if not dmg else "breath weapon",
                "ignored",
                desc,
                "not a cone or line of hit-point damage the engine's breath weapon covers",
                numbers,
            )
        ]
    damage, damage_type = dice_text(dmg.group(1)), dmg.group(2)
    if damage_type is None:
        damage_type = "bludgeoning"
        ctx.notes.add(
            "guess", "Special Attacks", ctx.cell, "breath weapon: untyped damage read as bludgeoning", text[:200]
        )
    fx.breath_weapon = {
        "shape": shape.group(2).lower(),
        "length_ft": number(shape.group(1)),
        "damage": damage,
        "damage_type": damage_type,
        "save": numbers.get("save", "ref"),
        "dc": numbers["dc"],
        "recharge": _breath_recharge(ctx, text),
        "half_on_save": "half" in text.lower(),
    }
    numbers["damage"] = damage
    return [_item(entry, "breath weapon", "modelled", desc, "breath_weapon", numbers)]


def _breath_recharge(ctx: Reading, text: str) -> str:
    recharge, once = BREATH_RECHARGE.search(text), BREATH_ONCE.search(text)
    if recharge:
        return dice_text(recharge.group(1))
    if once:
        ctx.notes.add(
            "changed",
            "Special Attacks",
            ctx.cell,
            "breath weapon usable once per fight: recharge 100 rounds",
            text[:200],
        )
        return "100"
    general = next(
        (c.text for c in ctx.block.description if "breath weapon once every" in c.text.lower()), None
    ) or rule_above(ctx.block, rf"breath weapon once every {ROLL} rounds")
    gm = FAMILY_RECHARGE.search(general) if general else None
    if not gm:
        ctx.notes.add("guess", "Special Attacks", ctx.cell, "breath weapon: no recharge given: 1d4 rounds", text[:200])
    return gm.group(1) if gm else "1d4"


EntryReader = Callable[[Reading, Entry, Effects], "list[Item] | None"]
"""An entry's reader: its items, or None when the entry is not its own (the next reader's, or the vocabulary's)."""

ENTRY_READERS: tuple[EntryReader, ...] = (
    _damage_reduction,
    _spell_resistance,
    _fast_healing,
    _regeneration,
    _resistance,
    _immunities,
    _vulnerabilities,
)
"""The entries read by what they start with (``DR 10/magic``, ``SR 18``, ``immunity to fire``), in order: the first
reader that takes the entry reads it."""
NAMED_READERS: dict[str, EntryReader] = {
    **dict.fromkeys(TRAITS, _traits),
    "rend": _rend,
    "trip": _trip,
    "sneak attack": _sneak_attack,
    "natural cunning": _natural_cunning,
    "augmented critical": _augmented_critical,
    "breath weapon": _breath,
}
"""The entries read by their name (:attr:`Entry.name`)."""


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
        return [_item(entry, key, "no effect", notes=note)]
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
        return [_item(entry, key, "ignored", desc)]
    if desc is not None or name in described_abilities(ctx.block):
        return [
            _item(entry, name, "ignored", desc, "not in the importer's vocabulary: counted as mattering in a fight")
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
