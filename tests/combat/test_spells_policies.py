"""Spells with their SRD 3.5 numbers, the Luck domain's reroll, pressing luck, the policies, breath recharge,
item-damage events and the record's counters, each through the engine.

Spell numbers are read under the ``fixed10`` control, where every check is a natural 10 plus its modifier (so a
save or a ray's hit is decided by the stat block alone) and every die the fight rolls is forced to show its lowest
or its highest face: the damage then tells how many dice of which size were rolled.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

import pydantic
import pytest
from fight_scripting import Script, make_fight, stat_block

from arena.abilities import breath
from arena.combat import clock, spells, tactics
from arena.combat.attacks import swing_at
from arena.combat.casting import cast
from arena.combat.conditions import add_condition
from arena.combat.damage import deal
from arena.combat.engine import Fight, fight, prepare
from arena.combat.model import ModelOptions
from arena.combat.rolls import save, watch_rolls
from arena.combat.tactics import TacticsSettings
from arena.dice import Stream
from arena.errors import ArenaError
from arena.rules import Check, RuleSet, exact
from arena.study.scenarios.scenario import Scenario
from arena.world.bestiary import get_creature
from arena.world.creatures import Creature
from arena.world.party import generate_party

LOW, HIGH = 0.0, 1 - 1e-12
"""Constant stream draws: every die shows 1, or every die shows its top face."""
SLASHING = frozenset({"slashing"})
FAILS = {"fort": 30, "ref": -5, "will": -5}
"""Fails every Reflex and Will save under fixed10 (10 - 5 is below any DC); passes the massive-damage save."""
SAVES = {"fort": 30, "ref": 30, "will": 30}


def body(
    name: str,
    side: str = "monster",
    hp: int = 500,
    hit_dice: str = "3d8",
    ac: int = 10,
    saves=None,
    attack: dict | None = None,
    **extra,
) -> Creature:
    return stat_block(name, side, hp, ac, attack, hit_dice=hit_dice, saves=saves or FAILS, **extra)


def mage(cl: int, prepared: dict | None = None, name: str = "mage", **extra) -> Creature:
    return body(
        name, side="pc", hp=60, spellcasting={"caster_level": cl, "ability": "int", "prepared": prepared or {}}, **extra
    )


def build(party: list[Creature], monsters: list[Creature], key: str = "fixed10", seed: int = 0, **options) -> Fight:
    return make_fight(party, monsters, key, seed, **options)


def every_die_shows(f: Fight, draw: float) -> None:
    """Every draw the fight makes from now on is ``draw`` (LOW: each die shows 1; HIGH: each shows its top)."""
    stream = Stream.scripted([])
    stream.rand = lambda: draw
    f.stream = stream
    f.rand = stream.rand


def cast_and_measure(spell: str, level: int, cl: int, target: Creature, draw: float) -> int:
    """Damage ``target`` took from one casting, every die showing 1 (LOW) or its top face (HIGH)."""
    f = build([mage(cl)], [target])
    every_die_shows(f, draw)
    victim = f.monsters[0]
    cast(f, f.pcs[0], spell, level, [victim])
    return victim.max_hp - victim.hp + victim.nonlethal


# ------------------------------------------------------------------------------------------ magic missile
MISSILES_BY_CL = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 7: 4, 9: 5, 12: 5}
"""SRD: one missile, one more for every two caster levels beyond 1st, at most five (9th level)."""
MISSILE = (2, 5)
"""Each missile 1d4+1: at least 2, at most 5."""


@pytest.mark.parametrize(("cl", "missiles"), MISSILES_BY_CL.items())
def test_magic_missile_fires_one_missile_per_two_levels_of_1d4_plus_1(cl, missiles):
    assert cast_and_measure("magic missile", 1, cl, body("dummy"), LOW) == missiles * MISSILE[0]
    assert cast_and_measure("magic missile", 1, cl, body("dummy"), HIGH) == missiles * MISSILE[1]


# ------------------------------------------------------------------------------------------ scorching ray
RAYS_BY_CL = {3: 1, 6: 1, 7: 2, 10: 2, 11: 3, 15: 3}
"""SRD: one ray, two at 7th level, three (the maximum) at 11th."""
RAY = (4, 24)
"""Each ray 4d6 fire."""


@pytest.mark.parametrize(("cl", "rays"), RAYS_BY_CL.items())
def test_scorching_ray_fires_rays_by_caster_level_each_4d6_fire(cl, rays):
    assert cast_and_measure("scorching ray", 2, cl, body("dummy"), LOW) == rays * RAY[0]
    assert cast_and_measure("scorching ray", 2, cl, body("dummy"), HIGH) == rays * RAY[1]
    # fire resistance comes off each ray: each is its own attack and its own damage
    resistant = body("salamander", energy_resistance={"fire": 5})
    assert cast_and_measure("scorching ray", 2, cl, resistant, HIGH) == rays * (RAY[1] - 5)
    assert cast_and_measure("scorching ray", 2, cl, body("imp", immunities=["fire"]), HIGH) == 0


def test_each_scorching_ray_is_a_ranged_touch_attack(spy):
    f = build([mage(11)], [body("dummy", ac=30)])  # AC 30, but touch AC 10
    every_die_shows(f, LOW)
    cast(f, f.pcs[0], "scorching ray", 2, [f.monsters[0]])
    attacks = [check for check, _, _ in spy if check.kind == "attack"]
    assert [check.target for check in attacks] == [10] * RAYS_BY_CL[11]
    assert f.record.party.attacks == f.record.party.hits == RAYS_BY_CL[11]


# ------------------------------------------------------------------------------------------ area damage
AREA_DICE = [  # (spell, spell level, caster level, d6s): d6 per caster level, capped
    ("fireball", 3, 5, 5),
    ("fireball", 3, 10, 10),
    ("fireball", 3, 15, 10),
    ("lightning bolt", 3, 6, 6),
    ("lightning bolt", 3, 13, 10),
    ("cone of cold", 5, 9, 9),
    ("cone of cold", 5, 15, 15),
    ("cone of cold", 5, 19, 15),
    ("flame strike", 5, 9, 9),
    ("flame strike", 5, 15, 15),
    ("flame strike", 5, 20, 15),
]
"""SRD: fireball and lightning bolt 1d6 per level (max 10d6); cone of cold and flame strike max 15d6."""


@pytest.mark.parametrize(("spell", "level", "cl", "d6s"), AREA_DICE)
def test_area_spells_roll_a_d6_per_caster_level_to_their_cap(spell, level, cl, d6s):
    assert cast_and_measure(spell, level, cl, body("dummy"), LOW) == d6s
    assert cast_and_measure(spell, level, cl, body("dummy"), HIGH) == 6 * d6s
    # a Reflex save halves it (rounded down)
    assert cast_and_measure(spell, level, cl, body("dodger", saves=SAVES), HIGH) == 6 * d6s // 2


@pytest.mark.parametrize(
    ("spell", "energy"), [("fireball", "fire"), ("lightning bolt", "electricity"), ("cone of cold", "cold")]
)
def test_area_spells_deal_their_energy(spell, energy):
    level = {"cone of cold": 5}.get(spell, 3)
    assert cast_and_measure(spell, level, 10, body("immune", immunities=[energy]), HIGH) == 0
    assert cast_and_measure(spell, level, 10, body("acid-proof", immunities=["acid"]), HIGH) == 6 * 10


FLAME_STRIKE_CL, FLAME_STRIKE_TOP = 10, 60  # 10d6, every die a 6
FIRE_HALF = DIVINE_HALF = FLAME_STRIKE_TOP // 2


def test_flame_strike_is_half_fire_and_half_divine():
    assert cast_and_measure("flame strike", 5, FLAME_STRIKE_CL, body("dummy"), HIGH) == FLAME_STRIKE_TOP
    resistant = body("salamander", energy_resistance={"fire": 10})
    assert cast_and_measure("flame strike", 5, FLAME_STRIKE_CL, resistant, HIGH) == FIRE_HALF - 10 + DIVINE_HALF
    immune = body("efreet", immunities=["fire"])
    assert cast_and_measure("flame strike", 5, FLAME_STRIKE_CL, immune, HIGH) == DIVINE_HALF


# ------------------------------------------------------------------------------------------ ice storm
ICE_STORM_BLUDGEONING = (3, 18)  # 3d6
ICE_STORM_COLD = (2, 12)  # 2d6


def test_ice_storm_deals_3d6_bludgeoning_and_2d6_cold_with_no_save():
    low = ICE_STORM_BLUDGEONING[0] + ICE_STORM_COLD[0]
    high = ICE_STORM_BLUDGEONING[1] + ICE_STORM_COLD[1]
    assert cast_and_measure("ice storm", 4, 7, body("dummy"), LOW) == low
    assert cast_and_measure("ice storm", 4, 7, body("dummy"), HIGH) == high
    assert cast_and_measure("ice storm", 4, 7, body("dodger", saves=SAVES), HIGH) == high  # no save
    resistant = body("yeti", energy_resistance={"cold": 5})  # resistance only on the cold part
    assert cast_and_measure("ice storm", 4, 7, resistant, HIGH) == ICE_STORM_BLUDGEONING[1] + ICE_STORM_COLD[1] - 5
    assert cast_and_measure("ice storm", 4, 7, body("ice", immunities=["cold"]), HIGH) == ICE_STORM_BLUDGEONING[1]
    # spells ignore damage reduction (SRD: damage reduction does not apply to spells)
    assert cast_and_measure("ice storm", 4, 7, body("golem", damage_reduction="10/magic"), HIGH) == high


# ------------------------------------------------------------------------------------------ cures
CURE_SRD = {
    "cure light wounds": (1, 1, 5),
    "cure moderate wounds": (2, 2, 10),
    "cure serious wounds": (3, 3, 15),
    "cure critical wounds": (4, 4, 20),
}
"""spell -> (spell level, d8s, cap on the caster-level bonus): 1d8+CL (max +5) ... 4d8+CL (max +20)."""
CURE_CASES = [
    ("cure light wounds", 3),
    ("cure light wounds", 9),
    ("cure moderate wounds", 6),
    ("cure moderate wounds", 14),
    ("cure serious wounds", 9),
    ("cure serious wounds", 20),
    ("cure critical wounds", 7),
    ("cure critical wounds", 20),
]


def cure(spell: str, cl: int, patient: Creature, draw: float, side: str) -> tuple[int, object]:
    """Cast ``spell`` on ``patient`` brought down to 100 hp; its hp change and the fight."""
    level = CURE_SRD[spell][0]
    if side == "pc":
        f = build([mage(cl), patient], [body("orc")])
        target = f.pcs[1]
    else:
        f = build([mage(cl)], [patient])
        target = f.monsters[0]
    target.hp = 100
    every_die_shows(f, draw)
    cast(f, f.pcs[0], spell, level, [target])
    return target.hp - 100, f


@pytest.mark.parametrize(("spell", "cl"), CURE_CASES)
def test_cure_spells_heal_their_d8s_plus_caster_level_to_the_cap(spell, cl):
    _, d8s, cap = CURE_SRD[spell]
    friend = body("friend", side="pc")
    assert cure(spell, cl, friend, LOW, "pc")[0] == d8s * 1 + min(cl, cap)
    assert cure(spell, cl, friend, HIGH, "pc")[0] == d8s * 8 + min(cl, cap)


@pytest.mark.parametrize(("spell", "cl"), CURE_CASES[1::2])
def test_cure_spells_damage_undead_half_on_a_will_save(spell, cl):
    _, d8s, cap = CURE_SRD[spell]
    amount = d8s * 8 + min(cl, cap)
    assert cure(spell, cl, body("zombie", type="undead", saves=FAILS), HIGH, "monster")[0] == -amount
    assert cure(spell, cl, body("ghoul", type="undead", saves=SAVES), HIGH, "monster")[0] == -(amount // 2)


def test_an_undead_creatures_spell_resistance_stops_a_cure_spell():
    """SRD: "An undead creature can apply spell resistance" against a cure spell."""
    lich = body("lich", type="undead", saves=FAILS, spell_resistance=40)  # beyond any caster level check
    assert cure("cure light wounds", 5, lich, HIGH, "monster")[0] == 0
    friend = body("friend", side="pc", spell_resistance=40)  # harmless: a willing ally's SR does not
    assert cure("cure light wounds", 5, friend, HIGH, "pc")[0] == 8 + 5


# ------------------------------------------------------------------------------------------ sleep
SLEEP_HD = 4
"""SRD: sleep affects 4 Hit Dice of creatures, the fewest HD first; none of 5 HD or more."""


@pytest.mark.parametrize(
    ("hit_dice", "asleep"),
    [
        ((3, 1, 2, 1, 5), {1, 3, 2}),  # 1 + 1 + 2 = 4 HD, lowest first; the 3 HD one is left over
        ((3, 2, 5), {1}),  # the 2 HD one first; 2 HD left are not enough for the 3 HD one
        ((4,), {0}),  # a 4 HD creature alone is affected
        ((5,), set()),  # never 5 HD or more
        ((5, 4, 1), {2}),  # the 1 HD one first, then 3 HD left: not the 4 HD one
    ],
)
def test_sleep_affects_four_hit_dice_of_creatures_lowest_first(hit_dice, asleep):
    assert sum(hit_dice[i] for i in asleep) <= SLEEP_HD
    f = build(
        [mage(5)],
        [body(f"m{i}", hit_dice=f"{hd}d8") for i, hd in enumerate(hit_dice)],
        model=ModelOptions(sleep_casting="instant"),
    )
    cast(f, f.pcs[0], "sleep", 1, list(f.monsters))
    assert {i for i, m in enumerate(f.monsters) if "asleep" in m.conditions} == asleep
    assert all(m.is_able == (i not in asleep) for i, m in enumerate(f.monsters))


@pytest.mark.parametrize(
    ("hd", "out", "stunned"), [(1, True, True), (2, True, True), (3, False, True), (4, False, True), (5, False, True)]
)
def test_color_spray_knocks_out_two_hd_or_less_and_stuns_the_rest(hd, out, stunned):
    """SRD: 2 HD or less unconscious (then blinded and stunned); 3-4 HD blinded and stunned; 5+ HD stunned."""
    f = build([mage(5)], [body("target", hit_dice=f"{hd}d8")])
    target = f.monsters[0]
    cast(f, f.pcs[0], "color spray", 1, [target])
    assert (not target.is_able) is out and ("stunned" in target.conditions) is stunned
    g = build([mage(5)], [body("target", hit_dice=f"{hd}d8", saves=SAVES)])  # a Will save negates it
    cast(g, g.pcs[0], "color spray", 1, [g.monsters[0]])
    assert g.monsters[0].is_able and not g.monsters[0].conditions


# ------------------------------------------------------------------------------------------ hold person
@pytest.mark.parametrize(
    ("kind", "held"), [("humanoid", True), ("monstrous humanoid", False), ("animal", False), ("giant", False)]
)
def test_hold_person_holds_only_humanoids(spy, kind, held):
    f = build([mage(5)], [body("target", type=kind)])
    target = f.monsters[0]
    cast(f, f.pcs[0], "hold person", 3, [target])
    assert ("held" in target.conditions) is held and target.is_able is not held
    assert any(check.kind == "save" for check, _, _ in spy) is held  # no save for what it cannot affect


# ------------------------------------------------------------------------------------------ searing light
SEARING_LIGHT = [  # (target type, caster level, dice, sides)
    ("humanoid", 5, 2, 8),
    ("humanoid", 10, 5, 8),
    ("humanoid", 14, 5, 8),  # 1d8 per two levels, max 5d8
    ("undead", 7, 7, 6),
    ("undead", 12, 10, 6),  # 1d6 per level, max 10d6
    ("construct", 6, 3, 6),
    ("construct", 14, 5, 6),  # 1d6 per two levels, max 5d6
]


@pytest.mark.parametrize(("kind", "cl", "dice", "sides"), SEARING_LIGHT)
def test_searing_light_dice_by_target_type(kind, cl, dice, sides):
    assert cast_and_measure("searing light", 3, cl, body("target", type=kind), LOW) == dice
    assert cast_and_measure("searing light", 3, cl, body("target", type=kind), HIGH) == dice * sides


# ------------------------------------------------------------------------------------------ shield of faith
SHIELD_OF_FAITH_BY_CL = {1: 2, 5: 2, 6: 3, 11: 3, 12: 4, 17: 4, 18: 5, 20: 5}
"""SRD: +2 deflection, +1 for every six caster levels, at most +5 (18th level)."""


@pytest.mark.parametrize(("cl", "bonus"), SHIELD_OF_FAITH_BY_CL.items())
def test_shield_of_faith_deflection_bonus_by_caster_level(cl, bonus):
    f = build([mage(cl), body("friend", side="pc", ac=15)], [body("orc")])
    friend = f.pcs[1]
    cast(f, f.pcs[0], "shield of faith", 1, [friend])
    assert friend.ac_bonus == bonus and "shield of faith" in friend.conditions


def test_shield_of_faith_raises_the_ac_attacks_roll_against(spy):
    f = build([mage(12), body("friend", side="pc", ac=15)], [body("orc")], key="d20")
    friend, orc = f.pcs[1], f.monsters[0]
    cast(f, f.pcs[0], "shield of faith", 1, [friend])
    swing_at(f, orc, friend, orc.t.standard[0], orc.t.standard[0].bonuses[0])
    (check,) = [check for check, _, _ in spy if check.kind == "attack"]
    assert check.target == 15 + SHIELD_OF_FAITH_BY_CL[12]


# ------------------------------------------------------------------------------------------ bless
BLESS = 1


def test_bless_gives_each_ally_plus_one_to_attack_rays_included_and_does_not_stack(spy):
    f = build([mage(5), body("friend", side="pc")], [body("orc")])
    caster, friend, orc = f.pcs[0], f.pcs[1], f.monsters[0]
    every_die_shows(f, LOW)
    swing_at(f, friend, orc, friend.t.standard[0], 5)
    cast(f, caster, "scorching ray", 2, [orc])
    cast(f, caster, "bless", 1, [caster, friend])
    cast(f, caster, "bless", 1, [caster, friend])  # a second bless adds nothing
    assert caster.attack_bonus == friend.attack_bonus == BLESS
    swing_at(f, friend, orc, friend.t.standard[0], 5)
    cast(f, caster, "scorching ray", 2, [orc])
    swing, ray, blessed_swing, blessed_ray = [check.modifier for check, _, _ in spy if check.kind == "attack"]
    assert (blessed_swing - swing, blessed_ray - ray) == (BLESS, BLESS)


# ------------------------------------------------------------------------------------------ the Luck domain
def luck_cleric(luck: bool = True) -> Creature:
    return body(
        "cleric",
        side="pc",
        hp=40,
        saves={"fort": 0, "ref": 0, "will": 0},
        spellcasting={"caster_level": 5, "ability": "wis", "domains": ["Luck"] if luck else []},
    )


def d20(natural: int) -> tuple[int, int]:
    return natural, 20


def test_the_luck_domain_rerolls_the_first_failed_save_once():
    """The ``known-failure`` reading (the model before 0.3); ``low-natural``: tests/combat/test_model_fixes.py."""
    f = build([luck_cleric()], [body("orc")], key="d20", model=ModelOptions(luck_reroll="known-failure"))
    cleric, orc = f.pcs[0], f.monsters[0]
    script = Script(f, [d20(1)])  # a missed attack does not spend it
    assert not swing_at(f, cleric, orc, cleric.t.standard[0], 0)
    assert script.used_up and not cleric.luck_used
    script = Script(f, [d20(20)])  # a save that succeeds: nothing to reroll
    assert save(f, cleric, "will", 15, orc).success and script.used_up and not cleric.luck_used
    script = Script(f, [d20(2), d20(19)])  # the first failed save: rerolled, and the reroll stands
    outcome = save(f, cleric, "will", 15, orc)
    assert outcome.success and outcome.rerolled and script.used_up and cleric.luck_used
    script = Script(f, [d20(2)])  # spent: the next failure stays a failure
    outcome = save(f, cleric, "will", 15, orc)
    assert not outcome.success and not outcome.rerolled and script.used_up


def test_a_failed_reroll_still_spends_the_luck_and_others_have_none():
    f = build([luck_cleric()], [body("orc")], key="d20", model=ModelOptions(luck_reroll="known-failure"))
    cleric, orc = f.pcs[0], f.monsters[0]
    script = Script(f, [d20(3), d20(4), d20(5)])
    assert not save(f, cleric, "ref", 15, orc).success  # 3 fails, reroll 4 fails
    assert not save(f, cleric, "ref", 15, orc).success  # 5 fails, no reroll left
    assert script.used_up and cleric.luck_used
    g = build([luck_cleric(luck=False)], [body("orc")], key="d20", model=ModelOptions(luck_reroll="known-failure"))
    script = Script(g, [d20(3)])
    assert not save(g, g.pcs[0], "will", 15, g.monsters[0]).rerolled and script.used_up


@dataclass
class Roll:
    check: object
    actor: object
    roller: object
    kind: str
    """The roller's kind of check (a monster's attack on a PC becomes the PC's defense check under prad)."""
    able: bool
    luck_left: bool
    auspicious: bool
    outcome: object


