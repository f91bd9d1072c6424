"""`arena report`: tables and plots of a results folder."""

from __future__ import annotations

import pandas as pd
from experiment_fakes import FakeScenario, FakeSimulator, cli_app
from typer.testing import CliRunner

from arena.study.reports.changes import table_rows
from arena.study.reports.report import build_report
from arena.study.runs.experiment import run_experiment
from arena.study.statistics.summaries import summarise

runner = CliRunner()
app = cli_app()


def _results(tmp_path):
    out = tmp_path / "r"
    run_experiment(
        [FakeScenario(n=150, keys=("d20", "3d6", "d20+prad")), FakeScenario(name="other", n=50)],
        out,
        simulator=FakeSimulator(),
    )
    return out


def test_markdown_report(tmp_path):
    out = _results(tmp_path)
    page = build_report(out)
    assert page == out / "report" / "report.md"
    text = page.read_text()
    summary = pd.read_csv(out / "summary.csv")
    first = table_rows(summary[summary.scenario == "fake"])[0]
    assert first["win"] in text and "`d20+prad`" in text
    for name in ("fake-win-rate.png", "fake-rounds.png", "fake-hp-lost.png", "other-win-rate.png"):
        png = out / "report" / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000
        assert f"({name})" in text
    assert "## fake" in text and "## other" in text
    assert "Per combatant" not in text and text.rstrip().endswith("(other-hp-lost.png)")  # no combatants.parquet


def test_table_rows_format():
    frame = pd.DataFrame(
        {
            "scenario": "s",
            "rules": "d20",
            "winner": ["party"] * 3 + ["monsters"],
            "rounds": [1, 2, 3, 4],
            "party_hp_lost": [0.1, 0.2, 0.3, 0.4],
        }
    )
    row = table_rows(summarise(frame))[0]
    assert row["win"].startswith("75.0% (") and row["n"] == "4" and row["monster_hit_rate"] == "-"


def test_cli_report_html_and_errors(tmp_path):
    out = _results(tmp_path)
    result = runner.invoke(app, ["report", str(out), "--format", "html", "--out", str(tmp_path / "html")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "html" / "report.html").read_text()
    assert '<img src="data:image/png;base64,' in text and '<table class="stack">' in text
    assert [p.name for p in (tmp_path / "html").iterdir()] == ["report.html"]  # one self-contained file
    assert "What each rule set changes against d20" in text and "None" not in text
    bad = runner.invoke(app, ["report", str(out), "--format", "pdf"])
    assert bad.exit_code == 2 and "'pdf' is not one of 'md', 'html'" in bad.stderr
    missing = runner.invoke(app, ["report", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "no such results" in missing.stderr


def test_rule_sets_are_labelled_at_a_readable_size(tmp_path):
    """Every plot that names the rule sets names them at 10 points or more (they were 8: too small on the page)."""
    from arena.study.reports.changes import changes_against
    from arena.study.reports.measures import MEASURES
    from arena.study.reports.plots import plot_changes, plot_hp_lost, plot_rounds, plot_win_rates
    from arena.study.statistics.encounters import read_encounters

    out = _results(tmp_path)
    frame = read_encounters(out)
    frame = frame[frame["scenario"] == "fake"]
    summary = summarise(frame)
    order = summary["rules"].astype(str).tolist()
    changes = changes_against(frame, "d20")
    sizes: dict[str, list[float]] = {}

    def keep(name):
        def save(fig):
            labels = fig.axes[0].get_yticklabels()
            assert [label.get_text() for label in labels] != []
            sizes[name] = [label.get_fontsize() for label in labels]

        return save

    plot_win_rates(summary, keep("win"), "t")
    plot_rounds(frame, order, keep("rounds"), "t")
    plot_hp_lost(frame, order, keep("hp"), "t")
    plot_changes(changes, keep("changes"), "t", "d20", ["3d6", "d20+prad"], MEASURES)
    assert set(sizes) == {"win", "rounds", "hp", "changes"}
    assert all(min(found) >= 10 for found in sizes.values()), sizes
