"""The generated four-character party (fighter, cleric, rogue, wizard) for levels 1-20, and hand-written parties.

No open 3.5 pregenerated party exists, so the party is built from the SRD 3.5 class tables
(``arena/data/srd35_class_progressions.yaml``) under the assumptions below. EVERY assumption is here; the tables
they name live in :mod:`arena.world.class_tables` (classes, abilities, feats, spells) and
:mod:`arena.world.party_gear` (gear, items and wealth), and this module builds the characters from them.

Race and abilities
    * All four are humans (SRD: medium, speed 30 ft., one bonus feat at 1st level; no ability adjustment).
    * Ability array 15, 14, 13, 12, 10, 8 (the 3.5 DMG "elite array"; the same numbers are the Pathfinder NPC
      "heroic" array in the PRD), placed per class in :data:`ABILITIES`.
    * The +1 ability increase at levels 4, 8, 12, 16 and 20 goes to the class's key ability (Str, Wis, Dex, Int).
    * Enhancement items: key ability +2 at level 6, +4 at 12, +6 at 15; Con (amulet of health) +2 at 10, +4 at 15,
      +6 at 18 (:data:`GEAR_SCHEDULE`).

Hit points (``hit_points``, :data:`HIT_POINT_RULES`)
    * Maximum at 1st level, then per level after the first:
      ``"average"`` (the default; the SRD 3.5 practice for averaged hit points): the die's average (hd+1)/2, so d10
      5.5 gives 5 and 6 alternately, d8 4 and 5, d6 3 and 4, d4 2 and 3: levels 2..L together give
      floor((L-1) x (hd+1)/2);
      ``"rounded-up"`` (the Pathfinder practice, this module's rule before): the average rounded up every level
      (d10: 6, d8: 5, d6: 4, d4: 3).
    * Either way plus the Con modifier each level (current Con, items included, as 3.5 does), plus 3 for Toughness.

Gear (:data:`GEAR_SCHEDULE`, :data:`ARMOR_BY_LEVEL`, :data:`BODY_SLOTS`)
    * Level 1 is mundane starting gear. From level 2 a masterwork weapon, from 3 a +1 weapon; the "big six"
      items follow one schedule (weapon, armor, shield, ring of protection, amulet of natural armor, cloak of
      resistance, ability items). Prices use the SRD 3.5 magic-item pricing formulas (bonus squared x 1,000 gp
      for armor, shield, bracers, resistance and ability items; x 2,000 gp for weapons, deflection and natural
      armor; masterwork +300 weapon, +150 armor). :func:`gear_cost` totals a character's gear; at every level 2-20
      it stays within the D&D 3.5 "Character Wealth by Level" (:data:`WEALTH_BY_LEVEL`: 3.5 DMG Table 5-1, the
      figures only; the table is not in the SRD), the rest being consumables that are not modelled.
    * One item per body slot (:data:`BODY_SLOTS`, :func:`worn_items`): suit of armor on the body, bracers of armor
      on the wrists, cloak of resistance on the shoulders, ring of protection on a ring finger (one of the two ring
      slots), belt of giant strength (fighter) on the waist, gloves of Dexterity (rogue) on the hands, headband of
      intellect (wizard) on the head; the amulet of natural armor, the amulet of health and the cleric's periapt of
      Wisdom all belong on the neck, so each PC wears ONE neck item with those powers combined, priced by the SRD
      rule for several abilities in one body-slot item ("Adding New Abilities"): the priciest power at full price,
      every other one at +50% (x 1.5). Weapons and the shield are held, not worn.
    * Weapons are capped at +5 enhancement; special weapon properties, and any wealth left over, are not modelled.
    * Fighter: longsword and heavy steel shield; chainmail to level 3, full plate from 4.
      Cleric: morningstar and heavy steel shield; same armor as the fighter.
      Rogue: rapier (Weapon Finesse); studded leather at 1, chain shirt 2-4, mithral chain shirt from 5.
      Wizard: light crossbow and quarterstaff, bracers of armor (from level 3) instead of armor, no shield.
    * The armor's own enhancement starts at level 5 (the fighter and cleric buy full plate at 4).
    * The fighter, cleric and rogue also carry a mundane light crossbow as a ranged alternative. The wizard's
      weapons (light crossbow first, quarterstaff) stay mundane: the weapon schedule is for the other three.
    * Reloading a light crossbow is a move action (SRD 3.5 weapon description; Rapid Reload, which none of them
      has, makes it free), so the light crossbow fires once a round: one attack bonus, no iterative attacks, in
      the standard and in the full-attack routine.
    * ``deflection`` on the stat block is the ring of protection's bonus (already in AC and touch AC), so that a
      deflection bonus from a spell (shield of faith) does not stack with it.
    * ``legacy`` (:data:`LEGACY_CHOICES`, for measuring the fight model's fixes, not for play) switches former
      behaviours back on: ``"party-gear"`` the former plan (:data:`LEGACY_GEAR_SCHEDULE` against the Pathfinder
      wealth, :data:`LEGACY_WEALTH_BY_LEVEL`, every neck power its own amulet priced alone), ``"crossbow-reload"``
      iterative attacks with the light crossbow.

Feats (:data:`FEATS`; those without effect in a fight, :data:`NOT_MODELLED_FEATS`, are listed in notes)
    * The SRD count at every level: a feat at 1st and every third level, the human's at 1st, the fighter's bonus
      feats (1st, 2nd, every even level: from the fighter list), the wizard's Scribe Scroll and bonus feats (5th,
      10th, 15th, 20th: metamagic or item creation). ``legacy={"class-features"}``: the former table
      (:data:`LEGACY_FEATS`).
    * Fighter: Improved Initiative, Power Attack (human), Weapon Focus (1), Dodge (2), Iron Will (3), Weapon
      Specialization (4), Lightning Reflexes, Cleave (6), Improved Critical (8), Great Fortitude (9), Greater
      Weapon Focus (10), Toughness, Greater Weapon Specialization (12), then Great Cleave, Combat Reflexes,
      Improved Sunder, Blind-Fight, Improved Bull Rush, Improved Shield Bash (14-20, none modelled).
    * Cleric: Improved Initiative, Toughness (1), Lightning Reflexes (3), Weapon Focus (morningstar) (6), then
      Combat Casting, Extra Turning, Quicken Spell, Empower Spell (9-18, none modelled).
    * Rogue: Weapon Finesse, Improved Initiative (1), Weapon Focus (rapier) (3), Dodge (6), Iron Will (9),
      Toughness (12), Great Fortitude (15), Lightning Reflexes (18).
    * Wizard: Improved Initiative, Toughness, Scribe Scroll (1), Spell Focus (evocation) (3), Craft Wand (5),
      Greater Spell Focus (evocation) (6), Lightning Reflexes (9), Empower Spell (10), Spell Penetration (12),
      Greater Spell Penetration and Quicken Spell (15), Iron Will (18), Maximize Spell (20).

Class features (:func:`~arena.world.class_tables.class_features`: the SRD tables' Special column)
    * Rogue: sneak attack +1d6 at 1st and every odd level; evasion (2), uncanny dodge (4), improved uncanny dodge
      (8), and the special abilities of :data:`ROGUE_SPECIAL_ABILITIES` (improved evasion 10, defensive roll 13,
      crippling strike 16, slippery mind 19), as stat-block fields the fight reads; trapfinding, trap sense,
      crippling strike and slippery mind are listed in notes as not modelled (:data:`NOT_MODELLED_FEATURES`).
      ``legacy={"class-features"}``: none of the fields (the rogue before issue 24).
    * Cleric: turn undead (not modelled), the Luck and Healing domains. Wizard: a familiar (not modelled).

Spells (only the spells the engine supports)
    * Wizard: 1st magic missile, sleep, color spray; 2nd scorching ray; 3rd fireball, lightning bolt, hold person;
      4th ice storm; 5th cone of cold; 6th disintegrate, chain lightning; 7th delayed blast fireball, finger of
      death; 8th polar ray; 9th meteor swarm. Cleric: 1st cure light wounds, bless, shield of faith; 2nd cure
      moderate wounds, hold person; 3rd cure serious wounds, searing light; 4th cure critical wounds; 5th flame
      strike; 6th heal, harm, blade barrier; 7th destruction, mass cure serious wounds; 8th fire storm, mass cure
      critical wounds; 9th mass heal. (``legacy={"high-level-spells"}``: the rotations stop at 5th, as before.)
    * Slots per day = class table + bonus spells for the key ability (SRD: one extra slot of spell level s per 4
      points of modifier from s) + the cleric's one domain slot per level 1-9. Slots are filled in the rotation
      of :data:`WIZARD_ROTATION` / :data:`CLERIC_ROTATION`.
    * Cantrips/orisons are not listed (none is supported).
    * Cleric domains: Luck and Healing. Domain slots: 1st-4th the Healing spells (cure light ... cure critical).
      ``domain_spells`` (:data:`DOMAIN_SPELL_RULES`): ``"by-die"`` (the default): under the bell curve
      (``die="3d6"``) the 3rd-level domain slot holds the Luck domain's *auspicious odds* and the 5th holds *mass
      auspicious odds* (Unearthed Arcana bell-curve Luck domain); under d20 those two spells do not exist and the
      3rd slot holds cure serious wounds (Healing 3), the 5th flame strike (Healing 5, mass cure light wounds, is
      not supported: a stated simplification). ``"standard"``: the d20 list under every die, so that a study can
      tell the effect of the dice from the effect of the changed spells. Domain slots 6th-9th hold the Healing
      domain's heal, regenerate, mass cure critical wounds and mass heal under every die.
    * Caster level = class level. Save DCs are 10 + spell level + the key ability modifier; the feats are in
      ``feats`` and the engine adds Spell Focus / Greater Spell Focus (+1 each) to the DCs of spells of that school
      from them (the wizard's evocations).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from arena.errors import ArenaError
from arena.world.attacks import Attack
from arena.world.class_tables import (
    ABILITIES,
    ABILITY_INCREASE_LEVELS,
    CLASSES,
    CLERIC_ROTATION,
    DODGE_AC,
    DOMAIN_SPELLS,
    DOMAINS,
    HIGHEST_SUPPORTED_SPELL_LEVEL,
    IMPROVED_INITIATIVE,
    KEY_ABILITY,
    LEGACY_HIGHEST_SPELL_LEVEL,
    NOT_MODELLED_FEATS,
    NOT_MODELLED_FEATURES,
    SAVE_FEAT_BONUS,
    TOUGHNESS_HP,
    WEAPON_FOCUS,
    WEAPON_SPECIALIZATION,
    WIZARD_ROTATION,
    bonus_spells,
    check_level,
    class_feats,
    class_features,
    class_row,
    die_hit_points,
    feature_name,
    hit_die,
    iteratives,
)
from arena.world.creatures import Abilities, Creature, Saves, Spellcasting
from arena.world.party_gear import (
    ARMOR_BY_LEVEL,
    HEAVY_STEEL_SHIELD,
    LIGHT_CROSSBOW,
    MAIN_WEAPON,
    QUARTERSTAFF,
    RAPIER,
    SHIELD_USERS,
    Weapon,
    gear_cost,
    gear_schedule,
    legacy_choices,
    piece_at,
    scheduled,
    wealth_by_level,
    worn_items,
)
from arena.world.stat_types import ability_modifier
from arena.world.yamlio import Readable, iter_models, load_yaml

DIES = ("d20", "3d6")
HIT_POINT_RULES = ("average", "rounded-up")
"""``build_character(hit_points=...)``: hit points per level after the first (the module docstring)."""
DOMAIN_SPELL_RULES = ("by-die", "standard")
"""``build_character(domain_spells=...)``: the cleric's domain spells follow the die, or are the d20 list always."""


