"""Names written by users, shown safely: escaped for a terminal, turned into a slug for a path.

Why: a scenario's or a creature's name is a label someone typed. Printed raw, a name holding ANSI escapes can
rewrite the terminal; used raw as a folder, ``../..`` or ``/tmp/v`` writes anywhere. Every name that reaches the
terminal goes through :func:`printable`, and every name that becomes part of a path through :func:`slug`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from arena.limits import MAX_SLUG_LENGTH

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides), surrogate, private-use and unassigned characters, and line separators."""


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: object, limit: int = 200) -> str:
    """``text`` with every control or invisible formatting character escaped (``\\x1b``), cut to ``limit``
    characters with a note of how many more there were. Tabs and newlines are escaped too: one value, one line."""
    raw = str(text)
    out = "".join(_escape(c) if unicodedata.category(c) in _UNSAFE_CATEGORIES else c for c in raw[:limit])
    if len(raw) > limit:
        out += f"... ({len(raw) - limit:,} more characters)"
    return out


def printable_lines(text: object) -> str:
    """Like :func:`printable` but keeps newlines (for a multi-line log or table) and has no length limit."""
    return "\n".join(printable(line, limit=10**9) for line in str(text).split("\n"))


_SLUG_DROP = re.compile(r"[^a-z0-9._-]+")


def slug(name: str, fallback: str = "run") -> str:
    """A folder name made from ``name``: lower-case letters, digits, ``.``, ``_`` and ``-`` only, never starting
    with a dot (so never ``..``), at most :data:`~arena.limits.MAX_SLUG_LENGTH` characters.

    A name that loses characters on the way (or is too long) gets the first 8 hex digits of its SHA-256 appended,
    so two different names do not share a folder by accident: ``"/tmp/v"`` -> ``"tmp-v-3c5b2a1e"``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    cleaned = _SLUG_DROP.sub("-", ascii_name).strip("-.")
    cleaned = re.sub(r"-{2,}", "-", cleaned)
    exact = cleaned == name and 0 < len(cleaned) <= MAX_SLUG_LENGTH
    if exact:
        return cleaned
    tag = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    stem = cleaned[: MAX_SLUG_LENGTH - 9].rstrip("-.") or fallback
    return f"{stem}-{tag}"
