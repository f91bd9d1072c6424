"""Scenario files: who fights whom, with which tactics, under which rule sets, how many times.

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
  always given one complete :class:`~arena.fight.tactics.TacticsSettings` per creature name.
* ``rules`` as a mapping is the product of the values given; a variant not named keeps its standard value
  (as :func:`arena.rules.ruleset.grid` does). Left out entirely, it is every combination the documents
  define (:func:`arena.rules.ruleset.default_grid`, 48 rule sets).
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import pydantic
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from arena.errors import ArenaError, RulesError, nearest, one_of
from arena.fight.tactics import CALLED_SHOT, POLICIES, POLICY_SOURCES, PRESS_LUCK, TacticsSettings, load_policy_file
from arena.limits import (
    MAX_COMBATANTS,
    MAX_ENCOUNTERS,
    MAX_FILE_BYTES,
    MAX_GROUP_COUNT,
    MAX_NAME_LENGTH,
    MAX_ROUND_CAP,
    MAX_SEED,
)
from arena.rules.ruleset import DIES, Die, Modifiers, RuleOptions, RuleSet, default_grid, grid
from arena.world.creatures import Creature
from arena.world.policy_names import POLICY_NAME_RE
from arena.world.yamlio import (
    PathKey,
    YamlDoc,
    YamlValidationError,
    display_name,
    format_validation_error,
    load_yaml,
    mapping_at,
)

if TYPE_CHECKING:
    from arena.fight.engine import Encounter

DEFAULT_ROUND_CAP = 50
DEFAULT_N = 1000
DEFAULT_SEED = 0
GENERATED_PC_RE = re.compile(r"^(?P<cls>fighter|cleric|rogue|wizard)-(?P<level>\d+)$")
"""A party member named like a generated PC (``wizard-5``) is built by :func:`arena.world.party.build_character`."""
GROUP_TEXT_RE = re.compile(r"^(?P<name>[^:]+?)\s*(?::\s*(?P<count>[^:]*))?$")


def _choice(what: str, choices: Sequence[str]) -> Any:
    return Annotated[str, AfterValidator(one_of(what, choices)),
                     WithJsonSchema({"type": "string", "enum": list(choices)})]


_POLICY_FILES_LISTED: contextvars.ContextVar[bool] = contextvars.ContextVar("policy_files_listed", default=True)
"""False while validating a scenario that lists no policy files: then a name must already be registered."""


def _policy_name(value: str) -> str:
    """A registered policy, or a name a listed policy file may register (checked once the files have run)."""
    if value in POLICIES:
        return value
    if not _POLICY_FILES_LISTED.get():
        raise ValueError(nearest(value, sorted(POLICIES), "policy")
                         + " (a policy of your own comes from a file listed under policies:)")
    if POLICY_NAME_RE.match(value):
        return value
    raise ValueError(nearest(value, sorted(POLICIES), "policy") + "; a policy from a file is named with lower-case "
                     "letters, digits, '-' and '_'")


Policy = Annotated[str, AfterValidator(_policy_name),
                   WithJsonSchema({"type": "string", "examples": sorted(POLICIES)})]
PressLuck = _choice("press_luck setting", PRESS_LUCK)
CalledShot = _choice("called_shot setting", CALLED_SHOT)


def _non_empty(value: tuple) -> tuple:
    # Checked after the items (not Field(min_length=1)), so that a bad item gives one error, not two.
    if not value:
        raise ValueError("the list is empty")
    return value


def _one_or_many(value: Any) -> Any:
    return [value] if isinstance(value, str | bool | int) else value


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------------------------- tactics
class TacticsSpec(Frozen):
    """How a side or one creature fights. A field left out is inherited (creature <- side <- stat block)."""

    policy: Policy | None = None
    """One of :data:`arena.fight.tactics.POLICIES`; default: each creature's own stat-block ``tactics``."""
    press_luck: PressLuck | None = None
    """One of :data:`arena.fight.tactics.PRESS_LUCK`; default ``never``."""
    called_shot: CalledShot | None = None
    """One of :data:`arena.fight.tactics.CALLED_SHOT`; default ``never``."""


