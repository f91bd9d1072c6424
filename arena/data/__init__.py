"""Rules facts transcribed from the reference material (SRD 3.5, PRD), shipped with the package."""
