"""What `arena odds damage` prints: the distribution table (P(damage = d), P(damage >= d)) with one pair of columns
per rule set, each attack's odds and the mean, the chance to drop a foe by round, as percentages or exact fractions
(``--exact``), as JSON (always with the exact fractions) or as a PNG plot."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from arena.cli.common import cell
from arena.cli.common import console as make_console
from arena.cli.common import table as make_table
from arena.cli.odds_sweeps import TRUNCATED
from arena.labels import printable
from arena.rules import Check
from arena.rules.damage_odds import Blow, RoutineOdds


@dataclass(frozen=True)
class Asked:
    """What the command was asked, for the title and the JSON."""

    routine: list[int]
    check: Check
    """The first attack's check (the others differ only in their bonus)."""
    weapon: str
    blow: Blow
    hp: int | None
    rounds: int


def show(results: list[RoutineOdds], asked: Asked, exact: bool, as_json: bool, plot: Path | None) -> None:
    """The plot first (a plot that cannot be written leaves no table), then the tables or the JSON."""
    if plot is not None:
        plot_damage(results, asked, plot)
    if as_json:
        print(json.dumps(as_document(results, asked), indent=2))
    else:
        print_tables(results, asked, exact)
    if plot is not None:
        typer.echo(f"wrote {printable(str(plot), limit=4000)}", err=as_json)


def title(asked: Asked) -> str:
    """Who attacks with what against what: ``+12/+7 by a pc against AC 18: 1d8+5 (19-20/x2), +1d6 fire, DR 5``."""
    check, blow = asked.check, asked.blow
    threat = "20" if check.threat == 20 else f"{check.threat}-20"
    parts = [f"{printable(asked.weapon, limit=60)} ({threat}/x{blow.multiplier})"]
    parts += [printable(str(r), limit=60) for r in blow.riders]
    if blow.reduction:
        parts.append(f"DR {blow.reduction}")
    if blow.miss_chance:
        parts.append(f"concealment {float(blow.miss_chance * 100):g}%")
    routine = "/".join(f"{b:+d}" for b in asked.routine)
    what = "a full routine" if len(asked.routine) > 1 else "an attack"
    hidden = f" (hidden {check.hidden:+d})" if check.hidden else ""
    flat = " (flat-footed)" if check.flat_footed else ""
    return f"damage of {what} {routine}{hidden} by a {check.side} against AC {check.target}{flat}: " + ", ".join(parts)


def shown(p: Fraction, exact: bool) -> str:
    """A probability in a cell: the exact fraction, or a percentage that never shows a possible total as 0% (nor
    an uncertain one as 100%)."""
    if exact:
        return str(p) if p.denominator != 1 else str(p.numerator)
    percent = float(p) * 100
    if 0 < percent < 0.0005:
        return "<0.001%"
    if p < 1 and percent >= 99.9995:
        return ">99.999%"
    return f"{percent:.3f}%"


def print_tables(results: list[RoutineOdds], asked: Asked, exact: bool) -> None:
    """The distribution (the totals some rule set can deal), then each rule set's attacks and mean, then the
    chance to drop the foe by round. Rule sets side by side when their columns fit the console; else (many rule
    sets: --all-variants) one block per rule set, as folded columns of 48 rule sets cannot be read."""
    out = make_console()
    out.print(Text(title(asked)))
    tables = [_distribution(results, exact)]
    if asked.hp is not None:
        tables.append(_drop(results, asked, exact))
    if len(results) == 1 or all(_width(out, t) <= out.width for t in tables):
        out.print(tables[0])
        _print_summary(out, results, exact)
        if asked.hp is not None:
            out.print(Text(_drop_heading(asked)))
            out.print(tables[1])
    else:
        for r in results:
            out.print(Text(f"rules {r.rules.key}:"))
            out.print(_distribution([r], exact))
            if asked.hp is not None:
                out.print(Text(_drop_heading(asked)))
                out.print(_drop([r], asked, exact))
        _print_summary(out, results, exact)
    if any(r.truncated for r in results):
        out.print(TRUNCATED)


def _width(out: Any, table: Any) -> int:
    """The width ``table`` takes unfolded (rich measures it within the console's width unless told otherwise)."""
    return int(out.measure(table, options=out.options.update(width=100_000)).maximum)


def _distribution(results: list[RoutineOdds], exact: bool) -> Any:
    """P(damage = d) and P(damage >= d) for every total some rule set can deal: a pair of columns per rule set."""
    columns = ["damage"]
    for r in results:
        key = r.rules.key
        columns += [f"{key} P(=d)", f"{key} P(>=d)"] if len(results) > 1 else ["P(damage = d)", "P(damage >= d)"]
    t = make_table(None, columns, right=tuple(columns))
    for d in sorted({v for r in results for v in r.damage.support()}):
        cells = [str(d)]
        for r in results:
            cells += [shown(r.damage.p(d), exact), shown(r.damage.at_least(d), exact)]
        t.add_row(*cells)
    return t


