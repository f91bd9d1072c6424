"""Crush (SRD 3.5 dragons of Huge size and up: "land on opponents as a standard action ... effective only against
opponents three or more size categories smaller ... Creatures in the affected area must succeed on a Reflex save
(DC equal to that of the dragon's breath weapon) or be pinned, automatically taking bludgeoning damage"): a standard
action when it lands on two or more foes small enough (or the only foe).

The whole ability: the stat-block field (:class:`Crush`, the field ``crush``), how the importer reads it
(:func:`read_crush`; a mimic's "Crush" is the damage of its adhesive's hold, read as its ``improved_grab``) and the
crush in a fight (:func:`crush_turn`, instead of its attack).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.ability_hooks import FightAbility, add_fight_ability, worth_the_turn
from arena.combat.combatant import Combatant
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT
from arena.srd.text import clean, dice_text
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.spellbook import area_count
from arena.world.stat_types import SIZES, DamageDice, Frozen, _int

BLUDGEONING = frozenset({"bludgeoning"})


# --------------------------------------------------------------------------------------------- the stat-block field
class Crush(Frozen):
    """Crush (SRD 3.5 dragons of Huge size and up): as a standard action it lands on the foes ``smaller_by`` or more
    size categories smaller than itself: each makes a Reflex save (``dc``, the breath weapon's) or takes ``damage``
    (pinned: the SRD's damage "during the next round" is dealt at once, and keeping the pin is not modelled)."""

    damage: DamageDice
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    smaller_by: Annotated[int, _int(1, 8)] = 3


# --------------------------------------------------------------------------------------------- reading the SRD
WORD_CRUSH = re.compile(r"^\s*crush\s*", re.IGNORECASE)
"""An entry's name before its dice: ``Crush 2d8+16``."""
FIRST_AMOUNT = re.compile(f"({AMOUNT})")
"""An entry's dice or number: ``2d8+16`` of ``Crush 2d8+16``."""
ADHESIVE = re.compile(r"automatically grapples any creature it hits with its (\w+) attack")
"""A mimic's: ``A mimic exudes a thick slime ... automatically grapples any creature it hits with its slam
attack``."""
GRAPPLE_DAMAGE = re.compile(rf"deals ({AMOUNT}) points of damage with a successful grapple check")
"""A mimic's crush: ``A mimic deals 1d8+4 points of damage with a successful grapple check``."""


def read_crush(ctx: Reading, item: dict) -> dict:
    """A dragon's (``Crush 2d8+16``: against foes three or more size categories smaller, Reflex at the breath
    weapon's DC) or the mimic's ("deals 1d8+4 points of damage with a successful grapple check", with its adhesive:
    "automatically grapples any creature it hits with its slam attack")."""
    desc, text = ctx.text_of(item, "crush")
    entry = FIRST_AMOUNT.search(WORD_CRUSH.sub("", clean(item["name"])))
    if "with a successful grapple check" in text:
        return _adhesive(ctx, item, text)
    breath = ctx.data.get("breath_weapon")
    if entry is None or "d" not in entry.group(1) or breath is None:
        what = "no damage" if entry is None else "no breath weapon to take the DC from"
        return ctx.unread(item, "crush", f"{what} read", text)
    damage = dice_text(entry.group(1))
    smaller = 3  # "three or more size categories smaller"
    for a in ctx.abilities:
        if a["key"] == "crush":
            a["damage"], a["dc"], a["save"] = damage, breath["dc"], "ref"
    ctx.mark(
        "crush",
        "modelled",
        f"crush: {damage} on foes {smaller} or more sizes smaller, Reflex DC {breath['dc']} "
        "(its breath weapon's) negates, as its standard action (the pin's damage at once, "
        "the pin not kept)",
    )
    return {"crush": {"damage": damage, "dc": breath["dc"], "smaller_by": smaller}}


def _adhesive(ctx: Reading, item: dict, text: str) -> dict:
    """The mimic's crush, the damage of the hold its adhesive starts: an ``improved_grab`` of any size, with no
    grapple check, that it deals its slam's damage with."""
    glue = ctx.first("adhesive")
    _, glue_text = ctx.text_of(glue, "adhesive") if glue is not None else (None, "")
    m = ADHESIVE.search(glue_text)
    attack = ctx.named(m.group(1)) if m else None
    dmg = GRAPPLE_DAMAGE.search(text)
    if attack is None or dmg is None or ctx.data.get("improved_grab") is not None:
        return ctx.ignored("crush", "the damage of a grapple, and no adhesive or grab that starts it read")
    slam = next(a for r in ctx.routines() for a in r if a["name"] == attack)
    how = ""
    if dice_text(dmg.group(1)) != slam["damage"]:
        how = f"; its crush {dice_text(dmg.group(1))} differs from the {attack}'s {slam['damage']}: the {attack}'s"
        ctx.note_on(item, "guess", f"crush: the hold deals the {attack}'s damage", text[:200])
    ctx.mark(
        "crush",
        "modelled",
        f"crush: its hold deals {slam['damage']} on each won grapple check (improved_grab on the {attack}){how}",
    )
    ctx.mark(
        "adhesive",
        "modelled",
        f"adhesive: a hit with its {attack} holds the foe, of any size, with no grapple "
        "check, and the foe cannot escape while it lives",
    )
    return {"improved_grab": {"attack": attack, "constrict": None, "any_size": True, "automatic": True}}


# --------------------------------------------------------------------------------------------- in a fight
def crush_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn goes to the crush when it lands on two or more foes small enough (or the only foe), as many as a
    10-foot burst covers."""
    k: Crush = c.t.ability_data["crush"]
    enemies = [e for e in c.foes if e.is_able]
    size = SIZES.index(c.t.creature.size)
    under = [e for e in enemies if size - SIZES.index(e.t.creature.size) >= k.smaller_by]
    if not worth_the_turn(len(under), len(enemies)):
        return False
    crush(f, c, under[: area_count("burst-10", len(under))])
    return True


def crush(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """SRD 3.5 dragons, Crush: "land on opponents as a standard action ... effective only against opponents three
    or more size categories smaller ... Creatures in the affected area must succeed on a Reflex save (DC equal to
    that of the dragon's breath weapon) or be pinned, automatically taking bludgeoning damage during the next round"
    (the damage at once; keeping the pin is not modelled). One damage roll for every creature it lands on. A crush is
    a special attack, not "a weapon or other blow": under ``defensive-roll-blows`` no defensive roll against it."""
    k: Crush = c.t.ability_data["crush"]
    amount = parse(k.damage).roll(f.stream)
    if f.lines is not None:
        f.log(
            f"{c.name} lands on {', '.join(e.name for e in targets)}",
            actor=c.name,
            action="crush",
            targets=[e.name for e in targets],
        )
    for e in targets:
        if not e.dead and not save(f, e, "ref", k.dc, c).success:
            deal(f, c, e, amount, BLUDGEONING, weapon=True, blow=not f.flags.fix_roll_blows)


add_fields(AbilityField("crush", Crush | None, doc=Crush.__doc__ or "", after="whirlwind"))
add_reading(AbilityReading("crush", ("crush",), read_crush, after="whirlwind", only_ignored=True))
add_fight_ability(FightAbility("crush", instead_of_attack=crush_turn, order=50))
