"""The readers of the special abilities that fill a stat block's engine fields: damage reduction, spell resistance,
fast healing, regeneration, energy resistance, immunities and vulnerabilities (read by what an entry starts with,
:data:`ENTRY_READERS`), and a type's traits, trip, sneak attack, natural cunning, augmented critical and
the breath weapon (read by the entry's name, :data:`NAMED_READERS`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from arena.srd.ability_items import ENTRY_DICE, Effects, Entry, Item, ability_numbers, described, item_of
from arena.srd.context import Reading, entry_field
from arena.srd.patterns import DICE, ENERGY, ENERGY_WORDS, ROLL
from arena.srd.prose import rule_above
from arena.srd.text import dice_text, number
from arena.srd.vocabulary import DR_WORDS, ENERGY_ALT, IMMUNITY_IGNORED, IMMUNITY_WORDS, TRAITS, listed

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


# --------------------------------------------------------------------------------------------- the readers
def _damage_reduction(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    if not (entry.name.startswith(("damage reduction", "dr")) and DR_NUMBERS.search(entry.low)):
        return None
    m = DAMAGE_REDUCTION.search(entry.low)
    if not m:
        ctx.notes.add(
            "unread", entry_field(entry.kind), ctx.cell, f"damage reduction {entry.shown!r} not read", entry.shown
        )
        return [item_of(entry, "damage reduction", "ignored", notes="not read")]
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
            item_of(
                entry,
                "damage reduction (a and b)",
                "modelled",
                notes=f"damage_reduction: only a weapon that is {' and '.join(words)} bypasses it (all_needed)",
                numbers={"amount": amount},
            )
        ]
    fx.damage_reduction = {"amount": amount, "overcome_by": words}
    return [item_of(entry, "damage reduction", "modelled", notes="damage_reduction", numbers={"amount": amount})]


def _spell_resistance(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    m = SPELL_RESISTANCE.match(entry.low)
    if m is None:
        return None
    fx.spell_resistance = number(m.group(2))
    return [
        item_of(
            entry, "spell resistance", "modelled", notes="spell_resistance", numbers={"amount": fx.spell_resistance}
        )
    ]


def _fast_healing(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    m = FAST_HEALING.match(entry.low)
    if m is None:
        return None
    fx.fast_healing = number(m.group(1))
    return [item_of(entry, "fast healing", "modelled", notes="fast_healing", numbers={"amount": fx.fast_healing})]


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
    return [item_of(entry, "regeneration", "modelled", desc, "regeneration", {"amount": amount})]


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
    return [item_of(entry, "energy resistance", "modelled" if found else "ignored", notes="energy_resistance")]


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
            items.append(item_of(entry, IMMUNITY_IGNORED[word], "ignored", notes=""))
        else:
            no_effect.append(word)
    if modelled:
        items.append(item_of(entry, "immunity", "modelled", notes=f"immunities: {', '.join(modelled)}"))
    if no_effect:
        items.append(
            item_of(entry, "immunity (no effect)", "no effect", notes=f"nothing in a fight does {', '.join(no_effect)}")
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
            items.append(item_of(entry, "vulnerability", "modelled", notes="vulnerabilities"))
        else:
            items.append(item_of(entry, "sunlight vulnerability" if "sun" in word else "vulnerability", "no effect"))
    return items


def _traits(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    return [item_of(entry, "type traits", "modelled", notes=f"the {TRAITS[entry.name]} type's immunities")]


def _trip(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    fx.trip = True
    return [item_of(entry, "trip", "modelled", described(ctx, "trip"), "trip on the bite")]


def _sneak_attack(ctx: Reading, entry: Entry, fx: Effects) -> list[Item] | None:
    dmg = ENTRY_DICE.search(entry.low)
    if not dmg:
        return None  # the vocabulary's
    fx.sneak_attack = dmg.group(1)
    return [item_of(entry, "sneak attack", "modelled", notes="sneak_attack on every attack")]


def _natural_cunning(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    """A minotaur's: immune to maze, never caught flat-footed."""
    fx.immunities.append("maze")
    return [
        item_of(
            entry,
            "natural cunning",
            "modelled",
            described(ctx, "natural cunning"),
            "immunities: maze; never flat-footed: its flat-footed AC is its AC",
        )
    ]


def _augmented_critical(ctx: Reading, entry: Entry, fx: Effects) -> list[Item]:
    return [
        item_of(
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
        return [item_of(entry, "breath weapon", "ignored", notes="no description of it in the text")]
    text = desc.text
    numbers = ability_numbers(text, "")
    shape = BREATH_SHAPE.search(text)
    dmg = BREATH_DAMAGE.search(text)
    if not shape or not dmg or "dc" not in numbers:
        return [
            item_of(
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
    return [item_of(entry, "breath weapon", "modelled", desc, "breath_weapon", numbers)]


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
    "trip": _trip,
    "sneak attack": _sneak_attack,
    "natural cunning": _natural_cunning,
    "augmented critical": _augmented_critical,
    "breath weapon": _breath,
}
"""The entries read by their name (:attr:`~arena.srd.ability_items.Entry.name`)."""
