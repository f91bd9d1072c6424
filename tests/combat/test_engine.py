"""The encounter engine: determinism, nothing carried over, stat-block numbers, and one focused test per rule."""

from __future__ import annotations

import re

import pytest
from fight_scripting import Script, make_fight
from fight_scripting import stat_block as creature

from arena.abilities.breath import breathe
from arena.combat import clock, spells
from arena.combat.attacks import attack_routine, swing_at
from arena.combat.casting import cast
from arena.combat.damage import deal
from arena.combat.engine import DEAD_AT, Fight, fight, prepare
from arena.combat.model import ModelOptions
from arena.combat.states import dying, heal
from arena.combat.tactics import TacticsSettings
from arena.rules import RuleSet, exact
from arena.world.bestiary import get_creature
from arena.world.creatures import Creature
from arena.world.party import generate_party

SLASHING = frozenset({"slashing"})
BLUDGEONING = frozenset({"bludgeoning"})
FIRE = frozenset({"fire"})
ACID = frozenset({"acid"})
COLD = frozenset({"cold"})


def mixed_encounter(level: int = 5, die: str = "d20", cap: int = 50):
    groups = [(get_creature("ogre"), 2), (get_creature("troll"), 1), (get_creature("human-warrior-skeleton"), 2)]
    return prepare(generate_party(level, die), groups, round_cap=cap)


RULE_SETS = ["d20", "3d6", "d20+prad", "3d6+prad+luck+open", "d20+var+open", "3d6+prad+var", "fixed10+prad"]


# ------------------------------------------------------------------------------------------ determinism
@pytest.mark.parametrize("key", RULE_SETS)
def test_same_seed_same_rules_give_the_same_record_and_log(key):
    rules = RuleSet.from_key(key)
    die = "3d6" if key.startswith("3d6") else "d20"
    first = fight(mixed_encounter(die=die), rules, 42, log=True)
    again = fight(mixed_encounter(die=die), rules, 42, log=True)
    assert first.record.as_row() == again.record.as_row()
    assert first.log == again.log and len(first.log) > 10
    other = fight(mixed_encounter(die=die), rules, 43, log=True)
    if key != "fixed10+prad":  # fixed10 still rolls damage: another seed gives another fight
        assert other.log != first.log


def test_logging_does_not_change_the_fight():
    rules = RuleSet.from_key("3d6+prad+luck+open")
    encounter = mixed_encounter(die="3d6")
    for seed in range(20):
        assert fight(encounter, rules, seed).record.as_row() == fight(encounter, rules, seed, log=True).record.as_row()


@pytest.mark.parametrize("key", ["3d6+prad+luck+open+called", "d20+var+called"])
def test_deciding_players_are_deterministic_too(key):
    """Pressing luck and calling shots when better: the decisions are part of the seeded fight."""
    rules = RuleSet.from_key(key)
    clever = TacticsSettings(press_luck="when-better", called_shot="when-better")
    die = "3d6" if key.startswith("3d6") else "d20"
    groups = [(get_creature("ogre"), 2), (get_creature("troll"), 1)]
    for seed in (1, 2):
        runs = [
            fight(
                prepare(generate_party(5, die), groups, party_tactics=clever, monster_tactics=clever),
                rules,
                seed,
                log=True,
            )
            for _ in range(2)
        ]
        assert runs[0].record.as_row() == runs[1].record.as_row() and runs[0].log == runs[1].log


# ------------------------------------------------------------------------------------------ nothing carries over
@pytest.mark.parametrize("key", ["d20", "3d6+prad+luck+open+called", "d20+open"])
def test_the_fight_keeps_its_running_counts_current(key):
    """The engine keeps who can act, and who of them fights in melee, as running counts (the end of the fight,
    shooting into melee and flanking read them): at the end of every fight they match a recount."""
    encounter = mixed_encounter(die=RuleSet.from_key(key).die)
    for seed in range(40):
        f = Fight(encounter, RuleSet.from_key(key), seed, log=False)
        f.run()
        for side, group in (("pc", f.pcs), ("monster", f.monsters)):
            assert all(c.is_able == c.able() for c in group)
            assert f.able_count[side] == sum(c.able() for c in group)
            assert f.melee_count[side] == sum(c.able() and not c.ranged for c in group)


