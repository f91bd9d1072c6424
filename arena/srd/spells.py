"""Spell-like abilities and spells of SRD stat blocks: which of them the engine casts, which do nothing in an arena
fight, and the ``spellcasting`` field when every one that matters is one the engine casts.

:func:`spell_fields` reads the block's ``Spell-Like Abilities: At will--...; 3/day--...; 1/day--... Caster level
6th.`` paragraph (and the single spell-like abilities of its Special Attacks or Qualities, a true dragon's
``Bless``: once a day, as the dragons' general rule says) and its ``Typical ... Spells Known/Prepared (...): 0--...;
1st--...`` list, and sorts each spell by :func:`~arena.srd.spell_tables.spell_class`: ``cast`` (the engine casts it:
:data:`arena.world.spellbook.SPELLS`), ``no effect`` (:data:`~arena.srd.spell_tables.UTILITY`: senses, languages,
travel, shape and disguise, weather, light: nothing in an arena fight) or ``ignored`` (matters in a fight, the
engine does not cast it). The entry is ``modelled`` when every spell it lists that matters is one the engine casts:
the creature gets ``spellcasting: {caster_level, ability, prepared}`` (a spell-like ability at will is 6 casts,
3/day 3, 1/day 1; its level from the SRD's DC where one is given, ``10 + level + Charisma``, else
:data:`~arena.srd.spell_tables.SPELL_LEVELS`) and ``tactics: caster``; otherwise it stays ``ignored`` and its notes
name the spells the engine does not cast.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from arena.srd.context import Reading
from arena.srd.dragons import AGES
from arena.srd.fields import class_levels
from arena.srd.patterns import DIE, ORDINAL, ROLL, TIMES
from arena.srd.prose import own_description, own_section, paragraph_heads
from arena.srd.spell_tables import DRAGON_SPELLS, SORCERER_KNOWN, SORCERER_PER_DAY, SPELL_LEVELS, spell_class
from arena.srd.text import Cell, RawBlock, clean, drop_parens, number, top_level_split
from arena.srd.vocabulary import LEADING_AND_OR
from arena.world.class_tables import bonus_spells
from arena.world.stat_types import ability_modifier

USES = re.compile(
    r"(At will|Constant|Always active|(?<!\d)\d+/(?:day|hour|week|month|year|round))\s*(?:--|—|-)\s*", re.IGNORECASE
)
"""The uses that head a group of spell-like abilities: ``At will--``, ``3/day--``, ``Constant--``."""
QUALIFIER = re.compile(
    r"\s+(?:within an? \d+-(?:foot|ft\.?) radius|as an? (?:wizard|sorcerer|cleric|druid)\b"
    r"|as the spell\b).*$"
)
"""What follows a spell's name in some lists and is not part of it: ``detect evil within a 60-foot radius``,
``invisibility as a wizard of twice the duergar's class level``."""
SPELL_DC = re.compile(r"\bDC (\d+)")
"""A spell's DC: ``hold person (DC 16)``."""
NOT_THE_NAME = re.compile(rf"\*|\b{ROLL}\b")
"""A footnote's mark and dice, left out of a spell's name: ``invisibility*``, ``summon 1d4 dretches``."""
SLASH = re.compile(r"\s*/\s*")
"""A slash and its blanks: ``clairaudience/ clairvoyance``."""
PER_DAY = re.compile(r"(\d+)/(day|week|month|year)")
"""``3/day``, ``1/week``."""
GROUP_END = re.compile(
    r"\.\s+(?:Caster level|Effective caster level|The save DC|Caster Level|CL\b)|"
    r"\bCaster level\b|\bEffective caster level\b|\.\s+(?=[A-Z])"
)
"""Where a group of spells ends: ``fireball (DC 19). Caster level 6th.``."""
NOT_A_SPELL = re.compile(r"(?:these|this|it|they)\b")
"""A sentence after the list, not a spell: ``these abilities affect only ...``."""
SENTENCE = re.compile(r"(?<=[.!])\s+(?=[A-Z])")
"""Between two sentences."""
LISTING = re.compile(
    r"the following spell-like abilities (once per day|twice per day|three times per day|at will)\s*:"
    r"\s*(.+)"
)
"""The drow's (lowercase): ``can use the following spell-like abilities once per day: dancing lights, darkness,
faerie fire``."""
PROSE_NAME = re.compile(
    r"(?:can use|the effect of(?: an?)?|functions like(?: an?)?)\s+"
    r"([a-z][a-z' /]{0,100}?)(?:\s+spell)?"
    r"(?=\s*\(|\s+(?:to|as|with|by|at|once|twice|three|four|five|for|in)\b|\s*[.,;]|$)"
)
"""A spell named in a sentence (lowercase): ``functions like acid arrow (caster level 3rd)``, ``duplicates the
effect of stinking cloud``, ``can use detect evil at will``."""
PROSE_WHEN = re.compile(r"\b(once|twice|three times|four times|five times) per (day|hour)\b|\bat will\b")
"""How often, in a sentence (lowercase): ``three times per day``, ``once per hour``, ``at will``."""
AND_NEXT = re.compile(r"\band\b(?=\s+[a-z' ]{1,100}?\s+(?:once|twice|three times|four times|five times|at will))")
"""Between two spells of a sentence, each with its uses: ``cure light wounds three times per day and cure moderate
wounds once per day``. A name is bounded: ``and and and ...`` is not rescanned."""
NEXT_NAME = re.compile(r"\s*([a-z][a-z' /]+?)(?=\s+(?:once|twice|three|four|five|at will))")
"""The second spell of such a sentence: ``cure moderate wounds once per day``."""
SPELL_LIST = re.compile(rf"(?:^|;|:)\s*(?:0|{ORDINAL})\s*--\s*([^;]*)")
"""A level of a list of spells known or prepared: ``0--daze, detect magic (2); 1st--magic missile``."""
COPIES = re.compile(r"\((\d+)\)")
"""A spell prepared more than once: ``detect magic (2)``."""
NAME_END = re.compile(r"\.\s")
"""Where a spell's name ends in a list that runs on: ``magic missile. Typical ...``."""
CASTER_LEVEL = re.compile(rf"caster level {ORDINAL}")
"""``Spells (caster level 7th)``."""
CLASS_LEVEL_CASTER = re.compile(
    r"caster level equals? (?:to )?(?:the |its |his |her )?[\w' ]*?class level", re.IGNORECASE
)
"""The tiefling's: ``caster level equal to the tiefling's class levels``."""
LEVEL_CASTER = re.compile(rf"from an? {ORDINAL}-level caster")
"""The krenshar's: ``works like a scare spell from a 3rd-level caster``."""
CASTER_LEVEL_ANY = re.compile(rf"(?:caster level|CL)\s*(?:equals\s*)?{ORDINAL}|caster level (\d+)\b", re.IGNORECASE)
"""``Caster level 6th``, ``CL 12th``, ``caster level 9``."""
HD_CASTER = re.compile(
    r"caster level equals (?:the |its |his |her )?[\w' ]*?\bHD\b|caster level equals .*hit dice", re.IGNORECASE
)
"""``caster level equals the creature's HD``."""
HIT_DICE_COUNT = re.compile(rf"(?<!\d)(\d+){DIE}")
"""The dice of a hit dice expression: ``6`` of ``6d8+36``."""
AS_LEVEL = re.compile(rf"as an? {ORDINAL}-level")
"""``as a 7th-level sorcerer``."""
WISDOM_BASED = "Wisdom-based"
"""``The save DCs are Wisdom-based``."""
LIKE_NAME = re.compile(r"(?i)spell-? ?like abilit(?:y|ies)|psionics")
"""The entries that name a list of spell-like abilities: ``Spell-like abilities``, ``Psionics``."""
TOGETHER = re.compile(r"\btogether\b")
"""A formian workers' circle: ``Five workers together can create a cure serious wounds effect``."""
CASTER_WORDS = re.compile(r"caster level|-level caster\b", re.I)
"""A paragraph that gives a caster level: ``Caster level 6th``, ``as a 7th-level caster``."""
DRAGON_LIKE = re.compile(r"(?:Other )?Spell-Like Abilities:\s*(?:At will|\d+/day)")
"""A dragon variety's list: ``Other Spell-Like Abilities: 3/day--darkness (juvenile or older ...)``."""
DRAGON_HEADING = re.compile(r"([A-Z]+) DRAGON")
"""A variety's heading: ``BLACK DRAGON``."""
TRAIT_LINE = re.compile(r"\s*-+\s*(Spell-Like Abilities:.*)")
"""A racial trait's line: ``--Spell-Like Abilities: 1/day--blindness/deafness, blur, disguise self``."""
SPELLS_KNOWN = re.compile(r"Spells (?:Known|Prepared)\s*\(")
"""``Typical Sorcerer Spells Known (6/7/4; save DC 13 + spell level): 0--...``."""


