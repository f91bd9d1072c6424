"""The special actions a creature's policy chooses before its weapons (the ``choose_action`` moment of
arena/combat/ability_hooks.py): a breath weapon, a web, a trample, each a module of arena/abilities/. Their order,
the kinds of action they add to those a policy may return, the guard's check of a user's, and the strain of a
disabled creature, as they were before they were modules."""

from __future__ import annotations

import pytest
from fight_scripting import beast, make_fight, stat_block

from arena.abilities.breath import READY_AT, choose_breath
from arena.abilities.trample import choose_trample
from arena.abilities.web import THROWN, choose_web, web_action
from arena.combat.abilities import state_of
from arena.combat.ability_hooks import ACTIONS, FightAbility, add_fight_ability
from arena.combat.actions import CORE_KINDS, Action, action_kinds
from arena.combat.clock import ROUND
from arena.combat.damage import deal
from arena.combat.tactics import attack_policy
from arena.combat.tactics.policy_guard import PolicyError, guarded

BREATH = {"shape": "cone", "length_ft": 30, "damage": "2d6", "damage_type": "fire", "dc": 12}
EFFECT = {"shape": "cone", "length_ft": 30, "effect": "sleep", "dc": 12}
TRAMPLE = {"damage": "2d6", "dc": 14}
BLUDGEONING = frozenset({"bludgeoning"})


def two_knights():
    return [stat_block(f"knight{i}", side="pc", hp=200) for i in range(2)]


def test_a_creature_asks_its_special_actions_in_the_old_order_and_a_breath_once_for_both_fields():
    monster = beast("all", breath_weapon=BREATH, breath_effect=EFFECT, web={"burst_dc": 14}, trample=TRAMPLE)
    f = make_fight(two_knights(), [monster, beast("plain")])
    everything, plain = (m.t for m in f.monsters)
    assert everything.special_action and everything.choose_action_hooks == (choose_breath, choose_web, choose_trample)
    assert not plain.special_action and plain.choose_action_hooks == ()


def test_a_breath_that_is_recharging_gives_way_to_a_web_then_a_trample_then_the_weapons():
    monster = beast("all", breath_weapon=BREATH, web={"burst_dc": 14, "uses": 1}, trample=TRAMPLE)
    f = make_fight(two_knights(), [monster])
    m, knights = f.monsters[0], f.pcs
    f.round = 2
    breath = attack_policy(f.view, m)
    assert breath.kind == "breath" and breath.targets == knights
    state_of(m)[READY_AT] = f.now() + ROUND  # it breathed: recharging
    web = attack_policy(f.view, m)
    assert web.kind == "web" and web.target is knights[0]
    state_of(m)[THROWN] = 1  # its one web thrown
    trample = attack_policy(f.view, m)
    assert trample.kind == "trample" and trample.targets == knights
    deal(f, m, knights[1], 300, BLUDGEONING)  # one smaller foe left: no trample (it runs over two or more)
    attack = attack_policy(f.view, m)
    assert attack.kind == "attack" and attack.target is knights[0]


def test_the_abilities_kinds_join_the_kinds_a_policy_may_return():
    kinds = action_kinds()
    assert kinds > CORE_KINDS and {"breath", "web", "trample"} <= kinds
    assert (ACTIONS["breath"].strains, ACTIONS["web"].strains, ACTIONS["trample"].strains) == (True, False, False)


def test_a_special_action_needs_its_kind_its_choice_and_its_act_and_a_kind_of_its_own():
    with pytest.raises(ValueError, match="needs its kind, its choose_action and its act"):
        add_fight_ability(FightAbility("toy_howl", action="howl", act=web_action))
    with pytest.raises(ValueError, match="the action 'breath' is another ability's"):
        add_fight_ability(FightAbility("toy_howl", choose_action=choose_web, action="breath", act=web_action))
    assert "howl" not in action_kinds()


@pytest.mark.parametrize(
    ("ability", "logged", "strains"),
    [
        ({"breath_weapon": BREATH}, "disabled breathes fire", True),
        ({"breath_effect": EFFECT}, "disabled breathes sleep gas", True),
        ({"web": {"burst_dc": 14}}, "disabled throws a web", True),  # the fix "disabled-strain" (issue 24)
        ({"trample": TRAMPLE}, "disabled tramples", True),  # the fix "disabled-strain" (issue 24)
    ],
)
def test_a_disabled_creature_strains_when_it_breathes_webs_or_tramples(ability, logged, strains):
    """SRD 3.5 Disabled: a strenuous standard action costs it a hit point. The engine strained a disabled creature
    for its breath weapon, not for a web or a trample, until the fix ``disabled-strain`` (a web and a trample are
    standard actions; undone in tests/abilities/test_gaze_web_tactics.py)."""
    f = make_fight(two_knights(), [beast("disabled", **ability)])
    m = f.monsters[0]
    deal(f, f.pcs[0], m, m.hp, BLUDGEONING)
    assert m.hp == 0 and m.is_able
    f.round = 2
    f.turn(m)
    assert any(f"] {logged}" in line for line in f.lines)
    assert (m.hp, m.dying()) == ((-1, True) if strains else (0, False))


def test_the_guard_lets_a_user_breathe_when_the_breath_is_ready_and_not_before():
    f = make_fight(two_knights(), [beast("drake", breath_weapon=BREATH)])
    m = f.monsters[0]
    policy = guarded("mine", lambda view, creature: Action("breath", targets=view.enemies(creature)))
    assert policy(f.view, m).kind == "breath"
    state_of(m)[READY_AT] = f.now() + ROUND
    with pytest.raises(PolicyError, match="breathed without a breath weapon ready"):
        policy(f.view, m)
