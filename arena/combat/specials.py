"""Monsters' special abilities, second part: the creatures that join a fight at the end of a round (summoned, or an
ooze's split halves) and a grapple's turn. What a creature does with its turn instead of its attacks (summoning, a
whirlwind, crush, roar, smite ...), as a free action at the start of each of its turns (smoke, entangling plants,
eye rays, a captivating song kept up) and with its presence (frightful presence, stench, auras) is each its own
module of :mod:`arena.abilities`.
:mod:`arena.abilities`.

Every save and attack roll goes through the kernel (``f.save``, ``f.resolve``), so every dice variant applies.

What is abstract (the arena has no grid): which foes an area catches is the spells' count for an area of that size
(:func:`arena.world.spellbook.area_count`). A summoned creature is a fresh combatant of the bestiary's stat block on
the summoner's side: it joins at the end of the round and acts right after its summoner from the next round on.
Per-fight state (uses, who saved, a ray's next round) is kept in ``Combatant.specials``.
"""

from __future__ import annotations

from arena.combat.abilities import opposed, paralyze, release, state_of
from arena.combat.attacks import swing_at
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, lose_ability
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.limits import MAX_COMBATANTS


# --------------------------------------------------------------------------------------------- joining
def join(f: FightState, order: list[Combatant]) -> None:
    """At the end of a round the creatures summoned in it join their summoner's side, each placed right after its
    summoner in the initiative order (its turn at the summoner's instant). They are not flat-footed. No more join
    than :data:`~arena.limits.MAX_COMBATANTS` allows, counting everyone who has been in the fight."""
    record = f.record
    room = MAX_COMBATANTS - len(f.pcs) - len(f.monsters)
    for summoner, template, count, *hp in f.joining or ():
        if count > room:  # the limit of one fight holds for summoned and split creatures too
            if f.lines is not None:
                f.log(
                    f"{count - room} of {template.name} cannot join: a fight holds at most {MAX_COMBATANTS} creatures",
                    actor=summoner.name,
                    action="joins",
                    source=summoner.name,
                    count=count - room,
                    result="over the limit",
                )
            count = room
            if not count:
                continue
        room -= count
        own, foes = (f.monsters, f.pcs) if summoner.side == "monster" else (f.pcs, f.monsters)
        tally = record.monsters if summoner.side == "monster" else record.party
        place = order.index(summoner) + 1
        for k in range(count):
            uid = len(f.pcs) + len(f.monsters)
            new = Combatant(template, uid, summoner.settings, foes, own, tally)
            new.name = f"{template.name} {k + 1} ({summoner.name}'s)"
            new.offset = summoner.offset
            new.acted = True
            if hp:  # a split ooze: half the hit points, and no name of a summoning
                new.hp = hp[0]
                new.name = f"{summoner.name} (split {uid})"
            own.append(new)
            order.insert(place + k, new)
            f.able_count[new.side] += 1
            f.melee_count[new.side] += not new.ranged
        if f.lines is not None:
            f.log(
                f"{new.name} joins the fight"
                if hp
                else f"{count} {template.name} join the fight, summoned by {summoner.name}",
                actor=new.name if hp else template.name,
                action="joins",
                source=summoner.name,
                count=1 if hp else count,
            )
    f.joining = None


# --------------------------------------------------------------------------------------------- a grapple's turn
def grip_turn(f: FightState, c: Combatant) -> bool:
    """The turn of a creature in a grapple: the holder keeps its hold (:func:`holding_turn`), the held one tries
    to escape (:func:`escape_turn`). Returns True when the grapple took the turn."""
    holds, other = c.grip
    grip_turn = (c if holds else other).t.grip_turn_hook
    if grip_turn is not None:  # the holder's ability that started the grapple
        return grip_turn(f, c)
    if other.dead or (not other.is_able and "swallowed" not in other.conditions):
        release(c)
        return False
    return holding_turn(f, c, other) if holds else escape_turn(f, c, other)


