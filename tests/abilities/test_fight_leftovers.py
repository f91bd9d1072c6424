"""The fight model's leftovers of issue 24, each against its SRD 3.5 line and one named ``undo`` away from the old
model (arena/combat/model.py ``FIXES``): evasion against a trample, no defensive roll against a trample or a crush,
a powerful charge's -2 AC, constrict's bludgeoning damage, the hold's damage from the attack that established it, no
cure reaching inside a swallower, and a spider's web as the ranged touch attack it is."""

from __future__ import annotations

import re

import pytest
from fight_scripting import BITE, Script, beast, d20, make_fight
from fight_scripting import stat_block as creature

from arena.abilities.crush import crush
from arena.abilities.grab import constrict
from arena.abilities.trample import trample
from arena.combat import conditions
from arena.combat.attacks import swing_at
from arena.combat.clock import ROUND
from arena.combat.engine import fight, prepare
from arena.combat.model import FIXES, ModelOptions
from arena.combat.tactics.caster import _heal_action, caster_policy
from arena.rules import RuleSet
from arena.world.party import generate_party
from arena.world.srd_bestiary import srd_creature

DEFAULT = ModelOptions()


def undo(*fixes: str) -> ModelOptions:
    return ModelOptions(undo=frozenset(fixes))


def hero(name: str = "hero", hp: int = 200, **extra):
    return creature(name, side="pc", hp=hp, **extra)  # Reflex +2, grapple +3


def acted(f) -> None:
    for c in f.monsters + f.pcs:
        c.acted = True


def test_the_fixes_are_named():
    for name in (
        "trample-evasion",
        "defensive-roll-blows",
        "powerful-charge-ac",
        "constrict-bludgeoning",
        "hold-grabbing-attack",
        "no-touch-inside",
        "web-ranged",
    ):
        assert name in FIXES and ModelOptions(undo=frozenset({name})).fixed(name) is False


# ------------------------------------------------------------------------------------------ 1. trample and evasion
TRAMPLER = {"damage": "1d8", "dc": 15}


@pytest.mark.parametrize(
    ("evader", "natural", "fixed_hp", "undone_hp"),
    [
        ({"evasion": True}, 20, 200, 196),  # a made save: none (evasion), half undone
        ({"evasion": True, "improved_evasion": True}, 1, 196, 192),  # a failed one: half (improved), all undone
        ({}, 20, 196, 196),  # no evasion: half either way
    ],
)
def test_evasion_applies_to_a_trample(evader, natural, fixed_hp, undone_hp):
    """SRD 3.5 Evasion: "If she makes a successful Reflex saving throw against an attack that normally deals half
    damage on a successful save, she instead takes no damage"; Improved Evasion: "even if the rogue fails her Reflex
    save ... she takes only half damage"; a trample is "Reflex half". 8 damage (1d8) against Reflex +2, DC 15.
    Undone (``trample-evasion``), the trample ignored both."""
    for model, hp in ((DEFAULT, fixed_hp), (undo("trample-evasion"), undone_hp)):
        f = make_fight([hero(**evader)], [beast("elephant", size="huge", trample=TRAMPLER)], model=model)
        acted(f)
        script = Script(f, [(8, 8), d20(natural)])
        trample(f, f.monsters[0], [f.pcs[0]])
        assert script.used_up and f.pcs[0].hp == hp, (model.undo, f.lines)


def test_evasion_against_the_gorgon_s_trample_in_a_seeded_fight():
    """A level-8 party against the gorgon (seed 2, d20): the rogue saves against its trample (DC 19) and her
    evasion takes none of it; undone (``trample-evasion``), "rogue-8 takes 6 bludgeoning damage"."""
    gorgon = srd_creature("gorgon")
    party = generate_party(8)
    for model in (DEFAULT, undo("trample-evasion")):
        log = fight(prepare(party, [(gorgon, 1)], model=model), RuleSet.from_key("d20"), 2, log=True).log
        i = log.index("[r2] gorgon tramples rogue-8, fighter-8")
        assert log[i + 1].startswith("[r2] rogue-8 ref save DC 19") and log[i + 1].endswith("saved")
        assert log[i + 2].startswith("[r2] rogue-8 takes 6 bludgeoning") == (model is not DEFAULT), log[i : i + 3]


