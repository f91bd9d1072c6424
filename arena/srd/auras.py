"""What a creature does to those who see, hear or stand near it, read once the attacks are: frightful presence, the
auras of presence (a mummy's despair, an archon's aura of menace, a harpy's captivating song, a hell hound's bay, a
devil's fear aura, a satyr's pipes, a sea hag's horrific appearance), stench, a nightmare's
smoke, an assassin vine's entangle, and gazes and glances.

Each reader is ``reader(reading, item)`` (:mod:`arena.srd.effects` runs them in order): it reads the ability's
save, DC and duration from its description, the creature's own DC where a chapter gives each variant its own
(:func:`own_dc`), returns the :class:`~arena.world.creatures.Creature` field (``frightful_presence``, ``aura``,
``stench``, ``smoke``, ``entangle``, ``gaze`` or ``glance``) and marks the ability ``modelled``, or
leaves it ``ignored`` and says why.
"""

from __future__ import annotations

import re

from arena.srd.context import Reading, bare_name
from arena.srd.patterns import AMOUNT
from arena.srd.prose import ability_head, heading_above, paragraph_heads
from arena.srd.text import Cell, clean, dice_text, in_rounds, number

ENTRY_DC = re.compile(r"\bDC\s*(\d+)")
"""The DC in an entry: ``Frightful presence (DC 21)``."""
WILL_DC = re.compile(r"\bDC (\d+) Will")
"""``a DC 21 Will save``."""
FRIGHTENED_FOR = re.compile(
    rf"\b(?:panicked|shaken|frightened|afraid) for ({AMOUNT}) (round|minute|hour)s?", re.IGNORECASE
)
"""``becomes shaken for 4d6 rounds``."""
AS_LONG_AS = "as long as"
"""A fear that lasts while the foe is near: ``shaken for as long as it remains within 60 feet``."""
NAMED_DC = re.compile(
    r"save DC (?:against|for) (?:this |the )?([a-z' ]{1,80}?)'s\b([^.]{0,120}?)(?:\bis |\(DC )(\d+)", re.IGNORECASE
)
"""A variant's own DC, by its name: ``The save DC against this mummy lord's despair is 17``, ``The save DC for the
cauchemar's smoke attack (DC 24)``."""
DESPAIR_FOR = re.compile(rf"paralyzed with fear for ({AMOUNT}) rounds")
"""A mummy's: ``must succeed on a DC 16 Will save or be paralyzed with fear for 1d4 rounds``."""
MUMMY = re.compile(r"mummy", re.IGNORECASE)
"""A mummy's title: ``Mummy Lord`` (whose paragraph gives only its DC)."""
PANICKED_FOR = re.compile(rf"panicked for ({AMOUNT}) rounds")
"""A hell hound's bay: ``must succeed on a DC 11 Will save or become panicked for 2d4 rounds``."""
FEAR_SPELL = (
    re.compile(r"DC (\d+) Will save or be affected as though by a fear spell \(caster level (\d+)"),
    re.compile(r"fear from an (\d+)th-level caster \(save DC (\d+)\)"),
)
"""A devil's fear aura: ``DC 17 Will save or be affected as though by a fear spell (caster level 7th)``; an
avoral's: ``identical with fear from an 8th-level caster (save DC 17)``."""
FEWER_HD = re.compile(r"less than \d+ HD")
"""An aura of other terms: ``creatures with less than 5 HD``."""
PIPES = re.compile(r"DC (\d+) Will save or be affected by charm person, sleep, or fear \(caster level (\d+)")
"""A satyr's: ``must succeed on a DC 13 Will save or be affected by charm person, sleep, or fear (caster level
10th)``."""
HORRIFIC = re.compile(rf"DC (\d+) Fortitude save or instantly be weakened, taking ({AMOUNT}) points of Strength damage")
"""A sea hag's: ``must succeed on a DC 13 Fortitude save or instantly be weakened, taking 2d6 points of Strength
damage``."""
FORTITUDE_DC = re.compile(r"\bDC (\d+) Fortitude|\bFortitude DC (\d+)")
"""``a DC 13 Fortitude save``."""
NAUSEATED = re.compile(r"\bnauseated\b", re.IGNORECASE)
"""A stench that nauseates: ``or be nauseated for as long as it remains within the affected area``."""
NAUSEA_TERMS = re.compile(
    r"within 10 feet must succeed .* or be nauseated for as long as it remains within the "
    r"affected area.*Creatures that successfully save are sickened",
    re.IGNORECASE,
)
"""A hezrou's: ``Any living creature (except other demons) within 10 feet must succeed on a DC 24 Fortitude save or
be nauseated for as long as it remains within the affected area ... Creatures that successfully save are sickened
for as long as they remain in the area``."""
SICKENED_FOR = re.compile(rf"sickened for ({AMOUNT}) (round|minute|hour)s?", re.IGNORECASE)
"""A troglodyte's: ``must succeed on a DC 13 Fortitude save or be sickened for 10 rounds``."""
SMOKE_CONE = re.compile(r"(?<!\d)(\d+)-foot cone")
"""A nightmare's: ``fills a 15-foot cone with a hot, sulfurous smoke``."""
SMOKE_PENALTY = "-2 penalty on all attack and damage rolls"
"""``or take a -2 penalty on all attack and damage rolls until 1d6 minutes after leaving the cone``."""
CONCEALMENT = "concealment"
REF_PARTIAL = re.compile(r"\(Ref(?:lex)? DC (\d+) partial\)")
"""An assassin vine's: ``can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)``."""
ANIMATE_PLANTS = "animate plants"
ENTRY_HEAD = re.compile(r"^[^:]*:\s*")
"""A paragraph's name, left out of its body: ``Petrifying Gaze (Su):``."""


