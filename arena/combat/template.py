"""A stat block compiled once for every fight: plain slotted objects built from the pydantic stat blocks.

A :class:`Template` holds what never changes in a fight (compiled attacks, defences, spells prepared); each
encounter copies its mutable state into a fresh :class:`arena.combat.combatant.Combatant`. Pydantic stays at the
edges: the hot loop touches only these objects.
"""

from __future__ import annotations

from typing import Any

from arena.combat.ability_hooks import compile_abilities
from arena.dice import DiceExpr, parse
from arena.rules import Check
from arena.world.creatures import Creature
from arena.world.stat_types import PartName, ability_modifier

ABILITY_KEYS = ("str", "dex", "con", "int", "wis", "cha")
_PARTS_IDS: dict[tuple, int] = {}


class CompiledAttack:
    """One attack of a routine, with its dice parsed."""

    def __init__(self, attack: Any, bonus: int = 0) -> None:
        """``attack``: the stat block's :class:`~arena.world.attacks.Attack`; ``bonus``: added to each of its attack
        rolls (a charge's +2: :meth:`with_bonus`)."""
        self.source = attack
        self.bonus = bonus
        self.name = attack.name
        self.bonuses = tuple(b + bonus for b in attack.bonuses)
        self.count = attack.count
        self.damage: DiceExpr = parse(attack.damage)
        self.types = frozenset(attack.damage_types)
        self.extra = parse(attack.extra_damage) if attack.extra_damage else None
        self.extra_type = attack.extra_damage_type
        self.threat = attack.threat
        self.multiplier = attack.multiplier
        self.ranged = attack.kind == "ranged"
        self.touch = attack.touch
        self.sneak = parse(attack.sneak_attack) if attack.sneak_attack else None
        self.trip = attack.trip
        self.trip_modifier = attack.trip_modifier
        self.overcomes = frozenset(attack.damage_types) | frozenset(attack.materials)
        self.max_damage = self.damage.maximum
        self.full_bonuses = tuple(b for b in self.bonuses for _ in range(self.count))
        """The attack bonuses of a full attack with this entry: each iterative bonus, ``count`` times."""
        self.first_bonus = self.full_bonuses[:1]
        """A standard attack: the first bonus only."""
        self.damage_table = self.damage.table
        """Every equally likely damage roll (one draw per roll), or None when there are too many."""
        self.rider = False
        """A hit with it does more than damage: an ability rides on it (improved grab, paralysis: the ``on_hit`` hooks
        of :mod:`arena.abilities`)."""
        self.finesse = attack.finesse and not self.ranged
        """Weapon Finesse: its attack roll uses the better of Dexterity and Strength, so lost points of either
        change it as they change that one (:attr:`~arena.combat.combatant.Combatant.finesse_shift`)."""
        self.harmless = attack.harmless
        """It deals no hit-point damage, only its riders' (a shadow's touch): its one damage roll is
        :data:`HARMLESS_ROLL`, which the swing's minimum-damage branch turns into 0 (the hot path is unchanged)."""
        if self.harmless:
            self.damage_table = (HARMLESS_ROLL,)
            self.max_damage = 0

    def with_bonus(self, bonus: int) -> CompiledAttack:
        """This attack with ``bonus`` more on each of its attack rolls, its rider kept (built from its stat block
        again: a native class is not copied)."""
        out = CompiledAttack(self.source, self.bonus + bonus)
        out.rider = self.rider
        return out

    def swings(self) -> list[int]:
        return list(self.full_bonuses)


def _routines(routines) -> tuple[tuple[CompiledAttack, ...], ...]:
    return tuple(tuple(CompiledAttack(a) for a in routine) for routine in routines)


def _pick(routines: tuple[tuple[CompiledAttack, ...], ...], ranged: bool) -> tuple[CompiledAttack, ...]:
    """The first routine of the wanted kind (melee or ranged), else the first routine."""
    for routine in routines:
        if routine and routine[0].ranged == ranged:
            return routine
    return routines[0] if routines else ()


