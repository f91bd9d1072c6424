"""Dice expressions: parsing, printing, rolling and exact distributions."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.dice import MAX_DICE_TERMS, Constant, Dice, DiceExpr, Stream, Term, parse
from arena.errors import DiceSyntaxError


@pytest.mark.parametrize(
    ("text", "low", "high", "mean"),
    [
        ("2d6+9", 11, 21, 16.0),
        ("1d20+1d4", 2, 24, 13.0),
        ("-(1d20+1d10)", -30, -2, -16.0),
        ("4d6kh3", 3, 18, 15869 / 1296),
        ("d8", 1, 8, 4.5),
        ("3", 3, 3, 3.0),
        ("2d4kl1-1", 0, 3, 0.875),
    ],
)
def test_expressions(text, low, high, mean):
    expr = parse(text)
    assert (expr.minimum, expr.maximum) == (low, high)
    assert expr.mean == pytest.approx(mean)
    stream = Stream(7)
    rolls = [expr.roll(stream) for _ in range(2000)]
    assert low <= min(rolls) and max(rolls) <= high


def test_rolled_frequencies_match_exact():
    expr = parse("4d6kh3")
    exact = expr.exact()
    stream, n = Stream(11), 40_000
    counts = {}
    for _ in range(n):
        v = expr.roll(stream)
        counts[v] = counts.get(v, 0) + 1
    for outcome, q in zip(exact.outcomes(), exact.quantities(), strict=True):
        p = q / exact.denominator()
        assert abs(counts.get(outcome, 0) / n - p) <= 5 * (p * (1 - p) / n) ** 0.5 + 2 / n


@pytest.mark.parametrize(
    "bad", ["", "1d", "d", "2d6+", "(1d6", "1d6)", "1d0", "0d6", "4d6kh5", "1d6 x", "1.5d6", "--1", "1d6kh"]
)
def test_bad_expressions_raise_one_clear_error(bad):
    with pytest.raises(DiceSyntaxError) as err:
        parse(bad)
    assert "\n" not in str(err.value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dkhl+-() x", max_size=20))
def test_parser_never_crashes(text):
    with contextlib.suppress(DiceSyntaxError):
        parse(text)


def exprs(depth=2):
    dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 20)).flatmap(
        lambda d: st.sampled_from([d, Dice(d.count, d.sides, d.count), Dice(d.count, d.sides, -1)])
    )
    body = st.one_of(dice, st.builds(Constant, st.integers(0, 50)))
    if depth > 0:
        body = st.one_of(body, exprs(depth - 1))
    return st.builds(
        lambda terms: DiceExpr(tuple(terms)), st.lists(st.builds(Term, st.booleans(), body), min_size=1, max_size=4)
    )


def atoms(expr: DiceExpr) -> int:
    """Dice and constants in an expression, nested ones included (the parser's term limit counts these)."""
    return sum(atoms(t.body) if isinstance(t.body, DiceExpr) else 1 for t in expr.terms)


@settings(max_examples=300, deadline=None)
@given(exprs().filter(lambda e: atoms(e) <= MAX_DICE_TERMS))
def test_printed_expression_parses_back_to_itself(expr):
    assert parse(str(expr)) == expr
