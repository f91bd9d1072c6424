"""Every claim the source documents make about single rolls, checked against exact odds (`arena odds claims`).

Each claim states its criterion in words before any number is computed; the verdict is `holds`, `imprecise`
or `wrong`. Issue 7's encounter claims extend the same list (same entry shape).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from arena.rules import Check, RuleSet, exact
from arena.rules.bell_curve import THREAT_RANGE_CONVERSION
from arena.rules.variable_modifiers import PRESS_LUCK_CLAIMS, table_row

BELL_CURVE = "000_85f3f8d977c1fea0.txt"
PLAYERS_ROLL = "001_f4e1282d4617c6f4.txt"
OPEN_ENDED = "002_7162a0d444b6e687.txt"
PRESS_LUCK = "003_9c90a13d2dfb4097.txt"

D20, BELL = RuleSet(), RuleSet(die="3d6")
PRAD, OPEN = RuleSet(players_roll_all=True), RuleSet(open_ended=True)


@dataclass(frozen=True)
class Claim:
    id: str
    source: str
    quote: str
    criterion: str
    evaluate: Callable[[], tuple[dict, str]]

    def result(self) -> dict:
        numbers, verdict = self.evaluate()
        return {
            "id": self.id,
            "source": self.source,
            "quote": self.quote,
            "criterion": self.criterion,
            "numbers": numbers,
            "verdict": verdict,
        }


def _p(check: Check, rules: RuleSet, name: str = "success") -> Fraction:
    return exact(check, rules).probabilities[name]


def _pct(p: Fraction | float) -> float:
    return round(float(p) * 100, 3)


def _grade(all_ok: bool, some_ok: bool) -> str:
    return "holds" if all_ok else "imprecise" if some_ok else "wrong"


# ---------------------------------------------------------------------------------------------- bell curve
def _auto_rate():
    probs = exact(Check("attack", "pc", 0, 11), BELL).probabilities
    numbers = {
        "document": "< 0.5% each (d20: 5%)",
        "exact_auto_success_pct": _pct(probs["auto_success"]),
        "exact_auto_failure_pct": _pct(probs["auto_failure"]),
        "d20_pct": 5.0,
    }
    ok = probs["auto_success"] < Fraction(1, 200) and probs["auto_failure"] < Fraction(1, 200)
    return numbers, "holds" if ok else "wrong"


def _threat_p(d20_low: int) -> Fraction:
    return _p(Check("attack", "pc", 100, 10, threat=d20_low), BELL, "threat")


def _narrowest():
    p = _threat_p(20)
    return {"document_pct": 4.6, "exact_pct": _pct(p), "d20_pct": 5.0}, _grade(
        round(float(p) * 100, 1) == 4.6, abs(float(p) - 0.046) < 0.005
    )


def _range_14_18():
    p = _threat_p(18)
    between = Fraction(3, 20) < p < Fraction(4, 20)
    return (
        {"document_pct": 16, "exact_pct": _pct(p), "old_18_20_pct": 15.0, "old_17_20_pct": 20.0},
        _grade(round(float(p) * 100) == 16 and between, between),
    )


def _keen_improves():
    pairs = {20: 19, 19: 17, 18: 15}  # a weapon's range, doubled by Improved Critical or keen edge
    rows = [
        {
            "d20_range": "20" if lo == 20 else f"{lo}-20",
            "doubled": f"{hi}-20",
            "bell_before_pct": _pct(_threat_p(lo)),
            "bell_after_pct": _pct(_threat_p(hi)),
        }
        for lo, hi in pairs.items()
    ]
    better = [r["bell_after_pct"] > r["bell_before_pct"] for r in rows]
    return {"document": "improves in every case", "weapons": rows}, _grade(all(better), any(better))


def _reroll_gain(rules: RuleSet, targets: range) -> list[float]:
    gains = []
    for target in targets:
        once = _p(Check("skill", "pc", 0, target), rules)
        twice = _p(Check("skill", "pc", 0, target, luck_reroll=True), rules)
        gains.append(float(twice - once))
    return gains


def _rerolls():
    targets = range(3, 19)  # every target both dice can miss and make
    d20 = _reroll_gain(D20, targets)
    bell = [float(g) for g in _reroll_gain(RuleSet(die="3d6"), targets)]
    plain_bell = []
    for target in targets:  # a plain 3d6 reroll, before the Luck domain's 4d6-drop-lowest fix
        p = _p(Check("skill", "pc", 0, target), BELL)
        plain_bell.append(float(p + (1 - p) * p - p))
    numbers = {
        "targets": f"{targets.start}-{targets.stop - 1}, modifier +0",
        "mean_gain_d20_pct": _pct(sum(d20) / len(d20)),
        "mean_gain_3d6_plain_reroll_pct": _pct(sum(plain_bell) / len(plain_bell)),
        "mean_gain_3d6_4d6_drop_lowest_pct": _pct(sum(bell) / len(bell)),
    }
    smaller = sum(plain_bell) < sum(d20)
    return numbers, "holds" if smaller else "wrong"


def _bonus_worth():
    rows, more = [], []
    for need in range(4, 19):  # the natural a +0 roll needs; +1 lowers it by one
        bell = _p(Check("skill", "pc", 1, need), BELL) - _p(Check("skill", "pc", 0, need), BELL)
        d20 = _p(Check("skill", "pc", 1, need), D20) - _p(Check("skill", "pc", 0, need), D20)
        rows.append({"needs": need, "d20_pct": _pct(d20), "bell_pct": _pct(bell)})
        more.append(bell > d20)
    middle = all(m for r, m in zip(rows, more, strict=True) if 8 <= r["needs"] <= 14)
    return (
        {"value_of_plus_1": rows, "targets_where_3d6_worth_more": sum(more), "targets": len(rows)},
        _grade(all(more), middle),
    )


# ---------------------------------------------------------------------------------------------- variable
def _variable_average():
    drifts = {m: table_row(m)["drift"] for m in range(-25, 26)}
    inner = max(abs(d) for m, d in drifts.items() if abs(m) <= 10)
    outer = max(abs(d) for d in drifts.values())
    numbers = {
        "max_abs_drift_within_10": inner,
        "max_abs_drift_within_25": outer,
        "drift_at": {str(m): drifts[m] for m in (2, 5, 8, 10, 15, 22, 25)},
    }
    return numbers, _grade(outer <= 0.5, inner <= 0.5)


def _press_ratio(modifier: int):
    def evaluate():
        rules = RuleSet(die="3d6", modifiers="press-luck")
        target = 18 + modifier - 3
        static = _p(Check("skill", "pc", modifier, target), rules)
        pressed = _p(Check("skill", "pc", modifier, target, press_luck=True), rules)
        ratio = pressed / static
        doc = PRESS_LUCK_CLAIMS[modifier]
        numbers = {
            "document": doc,
            "exact": round(float(ratio), 4),
            "exact_fraction": str(ratio),
            "p_static_pct": _pct(static),
            "p_pressed_pct": _pct(pressed),
        }
        return numbers, _grade(round(float(ratio), 2) == doc, abs(float(ratio) - doc) / doc < 0.02)

    return evaluate


def _press_low():
    rules = RuleSet(die="3d6", modifiers="press-luck")
    ratios = {}
    for m in (1, 2, 3, 5, 10, 15):
        target = 18 + m - 3
        ratios[str(m)] = round(
            float(
                _p(Check("skill", "pc", m, target, press_luck=True), rules) / _p(Check("skill", "pc", m, target), rules)
            ),
            3,
        )
    low = [ratios[k] < 1.25 for k in ("1", "2", "3")]
    return {"ratio_by_modifier": ratios, "threshold": "< 1.25x counts as almost not worth it"}, _grade(
        all(low), any(low)
    )


# ---------------------------------------------------------------------------------------------- players roll
def _prad_same(kind: str, side: str, pairs: list[tuple[int, int]], what: str):
    def evaluate():
        rows, diffs = [], []
        for modifier, target in pairs:
            check = Check(kind, side, modifier, target)
            std, prad = _p(check, D20), _p(check, PRAD)
            rows.append({"modifier": modifier, "target": target, "standard_pct": _pct(std), "prad_pct": _pct(prad)})
            diffs.append(prad - std)
        numbers = {"success_means": what, "pairs": rows, "max_shift_pct": _pct(max(abs(d) for d in diffs))}
        same = all(d == 0 for d in diffs)
        within_face = all(abs(d) <= Fraction(1, 20) for d in diffs)
        return numbers, _grade(same, within_face)

    return evaluate


# ---------------------------------------------------------------------------------------------- open-ended
OPEN_THREATS = (20, 19, 18, 17, 15)
"""The weapon threat ranges the open-ended claim is checked under (20, 19-20, 18-20, 17-20, 15-20: keen or Improved
Critical on an 18-20 weapon), converted to 3d6 by the bell curve's table under 3d6+open."""
OPEN_NEEDS = (6, 11, 16)
"""The naturals a +0 roll needs: an easy, an even and a hard roll."""