# ------------------------------------------------------------------------------------------ 2. defensive roll
def rogue(hp: int = 5):
    return hero("rogue", hp=hp, defensive_roll=True, uncanny_dodge=True)


def test_no_defensive_roll_against_a_trample():
    """SRD 3.5 rogue, Defensive Roll: "when she would be reduced to 0 or fewer hit points by damage in combat (from a
    weapon or other blow, not a spell or special ability)": a trample is a special attack. 8 damage on a failed save
    takes the rogue from 5 to -3; undone (``defensive-roll-blows``), she rolls with it (a made DC 8 Reflex save:
    half, 4) and stands at 1."""
    for model, draws, hp in (
        (DEFAULT, [(8, 8), d20(2)], -3),
        (undo("defensive-roll-blows"), [(8, 8), d20(2), d20(15)], 1),
    ):
        f = make_fight([rogue()], [beast("elephant", size="huge", trample=TRAMPLER)], model=model)
        acted(f)
        script = Script(f, draws)
        trample(f, f.monsters[0], [f.pcs[0]])
        assert script.used_up and f.pcs[0].hp == hp, (model.undo, f.lines)
        assert any("defensive roll" in x for x in f.lines) == (model is not DEFAULT)


def test_no_defensive_roll_against_a_crush():
    """A dragon's crush (a special attack: "Creatures in the affected area must succeed on a Reflex save ... or be
    pinned, automatically taking bludgeoning damage") is no blow either."""
    wyrm = beast("wyrm", size="colossal", crush={"damage": "1d8", "dc": 30})
    for model, draws, hp in (
        (DEFAULT, [(8, 8), d20(2)], -3),
        (undo("defensive-roll-blows"), [(8, 8), d20(2), d20(15)], 1),
    ):
        f = make_fight([rogue()], [wyrm], model=model)
        acted(f)
        script = Script(f, draws)
        crush(f, f.monsters[0], [f.pcs[0]])
        assert script.used_up and f.pcs[0].hp == hp, (model.undo, f.lines)


def test_the_wyrm_s_crush_drops_the_rogue_in_a_seeded_fight():
    """A level-13 party against two green dragon wyrms (seed 3, d20): "green-dragon-wyrm 1 lands on rogue-13", who
    fails her save and takes the 30 (dying at -6); undone (``defensive-roll-blows``), she rolled with it (15)."""
    wyrm = srd_creature("green-dragon-wyrm")
    party = generate_party(13)
    for model, taken in ((DEFAULT, 30), (undo("defensive-roll-blows"), 15)):
        log = fight(prepare(party, [(wyrm, 2)], model=model), RuleSet.from_key("d20"), 3, log=True).log
        i = log.index("[r3] green-dragon-wyrm 1 lands on rogue-13")
        took = next(x for x in log[i:] if x.startswith("[r3] rogue-13 takes "))
        assert took.startswith(f"[r3] rogue-13 takes {taken} bludgeoning"), log[i : i + 5]


def test_a_weapon_blow_still_allows_the_defensive_roll():
    f = make_fight([rogue()], [beast("elephant", size="huge")])
    acted(f)
    script = Script(f, [d20(15), (6, 8), d20(15)])  # the bite hits for 10; the roll halves it to 5: 0 hp
    assert swing_at(f, f.monsters[0], f.pcs[0], f.monsters[0].t.standard[0], 6)
    assert script.used_up and f.pcs[0].hp == 0 and any("defensive roll" in x for x in f.lines)


