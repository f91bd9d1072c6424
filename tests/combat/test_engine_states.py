"""Focused tests of the 3.5 states and rules the engine applies at the edges: disabled and staggered creatures,
the coup de grace, durations measured from the turn that started them, stunned and helpless defenders, rend
through damage reduction, who a melee creature can reach, and how rays are counted."""

from __future__ import annotations

import pytest
from fight_scripting import SWORD, Script, make_fight, stat_block

from arena.combat import clock
from arena.combat.attacks import attack_routine, coup_de_grace, swing_at
from arena.combat.casting import cast
from arena.combat.conditions import add_condition
from arena.combat.damage import deal
from arena.combat.engine import HELPLESS_AC, STUNNED_AC, fight, prepare
from arena.combat.model import ModelOptions
from arena.combat.states import refresh
from arena.combat.tactics import POLICIES, attack_policy
from arena.rules import RuleSet
from arena.world.bestiary import get_creature
from arena.world.creatures import Creature
from arena.world.party import generate_party

SLASHING = frozenset({"slashing"})
RUTHLESS = ModelOptions(coup_de_grace="ruthless")
"""A creature that finishes a helpless foe whenever it can (the model's ``coup_de_grace`` tactic)."""


def creature(
    name: str, side: str = "monster", hp: int = 30, ac: int = 12, attack: dict | None = None, **extra
) -> Creature:
    """A humanoid whose sword has an iterative attack, flat-footed 2 below its AC."""
    return stat_block(name, side, hp, ac, attack or {**SWORD, "bonuses": [5, 0]}, flat_footed_ac=ac - 2, **extra)


def attacks_by(spy, actor) -> list:
    return [check for check, who, _ in spy if who is actor and check.kind == "attack"]


# ------------------------------------------------------------------------------------------ disabled, staggered
def test_disabled_at_zero_takes_one_standard_action_then_is_dying(spy):
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc", hp=500, ac=5)])
    hero, orc = f.pcs[0], f.monsters[0]
    deal(f, orc, hero, 10, SLASHING)
    assert hero.hp == 0 and hero.state() == "disabled" and hero.is_able and not hero.dying()
    assert f.able_count["pc"] == 1  # a disabled creature can act: the fight goes on
    f.round = 3  # a full attack would be allowed: two swings
    f.turn(hero)
    assert len(attacks_by(spy, hero)) == 1  # one standard action only
    assert hero.hp == -1 and hero.dying() and not hero.is_able and f.able_count["pc"] == 0
    assert any("strains its wounds" in line for line in f.lines)


def test_a_disabled_caster_healing_itself_does_not_strain():
    cleric = generate_party(5)[1]
    f = make_fight([cleric], [creature("orc")])
    c = f.pcs[0]
    deal(f, f.monsters[0], c, c.hp, SLASHING)
    assert c.hp == 0 and c.is_able
    f.round = 2
    f.turn(c)  # the caster policy cures the ally below half: itself
    assert c.hp > 0 and not c.dying()


def test_a_staggered_troll_makes_one_attack_and_no_rend(spy):
    fighter = generate_party(5)[0]
    f = make_fight([fighter], [get_creature("troll")])
    pc, troll = f.pcs[0], f.monsters[0]
    deal(f, pc, troll, troll.hp + 5, SLASHING, SLASHING, weapon=True)  # regenerates 5 at its turn: staggered
    f.round = 3
    f.turn(troll)
    assert troll.state() == "staggered" and troll.is_able
    assert len(attacks_by(spy, troll)) == 1
    assert not any("rends" in line for line in f.lines)
    g = make_fight([generate_party(5)[0]], [get_creature("troll")])
    g.round = 3
    g.turn(g.monsters[0])
    assert len(attacks_by(spy, g.monsters[0])) == 3  # unhurt: claw, claw, bite


# ------------------------------------------------------------------------------------------ coup de grace
def knocked_out_troll(attack: dict):
    f = make_fight([creature("hero", side="pc", attack=attack)], [get_creature("troll")])
    hero, troll = f.pcs[0], f.monsters[0]
    deal(f, hero, troll, troll.hp + 20, SLASHING, SLASHING, weapon=True)
    assert not troll.is_able and not troll.dead
    return f, hero, troll


