"""The spellbook: which spells exist for d20 Arena, with the SRD 3.5 facts a stat block, a policy and the engine
share (kind, area, save, spell resistance, mind-affecting).

Why here, in the world layer: a stat block names the spells it prepares, and validating those names must not need
the fight layer; what each spell *does* when cast lives there, in :mod:`arena.combat.spells`.
"""

from __future__ import annotations

from dataclasses import dataclass

AREA_CAPS = {
    "burst-20": 6,
    "burst-10": 3,
    "cone-15": 3,
    "cone-30": 4,
    "cone-40": 4,
    "cone-60": 5,
    "line": 3,
    "cylinder-10": 3,
    "cylinder-20": 6,
    "spread-40": 8,
    "wall": 4,
}
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
    only: str = ""
    """Monster spells: the creatures it can affect (``humanoid``, ``living``, ``animal``), else any."""
    max_hd: int = 0
    """Monster spells: creatures of more Hit Dice are not affected (0: no limit)."""


_FIRE, _COLD = frozenset({"fire"}), frozenset({"cold"})
MONSTER_SPELLS: tuple[Spell, ...] = (
    Spell("invisibility", "self", sr=False, school="illusion", reach="self", rounds_per_level=10),
    Spell("darkness", "zone", sr=False, school="evocation", rounds_per_level=100),
    Spell("fog cloud", "zone", sr=False, school="conjuration", rounds_per_level=100),
    Spell("obscuring mist", "zone", sr=False, school="conjuration", rounds_per_level=10),
    Spell(
        "charm person", "control", save="will", mind=True, school="enchantment", only="humanoid", rounds_per_level=600
    ),
    Spell("charm monster", "control", save="will", mind=True, school="enchantment", rounds_per_level=14400),
    Spell("suggestion", "control", save="will", mind=True, school="enchantment", rounds_per_level=600),
    Spell("daze", "control", save="will", mind=True, school="enchantment", only="humanoid", max_hd=4),
    Spell("cause fear", "control", save="will", mind=True, school="necromancy", only="living", max_hd=5),
    Spell("scare", "control", save="will", mind=True, school="necromancy", only="living", max_hd=5, rounds_per_level=1),
    Spell("hold monster", "control", save="will", mind=True, school="enchantment", only="living", rounds_per_level=1),
    Spell("deep slumber", "monster-area", "burst-10", "will", mind=True, school="enchantment", max_hd=10),
    Spell("ray of frost", "monster-ray", school="evocation", damage=_COLD),
    Spell("web", "monster-area", "burst-20", "ref", sr=False, school="conjuration", rounds_per_level=100),
    Spell("entangle", "monster-area", "burst-20", "ref", sr=False, school="transmutation", rounds_per_level=10),
    Spell("dispel magic", "dispel", sr=False, school="abjuration"),
    Spell("sound burst", "monster-area", "burst-10", "fort", school="evocation", damage=frozenset({"sonic"})),
    Spell("lullaby", "monster-area", "burst-10", "will", mind=True, school="enchantment", rounds_per_level=1),
    Spell("stinking cloud", "monster-area", "burst-20", "fort", sr=False, school="conjuration", only="living"),
    Spell("aid", "monster-buff", sr=False, school="enchantment", reach="one", rounds_per_level=10),
    Spell("neutralize poison", "monster-cure", sr=False, school="conjuration", reach="one"),
    Spell("acid arrow", "monster-ray", sr=False, school="conjuration", damage=frozenset({"acid"})),
    Spell("ray of enfeeblement", "monster-ray", school="necromancy"),
    Spell("faerie fire", "monster-area", "burst-10", school="evocation", rounds_per_level=10),
    Spell("blur", "self", sr=False, school="illusion", reach="self", rounds_per_level=10),
    Spell("command", "control", save="will", mind=True, school="enchantment"),
    Spell("gust of wind", "monster-area", "line", "fort", school="evocation"),
    Spell("chain lightning", "monster-bolt", save="ref", school="evocation", damage=frozenset({"electricity"})),
    Spell("call lightning", "monster-bolt", save="ref", school="evocation", damage=frozenset({"electricity"})),
    Spell("wind wall", "zone", sr=False, school="evocation", rounds_per_level=1),
)
"""Spells the engine casts for monsters only (no generated character prepares them), from the SRD 3.5 spell
descriptions; what each does is in :mod:`arena.combat.monster_spells`. Their kinds are the caster policy's
monster-only steps (``self``, ``zone``, ``control``, ``dispel``, ``monster-area``, ``monster-ray``,
``monster-buff``, ``monster-cure``, ``monster-bolt``), so a party's
decisions never look at them. ``rounds_per_level``: the duration (charm person and suggestion 1 hour/level, charm
monster 1 day/level, scare, hold monster and lullaby 1 round/level (lullaby: concentration + 1 round/level),
darkness, fog cloud and web 10 minutes/level, obscuring mist, invisibility and entangle 1 minute/level); daze
lasts 1 round and cause fear 1d4 rounds whatever the level."""
HIGH_LEVEL_SPELLS: tuple[Spell, ...] = (
    # wizard 6th-9th
    Spell("disintegrate", "single", save="fort", school="transmutation"),
    Spell("finger of death", "single", save="fort", school="necromancy", only="living"),
    Spell("delayed blast fireball", "area", "burst-20", "ref", school="evocation", damage=_FIRE),
    Spell("polar ray", "single", school="evocation", damage=_COLD),
    Spell("meteor swarm", "area", "spread-40", "ref", school="evocation", damage=frozenset({"fire", "bludgeoning"})),
    # cleric 5th-9th
    Spell("heal", "heal", sr=False, school="conjuration"),
    Spell("mass heal", "heal", sr=False, school="conjuration"),
    Spell("regenerate", "heal", sr=False, school="conjuration"),
    Spell("mass cure serious wounds", "heal", sr=False, school="conjuration"),
    Spell("mass cure critical wounds", "heal", sr=False, school="conjuration"),
    Spell("harm", "single", save="will", school="necromancy", only="living", damage=frozenset({"negative"})),
    Spell("destruction", "single", save="fort", school="necromancy", only="living"),
    Spell("blade barrier", "area", "wall", "ref", school="evocation", damage=frozenset({"slashing"})),
    Spell("fire storm", "area", "cylinder-20", "ref", school="evocation", damage=_FIRE),
)
"""The generated wizard's and cleric's spells of 6th to 9th level (the ``high-level-spells`` fix; what each does is
in :mod:`arena.combat.casting`). ``only="living"``: finger of death and destruction are death effects, harm is
negative energy that heals undead (:func:`arena.combat.tactics.spell_aim.can_affect`). Chain lightning (wizard
6th) is the monsters' spell of the same name (:data:`MONSTER_SPELLS`), cast by the party as an area spell.
Meteor swarm's 40-ft spreads catch up to eight creatures (``spread-40``); a blade barrier evoked where creatures
stand catches up to four (``wall``)."""
PARTY_ONLY = frozenset(spell.name for spell in HIGH_LEVEL_SPELLS)
"""Spells only the generated party casts: the importer reads them in a monster's text as ``ignored``, as before
they existed (13 SRD creatures have one, the solar's heal, the titan's and the pit fiend's meteor swarm ...: giving
it to them is a change of the bestiary, left for later)."""
SPELLS: dict[str, Spell] = {
    s.name: s
    for s in (
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
        *HIGH_LEVEL_SPELLS,
        *MONSTER_SPELLS,
    )
}
"""Schools and durations from the SRD 3.5 spell list; the bell-curve document's auspicious odds replaces
protection from energy (1 minute/level, creature touched) and mass auspicious odds break enchantment (1
round/level, one creature per three levels); it names no school, so divination (luck) is assumed: no feat of the
party depends on it."""
