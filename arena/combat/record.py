"""What one encounter reports: a flat, typed record, ready to become one pandas row.

Counters come in pairs, one per side (``_party`` / ``_monsters``), counting what that side *did* (its attacks,
its hits, its criticals), whoever physically rolled. The histogram ``hits_chance_<side>_<k>`` counts hits whose
exact chance of hitting lay in [k/10, (k+1)/10), so a later analysis can use any "lucky" threshold.
"""

from __future__ import annotations

from operator import attrgetter

SIDES = ("party", "monsters")
LUCKY_CHANCE = 0.25
"""Issue 4: a lucky hit is an attack that hit although its exact chance of hitting was 25% or less."""
LONG_SHOT_NATURAL = 16
"""A long shot, the die-invariant lucky hit (the study issue): a hit that needed a natural 16 or more on the
attack's static numbers (AC minus the attack modifier), a roll a d20 makes 25% of the time, whatever the die."""
LONG_SHOT_35_NATURAL = 14
LONG_SHOT_45_NATURAL = 12
"""The same at wider thresholds (issue 26): a natural 14+ (35% on a d20), 12+ (45%), so a report can put the
definitions side by side (``long_shot35_*``, ``long_shot45_*``)."""
LONG_SHOT_SAVE_NATURAL = 6
LONG_SHOT_35_SAVE_NATURAL = 8
LONG_SHOT_45_SAVE_NATURAL = 10
"""A save-based long shot (issue 26): a save against a spell or special attack that failed although the saver
needed only a natural 6 or less on its static numbers (DC minus the save bonus): a d20 fails it at most 25% of the
time (8 or less: 35%; 10 or less: 45%). Counted for the side whose effect got through (a poison, a gaze, a spell),
whatever the die."""

HISTOGRAM_BINS = 10


PER_SIDE = (
    "damage",
    "attacks",
    "hits",
    "crits",
    "auto_successes",
    "auto_failures",
    "critical_successes",
    "fumbles",
    "lucky_hits",
    "lucky_damage",
    "luck_pressed",
    "luck_pressed_successes",
    "called_shots",
    "called_hits",
    "spells_cast",
    "downs",
    "aoo_provoked",
    "weapons_lost",
    "saves_maximised",
    "saves_negated",
    "tough_through_saves",
    "tough_through_passed",
    "coups_de_grace",
    "long_shot_hits",
    "long_shot_damage",
    # issue 26: the long shots at wider thresholds and the save-based ones (count_long_shot, count_long_shot_save)
    "long_shot35_hits",
    "long_shot35_damage",
    "long_shot45_hits",
    "long_shot45_damage",
    "long_shot_saves",
    "long_shot35_saves",
    "long_shot45_saves",
)
"""Counted for each side (:class:`SideTally`'s counters), in the record's order; the name gets ``_party`` or
``_monsters`` appended. ``tests/combat/test_record.py`` holds it to the counters the class sets."""


class SideTally:
    """The running counters of one side during a fight, one typed field each (touched on every roll). Each counter
    but ``hist`` is a field of the record per side (:data:`PER_SIDE`). A plain class with its own ``__init__``: a
    dataclass's generated one stays interpreted under the compiled engine, and each fight makes two."""

    def __init__(self) -> None:
        self.damage = self.attacks = self.hits = self.crits = 0
        self.auto_successes = self.auto_failures = self.critical_successes = self.fumbles = 0
        self.lucky_hits = self.lucky_damage = self.luck_pressed = self.luck_pressed_successes = 0
        self.called_shots = self.called_hits = self.spells_cast = self.downs = 0
        self.aoo_provoked = self.weapons_lost = self.saves_maximised = self.saves_negated = 0
        self.tough_through_saves = self.tough_through_passed = self.coups_de_grace = 0
        self.long_shot_hits = self.long_shot_damage = 0
        self.long_shot35_hits = self.long_shot35_damage = self.long_shot45_hits = self.long_shot45_damage = 0
        self.long_shot_saves = self.long_shot35_saves = self.long_shot45_saves = 0
        self.hist: list[int] = [0] * HISTOGRAM_BINS
        """Hits by their exact chance of hitting, in tenths: the record's ``hits_chance_<side>_<k>``."""


def count_long_shot(tally: SideTally, needed: int, dealt: int) -> None:
    """A hit that needed a natural ``needed`` on its static numbers, with the damage it dealt: a long shot at each
    threshold it reaches (25%, 35%, 45% on a d20)."""
    if needed >= LONG_SHOT_45_NATURAL:
        tally.long_shot45_hits += 1
        tally.long_shot45_damage += dealt
        if needed >= LONG_SHOT_35_NATURAL:
            tally.long_shot35_hits += 1
            tally.long_shot35_damage += dealt
            if needed >= LONG_SHOT_NATURAL:
                tally.long_shot_hits += 1
                tally.long_shot_damage += dealt


def count_long_shot_save(tally: SideTally, needed: int) -> None:
    """A failed save whose saver needed a natural ``needed`` on its static numbers, counted for the side whose
    effect got through (``tally``): a save-based long shot at each threshold it reaches."""
    if needed <= LONG_SHOT_45_SAVE_NATURAL:
        tally.long_shot45_saves += 1
        if needed <= LONG_SHOT_35_SAVE_NATURAL:
            tally.long_shot35_saves += 1
            if needed <= LONG_SHOT_SAVE_NATURAL:
                tally.long_shot_saves += 1