# ------------------------------------------------------------------------------------------ 3. powerful charge
GORE = {"name": "gore", "bonuses": [9], "damage": "4d6+6", "damage_types": ["piercing"]}


@pytest.mark.parametrize("model", [DEFAULT, undo("powerful-charge-ac")])
def test_a_powerful_charge_costs_2_ac_until_the_charger_s_next_turn(model):
    """SRD 3.5 charge: "You get a +2 bonus on the attack roll and take a -2 penalty to your AC until the start of
    your next turn" (a powerful charge is a charge: SRD minotaur "begins a battle by charging"). Undone
    (``powerful-charge-ac``), the +2 without the -2."""
    f = make_fight([hero()], [beast("minotaur", powerful_charge=GORE)], model=model)
    c = f.monsters[0]
    f.round = 1
    acted(f)
    Script(f, [d20(2)] + [0.5] * 20)  # the gore misses
    f.turn(c)
    assert any("minotaur gore +11 vs hero" in x for x in f.lines)
    penalty = 2 if model is DEFAULT else 0
    assert c.ac_bonus == -penalty and ("charging" in c.conditions) == (model is DEFAULT)
    conditions.expire(f, f.instant + ROUND)
    assert c.ac_bonus == 0


def test_the_minotaur_charges_at_minus_2_ac_in_a_seeded_fight():
    """A level-4 party against the SRD minotaur (seed 1): the first blow against it after its charge is at its
    AC 14 - 2 (undone: 14)."""
    minotaur = srd_creature("minotaur")
    party = generate_party(4)
    for model, ac in ((DEFAULT, 12), (undo("powerful-charge-ac"), 14)):
        log = fight(prepare(party, [(minotaur, 1)], model=model), RuleSet.from_key("d20"), 1, log=True).log
        charge = next(i for i, x in enumerate(log) if x.startswith("[r1] minotaur gore"))
        after = [x for x in log[charge:] if " vs minotaur AC " in x]
        assert after and re.search(rf" vs minotaur AC {ac}\b", after[0]), after[:1]


# ------------------------------------------------------------------------------------------ 4. constrict
def crocodile():
    return beast("crocodile", improved_grab={"attack": "bite", "constrict": "1d6+4"})


def test_constrict_deals_bludgeoning_damage():
    """SRD 3.5 Constrict: "A creature with this special attack can crush an opponent, dealing bludgeoning damage,
    after making a successful grapple check"; the crocodile grabs with its (piercing) bite. Undone
    (``constrict-bludgeoning``), the bite's piercing."""
    for model, kind in ((DEFAULT, "bludgeoning"), (undo("constrict-bludgeoning"), "piercing")):
        f = make_fight([hero()], [crocodile()], model=model)
        croc, pc = f.monsters[0], f.pcs[0]
        hold = croc.t.ability_data["improved_grab"]
        script = Script(f, [(2, 6)])
        constrict(f, croc, pc, hold, croc.t.standard[0])
        assert script.used_up and pc.hp == 194
        assert any(f"hero takes 6 {kind} damage" in x for x in f.lines), f.lines


def test_constrict_is_stopped_by_immunity_to_bludgeoning_not_piercing():
    """What the type changes: a creature that takes no bludgeoning damage takes no constrict."""
    for model, hp in ((DEFAULT, 200), (undo("constrict-bludgeoning"), 194)):
        pc = hero(immunities=["bludgeoning"])
        f = make_fight([pc], [crocodile()], model=model)
        croc = f.monsters[0]
        Script(f, [(2, 6)])
        constrict(f, croc, f.pcs[0], croc.t.ability_data["improved_grab"], croc.t.standard[0])
        assert f.pcs[0].hp == hp


# ------------------------------------------------------------------------------------------ 5. the hold's damage
def tiger():
    """Grabs with a claw or its bite (SRD 3.5 tiger: "a tiger must hit with a claw or bite attack")."""
    return beast("tiger", improved_grab={"attack": "claw", "also_on": ["bite"]})


