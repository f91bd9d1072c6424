"""Reading an SRD 3.5 stat block's attack routines: ``Attack`` and ``Full Attack`` cells such as ``2 claws +9 melee
(1d6+6) and bite +4 melee (1d6+3)``, each attack's count, bonuses, kind, damage, critical range, damage types and
riders (``plus poison``, ``1d6 Str``).

:func:`read_routines` is the reader of both fields (``reader(reading)``, as :mod:`arena.srd.fields`' are): the
alternatives (``or``) of the cell, each a list of attacks made together. What it could not read, or read with a
guess, is a note at the field; an attack it cannot read is left out (an ``unread`` note), never an error. An
attack's damage types by its name are :mod:`arena.srd.damage_types`'.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.errors import ArenaError
from arena.srd.context import AttackRead, Reading
from arena.srd.damage_types import damage_types_of, energy_of
from arena.srd.patterns import DICE, ENERGY_WORDS, TERM, singular
from arena.srd.text import clean, dice_text, is_dash, number, signed, top_level_split

RANGED_WORDS = (
    "bow",
    "crossbow",
    "javelin",
    "sling",
    "dart",
    "shuriken",
    "rock",
    "spit",
    "bolas",
    "net",
    "ray",
    "arrow",
    "spine",
    "throwing",
    "spear (thrown)",
)
"""Words of an attack's name that make it ranged when the cell says neither melee nor ranged."""
COUNT_WORDS = {w: n for w, n in (("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6))}
"""An attack's count written as a word: ``two claws +5 melee``."""
MATERIALS = ("adamantine", "cold iron", "silver")
"""The special materials an attack's name may give its weapon: ``cold iron greatsword``."""
ELEMENT_NAMES = tuple(
    (w, re.compile(rf"\b{w}\b")) for w in ("electricity", "fire", "cold", "acid", "sonic", "lightning")
)
"""Energies an attack's name can carry, each with its word's pattern: ``electricity ray``, ``fire touch``."""
SWARM = re.compile(r"swarm\b", re.IGNORECASE)
"""A swarm's attack: ``Swarm (2d6)``."""

BONUSES = r"[+-]\s?\d+(?:\s*/\s*[+-]\s?\d+){0,12}"
"""An attack's bonuses, the iterative ones too: ``+9``, ``+17/+12``; at most 13 of them, so that a cell of thousands
of ``+1/`` is refused in linear time."""
ATTACK = re.compile(
    rf"^(?:(?P<count>\d+)\s+)?(?P<name>.{{0,200}}?)\s*(?P<bonus>{BONUSES})\s*\*?\s*"
    r"(?:(?P<kind>melee|ranged)\s*(?P<touch>touch)?)?\s*\*?\s*\((?P<damage>.*)\)\s*\*?$",
    re.IGNORECASE,
)
"""One attack: ``2 claws +9 melee (1d6+6)``, ``incorporeal touch +3 melee touch (1d6 Str)``. The name (the SRD's
longest is 60 characters) and the bonuses are bounded: a hostile cell is not rescanned from every position."""
NO_DAMAGE = re.compile(
    rf"^(?:(?P<count>\d+)\s+)?(?P<name>[^()]{{0,200}}?)\s*(?P<bonus>{BONUSES})\s*"
    r"(?P<kind>melee|ranged)\s*(?P<touch>touch)?\s*$",
    re.IGNORECASE,
)
"""An attack without damage in parentheses: ``web +11 ranged``, ``eye ray +8 ranged touch``."""
AUTOMATIC = re.compile(r"^(?P<name>swarm|[a-z ]+?)\s*\((?P<damage>[^()]*)\)\s*$", re.IGNORECASE)
"""An attack with no attack roll: a swarm's ``Swarm (2d6 plus poison)``."""
NAME_BEFORE_BONUS = re.compile(r"^(.*?\))\s*(?=[+-]\s?\d)")
"""A name with its own parentheses before the bonus: ``composite longbow (+1 Str bonus) +5 ranged (1d8+1/x3)``."""
BONUS_AND_KIND = re.compile(r"[+-]\d+\s*(melee|ranged)")
"""A bonus and its kind: ``+5 melee`` (then the parentheses before it are not part of a name)."""
SPLIT_DAMAGE = re.compile(r"^(\d+)\s+(.*?\()([^()]*,[^()]*)\)\s*$")
"""Two weapons and their damages in one entry: ``2 short swords +5 melee (1d6+2/19-20, 1d6+1/19-20)``."""
ENHANCEMENT = re.compile(r"^(.*?)\+(\d)\s+(.*)$")
"""A weapon's enhancement bonus in its name: ``+1 battleaxe``, ``huge +2 greatsword``."""
SPLIT_BONUSES = re.compile(r"\s*/\s*")
"""Between iterative bonuses: ``+17/+12``."""
DAMAGE = re.compile(rf"^({TERM}(?:\s*[+-]\s*{TERM})*)\s*\*?\s*((?:/\s*(?:\d+\s*-\s*20|x\s*\d)\s*)*)\s*(.*)$")
"""An attack's damage: a sum of dice and numbers, its critical range and multiplier, and the rest (its energy or
ability): ``1d6+6``, ``2d6+8/19-20/x3``, ``1d6 fire``, ``1d4 Str``."""
THREAT = re.compile(r"(?<!\d)(\d+)\s*-\s*20")
"""A critical threat range: ``19-20``."""
MULTIPLIER = re.compile(r"x\s*(\d)")
"""A critical multiplier: ``x3``."""
RIDER = re.compile(rf"^({DICE}|\d+)\s+(.*)$")
"""A rider of dice and what they are: ``1d6 fire``, ``2d6 acid``."""
TRAILING_OR = re.compile(r"\s+or\s*$")
"""A cell that ends in ``or`` (the conversion cut the next alternative)."""
COMMA_BEFORE_DAMAGE = re.compile(r",\s*\(")
"""``Slam+2 melee, (1d6+1)``: the conversion's comma before the damage."""
CRITICAL_OUTSIDE = re.compile(r"\)\s*(/\s*(?:x\s*\d|\d+-20)(?:\s*/\s*x\s*\d)?)")
"""``(1d6-2)/x3``: the critical outside the parentheses."""
HARMLESS_RIDER = re.compile(
    rf"^(?:{DICE}|\d+)\s+(?:str|dex|con|int|wis|cha)\w*(?:\s+(?:damage|drain))?$"
    r"|^paralysis$|^attach$",
    re.IGNORECASE,
)
"""What a hit of an attack that deals no hit-point damage does, when it is something the engine models on a hit:
ability damage or drain (a shadow's ``1d6 Str``), paralysis (a mohrg's tongue), attach (a stirge's touch)."""


def read_damage(text: str) -> tuple[str | None, int, int, list[str]]:
    """(hit-point damage dice or None, threat, multiplier, riders) of an attack's parentheses: ``2d6+8/19-20`` ->
    ``("2d6+8", 19, 2, [])``; ``1d8+2 plus poison`` -> ``("1d8+2", 20, 2, ["poison"])``; the damage of an energy
    (``1d6 fire``) is typed by a first rider ``@type fire``; ability damage (``1d6 Str``) is no hit-point damage."""
    text = text.strip().strip("*").strip()
    parts = top_level_split(text, (" plus ", " and ", ", plus "))
    main = parts[0] if parts else ""
    riders = parts[1:]
    threat, multiplier = 20, 2
    dice = None
    m = DAMAGE.match(main)
    if m:
        dice = m.group(1).replace(" ", "")
        crit = m.group(2) or ""
        r = THREAT.search(crit)
        if r:
            threat = number(r.group(1))
        x = MULTIPLIER.search(crit)
        if x:
            multiplier = number(x.group(1))
        tail = m.group(3).strip()
        energy = energy_of(tail) if tail else None
        if energy:  # "1d6 fire": the whole damage is energy
            riders.insert(0, f"@type {energy}")
        elif tail:  # "1d6 Str", "1d4 Wisdom drain"
            riders.insert(0, f"{dice} {tail}")
            dice = None
    else:
        riders.insert(0, main)
    return dice, threat, multiplier, riders


def read_routines(ctx: Reading) -> list[list[AttackRead]]:
    """The alternatives (SRD "or") of the Attack or Full Attack cell being read, each a list of attacks made
    together."""
    cell = ctx.cell
    if cell is None or is_dash(cell.text):
        return []
    text = mend_attack_text(clean(cell.text))
    routines = []
    for alternative in top_level_split(text, ("; or ", " or ", ";or ")):
        attacks = []
        for part in top_level_split(alternative, (", and ", " and ", "; and ", ", ", "; ")):
            attacks.extend(read_attack(ctx, part))
        if attacks:
            routines.append(attacks)
    return routines


def mend_attack_text(text: str) -> str:
    """The conversion's marks in an attack cell: ``Slam+2 melee, (1d6+1)``, ``(1d6-2)/x3``, ``(1d8+5`` (unclosed),
    ``(1d6+3))``, a trailing ``or``."""
    text = TRAILING_OR.sub("", text)
    text = COMMA_BEFORE_DAMAGE.sub(" (", text)
    text = CRITICAL_OUTSIDE.sub(r"\1)", text)
    text = text.replace("))", ")").replace("/?", "/x")
    if text.count("(") > text.count(")"):
        text += ")" * (text.count("(") - text.count(")"))
    return text


def read_attack(ctx: Reading, text: str) -> list[AttackRead]:
    """The attacks one entry of a routine makes: usually one; ``2 short swords +5 melee (1d6+2/19-20,
    1d6+1/19-20)`` is two (the second is the off hand's)."""
    split = SPLIT_DAMAGE.match(text.strip())
    if split and len(top_level_split(split.group(3), (",",))) == number(split.group(1)):
        out = []
        for damage in top_level_split(split.group(3), (",",)):
            out.extend(read_attack(ctx, f"{split.group(2)}{damage.strip()})"))
        return out
    read = _read_one_attack(ctx, text)
    return [read] if read is not None else []


def _without_roll(text: str) -> AttackRead | None:
    """An attack of no damage (``web +11 ranged``) or of no attack roll (a swarm's ``Swarm (2d6 plus poison)``)."""
    if nd := NO_DAMAGE.match(text):
        name = nd.group("name").strip().lower()
        return AttackRead(
            name=name,
            count=number(nd.group("count") or 1),
            bonuses=tuple(signed(b) for b in SPLIT_BONUSES.split(nd.group("bonus"))),
            kind=nd.group("kind").lower(),
            touch=bool(nd.group("touch")),
            damage=None,
            damage_types=("bludgeoning",),
            riders=(name,),
            text=text,
        )
    if auto := AUTOMATIC.match(text):
        name = auto.group("name").strip().lower()
        riders = tuple(r.strip() for r in top_level_split(auto.group("damage"), (" plus ",))[1:])
        return AttackRead(
            name=name,
            count=1,
            bonuses=(0,),
            kind="melee",
            touch=False,
            damage=None,
            damage_types=("bludgeoning",),
            riders=(f"{name} (automatic hit, {auto.group('damage')})", *riders),
            text=text,
        )
    return None


def _read_one_attack(ctx: Reading, text: str) -> AttackRead | None:
    text = text.strip().rstrip(";.").strip()
    pre = NAME_BEFORE_BONUS.match(text)
    inner_name = None
    work = text
    if pre and "(" in pre.group(1) and not BONUS_AND_KIND.search(pre.group(1)):
        inner_name = pre.group(1)
        work = "X " + text[pre.end() :]
    m = ATTACK.match(work)
    if not m:
        found = _without_roll(text)
        if found is None:
            ctx.note("unread", f"attack {text[:80]!r} not read (like 'claw +9 melee (1d6+6)'): left out", text)
        return found
    count = number(m.group("count")) if m.group("count") else 1
    name = (inner_name if inner_name else m.group("name")).strip()
    word = name.split(" ", 1)
    if word[0].lower() in COUNT_WORDS and len(word) > 1:
        count, name = COUNT_WORDS[word[0].lower()], word[1]
    name = " ".join(name.split()).strip(" ,*")
    enhancement = 0
    em = ENHANCEMENT.match(name)
    if em:
        enhancement, name = number(em.group(2)), f"{em.group(1)}{em.group(3)}".strip()
    lname = name.lower()
    materials = tuple(w for w in MATERIALS if w in lname)
    if count > 1:
        lname = singular(lname)
    bonuses = tuple(signed(b) for b in SPLIT_BONUSES.split(m.group("bonus")))
    kind = (m.group("kind") or "").lower()
    if not kind:
        kind = "ranged" if any(w in lname for w in RANGED_WORDS) else "melee"
        ctx.note("guess", f"{name}: no 'melee' or 'ranged': read as {kind}", text)
    dice, threat, multiplier, riders = read_damage(m.group("damage"))
    types, extra, extra_type, other = _typed(ctx, name, lname, dice, riders, text)
    if dice is not None:
        dice = _minimum_one(ctx, dice, name, text)
    return AttackRead(
        name=lname,
        count=count,
        bonuses=bonuses,
        kind=kind,
        touch=bool(m.group("touch")) or "touch" in lname,
        damage=dice,
        damage_types=types,
        threat=threat,
        multiplier=multiplier,
        extra_damage=extra,
        extra_damage_type=extra_type,
        riders=tuple(other),
        text=text,
        enhancement=enhancement,
        materials=materials,
    )


def _typed(
    ctx: Reading, name: str, lname: str, dice: str | None, riders: list[str], text: str
) -> tuple[tuple[str, ...], str | None, str | None, list[str]]:
    """(damage types, extra damage, its energy, other riders) of an attack: the energy of its damage (``1d6
    fire``), else of its name (``electricity ray``), else its weapon's or natural attack's types; the first rider of
    energy dice (``plus 1d6 fire``) is its extra damage."""
    types, known = damage_types_of(lname)
    extra = extra_type = None
    other: list[str] = []
    energy_main = None
    for rider in riders:
        if rider.startswith("@type "):
            energy_main = rider[6:]
            continue
        rm = RIDER.match(rider.strip())
        energy = energy_of(rm.group(2)) if rm else None
        if rm and energy and extra is None:
            extra, extra_type = dice_text(rm.group(1)), energy
        else:
            other.append(rider.strip())
    named_energy = next((ENERGY_WORDS[w] for w, word in ELEMENT_NAMES if word.search(lname)), None)
    if energy_main:
        types, known = (energy_main,), True
    elif named_energy and not known:
        types, known = (named_energy,), True
    elif ("touch" in lname or "ray" in lname) and not known:
        types = ("force",)
        if dice is not None:
            ctx.note(
                "guess",
                f"{name}: untyped damage of a touch or ray: read as force (no damage reduction or "
                "energy resistance applies)",
                text,
            )
        known = True
    if not known and dice is not None:
        ctx.note("guess", f"{name}: damage type not known for this attack: read as {'/'.join(types)}", text)
    return types, extra, extra_type, other


def _minimum_one(ctx: Reading, dice: str, name: str, text: str) -> str | None:
    try:
        expr = parse_dice(dice)
    except ArenaError:
        ctx.note("unread", f"{name}: damage {dice!r} not read: attack left out", text)
        return None
    if expr.maximum < 1:
        if expr.dice:
            ctx.note(
                "changed",
                f"{name}: damage {dice} is always below 1: stored as 1 (the SRD's minimum damage on a hit)",
                text,
            )
            return "1"
        return None
    if any(sign < 0 for sign, *_ in expr.dice):
        ctx.note("unread", f"{name}: damage {dice} subtracts dice: attack left out", text)
        return None
    return dice


def harmless_attack(a: AttackRead) -> bool:
    """Keep ``a``, an attack that deals no hit-point damage, in its routine as ``harmless``: a melee attack whose hit
    does what the engine models (``Incorporeal touch +3 melee (1d6 Str)``, ``tongue +12 melee touch (paralysis)``),
    or one of no effect at all but a grab's (``Arms +5 melee (0)``: an octopus's improved grab needs its arms to
    hit). Webs, ropes, rays and swarms are read elsewhere."""
    if a.damage is not None or a.kind != "melee" or SWARM.match(a.name):
        return False
    if not a.riders:
        return "(0)" in a.text
    return all(HARMLESS_RIDER.match(r.strip()) for r in a.riders)
