"""Smite (SRD 3.5 Smite Good: "Once per day an abyssal greater basilisk can make a normal melee attack to deal an
extra 18 points of damage against a good foe"): its first melee swing of a turn is the smite, with the extra damage
on a hit, ``uses`` times a fight. The model has no alignments: the party counts as good, so a smite good always
applies and a smite evil never does (and is not spent).

The whole ability: the stat-block field (:class:`Smite`, the field ``smite``), how the importer reads it
(:func:`read_smite`; a nalfeshnee's "smite" is a burst, which :func:`arena.abilities.burst.read_nimbus` reads
first) and the smite in a fight (:func:`smite_turn`, instead of its attack: the smite and the rest of its
routine).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from arena.abilities.burst import read_nimbus
from arena.combat import tactics
from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.attacks import swing_at
from arena.combat.combatant import Combatant
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import TIMES
from arena.srd.specials import hit_dice_count
from arena.srd.text import number, search_chain
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import MAX_AMOUNT, Frozen, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Smite(Frozen):
    """Smite (SRD 3.5: "Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18
    points of damage against a good foe"): its first attack in melee is the smite, with ``damage`` extra on a hit.
    The model has no alignments: the party counts as good, so a smite good always applies (a smite evil never)."""

    against: Literal["good", "evil"]
    damage: Annotated[int, _int(1, MAX_AMOUNT)]
    uses: Annotated[int, _int(1, 10)] = 1


# --------------------------------------------------------------------------------------------- reading the SRD
SMITE = (r"\b(Once|Twice|Three times) per day\b", r"\bagainst an? (good|evil) (?:foe|opponent)")
"""``Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18 points of damage
against a good foe``, its parts in order."""
SMITE_EXTRA = re.compile(r"extra (\d+) points of damage|deal (\d+) points of extra damage")
"""``to deal an extra 18 points of damage``, ``deal 20 points of extra damage``."""
EQUAL_TO_HD = "equal to its HD"
"""``extra damage equal to its HD (maximum of +20)``."""
SMITE_BONUS = re.compile(r"bonus that deals|adds his")
"""A smite of a bonus on the attack roll too: ``adds his Charisma bonus``."""


def read_smite(ctx: Reading, item: dict) -> dict:
    """``Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18 points of damage
    against a good foe``; ``extra damage equal to its HD (maximum of +20)``. A nalfeshnee's is a burst."""
    burst = read_nimbus(ctx, item)
    if burst is not None:
        return burst
    desc, text = ctx.text_of(item, item["name"], "smite good", "smite evil", "smite")
    m = search_chain(text, *SMITE, flags=re.IGNORECASE)
    extra = SMITE_EXTRA.search(text)
    if m is None or (extra is None and EQUAL_TO_HD not in text) or SMITE_BONUS.search(text):
        return ctx.ignored(
            "smite",
            "its uses, foe and extra damage not read (or a bonus on the attack roll the engine's smite has not)",
        )
    damage = number(extra.group(1) or extra.group(2)) if extra else min(20, hit_dice_count(ctx.data))
    against = m.group(2).lower()
    uses = TIMES[m.group(1).lower()]
    applies = "the party counts as good: it applies" if against == "good" else "the party is not evil: it never applies"
    ctx.mark(
        "smite",
        "modelled",
        f"smite {against}: +{damage} damage on a hit with its first melee attack, {uses} a fight ({applies})",
    )
    return {"smite": {"against": against, "damage": damage, "uses": uses}}


# --------------------------------------------------------------------------------------------- in a fight
def smite_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Its turn goes to the smite (its attacks, the first a smite) while it fights in melee and has smites left."""
    s: Smite = c.t.ability_data["smite"]
    if target is None or c.ranged or state_of(c).get("smites", 0) >= s.uses:
        return False
    smite(f, c, target, full)
    return True


def smite(f: FightState, c: Combatant, target: Combatant, full: bool) -> None:
    """SRD 3.5 Smite Good: "Once per day ... can make a normal melee attack to deal an extra 18 points of damage
    against a good foe": the first swing of its routine, used up hit or miss; the model has no alignments and the
    party counts as good (a smite evil never applies, and is not spent)."""
    s: Smite = c.t.ability_data["smite"]
    routine = c.t.full if full else c.t.standard
    if not routine or routine[0].ranged:
        return
    st = state_of(c)
    first = routine[0]
    swings = [(a, b) for a in routine for b in (a.full_bonuses if full else a.first_bonus)]
    applies = s.against == "good"
    if applies:
        st["smites"] = st.get("smites", 0) + 1
    for n, (attack, bonus) in enumerate(swings):
        if not target.is_able:
            next_target = tactics.choose_target(f.view, c)
            if next_target is None:
                return
            target = next_target
        hit = swing_at(f, c, target, attack, bonus, n)
        if n == 0 and applies:
            if f.lines is not None:
                f.log(
                    f"{c.name} smites {s.against}: {'+' + str(s.damage) if hit else 'missed'}",
                    actor=c.name,
                    action="smite",
                    against=s.against,
                    result="hit" if hit else "miss",
                )
            if hit and not target.dead:
                deal(f, c, target, s.damage, first.types, first.overcomes)


add_fields(AbilityField("smite", Smite | None, doc=Smite.__doc__ or "", after="eye_rays"))
add_reading(AbilityReading("smite", (r"smite \w+", "smite"), read_smite, after="despair", only_ignored=True))
add_fight_ability(FightAbility("smite", instead_of_attack=smite_turn, order=100))
