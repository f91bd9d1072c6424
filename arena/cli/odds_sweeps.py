"""A sweep of attack odds over a range of AC or attack bonus (`arena odds attack --ac 15..25`): one row per value
and rule set with the expected damage, printed as a table or drawn as a line plot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.cli.common import cell
from arena.cli.common import console as make_console
from arena.cli.common import table as make_table
from arena.cli.progress import Progress
from arena.errors import ArenaError, RulesError
from arena.labels import printable
from arena.rules import Check, RuleSet, odds

TRUNCATED = "Open-ended chains are infinite: computed to a depth whose error is below 1e-12."
"""The note under a table with an open-ended (truncated) chain."""


def sweep_rows(
    check: Check,
    rule_sets: list[RuleSet] | None,
    acs: list[int],
    routines: list[list[int]],
    damage: str | None = None,
    progress: Progress | None = None,
) -> list[dict]:
    """One row per AC, routine and rule set (``None``: every single-roll rule set that allows the check): the odds
    object of ``arena odds attack --json`` with the ``ac`` and ``bonus`` (the routine's first) in front and, with
    ``damage``, the expected damage per attack and per full routine."""
    mean = None
    if damage is not None:
        from arena.dice import parse

        try:
            mean = parse(damage).mean
        except ArenaError as err:
            raise ArenaError(f"--damage: {err}") from None
    candidates = odds.kernel_variants() if rule_sets is None else rule_sets
    rows = []
    for ac in acs:
        for bonuses in routines:
            first = check._replace(modifier=bonuses[0], target=ac)
            for rules in candidates:
                try:
                    obj = odds.odds_object(first, rules)
                except RulesError:
                    if rule_sets is None:  # --all-variants: the rule sets that refuse the check are left out
                        continue
                    raise
                row: dict[str, Any] = {"ac": ac, "bonus": bonuses[0]}
                if len(bonuses) > 1:
                    row["routine"] = bonuses
                row.update(obj)
                if mean is not None:
                    row["expected_damage"] = _expected(first, rules, damage, mean, bonuses)
                rows.append(row)
                if progress is not None:
                    progress.advance()
    if not rows:
        raise RulesError("no rule set allows this check")
    return rows


def _expected(check: Check, rules: RuleSet, damage: str, mean: float, bonuses: list[int]) -> dict:
    """Expected damage per attack and per full attack routine, criticals included."""
    per = [odds.expected_damage(check._replace(modifier=b), rules, mean) for b in bonuses]
    return {
        "damage": damage,
        "mean_damage": mean,
        "per_attack": dict(zip([f"{b:+d}" for b in bonuses], per, strict=True)),
        "per_routine": sum(per),
    }


def _percent(row: dict, name: str) -> str:
    entry = row["outcomes"].get(name)
    return "-" if entry is None else f"{entry['p'] * 100:.3f}%"


def print_rows(rows: list[dict], title: str, swept: str | None) -> None:
    """The sweep as a table: one row per value (and rule set), hit, threat and critical chance, expected damage."""
    keys = list(dict.fromkeys(r["rules"]["key"] for r in rows))
    damage = "expected_damage" in rows[0]
    routine = any("routine" in r for r in rows)
    columns = ([] if swept is None else ["AC" if swept == "ac" else "bonus"]) + [
        "rules",
        "roller",
        "hit",
        "threat",
        "critical",
    ]
    if damage:
        columns += ["damage per attack", "per routine"] if routine else ["expected damage"]
    t = make_table(
        title,
        columns,
        right=("AC", "bonus", "hit", "threat", "critical", "damage per attack", "per routine", "expected damage"),
    )
    last = None
    for r in rows:
        value = r["ac"] if swept == "ac" else r["routine"] if swept and "routine" in r else r["bonus"]
        if len(keys) > 1 and swept is not None and last is not None and value != last:
            t.add_section()
        last = value
        cells = (
            []
            if swept is None
            else [
                str(value)
                if swept == "ac"
                else "/".join(f"{b:+d}" for b in (value if isinstance(value, list) else [value]))
            ]
        )
        cells += [
            cell(r["rules"]["key"]),
            r["roller"],
            _percent(r, "hit"),
            _percent(r, "threat"),
            _percent(r, "critical"),
        ]
        if damage:
            e = r["expected_damage"]
            if routine:
                cells += [" / ".join(f"{v:.2f}" for v in e["per_attack"].values()), f"{e['per_routine']:.2f}"]
            else:
                cells.append(f"{e['per_routine']:.2f}")
        t.add_row(*cells)
    out = make_console()
    out.print(t)
    if damage:
        e = rows[0]["expected_damage"]
        out.print(
            f"expected damage: {printable(e['damage'], limit=80)} (mean {e['mean_damage']:g}) a hit, x"
            f"{rows[0]['check']['multiplier']} on a critical"
        )
    if any("truncated" in r for r in rows):
        out.print(TRUNCATED)


def plot_rows(rows: list[dict], path: Path, swept: str, title: str) -> None:
    """A line plot of the sweep: x the swept AC or bonus, y the hit chance (and, with --damage, a second panel of
    the expected damage per full routine), one line per rule set, axes scaled to the data. PNG, Agg backend."""
    import numpy as np
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from arena.study.reports.figures import data_limits, figure
    from arena.study.reports.text import plot_text

    keys = list(dict.fromkeys(r["rules"]["key"] for r in rows))
    damage = "expected_damage" in rows[0]
    routine = any("routine" in r for r in rows)
    panels = 2 if damage else 1
    with figure(path, (6.5 * panels, 4.4), ncols=panels) as (fig, axes):
        axes = list(np.atleast_1d(axes))
        hits_all, damage_all = [], []
        for key in keys:
            mine = [r for r in rows if r["rules"]["key"] == key]
            xs = [r[swept] for r in mine]
            hits = [100 * r["outcomes"].get("hit", {"p": 0.0})["p"] for r in mine]
            hits_all += hits
            axes[0].plot(xs, hits, marker="o", markersize=3, linewidth=1.4, label=plot_text(key))
            if damage:
                spent = [r["expected_damage"]["per_routine"] for r in mine]
                damage_all += spent
                axes[1].plot(xs, spent, marker="o", markersize=3, linewidth=1.4, label=plot_text(key))
        label = "target AC" if swept == "ac" else "attack bonus (the routine's first)"
        axes[0].set_ylim(*data_limits(np.array(hits_all), np.array(hits_all), 0.0, 100.0, least=1.0))
        axes[0].set_ylabel("hit chance (the routine's first attack)" if routine else "hit chance")
        axes[0].yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}%"))
        if damage:
            axes[1].set_ylim(*data_limits(np.array(damage_all), np.array(damage_all), 0.0, None, least=0.1))
            axes[1].set_ylabel("expected damage per full routine" if routine else "expected damage per attack")
        for ax in axes:
            ax.set_xlabel(label)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.grid(True, alpha=0.3)
            if len(keys) > 1:
                ax.legend(fontsize=7 if len(keys) <= 8 else 5, ncol=1 if len(keys) <= 8 else 2)
        fig.suptitle(plot_text(title, limit=120), fontsize=10)
