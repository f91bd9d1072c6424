"""The abilities of a hold, read once the attacks are: ferocity (the engine's flag), improved grab with
constrict, swallow whole, a stirge's attach and blood drain, a rast's drain of a grabbed foe, a soldier ant's acid
sting.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description (``Improved Grab (Ex): To use this ability, a lion must hit with its bite attack``),
names the attack of the routines that starts the hold, returns the :class:`~arena.world.creatures.Creature`
field and marks the ability ``modelled``; an ability whose numbers cannot be read stays ``ignored`` with an
``unread`` note, one the engine's field cannot carry stays ``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.context import Reading
from arena.srd.patterns import AMOUNT, DICE, ENERGY, singular
from arena.srd.text import clean, dice_text, number

NATURAL = (
    "bite",
    "claw",
    "claws",
    "slam",
    "tentacle",
    "arm",
    "arms",
    "gore",
    "sting",
    "tail slap",
    "pincer",
    "talon",
    "wing",
    "tendril",
    "horn",
    "hoof",
    "hooves",
    "butt",
    "tail",
    "touch",
    "tongue",
    "rake",
    "crush",
)
"""Natural attacks, for a grab whose text names none (the first of the full attack that is one)."""

GRAB_ATTACK = re.compile(
    r"must hit\b[^.]*?\bwith (?:its |a |an |the |both |one or more )?([a-z][a-z ]*?)"
    r"(?: attacks?)?(?=[.,;]|\s+(?:to|and then|it can)\b)",
    re.IGNORECASE,
)
"""The attack a grab starts from: ``To use this ability, a lion must hit with its bite attack``, ``must hit with a
claw or bite attack``."""
OR_AND = re.compile(r"\s+or\s+|\s+and\s+|,")
"""Between the attacks of a list: ``claw or bite``, ``arms and tentacles``."""
ARTICLE = re.compile(r"^(?:its|a|an|the)\s+")
"""An attack's article: ``its bite``."""
BOTH = re.compile(r"\bboth\b")
"""A grab that needs two hits: ``must hit with both claw attacks``."""
ALSO_GRAB = re.compile(r"\balso use its improved grab ability on an? (\w+(?: \w+)?) attack", re.IGNORECASE)
"""A second attack that grabs: ``It can also use its improved grab ability on a tentacle attack``."""
ANY_SIZE = re.compile(r"\ban opponent of any size\b", re.IGNORECASE)
"""``It can use this ability only against an opponent of any size``."""
HOLD_DEALS = re.compile(r"\bautomatically deals (\w+) damage", re.IGNORECASE)
"""The attack whose damage a hold deals: ``and automatically deals bite damage``."""
ENTRY_DICE = re.compile(rf"\b({DICE})\b")
"""Dice in an entry: ``Constrict 2d6+9``."""
PLUS_DICE = re.compile(rf"\bplus {DICE}(?: \w+)?")
"""What an entry adds to its damage, left out of it: ``Constrict 2d8+6 plus 1d8 fire``."""
PLUS_ENERGY = re.compile(rf"\bplus ({DICE}) {ENERGY}\b", re.IGNORECASE)
"""The energy an entry adds: ``plus 1d8 fire``."""
POINTS_OF_DAMAGE = re.compile(rf"(?<!\d)({DICE}) points? of (?:\w+ )?damage")
"""``deals 2d6+9 points of bludgeoning damage``."""
SWALLOWED_DAMAGE = re.compile(
    rf"(?:takes?|taking) ({AMOUNT}) points? of (bludgeoning|crushing|acid) damage"
    rf"(?:,? (?:plus|and) ({AMOUNT}) points? of (acid|fire|bludgeoning) damage)?",
    re.IGNORECASE,
)
"""What a swallowed foe takes: ``A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid
damage per round``."""
PARALYZES = re.compile(r"\bparaly", re.IGNORECASE)
"""``paralyzes``, ``paralysis``."""
HITS_WITH = re.compile(r"hits with (?:a|its) (\w+) attack")
"""The attack an attach starts from: ``If a stirge hits with a touch attack``."""
BLOOD_LOSS = re.compile(rf"(?:dealing|for) ({AMOUNT}) points? of Constitution damage")
"""``dealing 1d4 points of Constitution damage``, ``drains blood for 1d4 points of Constitution damage``."""
DETACHES = re.compile(r"Once it has dealt (\d+) points of Constitution damage, it detaches")
"""``Once it has dealt 4 points of Constitution damage, it detaches and flies off``."""
GRABBED_DRAIN = re.compile(
    rf"from a grabbed opponent, dealing ({AMOUNT}) points? of Constitution damage each round "
    r"it maintains the hold"
)
"""A rast's: ``drains blood from a grabbed opponent, dealing 1 point of Constitution damage each round it maintains
the hold``."""
ACID_STING = re.compile(
    rf"sting each round \(([+-]\d+) attack bonus\)\. A hit with the sting attack deals "
    rf"({AMOUNT}) points of piercing damage and ({AMOUNT}) points of acid damage"
)
"""A giant soldier ant's: ``it can attempt to sting each round (+3 attack bonus). A hit with the sting attack
deals 1d4+1 points of piercing damage and 1d4 points of acid damage``."""


