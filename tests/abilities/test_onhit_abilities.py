"""The abilities of a hit and the hold (arena/abilities/grab.py, swallow_whole.py, paralysis.py, poison.py,
ability_damage.py, energy_drain.py, burn.py, petrification.py, slow.py, instability.py) keep the places they had
before they were modules: a hit's riders run in one order, the grapple's turn is improved grab's, the fields sit
where a written stat block has them and the importer reads them in its old order. What each does is tested in
tests/combat (scripted dice, seeded fights) and tests/srd (their SRD sentences).
"""

from __future__ import annotations

import pytest
from fight_scripting import beast

from arena.abilities import (
    ability_damage,
    burn,
    energy_drain,
    grab,
    instability,
    paralysis,
    petrification,
    poison,
    slow,
    swallow_whole,
)
from arena.combat.template import Template
from arena.srd.effects import Ability, rules
from arena.world.creatures import Creature

EVERY_RIDER = {
    "improved_grab": {"attack": "bite", "constrict": "1d6"},
    "paralysis": {"attack": "bite", "dc": 14},
    "slow_on_hit": {"attack": "bite", "dc": 14},
    "instability": {"attack": "bite", "dc": 14},
    "petrification": {"attack": "bite", "dc": 14},
    "poison": {"attack": "bite", "dc": 14, "initial": {"dice": "1d4", "ability": "str"}},
    "ability_damage": {"attack": "bite", "loss": {"dice": "1d4", "ability": "str"}},
    "energy_drain": {"attack": "bite"},
    "burn": {"attack": "bite", "dc": 14},
}


def test_a_hit_s_riders_run_in_their_old_order():
    """after_hit ran them in this order: grab, paralysis, slow, instability, petrification, poison, ability damage,
    energy drain, burn (a grab's free check before a paralysis's save, and so on)."""
    t = Template(beast(swallow_whole={"damage": "2d6"}, **EVERY_RIDER), "beast")
    assert t.on_hit_hooks == (
        grab.grab_on_hit,
        paralysis.paralysis_on_hit,
        slow.slow_on_hit,
        instability.instability_on_hit,
        petrification.petrification_on_hit,
        poison.poison_on_hit,
        ability_damage.ability_damage_on_hit,
        energy_drain.energy_drain_on_hit,
        burn.burn_on_hit,
    )
    assert t.grip_turn_hook is grab.grip_turn
    assert set(t.ability_data) == set(EVERY_RIDER) | {"swallow_whole"}
    hold, inside = t.ability_data["improved_grab"], t.ability_data["swallow_whole"]
    assert isinstance(hold, grab.Hold) and hold.constrict is not None  # compiled once: constrict's dice parsed
    assert isinstance(inside, swallow_whole.Inside) and inside.types == frozenset({"bludgeoning"})
    assert [a.rider for a in t.full] == [True, False]  # the bite carries them, the claws do not


@pytest.mark.parametrize("field", sorted(EVERY_RIDER))
def test_each_rider_marks_its_attack_alone(field):
    t = Template(beast(**{field: {**EVERY_RIDER[field], "attack": "claw"}}), "beast")
    assert [a.rider for a in t.full] == [False, True]
    assert len(t.on_hit_hooks) == 1


def test_a_paralysis_of_a_held_foe_rides_on_no_hit():
    """The chuul's paralysis acts in the hold (grab.holding_turn), not on a hit: no attack carries it."""
    held = {"attack": "bite", "dc": 14, "on": "held"}
    t = Template(beast(improved_grab={"attack": "claw"}, paralysis=held), "beast")
    assert [a.rider for a in t.full] == [False, True]  # the claw grabs; the bite carries nothing
    plain = Template(beast(), "beast")
    assert plain.on_hit_hooks == () and plain.grip_turn_hook is None and plain.ability_data == {}
    assert not any(a.rider for a in plain.full)


def test_the_fields_keep_their_places_in_a_written_stat_block():
    names = list(Creature.model_fields)
    for run in (
        ["ferocity", "improved_grab", "frightful_presence", "paralysis", "poison", "ability_damage", "energy_drain"],
        ["rage_strength", "burn", "gaze", "swallow_whole", "web"],
        ["smite", "petrification", "glance", "slow_on_hit", "engulf", "instability"],
    ):
        at = names.index(run[0])
        assert names[at : at + len(run)] == run


def test_the_importer_reads_them_in_their_old_order():
    """Each reading runs right after the rule it followed in the importer's table, those after a step over several
    abilities (the rays) too."""
    keys = [rule.key if isinstance(rule, Ability) else None for rule in rules()]
    for run in (
        ["improved grab", "constrict", "frightful presence", "paralysis", "poison", "energy drain", "burn"],
        ["web", "ability damage", "ability drain", "rake", "rage", "heat", "swallow whole"],
        ["bay", "attach", "fear aura", "blood drain", "slow", "quickness", "engulf", "acid sting"],
        ["greater invisibility", "corporeal instability", "pipes", "invisible in light", "petrification"],
    ):
        at = keys.index(run[0])
        assert keys[at : at + len(run)] == run
    only_ignored = {r.key for r in rules() if isinstance(r, Ability) and r.only_ignored}
    assert {"attach", "blood drain", "slow", "acid sting", "corporeal instability", "petrification"} <= only_ignored
    assert not {"improved grab", "paralysis", "poison", "burn", "heat", "swallow whole"} & only_ignored
