"""One SRD stat block (a :class:`~arena.srd.text.RawBlock`) made into a validated
:class:`~arena.world.creatures.Creature`: its fields read, its special abilities recorded, its self-checks run.

:func:`build` returns a :class:`Built`: the creature (or None when a field that the model needs cannot be read,
or holds an impossible number) and every note and error with its line. The fields are read by the readers of
:data:`FIELD_READERS`, each given the block's :class:`~arena.srd.context.Reading`; the special abilities by
:mod:`arena.srd.abilities` and, once the attacks are read, :mod:`arena.srd.effects`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pydantic

from arena.limits import MAX_IMPORT_DIGITS
from arena.srd.abilities import ENERGY_RIDER, Effects, attack_riders, read_abilities
from arena.srd.attacks import harmless_attack, read_routines
from arena.srd.checks import check_armor, check_attacks, check_grapple, check_hp, check_saves
from arena.srd.context import AttackRead, FieldError, Note, Notes, Reading
from arena.srd.damage_types import finesse_weapon
from arena.srd.effects import read_ability_fields
from arena.srd.fields import (
    GRAPPLE_SIZE_MODIFIER,
    Stats,
    class_levels,
    read_ability_scores,
    read_armor,
    read_bab_grapple,
    read_cr,
    read_feats,
    read_hit_dice,
    read_initiative,
    read_saves,
    read_size_type,
    read_space_reach,
    read_speed,
)
from arena.srd.prose import description_of
from arena.srd.text import Cell, NumberTooLarge, RawBlock, dice_text, drop_parens
from arena.world.creatures import Creature
from arena.world.stat_types import SUBTYPE_IMMUNITIES, SUBTYPE_VULNERABILITIES, TYPE_IMMUNITIES, ability_modifier

FULL_BAB = ("dragon", "magical beast", "monstrous humanoid", "outsider")
HALF_BAB = ("fey", "undead")

FIELD_READERS: dict[str, Callable[[Reading], Any]] = {
    "Size/Type": read_size_type,
    "Hit Dice": read_hit_dice,
    "Armor Class": read_armor,
    "Saves": read_saves,
    "Abilities": read_ability_scores,
    "Challenge Rating": read_cr,
    "Feats": read_feats,
    "Base Attack/Grapple": read_bab_grapple,
    "Space/Reach": read_space_reach,
    "Attack": read_routines,
    "Full Attack": read_routines,
    "Initiative": read_initiative,
    "Speed": read_speed,
}
"""The reader of each field the model needs. :func:`read_field` looks a field's reader up here; the build reads
the first seven first, in this order (the first error of a block is the one reported)."""

FAMILY_FIRST = re.compile(r"^(air|earth|fire|water) elemental(,.*)?$", re.IGNORECASE)
"""An elemental's title, its family second: ``Air Elemental, Large``."""
NOT_A_NAME = re.compile(r"[^a-z0-9]+")
"""What a bestiary name has no room for: blanks, commas, apostrophes."""
RACIAL_GRAPPLE = "bonus on grapple checks"
"""A racial bonus its text gives its grapple: ``a +4 racial bonus on grapple checks``."""
DESECRATING_AURA = re.compile(r"desecrating aura", re.IGNORECASE)
"""A +2 profane bonus on its own rolls: ``Desecrating aura``."""
UNEARTHLY_GRACE = re.compile(r"unearthly grace", re.IGNORECASE)
"""Its Charisma bonus on every save: ``Unearthly grace``."""
TRIP_ATTACK = re.compile(r"hits with an? (\w+(?: \w+)?) attack")
"""The attack a trip follows: ``A wolf that hits with a bite attack can attempt to trip the opponent``."""
LONG_NUMBER = re.compile(rf"\d{{{MAX_IMPORT_DIGITS + 1}}}")
"""A number of more digits than a stat block may have."""


@dataclass
class Problem:
    """An error of one block: it names the file, the line and the field."""

    file: str
    line: int | None
    field: str
    message: str
    creature: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        who = f" ({self.creature})" if self.creature else ""
        return f"{where}: {self.field}: {self.message}{who}"


