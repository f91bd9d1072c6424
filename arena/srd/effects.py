"""Special abilities that become stat-block fields once a block's attacks are known, second part: poison, ability
damage and drain on a hit, energy drain, rake, rage, burn, heat, gaze attacks, swallow whole, web, the breath
weapons that deal no damage (the metallic dragons' sleep, paralysis, slow and weakening gas), stench, trample,
powerful charge and incorporeality.

As :mod:`arena.srd.holds` does for pounce or paralysis, :func:`effect_fields` reads each ability's numbers
from its description in the block's text (``Poison (Ex): Injury, Fortitude DC 13, initial damage 1d6 Str,
secondary damage 2d6 Str``), or from the family's table by size (monstrous spiders, scorpions and centipedes,
viper snakes, fire elementals: :func:`size_row`), names the attack of the routines that delivers it, fills the
:class:`~arena.world.creatures.Creature` field and marks the ability ``modelled``. An ability whose numbers cannot
be read stays ``ignored`` with an ``unread`` note; one whose effect the engine's field cannot carry (a poison of
sleep or paralysis rather than ability damage, a gaze that dazes, a repulsion breath, a touch that deals no
hit-point damage and so is not an attack the engine rolls) stays ``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.fields import AttackRead, Notes, _clean, number
from arena.srd.holds import (
    _DICE,
    ROUNDS_PER,
    _attack_names,
    _description,
    _field_name,
    _first,
    _ignored,
    _named,
    _rounds,
    _set,
    _singular,
    _unread,
)
from arena.srd.text import Cell, RawBlock, drop_parens, search_chain

ABILITY_WORDS = {"str": "str", "strength": "str", "dex": "dex", "dexterity": "dex", "con": "con",
                 "constitution": "con", "int": "int", "intelligence": "int", "wis": "wis", "wisdom": "wis",
                 "cha": "cha", "charisma": "cha"}
_ABILITY = r"(Str|Dex|Con|Int|Wis|Cha|Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma)\b"
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "once": 1, "twice": 2}
SAVES = {"fortitude": "fort", "fort": "fort", "reflex": "ref", "will": "will"}
AGE_CATEGORIES = ("wyrmling", "very young", "young", "juvenile", "young adult", "adult", "mature adult", "old",
                  "very old", "ancient", "wyrm", "great wyrm")
"""SRD 3.5 true dragons: the age category is the index + 1 (a wyrmling is 1, a great wyrm 12)."""
BREATH_EFFECTS = {"sleep": "sleep", "paralyzing": "paralysis", "paralysis": "paralysis", "slow": "slow",
                  "weakening": "weakness", "fear": "fear", "repulsion": "repulsion"}
"""The non-damaging breath weapons of the dragons that the engine's ``breath_effect`` carries."""


def _dice(text: str) -> str:
    return text.replace(" ", "")


def _ability_of(word: str) -> str:
    return ABILITY_WORDS[word.lower()]


def _text_of(block: RawBlock, item: dict, *names: str) -> tuple[Cell | None, str]:
    desc = _description(block, item, *names)
    return desc, (_clean(desc.text) if desc else "")


def _following(block: RawBlock, desc: Cell | None, count: int = 3) -> str:
    """The description and the paragraphs after it that no ability heads (the behir's swallowed creature 'takes
    2d8+8 points of bludgeoning damage' two paragraphs on)."""
    if desc is None:
        return ""
    cells = block.description
    try:
        i = cells.index(desc)
    except ValueError:
        return _clean(desc.text)
    out = [desc.text]
    for cell in cells[i + 1:]:
        if len(out) > count:
            break
        if not cell.text.strip():
            continue
        if re.match(r"^\s*[A-Z][A-Za-z' ,/\-]{1,60}?(?:\s*+(\((?:Ex|Su|Sp)\)))?\s*+:\s", cell.text):
            break
        out.append(cell.text)
    return re.sub(r"'\s+s\b", "'s", _clean(" ".join(out)))          # a word the conversion broke: "elemental' s"


# --------------------------------------------------------------------------------------------- tables by size
SIZE_WORDS = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal", "greater",
              "elder")


MAX_SIZE_TABLE_ROWS = 100
"""Rows of a table by size read (the SRD's have at most ten): every block near a table reads it again."""


def size_tables(block: RawBlock, line: int, column: str, before: int = 12, after: int = 30) -> list[dict]:
    """The Markdown tables near ``line`` of the block's file whose header names ``column`` (``Fort DC``, ``Break
    DC``): each as {row key (``medium``, ``greater``): {header: cell}}; a table of two column groups side by side
    (``| Size | Fort DC | Damage | Size | Fort DC | Damage |``) gives the rows of both."""
    lines = block.context
    start, stop = max(0, line - 1 - before), min(len(lines), line - 1 + after)
    tables = []
    j = start
    while j < stop:
        row = lines[j]
        if row.lstrip().startswith("|") and column.lower() in row.lower():
            head = [c.strip() for c in row.strip().strip("|").split("|") if c.strip()]
            key = head[0]
            groups: list[list[str]] = []
            for cell in head:
                if cell == key:
                    groups.append([])
                groups[-1].append(cell)
            width = len(groups[0])
            table: dict = {}
            j += 1
            end = min(len(lines), j + MAX_SIZE_TABLE_ROWS)
            while j < end and lines[j].lstrip().startswith("|"):
                cells = [c.strip() for c in lines[j].strip().strip("|").split("|") if c.strip()]
                for k in range(0, len(cells) - width + 1, width):
                    chunk = cells[k:k + width]
                    table[chunk[0].lower()] = dict(zip(groups[0], chunk, strict=True))
                j += 1
            tables.append(table)
        j += 1
    return tables


def size_row(block: RawBlock, size: str, line: int, column: str) -> tuple[str, dict] | None:
    """This creature's row of the nearest table naming ``column``: the title's size word (``Monstrous Spider,
    Medium``; ``Fire Elemental, Greater``; ``Snake, Tiny Viper``), else its size; with the key it was found by."""
    words = [w for w in re.findall(r"[a-z]+", block.title.lower()) if w in SIZE_WORDS]
    for table in size_tables(block, line, column):
        for word in [*reversed(words), size]:
            if word in table:
                return word, table[word]
    return None


def _column(row: dict, column: str) -> str | None:
    return next((v for k, v in row.items() if column.lower() in k.lower()), None)


def size_number(block: RawBlock, size: str, desc, column: str) -> tuple[int | None, str | None]:
    """A whole number from ``column`` of this creature's row of its table by size, and the row's key (or None)."""
    if desc is None:
        return None, None
    found = size_row(block, size, desc.line, column)
    value = _column(found[1], column) if found else None
    return (number(value), found[0]) if value and value.isdigit() else (None, None)