def test_the_hold_deals_the_damage_of_the_attack_that_established_it():
    """SRD 3.5 Improved Grab: "Each successful grapple check it makes during successive rounds automatically deals
    the damage indicated for the attack that established the hold". The tiger grabs with its bite (1d8+4): its next
    turn's won check deals the bite's 4 + 4; undone (``hold-grabbing-attack``), the claw's 1d4+2 (2 + 2)."""
    grab = [d20(15), (4, 8), d20(5), d20(10)]  # the bite hits for 8; grapple: the hero 5+3, the tiger 10+12
    for model, die, hp in ((DEFAULT, (4, 8), 184), (undo("hold-grabbing-attack"), (2, 4), 188)):
        f = make_fight([hero()], [tiger()], model=model)
        t, pc = f.monsters[0], f.pcs[0]
        acted(f)
        script = Script(f, grab)
        assert swing_at(f, t, pc, t.t.standard[0], BITE["bonuses"][0])
        assert script.used_up and t.grip == (True, pc) and pc.hp == 192
        f.round = 2
        script = Script(f, [d20(5), d20(10), die])  # the hold's check: the hero 5+3, the tiger 10+12
        f.turn(t)
        assert script.used_up and pc.hp == hp, (model.undo, f.lines)


def test_a_claw_grab_still_deals_the_claw():
    f = make_fight([hero()], [tiger()])
    t, pc = f.monsters[0], f.pcs[0]
    acted(f)
    claw = next(a for a in t.t.full if a.name == "claw")
    script = Script(f, [d20(15), (2, 4), d20(5), d20(10)])  # the claw hits for 4 and grabs
    assert swing_at(f, t, pc, claw, 6)
    assert script.used_up and t.grip == (True, pc) and pc.hp == 196
    f.round = 2
    script = Script(f, [d20(5), d20(10), (2, 4)])
    f.turn(t)
    assert script.used_up and pc.hp == 192


# ------------------------------------------------------------------------------------------ 6. no touch inside
def swallowed_party(model: ModelOptions):
    """A level-9 party against a toad: the fighter, swallowed, down to 10 hit points; the cleric's turn."""
    toad = beast("toad", size="huge", improved_grab={"attack": "bite"}, swallow_whole={"damage": "1d6+2"})
    f = fight_of(generate_party(9), toad, model)
    fighter = next(c for c in f.pcs if c.name.startswith("fighter"))
    cleric = next(c for c in f.pcs if c.name.startswith("cleric"))
    m = f.monsters[0]
    m.grip, fighter.grip = (True, fighter), (False, m)
    m.afflicted = fighter.afflicted = True
    conditions.add_condition(f, fighter, "swallowed", conditions.FOREVER)
    fighter.hp = 10
    acted(f)
    f.round = 2
    return f, fighter, cleric


def fight_of(party, monster, model):
    from arena.combat.engine import Fight

    return Fight(prepare(party, [(monster, 1)], model=model), RuleSet.from_key("d20"), 1, log=True)


def test_the_cleric_does_not_cure_a_swallowed_ally():
    """A swallowed creature is inside its swallower: SRD 3.5 Aiming a Spell, "you must have a clear line of effect
    to any target that you cast a spell on" ("A solid barrier cancels a line of effect"); a touch spell needs the
    touch besides. The cleric's turn with the swallowed fighter at 10 hit points: no cure at the fighter; undone
    (``no-touch-inside``), a cure at the fighter."""
    for model in (DEFAULT, undo("no-touch-inside")):
        f, fighter, cleric = swallowed_party(model)
        action = caster_policy(f.view, cleric)
        cures = action.kind == "cast" and fighter in (action.targets or [action.target])
        assert cures == (model is not DEFAULT), (model.undo, action)


