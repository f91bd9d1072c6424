"""A scenario: who fights whom, with which tactics, under which rule sets, how many times.

A scenario file (``scenarios/*.yaml``, format in ``docs/scenarios.md``) holds **one scenario (a mapping) or a
top-level list of them**, the same shape as a stat-block file. Everything is checked when the file is loaded, and
every problem names the file, the line and the field (``scenarios/trolls.yaml:12: monsters.0.name: unknown
creature 'trol'; did you mean troll?``).

The models are frozen pydantic models with ``extra="forbid"``; they hold the scenario *as written*. Names are
resolved (stat blocks looked up, party members found, per-creature tactics matched) by :func:`load_scenarios`,
which reports unknown names with the nearest ones, and cached on the scenario; a :class:`Scenario` built in
Python resolves itself on first use (paths relative to the working directory).

Choices made here where the brief left room:

* The generated party (``party: {level: L}``) depends on the die: under the bell curve the cleric prepares
  *auspicious odds* (see :mod:`arena.world.party`). So the party is generated **per die**: a rule set with ``die:
  3d6`` fights the 3d6 party, ``d20`` (and the ``fixed10`` control, for which no party is defined) the d20
  party. :meth:`Scenario.prepare` caches one encounter per die.
* Per-creature tactics inherit whatever they leave out from their side, and a side's ``policy`` left out means
  each creature's own stat-block ``tactics`` (the generated cleric and wizard are ``caster``). The engine is
  always given one complete :class:`~arena.combat.tactics.TacticsSettings` per creature name.
* ``rules`` as a mapping is the product of the values given; a variant not named keeps its standard value
  (as :func:`arena.rules.ruleset.grid` does). Left out entirely, it is every combination the documents
  define (:func:`arena.rules.ruleset.default_grid`, 48 rule sets).

Why a module of its own: a scenario is what a run is made of; the model holds it as written, resolves its names once and
prepares one encounter per die for the engine.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    field_validator,
)

from arena.combat.model import ModelOptions
from arena.combat.tactics import POLICIES, POLICY_SOURCES, TacticsSettings, load_policy_file
from arena.errors import ArenaError, RulesError, nearest
from arena.limits import (
    MAX_COMBATANTS,
    MAX_ENCOUNTERS,
    MAX_NAME_LENGTH,
    MAX_ROUND_CAP,
    MAX_SEED,
)
from arena.rules.ruleset import DIES, RuleOptions, RuleSet
from arena.study.scenarios.parts import (
    DEFAULT_N,
    DEFAULT_ROUND_CAP,
    DEFAULT_SEED,
    GENERATED_PC_RE,
    Frozen,
    MonsterGroupItem,
    Party,
    Rules,
    Tactics,
    Where,
    non_empty,
    party_die,
    party_from_list,
    party_options,
    rules_from_list,
    usable,
)
from arena.world.creatures import Creature
from arena.world.yamlio import (
    PathKey,
    YamlValidationError,
    display_name,
)

if TYPE_CHECKING:
    from arena.combat.engine import Encounter


# --------------------------------------------------------------------------------------------- the scenario
@dataclass(frozen=True)
class _Resolved:
    """What the scenario's names resolve to (computed once)."""

    groups: tuple[tuple[Creature, int], ...]
    party: tuple[Creature | tuple[str, int], ...] | None
    """The named/inline/file party, a generated PC as (class, level) since it is built per die; None for the
    generated party (``party: {level: L}``, also built per die)."""
    base_dir: Path
    summons: dict[str, Creature] = field(default_factory=dict)
    """What the fighters summon, by the summoned name as written: looked up in the scenario's own bestiary (its
    ``bestiary:`` files and ``--bestiary``), as the fighters were."""


