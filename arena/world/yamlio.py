"""Safe YAML loading that remembers where every value came from, and pydantic validation with readable errors.

Why: a stat block, a party or a scenario is typed by hand, so an error must say *where* it is. Every message
has the shape ``<file>:<line>: <field.path>: <problem>``, e.g.
``bestiary/troll.yaml:14: attack.0.0.damage: unparseable dice expression '1d6+' (it ends too early)``.

Only ``yaml.SafeLoader`` composition is used: the file becomes a node tree and this module builds plain
dicts, lists and scalars from it. No Python object is ever constructed from YAML tags, duplicate keys in a
mapping are an error (PyYAML silently keeps the last one), and merge keys (``<<``) are refused.

The public API is small:

* :func:`parse_yaml` / :func:`load_yaml` -> :class:`YamlDoc` (``data`` plus a ``lines`` map from field path to
  line number);
* :func:`validate` -> a model instance, or :class:`YamlValidationError` (an ``ArenaError``) naming file,
  line and field path;
* :func:`load_model` / :func:`load_models` do both for a file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pydantic
import yaml

from arena.errors import ArenaError
from arena.limits import MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES

M = TypeVar("M", bound=pydantic.BaseModel)

PathKey = tuple[str | int, ...]
"""A field path: mapping keys and sequence indices from the document root, e.g. ``("attack", 0, 0, "damage")``."""


class Readable(Protocol):
    """A file-like location: a ``pathlib.Path`` or an ``importlib.resources`` ``Traversable``."""

    name: str

    def read_text(self, encoding: str = ...) -> str: ...


class YamlValidationError(ArenaError):
    """One or more problems in one YAML document.

    ``problems`` holds every problem as ``file:line: path: message``; ``str()`` gives the first one (plus a
    count of the others) so the CLI can still print a single line.
    """

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        first = self.problems[0] if self.problems else "invalid document"
        more = len(self.problems) - 1
        super().__init__(first + (f" (and {more} more problem{'s' * (more > 1)})" if more > 0 else ""))


@dataclass(frozen=True)
class YamlDoc:
    """A parsed YAML document: plain ``data`` and the 1-based ``lines`` of every key and sequence item."""

    data: Any
    source: str
    lines: dict[PathKey, int] = field(default_factory=dict)

    def line_of(self, path: PathKey) -> int:
        """The line of ``path``, or of its nearest ancestor that exists (e.g. for a missing field)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def where(self, path: PathKey = ()) -> str:
        """``file:line`` for ``path``."""
        return f"{self.source}:{self.line_of(path)}"


# --------------------------------------------------------------------------------------------- parsing
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


