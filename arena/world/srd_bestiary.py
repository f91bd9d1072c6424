"""The shipped SRD bestiary: hundreds of imported stat blocks, found through a prebuilt index and read lazily.

``bestiary/srd/`` (package ``arena.bestiary_data``) holds one YAML stat block per SRD creature, written by
``arena bestiary import`` (:mod:`arena.srd.importer`), the OGL notice, and ``index.json``: one row per creature
(name, CR, type, size, hp, AC, best attack, damage per round, save DCs, whether the engine models it fully, the
abilities it ignores). Listing, filtering and coverage read only the index; a stat block is parsed the first time
a fight or ``bestiary show`` asks for it, and kept (:data:`_CREATURES`). Nothing here runs on ``import arena`` or
``arena --help``: :data:`_INDEX` stays None until something asks (a test holds that).

The 19 hand-written blocks of ``bestiary/*.yaml`` keep their names (fights and golden files depend on them); an
imported creature of the same name is ``srd/<name>`` (``srd/troll``). :data:`HAND_WRITTEN` pairs each
hand-written block with its imported counterpart.
"""

from __future__ import annotations

import contextlib
import json
import re
import statistics
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from arena.dice import parse as parse_dice
from arena.errors import ArenaError
from arena.world.creatures import Creature
from arena.world.stat_types import cr_text, parse_cr
from arena.world.yamlio import load_shipped_yaml, load_yaml, validate

PACKAGE = "arena.bestiary_data"
FOLDER = "srd"
INDEX_FILE = "index.json"
INDEX_VERSION = 1
PREFIX = "srd/"

HAND_WRITTEN: dict[str, str] = {
    "goblin": "goblin-1st-level-warrior",
    "kobold": "kobold-1st-level-warrior",
    "orc": "orc-1st-level-warrior",
    "hobgoblin": "hobgoblin-1st-level-warrior",
    "gnoll": "gnoll",
    "bugbear": "bugbear",
    "ogre": "ogre",
    "troll": "troll",
    "wolf": "wolf",
    "dire-wolf": "dire-wolf",
    "human-warrior-skeleton": "human-warrior-skeleton",
    "human-commoner-zombie": "human-commoner-zombie",
    "dire-rat": "dire-rat",
    "dwarf-warrior": "dwarf-1st-level-warrior",
    "owlbear": "owlbear",
    "minotaur": "minotaur",
    "hill-giant": "hill-giant",
    "young-red-dragon": "red-dragon-young",
    "adult-red-dragon": "red-dragon-adult",
}
"""Hand-written built-in block -> the imported SRD block of the same creature."""

_INDEX: dict[str, IndexRow] | None = None
"""The index rows by name, once read (None until something asks: ``arena --help`` never does)."""
_CREATURES: dict[str, Creature] = {}
"""Imported stat blocks parsed so far, by name."""


@dataclass(frozen=True)
class IndexRow:
    """What listing, filtering and coverage need of one imported creature, without parsing its stat block."""

    name: str
    title: str
    cr: str
    type: str
    subtypes: tuple[str, ...]
    size: str
    hp: int
    ac: int
    best_attack: int | None
    damage_per_round: float
    save_dc: int | None
    modelled: str
    ignored: tuple[str, ...]
    import_status: str
    source: str
    file: str

    @property
    def cr_value(self) -> Fraction:
        return parse_cr(self.cr)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "cr": self.cr,
            "type": self.type,
            "subtypes": list(self.subtypes),
            "size": self.size,
            "hp": self.hp,
            "ac": self.ac,
            "best_attack": self.best_attack,
            "damage_per_round": self.damage_per_round,
            "save_dc": self.save_dc,
            "modelled": self.modelled,
            "ignored": list(self.ignored),
            "import_status": self.import_status,
            "source": self.source,
            "file": self.file,
        }


