"""`arena odds damage`: the exact damage distribution of an attack or a full attack routine, and the chance to drop a
foe of N hit points within k rounds, under one rule set or several side by side (the arithmetic is
:mod:`arena.rules.damage_odds`; the table, JSON and plot :mod:`arena.cli.odds_damage_view`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import typer

from arena.cli.common import fail
from arena.cli.odds_damage_view import Asked, show
from arena.cli.odds_options import (
    ALL,
    AUSPICIOUS,
    DIE,
    HIDDEN,
    JSON,
    MODS,
    OPEN,
    PRAD,
    PRESS,
    REROLL,
    RULES,
    Die,
    Modifiers,
    Side,
    asked_rule_sets,
    bonus_routines,
    check_plot,
    within,
)
from arena.cli.progress import Progress
from arena.dice import DiceExpr, parse
from arena.errors import ArenaError, RulesError
from arena.labels import printable
from arena.rules import Check, RuleSet, odds
from arena.rules.check_limits import MAX_MULTIPLIER
from arena.rules.damage_odds import Blow, RoutineOdds, check_span, parse_rider, routine_odds

MAX_ATTACKS = 8
"""Attacks in one routine (``--attacks``, ``--bonus``): the SRD's largest full attacks have about eight."""
MAX_RIDERS = 8
"""``--rider`` options in one call."""
MAX_HP = 2_000
"""``--hp``: far above any SRD creature (the tarrasque has 858): the drop table is ``hp + 1`` long per round."""
MAX_ROUNDS = 20
"""``--rounds``: a fight of twenty rounds is two minutes of game time; past it, the chance is a curiosity."""
MAX_REDUCTION = 200
"""``--dr``: far above the SRD's largest (DR 20)."""


def damage(
    attacks: str | None = typer.Option(
        None, "--attacks", help="A full attack routine, each attack's bonus: +12/+7 (or one bonus: +12)."
    ),
    bonus: list[str] | None = typer.Option(
        None, "--bonus", help="An attack's bonus; repeat it for a routine (--bonus 12 --bonus 7), or write 12/7."
    ),
    ac: int = typer.Option(..., "--ac", help="The target's AC."),
    weapon: str = typer.Option(
        ..., "--damage", help="The weapon's damage of a hit, e.g. 1d8+5 (a critical multiplies it)."
    ),
    riders: list[str] | None = typer.Option(
        None,
        "--rider",
        help="Extra damage a critical does not multiply, with an optional type: '1d6 fire' (energy: damage "
        "reduction does not stop it), '2d6 sneak' or '1d6' (physical: it does). Repeatable.",
    ),
    reduction: int = typer.Option(
        0, "--dr", help="The target's damage reduction (subtracted from each hit's physical damage)."
    ),
    concealment: int = typer.Option(
        0, "--concealment", help="The miss chance in percent, rolled after a hit: 20 (concealment), 50 (total)."
    ),
    hp: int | None = typer.Option(None, "--hp", help="The foe's hit points: the chance to drop it (deal hp or more)."),
    rounds: int = typer.Option(1, "--rounds", help="With --hp: the chance to drop it within 1..k rounds."),
    threat: str = typer.Option("20", "--threat", help="Threat range, e.g. 19-20."),
    multiplier: int = typer.Option(2, "--multiplier", help="Critical multiplier."),
    attacker: Side = typer.Option(Side.pc, "--attacker", help="The side that attacks."),
    flat_footed: bool = typer.Option(False, "--flat-footed", help="The defender is flat-footed."),
    exact_: bool = typer.Option(False, "--exact", help="Show exact fractions instead of percentages."),
    plot: Path | None = typer.Option(
        None, "--plot", help="Write a plot (PNG) of the distribution to this file.", show_default=False
    ),
    die: Die = DIE,
    players_roll_all: bool = PRAD,
    modifiers: Modifiers = MODS,
    open_ended: bool = OPEN,
    rules: str = RULES,
    hidden_modifier: int = HIDDEN,
    press_luck: bool = PRESS,
    luck_reroll: bool = REROLL,
    auspicious: bool = AUSPICIOUS,
    all_variants: bool = ALL,
    json_: bool = JSON,
) -> None:
    """The exact damage of an attack or a full routine (P(damage = d) and P(damage >= d)), criticals, damage
    reduction, concealment and riders by the SRD, and with --hp the chance to drop a foe within --rounds rounds."""
    try:
        routine = _routine(attacks, bonus)
        blow = Blow(
            _weapon(weapon),
            _bounded("--multiplier", multiplier, 2, MAX_MULTIPLIER),
            tuple(parse_rider(text, "--rider") for text in _riders(riders)),
            _bounded("--dr", reduction, 0, MAX_REDUCTION),
            Fraction(_bounded("--concealment", concealment, 0, 100), 100),
        )
        if hp is not None:
            _bounded("--hp", hp, 1, MAX_HP)
        _bounded("--rounds", rounds, 1, MAX_ROUNDS)
        if rounds > 1 and hp is None:
            raise ArenaError("--rounds counts rounds to drop a foe: give its hit points with --hp")
        if plot is not None:
            check_plot(plot)
        base = Check(
            "attack",
            attacker.value,
            routine[0],
            within("--ac", ac),
            within("--hidden-modifier", hidden_modifier),
            odds.parse_threat(threat),
            blow.multiplier,
            flat_footed=flat_footed,
            press_luck=press_luck,
            luck_reroll=luck_reroll,
            auspicious=auspicious,
        )
        checks = [base._replace(modifier=b) for b in routine]
        chosen = None if all_variants else asked_rule_sets(die, players_roll_all, modifiers, open_ended, rules)
        results = _computed(checks, chosen, blow, hp, rounds)
    except ArenaError as err:
        raise fail(err) from None
    asked = Asked(routine, base, weapon, blow, hp, rounds)
    show(results, asked, exact_, json_, plot)