# --------------------------------------------------------------------------------------------- the builder
def _abilities(cls: str, level: int, schedule: dict[str, dict[int, int]]) -> dict[str, int]:
    scores = dict(ABILITIES[cls])
    key = KEY_ABILITY[cls]
    scores[key] += sum(1 for lv in ABILITY_INCREASE_LEVELS if level >= lv)
    scores[key] += scheduled("key_ability", level, schedule) or 0
    scores["con"] += scheduled("con", level, schedule) or 0
    return scores


def _prepared(
    cls: str, level: int, key_mod: int, die: str, domain_spells: str, highest: int = HIGHEST_SUPPORTED_SPELL_LEVEL
) -> dict[int, tuple[str, ...]]:
    """The spells prepared in each slot level; ``highest``: the rotation's highest level (5 under
    ``legacy={"high-level-spells"}``: higher slots hold the best 5th-level spell, as before that fix)."""
    per_day = class_row(cls, level)[4]
    domain = DOMAIN_SPELLS[die if domain_spells == "by-die" else "d20"]
    rotation = WIZARD_ROTATION if cls == "wizard" else CLERIC_ROTATION
    prepared: dict[int, tuple[str, ...]] = {}
    for spell_level in range(1, len(per_day)):
        slots = per_day[spell_level] + bonus_spells(key_mod, spell_level)
        source_level = min(spell_level, highest)
        spells = rotation[source_level]
        chosen = [spells[i % len(spells)] for i in range(slots)]
        if cls == "cleric":
            chosen.insert(0, domain[spell_level] if spell_level <= highest else CLERIC_ROTATION[highest][0])
        if chosen:
            prepared[spell_level] = tuple(chosen)
    return prepared


