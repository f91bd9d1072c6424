"""Poison, ability damage and drain, energy drain, rake, rage, burn, heat, gazes, swallow whole, web and the
non-damaging breath weapons: the importer fills their stat-block fields with the SRD's numbers (from the text, or
the family's table by size), marks them modelled, and keeps them ignored (saying why) where the engine's field
cannot carry them."""

import pytest

from arena.world.srd_bestiary import srd_creature


def _ability(c, key):
    return next(a for a in c.special_abilities if a.key == key)


# --------------------------------------------------------------------------------------------- poison
@pytest.mark.parametrize(
    ("name", "attack", "dc", "initial", "secondary"),
    [
        ("wyvern", "sting", 17, ("2d6", "con"), ("2d6", "con")),  # initial and secondary damage 2d6 Con
        ("imp", "sting", 13, ("1d4", "dex"), ("2d4", "dex")),  # initial damage 1d4 Dex, secondary 2d4 Dex
        ("giant-bee", "sting", 11, ("1d4", "con"), ("1d4", "con")),
        ("ettercap", "bite", 15, ("1d6", "dex"), ("2d6", "dex")),
        ("monstrous-spider-medium", "bite", 12, ("1d4", "str"), ("1d4", "str")),  # the Medium row of the table
        ("monstrous-spider-colossal", "bite", 28, ("2d8", "str"), ("2d8", "str")),
        ("monstrous-scorpion-tiny", "sting", 12, ("1", "con"), ("1", "con")),  # "1 Con": a constant
        ("monstrous-centipede-huge", "bite", 14, ("1d6", "dex"), ("1d6", "dex")),  # its table is above the text
        ("snake-huge-viper", "bite", 14, ("1d6", "con"), ("1d6", "con")),  # DC by size, damage in the text
    ],
)
def test_poison(name, attack, dc, initial, secondary):
    c = srd_creature(name)
    p = c.poison
    assert (p.attack, p.dc, p.save) == (attack, dc, "fort")
    assert (p.initial.dice, p.initial.ability) == initial and (p.secondary.dice, p.secondary.ability) == secondary
    assert _ability(c, "poison").engine == "modelled"


def test_a_poison_of_two_abilities_keeps_the_first_and_says_so():
    fungus = srd_creature("violet-fungus")  # 1d4 Str and 1d4 Con
    assert (fungus.poison.initial.dice, fungus.poison.initial.ability) == ("1d4", "str")
    assert any(n.kind == "guess" and "1d4 Con" in n.message for n in fungus.import_notes)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("spider-eater", "paralysis"),
        ("pit-fiend", "death"),
        ("derro", "poison use"),
        ("spider-swarm", "swarm deals no hit-point damage"),
    ],
)
def test_poisons_that_are_not_ability_damage_on_a_hit_stay_ignored(name, words):
    c = srd_creature(name)
    assert c.poison is None and _ability(c, "poison").engine == "ignored" and words in _ability(c, "poison").notes


# --------------------------------------------------------------------------------------------- drain
def test_ability_drain_and_energy_drain_on_a_hit():
    wraith = srd_creature("wraith")
    d = wraith.ability_damage
    assert (d.attack, d.loss.dice, d.loss.ability, d.loss.drain, d.dc, d.save) == (
        "incorporeal touch",
        "1d6",
        "con",
        True,
        14,
        "fort",
    )
    assert srd_creature("dread-wraith").ability_damage.dc == 25
    for name, attack, levels in (
        ("wight", "slam", 1),
        ("vampire-spawn", "slam", 1),
        ("spectre", "incorporeal touch", 2),
        ("devourer", "claw", 1),
    ):
        c = srd_creature(name)
        assert (c.energy_drain.attack, c.energy_drain.levels) == (attack, levels), name
        assert _ability(c, "energy drain").engine == "modelled"


@pytest.mark.parametrize(
    ("name", "key", "words"),
    [
        ("succubus", "energy drain", "kiss"),
        ("nightcrawler", "energy drain", "swallowed"),
    ],
)
def test_drains_the_engine_cannot_carry_stay_ignored(name, key, words):
    c = srd_creature(name)
    assert _ability(c, key).engine == "ignored" and words in _ability(c, key).notes


# --------------------------------------------------------------------------------------------- rake, rage
@pytest.mark.parametrize(
    ("name", "bonus", "count", "damage"),
    [
        ("lion", 7, 2, "1d4+2"),
        ("tiger", 9, 2, "1d8+3"),
        ("dire-tiger", 18, 2, "2d4+4"),
        ("behir", 15, 6, "1d4+4"),
        ("androsphinx", 18, 2, "2d4+3"),
    ],
)
def test_rake(name, bonus, count, damage):
    c = srd_creature(name)
    r = c.rake
    assert (r.name, r.bonuses, r.count, r.damage, r.damage_types) == ("rake", (bonus,), count, damage, ("slashing",))
    assert _ability(c, "rake").engine == "modelled"


