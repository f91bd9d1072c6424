"""Which variants are on: the `RuleSet`, its text key, and the variant grid.

A key names the die first, then in this order ``prad`` (players roll all), ``var`` or ``luck`` (variable
modifiers, pressed luck), ``open``, ``called``, joined by ``+``: ``d20`` is the standard game,
``3d6+prad+luck+open`` a bell curve with players rolling, pressing luck, open-ended.
Choices the documents leave open live in :class:`RuleOptions`; they are not part of the key (a run's
manifest records them), so keys stay stable.
"""

from __future__ import annotations

import itertools
from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict

from arena.errors import RulesError

Die = Literal["d20", "3d6", "fixed10"]
Modifiers = Literal["static", "variable", "press-luck"]

DIES: tuple[Die, ...] = ("d20", "3d6", "fixed10")
MODIFIERS: tuple[Modifiers, ...] = ("static", "variable", "press-luck")
_MODIFIER_TAG: dict[Modifiers, str] = {"variable": "var", "press-luck": "luck"}
_TAG_MODIFIER = {tag: mod for mod, tag in _MODIFIER_TAG.items()}
_ORDER = ("prad", "var", "luck", "open", "called")
MAX_KEY_LENGTH = 64
"""Characters in a rule-set key: the longest, ``3d6+prad+luck+open+called``, has 25."""


class RuleOptions(BaseModel):
    """Choices where the documents are silent or two variants meet (docs/rules.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bell_threat_16_20: Literal[13, 14] = 13
    """Doc 000 has no row for a d20 threat range of 16-20. 13-18 (25.9%) is nearest the old 25%;
    14 reads the table's "17-20 -> 14-18" flat spot as continuing."""
    prad_automatic: bool = True
    """Players roll all: a natural 1 on a defense check always hits and a natural 20 always misses; a natural 20
    on a magic check always affects the creature and a natural 1 never does (mirrors the saver's 1 and 20)."""
    prad_threat: Literal["die-minimum", "mirror"] = "die-minimum"
    """Players roll all with a wider threat range. Doc 001 says only "If a player rolls a natural 1 on a defense
    check, his character's opponent has scored a threat": ``die-minimum`` (the default since 0.4) keeps its words,
    only the die's lowest natural threatens (1 on a d20, 3 on 3d6), whatever the weapon's range; ``mirror`` (the
    default before) makes a defense natural ``21 - t`` threaten for every threatening attack natural ``t``
    (19-20 -> 1-2; on 3d6, 16-18 -> 3-5), keeping the weapon's threat chance."""
    open_automatic: bool = False
    """Doc 002 replaces "a natural 20 always succeeds, a natural 1 always fails": by default none of it survives
    under open-ended rolls; True keeps the automatic results as well."""
    open_criticals: Literal["margin", "confirm"] = "margin"
    """Open-ended attacks: ``margin`` makes a critical hit exactly a critical success (beat the AC by 20 or more
    from a natural in the threat range), with no confirmation roll; ``confirm`` keeps the threat and confirmation
    roll and adds critical successes as critical hits."""
    variable_sides: Literal["both", "pc", "monster"] = "both"
    """Doc 000 allows variable modifiers for some characters only (advising against it): whose rolls use them."""
    auspicious_scope: Literal["listed", "all-rolls"] = "listed"
    """Auspicious odds names attack rolls, saves, ability and skill checks (``listed``, initiative counting as a
    Dexterity check). ``all-rolls`` (the default before 0.3) extends it to every d20-type roll its subject
    physically makes (defense, magic, caster level, spell resistance checks)."""
    confirm_automatic: bool = True
    """The automatic hit and miss of a natural 20 / 1 apply to the confirmation roll too (it is an attack roll)."""


class _KeyFields(TypedDict, total=False):
    """The fields a rule-set key sets (:meth:`RuleSet.from_key`); the others keep their defaults."""

    die: Die
    players_roll_all: bool
    modifiers: Modifiers
    open_ended: bool
    called_shots: bool