SCALARS: dict[str, str] = {
    "winner": "string",
    "rounds": "int64",
    "party_hp_lost": "float64",
    "pcs_down": "int64",
    "pcs_dead": "int64",
    "monsters_killed": "int64",
    "monsters_down": "int64",
    "item_damage_events": "int64",
    "penalties_at_end": "int64",
    "pc_deaths_damage": "int64",
    "pc_deaths_massive": "int64",
    "pc_deaths_cdg": "int64",
    "pc_deaths_save": "int64",
    "pc_deaths_drain": "int64",
    "pc_removed_petrified": "int64",
    "pc_removed_swallowed": "int64",
    "pc_removed_condition": "int64",
}


DEATH_FIELDS = ("pc_deaths_damage", "pc_deaths_massive", "pc_deaths_cdg", "pc_deaths_save", "pc_deaths_drain")
"""PC deaths by cause, indexed by ``Combatant.death_cause - 1`` (:data:`arena.combat.states.DEATH_CAUSES`): they
sum to ``pcs_dead``."""
RESOURCES: dict[str, str] = {
    "spell_levels_spent_party": "int64",
    "spell_levels_available_party": "int64",
}
"""Issue 26, the party's spells as a resource: the sum of the levels of the prepared spells its PCs cast (a 0-level
spell counts 0; a slot is spent when the casting begins, so a spell a deafened or entangled caster loses counts),
and the sum of the levels of every spell they had prepared when the fight began (so a share can be computed). The
engine has no scrolls, wands or other charged items: every spell is cast from a prepared slot. Summoned allies are
not the party's: only the PCs who began the fight count. The last fields of a record, after the ones the published
study was computed from."""
REMOVED_FIELDS = ("pc_removed_petrified", "pc_removed_swallowed", "pc_removed_condition")
"""PCs alive at the end, with hit points left (0 or more, not knocked out by nonlethal damage), but out of the
fight under a condition: turned to stone, inside a monster, or another (paralysed, held, asleep, dazed for days,
charmed, panicked ...). They count in ``pcs_down``, not in ``pcs_dead``."""


def record_schema() -> dict[str, str]:
    """Every field of a record with its pandas dtype, in a stable order."""
    schema = dict(SCALARS)
    for name in PER_SIDE:
        for side in SIDES:
            schema[f"{name}_{side}"] = "int64"
    for side in SIDES:
        for k in range(HISTOGRAM_BINS):
            schema[f"hits_chance_{side}_{k}"] = "int64"
    schema["called_hits_by_part"] = "string"
    schema.update(RESOURCES)
    return schema


_FIELD_NAMES = tuple(record_schema())
_SCALAR_VALUES = attrgetter(*SCALARS)
_SIDE_VALUES = attrgetter(*PER_SIDE)


class EncounterRecord:
    """The result of one encounter."""

    def __init__(self) -> None:
        self.winner = "draw"
        self.rounds = 0
        self.party_hp_lost = 0.0
        self.pcs_down = self.pcs_dead = self.monsters_killed = self.monsters_down = 0
        self.item_damage_events = 0
        self.penalties_at_end = 0
        self.pc_deaths_damage = self.pc_deaths_massive = self.pc_deaths_cdg = 0
        self.pc_deaths_save = self.pc_deaths_drain = 0
        self.pc_removed_petrified = self.pc_removed_swallowed = self.pc_removed_condition = 0
        self.party = SideTally()
        self.monsters = SideTally()
        self.called_hits_by_part: dict[str, int] = {}
        self.spell_levels_spent_party = self.spell_levels_available_party = 0

    def tally(self, side: str) -> SideTally:
        return self.party if side == "pc" else self.monsters

    def as_row(self) -> dict[str, str | int | float]:
        """One flat dict: str, int, float values only, keys as in :func:`record_schema` (:meth:`values`, named)."""
        return dict(zip(_FIELD_NAMES, self.values(), strict=True))

    def values(self) -> tuple[str | int | float, ...]:
        """The values of :meth:`as_row` in the order of :func:`record_schema`, without its keys (what a worker
        writes into its column arrays: no dict and no key strings per encounter)."""
        party, monsters = _SIDE_VALUES(self.party), _SIDE_VALUES(self.monsters)
        return (
            *_SCALAR_VALUES(self),
            *[value for pair in zip(party, monsters, strict=True) for value in pair],
            *self.party.hist,
            *self.monsters.hist,
            ",".join(f"{k}:{v}" for k, v in sorted(self.called_hits_by_part.items())),
            self.spell_levels_spent_party,
            self.spell_levels_available_party,
        )


COMBATANT_SCHEMA: dict[str, str] = {
    "side": "string",
    "name": "string",
    "kind": "string",
    "went_down": "bool",
    "downs": "int64",
    "died": "bool",
    "hp_left": "int64",
    "hp_end": "int64",
    "hp_max": "int64",
    "damage_dealt": "int64",
}
"""One row per combatant of a fight (``fight(..., combatants=True)``), in the fight's order (the party, then whoever
joined its side, the monsters, then whoever joined theirs): ``side`` (``pc`` or ``monster``), ``name`` (its name in
the fight, ``Goblin 2``), ``kind`` (its stat block's name, ``Goblin``), ``went_down`` (it was out of the fight at
least once: dying, dead, unconscious, or held, asleep, paralysed, petrified, swallowed ..., the fight's own sense of
able), ``downs`` (how many times), ``died``, ``hp_left`` (hit points left as ``party_hp_lost`` counts them: 0 for
the dead and the dying), ``hp_end`` (its hit points at the end as the fight has them, negative while dying),
``hp_max``, ``damage_dealt`` (hit points, lethal and nonlethal, its attacks, spells and abilities took from anyone,
after their defences and temporary hit points)."""

CombatantRow = tuple[str, str, str, bool, int, bool, int, int, int, int]
"""A row of :data:`COMBATANT_SCHEMA`'s values, in its order."""
