"""What a policy sees of the fight: the read-only :class:`View`, and which helpless creature a coup de grace is for.

A policy reads the fight only through its view (the enemies it can reach, its allies, the round, the rules, a random
number) and returns an :class:`~arena.combat.actions.Action`; the engine and the kernel decide what happens.
"""

from __future__ import annotations

from typing import Protocol, cast

from arena.combat.combatant import NOT_HELPLESS, Combatant
from arena.combat.flags import ModelFlags
from arena.combat.model import ModelOptions
from arena.combat.spells import shield_of_faith_gain
from arena.combat.template import CompiledAttack
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
    def flags(self) -> ModelFlags: ...
    def rand(self) -> float: ...
    def now(self) -> float: ...


class View:
    """What a policy may see of the fight. Read-only by convention: policies must not change creatures."""

    def __init__(self, fight: ViewedFight) -> None:
        self._fight = fight
        self.flags = fight.flags
        """The fight model's options (:class:`~arena.combat.flags.ModelFlags`), read by the built-in policies on every
        decision; a user's policy may ask :meth:`fixed` by a fix's name."""

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
        return creature.ranged or not (self.flags.back_line and self._fight.melee_count[FOE_SIDE[creature.side]])

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
        srd = self.flags.fix_coup
        return [foe for foe in creature.foes if (everyone or not foe.ranged) and coup_candidate(creature, foe, srd)]

    def threatened(self, creature: Combatant) -> bool:
        """Does any able enemy threaten ``creature`` (:func:`threatens`)?"""
        return any(threatens(foe) for foe in creature.foes)

    def rand(self) -> float:
        return self._fight.rand()

    def fixed(self, name: str) -> bool:
        """Is the model's SRD fix ``name`` in force (:data:`arena.combat.model.FIXES`)?"""
        return self._fight.model.fixed(name)

    @property
    def buff_by_value(self) -> bool:
        """The model's ``buff_choice`` is ``by-value``."""
        return self._fight.flags.buff_by_value

    def shield_gain(self, caster: Combatant, target: Combatant) -> int:
        """What the caster's shield of faith would add to ``target``'s AC (deflection does not stack)."""
        return shield_of_faith_gain(self._fight.flags.fix_deflection, caster.t.caster_level, target)

    def now(self) -> float:
        """The fight's clock, in seconds (:mod:`arena.combat.clock`): what a deadline is compared with (a breath
        weapon's recharge)."""
        return self._fight.now()


def coup_candidate(attacker: Combatant, target: Combatant, srd: bool = True) -> bool:
    """Helpless for now (asleep, held, knocked out), neither dying nor dead, and killable by a coup de grace
    (``srd``: the model's ``coup-de-grace-rules`` fix, :func:`coup_weapon`)."""
    return (
        not target.is_able
        and not target.dead
        and target.hp >= 0
        and NOT_HELPLESS.isdisjoint(target.conditions)
        and _coup_can_kill(attacker, target, srd)
    )


def _coup_can_kill(attacker: Combatant, target: Combatant, srd: bool = True) -> bool:
    """A coup de grace is worth a turn: the target is not immune to critical hits (then none is allowed), the
    attacker has a weapon to deliver it with, and that weapon overcomes any regeneration (otherwise the blow is
    nonlethal and cannot kill)."""
    template = target.t
    if "critical hits" in template.immunities:
        return False
    weapon = coup_weapon(attacker, srd)
    if weapon is None:
        return False
    return not template.regen or bool(weapon.overcomes & template.regen_overcome)


def coup_weapon(attacker: Combatant, srd: bool = True) -> CompiledAttack | None:
    """The attack a coup de grace is delivered with, or None when it has none.

    SRD 3.5: "As a full-round action, you can use a melee weapon to deliver a coup de grace to a helpless
    opponent. ... You automatically hit and score a critical hit." A touch that deals no damage (a shadow's
    Strength-draining touch) is not a weapon that can: under ``srd`` (the model's ``coup-de-grace-rules`` fix) the
    melee attack of its routine whose critical hit deals most; without it, the first attack of its routine,
    whatever it is (the model before the fix)."""
    template = attacker.t
    routine = template.full or template.standard
    if not routine:
        return None
    if not srd:
        return routine[0]
    known = template.coup_attack
    if known is not False:  # worked out once per template: it depends on the routine alone
        return cast(CompiledAttack | None, known)
    best: CompiledAttack | None = None
    most = 0.0
    for attack in routine:
        if attack.harmless or attack.ranged:
            continue
        damage = attack.damage.mean * attack.multiplier
        if best is None or damage > most:
            best, most = attack, damage
    template.coup_attack = best
    return best


COUP_STYLES = ("ruthless", "after-threats", "never")
"""What the model's ``coup_de_grace`` option may say of one creature (``by-creature`` picks one per creature)."""
ANIMAL_INTELLIGENCE = 2
"""SRD 3.5 Intelligence: "Any creature that can think, learn, or remember has an Intelligence score of at least 1";
an animal has 1 or 2. Such a creature (and a mindless one, Intelligence "-") does not execute a helpless foe."""
CUNNING_INTELLIGENCE = 6
"""From Intelligence 6 (a mummy's, a shadow's) an undead or evil outsider is a killer that finishes its victims."""


def coup_style(creature: Combatant, option: str) -> str:
    """Which helpless foes ``creature`` finishes (one of :data:`COUP_STYLES`) under the model's ``coup_de_grace``
    option. ``by-creature``, the DM's default: a mindless or animal-intelligence creature (Intelligence "-", 1 or 2)
    never delivers one; an undead or an evil outsider (the ``evil`` subtype) of Intelligence 6 or more is ruthless;
    every other creature, the party's characters too, fights those who threaten it first (``after-threats``: a
    player does not take attacks of opportunity to finish a foe that is out of the fight for now). The model has no
    alignments: the SRD's evil humanoids and giants are ``after-threats``."""
    if option != "by-creature":
        return option
    template = creature.t
    intelligence = template.abilities["int"]
    if intelligence is None or intelligence <= ANIMAL_INTELLIGENCE:
        return "never"
    if intelligence >= CUNNING_INTELLIGENCE and (template.type == "undead" or "evil" in template.subtypes):
        return "ruthless"
    return "after-threats"


def resolve_coup_style(creature: Combatant, option: str) -> str:
    """Set and return ``creature``'s coup-de-grace style (:attr:`Combatant.coup`), once, when it joins the fight: its
    own tactics' ``coup_de_grace`` (a scenario's per-creature setting, else its side's), else the model's
    ``coup_de_grace`` option (``option``), through :func:`coup_style`."""
    style = creature.coup = coup_style(creature, creature.settings.coup_de_grace or option)
    return style


def threatens(foe: Combatant) -> bool:
    """Does ``foe`` threaten a creature that delivers a coup de grace beside it (could it make an attack of
    opportunity)? The model has no squares: every able enemy fighting in the melee (not standing back to shoot or
    cast) with a melee attack, and not holding or held in a grapple (SRD: "you don't threaten any squares while
    grappling"), threatens any creature in the melee."""
    if not foe.is_able or foe.ranged or foe.grip is not None:
        return False
    routine = foe.t.full or foe.t.standard
    return bool(routine) and not routine[0].ranged
