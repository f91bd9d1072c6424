"""Open-ended results in fights (document 002, issue 5): fumbled attacks provoke or lose the weapon, a critical
success on a save against half damage takes none and a fumbled save the maximum, an open-ended critical success is
a critical hit.

Under ``d20+open`` a natural 1 rolls again and reads the die negative: natural 1 then 20 is a total of
modifier - 20, a fumble against any ordinary target; a natural 20 (or a threat) rolls again and adds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fight_scripting import Script

from arena.combat.attacks import swing_at
from arena.combat.casting import cast
from arena.combat.conditions import add_condition
from arena.combat.damage import area_damage
from arena.combat.engine import Fight, prepare
from arena.combat.model import ModelOptions
from arena.combat.states import lose_weapon
from arena.combat.tactics import TacticsSettings
from arena.dice import parse
from arena.rules import RuleSet
from arena.study.scenarios.loading import load_scenarios
from arena.world.creatures import Creature
from arena.world.party import generate_party

ROOT = Path(__file__).resolve().parents[2]
FIRE = frozenset({"fire"})
SWORD = {"name": "sword", "bonuses": [5], "damage": "1d6", "damage_types": ["slashing"]}
JAVELIN = {"name": "javelin", "bonuses": [5], "damage": "1d6", "damage_types": ["piercing"], "kind": "ranged"}
FUMBLE = [(1, 20), (20, 20)]
"""Natural 1, then a 20 read negative: modifier - 20."""


def creature(
    name: str, side: str = "monster", hp: int = 30, ac: int = 12, routines: list | None = None, **extra
) -> Creature:
    fields = dict(
        name=name,
        type="humanoid",
        side=side,
        hp=hp,
        hit_dice="3d8",
        ac=ac,
        touch_ac=10,
        flat_footed_ac=ac,
        bab=3,
        grapple=3,
        saves={"fort": 2, "ref": 2, "will": 2},
        attack=routines or [[SWORD]],
    )
    if side == "monster":
        fields["cr"] = 1
    fields.update(extra)
    return Creature(**fields)


def make_fight(
    party: list,
    monsters: list,
    key: str = "d20+open",
    seed: int = 0,
    monster_calls: str = "never",
    party_policy: str | None = None,
):
    encounter = prepare(
        party,
        [(m, 1) for m in monsters],
        party_tactics=TacticsSettings(policy=party_policy),
        monster_tactics=TacticsSettings(called_shot=monster_calls),
    )
    return Fight(encounter, RuleSet.from_key(key), seed, log=True)


# ------------------------------------------------------------------------------------------ fumbled attacks
@pytest.mark.parametrize("key", ["d20+open", "d20+open+called", "3d6+open"])
def test_a_fumbled_melee_attack_provokes_an_attack_of_opportunity(spy, key):
    f = make_fight([creature("hero", side="pc")], [creature("orc", hp=50)], key=key, monster_calls="head")
    hero, orc = f.pcs[0], f.monsters[0]
    orc.acted = True  # not flat-footed: it can make attacks of opportunity
    if key.startswith("3d6"):
        from arena.rules.naturals import draw_for

        draws = [draw_for("3d6", (1, 1, 1)), draw_for("3d6", (6, 6, 6)), draw_for("3d6", (4, 3, 3))]
    else:
        draws = [*FUMBLE, (10, 20)]
    script = Script(f, [*draws, (3, 6)])  # the orc's attack of opportunity: 10 + 5 hits AC 12
    assert not swing_at(f, hero, orc, hero.t.standard[0], 5)
    assert script.used_up
    (mine, _, outcome), (theirs, actor, reply) = spy
    assert outcome.fumble and actor is orc and theirs.side == "monster" and reply.success
    assert theirs.press_luck is False  # an attack of opportunity is no called shot
    assert hero.hp == 27 and orc.hp == 50
    row = f.record.as_row()
    assert (row["aoo_provoked_party"], row["fumbles_party"], row["attacks_monsters"], row["hits_monsters"]) == (
        1,
        1,
        1,
        1,
    )
    assert row["aoo_provoked_monsters"] == row["called_shots_monsters"] == 0
    assert any("fumble provokes an attack of opportunity from orc" in line for line in f.lines)


def test_a_plain_miss_provokes_nothing():
    f = make_fight([creature("hero", side="pc")], [creature("orc")])
    script = Script(f, [(1, 20), (2, 20)])  # natural 1 then 2: 5 - 2 = 3, a miss by 9 only
    assert not swing_at(f, f.pcs[0], f.monsters[0], f.pcs[0].t.standard[0], 5)
    assert script.used_up and f.record.party.aoo_provoked == 0 and f.record.party.fumbles == 0


def test_no_attack_of_opportunity_from_a_helpless_target():
    f = make_fight([creature("hero", side="pc")], [creature("orc", ac=20, touch_ac=10, flat_footed_ac=20)])
    hero, orc = f.pcs[0], f.monsters[0]
    orc.acted = True
    add_condition(f, orc, "held", 600, dc=30)
    script = Script(f, FUMBLE)  # -15 against the helpless AC 11: still a fumble
    assert not swing_at(f, hero, orc, hero.t.standard[0], 5)
    assert script.used_up and f.record.party.fumbles == 1 and f.record.party.aoo_provoked == 0


@pytest.mark.parametrize(("draw", "lost"), [(0.25, True), (0.75, False)])
def test_a_fumbled_ranged_attack_loses_the_weapon_half_the_time(spy, draw, lost):
    archer = creature("hero", side="pc", routines=[[JAVELIN], [SWORD]])
    f = make_fight([archer], [creature("orc")], party_policy="caster")  # a caster with no slots shoots
    hero, orc = f.pcs[0], f.monsters[0]
    assert hero.ranged
    script = Script(f, [*FUMBLE, draw])
    assert not swing_at(f, hero, orc, hero.t.ranged_standard[0], 5)
    assert script.used_up and len(spy) == 1  # no attack of opportunity for a ranged fumble
    assert hero.weapon_lost is lost and hero.ranged is not lost
    row = f.record.as_row()
    assert (row["weapons_lost_party"], row["aoo_provoked_party"]) == (int(lost), 0)
    assert any(line.endswith("hero loses its javelin") for line in f.lines) is lost


def test_after_losing_its_weapon_the_creature_fights_in_melee():
    f = make_fight(
        [creature("hero", side="pc", routines=[[JAVELIN], [SWORD]])], [creature("orc", hp=100)], party_policy="caster"
    )
    hero = f.pcs[0]
    f.round = 2
    f.turn(hero)
    assert any(line.startswith("[r2] hero javelin ") for line in f.lines)
    lose_weapon(f, hero)
    f.round = 3
    f.turn(hero)
    swings = [line for line in f.lines if line.startswith("[r3] hero ")]
    assert swings and all(" sword " in line for line in swings)


def test_a_lost_weapon_is_never_used_again():
    f = make_fight([creature("hero", side="pc", routines=[[JAVELIN]])], [creature("orc", hp=100)])
    hero = f.pcs[0]
    lose_weapon(f, hero)
    f.round = 2
    f.turn(hero)
    assert not any(" javelin " in line for line in f.lines)


def test_fumbles_in_whole_fights_provoke_and_lose_weapons():
    """Seeds 0..39 of the reference fight under d20+open, the party shooting crossbows (policy caster) until a
    fumble costs one: both kinds of fumble happen, every provoked attack of opportunity is the target's attack,
    logged right after, and a creature that lost its weapon never uses it again."""
    scenario = load_scenarios(ROOT / "scenarios" / "reference.yaml")[0]
    encounter = prepare(
        generate_party(5),
        scenario.monster_groups(),
        party_tactics=TacticsSettings(policy="caster"),
        model=ModelOptions(undo=frozenset({"caster-melee"})),
    )  # every PC shoots
    rules = RuleSet.from_key("d20+open")
    aoo = lost = 0
    for seed in range(40):
        f = Fight(encounter, rules, seed, log=True)
        f.run()
        aoo += f.record.party.aoo_provoked + f.record.monsters.aoo_provoked
        lost += f.record.party.weapons_lost + f.record.monsters.weapons_lost
        lines = f.lines
        provoked = [i for i, line in enumerate(lines) if "provokes an attack of opportunity" in line]
        assert len(provoked) == f.record.party.aoo_provoked + f.record.monsters.aoo_provoked
        for i in provoked:
            m = re.search(r"\] (.+)'s fumble provokes an attack of opportunity from (.+)$", lines[i])
            assert m and re.match(rf"\[r\d+\] {re.escape(m.group(2))} \S.* vs {re.escape(m.group(1))} AC", lines[i + 1])
        for i, line in enumerate(lines):
            m = re.search(r"\] (.+) loses its (.+)$", line)
            if m:
                assert not any(
                    later.startswith("[r") and f"] {m.group(1)} {m.group(2)} " in later for later in lines[i + 1 :]
                )
        if aoo and lost:
            break
    assert aoo > 0 and lost > 0


# ------------------------------------------------------------------------------------------ saves against fireball
FIVE_D6 = [(4, 6)] * 5


@pytest.mark.parametrize(
    ("key", "draws", "damage", "negated", "maximised"),
    [
        ("d20+open", [(20, 20), (15, 20), *FIVE_D6], 0, 1, 0),  # 20 + 15 + 2 = 37 vs DC 15: a critical success
        ("d20+open", [(20, 20), (5, 20), *FIVE_D6], 10, 0, 0),  # 27: a success by 12, half
        ("d20+open", [(1, 20), (20, 20)], 30, 0, 1),  # 2 - 20 = -18: a fumble, maximum, no dice rolled
        ("d20+open", [(1, 20), (5, 20), *FIVE_D6], 20, 0, 0),  # 2 - 5 = -3: a failure by 18, full damage
        ("d20", [(20, 20), *FIVE_D6], 10, 0, 0),  # standard: a natural 20 is a success, half
        ("d20", [(1, 20), *FIVE_D6], 20, 0, 0),  # standard: a natural 1 is a failure, full damage
    ],
)
def test_a_saves_extremes_against_a_fireball(key, draws, damage, negated, maximised):
    f = make_fight([creature("wizard", side="pc")], [creature("orc", hp=40)], key=key)
    wizard, orc = f.pcs[0], f.monsters[0]
    script = Script(f, draws)
    area_damage(f, wizard, orc, parse("5d6"), FIRE, "ref", 15)
    assert script.used_up and orc.hp == 40 - damage
    tally = f.record.monsters
    assert (tally.saves_negated, tally.saves_maximised) == (negated, maximised)


@pytest.mark.parametrize(
    ("draws", "damage"),
    [
        ([(1, 20), (20, 20), *FIVE_D6], 0),  # the player's magic check fumbles: the monster's critical success
        ([(20, 20), (15, 20)], 30),  # the player's magic check succeeds critically: the save's fumble
    ],
)
def test_players_roll_all_a_magic_checks_extremes_are_the_saves(draws, damage):
    f = make_fight([creature("wizard", side="pc")], [creature("orc", hp=40)], key="d20+prad+open")
    wizard, orc = f.pcs[0], f.monsters[0]
    script = Script(f, draws)
    area_damage(f, wizard, orc, parse("5d6"), FIRE, "ref", 15)
    assert script.used_up and orc.hp == 40 - damage
    assert f.last_plan.roller == "pc"


def test_a_wizards_fireball_critical_success_and_fumble(spy):
    party = generate_party(5)
    wizard_block = next(c for c in party if c.name.startswith("wizard"))
    f = make_fight([wizard_block], [creature("orc 1", hp=40), creature("orc 2", hp=40)], key="d20+open")
    wizard = f.pcs[0]
    script = Script(f, [*FIVE_D6, (20, 20), (20, 20), (1, 20), (1, 20), (20, 20)])  # one damage roll for both
    cast(f, wizard, "fireball", 3, list(f.monsters))
    assert script.used_up
    assert [m.hp for m in f.monsters] == [40, 10]  # negated; maximised (5d6 -> 30)
    # (a flat-footed orc makes no attack of opportunity: tests/combat/test_model_fixes.py)
    assert [outcome.critical_success for _, _, outcome in spy] == [True, False]
    assert [outcome.fumble for _, _, outcome in spy] == [False, True]
    assert f.record.monsters.saves_negated == f.record.monsters.saves_maximised == 1


# ------------------------------------------------------------------------------------------ attacks
def test_an_open_ended_critical_success_is_a_critical_hit_without_confirmation():
    f = make_fight([creature("hero", side="pc")], [creature("orc", hp=50)])
    hero, orc = f.pcs[0], f.monsters[0]
    script = Script(f, [(20, 20), (15, 20), (3, 6), (4, 6)])  # 20 + 15 + 5 = 40 vs 12: x2, no confirmation roll
    assert swing_at(f, hero, orc, hero.t.standard[0], 5) and script.used_up
    assert orc.hp == 43 and f.record.party.crits == 1 and f.record.party.critical_successes == 1
    script = Script(f, [(20, 20), (2, 20), (3, 6)])  # 27: beats the AC by 15 only, an ordinary hit
    assert swing_at(f, hero, orc, hero.t.standard[0], 5) and script.used_up
    assert orc.hp == 40 and f.record.party.crits == 1