@dataclass
class Built:
    title: str
    name: str
    block: RawBlock
    creature: Creature | None = None
    notes: list[Note] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)


def kebab(title: str) -> str:
    """The bestiary name of an SRD title: ``Troll`` -> ``troll``, ``Air Elemental, Large`` ->
    ``elemental-air-large``, ``Red Dragon, Young`` -> ``red-dragon-young``, ``Barbed Devil (Hamatula)`` ->
    ``barbed-devil``."""
    text = title.strip()
    m = FAMILY_FIRST.match(text)
    if m:
        text = f"elemental {m.group(1)}{m.group(2) or ''}"
    text = drop_parens(text, " ").lower().replace("'", "").replace("’", "")
    return NOT_A_NAME.sub("-", text).strip("-") or "unnamed"


def read_field(ctx: Reading, name: str) -> Any:
    """The field ``name`` read by its reader (:data:`FIELD_READERS`): it is the field read (and reported at) next."""
    ctx.at(name)
    return FIELD_READERS[name](ctx)


# --------------------------------------------------------------------------------------------- the block
def build(block: RawBlock, source_label: str | None = None, first_notes: tuple[Note, ...] = ()) -> Built:
    """Read ``block`` into a creature; errors (unreadable or impossible fields) leave ``creature`` None.
    ``first_notes`` (the mends made to the block before it is read) head its notes."""
    title = block.title
    built = Built(title=title, name=kebab(title), block=block)
    notes = Notes(list(first_notes))
    for line, field_name, text, message in block.problems:
        notes.add("guess", field_name, None, message, text)
        notes.items[-1].line = line
    if block.title_guessed:
        notes.add("guess", "name", None, f"no name for this column: called {title!r}", title)
        notes.items[-1].line = block.line
    ctx = Reading(block, notes)
    built.notes = notes.items
    try:
        data = _read(ctx, built.name)
    except FieldError as err:
        built.errors.append(
            Problem(block.file, err.cell.line if err.cell else block.line, err.field, err.message, title)
        )
        return built
    except (ValueError, ArithmeticError) as err:  # NumberTooLarge; a number no reader expected (1/0 ft.)
        name, cell = _holding_long_number(block) if isinstance(err, NumberTooLarge) else (None, None)
        if name is None:
            name, cell = ctx.field, ctx.cell
        message = str(err) if isinstance(err, NumberTooLarge) else f"cannot read {name} ({type(err).__name__}: {err})"
        built.errors.append(Problem(block.file, cell.line if cell else block.line, name, message, title))
        return built
    source = source_label or block.file
    data["source"] = f"SRD 3.5 {source}:{block.line} (Open Game License 1.0a: see the OGL notice in bestiary/srd/)"
    for note in notes.items:
        if note.kind == "unread":
            built.errors.append(
                Problem(
                    block.file,
                    note.line,
                    note.field,
                    f"{note.message} -- {note.text[:80]!r}" if note.text else note.message,
                    title,
                )
            )
    kinds = {n.kind for n in notes.items}
    data["import_status"] = "unread" if "unread" in kinds else "guessed" if "guess" in kinds else "clean"
    data["import_notes"] = [
        {
            k: v
            for k, v in (
                ("kind", n.kind),
                ("field", n.field),
                ("line", n.line),
                ("text", n.text),
                ("message", n.message),
            )
            if v not in (None, "")
        }
        for n in notes.items
    ]
    try:
        built.creature = Creature.model_validate(data)
    except pydantic.ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        built.errors.append(
            Problem(
                block.file,
                block.line,
                where or "stat block",
                f"the block does not make a valid stat block: {first['msg']}",
                title,
            )
        )
    return built