@pytest.fixture
def rolls():
    """Every check the engine resolves, with who physically rolled it and the roller's state just before (worked
    back from the state after: a roll that used the Luck reroll spent it, one whose four 1s ended auspicious odds
    took the condition away)."""
    seen: list[Roll] = []

    def watch(f, check, actor, opponent, outcome):
        plan = f.kernel.plan(check)
        roller = actor if plan.roller == actor.side or opponent is None else opponent
        state = (
            roller.is_able,
            roller.t.luck_domain and (not roller.luck_used or outcome.rerolled),
            f.bell and ("auspicious" in roller.conditions or outcome.spell_ends),
        )
        seen.append(Roll(check, actor, roller, plan.roller_kind, *state, outcome))

    with watch_rolls(watch):
        yield seen


SAVE_LIKE = ("save", "magic", "defense")


def roller_failed(r: Roll) -> bool:
    """Did the roll fail from its roller's view? (Outcomes are named from the acting side: a PC's defense check
    against a monster's attack fails when the attack hits.)"""
    return r.outcome.success == (r.roller is not r.actor)


@pytest.mark.parametrize("key", ["d20", "d20+prad"])
def test_the_luck_reroll_in_fights_is_the_owners_first_failure_and_only_once(rolls, key):
    party = generate_party(5)
    encounter = prepare(
        party,
        [(get_creature("young-red-dragon"), 1), (get_creature("ogre"), 1)],
        model=ModelOptions(luck_reroll="known-failure"),
    )
    rerolls = 0
    for seed in range(12):
        rolls.clear()
        result = fight(encounter, RuleSet.from_key(key), seed)
        assert result.record.rounds >= 1
        owners = {id(r.roller) for r in rolls if r.roller.t.luck_domain}
        assert owners  # the generated cleric has the Luck domain
        for r in rolls:
            if not r.roller.t.luck_domain:
                assert not r.outcome.rerolled
        for owner in owners:
            mine = [r for r in rolls if id(r.roller) == owner and r.kind in SAVE_LIKE]
            flags = [r.outcome.rerolled for r in mine]
            assert sum(flags) <= 1
            # the first roll that failed before any reroll is the one rerolled; none after it
            first_fail = next((i for i, r in enumerate(mine) if r.outcome.rerolled or roller_failed(r)), None)
            if first_fail is not None:
                assert flags == [False] * first_fail + [True] + [False] * (len(flags) - first_fail - 1)
            rerolls += sum(flags)
    assert rerolls >= 4  # fresh luck every fight


