"""Monsters' special abilities: improved grab and the grapple it starts (with constrict), paralysis, poison,
ability damage and energy drain on a hit, frightful presence (the ability loss itself, and what it does to a
creature's numbers, is in :mod:`arena.combat.conditions`). Pounce and ferocity are one-line changes to a turn and
to being able: they live in the engine and in :meth:`Combatant.able`.

Every roll goes through the kernel like any other (``f.resolve`` and ``f.save``), so each variant applies: under
players roll all, a monster's paralysis DC becomes the player's save, its grapple check stays an opposed check.

Grappling is abstract (no grid, no pinning): a creature that wins the free grapple check of improved grab holds its
foe; on each of its later turns, while both can act, it makes an opposed grapple check and on a win deals the
grabbing attack's damage (plus constrict's); it makes no other attack while it holds. The held foe spends its turn
trying to escape (an opposed grapple check). Either one dropping ends the hold. Functions take the fight first and
call the parts below them (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, drain_levels, lose_ability
from arena.combat.damage import deal
from arena.combat.rolls import save
from arena.combat.spells import ROUND
from arena.combat.states import DEAD_AT, die
from arena.dice import parse
from arena.rules import Check
from arena.world.stat_types import SIZES

MAX_TIE_ROLLS = 50
"""Opposed checks tied with equal modifiers roll again, at most this many times."""
FIRE = frozenset({"fire"})
GAZE_IMMUNITY = {"petrify": "petrification", "paralysis": "paralysis", "death": "death effects",
                 "fear": "mind-affecting"}
"""The immunity that stops each gaze effect."""
POISON_SECONDARY_ROUNDS = 10
"""SRD 3.5 poison: the secondary damage comes 1 minute after the initial damage."""
PANIC_HD = 4
"""SRD 3.5 frightful presence: a creature of 4 Hit Dice or fewer is panicked, one of more is shaken."""


def opposed(f, a: Combatant, a_mod: int, b: Combatant, b_mod: int) -> bool:
    """An opposed check (grapple): does ``a`` win? The higher total wins; a tie goes to the higher modifier, equal
    modifiers roll again (SRD 3.5). Each side's roll is an ability-type check through the kernel."""
    for _ in range(MAX_TIE_ROLLS):
        theirs = f.resolve(Check("ability", b.side, b_mod + b.save_bonus, 0, opponent=b.side), b, None).total
        mine = f.resolve(Check("ability", a.side, a_mod + a.save_bonus, 0, opponent=a.side), a, None).total
        if mine != theirs:
            return mine > theirs
        if a_mod != b_mod:
            return a_mod > b_mod
    return False


def after_hit(f, c: Combatant, target: Combatant, attack, dealt: int) -> None:
    """What a hit with ``attack`` does besides its damage: improved grab starts a grapple, paralysis."""
    t = c.t
    if t.grab is not None and attack.name == t.grab[0] and c.grip is None and target.grip is None \
            and target.is_able and not target.dead and _can_grab(c, target) \
            and opposed(f, c, t.grapple, target, target.t.grapple):
        c.grip, target.grip = (True, target), (False, c)
        c.afflicted = target.afflicted = True
        if f.lines is not None:
            f.log(f"{c.name} grabs {target.name} (improved grab)")
    paralysis = t.paralysis
    if paralysis is not None and attack.name == paralysis.attack and target.is_able and not target.dead \
            and "paralysis" not in target.t.immunities and target.t.type not in paralysis.immune_types \
            and not save(f, target, "fort", paralysis.dc, c).success:
        add_condition(f, target, "paralyzed", parse(paralysis.duration).roll(f.stream) * ROUND)
        if f.lines is not None:
            f.log(f"{target.name} is paralyzed")


    poison = t.poison
    if poison is not None and attack.name == poison.attack and not target.dead \
            and "poison" not in target.t.immunities and not save(f, target, poison.save, poison.dc, c).success:
        lose_ability(f, target, poison.initial, c)
        if poison.secondary is not None and not target.dead:
            add_condition(f, target, "poisoned", POISON_SECONDARY_ROUNDS * ROUND, poison=poison)
    harm = t.ability_damage
    if harm is not None and attack.name == harm.attack and not target.dead \
            and (harm.dc is None or not save(f, target, harm.save, harm.dc, c).success):
        lose_ability(f, target, harm.loss, c)
    drain = t.energy_drain
    if drain is not None and attack.name == drain.attack and not target.dead:
        drain_levels(f, target, drain.levels)
    burn = t.burn
    if burn is not None and attack.name == burn.attack and not target.dead and target.burning is None \
            and "fire" not in target.t.immunities and not save(f, target, "ref", burn.dc, c).success:
        target.burning = [parse(burn.rounds).roll(f.stream), parse(burn.damage), c]
        target.afflicted = True
        if f.lines is not None:
            f.log(f"{target.name} catches fire")


def burn_turn(f, c: Combatant) -> None:
    """A burning creature takes the fire's damage at the start of its turn, until the fire burns out."""
    rounds, dice, source = c.burning
    deal(f, source, c, dice.roll(f.stream), FIRE)
    c.burning = [rounds - 1, dice, source] if rounds > 1 else None


def gaze(f, c: Combatant) -> None:
    """A gaze attack at the start of the creature's turn: each able foe saves or suffers its effect."""
    g = c.t.gaze
    for foe in list(c.foes):
        if not foe.is_able or foe.dead or GAZE_IMMUNITY[g.effect] in foe.t.immunities:
            continue
        if save(f, foe, g.save, g.dc, c).success:
            continue
        if f.lines is not None:
            f.log(f"{foe.name} meets {c.name}'s gaze: {g.effect}")
        if g.effect == "death":
            foe.hp = min(foe.hp, DEAD_AT)
            die(f, foe)
        elif g.effect == "petrify":
            add_condition(f, foe, "petrified", FOREVER)
        elif g.effect == "paralysis":
            add_condition(f, foe, "paralyzed", parse(g.rounds).roll(f.stream) * ROUND)
        else:
            add_condition(f, foe, "panicked", parse(g.rounds).roll(f.stream) * ROUND)


