"""The generated party's equipment and wealth: the armour, weapons and worn magic items of each class by level (one
item per body slot), priced by the SRD 3.5 formulas and held against the wealth-by-level table, and the former gear
plan kept for measuring the fixes (``legacy``). Every assumption is listed in :mod:`arena.world.party`'s docstring."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from arena.errors import ArenaError
from arena.world.class_tables import check_level

WEALTH_BY_LEVEL: dict[int, int] = {
    # D&D 3.5 DMG Table 5-1 "Character Wealth by Level" (the figures; the table is not in the SRD). Level 1:
    # starting gear, not counted.
    1: 0,
    2: 900,
    3: 2700,
    4: 5400,
    5: 9000,
    6: 13000,
    7: 19000,
    8: 27000,
    9: 36000,
    10: 49000,
    11: 66000,
    12: 88000,
    13: 110000,
    14: 150000,
    15: 200000,
    16: 260000,
    17: 340000,
    18: 440000,
    19: 580000,
    20: 760000,
}

GEAR_SCHEDULE: dict[str, dict[int, int]] = {
    # slot -> {level from which it applies: bonus}. "weapon" 0 = masterwork (+1 to hit only). Planned against the
    # 3.5 wealth table with the combined neck item priced as such; what moved against the former (Pathfinder
    # wealth) plan is in docs/party.md.
    "weapon": {2: 0, 3: 1, 8: 2, 11: 3, 14: 4, 17: 5},
    "armor": {5: 1, 7: 2, 10: 3, 13: 4, 16: 5},
    "bracers": {3: 1, 6: 2, 9: 3, 12: 4, 15: 5},  # wizard's bracers of armor instead of armor
    "shield": {7: 1, 10: 2, 13: 3, 15: 4, 18: 5},
    "deflection": {5: 1, 9: 2, 13: 3, 16: 4, 19: 5},  # ring of protection
    "natural": {8: 1, 11: 2, 14: 3, 17: 4, 20: 5},  # amulet of natural armor
    "resistance": {4: 1, 9: 2, 12: 3, 14: 4, 17: 5},  # cloak of resistance
    "key_ability": {6: 2, 12: 4, 15: 6},  # belt, gloves, headband or periapt (KEY_ABILITY_ITEM)
    "con": {10: 2, 15: 4, 18: 6},  # amulet of health
}
LEGACY_WEALTH_BY_LEVEL: dict[int, int] = {
    # legacy="party-gear": the PRD (Pathfinder CRB) Table 12-4 "Character Wealth by Level" planned against before.
    1: 0,
    2: 1000,
    3: 3000,
    4: 6000,
    5: 10500,
    6: 16000,
    7: 23500,
    8: 33000,
    9: 46000,
    10: 62000,
    11: 82000,
    12: 108000,
    13: 140000,
    14: 185000,
    15: 240000,
    16: 315000,
    17: 410000,
    18: 530000,
    19: 685000,
    20: 880000,
}
LEGACY_GEAR_SCHEDULE: dict[str, dict[int, int]] = {
    # legacy="party-gear": the former plan (against LEGACY_WEALTH_BY_LEVEL, every neck power its own amulet).
    "weapon": {2: 0, 3: 1, 8: 2, 11: 3, 14: 4, 17: 5},
    "armor": {5: 1, 7: 2, 10: 3, 13: 4, 16: 5},
    "bracers": {3: 1, 6: 2, 9: 3, 12: 4, 15: 5},
    "shield": {5: 1, 9: 2, 12: 3, 15: 4, 18: 5},
    "deflection": {5: 1, 9: 2, 13: 3, 16: 4, 19: 5},
    "natural": {7: 1, 10: 2, 14: 3, 17: 4, 20: 5},
    "resistance": {4: 1, 8: 2, 11: 3, 14: 4, 17: 5},
    "key_ability": {6: 2, 11: 4, 15: 6},
    "con": {9: 2, 14: 4, 18: 6},
}
LEGACY_CHOICES = ("party-gear", "crossbow-reload", "dodge-printed-ac", "class-features", "high-level-spells")
"""``build_character(legacy=...)``: former behaviours to switch back on, for measuring the fixes
(:data:`arena.combat.model.FIXES`): ``party-gear`` the gear plan against the Pathfinder wealth with every neck power
its own amulet; ``crossbow-reload`` iterative attacks with the light crossbow; ``dodge-printed-ac`` Dodge counted in the
printed AC; ``class-features`` the rogue without evasion, uncanny dodge and the rest, and the former feats by level
(:data:`arena.world.class_tables.LEGACY_FEATS`); ``high-level-spells`` the spell rotations stopping at 5th level
(6th-9th slots holding cone of cold and flame strike)."""

SLOT_PRICE_PER_BONUS_SQUARED = {
    # SRD 3.5 magic item creation pricing (bonus squared x price); confidence medium-high (recalled SRD formulas).
    "weapon": 2000,
    "armor": 1000,
    "bracers": 1000,
    "shield": 1000,
    "deflection": 2000,
    "natural": 2000,
    "resistance": 1000,
    "key_ability": 1000,
    "con": 1000,
}
MASTERWORK_WEAPON_GP = 300
MASTERWORK_ARMOR_GP = 150
EXTRA_POWER_FACTOR = 1.5
"""SRD 3.5 "Adding New Abilities": in an item that occupies a body slot, each ability beyond the first costs 50%
more; the priciest power is the one paid at full price."""

SCHEDULE_ITEM = {
    # GEAR_SCHEDULE key -> the worn item that gives it ("armor" is the suit's enhancement, weapons and shields are
    # held, not worn; "key_ability" is per class, KEY_ABILITY_ITEM).
    "bracers": "bracers of armor",
    "deflection": "ring of protection",
    "natural": "amulet of natural armor",
    "resistance": "cloak of resistance",
    "con": "amulet of health",
}
KEY_ABILITY_ITEM = {
    "fighter": "belt of giant strength",
    "cleric": "periapt of Wisdom",
    "rogue": "gloves of Dexterity",
    "wizard": "headband of intellect",
}


@dataclass(frozen=True)
class ArmorPiece:
    name: str
    bonus: int
    max_dex: int | None
    price: int
    speed: int = 30
    masterwork_included: bool = False


# SRD 3.5 Table: Armor and Shields (base bonus, maximum Dex bonus, price in gp; speed for medium wearers).
CHAINMAIL = ArmorPiece("chainmail", 5, 2, 150, speed=20)
FULL_PLATE = ArmorPiece("full plate", 8, 1, 1500, speed=20)
STUDDED_LEATHER = ArmorPiece("studded leather", 3, 5, 25)
CHAIN_SHIRT = ArmorPiece("chain shirt", 4, 4, 100)
MITHRAL_CHAIN_SHIRT = ArmorPiece("mithral chain shirt", 4, 6, 1100, masterwork_included=True)
HEAVY_STEEL_SHIELD = ArmorPiece("heavy steel shield", 2, None, 20)

ARMOR_BY_LEVEL: dict[str, dict[int, ArmorPiece]] = {
    "fighter": {1: CHAINMAIL, 4: FULL_PLATE},
    "cleric": {1: CHAINMAIL, 4: FULL_PLATE},
    "rogue": {1: STUDDED_LEATHER, 2: CHAIN_SHIRT, 5: MITHRAL_CHAIN_SHIRT},
    "wizard": {},
}

BODY_SLOTS: dict[str, tuple[str, ...]] = {
    # SRD 3.5 magic item body slots -> the generated PCs' items that go there. A slot holds one item; several
    # powers in one slot are one combined item (EXTRA_POWER_FACTOR). The body has two ring slots; one is used.
    "body": tuple(dict.fromkeys(p.name for table in ARMOR_BY_LEVEL.values() for p in table.values())),
    "head": ("headband of intellect",),
    "neck": ("amulet of natural armor", "amulet of health", "periapt of Wisdom"),
    "shoulders": ("cloak of resistance",),
    "wrists": ("bracers of armor",),
    "hands": ("gloves of Dexterity",),
    "waist": ("belt of giant strength",),
    "ring": ("ring of protection",),
}
ITEM_SLOT = {item: slot for slot, items in BODY_SLOTS.items() for item in items}


@dataclass(frozen=True)
class Power:
    """One magic power of a worn item: the item that alone would give it, its bonus, and its price alone."""

    item: str
    bonus: int
    price: int

    def __str__(self) -> str:
        return f"{self.item} +{self.bonus}" if self.bonus else self.item


@dataclass(frozen=True)
class WornItem:
    """What a generated PC wears in one body slot: one item, with one power or several combined."""

    slot: str
    powers: tuple[Power, ...]
    """The priciest first."""

    @property
    def price(self) -> int:
        """The first (priciest) power at full price, every other one x :data:`EXTRA_POWER_FACTOR`."""
        first, *rest = self.powers
        return first.price + math.ceil(EXTRA_POWER_FACTOR * sum(p.price for p in rest))

    def __str__(self) -> str:
        if len(self.powers) == 1:
            return f"{self.slot}: {self.powers[0]}"
        return f"{self.slot}: one item ({', '.join(str(p) for p in self.powers)})"


@dataclass(frozen=True)
class Weapon:
    name: str
    damage_die: str
    damage_types: tuple[str, ...]
    threat: int
    multiplier: int
    kind: str = "melee"
    price: int = 0


# SRD 3.5 Table: Weapons.
LONGSWORD = Weapon("longsword", "1d8", ("slashing",), 19, 2, price=15)
MORNINGSTAR = Weapon("morningstar", "1d8", ("bludgeoning", "piercing"), 20, 2, price=8)
RAPIER = Weapon("rapier", "1d6", ("piercing",), 18, 2, price=20)
QUARTERSTAFF = Weapon("quarterstaff", "1d6", ("bludgeoning",), 20, 2, price=0)
LIGHT_CROSSBOW = Weapon("light crossbow", "1d8", ("piercing",), 19, 2, kind="ranged", price=35)

MAIN_WEAPON = {"fighter": LONGSWORD, "cleric": MORNINGSTAR, "rogue": RAPIER, "wizard": LIGHT_CROSSBOW}
SHIELD_USERS = ("fighter", "cleric")


def scheduled(slot: str, level: int, schedule: dict[str, dict[int, int]] | None = None) -> int | None:
    """The bonus of ``slot`` at ``level`` from :data:`GEAR_SCHEDULE` (or ``schedule``), or None before the slot is
    bought."""
    got = None
    for start, bonus in sorted((GEAR_SCHEDULE if schedule is None else schedule)[slot].items()):
        if level >= start:
            got = bonus
    return got


def piece_at(table: dict[int, ArmorPiece], level: int) -> ArmorPiece | None:
    """The armour of a class's table (:data:`ARMOR_BY_LEVEL`) worn at ``level``, or None (a wizard's)."""
    got = None
    for start, piece in sorted(table.items()):
        if level >= start:
            got = piece
    return got


def legacy_choices(legacy: Iterable[str]) -> frozenset[str]:
    """``legacy`` as a set, each one of :data:`LEGACY_CHOICES` (one name alone is a set of one)."""
    if isinstance(legacy, str):
        legacy = (legacy,)
    got = frozenset(legacy)
    unknown = sorted(got - set(LEGACY_CHOICES))
    if unknown:
        raise ArenaError(f"legacy: unknown {unknown[0]!r} (known: {', '.join(LEGACY_CHOICES)})")
    return got


def gear_schedule(legacy: frozenset[str]) -> dict[str, dict[int, int]]:
    """The gear plan: :data:`GEAR_SCHEDULE`, or the former one under ``legacy={"party-gear"}``."""
    return LEGACY_GEAR_SCHEDULE if "party-gear" in legacy else GEAR_SCHEDULE


def wealth_by_level(level: int, legacy: Iterable[str] = frozenset()) -> int:
    """:data:`WEALTH_BY_LEVEL` (or, under ``legacy={"party-gear"}``, the Pathfinder table planned against before)."""
    return (LEGACY_WEALTH_BY_LEVEL if "party-gear" in legacy_choices(legacy) else WEALTH_BY_LEVEL)[check_level(level)]


def worn_items(cls: str, level: int, legacy: Iterable[str] = frozenset()) -> tuple[WornItem, ...]:
    """What a generated PC wears at ``level``, one item per occupied body slot (:data:`BODY_SLOTS`), in the order
    of that table; powers that share a slot are one combined item. (Under ``legacy={"party-gear"}`` every power is
    its own item, as before, so the neck holds two or three.)"""
    legacy = legacy_choices(legacy)
    schedule = gear_schedule(legacy)
    powers: dict[str, list[Power]] = {}
    armor = piece_at(ARMOR_BY_LEVEL[cls], level)
    if armor is not None:
        a_enh = scheduled("armor", level, schedule) or 0
        price = armor.price
        if a_enh:
            price += 0 if armor.masterwork_included else MASTERWORK_ARMOR_GP
            price += SLOT_PRICE_PER_BONUS_SQUARED["armor"] * a_enh**2
        powers.setdefault(ITEM_SLOT[armor.name], []).append(Power(armor.name, a_enh, price))
    keys = ["bracers"] if cls == "wizard" else []
    keys += ["deflection", "natural", "resistance", "key_ability", "con"]
    for key in keys:
        bonus = scheduled(key, level, schedule) or 0
        if bonus:
            item = KEY_ABILITY_ITEM[cls] if key == "key_ability" else SCHEDULE_ITEM[key]
            price = SLOT_PRICE_PER_BONUS_SQUARED[key] * bonus**2
            powers.setdefault(ITEM_SLOT[item], []).append(Power(item, bonus, price))
    if "party-gear" in legacy:
        return tuple(WornItem(slot, (power,)) for slot in BODY_SLOTS for power in powers.get(slot, ()))
    return tuple(
        WornItem(slot, tuple(sorted(powers[slot], key=lambda p: -p.price))) for slot in BODY_SLOTS if slot in powers
    )


def gear_cost(cls: str, level: int, legacy: Iterable[str] = frozenset()) -> int:
    """Gold-piece value of a generated character's modelled gear at ``level``: the held weapons and shield plus
    :func:`worn_items` (combined items priced as such)."""
    legacy = legacy_choices(legacy)
    schedule = gear_schedule(legacy)
    total = 0
    weapon = MAIN_WEAPON[cls]
    total += weapon.price + (LIGHT_CROSSBOW.price if cls != "wizard" else 0)
    enh = scheduled("weapon", level, schedule) if cls != "wizard" else None
    if enh is not None:
        total += MASTERWORK_WEAPON_GP + SLOT_PRICE_PER_BONUS_SQUARED["weapon"] * enh**2
    if cls in SHIELD_USERS:
        total += HEAVY_STEEL_SHIELD.price
        s_enh = scheduled("shield", level, schedule)
        if s_enh:
            total += MASTERWORK_ARMOR_GP + SLOT_PRICE_PER_BONUS_SQUARED["shield"] * s_enh**2
    return total + sum(item.price for item in worn_items(cls, level, legacy))
