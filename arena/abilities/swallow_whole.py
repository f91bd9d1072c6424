"""Swallow whole (SRD 3.5): a creature holding a foe (improved grab, :mod:`arena.abilities.grab`) swallows it with a
won grapple check; inside, the foe is out of the fight and takes the swallower's damage on each of its turns, its
crushing damage and its acid (``swallow-acid``), and saves against the paralysis of its juices each round when its
paralysis is of a swallowed foe (the tendriculos's). On its own turns the swallowed foe cuts its way out with a
dagger, or without one tries to escape the grapple back into the swallower's mouth (``cut-free``,
:func:`inside_turn`).

Its own module, apart from improved grab: its field and its reading are its own, and a grab is complete without it.
It has no moment of its own in a fight: it acts inside the hold, whose turn (:func:`arena.abilities.grab.grip_turn`)
reads its compiled field (``swallow_whole``) and calls :func:`swallow`, :func:`digest` and :func:`inside_turn`.
"""

from __future__ import annotations

import re
from typing import Annotated, NamedTuple

from arena.abilities.paralysis import paralyze
from arena.combat.abilities import opposed, state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import UNABLE, Combatant
from arena.combat.conditions import FOREVER, add_condition, drop_condition
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import resolve
from arena.dice import DiceExpr, parse
from arena.rules import Check
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.class_tables import iteratives
from arena.world.stat_types import DamageDice, DamageType, Frozen, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class SwallowWhole(Frozen):
    """Swallow whole (SRD 3.5): a creature holding a foe smaller than itself (improved grab) swallows it with a won
    grapple check; a swallowed foe is out of the fight and takes ``damage`` (and ``extra_damage``) on each of the
    swallower's turns, until it cuts its way out (``cut_damage`` against ``cut_ac``)."""

    damage: DamageDice
    damage_types: tuple[DamageType, ...] = ("bludgeoning",)
    extra_damage: DamageDice | None = None
    """The second damage a swallowed foe takes each round: ``plus 8 points of acid damage per round``."""
    extra_damage_type: DamageType | None = None
    """Its type (acid, a remorhaz's fire)."""
    cut_damage: Annotated[int, _int(1, 1000)] | None = None
    """The damage a swallowed creature deals to the interior to cut its way out (``to deal 25 points of damage to
    the gizzard``); None: it cannot cut its way out (no number read)."""
    cut_ac: Annotated[int, _int(0, 100)] | None = None
    """The interior's Armor Class (``(AC 15)``)."""


# --------------------------------------------------------------------------------------------- reading the SRD
SWALLOWED_DAMAGE = re.compile(
    rf"(?:takes?|taking) ({AMOUNT}) points? of (bludgeoning|crushing|acid) damage"
    rf"(?:,? (?:plus|and) ({AMOUNT}) points? of (acid|fire|bludgeoning) damage)?",
    re.IGNORECASE,
)
"""What a swallowed foe takes: ``A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid
damage per round``."""
PARALYZES = re.compile(r"\bparaly", re.IGNORECASE)
CUT_OUT = re.compile(
    r"cut its way out\b[^.]*?\b(?:deal|dealing) (\d+) points? of damage to the [^.(]*\(AC (\d+)\)", re.IGNORECASE
)
"""How a swallowed creature gets out: ``A swallowed creature can cut its way out by using a light slashing or piercing
weapon to deal 25 points of damage to the gizzard (AC 15)``."""
"""``paralyzes``, ``paralysis``."""


