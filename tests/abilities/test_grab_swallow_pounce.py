"""Improved grab, constrict, rake, swallow whole and pounce as the SRD 3.5 runs them (issue 24, finding 4 and 8):
constrict on the check that establishes the hold, a holder's grapple checks by its base attack bonus or its hold
with the body part and its other attacks, the behir constricting before it swallows, the gizzard's acid, the bite
of the swallow, cutting one's way out, and the pounce's charge. Each fix is one named ``undo`` away from the old
model (arena/combat/model.py ``FIXES``; ``swallow_choice`` the option)."""

from __future__ import annotations

import pytest
from fight_scripting import BITE, Script, beast, d20, make_fight
from fight_scripting import stat_block as creature

from arena.abilities.grab import grapple_checks
from arena.combat import conditions
from arena.combat.clock import ROUND
from arena.combat.engine import fight, prepare
from arena.combat.model import ModelOptions
from arena.rules import RuleSet
from arena.world.party import generate_party
from arena.world.srd_bestiary import srd_creature

DEFAULT = ModelOptions()
RAKE = {"name": "rake", "bonuses": [6], "count": 2, "damage": "1d4+2", "damage_types": ["slashing"]}


def undo(*fixes: str) -> ModelOptions:
    return ModelOptions(undo=frozenset(fixes))


def grabber(**extra):
    """A Large beast (bite 1d8+4, two claws, grapple +12) that grabs with its bite and constricts for 1d6+4."""
    return beast("crocodile", improved_grab={"attack": "bite", "constrict": "1d6+4"}, **extra)


def hero(name: str = "hero", hp: int = 200, **extra):
    return creature(name, side="pc", hp=hp, **extra)  # grapple +3, base attack +3, Str 10


def held(f):
    """The fight's first monster holding its first PC, both having acted (round 2)."""
    m, pc = f.monsters[0], f.pcs[0]
    m.grip, pc.grip = (True, pc), (False, m)
    m.afflicted = pc.afflicted = True
    for c in f.monsters + f.pcs:
        c.acted = True
    f.round = 2
    return m, pc


# ------------------------------------------------------------------------------------------ constrict on the grab
def test_the_grapple_check_that_establishes_the_hold_constricts():
    """SRD 3.5 constrictor snake: "If it wins the grapple check, it establishes a hold and can constrict";
    "Constrict (Ex): On a successful grapple check, a constrictor snake deals 1d3+4 points of damage"; the glossary's
    constrict deals its damage "after making a successful grapple check". Undone (``constrict-on-grab``), the grab
    deals only the bite's damage."""
    grab = [d20(15), (4, 8), d20(5), d20(10)]  # the bite hits for 4+4; grapple: the hero 5+3, the beast 10+12
    for model, draws, hp in ((DEFAULT, [*grab, (2, 6)], 186), (undo("constrict-on-grab"), grab, 192)):
        f = make_fight([hero()], [grabber()], model=model)
        croc, pc = f.monsters[0], f.pcs[0]
        pc.acted = croc.acted = True
        script = Script(f, draws)
        from arena.combat.attacks import swing_at

        assert swing_at(f, croc, pc, croc.t.standard[0], 6)
        assert script.used_up and croc.grip == (True, pc) and pc.hp == hp
        assert any("constricts hero" in line for line in f.lines) == (model is DEFAULT)


def test_the_giant_constrictor_snake_constricts_in_the_round_it_grabs():
    """The finding's fight (a level-5 party against the giant constrictor snake, seed 2): the grab and its
    constrict in one round, where the old model constricted only from the next."""
    snake = srd_creature("constrictor-snake-giant")
    party = generate_party(5)
    for model, together in ((DEFAULT, True), (undo("constrict-on-grab"), False)):
        log = fight(prepare(party, [(snake, 1)], model=model), RuleSet.from_key("d20"), 2, log=True).log
        grab = next(i for i, line in enumerate(log) if "grabs" in line)
        assert log[grab + 1].endswith("constricts rogue-5") == together, log[grab : grab + 2]