# --------------------------------------------------------------------------------------------- names and uses
def spell_name(entry: str) -> tuple[str, int | None]:
    """A list entry's spell and DC: ``hold person (DC 16)`` -> ``("hold person", 16)``."""
    dc = SPELL_DC.search(entry)
    name = NOT_THE_NAME.sub(" ", drop_parens(entry.lower(), " "))
    name = LEADING_AND_OR.sub("", " ".join(name.split()).strip(" .,;:"))
    name = SLASH.sub("/", QUALIFIER.sub("", name)).strip(" .,;:")
    return name, (number(dc.group(1)) if dc else None)


def spell_names(entry: str) -> list[tuple[str, int | None]]:
    """One list entry as the spells it names: ``detect good and detect evil`` and ``enlarge person and
    invisibility`` are two, when each part is a spell the table knows (``create food and water`` stays one)."""
    name, dc = spell_name(entry)
    if " and " in name and spell_class(name) == "ignored":
        parts = [spell_name(part)[0] for part in name.split(" and ")]
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
    m = PER_DAY.match(w)
    return min(6, number(m.group(1))) if m and m.group(2) == "day" else 1


def read_spell_like(text: str) -> list[tuple[str, int, int | None]]:
    """``At will--blink, hold person (DC 16); 3/day--fireball (DC 19)`` as (name, uses, DC)."""
    out: list[tuple[str, int, int | None]] = []
    marks = list(USES.finditer(text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = GROUP_END.split(text[m.end() : end])[0]
        for part in top_level_split(body, (",", ";")):
            for name, dc in spell_names(part):
                if name and not NOT_A_SPELL.match(name):
                    out.append((name, uses_of(m.group(1)), dc))
    return out


def read_spell_like_prose(text: str) -> list[tuple[str, int, int | None]]:
    """Spell-like abilities written as sentences (the mephits', the unicorn's): ``Once per hour an ooze mephit can
    hurl an acidic blob that functions like acid arrow (caster level 3rd). Once per day it can ... duplicates the
    effect of stinking cloud (DC 15, caster level 6th)``; ``A unicorn can use cure light wounds three times per day
    and cure moderate wounds once per day``; ``can use detect evil at will``. Once per hour counts as at will (6
    in a fight); a sentence of uses that names no spell (a steam mephit's boiling rain) is an unnamed ability, which
    the engine does not cast; as (name, uses, DC)."""
    out: list[tuple[str, int, int | None]] = []
    for sentence in SENTENCE.split(text):
        low = sentence.lower()
        listing = LISTING.search(low)
        if listing:
            word = listing.group(1)
            uses = 6 if word == "at will" else TIMES[word.split(" per ")[0]]
            out += [
                (name, uses, dc)
                for part in top_level_split(listing.group(2), (",",))
                for name, dc in spell_names(part)
                if name
            ]
            continue
        for part in AND_NEXT.split(low):
            m = PROSE_NAME.search(part)
            if m is None and out and part is not low:  # "and cure moderate wounds once per day"
                m = NEXT_NAME.match(part)
            when = PROSE_WHEN.search(part) or PROSE_WHEN.search(low)
            if when is None:
                continue
            if m is None:  # an ability no spell names (a steam mephit's boiling rain): not modelled
                out.append((f"an unnamed ability ({sentence.strip()[:60]})", 1, None))
                continue
            uses = 6 if when.group(0) == "at will" or when.group(2) == "hour" else TIMES[when.group(1)]
            dc = SPELL_DC.search(part[m.end() : m.end() + 40].upper())
            out.append((m.group(1).strip(), uses, number(dc.group(1)) if dc else None))
    return out


def read_spell_list(text: str) -> list[tuple[str, int, int]]:
    """``0--daze, detect magic (2); 1st--magic missile; 2nd--scorching ray`` as (name, level, copies)."""
    out: list[tuple[str, int, int]] = []
    for m in SPELL_LIST.finditer(text):
        level = number(m.group(1) or "0")
        for part in top_level_split(m.group(2), (",",)):
            copies = COPIES.search(part)
            name = NAME_END.split(spell_name(part)[0])[0].strip(" .")
            if name:
                out.append((name, level, number(copies.group(1)) if copies else 1))
    return out


# --------------------------------------------------------------------------------------------- caster level
def caster_level(text: str, data: dict, block: RawBlock | None = None, abilities: Sequence[dict] = ()) -> int | None:
    """The caster level a block's text gives its spells (``Caster level 6th``, ``as a 7th-level sorcerer``, its HD or
    class levels where the text says so); a true dragon's by its age (:func:`dragon_caster_level`)."""
    if block is not None and block.layout == "dragon tables":
        return dragon_caster_level(block, abilities)
    if block is not None and CLASS_LEVEL_CASTER.search(text) and (levels := class_levels(block.title)):
        return sum(levels.values())
    m = LEVEL_CASTER.search(text)
    if m:
        return number(m.group(1))
    m = CASTER_LEVEL_ANY.search(text)
    if m:
        return number(m.group(1) or m.group(2))
    if HD_CASTER.search(text):
        return sum(number(n) for n in HIT_DICE_COUNT.findall(data["hit_dice"])) or None
    m = AS_LEVEL.search(text)
    return number(m.group(1)) if m else None


def dragon_sorcerer(block: RawBlock, spells: list[dict], cha: int) -> tuple[int, dict[int, list[str]]] | None:
    """A true dragon's sorcerer spells (:data:`~arena.srd.spell_tables.DRAGON_SPELLS`), from the caster level of its
    ``Spells (caster level Nth)`` entry: (caster level, spells by slot level); None for any other block."""
    if block.layout != "dragon tables":
        return None
    m = next((found for a in spells if (found := CASTER_LEVEL.search(a["name"]))), None)
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
            mine = best  # a higher slot for the best lower-level spells
        slots += bonus_spells(cha, lvl)
        if mine and slots:
            chosen[lvl] = [mine[i % len(mine)] for i in range(slots)]
    return level, chosen


def dragon_caster_level(block: RawBlock, abilities: Sequence[dict]) -> int | None:
    """SRD true dragons: "Its age category or its sorcerer caster level, whichever is higher, is the caster level
    for these abilities" (age categories 1, wyrmling, to 12, great wyrm)."""
    age = block.title.split(", ")[-1].strip().lower()
    ages = [a.lower() for a in AGES]
    if age not in ages:
        return None
    level = ages.index(age) + 1
    for a in abilities:
        m = CASTER_LEVEL.search(a["name"]) if a["key"] == "spells" else None
        if m:
            level = max(level, number(m.group(1)))
    return level


# --------------------------------------------------------------------------------------------- the field
def spell_fields(ctx: Reading) -> dict:
    """The ``spellcasting`` and ``tactics`` of the block when every spell-like ability or spell it lists that
    matters in a fight is one the engine casts; sets the entries' ``engine`` and ``notes``."""
    block = own_section(ctx.block)
    score = ctx.data["abilities"].get("cha")
    cha = ability_modifier(score)  # the reader refuses a score of 0: a number here is 1 or more
    prepared: dict[int, list[str]] = {}
    levels: list[int] = []
    like = [a for a in ctx.abilities if a["key"] == "spell-like abilities"]
    if like:
        _spell_like(ctx, block, like, cha, prepared, levels)
    spells = [a for a in ctx.abilities if a["key"] == "spells"]
    if spells:
        _spells(ctx, block, spells, cha, prepared, levels)
    engines = [a["engine"] for a in ctx.abilities if a["key"] in ("spells", "spell-like abilities")]
    if prepared and all(engine != "ignored" for engine in engines):
        text = " ".join(c.text for c in block.description)
        return {
            "spellcasting": {
                "caster_level": max(levels),
                "ability": "wis" if WISDOM_BASED in text and not like else "cha",
                "prepared": dict(sorted(prepared.items())),
            },
            "tactics": "caster",
        }
    if prepared:
        for a in ctx.abilities:
            if a["key"] in ("spells", "spell-like abilities") and a["engine"] == "modelled":
                a["engine"] = "ignored"
                a["notes"] += "; its other spells are not all modelled, so none is cast"
    return {}


def _spell_like(
    ctx: Reading, block: RawBlock, like: list[dict], cha: int, prepared: dict[int, list[str]], levels: list[int]
) -> None:
    key = "spell-like abilities"
    listed, text = _spell_like_list(block, like)
    verdict = _verdict(listed)
    if not listed:
        ctx.mark(key, "ignored", "no list of its spell-like abilities read")
    elif verdict[0]:
        ctx.mark(key, "ignored", verdict[1])
    elif not any(spell_class(n) == "cast" for n, _, _ in listed):
        ctx.mark(key, "no effect", verdict[1])
    elif (level := caster_level(text, ctx.data, block, ctx.abilities)) is None:
        ctx.mark(key, "ignored", "no caster level read")
    else:
        for name, uses, dc in listed:
            if spell_class(name) == "cast" and uses:
                lvl = dc - 10 - cha if dc and 0 < dc - 10 - cha <= 9 else SPELL_LEVELS[name]
                prepared.setdefault(lvl, []).extend([name] * uses)
        levels.append(level)
        ctx.mark(key, "modelled", verdict[1])


def _spells(
    ctx: Reading, block: RawBlock, spells: list[dict], cha: int, prepared: dict[int, list[str]], levels: list[int]
) -> None:
    text = _spell_list_text(block)
    listed = read_spell_list(text) if text else []
    dragon = dragon_sorcerer(block, spells, cha) if not listed else None
    if dragon is not None:
        level, chosen = dragon
        for lvl, names in chosen.items():
            prepared.setdefault(lvl, []).extend(names)
        levels.append(level)
        ctx.mark(
            "spells",
            "modelled",
            f"spellcasting: a sorcerer of caster level {level}, its spells known the "
            "engine's choice (DRAGON_SPELLS): "
            + ", ".join(dict.fromkeys(n for names in chosen.values() for n in names)),
        )
        return
    if not listed:
        ctx.mark(
            "spells",
            "ignored",
            "the text lists no spells (a caster's choice of the class list): nothing the engine can cast",
        )
        return
    verdict = _verdict([(n, c, None) for n, _, c in listed])
    caster = caster_level(" ".join(c.text for c in block.description), ctx.data)
    if not verdict[0] and not any(spell_class(n) == "cast" for n, _, _ in listed):
        ctx.mark("spells", "no effect", verdict[1])
    elif verdict[0] or caster is None:
        ctx.mark("spells", "ignored", verdict[1] if verdict[0] else "no caster level read")
    else:
        for name, lvl, copies in listed:
            if spell_class(name) == "cast":
                prepared.setdefault(lvl, []).extend([name] * copies)
        levels.append(caster)
        ctx.mark("spells", "modelled", verdict[1])


# --------------------------------------------------------------------------------------------- the lists
def _prose_paragraphs(block: RawBlock, cell: Cell) -> str:
    """The ``Spell-Like Abilities:`` paragraph and the plain paragraphs that follow it, up to the next ability's
    heading (the unicorn's three paragraphs)."""
    after = sorted((c for c in block.description if c.line > cell.line), key=lambda c: c.line)
    texts = [cell.text.split(":", 1)[1] if ":" in cell.text else cell.text]
    heads = paragraph_heads(block.description).of
    for c in after:
        if heads.get(c):
            break
        if c.text.strip():
            texts.append(c.text)
    return clean(" ".join(texts))


def _spell_like_list(block: RawBlock, items: list[dict]) -> tuple[list[tuple[str, int, int | None]], str]:
    listed: list[tuple[str, int, int | None]] = []
    text = ""
    for item in items:
        name = clean(item["name"])
        if LIKE_NAME.fullmatch(name.strip()):
            cell = (
                own_description(block, "spell-like abilities")
                or own_description(block, "psionics")
                or _trait_line(block)
            )
            if cell is not None and not USES.search(cell.text):
                prose = _prose_paragraphs(block, cell)  # "Once per hour an air mephit can ..."
                cell = None
                if read_spell_like_prose(prose):
                    text = prose
                    listed += read_spell_like_prose(prose)
            if cell is not None:
                text = clean(cell.text)
                listed += read_spell_like(text)
        else:
            m = USES.search(name)
            spell, dc = spell_name(USES.sub("", name))
            desc = own_description(block, spell)
            if desc is not None and TOGETHER.search(desc.text):
                spell = f"{spell} (by several of them together)"
            uses = uses_of(m.group(1)) if m else _dragon_uses(block).get(spell, 1)
            listed.append((spell, uses, dc))
    if not text:
        text = " ".join(clean(c.text) for c in block.description if CASTER_WORDS.search(c.text))
    return listed, text


def _dragon_uses(block: RawBlock) -> dict[str, int]:
    """A true dragon's uses a day of each spell-like ability its variety lists (``Other Spell-Like Abilities:
    3/day--darkness (juvenile or older ...)``): "All spell-like abilities are usable once per day unless otherwise
    noted" (the SRD's general rule, so 1 for the rest)."""
    if block.layout != "dragon tables":
        return {}
    variety = block.title.split(" ")[0].lower()
    for cell in block.description:
        if DRAGON_LIKE.match(cell.text) and _variety_of(block, cell) == variety:
            return {name: uses for name, uses, _ in read_spell_like(clean(cell.text))}
    return {}


def _variety_of(block: RawBlock, cell: Cell) -> str | None:
    """The dragon variety (``black``) whose section holds ``cell``: the nearest ``BLACK DRAGON`` heading above."""
    best = None
    for c in block.description:
        m = DRAGON_HEADING.fullmatch(c.text.strip())
        if m and c.line < cell.line and (best is None or c.line > best[0]):
            best = (c.line, m.group(1).lower())
    return best[1] if best else None


def _trait_line(block: RawBlock) -> Cell | None:
    """A racial trait's ``--Spell-Like Abilities: 1/day--...`` line (the duergar's), as a paragraph; of several, the
    one that names the creature (the svirfneblin's, not the gnome's)."""
    found = [Cell(m.group(1), cell.line) for cell in block.description if (m := TRAIT_LINE.match(cell.text))]
    if len(found) < 2:
        return found[0] if found else None
    words = [w for w in re.findall(r"[a-z]+", block.title.lower()) if len(w) > 3]
    return max(found, key=lambda c: sum(1 for w in words if re.search(rf"\b{w}", c.text.lower())))


def _spell_list_text(block: RawBlock) -> str:
    end = len(block.context) if block.context_end is None else block.context_end
    lines = [*(c.text for c in block.description), *block.context[block.line : min(block.line + 200, end)]]
    for line in lines:
        if SPELLS_KNOWN.search(line):
            return clean(line.split(":", 1)[1]) if ":" in line else clean(line)
    return ""


def _verdict(listed: list[tuple[str, int, int | None]]) -> tuple[bool, str]:
    """(any unsupported, the note) for the spells listed."""
    names = list(dict.fromkeys(n for n, _, _ in listed))
    cast = [n for n in names if spell_class(n) == "cast"]
    unsupported = [n for n in names if spell_class(n) == "ignored"]
    utility = [n for n in names if spell_class(n) == "no effect"]
    if unsupported:
        return True, (
            f"the engine does not cast {', '.join(unsupported)}" + (f" (it casts {', '.join(cast)})" if cast else "")
        )
    if not cast:
        return False, f"no effect in an arena fight: {', '.join(utility)}"
    return False, (
        f"spellcasting: {', '.join(cast)}" + (f"; no effect in a fight: {', '.join(utility)}" if utility else "")
    )