def test_a_coup_de_grace_with_a_sword_cannot_kill_a_regenerating_troll(spy):
    sword = {"name": "sword", "bonuses": [5], "damage": "1d8+50", "damage_types": ["slashing"]}
    f, hero, troll = knocked_out_troll(sword)
    for _ in range(5):
        coup_de_grace(f, hero, troll)
    assert not troll.dead and troll.hp == troll.max_hp
    assert not any(check.kind == "save" for check, _, _ in spy)  # no death save: the blow was nonlethal
    assert attack_policy(f.view, hero).kind == "none"  # so the policy does not spend turns on it


def test_a_coup_de_grace_with_fire_can_kill_a_troll():
    torch = {"name": "torch", "bonuses": [5], "damage": "1d1+60", "damage_types": ["fire"]}
    f, hero, troll = knocked_out_troll(torch)
    action = attack_policy(f.view, hero)
    assert action.kind == "coup" and action.target is troll
    coup_de_grace(f, hero, troll)
    assert troll.dead  # 120 fire: below -10 either way


def test_no_coup_de_grace_against_creatures_immune_to_critical_hits():
    f = make_fight([creature("hero", side="pc")], [get_creature("human-warrior-skeleton"), creature("orc")])
    hero, skeleton, orc = f.pcs[0], f.monsters[0], f.monsters[1]
    add_condition(f, skeleton, "held", 60.0, dc=30)
    assert not skeleton.is_able
    action = attack_policy(f.view, hero)
    assert action.kind == "attack" and action.target is orc
    coup_de_grace(f, hero, skeleton)
    assert skeleton.hp == skeleton.max_hp and hero.tally.coups_de_grace == 0


# ------------------------------------------------------------------------------------------ durations
def stun_one_round(caster_acts_first: bool):
    """A 6-HD brute (5+ HD: color spray stuns it 1 round) and a wizard, the wizard first or second in the round."""
    wizard = generate_party(5)[3]
    f = make_fight([wizard], [creature("brute", hp=500, hit_dice="6d8")])
    wiz, ogre = f.pcs[0], f.monsters[0]
    wiz.offset, ogre.offset = (0.0, 0.5) if caster_acts_first else (0.5, 0.0)
    f.instant = f.env.now + wiz.offset  # the wizard's turn in round 1
    Script(f, [(1, 20)])  # the ogre's Will save: a natural 1 fails
    cast(f, wiz, "color spray", 1, [ogre])
    assert "stunned" in ogre.conditions
    return f, ogre


@pytest.mark.parametrize("caster_acts_first", [True, False])
def test_a_one_round_stun_costs_exactly_one_turn_whoever_acts_first(spy, caster_acts_first):
    f, ogre = stun_one_round(caster_acts_first)
    f.round = 1
    turns = [0.0, 6.0, 12.0] if caster_acts_first else [6.0, 12.0, 18.0]  # its turns after the casting
    lost = []
    for at in turns:
        f.env.run(until=at) if at > f.env.now else None
        before = len(attacks_by(spy, ogre))
        Script(f, [0.5] * 20)
        f.turn(ogre)
        lost.append(len(attacks_by(spy, ogre)) == before)
        f.round += 1
    assert lost == [True, False, False]  # the next turn is lost, and only that one


def test_durations_run_from_the_caster_turn_to_the_same_point_later():
    wizard = generate_party(5)[3]
    f = make_fight([wizard], [get_creature("ogre")])
    wiz, ogre = f.pcs[0], f.monsters[0]
    wiz.offset, ogre.offset = 0.5, 0.25
    f.instant = wiz.offset
    add_condition(f, ogre, "held", 3 * clock.ROUND, dc=99)
    assert ogre.conditions["held"][0] == 3 * clock.ROUND + 0.5


# ------------------------------------------------------------------------------------------ defenders
@pytest.mark.parametrize("helpless_ac", ["dex-zero", "flat-footed"])
def test_a_stunned_defender_is_flat_footed_minus_two_and_a_helpless_one_minus_four_in_melee_only(spy, helpless_ac):
    """SRD: stunned, -2 AC and no Dex bonus; helpless, Dexterity 0 (-5; the ``flat-footed`` option: flat-footed
    AC) and +4 for melee attackers only."""
    archer = creature(
        "archer",
        side="pc",
        attack={"name": "bow", "bonuses": [5], "damage": "1d6", "damage_types": ["piercing"], "kind": "ranged"},
    )
    f = make_fight(
        [creature("hero", side="pc"), archer], [creature("orc", ac=16)], model=ModelOptions(helpless_ac=helpless_ac)
    )
    hero, archer, orc = f.pcs[0], f.pcs[1], f.monsters[0]
    orc.acted = True
    Script(f, [0.0] * 12)
    add_condition(f, orc, "stunned", 60.0)
    swing_at(f, hero, orc, hero.t.standard[0], 5)
    add_condition(f, orc, "held", 60.0, dc=99)
    swing_at(f, hero, orc, hero.t.standard[0], 5)
    swing_at(f, archer, orc, archer.t.standard[0], 5)
    targets = [check.target for check, who, _ in spy if check.kind == "attack"]
    ff = orc.t.ff_ac
    helpless = ff - 5 if helpless_ac == "dex-zero" else ff  # the orc's Dex modifier is 0
    assert targets == [ff + STUNNED_AC, helpless + HELPLESS_AC, helpless]


