"""User-facing errors: anything a person can fix by changing their input.

The CLI turns an `ArenaError` into one line on stderr and exit code 2, never a traceback.
"""


class ArenaError(Exception):
    """Bad input a user can fix: the message says what is wrong and where."""


class RulesError(ArenaError):
    """A check or rule set that the source documents do not allow."""


class DiceSyntaxError(ArenaError):
    """A dice expression that cannot be parsed."""
