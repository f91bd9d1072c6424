"""d20 Arena: exact odds and simulated fights under d20 house-rule variants."""

__version__ = "0.1.0"
