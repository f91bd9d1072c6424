"""Ability damage and drain on a hit (SRD 3.5: a shadow's "Strength Damage (Su): The touch of a shadow deals 1d6
points of Strength damage to a living foe", a wraith's Constitution drain): every hit of its attack takes the points,
with no save unless the text gives one. The loss itself, and what it does to a creature's numbers, is
:func:`arena.combat.conditions.lose_ability`.

The whole ability, damage and drain in one module (one field, ``ability_damage``; drain differs only in what
immunities apply): the stat-block field (:class:`AbilityDamageAttack`), how the importer reads either
(:func:`read_ability_loss`), and the loss in a fight (:func:`ability_damage_on_hit`).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.conditions import lose_ability
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.template import CompiledAttack
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.onhit import deliverer, loss_of, named_attack, rider_attacks
from arena.srd.patterns import ABILITY, ABILITY_KEYS, AMOUNT, ROLL, SAVE_KEYS
from arena.srd.text import clean, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.creatures import AbilityLoss
from arena.world.stat_types import Frozen, Label, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class AbilityDamageAttack(Frozen):
    """Ability damage or drain dealt by every hit of ``attack`` (a shadow's Strength damage), with no save unless
    ``dc`` is given."""

    attack: Label
    loss: AbilityLoss
    dc: Annotated[int, _int(1, MAX_MODIFIER)] | None = None
    save: SaveKind = "fort"
    at_zero: Literal["dies"] | None = None
    """What a foe its loss brings to 0 suffers beyond the SRD's rule for a score of 0 (helpless, unconscious):
    ``dies`` (SRD 3.5 shadow: "A creature reduced to Strength 0 by a shadow dies")."""


# --------------------------------------------------------------------------------------------- reading the SRD
ABILITY_LOSS = re.compile(rf"(?<!\d)({AMOUNT}) points? of {ABILITY} (drain|damage)", re.IGNORECASE)
"""``1d6 points of Strength damage``, ``1d4 points of Constitution drain``."""
DRAINS = re.compile(rf"drains ({AMOUNT}) points? of {ABILITY}()", re.IGNORECASE)
"""``drains 1d4 points of Constitution``."""
ENTRY_LOSS = re.compile(rf"^({AMOUNT})\s*{ABILITY}\s*(drain|damage)?", re.IGNORECASE)
"""An entry of ability loss: ``1d6 Str``, ``1d4 Wisdom drain``."""
ENTRY_ROLL = re.compile(rf"(?<!\d){ROLL}")
"""An entry's dice, left out of the name its paragraph is looked for by: ``1d6 Str``."""
ANY_DC = re.compile(r"\bDC (\d+) (Fortitude|Will|Reflex)|(Fortitude|Will|Reflex) DC (\d+)")
"""``DC 14 Will``, ``Fortitude DC 12``."""
DIES_AT_ZERO = re.compile(rf"\breduced to {ABILITY} 0 by (?:an? |the )?[\w' -]+? dies\b", re.IGNORECASE)
"""A loss that kills at 0: ``A creature reduced to Strength 0 by a shadow dies``."""
ABILITY_NAMES = r"(strength|dexterity|constitution|intelligence|wisdom|charisma|str|dex|con|int|wis|cha)"
"""The abilities as the SRD names them in an entry: ``Strength damage``, ``Con drain``."""


def read_ability_loss(ctx: Reading, item: dict) -> dict:
    """Ability damage or drain on a hit (``1d6 Str``, a shadow's; ``1d4 points of Constitution drain``); the engine
    has one, so a second one is left out."""
    if "ability_damage" in ctx.data:
        return ctx.ignored(item["key"], "a second ability loss on a hit: the engine's ability_damage is one")
    key = item["key"]
    entry = clean(item["name"])
    desc, text = ctx.text_of(item, ENTRY_ROLL.sub("", entry).strip())
    rider = ENTRY_LOSS.match(entry)
    m = ABILITY_LOSS.search(text) or DRAINS.search(text)
    if m:
        dice, ability, kind = m.group(1), m.group(2), m.group(3) or "drain"
    elif rider:
        dice, ability, kind = (
            rider.group(1),
            rider.group(2),
            rider.group(3) or ("drain" if "drain" in key else "damage"),
        )
    else:
        ctx.note_on(item, "unread", f"{key}: its dice and ability not read: not modelled", text[:200] or entry)
        return ctx.ignored(key, "its dice and ability not read")
    dcs = set(ANY_DC.findall(text))
    dc = save = None
    if len(dcs) == 1:
        a, b, c, d = dcs.pop()
        dc, save = number(a or d), SAVE_KEYS[(b or c).lower()]
    words = rider_attacks(ctx, re.compile(ABILITY, re.IGNORECASE)) or named_attack(text)
    attack, why = deliverer(ctx, words) if words else (None, "is named nowhere")
    loss = {**loss_of(dice, ability), "drain": kind.lower() == "drain"}
    for a in ctx.abilities:
        if a["key"] == key:
            a["damage"] = loss["dice"]
            if dc is not None:
                a["dc"], a["save"] = dc, save
    if attack is None:
        return ctx.ignored(
            key,
            f"its {' or '.join(words) or 'attack'} {why}: not an attack the engine rolls, and the "
            f"engine's {key} is on a hit with one",
        )
    saved = f", {save.capitalize()} DC {dc} negates" if dc is not None and save is not None else ", no save"
    dies = DIES_AT_ZERO.search(text)
    at_zero = "dies" if dies and ABILITY_KEYS[dies.group(1).lower()] == loss["ability"] else None
    ctx.mark(
        key,
        "modelled",
        f"ability_damage on the {attack}: {loss['dice']} {loss['ability']} "
        f"{'drain' if loss['drain'] else 'damage'}{saved}{'; a foe it brings to 0 dies' if at_zero else ''}",
    )
    return {"ability_damage": {"attack": attack, "loss": loss, "dc": dc, "save": save or "fort", "at_zero": at_zero}}


# --------------------------------------------------------------------------------------------- in a fight
def ability_damage_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with its attack takes the points, unless the foe makes its save (when the ability has one)."""
    harm: AbilityDamageAttack = c.t.ability_data["ability_damage"]
    if (
        attack.name == harm.attack
        and not target.dead
        and (harm.dc is None or not save(f, target, harm.save, harm.dc, c).success)
    ):
        lose_ability(f, target, harm.loss, c, dies_at_zero=harm.at_zero == "dies")


add_fields(
    AbilityField(
        "ability_damage",
        AbilityDamageAttack | None,
        doc=AbilityDamageAttack.__doc__ or "",
        after="poison",
        every_number=True,
    )
)
add_reading(
    AbilityReading("ability damage", (rf"{ABILITY_NAMES} damage", "ability damage"), read_ability_loss, after="web")
)
add_reading(
    AbilityReading(
        "ability drain", (rf"{ABILITY_NAMES} drain", "ability drain"), read_ability_loss, after="ability damage"
    )
)
add_fight_ability(
    FightAbility("ability_damage", on_hit=ability_damage_on_hit, rides_on=lambda harm: harm.attack, order=70)
)
