"""Spell-like abilities and spells of SRD stat blocks: which of them the engine casts, which do nothing in an arena
fight, and the ``spellcasting`` field when every one that matters is one the engine casts.

:func:`spell_fields` reads the block's ``Spell-Like Abilities: At will--...; 3/day--...; 1/day--... Caster level
6th.`` paragraph (and the single spell-like abilities of its Special Attacks or Qualities, a true dragon's
``Bless``: once a day, as the dragons' general rule says) and its ``Typical ... Spells Known/Prepared (...): 0--...;
1st--...`` list, and sorts each spell by :data:`SPELL_CLASSES`: ``cast`` (the engine casts it:
:data:`arena.world.spellbook.SPELLS`), ``no effect`` (:data:`UTILITY`: senses, languages, travel, shape and
disguise, weather, light: nothing in an arena fight) or ``ignored`` (matters in a fight, the engine does not cast
it). The entry is ``modelled`` when every spell it lists that matters is one the engine casts: the creature gets
``spellcasting: {caster_level, ability, prepared}`` (a spell-like ability at will is 6 casts, 3/day 3, 1/day 1;
its level from the SRD's DC where one is given, ``10 + level + Charisma``, else :data:`SPELL_LEVELS`) and
``tactics: caster``; otherwise it stays ``ignored`` and its notes name the spells the engine does not cast.
"""

from __future__ import annotations

import bisect
import dataclasses
import re

from arena.srd.dragons import AGES
from arena.srd.fields import Notes, _clean, _top_level_split, class_levels, number
from arena.srd.holds import _set, own_description
from arena.srd.text import (
    Cell,
    RawBlock,
    drop_parens,
    is_type_line,
    lines_where,
    nearest_before,
    paragraph_heads,
)
from arena.world.party import bonus_spells
from arena.world.spellbook import SPELLS

SPELL_LEVELS = {"magic missile": 1, "sleep": 1, "color spray": 1, "scorching ray": 2, "hold person": 3,
                "fireball": 3, "lightning bolt": 3, "ice storm": 4, "cone of cold": 5, "flame strike": 5,
                "searing light": 3, "cure light wounds": 1, "cure moderate wounds": 2, "cure serious wounds": 3,
                "cure critical wounds": 4, "bless": 1, "shield of faith": 1, "invisibility": 2, "darkness": 2,
                "fog cloud": 2, "obscuring mist": 1, "charm person": 1, "charm monster": 4, "suggestion": 3,
                "daze": 0, "cause fear": 1, "scare": 2, "hold monster": 5, "deep slumber": 3, "ray of frost": 0,
                "web": 2, "entangle": 1, "dispel magic": 3, "sound burst": 2, "lullaby": 0,
                "stinking cloud": 3, "aid": 2, "neutralize poison": 4,
                "acid arrow": 2, "faerie fire": 1,
                "ray of enfeeblement": 1, "blur": 2, "command": 1, "gust of wind": 2,
                "chain lightning": 6, "call lightning": 3, "wind wall": 3}
"""SRD 3.5 levels of the spells the engine casts (sorcerer/wizard where it is one, else cleric), for a spell-like
ability whose DC the SRD does not give."""

