"""The rogue's class features in a fight (issue 24, finding 3): uncanny dodge, improved uncanny dodge, improved
evasion and defensive roll, each against its SRD 3.5 line, with the old model one ``undo=class-features`` away.

Dice are scripted (:class:`fight_scripting.Script`) or the fight is seeded; ``spy`` (tests/conftest.py) records
every check the engine resolves.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fight_scripting import Script, d20, make_fight, stat_block

from arena.combat.attacks import ranged_touch_ac, swing_at
from arena.combat.damage import area_damage, deal
from arena.combat.engine import fight, prepare
from arena.combat.model import FIXES, ModelOptions
from arena.dice import parse
from arena.rules import RuleSet
from arena.world.bestiary import get_creature
from arena.world.creatures import Creature
from arena.world.party import generate_party
from arena.world.yamlio import load_yaml, validate

DEFAULT = ModelOptions()
UNDONE = ModelOptions(undo=frozenset({"class-features"}))
LOW = 0.0
RAPIER = {"name": "rapier", "bonuses": [5], "damage": "1d6", "damage_types": ["piercing"], "sneak_attack": "3d6"}
SLASHING = frozenset({"slashing"})


def checks(spy, kind: str) -> list:
    return [check for check, _, _ in spy if check.kind == kind]


def test_the_fix_is_named():
    assert "class-features" in FIXES and "Uncanny Dodge" in FIXES["class-features"]


# ------------------------------------------------------------------------------------------ uncanny dodge
def test_issue_24_the_ogre_swings_at_the_rogues_full_ac_before_she_acts():
    """Issue 24: a level-5 party against an ogre, seed 2: the ogre acts before rogue-5 (initiative 16 against 9)
    and swung at "rogue-5 AC 16", its flat-footed AC, and hit for 13. SRD 3.5 rogue, uncanny dodge (4th): "She
    retains her Dexterity bonus to AC (if any) even if she is caught flat-footed": AC 19, and the 17 misses."""
    ogre = [(get_creature("ogre"), 1)]
    now = fight(prepare(generate_party(5), ogre), RuleSet.from_key("d20"), 2, log=True).log
    before = fight(
        prepare(generate_party(5, legacy={"class-features"}), ogre, model=UNDONE), RuleSet.from_key("d20"), 2, log=True
    ).log
    first = [line for line in now if "vs rogue-5" in line][0]
    assert first.startswith("[r1] ogre greatclub +8 vs rogue-5 AC 19: natural 9, total 17 - miss"), first
    first = [line for line in before if "vs rogue-5" in line][0]
    assert first.startswith("[r1] ogre greatclub +8 vs rogue-5 AC 16: natural 9, total 17 - hit for 13"), first


@pytest.mark.parametrize(("model", "flat_footed_ac"), [(DEFAULT, 16), (UNDONE, 13)], ids=["fixed", "undone"])
def test_uncanny_dodge_keeps_the_dexterity_bonus_when_flat_footed(spy, model, flat_footed_ac):
    """SRD 3.5 rogue: "She retains her Dexterity bonus to AC (if any) even if she is caught flat-footed or struck
    by an invisible attacker. However, she still loses her Dexterity bonus to AC if immobilized." Any creature
    with uncanny dodge (the ogre barbarian's, the astral deva's) alike: the swing, the touch attack and the ray."""
    touch = {**RAPIER, "name": "touch", "touch": True, "sneak_attack": None}
    f = make_fight(
        [stat_block("hero", "pc", attack=touch)],
        [stat_block("rogue", ac=16, touch_ac=13, flat_footed_ac=13, uncanny_dodge=True)],
        "d20",
        model=model,
    )
    hero, rogue = f.pcs[0], f.monsters[0]
    assert not rogue.acted
    script = Script(f, [d20(1)])
    swing_at(f, hero, rogue, hero.t.standard[0], 5)
    assert script.used_up
    touch_ac = 13 if model is DEFAULT else 10
    assert [check.target for check in checks(spy, "attack")] == [touch_ac]
    assert ranged_touch_ac(f, hero, rogue) == touch_ac
    spy.clear()
    plain = make_fight(
        [stat_block("hero", "pc")],
        [stat_block("rogue", ac=16, touch_ac=13, flat_footed_ac=13, uncanny_dodge=True)],
        "d20",
        model=model,
    )
    Script(plain, [d20(1)])
    swing_at(plain, plain.pcs[0], plain.monsters[0], plain.pcs[0].t.standard[0], 5)
    assert [check.target for check in checks(spy, "attack")] == [flat_footed_ac]
    assert checks(spy, "attack")[0].flat_footed  # still flat-footed (no attack of opportunity, no pressed luck)


