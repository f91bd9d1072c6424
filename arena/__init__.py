"""d20 Arena: exact odds and simulated fights under d20 house-rule variants."""

__version__ = "0.2.0"


def __getattr__(name: str):
    """``arena.run(scenario, n=..., seed=...) -> DataFrame``, imported on first use (keeps ``import arena`` light)."""
    if name == "run":
        from arena.study.experiment import run

        return run
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
