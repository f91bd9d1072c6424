"""Compiling a check under a rule set into a :class:`~arena.rules.plan.Plan` (:func:`build_plan`), in steps: who
rolls, which die, taking 10/16/18/20, which modifier dice, and what the naturals do. Each step reads its source
document's module (``standard``, ``bell_curve``, ``players_roll``, ``variable_modifiers``, ``open_ended``)."""

from __future__ import annotations

from arena.errors import RulesError
from arena.rules import bell_curve, players_roll, standard, variable_modifiers
from arena.rules.check import ATTACK_LIKE, KINDS, SIDES, Check
from arena.rules.check_limits import check_numbers
from arena.rules.naturals import (
    _FACES,
    _TABLES,
    D3D6,
    D4D6,
    D20,
    FIXED,
    _sum_cdf,
    _sum_table,
    low_natural,
)
from arena.rules.plan import Plan, _SummedPlan
from arena.rules.ruleset import RuleSet

_OTHER = {"pc": "monster", "monster": "pc"}


def build_plan(check: Check, rules: RuleSet) -> Plan:
    """Compile ``check`` under ``rules``; raises :class:`RulesError` for a check the rules do not allow.

    Done once per distinct check and rule set (the kernel caches plans), in steps: who rolls, which die, taking
    10/16/18/20, which modifier dice, and what the naturals do."""
    kind, side = check.kind, check.side
    if kind not in KINDS:
        raise RulesError(f"unknown check kind {kind!r} (choose from {', '.join(KINDS)})")
    if side not in SIDES or (check.opponent is not None and check.opponent not in SIDES):
        raise RulesError(f"a side is 'pc' or 'monster', not {side!r}")
    check_numbers(check)
    plan = Plan()
    plan.p_success = None
    plan.shared = {}
    plan.choices = None
    modifier, hidden = _who_rolls(plan, check, rules)
    _choose_die(plan, check, rules)
    _check_taking(plan, check, rules)
    _choose_modifier(plan, check, rules, modifier, hidden)
    _judge_naturals(plan, check, rules)
    plain = plan.take is None and not plan.open and not plan.var_dice
    plan.plain_table = _TABLES[plan.die] if plain else None
    """The die's table when a roll is one draw from it plus the static modifier (the hot loop's shortcut)."""
    if plan.var_table is None and plan.var_dice:  # too many combinations for a table: drawn through their sum
        return _SummedPlan(plan, _sum_cdf(plan.var_dice))
    return plan


def _who_rolls(plan: Plan, check: Check, rules: RuleSet) -> tuple[int, int]:
    """The roller, its kind of roll and target (players roll all turns a monster's roll into the player's); returns
    the roller's modifier and the modifier it does not know."""
    kind, side = check.kind, check.side
    opponent = check.opponent or _OTHER[side]
    converted = (
        rules.players_roll_all and side == "monster" and opponent == "pc" and kind in players_roll.CONVERTED_KINDS
    )
    if converted:  # the player rolls a defense, magic or spell resistance check instead
        plan.roller, plan.roller_kind, plan.flip = "pc", players_roll.CONVERTED_KINDS[kind], True
        modifier = players_roll.check_modifier(check.target)
        target = players_roll.score(check.modifier + check.hidden)
        hidden = 0
    else:
        plan.roller, plan.roller_kind, plan.flip = side, kind, False
        modifier, target, hidden = check.modifier, check.target, check.hidden
    plan.target = target
    plan.defends = plan.roller_kind == "defense"
    plan.is_attack = kind in ATTACK_LIKE
    return modifier, hidden


def _choose_die(plan: Plan, check: Check, rules: RuleSet) -> None:
    """The die rolled (4d6 drop lowest under auspicious odds), and the die of a Luck-domain reroll."""
    die = rules.die
    base = {"d20": D20, "3d6": D3D6, "fixed10": FIXED}[die]
    if check.auspicious:
        if die != "3d6":
            raise RulesError("auspicious odds exists only under the bell curve (3d6)")
        if rules.options.auspicious_scope == "all-rolls" or plan.roller_kind in bell_curve.AUSPICIOUS_KINDS:
            base = D4D6
    plan.die = base
    plan.spell_end = bell_curve.LUCK_SPELL_ENDS_NATURAL if base == D4D6 else None
    plan.reroll_die = plan.reroll_at = None
    if check.luck_reroll and check.reroll_low:
        raise RulesError("a Luck reroll is decided either on failure or from a low natural, not both")
    if check.luck_reroll or check.reroll_low:
        plan.reroll_die = D4D6 if die == "3d6" else base
    if check.reroll_low:
        plan.reroll_at = low_natural(base)
        if plan.reroll_at is None:  # no natural is low (fixed10): nothing to reroll
            plan.reroll_die = None