class Tactics(Frozen):
    """Tactics per side and per creature name (``creatures: {troll: {policy: random}}``)."""

    party: TacticsSpec = TacticsSpec()
    monsters: TacticsSpec = TacticsSpec()
    creatures: dict[str, TacticsSpec] = Field(default_factory=dict)
    """By creature name (a monster's name, a PC's name such as ``wizard-5``); it overrides its side."""

    def settings_for(self, creature: Creature) -> TacticsSettings:
        """The complete settings of one creature: its own entry, then its side's, then its stat block."""
        side = self.party if creature.side == "pc" else self.monsters
        own = self.creatures.get(creature.name, TacticsSpec())
        defaults = TacticsSettings()
        return TacticsSettings(
            policy=own.policy or side.policy or creature.tactics or defaults.policy,
            press_luck=own.press_luck or side.press_luck or defaults.press_luck,
            called_shot=own.called_shot or side.called_shot or defaults.called_shot,
        )

    def side_settings(self, side: str) -> TacticsSettings:
        """A side's settings as given (missing fields at the TacticsSettings defaults)."""
        spec = self.party if side == "pc" else self.monsters
        return TacticsSettings(**spec.model_dump(exclude_none=True))


# --------------------------------------------------------------------------------------------- party
def _member_from_text(value: Any) -> Any:
    return {"name": value} if isinstance(value, str) else value


def _group_from_text(value: Any) -> Any:
    """``"troll:4"`` -> ``{"name": "troll", "count": 4}``; ``"ogre"`` -> count 1."""
    if not isinstance(value, str):
        return value
    m = GROUP_TEXT_RE.match(value.strip())
    if not m or not m.group("name").strip():
        raise ValueError(f"group {value!r} is not NAME or NAME:COUNT (e.g. troll:4)")
    count = m.group("count")
    if count is None:
        return {"name": m.group("name").strip()}
    text = count.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9 or not 1 <= int(text) <= MAX_GROUP_COUNT:
        raise ValueError(f"group {value!r}: the count after ':' must be a whole number from 1 to {MAX_GROUP_COUNT}")
    number = int(text)
    return {"name": m.group("name").strip(), "count": number}


class _NamedOrInline(Frozen):
    name: str | None = Field(None, min_length=1)
    """A creature from the bestiary (built-in or the scenario's ``bestiary`` files)."""
    stat_block: Creature | None = None
    """An inline stat block (the fields of ``docs/bestiary.md``)."""

    @model_validator(mode="before")
    @classmethod
    def _hint_inline(cls, data: Any) -> Any:
        if isinstance(data, dict) and "stat_block" not in data and {"hp", "ac", "type"} & set(data):
            raise ValueError("an inline stat block goes under `stat_block:` (e.g. `- stat_block: {name: ..., "
                             "hp: ...}`); `name:` alone names a creature from the bestiary")
        return data

    @model_validator(mode="after")
    def _exactly_one(self) -> _NamedOrInline:
        if (self.name is None) == (self.stat_block is None):
            raise ValueError("give either `name:` (a bestiary creature) or `stat_block:` (an inline stat block)")
        return self


class PartyMember(_NamedOrInline):
    """One PC: a name (bestiary/party file, or a generated PC such as ``wizard-5``) or ``stat_block:``."""


PartyMemberItem = Annotated[PartyMember, BeforeValidator(_member_from_text)]


def _party_from_list(value: Any) -> Any:
    return {"members": value} if isinstance(value, list) else value


