"""The caster policy (``caster``): which of its prepared spells a caster casts and at whom, or its weapons.

The party's casters (the generated cleric and wizard) choose among the kinds of spell they prepare: a cure, an area,
a buff, a single-target spell. A monster that casts goes on to its own spells
(:mod:`arena.combat.tactics.monster_caster`) after the party's kinds, so a party caster's decisions never pay for
them.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.combat.actions import NOTHING, Action
from arena.combat.combatant import Combatant
from arena.combat.spells import CURE, HEAL_CAP, HEAL_PER_LEVEL, MASS_CURES, SPELLS, area_count
from arena.combat.tactics.attack import choose_target, ordered, potential, special_action
from arena.combat.tactics.monster_caster import monster_spell
from arena.combat.tactics.spell_aim import (
    AREA_GROUP_MINIMUM,
    AREA_MINIMUM,
    SlotCache,
    can_affect,
    chain_targets,
    single_spell,
    spell_value,
    within_sleep_budget,
)
from arena.combat.tactics.view import View

HEAL_BELOW = 0.5
"""The caster heals an ally whose hit points fall below half."""
SPELL_CONDITION = {"auspicious odds": "auspicious", "mass auspicious odds": "auspicious"}
"""The condition a buff puts on its targets, where it is not the spell's name."""
BUFF_LASTS_ROUNDS = 10
"""A buff lasting at least this many rounds lasts the fight (the reference fights end in 3 to 6 rounds); a
shorter one counts for the share of them it lasts."""
PARTY_KINDS = frozenset({"area", "single", "heal", "buff", None})
"""The kinds of the spells a generated character prepares (and None: a spell no kind is known for)."""
_KIND = {name: spell.kind for name, spell in SPELLS.items()}
PARTY_KIND = {"chain lightning": "single"}
"""A monster's spell the party casts too, and its kind in a PC's hands: chain lightning, a single-target spell that
arcs on to the other enemies (:func:`~arena.combat.tactics.spell_aim.chain_targets`)."""


def slot_cache(creature: Combatant) -> SlotCache:
    """The creature's spells still prepared, by kind, highest level first: built on first use in a fight (the
    creature's :meth:`~arena.combat.combatant.Combatant.spend_slot` keeps it current from then on)."""
    cache: SlotCache = {}
    pc = creature.side == "pc"
    for level in sorted(creature.slots, reverse=True):
        for name in creature.slots[level]:
            kind = PARTY_KIND.get(name, _KIND.get(name)) if pc else _KIND.get(name)
            cache.setdefault(kind, []).append((name, level))
    if not PARTY_KINDS.issuperset(cache):
        cache["monster"] = []  # a monster's own spells: monster_spell looks at them
    # Combatant.slot_cache is declared `= None` without a type in combatant.py: it holds this cache.
    creature.slot_cache = cache
    return cache


