"""One encounter, start to end, scheduled with simpy. Deterministic for a given seed.

Design: **one round driver**. A single simpy process runs the rounds; each round is a 6-second timeout, and within
a round creatures act in initiative order, each turn at its own instant (the round's start plus a fraction of a
second by initiative place). Durations (spells lasting rounds per level, breath weapon recharge, stuns) are
deadlines on that clock, from the instant of the turn that started them: a condition ends when the first turn at
or after its deadline begins, whoever's turn it is, so a 1-round stun costs its subject exactly one turn. One
process per creature would put two context switches and an event on the heap for every turn; the driver makes a
fight a handful of simpy events, and the order of turns cannot depend on heap tie-breaking.

Every d20-type roll is a :class:`~arena.rules.Check` resolved by the rules kernel; the engine never rolls a d20
itself (it does roll damage, hit dice, the percentile stabilisation chance and tie-breaks).

The fight is split by responsibility into parts, each a module of functions that take the fight (the shared
state) as their first argument; each part calls only the parts below it, and none imports this module:

- this module: the round driver, initiative, a turn (what a creature does with it) and the result;
- :mod:`~arena.combat.attacks`: attack routines and swings, fumbles, trips, rays, coups de grace, targets;
- :mod:`~arena.combat.damage`: dealing damage; damage with a save for half (area spells, breath weapons);
- :mod:`~arena.combat.called_shots`: choosing a called shot, whether it hit, the injury, toughing through;
- :mod:`~arena.combat.conditions`: timed conditions and their durations;
- :mod:`~arena.combat.states`: able counts, dying, disabled strain, death, healing;
- :mod:`~arena.combat.rolls`: resolving checks through the kernel (the roller's choices), saves, spell resistance.

:class:`Fight` binds the parts' entry points as its methods (``fight.deal``, ``fight.save`` ...), the interface
spells, tactics and tests use.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

import simpy

from arena.combat import (
    abilities,
    attacks,
    called_shots,
    casting,
    conditions,
    monster_spells,
    specials,
    states,
    tactics,
)
from arena.combat.ability_hooks import ACTIONS
from arena.combat.actions import Action
from arena.combat.attacks import (
    BLIND_AC,
    BLIND_MISS_CHANCE,
    FUMBLE_WEAPON_LOSS,
    HELPLESS_AC,
    PRONE_MELEE,
    SHOOTING_INTO_MELEE,
    STUNNED_AC,
)
from arena.combat.clock import ROUND
from arena.combat.combatant import INFINITY, NO_INJURIES, Combatant
from arena.combat.damage import MASSIVE_DAMAGE, MASSIVE_DAMAGE_DC, PHYSICAL
from arena.combat.fight_state import FightState
from arena.combat.flags import ModelFlags
from arena.combat.model import ModelOptions
from arena.combat.record import DEATH_FIELDS, REMOVED_FIELDS, CombatantRow, EncounterRecord
from arena.combat.rolls import CHANCE_SLACK, LUCK_REROLL_ON, roll_fields
from arena.combat.states import DEAD_AT, STABILISE_CHANCE, STRAIN_DAMAGE
from arena.combat.tactics import TacticsSettings, View
from arena.combat.tactics.view import resolve_coup_style
from arena.combat.template import Template
from arena.dice import Stream
from arena.rules import RuleSet
from arena.rules.kernel import kernel_for
from arena.world.creatures import Creature
from arena.world.typical import for_table

DEAF_SPELL_FAILURE = 0.2
"""Deafened casters (every ear severely damaged) fail 20% of spells with verbal components (SRD 3.5)."""

SLOWED, TURN_TAKEN = 1, 2
"""What holds an afflicted creature (:meth:`Fight._held`): one action left, or no turn at all."""

__all__ = [
    "BLIND_AC",
    "BLIND_MISS_CHANCE",
    "CHANCE_SLACK",
    "DEAD_AT",
    "DEAF_SPELL_FAILURE",
    "FUMBLE_WEAPON_LOSS",
    "HELPLESS_AC",
    "LUCK_REROLL_ON",
    "MASSIVE_DAMAGE",
    "MASSIVE_DAMAGE_DC",
    "PHYSICAL",
    "PRONE_MELEE",
    "ROUND",
    "SHOOTING_INTO_MELEE",
    "STABILISE_CHANCE",
    "STRAIN_DAMAGE",
    "STUNNED_AC",
    "Encounter",
    "Fight",
    "FightResult",
    "fight",
    "prepare",
]
"""The public API; the rule constants now live in the parts that use them and are re-exported here."""


@dataclass
class Encounter:
    """A fight compiled once from stat blocks and reused for any number of encounters."""

    party: list[tuple[Template, TacticsSettings]]
    monsters: list[tuple[Template, TacticsSettings]]
    round_cap: int = 50
    monsters_die_at_zero: bool = False
    model: ModelOptions = ModelOptions()
    """The fight model's options (:mod:`arena.combat.model`)."""
    flags: ModelFlags | None = field(default=None, repr=False, compare=False)
    """The fight model's options as the attributes a fight reads (:class:`~arena.combat.flags.ModelFlags`): worked
    out by the first fight, shared by the others while ``model`` is the same object."""