@pytest.mark.parametrize("key", ["d20", "3d6+prad+luck+open"])
def test_nothing_carries_over_between_encounters(key):
    rules = RuleSet.from_key(key)
    encounter = mixed_encounter(die=key[:3] if key.startswith("3d6") else "d20")
    a1 = fight(encounter, rules, 7, log=True)
    a2 = fight(encounter, rules, 7, log=True)
    b = fight(encounter, rules, 8, log=True)
    for seed in range(9, 30):  # many fights in between: spells cast, creatures killed
        fight(encounter, rules, seed)
    fight(encounter, RuleSet.from_key("d20+prad"), 7)
    a3 = fight(encounter, rules, 7, log=True)
    assert a1.record.as_row() == a2.record.as_row() == a3.record.as_row()
    assert a1.log == a2.log == a3.log
    assert b.log != a1.log


def test_a_fresh_fight_starts_from_the_stat_blocks():
    encounter = mixed_encounter()
    rules = RuleSet.from_key("d20")
    done = Fight(encounter, rules, 3, log=False)
    done.run()
    assert any(c.hp < c.max_hp for c in done.pcs + done.monsters)
    fresh = Fight(encounter, rules, 3, log=False)
    for c in fresh.pcs + fresh.monsters:
        assert (c.hp, c.nonlethal, c.dead, c.stable, c.prone, c.acted, c.conditions, c.attack_bonus, c.ac_bonus) == (
            c.max_hp,
            0,
            False,
            False,
            False,
            False,
            {},
            0,
            0,
        )
        assert (
            c.slots == {level: list(names) for level, names in c.t.creature.spellcasting.prepared.items()}
            if c.t.creature.spellcasting
            else c.slots == {}
        )


# ------------------------------------------------------------------------------------------ stat-block numbers
@pytest.mark.parametrize("key", ["d20", "3d6", "d20+prad"])
def test_a_monsters_attack_bonus_is_its_stat_blocks(spy, key):
    rules = RuleSet.from_key(key)
    encounter = prepare(generate_party(3), [(get_creature("ogre"), 2)], model=ModelOptions(flanking="never"))
    seen_logged = set()  # (flanking's +2 is held by tests/combat/test_model_fixes.py)
    for seed in range(15):
        result = fight(encounter, rules, seed, log=True)
        for line in result.log:
            m = re.search(r"ogre \d greatclub ([+-]\d+) vs", line)
            if m:
                seen_logged.add(int(m.group(1)))
    ogre_attacks = [check for check, actor, _ in spy if actor.t.creature.name == "ogre" and check.kind == "attack"]
    assert ogre_attacks
    assert {check.modifier for check in ogre_attacks} == {8}
    assert seen_logged == {8}


def test_a_pcs_attack_bonus_is_its_stat_blocks(spy):
    fighter = generate_party(5)[0]
    dummy = creature(
        "dummy",
        hp=500,
        ac=10,
        attack={"name": "slap", "bonuses": [0], "damage": "1d2", "damage_types": ["bludgeoning"]},
    )
    fight(prepare([fighter], [(dummy, 1)], round_cap=3), RuleSet.from_key("d20"), 1)
    bonuses = {check.modifier for check, actor, _ in spy if actor.side == "pc" and check.kind == "attack"}
    assert bonuses == set(fighter.full_attack[0][0].bonuses) | {fighter.attack[0][0].bonuses[0]}


# ------------------------------------------------------------------------------------------ regeneration and fire
def troll_fight(**options):
    fighter = generate_party(5)[0]
    f = make_fight([fighter], [get_creature("troll")], **options)
    return f, f.pcs[0], f.monsters[0]