# ------------------------------------------------------------------------------------------ the holder's turn
def test_a_holder_makes_a_grapple_check_per_attack_its_base_attack_bonus_gives():
    """SRD 3.5 grapple: "If your base attack bonus allows you multiple attacks, you can attempt one of these actions
    in place of each of your attacks, but at successively lower base attack bonuses"; Improved Grab: "each
    successful grapple check it makes during successive rounds automatically deals the damage indicated for the
    attack that established the hold ... it deals constriction damage as well". Base attack +8: two checks, the
    second at -5 (+7: 10 + 7 against the hero's 5 + 3 wins). Undone (``hold-full-attack``): one check."""
    assert [grapple_checks(b) for b in (0, 1, 5, 6, 10, 11, 16, 20)] == [1, 1, 1, 2, 2, 3, 4, 4]
    one = [d20(5), d20(10), (1, 8), (1, 6)]  # won: bite 1+4, constrict 1+4
    for model, draws, hp in ((DEFAULT, one + one, 180), (undo("hold-full-attack"), one, 190)):
        f = make_fight([hero()], [grabber(bab=8)], model=model)
        croc, pc = held(f)
        script = Script(f, draws)
        f.turn(croc)
        assert script.used_up and pc.hp == hp


def test_a_strong_grappler_holds_with_the_body_part_and_attacks_the_others_with_the_rest():
    """SRD 3.5 Improved Grab: "The creature has the option to conduct the grapple normally, or simply use the part
    of its body it used in the improved grab to hold the opponent. If it chooses to do the latter, it takes a -20
    penalty on grapple checks, but is not considered grappled itself; the creature does not lose its Dexterity bonus
    to AC, still threatens an area, and can use its remaining attacks against other opponents." A grapple of +30
    against a hero's +3: it holds with its bite at -20 (+10), and its two claws go at the squire; the hero's escape
    is against the -20 too."""
    kraken = grabber(grapple=30)
    f = make_fight([hero(), hero("squire", hp=50)], [kraken], seed=1)
    croc, pc = f.monsters[0], f.pcs[0]
    squire = f.pcs[1]
    for c in f.monsters + f.pcs:
        c.acted = True
    from arena.combat.attacks import swing_at

    script = Script(f, [d20(15), (4, 8), d20(5), d20(10), (2, 6)])  # the grab at 10+10 against 5+3, constrict 6
    swing_at(f, croc, pc, croc.t.standard[0], 6)
    assert script.used_up and croc.grip == (True, pc) and any("held with its bite" in x for x in f.lines)
    f.round = 2
    # its turn: one check at +10 (won: bite 8, constrict 6), then both claws hit the squire (2+2 each)
    script = Script(f, [d20(5), d20(10), (4, 8), (2, 6), d20(15), (2, 4), d20(15), (2, 4)])
    f.turn(croc)
    assert script.used_up and pc.hp == 200 - 8 - 6 - 8 - 6 and squire.hp == 50 - 8
    script = Script(f, [d20(5), d20(15)])  # the hero's escape: 15+3 against the beast's 5+30-20
    f.turn(pc)
    assert script.used_up and croc.grip is None and pc.grip is None


def test_a_holding_grappler_that_is_no_stronger_grapples_normally_and_the_old_model_never_holds_by_the_part():
    kraken = grabber(grapple=30)
    f = make_fight([hero()], [kraken], model=undo("hold-full-attack"))
    croc, pc = f.monsters[0], f.pcs[0]
    pc.acted = croc.acted = True
    from arena.combat.attacks import swing_at

    Script(f, [d20(15), (4, 8), d20(5), d20(10), (2, 6)])
    swing_at(f, croc, pc, croc.t.standard[0], 6)
    assert croc.grip == (True, pc) and not any("held with its" in x for x in f.lines)


