"""The package root is what a notebook user needs: every export resolves, tab completion lists it, and a fight
and a run work through it alone (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

import arena

ROOT = Path(__file__).resolve().parents[1]


def test_every_export_resolves_and_is_listed():
    for name in arena.__all__:
        assert getattr(arena, name) is not None, name
    assert set(arena.__all__) <= set(dir(arena))
    assert {"run", "fight", "prepare", "RuleSet", "get_creature", "generate_party"} <= set(arena.__all__)


def test_a_fight_through_the_root_alone():
    encounter = arena.prepare(arena.generate_party(3), [(arena.get_creature("orc"), 2)])
    result = arena.fight(encounter, arena.RuleSet.from_key("3d6"), seed=1, log=True)
    assert result.record.winner in ("party", "monsters", "draw") and result.log
    assert callable(arena.fight) and not hasattr(arena.fight, "__path__")  # the function, not a package


def test_a_run_through_the_root_alone():
    frame = arena.run(ROOT / "scenarios" / "duel.yaml", n=10, seed=1)
    assert len(frame) == 20 and set(frame["rules"]) == {"d20", "3d6"}


def test_exact_odds_through_the_root():
    odds = arena.exact(arena.Check("attack", "monster", modifier=8, target=18), arena.RuleSet.from_key("d20"))
    assert (
        odds.probabilities["success"]
        == arena.exact(arena.Check("attack", "monster", modifier=8, target=18), arena.RuleSet()).probabilities[
            "success"
        ]
    )


def test_an_unknown_name_is_an_attribute_error():
    try:
        arena.nonexistent  # noqa: B018
    except AttributeError as err:
        assert "nonexistent" in str(err)
    else:
        raise AssertionError("arena.nonexistent should not exist")
