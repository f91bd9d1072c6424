"""Scenarios: who fights whom, with which tactics, under which rule sets, how often; read from scenario files whose
every problem names its file, line and field (no code here)."""