def _print_summary(out: Any, results: list[RoutineOdds], exact: bool) -> None:
    """One row per rule set: who rolls, each attack's chance to hit and to critical, the mean damage."""
    summary = make_table(
        None, ["rules", "roller", "hit", "critical", "mean damage"], right=("hit", "critical", "mean damage")
    )
    for r in results:
        summary.add_row(
            cell(r.rules.key),
            r.roller,
            " / ".join(shown(a.hit, exact) for a in r.attacks),
            " / ".join(shown(a.critical, exact) for a in r.attacks),
            str(r.damage.mean()) if exact else f"{float(r.damage.mean()):.3f}",
        )
    out.print(summary)


def _drop_heading(asked: Asked) -> str:
    return f"chance to drop a foe of {asked.hp} hp (to deal {asked.hp} damage or more)"


def _drop(results: list[RoutineOdds], asked: Asked, exact: bool) -> Any:
    """P(the foe drops within k rounds): a column per rule set."""
    names = [r.rules.key for r in results]
    t = make_table(None, ["within", *names], right=tuple(names))
    for k in range(asked.rounds):
        t.add_row(f"{k + 1} round{'s' if k else ''}", *[shown(r.drop[k], exact) for r in results])
    return t


def _entry(p: Fraction) -> dict:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def as_document(results: list[RoutineOdds], asked: Asked) -> dict:
    """The ``--json`` document: what was asked, then per rule set its attacks' odds, the distribution, the mean
    and the drop chances, every probability as a float and an exact fraction."""
    blow = asked.blow
    return {
        "routine": asked.routine,
        "ac": asked.check.target,
        "attacker": asked.check.side,
        "damage": asked.weapon,
        "threat": asked.check.threat,
        "multiplier": blow.multiplier,
        "riders": [{"dice": str(r.dice), "type": r.kind or None, "energy": r.energy} for r in blow.riders],
        "damage_reduction": blow.reduction,
        "concealment": _entry(blow.miss_chance),
        "hp": asked.hp,
        "rounds": asked.rounds if asked.hp is not None else None,
        "rule_sets": [_rule_set(r, asked) for r in results],
    }


def _rule_set(r: RoutineOdds, asked: Asked) -> dict:
    obj: dict = {
        "rules": {"key": r.rules.key, **r.rules.model_dump()},
        "roller": r.roller,
        "attacks": [
            {"bonus": b, "hit": _entry(a.hit), "critical": _entry(a.critical)}
            for b, a in zip(asked.routine, r.attacks, strict=True)
        ],
        "mean_damage": {"value": float(r.damage.mean()), "exact": _entry(r.damage.mean())["exact"]},
        "distribution": [
            {"damage": d, **_entry(r.damage.p(d)), "at_least": _entry(r.damage.at_least(d))} for d in r.damage.support()
        ],
        "drop": [{"rounds": k + 1, **_entry(p)} for k, p in enumerate(r.drop)],
    }
    if r.truncated:
        obj["truncated"] = {
            "error_below": 1e-12,
            "note": "open-ended chains are infinite; followed until the error is below error_below",
        }
    return obj


def plot_damage(results: list[RoutineOdds], asked: Asked, path: Path) -> None:
    """Two panels: P(damage = d) as bars (one rule set) or steps (several), and P(damage >= d), one line per rule
    set, with the foe's hit points marked. PNG, Agg backend."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from arena.study.reports.figures import figure
    from arena.study.reports.text import plot_text

    with figure(path, (12.0, 4.6), ncols=2) as (fig, (left, right)):
        for r in results:
            xs = list(range(min(r.damage.low, 0), r.damage.high + 1))  # every total: an impossible one draws 0
            label = plot_text(r.rules.key)
            equal = [100 * float(r.damage.p(d)) for d in xs]
            at_least = [100 * float(r.damage.at_least(d)) for d in xs]
            if len(results) == 1:
                left.bar(xs, equal, width=0.8, label=label)
            else:
                left.step(xs, equal, where="mid", linewidth=1.2, label=label)
            right.step(xs, at_least, where="post", linewidth=1.4, label=label)
        if asked.hp is not None:
            right.axvline(asked.hp, color="0.3", linestyle="--", linewidth=1, label=f"{asked.hp} hp")
        left.set_ylabel("P(damage = d)")
        right.set_ylabel("P(damage >= d)")
        right.set_ylim(0, 100)
        for ax in (left, right):
            ax.set_xlabel("damage in one round" if len(asked.routine) > 1 else "damage of the attack")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}%"))
            ax.grid(True, alpha=0.3)
            if len(results) > 1 or ax is right and asked.hp is not None:
                ax.legend(fontsize=7 if len(results) <= 8 else 5, ncol=1 if len(results) <= 8 else 2)
        fig.suptitle(plot_text(title(asked), limit=160), fontsize=10)
