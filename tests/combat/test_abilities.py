"""Monsters' special abilities against the SRD 3.5 lines they implement: pounce, ferocity, improved grab and
constrict, paralysis, frightful presence (arena/combat/abilities.py); each with scripted dice, and a seeded fight
of an SRD creature that has it."""

from __future__ import annotations

import pytest
from fight_scripting import Script, assert_reproducible_and_used, beast, d20, make_fight
from fight_scripting import stat_block as creature

from arena.abilities.breath import READY_AT, last_was_effect
from arena.abilities.frightful_presence import frighten
from arena.abilities.web import thrown
from arena.combat.abilities import state_of
from arena.combat.attacks import swing_at
from arena.combat.conditions import add_condition
from arena.combat.damage import deal
from arena.combat.states import refresh
from arena.world.creatures import Creature


# ------------------------------------------------------------------------------------------ pounce
def attacks_in_round_one(monster: Creature) -> int:
    f = make_fight([creature("hero", side="pc", hp=200)], [monster])
    f.run()
    count, round_one = 0, False
    for line in f.lines:
        if line.startswith("--- round "):
            round_one = line == "--- round 1 ---"
        elif round_one and line.startswith(f"[r1] {monster.name} ") and " vs hero " in line:
            count += 1
    return count


def test_pounce_makes_a_full_attack_as_it_closes_in():
    """SRD Pounce: "When a creature with this special attack makes a charge, it can follow with a full attack"."""
    assert attacks_in_round_one(beast(pounce=True)) == 3  # bite and two claws in round 1
    assert attacks_in_round_one(beast()) == 1  # closing in: one attack


# ------------------------------------------------------------------------------------------ ferocity
def test_ferocity_fights_on_while_dying_and_still_bleeds():
    """SRD Ferocity: "continues to fight without penalty even while disabled or dying"."""
    for ferocious, acts in ((True, True), (False, False)):
        f = make_fight([creature("hero", side="pc", hp=200)], [beast(ferocity=ferocious)])
        boar = f.monsters[0]
        boar.hp = -3
        refresh(f, boar)
        assert boar.is_able is acts
        f.round = 2
        before = len(f.lines)
        Script(f, [0.99, *[0.5] * 12])  # no stabilising (10%): it loses a hit point
        f.turn(boar)
        assert boar.hp == -4
        swung = any(" vs hero " in line for line in f.lines[before:])
        assert swung is acts


# ------------------------------------------------------------------------------------------ improved grab
def grabber(**extra) -> Creature:
    return beast("crocodile", improved_grab={"attack": "bite", "constrict": "1d6+4"}, **extra)


def test_improved_grab_holds_a_smaller_foe_then_crushes_and_constricts():
    """SRD Improved Grab: "If the creature hits with a melee weapon ... it deals normal damage and attempts to
    start a grapple as a free action"; each round it maintains the grapple it deals the attack's damage; Constrict:
    "deals automatic damage with a successful grapple check" (the check that establishes the hold too: the fix
    ``constrict-on-grab``)."""
    f = make_fight([creature("hero", side="pc", hp=200, size="medium")], [grabber()])
    croc, hero = f.monsters[0], f.pcs[0]
    hero.acted = croc.acted = True
    script = Script(f, [d20(15), (4, 8), d20(5), d20(10), (2, 6)])  # bite hits, 4+4; grapple 5+3 vs 10+12; 2+4
    assert swing_at(f, croc, hero, croc.t.standard[0], 6) and script.used_up
    assert croc.grip == (True, hero) and hero.grip == (False, croc) and hero.hp == 186
    script = Script(f, [d20(5), d20(10), (6, 8), (6, 6)])  # its turn: grapple won, bite 10 + constrict 10
    f.round = 2
    f.turn(croc)
    assert script.used_up and hero.hp == 166
    script = Script(f, [d20(5), d20(20)])  # the hero's turn: escape 20+3 vs 5+12: free
    f.turn(hero)
    assert script.used_up and croc.grip is None and hero.grip is None


