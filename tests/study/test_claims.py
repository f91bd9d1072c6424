"""Each encounter claim's machinery at a tiny size with fixed seeds: shapes, pairing, determinism across workers,
the die-invariant long-shot probe and the written report (the machinery, not the verdicts)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from arena.errors import ArenaError
from arena.study.claims import bestiary_cr, design, statements
from arena.study.claims import evaluation as claims
from arena.study.claims import report as claims_report
from arena.study.claims.measures import DESCRIPTIVE, FAIR_PART
from arena.study.statistics import inference as inf
from arena.study.statistics.inference import INCONCLUSIVE

VERDICTS = set(inf.VERDICTS) | {DESCRIPTIVE}
N, SEED = 6, 11


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


@pytest.fixture(scope="module")
def small(monkeypatch_module):
    cells = ((3, Fraction(3), 1), (3, Fraction(1), 4), (5, Fraction(5), 1))
    for c in statements.ENCOUNTER_CLAIMS:
        monkeypatch_module.setattr(c, "cells", lambda cells=cells: cells)
    monkeypatch_module.setattr(
        design, "grid_cells", lambda *a, **k: ((3, Fraction(3), 1), (5, Fraction(3), 2), (3, Fraction(1), 4))
    )
    monkeypatch_module.setattr(design, "anchor_cells", lambda *a, **k: ((3, Fraction(3), 1),))
    monkeypatch_module.setattr(
        bestiary_cr,
        "creatures",
        lambda: [("srd/goblin-1st-level-warrior", Fraction(1, 3)), ("srd/centaur", Fraction(3))],
    )
    return claims.evaluate(n=N, seed=SEED, workers=1)


def test_every_encounter_claim_has_a_verdict_robustness_and_parts(small):
    encounter = [r for r in small.results if r["id"] in {c.id for c in statements.ENCOUNTER_CLAIMS}]
    assert [r["id"] for r in encounter] == [c.id for c in statements.ENCOUNTER_CLAIMS]
    for r in encounter:
        assert r["verdict"] in VERDICTS and r["robustness"]
        assert r["source"].endswith(".txt") and r["quote"] and r["criterion"]
        assert set(r["by_variation"]) == {str(v) for v in claims.VARIATION_NAMES}
        for p in r["parts"]:
            assert p.verdict in VERDICTS
            e = p.effect
            assert e.units >= 1 or p.verdict == INCONCLUSIVE
            if math.isfinite(e.low):
                assert e.low <= e.estimate + 1e-9 <= e.high + 2e-9


def test_group_cr_and_anchor_are_evaluated(small):
    group = next(r for r in small.results if r["id"] == statements.GROUP_CR)
    assert group["verdict"] in VERDICTS
    assert not small.grid.cells.empty and set(small.grid.cells["variant"]) >= {"d20", "3d6"}
    assert {"hp lost %", "resources %"} <= set(small.anchor.table.columns)


def test_arms_of_a_matchup_share_seeds(small):
    frame = small.batch.frame
    one = frame[frame["matchup"] == frame["matchup"].iloc[0]]
    by_rules = {k: g.sort_values("index")["index"].tolist() for k, g in one.groupby("rules")}
    assert len(by_rules) >= 2 and all(v == list(range(len(v))) for v in by_rules.values())


def test_same_seed_same_numbers_on_two_workers(small):
    again = claims.evaluate(n=N, seed=SEED, workers=2, only=["bell-favours-stronger", "prad-same-in-fights"])
    first = {r["id"]: r for r in small.results}
    for r in again.results:
        if r["id"] in first and r.get("parts"):
            assert [repr(p.effect.estimate) for p in r["parts"]] == [
                repr(p.effect.estimate) for p in first[r["id"]]["parts"]
            ]
            assert r["verdict"] == first[r["id"]]["verdict"]


def test_the_parts_fought_at_once_give_the_same_study(small):
    """On two workers the study's parts (encounter claims, the grid and its re-runs, the anchor) are fought at once
    (:mod:`arena.study.runs.phases`): every number is the one of the parts fought one after another."""
    import pandas as pd

    again = claims.evaluate(n=N, seed=SEED, workers=2)
    assert [r["id"] for r in again.results] == [r["id"] for r in small.results]
    for mine, theirs in zip(again.results, small.results, strict=True):
        assert mine["verdict"] == theirs["verdict"] and mine.get("robustness") == theirs.get("robustness")
        assert [repr(p.effect) for p in mine.get("parts") or []] == [repr(p.effect) for p in theirs.get("parts") or []]
    pd.testing.assert_frame_equal(again.grid.cells, small.grid.cells)
    pd.testing.assert_frame_equal(again.anchor.table, small.anchor.table)
    pd.testing.assert_frame_equal(again.batch.frame, small.batch.frame)
    assert list(again.timings) == list(small.timings)
    # the grid's hold-out checks and the encounter claims' measures were computed on the workers: the same tables
    assert again.grid.judgement.holdouts.keys() == small.grid.judgement.holdouts.keys()
    for variant, mine in again.grid.judgement.holdouts.items():
        pd.testing.assert_frame_equal(mine.models, small.grid.judgement.holdouts[variant].models)
        pd.testing.assert_frame_equal(mine.rules, small.grid.judgement.holdouts[variant].rules)
    for mine, theirs in zip(again.results, small.results, strict=True):
        assert repr(mine.get("extra")) == repr(theirs.get("extra"))


def test_the_parts_fought_at_once_on_a_dask_cluster_give_the_same_study(small):
    """The parts fought at once submit to one Dask client from their threads: the same numbers again."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        again = claims.evaluate(n=N, seed=SEED, cluster=cluster.scheduler_address)
    assert [(r["id"], r["verdict"]) for r in again.results] == [(r["id"], r["verdict"]) for r in small.results]
    import pandas as pd

    pd.testing.assert_frame_equal(again.grid.cells, small.grid.cells)
    pd.testing.assert_frame_equal(again.batch.frame, small.batch.frame)


