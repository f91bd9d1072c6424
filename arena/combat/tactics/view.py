"""What a policy sees of the fight: the read-only :class:`View`, and which helpless creature a coup de grace is for.

A policy reads the fight only through its view (the enemies it can reach, its allies, the round, the rules, a random
number) and returns an :class:`~arena.combat.actions.Action`; the engine and the kernel decide what happens.
"""

from __future__ import annotations

from typing import Protocol

from arena.combat.combatant import NOT_HELPLESS, Combatant
from arena.combat.model import ModelOptions
from arena.combat.spells import shield_of_faith_gain
from arena.rules import RuleSet

FOE_SIDE = {"pc": "monster", "monster": "pc"}
"""The side each side fights."""


class ViewedFight(Protocol):
    """What the view reads of a fight. :class:`arena.combat.fight_state.FightState` has it all; the view sits below
    the fight's state (which holds a view), so it names the few members it reads instead of importing it."""

    @property
    def round(self) -> int: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def model(self) -> ModelOptions: ...
    @property
    def melee_count(self) -> dict[str, int]: ...
    @property
    def back_line(self) -> bool: ...
    @property
    def buff_by_value(self) -> bool: ...
    @property
    def fix_deflection(self) -> bool: ...
    def rand(self) -> float: ...
    def now(self) -> float: ...


class View:
    """What a policy may see of the fight. Read-only by convention: policies must not change creatures."""

    __slots__ = ("_fight", "_protected")

    def __init__(self, fight: ViewedFight) -> None:
        self._fight = fight
        self._protected = fight.back_line
        """The model's back line is protected (the hot loop reads it on every melee decision)."""

    @property
    def round(self) -> int:
        return self._fight.round

    @property
    def rules(self) -> RuleSet:
        return self._fight.rules

    def enemies(self, creature: Combatant) -> list[Combatant]:
        """The able enemies of ``creature``, in a stable order."""
        return [foe for foe in creature.foes if foe.is_able]

    def reaches_all(self, creature: Combatant) -> bool:
        """Can ``creature``'s weapons reach every enemy? Ranged attackers can; a melee creature reaches only the
        enemies in the melee while any able enemy fights there (those who stand back are behind them), unless the
        model's ``back_line`` is ``reachable``."""
        return creature.ranged or not (self._protected and self._fight.melee_count[FOE_SIDE[creature.side]])

    def reaches(self, creature: Combatant, target: Combatant) -> bool:
        """Can ``creature``'s weapons reach ``target``?"""
        return not target.ranged or self.reaches_all(creature)

    def reachable(self, creature: Combatant) -> list[Combatant]:
        """The able enemies ``creature`` can attack with its weapons."""
        if self.reaches_all(creature):
            return self.enemies(creature)
        return [foe for foe in creature.foes if foe.is_able and not foe.ranged]

    def allies(self, creature: Combatant, include_down: bool = False) -> list[Combatant]:
        return [friend for friend in creature.friends if not friend.dead and (include_down or friend.is_able)]

    def helpless_enemies(self, creature: Combatant) -> list[Combatant]:
        """Enemies in reach, not dying, helpless for now (asleep, held, knocked out), that a coup de grace from
        ``creature`` can kill: its coup de grace targets."""
        everyone = self.reaches_all(creature)
        return [foe for foe in creature.foes if (everyone or not foe.ranged) and coup_candidate(creature, foe)]

    def rand(self) -> float:
        return self._fight.rand()

    def fixed(self, name: str) -> bool:
        """Is the model's SRD fix ``name`` in force (:data:`arena.combat.model.FIXES`)?"""
        return self._fight.model.fixed(name)

    @property
    def buff_by_value(self) -> bool:
        """The model's ``buff_choice`` is ``by-value``."""
        return self._fight.buff_by_value

    def shield_gain(self, caster: Combatant, target: Combatant) -> int:
        """What the caster's shield of faith would add to ``target``'s AC (deflection does not stack)."""
        return shield_of_faith_gain(self._fight.fix_deflection, caster.t.caster_level, target)

    def now(self) -> float:
        """The fight's clock, in seconds (:mod:`arena.combat.clock`): what a deadline is compared with (a breath
        weapon's recharge)."""
        return self._fight.now()


def coup_candidate(attacker: Combatant, target: Combatant) -> bool:
    """Helpless for now (asleep, held, knocked out), neither dying nor dead, and killable by a coup de grace."""
    return (
        not target.is_able
        and not target.dead
        and target.hp >= 0
        and not (NOT_HELPLESS & target.conditions.keys())
        and _coup_can_kill(attacker, target)
    )


def _coup_can_kill(attacker: Combatant, target: Combatant) -> bool:
    """A coup de grace is worth a turn: the target is not immune to critical hits (then none is allowed) and the
    attacker's weapon overcomes any regeneration (otherwise the blow is nonlethal and cannot kill)."""
    template = target.t
    if "critical hits" in template.immunities:
        return False
    routine = attacker.t.full or attacker.t.standard
    if not routine:
        return False
    return not template.regen or bool(routine[0].overcomes & template.regen_overcome)