class Party(Frozen):
    """Exactly one of: ``level`` (the generated party), ``file`` (a party file), ``members`` (a list).

    In YAML, a list is the ``members`` form: ``party: [fighter-5, {stat_block: {...}}]``.
    """

    level: StrictInt | None = Field(None, ge=1, le=20)
    """The generated fighter, cleric, rogue and wizard of this level (:func:`arena.world.party.generate_party`)."""
    file: str | None = None
    """A party file (a list of ``side: pc`` stat blocks), relative to the scenario file."""
    members: Annotated[tuple[PartyMemberItem, ...], AfterValidator(_non_empty)] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Party:
        given = [k for k in ("level", "file", "members") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give the party as `{level: L}`, `{file: party.yaml}` or a list of members"
                             + (f" (not {' and '.join(given)} together)" if given else ""))
        return self


class MonsterGroup(_NamedOrInline):
    """Identical monsters: ``{name: troll, count: 4}``, ``"troll:4"``, or ``{stat_block: {...}, count: 2}``."""

    count: StrictInt = Field(1, ge=1, le=MAX_GROUP_COUNT)


MonsterGroupItem = Annotated[MonsterGroup, BeforeValidator(_group_from_text)]


# --------------------------------------------------------------------------------------------- rule sets
def _rule_key(key: str) -> str:
    try:
        return RuleSet.from_key(key).key
    except RulesError as err:
        raise ValueError(str(err)) from None


RuleKey = Annotated[str, AfterValidator(_rule_key),
                    Field(json_schema_extra={"examples": ["d20", "3d6+prad+luck+open"]})]


def _rules_from_list(value: Any) -> Any:
    if isinstance(value, str):
        return {"keys": [value]}
    return {"keys": value} if isinstance(value, list) else value


def _values(kind: Any) -> Any:
    return Annotated[Annotated[tuple[kind, ...], AfterValidator(_non_empty)] | None, BeforeValidator(_one_or_many)]


class Rules(Frozen):
    """Either ``keys`` (in YAML: a list of rule-set keys, or one key) or the product of variant values.

    Unnamed variants keep their standard value; with nothing given at all it is the default 48-set grid.
    """

    keys: Annotated[tuple[RuleKey, ...], AfterValidator(_non_empty)] | None = None
    die: _values(Die) = None
    players_roll_all: _values(bool) = None
    modifiers: _values(Modifiers) = None
    open_ended: _values(bool) = None
    called_shots: _values(bool) = None

    @model_validator(mode="after")
    def _check(self) -> Rules:
        variants = self._variants()
        if self.keys is not None and variants:
            raise ValueError("give either a list of rule-set keys or variant values, not both")
        if self.keys is not None and len(set(self.keys)) != len(self.keys):
            raise ValueError("a rule set is listed twice")
        for name, values in variants.items():
            if len(set(values)) != len(values):
                raise ValueError(f"{name}: a value is listed twice")
        try:
            self.rule_sets()
        except RulesError as err:
            raise ValueError(f"{err} (list the rule-set keys you want instead of a product)") from None
        return self

    def _variants(self) -> dict[str, list]:
        names = ("die", "players_roll_all", "modifiers", "open_ended", "called_shots")
        return {n: list(getattr(self, n)) for n in names if getattr(self, n) is not None}

    def rule_sets(self, options: RuleOptions | None = None) -> list[RuleSet]:
        options = options or RuleOptions()
        if self.keys is not None:
            return [RuleSet.from_key(k, options) for k in self.keys]
        variants = self._variants()
        sets = grid(**variants) if variants else default_grid()
        return [_with_options(r, options) for r in sets]


def _with_options(rules: RuleSet, options: RuleOptions) -> RuleSet:
    if rules.options == options:
        return rules
    return RuleSet(**rules.model_dump(exclude={"options"}), options=options)


# --------------------------------------------------------------------------------------------- the scenario
@dataclass(frozen=True)
class _Resolved:
    """What the scenario's names resolve to (computed once)."""

    groups: tuple[tuple[Creature, int], ...]
    party: tuple[Creature | tuple[str, int], ...] | None
    """The named/inline/file party, a generated PC as (class, level) since it is built per die; None for the
    generated party (``party: {level: L}``, also built per die)."""
    base_dir: Path


