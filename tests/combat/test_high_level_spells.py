"""Issue 24: the generated wizard's and cleric's spells of 6th-9th level, each against its SRD 3.5 line, and the
caster's choice of spell and target by expected damage after energy resistance, immunity and regeneration (the
``energy-aware-spells`` and ``high-level-spells`` fixes, each one ``undo`` away).

The numbers are measured as ``test_spells_policies`` measures the lower levels: under ``fixed10`` every d20 shows 10
(a save or a touch attack is decided by the stat block alone) and every other die is forced to show its lowest
(LOW) or its top face (HIGH)."""

from __future__ import annotations

import pytest
from fight_scripting import make_fight, stat_block

from arena.combat import tactics
from arena.combat.casting import cast
from arena.combat.conditions import add_condition
from arena.combat.engine import Fight, fight, prepare
from arena.combat.model import ModelOptions
from arena.dice import Stream
from arena.rules import RuleSet
from arena.study.scenarios.parts import party_options
from arena.world.bestiary import get_creature
from arena.world.class_tables import class_row
from arena.world.creatures import Creature
from arena.world.party import build_character, generate_party

LOW, HIGH = 0.0, 1 - 1e-12
FAILS = {"fort": -5, "ref": -5, "will": -5}
"""Fails every save under fixed10 (10 - 5 is below any DC)."""
SOFT = {"fort": 40, "ref": -5, "will": -5}
"""Fails every Reflex and Will save; passes the massive-damage save (DC 15 Fortitude at 50 damage)."""
SAVES = {"fort": 40, "ref": 40, "will": 40}


def body(name: str, side: str = "monster", hp: int = 2000, saves=None, ac: int = 10, **extra) -> Creature:
    return stat_block(name, side, hp, ac, None, saves=saves or SOFT, **extra)


def mage(cl: int, prepared: dict | None = None, name: str = "mage", **extra) -> Creature:
    casting = {"caster_level": cl, "ability": "int", "prepared": prepared or {}}
    return body(name, side="pc", hp=60, spellcasting=casting, **extra)


def every_die_shows(f: Fight, draw: float) -> None:
    stream = Stream.scripted([])
    stream.rand = lambda: draw
    f.stream = stream
    f.rand = stream.rand


def casting(spell: str, level: int, cl: int, targets: list[Creature], draw: float, side: str = "monster") -> Fight:
    """A fight after one casting of ``spell`` by a caster of level ``cl`` at ``targets`` (monsters, or the caster's
    allies with ``side="pc"``)."""
    party = [mage(cl)] + (targets if side == "pc" else [])
    f = make_fight(party, [body("bystander")] if side == "pc" else targets, "fixed10")
    every_die_shows(f, draw)
    aimed = f.pcs[1:] if side == "pc" else f.monsters
    cast(f, f.pcs[0], spell, level, list(aimed))
    return f


def lost(c) -> int:
    return c.max_hp - c.hp + c.nonlethal


# --------------------------------------------------------------------------------------------- the spell lists
SRD_LEVEL = {
    "wizard": {
        "disintegrate": 6,
        "chain lightning": 6,
        "delayed blast fireball": 7,
        "finger of death": 7,
        "polar ray": 8,
        "meteor swarm": 9,
    },
    "cleric": {
        "heal": 6,
        "harm": 6,
        "blade barrier": 6,
        "destruction": 7,
        "regenerate": 7,
        "mass cure serious wounds": 7,
        "fire storm": 8,
        "mass cure critical wounds": 8,
        "mass heal": 9,
    },
}
"""The SRD 3.5 spell lists' levels (Sor/Wiz 6: disintegrate, chain lightning; 7: delayed blast fireball, finger of
death; 8: polar ray; 9: meteor swarm. Clr 6: heal, harm, blade barrier; 7: destruction, regenerate, mass cure
serious wounds; 8: fire storm, mass cure critical wounds; 9: mass heal)."""


