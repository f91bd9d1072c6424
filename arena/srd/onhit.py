"""What a creature's hit does besides its damage, read once the attacks are: paralysis (and the paralysis of a foe it
holds or has swallowed), ability damage and drain, energy drain, burn and heat, an ice devil's slow, a cockatrice's
petrification, a chaos beast's corporeal instability; and the attack that delivers each (poison is
:mod:`arena.srd.poison`'s).

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description (``Poison (Ex): Injury, Fortitude DC 13, initial damage 1d6 Str, secondary damage 2d6
Str``) or from the family's table by size (monstrous spiders, scorpions and centipedes, viper snakes, fire
elementals: :func:`~arena.srd.prose.size_row`), names the attack of the routines that delivers it, returns the
:class:`~arena.world.creatures.Creature` field and marks the ability ``modelled``. An ability whose numbers cannot
be read stays ``ignored`` with an ``unread`` note; one whose effect the engine's field cannot carry (a poison of
paralysis, a touch that deals no hit-point damage and so is not an attack the engine rolls) stays ``ignored`` and
its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.srd.context import Reading, named
from arena.srd.patterns import ABILITY, ABILITY_KEYS, AMOUNT, NUMBER_WORDS, ROLL, SAVE_KEYS
from arena.srd.prose import size_number
from arena.srd.text import clean, dice_text, in_rounds, number, search_chain

OR_AND = re.compile(r"\s+or\s+|\s+and\s+|,")
"""Between the attacks of a list: ``bite or sting``."""
FORT_DC = re.compile(r"\bDC (\d+) Fortitude", re.IGNORECASE)
"""``a DC 12 Fortitude save``."""
PARALYZED_FOR = re.compile(rf"paralyzed for ({AMOUNT}) (round|minute|hour)s?", re.IGNORECASE)
"""``or be paralyzed for 1d4+1 rounds``."""
HELD_IN = re.compile(r"\bheld in (?:the |its )?(\w+)")
"""A paralysis of a foe it holds: ``Anyone held in the tentacles must succeed on a DC 19 Fortitude save``."""
SWALLOWED = re.compile(r"\bswallow")
"""A paralysis of a foe it swallowed: ``swallowed``, ``swallow whole``."""
HIT_BY = re.compile(r"\bhit by\b")
"""A paralysis on a hit: ``Those hit by a ghoul's bite or claw attack``."""
HIT_BY_ATTACK = re.compile(r"\bhit by (?:an? |the )?[\w' ]*?'s? ([a-z ]+?) attacks?\b")
"""The attacks it paralyzes with (lowercase): ``those hit by a ghoul's bite or claw attack``."""
TOUCHES = re.compile(r"\bthe (\w+) touches\b")
"""``when the tentacle touches``."""
BITTEN_BY = re.compile(r"\bbitten by\b")
"""``Any creature bitten by``."""
ELVES_IMMUNE = re.compile(r"\belves (?:have|are) immun")
"""``Elves have immunity to this paralysis``."""
NAMED_ATTACK = re.compile(
    r"\b(?:hit by|hits with|bitten by|struck by)\s+(?:an? |the |its )?(?:[\w' -]*?'s?\s+)?"
    r"([a-z ]+?)\s+(?:attacks?|ability)\b"
)
"""The attack that delivers an effect (lowercase): ``hit by a wight's slam attack``, ``its incorporeal touch
attack``."""
TOUCH_OF = re.compile(r"\bthe (touch|bite|sting|slam|claw)s? of\b")
"""``the touch of a shadow``."""
POISONOUS = re.compile(r"\ba poisonous (bite|sting)\b")
"""``a poisonous bite``."""
ABILITY_LOSS = re.compile(rf"(?<!\d)({AMOUNT}) points? of {ABILITY} (drain|damage)", re.IGNORECASE)
"""``1d6 points of Strength damage``, ``1d4 points of Constitution drain``."""
DRAINS = re.compile(rf"drains ({AMOUNT}) points? of {ABILITY}()", re.IGNORECASE)
"""``drains 1d4 points of Constitution``."""
ENTRY_LOSS = re.compile(rf"^({AMOUNT})\s*{ABILITY}\s*(drain|damage)?", re.IGNORECASE)
"""An entry of ability loss: ``1d6 Str``, ``1d4 Wisdom drain``."""
ENTRY_ROLL = re.compile(rf"(?<!\d){ROLL}")
"""An entry's dice, left out of the name its paragraph is looked for by: ``1d6 Str``."""
ANY_DC = re.compile(r"\bDC (\d+) (Fortitude|Will|Reflex)|(Fortitude|Will|Reflex) DC (\d+)")
"""``DC 14 Will``, ``Fortitude DC 12``."""
NEGATIVE_LEVELS = (
    re.compile(r"\bgains? (one|two|three|four|five|\d+) negative levels?", re.IGNORECASE),
    re.compile(r"\bbestows (one|two|three|four|five|\d+) negative levels?", re.IGNORECASE),
)
"""``the target gains one negative level``, ``bestows two negative levels``."""
INSIDE = re.compile(r"\binside\b|\bswallow|\bgizzard")
"""A drain of a foe it swallowed: ``a creature inside its gizzard``."""
KISS = re.compile(r"\bkiss|\bembrace")
"""A succubus's: ``energy drain through a kiss``."""
TEMPORARY_HP = "temporary hit points"
"""``it gains 5 temporary hit points``."""
REFLEX_DC = re.compile(r"\bDC (\d+) Reflex|\bReflex DC (\d+)")
"""``a DC 14 Reflex save``."""
BURNS_FOR = re.compile(rf"burns for ({AMOUNT}) rounds", re.IGNORECASE)
"""``or catch fire. The flame burns for 1d4 rounds``."""
SLAM_ATTACK = re.compile(r"\b(slam) attack", re.IGNORECASE)
"""``with its slam attack``."""
TOUCHED_OR_STRUCK = re.compile(r"striking a \w+ with|anything touching its body", re.IGNORECASE)
"""A heat of those who touch it: ``A creature striking a salamander with natural weapons``."""
SLOW = (
    r"A hit from an? [\w' ]{1,80}?'s ([a-z ]{1,80}?) induces ",
    rf" DC (\d+) Fortitude save or be affected as though by a slow spell for ({AMOUNT}) rounds",
)
"""An ice devil's, its parts in order: ``A hit from an ice devil's tail or spear induces numbing cold. The opponent
must succeed on a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds``."""
OR_AND_ONLY = re.compile(r"\s+or\s+|\s+and\s+")
"""Between two attacks: ``tail or spear``."""
PETRIFIES = re.compile(
    r"hit by an? [\w' ]+?'s (\w+) attack must succeed on a DC (\d+) Fortitude save or instantly "
    r"turn to stone"
)
"""``Creatures hit by a cockatrice's bite attack must succeed on a DC 12 Fortitude save or instantly turn to
stone``."""
SPONGY = re.compile(r"DC (\d+) Fortitude save or become a spongy, amorphous mass")
"""A chaos beast's: ``must succeed on a DC 15 Fortitude save or become a spongy, amorphous mass``."""
REGAIN_SHAPE = re.compile(r"regain its own shape by taking a standard action to attempt a DC (\d+) Charisma check")
"""``A victim can regain its own shape by taking a standard action to attempt a DC 15 Charisma check``."""


