# ruff: noqa: E501 (the SRD text is quoted as it is, long rows and all)
"""Pounce, ferocity, improved grab (with constrict), frightful presence and paralysis: the importer fills their
stat-block fields with the SRD's numbers, marks them modelled, and keeps them ignored (saying why) where the
engine's field cannot carry them or the numbers cannot be read."""

import json

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.srd.importer import import_text
from arena.world.srd_bestiary import srd_creature

GRABBER = """\
Grabber
Large Aberration
Hit Dice:\t6d8+18 (45 hp)
Initiative:\t+1
Speed:\t30 ft. (6 squares)
Armor Class:\t15 (-1 size, +1 Dex, +5 natural), touch 10, flat-footed 14
Base Attack/Grapple:\t+4/+13
Attack:\tTentacle +8 melee (1d6+5)
Full Attack:\tBite +8 melee (1d8+5) and 2 tentacles +3 melee (1d6+2) and sting +3 melee (paralysis)
Space/Reach:\t10 ft./10 ft.
Special Attacks:\tConstrict 1d6+7, improved grab, paralysis, frightful presence
Special Qualities:\tFerocity, pounce
Saves:\tFort +5, Ref +3, Will +6
Abilities:\tStr 20, Dex 13, Con 17, Int 6, Wis 12, Cha 14
Feats:\tAlertness, Iron Will, Multiattack
Challenge Rating:\t5

Improved Grab (Ex): To use this ability, a grabber must hit a Medium or smaller opponent with a tentacle attack. It can then attempt to start a grapple as a free action without provoking an attack of opportunity. If it wins the grapple check, it establishes a hold and can constrict.

Constrict (Ex): A grabber deals 1d6+7 points of damage with a successful grapple check.

Paralysis (Ex): Those hit by a grabber's bite attack must succeed on a DC 15 Fortitude save or be paralyzed for 1d4 minutes. The save DC is Constitution-based.

Frightful Presence (Ex): A grabber can unsettle foes. Those who fail a DC 15 Will save become panicked for 2d6 rounds.

Ferocity (Ex): A grabber continues to fight without penalty even while disabled or dying.

Pounce (Ex): If a grabber charges a foe, it can make a full attack.
"""


def _grabber(text: str = GRABBER):
    report = import_text(text, "grabber.txt")
    built = {b.name: b for b in report.built}["grabber"]
    return report, built, built.creature


def _ability(c, key):
    return next(a for a in c.special_abilities if a.key == key)


# --------------------------------------------------------------------------------------------- a block of one's own
def test_a_pasted_block_fills_every_field_with_its_numbers():
    report, built, c = _grabber()
    assert not report.errors
    assert c.pounce is True and c.ferocity is True
    assert (c.improved_grab.attack, c.improved_grab.constrict) == ("tentacle", "1d6+7")
    assert (c.frightful_presence.dc, c.frightful_presence.duration) == (15, "2d6")
    assert (c.paralysis.attack, c.paralysis.dc, c.paralysis.immune_types) == ("bite", 15, ())
    for key in ("pounce", "ferocity", "improved grab", "constrict", "frightful presence", "paralysis"):
        assert _ability(c, key).engine == "modelled", key
    assert c.modelled == "full"


def test_minutes_of_paralysis_are_their_average_in_rounds_and_say_so():
    _, built, c = _grabber()
    assert c.paralysis.duration == "25"  # 1d4 minutes: 2.5 x 10 rounds
    changed = [n for n in built.notes if n.kind == "changed" and n.message.startswith("paralysis:")]
    assert len(changed) == 1 and "average, 25 rounds" in changed[0].message
    assert "average, 25 rounds" in _ability(c, "paralysis").notes