# --------------------------------------------------------------------------------------------- the entry point
def effect_fields(block: RawBlock, abilities: list[dict], data: dict, reads: list[list[AttackRead]],
                  notes: Notes) -> dict:
    """The poison, ability damage, energy drain, rake, rage, burn, gaze, swallow whole, web, breath effect, stench,
    trample, powerful charge and incorporeal fields of the block (``data`` is the block as read so far: its size,
    routines and improved grab), and the heat that rides on its attacks; sets the ``engine`` and ``notes`` of the
    abilities."""
    out: dict = {}
    full = list(data.get("full_attack") or []) + list(data.get("attack") or [])
    names = _attack_names(full)
    unrolled = {a.name.lower() for r in reads for a in r if a.damage is None}
    size = data["size"]
    for key, reader in (("poison", _poison), ("energy drain", _energy_drain), ("burn", _burn), ("gaze", _gaze),
                        ("web", _web)):
        item = _first(abilities, key)
        if item is not None:
            out.update(reader(block, item, abilities, names, unrolled, reads, size, notes, data))
    for key in ("ability damage", "ability drain"):
        item = _first(abilities, key)
        if item is not None and "ability_damage" not in out:
            out.update(_ability_damage(block, item, abilities, names, unrolled, reads, size, notes, data))
        elif item is not None:
            _set(abilities, key, "ignored", "a second ability loss on a hit: the engine's ability_damage is one")
    item = _first(abilities, "rake")
    if item is not None:
        out.update(_rake(block, item, abilities, notes))
    item = _first(abilities, "rage")
    if item is not None:
        out.update(_rage(block, item, abilities, notes))
    item = _first(abilities, "heat")
    if item is not None:
        _heat(block, item, abilities, full)
    item = _first(abilities, "swallow whole")
    if item is not None:
        out.update(_swallow(block, item, abilities, data, notes))
    breath = [a for a in abilities if a["key"] == "breath weapon (non-damage)"]
    if breath:
        out.update(_breath_effect(block, breath, abilities, data, notes))
    for key, reader in (("stench", _stench), ("trample", _trample), ("powerful charge", _powerful_charge)):
        item = _first(abilities, key)
        if item is not None:
            out.update(reader(block, item, abilities, data, notes))
    item = _first(abilities, "acid spray")
    if item is not None and "breath_weapon" not in data:
        out.update(_acid_spray(block, item, abilities, notes))
    for item in [a for a in abilities if a["key"] == "ray" and a["engine"] == "ignored"]:
        _ray(item, names)
    if _first(abilities, "incorporeal") is not None:
        _set(abilities, "incorporeal", "modelled", "incorporeal: only magic weapons, spells and incorporeal foes "
                                                   "harm it, with a 50% miss chance (force and positive energy "
                                                   "always work)")
        out["incorporeal"] = True
    return out


def _ray(item: dict, names: list[str]) -> None:
    """A ray its routines already roll (SRD 3.5 arrowhawk: "Electricity ray +9 ranged touch (2d6)", and
    "Electricity Ray (Su): An arrowhawk can fire this ray once per round"): the ranged touch attack is the ray."""
    name = _clean(item["name"]).lower()
    if name in names:
        item["engine"] = "modelled"
        item["notes"] = f"the {name}: a ranged touch attack of its routines, once a round"


def _deliverer(words: list[str], names: list[str], unrolled: set[str]) -> tuple[str | None, str]:
    """The attack of the routines that ``words`` name, or None and why not."""
    found = [n for n in (_named(w, names) for w in words) if n]
    if found:
        order = [n for n in names if n in found]
        return order[0], ""
    if any(_singular(w) in {_singular(u) for u in unrolled} or w in unrolled for w in words):
        return None, "deals no hit-point damage"
    return None, "is not an attack of its routines"


def _rider_attacks(reads: list[list[AttackRead]], pattern: str) -> list[str]:
    out: list[str] = []
    for routine in reads:
        for a in routine:
            if any(re.search(pattern, r, re.IGNORECASE) for r in a.riders) and a.name.lower() not in out:
                out.append(a.name.lower())
    return out


def _named_attack(text: str, names: list[str], title: str) -> list[str]:
    """The attack words of ``hit by a wight's slam attack``, ``its incorporeal touch attack``, ``the touch of``."""
    low = text.lower()
    m = re.search(r"\b(?:hit by|hits with|bitten by|struck by)\s+(?:an? |the |its )?(?:[\w' -]*?'s?\s+)?"
                  r"([a-z ]+?)\s+(?:attacks?|ability)\b", low)
    if m:
        return [w.strip() for w in re.split(r"\s+or\s+|\s+and\s+|,", m.group(1)) if w.strip()]
    m = re.search(r"\bthe (touch|bite|sting|slam|claw)s? of\b", low) or re.search(
        r"\ba poisonous (bite|sting)\b", low)
    if m:
        return [m.group(1)]
    return []


# --------------------------------------------------------------------------------------------- poison
_POISON_TWO = re.compile(rf"initial damage ({_DICE}) {_ABILITY},? secondary damage ({_DICE}) {_ABILITY}",
                         re.IGNORECASE)
_POISON_SAME = re.compile(rf"initial and secondary damage (?:of )?({_DICE}) {_ABILITY}(?: and ({_DICE}) {_ABILITY})?",
                          re.IGNORECASE)
_NOT_ABILITY = re.compile(r"\b(sleep|unconscious|paralysis|paralyzed|death|nightmare|unable to heal)\b", re.IGNORECASE)


