"""The documents' claims, evaluated (``arena claims``): the factor design, every encounter claim stated with how it
is measured, the calibration grid and the DMG anchor, the verdicts, and the published report (no code here)."""