def build_character(
    cls: str,
    level: int,
    die: str = "d20",
    *,
    hit_points: str = "average",
    domain_spells: str = "by-die",
    legacy: Iterable[str] = frozenset(),
) -> Creature:
    """One generated PC of class ``cls`` at ``level`` (see the module docstring for every assumption).

    ``hit_points`` is one of :data:`HIT_POINT_RULES` (per level after the first: the die's average, or the average
    rounded up); ``domain_spells`` one of :data:`DOMAIN_SPELL_RULES` (the cleric's domain spells change with the
    die, or are the d20 list under every die); ``legacy`` names former behaviours (:data:`LEGACY_CHOICES`) to
    switch back on, for measuring the fixes, not for play."""
    if cls not in CLASSES:
        raise ArenaError(f"no generated {cls!r}: the party classes are {', '.join(CLASSES)}")
    level = check_level(level)
    die = _check_die(die)
    hit_points = _check_choice("hit_points", hit_points, HIT_POINT_RULES)
    domain_spells = _check_choice("domain_spells", domain_spells, DOMAIN_SPELL_RULES)
    legacy = legacy_choices(legacy)
    schedule = gear_schedule(legacy)
    bab, base_fort, base_ref, base_will, _ = class_row(cls, level)
    scores = _abilities(cls, level, schedule)
    m = {k: ability_modifier(v) for k, v in scores.items()}
    old_features = "class-features" in legacy
    feats = class_feats(cls, level, old_features)
    features = class_features(cls, level)
    modelled = () if old_features else features
    hd = hit_die(cls)

    # hit points: max at 1st, then the average (or the average rounded up) each level, Con each level, Toughness
    hp = hd + die_hit_points(hd, level, hit_points) + level * m["con"]
    hp += TOUGHNESS_HP * feats.count("Toughness")
    hp = max(hp, level)

    ac, touch, flat, speed = _armor_class(cls, level, m, feats, schedule, legacy)
    resistance = scheduled("resistance", level, schedule) or 0
    saves = Saves(
        fort=base_fort + m["con"] + resistance + SAVE_FEAT_BONUS * ("Great Fortitude" in feats),
        ref=base_ref + m["dex"] + resistance + SAVE_FEAT_BONUS * ("Lightning Reflexes" in feats),
        will=base_will + m["wis"] + resistance + SAVE_FEAT_BONUS * ("Iron Will" in feats),
    )
    standard, full = _attack_routines(cls, level, bab, m, feats, schedule, "crossbow-reload" not in legacy)
    highest = LEGACY_HIGHEST_SPELL_LEVEL if "high-level-spells" in legacy else HIGHEST_SUPPORTED_SPELL_LEVEL
    spellcasting = _spellcasting(cls, level, m, die, domain_spells, highest)
    notes = _notes(cls, level, feats, features, legacy)
    return Creature(
        name=f"{cls}-{level}",
        title=f"Human {cls.capitalize()} {level}",
        side="pc",
        size="medium",
        type="humanoid",
        subtypes=("human",),
        class_levels={cls: level},
        hp=hp,
        hit_dice=_signed(f"{level}d{hd}", level * m["con"] + TOUGHNESS_HP * feats.count("Toughness")),
        first_hit_die=hd,
        initiative=m["dex"] + IMPROVED_INITIATIVE * ("Improved Initiative" in feats),
        speed=speed,
        ac=ac,
        touch_ac=touch,
        flat_footed_ac=flat,
        deflection=scheduled("deflection", level, schedule) or 0,
        bab=bab,
        grapple=bab + m["str"],
        abilities=Abilities(**scores),
        saves=saves,
        attack=standard,
        full_attack=full,
        feats=feats,
        # SRD 3.5 rogue: evasion (2nd), uncanny dodge (4th), improved uncanny dodge (8th: "at least four more rogue
        # levels than the target" flank her), and the special abilities chosen (ROGUE_SPECIAL_ABILITIES)
        evasion="evasion" in modelled,
        improved_evasion="improved evasion" in modelled,
        uncanny_dodge="uncanny dodge" in modelled,
        improved_uncanny_dodge=level if "improved uncanny dodge" in modelled else 0,
        defensive_roll="defensive roll" in modelled,
        class_features=features,
        spellcasting=spellcasting,
        tactics="caster" if spellcasting else "focus-weakest",
        notes=" ".join(notes),
        source="generated: SRD 3.5 class tables + arena/world/party.py assumptions",
    )


