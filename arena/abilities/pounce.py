"""Pounce and rake (SRD 3.5 lion, tiger, dire lion: "Pounce (Ex): If a lion charges a foe, it can make a full attack,
including two rake attacks"): as it closes in on the first round the creature makes a full attack, and its rake's
claws at the end of it; its rake's claws also tear at a foe it holds, each turn of the hold.

One module for two fields because they are one mechanism: the rake's first use is the pounce's end (and the pounce's
hook makes it). The whole abilities: the stat-block fields (``pounce``, a flag; ``rake``, an attack), how the
importer reads them (pounce a flag of the block, :func:`read_rake`), and what they do in a fight: pounce makes the
first round's attack a full attack (``closes_in_full``), a charge's (:func:`charge_routine`, a ``routine`` hook: +2
on its attacks, -2 AC until its next turn), and rakes after it (:func:`rake_at_the_end`, an ``after_attack`` hook);
the rake, compiled once per stat block, is the Template's ``rake`` that the grapple's turn
(:func:`arena.combat.specials.grip_turn`, the hold's code) rakes a held foe with. A giant soldier ant's acid sting
is read as its ``rake`` too (:func:`arena.srd.holds.acid_sting`): it has no pounce, so it stings only what it holds.
"""

from __future__ import annotations

import re

from pydantic import StrictBool

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.attacks import attack_routine
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.fight_state import FightState
from arena.combat.template import CompiledAttack
from arena.dice import parse as parse_dice
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.holds import flag
from arena.srd.patterns import DICE, NUMBER_WORDS
from arena.srd.text import clean, dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.attacks import Attack

POUNCE_DOC = """Pounce (SRD 3.5): a full attack at the end of a charge, so a melee creature full-attacks as it closes
in."""
RAKE_DOC = """Rake (SRD 3.5): these extra attacks in a full attack at the end of a pounce, and each turn it holds a
foe."""

# --------------------------------------------------------------------------------------------- reading the SRD
ATTACK_BONUS = re.compile(r"attack bonus ([+-]\d+)", re.IGNORECASE)
"""A rake's: ``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``."""
RAKE_DAMAGE = re.compile(rf"damage ({DICE})", re.IGNORECASE)
"""``damage 1d6+2``."""
ENTRY_DICE = re.compile(rf"(?<!\d)({DICE})")
"""An entry's dice: ``Rake 1d6+2``."""
WHILE_SWIMMING = re.compile(r"\bwhile swimming\b", re.IGNORECASE)
"""A rake of the water: ``A sea cat that ... while swimming``."""
RAKE_COUNT = re.compile(r"\b(two|three|four|five|six|eight)\s+(?:claws|rakes|rake attacks)", re.IGNORECASE)
"""``two rake attacks``."""


def read_rake(ctx: Reading, item: dict) -> dict:
    """``Rake (Ex): Attack bonus +8 melee, damage 1d6+2``: two claws (or as many as the text says) at the end of a
    pounce and each round it holds a foe; none while it swims."""
    desc, text = ctx.text_of(item, "rake")
    if not text and " -- " in item["text"]:
        text = clean(item["text"].split(" -- ", 1)[1])
    entry = clean(item["name"])
    bonus, dmg, entry_dmg = ATTACK_BONUS.search(text), RAKE_DAMAGE.search(text), ENTRY_DICE.search(entry)
    found = dmg or entry_dmg
    if bonus is None or found is None:
        ctx.note_on(item, "unread", "rake: its attack bonus and damage not read: not modelled", text[:200] or entry)
        return ctx.ignored("rake", "its attack bonus and damage not read")
    if WHILE_SWIMMING.search(text):
        ctx.mark("rake", "no effect", "its rakes come only while it swims, and the arena has no water")
        return {}
    damage = dice_text(found.group(1))
    how = ""
    if dmg and entry_dmg and dice_text(entry_dmg.group(1)) != damage:
        ctx.note_on(
            item,
            "discrepancy",
            f"rake: the entry says {entry_dmg.group(1)}, its description {damage}: kept the description's",
            f"{entry} -- {text[:150]}",
        )
        how = f"; the entry's {entry_dmg.group(1)} disagrees: the description's {damage}"
    count_word = RAKE_COUNT.search(text)
    count = NUMBER_WORDS[count_word.group(1).lower()] if count_word else 2
    claws = {
        "name": "rake",
        "bonuses": [number(bonus.group(1))],
        "count": count,
        "damage": damage,
        "damage_types": ["slashing"],
    }
    if parse_dice(damage).maximum < 1:
        claws["damage"] = "1"
    for a in ctx.abilities:
        if a["key"] == "rake":
            a["damage"] = claws["damage"]
    ctx.mark(
        "rake",
        "modelled",
        f"rake: {count} claws at {number(bonus.group(1)):+d} for {claws['damage']} (at the "
        f"end of a pounce and each round it holds a foe){how}",
    )
    return {"rake": claws}


