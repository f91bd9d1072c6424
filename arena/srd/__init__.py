"""The SRD importer: SRD 3.5 stat blocks (the monster chapters' Markdown tables, or ``Field: value`` lines pasted
from a web page) read into validated stat blocks of :mod:`arena.world.creatures`, with a note of everything it could
not read, guessed, rewrote or found in disagreement with itself.

It is a layer of its own above the world (it reads the world's stat-block models and writes their YAML files) and
below the command line (``arena bestiary import``); nothing below it imports it, and nothing at run time reads the
SRD text: the shipped bestiary (``bestiary/srd/``, read by :mod:`arena.world.srd_bestiary`) was made once with
``python -m arena.srd``, and ``python -m arena.srd --check`` holds it to the SRD byte for byte.

How it reads. A file's blocks are found (:mod:`~arena.srd.blocks`, :mod:`~arena.srd.dragons`), each block is given a
:class:`~arena.srd.context.Reading`, and every reader takes that reading and is looked up in a table: a field's
reader in :data:`arena.srd.build.FIELD_READERS`, a special ability's entry in
:data:`arena.srd.entry_readers.ENTRY_READERS` and :data:`~arena.srd.entry_readers.NAMED_READERS`, an ability whose
numbers are in its paragraph in :data:`arena.srd.effects.RULES`. What every reader shares (the dice pattern, the
sizes, the one ``singular``) is defined once in :mod:`~arena.srd.patterns`.

Why patterns and not a grammar. The fixed-format lines (attacks, AC, saves, hit dice) look like a grammar's work
(lark, pyparsing), and a grammar was weighed and left out, for three reasons:

- The readers forgive the conversion's marks (a missing ``melee``, an unclosed parenthesis, a value glued to its
  label, a cell moved one column over) and note each guess, and the shipped bestiary records every one of those
  notes: a grammar would reject such lines or need the same repairs around it, and its output would have to match
  the shipped files byte for byte all the same.
- Every reader must run in linear time on any line (a hostile 100 kB line is read in milliseconds;
  tests/srd/test_srd_import_hostile.py). A PEG parser (pyparsing) backtracks, exponentially on a crafted line
  without memoisation; lark's LALR parser is linear but cannot say the lazy, partial reads the readers rely on
  (an attack's name is whatever comes before its bonus); its Earley parser is not linear.
- Neither is a dependency of the project.

So each line is read by named, compiled patterns: bounded where they repeat (``{0,200}``, ``{0,12}``), replaced by
linear helpers where a pattern was quadratic (:func:`~arena.srd.text.drop_parens`,
:func:`~arena.srd.text.search_chain`), each beside the SRD sentence it reads, and held to those sentences by
tests/srd/test_patterns.py.
"""

import arena.world.creatures  # noqa: E402, F401  # first: the stat-block model, with every special ability's field
