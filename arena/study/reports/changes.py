"""The report's tables: each rule set's summary as display strings, and what each rule set changes against the
baseline (paired over the shared encounters, Holm across the rule sets), sorted, with the rule sets that change
nothing marked.

Why a module of its own: these are the numbers the page states, worked out from the encounters and the summary
before any of it is rendered (:mod:`arena.study.reports.report`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from arena.study.reports.measures import MEASURES, Lead, Measure, change_text, unsigned
from arena.study.statistics.comparisons import compare_cells

TABLE_COLUMNS = {
    "rules": "rule set",
    "n": "n",
    "win": "party wins (95% CI)",
    "draw_rate": "draws",
    "rounds": "rounds: mean (median, most)",
    "hp_lost_mean": "party hp lost",
    "pc_deaths_mean": "PC deaths",
    "monster_hit_rate": "monster hit rate",
    "lucky_damage_share": "lucky share of monster damage",
    "note": "note",
}
CHANGE_HEADS = {
    "rules": "rule set",
    "verdict": "what moved (Holm)",
    "win_change": "win rate change, points (interval)",
    "hp_change": "hp lost change, points (interval)",
    "rounds_change": "rounds change (interval)",
    "win": "party wins",
    "note": "note",
}
"""The change table's columns; :func:`change_columns` orders them by the lead measure."""
DEFAULT_BASELINE = "d20"
ALPHA = 0.05


def _pct(x: float) -> str:
    return "-" if pd.isna(x) else f"{unsigned(100 * x)}%"


def table_rows(summary: pd.DataFrame, notes: dict[str, str] | None = None) -> list[dict[str, str]]:
    """The summary as display strings, one dict per rule set (names as they are: escape them for the page)."""
    notes = notes or {}
    numbers = {name: summary[name].to_numpy(float) for name in _SHOWN}
    if "rounds_max" in summary:
        numbers["rounds_max"] = summary["rounds_max"].to_numpy(float)
    counts = summary["n"].to_numpy(int)
    out = []
    for i, rules in enumerate(summary["rules"].astype(str)):
        r = {name: float(column[i]) for name, column in numbers.items()}
        most = r.get("rounds_max", float("nan"))
        out.append(
            {
                "rules": rules,
                "n": f"{int(counts[i]):,}",
                "win": f"{_pct(r['win_rate'])} ({_pct(r['win_low'])}\u2013{_pct(r['win_high'])})",
                "draw_rate": _pct(r["draw_rate"]),
                "rounds": f"{r['rounds_mean']:.2f} ({r['rounds_median']:g}, {most:g})"
                if not pd.isna(most)
                else f"{r['rounds_mean']:.2f} ({r['rounds_median']:g})",
                "hp_lost_mean": _pct(r["hp_lost_mean"]),
                "pc_deaths_mean": "-" if pd.isna(r["pc_deaths_mean"]) else f"{r['pc_deaths_mean']:.2f}",
                "monster_hit_rate": _pct(r["monster_hit_rate"]),
                "lucky_damage_share": _pct(r["lucky_damage_share"]),
                "note": notes.get(rules, ""),
            }
        )
    return out


_SHOWN = (
    "win_rate",
    "win_low",
    "win_high",
    "draw_rate",
    "rounds_mean",
    "rounds_median",
    "hp_lost_mean",
    "pc_deaths_mean",
    "monster_hit_rate",
    "lucky_damage_share",
)
"""The summary's numbers the table shows (:func:`arena.study.statistics.summaries.summarise`)."""


# --------------------------------------------------------------------------------------------- what changed
def baseline_of(keys: list[str], wanted: str | None) -> str:
    """The baseline rule set of a scenario: ``wanted`` (``--baseline``), else standard d20, else the first."""
    if wanted is not None:
        return wanted
    return DEFAULT_BASELINE if DEFAULT_BASELINE in keys else keys[0]


def changes_against(rows: pd.DataFrame, baseline: str, alpha: float = ALPHA) -> pd.DataFrame:
    """Every other rule set of one scenario against ``baseline``: win rate, hit points lost and rounds, paired
    over the shared encounters (:func:`arena.study.statistics.comparisons.compare_cells`: Holm across the rule sets,
    intervals at the level that agrees with each decision). One row per (rule set, metric); empty with one rule
    set."""
    base = rows[rows["rules"] == baseline]
    others = [k for k in dict.fromkeys(rows["rules"].tolist()) if k != baseline]
    if base.empty or not others:
        return pd.DataFrame()
    stacked = pd.concat([base.assign(rules=k) for k in others], ignore_index=True)
    return compare_cells(stacked, rows[rows["rules"] != baseline], alpha=alpha, tolerance=0.0)