# --------------------------------------------------------------------------------------------- the creature's DC
def own_dc(ctx: Reading, item: dict, text: str, save: str = "Will") -> int | None:
    """The creature's own DC: a paragraph that gives it by name (``The save DC against this mummy lord's despair is
    17``), else the paragraph the ability's entry was read with (``Aura of Menace (Su): Will DC 16 negates`` of the
    hound archon, not the hero's ``(DC 18)`` below it), else ``text``'s."""
    words = set(re.findall(r"[a-z]+", ctx.block.title.lower()))
    ability = item["key"].split()[0]
    for c in ctx.block.description:
        named = NAMED_DC.search(c.text)
        if named and ability in named.group(2).lower() and set(named.group(1).lower().split()) <= words:
            return number(named.group(3))
    nearest = _nearest_paragraph(ctx, item)
    for own in (
        (nearest.text if nearest is not None else ""),
        (item["text"].split(" -- ", 1)[1] if " -- " in item["text"] else ""),
    ):
        dc = dc_of(clean(own), save) if own else None
        if dc is not None:
            return dc
    return dc_of(text, save)


def _nearest_paragraph(ctx: Reading, item: dict) -> Cell | None:
    """Of the paragraphs that describe the ability (``Captivating Song (Su): ...``), the one under the heading that
    names the creature, where a chapter gives a variant its own line (the harpy archer's ``Will DC 17 negates``
    under HARPY ARCHER, after the harpy's DC 16 under HARPY); None when no heading names it."""
    wanted = ability_head(bare_name(item["name"]))
    title = " ".join(re.findall(r"[a-z]+", ctx.block.title.split(",")[0].lower()))
    for c, head, _ in paragraph_heads(ctx.block.description).heads:
        if wanted and head == wanted and heading_above(ctx.block, c.line) == title:
            return c
    return None


_DC_PATTERNS: dict[str, re.Pattern[str]] = {}


def dc_of(text: str, save: str = "Will") -> int | None:
    """The one DC of ``save`` that ``text`` gives: ``DC 16 Will``, ``Will DC 16``, ``save DC against ... is 16``,
    ``(DC 16)``; None when it gives none, or several."""
    pattern = _DC_PATTERNS.get(save)
    if pattern is None:
        pattern = _DC_PATTERNS[save] = re.compile(
            rf"\bDC (\d+) {save}|\b{save} DC (\d+)|save DC against [\w' ]+? is "
            r"(\d+)|\(DC (\d+)\)"
        )
    values = {number(next(x for x in group if x)) for group in set(pattern.findall(text))}
    return values.pop() if len(values) == 1 else None


def _aura(ctx: Reading, key: str, field: dict, described: str) -> dict:
    """An aura read whole: its save numbers, marked modelled with what the engine does, and its ``aura`` field."""
    ctx.save_of(key, field["dc"], field["save"])
    ctx.mark(key, "modelled", described)
    return {"aura": field}


