"""The SRD 3.5 medians by CR: what the typical monster of each CR is built from by default
(``arena/data/srd35_monster_medians_by_cr.yaml``; :mod:`arena.world.typical`).

``python -m arena.world.typical_tables`` reads every creature of the shipped SRD bestiary (``bestiary/srd/``,
through :func:`arena.world.srd_bestiary.srd_population`) and writes the table; ``--check`` only says whether the
shipped file is what the bestiary gives (a test holds that it is).

Per CR (1/8, 1/6, 1/4, 1/3, 1/2 and 1-20: the ladder of the calibration, whose rungs below 1/2 measure the
low-CR groups of the bell-curve document, its goblin moved from CR 1/2 to 1/3), over the SRD creatures of that CR:

* **Pooling**: a CR with fewer than :data:`MIN_GROUP` creatures is pooled with its neighbours on the bestiary's
  CR scale (the CR before and after it, then two before and after ...; the bestiary's CR 1/10 and 21-27 count as
  neighbours of 1/8 and 20) until the pool holds at least :data:`MIN_GROUP`. CR 1/8-1/3 (2 to 8 creatures each),
  15 and 17-20 are pooled today; the ``pooled`` column names the CRs of each row's pool (CR 1/3's pool, 1/4..1/2,
  is mostly CR 1/2 creatures, so its row is close to 1/2's).
* **Medians** of hit points, AC, touch AC, flat-footed AC, the best attack bonus, Fortitude, Reflex and Will; the
  damage per round of the best full attack (every attack hits, each hit at least 1, energy riders included: the
  Pathfinder table's "average damage", :func:`~arena.world.srd_bestiary.damage_per_round`); the number of attacks
  of that routine (iteratives counted); the highest save DC of the special attacks over the creatures that have one
  (and the share that have one).
* **Primary and lower attacks**: in the best full attack, the attacks at the routine's best bonus are primary; the
  others (secondary natural attacks, iteratives, off-hand) are *lower* attacks. Pooled over the CR's creatures:
  the share of attacks that are lower, and the share of the damage per round they carry; the median over
  creatures that have lower attacks of their mean gap below the best bonus.
* **Monotone fit**: hit points, AC, attack, damage per round, saves and DC are then made non-decreasing in CR by
  pool-adjacent-violators (weighted by each CR's creature count), so a thin CR does not dip below the one before.
  The rows from 1/2 up are fitted alone, as before the rungs below 1/2 were added, so their numbers did not move
  (the published study rests on them); the rows below 1/2 are fitted among themselves and then capped at the
  fitted 1/2 row (:func:`fit_below`: the least-squares non-decreasing fit under that bound), so the whole ladder
  is non-decreasing. Fitted with the rows below, 1/2's Reflex would rise from 2 to 3: the small creatures of 1/8-1/4
  are nimble (raw Reflex +4, touch AC 14) and would pull it up. Hit points, AC and the rest are then rounded to
  whole numbers; the damage per round to the nearest 0.5; shares to 0.01.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from arena.dice import parse as parse_dice
from arena.world.creatures import Creature
from arena.world.srd_bestiary import best_attack, damage_per_round, save_dc, srd_population
from arena.world.stat_types import cr_text

MIN_GROUP = 10
"""A CR with fewer SRD creatures than this is pooled with its neighbours."""

BELOW_HALF: tuple[Fraction, ...] = (Fraction(1, 8), Fraction(1, 6), Fraction(1, 4), Fraction(1, 3))
"""The rungs below CR 1/2, fitted under the 1/2 row (module docstring)."""
TABLE_CRS: tuple[Fraction, ...] = (*BELOW_HALF, Fraction(1, 2), *(Fraction(c) for c in range(1, 21)))

FILE = Path(__file__).resolve().parents[1] / "data" / "srd35_monster_medians_by_cr.yaml"

MONOTONE = ("hp", "ac", "touch_ac", "flat_footed_ac", "attack", "damage_per_round", "fort", "ref", "will", "dc")

COLUMNS = (
    "cr",
    "creatures",
    "pooled",
    "hp",
    "ac",
    "touch_ac",
    "flat_footed_ac",
    "attack",
    "damage_per_round",
    "attacks",
    "lower_attack_share",
    "lower_damage_share",
    "lower_gap",
    "fort",
    "ref",
    "will",
    "dc",
    "with_dc",
)


def _mean(expr: str | None) -> float:
    return parse_dice(expr).mean if expr else 0.0


def best_routine(c: Creature) -> tuple:
    """The routine whose every-attack-hits damage is highest (the one :func:`damage_per_round` counts)."""
    best: tuple = ()
    best_total = -1.0
    for routine in c.full_attack or c.attack:
        total = sum(a.count * len(a.bonuses) * (max(1.0, _mean(a.damage)) + _mean(a.extra_damage)) for a in routine)
        if total > best_total:
            best, best_total = routine, total
    return best


def attack_split(c: Creature) -> dict[str, float]:
    """Of the best full attack: attacks, lower attacks, their damage, total damage and the lower attacks' mean gap."""
    routine = best_routine(c)
    if not routine:
        return {"attacks": 0, "lower": 0, "lower_damage": 0.0, "damage": 0.0, "gap": 0.0}
    top = max(b for a in routine for b in a.bonuses)
    attacks = lower = 0
    damage = lower_damage = gap = 0.0
    for a in routine:
        each = max(1.0, _mean(a.damage)) + _mean(a.extra_damage)
        for b in a.bonuses:
            attacks += a.count
            damage += a.count * each
            if b < top:
                lower += a.count
                lower_damage += a.count * each
                gap += a.count * (top - b)
    return {
        "attacks": attacks,
        "lower": lower,
        "lower_damage": lower_damage,
        "damage": damage,
        "gap": gap / lower if lower else 0.0,
    }


