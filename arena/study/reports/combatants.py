"""Results per combatant (issue 27): which PC went down, how often, with how many hit points left, and each monster
kind's damage dealt, from a run's ``combatants.parquet``: the tables `arena run` prints and the report's section.

Why a module of its own: what designers ask of every combat simulator (which character needs help) is a question of
its own, with its own table; the report's page only places the section this module writes
(:func:`add_sections`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from arena.study.reports.text import html_text, md_text
from arena.study.runs.combatant_tables import read_combatants

PC_COLUMNS = {
    "name": "PC",
    "fights": "fights",
    "went_down": "went down",
    "died": "died",
    "hp_left": "hp left (mean)",
    "hp_max": "hp max",
    "damage_dealt": "damage dealt (mean)",
}
MONSTER_COLUMNS = {
    "kind": "monster",
    "per_fight": "per fight",
    "damage_dealt": "damage dealt (mean, each)",
    "went_down": "went down",
    "died": "died",
}


def _pcs(frame: pd.DataFrame) -> pd.DataFrame:
    """The PC rows, each PC under a name of its own: PCs that share a name in a fight (a party of two fighter-5s;
    only monsters are numbered by the fight) are told apart in their order, ``fighter-5 (1)``, ``fighter-5 (2)``."""
    pcs = frame[frame["side"] == "pc"]
    fight = [pcs["scenario"], pcs["rules"], pcs["index"], pcs["name"]]
    shared = (
        (pcs.groupby(fight, sort=False)["name"].transform("size") > 1)
        .groupby([pcs["scenario"], pcs["name"]], sort=False)
        .transform("any")
    )
    if not shared.any():
        return pcs
    nth = pcs.groupby(fight, sort=False).cumcount() + 1
    return pcs.assign(name=pcs["name"].where(~shared, pcs["name"] + " (" + nth.astype(str) + ")"))


def pc_summary(frame: pd.DataFrame, by: tuple[str, ...] = ("scenario",)) -> pd.DataFrame:
    """One row per PC (within ``by``): in how many fights it fought, the share of them it went down in and died in,
    its mean hit points left (0 for the dead and the dying, as ``party_hp_lost`` counts them), its hit points and its
    mean damage dealt. In the order the PCs first appear."""
    pcs = _pcs(frame)
    grouped = pcs.groupby([*by, "name"], sort=False)
    out = grouped.agg(
        fights=("index", "size"),
        went_down=("went_down", "mean"),
        died=("died", "mean"),
        hp_left=("hp_left", "mean"),
        hp_max=("hp_max", "mean"),
        damage_dealt=("damage_dealt", "mean"),
    )
    return out.reset_index()


def monster_summary(frame: pd.DataFrame, by: tuple[str, ...] = ("scenario",)) -> pd.DataFrame:
    """One row per monster kind (its stat block's name, within ``by``): how many of it a fight had on average, the
    mean damage each dealt, and the share of them that went down and died."""
    monsters = frame[frame["side"] == "monster"]
    keys = list(by)
    fights = frame.drop_duplicates(list(dict.fromkeys([*keys, "rules", "index"]))).groupby(keys, sort=False).size()
    grouped = monsters.groupby([*keys, "kind"], sort=False)
    out = grouped.agg(
        creatures=("index", "size"),
        damage_dealt=("damage_dealt", "mean"),
        went_down=("went_down", "mean"),
        died=("died", "mean"),
    ).reset_index()
    out = out.join(fights.rename("fights"), on=keys)
    out["per_fight"] = out["creatures"] / out["fights"]
    return out


def _percent(value: Any) -> str:
    """A share as a percentage; ``-`` where there is none (a summoned ally absent under a rule set)."""
    return "-" if pd.isna(value) else f"{100 * float(value):.1f}%"


def _count(value: Any) -> str:
    """A mean count in plain numbers, ``100`` and ``10.5`` (two significant digits printed ``1e+02`` and ``10``)."""
    return f"{round(float(value), 2):g}"


def _cells(row: Any, columns: dict[str, str]) -> list[str]:
    shown = []
    for key in columns:
        value = row[key]
        if key in ("went_down", "died"):
            shown.append(_percent(value))
        elif key in ("hp_left", "damage_dealt", "per_fight"):
            shown.append(f"{value:.1f}")
        elif key in ("hp_max", "fights"):
            shown.append(f"{value:.0f}")
        else:
            shown.append(str(value))
    return shown


def terminal_lines(frame: pd.DataFrame) -> list[str]:
    """What `arena run` prints after a run: for each scenario (every rule set of its grid together), each PC's share
    of fights it went down and died in and its mean hit points left, and each monster kind's mean damage dealt."""
    from arena.labels import printable

    lines: list[str] = []
    pcs, monsters = pc_summary(frame), monster_summary(frame)
    for scenario, own in pcs.groupby("scenario", sort=False):
        rule_sets = frame.loc[frame["scenario"] == scenario, "rules"].nunique()
        together = f", its {rule_sets} rule sets together" if rule_sets > 1 else ""
        lines.append(f"{printable(scenario)} (per combatant{together}):")
        for row in own.itertuples(index=False):
            lines.append(
                f"  {printable(row.name)}: went down in {_percent(row.went_down)} of {row.fights:,} fights, died in "
                f"{_percent(row.died)}, {row.hp_left:.1f} of {row.hp_max:.0f} hp left on average"
            )
        for row in monsters[monsters["scenario"] == scenario].itertuples(index=False):
            lines.append(
                f"  {printable(row.kind)} (x{_count(row.per_fight)}): {row.damage_dealt:.1f} damage dealt each on "
                f"average, went down {_percent(row.went_down)}, died {_percent(row.died)}"
            )
    return lines


INTRO = (
    "Under {baseline}: the share of fights each PC went down in (dying, dead, unconscious or taken out by a "
    "condition, at any time) and died in, its mean hit points left at the end (0 for the dead and the dying), and "
    "each monster kind's mean damage dealt per creature. Which character needs help is the one that goes down most."
)


def _markdown(scenario_rows: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None], baseline: str) -> str:
    pcs, monsters, by_rules = scenario_rows
    lines = ["", "", "### Per combatant", "", INTRO.format(baseline=md_text(baseline)), ""]
    for table, columns in ((pcs, PC_COLUMNS), (monsters, MONSTER_COLUMNS)):
        lines.append("| " + " | ".join(columns.values()) + " |")
        lines.append("|" + "".join("---|" if key in ("name", "kind") else "---:|" for key in columns))
        lines += ["| " + " | ".join(md_text(c) for c in _cells(row, columns)) + " |" for _, row in table.iterrows()]
        lines.append("")
    if by_rules is not None:
        lines.append("Went down, by rule set:")
        lines.append("")
        lines.append("| rule set | " + " | ".join(md_text(c) for c in by_rules.columns) + " |")
        lines.append("|---|" + "---:|" * len(by_rules.columns))
        for rules, row in by_rules.iterrows():
            lines.append(f"| {md_text(rules)} | " + " | ".join(_percent(v) for v in row) + " |")
    return "\n".join(lines).rstrip("\n")


