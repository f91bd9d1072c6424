"""Matchups and batches: one party against one monster group under a set of rule sets, and many of them merged and
fought in one go (same seeds for every arm, so every comparison is paired).

A matchup names its monster (an SRD name or ``typical-crN``, looked up in the built-in bestiary wherever it is
fought) or carries the monster's stat block (``stat_block``: a creature of the user's own files, which a worker
process could not look up). A carried stat block is part of the matchup's identity: its content is in
:attr:`Matchup.key` and :meth:`Matchup.digest`, so two different stat blocks of one name never share a prepared
encounter or a result.

Why a module of its own: the claims and the calibration fight many small generated encounters rather than scenario
files; a matchup is the scenario-like object they share, and a batch the run of them they share.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from arena.abilities.summon import summon_of
from arena.combat.model import ModelOptions
from arena.combat.record import DEATH_FIELDS, REMOVED_FIELDS
from arena.errors import ArenaError
from arena.study.runs.options import check_workers
from arena.world.creatures import Creature

if TYPE_CHECKING:  # pandas is the parent's: a worker that unpickles a Matchup never imports it
    import pandas as pd

KEEP = (
    "winner",
    "rounds",
    "party_hp_lost",
    "pcs_down",
    "pcs_dead",
    *DEATH_FIELDS,
    *REMOVED_FIELDS,
    "hits_monsters",
    "attacks_monsters",
    "lucky_hits_monsters",
    "lucky_damage_monsters",
    "damage_monsters",
    "attacks_party",
    "hits_party",
    "critical_successes_party",
    "critical_successes_monsters",
    "fumbles_party",
    "fumbles_monsters",
    "called_shots_party",
    "called_hits_party",
    "luck_pressed_party",
    "luck_pressed_successes_party",
    "downs_monsters",
    "spells_cast_party",
    "spell_levels_spent_party",
    "spell_levels_available_party",
    "long_shot_hits_monsters",
    "long_shot_damage_monsters",
    "long_shot35_hits_monsters",
    "long_shot35_damage_monsters",
    "long_shot45_hits_monsters",
    "long_shot45_damage_monsters",
    "long_shot_saves_monsters",
    "long_shot35_saves_monsters",
    "long_shot45_saves_monsters",
)
"""The record fields a batch keeps (the rest of each record is dropped as soon as its chunk arrives)."""


@dataclass(frozen=True)
class Matchup:
    """The generated party of ``level`` against ``count`` x ``monster``, under ``rules``, ``n`` encounters."""

    level: int
    monster: str
    count: int
    rules: tuple[str, ...]
    n: int
    seed: int = 0
    attack_bonus: int = 0
    """Added to every attack bonus of every PC (weapon routines; spells are unchanged)."""
    party_press: str = "never"
    party_called: str = "never"
    round_cap: int = 50
    model: ModelOptions = ModelOptions()
    """The fight model's options (:mod:`arena.combat.model`)."""
    stat_block: Creature | None = field(default=None, hash=False)
    """The monster's own stat block (its name is ``monster``), carried to every process that fights the matchup;
    None: ``monster`` is looked up in the built-in bestiary there. :func:`own_stat_block` says which to use. (Compared,
    not hashed: a stat block holds dicts; equal matchups still hash alike.)"""
    summoned: Creature | None = field(default=None, hash=False)
    """What the carried monster summons, when the user's own files hold it (the fight's own bestiary): carried with
    it, since a worker's built-in bestiary does not have it; None: looked up in the built-in bestiary."""

    def __post_init__(self) -> None:
        from arena.world.bestiary import SRD_PREFIX, normalise

        if self.stat_block is not None and normalise(self.stat_block.name) != normalise(self.monster).removeprefix(
            SRD_PREFIX
        ):
            raise ArenaError(f"matchup: the stat block is {self.stat_block.name!r}, not the monster {self.monster!r}")

    @cached_property
    def name(self) -> str:
        """The matchup's label, unique within a run (worked out once: a study plans thousands of matchups)."""
        extra = "".join(
            [
                f"+atk{self.attack_bonus}" if self.attack_bonus else "",
                f"+press-{self.party_press}" if self.party_press != "never" else "",
                f"+called-{self.party_called}" if self.party_called != "never" else "",
                "".join(f"+{name}-{_short(value)}" for name, value in self.model.changed().items()),
            ]
        )
        return f"L{self.level}-{self.monster}x{self.count}{extra}"

    @property
    def key(self) -> tuple:
        """Everything but rules, n and seed: two requests with the same key fight the same encounters (a carried
        stat block by its content)."""
        return (*self._encounter_fields(), self.model.model_dump_json(), self.stat_block_digest())

    def _encounter_fields(self) -> list:
        """The plain fields :attr:`key` and :meth:`digest` share: every one but rules, n, seed, the model and the
        carried stat block."""
        return [
            self.level,
            self.monster,
            self.count,
            self.attack_bonus,
            self.party_press,
            self.party_called,
            self.round_cap,
        ]

    def stat_block_digest(self) -> str | None:
        """sha256 (hex) of the carried stat block's content (sorted JSON); None for a built-in name."""
        if self.stat_block is None:
            return None
        content: Any = self.stat_block.model_dump(mode="json")
        if self.summoned is not None:  # only then: a carried monster that summons nothing keeps its digest
            content = {"stat_block": content, "summoned": self.summoned.model_dump(mode="json")}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def rule_sets(self) -> list:
        from arena.rules import RuleSet

        return [RuleSet.from_key(k) for k in self.rules]

    def digest(self) -> str:
        """What the prepared-encounter cache of a worker and a run's manifest key the matchup by: every field but
        rules, n and seed, a carried stat block by its content."""
        key = self._encounter_fields()
        if self.model != ModelOptions():  # the default model: the digest a run had before the model options
            key.append(self.model.model_dump_json())
        doc: dict[str, Any] = {"matchup": key, "v": 1}
        if self.stat_block is not None:  # a built-in name keeps the digest it always had
            doc["stat_block"] = self.stat_block_digest()
        text = json.dumps(doc, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def creature(self) -> Creature:
        """The monster's stat block: the carried one, or the built-in bestiary's answer to ``monster``."""
        from arena.world.bestiary import get_creature

        return self.stat_block if self.stat_block is not None else get_creature(self.monster)

    def model_dump(self, mode: str = "json") -> dict:
        out = {
            **{f.name: getattr(self, f.name) for f in fields(self)},  # asdict would deep-copy what is replaced below
            "rules": list(self.rules),
            "name": self.name,
            "model": self.model.model_dump(mode="json"),
        }
        if self.stat_block is None:
            del out["stat_block"]  # as before the carried stat blocks
        else:
            out["stat_block"] = self.stat_block.model_dump(mode="json")
        if self.summoned is not None:
            out["summoned"] = deepcopy(self.summoned)  # as asdict gave it
        return out

    def party(self, die: str) -> list:
        from arena.study.scenarios.parts import party_die, party_options

        options = party_options(self.model)
        return list(
            _generated_party(
                self.level,
                party_die(die),
                options["hit_points"],
                options["domain_spells"],
                frozenset(options["legacy"]),
                self.attack_bonus,
            )
        )

    def prepare(self, die: str = "d20") -> Any:
        from arena.combat.engine import prepare
        from arena.combat.tactics import TacticsSettings

        party = self.party(die)
        monster = self.creature()
        tactics = TacticsSettings(press_luck=self.party_press, called_shot=self.party_called)
        per_creature = {
            c.name: TacticsSettings(policy=c.tactics, press_luck=self.party_press, called_shot=self.party_called)
            for c in party
        }
        summon = summon_of(monster)
        summons = {summon.creature: self.summoned} if self.summoned and summon else None
        return prepare(
            party,
            [(monster, self.count)],
            round_cap=self.round_cap,
            party_tactics=tactics,
            creature_tactics=per_creature,
            model=self.model,
            summons=summons,
        )


@lru_cache(maxsize=512)
def _generated_party(
    level: int, die: str, hit_points: str, domain_spells: str, legacy: frozenset[str], attack_bonus: int
) -> tuple[Creature, ...]:
    """The generated party of a matchup, built once per process for each of its choices: many matchups (every
    monster, group size and rule set of a level) fight the same party, and its stat blocks are frozen."""
    from arena.world.party import generate_party

    members = generate_party(level, die, hit_points=hit_points, domain_spells=domain_spells, legacy=legacy)
    if attack_bonus:
        members = [raise_attacks(c, attack_bonus) for c in members]
    return tuple(members)


def own_stat_block(creature: Creature, name: str | None = None) -> Creature | None:
    """What a matchup against ``creature`` carries as its ``stat_block``: None when the built-in bestiary answers
    ``name`` (default: the creature's name) with this very stat block, so a worker can look it up; else the stat block
    itself (a creature of the user's files, or one that replaces a built-in name)."""
    from arena.world.bestiary import get_creature

    try:
        builtin = get_creature(creature.name if name is None else name)
    except ArenaError:
        return creature
    return None if builtin == creature else creature


def _short(value: object) -> str:
    """A model option's value in a matchup name (``undo`` lists its fixes)."""
    return "+".join(sorted(value)) if isinstance(value, frozenset) else str(value)


def raise_attacks(creature: Any, bonus: int) -> Any:
    """``creature`` with ``bonus`` added to every attack bonus of every routine (standard and full)."""

    def routine(r: tuple) -> tuple:
        return tuple(a.model_copy(update={"bonuses": tuple(b + bonus for b in a.bonuses)}) for a in r)

    update: dict[str, Any] = {"attack": tuple(routine(r) for r in creature.attack)}
    if creature.full_attack is not None:
        update["full_attack"] = tuple(routine(r) for r in creature.full_attack)
    return creature.model_copy(update=update)


def merge_requests(matchups: Iterable[Matchup]) -> list[Matchup]:
    """One matchup per key, with the union of the rule sets and the largest n (all on one seed)."""
    merged: dict[tuple, Matchup] = {}
    for m in matchups:
        key = (m.key, m.seed)  # once: a carried stat block is hashed on every read of .key
        old = merged.get(key)
        if old is None:
            merged[key] = m
        else:
            rules = tuple(dict.fromkeys([*old.rules, *m.rules]))
            merged[key] = replace(old, rules=rules, n=max(old.n, m.n))
    return list(merged.values())


@dataclass
class Batch:
    """The rows of a batch (one per matchup, rule set and encounter) and how long it took."""

    frame: pd.DataFrame
    seconds: float
    encounters: int
    matchups: list[Matchup] = field(default_factory=list)
    spans: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    """Where the rows of each (matchup name, rule set) lie in ``frame``, in index order (:func:`batch_frame`)."""

    def rows(self, m: Matchup, rules: str, n: int | None = None) -> pd.DataFrame:
        """Encounters ``0..n-1`` of matchup ``m`` (by key) under ``rules``, in index order."""
        start, stop = self.span(m, rules, n)
        return self.frame.iloc[start:stop].reset_index(drop=True)

    def span(self, m: Matchup, rules: str, n: int | None = None) -> tuple[int, int]:
        """Where encounters ``0..n-1`` of matchup ``m`` under ``rules`` lie in ``frame`` (``start``, ``stop``): a
        caller that reads a column of every matchup slices it once computed over the whole frame."""
        span = self.spans.get((m.name, rules))
        if span is None or span[0] == span[1]:
            raise ArenaError(f"no rows for {m.name} under {rules}")
        start, stop = span
        return start, min(stop, start + (n or m.n))


def batch_frame(
    plan: Any, chunks: Sequence[Any], parts: dict[Any, dict], columns: Sequence[str]
) -> tuple[pd.DataFrame, dict[tuple[str, str], tuple[int, int]]]:
    """The rows of a batch's chunks (in plan order) as one frame, ``matchup`` and ``rules`` first, and where each
    (matchup, rule set) lies in it: each column is joined once over every chunk (no frame per chunk), and the rows
    of a (matchup, rule set) are one run in index order, since the plan orders its chunks so."""
    import numpy as np
    import pandas as pd

    spans: dict[tuple[str, str], tuple[int, int]] = {}
    names: list[np.ndarray] = []
    keys: list[np.ndarray] = []
    row = 0
    for chunk in chunks:
        sp = plan.scenarios[chunk.scenario]
        key = (sp.name, sp.rule_sets[chunk.rules].key)
        size = len(parts[chunk][columns[0]])
        start = spans[key][0] if key in spans else row
        spans[key] = (start, row + size)
        names.append(np.full(size, sp.name, dtype=object))
        keys.append(np.full(size, key[1], dtype=object))
        row += size
    data: dict[str, np.ndarray] = {"matchup": np.concatenate(names), "rules": np.concatenate(keys)}
    for name in columns:
        data[name] = np.concatenate([np.asarray(parts[chunk][name]) for chunk in chunks])
    frame = pd.DataFrame(data)
    frame["winner"] = frame["winner"].astype(str)
    return frame, spans


def run_batch(
    matchups: Sequence[Matchup],
    *,
    workers: int = 1,
    cluster: Any = None,
    chunk_size: int = 250,
    keep: Sequence[str] = KEEP,
    progress: Callable[[int, int], None] | None = None,
    store: Any = None,
    stop: Any = None,
    share_pool: bool = False,
    lead: bool = False,
) -> Batch:
    """Fight every matchup under every one of its rule sets on the run's workers
    (:func:`arena.study.runs.workers.execute`, which takes ``stop``, ``share_pool`` and ``lead`` when parts of a
    study fight at once: :mod:`arena.study.runs.phases`).

    ``cluster``: a Dask scheduler address or an open client (:func:`arena.study.runs.cluster.cluster_session`).
    ``store``: a study's folder (:class:`arena.study.runs.study_folder.StudyFolder`): every finished chunk is written
    there, and a chunk found there (verified) is not fought again, so a resumed study gets the same rows without
    fighting them (``seconds`` counts only the fighting of this call; ``encounters`` every encounter)."""
    import time

    from arena.study.runs.plan import make_plan
    from arena.study.runs.study_folder import batch_names
    from arena.study.runs.workers import EngineSimulator, execute

    workers = check_workers(workers)
    merged = merge_requests(matchups)
    plan = make_plan(merged, chunk_size=chunk_size)
    columns = ("index", *keep)
    chunks = list(plan.chunks())
    parts: dict[Any, dict] = {}
    names = batch_names(plan, chunks, keep) if store is not None else {}
    if store is not None:
        found = store.load({names[c]: (c.start, c.stop) for c in chunks}, columns)
        parts.update({c: found[names[c]] for c in chunks if names[c] in found})
    done, total = [sum(c.size for c in parts)], plan.total  # the total once: a sum over every scenario of the plan
    if progress:
        progress(done[0], total)

    def sink(chunk: Any, columns_of: dict) -> None:
        kept = {k: columns_of[k] for k in columns}
        if store is not None:
            store.save(names[chunk], chunk.start, chunk.stop, kept)
        parts[chunk] = kept
        done[0] += chunk.size
        if progress:
            progress(done[0], total)

    t0 = time.perf_counter()
    todo = [c for c in chunks if c not in parts]
    if todo:
        execute(
            plan,
            todo,
            sink,
            workers=workers,
            cluster=cluster,
            simulator=EngineSimulator(),
            fields=keep,
            stop=stop,
            share_pool=share_pool,
            lead=lead,
        )
    seconds = time.perf_counter() - t0
    frame, spans = batch_frame(plan, chunks, parts, columns)
    return Batch(frame, seconds, total, merged, spans)
