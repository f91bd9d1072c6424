"""Writing imported stat blocks: one YAML file per creature, each written atomically, nothing written through a
link or over an existing file without ``force`` (:func:`write_stat_blocks`), each file headed by its source and the
Open Game License (:func:`to_yaml`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import yaml

from arena.errors import ArenaError
from arena.srd.build import Built
from arena.world import ability_fields
from arena.world.creatures import Creature


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ArenaError(f"{path}: cannot write ({err.strerror or err})") from None


def write_stat_blocks(
    built: list[Built], out: Path, force: bool = False, written: list[tuple[Built, Path]] | None = None
) -> list[tuple[Built, Path]]:
    """Write each creature of ``built`` (those that made one) to ``out/<name>.yaml``: the (built, file) written,
    appended to ``written`` as each is written.

    ``out`` must be a folder, not a link to one (it is made when missing). Every target is checked before anything
    is written: one that exists (a file, a link, anything) is an ArenaError naming it unless ``force``, and nothing
    is written then. Each file is written to a new temporary file in ``out`` (never through a link), flushed to disk
    and renamed over its target, so a failure (a full disk) leaves the old file or none, never half of one; the
    error names the file."""
    info = _lstat(out)
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise ArenaError(
            f"{out}: is a symbolic link; --out must name a folder itself (links are not followed when writing)"
        )
    if info is not None and not stat.S_ISDIR(info.st_mode):
        raise ArenaError(f"{out}: is not a folder (--out names the folder to write the stat blocks to)")
    written = [] if written is None else written
    targets = [(b, out / f"{b.creature.name}.yaml") for b in built if b.creature is not None]
    if info is not None:
        taken = [(target, found) for _, target in targets if (found := _lstat(target)) is not None]
        if taken and not force:
            more = f" (and {len(taken) - 1:,} more)" if len(taken) > 1 else ""
            raise ArenaError(f"{taken[0][0]}: already exists{more}; nothing written (--force replaces existing files)")
        for target, found in taken:
            if stat.S_ISDIR(found.st_mode):
                raise ArenaError(f"{target}: is a folder; nothing written (only a file is replaced)")
    elif targets:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ArenaError(f"{out}: cannot make the folder ({err.strerror or err})") from None
    for one, target in targets:
        write_atomically(target, to_yaml(one.creature))
        written.append((one, target))
    return written


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` through a temporary file beside it (created anew, so never through a link),
    fsync'd and renamed over ``target`` (a link there is replaced, not followed). On any failure the temporary file
    is removed and the ArenaError names ``target``."""
    data = text.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for k in range(100):
        tmp = target.with_name(f".{target.name}.{os.getpid()}-{k}.tmp")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as err:
            raise ArenaError(f"{target}: cannot write ({err.strerror or err})") from None
    else:
        raise ArenaError(f"{target}: cannot write (100 temporary files of that name are in the way)")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise ArenaError(f"{target}: cannot write ({err.strerror or err})") from None
        raise


# --------------------------------------------------------------------------------------------- YAML
FULL_FIELDS = ()
"""The ability fields written with every number, their defaults too (and those of the ability modules that say
``every_number``: :func:`full_fields`)."""


def full_fields() -> tuple[str, ...]:
    return FULL_FIELDS + tuple(f.name for f in ability_fields.registered() if f.every_number)


class _Dumper(yaml.SafeDumper):
    """YAML as the shipped stat blocks are written: a string with a line break in double quotes."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if "\n" in value else None)


_Dumper.add_representer(str, _str)


def to_yaml(creature: Creature | None) -> str:
    """The YAML stat block of an imported creature, with a header naming its source."""
    if creature is None:
        raise ValueError("no creature was built: nothing to write")
    data = creature.model_dump(mode="json", exclude_defaults=True)
    data["name"] = creature.name
    data["abilities"] = creature.abilities.model_dump(mode="json")  # all six, defaults too
    for key in full_fields():
        value = getattr(creature, key)
        if value is not None:
            data[key] = value.model_dump(mode="json")
    data = {k: data[k] for k in type(creature).model_fields if k in data}
    head = (
        f"# {creature.display_name}. {creature.source.split(' (')[0]}.\n"
        "# Open Game Content under the Open Game License 1.0a (bestiary/srd/OGL.md). Written by `arena bestiary "
        "import`:\n# re-import rather than edit by hand (docs/bestiary.md).\n"
    )
    return head + yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None
    )
