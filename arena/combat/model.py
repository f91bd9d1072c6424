"""The fight model's contested choices: named options with SRD-faithful defaults, the old behaviour one setting away.

The dice rules' open choices live in :class:`arena.rules.RuleOptions`; these are the choices about the fight around
the dice (how flanking, helpless defenders, the back line ... are modelled), where the SRD assumes a battle grid
and a DM the simulation does not have. A scenario sets them in its ``model:`` block, the CLI with
``--model NAME=VALUE``, the library with ``prepare(..., model=ModelOptions(...))``; every run's manifest records
them. README "Fight model options" gives the SRD line each reads.

``undo`` is for measuring, not for playing: it names SRD fixes to switch back off, one at a time, so that
``docs/model-changes.md`` can give the paired effect of each fix (``arena model-effects``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field

from arena.errors import ArenaError

FIXES: dict[str, str] = {
    "spell-focus": "Spell Focus and Greater Spell Focus add +1 each to the save DCs of their school",
    "crossbow-reload": "a light crossbow shoots once a round (reloading is a move action)",
    "deflection-stacking": "deflection bonuses do not stack (shield of faith over a ring of protection)",
    "dodge-one-opponent": "Dodge's +1 AC applies against one designated opponent",
    "healing-domain": "the Healing domain casts healing spells at +1 caster level",
    "melee-begins": "no -4 for shooting into a melee before anyone has closed in",
    "touch-flat-footed": "a target denied its Dexterity bonus loses it against touch attacks and rays",
    "flat-footed-aoo": "a flat-footed creature makes no attack of opportunity (a fumble's)",
    "color-spray-fumble": "a fumbled save against color spray takes the longest durations",
    "trip-ties": "opposed trip checks: ties go to the higher modifier, then a reroll",
    "blind-dex": "a blinded creature loses its Dexterity bonus to AC",
    "sr-once": "spell resistance is checked once per spell and target",
    "immune-targets": "policies do not aim a spell at a creature immune to it when another choice exists",
    "sleep-budget": "sleep is aimed only where its 4 Hit Dice catch enough creatures",
    "caster-melee": "a caster stands back with a ranged weapon only when it shoots better than it fights in melee",
    "party-gear": "the generated party's gear: 3.5 wealth by level, one item per body slot",
    "rider-attacks": "a rider is on every attack its text names (a ghoul's paralysis on its bite and claws)",
    "strength-zero": "Strength or Dexterity 0 leaves a creature helpless, not paralyzed; a shadow's kills at 0",
    "finesse-ability-damage": "a Weapon Finesse attack's roll loses lost Dexterity, not lost Strength",
}
"""SRD fixes of the fight model that ``undo`` can switch back off (for measuring each one)."""


class ModelOptions(BaseModel):
    """How the fight around the dice is modelled. Defaults read the SRD 3.5 as closely as an abstract (gridless)
    fight allows; the second value of each is the model before these options existed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    flanking: Literal["same-target", "any-melee-ally", "never"] = "same-target"
    """SRD: flanking needs an ally threatening the target from the opposite side (+2 to hit, sneak attack).
    ``same-target``: another able ally of the attacker made its last melee attack against the same target;
    ``any-melee-ally``: any able ally fights in melee (sneak attack only, no +2); ``never``."""
    helpless_ac: Literal["dex-zero", "flat-footed"] = "dex-zero"
    """SRD: a helpless defender is treated as having Dexterity 0 (-5 to AC) and melee attacks get +4 against it.
    ``flat-footed``: flat-footed AC, -4 against melee."""
    sleep_casting: Literal["full-round", "instant"] = "full-round"
    """SRD: sleep's casting time is 1 round: it takes effect just before the caster's next turn."""
    prad_fortitude: Literal["monster-rolls", "magic-check"] = "monster-rolls"
    """Players roll all turns a monster's save against "a spell or special attack" into the player's magic check.
    A massive-damage or coup-de-grace Fortitude save is neither: ``monster-rolls`` leaves it to the monster."""
    back_line: Literal["protected", "reachable"] = "protected"
    """``protected``: casters and archers behind the melee cannot be reached by melee creatures while the melee
    lasts; ``reachable``: everyone can be reached by everyone."""
    luck_reroll: Literal["low-natural", "known-failure"] = "low-natural"
    """SRD Luck domain: reroll a roll "before the DM declares whether the roll results in success or failure".
    ``low-natural``: decided from the natural roll alone, on every d20-type roll of one's own (a natural the
    die makes at most 10% of the time from the bottom); ``known-failure``: the first failed save (or defense or
    magic check)."""
    buff_choice: Literal["by-value", "highest-level"] = "by-value"
    """Which buff a caster casts first: ``by-value`` ranks them by creatures helped and whether they last the
    fight; ``highest-level`` takes the highest-level buff prepared."""
    domain_spells: Literal["by-die", "standard"] = "by-die"
    """The generated cleric's Luck domain slots: ``by-die`` holds auspicious odds under 3d6 (the bell-curve
    document's Luck domain); ``standard`` keeps the d20 list under every die (the dice measured without the
    changed spells)."""
    pc_hit_points: Literal["average", "rounded-up"] = "average"
    """Generated PCs after 1st level: the hit die's average (d10: 5.5, alternately 5 and 6: 3.5 practice) or the
    average rounded up (Pathfinder practice)."""
    area_damage: Literal["roll-once", "per-target"] = "roll-once"
    """One damage roll for every creature an area spell catches (as for a breath weapon), or one per target."""
    undo: frozenset[str] = Field(default_factory=frozenset)
    """SRD fixes to switch back off, for measuring them (:data:`FIXES`): not a way to play."""

    def model_post_init(self, __context: object) -> None:
        unknown = sorted(set(self.undo) - FIXES.keys())
        if unknown:
            raise ValueError(f"undo: unknown fix {unknown[0]!r} (known: {', '.join(FIXES)})")

    def fixed(self, name: str) -> bool:
        """Is the SRD fix ``name`` in force (not undone)?"""
        return name not in self.undo

    def changed(self) -> dict[str, object]:
        """The options that differ from the defaults (for run labels and reports)."""
        default = ModelOptions()
        return {
            name: getattr(self, name)
            for name in type(self).model_fields
            if getattr(self, name) != getattr(default, name)
        }