class Scenario(Frozen):
    """One encounter and how to run it: the party, the monsters, tactics, rule sets, encounters and seed."""

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    """A label: shown escaped, and made a safe folder name for the default results folder."""
    description: str = Field("", max_length=10_000)
    party: Annotated[Party, BeforeValidator(_party_from_list)]
    monsters: Annotated[tuple[MonsterGroupItem, ...], AfterValidator(_non_empty)]
    tactics: Tactics = Tactics()
    round_cap: StrictInt = Field(DEFAULT_ROUND_CAP, ge=1, le=MAX_ROUND_CAP)
    """A fight still going after this many rounds ends as a draw."""
    monsters_die_at_zero: StrictBool = False
    """Monsters die at 0 hp (no dying/disabled states for them), a common table shortcut."""
    bestiary: tuple[str, ...] = ()
    """Extra stat-block files or folders, relative to the scenario file."""
    policies: tuple[str, ...] = ()
    """Python files, relative to the scenario file, that register your own policies (``arena.fight.tactics.register``);
    loaded before the tactics are read, in every process that fights the scenario."""
    rules: Annotated[Rules, BeforeValidator(_rules_from_list)] = Rules()
    rule_options: RuleOptions = RuleOptions()
    """Choices where the documents are silent (README "Rules notes"), applied to every rule set."""
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
            self._resolve(Path(base_dir) if base_dir is not None else Path.cwd(), _Where(None, ()))
        return self

    def _resolve(self, base_dir: Path, where: _Where) -> None:
        from arena.world.bestiary import get_creature, load_bestiary
        from arena.world.party import load_party
        from arena.world.typical import parse_typical_name

        problems: list[str] = []
        book = None
        if self.bestiary:
            for i, p in enumerate(self.bestiary):
                if not _usable(base_dir / p, folder_ok=True):
                    problems.append(f"{where(('bestiary', i))}: no such file or folder {p!r}"
                                    f" (relative to {display_name(base_dir) or '.'})")
            if problems:
                raise YamlValidationError(problems)
            book = load_bestiary([base_dir / p for p in self.bestiary])

        groups: list[tuple[Creature, int]] = []
        for i, group in enumerate(self.monsters):
            if group.stat_block is not None:
                creature = group.stat_block
                if parse_typical_name(creature.name.strip().lower()) is not None:
                    problems.append(f"{where(('monsters', i, 'stat_block', 'name'))}: the name {creature.name!r} "
                                    "is reserved for the typical monsters; name your stat block otherwise")
                    continue
            else:
                try:
                    creature = get_creature(group.name, book)
                except ArenaError as err:
                    problems.append(f"{where(('monsters', i, 'name'))}: {err}")
                    continue
            if creature.side != "monster":
                problems.append(f"{where(('monsters', i))}: {creature.name} is a PC (side: pc); "
                                "put it in the party")
                continue
            groups.append((creature, group.count))

        party: list[Creature | tuple[str, int]] | None = None
        if self.party.file is not None:
            path = base_dir / self.party.file
            if not _usable(path):
                problems.append(f"{where(('party', 'file'))}: no such file {self.party.file!r}")
            else:
                party = load_party(path)
        elif self.party.members is not None:
            party = []
            for i, member in enumerate(self.party.members):
                generated = GENERATED_PC_RE.match(member.name.strip().lower()) if member.name else None
                if generated:
                    level = int(generated.group("level"))
                    if not 1 <= level <= 20:
                        problems.append(f"{where(('party', i, 'name'))}: a generated PC's level "
                                        f"is 1-20, not {level}")
                        continue
                    party.append((generated.group("cls"), level))
                    continue
                try:
                    creature = member.stat_block or get_creature(member.name, book)
                except ArenaError as err:
                    problems.append(f"{where(('party', i, 'name'))}: {err}")
                    continue
                if member.stat_block is not None and parse_typical_name(creature.name.strip().lower()) is not None:
                    problems.append(f"{where(('party', i, 'stat_block', 'name'))}: the name {creature.name!r} is "
                                    "reserved for the typical monsters; name your stat block otherwise")
                    continue
                if creature.side != "pc":
                    field = ("party", i) if member.stat_block is None else ("party", i, "stat_block", "side")
                    problems.append(f"{where(field)}: {creature.name} is a monster; "
                                    "a party member needs side: pc")
                    continue
                party.append(creature)
        if problems:
            raise YamlValidationError(problems)

        resolved = _Resolved(tuple(groups), tuple(party) if party is not None else None, base_dir)
        fighters = [*self._party_for(resolved, "d20"), *(c for c, _ in groups)]
        total = len(fighters) - len(groups) + sum(count for _, count in groups)
        if total > MAX_COMBATANTS:
            problems.append(f"{where(('monsters',))}: {total} creatures would fight; the limit is {MAX_COMBATANTS}")
        problems += self._threat_problems(where, groups)
        problems += self._unknown_policies(where, fighters)
        names = {c.name for c in fighters}
        for name in self.tactics.creatures:
            if name not in names:
                problems.append(f"{where(('tactics', 'creatures', name))}: "
                                + nearest(name, sorted(names), "creature in this scenario"))
        problems += self._foreign_policies(base_dir, where, fighters)
        if problems:
            raise YamlValidationError(problems)
        self._resolved = resolved

    def _used_policies(self, fighters: list[Creature]) -> list[tuple[PathKey, str | None]]:
        """Every policy name the scenario uses, with the field that names it."""
        used = [(("tactics", side), spec.policy) for side, spec in (("party", self.tactics.party),
                                                                     ("monsters", self.tactics.monsters))]
        used += [(("tactics", "creatures", name), spec.policy) for name, spec in self.tactics.creatures.items()]
        used += [(("party",) if c.side == "pc" else ("monsters",), c.tactics) for c in fighters]
        return used

    def _unknown_policies(self, where: _Where, fighters: list[Creature]) -> list[str]:
        """Names that neither a built-in nor a loaded policy file registers (files run before this check)."""
        problems = []
        for path, policy in self._used_policies(fighters):
            if policy is not None and policy not in POLICIES:
                hint = "" if self.policies else " (a policy of your own comes from a file listed under policies:)"
                problem = f"{where(path)}: {nearest(policy, sorted(POLICIES), 'policy')}{hint}"
                if problem not in problems:
                    problems.append(problem)
        return problems

    def _threat_problems(self, where: _Where, groups: list[tuple[Creature, int]]) -> list[str]:
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

    def _foreign_policies(self, base_dir: Path, where: _Where, fighters: list[Creature]) -> list[str]:
        """Policies registered by a policy file this scenario does not list: another scenario loaded them here,
        but a worker that never fights that scenario would not know them."""
        own = {str((base_dir / p).resolve()) for p in self.policies}
        problems = []
        for path, policy in self._used_policies(fighters):
            source = POLICY_SOURCES.get(policy)
            if source is not None and source not in own:
                problem = (f"{where(path)}: policy {policy!r} comes from {Path(source).name}, which this scenario "
                           "does not list under policies: (each worker loads only the files its scenario lists)")
                if problem not in problems:
                    problems.append(problem)
        return problems

    def _party_for(self, resolved: _Resolved, die: str) -> list[Creature]:
        from arena.world.party import build_character, generate_party

        if resolved.party is None:
            return generate_party(self.party.level, party_die(die))
        return [m if isinstance(m, Creature) else build_character(*m, party_die(die)) for m in resolved.party]

    # -- what the engine gets
    def party_members(self, die: str = "d20") -> list[Creature]:
        """The party that fights under ``die`` (the generated party depends on it)."""
        self.resolve()
        return self._party_for(self._resolved, die)

    def monster_groups(self) -> list[tuple[Creature, int]]:
        """The monster groups as (stat block, count)."""
        self.resolve()
        return list(self._resolved.groups)

    def creature_tactics(self, die: str = "d20") -> dict[str, TacticsSettings]:
        """Complete tactics for every creature name in the fight."""
        out: dict[str, TacticsSettings] = {}
        for creature in [*self.party_members(die), *(c for c, _ in self.monster_groups())]:
            settings = self.tactics.settings_for(creature)
            if out.get(creature.name, settings) != settings:
                raise ArenaError(f"{self._source or self.name}: the name {creature.name!r} is on both sides with "
                                 "different tactics; tactics are keyed by name, so rename one")
            out[creature.name] = settings
        return out

    def load_policies(self) -> None:
        """Register the scenario's own policies in this process (a worker of a run too)."""
        base_dir = self._resolved.base_dir if self._resolved is not None else Path.cwd()
        for path in self.policies:
            load_policy_file(base_dir / path)

    def prepare(self, die: str = "d20") -> Encounter:
        """The engine's :class:`~arena.fight.engine.Encounter` for rule sets using ``die`` (cached per die)."""
        if die not in DIES:
            raise ArenaError(f"die must be one of {', '.join(DIES)}, not {die!r}")
        self.load_policies()                      # also after a pickle: a worker's registry starts empty
        if die not in self._encounters:
            from arena.fight.engine import prepare

            self._encounters[die] = prepare(
                self.party_members(die), self.monster_groups(), round_cap=self.round_cap,
                party_tactics=self.tactics.side_settings("pc"),
                monster_tactics=self.tactics.side_settings("monster"),
                creature_tactics=self.creature_tactics(die),
                monsters_die_at_zero=self.monsters_die_at_zero)
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
        base_dir = self._resolved.base_dir
        doc["policy_files"] = {p: hashlib.sha256((base_dir / p).read_bytes()).hexdigest()
                               for p in self.policies if (base_dir / p).is_file()}
        doc["stat_blocks"] = {c.name: c.model_dump(mode="json") for c, _ in self.monster_groups()}
        if self._resolved.party is not None:
            doc["party"] = [m.model_dump(mode="json") if isinstance(m, Creature) else "-".join(map(str, m))
                            for m in self._resolved.party]
        return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def digest(self) -> str:
        """sha256 (hex) of :meth:`canonical_json`, for run manifests."""
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()


