"""The baseline against the standard game (issue 24): the DMG anchor fought again with the causes of the PC deaths,
the typical monster of both tables beside the SRD creatures, and a check of the EL system itself.

``arena dmg-baseline`` (:mod:`arena.cli.model_cmds`) runs :func:`run_baseline` and writes :func:`markdown`.

**Cells** (party level L in :data:`LEVELS`, standard d20, the default fight model):

* the DMG anchor, EL = L: one monster of CR L; two of CR L-2; four of CR L-4 (where the CR exists, 1/2 and up);
* the EL check, EL = L+4: four monsters of CR L against one of CR L+4 (CR 20 at most). The DMG gives both the
  same EL, so a model that fights them alike puts the same strain on the party; a large gap is either the engine
  (how it fights groups) or the EL rule (what four CR L monsters are worth), and the SRD medians decide which:
  :func:`paper_check` sets the two sides' hit points and damage per round from the SRD 3.5 medians by CR,
  without a fight.

**Populations**: ``typical`` (the typical monster from the SRD 3.5 medians, ``typical-crN``), ``typical-pf`` (the
Pathfinder table's, ``typical-pf-crN``) and ``srd`` (:func:`~arena.study.claims.design.srd_monsters`: ``k``
fully modelled SRD creatures of the CR, a random sample with its seed in the code).

**Measures** per matchup: hit points lost (% of the party's), spells cast (% of the party's slots), resources (their
mean: the DMG's "about 20%" for an EL = L encounter), fights with a PC death (%), PC deaths per fight and their
causes (``pc_deaths_<cause>`` of the record: ordinary damage, massive damage, coup de grace, save-or-die effect,
drain), PCs removed alive (petrified, swallowed, another lasting condition) per fight, PCs dropped per fight, party
win %, and the share of the monsters' hit points the party dealt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pandas as pd

from arena.combat.model import ModelOptions
from arena.combat.record import DEATH_FIELDS, REMOVED_FIELDS
from arena.study.claims import design
from arena.study.reports.text import md_table as text_table
from arena.study.runs.matchups import KEEP, Matchup, run_batch

LEVELS = design.LEVELS
POPULATIONS = ("typical", "typical-pf", "srd")
CAUSES = tuple(name.removeprefix("pc_deaths_") for name in DEATH_FIELDS)
BASELINE_KEEP = (*KEEP, "damage_party", "monsters_killed", *[k for k in REMOVED_FIELDS if k not in KEEP])
START, END = "<!-- dmg-baseline:start -->", "<!-- dmg-baseline:end -->"
"""The generated part of docs/dmg-baseline.md lies between these: a rerun replaces it and keeps the prose around."""


@dataclass(frozen=True)
class Cell:
    level: int
    cr: Fraction
    size: int
    check: str
    """``anchor`` (EL = L) or ``el+4`` (EL = L+4)."""

    @property
    def label(self) -> str:
        from arena.world.challenge import format_cr

        return f"{self.size} x CR {format_cr(self.cr)}"


def position_cr(position: int) -> Fraction | None:
    """The CR at a ladder position from 1/2 up (:func:`arena.study.claims.design.position_cr`): the Pathfinder
    table, one of the baseline's populations, has no rungs below 1/2, and the baseline stays as published."""
    return design.position_cr(position) if position >= design.CLAIMS_LOWEST else None


def cells(levels: Sequence[int] = LEVELS) -> list[Cell]:
    out = []
    for lv in levels:
        for offset, size, check in (
            (0, 1, "anchor"),
            (-2, 2, "anchor"),
            (-4, 4, "anchor"),
            (0, 4, "el+4"),
            (4, 1, "el+4"),
        ):
            cr = position_cr(lv + offset)
            if cr is not None:
                out.append(Cell(lv, cr, size, check))
    return out


