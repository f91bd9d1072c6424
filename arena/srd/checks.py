"""An SRD stat block checked against itself: hit points against the hit dice, AC against its listed components,
natural attack bonuses against BAB + ability + size, grapple against BAB + Str + size, saves against the type's
progression.

Where the block disagrees with itself it keeps the SRD's stated number and the disagreement becomes a
``discrepancy`` note (the errata list of ``docs/bestiary.md`` is made of them). The checks leave out what a block
does not state: class levels (their saves and BAB), templates (augmented types), racial bonuses and
masterwork weapons; only natural attacks are checked (a weapon's bonus has too many unstated parts).
"""

from __future__ import annotations

import math

from arena.srd.fields import (
    GRAPPLE_SIZE_MODIFIER,
    NATURAL_DAMAGE_TYPES,
    SIZE_MODIFIER,
    ArmorRead,
    AttackRead,
    HitDiceRead,
    Notes,
    SavesRead,
    _singular,
)
from arena.srd.text import Cell

GOOD_SAVES: dict[str, tuple[str, ...]] = {
    "aberration": ("will",), "animal": ("fort", "ref"), "construct": (), "dragon": ("fort", "ref", "will"),
    "fey": ("ref", "will"), "giant": ("fort",), "magical beast": ("fort", "ref"),
    "monstrous humanoid": ("ref", "will"), "ooze": (), "outsider": ("fort", "ref", "will"), "plant": ("fort",),
    "undead": ("will",), "vermin": ("fort",),
}
"""Good saving throws by creature type (SRD 3.5 Types; elementals by subtype, humanoids by class: not here)."""
ELEMENTAL_GOOD = {"air": ("ref",), "fire": ("ref",), "earth": ("fort",), "water": ("fort",)}
SAVE_FEATS = {"fort": "Great Fortitude", "ref": "Lightning Reflexes", "will": "Iron Will"}
SAVE_ABILITY = {"fort": "con", "ref": "dex", "will": "wis"}


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def mod(score: int | None) -> int:
    return 0 if score is None else (score - 10) // 2


def check_hp(hd: HitDiceRead, cell: Cell, notes: Notes) -> None:
    mean = sum(count * (die + 1) / 2 for count, die in hd.terms) + hd.constant
    expected = max(1, math.floor(mean))
    if expected != hd.hp:
        notes.add("discrepancy", "Hit Dice", cell, f"{hd.hp} hp, but the average of the hit dice is {expected}: "
                                                   f"kept {hd.hp}")


def check_armor(armor: ArmorRead, cell: Cell, notes: Notes) -> None:
    if not armor.components:
        return
    total = 10 + armor.total()
    if total != armor.ac:
        notes.add("discrepancy", "Armor Class", cell, f"AC {armor.ac}, but 10 + its components is {total}: kept "
                                                      f"{armor.ac}")
    touch = 10 + sum(b for b, k in armor.components if k not in ("armor", "shield", "natural"))
    if touch != armor.touch and total == armor.ac:
        notes.add("discrepancy", "Armor Class", cell, f"touch AC {armor.touch}, but 10 + its components other than "
                                                      f"armor, shield and natural armor is {touch}: kept "
                                                      f"{armor.touch}")
    dex = sum(b for b, k in armor.components if k == "dex")
    dodge = sum(b for b, k in armor.components if k == "dodge")
    flat = armor.ac - max(0, dex) - dodge
    if flat != armor.flat and total == armor.ac:
        notes.add("discrepancy", "Armor Class", cell, f"flat-footed AC {armor.flat}, but AC less its Dex and dodge "
                                                      f"bonuses is {flat}: kept {armor.flat}")


