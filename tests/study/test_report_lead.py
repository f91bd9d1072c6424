"""`arena report` leads with what moved: in a fight the party always wins, the change table is sorted by hit points
lost and the heat map shows them, `--metric` overrides that choice, and no number on the page is a negative zero."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from experiment_fakes import FakeScenario, FakeSimulator, cli_app
from typer.testing import CliRunner

from arena.errors import ArenaError
from arena.study.reports.measures import BY_METRIC, lead_of, signed, unsigned
from arena.study.reports.plots import plot_grid
from arena.study.reports.report import build_report
from arena.study.runs.experiment import run_experiment

runner = CliRunner()
app = cli_app()

KEYS = ("d20", "d20+prad", "d20+var", "3d6", "3d6+prad")
HP_OFFSET = {"d20": 0.0, "d20+prad": 0.02, "d20+var": -1e-7, "3d6": -0.05, "3d6+prad": -0.03}
"""Each rule set's hit points lost against d20, as a fraction: -5 points under 3d6; d20+var's change is a hair
below zero (a page that rounds it without care prints -0.0)."""
ROUNDS_OFFSET = {"d20": 0, "d20+prad": 0, "d20+var": 0, "3d6": 2, "3d6+prad": 2}
NEGATIVE_ZERO = re.compile(r"[-\u2212]0(?:\.0+)?(?![.\d])")
"""A number printed as a negative zero (-0, -0.0, -0.00), never part of -0.02 or of a date's -01."""


class EasySimulator(FakeSimulator):
    """The party wins every encounter; the rule sets move its hit points lost (HP_OFFSET) and the rounds
    (ROUNDS_OFFSET), the same shift on every encounter, so each change is certain."""

    def fight(self, prepared, rules, seed):
        record = super().fight(prepared, rules, seed)
        base = 0.1 + 0.2 * (seed % 97) / 97
        return {
            **record,
            "winner": "party",
            "pcs_dead": 0,
            "party_hp_lost": base + HP_OFFSET[rules.key],
            "rounds": 3 + seed % 5 + ROUNDS_OFFSET[rules.key],
        }


@pytest.fixture(scope="module")
def easy(tmp_path_factory):
    out = tmp_path_factory.mktemp("easy") / "r"
    run_experiment([FakeScenario(name="easy", n=60, keys=KEYS)], out, simulator=EasySimulator())
    return out


def _change_table(page: str) -> tuple[list[str], list[str]]:
    """The markdown change table's header cells and its rule sets, in order."""
    lines = page.split("### What each rule set changes against", 1)[1].split("### The variant grid", 1)[0]
    rows = [line for line in lines.splitlines() if line.startswith("| ")]
    head = [cell.strip() for cell in rows[0].strip("|").split("|")]
    return head, [row.split("|")[1].strip().strip("`") for row in rows[1:]]


def test_an_easy_fight_leads_with_hit_points_lost(easy, tmp_path):
    page = build_report(easy, tmp_path / "page")
    text = page.read_text()
    head, order = _change_table(text)
    assert head[:5] == [
        "rule set",
        "what moved (Holm)",
        "hp lost change, points (interval)",
        "rounds change (interval)",  # the measures that moved, the lead first, then the rest
        "win rate change, points (interval)",
    ]
    assert order == ["d20", "3d6", "3d6+prad", "d20+var", "d20+prad"]  # fewest hit points lost first
    assert "Sorted by the change of the party hit points lost, the party's best first." in text
    assert "Moved after Holm's correction: party hit points lost, rounds." in text
    assert "| `3d6` | significant: hp lost, rounds | -5.0 (-5.0 to -5.0) | +2.00 (+2.00 to +2.00) | 0.0 (0.0 to" in text
    assert "| `d20+prad` | significant: hp lost | +2.0 (+2.0 to +2.0) | 0.00 (0.00 to 0.00) | 0.0 (0.0 to" in text
    pictures = sorted(p.name for p in (tmp_path / "page").glob("easy-grid-*.png"))
    assert pictures == ["easy-grid-hp-lost.png", "easy-grid-rounds.png"]  # a heat map per measure that moved
    assert text.index("easy-grid-hp-lost.png") < text.index("easy-grid-rounds.png")  # the lead's first