# --------------------------------------------------------------------------------------------- in a fight
CHARGE_BONUS = 2
"""SRD 3.5 charge: "you get a +2 bonus on the attack roll" (and "a -2 penalty to your AC until the start of your next
turn": the ``charging`` condition, :data:`arena.combat.conditions.CHARGING_AC`)."""


def charging(attack: CompiledAttack) -> CompiledAttack:
    """``attack`` with the charge's +2 on each of its attack rolls (its rider kept)."""
    return attack.with_bonus(CHARGE_BONUS)


def _charge(c: Combatant) -> tuple[tuple[CompiledAttack, ...], CompiledAttack | None]:
    """Its full attack and its rake with the charge's +2, worked out once per stat block (kept with its abilities'
    data)."""
    data = c.t.ability_data
    found = data.get("pounce-charge")
    if found is None:
        rake = c.t.rake
        found = data["pounce-charge"] = (
            tuple(charging(a) for a in c.t.full),
            charging(rake) if rake is not None else None,
        )
    return found


def charge_routine(f: FightState, c: Combatant, target: Combatant, full: bool) -> tuple[CompiledAttack, ...] | None:
    """SRD 3.5 Pounce: "When a creature with this special attack makes a charge, it can follow with a full attack";
    a charge: "you get a +2 bonus on the attack roll and take a -2 penalty to your AC until the start of your next
    turn". The first round's full attack (the pounce, as it closes in) is that charge's: its attacks at +2, and the
    creature at -2 AC until its next turn (the fix ``pounce-charge``; undone, the full attack has neither)."""
    if f.round != 1 or not full or not f.flags.fix_pounce_charge:
        return None
    add_condition(f, c, "charging", ROUND)
    return _charge(c)[0]


def rake_at_the_end(f: FightState, c: Combatant, target: Combatant) -> None:
    """SRD 3.5 Pounce: "it can make a full attack, including two rake attacks": after the first round's full attack,
    its rake at the foe it attacked, if that foe still stands (with the charge's +2, under ``pounce-charge``)."""
    rake: CompiledAttack | None = c.t.rake
    if rake is not None and f.round == 1 and target.is_able:
        if f.flags.fix_pounce_charge and "charging" in c.conditions:
            rake = _charge(c)[1] or rake  # the charging rake (there is one when there is a rake)
        attack_routine(f, c, target, (rake,), True)


add_fields(
    AbilityField("pounce", StrictBool, default=False, doc=POUNCE_DOC, after="breath_weapon"),
    AbilityField("rake", Attack | None, doc=RAKE_DOC, after="energy_drain"),
)
add_reading(AbilityReading("pounce", ("pounce",), flag("pounce"), after="ferocity"))
add_reading(AbilityReading("rake", ("rake",), read_rake, after="ability drain"))
add_fight_ability(FightAbility("pounce", closes_in_full=True, routine=charge_routine, after_attack=rake_at_the_end))
add_fight_ability(FightAbility("rake", compile=CompiledAttack))
