"""Stat-block models: what a creature *is*, checked once at load time so the combat engine can trust it.

A stat block is written in YAML (see ``docs/bestiary.md``) with the field names below. The models are
frozen (a creature is a value shared by thousands of simulated fights) and ``extra="forbid"`` (a typo is an
error, not a silently ignored field). Dice expressions are kept as text, checked with
:func:`arena.dice.parse`; the engine parses them again (cheaply) where it rolls them.

Conventions follow the SRD 3.5 stat block: ``attack`` holds the routines usable with a standard action,
``full_attack`` the full-attack routines; each is a list of alternative routines (SRD "or"), each routine a
list of attacks made together (SRD "and").
"""

import builtins
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StrictBool,
    model_validator,
)

from arena.dice import parse as parse_dice
from arena.errors import ArenaError, one_of
from arena.limits import MAX_MODIFIER, MAX_NAME_LENGTH, MAX_SIDES
from arena.rules.kernel import MAX_MULTIPLIER
from arena.world import ability_fields
from arena.world.policy_names import policy_name
from arena.world.spellbook import SPELLS
from arena.world.stat_types import (
    CR,
    CR_FRACTIONS,
    DAMAGE_TYPES,
    MAX_ABILITY_SCORE,
    MAX_AMOUNT,
    MAX_ATTACK_COUNT,
    MAX_ATTACKS_PER_ROUTINE,
    MAX_FEET,
    MAX_HP,
    MAX_ITERATIVES,
    MAX_PART_AC_BONUS,
    MAX_PART_COUNT,
    MAX_ROUTINES,
    MAX_TEXT_LENGTH,
    SIZES,
    SUBTYPE_IMMUNITIES,
    SUBTYPE_VULNERABILITIES,
    TYPE_IMMUNITIES,
    Ability,
    AbilityScore,
    CreatureType,
    DamageDice,
    DamageType,
    DiceText,
    DrOvercome,
    Effect,
    EnergyType,
    Frozen,
    HitDice,
    Immunity,
    Label,
    Modifier,
    PartName,
    RoundsDice,
    SaveKind,
    Size,
    SpellLevel,
    Text,
    _int,
    _multiplier,
    _one_or_many,
    _threat,
    cr_text,
    parse_cr,
)


# --------------------------------------------------------------------------------------------- attacks
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


# --------------------------------------------------------------------------------------------- special qualities
class Rend(Frozen):
    """Extra damage when both attacks named ``attack`` hit in one round (troll: 2d6+9 if both claws hit)."""

    damage: DamageDice
    attack: Label = "claw"
    hits_needed: Annotated[int, _int(2, MAX_ATTACKS_PER_ROUTINE)] = 2


class AbilityLoss(Frozen):
    """Points of one ability score lost (``1d6`` of ``con``): ability damage, or drain when ``drain``."""

    dice: DamageDice
    ability: Ability
    drain: StrictBool = False
    """Drain rather than damage: the same in a fight (it does not heal there either); what immunities apply."""