def read_swallow_whole(ctx: Reading, item: dict) -> dict:
    """``A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid damage per round``: the
    first damage and the second (acid, or a remorhaz's fire); ``can cut its way out by using a light slashing or
    piercing weapon to deal 25 points of damage to the gizzard (AC 15)``: the damage and the AC to cut out. It needs
    the hold of an improved grab."""
    desc, _ = ctx.text_of(item, "swallow whole")
    text = ctx.following(desc, 3)
    if ctx.data.get("improved_grab") is None:
        return ctx.ignored("swallow whole", "no improved grab the engine models: swallow whole needs its hold")
    m = SWALLOWED_DAMAGE.search(text)
    if m is None:
        return ctx.unread(item, "swallow whole", "the damage inside not read", text)
    kind = "bludgeoning" if m.group(2).lower() in ("bludgeoning", "crushing") else m.group(2).lower()
    damage = dice_text(m.group(1))
    field: dict = {"damage": damage, "damage_types": [kind]}
    how = ""
    if m.group(3):
        extra, extra_kind = dice_text(m.group(3)), m.group(4).lower()
        field["extra_damage"], field["extra_damage_type"] = extra, extra_kind
        how = f" plus {extra} {extra_kind}"
    how += " a round"
    cut = CUT_OUT.search(text)
    if cut:
        field["cut_damage"], field["cut_ac"] = number(cut.group(1)), number(cut.group(2))
        how += f"; cut out with {cut.group(1)} damage to its interior (AC {cut.group(2)})"
    else:
        how += "; no way to cut out read"
    if PARALYZES.search(text):
        how += "; the paralysis of its juices is left out"
    for a in ctx.abilities:
        if a["key"] == "swallow whole":
            a["damage"] = damage
    ctx.mark("swallow whole", "modelled", f"swallow_whole: {damage} {kind}{how}")
    return {"swallow_whole": field}


# --------------------------------------------------------------------------------------------- in a fight
class Inside(NamedTuple):
    """What a fight keeps of swallow whole (once per stat block)."""

    damage: DiceExpr
    types: frozenset[str]
    extra: DiceExpr | None
    extra_types: frozenset[str]
    cut_damage: int | None
    cut_ac: int


def compile_inside(swallow_whole: SwallowWhole) -> Inside:
    extra = swallow_whole.extra_damage
    return Inside(
        parse(swallow_whole.damage),
        frozenset(swallow_whole.damage_types),
        parse(extra) if extra else None,
        frozenset({swallow_whole.extra_damage_type or "acid"}),
        swallow_whole.cut_damage,
        swallow_whole.cut_ac or 10,
    )


def swallow(f: FightState, c: Combatant, target: Combatant) -> None:
    """A won grapple check of a creature holding ``target``: swallowed, out of the fight."""
    add_condition(f, target, "swallowed", FOREVER)
    if f.lines is not None:
        f.log(f"{c.name} swallows {target.name} whole", actor=c.name, action="swallow", target=target.name)


def digest(f: FightState, c: Combatant, target: Combatant) -> None:
    """The swallower's turn while ``target`` is inside it: its damage, no check needed (and, under ``swallow-acid``,
    the second damage of its text: "A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of
    acid damage per round from the behir's gizzard"); then a save against its paralysis when that is of a swallowed
    foe (the tendriculos's digestive juices: a save each round)."""
    inside: Inside = c.t.ability_data["swallow_whole"]
    deal(f, c, target, inside.damage.roll(f.stream), inside.types)
    if inside.extra is not None and f.flags.fix_swallow_acid and not target.dead:
        deal(f, c, target, inside.extra.roll(f.stream), inside.extra_types)
    paralysis = c.t.ability_data.get("paralysis")
    if (
        paralysis is not None
        and paralysis.on == "swallowed"
        and not target.dead
        and "paralyzed" not in target.conditions
    ):
        paralyze(f, c, target, paralysis)


DAGGER = "1d4"
"""SRD 3.5 Table: Weapons: a dagger, a light simple weapon, 1d4, 19-20/x2, piercing or slashing."""
DAGGER_THREAT = 19
GRAPPLING = -4
"""SRD 3.5 grapple, "Attack Your Opponent": "You can make an attack with an unarmed strike, natural weapon, or light
weapon against another character you are grappling. You take a -4 penalty on such attacks" (Swallow Whole: "A
swallowed creature is considered to be grappled")."""
FREE = frozenset({"swallowed"})


def carries_dagger(c: Combatant) -> bool:
    """A character of the party: each carries a dagger (2 gp; every class of the generated party is proficient with
    it), which it draws to cut its way out (its own weapons are not light: longsword, morningstar, rapier,
    quarterstaff). Other creatures (summoned animals) have no light weapon."""
    return c.side == "pc" and c.t.humanoid