def _spellcasting(
    cls: str, level: int, m: dict[str, int], die: str, domain_spells: str, highest: int
) -> Spellcasting | None:
    """The cleric's and the wizard's spells: caster level = class level, the key ability's bonus slots, the
    rotation's spells in them (and the cleric's domain slot); None for the fighter and the rogue."""
    if cls not in ("cleric", "wizard"):
        return None
    key = KEY_ABILITY[cls]
    return Spellcasting(
        caster_level=level,
        ability=key,
        casting_class=cls,
        prepared=_prepared(cls, level, m[key], die, domain_spells, highest),
        domains=DOMAINS if cls == "cleric" else (),
    )


def _armor_class(
    cls: str,
    level: int,
    m: dict[str, int],
    feats: tuple[str, ...],
    schedule: dict[str, dict[int, int]],
    legacy: frozenset[str],
) -> tuple[int, int, int, int]:
    """AC, touch AC, flat-footed AC and speed from the class's armour schedule, shield, Dex, rings and feats."""
    armor = piece_at(ARMOR_BY_LEVEL[cls], level)
    armor_bonus = 0
    max_dex = None
    speed = 30
    if armor is not None:
        armor_bonus = armor.bonus + (scheduled("armor", level, schedule) or 0)
        max_dex, speed = armor.max_dex, armor.speed
    if cls == "wizard":
        armor_bonus = scheduled("bracers", level, schedule) or 0
    shield_bonus = 0
    if cls in SHIELD_USERS:
        shield_bonus = HEAVY_STEEL_SHIELD.bonus + (scheduled("shield", level, schedule) or 0)
    dex_ac = m["dex"] if max_dex is None else min(m["dex"], max_dex)
    deflection = scheduled("deflection", level, schedule) or 0
    natural = scheduled("natural", level, schedule) or 0
    # SRD stat blocks never count Dodge in AC (the engine adds it against the designated foe); the model before
    # 0.4 counted it in (legacy "dodge-printed-ac")
    dodge = DODGE_AC if "Dodge" in feats and "dodge-printed-ac" in legacy else 0
    ac = 10 + armor_bonus + shield_bonus + dex_ac + deflection + natural + dodge
    touch = 10 + dex_ac + deflection + dodge
    flat = ac - max(dex_ac, 0) - dodge
    return ac, touch, flat, speed


