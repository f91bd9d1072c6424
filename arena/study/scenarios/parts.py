"""The parts of a scenario file, as written: tactics per side and creature, the party, the monster groups, the rule
sets. Frozen pydantic models with ``extra="forbid"``; names are looked up later, by
:mod:`arena.study.scenarios.loading`.

Why a module of its own: these are the file's vocabulary, checked as written (choices, counts, shorthands), and the JSON
Schema editors get is made from them.
"""

from __future__ import annotations

import contextvars
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictInt,
    WithJsonSchema,
    model_serializer,
    model_validator,
)

from arena.combat.model import ModelOptions
from arena.combat.tactics import CALLED_SHOT, COUP_DE_GRACE, POLICIES, PRESS_LUCK, TacticsSettings
from arena.errors import RulesError, nearest, one_of
from arena.limits import (
    MAX_GROUP_COUNT,
)
from arena.rules.ruleset import Die, Modifiers, RuleOptions, RuleSet, default_grid, grid
from arena.world.creatures import Creature
from arena.world.party_gear import LEGACY_CHOICES
from arena.world.policy_names import POLICY_NAME_RE
from arena.world.yamlio import (
    PathKey,
    YamlDoc,
)

DEFAULT_ROUND_CAP = 50
DEFAULT_N = 1000
DEFAULT_SEED = 0
GENERATED_PC_RE = re.compile(r"^(?P<cls>fighter|cleric|rogue|wizard)-(?P<level>\d+)$")
"""A party member named like a generated PC (``wizard-5``) is built by :func:`arena.world.party.build_character`."""
GROUP_TEXT_RE = re.compile(r"^(?P<name>[^:]+?)\s*(?::\s*(?P<count>[^:]*))?$")


POLICY_FILES_LISTED: contextvars.ContextVar[bool] = contextvars.ContextVar("policy_files_listed", default=True)
"""False while validating a scenario that lists no policy files: then a name must already be registered."""


def _policy_name(value: str) -> str:
    """A registered policy, or a name a listed policy file may register (checked once the files have run)."""
    if value in POLICIES:
        return value
    if not POLICY_FILES_LISTED.get():
        raise ValueError(
            nearest(value, sorted(POLICIES), "policy")
            + " (a policy of your own comes from a file listed under policies:)"
        )
    if POLICY_NAME_RE.match(value):
        return value
    raise ValueError(
        nearest(value, sorted(POLICIES), "policy") + "; a policy from a file is named with lower-case "
        "letters, digits, '-' and '_'"
    )


Policy = Annotated[str, AfterValidator(_policy_name), WithJsonSchema({"type": "string", "examples": sorted(POLICIES)})]
PressLuck = Annotated[
    str,
    AfterValidator(one_of("press_luck setting", PRESS_LUCK)),
    WithJsonSchema({"type": "string", "enum": list(PRESS_LUCK)}),
]
"""One of :data:`arena.combat.tactics.PRESS_LUCK`."""
CalledShot = Annotated[
    str,
    AfterValidator(one_of("called_shot setting", CALLED_SHOT)),
    WithJsonSchema({"type": "string", "enum": list(CALLED_SHOT)}),
]
"""One of :data:`arena.combat.tactics.CALLED_SHOT`."""
CoupDeGrace = Annotated[
    str,
    AfterValidator(one_of("coup_de_grace setting", COUP_DE_GRACE)),
    WithJsonSchema({"type": "string", "enum": list(COUP_DE_GRACE)}),
]
"""One of :data:`arena.combat.tactics.COUP_DE_GRACE`."""


def non_empty(value: tuple) -> tuple:
    # Checked after the items (not Field(min_length=1)), so that a bad item gives one error, not two.
    if not value:
        raise ValueError("the list is empty")
    return value


def _one_or_many(value: Any) -> Any:
    return [value] if isinstance(value, str | bool | int) else value


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------------------------- tactics
DEFAULT_PRESS_LUCK = "when-better"
"""A scenario that does not say how to press luck presses it when the exact odds favour it. Pressing exists only
under ``+luck`` rule sets, so the setting changes nothing elsewhere; with ``never`` a ``+luck`` rule set would fight
exactly as its static twin (16 distinct results out of the 48-rule-set grid)."""
DEFAULT_CALLED_SHOT = "when-better"
"""Likewise for called shots (``+called`` rule sets only)."""


