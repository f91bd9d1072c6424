"""At whom a caster's spell is worth aiming: whom it can affect, whom sleep's Hit Dice reach, the target of a
single-target spell. Shared by the party's choices (:mod:`arena.combat.tactics.caster`) and a monster's own
(:mod:`arena.combat.tactics.monster_caster`).
"""

from __future__ import annotations

from typing import cast

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
    if spell.only == "living" and template.type in ("undead", "construct"):
        return False
    immunities = template.immunities
    return not (immunities and spell.damage and spell.damage <= immunities and view.flags.fix_immune_targets)


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
    if name == "chain lightning" and target is not None:  # the primary, then one secondary per caster level
        others = [enemy for enemy in enemies if enemy is not target][: min(20, creature.t.caster_level)]
        return Action("cast", spell=name, level=level, targets=[target, *others])
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


# The expected worth of a spell at a target (the ``energy-aware-spells`` fix): the damage it can be expected to
# deal after spell resistance, the attack roll, the save and the target's defences against its energy, at most
# what drops the target; for a spell that takes a creature out (a death effect, hold person, sleep), the hit points
# it takes out times the chance it works. A choice, not a roll: the d20's odds under every rule set.
NONLETHAL_WORTH = 0.5
"""What a point of damage a regenerating creature takes as nonlethal (cold at a troll) is worth against a lethal
one: it knocks the creature out at most, and regeneration heals it every round."""
STUN_WORTH = 0.25
"""Color spray's one round of stun on a creature of 5 or more Hit Dice: a quarter of taking it out."""
INCORPOREAL_WORTH = 0.5
"""SRD incorporeal: a spell has a 50% chance to harm it (force and positive energy always)."""
_INCORPOREAL_ALWAYS = frozenset({"force", "positive"})
_UNDEAD_OR_CONSTRUCT = ("undead", "construct")
_AREA_AVERAGE = {"delayed blast fireball": 20, "fire storm": 20, "blade barrier": 15}


def _chance(needed: int) -> float:
    """The chance of a d20 roll of ``needed`` or more, a natural 1 failing and a 20 succeeding."""
    return min(0.95, max(0.05, (21 - needed) / 20))


def _through(caster: Combatant, target: Combatant) -> float:
    """The chance the caster's spell gets through the target's spell resistance (d20 + caster level)."""
    sr = target.t.sr
    return 1.0 if not sr else min(1.0, max(0.0, (21 + caster.t.caster_level - sr) / 20))


def _touch(caster: Combatant, target: Combatant) -> float:
    """The chance of a ranged touch attack (a ray) hitting ``target``."""
    return _chance(target.t.touch_ac + target.ac_bonus - caster.t.ray_bonus - caster.attack_bonus)


def _fails(view: View, caster: Combatant, target: Combatant, spell: Spell, level: int) -> float:
    """The chance ``target`` fails its save against the caster's spell of ``level``."""
    dc = caster.t.spell_dc_base + level
    if caster.t.spell_focus and view.flags.fix_spell_focus:
        dc += caster.t.spell_focus.get(spell.school, 0)
    save = spell.save or "ref"
    return 1.0 - _chance(dc - target.t.saves[save] - target.save_bonus)


def after_defences(target: Combatant, amount: float, types: frozenset[str]) -> float:
    """What ``amount`` of damage of ``types`` is worth against ``target``: nothing if it is immune to all of them,
    less its energy resistance and +50% for a vulnerability (one type, as :func:`arena.combat.damage.deal`), half
    against an incorporeal creature, :data:`NONLETHAL_WORTH` where its regeneration makes it nonlethal."""
    t = target.t
    if types and types <= t.immunities:
        return 0.0
    if len(types) == 1:
        (kind,) = types
        amount = max(0.0, amount - cast(dict[str, int], t.resist).get(kind, 0))
        if kind in t.vulnerabilities:
            amount *= 1.5
    if t.incorporeal and not (types & _INCORPOREAL_ALWAYS):
        amount *= INCORPOREAL_WORTH
    if t.regen and not (types & t.regen_overcome):
        amount *= NONLETHAL_WORTH
    return amount