# --------------------------------------------------------------------------------------------- numbers of a creature
def _mean(expr: str | None) -> float:
    return parse_dice(expr).mean if expr else 0.0


def damage_per_round(c: Creature) -> float:
    """Average damage of the creature's best full attack if every attack hits (the Pathfinder table's "average
    damage"), each hit at least 1; energy riders included."""
    best = 0.0
    for routine in c.full_attack or c.attack:
        total = sum(a.count * len(a.bonuses) * (max(1.0, _mean(a.damage)) + _mean(a.extra_damage)) for a in routine)
        best = max(best, total)
    return round(best, 1)


def best_attack(c: Creature) -> int | None:
    bonuses = [a.bonuses[0] for r in (*c.attack, *(c.full_attack or ())) for a in r]
    return max(bonuses) if bonuses else None


def save_dc(c: Creature) -> int | None:
    """The highest save DC of the creature's special abilities (breath weapon, poison, gaze ...)."""
    dcs = [a.dc for a in c.special_abilities if a.dc is not None]
    breath = getattr(c, "breath_weapon", None)  # arena.abilities.breath's field
    if breath:
        dcs.append(breath.dc)
    return max(dcs) if dcs else None


def row_of(c: Creature, file: str) -> IndexRow:
    return IndexRow(
        name=c.name,
        title=c.display_name,
        cr=cr_text(c.cr),
        type=c.type,
        subtypes=tuple(c.subtypes),
        size=c.size,
        hp=c.hp,
        ac=c.ac,
        best_attack=best_attack(c),
        damage_per_round=damage_per_round(c),
        save_dc=save_dc(c),
        modelled=c.modelled,
        ignored=c.ignored_abilities,
        import_status=c.import_status or "clean",
        source=c.source.split(" (")[0],
        file=file,
    )


# --------------------------------------------------------------------------------------------- the index file
def write_index(folder: Path) -> Path:
    """Read every stat block in ``folder`` and write its ``index.json``."""
    rows = []
    for path in sorted(folder.glob("*.yaml")):
        creature = validate(load_yaml(path, f"bestiary/srd/{path.name}"), Creature)
        rows.append(row_of(creature, path.name).as_json())
    target = folder / INDEX_FILE
    target.write_text(
        json.dumps({"version": INDEX_VERSION, "count": len(rows), "creatures": rows}, indent=1, ensure_ascii=False)
        + "\n",
        encoding="utf-8",
    )
    return target


def root():
    """The folder of the shipped SRD stat blocks (an ``importlib.resources`` Traversable)."""
    try:
        return resources.files(PACKAGE).joinpath(FOLDER)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "bestiary" / FOLDER


def _load_index() -> dict[str, IndexRow]:
    global _INDEX
    if _INDEX is None:
        file = root().joinpath(INDEX_FILE)
        if not file.is_file():  # an install without the SRD bestiary: the hand-written blocks only
            _INDEX = {}
            return _INDEX
        try:
            doc = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ArenaError(f"bestiary/srd/{INDEX_FILE}: cannot read the SRD bestiary's index ({err})") from None
        rows = {}
        for r in doc["creatures"]:
            rows[r["name"]] = IndexRow(**{**r, "subtypes": tuple(r["subtypes"]), "ignored": tuple(r["ignored"])})
        _INDEX = rows
    return _INDEX


def index_loaded() -> bool:
    """Whether the index has been read in this process (``arena --help`` must not)."""
    return _INDEX is not None


def srd_rows() -> list[IndexRow]:
    """Every imported creature's index row, by name."""
    return [row for _, row in sorted(_load_index().items())]


def srd_key(name: str) -> str | None:
    """The imported creature's name for a lookup name (``srd/troll``, ``Red Dragon, Young``), or None."""
    key = "-".join(name.strip().lower().replace("_", " ").split())
    if key.startswith(PREFIX):
        key = key[len(PREFIX) :]
    return key if key in _load_index() else None