def test_a_mass_cure_leaves_out_the_swallowed_ally():
    """A mass cure is a burst at range: no line of effect inside the swallower either."""
    for model in (DEFAULT, undo("no-touch-inside")):
        f, fighter, cleric = swallowed_party(model)
        wizard = next(c for c in f.pcs if c.name.startswith("wizard"))
        wizard.hp = 5
        action = _heal_action(f.view, cleric, [("mass cure serious wounds", 6)], wizard)
        assert wizard in action.targets and (fighter in action.targets) == (model is not DEFAULT)


def test_the_tyrannosaurus_s_meal_is_not_cured_in_a_seeded_fight():
    """The fight that showed it (a level-8 party against the tyrannosaurus, seed 2): "cleric-8 casts cure critical
    wounds on rogue-8" in round 3, the rogue inside the dinosaur; fixed, the cleric casts at the tyrannosaurus."""
    rex = srd_creature("tyrannosaurus")
    party = generate_party(8)
    for model in (DEFAULT, undo("no-touch-inside")):
        log = fight(prepare(party, [(rex, 1)], model=model), RuleSet.from_key("d20"), 2, log=True).log
        assert any("swallows rogue-8" in x for x in log)
        cured = "[r3] cleric-8 casts cure critical wounds on rogue-8" in log
        assert cured == (model is not DEFAULT)


# ------------------------------------------------------------------------------------------ 7. the web
WEB = {"burst_dc": 17, "escape_dc": 13}


def test_a_web_at_a_foe_behind_the_melee_is_not_retargeted():
    """SRD 3.5 monstrous spider, Web: "This is similar to an attack with a net but has a maximum range of 50 feet":
    a ranged touch attack, thrown at the first foe not yet entangled even if it stands behind the melee. The
    fighter is entangled already, the archer free behind him: fixed, the web goes at the archer; undone
    (``web-ranged``), the engine turned it on the foe in reach, the entangled fighter."""
    for model, target in ((DEFAULT, "archer"), (undo("web-ranged"), "fighter")):
        spider = beast("spider", web=WEB)
        f = make_fight([hero("fighter"), hero("archer")], [spider], model=model)
        fighter, archer = f.pcs
        archer.ranged = True
        conditions.add_condition(f, fighter, "entangled", conditions.FOREVER, dc=17, escape_dc=13)
        acted(f)
        f.round = 2
        f.melee_begun = True
        Script(f, [d20(2)] + [0.5] * 20)
        f.turn(f.monsters[0])
        assert any(f"spider throws a web at {target}" in x for x in f.lines), (model.undo, f.lines)


def webs_at_the_entangled(log: list[str]) -> int:
    """How many webs a log's spiders threw at a PC already entangled while another PC was free."""
    pcs = {"fighter-3", "cleric-3", "rogue-3", "wizard-3"}
    entangled: set[str] = set()
    count = 0
    for line in log:
        if m := re.search(r"throws a web at (\S+):", line):
            if m.group(1) in entangled and pcs - entangled:
                count += 1
        elif m := re.search(r"\] (\S+): entangled", line):
            entangled.add(m.group(1))
        elif m := re.search(r"\] (\S+) (?:bursts|escapes) the web", line):
            entangled.discard(m.group(1))
        elif m := re.search(r"\] (\S+) (?:dies|drops)", line):
            pcs.discard(m.group(1))
            entangled.discard(m.group(1))
    return count


def test_spiders_web_the_free_pcs_in_the_seeded_fight():
    """The fight of the brief (``monsters: ["monstrous-spider-large:2"]``, level-3 party, seed 1): undone, the
    spiders web the rogue again and again while the wizard stands free; fixed, never a web at an entangled PC while
    one is free."""
    spider = srd_creature("monstrous-spider-large")
    party = generate_party(3)
    counts = {}
    for model in (DEFAULT, undo("web-ranged")):
        log = fight(prepare(party, [(spider, 2)], model=model), RuleSet.from_key("d20"), 1, log=True).log
        counts[model is DEFAULT] = webs_at_the_entangled(log)
    assert counts[True] == 0 and counts[False] >= 3, counts
