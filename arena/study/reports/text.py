"""Names shown safely: a name from a results file or a manifest (a scenario, a rule set) escaped for a markdown page,
an HTML page, a matplotlib label or a file name.

Why a module of its own: those names are data, not markup. A scenario called ``<img src=x onerror=...>`` must be
shown, never run; ``$`` would start matplotlib's mathtext; a name used in a file name becomes a slug. Every page
the study writes (the report, the claims report) escapes through these.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from arena.labels import printable, slug
from arena.limits import MAX_NAME_LENGTH

MAX_PLOT_LABEL = 80
"""Characters of a name shown in a plot's title or axis (the page has the full name)."""


def file_stem(text: str) -> str:
    """A file-name stem for ``text``: see :func:`arena.labels.slug` (never empty, never a dot file)."""
    return slug(str(text), "scenario") if str(text) else "scenario"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]#!|~])")
_CODE_SAFE = re.compile(r"[A-Za-z0-9+_.,:=/ -]+")


def md_text(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` as literal markdown text: control characters escaped (:func:`arena.labels.printable`), markdown
    punctuation backslash-escaped and ``&``, ``<``, ``>`` as entities (so no raw HTML survives)."""
    return html.escape(_MD_SPECIAL.sub(r"\\\1", printable(value, limit=limit)), quote=False)


def md_table(frame: Any, cell: Callable[[Any], str]) -> list[str]:
    """A DataFrame as the lines of a Markdown table, every row, each value shown by ``cell`` (the page's own number
    format); ``(no rows)`` for an empty frame."""
    if frame is None or frame.empty:
        return ["(no rows)"]
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return lines


def md_code(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` in a code span when it holds only plain characters, else as :func:`md_text`."""
    text = printable(value, limit=limit)
    return f"`{text}`" if _CODE_SAFE.fullmatch(text) and text.strip() == text else md_text(value, limit)


def html_text(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` as HTML text (quotes escaped too: safe in an attribute)."""
    return html.escape(printable(value, limit=limit), quote=True)


def plot_text(value: object, limit: int = MAX_PLOT_LABEL) -> str:
    """``value`` for a matplotlib title or tick label: printable, shortened, and ``$`` escaped (no mathtext)."""
    return printable(value, limit=limit).replace("$", r"\$")
