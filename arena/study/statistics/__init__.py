"""Statistics over encounter rows: reading a run's encounters, summaries with Wilson intervals, comparisons of two
runs with Holm's correction, the claims' inference with the matchup as the unit, and sequential sampling (no code
here; nothing of a fight)."""
