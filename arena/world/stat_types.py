"""The vocabulary of a stat block: its limits, the SRD's words (sizes, types, damage types, effects, body parts),
the immunities each type carries, and the checked field types (modifiers, labels, dice, CR, ability scores) the
models of :mod:`arena.world.creatures` are built from; and an ability score's modifier (:func:`ability_modifier`),
defined once for the world, the importer and the stat blocks.
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
)

from arena.dice import parse as parse_dice
from arena.errors import DiceSyntaxError
from arena.limits import MAX_MODIFIER, MAX_NAME_LENGTH
from arena.world.challenge import MAX_CR

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
    "aberration",
    "animal",
    "construct",
    "dragon",
    "elemental",
    "fey",
    "giant",
    "humanoid",
    "magical beast",
    "monstrous humanoid",
    "ooze",
    "outsider",
    "plant",
    "undead",
    "vermin",
]
"""The 3.5 SRD creature types."""

DamageType = Literal[
    "slashing",
    "piercing",
    "bludgeoning",
    "fire",
    "cold",
    "acid",
    "electricity",
    "sonic",
    "force",
    "negative",
    "positive",
]
DAMAGE_TYPES: tuple[str, ...] = DamageType.__args__
EnergyType = Literal["fire", "cold", "acid", "electricity", "sonic"]

Effect = Literal[
    "critical hits",
    "sneak attack",
    "mind-affecting",
    "sleep",
    "paralysis",
    "poison",
    "stunning",
    "disease",
    "death effects",
    "necromancy",
    "nonlethal damage",
    "ability damage",
    "ability drain",
    "energy drain",
    "fatigue",
    "exhaustion",
    "polymorph",
    "flanking",
    "fortitude effects",
    "maze",
]
"""Things a creature can be immune to besides damage types (closed set so that typos are caught)."""
Immunity = DamageType | Effect

DrOvercome = Literal[
    "bludgeoning",
    "piercing",
    "slashing",
    "magic",
    "silver",
    "cold iron",
    "adamantine",
    "good",
    "evil",
    "lawful",
    "chaotic",
    "epic",
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
    "undead": frozenset(
        {
            "mind-affecting",
            "poison",
            "sleep",
            "paralysis",
            "stunning",
            "disease",
            "death effects",
            "critical hits",
            "nonlethal damage",
            "ability drain",
            "energy drain",
            "ability damage",
            "fatigue",
            "exhaustion",
            "fortitude effects",
            "sneak attack",
        }
    ),
    # SRD 3.5 "Construct Traits": mind-affecting effects, poison, sleep, paralysis, stunning, disease, death
    # effects, necromancy effects; not subject to critical hits, nonlethal damage, ability damage, ability
    # drain, fatigue, exhaustion, energy drain; Fortitude-save effects (unless they work on objects).
    "construct": frozenset(
        {
            "mind-affecting",
            "poison",
            "sleep",
            "paralysis",
            "stunning",
            "disease",
            "death effects",
            "necromancy",
            "critical hits",
            "nonlethal damage",
            "ability damage",
            "ability drain",
            "fatigue",
            "exhaustion",
            "energy drain",
            "fortitude effects",
            "sneak attack",
        }
    ),
    # "Ooze Traits": mind-affecting, poison, sleep, paralysis, polymorph, stunning; not subject to critical hits
    # or flanking.
    "ooze": frozenset(
        {
            "mind-affecting",
            "poison",
            "sleep",
            "paralysis",
            "polymorph",
            "stunning",
            "critical hits",
            "flanking",
            "sneak attack",
        }
    ),
    # "Plant Traits": mind-affecting, poison, sleep, paralysis, polymorph, stunning; not subject to critical hits.
    "plant": frozenset(
        {"mind-affecting", "poison", "sleep", "paralysis", "polymorph", "stunning", "critical hits", "sneak attack"}
    ),
    # "Elemental Traits": poison, sleep, paralysis, stunning; not subject to critical hits or flanking.
    "elemental": frozenset({"poison", "sleep", "paralysis", "stunning", "critical hits", "flanking", "sneak attack"}),
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
        raise ValueError(
            f"recharge {value!r} can be {parse_dice(value).minimum} rounds: it must be at least 1 (e.g. 1d4)"
        )
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


def _count_from_number(value: Any) -> Any:
    """``count: 2`` is the count ``"2"``: a whole number is the dice expression of itself. Anything else but text
    (``true``, ``2.5``) is refused here, in words that say what a count is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise ValueError(f"a count is a whole number such as 2 or dice such as 1d4, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _count_text(value: str) -> str:
    value = _dice_text(value)
    least = parse_dice(value).minimum
    if least < 1:
        said = f"count {value!r} can be {least}" if parse_dice(value).dice else f"count {value} is less than 1"
        raise ValueError(f"{said}: a count is at least 1 (e.g. 2 or 1d4)")
    return value


CountDice = Annotated[
    str,
    _DICE_SCHEMA,
    BeforeValidator(_count_from_number),
    AfterValidator(_count_text),
    WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "examples": ["2", "1d4+1"]}]}),
]
"""How many come (a summoning's creatures): a whole number (``2``) or dice (``2d10``), never less than 1; kept as
the dice expression's text (``"2"``)."""

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
        elif isinstance(value, str) and len(value) <= 20:  # Fraction("1e400") is exact: a 400-digit integer
            cr = Fraction(value.strip().replace(" ", ""))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"challenge rating must be a number like 5 or 1/3, not {shown}") from None
    if cr in CR_FRACTIONS or (cr.denominator == 1 and 1 <= cr <= MAX_CR):
        return cr
    raise ValueError(
        f"challenge rating {shown} does not exist: use 1/10, 1/8, 1/6, 1/4, 1/3, 1/2 or a whole "
        f"number from 1 to {MAX_CR}"
    )