def _check_taking(plan: Plan, check: Check, rules: RuleSet) -> None:
    """Taking 10 / 16 / 18 / 20: only on skill and ability checks, only the values the die allows."""
    plan.take = check.take
    if check.take is None:
        return
    allowed = bell_curve.TAKE_OPTIONS if rules.die == "3d6" else standard.TAKE_OPTIONS
    if check.kind not in standard.TAKE_KINDS:
        raise RulesError(f"taking {check.take} applies to skill and ability checks only, not {check.kind}")
    if check.take not in allowed:
        raise RulesError(f"cannot take {check.take} under {rules.die} (allowed: {', '.join(map(str, allowed))})")
    if check.press_luck or check.luck_reroll or check.reroll_low:
        raise RulesError("a check that takes 10/16/18/20 rolls no die: nothing to press or reroll")


def _choose_modifier(plan: Plan, check: Check, rules: RuleSet, modifier: int, hidden: int) -> None:
    """The modifier: static, variable dice (by the rules or pressed), and what the roller did not know."""
    roller_kind = plan.roller_kind
    if check.press_luck:
        if check.unconscious:
            raise RulesError("cannot press your luck while unconscious")
        if roller_kind == "initiative":
            raise RulesError("cannot press your luck on an initiative check")
        if roller_kind == "defense" and check.flat_footed:
            raise RulesError("cannot press your luck on a flat-footed AC roll")
        if rules.die == "fixed10":
            raise RulesError("fixed10 rolls no variable dice: pressing luck is meaningless there")
    variable_by_rules = rules.modifiers == "variable" and rules.options.variable_sides in ("both", plan.roller)
    use_variable = check.take is None and (variable_by_rules or check.press_luck)
    plan.pressed = check.press_luck and not variable_by_rules and check.take is None
    if use_variable:
        expr = variable_modifiers.variable_dice(modifier)
        plan.static = expr.constant + hidden
        plan.var_dice = expr.dice
        plan.var_table = _sum_table(expr.dice)  # None for too many combinations: build_plan makes a _SummedPlan
    else:
        plan.static = modifier + hidden
        plan.var_dice = ()
        plan.var_table = None


def _judge_naturals(plan: Plan, check: Check, rules: RuleSet) -> None:
    """What the naturals do: automatic results, threats and their confirmation, explosions, item damage."""
    opts, die, roller_kind = rules.options, rules.die, plan.roller_kind
    low, top = _FACES[plan.die]
    plan.open = rules.open_ended and check.take is None
    automatic_kinds = standard.AUTOMATIC_KINDS | ({"defense", "magic"} if opts.prad_automatic else set())
    has_autos = (
        roller_kind in automatic_kinds
        and die != "fixed10"
        and check.take is None
        and (not rules.open_ended or opts.open_automatic)
    )
    plan.auto_hi, plan.auto_lo = (top, low) if has_autos else (None, None)
    plan.confirm_auto = opts.confirm_automatic and has_autos

    attacker_threats: frozenset[int] = frozenset()
    if plan.is_attack:
        first = check.threat if die != "3d6" else bell_curve.threat_low(check.threat, opts.bell_threat_16_20)
        attacker_threats = frozenset(range(first, top + 1))
    if roller_kind == "defense":
        if opts.prad_threat == "mirror":
            plan.threat_set = frozenset(21 - t for t in attacker_threats)
        else:  # doc 001: "a natural 1 on a defense check" (the die's lowest; fixed10 rolls no naturals)
            plan.threat_set = frozenset({low}) if die != "fixed10" else frozenset()
        plan.explode_hi, plan.explode_lo = frozenset({top}), plan.threat_set
    else:
        plan.threat_set = attacker_threats
        plan.explode_hi = attacker_threats if roller_kind == "attack" else frozenset({top})
        plan.explode_lo = frozenset({low})
    if not plan.open:
        plan.explode_hi = plan.explode_lo = frozenset()
    plan.confirm = plan.is_attack and (not rules.open_ended or opts.open_criticals == "confirm")
    plan.margin_crit = plan.is_attack and rules.open_ended
    plan.item_natural = {"save": low, "magic": top}.get(roller_kind) if die != "fixed10" else None
    if check.take is not None:
        plan.item_natural = None