def srd_creature(name: str) -> Creature | None:
    """The imported creature of that name (``srd/`` prefix optional), parsed on first use; None if there is none."""
    key = srd_key(name)
    if key is None:
        return None
    if key not in _CREATURES:
        row = _load_index()[key]
        file, source = root().joinpath(row.file), f"bestiary/srd/{row.file}"
        _CREATURES[key] = _validated(file, source)
    return _CREATURES[key]


def _validated(file: Any, source: str) -> Creature:
    """The stat block of a shipped file: parsed fast, and read again with line numbers only if it is wrong (so the
    message says where)."""
    fast = load_shipped_yaml(file, source)
    if fast is not None:
        with contextlib.suppress(ArenaError):
            return validate(fast, Creature)
    return validate(load_yaml(file, source), Creature)


def srd_names() -> list[str]:
    return sorted(_load_index())


# --------------------------------------------------------------------------------------------- selecting
def parse_cr_range(text: str) -> tuple[Fraction | None, Fraction | None]:
    """``3`` -> (3, 3); ``1/2..5`` -> (1/2, 5); ``..5`` and ``10..`` leave one end open."""
    text = text.strip()
    try:
        if ".." in text:
            low, _, high = text.partition("..")
            return (parse_cr(low) if low.strip() else None), (parse_cr(high) if high.strip() else None)
        value = parse_cr(float(text) if re.fullmatch(r"\d*\.\d+", text) else text)
    except ValueError as err:
        raise ArenaError(f"--cr {text!r}: {err} (a range is written 1/2..5)") from None
    return value, value


def in_cr(cr: Fraction, bounds: tuple[Fraction | None, Fraction | None]) -> bool:
    low, high = bounds
    return (low is None or cr >= low) and (high is None or cr <= high)


def select(
    rows: list[IndexRow],
    cr: str | None = None,
    type_: str | None = None,
    name: str | None = None,
    modelled: str | None = None,
) -> list[IndexRow]:
    bounds = parse_cr_range(cr) if cr else None
    want_type = " ".join(type_.lower().replace("-", " ").split()) if type_ else None
    needle = name.lower().strip() if name else None
    out = []
    for row in rows:
        if bounds and not in_cr(row.cr_value, bounds):
            continue
        if want_type and row.type != want_type:
            continue
        if needle and needle not in row.name and needle not in row.title.lower():
            continue
        if modelled and row.modelled != modelled:
            continue
        out.append(row)
    return out


def srd_population(cr: str | None = None, modelled: str | None = None) -> list[Creature]:
    """The imported creatures of a CR (``5``, ``1/2..5``), optionally only the fully modelled ones: what a study
    fights when it wants real SRD monsters."""
    return [srd_creature(r.name) for r in select(srd_rows(), cr=cr, modelled=modelled)]


# --------------------------------------------------------------------------------------------- coverage
CR_BAND = (Fraction(1, 2), Fraction(15))
"""The CRs the engine work aims at: 70% of the SRD creatures of CR 1/2 to 15 fully modelled."""