def _pool(cr: Fraction, by_cr: dict[Fraction, list[Creature]]) -> list[Fraction]:
    """The CRs pooled for ``cr``: itself, then neighbours on both sides until :data:`MIN_GROUP` creatures."""
    ladder = sorted(by_cr)
    i = ladder.index(cr) if cr in ladder else 0
    chosen = [cr] if cr in by_cr else []
    step = 1
    while sum(len(by_cr[c]) for c in chosen) < MIN_GROUP and step < len(ladder):
        for j in (i - step, i + step):
            if 0 <= j < len(ladder):
                chosen.append(ladder[j])
        step += 1
    return sorted(chosen)


def raw_rows(creatures: Sequence[Creature]) -> list[dict[str, Any]]:
    """The pooled medians per table CR, before the monotone fit and rounding."""
    by_cr: dict[Fraction, list[Creature]] = {}
    for c in creatures:
        if c.cr is not None:
            by_cr.setdefault(Fraction(c.cr), []).append(c)
    rows = []
    for cr in TABLE_CRS:
        pool = _pool(cr, by_cr)
        group = [c for p in pool for c in by_cr[p]]
        splits = [attack_split(c) for c in group]
        dcs = [d for d in (save_dc(c) for c in group) if d is not None]
        attacks = [a for a in (best_attack(c) for c in group) if a is not None]
        total_attacks = sum(s["attacks"] for s in splits)
        total_damage = sum(s["damage"] for s in splits)
        rows.append(
            {
                "cr": cr_text(cr),
                "creatures": len(group),
                "pooled": cr_text(pool[0]) if len(pool) == 1 else f"{cr_text(pool[0])}..{cr_text(pool[-1])}",
                "hp": statistics.median(c.hp for c in group),
                "ac": statistics.median(c.ac for c in group),
                "touch_ac": statistics.median(c.touch_ac for c in group),
                "flat_footed_ac": statistics.median(c.flat_footed_ac for c in group),
                "attack": statistics.median(attacks),
                "damage_per_round": statistics.median(damage_per_round(c) for c in group),
                "attacks": statistics.median(s["attacks"] for s in splits),
                "lower_attack_share": sum(s["lower"] for s in splits) / total_attacks if total_attacks else 0.0,
                "lower_damage_share": sum(s["lower_damage"] for s in splits) / total_damage if total_damage else 0.0,
                "lower_gap": statistics.median([s["gap"] for s in splits if s["lower"]] or [5.0]),
                "fort": statistics.median(c.saves.fort for c in group),
                "ref": statistics.median(c.saves.ref for c in group),
                "will": statistics.median(c.saves.will for c in group),
                "dc": statistics.median(dcs) if dcs else 10 + float(cr),
                "with_dc": len(dcs) / len(group),
            }
        )
    return rows


