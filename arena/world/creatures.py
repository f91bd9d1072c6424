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
import math
import unicodedata
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
    model_validator,
)

from arena.dice import parse as parse_dice
from arena.errors import ArenaError, DiceSyntaxError, one_of
from arena.limits import MAX_MODIFIER, MAX_NAME_LENGTH, MAX_SIDES
from arena.rules.kernel import MAX_MULTIPLIER
from arena.world.challenge import MAX_CR
from arena.world.policy_names import policy_name
from arena.world.spellbook import SPELLS

# --------------------------------------------------------------------------------------------- limits
# Numbers a stat block may hold (docs/limits.md has the shared ones: MAX_MODIFIER for every bonus, AC, save, DC,
# caster level and SR, MAX_NAME_LENGTH for names). Each is far above the SRD and low enough that a typo is refused.
MAX_ABILITY_SCORE = 99
"""Ability scores run 1 to 99 (SRD monsters reach the 40s: a great wyrm red dragon has Str 45); ``null`` is a
nonability (an undead's Con). 0 is refused: in the SRD it means helpless, which the engine does not model."""
MAX_HP = 100_000
"""Hit points (the Tarrasque has 858)."""
MAX_FEET = 1_000
"""Speed, space, reach and breath-weapon length in feet (SRD: fly 300 ft., a line of 140 ft.)."""
MAX_AMOUNT = 1_000
"""Damage reduction, energy resistance, regeneration and fast healing (SRD: DR 20, resist 30, regeneration 40)."""
MAX_ATTACK_COUNT = 50
"""``count`` of one attack entry (a twelve-headed hydra has 12 bites)."""
MAX_ITERATIVES = 10
"""Bonuses in one entry's ``bonuses`` (four iteratives from BAB, plus haste and two-weapon fighting)."""
MAX_ATTACKS_PER_ROUTINE = 64
"""Attacks in one routine, all entries together (count x bonuses): every one is rolled each round."""
MAX_ROUTINES = 20
"""Alternative routines in ``attack`` or ``full_attack``."""
MAX_PART_COUNT = 100
"""How many of one body part (a vermin has 6 legs)."""
MAX_PART_AC_BONUS = 50
"""A body part's improved-AC bonus (the table's largest is +16); with AC at most MAX_MODIFIER the engine's
called-shot target stays within the kernel's bound."""
MAX_TEXT_LENGTH = 10_000
"""Characters of free text: ``notes`` and ``source``."""

# --------------------------------------------------------------------------------------------- vocabularies
Size = Literal["fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"]
SIZES: tuple[str, ...] = Size.__args__

CreatureType = Literal[
    "aberration", "animal", "construct", "dragon", "elemental", "fey", "giant", "humanoid", "magical beast",
    "monstrous humanoid", "ooze", "outsider", "plant", "undead", "vermin",
]
"""The 3.5 SRD creature types."""

DamageType = Literal[
    "slashing", "piercing", "bludgeoning", "fire", "cold", "acid", "electricity", "sonic", "force",
    "negative", "positive",
]
DAMAGE_TYPES: tuple[str, ...] = DamageType.__args__
EnergyType = Literal["fire", "cold", "acid", "electricity", "sonic"]

Effect = Literal[
    "critical hits", "sneak attack", "mind-affecting", "sleep", "paralysis", "poison", "stunning", "disease",
    "death effects", "necromancy", "nonlethal damage", "ability damage", "ability drain", "energy drain",
    "fatigue", "exhaustion", "polymorph", "flanking", "fortitude effects", "maze",
]
"""Things a creature can be immune to besides damage types (closed set so that typos are caught)."""
Immunity = DamageType | Effect

DrOvercome = Literal[
    "bludgeoning", "piercing", "slashing", "magic", "silver", "cold iron", "adamantine", "good", "evil",
    "lawful", "chaotic", "epic",
]
"""What can bypass damage reduction (SRD: DR x/silver, x/magic, x/bludgeoning, ...)."""

Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
SaveKind = Literal["fort", "ref", "will"]
PartName = Literal["hand", "arm", "head", "eye", "ear", "crotch", "foot", "leg", "wing", "tail"]