def _open_row(check: Check, rules: RuleSet) -> tuple[dict, bool]:
    """One check under open-ended rolls, exactly: how often the first roll is one that rolls on (a natural in the
    threat range, or a natural 1), the critical successes and fumbles, and those that came without such a first
    roll (the rule says none can)."""
    from arena.rules.kernel import kernel_for

    plan = kernel_for(rules).plan(check)
    p_hi = p_lo = crit = fumble = crit_without = fumble_without = Fraction(0)
    for natural, total, p in plan.roll_table(plan.die):
        _success, _auto_s, _auto_f, crit_s, fumbled = plan.judge(natural, total)
        high, low = natural in plan.explode_hi, natural in plan.explode_lo
        p_hi += p if high else 0
        p_lo += p if low else 0
        crit += p if crit_s else 0
        fumble += p if fumbled else 0
        crit_without += p if crit_s and not high else 0
        fumble_without += p if fumbled and not low else 0
    row = {
        "rolls_on_upwards_pct": _pct(p_hi),
        "critical_success_pct": _pct(crit),
        "critical_without_it_pct": _pct(crit_without),
        "rolls_on_downwards_pct": _pct(p_lo),
        "fumble_pct": _pct(fumble),
        "fumble_without_it_pct": _pct(fumble_without),
    }
    holds = crit_without == 0 and fumble_without == 0 and crit <= p_hi and fumble <= p_lo
    return row, holds


