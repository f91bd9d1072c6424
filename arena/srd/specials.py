"""What a creature does besides or instead of its routines, read once the attacks are: rake, rage, trample, powerful
charge, webs, a manticore's spikes, summoning, whirlwinds, smite (and a
nalfeshnee's smite, a burst), an earth elemental's earth mastery.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
numbers from its description (``Summon Demon (Sp): Once per day a dretch can attempt to summon another dretch with a
35% chance of success``) or from the family's table by size (the air elementals' whirlwind, the monstrous spiders'
webs), returns the :class:`~arena.world.creatures.Creature` field and marks the ability ``modelled``; an ability
whose numbers cannot be read, or whose effect the engine's field cannot carry, stays ``ignored`` and its ``notes``
say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.context import Reading, named
from arena.srd.patterns import AMOUNT, DICE, NUMBER_WORDS, TIMES, singular
from arena.srd.prose import rule_above, size_number, size_row
from arena.srd.text import clean, dice_text, number, search_chain

ATTACK_BONUS = re.compile(r"attack bonus ([+-]\d+)", re.IGNORECASE)
"""A rake's: ``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``."""
RAKE_DAMAGE = re.compile(rf"damage ({DICE})", re.IGNORECASE)
"""``damage 1d6+2``."""
ENTRY_DICE = re.compile(rf"(?<!\d)({DICE})")
"""An entry's dice: ``Rake 1d6+2``, ``Trample 2d8+15``."""
WHILE_SWIMMING = re.compile(r"\bwhile swimming\b", re.IGNORECASE)
"""A rake of the water: ``A sea cat that ... while swimming``."""
RAKE_COUNT = re.compile(r"\b(two|three|four|five|six|eight)\s+(?:claws|rakes|rake attacks)", re.IGNORECASE)
"""``two rake attacks``."""
RAGE_NUMBERS = re.compile(
    r"\+4 (?:to )?Strength, \+4 (?:to )?Constitution,?(?: \+2 morale bonus on Will saves,)? "
    r"and -2 (?:to )?(?:AC|Armor Class)|\+4 Strength, \+4 Constitution, \+2 morale bonus on "
    r"Will saves, -2 AC",
    re.IGNORECASE,
)
"""The engine's rage: ``gains +4 to Strength, +4 to Constitution, and -2 to Armor Class``."""
BLOOD_FRENZY = "gains +2 Constitution and +2 Strength, and takes a -2 penalty to Armor Class"
"""A sahuagin's blood frenzy: ``gains +2 Constitution and +2 Strength, and takes a -2 penalty to Armor Class``."""
FRENZY_WHEN = "takes damage in combat can fly into a frenzy"
"""``A sahuagin that takes damage in combat can fly into a frenzy``."""
TAKES_DAMAGE = re.compile(r"takes damage", re.IGNORECASE)
"""A rage that starts when it is hurt: ``takes damage``."""
WORD_TRAMPLE = re.compile(r"^\s*trample\s*", re.IGNORECASE)
"""An entry's name before its dice: ``Trample 2d8+15``."""
FIRST_AMOUNT = re.compile(f"({AMOUNT})")
"""An entry's dice or number: ``2d8+15`` of ``Trample 2d8+15``."""
WHOLE_AMOUNT = re.compile(AMOUNT)
"""A table's damage cell, whole: ``2d6``."""
TRAMPLE_DAMAGE = re.compile(rf"\bdeals? ({DICE}) points? of (?:bludgeoning )?damage", re.IGNORECASE)
"""``deals 2d8+15 points of bludgeoning damage``."""
REFLEX_HALF = re.compile(r"\bReflex (?:half )?DC (\d+)|\bDC (\d+) Reflex")
"""``Reflex half DC 25``, ``a DC 25 Reflex save``."""
CHARGE_DAMAGE = re.compile(rf"\bdeals? ({DICE}) points? of damage", re.IGNORECASE)
"""A powerful charge's: ``deals 4d6+6 points of damage``."""
CHARGE_ATTACK = re.compile(r"\b(?:its|a single|single|an?) ([a-z]+) attack\b", re.IGNORECASE)
"""``a single gore attack``, ``its gore attack``."""
CHARGE_BONUS = re.compile(r"\bwith an? ([+-]\d+) attack bonus|\battack bonus (?:of )?([+-]\d+)", re.IGNORECASE)
"""``with a +9 attack bonus``."""
WEB_USES = re.compile(r"throw a web (?:up to )?(\w+) times per day", re.IGNORECASE)
"""``can throw a web eight times per day``."""
WEB_BURST = re.compile(r"burst (?:the web|it) with a DC (\d+) Strength check", re.IGNORECASE)
"""``can burst the web with a DC 26 Strength check``."""
WEB_SPINNERS = re.compile(r"web-spinners can throw", re.IGNORECASE)
"""``Web-spinners can throw a web eight times per day`` (the hunting spiders throw none)."""
ANCHORS = re.compile(r"anchors the target in place", re.IGNORECASE)
"""``The web anchors the target in place``."""
SUMMON = re.compile(
    r"\b(Once|Twice|Three times) per day,? an? [\w' -]+? can (?:attempt to )?summon (.+?) with "
    r"(?:only )?an? (\d+)% chance of success(.*)",
    re.IGNORECASE,
)
"""``Once per day a vrock can attempt to summon 2d10 dretches or another vrock with a 35% chance of success``."""
SUMMON_MORE = re.compile(r"or (.+?) with an? (\d+)% chance")
"""The options of a lower chance: ``, or another glabrezu with a 20% chance``."""
SUMMON_OPTIONS = re.compile(r",\s*(?:or\s+)?|\s+or\s+")
"""Between the options of one chance: ``4d10 dretches, 1d4 hezrou, or one nalfeshnee``."""
SUMMON_RULE = re.compile(r"\s*Summon \w+ \(Sp\):")
"""A summon's paragraph written with no space after its colon: ``Summon Demon (Sp):Once per day``."""
SAME_VARIETY = "another mephit of the same variety"
AUTOMATICALLY = "automatically summon"
ANOTHER = re.compile(r"another\b")
"""One of its own kind: ``another vrock``."""
SUMMONED = re.compile(rf"({AMOUNT}|one|a|an)\s+(.+)$")
"""How many and what: ``2d10 dretches``, ``one glabrezu``, ``1 babau``."""
BLAST = re.compile(r"whirlwind blast", re.IGNORECASE)
"""A blast from a whirlwind form (a djinni's ``Whirlwind blast``), not the whirlwind."""
PER_TWO_HD = "1 round for every 2 HD"
"""An air elemental's: ``remain in that form for up to 1 round for every 2 HD``."""
UP_TO_ROUNDS = re.compile(r"for up to (\d+) rounds")
"""A djinni's: ``for up to 7 rounds``."""
WHIRL_DC = re.compile(r"\bDC (\d+) Reflex save when it comes into contact")
"""A djinni's whirlwind's save: ``must succeed on a DC 20 Reflex save when it comes into contact with it``."""
WHIRL_HIT = re.compile(rf"or take ({AMOUNT}) points of damage")
"""Its damage on contact: ``or take 3d6 points of damage``."""
WHIRL_HELD = re.compile(rf"automatically taking ({AMOUNT}) points of damage each round")
"""A djinni's: ``must succeed on a DC 20 Reflex save when it comes into contact with the whirlwind or take 3d6 points
of damage ... automatically taking 1d8 points of damage each round``."""
NIMBUS = (
    r"(Once|Twice|Three times) per day [\w' ]{1,80}? can create a nimbus",
    rf"DC (\d+) Will save or be dazed for ({AMOUNT}) rounds",
)
"""A nalfeshnee's smite, its parts in order: ``Three times per day a nalfeshnee can create a nimbus of unholy light
... must succeed on a DC 22 Will save or be dazed for 1d10 rounds``."""
SMITE = (r"\b(Once|Twice|Three times) per day\b", r"\bagainst an? (good|evil) (?:foe|opponent)")
"""``Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18 points of damage
against a good foe``, its parts in order."""
SMITE_EXTRA = re.compile(r"extra (\d+) points of damage|deal (\d+) points of extra damage")
"""``to deal an extra 18 points of damage``, ``deal 20 points of extra damage``."""
EQUAL_TO_HD = "equal to its HD"
"""``extra damage equal to its HD (maximum of +20)``."""
SMITE_BONUS = re.compile(r"bonus that deals|adds his")
"""A smite of a bonus on the attack roll too: ``adds his Charisma bonus``."""
EARTH_MASTERY = "+1 bonus on attack and damage rolls if both it and its foe are touching the ground"
"""An earth elemental's: ``gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
ground``."""
MODIFIER_END = re.compile(r"(.*?)([+-]\d+)?")
"""Dice and their modifier: ``2d8+7``."""
SPIKE = "spike"


