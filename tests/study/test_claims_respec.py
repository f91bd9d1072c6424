"""The re-specified claims of issue 26 on synthetic rows with a known answer: the favourite by per-roll odds and its
regression over every matchup, the fair fights that can discriminate, the lucky shots' premise and thresholds, the
descriptive called shots; and the record's new long-shot counters (wider thresholds, failed saves)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from arena.combat.record import SideTally, count_long_shot, count_long_shot_save
from arena.study.claims import measures as m
from arena.study.claims import statements
from arena.study.claims.design import Arm

LONG_SHOT_COLUMNS = [
    f"{prefix}_{what}_monsters"
    for prefix in ("long_shot", "long_shot35", "long_shot45")
    for what in ("hits", "damage", "saves")
]


def frame(n: int, party_wins: int, *, hits=(1, 1), attacks=(2, 2), **columns: float) -> pd.DataFrame:
    """``n`` fights of which the party wins the first ``party_wins``; per fight the party's and the monsters' hits
    and attack rolls, and any other column as a constant."""
    rows = {
        "winner": ["party"] * party_wins + ["monsters"] * (n - party_wins),
        "party_hp_lost": [0.1] * n,
        "hits_party": [hits[0]] * n,
        "attacks_party": [attacks[0]] * n,
        "hits_monsters": [hits[1]] * n,
        "attacks_monsters": [attacks[1]] * n,
        "pcs_dead": [0] * n,
        "pcs_down": [0] * n,
        "downs_monsters": [0] * n,
        "lucky_hits_monsters": [0] * n,
        "damage_monsters": [0] * n,
    }
    for c in LONG_SHOT_COLUMNS:
        rows[c] = [0] * n
    rows.update({k: [v] * n for k, v in columns.items()})
    return pd.DataFrame(rows)


def data(units: list, frames: dict[Arm, list[pd.DataFrame]]) -> m.Data:
    return m.Data(units, {arm.name: fs for arm, fs in frames.items()})


def cell(level: int = 5, cr: int = 5, size: int = 1) -> tuple[int, Fraction, int]:
    return (level, Fraction(cr), size)


# ------------------------------------------------------------------ the favourite by per-roll odds


def test_per_roll_advantage_is_the_difference_of_the_hit_shares_on_a_natural_10():
    f10 = frame(4, 4, hits=(3, 1), attacks=(4, 4))  # the party's rolls need 10 or less 75% of the time, theirs 25%
    assert m.per_roll_advantage(f10) == pytest.approx(50.0)
    assert math.isnan(m.per_roll_advantage(frame(4, 4, attacks=(4, 0), hits=(1, 0))))


def test_the_favourite_is_chosen_per_roll_and_every_matchup_enters_the_regression():
    """Four matchups (20 fights each): the per-roll favourite gains 10, 0, 5 points and one matchup has none.
    Gains 10 / 0 / 5 at advantages 40 / 20 / 30: the intercept is their mean (5), the slope exactly 0.5 points of
    gain per point of advantage; a saturated matchup (the party wins every fight under both dice) enters with 0."""
    n = 20
    units = [(cell(5, 5, 1), "typical-cr5"), (cell(5, 7, 1), "typical-cr7"), (cell(5, 3, 2), "typical-cr3")]
    units.append((cell(5, 5, 2), "typical-cr5"))
    f10 = [
        frame(n, n, hits=(7, 3), attacks=(10, 10)),  # party favourite, +40
        frame(n, n, hits=(6, 4), attacks=(10, 10)),  # party favourite, +20
        frame(n, 0, hits=(2, 5), attacks=(10, 10)),  # monsters favourite, +30
        frame(n, n, hits=(5, 5), attacks=(10, 10)),  # no favourite: left out and counted
    ]
    d20 = [frame(n, 10), frame(n, n), frame(n, 10), frame(n, 10)]
    b36 = [frame(n, 12), frame(n, n), frame(n, 9), frame(n, 10)]  # +10, saturated 0, monsters +5
    parts, extra = m.favourite_gain(data(units, {m.F10: f10, m.D20: d20, m.B36: b36}), 1)
    (part,) = parts
    assert part.effect.estimate == pytest.approx(5.0) and part.effect.units == 3 and part.effect.fights == 3 * n
    assert part.margin == 2.0 and part.direction == 1 and part.has_direction_test
    assert extra["matchups judged / without a per-roll favourite"] == "3 / 1"
    assert extra["slope: gain per point of per-roll advantage (OLS, errors clustered by matchup)"].startswith("+0.5 ")
    table = extra["per matchup"]
    assert table["favourite (per roll, fixed10)"].tolist() == ["party", "party", "monsters"]
    assert table["advantage (pts per roll)"].tolist() == pytest.approx([40, 20, 30])
    assert extra["matchups won 100% or 0% by the party under both dice"] == "1/3"
    by = extra["by favourite"]
    stated = by[by["definition"].str.startswith("per roll")].set_index("favourite")
    assert stated.loc["party", "matchups"] == 2 and stated.loc["party", "favourite's gain, mean (pts)"] == 5.0
    assert stated.loc["monsters", "favourite's gain, mean (pts)"] == 5.0


def test_the_regression_interval_counts_matchups_not_fights():
    """The same per-matchup gains with ten times the fights: the same estimate and (clustered) interval width
    up to the small-sample factor, not a tenfold narrower one as fights-as-units would give."""
    units = [(cell(5, c, 1), f"typical-cr{c}") for c in (3, 5, 7, 9)]

    def run(n: int) -> m.Part:
        f10 = [frame(n, n, hits=(h, 2), attacks=(10, 10)) for h in (4, 5, 6, 7)]
        d20 = [frame(n, n // 2) for _ in units]
        b36 = [frame(n, n // 2 + k * n // 10) for k in (0, 2, 1, 3)]
        return m.favourite_gain(data(units, {m.F10: f10, m.D20: d20, m.B36: b36}), 1)[0][0]

    small, big = run(20), run(200)
    assert small.effect.estimate == pytest.approx(big.effect.estimate) == pytest.approx(15.0)
    assert small.effect.units == big.effect.units == 4
    width = small.effect.high - small.effect.low
    assert (big.effect.high - big.effect.low) == pytest.approx(width, rel=0.1)


def test_the_static_per_roll_odds_come_from_the_exact_checks():
    from arena.rules import Check, RuleSet, exact
    from arena.study.claims.per_roll import first_attack_bonus, per_roll_odds
    from arena.world.bestiary import get_creature
    from arena.world.party import generate_party

    ours, theirs = per_roll_odds(5, "typical-cr5")
    foe = get_creature("typical-cr5")
    party = generate_party(5, "d20", domain_spells="standard")
    expected = sum(
        float(exact(Check("attack", "pc", first_attack_bonus(pc), foe.ac), RuleSet()).probabilities["success"])
        for pc in party
    ) / len(party)
    assert ours == pytest.approx(expected) and 0 < theirs < 1


# ------------------------------------------------------------------ everyone rolls a 10, part 2


def closer_data(fair_wins: list[tuple[int, int, int]], n: int = 10) -> m.Data:
    """Fair matchups (one monster of the party's level, EL = L) with the party winning (fixed10, 3d6, d20) fights."""
    units = [(cell(lv, lv, 1), f"typical-cr{lv}") for lv in (3, 5, 8)[: len(fair_wins)]]
    frames = {arm: [frame(n, wins[k]) for wins in fair_wins] for k, arm in enumerate((m.F10, m.B36, m.D20))}
    return data(units, frames)


def test_part_2_is_not_judged_where_every_fair_matchup_is_won_by_every_arm():
    parts, extra = m.closer_to_ten(closer_data([(10, 10, 10), (10, 10, 10)]), 1)
    assert [p.name for p in parts] == ["|hp lost 3d6 - fixed10| - |hp lost d20 - fixed10| (points)"]
    note = extra["part 2, fair matchups (EL = L) that can discriminate"]
    assert note.startswith("0 of 2") and "not discriminating" in note


def test_part_2_is_judged_on_the_fair_matchups_some_arm_can_lose():
    parts, extra = m.closer_to_ten(closer_data([(10, 10, 10), (10, 7, 10), (9, 10, 10)]), 1)
    fair = next(p for p in parts if p.name == m.FAIR_PART)
    assert fair.effect.units == 2 and fair.effect.estimate == pytest.approx(5.0)  # (100 - 90 + 90 - 90) / 2
    assert extra["part 2, fair matchups (EL = L) that can discriminate"].startswith("2 of 3")


# ------------------------------------------------------------------ lucky shots


def test_lucky_shots_count_failed_saves_test_the_premise_and_keep_the_lone_monster_apart():
    n = 10
    units = [(cell(5, 1, 4), "typical-cr1"), (cell(8, 4, 6), "typical-cr4"), (cell(8, 4, 8), "typical-cr4")]
    units.append((cell(5, 5, 1), "typical-cr5"))  # the lone comparison: out of the stated parts

    def arm(shots: float, saves: float, dmg: float, total: float, lone_total: float) -> list[pd.DataFrame]:
        group = {
            "long_shot_hits_monsters": shots,
            "long_shot_saves_monsters": saves,
            "long_shot_damage_monsters": dmg,
            "long_shot35_hits_monsters": 2 * shots,
            "long_shot35_damage_monsters": 2 * dmg,
            "long_shot45_hits_monsters": 4 * shots,
            "long_shot45_damage_monsters": 4 * dmg,
            "damage_monsters": total,
        }
        lone = {**group, "damage_monsters": lone_total, "long_shot_damage_monsters": 0}
        return [frame(n, n, **group) for _ in range(3)] + [frame(n, n, **lone)]

    d = data(units, {m.D20: arm(1, 1, 5, 20, 40), m.B36: arm(0.5, 0, 1, 15, 30)})
    parts, extra = m.long_shots(d, 3)
    shots, dmg, premise = parts
    assert shots.effect.estimate == pytest.approx(0.25) and shots.effect.units == 3  # (0.5 + 0) / (1 + 1)
    assert dmg.effect.estimate == pytest.approx(0.2)
    assert premise.effect.estimate == pytest.approx(0.25) and premise.margin == m.HEAVY_SHARE
    assert premise.units == "share" and not premise.has_direction_test
    table = extra["long shots at each threshold (low-CR groups)"]
    assert table["share of damage, d20 %"].tolist() == pytest.approx([25, 50, 100])
    assert table["failed saves per fight, d20"].tolist() == pytest.approx([1, 0, 0])
    lone = extra["low-CR groups against a lone monster (3d6 / d20, ratios of matchup means)"].set_index("matchups")
    assert lone.loc["low-CR groups (4, 6, 8)", "monster damage 3d6 / d20"] == pytest.approx(0.75)
    assert lone.loc["lone monster", "monster damage 3d6 / d20"] == pytest.approx(0.75)
    assert lone.loc["lone monster", "n"] == 1


def test_the_lucky_claim_fights_the_low_groups_and_one_lone_monster_a_level():
    from arena.study.claims import design

    cells = statements.lucky_cells()
    assert cells[: len(design.low_cells())] == design.low_cells()
    lone = [c for c in cells if c[2] == 1]
    assert lone == [(lv, Fraction(lv), 1) for lv in design.LEVELS]


# ------------------------------------------------------------------ called shots: descriptive


def test_called_shots_are_descriptive_with_no_test():
    n = 10
    units = [(cell(5, 5, 1), "typical-cr5"), (cell(8, 8, 1), "typical-cr8")]
    frames = {
        a: [frame(n, 5 + k, called_shots_party=2, called_hits_party=1) for k in (0, 1)]
        for a in (m.CN20, m.CH20, m.CN36, m.CH36)
    }
    parts, extra = m.called_gain(data(units, frames), 1)
    assert len(parts) == 4 and all(p.kind == m.DESCRIPTIVE and not p.has_direction_test for p in parts)
    assert all(math.isnan(x) for p in parts for x in p.pvalues())
    assert all(p.row()["claim predicts"] == "(descriptive: no prediction)" for p in parts)
    assert extra["called shots made"]["called shots that hit %"].tolist() == [50.0, 50.0]
    claim = next(c for c in statements.ENCOUNTER_CLAIMS if c.id == "called-shots-worth-it")
    assert claim.descriptive and "Descriptive" in claim.criterion


def test_open_ended_crits_are_a_single_roll_claim_now():
    from arena.rules.roll_claims import CLAIMS, OPEN_THREATS

    assert "open-ended-in-fights" not in [c.id for c in statements.ENCOUNTER_CLAIMS]
    claim = next(c for c in CLAIMS if c.id == "open-ended-rates")
    numbers, verdict = claim.evaluate()
    assert verdict == "holds"
    assert numbers["checks"] == 2 * (len(OPEN_THREATS) + 1) * 3
    assert numbers["checks_with_a_critical_or_fumble_without_it"] == 0
    assert numbers["highest_critical_success_pct"] == "18.75 (d20+open attack, threat 15-20, needs 6)"
    rows = pd.DataFrame(numbers["attacks"])
    assert set(rows["threat"]) == {"20" if t == 20 else f"{t}-20" for t in OPEN_THREATS}
    assert (rows["critical_without_it_pct"] == 0).all() and (rows["fumble_without_it_pct"] == 0).all()
    d20 = rows[rows["rules"] == "d20+open"].set_index(["threat", "needs_natural"])
    assert d20.loc[("15-20", 6), "rolls_on_upwards_pct"] == 30.0
    assert d20.loc[("15-20", 6), "critical_success_pct"] > 5.0  # the old 5% bar was wrong with wide ranges
    saves = pd.DataFrame(numbers["saves"]).set_index(["rules", "needs_natural"])
    assert saves.loc[("d20+open", 11), "rolls_on_upwards_pct"] == 5.0
    assert saves.loc[("3d6+open", 11), "rolls_on_upwards_pct"] == pytest.approx(100 / 216, abs=1e-3)


# ------------------------------------------------------------------ the record's counters


@pytest.mark.parametrize(
    ("needed", "counted"),
    [(11, (0, 0, 0)), (12, (0, 0, 1)), (13, (0, 0, 1)), (14, (0, 1, 1)), (16, (1, 1, 1)), (25, (1, 1, 1))],
)
def test_a_hit_is_a_long_shot_at_each_threshold_it_reaches(needed, counted):
    tally = SideTally()
    count_long_shot(tally, needed, 7)
    hits = (tally.long_shot_hits, tally.long_shot35_hits, tally.long_shot45_hits)
    assert hits == counted
    assert (tally.long_shot_damage, tally.long_shot35_damage, tally.long_shot45_damage) == tuple(7 * c for c in counted)


@pytest.mark.parametrize(
    ("needed", "counted"),
    [(-3, (1, 1, 1)), (6, (1, 1, 1)), (7, (0, 1, 1)), (8, (0, 1, 1)), (10, (0, 0, 1)), (11, (0, 0, 0))],
)
def test_a_failed_save_is_a_long_shot_at_each_threshold_it_reaches(needed, counted):
    tally = SideTally()
    count_long_shot_save(tally, needed)
    assert (tally.long_shot_saves, tally.long_shot35_saves, tally.long_shot45_saves) == counted


def test_the_fight_counts_failed_saves_for_the_side_whose_effect_got_through():
    from arena.combat.rolls import save
    from tests.fight_scripting import Script, d20, make_fight, stat_block

    hero = stat_block("hero", side="pc", saves={"fort": 10, "ref": 10, "will": 10})
    orc = stat_block("orc", saves={"fort": 0, "ref": 0, "will": 0})
    f = make_fight([hero], [orc])
    hero, orc = f.pcs[0], f.monsters[0]
    Script(f, [d20(1)])
    assert not save(f, hero, "will", 15, orc).success  # needed a 5: fails only on a 1
    Script(f, [d20(3)])
    assert not save(f, hero, "fort", 19, orc).success  # needed a 9: a long shot at 45% only
    Script(f, [d20(1)])
    assert not save(f, hero, "fort", 15, orc, special=False).success  # massive damage: not a lucky shot
    Script(f, [d20(12)])
    assert save(f, hero, "will", 15, orc).success
    Script(f, [d20(2)])
    assert not save(f, orc, "will", 5, hero).success  # the party's spell got through a monster's easy save
    monsters, party = f.record.monsters, f.record.party
    assert (monsters.long_shot_saves, monsters.long_shot35_saves, monsters.long_shot45_saves) == (1, 1, 2)
    assert (party.long_shot_saves, party.long_shot35_saves, party.long_shot45_saves) == (1, 1, 1)
    row = f.record.as_row()
    assert row["long_shot45_saves_monsters"] == 2 and row["long_shot_saves_party"] == 1


def test_the_wider_long_shots_contain_the_claims_under_plain_d20():
    """Seeded fights of low-CR groups: every 25% long shot is a 35% one and every 35% one a 45% one, with their
    damage; the 25% ones still equal the old lucky hits under plain d20."""
    from arena.rules import RuleSet
    from arena.study.claims import design
    from arena.study.runs.workers import EngineSimulator

    match = design.matchup((5, Fraction(1), 6), "typical-cr1", design.Arm("d20"), 1, 0, None)
    sim = EngineSimulator()
    encounter = sim.prepare(match, RuleSet.from_key("d20"))
    rows = [sim.fight(encounter, RuleSet.from_key("d20"), s) for s in range(30)]
    assert sum(r["long_shot45_hits_monsters"] for r in rows) > sum(r["long_shot_hits_monsters"] for r in rows) > 0
    for r in rows:
        assert r["long_shot_hits_monsters"] <= r["long_shot35_hits_monsters"] <= r["long_shot45_hits_monsters"]
        assert r["long_shot_damage_monsters"] <= r["long_shot35_damage_monsters"] <= r["long_shot45_damage_monsters"]
        assert r["long_shot_hits_monsters"] == r["lucky_hits_monsters"]
    assert np.all([r["long_shot45_damage_monsters"] <= r["damage_monsters"] for r in rows])