def test_uncanny_dodge_does_not_keep_dexterity_when_helpless_or_stunned(spy):
    f = make_fight(
        [stat_block("hero", "pc")], [stat_block("rogue", ac=16, touch_ac=13, flat_footed_ac=13, uncanny_dodge=True)]
    )
    hero, rogue = f.pcs[0], f.monsters[0]
    rogue.conditions["stunned"] = [1e9, None]
    Script(f, [d20(1)])
    swing_at(f, hero, rogue, hero.t.standard[0], 5)
    assert [check.target for check in checks(spy, "attack")] == [13 - 2]  # flat-footed AC - 2 (stunned)


@pytest.mark.parametrize(("model", "sneak"), [(DEFAULT, False), (UNDONE, True)], ids=["fixed", "undone"])
def test_no_sneak_attack_on_a_flat_footed_creature_with_uncanny_dodge(model, sneak):
    """SRD ogre barbarian: "retains his Dex bonus to AC regardless of being caught flat-footed ... His Dex bonus to
    AC is +0, but this means that he is not subject to a rogue's sneak attack in these circumstances"."""
    f = make_fight(
        [stat_block("rogue", "pc", attack=RAPIER)], [stat_block("brute", hp=50, uncanny_dodge=True)], model=model
    )
    rogue, brute = f.pcs[0], f.monsters[0]
    script = Script(f, [d20(19), LOW, LOW])  # a hit; the rapier's 1d6; the sneak attack's 3d6 if it applies
    assert swing_at(f, rogue, brute, rogue.t.standard[0], 5)
    assert script.used_up == sneak
    assert brute.max_hp - brute.hp == 1 + 3 * sneak


# ------------------------------------------------------------------------------------------ improved uncanny dodge
def flanked_swing(spy, model: ModelOptions, guard: int, attacker_rogue: int) -> tuple[int, bool]:
    """The rogue's attack modifier and whether its sneak attack was rolled, when its ally fights the same target,
    a creature with improved uncanny dodge of rogue level ``guard`` (0: none)."""
    f = make_fight(
        [
            stat_block("rogue", "pc", attack=RAPIER, class_levels={"rogue": attacker_rogue}),
            stat_block("ally", "pc", hp=30),
        ],
        [stat_block("orc", hp=60, improved_uncanny_dodge=guard, uncanny_dodge=bool(guard))],
        "d20",
        model=model,
    )
    rogue, ally = f.pcs
    orc = f.monsters[0]
    orc.acted = True  # not flat-footed: only a flank gives the sneak attack
    Script(f, [d20(1)])
    swing_at(f, ally, orc, ally.t.standard[0], 5)
    spy.clear()
    script = Script(f, [d20(19), LOW, LOW])
    assert swing_at(f, rogue, orc, rogue.t.standard[0], 5)
    (check,) = checks(spy, "attack")
    return check.modifier, script.used_up


@pytest.mark.parametrize(
    ("model", "guard", "attacker", "flanks"),
    [
        (DEFAULT, 0, 8, True),
        (DEFAULT, 8, 8, False),
        (DEFAULT, 8, 11, False),
        (DEFAULT, 8, 12, True),
        (UNDONE, 8, 8, True),
        (ModelOptions(flanking="any-melee-ally"), 8, 8, False),
    ],
)
def test_improved_uncanny_dodge_cannot_be_flanked_but_by_a_rogue_four_levels_higher(
    spy, model, guard, attacker, flanks
):
    """SRD 3.5 rogue, improved uncanny dodge (8th): "A rogue of 8th level or higher can no longer be flanked. This
    defense denies another rogue the ability to sneak attack the character by flanking her, unless the attacker has
    at least four more rogue levels than the target does." Here: no +2 for flanking and no sneak attack by it."""
    modifier, sneak = flanked_swing(spy, model, guard, attacker)
    bonus = 2 if model.flanking == "same-target" else 0
    assert (modifier, sneak) == ((5 + bonus, True) if flanks else (5, False))


