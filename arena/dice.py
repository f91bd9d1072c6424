"""Dice expressions, fast seeded rolling, and exact distributions.

An expression is what a stat block or a rules table writes: ``2d6+9``, ``1d20+1d4``, ``-(1d20+1d10)``,
``4d6kh3`` (four d6, keep the highest three). It parses into an immutable tree that prints back to the
same text, rolls fast from a :class:`Stream`, and gives its exact distribution as an icepool ``Die``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

import icepool
import numpy as np

from arena.errors import ArenaError, DiceSyntaxError
from arena.limits import MAX_DICE, MAX_DICE_TERMS, MAX_SIDES

MAX_TEXT_LENGTH = 500
"""Characters in one dice expression: 32 terms of ``100d1000kh50`` fit, and a pasted novel is refused before it is
read token by token."""
MAX_CONSTANT = 10_000
"""The largest constant term (``48d10+594`` is the Tarrasque's hit dice); longer numbers are refused before they
are converted, so a 5,000-digit number is a message, not Python's digit-limit error."""
_MAX_DIGITS = len(str(MAX_CONSTANT))
MAX_EXACT_OUTCOMES = 20_000
""":meth:`DiceExpr.exact` refuses expressions with more possible totals than this (100d1000 has 99,901; icepool
would take minutes). Variable-modifier dice at the largest modifier (+-200, twenty d20s) have 381."""
TABLE_LIMIT = 4096
"""Expressions with at most this many face combinations roll from a table of totals: one draw per roll."""


# --------------------------------------------------------------------------------------------- streams
class Stream:
    """A seeded source of die rolls for one encounter (or one batch of checks).

    Python's Mersenne Twister is used directly: one C call per die, no numpy scalar per roll, and the same
    seed gives the same rolls on every platform. ``rand`` is exposed so hot loops can bind it locally.
    """

    def __init__(self, seed: int | None, rand: Callable[[], float] | None = None):
        self.seed = seed
        self.rand: Callable[[], float] = random.Random(seed).random if rand is None else rand

    def die(self, sides: int) -> int:
        """One roll of a die with ``sides`` faces, 1..sides."""
        return int(self.rand() * sides) + 1

    @classmethod
    def scripted(cls, rolls: list[tuple[int, int] | float]) -> Stream:
        """A stream that yields the given rolls in order, for tests and worked examples: ``(face, sides)`` for
        one die, or a raw draw in [0, 1) (see :func:`arena.rules.naturals.draw_for` for multi-dice naturals)."""
        values = iter([r if isinstance(r, float) else (r[0] - 0.5) / r[1] for r in rolls])
        return cls(None, values.__next__)

    @classmethod
    def for_encounter(cls, run_seed: int, index: int) -> Stream:
        """The stream of encounter ``index`` of a run: the same under every rule set (common random numbers)."""
        return cls(encounter_seed(run_seed, index))


def encounter_seed(run_seed: int, index: int) -> int:
    """The seed of encounter ``index`` of a run seeded ``run_seed``: independent of workers and rule sets."""
    state = np.random.SeedSequence([run_seed, index]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


# --------------------------------------------------------------------------------------------- the tree
@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces; ``keep`` > 0 keeps the highest ``keep``, < 0 the lowest ``-keep``."""

    count: int
    sides: int
    keep: int = 0

    def __str__(self) -> str:
        suffix = f"kh{self.keep}" if self.keep > 0 else f"kl{-self.keep}" if self.keep < 0 else ""
        return f"{self.count}d{self.sides}{suffix}"


@dataclass(frozen=True)
class Constant:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Term:
    """One signed part of an expression: a die group, a constant, or a parenthesised sub-expression."""

    negative: bool
    body: Dice | Constant | DiceExpr


class DiceExpr:
    """A sum of signed terms. Build one with :func:`parse`; ``str()`` gives text that parses back to it.

    Immutable: the flattened dice, constant and table that a roll reads are worked out once, when it is built (the
    engine rolls them on every hit); the mean on first use."""

    def __init__(self, terms: tuple[Term, ...]) -> None:
        self.terms = terms
        dice, constant = _flatten(terms)
        self.dice: tuple[tuple[int, int, int, int], ...] = dice
        """Each dice group as (sign, count, sides, keep), parentheses multiplied out."""
        self.constant: int = constant
        self.table: tuple[int, ...] | None = _table(dice, constant)
        """Every equally likely total, one per combination of faces, when there are few (one draw per roll)."""
        self._mean: float | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceExpr) and other.terms == self.terms

    def __hash__(self) -> int:
        return hash(self.terms)

    def __repr__(self) -> str:
        return f"DiceExpr(terms={self.terms!r})"

    def __str__(self) -> str:
        out = []
        for i, term in enumerate(self.terms):
            body = f"({term.body})" if isinstance(term.body, DiceExpr) else str(term.body)
            if i == 0:
                out.append(f"-{body}" if term.negative else body)
            else:
                out.append(f"{'-' if term.negative else '+'}{body}")
        return "".join(out)

    @property
    def minimum(self) -> int:
        return self.constant + sum(s * (k_count(c, k) if s > 0 else k_count(c, k) * d) for s, c, d, k in self.dice)

    @property
    def maximum(self) -> int:
        return self.constant + sum(s * (k_count(c, k) * d if s > 0 else k_count(c, k)) for s, c, d, k in self.dice)

    @property
    def mean(self) -> float:
        """The exact mean (as a float), by linearity: no distribution is built, so ``100d1000kh50`` is cheap."""
        mean = self._mean
        if mean is None:
            total = Fraction(self.constant)
            for sign, count, sides, keep in self.dice:
                total += sign * _group_mean(count, sides, keep)
            mean = self._mean = float(total)
        return mean

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
        """The exact distribution (icepool ``Die``), built from the same flattened terms that :meth:`roll` uses.

        Refused (:class:`ArenaError`) past :data:`MAX_EXACT_OUTCOMES` possible totals, or for a keep-highest/lowest
        pool of more than 20 dice: icepool would take minutes. (The mean needs no distribution: :attr:`mean`.)"""
        span = self.maximum - self.minimum + 1
        if span > MAX_EXACT_OUTCOMES or any(keep and count > 20 for _s, count, _d, keep in self.dice):
            raise ArenaError(
                f"dice expression {str(self)[:60]!r} has too many outcomes ({span:,}) for an exact "
                f"distribution (the limit is {MAX_EXACT_OUTCOMES:,}, or 20 dice in a kh/kl pool)"
            )
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


def _flatten(terms: tuple[Term, ...]) -> tuple[tuple[tuple[int, int, int, int], ...], int]:
    """((sign, count, sides, keep), ...), constant: an expression's terms with parentheses multiplied out."""
    dice: list[tuple[int, int, int, int]] = []
    constant = 0
    for term in terms:
        sign = -1 if term.negative else 1
        body = term.body
        if isinstance(body, Constant):
            constant += sign * body.value
        elif isinstance(body, Dice):
            dice.append((sign, body.count, body.sides, body.keep))
        else:  # a parenthesised expression, already flattened
            constant += sign * body.constant
            dice.extend((sign * s, c, d, k) for s, c, d, k in body.dice)
    return tuple(dice), constant


def _table(dice: tuple[tuple[int, int, int, int], ...], constant: int) -> tuple[int, ...] | None:
    """Every equally likely total, one per combination of faces, when there are at most :data:`TABLE_LIMIT` and no
    group keeps some of its dice (one draw per roll); else None."""
    combos = 1
    for _sign, count, sides, _keep in dice:
        combos *= sides ** min(count, 13)  # 2 ** 13 > TABLE_LIMIT: no need to build a huge number
        if combos > TABLE_LIMIT:
            return None
    totals = [constant]
    for sign, count, sides, keep in dice:
        if keep:
            return None
        for _ in range(count):
            totals = [t + sign * face for t in totals for face in range(1, sides + 1)]
    return tuple(totals)


@lru_cache(maxsize=256)
def _group_mean(count: int, sides: int, keep: int) -> Fraction:
    """The exact mean of one dice group: ``count (sides + 1) / 2``; with ``kh k``, the sum over faces x of
    E[min(B_x, k)] where B_x ~ Binomial(count, P(die >= x)) counts the dice showing x or more (the k-th highest is
    at least x exactly when B_x >= k); ``kl k`` is the whole sum less the highest ``count - k``."""
    whole = Fraction(count * (sides + 1), 2)
    if keep == 0:
        return whole
    top = keep if keep > 0 else count - (-keep)
    if top == 0:
        return whole
    numerator = 0  # the sum, times sides ** count, in integers
    for x in range(1, sides + 1):
        a, b = sides - x + 1, x - 1  # faces >= x, faces < x
        numerator += sum(min(i, top) * comb(count, i) * a**i * b ** (count - i) for i in range(1, count + 1))
    highest = Fraction(numerator, sides**count)
    return highest if keep > 0 else whole - highest


# --------------------------------------------------------------------------------------------- parsing
_TOKEN = re.compile(r"\s*(?:(?P<num>[0-9]+)|(?P<op>[-+()])|(?P<d>d)|(?P<keep>k[hl]))")


def _tokens(text: str) -> list[str]:
    tokens, pos = [], 0
    text = text.strip()
    if len(text) > MAX_TEXT_LENGTH:
        raise DiceSyntaxError(
            f"dice expression {text[:40]!r}... is {len(text):,} characters long (the limit is {MAX_TEXT_LENGTH})"
        )
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise DiceSyntaxError(f"dice expression {text!r}: unexpected {text[pos : pos + 5]!r} at column {pos + 1}")
        token = m.group(m.lastgroup or 0)
        if m.lastgroup == "num" and len(token.lstrip("0")) > _MAX_DIGITS:
            raise DiceSyntaxError(
                f"dice expression {text!r}: the number {token[:12]}... is too large "
                f"(numbers are at most {MAX_CONSTANT:,})"
            )
        tokens.append(token)
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0
        self.terms = 0

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
        if tok != "(":
            self.terms += 1
            if self.terms > MAX_DICE_TERMS:
                raise self.fail(f"more than {MAX_DICE_TERMS} terms (the limit for one expression)")
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
                if count > MAX_CONSTANT:
                    raise self.fail(f"the constant {count} is beyond the limit of {MAX_CONSTANT:,}")
                return Constant(count)
        else:
            raise self.fail("expected a number, a die or '('" if tok else "it ends too early")
        self.take()  # the 'd'
        sides = self.number("the number of sides after 'd'")
        if not 1 <= count <= MAX_DICE:
            raise self.fail(f"dice count {count} is outside 1..{MAX_DICE} (the limit per term)")
        if not 1 <= sides <= MAX_SIDES:
            raise self.fail(f"die size {sides} is outside 1..{MAX_SIDES} (the limit)")
        keep = 0
        if self.peek() in ("kh", "kl"):
            kind = self.take()
            kept = self.number(f"how many dice to keep after {kind!r}")
            if not 1 <= kept <= count:
                raise self.fail(f"cannot keep {kept} of {count} dice")
            keep = kept if kind == "kh" else -kept
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