# --------------------------------------------------------------------------------------------- the attack
def deliverer(ctx: Reading, words: list[str]) -> tuple[str | None, str]:
    """The attack of the routines that ``words`` name (the first of the full attack), or None and why not."""
    names = ctx.attack_names()
    found = [n for n in (named(w, names) for w in words) if n]
    if found:
        return next(n for n in names if n in found), ""
    if ctx.deal_no_damage(words):
        return None, "deals no hit-point damage"
    return None, "is not an attack of its routines"


def rider_attacks(ctx: Reading, pattern: re.Pattern[str]) -> list[str]:
    """The attacks (as read) one of whose riders ``pattern`` finds: ``bite (1d8 plus poison)``."""
    out: list[str] = []
    for a in (a for routine in ctx.reads for a in routine):
        if any(pattern.search(r) for r in a.riders) and a.name.lower() not in out:
            out.append(a.name.lower())
    return out


def named_attack(text: str) -> list[str]:
    """The attack words of ``hit by a wight's slam attack``, ``its incorporeal touch attack``, ``the touch of``."""
    low = text.lower()
    m = NAMED_ATTACK.search(low)
    if m:
        return [w.strip() for w in OR_AND.split(m.group(1)) if w.strip()]
    m = TOUCH_OF.search(low) or POISONOUS.search(low)
    return [m.group(1)] if m else []


