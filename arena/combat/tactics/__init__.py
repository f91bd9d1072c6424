"""The AI policy layer: what each creature does on its turn.

A policy is a function ``(view, creature) -> Action``. It reads the fight through a read-only :class:`View` and
returns what to do and to whom; the rules (the engine and the kernel) decide what happens. Policies are named in
YAML per creature or per side; :func:`register` adds your own, and a scenario's policy files
(:func:`load_policy_file`) register theirs.

Built in:

- ``random``: a random able enemy.
- ``focus-weakest``: the able enemy with the fewest hit points.
- ``focus-threat``: the able enemy that has dealt the most damage (ties: the one that can deal most).
- ``caster``: a monster's breath weapon, web or trample as ``attack_policy`` uses them; then a cure for an ally
  below half its hit points, an area spell when three or more enemies can be caught, a buff in the first round,
  then a monster's own spells (invisibility, darkness, charms ...) or, for the party, a single-target spell while
  slots last; otherwise attack (the weakest).

Three settings per side or per creature: ``press_luck`` (never, always, when-better: press when the exact chance of
success is higher pressed than static), ``called_shot`` (never, head, when-better) and ``coup_de_grace`` (by-creature,
ruthless, after-threats, never: which helpless foes it finishes; left out, the model's ``coup_de_grace`` option).

The modules, each importing only those below it (an import-linter contract in ``pyproject.toml``):

- :mod:`~arena.combat.tactics.policy_files`: a user's policy file, run once per process;
- :mod:`~arena.combat.tactics.policies`: the policies by name, ``register``, ``decide``, ``TacticsSettings``;
- :mod:`~arena.combat.tactics.caster`: the caster policy, the party's spell choices;
- :mod:`~arena.combat.tactics.monster_caster`: which of its own spells a monster casts;
- :mod:`~arena.combat.tactics.spell_aim`: at whom a spell is worth aiming;
- :mod:`~arena.combat.tactics.attack`: the attack policy and the targeting;
- :mod:`~arena.combat.tactics.policy_guard`: the guard around a user's policy;
- :mod:`~arena.combat.tactics.view`: what a policy sees of the fight.

This package holds their public names, so that a policy file and the engine import them from one place.
"""

from __future__ import annotations

from arena.combat.actions import NOTHING, Action
from arena.combat.tactics.attack import TARGETING, Targeting, attack_policy, choose_target
from arena.combat.tactics.caster import caster_policy
from arena.combat.tactics.policies import (
    CALLED_SHOT,
    COUP_DE_GRACE,
    POLICIES,
    PRESS_LUCK,
    Policy,
    TacticsSettings,
    decide,
    register,
)
from arena.combat.tactics.policy_files import POLICY_SOURCES, load_policy_file
from arena.combat.tactics.spell_aim import AREA_GROUP_MINIMUM, AREA_MINIMUM
from arena.combat.tactics.view import FOE_SIDE, View

__all__ = [
    "AREA_GROUP_MINIMUM",
    "AREA_MINIMUM",
    "CALLED_SHOT",
    "COUP_DE_GRACE",
    "FOE_SIDE",
    "NOTHING",
    "POLICIES",
    "POLICY_SOURCES",
    "PRESS_LUCK",
    "TARGETING",
    "Action",
    "Policy",
    "TacticsSettings",
    "Targeting",
    "View",
    "attack_policy",
    "caster_policy",
    "choose_target",
    "decide",
    "load_policy_file",
    "register",
]