class _LimitedLoader(yaml.SafeLoader):
    """A safe loader that refuses documents nested deeper than :data:`~arena.limits.MAX_YAML_DEPTH`.

    PyYAML composes nodes recursively; without a limit a few thousand brackets are a ``RecursionError``."""

    def __init__(self, stream: str, source: str):
        self._depth = 0
        self._source = source
        super().__init__(stream)

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                mark = self.peek_event().start_mark
                raise ArenaError(
                    f"{self._source}:{mark.line + 1}: nested more than {MAX_YAML_DEPTH} levels deep "
                    "(the limit for one document)"
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _check_expansion(root: yaml.Node, source: str) -> None:
    """Refuse a document whose aliases would expand it past :data:`~arena.limits.MAX_YAML_NODES` values before
    building any of it: each distinct node's expanded size is counted once (an alias is the node it names, shared),
    so a nine-by-nine alias bomb costs its 90 nodes, not the 100,000 values that building it would take. It is the
    only count: :func:`_construct` builds what it let through. An alias that contains itself is left to
    :func:`_construct`, which names it."""
    sizes: dict[int, int] = {}
    pending: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if key in pending:  # a node inside itself: _construct says so
            return 1
        pending.add(key)
        total = 1
        if isinstance(node, yaml.MappingNode):
            for _key_node, value_node in node.value:  # keys are plain scalars, not counted (as _construct)
                total += size(value_node)
                if total > MAX_YAML_NODES:
                    break
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                total += size(item)
                if total > MAX_YAML_NODES:
                    break
        pending.discard(key)
        sizes[key] = total
        if total > MAX_YAML_NODES:
            raise ArenaError(
                f"{source}:{node.start_mark.line + 1}: the document expands to more than "
                f"{MAX_YAML_NODES:,} values (YAML aliases repeat what they point to; write less, "
                "or split the file)"
            )
        return total

    size(root)


def _construct(
    node: yaml.Node,
    path: PathKey,
    doc_lines: dict[PathKey, int],
    source: str,
    constructor: yaml.constructor.SafeConstructor,
    stack: tuple[int, ...] = (),
) -> Any:
    """The value of ``node``; :func:`_check_expansion` has bounded how many values that builds."""
    if id(node) in stack:
        raise ArenaError(f"{source}:{node.start_mark.line + 1}: a YAML alias refers to itself")
    stack = (*stack, id(node))
    doc_lines.setdefault(path, node.start_mark.line + 1)
    if not isinstance(node, yaml.ScalarNode) and node.tag not in _PLAIN_TAGS:
        raise ArenaError(f"{source}:{node.start_mark.line + 1}: unsupported YAML tag {node.tag!r}")
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise ArenaError(f"{source}:{line}: a mapping key must be plain text")
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise ArenaError(f"{source}:{line}: YAML merge keys ('<<') are not supported; write the fields out")
            key = _scalar(key_node, path, source, constructor)
            if key in out:
                first = doc_lines.get((*path, key), "?")
                raise ArenaError(f"{source}:{line}: duplicate key {key!r} (first given on line {first})")
            doc_lines[(*path, key)] = line
            out[key] = _construct(value_node, (*path, key), doc_lines, source, constructor, stack)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [
            _construct(item, (*path, i), doc_lines, source, constructor, stack) for i, item in enumerate(node.value)
        ]
    return _scalar(node, path, source, constructor)


def _scalar(node: yaml.Node, path: PathKey, source: str, constructor: yaml.constructor.SafeConstructor) -> Any:
    """A scalar's value; one PyYAML cannot make (an integer of more than 4,300 digits, a timestamp that is no date)
    is an error naming the file, the scalar's line and its field."""
    try:
        return constructor.construct_object(node)
    except (ValueError, OverflowError) as err:
        where = f"{source}:{node.start_mark.line + 1}: {'.'.join(str(p) for p in path) or '(document)'}"
        if node.tag == "tag:yaml.org,2002:int":
            digits = sum(ch.isdigit() for ch in str(node.value))
            raise ArenaError(f"{where}: number too large ({digits:,} digits)") from None
        raise ArenaError(f"{where}: cannot read the value ({err})") from None


def _reader_problem(err: yaml.reader.ReaderError, text: str, source: str) -> ArenaError:
    """A character YAML does not allow (NUL, other control characters, DEL...): say which, and where."""
    line = text.count("\n", 0, max(0, err.position)) + 1
    char = err.character
    shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return ArenaError(
        f"{source}:{line}: a control character ({shown}) that YAML does not allow; "
        "remove it (only tab, newline and printable characters may appear)"
    )


def parse_yaml(text: str, source: str = "<string>") -> YamlDoc:
    """Parse one YAML document from ``text``; ``source`` is the name used in error messages.

    Raises :class:`~arena.errors.ArenaError` (with ``source:line``) on malformed YAML, duplicate keys, merge keys,
    more than one document, characters YAML forbids, nesting past :data:`~arena.limits.MAX_YAML_DEPTH` and alias
    expansion past :data:`~arena.limits.MAX_YAML_NODES`.
    """
    try:
        loader = _LimitedLoader(text, source)
    except yaml.reader.ReaderError as err:  # the reader checks every character when it is built
        raise _reader_problem(err, text, source) from None
    try:
        try:
            node = loader.get_single_node()
        except yaml.reader.ReaderError as err:
            raise _reader_problem(err, text, source) from None
        except yaml.composer.ComposerError as err:
            mark = err.problem_mark or err.context_mark
            line = mark.line + 1 if mark else 1
            if "single document" in str(err.context or ""):
                raise ArenaError(f"{source}:{line}: expected one YAML document, found more") from None
            raise ArenaError(f"{source}:{line}: malformed YAML: {err.problem}") from None
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark or err.context_mark
            line = mark.line + 1 if mark else 1
            problem = err.problem or "cannot parse"
            context = f" ({err.context})" if err.context else ""
            raise ArenaError(f"{source}:{line}: malformed YAML: {problem}{context}") from None
        except yaml.YAMLError as err:
            raise ArenaError(f"{source}:1: malformed YAML: {str(err).splitlines()[0]}") from None
        if node is None:
            return YamlDoc(None, source, {(): 1})
        lines: dict[PathKey, int] = {}
        try:
            _check_expansion(node, source)
            data = _construct(node, (), lines, source, loader)
        except yaml.constructor.ConstructorError as err:
            mark = err.problem_mark
            line = mark.line + 1 if mark else 1
            raise ArenaError(f"{source}:{line}: malformed YAML: {err.problem}") from None
        except (ValueError, OverflowError) as err:  # e.g. a timestamp such as 2024-13-45 that is no date
            raise ArenaError(f"{source}:{loader.line + 1}: malformed YAML value: {err}") from None
        return YamlDoc(data, source, lines)
    finally:
        loader.dispose()


def display_name(path: Readable | os.PathLike | str) -> str:
    """How a file is named in messages: relative to the working directory when it is below it."""
    if isinstance(path, str | os.PathLike):
        p = Path(path)
        try:  # absolute, not resolved: a link is named as the user named it
            return os.path.relpath(os.path.abspath(p)) if not p.is_absolute() else str(p)
        except (ValueError, OSError):
            return str(p)
    return getattr(path, "name", str(path))


PSEUDO_FILE_SYSTEMS = ("/proc", "/sys", "/dev")
"""Files under these are the kernel's, not the user's: refused as input (``/proc/self/environ`` would put the
environment into an error message)."""


def read_user_bytes(
    path: os.PathLike | str, source: str, what: str = "a YAML file", limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of a file a user named: a regular file, not a kernel pseudo-file, at most ``limit`` bytes.

    Anything else is an :class:`ArenaError` naming ``source``; the file is opened without blocking (a FIFO never
    waits for a writer) and never read past ``limit`` + 1 bytes, so ``/dev/zero`` or a 10 GB file cost nothing."""
    p = Path(path)
    try:
        resolved = p.resolve()
    except (OSError, RuntimeError) as err:  # a symlink loop
        raise ArenaError(f"{source}: cannot read ({getattr(err, 'strerror', None) or err})") from None
    except ValueError:  # an embedded NUL
        raise ArenaError(f"{source}: not a file name (it holds a NUL character)") from None
    if any(resolved == Path(root) or Path(root) in resolved.parents for root in PSEUDO_FILE_SYSTEMS):
        raise ArenaError(f"{source}: is a system file ({resolved}), not {what}")
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the mode is checked before anything is read
        with os.fdopen(os.open(p, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise ArenaError(f"{source}: is a folder, expected {what}")
            if not stat.S_ISREG(info.st_mode):
                raise ArenaError(f"{source}: is not a regular file (a device, pipe or socket), expected {what}")
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise ArenaError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise ArenaError(f"{source}: is a folder, expected {what}") from None
    except OSError as err:
        raise ArenaError(f"{source}: cannot read ({err.strerror or err})") from None
    if len(data) > limit:
        raise ArenaError(f"{source}: larger than {limit // 1024:,} KiB, the limit for {what}")
    return data


def read_user_file(path: os.PathLike | str, source: str, what: str = "a YAML file", limit: int = MAX_FILE_BYTES) -> str:
    """The text of a file a user named (:func:`read_user_bytes`), decoded as UTF-8; text that is not is an
    :class:`ArenaError` naming ``source`` and the line."""
    data = read_user_bytes(path, source, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ArenaError(f"{source}:{line}: not UTF-8 text ({err.reason})") from None


def load_yaml(path: Readable | os.PathLike | str, source: str | None = None) -> YamlDoc:
    """Read and parse a YAML file (a path or an ``importlib.resources`` Traversable).

    ``source`` overrides the name used in messages (default: :func:`display_name`). A path must be a regular file
    of at most :data:`~arena.limits.MAX_FILE_BYTES` (see :func:`read_user_file`).
    """
    source = source or display_name(path)
    if isinstance(path, str | os.PathLike):
        return parse_yaml(read_user_file(path, source), source)
    try:  # a resource shipped in the package
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ArenaError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ArenaError(f"{source}: cannot read ({err})") from None
    return parse_yaml(text, source)


def load_shipped_yaml(resource: Readable, source: str) -> YamlDoc | None:
    """A YAML file the package ships (the imported SRD bestiary), parsed by libyaml's C loader: about ten times
    :func:`load_yaml`'s speed, without its line numbers and limits, which a file the tests check does not need.
    None if it does not parse (or libyaml is missing): the caller reads it again with :func:`load_yaml`, which says
    where. A test holds both parsers to the same data for every shipped file."""
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        return None
    try:
        return YamlDoc(yaml.load(resource.read_text(encoding="utf-8"), Loader=loader), source)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None


# --------------------------------------------------------------------------------------------- validation
_PREFIXES = ("Value error, ", "Assertion failed, ")


def _clean_path(loc: tuple[Any, ...], data: Any) -> PathKey:
    """Drop pydantic's union/function tags from an error location, keeping the parts that exist in ``data``."""
    out: list[str | int] = []
    here = data
    for i, part in enumerate(loc):
        in_dict = isinstance(here, dict) and part in here
        in_list = isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here)
        internal = isinstance(part, str) and (part.startswith(("function-", "json-or-python")) or "[" in part)
        if in_dict or in_list:
            out.append(part)
            here = here[part]
        elif i == len(loc) - 1 and isinstance(here, dict) and not internal:
            out.append(part)  # a missing field
        elif not internal:
            here = None  # no longer inside the document: keep what we have
    return tuple(out)


def _unwrap(kind: Any) -> list[Any]:
    """The types a field's annotation may hold (Annotated, Optional and unions opened)."""
    import types
    import typing

    origin = typing.get_origin(kind)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(kind)[0])
    if origin is typing.Union or origin is types.UnionType:
        return [x for arg in typing.get_args(kind) for x in _unwrap(arg)]
    return [kind]


