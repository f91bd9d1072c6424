"""Monsters' special abilities: improved grab and the grapple it starts (with constrict), paralysis, poison,
ability damage and energy drain on a hit, the first-action hooks of a creature's presence (the ability loss
itself, and what it does to a creature's numbers, is in :mod:`arena.combat.conditions`). Pounce and ferocity are
one-line changes to a turn and to being able: they live in the engine and in :meth:`Combatant.able`.

Every roll goes through the kernel like any other (``f.resolve`` and ``f.save``), so each variant applies: under
players roll all, a monster's paralysis DC becomes the player's save, its grapple check stays an opposed check.

Grappling is abstract (no grid, no pinning): a creature that wins the free grapple check of improved grab holds its
foe; on each of its later turns, while both can act, it makes an opposed grapple check and on a win deals the
grabbing attack's damage (plus constrict's); it makes no other attack while it holds. The held foe spends its turn
trying to escape (an opposed grapple check). Either one dropping ends the hold. Functions take the fight first and
call the parts below them (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, drain_levels, knock_out_for, lose_ability
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.dice import parse
from arena.rules import Check
from arena.world.stat_types import SIZES

MAX_TIE_ROLLS = 50
"""Opposed checks tied with equal modifiers roll again, at most this many times."""
FIRE = frozenset({"fire"})
POISON_SECONDARY_ROUNDS = 10
"""SRD 3.5 poison: the secondary damage comes 1 minute after the initial damage."""


def opposed(f: FightState, a: Combatant, a_mod: int, b: Combatant, b_mod: int) -> bool:
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


def after_hit(f: FightState, c: Combatant, target: Combatant, attack, dealt: int) -> None:
    """What a hit with ``attack`` does besides its damage: its abilities' ``on_hit`` hooks (each checks the attack
    is the one it rides on), improved grab starts a grapple, paralysis."""
    t = c.t
    for hook in t.on_hit_hooks:
        hook(f, c, target, attack, dealt)
    if (
        t.grab is not None
        and attack.name == t.grab[0]
        and c.grip is None
        and target.grip is None
        and target.is_able
        and not target.dead
        and _can_grab(c, target)
        and (t.creature.improved_grab.automatic or opposed(f, c, t.grapple, target, target.t.grapple))
    ):
        c.grip, target.grip = (True, target), (False, c)
        c.afflicted = target.afflicted = True
        if f.lines is not None:
            how = (
                "attached"
                if not t.creature.improved_grab.hold_check
                else "adhesive"
                if t.creature.improved_grab.automatic
                else "improved grab"
            )
            f.log(f"{c.name} grabs {target.name} ({how})", actor=c.name, action="grab", target=target.name, result=how)
    paralysis = t.paralysis
    if paralysis is not None and attack.name == paralysis.attack and paralysis.on == "hit":
        paralyze(f, c, target, paralysis)
    slow = t.slow_on_hit
    if (
        slow is not None
        and attack.name == slow.attack
        and not target.dead
        and "slowed" not in target.conditions
        and not save(f, target, "fort", slow.dc, c).success
    ):
        add_condition(f, target, "slowed", parse(slow.rounds).roll(f.stream) * ROUND)
    melt = t.creature.instability
    if (
        melt is not None
        and attack.name == melt.attack
        and not target.dead
        and target.is_able
        and target.t.type not in ("undead", "construct")
        and not save(f, target, "fort", melt.dc, c).success
    ):
        add_condition(f, target, "amorphous", FOREVER, dc=melt.control_dc)  # the chaos beast's blow
    stone = t.petrification
    if (
        stone is not None
        and attack.name == stone.attack
        and not target.dead
        and "petrified" not in target.conditions
        and "petrification" not in target.t.immunities
        and not save(f, target, "fort", stone.dc, c).success
    ):
        add_condition(f, target, "petrified", FOREVER)  # the cockatrice's bite: "instantly turn to stone"
        if f.lines is not None:
            f.log(f"{target.name} turns to stone", actor=target.name, action="petrified", source=c.name)

    poison = t.poison
    if (
        poison is not None
        and attack.name == poison.attack
        and not target.dead
        and "poison" not in target.t.immunities
        and (poison.doses is None or use_dose(f, c, poison))
        and not save(f, target, poison.save, poison.dc, c).success
    ):
        if poison.initial is not None:
            lose_ability(f, target, poison.initial, c)
        else:
            knock_out(f, target, poison.unconscious)
        if (poison.secondary is not None or poison.secondary_unconscious is not None) and not target.dead:
            add_condition(f, target, "poisoned", POISON_SECONDARY_ROUNDS * ROUND, poison=poison)
    harm = t.ability_damage
    if (
        harm is not None
        and attack.name == harm.attack
        and not target.dead
        and (harm.dc is None or not save(f, target, harm.save, harm.dc, c).success)
    ):
        lose_ability(f, target, harm.loss, c)
    drain = t.energy_drain
    if drain is not None and attack.name == drain.attack and not target.dead:
        drain_levels(f, target, drain.levels)
    burn = t.burn
    if (
        burn is not None
        and attack.name == burn.attack
        and not target.dead
        and target.burning is None
        and "fire" not in target.t.immunities
        and not save(f, target, "ref", burn.dc, c).success
    ):
        target.burning = [parse(burn.rounds).roll(f.stream), parse(burn.damage), c]
        target.afflicted = True
        if f.lines is not None:
            f.log(f"{target.name} catches fire", actor=target.name, action="catches-fire", source=c.name)


def use_dose(f: FightState, c: Combatant, poison) -> bool:
    """A dose of the poison it carries (SRD 3.5 drow: "A typical drow carries 1d4-1 doses"), rolled at its first
    hit: is there one left for this hit?"""
    st = state_of(c)
    if "doses" not in st:
        st["doses"] = parse(poison.doses).roll(f.stream)
    if st["doses"] <= 0:
        return False
    st["doses"] -= 1
    return True


def knock_out(f: FightState, c: Combatant, rounds: str) -> None:
    """A poison of sleep or unconsciousness (SRD 3.5 homunculus: "initial damage sleep for 1 minute"; drow poison:
    "unconsciousness"): unconscious, so helpless, for ``rounds`` (``sleep`` immunity stops it too); unlike magical
    sleep, a blow does not wake it."""
    if c.dead or "sleep" in c.t.immunities:
        return
    knock_out_for(f, c, rounds)
    if f.lines is not None:
        f.log(f"{c.name} falls unconscious (poison)", actor=c.name, action="poisoned", result="unconscious")


def paralyze(f: FightState, c: Combatant, target: Combatant, paralysis) -> None:
    """Paralysis: a Fortitude save or paralyzed (helpless) for its rounds (SRD 3.5 ghoul: "must succeed on a DC 12
    Fortitude save or be paralyzed for 1d4+1 rounds")."""
    if (
        (target.is_able or paralysis.on == "swallowed")
        and not target.dead
        and "paralysis" not in target.t.immunities
        and target.t.type not in paralysis.immune_types
        and not save(f, target, "fort", paralysis.dc, c).success
    ):
        add_condition(f, target, "paralyzed", parse(paralysis.duration).roll(f.stream) * ROUND)
        if f.lines is not None:
            f.log(f"{target.name} is paralyzed", actor=target.name, action="paralyzed", source=c.name)


def burn_turn(f: FightState, c: Combatant) -> None:
    """A burning creature takes the fire's damage at the start of its turn, until the fire burns out."""
    rounds, dice, source = c.burning
    deal(f, source, c, dice.roll(f.stream), FIRE)
    c.burning = [rounds - 1, dice, source] if rounds > 1 else None


def _can_grab(c: Combatant, target: Combatant) -> bool:
    """SRD 3.5: improved grab works only against opponents at least one size category smaller, unless noted (an
    octopus's "an opponent of any size", a mimic's adhesive)."""
    return c.t.creature.improved_grab.any_size or SIZES.index(target.t.creature.size) < SIZES.index(c.t.creature.size)


def state_of(c: Combatant) -> dict:
    """The creature's per-fight ability state (``Combatant.specials``), made on first use."""
    if c.specials is None:
        c.specials = {}
    return c.specials


def release(c: Combatant) -> None:
    """End the grapple ``c`` is in, for both creatures."""
    if c.grip is not None:
        other = c.grip[1]
        if other.grip is not None and other.grip[1] is c:
            other.grip = None
        c.grip = None


def presence(f: FightState, c: Combatant) -> None:
    """What the creature's presence does on its first action: its abilities' ``first_action`` hooks (frightful
    presence, stench, an aura), once."""
    for hook in c.t.first_action_hooks:
        hook(f, c)
    c.frightened = True


def free_to_act(c: Combatant) -> bool:
    """Whether the creature takes its free actions at the start of its turn (a song kept up, smoke, entangling
    plants, an eye ray): it can act, is not dying and not stunned."""
    return c.is_able and c.hp >= 0 and not (c.conditions and "stunned" in c.conditions)