# --------------------------------------------------------------------------------------------- immunities by type
TYPE_IMMUNITIES: dict[str, frozenset[str]] = {
    # SRD 3.5 "Undead Traits": immunity to mind-affecting effects, poison, sleep effects, paralysis, stunning,
    # disease and death effects; not subject to critical hits, nonlethal damage, ability drain or energy drain;
    # immune to damage to its physical ability scores, fatigue and exhaustion; immune to any effect that
    # requires a Fortitude save (unless it also works on objects or is harmless).
    "undead": frozenset({
        "mind-affecting", "poison", "sleep", "paralysis", "stunning", "disease", "death effects",
        "critical hits", "nonlethal damage", "ability drain", "energy drain", "ability damage", "fatigue",
        "exhaustion", "fortitude effects", "sneak attack",
    }),
    # SRD 3.5 "Construct Traits": mind-affecting effects, poison, sleep, paralysis, stunning, disease, death
    # effects, necromancy effects; not subject to critical hits, nonlethal damage, ability damage, ability
    # drain, fatigue, exhaustion, energy drain; Fortitude-save effects (unless they work on objects).
    "construct": frozenset({
        "mind-affecting", "poison", "sleep", "paralysis", "stunning", "disease", "death effects", "necromancy",
        "critical hits", "nonlethal damage", "ability damage", "ability drain", "fatigue", "exhaustion",
        "energy drain", "fortitude effects", "sneak attack",
    }),
    # "Ooze Traits": mind-affecting, poison, sleep, paralysis, polymorph, stunning; not subject to critical hits
    # or flanking.
    "ooze": frozenset({"mind-affecting", "poison", "sleep", "paralysis", "polymorph", "stunning",
                       "critical hits", "flanking", "sneak attack"}),
    # "Plant Traits": mind-affecting, poison, sleep, paralysis, polymorph, stunning; not subject to critical hits.
    "plant": frozenset({"mind-affecting", "poison", "sleep", "paralysis", "polymorph", "stunning",
                        "critical hits", "sneak attack"}),
    # "Elemental Traits": poison, sleep, paralysis, stunning; not subject to critical hits or flanking.
    "elemental": frozenset({"poison", "sleep", "paralysis", "stunning", "critical hits", "flanking",
                            "sneak attack"}),
    # "Dragon Traits": immunity to magic sleep effects and paralysis effects.
    "dragon": frozenset({"sleep", "paralysis"}),
    # "Vermin Traits": mindless, immune to all mind-affecting effects.
    "vermin": frozenset({"mind-affecting"}),
}
"""Immunities every creature of a type has (SRD 3.5 type traits). "sneak attack" follows the SRD rogue text:
"any creature that is immune to critical hits is not vulnerable to sneak attacks"."""

SUBTYPE_IMMUNITIES: dict[str, frozenset[str]] = {"fire": frozenset({"fire"}), "cold": frozenset({"cold"})}
SUBTYPE_VULNERABILITIES: dict[str, frozenset[str]] = {"fire": frozenset({"cold"}), "cold": frozenset({"fire"})}
"""SRD subtypes: Fire (immunity to fire, vulnerability to cold) and Cold (the reverse)."""


# --------------------------------------------------------------------------------------------- field types
def _int(low: int, high: int, **extra: Any) -> Any:
    """A whole number from ``low`` to ``high``; strict, so ``true`` or ``1.5`` is not silently 1."""
    return Field(strict=True, ge=low, le=high, **extra)


