"""Split (SRD 3.5 ochre jelly: "Slashing and piercing weapons and electricity attacks deal no damage to an ochre
jelly. Instead the creature splits into two identical jellies, each with half of the original's current hit points
(round down). A jelly with 10 hit points or less cannot be further split").

The whole ability: the stat-block field (``split``, the damage types that split it; its immunities hold them too),
how the importer reads it (:func:`read_split`), and the split in a fight (:func:`split_when_stopped`, a
``damage_stopped`` hook: damage of those types, which its immunity stops, splits it instead, and the second half
joins its side at the end of the round, :func:`arena.combat.specials.join`, as summoned creatures do).
"""

from __future__ import annotations

import re

from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.srd.auras import ENTRY_HEAD
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import DamageType

SPLIT_DOC = """Split (SRD 3.5 ochre jelly, black pudding): damage of these types deals none, and splits it in two of
half its hit points each, while it has more than 10 (its immunities hold the types too)."""

# --------------------------------------------------------------------------------------------- reading the SRD
SPLITS = re.compile(
    r"^(.*?) deal no damage to an? [\w ]+?\. Instead the creature splits into two identical \w+, each "
    r"with half of the original's current hit points"
)
"""An ochre jelly's: ``Slashing and piercing weapons and electricity attacks deal no damage to an ochre jelly.
Instead the creature splits into two identical jellies, each with half of the original's current hit points``."""
NO_FURTHER_SPLIT = "10 hit points or less cannot be further split"


def read_split(ctx: Reading, item: dict) -> dict:
    """``Slashing and piercing weapons and electricity attacks deal no damage to an ochre jelly. Instead the creature
    splits into two identical jellies, each with half of the original's current hit points (round down). A jelly
    with 10 hit points or less cannot be further split``: immune to those types, and split by them (the second jelly
    joins at the end of the round)."""
    desc, text = ctx.text_of(item, "split")
    m = SPLITS.search(ENTRY_HEAD.sub("", text))
    if m is None or NO_FURTHER_SPLIT not in text:
        return ctx.ignored("split", "its terms not read")
    kinds = [k for k in ("slashing", "piercing", "electricity") if k in m.group(1).lower()]
    ctx.mark(
        "split",
        "modelled",
        f"split: {', '.join(kinds)} deal it no damage and split it in two of half its hit "
        "points while it has more than 10 (immunities too); the second joins at the end of "
        "the round",
    )
    return {"split": kinds, "immunities": list(dict.fromkeys([*ctx.data.get("immunities", []), *kinds]))}


# --------------------------------------------------------------------------------------------- in a fight
SPLIT_ABOVE = 10
"""SRD 3.5 Split: "A jelly with 10 hit points or less cannot be further split"."""


def split_when_stopped(f: FightState, c: Combatant, source: Combatant, types: frozenset) -> None:
    """Damage of a type that splits it, all of it stopped by its defences (its immunity holds those types), splits
    it while it has more than 10 hit points."""
    if types & c.t.ability_data["split"] and c.hp > SPLIT_ABOVE:
        split(f, c)


def split(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Split (ochre jelly): "Slashing and piercing weapons and electricity attacks deal no damage to an ochre
    jelly. Instead the creature splits into two identical jellies, each with half of the original's current hit
    points (round down)": this one keeps half, the other joins its side at the end of the round
    (:func:`arena.combat.specials.join`), acting right after it."""
    half = c.hp // 2
    c.hp = half
    if f.joining is None:
        f.joining = []
    f.joining.append((c, c.t, 1, half))
    if f.lines is not None:
        f.log(f"{c.name} splits in two ({half} hit points each)", actor=c.name, action="split", hp=half)


add_fields(AbilityField("split", tuple[DamageType, ...], default=(), doc=SPLIT_DOC, after="quickness"))
add_reading(AbilityReading("split", ("split",), read_split, after="incorporeal", only_ignored=True))
add_fight_ability(FightAbility("split", compile=frozenset, damage_stopped=split_when_stopped))
