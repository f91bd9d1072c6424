"""Calibration: a monster's equivalent CR under a variant against the typical-monster ladder (``arena calibrate``),
and the group-CR models and the replacement CR rules fitted to calibrated cells (no code here)."""