def test_improved_grab_needs_a_smaller_foe_and_ends_when_the_holder_drops():
    f = make_fight([creature("ogre", side="pc", hp=200, size="large")], [grabber()])
    croc, big = f.monsters[0], f.pcs[0]
    big.acted = croc.acted = True
    Script(f, [d20(15), (4, 8)])  # a hit, and no grapple check at all
    assert swing_at(f, croc, big, croc.t.standard[0], 6) and croc.grip is None
    g = make_fight([creature("hero", side="pc", hp=200)], [grabber()])
    croc, hero = g.monsters[0], g.pcs[0]
    hero.acted = croc.acted = True
    Script(g, [d20(15), (4, 8), d20(5), d20(10), (1, 6)])  # and its constrict
    swing_at(g, croc, hero, croc.t.standard[0], 6)
    assert croc.grip == (True, hero)
    croc.hp = -1
    refresh(g, croc)
    assert croc.grip is None and hero.grip is None


# ------------------------------------------------------------------------------------------ paralysis
def test_paralysis_on_a_hit_unless_the_fortitude_save_succeeds():
    """SRD Ghoul: "Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save or be
    paralyzed for 1d4+1 rounds"; paralyzed creatures are helpless; undead are immune (type traits)."""
    ghoul = beast("ghoul", size="medium", paralysis={"attack": "bite", "dc": 12, "duration": "1d4+1"})
    f = make_fight([creature("hero", side="pc", hp=200)], [ghoul])
    g, hero = f.monsters[0], f.pcs[0]
    hero.acted = g.acted = True
    script = Script(f, [d20(15), (4, 8), d20(3), (2, 4)])  # hit; Fort 3+2 vs 12 fails; 2+1 rounds
    swing_at(f, g, hero, g.t.standard[0], 6)
    assert script.used_up and "paralyzed" in hero.conditions and not hero.is_able
    assert hero.conditions["paralyzed"][0] == pytest.approx(f.instant + 3 * 6.0)
    script = Script(f, [d20(15), (4, 8), d20(15)])  # a save that succeeds
    h = make_fight([creature("hero", side="pc", hp=200)], [ghoul])
    h.pcs[0].acted = h.monsters[0].acted = True
    Script(h, [d20(15), (4, 8), d20(15)])
    swing_at(h, h.monsters[0], h.pcs[0], h.monsters[0].t.standard[0], 6)
    assert "paralyzed" not in h.pcs[0].conditions and h.pcs[0].is_able
    zombie = creature("zombie", side="pc", hp=200, type="undead")
    u = make_fight([zombie], [ghoul])
    u.pcs[0].acted = u.monsters[0].acted = True
    script = Script(u, [d20(15), (4, 8)])  # no save at all: immune
    swing_at(u, u.monsters[0], u.pcs[0], u.monsters[0].t.standard[0], 6)
    assert script.used_up and "paralyzed" not in u.pcs[0].conditions


