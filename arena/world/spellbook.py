"""The spellbook: which spells exist for d20 Arena, with the SRD 3.5 facts a stat block, a policy and the engine
share (kind, area, save, spell resistance, mind-affecting).

Why here, in the world layer: a stat block names the spells it prepares, and validating those names must not need
the fight layer; what each spell *does* when cast lives there, in :mod:`arena.combat.spells`.
"""

from __future__ import annotations

from dataclasses import dataclass

AREA_CAPS = {"burst-20": 6, "burst-10": 3, "cone-15": 3, "cone-30": 4, "cone-40": 4, "cone-60": 5, "line": 3,
             "cylinder-10": 3, "cylinder-20": 6}
"""Most creatures an area can plausibly catch in a loose melee (one creature per 10-ft square)."""


def area_count(area: str, group: int) -> int:
    """How many of ``group`` enemies an area spell catches: half of them plus one, at most the area's cap."""
    return min(group, group // 2 + 1, AREA_CAPS[area])


@dataclass(frozen=True)
class Spell:
    name: str
    kind: str
    """``area`` (damage or control in an area), ``single`` (one enemy), ``heal``, ``buff`` (allies)."""
    area: str | None = None
    save: str | None = None
    """fort / ref / will, or None for no save."""
    sr: bool = True
    mind: bool = False
    """Mind-affecting: creatures immune to it are not valid targets."""
    school: str = ""
    """SRD 3.5 school (Spell Focus adds to the DCs of its school)."""
    damage: frozenset[str] = frozenset()
    """The damage types it deals: a creature immune to all of them is not worth the spell."""
    reach: str = ""
    """Buffs: ``party`` (every ally), ``one`` (one creature), ``self`` (the caster)."""
    rounds_per_level: int = 0
    """Buffs: how long it lasts, in rounds per caster level (10 for 1 minute/level)."""


_FIRE, _COLD = frozenset({"fire"}), frozenset({"cold"})
SPELLS: dict[str, Spell] = {s.name: s for s in (
    Spell("magic missile", "single", school="evocation", damage=frozenset({"force"})),
    Spell("sleep", "area", "burst-10", "will", mind=True, school="enchantment"),
    Spell("color spray", "area", "cone-15", "will", mind=True, school="illusion"),
    Spell("scorching ray", "single", school="evocation", damage=_FIRE),
    Spell("hold person", "single", save="will", mind=True, school="enchantment"),
    Spell("fireball", "area", "burst-20", "ref", school="evocation", damage=_FIRE),
    Spell("lightning bolt", "area", "line", "ref", school="evocation", damage=frozenset({"electricity"})),
    Spell("ice storm", "area", "cylinder-20", school="evocation", damage=frozenset({"bludgeoning", "cold"})),
    Spell("cone of cold", "area", "cone-60", "ref", school="evocation", damage=_COLD),
    Spell("flame strike", "area", "cylinder-10", "ref", school="evocation", damage=frozenset({"fire", "divine"})),
    Spell("searing light", "single", school="evocation", damage=frozenset({"divine"})),
    Spell("cure light wounds", "heal", sr=False, school="conjuration"),
    Spell("cure moderate wounds", "heal", sr=False, school="conjuration"),
    Spell("cure serious wounds", "heal", sr=False, school="conjuration"),
    Spell("cure critical wounds", "heal", sr=False, school="conjuration"),
    Spell("bless", "buff", sr=False, school="enchantment", reach="party", rounds_per_level=10),
    Spell("shield of faith", "buff", sr=False, school="abjuration", reach="one", rounds_per_level=10),
    Spell("auspicious odds", "buff", sr=False, school="divination", reach="one", rounds_per_level=10),
    Spell("mass auspicious odds", "buff", sr=False, school="divination", reach="party", rounds_per_level=1),
)}
"""Schools and durations from the SRD 3.5 spell list; the bell-curve document's auspicious odds replaces
protection from energy (1 minute/level, creature touched) and mass auspicious odds break enchantment (1
round/level, one creature per three levels); it names no school, so divination (luck) is assumed: no feat of the
party depends on it."""
