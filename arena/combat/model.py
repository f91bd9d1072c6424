"""The fight model's contested choices: named options with SRD-faithful defaults, the old behaviour one setting away.

The dice rules' open choices live in :class:`arena.rules.RuleOptions`; these are the choices about the fight around
the dice (how flanking, helpless defenders, the back line ... are modelled), where the SRD assumes a battle grid
and a DM the simulation does not have. A scenario sets them in its ``model:`` block, the CLI with
``--model NAME=VALUE``, the library with ``prepare(..., model=ModelOptions(...))``; every run's manifest records
them. docs/model-options.md gives the SRD line each reads.

``undo`` is for measuring, not for playing: it names SRD fixes to switch back off, one at a time, so that
``docs/model-changes.md`` can give the paired effect of each fix (``arena model-effects``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.errors import ArenaError

FIXES: dict[str, str] = {
    "spell-focus": "Spell Focus and Greater Spell Focus add +1 each to the save DCs of their school",
    "crossbow-reload": "a light crossbow shoots once a round (reloading is a move action)",
    "deflection-stacking": "deflection bonuses do not stack (shield of faith over a ring of protection)",
    "dodge-one-opponent": "Dodge's +1 AC applies against one designated opponent",
    "dodge-printed-ac": "a stat block's AC does not include Dodge (as the SRD prints it): +1 against the chosen foe",
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
    "disabled-win": "a side whose last foe fell first wins, even if its own last creature then falls (a strain)",
    "called-shot-pressed": "no called shot where luck cannot be pressed (a flat-footed PC's defense roll under +prad)",
    "party-gear": "the generated party's gear: 3.5 wealth by level, one item per body slot",
    "class-features": "the generated rogue has Evasion (2nd), Uncanny Dodge (4th), Improved Uncanny Dodge (8th), "
    "Improved Evasion (10th) and Defensive Roll (13th), and uncanny dodge keeps any creature's Dexterity bonus "
    "when flat-footed; the four classes take the SRD's feats by level (fighter and wizard bonus feats)",
    "disabled-strain": "a disabled creature strains itself with any standard action: a web, a trample, an escape",
    "energy-aware-spells": "casters choose spell and target by expected damage after resistance, immunity and"
    " regeneration",
    "high-level-spells": "the generated wizard and cleric prepare SRD spells of 6th-9th level in those slots",
    "constrict-on-grab": "the grapple check that establishes an improved grab's hold constricts already",
    "hold-full-attack": "a holder makes a grapple check per attack its base attack bonus gives, or holds with the "
    "body part (-20) and full-attacks with its other attacks",
    "swallow-acid": "a swallowed foe takes the gizzard's acid (or fire) each round besides its crushing damage",
    "swallow-bite": "a swallowed foe takes the swallower's bite damage as it is swallowed",
    "cut-free": "a swallowed PC cuts its way out with a dagger; a creature without one escapes back into the mouth",
    "swallower-acts": "a swallower is not grappled: it digests its meal and attacks the others on its turn",
    "pounce-charge": "a pounce is a charge: +2 on its attacks, -2 AC until the creature's next turn",
    "coup-de-grace-rules": "a coup de grace: only with an attack that deals damage, for the hit's whole damage (at"
    " least 1), provoking attacks of opportunity from threatening foes",
    "rider-attacks": "a rider is on every attack its text names (a ghoul's paralysis on its bite and claws)",
    "strength-zero": "Strength or Dexterity 0 leaves a creature helpless, not paralyzed; a shadow's kills at 0",
    "finesse-ability-damage": "a Weapon Finesse attack's roll loses lost Dexterity, not lost Strength",
    "trample-evasion": "evasion and improved evasion apply to a trample's Reflex save for half",
    "defensive-roll-blows": "a defensive roll is against a weapon or other blow, not a trample or a crush",
    "powerful-charge-ac": "a powerful charge is a charge: -2 AC until the creature's next turn",
    "constrict-bludgeoning": "constrict deals bludgeoning damage, whatever attack grabbed",
    "hold-grabbing-attack": "a hold deals the damage of the attack that established it",
    "no-touch-inside": "no touch spell or cure burst reaches an ally swallowed whole (no line of effect)",
    "web-ranged": "a web is a ranged touch attack (never retargeted for reach), aimed at a foe not yet entangled",
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
    gaze_response: Literal["avert", "look"] = "avert"
    """SRD 3.5 Gaze Attacks, "Averting Eyes: ... Each round, the opponent has a 50% chance to not need to make a
    saving throw against the gaze attack. The creature with the gaze attack, however, gains concealment against
    that opponent." ``avert``: the gazer's foes avert their eyes from a gaze that takes them out of the fight
    (petrify, paralysis, death, fear, charm; not the chain devil's -2 on attacks), as players do, and miss 20% of
    their hits and rays on the gazer; ``look``: they meet every gaze (the model before)."""
    web_escape: Literal["best", "strength-check"] = "best"
    """SRD 3.5 monstrous spider's web: "An entangled creature can escape with a successful Escape Artist check or
    burst it with a Strength check. Both are standard actions"; entangled: "-2 penalty on attack rolls". ``best``: an
    entangled creature that can fight where it stands (it shoots, or a foe is in melee with it) fights at -2, else
    it tries the better of Escape Artist and Strength; ``strength-check``: every turn a Strength check first (the
    model before)."""
    swallow_choice: Literal["constrict-first", "swallow"] = "constrict-first"
    """A creature holding a foe that it can both constrict (or rake) and swallow whole (SRD 3.5 behir: "A behir
    usually bites and grabs its prey first, then either swallows or constricts the opponent"):
    ``constrict-first`` constricts and rakes on its first turn holding the foe and tries to swallow it on the later
    ones; ``swallow`` tries to swallow it at once (the model before this option)."""
    coup_de_grace: Literal["by-creature", "ruthless", "after-threats", "never"] = "by-creature"
    """Which helpless foes a creature of the built-in policies finishes with a coup de grace (a tactic, not a rule:
    the SRD allows one against any helpless foe). ``ruthless``: one whenever a helpless foe is in reach, before
    fighting those still standing (the model before this option); ``after-threats``: only when no able foe threatens
    it (none can make it an attack of opportunity), so it fights those standing in the melee first; ``never``;
    ``by-creature``: the DM's default for each creature (:func:`arena.combat.tactics.view.coup_style`: never for a
    mindless or animal-intelligence creature, ruthless for an intelligent undead or evil outsider, after-threats
    for the rest, the party's characters too). A scenario's tactics set it for a side or one creature
    (:class:`arena.combat.tactics.TacticsSettings` ``coup_de_grace``), which wins over this option."""
    typical_monster: Literal["srd-medians", "pathfinder"] = "srd-medians"
    """What ``typical-crN`` fights as: the medians of the shipped SRD 3.5 bestiary by CR
    (``arena/data/srd35_monster_medians_by_cr.yaml``) or the Pathfinder Bestiary's Table 1-1 (the typical monster
    before version 0.3; ``typical-pf-crN`` names it under any option)."""
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
        default = _defaults()
        return {
            name: getattr(self, name)
            for name in type(self).model_fields
            if getattr(self, name) != getattr(default, name)
        }


@lru_cache(maxsize=1)
def _defaults() -> ModelOptions:
    """The default options, made once (they are frozen): :meth:`ModelOptions.changed` compares with them for every
    matchup a study plans."""
    return ModelOptions()


LEGACY = ModelOptions(
    flanking="any-melee-ally",
    helpless_ac="flat-footed",
    sleep_casting="instant",
    prad_fortitude="magic-check",
    luck_reroll="known-failure",
    buff_choice="highest-level",
    pc_hit_points="rounded-up",
    area_damage="per-target",
    gaze_response="look",
    web_escape="strength-check",
    swallow_choice="swallow",
    coup_de_grace="ruthless",
    typical_monster="pathfinder",
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
