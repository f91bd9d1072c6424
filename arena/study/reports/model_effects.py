"""What each change of the fight model does: paired effects on the party's win rate and hit points lost.

For every model option (its old value) and every SRD fix (undone), the same encounters are fought twice, under the
default model and with that one change reverted, from the same encounter seeds: the difference per encounter is the
paired effect of the change, and its interval comes from those differences (encounters are independent, and the
two arms share each encounter's seed, so most of the noise cancels). ``arena model-effects`` writes the table of
``docs/model-changes.md``.

The matchups are fixed before any number is computed: the reference scenario, and one even matchup (the party
wins about half) at levels 3, 5 and 8, each under d20 and 3d6 (the buff and domain-spell changes matter only under
3d6; a change that matters only under a variant is measured with it, e.g. ``d20+prad``).

Why a module of its own: it measures the engine rather than the documents' rules; its page, docs/model-changes.md, is
regenerated whenever a change is meant to move the fight model.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args

from arena.combat.model import FIXES, LEGACY, ModelOptions

MATCHUPS: dict[str, dict[str, Any]] = {
    "reference": {
        "party": {"level": 5},
        "monsters": ["bugbear:2", "ogre", "dire-wolf"],
        "tactics": {
            "party": {"press_luck": "when-better", "called_shot": "when-better"},
            "monsters": {"press_luck": "when-better", "called_shot": "when-better"},
        },
    },
    "L3-dire-wolf:2": {"party": {"level": 3}, "monsters": ["dire-wolf:2"]},
    "L5-troll:2": {"party": {"level": 5}, "monsters": ["troll:2"]},
    "L8-hill-giant:3": {"party": {"level": 8}, "monsters": ["hill-giant:3"]},
}
"""The reference scenario (as ``scenarios/reference.yaml``; the party wins it almost always) and one even matchup
at levels 3, 5 and 8: SRD monsters the party beats about half the time under d20 and the default model (52%, 40%
and 52% over 200 fights when chosen; EL 5, 7 and 10: "even" is well above EL = party level, where the party
always wins)."""
FOCUS: dict[str, dict[str, Any]] = {
    "L1-fighter-orc": {"party": ["fighter-1"], "monsters": ["orc"]},
    "L3-ghast:2": {"party": {"level": 3}, "monsters": ["ghast:2"]},
    "L3-lion:2": {"party": {"level": 3}, "monsters": ["lion:2"]},
    "L3-shadow:2": {"party": {"level": 3}, "monsters": ["shadow:2"]},
    "L3-spider:2": {"party": {"level": 3}, "monsters": ["monstrous-spider-large:2"]},
    "L2-orc:4-called": {
        "party": {"level": 2},
        "monsters": ["orc:4"],
        "tactics": {"monsters": {"called_shot": "when-better"}},
    },
    "L4-minotaur": {"party": {"level": 4}, "monsters": ["minotaur"]},
    "L4-tiger:2": {"party": {"level": 4}, "monsters": ["tiger:2"]},
    "L5-ogre:2": {"party": {"level": 5}, "monsters": ["ogre:2"]},
    "L5-pseudodragon:4": {"party": {"level": 5}, "monsters": ["pseudodragon:4"]},
    "L5-mummy:2": {"party": {"level": 5}, "monsters": ["mummy:2"]},
    "L5-constrictor:2": {"party": {"level": 5}, "monsters": ["constrictor-snake-giant:2"]},
    "L5-behir": {"party": {"level": 5}, "monsters": ["behir"]},
    "L6-tyrannosaurus": {"party": {"level": 6}, "monsters": ["tyrannosaurus"]},
    "L7-succubus": {"party": {"level": 7}, "monsters": ["succubus"]},
    "L8-medusa:2": {"party": {"level": 8}, "monsters": ["medusa:2"]},
    "L8-gorgon": {"party": {"level": 8}, "monsters": ["gorgon"]},
    "L8-typical-cr8:2": {"party": {"level": 8}, "monsters": ["typical-cr8:2"]},
    "L10-troll:4": {"party": {"level": 10}, "monsters": ["troll:4"]},
    "L16-green-dragon-wyrm": {"party": {"level": 16}, "monsters": ["green-dragon-wyrm"]},
    "L16-typical-cr16:2": {"party": {"level": 16}, "monsters": ["typical-cr16:2"]},
}
"""Matchups where a change comes into play that the four above rarely show (a creature with the ability the change
is about, a party of the level that has the feature): each change lists its own in :data:`WHERE`, and is measured
there as well."""
WHERE: dict[str, tuple[str, ...]] = {
    "undo dodge-printed-ac": ("L7-succubus",),
    "undo disabled-win": ("L1-fighter-orc",),
    "undo called-shot-pressed": ("L2-orc:4-called",),
    "prad_threat: mirror": ("L2-orc:4-called",),
    "undo class-features": ("L5-ogre:2", "L8-gorgon", "L16-typical-cr16:2"),
    "undo coup-de-grace-rules": ("L5-pseudodragon:4", "L5-mummy:2"),
    "coup_de_grace: ruthless": ("L5-pseudodragon:4", "L5-mummy:2"),
    "coup_de_grace: after-threats": ("L5-pseudodragon:4", "L5-mummy:2"),
    "coup_de_grace: never": ("L5-pseudodragon:4", "L5-mummy:2"),
    "undo constrict-on-grab": ("L5-constrictor:2", "L5-behir"),
    "undo hold-full-attack": ("L5-constrictor:2", "L5-behir"),
    "swallow_choice: swallow": ("L5-behir",),
    "undo swallow-acid": ("L6-tyrannosaurus",),
    "undo swallow-bite": ("L6-tyrannosaurus",),
    "undo cut-free": ("L6-tyrannosaurus",),
    "undo swallower-acts": ("L6-tyrannosaurus",),
    "undo pounce-charge": ("L3-lion:2",),
    "undo rider-attacks": ("L3-ghast:2", "L4-tiger:2"),
    "undo hold-grabbing-attack": ("L4-tiger:2",),
    "undo constrict-bludgeoning": ("L5-constrictor:2",),
    "undo no-touch-inside": ("L6-tyrannosaurus",),
    "undo trample-evasion": ("L8-gorgon",),
    "undo defensive-roll-blows": ("L16-green-dragon-wyrm",),
    "undo powerful-charge-ac": ("L4-minotaur",),
    "undo web-ranged": ("L3-spider:2",),
    "undo strength-zero": ("L3-shadow:2",),
    "undo finesse-ability-damage": ("L3-shadow:2",),
    "gaze_response: look": ("L8-medusa:2",),
    "web_escape: strength-check": ("L3-spider:2",),
    "undo disabled-strain": ("L3-spider:2",),
    "undo energy-aware-spells": ("L7-succubus", "L10-troll:4"),
    "undo high-level-spells": ("L16-typical-cr16:2",),
    "typical_monster: pathfinder": ("L8-typical-cr8:2", "L16-typical-cr16:2"),
    "the 0.3 model (before issue 24)": tuple(FOCUS),
}
"""Change name -> the :data:`FOCUS` matchups it is measured in besides :data:`MATCHUPS`."""
ISSUE_24: dict[str, tuple[str, ...]] = {
    "1. Dodge counted twice": ("undo dodge-printed-ac",),
    "2. Coups de grace (rules; the tactic)": (
        "undo coup-de-grace-rules",
        "coup_de_grace: ruthless",
        "coup_de_grace: after-threats",
        "coup_de_grace: never",
    ),
    "3. The classes' features by level": ("undo class-features", "undo trample-evasion", "undo defensive-roll-blows"),
    "4. Constrict on the grab, holds, swallow whole": (
        "undo constrict-on-grab",
        "undo hold-full-attack",
        "swallow_choice: swallow",
        "undo swallow-acid",
        "undo swallow-bite",
        "undo cut-free",
        "undo swallower-acts",
        "undo constrict-bludgeoning",
        "undo hold-grabbing-attack",
        "undo no-touch-inside",
    ),
    "5. Riders on the attacks the text names": ("undo rider-attacks",),
    "6. Disabled and scored as a draw": ("undo disabled-win",),
    "7. The shadow's Strength drain": ("undo strength-zero",),
    "8. Pounce is a charge": ("undo pounce-charge", "undo powerful-charge-ac"),
    "9. Ability damage and finesse": ("undo finesse-ability-damage",),
    "10. Called shots without pressed luck": ("undo called-shot-pressed",),
    "11. Players roll all, threat on defense": ("prad_threat: mirror",),
    "Tactics: energy resistance and immunity": ("undo energy-aware-spells",),
    "Tactics: spells of 6th-9th level": ("undo high-level-spells",),
    "Tactics: averting eyes": ("gaze_response: look",),
    "Tactics: webbed PCs": ("web_escape: strength-check", "undo disabled-strain", "undo web-ranged"),
    "Baseline: the typical monster from the SRD medians": ("typical_monster: pathfinder",),
    "All of issue 24 at once": ("the 0.3 model (before issue 24)",),
}
"""Issue 24's findings, each with the changes that fix it (the table that opens docs/model-changes.md)."""
BEFORE_ISSUE_24 = ModelOptions(
    gaze_response="look",
    web_escape="strength-check",
    swallow_choice="swallow",
    coup_de_grace="ruthless",
    typical_monster="pathfinder",
    undo=frozenset(
        fix
        for changes_ in ISSUE_24.values()
        for change in changes_
        if change.startswith("undo ") and (fix := change.removeprefix("undo ")) in FIXES
    ),
)
"""The fight model before issue 24 (0.3): its options at their old values, its fixes undone (and, as a rule option,
``prad_threat=mirror``)."""
RULES = ("d20", "3d6")
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Change:
    """One change of the model, named, with the model that reverts it, and the variant that lets it matter
    (``+prad`` for a rule about players roll all, ``+open`` for one about fumbles) added to both dice."""

    name: str
    what: str
    reverted: ModelOptions
    variant: str = ""
    rule_options: dict | None = None
    """Rule options (:class:`arena.rules.RuleOptions`) the change sets instead of a model option."""

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(f"{die}{self.variant}" for die in RULES)

    @property
    def focus(self) -> tuple[str, ...]:
        """The :data:`FOCUS` matchups where this change comes into play (:data:`WHERE`)."""
        return WHERE.get(self.name, ())


