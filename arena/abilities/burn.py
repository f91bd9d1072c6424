"""Burn (SRD 3.5 fire elemental): a hit with its attack sets the foe on fire unless it makes a Reflex save; the fire
burns for its rounds, dealing its damage at the start of each of the burning creature's turns. And heat (a
salamander's, a thoqqua's): the fire that rides on its attacks, read as their extra fire damage.

One module for burn and heat: both are the fire of a hit (heat has no field of its own: its fire is the attacks'
``extra_damage``, which the importer checks it has, and burn's flames take their damage from it).

The whole ability: the stat-block field (:class:`Burn`), how the importer reads burn and heat (:func:`read_burn`,
:func:`read_heat`), and the fire in a fight: :func:`burn_on_hit` sets the foe on fire, and :func:`burn_turn` is the
fire's part of the burning creature's turn (the engine calls it through the ``burning`` state it leaves on the foe).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.spells import FIRE
from arena.combat.template import CompiledAttack
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.onhit import deliverer, named_attack
from arena.srd.patterns import AMOUNT
from arena.srd.prose import size_number
from arena.srd.text import dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import DamageDice, Frozen, Label, RoundsDice, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Burn(Frozen):
    """Burn (SRD 3.5 fire elemental): a hit with ``attack`` sets the foe on fire unless it makes a Reflex save
    (``dc``); it burns for ``rounds``, taking ``damage`` fire at the start of each of its turns."""

    attack: Label = "slam"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    damage: DamageDice = "1d4"
    rounds: RoundsDice = "1d4"


# --------------------------------------------------------------------------------------------- reading the SRD
REFLEX_DC = re.compile(r"\bDC (\d+) Reflex|\bReflex DC (\d+)")
"""``a DC 14 Reflex save``."""
BURNS_FOR = re.compile(rf"burns for ({AMOUNT}) rounds", re.IGNORECASE)
"""``or catch fire. The flame burns for 1d4 rounds``."""
SLAM_ATTACK = re.compile(r"\b(slam) attack", re.IGNORECASE)
"""``with its slam attack``."""
TOUCHED_OR_STRUCK = re.compile(r"striking a \w+ with|anything touching its body", re.IGNORECASE)
"""A heat of those who touch it: ``A creature striking a salamander with natural weapons``."""


def read_burn(ctx: Reading, item: dict) -> dict:
    """``Those hit by a fire elemental's slam attack must succeed on a DC 14 Reflex save or catch on fire. The flame
    burns for 1d4 rounds`` (the DC of its table by size when the text gives none); the flames' damage is the
    attack's fire (a guess: the SRD gives none)."""
    desc, text = ctx.text_of(item, "burn")
    text = ctx.following(desc, 1) or text
    dcs = set(REFLEX_DC.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    how = ""
    if dc is None:
        dc, row = size_number(ctx.block, ctx.size, desc, "Save DC")
        if dc is not None:
            how = f"; its DC from the {row} row of its table by size"
    rounds = BURNS_FOR.search(text)
    if dc is None or rounds is None:
        return ctx.unread(item, "burn", f"{'no Reflex DC' if dc is None else 'no duration'} read", text)
    words = named_attack(text) or SLAM_ATTACK.findall(text)
    attack, why = deliverer(ctx, [w.lower() for w in words]) if words else (None, "is named nowhere")
    if attack is None:
        return ctx.ignored("burn", f"its {' or '.join(words) or 'attack'} {why}")
    fire = next(
        (
            a.get("extra_damage")
            for r in ctx.data.get("full_attack", []) + ctx.data.get("attack", [])
            for a in r
            if a["name"] == attack and a.get("extra_damage_type") == "fire"
        ),
        None,
    )
    damage = fire or "1d4"
    flames = f"the {attack}'s fire, {fire}" if fire else "1d4"
    ctx.note_on(item, "guess", f"burn: the text gives no damage for the flames: {flames} a round", text[:200])
    ctx.save_of("burn", dc, "ref")
    ctx.mark(
        "burn",
        "modelled",
        f"burn on the {attack}: Reflex DC {dc}, {damage} fire a round for "
        f"{dice_text(rounds.group(1))} rounds (the flames' damage: the {attack}'s fire, a "
        f"guess){how}",
    )
    return {"burn": {"attack": attack, "dc": dc, "damage": damage, "rounds": dice_text(rounds.group(1))}}


def read_heat(ctx: Reading, item: dict) -> dict:
    """Heat that rides on its attacks (``plus 1d6 fire``): modelled by their extra damage; a heat that burns those
    who touch or strike it is not the engine's."""
    fire = [a["name"] for r in ctx.routines() for a in r if a.get("extra_damage_type") == "fire"]
    desc, text = ctx.text_of(item, "heat")
    if TOUCHED_OR_STRUCK.search(text) and not fire:
        return ctx.ignored(
            "heat", "it burns those who touch or strike it, not those it hits; the engine has no damage to attackers"
        )
    if not fire:
        return ctx.ignored("heat", "no attack of its routines carries the fire damage")
    ctx.mark("heat", "modelled", f"the fire rides on its {', '.join(dict.fromkeys(fire))} (extra_damage)")
    return {}


# --------------------------------------------------------------------------------------------- in a fight
def burn_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with its attack sets a foe on fire that is not burning already, has no immunity to fire and fails its
    Reflex save: it burns for the rolled rounds (:func:`burn_turn`)."""
    burn: Burn = c.t.ability_data["burn"]
    if (
        attack.name == burn.attack
        and not target.dead
        and target.burning is None
        and "fire" not in target.t.immunities
        and not save(f, target, "ref", burn.dc, c).success
    ):
        target.burning = [parse(burn.rounds).roll(f.stream), parse(burn.damage), c, burn_turn]
        target.afflicted = True
        if f.lines is not None:
            f.log(f"{target.name} catches fire", actor=target.name, action="catches-fire", source=c.name)


def burn_turn(f: FightState, c: Combatant) -> None:
    """A burning creature takes the fire's damage at the start of its turn, until the fire burns out."""
    if c.burning is None:
        return
    rounds, dice, source, turn = c.burning
    deal(f, source, c, dice.roll(f.stream), FIRE)
    c.burning = [rounds - 1, dice, source, turn] if rounds > 1 else None


add_fields(AbilityField("burn", Burn | None, doc=Burn.__doc__ or "", after="rage_strength", every_number=True))
add_reading(AbilityReading("burn", ("burn",), read_burn, after="energy drain"))
add_reading(AbilityReading("heat", ("heat",), read_heat, after="rage"))
add_fight_ability(FightAbility("burn", on_hit=burn_on_hit, rides_on=lambda burn: burn.attack, order=90))
