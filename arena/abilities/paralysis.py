"""Paralysis (SRD 3.5): a hit with its attack and the foe saves (Fortitude) or is paralyzed, helpless, for its rounds
(a ghoul's claws and bite); or the paralysis of a foe it holds, a save on each of its turns (a chuul's tentacles), or
of a foe it has swallowed (a tendriculos's digestive juices).

The whole ability: the stat-block field (:class:`Paralysis`), how the importer reads it (:func:`read_paralysis`),
and paralysis in a fight: :func:`paralysis_on_hit` on a hit; the paralysis of a held or swallowed foe acts inside the
hold, whose turn (:mod:`arena.abilities.grab`, :mod:`arena.abilities.swallow_whole`) reads the compiled field and
calls :func:`paralyze`. Every save goes through the kernel: under players roll all, the DC becomes the player's
save.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.template import CompiledAttack
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading, named
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.onhit import OR_AND
from arena.srd.patterns import AMOUNT
from arena.srd.text import in_rounds, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import CreatureType, Frozen, Label, RoundsDice, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Paralysis(Frozen):
    """Paralysis on a hit with ``attack`` (SRD 3.5: ghoul's claws and bite): Fortitude ``dc`` or paralyzed
    (helpless) for ``duration`` rounds."""

    attack: Label
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    duration: RoundsDice = "1d4+1"
    also_on: tuple[Label, ...] = ()
    """The other attacks a hit with which paralyzes too (SRD 3.5 ghoul: "Those hit by a ghoul's bite or claw
    attack must succeed on a DC 12 Fortitude save or be paralyzed": ``attack: bite``, ``also_on: [claw]``)."""
    immune_types: tuple[CreatureType, ...] = ()
    """Creature types the paralysis does not affect (the ghoul's: elves; none of the engine's types by default)."""
    on: Literal["hit", "held", "swallowed"] = "hit"
    """When the foe saves: on a hit with ``attack``; ``held``: on each of the creature's turns while it holds the
    foe (the chuul's tentacles); ``swallowed``: on each of its turns while the foe is inside it (the tendriculos's
    digestive juices)."""


# --------------------------------------------------------------------------------------------- reading the SRD
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


def read_paralysis(ctx: Reading, item: dict) -> dict:
    """``Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save or be paralyzed for 1d4+2
    rounds``: on every attack it names that the engine rolls (the first is ``attack``, the others ``also_on``)."""
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
    attack, also = order[0], order[1:]  # every attack the text names ("bite or claw"): a hit with any paralyzes
    how = ""
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
    ctx.mark("paralysis", "modelled", f"paralysis on the {' or '.join(order)}: Fort DC {dc}, {duration} rounds{how}")
    return {"paralysis": {"attack": attack, "dc": dc, "duration": duration, "also_on": also, "immune_types": []}}


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


# --------------------------------------------------------------------------------------------- in a fight
def paralyze(f: FightState, c: Combatant, target: Combatant, paralysis: Paralysis) -> None:
    """Paralysis: a Fortitude save or paralyzed (helpless) for its rounds (SRD 3.5 ghoul: "must succeed on a DC 12
    Fortitude save or be paralyzed for 1d4+1 rounds")."""
    if (
        (target.is_able or paralysis.on == "swallowed")
        and not target.dead
        and "paralysis" not in target.t.immunities
        and target.t.type not in paralysis.immune_types
        and not save(f, target, "fort", paralysis.dc, c).success
    ):
        add_condition(f, target, "paralyzed", parse(paralysis.duration).roll(f.stream) * ROUND)
        if f.lines is not None:
            f.log(f"{target.name} is paralyzed", actor=target.name, action="paralyzed", source=c.name)


def paralysis_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with one of its attacks paralyzes, for a paralysis on a hit (not one of a held or swallowed foe): its
    ``attack``, and each of ``also_on`` (the ghoul's claws beside its bite) unless the ``rider-attacks`` fix is
    undone."""
    paralysis: Paralysis = c.t.ability_data["paralysis"]
    if paralysis.on == "hit" and (
        attack.name == paralysis.attack or (f.flags.fix_rider_attacks and attack.name in paralysis.also_on)
    ):
        paralyze(f, c, target, paralysis)


add_fields(
    AbilityField(
        "paralysis", Paralysis | None, doc=Paralysis.__doc__ or "", after="frightful_presence", every_number=True
    )
)
add_reading(
    AbilityReading(
        "paralysis",
        ("paralysis", "paralyis", "paralyzing touch", "paralytic tentacles"),
        read_paralysis,
        after="frightful presence",
    )
)
add_fight_ability(
    FightAbility(
        "paralysis",
        on_hit=paralysis_on_hit,
        rides_on=lambda paralysis: (paralysis.attack, *paralysis.also_on) if paralysis.on == "hit" else None,
        order=20,
    )
)
