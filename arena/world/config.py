"""The user's own settings file: today, the folders whose policy files may run without ``--trust-policies``.

Why a file: a designer who keeps their policies in one folder should not have to say ``--trust-policies`` on
every command, and a scenario from somewhere else must not run Python code on its own say-so. The file is
``$ARENA_CONFIG`` if set, else ``$XDG_CONFIG_HOME/d20-arena/config.yaml`` (``~/.config/d20-arena/config.yaml``)::

    trusted_policy_folders:
      - ~/d20/policies          # policy files in this folder (and below) run without --trust-policies

Trust must not depend on where a command is run from, or a cloned repository could trust itself: every trusted
folder is absolute (or starts with ``~``) and is resolved once, when the file is read; a relative entry (``policies``,
``.``, ``""``) is an error naming the file, line and field. A relative ``$XDG_CONFIG_HOME`` is ignored, as the XDG
Base Directory specification says, and a relative ``$ARENA_CONFIG`` is an error.

A missing file means no trusted folders. The file is validated like every file a user writes: a mistake is an
error naming its line and field.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from arena.errors import ArenaError
from arena.world.yamlio import load_yaml, validate


def config_path() -> Path:
    """Where the settings file is looked for: never a path relative to the current folder."""
    explicit = os.environ.get("ARENA_CONFIG")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_absolute():
            raise ArenaError(
                f"ARENA_CONFIG={explicit!r}: the settings file must be named by an absolute path (a "
                "relative one would depend on the folder a command runs in)"
            )
        return path
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not Path(base).is_absolute():  # unset, empty or relative: ignored (XDG Base Directory spec)
        base = str(Path.home() / ".config")
    return Path(base).expanduser() / "d20-arena" / "config.yaml"


def _absolute_folder(entry: str) -> Path:
    """``entry`` expanded (``~``) if it names an absolute folder; a ValueError (the field's message) if not."""
    try:
        folder = Path(entry).expanduser()
    except RuntimeError:  # ~someone, an unknown user
        raise ValueError(f"{entry!r}: no such user's home folder") from None
    if not entry.strip() or not folder.is_absolute():
        raise ValueError(
            f"{entry!r} is a relative folder: trusted folders must be absolute (/path or ~/path), "
            "or trust would depend on the folder a command runs in"
        )
    return folder


def _check_absolute(entry: str) -> str:
    _absolute_folder(entry)
    return entry


TrustedFolder = Annotated[str, AfterValidator(_check_absolute)]
"""One entry of ``trusted_policy_folders``: checked on its own, so an error names its line and index."""


class ArenaConfig(BaseModel):
    """The settings file's fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trusted_policy_folders: tuple[TrustedFolder, ...] = Field((), max_length=100)
    """Absolute folders (or ``~/...``) whose policy files (and their subfolders') run without ``--trust-policies``."""


def trusted_policy_folders() -> list[Path]:
    """The trusted folders of the user's settings file, absolute and resolved (none if the file does not exist)."""
    path = config_path()
    if not path.exists():
        return []
    doc = load_yaml(path)
    if doc.data is None:
        return []
    settings = validate(doc, ArenaConfig)
    return [_absolute_folder(folder).resolve() for folder in settings.trusted_policy_folders]