@pytest.mark.parametrize("level", range(11, 21))
@pytest.mark.parametrize("cls", ["wizard", "cleric"])
def test_every_slot_level_of_a_high_level_caster_holds_spells_of_that_level(cls, level):
    caster = build_character(cls, level)
    assert caster.spellcasting is not None
    prepared = caster.spellcasting.prepared
    per_day = class_row(cls, level)[4]
    highest = max(lv for lv in range(1, len(per_day)) if per_day[lv])
    assert sorted(prepared) == list(range(1, highest + 1))
    for slot_level in range(6, highest + 1):
        assert prepared[slot_level], slot_level
        for name in prepared[slot_level]:
            assert SRD_LEVEL[cls].get(name) == slot_level, (slot_level, name)


def test_the_old_lists_are_one_undo_away():
    """Before the fix a 16th-level wizard's 6th-8th slots all held cone of cold (``arena party --level 16``)."""
    options = party_options(ModelOptions(undo=frozenset({"high-level-spells"})))
    wizard, cleric = (
        build_character(cls, 16, **options).spellcasting.prepared  # type: ignore[union-attr]
        for cls in ("wizard", "cleric")
    )
    assert {name for lv in (6, 7, 8) for name in wizard[lv]} == {"cone of cold"}
    assert {name for lv in (6, 7, 8) for name in cleric[lv]} == {"flame strike"}
    now = build_character("wizard", 16).spellcasting.prepared  # type: ignore[union-attr]
    assert "cone of cold" not in {name for lv in (6, 7, 8) for name in now[lv]}


# --------------------------------------------------------------------------------------------- wizard spells
@pytest.mark.parametrize(("cl", "d6s"), [(11, 22), (15, 30), (20, 40), (25, 40)])
def test_disintegrate_deals_2d6_a_level_to_40d6_and_5d6_on_a_fortitude_save(cl, d6s):
    """SRD disintegrate: "2d6 points of damage per caster level (to a maximum of 40d6)"; "A creature ... that makes a
    successful Fortitude save is partially affected, taking only 5d6 points of damage"."""
    assert lost(casting("disintegrate", 6, cl, [body("rock", saves=FAILS)], LOW).monsters[0]) == d6s
    assert lost(casting("disintegrate", 6, cl, [body("rock", saves=SAVES)], HIGH).monsters[0]) == 30


def test_disintegrate_needs_a_ranged_touch_attack_and_disintegrates_at_zero():
    missed = casting("disintegrate", 6, 12, [body("far", ac=40, touch_ac=40)], HIGH).monsters[0]
    assert lost(missed) == 0
    f = casting("disintegrate", 6, 12, [body("ogre", hp=20, saves=SAVES)], LOW)  # 5 damage: alive
    assert not f.monsters[0].dead
    f = casting(
        "disintegrate", 6, 12, [body("ogre", hp=20, saves=FAILS)], LOW
    )  # 24: reduced below 0, entirely disintegrated
    assert f.monsters[0].dead and f.monsters[0].hp > -10
    assert "ogre is disintegrated" in "\n".join(f.lines or [])


@pytest.mark.parametrize(("cl", "bonus"), [(13, 13), (20, 20), (30, 25)])
def test_finger_of_death_slays_or_deals_3d6_plus_a_level_to_25(cl, bonus):
    """SRD finger of death: death on a failed Fortitude save; "If the save succeeds, the victim instead takes 3d6
    points of damage +1 point per caster level (maximum +25)"."""
    assert casting("finger of death", 7, cl, [body("victim", saves=FAILS)], LOW).monsters[0].dead
    assert lost(casting("finger of death", 7, cl, [body("victim", saves=SAVES)], LOW).monsters[0]) == 3 + bonus
    for immune in (
        body("zombie", type="undead"),
        body("golem", type="construct"),
        body("x", immunities=["death effects"]),
    ):
        target = casting("finger of death", 7, cl, [immune], LOW).monsters[0]
        assert not target.dead and lost(target) == 0


