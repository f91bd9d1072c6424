"""Special abilities that become stat-block fields once a block's attacks are known: pounce, ferocity, improved grab
(with constrict), frightful presence and paralysis.

:func:`srd_abilities.read_abilities` records these abilities as ``ignored`` with the SRD's words; once the attack
routines are read, :func:`combat_fields` reads their numbers from the block's description (``Improved Grab (Ex): To
use this ability, a lion must hit with its bite attack``, ``Paralysis (Ex): ... DC 12 Fortitude save or be paralyzed
for 1d4+1 rounds``), names the attack of the routines that delivers them, fills the :class:`Creature` fields
(``pounce``, ``ferocity``, ``improved_grab``, ``frightful_presence``, ``paralysis``) and marks the abilities
``modelled``. An ability whose numbers cannot be read stays ``ignored`` with an ``unread`` note; one that the
engine's field cannot carry (a paralysis that only a swallowed foe suffers, a grab with an attack that deals no
hit-point damage and so is not an attack the engine rolls) stays ``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re
from fractions import Fraction

from arena.dice import parse as parse_dice
from arena.srd.fields import AttackRead, Notes, _clean, number
from arena.srd.text import Cell, RawBlock, describing, drop_parens

NATURAL = ("bite", "claw", "claws", "slam", "tentacle", "arm", "arms", "gore", "sting", "tail slap", "pincer",
           "talon", "wing", "tendril", "horn", "hoof", "hooves", "butt", "tail", "touch", "tongue", "rake", "crush")
"""Natural attacks, for a grab whose text names none (the first of the full attack that is one)."""

ROUNDS_PER = {"round": 1, "minute": 10, "hour": 600}
"""SRD 3.5: a round is 6 seconds."""

_DICE = r"\d+d\d+(?:\s*[+-]\s*\d+)?|\d+"
_GRAB_ATTACK = re.compile(r"must hit\b[^.]*?\bwith (?:its |a |an |the |both |one or more )?([a-z][a-z ]*?)"
                          r"(?: attacks?)?(?=[.,;]|\s+(?:to|and then|it can)\b)", re.IGNORECASE)
_PARALYZED_FOR = re.compile(rf"paralyzed for ({_DICE}) (round|minute|hour)s?", re.IGNORECASE)
_FORT_DC = re.compile(r"\bDC (\d+) Fortitude", re.IGNORECASE)
_ENERGY_PLUS = re.compile(r"\bplus (\d+d\d+(?:[+-]\d+)?) (fire|cold|acid|electricity|sonic)\b", re.IGNORECASE)


_HARMLESS_RIDER = re.compile(r"^(?:\d+d\d+(?:[+-]\d+)?|\d+)\s+(?:str|dex|con|int|wis|cha)\w*(?:\s+(?:damage|drain))?$"
                             r"|^paralysis$|^attach$", re.IGNORECASE)
"""What a hit of an attack that deals no hit-point damage does, when it is something the engine models on a hit:
ability damage or drain (a shadow's ``1d6 Str``), paralysis (a mohrg's tongue), attach (a stirge's touch)."""


def harmless_attack(a: AttackRead) -> bool:
    """Keep ``a``, an attack that deals no hit-point damage, in its routine as ``harmless``: a melee attack whose hit
    does what the engine models (``Incorporeal touch +3 melee (1d6 Str)``, ``tongue +12 melee touch (paralysis)``),
    or one of no effect at all but a grab's (``Arms +5 melee (0)``: an octopus's improved grab needs its arms to
    hit). Webs, ropes, rays and swarms are read elsewhere."""
    if a.damage is not None or a.kind != "melee" or re.match(r"swarm\b", a.name, re.IGNORECASE):
        return False
    if not a.riders:
        return bool(re.search(r"\(0\)", a.text))
    return all(_HARMLESS_RIDER.match(r.strip()) for r in a.riders)


def _field_name(item: dict) -> str:
    return "Special Attacks" if item["kind"] == "attack" else "Special Qualities"


def _singular(word: str) -> str:
    word = word.strip().lower()
    if word.endswith("ves"):
        return word[:-3] + "f"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _named(word: str, names: list[str]) -> str | None:
    """The attack of ``names`` that ``word`` names (``claws`` is the ``claw`` attack, ``talons`` the ``talon``)."""
    w = word.strip().lower()
    for name in names:
        if name == w:
            return name
    for name in names:
        if _singular(name) == _singular(w):
            return name
    return None


def _attack_names(routines: list[list[dict]]) -> list[str]:
    out: list[str] = []
    for routine in routines:
        for a in routine:
            if a["name"] not in out:
                out.append(a["name"])
    return out


def _melee_names(routines: list[list[dict]]) -> list[str]:
    return _attack_names([[a for a in r if a.get("kind", "melee") == "melee"] for r in routines])


def _rounds(amount: str, unit: str) -> tuple[str, str | None]:
    """``1d4+1`` rounds as dice; minutes and hours as their average in rounds (RoundsDice holds no product), with
    what was done."""
    amount = amount.replace(" ", "")
    per = ROUNDS_PER[unit.lower()]
    if per == 1:
        return amount, None
    expr = parse_dice(amount)
    mean = Fraction(expr.minimum + expr.maximum, 2)          # a sum of dice is symmetric about its middle
    rounds = max(1, round(mean * per))
    return str(rounds), (f"{amount} {unit}s is {per} x {amount} rounds, which a dice expression cannot write: "
                         f"stored as its average, {rounds} rounds (a fight is over long before)")


def _set(abilities: list[dict], key: str, engine: str, note: str) -> None:
    for a in abilities:
        if a["key"] == key:
            a["engine"] = engine
            a["notes"] = note


def _ignored(abilities: list[dict], key: str, why: str) -> dict:
    """An ability the engine leaves out: marked ignored, saying why; no stat-block field."""
    _set(abilities, key, "ignored", why)
    return {}


def _unread(notes: Notes, abilities: list[dict], item: dict, cell, key: str, what: str, text: str,
            label: str | None = None) -> dict:
    """An ability whose numbers the text does not give: noted as unread (file, line and text) and marked ignored,
    with what was missing; no stat-block field."""
    notes.add("unread", _field_name(item), cell, f"{label or key}: {what}: not modelled", text[:200] or item["name"])
    return _ignored(abilities, key, what)


def _first(abilities: list[dict], key: str) -> dict | None:
    return next((a for a in abilities if a["key"] == key), None)


def own_description(block: RawBlock, name: str) -> Cell | None:
    """The paragraph that describes the ability ``name`` for this creature: where the columns of one table share
    their prose and it describes the ability once per creature (the ghoul's paralysis, then the ghast's), the
    paragraph that names the creature (``a ghast's bite``); else the first."""
    found = describing(block.description, name)
    if len(found) < 2:
        return found[0] if found else None
    words = list(dict.fromkeys(w for w in re.findall(r"[a-z]+", block.title.lower()) if len(w) > 3))[:MAX_WORDS]
    return max(found[:MAX_NAMING], key=lambda c: sum(1 for w in words if re.search(rf"\b{w}", c.text.lower())))


MAX_NAMING = 50
"""Paragraphs describing one ability that are weighed for naming the creature (the SRD has at most three)."""
MAX_WORDS = 20
"""Words of a creature's title looked for in them (the SRD's longest title has eight)."""


def _description(block: RawBlock, item: dict, *names: str) -> Cell | None:
    for name in (item["name"], *names):
        name = re.sub(r"\d+d\d+(?:[+-]\d+)?|[+-]?\d+", " ", drop_parens(name.lower(), " "))
        name = re.split(r"\s+(?:plus|or)\s+", name)[0].strip(" .,")
        if name:
            desc = own_description(block, name)
            if desc is not None:
                if " -- " not in item["text"]:          # the entry named it otherwise (a ghast's "paralyis")
                    item["text"] = f"{item['text']} -- {desc.text.strip()[:400]}"[:600]
                return desc
    return None


def combat_fields(block: RawBlock, abilities: list[dict], attack: list[list[dict]], full: list[list[dict]],
                  reads: list[list[AttackRead]], notes: Notes) -> dict:
    """The pounce, ferocity, improved grab, frightful presence and paralysis fields of the block, read from its
    abilities (whose ``engine`` and ``notes`` this sets) and its routines (``attack`` and ``full``, as written);
    ``reads`` are the routines as read, for the attacks that deal no hit-point damage and so are not kept."""
    out: dict = {}
    names = _attack_names(full + attack)
    unrolled = {a.name.lower() for r in reads for a in r if a.damage is None}
    for key, field in (("pounce", "pounce"), ("ferocity", "ferocity")):
        if _first(abilities, key) is not None:
            out[field] = True
            _set(abilities, key, "modelled", field)
    grab = _first(abilities, "improved grab")
    if grab is not None:
        out.update(_improved_grab(block, grab, abilities, names, unrolled, full, notes))
    elif _first(abilities, "constrict") is not None:
        _set(abilities, "constrict", "ignored", "constrict without improved grab: the engine's constrict is the "
                                                "damage of a hold that improved grab starts")
    fear = _first(abilities, "frightful presence")
    if fear is not None:
        out.update(_frightful_presence(block, fear, abilities, notes))
    para = _first(abilities, "paralysis")
    if para is not None:
        out.update(_paralysis(block, para, abilities, names, unrolled, full, notes))
    return out


# --------------------------------------------------------------------------------------------- improved grab
def _improved_grab(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
                   full: list[list[dict]], notes: Notes) -> dict:
    cell = block.get(_field_name(item))
    desc = _description(block, item, "improved grab")
    text = _clean(desc.text) if desc else ""
    m = _GRAB_ATTACK.search(text)
    words = [w.strip() for w in re.split(r"\s+or\s+|\s+and\s+|,", m.group(1))] if m else []
    words = [re.sub(r"^(?:its|a|an|the)\s+", "", w) for w in words if w]
    attack: str | None = None
    how = ""
    if words:
        found = [n for n in (_named(w, names) for w in words) if n]
        missing = [w for w in words if _named(w, names) is None]
        if not found:
            why = "deals no hit-point damage" if any(_singular(w) in {_singular(u) for u in unrolled}
                                                     for w in missing) else "is not an attack of its routines"
            note = (f"its {' or '.join(words)} attack {why}: not an attack the engine rolls, so the engine's "
                    "improved grab (a grapple when that attack hits) cannot start")
            _set(abilities, "improved grab", "ignored", note)
            return _ignored(abilities, "constrict", "constrict: the damage of a hold its improved grab would start, "
                                                    "which the engine cannot (see improved grab)")
        order = [n for n in names if n in found]
        attack = order[0]
        if len(found) > 1:
            how = f"; the text names the {' or '.join(words)} attack: the {attack}, the first of the full attack"
            notes.add("guess", _field_name(item), cell, f"improved grab: the text names the {' or '.join(words)} "
                                                         f"attack; the engine's grab is on one attack: the {attack}, "
                                                         "the first of the full attack", text[:200])
        if m and re.search(r"\bboth\b", m.group(0)):
            how += f"; the SRD's grab needs both {attack} attacks to hit, the engine's one"
            notes.add("guess", _field_name(item), cell, f"improved grab: the SRD's needs both {attack} attacks to "
                                                         f"hit; the engine's grabs when one {attack} hits", text[:200])
    else:
        natural = [n for n in names if n in NATURAL or _singular(n) in NATURAL]
        melee = _melee_names(full)
        attack = (natural or melee or names or [None])[0]
        if attack is None:
            notes.add("unread", _field_name(item), cell, "improved grab: no attack to grab with (the block has no "
                                                          "attack routine): not modelled", text[:200] or item["name"])
            _set(abilities, "improved grab", "ignored", "no attack to grab with")
            return _ignored(abilities, "constrict", "constrict: its improved grab is not modelled")
        how = f"; the text names no attack: the {attack}, the first natural attack of the full attack"
        notes.add("guess", _field_name(item), cell, f"improved grab: {'its description' if desc else 'no description'}"
                                                     f" names no attack to grab with: the {attack}, the first natural "
                                                     "attack of the full attack", text[:200] or item["name"])
    also = re.search(r"\balso use its improved grab ability on an? (\w+(?: \w+)?) attack", text, re.IGNORECASE)
    if also and _named(also.group(1), names) != attack:
        how += f"; its grab with the {also.group(1).lower()} is left out (the engine's grab is on one attack)"
    grab: dict = {"attack": attack, "constrict": None}
    if re.search(r"\ban opponent of any size\b", text, re.IGNORECASE):
        grab["any_size"] = True
        how += "; against a foe of any size"
    deals = re.search(r"\bautomatically deals (\w+) damage", text, re.IGNORECASE)
    if deals and (other := _named(deals.group(1), names)) and other != attack:
        grab["damage_attack"] = other
        how += f"; the hold deals its {other}'s damage"
    _set(abilities, "improved grab", "modelled", f"improved_grab on the {attack}{how}")
    squeeze = _first(abilities, "constrict")
    if squeeze is not None:
        dice = _constrict(block, squeeze, abilities, notes)
        if dice is not None:
            grab["constrict"] = dice
    return {"improved_grab": grab}


def _constrict(block: RawBlock, item: dict, abilities: list[dict], notes: Notes) -> str | None:
    cell = block.get(_field_name(item))
    entry = _clean(item["name"])
    dice = re.findall(r"\b(\d+d\d+(?:\s*[+-]\s*\d+)?)\b", re.sub(r"\bplus \d+d\d+(?:[+-]\d+)?(?: \w+)?", "", entry))
    desc = _description(block, item, "constrict")
    if not dice and desc is not None:
        m = re.search(r"(?<!\d)(\d+d\d+(?:\s*[+-]\s*\d+)?) points? of (?:\w+ )?damage", desc.text)
        dice = [m.group(1)] if m else []
    if not dice and item.get("damage"):
        dice = [item["damage"]]
    if not dice:
        notes.add("unread", _field_name(item), cell, "constrict: no damage dice read: not modelled",
                  (desc.text[:200] if desc else entry))
        _set(abilities, "constrict", "ignored", "no damage dice read")
        return None
    damage = dice[0].replace(" ", "")
    how = ""
    if len(dice) > 1:
        how += f"; {entry!r} gives several: the first, {damage}"
        notes.add("guess", _field_name(item), cell, f"constrict: {entry!r} gives {len(dice)} damages (one per "
                                                     f"attack that grabs): the first, {damage}", entry)
    energy = _ENERGY_PLUS.search(entry)
    if energy:
        how += (f"; its {energy.group(1)} {energy.group(2).lower()} is left out (the engine's constrict is one "
                "damage expression)")
        notes.add("guess", _field_name(item), cell, f"constrict: the {energy.group(1)} {energy.group(2).lower()} "
                                                     f"of each constrict is left out: stored as {damage}", entry)
    if parse_dice(damage).maximum < 1:
        notes.add("changed", _field_name(item), cell, f"constrict {damage} is always below 1: stored as 1 (the "
                                                       "SRD's minimum of 1 on a hit)", entry)
        damage = "1"
    _set(abilities, "constrict", "modelled", f"improved_grab.constrict {damage}{how}")
    for a in abilities:
        if a["key"] == "constrict":
            a["damage"] = damage
    return damage


def _paralysis_in_hold(abilities: list[dict], dc: int, rounds: re.Match, on: str, held: re.Match | None,
                       notes: Notes, cell, text: str) -> dict:
    """Paralysis of a foe the creature holds (SRD 3.5 chuul: "Anyone held in the tentacles must succeed on a DC 19
    Fortitude save each round on the chuul's turn or be paralyzed for 6 rounds") or has swallowed (tendriculos:
    "Once inside the plant's mass, the opponent must succeed on a DC 20 Fortitude save or be paralyzed for 3d6
    rounds ... A new save is required each round"): a save on each of its turns while it holds the foe. It needs
    the hold: improved grab (and swallow whole) that the engine models. The chuul's move of the foe from claw to
    tentacles is abstract: the claw's hold is the tentacles' (they "grapple with the same strength")."""
    grab = _first(abilities, "improved grab")
    swallow = _first(abilities, "swallow whole")
    if grab is None or grab["engine"] != "modelled" or (on == "swallowed" and swallow is None):
        what = "swallow whole" if on == "swallowed" else "improved grab"
        return _ignored(abilities, "paralysis", f"only a foe it {'has swallowed' if on == 'swallowed' else 'holds'} "
                                                f"is paralyzed, and its {what} is not modelled")
    attack = re.search(r"improved_grab on the ([a-z ]+?)(?:;|$)", grab.get("notes", ""))
    duration, changed = _rounds(rounds.group(1), rounds.group(2))
    how = "; the claw's hold stands for the tentacles'" if held and held.group(1) != (attack.group(1) if attack
                                                                                        else "") else ""
    if changed:
        how += f"; {changed}"
        notes.add("changed", "Special Attacks", cell, f"paralysis: {changed}", text[:200])
    where = "it has swallowed" if on == "swallowed" else "it holds"
    _set(abilities, "paralysis", "modelled", f"paralysis of a foe {where}: Fort DC {dc} on each of its turns, "
                                             f"{duration} rounds{how}")
    return {"paralysis": {"attack": attack.group(1) if attack else "bite", "dc": dc, "duration": duration,
                          "immune_types": [], "on": on}}


# --------------------------------------------------------------------------------------------- frightful presence
def _frightful_presence(block: RawBlock, item: dict, abilities: list[dict], notes: Notes) -> dict:
    cell = block.get(_field_name(item))
    desc = _description(block, item, "frightful presence")
    text = _clean(desc.text) if desc else ""
    m = re.search(r"\bDC\s*(\d+)", item["name"])
    dc = number(m.group(1)) if m else None
    if dc is None and text:
        found = set(re.findall(r"\bDC (\d+) Will", text))
        dc = number(found.pop()) if len(found) == 1 else None
    if dc is None:
        notes.add("unread", _field_name(item), cell, "frightful presence: no Will DC read: not modelled",
                  text[:200] or item["name"])
        return _ignored(abilities, "frightful presence", "no Will DC read")
    duration = "4d6"
    how = ""
    rounds = re.search(rf"\b(?:panicked|shaken|frightened|afraid) for ({_DICE}) (round|minute|hour)s?", text,
                       re.IGNORECASE)
    if rounds:
        duration, changed = _rounds(rounds.group(1), rounds.group(2))
        if changed:
            notes.add("changed", _field_name(item), cell, f"frightful presence: {changed}", text[:200])
            how = f"; {changed}"
    elif re.search(r"as long as", text):
        duration = "100"
        how = "; shaken as long as the foe stays near it: for the whole fight (100 rounds)"
        notes.add("guess", _field_name(item), cell, "frightful presence: shaken as long as the foe stays within "
                                                     "its range: 100 rounds, the whole fight", text[:200])
    if text and "panicked" not in text.lower() and "shaken" in text.lower():
        how += "; the SRD's makes every foe shaken, the engine's panics those of 4 HD or fewer"
        notes.add("guess", _field_name(item), cell, "frightful presence: the SRD's makes a foe shaken whatever its "
                                                     "Hit Dice; the engine's panics foes of 4 HD or fewer",
                  text[:200])
    _set(abilities, "frightful presence", "modelled", f"frightful_presence: Will DC {dc}, {duration} rounds{how}")
    for a in abilities:
        if a["key"] == "frightful presence":
            a["dc"], a["save"] = dc, "will"
    return {"frightful_presence": {"dc": dc, "duration": duration}}


# --------------------------------------------------------------------------------------------- paralysis
def _paralysis(block: RawBlock, item: dict, abilities: list[dict], names: list[str], unrolled: set[str],
               full: list[list[dict]], notes: Notes) -> dict:
    cell = block.get(_field_name(item))
    desc = _description(block, item, "paralysis")
    text = _clean(desc.text) if desc else ""
    dcs = set(_FORT_DC.findall(text))
    rounds = _PARALYZED_FOR.search(text)
    if len(dcs) != 1 or rounds is None:
        what = "no description" if not desc else "no Fortitude DC" if len(dcs) != 1 else "no duration"
        notes.add("unread", _field_name(item), cell, f"paralysis: {what} read: not modelled",
                  text[:200] or item["name"])
        return _ignored(abilities, "paralysis", f"{what} read")
    dc = number(dcs.pop())
    low = text.lower()
    for a in abilities:
        if a["key"] == "paralysis":
            a["dc"], a["save"] = dc, "fort"
    held = re.search(r"\bheld in (?:the |its )?(\w+)", low)
    inside = re.search(r"\bswallow", low) and not re.search(r"\bhit by\b", low)
    if (inside or held) and not re.search(r"\bhit by\b", low):
        return _paralysis_in_hold(abilities, dc, rounds, "swallowed" if inside else "held", held, notes, cell,
                                  text)
    words: list[str] = []
    m = re.search(r"\bhit by (?:an? |the )?[\w' ]*?'s? ([a-z ]+?) attacks?\b", low)
    if m:
        words = [w.strip() for w in re.split(r"\s+or\s+|\s+and\s+|,", m.group(1)) if w.strip()]
    elif (m := re.search(r"\bthe (\w+) touches\b", low)):
        words = [m.group(1)]
    elif re.search(r"\bbitten by\b", low):
        words = ["bite"]
    how = ""
    melee = _melee_names(full)
    found: list[str] = []
    for w in words:
        if w == "melee":
            found += [n for n in melee if n not in found]
        elif (n := _named(w, names)) and n not in found:
            found.append(n)
    if not words:
        notes.add("unread", _field_name(item), cell, "paralysis: the attack that delivers it not read: not modelled",
                  text[:200])
        return _ignored(abilities, "paralysis", "the attack that delivers it not read")
    if not found:
        missing = " or ".join(words)
        why = "deals no hit-point damage" if any(_singular(w) in {_singular(u) for u in unrolled} for w in words) \
            else "is not an attack of its routines (it comes of a hold it keeps)" if "bite" in words \
            else "is not an attack of its routines"
        return _ignored(abilities, "paralysis", f"its {missing} {why}: not an attack the engine rolls, and the "
                                                "engine's paralysis is on a hit with one")
    order = [n for n in names if n in found]
    attack = order[0]
    named = [w for w in words if w != "melee"]
    if len(order) > 1:
        how += f"; the SRD's paralyzes on a {' or '.join(order)} hit, the engine's on the {attack} (the first of " \
               "the full attack)"
        notes.add("guess", _field_name(item), cell, f"paralysis: the SRD's is on a hit with the {' or '.join(order)}"
                                                     f"; the engine's is on one attack: the {attack}, the first of "
                                                     "the full attack", text[:200])
    left = [w for w in named if _named(w, names) is None]
    if left:
        how += f"; its {' and '.join(left)} left out (not an attack the engine rolls)"
    duration, changed = _rounds(rounds.group(1), rounds.group(2))
    if changed:
        how += f"; {changed}"
        notes.add("changed", _field_name(item), cell, f"paralysis: {changed}", text[:200])
    if re.search(r"\belves (?:have|are) immun", low):
        how += "; elves' immunity left out (elf is a race, not a creature type the model has)"
        notes.add("guess", _field_name(item), cell, "paralysis: elves are immune to it in the SRD; elf is a race, "
                                                     "not a creature type the model has: left out", text[:200])
    _set(abilities, "paralysis", "modelled", f"paralysis on the {attack}: Fort DC {dc}, {duration} rounds{how}")
    return {"paralysis": {"attack": attack, "dc": dc, "duration": duration, "immune_types": []}}