def party_die(die: str) -> str:
    """The die the generated party is built for: ``3d6`` under the bell curve, else ``d20`` (fixed10 too)."""
    return "3d6" if die == "3d6" else "d20"


# --------------------------------------------------------------------------------------------- loading
class _Where:
    """``file:line: field.path`` of a field of one scenario in a document (just the field path without one)."""

    def __init__(self, doc: YamlDoc | None, prefix: PathKey):
        self.doc, self.prefix = doc, prefix

    def __call__(self, path: PathKey) -> str:
        full = (*self.prefix, *path)
        dotted = ".".join(str(p) for p in full)
        return dotted if self.doc is None else f"{self.doc.where(full)}: {dotted}"


_VIRTUAL_KEYS = frozenset({"members", "keys"})
"""Fields that a YAML list stands for (``party: [...]`` is ``members``, ``rules: [...]`` is ``keys``)."""


class _Relocated:
    """A pydantic error whose locations skip the virtual keys, so they point at what the file really says."""

    def __init__(self, error: pydantic.ValidationError, data: Any):
        self.error, self.data = error, data

    def errors(self) -> list[dict[str, Any]]:
        out = []
        for err in self.error.errors():
            loc, here = [], self.data
            for part in err.get("loc", ()):
                in_dict = isinstance(here, dict) and part in here
                in_list = isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here)
                if in_dict or in_list:
                    here = here[part]
                elif part in _VIRTUAL_KEYS and isinstance(here, list | str):
                    continue
                else:
                    here = None
                loc.append(part)
            out.append({**err, "loc": tuple(loc)})
        return out