VARIANT_OF: dict[str, str] = {
    "prad_fortitude": "+prad",
    "flat-footed-aoo": "+open",
    "color-spray-fumble": "+open",
    "blind-dex": "+called",
    "called-shot-pressed": "+prad+luck+called",
}
"""Changes that matter only under a variant: measured under it (both dice)."""


def changes() -> list[Change]:
    """Every other value of every option, and every fix undone, one at a time, against the default model; then
    the whole 0.2 model."""
    out = []
    default = ModelOptions()
    for name, info in ModelOptions.model_fields.items():
        if name == "undo":
            continue
        for value in get_args(info.annotation):
            if value != getattr(default, name):
                out.append(
                    Change(
                        f"{name}: {value}",
                        f"option {name}={value} (default {getattr(default, name)})",
                        default.model_copy(update={name: value}),
                        VARIANT_OF.get(name, ""),
                    )
                )
    for fix, what in FIXES.items():
        out.append(Change(f"undo {fix}", what, ModelOptions(undo=frozenset({fix})), VARIANT_OF.get(fix, "")))
    out.append(
        Change(
            "auspicious_scope: all-rolls",
            "rule option auspicious_scope=all-rolls (default listed)",
            default,
            "+prad",
            {"auspicious_scope": "all-rolls"},
        )
    )
    out.append(
        Change(
            "prad_threat: mirror",
            "rule option prad_threat=mirror (default die-minimum)",
            default,
            "+prad",
            {"prad_threat": "mirror"},
        )
    )
    out.append(
        Change(
            "the 0.3 model (before issue 24)",
            "every option and fix of issue 24 at its value before, and prad_threat=mirror",
            BEFORE_ISSUE_24,
            "",
            {"prad_threat": "mirror"},
        )
    )
    out.append(
        Change(
            "all (the 0.2 model)",
            "every option at its 0.2 value, every fix undone",
            LEGACY,
            "",
            {"auspicious_scope": "all-rolls"},
        )
    )
    return out


