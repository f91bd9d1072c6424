"""Monsters' special abilities of presence: frightful presence, stench and the auras (despair, menace, a song, a
bay, a horrific appearance) on a creature's first action; trample; and the per-fight state every ability keeps
(:func:`state_of`). The abilities that ride on a hit and the grapple are modules of :mod:`arena.abilities`; the
ability loss itself, and what it does to a creature's numbers, is in :mod:`arena.combat.conditions`. Pounce and
ferocity are one-line changes to a turn and to being able: they live in the engine and in :meth:`Combatant.able`.

Every roll goes through the kernel like any other (``f.resolve`` and ``f.save``), so each variant applies: under
players roll all, a monster's save DC becomes the player's save. Functions take the fight first and call the parts
below them (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, lose_ability
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.spells import ROUND
from arena.dice import parse

MAX_TIE_ROLLS = 50
"""Opposed checks tied with equal modifiers roll again, at most this many times."""
PANIC_HD = 4
"""SRD 3.5 frightful presence: a creature of 4 Hit Dice or fewer is panicked, one of more is shaken."""


def state_of(c: Combatant) -> dict:
    """The creature's per-fight ability state (``Combatant.specials``), made on first use."""
    if c.specials is None:
        c.specials = {}
    return c.specials


def presence(f: FightState, c: Combatant) -> None:
    """What the creature's presence does on its first action: frightful presence, stench, its abilities'
    ``first_action`` hooks."""
    for hook in c.t.first_action_hooks:
        hook(f, c)
    if c.t.fear:
        frighten(f, c)
    if c.t.stench is not None:
        stink(f, c)
    if c.t.creature.aura is not None:
        aura(f, c)
    c.frightened = True


AURA_IMMUNITY = {
    "paralysis": ("mind-affecting", "paralysis"),
    "menace": (),
    "captivate": ("mind-affecting",),
    "panic": ("mind-affecting",),
    "weakness": (),
}
"""The immunities that stop each aura: despair paralyzes with fear; the song is a sonic mind-affecting charm."""


def aura(f: FightState, c: Combatant) -> None:
    """An aura of presence, on the creature's first action; each foe saves once (SRD 3.5: "that creature cannot be
    affected again by the same mummy's despair ability for 24 hours").

    - Despair (mummy): "At the mere sight of a mummy, the viewer must succeed on a DC 16 Will save or be paralyzed
      with fear for 1d4 rounds."
    - Aura of menace (archons): "Those who fail take a -2 penalty on attacks, AC, and saves for 24 hours or until
      they successfully hit the archon that generated the aura" (here: for the fight).
    - Bay (yeth hound, shadow mastiff): "must succeed on a DC 11 Will save or become panicked for 2d4 rounds ...
      a sonic mind-affecting fear effect".
    - Horrific appearance (sea hag): "must succeed on a DC 13 Fortitude save or instantly be weakened, taking 2d6
      points of Strength damage".
    - Captivating song (harpy): "must succeed on a DC 16 Will save or become captivated ... Captivated creatures can
      take no actions other than to defend themselves ... A victim within 5 feet of the harpy stands there and
      offers no resistance to the monster's attacks" (helpless), while the harpy sings (each of its turns, see
      :func:`arena.combat.specials.keep_singing`) and 1 round after."""
    a = c.t.creature.aura
    stops = AURA_IMMUNITY[a.effect]
    for foe in list(c.foes):
        if not foe.is_able or foe.dead or any(i in foe.t.immunities for i in stops):
            continue
        if save(f, foe, a.save, a.dc, c).success:
            continue
        if a.effect == "paralysis":
            add_condition(f, foe, "paralyzed", parse(a.rounds).roll(f.stream) * ROUND)
        elif a.effect == "panic":
            add_condition(f, foe, "panicked", parse(a.rounds).roll(f.stream) * ROUND)
        elif a.effect == "weakness":
            if a.loss is not None:
                lose_ability(f, foe, a.loss, c)
        elif a.effect == "menace":
            add_condition(f, foe, "menaced", FOREVER)
        else:
            add_condition(f, foe, "captivated", 2 * ROUND, by=c)
        if f.lines is not None:
            f.log(
                f"{foe.name} is {AURA_WORDS[a.effect]} by {c.name}",
                actor=foe.name,
                action="aura",
                source=c.name,
                result=a.effect,
            )


AURA_WORDS = {
    "paralysis": "paralyzed with despair",
    "menace": "menaced",
    "captivate": "captivated",
    "panic": "panicked",
    "weakness": "weakened",
}


def stink(f: FightState, c: Combatant) -> None:
    """Stench: every living foe saves (Fortitude) or is sickened for the stated rounds (SRD 3.5 troglodyte)."""
    stench = c.t.stench
    for foe in list(c.foes):
        if foe.dead or not foe.is_able or foe.t.type in ("undead", "construct") or "poison" in foe.t.immunities:
            continue
        if stench.nauseates:  # the hezrou's: within 10 feet, the foes in melee with it
            if not foe.ranged:
                saved = save(f, foe, "fort", stench.dc, c).success
                add_condition(f, foe, "sickened" if saved else "nauseated", FOREVER)
            continue
        if not save(f, foe, "fort", stench.dc, c).success:
            add_condition(f, foe, "sickened", parse(stench.rounds).roll(f.stream) * ROUND)


def trample(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """Trample: each creature run over takes the damage, Reflex for half (one damage roll, as a breath)."""
    t = c.t.trample
    dice = parse(t.damage)
    amount = dice.roll(f.stream)
    types = frozenset(t.damage_types)
    if f.lines is not None:
        f.log(
            f"{c.name} tramples {', '.join(x.name for x in targets)}",
            actor=c.name,
            action="trample",
            targets=[x.name for x in targets],
        )
    for target in targets:
        if target.dead:
            continue
        saved = save(f, target, "ref", t.dc, c).success
        deal(f, c, target, amount // 2 if saved else amount, types, weapon=True)


def frighten(f: FightState, c: Combatant) -> None:
    """Frightful presence, when the creature first attacks: every able foe of fewer Hit Dice saves (Will) or is
    panicked (4 HD or fewer: it flees, out of the fight) or shaken (-2 on attacks, saves and checks)."""
    presence = c.t.creature.frightful_presence
    c.frightened = True
    rounds = parse(presence.duration)
    for foe in list(c.foes):
        if not foe.is_able or foe.t.hd >= c.t.hd or "fear" in foe.t.immunities or "mind-affecting" in foe.t.immunities:
            continue
        if save(f, foe, "will", presence.dc, c).success:
            continue
        name = "panicked" if foe.t.hd <= PANIC_HD else "shaken"
        add_condition(f, foe, name, rounds.roll(f.stream) * ROUND)
        if f.lines is not None:
            f.log(
                f"{foe.name} is {name} by {c.name}'s frightful presence",
                actor=foe.name,
                action="frightful-presence",
                source=c.name,
                result=name,
            )
