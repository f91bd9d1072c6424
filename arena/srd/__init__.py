"""The SRD importer: SRD 3.5 stat blocks (the monster chapters' Markdown tables, or ``Field: value`` lines pasted
from a web page) read into validated stat blocks of :mod:`arena.world.creatures`, with a note of everything it could
not read, guessed, rewrote or found in disagreement with itself.

It is a layer of its own above the world (it reads the world's stat-block models and writes their YAML files) and
below the command line (``arena bestiary import``); nothing below it imports it, and nothing at run time reads the
SRD text: the shipped bestiary (``bestiary/srd/``, read by :mod:`arena.world.srd_bestiary`) was made once with
``python -m arena.srd``.
"""