def identical_twins(rows: pd.DataFrame) -> dict[str, str]:
    """Rule sets whose every encounter came out exactly as under an earlier rule set of the scenario (same
    winner, rounds and hit points lost, encounter by encounter): ``{rules: earlier rules}``. Such a rule set
    changed nothing for this scenario (e.g. ``+luck`` where nobody presses luck)."""
    seen: dict[int, str] = {}
    twins: dict[str, str] = {}
    order = "index" if "index" in rows else None
    for key, cell in rows.groupby("rules", sort=False):
        cell = cell.sort_values(order) if order else cell
        digest = hash(
            (
                tuple(cell["winner"].astype(str)),
                cell["rounds"].to_numpy(float).tobytes(),
                cell["party_hp_lost"].to_numpy(float).tobytes(),
            )
        )
        if digest in seen:
            twins[str(key)] = seen[digest]
        else:
            seen[digest] = str(key)
    return twins


def change_columns(lead: Lead) -> dict[str, str]:
    """The change table's columns: the rule set, what moved, the changes (the lead measure first), the win rate
    and the note."""
    changes = [m.column for m in lead.order]
    return {key: CHANGE_HEADS[key] for key in ("rules", "verdict", *changes, "win", "note")}


def change_rows(
    changes: pd.DataFrame, summary: pd.DataFrame, baseline: str, notes: dict[str, str], lead: Lead
) -> list[dict[str, str]]:
    """The change table as display strings, the baseline row first, then every rule set sorted by the lead
    measure (the party's best change first: more wins, fewer hit points lost, fewer rounds), ties by the other
    measures in the lead's order, then by key."""
    rate = dict(zip(summary["rules"].astype(str), summary["win_rate"].to_numpy(float), strict=True))
    out = [
        {
            "rules": baseline,
            "verdict": "baseline",
            **{m.column: "" for m in MEASURES},
            "win": _pct(rate.get(baseline, float("nan"))),
            "note": notes.get(baseline, ""),
        }
    ]
    if changes.empty:
        return out
    by = {m: _by_rules(changes, m.metric) for m in MEASURES}
    for key in sorted_rules(changes, lead):
        moved = [m.short for m in lead.order if by[m][key].significant]
        row = {m.column: change_text(m, by[m][key].diff, by[m][key].low, by[m][key].high) for m in MEASURES}
        out.append(
            {
                "rules": key,
                "verdict": ("significant: " + ", ".join(moved)) if moved else "no significant change",
                **row,
                "win": _pct(rate.get(key, float("nan"))),
                "note": notes.get(key, ""),
            }
        )
    return out


def sorted_rules(changes: pd.DataFrame, lead: Lead) -> list[str]:
    """The rule sets of ``changes`` in the page's order: by each measure of ``lead.order`` in turn, the party's
    best change first, then by key (the forest plot draws them in this order too)."""
    by = {m: _by_rules(changes, m.metric) for m in lead.order}
    keys = list(dict.fromkeys(changes["rules"].astype(str)))

    def rank(key: str) -> tuple:
        return (*(_better_first(m, by[m][key].diff) for m in lead.order), key)

    return sorted(keys, key=rank)


def _better_first(measure: Measure, diff: float) -> float:
    if math.isnan(diff):  # no change to rank: last
        return math.inf
    return -diff if measure.higher_is_better else diff


@dataclass(frozen=True)
class _Change:
    """One metric's change of one rule set against the baseline, with its interval and Holm decision."""

    diff: float
    low: float
    high: float
    significant: bool


def _by_rules(changes: pd.DataFrame, metric: str) -> dict[str, _Change]:
    """The changes of one metric, by rule set."""
    rows = changes[changes["metric"] == metric]
    return {
        key: _Change(float(diff), float(low), float(high), bool(significant))
        for key, diff, low, high, significant in zip(
            rows["rules"].astype(str),
            rows["diff"].to_numpy(float),
            rows["low"].to_numpy(float),
            rows["high"].to_numpy(float),
            rows["significant"].to_numpy(bool),
            strict=True,
        )
    }
