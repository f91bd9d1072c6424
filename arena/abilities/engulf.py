"""Engulf (SRD 3.5 gelatinous cube: "can simply mow down Large or smaller creatures as a standard action ... must
succeed on a DC 13 Reflex save or be engulfed ... Engulfed creatures are subject to the cube's paralysis and acid,
and are considered to be grappled and trapped within its body"): instead of its slam, while a foe small enough is
outside it; those inside are out of the fight and digested on each of its turns.

The whole ability: the stat-block field (:class:`Engulf`, the field ``engulf``), how the importer reads it
(:func:`read_engulf`) and what it does in a fight (:func:`engulf_turn`, instead of its attack: it digests those
inside (:func:`digest`), then engulfs those outside (:func:`engulf`)).
"""

from __future__ import annotations

from typing import Annotated

from arena.abilities.paralysis import Paralysis
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import SIZE_WORDS
from arena.srd.text import number, search_chain
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.spellbook import area_count
from arena.world.stat_types import SIZES, DamageDice, DamageType, Frozen, Size, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Engulf(Frozen):
    """Engulf (SRD 3.5 gelatinous cube: "can simply mow down Large or smaller creatures as a standard action ...
    must succeed on a DC 13 Reflex save or be engulfed ... Engulfed creatures are subject to the cube's paralysis and
    acid, and are considered to be grappled and trapped within its body"): instead of its slam, while a foe of
    ``max_size`` or smaller is outside it; those inside are out of the fight, take ``damage`` of ``damage_type`` and
    save against its paralysis on each of its turns, until it drops (escaping is not modelled)."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    max_size: Size = "large"
    damage: DamageDice
    damage_type: DamageType = "acid"


# --------------------------------------------------------------------------------------------- reading the SRD
ENGULF = (r"mow down (\w+) or smaller creatures as a standard action", r"DC (\d+) Reflex save or be engulfed")
"""A gelatinous cube's, its parts in order: ``can simply mow down Large or smaller creatures as a standard action
... DC 13 Reflex save or be engulfed``."""


def read_engulf(ctx: Reading, item: dict) -> dict:
    """The gelatinous cube's: ``can simply mow down Large or smaller creatures as a standard action ... DC 13
    Reflex save or be engulfed ... subject to the cube's paralysis and acid``: its acid is its slam's (``1d6
    acid``), its paralysis the slam's."""
    desc, text = ctx.text_of(item, "engulf")
    m = search_chain(text, *ENGULF)
    acid = next((a for r in (ctx.data.get("attack") or []) for a in r if a.get("extra_damage_type") == "acid"), None)
    if m is None or acid is None or m.group(1).lower() not in SIZE_WORDS:
        return ctx.ignored("engulf", "an engulfing of other terms (a cloaker's, a mouther's)")
    ctx.save_of("engulf", number(m.group(2)), "ref")
    for a in ctx.abilities:
        if a["key"] == "paralysis" and a.get("notes"):
            a["notes"] = a["notes"].replace(
                "; its engulf left out (not an attack the engine rolls)",
                "; and on each of its turns inside it (engulf)",
            )
    ctx.mark(
        "engulf",
        "modelled",
        f"engulf: instead of its slam, foes {m.group(1).lower()} or smaller (as many as a "
        f"10-foot burst covers) Reflex DC {m.group(2)} or inside it: out of the fight, "
        f"{acid['extra_damage']} acid and its paralysis each turn (the attacks of "
        "opportunity that forgo the save, and escaping, are not modelled)",
    )
    return {"engulf": {"dc": number(m.group(2)), "max_size": m.group(1).lower(), "damage": acid["extra_damage"]}}


# --------------------------------------------------------------------------------------------- in a fight
def engulf_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn: it digests the foes inside it, then engulfs those small enough outside it (as many as a 10-foot
    burst covers); the turn is its own while anyone is inside or outside to engulf."""
    e_: Engulf = c.t.ability_data["engulf"]
    inside = engulfed(c)
    size = SIZES.index(e_.max_size)
    outside = [e for e in c.foes if e.is_able and SIZES.index(e.t.creature.size) <= size]
    if inside:
        digest(f, c, inside)
    if outside:
        engulf(f, c, outside[: area_count("burst-10", len(outside))])
        return True
    return bool(inside)


def engulfed(c: Combatant) -> list[Combatant]:
    """The foes inside ``c`` (engulfed by it and not dead)."""
    inside = []
    for e in c.foes:
        entry = e.conditions.get("engulfed") if not e.dead else None  # [ends at, its data]
        if entry is not None and entry[1].get("by") is c:
            inside.append(e)
    return inside


def engulf(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """SRD 3.5 Gelatinous cube: "can simply mow down Large or smaller creatures as a standard action. It cannot make a
    slam attack during a round in which it engulfs ... must succeed on a DC 13 Reflex save or be engulfed" (those
    who would rather make an attack of opportunity and forgo the save are not modelled)."""
    e_: Engulf = c.t.ability_data["engulf"]
    if f.lines is not None:
        f.log(
            f"{c.name} rolls over {', '.join(e.name for e in targets)}",
            actor=c.name,
            action="engulf",
            targets=[e.name for e in targets],
        )
    for e in targets:
        if not e.dead and not save(f, e, "ref", e_.dc, c).success:
            add_condition(f, e, "engulfed", 2 * ROUND, by=c)
            if f.lines is not None:
                f.log(f"{e.name} is engulfed by {c.name}", actor=e.name, action="engulfed", source=c.name)


def digest(f: FightState, c: Combatant, inside: list[Combatant]) -> None:
    """ "Engulfed creatures are subject to the cube's paralysis and acid, and are considered to be grappled and
    trapped within its body": on each of its turns, the acid's damage and a save against its paralysis; they stay
    inside while it can act (a round more: the condition lapses if it drops)."""
    e_: Engulf = c.t.ability_data["engulf"]
    dice = parse(e_.damage)
    types = frozenset({e_.damage_type})
    for e in inside:
        deal(f, c, e, dice.roll(f.stream), types)
        if e.dead:
            continue
        paralysis: Paralysis | None = c.t.ability_data.get("paralysis")  # its slam's
        if (
            paralysis is not None
            and "paralyzed" not in e.conditions
            and "paralysis" not in e.t.immunities
            and not save(f, e, "fort", paralysis.dc, c).success
        ):
            add_condition(f, e, "paralyzed", parse(paralysis.duration).roll(f.stream) * ROUND)
        add_condition(f, e, "engulfed", 2 * ROUND, by=c)


add_fields(AbilityField("engulf", Engulf | None, doc=Engulf.__doc__ or "", after="slow_on_hit"))
add_reading(AbilityReading("engulf", ("engulf",), read_engulf, after="quickness", only_ignored=True))
add_fight_ability(FightAbility("engulf", instead_of_attack=engulf_turn, order=70))