def _attack_routines(
    cls: str,
    level: int,
    bab: int,
    m: dict[str, int],
    feats: tuple[str, ...],
    schedule: dict[str, dict[int, int]],
    one_crossbow_shot: bool = True,
) -> tuple:
    """The standard-action and full-attack routines: the class's main weapon (with its enhancement) and a second
    one (the wizard's quarterstaff, everyone else's light crossbow). The light crossbow fires once a round
    (reloading it is a move action): one bonus in both routines."""
    enh = scheduled("weapon", level, schedule) if cls != "wizard" else None
    to_hit_item = 0 if enh is None else max(enh, 1)  # masterwork = +1 to hit
    dmg_item = enh or 0
    attacks = [_attack(MAIN_WEAPON[cls], cls, bab, m, feats, to_hit_item, dmg_item, level, one_crossbow_shot)]
    second = QUARTERSTAFF if cls == "wizard" else LIGHT_CROSSBOW
    attacks.append(_attack(second, cls, bab, m, feats, 0, 0, level, one_crossbow_shot))
    standard = tuple((a.model_copy(update={"bonuses": a.bonuses[:1]}),) for a in attacks)
    full = tuple((a,) for a in attacks)
    return standard, full


def _notes(
    cls: str, level: int, feats: tuple[str, ...], features: tuple[str, ...], legacy: frozenset[str]
) -> list[str]:
    """What the generated PC's notes say: its assumptions, its gear's value, and what is not modelled."""
    table = "Pathfinder, the former plan" if "party-gear" in legacy else "3.5"
    notes = [
        f"Generated {cls} {level} (human; assumptions in arena/world/party.py).",
        f"Gear value {gear_cost(cls, level, legacy)} gp of {wealth_by_level(level, legacy)} gp wealth by level "
        f"({table}).",
    ]
    if legacy:
        notes.append("Former behaviour (legacy): " + ", ".join(sorted(legacy)) + ".")
    worn = worn_items(cls, level, legacy)
    if any(p.bonus for item in worn for p in item.powers):
        notes.append("Worn: " + "; ".join(str(item) for item in worn) + ".")
    unmodelled = [f for f in feats if f in NOT_MODELLED_FEATS]
    if unmodelled:
        notes.append("Feats not modelled: " + ", ".join(unmodelled) + ".")
    if "class-features" in legacy:  # the notes as they were
        if cls == "rogue":
            specials = [
                "evasion" if level >= 2 else "",
                "uncanny dodge" if level >= 4 else "",
                f"trap sense +{level // 3}" if level >= 3 else "",
            ]
            notes.append("Not modelled: trapfinding" + "".join(f", {s}" for s in specials if s) + ".")
        if cls == "cleric":
            notes.append("Domains Luck and Healing; turn undead not modelled.")
        return notes
    if features:
        notes.append("Class features: " + ", ".join(features) + ".")
    unmodelled = [f for f in features if feature_name(f) in NOT_MODELLED_FEATURES]
    if unmodelled:
        notes.append(
            "Class features not modelled: "
            + "; ".join(f"{f} ({NOT_MODELLED_FEATURES[feature_name(f)]})" for f in unmodelled)
            + "."
        )
    return notes