# ------------------------------------------------------------------------------------------ improved evasion
@pytest.mark.parametrize(("model", "failed"), [(DEFAULT, 10), (UNDONE, 20)], ids=["fixed", "undone"])
def test_improved_evasion_takes_half_on_a_failed_reflex_save(model, failed):
    """SRD 3.5 rogue, improved evasion: "This ability works like evasion, except that while the rogue still takes
    no damage on a successful Reflex saving throw against attacks such as a dragon's breath weapon or a fireball,
    henceforth she takes only half damage on a failed save." """
    f = make_fight(
        [stat_block("mage", "pc")], [stat_block("rogue", hp=60, evasion=True, improved_evasion=True)], model=model
    )
    mage, rogue = f.pcs[0], f.monsters[0]
    Script(f, [d20(2)])
    area_damage(f, mage, rogue, parse("6d6"), frozenset({"fire"}), "ref", 15, rolled=20)
    assert rogue.max_hp - rogue.hp == failed
    Script(f, [d20(19)])
    area_damage(f, mage, rogue, parse("6d6"), frozenset({"fire"}), "ref", 15, rolled=20)
    assert rogue.max_hp - rogue.hp == failed  # evasion: a made save takes none
    Script(f, [d20(2)])
    area_damage(f, mage, rogue, parse("6d6"), frozenset({"fire"}), "fort", 15, rolled=20)
    assert rogue.max_hp - rogue.hp == failed + 20  # only Reflex saves


# ------------------------------------------------------------------------------------------ defensive roll
@pytest.mark.parametrize(("model", "rolls"), [(DEFAULT, True), (UNDONE, False)], ids=["fixed", "undone"])
def test_defensive_roll_halves_one_blow_that_would_drop_her(model, rolls):
    """SRD 3.5 rogue, defensive roll: "Once per day, when she would be reduced to 0 or fewer hit points by damage
    in combat (from a weapon or other blow, not a spell or special ability), the rogue can attempt to roll with the
    damage ... a Reflex saving throw (DC = damage dealt). If the save succeeds, she takes only half damage from the
    blow ... if she is denied her Dexterity bonus to AC, she can't use this ability." """
    f = make_fight(
        [stat_block("rogue", "pc", hp=20, defensive_roll=True, uncanny_dodge=True)], [stat_block("ogre")], model=model
    )
    rogue, ogre = f.pcs[0], f.monsters[0]
    script = Script(f, [d20(19)] if rolls else [])
    deal(f, ogre, rogue, 10, SLASHING, weapon=True)  # 20 -> 10: no roll
    deal(f, ogre, rogue, 18, SLASHING, weapon=True)  # would drop her: Reflex DC 18, natural 19 + 2 saves: 9 taken
    assert script.used_up
    assert rogue.hp == (1 if rolls else -8)
    Script(f, [])
    deal(f, ogre, rogue, 4, SLASHING, weapon=True)  # once a day: no second roll
    assert rogue.hp == (-3 if rolls else -12)


def test_defensive_roll_needs_a_blow_and_the_dexterity_bonus():
    f = make_fight([stat_block("rogue", "pc", hp=20, defensive_roll=True)], [stat_block("ogre")])
    rogue, ogre = f.pcs[0], f.monsters[0]
    Script(f, [])  # no save is rolled
    deal(f, ogre, rogue, 12, frozenset({"fire"}))  # a spell, not a weapon
    assert rogue.hp == 8
    deal(f, ogre, rogue, 9, SLASHING, weapon=True)  # flat-footed without uncanny dodge: no roll
    assert rogue.hp == -1


# ------------------------------------------------------------------------------------------ the SRD's own
def test_the_importer_reads_uncanny_dodge_from_the_srd_blocks():
    """SRD ogre barbarian: "retains his Dex bonus to AC regardless of being caught flat-footed"; astral deva:
    "retains its Dexterity bonus to AC when flat-footed, and it cannot be flanked except by a rogue of at least
    16th level" (improved uncanny dodge of a 12th-level rogue)."""
    shipped = Path(__file__).resolve().parents[2] / "bestiary" / "srd"  # this checkout's (an editable install
    # elsewhere may map the package's bestiary to another checkout)
    barbarian = validate(load_yaml(shipped / "ogre-4th-level-barbarian.yaml"), Creature)
    deva = validate(load_yaml(shipped / "angel-astral-deva.yaml"), Creature)
    assert barbarian.uncanny_dodge and barbarian.improved_uncanny_dodge == 0
    assert deva.uncanny_dodge and deva.improved_uncanny_dodge == 12
    for creature in (barbarian, deva):
        (entry,) = [a for a in creature.special_abilities if a.key == "uncanny dodge"]
        assert entry.engine == "modelled"