def test_rend_goes_through_damage_reduction_its_claws_overcome():
    """Rend deals the claws' damage: a creature whose damage reduction slashing overcomes takes it in full."""
    troll = get_creature("troll")
    victim = creature("victim", side="pc", hp=500, ac=1, damage_reduction="5/slashing")
    f = make_fight([victim], [troll])
    t, v = f.monsters[0], f.pcs[0]
    Script(f, [0.99] * 40)
    attack_routine(f, t, v, t.t.full, True)
    rend = [line for line in f.lines if "rends" in line]
    assert rend
    taken = [line for line in f.lines if line.startswith("[r0] victim takes")]
    assert len(taken) == 4  # claw, claw, bite and the rend, none stopped


# ------------------------------------------------------------------------------------------ reach
def test_melee_creatures_reach_the_wizard_only_when_nobody_else_fights_in_melee():
    party = generate_party(5)
    f = make_fight(party, [get_creature("ogre")])
    ogre = f.monsters[0]
    wizard = next(c for c in f.pcs if c.name.startswith("wizard"))
    assert wizard.ranged and not ogre.ranged
    for c in f.pcs:  # the wizard is the weakest: focus-weakest would pick it if it could
        if c is not wizard:
            c.hp = c.max_hp
    wizard.hp = 1
    in_melee = [c for c in f.pcs if not c.ranged]
    assert [c.name for c in in_melee] == ["fighter-5", "cleric-5", "rogue-5"]  # the wizard stands back and shoots
    assert f.view.reachable(ogre) == in_melee
    assert POLICIES[ogre.policy](f.view, ogre).target is not wizard
    for c in in_melee:
        deal(f, ogre, c, 500, SLASHING)
    assert f.view.reachable(ogre) == [c for c in f.pcs if c.ranged]
    assert POLICIES[ogre.policy](f.view, ogre).target is wizard


def test_ranged_attackers_and_spells_reach_anyone():
    party = generate_party(5)
    f = make_fight(party, [get_creature("ogre"), get_creature("ogre")])
    wizard = next(c for c in f.pcs if c.name.startswith("wizard"))
    assert f.view.reachable(wizard) == f.monsters
    ogre_archer = f.monsters[0]
    ogre_archer.ranged = True
    assert f.view.reachable(f.monsters[1]) == [c for c in f.pcs if not c.ranged]
    assert f.view.reachable(ogre_archer) == f.pcs


# ------------------------------------------------------------------------------------------ rays and the record
def test_rays_are_counted_like_any_attack():
    """Scorching rays and searing light are attack rolls: in the attacks, hits, histogram and lucky hits."""
    party = generate_party(7)
    encounter = prepare(party, [(get_creature("troll"), 2)])
    rules = RuleSet.from_key("d20")
    rays = 0
    for seed in range(30):
        result = fight(encounter, rules, seed, log=True)
        tally = result.record.party
        assert sum(tally.hist) == tally.hits
        rays += sum(" ray +" in line for line in result.log)
        names = {c.name for c in party}
        rolls = [line for line in result.log if " vs " in line and line.split("] ", 1)[1].split(" ", 1)[0] in names]
        assert tally.attacks == len(rolls)  # one log line per attack roll, rays included
        assert tally.hits == sum(" - miss" not in line for line in rolls)
    assert rays > 0


def test_a_chance_of_one_half_falls_in_the_fifth_tenth():
    f = make_fight(
        [
            creature(
                "hero",
                side="pc",
                attack={"name": "sword", "bonuses": [0], "damage": "1d6", "damage_types": ["slashing"]},
            )
        ],
        [creature("orc", ac=11, hp=500)],
    )
    hero, orc = f.pcs[0], f.monsters[0]
    orc.acted = True
    orc.t.ff_ac = 11
    Script(f, [(15, 20), 0.5])
    assert swing_at(f, hero, orc, hero.t.standard[0], 0)
    assert f.last_plan.success_probability() == pytest.approx(0.5)
    assert hero.tally.hist[5] == 1 and sum(hero.tally.hist) == 1