# ------------------------------------------------------------------------------------------ the behir
def test_a_behir_constricts_and_rakes_before_it_swallows():
    """SRD 3.5 behir: "A behir usually bites and grabs its prey first, then either swallows or constricts the
    opponent"; "If it wins the grapple check, it establishes a hold and can attempt to constrict the opponent or
    swallow the opponent in the following round"; "It can make six rake attacks against a grappled foe as well".
    ``swallow_choice: constrict-first`` (the default): its first turn holding a foe constricts and rakes, the next
    swallows; ``swallow`` (the old model) swallows at once."""
    behir = beast(
        "behir",
        improved_grab={"attack": "bite", "constrict": "1d6+4"},
        rake=RAKE,
        swallow_whole={"damage": "1d6+2"},
    )
    f = make_fight([hero()], [behir])
    b, pc = held(f)
    # won: bite 8, constrict 6, both rakes hit for 3 each
    script = Script(f, [d20(5), d20(10), (4, 8), (2, 6), d20(15), (1, 4), d20(15), (1, 4)])
    f.turn(b)
    assert script.used_up and "swallowed" not in pc.conditions and pc.hp == 200 - 8 - 6 - 3 - 3
    script = Script(f, [d20(5), d20(10), (1, 8)])  # the next turn's won check swallows it (and bites for 5)
    f.turn(b)
    assert script.used_up and "swallowed" in pc.conditions
    g = make_fight([hero()], [behir], model=ModelOptions(swallow_choice="swallow"))
    b, pc = held(g)
    script = Script(g, [d20(5), d20(10), (1, 8)])
    g.turn(b)
    assert script.used_up and "swallowed" in pc.conditions and pc.hp == 195


def test_the_behir_of_the_finding_constricts():
    """The finding's fight (`monsters: [behir]` against the level-6 party, seed 7): the behir grabs the cleric and
    constricts it (its grab's check, then its two grapple checks of base attack +9); the old behir swallowed its
    grabbed foe the next round and never constricted or raked."""
    behir = srd_creature("behir")
    party = generate_party(6)
    log = fight(prepare(party, [(behir, 1)]), RuleSet.from_key("d20"), 7, log=True).log
    assert any("behir constricts cleric-6" in x for x in log) and not any("swallows" in x for x in log)
    old = ModelOptions(swallow_choice="swallow", undo=frozenset({"constrict-on-grab", "hold-full-attack"}))
    log = fight(prepare(party, [(behir, 1)], model=old), RuleSet.from_key("d20"), 7, log=True).log
    assert any("behir swallows cleric-6" in x for x in log) and not any(" constricts " in x for x in log)


# ------------------------------------------------------------------------------------------ swallow whole
def test_the_srd_swallowers_read_their_acid_and_the_way_out():
    """SRD 3.5 behir: "A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid damage per
    round from the behir's gizzard. A swallowed creature can cut its way out by using a light slashing or piercing
    weapon to deal 25 points of damage to the gizzard (AC 15)"."""
    expected = {
        "behir": ("8", "acid", 25, 15),
        "tyrannosaurus": ("8", "acid", 25, 12),
        "purple-worm": ("8", "acid", 25, 17),
        "dire-shark": ("1d8+4", "acid", 25, 13),
        "remorhaz": ("8d6", "fire", 25, 15),
        "tarrasque": ("2d8+6", "acid", 50, 25),
        "tendriculos": (None, None, 25, 14),
    }
    for name, (extra, kind, cut, ac) in expected.items():
        s = srd_creature(name).swallow_whole
        assert (s.extra_damage, s.extra_damage_type, s.cut_damage, s.cut_ac) == (extra, kind, cut, ac), name
    behir = srd_creature("behir")
    assert behir.import_status == "clean"
    notes = next(a.notes for a in behir.special_abilities if a.key == "swallow whole")
    assert notes == (
        "swallow_whole: 2d8+8 bludgeoning plus 8 acid a round; cut out with 25 damage to its interior (AC 15)"
    )


