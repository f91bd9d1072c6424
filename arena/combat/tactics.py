"""The AI policy layer: what each creature does on its turn.

A policy is a function ``(view, creature) -> Action``. It reads the fight through a read-only :class:`View` and
returns what to do and to whom; the rules (the engine and the kernel) decide what happens. Policies are named in
YAML per creature or per side; :func:`register` adds your own.

Built in:
- ``random``: a random able enemy.
- ``focus-weakest``: the able enemy with the fewest hit points.
- ``focus-threat``: the able enemy that has dealt the most damage (ties: the one that can deal most).
- ``caster``: a monster's breath weapon, web or trample as ``attack_policy`` uses them; then an area spell when
  three or more enemies can be caught, a cure for an ally below half hit points, a
  buff in the first round, a single-target spell while slots last, then a monster's own spells (invisibility,
  darkness, charms ...: :func:`_monster_spell`), otherwise attack (the weakest).
Two settings per side or per creature: ``press_luck`` (never, always, when-better: press when the exact chance of
success is higher pressed than static) and ``called_shot`` (never, head, when-better).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.combat.actions import NOTHING, Action
from arena.combat.combatant import NOT_HELPLESS
from arena.combat.spell_targets import affects
from arena.combat.spells import DEEP_SLUMBER_HD, SLEEP_HD, SPELLS, area_count, shield_of_faith_gain
from arena.errors import ArenaError
from arena.world.stat_types import SIZES

PRESS_LUCK = ("never", "always", "when-better")
FOE_SIDE = {"pc": "monster", "monster": "pc"}
CALLED_SHOT = ("never", "head", "when-better")
HEAL_BELOW = 0.5
"""The caster heals an ally whose hit points fall below half."""
AREA_MINIMUM = 3
"""The caster throws an area spell when it can catch at least three enemies."""
AREA_GROUP_MINIMUM = 2 * (AREA_MINIMUM - 1)
"""The fewest enemies from which an area (half the group plus one, see :func:`arena.combat.spells.area_count`) catches
:data:`AREA_MINIMUM`."""


@dataclass(frozen=True)
class TacticsSettings:
    """How one creature (or a whole side) fights: the policy, when to press luck, when to call a shot."""

    policy: str | None = None
    """None: each creature's own stat-block policy (the generated cleric and wizard are ``caster``)."""
    press_luck: str = "never"
    called_shot: str = "never"

    def __post_init__(self) -> None:
        if self.policy is not None and self.policy not in POLICIES:
            raise ArenaError(f"unknown policy {self.policy!r} (known: {', '.join(sorted(POLICIES))})")
        if self.press_luck not in PRESS_LUCK:
            raise ArenaError(f"press_luck must be one of {', '.join(PRESS_LUCK)}, not {self.press_luck!r}")
        if self.called_shot not in CALLED_SHOT:
            raise ArenaError(f"called_shot must be one of {', '.join(CALLED_SHOT)}, not {self.called_shot!r}")