Modifier = Annotated[int, _int(-MAX_MODIFIER, MAX_MODIFIER)]
"""A bonus, AC, save or DC: -MAX_MODIFIER..MAX_MODIFIER."""

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides, zero-width), surrogate, private-use and unassigned characters, line breaks."""


def _unsafe(value: str, allowed: str = "") -> str | None:
    """The first character of ``value`` that is not printable text (``allowed`` excepted), or None."""
    return next((c for c in value if c not in allowed and unicodedata.category(c) in _UNSAFE_CATEGORIES), None)


def _label(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    bad = _unsafe(value)
    if bad is not None:
        raise ValueError(f"contains the control character U+{ord(bad):04X}: a name is printable text on one line")
    return value


def _free_text(value: str) -> str:
    bad = _unsafe(value, "\n\t")
    if bad is not None:
        raise ValueError(f"contains the control character U+{ord(bad):04X} (text may hold newlines and tabs only)")
    return value


Label = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_NAME_LENGTH), AfterValidator(_label)]
"""A name or a short label: printable, one line, 1 to MAX_NAME_LENGTH characters, not blank."""
Text = Annotated[str, Field(strict=True, max_length=MAX_TEXT_LENGTH), AfterValidator(_free_text)]
"""Free text for people (notes, source): no control characters but newline and tab."""


def _dice_text(value: str) -> str:
    try:
        parse_dice(value)
    except DiceSyntaxError as err:
        detail = str(err).split(": ", 1)[-1]
        raise ValueError(f"unparseable dice expression {value[:60]!r} ({detail})") from None
    return value.strip()


def _no_subtracted_dice(value: str, what: str) -> None:
    if any(sign < 0 for sign, *_ in parse_dice(value).dice):
        raise ValueError(f"{what} {value!r} subtracts dice: {what} adds dice and a constant (e.g. 1d6-1)")


def _damage_text(value: str) -> str:
    value = _dice_text(value)
    _no_subtracted_dice(value, "damage")
    if parse_dice(value).maximum < 1:
        raise ValueError(f"damage {value!r} can never be more than {parse_dice(value).maximum}: it deals nothing")
    return value


def _hit_dice_text(value: str) -> str:
    value = _dice_text(value)
    _no_subtracted_dice(value, "hit dice")
    if not parse_dice(value).dice:
        raise ValueError(f"hit dice {value!r} have no die: write them like 2d8+4")
    return value


def _rounds_text(value: str) -> str:
    value = _dice_text(value)
    if parse_dice(value).minimum < 1:
        raise ValueError(f"recharge {value!r} can be {parse_dice(value).minimum} rounds: it must be at least 1 "
                         "(e.g. 1d4)")
    return value


_DICE_SCHEMA = Field(strict=True, json_schema_extra={"examples": ["1d6+6", "2d6+9"]})
DiceText = Annotated[str, _DICE_SCHEMA, AfterValidator(_dice_text)]
"""Text of a dice expression (``2d6+9``), checked with :func:`arena.dice.parse`."""
DamageDice = Annotated[str, _DICE_SCHEMA, AfterValidator(_damage_text)]
"""Damage dice: a dice expression that subtracts no dice and can deal at least 1 (``1d6-1`` is fine: the engine
applies the SRD minimum of 1 on a hit)."""
HitDice = Annotated[str, _DICE_SCHEMA, AfterValidator(_hit_dice_text)]
"""Hit dice: at least one die, none subtracted (``6d8+24``)."""
RoundsDice = Annotated[str, _DICE_SCHEMA, AfterValidator(_rounds_text)]
"""A number of rounds rolled on dice, never less than 1 (``1d4``)."""

CR_FRACTIONS = (Fraction(1, 10), Fraction(1, 8), Fraction(1, 6), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2))


def parse_cr(value: Any) -> Fraction:
    """A challenge rating from ``5``, ``"5"``, ``"1/3"`` or ``0.5``; the SRD fractions or a whole number >= 1."""
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
    if isinstance(value, bool):
        raise ValueError(f"challenge rating must be a number like 5 or 1/3, not {shown}")
    try:
        if isinstance(value, Fraction):
            cr = value
        elif isinstance(value, int):
            cr = Fraction(value)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError
            cr = Fraction(value).limit_denominator(10)
            if abs(float(cr) - value) > 1e-3:
                raise ValueError
        elif isinstance(value, str) and len(value) <= 20:   # Fraction("1e400") is exact: a 400-digit integer
            cr = Fraction(value.strip().replace(" ", ""))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"challenge rating must be a number like 5 or 1/3, not {shown}") from None
    if cr in CR_FRACTIONS or (cr.denominator == 1 and 1 <= cr <= MAX_CR):
        return cr
    raise ValueError(f"challenge rating {shown} does not exist: use 1/10, 1/8, 1/6, 1/4, 1/3, 1/2 or a whole "
                     f"number from 1 to {MAX_CR}")


def cr_text(cr: Fraction) -> str:
    """``1/3`` or ``5``: how a CR is written."""
    return str(cr)


CR = Annotated[
    Fraction,
    PlainValidator(parse_cr),
    PlainSerializer(cr_text, return_type=str),
    WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_CR},
                              {"type": "string", "pattern": r"^\s*(\d+|1\s*/\s*(10|8|6|4|3|2))\s*$"}],
                    "description": "Challenge rating: 1/10, 1/8, 1/6, 1/4, 1/3, 1/2 or a whole number"}),
]


def _threat(value: Any) -> Any:
    """``19`` or ``"19-20"`` -> 19. A range must end at 20 and start between 2 and 20."""
    if isinstance(value, str):
        text = value.strip()
        if "-" in text:
            low, _, high = text.partition("-")
            try:
                lo, hi = int(low), int(high)
            except ValueError:
                raise ValueError(f"threat range {value!r} is not like 19-20") from None
            if hi != 20 or not 2 <= lo <= 20:
                raise ValueError(f"threat range {value!r} cannot exist on a d20 (it must be N-20 with N in 2..20)")
            return lo
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"threat range {value!r} is not like 19-20") from None
    return value


def _multiplier(value: Any) -> Any:
    """``3``, ``"x3"`` or ``"×3"`` -> 3."""
    if isinstance(value, str):
        text = value.strip().lower().lstrip("x×")
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"critical multiplier {value!r} is not like x3") from None
    return value


def _one_or_many(value: Any) -> Any:
    """A single value where a list is expected becomes a one-item list (``bonuses: 9`` -> ``[9]``)."""
    return [value] if isinstance(value, int | str | bool) else value


def _ability_score(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"an ability score is a whole number from 1 to {MAX_ABILITY_SCORE}, or null for a "
                         f"creature without the ability, not {value!r}"[:200])
    if value == 0:
        raise ValueError("an ability score of 0 is not modelled: write null for a creature without the ability "
                         f"(an undead's Con), or a score from 1 to {MAX_ABILITY_SCORE}")
    if not 1 <= value <= MAX_ABILITY_SCORE:
        raise ValueError(f"ability score {value} is outside 1..{MAX_ABILITY_SCORE} (the limit)")
    return value


AbilityScore = Annotated[builtins.int | None, BeforeValidator(_ability_score),
                         WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_ABILITY_SCORE},
                                                   {"type": "null"}]})]
"""1 to MAX_ABILITY_SCORE, or null for a nonability."""


def _spell_level(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"a spell level is a whole number 0 to 9, not {value!r}")
    return value


SpellLevel = Annotated[int, BeforeValidator(_spell_level), Field(ge=0, le=9)]
"""0 to 9. (Lax about text: a mapping key that went through JSON comes back as ``"1"``.)"""


class Frozen(BaseModel):
    """Base of every stat-block model: immutable, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------------------------- attacks