# --------------------------------------------------------------------------------------------- rake, rage
def rake(ctx: Reading, item: dict) -> dict:
    """``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``: two claws (or as many as the text says) at the end of a
    pounce and each round it holds a foe; none while it swims."""
    desc, text = ctx.text_of(item, "rake")
    if not text and " -- " in item["text"]:
        text = clean(item["text"].split(" -- ", 1)[1])
    entry = clean(item["name"])
    bonus, dmg, entry_dmg = ATTACK_BONUS.search(text), RAKE_DAMAGE.search(text), ENTRY_DICE.search(entry)
    found = dmg or entry_dmg
    if bonus is None or found is None:
        ctx.note_on(item, "unread", "rake: its attack bonus and damage not read: not modelled", text[:200] or entry)
        return ctx.ignored("rake", "its attack bonus and damage not read")
    if WHILE_SWIMMING.search(text):
        ctx.mark("rake", "no effect", "its rakes come only while it swims, and the arena has no water")
        return {}
    damage = dice_text(found.group(1))
    how = ""
    if dmg and entry_dmg and dice_text(entry_dmg.group(1)) != damage:
        ctx.note_on(
            item,
            "discrepancy",
            f"rake: the entry says {entry_dmg.group(1)}, its description {damage}: kept the description's",
            f"{entry} -- {text[:150]}",
        )
        how = f"; the entry's {entry_dmg.group(1)} disagrees: the description's {damage}"
    count_word = RAKE_COUNT.search(text)
    count = NUMBER_WORDS[count_word.group(1).lower()] if count_word else 2
    claws = {
        "name": "rake",
        "bonuses": [number(bonus.group(1))],
        "count": count,
        "damage": damage,
        "damage_types": ["slashing"],
    }
    if parse_dice(damage).maximum < 1:
        claws["damage"] = "1"
    for a in ctx.abilities:
        if a["key"] == "rake":
            a["damage"] = claws["damage"]
    ctx.mark(
        "rake",
        "modelled",
        f"rake: {count} claws at {number(bonus.group(1)):+d} for {claws['damage']} (at the "
        f"end of a pounce and each round it holds a foe){how}",
    )
    return {"rake": claws}