# ------------------------------------------------------------------------------------------ frightful presence
def test_frightful_presence_panics_the_weak_and_shakes_the_rest_on_its_first_attack():
    """SRD Frightful Presence: creatures with fewer HD "must succeed on a Will save ... or become frightened"
    (3.5 dragons: "creatures with 4 or less HD become panicked for 4d6 rounds and those with 5 or more HD become
    shaken for 4d6 rounds"). Shaken: -2 on attack rolls, saving throws, skill and ability checks."""
    dragon = beast("dragon", hit_dice="12d12+36", frightful_presence={"dc": 18})
    weak = creature("squire", side="pc", hp=30, hit_dice="2d10")
    tough = creature("knight", side="pc", hp=80, hit_dice="8d10")
    f = make_fight([weak, tough], [dragon])
    d = f.monsters[0]
    script = Script(f, [d20(3), 0.0, d20(3), 0.0])  # both fail; 4d6 rounds each (one table draw)
    frighten(f, d)
    assert script.used_up and d.frightened
    squire, knight = f.pcs
    assert "panicked" in squire.conditions and not squire.is_able
    assert "shaken" in knight.conditions and knight.is_able
    assert (knight.attack_bonus, knight.save_bonus) == (-2, -2)
    add_condition(f, knight, "bless", 60.0)
    assert knight.attack_bonus == -1  # bless +1 and shaken -2
    assert not any(c is squire for c in f.view.helpless_enemies(d))  # fled, not helpless: no coup de grace


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("pounce", True),
        ("ferocity", True),
        ("improved_grab", {"attack": "bite", "constrict": "1d6+4"}),
        ("paralysis", {"attack": "bite", "dc": 14}),
        ("frightful_presence", {"dc": 16}),
        (
            "poison",
            {
                "attack": "bite",
                "dc": 16,
                "initial": {"dice": "1d6", "ability": "con"},
                "secondary": {"dice": "1d6", "ability": "con"},
            },
        ),
        ("ability_damage", {"attack": "bite", "loss": {"dice": "1d4", "ability": "str"}}),
        ("energy_drain", {"attack": "bite"}),
        ("rage", True),
        ("burn", {"attack": "bite", "dc": 14}),
        ("gaze", {"effect": "paralysis", "dc": 13}),
        ("web", {"burst_dc": 14}),
        ("stench", {"dc": 14}),
        ("trample", {"damage": "2d6+6", "dc": 15}),
        ("powerful_charge", {"name": "gore", "bonuses": [8], "damage": "3d6+6", "damage_types": ["piercing"]}),
        ("incorporeal", True),
    ],
)
def test_a_seeded_fight_with_the_ability_is_reproducible_and_differs_from_one_without(field, value):
    """A level-3 party against two such beasts, seeds 0-39: the same seed gives the same fight, and the ability
    changes some fights (it is used)."""
    assert_reproducible_and_used(field, value)


# ------------------------------------------------------------------------------------------ poison, drain
def poisoner(**extra) -> Creature:
    return beast(
        "spider",
        size="medium",
        poison={
            "attack": "bite",
            "dc": 14,
            "initial": {"dice": "1d6", "ability": "str"},
            "secondary": {"dice": "1d6", "ability": "str"},
        },
        **extra,
    )


def test_poison_deals_its_initial_damage_on_a_failed_save_and_the_secondary_a_minute_later():
    """SRD Poison: "initial damage ... One minute later, the victim must make another saving throw ... or take
    the secondary damage". Strength damage: -1 on melee attack and damage rolls per 2 points."""
    f = make_fight([creature("hero", side="pc", hp=200, abilities={"str": 14})], [poisoner()])
    spider, hero = f.monsters[0], f.pcs[0]
    hero.acted = spider.acted = True
    script = Script(f, [d20(15), (4, 8), d20(3), (4, 6)])  # hit; Fort 3+2 fails; 4 Strength
    swing_at(f, spider, hero, spider.t.standard[0], 6)
    assert script.used_up and hero.ability_loss == {"str": 4} and hero.ability_mods == {"str": -2}
    assert (hero.attack_bonus, hero.damage_bonus) == (-2, -2) and "poisoned" in hero.conditions
    script = Script(f, [d20(3), (6, 6)])  # a minute later: fails again, 6 more
    f.instant = hero.conditions["poisoned"][0]
    from arena.combat import conditions

    conditions.expire(f, f.instant)
    assert script.used_up and hero.ability_loss == {"str": 10} and hero.ability_mods == {"str": -5}
    g = make_fight([creature("hero", side="pc", hp=200)], [poisoner()])
    g.pcs[0].acted = g.monsters[0].acted = True
    script = Script(g, [d20(15), (4, 8), d20(15)])  # the save succeeds: nothing, no secondary
    swing_at(g, g.monsters[0], g.pcs[0], g.monsters[0].t.standard[0], 6)
    assert script.used_up and g.pcs[0].ability_loss is None and "poisoned" not in g.pcs[0].conditions