def _attack(
    weapon: Weapon,
    cls: str,
    bab: int,
    m: dict[str, int],
    feats: tuple[str, ...],
    to_hit_item: int,
    dmg_item: int,
    level: int,
    one_crossbow_shot: bool = True,
) -> Attack:
    ranged = weapon.kind == "ranged"
    finesse = "Weapon Finesse" in feats and weapon == RAPIER
    ability_hit = m["dex"] if ranged or finesse else m["str"]
    focus = WEAPON_FOCUS * sum(
        f in feats for f in (f"Weapon Focus ({weapon.name})", f"Greater Weapon Focus ({weapon.name})")
    )
    spec = WEAPON_SPECIALIZATION * sum(
        f in feats for f in (f"Weapon Specialization ({weapon.name})", f"Greater Weapon Specialization ({weapon.name})")
    )
    first = bab + ability_hit + to_hit_item + focus
    dmg_bonus = (0 if ranged else m["str"]) + dmg_item + spec
    damage = _signed(weapon.damage_die, dmg_bonus)
    threat = weapon.threat
    if f"Improved Critical ({weapon.name})" in feats:
        threat = 21 - 2 * (21 - threat)  # SRD: the threat range doubles (19-20 -> 17-20)
    sneak = f"{(level + 1) // 2}d6" if cls == "rogue" else None
    # reloading a light crossbow is a move action (SRD 3.5; Rapid Reload is not taken): one shot a round
    bonuses = (first,) if weapon == LIGHT_CROSSBOW and one_crossbow_shot else iteratives(first, bab)
    return Attack(
        name=weapon.name,
        bonuses=bonuses,
        damage=damage,
        damage_types=weapon.damage_types,
        threat=threat,
        multiplier=weapon.multiplier,
        kind="ranged" if ranged else "melee",
        sneak_attack=sneak,
        materials=("magic",) if to_hit_item >= 1 and dmg_item >= 1 else (),
        finesse=finesse,
    )