# --------------------------------------------------------------------------------------------- paralysis
def paralysis(ctx: Reading, item: dict) -> dict:
    """``Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save or be paralyzed for 1d4+2
    rounds``: on the first of the attacks it names that the engine rolls."""
    desc, text = ctx.text_of(item, "paralysis")
    dcs = set(FORT_DC.findall(text))
    rounds = PARALYZED_FOR.search(text)
    if len(dcs) != 1 or rounds is None:
        what = "no description" if not desc else "no Fortitude DC" if len(dcs) != 1 else "no duration"
        ctx.note_on(item, "unread", f"paralysis: {what} read: not modelled", text[:200] or item["name"])
        return ctx.ignored("paralysis", f"{what} read")
    dc = number(dcs.pop())
    low = text.lower()
    ctx.save_of("paralysis", dc, "fort")
    held = HELD_IN.search(low)
    inside = SWALLOWED.search(low) and not HIT_BY.search(low)
    if (inside or held) and not HIT_BY.search(low):
        return _paralysis_in_hold(ctx, item, dc, rounds, "swallowed" if inside else "held", held, text)
    words: list[str] = []
    m = HIT_BY_ATTACK.search(low)
    if m:
        words = [w.strip() for w in OR_AND.split(m.group(1)) if w.strip()]
    elif m := TOUCHES.search(low):
        words = [m.group(1)]
    elif BITTEN_BY.search(low):
        words = ["bite"]
    if not words:
        ctx.note_on(item, "unread", "paralysis: the attack that delivers it not read: not modelled", text[:200])
        return ctx.ignored("paralysis", "the attack that delivers it not read")
    return _paralysis_on_hit(ctx, item, dc, rounds, words, text)


def _paralysis_on_hit(ctx: Reading, item: dict, dc: int, rounds: re.Match, words: list[str], text: str) -> dict:
    names, melee = ctx.attack_names(), ctx.melee_names()
    found: list[str] = []
    for w in words:
        if w == "melee":
            found += [n for n in melee if n not in found]
        elif (n := named(w, names)) and n not in found:
            found.append(n)
    if not found:
        why = (
            "deals no hit-point damage"
            if ctx.deal_no_damage(words)
            else "is not an attack of its routines (it comes of a hold it keeps)"
            if "bite" in words
            else "is not an attack of its routines"
        )
        return ctx.ignored(
            "paralysis",
            f"its {' or '.join(words)} {why}: not an attack the engine rolls, and the "
            "engine's paralysis is on a hit with one",
        )
    order = [n for n in names if n in found]
    attack = order[0]
    how = ""
    if len(order) > 1:
        how += (
            f"; the SRD's paralyzes on a {' or '.join(order)} hit, the engine's on the {attack} (the first of "
            "the full attack)"
        )
        ctx.note_on(
            item,
            "guess",
            f"paralysis: the SRD's is on a hit with the {' or '.join(order)}; the engine's is "
            f"on one attack: the {attack}, the first of the full attack",
            text[:200],
        )
    left = [w for w in words if w != "melee" and named(w, names) is None]
    if left:
        how += f"; its {' and '.join(left)} left out (not an attack the engine rolls)"
    duration, changed = in_rounds(rounds.group(1), rounds.group(2))
    if changed:
        how += f"; {changed}"
        ctx.note_on(item, "changed", f"paralysis: {changed}", text[:200])
    if ELVES_IMMUNE.search(text.lower()):
        how += "; elves' immunity left out (elf is a race, not a creature type the model has)"
        ctx.note_on(
            item,
            "guess",
            "paralysis: elves are immune to it in the SRD; elf is a race, not a creature type the model has: left out",
            text[:200],
        )
    ctx.mark("paralysis", "modelled", f"paralysis on the {attack}: Fort DC {dc}, {duration} rounds{how}")
    return {"paralysis": {"attack": attack, "dc": dc, "duration": duration, "immune_types": []}}