def flag(field: str):
    """The reader of an ability that is a flag of the stat block (``ferocity``; :mod:`arena.abilities.pounce`'s
    ``pounce``): marked modelled."""

    def reader(ctx: Reading, item: dict) -> dict:
        ctx.mark(item["key"], "modelled", field)
        return {field: True}

    return reader


# --------------------------------------------------------------------------------------------- improved grab
def improved_grab(ctx: Reading, item: dict) -> dict:
    """The attack it grabs with, what else its text says of the hold, and its constrict."""
    desc = ctx.description(item, "improved grab")
    text = clean(desc.text) if desc else ""
    found = _grab_attack(ctx, item, desc, text)
    if found is None:
        return {}
    attack, how = found
    also = ALSO_GRAB.search(text)
    if also and ctx.named(also.group(1)) != attack:
        how += f"; its grab with the {also.group(1).lower()} is left out (the engine's grab is on one attack)"
    grab: dict = {"attack": attack, "constrict": None}
    if ANY_SIZE.search(text):
        grab["any_size"] = True
        how += "; against a foe of any size"
    deals = HOLD_DEALS.search(text)
    if deals and (other := ctx.named(deals.group(1))) and other != attack:
        grab["damage_attack"] = other
        how += f"; the hold deals its {other}'s damage"
    ctx.mark("improved grab", "modelled", f"improved_grab on the {attack}{how}")
    squeeze = ctx.first("constrict")
    if squeeze is not None:
        grab["constrict"] = _constrict(ctx, squeeze)
    return {"improved_grab": grab}


def _grab_attack(ctx: Reading, item: dict, desc, text: str) -> tuple[str, str] | None:
    """(the attack it grabs with, what was done to choose it); None when it cannot grab (improved grab and
    constrict marked ignored)."""
    names = ctx.attack_names()
    m = GRAB_ATTACK.search(text)
    words = [ARTICLE.sub("", w) for w in (w.strip() for w in OR_AND.split(m.group(1))) if w] if m else []
    if m is None or not words:
        natural = [n for n in names if n in NATURAL or singular(n) in NATURAL]
        candidates = natural or ctx.melee_names() or names
        if not candidates:
            ctx.note_on(
                item,
                "unread",
                "improved grab: no attack to grab with (the block has no attack routine): not modelled",
                text[:200] or item["name"],
            )
            ctx.mark("improved grab", "ignored", "no attack to grab with")
            ctx.ignored("constrict", "constrict: its improved grab is not modelled")
            return None
        attack = candidates[0]
        ctx.note_on(
            item,
            "guess",
            f"improved grab: {'its description' if desc else 'no description'} names no "
            f"attack to grab with: the {attack}, the first natural attack of the full attack",
            text[:200] or item["name"],
        )
        return attack, f"; the text names no attack: the {attack}, the first natural attack of the full attack"
    found = [n for n in (ctx.named(w) for w in words) if n]
    if not found:
        missing = [w for w in words if ctx.named(w) is None]
        why = "deals no hit-point damage" if ctx.deal_no_damage(missing) else "is not an attack of its routines"
        ctx.mark(
            "improved grab",
            "ignored",
            f"its {' or '.join(words)} attack {why}: not an attack the engine "
            "rolls, so the engine's improved grab (a grapple when that attack hits) "
            "cannot start",
        )
        ctx.ignored(
            "constrict",
            "constrict: the damage of a hold its improved grab would start, which the engine "
            "cannot (see improved grab)",
        )
        return None
    attack = next(n for n in names if n in found)
    how = ""
    if len(found) > 1:
        how = f"; the text names the {' or '.join(words)} attack: the {attack}, the first of the full attack"
        ctx.note_on(
            item,
            "guess",
            f"improved grab: the text names the {' or '.join(words)} attack; the engine's "
            f"grab is on one attack: the {attack}, the first of the full attack",
            text[:200],
        )
    if BOTH.search(m.group(0)):
        how += f"; the SRD's grab needs both {attack} attacks to hit, the engine's one"
        ctx.note_on(
            item,
            "guess",
            f"improved grab: the SRD's needs both {attack} attacks to hit; the engine's grabs when one {attack} hits",
            text[:200],
        )
    return attack, how