def _holding_long_number(block: RawBlock) -> tuple[str | None, Cell | None]:
    """The field (or ``description``) and cell that hold a number of more digits than a stat block may have."""
    for name, cell in block.fields.items():
        if LONG_NUMBER.search(cell.text):
            return name, cell
    found = next((c for c in block.description if LONG_NUMBER.search(c.text)), None)
    return ("description", found) if found else (None, None)


def _read(ctx: Reading, name: str) -> dict:
    """The stat block of the block being read, as the dict a :class:`Creature` validates."""
    block = ctx.block
    specials = (
        "Special Qualities"
        if block.get("Special Qualities") and not block.get("Special Attacks")
        else "Special Attacks"
    )  # the abilities' readers read both, and the prose
    stats, bab, grapple = _stats(ctx)
    ctx.size = stats.size
    space, reach = read_field(ctx, "Space/Reach")
    ctx.at(specials)
    fx = read_abilities(ctx)
    attack_reads, full_reads = read_field(ctx, "Attack"), read_field(ctx, "Full Attack")
    ctx.at(specials)
    trip_on, trip_mod = _trip(ctx, fx, stats, attack_reads + full_reads)
    check_hp(ctx, stats)
    check_armor(ctx, stats)
    check_attacks(ctx, stats, bab, attack_reads, "Attack")
    check_attacks(ctx, stats, bab, full_reads, "Full Attack")
    check_saves(ctx, stats)
    finesse = "Weapon Finesse" in stats.feats
    attack = _routines(ctx, attack_reads, "Attack", fx.sneak_attack, trip_on, trip_mod, finesse)
    full = _routines(ctx, full_reads, "Full Attack", fx.sneak_attack, trip_on, trip_mod, finesse)
    if not attack and full:
        attack = [[{k: v for k, v in full[0][0].items() if k != "count"}]]
        ctx.notes.add(
            "guess",
            "Attack",
            block.get("Attack"),
            "no standard attack the engine rolls: the first attack of the full attack, once",
        )
    abilities = _abilities(ctx, fx, stats, attack + full, attack_reads + full_reads)
    st, armor, saves = stats.size_type, stats.armor, stats.saves
    data: dict = {
        "name": name,
        "title": block.title,
        "size": st.size,
        "type": st.type,
        "subtypes": list(st.subtypes),
        "cr": str(stats.cr),
        "hp": stats.hit_dice.hp,
        "hit_dice": stats.hit_dice.expression,
        "initiative": read_field(ctx, "Initiative"),
        "speed": read_field(ctx, "Speed"),
        "space_ft": space,
        "reach_ft": reach,
        "ac": armor.ac,
        "touch_ac": armor.touch,
        "flat_footed_ac": armor.flat,
        "bab": bab,
        "grapple": grapple,
        "abilities": stats.scores,
        "saves": {"fort": saves.fort, "ref": saves.ref, "will": saves.will},
        "attack": attack,
        "full_attack": full,
        "feats": list(stats.feats),
    }
    data.update(_engine_fields(fx, stats, armor.deflection, abilities, trip_on))
    ctx.at(specials)
    ctx.data, ctx.abilities, ctx.reads = data, abilities, attack_reads + full_reads
    read_ability_fields(ctx)
    data["special_abilities"] = abilities
    return data