def check_grapple(bab: int, grapple: int, size: str, str_score: int | None, cell: Cell, notes: Notes,
                  feats: tuple[str, ...], bonus: int = 0) -> None:
    """``bonus``: what the block's text adds (a profane bonus of a desecrating aura)."""
    expected = bab + mod(str_score) + GRAPPLE_SIZE_MODIFIER[size] + bonus
    if grapple != expected and str_score is not None:
        notes.add("discrepancy", "Base Attack/Grapple", cell, f"grapple {grapple:+d}, but BAB {bab:+d} + Str "
                                                              f"{mod(str_score):+d} + size "
                                                              f"{GRAPPLE_SIZE_MODIFIER[size]:+d} is {expected:+d}: "
                                                              f"kept {grapple:+d}")


def check_attacks(routines: list[list[AttackRead]], bab: int, size: str, abilities: dict, feats: tuple[str, ...],
                  cell: Cell, field_name: str, notes: Notes, bonus: int = 0) -> None:
    finesse = "Weapon Finesse" in feats
    multi = "Multiattack" in feats
    strength, dex = mod(abilities.get("str")), mod(abilities.get("dex"))
    for routine in routines:
        naturals = [a for a in routine if _natural(a.name)]
        for attack in naturals:
            if attack.kind != "melee" or attack.touch or attack.damage is None:     # a swarm rolls no attack
                continue
            ability = max(strength, dex) if finesse else strength
            focus = 1 if any(f.lower().startswith("weapon focus") and _singular(attack.name) in f.lower()
                             for f in feats) else 0
            base = bab + ability + SIZE_MODIFIER[size] + focus + attack.enhancement + bonus
            allowed = {base, base - 5} | ({base - 2} if multi else set())    # primary, or secondary
            if attack.bonuses[0] not in allowed:
                shown = ", ".join(f"{b:+d}" for b in sorted(allowed, reverse=True))
                notes.add("discrepancy", field_name, cell,
                          f"{attack.name} {attack.bonuses[0]:+d}, but BAB {bab:+d} + "
                          f"{'Dex' if finesse and dex > strength else 'Str'} {ability:+d} + size "
                          f"{SIZE_MODIFIER[size]:+d}{' + Weapon Focus' if focus else ''} gives {shown}: kept "
                          f"{attack.bonuses[0]:+d}", attack.text)


def _natural(name: str) -> bool:
    return name in NATURAL_DAMAGE_TYPES or _singular(name) in NATURAL_DAMAGE_TYPES


def check_saves(saves: SavesRead, type_: str, subtypes: tuple[str, ...], hd: float, abilities: dict,
                feats: tuple[str, ...], class_levels: dict, cell: Cell, notes: Notes, bonus: int = 0) -> None:
    """``bonus``: what the block's text adds to every save (unearthly grace's Cha, a desecrating aura's +2)."""
    if class_levels or type_ == "humanoid" or any(s.startswith("augmented") for s in subtypes):
        return
    if type_ == "elemental":
        good = next((ELEMENTAL_GOOD[s] for s in subtypes if s in ELEMENTAL_GOOD), None)
        if good is None:
            return
    else:
        good = GOOD_SAVES.get(type_)
        if good is None:
            return
    dice = math.floor(hd) if hd >= 1 else 0
    for kind in ("fort", "ref", "will"):
        ability = abilities.get(SAVE_ABILITY[kind])
        if kind == "fort" and ability is None:
            ability = 10
        bonus_here = mod(ability) + (2 if SAVE_FEATS[kind] in feats else 0) + bonus
        options = {(2 + dice // 2 if kind in good else dice // 3) + bonus_here}
        if type_ == "animal" and kind == "will":
            options.add(2 + dice // 2 + bonus_here)             # "some animals have good Will saves"
        stated = getattr(saves, kind)
        if stated not in options:
            what = "good" if kind in good else "poor"
            feat = f" and {SAVE_FEATS[kind]}" if SAVE_FEATS[kind] in feats else ""
            notes.add("discrepancy", "Saves", cell,
                      f"{kind.capitalize()} {stated:+d}, but {_a(type_)} {type_}'s {what} save at {dice or hd} HD with "
                      f"{SAVE_ABILITY[kind].capitalize()} {mod(ability):+d}{feat} is {min(options):+d}: kept "
                      f"{stated:+d}")
