"""Gaze attacks (SRD 3.5 "Gaze Attacks"): at the start of each of the gazer's turns every able foe saves or suffers
the gaze's effect: turned to stone, paralyzed, dead, panicked, unnerved (-2 on attack rolls) or charmed. Its foes
avert their eyes from a gaze that would take them out of the fight (the model's ``gaze_response``, :func:`averts`):
half the time they need not save, and the gazer has concealment against them (20% miss chance).

The whole ability: the stat-block field (:class:`Gaze`, the field ``gaze``), how the importer reads a gaze of the
SRD text (:func:`read_gaze`; its looks at one foe, a nymph's stunning glance and a sea hag's evil eye, it reads as
the ``glance`` field), and the gaze in a fight (:func:`gaze_turn`, at the start of the gazer's turn).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import INFINITY as FOREVER_AT
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.states import DEAD_AT, DEATH_SAVE, die
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.auras import ENTRY_HEAD
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT, SAVE, SAVE_KEYS, TIMES
from arena.srd.text import clean, dice_text, drop_parens, number, search_chain
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, RoundsDice, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Gaze(Frozen):
    """A gaze attack (SRD 3.5 "Gaze Attacks"): at the start of each of the creature's turns every able foe saves
    (``save``, ``dc``) or suffers ``effect``: ``petrify`` (turned to stone: out of the fight), ``paralysis`` (for
    ``rounds``), ``death`` (dies), ``fear`` (panicked for ``rounds``). A foe may avert its eyes (the model's
    ``gaze_response``): a 50% chance each round to need no save, and 20% concealment for the gazer against it."""

    effect: Literal["petrify", "paralysis", "death", "fear", "unnerve", "charm"]
    """``unnerve``: -2 on attack rolls for ``rounds`` (the chain devil's); ``charm``: as charm person (the spirit
    naga's: humanoids only, +5 on the save in a fight; a charmed foe fights no more)."""
    save: SaveKind = "fort"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "2d4"


# --------------------------------------------------------------------------------------------- reading the SRD
GAZE_EFFECTS = (
    ("petrify", re.compile(r"turn to stone|petrif", re.IGNORECASE)),
    ("death", re.compile(r"^death\b|\bdeath,", re.IGNORECASE)),
    ("paralysis", re.compile(r"paraly", re.IGNORECASE)),
    ("fear", re.compile(r"\bfear\b|\bpanicked\b", re.IGNORECASE)),
)
"""What a gaze does, by the first words of its body: ``Turn to stone permanently, 30 feet, Fortitude DC 17
negates``."""
GAZE_SAVE = re.compile(rf"\b{SAVE} DC (\d+)|\bDC (\d+) {SAVE}")
"""``Fortitude DC 17 negates``, ``DC 17 Will``."""
SENTENCE_END = re.compile(r"[.;]")
"""Where a gaze's first sentence ends."""
NOT_THE_ENGINES = re.compile(r"\bslay\b|\bdazed?\b|\bstun|\bcharm|penalty on attack", re.IGNORECASE)
"""A gaze the engine's does not have: ``slay``, ``dazed``, ``stunned``, ``charm``."""
FOR_ROUNDS = re.compile(rf"(?:for|lasts) ({AMOUNT}) rounds", re.IGNORECASE)
"""``paralyzed for 2d4 rounds``, ``the effect lasts 1d4 rounds``."""
WITH_FEAR = re.compile(r"paralyzed with fear|fear effect", re.IGNORECASE)
"""A fear that paralyzes: ``paralyzed with fear``."""
UNNERVED = "-2 penalty on attack rolls"
"""A chain devil's unnerving gaze: ``Those who fail their saves take a -2 penalty on attack rolls for 1d3 rounds``."""
AS_CHARM = "As charm person"
"""A spirit naga's charming gaze: ``As charm person, 30 feet, Will DC 19 negates``."""
SLAY_EVIL = "slay evil"
"""A ghaele's gaze: ``can slay evil creatures of 5 or less HD``."""
NONEVIL = (r"Nonevil creatures", r"must succeed on a DC (\d+) Will save or suffer the fear effect")
"""Its parts in order: ``Nonevil creatures, and evil creatures with more than 5 HD, must succeed on a DC 18 Will
save or suffer the fear effect``."""
STUN = (r"stun a creature ", rf" DC (\d+) Fortitude save or be stunned for ({AMOUNT}) rounds")
"""A nymph's stunning glance, its parts in order: ``can stun a creature within 30 feet with a look. The target
must succeed on a DC 17 Fortitude save or be stunned for 2d4 rounds``."""
EVIL_EYE = (
    r"(Once|Twice|Three times) per day",
    r"DC (\d+) Will save or be dazed",
    r"DC (\d+) Fortitude save or die from fright",
)
"""A sea hag's evil eye, its parts in order: ``Three times per day ... DC 11 Will save or be dazed for three days
... DC 11 Fortitude save or die from fright``."""


def read_gaze(ctx: Reading, item: dict) -> dict:
    """``Petrifying Gaze (Su): Turn to stone permanently, 30 feet, Fortitude DC 17 negates``: the engine's gazes
    petrify, paralyze, kill or frighten; the others (:func:`_other_gaze`) are a few looks of their own."""
    entry = clean(item["name"])
    desc, text = ctx.text_of(item, drop_parens(entry, "").strip(), "gaze")
    if desc is None:
        ctx.note_on(item, "unread", "gaze: no description: not modelled", entry)
        return ctx.ignored("gaze", "no description read")
    body = ENTRY_HEAD.sub("", text)
    effect = next((e for e, p in GAZE_EFFECTS if p.search(body[:120])), None)
    m = GAZE_SAVE.search(body)
    if m is None:
        ctx.note_on(item, "unread", "gaze: no save DC read: not modelled", text[:200])
        return ctx.ignored("gaze", "no save DC read")
    save, dc = SAVE_KEYS[(m.group(1) or m.group(4)).lower()], number(m.group(2) or m.group(3))
    own = re.search(
        rf"\bthe {re.escape(ctx.block.title.lower())}'s {re.escape(entry.lower())} \(DC (\d+)\)",
        " ".join(ctx.block.context[ctx.block.line : ctx.block.line + 80]).lower(),
        re.IGNORECASE,
    )
    how = ""
    if own and number(own.group(1)) != dc:
        how = f"; its own DC {own.group(1)} (the text shared with another creature gives {dc})"
        dc = number(own.group(1))
    ctx.save_of("gaze", dc, save)
    other = _other_gaze(ctx, entry, body, save, dc)
    if other is not None:
        return other
    if effect is None or NOT_THE_ENGINES.search(body[:200]) and effect != "petrify":
        what = SENTENCE_END.split(body)[0][:80]
        return ctx.ignored(
            "gaze", f"its {entry.lower()} ({what}) is not one the engine's gaze has (petrify, paralysis, death, fear)"
        )
    field: dict = {"effect": effect, "save": save, "dc": dc}
    rounds = FOR_ROUNDS.search(body)
    if effect in ("paralysis", "fear"):
        if rounds is None:
            ctx.note_on(item, "unread", f"gaze: how long its {effect} lasts not read: not modelled", text[:200])
            return ctx.ignored("gaze", f"how long its {effect} lasts not read")
        field["rounds"] = dice_text(rounds.group(1))
    if effect == "paralysis" and WITH_FEAR.search(body):
        how += "; a fear effect that paralyzes: the engine's paralysis (fear immunity left out)"
        ctx.note_on(item, "guess", "gaze: paralyzed with fear: the engine's paralysis gaze", text[:200])
    extra = f", {field['rounds']} rounds" if "rounds" in field else ""
    ctx.mark(
        "gaze",
        "modelled",
        f"gaze: {effect}, {save.capitalize()} DC {dc} negates{extra} (averting eyes: the model's gaze_response){how}",
    )
    return {"gaze": field}


def _other_gaze(ctx: Reading, entry: str, body: str, save: str, dc: int) -> dict | None:
    """The gazes and looks beyond petrify, paralysis, death and fear: the chain devil's unnerving gaze ("Those who
    fail their saves take a -2 penalty on attack rolls for 1d3 rounds"), the spirit naga's charming gaze ("As charm
    person, 30 feet, Will DC 19 negates"), a ghaele's gaze ("slay evil creatures of 5 or less HD ... Nonevil
    creatures ... must succeed on a DC 18 Will save or suffer the fear effect", "as though by a fear spell for 2d10
    rounds": the party is not evil), and the looks at one foe (a nymph's stunning glance, a sea hag's evil eye);
    None for any other."""
    low = entry.lower()
    rounds = FOR_ROUNDS.search(body)
    if "unnerving" in low and UNNERVED in body and rounds:
        field = {"effect": "unnerve", "save": save, "dc": dc, "rounds": dice_text(rounds.group(1))}
        ctx.mark("gaze", "modelled", f"gaze: Will DC {dc} or -2 on attack rolls for {field['rounds']} rounds")
        return {"gaze": field}
    if "charming" in low and AS_CHARM in body:
        ctx.mark(
            "gaze",
            "modelled",
            f"gaze: as charm person, Will DC {dc} (+5 on the save in a fight), humanoids "
            "only; a charmed foe fights no more (for the fight)",
        )
        return {"gaze": {"effect": "charm", "save": save, "dc": dc}}
    nonevil = search_chain(body, *NONEVIL)
    if SLAY_EVIL in body and nonevil and rounds:
        field = {"effect": "fear", "save": "will", "dc": number(nonevil.group(1)), "rounds": dice_text(rounds.group(1))}
        ctx.mark(
            "gaze",
            "modelled",
            f"gaze: the party is not evil: Will DC {field['dc']} or panicked (a fear spell) "
            f"for {field['rounds']} rounds (its slaying of evil creatures never applies)",
        )
        return {"gaze": field}
    stun = search_chain(body, *STUN)
    if "glance" in low and stun:
        ctx.mark(
            "gaze",
            "modelled",
            f"glance: a standard action at one foe, Fort DC {stun.group(1)} or stunned "
            f"{dice_text(stun.group(2))} rounds",
        )
        return {
            "glance": {
                "effect": "stun",
                "save": "fort",
                "dc": number(stun.group(1)),
                "rounds": dice_text(stun.group(2)),
            }
        }
    eye = search_chain(body, *EVIL_EYE)
    if "evil eye" in low and eye:
        uses = TIMES[eye.group(1).lower()]
        ctx.mark(
            "gaze",
            "modelled",
            f"glance: {uses} a fight, a standard action at one foe, Will DC {eye.group(2)} or "
            f"dazed (for the fight: three days), then Fort DC {eye.group(3)} or dead of "
            "fright",
        )
        return {
            "glance": {
                "effect": "daze",
                "save": "will",
                "dc": number(eye.group(2)),
                "uses": uses,
                "fright_dc": number(eye.group(3)),
            }
        }
    return None


# --------------------------------------------------------------------------------------------- in a fight
GAZE_IMMUNITY = {
    "petrify": "petrification",
    "paralysis": "paralysis",
    "death": "death effects",
    "fear": "mind-affecting",
    "unnerve": "mind-affecting",
    "charm": "mind-affecting",
}
"""The immunity that stops each gaze effect."""
AVERT_FROM = frozenset({"petrify", "paralysis", "death", "fear", "charm"})
"""The gazes a player averts its eyes from (``gaze_response: avert``): those that take it out of the fight. A chain
devil's unnerving gaze (-2 on attack rolls for 1d3 rounds) costs less than a 20% miss chance all fight: it looks."""
AVERTED_SAVE = 0.5
"""SRD 3.5 Gaze Attacks, "Averting Eyes: ... Each round, the opponent has a 50% chance to not need to make a saving
throw against the gaze attack"."""
CHARM_IN_COMBAT = 5
"""SRD 3.5 charm person: "If the creature is currently being threatened or attacked by you or your allies, it
receives a +5 bonus on its saving throw" (always, in an arena fight)."""


def averts(f: FightState, g: Gaze) -> bool:
    """Do the gazer's foes avert their eyes from ``g``? As a player would (SRD 3.5 Gaze Attacks: "Averting Eyes:
    The opponent avoids looking at the creature's face, instead looking at its body, watching its shadow, tracking
    it in a reflective surface, etc."), from a gaze that would take them out of the fight (:data:`AVERT_FROM`),
    under the model's ``gaze_response: avert``.

    Shutting one's eyes (SRD: "Wearing a Blindfold: The foe cannot see the creature at all ... The creature with the
    gaze attack gains total concealment against the opponent") is no choice here: in a fight without a grid the
    foe who cannot see is blinded against every enemy (-2 AC, no Dexterity bonus, 50% miss chance against all, no
    spell aimed at a creature it cannot see), which is worse than averting against any gazer with allies or
    weapons of its own."""
    return f.flags.gaze_avert and g.effect in AVERT_FROM


def avert_eyes(f: FightState, gazer: Combatant, foe: Combatant) -> None:
    """``foe`` averts its eyes from ``gazer``: the gazer has concealment against it (SRD 3.5: "The creature with the
    gaze attack, however, gains concealment against that opponent"): the gazer's ``averted`` condition names the
    foes that avert (:func:`arena.combat.concealment.concealment`)."""
    averted = gazer.conditions.get("averted")
    if averted is None:  # for the fight: no deadline, and no condition's line in the log
        averted = gazer.conditions["averted"] = [FOREVER_AT, {"by": set()}]
        gazer.concealed = True  # its attackers' hits look at its concealment (arena.combat.concealment)
    if foe.uid not in averted[1]["by"]:
        averted[1]["by"].add(foe.uid)
        if f.lines is not None:
            f.log(
                f"{foe.name} averts its eyes from {gazer.name}'s gaze (concealment: 20% miss chance)",
                actor=foe.name,
                action="avert-eyes",
                target=gazer.name,
            )


def gaze_turn(f: FightState, c: Combatant) -> None:
    """A gaze attack at the start of the creature's turn: each able foe saves or suffers its effect; a foe that
    averts its eyes (:func:`averts`) needs no save half the time."""
    if not c.is_able:
        return
    g: Gaze = c.t.ability_data["gaze"]
    avert = averts(f, g)
    for foe in list(c.foes):
        if not foe.is_able or foe.dead or GAZE_IMMUNITY[g.effect] in foe.t.immunities:
            continue
        if g.effect == "charm" and not foe.t.humanoid:
            continue  # as charm person: humanoids only
        if g.effect == "unnerve" and "unnerved" in foe.conditions:
            continue
        if avert:
            avert_eyes(f, c, foe)
            if f.rand() < AVERTED_SAVE:
                if f.lines is not None:
                    f.log(
                        f"{foe.name} looks away from {c.name}'s gaze: no save",
                        actor=foe.name,
                        action="gaze",
                        source=c.name,
                        result="averted",
                    )
                continue
        if save(f, foe, g.save, g.dc - (CHARM_IN_COMBAT if g.effect == "charm" else 0), c).success:
            continue
        if f.lines is not None:
            f.log(
                f"{foe.name} meets {c.name}'s gaze: {g.effect}",
                actor=foe.name,
                action="gaze",
                source=c.name,
                result=g.effect,
            )
        if g.effect == "death":
            foe.hp = min(foe.hp, DEAD_AT)
            die(f, foe, DEATH_SAVE)
        elif g.effect == "petrify":
            add_condition(f, foe, "petrified", FOREVER)
        elif g.effect == "paralysis":
            add_condition(f, foe, "paralyzed", parse(g.rounds).roll(f.stream) * ROUND)
        elif g.effect == "unnerve":
            add_condition(f, foe, "unnerved", parse(g.rounds).roll(f.stream) * ROUND)
        elif g.effect == "charm":
            add_condition(f, foe, "charmed", FOREVER)  # its friend now: it fights the gazer no more
        else:
            add_condition(f, foe, "panicked", parse(g.rounds).roll(f.stream) * ROUND)


add_fields(AbilityField("gaze", Gaze | None, doc=Gaze.__doc__ or "", after="burn", every_number=True))
add_reading(AbilityReading("gaze", (r".*gaze", "evil eye", "stunning glance"), read_gaze, after="burn"))
add_fight_ability(FightAbility("gaze", turn_start=gaze_turn, order=10))