@dataclass(frozen=True)
class Effect:
    change: str
    matchup: str
    rules: str
    n: int
    win_default: float
    win_effect: float
    """Win rate with the change reverted minus the default's, in points (percent), mean of paired differences."""
    win_half_width: float
    hp_effect: float
    """Party hit points lost (share of the total), reverted minus default, in points."""
    hp_half_width: float


def _scenario(name: str, body: dict, model: ModelOptions, n: int, rule_options: dict | None = None) -> Any:
    from arena.study.scenarios.scenario import Scenario

    return Scenario.model_validate(
        {"name": name, **body, "n": n, "seed": 0, "model": model, "rule_options": rule_options or {}}
    ).resolve()


def _paired(a: Any, b: Any) -> tuple[float, float]:
    """Mean of b - a (per encounter) in points, and its 95% half-width (normal; n is in the thousands)."""
    diff = (b.astype(float) - a.astype(float)) * 100
    n = len(diff)
    sd = float(diff.std(ddof=1)) if n > 1 else math.nan
    return float(diff.mean()), Z95 * sd / math.sqrt(n)


def measure(n: int = 2000, workers: int = 1, only: list[str] | None = None) -> list[Effect]:
    """Every change against the default model, in every matchup and rule set, ``n`` paired encounters each; and
    each change in its own :data:`FOCUS` matchups."""
    from arena.study.runs.in_memory import run

    chosen = [c for c in changes() if not only or any(o in c.name for o in only)]
    effects = []
    plan = [(matchup, body, chosen) for matchup, body in MATCHUPS.items()]
    plan += [(m, body, [c for c in chosen if m in c.focus]) for m, body in FOCUS.items()]
    for matchup, body, measured in plan:
        if not measured:
            continue
        variants = sorted({c.variant for c in measured})
        keys = [f"{die}{variant}" for variant in variants for die in RULES]
        base = run(_scenario(matchup, body, ModelOptions(), n), rules=keys, workers=workers)
        for change in measured:
            other = run(
                _scenario(matchup, body, change.reverted, n, change.rule_options),
                rules=list(change.rules),
                workers=workers,
            )
            for key in change.rules:
                a, b = base[base["rules"] == key], other[other["rules"] == key]
                win_a, win_b = (a["winner"] == "party").to_numpy(), (b["winner"] == "party").to_numpy()
                win, win_hw = _paired(win_a, win_b)
                hp, hp_hw = _paired(a["party_hp_lost"].to_numpy(), b["party_hp_lost"].to_numpy())
                effects.append(Effect(change.name, matchup, key, n, float(win_a.mean() * 100), win, win_hw, hp, hp_hw))
    return effects


