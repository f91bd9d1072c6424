"""The fight model's SRD fixes and named options (arena/combat/model.py), one focused test per rule.

Each test cites the SRD 3.5 line it implements and checks both the default (SRD-faithful) behaviour and the old
behaviour one setting away (the option's other value, or ``ModelOptions(undo={fix})``), so that it fails if the fix
is removed. Dice are scripted (:class:`fight_scripting.Script`: ``(face, sides)`` or raw draws), or read under the
``fixed10`` control (every check a natural 10 plus its modifier) with every other die forced to its lowest or
highest face.
"""

from __future__ import annotations

import pytest
from fight_scripting import Script, make_fight, stat_block

from arena.abilities.breath import breathe
from arena.combat import attacks, clock, spells, tactics
from arena.combat.attacks import coup_de_grace, swing_at
from arena.combat.casting import cast, complete_casting
from arena.combat.conditions import add_condition
from arena.combat.damage import deal
from arena.combat.engine import Fight, prepare
from arena.combat.model import FIXES, LEGACY, ModelOptions, parse_assignments
from arena.combat.rolls import save
from arena.dice import Stream
from arena.errors import ArenaError
from arena.rules import RuleSet
from arena.rules.naturals import draw_for
from arena.world.bestiary import get_creature
from arena.world.creatures import Creature
from arena.world.party import build_character, generate_party

LOW, HIGH = 0.0, 1 - 1e-12
"""Constant draws: every die shows 1, or every die shows its top face."""
SLASHING = frozenset({"slashing"})
FAILS = {"fort": 30, "ref": -5, "will": -5}
"""Fails every Reflex and Will save under fixed10 (10 - 5 is below any DC); passes the massive-damage save."""
JAVELIN = {"name": "javelin", "bonuses": [5], "damage": "1d6", "damage_types": ["piercing"], "kind": "ranged"}
TOUCH = {"name": "chill touch", "bonuses": [5], "damage": "1d6", "damage_types": ["slashing"], "touch": True}
RAPIER = {"name": "rapier", "bonuses": [5], "damage": "1d6", "damage_types": ["piercing"], "sneak_attack": "3d6"}
FUMBLE = [(1, 20), (20, 20)]
"""Under ``d20+open``: natural 1, then a 20 read negative (modifier - 20): a fumble against any ordinary target."""
DEFAULT = ModelOptions()


def undo(*fixes: str) -> ModelOptions:
    """The default model with the named SRD fixes switched back off."""
    return ModelOptions(undo=frozenset(fixes))


def d20(natural: int) -> tuple[int, int]:
    return natural, 20


def body(
    name: str, side: str = "monster", hp: int = 500, ac: int = 12, attack: dict | None = None, **extra
) -> Creature:
    return stat_block(name, side, hp, ac, attack, **extra)


def caster(
    cl: int, prepared: dict | None = None, name: str = "mage", ability: str = "int", domains=(), **extra
) -> Creature:
    casting = {"caster_level": cl, "ability": ability, "prepared": prepared or {}, "domains": list(domains)}
    return body(name, side="pc", hp=60, spellcasting=casting, **extra)


def every_die_shows(f, draw: float) -> None:
    """Every draw the fight makes from now on is ``draw``."""
    stream = Stream.scripted([])
    stream.rand = lambda: draw
    f.stream = stream
    f.rand = stream.rand


def checks(spy, kind: str, actor=None) -> list:
    return [check for check, who, _ in spy if check.kind == kind and (actor is None or who is actor)]


# ------------------------------------------------------------------------------------------ 1. Spell Focus
def test_spell_focus_and_greater_spell_focus_add_to_their_schools_dcs(spy):
    """SRD Spell Focus: "Add +1 to the Difficulty Class for all saving throws against spells from the school of
    magic you select"; Greater Spell Focus: "Add +1 ... This bonus stacks with the bonus from Spell Focus"."""
    wizard5, wizard6 = build_character("wizard", 5), build_character("wizard", 6)  # Int 16 (+3); 18 (+4) at 6
    for model, fireball5, fireball6 in ((DEFAULT, 17, 19), (undo("spell-focus"), 16, 17)):
        f = make_fight([wizard5, wizard6], [body("orc", saves=FAILS)], "fixed10", model=model)
        five, six = f.pcs
        assert spells.spell_dc(f.flags, five, "fireball", 3) == fireball5  # 10 + 3 + 3 (+1 Spell Focus)
        assert spells.spell_dc(f.flags, six, "fireball", 3) == fireball6  # 10 + 3 + 4 (+1 +1 Greater)
        assert spells.spell_dc(f.flags, five, "sleep", 1) == 14  # enchantment: no bonus
        assert spells.spell_dc(f.flags, six, "hold person", 3) == 17
        every_die_shows(f, LOW)
        spy.clear()
        cast(f, five, "fireball", 3, [f.monsters[0]])
        assert [check.target for check in checks(spy, "save")] == [fireball5]  # the DC the orc saves against


# ------------------------------------------------------------------------------------------ 2. deflection
@pytest.mark.parametrize(("ring", "gain"), [(0, 2), (1, 1), (2, 0), (3, 0)])
def test_shield_of_faith_adds_only_what_beats_the_deflection_bonus_already_there(ring, gain):
    """SRD Combining Magical Effects: "two bonuses of the same type don't stack even if they come from different
    spells (or from effects other than spells)"; shield of faith "grants the subject a +2 deflection bonus to AC":
    over a ring of protection +1 it adds +1, over +2 nothing."""
    for model, expected in ((DEFAULT, gain), (undo("deflection-stacking"), 2)):
        f = make_fight(
            [caster(5), body("knight", side="pc", ac=15, deflection=ring)], [body("orc")], "d20", model=model
        )
        mage, knight = f.pcs
        assert spells.shield_of_faith_gain(f.flags.fix_deflection, 5, knight) == expected
        assert f.view.shield_gain(mage, knight) == expected
        cast(f, mage, "shield of faith", 1, [knight])
        assert knight.ac_bonus == expected