# ------------------------------------------------------------------------------------------ pressing luck
PRESS_RULES = ["d20+prad+luck", "3d6+prad+luck"]


def press_fights(setting: str, key: str, seeds=range(12)):
    clever = TacticsSettings(press_luck=setting)
    die = RuleSet.from_key(key).die
    encounter = prepare(
        generate_party(3, die),
        [(get_creature("ogre"), 2), (get_creature("troll"), 1)],
        party_tactics=clever,
        monster_tactics=clever,
    )
    return [Fight(encounter, RuleSet.from_key(key), seed, log=False) for seed in seeds]


def eligible(r: Roll) -> bool:
    """A roll its roller may press: not initiative, not unconscious, not a flat-footed defense check."""
    return (
        r.able
        and r.check.kind != "initiative"
        and not r.check.unconscious
        and not (r.kind == "defense" and r.check.flat_footed)
    )


def assert_counters_match(f: Fight, mine: list[Roll]) -> None:
    for side, tally in (("pc", f.record.party), ("monster", f.record.monsters)):
        pressed = [r for r in mine if r.outcome.pressed and r.roller.side == side]
        assert tally.luck_pressed == len(pressed)
        assert tally.luck_pressed_successes == sum(r.outcome.success == (r.roller is r.actor) for r in pressed)


