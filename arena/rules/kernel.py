"""`resolve()` and `exact()`: two faces of one set of rules.

A check under a rule set compiles once into a :class:`Plan`: who physically rolls which die, with which
modifier dice, against which target, which naturals are automatic, threaten or explode. ``resolve`` samples a
plan; ``exact`` enumerates it. Both read every roll through the same :meth:`Plan.judge`, so the sampled and
exact faces cannot drift apart, and the tests hold them against each other for every check kind and variant.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction

from arena.errors import RulesError
from arena.limits import MAX_MODIFIER
from arena.rules import bell_curve, open_ended, players_roll, standard, variable_modifiers
from arena.rules.check import KINDS, SIDES, Check, Outcome
from arena.rules.naturals import (
    _FACES,
    _TABLES,
    D3D6,
    D4D6,
    D20,
    FIXED,
    _chain_at_least,
    _float_naturals,
    _high_chain,
    _low_chain,
    _roll_table,
    _sum_cdf,
    _sum_table,
    _survival,
    low_natural,
)
from arena.rules.ruleset import RuleSet

_OTHER = {"pc": "monster", "monster": "pc"}
ATTACK_LIKE = frozenset({"attack", "defense"})
SHARED_OUTCOMES = 24
"""At most this many shared outcomes per plan (distinct natural and total pairs), to bound memory in long runs:
enough for every natural of a plan without variable dice."""
_INTERNED: dict[tuple, Outcome] = {}
"""First-roll outcomes by their fields: every plan that produces the same outcome shares one object."""

Rand = Callable[[], float]
"""A stream's draw in [0, 1) (:attr:`arena.dice.Stream.rand`): the plans take it bound, not the stream."""
VarDice = tuple[tuple[int, int, int, int], ...]
"""Variable-modifier dice groups as (sign, count, sides, keep) (:attr:`arena.dice.DiceExpr.dice`)."""


