"""What a player does against a gaze and in a web (issue 24): averting its eyes, and fighting, escaping or bursting
free; and the disabled creature's strain for a web or a trample (the fix ``disabled-strain``).

SRD 3.5 Gaze Attacks: "Averting Eyes: The opponent avoids looking at the creature's face, instead looking at its
body, watching its shadow, tracking it in a reflective surface, etc. Each round, the opponent has a 50% chance to not
need to make a saving throw against the gaze attack. The creature with the gaze attack, however, gains concealment
against that opponent."

SRD 3.5 Monstrous Spider, Web: "An entangled creature can escape with a successful Escape Artist check or burst it
with a Strength check. Both are standard actions whose DCs are given in the table below"; Ettercap: "An entangled
creature can escape with a DC 13 Escape Artist check or burst the web with a DC 17 Strength check"; Entangled: "An
entangled creature takes a -2 penalty on attack rolls and a -4 penalty to Dexterity ... An entangled character who
attempts to cast a spell must make a Concentration check (DC 15 + the spell's level) or lose the spell."
"""

from __future__ import annotations

import pytest
from fight_scripting import Script, beast, d20, make_fight
from fight_scripting import stat_block as creature

from arena.abilities.gaze import gaze_turn
from arena.combat.concealment import CONCEALMENT, concealment
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.damage import deal
from arena.combat.engine import Fight, prepare
from arena.combat.model import LEGACY, ModelOptions
from arena.rules import RuleSet
from arena.world.party import build_character
from arena.world.party_skills import armor_check_penalty, escape_artist, max_ranks

LOOK = ModelOptions(gaze_response="look")
STRENGTH = ModelOptions(web_escape="strength-check")
BLUDGEONING = frozenset({"bludgeoning"})


# --------------------------------------------------------------------------------------------- the gaze
def gazer(effect: str = "petrify", dc: int = 40):
    return beast("medusa", size="medium", gaze={"effect": effect, "dc": dc, "save": "fort", "rounds": "1d4"})


def petrified_in(seeds: range, model: ModelOptions | None = None, effect: str = "petrify") -> int:
    """How many of the seeded fights a hero meets a DC 40 gaze (a save made only on a natural 20) and fails."""
    caught = 0
    for seed in seeds:
        f = make_fight([creature("hero", side="pc", hp=200)], [gazer(effect)], seed=seed, model=model)
        gaze_turn(f, f.monsters[0])
        caught += not f.pcs[0].is_able or "unnerved" in f.pcs[0].conditions
    return caught


def test_a_foe_that_averts_its_eyes_needs_no_save_half_the_time():
    """ "Each round, the opponent has a 50% chance to not need to make a saving throw": of 400 heroes facing a gaze
    only a natural 20 saves against, about 95% are turned to stone when they look, about half of that when they
    avert their eyes (the default, ``gaze_response: avert``)."""
    seeds = range(400)
    looked, averted = petrified_in(seeds, LOOK), petrified_in(seeds)
    assert 360 <= looked <= 395
    assert 150 <= averted <= 230


def test_the_gazer_gains_concealment_against_those_who_avert_only():
    """ "The creature with the gaze attack, however, gains concealment against that opponent": 20% against the foe
    that averts its eyes, nothing against its friend who never met the gaze (a summoned ally, here one that joins
    after the gaze), nothing when the foes look (``look``, the model before)."""
    f = make_fight([creature("hero", side="pc", hp=200), creature("late", side="pc", hp=200)], [gazer(dc=1)], seed=3)
    hero, late = f.pcs
    m = f.monsters[0]
    late.t.immunities = late.t.immunities | {"petrification"}  # never gazed at: it does not avert
    gaze_turn(f, m)
    assert m.concealed
    assert concealment(hero, m) == CONCEALMENT and concealment(late, m) == 0.0
    assert any("hero averts its eyes from medusa's gaze" in line for line in f.lines)
    g = make_fight([creature("hero", side="pc", hp=200)], [gazer(dc=1)], seed=3, model=LOOK)
    gaze_turn(g, g.monsters[0])
    assert not g.monsters[0].concealed and concealment(g.pcs[0], g.monsters[0]) == 0.0


def test_an_averting_foe_misses_a_fifth_of_its_hits_on_the_gazer():
    """The concealment is a miss chance rolled on a hit (SRD Concealment: "If the attacker hits, the defender must
    make a miss chance percentile roll"): a hit on the gazer rolled 0.1 misses, one rolled 0.3 lands."""
    from arena.combat.attacks import swing_at

    f = make_fight([creature("hero", side="pc", hp=200)], [gazer(dc=1)], seed=3)
    hero, m = f.pcs[0], f.monsters[0]
    gaze_turn(f, m)
    hero.acted = m.acted = True
    attack = hero.t.standard[0]
    Script(f, [d20(19), 0.1])
    swing_at(f, hero, m, attack, 5)
    assert "misses: concealment (20% miss chance)" in " ".join(f.lines[-2:]) and m.hp == m.max_hp
    Script(f, [d20(19), 0.3, (4, 6)])
    swing_at(f, hero, m, attack, 5)
    assert m.hp < m.max_hp