def caster_policy(view: View, creature: Combatant) -> Action:
    """The ``caster`` policy. A monster's breath weapon, web or trample first, as the attack policy uses them; then
    1. a cure for the ally lowest below half its hit points (dying allies first; under the
       ``energy-aware-spells`` fix the healing spell that restores most, :func:`_heal_action`);
    2. an area spell when it catches three or more enemies (an area catches at most half a group plus one); under
       the ``energy-aware-spells`` fix, when the spell worth most (:func:`_area_by_value`,
       :func:`_single_by_value`) is an area spell that catches three or more;
    3. a buff in the first round (:func:`_choose_buff`);
    4. a monster's own spells (:func:`~arena.combat.tactics.monster_caster.monster_spell`), or a single-target
       spell while slots last: the first prepared (highest level first), or under the ``energy-aware-spells`` fix
       the spell worth most, area or single-target (an area spell aimed at one or two enemies);
    otherwise it attacks the enemy its targeting picks (the weakest)."""
    enemies = [foe for foe in creature.foes if foe.is_able]
    if not enemies:
        return NOTHING
    template = creature.t
    if template.special_action:  # a monster caster's breath weapon, web or trample first, as attack_policy's
        special = special_action(view, creature, template)
        if special is not None:
            return special
    slots: SlotCache | None = creature.slot_cache
    if slots is None:
        slots = slot_cache(creature)
    heals = slots.get("heal")
    if heals:  # 1. the ally lowest below half its hit points (inline: every turn of a cleric)
        hurt: Combatant | None = None
        for ally in creature.friends:
            if (
                not ally.dead
                and ally.hp < ally.t.max_hp * HEAL_BELOW
                and ally.t.type != "undead"
                and (hurt is None or (ally.hp, ally.uid) < (hurt.hp, hurt.uid))
                and not ("swallowed" in ally.conditions and view.flags.fix_no_touch_inside)
            ):
                hurt = ally
        if hurt is not None:
            return _heal_action(view, creature, heals, hurt)
    by_value = view.flags.fix_energy_spells and "monster" not in slots
    best: Action | None = None
    weighed = False
    if by_value:  # every spell weighed, areas and single targets alike
        area, area_worth = _area_by_value(view, creature, slots.get("area", ()), enemies)
        if area is not None and len(area.targets or ()) >= AREA_MINIMUM:  # singles weighed only when it matters
            best, weighed = _best_spell(view, creature, slots, enemies, area, area_worth), True
            if best is area:
                return area  # 2.
    elif len(enemies) >= AREA_GROUP_MINIMUM:  # 2.
        area = _area_spell(view, creature, slots.get("area", ()), enemies)
        if area is not None:
            return area
    if view.round == 1:  # 3.
        buff = _choose_buff(view, creature, slots.get("buff", ()))
        if buff is not None:
            return buff
    target = choose_target(view, creature, enemies)
    if by_value:  # 4. the spell worth most, at the enemies it is worth most against
        if not weighed:
            best = _best_spell(view, creature, slots, enemies, area, area_worth)
        if best is not None:
            return best
    elif "monster" in slots:  # 4. a monster's spells, weighed against its weapons
        action = monster_spell(view, creature, slots, enemies)
        if action is not None:
            return action
    else:  # 4. a single-target spell while slots last
        for name, level in slots.get("single", ()):
            action = single_spell(view, creature, name, level, enemies, target)
            if action is not None:
                return action
    if not view.reaches_all(creature):  # its weapons reach only the enemies in the melee
        target = choose_target(view, creature)
    return Action("attack", target)


def _best_spell(
    view: View, creature: Combatant, slots: SlotCache, enemies: list[Combatant], area: Action | None, area_worth: float
) -> Action | None:
    """The spell worth most: the single-target spell (:func:`_single_by_value`), or ``area`` when it is worth as
    much or more; None when no spell is worth anything."""
    single, single_worth = _single_by_value(view, creature, slots.get("single", ()), enemies)
    return area if area is not None and area_worth >= single_worth else single


def _area_spell(
    view: View, creature: Combatant, areas: Iterable[tuple[str, int]], enemies: list[Combatant]
) -> Action | None:
    """The first area spell (highest level first) that catches :data:`AREA_MINIMUM` enemies it affects; under the
    ``sleep-budget`` fix, sleep counts only those its 4 Hit Dice reach. None: no area spell is worth it."""
    tried = None
    for name, level in areas:
        if name == tried:  # the same spell again at the same or a lower level: the same answer
            continue
        tried = name
        spell = SPELLS[name]
        if spell.area is None:  # every area spell names its area
            continue
        valid = [enemy for enemy in enemies if can_affect(view, spell, enemy)]
        caught = area_count(spell.area, len(valid))
        chosen = ordered(view, creature, valid)
        if name == "sleep" and view.flags.fix_sleep_budget:
            chosen = within_sleep_budget(valid)
            caught = min(caught, len(chosen))
        if caught >= AREA_MINIMUM:
            return Action("cast", spell=name, level=level, targets=chosen[:caught])
    return None


