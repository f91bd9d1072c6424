"""The coup de grace (SRD 3.5 "Coup de Grace") under the model's ``coup-de-grace-rules`` fix, and the
``coup_de_grace`` tactic (which helpless foes a creature finishes).

SRD 3.5: "As a full-round action, you can use a melee weapon to deliver a coup de grace to a helpless opponent. ...
You automatically hit and score a critical hit. If the defender survives the damage, he must make a Fortitude save
(DC 10 + damage dealt) or die. ... Delivering a coup de grace provokes attacks of opportunity from threatening
opponents. You can't deliver a coup de grace against a creature that is immune to critical hits."

Each rule is checked with the fix in force and undone (``ModelOptions(undo={"coup-de-grace-rules"})``, the model
before it), so that each test fails if the fix is removed.
"""

from __future__ import annotations

import re

import pytest
from fight_scripting import SWORD, Script, make_fight, stat_block

from arena.combat.attacks import coup_de_grace
from arena.combat.conditions import add_condition
from arena.combat.engine import Fight, prepare
from arena.combat.model import FIXES, LEGACY, ModelOptions
from arena.combat.tactics import attack_policy
from arena.combat.tactics.view import coup_candidate, coup_style, coup_weapon
from arena.rules import RuleSet
from arena.world.bestiary import get_creature
from arena.world.party import generate_party

FIX = "coup-de-grace-rules"
OLD = ModelOptions(undo=frozenset({FIX}), coup_de_grace="ruthless")
"""The model before the fix and the option: a coup de grace whenever a helpless foe is in reach."""
RUTHLESS = ModelOptions(coup_de_grace="ruthless")
COUP = re.compile(r"delivers a coup de grace to \S+ for (-?\d+)")
HIGH = 1 - 1e-12
"""A draw that shows every die's top face (and fails no roll of the attacker's)."""


def held(f, creature) -> None:
    add_condition(f, creature, "held", 600.0, dc=99)
    assert not creature.is_able


def pseudodragon_fights(model: ModelOptions) -> list[int]:
    """The coups de grace (their logged damage) of the issue's fights: the level-5 party against four
    pseudodragons, seeds 1-6."""
    amounts = []
    for seed in range(1, 7):
        encounter = prepare(generate_party(5), [(get_creature("pseudodragon"), 4)], model=model)
        f = Fight(encounter, RuleSet.from_key("d20"), seed, log=True)
        f.run()
        amounts += [int(m.group(1)) for line in f.lines if (m := COUP.search(line))]
    return amounts


# ------------------------------------------------------------------------------------------ minimum damage
def test_no_coup_de_grace_for_less_than_one_point_in_the_pseudodragon_fights():
    """SRD 3.5 "Minimum Weapon Damage": "When you use a weapon that deals damage, you deal at least 1 point of
    damage even if penalties reduce the damage to less than 1." The issue's fights (``party: {level: 5}``,
    ``monsters: [pseudodragon:4]``, seeds 1-6) logged coups de grace "for -2", "for -1" and "for 0"."""
    old = pseudodragon_fights(OLD)
    assert min(old) < 1  # the bug, as the issue saw it
    new = pseudodragon_fights(RUTHLESS)
    assert new and min(new) >= 1


def test_a_coup_de_grace_deals_the_damage_a_critical_hit_would_with_the_creatures_damage_changes():
    """An automatic critical hit: the weapon's dice times its multiplier plus what changes the creature's damage
    rolls (here +3, as a rage's Strength), at least 1. The old model rolled the dice alone."""
    axe = {"name": "axe", "bonuses": [5], "damage": "1d1+4", "damage_types": ["slashing"], "multiplier": 3}
    for model, expected in ((RUTHLESS, 3 * 5 + 3), (OLD, 3 * 5)):
        f = make_fight([stat_block("hero", side="pc", hp=200)], [stat_block("brute", attack=axe)], model=model)
        hero, brute = f.pcs[0], f.monsters[0]
        brute.damage_bonus = 3
        held(f, hero)
        Script(f, [HIGH] * 4)  # the Fortitude save: a natural 20
        coup_de_grace(f, brute, hero)
        assert hero.max_hp - hero.hp == expected, model


def test_a_weak_creature_deals_at_least_one_point_and_logs_what_it_deals():
    """1d4-3 twice, both dice at 1: -4, below 1: the coup de grace deals 1 and says so (the old log said "for -4",
    while 1 was dealt)."""
    pin = {"name": "pin", "bonuses": [5], "damage": "1d4-3", "damage_types": ["piercing"]}
    for model, logged in ((RUTHLESS, "for 1"), (OLD, "for -4")):
        f = make_fight([stat_block("hero", side="pc")], [stat_block("imp", attack=pin)], model=model)
        hero, imp = f.pcs[0], f.monsters[0]
        held(f, hero)
        Script(f, [0.0, 0.0, HIGH])  # the two damage dice at 1, the save a natural 20
        coup_de_grace(f, imp, hero)
        assert hero.max_hp - hero.hp == 1
        assert any(line.endswith(logged) for line in f.lines), model