class ModelFlags:
    """The fight model's options as the plain attributes a fight keeps (the hot loop reads them on every swing):
    one line each, with its type and how it is worked out from :class:`ModelOptions`. This table is the only list
    of them: its slots are the fight's, :class:`~arena.combat.engine.Fight` inherits them with their types, and
    :data:`MODEL_FLAGS` (read from it) gives the values the fight unpacks into them."""

    flanking: Annotated[str, lambda m: m.flanking]
    flank_bonus: Annotated[bool, lambda m: m.flanking == "same-target"]
    helpless_dex_zero: Annotated[bool, lambda m: m.helpless_ac == "dex-zero"]
    sleep_full_round: Annotated[bool, lambda m: m.sleep_casting == "full-round"]
    prad_monster_fortitude: Annotated[bool, lambda m: m.prad_fortitude == "monster-rolls"]
    back_line: Annotated[bool, lambda m: m.back_line == "protected"]
    luck_low_natural: Annotated[bool, lambda m: m.luck_reroll == "low-natural"]
    buff_by_value: Annotated[bool, lambda m: m.buff_choice == "by-value"]
    area_roll_once: Annotated[bool, lambda m: m.area_damage == "roll-once"]
    fix_spell_focus: Annotated[bool, lambda m: m.fixed("spell-focus")]
    fix_deflection: Annotated[bool, lambda m: m.fixed("deflection-stacking")]
    fix_dodge: Annotated[bool, lambda m: m.fixed("dodge-one-opponent")]
    fix_healing_domain: Annotated[bool, lambda m: m.fixed("healing-domain")]
    fix_melee_begins: Annotated[bool, lambda m: m.fixed("melee-begins")]
    fix_touch_ff: Annotated[bool, lambda m: m.fixed("touch-flat-footed")]
    fix_ff_aoo: Annotated[bool, lambda m: m.fixed("flat-footed-aoo")]
    fix_color_spray: Annotated[bool, lambda m: m.fixed("color-spray-fumble")]
    fix_trip_ties: Annotated[bool, lambda m: m.fixed("trip-ties")]
    fix_blind_dex: Annotated[bool, lambda m: m.fixed("blind-dex")]
    fix_sr_once: Annotated[bool, lambda m: m.fixed("sr-once")]
    fix_caster_melee: Annotated[bool, lambda m: m.fixed("caster-melee")]
    fix_rider_attacks: Annotated[bool, lambda m: m.fixed("rider-attacks")]
    fix_strength_zero: Annotated[bool, lambda m: m.fixed("strength-zero")]
    fix_finesse: Annotated[bool, lambda m: m.fixed("finesse-ability-damage")]

    __slots__ = tuple(__annotations__)


MODEL_FLAGS: tuple[tuple[str, Callable[[ModelOptions], Any]], ...] = tuple(
    (name, hint.__metadata__[0]) for name, hint in get_type_hints(ModelFlags, include_extras=True).items()
)
"""(attribute name, how it is worked out from the options), in :class:`ModelFlags`'s order."""


def flag_values(model: ModelOptions) -> tuple:
    """The model's options as the values of :data:`MODEL_FLAGS`, in its order."""
    return tuple(value(model) for _, value in MODEL_FLAGS)


LEGACY = ModelOptions(
    flanking="any-melee-ally",
    helpless_ac="flat-footed",
    sleep_casting="instant",
    prad_fortitude="magic-check",
    luck_reroll="known-failure",
    buff_choice="highest-level",
    pc_hit_points="rounded-up",
    area_damage="per-target",
    undo=frozenset(FIXES),
)
"""The model as it was before the fight-model audit (version 0.2): every option at its old value, every fix undone."""


def parse_assignments(pairs: list[str] | None, base: ModelOptions | None = None) -> ModelOptions:
    """``["flanking=never", "undo=spell-focus,sr-once"]`` (the CLI's ``--model``) over ``base``."""
    base = base or ModelOptions()
    if not pairs:
        return base
    update: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise ArenaError(f"--model {pair!r}: write NAME=VALUE (names: {', '.join(ModelOptions.model_fields)})")
        if name not in ModelOptions.model_fields:
            raise ArenaError(
                f"--model {pair!r}: no model option {name!r} (known: {', '.join(ModelOptions.model_fields)})"
            )
        update[name] = frozenset(v.strip() for v in value.split(",") if v.strip()) if name == "undo" else value.strip()
        try:
            ModelOptions.model_validate({**base.model_dump(), name: update[name]})
        except ValueError as err:
            raise ArenaError(f"--model {pair!r}: {_first_error(err)}") from None
    return ModelOptions.model_validate({**base.model_dump(), **update})


def _first_error(err: ValueError) -> str:
    errors = getattr(err, "errors", None)
    if callable(errors):
        first = errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = first.get("msg", str(err)).removeprefix("Value error, ")
        return f"{where}: {message}" if where else message
    return str(err)
