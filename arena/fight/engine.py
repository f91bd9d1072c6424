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
"""

from __future__ import annotations

from dataclasses import dataclass, field

import simpy

from arena.dice import Stream, parse
from arena.fight import injuries, spells, tactics
from arena.fight.combatant import INFINITY, NO_INJURIES, Combatant, Template
from arena.fight.record import LUCKY_CHANCE, EncounterRecord
from arena.fight.tactics import TacticsSettings, View
from arena.rules import Check, RuleSet
from arena.rules import called_shots as cs
from arena.rules.kernel import kernel_for
from arena.world.creatures import Creature

ROUND = spells.ROUND
STABILISE_CHANCE = 0.10
"""SRD 3.5: each round a dying character has a 10% chance to become stable; otherwise it loses 1 hit point."""
DEAD_AT = -10
"""SRD 3.5: dead at -10 hit points."""
MASSIVE_DAMAGE = 50
"""SRD 3.5: a single attack of 50 or more damage forces a DC 15 Fortitude save or the creature dies."""
MASSIVE_DAMAGE_DC = 15
PRONE_MELEE = 4
"""Prone: -4 on the prone creature's melee attacks; -4 AC against melee, +4 against ranged."""
SHOOTING_INTO_MELEE = -4
"""A ranged attack into a melee where an ally is engaged takes -4 (no Precise Shot is modelled)."""
HELPLESS_AC = -4
"""A helpless defender loses its Dexterity bonus (its flat-footed AC) and melee attackers get +4 against it:
modelled as flat-footed AC - 4 against melee attacks (ranged attackers get no bonus)."""
STUNNED_AC = -2
"""A stunned defender takes -2 to AC and loses its Dexterity bonus: flat-footed AC - 2."""
STRAIN_DAMAGE = 1
"""SRD 3.5: a disabled creature that takes a strenuous standard action (attacking, casting) takes 1 damage after
it, unless the action raised its hit points: it falls to -1, dying."""
PHYSICAL = frozenset({"slashing", "piercing", "bludgeoning"})
FUMBLE_WEAPON_LOSS = 0.5
"""Seed 002: a fumbled ranged attack "may lose or break" the weapon: here half the time, for the rest of the fight."""
BLIND_MISS_CHANCE = 0.5
"""A blinded attacker (every eye severely damaged) misses half its hits (total concealment for it, SRD 3.5)."""
BLIND_AC = -2
DEAF_SPELL_FAILURE = 0.2
"""Deafened casters (every ear severely damaged) fail 20% of spells with verbal components (SRD 3.5)."""
CHANCE_SLACK = 1e-9
"""Exact chances are sums of floats that can be off in the last bits (0.49999999999999994 for one half, 9/20 as
0.44999999999999984 one way and 0.45000000000000007 another): two chances closer than this are equal, a chance
this close to a threshold is on it (histogram tenths, lucky hits, pressing only when strictly better, the
called-shot floor)."""
LUCK_REROLL_ON = ("save", "magic", "defense")
"""The Luck domain's once-a-day reroll is spent on the first of its owner's saves (or, when players roll all,
magic and defense checks) that fails."""


@dataclass
class Encounter:
    """A fight compiled once from stat blocks and reused for any number of encounters."""

    party: list[tuple[Template, TacticsSettings]]
    monsters: list[tuple[Template, TacticsSettings]]
    round_cap: int = 50
    monsters_die_at_zero: bool = False


@dataclass
class FightResult:
    record: EncounterRecord
    log: list[str] = field(default_factory=list)
    seed: int = 0
    rules: str = "d20"


def prepare(party: list[Creature], groups: list[tuple[Creature, int]], *, round_cap: int = 50,
            party_tactics: TacticsSettings = TacticsSettings(),
            monster_tactics: TacticsSettings = TacticsSettings(),
            creature_tactics: dict[str, TacticsSettings] | None = None,
            monsters_die_at_zero: bool = False) -> Encounter:
    """Compile a party and monster groups (creature, count) into an :class:`Encounter`."""
    creature_tactics = creature_tactics or {}
    pcs = [(Template(c, c.name), creature_tactics.get(c.name, party_tactics)) for c in party]
    monsters = []
    for creature, count in groups:
        for i in range(count):
            name = creature.name if count == 1 else f"{creature.name} {i + 1}"
            monsters.append((Template(creature, name),
                             creature_tactics.get(name, creature_tactics.get(creature.name, monster_tactics))))
    for template, _ in monsters:
        template.set_side("monster")
    for template, _ in pcs:
        template.set_side("pc")
    return Encounter(pcs, monsters, round_cap, monsters_die_at_zero)


def fight(encounter: Encounter, rules: RuleSet, seed: int, *, log: bool = False) -> FightResult:
    """Fight one encounter under ``rules`` from ``seed``."""
    return Fight(encounter, rules, seed, log).run()


