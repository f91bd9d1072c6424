"""The study layer: many encounters and what they say.

It drives fights from the layer below and is driven by the command line above. Its parts, each a package of its
own, import one another in one direction only (an import-linter contract in ``pyproject.toml``), top first:

* :mod:`arena.study.claims`: the documents' claims, evaluated (``arena claims``), and their published report;
* :mod:`arena.study.calibration`: equivalent CR (``arena calibrate``) and the group-CR rules fitted to it;
* :mod:`arena.study.checks` (regression suites, ``arena check``) beside :mod:`arena.study.reports` (``arena
  report``, the model-changes page, and the staging, plotting and escaping every written page shares);
* :mod:`arena.study.runs`: fighting many encounters on workers, their plan, tables and results folders, and
  batches of matchups;
* :mod:`arena.study.scenarios` (scenario files) beside :mod:`arena.study.statistics` (numbers over encounter rows).
"""