def monotone(values: Sequence[float], weights: Sequence[float]) -> list[float]:
    """The weighted least-squares non-decreasing fit (pool-adjacent-violators)."""
    blocks: list[list[float]] = []  # [mean, weight, size]
    for v, w in zip(values, weights, strict=True):
        blocks.append([float(v), float(w), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, n2 = blocks.pop()
            m1, w1, n1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    out: list[float] = []
    for mean, _, size in blocks:
        out.extend([mean] * int(size))
    return out


def fit_below(values: Sequence[float], weights: Sequence[float], bound: float) -> list[float]:
    """The least-squares non-decreasing fit of ``values`` with every value at most ``bound`` (the fitted row above):
    the unbounded fit clipped at the bound, which is the bounded fit's solution for isotonic regression."""
    return [min(v, bound) for v in monotone(values, weights)]


def _half(x: float) -> float:
    return round(x * 2) / 2


def table_rows(creatures: Sequence[Creature]) -> list[dict[str, Any]]:
    """The table as written: pooled medians, monotone fit, rounding (module docstring)."""
    rows = raw_rows(creatures)
    below, upper = rows[: len(BELOW_HALF)], rows[len(BELOW_HALF) :]
    for key in MONOTONE:
        fitted = monotone([r[key] for r in upper], [r["creatures"] for r in upper])
        under = fit_below([r[key] for r in below], [r["creatures"] for r in below], fitted[0])
        for r, v in zip(rows, [*under, *fitted], strict=True):
            r[key] = v
    rounders: dict[str, Callable[[float], Any]] = {
        "damage_per_round": _half,
        "attacks": lambda x: max(1, round(x)),
        "lower_attack_share": lambda x: round(x, 2),
        "lower_damage_share": lambda x: round(x, 2),
        "lower_gap": lambda x: round(x),
        "with_dc": lambda x: round(x, 2),
    }
    for r in rows:
        for key in MONOTONE:
            if key not in rounders:
                r[key] = int(round(r[key] + 1e-9))
        for key, fn in rounders.items():
            r[key] = fn(r[key])
    return rows


HEADER = """\
# SRD 3.5 monster statistics by CR: medians over the shipped SRD bestiary (bestiary/srd/, {count} creatures;
# System Reference Document 3.5, Open Game Content, OGL 1.0a), CR 1/8, 1/6, 1/4, 1/3, 1/2 and 1-20.
# Written by `python -m arena.world.typical_tables` (arena/world/typical_tables.py): do not edit by hand.
# Method (the module docstring says it in full): a CR with fewer than {min_group} creatures is pooled with its
# neighbours (column `pooled`); medians per pool; hp, AC, attack, damage per round, saves and DC are then made
# non-decreasing in CR by a weighted pool-adjacent-violators fit (1/2 and up alone, the rows below 1/2 capped at
# the fitted 1/2 row) and rounded (damage per round to 0.5).
# Columns: creatures in the pool; hp; ac / touch_ac / flat_footed_ac; attack (best attack bonus);
# damage_per_round (best full attack, every attack hits, each hit >= 1, energy riders included); attacks (median
# number of attacks of that routine); lower_attack_share / lower_damage_share (pooled share of the attacks below
# the routine's best bonus -- secondary natural attacks, iteratives, off-hand -- and of the damage they carry);
# lower_gap (median gap of those attacks below the best bonus); fort / ref / will; dc (median highest save DC of
# the special attacks, over the creatures with one; with_dc: the share that have one).
"""


def render(rows: list[dict[str, Any]], count: int) -> str:
    lines = [HEADER.format(count=count, min_group=MIN_GROUP), "rows:\n"]
    for r in rows:
        cells = ", ".join(f'{k}: "{r[k]}"' if k in ("cr", "pooled") else f"{k}: {r[k]}" for k in COLUMNS)
        lines.append(f"  - {{{cells}}}\n")
    return "".join(lines)


def build_text() -> str:
    creatures = srd_population()
    return render(table_rows(creatures), len(creatures))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only say whether the shipped table is up to date")
    parser.add_argument("--out", type=Path, default=FILE)
    args = parser.parse_args(argv)
    text = build_text()
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'up to date' if same else 'OUT OF DATE'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
