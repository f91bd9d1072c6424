"""Powerful charge (SRD 3.5 minotaur: "this allows the beast to make a single gore attack with a +9 attack bonus that
deals 4d6+6 points of damage"): the single attack it makes as it closes in, on the first round, with the charge's
+2.

The whole ability: the stat-block field (``powerful_charge``, the attack as the SRD prints it), how the importer
reads it (:func:`read_powerful_charge`), and the attack in a fight (:func:`charge_routine`, the ``routine`` hook:
the first round's melee routine when it makes no full attack).
"""

from __future__ import annotations

import re

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.fight_state import FightState
from arena.combat.template import CompiledAttack
from arena.srd.context import Reading, named
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import DICE
from arena.srd.text import dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.attacks import Attack

POWERFUL_CHARGE_DOC = """Powerful charge (SRD 3.5 minotaur): the single attack it makes as it closes in (round 1),
with the charge's +2."""

# --------------------------------------------------------------------------------------------- reading the SRD
CHARGE_DAMAGE = re.compile(rf"\bdeals? ({DICE}) points? of damage", re.IGNORECASE)
"""A powerful charge's: ``deals 4d6+6 points of damage``."""
CHARGE_ATTACK = re.compile(r"\b(?:its|a single|single|an?) ([a-z]+) attack\b", re.IGNORECASE)
"""``a single gore attack``, ``its gore attack``."""
CHARGE_ATTACK_BONUS = re.compile(r"\bwith an? ([+-]\d+) attack bonus|\battack bonus (?:of )?([+-]\d+)", re.IGNORECASE)
"""``with a +9 attack bonus``."""


def read_powerful_charge(ctx: Reading, item: dict) -> dict:
    """The attack it charges with, as the SRD prints it (the engine adds the charge's +2): ``a single gore attack
    with a +9 attack bonus that deals 4d6+6 points of damage`` (the minotaur's), ``its gore attack deals 4d8+20``
    (the triceratops's: the gore's bonus of its routines); a text that names no attack (the rhinoceros's) charges
    with its standard attack."""
    desc, text = ctx.text_of(item, "powerful charge")
    dmg = CHARGE_DAMAGE.search(text)
    if dmg is None:
        return ctx.unread(item, "powerful charge", "its damage not read", text)
    damage = dice_text(dmg.group(1))
    for a in ctx.abilities:
        if a["key"] == "powerful charge":
            a["damage"] = damage
    standard = [a for r in ctx.data.get("attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    melee = standard + [a for r in ctx.data.get("full_attack") or [] for a in r if a.get("kind", "melee") == "melee"]
    attack = CHARGE_ATTACK.search(text)
    how = ""
    if attack:
        found = named(attack.group(1), [a["name"] for a in melee])
        if found is None:
            return ctx.ignored(
                "powerful charge", f"its {attack.group(1).lower()} attack is not an attack of its routines"
            )
        base = next(a for a in melee if a["name"] == found)
    elif standard:
        base = standard[0]
        how = f"; the text names no attack: its standard attack, the {base['name']}"
    else:
        return ctx.ignored("powerful charge", "the text names no attack and it has no melee attack")
    bonus = CHARGE_ATTACK_BONUS.search(text)
    bonuses = [number(bonus.group(1) or bonus.group(2))] if bonus else [base["bonuses"][0]]
    if not bonus:
        how += f"; at the {base['name']}'s bonus, {bonuses[0]:+d}"
    charge = {
        "name": base["name"],
        "bonuses": bonuses,
        "damage": damage,
        "damage_types": list(base.get("damage_types") or ["bludgeoning"]),
    }
    for key in ("threat", "multiplier"):
        if key in base:
            charge[key] = base[key]
    ctx.mark(
        "powerful charge",
        "modelled",
        f"powerful_charge: {charge['name']} {bonuses[0]:+d} melee ({damage}) as it "
        f"closes in, round 1, the charge's +2 added by the engine{how}",
    )
    return {"powerful_charge": charge}


# --------------------------------------------------------------------------------------------- in a fight
CHARGE_BONUS = 2
"""SRD 3.5 charge: +2 on the attack roll."""


def compile_charge(charge: Attack) -> tuple[CompiledAttack]:
    """The routine it closes in with: the one attack, the charge's +2 included."""
    return (CompiledAttack(charge.model_copy(update={"bonuses": tuple(b + CHARGE_BONUS for b in charge.bonuses)})),)


def charge_routine(f: FightState, c: Combatant, target: Combatant, full: bool) -> tuple[CompiledAttack] | None:
    """SRD 3.5 Minotaur: "A minotaur typically begins a battle by charging at an opponent": on the first round,
    unless it makes a full attack (a pounce), its melee routine is the charge's one attack. SRD 3.5 charge: "You get
    a +2 bonus on the attack roll and take a -2 penalty to your AC until the start of your next turn": under
    ``powerful-charge-ac`` it is ``charging`` (:data:`arena.combat.conditions.CHARGING_AC`), as a pounce is."""
    if f.round == 1 and not full:
        if f.flags.fix_charge_ac:
            add_condition(f, c, "charging", ROUND)
        routine: tuple[CompiledAttack] = c.t.ability_data["powerful_charge"]
        return routine
    return None


add_fields(
    AbilityField("powerful_charge", Attack | None, doc=POWERFUL_CHARGE_DOC, after="trample"),
)
add_reading(AbilityReading("powerful charge", ("powerful charge",), read_powerful_charge, after="trample"))
add_fight_ability(FightAbility("powerful_charge", compile=compile_charge, routine=charge_routine))
