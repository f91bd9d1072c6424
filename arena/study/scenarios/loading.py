"""Loading scenario files: every scenario validated, the Python policy files run only when trusted and only after
the whole file validated, then every name resolved; all problems of a file reported together, each naming its
file, line and field.

Why a module of its own: a scenario file is the input a person writes most, and may name Python files to run; the
order (validate everything, then run only trusted files, then resolve names) is what keeps an untrusted or broken
file from running anything, and it lives here, apart from the :class:`~arena.study.scenarios.scenario.Scenario`
model.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pydantic

from arena.combat.tactics import load_policy_file
from arena.errors import ArenaError, nearest
from arena.limits import (
    MAX_FILE_BYTES,
    MAX_NAME_LENGTH,
)
from arena.study.scenarios.parts import POLICY_FILES_LISTED, Where, usable
from arena.study.scenarios.scenario import Scenario
from arena.world.yamlio import (
    PathKey,
    YamlDoc,
    YamlValidationError,
    display_name,
    format_validation_error,
    load_yaml,
    mapping_at,
)

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
    token = POLICY_FILES_LISTED.set(bool(sub.get("policies")))
    try:
        scenario = Scenario.model_validate(sub)
    except pydantic.ValidationError as err:
        # format_validation_error (arena.world.yamlio) reads nothing of the error but .errors(), which _Relocated
        # gives with the virtual keys skipped; pydantic's ValidationError cannot be built or subclassed with them.
        found = format_validation_error(_Relocated(err, sub), doc, prefix, Scenario)  # type: ignore[arg-type]
        raise YamlValidationError([_schema_hint(p) for p in found]) from None
    finally:
        POLICY_FILES_LISTED.reset(token)
    scenario._source = doc.where(prefix)
    return scenario


def _policy_paths(
    scenario: Scenario, base_dir: Path, where: Where, trusted: bool, trusted_folders: Sequence[Path]
) -> tuple[list[tuple[Path, str]], list[str]]:
    """The scenario's policy files (resolved path, as written) and the problems that stop them from running.

    A file runs only when the user says so: ``trusted`` (``--trust-policies``) for files in the scenario's own
    folder or below, or a folder the user's config trusts (:mod:`arena.world.config`) for files anywhere in it."""
    files: list[tuple[Path, str]] = []
    problems: list[str] = []
    for i, shown in enumerate(scenario.policies):
        field = where(("policies", i))
        if not usable(base_dir / shown):
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
            problems.append(
                f"{field}: {shown!r} is Python code and runs only when you trust it: add "
                "--trust-policies (or list its folder under trusted_policy_folders in your config; "
                "docs/scenarios.md#your-own-policies)"
            )
            continue
        if not in_trusted_folder and not inside:
            problems.append(
                f"{field}: policy file {shown!r} is outside the scenario's folder; --trust-policies "
                "trusts only files in it: move the file there or list its folder under "
                "trusted_policy_folders in your config"
            )
            continue
        files.append((path, shown))
    return files, problems


def load_scenarios(
    path: str | os.PathLike,
    *,
    trust_policies: bool = False,
    on_policy: Callable[[list[str]], None] | None = None,
    bestiary: Sequence[str | os.PathLike] = (),
) -> list[Scenario]:
    """Every scenario in a file (one mapping, or a top-level list), validated and resolved.

    ``bestiary``, ``party.file`` and ``policies`` paths are relative to the scenario file. All problems of the file are
    reported together (:class:`~arena.world.yamlio.YamlValidationError`); scenario names must be unique in a file.

    Policy files (Python) run only after every scenario of the file validated, and only if trusted
    (``trust_policies``, or a trusted folder of the user's config: see :func:`_policy_paths`); ``on_policy`` is
    told the files just before they run, so the command can say so.

    ``bestiary``: extra stat-block files or folders (the CLI's ``--bestiary``) added after each scenario's own
    ``bestiary`` files, so their names resolve as the scenario's own do.
    """
    doc = load_yaml(path)
    base_dir = Path(path).resolve().parent
    prefixes = _scenario_prefixes(doc)
    found: dict[PathKey, list[str]] = {prefix: [] for prefix in prefixes}  # problems, scenario by scenario
    validated = _validate_all(doc, prefixes, found)
    # Python files run only once the whole file validated, and only if trusted.
    loaded_policies = False
    if not any(found.values()) and any(sc.policies for sc, _ in validated):
        loaded_policies = _run_policies(doc, validated, found, base_dir, trust_policies, on_policy)
    if bestiary:
        extra = tuple(str(Path(p).resolve()) for p in bestiary)
        validated = [
            (scenario.model_copy(update={"bestiary": (*scenario.bestiary, *extra)}), prefix)
            for scenario, prefix in validated
        ]
    scenarios: list[Scenario] = []
    for scenario, prefix in validated:
        if scenario.policies and not loaded_policies:
            continue  # its names may come from files that have not run
        try:
            scenario._resolve(base_dir, Where(doc, prefix))
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