def test_a_grab_whose_text_names_no_attack_takes_the_first_natural_attack_as_a_guess():
    text = GRABBER.replace("must hit a Medium or smaller opponent with a tentacle attack", "must hold on")
    _, built, c = _grabber(text)
    assert c.improved_grab.attack == "bite" and c.import_status == "guessed"
    assert any(
        n.kind == "guess" and n.message.startswith("improved grab:") and "the bite" in n.message for n in built.notes
    )


def test_unreadable_numbers_leave_the_ability_ignored_with_an_unread_note():
    text = GRABBER.replace("Those who fail a DC 15 Will save become", "Those who fail become")
    text = text.replace("must succeed on a DC 15 Fortitude save", "must succeed on a Fortitude save")
    report, built, c = _grabber(text)
    assert c.frightful_presence is None and c.paralysis is None
    assert _ability(c, "frightful presence").engine == "ignored" and _ability(c, "paralysis").engine == "ignored"
    unread = [n.message for n in built.notes if n.kind == "unread"]
    assert "frightful presence: no Will DC read: not modelled" in unread
    assert "paralysis: no Fortitude DC read: not modelled" in unread
    assert c.import_status == "unread" and len(report.errors) == 2


def test_an_attack_that_deals_no_damage_delivers_the_ability_as_a_harmless_attack():
    text = GRABBER.replace("Those hit by a grabber's bite attack", "Those hit by a grabber's sting attack")
    _, _, c = _grabber(text)  # "sting +3 melee (paralysis)": kept, harmless
    sting = next(a for a in c.full_attack[0] if a.name == "sting")
    assert sting.harmless and c.paralysis.attack == "sting" and _ability(c, "paralysis").engine == "modelled"


def test_constrict_without_improved_grab_stays_ignored():
    text = GRABBER.replace("Constrict 1d6+7, improved grab, ", "Constrict 1d6+7, ")
    _, _, c = _grabber(text)
    assert c.improved_grab is None and _ability(c, "constrict").engine == "ignored"


# --------------------------------------------------------------------------------------------- the shipped SRD
@pytest.mark.parametrize("name", ["dire-lion", "leopard", "lion", "tiger", "griffon", "deinonychus"])
def test_pounce(name):
    c = srd_creature(name)
    assert c.pounce is True and _ability(c, "pounce").engine == "modelled"


@pytest.mark.parametrize("name", ["boar", "dire-boar", "wereboar-boar-form", "wereboar-human-form"])
def test_ferocity(name):
    c = srd_creature(name)
    assert c.ferocity is True and _ability(c, "ferocity").engine == "modelled"


@pytest.mark.parametrize(
    ("name", "attack", "constrict"),
    [
        ("constrictor-snake-giant", "bite", "1d8+10"),  # "a constrictor snake must hit with its bite attack"
        ("snake", "bite", "1d3+4"),
        ("crocodile-giant", "bite", None),  # its bite routine is an alternative to its tail slap
        ("leopard", "bite", None),
        ("owlbear", "claw", None),
        ("choker", "tentacle", "1d3+3"),
        ("octopus-giant", "tentacle", "2d8+6"),  # "constrict" without dice: its description's 2d8+6
        ("giant-praying-mantis", "claws", None),  # "its claws attack": the block's Claws
        ("wyvern", "talon", None),  # "must hit with its talons"
        ("marilith", "tail slap", "4d6+13"),
        ("chuul", "claw", "3d6+5"),
        ("monstrous-scorpion-tiny", "claw", "1"),  # 1d2-4: the SRD's minimum of 1
    ],
)
def test_improved_grab_and_constrict(name, attack, constrict):
    c = srd_creature(name)
    assert (c.improved_grab.attack, c.improved_grab.constrict) == (attack, constrict)
    assert _ability(c, "improved grab").engine == "modelled"
    if constrict:
        assert _ability(c, "constrict").engine == "modelled"


