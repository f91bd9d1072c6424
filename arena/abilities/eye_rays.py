"""Rays: a ray a creature's routines already roll (an arrowhawk's electricity ray), and a retriever's eye rays (SRD
3.5 Retriever: "Each round, it can fire one ray as a free action. A particular ray is usable only once every 4
rounds ... The save DC for all rays is 18"): at the start of each of its turns it fires the first ray that is ready
at a foe, a ranged touch attack, besides its attacks.

The whole ability: the stat-block field (:class:`EyeRays` of :class:`EyeRay`, the field ``eye_rays``), how the
importer reads the SRD's rays (:func:`read_rays`: the vocabulary's ``ray`` is every ray; one of its routines is
an attack the engine rolls already, the retriever's eye rays become the field) and what they do in a fight
(:func:`eye_ray`, at the start of each of its turns, after smoke and entangling plants).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from arena.combat import tactics
from arena.combat.abilities import free_to_act, state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.attacks import ranged_touch_ac
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition
from arena.combat.damage import area_damage
from arena.combat.fight_state import FightState
from arena.combat.rolls import count_roll, resolve, roll_fields, roll_text, save
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.rules import Check
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import AMOUNT, SAVE_KEYS
from arena.srd.text import clean, dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.stat_types import DamageDice, DamageType, Frozen, Label, Modifier, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class EyeRay(Frozen):
    """One ray of a set of eye rays: ``damage`` of ``damage_type`` (``save`` for half), or ``petrify`` (``save``
    negates)."""

    name: Label
    effect: Literal["damage", "petrify"] = "damage"
    damage: DamageDice | None = None
    damage_type: DamageType | None = None
    save: SaveKind = "ref"


class EyeRays(Frozen):
    """Eye rays (SRD 3.5 retriever: "Each round, it can fire one ray as a free action. A particular ray is usable
    only once every 4 rounds ... The save DC for all rays is 18"): at the start of each of its turns it fires the
    next ray that is ready at a foe (a ranged touch attack at ``bonus``), besides its attacks."""

    bonus: Modifier
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rays: Annotated[tuple[EyeRay, ...], Field(min_length=1, max_length=10)]
    every: Annotated[int, _int(1, 100)] = 4


# --------------------------------------------------------------------------------------------- reading the SRD
RAYS_DC = re.compile(r"save DC for all rays is (\d+)")
"""A retriever's: ``The save DC for all rays is 18``."""
RAYS_EVERY = re.compile(r"usable only once every (\d+) rounds")
"""``A particular ray is usable only once every 4 rounds``."""
EYE_RAY = re.compile(r"eye ray", re.IGNORECASE)
"""Its rays' attack: ``Eye ray +8 ranged touch``."""
RAY_LINE = re.compile(
    rf"^(Fire|Cold|Electricity|Acid|Sonic|Petrification): (?:Deals ({AMOUNT}) points of \w+ "
    r"damage to the target \((Reflex|Fortitude) half ?\)|The target must succeed on a "
    r"(Fortitude|Reflex|Will) save or turn to stone)",
    re.IGNORECASE,
)
"""A retriever's ray: ``Fire: Deals 12d6 points of fire damage to the target (Reflex half)``, ``Petrification: The
target must succeed on a Fortitude save or turn to stone permanently``."""
NEXT_ABILITY = re.compile(r"\s*[A-Z][\w ]+ \((?:Ex|Su|Sp)\):")
"""The paragraph of the next ability: ``Find Target (Sp):``."""


def read_rays(ctx: Reading, item: dict) -> dict:
    """The block's rays (``item`` is its first): those its routines roll (:func:`routine_rays`), then, while it is
    still ignored, a retriever's eye rays (:func:`read_eye_rays`)."""
    routine_rays(ctx)
    if item["engine"] != "ignored":
        return {}
    return read_eye_rays(ctx, item)


def routine_rays(ctx: Reading) -> None:
    """A ray its routines already roll (SRD 3.5 arrowhawk: "Electricity ray +9 ranged touch (2d6)", and
    "Electricity Ray (Su): An arrowhawk can fire this ray once per round"): the ranged touch attack is the ray."""
    names = ctx.attack_names()
    for item in [a for a in ctx.abilities if a["key"] == "ray" and a["engine"] == "ignored"]:
        name = clean(item["name"]).lower()
        if name in names:
            item["engine"] = "modelled"
            item["notes"] = f"the {name}: a ranged touch attack of its routines, once a round"


def read_eye_rays(ctx: Reading, item: dict) -> dict:
    """The retriever's: ``Each round, it can fire one ray as a free action. A particular ray is usable only once
    every 4 rounds ... The save DC for all rays is 18``, then a paragraph per ray (``Fire: Deals 12d6 points of fire
    damage to the target (Reflex half)``, ``Petrification: The target must succeed on a Fortitude save or turn to
    stone permanently``); its bonus is the ``eye ray +8 ranged touch`` of its attack line."""
    if "eye ray" not in item["name"].lower():
        return {}
    desc, _ = ctx.text_of(item, "eye rays")
    text = ctx.following(desc, 1)
    dc, every = RAYS_DC.search(text), RAYS_EVERY.search(text)
    bonus = next((a.bonuses[0] for r in ctx.reads for a in r if EYE_RAY.search(a.name)), None)
    found = []
    cells = ctx.block.description
    start = cells.index(desc) if desc in cells else len(cells)
    for c in cells[start + 1 : start + 16]:
        m = RAY_LINE.match(clean(c.text))
        if m is None:
            if NEXT_ABILITY.match(c.text):
                break
            continue
        if m.group(2):
            found.append(
                {
                    "name": m.group(1).lower(),
                    "damage": dice_text(m.group(2)),
                    "damage_type": m.group(1).lower(),
                    "save": SAVE_KEYS[m.group(3).lower()],
                }
            )
        else:
            found.append({"name": m.group(1).lower(), "effect": "petrify", "save": SAVE_KEYS[m.group(4).lower()]})
    if dc is None or bonus is None or not found:
        what = "no save DC" if dc is None else "no attack bonus" if bonus is None else "no rays"
        return ctx.unread(item, "ray", f"{what} read", text, label="eye rays")
    field = {"bonus": bonus, "dc": number(dc.group(1)), "rays": found, "every": number(every.group(1)) if every else 1}
    ctx.mark(
        "ray",
        "modelled",
        f"eye_rays: one a round as a free action at the start of its turn, each once every "
        f"{field['every']} rounds ({', '.join(r['name'] for r in found)}), ranged touch "
        f"{bonus:+d}, DC {field['dc']}",
    )
    return {"eye_rays": field}


# --------------------------------------------------------------------------------------------- in a fight
def eye_ray(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Retriever: "Each round, it can fire one ray as a free action. A particular ray is usable only once
    every 4 rounds ... The save DC for all rays is 18"; a ray is a ranged touch attack, then "Fire: Deals 12d6
    points of fire damage to the target (Reflex half)", "Petrification: The target must succeed on a Fortitude save
    or turn to stone permanently". It fires the first ray that is ready, at the foe its targeting prefers."""
    if not free_to_act(c):
        return
    rays: EyeRays = c.t.ability_data["eye_rays"]
    st = state_of(c)
    ready = st.setdefault("rays", [0.0] * len(rays.rays))
    k = next((i for i, at in enumerate(ready) if f.instant >= at), None)
    if k is None:
        return
    target = tactics.choose_target(f.view, c, [e for e in c.foes if e.is_able])
    if target is None:
        return
    ray = rays.rays[k]
    ready[k] = f.instant + rays.every * ROUND
    mod = rays.bonus + c.attack_bonus
    ac = ranged_touch_ac(f, c, target)
    outcome = resolve(
        f, Check("attack", c.side, mod, ac, 0, 20, 2, target.side, flat_footed=not target.acted), c, target
    )
    c.tally.attacks += 1
    count_roll(c.tally, outcome)
    if f.lines is not None:
        f.log(
            f"{c.name} {ray.name} ray {mod:+d} vs {target.name} touch AC {ac}: {roll_text(outcome, f.last_plan)} - "
            f"{'hit' if outcome.success else 'miss'}",
            actor=c.name,
            action="ray",
            ray=ray.name,
            target=target.name,
            modifier=mod,
            ac=ac,
            roll=roll_fields(outcome, f.last_plan),
            result="hit" if outcome.success else "miss",
        )
    if not outcome.success:
        return
    if ray.effect == "petrify":
        if "petrification" not in target.t.immunities and not save(f, target, ray.save, rays.dc, c).success:
            add_condition(f, target, "petrified", FOREVER)
        return
    assert ray.damage is not None  # a ray of damage has its dice (its reader gives them)
    types = frozenset({ray.damage_type}) if ray.damage_type is not None else frozenset()
    area_damage(f, c, target, parse(ray.damage), types, ray.save, rays.dc)


add_fields(AbilityField("eye_rays", EyeRays | None, doc=EyeRays.__doc__ or "", after="entangle"))
add_reading(AbilityReading("ray", (r".*\bray", "eye rays"), read_rays, after="horrific appearance"))
add_fight_ability(FightAbility("eye_rays", turn_start=eye_ray, order=50))