def test_regeneration_makes_weapon_damage_nonlethal_and_fire_lethal():
    f, pc, troll = troll_fight()
    assert deal(f, pc, troll, 20, SLASHING, SLASHING, weapon=True) == 20
    assert (troll.hp, troll.nonlethal) == (63, 20)
    deal(f, pc, troll, 7, BLUDGEONING, BLUDGEONING, weapon=True)
    assert (troll.hp, troll.nonlethal) == (63, 27)
    deal(f, pc, troll, 10, FIRE)
    assert (troll.hp, troll.nonlethal) == (53, 27)
    deal(f, pc, troll, 3, ACID)
    assert (troll.hp, troll.nonlethal) == (50, 27)
    assert troll.is_able and not troll.dead


def test_nonlethal_beyond_hit_points_knocks_out_and_regeneration_heals_it_at_its_turn():
    f, pc, troll = troll_fight()
    deal(f, pc, troll, 63, SLASHING, SLASHING, weapon=True)  # equal: staggered, still able
    assert troll.state() == "staggered" and troll.is_able
    deal(f, pc, troll, 4, SLASHING, SLASHING, weapon=True)  # 67 > 63: unconscious
    assert troll.state() == "unconscious (nonlethal)" and not troll.is_able and not troll.dead
    assert f.able_count["monster"] == 0 and f.over()
    f.turn(troll)  # heals 5 first, then it can act again
    assert (troll.hp, troll.nonlethal) == (63, 62) and troll.is_able and f.able_count["monster"] == 1
    assert troll.acted


def test_a_knocked_out_troll_regenerates_without_acting():
    f, pc, troll = troll_fight()
    deal(f, pc, troll, 80, SLASHING, SLASHING, weapon=True)
    script = Script(f, [])  # still out after healing: nothing is rolled
    f.turn(troll)
    assert script.used_up and troll.nonlethal == 75 and not troll.is_able


def test_regeneration_does_not_heal_lethal_damage():
    f, pc, troll = troll_fight()
    deal(f, pc, troll, 30, FIRE)
    deal(f, pc, troll, 12, SLASHING, SLASHING, weapon=True)
    deal(f, pc, troll, 30, SLASHING, SLASHING, weapon=True)  # 42 nonlethal > 33 hp
    assert not troll.is_able
    f.turn(troll)
    assert (troll.hp, troll.nonlethal) == (33, 37)
    f.turn(troll)
    assert (troll.hp, troll.nonlethal) == (33, 32) and troll.is_able


def test_only_fire_or_acid_kills_a_troll():
    f, pc, troll = troll_fight()
    deal(f, pc, troll, 200, SLASHING, SLASHING, weapon=True)
    assert not troll.dead and troll.hp == 63
    deal(f, pc, troll, 73, FIRE)
    assert troll.dead


def test_a_fighter_alone_never_kills_a_troll():
    fighter = generate_party(8)[0]
    encounter = prepare([fighter], [(get_creature("troll"), 1)], round_cap=30)
    outcomes = [fight(encounter, RuleSet.from_key("d20"), seed).record for seed in range(30)]
    assert all(r.monsters_killed == 0 for r in outcomes)
    assert any(r.winner == "party" and r.monsters_down == 1 for r in outcomes)


# ------------------------------------------------------------------------------------------ damage reduction
def test_damage_reduction_stops_weapons_it_is_not_overcome_by():
    pc = creature("hero", side="pc")
    f = make_fight([pc], [get_creature("human-warrior-skeleton"), get_creature("human-warrior-skeleton")])
    hero, skel, skel2 = f.pcs[0], f.monsters[0], f.monsters[1]
    assert deal(f, hero, skel, 8, SLASHING, SLASHING, weapon=True) == 3
    assert skel.hp == 3
    assert deal(f, hero, skel, 5, SLASHING, SLASHING, weapon=True) == 0
    assert skel.hp == 3
    morningstar = frozenset({"bludgeoning", "piercing"})
    assert deal(f, hero, skel2, 4, morningstar, morningstar, weapon=True) == 4
    assert deal(f, hero, skel, 2, FIRE) == 2  # DR stops weapons only
    assert skel.hp == 1