# --------------------------------------------------------------------------------------------- fear
def frightful_presence(ctx: Reading, item: dict) -> dict:
    """``Frightful presence (DC 21)`` and ``... must succeed on a DC 21 Will save or become panicked for 4d6
    rounds``; shaken for as long as the foe is near is the whole fight."""
    desc, text = ctx.text_of(item, "frightful presence")
    m = ENTRY_DC.search(item["name"])
    dc = number(m.group(1)) if m else None
    if dc is None and text:
        found = set(WILL_DC.findall(text))
        dc = number(found.pop()) if len(found) == 1 else None
    if dc is None:
        ctx.note_on(item, "unread", "frightful presence: no Will DC read: not modelled", text[:200] or item["name"])
        return ctx.ignored("frightful presence", "no Will DC read")
    duration = "4d6"
    how = ""
    rounds = FRIGHTENED_FOR.search(text)
    if rounds:
        duration, changed = in_rounds(rounds.group(1), rounds.group(2))
        if changed:
            ctx.note_on(item, "changed", f"frightful presence: {changed}", text[:200])
            how = f"; {changed}"
    elif AS_LONG_AS in text:
        duration = "100"
        how = "; shaken as long as the foe stays near it: for the whole fight (100 rounds)"
        ctx.note_on(
            item,
            "guess",
            "frightful presence: shaken as long as the foe stays within its range: 100 rounds, the whole fight",
            text[:200],
        )
    if text and "panicked" not in text.lower() and "shaken" in text.lower():
        how += "; the SRD's makes every foe shaken, the engine's panics those of 4 HD or fewer"
        ctx.note_on(
            item,
            "guess",
            "frightful presence: the SRD's makes a foe shaken whatever its Hit Dice; the "
            "engine's panics foes of 4 HD or fewer",
            text[:200],
        )
    ctx.mark("frightful presence", "modelled", f"frightful_presence: Will DC {dc}, {duration} rounds{how}")
    ctx.save_of("frightful presence", dc, "will")
    return {"frightful_presence": {"dc": dc, "duration": duration}}


def despair(ctx: Reading, item: dict) -> dict:
    """``At the mere sight of a mummy, the viewer must succeed on a DC 16 Will save or be paralyzed with fear for
    1d4 rounds`` (a mummy lord's paragraph gives only its DC: the rest is the mummy's, the rule above it)."""
    desc, text = ctx.text_of(item, "despair")
    dc = own_dc(ctx, item, text)
    found = DESPAIR_FOR.search(text)
    rounds = found.group(1) if found else None
    if rounds is None and dc is not None and MUMMY.search(ctx.block.title):
        rounds = "1d4"
        ctx.note_on(item, "guess", "despair: only the DC given: paralyzed for 1d4 rounds, the mummy's", text[:200])
    if dc is None or rounds is None:
        return ctx.unread(item, "despair", "its DC and duration not read", text)
    return _aura(
        ctx,
        "despair",
        {"effect": "paralysis", "dc": dc, "save": "will", "rounds": dice_text(rounds)},
        f"aura: Will DC {dc} or paralyzed with fear for {rounds} rounds, once for each foe, on its first action",
    )


def menace(ctx: Reading, item: dict) -> dict:
    """``Aura of Menace (Su): Will DC 12 negates`` (each archon's paragraph; the rule is the archons': "-2 penalty on
    attacks, AC, and saves for 24 hours or until they successfully hit the archon")."""
    desc, text = ctx.text_of(item, "aura of menace")
    dc = own_dc(ctx, item, text)
    if dc is None:
        return ctx.unread(item, "aura of menace", "no Will DC read", text)
    return _aura(
        ctx,
        "aura of menace",
        {"effect": "menace", "dc": dc, "save": "will"},
        f"aura: Will DC {dc} or -2 on attack rolls, AC and saves for the fight (hitting the archon, which "
        "ends it in the SRD, is not modelled), on its first action",
    )