class Plan:
    """A check compiled under a rule set: everything the hot loop needs, as plain attributes.

    Two caches ride along: ``shared`` (first-roll outcomes, see :meth:`resolve`) and ``choices`` (decisions a
    caller derives from this check's exact odds, such as the engine's pressing luck; None until used)."""

    __slots__ = (
        "roller",
        "roller_kind",
        "flip",
        "die",
        "reroll_die",
        "reroll_at",
        "take",
        "static",
        "var_dice",
        "target",
        "auto_hi",
        "auto_lo",
        "threat_set",
        "explode_hi",
        "explode_lo",
        "open",
        "confirm",
        "var_table",
        "defends",
        "margin_crit",
        "p_success",
        "item_natural",
        "spell_end",
        "pressed",
        "is_attack",
        "confirm_auto",
        "shared",
        "choices",
        "plain_table",
    )
    # The slots' types, for mypy and readers (annotations only: no class attribute, so the slots stay as fast).
    roller: str  # the side that physically rolls: "pc" or "monster"
    roller_kind: str  # the check kind it rolls (a defense check under players roll all)
    flip: bool  # players roll all turned the roll around: success is the actor's failure
    die: str  # D20, D3D6, D4D6 or FIXED
    reroll_die: str | None  # the die of the Luck-domain reroll, if any
    reroll_at: int | None  # reroll from a natural this low (None: reroll on failure)
    take: int | None  # taking 10/16/18/20
    static: int  # the static modifier, hidden modifiers included
    var_dice: VarDice  # variable-modifier dice, () for none
    target: int
    auto_hi: int | None  # the natural that succeeds automatically (None: no automatic results)
    auto_lo: int | None  # the natural that fails automatically
    threat_set: frozenset[int]
    explode_hi: frozenset[int]  # open-ended: naturals that roll on upwards
    explode_lo: frozenset[int]  # open-ended: naturals that roll on downwards
    open: bool
    confirm: bool  # a threat rolls a confirmation roll
    var_table: tuple[int, ...] | None  # every equally likely sum of the variable dice, when they fit a table
    defends: bool
    margin_crit: bool
    p_success: float | None  # success_probability(), once computed
    item_natural: int | None
    spell_end: int | None
    pressed: bool
    is_attack: bool
    confirm_auto: bool
    shared: dict[int, Outcome]
    choices: dict[Hashable, Plan] | None
    plain_table: tuple[int, ...] | None

    # ------------------------------------------------------------------ judging one physical roll
    def judge(self, natural: int, total: int, autos: bool = True) -> tuple[bool, bool, bool, bool, bool]:
        """The roller's view of one roll: (success, auto success, auto failure, critical success, fumble)."""
        if autos and natural == self.auto_hi:
            success, auto_s, auto_f = True, True, False
        elif autos and natural == self.auto_lo:
            success, auto_s, auto_f = False, False, True
        else:
            success, auto_s, auto_f = total >= self.target, False, False
        if not self.open:
            return success, auto_s, auto_f, False, False
        margin = total - self.target
        return (
            success,
            auto_s,
            auto_f,
            margin >= open_ended.CRITICAL_MARGIN and natural in self.explode_hi,
            -margin >= open_ended.CRITICAL_MARGIN and natural in self.explode_lo,
        )

    def attack_hits(self, roller_success: bool) -> bool:
        """For attack-like checks: did the attack hit? (A defense check that succeeds is a miss.)"""
        return roller_success != self.defends

    # ------------------------------------------------------------------ sampling
    def sample_roll(self, die: str, rand: Rand) -> tuple[int, int]:
        """One physical roll: (natural, total). Dice come from tables of every equally likely combination, so
        a 3d6 or a 1d20+1d6 costs one draw."""
        if self.take is None:
            table = _TABLES[die]
            natural = table[int(rand() * len(table))]
        else:
            natural = self.take
        total = natural + self.static
        if self.open:
            if natural in self.explode_hi:
                total += _high_chain(die, rand)
            elif natural in self.explode_lo:
                total += _low_chain(die, rand) - natural  # the negative chain replaces the natural
        if self.var_table is not None:
            total += self.var_table[int(rand() * len(self.var_table))]
        return natural, total

    def resolve(self, rand: Rand) -> Outcome:
        """Roll the plan once. The first roll's outcome depends only on (natural, total) unless a confirmation
        roll is drawn, so those outcomes are built once per plan and shared: callers never change an outcome that
        ``resolve`` returns (a reroll's outcome is always fresh)."""
        table = self.plain_table
        if table is not None:  # sample_roll inlined for a plain roll: no chain, no modifier dice
            natural = table[int(rand() * len(table))]
            total = natural + self.static
        else:
            natural, total = self.sample_roll(self.die, rand)
        key = total * 32 + natural  # naturals lie in 1..20
        outcome = self.shared.get(key)
        if outcome is None:
            outcome, drew = self._judged(natural, total, rand, True)
            if not drew and len(self.shared) < SHARED_OUTCOMES:
                self.shared[key] = outcome
        if self.reroll_die is None:
            return outcome
        if self.reroll_at is None:
            if outcome.success != self.flip:
                return outcome
        elif natural > self.reroll_at:
            return outcome
        first_ended = outcome.spell_ends  # the roller failed (or rolled low): reroll once
        natural, total = self.sample_roll(self.reroll_die, rand)
        outcome = self._judged(natural, total, rand, False)[0]
        outcome.rerolled = True
        outcome.spell_ends = outcome.spell_ends or first_ended
        return outcome

    def _judged(self, natural: int, total: int, rand: Rand, first: bool) -> tuple[Outcome, bool]:
        """The outcome of a roll, and whether judging it drew a confirmation roll. A first roll's outcome is the
        interned one (shared, never changed); a reroll's is fresh (resolve marks it rerolled)."""
        success, auto_s, auto_f, crit_s, fumble = self.judge(natural, total)
        spell_ends = first and natural == self.spell_end
        threat = critical = drew = False
        if self.is_attack:
            if (success != self.defends) and natural in self.threat_set:  # the attack hit, in the threat range
                threat = True
                if self.confirm:
                    drew = True
                    c_nat, c_total = self.sample_roll(self.die, rand)
                    critical = self.judge(c_nat, c_total, self.confirm_auto)[0] != self.defends
                    spell_ends = spell_ends or c_nat == self.spell_end
            if self.margin_crit and (fumble if self.defends else crit_s):
                critical = True
        if self.flip:
            fields = (
                natural,
                total,
                not success,
                auto_f,
                auto_s,
                threat,
                critical,
                fumble,
                crit_s,
                natural == self.item_natural,
                self.pressed,
                spell_ends,
                False,
                self.roller,
            )
        else:
            fields = (
                natural,
                total,
                success,
                auto_s,
                auto_f,
                threat,
                critical,
                crit_s,
                fumble,
                natural == self.item_natural,
                self.pressed,
                spell_ends,
                False,
                self.roller,
            )
        if not first:
            return Outcome(*fields), drew
        outcome = _INTERNED.get(fields)
        if outcome is None:
            outcome = _INTERNED[fields] = Outcome(*fields)
        return outcome, drew

    # ------------------------------------------------------------------ exact
    def roll_table(self, die: str) -> list[tuple[int, int, Fraction]]:
        """Every (natural, total, probability) of one physical roll, explosions cut at a stated depth."""
        return _roll_table(self._table_key(), die)

    def _table_key(self) -> tuple:
        return (
            self.take,
            self.static,
            self.var_dice,
            self.open,
            frozenset(self.explode_hi),
            frozenset(self.explode_lo),
        )

    def exact(self) -> dict[str, Fraction]:
        """The probability of every producible outcome, summed over the same rolls :meth:`resolve` samples."""
        probs = self._exact_from(self.die, True)
        return {name: probs.get(name, Fraction(0)) for name in sorted(self.producible())}

    def _confirm_odds(self) -> tuple[Fraction, Fraction]:
        """(chance the confirmation roll confirms, chance it shows auspicious odds' four 1s)."""
        confirmed = ended = Fraction(0)
        for natural, total, p in self.roll_table(self.die):
            if self.attack_hits(self.judge(natural, total, self.confirm_auto)[0]):
                confirmed += p
            if natural == self.spell_end:
                ended += p
        return confirmed, ended

    def _exact_from(self, die: str, first: bool) -> dict[str, Fraction]:
        probs: dict[str, Fraction] = defaultdict(Fraction)
        confirm_odds = self._confirm_odds() if self.confirm else None
        reroll = self._exact_from(self.reroll_die, False) if first and self.reroll_die is not None else None
        for natural, total, p in self.roll_table(die):
            success, auto_s, auto_f, crit_s, fumble = self.judge(natural, total)
            ended_here = first and natural == self.spell_end
            if reroll is not None and (not success if self.reroll_at is None else natural <= self.reroll_at):
                # the roller failed (or rolled low): the reroll decides
                for name, q in reroll.items():
                    probs[name] += p * q
                probs["rerolled"] += p
                if ended_here:
                    probs["spell_ends"] += p * (1 - reroll.get("spell_ends", 0))
                continue
            spell_end = Fraction(1) if ended_here else Fraction(0)
            if self.is_attack:  # judged from the roller's view, as in resolve
                margin = self.margin_crit and (crit_s if self.roller_kind == "attack" else fumble)
                if self.attack_hits(success) and natural in self.threat_set:
                    probs["threat"] += p
                    crit = Fraction(0)
                    if confirm_odds is not None:  # self.confirm: the odds were computed above
                        crit, confirm_end = confirm_odds
                        if not ended_here:
                            spell_end = confirm_end
                    probs["critical"] += p * (1 if margin else crit)
                elif margin:
                    probs["critical"] += p
            if self.flip:
                success, auto_s, auto_f, crit_s, fumble = not success, auto_f, auto_s, fumble, crit_s
            probs["spell_ends"] += p * spell_end
            for name, flag in (
                ("success", success),
                ("auto_success", auto_s),
                ("auto_failure", auto_f),
                ("critical_success", crit_s),
                ("fumble", fumble),
                ("item_damage", natural == self.item_natural),
            ):
                if flag:
                    probs[name] += p
        return probs

    def success_probability(self) -> float:
        """The chance of success from the acting side's view, in floating point, once per plan.

        The engine asks this of every distinct attack (lucky hits, pressing luck when it is better), so it is
        computed from survival functions rather than the exact fractions of :meth:`exact`; the tests hold the
        two within 1e-9 of each other for every check kind and variant.
        """
        if self.p_success is None:
            p = self._roller_success(self.die)
            reroll_die, reroll_at = self.reroll_die, self.reroll_at
            if reroll_die is not None and reroll_at is None:
                p += (1 - p) * self._roller_success(reroll_die)
            elif reroll_die is not None and reroll_at is not None:  # rerolled from a low natural, whatever it made
                low = sum(q for natural, q in _float_naturals(self.die).items() if natural <= reroll_at)
                p = self._roller_success(self.die, reroll_at) + low * self._roller_success(reroll_die)
            self.p_success = 1 - p if self.flip else p
        return self.p_success

    def _roller_success(self, die: str, above: int | None = None) -> float:
        """The roller's chance of success on ``die``, counting only naturals above ``above`` when given."""
        target = self.target
        if self.take is not None:
            return 1.0 if self.take + self.static >= target else 0.0
        static, var_dice = self.static, self.var_dice
        low, survival = _survival(0, var_dice)
        size = len(survival)
        total = 0.0
        for natural, p in _float_naturals(die).items():
            if above is not None and natural <= above:
                continue
            if natural == self.auto_hi:
                total += p
            elif natural == self.auto_lo:
                continue
            elif self.open and natural in self.explode_hi:
                total += p * _chain_at_least(die, var_dice, False, target - natural - static)
            elif self.open and natural in self.explode_lo:
                total += p * _chain_at_least(die, var_dice, True, target - static)
            else:  # _at_least inlined: once per natural of every new plan
                i = target - natural - static - low
                total += p * (1.0 if i <= 0 else 0.0 if i >= size else survival[i])
        return total

    def producible(self) -> set[str]:
        """The outcomes this plan can produce at all (``arena odds`` leaves the others out)."""
        names = {"success"}
        if self.auto_hi is not None:
            names |= {"auto_success", "auto_failure"}
        if self.is_attack:
            names |= {"threat", "critical"}
        if self.open:
            names |= {"critical_success", "fumble"}
        if self.item_natural is not None:
            names.add("item_damage")
        if self.spell_end is not None:
            names.add("spell_ends")
        if self.reroll_die is not None:
            names.add("rerolled")
        return names