def _constrict(ctx: Reading, item: dict) -> str | None:
    """A constrict's damage: the entry's (``Constrict 2d6+9``), else its paragraph's, else the ability's."""
    entry = clean(item["name"])
    dice = ENTRY_DICE.findall(PLUS_DICE.sub("", entry))
    desc = ctx.description(item, "constrict")
    if not dice and desc is not None:
        m = POINTS_OF_DAMAGE.search(desc.text)
        dice = [m.group(1)] if m else []
    if not dice and item.get("damage"):
        dice = [item["damage"]]
    if not dice:
        ctx.note_on(item, "unread", "constrict: no damage dice read: not modelled", desc.text[:200] if desc else entry)
        ctx.mark("constrict", "ignored", "no damage dice read")
        return None
    damage = dice_text(dice[0])
    how = ""
    if len(dice) > 1:
        how += f"; {entry!r} gives several: the first, {damage}"
        ctx.note_on(
            item,
            "guess",
            f"constrict: {entry!r} gives {len(dice)} damages (one per attack that grabs): the first, {damage}",
            entry,
        )
    energy = PLUS_ENERGY.search(entry)
    if energy:
        how += (
            f"; its {energy.group(1)} {energy.group(2).lower()} is left out (the engine's constrict is one "
            "damage expression)"
        )
        ctx.note_on(
            item,
            "guess",
            f"constrict: the {energy.group(1)} {energy.group(2).lower()} of each constrict is "
            f"left out: stored as {damage}",
            entry,
        )
    if parse_dice(damage).maximum < 1:
        ctx.note_on(
            item,
            "changed",
            f"constrict {damage} is always below 1: stored as 1 (the SRD's minimum of 1 on a hit)",
            entry,
        )
        damage = "1"
    ctx.mark("constrict", "modelled", f"improved_grab.constrict {damage}{how}")
    for a in ctx.abilities:
        if a["key"] == "constrict":
            a["damage"] = damage
    return damage


def lone_constrict(ctx: Reading, item: dict) -> dict:
    """A constrict without improved grab: the engine's constrict is the damage of the hold a grab starts."""
    if ctx.first("improved grab") is None:
        ctx.mark(
            "constrict",
            "ignored",
            "constrict without improved grab: the engine's constrict is the damage of a hold that improved grab starts",
        )
    return {}


# --------------------------------------------------------------------------------------------- swallow whole
def swallow_whole(ctx: Reading, item: dict) -> dict:
    """``A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid damage per round``: the
    first damage (the engine's is one expression); it needs the hold of an improved grab."""
    desc, _ = ctx.text_of(item, "swallow whole")
    text = ctx.following(desc, 3)
    if ctx.data.get("improved_grab") is None:
        return ctx.ignored("swallow whole", "no improved grab the engine models: swallow whole needs its hold")
    m = SWALLOWED_DAMAGE.search(text)
    if m is None:
        return ctx.unread(item, "swallow whole", "the damage inside not read", text)
    kind = "bludgeoning" if m.group(2).lower() in ("bludgeoning", "crushing") else m.group(2).lower()
    damage = dice_text(m.group(1))
    how = ""
    if m.group(3):
        how = f"; its {dice_text(m.group(3))} {m.group(4).lower()} left out (the engine's is one damage expression)"
        ctx.note_on(
            item,
            "guess",
            f"swallow whole: the {dice_text(m.group(3))} {m.group(4).lower()} a round is left "
            f"out: stored as {damage} {kind}",
            text[:200],
        )
    if PARALYZES.search(text):
        how += "; the paralysis of its juices is left out"
    for a in ctx.abilities:
        if a["key"] == "swallow whole":
            a["damage"] = damage
    ctx.mark(
        "swallow whole",
        "modelled",
        f"swallow_whole: {damage} {kind} a round (cutting its way out is not modelled){how}",
    )
    return {"swallow_whole": {"damage": damage, "damage_types": [kind]}}