def song(ctx: Reading, item: dict) -> dict:
    """``all creatures (other than harpies) within a 300-foot spread must succeed on a DC 16 Will save or become
    captivated ... Captivated creatures can take no actions other than to defend themselves ... A victim within 5
    feet of the harpy stands there and offers no resistance ... The effect continues for as long as the harpy
    sings and for 1 round thereafter``."""
    desc, text = ctx.text_of(item, "captivating song")
    dc = own_dc(ctx, item, text)
    if dc is None:
        return ctx.unread(item, "captivating song", "no Will DC read", text)
    return _aura(
        ctx,
        "captivating song",
        {"effect": "captivate", "dc": dc, "save": "will", "rounds": "1"},
        f"aura: Will DC {dc} once for each foe or captivated (it walks to the harpy and offers no resistance: "
        "helpless) while the harpy sings and 1 round after; the harpy sings from its first action on, as a "
        "free action each turn (the SRD names no action)",
    )


def bay(ctx: Reading, item: dict) -> dict:
    """``all creatures except other evil outsiders within a 300-foot spread must succeed on a DC 11 Will save or
    become panicked for 2d4 rounds. This is a sonic mind-affecting fear effect. Whether or not the save is
    successful, an affected creature is immune to the same hound's bay for 24 hours``."""
    desc, text = ctx.text_of(item, "bay")
    dc = own_dc(ctx, item, text)
    rounds = PANICKED_FOR.search(text)
    if dc is None or rounds is None:
        return ctx.unread(item, "bay", "its DC and rounds not read", text)
    return _aura(
        ctx,
        "bay",
        {"effect": "panic", "dc": dc, "save": "will", "rounds": dice_text(rounds.group(1))},
        f"aura: Will DC {dc} once for each foe or panicked for {rounds.group(1)} rounds, on its first action",
    )


def fear_aura(ctx: Reading, item: dict) -> dict:
    """The devils' (``radiate a 5-foot-radius fear aura as a free action ... DC 17 Will save or be affected as though
    by a fear spell (caster level 7th)``) and the avoral's (``Once per day ... an aura of fear ... identical with
    fear from an 8th-level caster (save DC 17)``): panicked for 1 round per caster level (the fear spell's; the
    shaken round of a made save is left out), each foe once, on its first action."""
    desc, text = ctx.text_of(item, "fear aura")
    dc = FEAR_SPELL[0].search(text) or FEAR_SPELL[1].search(text)
    if dc is None or ctx.data.get("aura") is not None or FEWER_HD.search(text):
        return ctx.ignored("fear aura", "its DC and caster level not read (or an aura of other terms)")
    save_dc, level = (
        (number(dc.group(1)), dc.group(2)) if "Will save" in dc.group(0) else (number(dc.group(2)), dc.group(1))
    )
    return _aura(
        ctx,
        "fear aura",
        {"effect": "panic", "dc": save_dc, "save": "will", "rounds": level},
        f"aura: Will DC {save_dc} once for each foe or panicked for {level} rounds (the fear spell's 1 round "
        "per level; a made save's shaken round is left out), on its first action",
    )


def pipes(ctx: Reading, item: dict) -> dict:
    """The satyr's: ``all creatures within a 60-foot spread (except satyrs) must succeed on a DC 13 Will save or be
    affected by charm person, sleep, or fear (caster level 10th; the satyr chooses the tune and its effect)``: the
    fear, which affects every foe (charm person only humanoids, sleep only 4 HD): panicked for 10 rounds (the fear
    spell's 1 round per level), on its first action."""
    desc, text = ctx.text_of(item, "pipes")
    m = PIPES.search(text)
    if m is None or ctx.data.get("aura") is not None:
        return ctx.ignored("pipes", "its tunes not read")
    return _aura(
        ctx,
        "pipes",
        {"effect": "panic", "dc": number(m.group(1)), "save": "will", "rounds": m.group(2)},
        f"aura: the tune of fear (the satyr's choice), Will DC {m.group(1)} once for each foe or panicked for "
        f"{m.group(2)} rounds, on its first action",
    )


def horrific(ctx: Reading, item: dict) -> dict:
    """The sea hag's ``anyone ... who sets eyes upon one must succeed on a DC 13 Fortitude save or instantly be
    weakened, taking 2d6 points of Strength damage ... Creatures that are affected by this power or that
    successfully save against it cannot be affected again by the same hag's horrific appearance for 24 hours``."""
    desc, text = ctx.text_of(item, "horrific appearance")
    m = HORRIFIC.search(text)
    if m is None or ctx.data.get("aura") is not None:
        return ctx.ignored("horrific appearance", "its DC and damage not read")
    ctx.save_of("horrific appearance", number(m.group(1)), "fort")
    ctx.mark(
        "horrific appearance",
        "modelled",
        f"aura: Fort DC {m.group(1)} once for each foe or {dice_text(m.group(2))} Strength damage, on its first action",
    )
    return {
        "aura": {
            "effect": "weakness",
            "dc": number(m.group(1)),
            "save": "fort",
            "loss": {"dice": dice_text(m.group(2)), "ability": "str"},
        }
    }