def _poison(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
            reads: list[list[AttackRead]], size: str, notes: Notes, data: dict) -> dict:
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "poison")
    if desc is not None and re.match(r"poison use\b", text, re.IGNORECASE):
        return _ignored(abilities, "poison", "poison use: it coats its weapons with a poison it carries (the text "
                                             "names several), not a poison of its own")
    if desc is None:
        notes.add("unread", _field_name(item), cell, "poison: no description: not modelled", item["name"])
        return _ignored(abilities, "poison", "no description read")
    how: list[str] = []
    initial = secondary = None
    dcs = set(re.findall(r"\bFortitude DC (\d+)|\bDC (\d+) Fortitude", text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    m2, m1 = _POISON_TWO.search(text), _POISON_SAME.search(text)
    row = None
    if dc is None or (m1 is None and m2 is None):
        found = size_row(block, size, desc.line, "Fort DC")
        if found is not None:
            key, row = found
            if dc is None and (_column(row, "Fort DC") or "").isdigit():
                dc = number(_column(row, "Fort DC"))
            damage = _column(row, "Damage")
            dm = re.fullmatch(rf"({_DICE}) {_ABILITY}", damage or "")
            if dm and m1 is None and m2 is None:
                both = re.search(r"initial and secondary damage|both initial and secondary", text, re.IGNORECASE) \
                    or re.search(r"is initial\s*(?:and)?", text, re.IGNORECASE)
                initial = {"dice": _dice(dm.group(1)), "ability": _ability_of(dm.group(2))}
                secondary = dict(initial) if both else None
            how.append(f"the {key} row of its table by size")
    if m2:
        initial = {"dice": _dice(m2.group(1)), "ability": _ability_of(m2.group(2))}
        secondary = {"dice": _dice(m2.group(3)), "ability": _ability_of(m2.group(4))}
    elif m1:
        initial = {"dice": _dice(m1.group(1)), "ability": _ability_of(m1.group(2))}
        secondary = dict(initial)
        if m1.group(3):
            left = f"{m1.group(3)} {m1.group(4)}"
            how.append(f"its {left} left out (the engine's poison loses one ability)")
            notes.add("guess", _field_name(item), cell, f"poison: the SRD's deals {m1.group(1)} {m1.group(2)} and "
                                                         f"{left}; the engine's one ability: the {m1.group(2)}",
                      text[:200])
    unconscious = secondary_unconscious = None
    if initial is None:
        sleep = _sleep_poison(text)
        if sleep is not None:
            unconscious, secondary_unconscious, changed = sleep
            for what in changed:
                how.append(what)
                notes.add("changed", _field_name(item), cell, f"poison: {what}", text[:200])
    doses = re.search(r"carries (\d+d\d+(?:[+-]\d+)?) doses", text)
    knockout = re.search(r"hit by an? [\w' ]+?'s poisoned weapon must succeed on a DC (\d+) Fortitude save or fall "
                         r"unconscious\. After 1 minute, the subject must succeed on another DC \d+ Fortitude save or "
                         rf"remain unconscious for ({_DICE}) (hours?|minutes?)", text)
    if initial is None and unconscious is None and knockout and doses:
        secondary_unconscious, changed = _rounds(knockout.group(2), knockout.group(3).rstrip("s"))
        return _weapon_poison(block, item, abilities, number(knockout.group(1)), "10", secondary_unconscious,
                              _dice(doses.group(1)), changed, notes, cell, text, data)
    if initial is None and unconscious is None:
        bad = _NOT_ABILITY.search(re.split(r"\bThe save DC", text)[0])
        if bad:
            _set(abilities, "poison", "ignored", f"its effect ({bad.group(1).lower()}) is not ability damage, which "
                                                 "is what the engine's poison deals")
            _numbers(abilities, "poison", dc, "fort")
            return {}
        notes.add("unread", _field_name(item), cell, "poison: its ability damage not read: not modelled", text[:200])
        return _ignored(abilities, "poison", "its ability damage not read")
    if dc is None:
        notes.add("unread", _field_name(item), cell, "poison: no Fortitude DC read: not modelled", text[:200])
        return _ignored(abilities, "poison", "no Fortitude DC read")
    _numbers(abilities, "poison", dc, "fort")
    if unconscious is None and re.search(r"secondary damage (death|none|paralysis|sleep|unconscious)", text,
                                         re.IGNORECASE):
        what = re.search(r"secondary damage (\w+)", text, re.IGNORECASE).group(1)
        return _ignored(abilities, "poison", f"its secondary damage ({what}) is not ability damage")
    words = _rider_attacks(reads, r"\bpoison") or _named_attack(text, names, block.title)
    if not words:
        natural = [n for n in names if re.search(r"bite|sting", n)]
        if natural:
            words = [natural[0]]
            how.append(f"the text names no attack: its {natural[0]}")
            notes.add("guess", _field_name(item), cell, f"poison: the text names no attack that delivers it: the "
                                                         f"{natural[0]}", text[:200])
    attack, why = _deliverer(words, names, unrolled) if words else (None, "")
    if attack is None:
        what = " or ".join(words) if words else "no attack"
        return _ignored(abilities, "poison", f"its {what} {why or 'is named nowhere'}: not an attack the engine "
                                             "rolls, and the engine's poison is on a hit with one")
    if unconscious is not None:
        field = {"attack": attack, "dc": dc, "save": "fort", "unconscious": unconscious}
        if secondary_unconscious is not None:
            field["secondary_unconscious"] = secondary_unconscious
        extra = "; " + "; ".join(how) if how else ""
        _set(abilities, "poison", "modelled", f"poison on the {attack}: Fort DC {dc}, unconscious {unconscious} "
                                              "rounds" + (f", secondary {secondary_unconscious} rounds"
                                                          if secondary_unconscious else ", no secondary") + extra)
        return {"poison": field}
    field = {"attack": attack, "dc": dc, "save": "fort", "initial": initial, "secondary": secondary}
    told = f"{initial['dice']} {initial['ability']}" + (
        f", secondary {secondary['dice']} {secondary['ability']}" if secondary else ", no secondary")
    extra = "; " + "; ".join(how) if how else ""
    _set(abilities, "poison", "modelled", f"poison on the {attack}: Fort DC {dc}, initial {told}{extra}")
    return {"poison": field}


def _weapon_poison(block: RawBlock, item: dict, abilities: list[dict], dc: int, unconscious: str,
                   secondary: str, doses: str, changed: str | None, notes: Notes, cell, text: str,
                   data: dict) -> dict:
    """Drow knockout poison: "An opponent hit by a drow's poisoned weapon must succeed on a DC 13 Fortitude save or
    fall unconscious. After 1 minute, the subject must succeed on another DC 13 Fortitude save or remain unconscious
    for 2d4 hours. A typical drow carries 1d4-1 doses ... Drow typically coat arrows and crossbow bolts with this
    poison": on its first ranged weapon (else its first weapon), while the doses last."""
    ranged = [a["name"] for r in (data.get("full_attack") or []) + (data.get("attack") or []) for a in r
              if a.get("kind") == "ranged"]
    names = ranged or [a["name"] for r in (data.get("full_attack") or []) for a in r]
    if not names:
        return _ignored(abilities, "poison", "no weapon to coat")
    if changed:
        notes.add("changed", _field_name(item), cell, f"poison: {changed}", text[:200])
    _numbers(abilities, "poison", dc, "fort")
    _set(abilities, "poison", "modelled", f"poison on the {names[0]} (its bolts): Fort DC {dc}, unconscious 10 rounds "
                                          f"(until the second save, a minute on), then {secondary} rounds; "
                                          f"{doses} doses, one a hit")
    return {"poison": {"attack": names[0], "dc": dc, "save": "fort", "unconscious": unconscious,
                       "secondary_unconscious": secondary, "doses": doses}}


_SLEEP = r"(?:sleep|unconsciousness|unconscious)"
_FOR = rf"for (?:another )?({_DICE}|one|an?) (round|minute|hour)s?"


def _sleep_poison(text: str) -> tuple[str, str | None, list[str]] | None:
    """A poison of sleep (SRD 3.5 homunculus: "initial damage sleep for 1 minute, secondary damage sleep for another
    5d6 minutes"; dark naga: "lapse into a nightmare-haunted sleep for 2d4 minutes"): its rounds unconscious,
    initial and secondary, and what was changed to write them as rounds; None when it is not one."""
    head = re.split(r"\bThe save DC", text)[0]
    first = re.search(rf"initial damage {_SLEEP} {_FOR}", head, re.IGNORECASE) or re.search(
        rf"lapse into an? [\w-]+ sleep {_FOR}", head, re.IGNORECASE)
    if first is None:
        return None
    second = re.search(rf"secondary damage {_SLEEP} {_FOR}", head, re.IGNORECASE)
    changed: list[str] = []
    out: list[str | None] = []
    for m in (first, second):
        if m is None:
            out.append(None)
            continue
        amount = m.group(1).lower()
        amount = "1" if amount in ("one", "a", "an") else amount
        if amount.isdigit():                      # a whole number of minutes is a whole number of rounds
            out.append(str(number(amount) * ROUNDS_PER[m.group(2).lower()]))
            continue
        rounds, note = _rounds(amount, m.group(2))
        if note:
            changed.append(note)
        out.append(rounds)
    return out[0], out[1], changed


def _numbers(abilities: list[dict], key: str, dc: int | None, save: str | None) -> None:
    for a in abilities:
        if a["key"] == key:
            if dc is not None:
                a["dc"] = dc
            if save is not None:
                a["save"] = save


# --------------------------------------------------------------------------------------------- ability damage
def _ability_damage(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
                    reads: list[list[AttackRead]], size: str, notes: Notes, data: dict) -> dict:
    key = item["key"]
    cell = block.get(_field_name(item))
    entry = _clean(item["name"])
    desc, text = _text_of(block, item, re.sub(r"(?<!\d)\d+d\d+", "", entry).strip())
    rider = re.match(rf"^({_DICE})\s*{_ABILITY}\s*(drain|damage)?", entry, re.IGNORECASE)
    m = re.search(rf"(?<!\d)({_DICE}) points? of {_ABILITY} (drain|damage)", text, re.IGNORECASE) or re.search(
        rf"drains ({_DICE}) points? of {_ABILITY}()", text, re.IGNORECASE)
    if m:
        dice, ability, kind = m.group(1), m.group(2), m.group(3) or "drain"
    elif rider:
        dice, ability, kind = rider.group(1), rider.group(2), rider.group(3) or ("drain" if "drain" in key else
                                                                                 "damage")
    else:
        notes.add("unread", _field_name(item), cell, f"{key}: its dice and ability not read: not modelled",
                  text[:200] or entry)
        return _ignored(abilities, key, "its dice and ability not read")
    dcs = set(re.findall(r"\bDC (\d+) (Fortitude|Will|Reflex)|(Fortitude|Will|Reflex) DC (\d+)", text))
    dc = save = None
    if len(dcs) == 1:
        a, b, c, d = dcs.pop()
        dc, save = number(a or d), SAVES[(b or c).lower()]
    words = _rider_attacks(reads, rf"{_ABILITY}") or _named_attack(text, names, block.title)
    attack, why = _deliverer(words, names, unrolled) if words else (None, "is named nowhere")
    loss = {"dice": _dice(dice), "ability": _ability_of(ability), "drain": kind.lower() == "drain"}
    for a in abilities:
        if a["key"] == key:
            a["damage"] = loss["dice"]
            if dc is not None:
                a["dc"], a["save"] = dc, save
    if attack is None:
        return _ignored(abilities, key, f"its {' or '.join(words) or 'attack'} {why}: not an attack the engine "
                                        f"rolls, and the engine's {key} is on a hit with one")
    field = {"attack": attack, "loss": loss, "dc": dc, "save": save or "fort"}
    saved = f", {save.capitalize()} DC {dc} negates" if dc is not None else ", no save"
    _set(abilities, key, "modelled", f"ability_damage on the {attack}: {loss['dice']} {loss['ability']} "
                                     f"{'drain' if loss['drain'] else 'damage'}{saved}")
    return {"ability_damage": field}


# --------------------------------------------------------------------------------------------- energy drain
def _energy_drain(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
                  reads: list[list[AttackRead]], size: str, notes: Notes, data: dict) -> dict:
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "energy drain")
    m = re.search(r"\bgains? (one|two|three|four|five|\d+) negative levels?", text, re.IGNORECASE) or re.search(
        r"\bbestows (one|two|three|four|five|\d+) negative levels?", text, re.IGNORECASE)
    if m is None:
        return _unread(notes, abilities, item, cell, "energy drain", "how many negative levels not read", text)
    levels = NUMBER_WORDS.get(m.group(1).lower()) or number(m.group(1))
    low = text.lower()
    if re.search(r"\binside\b|\bswallow|\bgizzard", low):
        return _ignored(abilities, "energy drain", "only a swallowed foe is drained, not one it hits; the engine's "
                                                   "energy drain is on a hit")
    if re.search(r"\bkiss|\bembrace", low):
        return _ignored(abilities, "energy drain", "drained by a kiss or an embrace (a grapple), not a hit; the "
                                                   "engine's energy drain is on a hit")
    words = _named_attack(text, names, block.title) or _rider_attacks(reads, r"energy drain")
    attack, why = _deliverer(words, names, unrolled) if words else (None, "is named nowhere")
    if attack is None:
        return _ignored(abilities, "energy drain", f"its {' or '.join(words) or 'attack'} {why}: not an attack the "
                                                   "engine rolls, and the engine's energy drain is on a hit with one")
    how = ""
    if re.search(r"temporary hit points", low):
        how = "; the 5 temporary hit points it gains per level are left out"
    _set(abilities, "energy drain", "modelled", f"energy_drain on the {attack}: {levels} negative "
                                                f"level{'s' if levels > 1 else ''}{how}")
    return {"energy_drain": {"attack": attack, "levels": levels}}


# --------------------------------------------------------------------------------------------- rake
def _rake(block: RawBlock, item: dict, abilities: list[dict], notes: Notes) -> dict:
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "rake")
    if not text and " -- " in item["text"]:
        text = _clean(item["text"].split(" -- ", 1)[1])
    entry = _clean(item["name"])
    bonus = re.search(r"attack bonus ([+-]\d+)", text, re.IGNORECASE)
    dmg = re.search(r"damage (\d+d\d+(?:\s*[+-]\s*\d+)?)", text, re.IGNORECASE)
    entry_dmg = re.search(r"(?<!\d)(\d+d\d+(?:\s*[+-]\s*\d+)?)", entry)
    if bonus is None or (dmg is None and entry_dmg is None):
        notes.add("unread", _field_name(item), cell, "rake: its attack bonus and damage not read: not modelled",
                  text[:200] or entry)
        return _ignored(abilities, "rake", "its attack bonus and damage not read")
    if re.search(r"\bwhile swimming\b", text, re.IGNORECASE):
        _set(abilities, "rake", "no effect", "its rakes come only while it swims, and the arena has no water")
        return {}
    damage = _dice((dmg or entry_dmg).group(1))
    how = ""
    if dmg and entry_dmg and _dice(entry_dmg.group(1)) != damage:
        notes.add("discrepancy", _field_name(item), cell, f"rake: the entry says {entry_dmg.group(1)}, its "
                                                           f"description {damage}: kept the description's",
                  f"{entry} -- {text[:150]}")
        how = f"; the entry's {entry_dmg.group(1)} disagrees: the description's {damage}"
    count_word = re.search(r"\b(two|three|four|five|six|eight)\s+(?:claws|rakes|rake attacks)", text, re.IGNORECASE)
    count = NUMBER_WORDS[count_word.group(1).lower()] if count_word else 2
    rake = {"name": "rake", "bonuses": [number(bonus.group(1))], "count": count, "damage": damage,
            "damage_types": ["slashing"]}
    if parse_dice(damage).maximum < 1:
        rake["damage"] = "1"
    for a in abilities:
        if a["key"] == "rake":
            a["damage"] = rake["damage"]
    _set(abilities, "rake", "modelled", f"rake: {count} claws at {number(bonus.group(1)):+d} for {rake['damage']} "
                                        f"(at the end of a pounce and each round it holds a foe){how}")
    return {"rake": rake}