KEY = ' class="key"'


def _html(scenario_rows: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None], baseline: str) -> str:
    pcs, monsters, by_rules = scenario_rows
    parts = ["<h3>Per combatant</h3>", f"<p>{INTRO.format(baseline=f'<code>{html_text(baseline)}</code>')}</p>"]
    for table, columns in ((pcs, PC_COLUMNS), (monsters, MONSTER_COLUMNS)):
        head = "".join(f"<th{KEY if k in ('name', 'kind') else ''}>{v}</th>" for k, v in columns.items())
        body = "".join(
            "<tr>"
            + "".join(f"<td{KEY if i == 0 else ''}>{html_text(c)}</td>" for i, c in enumerate(_cells(row, columns)))
            + "</tr>"
            for _, row in table.iterrows()
        )
        parts.append(f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>')
    if by_rules is not None:
        head = '<th class="key">rule set</th>' + "".join(f"<th>{html_text(c)}</th>" for c in by_rules.columns)
        body = "".join(
            f'<tr><td class="key">{html_text(rules)}</td>' + "".join(f"<td>{_percent(v)}</td>" for v in row) + "</tr>"
            for rules, row in by_rules.iterrows()
        )
        parts.append(f'<p>Went down, by rule set:</p><div class="scroll"><table><tr>{head}</tr>{body}</table></div>')
    return "\n".join(parts)


def add_sections(results: Path, sections: list[dict[str, Any]], fmt: str) -> None:
    """Give each scenario's section of the report its ``combatants`` part (markdown or HTML text, every name
    escaped), or ``""`` when the run wrote no combatants table."""
    frame = read_combatants(results)
    for section in sections:
        section["combatants"] = ""
        if frame is None:
            continue
        rows = frame[frame["scenario"] == section["name"]]
        base = rows[rows["rules"] == section["baseline"]]
        if base.empty:
            continue
        pcs, monsters = pc_summary(base), monster_summary(base)
        by_rules = None
        if rows["rules"].nunique() > 1:
            pc_rows = _pcs(rows)
            by_rules = pc_rows.pivot_table(
                index="rules", columns="name", values="went_down", aggfunc="mean", sort=False
            )
            by_rules = by_rules[list(dict.fromkeys(pc_rows["name"]))]
        shown = (pcs, monsters, by_rules)
        section["combatants"] = (
            _html(shown, section["baseline"]) if fmt == "html" else _markdown(shown, section["baseline"])
        )