# --------------------------------------------------------------------------------------------- stench, roar, smoke
def stench(ctx: Reading, item: dict) -> dict:
    """``must succeed on a DC 13 Fortitude save or be sickened for 10 rounds`` (the troglodyte's); minutes are
    their average in rounds. A stench that nauseates (the hezrou's) is the engine's nausea when its terms are."""
    desc, text = ctx.text_of(item, "stench")
    text = ctx.following(desc, 1) or text
    dcs = set(FORTITUDE_DC.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    if dc is not None:
        ctx.save_of("stench", dc, "fort")
    if NAUSEATED.search(text):
        if dc is None or not NAUSEA_TERMS.search(text):
            return ctx.ignored("stench", "its nausea's terms not read")
        ctx.mark(
            "stench",
            "modelled",
            f"stench: the foes in melee with it (within 10 feet), Fort DC {dc} or nauseated "
            "(no actions but a move: out of the fight, not helpless), else sickened, for "
            "the fight (they stay near it), on its first action",
        )
        return {"stench": {"dc": dc, "rounds": "1", "nauseates": True}}
    m = SICKENED_FOR.search(text)
    if dc is None or m is None:
        return ctx.unread(item, "stench", f"{'no Fortitude DC' if dc is None else 'how long it sickens'} read", text)
    rounds, changed = in_rounds(m.group(1), m.group(2))
    how = ""
    if changed:
        ctx.note_on(item, "changed", f"stench: {changed}", text[:200])
        how = f" ({dice_text(m.group(1))} {m.group(2).lower()}s: their average)"
    ctx.mark("stench", "modelled", f"stench: Fort DC {dc} or sickened for {rounds} rounds{how}, on its first action")
    return {"stench": {"dc": dc, "rounds": rounds}}


def smoke(ctx: Reading, item: dict) -> dict:
    """``fills a 15-foot cone with a hot, sulfurous smoke ... DC 16 Fortitude save or take a -2 penalty on all
    attack and damage rolls until 1d6 minutes after leaving the cone ... once as a free action during its turn each
    round``."""
    desc, text = ctx.text_of(item, "smoke")
    cone = SMOKE_CONE.search(text)
    dc = own_dc(ctx, item, text, "Fortitude")
    if cone is None or dc is None or SMOKE_PENALTY not in text:
        return ctx.unread(item, "smoke", "its cone, DC and penalty not read", text)
    how = "; the concealment its smoke gives it is left out" if CONCEALMENT in ctx.following(desc, 1) else ""
    ctx.save_of("smoke", dc, "fort")
    ctx.mark(
        "smoke",
        "modelled",
        f"smoke: a {cone.group(1)}-ft. cone at the start of each of its turns (a free "
        f"action), Fort DC {dc} or -2 on attack and damage rolls for the fight{how}",
    )
    return {"smoke": {"length_ft": number(cone.group(1)), "dc": dc, "save": "fort"}}


def entangle(ctx: Reading, item: dict) -> dict:
    """The assassin vine's: ``can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)``,
    as the entangle spell (entangled; a DC 20 Strength check to break free). An entangling weapon (the erinyes'
    rope, the balor's whip) is not this one."""
    desc, text = ctx.text_of(item, "entangle")
    dc = REF_PARTIAL.search(text)
    if dc is None or ANIMATE_PLANTS not in text:
        return ctx.ignored("entangle", "an entangling weapon or rope (not the assassin vine's plants)")
    ctx.save_of("entangle", number(dc.group(1)), "ref")
    ctx.mark(
        "entangle",
        "modelled",
        f"entangle: at the start of each of its turns (a free action) every foe not "
        f"entangled, Reflex DC {dc.group(1)} or entangled (a DC 20 Strength check to "
        "burst free, the entangle spell's)",
    )
    return {"entangle": {"dc": number(dc.group(1)), "burst_dc": 20}}