def test_a_player_meets_an_unnerving_gaze_and_legacy_meets_every_gaze():
    """A chain devil's unnerving gaze (-2 on attack rolls for 1d3 rounds) costs less than a 20% miss chance all
    fight: the foe looks (no averted save); LEGACY (the model before) averts from none."""
    seeds = range(200)
    assert petrified_in(seeds, effect="unnerve") == petrified_in(seeds, LOOK, effect="unnerve") >= 180
    assert LEGACY.gaze_response == "look" and LEGACY.web_escape == "strength-check"
    assert "disabled-strain" in LEGACY.undo


# --------------------------------------------------------------------------------------------- the web
def webbed(hero, escape_dc: int | None = 13, burst_dc: int = 17, **options):
    """``hero`` against a spider, entangled by its web (the ettercap's DCs unless told)."""
    f = make_fight([hero], [beast("spider", size="medium")], **options)
    f.round = 2
    add_condition(f, f.pcs[0], "entangled", FOREVER, dc=burst_dc, escape_dc=escape_dc)
    return f, f.pcs[0], f.monsters[0]


def test_the_generated_party_s_escape_artist():
    """SRD 3.5 Rogue: Escape Artist (Dex) is a class skill; max ranks = character level + 3; armor check penalty
    (studded leather -1, chain shirt -2, mithral chain shirt 0, full plate -6 (-5 masterwork), heavy steel shield
    -2). The fighter, cleric and wizard have no ranks (untrained: Dexterity only)."""
    assert max_ranks(1) == 4 and max_ranks(10) == 13
    assert armor_check_penalty("rogue", 1) == 1 and armor_check_penalty("rogue", 3) == 2
    assert armor_check_penalty("rogue", 5) == 0 and armor_check_penalty("wizard", 9) == 0
    assert armor_check_penalty("fighter", 4) == 6 + 2 and armor_check_penalty("fighter", 10) == 5 + 1
    rogue1, rogue5 = build_character("rogue", 1), build_character("rogue", 5)
    assert escape_artist(rogue1) == 4 + 2 - 1  # ranks 4, Dex 15, studded leather
    assert escape_artist(rogue5) == 8 + rogue5.abilities.modifier("dex")
    assert escape_artist(build_character("wizard", 5)) == build_character("wizard", 5).abilities.modifier("dex")
    assert escape_artist(creature("hero", side="pc", abilities={"dex": 16})) == 3  # not generated: Dex only


def test_a_webbed_rogue_uses_escape_artist_and_a_fighter_bursts_the_web():
    """With no foe in its reach a webbed PC tries the check with the better chance: the rogue-5's Escape Artist
    (+11, -2 for the web's -4 Dexterity: +9 against DC 13), the fighter-5's Strength (+3 against DC 17, its
    Escape Artist -6 in full plate). Under ``strength-check`` the rogue bursts with Strength (the model before)."""
    f, rogue, _ = webbed(build_character("rogue", 5))
    Script(f, [d20(4)])  # 4 + 9 = 13: free
    f.turn(rogue)
    assert "entangled" not in rogue.conditions and "rogue-5 escapes the web (Escape Artist)" in f.lines[-1]
    f, fighter, _ = webbed(build_character("fighter", 5))
    Script(f, [d20(14)])  # 14 + 3 = 17: free
    f.turn(fighter)
    assert "entangled" not in fighter.conditions and "fighter-5 bursts the web" in f.lines[-1]
    f, rogue, _ = webbed(build_character("rogue", 5), model=STRENGTH)
    Script(f, [d20(4)])  # 4 + 1 vs 17: held
    f.turn(rogue)
    assert "entangled" in rogue.conditions and f.lines[-1].endswith("rogue-5 struggles in the web")


def test_a_webbed_fighter_in_melee_attacks_at_minus_two_instead_of_struggling():
    """A foe is in melee with it (the spider bit it): it fights where it stands at -2 (SRD entangled) rather than
    spend the turn on a check; under ``strength-check`` it struggles every turn (the model before)."""
    for model, fights in ((None, True), (STRENGTH, False)):
        f, fighter, spider = webbed(build_character("fighter", 5), model=model)
        spider.melee_target = fighter  # it bit the fighter: they are in melee
        before = len(f.lines)
        Script(f, [d20(15), *[0.5] * 20])
        f.turn(fighter)
        swung = [line for line in f.lines[before:] if "fighter-5 longsword" in line]
        assert bool(swung) is fights
        if fights:
            bonus = build_character("fighter", 5).full_attack[0][0].bonuses[0]
            assert f"longsword {bonus - 2:+d}" in swung[0] and "entangled" in fighter.conditions
        else:
            assert "web" in f.lines[-1]


