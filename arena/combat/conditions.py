"""Conditions and their durations: bless, shield of faith, stuns, holds, sleep, auspicious odds ...

A condition is a deadline on the fight's clock (``[ends, data]`` in ``c.conditions``); the fight keeps the earliest
deadline of all (``f.next_expiry``) so that a turn checks one number, not every creature. Owns adding and dropping
conditions (and the bonuses they carry), ending those whose time has come, the held creature's save to break
free, and the entangled creature's turn (:func:`web_turn`: it fights where it stands, or escapes or bursts the
web). Calls the rolls and states below it; the functions take the fight first (see :mod:`arena.combat.rolls`).
"""

from __future__ import annotations

from arena.combat.clock import ROUND
from arena.combat.combatant import INFINITY, Combatant
from arena.combat.fight_state import FightState
from arena.combat.rolls import resolve, save
from arena.combat.states import DEAD_AT, DEATH_DRAIN, die, refresh, strain
from arena.dice import parse
from arena.rules import Check
from arena.world.party_skills import escape_artist
from arena.world.stat_types import ability_modifier

SICKENED = -2
"""SRD 3.5 sickened: -2 on attack rolls, weapon damage rolls, saving throws, skill checks and ability checks."""
ENTANGLED = -2
"""SRD 3.5 entangled: -2 on attack rolls and -4 Dexterity (-2 AC)."""
RAGE_AC = 2
"""Rage's -2 AC (:mod:`arena.abilities.rage`; its +2 on melee attack and damage rolls is ``c.raging``)."""
NEGATIVE_LEVEL_HP = 5
"""SRD 3.5: each negative level costs 5 hit points."""

SHAKEN = -2
"""SRD 3.5 shaken: -2 on attack rolls, saving throws, skill checks and ability checks."""
MENACED = -2
"""SRD 3.5 aura of menace: "a -2 penalty on attacks, AC, and saves"."""
CHOKING = -2
"""SRD 3.5 nightmare's smoke: "a -2 penalty on all attack and damage rolls"."""
UNNERVED = -2
"""SRD 3.5 chain devil's unnerving gaze: "a -2 penalty on attack rolls for 1d3 rounds"."""
CHARGING_AC = -2
"""SRD 3.5 charge: "You take a -2 penalty to your AC until the start of your next turn" (a pounce,
:mod:`arena.abilities.pounce`)."""
FATIGUED, EXHAUSTED = -1, -3
"""SRD 3.5 fatigued (-2 Strength and Dexterity) and exhausted (-6): their change to the two modifiers."""
PENALTIES = frozenset(
    {"shaken", "entangled", "sickened", "menaced", "choking", "carried", "fatigued", "exhausted", "unnerved"}
) | {"charging"}
"""Conditions that change a creature's numbers beyond bless and shield of faith (carried: a whirlwind's captive,
-2 on attack rolls and -4 Dexterity as entangled; charging: -2 AC until its next turn)."""