class _SummedPlan(Plan):
    """A plan whose variable dice have too many combinations for a table (4d20 + 2d6, +47, has 5.76 million):
    they are drawn with one draw through the cumulative distribution of their sum (exact up to float rounding,
    about 1e-16 per total), after the natural and any chain, as a table draw would be.

    :func:`build_plan` makes one from the compiled :class:`Plan` once its dice are known (a subclass chosen at
    construction: every other plan's ``sample_roll`` stays free of a test for the summed draw)."""

    __slots__ = ("var_cdf",)
    var_cdf: tuple[tuple[int, ...], tuple[float, ...]]
    """(every sum of the variable dice, ascending; P(sum <= it)): :func:`~arena.rules.naturals._sum_cdf`."""

    def __init__(self, compiled: Plan, var_cdf: tuple[tuple[int, ...], tuple[float, ...]]):
        for name in Plan.__slots__:
            setattr(self, name, getattr(compiled, name))
        self.var_cdf = var_cdf

    def sample_roll(self, die: str, rand: Rand) -> tuple[int, int]:
        natural, total = Plan.sample_roll(self, die, rand)
        values, cdf = self.var_cdf
        return natural, total + values[bisect_right(cdf, rand())]


# ---------------------------------------------------------------------------------------- compiling
MAX_CHECK_VALUE = 2 * MAX_MODIFIER
"""The kernel's own bound on a check's modifier, target and hidden modifier (in absolute value). Stat blocks and
``arena odds`` refuse numbers past :data:`~arena.limits.MAX_MODIFIER`; a fight adds situational modifiers to them
(bless, flanking, injuries, a called shot's +16 AC, a trip against a rolled total), so the kernel leaves room for
those and refuses only what no fight can build. Under variable modifiers +400 is forty d20s: 761 totals, exact in
well under a second."""
MAX_MULTIPLIER = 5
"""The largest critical multiplier (the SRD's largest is x4; x5 leaves room for a house rule)."""