def _open_rates():
    attacks, saves, ok = [], [], True
    for die, rules in (("d20", OPEN), ("3d6", RuleSet(die="3d6", open_ended=True))):
        for threat in OPEN_THREATS:
            for need in OPEN_NEEDS:
                row, holds = _open_row(Check("attack", "pc", 0, need, threat=threat), rules)
                attacks.append({"rules": f"{die}+open", "threat": _range(threat), "needs_natural": need, **row})
                ok = ok and holds
        for need in OPEN_NEEDS:
            row, holds = _open_row(Check("save", "pc", 0, need), rules)
            saves.append({"rules": f"{die}+open", "needs_natural": need, **row})
            ok = ok and holds
    rows = attacks + saves
    top = max(attacks, key=lambda r: r["critical_success_pct"])
    numbers = {
        "note": "a critical success or a fumble needs a first roll that rolls on (a natural in the threat range, or "
        "a natural 1); with a wide threat range critical successes exceed 5% of rolls, as the rule allows",
        "checks": len(rows),
        "checks_with_a_critical_or_fumble_without_it": sum(
            r["critical_without_it_pct"] > 0 or r["fumble_without_it_pct"] > 0 for r in rows
        ),
        "highest_critical_success_pct": f"{top['critical_success_pct']} ({top['rules']} attack, "
        f"threat {top['threat']}, needs {top['needs_natural']})",
        "attacks": attacks,
        "saves": saves,
    }
    return numbers, "holds" if ok else "wrong"


def _range(threat: int) -> str:
    return "20" if threat == 20 else f"{threat}-20"