class View:
    """What a policy may see of the fight. Read-only by convention: policies must not change creatures."""

    __slots__ = ("_fight", "_protected")

    def __init__(self, fight) -> None:
        self._fight = fight
        self._protected = fight.back_line
        """The model's back line is protected (the hot loop reads it on every melee decision)."""

    @property
    def round(self) -> int:
        return self._fight.round

    @property
    def rules(self):
        return self._fight.rules

    def enemies(self, creature) -> list:
        """The able enemies of ``creature``, in a stable order."""
        return [c for c in creature.foes if c.is_able]

    def reaches_all(self, creature) -> bool:
        """Can ``creature``'s weapons reach every enemy? Ranged attackers can; a melee creature reaches only the
        enemies in the melee while any able enemy fights there (those who stand back are behind them), unless the
        model's ``back_line`` is ``reachable``."""
        return creature.ranged or not (self._protected and self._fight.melee_count[FOE_SIDE[creature.side]])

    def reaches(self, creature, target) -> bool:
        """Can ``creature``'s weapons reach ``target``?"""
        return not target.ranged or self.reaches_all(creature)

    def reachable(self, creature) -> list:
        """The able enemies ``creature`` can attack with its weapons."""
        if self.reaches_all(creature):
            return self.enemies(creature)
        return [c for c in creature.foes if c.is_able and not c.ranged]

    def allies(self, creature, include_down: bool = False) -> list:
        return [c for c in creature.friends if not c.dead and (include_down or c.is_able)]

    def helpless_enemies(self, creature) -> list:
        """Enemies in reach, not dying, helpless for now (asleep, held, knocked out), that a coup de grace from
        ``creature`` can kill: its coup de grace targets."""
        everyone = self.reaches_all(creature)
        return [c for c in creature.foes if (everyone or not c.ranged) and _coup_candidate(creature, c)]

    def rand(self) -> float:
        return self._fight.rand()

    def fixed(self, name: str) -> bool:
        """Is the model's SRD fix ``name`` in force (:data:`arena.combat.model.FIXES`)?"""
        return self._fight.model.fixed(name)

    @property
    def buff_by_value(self) -> bool:
        """The model's ``buff_choice`` is ``by-value``."""
        return self._fight.buff_by_value

    def shield_gain(self, caster, target) -> int:
        """What the caster's shield of faith would add to ``target``'s AC (deflection does not stack)."""
        return shield_of_faith_gain(self._fight, caster.t.caster_level, target)

    def can_breathe(self, creature) -> bool:
        t = creature.t
        return (t.breath is not None or t.breath_effect is not None) and self._fight.now() >= creature.breath_ready_at


def focus_weakest(view: View, creature, enemies: list):
    best, best_hp = None, None
    for c in enemies:  # a plain loop: cheaper than min() with a key on a handful of enemies
        hp = c.hp - c.nonlethal
        if best is None or hp < best_hp:
            best, best_hp = c, hp
    return best


def focus_threat(view: View, creature, enemies: list):
    return max(enemies, key=lambda c: (c.damage_dealt, _potential(c), -c.uid))


def random_target(view: View, creature, enemies: list):
    return enemies[int(view.rand() * len(enemies))]


def _potential(creature) -> float:
    return sum(a.damage.mean * len(a.swings()) for a in creature.t.full)


TARGETING: dict[str, Callable] = {
    "random": random_target,
    "focus-weakest": focus_weakest,
    "focus-threat": focus_threat,
    "caster": focus_weakest,
}


def choose_target(view: View, creature, enemies: list | None = None):
    """The enemy ``creature``'s targeting picks from ``enemies`` (default: those its weapons reach)."""
    enemies = view.reachable(creature) if enemies is None else enemies
    if not enemies:
        return None
    return TARGETING.get(creature.policy, focus_weakest)(view, creature, enemies)


def attack_policy(view: View, creature) -> Action:
    t = creature.t
    if t.special_action:  # a breath weapon or a web before its weapons
        special = _special_action(view, creature, t)
        if special is not None:
            return special
    # One pass over the enemies it reaches (the hot loop: View.helpless_enemies and focus_weakest inlined): a
    # helpless one for a coup de grace (a melee creature's first choice, the fewest hit points first), and the
    # weakest able one.
    coup = creature.t.full and not creature.t.prefers_ranged
    weakest = creature.policy == "focus-weakest"
    everyone = view.reaches_all(creature)
    target = helpless = best_hp = None
    for c in creature.foes:
        if not everyone and c.ranged:
            continue
        if c.is_able:
            if weakest:
                hp = c.hp - c.nonlethal
                if target is None or hp < best_hp:
                    target, best_hp = c, hp
        elif (
            coup and _coup_candidate(creature, c) and (helpless is None or (c.hp, c.uid) < (helpless.hp, helpless.uid))
        ):
            helpless = c
    if helpless is not None:
        return Action("coup", helpless)
    if not weakest:
        target = choose_target(view, creature)
    if target is None:
        return NOTHING
    action = target.attack_action  # attacking a creature is the same action all fight long
    if action is None:
        action = target.attack_action = Action("attack", target)
    return action