def inside_turn(f: FightState, c: Combatant, swallower: Combatant) -> bool:
    """A swallowed creature's turn (``cut-free``). SRD 3.5 Swallow Whole: "A swallowed creature can try to cut its way
    free with any light slashing or piercing weapon (the amount of cutting damage required to get free is noted in
    the creature description), or it can just try to escape the grapple ... If the swallowed creature escapes the
    grapple, success puts it back in the attacker's mouth, where it may be bitten or swallowed again"; behir: "Once
    the creature exits, muscular action closes the hole; another swallowed opponent must cut its own way out".

    With a dagger (:func:`carries_dagger`) it attacks the interior, its attacks by its base attack bonus, each at -4
    (grappled), and is out once its hits add up to the text's damage; without one, or when the text gives no way
    out, it tries to escape the grapple (an opposed grapple check) back into the mouth. Returns False (nothing done)
    when it cannot act (paralyzed inside)."""
    conditions = c.conditions
    if c.dead or c.hp < 0 or not (UNABLE.isdisjoint(conditions.keys() - FREE)) or "stunned" in conditions:
        return False
    inside: Inside = swallower.t.ability_data["swallow_whole"]
    if inside.cut_damage is not None and carries_dagger(c):
        return _cut(f, c, swallower, inside)
    if opposed(f, c, c.t.grapple, swallower, swallower.t.grapple):
        drop_condition(f, c, "swallowed")
        if f.lines is not None:
            f.log(
                f"{c.name} escapes back into {swallower.name}'s mouth",
                actor=c.name,
                action="escape",
                target=swallower.name,
                result="held",
            )
    elif f.lines is not None:
        f.log(f"{c.name} struggles inside {swallower.name}", actor=c.name, action="escape", target=swallower.name)
    return True


def _cut(f: FightState, c: Combatant, swallower: Combatant, inside: Inside) -> bool:
    """Its dagger's attacks at the interior; out once they have dealt ``cut_damage`` (kept over its turns)."""
    needed = inside.cut_damage or 0
    t = c.t
    bab = t.creature.bab
    dex = (t.abilities["dex"] - 10) // 2
    finesse = "Weapon Finesse" in t.creature.feats and dex > t.str_mod
    first = bab + (dex if finesse else t.str_mod) + GRAPPLING + c.attack_bonus
    dice = parse(DAGGER)
    state = state_of(c)
    cut = state.get("cut", 0) if state.get("cut in") is swallower else 0
    for mod in iteratives(first, bab):
        check = Check("attack", c.side, mod, inside.cut_ac, threat=DAGGER_THREAT, opponent=swallower.side)
        outcome = resolve(f, check, c, swallower)
        amount = 0
        if outcome.success:
            rolls = 2 if outcome.critical else 1
            amount = max(1, sum(dice.roll(f.stream) for _ in range(rolls)) + rolls * t.str_mod + c.damage_bonus)
            cut += amount
        if f.lines is not None:
            f.log(
                f"{c.name} dagger {mod:+d} vs {swallower.name}'s insides AC {inside.cut_ac}: "
                + (f"cuts for {amount} ({cut}/{needed})" if outcome.success else "miss"),
                actor=c.name,
                action="cut",
                target=swallower.name,
                modifier=mod,
                ac=inside.cut_ac,
                result="hit" if outcome.success else "miss",
                **({"damage": amount} if outcome.success else {}),
            )
        if not outcome.success:
            continue
        if cut >= needed:
            drop_condition(f, c, "swallowed")
            if swallower.grip is not None and swallower.grip[1] is c:
                swallower.grip = None
            c.grip = None
            state.pop("cut", None)
            state.pop("cut in", None)
            if f.lines is not None:
                f.log(f"{c.name} cuts its way out of {swallower.name}", actor=c.name, action="cut-free")
            return True
    state["cut"], state["cut in"] = cut, swallower
    return True


add_fields(
    AbilityField("swallow_whole", SwallowWhole | None, doc=SwallowWhole.__doc__ or "", after="gaze", every_number=True)
)
add_reading(AbilityReading("swallow whole", ("swallow whole",), read_swallow_whole, after="heat"))
add_fight_ability(FightAbility("swallow_whole", compile=compile_inside))