def _paralysis_in_hold(
    ctx: Reading, item: dict, dc: int, rounds: re.Match, on: str, held: re.Match | None, text: str
) -> dict:
    """Paralysis of a foe the creature holds (SRD 3.5 chuul: "Anyone held in the tentacles must succeed on a DC 19
    Fortitude save each round on the chuul's turn or be paralyzed for 6 rounds") or has swallowed (tendriculos:
    "Once inside the plant's mass, the opponent must succeed on a DC 20 Fortitude save or be paralyzed for 3d6
    rounds ... A new save is required each round"): a save on each of its turns while it holds the foe. It needs
    the hold: improved grab (and swallow whole) that the engine models, whose attack it is on. The chuul's move of
    the foe from claw to tentacles is abstract: the claw's hold is the tentacles' (they "grapple with the same
    strength")."""
    grab = ctx.first("improved grab")
    if grab is None or grab["engine"] != "modelled" or (on == "swallowed" and ctx.first("swallow whole") is None):
        what = "swallow whole" if on == "swallowed" else "improved grab"
        return ctx.ignored(
            "paralysis",
            f"only a foe it {'has swallowed' if on == 'swallowed' else 'holds'} is "
            f"paralyzed, and its {what} is not modelled",
        )
    hold = ctx.data.get("improved_grab") or {}
    attack = hold.get("attack") or "bite"
    duration, changed = in_rounds(rounds.group(1), rounds.group(2))
    how = "; the claw's hold stands for the tentacles'" if held and held.group(1) != attack else ""
    if changed:
        how += f"; {changed}"
        ctx.notes.add(
            "changed",
            "Special Attacks",
            ctx.block.get("Special Attacks" if item["kind"] == "attack" else "Special Qualities"),
            f"paralysis: {changed}",
            text[:200],
        )
    where = "it has swallowed" if on == "swallowed" else "it holds"
    ctx.mark(
        "paralysis",
        "modelled",
        f"paralysis of a foe {where}: Fort DC {dc} on each of its turns, {duration} rounds{how}",
    )
    return {"paralysis": {"attack": attack, "dc": dc, "duration": duration, "immune_types": [], "on": on}}


# --------------------------------------------------------------------------------------------- ability loss
def loss_of(dice: str, ability: str) -> dict:
    """An ability loss as the stat block writes it: ``1d6 Str`` -> ``{"dice": "1d6", "ability": "str"}``."""
    return {"dice": dice_text(dice), "ability": ABILITY_KEYS[ability.lower()]}


def ability_loss(ctx: Reading, item: dict) -> dict:
    """Ability damage or drain on a hit (``1d6 Str``, a shadow's; ``1d4 points of Constitution drain``); the engine
    has one, so a second one is left out."""
    if "ability_damage" in ctx.data:
        return ctx.ignored(item["key"], "a second ability loss on a hit: the engine's ability_damage is one")
    key = item["key"]
    entry = clean(item["name"])
    desc, text = ctx.text_of(item, ENTRY_ROLL.sub("", entry).strip())
    rider = ENTRY_LOSS.match(entry)
    m = ABILITY_LOSS.search(text) or DRAINS.search(text)
    if m:
        dice, ability, kind = m.group(1), m.group(2), m.group(3) or "drain"
    elif rider:
        dice, ability, kind = (
            rider.group(1),
            rider.group(2),
            rider.group(3) or ("drain" if "drain" in key else "damage"),
        )
    else:
        ctx.note_on(item, "unread", f"{key}: its dice and ability not read: not modelled", text[:200] or entry)
        return ctx.ignored(key, "its dice and ability not read")
    dcs = set(ANY_DC.findall(text))
    dc = save = None
    if len(dcs) == 1:
        a, b, c, d = dcs.pop()
        dc, save = number(a or d), SAVE_KEYS[(b or c).lower()]
    words = rider_attacks(ctx, re.compile(ABILITY, re.IGNORECASE)) or named_attack(text)
    attack, why = deliverer(ctx, words) if words else (None, "is named nowhere")
    loss = {**loss_of(dice, ability), "drain": kind.lower() == "drain"}
    for a in ctx.abilities:
        if a["key"] == key:
            a["damage"] = loss["dice"]
            if dc is not None:
                a["dc"], a["save"] = dc, save
    if attack is None:
        return ctx.ignored(
            key,
            f"its {' or '.join(words) or 'attack'} {why}: not an attack the engine rolls, and the "
            f"engine's {key} is on a hit with one",
        )
    saved = f", {save.capitalize()} DC {dc} negates" if dc is not None and save is not None else ", no save"
    ctx.mark(
        key,
        "modelled",
        f"ability_damage on the {attack}: {loss['dice']} {loss['ability']} "
        f"{'drain' if loss['drain'] else 'damage'}{saved}",
    )
    return {"ability_damage": {"attack": attack, "loss": loss, "dc": dc, "save": save or "fort"}}