def swallower(**swallow):
    return beast("toad", improved_grab={"attack": "bite"}, swallow_whole={"damage": "1d6+2", **swallow})


def test_a_swallowed_foe_takes_the_acid_too():
    """SRD 3.5 behir: "A swallowed creature takes 2d8+8 points of bludgeoning damage and 8 points of acid damage per
    round"; undone (``swallow-acid``), only the first damage."""
    for model, draws, hp in ((DEFAULT, [(4, 6), (3, 4)], 191), (undo("swallow-acid"), [(4, 6)], 194)):
        f = make_fight([hero()], [swallower(extra_damage="1d4", extra_damage_type="acid")], model=model)
        t, pc = held(f)
        conditions.add_condition(f, pc, "swallowed", conditions.FOREVER)
        script = Script(f, draws)
        f.turn(t)
        assert script.used_up and pc.hp == hp
        assert any("3 acid damage" in x for x in f.lines) == (model is DEFAULT)


def test_swallowing_deals_the_bite():
    """SRD 3.5 Swallow Whole: "If it succeeds, it swallows its prey, and the opponent takes bite damage"; undone
    (``swallow-bite``), the swallow deals nothing."""
    for model, draws, hp in ((DEFAULT, [d20(5), d20(10), (4, 8)], 192), (undo("swallow-bite"), [d20(5), d20(10)], 200)):
        f = make_fight([hero()], [swallower()], model=model)
        t, pc = held(f)
        script = Script(f, draws)
        f.turn(t)
        assert script.used_up and "swallowed" in pc.conditions and pc.hp == hp


def test_a_swallowed_pc_cuts_its_way_out_with_a_dagger():
    """SRD 3.5 Swallow Whole: "A swallowed creature can try to cut its way free with any light slashing or piercing
    weapon (the amount of cutting damage required to get free is noted in the creature description)"; "A swallowed
    creature is considered to be grappled" (grapple: "You can make an attack with ... light weapon against another
    character you are grappling. You take a -4 penalty on such attacks"). The hero (base attack +3, Str 10) cuts
    with a dagger at -1 against the interior's AC 10; 4 + 3 damage reaches the 6 needed on its second turn. Undone
    (``cut-free``), its turns inside do nothing."""
    f = make_fight([hero()], [swallower(cut_damage=6, cut_ac=10)])
    t, pc = held(f)
    conditions.add_condition(f, pc, "swallowed", conditions.FOREVER)
    assert not pc.is_able
    script = Script(f, [d20(11), (4, 4)])  # -1 + 11 = 10 hits AC 10: 4 damage, 4 of 6
    f.turn(pc)
    assert script.used_up and "swallowed" in pc.conditions and any("dagger -1" in x for x in f.lines)
    script = Script(f, [d20(15), (3, 4)])  # 7 of 6: out
    f.turn(pc)
    assert script.used_up and "swallowed" not in pc.conditions and pc.grip is None and t.grip is None
    assert pc.is_able
    g = make_fight([hero()], [swallower(cut_damage=6, cut_ac=10)], model=undo("cut-free"))
    t, pc = held(g)
    conditions.add_condition(g, pc, "swallowed", conditions.FOREVER)
    script = Script(g, [])
    g.turn(pc)
    assert "swallowed" in pc.conditions and not any("dagger" in x for x in g.lines)


def test_a_swallowed_creature_without_a_light_weapon_escapes_back_into_the_mouth():
    """SRD 3.5 Swallow Whole: "or it can just try to escape the grapple ... If the swallowed creature escapes the
    grapple, success puts it back in the attacker's mouth, where it may be bitten or swallowed again". A dog of the
    party's side (no dagger) wins its grapple check: held again, no longer swallowed."""
    dog = beast("dog", side="pc", size="medium", grapple=12)
    f = make_fight([dog], [swallower(cut_damage=25, cut_ac=15)])
    t, pc = held(f)
    conditions.add_condition(f, pc, "swallowed", conditions.FOREVER)
    script = Script(f, [d20(5), d20(15)])  # the toad's 5+12 against the dog's 15+12
    f.turn(pc)
    assert script.used_up and "swallowed" not in pc.conditions and pc.grip == (False, t) and pc.is_able