class TacticsSpec(Frozen):
    """How a side or one creature fights. A field left out is inherited (creature <- side <- stat block)."""

    policy: Policy | None = None
    """One of :data:`arena.combat.tactics.POLICIES`; default: each creature's own stat-block ``tactics``."""
    press_luck: PressLuck | None = None
    """One of :data:`arena.combat.tactics.PRESS_LUCK`; default :data:`DEFAULT_PRESS_LUCK` (``when-better``)."""
    called_shot: CalledShot | None = None
    """One of :data:`arena.combat.tactics.CALLED_SHOT`; default :data:`DEFAULT_CALLED_SHOT` (``when-better``)."""
    coup_de_grace: CoupDeGrace | None = None
    """One of :data:`arena.combat.tactics.COUP_DE_GRACE`: which helpless foes it finishes with a coup de grace;
    default: the model's ``coup_de_grace`` option (``by-creature``, :func:`arena.combat.tactics.view.coup_style`)."""

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """As written, but ``coup_de_grace`` left out when it is not given: a scenario that does not set it keeps
        its digest (:meth:`arena.study.scenarios.scenario.Scenario.digest`) and its manifest's contents."""
        data: dict[str, Any] = handler(self)
        if data.get("coup_de_grace", "") is None:
            del data["coup_de_grace"]
        return data


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
        return TacticsSettings(
            policy=own.policy or side.policy or creature.tactics,
            press_luck=own.press_luck or side.press_luck or DEFAULT_PRESS_LUCK,
            called_shot=own.called_shot or side.called_shot or DEFAULT_CALLED_SHOT,
            coup_de_grace=own.coup_de_grace or side.coup_de_grace,
        )

    def side_settings(self, side: str) -> TacticsSettings:
        """A side's settings as given (press_luck and called_shot left out: ``when-better``)."""
        spec = self.party if side == "pc" else self.monsters
        return TacticsSettings(
            **{
                "press_luck": DEFAULT_PRESS_LUCK,
                "called_shot": DEFAULT_CALLED_SHOT,
                **spec.model_dump(exclude_none=True),
            }
        )

    def inert(self, creatures: list[Creature], rules: Any) -> list[str]:
        """Why ``rules`` fights exactly as a rule set without one of its variants, for these creatures: nobody
        presses luck under ``+luck``, or nobody calls a shot under ``+called`` (their tactics say ``never``)."""
        settings = [self.settings_for(c) for c in creatures]
        why = []
        if getattr(rules, "modifiers", None) == "press-luck" and all(s.press_luck == "never" for s in settings):
            why.append("+luck: every creature's press_luck is never")
        if getattr(rules, "called_shots", False) and all(s.called_shot == "never" for s in settings):
            why.append("+called: every creature's called_shot is never")
        return why


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
            raise ValueError(
                "an inline stat block goes under `stat_block:` (e.g. `- stat_block: {name: ..., "
                "hp: ...}`); `name:` alone names a creature from the bestiary"
            )
        return data

    @model_validator(mode="after")
    def _exactly_one(self) -> _NamedOrInline:
        if (self.name is None) == (self.stat_block is None):
            raise ValueError("give either `name:` (a bestiary creature) or `stat_block:` (an inline stat block)")
        return self


class PartyMember(_NamedOrInline):
    """One PC: a name (bestiary/party file, or a generated PC such as ``wizard-5``) or ``stat_block:``."""


PartyMemberItem = Annotated[PartyMember, BeforeValidator(_member_from_text)]


def party_from_list(value: Any) -> Any:
    return {"members": value} if isinstance(value, list) else value


class Party(Frozen):
    """Exactly one of: ``level`` (the generated party), ``file`` (a party file), ``members`` (a list).

    In YAML, a list is the ``members`` form: ``party: [fighter-5, {stat_block: {...}}]``.
    """

    level: StrictInt | None = Field(None, ge=1, le=20)
    """The generated fighter, cleric, rogue and wizard of this level (:func:`arena.world.party.generate_party`)."""
    file: str | None = None
    """A party file (a list of ``side: pc`` stat blocks), relative to the scenario file."""
    members: Annotated[tuple[PartyMemberItem, ...], AfterValidator(non_empty)] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Party:
        given = [k for k in ("level", "file", "members") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "give the party as `{level: L}`, `{file: party.yaml}` or a list of members"
                + (f" (not {' and '.join(given)} together)" if given else "")
            )
        return self


def party_options(model: ModelOptions) -> dict:
    """The generated party's choices that the fight model names (hit points per level, domain spells, gear)."""
    return {
        "hit_points": model.pc_hit_points,
        "domain_spells": model.domain_spells,
        "legacy": frozenset(name for name in LEGACY_CHOICES if not model.fixed(name)),
    }


def party_die(die: str) -> str:
    """The die the generated party is built for: ``3d6`` under the bell curve, else ``d20`` (fixed10 too)."""
    return "3d6" if die == "3d6" else "d20"


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


RuleKey = Annotated[
    str, AfterValidator(_rule_key), Field(json_schema_extra={"examples": ["d20", "3d6+prad+luck+open"]})
]


def rules_from_list(value: Any) -> Any:
    if isinstance(value, str):
        return {"keys": [value]}
    return {"keys": value} if isinstance(value, list) else value


DieValues = Annotated[Annotated[tuple[Die, ...], AfterValidator(non_empty)] | None, BeforeValidator(_one_or_many)]
"""A variant's values in a product of rule sets: one value or a non-empty list of them (the die's here, the
modifiers' and the switches' below)."""
ModifierValues = Annotated[
    Annotated[tuple[Modifiers, ...], AfterValidator(non_empty)] | None, BeforeValidator(_one_or_many)
]
SwitchValues = Annotated[Annotated[tuple[bool, ...], AfterValidator(non_empty)] | None, BeforeValidator(_one_or_many)]


class Rules(Frozen):
    """Either ``keys`` (in YAML: a list of rule-set keys, or one key) or the product of variant values.

    Unnamed variants keep their standard value; with nothing given at all it is the default 48-set grid.
    """

    keys: Annotated[tuple[RuleKey, ...], AfterValidator(non_empty)] | None = None
    die: DieValues = None
    players_roll_all: SwitchValues = None
    modifiers: ModifierValues = None
    open_ended: SwitchValues = None
    called_shots: SwitchValues = None

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


class Where:
    """``file:line: field.path`` of a field of one scenario in a document (just the field path without one)."""

    def __init__(self, doc: YamlDoc | None, prefix: PathKey):
        self.doc, self.prefix = doc, prefix

    def __call__(self, path: PathKey) -> str:
        full = (*self.prefix, *path)
        dotted = ".".join(str(p) for p in full)
        return dotted if self.doc is None else f"{self.doc.where(full)}: {dotted}"


def usable(path: Path, folder_ok: bool = False) -> bool:
    """True for an existing regular file (or folder, with ``folder_ok``) that a path can name at all: a name with a
    NUL, too long for the file system, or in a symlink loop is simply not usable (never an exception)."""
    try:
        return path.is_file() or (folder_ok and path.is_dir())
    except (OSError, ValueError):
        return False