def test_magic_weapons_overcome_damage_reduction_magic():
    magic_sword = {
        "name": "sword",
        "bonuses": [50],
        "damage": "1d1+9",
        "damage_types": ["slashing"],
        "materials": ["magic"],
    }
    plain_sword = {**magic_sword, "materials": []}
    beast = creature("beast", hp=100, damage_reduction="5/magic")
    for attack, dealt in ((magic_sword, 10), (plain_sword, 5)):
        f = make_fight([creature("hero", side="pc", attack=attack)], [beast])
        hero, target = f.pcs[0], f.monsters[0]
        Script(f, [(10, 20), (1, 1)])  # natural 10 hits; the 1d1 shows 1
        assert swing_at(f, hero, target, hero.t.standard[0], 50)
        assert target.hp == 100 - dealt


# ------------------------------------------------------------------------------------------ dying and stabilising
def test_dying_loses_one_hit_point_a_round_unless_it_stabilises():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")])
    hero, orc = f.pcs[0], f.monsters[0]
    deal(f, orc, hero, 11, SLASHING)
    assert hero.hp == -1 and hero.state() == "dying" and not hero.is_able and not hero.dead
    script = Script(f, [0.5, 0.99, 0.05])
    f.turn(hero)  # no stabilising: -2
    f.turn(hero)  # -3
    assert hero.hp == -3 and hero.dying()
    f.turn(hero)  # 0.05 < 10%: stable
    assert hero.hp == -3 and hero.stable and hero.state() == "stable" and script.used_up
    f.turn(hero)  # stable: nothing rolled, nothing lost
    assert hero.hp == -3
    deal(f, orc, hero, 2, SLASHING)  # damage starts the dying again
    assert hero.hp == -5 and hero.dying()


def test_dead_at_minus_ten():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")])
    hero, orc = f.pcs[0], f.monsters[0]
    deal(f, orc, hero, 19, SLASHING)
    assert hero.hp == -9 and not hero.dead
    Script(f, [0.5])
    f.turn(hero)
    assert hero.hp == DEAD_AT and hero.dead and hero.state() == "dead"
    g = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")])
    deal(g, g.monsters[0], g.pcs[0], 20, SLASHING)
    assert g.pcs[0].dead


def test_monsters_die_at_zero_when_asked_and_undead_always():
    f = make_fight([creature("hero", side="pc")], [creature("orc", hp=10)], monsters_die_at_zero=True)
    deal(f, f.pcs[0], f.monsters[0], 10, SLASHING)
    assert f.monsters[0].dead
    g = make_fight([creature("hero", side="pc")], [creature("orc", hp=10)])
    deal(g, g.pcs[0], g.monsters[0], 10, SLASHING)
    assert not g.monsters[0].dead
    h = make_fight([creature("hero", side="pc")], [get_creature("human-warrior-skeleton")])
    deal(h, h.pcs[0], h.monsters[0], 6, FIRE)
    assert h.monsters[0].dead


def test_stabilising_chance_is_ten_percent():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")], seed=5)
    hero = f.pcs[0]
    stabilised = 0
    trials = 4000
    for _ in range(trials):
        hero.hp, hero.stable = -1, False
        dying(f, hero)
        stabilised += hero.stable
    assert abs(stabilised / trials - 0.10) < 4.5 * (0.1 * 0.9 / trials) ** 0.5


def test_healing_a_dying_creature_stabilises_it():
    f = make_fight([creature("hero", side="pc", hp=10)], [creature("orc")])
    hero = f.pcs[0]
    deal(f, f.monsters[0], hero, 19, SLASHING)
    heal(f, hero, 3)
    assert hero.hp == -6
    Script(f, [0.5])
    f.turn(hero)
    assert hero.hp == -6 and hero.stable


# ------------------------------------------------------------------------------------------ criticals and sneak attack
ROGUE_RAPIER = {
    "name": "rapier",
    "bonuses": [30],
    "damage": "1d6+2",
    "damage_types": ["piercing"],
    "threat": 18,
    "multiplier": 3,
    "sneak_attack": "2d6",
    "extra_damage": "1d4",
    "extra_damage_type": "fire",
}


