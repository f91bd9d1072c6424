"""Conditions and their durations: bless, shield of faith, stuns, holds, sleep, auspicious odds ...

A condition is a deadline on the fight's clock (``[ends, data]`` in ``c.conditions``); the fight keeps the earliest
deadline of all (``f.next_expiry``) so that a turn checks one number, not every creature. Owns adding and dropping
conditions (and the bonuses they carry), ending those whose time has come, and the held creature's save to break
free. Calls the rolls and states below it; the functions take the fight first (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.combatant import INFINITY, Combatant
from arena.combat.rolls import save
from arena.combat.spells import ROUND
from arena.combat.states import refresh

SHAKEN = -2
"""SRD 3.5 shaken: -2 on attack rolls, saving throws, skill checks and ability checks."""


def add_condition(f, target: Combatant, name: str, seconds: float, **data) -> None:
    """``target`` is under ``name`` for ``seconds`` from the current turn."""
    ends = f.instant + seconds
    target.conditions[name] = [ends, data]
    if ends < target.expires_at:
        target.expires_at = ends
    if ends < f.next_expiry:
        f.next_expiry = ends
    refresh(f, target)
    if name == "bless" or name == "shaken":
        _morale(target)
    elif name == "shield of faith":
        target.ac_bonus = max(target.ac_bonus, data["bonus"])
    if f.lines is not None:
        f.log(f"{target.name}: {name} for {int(seconds // ROUND)} rounds")


def drop_condition(f, c: Combatant, name: str) -> None:
    del c.conditions[name]
    refresh(f, c)
    if name == "bless" or name == "shaken":
        _morale(c)
    elif name == "shield of faith":
        c.ac_bonus = 0


def _morale(c: Combatant) -> None:
    """Bless (+1 on attack rolls) and shaken (-2 on attack rolls, saves and checks), from the conditions in force."""
    conditions = c.conditions
    shaken = SHAKEN if "shaken" in conditions else 0
    c.attack_bonus = (1 if "bless" in conditions else 0) + shaken
    c.save_bonus = shaken


def expire(f, now: float) -> None:
    """End every condition whose time has come (a stun that ends at the caster's turn ends for the attackers
    who act before its subject too)."""
    earliest = INFINITY
    for c in f.pcs + f.monsters:
        conditions = c.conditions
        if conditions and c.expires_at <= now:
            for name in [name for name, (ends, _) in conditions.items() if ends <= now]:
                drop_condition(f, c, name)
            c.expires_at = min((ends for ends, _ in conditions.values()), default=INFINITY)
        if c.expires_at < earliest:
            earliest = c.expires_at
    f.next_expiry = earliest


def try_break_free(f, c: Combatant) -> None:
    """A held creature makes a new Will save each round to break the hold."""
    held = c.conditions.get("held")
    if held and save(f, c, "will", held[1]["dc"], None).success:
        drop_condition(f, c, "held")
        if f.lines is not None:
            f.log(f"{c.name} breaks free of hold person")
