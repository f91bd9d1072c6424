"""Each encounter claim's evaluation at a tiny size with a fixed seed: the machinery, not the verdict."""

from __future__ import annotations

import numpy as np
import pytest

from arena.errors import ArenaError
from arena.study import calibrate as cal
from arena.study import claims, claims_report

VERDICTS = {claims.SUPPORTED, claims.PARTLY, claims.NOT}
N, SEED = 6, 11


@pytest.fixture(scope="module")
def small(monkeypatch_module):
    # Shrink the matchup sets to their first level so the batch stays small (< 15 s).
    for name in ("EVEN", "FAIR", "SPREAD", "LOW"):
        monkeypatch_module.setattr(claims, name, tuple(s for s in getattr(claims, name) if s[0] == 3)[:4])
    monkeypatch_module.setattr(claims, "CALIBRATION_LEVEL", 2)
    monkeypatch_module.setattr(claims, "CALIBRATION_SIZES", (1, 4))
    monkeypatch_module.setattr(cal, "LADDER_BELOW", 1)
    monkeypatch_module.setattr(cal, "LADDER_ABOVE", 1)
    return claims.evaluate(n=N, seed=SEED, only=[c.id for c in claims.ENCOUNTER_CLAIMS])


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_every_encounter_claim_has_the_entry_shape(small):
    ids = [r["id"] for r in small.results]
    assert ids == [c.id for c in claims.ENCOUNTER_CLAIMS]
    for r in small.results:
        assert set(r) == {"id", "source", "quote", "criterion", "numbers", "verdict"}
        assert r["verdict"] in VERDICTS
        assert r["source"].endswith(".txt") and r["quote"] and r["criterion"]


def test_numbers_carry_intervals_and_sizes(small):
    for r in small.results:
        widths = claims._half_widths(r["numbers"], [])
        if r["id"] != "bell-group-cr":
            assert widths, r["id"]
            assert all(w >= 0 for w in widths)


def test_paired_arms_share_seeds(small):
    frame = small.batch.frame
    one = frame[frame["matchup"] == frame["matchup"].iloc[0]]
    by_rules = {k: g.sort_values("index")["index"].tolist() for k, g in one.groupby("rules")}
    assert len(by_rules) >= 2 and all(v == list(range(len(v))) for v in by_rules.values())


def test_same_seed_same_numbers(small, monkeypatch_module):
    again = claims.evaluate(n=N, seed=SEED, only=["bell-favours-stronger", "prad-same-in-fights"])
    first = {r["id"]: r for r in small.results}
    for r in again.results:
        assert r == first[r["id"]]


def test_single_roll_claims_are_included_and_unknown_ids_refused():
    ev = claims.evaluate(only=["bell-automatic-rate"])
    assert [r["id"] for r in ev.results] == ["bell-automatic-rate"] and ev.batch is None
    with pytest.raises(ArenaError):
        claims.evaluate(only=["no-such-claim"])
    with pytest.raises(ArenaError):
        claims.evaluate(n=1, only=["prad-same-in-fights"])


def test_statistics_helpers():
    base = np.array([True] * 50 + [False] * 50)
    new = np.array([True] * 60 + [False] * 40)
    d = claims.diff_prop(base, new)
    assert d["change_pts"] == pytest.approx(10.0) and d["ci"][0] < 10 < d["ci"][1]
    r = claims.ratio_change(np.ones(40), np.full(40, 4.0), np.ones(40), np.full(40, 2.0))
    assert r["base_pct"] == 25.0 and r["new_pct"] == 50.0 and r["change_pts"] == pytest.approx(25.0)
    assert claims._significant({"ci": [1, 2]}, +1) and not claims._significant({"ci": [-1, 2]}, +1)


def test_sizes_and_requests():
    quick = claims.sizes(True, None)
    assert set(quick.values()) == {claims.QUICK_N}
    full = claims.sizes(False, None)
    assert all(v >= 2000 for v in full.values())
    merged = cal.merge_requests(claims.requests(quick=True))
    assert len({(m.key, m.seed) for m in merged}) == len(merged)


def test_report_files(small, tmp_path):
    page = claims_report.write_report(small, tmp_path, "arena claims --n 6", 1, None)
    assert page.exists() and (tmp_path / "manifest.json").exists() and (tmp_path / "summary.csv").exists()
    text = page.read_text()
    assert "bell-group-cr" in text and "```json" in text


def test_cli_claims_json_and_calibrate(monkeypatch):
    import json

    import typer
    from typer.testing import CliRunner

    from arena.cli import claims_cmds

    app = typer.Typer()
    claims_cmds.register(app)
    runner = CliRunner()
    out = runner.invoke(app, ["claims", "--json", "--only", "bell-automatic-rate"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)[0]["id"] == "bell-automatic-rate"
    bad = runner.invoke(app, ["calibrate", "typical-cr1", "--metric", "luck"])
    assert bad.exit_code == 2
    ok = runner.invoke(app, ["calibrate", "typical-cr1", "--party-level", "2", "--sizes", "1", "--n", "8",
                             "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)[0]["size"] == 1
