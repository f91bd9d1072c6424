"""Die-invariant measures the encounter record does not carry, computed beside the fight without touching it.

The record's ``lucky_hits`` counts hits whose chance *under the current rules* was at most 25%, so the definition
moves with the die (under 3d6 a hit needing a 15 is 9%: "lucky"; on a d20 it is 30%). The study's measure is a
**long shot**: a hit whose needed natural a d20 makes at most 25% of the time (it needed 16 or more on the die,
``target - modifier >= 16``), whatever die was rolled, with the damage that hit dealt.

:class:`ProbeSimulator` is an :class:`arena.study.workers.EngineSimulator` whose fights are a :class:`ProbeFight`:
the engine's own ``Fight`` with its ``resolve`` wrapped (every roll of a fight goes through ``Fight.resolve``, by
the engine's design). An attack roll that succeeds and needed 16+ opens a long shot on the attacker's side; the
hit is counted when the side's hit counter moves, and the damage the side deals until its next roll is that
hit's damage (its weapon damage, sneak attack and extra damage; a massive-damage save rolled in between closes
it early, so the damage is a slight undercount for hits of 50+). The record gains ``long_shot_hits_<side>`` and
``long_shot_damage_<side>``. The engine owner could record them directly (a field beside ``lucky_hits``); until
then this probe is the one place they are computed.
"""

from __future__ import annotations

from typing import Any

from arena.rules import RuleSet
from arena.study.workers import EngineSimulator

LONG_SHOT_NATURAL = 16
"""A hit is a long shot if it needed this natural or more: a d20 makes 16+ 25% of the time."""
PROBE_FIELDS = ("long_shot_hits_party", "long_shot_hits_monsters", "long_shot_damage_party",
                "long_shot_damage_monsters")


def _fight_class() -> type:
    from arena.combat.engine import Fight
    from arena.combat.rolls import resolve as engine_resolve

    class ProbeFight(Fight):
        """The engine's fight, counting long shots as they happen."""

        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            self.long = {"pc": [0, 0], "monster": [0, 0]}
            self.open_shot = None

        def _close(self) -> None:
            tally, side, hits, damage = self.open_shot
            self.open_shot = None
            if tally.hits > hits:
                self.long[side][0] += 1
                self.long[side][1] += tally.damage - damage

        def resolve(self, check, actor, opponent):          # noqa: D401 - the engine's resolve, watched
            if self.open_shot is not None:
                self._close()
            outcome = engine_resolve(self, check, actor, opponent)
            if check.kind == "attack" and outcome.success and check.target - check.modifier >= LONG_SHOT_NATURAL:
                tally = actor.tally
                self.open_shot = (tally, actor.side, tally.hits, tally.damage)
            return outcome

        def finish_probe(self) -> dict:
            if self.open_shot is not None:
                self._close()
            return {"long_shot_hits_party": self.long["pc"][0], "long_shot_damage_party": self.long["pc"][1],
                    "long_shot_hits_monsters": self.long["monster"][0],
                    "long_shot_damage_monsters": self.long["monster"][1]}

    return ProbeFight


_CLASS: list[type] = []


class ProbeSimulator(EngineSimulator):
    """The engine's simulator with the long-shot fields added to every row."""

    def fight(self, prepared: Any, rules: RuleSet, seed: int) -> dict:
        if not _CLASS:
            _CLASS.append(_fight_class())
        f = _CLASS[0](prepared, rules, seed, False)
        row = f.run().record.as_row()
        row.update(f.finish_probe())
        return row

    def schema(self) -> dict[str, str]:
        return {**super().schema(), **dict.fromkeys(PROBE_FIELDS, "int64")}
