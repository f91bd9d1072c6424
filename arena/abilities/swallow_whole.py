"""Swallow whole (SRD 3.5): a creature holding a foe (improved grab, :mod:`arena.abilities.grab`) swallows it with a
won grapple check; inside, the foe is out of the fight and takes the swallower's damage on each of its turns (and
saves against the paralysis of its juices each round when its paralysis is of a swallowed foe, the tendriculos's).
Cutting one's way out is not modelled.

Its own module, apart from improved grab: its field and its reading are its own, and a grab is complete without it.
It has no moment of its own in a fight: it acts inside the hold, whose turn (:func:`arena.abilities.grab.grip_turn`)
reads its compiled field (``swallow_whole``) and calls :func:`swallow` and :func:`digest`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from arena.abilities.paralysis import paralyze
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.dice import DiceExpr, parse
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import dice_text
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import DamageDice, DamageType, Frozen


# --------------------------------------------------------------------------------------------- the stat-block field
class SwallowWhole(Frozen):
    """Swallow whole (SRD 3.5): a creature holding a foe smaller than itself (improved grab) swallows it with a won
    grapple check; a swallowed foe is out of the fight and takes ``damage`` on each of the swallower's turns
    (cutting one's way out is not modelled)."""

    damage: DamageDice
    damage_types: tuple[DamageType, ...] = ("bludgeoning",)


# --------------------------------------------------------------------------------------------- reading the SRD
SWALLOWED_DAMAGE = re.compile(
    rf"(?:takes?|taking) ({AMOUNT}) points? of (bludgeoning|crushing|acid) damage"
    rf"(?:,? (?:plus|and) ({AMOUNT}) points? of (acid|fire|bludgeoning) damage)?",
    re.IGNORECASE,
)
"""What a swallowed foe takes: ``A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid
damage per round``."""
PARALYZES = re.compile(r"\bparaly", re.IGNORECASE)
"""``paralyzes``, ``paralysis``."""


def read_swallow_whole(ctx: Reading, item: dict) -> dict:
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


# --------------------------------------------------------------------------------------------- in a fight
class Inside(NamedTuple):
    """What a fight keeps of swallow whole (once per stat block)."""

    damage: DiceExpr
    types: frozenset[str]


def compile_inside(swallow_whole: SwallowWhole) -> Inside:
    return Inside(parse(swallow_whole.damage), frozenset(swallow_whole.damage_types))


def swallow(f: FightState, c: Combatant, target: Combatant) -> None:
    """A won grapple check of a creature holding ``target``: swallowed, out of the fight."""
    add_condition(f, target, "swallowed", FOREVER)
    if f.lines is not None:
        f.log(f"{c.name} swallows {target.name} whole", actor=c.name, action="swallow", target=target.name)


def digest(f: FightState, c: Combatant, target: Combatant) -> None:
    """The swallower's turn while ``target`` is inside it: its damage, no check needed; then a save against its
    paralysis when that is of a swallowed foe (the tendriculos's digestive juices: a save each round)."""
    dice, types = c.t.ability_data["swallow_whole"]
    deal(f, c, target, dice.roll(f.stream), types)
    paralysis = c.t.ability_data.get("paralysis")
    if (
        paralysis is not None
        and paralysis.on == "swallowed"
        and not target.dead
        and "paralyzed" not in target.conditions
    ):
        paralyze(f, c, target, paralysis)


add_fields(
    AbilityField("swallow_whole", SwallowWhole | None, doc=SwallowWhole.__doc__ or "", after="gaze", every_number=True)
)
add_reading(AbilityReading("swallow whole", ("swallow whole",), read_swallow_whole, after="heat"))
add_fight_ability(FightAbility("swallow_whole", compile=compile_inside))
