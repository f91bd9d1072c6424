"""Which of its own spells a monster casts, and at whom (the caster policy's fourth step for a monster).

A monster's spells and spell-like abilities (invisibility, darkness, charms, webs, bolts ...) are weighed in the
order of :data:`MONSTER_STEPS`, each step one kind of spell and when it is worth a turn; the first step that finds
one decides. What each spell does when cast is :mod:`arena.combat.monster_spells`; whom it can affect,
:func:`arena.combat.spell_targets.affects`.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.combat.actions import Action
from arena.combat.combatant import Combatant
from arena.combat.spell_targets import affects
from arena.combat.spells import DEEP_SLUMBER_HD, SPELLS, area_count
from arena.combat.tactics.attack import choose_target, ordered, potential
from arena.combat.tactics.spell_aim import (
    AREA_GROUP_MINIMUM,
    AREA_MINIMUM,
    SlotCache,
    can_affect,
    single_spell,
    within_sleep_budget,
)
from arena.combat.tactics.view import View

CONTROL_ORDER = (
    "hold monster",
    "charm monster",
    "charm person",
    "suggestion",
    "scare",
    "cause fear",
    "daze",
    "command",
)
"""A monster's single-target spells that take a foe out of the fight, the strongest first (longest, widest)."""
STRONG_RAYS = frozenset({"acid arrow"})
"""A monster's rays worth more than a turn of its blows in most fights (acid arrow: 2d4 now and 2d4 a round after,
from a mephit's claws of 1d3); ray of frost's 1d3 is cast only by a creature without weapons; ray of enfeeblement
at the enemy whose blows hurt most, once each."""
CALL_LIGHTNING_MEAN = 10.5
"""Call lightning's bolt: 3d6."""
WEAPON_HIT_SHARE = 0.5
"""A monster weighs a damage spell against its weapons as if half its blows hit (its full routine's damage, each
blow hitting, times this)."""
SINGLE_DAMAGE: dict[str, Callable[[int], float]] = {
    "magic missile": lambda cl: 3.5 * min(5, (cl + 1) // 2),  # 1d4+1 a missile, never misses
    "scorching ray": lambda cl: 14.0 * (1 + (cl >= 7) + (cl >= 11)),  # 4d6 a ray
    "searing light": lambda cl: 4.5 * max(1, min(5, cl // 2)),  # 1d8 per two levels (not undead)
}
"""The mean damage of a single-target damage spell at a caster level, for a monster's choice between it and its
weapons (a dragon keeps to its bite and claws rather than a magic missile)."""
SLEEPS = ("sleep", "deep slumber")
DISABLED_BY_SPELL = ("held", "asleep", "panicked", "dazed")
"""Spells that take a creature out of the fight: a dispel magic frees an ally of them."""
ENEMY_BUFFS = ("bless", "shield of faith", "auspicious", "invisible")

MonsterStep = Callable[[View, Combatant, SlotCache, list[Combatant]], Action | None]
"""One step of a monster's choice: ``(view, caster, its slots by kind, the able enemies) -> Action or None``."""


def monster_spell(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """The first of :data:`MONSTER_STEPS` that finds a spell worth casting, or None: nothing worth casting."""
    for step in MONSTER_STEPS:
        action = step(view, creature, slots, enemies)
        if action is not None:
            return action
    return None


def _outline(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """Faerie fire when an enemy is invisible or blurred, however few enemies there are."""
    for name, level in slots.get("monster-area", ()):
        if name == "faerie fire":
            hidden = [enemy for enemy in enemies if affects(SPELLS[name], enemy)]
            if hidden:
                return Action("cast", spell=name, level=level, targets=hidden[: area_count("burst-10", len(enemies))])
            return None
    return None


def _area(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """An area (deep slumber, web, entangle ...) when it catches three or more enemies it affects; lullaby only
    beside a sleep spell of its own (drowsy matters to nothing else)."""
    if len(enemies) < AREA_GROUP_MINIMUM:
        return None
    for name, level in slots.get("monster-area", ()):
        if name == "faerie fire":
            continue
        if name == "lullaby" and not any(
            known in SLEEPS for known, _ in (*slots.get("area", ()), *slots.get("monster-area", ()))
        ):
            continue
        spell = SPELLS[name]
        if spell.area is None:  # every area spell names its area
            continue
        valid = [enemy for enemy in enemies if affects(spell, enemy)]
        if name == "deep slumber":
            valid = within_sleep_budget(valid, DEEP_SLUMBER_HD)
        caught = area_count(spell.area, len(valid))
        if caught >= AREA_MINIMUM:
            return Action("cast", spell=name, level=level, targets=ordered(view, creature, valid)[:caught])
    return None


def _neutralize_poison(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """Neutralize poison on the most dangerous ally with poison at work."""
    for name, level in slots.get("monster-cure", ()):
        poisoned = [ally for ally in view.allies(creature, include_down=True) if "poisoned" in ally.conditions]
        if poisoned:
            return Action("cast", spell=name, level=level, targets=[_most_dangerous(poisoned)])
        return None
    return None


def _aid(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """In the first round, before the fight is joined: aid on the ally that hits hardest."""
    if view.round != 1:
        return None
    for name, level in slots.get("monster-buff", ()):
        spell = SPELLS[name]
        bare = [ally for ally in view.allies(creature) if affects(spell, ally)]
        if bare:
            return Action("cast", spell=name, level=level, targets=[_most_dangerous(bare)])
    return None


def _self_spell(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """Invisibility in the first round (before it attacks); blur whenever it is down."""
    for name, level in slots.get("self", ()):
        if affects(SPELLS[name], creature) and (name != "invisibility" or view.round == 1):
            return Action("cast", spell=name, level=level, targets=[creature])
    return None


def _wind_wall(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """A wind wall against enemies who shoot, when it stands in none."""
    zones = slots.get("zone")
    if not zones or "walled" in creature.conditions:
        return None
    walls = [level for name, level in zones if name == "wind wall"]
    if walls and any(enemy.ranged and enemy.t.ranged_full for enemy in enemies):
        return Action("cast", spell="wind wall", level=walls[0], targets=[creature])
    return None


def _darkness_or_fog(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """A darkness or a fog when the enemies' weapons threaten more than its side's: everyone in the melee gets the
    same miss chance, so it helps the side that takes more blows; a fog also hides the melee from enemies who stand
    back (total concealment, counted twice)."""
    zones = [(name, level) for name, level in slots.get("zone") or () if name != "wind wall"]
    if not zones or "obscured" in creature.conditions:
        return None
    allies = view.allies(creature)
    theirs = sum(potential(enemy) * (2 if enemy.ranged else 1) for enemy in enemies)
    mine = sum(potential(ally) for ally in allies)
    for name, level in zones:
        fog = name != "darkness"
        if (theirs if fog else sum(potential(enemy) for enemy in enemies)) > mine:
            in_melee = (other for other in (*allies, *enemies) if other is not creature and not other.ranged)
            return Action("cast", spell=name, level=level, targets=[creature, *in_melee])
    return None


def _dispel(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """Dispel magic at :func:`_dispel_target`."""
    dispels = slots.get("dispel")
    if dispels:
        target = _dispel_target(creature, enemies)
        if target is not None:
            name, level = dispels[0]
            return Action("cast", spell=name, level=level, targets=[target])
    return None


def _control(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """The strongest spell of :data:`CONTROL_ORDER` it has that takes the most dangerous enemy it affects out of
    the fight (scare takes one foe per three caster levels)."""
    controls = slots.get("control")
    if not controls:
        return None
    ranked = sorted(enemies, key=lambda enemy: (-potential(enemy), enemy.uid))  # the most dangerous first
    for wanted in CONTROL_ORDER:
        for name, level in controls:
            if name != wanted:
                continue
            spell = SPELLS[name]
            hit = [enemy for enemy in ranked if affects(spell, enemy)]
            if hit:
                count = max(1, creature.t.caster_level // 3) if name == "scare" else 1
                return Action("cast", spell=name, level=level, targets=hit[:count])
            break
    return None


def _bolt(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """Chain lightning or call lightning, when its mean damage beats its blows (:data:`WEAPON_HIT_SHARE`)."""
    for name, level in slots.get("monster-bolt", ()):
        spell = SPELLS[name]
        hurt = [enemy for enemy in enemies if can_affect(view, spell, enemy)]
        dice = min(20, creature.t.caster_level) * 3.5
        mean = dice * (1 + (len(hurt) - 1) / 2) if name == "chain lightning" else CALL_LIGHTNING_MEAN
        if hurt and mean >= potential(creature) * WEAPON_HIT_SHARE:
            return Action("cast", spell=name, level=level, targets=ordered(view, creature, hurt))
    return None


def _enfeeble(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """Ray of enfeeblement at the enemy whose blows hurt most, while it has Strength to lose."""
    for name, level in slots.get("monster-ray", ()):
        if name == "ray of enfeeblement":
            weak = [
                enemy
                for enemy in enemies
                if affects(SPELLS[name], enemy) and enemy.t.abilities["str"] and potential(enemy)
            ]
            if weak:
                return Action("cast", spell=name, level=level, targets=[_most_dangerous(weak)])
            return None
    return None


def _single(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """A single-target spell as a party caster casts it (:func:`~arena.combat.tactics.spell_aim.single_spell`),
    but a damage spell only when it does more than its weapons would (:data:`SINGLE_DAMAGE`)."""
    weapons = potential(creature) * WEAPON_HIT_SHARE
    target = choose_target(view, creature, enemies)
    for name, level in slots.get("single", ()):
        if name in SINGLE_DAMAGE and SINGLE_DAMAGE[name](creature.t.caster_level) < weapons:
            continue  # its weapons do more
        action = single_spell(view, creature, name, level, enemies, target)
        if action is not None:
            return action
    return None


def _ray(view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant]) -> Action | None:
    """A ray (ray of enfeeblement was weighed before the damage spells): ray of frost only for a creature without
    weapons (its 1d3 does less than its blows), :data:`STRONG_RAYS` for anyone."""
    armed = bool(creature.t.full or creature.t.standard)
    for name, level in slots.get("monster-ray", ()):
        if name == "ray of enfeeblement":
            continue
        if armed and name not in STRONG_RAYS:
            continue
        hurt = [enemy for enemy in enemies if can_affect(view, SPELLS[name], enemy)]
        if hurt:
            target = choose_target(view, creature, hurt)
            return Action("cast", spell=name, level=level, targets=[target if target is not None else hurt[0]])
    return None


MONSTER_STEPS: tuple[MonsterStep, ...] = (
    _outline,
    _area,
    _neutralize_poison,
    _aid,
    _self_spell,
    _wind_wall,
    _darkness_or_fog,
    _dispel,
    _control,
    _bolt,
    _enfeeble,
    _single,
    _ray,
)
"""A monster's choice, in order: the first step that finds a spell worth casting decides."""


def _most_dangerous(creatures: list[Combatant]) -> Combatant:
    """The creature whose blows hurt most (ties: the first made)."""
    return max(creatures, key=lambda creature: (potential(creature), -creature.uid))


def _dispel_target(creature: Combatant, enemies: list[Combatant]) -> Combatant | None:
    """Dispel magic's target: the most dangerous ally a spell has taken out of the fight (held, asleep, charmed
    ...), else the enemy with the most of its spells on it, if two or more; else None."""
    freed = [
        ally
        for ally in creature.friends
        if not ally.dead and ally is not creature and any(name in ally.conditions for name in DISABLED_BY_SPELL)
    ]
    if freed:
        return _most_dangerous(freed)
    best, most = None, 1
    for enemy in enemies:
        count = sum(1 for name in ENEMY_BUFFS if name in enemy.conditions)
        if count > most:
            best, most = enemy, count
    return best