def coverage(rows: list[IndexRow], band: tuple[Fraction | None, Fraction | None] = CR_BAND) -> dict[str, Any]:
    """Counts of the ignored abilities and of full/partial creatures.

    ``order`` is the order to model the ignored abilities in: each step takes the ability that makes the most
    creatures of the CR band fully modelled once it is modelled (given the steps before), ties broken by how many
    creatures of the band have it; ``decides`` is that number, ``alone`` how many creatures of the band it is the
    only ignored ability of (before any step), ``cumulative_full`` the share of the band then fully modelled.
    """
    in_band = [r for r in rows if in_cr(r.cr_value, band)]
    having: dict[str, list[str]] = {}
    for r in rows:
        for key in r.ignored:
            having.setdefault(key, []).append(r.name)
    band_having = {k: [n for n in v if in_cr(_by_name(rows, n).cr_value, band)] for k, v in having.items()}
    remaining = {r.name: set(r.ignored) for r in in_band if r.ignored}
    alone: dict[str, int] = {}
    for need in remaining.values():
        if len(need) == 1:
            (only,) = need
            alone[only] = alone.get(only, 0) + 1
    full = sum(1 for r in in_band if not r.ignored)
    order = []
    while remaining:
        scores = {}
        for key in {k for need in remaining.values() for k in need}:
            completes = sum(1 for need in remaining.values() if need == {key})
            scores[key] = (completes, sum(1 for need in remaining.values() if key in need), key)
        key = max(scores, key=lambda k: (scores[k][0], scores[k][1], _neg(k)))
        decided = [n for n, need in remaining.items() if need == {key}]
        for n in list(remaining):
            remaining[n].discard(key)
            if not remaining[n]:
                del remaining[n]
        full += len(decided)
        order.append(
            {
                "ability": key,
                "decides": len(decided),
                "alone": alone.get(key, 0),
                "creatures_in_band": len(band_having.get(key, ())),
                "creatures": len(having.get(key, ())),
                "cumulative_full": round(full / len(in_band), 3) if in_band else 0.0,
            }
        )
    by_cr: dict[str, dict[str, int]] = {}
    for r in sorted(rows, key=lambda r: r.cr_value):
        slot = by_cr.setdefault(r.cr, {"creatures": 0, "full": 0, "partial": 0})
        slot["creatures"] += 1
        slot[r.modelled] += 1
    band_full = sum(1 for r in in_band if r.modelled == "full")
    return {
        "creatures": len(rows),
        "full": sum(1 for r in rows if r.modelled == "full"),
        "band": f"{cr_text(band[0]) if band[0] else ''}..{cr_text(band[1]) if band[1] else ''}",
        "band_creatures": len(in_band),
        "band_full": band_full,
        "band_full_share": round(band_full / len(in_band), 3) if in_band else 0.0,
        "order": order,
        "by_cr": by_cr,
        "by_ability": {
            k: {"creatures": len(v), "creatures_in_band": len(band_having[k])}
            for k, v in sorted(having.items(), key=lambda kv: (-len(band_having[kv[0]]), kv[0]))
        },
    }


def _neg(key: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in key)


def _by_name(rows: list[IndexRow], name: str) -> IndexRow:
    global _ROWS_BY_NAME_CACHE
    if _ROWS_BY_NAME_CACHE[0] is not rows:
        _ROWS_BY_NAME_CACHE = (rows, {r.name: r for r in rows})
    return _ROWS_BY_NAME_CACHE[1][name]


_ROWS_BY_NAME_CACHE: tuple[list | None, dict] = (None, {})


# --------------------------------------------------------------------------------------------- typical against SRD
def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def typical_against_srd(rows: list[IndexRow], typical_rows: list[Any]) -> list[dict[str, Any]]:
    """Per CR of the typical-monster table: its numbers beside the medians of the SRD creatures of that CR."""
    out = []
    for t in typical_rows:
        cr = t.cr_value
        group = [r for r in rows if r.cr_value == cr]
        dcs = [r.save_dc for r in group if r.save_dc is not None]
        attacks = [r.best_attack for r in group if r.best_attack is not None]
        out.append(
            {
                "cr": cr_text(cr),
                "srd_creatures": len(group),
                "full": sum(1 for r in group if r.modelled == "full"),
                "typical_hp": t.hp,
                "srd_hp": median([r.hp for r in group]),
                "typical_ac": t.ac,
                "srd_ac": median([r.ac for r in group]),
                "typical_attack": t.high_attack,
                "srd_attack": median(attacks),
                "typical_dpr": t.avg_damage_high,
                "srd_dpr": median([r.damage_per_round for r in group]),
                "typical_dc": t.primary_dc,
                "srd_dc": median(dcs),
                "srd_with_dc": len(dcs),
            }
        )
    return out


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
