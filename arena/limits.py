"""The limits on what a user may ask for, in one place.

Why: d20 Arena reads files and arguments written by people (and, now and then, by a careless script). Each limit
below is far above any real use and low enough that a mistake is refused at once with a message, instead of a
hang, a machine out of memory or a traceback. ``docs/limits.md`` lists them with the reason for each; a test
holds that page against this module so the two never disagree.
"""

from __future__ import annotations

# --------------------------------------------------------------------------------------------- input files
MAX_FILE_BYTES = 4 * 1024 * 1024
"""A YAML (or policy) file is read only up to this size: the largest shipped stat-block file is a few KiB."""
MAX_YAML_NODES = 100_000
"""Values in one YAML document after aliases are expanded (an "alias bomb" of nine anchors of nine aliases is
387 million)."""
MAX_YAML_DEPTH = 64
"""Nesting of mappings and lists in one YAML document (a stat block nests about six deep)."""
MAX_FILES_PER_FOLDER = 10_000
"""Stat-block files read from one folder named under ``bestiary:``."""
MAX_IMPORT_LINE = 4_000
"""Characters in one line, and in one field, of a file ``arena bestiary import`` reads (the SRD's longest line is
1,120): a longer line is a problem of the creature that holds it, never read."""
MAX_IMPORT_DIGITS = 9
"""Digits in one number of a stat block ``arena bestiary import`` reads (the SRD's longest is 3, ``196,000``)."""
MAX_IMPORT_BLOCKS = 1_000
"""Stat blocks in one file ``arena bestiary import`` reads (the SRD's largest chapter holds 126, all its 566 creatures
in one file fit)."""
MAX_IMPORT_DESCRIPTION = 200_000
"""Characters of prose (ability descriptions) read with one imported stat block (the SRD's most is 77,000)."""
MAX_IMPORT_DESCRIPTION_LINES = 2_000
"""Lines of prose read with one imported stat block (the SRD's most is 884)."""
MAX_IMPORT_ABILITIES = 100
"""Special attacks and qualities of one imported stat block (the SRD's most is 22)."""

# --------------------------------------------------------------------------------------------- names
MAX_NAME_LENGTH = 200
"""Characters in a scenario or creature name (a label, not an essay)."""
MAX_SLUG_LENGTH = 80
"""Characters of a name used as a folder name (the default results folder)."""

# --------------------------------------------------------------------------------------------- dice and checks
MAX_MODIFIER = 200
"""The largest modifier, attack bonus, save bonus, DC or AC (in absolute value) of a check: an epic great wyrm
attacks at about +60. Under variable modifiers +200 is twenty d20s."""
MAX_DICE = 100
"""Dice in one term of a dice expression (``100d6``)."""
MAX_SIDES = 1000
"""Sides of one die."""
MAX_DICE_TERMS = 32
"""Terms in one dice expression (``1d6+1d4+2`` has three)."""

# --------------------------------------------------------------------------------------------- fights and runs
MAX_GROUP_COUNT = 100
"""Monsters in one group of a scenario, and the largest group size of a calibration."""
MAX_COMBATANTS = 200
"""Creatures in one fight, both sides together."""
MAX_ROUND_CAP = 1000
"""Rounds before a fight is declared a draw."""
MAX_ENCOUNTERS = 10_000_000
"""Encounters per rule set of one scenario (``--n``): a million took under three minutes on two cores."""
MAX_RUN_ENCOUNTERS = 100_000_000
"""Encounters in one run, all scenarios and rule sets together."""
MAX_WORKERS = 64
"""Local worker processes (``--workers``); a run also never starts more workers than it has chunks to fight."""
MAX_SEED = 2**64 - 1
"""Seeds are 0 to this (an unsigned 64-bit integer, as the engine seed of every encounter of a run is)."""
POLICY_DECISION_SECONDS = 2.0
"""Wall-clock time one decision of a user's policy may take before its encounter fails."""
POLICY_LOAD_SECONDS = 5.0
"""Wall-clock time a policy file may take to load (run its top level) before it is refused."""
