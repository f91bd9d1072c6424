"""The world layer: who there is to fight, read from the files people write.

Stat-block models (:mod:`~arena.world.creatures`), safe YAML loading with file/line/field errors
(:mod:`~arena.world.yamlio`), the shipped bestiary, the typical monster of any CR, the generated party, CR/EL/XP
arithmetic and the user's settings file. It knows the dice rules below it and nothing of fights above it.
"""

import arena.world.creatures  # noqa: E402, F401  # first: the stat-block model, with every special ability's field