def _special_action(view: View, creature, t) -> Action | None:
    """A breath weapon when it is ready and catches two or more (or the only enemy); a web at the first enemy it
    can entangle while it has webs (a monstrous spider); else None."""
    if view.can_breathe(creature):
        enemies = view.enemies(creature)
        breath = (
            t.breath_effect
            if t.breath_effect is not None and (not creature.last_effect or t.breath is None)
            else t.breath
        )
        caught = area_count(breath_area(breath), len(enemies))
        if caught >= 2 or len(enemies) == 1:
            return Action("breath", targets=_ordered(view, creature, enemies)[:caught])
    if t.web is not None and creature.webs < t.web.uses:
        for c in view.enemies(creature):
            if "entangled" not in c.conditions:
                return Action("web", c)
    if t.trample is not None:  # trample when it runs over two or more smaller foes
        size = SIZES.index(t.creature.size)
        smaller = [c for c in view.enemies(creature) if SIZES.index(c.t.creature.size) < size]
        caught = area_count("line", len(smaller))
        if caught >= 2:
            return Action("trample", targets=_ordered(view, creature, smaller)[:caught])
    return None


def _coup_candidate(creature, c) -> bool:
    """Helpless for now (asleep, held, knocked out), neither dying nor dead, and killable by a coup de grace."""
    return (
        not c.is_able
        and not c.dead
        and c.hp >= 0
        and not (NOT_HELPLESS & c.conditions.keys())
        and _coup_can_kill(creature, c)
    )


def _coup_can_kill(creature, target) -> bool:
    """A coup de grace is worth a turn: the target is not immune to critical hits (then none is allowed) and the
    creature's weapon overcomes any regeneration (otherwise the blow is nonlethal and cannot kill)."""
    t = target.t
    if "critical hits" in t.immunities:
        return False
    routine = creature.t.full or creature.t.standard
    if not routine:
        return False
    return not t.regen or bool(routine[0].overcomes & t.regen_overcome)


def breath_area(breath) -> str:
    """The area key of a breath weapon: a line, or the smallest listed cone that holds it."""
    if breath.shape == "line":
        return "line"
    return next((f"cone-{size}" for size in (15, 30, 40, 60) if breath.length_ft <= size), "cone-60")


def _ordered(view: View, creature, enemies: list) -> list:
    """Enemies in the order this creature's targeting prefers them."""
    first = choose_target(view, creature, enemies)
    return [first] + [e for e in enemies if e is not first]


_KIND = {name: spell.kind for name, spell in SPELLS.items()}
PARTY_KINDS = frozenset({"area", "single", "heal", "buff", None})
"""The kinds of the spells a generated character prepares (and None: a spell no kind is known for)."""


def _slot_cache(creature) -> dict[str, list[tuple[str, int]]]:
    """The creature's spells still prepared, by kind, highest level first: built on first use in a fight (the
    creature's :meth:`spend_slot` keeps it current from then on)."""
    cache: dict[str, list[tuple[str, int]]] = {}
    for level in sorted(creature.slots, reverse=True):
        for name in creature.slots[level]:
            cache.setdefault(_KIND.get(name), []).append((name, level))
    if not PARTY_KINDS.issuperset(cache):
        cache["monster"] = []  # a monster's own spells: :func:`_monster_spell` looks at them
    creature.slot_cache = cache
    return cache