def _bounded(option: str, value: int, low: int, high: int) -> int:
    """:func:`within`, naming docs/odds.md, where this command's bounds are told."""
    return within(option, value, low, high, "docs/odds.md")


def _routine(attacks: str | None, bonus: list[str] | None) -> list[int]:
    """The routine's bonuses from ``--attacks +12/+7`` or ``--bonus`` (repeated, or 12/7): one of them."""
    if attacks is not None and bonus:
        raise ArenaError("give the routine once: --attacks +12/+7 or --bonus 12 --bonus 7, not both")
    texts = [attacks] if attacks is not None else list(bonus or [])
    if not texts:
        raise ArenaError("give the attack bonus: --attacks +12/+7 (a routine) or --bonus 12")
    routine: list[int] = []
    option = "--attacks" if attacks is not None else "--bonus"
    for text in texts:
        routines, swept = bonus_routines(text, option)
        if swept:
            raise ArenaError(
                f"{option} {printable(text, limit=40)!r}: a distribution is for one routine; sweep the hit chance "
                "with arena odds attack"
            )
        routine += routines[0]
    if len(routine) > MAX_ATTACKS:
        raise ArenaError(f"{len(routine)} attacks in the routine; at most {MAX_ATTACKS}")
    return routine


def _weapon(text: str) -> DiceExpr:
    """``--damage`` read as a dice expression (its own errors named by the option)."""
    try:
        expr = parse(text)
    except ArenaError as err:
        raise ArenaError(f"--damage: {err}") from None
    return check_span(expr, "--damage")


def _riders(texts: list[str] | None) -> list[str]:
    """The ``--rider`` texts, at most :data:`MAX_RIDERS`."""
    if texts and len(texts) > MAX_RIDERS:
        raise ArenaError(f"{len(texts)} --rider options; at most {MAX_RIDERS}")
    return list(texts or [])


def _computed(
    checks: list[Check], chosen: list[RuleSet] | None, blow: Blow, hp: int | None, rounds: int
) -> list[RoutineOdds]:
    """The routine under each rule set asked for (``None``: every single-roll rule set that allows the checks)."""
    candidates = odds.kernel_variants() if chosen is None else chosen
    results = []
    with Progress("exact damage (rule sets)", len(candidates)) as progress:
        for rules in candidates:
            try:
                results.append(routine_odds(checks, rules, blow, hp, rounds))
            except RulesError:
                if chosen is not None:
                    raise
            progress.advance()
    if not results:
        raise RulesError("no rule set allows this attack")
    return results