# ------------------------------------------------------------------------------------------ the weapon
def test_a_harmless_touch_cannot_deliver_a_coup_de_grace():
    """ "You can use a melee weapon to deliver a coup de grace": a shadow's touch deals no hit-point damage (only
    its Strength damage), so it cannot; the old model let it, for 1 point and a DC 11 save or death."""
    for model, delivers in ((RUTHLESS, False), (OLD, True)):
        f = make_fight([stat_block("hero", side="pc")], [get_creature("shadow")], model=model)
        hero, shadow = f.pcs[0], f.monsters[0]
        held(f, hero)
        assert coup_candidate(shadow, hero, srd=model.fixed(FIX)) is delivers
        assert (attack_policy(f.view, shadow).kind == "coup") is delivers
        before = hero.hp
        coup_de_grace(f, shadow, hero)
        assert (shadow.tally.coups_de_grace == 1) is delivers and (hero.hp < before) is delivers


def test_the_coup_de_grace_uses_the_weapon_whose_critical_hit_deals_most():
    """The pseudodragon's sting (1d3-2) and bite (1): the bite; the old model took the routine's first attack."""
    f = make_fight([stat_block("hero", side="pc")], [get_creature("pseudodragon")])
    dragon = f.monsters[0]
    assert coup_weapon(dragon).name == "bite"
    assert coup_weapon(dragon, srd=False).name == "sting"


def test_no_coup_de_grace_against_a_creature_immune_to_critical_hits():
    """ "You can't deliver a coup de grace against a creature that is immune to critical hits.\""""
    f = make_fight([stat_block("hero", side="pc")], [get_creature("human-warrior-skeleton")])
    hero, skeleton = f.pcs[0], f.monsters[0]
    held(f, skeleton)
    assert not coup_candidate(hero, skeleton)
    coup_de_grace(f, hero, skeleton)
    assert skeleton.hp == skeleton.max_hp and hero.tally.coups_de_grace == 0


# ------------------------------------------------------------------------------------------ attacks of opportunity
def test_a_coup_de_grace_provokes_an_attack_of_opportunity_from_each_threatening_foe(spy):
    """ "Delivering a coup de grace provokes attacks of opportunity from threatening opponents": every able foe in
    the melee with a melee weapon (the model has no squares), not one standing back to shoot; none under the old
    model."""
    crossbow = {"name": "crossbow", "bonuses": [5], "damage": "1d8", "damage_types": ["piercing"], "kind": "ranged"}
    for model, provoked in ((RUTHLESS, ["guard", "squire"]), (OLD, [])):
        party = [
            stat_block("victim", side="pc"),
            stat_block("guard", side="pc"),
            stat_block("squire", side="pc"),
            stat_block("archer", side="pc", attack=crossbow),
        ]
        f = make_fight(party, [stat_block("orc", hp=500, ac=5)], model=model)
        victim, orc = f.pcs[0], f.monsters[0]
        assert f.pcs[3].ranged
        for pc in f.pcs:
            pc.acted = True  # none is flat-footed
        held(f, victim)
        f.round = 2
        assert attack_policy(f.view, orc).kind == "coup"
        coup_de_grace(f, orc, victim)
        swings = [who.name for check, who, _ in spy if check.kind == "attack" and who.side == "pc"]
        assert swings == provoked, model
        assert orc.tally.aoo_provoked == len(provoked) and orc.tally.coups_de_grace == 1
        spy.clear()


def test_one_attack_of_opportunity_a_round(spy):
    """SRD: "You may make only one attack of opportunity per round": the guard answers the first of two coups de
    grace in a round, and the first of the next round."""
    f = make_fight(
        [
            stat_block("victim", side="pc", hp=500, saves={"fort": 99, "ref": 2, "will": 2}),
            stat_block("guard", side="pc"),
        ],
        [stat_block("orc", hp=500, ac=5), stat_block("gnoll", hp=500, ac=5)],
        model=RUTHLESS,
    )
    victim, guard = f.pcs
    guard.acted = True
    held(f, victim)
    f.round = 2
    for monster in f.monsters:
        coup_de_grace(f, monster, victim)
    f.round = 3
    coup_de_grace(f, f.monsters[0], victim)
    assert [check.kind for check, who, _ in spy if who is guard] == ["attack", "attack"]
    assert f.monsters[0].tally.aoo_provoked == 2  # the monsters' side's count