def test_a_rake_whose_entry_and_text_disagree_keeps_the_text_and_lists_the_discrepancy():
    protector = srd_creature("golden-protector")  # rake 1d6+4; "damage 1d6+3"
    assert protector.rake.damage == "1d6+3"
    assert any(n.kind == "discrepancy" and n.message.startswith("rake:") for n in protector.import_notes)


def test_rakes_only_while_swimming_stay_ignored():
    for name in ("sahuagin", "skum"):
        c = srd_creature(name)
        assert c.rake is None and "swims" in _ability(c, "rake").notes


def test_rage():
    for name in ("badger", "wolverine", "dire-badger", "dire-wolverine", "bearded-devil"):
        c = srd_creature(name)
        assert c.rage is True and _ability(c, "rage").engine == "modelled", name
    assert any(n.kind == "guess" and n.message.startswith("rage:") for n in srd_creature("bearded-devil").import_notes)
    sahuagin = srd_creature("sahuagin")  # blood frenzy: +2 Str, +2 Con
    assert (sahuagin.rage, sahuagin.rage_strength) == (True, 2) and _ability(sahuagin, "rage").engine == "modelled"


# --------------------------------------------------------------------------------------------- fire
@pytest.mark.parametrize(
    ("name", "dc", "damage"),
    [
        ("elemental-fire-small", 11, "1d4"),
        ("elemental-fire-large", 17, "2d6"),
        ("elemental-fire-elder", 26, "2d8"),
        ("thoqqua", 12, "2d6"),
    ],
)
def test_burn(name, dc, damage):
    c = srd_creature(name)
    assert (c.burn.attack, c.burn.dc, c.burn.damage, c.burn.rounds) == ("slam", dc, damage, "1d4")
    assert _ability(c, "burn").engine == "modelled"


def test_heat_rides_on_the_attacks_except_the_remorhaz_s():
    for name in ("azer", "efreeti", "thoqqua", "average-salamander"):
        assert _ability(srd_creature(name), "heat").engine == "modelled", name
    assert _ability(srd_creature("remorhaz"), "heat").engine == "ignored"


# --------------------------------------------------------------------------------------------- gaze, swallow, web
@pytest.mark.parametrize(
    ("name", "effect", "save", "dc", "rounds"),
    [
        ("medusa", "petrify", "fort", 15, None),
        ("basilisk", "petrify", "fort", 13, None),
        ("abyssal-greater-basilisk", "petrify", "fort", 21, None),  # its own DC, not the shared text's 13
        ("bodak", "death", "fort", 15, None),
        ("rast", "paralysis", "fort", 13, "1d6"),
    ],
)
def test_gaze(name, effect, save, dc, rounds):
    g = srd_creature(name).gaze
    assert (g.effect, g.save, g.dc) == (effect, save, dc)
    if rounds:
        assert g.rounds == rounds


@pytest.mark.parametrize(
    ("name", "field", "effect"),
    [
        ("nymph", "glance", "stun"),
        ("sea-hag", "glance", "daze"),
        ("chain-devil", "gaze", "unnerve"),
        ("spirit-naga", "gaze", "charm"),
    ],
)
def test_gazes_of_other_effects_and_looks_at_one_foe(name, field, effect):
    c = srd_creature(name)
    assert getattr(c, field).effect == effect and _ability(c, "gaze").engine == "modelled"


def test_swallow_whole():
    for name, damage in (
        ("tyrannosaurus", "2d8+8"),
        ("behir", "2d8+8"),
        ("purple-worm", "2d8+12"),
        ("dire-shark", "2d6+6"),
    ):
        c = srd_creature(name)
        assert c.improved_grab is not None and c.swallow_whole.damage == damage, name
        assert c.swallow_whole.damage_types == ("bludgeoning",)
    assert srd_creature("tendriculos").swallow_whole.damage_types == ("acid",)


@pytest.mark.parametrize(
    ("name", "dc", "uses", "escape_dc"),
    [
        ("monstrous-spider-small", 14, 8, 10),
        ("monstrous-spider-huge", 20, 8, 16),
        ("ettercap", 17, 8, 13),
        ("aranea", 17, 6, 13),
        ("bebilith", 24, 4, 24),
    ],
)
def test_web(name, dc, uses, escape_dc):
    """SRD Monstrous Spider's table by size ("Escape Artist DC", "Break DC"), the ettercap's and aranea's "escape
    with a DC 13 Escape Artist check or burst the web with a DC 17 Strength check", the bebilith's DC 24 and 24."""
    c = srd_creature(name)
    assert (c.web.burst_dc, c.web.uses, c.web.escape_dc) == (dc, uses, escape_dc)
    assert _ability(c, "web").engine == "modelled"