class Fight:
    """The state of one encounter in progress."""

    def __init__(self, encounter: Encounter, rules: RuleSet, seed: int, log: bool) -> None:
        self.encounter = encounter
        self.rules = rules
        self.kernel = kernel_for(rules)
        self.plans = self.kernel._plans
        """The kernel's compiled checks (read directly: the hot loop)."""
        self.seed = seed
        self.stream = Stream(seed)
        self.rand = self.stream.rand
        self.env = simpy.Environment()
        uid = 0
        self.record = record = EncounterRecord()
        self.pcs: list[Combatant] = []
        self.monsters: list[Combatant] = []
        pcs, monsters = self.pcs, self.monsters
        melee = {"pc": 0, "monster": 0}
        for template, settings in encounter.party:
            c = Combatant(template, uid, settings, monsters, pcs, record.party)
            pcs.append(c)
            melee["pc"] += not c.ranged
            uid += 1
        for template, settings in encounter.monsters:
            c = Combatant(template, uid, settings, pcs, monsters, record.monsters)
            monsters.append(c)
            melee["monster"] += not c.ranged
            uid += 1
        self.lines: list[str] | None = [] if log else None
        self.round = 0
        self.view = View(self)
        self.press_luck_rules = rules.modifiers == "press-luck"
        self.bell = rules.die == "3d6"
        """Auspicious odds exists only under the bell curve."""
        self.called_shots = rules.called_shots
        self.players_roll_all = rules.players_roll_all
        self.die_at_zero = encounter.monsters_die_at_zero
        self.last_plan = None
        self.instant = 0.0
        """Simulated seconds at the current turn: the round's start plus the acting creature's offset."""
        self.next_expiry = INFINITY
        """No condition on anyone ends before this time: conditions end when their time comes, on anyone's turn."""
        self.able_count = {"pc": len(self.pcs), "monster": len(self.monsters)}
        """How many creatures of each side can act: the fight ends when a side has none."""
        self.melee_count = melee
        """How many creatures of each side can act and fight in melee (shooting into melee, flanking)."""

    # ------------------------------------------------------------------ running
    def run(self) -> FightResult:
        self.env.process(self._rounds())
        self.env.run()
        self._finish()
        return FightResult(self.record, self.lines or [], self.seed, self.rules.key)

    def now(self) -> float:
        return self.instant

    def log(self, text: str) -> None:
        self.lines.append(f"[r{self.round}] {text}")

    def _rounds(self):
        order = self._initiative()
        cap = self.encounter.round_cap
        while True:
            self.round += 1
            if self.round > cap:
                self.round = cap
                if self.lines is not None:
                    self.log(f"round cap {cap} reached: a draw")
                return
            if self.lines is not None:
                self.lines.append(f"--- round {self.round} ---")
            able = self.able_count
            turn = self._turn
            for creature in order:
                if not creature.dead:
                    turn(creature)
                if not able["pc"] or not able["monster"]:      # inlined _over(): the fight is over
                    return
            yield self.env.timeout(ROUND)

    def _initiative(self) -> list[Combatant]:
        """Initiative order: the highest total first, ties to the higher modifier, then to a roll."""
        everyone = self.pcs + self.monsters
        rand = self.rand
        for c in everyone:      # straight to the kernel: initiative is never pressed or rerolled, and no
            plan = self.last_plan = self.kernel.plan(c.t.initiative_check)   # spell is up yet (no auspicious odds)
            outcome = plan.resolve(rand)
            c.init = outcome.total
            if self.lines is not None:
                self.log(f"{c.name} rolls initiative: natural {outcome.natural}, total {outcome.total}")
        order = [entry[-1] for entry in sorted([(-c.init, -c.t.initiative, rand(), c.uid, c) for c in everyone])]
        scale = 1 << max(len(order) - 1, 1).bit_length()      # a power of two: offsets add to times exactly
        for place, c in enumerate(order):
            c.offset = place / scale                            # below one second: turns keep their order
        return order

    def _over(self) -> bool:
        return not self.able_count["pc"] or not self.able_count["monster"]

    def refresh(self, c: Combatant) -> None:
        """Keep ``c.is_able`` and the able counts current after anything changed ``c``'s state."""
        now = c.able()
        if now != c.is_able:
            c.is_able = now
            change = 1 if now else -1
            self.able_count[c.side] += change
            if not c.ranged:
                self.melee_count[c.side] += change

    def lose_weapon(self, c: Combatant) -> None:
        """A fumble lost or broke ``c``'s ranged weapon: from now on it fights in melee."""
        c.weapon_lost = True
        if c.ranged:
            c.ranged = False
            if c.is_able:
                self.melee_count[c.side] += 1

    # ------------------------------------------------------------------ a turn
    def _turn(self, c: Combatant) -> None:
        c.called_this_round = False
        if c.toughed:
            c.toughed = NO_INJURIES
            c.penalty_cache = {}
        now = self.instant = self.env.now + c.offset
        if now >= self.next_expiry:
            self._expire(now)
        conditions = c.conditions
        t = c.t
        if t.heals_itself:
            if t.regen and c.nonlethal:
                c.nonlethal = max(0, c.nonlethal - t.regen)
                self._magical_healing(c)
            if t.fast_healing and c.hp < c.max_hp and not c.dead:
                c.hp = min(c.max_hp, c.hp + t.fast_healing)
                self._magical_healing(c)
        if c.hp < 0:
            self._dying(c)
            return
        if not c.is_able:
            held = c.conditions.get("held")
            if held and self.save(c, "will", held[1]["dc"], None).success:   # a new save each round
                self._drop_condition(c, "held")
                if self.lines is not None:
                    self.log(f"{c.name} breaks free of hold person")
            c.acted = True
            return
        if conditions and "stunned" in conditions:
            c.acted = True
            return
        if c.injuries:
            self._tough_through(c)
        single = c.single_action()           # disabled or staggered: a move or a standard action, not both
        if c.prone:                          # stand up (a move action): only a standard action is left
            c.prone = False
            if self.lines is not None:
                self.log(f"{c.name} stands up")
            if single:
                c.acted = True
                return
            full = False
        else:                                # melee creatures close in on the first round
            full = (self.round > 1 or c.ranged) and not single
        disabled = c.hp == 0
        try:
            policy = tactics.POLICIES[c.policy]
        except KeyError:
            policy = tactics.decide      # which names the unknown policy
        action = policy(self.view, c)
        kind = action.kind               # carry out the action (inlined here: one call fewer on every turn)
        target = action.target
        if target is not None and target.ranged and not self.view.reaches(c, target):
            target = self.pick_target(c)     # out of reach behind the melee (a user's policy may not know)
            if kind == "coup":
                kind = "attack"
        if kind == "coup" and not full:  # a coup de grace takes a full round: attack someone able instead
            target = self.pick_target(c)
            kind = "attack"
        strained = False
        if kind == "attack":
            if target is not None:
                if c.ranged:
                    self._attack_routine(c, target, t.ranged_full if full else t.ranged_standard, full)
                    strained = True
                else:
                    routine = t.full if full else t.standard
                    if not (c.weapon_lost and routine and routine[0].ranged):   # its only weapon is gone
                        self._attack_routine(c, target, routine, full)
                        strained = True
        elif kind == "cast":
            c.spend_slot(action.spell, action.level)
            if c.deaf and self.rand() < DEAF_SPELL_FAILURE:
                if self.lines is not None:
                    self.log(f"{c.name} is deafened: {action.spell} fails")
            else:
                spells.cast(self, c, action.spell, action.level, action.targets)
        elif kind == "breath":
            self._breath(c, action.targets)
        elif kind == "coup":
            self._coup_de_grace(c, target)
        if disabled and (strained or kind in ("cast", "breath", "coup")) and c.hp == 0 and not c.dead:
            self._strain(c)
        c.acted = True

    def _expire(self, now: float) -> None:
        """End every condition whose time has come (a stun that ends at the caster's turn ends for the attackers
        who act before its subject too)."""
        earliest = INFINITY
        for c in self.pcs + self.monsters:
            conditions = c.conditions
            if conditions and c.expires_at <= now:
                for name in [name for name, (ends, _) in conditions.items() if ends <= now]:
                    self._drop_condition(c, name)
                c.expires_at = min((ends for ends, _ in conditions.values()), default=INFINITY)
            if c.expires_at < earliest:
                earliest = c.expires_at
        self.next_expiry = earliest

    def _strain(self, c: Combatant) -> None:
        """A disabled creature's strenuous action costs it a hit point: it is dying."""
        c.hp -= STRAIN_DAMAGE
        c.stable = False
        self.refresh(c)
        foes = self.record.monsters if c.side == "pc" else self.record.party
        foes.downs += 1                  # it fell at last from the damage its enemies dealt
        if self.lines is not None:
            self.log(f"{c.name} strains its wounds: {c.hp} hp, dying")

    def _ranged(self, c: Combatant) -> bool:
        return c.ranged

    def _tough_through(self, c: Combatant) -> None:
        """Once per injured part, a free try to fight through the injury this turn: a Fortitude or Will save (the
        better one) against DC 10 + the greatest damage the part took. Monsters roll it even when players roll
        all the dice (the check is the creature's own, against no PC)."""
        kind = "fort" if c.t.saves["fort"] >= c.t.saves["will"] else "will"
        passed = []
        tally = c.tally
        for key, injury in list(c.injuries.items()):
            bonus = c.t.saves[kind] + c.save_bonus + self._penalty(c, kind)
            outcome = self.resolve(_new_check(Check, ("save", c.side, bonus, injury.dc, 0, 20, 2, c.side, False, False,
                                                      None, False, False, False)), c, None)
            tally.tough_through_saves += 1
            if outcome.success:
                tally.tough_through_passed += 1
                passed.append(key)
            if self.lines is not None:
                self.log(f"{c.name} toughs through its {injury.part} (DC {injury.dc}): natural {outcome.natural}, "
                         f"total {outcome.total} - {'passes' if outcome.success else 'fails'}")
        c.toughed = frozenset(passed)
        c.penalty_cache = {}

    def _magical_healing(self, c: Combatant) -> None:
        """Magical healing (fast healing and regeneration count) ends minor wounds; all wounds once no lethal
        damage is left."""
        if c.injuries:
            if c.hp >= c.max_hp:
                injuries.heal_all(c)
            else:
                injuries.heal_minor(c)
        self.refresh(c)

    def _dying(self, c: Combatant) -> None:
        if c.stable or c.dead:
            return
        if self.rand() < STABILISE_CHANCE:
            c.stable = True
            if self.lines is not None:
                self.log(f"{c.name} stabilises at {c.hp} hp")
            return
        c.hp -= 1
        if c.hp <= DEAD_AT:
            self._die(c)
        elif self.lines is not None:
            self.log(f"{c.name} is dying: {c.hp} hp")

    # ------------------------------------------------------------------ rolls
    def resolve(self, check: Check, actor: Combatant, opponent: Combatant | None):
        """Resolve a check made by ``actor`` (the standard-rules roller) against ``opponent``, deciding the
        roller's choices (pressing luck, a Luck reroll, auspicious odds) from who physically rolls."""
        plan = self.plans.get(check)
        if plan is None:
            plan = self.kernel.plan(check)
        roller = actor if plan.roller == actor.side or opponent is None else opponent
        auspicious = self.bell and "auspicious" in roller.conditions
        if not (auspicious or roller.t.luck_domain or self.press_luck_rules or check.press_luck):
            self.last_plan = plan
            return plan.resolve(self.rand)
        reroll = roller.t.luck_domain and not roller.luck_used and plan.roller_kind in LUCK_REROLL_ON
        press = roller.settings.press_luck
        if not self.press_luck_rules or check.kind == "initiative" or not roller.is_able \
                or (plan.roller_kind == "defense" and check.flat_footed):
            press = "never"
        if auspicious or reroll or press != "never":
            key = (auspicious, reroll, press, roller is actor)
            choices = plan.choices
            if choices is None:
                choices = plan.choices = {}
            final = choices.get(key)       # the roller's choices for this check, decided once per rule set
            if final is None:
                final = choices[key] = self._choose(check, auspicious, reroll, press, roller is actor)
            plan = final
        self.last_plan = plan
        """The plan of the last resolved check: what the rules used for that roll (lucky-hit chances)."""
        outcome = plan.resolve(self.rand)
        if outcome.rerolled:
            roller.luck_used = True
        if outcome.spell_ends:
            self._end_auspicious(roller)
        if outcome.pressed:
            tally = roller.tally
            tally.luck_pressed += 1
            tally.luck_pressed_successes += outcome.success == (roller is actor)
        return outcome

    def _choose(self, check: Check, auspicious: bool, reroll: bool, press: str, roller_is_actor: bool):
        """The plan the roller actually rolls: auspicious odds and the Luck reroll when it has them, and pressed
        luck always, or when the exact chance of success, from what the roller knows, is better pressed."""
        flags = {"auspicious": auspicious or check.auspicious, "luck_reroll": reroll or check.luck_reroll}
        static = check._replace(**flags)
        if press == "always" or (press == "when-better" and not check.press_luck and self._better(
                static._replace(press_luck=True), static, roller_is_actor)):
            static = static._replace(press_luck=True)
        return self.kernel.plan(static)

    def _better(self, pressed: Check, static: Check, roller_is_actor: bool) -> bool:
        p_pressed = self.kernel.plan(pressed._replace(hidden=0)).success_probability()
        p_static = self.kernel.plan(static._replace(hidden=0)).success_probability()
        if roller_is_actor:
            return p_pressed > p_static + CHANCE_SLACK      # strictly better: an exact tie is not worth pressing
        return p_pressed < p_static - CHANCE_SLACK

    def _end_auspicious(self, roller: Combatant) -> None:
        data = roller.conditions.get("auspicious")
        if data is None:
            return
        caster_uid = data[1].get("caster")
        roller.conditions.pop("auspicious")
        if caster_uid == roller.uid:                 # the caster's four 1s end it for everyone
            for c in self.pcs + self.monsters:
                if c.conditions.get("auspicious", (0, {}))[1].get("caster") == caster_uid:
                    del c.conditions["auspicious"]
        if self.lines is not None:
            self.log(f"{roller.name} rolls four 1s: auspicious odds ends")

    def save(self, target: Combatant, kind: str, dc: int, source: Combatant | None):
        """A saving throw by ``target`` (named from the saver: ``success`` = it saved)."""
        bonus = target.t.saves[kind] + target.save_bonus + self._penalty(target, kind)
        opponent_side = source.side if source is not None else tactics.FOE_SIDE[target.side]
        check = Check("save", target.side, bonus, dc, opponent=opponent_side)
        outcome = self.resolve(check, target, source)
        _count_roll(target.tally, outcome)
        self.record.item_damage_events += outcome.item_damage
        if self.lines is not None:
            self.log(f"{target.name} {kind} save DC {dc}: {_roll_text(outcome, self.last_plan)} - "
                     f"{'saved' if outcome.success else 'failed'}")
        return outcome

    def gets_through(self, caster: Combatant, target: Combatant) -> bool:
        """Spell resistance: does the spell get through?"""
        if not target.t.sr:
            return True
        check = Check("caster-level", caster.side, caster.t.caster_level, target.t.sr, opponent=target.side)
        outcome = self.resolve(check, caster, target)
        if self.lines is not None:
            self.log(f"{caster.name} against {target.name}'s SR {target.t.sr}: {_roll_text(outcome, self.last_plan)} - "
                     f"{'through' if outcome.success else 'resisted'}")
        return outcome.success

    def roll(self, text: str) -> int:
        return parse(text).roll(self.stream)

    def _penalty(self, creature: Combatant, roll: str, hands: tuple[int, ...] = ()) -> int:
        """Called-shot injury penalties on a roll (attack, ranged, fort, ref, will, str, dex), less any injury the
        creature toughs through this turn."""
        if not creature.injuries:
            return 0
        key = (roll, hands)
        value = creature.penalty_cache.get(key)
        if value is None:
            value = creature.penalty_cache[key] = injuries.penalty(creature, roll, hands, creature.toughed)
        return value

    # ------------------------------------------------------------------ attacks
    def can_target(self, creature: Combatant) -> bool:
        return creature.is_able

    def pick_target(self, c: Combatant, spell: bool = False):
        """A new target for ``c``'s attacks (those its weapons reach), or for its spell (anyone)."""
        return tactics.choose_target(self.view, c, self.view.enemies(c) if spell else None)

    def _attack_routine(self, c: Combatant, target: Combatant, routine, full: bool) -> None:
        rend = c.t.rend if full else None
        hits_by_name: dict[tuple[int, str], int] = {}     # (target, attack): rend needs both claws on one foe
        swing_at = self._swing
        for attack in routine:
            for swing, bonus in enumerate(attack.full_bonuses if full else attack.first_bonus):
                if not target.is_able:
                    target = self.pick_target(c)
                    if target is None:
                        return
                if swing_at(c, target, attack, bonus, swing) and rend:
                    key = (target.uid, attack.name)
                    hits_by_name[key] = hits_by_name.get(key, 0) + 1
        if rend and hits_by_name.get((target.uid, rend[1]), 0) >= rend[2] and not target.dead:
            amount = rend[0].roll(self.stream)
            if self.lines is not None:
                self.log(f"{c.name} rends {target.name}")
            claw = next(a for a in routine if a.name == rend[1])
            self.deal(c, target, amount, claw.types, claw.overcomes, weapon=True)

    def _swing(self, c: Combatant, target: Combatant, attack, bonus: int, swing: int = 0,
               provoked: bool = False) -> bool:
        """One attack roll and its damage. Returns whether it hit."""
        flat_footed = not target.acted
        helpless = not target.is_able
        stunned = not helpless and target.conditions and "stunned" in target.conditions
        if attack.touch:
            ac = target.t.touch_ac
        elif flat_footed or helpless or stunned:
            ac = target.t.ff_ac
        else:
            ac = target.t.ac
        ac += target.ac_bonus
        if helpless:
            if not attack.ranged:
                ac += HELPLESS_AC
        elif stunned:
            ac += STUNNED_AC
        mod = bonus + c.attack_bonus
        if c.injuries:
            mod += self._penalty(c, "ranged" if attack.ranged else "attack", cs.hands_used(attack.name, swing,
                                                                                            attack.count))
        if target.prone:
            ac += PRONE_MELEE if attack.ranged else -PRONE_MELEE
        if c.prone and not attack.ranged:
            mod -= PRONE_MELEE
        if attack.ranged and self._engaged(c):
            mod += SHOOTING_INTO_MELEE
        if target.blind:
            ac += BLIND_AC
        part = None
        if self.called_shots and not provoked:
            part = self._call_shot(c, target, attack, mod, ac, flat_footed)
        press = part is not None and self._may_press(c, target, flat_footed)
        check = _new_check(Check, ("attack", c.side, mod, ac, 0, attack.threat, attack.multiplier, target.side,
                                   False, flat_footed, None, press, False, False))
        outcome = self.resolve(check, c, target)
        plan = self.last_plan
        tally = c.tally
        tally.attacks += 1
        _count_roll(tally, outcome)
        if part is not None:
            tally.called_shots += 1
            c.called_this_round = True
        hit = outcome.success
        if hit and c.blind and self.rand() < BLIND_MISS_CHANCE:
            hit = False                      # blinded: the hit finds nothing
        if not hit:
            if self.lines is not None:
                self.log(f"{c.name} {attack.name} {mod:+d} vs {target.name} AC {ac}{_called(part)}: "
                         f"{_roll_text(outcome, plan)} - miss{' (FUMBLE)' if outcome.fumble else ''}")
            if outcome.fumble:
                self._fumble(c, target, attack)
            return False
        chance = _count_hit(tally, plan)
        critical = outcome.critical and "critical hits" not in target.t.immunities
        table = attack.damage_table
        amount = table[int(self.rand() * len(table))] if table is not None else attack.damage.roll(self.stream)
        if critical:
            tally.crits += 1
            for _ in range(attack.multiplier - 1):
                amount += attack.damage.roll(self.stream)
        if amount < 1:
            amount = 1
        if attack.sneak and self._sneak_applies(c, target, flat_footed or helpless or stunned):
            amount += attack.sneak.roll(self.stream)
        called_hit = part is not None and self._called_hit(plan, outcome, target, part, attack)
        if self.lines is not None:
            self.log(f"{c.name} {attack.name} {mod:+d} vs {target.name} AC {ac}{_called(part)}: "
                     f"{_roll_text(outcome, plan)} - {'CRITICAL ' if critical else ''}hit for {amount}"
                     f"{' - CALLED HIT' if called_hit else ''}")
        dealt = self.deal(c, target, amount, attack.types, attack.overcomes, weapon=True)
        if called_hit:
            self._called_effect(c, target, part, dealt, index=0 if part in cs.PER_INSTANCE else None)
        if attack.extra is not None:
            dealt += self.deal(c, target, attack.extra.roll(self.stream), frozenset({attack.extra_type}))
        if chance <= LUCKY_CHANCE + CHANCE_SLACK:
            tally.lucky_hits += 1
            tally.lucky_damage += dealt
        if attack.trip and target.is_able and not target.prone:
            self._trip(c, target, attack)
        return True

    # ------------------------------------------------------------------ called shots (seed 003)
    def _lethal_against(self, attack, target: Combatant) -> bool:
        """Would the attack deal lethal damage? (Not against regeneration it does not overcome.)"""
        return not target.t.regen or bool(attack.overcomes & target.t.regen_overcome)

    def _call_shot(self, c: Combatant, target: Combatant, attack, mod: int, ac: int, flat_footed: bool) -> str | None:
        """The part to call a shot at before this roll, if the rules, the policy and the attack allow one: once per
        round, on the caller's own turn, a non-touch attack that would deal lethal damage, at a part it has."""
        setting = c.settings.called_shot
        t = target.t
        if not self.called_shots or setting == "never" or c.called_this_round or attack.touch or not t.parts \
                or (t.regen and not attack.overcomes & t.regen_overcome):      # _lethal_against, inlined
            return None
        if setting == "head":
            return "head" if "head" in t.parts else None
        key = ("call", c.side, target.side, t.parts_key, mod, ac, attack.ranged, attack.threat, attack.multiplier,
               flat_footed)
        memo = self.kernel.memo
        part = memo.get(key, memo)
        if part is memo:
            part = memo[key] = self._best_part(c, target, attack, mod, ac, flat_footed)
        return part

    def _best_part(self, c: Combatant, target: Combatant, attack, mod: int, ac: int, flat_footed: bool) -> str | None:
        """``when-better``: the most valuable part whose exact called-hit chance is at least the floor (an ear,
        worth nothing in a fight, is never called)."""
        best, best_value = None, 0
        press = self._may_press(c, target, flat_footed)
        for part, (_count, bonus) in target.t.parts.items():
            value = cs.VALUE.get(part, 0)
            if value <= best_value:
                continue
            reach = 0 if attack.ranged else cs.MELEE_BONUS     # +2 against the improved AC, not on the dice
            p = self.kernel.plan(Check("attack", c.side, mod, ac + bonus - reach, 0, attack.threat,
                                       attack.multiplier, target.side, flat_footed=flat_footed,
                                       press_luck=press)).success_probability()
            if p >= cs.WHEN_BETTER_FLOOR - CHANCE_SLACK:
                best, best_value = part, value
        return best

    def _may_press(self, c: Combatant, target: Combatant, flat_footed: bool) -> bool:
        """A called shot presses luck, unless the roll is a flat-footed defense check (players roll all)."""
        return not (flat_footed and self.players_roll_all and c.side == "monster" and target.side == "pc")

    def _called_hit(self, plan, outcome, target: Combatant, part: str, attack) -> bool:
        """Did the roll beat the part's improved AC (with +2 for a melee attack within reach)? An automatic hit
        (natural 20, or 18 on 3d6; a defense check's natural 1) hits whatever AC the attack was aimed at."""
        if outcome.auto_success:
            return True
        extra = target.t.parts[part][1] - (0 if attack.ranged else cs.MELEE_BONUS)
        if plan.defends:      # the player rolled a defense check: the called hit needs it to fail by the bonus
            return outcome.total + extra < plan.target
        return outcome.total >= plan.target + extra

    def _called_effect(self, c: Combatant, target: Combatant, part: str, damage: int, index: int | None = None,
                       all_instances: bool = False) -> None:
        if damage <= 0 or target.dead:
            return
        tally = c.tally
        tally.called_hits += 1
        self.record.called_hits_by_part[part] = self.record.called_hits_by_part.get(part, 0) + 1
        hurt = injuries.injure(target, part, damage, index=index, all_instances=all_instances)
        if self.lines is not None:
            severe = " (severe)" if any(i.severe for i in hurt) else ""
            extra = " - blinded" if part == "eye" and target.blind else \
                " - deafened" if part == "ear" and target.deaf else ""
            self.log(f"{target.name}'s {part} is injured{severe}: penalties {_penalties(target)}{extra}")

    def _coup_de_grace(self, c: Combatant, target: Combatant) -> None:
        """A coup de grace against a helpless creature: an automatic critical hit, then a Fortitude save against
        DC 10 + the damage or die. Under called shots it includes a called shot at the head with no roll."""
        routine = c.t.full or c.t.standard
        if not routine or target.dead or "critical hits" in target.t.immunities:   # SRD: no coup de grace then
            return
        attack = routine[0]
        tally = c.tally
        tally.coups_de_grace += 1
        amount = sum(attack.damage.roll(self.stream) for _ in range(attack.multiplier))
        if attack.sneak and "sneak attack" not in target.t.immunities:
            amount += attack.sneak.roll(self.stream)
        if self.lines is not None:
            self.log(f"{c.name} delivers a coup de grace to {target.name} for {amount}")
        dealt = self.deal(c, target, max(1, amount), attack.types, attack.overcomes, weapon=True)
        if self.rules.called_shots and c.settings.called_shot != "never" and "head" in target.t.parts \
                and self._lethal_against(attack, target):
            tally.called_shots += 1
            self._called_effect(c, target, "head", dealt)
        # the death save only when the blow can kill (not a weapon that regeneration turns into nonlethal damage)
        if not target.dead and "fortitude effects" not in target.t.immunities and self._lethal_against(attack, target) \
                and not self.save(target, "fort", 10 + dealt, c).success:
            target.hp = min(target.hp, DEAD_AT)
            self._die(target)

    # ------------------------------------------------------------------ open-ended results (seed 002)
    def _fumble(self, c: Combatant, target: Combatant, attack) -> None:
        """A fumbled melee attack provokes an immediate attack of opportunity from its target; a fumbled ranged
        attack loses or breaks the weapon half the time."""
        tally = c.tally
        if attack.ranged:
            if self.rand() < FUMBLE_WEAPON_LOSS:
                self.lose_weapon(c)
                tally.weapons_lost += 1
                if self.lines is not None:
                    self.log(f"{c.name} loses its {attack.name}")
            return
        if not target.is_able or not c.is_able:
            return
        melee = target.t.full or target.t.standard
        if not melee or melee[0].ranged:
            return
        tally.aoo_provoked += 1
        if self.lines is not None:
            self.log(f"{c.name}'s fumble provokes an attack of opportunity from {target.name}")
        self._swing(target, c, melee[0], melee[0].bonuses[0], provoked=True)

    def _engaged(self, c: Combatant) -> bool:
        """An ally of ``c`` is in melee (some able ally does not prefer ranged attacks)."""
        return self.melee_count[c.side] - (c.is_able and not c.ranged) > 0

    def _sneak_applies(self, c: Combatant, target: Combatant, denied_dex: bool) -> bool:
        """Sneak attack: the target is denied its Dexterity bonus, or flanked (abstractly: another able ally of
        the rogue fights in melee). Creatures immune to critical hits or sneak attack take none."""
        if "sneak attack" in target.t.immunities or "critical hits" in target.t.immunities:
            return False
        return denied_dex or self._engaged(c)

    def _trip(self, c: Combatant, target: Combatant, attack) -> None:
        """A free trip attempt: opposed Strength checks (the attacker's trip modifier against the defender's best
        of Strength and Dexterity), each through the kernel."""
        defence = target.t.trip_defence
        mod = attack.trip_modifier if attack.trip_modifier is not None else c.t.str_mod
        if c.injuries:
            mod += self._penalty(c, "str")
        if target.injuries:
            defence += self._penalty(target, "dex")
        against = self.resolve(_new_check(Check, ("ability", target.side, defence, 0, 0, 20, 2, None, False, False,
                                                  None, False, False, False)), target, None).total
        if self.resolve(_new_check(Check, ("ability", c.side, mod, against + 1, 0, 20, 2, None, False, False, None,
                                           False, False, False)), c, None).success:
            target.prone = True
            if self.lines is not None:
                self.log(f"{c.name} trips {target.name}")

    def ray(self, caster: Combatant, target: Combatant, dice, types) -> None:
        """A ray: a ranged touch attack (threat 20, x2), damage on a hit."""
        mod = caster.t.ray_bonus + caster.attack_bonus + self._penalty(caster, "ranged", (0,))
        if self._engaged(caster):
            mod += SHOOTING_INTO_MELEE
        ac = target.t.touch_ac + target.ac_bonus
        check = Check("attack", caster.side, mod, ac, 0, 20, 2, target.side, flat_footed=not target.acted)
        outcome = self.resolve(check, caster, target)
        plan = self.last_plan
        tally = caster.tally
        tally.attacks += 1
        _count_roll(tally, outcome)
        if not outcome.success:
            if self.lines is not None:
                self.log(f"{caster.name} ray {mod:+d} vs {target.name} touch AC {ac}: {_roll_text(outcome, plan)} - "
                         f"miss{' (FUMBLE)' if outcome.fumble else ''}")
            return
        chance = _count_hit(tally, plan)
        critical = outcome.critical and "critical hits" not in target.t.immunities
        amount = dice.roll(self.stream)
        if critical:
            amount += dice.roll(self.stream)
            tally.crits += 1
        if self.lines is not None:
            self.log(f"{caster.name} ray {mod:+d} vs {target.name} touch AC {ac}: {_roll_text(outcome, plan)} - "
                     f"{'CRITICAL ' if critical else ''}hit for {amount}")
        dealt = self.deal(caster, target, amount, types)
        if chance <= LUCKY_CHANCE + CHANCE_SLACK:
            tally.lucky_hits += 1
            tally.lucky_damage += dealt

    def area_damage(self, caster: Combatant, target: Combatant, dice, types, save: str, dc: int,
                    half_divine: bool = False) -> None:
        """Area damage with a save for half; open-ended saves: a critical success takes none, a fumble the
        maximum."""
        outcome = self.save(target, save, dc, caster)
        amount = dice.maximum if outcome.fumble else dice.roll(self.stream)
        self._save_extremes(target, outcome)
        if outcome.critical_success:
            amount = 0
        elif outcome.success:
            amount //= 2
        if half_divine:
            self.deal(caster, target, amount - amount // 2, types)
            self.deal(caster, target, amount // 2, spells.DIVINE)
        else:
            self.deal(caster, target, amount, types)

    def _save_extremes(self, target: Combatant, outcome) -> None:
        """Seed 002: a critical success on a save against half damage takes none; a fumble takes the maximum."""
        tally = target.tally
        tally.saves_negated += outcome.critical_success
        tally.saves_maximised += outcome.fumble

    def _breath(self, c: Combatant, targets: list[Combatant]) -> None:
        breath = c.t.breath
        dice = parse(breath.damage)
        c.breath_ready_at = self.instant + parse(breath.recharge).roll(self.stream) * ROUND
        if self.lines is not None:
            self.log(f"{c.name} breathes {breath.damage_type} on {', '.join(t.name for t in targets)}")
        amount = dice.roll(self.stream)
        for target in targets:
            outcome = self.save(target, breath.save, breath.dc, c)
            self._save_extremes(target, outcome)
            dealt = dice.maximum if outcome.fumble else amount
            if outcome.critical_success:
                dealt = 0
            elif outcome.success and breath.half_on_save:
                dealt //= 2
            self.deal(c, target, dealt, frozenset({breath.damage_type}))

    # ------------------------------------------------------------------ damage and healing
    def deal(self, source: Combatant, target: Combatant, amount: int, types: frozenset,
             overcomes: frozenset = frozenset(), weapon: bool = False) -> int:
        """Apply damage: immunity, energy resistance and vulnerability, damage reduction (weapons only),
        temporary hit points, regeneration (nonlethal unless a type that overcomes it), states."""
        t = target.t
        if amount <= 0 or target.dead:
            return 0
        if not t.plain_defences:
            if types and types <= t.immunities:
                amount = 0
            elif len(types) == 1:
                (kind,) = types
                amount -= t.resist.get(kind, 0)
                if kind in t.vulnerabilities:
                    amount += amount // 2
            if weapon and t.dr_amount and types <= PHYSICAL and not (overcomes & t.dr_overcome):
                amount -= t.dr_amount
            if amount <= 0:
                if self.lines is not None:
                    self.log(f"{target.name} takes no damage ({_kinds(types)})")
                return 0
        if target.temp_hp:
            soaked = min(target.temp_hp, amount)
            target.temp_hp -= soaked
            amount -= soaked
        was_able = target.is_able
        lethal = not t.regen or bool((types | overcomes) & t.regen_overcome)
        if lethal:
            target.hp -= amount
        else:
            target.nonlethal += amount
        source.damage_dealt += amount
        source.tally.damage += amount
        if self.lines is not None:
            self.log(f"{target.name} takes {amount} {'' if lethal else 'nonlethal '}{_kinds(types)} damage "
                     f"({target.hp}/{t.max_hp} hp{f', {target.nonlethal} nonlethal' if target.nonlethal else ''})")
        if "sonic" in types and self.called_shots and "ear" in t.parts \
                and amount >= cs.SONIC_EARS_FACTOR * t.first_hit_die:
            self._called_effect(source, target, "ear", amount, all_instances=True)
        woke = target.conditions and "asleep" in target.conditions
        if woke:                                  # damage wakes a sleeper
            del target.conditions["asleep"]
        if lethal and amount >= MASSIVE_DAMAGE and target.hp > DEAD_AT and "fortitude effects" not in t.immunities \
                and not self.save(target, "fort", MASSIVE_DAMAGE_DC, source).success:
            target.hp = DEAD_AT
        if target.hp <= DEAD_AT or (target.hp <= 0 and (t.type in ("undead", "construct") or
                                                          (self.die_at_zero and target.side == "monster"))):
            self._die(target)
        elif target.hp < 0:
            target.stable = False
        if woke or target.hp <= 0 or target.nonlethal > target.hp:    # otherwise nothing that decides it changed
            self.refresh(target)
        if was_able and not target.is_able:
            source.tally.downs += 1
            if self.lines is not None and not target.dead:
                self.log(f"{target.name} drops ({target.state()})")
        return amount

    def _die(self, c: Combatant) -> None:
        c.dead = True
        self.refresh(c)
        if self.lines is not None:
            self.log(f"{c.name} dies")

    def heal(self, target: Combatant, amount: int) -> None:
        if target.dead:
            return
        target.hp = min(target.max_hp, target.hp + amount)
        target.nonlethal = max(0, target.nonlethal - amount)
        # SRD 3.5: healing a dying character of even 1 point stops the loss of hit points: it becomes stable.
        target.stable = target.hp < 0
        self._magical_healing(target)
        if self.lines is not None:
            self.log(f"{target.name} heals {amount} ({target.hp}/{target.max_hp})")

    def _drop_condition(self, c: Combatant, name: str) -> None:
        del c.conditions[name]
        self.refresh(c)
        if name == "bless":
            c.attack_bonus = 0
        elif name == "shield of faith":
            c.ac_bonus = 0

    def add_condition(self, target: Combatant, name: str, seconds: float, **data) -> None:
        ends = self.instant + seconds
        target.conditions[name] = [ends, data]
        if ends < target.expires_at:
            target.expires_at = ends
        if ends < self.next_expiry:
            self.next_expiry = ends
        self.refresh(target)
        if name == "bless":
            target.attack_bonus = max(target.attack_bonus, 1)
        elif name == "shield of faith":
            target.ac_bonus = max(target.ac_bonus, data["bonus"])
        if self.lines is not None:
            self.log(f"{target.name}: {name} for {int(seconds // ROUND)} rounds")

    def note_cast(self, caster: Combatant, spell: str, targets: list) -> None:
        caster.tally.spells_cast += 1
        if self.lines is not None:
            self.log(f"{caster.name} casts {spell} on {', '.join(t.name for t in targets)}")

    # ------------------------------------------------------------------ the end
    def _finish(self) -> None:
        r = self.record
        party_able, monsters_able = self.able_count["pc"] > 0, self.able_count["monster"] > 0
        r.winner = "party" if party_able and not monsters_able else \
            "monsters" if monsters_able and not party_able else "draw"      # both able: the round cap
        r.rounds = self.round
        total = left = injured = 0
        for c in self.pcs:
            total += c.t.max_hp
            injured += len(c.injuries)
            if c.dead:
                r.pcs_dead += 1
            else:
                left += max(0, c.hp)
                r.pcs_down += not c.is_able
        r.party_hp_lost = (total - left) / total if total else 0.0
        for c in self.monsters:
            injured += len(c.injuries)
            if c.dead:
                r.monsters_killed += 1
            else:
                r.monsters_down += not c.is_able
        r.penalties_at_end = injured
        if self.lines is not None:
            self.lines.append(f"=== {r.winner} after {r.rounds} rounds ===")
            for c in self.pcs + self.monsters:
                self.lines.append(f"{c.name}: {c.hp}/{c.max_hp} hp, {c.state()}")


def _count_roll(tally, outcome) -> None:
    """Count a roll's extremes: automatic success or failure, critical success or fumble (each pair exclusive)."""
    if outcome.auto_success:
        tally.auto_successes += 1
    elif outcome.auto_failure:
        tally.auto_failures += 1
    if outcome.critical_success:
        tally.critical_successes += 1
    elif outcome.fumble:
        tally.fumbles += 1


def _count_hit(tally, plan) -> float:
    """Count a hit in the histogram of hits by exact chance (tenths); returns the chance (lucky hits)."""
    tally.hits += 1
    chance = plan.p_success
    if chance is None:
        chance = plan.success_probability()
    tenth = int(chance * 10 + CHANCE_SLACK)
    tally.hist[tenth if tenth < 10 else 9] += 1
    return chance


_new_check = tuple.__new__
"""Builds a Check from a full tuple of its fields without the namedtuple's Python-level constructor (hot loop)."""


def _roll_text(outcome, plan) -> str:
    """How a roll reads in the log; under players roll all, the player's defense or magic check and its score."""
    if outcome.roller != plan.roller or plan.flip:
        name = {"defense": "defense check", "magic": "magic check", "spell-resistance": "SR check"}[plan.roller_kind]
        return f"player's {name} natural {outcome.natural}, total {outcome.total} vs score {plan.target}"
    return f"natural {outcome.natural}, total {outcome.total}"


def _kinds(types: frozenset) -> str:
    return "/".join(sorted(types)) or "untyped"


def _called(part: str | None) -> str:
    return f" (called shot: {part})" if part else ""


def _penalties(c: Combatant) -> str:
    parts = sorted({i.part + ("*" if i.severe else "") for i in c.injuries.values()})
    return ", ".join(parts) or "none"
