"""The auras of presence: what the sight or the sound of a creature does to each foe, once, on its first action: a
mummy's despair, an archon's aura of menace, a harpy's captivating song, a yeth hound's bay, a devil's fear aura, a
satyr's pipes and a sea hag's horrific appearance.

One module for the seven, because they are one mechanism and one stat-block field: each foe saves once or suffers
the aura's effect (:class:`Aura`, the field ``aura``, ``effect`` naming which); a creature has one aura (a reader
leaves an aura of other terms out when an earlier one was read). The whole ability: the field, how the importer
reads each of the seven (:func:`read_despair`, :func:`read_menace`, :func:`read_song`, :func:`read_bay`,
:func:`read_fear_aura`, :func:`read_pipes`, :func:`read_horrific`, in the order the importer ran them before), and
what it does in a fight: the aura on the creature's first action (:func:`aura`, after its frightful presence and
its stench) and the captivating song kept up at the start of each of its turns (:func:`sing_on`).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from arena.combat.abilities import free_to_act
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, lose_ability
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.auras import own_dc
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.creatures import AbilityLoss
from arena.world.stat_types import Frozen, RoundsDice, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Aura(Frozen):
    """An effect of the creature's presence, on its first action (like frightful presence): every able foe saves
    (``save``, ``dc``) once or suffers ``effect``. ``panic``: the yeth hound's bay (panicked for ``rounds``);
    ``weakness``: the sea hag's horrific appearance (the ability ``loss``); ``paralysis``: the mummy's despair
    ("paralyzed with fear for 1d4 rounds"); ``menace``: the archons' aura of menace (-2 on attack rolls, AC and
    saves, here for the fight: hitting the archon, which the SRD says ends it, is not modelled); ``captivate``: the
    harpy's captivating song (each foe saves once; a captivated one can do nothing and offers no resistance, for as
    long as the creature sings: the song goes on on each of its turns while it can act, and ends 1 round after)."""

    effect: Literal["paralysis", "menace", "captivate", "panic", "weakness"]
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "will"
    rounds: RoundsDice = "1"
    loss: AbilityLoss | None = None
    """``weakness``: the ability damage a failed save costs (the sea hag's horrific appearance: 2d6 Strength)."""


# --------------------------------------------------------------------------------------------- reading the SRD
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


def _aura(ctx: Reading, key: str, field: dict, described: str) -> dict:
    """An aura read whole: its save numbers, marked modelled with what the engine does, and its ``aura`` field."""
    ctx.save_of(key, field["dc"], field["save"])
    ctx.mark(key, "modelled", described)
    return {"aura": field}


def read_despair(ctx: Reading, item: dict) -> dict:
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


def read_menace(ctx: Reading, item: dict) -> dict:
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


def read_song(ctx: Reading, item: dict) -> dict:
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


def read_bay(ctx: Reading, item: dict) -> dict:
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


def read_fear_aura(ctx: Reading, item: dict) -> dict:
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


def read_pipes(ctx: Reading, item: dict) -> dict:
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


def read_horrific(ctx: Reading, item: dict) -> dict:
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


# --------------------------------------------------------------------------------------------- in a fight
AURA_IMMUNITY = {
    "paralysis": ("mind-affecting", "paralysis"),
    "menace": (),
    "captivate": ("mind-affecting",),
    "panic": ("mind-affecting",),
    "weakness": (),
}
"""The immunities that stop each aura: despair paralyzes with fear; the song is a sonic mind-affecting charm."""
AURA_WORDS = {
    "paralysis": "paralyzed with despair",
    "menace": "menaced",
    "captivate": "captivated",
    "panic": "panicked",
    "weakness": "weakened",
}


def aura(f: FightState, c: Combatant) -> None:
    """An aura of presence, on the creature's first action; each foe saves once (SRD 3.5: "that creature cannot be
    affected again by the same mummy's despair ability for 24 hours").

    - Despair (mummy): "At the mere sight of a mummy, the viewer must succeed on a DC 16 Will save or be paralyzed
      with fear for 1d4 rounds."
    - Aura of menace (archons): "Those who fail take a -2 penalty on attacks, AC, and saves for 24 hours or until
      they successfully hit the archon that generated the aura" (here: for the fight).
    - Bay (yeth hound, shadow mastiff): "must succeed on a DC 11 Will save or become panicked for 2d4 rounds ...
      a sonic mind-affecting fear effect".
    - Horrific appearance (sea hag): "must succeed on a DC 13 Fortitude save or instantly be weakened, taking 2d6
      points of Strength damage".
    - Captivating song (harpy): "must succeed on a DC 16 Will save or become captivated ... Captivated creatures can
      take no actions other than to defend themselves ... A victim within 5 feet of the harpy stands there and
      offers no resistance to the monster's attacks" (helpless), while the harpy sings (each of its turns, see
      :func:`sing_on`) and 1 round after."""
    a: Aura = c.t.ability_data["aura"]
    stops = AURA_IMMUNITY[a.effect]
    for foe in list(c.foes):
        if not foe.is_able or foe.dead or any(i in foe.t.immunities for i in stops):
            continue
        if save(f, foe, a.save, a.dc, c).success:
            continue
        if a.effect == "paralysis":
            add_condition(f, foe, "paralyzed", parse(a.rounds).roll(f.stream) * ROUND)
        elif a.effect == "panic":
            add_condition(f, foe, "panicked", parse(a.rounds).roll(f.stream) * ROUND)
        elif a.effect == "weakness":
            if a.loss is not None:
                lose_ability(f, foe, a.loss, c)
        elif a.effect == "menace":
            add_condition(f, foe, "menaced", FOREVER)
        else:
            add_condition(f, foe, "captivated", 2 * ROUND, by=c)
        if f.lines is not None:
            f.log(
                f"{foe.name} is {AURA_WORDS[a.effect]} by {c.name}",
                actor=foe.name,
                action="aura",
                source=c.name,
                result=a.effect,
            )


def sing_on(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Harpy: "The effect continues for as long as the harpy sings and for 1 round thereafter": each turn it
    can act, once it has begun (its first action), it sings on (a free action here: the SRD names none), and its
    captives stay captivated another round."""
    if not c.frightened or not free_to_act(c):
        return
    until = f.instant + 2 * ROUND
    for e in c.foes:
        held = e.conditions.get("captivated") if e.conditions else None
        if held is not None and held[1].get("by") is c and held[0] < until:
            add_condition(f, e, "captivated", 2 * ROUND, by=c)


def _sings(a: Aura) -> bool:
    """Only a captivating song goes on at the start of each turn."""
    return a.effect == "captivate"


add_fields(AbilityField("aura", Aura | None, doc=Aura.__doc__ or "", after="crush"))
add_reading(AbilityReading("despair", ("despair",), read_despair, after="crush", only_ignored=True))
add_reading(AbilityReading("aura of menace", ("aura of menace",), read_menace, after="smite", only_ignored=True))
add_reading(
    AbilityReading("captivating song", ("captivating song",), read_song, after="aura of menace", only_ignored=True)
)
add_reading(AbilityReading("bay", ("bay",), read_bay, after="earth mastery", only_ignored=True))
add_reading(AbilityReading("fear aura", ("fear aura", "fear"), read_fear_aura, after="attach", only_ignored=True))
add_reading(AbilityReading("pipes", ("pipes",), read_pipes, after="corporeal instability", only_ignored=True))
add_reading(
    AbilityReading("horrific appearance", ("horrific appearance",), read_horrific, after="spikes", only_ignored=True)
)
add_fight_ability(FightAbility("aura", first_action=aura, turn_start=sing_on, turn_start_when=_sings, order=25))