@pytest.mark.parametrize("key", PRESS_RULES)
def test_never_presses_luck(rolls, key):
    for f in press_fights("never", key):
        rolls.clear()
        f.run()
        assert not any(r.outcome.pressed for r in rolls)
        assert f.record.party.luck_pressed == f.record.monsters.luck_pressed == 0
    assert rolls


@pytest.mark.parametrize("key", PRESS_RULES)
def test_always_presses_every_eligible_roll(rolls, key):
    total = 0
    ineligible = 0
    for f in press_fights("always", key):
        rolls.clear()
        f.run()
        ineligible += sum(not eligible(r) for r in rolls)
        for r in rolls:
            assert r.outcome.pressed == eligible(r), r
        assert_counters_match(f, rolls)
        total += f.record.party.luck_pressed
        assert f.record.party.luck_pressed_successes < f.record.party.luck_pressed
    assert total > 50 and ineligible > 0  # flat-footed defense checks in round 1, at least


@pytest.mark.parametrize("key", PRESS_RULES)
def test_when_better_presses_exactly_when_the_exact_chance_is_higher_pressed(rolls, key):
    rules = RuleSet.from_key(key)
    decided = {True: 0, False: 0}
    for f in press_fights("when-better", key):
        rolls.clear()
        f.run()
        assert_counters_match(f, rolls)
        for r in rolls:
            if not eligible(r):
                assert not r.outcome.pressed
                continue
            if r.luck_left or r.auspicious:  # the decision then also weighs a reroll or auspicious odds
                continue
            known = r.check._replace(hidden=0)
            p_static = exact(known, rules)["success"]
            p_pressed = exact(known._replace(press_luck=True), rules)["success"]
            if abs(p_pressed - p_static) < 1e-9:  # no better either way: not asserted
                continue
            better = p_pressed > p_static if r.roller is r.actor else p_pressed < p_static
            assert r.outcome.pressed == better, (r.check, float(p_static), float(p_pressed))
            decided[better] += 1
    assert decided[True] >= 5 and decided[False] >= 5


