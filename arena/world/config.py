"""The user's own settings file: today, the folders whose policy files may run without ``--trust-policies``.

Why a file: a designer who keeps their policies in one folder should not have to say ``--trust-policies`` on
every command, and a scenario from somewhere else must not run Python code on its own say-so. The file is
``$ARENA_CONFIG`` if set, else ``$XDG_CONFIG_HOME/d20-arena/config.yaml`` (``~/.config/d20-arena/config.yaml``)::

    trusted_policy_folders:
      - ~/d20/policies          # policy files in this folder (and below) run without --trust-policies

A missing file means no trusted folders. The file is validated like every file a user writes: a mistake is an
error naming its line and field.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from arena.world.yamlio import load_yaml, validate


def config_path() -> Path:
    """Where the settings file is looked for."""
    explicit = os.environ.get("ARENA_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base).expanduser() / "d20-arena" / "config.yaml"


class ArenaConfig(BaseModel):
    """The settings file's fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trusted_policy_folders: tuple[str, ...] = Field((), max_length=100)
    """Folders whose policy files (and their subfolders') run without ``--trust-policies``."""


def trusted_policy_folders() -> list[Path]:
    """The resolved trusted folders of the user's settings file (none if it does not exist)."""
    path = config_path()
    if not path.exists():
        return []
    doc = load_yaml(path)
    if doc.data is None:
        return []
    settings = validate(doc, ArenaConfig)
    return [Path(folder).expanduser().resolve() for folder in settings.trusted_policy_folders]