def caster_policy(view: View, creature) -> Action:
    enemies = [c for c in creature.foes if c.is_able]
    if not enemies:
        return NOTHING
    t = creature.t
    if t.special_action:  # a monster caster's breath weapon, web or trample first, as attack_policy's
        special = _special_action(view, creature, t)
        if special is not None:
            return special
    slots = creature.slot_cache
    if slots is None:
        slots = _slot_cache(creature)
    # 1. heal an ally below half hit points (dying allies first)
    heals = slots.get("heal")
    if heals:
        hurt = None
        for a in creature.friends:
            if (
                not a.dead
                and a.hp < a.t.max_hp * HEAL_BELOW
                and a.t.type != "undead"
                and (hurt is None or (a.hp, a.uid) < (hurt.hp, hurt.uid))
            ):
                hurt = a
        if hurt is not None:
            name, level = heals[0]
            return Action("cast", spell=name, level=level, targets=[hurt])
    # 2. area spells when three or more enemies can be caught (an area catches at most half a group plus one)
    if len(enemies) >= AREA_GROUP_MINIMUM:
        tried = None
        for name, level in slots.get("area", ()):
            if name == tried:  # the same spell again at the same or a lower level: the same answer
                continue
            tried = name
            spell = SPELLS[name]
            valid = [e for e in enemies if _affects(view, spell, e)]
            caught = area_count(spell.area, len(valid))
            chosen = _ordered(view, creature, valid)
            if name == "sleep" and view.fixed("sleep-budget"):
                chosen = _within_sleep_budget(valid)
                caught = min(caught, len(chosen))
            if caught >= AREA_MINIMUM:
                return Action("cast", spell=name, level=level, targets=chosen[:caught])
    # 3. buffs in the first round
    if view.round == 1:
        buff = _choose_buff(view, creature, slots.get("buff", ()))
        if buff is not None:
            return buff
    target = choose_target(view, creature, enemies)
    if "monster" in slots:  # 4. a monster's spells (:func:`_monster_spell`), weighed against its weapons
        action = _monster_spell(view, creature, slots, enemies)
        if action is not None:
            return action
    else:  # 4. a single-target spell while slots last
        for name, level in slots.get("single", ()):
            spell = SPELLS[name]
            if name == "hold person":
                humanoids = [
                    e for e in enemies if e.t.humanoid and _affects(view, spell, e) and "held" not in e.conditions
                ]
                if humanoids:
                    return Action("cast", spell=name, level=level, targets=[choose_target(view, creature, humanoids)])
                continue
            if not _affects(view, spell, target):  # immune to it (only under the ``immune-targets`` fix)
                hurt = [e for e in enemies if _affects(view, spell, e)]
                if not hurt:
                    continue  # every enemy is immune to it: another spell, or the weapon
                return Action("cast", spell=name, level=level, targets=[choose_target(view, creature, hurt)])
            return Action("cast", spell=name, level=level, targets=[target])
    if not view.reaches_all(creature):  # its weapons reach only the enemies in the melee
        target = choose_target(view, creature)
    return Action("attack", target)


def _single_spell(view: View, creature, name: str, level: int, enemies: list, target) -> Action | None:
    """Casting single-target spell ``name`` at the best enemy it affects (hold person: a humanoid not held); None
    when no enemy is worth it."""
    spell = SPELLS[name]
    if name == "hold person":
        humanoids = [e for e in enemies if e.t.humanoid and _affects(view, spell, e) and "held" not in e.conditions]
        if humanoids:
            return Action("cast", spell=name, level=level, targets=[choose_target(view, creature, humanoids)])
        return None
    if not _affects(view, spell, target):  # immune to it (only under the ``immune-targets`` fix)
        hurt = [e for e in enemies if _affects(view, spell, e)]
        if not hurt:
            return None  # every enemy is immune to it: another spell, or the weapon
        return Action("cast", spell=name, level=level, targets=[choose_target(view, creature, hurt)])
    return Action("cast", spell=name, level=level, targets=[target])


SPELL_CONDITION = {"auspicious odds": "auspicious", "mass auspicious odds": "auspicious"}
"""The condition a buff puts on its targets, where it is not the spell's name."""
BUFF_LASTS_ROUNDS = 10
"""A buff lasting at least this many rounds lasts the fight (the reference fights end in 3 to 6 rounds); a
shorter one counts for the share of them it lasts."""


