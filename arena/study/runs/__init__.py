"""Runs: many encounters fought on workers (this process, local processes or a Dask cluster) from a plan, kept as
typed tables in a results folder that a run or a study can resume, and batches of matchups for the claims and the
calibration (no code here)."""