class Scenario(Frozen):
    """One encounter and how to run it: the party, the monsters, tactics, rule sets, encounters and seed."""

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    """A label: shown escaped, and made a safe folder name for the default results folder."""
    description: str = Field("", max_length=10_000)
    party: Annotated[Party, BeforeValidator(party_from_list)]
    monsters: Annotated[tuple[MonsterGroupItem, ...], AfterValidator(non_empty)]
    tactics: Tactics = Tactics()
    round_cap: StrictInt = Field(DEFAULT_ROUND_CAP, ge=1, le=MAX_ROUND_CAP)
    """A fight still going after this many rounds ends as a draw."""
    monsters_die_at_zero: StrictBool = False
    """Monsters die at 0 hp (no dying/disabled states for them), a common table shortcut."""
    bestiary: tuple[str, ...] = ()
    """Extra stat-block files or folders, relative to the scenario file."""
    policies: tuple[str, ...] = ()
    """Python files, relative to the scenario file, that register your own policies (``arena.combat.tactics.register``);
    loaded before the tactics are read, in every process that fights the scenario."""
    rules: Annotated[Rules, BeforeValidator(rules_from_list)] = Rules()
    rule_options: RuleOptions = RuleOptions()
    """Choices where the documents are silent (docs/rules.md), applied to every rule set."""
    model: ModelOptions = ModelOptions()
    """The fight model's options (docs/model-options.md): flanking, helpless defenders, the back line ..."""
    n: StrictInt = Field(DEFAULT_N, ge=1, le=MAX_ENCOUNTERS)
    """Encounters per rule set."""
    seed: StrictInt = Field(DEFAULT_SEED, ge=0, le=MAX_SEED)

    _resolved: _Resolved | None = PrivateAttr(None)
    _encounters: dict[str, Any] = PrivateAttr(default_factory=dict)
    _source: str = PrivateAttr("")

    @field_validator("bestiary", "policies", mode="before")
    @classmethod
    def _bestiary_list(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    # -- rule sets
    def rule_sets(self) -> list[RuleSet]:
        """The rule sets to run, in order (``rules``; default: the 48-set grid), with ``rule_options``."""
        return self.rules.rule_sets(self.rule_options)

    # -- names
    @property
    def source(self) -> str:
        """``file:line`` of the scenario when it was loaded from a file, else ''."""
        return self._source

    def resolve(self, base_dir: str | os.PathLike | None = None) -> Scenario:
        """Look up every name (raises ArenaError naming the field); returns self. Done by :func:`load_scenarios`."""
        if self._resolved is None:
            self._resolve(Path(base_dir) if base_dir is not None else Path.cwd(), Where(None, ()))
        return self

    def _names(self) -> _Resolved:
        """What the scenario's names resolve to, looked up on first use (paths relative to the working directory)."""
        if self._resolved is None:
            return self._resolve(Path.cwd(), Where(None, ()))
        return self._resolved

    def _resolve(self, base_dir: Path, where: Where) -> _Resolved:
        """Look up every name (kept on the scenario, and returned); all problems together, each at its field."""
        problems: list[str] = []
        book = self._book(base_dir, where)
        groups = self._monster_groups(book, where, problems)
        party = self._named_party(base_dir, book, where, problems)
        if problems:
            raise YamlValidationError(problems)

        resolved = _Resolved(tuple(groups), tuple(party) if party is not None else None, base_dir)
        fighters = [*self._party_for(resolved, "d20"), *(c for c, _ in groups)]
        placed = [
            *((c, ("party",)) for c in self._party_for(resolved, "d20")),
            *((c, ("monsters", i)) for i, (c, _) in enumerate(groups)),
        ]  # no problem yet: a group a monster
        resolved.summons.update(self._summons(book, where, placed, problems))
        total = len(fighters) - len(groups) + sum(count for _, count in groups)
        if total > MAX_COMBATANTS:
            problems.append(f"{where(('monsters',))}: {total} creatures would fight; the limit is {MAX_COMBATANTS}")
        problems += self._threat_problems(where, groups)
        problems += self._unknown_policies(where, fighters)
        names = {c.name for c in fighters}
        for name in self.tactics.creatures:
            if name not in names:
                problems.append(
                    f"{where(('tactics', 'creatures', name))}: "
                    + nearest(name, sorted(names), "creature in this scenario")
                )
        problems += self._foreign_policies(base_dir, where, fighters)
        if problems:
            raise YamlValidationError(problems)
        self._resolved = resolved
        return resolved

    def _book(self, base_dir: Path, where: Where) -> dict[str, Creature] | None:
        """The bestiary with the scenario's own ``bestiary`` files (None: the built-in one)."""
        from arena.world.bestiary import load_bestiary

        if not self.bestiary:
            return None
        problems = [
            f"{where(('bestiary', i))}: no such file or folder {p!r} (relative to {display_name(base_dir) or '.'})"
            for i, p in enumerate(self.bestiary)
            if not usable(base_dir / p, folder_ok=True)
        ]
        if problems:
            raise YamlValidationError(problems)
        return load_bestiary([base_dir / p for p in self.bestiary])

    def _monster_groups(self, book: dict | None, where: Where, problems: list[str]) -> list[tuple[Creature, int]]:
        """Each monster group as (stat block, count); a problem per group that cannot be one."""
        from arena.world.bestiary import get_creature
        from arena.world.typical import parse_typical_name

        groups: list[tuple[Creature, int]] = []
        for i, group in enumerate(self.monsters):
            if group.stat_block is not None:
                creature = group.stat_block
                if parse_typical_name(creature.name.strip().lower()) is not None:
                    problems.append(
                        f"{where(('monsters', i, 'stat_block', 'name'))}: the name {creature.name!r} "
                        "is reserved for the typical monsters; name your stat block otherwise"
                    )
                    continue
            else:
                assert group.name is not None  # a group names a creature or holds a stat block (_exactly_one)
                try:
                    creature = get_creature(group.name, book)
                except ArenaError as err:
                    problems.append(f"{where(('monsters', i, 'name'))}: {err}")
                    continue
            if creature.side != "monster":
                problems.append(f"{where(('monsters', i))}: {creature.name} is a PC (side: pc); put it in the party")
                continue
            groups.append((creature, group.count))
        return groups

    def _summons(
        self, book: dict | None, where: Where, fighters: list[tuple[Creature, tuple]], problems: list[str]
    ) -> dict[str, Creature]:
        """The stat block of every creature a fighter (with the field it stands at) summons, from the scenario's
        bestiary; a problem at that field for a name it does not hold (the fight would otherwise find "nothing
        comes")."""
        from arena.abilities.summon import summon_of
        from arena.world.bestiary import get_creature

        out: dict[str, Creature] = {}
        for creature, at in fighters:
            summon = summon_of(creature)
            if summon is None or summon.creature in out:
                continue
            try:
                out[summon.creature] = get_creature(summon.creature, book)
            except ArenaError as err:
                problems.append(f"{where(at)}: {creature.name} summons {summon.creature!r}: {err}")
        return out

    def _named_party(
        self, base_dir: Path, book: dict | None, where: Where, problems: list[str]
    ) -> Sequence[Creature | tuple[str, int]] | None:
        """The party of a ``file`` or ``members`` (a generated PC as (class, level)); None for ``level``."""
        from arena.world.party import load_party

        if self.party.file is not None:
            path = base_dir / self.party.file
            if not usable(path):
                problems.append(f"{where(('party', 'file'))}: no such file {self.party.file!r}")
                return None
            return load_party(path)
        if self.party.members is None:
            return None
        party: list[Creature | tuple[str, int]] = []
        for i, member in enumerate(self.party.members):
            generated = GENERATED_PC_RE.match(member.name.strip().lower()) if member.name else None
            if generated:
                level = int(generated.group("level"))
                if not 1 <= level <= 20:
                    problems.append(f"{where(('party', i, 'name'))}: a generated PC's level is 1-20, not {level}")
                    continue
                party.append((generated.group("cls"), level))
                continue
            creature = self._party_member(member, i, book, where, problems)
            if creature is not None:
                party.append(creature)
        return party

    @staticmethod
    def _party_member(member: Any, i: int, book: dict | None, where: Where, problems: list[str]) -> Creature | None:
        """A named or inline PC, or None with a problem."""
        from arena.world.bestiary import get_creature
        from arena.world.typical import parse_typical_name

        try:
            creature = member.stat_block or get_creature(member.name, book)
        except ArenaError as err:
            problems.append(f"{where(('party', i, 'name'))}: {err}")
            return None
        if member.stat_block is not None and parse_typical_name(creature.name.strip().lower()) is not None:
            problems.append(
                f"{where(('party', i, 'stat_block', 'name'))}: the name {creature.name!r} is "
                "reserved for the typical monsters; name your stat block otherwise"
            )
            return None
        if creature.side != "pc":
            field = ("party", i) if member.stat_block is None else ("party", i, "stat_block", "side")
            problems.append(f"{where(field)}: {creature.name} is a monster; a party member needs side: pc")
            return None
        return creature

    def _used_policies(self, fighters: list[Creature]) -> list[tuple[PathKey, str | None]]:
        """Every policy name the scenario uses, with the field that names it."""
        used: list[tuple[PathKey, str | None]] = [
            (("tactics", side), spec.policy)
            for side, spec in (("party", self.tactics.party), ("monsters", self.tactics.monsters))
        ]
        used += [(("tactics", "creatures", name), spec.policy) for name, spec in self.tactics.creatures.items()]
        used += [(("party",) if c.side == "pc" else ("monsters",), c.tactics) for c in fighters]
        return used

    def _unknown_policies(self, where: Where, fighters: list[Creature]) -> list[str]:
        """Names that neither a built-in nor a loaded policy file registers (files run before this check)."""
        problems = []
        for path, policy in self._used_policies(fighters):
            if policy is not None and policy not in POLICIES:
                hint = "" if self.policies else " (a policy of your own comes from a file listed under policies:)"
                problem = f"{where(path)}: {nearest(policy, sorted(POLICIES), 'policy')}{hint}"
                if problem not in problems:
                    problems.append(problem)
        return problems

    def _threat_problems(self, where: Where, groups: list[tuple[Creature, int]]) -> list[str]:
        """Threat ranges the bell curve cannot convert, when a rule set of the grid rolls 3d6 (found here, before
        any fight or results folder, rather than at the first attack)."""
        from arena.rules.bell_curve import threat_low

        options = self.rule_options
        if not any(r.die == "3d6" for r in self.rule_sets()):
            return []
        problems = []
        for i, (creature, _) in enumerate(groups):
            for routine in (*creature.attack, *(creature.full_attack or ())):
                for attack in routine:
                    try:
                        threat_low(attack.threat, options.bell_threat_16_20)
                    except RulesError as err:
                        problem = f"{where(('monsters', i))}: {creature.name}'s {attack.name}: {err}"
                        if problem not in problems:
                            problems.append(problem)
        return problems

    def _foreign_policies(self, base_dir: Path, where: Where, fighters: list[Creature]) -> list[str]:
        """Policies registered by a policy file this scenario does not list: another scenario loaded them here,
        but a worker that never fights that scenario would not know them."""
        own = {str((base_dir / p).resolve()) for p in self.policies}
        problems = []
        for path, policy in self._used_policies(fighters):
            source = POLICY_SOURCES.get(policy) if policy is not None else None
            if source is not None and source not in own:
                problem = (
                    f"{where(path)}: policy {policy!r} comes from {Path(source).name}, which this scenario "
                    "does not list under policies: (each worker loads only the files its scenario lists)"
                )
                if problem not in problems:
                    problems.append(problem)
        return problems

    def _party_for(self, resolved: _Resolved, die: str) -> list[Creature]:
        from arena.world.party import build_character, generate_party

        options = party_options(self.model)
        if resolved.party is None:
            assert self.party.level is not None  # no named or file party: the generated one (Party._exactly_one)
            return generate_party(self.party.level, party_die(die), **options)
        return [
            m if isinstance(m, Creature) else build_character(*m, party_die(die), **options) for m in resolved.party
        ]

    def with_model(self, model: ModelOptions) -> Scenario:
        """This scenario fought under ``model`` (the CLI's ``--model``): a copy, with nothing prepared yet."""
        if model == self.model:
            return self
        copy = self.model_copy(update={"model": model})
        copy._encounters = {}
        return copy

    # -- what the engine gets
    def party_members(self, die: str = "d20") -> list[Creature]:
        """The party that fights under ``die`` (the generated party depends on it)."""
        return self._party_for(self._names(), die)

    def monster_groups(self) -> list[tuple[Creature, int]]:
        """The monster groups as (stat block, count)."""
        return list(self._names().groups)

    def creature_tactics(self, die: str = "d20") -> dict[str, TacticsSettings]:
        """Complete tactics for every creature name in the fight."""
        out: dict[str, TacticsSettings] = {}
        for creature in [*self.party_members(die), *(c for c, _ in self.monster_groups())]:
            settings = self.tactics.settings_for(creature)
            if out.get(creature.name, settings) != settings:
                raise ArenaError(
                    f"{self._source or self.name}: the name {creature.name!r} is on both sides with "
                    "different tactics; tactics are keyed by name, so rename one"
                )
            out[creature.name] = settings
        return out

    def inert_rule_sets(self, rule_sets: list[RuleSet] | None = None) -> dict[str, list[str]]:
        """The rule sets (by key) whose pressing or calling no creature of this scenario uses, with why: they fight
        exactly as the rule set without that variant (``arena run`` says so once; the report marks them)."""
        out: dict[str, list[str]] = {}
        for rules in self.rule_sets() if rule_sets is None else rule_sets:
            fighters = [*self.party_members(rules.die), *(c for c, _ in self.monster_groups())]
            why = self.tactics.inert(fighters, rules)
            if why:
                out[rules.key] = why
        return out

    def load_policies(self) -> None:
        """Register the scenario's own policies in this process (a worker of a run too)."""
        base_dir = self._resolved.base_dir if self._resolved is not None else Path.cwd()
        for path in self.policies:
            load_policy_file(base_dir / path)

    def __getstate__(self) -> dict[Any, Any]:
        """A pickled scenario (a worker's task) leaves its prepared encounters behind: a worker prepares its own, and
        the compiled engine's objects are not made to be pickled."""
        state = super().__getstate__()
        private = state.get("__pydantic_private__")
        if private and private.get("_encounters"):
            state["__pydantic_private__"] = {**private, "_encounters": {}}
        return state

    def prepare(self, die: str = "d20") -> Encounter:
        """The engine's :class:`~arena.combat.engine.Encounter` for rule sets using ``die`` (cached per die)."""
        if die not in DIES:
            raise ArenaError(f"die must be one of {', '.join(DIES)}, not {die!r}")
        self.load_policies()  # also after a pickle: a worker's registry starts empty
        if die not in self._encounters:
            from arena.combat.engine import prepare

            self._encounters[die] = prepare(
                self.party_members(die),
                self.monster_groups(),
                round_cap=self.round_cap,
                party_tactics=self.tactics.side_settings("pc"),
                monster_tactics=self.tactics.side_settings("monster"),
                creature_tactics=self.creature_tactics(die),
                monsters_die_at_zero=self.monsters_die_at_zero,
                model=self.model,
                summons=self._names().summons,
            )
        return self._encounters[die]

    # -- challenge
    def encounter_level(self, die: str = "d20") -> Fraction:
        """The Encounter Level of the monsters (3d6: with the bell-curve group reduction)."""
        from arena.world.challenge import effective_crs, encounter_level

        merged: dict[str, list] = {}
        for creature, count in self.monster_groups():
            merged.setdefault(creature.name, [creature.cr, 0])[1] += count
        groups = [(cr, n) for cr, n in merged.values()]
        crs = effective_crs(groups, die=party_die(die))
        return encounter_level(list(zip(crs, (n for _, n in groups), strict=True)))

    def party_level(self) -> int | None:
        """The generated party's level (None for a named or file party)."""
        return self.party.level

    # -- identity
    def canonical_json(self) -> str:
        """The scenario as written plus every stat block a name resolved to, as sorted compact JSON.

        The generated party is not included: it is a function of ``party.level`` and the code version.
        """
        doc: dict[str, Any] = {"scenario": self.model_dump(mode="json")}
        resolved = self._names()
        base_dir = resolved.base_dir
        doc["policy_files"] = {
            p: hashlib.sha256((base_dir / p).read_bytes()).hexdigest()
            for p in self.policies
            if (base_dir / p).is_file()
        }
        doc["stat_blocks"] = {c.name: c.model_dump(mode="json") for c, _ in self.monster_groups()}
        if resolved.summons:  # only where something summons, so other scenarios keep their digests
            doc["summoned"] = {name: c.model_dump(mode="json") for name, c in resolved.summons.items()}
        if resolved.party is not None:
            doc["party"] = [
                m.model_dump(mode="json") if isinstance(m, Creature) else "-".join(map(str, m)) for m in resolved.party
            ]
        return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def digest(self) -> str:
        """sha256 (hex) of :meth:`canonical_json`, for run manifests."""
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()
