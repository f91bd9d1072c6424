"""Dice expressions, fast seeded rolling, and exact distributions.

An expression is what a stat block or a rules table writes: ``2d6+9``, ``1d20+1d4``, ``-(1d20+1d10)``,
``4d6kh3`` (four d6, keep the highest three). It parses into an immutable tree that prints back to the
same text, rolls fast from a :class:`Stream`, and gives its exact distribution as an icepool ``Die``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

import icepool
import numpy as np

from arena.errors import DiceSyntaxError

MAX_COUNT = 1000
"""Most dice in one term: enough for any rule, small enough that a typo cannot hang a run."""
MAX_SIDES = 10_000
TABLE_LIMIT = 4096
"""Expressions with at most this many face combinations roll from a table of totals: one draw per roll."""


# --------------------------------------------------------------------------------------------- streams
class Stream:
    """A seeded source of die rolls for one encounter (or one batch of checks).

    Python's Mersenne Twister is used directly: one C call per die, no numpy scalar per roll, and the same
    seed gives the same rolls on every platform. ``rand`` is exposed so hot loops can bind it locally.
    """

    __slots__ = ("rand", "seed")

    def __init__(self, seed: int):
        self.seed = seed
        self.rand = random.Random(seed).random

    def die(self, sides: int) -> int:
        """One roll of a die with ``sides`` faces, 1..sides."""
        return int(self.rand() * sides) + 1

    @classmethod
    def scripted(cls, rolls: list[tuple[int, int] | float]) -> Stream:
        """A stream that yields the given rolls in order, for tests and worked examples: ``(face, sides)`` for
        one die, or a raw draw in [0, 1) (see :func:`arena.rules.kernel.draw_for` for multi-dice naturals)."""
        values = iter([r if isinstance(r, float) else (r[0] - 0.5) / r[1] for r in rolls])
        stream = cls.__new__(cls)
        stream.seed = None
        stream.rand = values.__next__
        return stream

    @classmethod
    def for_encounter(cls, run_seed: int, index: int) -> Stream:
        """The stream of encounter ``index`` of a run: the same under every rule set (common random numbers)."""
        return cls(encounter_seed(run_seed, index))


def encounter_seed(run_seed: int, index: int) -> int:
    """The seed of encounter ``index`` of a run seeded ``run_seed``: independent of workers and rule sets."""
    state = np.random.SeedSequence([run_seed, index]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


# --------------------------------------------------------------------------------------------- the tree
@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` faces; ``keep`` > 0 keeps the highest ``keep``, < 0 the lowest ``-keep``."""

    count: int
    sides: int
    keep: int = 0

    def __str__(self) -> str:
        suffix = f"kh{self.keep}" if self.keep > 0 else f"kl{-self.keep}" if self.keep < 0 else ""
        return f"{self.count}d{self.sides}{suffix}"


@dataclass(frozen=True, slots=True)
class Constant:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Term:
    """One signed part of an expression: a die group, a constant, or a parenthesised sub-expression."""

    negative: bool
    body: Dice | Constant | DiceExpr