# --------------------------------------------------------------------------------------------- attach and drains
def attach(ctx: Reading, item: dict) -> dict:
    """Attach and blood drain: the stirge's ("If a stirge hits with a touch attack, it uses its eight pincers to
    latch onto the opponent's body ... dealing 1d4 points of Constitution damage in any round when it begins its
    turn attached ... Once it has dealt 4 points of Constitution damage, it detaches and flies off") and the dire
    weasel's ("latches onto the opponent's body ... A dire weasel drains blood for 1d4 points of Constitution damage
    each round it remains attached"; a weasel "automatically deals bite damage each round it remains attached"):
    a hold that starts on a hit with no check, has no escape (only a pin removes it) and needs no check to keep."""
    desc, text = ctx.text_of(item, "attach")
    drain_item = ctx.first("blood drain")
    _, drain_text = ctx.text_of(drain_item, "blood drain") if drain_item is not None else (None, "")
    hit = HITS_WITH.search(text)
    loss = BLOOD_LOSS.search(drain_text)
    attack = ctx.named(hit.group(1)) if hit else None
    if attack is None or loss is None or ctx.data.get("improved_grab") is not None:
        return ctx.ignored("attach", "its attack and blood drain not read")
    limit = DETACHES.search(drain_text)
    grab: dict = {
        "attack": attack,
        "constrict": None,
        "any_size": True,
        "automatic": True,
        "hold_check": False,
        "drain": {"dice": dice_text(loss.group(1)), "ability": "con"},
    }
    if limit:
        grab["drain_limit"] = number(limit.group(1))
    bite = "; its bite's damage each round" if "bite" in attack else ""
    ctx.mark(
        "attach",
        "modelled",
        f"improved_grab on the {attack} with no grapple check, of any size, no escape (a "
        f"pin, which the model has not, removes it){bite}",
    )
    ctx.mark(
        "blood drain",
        "modelled",
        f"improved_grab.drain: {grab['drain']['dice']} Constitution on each of its "
        "turns attached" + (f", until {limit.group(1)} points: then it flies off" if limit else ""),
    )
    return {"improved_grab": grab}


def blood_drain(ctx: Reading, item: dict) -> dict:
    """The rast's: ``drains blood from a grabbed opponent, dealing 1 point of Constitution damage each round it
    maintains the hold`` (a stirge's and a weasel's come with their attach)."""
    desc, text = ctx.text_of(item, "blood drain")
    m = GRABBED_DRAIN.search(text)
    grab = ctx.data.get("improved_grab")
    if m is None or grab is None or grab.get("drain"):
        return ctx.ignored("blood drain", "a drain of a pin, or with no hold the engine models")
    ctx.mark(
        "blood drain",
        "modelled",
        f"improved_grab.drain: {dice_text(m.group(1))} Constitution on each turn it keeps its hold",
    )
    return {"improved_grab": {**grab, "drain": {"dice": dice_text(m.group(1)), "ability": "con"}}}


def acid_sting(ctx: Reading, item: dict) -> dict:
    """The giant soldier ant's: ``If it successfully grabs an opponent, it can attempt to sting each round (+3 attack
    bonus). A hit with the sting attack deals 1d4+1 points of piercing damage and 1d4 points of acid damage``: the
    attack it makes each turn it holds a foe (the engine's rake does this)."""
    desc, text = ctx.text_of(item, "acid sting")
    m = ACID_STING.search(text)
    if m is None or ctx.data.get("improved_grab") is None or ctx.data.get("rake") is not None:
        return ctx.ignored("acid sting", "no grab to sting from, or its numbers not read")
    ctx.mark(
        "acid sting",
        "modelled",
        f"the sting it makes each turn it holds a foe: {m.group(1)} melee "
        f"({dice_text(m.group(2))} piercing plus {dice_text(m.group(3))} acid)",
    )
    return {
        "rake": {
            "name": "sting",
            "bonuses": [number(m.group(1))],
            "damage": dice_text(m.group(2)),
            "damage_types": ["piercing"],
            "extra_damage": dice_text(m.group(3)),
            "extra_damage_type": "acid",
        }
    }