def test_constitution_damage_costs_hit_points_and_zero_kills_strength_zero_is_helpless():
    """SRD Ability Damage: a lower Constitution modifier lowers hit points by 1 per Hit Die per point; Constitution
    0 is death; Strength 0 leaves a creature helpless."""
    wyvern = beast("wyvern", poison={"attack": "bite", "dc": 17, "initial": {"dice": "2d6", "ability": "con"}})
    f = make_fight([creature("hero", side="pc", hp=100, abilities={"con": 12}, hit_dice="5d10")], [wyvern])
    w, hero = f.monsters[0], f.pcs[0]
    hero.acted = w.acted = True
    Script(f, [d20(15), (4, 8), d20(2), 0.0])  # 2d6 shows 2: Con 12 -> 10, modifier -1
    swing_at(f, w, hero, w.t.standard[0], 6)
    assert hero.hp == 100 - 8 - 5 and hero.save_mods["fort"] == -1
    Script(f, [d20(15), (4, 8), d20(2), 0.999])  # 12 more: Con 0
    swing_at(f, w, hero, w.t.standard[0], 6)
    assert hero.dead
    shadow = beast("shadow", ability_damage={"attack": "bite", "loss": {"dice": "1d6", "ability": "str"}})
    g = make_fight([creature("hero", side="pc", hp=100, abilities={"str": 4})], [shadow])
    s, hero = g.monsters[0], g.pcs[0]
    hero.acted = s.acted = True
    Script(g, [d20(15), (4, 8), (6, 6)])  # no save: 6 Strength, all of it
    swing_at(g, s, hero, s.t.standard[0], 6)
    assert "helpless" in hero.conditions and not hero.is_able  # SRD: "falls to the ground and is helpless"
    zombie = creature("zombie", side="pc", hp=100, type="undead", abilities={"con": None})
    u = make_fight([zombie], [poisoner()])
    u.pcs[0].acted = u.monsters[0].acted = True
    script = Script(u, [d20(15), (4, 8)])  # undead: immune to poison, no save
    swing_at(u, u.monsters[0], u.pcs[0], u.monsters[0].t.standard[0], 6)
    assert script.used_up and u.pcs[0].ability_loss is None


def test_energy_drain_bestows_negative_levels():
    """SRD Energy Drain: each negative level gives -1 on attack rolls, saving throws, skill and ability checks
    and -5 hit points; a creature with as many negative levels as Hit Dice dies."""
    wight = beast("wight", size="medium", energy_drain={"attack": "bite", "levels": 1})
    f = make_fight([creature("hero", side="pc", hp=100, hit_dice="2d10")], [wight])
    w, hero = f.monsters[0], f.pcs[0]
    hero.acted = w.acted = True
    Script(f, [d20(15), (4, 8)])
    swing_at(f, w, hero, w.t.standard[0], 6)
    assert hero.negative_levels == 1 and (hero.attack_bonus, hero.save_bonus) == (-1, -1) and hero.hp == 100 - 8 - 5
    Script(f, [d20(15), (4, 8)])
    swing_at(f, w, hero, w.t.standard[0], 6)
    assert hero.dead  # 2 negative levels, 2 Hit Dice


# ------------------------------------------------------------------------------------------ rake, rage, burn, gaze
RAKE = {"name": "rake", "bonuses": [4], "count": 2, "damage": "1d4+1", "damage_types": ["slashing"]}


def test_rake_adds_its_attacks_to_a_pounce_and_to_a_hold():
    """SRD Rake: "extra attacks ... when it pounces on an opponent" and "if it gets a hold"."""
    assert attacks_in_round_one(beast(pounce=True, rake=RAKE)) == 5  # bite, 2 claws, 2 rakes
    lion = beast("lion", improved_grab={"attack": "bite"}, rake=RAKE)
    f = make_fight([creature("hero", side="pc", hp=200)], [lion])
    cat, hero = f.monsters[0], f.pcs[0]
    cat.grip, hero.grip = (True, hero), (False, cat)
    cat.afflicted = hero.afflicted = True
    hero.acted = cat.acted = True
    f.round = 2
    script = Script(f, [d20(5), d20(10), (4, 8), d20(15), (2, 4), d20(15), (2, 4)])  # hold, bite, 2 rakes
    f.turn(cat)
    assert script.used_up and hero.hp == 200 - 8 - 3 - 3