HARMLESS_ROLL = -1_000_000
"""The damage roll of a harmless attack: below 1 whatever bonuses add, so the swing's minimum-damage branch sees it."""
DODGE_AC = 1
"""SRD 3.5 Dodge: +1 dodge bonus to AC against attacks from one opponent designated on one's action."""
HELPLESS_DEX_MODIFIER = -5
"""SRD 3.5: a helpless defender is treated as having a Dexterity of 0 (-5 modifier)."""
REFERENCE_AC_ABOVE_HD = 12
"""Choosing between a creature's melee and ranged weapons: expected damage against AC 12 + its Hit Dice (about a
monster of a CR equal to a PC's level)."""


def spell_focus(feats) -> dict[str, int]:
    """School -> +1 per Spell Focus and Greater Spell Focus in that school (SRD 3.5 feats)."""
    out: dict[str, int] = {}
    for feat in feats:
        name, _, school = feat.partition(" (")
        if name in ("Spell Focus", "Greater Spell Focus") and school.endswith(")"):
            key = school[:-1].strip().lower()
            out[key] = out.get(key, 0) + 1
    return out


def _expected_damage(routine, armor_class: int) -> float:
    total = 0.0
    for attack in routine:
        for bonus in attack.full_bonuses:
            hit = min(0.95, max(0.05, (21 - (armor_class - bonus)) / 20))
            total += hit * max(1.0, attack.damage.mean)
    return total


def shoots_better(t: Template) -> bool:
    """Its full ranged routine deals more expected damage than its full melee routine against a reference AC
    (:data:`REFERENCE_AC_ABOVE_HD`): a caster with a crossbow and a better mace stays in the melee."""
    if not t.ranged_full or not t.ranged_full[0].ranged:
        return False
    melee = t.full if t.full and not t.full[0].ranged else ()
    armor_class = REFERENCE_AC_ABOVE_HD + t.hd
    return _expected_damage(t.ranged_full, armor_class) >= _expected_damage(melee, armor_class)


