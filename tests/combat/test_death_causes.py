"""Every PC death gets a cause (``Combatant.death_cause``; the record's ``pc_deaths_<cause>`` columns), and PCs
alive but out of the fight for good are counted by what holds them (``pc_removed_<what>``)."""

from __future__ import annotations

from fight_scripting import make_fight, stat_block

from arena.combat.attacks import coup_de_grace
from arena.combat.conditions import FOREVER, add_condition, drain_levels
from arena.combat.record import DEATH_FIELDS, REMOVED_FIELDS, record_schema
from arena.combat.states import DEATH_CAUSES, DEATH_COUP_DE_GRACE, DEATH_DAMAGE, DEATH_DRAIN, DEATH_MASSIVE

POOR_FORT = {"fort": 0, "ref": 0, "will": 0}


def hero(hp: int) -> object:
    return stat_block("hero", side="pc", hp=hp, saves=POOR_FORT)


def brute(damage: str, bonus: int = 40) -> object:
    attack = {"name": "maul", "bonuses": [bonus], "damage": damage, "damage_types": ["bludgeoning"]}
    return stat_block("brute", hp=2000, ac=40, attack=attack)


def deaths(record) -> dict[str, int]:
    return {name: getattr(record, name) for name in DEATH_FIELDS}


def test_columns_are_in_the_record_and_name_the_causes():
    assert tuple(f"pc_deaths_{c}" for c in DEATH_CAUSES) == DEATH_FIELDS
    assert set(DEATH_FIELDS) | set(REMOVED_FIELDS) <= set(record_schema())


def test_ordinary_damage_death():
    """25 points (under the 50 of massive damage) take a 10-hp PC to -15: dead by ordinary damage."""
    for seed in range(5):
        r = make_fight([hero(10)], [brute("1d1+24")], seed=seed).run().record
        assert r.pcs_dead == 1 and deaths(r) == {**dict.fromkeys(DEATH_FIELDS, 0), "pc_deaths_damage": 1}


def test_massive_damage_death():
    """SRD: "If you ever sustain a single attack that deals 50 points of damage or more and it doesn't kill you
    outright, you must make a DC 15 Fortitude save. If this saving throw fails, you die regardless of your current
    hit points." 60 points leave an 80-hp PC on 20 hp: with Fort +0 it dies in about 70% of the fights."""
    massive = survived = 0
    for seed in range(12):
        f = make_fight([hero(80)], [brute("1d1+59")], seed=seed)
        r = f.run().record
        pc = f.pcs[0]
        assert sum(deaths(r).values()) == r.pcs_dead
        if pc.dead:
            assert pc.death_cause in (DEATH_MASSIVE, DEATH_DAMAGE)
            if pc.death_cause == DEATH_MASSIVE:
                massive += 1
                assert r.pc_deaths_massive == 1 and r.pc_deaths_damage == 0
                assert any("massive" in line.lower() or "fort" in line.lower() for line in f.lines)
        else:
            survived += 1
    assert massive >= 3


def test_coup_de_grace_deaths_by_the_blow_and_by_the_save():
    """A coup de grace kills by its blow (a 70-point blow on a 30-hp PC) or by the failed DC 10 + damage
    Fortitude save (a 6-point blow): both are deaths by coup de grace, never by ordinary or massive damage."""
    f = make_fight([hero(30)], [brute("1d1+69")], seed=1)
    pc, m = f.pcs[0], f.monsters[0]
    add_condition(f, pc, "held", 60.0, dc=30)
    coup_de_grace(f, m, pc)
    assert pc.dead and pc.death_cause == DEATH_COUP_DE_GRACE
    f._finish()
    assert f.record.pc_deaths_cdg == 1 and f.record.pc_deaths_massive == f.record.pc_deaths_damage == 0
    by_save = 0
    for seed in range(12):
        f = make_fight([hero(30)], [brute("1d1+5")], seed=seed)
        pc, m = f.pcs[0], f.monsters[0]
        add_condition(f, pc, "held", 60.0, dc=30)
        coup_de_grace(f, m, pc)
        if pc.dead:
            by_save += 1
            assert pc.death_cause == DEATH_COUP_DE_GRACE
    assert by_save >= 3  # Fort +0 against DC 16 (a 6-point blow, doubled by the automatic critical: DC 22)


def test_energy_drain_death_and_a_petrified_pc():
    f = make_fight([hero(30), stat_block("statue", side="pc", hp=30)], [brute("1d1+5")], seed=0)
    pc, statue = f.pcs
    drain_levels(f, pc, 10)  # as many negative levels as Hit Dice (3): dead
    assert pc.dead and pc.death_cause == DEATH_DRAIN
    add_condition(f, statue, "petrified", FOREVER)
    f._finish()
    r = f.record
    assert r.pcs_dead == 1 and r.pc_deaths_drain == 1
    assert r.pc_removed_petrified == 1 and r.pc_removed_swallowed == r.pc_removed_condition == 0