def test_rage_once_hurt_strength_and_constitution_up_armour_down():
    """SRD Rage (dire badger): "A dire badger that takes damage in combat flies into a berserk rage ... +4
    Strength, +4 Constitution, and -2 AC"."""
    badger = beast("badger", rage=True)
    f = make_fight([creature("hero", side="pc", hp=200)], [badger])
    b = f.monsters[0]
    deal(f, f.pcs[0], b, 5, frozenset({"slashing"}))
    assert b.raging and b.hp == 40 - 5 + 2 * 5 and (b.attack_bonus, b.damage_bonus, b.ac_bonus) == (2, 2, -2)
    deal(f, f.pcs[0], b, 5, frozenset({"slashing"}))
    assert b.hp == 40 and b.attack_bonus == 2  # once only


def test_burn_sets_the_target_on_fire_unless_it_saves():
    """SRD Burn (fire elemental): "must succeed on a Reflex save or catch on fire. The flame burns for 1d4
    rounds"; fire creatures are immune."""
    elemental = beast("fire", size="medium", burn={"attack": "bite", "dc": 15, "damage": "1d4", "rounds": "1d4"})
    f = make_fight([creature("hero", side="pc", hp=200)], [elemental])
    e, hero = f.monsters[0], f.pcs[0]
    hero.acted = e.acted = True
    script = Script(f, [d20(15), (4, 8), d20(2), (2, 4)])  # hit; Reflex fails; burns 2 rounds
    swing_at(f, e, hero, e.t.standard[0], 6)
    assert script.used_up and hero.burning[0] == 2
    f.round = 2
    Script(f, [(3, 4), *[0.5] * 20])
    f.turn(hero)
    assert hero.hp == 200 - 8 - 3 and hero.burning[0] == 1
    salamander = creature("salamander", side="pc", hp=200, subtypes=["fire"])
    g = make_fight([salamander], [elemental])
    g.pcs[0].acted = g.monsters[0].acted = True
    script = Script(g, [d20(15), (4, 8)])
    swing_at(g, g.monsters[0], g.pcs[0], g.monsters[0].t.standard[0], 6)
    assert script.used_up and g.pcs[0].burning is None


@pytest.mark.parametrize(
    ("effect", "condition"),
    [("petrify", "petrified"), ("paralysis", "paralyzed"), ("fear", "panicked"), ("death", None)],
)
def test_a_gaze_at_the_start_of_its_turn(effect, condition):
    """SRD Gaze Attacks: "Each opponent within range of a gaze attack must attempt a saving throw each round at the
    beginning of his or her turn" (here: at the start of the gazer's turn, for every able foe)."""
    medusa = beast("medusa", size="medium", gaze={"effect": effect, "dc": 15, "save": "fort"})
    f = make_fight([creature("hero", side="pc", hp=200), creature("friend", side="pc", hp=200)], [medusa])
    m = f.monsters[0]
    f.round = 2
    rolled = [(1, 8)] if effect in ("paralysis", "fear") else []  # a duration to roll
    # each averts its eyes (gaze_response: avert) and draws a 0.9: it must save all the same (SRD: 50% not to)
    Script(f, [0.9, d20(2), *rolled, 0.9, d20(19), *[0.5] * 30])  # hero fails, friend saves
    f.turn(m)
    hero, friend = f.pcs
    assert not hero.is_able and friend.is_able
    assert (condition in hero.conditions) if condition else hero.dead
    assert hero not in f.view.helpless_enemies(m) or effect == "paralysis"


