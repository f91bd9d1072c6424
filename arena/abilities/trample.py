"""Trample (SRD 3.5 "Trample": "As a standard action during its turn each round, a trampling creature can
literally run over an opponent at least one size category smaller than itself ... Trampled opponents can attempt
attacks of opportunity, but at a -4 penalty. If they do not make attacks of opportunity, trampled opponents can
attempt Reflex saves to take half damage"): its special action before its weapons when it runs over two or more
smaller foes, each taking its damage, Reflex for half (the attacks of opportunity are not modelled).

The whole ability: the stat-block field (:class:`Trample`, the field ``trample``), how the importer reads it
(:func:`read_trample`) and the trample in a fight (:func:`choose_trample`, the policies' special action;
:func:`trample`, carried out).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.actions import Action
from arena.combat.combatant import Combatant
from arena.combat.damage import deal, reflex_half
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.tactics.attack import ordered
from arena.combat.tactics.view import View
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT, DICE
from arena.srd.text import clean, dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.spellbook import area_count
from arena.world.stat_types import SIZES, DamageDice, DamageType, Frozen, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Trample(Frozen):
    """Trample (SRD 3.5): instead of its attacks, it runs over its foes (those smaller than itself): each takes
    ``damage`` (Reflex ``dc`` for half)."""

    damage: DamageDice
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    damage_types: tuple[DamageType, ...] = ("bludgeoning",)


# --------------------------------------------------------------------------------------------- reading the SRD
WORD_TRAMPLE = re.compile(r"^\s*trample\s*", re.IGNORECASE)
"""An entry's name before its dice: ``Trample 2d8+15``."""
FIRST_AMOUNT = re.compile(f"({AMOUNT})")
"""An entry's dice or number: ``2d8+15`` of ``Trample 2d8+15``."""
TRAMPLE_DAMAGE = re.compile(rf"\bdeals? ({DICE}) points? of (?:bludgeoning )?damage", re.IGNORECASE)
"""``deals 2d8+15 points of bludgeoning damage``."""
REFLEX_HALF = re.compile(r"\bReflex (?:half )?DC (\d+)|\bDC (\d+) Reflex")
"""``Reflex half DC 25``, ``a DC 25 Reflex save``."""


def read_trample(ctx: Reading, item: dict) -> dict:
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


# --------------------------------------------------------------------------------------------- in a fight
def choose_trample(view: View, creature: Combatant) -> Action | None:
    """A trample when it runs over two or more smaller enemies (as many as a line holds), those its targeting
    prefers first."""
    size = SIZES.index(creature.t.creature.size)
    smaller = [enemy for enemy in view.enemies(creature) if SIZES.index(enemy.t.creature.size) < size]
    caught = area_count("line", len(smaller))
    if caught >= 2:
        return Action("trample", targets=ordered(view, creature, smaller)[:caught])
    return None


def has_trample(view: View, creature: Combatant) -> bool:
    """It can trample."""
    return "trample" in creature.t.ability_data


def trample_action(f: FightState, c: Combatant, action: Action, target: Combatant | None) -> None:
    """The engine's ``trample`` action: :func:`trample` over its targets."""
    trample(f, c, action.targets or [])


def trample(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """Trample: each creature run over takes the damage, Reflex for half (one damage roll, as a breath).

    Under ``trample-evasion`` the save for half is an evader's like any other (SRD 3.5 Evasion: "If she makes a
    successful Reflex saving throw against an attack that normally deals half damage on a successful save, she
    instead takes no damage"; improved evasion: half on a failed one: :func:`arena.combat.damage.reflex_half`).
    Under ``defensive-roll-blows`` a trample is a special attack, not a blow: no defensive roll against it."""
    t: Trample = c.t.ability_data["trample"]
    dice = parse(t.damage)
    amount = dice.roll(f.stream)
    types = frozenset(t.damage_types)
    if f.lines is not None:
        f.log(
            f"{c.name} tramples {', '.join(x.name for x in targets)}",
            actor=c.name,
            action="trample",
            targets=[x.name for x in targets],
        )
    for target in targets:
        if target.dead:
            continue
        saved = save(f, target, "ref", t.dc, c).success
        taken = (
            reflex_half(f, target, saved, amount) if f.flags.fix_trample_evasion else amount // 2 if saved else amount
        )
        deal(f, c, target, taken, types, weapon=True, blow=not f.flags.fix_roll_blows)


add_fields(AbilityField("trample", Trample | None, doc=Trample.__doc__ or "", after="stench", every_number=True))
add_reading(AbilityReading("trample", ("trample",), read_trample, after="stench"))
add_fight_ability(
    FightAbility(
        "trample",
        choose_action=choose_trample,
        action="trample",
        act=trample_action,
        can_act=has_trample,
        cannot_act="trampled without a trample",
        strains=False,  # a trample ("As a standard action") strains a disabled creature under the fix "disabled-strain"
        order=30,
    )
)