def _stats(ctx: Reading) -> tuple[Stats, int, int]:
    """(the block's numbers, its BAB, its grapple): the fields read in order, then its base attack and grapple (from
    its type's progression where the block gives none; checked where it gives both)."""
    st, hd, armor, saves, scores, cr, feats = (
        read_field(ctx, name)
        for name in ("Size/Type", "Hit Dice", "Armor Class", "Saves", "Abilities", "Challenge Rating", "Feats")
    )
    ctx.at("name")  # the title: a class level too large is the name's
    levels = class_levels(ctx.block.title)
    bab_read = read_field(ctx, "Base Attack/Grapple")
    text_all = " ".join(c.text for c in ctx.block.description)
    qualities = " ".join(c.text for c in (ctx.block.get("Special Qualities"), ctx.block.get("Special Attacks")) if c)
    stats = Stats(
        st,
        hd,
        armor,
        saves,
        scores,
        cr,
        feats,
        levels,
        profane=2 if DESECRATING_AURA.search(qualities) else 0,
        grace=ability_modifier(scores["cha"]) if UNEARTHLY_GRACE.search(qualities) else 0,
    )
    cell = ctx.block.get("Base Attack/Grapple")
    hd_count = max(1, int(hd.hd))
    if bab_read is None:
        bab = hd_count if st.type in FULL_BAB else hd_count // 2 if st.type in HALF_BAB else hd_count * 3 // 4
        grapple = bab + ability_modifier(scores["str"]) + GRAPPLE_SIZE_MODIFIER[st.size]
        ctx.notes.add(
            "guess",
            "Base Attack/Grapple",
            cell,
            f"no base attack/grapple: {bab:+d}/{grapple:+d} from the {st.type} type's progression at {hd_count} HD",
        )
        return stats, bab, grapple
    bab = bab_read.bab
    if bab_read.grapple is None:
        grapple = bab + ability_modifier(scores["str"]) + GRAPPLE_SIZE_MODIFIER[st.size]
        ctx.notes.add(
            "changed",
            "Base Attack/Grapple",
            cell,
            f"no grapple bonus (the creature cannot grapple): stored as BAB + Str + size, {grapple:+d}",
        )
        return stats, bab, grapple
    if RACIAL_GRAPPLE not in text_all:
        check_grapple(ctx, stats, bab, bab_read.grapple)
    return stats, bab, bab_read.grapple


def _trip(ctx: Reading, fx: Effects, stats: Stats, reads: list[list[AttackRead]]) -> tuple[str | None, int | None]:
    """(the attack a trip follows, the trip's modifier): the one its paragraph names, else the bite, else the first
    attack by name."""
    if not fx.trip:
        return None, None
    desc = description_of(ctx.block, "trip")
    m = TRIP_ATTACK.search(desc.text) if desc else None
    trip_on: str | None = m.group(1).lower() if m else "bite"
    names = {a.name for r in reads for a in r}
    if trip_on not in names:
        trip_on = next(iter(sorted(names)), None)
        ctx.notes.add("guess", "Special Attacks", ctx.block.get("Special Attacks"), f"trip: on the {trip_on} attack")
    return trip_on, ability_modifier(stats.scores["str"]) + GRAPPLE_SIZE_MODIFIER[stats.size]


def _attack_dict(
    a: AttackRead, sneak: str | None, trip_on: str | None, trip_mod: int | None, finesse: bool = False
) -> dict:
    """One attack as the stat block writes it; ``finesse``: the creature has Weapon Finesse, and a melee attack
    with a weapon it applies to (:func:`~arena.srd.damage_types.finesse_weapon`, not a touch) is marked so."""
    out: dict = {"name": a.name, "bonuses": list(a.bonuses), "damage": a.damage, "damage_types": list(a.damage_types)}
    if a.count != 1:
        out["count"] = a.count
    if a.threat != 20:
        out["threat"] = a.threat
    if a.multiplier != 2:
        out["multiplier"] = a.multiplier
    if a.kind != "melee":
        out["kind"] = a.kind
    if a.touch:
        out["touch"] = True
    if a.extra_damage:
        out["extra_damage"], out["extra_damage_type"] = a.extra_damage, a.extra_damage_type
    materials = (["magic"] if a.enhancement else []) + list(a.materials)
    if materials:
        out["materials"] = materials
    if sneak:
        out["sneak_attack"] = sneak
    if finesse and a.kind == "melee" and not a.touch and finesse_weapon(a.name):
        out["finesse"] = True
    if trip_on and a.name == trip_on and a.kind == "melee":
        out["trip"] = True
        if trip_mod is not None:
            out["trip_modifier"] = trip_mod
    return out