class FightResult:
    """One fought encounter, what ``arena.fight`` returns: its ``record`` (what the study counts: ``record.winner``,
    ``record.rounds``, ... and ``record.as_row()``, the flat row ``arena.run`` makes of it), the readable ``log`` and
    its structured ``events`` when the fight was logged (``fight(..., log=True)``; else empty), the engine's ``seed``
    and ``rules``, the rule set's key (``3d6+luck``), and one row per combatant when asked for (``fight(...,
    combatants=True)``: :data:`~arena.combat.record.COMBATANT_SCHEMA`; else empty).

    A plain class (not a dataclass, whose generated ``__init__`` would stay interpreted under the compiled engine):
    every fight returns one. mypyc keeps no class docstring: ``arena.FightResult`` gets this one back from the
    source installed beside the compiled module (``arena/__init__.py``)."""

    def __init__(
        self,
        record: EncounterRecord,
        log: list[str] | None = None,
        events: list[dict[str, Any]] | None = None,
        seed: int = 0,
        rules: str = "d20",
        combatants: list[CombatantRow] | None = None,
    ) -> None:
        self.record = record
        self.combatants: list[CombatantRow] = [] if combatants is None else combatants
        self.log: list[str] = [] if log is None else log
        self.events: list[dict[str, Any]] = [] if events is None else events
        """The log as structured events (``log=True``): ``{"round", "actor", "action", "target", "roll", "damage",
        ..., "text"}``, one per log line but the round headers and the summary (see ``arena fight --json``)."""
        self.seed = seed
        self.rules = rules

    def __repr__(self) -> str:
        return f"FightResult(rules={self.rules!r}, seed={self.seed}, winner={self.record.winner!r})"


def prepare(
    party: list[Creature],
    groups: list[tuple[Creature, int]],
    *,
    round_cap: int = 50,
    party_tactics: TacticsSettings = TacticsSettings(),
    monster_tactics: TacticsSettings = TacticsSettings(),
    creature_tactics: dict[str, TacticsSettings] | None = None,
    monsters_die_at_zero: bool = False,
    model: ModelOptions | None = None,
    summons: Mapping[str, Creature] | None = None,
) -> Encounter:
    """Compile a party and monster groups (creature, count) into an :class:`Encounter` fought under ``model``
    (default :class:`~arena.combat.model.ModelOptions`: the SRD-faithful fight model).

    ``summons``: the stat block of each creature a fighter summons, by the name its ``summon`` gives, from the
    fight's own bestiary (a scenario's ``bestiary:`` and ``--bestiary``); a name missing from it is looked up in the
    built-in bestiary when a summoning succeeds."""
    creature_tactics = creature_tactics or {}
    if model is not None and model.typical_monster != "srd-medians":  # the typical monster of another table
        groups = [(for_table(creature, model.typical_monster), count) for creature, count in groups]
    pcs = [(Template(c, c.name), creature_tactics.get(c.name, party_tactics)) for c in party]
    monsters = []
    for creature, count in groups:
        for i in range(count):
            name = creature.name if count == 1 else f"{creature.name} {i + 1}"
            monsters.append(
                (
                    Template(creature, name),
                    creature_tactics.get(name, creature_tactics.get(creature.name, monster_tactics)),
                )
            )
    for template, _ in monsters:
        template.set_side("monster")
    for template, _ in pcs:
        template.set_side("pc")
    for template, _ in (*pcs, *monsters):
        summoning = template.ability_data.get("summon")  # arena.abilities.summon: what it summons, from summons=
        if summons and summoning is not None and summoning.summon.creature in summons:
            summoning.creature = summons[summoning.summon.creature]
    return Encounter(pcs, monsters, round_cap, monsters_die_at_zero, model or ModelOptions())