def _can_grab(c: Combatant, target: Combatant) -> bool:
    """SRD 3.5: improved grab works only against opponents at least one size category smaller, unless noted."""
    return SIZES.index(target.t.creature.size) < SIZES.index(c.t.creature.size)


def grip_turn(f, c: Combatant) -> bool:
    """The turn of a creature in a grapple: the holder keeps its hold (:func:`holding_turn`), the held one tries
    to escape (:func:`escape_turn`). Returns True when the grapple took the turn."""
    holds, other = c.grip
    if other.dead or (not other.is_able and "swallowed" not in other.conditions):
        release(c)
        return False
    return holding_turn(f, c, other) if holds else escape_turn(f, c, other)


def holding_turn(f, c: Combatant, target: Combatant) -> bool:
    """A grappler's turn: a won opposed grapple check deals the grabbing attack's damage, plus constrict's."""
    t = c.t
    if "swallowed" in target.conditions:      # inside it: digested, no check needed
        dice, types = t.swallow
        deal(f, c, target, dice.roll(f.stream), types)
        return True
    if opposed(f, c, t.grapple, target, target.t.grapple):
        if t.swallow is not None:             # swallow whole: a won check swallows the held foe
            add_condition(f, target, "swallowed", FOREVER)
            if f.lines is not None:
                f.log(f"{c.name} swallows {target.name} whole")
            return True
        attack = t.grab[1]
        amount = max(1, attack.damage.roll(f.stream))
        if f.lines is not None:
            f.log(f"{c.name} crushes {target.name} in its grip for {amount}")
        deal(f, c, target, amount, attack.types, attack.overcomes, weapon=True)
        constrict = t.grab[2]
        if constrict is not None and not target.dead:
            if f.lines is not None:
                f.log(f"{c.name} constricts {target.name}")
            deal(f, c, target, constrict.roll(f.stream), attack.types, attack.overcomes, weapon=True)
        if t.rake is not None and not target.dead:     # rake: its hind claws at the held foe
            for bonus in t.rake.full_bonuses:
                if target.dead:
                    break
                f._swing(c, target, t.rake, bonus)
    elif f.lines is not None:
        f.log(f"{c.name} fails to keep damaging {target.name} in its hold")
    return True


def escape_turn(f, c: Combatant, holder: Combatant) -> bool:
    """A held creature's turn: it tries to escape (an opposed grapple check against its holder)."""
    if opposed(f, c, c.t.grapple, holder, holder.t.grapple):
        release(holder)
        if f.lines is not None:
            f.log(f"{c.name} escapes {holder.name}'s grip")
    elif f.lines is not None:
        f.log(f"{c.name} struggles in {holder.name}'s grip")
    return True


def release(c: Combatant) -> None:
    """End the grapple ``c`` is in, for both creatures."""
    if c.grip is not None:
        other = c.grip[1]
        if other.grip is not None and other.grip[1] is c:
            other.grip = None
        c.grip = None


def presence(f, c: Combatant) -> None:
    """What the creature's presence does on its first action: frightful presence, stench."""
    if c.t.fear:
        frighten(f, c)
    if c.t.stench is not None:
        stink(f, c)
    c.frightened = True


def stink(f, c: Combatant) -> None:
    """Stench: every living foe saves (Fortitude) or is sickened for the stated rounds (SRD 3.5 troglodyte)."""
    stench = c.t.stench
    for foe in list(c.foes):
        if foe.dead or not foe.is_able or foe.t.type in ("undead", "construct") or "poison" in foe.t.immunities:
            continue
        if not save(f, foe, "fort", stench.dc, c).success:
            add_condition(f, foe, "sickened", parse(stench.rounds).roll(f.stream) * ROUND)


def trample(f, c: Combatant, targets: list[Combatant]) -> None:
    """Trample: each creature run over takes the damage, Reflex for half (one damage roll, as a breath)."""
    t = c.t.trample
    dice = parse(t.damage)
    amount = dice.roll(f.stream)
    types = frozenset(t.damage_types)
    if f.lines is not None:
        f.log(f"{c.name} tramples {', '.join(x.name for x in targets)}")
    for target in targets:
        if target.dead:
            continue
        saved = save(f, target, "ref", t.dc, c).success
        deal(f, c, target, amount // 2 if saved else amount, types, weapon=True)


def frighten(f, c: Combatant) -> None:
    """Frightful presence, when the creature first attacks: every able foe of fewer Hit Dice saves (Will) or is
    panicked (4 HD or fewer: it flees, out of the fight) or shaken (-2 on attacks, saves and checks)."""
    presence = c.t.creature.frightful_presence
    c.frightened = True
    rounds = parse(presence.duration)
    for foe in list(c.foes):
        if not foe.is_able or foe.t.hd >= c.t.hd or "fear" in foe.t.immunities \
                or "mind-affecting" in foe.t.immunities:
            continue
        if save(f, foe, "will", presence.dc, c).success:
            continue
        name = "panicked" if foe.t.hd <= PANIC_HD else "shaken"
        add_condition(f, foe, name, rounds.roll(f.stream) * ROUND)
        if f.lines is not None:
            f.log(f"{foe.name} is {name} by {c.name}'s frightful presence")