def rogue_fight(target: Creature):
    f = make_fight([creature("rogue", side="pc", attack=ROGUE_RAPIER)], [target])
    return f, f.pcs[0], f.monsters[0]


def test_a_critical_multiplies_weapon_damage_only_and_sneak_attack_dice_come_once():
    f, rogue, target = rogue_fight(creature("mark", hp=200, ac=15))
    assert not target.acted  # flat-footed: sneak attack applies
    # natural 19 threatens, confirm natural 12 hits; x3: three rolls of 1d6+2; sneak 2d6 once (one draw from its
    # table of 36 face pairs: 4 and 5); fire 1d4 once
    sneak_4_5 = ((4 - 1) * 6 + (5 - 1) + 0.5) / 36
    script = Script(f, [(19, 20), (12, 20), (1, 6), (2, 6), (3, 6), sneak_4_5, (2, 4)])
    assert swing_at(f, rogue, target, rogue.t.standard[0], 30)
    assert script.used_up
    assert target.hp == 200 - ((1 + 2) + (2 + 2) + (3 + 2) + (4 + 5) + 2)
    assert f.record.party.crits == 1


def test_no_sneak_attack_when_the_target_keeps_its_dexterity_and_nobody_flanks():
    f, rogue, target = rogue_fight(creature("mark", hp=200, ac=15))
    target.acted = True
    script = Script(f, [(10, 20), (4, 6), (3, 4)])
    assert swing_at(f, rogue, target, rogue.t.standard[0], 30)
    assert script.used_up and target.hp == 200 - 6 - 3


def test_undead_are_immune_to_criticals_and_sneak_attack():
    zombie = get_creature("human-commoner-zombie")
    f, rogue, target = rogue_fight(zombie)
    assert "critical hits" in target.t.immunities and not target.acted
    hp = target.hp
    script = Script(f, [(20, 20), (15, 20), (4, 6), (3, 4)])  # threat and confirmation: still no critical
    assert swing_at(f, rogue, target, rogue.t.standard[0], 30)
    assert script.used_up
    dr = target.t.dr_amount if not (frozenset({"piercing"}) & target.t.dr_overcome) else 0
    assert target.hp == hp - max(0, 6 - dr) - 3
    assert f.record.party.crits == 0


def test_undead_never_take_criticals_over_many_fights():
    party = generate_party(6)
    undead = [(get_creature("human-warrior-skeleton"), 4), (get_creature("human-commoner-zombie"), 2)]
    encounter = prepare(party, undead)
    crits = sum(fight(encounter, RuleSet.from_key("d20"), seed).record.party.crits for seed in range(40))
    assert crits == 0
    living = prepare(party, [(get_creature("ogre"), 4)])
    assert sum(fight(living, RuleSet.from_key("d20"), seed).record.party.crits for seed in range(40)) > 0


# ------------------------------------------------------------------------------------------ players roll all
def wizard_and_ogres(key: str):
    party = generate_party(5)
    f = make_fight(party, [get_creature("ogre"), get_creature("ogre"), get_creature("troll")], key=key, seed=11)
    wizard = next(c for c in f.pcs if c.name.startswith("wizard"))
    return f, wizard


@pytest.mark.parametrize(("key", "roller"), [("d20+prad", "pc"), ("3d6+prad", "pc"), ("d20", "monster")])
def test_players_roll_all_on_a_fireballs_saves(spy, key, roller):
    f, wizard = wizard_and_ogres(key)
    targets = list(f.monsters)
    cast(f, wizard, "fireball", 3, targets)
    saves = [(check, actor, outcome) for check, actor, outcome in spy if check.kind == "save"]
    assert [actor for _, actor, _ in saves] == targets
    for check, _, outcome in saves:
        assert check.side == "monster" and check.opponent == "pc"
        assert outcome.roller == roller
        assert exact(check, f.rules).roller == roller
    assert all(m.hp - m.nonlethal < m.max_hp for m in targets)  # the fire burnt each one


