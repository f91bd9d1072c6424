"""The fight layer: one encounter, start to end.

Runtime combatants compiled from stat blocks, the engine that drives rounds under simpy (split by responsibility
into parts it calls: attacks, damage, called shots, conditions, states, rolls; see :mod:`arena.combat.engine`), the
tactics that choose actions (and the guard around a user's own), the spells, called-shot injuries and the
encounter record. It reads creatures from the world layer and rolls every d20-type check through the rules layer.
It reads one kind of file: a trusted policy file, which ``tactics.load_policy_file`` runs (the shipped stat block of
a summoned creature that ``prepare`` was not given is read by the summoning, :mod:`arena.abilities.summon`).
"""

import arena.world.creatures  # noqa: E402, F401  # first: the stat-block model, with every special ability's field