TIE_RULES = "d20+prad+luck"
TIE_ATTACK, TIE_AC = 8, 19
"""A monster's +8 attack on a PC of AC 19 under players roll all: the PC's defense check hits 9 times in 20
whether it presses its luck or not."""


def tie_fight():
    knight = body("knight", side="pc", ac=TIE_AC)
    orc = body("orc", attack={"name": "axe", "bonuses": [TIE_ATTACK], "damage": "1d6", "damage_types": ["slashing"]})
    f = build([knight], [orc], key=TIE_RULES, party_tactics=TacticsSettings(press_luck="when-better"))
    f.pcs[0].acted = True  # not flat-footed: it may press
    return f, f.pcs[0], f.monsters[0]


def test_the_tie_case_is_a_tie(rolls):
    f, knight, orc = tie_fight()
    swing_at(f, orc, knight, orc.t.standard[0], TIE_ATTACK)
    (r,) = rolls
    assert r.kind == "defense" and r.roller is knight and eligible(r)
    known = r.check._replace(hidden=0)
    rules = RuleSet.from_key(TIE_RULES)
    assert exact(known, rules)["success"] == exact(known._replace(press_luck=True), rules)["success"]


def test_when_better_does_not_press_on_an_exact_tie(rolls):
    f, knight, orc = tie_fight()
    swing_at(f, orc, knight, orc.t.standard[0], TIE_ATTACK)
    assert not rolls[0].outcome.pressed and f.record.party.luck_pressed == 0