@pytest.mark.parametrize("key", ["d20+prad", "d20"])
def test_a_breath_weapon_against_pcs_is_the_pcs_own_save(spy, key):
    party = generate_party(5)
    f = make_fight(party, [get_creature("young-red-dragon")], key=key, seed=3)
    dragon = f.monsters[0]
    breathe(f, dragon, list(f.pcs))
    saves = [(check, actor, outcome) for check, actor, outcome in spy if check.kind == "save"]
    assert [actor for _, actor, _ in saves] == f.pcs
    for check, _, outcome in saves:
        assert check.side == "pc" and outcome.roller == "pc"


# ------------------------------------------------------------------------------------------ energy
def test_red_dragon_is_immune_to_fire_and_vulnerable_to_cold():
    f = make_fight([creature("hero", side="pc")], [get_creature("young-red-dragon")])
    hero, dragon = f.pcs[0], f.monsters[0]
    assert deal(f, hero, dragon, 40, FIRE) == 0 and dragon.hp == dragon.max_hp
    assert deal(f, hero, dragon, 10, COLD) == 15 and dragon.hp == dragon.max_hp - 15


def test_a_fireball_does_nothing_to_a_red_dragon():
    party = generate_party(5)
    f = make_fight(party, [get_creature("young-red-dragon")], seed=2)
    wizard = next(c for c in f.pcs if c.name.startswith("wizard"))
    dragon = f.monsters[0]
    for _ in range(5):
        cast(f, wizard, "fireball", 3, [dragon])
    assert dragon.hp == dragon.max_hp and f.record.party.damage == 0


def test_energy_resistance_subtracts_from_each_hit():
    f = make_fight([creature("hero", side="pc")], [creature("salamander", hp=50, energy_resistance={"fire": 10})])
    hero, target = f.pcs[0], f.monsters[0]
    assert deal(f, hero, target, 15, FIRE) == 5
    assert deal(f, hero, target, 10, FIRE) == 0
    assert deal(f, hero, target, 10, COLD) == 10
    assert target.hp == 35


# ------------------------------------------------------------------------------------------ massive damage
def massive_fight():
    f = make_fight([creature("hero", side="pc")], [creature("giant", hp=120)])
    return f, f.pcs[0], f.monsters[0]


def test_fifty_damage_forces_a_fortitude_save_or_death():
    f, hero, giant = massive_fight()
    script = Script(f, [(1, 20)])  # natural 1: the save fails
    deal(f, hero, giant, 50, SLASHING)
    assert script.used_up and giant.dead and giant.hp == DEAD_AT
    f, hero, giant = massive_fight()
    script = Script(f, [(20, 20)])  # natural 20: it lives
    deal(f, hero, giant, 60, SLASHING)
    assert script.used_up and not giant.dead and giant.hp == 60


def test_massive_damage_save_is_dc_15(spy):
    f, hero, giant = massive_fight()
    deal(f, hero, giant, 55, SLASHING)
    ((check, actor, _),) = spy
    assert (check.kind, check.target, check.modifier, actor) == ("save", 15, 2, giant)


def test_no_massive_damage_save_below_fifty_or_for_the_immune():
    f, hero, giant = massive_fight()
    Script(f, [])
    deal(f, hero, giant, 49, SLASHING)
    assert giant.hp == 71
    f = make_fight([creature("hero", side="pc")], [creature("golem", hp=120, type="construct")])
    Script(f, [])
    deal(f, f.pcs[0], f.monsters[0], 70, SLASHING)
    assert f.monsters[0].hp == 50 and not f.monsters[0].dead
    f, pc, troll = troll_fight()  # nonlethal damage is never massive
    Script(f, [])
    deal(f, pc, troll, 60, SLASHING, SLASHING, weapon=True)
    assert not troll.dead