def add_condition(f: FightState, target: Combatant, name: str, seconds: float, **data) -> None:
    """``target`` is under ``name`` for ``seconds`` from the current turn."""
    ends = f.instant + seconds
    conditions = target.conditions
    if name == "bless" and "bless" not in conditions:  # the common buffs, kept incrementally (hot set-up)
        target.attack_bonus += 1
        fast = True
    elif name == "shield of faith":
        old = conditions.get(name)
        target.ac_bonus += data["bonus"] - (old[1]["bonus"] if old else 0)
        fast = True
    else:
        fast = False
    conditions[name] = [ends, data]
    if ends < target.expires_at:
        target.expires_at = ends
    if ends < f.next_expiry:
        f.next_expiry = ends
    refresh(f, target)
    if not fast and name in BONUS_CONDITIONS:
        recompute_bonuses(target)
    if name in TURN_CONDITIONS:
        target.afflicted = True
    if f.lines is not None:
        lasting = seconds >= FOREVER
        how_long = "for the rest of the fight" if lasting else f"for {int(seconds // ROUND)} rounds"
        f.log(
            f"{target.name}: {name} {how_long}",
            actor=target.name,
            action="condition",
            condition=name,
            rounds=None if lasting else int(seconds // ROUND),
        )


def drop_condition(f: FightState, c: Combatant, name: str) -> None:
    data = c.conditions.pop(name)[1]
    refresh(f, c)
    if name == "bless":
        c.attack_bonus -= 1
    elif name == "shield of faith":
        c.ac_bonus -= data["bonus"]
    elif name in BONUS_CONDITIONS:
        recompute_bonuses(c)
    elif "undo" in data:
        data["undo"]()
    elif name == "poisoned" and not c.dead:
        secondary_poison(f, c, data)


BONUS_CONDITIONS = frozenset({"bless", "shield of faith"}) | PENALTIES
"""Conditions that change a creature's attack, AC or save bonuses."""
TURN_CONDITIONS = frozenset({"entangled", "slowed"})
"""Conditions its turn must look at (:attr:`Combatant.afflicted`)."""


def recompute_bonuses(c: Combatant) -> None:
    """A creature's situational bonuses from everything in force: bless (+1 on attack rolls), shaken (-2 on attack
    rolls, saves and checks), sickened (-2 on attack rolls, weapon damage, saves and checks), entangled (-2 on
    attack rolls and AC), shield of faith (AC), negative levels (-1 on attacks and saves each) and lost
    ability points (Strength: melee attack and damage; Dexterity: AC, ranged attacks and Reflex; Constitution:
    Fortitude; Wisdom: Will)."""
    conditions = c.conditions
    if (
        c.ability_mods is None and not c.negative_levels and not c.raging and PENALTIES.isdisjoint(conditions)
    ):  # bless, shield of faith only
        c.attack_bonus = 1 if "bless" in conditions else 0
        shield = conditions.get("shield of faith")
        c.ac_bonus = shield[1]["bonus"] if shield else 0
        c.save_bonus = c.damage_bonus = c.finesse_shift = 0
        c.save_mods = None
        return
    sick = SICKENED if "sickened" in conditions else 0
    menaced = MENACED if "menaced" in conditions else 0
    held = (ENTANGLED if "entangled" in conditions else 0) + (ENTANGLED if "carried" in conditions else 0)
    shaken = (
        (SHAKEN if "shaken" in conditions else 0)
        + held
        + sick
        + menaced
        + (CHOKING if "choking" in conditions else 0)
        + (UNNERVED if "unnerved" in conditions else 0)
    )
    levels = c.negative_levels
    mods = c.ability_mods or {}
    tired = EXHAUSTED if "exhausted" in conditions else FATIGUED if "fatigued" in conditions else 0
    if tired:  # -2 (or -6) Strength and Dexterity
        mods = {**mods, "str": mods.get("str", 0) + tired, "dex": mods.get("dex", 0) + tired}
    rage = c.raging  # its rage's +2 (a blood frenzy's +1), 0 when it does not rage
    c.attack_bonus = (
        (1 if "bless" in conditions else 0)
        + shaken
        - levels
        + (mods.get("dex", 0) if c.ranged else mods.get("str", 0) + rage)
    )
    c.save_bonus = (SHAKEN if "shaken" in conditions else 0) + sick - levels + menaced
    shield = conditions.get("shield of faith")
    c.ac_bonus = (
        (shield[1]["bonus"] if shield else 0) + mods.get("dex", 0) - (RAGE_AC if c.raging else 0) + held + menaced
    )
    if "charging" in conditions:
        c.ac_bonus += CHARGING_AC
    c.damage_bonus = sick + (CHOKING if "choking" in conditions else 0) + (0 if c.ranged else mods.get("str", 0) + rage)
    c.save_mods = {"fort": mods.get("con", 0), "ref": mods.get("dex", 0), "will": mods.get("wis", 0)} if mods else None
    c.finesse_shift = _finesse_shift(c, mods) if mods else 0


def _finesse_shift(c: Combatant, mods: dict[str, int]) -> int:
    """What a Weapon Finesse attack's roll takes beside ``c.attack_bonus`` (which counts lost Strength on melee
    attacks, lost Dexterity on ranged ones). SRD 3.5 Weapon Finesse: "With a light weapon, rapier, whip, or spiked
    chain made for a creature of your size category, you may use your Dexterity modifier instead of your Strength
    modifier on attack rolls": the attack's printed bonus holds the better modifier, and it keeps the better one
    of the two as they are now, so lost Strength leaves a rogue's rapier alone and lost Dexterity lowers it."""
    scores = c.t.abilities
    strength, dex = scores["str"], scores["dex"]
    s0 = ability_modifier(strength) if strength is not None else None
    d0 = ability_modifier(dex) if dex is not None else 0
    ds, dd = mods.get("str", 0), mods.get("dex", 0)
    counted = dd if c.ranged else ds
    if s0 is None:  # no Strength score (incorporeal): Dexterity already
        return dd - counted
    return max(s0 + ds, d0 + dd) - max(s0, d0) - counted


LOST_AT_ZERO = {
    "str": "helpless",
    "dex": "helpless",
    "int": "knocked-out",
    "wis": "knocked-out",
    "cha": "knocked-out",
}
"""SRD 3.5 ability scores: "A character with a Strength score of 0 falls to the ground and is helpless", "A
character with a Dexterity score of 0 ... is helpless"; Intelligence, Wisdom or Charisma 0: "unconscious"
(knocked out); Constitution 0 kills. ``helpless`` lasts the fight (the points come back in days, not rounds); the
model before the ``strength-zero`` fix paralyzed the creature (:data:`LEGACY_AT_ZERO`)."""
LEGACY_AT_ZERO = {**LOST_AT_ZERO, "str": "paralyzed", "dex": "paralyzed"}
"""Strength or Dexterity 0 as the model had it before the ``strength-zero`` fix: paralyzed for the fight."""
FOREVER = 1e9
"""Seconds: a condition that lasts the rest of the fight."""


def lose_ability(f: FightState, c: Combatant, loss, source: Combatant | None, dies_at_zero: bool = False) -> int:
    """``c`` loses ``loss`` (an :class:`~arena.world.creatures.AbilityLoss`): the score falls, its modifier with it
    (Constitution: hit points, 1 per Hit Die per point of modifier, at once). At 0 the score leaves it helpless or
    unconscious (:data:`LOST_AT_ZERO`), or dead when ``dies_at_zero`` (SRD 3.5 shadow: "A creature reduced to
    Strength 0 by a shadow dies"). Returns the points lost."""
    t = c.t
    ability = loss.ability
    base = t.abilities[ability]
    if c.dead or base is None or ("ability drain" if loss.drain else "ability damage") in t.immunities:
        return 0
    losses, mods = c.ability_loss, c.ability_mods
    if losses is None or mods is None:
        losses, mods = c.ability_loss, c.ability_mods = {}, {}
    before = losses.get(ability, 0)
    lost = min(base, before + parse(loss.dice).roll(f.stream))
    losses[ability] = lost
    old_mod = mods.get(ability, 0)
    new_mod = ability_modifier(base - lost) - ability_modifier(base)
    mods[ability] = new_mod
    if f.lines is not None:
        f.log(
            f"{c.name} loses {lost - before} {ability.capitalize()} ({base - lost} left)",
            actor=c.name,
            action="ability-loss",
            ability=ability,
            amount=lost - before,
            left=base - lost,
        )
    if ability == "con" and new_mod < old_mod:
        c.hp -= t.hd * (old_mod - new_mod)
    if base - lost <= 0 and before < base:
        if ability == "con" or (dies_at_zero and f.flags.fix_strength_zero):
            c.hp = min(c.hp, DEAD_AT)
            if f.lines is not None and ability != "con":
                f.log(
                    f"{c.name} is reduced to {ability.capitalize()} 0 by {source.name if source else 'it'}: it dies",
                    actor=c.name,
                    action="ability-zero",
                    ability=ability,
                    source=source.name if source else None,
                )
        else:
            add_condition(f, c, (LOST_AT_ZERO if f.flags.fix_strength_zero else LEGACY_AT_ZERO)[ability], FOREVER)
    if c.hp <= DEAD_AT and not c.dead:
        die(f, c, DEATH_DRAIN)
    else:
        refresh(f, c)
    recompute_bonuses(c)
    return lost - before


def drain_levels(f: FightState, c: Combatant, levels: int) -> None:
    """Energy drain: ``levels`` negative levels (-1 on attack rolls and saves, -5 hit points each); as many negative
    levels as Hit Dice kill (SRD 3.5)."""
    if c.dead or "energy drain" in c.t.immunities:
        return
    c.negative_levels += levels
    c.hp -= NEGATIVE_LEVEL_HP * levels
    if f.lines is not None:
        f.log(
            f"{c.name} gains {levels} negative level{'s' * (levels > 1)} ({c.negative_levels} in all)",
            actor=c.name,
            action="negative-levels",
            amount=levels,
            total=c.negative_levels,
        )
    if c.negative_levels >= c.t.hd or c.hp <= DEAD_AT:
        c.hp = min(c.hp, DEAD_AT)
        die(f, c, DEATH_DRAIN)
    else:
        refresh(f, c)
    recompute_bonuses(c)


def secondary_poison(f: FightState, c: Combatant, data: dict) -> None:
    """One minute after a poisoning: a second save or the secondary damage."""
    poison = data["poison"]
    if (poison.secondary is not None or poison.secondary_unconscious is not None) and not save(
        f, c, poison.save, poison.dc, None
    ).success:
        if poison.secondary is not None:
            lose_ability(f, c, poison.secondary, None)
        elif "sleep" not in c.t.immunities:  # a sleep poison's secondary damage: unconscious again, longer
            knock_out_for(f, c, poison.secondary_unconscious)


def knock_out_for(f: FightState, c: Combatant, rounds: str) -> None:
    """Unconscious (``knocked-out``) for ``rounds`` rolled, unless it already is for longer."""
    ends = parse(rounds).roll(f.stream) * ROUND
    old = c.conditions.get("knocked-out")
    if old is None or old[0] < f.instant + ends:
        add_condition(f, c, "knocked-out", ends)


def expire(f: FightState, now: float) -> None:
    """End every condition whose time has come (a stun that ends at the caster's turn ends for the attackers
    who act before its subject too)."""
    earliest = INFINITY
    for c in f.pcs + f.monsters:
        conditions = c.conditions
        if conditions and c.expires_at <= now:
            for name in [name for name, (ends, _) in conditions.items() if ends <= now]:
                drop_condition(f, c, name)
            c.expires_at = min((ends for ends, _ in conditions.values()), default=INFINITY)
        if c.expires_at < earliest:
            earliest = c.expires_at
    f.next_expiry = earliest


def try_break_free(f: FightState, c: Combatant) -> None:
    """A held creature makes a new Will save each round to break the hold; one made amorphous by a chaos beast a
    Charisma check (SRD 3.5: "A victim can regain its own shape by taking a standard action to attempt a DC 15
    Charisma check")."""
    melted = c.conditions.get("amorphous")
    if melted is not None:
        mod = ability_modifier(c.t.abilities["cha"])
        if resolve(f, Check("ability", c.side, mod, melted[1]["dc"], opponent=c.side), c, None).success:
            drop_condition(f, c, "amorphous")
            if f.lines is not None:
                f.log(f"{c.name} regains its shape", actor=c.name, action="break-free")
        return
    held = c.conditions.get("held")
    if held and save(f, c, "will", held[1]["dc"], None).success:
        drop_condition(f, c, "held")
        if f.lines is not None:
            f.log(f"{c.name} breaks free of hold person", actor=c.name, action="break-free", spell="hold person")


ENTANGLED_CONCENTRATION_DC = 15
"""SRD 3.5 Entangled: "An entangled character who attempts to cast a spell must make a Concentration check (DC 15 +
the spell's level) or lose the spell"."""


def in_reach(c: Combatant) -> list[Combatant]:
    """The able foes an entangled creature, anchored in place, can reach without moving: in a fight without a grid,
    the one its last melee attack was against and those whose last melee attack was against it."""
    reach = [foe for foe in c.foes if foe.is_able and foe.melee_target is c]
    target = c.melee_target
    if target is not None and target.is_able and target not in reach:
        reach.insert(0, target)
    return reach


def web_turn(f: FightState, c: Combatant) -> bool:
    """An entangled creature's turn (a monster's web, the web and entangle spells, an assassin vine's plants).
    Returns True when getting free took its turn, False when it acts where it stands.

    SRD 3.5 monstrous spider: "An entangled creature can escape with a successful Escape Artist check or burst it
    with a Strength check. Both are standard actions"; Entangled: "An entangled creature takes a -2 penalty on
    attack rolls and a -4 penalty to Dexterity". Under the model's ``web_escape: best`` it does what a player
    does: it acts where it stands when it can (it shoots, a foe is in melee with it (:func:`in_reach`), or it has
    spells to cast, with a Concentration check: :func:`casts_entangled`), and else tries to get free
    (:func:`escape_web`); under ``strength-check`` every turn is a Strength check (the model before)."""
    if f.flags.web_best and (c.ranged or in_reach(c) or any(c.slots.values())):
        return False  # it fights (at -2) or casts where it stands
    escape_web(f, c)
    return True


def escape_web(f: FightState, c: Combatant) -> None:
    """An entangled creature tries to get free, a standard action: under ``web_escape: best`` with the check that
    has the better chance, Escape Artist (its bonus, :func:`escape_artist_bonus`, against the web's Escape Artist
    DC) or Strength (against the burst DC); under ``strength-check`` with Strength. A disabled creature strains
    itself with it (SRD 3.5 Disabled: "If he performs any standard action ... he takes 1 point of damage after
    completing the act"), under the fix ``disabled-strain``."""
    web = c.conditions["entangled"][1]
    strength = c.t.str_mod + (c.ability_mods or {}).get("str", 0)
    escape_dc = web.get("escape_dc")
    artist = False
    if f.flags.web_best and escape_dc is not None:
        bonus = escape_artist_bonus(c)
        artist = bonus - escape_dc > strength - web["dc"]  # the higher margin: the better chance on any die
    disabled = c.hp == 0
    if artist:
        check = Check("skill", c.side, bonus, escape_dc, opponent=c.side)
    else:
        check = Check("ability", c.side, strength, web["dc"], opponent=c.side)
    how = "escape-web" if artist else "burst-web"
    if resolve(f, check, c, None).success:
        drop_condition(f, c, "entangled")
        if f.lines is not None:
            what = "escapes the web (Escape Artist)" if artist else "bursts the web"
            f.log(f"{c.name} {what}", actor=c.name, action=how, result="free")
    elif f.lines is not None:
        f.log(
            f"{c.name} struggles in the web{' (Escape Artist)' if artist else ''}",
            actor=c.name,
            action=how,
            result="held",
        )
    if disabled and f.flags.fix_disabled_strain and c.hp == 0 and not c.dead and not c.t.ferocity:
        strain(f, c)


def escape_artist_bonus(c: Combatant) -> int:
    """``c``'s Escape Artist bonus (:func:`arena.world.party_skills.escape_artist`), with entangled's -4 Dexterity
    (-2) and its lost Dexterity."""
    return escape_artist(c.t.creature) + ENTANGLED + (c.ability_mods or {}).get("dex", 0)


def casts_entangled(f: FightState, c: Combatant, spell: str, level: int) -> bool:
    """An entangled caster's Concentration check to cast (:data:`ENTANGLED_CONCENTRATION_DC` + the spell's level):
    True when the spell is cast, False when it is lost."""
    check = Check("skill", c.side, c.t.concentration, ENTANGLED_CONCENTRATION_DC + level, opponent=c.side)
    if resolve(f, check, c, None).success:
        return True
    if f.lines is not None:
        f.log(
            f"{c.name} loses {spell}: entangled, Concentration failed",
            actor=c.name,
            action="spell-lost",
            spell=spell,
            result="entangled",
        )
    return False