def _schema_hint(problem: str) -> str:
    """yamlio's "unknown field" hint names the stat-block schema; outside a stat block, name the scenario format."""
    field = problem.split(": ", 2)[1] if problem.count(": ") >= 2 else ""
    if "stat_block" in field.split("."):
        return problem
    return problem.replace("see `arena bestiary schema`", "see docs/scenarios.md")


def validate_scenario(doc: YamlDoc, prefix: PathKey = ()) -> Scenario:
    """Validate the scenario at ``prefix`` of ``doc`` (no name resolution); errors name file, line and field."""
    sub = mapping_at(doc, prefix, "a scenario (a mapping with name, party, monsters, ...)")
    token = _POLICY_FILES_LISTED.set(bool(sub.get("policies")))
    try:
        scenario = Scenario.model_validate(sub)
    except pydantic.ValidationError as err:
        found = format_validation_error(_Relocated(err, sub), doc, prefix)
        raise YamlValidationError([_schema_hint(p) for p in found]) from None
    finally:
        _POLICY_FILES_LISTED.reset(token)
    scenario._source = doc.where(prefix)
    return scenario


def _policy_paths(scenario: Scenario, base_dir: Path, where: _Where, trusted: bool,
                  trusted_folders: Sequence[Path]) -> tuple[list[tuple[Path, str]], list[str]]:
    """The scenario's policy files (resolved path, as written) and the problems that stop them from running.

    A file runs only when the user says so: ``trusted`` (``--trust-policies``) for files in the scenario's own
    folder or below, or a folder the user's config trusts (:mod:`arena.world.config`) for files anywhere in it."""
    files: list[tuple[Path, str]] = []
    problems: list[str] = []
    for i, shown in enumerate(scenario.policies):
        field = where(("policies", i))
        if not _usable(base_dir / shown):
            problems.append(f"{field}: no such policy file {shown[:MAX_NAME_LENGTH]!r}")
            continue
        path = (base_dir / shown).resolve()
        if path.suffix != ".py":
            problems.append(f"{field}: policy file {shown!r} is not a Python file (.py)")
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            problems.append(f"{field}: policy file {shown!r} is larger than {MAX_FILE_BYTES // 1024:,} KiB")
            continue
        in_trusted_folder = any(folder == path.parent or folder in path.parents for folder in trusted_folders)
        inside = base_dir == path.parent or base_dir in path.parents
        if not in_trusted_folder and not trusted:
            problems.append(f"{field}: {shown!r} is Python code and runs only when you trust it: add "
                            "--trust-policies (or list its folder under trusted_policy_folders in your config; "
                            "docs/scenarios.md#your-own-policies)")
            continue
        if not in_trusted_folder and not inside:
            problems.append(f"{field}: policy file {shown!r} is outside the scenario's folder; --trust-policies "
                            "trusts only files in it: move the file there or list its folder under "
                            "trusted_policy_folders in your config")
            continue
        files.append((path, shown))
    return files, problems