# ------------------------------------------------------------------------------------------ policies
BOW = {"name": "bow", "bonuses": [5], "damage": "1d8", "damage_types": ["piercing"], "kind": "ranged"}


def archer_fight(policy: str, monsters: int = 3, seed: int = 0) -> Fight:
    archer = body("archer", side="pc", hp=40, attack=BOW)
    return build(
        [archer],
        [body(f"m{i}", hp=30) for i in range(monsters)],
        key="d20",
        seed=seed,
        party_tactics=TacticsSettings(policy=policy),
    )


def decide(f: Fight, c):
    return tactics.POLICIES[c.policy](f.view, c)


def test_random_picks_each_able_enemy_equally_often():
    f = archer_fight("random", monsters=4, seed=5)
    archer = f.pcs[0]
    add_condition(f, f.monsters[3], "asleep", 1e9)  # not able: never a target
    trials = 3000
    counts = {m.name: 0 for m in f.monsters}
    for _ in range(trials):
        action = decide(f, archer)
        assert action.kind == "attack"
        counts[action.target.name] += 1
    assert counts["m3"] == 0
    p = 1 / 3
    tolerance = 4 * math.sqrt(p * (1 - p) / trials)
    for name in ("m0", "m1", "m2"):
        assert abs(counts[name] / trials - p) < tolerance, counts


def test_focus_weakest_attacks_the_able_enemy_with_fewest_hit_points():
    f = archer_fight("focus-weakest")
    archer, (_, m1, m2) = f.pcs[0], f.monsters
    deal(f, archer, m1, 10, SLASHING)
    assert decide(f, archer).target is m1
    deal(f, archer, m2, 15, SLASHING)
    assert decide(f, archer).target is m2
    deal(f, archer, m2, 16, SLASHING)  # m2 at -1: dying, not a target; m1 (20 hp) is next
    assert not m2.is_able
    assert decide(f, archer).target is m1


def test_focus_threat_attacks_the_enemy_that_dealt_most_damage():
    f = archer_fight("focus-threat")
    archer, (_, m1, m2) = f.pcs[0], f.monsters
    deal(f, m1, archer, 3, SLASHING)
    assert decide(f, archer).target is m1
    deal(f, m2, archer, 5, SLASHING)
    assert decide(f, archer).target is m2
    deal(f, m1, archer, 4, SLASHING)  # m1 now 7 in all
    assert decide(f, archer).target is m1
    deal(f, archer, m1, 40, SLASHING)  # down: the next most dangerous
    assert decide(f, archer).target is m2


CASTER_SLOTS = {1: ["cure light wounds", "bless", "magic missile"], 3: ["fireball"]}


def caster_fight(enemies: int, slots: dict | None = None, hurt: int | None = None, round_: int = 1, **options) -> Fight:
    priest = mage(5, CASTER_SLOTS if slots is None else slots, name="priest", tactics="caster")
    allies = [body(f"ally{i}", side="pc", hp=30) for i in range(2)]
    f = build([priest, *allies], [body(f"m{i}", hp=30 + i) for i in range(enemies)], key="d20", **options)
    if hurt is not None:
        f.pcs[1].hp = hurt
    f.round = round_
    return f


def test_caster_heals_an_ally_below_half_first():
    f = caster_fight(enemies=4, hurt=14)
    f.pcs[2].hp = 10  # both below half of 30: the lower one first
    action = decide(f, f.pcs[0])
    assert (action.kind, action.spell, action.targets) == ("cast", "cure light wounds", [f.pcs[2]])


def test_caster_does_not_heal_an_ally_at_half_and_throws_an_area_spell_when_it_catches_three():
    f = caster_fight(enemies=4, hurt=15)  # exactly half: not below
    action = decide(f, f.pcs[0])
    caught = spells.area_count(spells.SPELLS["fireball"].area, 4)
    assert caught >= 3
    assert (action.kind, action.spell) == ("cast", "fireball")
    assert len(action.targets) == caught and len(set(map(id, action.targets))) == caught
    assert all(t in f.monsters for t in action.targets)


def test_caster_buffs_in_the_first_round_when_no_area_catches_three():
    f = caster_fight(enemies=3)
    assert spells.area_count(spells.SPELLS["fireball"].area, 3) < 3
    action = decide(f, f.pcs[0])
    assert (action.kind, action.spell) == ("cast", "bless")
    assert set(map(id, action.targets)) == set(map(id, f.pcs))


def test_caster_casts_a_single_target_spell_after_the_first_round():
    f = caster_fight(enemies=2, round_=2)
    action = decide(f, f.pcs[0])
    # by value (issue 24, ``energy-aware-spells``): the fireball at both enemies is worth more than magic missile
    assert (action.kind, action.spell, action.targets) == ("cast", "fireball", f.monsters)
    f = caster_fight(enemies=2, round_=2, model=ModelOptions(undo=frozenset({"energy-aware-spells"})))
    action = decide(f, f.pcs[0])  # before: the first single-target spell prepared, at the weakest
    assert (action.kind, action.spell, action.targets) == ("cast", "magic missile", [f.monsters[0]])