def test_a_grab_the_text_gives_two_attacks_for_is_on_both_and_no_guess():
    """SRD 3.5 tiger: "To use this ability, a tiger must hit with a claw or bite attack" (issue 24, 5)."""
    tiger = srd_creature("tiger")
    assert (tiger.improved_grab.attack, tiger.improved_grab.also_on) == ("claw", ("bite",))
    assert tiger.import_status == "clean"
    assert not any(n.kind == "guess" and "claw or bite" in n.message for n in tiger.import_notes)
    pudding = srd_creature("black-pudding")  # constrict 2d6+4 plus 2d6 acid
    assert pudding.improved_grab.constrict == "2d6+4"
    assert any(n.kind == "guess" and "2d6 acid" in n.message for n in pudding.import_notes)


def test_a_grab_with_an_attack_that_deals_no_damage_is_a_harmless_attack():
    octopus = srd_creature("octopus")  # "Arms +5 melee (0)": no hit-point damage
    assert octopus.attack[0][0].harmless and octopus.improved_grab.attack == "arms"
    assert _ability(octopus, "improved grab").engine == "modelled"


def test_frightful_presence_of_the_dragons_from_young_adult_and_the_tarrasque():
    assert srd_creature("red-dragon-young").frightful_presence is None  # from young adult on (SRD)
    for name, dc in (
        ("red-dragon-young-adult", 21),
        ("red-dragon-adult", 24),
        ("red-dragon-old", 29),
        ("white-dragon-young-adult", 17),
        ("gold-dragon-great-wyrm", 41),
    ):
        fp = srd_creature(name).frightful_presence
        assert (fp.dc, fp.duration) == (dc, "4d6"), name
        assert _ability(srd_creature(name), "frightful presence").engine == "modelled"
    tarrasque = srd_creature("tarrasque")  # shaken as long as the foe stays within 60 feet
    assert (tarrasque.frightful_presence.dc, tarrasque.frightful_presence.duration) == (36, "100")
    assert any(n.kind == "guess" and n.message.startswith("frightful presence:") for n in tarrasque.import_notes)


def test_paralysis_of_the_ghoul_ghast_and_gelatinous_cube():
    ghoul, ghast = srd_creature("ghoul"), srd_creature("ghast")
    assert (ghoul.paralysis.attack, ghoul.paralysis.dc, ghoul.paralysis.duration) == ("bite", 12, "1d4+1")
    assert (ghast.paralysis.attack, ghast.paralysis.dc, ghast.paralysis.duration) == ("bite", 15, "1d4+1")
    assert ghoul.paralysis.immune_types == () and "elves' immunity left out" in _ability(ghoul, "paralysis").notes
    assert "elves" not in _ability(ghast, "paralysis").notes  # "even elves can be affected"
    # "Those hit by a ghoul's bite or claw attack ...": on both, read from the text, no guess (issue 24, 5)
    assert ghoul.paralysis.also_on == ghast.paralysis.also_on == ("claw",)
    assert not any(n.kind == "guess" and "bite or claw" in n.message for n in ghoul.import_notes)
    cube = srd_creature("gelatinous-cube")
    assert (cube.paralysis.attack, cube.paralysis.dc, cube.paralysis.duration) == ("slam", 20, "3d6")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("xill", "bite is not an attack of its routines"),
    ],
)
def test_paralysis_the_engine_cannot_carry_stays_ignored_and_says_why(name, words):
    c = srd_creature(name)
    para = _ability(c, "paralysis")
    assert c.paralysis is None and para.engine == "ignored" and words in para.notes and para.dc


def test_coverage_counts_them_as_modelled():
    result = CliRunner().invoke(app, ["bestiary", "coverage", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    ignored = data["by_ability"]
    for key in ("pounce", "ferocity", "constrict", "frightful presence"):
        assert key not in ignored, key
    assert "improved grab" not in ignored  # the octopus's and squid's arms too
    assert ignored["paralysis"]["creatures"] == 1  # the xill's (mohrg, chuul, tendriculos: on)
    assert data["band_full"] >= 157
