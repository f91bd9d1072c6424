"""Issue 17, every table through rich: `arena bestiary list`, `coverage` and `typical-vs-srd` print rich tables that
stay whole in a pipe (no name cut to ``scen...``, no colour codes) and keep their --json; `errata` gains --json;
`typical-vs-srd --markdown` (docs/bestiary.md) is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from stat_blocks import BOG_HAG
from typer.testing import CliRunner

from arena.cli import app
from arena.cli.bestiary_cmds import TYPICAL_HEAD, typical_table

runner = CliRunner()
LONG = "a-bog-hag-with-a-name-far-longer-than-the-old-thirty-four-columns-of-the-list"
HAG = BOG_HAG.replace("name: bog-hag", f"name: {LONG}")


def out(*args: str, columns: str = "") -> str:
    """The command's stdout as in a pipe (not a terminal; COLUMNS as given)."""
    result = runner.invoke(app, list(args), env={"COLUMNS": columns})
    assert result.exit_code == 0, (result.output, result.exception)
    assert "\x1b[" not in result.stdout and "…" not in result.stdout
    return result.stdout


def test_list_is_a_rich_table_whole_in_a_pipe(tmp_path):
    (tmp_path / "hag.yaml").write_text(HAG)
    text = out("bestiary", "list", "--bestiary", str(tmp_path / "hag.yaml"), "--name", "bog-hag")
    lines = text.splitlines()
    assert lines[0].split() == ["name", "CR", "size/type", "hp", "AC", "model", "source"]
    row = next(line for line in lines if LONG in line)  # the whole name, on one line
    assert row.split() == [LONG, "4", "medium", "monstrous", "humanoid", "40", "18", "full", "file"]
    assert lines[-1] == "1 creature"
    rows = json.loads(out("bestiary", "list", "--bestiary", str(tmp_path / "hag.yaml"), "--name", "bog-hag", "--json"))
    assert [(r["name"], r["cr"], r["source"]) for r in rows] == [(LONG, "4", "file")]


def test_list_rows_agree_with_the_json():
    text = out("bestiary", "list", "--cr", "20")
    rows = json.loads(out("bestiary", "list", "--cr", "20", "--json"))
    body = [line.split() for line in text.splitlines()[2:-1]]
    assert [cells[0] for cells in body] == [r["name"] for r in rows]
    assert all(
        cells[1] == r["cr"] and cells[-3:] == [str(r["ac"]), r["modelled"], r["source"]]
        for cells, r in zip(body, rows, strict=True)
    )
    assert text.splitlines()[-1] == f"{len(rows)} creatures"


def test_a_narrow_pipe_folds_the_list_rather_than_cutting_it():
    text = out("bestiary", "list", "--name", "aboleth-mage", columns="60")
    assert max(len(line) for line in text.splitlines()) <= 60
    assert "aboleth-mage-10th-level-wizard" not in text  # folded over lines, every character kept
    assert "aboleth-mage-10th-level-wizard" in "".join(
        line.split()[0] if line.split() else "" for line in text.splitlines()[2:-1]
    )


def test_coverage_tables_carry_the_json_numbers():
    report = json.loads(out("bestiary", "coverage", "--json"))
    text = out("bestiary", "coverage", "--top", "5")
    assert f"CR {report['band']}: {report['band_creatures']} creatures" in text
    header = next(line for line in text.splitlines() if line.split()[:2] == ["#", "ability"])
    assert "have it (CR 1/2..15)" in header and "full then" in header
    for k, row in enumerate(report["order"][:5], 1):
        line = next(line for line in text.splitlines() if line.split()[:1] == [str(k)])
        assert row["ability"] in line and line.split()[-1] == f"{row['cumulative_full']:.0%}"
        assert line.split()[-5:-1] == [
            str(row["decides"]),
            str(row["alone"]),
            str(row["creatures_in_band"]),
            str(row["creatures"]),
        ]
    for cr, row in report["by_cr"].items():
        assert [cr, str(row["creatures"]), str(row["full"]), str(row["partial"])] in [
            line.split() for line in text.splitlines()
        ]


def test_typical_vs_srd_is_a_rich_table_and_its_markdown_is_unchanged():
    data = json.loads(out("bestiary", "typical-vs-srd", "--json"))
    text = out("bestiary", "typical-vs-srd")
    lines = text.splitlines()
    header = next(line for line in lines if line.split()[:3] == ["CR", "SRD", "creatures"])
    assert all(h in header for h in TYPICAL_HEAD)
    for r in data:
        line = next(line for line in lines if line.split()[:1] == [r["cr"]])
        assert line.split()[1:4] == [str(r["srd_creatures"]), str(r["full"]), f"{r['typical_hp']:g}"]
    markdown = out("bestiary", "typical-vs-srd", "--markdown")
    assert markdown == typical_table(True) + "\n"
    assert markdown.splitlines()[0] == "| " + " | ".join(TYPICAL_HEAD) + " |"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "bestiary.md").read_text()
    assert markdown.strip() in docs


def test_errata_gains_json():
    rows = json.loads(out("bestiary", "errata", "--json"))
    text = out("bestiary", "errata")
    assert text.strip().splitlines()[-1] == f"{len(rows)} discrepancies" and len(rows) > 10
    assert all(set(r) == {"creature", "source", "field", "message"} for r in rows)
    zombie = next(r for r in rows if r["creature"] == "gray-render-zombie" and r["field"] == "Hit Dice")
    assert zombie["message"] == "133 hp, but the average of the hit dice is 93: kept 133"
    assert f"{zombie['source']}: gray-render-zombie: Hit Dice: {zombie['message']}" in text