class Attack(Frozen):
    """One kind of attack in a routine: ``2 claws +9 melee (1d6+6)`` is ``count=2, bonuses=[9]``."""

    name: Label
    bonuses: Annotated[tuple[Modifier, ...], BeforeValidator(_one_or_many),
                       Field(min_length=1, max_length=MAX_ITERATIVES)]
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
        raise ValueError(f"the routine makes {attacks} attacks (count x bonuses, all entries together); the limit "
                         f"is {MAX_ATTACKS_PER_ROUTINE}")
    return routine


Routine = Annotated[tuple[Attack, ...], AfterValidator(_non_empty)]
"""Attacks made together (SRD "and"). (Emptiness is checked after the items so that a bad item gives one error.)"""


# --------------------------------------------------------------------------------------------- special qualities
class Rend(Frozen):
    """Extra damage when both attacks named ``attack`` hit in one round (troll: 2d6+9 if both claws hit)."""

    damage: DamageDice
    attack: Label = "claw"
    hits_needed: Annotated[int, _int(2, MAX_ATTACKS_PER_ROUTINE)] = 2


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
            raise ValueError(f"damage reduction {value[:40]!r} names nothing after '/': write 5/- for damage "
                             "reduction that nothing overcomes, or 5/silver")
        overcome = [] if rest in ("-", "—") else [p.strip() for p in rest.replace(" or ", ",").split(",")]
        return {"amount": int(amount), "overcome_by": overcome}
    return value


