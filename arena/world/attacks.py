"""The attack models of a stat block: one kind of attack (:class:`Attack`: ``2 claws +9 melee (1d6+6)``) and a
routine of attacks made together (:data:`Routine`, SRD "and"), checked once at load time."""

from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, StrictBool, model_validator

from arena.rules.check_limits import MAX_MULTIPLIER
from arena.world.stat_types import (
    MAX_ATTACK_COUNT,
    MAX_ATTACKS_PER_ROUTINE,
    MAX_ITERATIVES,
    DamageDice,
    DamageType,
    DrOvercome,
    Frozen,
    Label,
    Modifier,
    Text,
    _int,
    _multiplier,
    _one_or_many,
    _threat,
)


class Attack(Frozen):
    """One kind of attack in a routine: ``2 claws +9 melee (1d6+6)`` is ``count=2, bonuses=[9]``."""

    name: Label
    bonuses: Annotated[
        tuple[Modifier, ...], BeforeValidator(_one_or_many), Field(min_length=1, max_length=MAX_ITERATIVES)
    ]
    """Total attack bonus of each iterative attack, e.g. greatclub +16/+11 -> [16, 11]. A plain int is accepted."""
    count: Annotated[int, _int(1, MAX_ATTACK_COUNT)] = 1
    """How many of these attacks at each bonus (2 claws -> 2)."""
    damage: DamageDice
    damage_types: Annotated[tuple[DamageType, ...], BeforeValidator(_one_or_many), Field(min_length=1)]
    """Types of the damage (a morningstar is bludgeoning and piercing)."""
    extra_damage: DamageDice | None = None
    """Damage added on a hit and not multiplied on a critical (e.g. 1d6 fire)."""
    extra_damage_type: DamageType | None = None
    threat: Annotated[int, BeforeValidator(_threat), _int(2, 20)] = 20
    """Lowest natural d20 roll that threatens a critical: 20, 19 (19-20) or 18 (18-20); "19-20" is accepted."""
    multiplier: Annotated[int, BeforeValidator(_multiplier), _int(2, MAX_MULTIPLIER)] = 2
    kind: Literal["melee", "ranged"] = "melee"
    touch: bool = False
    """Resolved against touch AC."""
    sneak_attack: DamageDice | None = None
    """Sneak attack dice added when the target is flat-footed or flanked."""
    trip: bool = False
    """On a hit the attacker may try to trip as a free action (wolf, dire wolf)."""
    trip_modifier: Modifier | None = None
    """Check modifier of that trip attempt, when the SRD gives one (wolf +1, dire wolf +11)."""
    materials: tuple[DrOvercome, ...] = ()
    """What the weapon counts as against damage reduction besides its damage types (``magic`` for a +1 weapon)."""
    finesse: StrictBool = False
    """Its attack roll uses the better of Dexterity and Strength (SRD 3.5 Weapon Finesse: "With a light weapon,
    rapier, whip, or spiked chain made for a creature of your size category, you may use your Dexterity modifier
    instead of your Strength modifier on attack rolls"; "Natural weapons are considered light weapons"): its
    ``bonuses`` already hold the better one, and lost Strength or Dexterity changes it as it changes that one."""
    harmless: StrictBool = False
    """It deals no hit-point damage (a shadow's incorporeal touch, an octopus's arms): a hit does only what the
    abilities riding on it do (ability damage, paralysis, a grab); ``damage`` is then not rolled (write 1)."""
    notes: Text = ""

    @model_validator(mode="after")
    def _extra_typed(self) -> "Attack":
        if self.extra_damage and not self.extra_damage_type:
            raise ValueError("extra_damage needs an extra_damage_type (e.g. fire)")
        if self.extra_damage_type and not self.extra_damage:
            raise ValueError("extra_damage_type given without extra_damage")
        if self.trip_modifier is not None and not self.trip:
            raise ValueError("trip_modifier given but trip is false")
        return self

    @property
    def threat_range(self) -> str:
        """``"19-20"`` or ``"20"``, as the SRD writes it."""
        return "20" if self.threat == 20 else f"{self.threat}-20"

    @property
    def attacks_per_routine(self) -> int:
        return self.count * len(self.bonuses)


def _non_empty(routine: tuple[Attack, ...]) -> tuple[Attack, ...]:
    if not routine:
        raise ValueError("an attack routine needs at least one attack")
    attacks = sum(a.attacks_per_routine for a in routine)
    if attacks > MAX_ATTACKS_PER_ROUTINE:
        raise ValueError(
            f"the routine makes {attacks} attacks (count x bonuses, all entries together); the limit "
            f"is {MAX_ATTACKS_PER_ROUTINE}"
        )
    return routine


Routine = Annotated[tuple[Attack, ...], AfterValidator(_non_empty)]
"""Attacks made together (SRD "and"). (Emptiness is checked after the items so that a bad item gives one error.)"""