UTILITY: tuple[str, ...] = (
    r"detect \w+(?: \w+)?", "see invisibility", "true seeing", "read magic", "comprehend languages", "tongues",
    r"speak with \w+", "locate object", "locate creature", "message", "ghost sound", "mage hand", "prestidigitation",
    "light", "dancing lights", "continual flame", "arcane mark", "mending", "make whole", "open/close",
    "purify food and drink", "create food and water", "create water", "create/destroy water", "endure elements",
    "pass without trace", "water breathing", "water walk", "air walk", "wind walk", "feather fall", "levitate",
    "fly", "spider climb", "tree shape", "tree stride", "plant growth", "control weather", "control winds",
    "control water", "hallucinatory terrain", "mirage arcana", "veil", "clairaudience/clairvoyance", "commune",
    "commune with nature", "contact other plane", "divination", "legend lore", "scrying", "greater scrying", "augury",
    "identify", "analyze dweomer", "nondetection", "misdirection", "alter self", "disguise self", "change self",
    r"polymorph(?: \(self only\))?", "teleport", "greater teleport", "teleport object", "dimension door",
    "plane shift", "ethereal jaunt", "etherealness", "astral projection", "shadow walk", "know direction",
    "find the path", "discern location", "sending", "geas/quest", "geas", "foresight", "guidance", "resistance",
    "virtue", "cure minor wounds", "mage armor", "zone of truth", "calm animals", "animal messenger",
    "hold portal", "knock", "unseen servant", "obscure object", "magic aura", "nystul's magic aura", "rope trick",
    "secret page", "sepia snake sigil", "illusory script", "magic mouth", "alarm", "forbiddance", "hallow",
    "unhallow", "consecrate", "desecrate", "gentle repose", "deathwatch", "status", "find traps", "word of recall",
    "refuge", "move earth", "stone shape", "transmute rock to mud", "transmute mud to rock",
    "transmute rock to mud/mud to rock", "soften earth and stone", "wood shape", "speak with dead",
    "gaseous form", "expeditious retreat", "remove curse", "magic circle against evil", "protection from evil",
)
"""Spells that do nothing in an arena fight: senses and divinations (the party is in plain sight), languages,
travel and movement (the arena is a flat field, and a monster that flees is not a fight), disguises and
self-only shape changes (no statistics change in the model), light, weather and earth shaping, wards and
long-lasting protections cast beforehand (their numbers are already in the block: mage armor, endure elements),
and cantrips of a point of damage or healing. Gaseous form is a way out of a fight (its subject "can't attack or
cast spells" and drifts at fly 10 ft.), as teleport and dimension door are, and the model has no fleeing;
expeditious retreat only raises speed, which the model (no grid) does not use; remove curse ends curses, and
nothing in the model curses (no bestow curse, no lycanthropy or mummy rot is modelled); magic circle against evil
and protection from evil ward against evil creatures, and the party is not evil (as for the magic circle a creature
has as a quality: their +2 on AC and saves and their barrier never apply, and the party casts no mental control
they would block)."""

SPELL_CLASSES = {"cast": "the engine casts it", "no effect": "nothing in an arena fight",
                 "ignored": "matters in a fight, the engine does not cast it"}

_USES = re.compile(r"(At will|Constant|Always active|(?<!\d)\d+/(?:day|hour|week|month|year|round))\s*"
                   r"(?:--|—|-)\s*", re.IGNORECASE)
_ORDINAL = r"(\d+)(?:st|nd|rd|th)"


def spell_class(name: str) -> str:
    """``cast``, ``no effect`` or ``ignored`` for a spell's name (lowercase, parentheses removed)."""
    if name in SPELLS:
        return "cast"
    if any(re.fullmatch(p, name) for p in UTILITY):
        return "no effect"
    return "ignored"


_QUALIFIER = re.compile(r"\s+(?:within an? \d+-(?:foot|ft\.?) radius|as an? (?:wizard|sorcerer|cleric|druid)\b"
                        r"|as the spell\b).*$")
"""What follows a spell's name in some lists and is not part of it: ``detect evil within a 60-foot radius``,
``invisibility as a wizard of twice the duergar's class level``."""


def _name(entry: str) -> tuple[str, int | None]:
    dc = re.search(r"\bDC (\d+)", entry)
    name = re.sub(r"\*|\b\d+d\d+\b", " ", drop_parens(entry.lower(), " "))
    name = re.sub(r"\s+", " ", name).strip(" .,;:")
    name = re.sub(r"^(?:and|or)\s+", "", name)
    name = re.sub(r"\s*/\s*", "/", _QUALIFIER.sub("", name)).strip(" .,;:")    # clairaudience/ clairvoyance
    return name, (number(dc.group(1)) if dc else None)


