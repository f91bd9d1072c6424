"""One SRD stat block (a :class:`~arena.srd.text.RawBlock`) made into a validated
:class:`~arena.world.creatures.Creature`: its fields read, its special abilities recorded, its self-checks run.

:func:`build` returns a :class:`Built`: the creature (or None when a field that the model needs cannot be read,
or holds an impossible number) and every note and error with its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pydantic

from arena.limits import MAX_IMPORT_DIGITS
from arena.srd.abilities import ENERGY_RIDER, attack_riders, read_abilities
from arena.srd.checks import check_armor, check_attacks, check_grapple, check_hp, check_saves, mod
from arena.srd.effects import effect_fields
from arena.srd.fields import (
    GRAPPLE_SIZE_MODIFIER,
    AttackRead,
    FieldError,
    Note,
    Notes,
    NumberTooLarge,
    class_levels,
    read_armor,
    read_bab_grapple,
    read_cr,
    read_feats,
    read_hit_dice,
    read_initiative,
    read_routines,
    read_saves,
    read_size_type,
    read_space_reach,
    read_speed,
)
from arena.srd.fields import (
    read_abilities as read_ability_scores,
)
from arena.srd.holds import combat_fields, harmless_attack
from arena.srd.specials import special_fields
from arena.srd.spells import spell_fields
from arena.srd.text import Cell, RawBlock, drop_parens
from arena.world.creatures import Creature
from arena.world.stat_types import SUBTYPE_IMMUNITIES, SUBTYPE_VULNERABILITIES, TYPE_IMMUNITIES

FULL_BAB = ("dragon", "magical beast", "monstrous humanoid", "outsider")
HALF_BAB = ("fey", "undead")


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
    reading: tuple[str, Cell | None] = ("stat block", None)
    """The field being read (and its cell): where a number too large, or text no reader expected, is reported."""


# --------------------------------------------------------------------------------------------- names
_FAMILY_FIRST = re.compile(r"^(air|earth|fire|water) elemental(,.*)?$", re.IGNORECASE)


def kebab(title: str) -> str:
    """The bestiary name of an SRD title: ``Troll`` -> ``troll``, ``Air Elemental, Large`` ->
    ``elemental-air-large``, ``Red Dragon, Young`` -> ``red-dragon-young``, ``Barbed Devil (Hamatula)`` ->
    ``barbed-devil``."""
    text = title.strip()
    m = _FAMILY_FIRST.match(text)
    if m:
        text = f"elemental {m.group(1)}{m.group(2) or ''}"
    text = drop_parens(text, " ").lower().replace("'", "").replace("’", "")
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return text.strip("-") or "unnamed"


# --------------------------------------------------------------------------------------------- attacks
def _attack_dict(a: AttackRead, sneak: str | None, trip_on: str | None, trip_mod: int | None) -> dict:
    out: dict = {"name": a.name, "bonuses": list(a.bonuses), "damage": a.damage,
                 "damage_types": list(a.damage_types)}
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
    if trip_on and a.name == trip_on and a.kind == "melee":
        out["trip"] = True
        if trip_mod is not None:
            out["trip_modifier"] = trip_mod
    return out


def _routines(reads: list[list[AttackRead]], field_name: str, cell, notes: Notes, sneak: str | None,
              trip_on: str | None, trip_mod: int | None) -> list[list[dict]]:
    out = []
    for routine in reads:
        kept = []
        for a in routine:
            if a.damage is None and harmless_attack(a):
                kept.append(dict(_attack_dict(a, sneak, trip_on, trip_mod), damage="1", harmless=True))
                continue
            if a.damage is None:
                what = ", ".join(a.riders) or "nothing"
                notes.add("changed", field_name, cell, f"{a.name} deals no hit-point damage ({what}): not an attack "
                                                       "the engine rolls; its effect is listed with the special "
                                                       "abilities", a.text)
                continue
            kept.append(_attack_dict(a, sneak, trip_on, trip_mod))
        if kept:
            out.append(kept)
    return out


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
    try:
        data = _read(block, notes, built)
    except FieldError as err:
        built.errors.append(Problem(block.file, err.cell.line if err.cell else block.line, err.field, err.message,
                                    title))
        built.notes = notes.items
        return built
    except (ValueError, ArithmeticError) as err:   # NumberTooLarge; a number no reader expected (1/0 ft.)
        name, cell = _holding_long_number(block) if isinstance(err, NumberTooLarge) else (None, None)
        if name is None:
            name, cell = built.reading
        message = str(err) if isinstance(err, NumberTooLarge) else f"cannot read {name} ({type(err).__name__}: {err})"
        built.errors.append(Problem(block.file, cell.line if cell else block.line, name, message, title))
        built.notes = notes.items
        return built
    source = source_label or block.file
    data["source"] = f"SRD 3.5 {source}:{block.line} (Open Game License 1.0a: see the OGL notice in bestiary/srd/)"
    for note in notes.items:
        if note.kind == "unread":
            built.errors.append(Problem(block.file, note.line, note.field, f"{note.message} -- {note.text[:80]!r}"
                                        if note.text else note.message, title))
    kinds = {n.kind for n in notes.items}
    data["import_status"] = "unread" if "unread" in kinds else "guessed" if "guess" in kinds else "clean"
    data["import_notes"] = [{k: v for k, v in (("kind", n.kind), ("field", n.field), ("line", n.line),
                                                ("text", n.text), ("message", n.message)) if v not in (None, "")}
                            for n in notes.items]
    built.notes = notes.items
    try:
        built.creature = Creature.model_validate(data)
    except pydantic.ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        built.errors.append(Problem(block.file, block.line, where or "stat block",
                                    f"the block does not make a valid stat block: {first['msg']}", title))
    return built


def _holding_long_number(block: RawBlock) -> tuple[str | None, Cell | None]:
    """The field (or ``description``) and cell that hold a number of more digits than a stat block may have."""
    long_number = re.compile(rf"\d{{{MAX_IMPORT_DIGITS + 1}}}")
    for name, cell in block.fields.items():
        if long_number.search(cell.text):
            return name, cell
    cell = next((c for c in block.description if long_number.search(c.text)), None)
    return ("description", cell) if cell else (None, None)


def _read(block: RawBlock, notes: Notes, built: Built) -> dict:
    def at(name: str) -> Cell | None:            # read next: the field a ValueError is reported at
        built.reading = (name, block.get(name))
        return block.get(name)

    specials = "Special Qualities" if block.get("Special Qualities") and not block.get("Special Attacks") else \
        "Special Attacks"                          # the abilities' readers read both, and the prose
    st = read_size_type(at("Size/Type"), notes)
    hd = read_hit_dice(at("Hit Dice"), notes)
    armor = read_armor(at("Armor Class"), notes)
    saves = read_saves(at("Saves"), notes)
    scores = read_ability_scores(at("Abilities"), notes)
    cr = read_cr(at("Challenge Rating"), notes)
    feats = read_feats(at("Feats"), notes)
    built.reading = ("name", None)
    levels = class_levels(block.title)
    bab_read = read_bab_grapple(at("Base Attack/Grapple"), notes)
    text_all = " ".join(c.text for c in block.description)
    qualities = " ".join(c.text for c in (block.get("Special Qualities"), block.get("Special Attacks")) if c)
    profane = 2 if re.search(r"desecrating aura", qualities, re.IGNORECASE) else 0   # +2 profane to its own rolls
    hd_count = max(1, int(hd.hd))
    if bab_read is None:
        bab = hd_count if st.type in FULL_BAB else hd_count // 2 if st.type in HALF_BAB else hd_count * 3 // 4
        grapple = bab + mod(scores["str"]) + GRAPPLE_SIZE_MODIFIER[st.size]
        notes.add("guess", "Base Attack/Grapple", block.get("Base Attack/Grapple"),
                  f"no base attack/grapple: {bab:+d}/{grapple:+d} from the {st.type} type's progression at "
                  f"{hd_count} HD")
    else:
        bab = bab_read.bab
        if bab_read.grapple is None:
            grapple = bab + mod(scores["str"]) + GRAPPLE_SIZE_MODIFIER[st.size]
            notes.add("changed", "Base Attack/Grapple", block.get("Base Attack/Grapple"),
                      f"no grapple bonus (the creature cannot grapple): stored as BAB + Str + size, {grapple:+d}")
        else:
            grapple = bab_read.grapple
            if not re.search(r"bonus on grapple checks", text_all):      # a racial grapple bonus of its text
                check_grapple(bab, grapple, st.size, scores["str"], block.get("Base Attack/Grapple"), notes, feats,
                              profane)
    space, reach = read_space_reach(at("Space/Reach"), notes, st.size)
    at(specials)
    fx = read_abilities(block, notes, st.size, mod(scores["str"]))
    attack_reads = read_routines(at("Attack"), "Attack", notes)
    full_reads = read_routines(at("Full Attack"), "Full Attack", notes)
    at(specials)
    trip_on = None
    trip_mod = None
    if fx.trip:
        trip_on = "bite"
        from arena.srd.text import description_of

        desc = description_of(block, "trip")
        m = re.search(r"hits with an? (\w+(?: \w+)?) attack", desc.text) if desc else None
        if m:
            trip_on = m.group(1).lower()
        trip_mod = mod(scores["str"]) + GRAPPLE_SIZE_MODIFIER[st.size]
        names = {a.name for r in attack_reads + full_reads for a in r}
        if trip_on not in names:
            trip_on = next(iter(sorted(names)), None)
            notes.add("guess", "Special Attacks", block.get("Special Attacks"), f"trip: on the {trip_on} attack")
    check_hp(hd, block.get("Hit Dice"), notes)
    check_armor(armor, block.get("Armor Class"), notes)
    for reads, name in ((attack_reads, "Attack"), (full_reads, "Full Attack")):
        check_attacks(reads, bab, st.size, scores, feats, block.get(name), name, notes, profane)
    grace = mod(scores["cha"]) if re.search(r"unearthly grace", qualities, re.IGNORECASE) else 0
    check_saves(saves, st.type, st.subtypes, hd.hd, scores, feats, levels, block.get("Saves"), notes,
                grace + profane)
    attack = _routines(attack_reads, "Attack", block.get("Attack"), notes, fx.sneak_attack, trip_on, trip_mod)
    full = _routines(full_reads, "Full Attack", block.get("Full Attack"), notes, fx.sneak_attack, trip_on, trip_mod)
    if not attack and full:
        attack = [[dict(full[0][0], count=1) if full[0][0].get("count") else dict(full[0][0])]]
        attack[0][0].pop("count", None)
        notes.add("guess", "Attack", block.get("Attack"), "no standard attack the engine rolls: the first attack of "
                                                          "the full attack, once")
    abilities = list(fx.abilities)
    for sub, key in (("incorporeal", "incorporeal"), ("swarm", "swarm")):
        if sub in st.subtypes and not any(a["key"] == key for a in abilities):
            abilities.append({"name": f"{sub.capitalize()} subtype", "key": key, "kind": "quality",
                              "engine": "ignored", "text": block.get("Size/Type").text,
                              "notes": "from the creature's subtype"})
    energies = {a.get("extra_damage_type") for r in attack + full for a in r}
    for a in abilities:
        m = ENERGY_RIDER.search(a.get("text", ""))
        if a["engine"] == "ignored" and m and m.group(2) in energies:
            a.update(key="energy damage", engine="modelled", damage=m.group(1),
                     notes=f"the {m.group(2)} damage rides on the attack (extra_damage)")
    keys = {a["key"] for a in abilities}
    for rider in attack_riders(attack_reads + full_reads, block, notes):
        if rider["key"] not in keys:
            abilities.append(rider)
            keys.add(rider["key"])
    implied = set(TYPE_IMMUNITIES.get(st.type, ()))
    for sub in st.subtypes:
        implied |= SUBTYPE_IMMUNITIES.get(sub, frozenset())
    vulnerable = set()
    for sub in st.subtypes:
        vulnerable |= SUBTYPE_VULNERABILITIES.get(sub, frozenset())
    data: dict = {
        "name": built.name, "title": block.title, "size": st.size, "type": st.type,
        "subtypes": list(st.subtypes), "cr": str(cr), "hp": hd.hp, "hit_dice": hd.expression,
        "initiative": read_initiative(at("Initiative"), notes), "speed": read_speed(at("Speed"), notes),
        "space_ft": space, "reach_ft": reach, "ac": armor.ac, "touch_ac": armor.touch,
        "flat_footed_ac": armor.flat, "bab": bab, "grapple": grapple,
        "abilities": scores, "saves": {"fort": saves.fort, "ref": saves.ref, "will": saves.will},
        "attack": attack, "full_attack": full, "feats": list(feats),
    }
    if levels:
        data["class_levels"] = levels
    if armor.deflection > 0:
        data["deflection"] = armor.deflection
    if fx.damage_reduction:
        data["damage_reduction"] = fx.damage_reduction
    if fx.spell_resistance:
        data["spell_resistance"] = fx.spell_resistance
    if fx.regeneration:
        data["regeneration"] = fx.regeneration
    if fx.fast_healing:
        data["fast_healing"] = fx.fast_healing
    if fx.energy_resistance:
        data["energy_resistance"] = fx.energy_resistance
    immunities = [i for i in dict.fromkeys(fx.immunities) if i not in implied]
    if immunities:
        data["immunities"] = immunities
    vulns = [v for v in dict.fromkeys(fx.vulnerabilities) if v not in vulnerable]
    if vulns:
        data["vulnerabilities"] = vulns
    if fx.rend:
        if any(sum(a.get("count", 1) * len(a["bonuses"]) for a in r if a["name"] == fx.rend["attack"]) >= 2
               for r in full):
            data["rend"] = fx.rend
        else:
            for a in abilities:
                if a["key"] == "rend":
                    a["engine"] = "ignored"
                    a["notes"] = f"the full attack has no two {fx.rend['attack']} attacks the engine's rend needs"
    if fx.breath_weapon:
        data["breath_weapon"] = fx.breath_weapon
    if fx.trip and trip_on is None:
        for a in abilities:
            if a["key"] == "trip":
                a["engine"] = "ignored"
    at(specials)
    data.update(combat_fields(block, abilities, attack, full, attack_reads + full_reads, notes))
    data.update(effect_fields(block, abilities, data, attack_reads + full_reads, notes))
    data.update(special_fields(block, abilities, data, attack_reads + full_reads, notes))
    data.update(spell_fields(block, abilities, data, notes))
    data["special_abilities"] = abilities
    return data