class RuleSet(BaseModel):
    """The variants in force for a check, a fight or a run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    die: Die = "d20"
    players_roll_all: bool = False
    modifiers: Modifiers = "static"
    open_ended: bool = False
    called_shots: bool = False
    options: RuleOptions = RuleOptions()

    def model_post_init(self, __context: object) -> None:
        refuse_impossible(self)

    @property
    def key(self) -> str:
        parts: list[str] = [self.die]
        if self.players_roll_all:
            parts.append("prad")
        if self.modifiers != "static":
            parts.append(_MODIFIER_TAG[self.modifiers])
        if self.open_ended:
            parts.append("open")
        if self.called_shots:
            parts.append("called")
        return "+".join(parts)

    @classmethod
    def from_key(cls, key: str, options: RuleOptions | None = None) -> RuleSet:
        """Parse a key such as ``3d6+prad+luck``; raises :class:`RulesError` naming what is wrong."""
        if not isinstance(key, str):
            raise RulesError(f"a rule-set key is text such as d20+var, not {type(key).__name__}")
        if len(key) > MAX_KEY_LENGTH:
            raise RulesError(
                f"rule set {key[:30]!r}... is {len(key):,} characters long: a key is at most "
                f"{MAX_KEY_LENGTH} (the longest, 3d6+prad+luck+open+called, has 25)"
            )
        parts = [p.strip() for p in key.strip().split("+")]
        die = parts[0]
        if die not in DIES:
            raise RulesError(f"rule set {key!r}: unknown die {die!r} (choose from {', '.join(DIES)})")
        fields: _KeyFields = {"die": die}  # only what the key names: the model's fields_set stays the same
        last = -1
        for tag in parts[1:]:
            if tag not in _ORDER:
                raise RulesError(f"rule set {key!r}: unknown variant {tag!r} (choose from {', '.join(_ORDER)})")
            pos = _ORDER.index(tag)
            if pos <= last:
                raise RulesError(f"rule set {key!r}: variants go in the order {'+'.join(_ORDER)}, once each")
            if tag in _TAG_MODIFIER and "modifiers" in fields:
                raise RulesError(f"rule set {key!r}: 'var' and 'luck' are two settings of one variant")
            last = pos
            if tag == "prad":
                fields["players_roll_all"] = True
            elif tag in _TAG_MODIFIER:
                fields["modifiers"] = _TAG_MODIFIER[tag]
            elif tag == "open":
                fields["open_ended"] = True
            else:
                fields["called_shots"] = True
        return cls(**fields, options=options or RuleOptions())

    def __str__(self) -> str:
        return self.key


def refuse_impossible(rules: RuleSet) -> None:
    """Refuse combinations that cannot mean anything, with the reason."""
    if rules.die == "fixed10":
        if rules.modifiers != "static":
            raise RulesError(
                f"rule set {rules.key!r}: fixed10 is the control where every roll is exactly a natural 10 "
                "plus a static modifier; variable or pressed dice would make it random again"
            )
        if rules.open_ended:
            raise RulesError(
                f"rule set {rules.key!r}: fixed10 never rolls a natural 20 or 1, so open-ended rolls cannot happen"
            )
        if rules.called_shots:
            raise RulesError(
                f"rule set {rules.key!r}: a called shot presses luck (variable dice), which the "
                "fixed10 control does not roll"
            )


def default_grid() -> list[RuleSet]:
    """Every combination the documents define: 2 dice x prad x 3 modifier systems x open x called = 48."""
    dice: tuple[Die, ...] = ("d20", "3d6")
    return [
        RuleSet(die=d, players_roll_all=p, modifiers=m, open_ended=o, called_shots=c)
        for d, p, m, o, c in itertools.product(dice, (False, True), MODIFIERS, (False, True), (False, True))
    ]


def grid(**values: list) -> list[RuleSet]:
    """The product of variant values, e.g. ``grid(die=["d20", "3d6"], open_ended=[False, True])``;
    a variant not named keeps its standard value. Impossible combinations raise :class:`RulesError`."""
    names = list(values)
    return [RuleSet(**dict(zip(names, combo, strict=True))) for combo in itertools.product(*(values[n] for n in names))]


STANDARD = RuleSet()
"""The standard d20 rules."""
