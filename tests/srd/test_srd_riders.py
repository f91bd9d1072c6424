# ruff: noqa: E501 (the SRD text is quoted as it is, long rows and all)
"""Issue 24, findings 5, 7 and 9, as the importer reads them: a rider on every attack its text names (no guess),
the shadow's "dies" at Strength 0 (and no more than the text says), and the attacks Weapon Finesse applies to."""

from arena.srd.importer import import_text
from arena.world.srd_bestiary import srd_creature

GHOUL = """\
Ghoul
Medium Undead
Hit Dice:\t2d12 (13 hp)
Initiative:\t+2
Speed:\t30 ft. (6 squares)
Armor Class:\t14 (+2 Dex, +2 natural), touch 12, flat-footed 12
Base Attack/Grapple:\t+1/+2
Attack:\tBite +2 melee (1d6+1 plus paralysis)
Full Attack:\tBite +2 melee (1d6+1 plus paralysis) and 2 claws +0 melee (1d3 plus paralysis)
Space/Reach:\t5 ft./5 ft.
Special Attacks:\tParalysis
Special Qualities:\tDarkvision 60 ft., undead traits
Saves:\tFort +0, Ref +2, Will +5
Abilities:\tStr 13, Dex 15, Con --, Int 13, Wis 14, Cha 12
Feats:\tMultiattack
Challenge Rating:\t1

Paralysis (Ex): Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save or be paralyzed for 1d4+1 rounds. The save DC is Charisma-based.
"""

SHADOW = """\
Shadow
Medium Undead (Incorporeal)
Hit Dice:\t3d12 (19 hp)
Initiative:\t+2
Speed:\tFly 40 ft. (good) (8 squares)
Armor Class:\t13 (+2 Dex, +1 deflection), touch 13, flat-footed 11
Base Attack/Grapple:\t+1/--
Attack:\tIncorporeal touch +3 melee (1d6 Str)
Full Attack:\tIncorporeal touch +3 melee (1d6 Str)
Space/Reach:\t5 ft./5 ft.
Special Attacks:\tStrength damage
Special Qualities:\tDarkvision 60 ft., incorporeal traits, undead traits
Saves:\tFort +1, Ref +3, Will +4
Abilities:\tStr --, Dex 14, Con --, Int 6, Wis 12, Cha 13
Feats:\tAlertness, Dodge
Challenge Rating:\t3

Strength Damage (Su): The touch of a shadow deals 1d6 points of Strength damage to a living foe. A creature reduced to Strength 0 by a shadow dies. This is a negative energy effect.
"""


def _one(text: str, name: str):
    report = import_text(text, f"{name}.txt")
    assert not report.errors
    return {b.name: b for b in report.built}[name].creature


def test_paralysis_on_the_bite_or_claw_the_text_names():
    """SRD 3.5 ghoul: "Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save"."""
    ghoul = _one(GHOUL, "ghoul")
    assert (ghoul.paralysis.attack, ghoul.paralysis.also_on) == ("bite", ("claw",))
    assert not [n for n in ghoul.import_notes if n.kind == "guess" and "paralysis" in n.message]
    one = _one(GHOUL.replace("bite or claw attack", "bite attack"), "ghoul")
    assert (one.paralysis.attack, one.paralysis.also_on) == ("bite", ())


def test_the_shadow_kills_at_strength_zero_and_only_where_the_text_says():
    """SRD 3.5 shadow: "A creature reduced to Strength 0 by a shadow dies"; the greater shadow's paragraph says
    only "The touch of a greater shadow deals 1d8 points of Strength damage to a living foe"."""
    assert _one(SHADOW, "shadow").ability_damage.at_zero == "dies"
    plain = SHADOW.replace(" A creature reduced to Strength 0 by a shadow dies.", "")
    assert _one(plain, "shadow").ability_damage.at_zero is None
    assert srd_creature("shadow").ability_damage.at_zero == "dies"
    assert srd_creature("greater-shadow").ability_damage.at_zero is None


def test_weapon_finesse_marks_natural_weapons_and_light_weapons():
    """SRD 3.5 Weapon Finesse: "With a light weapon, rapier, whip, or spiked chain ... you may use your Dexterity
    modifier instead of your Strength modifier on attack rolls"; natural weapons are light weapons."""
    rat = srd_creature("dire-rat")  # Feats: Alertness, Weapon Finesse; Bite +4 melee
    assert rat.attack[0][0].finesse
    ghoul = _one(GHOUL, "ghoul")  # no Weapon Finesse
    assert not any(a.finesse for r in ghoul.full_attack for a in r)
    shadow = _one(SHADOW, "shadow")  # a touch: not a weapon
    assert not any(a.finesse for r in shadow.attack for a in r)
    finesse = _one(GHOUL.replace("Feats:\tMultiattack", "Feats:\tMultiattack, Weapon Finesse"), "ghoul")
    assert all(a.finesse for r in finesse.full_attack for a in r)


def test_the_nine_one_attack_guesses_are_read_from_the_text():
    """The shipped bestiary: the creatures whose rider the importer put on one of the attacks its text names."""
    expected = {
        "ghoul": ("paralysis", "bite", ("claw",)),
        "ghast": ("paralysis", "bite", ("claw",)),
        "tiger": ("improved_grab", "claw", ("bite",)),
        "weretiger-tiger-form": ("improved_grab", "claw", ("bite",)),
        "kraken": ("improved_grab", "tentacle", ("arm",)),
        "juvenile-tojanida": ("improved_grab", "bite", ("claw",)),
        "adult-tojanida": ("improved_grab", "bite", ("claw",)),
        "elder-tojanida": ("improved_grab", "bite", ("claw",)),
        "tendriculos": ("improved_grab", "bite", ("tendril",)),
    }
    for name, (field, attack, also) in expected.items():
        c = srd_creature(name)
        rider = getattr(c, field)
        assert (rider.attack, rider.also_on) == (attack, also), name
        assert not [n for n in c.import_notes if "one attack" in n.message], name