# --------------------------------------------------------------------------------------------- energy drain
def energy_drain(ctx: Reading, item: dict) -> dict:
    """``Living creatures hit by a wight's slam attack gain one negative level``."""
    desc, text = ctx.text_of(item, "energy drain")
    m = NEGATIVE_LEVELS[0].search(text) or NEGATIVE_LEVELS[1].search(text)
    if m is None:
        return ctx.unread(item, "energy drain", "how many negative levels not read", text)
    levels = NUMBER_WORDS.get(m.group(1).lower()) or number(m.group(1))
    low = text.lower()
    if INSIDE.search(low):
        return ctx.ignored(
            "energy drain", "only a swallowed foe is drained, not one it hits; the engine's energy drain is on a hit"
        )
    if KISS.search(low):
        return ctx.ignored(
            "energy drain",
            "drained by a kiss or an embrace (a grapple), not a hit; the engine's energy drain is on a hit",
        )
    words = named_attack(text) or rider_attacks(ctx, re.compile("energy drain", re.IGNORECASE))
    attack, why = deliverer(ctx, words) if words else (None, "is named nowhere")
    if attack is None:
        return ctx.ignored(
            "energy drain",
            f"its {' or '.join(words) or 'attack'} {why}: not an attack the engine "
            "rolls, and the engine's energy drain is on a hit with one",
        )
    how = "; the 5 temporary hit points it gains per level are left out" if TEMPORARY_HP in low else ""
    ctx.mark(
        "energy drain",
        "modelled",
        f"energy_drain on the {attack}: {levels} negative level{'s' if levels > 1 else ''}{how}",
    )
    return {"energy_drain": {"attack": attack, "levels": levels}}


