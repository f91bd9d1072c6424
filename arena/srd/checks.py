"""An SRD stat block checked against itself: hit points against the hit dice, AC against its listed components,
natural attack bonuses against BAB + ability + size, grapple against BAB + Str + size, saves against the type's
progression.

Where the block disagrees with itself it keeps the SRD's stated number and the disagreement becomes a
``discrepancy`` note (the errata list of ``docs/bestiary.md`` is made of them). The checks leave out what a block
does not state: class levels (their saves and BAB), templates (augmented types), racial bonuses and
masterwork weapons; only natural attacks are checked (a weapon's bonus has too many unstated parts). Each check
is ``check(reading, stats, ...)``: the block's numbers as read (:class:`~arena.srd.fields.Stats`).
"""

from __future__ import annotations

import math

from arena.srd.context import AttackRead, Reading
from arena.srd.damage_types import is_natural
from arena.srd.fields import GRAPPLE_SIZE_MODIFIER, SIZE_MODIFIER, Stats
from arena.srd.patterns import singular
from arena.world.stat_types import ability_modifier

GOOD_SAVES: dict[str, tuple[str, ...]] = {
    "aberration": ("will",),
    "animal": ("fort", "ref"),
    "construct": (),
    "dragon": ("fort", "ref", "will"),
    "fey": ("ref", "will"),
    "giant": ("fort",),
    "magical beast": ("fort", "ref"),
    "monstrous humanoid": ("ref", "will"),
    "ooze": (),
    "outsider": ("fort", "ref", "will"),
    "plant": ("fort",),
    "undead": ("will",),
    "vermin": ("fort",),
}
"""Good saving throws by creature type (SRD 3.5 Types; elementals by subtype, humanoids by class: not here)."""
ELEMENTAL_GOOD = {"air": ("ref",), "fire": ("ref",), "earth": ("fort",), "water": ("fort",)}
SAVE_FEATS = {"fort": "Great Fortitude", "ref": "Lightning Reflexes", "will": "Iron Will"}
SAVE_ABILITY = {"fort": "con", "ref": "dex", "will": "wis"}