def _usable(path: Path, folder_ok: bool = False) -> bool:
    """True for an existing regular file (or folder, with ``folder_ok``) that a path can name at all: a name with a
    NUL, too long for the file system, or in a symlink loop is simply not usable (never an exception)."""
    try:
        return path.is_file() or (folder_ok and path.is_dir())
    except (OSError, ValueError):
        return False


def load_scenarios(path: str | os.PathLike, *, trust_policies: bool = False,
                   on_policy: Callable[[list[str]], None] | None = None) -> list[Scenario]:
    """Every scenario in a file (one mapping, or a top-level list), validated and resolved.

    ``bestiary``, ``party.file`` and ``policies`` paths are relative to the scenario file. All problems of the file are
    reported together (:class:`~arena.world.yamlio.YamlValidationError`); scenario names must be unique in a file.

    Policy files (Python) run only after every scenario of the file validated, and only if trusted
    (``trust_policies``, or a trusted folder of the user's config: see :func:`_policy_paths`); ``on_policy`` is
    told the files just before they run, so the command can say so.
    """
    from arena.world.config import trusted_policy_folders

    doc = load_yaml(path)
    base_dir = Path(path).resolve().parent
    if isinstance(doc.data, dict) and "scenarios" in doc.data:
        raise YamlValidationError([f"{doc.where(('scenarios',))}: scenarios: write the scenarios as a top-level "
                                   "list (`- name: ...`), not under a `scenarios:` key"])
    prefixes: list[PathKey] = [(i,) for i in range(len(doc.data))] if isinstance(doc.data, list) else [()]
    if not prefixes:
        raise YamlValidationError([f"{doc.where()}: the file holds an empty list: no scenarios"])
    found: dict[PathKey, list[str]] = {prefix: [] for prefix in prefixes}   # problems, scenario by scenario
    validated: list[tuple[Scenario, PathKey]] = []
    seen: dict[str, str] = {}
    for prefix in prefixes:
        raw = doc.data[prefix[0]] if prefix else doc.data
        name = raw.get("name") if isinstance(raw, dict) else None
        if isinstance(name, str):
            where = doc.where((*prefix, "name"))
            if name in seen:
                found[prefix].append(f"{where}: name: scenario {name[:MAX_NAME_LENGTH]!r} is defined twice (first "
                                     f"at {seen[name]})")
            seen.setdefault(name, where)
        try:
            validated.append((validate_scenario(doc, prefix), prefix))
        except YamlValidationError as err:
            found[prefix].extend(err.problems)

    # Python files run only once the whole file validated, and only if trusted.
    loaded_policies = False
    if not any(found.values()) and any(sc.policies for sc, _ in validated):
        to_run: list[tuple[Path, str, PathKey, int]] = []
        folders = trusted_policy_folders()
        for scenario, prefix in validated:
            files, problems = _policy_paths(scenario, base_dir, _Where(doc, prefix), trust_policies, folders)
            found[prefix] += problems
            to_run += [(p, shown, prefix, i) for i, (p, shown) in enumerate(files)]
        if not any(found.values()):
            if on_policy is not None:
                on_policy(sorted({display_name(p) for p, *_ in to_run}))
            for resolved, shown, prefix, i in to_run:
                try:
                    load_policy_file(resolved, shown=shown)
                except ArenaError as err:
                    found[prefix].append(f"{doc.where((*prefix, 'policies', i))}: policies.{i}: {err}")
            loaded_policies = not any(found.values())

    scenarios: list[Scenario] = []
    for scenario, prefix in validated:
        if scenario.policies and not loaded_policies:
            continue                                # its names may come from files that have not run
        try:
            scenario._resolve(base_dir, _Where(doc, prefix))
        except YamlValidationError as err:
            found[prefix].extend(err.problems)
            continue
        except ArenaError as err:
            found[prefix].append(f"{doc.where(prefix)}: {err}")
            continue
        scenarios.append(scenario)
    problems = [p for prefix in prefixes for p in found[prefix]]
    if problems:
        raise YamlValidationError(problems)
    return scenarios


def pick(scenarios: Sequence[Scenario], name: str | None, source: str = "the file") -> Scenario:
    """The scenario called ``name``; with no name, the only one (several: an error listing them)."""
    if name is None:
        if len(scenarios) == 1:
            return scenarios[0]
        raise ArenaError(f"{source} holds {len(scenarios)} scenarios; choose one with --scenario: "
                         + ", ".join(s.name for s in scenarios))
    for scenario in scenarios:
        if scenario.name == name:
            return scenario
    raise ArenaError(nearest(name, [s.name for s in scenarios], f"scenario in {source}"))


__all__ = [
    "MonsterGroup", "Party", "PartyMember", "Rules", "Scenario", "Tactics", "TacticsSpec",
    "load_scenarios", "nearest", "party_die", "pick", "validate_scenario",
]
