"""Where a special ability hooks into a fight: the engine's end of the ability registry.

A special ability's module (:mod:`arena.abilities`) registers a :class:`FightAbility`: the stat-block field it
reads, what a fight keeps of it (``compile``, run once per stat block, never per fight), and a function for each
moment it acts at. The moments are the engine's hook points:

- ``turn_start(fight, combatant)``: at the start of each of its turns, before anything else it does (a gaze, smoke,
  an eye ray). The engine ends the turn when the fight is over after one.
- ``first_action(fight, combatant)``: on its first action of the fight (frightful presence, a stench, an aura).
- ``instead_of_attack(fight, combatant, target, full) -> bool``: when its policy chose to attack ``target``, a
  special action that may take the turn instead (summoning, a roar, a smite): True when it did. The first hook that
  returns True ends the turn.
- ``on_hit(fight, combatant, target, attack, dealt)``: after each hit with one of its attacks that carries a rider
  (``rides_on`` names the attack, or the attacks: a ghoul's bite and claws paralyze, a wyvern's sting poisons).
- ``grip_turn(fight, combatant) -> bool``: the turn of a creature in a grapple this ability started, the holder's
  and the held one's alike (improved grab: the holder deals its damage, the held one tries to escape). True when
  the grapple took the turn.
- ``choose_action(view, creature) -> Action | None``: a special action of its own, of the kind ``action`` names (a
  breath weapon, a web, a trample), asked by the attack and caster policies before the creature's weapons; the
  first hook (in ``order``) that chooses one gives the turn's action. ``act(fight, combatant, action, target)``
  carries out an action of that kind (``target``: the action's target as the engine settled it, a new one when the
  policy's is out of reach; ``strains``: a disabled creature that takes it strains itself). The kind joins the
  kinds a user's policy may return (:func:`action_kinds`), and ``can_act(view, creature)`` is the guard's check of
  a user's action of the kind (``cannot_act`` says why it refused one).
- ``routine(fight, combatant, target, full) -> routine | None``: where its turn picks the melee routine it attacks
  ``target`` with (``full``: a full attack), a routine of its own instead (a powerful charge's one attack as it
  closes in, the first round). The first hook that returns one decides.
- ``after_attack(fight, combatant, target)``: after the melee routine of its turn's attack on ``target`` (a pounce's
  rake at the end of the first round's full attack).
- ``after_routine(fight, combatant, target, routine, hits)``: after each full-attack routine it makes
  (:func:`arena.combat.attacks.attack_routine`), with the hits its attacks scored, ``{(foe uid, attack name):
  count}``, and the foe it ended on (a rend, when both claws hit one foe).
- ``on_damaged(fight, combatant, source, amount, types)``: once damage of ``source`` got through its defences
  (:func:`arena.combat.damage.deal`: ``amount`` taken, after temporary hit points), before its state is settled
  (rage, once hurt).
- ``damage_stopped(fight, combatant, source, types)``: when its defences stopped all of the damage (immunity,
  resistance, damage reduction): an ochre jelly splits instead.

Besides its moments an ability may say what kind of turn it has: ``closes_in_full``, a full attack already on the
first round, as it closes in (pounce; :attr:`CompiledAbilities.closes_in_full`).

A stat block's hooks are gathered once, when its :class:`~arena.combat.template.Template` is compiled
(:func:`compile_abilities`), in each moment's order (``order``, low first), so that a creature without abilities
pays one test of an empty tuple per hook point, and one with them a loop over its own. A stat-block field is set
when it is not None, not False and not an empty tuple (a jelly's ``split``: the damage types that split it). The
hook points of ``routine``, ``after_attack``, ``after_routine``, ``on_damaged`` and ``damage_stopped`` are on the
fight's hottest paths (every melee turn, every full attack, every damage dealt): each is that one test, in the place
of the flag the engine tested there before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Hook = Callable[..., Any]
"""A hook point's function: ``hook(fight, combatant, ...)`` (the arguments of its moment, above)."""


@dataclass(frozen=True)
class FightAbility:
    """What a special ability does in a fight."""

    field: str
    """The stat-block field it reads (``gaze``): the ability is in the fight when the field is set."""
    compile: Callable[[Any], Any] | None = None
    """What a fight keeps of the field's value, worked out once per stat block (default: the value itself)."""
    turn_start: Hook | None = None
    turn_start_when: Callable[[Any], bool] | None = None
    """Whether a stat block's value of the field has the ``turn_start`` hook (default: every value has): a harpy's
    ``aura`` (its captivating song) goes on at the start of each turn, a mummy's (its despair) does not."""
    first_action: Hook | None = None
    instead_of_attack: Hook | None = None
    on_hit: Hook | None = None
    rides_on: Callable[[Any], str | tuple[str, ...] | None] | None = None
    """The name of the attack its ``on_hit`` rides on, or the names of the attacks (a ghoul's paralysis: its bite
    and its claws), from the field's value (``paralysis.attack``)."""
    grip_turn: Hook | None = None
    choose_action: Hook | None = None
    action: str | None = None
    """The kind of the action its ``choose_action`` chooses and its ``act`` carries out (``breath``)."""
    act: Hook | None = None
    can_act: Callable[[Any, Any], bool] | None = None
    """Whether ``creature`` may take an action of the kind now (None: always): a user's policy's action is refused
    otherwise."""
    cannot_act: str = ""
    """What the guard says of a user's action that ``can_act`` refused (``breathed without a breath weapon ready``)."""
    strains: bool = True
    """A disabled creature that takes the action strains itself (SRD 3.5 "Disabled": a standard action costs it a hit
    point), as after a spell or a coup de grace."""
    routine: Hook | None = None
    after_attack: Hook | None = None
    after_routine: Hook | None = None
    on_damaged: Hook | None = None
    damage_stopped: Hook | None = None
    closes_in_full: bool = False
    """A full attack already on the first round, as it closes in (pounce)."""
    order: int = 100
    """Its place among the hooks of one moment: low first (two abilities' hooks at one moment run in this order)."""