def _a(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _discrepancy(ctx: Reading, field: str, message: str, text: str | None = None) -> None:
    ctx.notes.add("discrepancy", field, ctx.block.get(field), message, text)


def check_hp(ctx: Reading, stats: Stats) -> None:
    hd = stats.hit_dice
    mean = sum(count * (die + 1) / 2 for count, die in hd.terms) + hd.constant
    expected = max(1, math.floor(mean))
    if expected != hd.hp:
        _discrepancy(ctx, "Hit Dice", f"{hd.hp} hp, but the average of the hit dice is {expected}: kept {hd.hp}")


def check_armor(ctx: Reading, stats: Stats) -> None:
    armor = stats.armor
    if not armor.components:
        return
    total = 10 + armor.total()
    if total != armor.ac:
        _discrepancy(ctx, "Armor Class", f"AC {armor.ac}, but 10 + its components is {total}: kept {armor.ac}")
    touch = 10 + sum(b for b, k in armor.components if k not in ("armor", "shield", "natural"))
    if touch != armor.touch and total == armor.ac:
        _discrepancy(
            ctx,
            "Armor Class",
            f"touch AC {armor.touch}, but 10 + its components other than armor, shield "
            f"and natural armor is {touch}: kept {armor.touch}",
        )
    dex = sum(b for b, k in armor.components if k == "dex")
    dodge = sum(b for b, k in armor.components if k == "dodge")
    flat = armor.ac - max(0, dex) - dodge
    if flat != armor.flat and total == armor.ac:
        _discrepancy(
            ctx,
            "Armor Class",
            f"flat-footed AC {armor.flat}, but AC less its Dex and dodge bonuses is {flat}: kept {armor.flat}",
        )


def check_grapple(ctx: Reading, stats: Stats, bab: int, grapple: int) -> None:
    """Grapple against BAB + Str + size, and what the block's text adds (a profane bonus of a desecrating aura)."""
    size, strength = stats.size, stats.scores["str"]
    expected = bab + ability_modifier(strength) + GRAPPLE_SIZE_MODIFIER[size] + stats.profane
    if grapple != expected and strength is not None:
        _discrepancy(
            ctx,
            "Base Attack/Grapple",
            f"grapple {grapple:+d}, but BAB {bab:+d} + Str {ability_modifier(strength):+d} + "
            f"size {GRAPPLE_SIZE_MODIFIER[size]:+d} is {expected:+d}: kept "
            f"{grapple:+d}",
        )


def check_attacks(ctx: Reading, stats: Stats, bab: int, routines: list[list[AttackRead]], field: str) -> None:
    """The natural melee attacks of ``routines`` (the field ``field``'s) against BAB + Str (or Dex with Weapon
    Finesse) + size + Weapon Focus + enhancement, as a primary attack or a secondary one (-5, or -2 with
    Multiattack)."""
    feats, size = stats.feats, stats.size
    finesse = "Weapon Finesse" in feats
    multi = "Multiattack" in feats
    strength, dex = ability_modifier(stats.scores.get("str")), ability_modifier(stats.scores.get("dex"))
    for routine in routines:
        for attack in (a for a in routine if is_natural(a.name)):
            if attack.kind != "melee" or attack.touch or attack.damage is None:  # a swarm rolls no attack
                continue
            ability = max(strength, dex) if finesse else strength
            focus = (
                1
                if any(f.lower().startswith("weapon focus") and singular(attack.name) in f.lower() for f in feats)
                else 0
            )
            base = bab + ability + SIZE_MODIFIER[size] + focus + attack.enhancement + stats.profane
            allowed = {base, base - 5} | ({base - 2} if multi else set())  # primary, or secondary
            if attack.bonuses[0] not in allowed:
                shown = ", ".join(f"{b:+d}" for b in sorted(allowed, reverse=True))
                _discrepancy(
                    ctx,
                    field,
                    f"{attack.name} {attack.bonuses[0]:+d}, but BAB {bab:+d} + "
                    f"{'Dex' if finesse and dex > strength else 'Str'} {ability:+d} + size "
                    f"{SIZE_MODIFIER[size]:+d}{' + Weapon Focus' if focus else ''} gives "
                    f"{shown}: kept {attack.bonuses[0]:+d}",
                    attack.text,
                )


def _good_saves(type_: str, subtypes: tuple[str, ...]) -> tuple[str, ...] | None:
    """The good saves of a type (an elemental's by its subtype); None where the block does not say them."""
    if type_ == "elemental":
        return next((ELEMENTAL_GOOD[s] for s in subtypes if s in ELEMENTAL_GOOD), None)
    return GOOD_SAVES.get(type_)


def check_saves(ctx: Reading, stats: Stats) -> None:
    """The saves against the type's good and poor progressions at its hit dice, with the ability and feat, and what
    the block's text adds to every save (unearthly grace's Cha, a desecrating aura's +2)."""
    type_, subtypes, hd = stats.size_type.type, stats.size_type.subtypes, stats.hit_dice.hd
    if stats.levels or type_ == "humanoid" or any(s.startswith("augmented") for s in subtypes):
        return
    good = _good_saves(type_, subtypes)
    if good is None:
        return
    dice = math.floor(hd) if hd >= 1 else 0
    for kind in ("fort", "ref", "will"):
        ability = stats.scores.get(SAVE_ABILITY[kind])
        if kind == "fort" and ability is None:
            ability = 10
        bonus_here = (
            ability_modifier(ability) + (2 if SAVE_FEATS[kind] in stats.feats else 0) + stats.grace + stats.profane
        )
        options = {(2 + dice // 2 if kind in good else dice // 3) + bonus_here}
        if type_ == "animal" and kind == "will":
            options.add(2 + dice // 2 + bonus_here)  # "some animals have good Will saves"
        stated = getattr(stats.saves, kind)
        if stated not in options:
            what = "good" if kind in good else "poor"
            feat = f" and {SAVE_FEATS[kind]}" if SAVE_FEATS[kind] in stats.feats else ""
            _discrepancy(
                ctx,
                "Saves",
                f"{kind.capitalize()} {stated:+d}, but {_a(type_)} {type_}'s {what} save at "
                f"{dice or hd} HD with {SAVE_ABILITY[kind].capitalize()} {ability_modifier(ability):+d}"
                f"{feat} is {min(options):+d}: kept {stated:+d}",
            )