def rage(ctx: Reading, item: dict) -> dict:
    """The engine's rage (``+4 to Strength, +4 to Constitution, and -2 to Armor Class``, from the moment it is hurt)
    and a sahuagin's blood frenzy (``+2 Constitution and +2 Strength``)."""
    desc, text = ctx.text_of(item, "rage")
    if not text and " -- " in item["text"]:
        text = clean(item["text"].split(" -- ", 1)[1])
    if BLOOD_FRENZY in text and FRENZY_WHEN in text:
        ctx.mark(
            "rage",
            "modelled",
            "rage: +2 Str, +2 Con, -2 AC once hurt (a sahuagin's blood frenzy, once a day: "
            "the fight), until it or its foe is dead",
        )
        return {"rage": True, "rage_strength": 2}
    if not RAGE_NUMBERS.search(text):
        return ctx.ignored(
            "rage",
            "its numbers differ from the engine's rage (+4 Strength, +4 Constitution, -2 AC once hurt)"
            if text
            else "no description read",
        )
    how = ""
    if not TAKES_DAMAGE.search(text):
        how = "; the SRD's is at will for a few rounds a day, the engine's starts once it is hurt and lasts the fight"
        ctx.note_on(
            item,
            "guess",
            "rage: the SRD's starts at will and lasts a few rounds; the engine's starts when it "
            "is first hurt and lasts the fight",
            text[:200],
        )
    ctx.mark("rage", "modelled", f"rage: +4 Str, +4 Con, -2 AC once hurt{how}")
    return {"rage": True}


