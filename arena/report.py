"""`arena report`: a markdown or HTML page with tables and PNG plots (matplotlib, Agg) of a results folder."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from arena.analysis import SUMMARY_COLUMNS, read_encounters, summarise

TABLE_COLUMNS = {
    "rules": "rule set", "n": "n", "win": "party wins (95% CI)", "draw_rate": "draws",
    "rounds": "rounds mean [Q1, median, Q3]", "hp_lost_mean": "party hp lost", "pc_deaths_mean": "PC deaths",
    "monster_hit_rate": "monster hit rate", "lucky_damage_share": "lucky share of monster damage",
}


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "scenario"


def _pct(x: float) -> str:
    return "-" if pd.isna(x) else f"{100 * x:.1f}%"


def table_rows(summary: pd.DataFrame) -> list[dict[str, str]]:
    """The summary as display strings, one dict per rule set."""
    out = []
    for r in summary.itertuples(index=False):
        out.append({
            "rules": r.rules, "n": f"{r.n:,}",
            "win": f"{_pct(r.win_rate)} ({_pct(r.win_low)}-{_pct(r.win_high)})",
            "draw_rate": _pct(r.draw_rate),
            "rounds": f"{r.rounds_mean:.2f} [{r.rounds_q1:g}, {r.rounds_median:g}, {r.rounds_q3:g}]",
            "hp_lost_mean": _pct(r.hp_lost_mean),
            "pc_deaths_mean": "-" if pd.isna(r.pc_deaths_mean) else f"{r.pc_deaths_mean:.2f}",
            "monster_hit_rate": _pct(r.monster_hit_rate), "lucky_damage_share": _pct(r.lucky_damage_share),
        })
    return out


def plot_win_rates(summary: pd.DataFrame, path: Path, title: str) -> None:
    """Win rate by rule set with the 95% Wilson interval as error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = len(summary)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.28 * k))
    y = np.arange(k)[::-1]
    rate = summary["win_rate"].to_numpy()
    err = np.vstack([rate - summary["win_low"].to_numpy(), summary["win_high"].to_numpy() - rate])
    ax.errorbar(rate, y, xerr=err, fmt="o", capsize=3)
    ax.set_yticks(y, summary["rules"].tolist(), fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("party win rate (95% Wilson interval)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_distribution(frame: pd.DataFrame, column: str, order: list[str], path: Path, title: str,
                      label: str) -> None:
    """Box plots of ``column`` by rule set."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = [frame.loc[frame["rules"] == key, column].to_numpy(dtype=float) for key in order]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.28 * len(order)))
    ax.boxplot(data[::-1], orientation="horizontal", showfliers=False)
    ax.set_yticks(np.arange(1, len(order) + 1), order[::-1], fontsize=8)
    ax.set_xlabel(label)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def build_report(results: str | os.PathLike, out: str | os.PathLike | None = None, fmt: str = "md") -> Path:
    """Write the report page and its plots into ``out`` (default ``RESULTS/report``); return the page's path."""
    results = Path(results)
    frame = read_encounters(results, SUMMARY_COLUMNS)
    summary = summarise(frame)
    folder = Path(out) if out is not None else (results if results.is_dir() else results.parent) / "report"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {}
    if (results / "manifest.json").exists():
        try:
            manifest = json.loads((results / "manifest.json").read_text(encoding="utf-8"))
        except ValueError:
            manifest = {}

    sections = []
    for scenario, cells in summary.groupby("scenario", sort=False):
        slug = _slug(str(scenario))
        order = cells["rules"].tolist()
        rows = frame[frame["scenario"] == scenario]
        images = {"win": f"{slug}-win-rate.png", "rounds": f"{slug}-rounds.png", "hp": f"{slug}-hp-lost.png"}
        plot_win_rates(cells, folder / images["win"], f"{scenario}: party win rate")
        plot_distribution(rows, "rounds", order, folder / images["rounds"], f"{scenario}: rounds", "rounds")
        plot_distribution(rows, "party_hp_lost", order, folder / images["hp"], f"{scenario}: party hit points lost",
                          "fraction of the party's hit points lost")
        sections.append((str(scenario), table_rows(cells), images))

    page = folder / f"report.{'html' if fmt == 'html' else 'md'}"
    text = _html(sections, manifest, results) if fmt == "html" else _markdown(sections, manifest, results)
    tmp = page.with_name(page.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, page)
    return page


def _about(manifest: dict, results: Path) -> list[str]:
    lines = [f"Results: `{results}`"]
    if manifest:
        lines.append(f"Run started {manifest.get('started')}, finished {manifest.get('finished')}; "
                     f"{manifest.get('encounters_per_second')} encounters/s; commit {manifest.get('git_commit')}.")
        seeds = manifest.get("seeds") or {}
        if seeds:
            lines.append("Seeds: " + ", ".join(f"{k} = {v}" for k, v in seeds.items())
                         + " (encounter i has the same seed under every rule set).")
    lines.append("Win rates carry 95% Wilson intervals; a lucky hit is a hit whose chance was 25% or less.")
    return lines


def _markdown(sections: list, manifest: dict, results: Path) -> str:
    out = ["# d20 Arena report", ""]
    out += [line + "  " for line in _about(manifest, results)]
    for scenario, rows, images in sections:
        out += ["", f"## {scenario}", ""]
        out.append("| " + " | ".join(TABLE_COLUMNS.values()) + " |")
        out.append("|" + "|".join("---" if k == "rules" else "---:" for k in TABLE_COLUMNS) + "|")
        for row in rows:
            out.append("| " + " | ".join(f"`{row[k]}`" if k == "rules" else row[k] for k in TABLE_COLUMNS) + " |")
        out += ["", f"![win rate by rule set]({images['win']})", "",
                f"![rounds by rule set]({images['rounds']})", "",
                f"![party hit points lost by rule set]({images['hp']})"]
    return "\n".join(out) + "\n"


def _html(sections: list, manifest: dict, results: Path) -> str:
    esc = html.escape
    out = ["<!doctype html>", "<html><head><meta charset='utf-8'><title>d20 Arena report</title>",
           "<style>body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{text-align:left}</style>",
           "</head><body>", "<h1>d20 Arena report</h1>"]
    out += [f"<p>{esc(line.replace('`', ''))}</p>" for line in _about(manifest, results)]
    for scenario, rows, images in sections:
        out.append(f"<h2>{esc(scenario)}</h2><table><tr>"
                   + "".join(f"<th>{esc(h)}</th>" for h in TABLE_COLUMNS.values()) + "</tr>")
        for row in rows:
            out.append("<tr>" + "".join(f"<td>{esc(row[k])}</td>" for k in TABLE_COLUMNS) + "</tr>")
        out.append("</table>")
        for key, alt in (("win", "win rate by rule set"), ("rounds", "rounds by rule set"),
                         ("hp", "party hit points lost by rule set")):
            out.append(f"<p><img src='{esc(images[key])}' alt='{esc(alt)}'></p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
