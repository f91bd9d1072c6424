"""``arena.prepare`` and ``arena.fight`` for a notebook: one encounter, prepared and fought as a scenario file and
``arena fight`` would.

Why a module of its own: the engine's own ``prepare`` and ``fight`` (:mod:`arena.combat.engine`) take compiled
pieces and the engine's defaults, in which no creature presses its luck or calls a shot (``never``); a scenario
file's creatures do both ``when-better`` (:data:`~arena.study.scenarios.parts.DEFAULT_PRESS_LUCK`), so a notebook
fight under ``+luck`` or ``+called`` fought differently from the command's, and a Scenario had to be prepared by
hand (``scenario.prepare("d20")``) before the engine would take it. The wrappers here sit in the study layer, which
knows scenarios, and leave the engine as it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from arena.combat.engine import Encounter, FightResult
from arena.combat.engine import fight as engine_fight
from arena.combat.engine import prepare as engine_prepare
from arena.combat.model import ModelOptions
from arena.combat.tactics import TacticsSettings
from arena.errors import ArenaError
from arena.limits import MAX_SEED
from arena.rules import RuleOptions, RuleSet
from arena.study.scenarios.loading import load_scenarios, pick
from arena.study.scenarios.parts import DEFAULT_CALLED_SHOT, DEFAULT_PRESS_LUCK
from arena.study.scenarios.scenario import Scenario
from arena.world.creatures import Creature
from arena.world.yamlio import display_name

SIDE_DEFAULT = TacticsSettings(press_luck=DEFAULT_PRESS_LUCK, called_shot=DEFAULT_CALLED_SHOT)
"""A side's tactics when none are given: each creature's own stat-block policy, pressing luck and calling shots
``when-better``, as in a scenario file that says nothing of them."""


def prepare(
    party: list[Creature],
    groups: list[tuple[Creature, int]],
    *,
    round_cap: int = 50,
    party_tactics: TacticsSettings = SIDE_DEFAULT,
    monster_tactics: TacticsSettings = SIDE_DEFAULT,
    creature_tactics: dict[str, TacticsSettings] | None = None,
    monsters_die_at_zero: bool = False,
    model: ModelOptions | None = None,
    summons: Mapping[str, Creature] | None = None,
) -> Encounter:
    """Compile a party and monster groups (creature, count) into an :class:`~arena.combat.engine.Encounter`, with a
    scenario file's defaults: every creature fights by its stat block's policy and presses luck and calls shots
    ``when-better`` unless ``party_tactics``, ``monster_tactics`` or ``creature_tactics`` (by name) say otherwise.
    Each of those is a whole setting, not a change of the default: a bare ``TacticsSettings(policy="random")`` never
    presses luck nor calls a shot (start from ``dataclasses.replace(SIDE_DEFAULT, policy="random")`` to keep them).
    ``model``: the fight model's options (default: the SRD-faithful model); ``summons``: the stat blocks of what the
    fighters summon, by name (else the built-in bestiary's)."""
    return engine_prepare(
        party,
        groups,
        round_cap=round_cap,
        party_tactics=party_tactics,
        monster_tactics=monster_tactics,
        creature_tactics=creature_tactics,
        monsters_die_at_zero=monsters_die_at_zero,
        model=model,
        summons=summons,
    )


def fight(
    encounter: Encounter | Scenario | str | os.PathLike,
    rules: RuleSet | str | None = None,
    seed: int | None = None,
    *,
    log: bool = False,
    combatants: bool = False,
    scenario: str | None = None,
    trust_policies: bool = False,
    bestiary: Sequence[str | os.PathLike] = (),
) -> FightResult:
    """Fight one encounter: an :class:`~arena.combat.engine.Encounter` (:func:`prepare`), a
    :class:`~arena.study.scenarios.scenario.Scenario`, or a scenario file's path (``scenario``: which one, by name,
    when it holds several), fought as ``arena fight`` fights it.

    ``rules``: a RuleSet or its key (``"3d6+luck"``; a scenario's own rule options apply to a key); default the
    standard rules (``d20``). ``seed``: the engine's seed; default the scenario's ``seed`` (0 for an Encounter).
    ``log``: keep the readable log and its events; ``combatants``: one row per combatant (who went down, hit points
    left, damage dealt). ``trust_policies`` and ``bestiary`` are for a path, as
    ``--trust-policies`` and ``--bestiary`` are for the command."""
    if isinstance(encounter, str | os.PathLike):
        encounter = _one_scenario(encounter, scenario, trust_policies, bestiary)
    elif scenario is not None or trust_policies or bestiary:
        raise ArenaError("scenario=, trust_policies= and bestiary= are for a scenario file's path")
    if isinstance(encounter, Scenario):
        ruled = _rule_set(rules, encounter.rule_options)
        prepared = encounter.prepare(ruled.die)
        return engine_fight(prepared, ruled, _seed(seed, encounter.seed), log=log, combatants=combatants)
    if isinstance(encounter, Encounter):
        return engine_fight(encounter, _rule_set(rules, None), _seed(seed, 0), log=log, combatants=combatants)
    raise ArenaError(
        f"fight() takes an Encounter (arena.prepare), a Scenario or a scenario file's path, not "
        f"{type(encounter).__name__}"
    )


def _one_scenario(
    path: str | os.PathLike, name: str | None, trust_policies: bool, bestiary: Sequence[str | os.PathLike]
) -> Scenario:
    found = load_scenarios(path, trust_policies=trust_policies, bestiary=bestiary)
    if name is None and len(found) > 1:
        raise ArenaError(
            f"{display_name(path)} holds {len(found)} scenarios; choose one with scenario=NAME: "
            + ", ".join(s.name for s in found)
        )
    return pick(found, name, display_name(path))


def _rule_set(rules: RuleSet | str | None, options: RuleOptions | None) -> RuleSet:
    """``rules`` as a RuleSet: a key read with the scenario's rule options (``options``; None: the defaults)."""
    if isinstance(rules, RuleSet):
        return rules
    return RuleSet.from_key("d20" if rules is None else rules, options)  # not text: an error naming its type


def _seed(seed: int | None, default: int) -> int:
    if seed is None:
        return default
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ArenaError(f"seed must be a whole number from 0 to {MAX_SEED:,}, not {seed!r}")
    return seed
