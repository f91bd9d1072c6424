"""At whom a caster's spell is worth aiming: whom it can affect, whom sleep's Hit Dice reach, the target of a
single-target spell. Shared by the party's choices (:mod:`arena.combat.tactics.caster`) and a monster's own
(:mod:`arena.combat.tactics.monster_caster`).
"""

from __future__ import annotations

from arena.combat.actions import Action
from arena.combat.combatant import Combatant
from arena.combat.spells import SLEEP_HD, SPELLS, Spell
from arena.combat.tactics.attack import choose_target
from arena.combat.tactics.view import View

SlotCache = dict[str | None, list[tuple[str, int]]]
"""A caster's spells still prepared, by kind (:attr:`arena.world.spellbook.Spell.kind`, None for a spell no kind
is known for, ``monster`` when it has a monster's own), each kind's (name, level) highest level first."""
AREA_MINIMUM = 3
"""A caster throws an area spell when it can catch at least three enemies."""
AREA_GROUP_MINIMUM = 2 * (AREA_MINIMUM - 1)
"""The fewest enemies from which an area (half the group plus one, see :func:`arena.combat.spells.area_count`) catches
:data:`AREA_MINIMUM`."""


def can_affect(view: View, spell: Spell, creature: Combatant) -> bool:
    """Can the spell do anything to ``creature``? (mind-affecting immunity, sleep's Hit Dice, hold person's
    humanoids; under the ``immune-targets`` fix, immunity to every kind of damage it deals.) A monster's own
    spells are weighed by :func:`arena.combat.spell_targets.affects` besides."""
    template = creature.t
    if spell.mind and "mind-affecting" in template.immunities:
        return False
    if spell.name == "sleep":
        return template.hd <= SLEEP_HD and "sleep" not in template.immunities
    if spell.name == "hold person":
        return template.humanoid and "paralysis" not in template.immunities
    immunities = template.immunities
    return not (immunities and spell.damage and spell.damage <= immunities and view.fixed("immune-targets"))


def within_sleep_budget(creatures: list[Combatant], budget: int = SLEEP_HD) -> list[Combatant]:
    """The creatures sleep's 4 Hit Dice (deep slumber's 10) put to sleep, fewest Hit Dice first (as the spell takes
    them)."""
    chosen = []
    for creature in sorted(creatures, key=lambda each: (each.t.hd, each.uid)):
        if creature.t.hd <= budget:
            chosen.append(creature)
            budget -= creature.t.hd
    return chosen


def single_spell(
    view: View, creature: Combatant, name: str, level: int, enemies: list[Combatant], target: Combatant | None
) -> Action | None:
    """Casting single-target spell ``name`` at ``target`` (the enemy the caster's targeting picked), or at the enemy
    it picks among those the spell affects (hold person: a humanoid not held); None when no enemy is worth it."""
    spell = SPELLS[name]
    if name == "hold person":
        humanoids = [
            enemy
            for enemy in enemies
            if enemy.t.humanoid and can_affect(view, spell, enemy) and "held" not in enemy.conditions
        ]
        if humanoids:
            return Action("cast", spell=name, level=level, targets=_picked(view, creature, humanoids))
        return None
    if target is None or not can_affect(view, spell, target):  # immune to it (only under ``immune-targets``)
        hurt = [enemy for enemy in enemies if can_affect(view, spell, enemy)]
        if not hurt:
            return None  # every enemy is immune to it: another spell, or the weapon
        return Action("cast", spell=name, level=level, targets=_picked(view, creature, hurt))
    return Action("cast", spell=name, level=level, targets=[target])


def _picked(view: View, creature: Combatant, enemies: list[Combatant]) -> list[Combatant]:
    """The one enemy of ``enemies`` (not empty) the creature's targeting picks, as a spell's targets."""
    first = choose_target(view, creature, enemies)
    return [first] if first is not None else enemies[:1]
