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

from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.tactics.view import resolve_coup_style
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
            resolve_coup_style(new, f.model.coup_de_grace)  # its own Intelligence, its summoner's tactics
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