def test_cure_against_undead_checks_spell_resistance(spy):
    cleric = generate_party(5)[1]
    undead = creature("wight", type="undead", spell_resistance=30, hp=60)
    f = make_fight([cleric], [undead])
    c, wight = f.pcs[0], f.monsters[0]
    Script(f, [0.0] * 10)
    cast(f, c, "cure light wounds", 1, [wight])
    kinds = [check.kind for check, _, _ in spy]
    assert kinds == ["caster-level"] and wight.hp == 60  # resisted: no save, no damage


def test_a_staggered_creature_cannot_deliver_a_coup_de_grace(spy):
    """A coup de grace is a full-round action: with one standard action the troll attacks an able enemy."""
    f = make_fight(
        [creature("held", side="pc"), creature("able", side="pc")], [get_creature("troll")], model=RUTHLESS
    )  # a ruthless troll (the tactic is not what is tested)
    held, able, troll = f.pcs[0], f.pcs[1], f.monsters[0]
    add_condition(f, held, "held", 60.0, dc=99)
    assert attack_policy(f.view, troll).kind == "coup"
    deal(f, able, troll, troll.hp + 5, SLASHING, SLASHING, weapon=True)
    f.round = 3
    able.acted = True
    f.turn(troll)
    assert troll.state() == "staggered" and troll.tally.coups_de_grace == 0
    assert [check.target for check in attacks_by(spy, troll)] == [able.t.ac]


def test_a_creature_straining_to_dying_counts_as_a_down_for_its_enemies():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc", hp=500, ac=5)])
    hero, orc = f.pcs[0], f.monsters[0]
    deal(f, orc, hero, 10, SLASHING)
    assert f.record.monsters.downs == 0  # disabled is not down
    f.round = 2
    f.turn(hero)
    assert hero.dying() and f.record.monsters.downs == 1 and f.record.party.downs == 0


def test_no_strain_without_a_strenuous_action():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")])
    hero = f.pcs[0]
    deal(f, f.monsters[0], hero, 10, SLASHING)
    f.monsters[0].hp = -5  # no enemy left to attack: nothing done, nothing strained
    refresh(f, f.monsters[0])
    f.turn(hero)
    assert hero.hp == 0 and not hero.dying()


@pytest.mark.parametrize("situation", ["prone", "round one"])
def test_no_coup_de_grace_after_a_move(situation):
    """A coup de grace takes the full round: not after standing up, not while closing in on round 1."""
    f = make_fight(
        [creature("held", side="pc"), creature("able", side="pc")], [creature("orc", hp=500)], model=RUTHLESS
    )  # a ruthless orc (the tactic is not what is tested)
    held, orc = f.pcs[0], f.monsters[0]
    add_condition(f, held, "held", 60.0, dc=99)
    assert attack_policy(f.view, orc).kind == "coup"
    f.round = 1 if situation == "round one" else 3
    orc.prone = situation == "prone"
    f.turn(orc)
    assert orc.tally.coups_de_grace == 0 and held.hp == held.max_hp
    assert orc.tally.attacks == 1


def test_a_condition_ends_at_its_time_for_everyone_who_acts_after(spy):
    """A stun that ends at the caster's turn no longer helps attackers acting before the stunned creature."""
    f = make_fight([creature("hero", side="pc"), creature("caster", side="pc")], [creature("orc", ac=16)])
    hero, caster, orc = f.pcs[0], f.pcs[1], f.monsters[0]
    hero.offset, caster.offset, orc.offset = 0.25, 0.0, 0.5
    orc.acted = True
    f.instant = caster.offset
    add_condition(f, orc, "stunned", clock.ROUND)  # ends at 6.0, the caster's next turn
    f.env.run(until=clock.ROUND)
    f.round = 2
    Script(f, [0.0] * 10)
    f.turn(hero)  # at 6.25, before the orc's own turn
    assert "stunned" not in orc.conditions
    targets = [check.target for check in attacks_by(spy, hero)]
    assert targets and set(targets) == {orc.t.ac}  # 16, not flat-footed 14 - 2


def test_state_of_a_creature_at_zero_with_nonlethal_damage_is_unconscious():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")])
    hero = f.pcs[0]
    hero.hp, hero.nonlethal = 0, 3
    refresh(f, hero)
    assert hero.state() == "unconscious (nonlethal)" and not hero.is_able
    assert f.view.helpless_enemies(f.monsters[0]) == [hero]
