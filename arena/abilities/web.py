"""Web (SRD 3.5 monstrous spider, ettercap): "can throw a web eight times per day. This is similar to an attack with
a net ... The web anchors the target in place, allowing no movement. An entangled creature can escape with a
successful DC 13 Escape Artist check or burst the web with a DC 17 Strength check": a ranged touch attack, its
special action before its weapons while it has webs, that entangles the foe it hits until it escapes or bursts free.

The whole ability: the stat-block field (:class:`Web`, the field ``web``), how the importer reads it
(:func:`read_web`, from its text or its family's table by size) and the web in a fight (:func:`choose_web`, the
policies' special action; :func:`throw_web`, carried out). The entangled creature's turn (it fights where it stands,
or tries to escape with Escape Artist or to burst the web with Strength) is the condition's, shared with the web and
entangle spells (:func:`arena.combat.conditions.web_turn`).
"""

from __future__ import annotations

import re
from typing import Annotated

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.actions import Action
from arena.combat.attacks import ranged_touch_ac
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import count_roll, resolve, roll_fields, roll_text
from arena.combat.tactics.view import View
from arena.limits import MAX_MODIFIER
from arena.rules import Check
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import NUMBER_WORDS
from arena.srd.prose import size_number
from arena.srd.text import number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import Frozen, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class Web(Frozen):
    """Web (SRD 3.5 monstrous spider): a ranged touch attack (``uses`` times a fight) that entangles its target
    (-2 on attack rolls, -4 Dexterity: -2 AC), anchored in place: it fights where it stands, or escapes (an Escape
    Artist check against ``escape_dc``) or bursts the web (a Strength check against ``burst_dc``), a standard action
    either (the model's ``web_escape``)."""

    burst_dc: Annotated[int, _int(1, MAX_MODIFIER)]
    uses: Annotated[int, _int(1, 100)] = 8
    escape_dc: Annotated[int, _int(1, MAX_MODIFIER)] | None = None
    """The Escape Artist DC (SRD: "escape with a DC 13 Escape Artist check"); None: no Escape Artist DC read, the
    web is escaped with Strength only."""


# --------------------------------------------------------------------------------------------- reading the SRD
WEB_USES = re.compile(r"throw a web (?:up to )?(\w+) times per day", re.IGNORECASE)
"""``can throw a web eight times per day``."""
WEB_BURST = re.compile(r"burst (?:the web|it) with a DC (\d+) Strength check", re.IGNORECASE)
"""``can burst the web with a DC 26 Strength check``."""
WEB_ESCAPE = re.compile(r"escape with a (?:successful )?DC (\d+) Escape Artist check", re.IGNORECASE)
"""``An entangled creature can escape with a DC 13 Escape Artist check``."""
WEB_SPINNERS = re.compile(r"web-spinners can throw", re.IGNORECASE)
"""``Web-spinners can throw a web eight times per day`` (the hunting spiders throw none)."""
ANCHORS = re.compile(r"anchors the target in place", re.IGNORECASE)
"""``The web anchors the target in place``."""


def read_web(ctx: Reading, item: dict) -> dict:
    """``can throw a web eight times per day ... can escape with a DC 13 Escape Artist check or burst the web with a
    DC 26 Strength check`` (the DCs of its table by size when the text gives none)."""
    desc, _ = ctx.text_of(item, "web")
    text = ctx.following(desc, 2)
    uses, burst, escape = WEB_USES.search(text), WEB_BURST.search(text), WEB_ESCAPE.search(text)
    how = ""
    dc = number(burst.group(1)) if burst else None
    if dc is None:
        dc, row = size_number(ctx.block, ctx.size, desc, "Break DC")
        if dc is not None:
            how = f"; its burst DC from the {row} row of its table by size"
    escape_dc = number(escape.group(1)) if escape else None
    if escape_dc is None:
        escape_dc, row = size_number(ctx.block, ctx.size, desc, "Escape Artist DC")
        if escape_dc is not None:
            how += f"; its Escape Artist DC from the {row} row of its table by size"
    count = NUMBER_WORDS.get(uses.group(1).lower()) if uses else None
    if dc is None or count is None:
        what = "no Strength DC to burst it" if dc is None else "how many webs a day"
        return ctx.unread(item, "web", f"{what} read", text)
    if WEB_SPINNERS.search(text):
        how += "; as a web-spinner (the SRD's hunting spiders throw none)"
        ctx.note_on(
            item,
            "guess",
            "web: the block is a web-spinner (hunting spiders cannot use their webs as weapons)",
            text[:200],
        )
    if ANCHORS.search(text):
        how += "; anchored in place: the engine's entangles"
    ctx.save_of("web", dc, None)
    escaped = f" or escaped with a DC {escape_dc} Escape Artist check" if escape_dc is not None else ""
    ctx.mark("web", "modelled", f"web: {count} a fight, burst with a DC {dc} Strength check{escaped}{how}")
    field: dict = {"burst_dc": dc, "uses": count}
    if escape_dc is not None:
        field["escape_dc"] = escape_dc
    return {"web": field}


