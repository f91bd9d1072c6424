"""Whirlwind (SRD 3.5 air elemental, djinni): once a fight it becomes a whirlwind for some rounds, making no other
attack: every smaller foe it reaches saves or takes its damage, and saves again or is caught up and carried.

The whole ability: the stat-block field (:class:`Whirlwind`, the field ``whirlwind``), how the importer reads it
(:func:`read_whirlwind`, from its text or its family's table by size) and the whirlwind in a fight
(:func:`whirlwind_turn`, instead of its attack).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability, worth_the_turn
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition, drop_condition
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.prose import size_row
from arena.srd.specials import hit_dice_count
from arena.srd.text import dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import SIZES, DamageDice, Frozen, RoundsDice, _int

BLUDGEONING = frozenset({"bludgeoning"})


# --------------------------------------------------------------------------------------------- the stat-block field
class Whirlwind(Frozen):
    """Whirlwind (SRD 3.5 air elemental, djinni): once a fight it becomes a whirlwind for ``rounds`` rounds, making no
    other attack. On each of its turns in that form every foe one or more sizes smaller that it is not yet carrying
    makes a Reflex save (``dc``) or takes ``damage``, then a second one or is caught: carried in the winds, it takes
    ``held_damage`` on each of the whirlwind's turns and -2 on attack rolls and -4 Dexterity (-2 AC) until the form
    ends. Which foes the whirlwind reaches each round is abstract (all the smaller ones)."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    damage: DamageDice
    held_damage: DamageDice
    rounds: RoundsDice


# --------------------------------------------------------------------------------------------- reading the SRD
WHOLE_AMOUNT = re.compile(AMOUNT)
"""A table's damage cell, whole: ``2d6``."""
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


def read_whirlwind(ctx: Reading, item: dict) -> dict:
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


# --------------------------------------------------------------------------------------------- in a fight
def whirlwind_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """SRD 3.5 Whirlwind (air elemental): "Creatures one or more size categories smaller than the elemental might
    take damage when caught in the whirlwind ... must succeed on a Reflex save ... or take the indicated damage. It
    must also succeed on a second Reflex save or be picked up bodily and held suspended in the powerful winds,
    automatically taking the indicated damage each round ... take a -4 penalty to Dexterity and a -2 penalty on
    attack rolls"; "An elemental in whirlwind form cannot make slam attacks". Once a fight, when it catches two or
    more smaller foes (or the only foe); the form ends early when no smaller foe is left to catch or carry. Returns
    True when the turn went to the whirlwind."""
    w: Whirlwind = c.t.ability_data["whirlwind"]
    st = state_of(c)
    left = st.get("whirl")
    size = SIZES.index(c.t.creature.size)
    smaller = [e for e in c.foes if e.is_able and SIZES.index(e.t.creature.size) < size]
    carried = [
        e for e in c.foes if not e.dead and "carried" in e.conditions and e.conditions["carried"][1].get("by") is c
    ]
    if left is None:  # not yet used
        if not worth_the_turn(len(smaller), sum(1 for e in c.foes if e.is_able)):
            return False
        left = parse(w.rounds).roll(f.stream)
        if f.lines is not None:
            f.log(f"{c.name} becomes a whirlwind for {left} rounds", actor=c.name, action="whirlwind", rounds=left)
    elif left <= 0 or not (smaller or carried):
        if left > 0:
            st["whirl"] = 0
            for e in carried:
                drop_condition(f, e, "carried")
        return False
    held = parse(w.held_damage)
    for e in carried:
        if not e.dead:
            deal(f, c, e, held.roll(f.stream), BLUDGEONING)
    hit = parse(w.damage)
    for e in smaller:
        if e.dead or e in carried:
            continue
        if not save(f, e, "ref", w.dc, c).success:
            deal(f, c, e, hit.roll(f.stream), BLUDGEONING)
        if not e.dead and not save(f, e, "ref", w.dc, c).success:
            add_condition(f, e, "carried", left * ROUND, by=c)
            if f.lines is not None:
                f.log(
                    f"{e.name} is caught up in {c.name}'s whirlwind",
                    actor=e.name,
                    action="caught-in-whirlwind",
                    source=c.name,
                )
    st["whirl"] = left - 1
    return True


add_fields(AbilityField("whirlwind", Whirlwind | None, doc=Whirlwind.__doc__ or "", after="summon"))
add_reading(
    AbilityReading("whirlwind", ("whirlwind", "whirlwind blast"), read_whirlwind, after="summon", only_ignored=True)
)
add_fight_ability(FightAbility("whirlwind", instead_of_attack=whirlwind_turn, order=30))
