"""An example of your own policy: go for the toughest enemy in reach (the opposite of ``focus-weakest``).

A policy is a function ``(view, creature) -> Action``; ``register`` names it for scenario files, which load this
file with ``policies: [policies/toughest_first.py]``. The view is read-only: look, don't change creatures.
"""

from arena.combat.tactics import NOTHING, Action, View, register


def toughest(view: View, creature, enemies: list):
    """The enemy with the most hit points left (ties: the first listed)."""
    return max(enemies, key=lambda enemy: enemy.hp - enemy.nonlethal, default=None)


def toughest_first(view: View, creature) -> Action:
    """Attack the reachable enemy with the most hit points left."""
    target = toughest(view, creature, view.reachable(creature))
    return Action("attack", target) if target is not None else NOTHING


register("toughest-first", toughest_first, targeting=toughest)