def _default_win(effects: list[Effect], matchup: str, key: str) -> float:
    """The default model's win rate in a matchup under ``key`` (no variant)."""
    return next((e.win_default for e in effects if e.matchup == matchup and e.rules == key), math.nan)


def _focus_table(names: list[str], at: dict[tuple[str, str, str], Effect], variant: dict[str, str]) -> list[str]:
    """One row per change and :data:`FOCUS` matchup it was measured in: the default's win rate and the change's
    effect on it, then on hit points lost, under each die."""
    lines = [
        "| change | matchup | "
        + " | ".join(f"win {r}" for r in RULES)
        + " | "
        + " | ".join(f"hp lost {r}" for r in RULES)
        + " |",
        "|---|---|" + "---|" * (2 * len(RULES)),
    ]
    for name in names:
        for matchup in FOCUS:
            row = [at.get((name, matchup, r)) for r in RULES]
            if not any(row):
                continue
            shown = f"{name} (under {variant[name]})" if variant.get(name) else name
            wins = [f"{e.win_default:.0f}% {e.win_effect:+.1f} ±{e.win_half_width:.1f}" if e else "" for e in row]
            hps = [f"{e.hp_effect:+.1f} ±{e.hp_half_width:.1f}" if e else "" for e in row]
            lines.append(f"| {shown} | {matchup} | " + " | ".join(wins + hps) + " |")
    return lines