def _routines(
    ctx: Reading,
    reads: list[list[AttackRead]],
    field_name: str,
    sneak: str | None,
    trip_on: str | None,
    trip_mod: int | None,
    finesse: bool = False,
) -> list[list[dict]]:
    """The routines as the stat block writes them: an attack of no hit-point damage is left out (its effect is a
    special ability), unless it is ``harmless`` (:func:`~arena.srd.attacks.harmless_attack`)."""
    out = []
    for routine in reads:
        kept = []
        for a in routine:
            if a.damage is None and harmless_attack(a):
                kept.append(dict(_attack_dict(a, sneak, trip_on, trip_mod, finesse), damage="1", harmless=True))
            elif a.damage is None:
                what = ", ".join(a.riders) or "nothing"
                ctx.notes.add(
                    "changed",
                    field_name,
                    ctx.block.get(field_name),
                    f"{a.name} deals no hit-point damage ({what}): not an attack the engine rolls; its "
                    "effect is listed with the special abilities",
                    a.text,
                )
            else:
                kept.append(_attack_dict(a, sneak, trip_on, trip_mod, finesse))
        if kept:
            out.append(kept)
    return out


def _abilities(
    ctx: Reading, fx: Effects, stats: Stats, routines: list[list[dict]], reads: list[list[AttackRead]]
) -> list[dict]:
    """Its special abilities: its entries', its subtypes' (incorporeal, swarm), and its attacks' riders; an energy
    rider its attacks carry is modelled (``plus 1d6 fire``)."""
    abilities = list(fx.abilities)
    type_cell = ctx.block.get("Size/Type")
    for sub in ("incorporeal", "swarm"):
        if sub in stats.size_type.subtypes and not any(a["key"] == sub for a in abilities):
            abilities.append(
                {
                    "name": f"{sub.capitalize()} subtype",
                    "key": sub,
                    "kind": "quality",
                    "engine": "ignored",
                    "text": type_cell.text if type_cell else "",
                    "notes": "from the creature's subtype",
                }
            )
    energies = {a.get("extra_damage_type") for r in routines for a in r}
    for a in abilities:
        m = ENERGY_RIDER.search(a.get("text", ""))
        if a["engine"] == "ignored" and m and m.group(2) in energies:
            a.update(
                key="energy damage",
                engine="modelled",
                damage=dice_text(m.group(1)),
                notes=f"the {m.group(2)} damage rides on the attack (extra_damage)",
            )
    keys = {a["key"] for a in abilities}
    for rider in attack_riders(ctx, reads):
        if rider["key"] not in keys:
            abilities.append(rider)
            keys.add(rider["key"])
    return abilities


def _engine_fields(fx: Effects, stats: Stats, deflection: int, abilities: list[dict], trip_on: str | None) -> dict:
    """The engine's fields its special abilities fill: damage reduction, spell resistance, regeneration, immunities
    (less its type's and subtypes') ...; a trip with no attack to follow is marked ignored."""
    st = stats.size_type
    implied = set(TYPE_IMMUNITIES.get(st.type, ()))
    vulnerable: set[str] = set()
    for sub in st.subtypes:
        implied |= SUBTYPE_IMMUNITIES.get(sub, frozenset())
        vulnerable |= SUBTYPE_VULNERABILITIES.get(sub, frozenset())
    data: dict = {}
    if stats.levels:
        data["class_levels"] = stats.levels
    if deflection > 0:
        data["deflection"] = deflection
    for key in (
        "damage_reduction",
        "spell_resistance",
        "regeneration",
        "fast_healing",
        "energy_resistance",
        "breath_weapon",
    ):
        if getattr(fx, key):
            data[key] = getattr(fx, key)
    immunities = [i for i in dict.fromkeys(fx.immunities) if i not in implied]
    if immunities:
        data["immunities"] = immunities
    vulns = [v for v in dict.fromkeys(fx.vulnerabilities) if v not in vulnerable]
    if vulns:
        data["vulnerabilities"] = vulns
    if fx.trip and trip_on is None:
        for a in abilities:
            if a["key"] == "trip":
                a["engine"] = "ignored"
    return data