def _heal_action(view: View, creature: Combatant, heals: list[tuple[str, int]], hurt: Combatant) -> Action:
    """Healing ``hurt``: the highest-level healing spell prepared, or under the ``energy-aware-spells`` fix the one
    that restores the most hit points the party has lost (a mass cure counting every hurt ally it reaches, one a
    caster level), ties to the higher level. A mass spell takes ``hurt`` and then the other hurt allies.

    Under ``no-touch-inside`` neither takes an ally swallowed whole: it is inside its swallower, out of reach of a
    touch (cure, heal) and of a mass cure's burst alike (SRD 3.5 Aiming a Spell: "you must have a clear line of
    effect to any target that you cast a spell on", "A solid barrier cancels a line of effect")."""
    cl = creature.t.caster_level
    inside = view.flags.fix_no_touch_inside
    others = sorted(
        (
            ally
            for ally in creature.friends
            if ally is not hurt
            and not ally.dead
            and ally.hp < ally.t.max_hp
            and ally.t.type != "undead"
            and not (inside and "swallowed" in ally.conditions)
        ),
        key=lambda ally: (ally.hp, ally.uid),
    )
    best: Action | None = None
    best_value = -1.0
    for name, level in heals:
        targets = [hurt, *others][: max(1, cl)] if name in MASS_CURES else [hurt]
        action = Action("cast", spell=name, level=level, targets=targets)
        if not view.flags.fix_energy_spells:
            return action
        if name in HEAL_CAP:
            amount = float(min(HEAL_PER_LEVEL * cl, HEAL_CAP[name]))
        else:
            amount = 4.5 * CURE[name].d8s + min(cl, CURE[name].cap)
        value = sum(min(amount, target.t.max_hp - target.hp) for target in targets)
        if value > best_value:
            best, best_value = action, value
    assert best is not None  # heals is not empty
    return best


def _area_by_value(
    view: View, creature: Combatant, areas: Iterable[tuple[str, int]], enemies: list[Combatant]
) -> tuple[Action | None, float]:
    """The area spell worth most (:func:`~arena.combat.tactics.spell_aim.spell_value`, summed over the enemies it
    catches: those it is worth most against, as many as its area catches), and its worth; ties to the higher level.
    Sleep counts only those its 4 Hit Dice reach (``sleep-budget``)."""
    best: Action | None = None
    best_value = 0.0
    tried: set[str] = set()
    targets = ordered(view, creature, enemies)
    for name, level in areas:
        if name in tried:
            continue
        tried.add(name)
        spell = SPELLS[name]
        if spell.area is None:
            continue
        valid = [enemy for enemy in targets if can_affect(view, spell, enemy)]
        caught = area_count(spell.area, len(valid))
        if name == "sleep" and view.flags.fix_sleep_budget:
            valid = within_sleep_budget(valid)
            caught = min(caught, len(valid))
        if not caught:
            continue
        if name == "meteor swarm":
            worth = [(spell_value(view, creature, name, level, enemy), enemy) for enemy in valid]
            worth.sort(key=lambda each: each[0], reverse=True)  # stable: the targeting's order among equals
            chosen = [enemy for _, enemy in worth[:caught]]
            spheres = [chosen[i % len(chosen)] for i in range(4)]
            value = sum(spell_value(view, creature, name, level, enemy, spheres.count(enemy)) for enemy in chosen)
        else:
            worth = [(spell_value(view, creature, name, level, enemy), enemy) for enemy in valid]
            worth.sort(key=lambda each: each[0], reverse=True)
            chosen = [enemy for _, enemy in worth[:caught]]
            value = sum(each for each, _ in worth[:caught])
        if value > best_value:
            best, best_value = Action("cast", spell=name, level=level, targets=chosen), value
    return best, best_value