def test_the_caster_does_not_cast_a_shield_of_faith_that_adds_nothing():
    """Buffs by value: a shield of faith on the ally it would go to (a ring of protection +2) adds nothing, so it
    goes to the best ally it does help."""
    cleric = caster(5, {1: ["shield of faith"]}, name="cleric", ability="wis")
    greatsword = {"name": "greatsword", "bonuses": [8], "damage": "2d6+6", "damage_types": ["slashing"]}

    def first_round(model: ModelOptions, ring: int):
        knight = body("knight", side="pc", ac=15, deflection=ring, attack=greatsword)  # the best fighter
        f = make_fight([cleric, knight], [body("orc")], "d20", model=model)
        f.round = 1
        return tactics.caster_policy(f.view, f.pcs[0]), f.pcs[1]

    action, _ = first_round(DEFAULT, 2)
    assert (action.kind, action.spell, action.targets) == ("cast", "shield of faith", [action.targets[0]])
    assert action.targets[0].name == "cleric"  # nothing to gain on the knight: the ally it does help
    for model, ring in ((DEFAULT, 1), (ModelOptions(buff_choice="highest-level"), 2), (undo("deflection-stacking"), 2)):
        action, knight = first_round(model, ring)
        assert (action.kind, action.spell, action.targets) == ("cast", "shield of faith", [knight])


# ------------------------------------------------------------------------------------------ 3. Dodge
def test_dodge_counts_only_against_the_opponent_it_designated(spy):
    """SRD Dodge: "During your action, you designate an opponent and receive a +1 dodge bonus to Armor Class
    against attacks from that opponent. ... A condition that makes you lose your Dexterity bonus to Armor Class
    (if any) also makes you lose dodge bonuses." The printed AC (15 here) never includes it: 16 against the
    designated foe, 15 against the other; undone, 16 against everyone."""
    for model, against_other in ((DEFAULT, 15), (undo("dodge-one-opponent"), 16)):
        f = make_fight(
            [body("ana", side="pc", hp=10), body("bo", side="pc", hp=30)],
            [body("duelist", ac=15, flat_footed_ac=14, feats=["Dodge"])],
            "d20",
            model=model,
        )
        ana, bo = f.pcs
        duelist = f.monsters[0]
        assert duelist.t.dodge == 1
        Script(f, [d20(1), d20(1)])  # flat-footed: no Dodge against anyone
        swing_at(f, ana, duelist, ana.t.standard[0], 5)
        swing_at(f, bo, duelist, bo.t.standard[0], 5)
        script = Script(f, [d20(1)])  # its turn: it attacks ana (the weakest)
        f.round = 1
        f.turn(duelist)
        assert script.used_up and duelist.acted and duelist.dodge_against is ana
        script = Script(f, [d20(1), d20(1)])
        swing_at(f, ana, duelist, ana.t.standard[0], 5)
        swing_at(f, bo, duelist, bo.t.standard[0], 5)
        assert script.used_up
        pcs = [check.target for check, who, _ in spy if check.kind == "attack" and who is not duelist]
        assert pcs == [14, 14, 16, against_other]
        spy.clear()


def test_the_printed_ac_does_not_include_dodge(spy):
    """The SRD's printed AC never counts Dodge: succubus "AC 20 (+1 Dex, +9 natural)" with Dodge among its
    feats. The PCs swing at 20, or 21 once it has designated one of them; undoing ``dodge-printed-ac`` gives the
    model before (AC 19 against all but the designated foe, 20 against it)."""
    succubus = get_creature("succubus")
    assert succubus.ac == 20 and "Dodge" in succubus.feats
    for model, designated, other in ((DEFAULT, 21, 20), (undo("dodge-printed-ac"), 20, 19)):
        f = make_fight([body("ana", side="pc", hp=90), body("bo", side="pc", hp=90)], [succubus], "d20", model=model)
        ana, bo = f.pcs
        demon = f.monsters[0]
        demon.acted, demon.dodge_against = True, ana
        Script(f, [d20(1), d20(1), d20(1)])
        swing_at(f, ana, demon, ana.t.standard[0], 5)
        swing_at(f, bo, demon, bo.t.standard[0], 5)
        assert attacks.ranged_touch_ac(f, bo, demon) == succubus.touch_ac + (other - 20)
        assert [check.target for check, _, _ in spy if check.kind == "attack"] == [designated, other]
        spy.clear()


def test_the_generated_party_prints_its_ac_without_dodge():
    """The generated fighter has Dodge from 2nd level; its AC line follows the SRD's (no Dodge), the former
    party's (legacy ``dodge-printed-ac``) counted it in AC and touch AC."""
    new, old = build_character("fighter", 2), build_character("fighter", 2, legacy={"dodge-printed-ac"})
    assert "Dodge" in new.feats
    assert (old.ac - new.ac, old.touch_ac - new.touch_ac, old.flat_footed_ac - new.flat_footed_ac) == (1, 1, 0)


# ------------------------------------------------------------------------------------------ 4. touch, flat-footed
def test_a_flat_footed_targets_touch_ac_loses_its_dexterity_bonus(spy):
    """SRD Flat-Footed: "A character who has not yet acted during a combat is flat-footed ... A flat-footed
    character loses his Dexterity bonus to AC (if any)"; Touch Attacks: "All other modifiers, such as size
    modifier, Dexterity modifier, and deflection bonus (if any) apply normally" - so touch AC loses Dex too."""
    for model, flat_footed in ((DEFAULT, 10), (undo("touch-flat-footed"), 13)):
        f = make_fight(
            [body("ghost", side="pc", attack=TOUCH)],
            [body("rogue", ac=16, touch_ac=13, flat_footed_ac=13)],
            "d20",
            model=model,
        )
        ghost, rogue = f.pcs[0], f.monsters[0]
        assert rogue.t.ff_touch_ac == 10
        script = Script(f, [d20(1), d20(1)])
        swing_at(f, ghost, rogue, ghost.t.standard[0], 5)  # it has not acted: flat-footed
        rogue.acted = True
        swing_at(f, ghost, rogue, ghost.t.standard[0], 5)
        assert script.used_up
        assert [check.target for check in checks(spy, "attack")] == [flat_footed, 13]
        spy.clear()


