"""What one encounter reports: a flat, typed record, ready to become one pandas row.

Counters come in pairs, one per side (``_party`` / ``_monsters``), counting what that side *did* (its attacks,
its hits, its criticals), whoever physically rolled. The histogram ``hits_chance_<side>_<k>`` counts hits whose
exact chance of hitting lay in [k/10, (k+1)/10), so a later analysis can use any "lucky" threshold.
"""

from __future__ import annotations

from dataclasses import field, make_dataclass

SIDES = ("party", "monsters")
LUCKY_CHANCE = 0.25
"""Issue 4: a lucky hit is an attack that hit although its exact chance of hitting was 25% or less."""
LONG_SHOT_NATURAL = 16
"""A long shot, the die-invariant lucky hit (the study issue): a hit that needed a natural 16 or more on the
attack's static numbers (AC minus the attack modifier), a roll a d20 makes 25% of the time, whatever the die."""

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
)
"""Counted for each side; the name gets ``_party`` or ``_monsters`` appended."""

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
}
HISTOGRAM_BINS = 10


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
    return schema


SideTally = make_dataclass(
    "SideTally",
    [(name, int, 0) for name in PER_SIDE] + [("hist", list, field(default_factory=lambda: [0] * HISTOGRAM_BINS))],
    slots=True,
    repr=False,
    eq=False,
    namespace={"__module__": __name__},
)
SideTally.__doc__ = """The running counters of one side during a fight, one slot each (touched on every roll: a slot is
the fastest attribute to read and add to)."""


class EncounterRecord:
    """The result of one encounter."""

    __slots__ = (
        "winner",
        "rounds",
        "party_hp_lost",
        "pcs_down",
        "pcs_dead",
        "monsters_killed",
        "monsters_down",
        "item_damage_events",
        "penalties_at_end",
        "party",
        "monsters",
        "called_hits_by_part",
    )

    def __init__(self) -> None:
        self.winner = "draw"
        self.rounds = 0
        self.party_hp_lost = 0.0
        self.pcs_down = self.pcs_dead = self.monsters_killed = self.monsters_down = 0
        self.item_damage_events = 0
        self.penalties_at_end = 0
        self.party = SideTally()
        self.monsters = SideTally()
        self.called_hits_by_part: dict[str, int] = {}

    def tally(self, side: str) -> SideTally:
        return self.party if side == "pc" else self.monsters

    def as_row(self) -> dict:
        """One flat dict: str, int, float values only, keys as in :func:`record_schema`."""
        row = {name: getattr(self, name) for name in SCALARS}
        for name in PER_SIDE:
            row[f"{name}_party"] = getattr(self.party, name)
            row[f"{name}_monsters"] = getattr(self.monsters, name)
        for side, tally in (("party", self.party), ("monsters", self.monsters)):
            for k, count in enumerate(tally.hist):
                row[f"hits_chance_{side}_{k}"] = count
        row["called_hits_by_part"] = ",".join(f"{k}:{v}" for k, v in sorted(self.called_hits_by_part.items()))
        return row