def test_a_webbed_melee_fighter_strikes_only_a_foe_in_its_reach():
    """The web "anchors the target in place, allowing no movement": a webbed melee PC's blow goes to the foe in
    melee with it, not to the one its targeting prefers across the room."""
    f = make_fight([build_character("fighter", 5)], [beast("spider", size="medium"), beast("far", size="medium", hp=5)])
    f.round = 2
    fighter, spider, _far = f.pcs[0], *f.monsters
    add_condition(f, fighter, "entangled", FOREVER, dc=17, escape_dc=13)
    spider.melee_target = fighter
    Script(f, [*[0.5] * 30])
    f.turn(fighter)
    assert any("vs spider" in line for line in f.lines[-6:]) and not any("vs far" in line for line in f.lines[-6:])


def test_a_webbed_caster_casts_with_a_concentration_check():
    """An entangled caster "must make a Concentration check (DC 15 + the spell's level) or lose the spell": a
    webbed wizard-5 (it shoots: it acts where it stands) that fails loses its spell, the slot spent."""
    f, wizard, spider = webbed(build_character("wizard", 5))
    slots = sum(len(v) for v in wizard.slots.values())
    Script(f, [d20(1), *[0.5] * 30])  # the Concentration check fails
    f.turn(wizard)
    assert any("entangled, Concentration failed" in line for line in f.lines[-3:])
    assert sum(len(v) for v in wizard.slots.values()) == slots - 1 and spider.hp == spider.max_hp


# --------------------------------------------------------------------------------------------- disabled strain
TRAMPLE = {"damage": "2d6", "dc": 15}


@pytest.mark.parametrize(
    ("ability", "logged"),
    [({"web": {"burst_dc": 14}}, "disabled throws a web"), ({"trample": TRAMPLE}, "disabled tramples")],
)
def test_a_disabled_creature_strains_when_it_webs_or_tramples(ability, logged):
    """SRD 3.5 Disabled: "If he performs any standard action (or any other action the DM deems as strenuous ...),
    he takes 1 point of damage after completing the act"; a web is "similar to an attack with a net", a trample is
    made "As a standard action". Under ``undo=disabled-strain`` it does not strain (the model before)."""
    for model, strains in ((None, True), (ModelOptions(undo=frozenset({"disabled-strain"})), False)):
        f = make_fight(
            [creature(f"knight{i}", side="pc", hp=200) for i in range(2)], [beast("disabled", **ability)], model=model
        )
        m = f.monsters[0]
        deal(f, f.pcs[0], m, m.hp, BLUDGEONING)
        f.round = 2
        f.turn(m)
        assert any(f"] {logged}" in line for line in f.lines)
        assert (m.hp, m.dying()) == ((-1, True) if strains else (0, False))


def test_a_disabled_pc_strains_when_it_struggles_in_a_web():
    """Escaping or bursting a web is a standard action: a disabled PC that tries it falls to -1."""
    for model, hp in ((None, -1), (ModelOptions(undo=frozenset({"disabled-strain"})), 0)):
        f, fighter, _ = webbed(build_character("fighter", 5), model=model)
        fighter.hp = 0
        Script(f, [d20(2)])
        f.turn(fighter)
        assert fighter.hp == hp and "struggles in the web" in " ".join(f.lines[-3:])


# --------------------------------------------------------------------------------------------- seeded fights
def test_a_seeded_fight_against_a_medusa_shows_the_party_averting_its_eyes():
    """The level-5 party against two medusas, seed 2: the PCs avert their eyes, half the time they need no save;
    under ``look`` every PC saves every round (the issue's finding)."""
    from arena.world.bestiary import get_creature

    medusa = get_creature("medusa")
    party = [build_character(c, 5) for c in ("fighter", "cleric", "rogue", "wizard")]
    f = Fight(prepare(party, [(medusa, 2)]), RuleSet.from_key("d20"), 2, log=True)
    f.run()
    assert any("averts its eyes from medusa" in line for line in f.lines)
    assert any("looks away from medusa" in line and "no save" in line for line in f.lines)
    g = Fight(prepare(party, [(medusa, 2)], model=LOOK), RuleSet.from_key("d20"), 2, log=True)
    g.run()
    assert not any("averts" in line or "looks away" in line for line in g.lines)