# --------------------------------------------------------------------------------------------- burn and heat
def burn(ctx: Reading, item: dict) -> dict:
    """``Those hit by a fire elemental's slam attack must succeed on a DC 14 Reflex save or catch on fire. The flame
    burns for 1d4 rounds`` (the DC of its table by size when the text gives none); the flames' damage is the
    attack's fire (a guess: the SRD gives none)."""
    desc, text = ctx.text_of(item, "burn")
    text = ctx.following(desc, 1) or text
    dcs = set(REFLEX_DC.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    how = ""
    if dc is None:
        dc, row = size_number(ctx.block, ctx.size, desc, "Save DC")
        if dc is not None:
            how = f"; its DC from the {row} row of its table by size"
    rounds = BURNS_FOR.search(text)
    if dc is None or rounds is None:
        return ctx.unread(item, "burn", f"{'no Reflex DC' if dc is None else 'no duration'} read", text)
    words = named_attack(text) or SLAM_ATTACK.findall(text)
    attack, why = deliverer(ctx, [w.lower() for w in words]) if words else (None, "is named nowhere")
    if attack is None:
        return ctx.ignored("burn", f"its {' or '.join(words) or 'attack'} {why}")
    fire = next(
        (
            a.get("extra_damage")
            for r in ctx.data.get("full_attack", []) + ctx.data.get("attack", [])
            for a in r
            if a["name"] == attack and a.get("extra_damage_type") == "fire"
        ),
        None,
    )
    damage = fire or "1d4"
    flames = f"the {attack}'s fire, {fire}" if fire else "1d4"
    ctx.note_on(item, "guess", f"burn: the text gives no damage for the flames: {flames} a round", text[:200])
    ctx.save_of("burn", dc, "ref")
    ctx.mark(
        "burn",
        "modelled",
        f"burn on the {attack}: Reflex DC {dc}, {damage} fire a round for "
        f"{dice_text(rounds.group(1))} rounds (the flames' damage: the {attack}'s fire, a "
        f"guess){how}",
    )
    return {"burn": {"attack": attack, "dc": dc, "damage": damage, "rounds": dice_text(rounds.group(1))}}


def heat(ctx: Reading, item: dict) -> dict:
    """Heat that rides on its attacks (``plus 1d6 fire``): modelled by their extra damage; a heat that burns those
    who touch or strike it is not the engine's."""
    fire = [a["name"] for r in ctx.routines() for a in r if a.get("extra_damage_type") == "fire"]
    desc, text = ctx.text_of(item, "heat")
    if TOUCHED_OR_STRUCK.search(text) and not fire:
        return ctx.ignored(
            "heat", "it burns those who touch or strike it, not those it hits; the engine has no damage to attackers"
        )
    if not fire:
        return ctx.ignored("heat", "no attack of its routines carries the fire damage")
    ctx.mark("heat", "modelled", f"the fire rides on its {', '.join(dict.fromkeys(fire))} (extra_damage)")
    return {}


# --------------------------------------------------------------------------------------------- slow, stone, shape
def slow(ctx: Reading, item: dict) -> dict:
    """The ice devil's: ``A hit from an ice devil's tail or spear induces numbing cold. The opponent must succeed on
    a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds`` (on the first of the attacks it
    names in its full attack)."""
    desc, text = ctx.text_of(item, "slow")
    m = search_chain(text, *SLOW)
    names = [a["name"] for r in ctx.routines() for a in r]
    words = [w.strip() for w in OR_AND_ONLY.split(m.group(1))] if m else []
    found = [n for n in names if any(named(w, [n]) for w in words)]
    if m is None or not found:
        return ctx.ignored("slow", "a slow effect of its own action, or its attack not read")
    attack = found[0]
    how = (
        f" (the SRD's also on its {' and '.join(w for w in words if not named(w, [attack]))})" if len(words) > 1 else ""
    )
    ctx.save_of("slow", number(m.group(2)), "fort")
    ctx.mark(
        "slow",
        "modelled",
        f"slow on the {attack}: Fort DC {m.group(2)} or slowed {dice_text(m.group(3))} rounds (one action a turn){how}",
    )
    return {"slow_on_hit": {"attack": attack, "dc": number(m.group(2)), "rounds": dice_text(m.group(3))}}


def petrification(ctx: Reading, item: dict) -> dict:
    """``Creatures hit by a cockatrice's bite attack must succeed on a DC 12 Fortitude save or instantly turn to
    stone``."""
    desc, text = ctx.text_of(item, "petrification")
    m = PETRIFIES.search(text)
    attack = ctx.named(m.group(1)) if m else None
    if m is None or attack is None:
        return ctx.ignored("petrification", "its attack and DC not read")
    ctx.save_of("petrification", number(m.group(2)), "fort")
    ctx.mark("petrification", "modelled", f"petrification on the {attack}: Fort DC {m.group(2)} or stone")
    return {"petrification": {"attack": attack, "dc": number(m.group(2))}}


def instability(ctx: Reading, item: dict) -> dict:
    """The chaos beast's: ``A blow from a chaos beast against a living creature ... must succeed on a DC 15 Fortitude
    save or become a spongy, amorphous mass ... it attacks blindly, unable to distinguish friend from foe ... A victim
    can regain its own shape by taking a standard action to attempt a DC 15 Charisma check``: on its claws (the
    first attack of its routines)."""
    desc, _ = ctx.text_of(item, "corporeal instability")
    text = ctx.following(desc, 4)
    dc, control = SPONGY.search(text), REGAIN_SHAPE.search(text)
    names = [a["name"] for r in (ctx.data.get("full_attack") or []) for a in r]
    if dc is None or control is None or not names:
        return ctx.ignored("corporeal instability", "its DCs not read")
    ctx.save_of("corporeal instability", number(dc.group(1)), "fort")
    ctx.mark(
        "corporeal instability",
        "modelled",
        f"instability on the {names[0]}: Fort DC {dc.group(1)} or amorphous, out of the fight (its blind blows at "
        f"friend and foe alike are left out) until a DC {control.group(1)} Charisma check on one of its turns",
    )
    return {"instability": {"attack": names[0], "dc": number(dc.group(1)), "control_dc": number(control.group(1))}}