def _half_on_save(
    view: View, caster: Combatant, target: Combatant, spell: Spell, level: int, rolled: float, types: frozenset[str]
) -> float:
    """Expected worth of ``rolled`` damage of ``types`` with a save for half (Reflex: none with evasion; blade
    barrier: none), the target's defences applied after the halving, as :func:`arena.combat.damage.area_damage`
    does (flame strike: half fire, half divine)."""
    fails = _fails(view, caster, target, spell, level)
    negated = spell.name == "blade barrier" or (spell.save == "ref" and target.t.evasion)
    half = 0.0 if negated else _worth(target, rolled / 2, types, spell.name)
    return fails * _worth(target, rolled, types, spell.name) + (1 - fails) * half


def _worth(target: Combatant, amount: float, types: frozenset[str], name: str) -> float:
    if name == "flame strike":
        return after_defences(target, amount / 2, frozenset({"fire"})) + after_defences(
            target, amount / 2, frozenset({"divine"})
        )
    return after_defences(target, amount, types)


_DAMAGE_ONLY = frozenset(
    {
        "magic missile",
        "scorching ray",
        "searing light",
        "polar ray",
        "chain lightning",
        "ice storm",
        "meteor swarm",
        "fireball",
        "lightning bolt",
        "cone of cold",
        "flame strike",
        *_AREA_AVERAGE,
    }
)
"""Spells whose worth before the cap at the target's hit points depends on nothing but the spell, the slot, the two
creatures' templates and their attack, AC and save bonuses: :func:`spell_value` remembers it on the caster's
template (the fight model, which the worth also reads, is the encounter's, as the templates are)."""
_PER_HIT_POINT = frozenset({"hold person", "sleep", "color spray"})
"""Spells that take a creature out: worth its hit points times a chance (which :func:`spell_value` remembers as
for :data:`_DAMAGE_ONLY`)."""
SPELL_WORTH_MEMO = 4096
"""Entries a caster's memo keeps before it starts again (summoned creatures' templates are new in every fight)."""


def spell_value(view: View, caster: Combatant, name: str, level: int, target: Combatant, sphere: int = 0) -> float:
    """The expected worth of casting ``name`` (from a slot of ``level``) at ``target``, in hit points taken off it
    (:data:`NONLETHAL_WORTH` ...), at most its hit points; 0 when the spell cannot affect it. ``sphere``: meteor
    swarm, how many of its spheres are aimed at ``target``.

    A caster weighs every spell it has at every enemy on each of its turns: the worth of a damage spell
    (:data:`_DAMAGE_ONLY`) is remembered on the caster's template, keyed by all that moves it."""
    left = float(max(1, target.hp))
    per_hit_point = name in _PER_HIT_POINT
    if not per_hit_point and name not in _DAMAGE_ONLY:
        return min(_worth_of(view, caster, name, level, target, sphere, left), left)
    if name == "hold person" and "held" in target.conditions:
        return 0.0  # (outside the memo: the hold comes and goes)
    memo = caster.t.spell_worth
    key = (name, level, target.t, sphere, target.ac_bonus, target.save_bonus, caster.attack_bonus)
    value = memo.get(key)
    if value is None:
        if len(memo) >= SPELL_WORTH_MEMO:
            memo.clear()
        value = memo[key] = _worth_of(view, caster, name, level, target, sphere, 1.0 if per_hit_point else left)
    return min(value * left if per_hit_point else value, left)