def _model_at(model: Any, loc: tuple[Any, ...]) -> Any:
    """The pydantic model holding the last part of ``loc`` in ``model`` (None when it cannot be told)."""
    import typing

    current: list[Any] = [model]
    for part in loc:
        step: list[Any] = []
        for kind in current:
            if isinstance(kind, type) and issubclass(kind, pydantic.BaseModel):
                field_info = kind.model_fields.get(part) if isinstance(part, str) else None
                if field_info is not None:
                    step += _unwrap(field_info.annotation)
                elif isinstance(part, str) and (part.startswith(("function-", "json-or-python")) or "[" in part):
                    step.append(kind)  # pydantic's own tags: still in the same model
                continue
            origin, args = typing.get_origin(kind), typing.get_args(kind)
            if origin in (list, tuple) and args and isinstance(part, int):
                step += _unwrap(args[0])
            elif origin is dict and len(args) == 2 and isinstance(part, str):
                step += _unwrap(args[1])
        current = step
        if not current:
            return None
    models = [k for k in current if isinstance(k, type) and issubclass(k, pydantic.BaseModel)]
    return models[0] if models else None


def _suggestion(err: dict[str, Any], model: Any) -> str:
    """ "; did you mean X?" for a misspelt field of ``model`` (the nearest field names), else ''."""
    import difflib

    loc = tuple(err.get("loc", ()))
    if model is None or not loc or not isinstance(loc[-1], str):
        return ""
    holder = _model_at(model, loc[:-1])
    if holder is None:
        return ""
    names = [name for name in holder.model_fields if not name.startswith("_")]
    close = difflib.get_close_matches(loc[-1].lower(), names, n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def _message(err: dict[str, Any], model: Any = None) -> str:
    kind = err.get("type", "")
    msg = err.get("msg", "invalid value")
    for prefix in _PREFIXES:
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    if kind == "missing":
        return "missing required field"
    if kind == "extra_forbidden":
        hint = _suggestion(err, model)
        return f"unknown field{hint}" if hint else "unknown field (check the spelling; see `arena bestiary schema`)"
    value = err.get("input")
    if kind not in ("value_error", "assertion_error") and isinstance(value, str | int | float | bool):
        shown = repr(value)
        msg = f"{msg}, got {shown if len(shown) <= 60 else shown[:57] + '...'}"
    return msg


def format_validation_error(
    error: pydantic.ValidationError, doc: YamlDoc, prefix: PathKey = (), model: Any = None
) -> list[str]:
    """Turn a pydantic error into ``file:line: path: message`` lines, one per problem.

    ``prefix`` is the path of the validated value inside the document (e.g. ``(2,)`` for the third item).
    """
    sub = doc.data
    for part in prefix:
        sub = sub[part]
    problems = []
    for err in error.errors():
        path = (*prefix, *_clean_path(tuple(err.get("loc", ())), sub))
        dotted = ".".join(str(p) for p in path) or "(document)"
        problems.append(f"{doc.where(path)}: {dotted}: {_message(err, model)}")
    return problems


def mapping_at(doc: YamlDoc, prefix: PathKey, expected: str) -> dict:
    """The mapping at ``prefix`` of ``doc``; anything else is an error naming the file, line and field."""
    sub = doc.data
    for part in prefix:
        sub = sub[part]
    if not isinstance(sub, dict):
        what = "nothing (the file is empty)" if sub is None else f"a {type(sub).__name__}"
        dotted = ".".join(str(p) for p in prefix)
        raise YamlValidationError(
            [f"{doc.where(prefix)}: {dotted + ': ' if dotted else ''}expected {expected}, found {what}"]
        )
    return sub


def validate(doc: YamlDoc, model: type[M], prefix: PathKey = ()) -> M:
    """Validate ``doc.data`` (or the part at ``prefix``) as ``model``; errors name file, line and field."""
    sub = mapping_at(doc, prefix, f"a mapping of {model.__name__} fields")
    try:
        return model.model_validate(sub)
    except pydantic.ValidationError as err:
        raise YamlValidationError(format_validation_error(err, doc, prefix, model)) from None


def load_model(path: Readable | os.PathLike | str, model: type[M], source: str | None = None) -> M:
    """Load one ``model`` from a YAML file whose top level is a mapping."""
    return validate(load_yaml(path, source), model)


def iter_models(doc: YamlDoc, model: type[M]) -> Iterator[tuple[M, PathKey]]:
    """Each model in ``doc`` with its path: one if the top level is a mapping, one per item if a list.

    All items are checked before anything is yielded so that every problem is reported at once.
    """
    if isinstance(doc.data, list):
        items: list[tuple[M, PathKey]] = []
        problems: list[str] = []
        for i in range(len(doc.data)):
            try:
                items.append((validate(doc, model, (i,)), (i,)))
            except YamlValidationError as err:
                problems.extend(err.problems)
        if problems:
            raise YamlValidationError(problems)
        yield from items
    else:
        yield validate(doc, model), ()


def load_models(path: Readable | os.PathLike | str, model: type[M], source: str | None = None) -> list[M]:
    """Load a list of ``model`` from a YAML file holding one mapping or a list of mappings."""
    return [m for m, _ in iter_models(load_yaml(path, source), model)]
