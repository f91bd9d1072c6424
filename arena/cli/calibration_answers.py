"""`arena calibrate`'s answer in words: one sentence per party level, monster and group size, naming the stated CR,
the equivalent CR under each rule set with its interval, and a verdict; saturated and off-ladder answers are said as
the bounds they are, never as a number that looks exact.

Why a module of its own: the calibration's table is numbers for a reader who knows the method; these sentences are
for the designer who asked "is my monster really CR 4?", and their wording is tested to the character.

A calibration's row is *saturated* when the calibration says so (its ``saturated`` columns: the party loses at
least 95% of its hit points on average and so do the ladder's typical monsters of a stretch of rungs, or it spends
nothing and so do the ladder's lowest rungs: :mod:`arena.study.calibration.censored`): any CR in that stretch fits
as well as c*. A table without those columns (an older calibration's) is read by its difficulty at the metric's end,
the stretch read back from c* (its middle) and the ladder's end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from arena.labels import printable

SATURATED_BOTTOM = {
    "resources": "the party spends none of its resources in any fight",
    "hp-lost": "the party loses no hit points in any fight",
    "win": "the party wins every fight",
    "death": "no PC dies in any fight",
}
WIPED = "the party loses 95% or more of its hit points on average"
"""Why an answer saturates at the top: the calibration's own test (:data:`censored.SATURATED`)."""
HINT = (
    "A saturated or off-ladder answer is only a bound: for a number, calibrate a group of another size (--sizes), "
    "against another party (--party-level) or by another --metric."
)


def cr_text(x: float) -> str:
    """A ladder position for a sentence, as a CR (:func:`arena.study.calibration.equivalent_cr.cr_text`): to one
    decimal from CR 1 up, and below CR 1 the CR between its two rungs' CRs (position 0.5, halfway from 1/2 to 1, is
    "0.75", not "0.5", which a reader takes for CR 1/2)."""
    from arena.study.calibration.equivalent_cr import cr_text as as_cr

    return as_cr(x, decimals=1)


def ladder_ends(row: Mapping[str, Any]) -> tuple[float, float]:
    """The ladder's lowest and highest positions, from the table's ``ladder`` column ("1..9", "1/8..4")."""
    from arena.study.calibration.equivalent_cr import ladder_position

    low, high = str(row["ladder"]).split("..")
    return ladder_position(low), ladder_position(high)


@dataclass(frozen=True)
class Reading:
    """One rule set's equivalent CR as the sentence tells it."""

    rules: str
    c_star: float
    low: float
    high: float
    """The 95% interval of c* (NaN when the table does not hold it: d20 read from another rule set's row)."""
    kind: str
    """``""`` (a number), ``saturated-top``, ``saturated-bottom``, ``above`` or ``below`` (off the ladder)."""
    stretch: tuple[float, float]
    """The rungs that fit a saturated answer as well as c* (its flat stretch; the ladder's ends otherwise)."""


def reading(
    rules: str,
    c_star: float,
    low: float,
    high: float,
    difficulty: float,
    flag: str,
    ends: tuple[float, float],
    saturated: tuple[str, float, float] | None = None,
) -> Reading:
    """What one rule set's numbers say: a number, a saturated stretch or a side off the ladder. ``saturated``: the
    calibration's own ("top" | "bottom" | "", first rung, last rung); None reads it from the difficulty."""
    bottom, top = ends
    if saturated is not None:  # a saturated answer matches its stretch of rungs, whatever the metric's c* says
        side, first, last = saturated
        if side == "top":
            return Reading(rules, c_star, low, high, "saturated-top", (first, top))
        if side == "bottom":
            return Reading(rules, c_star, low, high, "saturated-bottom", (bottom, last))
    if flag in ("above", "below"):
        return Reading(rules, c_star, low, high, flag, ends)
    if saturated is not None:
        return Reading(rules, c_star, low, high, "", ends)
    if difficulty >= 1:
        return Reading(rules, c_star, low, high, "saturated-top", (2 * c_star - top, top))
    if difficulty <= 0:
        return Reading(rules, c_star, low, high, "saturated-bottom", (bottom, 2 * c_star - bottom))
    return Reading(rules, c_star, low, high, "", ends)


def row_reading(row: Mapping[str, Any]) -> Reading:
    """The reading of a table row's own rule set."""
    return reading(
        str(row["rules"]),
        float(row["c_star"]),
        float(row["c_star_low"]),
        float(row["c_star_high"]),
        float(row["difficulty"]),
        _own_flag(row, float(row["c_star"])),
        ladder_ends(row),
        _saturated(row, "saturated"),
    )