def _scenario_prefixes(doc: YamlDoc) -> list[PathKey]:
    """Where the file's scenarios are: the whole document (one mapping) or each item of a top-level list."""
    if isinstance(doc.data, dict) and "scenarios" in doc.data:
        raise YamlValidationError(
            [
                f"{doc.where(('scenarios',))}: scenarios: write the scenarios as a top-level "
                "list (`- name: ...`), not under a `scenarios:` key"
            ]
        )
    prefixes: list[PathKey] = [(i,) for i in range(len(doc.data))] if isinstance(doc.data, list) else [()]
    if not prefixes:
        raise YamlValidationError([f"{doc.where()}: the file holds an empty list: no scenarios"])
    return prefixes


def _validate_all(
    doc: YamlDoc, prefixes: list[PathKey], found: dict[PathKey, list[str]]
) -> list[tuple[Scenario, PathKey]]:
    """Every scenario of the file validated (no name resolved yet); each problem, and each name defined twice, added
    to ``found`` at its scenario."""
    validated: list[tuple[Scenario, PathKey]] = []
    seen: dict[str, str] = {}
    for prefix in prefixes:
        raw = doc.data[prefix[0]] if prefix else doc.data
        name = raw.get("name") if isinstance(raw, dict) else None
        if isinstance(name, str):
            where = doc.where((*prefix, "name"))
            if name in seen:
                found[prefix].append(
                    f"{where}: name: scenario {name[:MAX_NAME_LENGTH]!r} is defined twice (first at {seen[name]})"
                )
            seen.setdefault(name, where)
        try:
            validated.append((validate_scenario(doc, prefix), prefix))
        except YamlValidationError as err:
            found[prefix].extend(err.problems)
    return validated


def _run_policies(
    doc: YamlDoc,
    validated: list[tuple[Scenario, PathKey]],
    found: dict[PathKey, list[str]],
    base_dir: Path,
    trusted: bool,
    on_policy: Callable[[list[str]], None] | None,
) -> bool:
    """Run the policy files of a file whose every scenario validated, if every one of them may run (see
    :func:`_policy_paths`); a problem is added to ``found`` at its scenario. True when they all ran."""
    from arena.world.config import trusted_policy_folders

    to_run: list[tuple[Path, str, PathKey, int]] = []
    folders = trusted_policy_folders()
    for scenario, prefix in validated:
        files, problems = _policy_paths(scenario, base_dir, Where(doc, prefix), trusted, folders)
        found[prefix] += problems
        to_run += [(p, shown, prefix, i) for i, (p, shown) in enumerate(files)]
    if any(found.values()):
        return False
    if on_policy is not None:
        on_policy(sorted({display_name(p) for p, *_ in to_run}))
    for resolved, shown, prefix, i in to_run:
        try:
            load_policy_file(resolved, shown=shown)
        except ArenaError as err:
            found[prefix].append(f"{doc.where((*prefix, 'policies', i))}: policies.{i}: {err}")
    return not any(found.values())


def pick(scenarios: Sequence[Scenario], name: str | None, source: str = "the file") -> Scenario:
    """The scenario called ``name``; with no name, the only one (several: an error listing them)."""
    if name is None:
        if len(scenarios) == 1:
            return scenarios[0]
        raise ArenaError(
            f"{source} holds {len(scenarios)} scenarios; choose one with --scenario: "
            + ", ".join(s.name for s in scenarios)
        )
    for scenario in scenarios:
        if scenario.name == name:
            return scenario
    raise ArenaError(nearest(name, [s.name for s in scenarios], f"scenario in {source}"))