def test_the_tyrannosaurus_s_meal_takes_acid_and_cuts_its_way_out():
    """A level-8 party against the tyrannosaurus (seed 1): the swallowed rogue takes the gizzard's 8 acid and
    cuts at its AC 12 with a dagger."""
    rex = srd_creature("tyrannosaurus")
    log = fight(prepare(generate_party(8), [(rex, 1)]), RuleSet.from_key("d20"), 1, log=True).log
    assert any("swallows rogue-8" in x for x in log)
    assert any("rogue-8 takes 8 acid damage" in x for x in log)
    assert any("rogue-8 dagger" in x and "insides AC 12" in x for x in log)


# ------------------------------------------------------------------------------------------ pounce
def test_a_pounce_is_a_charge():
    """SRD 3.5 Pounce: "When a creature with this special attack makes a charge, it can follow with a full attack";
    charge: "you get a +2 bonus on the attack roll and take a -2 penalty to your AC until the start of your next
    turn". The finding's fight (`monsters: [lion]` against the level-3 party, seed 1): "lion claw +9", not +7, its
    rake +9 too; undone (``pounce-charge``), the old +7."""
    lion = srd_creature("lion")
    party = generate_party(3)
    for model, claw in ((DEFAULT, "+9"), (undo("pounce-charge"), "+7")):
        log = fight(prepare(party, [(lion, 1)], model=model), RuleSet.from_key("d20"), 1, log=True).log
        first = [x for x in log if x.startswith("[r1] lion ") and " vs " in x]
        assert first and all(f"claw {claw} " in x for x in first if " claw " in x), first
        assert all(f"rake {claw} " in x for x in first if " rake " in x)
        assert any("lion: charging" in x for x in log) == (model is DEFAULT)


@pytest.mark.parametrize("model", [DEFAULT, undo("pounce-charge")])
def test_the_charge_costs_2_ac_until_the_pouncer_s_next_turn(model):
    cat = beast("cat", pounce=True, rake=RAKE)
    f = make_fight([hero()], [cat], model=model)
    c = f.monsters[0]
    f.round = 1
    for x in f.monsters + f.pcs:
        x.acted = True
    Script(f, [d20(2)] * 5 + [0.5] * 20)  # every swing misses
    f.turn(c)
    bonus = 2 if model is DEFAULT else 0
    assert any(f"cat bite {BITE['bonuses'][0] + bonus:+d} vs hero" in x for x in f.lines)
    assert c.ac_bonus == -bonus
    conditions.expire(f, f.instant + ROUND)  # the start of its next turn
    assert c.ac_bonus == 0


def test_a_swallower_digests_its_meal_and_bites_the_others():
    """SRD 3.5 Swallow Whole: "A swallowed creature is considered to be grappled, while the creature that did the
    swallowing is not"; behir: "A behir that swallows an opponent can use its Cleave feat to bite and grab another
    opponent". The toad's turn: the meal inside takes its damage, and it bites the squire; undone
    (``swallower-acts``), digesting took its whole turn."""
    bites = [(4, 6), d20(15), (4, 8), d20(2), d20(2)]  # digested for 6; the bite hits the squire for 8, the claws miss
    for model, draws, squire_hp in ((DEFAULT, bites, 42), (undo("swallower-acts"), [(4, 6)], 50)):
        f = make_fight([hero(), hero("squire", hp=50)], [swallower()], model=model)
        t, pc = held(f)
        conditions.add_condition(f, pc, "swallowed", conditions.FOREVER)
        script = Script(f, draws)
        f.turn(t)
        assert script.used_up and pc.hp == 194 and f.pcs[1].hp == squire_hp
        assert t.grip == (True, pc)  # the meal stays inside