# --------------------------------------------------------------------------------------------- rage
_RAGE_NUMBERS = re.compile(r"\+4 (?:to )?Strength, \+4 (?:to )?Constitution,?(?: \+2 morale bonus on Will saves,)? "
                           r"and -2 (?:to )?(?:AC|Armor Class)|\+4 Strength, \+4 Constitution, \+2 morale bonus on "
                           r"Will saves, -2 AC", re.IGNORECASE)


def _rage(block: RawBlock, item: dict, abilities: list[dict], notes: Notes) -> dict:
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "rage")
    if not text and " -- " in item["text"]:
        text = _clean(item["text"].split(" -- ", 1)[1])
    frenzy = re.search(r"gains \+2 Constitution and \+2 Strength, and takes a -2 penalty to Armor Class", text)
    if frenzy and re.search(r"takes damage in combat can fly into a frenzy", text):
        _set(abilities, "rage", "modelled", "rage: +2 Str, +2 Con, -2 AC once hurt (a sahuagin's blood frenzy, "
                                            "once a day: the fight), until it or its foe is dead")
        return {"rage": True, "rage_strength": 2}
    if not _RAGE_NUMBERS.search(text):
        what = "its numbers differ from the engine's rage (+4 Strength, +4 Constitution, -2 AC once hurt)" \
            if text else "no description read"
        return _ignored(abilities, "rage", what)
    how = ""
    if not re.search(r"takes damage", text, re.IGNORECASE):
        how = ("; the SRD's is at will for a few rounds a day, the engine's starts once it is hurt and lasts the "
               "fight")
        notes.add("guess", _field_name(item), cell, "rage: the SRD's starts at will and lasts a few rounds; the "
                                                     "engine's starts when it is first hurt and lasts the fight",
                  text[:200])
    _set(abilities, "rage", "modelled", f"rage: +4 Str, +4 Con, -2 AC once hurt{how}")
    return {"rage": True}