@pytest.mark.parametrize(
    ("metric", "first", "order", "maps"),
    [
        ("win", "win rate change, points (interval)", ["d20", "3d6", "3d6+prad", "d20+var", "d20+prad"], 3),
        ("rounds", "rounds change (interval)", ["d20", "d20+var", "d20+prad", "3d6", "3d6+prad"], 2),
    ],
)
def test_metric_overrides_the_lead(easy, tmp_path, metric, first, order, maps):
    """--metric sorts by its measure (ties by the measures that moved) and draws its heat map first, besides one per
    measure that moved."""
    result = runner.invoke(app, ["report", str(easy), "--metric", metric, "--out", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "p" / "report.md").read_text()
    head, shown = _change_table(text)
    assert head[2] == first and shown == order
    grids = re.findall(r"\((easy-grid-[a-z-]+\.png)\)", text)
    assert len(grids) == maps and grids[0] == f"easy-grid-{metric}.png"


def test_an_unknown_metric_is_refused(easy, tmp_path):
    result = runner.invoke(app, ["report", str(easy), "--metric", "deaths"])
    said = " ".join(re.sub(r"[\u2500-\u257f]", " ", result.stderr).split())  # the error box's lines joined
    assert result.exit_code == 2 and "'deaths' is not one of 'win', 'hp-lost', 'rounds'" in said, said
    with pytest.raises(ArenaError, match="--metric must be one of win, hp-lost, rounds, not 'deaths'"):
        build_report(easy, tmp_path / "x", metric="deaths")


def test_the_lead_when_nothing_or_several_moved():
    def changes(**moves):
        return pd.DataFrame(
            [
                {"rules": f"r{i}", "metric": metric, "diff": diff, "significant": significant}
                for metric, cells in moves.items()
                for i, (diff, significant) in enumerate(cells)
            ]
        )

    still = [(0.0, False), (0.0, False)]
    assert lead_of(changes(win_rate=still, hp_lost=still, rounds=still)).first.metric == "win_rate"
    quiet = changes(win_rate=still, hp_lost=[(-0.01, False), (0.0, False)], rounds=still)
    assert lead_of(quiet).first.metric == "hp_lost" and lead_of(quiet).moved == ()  # nothing significant: what varies
    both = changes(win_rate=[(0.1, True), (0.0, False)], hp_lost=[(-0.1, True), (-0.2, True)], rounds=still)
    lead = lead_of(both)
    assert [m.metric for m in lead.order] == ["hp_lost", "win_rate", "rounds"]
    assert [m.metric for m in lead.mapped] == ["hp_lost", "win_rate"]
    wanted = lead_of(both, BY_METRIC["rounds"])
    assert [m.metric for m in wanted.order] == ["rounds", "hp_lost", "win_rate"]
    assert [m.metric for m in wanted.mapped] == ["rounds", "hp_lost", "win_rate"]


def test_numbers_never_show_a_negative_zero():
    assert [signed(x) for x in (0.0, -0.0, -1e-9, -0.04, 0.26, -2.74, float("nan"))] == [
        "0.0",
        "0.0",
        "0.0",
        "-0.04",  # a small change keeps its sign, with the decimals it needs
        "+0.3",
        "-2.7",
        "-",
    ]
    assert [signed(x, 2) for x in (-0.001, -0.0049, 0.0051)] == ["-0.001", "-0.005", "+0.01"]
    assert [unsigned(x) for x in (-0.0, -0.04, 12.25)] == ["0.0", "0.0", "12.2"]


def test_the_pages_print_no_negative_zero(easy, tmp_path):
    for fmt in ("md", "html"):
        text = build_report(easy, tmp_path / fmt, fmt).read_text().replace("\u00a0", " ")  # HTML's intervals
        text = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", text)  # the pictures' bytes are not numbers
        text = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
        assert "0.0 (0.0 to 0.0)" in text  # the hair-thin change of d20+var, and every win-rate change
        assert not NEGATIVE_ZERO.search(text), NEGATIVE_ZERO.search(text)


def test_the_heat_map_prints_no_negative_zero():
    shown = []

    def keep(fig):
        ax = fig.axes[0]
        shown.extend(t.get_text() for t in ax.texts)
        shown.extend(t.get_text() for t in fig.axes[1].get_yticklabels())  # the colour bar
        fig.canvas.draw()
        shown.extend(t.get_text() for t in fig.axes[1].get_yticklabels())

    matrix = np.array([[0.0, -1e-9, -0.0], [-0.0004, 0.012, np.nan]])
    plot_grid(matrix, ["d20", "3d6"], ["static", "var", "luck"], keep, "t", BY_METRIC["hp_lost"])
    assert shown[:5] == ["0.0", "0.0", "0.0", "-0.04", "+1.2"]
    assert not any(NEGATIVE_ZERO.fullmatch(s.replace("\u2212", "-")) for s in shown), shown
