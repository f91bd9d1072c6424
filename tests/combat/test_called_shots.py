"""Called shots (document 003, issue 5): declaring them, the improved AC, the lasting penalties, toughing through,
healing, the critical multiplier, coups de grace, and the fight log.

Every test is deterministic: a scripted stream (``Script``), a fixed seed, or a deterministic search over seeds.
Under ``d20`` a called shot presses luck, so an attack with bonus +5 rolls 1d20 (one draw) and then 1d10 (one
draw) in place of the +5.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from fight_scripting import SWORD, Script
from fight_scripting import stat_block as creature
from typer.testing import CliRunner

from arena.cli import app
from arena.combat import injuries
from arena.combat.attacks import attack_routine, coup_de_grace, swing_at
from arena.combat.called_shots import call_shot, called_effect, tough_through
from arena.combat.conditions import add_condition
from arena.combat.damage import deal
from arena.combat.engine import DEAD_AT, Fight, fight, prepare
from arena.combat.model import ModelOptions
from arena.combat.rolls import penalty, save
from arena.combat.states import heal
from arena.combat.tactics import TacticsSettings
from arena.rules import Check, RuleSet
from arena.rules import called_shots as cs
from arena.rules.variable_modifiers import variable_dice
from arena.world.bestiary import get_creature
from arena.world.creatures import Creature
from arena.world.party import generate_party

ROOT = Path(__file__).resolve().parents[2]
FIRE = frozenset({"fire"})
SLASHING = frozenset({"slashing"})
JAVELIN = {"name": "javelin", "bonuses": [5], "damage": "1d6", "damage_types": ["piercing"], "kind": "ranged"}
HEAD = ("head", 0)


# ------------------------------------------------------------------------------------------ helpers
def make_fight(
    party: list[Creature],
    monsters: list[Creature],
    key: str = "d20",
    seed: int = 0,
    pc_calls: str = "never",
    monster_calls: str = "never",
    **options,
) -> Fight:
    encounter = prepare(
        party,
        [(m, 1) for m in monsters],
        party_tactics=TacticsSettings(called_shot=pc_calls),
        monster_tactics=TacticsSettings(called_shot=monster_calls),
        **options,
    )
    return Fight(encounter, RuleSet.from_key(key), seed, log=True)


def duel(
    key: str = "d20+called", calls: str = "head", attack: dict | None = None, target: Creature | None = None, **pc_extra
) -> tuple[Fight, object, object]:
    f = make_fight(
        [creature("hero", side="pc", attack=attack, **pc_extra)],
        [target or creature("dummy", hp=100, ac=10)],
        key=key,
        pc_calls=calls,
    )
    return f, f.pcs[0], f.monsters[0]


def attacks(seen: list[tuple]) -> list[Check]:
    return [check for check, _, _ in seen if check.kind == "attack"]


# ------------------------------------------------------------------------------------------ penalties
ALL_ROLLS = ("attack", "ranged", "fort", "ref", "will", "initiative", "str", "dex")


def test_a_head_wound_is_minus_two_on_every_attack_save_and_check():
    f, hero, dummy = duel(key="d20")
    injuries.injure(dummy, "head", 3)  # not severe, but the head is a single part: it counts
    assert {roll: injuries.penalty(dummy, roll) for roll in ALL_ROLLS} == dict.fromkeys(ALL_ROLLS, -2)
    assert injuries.penalty(dummy, "attack", (0, 1)) == -2  # not -4: the head is not a hand


def test_a_head_wound_reaches_the_engines_attacks_and_saves(spy):
    bow = {**JAVELIN, "name": "longbow"}
    g = make_fight([creature("hero", side="pc")], [creature("archer", attack=bow, hp=100)])  # alone: no -4
    injuries.injure(g.monsters[0], "head", 3)
    swing_at(g, g.monsters[0], g.pcs[0], g.monsters[0].t.standard[0], 5)
    f = make_fight([creature("hero", side="pc")], [creature("orc", attack=SWORD, hp=100)])
    hero, orc = f.pcs[0], f.monsters[0]
    injuries.injure(orc, "head", 3)
    swing_at(f, orc, hero, orc.t.standard[0], 5)
    for kind in ("fort", "ref", "will"):
        save(f, orc, kind, 15, hero)
    checks = [check for check, _, _ in spy]
    assert [c.modifier for c in checks if c.kind == "attack"] == [3, 3]
    assert [c.modifier for c in checks if c.kind == "save"] == [0, 0, 0]  # +2 saves, -2
    assert penalty(orc, "str") == penalty(orc, "dex") == -2


def test_a_hand_wound_counts_only_on_that_hands_attacks():
    f, hero, dummy = duel(key="d20")
    injuries.injure(dummy, "hand", 3, index=1)
    assert injuries.penalty(dummy, "attack", (1,)) == injuries.penalty(dummy, "ranged", (1,)) == -2
    assert injuries.penalty(dummy, "attack", (0,)) == injuries.penalty(dummy, "attack", ()) == 0
    assert all(injuries.penalty(dummy, roll) == 0 for roll in ("fort", "ref", "will", "initiative", "str", "dex"))


def test_which_hands_an_attack_uses():
    assert cs.hands_used("longsword", 0, 1) == (0,)  # the weapon hand
    assert cs.hands_used("javelin", 3, 1) == (0,)
    assert cs.hands_used("Greatsword", 0, 1) == (0, 1)  # two-handed weapons: both
    assert cs.hands_used("light crossbow", 0, 1) == (0, 1)
    assert [cs.hands_used("claw", s, 2) for s in range(4)] == [(0,), (1,), (0,), (1,)]  # paired claws alternate
    assert cs.hands_used("bite", 0, 1) == ()


def test_paired_claws_alternate_hands_in_the_engine(spy):
    claws = {"name": "claw", "bonuses": [5], "count": 2, "damage": "1d4", "damage_types": ["slashing"]}
    f = make_fight([creature("hero", side="pc", hp=500)], [creature("beast", attack=claws)])
    beast, hero = f.monsters[0], f.pcs[0]
    injuries.injure(beast, "hand", 3, index=1)
    attack_routine(f, beast, hero, beast.t.full, True)
    attack_routine(f, beast, hero, beast.t.full, True)
    assert [c.modifier for c in attacks(spy)] == [5, 3, 5, 3]


@pytest.mark.parametrize(
    ("weapon", "hurt", "expected"),
    [
        ("sword", [0], 3),
        ("sword", [1], 5),
        ("sword", [0, 0], 3),
        ("greatsword", [0], 3),
        ("greatsword", [1], 3),
        ("greatsword", [0, 1], 1),
        ("greatsword", [1, 1], 3),
    ],
)
def test_two_hands_stack_one_hand_twice_does_not(spy, weapon, hurt, expected):
    f = make_fight([creature("hero", side="pc", hp=500)], [creature("orc", attack={**SWORD, "name": weapon})])
    orc, hero = f.monsters[0], f.pcs[0]
    for index in hurt:
        injuries.injure(orc, "hand", 3, index=index)
    swing_at(f, orc, hero, orc.t.standard[0], 5)
    assert [c.modifier for c in attacks(spy)] == [expected]


def test_called_hits_at_a_hand_always_hit_the_weapon_hand():
    """Two called hits at a hand: both on hand 0, so a two-handed weapon takes -2, not -4."""
    target = creature(
        "orc",
        hp=100,
        ac=10,
        attack={**SWORD, "name": "greatsword"},
        body_parts=[{"part": "hand", "count": 2, "ac_bonus": 0}],
    )
    f, hero, orc = duel(calls="when-better", target=target)
    for _ in range(2):
        hero.called_this_round = False
        script = Script(f, [(15, 20), (5, 10), (3, 6)])  # 15 + 1d10 (5) = 20 >= 10 - 2: a called hit for 3
        assert swing_at(f, hero, orc, hero.t.standard[0], 5) and script.used_up
    assert list(orc.injuries) == [("hand", 0)] and f.record.party.called_hits == 2
    assert injuries.penalty(orc, "attack", cs.hands_used("greatsword", 0, 1)) == -2


def test_severity_of_eyes_one_of_two_severe_two_blind():
    f, hero, dummy = duel(key="d20+called")
    assert dummy.t.first_hit_die == 8
    called_effect(f, hero, dummy, "eye", 7)  # below the first hit die's maximum: minor
    assert dummy.injuries[("eye", 0)].severe is False
    assert all(injuries.penalty(dummy, roll) == 0 for roll in ALL_ROLLS)
    called_effect(f, hero, dummy, "eye", 8)  # severe: half the eyes
    assert {roll: injuries.penalty(dummy, roll) for roll in ALL_ROLLS} == {
        "attack": 0,
        "ranged": -2,
        "fort": 0,
        "ref": -2,
        "will": 0,
        "initiative": -2,
        "str": 0,
        "dex": -2,
    }
    assert not injuries.fully_severe(dummy, "eye")
    called_effect(f, hero, dummy, "eye", 9)  # the other eye: blinded
    assert injuries.fully_severe(dummy, "eye")
    assert injuries.penalty(dummy, "ranged") == injuries.penalty(dummy, "ref") == -4
    assert any(line.endswith("- blinded") for line in f.lines)


def test_a_blinded_defender_has_minus_two_ac_and_a_blinded_attacker_misses_half(spy):
    f, hero, dummy = duel(key="d20", calls="never")
    for _ in range(2):
        injuries.injure(dummy, "eye", 8)
    Script(f, [(10, 20), (1, 6)])
    swing_at(f, hero, dummy, hero.t.standard[0], 5)
    assert attacks(spy)[-1].target == 10 - 2
    hp = hero.hp
    script = Script(f, [(19, 20), 0.49])  # a hit, then the 50% miss chance: it misses
    assert not swing_at(f, dummy, hero, dummy.t.standard[0], 30) and script.used_up and hero.hp == hp
    script = Script(f, [(19, 20), 0.51, (2, 6)])  # a hit that finds its mark
    assert swing_at(f, dummy, hero, dummy.t.standard[0], 30) and script.used_up and hero.hp == hp - 2


# ------------------------------------------------------------------------------------------ toughing through
def test_toughing_through_lifts_the_penalty_for_that_turn_only(spy):
    f = make_fight([creature("hero", side="pc", hp=500)], [creature("orc")])
    orc = f.monsters[0]
    injuries.injure(orc, "head", 5)  # DC 15
    script = Script(f, [(20, 20)])
    tough_through(f, orc)
    assert script.used_up and orc.toughed == frozenset({HEAD})
    assert injuries.penalty(orc, "attack", toughed=orc.toughed) == 0 and penalty(orc, "will") == 0
    assert injuries.penalty(orc, "attack") == -2  # the injury itself stays
    ((check, actor, _),) = spy
    assert (check.kind, check.target, check.modifier, actor) == ("save", 15, 0, orc)  # Fort +2, head -2
    # the next turn starts afresh: the new save fails, the penalty is back (and the attack takes it)
    script = Script(f, [(1, 20), (1, 20)])  # failed tough-through save; the attack misses
    f.turn(orc)
    assert script.used_up and orc.toughed == frozenset() and penalty(orc, "attack") == -2
    assert attacks(spy)[-1].modifier == 5 - 2
    tally = f.record.monsters
    assert (tally.tough_through_saves, tally.tough_through_passed) == (2, 1)


def test_a_tough_through_save_is_made_once_per_injured_part_with_the_better_save(spy):
    f = make_fight([creature("hero", side="pc")], [creature("orc", saves={"fort": 1, "ref": 0, "will": 6})])
    orc = f.monsters[0]
    injuries.injure(orc, "hand", 4, index=0)
    injuries.injure(orc, "leg", 9)  # Reflex and Dexterity only
    Script(f, [(20, 20), (1, 20)])
    tough_through(f, orc)
    assert [(c.target, c.modifier) for c, _, _ in spy] == [(14, 6), (19, 6)]  # Will +6, the better save
    assert orc.toughed == frozenset({("hand", 0)})
    injuries.injure(orc, "head", 2)
    Script(f, [(20, 20), (20, 20), (20, 20)])
    tough_through(f, orc)
    assert [(c.target, c.modifier) for c, _, _ in spy[2:]] == [(14, 4), (19, 4), (12, 4)]  # the head: -2
    assert orc.toughed == frozenset({("hand", 0), ("leg", 0), HEAD})


def test_monsters_roll_their_own_tough_through_saves_when_players_roll_all(spy):
    f = make_fight([creature("hero", side="pc")], [creature("orc")], key="d20+prad+called")
    hero, orc = f.pcs[0], f.monsters[0]
    injuries.injure(orc, "head", 5)
    injuries.injure(hero, "head", 5)
    tough_through(f, orc)
    assert f.last_plan.roller == "monster" and spy[-1][2].roller == "monster"
    tough_through(f, hero)
    assert spy[-1][2].roller == "pc"
    save(f, orc, "fort", 15, hero)  # an ordinary save against a PC: the player rolls
    assert spy[-1][2].roller == "pc"


def test_in_a_whole_fight_under_players_roll_all_monsters_tough_through_themselves(spy):
    clever = TacticsSettings(called_shot="when-better")
    rules = RuleSet.from_key("d20+prad+called")
    monster_toughs = []
    for seed in range(20):
        spy.clear()
        encounter = prepare(
            generate_party(5),
            [(get_creature("bugbear"), 2), (get_creature("ogre"), 1)],
            party_tactics=clever,
            monster_tactics=clever,
        )
        fight(encounter, rules, seed)
        toughs = [
            (check, outcome)
            for check, actor, outcome in spy
            if check.kind == "save" and check.opponent == check.side == actor.side == "monster"
        ]
        monster_toughs += toughs
        if len(monster_toughs) >= 5:
            break
    assert len(monster_toughs) >= 5
    assert {outcome.roller for _, outcome in monster_toughs} == {"monster"}


# ------------------------------------------------------------------------------------------ healing
def test_one_point_of_magical_healing_ends_minor_wounds_only():
    f, hero, dummy = duel(key="d20+called")
    deal(f, hero, dummy, 20, SLASHING)
    injuries.injure(dummy, "hand", 3, index=0)  # minor
    injuries.injure(dummy, "head", 8)  # severe
    heal(f, dummy, 1)
    assert list(dummy.injuries) == [HEAD]
    heal(f, dummy, 18)  # 99/100: lethal damage left
    assert list(dummy.injuries) == [HEAD]
    heal(f, dummy, 1)  # full hit points: every wound ends
    assert dummy.hp == dummy.max_hp and dummy.injuries == {}


def test_fast_healing_at_turn_start_ends_minor_wounds(spy):
    f = make_fight([creature("hero", side="pc")], [creature("imp", fast_healing=2)])
    imp = f.monsters[0]
    deal(f, f.pcs[0], imp, 10, SLASHING)
    injuries.injure(imp, "hand", 3, index=0)
    injuries.injure(imp, "eye", 8)
    add_condition(f, imp, "stunned", 60)  # it heals, then loses its turn: no dice
    script = Script(f, [])
    f.turn(imp)
    assert script.used_up and imp.hp == 22 and list(imp.injuries) == [("eye", 0)]
    imp.hp = imp.max_hp - 1
    f.turn(imp)  # healed to full: the severe wound ends too
    assert imp.hp == imp.max_hp and imp.injuries == {}


def test_regeneration_at_turn_start_ends_minor_wounds():
    f = make_fight([creature("hero", side="pc")], [get_creature("troll")])
    hero, troll = f.pcs[0], f.monsters[0]
    deal(f, hero, troll, 10, FIRE)
    deal(f, hero, troll, 12, SLASHING, SLASHING, weapon=True)
    injuries.injure(troll, "arm", 3, index=0)  # minor
    injuries.injure(troll, "head", 10)  # severe (troll: d8 hit dice)
    add_condition(f, troll, "stunned", 60)
    script = Script(f, [])
    f.turn(troll)
    assert script.used_up and troll.nonlethal == 7 and list(troll.injuries) == [HEAD]


# ------------------------------------------------------------------------------------------ the critical multiplier
@pytest.mark.parametrize(
    ("confirm", "damage_draws", "dc", "severe"),
    [
        ((15, 20), [(6, 6), (6, 6), (6, 6)], 10 + 18, True),  # confirmed x3: 18
        ((1, 20), [(6, 6)], 10 + 6, False),  # not confirmed: 6
    ],
)
def test_the_critical_multiplier_raises_the_tough_through_dc(spy, confirm, damage_draws, dc, severe):
    axe = {**SWORD, "name": "axe", "multiplier": 3}
    f, hero, dummy = duel(attack=axe, target=creature("dummy", hp=100, ac=10, hit_dice="3d10"))
    script = Script(f, [(20, 20), (5, 10), confirm, (5, 10), *damage_draws])
    assert swing_at(f, hero, dummy, hero.t.standard[0], 5) and script.used_up
    injury = dummy.injuries[HEAD]
    assert (injury.worst, injury.dc, injury.severe) == (dc - 10, dc, severe)
    Script(f, [(10, 20)])
    tough_through(f, dummy)
    assert spy[-1][0].target == dc


# ------------------------------------------------------------------------------------------ declaring a called shot
@pytest.mark.parametrize(
    ("key", "calls", "called"),
    [
        ("d20", "head", False),
        ("d20+called", "never", False),
        ("d20+called", "head", True),
        ("3d6+prad+luck+open", "when-better", False),
        ("3d6+prad+luck+open+called", "when-better", True),
    ],
)
def test_a_called_shot_needs_the_rule_and_the_policy(spy, key, calls, called):
    f, hero, dummy = duel(key=key, calls=calls)
    swing_at(f, hero, dummy, hero.t.standard[0], 5)
    assert attacks(spy)[0].press_luck is called
    assert f.record.party.called_shots == int(called)


def test_only_one_called_shot_a_round(spy):
    sword = {**SWORD, "bonuses": [8, 3]}
    f, hero, dummy = duel(attack=sword, target=creature("dummy", hp=500, ac=10))
    attack_routine(f, hero, dummy, hero.t.full, True)
    attack_routine(f, hero, dummy, hero.t.full, True)  # still the same round
    assert [c.press_luck for c in attacks(spy)] == [True, False, False, False]
    f.round = 2
    f.turn(hero)  # a new turn: one more
    assert [c.press_luck for c in attacks(spy)][4:] == [True, False]
    assert f.record.party.called_shots == 2


def test_never_a_called_shot_on_a_touch_attack(spy):
    touch = {**SWORD, "touch": True}
    f, hero, dummy = duel(attack=touch)
    assert call_shot(f, hero, dummy, hero.t.standard[0], 5, 10, True) is None
    swing_at(f, hero, dummy, hero.t.standard[0], 5)
    assert attacks(spy)[0].press_luck is False and f.record.party.called_shots == 0


@pytest.mark.parametrize(("types", "part"), [(["slashing"], None), (["fire"], "head")])
def test_never_a_called_shot_whose_damage_would_be_nonlethal(spy, types, part):
    weapon = {**SWORD, "damage_types": types}
    f, hero, troll = duel(attack=weapon, target=get_creature("troll"))
    assert call_shot(f, hero, troll, hero.t.standard[0], 5, troll.t.ac, False) == part
    swing_at(f, hero, troll, hero.t.standard[0], 5)
    assert attacks(spy)[0].press_luck is (part is not None)


@pytest.mark.parametrize("key", ["d20+called", "3d6+called", "d20+prad+called"])
def test_the_called_roll_presses_luck_even_under_static_rules(spy, key):
    f, hero, dummy = duel(key=key)
    swing_at(f, hero, dummy, hero.t.standard[0], 5)
    check, _, outcome = spy[0]
    assert check.press_luck and outcome.pressed
    assert f.last_plan.var_dice and f.last_plan.static == 0  # +5 became 1d10


def test_a_pressed_called_roll_is_counted_whether_or_not_the_caller_is_blessed():
    counts = []
    for blessed in (False, True):
        f, hero, dummy = duel(key="d20+called")
        if blessed:
            add_condition(f, hero, "bless", 600)
        swing_at(f, hero, dummy, hero.t.standard[0], 5)
        counts.append(f.record.party.luck_pressed)
    assert counts == [1, 1]


# ------------------------------------------------------------------------------------------ the improved AC
@pytest.mark.parametrize(
    ("attack", "natural", "called"),
    [
        (SWORD, 6, False),
        (SWORD, 7, True),  # melee: AC 10 + head 4 - 2 = 12
        (JAVELIN, 8, False),
        (JAVELIN, 9, True),  # ranged: 10 + 4 = 14
    ],
)
def test_a_called_hit_needs_the_improved_ac_otherwise_it_is_an_ordinary_hit(spy, attack, natural, called):
    f, hero, dummy = duel(attack=attack)
    script = Script(f, [(natural, 20), (5, 10), (3, 6)])  # total natural + 5: beats AC 10 either way
    assert swing_at(f, hero, dummy, hero.t.standard[0], 5) and script.used_up
    assert attacks(spy)[0].target == 10  # the roll is against the ordinary AC
    assert dummy.hp == 97
    assert (HEAD in dummy.injuries) is called
    tally = f.record.party
    assert (tally.called_shots, tally.hits, tally.called_hits) == (1, 1, int(called))


def test_a_natural_20_is_a_called_hit_even_below_the_improved_ac():
    f, hero, dummy = duel(target=creature("dummy", hp=100, ac=40))
    script = Script(f, [(20, 20), (10, 10), (1, 20), (1, 10), (3, 6)])  # 30 < 40: automatic hit, unconfirmed
    assert swing_at(f, hero, dummy, hero.t.standard[0], 5) and script.used_up
    assert dummy.hp == 97 and f.record.party.called_hits == 1 and list(dummy.injuries) == [HEAD]


def test_a_miss_is_a_miss():
    f, hero, dummy = duel()
    script = Script(f, [(2, 20), (3, 10)])  # 5 < 10
    assert not swing_at(f, hero, dummy, hero.t.standard[0], 5) and script.used_up
    assert dummy.hp == 100 and dummy.injuries == {} and f.record.party.called_shots == 1


def test_temporary_hit_points_soak_a_called_shots_damage_first():
    f, hero, dummy = duel()
    dummy.temp_hp = 3
    Script(f, [(15, 20), (5, 10), (3, 6)])
    swing_at(f, hero, dummy, hero.t.standard[0], 5)  # a called hit, all soaked: no wound
    assert dummy.injuries == {} and dummy.hp == 100
    Script(f, [(15, 20), (5, 10), (5, 6)])
    hero.called_this_round = False
    swing_at(f, hero, dummy, hero.t.standard[0], 5)
    assert dummy.injuries[HEAD].worst == 5


# ------------------------------------------------------------------------------------------ when-better
HARD_HEAD = [
    {"part": "head", "count": 1, "ac_bonus": 20},
    {"part": "hand", "count": 2, "ac_bonus": 4},
    {"part": "eye", "count": 2, "ac_bonus": 8},
]


def test_when_better_calls_the_best_part_it_can_hit_and_head_always_the_head():
    target = creature("dummy", hp=100, ac=12, body_parts=HARD_HEAD)
    f, hero, dummy = duel(calls="when-better", target=target)
    attack = hero.t.standard[0]
    assert call_shot(f, hero, dummy, attack, 5, 12, True) == "hand"
    assert call_shot(f, hero, dummy, attack, 5, 40, True) is None  # nothing reaches 30%
    hero.settings = TacticsSettings(called_shot="head")
    assert call_shot(f, hero, dummy, attack, 5, 12, True) == "head"
    assert call_shot(f, hero, dummy, attack, 5, 40, True) == "head"


def called_hit_chance(mod: int, improved: int) -> Fraction:
    """Under d20: the chance that a pressed roll (d20 + the dice of ``mod``) is a called hit: not a natural 1, and
    a total of at least the improved AC or a natural 20 (an automatic hit hits the AC it was aimed at)."""
    var = variable_dice(mod).exact()
    chance = Fraction(0)
    for value, count in zip(var.outcomes(), var.quantities(), strict=True):
        naturals = sum(1 for natural in range(2, 21) if natural == 20 or natural + value >= improved)
        chance += Fraction(naturals, 20) * Fraction(count, var.denominator())
    return chance


def expected_call(mod: int, ac: int, parts: dict, ranged: bool) -> str | None:
    reach = 0 if ranged else cs.MELEE_BONUS
    good = [
        part for part, (_, bonus) in parts.items() if called_hit_chance(mod, ac + bonus - reach) >= cs.WHEN_BETTER_FLOOR
    ]
    return max(good, key=cs.VALUE.get) if good else None


@pytest.mark.parametrize("attack", [SWORD, JAVELIN])
def test_when_better_picks_the_most_valuable_part_with_a_thirty_percent_chance(attack):
    f, hero, dummy = duel(calls="when-better", attack=attack)  # the default humanoid body
    calls = {}
    for ac in range(2, 40):
        calls[ac] = call_shot(f, hero, dummy, hero.t.standard[0], 5, ac, True)
        assert calls[ac] == expected_call(5, ac, dummy.t.parts, attack is JAVELIN), ac
    assert {"head", "arm", None} <= set(calls.values())  # the ladder goes down as the AC goes up
    assert (
        cs.VALUE["head"] > cs.VALUE["crotch"] > cs.VALUE["hand"] > cs.VALUE["arm"] > cs.VALUE["eye"] > cs.VALUE["leg"]
    )


def test_when_better_judges_a_melee_call_by_the_called_hits_own_chance():
    f, hero, dummy = duel(calls="when-better", attack={**SWORD, "bonuses": [8]})
    assert called_hit_chance(8, 21 + 4 - 2) < cs.WHEN_BETTER_FLOOR  # the head: below the floor
    assert call_shot(f, hero, dummy, hero.t.standard[0], 8, 21, True) == expected_call(8, 21, dummy.t.parts, False)


def test_when_better_in_the_engine_injures_the_hand_where_the_head_is_out_of_reach():
    f, hero, dummy = duel(calls="when-better", target=creature("dummy", hp=100, ac=10, body_parts=HARD_HEAD))
    script = Script(f, [(15, 20), (5, 10), (3, 6)])
    swing_at(f, hero, dummy, hero.t.standard[0], 5)
    assert script.used_up and list(dummy.injuries) == [("hand", 0)]
    assert f.record.called_hits_by_part == {"hand": 1}


# ------------------------------------------------------------------------------------------ coup de grace
@pytest.mark.parametrize("condition", ["asleep", "held"])
def test_a_coup_de_grace_is_an_automatic_critical_then_fortitude_or_death(spy, condition):
    f, hero, dummy = duel(key="d20", calls="never")
    add_condition(f, dummy, condition, 600, dc=30)
    script = Script(f, [(4, 6), (5, 6), (1, 20)])  # x2: 4 + 5; Fort DC 19 fails
    coup_de_grace(f, hero, dummy)
    assert script.used_up and dummy.dead and dummy.hp <= DEAD_AT
    ((check, actor, _),) = spy
    assert (check.kind, check.target, actor) == ("save", 10 + 9, dummy)
    assert f.record.party.coups_de_grace == 1 and dummy.injuries == {}


def test_a_coup_de_grace_survived():
    f, hero, dummy = duel(key="d20", calls="never")
    add_condition(f, dummy, "held", 600, dc=30)
    script = Script(f, [(1, 6), (2, 6), (20, 20)])
    coup_de_grace(f, hero, dummy)
    assert script.used_up and not dummy.dead and dummy.hp == 97


def test_a_coup_de_grace_with_called_shots_injures_the_head_without_a_roll(spy):
    f, hero, dummy = duel(key="d20+called", calls="when-better")
    add_condition(f, dummy, "asleep", 600)
    script = Script(f, [(4, 6), (5, 6), (20, 20)])
    coup_de_grace(f, hero, dummy)
    assert script.used_up and not dummy.dead
    assert [check.kind for check, _, _ in spy] == ["save"]  # no attack roll at all
    injury = dummy.injuries[HEAD]
    assert (injury.worst, injury.dc, injury.severe) == (9, 19, True)
    # the wound begins right after the damage: the Fortitude save already takes its -2
    assert spy[0][0].modifier == 2 - 2
    assert (f.record.party.called_shots, f.record.party.called_hits) == (1, 1)


def test_the_policy_delivers_a_coup_de_grace_to_a_sleeper():
    f, hero, dummy = duel(key="d20+called", calls="head")
    add_condition(f, dummy, "asleep", 600)
    Script(f, [(4, 6), (5, 6), (20, 20)])
    f.round = 2
    f.turn(hero)
    assert f.record.party.coups_de_grace == 1 and HEAD in dummy.injuries


# ------------------------------------------------------------------------------------------ the fight log
runner = CliRunner()


def fight_log(scenario: Path, seed: int, key: str = "3d6+luck+open+called") -> str:
    result = runner.invoke(app, ["fight", str(scenario), "--rules", key, "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    return result.output


def seeds_showing(scenario: Path, words: tuple[str, ...], seeds: range) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {w: [] for w in words}
    for seed in seeds:
        text = fight_log(scenario, seed)
        for w in words:
            if w in text:
                found[w].append(seed)
        if all(found.values()):
            break
    return found


LOG_WORDS = ("called shot", "injured", "toughs through")


def test_the_reference_fight_log_shows_called_shots_penalties_and_tough_through_saves():
    scenario = ROOT / "scenarios" / "reference.yaml"  # both sides call shots when-better
    found = seeds_showing(scenario, LOG_WORDS, range(51))
    assert all(found.values()), found
    log = fight_log(scenario, found["toughs through"][0])
    assert "(called shot: " in log and "is injured" in log and "penalties " in log
    plain = fight_log(scenario, found["toughs through"][0], key="3d6+luck+open")
    assert not any(w in plain for w in LOG_WORDS)


@pytest.mark.parametrize("calls", ["head", "when-better"])
def test_no_called_shot_on_a_flat_footed_pc_under_players_roll_all(spy, calls):
    """Doc 003: "Then you must make an attack roll while pressing your luck", and "You can't choose to press your
    luck ... on flat-footed AC rolls". Under players roll all a monster's attack on a flat-footed PC is the PC's
    flat-footed defense roll: it cannot be pressed, so no shot is called (the model before 0.4 called it unpressed:
    ``undo called-shot-pressed``). Once the PC has acted, the shot is called and pressed."""
    for model, called in ((ModelOptions(), False), (ModelOptions(undo=frozenset({"called-shot-pressed"})), True)):
        f = make_fight(
            [creature("hero", side="pc", hp=200)],
            [creature("orc", attack=SWORD)],
            key="3d6+prad+luck+called",
            model=model,
            monster_calls=calls,
        )
        hero, orc = f.pcs[0], f.monsters[0]
        assert not hero.acted
        part = call_shot(f, orc, hero, orc.t.standard[0], 5, hero.t.ff_ac, True)
        assert (part is not None) is called
        swing_at(f, orc, hero, orc.t.standard[0], 5)
        assert f.record.monsters.called_shots == int(called)
        assert not any(check.press_luck for check in attacks(spy))
        hero.acted = True
        orc.called_this_round = False
        assert call_shot(f, orc, hero, orc.t.standard[0], 5, hero.t.ac, False) is not None
        spy.clear()