def holding_turn(f: FightState, c: Combatant, target: Combatant) -> bool:
    """A grappler's turn: a won opposed grapple check deals the grabbing attack's damage, plus constrict's."""
    t = c.t
    if "swallowed" in target.conditions:  # inside it: digested, no check needed
        dice, types = t.swallow
        deal(f, c, target, dice.roll(f.stream), types)
        if (
            t.paralysis is not None
            and t.paralysis.on == "swallowed"
            and not target.dead
            and "paralyzed" not in target.conditions
        ):
            paralyze(f, c, target, t.paralysis)  # the tendriculos's digestive juices: a save each round
        return True
    if t.paralysis is not None and t.paralysis.on == "held" and "paralyzed" not in target.conditions:
        paralyze(f, c, target, t.paralysis)  # the chuul's tentacles: a save on each of its turns
    grab = t.creature.improved_grab
    if not grab.hold_check or opposed(f, c, t.grapple, target, target.t.grapple):
        if grab.drain is not None:  # blood drain: ability damage each turn it holds on
            drained = state_of(c)
            drained["drained"] = drained.get("drained", 0) + lose_ability(f, target, grab.drain, c)
            if grab.drain_limit is not None and drained["drained"] >= grab.drain_limit:
                release(c)  # sated, it flies off to digest (out of the fight)
                add_condition(f, c, "panicked", FOREVER)
                if f.lines is not None:
                    f.log(f"{c.name} is sated and flies off", actor=c.name, action="sated")
                return True
            if target.dead:
                return True
        if t.swallow is not None:  # swallow whole: a won check swallows the held foe
            add_condition(f, target, "swallowed", FOREVER)
            if f.lines is not None:
                f.log(f"{c.name} swallows {target.name} whole", actor=c.name, action="swallow", target=target.name)
            return True
        attack = t.grab[1]
        if not attack.harmless:  # a stirge's touch deals none: only its drain
            amount = max(1, attack.damage.roll(f.stream))
            if f.lines is not None:
                f.log(
                    f"{c.name} crushes {target.name} in its grip for {amount}",
                    actor=c.name,
                    action="grip-damage",
                    target=target.name,
                    damage=amount,
                )
            deal(f, c, target, amount, attack.types, attack.overcomes, weapon=True)
        constrict = t.grab[2]
        if constrict is not None and not target.dead:
            if f.lines is not None:
                f.log(f"{c.name} constricts {target.name}", actor=c.name, action="constrict", target=target.name)
            deal(f, c, target, constrict.roll(f.stream), attack.types, attack.overcomes, weapon=True)
        if t.rake is not None and not target.dead:  # rake: its hind claws at the held foe
            for bonus in t.rake.full_bonuses:
                if target.dead:
                    break
                swing_at(f, c, target, t.rake, bonus)
    elif f.lines is not None:
        f.log(
            f"{c.name} fails to keep damaging {target.name} in its hold",
            actor=c.name,
            action="grip-damage",
            target=target.name,
            result="failed",
        )
    return True


def escape_turn(f: FightState, c: Combatant, holder: Combatant) -> bool:
    """A held creature's turn: it tries to escape (an opposed grapple check against its holder); a mimic's adhesive
    holds it while the mimic lives ("Opponents so grappled cannot get free while the mimic is alive")."""
    if not holder.t.creature.improved_grab.automatic and opposed(f, c, c.t.grapple, holder, holder.t.grapple):
        release(holder)
        if f.lines is not None:
            f.log(
                f"{c.name} escapes {holder.name}'s grip",
                actor=c.name,
                action="escape",
                target=holder.name,
                result="free",
            )
    elif f.lines is not None:
        f.log(
            f"{c.name} struggles in {holder.name}'s grip",
            actor=c.name,
            action="escape",
            target=holder.name,
            result="held",
        )
    return True