def cr_text(cr: Fraction) -> str:
    """``1/3`` or ``5``: how a CR is written."""
    return str(cr)


CR = Annotated[
    Fraction,
    PlainValidator(parse_cr),
    PlainSerializer(cr_text, return_type=str),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": 1, "maximum": MAX_CR},
                {"type": "string", "pattern": r"^\s*(\d+|1\s*/\s*(10|8|6|4|3|2))\s*$"},
            ],
            "description": "Challenge rating: 1/10, 1/8, 1/6, 1/4, 1/3, 1/2 or a whole number",
        }
    ),
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
        raise ValueError(
            f"an ability score is a whole number from 1 to {MAX_ABILITY_SCORE}, or null for a "
            f"creature without the ability, not {value!r}"[:200]
        )
    if value == 0:
        raise ValueError(
            "an ability score of 0 is not modelled: write null for a creature without the ability "
            f"(an undead's Con), or a score from 1 to {MAX_ABILITY_SCORE}"
        )
    if not 1 <= value <= MAX_ABILITY_SCORE:
        raise ValueError(f"ability score {value} is outside 1..{MAX_ABILITY_SCORE} (the limit)")
    return value


AbilityScore = Annotated[
    builtins.int | None,
    BeforeValidator(_ability_score),
    WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_ABILITY_SCORE}, {"type": "null"}]}),
]
"""1 to MAX_ABILITY_SCORE, or null for a nonability."""


def ability_modifier(score: int | None) -> int:
    """An ability score's modifier (SRD Table: Ability Modifiers): (score - 10) // 2; a nonability gives +0."""
    return 0 if score is None else (score - 10) // 2


def _spell_level(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"a spell level is a whole number 0 to 9, not {value!r}")
    return value


SpellLevel = Annotated[int, BeforeValidator(_spell_level), Field(ge=0, le=9)]
"""0 to 9. (Lax about text: a mapping key that went through JSON comes back as ``"1"``.)"""


class Frozen(BaseModel):
    """Base of every stat-block model: immutable, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")
