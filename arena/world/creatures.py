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
from arena.world import ability_fields
from arena.world.attacks import Routine
from arena.world.body_parts import BODY_BY_TYPE, BodyPart
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
    ability_modifier,
    cr_text,
    parse_cr,
)


# --------------------------------------------------------------------------------------------- special qualities
class AbilityLoss(Frozen):
    """Points of one ability score lost (``1d6`` of ``con``): ability damage, or drain when ``drain``."""

    dice: DamageDice
    ability: Ability
    drain: StrictBool = False
    """Drain rather than damage: the same in a fight (it does not heal there either); what immunities apply."""


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
        """The ability's modifier (:func:`~arena.world.stat_types.ability_modifier`); a nonability gives +0."""
        return ability_modifier(getattr(self, ability))


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
    ferocity: StrictBool = False
    """Ferocity (SRD 3.5): fights on without penalty while disabled or dying (it still loses a hit point a round)."""
    incorporeal: StrictBool = False
    """Incorporeal (SRD 3.5): only magic weapons, spells and other incorporeal creatures harm it, and those have a
    50% chance to do nothing (force and positive energy always work)."""
    invisible: StrictBool = False
    """Always invisible, even when it attacks (SRD 3.5 invisible stalker's natural invisibility, phantom fungus's
    greater invisibility, hellcat's invisibility in light): total concealment (a 50% miss chance) for the fight."""
    evasion: StrictBool = False
    """Evasion (SRD 3.5): a successful Reflex save against damage that a save halves takes none."""
    improved_evasion: StrictBool = False
    """Improved evasion (SRD 3.5 rogue special ability): as evasion, "and even if the rogue fails her Reflex save,
    she takes only half damage"."""
    uncanny_dodge: StrictBool = False
    """Uncanny dodge (SRD 3.5 rogue, 4th): it "retains her Dexterity bonus to AC (if any) even if she is caught
    flat-footed or struck by an invisible attacker" (and so is no target of a sneak attack for it)."""
    improved_uncanny_dodge: Annotated[int, _int(0, MAX_MODIFIER)] = 0
    """Improved uncanny dodge (SRD 3.5 rogue, 8th): it "can no longer be flanked", except by a rogue "at least four
    more rogue levels than the target": this number is its rogue level (levels of classes granting uncanny dodge);
    0: none."""
    defensive_roll: StrictBool = False
    """Defensive roll (SRD 3.5 rogue special ability): once a day, a blow of a weapon that would reduce it to 0 hit
    points or fewer deals half damage on a Reflex save (DC the damage), unless it is denied its Dexterity bonus."""
    class_features: tuple[Label, ...] = ()
    """The class features of its class levels (the SRD table's Special column, modelled or not: its notes say
    which are not), for a generated PC."""
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
    "RoundsDice",
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