def test_caster_attacks_when_no_spell_fits():
    f = caster_fight(enemies=2, slots={1: ["cure light wounds"]}, round_=2)
    action = decide(f, f.pcs[0])
    assert action.kind == "attack" and action.target in f.monsters


NEW_POLICY = "test-stand-still"


@pytest.fixture
def stand_still():
    calls = []

    def policy(view, creature):
        calls.append((view, creature))
        return tactics.Action("none")

    assert NEW_POLICY not in tactics.POLICIES
    tactics.register(NEW_POLICY, policy)
    try:
        yield calls
    finally:
        tactics.POLICIES.pop(NEW_POLICY, None)
        tactics.TARGETING.pop(NEW_POLICY, None)


def test_unregistered_policies_are_refused():
    with pytest.raises(ArenaError):
        TacticsSettings(policy=NEW_POLICY)
    scenario = Scenario.model_validate(
        {"name": "x", "party": {"level": 1}, "monsters": ["orc"], "tactics": {"party": {"policy": NEW_POLICY}}}
    )
    with pytest.raises(ArenaError, match="unknown policy"):  # a policy file could register it: checked
        scenario.resolve()  # once the files have run
    with pytest.raises(pydantic.ValidationError):
        Scenario.model_validate(
            {"name": "x", "party": {"level": 1}, "monsters": ["orc"], "tactics": {"party": {"policy": "Not A Name!"}}}
        )


def test_a_registered_policy_drives_its_creatures(stand_still):
    encounter = prepare(
        generate_party(3), [(get_creature("orc"), 2)], round_cap=4, party_tactics=TacticsSettings(policy=NEW_POLICY)
    )
    result = fight(encounter, RuleSet.from_key("d20"), 3)
    assert stand_still and {c.name for _, c in stand_still} == {c.name for c in generate_party(3)}
    assert all(c.side == "pc" for _, c in stand_still)
    assert result.record.party.attacks == result.record.party.spells_cast == 0
    assert result.record.monsters.attacks > 0


def test_a_registered_policy_is_usable_from_a_scenario(stand_still):
    scenario = Scenario.model_validate(
        {
            "name": "x",
            "party": {"level": 1},
            "monsters": ["orc:2"],
            "round_cap": 3,
            "tactics": {"party": {"policy": NEW_POLICY}},
        }
    )
    assert scenario.creature_tactics()["fighter-1"].policy == NEW_POLICY
    result = fight(scenario.prepare("d20"), RuleSet.from_key("d20"), 1)
    assert stand_still and result.record.party.attacks == 0


# ------------------------------------------------------------------------------------------ breath weapons
def dragon_fight(seed: int = 0) -> Fight:
    return build(generate_party(5), [get_creature("young-red-dragon")], key="d20", seed=seed)


@pytest.mark.parametrize(("draw", "breath_rounds"), [(LOW, list(range(1, 11))), (HIGH, [1, 5, 9])])
def test_after_breathing_the_dragon_waits_its_1d4_rounds(monkeypatch, draw, breath_rounds):
    """Every die the fight rolls shows 1 (the breath recharges in 1 round) or its top face (4 rounds); the dragon
    breathes whenever it can, on its own turns, against four knights it cannot bring down."""
    knights = [body(f"knight{i}", side="pc", hp=1000, ac=20) for i in range(4)]
    f = build(knights, [get_creature("young-red-dragon")], key="d20")
    dragon = f.monsters[0]
    assert dragon.t.ability_data["breath_weapon"].recharge == "1d4"  # SRD: once every 1d4 rounds
    breathed = []
    original = breath.breathe

    def breathe(f, c, targets):
        breathed.append(f.round)
        original(f, c, targets)

    monkeypatch.setattr(breath, "breathe", breathe)
    every_die_shows(f, draw)
    for round_ in range(1, 11):
        if (round_ - 1) * clock.ROUND > f.env.now:
            f.env.run(until=(round_ - 1) * clock.ROUND)
        f.round = round_
        f.turn(dragon)
    assert breathed == breath_rounds


def test_breath_recharge_is_uniform_over_one_to_four_rounds():
    f = dragon_fight(seed=9)
    dragon = f.monsters[0]
    trials = 2000
    counts = dict.fromkeys(range(1, 5), 0)
    for _ in range(trials):
        breath.breathe(f, dragon, [])
        counts[round((breath.ready_at(dragon) - f.now()) / clock.ROUND)] += 1
    assert sum(counts.values()) == trials
    tolerance = 4 * math.sqrt(0.25 * 0.75 / trials)
    assert all(abs(n / trials - 0.25) < tolerance for n in counts.values()), counts


def test_in_fights_a_dragon_never_breathes_before_its_recharge(monkeypatch):
    log: list[tuple[int, float, float]] = []
    original = breath.breathe

    def breathe(f, c, targets):
        assert f.now() >= breath.ready_at(c)  # its recharge has passed
        original(f, c, targets)
        assert breath.ready_at(c) - f.now() in {k * clock.ROUND for k in range(1, 5)}
        log.append((id(f), f.now(), breath.ready_at(c)))

    monkeypatch.setattr(breath, "breathe", breathe)
    encounter = prepare(generate_party(7), [(get_creature("young-red-dragon"), 1)])
    fights = [Fight(encounter, RuleSet.from_key("d20"), seed, log=False) for seed in range(30)]
    for f in fights:
        f.run()
    repeats = 0
    for f in fights:
        seen = [(now, ready) for key, now, ready in log if key == id(f)]
        for (_, ready), (later, _) in zip(seen, seen[1:], strict=False):
            assert later >= ready
            repeats += 1
    assert repeats >= 5