def _worth_of(
    view: View, caster: Combatant, name: str, level: int, target: Combatant, sphere: int, left: float
) -> float:
    """:func:`spell_value` before the cap at the target's hit points (``left``)."""
    spell = SPELLS[name]
    if not can_affect(view, spell, target):
        return 0.0
    t = target.t
    cl = caster.t.caster_level
    value = 0.0
    if name == "magic missile":
        value = after_defences(target, 3.5 * min(5, (cl + 1) // 2), spell.damage)
    elif name == "scorching ray":
        value = (1 + (cl >= 7) + (cl >= 11)) * _touch(caster, target) * after_defences(target, 14.0, spell.damage)
    elif name == "searing light":
        dice = (
            3.5 * min(10, cl)
            if t.type == "undead"
            else 3.5 * min(5, cl // 2)
            if t.type == "construct"
            else 4.5 * max(1, min(5, cl // 2))
        )
        value = _touch(caster, target) * after_defences(target, dice, spell.damage)
    elif name == "polar ray":
        value = _touch(caster, target) * after_defences(target, 3.5 * min(25, cl), spell.damage)
    elif name == "disintegrate":
        fails = _fails(view, caster, target, spell, level)
        full = min(left, after_defences(target, 7.0 * min(40, 2 * cl), frozenset()))
        value = _touch(caster, target) * (fails * full + (1 - fails) * after_defences(target, 17.5, frozenset()))
    elif name in ("finger of death", "destruction"):
        if "death effects" in t.immunities or t.type in _UNDEAD_OR_CONSTRUCT:
            return 0.0
        saved = 10.5 + min(25, cl) if name == "finger of death" else 35.0
        fails = _fails(view, caster, target, spell, level)
        value = fails * left + (1 - fails) * after_defences(target, saved, frozenset())
    elif name == "harm":
        if t.type == "undead":
            return 0.0
        amount = min(10.0 * cl, 150.0, left - 1)
        fails = _fails(view, caster, target, spell, level)
        value = _chance(t.touch_ac - caster.t.ray_bonus) * (fails * amount + (1 - fails) * amount / 2)
    elif name == "hold person":
        if "held" in target.conditions:
            return 0.0
        value = _fails(view, caster, target, spell, level) * left
    elif name == "sleep":
        value = _fails(view, caster, target, spell, level) * left
    elif name == "color spray":
        worth = 1.0 if t.hd <= 4 else STUN_WORTH
        value = _fails(view, caster, target, spell, level) * left * worth
    elif name == "chain lightning":  # the primary target's share (secondaries: :func:`chain_targets`)
        value = _half_on_save(view, caster, target, spell, level, 3.5 * min(20, cl), spell.damage)
    elif name == "ice storm":
        value = after_defences(target, 10.5, frozenset({"bludgeoning", "magic"})) + after_defences(
            target, 7.0, frozenset({"cold"})
        )
    elif name == "meteor swarm":
        fire = _half_on_save(view, caster, target, spell, level, 21.0, frozenset({"fire"}))
        if sphere:
            touch = _touch(caster, target)
            struck = after_defences(target, 7.0, frozenset({"bludgeoning", "magic"})) + after_defences(
                target, 21.0, frozenset({"fire"})
            )
            value = sphere * (touch * struck + (1 - touch) * fire)
        else:
            value = fire
    elif name in ("fireball", "lightning bolt", "cone of cold", "flame strike") or name in _AREA_AVERAGE:
        cap = _AREA_AVERAGE.get(name, 15 if name in ("cone of cold", "flame strike") else 10)
        value = _half_on_save(view, caster, target, spell, level, 3.5 * min(cl, cap), spell.damage)
    if spell.sr:
        value *= _through(caster, target)
    return value


def chain_targets(view: View, caster: Combatant, enemies: list[Combatant], level: int) -> tuple[list[Combatant], float]:
    """Chain lightning's targets (the primary first: the one it is worth most against, then the secondaries, one
    per caster level, at most 20) and its expected worth: the primary's, and half of it against each secondary
    (they take half the primary's damage, Reflex half each)."""
    values = sorted(
        ((spell_value(view, caster, "chain lightning", level, enemy), -enemy.uid, enemy) for enemy in enemies),
        key=lambda each: each[:2],
        reverse=True,
    )
    chosen = [each for each in values if each[0] > 0][: 1 + min(20, caster.t.caster_level)]
    if not chosen:
        return [], 0.0
    total = chosen[0][0] + sum(min(value / 2, max(1, enemy.hp)) for value, _, enemy in chosen[1:])
    return [enemy for _, _, enemy in chosen], total
