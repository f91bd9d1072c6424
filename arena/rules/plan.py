"""A check compiled under a rule set (:class:`Plan`): everything the hot loop needs, and the two faces that read it.

A plan says who physically rolls which die, with which modifier dice, against which target, which naturals are
automatic, threaten or explode (:mod:`arena.rules.compiler` fills it in). ``resolve`` samples a plan; ``exact``
enumerates it. Both read every roll through the same :meth:`Plan.judge`, so the sampled and exact faces cannot
drift apart, and the tests hold them against each other for every check kind and variant.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction

from arena.rules import open_ended
from arena.rules.check import Outcome
from arena.rules.naturals import (
    _TABLES,
    _chain_at_least,
    _float_naturals,
    _high_chain,
    _low_chain,
    _roll_table,
    _survival,
)

SHARED_OUTCOMES = 24
"""At most this many shared outcomes per plan (distinct natural and total pairs), to bound memory in long runs:
enough for every natural of a plan without variable dice."""
_INTERNED: dict[tuple, Outcome] = {}
"""First-roll outcomes by their fields: every plan that produces the same outcome shares one object."""

Rand = Callable[[], float]
"""A stream's draw in [0, 1) (:attr:`arena.dice.Stream.rand`): the plans take it bound, not the stream."""
VarDice = tuple[tuple[int, int, int, int], ...]
"""Variable-modifier dice groups as (sign, count, sides, keep) (:attr:`arena.dice.DiceExpr.dice`)."""


PLAN_FIELDS: tuple[str, ...] = (
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
"""Every field of a :class:`Plan` (its slots): a summed plan copies them from the plan it was compiled from."""


class Plan:
    """A check compiled under a rule set: everything the hot loop needs, as plain attributes.

    Two caches ride along: ``shared`` (first-roll outcomes, see :meth:`resolve`) and ``choices`` (decisions a
    caller derives from this check's exact odds, such as the engine's pressing luck; None until used)."""

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

    :func:`~arena.rules.compiler.build_plan` makes one from the compiled :class:`Plan` once its dice are known (a
    subclass chosen at construction: every other plan's ``sample_roll`` stays free of a test for the summed
    draw)."""

    var_cdf: tuple[tuple[int, ...], tuple[float, ...]]
    """(every sum of the variable dice, ascending; P(sum <= it)): :func:`~arena.rules.naturals._sum_cdf`."""

    def __init__(self, compiled: Plan, var_cdf: tuple[tuple[int, ...], tuple[float, ...]]):
        for name in PLAN_FIELDS:
            setattr(self, name, getattr(compiled, name))
        self.var_cdf = var_cdf

    def sample_roll(self, die: str, rand: Rand) -> tuple[int, int]:
        natural, total = Plan.sample_roll(self, die, rand)
        values, cdf = self.var_cdf
        return natural, total + values[bisect_right(cdf, rand())]