def markdown(effects: list[Effect], command: str) -> str:
    """The table of ``docs/model-changes.md``: one row per change, a column per matchup and rule set."""
    columns = [(m, r) for m in MATCHUPS for r in RULES]
    by = {(e.change, e.matchup, e.rules.split("+")[0]): e for e in effects if e.matchup in MATCHUPS}
    names = list(dict.fromkeys(e.change for e in effects))
    n = effects[0].n if effects else 0
    lines = [
        "# What each fight-model change does",
        "",
        "Each row is the default fight model with one change: an option at another value (the 0.2 model's value",
        "first), an SRD fix undone, the model before issue 24 (0.3), or the whole 0.2 model. Each cell is the",
        f"paired effect against the default model over the same {n:,} encounter seeds: the party's win rate, in",
        "points, with a 95% interval from the",
        "per-encounter differences; then the party's hit points lost (share of its total), in points. A positive",
        "win-rate number means the change favours the party. A row of +0.0 ±0.0 means the change never came into",
        "play in these matchups (no humanoid to hold, no spell resistance, no fire-immune monster, no fumble ...);",
        "its focused test in tests/combat/test_model_fixes.py shows that it works. Made by:",
        "",
        f"    {command}",
        "",
        "Default model win rates: "
        + ", ".join(f"{m} {r} {_default_win(effects, m, r):.1f}%" for m, r in columns)
        + ".",
        "",
    ]
    variant = {c.name: c.variant for c in changes()}
    focus_at = {(e.change, e.matchup, e.rules.split("+")[0]): e for e in effects if e.matchup in FOCUS}
    measured = set(names)
    findings = [(title, [c for c in fixes if c in measured]) for title, fixes in ISSUE_24.items()]
    if any(fixes for _, fixes in findings):
        lines += [
            "## Issue 24: each finding and its measured effect",
            "",
            "Each finding of the rules audit, the changes that fix it, and the paired effect of reverting each change",
            "in the matchups where it comes into play (`WHERE` in arena/study/reports/model_effects.py). Read a",
            "negative win effect as: the fix helps the monsters by that much. The focused test of each change is",
            'named in docs/model-options.md ("The fight model after issue 24").',
            "",
        ]
        for title, fixes in findings:
            if fixes:
                lines += [f"**{title}**", "", *_focus_table(fixes, focus_at, variant), ""]
    tables: list[tuple[str, Callable[[Effect], str]]] = [
        ("Win rate", lambda e: f"{e.win_effect:+.1f} ±{e.win_half_width:.1f}"),
        ("Party hit points lost", lambda e: f"{e.hp_effect:+.1f} ±{e.hp_half_width:.1f}"),
    ]
    for title, cell in tables:
        lines += [
            f"## {title} (points)",
            "",
            "| change | " + " | ".join(f"{m} {r}" for m, r in columns) + " |",
            "|---|" + "---|" * len(columns),
        ]
        for name in names:
            cells = [by.get((name, m, r)) for m, r in columns]
            shown = f"{name} (under {variant[name]})" if variant.get(name) else name
            lines.append(f"| {shown} | " + " | ".join(cell(e) if e else "" for e in cells) + " |")
        lines.append("")
    at = {(e.change, e.matchup, e.rules.split("+")[0]): e for e in effects if e.matchup in FOCUS}
    if at:
        lines += [
            "## Where each change comes into play",
            "",
            "Some changes are about a creature or a moment the matchups above rarely meet; each is measured",
            "again in a matchup where it does (the same paired design): win rate, then hit points lost, in points.",
            "",
            *_focus_table(names, at, variant),
            "",
            "(A win cell gives the default model's win rate there, then the change's effect.)",
            "",
        ]
    lines += ["## The changes", ""]
    for change in changes():
        if change.name in names:
            lines.append(f"- **{change.name}**: {change.what}.")
    return "\n".join(lines) + "\n"