# ------------------------------------------------------------------------------------------ item damage
def test_a_natural_20_magic_check_on_a_pcs_spell_is_an_item_damage_event(spy):
    f = build([mage(5)], [body("orc 1"), body("orc 2")], key="d20+prad")
    every_die_shows(f, HIGH)  # each magic check a natural 20
    cast(f, f.pcs[0], "fireball", 3, list(f.monsters))
    checks = [(check, outcome) for check, _, outcome in spy if check.kind == "save"]
    assert len(checks) == 2
    assert all(outcome.roller == "pc" and outcome.natural == 20 and not outcome.success for _, outcome in checks)
    assert f.record.item_damage_events == 2


def test_no_item_damage_without_a_natural_20_or_when_the_monster_rolls_its_save():
    f = build([mage(5)], [body("orc")], key="d20+prad")
    every_die_shows(f, 0.93)  # a natural 19
    cast(f, f.pcs[0], "fireball", 3, list(f.monsters))
    assert f.record.item_damage_events == 0
    g = build([mage(5)], [body("orc")], key="d20")  # the monster's own save: its natural 20 saves
    every_die_shows(g, HIGH)
    cast(g, g.pcs[0], "fireball", 3, list(g.monsters))
    assert g.record.item_damage_events == 0


def test_item_damage_events_in_fights_count_every_natural_20_magic_check(spy):
    groups = [(get_creature("ogre"), 2), (get_creature("troll"), 2), (get_creature("hobgoblin"), 3)]
    encounter = prepare(generate_party(5), groups)  # fireballs and hold person: magic checks
    magic_20s = 0
    for seed in range(10):
        spy.clear()
        result = fight(encounter, RuleSet.from_key("d20+prad"), seed)
        saves = [outcome for check, _, outcome in spy if check.kind == "save"]
        assert result.record.item_damage_events == sum(outcome.item_damage for outcome in saves)
        magic_20s += sum(
            outcome.item_damage and outcome.roller == "pc" and outcome.natural == 20
            for check, _, outcome in spy
            if check.kind == "save" and check.side == "monster"
        )
    assert magic_20s >= 1


# ------------------------------------------------------------------------------------------ record counters
SWING = re.compile(
    r"^\[r\d+\] (?P<who>.+?) (?:sword|axe) [+-]\d+ vs (?P<target>.+?) AC -?\d+\b.*: .* - "
    r"(?P<result>miss|hit for|CRITICAL hit for)"
)


def brawl(seed: int):
    heroes = [
        body(
            f"hero{i}",
            side="pc",
            hp=25,
            ac=16,
            attack={"name": "sword", "bonuses": [6, 1], "damage": "1d8+2", "damage_types": ["slashing"], "threat": 19},
        )
        for i in range(2)
    ]
    orcs = [
        body(
            f"orc{i}",
            hp=20,
            ac=14,
            attack={"name": "axe", "bonuses": [4], "damage": "1d12+1", "damage_types": ["slashing"], "multiplier": 3},
        )
        for i in range(3)
    ]
    return fight(prepare(heroes, [(o, 1) for o in orcs], round_cap=8), RuleSet.from_key("d20"), seed, log=True)


@pytest.mark.parametrize("seed", range(6))
def test_attacks_and_hits_per_side_add_up_with_the_log(seed):
    result = brawl(seed)
    counted = {"pc": [0, 0], "monster": [0, 0]}
    for line in result.log:
        m = SWING.match(line)
        if m:
            side = "pc" if m["who"].startswith("hero") else "monster"
            counted[side][0] += 1
            counted[side][1] += m["result"] != "miss"
    record = result.record
    assert counted["pc"] == [record.party.attacks, record.party.hits]
    assert counted["monster"] == [record.monsters.attacks, record.monsters.hits]
    assert record.party.attacks > 0 and record.monsters.attacks > 0
    for tally in (record.party, record.monsters):
        assert sum(tally.hist) == tally.hits  # weapon attacks only: every hit is in the histogram


HERO_CHANCE = Fraction(7, 20)  # d20 +5 against AC 19: 14 or better; bin 3 (0.3-0.4), not lucky
ORC_CHANCE = Fraction(3, 20)  # d20 +0 against AC 18: 18 or better; bin 1 (0.1-0.2), lucky (25% or less)


def test_the_hit_histogram_puts_each_hit_in_the_tenth_of_its_exact_chance():
    d20_rules = RuleSet.from_key("d20")
    assert exact(Check("attack", "pc", 5, 19), d20_rules)["success"] == HERO_CHANCE
    assert exact(Check("attack", "monster", 0, 18), d20_rules)["success"] == ORC_CHANCE
    hero = body(
        "hero",
        side="pc",
        hp=80,
        ac=18,
        attack={"name": "sword", "bonuses": [5], "damage": "1d4", "damage_types": ["slashing"]},
    )
    orc = body(
        "orc", hp=80, ac=19, attack={"name": "axe", "bonuses": [0], "damage": "1d4", "damage_types": ["slashing"]}
    )
    encounter = prepare([hero], [(orc, 1)], round_cap=20)
    hero_bin, orc_bin = math.floor(HERO_CHANCE * 10), math.floor(ORC_CHANCE * 10)
    hits = {"party": 0, "monsters": 0}
    for seed in range(5):
        record = fight(encounter, d20_rules, seed).record
        assert record.party.hist == [record.party.hits if k == hero_bin else 0 for k in range(10)]
        assert record.monsters.hist == [record.monsters.hits if k == orc_bin else 0 for k in range(10)]
        assert record.party.lucky_hits == 0 and record.monsters.lucky_hits == record.monsters.hits
        hits["party"] += record.party.hits
        hits["monsters"] += record.monsters.hits
    assert hits["party"] > 10 and hits["monsters"] > 3