def test_a_flat_footed_foe_makes_no_attack_of_opportunity(spy):
    """SRD: a flat-footed creature "can't make attacks of opportunity" (the model's ``flat-footed-aoo`` fix)."""
    f = make_fight([stat_block("victim", side="pc"), stat_block("guard", side="pc")], [stat_block("orc")])
    held(f, f.pcs[0])
    coup_de_grace(f, f.monsters[0], f.pcs[0])  # the guard has not acted yet
    assert not any(who is f.pcs[1] for _, who, _ in spy)


def test_an_attack_of_opportunity_that_drops_the_deliverer_stops_the_coup_de_grace():
    """The guard's attack of opportunity drops the orc (1 hit point): the victim is untouched."""
    f = make_fight(
        [stat_block("victim", side="pc"), stat_block("guard", side="pc")],
        [stat_block("orc", hp=1, ac=5)],
        model=RUTHLESS,
    )
    victim, guard = f.pcs
    orc = f.monsters[0]
    guard.acted = True
    held(f, victim)
    Script(f, [(10, 20), HIGH])  # the guard's natural 10 hits AC 5, its damage die at 6
    coup_de_grace(f, orc, victim)
    assert not orc.is_able and victim.hp == victim.max_hp and orc.tally.coups_de_grace == 0
    assert any("cannot deliver its coup de grace" in line for line in f.lines)


def test_the_mummy_no_longer_finishes_the_paralysed_unpunished():
    """The issue's mummies (``party: {level: 5}``, ``monsters: [mummy:2]``, seed 5): despair paralyses the cleric
    and the rogue, and the mummies kill them beside the fighter; now the fighter's attack of opportunity answers
    the first coup de grace."""

    def lines(model: ModelOptions) -> list[str]:
        f = Fight(
            prepare(generate_party(5), [(get_creature("mummy"), 2)], model=model), RuleSet.from_key("d20"), 5, log=True
        )
        f.run()
        return f.lines

    old, new = lines(OLD), lines(ModelOptions())
    assert any("delivers a coup de grace" in line for line in old)
    assert not any("attack of opportunity" in line for line in old)
    assert any("coup de grace provokes an attack of opportunity from fighter-5" in line for line in new)


# ------------------------------------------------------------------------------------------ the tactic
@pytest.mark.parametrize(
    ("name", "style"),
    [
        ("mummy", "ruthless"),  # Int 6 undead
        ("succubus", "ruthless"),  # an evil outsider
        ("pseudodragon", "after-threats"),  # Int 10, not evil
        ("ogre", "after-threats"),  # Int 6, the model has no alignments
        ("wolf", "never"),  # animal intelligence
        ("human-warrior-skeleton", "never"),  # mindless
    ],
)
def test_by_creature_the_dm_default(name, style):
    """``coup_de_grace: by-creature``: an animal-intelligence or mindless creature does not execute a sleeping
    foe; an intelligent undead or evil outsider is ruthless; the rest fight those who threaten them first."""
    f = make_fight([stat_block("hero", side="pc")], [get_creature(name)])
    assert coup_style(f.monsters[0], "by-creature") == style
    assert coup_style(f.monsters[0], "never") == "never"  # the option, when it names one, decides
    assert coup_style(f.pcs[0], "by-creature") == "after-threats"  # a character fights the standing foes first


@pytest.mark.parametrize("option", ["ruthless", "after-threats", "never"])
def test_the_tactic_decides_when_a_helpless_foe_is_finished(option):
    """With an able fighter beside the held victim, ``ruthless`` finishes the victim, ``after-threats`` and
    ``never`` fight the fighter; with only an archer standing back (it threatens nobody), ``after-threats`` finishes
    the victim too."""
    crossbow = {"name": "crossbow", "bonuses": [5], "damage": "1d8", "damage_types": ["piercing"], "kind": "ranged"}
    model = ModelOptions(coup_de_grace=option)
    f = make_fight(
        [
            stat_block("victim", side="pc"),
            stat_block("fighter", side="pc"),
            stat_block("archer", side="pc", attack=crossbow),
        ],
        [stat_block("orc", attack=SWORD)],
        model=model,
    )
    victim, fighter, _ = f.pcs
    orc = f.monsters[0]
    held(f, victim)
    assert (attack_policy(f.view, orc).kind == "coup") is (option == "ruthless")
    held(f, fighter)
    assert (attack_policy(f.view, orc).kind == "coup") is (option != "never")


def test_the_old_model_is_one_setting_away():
    """LEGACY fights as before the fix: ruthless, with the fix undone."""
    assert FIX in FIXES and FIX in LEGACY.undo and LEGACY.coup_de_grace == "ruthless"
    assert ModelOptions().coup_de_grace == "by-creature" and ModelOptions().fixed(FIX)