@pytest.mark.parametrize(("cl", "d6s"), [(15, 15), (20, 20), (30, 25)])
def test_polar_ray_deals_1d6_cold_a_level_to_25d6_no_save(cl, d6s):
    """SRD polar ray: "1d6 points of cold damage per caster level (maximum 25d6)", ranged touch, no save."""
    assert lost(casting("polar ray", 8, cl, [body("yeti", saves=SAVES)], LOW).monsters[0]) == d6s
    resistant = body("yeti", energy_resistance={"cold": 10})
    assert lost(casting("polar ray", 8, cl, [resistant], HIGH).monsters[0]) == 6 * d6s - 10


@pytest.mark.parametrize(
    ("spell", "level", "cl", "d6s"),
    [
        ("delayed blast fireball", 7, 14, 14),
        ("delayed blast fireball", 7, 20, 20),
        ("delayed blast fireball", 7, 25, 20),
        ("fire storm", 8, 15, 15),
        ("fire storm", 8, 25, 20),
        ("blade barrier", 6, 11, 11),
        ("blade barrier", 6, 20, 15),
    ],
)
def test_high_level_area_spells_roll_a_d6_a_level_to_their_cap(spell, level, cl, d6s):
    """SRD delayed blast fireball and fire storm: 1d6 fire per caster level (maximum 20d6), Reflex half; blade
    barrier 1d6 per caster level (maximum 15d6): a creature where it appears avoids it "and thus take[s] no damage
    by making a successful Reflex save"."""
    assert lost(casting(spell, level, cl, [body("a"), body("b")], LOW).monsters[1]) == d6s
    saved = lost(casting(spell, level, cl, [body("a", saves=SAVES)], HIGH).monsters[0])
    assert saved == (0 if spell == "blade barrier" else 6 * d6s // 2)


def test_chain_lightning_strikes_the_primary_and_half_as_much_each_secondary():
    """SRD chain lightning: 1d6 per caster level (maximum 20d6) to the primary target, "secondary bolts each ...
    deal half as much damage as the primary one did", one secondary per caster level."""
    tough = {"fort": 40, "ref": -5, "will": -5}  # no massive damage save failed
    f = casting("chain lightning", 6, 12, [body(name, saves=tough) for name in "abc"], HIGH)
    assert [lost(m) for m in f.monsters] == [72, 36, 36]


def test_meteor_swarm_four_spheres_at_a_lone_target_strike_with_no_save():
    """SRD meteor swarm: four spheres, "You may aim more than one meteor at the same target"; a creature struck
    "takes 2d6 points of bludgeoning damage (no save) and receives no saving throw against the sphere's fire
    damage" of 6d6."""
    assert lost(casting("meteor swarm", 9, 17, [body("dragon", saves=SAVES)], LOW).monsters[0]) == 4 * (2 + 6)
    missed = casting("meteor swarm", 9, 17, [body("dragon", saves=SAVES, ac=40, touch_ac=40)], HIGH).monsters[0]
    assert lost(missed) == 4 * 36 // 2  # each sphere misses and explodes nearby: Reflex half


def test_meteor_swarm_at_many_catches_each_in_one_sphere_or_more():
    f = casting("meteor swarm", 9, 17, [body(f"m{i}", saves=SAVES, ac=40, touch_ac=40) for i in range(6)], HIGH)
    assert [lost(m) for m in f.monsters] == [18] * 6  # four aimed and missed, two caught: one sphere each, half


# --------------------------------------------------------------------------------------------- cleric spells
@pytest.mark.parametrize(("spell", "cl", "cured"), [("heal", 11, 110), ("heal", 20, 150), ("mass heal", 20, 200)])
def test_heal_cures_10_a_level_to_its_cap_and_ends_afflictions(spell, cl, cured):
    """SRD heal: "cures 10 hit points of damage per level of the caster, to a maximum of 150"; mass heal "the maximum
    number of hit points restored to each creature is 250"; heal "immediately ends ... dazed, ... nauseated, ...
    stunned"."""
    friend = body("friend", side="pc", hp=500)
    f = make_fight([mage(cl), friend], [body("bystander")], "fixed10")
    ally = f.pcs[1]
    ally.hp = 100
    add_condition(f, ally, "stunned", 60.0)
    add_condition(f, ally, "nauseated", 60.0)
    cast(f, f.pcs[0], spell, 6, [ally])
    assert ally.hp == 100 + cured
    assert "stunned" not in ally.conditions and "nauseated" not in ally.conditions


@pytest.mark.parametrize(("saves", "amount"), [(SOFT, 120), (SAVES, 60)])
def test_harm_deals_10_a_level_will_half_never_below_1(saves, amount):
    """SRD harm: "10 points of damage per caster level (to a maximum of 150 points at 15th level). If the creature
    successfully saves, harm deals half this amount, but it cannot reduce the target's hit points to less than 1"."""
    assert lost(casting("harm", 6, 12, [body("ogre", saves=saves)], LOW).monsters[0]) == amount
    weak = casting("harm", 6, 20, [body("ogre", hp=40)], LOW).monsters[0]
    assert weak.hp == 1
    zombie = casting("harm", 6, 20, [body("zombie", type="undead", hp=40)], LOW).monsters[0]
    assert lost(zombie) == 0  # harm heals undead: aimed at the living only


def test_heal_on_undead_acts_like_harm():
    zombie = casting("heal", 6, 12, [body("zombie", type="undead", hp=200, saves=SAVES)], LOW).monsters[0]
    assert lost(zombie) == 60


@pytest.mark.parametrize(("saves", "slain", "damage"), [(FAILS, True, 0), (SAVES, False, 10)])
def test_destruction_slays_or_deals_10d6(saves, slain, damage):
    """SRD destruction: "the subject is slain ... If the save succeeds, the subject instead takes 10d6 points of
    damage"."""
    target = casting("destruction", 7, 13, [body("fiend", saves=saves)], LOW).monsters[0]
    assert target.dead == slain
    if not slain:
        assert lost(target) == damage


@pytest.mark.parametrize(("spell", "d8s", "cap"), [("mass cure critical wounds", 4, 40), ("regenerate", 4, 35)])
def test_mass_cures_and_regenerate_cure_their_d8s_plus_a_level(spell, d8s, cap):
    """SRD mass cure critical wounds: "4d8 points of damage +1 point per caster level (maximum +40)", one creature a
    level; regenerate "also cures 4d8 points of damage +1 point per caster level (maximum +35)"."""
    friends = [body(f"friend{i}", side="pc", hp=500) for i in range(3)]
    f = make_fight([mage(45), *friends], [body("bystander")], "fixed10")
    every_die_shows(f, LOW)
    for ally in f.pcs[1:]:
        ally.hp = 100
    cast(f, f.pcs[0], spell, 8, list(f.pcs[1:]))
    healed = [ally.hp - 100 for ally in f.pcs[1:]]
    assert healed == ([d8s + cap] * 3 if spell.startswith("mass") else [d8s + cap, 0, 0])


# --------------------------------------------------------------------------------------------- choices by value
def casts(scenario_party: int, monsters: list[tuple[str, int]], caster: str, seed: int, undo=()) -> list[str]:
    options = ModelOptions(undo=frozenset(undo))
    party = generate_party(scenario_party, **party_options(options))
    encounter = prepare(party, [(get_creature(name), count) for name, count in monsters], model=options)
    result = fight(encounter, RuleSet.from_key("d20"), seed, log=True)
    return [line.split(" casts ")[1] for line in result.log if f"{caster} casts" in line]


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_the_wizard_fireballs_trolls_rather_than_cone_of_cold(seed):
    """A troll's regeneration makes cold nonlethal (SRD troll: "Fire and acid deal normal damage to a troll"): a
    level-10 wizard's cone of cold is worth half its dice, fireball all of them."""
    now = casts(10, [("troll", 4)], "wizard-10", seed)
    assert now[0] == "fireball on troll 1, troll 2, troll 3"
    before = casts(10, [("troll", 4)], "wizard-10", seed, undo=["energy-aware-spells"])
    assert before[0] == "cone of cold on troll 1, troll 2, troll 3"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_wizard_does_not_scorching_ray_a_fire_resistant_succubus(seed):
    """SRD succubus: "resistance to acid 10, cold 10, and fire 10": 4d6 fire a ray is worth 4; magic missile's force
    is worth its whole."""
    now = casts(7, [("succubus", 1)], "wizard-7", seed)
    assert now[0].startswith("magic missile") and not any(cast.startswith("scorching ray") for cast in now)
    before = casts(7, [("succubus", 1)], "wizard-7", seed, undo=["energy-aware-spells"])
    assert before[0].startswith("scorching ray")


def decide(f: Fight, c):
    return tactics.POLICIES[c.policy](f.view, c)


def test_the_target_is_the_one_the_spell_is_worth_most_against():
    wizard = mage(9, {2: ["scorching ray"]}, tactics="caster")
    imp = body("imp", hp=40, immunities=["fire"])
    ogre = body("ogre", hp=40)
    f = make_fight([wizard], [imp, ogre], "d20")
    f.round = 2
    f.monsters[0].hp = 5  # the weakest, which the old choice aimed at
    action = decide(f, f.pcs[0])
    assert (action.spell, action.targets) == ("scorching ray", [f.monsters[1]])


def test_a_caster_prefers_the_spell_worth_most():
    """Disintegrate (6th) against a creature of high Fortitude is worth less than polar ray (8th, no save) and
    magic missile is never worth more than either at 17th level."""
    wizard = mage(17, {1: ["magic missile"], 6: ["disintegrate"], 8: ["polar ray"]}, tactics="caster")
    f = make_fight([wizard], [body("giant", hp=300, saves={"fort": 30, "ref": 0, "will": 0})], "d20")
    f.round = 2
    assert decide(f, f.pcs[0]).spell == "polar ray"
    weak = {"fort": 0, "ref": 0, "will": 0}
    f = make_fight([wizard], [body("giant", hp=300, saves=weak, energy_resistance={"cold": 30})], "d20")
    f.round = 2
    assert decide(f, f.pcs[0]).spell == "disintegrate"


def test_the_cleric_heals_with_the_spell_that_restores_most():
    """Heal restores 150 to one ally at 15th level and more; a mass cure critical wounds 4d8+20 (38 on average) to
    each hurt ally: one badly hurt ally is healed, three hurt allies get the mass cure."""
    cleric = mage(20, {4: ["cure critical wounds"], 6: ["heal"], 8: ["mass cure critical wounds"]}, tactics="caster")
    friends = [body(f"friend{i}", side="pc", hp=200) for i in range(3)]
    f = make_fight([cleric, *friends], [body("m0")], "d20")
    f.pcs[1].hp = 20  # 180 lost: heal restores 150, the mass cure 38
    action = decide(f, f.pcs[0])
    assert (action.spell, action.targets) == ("heal", [f.pcs[1]])
    f.pcs[1].hp = 90  # 110 lost: heal 110; two more allies 100 lost each: the mass cure 3 x 38
    f.pcs[2].hp = f.pcs[3].hp = 100
    action = decide(f, f.pcs[0])
    assert action.spell == "mass cure critical wounds"
    assert set(map(id, action.targets)) == set(map(id, f.pcs[1:]))
    old = ModelOptions(undo=frozenset({"energy-aware-spells"}))
    f = make_fight([cleric, *friends], [body("m0")], "d20", model=old)
    f.pcs[1].hp = 20
    assert decide(f, f.pcs[0]).spell == "mass cure critical wounds"  # before: the highest level first
