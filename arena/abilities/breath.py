"""Breath weapons (SRD 3.5 "Breath Weapon"): a cone or line that every foe in it saves against, usable again after
its recharge (1d4 rounds). The damaging one (a dragon's fire, a bombardier beetle's acid spray: ``breath_weapon``)
deals one damage roll to all, a save for half; the one of an effect (a metallic dragon's sleep or fear gas, the
gorgon's stone: ``breath_effect``) puts a condition on each foe that fails its save. One module for both fields:
they are one mechanism, the creature's special action before its weapons, with one recharge, and a dragon that has
both alternates them, the effect first.

The whole ability: the stat-block fields (:class:`BreathWeapon`, :class:`BreathEffect`; typed for the layers above
by :func:`breath_weapon_of`), how the importer reads what is a breath weapon beyond a cone of damage
(:func:`read_breath_effect`: a dragon's second breath, the gorgon's, the chimera's breath of its dragon head's color;
:func:`read_acid_spray`, :func:`read_spit_acid`: the sprays that are breath weapons to the engine), and the breath
in a fight (:func:`choose_breath`, the policies' special action when it is ready and worth it; :func:`breathe`,
carried out). A breath weapon's own entry, ``Breath Weapon (Su): 60-foot cone ... damage 12d10 fire, Reflex DC 26
half``, and the true dragons' tables of it are the importer's core reading of a modelled key
(:mod:`arena.srd.entry_readers`, :mod:`arena.srd.dragons`): they stay there.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Annotated, Literal

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.actions import Action
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, lose_ability
from arena.combat.damage import area_damage
from arena.combat.fight_state import FightState
from arena.combat.rolls import save as saving_throw
from arena.combat.tactics.attack import ordered
from arena.combat.tactics.view import View
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.dragons import AGES
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.patterns import ABILITY, ABILITY_KEYS, AMOUNT, ROLL, SAVE, SAVE_KEYS
from arena.srd.prose import column_of, size_tables
from arena.srd.text import clean, dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.creatures import AbilityLoss, Creature
from arena.world.spellbook import area_count
from arena.world.stat_types import MAX_FEET, DamageDice, DamageType, Frozen, RoundsDice, SaveKind, _int


# --------------------------------------------------------------------------------------------- the stat-block fields
class BreathWeapon(Frozen):
    """A breath weapon: a cone or line, save for half, usable again after ``recharge`` rounds."""

    shape: Literal["cone", "line"]
    length_ft: Annotated[int, _int(1, MAX_FEET)]
    damage: DamageDice
    damage_type: DamageType
    save: SaveKind = "ref"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    recharge: RoundsDice = "1d4"
    """Rounds before it can be used again (SRD dragons: 1d4 rounds)."""
    half_on_save: bool = True
    """A successful save halves the damage; False: it negates it (the giant bombardier beetle's acid spray)."""


class BreathEffect(Frozen):
    """A breath weapon that does not deal damage (SRD 3.5 metallic dragons: sleep, paralysis, slow, fear,
    weakening gas): a cone or line; each creature caught saves (``save``, ``dc``) or suffers ``effect`` for
    ``rounds`` (``weakness``: the ability ``loss``). It shares the damaging breath's recharge; the creature
    alternates the two, the effect first."""

    shape: Literal["cone", "line"]
    length_ft: Annotated[int, _int(1, MAX_FEET)]
    effect: Literal["sleep", "paralysis", "slow", "fear", "weakness", "petrify", "repulsion"]
    """``petrify``: turned to stone for good (the gorgon's); ``repulsion``: compelled to move away (the bronze
    dragon's): out of the fight for ``rounds``, like a panicked creature."""
    save: SaveKind = "will"
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    rounds: RoundsDice = "1d6"
    loss: AbilityLoss | None = None
    recharge: RoundsDice = "1d4"
    """Rounds before it can be used again when the creature has no damaging breath (the gorgon's: 1d4)."""


def breath_weapon_of(creature: Creature) -> BreathWeapon | None:
    """``creature``'s damaging breath weapon (None: it has none): the field this module adds to the stat block,
    typed for the layers above that read it."""
    return getattr(creature, "breath_weapon", None)


# --------------------------------------------------------------------------------------------- reading the SRD
BREATH_EFFECTS = {
    "sleep": "sleep",
    "paralyzing": "paralysis",
    "paralysis": "paralysis",
    "slow": "slow",
    "weakening": "weakness",
    "fear": "fear",
    "repulsion": "repulsion",
}
"""The non-damaging breath weapons of the dragons that the engine's ``breath_effect`` carries, by their first word
(``Sleep breath weapon``)."""

CONE_OR_LINE = re.compile(r"(?<!\d)(\d+)-foot (cone|line)")
"""``a 40-foot cone``, ``a 100-foot line``."""
SAVE_DC = re.compile(rf"\b{SAVE} DC (\d+)")
"""``Will DC 19 negates``."""
AGE_TITLE = re.compile(r",\s*([a-z ]+)$")
"""A true dragon's age in its title (lowercase): ``gold dragon, young adult``."""
PER_AGE = "per age category"
"""The general rule of a dragon's second breath: ``for 1d6 rounds plus 1 round per age category``."""
ROUNDS_PER_AGE = re.compile(rf"for ({ROLL}) rounds plus 1 round per age category")
"""``fall asleep for 1d6 rounds plus 1 round per age category``."""
LOSS_PER_AGE = re.compile(rf"take 1 point of {ABILITY} damage per age category")
"""``take 1 point of Strength damage per age category``."""
STONE_SHAPE = re.compile(rf"(?<!\d)(\d+)-foot (cone|line), once every ({AMOUNT}) rounds", re.IGNORECASE)
"""The gorgon's: ``60-foot cone, once every 1d4 rounds``."""
STONE_SAVE = re.compile(rf"turn to stone permanently, {SAVE} DC (\d+) negates", re.IGNORECASE)
"""``turn to stone permanently, Fortitude DC 19 negates``."""
USES_A_DAY = re.compile(r"no more than (\w+) times per day")
"""``but no more than five times per day``."""
HEAD_DAMAGE = re.compile(rf"deals ({ROLL}) points of damage, and allows a DC (\d+) Reflex save for half")
"""The chimera's: ``deals 3d8 points of damage, and allows a DC 17 Reflex save for half damage``."""
EVERY_ROUNDS = re.compile(rf"once every ({ROLL}) rounds")
"""``once every 1d4 rounds``."""
TABLE_BREATH = re.compile(
    r"(?<!\d)(\d+)-foot (cone|line) of (?:gas \()?(acid|lightning|fire|cold|electricity)", re.IGNORECASE
)
"""A row of the chimera's table of heads: ``40-foot line of acid``."""
SPRAY_CONE = re.compile(r"(?<!\d)(\d+)-foot cone", re.IGNORECASE)
"""``a 10-foot cone of acidic vapor``."""
SPRAY_DAMAGE = re.compile(rf"(?:take|dealing|deals) ({AMOUNT}) points? of (?:acid )?damage", re.IGNORECASE)
"""``or take 1d4+2 points of acid damage``, ``dealing 4d8 points of damage``."""
SPRAY_SAVE = re.compile(r"\bDC (\d+) (Fortitude|Reflex) save (or take|halves)", re.IGNORECASE)
"""``a DC 13 Fortitude save or take``, ``a DC 17 Reflex save halves the damage``."""
SPRAY_AGAIN = (re.compile(rf"until ({ROLL}) rounds later"), re.compile(r"once (per) round"))
"""How often: ``it can't use it again until 1d4 rounds later``, ``once per round``."""
CONCENTRATED = "concentrated stream"
"""A digester's other use: ``a concentrated stream``."""
SPIT = re.compile(rf"(?<!\d)(\d+)-ft\. line, once every \d+ hours; damage ({AMOUNT}) acid, Reflex DC (\d+) half")
"""The ankheg's: ``30-ft. line, once every 6 hours; damage 4d4 acid, Reflex DC 14 half``."""


def age_category(title: str) -> int | None:
    """A true dragon's age category from its title (``Gold Dragon, Young Adult``: 5)."""
    ages = [a.lower() for a in AGES]
    m = AGE_TITLE.search(title.lower())
    return ages.index(m.group(1).strip()) + 1 if m and m.group(1).strip() in ages else None


def read_breath_effect(ctx: Reading, item: dict) -> dict:
    """A dragon's second breath (``Sleep Breath Weapon (Su): ... 40-foot cone ... Will DC 19 negates``, and the
    general rule: ``fall asleep for 1d6 rounds plus 1 round per age category``); the block's one breath weapon
    when it is not a cone or line of damage (:func:`_plain_breath`)."""
    key = "breath weapon (non-damage)"
    entry = clean(item["name"]).lower()
    word = entry.split()[0]
    if word == "breath":  # the block's one breath weapon, of no cone of damage
        return _plain_breath(ctx, item)
    effect = BREATH_EFFECTS.get(word)
    if effect is None:
        return ctx.ignored(
            key,
            "not a breath effect the engine's breath_effect has (sleep, paralysis, slow, fear, weakness, repulsion)",
        )
    desc, text = ctx.text_of(item, entry)
    shape, save, age = CONE_OR_LINE.search(text), SAVE_DC.search(text), age_category(ctx.block.title)
    the_word = re.compile(rf"\b{re.escape(word)}", re.IGNORECASE)
    general = next((c.text for c in ctx.block.description if PER_AGE in c.text and the_word.search(c.text)), "")
    if shape is None or save is None or age is None or not general:
        what = (
            "no cone or line"
            if shape is None
            else "no save DC"
            if save is None
            else "no age category"
            if age is None
            else "no duration"
        )
        ctx.note_on(item, "unread", f"breath weapon ({word}): {what} read: not modelled", text[:200] or entry)
        return ctx.ignored(key, f"{what} read")
    field: dict = {
        "shape": shape.group(2),
        "length_ft": number(shape.group(1)),
        "effect": effect,
        "save": SAVE_KEYS[save.group(1).lower()],
        "dc": number(save.group(2)),
    }
    rounds, loss = ROUNDS_PER_AGE.search(general), LOSS_PER_AGE.search(general)
    if effect == "weakness" and loss:
        field["loss"] = {"dice": str(age), "ability": ABILITY_KEYS[loss.group(1).lower()], "drain": False}
        told = f"{age} {field['loss']['ability']} damage (1 a category)"
    elif rounds:
        field["rounds"] = f"{rounds.group(1)}+{age}"
        told = f"{field['rounds']} rounds (1d6 + 1 a category)"
    else:
        ctx.note_on(item, "unread", f"breath weapon ({word}): its duration not read: not modelled", general[:200])
        return ctx.ignored(key, "its duration not read")
    ctx.save_of(key, field["dc"], field["save"])
    ctx.mark(
        key,
        "modelled",
        f"breath_effect: {field['length_ft']}-ft. {field['shape']} of {effect}, "
        f"{field['save'].capitalize()} DC {field['dc']} negates, {told}; it alternates with the "
        "damaging breath",
    )
    return {"breath_effect": field}


def _turn_to_stone(text: str) -> tuple[str, ...] | None:
    """(length, shape, recharge, save, DC) of ``60-foot cone, once every 1d4 rounds ..., turn to stone permanently,
    Fortitude DC 19 negates``: the shape, then the first save after it (one pattern with ``.*?`` between the two
    rescanned the rest of the text from every shape)."""
    shape = STONE_SHAPE.search(text)
    save = STONE_SAVE.search(text, shape.end()) if shape else None
    return (*shape.groups(), *save.groups()) if shape and save else None


def _plain_breath(ctx: Reading, item: dict) -> dict:
    """A breath weapon that is not a cone or line of damage in its own words: the gorgon's ("60-foot cone, once
    every 1d4 rounds (but no more than five times per day), turn to stone permanently, Fortitude DC 19 negates") is
    a breath effect; the chimera's ("depends on the color of its dragon head, as summarized on the table below ...
    once every 1d4 rounds, deals 3d8 points of damage, and allows a DC 17 Reflex save for half damage") is a
    damaging breath of the table's first head (the SRD rolls 1d10 for it)."""
    key = "breath weapon (non-damage)"
    desc, text = ctx.text_of(item, "breath weapon")
    stone = _turn_to_stone(text)
    if stone:
        length, shape, every, save, dc = stone
        field: dict = {
            "shape": shape.lower(),
            "length_ft": number(length),
            "effect": "petrify",
            "save": SAVE_KEYS[save.lower()],
            "dc": number(dc),
            "recharge": dice_text(every),
        }
        how = "; its limit of uses a day is left out (a fight is over first)" if USES_A_DAY.search(text) else ""
        ctx.save_of(key, field["dc"], field["save"])
        ctx.mark(
            key,
            "modelled",
            f"breath_effect: {field['length_ft']}-ft. {field['shape']}, turned to stone for "
            f"good, {field['save'].capitalize()} DC {field['dc']} negates, every "
            f"{field['recharge']} rounds{how}",
        )
        return {"breath_effect": field}
    dmg, recharge = HEAD_DAMAGE.search(text), EVERY_ROUNDS.search(text)
    rows = (
        [row for table in size_tables(ctx.block, desc.line, "Breath Weapon") for row in table.values()]
        if desc is not None and dmg
        else []
    )
    first = next((TABLE_BREATH.search(column_of(row, "Breath Weapon") or "") for row in rows), None)
    if dmg is None or first is None or recharge is None:
        return ctx.ignored(key, "not a cone or line of damage, nor a breath effect the engine's breath_effect has")
    energy = {"lightning": "electricity"}.get(first.group(3).lower(), first.group(3).lower())
    head = column_of(rows[0], "Head") or "the first"
    weapon: dict = {
        "shape": first.group(2).lower(),
        "length_ft": number(first.group(1)),
        "damage": dmg.group(1),
        "damage_type": energy,
        "save": "ref",
        "dc": number(dmg.group(2)),
        "recharge": recharge.group(1),
        "half_on_save": True,
    }
    ctx.note_on(
        item,
        "guess",
        f"breath weapon: its shape and energy by the color of its dragon head (rolled on "
        f"1d10): the table's first row, {head.lower()} ({first.group(0)})",
        text[:200],
    )
    for a in ctx.abilities:
        if a["key"] == key:
            a.update(key="breath weapon", dc=weapon["dc"], save="ref", damage=weapon["damage"])
    ctx.mark(
        "breath weapon",
        "modelled",
        f"breath_weapon: {weapon['length_ft']}-ft. {weapon['shape']} of "
        f"{weapon['damage']} {energy}, Reflex DC {weapon['dc']} half, every "
        f"{weapon['recharge']} rounds; the {head.lower()} head of the table's first "
        "row (the SRD rolls the head's color)",
    )
    return {"breath_weapon": weapon}


def read_acid_spray(ctx: Reading, item: dict) -> dict:
    """Acid spray as a breath weapon (unless it has one): the giant bombardier beetle's ("release a 10-foot cone of
    acidic vapor once per round. Those within the cone must succeed on a DC 13 Fortitude save or take 1d4+2 points
    of acid damage": the save negates) and the digester's ("spray acid in a 20-foot cone, dealing 4d8 points of
    damage ... it can't use it again until 1d4 rounds later" and, a paragraph on, "a DC 17 Reflex save halves the
    damage")."""
    if "breath_weapon" in ctx.data:
        return {}
    desc, _ = ctx.text_of(item, "acid spray")
    text = ctx.following(desc, 2)
    cone, dmg, save = SPRAY_CONE.search(text), SPRAY_DAMAGE.search(text), SPRAY_SAVE.search(text)
    every = SPRAY_AGAIN[0].search(text) or SPRAY_AGAIN[1].search(text)
    if cone is None or dmg is None or save is None or every is None:
        what = (
            "no cone" if cone is None else "no damage" if dmg is None else "no save DC" if save is None else "how often"
        )
        ctx.note_on(item, "unread", f"acid spray: {what} read: not modelled", text[:200])
        return ctx.ignored("acid spray", f"{what} read")
    half = save.group(3).lower() == "halves"
    weapon: dict = {
        "shape": "cone",
        "length_ft": number(cone.group(1)),
        "damage": dice_text(dmg.group(1)),
        "damage_type": "acid",
        "save": SAVE_KEYS[save.group(2).lower()],
        "dc": number(save.group(1)),
        "recharge": "1" if every.group(1) == "per" else every.group(1),
        "half_on_save": half,
    }
    how = "; its stream at a single foot-near target is left out (the cone only)" if CONCENTRATED in text else ""
    for a in ctx.abilities:
        if a["key"] == "acid spray":
            a["dc"], a["save"], a["damage"] = weapon["dc"], weapon["save"], weapon["damage"]
    saved = f"{weapon['save'].capitalize()} DC {weapon['dc']} {'half' if half else 'negates'}"
    ctx.mark(
        "acid spray",
        "modelled",
        f"breath_weapon: {weapon['length_ft']}-ft. cone of {weapon['damage']} acid, "
        f"{saved}, every {weapon['recharge']} round(s), as its action{how}",
    )
    return {"breath_weapon": weapon}


def read_spit_acid(ctx: Reading, item: dict) -> dict:
    """The ankheg's ``30-ft. line, once every 6 hours; damage 4d4 acid, Reflex DC 14 half``: a breath weapon once a
    fight (its bite's acid, which the SRD says the spitting uses up for 6 hours, is left in)."""
    desc, text = ctx.text_of(item, "spit acid")
    m = SPIT.search(text)
    if m is None or ctx.data.get("breath_weapon"):
        return ctx.unread(item, "spit acid", "its line, damage and DC not read", text)
    weapon: dict = {
        "shape": "line",
        "length_ft": number(m.group(1)),
        "damage": dice_text(m.group(2)),
        "damage_type": "acid",
        "save": "ref",
        "dc": number(m.group(3)),
        "recharge": "100",
        "half_on_save": True,
    }
    ctx.save_of("spit acid", weapon["dc"], "ref")
    ctx.mark(
        "spit acid",
        "modelled",
        f"breath_weapon: {weapon['length_ft']}-ft. line of {weapon['damage']} acid, "
        f"Reflex DC {weapon['dc']} half, once a fight (recharge 100 rounds); the bite's "
        "acid it uses up is left in",
    )
    return {"breath_weapon": weapon}


# --------------------------------------------------------------------------------------------- in a fight
READY_AT = "breath_ready_at"
"""Its per-fight state (:func:`~arena.combat.abilities.state_of`): when its breath is ready again, in the fight's
seconds (none yet: ready)."""
LAST_EFFECT = "breath_last_effect"
"""Its last breath was the one without damage (a dragon alternates them, that one first)."""


def ready_at(c: Combatant) -> float:
    """When ``c``'s breath is ready again, on the fight's clock (0: it has not breathed yet)."""
    specials = c.specials
    return specials.get(READY_AT, 0.0) if specials else 0.0


def last_was_effect(c: Combatant) -> bool:
    """Whether ``c``'s last breath was the one without damage (the next is the damaging one, if it has it)."""
    specials = c.specials
    return bool(specials and specials.get(LAST_EFFECT))


def can_breathe(view: View, creature: Combatant) -> bool:
    """It has a breath weapon and it is ready (its recharge has passed)."""
    data = creature.t.ability_data
    return ("breath_weapon" in data or "breath_effect" in data) and view.now() >= ready_at(creature)


def breath_area(breath: BreathWeapon | BreathEffect) -> str:
    """The area key of a breath weapon: a line, or the smallest listed cone that holds it."""
    if breath.shape == "line":
        return "line"
    return next((f"cone-{size}" for size in (15, 30, 40, 60) if breath.length_ft <= size), "cone-60")


def choose_breath(view: View, creature: Combatant) -> Action | None:
    """A breath weapon when it is ready and catches two or more enemies (or the only one), those its targeting
    prefers first; the one of an effect when it is the next (a dragon alternates them, the effect first)."""
    if not can_breathe(view, creature):
        return None
    data = creature.t.ability_data
    enemies = view.enemies(creature)
    weapon: BreathWeapon | None = data.get("breath_weapon")
    effect: BreathEffect | None = data.get("breath_effect")
    breath = effect if effect is not None and (not last_was_effect(creature) or weapon is None) else weapon
    if breath is not None:
        caught = area_count(breath_area(breath), len(enemies))
        if caught >= 2 or len(enemies) == 1:
            return Action("breath", targets=ordered(view, creature, enemies)[:caught])
    return None


def breath_action(f: FightState, c: Combatant, action: Action, target: Combatant | None) -> None:
    """The engine's ``breath`` action: :func:`breathe` on its targets."""
    breathe(f, c, action.targets or [])


def breathe(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """A breath weapon: its recharge is rolled, then one damage roll and a save for each target (or, for a breath
    without damage, a save against its effect: :func:`breathe_effect`)."""
    data = c.t.ability_data
    weapon: BreathWeapon | None = data.get("breath_weapon")
    effect: BreathEffect | None = data.get("breath_effect")
    st = state_of(c)
    if effect is not None and (not st.get(LAST_EFFECT) or weapon is None):
        st[LAST_EFFECT] = True
        recharge = weapon.recharge if weapon else effect.recharge
        st[READY_AT] = f.instant + parse(recharge).roll(f.stream) * ROUND
        breathe_effect(f, c, effect, targets)
        return
    assert weapon is not None  # the field of one of them is set, or the creature has no breath hook
    st[LAST_EFFECT] = False
    dice = parse(weapon.damage)
    st[READY_AT] = f.instant + parse(weapon.recharge).roll(f.stream) * ROUND
    if f.lines is not None:
        f.log(
            f"{c.name} breathes {weapon.damage_type} on {', '.join(t.name for t in targets)}",
            actor=c.name,
            action="breath",
            effect=weapon.damage_type,
            targets=[t.name for t in targets],
        )
    amount = dice.roll(f.stream)
    types = frozenset({weapon.damage_type})
    for target in targets:
        area_damage(f, c, target, dice, types, weapon.save, weapon.dc, rolled=amount, half_on_save=weapon.half_on_save)


BREATH_CONDITION: dict[str, tuple[str, str | None]] = {
    "sleep": ("asleep", "sleep"),
    "paralysis": ("paralyzed", "paralysis"),
    "slow": ("slowed", None),
    "fear": ("panicked", "mind-affecting"),
    "petrify": ("petrified", "petrification"),
    "repulsion": ("panicked", "mind-affecting"),
}
"""A breath effect -> (the condition it puts on a creature that fails its save, the immunity that stops it).
Repulsion (SRD 3.5 bronze dragon: "compelled to do nothing but move away from the dragon for 1d6 rounds plus 1
round per age category ... a mind-affecting compulsion") takes the creature out of the fight as a panicked one is;
petrification (the gorgon's "turn to stone permanently") lasts the rest of the fight."""


def breathe_effect(f: FightState, c: Combatant, effect: BreathEffect, targets: list[Combatant]) -> None:
    """A breath without damage: each target saves or suffers the effect for its rounds (weakness: ability loss)."""
    if f.lines is not None:
        f.log(
            f"{c.name} breathes {effect.effect} gas on {', '.join(t.name for t in targets)}",
            actor=c.name,
            action="breath",
            effect=effect.effect,
            targets=[t.name for t in targets],
        )
    condition, immunity = BREATH_CONDITION.get(effect.effect, ("", None))  # weakness: none (an ability loss)
    for target in targets:
        if target.dead or (immunity is not None and immunity in target.t.immunities):
            continue
        if saving_throw(f, target, effect.save, effect.dc, c).success:
            continue
        if effect.effect == "weakness":
            if effect.loss is not None:
                lose_ability(f, target, effect.loss, c)
        elif effect.effect == "petrify":
            add_condition(f, target, condition, FOREVER)
        else:
            add_condition(f, target, condition, parse(effect.rounds).roll(f.stream) * ROUND)


BREATH = FightAbility(
    "breath_weapon",
    choose_action=choose_breath,
    action="breath",
    act=breath_action,
    can_act=can_breathe,
    cannot_act="breathed without a breath weapon ready",
    order=10,
)
"""The breath in a fight, by either field (a creature with both has it once: the choice is one function)."""

add_fields(
    AbilityField("breath_weapon", BreathWeapon | None, doc=BreathWeapon.__doc__ or "", after="rend"),
    AbilityField("breath_effect", BreathEffect | None, doc=BreathEffect.__doc__ or "", after="web", every_number=True),
)
add_reading(
    AbilityReading("breath weapon (non-damage)", (r"\w+ breath weapon",), read_breath_effect, after="swallow whole")
)
add_reading(AbilityReading("acid spray", ("acid spray",), read_acid_spray, after="powerful charge"))
add_reading(AbilityReading("spit acid", ("spit acid",), read_spit_acid, after="evasion", only_ignored=True))
add_fight_ability(BREATH)
add_fight_ability(replace(BREATH, field="breath_effect"))