def _names(entry: str) -> list[tuple[str, int | None]]:
    """One list entry as the spells it names: ``detect good and detect evil`` and ``enlarge person and
    invisibility`` are two, when each part is a spell the table knows (``create food and water`` stays one)."""
    name, dc = _name(entry)
    if " and " in name and spell_class(name) == "ignored":
        parts = [_name(part)[0] for part in name.split(" and ")]
        if all(part and spell_class(part) != "ignored" for part in parts):
            return [(part, dc) for part in parts]
    return [(name, dc)]


def uses_of(word: str) -> int:
    """At will is 6 casts in a fight, N/day N (at most 6), constant none."""
    w = word.lower()
    if w.startswith("at will") or "/round" in w or "/hour" in w:
        return 6
    if w.startswith(("constant", "always")):
        return 0
    m = re.match(r"(\d+)/(day|week|month|year)", w)
    return min(6, number(m.group(1))) if m and m.group(2) == "day" else 1


def read_spell_like(text: str) -> list[tuple[str, int, int | None]]:
    """``At will--blink, hold person (DC 16); 3/day--fireball (DC 19)`` as (name, uses, DC)."""
    out: list[tuple[str, int, int | None]] = []
    marks = list(_USES.finditer(text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[m.end():end]
        body = re.split(r"\.\s+(?:Caster level|Effective caster level|The save DC|Caster Level|CL\b)|"
                        r"\bCaster level\b|\bEffective caster level\b|\.\s+(?=[A-Z])", body)[0]
        for part in _top_level_split(body, (",", ";")):
            for name, dc in _names(part):
                if name and not re.match(r"(?:these|this|it|they)\b", name):     # "these abilities affect only"
                    out.append((name, uses_of(m.group(1)), dc))
    return out


_PROSE_USES = {"once": 1, "twice": 2, "three times": 3, "four times": 4, "five times": 5}
_PROSE_NAME = re.compile(r"(?:can use|the effect of(?: an?)?|functions like(?: an?)?)\s+"
                         r"([a-z][a-z' /]{0,100}?)(?:\s+spell)?"
                         r"(?=\s*\(|\s+(?:to|as|with|by|at|once|twice|three|four|five|for|in)\b|\s*[.,;]|$)")
_PROSE_WHEN = re.compile(r"\b(once|twice|three times|four times|five times) per (day|hour)\b|\bat will\b")


def read_spell_like_prose(text: str) -> list[tuple[str, int, int | None]]:
    """Spell-like abilities written as sentences (the mephits', the unicorn's): ``Once per hour an ooze mephit can
    hurl an acidic blob that functions like acid arrow (caster level 3rd). Once per day it can ... duplicates the
    effect of stinking cloud (DC 15, caster level 6th)``; ``A unicorn can use cure light wounds three times per day
    and cure moderate wounds once per day``; ``can use detect evil at will``. Once per hour counts as at will (6
    in a fight); a sentence of uses that names no spell (a steam mephit's boiling rain) is an unnamed ability, which
    the engine does not cast; as (name, uses, DC)."""
    out: list[tuple[str, int, int | None]] = []
    for sentence in re.split(r"(?<=[.!])\s+(?=[A-Z])", text):
        low = sentence.lower()
        listing = re.search(r"the following spell-like abilities (once per day|twice per day|three times per day|"
                            r"at will)\s*:\s*(.+)", low)
        if listing:                   # the drow's "can use the following spell-like abilities once per day: ..."
            word = listing.group(1)
            uses = 6 if word == "at will" else _PROSE_USES[word.split(" per ")[0]]
            for part in _top_level_split(listing.group(2), (",",)):
                for name, dc in _names(part):
                    if name:
                        out.append((name, uses, dc))
            continue
        for part in re.split(r"\band\b(?=\s+[a-z' ]{1,100}?\s+(?:once|twice|three times|four times|five times|"
                             r"at will))", low):     # a name is bounded: "and and and ..." is not rescanned
            m = _PROSE_NAME.search(part)
            if m is None and out and part is not low:      # "and cure moderate wounds once per day"
                m = re.match(r"\s*([a-z][a-z' /]+?)(?=\s+(?:once|twice|three|four|five|at will))", part)
            when = _PROSE_WHEN.search(part) or _PROSE_WHEN.search(low)
            if when is None:
                continue
            if m is None:                 # an ability no spell names (a steam mephit's boiling rain): not modelled
                out.append((f"an unnamed ability ({sentence.strip()[:60]})", 1, None))
                continue
            uses = 6 if when.group(0) == "at will" or when.group(2) == "hour" else _PROSE_USES[when.group(1)]
            dc = re.search(r"\bDC (\d+)", part[m.end():m.end() + 40].upper())
            name = m.group(1).strip()
            out.append((name, uses, number(dc.group(1)) if dc else None))
    return out


def _prose_paragraphs(block: RawBlock, cell: Cell) -> str:
    """The ``Spell-Like Abilities:`` paragraph and the plain paragraphs that follow it, up to the next ability's
    heading (the unicorn's three paragraphs)."""
    after = sorted((c for c in block.description if c.line > cell.line), key=lambda c: c.line)
    texts = [cell.text.split(":", 1)[1] if ":" in cell.text else cell.text]
    heads = paragraph_heads(block.description).of
    for c in after:
        if heads.get(c) or not c.text.strip():
            if heads.get(c):
                break
            continue
        texts.append(c.text)
    return _clean(" ".join(texts))


def read_spell_list(text: str) -> list[tuple[str, int, int | None]]:
    """``0--daze, detect magic (2); 1st--magic missile; 2nd--scorching ray`` as (name, level, copies)."""
    out: list[tuple[str, int, int | None]] = []
    for m in re.finditer(r"(?:^|;|:)\s*(0|\d+(?:st|nd|rd|th))\s*--\s*([^;]*)", text):
        level = number(re.match(r"\d+", m.group(1)).group(0))
        for part in _top_level_split(m.group(2), (",",)):
            copies = re.search(r"\((\d+)\)", part)
            name, _ = _name(part)
            name = re.split(r"\.\s", name)[0].strip(" .")
            if name:
                out.append((name, level, number(copies.group(1)) if copies else 1))
    return out


def _caster_level(text: str, data: dict, block: RawBlock | None = None, abilities: list[dict] = ()) -> int | None:
    if block is not None and block.layout == "dragon tables":
        return _dragon_caster_level(block, abilities)
    if block is not None and re.search(r"caster level equals? (?:to )?(?:the |its |his |her )?[\w' ]*?class level",
                                       text, re.IGNORECASE) and (levels := class_levels(block.title)):
        return sum(levels.values())           # the tiefling's "caster level equal to class levels"
    m = re.search(rf"from an? {_ORDINAL}-level caster", text)
    if m:                                     # the krenshar's scare "works like a scare spell from a 3rd-level caster"
        return number(m.group(1))
    m = re.search(rf"(?:caster level|CL)\s*(?:equals\s*)?{_ORDINAL}|caster level (\d+)\b", text, re.IGNORECASE)
    if m:
        return number(m.group(1) or m.group(2))
    if re.search(r"caster level equals (?:the |its |his |her )?[\w' ]*?\bHD\b|caster level equals .*hit dice",
                 text, re.IGNORECASE):
        return sum(number(n) for n in re.findall(r"(?<!\d)(\d+)d\d+", data["hit_dice"])) or None
    m = re.search(rf"as an? {_ORDINAL}-level", text)
    return number(m.group(1)) if m else None


SORCERER_PER_DAY = {1: (5, 3), 2: (6, 4), 3: (6, 5), 4: (6, 6, 3), 5: (6, 6, 4), 6: (6, 6, 5, 3), 7: (6, 6, 6, 4),
                    8: (6, 6, 6, 5, 3), 9: (6, 6, 6, 6, 4), 10: (6, 6, 6, 6, 5, 3), 11: (6, 6, 6, 6, 6, 4),
                    12: (6, 6, 6, 6, 6, 5, 3), 13: (6, 6, 6, 6, 6, 6, 4), 14: (6, 6, 6, 6, 6, 6, 5, 3),
                    15: (6, 6, 6, 6, 6, 6, 6, 4), 16: (6, 6, 6, 6, 6, 6, 6, 5, 3), 17: (6, 6, 6, 6, 6, 6, 6, 6, 4),
                    18: (6, 6, 6, 6, 6, 6, 6, 6, 5, 3), 19: (6, 6, 6, 6, 6, 6, 6, 6, 6, 4), 20: (6,) * 10}
"""SRD 3.5 Table: The Sorcerer, spells per day by spell level 0-9 (before bonus spells)."""
SORCERER_KNOWN = {1: (4, 2), 2: (5, 2), 3: (5, 3), 4: (6, 3, 1), 5: (6, 4, 2), 6: (7, 4, 2, 1), 7: (7, 5, 3, 2),
                  8: (8, 5, 3, 2, 1), 9: (8, 5, 4, 3, 2), 10: (9, 5, 4, 3, 2, 1), 11: (9, 5, 5, 4, 3, 2),
                  12: (9, 5, 5, 4, 3, 2, 1), 13: (9, 5, 5, 4, 4, 3, 2), 14: (9, 5, 5, 4, 4, 3, 2, 1),
                  15: (9, 5, 5, 4, 4, 4, 3, 2), 16: (9, 5, 5, 4, 4, 4, 3, 2, 1), 17: (9, 5, 5, 4, 4, 4, 3, 3, 2),
                  18: (9, 5, 5, 4, 4, 4, 3, 3, 2, 1), 19: (9, 5, 5, 4, 4, 4, 3, 3, 3, 2),
                  20: (9, 5, 5, 4, 4, 4, 3, 3, 3, 3)}
"""SRD 3.5 Table: Sorcerer Spells Known, by spell level 0-9."""
DRAGON_SPELLS: dict[int, tuple[str, ...]] = {
    0: ("daze", "ray of frost"),
    1: ("magic missile", "charm person", "cause fear", "color spray", "sleep"),
    2: ("scorching ray", "web", "invisibility", "scare"),
    3: ("fireball", "hold person", "suggestion", "lightning bolt", "dispel magic"),
    4: ("ice storm", "charm monster"),
    5: ("cone of cold", "hold monster"),
}
"""A true dragon's sorcerer spells known, the engine's choice: the SRD gives the dragon's sorcerer level ("A dragon
knows and casts arcane spells as a sorcerer of the level indicated in its variety description, gaining bonus
spells for a high Charisma score") and leaves the spells to the DM, as it does a PC sorcerer's; the engine picks,
at each level, the first of its own sorcerer/wizard spells in this order (damage first, then the spells that take
a foe out of the fight), as the generated wizard's rotation does. The other cantrips a sorcerer knows (detect
magic, read magic ...) do nothing in a fight. Slots above 5th, where the engine casts no sorcerer spell, hold the
spells known of the highest level below (the SRD lets a caster use a higher-level slot for a lower-level spell);
a sorcerer casts spontaneously, which the model reads as its slots filled in turn with its spells known."""


def _dragon_sorcerer(block: RawBlock, spells: list[dict], cha: int) -> tuple[int, dict[int, list[str]]] | None:
    """A true dragon's sorcerer spells (:data:`DRAGON_SPELLS`), from the caster level of its ``Spells (caster level
    Nth)`` entry: (caster level, spells by slot level); None for any other block."""
    if block.layout != "dragon tables":
        return None
    m = next((re.search(rf"caster level {_ORDINAL}", a["name"]) for a in spells
              if re.search(rf"caster level {_ORDINAL}", a["name"])), None)
    if m is None or number(m.group(1)) not in SORCERER_PER_DAY:
        return None
    level = number(m.group(1))
    per_day, known = SORCERER_PER_DAY[level], SORCERER_KNOWN[level]
    chosen: dict[int, list[str]] = {}
    best: tuple[str, ...] = ()
    for lvl, slots in enumerate(per_day):
        count = known[lvl] if lvl < len(known) else 0
        mine = DRAGON_SPELLS.get(lvl, ())[:count]
        if mine:
            best = mine
        elif lvl:
            mine = best                                  # a higher slot for the best lower-level spells
        slots += bonus_spells(cha, lvl)
        if mine and slots:
            chosen[lvl] = [mine[i % len(mine)] for i in range(slots)]
    return level, chosen


def _dragon_caster_level(block: RawBlock, abilities: list[dict]) -> int | None:
    """SRD true dragons: "Its age category or its sorcerer caster level, whichever is higher, is the caster level
    for these abilities" (age categories 1, wyrmling, to 12, great wyrm)."""
    age = block.title.split(", ")[-1].strip().lower()
    ages = [a.lower() for a in AGES]
    if age not in ages:
        return None
    level = ages.index(age) + 1
    for a in abilities:
        m = re.search(rf"caster level {_ORDINAL}", a["name"]) if a["key"] == "spells" else None
        if m:
            level = max(level, number(m.group(1)))
    return level


def spell_fields(block: RawBlock, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The ``spellcasting`` and ``tactics`` of the block when every spell-like ability or spell it lists that
    matters in a fight is one the engine casts; sets the entries' ``engine`` and ``notes``."""
    out: dict = {}
    block = own_section(block)
    score = data["abilities"].get("cha")
    cha = (score - 10) // 2 if score else 0
    prepared: dict[int, list[str]] = {}
    levels: list[int] = []
    like = [a for a in abilities if a["key"] == "spell-like abilities"]
    if like:
        listed, text = _spell_like_list(block, like)
        verdict = _verdict(listed, "spell-like abilities")
        if verdict is None:
            _set(abilities, "spell-like abilities", "ignored", "no list of its spell-like abilities read")
        elif verdict[0]:
            _set(abilities, "spell-like abilities", "ignored", verdict[1])
        elif not any(spell_class(n) == "cast" for n, _, _ in listed):
            _set(abilities, "spell-like abilities", "no effect", verdict[1])
        else:
            level = _caster_level(text, data, block, abilities)
            if level is None:
                _set(abilities, "spell-like abilities", "ignored", "no caster level read")
            else:
                for name, uses, dc in listed:
                    if spell_class(name) == "cast" and uses:
                        lvl = dc - 10 - cha if dc and 0 < dc - 10 - cha <= 9 else SPELL_LEVELS[name]
                        prepared.setdefault(lvl, []).extend([name] * uses)
                levels.append(level)
                _set(abilities, "spell-like abilities", "modelled", verdict[1])
    spells = [a for a in abilities if a["key"] == "spells"]
    if spells:
        text = _spell_list_text(block)
        listed = read_spell_list(text) if text else []
        dragon = _dragon_sorcerer(block, spells, cha) if not listed else None
        if dragon is not None:
            level, chosen = dragon
            for lvl, names in chosen.items():
                prepared.setdefault(lvl, []).extend(names)
            levels.append(level)
            _set(abilities, "spells", "modelled", "spellcasting: a sorcerer of caster level "
                 f"{level}, its spells known the engine's choice (DRAGON_SPELLS): "
                 + ", ".join(dict.fromkeys(n for names in chosen.values() for n in names)))
        elif not listed:
            _set(abilities, "spells", "ignored", "the text lists no spells (a caster's choice of the class list): "
                                                 "nothing the engine can cast")
        else:
            verdict = _verdict([(n, c, None) for n, _, c in listed], "spells")
            level = _caster_level(" ".join(c.text for c in block.description), data)
            if not verdict[0] and not any(spell_class(n) == "cast" for n, _, _ in listed):
                _set(abilities, "spells", "no effect", verdict[1])
            elif verdict[0] or level is None:
                _set(abilities, "spells", "ignored", verdict[1] if verdict[0] else "no caster level read")
            else:
                for name, lvl, copies in listed:
                    if spell_class(name) == "cast":
                        prepared.setdefault(lvl, []).extend([name] * copies)
                levels.append(level)
                _set(abilities, "spells", "modelled", verdict[1])
    if prepared and all(a["engine"] != "ignored" for a in abilities if a["key"] in ("spells", "spell-like abilities")):
        ability = "wis" if re.search(r"Wisdom-based", " ".join(c.text for c in block.description)) and not like \
            else "cha"
        out["spellcasting"] = {"caster_level": max(levels), "ability": ability,
                               "prepared": {k: v for k, v in sorted(prepared.items())}}
        out["tactics"] = "caster"
    elif prepared:
        for a in abilities:
            if a["key"] in ("spells", "spell-like abilities") and a["engine"] == "modelled":
                a["engine"] = "ignored"
                a["notes"] += "; its other spells are not all modelled, so none is cast"
    return out


def _is_table_start(line: str) -> bool:
    return line.lstrip().startswith("|") and any(is_type_line(cell) for cell in line.split("|")[1:3] if cell.strip())


def _is_heading(line: str) -> bool:
    return _HEADING.fullmatch(line.strip()) is not None


def _table_starts(block: RawBlock) -> list[int]:
    """The (1-based) lines where a stat table of the block's file starts (its type row, ``| | Large Aberration |``)."""
    return [i + 1 for i in lines_where(block.context, "table start", _is_table_start)]


def own_section(block: RawBlock) -> RawBlock:
    """The block with only its own creature's description paragraphs, for reading its spells: a table block's
    description runs into its neighbours' prose (the duergar's held the dryad's spell-like abilities, the silver
    dragon's the drider's spells). Kept: from the last capitalised heading (``DWARF``) above the block's stat table
    to the next stat table; a block with no stat table above it (the true dragons' tables by age) keeps everything
    above, its family's general rules."""
    if block.layout not in ("table", "dragon tables"):
        return block
    if not block.context:          # a true dragon (built from its variety's tables): up to the next heading
        after = min((c.line for c in block.description if c.line > block.line
                     and _HEADING.fullmatch(c.text.strip())), default=None)
        if after is None:
            return block
        return dataclasses.replace(block, description=[c for c in block.description if c.line < after])
    starts = _table_starts(block)
    headings = lines_where(block.context, "heading", _is_heading)       # 0-based, ascending
    k = bisect.bisect_right(starts, block.line + 2)
    own = starts[k - 1] if k else 0
    # the next stat table with a creature heading between (the formians' two tables share one description)
    h = bisect.bisect_left(headings, block.line + 2)
    k = bisect.bisect_right(starts, max(block.line + 2, headings[h] + 1)) if h < len(headings) else len(starts)
    after = starts[k] if k < len(starts) else len(block.context) + 1
    above = nearest_before(headings, own - 1) if own else None
    first = 0 if above is None else above + 1
    kept = [c for c in block.description if first <= c.line < after]
    return dataclasses.replace(block, description=kept, context_end=after - 1)


_HEADING = re.compile(r"[A-Z][A-Z ,'\-]{2,}")
"""A chapter's creature heading: ``DWARF``, ``DRAGON TURTLE``."""


def _spell_like_list(block: RawBlock, items: list[dict]) -> tuple[list[tuple[str, int, int | None]], str]:
    listed: list[tuple[str, int, int | None]] = []
    text = ""
    for item in items:
        name = _clean(item["name"])
        if re.fullmatch(r"(?i)spell-? ?like abilit(?:y|ies)|psionics", name.strip()):
            cell = own_description(block, "spell-like abilities") or own_description(block, "psionics") \
                or _trait_line(block)
            if cell is not None and not _USES.search(cell.text):
                prose = _prose_paragraphs(block, cell)      # "Once per hour an air mephit can ..."
                cell = None
                if read_spell_like_prose(prose):
                    text = prose
                    listed += read_spell_like_prose(prose)
            if cell is not None:
                text = _clean(cell.text)
                listed += read_spell_like(text)
        else:
            m = _USES.search(name)
            spell, dc = _name(_USES.sub("", name))
            desc = own_description(block, spell)
            if desc is not None and re.search(r"\btogether\b", desc.text):       # formian workers' circle
                spell = f"{spell} (by several of them together)"
            uses = uses_of(m.group(1)) if m else _dragon_uses(block).get(spell, 1)
            listed.append((spell, uses, dc))
    if not text:
        text = " ".join(_clean(c.text) for c in block.description
                        if re.search(r"caster level|-level caster\b", c.text, re.I))
    return listed, text


def _dragon_uses(block: RawBlock) -> dict[str, int]:
    """A true dragon's uses a day of each spell-like ability its variety lists (``Other Spell-Like Abilities:
    3/day--darkness (juvenile or older ...)``): "All spell-like abilities are usable once per day unless otherwise
    noted" (the SRD's general rule, so 1 for the rest)."""
    if block.layout != "dragon tables":
        return {}
    variety = block.title.split(" ")[0].lower()
    for cell in block.description:
        if re.match(r"(?:Other )?Spell-Like Abilities:\s*(?:At will|\d+/day)", cell.text) \
                and _variety_of(block, cell) == variety:
            return {name: uses for name, uses, _ in read_spell_like(_clean(cell.text))}
    return {}


def _variety_of(block: RawBlock, cell: Cell) -> str | None:
    """The dragon variety (``black``) whose section holds ``cell``: the nearest ``BLACK DRAGON`` heading above."""
    best = None
    for c in block.description:
        m = re.fullmatch(r"([A-Z]+) DRAGON", c.text.strip())
        if m and c.line < cell.line and (best is None or c.line > best[0]):
            best = (c.line, m.group(1).lower())
    return best[1] if best else None


def _trait_line(block: RawBlock) -> Cell | None:
    """A racial trait's ``--Spell-Like Abilities: 1/day--...`` line (the duergar's), as a paragraph."""
    found = [Cell(m.group(1), cell.line) for cell in block.description
             if (m := re.match(r"\s*-+\s*(Spell-Like Abilities:.*)", cell.text))]
    if len(found) < 2:
        return found[0] if found else None
    words = [w for w in re.findall(r"[a-z]+", block.title.lower()) if len(w) > 3]      # the svirfneblin's, not
    return max(found, key=lambda c: sum(1 for w in words if re.search(rf"\b{w}", c.text.lower())))   # the gnome's


def _spell_list_text(block: RawBlock) -> str:
    end = len(block.context) if block.context_end is None else block.context_end
    lines = [*(c.text for c in block.description), *block.context[block.line:min(block.line + 200, end)]]
    for line in lines:
        if re.search(r"Spells (?:Known|Prepared)\s*\(", line):
            return _clean(line.split(":", 1)[1]) if ":" in line else _clean(line)
    return ""


def _verdict(listed: list[tuple[str, int, int | None]], what: str) -> tuple[bool, str] | None:
    """(any unsupported, the note) for the spells listed."""
    if not listed:
        return None
    names = list(dict.fromkeys(n for n, _, _ in listed))
    cast = [n for n in names if spell_class(n) == "cast"]
    unsupported = [n for n in names if spell_class(n) == "ignored"]
    utility = [n for n in names if spell_class(n) == "no effect"]
    if unsupported:
        return True, (f"the engine does not cast {', '.join(unsupported)}"
                      + (f" (it casts {', '.join(cast)})" if cast else ""))
    if not cast:
        return False, f"no effect in an arena fight: {', '.join(utility)}"
    return False, (f"spellcasting: {', '.join(cast)}" + (f"; no effect in a fight: {', '.join(utility)}"
                                                         if utility else ""))