# ------------------------------------------------------------------------------------------ spells
def test_spell_slots_are_spent_and_never_regained():
    encounter = prepare(generate_party(5), [(get_creature("ogre"), 4), (get_creature("troll"), 1)])
    rules = RuleSet.from_key("d20")
    total_cast = 0
    for seed in range(25):
        f = Fight(encounter, rules, seed, log=True)
        f.run()
        for caster in f.pcs:
            casting = caster.t.creature.spellcasting
            if casting is None:
                continue
            cast_names = [
                line.split(" casts ")[1].split(" on ")[0]
                for line in f.lines
                if re.match(rf"\[r\d+\] {re.escape(caster.name)} casts ", line)
            ]
            total_cast += len(cast_names)
            prepared = [name for names in casting.prepared.values() for name in names]
            left = [name for names in caster.slots.values() for name in names]
            assert sorted(left + cast_names) == sorted(prepared)
            for name in set(cast_names):
                assert cast_names.count(name) <= prepared.count(name)
        assert f.record.party.spells_cast == sum(1 for line in f.lines if " casts " in line)
    assert total_cast > 50


def test_bless_adds_one_to_attacks_and_ends_on_time(spy):
    party = generate_party(5)
    f = make_fight(party, [creature("dummy", hp=500, ac=10)])
    cleric = next(c for c in f.pcs if c.name.startswith("cleric"))
    fighter = f.pcs[0]
    dummy = f.monsters[0]
    routine_bonus = fighter.t.standard[0].bonuses[0]
    attack_routine(f, fighter, dummy, fighter.t.standard, False)
    cast(f, cleric, "bless", 1, [fighter])
    assert fighter.attack_bonus == 1 and "bless" in fighter.conditions
    attack_routine(f, fighter, dummy, fighter.t.standard, False)
    f.env.run(until=cleric.t.caster_level * 10 * clock.ROUND)  # one minute per level later
    f.round = 2
    f.turn(fighter)
    assert "bless" not in fighter.conditions and fighter.attack_bonus == 0
    mods = [check.modifier for check, actor, _ in spy if actor is fighter and check.kind == "attack"]
    assert mods[:2] == [routine_bonus, routine_bonus + 1]
    assert set(mods[2:]) <= set(fighter.t.full[0].swings())


def test_no_area_catches_three_from_fewer_enemies_than_the_caster_policy_skips():
    """The caster policy looks at area spells only from AREA_GROUP_MINIMUM able enemies: below that no area can
    catch AREA_MINIMUM of them, and at it the largest areas can."""
    from arena.combat.tactics import AREA_GROUP_MINIMUM, AREA_MINIMUM

    for area in spells.AREA_CAPS:
        assert all(spells.area_count(area, group) < AREA_MINIMUM for group in range(AREA_GROUP_MINIMUM))
    assert max(spells.area_count(area, AREA_GROUP_MINIMUM) for area in spells.AREA_CAPS) >= AREA_MINIMUM


# ------------------------------------------------------------------------------------------ round cap
def test_the_round_cap_is_a_draw():
    pc = creature(
        "salamander",
        side="pc",
        immunities=["slashing"],
        attack={"name": "flame", "bonuses": [10], "damage": "1d6", "damage_types": ["fire"]},
    )
    mon = creature("efreet", immunities=["fire"])
    result = fight(prepare([pc], [(mon, 1)], round_cap=5), RuleSet.from_key("d20"), 1, log=True)
    assert result.record.winner == "draw" and result.record.rounds == 5
    assert "round cap 5 reached: a draw" in result.log[-4]
    assert sum(line.startswith("--- round") for line in result.log) == 5


def test_a_fight_won_in_the_last_round_is_not_a_draw():
    pc = creature(
        "hero",
        side="pc",
        attack={"name": "axe", "bonuses": [50], "damage": "1d1+99", "damage_types": ["slashing"]},
        initiative=30,
    )
    result = fight(prepare([pc], [(creature("orc"), 1)], round_cap=1), RuleSet.from_key("d20"), 1)
    assert result.record.winner == "party" and result.record.rounds == 1