def test_swallow_whole_takes_a_held_foe_out_of_the_fight_until_the_swallower_drops():
    """SRD Swallow Whole: "can try to swallow a grabbed opponent of a smaller size by making a successful grapple
    check ... the opponent takes [damage] each round"; "If it succeeds, it swallows its prey, and the opponent takes
    bite damage" (the fix ``swallow-bite``)."""
    toad = beast("toad", improved_grab={"attack": "bite"}, swallow_whole={"damage": "1d6+2"})
    f = make_fight([creature("hero", side="pc", hp=200)], [toad])
    t, hero = f.monsters[0], f.pcs[0]
    t.grip, hero.grip = (True, hero), (False, t)
    t.afflicted = hero.afflicted = True
    f.round = 2
    Script(f, [d20(5), d20(10), (4, 8)])  # a won grapple check: swallowed, and bitten for 8
    f.turn(t)
    assert "swallowed" in hero.conditions and not hero.is_able and hero.hp == 192
    Script(f, [(4, 6)])  # next turn: digested for 6
    f.turn(t)
    assert hero.hp == 186
    t.hp = -1
    refresh(f, t)
    assert "swallowed" not in hero.conditions and hero.is_able


def test_a_web_entangles_and_the_victim_spends_its_turn_bursting_free():
    """SRD Monstrous Spider web: "This is similar to an attack with a net ... An entangled creature can escape
    with a successful Escape Artist check or burst the web with a Strength check. Both are standard actions";
    entangled: -2 on attack rolls, -4 Dexterity."""
    spider = beast("spider", size="medium", web={"burst_dc": 16, "uses": 1})
    f = make_fight([creature("hero", side="pc", hp=200, abilities={"str": 14})], [spider])
    s, hero = f.monsters[0], f.pcs[0]
    f.round = 2
    script = Script(f, [d20(15)])  # the web hits touch AC
    f.turn(s)
    assert script.used_up and "entangled" in hero.conditions and thrown(s) == 1
    assert (hero.attack_bonus, hero.ac_bonus) == (-2, -2)
    script = Script(f, [d20(10)])  # 10 + 2 vs 16: still stuck, no attack
    before = len(f.lines)
    f.turn(hero)
    assert script.used_up and "entangled" in hero.conditions and not any(" vs spider" in x for x in f.lines[before:])
    Script(f, [d20(15)])  # 17: free
    f.turn(hero)
    assert "entangled" not in hero.conditions and hero.attack_bonus == 0
    Script(f, [d20(15), (4, 8), *[0.5] * 10])  # no webs left: it bites
    f.turn(s)
    assert any("spider bite" in x for x in f.lines[-6:])


@pytest.mark.parametrize(
    ("effect", "condition"), [("sleep", "asleep"), ("paralysis", "paralyzed"), ("slow", "slowed"), ("fear", "panicked")]
)
def test_a_breath_without_damage_alternates_with_the_damaging_one(effect, condition):
    """SRD metallic dragons: "a dragon has two breath weapons ... Sleep ... Paralyzing gas ... Slow gas ... Fear";
    one breath at a time, on the same recharge (1d4 rounds). The dragon breathes the one without damage first."""
    dragon = beast(
        "brass",
        size="large",
        breath_weapon={"shape": "line", "length_ft": 60, "damage": "3d6", "damage_type": "fire", "dc": 17},
        breath_effect={"shape": "cone", "length_ft": 30, "effect": effect, "save": "will", "dc": 17, "rounds": "1d6"},
    )
    f = make_fight([creature("hero", side="pc", hp=200)], [dragon])
    d, hero = f.monsters[0], f.pcs[0]
    f.round = 2
    Script(f, [(1, 4), d20(2), (3, 6), *[0.5] * 10])  # recharge 1 round; Will fails; 3 rounds
    f.turn(d)
    assert condition in hero.conditions and last_was_effect(d)
    if effect == "slow":
        assert hero.afflicted and "slowed" in hero.conditions
    state_of(d)[READY_AT] = 0.0  # ready again
    hero.conditions.clear()
    refresh(f, hero)
    Script(f, [(1, 4), 0.5, d20(2), *[0.5] * 10])  # then the fire breath (one damage draw)
    f.turn(d)
    assert hero.hp < 200 and not last_was_effect(d)