class DamageReduction(Frozen):
    """DR amount/what overcomes it; any one item in ``overcome_by`` bypasses it, empty means DR x/-.

    Text such as ``5/bludgeoning`` or ``10/magic`` is accepted. (DR x/A *and* B is not modelled.)
    """

    amount: Annotated[int, _int(1, MAX_AMOUNT)]
    overcome_by: tuple[DrOvercome, ...] = ()

    def __str__(self) -> str:
        return f"{self.amount}/{' or '.join(self.overcome_by) or '-'}"


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
    engine casts (:data:`arena.fight.spells.SPELLS`): a misspelt one would silently never be cast."""
    domains: tuple[Label, ...] = ()


# --------------------------------------------------------------------------------------------- called shots
PART_AC_DEFAULTS: dict[str, int] = {
    "hand": 4,    # "Hand (usually AC +4)"
    "arm": 2,     # "Arm (usually AC +2)"
    "head": 4,    # "Head (usually AC +4)"
    "eye": 8,     # "One eye (usually AC +8)"
    "ear": 8,     # "One ear (usually AC +8)"
    "crotch": 6,  # "Crotch (usually AC +6)"
    "foot": 2,    # "Foot/Leg/Wing/Tail (usually AC +2)"
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
    for limit, bonus in ((Fraction(1, 32), 16), (Fraction(1, 16), 8), (Fraction(1, 8), 4), (Fraction(1, 4), 2),
                         (Fraction(1, 2), 1)):
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
                raise ValueError(f"ac_bonus {self.ac_bonus} contradicts size_fraction {self.size_fraction} "
                                 f"(which gives +{bonus})")
            object.__setattr__(self, "ac_bonus", bonus)
        elif self.ac_bonus is None:
            object.__setattr__(self, "ac_bonus", PART_AC_DEFAULTS[self.part])
        return self


_HUMANOID_BODY = (("hand", 2), ("arm", 2), ("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 2),
                  ("leg", 2))
_QUADRUPED_BODY = (("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 4), ("leg", 4), ("tail", 1))
_DRAGON_BODY = (("head", 1), ("eye", 2), ("ear", 2), ("crotch", 1), ("foot", 4), ("leg", 4), ("wing", 2),
                ("tail", 1))
BODY_BY_TYPE: dict[str, tuple[tuple[str, int], ...]] = {
    "humanoid": _HUMANOID_BODY, "giant": _HUMANOID_BODY, "monstrous humanoid": _HUMANOID_BODY,
    "undead": _HUMANOID_BODY, "outsider": _HUMANOID_BODY, "fey": _HUMANOID_BODY, "construct": _HUMANOID_BODY,
    "animal": _QUADRUPED_BODY, "magical beast": _QUADRUPED_BODY,
    "vermin": (("head", 1), ("eye", 2), ("leg", 6)),
    "dragon": _DRAGON_BODY,
    # oozes, plants, elementals, aberrations: no default parts ("an ooze almost never does" have arms);
    # list them in the stat block if they have some.
}
"""Default body parts by creature type (a guess at the usual body plan; override with ``body_parts``)."""


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
    tactics: Annotated[str, Field(strict=True, max_length=MAX_NAME_LENGTH),
                       AfterValidator(policy_name)] = "focus-weakest"
    """Name of the default tactics policy (a policy of your own is checked once its file has run: see
    :mod:`arena.world.policy_names`)."""
    notes: Text = ""
    source: Text = ""

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
            if not any(sum(a.attacks_per_routine for a in routine if a.name == self.rend.attack) >= needed
                       for routine in self.full_attack):
                raise ValueError(f"rend needs a full-attack routine with {needed} {self.rend.attack!r} attacks")
        if self.touch_ac > self.ac + 10 or self.flat_footed_ac > self.ac + 10:
            raise ValueError("touch_ac/flat_footed_ac look wrong (more than 10 above ac)")
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