def _single_by_value(
    view: View, creature: Combatant, singles: Iterable[tuple[str, int]], enemies: list[Combatant]
) -> tuple[Action | None, float]:
    """The single-target spell and target worth most (:func:`~arena.combat.tactics.spell_aim.spell_value`), and
    its worth: the enemies in the order the caster's targeting prefers them, ties to the earlier enemy and the higher
    level; chain lightning's worth counts its secondary targets. (None, 0): no spell is worth anything."""
    best: Action | None = None
    best_value = 0.0
    single: tuple[str, int, Combatant] | None = None  # the best single target so far (its Action built once, below)
    tried: set[str] = set()
    targets = ordered(view, creature, enemies)
    for name, level in singles:
        if name in tried:
            continue
        tried.add(name)
        if name == "chain lightning":
            chained, value = chain_targets(view, creature, targets, level)
            if chained and value > best_value:
                best, best_value, single = Action("cast", spell=name, level=level, targets=chained), value, None
            continue
        for enemy in targets:
            value = spell_value(view, creature, name, level, enemy)
            if value > best_value:
                single, best_value = (name, level, enemy), value
    if single is not None:
        name, level, enemy = single
        best = Action("cast", spell=name, level=level, targets=[enemy])
    return best, best_value


def _choose_buff(view: View, creature: Combatant, buffs: Iterable[tuple[str, int]]) -> Action | None:
    """The buff to cast in round 1. ``by-value`` (the model's ``buff_choice``): the one that helps the most
    creatures for the longest (creatures helped x the share of :data:`BUFF_LASTS_ROUNDS` it lasts), ties to the
    higher level, so a party-wide buff comes before a self-only one under every rule set. ``highest-level``: the
    first useful buff from the highest level down (the model before version 0.3)."""
    allies = view.allies(creature)
    best: Action | None = None
    best_value: tuple[float, int] | None = None
    for name, level in buffs:
        action = _buff_action(view, creature, name, level, allies)
        if action is None:
            continue
        if not view.buff_by_value:
            return action
        spell = SPELLS[name]
        lasts = min(1.0, spell.rounds_per_level * creature.t.caster_level / BUFF_LASTS_ROUNDS)
        condition = SPELL_CONDITION.get(name, name)
        helped = 0
        for ally in action.targets or ():  # a plain loop: cheaper than sum() over a generator
            if condition not in ally.conditions:
                helped += 1
        value = (helped * lasts, level)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _buff_action(view: View, creature: Combatant, name: str, level: int, allies: list[Combatant]) -> Action | None:
    """Casting buff ``name`` now, at the allies it helps; None when it helps no one."""
    if name == "shield of faith":
        if view.buff_by_value:  # the ally it helps most among those it helps at all
            allies = [
                ally for ally in allies if "shield of faith" not in ally.conditions and view.shield_gain(creature, ally)
            ]
            if not allies:
                return None
        best = max(allies, key=lambda ally: (potential(ally), -ally.uid))
        if "shield of faith" in best.conditions:
            return None
        return Action("cast", spell=name, level=level, targets=[best])
    if name in ("auspicious odds", "mass auspicious odds"):
        if view.rules.die != "3d6" or "auspicious" in creature.conditions:
            return None
        if name == "auspicious odds":
            return Action("cast", spell=name, level=level, targets=[creature])
        others = [ally for ally in allies if ally is not creature and "auspicious" not in ally.conditions]
        count = max(1, creature.t.caster_level // 3)
        return Action("cast", spell=name, level=level, targets=[creature, *others][:count])
    if name == "bless":
        unblessed = [ally for ally in allies if "bless" not in ally.conditions]
        if len(unblessed) < len(allies) and not view.buff_by_value:
            return None  # the old model: bless only when no ally has it
        return Action("cast", spell=name, level=level, targets=allies) if unblessed else None
    return None
