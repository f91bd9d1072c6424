"""`arena dmg-baseline` (arena/study/claims/baseline.py): the DMG anchor with death causes and the EL check, on a
tiny run (one level, a few fights a matchup)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arena.study.claims import baseline
from arena.study.claims.baseline import (
    CAUSES,
    END,
    START,
    cells,
    focus_fire,
    markdown,
    monsters,
    paper_check,
    run_baseline,
    summary,
)


def test_cells_of_a_level():
    got = {(c.cr, c.size, c.check) for c in cells([8])}
    assert got == {
        (Fraction(8), 1, "anchor"),
        (Fraction(6), 2, "anchor"),
        (Fraction(4), 4, "anchor"),
        (Fraction(8), 4, "el+4"),
        (Fraction(12), 1, "el+4"),
    }
    assert {(c.cr, c.size) for c in cells([1])} == {(Fraction(1), 1), (Fraction(1), 4), (Fraction(5), 1)}
    assert monsters(Fraction(5), "typical", 2) == ["typical-cr5"]
    assert monsters(Fraction(5), "typical-pf", 2) == ["typical-pf-cr5"]
    assert len(monsters(Fraction(5), "srd", 2)) == 2


def test_focus_fire_and_the_paper_check():
    assert [focus_fire(k) for k in (1, 2, 4)] == [1, 3, 10]
    row = paper_check([8]).iloc[0]
    from arena.world.typical import srd_medians

    big, small = srd_medians(12), srd_medians(8)
    want = 10 * small.hp * small.damage_per_round / (big.hp * big.damage_per_round)
    assert row["EL L+4, hit chances left out"] == pytest.approx(want)
    assert 1 < row["EL L+4: 4 x CR L"] < want  # the bigger monster hits more often and is hit less often


@pytest.fixture(scope="module")
def tiny():
    return run_baseline(n=4, levels=[3], populations=("typical", "typical-pf", "srd"), srd_per_cr=1)


def test_tiny_run_table_and_causes_add_up(tiny):
    t = tiny.table
    assert set(t["population"]) == {"typical", "typical-pf", "srd"}
    assert (t["fights"] == 4).all()
    deaths = sum(t[f"deaths {c}"] for c in CAUSES)
    assert deaths.to_numpy() == pytest.approx(t["deaths/fight"].to_numpy())  # every death has one cause
    s = summary(tiny)
    assert set(s["population"]) == {"typical", "typical-pf", "srd"} and (s["level"] == 3).all()
    shares = s[[f"% {c}" for c in CAUSES]].sum(axis=1, min_count=1)
    assert all(abs(v - 100) < 1e-6 for v in shares.dropna())
    assert shares.isna().tolist() == (s["deaths/fight"] == 0).tolist()  # no share where nobody died


def test_markdown_replaces_only_the_generated_part(tiny):
    text = markdown(tiny)
    assert START in text and END in text and "The EL check" in text
    around = f"# Title\n\nprose before\n\n{START}\nold numbers\n{END}\n\nprose after\n"
    again = markdown(tiny, around)
    assert again.startswith("# Title\n\nprose before") and again.endswith("prose after\n")
    assert "old numbers" not in again and again.count(START) == 1


def test_cli_writes_the_report(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from arena.cli import app

    calls = {}
    real = baseline.run_baseline

    def small(**kw):
        calls.update(kw)
        return real(**{**kw, "n": 2, "populations": ("typical",)})

    monkeypatch.setattr(baseline, "run_baseline", small)
    out = tmp_path / "b.md"
    result = CliRunner().invoke(app, ["dmg-baseline", "--quick", "--level", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert calls["levels"] == [1] and calls["n"] == 40 and calls["srd_per_cr"] == 2
    assert START in out.read_text(encoding="utf-8")