# --------------------------------------------------------------------------------------------- trample, charge
def trample(ctx: Reading, item: dict) -> dict:
    """``Trample 2d8+15`` (the entry) and ``Trample (Ex): Reflex half DC 25`` (the description); the damage is
    bludgeoning (SRD 3.5, Special Abilities: Trample)."""
    desc, text = ctx.text_of(item, "trample")
    entry = FIRST_AMOUNT.search(WORD_TRAMPLE.sub("", clean(item["name"])))
    told = TRAMPLE_DAMAGE.search(text)
    dmg = entry if entry and "d" in entry.group(1) else told
    dcs = set(REFLEX_HALF.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    if dc is None or dmg is None:
        return ctx.unread(item, "trample", f"{'no Reflex DC' if dc is None else 'no damage'} read", text)
    damage = dice_text(dmg.group(1))
    for a in ctx.abilities:
        if a["key"] == "trample":
            a["damage"], a["dc"], a["save"] = damage, dc, "ref"
    ctx.mark(
        "trample",
        "modelled",
        f"trample: {damage} bludgeoning, Reflex DC {dc} half, on two or more smaller foes instead of its attacks",
    )
    return {"trample": {"damage": damage, "dc": dc, "damage_types": ["bludgeoning"]}}


def powerful_charge(ctx: Reading, item: dict) -> dict:
    """The attack it charges with, as the SRD prints it (the engine adds the charge's +2): ``a single gore attack
    with a +9 attack bonus that deals 4d6+6 points of damage`` (the minotaur's), ``its gore attack deals 4d8+20``
    (the triceratops's: the gore's bonus of its routines); a text that names no attack (the rhinoceros's) charges
    with its standard attack."""
    desc, text = ctx.text_of(item, "powerful charge")
    dmg = CHARGE_DAMAGE.search(text)
    if dmg is None:
        return ctx.unread(item, "powerful charge", "its damage not read", text)
    damage = dice_text(dmg.group(1))
    for a in ctx.abilities:
        if a["key"] == "powerful charge":
            a["damage"] = damage
    standard = [a for r in ctx.data.get("attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    melee = standard + [a for r in ctx.data.get("full_attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    attack = CHARGE_ATTACK.search(text)
    how = ""
    if attack:
        found = named(attack.group(1), [a["name"] for a in melee])
        if found is None:
            return ctx.ignored(
                "powerful charge", f"its {attack.group(1).lower()} attack is not an attack of its routines"
            )
        base = next(a for a in melee if a["name"] == found)
    elif standard:
        base = standard[0]
        how = f"; the text names no attack: its standard attack, the {base['name']}"
    else:
        return ctx.ignored("powerful charge", "the text names no attack and it has no melee attack")
    bonus = CHARGE_BONUS.search(text)
    bonuses = [number(bonus.group(1) or bonus.group(2))] if bonus else [base["bonuses"][0]]
    if not bonus:
        how += f"; at the {base['name']}'s bonus, {bonuses[0]:+d}"
    charge = {
        "name": base["name"],
        "bonuses": bonuses,
        "damage": damage,
        "damage_types": list(base.get("damage_types") or ["bludgeoning"]),
    }
    for key in ("threat", "multiplier"):
        if key in base:
            charge[key] = base[key]
    ctx.mark(
        "powerful charge",
        "modelled",
        f"powerful_charge: {charge['name']} {bonuses[0]:+d} melee ({damage}) as it "
        f"closes in, round 1, the charge's +2 added by the engine{how}",
    )
    return {"powerful_charge": charge}


# --------------------------------------------------------------------------------------------- webs and rays
def web(ctx: Reading, item: dict) -> dict:
    """``can throw a web eight times per day ... can burst the web with a DC 26 Strength check`` (the DC of its
    table by size when the text gives none)."""
    desc, _ = ctx.text_of(item, "web")
    text = ctx.following(desc, 2)
    uses, burst = WEB_USES.search(text), WEB_BURST.search(text)
    how = ""
    dc = number(burst.group(1)) if burst else None
    if dc is None:
        dc, row = size_number(ctx.block, ctx.size, desc, "Break DC")
        if dc is not None:
            how = f"; its burst DC from the {row} row of its table by size"
    count = NUMBER_WORDS.get(uses.group(1).lower()) if uses else None
    if dc is None or count is None:
        what = "no Strength DC to burst it" if dc is None else "how many webs a day"
        return ctx.unread(item, "web", f"{what} read", text)
    if WEB_SPINNERS.search(text):
        how += "; as a web-spinner (the SRD's hunting spiders throw none)"
        ctx.note_on(
            item,
            "guess",
            "web: the block is a web-spinner (hunting spiders cannot use their webs as weapons)",
            text[:200],
        )
    if ANCHORS.search(text):
        how += "; anchored in place: the engine's entangles"
    ctx.save_of("web", dc, None)
    ctx.mark("web", "modelled", f"web: {count} a fight, burst with a DC {dc} Strength check{how}")
    return {"web": {"burst_dc": dc, "uses": count}}


def spikes(ctx: Reading, item: dict) -> dict:
    """The manticore's ``volley of six spikes as a standard action (make an attack roll for each spike)``: its
    ranged routine (``6 spikes +8 ranged``), one of the routines the engine chooses between."""
    ranged = [
        a
        for r in (ctx.data.get("full_attack") or [])
        for a in r
        if a.get("kind") == "ranged" and a["name"].startswith(SPIKE)
    ]
    if not ranged:
        return ctx.ignored("spikes", "no spike volley in its routines")
    ctx.mark(
        "spikes",
        "modelled",
        f"its ranged routine: {ranged[0].get('count', 1)} spikes "
        f"{ranged[0]['bonuses'][0]:+d}; the engine fights with its melee routine when it "
        "can (its 24 spikes a day are left out)",
    )
    return {}


# --------------------------------------------------------------------------------------------- summon
def _creature_name(words: str, own: str) -> tuple[str, str] | None:
    """(count, bestiary name) of ``2d10 dretches``, ``another vrock``, ``one glabrezu``, ``1 babau``."""
    words = words.strip().lower()
    if ANOTHER.match(words):
        return "1", own
    m = SUMMONED.match(words)
    if m is None:
        return None
    count = "1" if m.group(1) in ("one", "a", "an") else dice_text(m.group(1))
    return count, "-".join(singular(m.group(2)).split())


def summon(ctx: Reading, item: dict) -> dict:
    """``Once per day a vrock can attempt to summon 2d10 dretches or another vrock with a 35% chance of success``:
    the first of the options listed with the highest chance (the summoner's choice, which the SRD leaves to it)."""
    desc, text = ctx.text_of(item, item["name"], "summon demon", "summon devil", "summon mephit")
    if not text:  # "Summon Demon (Sp):Once per day" (no space), or the family's rule (the mephits')
        text = next((clean(c.text) for c in ctx.block.description if SUMMON_RULE.match(c.text)), None) or clean(
            rule_above(ctx.block, r"^Summon \w+ \(Sp\):") or ""
        )
    m = SUMMON.search(text)
    if m is None:
        return ctx.ignored(
            "summon",
            "it summons automatically (no chance)" if AUTOMATICALLY in text else "its uses and chance not read",
        )
    uses = TIMES[m.group(1).lower()]
    groups = [(m.group(2), number(m.group(3)))] + [
        (more.group(1), number(more.group(2))) for more in SUMMON_MORE.finditer(m.group(4))
    ]
    chance = max(c for _, c in groups)
    words = next(w for w, c in groups if c == chance)
    options = [o for o in SUMMON_OPTIONS.split(words) if o.strip()]
    own = ctx.data["name"]
    first = ("1", own) if SAME_VARIETY in text else _creature_name(options[0], own)
    if first is None:
        ctx.note_on(item, "unread", f"summon: the creature of {options[0]!r} not read: not modelled", text[:200])
        return ctx.ignored("summon", "the creature it summons not read")
    count, creature = first
    how = (
        ""
        if len(options) == 1 and len(groups) == 1
        else f"; of the options ({'; '.join(w for w, _ in groups)}) the first of the highest chance"
    )
    ctx.mark(
        "summon",
        "modelled",
        f"summon: {count} {creature}, {chance}% chance, {uses} a fight, a standard action; "
        f"joins at the next round{how}",
    )
    return {"summon": {"creature": creature, "count": count, "chance": chance / 100, "uses": uses}}


# --------------------------------------------------------------------------------------------- whirlwind
def hit_dice_count(data: dict) -> int:
    """The creature's hit dice (the dice added of its hit dice expression)."""
    return sum(count for sign, count, _, _ in parse_dice(data["hit_dice"]).dice if sign > 0) or 1


def whirlwind(ctx: Reading, item: dict) -> dict:
    """The air elemental's (``remain in that form for up to 1 round for every 2 HD``; save DC and damage from the
    table by size) and the djinni's (``up to 7 rounds ... DC 20 Reflex save ... or take 3d6 points of damage ...
    automatically taking 1d8 points of damage each round``)."""
    desc, _ = ctx.text_of(item, "whirlwind")
    text = ctx.following(desc, 4)
    if BLAST.search(item["name"]) or desc is None:
        return ctx.ignored(
            "whirlwind",
            "a blast from its whirlwind form, which it takes by alternate form (not modelled)"
            if desc is not None
            else "no description read",
        )
    fixed = UP_TO_ROUNDS.search(text)
    rounds = str(max(1, hit_dice_count(ctx.data) // 2)) if PER_TWO_HD in text else fixed.group(1) if fixed else None
    dc, hit, held = WHIRL_DC.search(text), WHIRL_HIT.search(text), WHIRL_HELD.search(text)
    how = ""
    if dc and hit and held:
        field = {"dc": number(dc.group(1)), "damage": dice_text(hit.group(1)), "held_damage": dice_text(held.group(1))}
    else:
        key, row = size_row(ctx.block, ctx.data["size"], desc.line, "Save DC") or ("", {})
        save = next((v for k, v in row.items() if "save dc" in k.lower()), "")
        damage = next((v for k, v in row.items() if k.lower() == "damage"), "")
        if not save.isdigit() or not WHOLE_AMOUNT.fullmatch(damage or "-"):
            return ctx.unread(item, "whirlwind", "its save DC and damage not read", text)
        field = {"dc": number(save), "damage": dice_text(damage), "held_damage": dice_text(damage)}
        how = f"; its DC and damage from the {key} row of its table by size"
    if rounds is None:
        return ctx.unread(item, "whirlwind", "how long it lasts not read", text)
    field["rounds"] = rounds
    ctx.mark(
        "whirlwind",
        "modelled",
        f"whirlwind: {rounds} rounds once a fight instead of its slams; smaller foes "
        f"Reflex DC {field['dc']} or {field['damage']}, and again or carried "
        f"({field['held_damage']} a round, -2 attacks and AC){how}",
    )
    return {"whirlwind": field}


# --------------------------------------------------------------------------------------------- smite
def smite(ctx: Reading, item: dict) -> dict:
    """``Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18 points of damage
    against a good foe``; ``extra damage equal to its HD (maximum of +20)``. A nalfeshnee's is a burst."""
    burst = _nimbus(ctx, item)
    if burst is not None:
        return burst
    desc, text = ctx.text_of(item, item["name"], "smite good", "smite evil", "smite")
    m = search_chain(text, *SMITE, flags=re.IGNORECASE)
    extra = SMITE_EXTRA.search(text)
    if m is None or (extra is None and EQUAL_TO_HD not in text) or SMITE_BONUS.search(text):
        return ctx.ignored(
            "smite",
            "its uses, foe and extra damage not read (or a bonus on the attack roll the engine's smite has not)",
        )
    damage = number(extra.group(1) or extra.group(2)) if extra else min(20, hit_dice_count(ctx.data))
    against = m.group(2).lower()
    uses = TIMES[m.group(1).lower()]
    applies = "the party counts as good: it applies" if against == "good" else "the party is not evil: it never applies"
    ctx.mark(
        "smite",
        "modelled",
        f"smite {against}: +{damage} damage on a hit with its first melee attack, {uses} a fight ({applies})",
    )
    return {"smite": {"against": against, "damage": damage, "uses": uses}}


def _nimbus(ctx: Reading, item: dict) -> dict | None:
    """The nalfeshnee's smite, a burst: ``Three times per day a nalfeshnee can create a nimbus of unholy light ...
    One round later they burst in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will save or
    be dazed for 1d10 rounds``; None for any other smite."""
    desc, text = ctx.text_of(item, "smite")
    m = search_chain(text, *NIMBUS)
    if m is None:
        return None
    uses = TIMES[m.group(1).lower()]
    ctx.save_of("smite", number(m.group(2)), "will")
    ctx.mark(
        "smite",
        "modelled",
        f"burst: {uses} a fight as its standard action, every foe Will DC {m.group(2)} or "
        f"dazed {dice_text(m.group(3))} rounds (out of the fight, not helpless; the round "
        "before it bursts is left out)",
    )
    return {"burst": {"dc": number(m.group(2)), "save": "will", "rounds": dice_text(m.group(3)), "uses": uses}}


# --------------------------------------------------------------------------------------------- earth mastery
def _plus(damage: str, more: int) -> str:
    """``2d8+7`` plus 1 is ``2d8+8``."""
    m = MODIFIER_END.fullmatch(damage)
    if m is None:  # a line break: no dice of a stat block
        return damage
    total = number(m.group(2) or 0) + more
    return f"{m.group(1)}{total:+d}" if total else m.group(1)


def earth_mastery(ctx: Reading, item: dict) -> dict:
    """SRD 3.5 Earth elemental: "gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
    ground ... (These modifiers are not included in the statistics block.)": every arena fight is on the ground, so
    its attacks gain +1 and +1."""
    desc, text = ctx.text_of(item, "earth mastery")
    if EARTH_MASTERY not in text:
        return ctx.ignored("earth mastery", "its numbers not read")
    out = {
        key: [
            [{**a, "bonuses": [b + 1 for b in a["bonuses"]], "damage": _plus(a["damage"], 1)} for a in routine]
            for routine in ctx.data.get(key) or []
        ]
        for key in ("attack", "full_attack")
    }
    ctx.note_on(
        item,
        "changed",
        "earth mastery: +1 on its attack and damage rolls (the fight is on the ground), added to its attacks",
        text[:200],
    )
    ctx.mark(
        "earth mastery",
        "modelled",
        "+1 on attack and damage rolls, added to its attacks: an arena fight is on "
        "the ground (no foe of the party flies)",
    )
    return out
