"""A small deterministic stand-in for scenarios and the engine, for the experiment, analysis and report tests.

The fake "fight" is a pure function of (seed, rule-set key, scenario edge): fast, reproducible, and different
rule sets win at different rates, so the statistics have something to find.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from arena.rules import RuleSet

SCHEMA = {
    "winner": "string",
    "rounds": "int64",
    "party_hp_lost": "float64",
    "pcs_dead": "int64",
    "hits_monsters": "int64",
    "attacks_monsters": "int64",
    "damage_monsters": "int64",
    "lucky_damage_monsters": "int64",
}


@dataclass
class FakeScenario:
    name: str = "fake"
    n: int = 100
    seed: int = 7
    keys: tuple[str, ...] = ("d20", "3d6")
    edge: float = 0.5
    """The party's base win chance; '3d6' rule sets add 0.1."""
    extra: dict = field(default_factory=dict)

    def rule_sets(self) -> list[RuleSet]:
        return [RuleSet.from_key(k) for k in self.keys]

    def prepare(self) -> dict:
        return {"edge": self.edge}

    def model_dump(self, mode: str = "python") -> dict:
        return {
            "name": self.name,
            "n": self.n,
            "seed": self.seed,
            "keys": list(self.keys),
            "edge": self.edge,
            **self.extra,
        }


def _u(seed: int, salt: str) -> float:
    digest = hashlib.sha256(f"{seed}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class FakeSimulator:
    """prepare/fight/schema like :class:`arena.study.runs.workers.EngineSimulator`, with no engine."""

    def __init__(self, bonus: float = 0.1):
        self.bonus = bonus

    def prepare(self, scenario, rules):
        return scenario.prepare()

    def schema(self):
        return dict(SCHEMA)

    def fight(self, prepared, rules: RuleSet, seed: int) -> dict:
        chance = prepared["edge"] + (self.bonus if rules.die == "3d6" else 0.0)
        u = _u(seed, "win")  # the same draw under every rule set: common random numbers
        winner = "party" if u < chance else ("draw" if u > 0.98 else "monsters")
        rounds = 1 + int(_u(seed, "rounds") * 8) + (1 if rules.die == "3d6" else 0)
        attacks = 4 + int(_u(seed, "attacks") * 6)
        hits = int(attacks * _u(seed, "hits"))
        damage = hits * 7
        lucky = 7 * int(hits * _u(seed + len(rules.key), "lucky") * 0.3)
        return {
            "winner": winner,
            "rounds": rounds,
            "party_hp_lost": round(_u(seed, "hp") * (1 - chance), 4),
            "pcs_dead": int(winner == "monsters"),
            "hits_monsters": hits,
            "attacks_monsters": attacks,
            "damage_monsters": damage,
            "lucky_damage_monsters": lucky,
        }


class InterruptingSimulator(FakeSimulator):
    """Raises KeyboardInterrupt (as Ctrl-C would) on the first fight with a seed of encounter ``at``."""

    def __init__(self, stop_seed: int):
        super().__init__()
        self.stop_seed = stop_seed

    def fight(self, prepared, rules, seed):
        if seed == self.stop_seed:
            raise KeyboardInterrupt
        return super().fight(prepared, rules, seed)


class DyingSimulator(FakeSimulator):
    """Kills its worker process the first time it meets ``die_seed`` (a marker file says it already did)."""

    def __init__(self, die_seed: int, marker: str):
        super().__init__()
        self.die_seed = die_seed
        self.marker = marker

    def fight(self, prepared, rules, seed):
        if seed == self.die_seed and not Path(self.marker).exists():
            Path(self.marker).write_text("died")
            os._exit(3)
        return super().fight(prepared, rules, seed)


def cli_app():
    """A typer app with `run`, `report`, `compare` and `check` (the same commands `arena` registers)."""
    import typer

    from arena.cli import results_cmds, run_cmds

    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    run_cmds.register(app)
    results_cmds.register(app)
    return app