def fight(
    encounter: Encounter, rules: RuleSet, seed: int, *, log: bool = False, combatants: bool = False
) -> FightResult:
    """Fight one encounter under ``rules`` from ``seed``; ``combatants``: with one row per combatant (who went down,
    hit points left, damage dealt), read from the fight's creatures once it is over (the fight itself is the same)."""
    battle = Fight(encounter, rules, seed, log, combatants)
    result = battle.run()
    battle.release()
    return result


class Fight(FightState):
    """One encounter in progress: its set-up, the round driver, a turn and the result. What the parts see of it
    (its state, ``log``, ``now``, ``resolve``) is :class:`~arena.combat.fight_state.FightState`.

    Its public entry points: :meth:`run` (the whole fight), :meth:`turn` (one creature's turn, as the round driver
    takes it), :meth:`initiative` and :meth:`over`; the parts' functions take it first (``attacks.swing_at(f, ...)``).
    """

    def __init__(self, encounter: Encounter, rules: RuleSet, seed: int, log: bool, combatants: bool = False) -> None:
        self.encounter = encounter
        self.want_rows = combatants
        """Make the per-combatant rows when the fight is over (:meth:`_rows`)."""
        self.rules = rules
        self.kernel = kernel_for(rules)
        self.plans = self.kernel._plans
        self.seed = seed
        self.stream = Stream(seed)
        self.rand = self.stream.rand
        self.env = simpy.Environment()
        uid = 0
        self.record = record = EncounterRecord()
        self.pcs = []
        self.monsters = []
        pcs, monsters = self.pcs, self.monsters
        melee = {"pc": 0, "monster": 0}
        self.model = model = encounter.model
        self._model_flags(model)
        for side, entries, own, foes, tally in (
            ("pc", encounter.party, pcs, monsters, record.party),
            ("monster", encounter.monsters, monsters, pcs, record.monsters),
        ):
            for template, settings in entries:
                c = Combatant(template, uid, settings, foes, own, tally)
                resolve_coup_style(c, model.coup_de_grace)  # once per combatant, not on each turn
                if (
                    c.ranged
                    and self.flags.fix_caster_melee
                    and c.policy == "caster"
                    and not template.prefers_ranged
                    and not template.shoots_better
                ):
                    c.ranged = False  # it fights better with its melee weapon: it stays in the melee
                own.append(c)
                melee[side] += not c.ranged
                uid += 1
        self.lines = [] if log else None
        self.events = [] if log else None
        self.round = 0
        self.view = View(self)
        self.press_luck_rules = rules.modifiers == "press-luck"
        self.bell = rules.die == "3d6"
        self.called_shots = rules.called_shots
        self.players_roll_all = rules.players_roll_all
        self.die_at_zero = encounter.monsters_die_at_zero
        self.last_plan = None
        self.instant = 0.0
        self.next_expiry = INFINITY
        self.able_count = {"pc": len(self.pcs), "monster": len(self.monsters)}
        self.side_out = None
        self.melee_count = melee
        self.joining = None

    def _model_flags(self, model: ModelOptions) -> None:
        """The model's options as plain attributes (``self.flags``): the hot loop reads them on every swing, so they
        are worked out once per encounter and model and shared by its fights."""
        encounter = self.encounter
        flags = encounter.flags
        if flags is None or flags.model is not model:
            flags = encounter.flags = ModelFlags(model)
        self.flags = flags
        self.melee_begun = not flags.fix_melee_begins

    # ------------------------------------------------------------------ running
    def run(self) -> FightResult:
        self.env.process(self._rounds())
        self.env.run()
        self._finish()
        rows = self._rows() if self.want_rows else None
        return FightResult(self.record, self.lines or [], self.events or [], self.seed, self.rules.key, rows)

    def release(self) -> None:
        """Break the fight's reference cycles once it is over and its result taken (:func:`fight` does; a test that
        reads the fight's creatures afterwards does not): the combatants name each other (foes and friends lists,
        targets, grips, their cached attack actions) and the view names the fight, so without this every fight's
        objects wait for the cyclic garbage collector, whose collections then cost 7-10% of the compiled engine's
        time. Afterwards everything the fight made is freed at once, by reference counts."""
        for creature in self.pcs + self.monsters:
            creature.attack_action = creature.melee_target = creature.dodge_against = None
            creature.grip = creature.casting = None
            creature.conditions.clear()
            creature.specials = None
        self.pcs.clear()  # also every monster's foes and every PC's friends: the lists are shared
        self.monsters.clear()
        self.joining = None
        del self.view

    def over(self) -> bool:
        return not self.able_count["pc"] or not self.able_count["monster"]

    def _rounds(self) -> Generator[simpy.events.Event, object, None]:
        order = self.initiative()
        cap = self.encounter.round_cap
        while True:
            self.round += 1
            if self.round > cap:
                self.round = cap
                if self.lines is not None:
                    self.log(f"round cap {cap} reached: a draw", actor=None, action="round-cap", result="draw")
                return
            if self.lines is not None:
                self.lines.append(f"--- round {self.round} ---")
            able = self.able_count
            turn = self.turn
            for creature in order:
                if not creature.dead:
                    turn(creature)
                if not able["pc"] or not able["monster"]:  # inlined over(): the fight is over
                    return
            if self.joining:  # summoned creatures join at the end of the round
                specials.join(self, order)
            yield self.env.timeout(ROUND)

    def initiative(self) -> list[Combatant]:
        """Initiative order: the highest total first, ties to the higher modifier, then to a roll."""
        everyone = self.pcs + self.monsters
        rand = self.rand
        for c in everyone:  # straight to the kernel: initiative is never pressed, and no
            t = c.t  # spell is up yet (no auspicious odds)
            luck = self.flags.luck_low_natural and t.luck_domain  # the Luck reroll: any roll of its own
            check = t.initiative_reroll_check if luck else t.initiative_check
            plan = self.last_plan = self.plans.get(check) or self.kernel.plan(check)
            outcome = plan.resolve(rand)
            if outcome.rerolled:
                c.luck_used = True
            c.init = outcome.total
            if self.lines is not None:
                self.log(
                    f"{c.name} rolls initiative: natural {outcome.natural}, total {outcome.total}",
                    actor=c.name,
                    action="initiative",
                    roll=roll_fields(outcome, plan),
                )
        order = [entry[-1] for entry in sorted([(-c.init, -c.t.initiative, rand(), c.uid, c) for c in everyone])]
        scale = 1 << max(len(order) - 1, 1).bit_length()  # a power of two: offsets add to times exactly
        for place, c in enumerate(order):
            c.offset = place / scale  # below one second: turns keep their order
        return order

    # ------------------------------------------------------------------ a turn
    def turn(self, c: Combatant) -> None:
        """A creature's turn: its conditions end or hold it, it heals or bleeds, then does what its policy says.

        Inlined for speed: deciding and carrying out an attack stay in this one method (not an ``_act`` of their
        own), which saves a call on every turn; undoing it costs one more Python call per turn. The steps only some
        creatures take are methods of their own, called behind the flag that says the creature has them (so the
        others pay nothing): :meth:`_turn_start`, :meth:`_afflictions`, :meth:`_held`, :meth:`_on_action`."""
        c.called_this_round = False
        if c.toughed:
            c.toughed = NO_INJURIES
            c.penalty_cache = {}
        now = self.instant = self.env.now + c.offset
        if now >= self.next_expiry:
            conditions.expire(self, now)
        t = c.t
        if t.turn_start and self._turn_start(c):
            return  # its gaze or a free action ended the fight
        if c.afflicted and self._afflictions(c):
            return  # it burned to death
        if c.hp < 0:
            states.dying(self, c)
            if not t.ferocity or c.dead:  # ferocity: it fights on while dying
                return
        if not c.is_able:
            grip = c.grip  # swallowed: its turn inside (it cuts its way out), the swallower's ability's grip turn
            if grip is None or not (hook := grip[1].t.grip_turn_hook) or not hook(self, c):
                conditions.try_break_free(self, c)
            c.acted = True
            return
        if c.conditions and "stunned" in c.conditions:
            c.acted = True
            return
        if c.injuries:
            called_shots.tough_through(self, c)
        single = c.hp == 0 or (c.nonlethal and c.nonlethal == c.hp)  # c.single_action() inlined: disabled or
        #                                                               staggered, a move or a standard action
        if c.afflicted:
            held = self._held(c)
            if held == TURN_TAKEN:  # a grapple, a web or a daze took the turn
                c.acted = True
                return
            if held == SLOWED:
                single = True  # slow gas: one action a turn
        if single and t.ferocity and c.hp <= 0:
            single = False  # ferocity: no penalty while disabled or dying
        if c.prone:  # stand up (a move action): only a standard action is left
            c.prone = False
            if self.lines is not None:
                self.log(f"{c.name} stands up", actor=c.name, action="stand-up")
            if single:
                c.acted = True
                return
            full = False
        else:  # melee creatures close in on the first round
            full = (self.round > 1 or c.ranged or t.closes_in_full) and not single  # pounce: a full attack at once
        disabled = c.hp == 0
        try:
            policy = tactics.POLICIES[c.policy]
        except KeyError:
            policy = tactics.decide  # which names the unknown policy
        action = policy(self.view, c)
        kind = action.kind
        target = action.target
        if (
            target is not None
            and target.ranged
            and not self.view.reaches(c, target)
            and not (kind in ACTIONS and self.flags.fix_web_ranged)  # a web: a ranged touch attack, reach is no matter
        ):
            target = attacks.pick_target(self, c)  # out of reach behind the melee (a user's policy may not know)
            if kind == "coup":
                kind = "attack"
        if kind == "coup" and not full:  # a coup de grace takes a full round: attack someone able instead
            target = attacks.pick_target(self, c)
            kind = "attack"
        if c.afflicted and target is not None and not c.ranged and "entangled" in c.conditions:
            target, kind = self._anchored(c, target, kind)  # a web holds it: only the foes in its reach
        if t.on_action:  # Dodge, frightful presence: what acting does besides the action
            kind = self._on_action(c, action, kind, target, full)
        strained = False
        if kind == "attack":
            if target is not None:
                if c.ranged:
                    attacks.attack_routine(self, c, target, t.ranged_full if full else t.ranged_standard, full)
                    strained = True
                else:
                    routine = t.full if full else t.standard
                    if t.routine_hooks:  # powerful charge: it closes in with its own attack
                        for hook in t.routine_hooks:
                            own = hook(self, c, target, full)
                            if own is not None:
                                routine = own
                                break
                    if not (c.weapon_lost and routine and routine[0].ranged):  # its only weapon is gone
                        attacks.attack_routine(self, c, target, routine, full)
                        strained = True
                        if t.after_attack_hooks:  # pounce: its rake too
                            for hook in t.after_attack_hooks:
                                hook(self, c, target)
        elif kind == "cast":
            self._cast(c, action)
        elif kind == "coup" and target is not None:
            attacks.coup_de_grace(self, c, target)
        elif kind in ACTIONS:  # a special ability's own action (a breath weapon, a web, a trample)
            special = ACTIONS[kind]
            special.act(self, c, action, target)
            strained = special.strains or self.flags.fix_disabled_strain  # a web, a trample: standard actions
        if (
            disabled
            and (strained or kind in ("cast", "coup", "special"))
            and c.hp == 0
            and not c.dead
            and not t.ferocity
        ):
            states.strain(self, c)
        c.acted = True

    def _turn_start(self, c: Combatant) -> bool:
        """What a creature with ``turn_start`` does first: regenerates or heals itself, runs its abilities'
        ``turn_start`` hooks (a gaze, then its free actions: a song kept up, smoke, entangling plants, eye rays).
        Returns whether the fight is over."""
        t = c.t
        if t.heals_itself:
            states.heal_itself(self, c)
        for hook in t.turn_start_hooks:  # the abilities' own (a gaze, smoke ...)
            hook(self, c)
            if self.over():
                return True
        return False

    def _afflictions(self, c: Combatant) -> bool:
        """An afflicted creature's turn begins: a spell of one round's casting time takes effect, a fire burns.
        Returns whether it died."""
        if c.casting is not None:  # a spell of one round's casting time takes effect now
            casting.complete_casting(self, c)
        if c.burning is not None:
            c.burning[3](self, c)  # the fire's turn (the burn ability's, arena.abilities.burn)
            if c.dead:
                return True
        return False

    def _held(self, c: Combatant) -> int:
        """What holds an afflicted creature that can act: :data:`TURN_TAKEN` (a grapple, a web or a daze takes its
        turn), :data:`SLOWED` (slow gas leaves it one action) or 0 (nothing)."""
        grip = c.grip
        if grip is not None:  # it holds a foe, or is held: the grapple turn of the holder's ability (improved grab)
            hook = (c if grip[0] else grip[1]).t.grip_turn_hook
            if hook is not None and hook(self, c):
                return TURN_TAKEN
        if c.conditions and "entangled" in c.conditions and conditions.web_turn(self, c):  # a web first
            return TURN_TAKEN
        if c.conditions and "dazed" in c.conditions:  # daze: no actions this turn
            return TURN_TAKEN
        if c.conditions and "slowed" in c.conditions:
            return SLOWED
        return 0

    def _on_action(self, c: Combatant, action: Action, kind: str, target: Combatant | None, full: bool) -> str:
        """What acting does besides the action, for a creature with ``on_action``: Dodge designates its opponent,
        frightful presence on its first action, a special that takes the turn instead of its attacks, an unseen
        attack ending invisibility. Returns the action's kind (``special`` when a special took the turn)."""
        t = c.t
        if t.dodge:  # Dodge: the opponent it acts against is the one it designates
            if target is not None:
                c.dodge_against = target
            elif kind == "cast" and action.targets and action.targets[0].side != c.side:
                c.dodge_against = action.targets[0]
        if not c.frightened and t.presence and kind != "none":  # on its first action
            abilities.presence(self, c)
        if t.special_turn and kind == "attack":
            for hook in t.instead_of_attack_hooks:  # the abilities' own: summoning, a whirlwind, crush, roar, smite
                if hook(self, c, target, full):
                    kind = "special"  # it took the turn
                    break
        if c.concealed:  # invisible: attacking ends it, after an unseen attack
            monster_spells.unseen(self, c, kind, target, action)
        return kind

    def _anchored(self, c: Combatant, target: Combatant, kind: str) -> tuple[Combatant | None, str]:
        """An entangled melee creature fights where it stands (the web anchors it: SRD "allowing no movement"): its
        blow goes to a foe in its reach (:func:`conditions.in_reach`), a coup de grace only to one there; with none
        there, it tries to get free instead (:func:`conditions.escape_web`)."""
        if kind not in ("attack", "coup"):
            return target, kind
        reach = conditions.in_reach(c)
        if target in reach:
            return target, kind
        if reach:
            return reach[0], "attack"
        conditions.escape_web(self, c)  # a caster with no spell to cast and no foe in reach: it tries to get free
        return None, "none"

    def _cast(self, c: Combatant, action: Action) -> None:
        """Cast the action's spell from a slot; a deafened caster may fail it, an entangled one fail its
        Concentration check (the slot is spent all the same)."""
        spell, targets = action.spell, action.targets
        assert spell is not None and targets is not None, "a cast action names its spell and its targets"
        c.spend_slot(spell, action.level)
        if c.afflicted and "entangled" in c.conditions and not conditions.casts_entangled(self, c, spell, action.level):
            return
        if c.deaf and self.rand() < DEAF_SPELL_FAILURE:
            if self.lines is not None:
                self.log(
                    f"{c.name} is deafened: {spell} fails",
                    actor=c.name,
                    action="spell-fails",
                    spell=spell,
                    result="deafened",
                )
        else:
            casting.cast(self, c, spell, action.level, targets)

    # ------------------------------------------------------------------ the end
    def _finish(self) -> None:
        r = self.record
        party_able, monsters_able = self.able_count["pc"] > 0, self.able_count["monster"] > 0
        if party_able != monsters_able:
            r.winner = "party" if party_able else "monsters"
        elif not party_able and self.side_out is not None and self.flags.fix_disabled_win:
            r.winner = "party" if self.side_out == "monster" else "monsters"  # the other side fell first
        else:
            r.winner = "draw"  # both able: the round cap (or, undone, both out)
        r.rounds = self.round
        total = left = injured = 0
        for c in self.pcs:
            total += c.t.max_hp
            injured += len(c.injuries)
            if c.dead:
                r.pcs_dead += 1
                cause = DEATH_FIELDS[max(c.death_cause, 1) - 1]  # a death without its cause: ordinary damage
                setattr(r, cause, getattr(r, cause) + 1)
            else:
                left += max(0, c.hp)
                r.pcs_down += not c.is_able
                if not c.is_able and c.hp >= 0 and c.nonlethal <= c.hp:
                    removed = REMOVED_FIELDS[
                        0 if "petrified" in c.conditions else 1 if "swallowed" in c.conditions else 2
                    ]
                    setattr(r, removed, getattr(r, removed) + 1)
        r.party_hp_lost = (total - left) / total if total else 0.0
        for c in self.monsters:
            injured += len(c.injuries)
            if c.dead:
                r.monsters_killed += 1
            else:
                r.monsters_down += not c.is_able
        r.penalties_at_end = injured
        spent = available = 0
        for c in self.pcs[: len(self.encounter.party)]:  # the PCs who began the fight (summoned allies joined after)
            if c.t.spell_levels:
                available += c.t.spell_levels
                spent += c.t.spell_levels - sum(level * len(names) for level, names in c.slots.items())
        r.spell_levels_spent_party, r.spell_levels_available_party = spent, available
        if self.lines is not None:
            self.lines.append(f"=== {r.winner} after {r.rounds} rounds ===")
            for c in self.pcs + self.monsters:
                self.lines.append(f"{c.name}: {c.hp}/{c.max_hp} hp, {c.state()}")

    def _rows(self) -> list[CombatantRow]:
        """One row per combatant (:data:`~arena.combat.record.COMBATANT_SCHEMA`), read from its state at the end: only
        what the fight kept anyway (its hit points, its death, its damage dealt) and its count of downs."""
        return [
            (
                c.side,
                c.name,
                c.t.creature.name,
                c.downs > 0,
                c.downs,
                c.dead,
                0 if c.dead else max(0, c.hp),
                c.hp,
                c.t.max_hp,
                c.damage_dealt,
            )
            for c in self.pcs + self.monsters
        ]