# --------------------------------------------------------------------------------------------- breath effects
@pytest.mark.parametrize(
    ("name", "effect", "shape", "length", "save", "dc", "rounds"),
    [
        ("brass-dragon-wyrmling", "sleep", "cone", 15, "will", 13, "1d6+1"),
        ("silver-dragon-adult", "paralysis", "cone", 50, "fort", 26, "1d6+6"),
        ("copper-dragon-young", "slow", "cone", 30, "fort", 17, "1d6+3"),
    ],
)
def test_breath_effects_by_age(name, effect, shape, length, save, dc, rounds):
    c = srd_creature(name)
    b = c.breath_effect
    assert (b.effect, b.shape, b.length_ft, b.save, b.dc, b.rounds) == (effect, shape, length, save, dc, rounds)
    assert c.breath_weapon is not None  # it alternates with the damaging one
    assert _ability(c, "breath weapon (non-damage)").engine == "modelled"


def test_weakening_gas_is_strength_damage_per_age_category():
    b = srd_creature("gold-dragon-young-adult").breath_effect  # young adult: category 5
    assert (b.effect, b.dc, b.loss.dice, b.loss.ability) == ("weakness", 25, "5", "str")


def test_repulsion_is_a_breath_effect():
    c = srd_creature("bronze-dragon-young")  # 1d6 rounds plus 1 round per age category (young: 3)
    assert (c.breath_effect.effect, c.breath_effect.save, c.breath_effect.rounds) == ("repulsion", "will", "1d6+3")
    assert _ability(c, "breath weapon (non-damage)").engine == "modelled"


# --------------------------------------------------------------------------------------------- stench, trample
@pytest.mark.parametrize(
    ("name", "dc", "rounds"),
    [
        ("troglodyte", 13, "10"),  # DC 13 Fortitude save or be sickened for 10 rounds
        ("ghast", 15, "75"),  # sickened for 1d6+4 minutes: their average, 7.5 minutes
    ],
)
def test_stench(name, dc, rounds):
    c = srd_creature(name)
    assert (c.stench.dc, c.stench.rounds) == (dc, rounds)
    assert _ability(c, "stench").engine == "modelled"


def test_the_ghast_s_stench_in_minutes_is_their_average_and_says_so():
    ghast = srd_creature("ghast")
    assert any(n.kind == "changed" and "1d6+4 minutes" in n.message for n in ghast.import_notes)


def test_a_stench_that_nauseates():
    hezrou = srd_creature("hezrou")  # DC 24 Fortitude save or be nauseated
    assert (hezrou.stench.dc, hezrou.stench.nauseates) == (24, True)
    assert _ability(hezrou, "stench").engine == "modelled" and "nauseated" in _ability(hezrou, "stench").notes


@pytest.mark.parametrize(
    ("name", "damage", "dc"),
    [
        ("elephant", "2d8+15", 25),  # Trample 2d8+15; Trample (Ex): Reflex half DC 25
        ("triceratops", "2d12+15", 28),
        ("giant-stag-beetle", "2d8+3", 19),
        ("gorgon", "1d8+7", 19),  # Reflex DC 19 half
        ("treant", "2d6+13", 22),
    ],
)
def test_trample(name, damage, dc):
    c = srd_creature(name)
    assert (c.trample.damage, c.trample.dc, c.trample.damage_types) == (damage, dc, ("bludgeoning",))
    assert _ability(c, "trample").engine == "modelled"


# --------------------------------------------------------------------------------------------- powerful charge
@pytest.mark.parametrize(
    ("name", "bonus", "damage"),
    [
        ("minotaur", 9, "4d6+6"),  # a single gore attack with a +9 attack bonus that deals 4d6+6
        ("triceratops", 20, "4d8+20"),  # its gore attack deals 4d8+20: at the gore's +20
        ("rhinoceros", 13, "4d6+24"),  # names no attack: its standard attack, the gore +13
    ],
)
def test_powerful_charge(name, bonus, damage):
    c = srd_creature(name)
    charge = c.powerful_charge
    assert (charge.name, charge.bonuses, charge.damage, charge.damage_types) == (
        "gore",
        (bonus,),
        damage,
        ("piercing",),
    )
    assert _ability(c, "powerful charge").engine == "modelled"


# --------------------------------------------------------------------------------------------- incorporeal
@pytest.mark.parametrize("name", ["allip", "shadow", "greater-shadow", "wraith", "dread-wraith", "spectre"])
def test_incorporeal(name):
    c = srd_creature(name)
    assert c.incorporeal and "incorporeal" in c.subtypes
    assert _ability(c, "incorporeal").engine == "modelled"


def test_corporeal_creatures_are_not_incorporeal():
    assert not any(srd_creature(n).incorporeal for n in ("troll", "ghast", "wight", "ravid"))
    assert srd_creature("troll").stench is None and srd_creature("troll").trample is None


def test_the_newly_modelled_make_these_creatures_fully_modelled():
    for name in ("troglodyte", "ghast", "elephant", "triceratops", "minotaur", "rhinoceros", "wraith", "spectre"):
        assert srd_creature(name).modelled == "full", name
