"""Summoning (SRD 3.5 demons, devils and mephits: "Once per day a dretch can attempt to summon another dretch with a
35% chance of success"): as a standard action, ``uses`` times a fight, it tries; with its chance (rolled on the
fight's stream) the creatures come, fresh combatants of the bestiary's stat block on its side.

The whole ability: the stat-block field (:class:`Summon`, the field ``summon``, which the layers above read through
:func:`summon_of`), how the importer reads it (:func:`read_summon`) and the summoning in a fight
(:func:`summon_turn`, instead of its attack, its first chance each turn). What a fight keeps of it is a
:class:`Summoning` per stat block: the field, and the stat block of what it brings (the fight's own bestiary's,
given to :func:`arena.combat.engine.prepare` as ``summons=``, else the built-in one), compiled on its first success
(:func:`summoned_template`).

The summoned creatures come in by the fight's own mechanism for a creature that joins mid-fight
(:func:`arena.combat.specials.join`, which a split ooze's halves join by too): at the end of the round, each placed
right after its summoner in the initiative order. A summoned creature cannot summon in turn (the SRD's mephit: not
for an hour).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.combatant import Combatant
from arena.combat.fight_state import FightState
from arena.combat.template import Template
from arena.dice import parse
from arena.errors import ArenaError
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT, TIMES, singular
from arena.srd.prose import rule_above
from arena.srd.text import clean, dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.creatures import Creature
from arena.world.stat_types import CountDice, Frozen, Label, _int

MAX_SUMMONED = 40
"""At most this many creatures answer one summoning (4d10 dretches rolls at most 40)."""


# --------------------------------------------------------------------------------------------- the stat-block field
class Summon(Frozen):
    """Summon (SRD 3.5 demons, devils and mephits: "Once per day a dretch can attempt to summon another dretch with a
    35% chance of success"): as a standard action, ``uses`` times a fight, it tries; with ``chance`` (rolled on the
    fight's stream) ``count`` ``creature``s of the bestiary join its side at the start of the next round, acting
    right after it. A summoned creature cannot summon in turn (the SRD's mephit: not for an hour)."""

    creature: Label
    count: CountDice = "1"
    """How many come: a whole number (``2``) or dice (``2d10``)."""
    chance: Annotated[float, Field(gt=0, le=1)]
    uses: Annotated[int, _int(1, 10)] = 1


def summon_of(creature: Creature) -> Summon | None:
    """``creature``'s summon (None: it summons nothing): the field this module adds to the stat block, typed for the
    layers above that read it (what it summons must be found in the bestiary too)."""
    return getattr(creature, "summon", None)


# --------------------------------------------------------------------------------------------- reading the SRD
SUMMON = re.compile(
    r"\b(Once|Twice|Three times) per day,? an? [\w' -]+? can (?:attempt to )?summon (.+?) with "
    r"(?:only )?an? (\d+)% chance of success(.*)",
    re.IGNORECASE,
)
"""``Once per day a vrock can attempt to summon 2d10 dretches or another vrock with a 35% chance of success``."""
SUMMON_MORE = re.compile(r"or (.+?) with an? (\d+)% chance")
"""The options of a lower chance: ``, or another glabrezu with a 20% chance``."""
SUMMON_OPTIONS = re.compile(r",\s*(?:or\s+)?|\s+or\s+")
"""Between the options of one chance: ``4d10 dretches, 1d4 hezrou, or one nalfeshnee``."""
SUMMON_RULE = re.compile(r"\s*Summon \w+ \(Sp\):")
"""A summon's paragraph written with no space after its colon: ``Summon Demon (Sp):Once per day``."""
SAME_VARIETY = "another mephit of the same variety"
AUTOMATICALLY = "automatically summon"
ANOTHER = re.compile(r"another\b")
"""One of its own kind: ``another vrock``."""
SUMMONED = re.compile(rf"({AMOUNT}|one|a|an)\s+(.+)$")
"""How many and what: ``2d10 dretches``, ``one glabrezu``, ``1 babau``."""


def _creature_name(words: str, own: str) -> tuple[str, str] | None:
    """(count, bestiary name) of ``2d10 dretches``, ``another vrock``, ``one glabrezu``, ``1 babau``."""
    words = words.strip().lower()
    if ANOTHER.match(words):
        return "1", own
    m = SUMMONED.match(words)
    if m is None:
        return None
    count = "1" if m.group(1) in ("one", "a", "an") else dice_text(m.group(1))
    return count, "-".join(singular(m.group(2)).split())


def read_summon(ctx: Reading, item: dict) -> dict:
    """``Once per day a vrock can attempt to summon 2d10 dretches or another vrock with a 35% chance of success``:
    the first of the options listed with the highest chance (the summoner's choice, which the SRD leaves to it)."""
    desc, text = ctx.text_of(item, item["name"], "summon demon", "summon devil", "summon mephit")
    if not text:  # "Summon Demon (Sp):Once per day" (no space), or the family's rule (the mephits')
        text = next((clean(c.text) for c in ctx.block.description if SUMMON_RULE.match(c.text)), None) or clean(
            rule_above(ctx.block, r"^Summon \w+ \(Sp\):") or ""
        )
    m = SUMMON.search(text)
    if m is None:
        return ctx.ignored(
            "summon",
            "it summons automatically (no chance)" if AUTOMATICALLY in text else "its uses and chance not read",
        )
    uses = TIMES[m.group(1).lower()]
    groups = [(m.group(2), number(m.group(3)))] + [
        (more.group(1), number(more.group(2))) for more in SUMMON_MORE.finditer(m.group(4))
    ]
    chance = max(c for _, c in groups)
    words = next(w for w, c in groups if c == chance)
    options = [o for o in SUMMON_OPTIONS.split(words) if o.strip()]
    own = ctx.data["name"]
    first = ("1", own) if SAME_VARIETY in text else _creature_name(options[0], own)
    if first is None:
        ctx.note_on(item, "unread", f"summon: the creature of {options[0]!r} not read: not modelled", text[:200])
        return ctx.ignored("summon", "the creature it summons not read")
    count, creature = first
    how = (
        ""
        if len(options) == 1 and len(groups) == 1
        else f"; of the options ({'; '.join(w for w, _ in groups)}) the first of the highest chance"
    )
    ctx.mark(
        "summon",
        "modelled",
        f"summon: {count} {creature}, {chance}% chance, {uses} a fight, a standard action; "
        f"joins at the next round{how}",
    )
    return {"summon": {"creature": creature, "count": count, "chance": chance / 100, "uses": uses}}


# --------------------------------------------------------------------------------------------- in a fight
@dataclass(slots=True)
class Summoning:
    """What a fight keeps of a summon, one per stat block (``template.ability_data["summon"]``)."""

    summon: Summon
    creature: Creature | None = None
    """The stat block of what it summons from the fight's own bestiary (set by :func:`arena.combat.engine.prepare`
    from its ``summons=``); None: the built-in bestiary's."""
    template: Template | None = None
    """What it summons, compiled on the first success (:func:`summoned_template`; None: no stat block found)."""
    compiled: bool = False


def summon_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """SRD 3.5 Summon Demon (Sp): "Once per day a dretch can attempt to summon another dretch with a 35% chance of
    success" (a standard action, as the spell it is the equivalent of): the turn goes to it while it has uses left;
    the chance is rolled on the fight's stream; the creatures come at the end of the round
    (:func:`arena.combat.specials.join`)."""
    s = c.t.ability_data["summon"].summon
    st = state_of(c)
    if st.get("summons", 0) >= s.uses:
        return False
    st["summons"] = st.get("summons", 0) + 1
    won = f.rand() < s.chance
    if f.lines is not None:
        f.log(
            f"{c.name} tries to summon {s.count} {s.creature} ({s.chance:.0%}): "
            f"{'they come' if won else 'no one answers'}",
            actor=c.name,
            action="summon",
            creature=s.creature,
            count=s.count,
            chance=s.chance,
            result="comes" if won else "fails",
        )
    if won:
        template = summoned_template(c.t)
        if template is None:
            if f.lines is not None:
                f.log(
                    f"{c.name}: no stat block for {s.creature!r}: nothing comes",
                    actor=c.name,
                    action="summon",
                    creature=s.creature,
                    result="unknown creature",
                )
            return True
        count = min(MAX_SUMMONED, max(1, parse(s.count).roll(f.stream)))
        if f.joining is None:
            f.joining = []
        f.joining.append((c, template, count))
    return True


def summoned_template(t: Template) -> Template | None:
    """The compiled stat block of what ``t`` summons (made once per summoner and kept): the fight's bestiary's
    creature (else the built-in one), on the summoner's side, with no summoning of its own."""
    summoning: Summoning = t.ability_data["summon"]
    if not summoning.compiled:
        creature = summoning.creature  # from the fight's own bestiary (engine.prepare)
        if creature is None:
            from arena.world.bestiary import get_creature  # the bestiary loads only when a summoning succeeds

            try:
                creature = get_creature(summoning.summon.creature)
            except ArenaError:  # a name the bestiary does not have
                creature = None
        template = None
        if creature is not None:
            template = Template(creature.model_copy(update={"summon": None}), creature.name)  # it summons nothing
            template.set_side(t.side)
        summoning.template, summoning.compiled = template, True
    return summoning.template


add_fields(AbilityField("summon", Summon | None, doc=Summon.__doc__ or "", after="incorporeal"))
add_reading(
    AbilityReading("summon", (r"summon (?!familiar)\w+.*",), read_summon, after="incorporeal", only_ignored=True)
)
add_fight_ability(FightAbility("summon", compile=Summoning, instead_of_attack=summon_turn, order=20))