def test_a_ray_against_a_flat_footed_target_uses_its_flat_footed_touch_ac(spy):
    """SRD: scorching ray is "a ranged touch attack"; a flat-footed target loses its Dexterity bonus to AC."""
    f = make_fight([caster(3)], [body("rogue", ac=16, touch_ac=13, flat_footed_ac=13)], "d20")
    Script(f, [d20(1)])
    cast(f, f.pcs[0], "scorching ray", 2, [f.monsters[0]])  # the rogue has not acted
    assert [check.target for check in checks(spy, "attack")] == [10]


# ------------------------------------------------------------------------------------------ 5. helpless
@pytest.mark.parametrize(("dex", "ac", "dex_zero"), [(10, 15, 5), (8, 14, 4), (14, 17, 5)])
def test_a_helpless_defender_has_dexterity_zero_and_melee_gets_plus_four(spy, dex, ac, dex_zero):
    """SRD Helpless: "A helpless target is treated as having a Dexterity of 0 (-5 modifier). Melee attacks
    against a helpless target get a +4 bonus (equivalent to attacking a prone target). Ranged attacks gets no
    special bonus against helpless targets." A Dex 8 creature's -1 is replaced by the -5: flat-footed AC - 4."""
    flat_footed = ac - max(0, (dex - 10) // 2)
    for model, melee, ranged in (
        (DEFAULT, flat_footed - dex_zero - 4, flat_footed - dex_zero),
        (ModelOptions(helpless_ac="flat-footed"), flat_footed - 4, flat_footed),
    ):
        sleeper = body("sleeper", ac=ac, flat_footed_ac=flat_footed, abilities={"dex": dex})
        f = make_fight(
            [body("hero", side="pc"), body("archer", side="pc", attack=JAVELIN)], [sleeper], "d20", model=model
        )
        hero, archer = f.pcs
        target = f.monsters[0]
        add_condition(f, target, "asleep", 60.0)
        assert not target.is_able
        script = Script(f, [d20(1), d20(1)])
        swing_at(f, hero, target, hero.t.standard[0], 5)
        swing_at(f, archer, target, archer.t.standard[0], 5)
        assert script.used_up
        assert [check.target for check in checks(spy, "attack")] == [melee, ranged]
        spy.clear()


# ------------------------------------------------------------------------------------------ 6. blinded
def test_a_blinded_defender_loses_its_dexterity_bonus_and_takes_minus_two(spy):
    """SRD Blinded: "The character cannot see. He takes a -2 penalty to Armor Class, loses his Dexterity bonus to
    AC (if any)"."""
    for model, blinded in ((DEFAULT, 12 - 2), (undo("blind-dex"), 15 - 2)):
        f = make_fight([body("hero", side="pc")], [body("orc", ac=15, flat_footed_ac=12)], "d20", model=model)
        hero, orc = f.pcs[0], f.monsters[0]
        orc.acted = True  # not flat-footed
        script = Script(f, [d20(1), d20(1)])
        swing_at(f, hero, orc, hero.t.standard[0], 5)
        orc.blind = True
        swing_at(f, hero, orc, hero.t.standard[0], 5)
        assert script.used_up
        assert [check.target for check in checks(spy, "attack")] == [15, blinded]
        spy.clear()


# ------------------------------------------------------------------------------------------ 7. melee begins
def test_no_penalty_for_shooting_into_a_melee_before_anyone_has_closed_in(spy):
    """SRD Shooting or Throwing into a Melee: "If you shoot or throw a ranged weapon at a target engaged in melee
    with a friendly character, you take a -4 penalty": before any melee attack there is no melee to shoot into."""
    for model, round_one in ((DEFAULT, 0), (undo("melee-begins"), -4)):
        f = make_fight(
            [body("archer", side="pc", attack=JAVELIN), body("hero", side="pc"), caster(3)],
            [body("orc")],
            "d20",
            model=model,
        )
        archer, hero, mage = f.pcs
        orc = f.monsters[0]
        assert archer.ranged and not hero.ranged
        script = Script(f, [d20(1)] * 5)
        f.round = 1
        swing_at(f, archer, orc, archer.t.standard[0], 5)
        cast(f, mage, "scorching ray", 2, [orc])  # a ray: a ranged touch attack
        swing_at(f, hero, orc, hero.t.standard[0], 5)  # the melee begins
        swing_at(f, archer, orc, archer.t.standard[0], 5)
        cast(f, mage, "scorching ray", 2, [orc])
        assert script.used_up
        ray = mage.t.ray_bonus
        assert [check.modifier for check in checks(spy, "attack")] == [
            5 + round_one,
            ray + round_one,
            5,
            5 - 4,
            ray - 4,
        ]
        spy.clear()


# ------------------------------------------------------------------------------------------ 8. flanking
def flank(spy, model: ModelOptions, ally_attacks: str, ally_drops: bool = False) -> tuple[int, bool]:
    """The rogue's attack modifier and whether its sneak attack was rolled, after its ally's melee attack on the
    orc or the goblin (and the ally's dropping)."""
    f = make_fight(
        [body("rogue", side="pc", attack=RAPIER), body("ally", side="pc", hp=30)],
        [body("orc", hp=30), body("goblin", hp=30)],
        "d20",
        model=model,
    )
    rogue, ally = f.pcs
    orc, goblin = f.monsters
    orc.acted = goblin.acted = True  # not flat-footed: no sneak attack for that
    Script(f, [d20(1)])
    swing_at(f, ally, orc if ally_attacks == "orc" else goblin, ally.t.standard[0], 5)
    if ally_drops:
        melee = orc.melee_attackers
        deal(f, orc, ally, ally.hp + 1, SLASHING)
        assert not ally.is_able and orc.melee_attackers == melee - 1 and ally.melee_target is None
    spy.clear()
    script = Script(f, [d20(19), LOW, LOW])  # a hit (no threat), the rapier's 1d6, the sneak attack's 3d6
    assert swing_at(f, rogue, orc, rogue.t.standard[0], 5)
    (check,) = checks(spy, "attack")
    sneak = script.used_up
    assert orc.max_hp - orc.hp == 1 + 3 * sneak
    return check.modifier, sneak


@pytest.mark.parametrize(
    ("model", "same", "other", "dropped"),
    [
        (DEFAULT, (7, True), (5, False), (5, False)),
        (ModelOptions(flanking="any-melee-ally"), (5, True), (5, True), (5, False)),
        (ModelOptions(flanking="never"), (5, False), (5, False), (5, False)),
    ],
    ids=["same-target", "any-melee-ally", "never"],
)
def test_flanking_needs_another_able_ally_on_the_same_target(spy, model, same, other, dropped):
    """SRD Flanking: "When making a melee attack, you get a +2 flanking bonus if your opponent is threatened by a
    character or creature friendly to you on the opponent's opposite border or opposite corner"; Sneak Attack:
    "... or when the rogue flanks her target". Abstractly: another able ally's last melee attack was on the same
    target."""
    assert flank(spy, model, "orc") == same
    assert flank(spy, model, "goblin") == other
    assert flank(spy, model, "orc", ally_drops=True) == dropped


# ------------------------------------------------------------------------------------------ 9. flat-footed AoO
@pytest.mark.parametrize(
    ("model", "while_flat_footed"), [(DEFAULT, False), (undo("flat-footed-aoo"), True)], ids=["fixed", "undone"]
)
def test_a_flat_footed_creature_makes_no_attack_of_opportunity_on_a_fumble(spy, model, while_flat_footed):
    """SRD Flat-Footed: "A flat-footed character ... cannot make attacks of opportunity" (a fumbled melee attack
    provokes one under the open-ended rules, document 002)."""
    for acted in (False, True):
        f = make_fight([body("hero", side="pc", hp=30)], [body("orc", hp=50)], "d20+open", model=model)
        hero, orc = f.pcs[0], f.monsters[0]
        orc.acted = acted
        provokes = acted or while_flat_footed
        script = Script(f, FUMBLE + ([d20(10), (3, 6)] if provokes else []))  # the orc's reply: 15 hits AC 12
        assert not swing_at(f, hero, orc, hero.t.standard[0], 5)
        assert script.used_up
        assert [who for _, who, _ in spy] == ([hero, orc] if provokes else [hero])
        assert hero.tally.aoo_provoked == provokes and hero.hp == 30 - 3 * provokes
        spy.clear()


# ------------------------------------------------------------------------------------------ 10. trip ties
def tripped(model: ModelOptions, trip_modifier: int, draws: list) -> bool:
    """Whether a trip (attacker ``trip_modifier`` against a defender's Str +2) succeeds with these d20s: the
    defender's check first, then the attacker's (and again on a tie of equal modifiers)."""
    bite = {
        "name": "bite",
        "bonuses": [5],
        "damage": "1d6",
        "damage_types": ["piercing"],
        "trip": True,
        "trip_modifier": trip_modifier,
    }
    f = make_fight([body("wolf", side="pc", attack=bite)], [body("orc", abilities={"str": 14})], "d20", model=model)
    wolf, orc = f.pcs[0], f.monsters[0]
    assert orc.t.trip_defence == 2
    script = Script(f, [d20(n) for n in draws])
    attacks.trip(f, wolf, orc, wolf.t.standard[0])
    assert script.used_up
    return orc.prone


def test_opposed_trip_checks_tie_to_the_higher_modifier_then_roll_again():
    """SRD Trip: "You ... make a Strength check opposed by the defender's Dexterity or Strength check (whichever
    ability score has the higher modifier). ... If you win, you trip the defender"; Opposed Checks: "In case of a
    tie, the higher ... modifier wins. If these scores are the same, roll again to break the tie"."""
    assert tripped(DEFAULT, 4, [12, 10])  # 14 against 14: +4 beats +2
    assert not tripped(DEFAULT, 0, [10, 12])  # 12 against 12: +0 loses to +2
    assert tripped(DEFAULT, 2, [10, 10, 5, 15])  # 12 against 12, +2 and +2: again, 7 against 17
    assert not tripped(DEFAULT, 2, [10, 10, 15, 5])
    assert tripped(DEFAULT, 0, [10, 13]) and not tripped(DEFAULT, 4, [12, 9])  # no tie: the higher total
    old = undo("trip-ties")
    assert not tripped(old, 4, [12, 10])  # the old model: every tie to the defender, no reroll
    assert not tripped(old, 2, [10, 10])
    assert tripped(old, 0, [10, 13])


def test_a_hit_with_a_trip_attack_makes_the_opposed_trip_check():
    bite = {
        "name": "bite",
        "bonuses": [5],
        "damage": "1d6",
        "damage_types": ["piercing"],
        "trip": True,
        "trip_modifier": 4,
    }
    for model, prone in ((DEFAULT, True), (undo("trip-ties"), False)):
        f = make_fight([body("wolf", side="pc", attack=bite)], [body("orc", abilities={"str": 14})], "d20", model=model)
        wolf, orc = f.pcs[0], f.monsters[0]
        script = Script(f, [d20(15), LOW, d20(12), d20(10)])  # hit, 1 damage; the trip checks tie at 14
        assert swing_at(f, wolf, orc, wolf.t.standard[0], 5)
        assert script.used_up and orc.prone is prone


# ------------------------------------------------------------------------------------------ 11. color spray
def test_a_fumbled_save_against_color_spray_takes_the_longest_durations():
    """SRD Color Spray (2 HD or less): "The creature is unconscious, blinded, and stunned for 2d4 rounds, then
    blinded and stunned for 1d4 rounds, and then stunned for 1 round"; a fumbled save (open-ended rules,
    document 002) takes the worst of each roll: unconscious 8 rounds, stunned 8 + 4 + 1."""
    for model, fumble_rolls in ((DEFAULT, False), (undo("color-spray-fumble"), True)):
        for first, rolled in ((FUMBLE, fumble_rolls), ([d20(5)], True)):  # a fumble; a plain failure (7 < 11)
            f = make_fight([caster(5)], [body("kobold", hit_dice="2d8")], "d20+open", model=model)
            kobold = f.monsters[0]
            script = Script(f, [*first, LOW, LOW] if rolled else first)  # 2d4 and 1d4 (tables): the lowest
            cast(f, f.pcs[0], "color spray", 1, [kobold])
            assert script.used_up
            out, stunned = kobold.conditions["knocked-out"][0], kobold.conditions["stunned"][0]
            assert (out / clock.ROUND, stunned / clock.ROUND) == ((2, 2 + 1 + 1) if rolled else (8, 8 + 4 + 1))


# ------------------------------------------------------------------------------------------ 12. SR once
@pytest.mark.parametrize(("sr", "through"), [(12, True), (30, False)])
def test_spell_resistance_is_checked_once_per_spell_and_target(spy, sr, through):
    """SRD Spell Resistance: "the spellcaster must make a caster level check (1d20 + caster level) at least equal
    to the creature's spell resistance" - once for the spell and that creature: scorching ray at caster level 7
    (two rays) at one target is one check, which lets both rays through or neither."""
    for model, sr_checks in ((DEFAULT, 1), (undo("sr-once"), 2)):
        f = make_fight([caster(7)], [body("golem", spell_resistance=sr)], "fixed10", model=model)
        golem = f.monsters[0]
        every_die_shows(f, LOW)  # fixed10: 7 + 10 = 17 against the SR; each ray 4d6 = 4
        cast(f, f.pcs[0], "scorching ray", 2, [golem])
        assert len(checks(spy, "caster-level")) == sr_checks
        assert len(checks(spy, "attack")) == 2 * through
        assert golem.max_hp - golem.hp == 8 * through
        spy.clear()


# ------------------------------------------------------------------------------------------ 13. area damage
def test_an_area_spell_rolls_its_damage_once_for_everyone_it_catches():
    """SRD Fireball: "deals 1d6 points of fire damage per caster level (maximum 10d6) to every creature within the
    area" - one damage roll; each creature saves for half (Reflex half). ``per-target``: one roll each (0.2)."""
    five_d6 = [LOW] * 5  # 5d6 (7,776 combinations): one draw per die
    for model, draws, damage in (
        (DEFAULT, [*five_d6, LOW, LOW], (5, 5)),  # the damage first, then the two saves
        (ModelOptions(area_damage="per-target"), [LOW, *five_d6, LOW, *[HIGH] * 5], (5, 30)),
    ):
        f = make_fight([caster(5)], [body("a", saves=FAILS), body("b", saves=FAILS)], "fixed10", model=model)
        script = Script(f, draws)
        cast(f, f.pcs[0], "fireball", 3, list(f.monsters))
        assert script.used_up
        assert tuple(m.max_hp - m.hp for m in f.monsters) == damage


def test_a_breath_weapon_rolls_once_under_either_area_damage_option():
    """A breath weapon's damage is rolled once for every creature in its area (each saves for half), as before."""
    weapon = {"shape": "cone", "length_ft": 30, "damage": "4d6", "damage_type": "fire", "dc": 15}
    for model in (DEFAULT, ModelOptions(area_damage="per-target")):
        f = make_fight(
            [body("a", side="pc", saves=FAILS), body("b", side="pc", saves=FAILS)],
            [body("drake", breath_weapon=weapon)],
            "fixed10",
            model=model,
        )
        script = Script(f, [LOW, 0.5, LOW, LOW])  # the recharge, one 4d6 (a table: one draw), two saves
        breathe(f, f.monsters[0], list(f.pcs))
        assert script.used_up
        a, b = (c.max_hp - c.hp for c in f.pcs)
        assert a == b > 4


# ------------------------------------------------------------------------------------------ 14. Healing domain
@pytest.mark.parametrize(
    ("cl", "domain", "bonus"), [(3, True, 4), (3, False, 3), (4, True, 5), (5, True, 5), (5, False, 5)]
)
def test_the_healing_domain_casts_healing_spells_at_plus_one_caster_level(cl, domain, bonus):
    """SRD Healing Domain: "Granted Power: You cast healing spells at +1 caster level"; cure light wounds "cures
    1d8 points of damage +1 point per caster level (maximum +5)"."""
    for model, expected in ((DEFAULT, bonus), (undo("healing-domain"), min(cl, 5))):
        cleric = caster(cl, name="cleric", ability="wis", domains=["Healing"] if domain else [])
        f = make_fight([cleric, body("friend", side="pc")], [body("orc")], "fixed10", model=model)
        friend = f.pcs[1]
        friend.hp = 100
        every_die_shows(f, LOW)
        cast(f, f.pcs[0], "cure light wounds", 1, [friend])
        assert friend.hp - 100 == 1 + expected  # the d8 shows 1


# ------------------------------------------------------------------------------------------ 15. sleep casting
def sleep_fight(model: ModelOptions = DEFAULT):
    f = make_fight(
        [build_character("wizard", 5)],
        [body("kobold", hit_dice="1d8", saves=FAILS), body("goblin", hit_dice="1d8", saves=FAILS)],
        "fixed10",
        model=model,
    )
    every_die_shows(f, LOW)
    return f, f.pcs[0], f.monsters


def test_sleep_takes_a_full_round_and_a_hurt_caster_makes_a_concentration_check(spy):
    """SRD Sleep: "Casting Time: 1 round"; Casting Time: "A spell that takes 1 round to cast is a full-round
    action. It comes into effect just before the beginning of your turn in the round after you began casting the
    spell"; Concentration: "Damaged during the action: 10 + damage dealt"; a caster that cannot act loses it."""
    f, wizard, kobolds = sleep_fight()
    cast(f, wizard, "sleep", 1, list(kobolds))
    assert wizard.casting is not None and not any("asleep" in k.conditions for k in kobolds)
    f.round = 2
    f.turn(wizard)  # it takes effect before the caster acts
    assert wizard.casting is None and all("asleep" in k.conditions for k in kobolds)
    assert not checks(spy, "skill")
    # hurt meanwhile: Concentration +9 (5 + 3 ranks, Con +1) + a natural 10 against DC 10 + the damage
    concentration = wizard.t.concentration
    assert concentration == 9
    for damage, kept in ((9, True), (10, False)):
        spy.clear()
        f, wizard, kobolds = sleep_fight()
        cast(f, wizard, "sleep", 1, list(kobolds))
        deal(f, kobolds[0], wizard, damage, SLASHING)
        complete_casting(f, wizard)
        (check,) = checks(spy, "skill", wizard)
        assert (check.modifier, check.target) == (concentration, 10 + damage)
        assert all(("asleep" in k.conditions) is kept for k in kobolds) and wizard.casting is None
    # unable to act meanwhile: the spell is lost
    f, wizard, kobolds = sleep_fight()
    cast(f, wizard, "sleep", 1, list(kobolds))
    add_condition(f, wizard, "held", 60.0, dc=99)
    complete_casting(f, wizard)
    assert not any("asleep" in k.conditions for k in kobolds) and wizard.casting is None


def test_sleep_cast_instantly_under_the_old_model():
    f, wizard, kobolds = sleep_fight(ModelOptions(sleep_casting="instant"))
    cast(f, wizard, "sleep", 1, list(kobolds))
    assert wizard.casting is None and all("asleep" in k.conditions for k in kobolds)


# ------------------------------------------------------------------------------------------ 16. prad Fortitude
def test_massive_damage_and_coup_de_grace_saves_are_rolled_by_the_monster_under_players_roll_all(spy):
    """SRD Massive Damage: "If you ever sustain a single attack deals 50 points of damage or more and it doesn't
    kill you outright, you must make a DC 15 Fortitude save"; Coup de Grace: "If the defender survives the damage,
    he must make a Fortitude save (DC 10 + damage dealt) or die". Document 001 turns a monster's save against "a
    spell or special attack" into the player's magic check: these are neither, so the monster rolls them
    (``monster-rolls``)."""
    for model, roller, kind in (
        (DEFAULT, "monster", "save"),
        (ModelOptions(prad_fortitude="magic-check"), "pc", "magic"),
    ):
        giant = body("giant", hp=500, saves={"fort": 30, "ref": 0, "will": 0})  # survives the saves
        f = make_fight([caster(5)], [giant], "d20+prad", seed=3, model=model)
        hero, giant = f.pcs[0], f.monsters[0]
        deal(f, hero, giant, 60, SLASHING, weapon=True)  # massive damage
        add_condition(f, giant, "asleep", 60.0)
        before = giant.hp
        coup_de_grace(f, hero, giant)
        massive, coup = checks(spy, "save", giant)
        assert (massive.target, coup.target) == (15, 10 + before - giant.hp)
        for check in (massive, coup):
            plan = f.kernel.plan(check)
            assert (plan.roller, plan.roller_kind) == (roller, kind)
        spy.clear()
        save(f, giant, "will", 14, hero)  # a save against a spell is still the player's magic check
        (spell_save,) = checks(spy, "save", giant)
        assert (f.kernel.plan(spell_save).roller, f.kernel.plan(spell_save).roller_kind) == ("pc", "magic")
        spy.clear()


# ------------------------------------------------------------------------------------------ 17. Luck domain
def luck_cleric(luck: bool = True) -> Creature:
    return body(
        "cleric",
        side="pc",
        hp=40,
        saves={"fort": 0, "ref": 0, "will": 0},
        spellcasting={"caster_level": 5, "ability": "wis", "domains": ["Luck"] if luck else []},
    )


def test_the_luck_reroll_is_taken_on_the_first_low_natural_of_any_roll_of_its_own(spy):
    """SRD Luck Domain: "Granted Power: You gain the power of good fortune, which is usable once per day. This
    extraordinary ability allows you to reroll one roll that you have just made before the DM declares whether
    the roll results in success or failure": decided from the natural alone (d20: 1-2), once per fight."""
    f = make_fight([luck_cleric()], [body("orc", ac=10)], "d20")
    cleric, orc = f.pcs[0], f.monsters[0]
    script = Script(f, [d20(3)])  # a natural 3 that fails: not low, kept
    assert not save(f, cleric, "will", 15, orc).success and script.used_up and not cleric.luck_used
    script = Script(f, [d20(2), d20(15), LOW])  # a natural 2 that would hit (+20): rerolled
    assert swing_at(f, cleric, orc, cleric.t.standard[0], 20)
    outcome = spy[-1][2]
    assert outcome.rerolled and outcome.natural == 15 and cleric.luck_used and script.used_up
    script = Script(f, [d20(1)])  # spent: the next low natural stays
    outcome = save(f, cleric, "will", 15, orc)
    assert not outcome.rerolled and not outcome.success and script.used_up
    # initiative is a roll of its own too
    g = make_fight([luck_cleric()], [body("orc")], "d20")
    script = Script(g, [d20(2), d20(15), d20(10), 0.5, 0.5])  # its natural 2 rerolled; the orc's 10; tie-breaks
    g.initiative()
    assert script.used_up and g.pcs[0].init == 15 and g.pcs[0].luck_used
    # under 3d6: a natural 3-6, rerolled on 4d6 drop the lowest
    h = make_fight([luck_cleric()], [body("orc")], "3d6")
    script = Script(h, [draw_for("3d6", (1, 1, 4)), draw_for("4d6kh3", (6, 6, 6, 1))])
    outcome = save(h, h.pcs[0], "will", 15, h.monsters[0])
    assert outcome.rerolled and outcome.natural == 18 and script.used_up


def test_the_known_failure_luck_reroll_is_the_first_failed_save():
    """The model before 0.3: the reroll waits for the first failed save (a low attack or initiative is kept)."""
    f = make_fight([luck_cleric()], [body("orc", ac=10)], "d20", model=ModelOptions(luck_reroll="known-failure"))
    cleric, orc = f.pcs[0], f.monsters[0]
    script = Script(f, [d20(2), LOW])  # the natural 2 hits and stands
    assert swing_at(f, cleric, orc, cleric.t.standard[0], 20) and script.used_up and not cleric.luck_used
    script = Script(f, [d20(3), d20(16)])  # a failed natural 3: rerolled
    outcome = save(f, cleric, "will", 15, orc)
    assert outcome.rerolled and outcome.success and script.used_up and cleric.luck_used
    g = make_fight([luck_cleric()], [body("orc")], "d20", model=ModelOptions(luck_reroll="known-failure"))
    script = Script(g, [d20(2), d20(10), 0.5, 0.5])
    g.initiative()
    assert script.used_up and g.pcs[0].init == 2 and not g.pcs[0].luck_used
    h = make_fight([luck_cleric(luck=False)], [body("orc")], "d20")  # no domain, no reroll
    script = Script(h, [d20(1)])
    assert not save(h, h.pcs[0], "will", 15, h.monsters[0]).rerolled and script.used_up


# ------------------------------------------------------------------------------------------ 18. buffs by value
def test_the_cleric_blesses_the_party_before_casting_auspicious_odds_on_itself():
    """SRD Bless: "Area: The caster and all allies within a 50-ft. burst"; auspicious odds (document 000's
    Luck domain) helps its caster alone: by value, bless comes first though it is the lower level."""
    party = generate_party(5, "3d6")
    assert "auspicious odds" in party[1].spellcasting.prepared[3]
    for model, spell, helped in (
        (DEFAULT, "bless", 4),
        (ModelOptions(buff_choice="highest-level"), "auspicious odds", 1),
    ):
        encounter = prepare(party, [(get_creature("ogre"), 2)], model=model)
        f = Fight(encounter, RuleSet.from_key("3d6+luck+called"), 4, log=True)
        f.round = 1
        cleric = f.pcs[1]
        action = tactics.caster_policy(f.view, cleric)
        assert (action.kind, action.spell, len(action.targets)) == ("cast", spell, helped)
        assert cleric in action.targets


# ------------------------------------------------------------------------------------------ 19. immune targets
def test_the_caster_does_not_aim_fire_at_a_creature_immune_to_it():
    """SRD Fire Subtype: "A creature with the fire subtype has immunity to fire": a fireball or scorching ray at it
    is wasted, so it is aimed elsewhere when another enemy or another spell can do harm. (The choice of the first
    spell prepared, ``energy-aware-spells`` undone: by value, an immune target is worth nothing, as in
    ``test_high_level_spells``.)"""
    wizard = caster(5, {3: ["fireball"], 2: ["scorching ray"], 1: ["magic missile"]})
    salamander = body("salamander", hp=5, subtypes=["fire"])  # the weakest: the first choice otherwise
    imp = body("imp", hp=6, immunities=["fire"])
    orcs = [body(f"orc{i}", hp=30 + i) for i in range(4)]
    f = make_fight([wizard], [salamander, imp, *orcs], "d20")
    f.round = 2
    action = tactics.caster_policy(f.view, f.pcs[0])
    assert action.spell == "fireball" and not set(f.monsters[:2]) & set(action.targets)
    for model, fixed in ((undo("energy-aware-spells"), True), (undo("immune-targets", "energy-aware-spells"), False)):
        f = make_fight([wizard], [salamander, imp, *orcs], "d20", model=model)
        f.round = 2
        immune = set(f.monsters[:2])
        action = tactics.caster_policy(f.view, f.pcs[0])
        assert action.spell == "fireball"
        assert bool(immune & set(action.targets)) is not fixed
        f.pcs[0].spend_slot("fireball", 3)
        action = tactics.caster_policy(f.view, f.pcs[0])
        assert action.spell == "scorching ray" and (action.targets[0] in immune) is not fixed
        # only fire-immune enemies left: another spell
        g = make_fight([wizard], [salamander, imp], "d20", model=model)
        g.round = 2
        g.pcs[0].spend_slot("fireball", 3)
        action = tactics.caster_policy(g.view, g.pcs[0])
        assert action.spell == ("magic missile" if fixed else "scorching ray")


# ------------------------------------------------------------------------------------------ 20. sleep budget
@pytest.mark.parametrize(
    ("hd", "fixed", "undone"), [(3, False, True), (1, True, True), (2, False, True), (4, False, True)]
)
def test_sleep_is_aimed_only_where_its_four_hit_dice_catch_three(hd, fixed, undone):
    """SRD Sleep: "causes a magical slumber to come upon 4 Hit Dice of creatures": four 3-HD enemies lose only one
    to it, four 2-HD ones two (not worth the slot); four 1-HD enemies lose three (the 10-ft. burst catches
    three). (The choice of the first area spell prepared, ``energy-aware-spells`` undone: by value, sleep counts
    only those its Hit Dice reach, and is cast when nothing is worth more.)"""
    enemies = [body(f"kobold{i}", hit_dice=f"{hd}d8") for i in range(4)]
    old = undo("energy-aware-spells")
    for model, chosen in ((old, fixed), (undo("sleep-budget", "energy-aware-spells"), undone)):
        f = make_fight([caster(5, {1: ["sleep"]})], enemies, "d20", model=model)
        f.round = 2
        action = tactics.caster_policy(f.view, f.pcs[0])
        assert (action.kind == "cast" and action.spell == "sleep") is chosen
        if chosen and model is old:
            assert sum(t.t.hd for t in action.targets) <= spells.SLEEP_HD and len(action.targets) >= 2
    f = make_fight([caster(5, {1: ["sleep"]})], enemies, "d20")
    f.round = 2
    action = tactics.caster_policy(f.view, f.pcs[0])
    assert action.spell == "sleep" and sum(t.t.hd for t in action.targets) <= spells.SLEEP_HD


# ------------------------------------------------------------------------------------------ 21. caster melee
def test_the_cleric_fights_in_melee_and_the_wizard_stands_back():
    """No SRD line (a gridless model's choice, docs/model-options.md): a caster stands back with its
    crossbow only when it shoots better than it fights: the cleric (Dex 8, a magic morningstar) is in the melee,
    the wizard (a mundane quarterstaff) shoots."""
    for model, cleric_ranged in ((DEFAULT, False), (undo("caster-melee"), True)):
        f = make_fight(generate_party(5), [get_creature("ogre")], "d20", model=model)
        fighter, cleric, rogue, wizard = f.pcs
        assert cleric.t.abilities["dex"] == 8 and cleric.t.full[0].name == "morningstar"
        assert cleric.ranged is cleric_ranged and wizard.ranged and not fighter.ranged and not rogue.ranged
        assert f.melee_count["pc"] == 3 - cleric_ranged


# ------------------------------------------------------------------------------------------ 22. back line
def test_the_back_line_is_protected_while_the_melee_lasts():
    """SRD Threatened Squares: "You threaten all squares into which you can make a melee attack"; without a grid,
    ``protected`` keeps those who stand back out of a melee creature's reach while anyone holds the melee."""
    for model, reached in ((DEFAULT, False), (ModelOptions(back_line="reachable"), True)):
        f = make_fight(generate_party(5), [get_creature("ogre")], "d20", model=model)
        wizard, ogre = f.pcs[3], f.monsters[0]
        assert (wizard in f.view.reachable(ogre)) is reached and f.view.reaches(ogre, wizard) is reached
        weakest = min(f.view.reachable(ogre), key=lambda c: c.hp)
        assert weakest is (wizard if reached else min(f.pcs[:3], key=lambda c: c.hp))
        assert tactics.attack_policy(f.view, ogre).target is weakest  # the ogre focuses on the weakest
        for c in f.pcs[:3]:  # nobody holds the melee: the wizard is reached
            deal(f, ogre, c, c.hp + 1, SLASHING)
        assert wizard in f.view.reachable(ogre)


# ------------------------------------------------------------------------------------------ 23. ModelOptions
def test_model_options_refuse_unknown_fixes_and_values():
    with pytest.raises(ValueError, match="undo: unknown fix 'nope'"):
        ModelOptions(undo=frozenset({"nope"}))
    with pytest.raises(ValueError, match="flanking"):
        ModelOptions(flanking="sometimes")
    with pytest.raises(ValueError, match="extra"):
        ModelOptions(flank="never")
    assert DEFAULT.fixed("sr-once") and not undo("sr-once").fixed("sr-once")
    assert undo("sr-once").changed() == {"undo": frozenset({"sr-once"})} and DEFAULT.changed() == {}
    assert LEGACY.undo == frozenset(FIXES) and not any(LEGACY.fixed(name) for name in FIXES)


def test_parse_assignments_reads_the_command_line_and_names_bad_pairs():
    model = parse_assignments(["flanking=never", "undo=spell-focus,sr-once"])
    assert model.flanking == "never" and model.undo == frozenset({"spell-focus", "sr-once"})
    assert parse_assignments(["back-line=reachable"]).back_line == "reachable"
    assert parse_assignments(None) == DEFAULT and parse_assignments([], base=LEGACY) == LEGACY
    assert parse_assignments(["flanking=never"], base=LEGACY).sleep_casting == "instant"
    for pair, named in (
        ("flanking", "'flanking'"),
        ("nonsense=1", "'nonsense=1'"),
        ("=never", "'=never'"),
        ("undo=nope", "'nope'"),
    ):
        with pytest.raises(ArenaError, match=named):
            parse_assignments([pair])


def test_a_bad_model_value_names_the_pair():
    with pytest.raises(ArenaError, match="sometimes"):
        parse_assignments(["flanking=sometimes"])


def test_undo_names_may_be_written_with_spaces():
    assert parse_assignments(["undo=spell-focus, sr-once"]).undo == frozenset({"spell-focus", "sr-once"})


# ------------------------------------------------------------------------------------------ the winner
def test_a_disabled_pc_who_kills_the_last_monster_and_strains_has_won():
    """SRD 3.5 "Disabled": a disabled character who takes a strenuous standard action (an attack) takes 1 point
    of damage after completing it. The fighter at 0 hp drops the orc, then strains to -1: the orc fell first, so
    the party has won (the model before scored it a draw: ``undo disabled-win``). Draws come from the round cap."""
    from pathlib import Path

    from arena.cli.fight_cmds import fight_document

    duel = Path(__file__).resolve().parents[2] / "scenarios" / "duel.yaml"
    new = fight_document(duel, seed=57)
    old = fight_document(duel, seed=57, model=["undo=disabled-win"])
    log = "\n".join(new["log"])
    assert "orc drops (dying)\n[r1] fighter-1 strains its wounds: -1 hp, dying" in log
    assert (new["record"]["winner"], old["record"]["winner"]) == ("party", "draw")
    assert new["record"]["rounds"] == 1


def test_only_the_round_cap_makes_a_draw():
    """Over 400 seeded duels (the fighter against an orc), every draw is a fight that reached the round cap."""
    from arena.combat.engine import fight, prepare
    from arena.rules import RuleSet

    encounter = prepare([build_character("fighter", 1)], [(get_creature("orc"), 1)], round_cap=20)
    records = [fight(encounter, RuleSet.from_key("d20"), seed).record for seed in range(400)]
    assert all(r.rounds == 20 for r in records if r.winner == "draw")
    assert sum(r.winner == "party" for r in records) > 200