# --------------------------------------------------------------------------------------------- in a fight
THROWN = "webs"
"""Its per-fight state (:func:`~arena.combat.abilities.state_of`): the webs it has thrown."""


def thrown(c: Combatant) -> int:
    """How many webs ``c`` has thrown this fight."""
    specials = c.specials
    return specials.get(THROWN, 0) if specials else 0


def choose_web(view: View, creature: Combatant) -> Action | None:
    """A web at the first enemy not yet entangled, while it has webs left. SRD 3.5 monstrous spider: "This is
    similar to an attack with a net but has a maximum range of 50 feet": a ranged touch attack, so the engine keeps
    its target even behind the melee under ``web-ranged`` (undone, a target its weapons do not reach became the one
    its targeting picks among those they do, often a foe it had webbed already)."""
    web: Web = creature.t.ability_data["web"]
    if thrown(creature) < web.uses:
        for enemy in view.enemies(creature):
            if "entangled" not in enemy.conditions:
                return Action("web", enemy)
    return None


def has_web(view: View, creature: Combatant) -> bool:
    """It has a web to throw (a user's policy may throw one after its uses are spent)."""
    return "web" in creature.t.ability_data


def web_action(f: FightState, c: Combatant, action: Action, target: Combatant | None) -> None:
    """The engine's ``web`` action: :func:`throw_web` at its target (none: nothing)."""
    if target is not None:
        throw_web(f, c, target)


def throw_web(f: FightState, c: Combatant, target: Combatant) -> None:
    """A web (SRD 3.5 monstrous spider): a ranged touch attack that entangles on a hit."""
    state_of(c)[THROWN] = thrown(c) + 1
    mod = c.t.ray_bonus + c.attack_bonus
    ac = ranged_touch_ac(f, c, target)
    outcome = resolve(
        f, Check("attack", c.side, mod, ac, 0, 20, 2, target.side, flat_footed=not target.acted), c, target
    )
    count_roll(c.tally, outcome)
    c.tally.attacks += 1
    if f.lines is not None:
        f.log(
            f"{c.name} throws a web at {target.name}: {roll_text(outcome, f.last_plan)} - "
            f"{'entangled' if outcome.success else 'miss'}",
            actor=c.name,
            action="web",
            target=target.name,
            roll=roll_fields(outcome, f.last_plan),
            result="entangled" if outcome.success else "miss",
        )
    if outcome.success:
        web: Web = c.t.ability_data["web"]
        add_condition(f, target, "entangled", FOREVER, dc=web.burst_dc, escape_dc=web.escape_dc)


add_fields(AbilityField("web", Web | None, doc=Web.__doc__ or "", after="swallow_whole", every_number=True))
add_reading(AbilityReading("web", ("web",), read_web, after="gaze"))
add_fight_ability(
    FightAbility(
        "web",
        choose_action=choose_web,
        action="web",
        act=web_action,
        can_act=has_web,
        cannot_act="threw a web without a web",
        strains=False,  # throwing a web (a standard action) strains a disabled creature under the fix "disabled-strain"
        order=20,
    )
)
