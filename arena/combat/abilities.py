"""Monsters' special abilities, what is left of them in the fight layer: a creature's presence on its first action
(the hook loop of its abilities' ``first_action``), the per-fight state every ability keeps (:func:`state_of`) and
the tie-breaking of opposed checks. Every ability itself is a module of :mod:`arena.abilities`; the ability loss,
and what it does to a creature's numbers, is in :mod:`arena.combat.conditions`. Pounce and ferocity are one-line
changes to a turn and to being able: they live in the engine and in :meth:`Combatant.able`.

Every roll goes through the kernel like any other (``f.resolve`` and ``f.save``), so each variant applies: under
players roll all, a monster's save DC becomes the player's save. Functions take the fight first and call the parts
below them (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.rolls import resolve
from arena.rules import Check

MAX_TIE_ROLLS = 50
"""Opposed checks tied with equal modifiers roll again, at most this many times."""


def opposed(f: FightState, a: Combatant, a_mod: int, b: Combatant, b_mod: int) -> bool:
    """An opposed check (grapple): does ``a`` win? The higher total wins; a tie goes to the higher modifier, equal
    modifiers roll again (SRD 3.5). Each side's roll is an ability-type check through the kernel."""
    for _ in range(MAX_TIE_ROLLS):
        theirs = resolve(f, Check("ability", b.side, b_mod + b.save_bonus, 0, opponent=b.side), b, None).total
        mine = resolve(f, Check("ability", a.side, a_mod + a.save_bonus, 0, opponent=a.side), a, None).total
        if mine != theirs:
            return mine > theirs
        if a_mod != b_mod:
            return a_mod > b_mod
    return False


def state_of(c: Combatant) -> dict:
    """The creature's per-fight ability state (``Combatant.specials``), made on first use."""
    if c.specials is None:
        c.specials = {}
    return c.specials


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