@dataclass(frozen=True)
class DiceExpr:
    """A sum of signed terms. Build one with :func:`parse`; ``str()`` gives text that parses back to it."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        out = []
        for i, term in enumerate(self.terms):
            body = f"({term.body})" if isinstance(term.body, DiceExpr) else str(term.body)
            if i == 0:
                out.append(f"-{body}" if term.negative else body)
            else:
                out.append(f"{'-' if term.negative else '+'}{body}")
        return "".join(out)

    # -- flattened views used for rolling and exact maths (groups folded into signs)
    @cached_property
    def _flat(self) -> tuple[tuple[tuple[int, int, int, int], ...], int]:
        """((sign, count, sides, keep), ...), constant: the expression with parentheses multiplied out."""
        dice: list[tuple[int, int, int, int]] = []
        constant = 0

        def walk(expr: DiceExpr, sign: int) -> None:
            nonlocal constant
            for term in expr.terms:
                s = -sign if term.negative else sign
                body = term.body
                if isinstance(body, Constant):
                    constant += s * body.value
                elif isinstance(body, Dice):
                    dice.append((s, body.count, body.sides, body.keep))
                else:
                    walk(body, s)

        walk(self, 1)
        return tuple(dice), constant

    @property
    def constant(self) -> int:
        return self._flat[1]

    @property
    def dice(self) -> tuple[tuple[int, int, int, int], ...]:
        """Each dice group as (sign, count, sides, keep)."""
        return self._flat[0]

    @cached_property
    def minimum(self) -> int:
        return self.constant + sum(s * (k_count(c, k) if s > 0 else k_count(c, k) * d)
                                   for s, c, d, k in self.dice)

    @cached_property
    def maximum(self) -> int:
        return self.constant + sum(s * (k_count(c, k) * d if s > 0 else k_count(c, k))
                                   for s, c, d, k in self.dice)

    @cached_property
    def mean(self) -> float:
        return float(self.exact().mean())

    @cached_property
    def table(self) -> tuple[int, ...] | None:
        """Every equally likely total, one per combination of faces, when there are few (one draw per roll)."""
        combos = 1
        for _sign, count, sides, _keep in self.dice:
            combos *= sides ** count
        if combos > TABLE_LIMIT:
            return None
        totals = [self.constant]
        for sign, count, sides, keep in self.dice:
            if keep:
                return None
            for _ in range(count):
                totals = [t + sign * face for t in totals for face in range(1, sides + 1)]
        return tuple(totals)

    def roll(self, stream: Stream) -> int:
        """Sample the expression once."""
        rand = stream.rand
        table = self.table
        if table is not None:
            return table[int(rand() * len(table))]
        total = self.constant
        for sign, count, sides, keep in self.dice:
            if keep == 0:
                sub = count
                for _ in range(count):
                    sub += int(rand() * sides)
            else:
                rolls = sorted(int(rand() * sides) + 1 for _ in range(count))
                sub = sum(rolls[-keep:]) if keep > 0 else sum(rolls[:-keep])
            total += sign * sub
        return total

    def exact(self) -> icepool.Die:
        """The exact distribution (icepool ``Die``), built from the same flattened terms that :meth:`roll` uses."""
        die = icepool.Die([self.constant])
        for sign, count, sides, keep in self.dice:
            one = icepool.d(sides)
            if keep == 0:
                part = count @ one
            elif keep > 0:
                part = one.pool(count).highest(keep).sum()
            else:
                part = one.pool(count).lowest(-keep).sum()
            die = die + part if sign > 0 else die - part
        return die


def k_count(count: int, keep: int) -> int:
    """How many dice of a group count towards its total."""
    return abs(keep) if keep else count


# --------------------------------------------------------------------------------------------- parsing
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<op>[-+()])|(?P<d>d)|(?P<keep>k[hl]))")


def _tokens(text: str) -> list[str]:
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise DiceSyntaxError(f"dice expression {text!r}: unexpected {text[pos:pos + 5]!r} at column {pos + 1}")
        tokens.append(m.group(m.lastgroup))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0

    def fail(self, what: str) -> DiceSyntaxError:
        return DiceSyntaxError(f"dice expression {self.text!r}: {what}")

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise self.fail("it ends too early")
        self.pos += 1
        return tok

    def expr(self, depth: int = 0) -> DiceExpr:
        if depth > 20:
            raise self.fail("too many nested parentheses")
        terms = []
        negative = False
        if self.peek() in ("+", "-"):
            negative = self.take() == "-"
        terms.append(Term(negative, self.atom(depth)))
        while self.peek() in ("+", "-"):
            negative = self.take() == "-"
            terms.append(Term(negative, self.atom(depth)))
        return DiceExpr(tuple(terms))

    def number(self, what: str) -> int:
        tok = self.take()
        if not tok.isdigit():
            raise self.fail(f"expected {what}, found {tok!r}")
        return int(tok)

    def atom(self, depth: int) -> Dice | Constant | DiceExpr:
        tok = self.peek()
        if tok == "(":
            self.take()
            inner = self.expr(depth + 1)
            if self.peek() != ")":
                raise self.fail("a '(' is never closed")
            self.take()
            return inner
        if tok == "d":
            count = 1
        elif tok is not None and tok.isdigit():
            count = int(self.take())
            if self.peek() != "d":
                return Constant(count)
        else:
            raise self.fail("expected a number, a die or '('" if tok else "it ends too early")
        self.take()  # the 'd'
        sides = self.number("the number of sides after 'd'")
        keep = 0
        if self.peek() in ("kh", "kl"):
            kind = self.take()
            kept = self.number(f"how many dice to keep after {kind!r}")
            if not 1 <= kept <= count:
                raise self.fail(f"cannot keep {kept} of {count} dice")
            keep = kept if kind == "kh" else -kept
        if not 1 <= count <= MAX_COUNT:
            raise self.fail(f"dice count {count} is outside 1..{MAX_COUNT}")
        if not 1 <= sides <= MAX_SIDES:
            raise self.fail(f"die size {sides} is outside 1..{MAX_SIDES}")
        return Dice(count, sides, keep)


def parse(text: str) -> DiceExpr:
    """Parse a dice expression; raises :class:`DiceSyntaxError` (one line, naming the problem) on bad text.
    Expressions are immutable, so parsed ones are cached (the engine parses spell dice as it casts)."""
    if not isinstance(text, str):
        raise DiceSyntaxError(f"dice expression must be text, not {type(text).__name__}")
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> DiceExpr:
    parser = _Parser(text)
    if not parser.tokens:
        raise DiceSyntaxError("dice expression is empty")
    expr = parser.expr()
    if parser.peek() is not None:
        raise parser.fail(f"unexpected {parser.peek()!r} after a complete expression")
    return expr
