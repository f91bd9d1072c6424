"""Issue 24, findings 5, 7 and 9: a rider on every attack its text names (a ghoul's paralysis on its bite and its
claws, a tiger's grab on its claw and its bite), a score of 0 (helpless, and the shadow's Strength damage that
kills), and Weapon Finesse under lost Strength and Dexterity. Each fix is checked in force and undone
(``ModelOptions(undo=...)``), so that each test fails on the model before it."""

from __future__ import annotations

from fight_scripting import Script, beast, d20, make_fight, stat_block

from arena.combat.attacks import swing_at
from arena.combat.conditions import lose_ability
from arena.combat.model import ModelOptions
from arena.combat.template import Template
from arena.world.creatures import AbilityLoss
from arena.world.party import generate_party


def undo(*fixes: str) -> ModelOptions:
    return ModelOptions(undo=frozenset(fixes))


def hero(**extra):
    fields = dict(side="pc", hp=100, hit_dice="5d10", saves={"fort": 0, "ref": 0, "will": 0})
    fields.update(extra)
    return stat_block("hero", **fields)


GHOUL_PARALYSIS = {"attack": "bite", "also_on": ["claw"], "dc": 12, "duration": "1d4+1"}


# --------------------------------------------------------------------------------------------- 5: riders
def test_a_claw_hit_paralyzes_as_the_bite_does():
    """SRD 3.5 ghoul: "Those hit by a ghoul's bite or claw attack must succeed on a DC 12 Fortitude save or be
    paralyzed for 1d4+1 rounds"."""
    f = make_fight([hero()], [beast("ghoul", paralysis=GHOUL_PARALYSIS)])
    g, pc = f.monsters[0], f.pcs[0]
    g.acted = pc.acted = True
    claw = g.t.full[1]
    assert claw.name == "claw" and claw.rider
    script = Script(f, [d20(15), (3, 4), d20(2), (2, 4)])  # hit, 1d4+2 damage, Fort 2 fails, 1d4+1 rounds
    swing_at(f, g, pc, claw, 6)
    assert script.used_up and "paralyzed" in pc.conditions and not pc.is_able


def test_undone_the_claw_carries_no_paralysis():
    f = make_fight([hero()], [beast("ghoul", paralysis=GHOUL_PARALYSIS)], model=undo("rider-attacks"))
    g, pc = f.monsters[0], f.pcs[0]
    g.acted = pc.acted = True
    script = Script(f, [d20(15), (3, 4)])  # the hit and its damage: no save asked
    swing_at(f, g, pc, g.t.full[1], 6)
    assert script.used_up and "paralyzed" not in pc.conditions


def test_a_stat_block_that_names_one_attack_still_works():
    """A user's ``paralysis: {attack: bite, ...}`` is the bite alone, as before: the claws carry nothing."""
    t = Template(beast(paralysis={"attack": "bite", "dc": 12}), "beast")
    assert t.ability_data["paralysis"].also_on == ()
    assert [a.rider for a in t.full] == [True, False]


def test_a_grab_on_every_attack_its_text_names():
    """SRD 3.5 tiger: "To use this ability, a tiger must hit with a claw or bite attack. It can then attempt to
    start a grapple as a free action"."""
    for model, grabbed in ((ModelOptions(), True), (undo("rider-attacks"), False)):
        f = make_fight(
            [hero(size="medium")], [beast("tiger", improved_grab={"attack": "claw", "also_on": ["bite"]})], model=model
        )
        t, pc = f.monsters[0], f.pcs[0]
        t.acted = pc.acted = True
        bite = t.t.full[0]
        assert bite.name == "bite" and bite.rider
        Script(f, [d20(15), (4, 8)] + [d20(10), d20(10)] * grabbed)  # the hit; the grapple checks (12+10 vs 3+10)
        swing_at(f, t, pc, bite, 6)
        assert (t.grip is not None) is grabbed


# --------------------------------------------------------------------------------------------- 7: a score of 0
SHADOW_TOUCH = {"attack": "bite", "loss": {"dice": "1d6", "ability": "str"}}


def _drained(at_zero=None, model=None):
    harm = dict(SHADOW_TOUCH, at_zero=at_zero) if at_zero else SHADOW_TOUCH
    f = make_fight([hero(abilities={"str": 4})], [beast("shadow", ability_damage=harm)], model=model)
    s, pc = f.monsters[0], f.pcs[0]
    s.acted = pc.acted = True
    Script(f, [d20(15), (4, 8), (6, 6)])  # the hit, its damage, 6 Strength: 4 -> 0
    swing_at(f, s, pc, s.t.standard[0], 6)
    return f, pc


