"""States: whether a creature can act, and its hit-point states (disabled, dying, stable, dead) and healing.

Owns the able and melee counts that end a fight (:func:`refresh` after anything changes a creature), losing a
ranged weapon, death, the dying creature's round, a disabled creature's strain, healing (magical healing ends
called-shot wounds) and the healing a creature does itself (regeneration, fast healing). Calls no other part; the
functions take the fight first (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat import injuries
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState

STABILISE_CHANCE = 0.10
"""SRD 3.5: each round a dying character has a 10% chance to become stable; otherwise it loses 1 hit point."""
DEAD_AT = -10
"""SRD 3.5: dead at -10 hit points."""
STRAIN_DAMAGE = 1
"""SRD 3.5: a disabled creature that takes a strenuous standard action (attacking, casting) takes 1 damage after
it, unless the action raised its hit points: it falls to -1, dying."""


def refresh(f: FightState, c: Combatant) -> None:
    """Keep ``c.is_able`` and the able counts current after anything changed ``c``'s state."""
    now = c.able()
    if now != c.is_able:
        c.is_able = now
        change = 1 if now else -1
        able = f.able_count
        able[c.side] += change
        if not able[c.side]:
            if f.side_out is None:
                f.side_out = c.side  # its side is out first: the other has won
        elif f.side_out == c.side:
            f.side_out = None  # back in the fight (healed, a condition ended) before the fight ended
        if not c.ranged:
            f.melee_count[c.side] += change
        if not now:
            c.downs += 1  # it went down (the per-combatant rows)
        if not now and c.melee_target is not None:  # it threatens no one now (flanking)
            c.melee_target.melee_attackers -= 1
            c.melee_target = None
        if not now and c.grip is not None and "swallowed" not in c.conditions:  # nor holds, nor is held
            other = c.grip[1]
            if other.grip is not None and other.grip[1] is c:
                other.grip = None
            c.grip = None
            if other.conditions.pop("swallowed", None) is not None:  # its meal is free again
                refresh(f, other)


def lose_weapon(f: FightState, c: Combatant) -> None:
    """A fumble lost or broke ``c``'s ranged weapon: from now on it fights in melee."""
    c.weapon_lost = True
    if c.ranged:
        c.ranged = False
        if c.is_able:
            f.melee_count[c.side] += 1


DEATH_DAMAGE, DEATH_MASSIVE, DEATH_COUP_DE_GRACE, DEATH_SAVE, DEATH_DRAIN = 1, 2, 3, 4, 5
"""What killed a creature (``Combatant.death_cause``; 0 while it lives): ordinary damage (hit points to -10,
bleeding out included), massive damage (the DC 15 Fortitude save at 50 or more points failed), a coup de grace
(its blow or its DC 10 + damage Fortitude save), a save-or-die effect (a death gaze, a sea hag's fright), or
ability drain or damage to 0 and energy drain (Constitution 0, as many negative levels as Hit Dice)."""
DEATH_CAUSES = ("damage", "massive", "cdg", "save", "drain")
"""The causes' names, by code - 1: the record's ``pc_deaths_<name>`` columns."""


def die(f: FightState, c: Combatant, cause: int = DEATH_DAMAGE) -> None:
    c.dead = True
    c.death_cause = cause
    refresh(f, c)
    if f.lines is not None:
        f.log(f"{c.name} dies", actor=c.name, action="dies", hp=c.hp)


def dying(f: FightState, c: Combatant) -> None:
    """A dying creature's turn: it stabilises (10%) or loses a hit point."""
    if c.stable or c.dead:
        return
    if f.rand() < STABILISE_CHANCE:
        c.stable = True
        if f.lines is not None:
            f.log(f"{c.name} stabilises at {c.hp} hp", actor=c.name, action="stabilises", hp=c.hp)
        return
    c.hp -= 1
    if c.hp <= DEAD_AT:
        die(f, c)
    elif f.lines is not None:
        f.log(f"{c.name} is dying: {c.hp} hp", actor=c.name, action="dying", hp=c.hp)


def strain(f: FightState, c: Combatant) -> None:
    """A disabled creature's strenuous action costs it a hit point: it is dying."""
    c.hp -= STRAIN_DAMAGE
    c.stable = False
    refresh(f, c)
    foes = f.record.monsters if c.side == "pc" else f.record.party
    foes.downs += 1  # it fell at last from the damage its enemies dealt
    if f.lines is not None:
        f.log(f"{c.name} strains its wounds: {c.hp} hp, dying", actor=c.name, action="strain", hp=c.hp)


def heal(f: FightState, target: Combatant, amount: int) -> None:
    if target.dead:
        return
    target.hp = min(target.max_hp, target.hp + amount)
    target.nonlethal = max(0, target.nonlethal - amount)
    # SRD 3.5: healing a dying character of even 1 point stops the loss of hit points: it becomes stable.
    target.stable = target.hp < 0
    magical_healing(f, target)
    if f.lines is not None:
        f.log(
            f"{target.name} heals {amount} ({target.hp}/{target.max_hp})",
            actor=target.name,
            action="healed",
            healing=amount,
            hp=target.hp,
        )


def heal_itself(f: FightState, c: Combatant) -> None:
    """At the start of its turn, regeneration heals nonlethal damage and fast healing heals hit points."""
    t = c.t
    if t.regen and c.nonlethal:
        c.nonlethal = max(0, c.nonlethal - t.regen)
        magical_healing(f, c)
    if t.fast_healing and c.hp < c.max_hp and not c.dead:
        c.hp = min(c.max_hp, c.hp + t.fast_healing)
        magical_healing(f, c)


def magical_healing(f: FightState, c: Combatant) -> None:
    """Magical healing (fast healing and regeneration count) ends minor wounds; all wounds once no lethal
    damage is left."""
    if c.injuries:
        if c.hp >= c.max_hp:
            injuries.heal_all(c)
        else:
            injuries.heal_minor(c)
    refresh(f, c)