class FrightfulPresence(Frozen):
    """Frightful presence (SRD 3.5): when the creature first attacks, each foe of fewer Hit Dice makes a Will save
    (``dc``) or is panicked (4 HD or fewer) or shaken (more) for 4d6 rounds."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    duration: RoundsDice = "4d6"


class BreathEffect(Frozen):
    """A breath weapon that does not deal damage (SRD 3.5 metallic dragons: sleep, paralysis, slow, fear,
    weakening gas): a cone or line; each creature caught saves (``save``, ``dc``) or suffers ``effect`` for
    ``rounds`` (``weakness``: the ability ``loss``). It shares the damaging breath's recharge; the creature
    alternates the two, the effect first."""

    shape: Literal["cone", "line"]
    length_ft: Annotated[int, _int(1, MAX_FEET)]
    effect: Literal["sleep", "paralysis", "slow", "fear", "weakness", "petrify", "repulsion"]
    """``petrify``: turned to stone for good (the gorgon's); ``repulsion``: compelled to move away (the bronze
    dragon's): out of the fight for ``rounds``, like a panicked creature."""
    save: SaveKind = "will"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "1d6"
    loss: AbilityLoss | None = None
    recharge: RoundsDice = "1d4"
    """Rounds before it can be used again when the creature has no damaging breath (the gorgon's: 1d4)."""


class Stench(Frozen):
    """Stench (SRD 3.5 troglodyte): at the start of the fight every living foe saves (Fortitude ``dc``) or is
    sickened (-2 on attack rolls, weapon damage, saves and checks) for ``rounds``."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "10"
    nauseates: StrictBool = False
    """The hezrou's: "Any living creature ... within 10 feet must succeed on a DC 24 Fortitude save or be nauseated
    for as long as it remains within the affected area ... Creatures that successfully save are sickened for as long
    as they remain in the area": the foes in melee with it (within 10 feet), nauseated (no actions but a move: out
    of the fight, not helpless) or sickened, for the fight."""


class Trample(Frozen):
    """Trample (SRD 3.5): instead of its attacks, it runs over its foes (those smaller than itself): each takes
    ``damage`` (Reflex ``dc`` for half)."""

    damage: DamageDice
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    damage_types: tuple[DamageType, ...] = ("bludgeoning",)


class Web(Frozen):
    """Web (SRD 3.5 monstrous spider): a ranged touch attack (``uses`` times a fight) that entangles its target
    (-2 on attack rolls, -4 Dexterity: -2 AC); the entangled creature spends its turn bursting free (a Strength
    check against ``burst_dc``) before it can do anything else."""

    burst_dc: Annotated[int, _int(1, MAX_MODIFIER)]
    uses: Annotated[int, _int(1, 100)] = 8


class Summon(Frozen):
    """Summon (SRD 3.5 demons, devils and mephits: "Once per day a dretch can attempt to summon another dretch with a
    35% chance of success"): as a standard action, ``uses`` times a fight, it tries; with ``chance`` (rolled on the
    fight's stream) ``count`` ``creature``s of the bestiary join its side at the start of the next round, acting
    right after it. A summoned creature cannot summon in turn (the SRD's mephit: not for an hour)."""

    creature: Label
    count: RoundsDice = "1"
    chance: Annotated[float, Field(gt=0, le=1)]
    uses: Annotated[int, _int(1, 10)] = 1


class Whirlwind(Frozen):
    """Whirlwind (SRD 3.5 air elemental, djinni): once a fight it becomes a whirlwind for ``rounds`` rounds, making no
    other attack. On each of its turns in that form every foe one or more sizes smaller that it is not yet carrying
    makes a Reflex save (``dc``) or takes ``damage``, then a second one or is caught: carried in the winds, it takes
    ``held_damage`` on each of the whirlwind's turns and -2 on attack rolls and -4 Dexterity (-2 AC) until the form
    ends. Which foes the whirlwind reaches each round is abstract (all the smaller ones)."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    damage: DamageDice
    held_damage: DamageDice
    rounds: RoundsDice


class Crush(Frozen):
    """Crush (SRD 3.5 dragons of Huge size and up): as a standard action it lands on the foes ``smaller_by`` or more
    size categories smaller than itself: each makes a Reflex save (``dc``, the breath weapon's) or takes ``damage``
    (pinned: the SRD's damage "during the next round" is dealt at once, and keeping the pin is not modelled)."""

    damage: DamageDice
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    smaller_by: Annotated[int, _int(1, 8)] = 3


class Engulf(Frozen):
    """Engulf (SRD 3.5 gelatinous cube: "can simply mow down Large or smaller creatures as a standard action ...
    must succeed on a DC 13 Reflex save or be engulfed ... Engulfed creatures are subject to the cube's paralysis and
    acid, and are considered to be grappled and trapped within its body"): instead of its slam, while a foe of
    ``max_size`` or smaller is outside it; those inside are out of the fight, take ``damage`` of ``damage_type`` and
    save against its paralysis on each of its turns, until it drops (escaping is not modelled)."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    max_size: Size = "large"
    damage: DamageDice
    damage_type: DamageType = "acid"


class Aura(Frozen):
    """An effect of the creature's presence, on its first action (like frightful presence): every able foe saves
    (``save``, ``dc``) once or suffers ``effect``. ``panic``: the yeth hound's bay (panicked for ``rounds``);
    ``weakness``: the sea hag's horrific appearance (the ability ``loss``); ``paralysis``: the mummy's despair
    ("paralyzed with fear for 1d4 rounds"); ``menace``: the archons' aura of menace (-2 on attack rolls, AC and
    saves, here for the fight: hitting the archon, which the SRD says ends it, is not modelled); ``captivate``: the
    harpy's captivating song (each foe saves once; a captivated one can do nothing and offers no resistance, for as
    long as the creature sings: the song goes on on each of its turns while it can act, and ends 1 round after)."""

    effect: Literal["paralysis", "menace", "captivate", "panic", "weakness"]
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "will"
    rounds: RoundsDice = "1"
    loss: AbilityLoss | None = None
    """``weakness``: the ability damage a failed save costs (the sea hag's horrific appearance: 2d6 Strength)."""


class Glance(Frozen):
    """A look at one foe as a standard action (SRD 3.5 nymph's stunning glance: "stun a creature within 30 feet with
    a look ... DC 17 Fortitude save or be stunned for 2d4 rounds"; sea hag's evil eye: "Three times per day ... DC 13
    Will save or be dazed for three days ... In addition, an affected creature must succeed on a DC 13 Fortitude
    save or die from fright"): ``uses`` a fight (None: at will), at a foe it has not yet affected."""

    effect: Literal["stun", "daze"]
    save: SaveKind = "fort"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "1"
    uses: Annotated[int, _int(1, 100)] | None = None
    fright_dc: Annotated[int, _int(1, MAX_MODIFIER)] | None = None
    """A second save, Fortitude, against death from fright for a foe the glance affects (the sea hag's)."""


class Burst(Frozen):
    """A burst of its own about it, ``uses`` times a fight as a standard action (SRD 3.5 nalfeshnee's smite: "a
    nimbus of unholy light ... burst in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will
    save or be dazed for 1d10 rounds ... can take no actions"): every able foe saves or is dazed (out of the fight,
    not helpless) for ``rounds``. The SRD's round of delay before the burst is left out."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "will"
    rounds: RoundsDice = "1d10"
    uses: Annotated[int, _int(1, 10)] = 3


class Roar(Frozen):
    """Roar (SRD 3.5 dragonne: "every 1d4 rounds. All creatures ... within 120 feet must succeed on a DC 15 Will
    save or become fatigued. Those within 30 feet who fail their saves become exhausted"): a standard action when it
    is ready; the foes in melee are the ones within 30 feet. Fatigued: -2 Strength and Dexterity; a fatigued
    creature fatigued again, or exhausted: -6."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "will"
    recharge: RoundsDice = "1d4"


class Smoke(Frozen):
    """Smoke (SRD 3.5 nightmare: a 15-foot cone of "hot, sulfurous smoke ... DC 16 Fortitude save or take a -2
    penalty on all attack and damage rolls until 1d6 minutes after leaving the cone ... once as a free action during
    its turn each round"): at the start of each of its turns the foes a ``length_ft`` cone catches save or choke (for
    the fight: it stays near them)."""

    length_ft: Annotated[int, _int(1, MAX_FEET)] = 15
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "fort"


class Entangle(Frozen):
    """Entangle (SRD 3.5 assassin vine: "can animate plants within 30 feet of itself as a free action (Ref DC 13
    partial)", as the entangle spell): at the start of each of its turns every foe not entangled makes a Reflex save
    or is entangled (-2 on attack rolls, -4 Dexterity) and spends its turns bursting free (a Strength check against
    ``burst_dc``, the spell's 20)."""

    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    burst_dc: Annotated[int, _int(1, MAX_MODIFIER)] = 20


class EyeRay(Frozen):
    """One ray of a set of eye rays: ``damage`` of ``damage_type`` (``save`` for half), or ``petrify`` (``save``
    negates)."""

    name: Label
    effect: Literal["damage", "petrify"] = "damage"
    damage: DamageDice | None = None
    damage_type: DamageType | None = None
    save: SaveKind = "ref"


class EyeRays(Frozen):
    """Eye rays (SRD 3.5 retriever: "Each round, it can fire one ray as a free action. A particular ray is usable
    only once every 4 rounds ... The save DC for all rays is 18"): at the start of each of its turns it fires the
    next ray that is ready at a foe (a ranged touch attack at ``bonus``), besides its attacks."""

    bonus: Modifier
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rays: Annotated[tuple[EyeRay, ...], Field(min_length=1, max_length=10)]
    every: Annotated[int, _int(1, 100)] = 4


class Smite(Frozen):
    """Smite (SRD 3.5: "Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18
    points of damage against a good foe"): its first attack in melee is the smite, with ``damage`` extra on a hit.
    The model has no alignments: the party counts as good, so a smite good always applies (a smite evil never)."""

    against: Literal["good", "evil"]
    damage: Annotated[int, _int(1, MAX_AMOUNT)]
    uses: Annotated[int, _int(1, 10)] = 1


class BreathWeapon(Frozen):
    """A breath weapon: a cone or line, save for half, usable again after ``recharge`` rounds."""

    shape: Literal["cone", "line"]
    length_ft: Annotated[int, _int(1, MAX_FEET)]
    damage: DamageDice
    damage_type: DamageType
    save: SaveKind = "ref"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    recharge: RoundsDice = "1d4"
    """Rounds before it can be used again (SRD dragons: 1d4 rounds)."""
    half_on_save: bool = True
    """A successful save halves the damage; False: it negates it (the giant bombardier beetle's acid spray)."""


def _parse_dr(value: Any) -> Any:
    """``"5/silver"``, ``"10/magic"``, ``"5/-"`` -> mapping form."""
    if isinstance(value, str):
        amount, sep, rest = value.partition("/")
        amount, rest = amount.strip(), rest.strip()
        if not sep or not amount.isascii() or not amount.isdigit():
            raise ValueError(f"damage reduction {value[:40]!r} is not like 5/silver or 5/-")
        if len(amount) > 9:
            raise ValueError(f"damage reduction {value[:40]!r}: the amount is beyond the limit of {MAX_AMOUNT}")
        if not rest:
            raise ValueError(
                f"damage reduction {value[:40]!r} names nothing after '/': write 5/- for damage "
                "reduction that nothing overcomes, or 5/silver"
            )
        every = " and " in rest
        overcome = (
            []
            if rest in ("-", "—")
            else [p.strip() for p in rest.replace(" or ", ",").replace(" and ", ",").split(",")]
        )
        return {"amount": int(amount), "overcome_by": overcome, **({"all_needed": True} if every else {})}
    return value


class DamageReduction(Frozen):
    """DR amount/what overcomes it; any one item in ``overcome_by`` bypasses it, empty means DR x/-; with
    ``all_needed`` only a weapon that is all of them does (SRD 3.5 lantern archon: DR 10/evil and magic).

    Text such as ``5/bludgeoning``, ``10/magic`` or ``10/evil and magic`` is accepted.
    """

    amount: Annotated[int, _int(1, MAX_AMOUNT)]
    overcome_by: tuple[DrOvercome, ...] = ()
    all_needed: StrictBool = False

    def __str__(self) -> str:
        return f"{self.amount}/{(' and ' if self.all_needed else ' or ').join(self.overcome_by) or '-'}"


RegenerationOvercome = Literal[tuple(dict.fromkeys(DAMAGE_TYPES + DrOvercome.__args__))]
"""A damage type or a material (one list, so that a typo gets one message naming every choice)."""


class Regeneration(Frozen):
    """Regeneration: damage is nonlethal and heals ``amount`` per round, except damage of the listed types
    (troll: fire and acid deal normal damage)."""

    amount: Annotated[int, _int(1, MAX_AMOUNT)]
    overcome_by: tuple[RegenerationOvercome, ...] = Field(min_length=1)
    """Damage types (fire, acid) or materials (silver, good) that deal normal damage."""


PreparedSpell = Annotated[str, AfterValidator(one_of("spell", SPELLS, "; list only the spells the engine casts"))]


class Spellcasting(Frozen):
    """What a caster can cast: caster level, casting ability and spells prepared by spell level."""

    caster_level: Annotated[int, _int(1, MAX_MODIFIER)]
    ability: Ability
    casting_class: Label | None = None
    prepared: dict[SpellLevel, tuple[PreparedSpell, ...]] = Field(default_factory=dict)
    """Spell level -> names of the prepared spells (a spell prepared twice is listed twice); only the spells the
    engine casts (:data:`arena.combat.spells.SPELLS`): a misspelt one would silently never be cast."""
    domains: tuple[Label, ...] = ()


# --------------------------------------------------------------------------------------------- called shots
PART_AC_DEFAULTS: dict[str, int] = {
    "hand": 4,  # "Hand (usually AC +4)"
    "arm": 2,  # "Arm (usually AC +2)"
    "head": 4,  # "Head (usually AC +4)"
    "eye": 8,  # "One eye (usually AC +8)"
    "ear": 8,  # "One ear (usually AC +8)"
    "crotch": 6,  # "Crotch (usually AC +6)"
    "foot": 2,  # "Foot/Leg/Wing/Tail (usually AC +2)"
    "leg": 2,
    "wing": 2,
    "tail": 2,
}
"""Improved-AC bonus of each body part, the "usually" values of Table: Called Shots and Effects."""


def improved_ac_bonus(fraction: Fraction | float | str) -> int:
    """Improved-AC bonus of a body part from its size as a fraction of the creature (called-shot table note 1).

    "AC +16 = smaller than one thirty-second its size, +8 = smaller than one sixteenth, +4 = smaller than one
    eighth, +2 = smaller than one quarter, +1 = smaller than one half"; "If a body part is larger than half of
    its size, the body part is too large for you to make a called shot against it" (an error here). A part of
    exactly one half is in neither band: it can be called at +0.
    """
    try:
        f = Fraction(fraction) if not isinstance(fraction, float) else Fraction(fraction).limit_denominator(1024)
    except (ValueError, ZeroDivisionError):
        raise ArenaError(f"body-part size {fraction!r} is not a fraction like 1/8") from None
    if f <= 0:
        raise ArenaError(f"body-part size {fraction!r} must be more than 0")
    if f > Fraction(1, 2):
        raise ArenaError(f"a body part of {f} of the creature's size is larger than half: it cannot be called")
    for limit, bonus in (
        (Fraction(1, 32), 16),
        (Fraction(1, 16), 8),
        (Fraction(1, 8), 4),
        (Fraction(1, 4), 2),
        (Fraction(1, 2), 1),
    ):
        if f < limit:
            return bonus
    return 0


class BodyPart(Frozen):
    """A part a called shot can target: how many the creature has and its improved-AC bonus.

    Give ``ac_bonus`` directly, or ``size_fraction`` (its size relative to the creature) to compute it with
    :func:`improved_ac_bonus`; with neither the table's "usually" value is used.
    """

    part: PartName
    count: Annotated[int, _int(1, MAX_PART_COUNT)] = 1
    ac_bonus: Annotated[int, _int(0, MAX_PART_AC_BONUS)] | None = None
    size_fraction: Annotated[str, Field(strict=True, max_length=32)] | None = None

    @model_validator(mode="after")
    def _bonus(self) -> "BodyPart":
        if self.size_fraction is not None:
            try:
                bonus = improved_ac_bonus(self.size_fraction)
            except ArenaError as err:
                raise ValueError(str(err)) from None
            if self.ac_bonus is not None and self.ac_bonus != bonus:
                raise ValueError(
                    f"ac_bonus {self.ac_bonus} contradicts size_fraction {self.size_fraction} (which gives +{bonus})"
                )
            object.__setattr__(self, "ac_bonus", bonus)
        elif self.ac_bonus is None:
            object.__setattr__(self, "ac_bonus", PART_AC_DEFAULTS[self.part])
        return self


_HUMANOID_BODY = (("hand", 2), ("arm", 2), ("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 2), ("leg", 2))
_QUADRUPED_BODY = (("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 4), ("leg", 4), ("tail", 1))
_DRAGON_BODY = (("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 4), ("leg", 4), ("wing", 2), ("tail", 1))
BODY_BY_TYPE: dict[str, tuple[tuple[str, int], ...]] = {
    "humanoid": _HUMANOID_BODY,
    "giant": _HUMANOID_BODY,
    "monstrous humanoid": _HUMANOID_BODY,
    "undead": _HUMANOID_BODY,
    "outsider": _HUMANOID_BODY,
    "fey": _HUMANOID_BODY,
    "construct": _HUMANOID_BODY,
    "animal": _QUADRUPED_BODY,
    "magical beast": _QUADRUPED_BODY,
    "vermin": (("head", 1), ("eye", 2), ("leg", 6)),
    "dragon": _DRAGON_BODY,
    # oozes, plants, elementals, aberrations: no default parts ("an ooze almost never does" have arms);
    # list them in the stat block if they have some.
}
"""Default body parts by creature type (a guess at the usual body plan; override with ``body_parts``)."""


# --------------------------------------------------------------------------------------------- imported stat blocks
EngineStatus = Literal["modelled", "ignored", "no effect"]
"""What the fight engine does with a special ability: ``modelled`` (a stat-block field the engine fights with carries
it), ``ignored`` (it matters in a fight and the engine does not do it yet) or ``no effect`` (senses, skills,
languages and the like: nothing an arena fight would use)."""

ImportNoteKind = Literal["unread", "guess", "changed", "discrepancy"]
"""``unread``: the importer could not read the text (the field has a default or was left out); ``guess``: read, but
with a guess (a damage type, a weapon, a missing number); ``changed``: rewritten to fit the model with the same
effect (``1d2-4`` is ``1``: the SRD minimum of 1 on a hit); ``discrepancy``: the SRD block disagrees with itself
(hp against hit dice, AC against its components ...); the block keeps the SRD's stated number."""


class SpecialAbility(Frozen):
    """One special attack or special quality of an imported SRD stat block, and whether the engine models it."""

    name: Label
    """As the block writes it (``Improved grab``, ``Poison``)."""
    key: Label
    """The ability it is an instance of, lowercase (``improved grab``, ``breath weapon (sleep)``): what coverage
    counts are grouped by."""
    kind: Literal["attack", "quality"]
    """From ``Special Attacks`` or ``Special Qualities`` (or an attack's rider, such as ``plus poison``)."""
    engine: EngineStatus
    text: Text = ""
    """The SRD's words for it (the cell entry, and the start of its description when the block has one)."""
    save: SaveKind | None = None
    dc: Annotated[int, _int(1, MAX_MODIFIER)] | None = None
    damage: DiceText | None = None
    amount: Annotated[int, _int(0, MAX_HP)] | None = None
    """A number the ability carries (DR 10, regeneration 5, telepathy 100 ft.)."""
    notes: Text = ""
    """How the engine models it, or what it leaves out."""


class ImportNote(Frozen):
    """A field the SRD importer could not read, read with a guess, rewrote, or found in disagreement with itself."""

    kind: ImportNoteKind
    field: Label
    """The SRD field (``Full Attack``, ``Armor Class``)."""
    line: Annotated[int, _int(1, 10_000_000)] | None = None
    """Line of the source file the text is on."""
    text: Text = ""
    """The SRD text concerned."""
    message: Text
    """What was done about it."""


ImportStatus = Literal["clean", "guessed", "unread"]
"""An imported block's worst note: ``unread`` (some text not read), ``guessed`` (some read with a guess) or
``clean``."""


def import_status_of(notes: tuple[ImportNote, ...]) -> ImportStatus:
    """``unread`` if a note is, else ``guessed`` if a note is a guess, else ``clean``."""
    kinds = {n.kind for n in notes}
    return "unread" if "unread" in kinds else "guessed" if "guess" in kinds else "clean"


# --------------------------------------------------------------------------------------------- the creature
class Abilities(Frozen):
    """Ability scores; ``con``/``int`` are null for nonabilities (undead have no Con, mindless no Int)."""

    str: AbilityScore = 10
    dex: AbilityScore = 10
    con: AbilityScore = 10
    int: AbilityScore = 10
    wis: AbilityScore = 10
    cha: AbilityScore = 10

    def modifier(self, ability: Ability) -> builtins.int:
        """(score - 10) // 2; a nonability gives +0."""
        score = getattr(self, ability)
        return 0 if score is None else (score - 10) // 2


class Saves(Frozen):
    """Total save bonuses."""

    fort: Modifier
    ref: Modifier
    will: Modifier


class Creature(Frozen):
    """One stat block: a monster from the bestiary, a typical monster of a CR, or a generated PC."""

    name: Label
    """Short key, lowercase with hyphens for the bestiary (``dire-wolf``)."""
    title: Label | None = None
    """Full SRD name for display (``Dire Wolf``)."""
    side: Literal["pc", "monster"] = "monster"
    size: Size = "medium"
    type: CreatureType
    subtypes: tuple[Label, ...] = ()
    cr: CR | None = None
    """Challenge rating; required for monsters."""
    class_levels: dict[Label, Annotated[int, _int(1, 20)]] = Field(default_factory=dict)
    hp: Annotated[int, _int(1, MAX_HP)]
    """Hit points (SRD average, or a fixed total)."""
    hit_dice: HitDice
    first_hit_die: Annotated[int, _int(2, MAX_SIDES)] | None = None
    """Size of the first hit die (called-shot "severe" damage); default: the first die of ``hit_dice``."""
    initiative: Modifier = 0
    speed: Annotated[int, _int(0, MAX_FEET)] = 30
    """Land speed in feet."""
    space_ft: Annotated[int, _int(1, MAX_FEET)] = 5
    reach_ft: Annotated[int, _int(0, MAX_FEET)] = 5
    ac: Modifier
    touch_ac: Modifier
    flat_footed_ac: Modifier
    deflection: Annotated[int, _int(0, MAX_MODIFIER)] = 0
    """The deflection bonus already counted in ``ac`` and ``touch_ac`` (a ring of protection): deflection bonuses
    do not stack, so *shield of faith* adds only what it gives beyond this (SRD 3.5, "Combining Magical
    Effects")."""
    bab: Annotated[int, _int(0, MAX_MODIFIER)]
    grapple: Modifier
    abilities: Abilities = Abilities()
    saves: Saves
    attack: Annotated[tuple[Routine, ...], Field(max_length=MAX_ROUTINES)] = ()
    """Standard-action routines (alternatives)."""
    full_attack: Annotated[tuple[Routine, ...], Field(max_length=MAX_ROUTINES)] | None = None
    """Full-attack routines (alternatives); default: the same as ``attack``."""
    feats: tuple[Label, ...] = ()
    rend: Rend | None = None
    breath_weapon: BreathWeapon | None = None
    pounce: StrictBool = False
    """Pounce (SRD 3.5): a full attack at the end of a charge, so a melee creature full-attacks as it closes in."""
    ferocity: StrictBool = False
    """Ferocity (SRD 3.5): fights on without penalty while disabled or dying (it still loses a hit point a round)."""
    frightful_presence: FrightfulPresence | None = None
    rake: Attack | None = None
    """Rake (SRD 3.5): these extra attacks in a full attack at the end of a pounce, and each turn it holds a foe."""
    rage: StrictBool = False
    """Rage (SRD 3.5, dire badger and the like): once hurt, +4 Strength, +4 Constitution and -2 AC for the fight."""
    rage_strength: Annotated[int, _int(2, 8)] = 4
    """The Strength and Constitution its rage adds: +4 (+2 on melee attack and damage rolls, +2 hit points per Hit
    Die), or a sahuagin's blood frenzy's +2 (+1 and +1)."""
    web: Web | None = None
    breath_effect: BreathEffect | None = None
    stench: Stench | None = None
    trample: Trample | None = None
    powerful_charge: Attack | None = None
    """Powerful charge (SRD 3.5 minotaur): the single attack it makes as it closes in (round 1), with the charge's
    +2."""
    incorporeal: StrictBool = False
    """Incorporeal (SRD 3.5): only magic weapons, spells and other incorporeal creatures harm it, and those have a
    50% chance to do nothing (force and positive energy always work)."""
    summon: Summon | None = None
    whirlwind: Whirlwind | None = None
    crush: Crush | None = None
    aura: Aura | None = None
    roar: Roar | None = None
    smoke: Smoke | None = None
    entangle: Entangle | None = None
    eye_rays: EyeRays | None = None
    smite: Smite | None = None
    glance: Glance | None = None
    engulf: Engulf | None = None
    invisible: StrictBool = False
    """Always invisible, even when it attacks (SRD 3.5 invisible stalker's natural invisibility, phantom fungus's
    greater invisibility, hellcat's invisibility in light): total concealment (a 50% miss chance) for the fight."""
    burst: Burst | None = None
    lay_on_hands: Annotated[int, _int(1, MAX_HP)] | None = None
    """Lay on hands (SRD 3.5 avoral, leonal: "each day ... can heal an amount of damage equal to its full normal hit
    points"): the hit points it can heal itself in a fight, as a standard action once it is below half."""
    quickness: StrictBool = False
    """Quickness (SRD 3.5 choker): "It can take an extra standard action or move action during its turn each round":
    an extra standard attack on each of its turns."""
    split: tuple[DamageType, ...] = ()
    """Split (SRD 3.5 ochre jelly, black pudding): damage of these types deals none, and splits it in two of half
    its hit points each, while it has more than 10 (its immunities hold the types too)."""
    evasion: StrictBool = False
    """Evasion (SRD 3.5): a successful Reflex save against damage that a save halves takes none."""
    damage_reduction: Annotated[DamageReduction | None, BeforeValidator(_parse_dr)] = None
    regeneration: Regeneration | None = None
    fast_healing: Annotated[int, _int(0, MAX_AMOUNT)] = 0
    spell_resistance: Annotated[int, _int(0, MAX_MODIFIER)] = 0
    energy_resistance: dict[EnergyType, Annotated[int, _int(1, MAX_AMOUNT)]] = Field(default_factory=dict)
    immunities: tuple[Immunity, ...] = ()
    """Immunities beyond those of the type and subtypes (see :attr:`all_immunities`)."""
    vulnerabilities: tuple[DamageType, ...] = ()
    spellcasting: Spellcasting | None = None
    body_parts: tuple[BodyPart, ...] | None = None
    """Called-shot targets; default from the creature type (:data:`BODY_BY_TYPE`)."""
    tactics: Annotated[str, Field(strict=True, max_length=MAX_NAME_LENGTH), AfterValidator(policy_name)] = (
        "focus-weakest"
    )
    """Name of the default tactics policy (a policy of your own is checked once its file has run: see
    :mod:`arena.world.policy_names`)."""
    notes: Text = ""
    source: Text = ""
    special_abilities: tuple[SpecialAbility, ...] = ()
    """Special attacks and qualities of an imported SRD block, each with the engine's status (empty for the
    hand-written blocks, whose fields say what they model)."""
    import_status: ImportStatus | None = None
    """Set on blocks written by ``arena bestiary import``: the worst of ``import_notes`` (clean if none)."""
    import_notes: tuple[ImportNote, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> "Creature":
        if self.side == "monster" and self.cr is None:
            raise ValueError("a monster needs a cr (challenge rating)")
        if self.first_hit_die is None:
            dice = parse_dice(self.hit_dice).dice
            object.__setattr__(self, "first_hit_die", dice[0][2] if dice else 8)
        if self.full_attack is None:
            object.__setattr__(self, "full_attack", self.attack)
        if self.rend is not None:
            needed = self.rend.hits_needed
            if not any(
                sum(a.attacks_per_routine for a in routine if a.name == self.rend.attack) >= needed
                for routine in self.full_attack
            ):
                raise ValueError(f"rend needs a full-attack routine with {needed} {self.rend.attack!r} attacks")
        if self.touch_ac > self.ac + 10 or self.flat_footed_ac > self.ac + 10:
            raise ValueError("touch_ac/flat_footed_ac look wrong (more than 10 above ac)")
        ability_fields.check_block(self)
        if self.import_status is not None and self.import_status != import_status_of(self.import_notes):
            raise ValueError(
                f"import_status {self.import_status!r} contradicts import_notes (which give "
                f"{import_status_of(self.import_notes)!r})"
            )
        return self

    # -- derived views
    @property
    def ac_modifiers(self) -> int:
        """AC - 10: the defender's modifier when players roll all the dice (defense check d20 + this)."""
        return self.ac - 10

    def save_score(self, kind: SaveKind) -> int:
        """11 + save bonus: the DC an attacker's roll must meet when players roll all the dice."""
        return 11 + getattr(self.saves, kind)

    @property
    def all_immunities(self) -> frozenset[str]:
        """Own immunities plus those of the type (SRD type traits) and subtypes (fire, cold)."""
        out = set(self.immunities) | TYPE_IMMUNITIES.get(self.type, frozenset())
        for sub in self.subtypes:
            out |= SUBTYPE_IMMUNITIES.get(sub, frozenset())
        return frozenset(out)

    @property
    def all_vulnerabilities(self) -> frozenset[str]:
        """Own vulnerabilities plus those of the subtypes (a fire creature is vulnerable to cold)."""
        out = set(self.vulnerabilities)
        for sub in self.subtypes:
            out |= SUBTYPE_VULNERABILITIES.get(sub, frozenset())
        return frozenset(out - self.all_immunities)

    def is_immune(self, what: str) -> bool:
        return what in self.all_immunities

    @property
    def called_shot_parts(self) -> tuple[BodyPart, ...]:
        """The body parts that called shots can target: explicit ``body_parts`` or the type's defaults."""
        if self.body_parts is not None:
            return self.body_parts
        return tuple(BodyPart(part=p, count=n) for p, n in BODY_BY_TYPE.get(self.type, ()))

    def body_part(self, part: str) -> BodyPart | None:
        """The named body part, or None if the creature has none (no called shot possible)."""
        return next((p for p in self.called_shot_parts if p.part == part), None)

    def improved_ac(self, part: str) -> int:
        """AC against a called shot at ``part``; ArenaError if the creature has no such part."""
        found = self.body_part(part)
        if found is None:
            raise ArenaError(f"{self.name} has no {part} to target with a called shot")
        return self.ac + found.ac_bonus

    @property
    def display_name(self) -> str:
        return self.title or self.name

    @property
    def modelled(self) -> Literal["full", "partial"]:
        """``partial`` when a special ability that matters in a fight is ``ignored`` by the engine, else ``full``."""
        return "partial" if any(a.engine == "ignored" for a in self.special_abilities) else "full"

    @property
    def ignored_abilities(self) -> tuple[str, ...]:
        """Keys of the special abilities the engine ignores, without repeats, in the block's order."""
        return tuple(dict.fromkeys(a.key for a in self.special_abilities if a.engine == "ignored"))


__all__ = [  # the vocabulary of arena.world.stat_types is re-exported: stat blocks are read from here
    "Abilities",
    "Ability",
    "AbilityScore",
    "Attack",
    "BodyPart",
    "BreathWeapon",
    "CR",
    "CR_FRACTIONS",
    "cr_text",
    "Creature",
    "CreatureType",
    "DAMAGE_TYPES",
    "DamageDice",
    "DamageReduction",
    "DamageType",
    "DiceText",
    "DrOvercome",
    "Effect",
    "EnergyType",
    "EngineStatus",
    "Frozen",
    "HitDice",
    "Immunity",
    "ImportNote",
    "ImportNoteKind",
    "ImportStatus",
    "import_status_of",
    "improved_ac_bonus",
    "Label",
    "MAX_ABILITY_SCORE",
    "MAX_AMOUNT",
    "MAX_ATTACK_COUNT",
    "MAX_ATTACKS_PER_ROUTINE",
    "MAX_FEET",
    "MAX_HP",
    "MAX_ITERATIVES",
    "MAX_PART_AC_BONUS",
    "MAX_PART_COUNT",
    "MAX_ROUTINES",
    "MAX_TEXT_LENGTH",
    "Modifier",
    "parse_cr",
    "PartName",
    "PreparedSpell",
    "Regeneration",
    "RegenerationOvercome",
    "Rend",
    "RoundsDice",
    "Routine",
    "SaveKind",
    "Saves",
    "Size",
    "SIZES",
    "Spellcasting",
    "SpecialAbility",
    "SpellLevel",
    "SUBTYPE_IMMUNITIES",
    "SUBTYPE_VULNERABILITIES",
    "Text",
    "TYPE_IMMUNITIES",
]

ability_fields.bind(Creature)
ability_fields.discover()  # the special abilities' modules add their fields (arena.world.ability_fields)
