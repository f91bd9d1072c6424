"""Regression checks: suites of assertions about runs (``arena check SUITE.yaml``) and the same assertions for
pytest (no code here)."""
