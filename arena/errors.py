"""User-facing errors: anything a person can fix by changing their input.

The CLI turns an `ArenaError` into one line on stderr and exit code 2, never a traceback.
"""

import difflib
from collections.abc import Callable, Iterable


def nearest(word: str, choices: Iterable[str], what: str) -> str:
    """``unknown <what> 'x'; did you mean y?`` with the nearest ``choices`` (difflib), or the full list."""
    choices = list(choices)
    near = difflib.get_close_matches(word, choices, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    return f"unknown {what} {word!r}{hint} (choose from {', '.join(choices)})"


def one_of(what: str, choices: Iterable[str], note: str = "") -> Callable[[str], str]:
    """A validator accepting only ``choices`` (read when validating: a live registry may grow); the error names the
    nearest choices, then ``note``."""

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(nearest(value, choices, what) + note)
        return value

    return check


class ArenaError(Exception):
    """Bad input a user can fix: the message says what is wrong and where."""


class RulesError(ArenaError):
    """A check or rule set that the source documents do not allow."""


class DiceSyntaxError(ArenaError):
    """A dice expression that cannot be parsed."""