def shown_number(value: object) -> str:
    """A value for a message: as written, except that a whole number of more than 15 digits is cut
    (``123456...(29 digits)``; Python refuses to print one of more than 4,300)."""
    if not isinstance(value, int) or isinstance(value, bool):
        text = repr(value)
        return text if len(text) <= 40 else text[:40] + "..."
    try:
        text = str(value)
    except ValueError:
        return "a number of more than 4,300 digits"
    digits = len(text.lstrip("-"))
    return text if digits <= 15 else f"{text[:7]}...({digits} digits)"


def check_numbers(check: Check) -> None:
    """Refuse a check whose numbers the rules cannot mean: not whole numbers, or past their limits."""
    for name in ("modifier", "target", "hidden"):
        value = getattr(check, name)
        if type(value) is not int:
            raise RulesError(f"a check's {name} must be a whole number, not {shown_number(value)}")
        if not -MAX_CHECK_VALUE <= value <= MAX_CHECK_VALUE:
            raise RulesError(
                f"a check's {name} {shown_number(value)} is beyond the limit of -{MAX_CHECK_VALUE}..{MAX_CHECK_VALUE}"
            )
    if check.kind in ATTACK_LIKE:
        if type(check.threat) is not int or not 2 <= check.threat <= 20:
            raise RulesError(f"threat range {shown_number(check.threat)}-20 cannot exist (the lowest threat is 2..20)")
        if type(check.multiplier) is not int or not 2 <= check.multiplier <= MAX_MULTIPLIER:
            raise RulesError(
                f"critical multiplier x{shown_number(check.multiplier)} cannot exist (x2 to x{MAX_MULTIPLIER})"
            )
    if check.take is not None and type(check.take) is not int:
        raise RulesError(f"taking {shown_number(check.take)}: take 10, 16, 18 or 20")


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
        plan.threat_set = (
            frozenset(21 - t for t in attacker_threats) if opts.prad_threat == "mirror" else frozenset({low})
        )
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