# --------------------------------------------------------------------------------------------- burn and heat
def _burn(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
          reads: list[list[AttackRead]], size: str, notes: Notes, data: dict) -> dict:
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "burn")
    text = _following(block, desc, 1) or text
    dcs = set(re.findall(r"\bDC (\d+) Reflex|\bReflex DC (\d+)", text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    how = ""
    if dc is None:
        dc, row = size_number(block, size, desc, "Save DC")
        if dc is not None:
            how = f"; its DC from the {row} row of its table by size"
    rounds = re.search(rf"burns for ({_DICE}) rounds", text, re.IGNORECASE)
    if dc is None or rounds is None:
        what = "no Reflex DC" if dc is None else "no duration"
        return _unread(notes, abilities, item, cell, "burn", f"{what} read", text)
    words = _named_attack(text, names, block.title) or re.findall(r"\b(slam) attack", text, re.IGNORECASE)
    attack, why = _deliverer([w.lower() for w in words], names, unrolled) if words else (None, "is named nowhere")
    if attack is None:
        return _ignored(abilities, "burn", f"its {' or '.join(words) or 'attack'} {why}")
    fire = next((a.get("extra_damage") for r in data.get("full_attack", []) + data.get("attack", []) for a in r
                 if a["name"] == attack and a.get("extra_damage_type") == "fire"), None)
    damage = fire or "1d4"
    notes.add("guess", _field_name(item), cell, f"burn: the text gives no damage for the flames: "
                                                 f"{'the ' + attack + chr(39) + 's fire, ' + fire if fire else '1d4'}"
                                                 " a round", text[:200])
    for a in abilities:
        if a["key"] == "burn":
            a["dc"], a["save"] = dc, "ref"
    _set(abilities, "burn", "modelled", f"burn on the {attack}: Reflex DC {dc}, {damage} fire a round for "
                                        f"{_dice(rounds.group(1))} rounds (the flames' damage: the {attack}'s "
                                        f"fire, a guess){how}")
    return {"burn": {"attack": attack, "dc": dc, "damage": damage, "rounds": _dice(rounds.group(1))}}


def _heat(block: RawBlock, item: dict, abilities: list[dict], full: list[list[dict]]) -> None:
    fire = [a["name"] for r in full for a in r if a.get("extra_damage_type") == "fire"]
    desc, text = _text_of(block, item, "heat")
    if re.search(r"striking a \w+ with|anything touching its body", text, re.IGNORECASE) and not fire:
        _set(abilities, "heat", "ignored", "it burns those who touch or strike it, not those it hits; the engine "
                                           "has no damage to attackers")
        return
    if not fire:
        _set(abilities, "heat", "ignored", "no attack of its routines carries the fire damage")
        return
    _set(abilities, "heat", "modelled", f"the fire rides on its {', '.join(dict.fromkeys(fire))} (extra_damage)")


# --------------------------------------------------------------------------------------------- gaze
_GAZE_EFFECTS = (("petrify", r"turn to stone|petrif"), ("death", r"^death\b|\bdeath,"),
                 ("paralysis", r"paraly"), ("fear", r"\bfear\b|\bpanicked\b"))


def _gaze(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
          reads: list[list[AttackRead]], size: str, notes: Notes, data: dict) -> dict:
    cell = block.get(_field_name(item))
    entry = _clean(item["name"])
    desc, text = _text_of(block, item, drop_parens(entry, "").strip(), "gaze")
    if desc is None:
        notes.add("unread", _field_name(item), cell, "gaze: no description: not modelled", entry)
        return _ignored(abilities, "gaze", "no description read")
    body = re.sub(r"^[^:]*:\s*", "", text)
    effect = next((e for e, p in _GAZE_EFFECTS if re.search(p, body[:120], re.IGNORECASE)), None)
    m = re.search(r"\b(Fortitude|Will|Reflex) DC (\d+)|\bDC (\d+) (Fortitude|Will|Reflex)", body)
    if m is None:
        notes.add("unread", _field_name(item), cell, "gaze: no save DC read: not modelled", text[:200])
        return _ignored(abilities, "gaze", "no save DC read")
    save, dc = SAVES[(m.group(1) or m.group(4)).lower()], number(m.group(2) or m.group(3))
    own = re.search(rf"\bthe {re.escape(block.title.lower())}'s {re.escape(entry.lower())} \(DC (\d+)\)",
                    " ".join(block.context[block.line:block.line + 80]).lower(), re.IGNORECASE)
    how = ""
    if own and number(own.group(1)) != dc:
        how = f"; its own DC {own.group(1)} (the text shared with another creature gives {dc})"
        dc = number(own.group(1))
    for a in abilities:
        if a["key"] == "gaze":
            a["dc"], a["save"] = dc, save
    other = _other_gaze(entry, body, save, dc, abilities, notes, cell, text)
    if other is not None:
        return other
    if effect is None or re.search(r"\bslay\b|\bdazed?\b|\bstun|\bcharm|penalty on attack", body[:200],
                                   re.IGNORECASE) and effect != "petrify":
        what = re.split(r"[.;]", body)[0][:80]
        return _ignored(abilities, "gaze", f"its {entry.lower()} ({what}) is not one the engine's gaze has (petrify, "
                                           "paralysis, death, fear)")
    field: dict = {"effect": effect, "save": save, "dc": dc}
    rounds = re.search(rf"(?:for|lasts) ({_DICE}) rounds", body, re.IGNORECASE)
    if effect in ("paralysis", "fear"):
        if rounds is None:
            notes.add("unread", _field_name(item), cell, f"gaze: how long its {effect} lasts not read: not "
                                                          "modelled", text[:200])
            return _ignored(abilities, "gaze", f"how long its {effect} lasts not read")
        field["rounds"] = _dice(rounds.group(1))
    if effect == "paralysis" and re.search(r"paralyzed with fear|fear effect", body, re.IGNORECASE):
        how += "; a fear effect that paralyzes: the engine's paralysis (fear immunity left out)"
        notes.add("guess", _field_name(item), cell, "gaze: paralyzed with fear: the engine's paralysis gaze",
                  text[:200])
    extra = f", {field['rounds']} rounds" if "rounds" in field else ""
    _set(abilities, "gaze", "modelled", f"gaze: {effect}, {save.capitalize()} DC {dc} negates{extra} (averting "
                                        f"eyes is not modelled){how}")
    return {"gaze": field}


def _other_gaze(entry: str, body: str, save: str, dc: int, abilities: list[dict], notes: Notes, cell,
                text: str) -> dict | None:
    """The gazes and looks beyond petrify, paralysis, death and fear: the chain devil's unnerving gaze ("Those who
    fail their saves take a -2 penalty on attack rolls for 1d3 rounds"), the spirit naga's charming gaze ("As charm
    person, 30 feet, Will DC 19 negates"), a ghaele's gaze ("slay evil creatures of 5 or less HD ... Nonevil
    creatures ... must succeed on a DC 18 Will save or suffer the fear effect", "as though by a fear spell for 2d10
    rounds": the party is not evil), and the looks at one foe (a nymph's stunning glance, a sea hag's evil eye);
    None for any other."""
    low = entry.lower()
    rounds = re.search(rf"(?:for|lasts) ({_DICE}) rounds", body, re.IGNORECASE)
    if "unnerving" in low and re.search(r"-2 penalty on attack rolls", body) and rounds:
        field = {"effect": "unnerve", "save": save, "dc": dc, "rounds": _dice(rounds.group(1))}
        _set(abilities, "gaze", "modelled", f"gaze: Will DC {dc} or -2 on attack rolls for {field['rounds']} rounds")
        return {"gaze": field}
    if "charming" in low and re.search(r"As charm person", body):
        _set(abilities, "gaze", "modelled", f"gaze: as charm person, Will DC {dc} (+5 on the save in a fight), "
                                            "humanoids only; a charmed foe fights no more (for the fight)")
        return {"gaze": {"effect": "charm", "save": save, "dc": dc}}
    nonevil = search_chain(body, r"Nonevil creatures",
                           r"must succeed on a DC (\d+) Will save or suffer the fear effect")
    if re.search(r"slay evil", body) and nonevil and rounds:
        field = {"effect": "fear", "save": "will", "dc": number(nonevil.group(1)), "rounds": _dice(rounds.group(1))}
        _set(abilities, "gaze", "modelled", f"gaze: the party is not evil: Will DC {field['dc']} or panicked (a fear "
                                            f"spell) for {field['rounds']} rounds (its slaying of evil creatures "
                                            "never applies)")
        return {"gaze": field}
    stun = search_chain(body, r"stun a creature ", rf" DC (\d+) Fortitude save or be stunned for ({_DICE}) rounds")
    if "glance" in low and stun:
        _set(abilities, "gaze", "modelled", f"glance: a standard action at one foe, Fort DC {stun.group(1)} or "
                                            f"stunned {_dice(stun.group(2))} rounds")
        return {"glance": {"effect": "stun", "save": "fort", "dc": number(stun.group(1)),
                           "rounds": _dice(stun.group(2))}}
    eye = search_chain(body, r"(Once|Twice|Three times) per day", r"DC (\d+) Will save or be dazed",
                       r"DC (\d+) Fortitude save or die from fright")
    if "evil eye" in low and eye:
        uses = {"once": 1, "twice": 2, "three times": 3}[eye.group(1).lower()]
        _set(abilities, "gaze", "modelled", f"glance: {uses} a fight, a standard action at one foe, Will DC "
                                            f"{eye.group(2)} or dazed (for the fight: three days), then Fort DC "
                                            f"{eye.group(3)} or dead of fright")
        return {"glance": {"effect": "daze", "save": "will", "dc": number(eye.group(2)), "uses": uses,
                           "fright_dc": number(eye.group(3))}}
    return None


# --------------------------------------------------------------------------------------------- swallow whole
def _swallow(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    cell = block.get(_field_name(item))
    desc, _ = _text_of(block, item, "swallow whole")
    text = _following(block, desc, 3)
    if data.get("improved_grab") is None:
        return _ignored(abilities, "swallow whole", "no improved grab the engine models: swallow whole needs its "
                                                    "hold")
    m = re.search(rf"(?:takes?|taking) ({_DICE}) points? of (bludgeoning|crushing|acid) damage"
                  rf"(?:,? (?:plus|and) ({_DICE}) points? of (acid|fire|bludgeoning) damage)?", text, re.IGNORECASE)
    if m is None:
        return _unread(notes, abilities, item, cell, "swallow whole", "the damage inside not read", text)
    kind = "bludgeoning" if m.group(2).lower() in ("bludgeoning", "crushing") else m.group(2).lower()
    damage = _dice(m.group(1))
    how = ""
    if m.group(3):
        how = f"; its {_dice(m.group(3))} {m.group(4).lower()} left out (the engine's is one damage expression)"
        notes.add("guess", _field_name(item), cell, f"swallow whole: the {_dice(m.group(3))} {m.group(4).lower()} "
                                                     f"a round is left out: stored as {damage} {kind}", text[:200])
    if re.search(r"\bparaly", text, re.IGNORECASE):
        how += "; the paralysis of its juices is left out"
    for a in abilities:
        if a["key"] == "swallow whole":
            a["damage"] = damage
    _set(abilities, "swallow whole", "modelled", f"swallow_whole: {damage} {kind} a round (cutting its way out is "
                                                 f"not modelled){how}")
    return {"swallow_whole": {"damage": damage, "damage_types": [kind]}}


# --------------------------------------------------------------------------------------------- web
def _web(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
         reads: list[list[AttackRead]], size: str, notes: Notes, data: dict) -> dict:
    cell = block.get(_field_name(item))
    desc, _ = _text_of(block, item, "web")
    text = _following(block, desc, 2)
    uses = re.search(r"throw a web (?:up to )?(\w+) times per day", text, re.IGNORECASE)
    burst = re.search(r"burst (?:the web|it) with a DC (\d+) Strength check", text, re.IGNORECASE)
    how = ""
    dc = number(burst.group(1)) if burst else None
    if dc is None:
        dc, row = size_number(block, size, desc, "Break DC")
        if dc is not None:
            how = f"; its burst DC from the {row} row of its table by size"
    count = NUMBER_WORDS.get(uses.group(1).lower()) if uses else None
    if dc is None or count is None:
        what = "no Strength DC to burst it" if dc is None else "how many webs a day"
        return _unread(notes, abilities, item, cell, "web", f"{what} read", text)
    if re.search(r"web-spinners can throw", text, re.IGNORECASE):
        how += "; as a web-spinner (the SRD's hunting spiders throw none)"
        notes.add("guess", _field_name(item), cell, "web: the block is a web-spinner (hunting spiders cannot use "
                                                     "their webs as weapons)", text[:200])
    if re.search(r"anchors the target in place", text, re.IGNORECASE):
        how += "; anchored in place: the engine's entangles"
    for a in abilities:
        if a["key"] == "web":
            a["dc"] = dc
    _set(abilities, "web", "modelled", f"web: {count} a fight, burst with a DC {dc} Strength check{how}")
    return {"web": {"burst_dc": dc, "uses": count}}


# --------------------------------------------------------------------------------------------- breath effects
def age_category(title: str) -> int | None:
    """A true dragon's age category from its title (``Gold Dragon, Young Adult``: 5)."""
    m = re.search(r",\s*([a-z ]+)$", title.lower())
    return AGE_CATEGORIES.index(m.group(1).strip()) + 1 if m and m.group(1).strip() in AGE_CATEGORIES else None


def _breath_effect(block: RawBlock, items: list[dict], abilities: list[dict], data: dict, notes: Notes) -> dict:
    item = items[0]
    key = "breath weapon (non-damage)"
    cell = block.get(_field_name(item))
    entry = _clean(item["name"]).lower()
    word = entry.split()[0]
    if word == "breath":                       # the block's one breath weapon, of no cone of damage _breath read
        return _plain_breath(block, item, abilities, notes)
    effect = BREATH_EFFECTS.get(word)
    if effect is None:
        return _ignored(abilities, key, "not a breath effect the engine's breath_effect has (sleep, paralysis, "
                                        "slow, fear, weakness, repulsion)")
    desc, text = _text_of(block, item, entry)
    shape = re.search(r"(?<!\d)(\d+)-foot (cone|line)", text)
    save = re.search(r"\b(Fortitude|Will|Reflex) DC (\d+)", text)
    age = age_category(block.title)
    general = next((c.text for c in block.description if re.search(r"per age category", c.text)
                    and re.search(rf"\b{word}", c.text, re.IGNORECASE)), "")
    if shape is None or save is None or age is None or not general:
        what = "no cone or line" if shape is None else "no save DC" if save is None else \
            "no age category" if age is None else "no duration"
        notes.add("unread", _field_name(item), cell, f"breath weapon ({word}): {what} read: not modelled",
                  text[:200] or entry)
        return _ignored(abilities, key, f"{what} read")
    field: dict = {"shape": shape.group(2), "length_ft": number(shape.group(1)), "effect": effect,
                   "save": SAVES[save.group(1).lower()], "dc": number(save.group(2))}
    rounds = re.search(r"for (\d+d\d+) rounds plus 1 round per age category", general)
    loss = re.search(rf"take 1 point of {_ABILITY} damage per age category", general)
    if effect == "weakness" and loss:
        field["loss"] = {"dice": str(age), "ability": _ability_of(loss.group(1)), "drain": False}
        told = f"{age} {field['loss']['ability']} damage (1 a category)"
    elif rounds:
        field["rounds"] = f"{rounds.group(1)}+{age}"
        told = f"{field['rounds']} rounds (1d6 + 1 a category)"
    else:
        notes.add("unread", _field_name(item), cell, f"breath weapon ({word}): its duration not read: not "
                                                      "modelled", general[:200])
        return _ignored(abilities, key, "its duration not read")
    for a in abilities:
        if a["key"] == key:
            a["dc"], a["save"] = field["dc"], field["save"]
    _set(abilities, key, "modelled", f"breath_effect: {field['length_ft']}-ft. {field['shape']} of {effect}, "
                                     f"{field['save'].capitalize()} DC {field['dc']} negates, {told}; it alternates "
                                     "with the damaging breath")
    return {"breath_effect": field}


_STONE_SHAPE = re.compile(r"(?<!\d)(\d+)-foot (cone|line), once every (\d+d\d+(?:\+\d+)?) rounds", re.IGNORECASE)
_STONE_SAVE = re.compile(r"turn to stone permanently, (Fortitude|Will|Reflex) DC (\d+) negates", re.IGNORECASE)


def _turn_to_stone(text: str) -> tuple[str, str, str, str, str] | None:
    """(length, shape, recharge, save, DC) of ``60-foot cone, once every 1d4 rounds ..., turn to stone permanently,
    Fortitude DC 19 negates``: the shape, then the first save after it (one pattern with ``.*?`` between the two
    rescanned the rest of the text from every shape)."""
    shape = _STONE_SHAPE.search(text)
    save = _STONE_SAVE.search(text, shape.end()) if shape else None
    return (*shape.groups(), *save.groups()) if shape and save else None
_TABLE_BREATH = re.compile(r"(?<!\d)(\d+)-foot (cone|line) of (?:gas \()?(acid|lightning|fire|cold|electricity)",
                           re.IGNORECASE)


def _plain_breath(block: RawBlock, item: dict, abilities: list[dict], notes: Notes) -> dict:
    """A breath weapon that is not a cone or line of damage in its own words: the gorgon's ("60-foot cone, once
    every 1d4 rounds (but no more than five times per day), turn to stone permanently, Fortitude DC 19 negates") is
    a breath effect; the chimera's ("depends on the color of its dragon head, as summarized on the table below ...
    once every 1d4 rounds, deals 3d8 points of damage, and allows a DC 17 Reflex save for half damage") is a
    damaging breath of the table's first head (the SRD rolls 1d10 for it)."""
    key = "breath weapon (non-damage)"
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "breath weapon")
    stone = _turn_to_stone(text)
    if stone:
        length, shape, recharge, save, dc = stone
        field = {"shape": shape.lower(), "length_ft": number(length), "effect": "petrify",
                 "save": SAVES[save.lower()], "dc": number(dc), "recharge": recharge}
        how = ""
        if re.search(r"no more than (\w+) times per day", text):
            how = "; its limit of uses a day is left out (a fight is over first)"
        for a in abilities:
            if a["key"] == key:
                a["dc"], a["save"] = field["dc"], field["save"]
        _set(abilities, key, "modelled", f"breath_effect: {field['length_ft']}-ft. {field['shape']}, turned to stone "
                                         f"for good, {field['save'].capitalize()} DC {field['dc']} negates, every "
                                         f"{field['recharge']} rounds{how}")
        return {"breath_effect": field}
    dmg = re.search(r"deals (\d+d\d+) points of damage, and allows a DC (\d+) Reflex save for half", text)
    recharge = re.search(r"once every (\d+d\d+) rounds", text)
    rows = [row for table in size_tables(block, desc.line, "Breath Weapon") for row in table.values()] \
        if desc is not None and dmg else []
    first = next((_TABLE_BREATH.search(_column(row, "Breath Weapon") or "") for row in rows), None)
    if dmg is None or first is None or recharge is None:
        return _ignored(abilities, key, "not a cone or line of damage, nor a breath effect the engine's "
                                        "breath_effect has")
    energy = {"lightning": "electricity"}.get(first.group(3).lower(), first.group(3).lower())
    head = _column(rows[0], "Head") or "the first"
    weapon = {"shape": first.group(2).lower(), "length_ft": number(first.group(1)), "damage": dmg.group(1),
              "damage_type": energy, "save": "ref", "dc": number(dmg.group(2)), "recharge": recharge.group(1),
              "half_on_save": True}
    notes.add("guess", _field_name(item), cell, f"breath weapon: its shape and energy by the color of its dragon "
                                                 f"head (rolled on 1d10): the table's first row, {head.lower()} "
                                                 f"({first.group(0)})", text[:200])
    for a in abilities:
        if a["key"] == key:
            a.update(key="breath weapon", dc=weapon["dc"], save="ref", damage=weapon["damage"])
    _set(abilities, "breath weapon", "modelled", f"breath_weapon: {weapon['length_ft']}-ft. {weapon['shape']} of "
                                                 f"{weapon['damage']} {energy}, Reflex DC {weapon['dc']} half, every "
                                                 f"{weapon['recharge']} rounds; the {head.lower()} head of the table's "
                                                 "first row (the SRD rolls the head's color)")
    return {"breath_weapon": weapon}


# --------------------------------------------------------------------------------------------- acid spray
_SPRAY_CONE = re.compile(r"(?<!\d)(\d+)-foot cone", re.IGNORECASE)


def _acid_spray(block: RawBlock, item: dict, abilities: list[dict], notes: Notes) -> dict:
    """Acid spray as a breath weapon: the giant bombardier beetle's ("release a 10-foot cone of acidic vapor once
    per round. Those within the cone must succeed on a DC 13 Fortitude save or take 1d4+2 points of acid damage":
    the save negates) and the digester's ("spray acid in a 20-foot cone, dealing 4d8 points of damage ... it can't
    use it again until 1d4 rounds later" and, a paragraph on, "a DC 17 Reflex save halves the damage")."""
    cell = block.get(_field_name(item))
    desc, _ = _text_of(block, item, "acid spray")
    text = _following(block, desc, 2)
    cone = _SPRAY_CONE.search(text)
    dmg = re.search(rf"(?:take|dealing|deals) ({_DICE}) points? of (?:acid )?damage", text, re.IGNORECASE)
    save = re.search(r"\bDC (\d+) (Fortitude|Reflex) save (or take|halves)", text, re.IGNORECASE)
    every = re.search(r"until (\d+d\d+) rounds later", text) or re.search(r"once (per) round", text)
    if cone is None or dmg is None or save is None or every is None:
        what = "no cone" if cone is None else "no damage" if dmg is None else "no save DC" if save is None \
            else "how often"
        notes.add("unread", _field_name(item), cell, f"acid spray: {what} read: not modelled", text[:200])
        return _ignored(abilities, "acid spray", f"{what} read")
    half = save.group(3).lower() == "halves"
    weapon = {"shape": "cone", "length_ft": number(cone.group(1)), "damage": _dice(dmg.group(1)), "damage_type": "acid",
              "save": SAVES[save.group(2).lower()], "dc": number(save.group(1)),
              "recharge": "1" if every.group(1) == "per" else every.group(1), "half_on_save": half}
    how = ""
    if re.search(r"concentrated stream", text):
        how = "; its stream at a single foot-near target is left out (the cone only)"
    for a in abilities:
        if a["key"] == "acid spray":
            a["dc"], a["save"], a["damage"] = weapon["dc"], weapon["save"], weapon["damage"]
    _set(abilities, "acid spray", "modelled", f"breath_weapon: {weapon['length_ft']}-ft. cone of {weapon['damage']} "
                                              f"acid, {weapon['save'].capitalize()} DC {weapon['dc']} "
                                              f"{'half' if half else 'negates'}, every {weapon['recharge']} "
                                              f"round(s), as its action{how}")
    return {"breath_weapon": weapon}


# --------------------------------------------------------------------------------------------- stench
def _stench(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``must succeed on a DC 13 Fortitude save or be sickened for 10 rounds`` (the troglodyte's); minutes are
    their average in rounds. A stench that nauseates (the hezrou's) is not the engine's, which sickens."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "stench")
    text = _following(block, desc, 1) or text
    dcs = set(re.findall(r"\bDC (\d+) Fortitude|\bFortitude DC (\d+)", text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    if dc is not None:
        _numbers(abilities, "stench", dc, "fort")
    if re.search(r"\bnauseated\b", text, re.IGNORECASE):
        if dc is None or not re.search(r"within 10 feet must succeed .* or be nauseated for as long as it remains "
                                       r"within the affected area.*Creatures that successfully save are sickened",
                                       text, re.IGNORECASE):
            return _ignored(abilities, "stench", "its nausea's terms not read")
        _set(abilities, "stench", "modelled", f"stench: the foes in melee with it (within 10 feet), Fort DC {dc} or "
                                              "nauseated (no actions but a move: out of the fight, not helpless), "
                                              "else sickened, for the fight (they stay near it), on its first action")
        return {"stench": {"dc": dc, "rounds": "1", "nauseates": True}}
    m = re.search(rf"sickened for ({_DICE}) (round|minute|hour)s?", text, re.IGNORECASE)
    if dc is None or m is None:
        what = "no Fortitude DC" if dc is None else "how long it sickens"
        return _unread(notes, abilities, item, cell, "stench", f"{what} read", text)
    rounds, changed = _rounds(m.group(1), m.group(2))
    how = ""
    if changed:
        notes.add("changed", _field_name(item), cell, f"stench: {changed}", text[:200])
        how = f" ({_dice(m.group(1))} {m.group(2).lower()}s: their average)"
    _set(abilities, "stench", "modelled", f"stench: Fort DC {dc} or sickened for {rounds} rounds{how}, on its first "
                                          "action")
    return {"stench": {"dc": dc, "rounds": rounds}}


# --------------------------------------------------------------------------------------------- trample
def _trample(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``Trample 2d8+15`` (the entry) and ``Trample (Ex): Reflex half DC 25`` (the description); the damage is
    bludgeoning (SRD 3.5, Special Abilities: Trample)."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "trample")
    entry = re.search(rf"({_DICE})", re.sub(r"^\s*trample\s*", "", _clean(item["name"]), flags=re.IGNORECASE))
    told = re.search(r"\bdeals? (\d+d\d+(?:\s*[+-]\s*\d+)?) points? of (?:bludgeoning )?damage", text, re.IGNORECASE)
    dmg = entry if entry and "d" in entry.group(1) else told
    dcs = set(re.findall(r"\bReflex (?:half )?DC (\d+)|\bDC (\d+) Reflex", text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    if dc is None or dmg is None:
        what = "no Reflex DC" if dc is None else "no damage"
        return _unread(notes, abilities, item, cell, "trample", f"{what} read", text)
    damage = _dice(dmg.group(1))
    for a in abilities:
        if a["key"] == "trample":
            a["damage"], a["dc"], a["save"] = damage, dc, "ref"
    _set(abilities, "trample", "modelled", f"trample: {damage} bludgeoning, Reflex DC {dc} half, on two or more "
                                           "smaller foes instead of its attacks")
    return {"trample": {"damage": damage, "dc": dc, "damage_types": ["bludgeoning"]}}


# --------------------------------------------------------------------------------------------- powerful charge
_CHARGE_DAMAGE = re.compile(r"\bdeals? (\d+d\d+(?:\s*[+-]\s*\d+)?) points? of damage", re.IGNORECASE)
_CHARGE_ATTACK = re.compile(r"\b(?:its|a single|single|an?) ([a-z]+) attack\b", re.IGNORECASE)
_CHARGE_BONUS = re.compile(r"\bwith an? ([+-]\d+) attack bonus|\battack bonus (?:of )?([+-]\d+)", re.IGNORECASE)


def _powerful_charge(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The attack it charges with, as the SRD prints it (the engine adds the charge's +2): ``a single gore attack
    with a +9 attack bonus that deals 4d6+6 points of damage`` (the minotaur's), ``its gore attack deals 4d8+20``
    (the triceratops's: the gore's bonus of its routines); a text that names no attack (the rhinoceros's) charges
    with its standard attack."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "powerful charge")
    dmg = _CHARGE_DAMAGE.search(text)
    if dmg is None:
        return _unread(notes, abilities, item, cell, "powerful charge", "its damage not read", text)
    damage = _dice(dmg.group(1))
    for a in abilities:
        if a["key"] == "powerful charge":
            a["damage"] = damage
    standard = [a for r in data.get("attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    melee = standard + [a for r in data.get("full_attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    named = _CHARGE_ATTACK.search(text)
    how = ""
    if named:
        found = _named(named.group(1), [a["name"] for a in melee])
        if found is None:
            return _ignored(abilities, "powerful charge", f"its {named.group(1).lower()} attack is not an attack of "
                                                          "its routines")
        base = next(a for a in melee if a["name"] == found)
    elif standard:
        base = standard[0]
        how = f"; the text names no attack: its standard attack, the {base['name']}"
    else:
        return _ignored(abilities, "powerful charge", "the text names no attack and it has no melee attack")
    bonus = _CHARGE_BONUS.search(text)
    bonuses = [number(bonus.group(1) or bonus.group(2))] if bonus else [base["bonuses"][0]]
    if not bonus:
        how += f"; at the {base['name']}'s bonus, {bonuses[0]:+d}"
    charge = {"name": base["name"], "bonuses": bonuses, "damage": damage,
              "damage_types": list(base.get("damage_types") or ["bludgeoning"])}
    for key in ("threat", "multiplier"):
        if key in base:
            charge[key] = base[key]
    _set(abilities, "powerful charge", "modelled", f"powerful_charge: {charge['name']} {bonuses[0]:+d} melee ({damage})"
                                                   f" as it closes in, round 1, the charge's +2 added by the "
                                                   f"engine{how}")
    return {"powerful_charge": charge}