def monsters(cr: Fraction, population: str, srd_per_cr: int) -> list[str]:
    from arena.world.challenge import format_cr

    if population == "typical":
        return [f"typical-cr{format_cr(cr)}"]
    if population == "typical-pf":
        return [f"typical-pf-cr{format_cr(cr)}"]
    return list(design.srd_monsters(cr, srd_per_cr))


@dataclass
class Baseline:
    table: pd.DataFrame
    """One row per matchup."""
    encounters: int
    seconds: float
    n: int
    command: str = ""


def run_baseline(
    *,
    n: int = 400,
    levels: Sequence[int] = LEVELS,
    populations: Sequence[str] = POPULATIONS,
    srd_per_cr: int = 4,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Baseline:
    from arena.study.claims.grid import _slots
    from arena.world.bestiary import get_creature

    units = []
    for cell in cells(levels):
        for pop in populations:
            for m in monsters(cell.cr, pop, srd_per_cr):
                units.append((cell, pop, m, Matchup(cell.level, m, cell.size, ("d20",), n, seed, model=ModelOptions())))
    batch = run_batch([u[3] for u in units], workers=workers, keep=BASELINE_KEEP, progress=progress)
    slots = {lv: _slots(lv) for lv in levels}
    rows = []
    for cell, pop, m, mu in units:
        f = batch.rows(mu, "d20", n)
        monster_hp = cell.size * get_creature(m).hp
        deaths = f["pcs_dead"]
        row: dict[str, Any] = {
            "level": cell.level,
            "check": cell.check,
            "cell": cell.label,
            "size": cell.size,
            "cr": float(cell.cr),
            "population": pop,
            "monster": m.removeprefix("srd/"),
            "fights": len(f),
            "hp lost %": 100 * f["party_hp_lost"].mean(),
            "spells %": 100 * f["spells_cast_party"].mean() / slots[cell.level] if slots[cell.level] else 0.0,
            "PC death %": 100 * (deaths > 0).mean(),
            "deaths/fight": deaths.mean(),
            "removed/fight": f[list(REMOVED_FIELDS)].sum(axis=1).mean(),
            "dropped/fight": f["downs_monsters"].mean(),
            "win %": 100 * (f["winner"] == "party").mean(),
            "monster hp dealt %": 100 * (f["damage_party"].clip(upper=monster_hp) / monster_hp).mean(),
        }
        for cause, field in zip(CAUSES, DEATH_FIELDS, strict=True):
            row[f"deaths {cause}"] = f[field].mean()
        for field in REMOVED_FIELDS:
            row[field.replace("pc_removed_", "removed ")] = f[field].mean()
        rows.append(row)
    table = pd.DataFrame(rows)
    table["resources %"] = (table["hp lost %"] + table["spells %"]) / 2
    return Baseline(table, batch.encounters, batch.seconds, n)


# --------------------------------------------------------------------------------------------- summaries
SUMMARY = [
    "hp lost %",
    "spells %",
    "resources %",
    "PC death %",
    "deaths/fight",
    "removed/fight",
    "dropped/fight",
    "win %",
]


def _cause_shares(frame: pd.DataFrame) -> pd.DataFrame:
    """Each cause's share (%) of the PC deaths of the rows (``-`` where nobody died)."""
    total = frame[[f"deaths {c}" for c in CAUSES]].sum(axis=1)
    out = pd.DataFrame(index=frame.index)
    for c in CAUSES:
        out[f"% {c}"] = (100 * frame[f"deaths {c}"] / total).where(total > 0)
    return out


def summary(b: Baseline, check: str = "anchor") -> pd.DataFrame:
    """Per level and population (the mean over its matchups), with the causes' shares of the deaths."""
    t = b.table[b.table["check"] == check]
    cols = SUMMARY + [f"deaths {c}" for c in CAUSES]
    g = t.groupby(["level", "population"], sort=True)[cols].mean().reset_index()
    g = pd.concat([g, _cause_shares(g)], axis=1)
    return g.drop(columns=[f"deaths {c}" for c in CAUSES])


def per_cell(b: Baseline, check: str) -> pd.DataFrame:
    t = b.table[b.table["check"] == check]
    cols = ["hp lost %", "resources %", "PC death %", "deaths/fight", "win %", "monster hp dealt %"]
    return t.groupby(["level", "cell", "population"], sort=False)[cols].mean().reset_index()


def offenders(b: Baseline, top: int = 15) -> pd.DataFrame:
    """The SRD creatures that kill most PCs per fight (every cell they fight in), with the deaths by cause."""
    t = b.table[b.table["population"] == "srd"]
    if t.empty:
        return t
    cols = ["level", "cell", "monster", "PC death %", "deaths/fight", *[f"deaths {c}" for c in CAUSES], "removed/fight"]
    return t.sort_values("deaths/fight", ascending=False)[cols].head(top).reset_index(drop=True)


def causes_overall(b: Baseline, check: str = "anchor") -> pd.DataFrame:
    """Per population: the share of all PC deaths by cause, over every anchor matchup of every level."""
    t = b.table[b.table["check"] == check]
    g = t.groupby("population")[[f"deaths {c}" for c in CAUSES]].sum()
    return pd.concat([g.sum(axis=1).rename("deaths (sum of per-fight means)"), _cause_shares(g)], axis=1).reset_index()


def _numbers(cr: Fraction, table: str) -> tuple[float, float, int, int]:
    """hp, damage per round, attack bonus and AC of the typical monster of ``cr`` by ``table``."""
    from arena.world.typical import srd_medians, typical_stats

    if table == "srd-medians":
        r = srd_medians(cr)
        return r.hp, r.damage_per_round, r.attack, r.ac
    p = typical_stats(cr)
    return p.hp, p.avg_damage_high, p.high_attack, p.ac


def focus_fire(size: int) -> int:
    """How many monster-turns' damage a group of ``size`` deals while a party that kills them one at a time takes
    each down in the same time: ``size + (size - 1) + ... + 1``."""
    return size * (size + 1) // 2


def _hit(attack: float, ac: float) -> float:
    return min(0.95, max(0.05, (21 + attack - ac) / 20))


def _party_numbers(level: int) -> tuple[float, float]:
    """The generated party's mean AC, and the mean best attack bonus of its weapon users (all but the wizard)."""
    from arena.world.party import generate_party
    from arena.world.srd_bestiary import best_attack

    party = generate_party(level)
    ac = sum(c.ac for c in party) / len(party)
    attacks = [best_attack(c) or 0 for c in party if not c.name.startswith("wizard")]
    return ac, sum(attacks) / len(attacks)


def paper_check(levels: Sequence[int] = LEVELS, table: str = "srd-medians") -> pd.DataFrame:
    """The EL rule on paper, from the SRD 3.5 medians by CR (no fight). A party that deals D a round kills a monster
    of ``hp`` in ``hp / D`` rounds, while it deals ``dpr`` a round: one monster deals ``hp * dpr / D`` before it
    falls, a group of k killed one at a time ``k (k + 1) / 2 * hp * dpr / D`` (:func:`focus_fire`). With the hit
    chances counted (the party's weapon users against the monster's AC, the monster's best attack against the
    party's mean AC), a group's threat is ``k (k + 1) / 2 * hp / p(party hits) * dpr * p(monster hits)``. The EL
    rule says 1 x CR L, 2 x CR L-2 and 4 x CR L-4 are one EL (and 4 x CR L and 1 x CR L+4 another), i.e. the same
    threat. The columns give each group's threat relative to the single monster's of its EL (1.0: the EL rule
    holds); the last one without the hit chances."""
    rows = []
    for lv in levels:
        party_ac, party_attack = _party_numbers(lv)

        def threat(
            cr: Fraction | None,
            k: int,
            hits: bool = True,
            party_ac: float = party_ac,
            party_attack: float = party_attack,
        ) -> float:
            if cr is None:
                return float("nan")
            hp, dpr, attack, ac = _numbers(cr, table)
            if not hits:
                return focus_fire(k) * hp * dpr
            return focus_fire(k) * hp / _hit(party_attack, ac) * dpr * _hit(attack, party_ac)

        one = threat(position_cr(lv), 1)
        big = position_cr(lv + 4)
        rows.append(
            {
                "level": lv,
                "EL L: 2 x CR L-2": threat(position_cr(lv - 2), 2) / one,
                "EL L: 4 x CR L-4": threat(position_cr(lv - 4), 4) / one,
                "EL L+4: 4 x CR L": threat(position_cr(lv), 4) / threat(big, 1),
                "EL L+4, hit chances left out": threat(position_cr(lv), 4, False) / threat(big, 1, False),
            }
        )
    return pd.DataFrame(rows)


def doubling_crs(table: str = "srd-medians") -> float:
    """How many CRs it takes hp x damage per round to double, by a log-linear fit over CR 1-20 (the EL rule's
    premise is 2: "two monsters of CR c are an EL c+2 encounter")."""
    import math

    xs, ys = [], []
    for cr in range(1, 21):
        hp, dpr, _, _ = _numbers(Fraction(cr), table)
        v = hp * dpr
        xs.append(cr)
        ys.append(math.log2(v))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return 1 / slope


def typical_tables() -> pd.DataFrame:
    """The typical monster's numbers by CR: the SRD 3.5 medians (the default) beside the Pathfinder table."""
    from arena.world.stat_types import cr_text
    from arena.world.typical import srd_medians, table_crs, typical_stats

    rows = []
    for cr in table_crs():
        m, p = srd_medians(cr), typical_stats(cr)
        lower = round(m.attacks * m.lower_attack_share) if m.attacks > 1 else 0
        rows.append(
            {
                "CR": cr_text(cr),
                "SRD creatures (pool)": f"{m.creatures} ({m.pooled})",
                "hp SRD / PF": f"{m.hp} / {p.hp}",
                "AC SRD / PF": f"{m.ac} / {p.ac}",
                "attack SRD / PF": f"+{m.attack} / +{p.high_attack}",
                "damage/round SRD / PF": f"{m.damage_per_round:g} / {p.avg_damage_high}",
                "attacks (secondary) SRD": f"{m.attacks} ({min(lower, m.attacks - 1)})",
                "Fort/Ref/Will SRD": f"{m.fort}/{m.ref}/{m.will}",
                "DC SRD / PF": f"{m.dc} / {p.primary_dc}",
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------- markdown
def _fmt(x: Any) -> str:
    if isinstance(x, float):
        if x != x:
            return "-"
        return f"{x:.0f}" if abs(x) >= 100 else f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"
    return str(x).replace("|", "\\|")


def md_table(frame: pd.DataFrame) -> list[str]:
    """A DataFrame as a Markdown table, numbers to the precision the page reads them at."""
    return text_table(frame, lambda v: _fmt(v.item() if hasattr(v, "item") else v))


def key_numbers(b: Baseline) -> dict[str, float]:
    """The numbers the prose of docs/dmg-baseline.md cites, by name (printed under "Key numbers")."""
    out: dict[str, float] = {}
    t = b.table
    for pop in POPULATIONS:
        a = t[(t["check"] == "anchor") & (t["population"] == pop)]
        if a.empty:
            continue
        out[f"anchor {pop}: fights with a PC death %"] = a["PC death %"].mean()
        deaths = sum(a[f"deaths {c}"].sum() for c in CAUSES)
        for c in CAUSES:
            out[f"anchor {pop}: % of deaths by {c}"] = 100 * a[f"deaths {c}"].sum() / deaths if deaths else float("nan")
        single = a[a["size"] == 1]
        out[f"anchor {pop}: 1 x CR L resources %"] = single["resources %"].mean()
        out[f"anchor {pop}: 4 x CR L-4 PC death %"] = a[a["size"] == 4]["PC death %"].mean()
        out[f"anchor {pop}: 1 x CR L PC death %"] = single["PC death %"].mean()
        e = t[(t["check"] == "el+4") & (t["population"] == pop)]
        if not e.empty:
            levels_both = sorted(set(e[e["size"] == 4]["level"]) & set(e[e["size"] == 1]["level"]))
            e = e[e["level"].isin(levels_both)]
            out[f"EL+4 {pop}: 4 x CR L win %"] = e[e["size"] == 4]["win %"].mean()
            out[f"EL+4 {pop}: 1 x CR L+4 win %"] = e[e["size"] == 1]["win %"].mean()
            out[f"EL+4 {pop}: 4 x CR L PC death %"] = e[e["size"] == 4]["PC death %"].mean()
            out[f"EL+4 {pop}: 1 x CR L+4 PC death %"] = e[e["size"] == 1]["PC death %"].mean()
            out[f"EL+4 {pop}: 4 x CR L hp lost %"] = e[e["size"] == 4]["hp lost %"].mean()
            out[f"EL+4 {pop}: 1 x CR L+4 hp lost %"] = e[e["size"] == 1]["hp lost %"].mean()
    out["CRs for hp x damage to double (SRD medians)"] = doubling_crs("srd-medians")
    out["CRs for hp x damage to double (Pathfinder table)"] = doubling_crs("pathfinder")
    return out


def generated(b: Baseline) -> str:
    lines = [
        START,
        "",
        f"Generated by `{b.command or 'arena dmg-baseline'}`: {b.encounters:,} encounters, {b.n} per matchup, "
        f"standard d20, the default fight model; {b.seconds:.0f} s of fighting.",
        "",
        "### The DMG table (EL = party level: 1 x CR L, 2 x CR L-2, 4 x CR L-4)",
        "",
        "Mean over each level's matchups. Deaths by cause are shares (%) of that row's PC deaths; `removed` counts",
        "PCs alive but out of the fight for good (petrified, swallowed, or a lasting condition) per fight.",
        "",
        *md_table(summary(b, "anchor")),
        "",
        "### Per cell (EL = L)",
        "",
        *md_table(per_cell(b, "anchor")),
        "",
        "### The causes of death over all EL = L fights",
        "",
        *md_table(causes_overall(b, "anchor")),
        "",
        "### The worst SRD offenders (PC deaths per fight, every cell)",
        "",
        *md_table(offenders(b)),
        "",
        "### The EL check: EL = L+4, four of CR L against one of CR L+4",
        "",
        *md_table(per_cell(b, "el+4")),
        "",
        "The EL rule on paper, from the SRD 3.5 medians by CR (no fight): the threat of a group of k monsters that a",
        "party kills one at a time, `k (k+1)/2 x hp / p(party hits) x damage/round x p(monster hits)` (the damage it",
        "deals before the last one falls), as a ratio to the single monster of the same EL (1.0: the EL rule holds).",
        "",
        *md_table(paper_check()),
        "",
        "### The typical monster: SRD 3.5 medians (default) and the Pathfinder table",
        "",
        "From `arena/data/srd35_monster_medians_by_cr.yaml` (`python -m arena.world.typical_tables`) and",
        "`arena/data/monster_stats_by_cr.yaml`. The typical monster uses no DC: it has no special attack.",
        "",
        *md_table(typical_tables()),
        "",
        "### Key numbers",
        "",
        *[f"- {k}: {_fmt(float(v))}" for k, v in key_numbers(b).items()],
        "",
        END,
    ]
    return "\n".join(lines) + "\n"


def markdown(b: Baseline, existing: str | None = None) -> str:
    """The report: ``existing`` (docs/dmg-baseline.md) with its generated part replaced, or the generated part under
    a title when there is none."""
    part = generated(b)
    if existing and START in existing and END in existing:
        return re.sub(re.escape(START) + r".*?" + re.escape(END) + r"\n?", lambda _: part, existing, flags=re.S)
    return "# The baseline against the DMG\n\n" + part