class Kernel:
    """The compiled rules of one rule set, with a cache of compiled checks."""

    __slots__ = ("rules", "_plans", "memo")

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self._plans: dict[Check, Plan] = {}
        self.memo: dict = {}
        """Decisions derived from exact odds that callers cache per rule set (pressing luck, calling shots)."""

    def plan(self, check: Check) -> Plan:
        plan = self._plans.get(check)
        if plan is None:
            plan = self._plans[check] = build_plan(check, self.rules)
        return plan

    def resolve(self, check: Check, rand: Rand) -> Outcome:
        plan = self._plans.get(check)
        if plan is None:
            plan = self.plan(check)
        return plan.resolve(rand)


_KERNELS: dict[RuleSet, Kernel] = {}


def kernel_for(rules: RuleSet) -> Kernel:
    """The compiled rules of ``rules``: one per distinct rule set in a process, so equal rule sets share their caches.

    Kept on the rule set itself (as a cached property would be) so that a fight asks the dictionary only once per
    rule-set object; the rule set does not know the kernel, so the two modules do not import each other."""
    kernel = rules.__dict__.get("kernel")
    if kernel is None:
        kernel = _KERNELS.get(rules)
        if kernel is None:
            kernel = _KERNELS[rules] = Kernel(rules)
        rules.__dict__["kernel"] = kernel
    return kernel