def test_the_log_shows_what_damage_reduction_and_resistance_took():
    """Issue 17: "hit for 15, DR 5/magic: 10" — the log gives the rolled damage and each defence."""
    skeleton = beast("skeleton", damage_reduction="5/bludgeoning", energy_resistance={"fire": 10})
    f = make_fight([creature("hero", side="pc", hp=200)], [skeleton])
    s, hero = f.monsters[0], f.pcs[0]
    deal(f, hero, s, 12, frozenset({"slashing"}), weapon=True)
    deal(f, hero, s, 15, frozenset({"fire"}))
    assert "skeleton takes 7 slashing damage (12, DR 5/bludgeoning)" in f.lines[-2]
    assert "skeleton takes 5 fire damage (15, resist fire 10)" in f.lines[-1]


# ------------------------------------------------------------------------------------------ stench, trample ...
def test_stench_sickens_living_foes_on_its_first_action():
    """SRD Troglodyte stench: "all living creatures (except troglodytes) within 30 feet must succeed on a DC 13
    Fortitude save or be sickened for 10 rounds"; sickened: -2 on attack rolls, weapon damage, saves and checks."""
    trog = beast("troglodyte", size="medium", stench={"dc": 13})
    f = make_fight([creature("hero", side="pc", hp=200), creature("zombie", side="pc", hp=50, type="undead")], [trog])
    hero, zombie = f.pcs
    f.round = 2
    Script(f, [d20(3), *[0.5] * 20])  # the hero fails; the undead is not living
    f.turn(f.monsters[0])
    assert "sickened" in hero.conditions and "sickened" not in zombie.conditions
    assert (hero.attack_bonus, hero.damage_bonus, hero.save_bonus) == (-2, -2, -2)
    assert f.monsters[0].frightened  # once only


def test_trample_runs_over_smaller_foes_with_a_reflex_save_for_half():
    """SRD Trample: "The creature merely has to move over the opponents in its path; any creature whose space
    is completely covered by the trampling creature's space is subject to the trample attack ... Reflex save
    (DC ...) for half damage"."""
    rhino = beast("rhino", trample={"damage": "2d6+9", "dc": 20})
    f = make_fight([creature("a", side="pc", hp=100), creature("b", side="pc", hp=100)], [rhino])
    r = f.monsters[0]
    f.round = 2
    Script(f, [0.0, d20(2), d20(20), *[0.5] * 10])  # 2d6 shows 2: 11; a fails, b saves (5)
    f.turn(r)
    a, b = f.pcs
    assert (a.hp, b.hp) == (89, 95)


def test_powerful_charge_is_the_attack_it_closes_in_with():
    """SRD Minotaur: "Powerful Charge (Ex): A minotaur typically begins a battle by charging ... make a single gore
    attack with a +9 attack bonus that deals 4d6+6 points of damage" (the charge's +2 added)."""
    gore = {"name": "gore", "bonuses": [9], "damage": "4d6+6", "damage_types": ["piercing"]}
    minotaur = beast("minotaur", powerful_charge=gore)
    f = make_fight([creature("hero", side="pc", hp=200)], [minotaur])
    f.run()
    first = next(line for line in f.lines if line.startswith("[r1] minotaur ") and " vs hero " in line)
    assert first.startswith("[r1] minotaur gore +11 vs hero")


def test_incorporeal_ignores_mundane_weapons_and_half_of_the_rest():
    """SRD Incorporeal: "can be harmed only by other incorporeal creatures, magic weapons or creatures that strike
    as magic weapons, and spells ... 50% chance to ignore any damage from a corporeal source (except for positive
    energy, negative energy, force effects such as magic missile ...)"."""
    ghost = beast("ghost", size="medium", incorporeal=True)
    f = make_fight([creature("hero", side="pc", hp=200)], [ghost])
    g, hero = f.monsters[0], f.pcs[0]
    assert deal(f, hero, g, 10, frozenset({"slashing"}), weapon=True) == 0  # mundane: nothing
    Script(f, [0.4])
    assert deal(f, hero, g, 10, frozenset({"slashing"}), frozenset({"magic"}), weapon=True) == 0  # 50%: lost
    Script(f, [0.6])
    assert deal(f, hero, g, 10, frozenset({"fire"})) == 10  # the other half
    assert deal(f, hero, g, 4, frozenset({"force"})) == 4  # magic missile: always