def _signed(dice: str, bonus: int) -> str:
    """``1d8`` and 3 -> ``1d8+3``; -1 -> ``1d8-1``; 0 -> ``1d8``."""
    return dice + (f"+{bonus}" if bonus > 0 else str(bonus) if bonus < 0 else "")


def generate_party(
    level: int,
    die: str = "d20",
    *,
    hit_points: str = "average",
    domain_spells: str = "by-die",
    legacy: Iterable[str] = frozenset(),
) -> list[Creature]:
    """The fighter, cleric, rogue and wizard of ``level`` (1-20); ``die`` ("d20" or "3d6") picks the Luck-domain
    spells that exist only under the bell curve (unless ``domain_spells="standard"``); ``hit_points`` as in
    :func:`build_character`, and ``legacy`` too."""
    return [
        build_character(cls, level, die, hit_points=hit_points, domain_spells=domain_spells, legacy=legacy)
        for cls in CLASSES
    ]


def load_party(path: Readable | os.PathLike | str) -> list[Creature]:
    """A hand-written party: a YAML list of stat blocks (or one), validated by :class:`Creature` with
    ``file:line: field`` errors. Every member must be ``side: pc``."""
    doc = load_yaml(path)
    members = []
    for creature, where in iter_models(doc, Creature):
        if creature.side != "pc":
            raise ArenaError(f"{doc.where((*where, 'side'))}: {creature.name}: a party member needs side: pc")
        members.append(creature)
    if not members:
        raise ArenaError(f"{doc.where()}: the party is empty")
    return members


def _check_die(die: str) -> str:
    if die not in DIES:
        raise ArenaError(f"die must be 'd20' or '3d6', not {die!r}")
    return die


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ArenaError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value