def _choose_buff(view: View, creature, buffs) -> Action | None:
    """The buff to cast in round 1. ``by-value`` (the model's ``buff_choice``): the one that helps the most
    creatures for the longest (creatures helped x the share of :data:`BUFF_LASTS_ROUNDS` it lasts), ties to the
    higher level, so a party-wide buff comes before a self-only one under every rule set. ``highest-level``: the
    first useful buff from the highest level down (the model before version 0.3)."""
    allies = view.allies(creature)
    best, best_key = None, None
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
        for a in action.targets:  # a plain loop: cheaper than sum() over a generator
            if condition not in a.conditions:
                helped += 1
        key = (helped * lasts, level)
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def _buff_action(view: View, creature, name: str, level: int, allies: list) -> Action | None:
    """Casting buff ``name`` now, at the allies it helps; None when it helps no one."""
    if name == "shield of faith":
        if view.buff_by_value:  # the ally it helps most among those it helps at all
            allies = [a for a in allies if "shield of faith" not in a.conditions and view.shield_gain(creature, a)]
            if not allies:
                return None
        best = max(allies, key=lambda a: (_potential(a), -a.uid))
        if "shield of faith" in best.conditions:
            return None
        return Action("cast", spell=name, level=level, targets=[best])
    if name in ("auspicious odds", "mass auspicious odds"):
        if view.rules.die != "3d6" or "auspicious" in creature.conditions:
            return None
        if name == "auspicious odds":
            return Action("cast", spell=name, level=level, targets=[creature])
        others = [a for a in allies if a is not creature and "auspicious" not in a.conditions]
        count = max(1, creature.t.caster_level // 3)
        return Action("cast", spell=name, level=level, targets=[creature, *others][:count])
    if name == "bless":
        unblessed = [a for a in allies if "bless" not in a.conditions]
        if len(unblessed) < len(allies) and not view.buff_by_value:
            return None  # the old model: bless only when no ally has it
        return Action("cast", spell=name, level=level, targets=allies) if unblessed else None
    return None


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


def _monster_spell(view: View, creature, slots: dict, enemies: list) -> Action | None:
    """A monster's own spells (reached after the party's kinds, so a generated character's decisions never pay
    for them), in this order: an area (deep slumber, web, entangle) when it catches three or more enemies it
    affects; invisibility in the first round (before it attacks); a darkness or a fog when the enemies' weapons
    threaten more than its side's (everyone in the melee gets the same miss chance, so it helps the side that takes
    more blows; a fog also hides the melee from enemies who stand back, at 50%); dispel magic (:func:`_dispel_target`);
    then a spell that takes the most dangerous enemy it affects out of the fight (hold, charm, suggestion, fear,
    daze; scare takes one foe per three caster levels); a single-target spell as a party caster casts it, but a
    damage spell only when it does more than its weapons would (:data:`SINGLE_DAMAGE`); a ray of frost only for a
    creature without weapons (1d3 does less than its blows). None: nothing worth casting."""
    for name, level in slots.get("monster-area", ()):
        if name == "faerie fire":  # outlines the invisible: cast when an enemy is, however few
            hidden = [e for e in enemies if affects(SPELLS[name], e)]
            if hidden:
                return Action("cast", spell=name, level=level, targets=hidden[: area_count("burst-10", len(enemies))])
            break
    if len(enemies) >= AREA_GROUP_MINIMUM:
        for name, level in slots.get("monster-area", ()):
            if name == "faerie fire":
                continue
            if name == "lullaby" and not any(
                n in SLEEPS for n, _ in (*slots.get("area", ()), *slots.get("monster-area", ()))
            ):
                continue  # drowsy matters only to its own sleep spells
            spell = SPELLS[name]
            valid = [e for e in enemies if affects(spell, e)]
            if name == "deep slumber":
                valid = _within_sleep_budget(valid, DEEP_SLUMBER_HD)
            caught = area_count(spell.area, len(valid))
            if caught >= AREA_MINIMUM:
                return Action("cast", spell=name, level=level, targets=_ordered(view, creature, valid)[:caught])
    for name, level in slots.get("monster-cure", ()):  # neutralize poison: an ally with poison at work
        poisoned = [a for a in view.allies(creature, include_down=True) if "poisoned" in a.conditions]
        if poisoned:
            return Action(
                "cast", spell=name, level=level, targets=[max(poisoned, key=lambda a: (_potential(a), -a.uid))]
            )
        break
    if view.round == 1:  # aid the ally that hits hardest, before the fight is joined
        for name, level in slots.get("monster-buff", ()):
            spell = SPELLS[name]
            bare = [a for a in view.allies(creature) if affects(spell, a)]
            if bare:
                return Action(
                    "cast", spell=name, level=level, targets=[max(bare, key=lambda a: (_potential(a), -a.uid))]
                )
    for name, level in slots.get("self", ()):  # invisibility in the first round; blur whenever it is down
        if affects(SPELLS[name], creature) and (name != "invisibility" or view.round == 1):
            return Action("cast", spell=name, level=level, targets=[creature])
    zones = slots.get("zone")
    if zones and "walled" not in creature.conditions and any(n == "wind wall" for n, _ in zones):
        shooters = [e for e in enemies if e.ranged and e.t.ranged_full]  # a wind wall against those who shoot
        if shooters:
            name, level = next((n, lv) for n, lv in zones if n == "wind wall")
            return Action("cast", spell=name, level=level, targets=[creature])
    zones = [z for z in zones or () if z[0] != "wind wall"]
    if zones and "obscured" not in creature.conditions:
        allies = view.allies(creature)
        theirs = sum(_potential(e) * (2 if e.ranged else 1) for e in enemies)  # fog: total concealment for them
        mine = sum(_potential(a) for a in allies)
        for name, level in zones:
            fog = name != "darkness"
            if (theirs if fog else sum(_potential(e) for e in enemies)) > mine:
                from_melee = [creature, *(c for c in (*allies, *enemies) if c is not creature and not c.ranged)]
                return Action("cast", spell=name, level=level, targets=from_melee)
    dispels = slots.get("dispel")
    if dispels:
        target = _dispel_target(view, creature, enemies)
        if target is not None:
            name, level = dispels[0]
            return Action("cast", spell=name, level=level, targets=[target])
    controls = slots.get("control")
    if controls:
        ranked = sorted(enemies, key=lambda e: (-_potential(e), e.uid))  # the most dangerous first
        for wanted in CONTROL_ORDER:
            for name, level in controls:
                if name != wanted:
                    continue
                spell = SPELLS[name]
                hit = [e for e in ranked if affects(spell, e)]
                if hit:
                    count = max(1, creature.t.caster_level // 3) if name == "scare" else 1
                    return Action("cast", spell=name, level=level, targets=hit[:count])
                break
    for name, level in slots.get("monster-bolt", ()):  # chain or call lightning, when it beats its blows
        spell = SPELLS[name]
        hurt = [e for e in enemies if _affects(view, spell, e)]
        cl = creature.t.caster_level
        dice = min(20, cl) * 3.5
        mean = dice * (1 + (len(hurt) - 1) / 2) if name == "chain lightning" else CALL_LIGHTNING_MEAN
        if hurt and mean >= _potential(creature) * WEAPON_HIT_SHARE:
            return Action("cast", spell=name, level=level, targets=_ordered(view, creature, hurt))
    for name, level in slots.get("monster-ray", ()):
        if name == "ray of enfeeblement":  # the enemy whose blows hurt most, while it has Strength to lose
            weak = [e for e in enemies if affects(SPELLS[name], e) and e.t.abilities["str"] and _potential(e)]
            if weak:
                return Action(
                    "cast", spell=name, level=level, targets=[max(weak, key=lambda e: (_potential(e), -e.uid))]
                )
            break
    weapons = _potential(creature) * WEAPON_HIT_SHARE
    target = choose_target(view, creature, enemies)
    for name, level in slots.get("single", ()):
        if name in SINGLE_DAMAGE and SINGLE_DAMAGE[name](creature.t.caster_level) < weapons:
            continue  # its weapons do more
        action = _single_spell(view, creature, name, level, enemies, target)
        if action is not None:
            return action
    armed = bool(creature.t.full or creature.t.standard)
    for name, level in slots.get("monster-ray", ()):
        if name == "ray of enfeeblement":
            continue  # cast before the damage spells, above
        if armed and name not in STRONG_RAYS:
            continue  # ray of frost's 1d3: its blows do more
        hurt = [e for e in enemies if _affects(view, SPELLS[name], e)]
        if hurt:
            return Action("cast", spell=name, level=level, targets=[choose_target(view, creature, hurt)])
    return None


STRONG_RAYS = frozenset({"acid arrow"})
"""A monster's rays worth more than a turn of its blows in most fights (acid arrow: 2d4 now and 2d4 a round after,
from a mephit's claws of 1d3); ray of frost's 1d3 is cast only by a creature without weapons; ray of enfeeblement
at the enemy whose blows hurt most, once each."""
CALL_LIGHTNING_MEAN = 10.5
"""Call lightning's bolt: 3d6."""
WEAPON_HIT_SHARE = 0.5
"""A monster weighs a damage spell against its weapons as if half its blows hit (its full routine's damage, each
blow hitting, times this)."""
SINGLE_DAMAGE = {
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


def _dispel_target(view: View, creature, enemies: list):
    """Dispel magic's target: the most dangerous ally a spell has taken out of the fight (held, asleep, charmed
    ...), else the enemy with the most of its spells on it, if two or more; else None."""
    freed = [
        a
        for a in creature.friends
        if not a.dead and a is not creature and any(n in a.conditions for n in DISABLED_BY_SPELL)
    ]
    if freed:
        return max(freed, key=lambda a: (_potential(a), -a.uid))
    best, most = None, 1
    for e in enemies:
        count = sum(1 for n in ENEMY_BUFFS if n in e.conditions)
        if count > most:
            best, most = e, count
    return best


def _within_sleep_budget(creatures: list, budget: int = SLEEP_HD) -> list:
    """The creatures sleep's 4 Hit Dice (deep slumber's 10) put to sleep, fewest Hit Dice first (as the spell takes
    them)."""
    chosen = []
    for c in sorted(creatures, key=lambda c: (c.t.hd, c.uid)):
        if c.t.hd <= budget:
            chosen.append(c)
            budget -= c.t.hd
    return chosen


def _affects(view: View, spell, creature) -> bool:
    """Can the spell do anything to ``creature``? (mind-affecting immunity, sleep's Hit Dice, hold person's
    humanoids; under the ``immune-targets`` fix, immunity to every kind of damage it deals.)"""
    t = creature.t
    if spell.mind and "mind-affecting" in t.immunities:
        return False
    if spell.name == "sleep":
        return t.hd <= SLEEP_HD and "sleep" not in t.immunities
    if spell.name == "hold person":
        return t.humanoid and "paralysis" not in t.immunities
    immunities = t.immunities
    return not (immunities and spell.damage and spell.damage <= immunities and view.fixed("immune-targets"))


POLICIES: dict[str, Callable[[View, object], Action]] = {
    "random": attack_policy,
    "focus-weakest": attack_policy,
    "focus-threat": attack_policy,
    "caster": caster_policy,
}


def register(name: str, policy: Callable[[View, object], Action], targeting: Callable | None = None) -> None:
    """Add a policy under ``name`` (usable in YAML); ``targeting`` picks attack targets for it.

    The policy is guarded (:func:`arena.combat.policy_guard.guarded`): if it raises, exits, returns something that
    is not a valid action or takes longer than :data:`~arena.limits.POLICY_DECISION_SECONDS` for one decision, its
    encounter fails with a :class:`~arena.combat.policy_guard.PolicyError` naming the policy, its file and line."""
    from arena.combat.policy_guard import guarded

    if not isinstance(name, str) or not name:
        raise ArenaError(f"register(): a policy's name must be a non-empty string, not {name!r}")
    if not callable(policy):
        raise ArenaError(f"register({name!r}, ...): the policy must be a function (view, creature) -> Action")
    POLICIES[name] = guarded(name, policy)
    TARGETING[name] = guarded(name, targeting, what="targeting") if targeting is not None else focus_weakest


_POLICY_FILES: set[str] = set()
POLICY_SOURCES: dict[str, str] = {}
"""Policy name -> the policy file (resolved path) that registered it: a scenario may use such a name only if it
lists that file itself, so every worker of a run, loading only its own scenarios' files, knows the name."""


def load_policy_file(path: str | Path, shown: str | None = None) -> None:
    """Run a Python file that registers policies (``register(...)`` at its top level), once per process.

    Scenario files name such files under ``policies:``; every process that fights the scenario (each worker of a
    run too) loads them before the tactics are read. A file may not register a name that is already taken (a
    built-in, a policy registered from Python, another file's): which one won would depend on loading order.
    Errors name the file as ``shown`` (the path as written)."""
    resolved = Path(path).resolve()
    key = str(resolved)
    if key in _POLICY_FILES:
        return
    shown = shown or str(path)
    if not resolved.is_file():
        raise ArenaError(f"no such policy file {shown!r}")
    if resolved.suffix != ".py":
        raise ArenaError(f"policy file {shown!r} is not a Python file (.py)")
    name = f"arena_policies_{resolved.stem}_{hashlib.sha1(key.encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    module = importlib.util.module_from_spec(spec)
    before = dict(POLICIES), dict(TARGETING)
    sys.modules[name] = module
    from arena.combat.policy_guard import Deadline, TimeUp
    from arena.limits import POLICY_LOAD_SECONDS

    try:
        with Deadline(POLICY_LOAD_SECONDS):
            spec.loader.exec_module(module)
    except TimeUp:
        _restore(*before)
        del sys.modules[name]
        raise ArenaError(
            f"policy file {shown} took longer than {POLICY_LOAD_SECONDS:g} s to load (an endless "
            "loop at its top level?)"
        ) from None
    except (Exception, SystemExit) as err:  # the user's code: report it as their input's problem
        _restore(*before)
        del sys.modules[name]
        lines = [frame.lineno for frame in traceback.extract_tb(err.__traceback__) if frame.filename == key]
        where = f"{shown}:{lines[-1]}" if lines else shown
        what = f"called sys.exit({err.code!r})" if isinstance(err, SystemExit) else f"{type(err).__name__}: {err}"
        raise ArenaError(f"policy file {where} failed: {what}") from None
    taken = sorted(n for n, policy in POLICIES.items() if n in before[0] and before[0][n] is not policy)
    if taken:
        _restore(*before)
        del sys.modules[name]
        raise ArenaError(
            f"policy file {shown!r} registers {', '.join(map(repr, taken))}, a name already taken"
            f"{f' by {Path(POLICY_SOURCES[taken[0]]).name}' if taken[0] in POLICY_SOURCES else ''}: "
            "choose another name"
        )
    for added in POLICIES.keys() - before[0].keys():
        POLICY_SOURCES[added] = key
    _POLICY_FILES.add(key)


def _restore(policies: dict, targeting: dict) -> None:
    POLICIES.clear()
    POLICIES.update(policies)
    TARGETING.clear()
    TARGETING.update(targeting)


def decide(view: View, creature) -> Action:
    try:
        policy = POLICIES[creature.policy]
    except KeyError:
        raise ArenaError(f"unknown policy {creature.policy!r} (known: {', '.join(sorted(POLICIES))})") from None
    return policy(view, creature)