class Template:
    """Everything about a creature that a fight reads but never changes."""

    def __init__(self, creature: Creature, name: str) -> None:
        self.name = name
        self.creature = creature
        self.set_side(creature.side)
        self.max_hp = creature.hp
        self.ac, self.touch_ac, self.ff_ac = creature.ac, creature.touch_ac, creature.flat_footed_ac
        self.deflection = creature.deflection
        """The deflection bonus counted in the ACs: a deflection spell adds only what it gives beyond it."""
        self.spell_worth: dict[tuple, float] = {}
        self.coup_attack: CompiledAttack | None | bool = False
        """The attack its coup de grace is delivered with under the SRD's rules, once worked out
        (:func:`arena.combat.tactics.view.coup_weapon`); False until then."""
        """What its damage spells are worth at each target template, by spell, slot and the bonuses that move it
        (:func:`arena.combat.tactics.spell_aim.spell_value`): an encounter's fights share it, as they share this."""
        self.dodge = DODGE_AC if "Dodge" in creature.feats else 0
        """Dodge: +1 against one designated opponent only, on top of the printed AC (the SRD never counts it there);
        :func:`arena.combat.attacks.dodge_bonus`."""
        denied = creature.ac - creature.flat_footed_ac
        """What the creature loses when denied its Dexterity bonus (positive Dex to AC, dodge bonuses)."""
        self.ff_touch_ac = creature.touch_ac - max(denied, 0)
        dex = ability_modifier(creature.abilities.dex)
        dex_zero = -HELPLESS_DEX_MODIFIER + min(dex, 0)  # Dexterity 0 replaces a negative modifier too
        self.helpless_ac = creature.flat_footed_ac - dex_zero
        self.helpless_touch_ac = self.ff_touch_ac - dex_zero
        """SRD: a helpless defender is treated as having Dexterity 0 (a -5 modifier)."""
        self.saves = {"fort": creature.saves.fort, "ref": creature.saves.ref, "will": creature.saves.will}
        self.initiative = creature.initiative
        self.hd = sum(count for sign, count, sides, _ in parse(creature.hit_dice).dice if sign > 0) or 1
        self.type = creature.type
        self.subtypes = frozenset(creature.subtypes)
        self.humanoid = creature.type == "humanoid"
        self.immunities = frozenset(creature.all_immunities)
        self.vulnerabilities = frozenset(creature.all_vulnerabilities)
        self.resist = dict(creature.energy_resistance)
        dr = creature.damage_reduction
        self.dr_amount = dr.amount if dr else 0
        self.dr_overcome = frozenset(dr.overcome_by) if dr and not dr.all_needed else frozenset()
        self.dr_all = frozenset(dr.overcome_by) if dr and dr.all_needed else None
        """DR x/a and b (SRD 3.5 lantern archon, 10/evil and magic): only a weapon that is all of them bypasses it."""
        regen = creature.regeneration
        self.regen = regen.amount if regen else 0
        self.regen_overcome = frozenset(regen.overcome_by) if regen else frozenset()
        self.fast_healing = creature.fast_healing
        self.heals_itself = bool(self.regen or self.fast_healing)
        """Regeneration or fast healing: something to do at the start of each of its turns."""
        self.sr = creature.spell_resistance
        standard = _routines(creature.attack)
        full = _routines(creature.full_attack or creature.attack)
        self.standard, self.full = _pick(standard, False), _pick(full, False)
        self.ranged_standard, self.ranged_full = _pick(standard, True), _pick(full, True)
        self.prefers_ranged = bool(self.full) and self.full[0].ranged
        self.abilities = {k: getattr(creature.abilities, k) for k in ABILITY_KEYS}
        self.con = self.abilities["con"]
        self.str_mod = ability_modifier(self.abilities["str"])
        self.trip_defence = max(self.str_mod, ability_modifier(self.abilities["dex"]))
        """Against a trip: the better of the Strength and Dexterity modifiers."""
        self.plain_defences = not (self.immunities or self.resist or self.vulnerabilities or self.dr_amount)
        """No immunity, energy resistance, vulnerability or damage reduction: damage lands as rolled."""
        self.ray_bonus = creature.bab + ability_modifier(self.abilities["dex"])
        """A ray is a ranged touch attack: base attack bonus + Dexterity modifier."""
        casting = creature.spellcasting
        self.spell_focus = spell_focus(creature.feats)
        if casting:
            self.caster_level = casting.caster_level
            self.spell_dc_base = 10 + creature.abilities.modifier(casting.ability)
            self.spells = {level: tuple(names) for level, names in casting.prepared.items()}
            self.spell_levels = sum(level * len(names) for level, names in self.spells.items())
            """The levels of every spell it has prepared, summed (issue 26: the party's spells as a resource)."""
            self.luck_domain = any(d.lower() == "luck" for d in casting.domains)
            self.healing_domain = any(d.lower() == "healing" for d in casting.domains)
            ranks = casting.caster_level + 3 if casting.casting_class else casting.caster_level
            self.concentration = ranks + ability_modifier(self.abilities["con"])
            """Concentration: maximum ranks for a class caster (level + 3), the caster level for a monster's
            innate casting, plus Con (the check a full-round spell needs when the caster is hurt)."""
        else:
            self.caster_level, self.spell_dc_base, self.spells, self.luck_domain = 0, 10, {}, False
            self.healing_domain, self.concentration = False, 0
            self.spell_levels = 0
        self.shoots_better = shoots_better(self)
        self._special_abilities(creature)

    def _special_abilities(self, creature: Creature) -> None:
        """Ferocity and the other abilities of the stat block, compiled; those of the ability modules
        (:mod:`arena.abilities`) through their hooks."""
        self.ferocity, self.grapple = creature.ferocity, creature.grapple
        compiled = compile_abilities(creature)
        self.ability_data = compiled.data
        """Each ability module's compiled value, by its stat-block field (:mod:`arena.combat.ability_hooks`)."""
        self.turn_start_hooks = compiled.turn_start
        """What its abilities do at the start of each of its turns, in order; and at its other moments below."""
        self.first_action_hooks = compiled.first_action
        self.instead_of_attack_hooks = compiled.instead_of_attack
        self.on_hit_hooks = compiled.on_hit
        self.grip_turn_hook = compiled.grip_turn
        self.choose_action_hooks = compiled.choose_action
        self.routine_hooks = compiled.routine
        self.after_attack_hooks = compiled.after_attack
        self.after_routine_hooks = compiled.after_routine
        self.on_damaged_hooks = compiled.on_damaged
        self.damage_stopped_hooks = compiled.damage_stopped
        self.closes_in_full = compiled.closes_in_full
        """Its first round's attack is a full attack, as it closes in (pounce)."""
        self.rake = compiled.data.get("rake")
        """Its rake, compiled (:mod:`arena.abilities.pounce`): the grapple's turn rakes a held foe with it."""
        self.incorporeal = creature.incorporeal
        if self.incorporeal:
            self.plain_defences = False
        self.evasion = creature.evasion
        self.improved_evasion = creature.improved_evasion
        self.uncanny_dodge = creature.uncanny_dodge
        """Keeps its Dexterity bonus to AC when flat-footed or struck unseen (under the ``class-features`` fix)."""
        self.flank_guard = creature.improved_uncanny_dodge
        """Improved uncanny dodge: only a rogue of this level + 4 flanks it (0: anyone may)."""
        self.rogue_level = creature.class_levels.get("rogue", 0)
        self.defensive_roll = creature.defensive_roll
        self.invisible = creature.invisible
        self.compile_flags()
        riders = compiled.riders
        for routine in (self.full, self.standard):
            for a in routine:
                a.rider = a.name in riders
        self.policy = creature.tactics
        self.first_hit_die = creature.first_hit_die or 8
        self.parts: dict[PartName, tuple[int, int]] = {
            p.part: (p.count, 0 if p.ac_bonus is None else p.ac_bonus) for p in creature.called_shot_parts
        }
        """Each body part's (count, AC bonus); the bonus is never None (BodyPart's validator sets it)."""
        """part -> (how many, improved-AC bonus)."""
        self.parts_key = _PARTS_IDS.setdefault(tuple(sorted(self.parts.items())), len(_PARTS_IDS))
        """A small number naming this set of parts and their AC bonuses (a cheap key for cached decisions)."""

    def compile_flags(self) -> None:
        """What a turn must look at, from the abilities: a flag each, so that a creature without them pays one test
        (:mod:`arena.combat.specials`)."""
        self.special_turn = bool(self.instead_of_attack_hooks)
        """Its turn may go to a special action (summoning, a whirlwind, crush, roar, smite) instead of its attack: an
        ability's ``instead_of_attack`` hook."""
        self.special_action = bool(self.choose_action_hooks)
        """Its policy looks at a special action before its weapons (a breath weapon, a web, a trample): an ability's
        ``choose_action`` hook."""
        self.presence = bool(self.first_action_hooks)
        """Its first action frightens, stinks or spreads its aura: its abilities' ``first_action`` hooks
        (:func:`arena.combat.abilities.presence`)."""
        self.on_action = bool(
            self.dodge
            or self.presence
            or self.special_turn
            or any("invisibility" in names for names in self.spells.values())
        )
        """Acting does something besides the action: Dodge designates, frightful presence frightens, a special
        action may take the turn."""
        self.turn_start = self.heals_itself or bool(self.turn_start_hooks)
        """Something to do at the start of each of its turns: regeneration or fast healing, an ability's
        ``turn_start`` hook (a gaze, a free action: smoke, entangling plants, an eye ray, a song kept up)."""

    def set_side(self, side: str) -> None:
        """Which side the creature fights on in this encounter (a PC stat block may fight as a monster)."""
        self.side = side
        self.initiative_check = Check("initiative", side, self.creature.initiative, 0)
        self.initiative_reroll_check = self.initiative_check._replace(reroll_low=True)
        """Its initiative with the Luck domain's reroll of a low natural (built once, not on every fight)."""
