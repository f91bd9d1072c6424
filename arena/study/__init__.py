"""The study layer: many encounters and what they say.

Scenarios (a fight plus how often and under which rule sets), experiments on workers and their results folders,
statistics, reports, regression suites, CR calibration and the documents' claims. It drives fights from the layer
below and is driven by the command line above.
"""