CLAIMS: list[Claim] = [
    Claim(
        "bell-automatic-rate",
        BELL_CURVE,
        "Neither occurs as often as in standard d20 (less than 1/2% of the time as opposed to 5% of the time).",
        "holds if a natural 18 and a natural 3 on 3d6 each occur less than 0.5% of the time",
        _auto_rate,
    ),
    Claim(
        "bell-narrowest-threat",
        BELL_CURVE,
        "the narrowest threat range becomes slightly more narrow (4.6% rather than 5%)",
        "holds if P(16-18 on 3d6) rounds to 4.6%; imprecise if within half a point",
        _narrowest,
    ),
    Claim(
        "bell-14-18-range",
        BELL_CURVE,
        "the new 14-18 range (16%) falls between the old 18-20 and 17-20 ranges",
        "holds if P(14-18 on 3d6) rounds to 16% and lies between 15% and 20%",
        _range_14_18,
    ),
    Claim(
        "bell-doubling-improves",
        BELL_CURVE,
        "because the Improved Critical feat and the keen edge spell double threat ranges, characters still "
        "improve their weapons in every case, despite the flat spot on the table",
        "holds if, for every weapon threat range (20, 19-20, 18-20), the converted doubled range threatens "
        f"more often on 3d6 than the converted original (table {THREAT_RANGE_CONVERSION})",
        _keen_improves,
    ),
    Claim(
        "bell-rerolls",
        BELL_CURVE,
        "simple rerolls aren't as useful in the bell curve variant as they are in the standard rules",
        "holds if one reroll on failure gains less, averaged over targets 3-18 at +0, with a plain 3d6 reroll "
        "than with a d20 reroll",
        _rerolls,
    ),
    Claim(
        "bell-bonus-worth",
        BELL_CURVE,
        "the bell curve variant awards bonuses relatively more and the die roll relatively less",
        "holds if +1 raises the chance of success more on 3d6 than on d20 at every target; imprecise if it does "
        "wherever the roll needs a natural 8-14 but not at the tails; wrong otherwise",
        _bonus_worth,
    ),
    Claim(
        "variable-average",
        BELL_CURVE,
        "The actual modifier added to the 1d20 roll might then be any value from 1 to 8, making the final result "
        "less predictable, even though the average would remain virtually the same.",
        "holds if the variable dice's mean is within 0.5 of the static modifier from -25 to +25; imprecise if "
        "only within -10..+10; wrong otherwise",
        _variable_average,
    ),
    Claim(
        "press-luck-5",
        PRESS_LUCK,
        "at modifier 5, you're 2.24x as likely to roll a 20 (best roll -3) or better by pressing your luck",
        "holds if the exact ratio rounds to the document's figure; imprecise if within 2%",
        _press_ratio(5),
    ),
    Claim(
        "press-luck-15",
        PRESS_LUCK,
        "At modifier 15 though, you're 3.81x as likely to roll a 30 (best roll -3) or better by pressing your luck.",
        "holds if the exact ratio rounds to the document's figure; imprecise if within 2%",
        _press_ratio(15),
    ),
    Claim(
        "press-luck-low-modifiers",
        PRESS_LUCK,
        "At lower static modifiers it's almost not worth pressing your luck",
        "holds if pressing raises the chance of (best roll - 3) or better by less than 1.25x at each of +1, "
        "+2, +3; imprecise if at some of them",
        _press_low,
    ),
    Claim(
        "prad-attacks-same",
        PLAYERS_ROLL,
        "This is effectively the same as rolling d20, adding your total AC, and then subtracting 10.",
        "holds if a monster hits a PC equally often when the player rolls defense; imprecise if the chance "
        "shifts by at most one face (5%); wrong otherwise",
        _prad_same("attack", "monster", [(0, 10), (5, 15), (8, 18), (12, 25)], "the monster hits"),
    ),
    Claim(
        "prad-saves-same",
        PLAYERS_ROLL,
        "If the result of the magic check equals or exceeds the appropriate save score ... the creature is "
        "affected by the spell or special attack as if it had failed its save.",
        "holds if a monster saves against a PC's spell equally often under the magic check; imprecise if within "
        "one face (5%); wrong otherwise",
        _prad_same("save", "monster", [(2, 13), (5, 15), (8, 20), (12, 18)], "the monster's save succeeds"),
    ),
    Claim(
        "prad-spell-resistance-same",
        PLAYERS_ROLL,
        "A spell resistance check is 1d20 plus the PC's spell resistance, minus 10.",
        "holds if a monster's spell gets through a PC's SR equally often under the SR check; imprecise if within "
        "one face (5%); wrong otherwise",
        _prad_same("caster-level", "monster", [(5, 15), (9, 18), (12, 20)], "the spell gets through"),
    ),
    Claim(
        "open-ended-rates",
        OPEN_ENDED,
        "the possibility of a critical or fumble occurs only if the initial resolution roll is rolled naturally, "
        "i.e. before modifiers, 20 (or within the Threat Range) or 1",
        "a rule definition, checked on the exact odds: holds if no critical success comes without a first roll in "
        "the threat range and no fumble without a first natural 1 (3 on 3d6), for attacks under threat ranges 20, "
        "19-20, 18-20, 17-20 and 15-20 and, separately, for saves, each needing a natural 6, 11 or 16 at +0, under "
        "d20+open and 3d6+open; the numbers give how often a first roll rolls on and how often it becomes a "
        "critical success or a fumble (issue 26: this replaces a 5% bar on fights, which ignored threat ranges and "
        "counted saves)",
        _open_rates,
    ),
]


def evaluate_all() -> list[dict]:
    """Every single-roll claim with its numbers and verdict."""
    return [claim.result() for claim in CLAIMS]
