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


SPELLS: dict[str, Spell] = {s.name: s for s in (
    Spell("magic missile", "single"),
    Spell("sleep", "area", "burst-10", "will", mind=True),
    Spell("color spray", "area", "cone-15", "will", mind=True),
    Spell("scorching ray", "single"),
    Spell("hold person", "single", save="will", mind=True),
    Spell("fireball", "area", "burst-20", "ref"),
    Spell("lightning bolt", "area", "line", "ref"),
    Spell("ice storm", "area", "cylinder-20"),
    Spell("cone of cold", "area", "cone-60", "ref"),
    Spell("flame strike", "area", "cylinder-10", "ref"),
    Spell("searing light", "single"),
    Spell("cure light wounds", "heal", sr=False),
    Spell("cure moderate wounds", "heal", sr=False),
    Spell("cure serious wounds", "heal", sr=False),
    Spell("cure critical wounds", "heal", sr=False),
    Spell("bless", "buff", sr=False),
    Spell("shield of faith", "buff", sr=False),
    Spell("auspicious odds", "buff", sr=False),
    Spell("mass auspicious odds", "buff", sr=False),
)}