def test_strength_zero_is_helpless_for_the_fight_not_a_paralysis():
    """SRD 3.5 Strength: "A character with a Strength score of 0 falls to the ground and is helpless"."""
    f, pc = _drained()
    assert "helpless" in pc.conditions and "paralyzed" not in pc.conditions
    assert not pc.is_able and not pc.dead
    assert any("helpless for the rest of the fight" in line for line in f.lines)
    assert not any("166666666" in line for line in f.lines)


def test_the_shadow_kills_at_strength_zero():
    """SRD 3.5 shadow: "The touch of a shadow deals 1d6 points of Strength damage to a living foe. A creature reduced
    to Strength 0 by a shadow dies."""
    f, pc = _drained("dies")
    assert pc.dead and any("Str 0 by shadow" in line for line in f.lines)
    f, pc = _drained("dies", undo("strength-zero"))  # the old model: paralyzed for a billion seconds, alive
    assert not pc.dead and "paralyzed" in pc.conditions


# --------------------------------------------------------------------------------------------- 9: Weapon Finesse
RAPIER = {"name": "rapier", "bonuses": [9], "damage": "1d6", "damage_types": ["piercing"], "finesse": True}


def _rapier_bonus(loss: AbilityLoss, model: ModelOptions | None = None) -> int:
    """The rapier's attack modifier as the log prints it, after ``loss`` (Str 10, Dex 18: +9 with Dexterity)."""
    f = make_fight([hero(attack=RAPIER, abilities={"str": 10, "dex": 18})], [beast()], model=model)
    pc, b = f.pcs[0], f.monsters[0]
    pc.acted = b.acted = True
    lose_ability(f, pc, loss, None)
    Script(f, [d20(2)])  # a miss
    swing_at(f, pc, b, pc.t.standard[0], 9)
    line = next(line for line in reversed(f.lines) if " rapier " in line)
    return int(line.split(" rapier ")[1].split()[0])


def test_strength_damage_leaves_a_finesse_attack_alone():
    """SRD 3.5 Weapon Finesse: "With a light weapon, rapier, whip, or spiked chain made for a creature of your size
    category, you may use your Dexterity modifier instead of your Strength modifier on attack rolls"."""
    six_str = AbilityLoss(dice="6", ability="str")
    assert _rapier_bonus(six_str) == 9  # Str 4 (-3): the rapier uses Dex +4
    assert _rapier_bonus(six_str, undo("finesse-ability-damage")) == 6


def test_dexterity_damage_lowers_a_finesse_attack_down_to_strength():
    six_dex = AbilityLoss(dice="6", ability="dex")
    assert _rapier_bonus(six_dex) == 6  # Dex 12 (+1): 3 less
    assert _rapier_bonus(AbilityLoss(dice="14", ability="dex")) == 5  # Dex 4 (-3): Str 10 (+0) is better
    assert _rapier_bonus(six_dex, undo("finesse-ability-damage")) == 9


def test_strength_damage_still_lowers_a_finesse_attacks_damage():
    f = make_fight([hero(attack=RAPIER, abilities={"str": 10, "dex": 18})], [beast()])
    pc = f.pcs[0]
    lose_ability(f, pc, AbilityLoss(dice="6", ability="str"), None)
    assert pc.damage_bonus == -3 and pc.finesse_shift == 3


def test_the_generated_rogues_rapier_is_a_finesse_attack():
    rogue = next(c for c in generate_party(3) if c.name.startswith("rogue"))
    rapier = next(a for routine in rogue.attack for a in routine if a.name == "rapier")
    assert rapier.finesse
    assert not any(a.finesse for c in generate_party(3) if c.name.startswith("fighter") for r in c.attack for a in r)


def test_a_shadowed_rogue_keeps_her_rapier_bonus():
    """The issue's fight (``party: {level: 3}``, ``monsters: [shadow:2]``, seed 2): "rogue-3 rapier +4" after the
    shadows' Strength damage, where the SRD gives +9 (Dexterity, and bless)."""
    from arena.combat.engine import Fight, prepare
    from arena.rules import RuleSet
    from arena.world.bestiary import get_creature

    for model, unchanged in ((ModelOptions(), True), (undo("finesse-ability-damage"), False)):
        enc = prepare(generate_party(3), [(get_creature("shadow"), 2)], model=model)
        before, after = set(), set()
        for seed in range(12):
            f = Fight(enc, RuleSet.from_key("d20"), seed, log=True)
            f.run()
            lost = False
            for line in f.lines:
                lost = lost or ("rogue-3 loses" in line and "Str" in line)
                if "rogue-3 rapier " in line:
                    (after if lost else before).add(int(line.split("rogue-3 rapier ")[1].split()[0]))
        assert before and after
        assert (after <= before) is unchanged  # as before the touch (bless or not), or lower when undone