def d20_reading(row: Mapping[str, Any]) -> Reading:
    """d20's reading from another rule set's row (its c* without an interval), when the table has no d20 row."""
    c = float(row["c_star_d20"])
    return reading(
        "d20",
        c,
        math.nan,
        math.nan,
        float(row["difficulty_d20"]),
        _own_flag(row, c),
        ladder_ends(row),
        _saturated(row, "saturated_d20"),
    )


def _saturated(row: Mapping[str, Any], column: str) -> tuple[str, float, float] | None:
    """The calibration's saturation of a row's rule set (``saturated``) or of d20 (``saturated_d20``), if it has it."""
    if column not in row:
        return None
    side = row[column]
    side = "" if not isinstance(side, str) else side
    return side, _position(row[f"{column}_from"]), _position(row[f"{column}_to"])


def _position(value: Any) -> float:
    """A rung of a saturated stretch; NaN for none (an empty cell of a calibration.csv read back as text)."""
    return math.nan if value is None or value == "" else float(value)


def _own_flag(row: Mapping[str, Any], c_star: float) -> str:
    """A row's ``censored`` flag is its rule set's or d20's: it is this c*'s only when c* sits at that end."""
    flag = str(row["censored"] or "")
    bottom, top = ladder_ends(row)
    if (flag == "below" and c_star == bottom) or (flag == "above" and c_star == top):
        return flag
    return ""


