"""What is rolled and against what (`Check`), and what came of it (`Outcome`).

Both are plain values, not pydantic models: the engine builds and resolves millions of them. A check carries
numbers only; the rules know no creatures.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

KINDS = ("attack", "save", "skill", "ability", "caster-level", "initiative", "defense")
"""Check kinds. ``defense`` is the players-roll-all defense check (seed 003's AC/CMD "roll"), made by the defender:
its modifier is the AC's modifiers (AC - 10) and its target the attack score (11 + attack bonus)."""
SIDES = ("pc", "monster")
ATTACK_LIKE = frozenset({"attack", "defense"})
"""The kinds an attack is rolled with: the attack roll, and the players-roll-all defense check against it."""


class Check(NamedTuple):
    """One d20-type roll, described from the side that rolls it under the standard rules.

    ``side`` is the attacker (attack), the creature saving (save), the caster (caster-level check against spell
    resistance), the one checking (skill, ability, initiative), or the defender (defense). ``opponent`` is the side
    of the other creature involved (defender, caster, the one with spell resistance), by default the other side:
    players roll all the dice changes who physically rolls only when a monster's roll is made against a PC.
    The situational flags ``press_luck``, ``luck_reroll`` and ``auspicious`` belong to whoever physically rolls
    (:func:`arena.rules.roller` says who); ``luck_reroll`` means "reroll once if this roll fails", ``reroll_low``
    "reroll once if the natural roll is low".
    """

    kind: str
    side: str = "pc"
    modifier: int = 0
    """The net static modifier the roller's side knows (attack bonus, save bonus, skill modifier, AC - 10...)."""
    target: int = 10
    """AC, DC, SR, or the target number; for a defense check, the attack score."""
    hidden: int = 0
    """Modifiers the roller does not know: applied static after the roll, whatever the modifier system."""
    threat: int = 20
    """Attacks: the lowest natural d20 that threatens, after Improved Critical / keen (19 for 19-20)."""
    multiplier: int = 2
    opponent: str | None = None
    unconscious: bool = False
    flat_footed: bool = False
    """The defender is flat-footed (a flat-footed AC roll cannot press luck)."""
    take: int | None = None
    """Take 10 / 16 / 18 / 20 on a skill or ability check."""
    press_luck: bool = False
    luck_reroll: bool = False
    auspicious: bool = False
    reroll_low: bool = False
    """The Luck domain's reroll decided from the natural roll alone, before success or failure is known: reroll
    once when the natural is one the die makes at most 10% of the time from the bottom
    (:data:`arena.rules.naturals.LOW_NATURAL_SHARE`)."""


_BUILT: dict[tuple[object, ...], Check] = {}
"""Checks the fight built (:func:`attack_check`, :func:`simple_check`) by their fields: each is made once, then found.
As many as the rule sets' kernels hold plans for (one per distinct check)."""


def attack_check(
    side: str, modifier: int, target: int, threat: int, multiplier: int, opponent: str, flat_footed: bool, press: bool
) -> Check:
    """An attack roll's check, every other field at its default: ``Check("attack", side, modifier=..., ...)``.

    The fight needs one on every swing, and the namedtuple's constructors stay interpreted Python under the compiled
    engine: the check is made once from its full tuple of fields (``Check._make``) and found by that tuple after.
    ``tests/rules/test_rules.py`` holds it equal to the keyword constructor's."""
    fields = ("attack", side, modifier, target, 0, threat, multiplier, opponent, False, flat_footed, None, press)
    check = _BUILT.get(fields)
    if check is None:
        check = _BUILT[fields] = Check._make((*fields, False, False, False))
    return check


def simple_check(kind: str, side: str, modifier: int, target: int, opponent: str | None) -> Check:
    """A save, ability, skill or caster-level check with every other field at its default (as
    :func:`attack_check`): ``Check(kind, side, modifier, target, opponent=opponent)``."""
    fields = (kind, side, modifier, target, opponent)
    check = _BUILT.get(fields)
    if check is None:
        check = _BUILT[fields] = Check._make(
            (kind, side, modifier, target, 0, 20, 2, opponent, False, False, None, False, False, False, False)
        )
    return check


class Outcome:
    """A resolved check, named from the side that acts (``Check.side``), whoever physically rolled.

    Read it, never change it: the kernel shares one outcome object between every roll that produced it."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "natural",
        "total",
        "success",
        "auto_success",
        "auto_failure",
        "threat",
        "critical",
        "critical_success",
        "fumble",
        "item_damage",
        "pressed",
        "spell_ends",
        "rerolled",
        "roller",
    )

    def __init__(
        self,
        natural: int,
        total: int,
        success: bool,
        auto_success: bool,
        auto_failure: bool,
        threat: bool,
        critical: bool,
        critical_success: bool,
        fumble: bool,
        item_damage: bool,
        pressed: bool,
        spell_ends: bool,
        rerolled: bool,
        roller: str,
    ):
        self.natural = natural
        """The natural roll of the deciding die (a 3d6 sum; the initial die of an open-ended chain)."""
        self.total = total
        """What the physical roller's check totalled (a defense or magic check total under players roll all)."""
        self.success = success
        """Attack: it hits. Save: the save succeeds. Caster level: the spell gets through. Checks: success."""
        self.auto_success = auto_success
        self.auto_failure = auto_failure
        self.threat = threat
        self.critical = critical
        """A critical hit (confirmed, or an open-ended critical success)."""
        self.critical_success = critical_success
        self.fumble = fumble
        self.item_damage = item_damage
        """A natural 1 on a save, or a natural 20 on a magic check: the saver's equipment may take damage."""
        self.pressed = pressed
        self.spell_ends = spell_ends
        """Auspicious odds ended: all four of its dice showed 1."""
        self.rerolled = rerolled
        self.roller = roller
        """The side that physically rolled."""
        self.extreme = auto_success or auto_failure or critical_success or fumble
        """Any of the extremes a tally counts (automatic success or failure, critical success, fumble): most rolls
        have none, and the hot loop skips counting them."""

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.FIELDS}

    def __repr__(self) -> str:
        flags = [n for n in self.FIELDS[2:-1] if getattr(self, n) is True]
        return f"Outcome(natural={self.natural}, total={self.total}, {', '.join(flags) or 'failure'})"