def test_long_shots_equal_the_old_lucky_hits_under_plain_d20():
    # Under standard d20 the exact chance of a hit is its d20 chance, so the die-invariant long shot and the
    # record's lucky hit count the same hits; under 3d6 they part (the audit's finding 1).
    from arena.rules import RuleSet
    from arena.study.runs.workers import EngineSimulator

    m = design.matchup((5, Fraction(1), 6), "typical-cr1", design.Arm("d20"), 1, 0, None)
    sim = EngineSimulator()
    e = sim.prepare(m, RuleSet.from_key("d20"))
    rows = [sim.fight(e, RuleSet.from_key("d20"), s) for s in range(40)]
    assert sum(r["long_shot_hits_monsters"] for r in rows) > 0
    assert all(r["long_shot_hits_monsters"] == r["lucky_hits_monsters"] for r in rows)
    assert all(r["long_shot_damage_monsters"] == r["lucky_damage_monsters"] for r in rows)
    e3 = sim.prepare(m, RuleSet.from_key("3d6"))
    rows3 = [sim.fight(e3, RuleSet.from_key("3d6"), s) for s in range(40)]
    assert sum(r["long_shot_hits_monsters"] for r in rows3) < sum(r["lucky_hits_monsters"] for r in rows3)


def test_report_is_readable_tables(small, tmp_path):
    page = claims_report.write_report(small, tmp_path / "c", "arena claims --n 6", 1, None)
    text = page.read_text()
    assert text.splitlines()[0].startswith("# ") and "    arena claims --n 6" in text
    assert "## Verdicts" in text and "```json" not in text
    assert text.index("## The model against the DMG") < text.index("## Verdicts")
    for name in ("manifest.json", "claims.json", "summary.csv", "calibration.csv"):
        assert (tmp_path / "c" / name).exists()


def _main_parts(small):
    ids = {c.id for c in statements.ENCOUNTER_CLAIMS}
    return [p for r in small.results if r["id"] in ids for p in r["parts"]]


def test_holm_runs_over_every_part_once_per_test(small):
    """Three families (beyond the margin, within it, the direction alone), each over every part of every claim;
    the verdict follows the order supported, not supported, direction shown, inconclusive."""
    parts = _main_parts(small)
    raw = [p.pvalues() for p in parts]
    for i in range(3):
        np.testing.assert_array_equal([p.p_adjusted[i] for p in parts], inf.holm([r[i] for r in raw]))
    for p in parts:
        a, b, d = p.p_adjusted
        if p.kind == DESCRIPTIVE:  # no test: out of every family
            assert p.verdict == DESCRIPTIVE and all(math.isnan(x) for x in (*p.pvalues(), a, b, d))
        elif p.kind == "equivalence":
            assert math.isnan(d)
        else:
            assert p.verdict == inf.directional_verdict(a, b, p_direction=d)
    by_id = {r["id"]: r for r in small.results}
    for c in statements.ENCOUNTER_CLAIMS:
        r = by_id[c.id]
        expected = DESCRIPTIVE if c.descriptive else inf.combine([p.verdict for p in r["parts"]])
        assert r["verdict"] == expected


def test_which_parts_have_a_direction_test(small):
    """A direction test only where the margin lies beyond no effect in the predicted direction."""
    has = {p.name: p.has_direction_test for p in _main_parts(small)}
    assert has["long shots per fight (hits and failed saves), 3d6 / d20"]  # a ratio below 0.8, no effect at 1
    assert has["hp-lost saved by +1 to hit, 3d6 / d20"]
    assert has["favourite's win rate, 3d6 - d20 (per-roll favourite, every matchup)"]
    assert not has["premise: long-shot share of the groups' damage under d20"]  # a share against a level
    assert not has["hp lost, calling at the head - never, d20+called (points)"]  # descriptive: no test at all
    assert not has["hp lost, prad - d20 (points)"]  # an equivalence band predicts no direction
    if FAIR_PART in has:  # only where some fair matchup discriminates
        assert not has[FAIR_PART]  # the margin is no effect itself