@dataclass(frozen=True)
class CompiledAbilities:
    """A stat block's abilities as a fight uses them."""

    data: dict[str, Any]
    """Each of its abilities' compiled value, by field (``t.ability_data["gaze"]``)."""
    turn_start: tuple[Hook, ...]
    first_action: tuple[Hook, ...]
    instead_of_attack: tuple[Hook, ...]
    on_hit: tuple[Hook, ...]
    riders: frozenset[str]
    """The names of the attacks its ``on_hit`` hooks ride on."""
    grip_turn: Hook | None
    """The grapple turn of the one ability that starts its grapples (None: it starts none)."""
    choose_action: tuple[Hook, ...]
    """Its special actions' choices, in order (a function once, when two fields of one ability share it)."""
    routine: tuple[Hook, ...] = ()
    after_attack: tuple[Hook, ...] = ()
    after_routine: tuple[Hook, ...] = ()
    on_damaged: tuple[Hook, ...] = ()
    damage_stopped: tuple[Hook, ...] = ()
    closes_in_full: bool = False
    """One of its abilities makes its first round's attack a full attack (pounce)."""


@dataclass(frozen=True)
class SpecialAction:
    """A special ability's own kind of action, as the engine carries it out and the guard checks a user's."""

    act: Hook
    can_act: Callable[[Any, Any], bool] | None
    cannot_act: str
    strains: bool
    field: str
    """The field of the ability that registered it."""


_ABILITIES: dict[str, FightAbility] = {}
ACTIONS: dict[str, SpecialAction] = {}
"""The abilities' own kinds of action, by kind (``breath``): what the engine calls for an action of the kind."""


def add_fight_ability(ability: FightAbility) -> None:
    """Register what an ability does in a fight (by the ability's module, once). Two fields of one ability (a
    damaging breath and one of an effect) may share a kind of action, with the same ``act``."""
    if ability.field in _ABILITIES:
        raise ValueError(f"the fight ability of {ability.field!r} is registered twice")
    kind = ability.action
    if (kind is None) != (ability.choose_action is None) or (kind is None) != (ability.act is None):
        raise ValueError(f"the special action of {ability.field!r} needs its kind, its choose_action and its act")
    if kind is not None and ability.act is not None:
        special = SpecialAction(ability.act, ability.can_act, ability.cannot_act, ability.strains, ability.field)
        known = ACTIONS.setdefault(kind, special)
        if known is not special and _acting(known) != _acting(special):
            raise ValueError(f"the action {kind!r} is another ability's ({known.field!r})")
    _ABILITIES[ability.field] = ability


def _acting(special: SpecialAction) -> tuple[Any, ...]:
    return special.act, special.can_act, special.cannot_act, special.strains


def action_kinds() -> frozenset[str]:
    """The kinds of action the abilities add (``breath``, ``web``, ``trample``)."""
    return frozenset(ACTIONS)


def registered() -> tuple[FightAbility, ...]:
    return tuple(_ABILITIES.values())


def compile_abilities(creature: Any) -> CompiledAbilities:
    """The abilities ``creature``'s stat block has (a set field: not None, not False, not an empty tuple), compiled,
    and their hooks in each moment's order."""
    data: dict[str, Any] = {}
    present: list[FightAbility] = []
    for ability in _ABILITIES.values():
        value = getattr(creature, ability.field, None)
        if value is None or value is False or value == ():
            continue
        data[ability.field] = value if ability.compile is None else ability.compile(value)
        present.append(ability)
    present.sort(key=lambda a: a.order)
    riders = frozenset(
        name
        for a in present
        if a.on_hit is not None and a.rides_on is not None
        for names in (a.rides_on(getattr(creature, a.field)),)
        if names is not None
        for name in ((names,) if isinstance(names, str) else names)
    )
    grips = [a.grip_turn for a in present if a.grip_turn is not None]
    return CompiledAbilities(
        data,
        turn_start=tuple(
            a.turn_start
            for a in present
            if a.turn_start is not None and (a.turn_start_when is None or a.turn_start_when(getattr(creature, a.field)))
        ),
        first_action=tuple(a.first_action for a in present if a.first_action is not None),
        instead_of_attack=tuple(a.instead_of_attack for a in present if a.instead_of_attack is not None),
        on_hit=tuple(a.on_hit for a in present if a.on_hit is not None),
        riders=riders,
        grip_turn=grips[0] if grips else None,
        choose_action=tuple(dict.fromkeys(a.choose_action for a in present if a.choose_action is not None)),
        routine=tuple(a.routine for a in present if a.routine is not None),
        after_attack=tuple(a.after_attack for a in present if a.after_attack is not None),
        after_routine=tuple(a.after_routine for a in present if a.after_routine is not None),
        on_damaged=tuple(a.on_damaged for a in present if a.on_damaged is not None),
        damage_stopped=tuple(a.damage_stopped for a in present if a.damage_stopped is not None),
        closes_in_full=any(a.closes_in_full for a in present),
    )


def worth_the_turn(caught: int, enemies: int) -> bool:
    """Whether an ability that catches ``caught`` of the ``enemies`` able foes is worth an ``instead_of_attack``
    turn (a roar, a crush, a whirlwind, a burst): two or more foes, or the only one (as a breath weapon)."""
    return caught >= 2 or (caught >= 1 and enemies == 1)