def verdict(r: Reading, stated: float) -> str:
    """Harder than its CR, easier, or its CR fits: the stated CR against the interval (or the saturated stretch)."""
    if r.kind == "above":
        return "harder than its CR"
    if r.kind == "below":
        return "easier than its CR"
    low, high = r.stretch if r.kind else (r.low, r.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        low = high = r.c_star
    if stated < low - 1e-9:
        return "harder than its CR"
    if stated > high + 1e-9:
        return "easier than its CR"
    return "its CR fits"


def clause(r: Reading, metric: str) -> tuple[str, str]:
    """(what it plays like, why that is only a bound): "like CR 6.7 [6.5, 6.9]" and "", or a saturated or
    off-ladder answer's bound and its reason in words."""
    bottom, top = r.stretch
    if r.kind == "above":
        return f"like more than CR {cr_text(top)}", f"off the ladder, whose top is CR {cr_text(top)}"
    if r.kind == "below":
        return f"like less than CR {cr_text(bottom)}", f"off the ladder, whose bottom is CR {cr_text(bottom)}"
    rungs = f"as against the typical monsters of every CR from {cr_text(bottom)} to {cr_text(top)}"
    if r.kind == "saturated-top":
        why = WIPED  # saturation is read from hit points whatever the metric (censored.SATURATED)
        return f"like CR {cr_text(bottom)} or higher", f"saturated: {why}, {rungs}"
    if r.kind == "saturated-bottom":
        why = SATURATED_BOTTOM.get(metric, "every fight is the easiest")
        return f"like CR {cr_text(top)} or lower", f"saturated: {why}, {rungs}"
    if math.isfinite(r.low) and math.isfinite(r.high):
        return f"like CR {cr_text(r.c_star)} [{cr_text(r.low)}, {cr_text(r.high)}]", ""
    return f"like CR {cr_text(r.c_star)}", ""


def note(row: Mapping[str, Any]) -> str:
    """The table's note column: saturated with the CRs that fit as well, or off the ladder."""
    r = row_reading(row)
    if r.kind.startswith("saturated"):
        return f"saturated: any CR {cr_text(r.stretch[0])} .. {cr_text(r.stretch[1])} fits"
    if row["censored"]:
        return f"off the ladder ({row['censored']})"
    return ""


def _readings(rows: Sequence[Mapping[str, Any]]) -> list[Reading]:
    """Every rule set of one cell, d20 first (from its own row when the table has one)."""
    own = {str(r["rules"]): r for r in rows}
    first = row_reading(own["d20"]) if "d20" in own else d20_reading(rows[0])
    return [first, *(row_reading(r) for key, r in own.items() if key != "d20")]


def _subject(monster: str, cr: str, size: int) -> tuple[str, str, str]:
    """(who, verb, what it is compared with) for a group of ``size``."""
    name = f"{printable(monster)} (CR {printable(cr)})"
    if size == 1:
        return name, "plays", ""
    return f"{size} x {name}", "play", f"{size} x "


def sentence(rows: Sequence[Mapping[str, Any]], metric: str) -> str:
    """One cell's answer: the subject, d20's reading first, then each other rule set's, each with its verdict (and
    why a bound is only a bound, said once when the next rule set's is the same)."""
    from arena.study.calibration.equivalent_cr import ladder_position

    first = rows[0]
    who, verb, group = _subject(str(first["monster"]), str(first["cr"]), int(first["size"]))
    stated = ladder_position(str(first["cr"]))
    parts = []
    readings = _readings(rows)
    for i, r in enumerate(readings):
        said, why = clause(r, metric)
        if i > 0 and r.kind and (r.kind, r.stretch) == (readings[0].kind, readings[0].stretch):
            why = why.split(",")[0].split(":")[0] + " too"
        judged = f"({verdict(r, stated)}; {why})" if why else f"({verdict(r, stated)})"
        if i == 0:
            said = said.replace("CR ", f"{group}CR ", 1)  # "like 6 x CR 4", "like more than 6 x CR 8"
            parts.append(
                f"{who} {verb} {said} against a level-{first['party_level']} party under {printable(r.rules)} {judged}"
            )
        else:
            parts.append(f"under {printable(r.rules)} {said} {judged}")
    return "; ".join(parts) + "."


def cells(table: pd.DataFrame) -> Iterable[list[dict]]:
    """The table's rows grouped by party level, monster and group size, in the table's order."""
    groups: dict[tuple, list[dict]] = {}
    for row in table.to_dict("records"):
        groups.setdefault((row["party_level"], row["monster"], row["size"]), []).append(row)
    return groups.values()


def answers(table: pd.DataFrame, metric: str) -> list[str]:
    """One sentence per cell of a calibration's table, and the hint once when any answer is only a bound."""
    out = []
    bounded = False
    for rows in cells(table):
        out.append(sentence(rows, metric))
        bounded = bounded or any(r.kind for r in _readings(rows))
    return [*out, HINT] if bounded else out


def population_summary(table: pd.DataFrame, monster: str | None) -> pd.DataFrame:
    """Per group size and rule set, the SRD creatures' median equivalent CR with their range (and their median
    Delta-CR), how many of them are only a bound, and where ``monster`` (yours, calibrated beside them) falls."""
    rows = []
    srd = table[table["monster"] != monster] if monster is not None else table
    for (size, rules), group in srd.groupby(["size", "rules"], sort=False):
        readings = [row_reading({str(k): v for k, v in r.items()}) for r in group.to_dict("records")]
        row = {
            "size": size,
            "rules": rules,
            "median c*": float(group["c_star"].median()),
            "c* min": float(group["c_star"].min()),
            "c* max": float(group["c_star"].max()),
            "median delta": float(group["delta"].median()),
            "min": float(group["delta"].min()),
            "max": float(group["delta"].max()),
            "creatures": len(group),
            "bounds only": sum(1 for r in readings if r.kind),
        }
        if monster is not None:
            mine = table[(table["monster"] == monster) & (table["size"] == size) & (table["rules"] == rules)]
            c = float(mine["c_star"].iloc[0])
            row[f"{monster} c*"] = c
            row["harder than"] = int((group["c_star"] < c - 1e-9).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def population_sentences(summary: pd.DataFrame, cr: str, level: int, monster: str | None) -> list[str]:
    """One sentence per group size: the SRD creatures' median equivalent CR under each rule set, d20 first."""
    out = []
    for size, group in summary.groupby("size", sort=False):
        records = sorted(group.to_dict("records"), key=lambda r: r["rules"] != "d20")
        parts = []
        for i, r in enumerate(records):
            said = f"like CR {cr_text(r['median c*'])} (median; {cr_text(r['c* min'])} to {cr_text(r['c* max'])})"
            if r["bounds only"]:
                said += f", {r['bounds only']} of them only a bound (saturated or off the ladder)"
            if monster is not None:
                said += f", {printable(monster)} harder than {r['harder than']} of them"
            if i == 0:
                who = f"the {r['creatures']} SRD creatures of CR {printable(cr)}"
                who = who if size == 1 else f"{who} in groups of {size}"
                parts.append(f"Against a level-{level} party under {printable(str(r['rules']))} {who} play {said}")
            else:
                parts.append(f"under {printable(str(r['rules']))} {said}")
        out.append("; ".join(parts) + ".")
    return out