def test_every_part_counts_the_fights_behind_it(small):
    """A ratio or a per-matchup summary counts its fights per arm too (it printed "fights 0")."""
    counted = 0
    for p in _main_parts(small):
        e = p.effect
        assert e.fights == N * e.units, p.name  # (the favourite's and fixed10's parts: their matchups only)
        assert p.row()["fights per arm"] == e.fights
        counted += e.units > 0 and p.units == "ratio"
    assert counted >= 4


def test_the_report_shows_every_p_and_the_anchor(small, tmp_path):
    import json

    from arena.study.claims.group_cr import ANCHOR_MATCHUPS

    page = claims_report.write_report(small, tmp_path / "c", "arena claims --n 6", 1, None)
    text = page.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| part |"))
    for column in ("p supported (Holm)", "p not supported (Holm)", "p direction (Holm)", "fights per arm"):
        assert column in header
    assert "direction shown (size undecided)" in text and "A preview." not in text

    def no_nan(token):
        raise AssertionError(f"{token} in claims.json")

    doc = json.loads((tmp_path / "c" / "claims.json").read_text(), parse_constant=no_nan)
    group = next(r for r in doc if r["id"] == statements.GROUP_CR)
    rows = group["extra"][ANCHOR_MATCHUPS]
    assert [(r["level"], r["monster"], r["size"]) for r in rows] == [
        tuple(x) for x in small.anchor.table[["level", "monster", "size"]].itertuples(index=False)
    ]
    assert f"*{ANCHOR_MATCHUPS}*" in text
    part = next(r for r in doc if r["id"] == "prad-same-in-fights")["parts"][0]
    assert set(part["p (raw)"]) == {"supported", "not supported", "direction"} and part["p (raw)"]["direction"] is None


def test_the_quick_study_is_a_preview_at_the_same_alpha(small, tmp_path, capsys):
    """No stricter quick alpha (it was chosen after the numbers were seen): the quick output says its verdicts are a
    preview the full study may turn."""
    from dataclasses import replace

    from arena.cli.claims_cmds import _show_claims

    assert not hasattr(claims, "QUICK_ALPHA")
    quick = replace(small, quick=True)
    _show_claims(quick, True, None, None, False)
    assert claims.QUICK_PREVIEW in capsys.readouterr().out.replace("\n", " ")
    page = claims_report.write_report(quick, tmp_path / "q", "arena claims --quick", 1, None)
    assert "A preview." in page.read_text()
    exact = replace(quick, results=quick.results[:1], batch=None, grid=None, anchor=None)  # --only a single roll
    _show_claims(exact, True, None, None, False)
    assert claims.QUICK_PREVIEW not in capsys.readouterr().out.replace("\n", " ")


def test_unknown_claim_and_bad_sizes_are_refused():
    with pytest.raises(ArenaError, match="unknown claim"):
        claims.evaluate(only=["nope"])
    with pytest.raises(ArenaError):
        claims.evaluate(n=1, only=["bell-favours-stronger"])


def test_sizes():
    assert claims.sizes(True, None)["main"] == claims.QUICK_N
    assert claims.sizes(False, None)["main"] == claims.FULL_N
    assert claims.sizes(False, 9) == {"main": 9, "robustness": 9}
    assert np.isfinite(claims.ROBUST_SHARE)


def test_the_re_rated_bestiary_places_every_creature_on_the_ladder(small, tmp_path):
    """Each creature alone against the party its CR implies (a CR 1/3 goblin: level 1; a CR 3 centaur: level 3),
    with c* and its interval under d20 and each variant, in bestiary-cr.csv and on the page."""
    import pandas as pd

    table = small.bestiary.table
    assert set(table["creature"]) == {"goblin-1st-level-warrior", "centaur"}
    assert dict(zip(table["creature"], table["party level"], strict=True)) == {
        "goblin-1st-level-warrior": 1,
        "centaur": 3,
    }
    for label in bestiary_cr.ARMS:
        assert table[f"{label} c*"].notna().all() and table[f"{label} known"].notna().all()
    gaps = table["d20 - CR (rungs)"].abs().to_list()
    assert gaps == sorted(gaps, reverse=True)
    page = claims_report.write_report(small, tmp_path / "out", "arena claims --n 6", 1, None)
    csv = pd.read_csv(page.parent / "bestiary-cr.csv")
    assert list(csv["creature"]) == list(table["creature"])
    assert "## The re-rated bestiary" in page.read_text()
