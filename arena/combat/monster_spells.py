"""Monsters' spells and spell-like abilities beyond the party's: invisibility, darkness, fog cloud, obscuring mist,
ray of frost, web, entangle and the rest of :data:`MONSTER_CASTS` (deep slumber shares sleep's code in
:mod:`arena.combat.spells`; the spells that take a foe out of the fight by its mind, charm person to hold monster, are
:mod:`arena.combat.monster_controls`). No generated character prepares them; their facts
(save, school, who they can affect) are in :data:`arena.world.spellbook.MONSTER_SPELLS`.

Every save and spell resistance check goes through the fight's ``save`` and ``gets_through`` (the rules kernel),
so every dice variant applies: under players roll all, a monster's charm person is the player's own Will save.
Each function quotes the SRD 3.5 line it implements. The abstractions (no grid, no senses, no morale):

- **Invisibility** (self): total concealment (50% miss chance on every hit against it) until it attacks; its
  attack from invisibility gets +2 and its target loses its Dexterity bonus to AC ("+2 bonus on attack rolls
  against sighted opponents, and ignores its opponents' Dexterity bonuses"), for the attack action of that turn
  (a single attack when it closes in, round 1), after which it is visible. A breath weapon or a spell at a foe
  ends it too ("an attack includes any spell targeting a foe"). Creatures are not told where it is: they attack
  it as before, at 50% (the SRD's "pinpoint" and its Spot and Listen checks are not modelled).
- **Darkness, fog cloud, obscuring mist**: the zone is centred on the caster, and everyone fighting in the melee
  (both sides) and the caster stand in it for its duration; those who stand back are outside. Darkness gives
  everyone in it concealment (20%: darkvision does not help in 3.5 darkness); fog and mist 20% in melee and total
  concealment (50%) against attacks from, or at, those who stand back. No wind disperses them.
- **Web, entangle**: an area (``burst-20``: half the enemies plus one, at most 6) whose creatures save (Reflex) or
  are entangled and stuck: they fight where they stand or try to break loose (a DC 20 Strength check, or an Escape
  Artist check, DC 25 for web and 20 for entangle: :func:`arena.combat.conditions.web_turn`); a creature that saves
  is free (the SRD's "entangled but not prevented from moving" for a successful save, and the plants' grab again
  each round, are not modelled). Entangle assumes the arena has grass and brush (the SRD needs plants in the area).
- **Ray of frost**: a ray (ranged touch) of 1d3 cold.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.combat.actions import Action
from arena.combat.attacks import ray
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.concealment import CONCEALMENT
from arena.combat.conditions import add_condition, lose_ability, recompute_bonuses
from arena.combat.damage import area_damage, deal
from arena.combat.fight_state import FightState
from arena.combat.monster_controls import CONTROL_SPELLS, controls
from arena.combat.monster_dispel import dispel
from arena.combat.rolls import gets_through, roll, save
from arena.combat.spell_targets import MONSTER_SPELL_NAMES
from arena.combat.spells import DEEP_SLUMBER_HD, spell_dc
from arena.combat.states import refresh
from arena.dice import parse
from arena.world.spellbook import SPELLS

__all__ = [
    "MONSTER_CASTS",
    "MONSTER_SPELL_NAMES",
    "SpellCast",
    "ZONES",
    "cast",
    "in_zone",
    "invisibility",
    "seen",
    "unseen",
    "zone",
]

UNSEEN_ATTACK = 2
"""SRD Invisibility: "A creature ... that is invisible gains a +2 bonus on attack rolls against sighted
opponents, and ignores its opponents' Dexterity bonuses to AC"."""
BREAK_LOOSE_DC = 20
"""SRD web: "can break loose by spending 1 round and making a DC 20 Strength check"; entangle: "a full-round
action to make a DC 20 Strength check"."""
ESCAPE_DC = {"web": 25, "entangle": 20}
"""SRD web: "a DC 20 Strength check or a DC 25 Escape Artist check"; entangle: "a DC 20 Strength check or a DC 20
Escape Artist check"."""
RAY_OF_FROST = parse("1d3")
"""SRD ray of frost: "A ray of freezing air and ice projects from your pointing finger ... 1d3 points of cold
damage"."""
COLD = frozenset({"cold"})


def cast(f: FightState, caster: Combatant, name: str, level: int, targets: list, begun: bool = False) -> None:
    """Cast monster spell ``name`` (from a slot of ``level``) at ``targets`` (:func:`arena.combat.casting.cast`,
    which has noted the cast, sends the spells it does not know here: ``Fight.cast_monster``). What the spell does
    is its function in :data:`MONSTER_CASTS`, given the caster level and the save DC worked out here (in this
    order, before it)."""
    if name == "deep slumber" and not begun and f.flags.sleep_full_round:  # casting time 1 round, as sleep
        caster.casting = (name, level, targets, caster.hp)
        caster.afflicted = True
        if f.lines is not None:
            f.log(f"{caster.name} begins casting {name} (1 round)", actor=caster.name, action="begin-cast", spell=name)
        return
    cl = caster.t.caster_level
    dc = spell_dc(f.flags, caster, name, level)
    MONSTER_CASTS[name](f, caster, name, targets, dc, cl)


SpellCast = Callable[[FightState, Combatant, str, list[Combatant], int, int], None]
"""What a spell does when cast, the shape of every function in :data:`MONSTER_CASTS` and
:data:`arena.combat.casting.PARTY_CASTS`: ``(fight, caster, spell name, targets, save DC, caster level)``."""


# The monsters' spells, one function each (or one for a family that shares a rule), in the order of
# :data:`MONSTER_CASTS`; a spell whose rule is a function of its own below (aid, gust of wind ...) is that function.


def _invisibility(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD invisibility: the subject is invisible (total concealment) until it attacks (:func:`invisibility`)."""
    invisibility(f, caster, targets[0], cl)


def _blur(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD blur: the subject has concealment (20% miss chance) for 1 minute/level."""
    # SRD blur: "The subject's outline appears blurred, shifting and wavering. This distortion grants the subject
    # concealment (20% miss chance)." 1 minute/level.
    add_condition(f, targets[0], "blurred", cl * SPELLS[name].rounds_per_level * ROUND, spell=name, cl=cl)
    targets[0].concealed = True


def _call_lightning(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD call lightning: a vertical bolt of 3d6 electricity, Reflex half (the bolt of the casting only)."""
    # SRD call lightning: "Immediately upon completion of the spell, and once per round thereafter, you may
    # call down a 5-foot-wide, 30-foot-long, vertical bolt of lightning that deals 3d6 points of electricity
    # damage" (3d10 in a storm: the arena has none), Reflex half. The bolt of the casting; the later ones (a
    # standard action each, up to one per caster level, at most 10) are left out: a creature with the spell
    # (the storm giant, the nalfeshnee) hits harder with its weapons than with 3d6 a round.
    target = targets[0]
    if gets_through(f, caster, target):
        area_damage(f, caster, target, CALL_LIGHTNING, ELECTRICITY, "ref", dc)


def _wind_wall(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD wind wall: a curtain of wind that arrows miss and other ranged weapons 30% of the time, 1 round/level."""
    # SRD wind wall: "An invisible vertical curtain of wind appears ... Arrows and bolts are deflected upward and
    # miss, while any other normal ranged weapon passing through the wall has a 30% miss chance" (1 round/level):
    # raised between the caster and those who stand back, whose shots at it then miss (a ray or a spell passes).
    add_condition(f, caster, "walled", cl * SPELLS[name].rounds_per_level * ROUND, spell=name, cl=cl)
    caster.concealed = True


def _zone(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD darkness, fog cloud, obscuring mist: concealment for those in the zone, total beyond 5 feet in a fog."""
    zone(f, caster, name, targets, cl)


def _ray_of_frost(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD ray of frost: a ray (ranged touch) of 1d3 cold."""
    if gets_through(f, caster, targets[0]):
        ray(f, caster, targets[0], RAY_OF_FROST, COLD)


def _lullaby(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD lullaby: a creature that fails its Will save is drowsy (-2 on Will saves against sleep), 1 round/level."""
    for target in targets:
        # SRD lullaby: "Any creature within the area that fails a Will save becomes drowsy and inattentive,
        # taking a -5 penalty on Listen and Spot checks and a -2 penalty on Will saves against sleep effects
        # while the lullaby is in effect" (concentration + 1 round/level: 1 round/level here).
        if not target.dead and gets_through(f, caster, target) and not save(f, target, "will", dc, caster).success:
            add_condition(f, target, "drowsy", cl * ROUND, spell=name, cl=cl)


def _stinking_cloud(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD stinking cloud: a living creature that fails its Fortitude save is nauseated, for 1d4+1 rounds after."""
    # SRD stinking cloud: "Living creatures in the cloud become nauseated. This condition lasts as long as the
    # creature is in the cloud and for 1d4+1 rounds after it leaves. ... Those who succeed on their saves but
    # remain in the cloud must continue to save each round on your turn." Nauseated: "unable to attack, cast
    # spells, concentrate on spells, or do anything else requiring attention" (a move action only): here the
    # caught creature steps out (its move) and is nauseated for the 1d4+1 rounds after; the model's nauseated
    # creature is out of the fight meanwhile, not helpless (as the hezrou's stench makes it).
    for target in targets:
        if not target.dead and not save(f, target, "fort", dc, caster).success:
            add_condition(f, target, "nauseated", (roll(f, "1d4") + 1) * ROUND, spell=name, cl=cl)


def _neutralize_poison(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD neutralize poison: a poisoned creature suffers no more from the poison; damage already done stays."""
    # SRD neutralize poison: "You detoxify any sort of venom in the creature or object touched. A poisoned
    # creature suffers no additional effects from the poison, and any temporary effects are ended, but the spell
    # does not reverse instantaneous effects, such as hit point damage, temporary ability damage". The pending
    # secondary damage (the ``poisoned`` condition) is gone; the initial damage stays.
    target = targets[0]
    if target.conditions.pop("poisoned", None) is not None:
        refresh(f, target)
        if f.lines is not None:
            f.log(f"{target.name}'s poison is neutralized", actor=caster.name, action="neutralize", target=target.name)


def _faerie_fire(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD faerie fire: outlined creatures lose blur's and invisibility's concealment; no save, 1 minute/level."""
    # SRD faerie fire: "A pale glow surrounds and outlines the subjects ... Outlined creatures do not benefit
    # from the concealment normally provided by ... blur, displacement, invisibility, or similar effects" (no
    # save; 1 minute/level; spell resistance applies).
    for target in targets:
        if not target.dead and gets_through(f, caster, target):
            add_condition(f, target, "outlined", cl * SPELLS[name].rounds_per_level * ROUND, spell=name, cl=cl)


def _dispel(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD dispel magic, targeted: a dispel check (1d20 + CL, max +10) against each spell on it (:func:`dispel`)."""
    dispel(f, caster, targets[0], cl)


def _entangling(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD web, entangle: a creature that fails its Reflex save is entangled and stuck until a DC 20 Strength check."""
    for target in targets:
        if not target.dead and not save(f, target, "ref", dc, caster).success:
            add_condition(
                f,
                target,
                "entangled",
                cl * SPELLS[name].rounds_per_level * ROUND,
                dc=BREAK_LOOSE_DC,
                escape_dc=ESCAPE_DC.get(name),
                spell=name,
                cl=cl,
            )


ACID_ARROW = parse("2d4")
"""SRD acid arrow: "The arrow deals 2d4 points of acid damage with no splash damage. For every three caster levels
(to a maximum of 18th), the acid, unless somehow neutralized, lasts for another round, dealing another 2d4 points
of damage in that round"."""
ACID = frozenset({"acid"})


def acid_arrow(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """Acid arrow: a ranged touch attack (a ray) for 2d4 acid; on a hit, 2d4 more at the start of each of the next
    ``CL // 3`` rounds (at most 6), each from the ``acid`` condition that ends there."""
    target = targets[0]
    hits = caster.tally.hits
    ray(f, caster, target, ACID_ARROW, ACID)
    if caster.tally.hits > hits and not target.dead:
        _more_acid(f, caster, target, min(6, cl // 3))


def _more_acid(f: FightState, caster: Combatant, target: Combatant, rounds: int) -> None:
    if rounds <= 0:
        return

    def burn() -> None:
        if not target.dead:
            deal(f, caster, target, ACID_ARROW.roll(f.stream), ACID)
            _more_acid(f, caster, target, rounds - 1)

    add_condition(f, target, "acid", ROUND, spell="acid arrow", undo=burn)


class _Penalty:
    """A Strength penalty in the shape :func:`arena.combat.conditions.lose_ability` takes."""

    def __init__(self, dice: str) -> None:
        self.dice, self.ability, self.drain = dice, "str", False


def enfeeble(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD ray of enfeeblement: "You must succeed on a ranged touch attack to strike a target. The subject takes a
    penalty to Strength equal to 1d6+1 per two caster levels (maximum 1d6+5). The subject's Strength score cannot
    drop below 1." No save; 1 minute/level (the fight). The penalty is kept as lost Strength (its modifier on melee
    attack and damage rolls), never below 1."""
    target = targets[0]
    if not gets_through(f, caster, target):
        return
    hits = caster.tally.hits
    ray(f, caster, target, NO_DAMAGE, frozenset())
    base = target.t.abilities["str"]
    if caster.tally.hits == hits or target.dead or base is None:
        return
    lost = (target.ability_loss or {}).get("str", 0)
    amount = min(roll(f, "1d6") + min(5, cl // 2), base - 1 - lost)
    if amount > 0:
        lose_ability(f, target, _Penalty(str(amount)), caster)
    add_condition(f, target, "enfeebled", cl * 10 * ROUND, spell="ray of enfeeblement", cl=cl)


NO_DAMAGE = parse("0")
"""A ray that deals no hit-point damage (ray of enfeeblement's touch)."""


AID_HP_CAP = 10
"""SRD aid: "temporary hit points equal to 1d8 + caster level (to a maximum of 1d8+10 temporary hit points at caster
level 10th)"."""


def aid(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD aid: "Aid grants the target a +1 morale bonus on attack rolls and saves against fear effects, plus
    temporary hit points equal to 1d8 + caster level"; 1 minute/level. Its +1 on attack rolls is bless's (the same
    morale bonus, which does not stack: the model's ``bless`` condition, kept for the longer of the two); the
    temporary hit points go first when it is hurt (``deal``) and what is left of them ends with the spell."""
    target = targets[0]
    seconds = cl * SPELLS["aid"].rounds_per_level * ROUND
    old = target.conditions.get("bless")
    if old is None or old[0] < f.instant + seconds:
        add_condition(f, target, "bless", seconds)
    gain = roll(f, "1d8") + min(cl, AID_HP_CAP)
    given = max(0, gain - target.temp_hp)  # temporary hit points from two spells do not stack
    target.temp_hp += given
    add_condition(
        f,
        target,
        "aided",
        seconds,
        spell="aid",
        cl=cl,
        undo=lambda: setattr(target, "temp_hp", max(0, target.temp_hp - given)),
    )


def deep_slumber(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD deep slumber: "This spell functions like sleep, except that it affects 10 HD of creatures"; sleep: "Creatures
    with the fewest HD are affected first ... Creatures with 5 or more HD are not affected" (here: 11 or more), Will
    negates, 1 minute/level (as sleep in :mod:`arena.combat.casting`)."""
    budget = DEEP_SLUMBER_HD
    for target in sorted(targets, key=lambda c: c.t.hd):
        if target.t.hd > budget:
            continue
        budget -= target.t.hd
        if gets_through(f, caster, target) and not sleep_save(f, target, dc, caster):
            add_condition(f, target, "asleep", cl * 10 * ROUND, spell="deep slumber", cl=cl)


def sleep_save(f: FightState, target: Combatant, dc: int, caster: Combatant) -> bool:
    """A Will save against a sleep effect, with lullaby's -2 for a drowsy creature."""
    drowsy = "drowsy" in target.conditions
    if drowsy:
        target.save_bonus += DROWSY_SLEEP_SAVE
    try:
        return save(f, target, "will", dc, caster).success
    finally:
        if drowsy:
            target.save_bonus -= DROWSY_SLEEP_SAVE


SOUND_BURST = parse("1d8")
"""SRD sound burst: "Creatures in the area take 1d8 points of sonic damage and must succeed on a Fortitude save to
avoid being stunned for 1 round"."""
SONIC = frozenset({"sonic"})
DROWSY_SLEEP_SAVE = -2
"""SRD lullaby: "a -2 penalty on Will saves against sleep effects"."""


def sound_burst(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """Sound burst: one damage roll for everyone caught (as an area spell's, under ``area_damage: roll-once``), then
    each Fortitude save or stunned 1 round."""
    rolled = SOUND_BURST.roll(f.stream) if f.flags.area_roll_once else None
    for target in targets:
        if target.dead or not gets_through(f, caster, target):
            continue
        deal(f, caster, target, rolled if rolled is not None else SOUND_BURST.roll(f.stream), SONIC)
        if not target.dead and not save(f, target, "fort", dc, caster).success:
            add_condition(f, target, "stunned", ROUND)


CALL_LIGHTNING = parse("3d6")
ELECTRICITY = frozenset({"electricity"})


def chain_lightning(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD chain lightning: "the bolt deals 1d6 points of electricity damage per caster level (maximum 20d6) to the
    primary target. After it strikes, lightning can arc to a number of secondary targets equal to your caster level
    (maximum 20). The secondary bolts each strike one target and deal half as much damage as the primary one did
    (rounded down)"; Reflex half for each, spell resistance for each. ``targets``: the primary first."""
    dice = parse(f"{min(20, cl)}d6")
    primary = dice.roll(f.stream)
    for i, target in enumerate(targets[: 1 + min(20, cl)]):
        if target.dead or not gets_through(f, caster, target):
            continue
        area_damage(f, caster, target, dice, ELECTRICITY, "ref", dc, rolled=primary if i == 0 else primary // 2)


GUST_ROLL = parse("1d4")
"""SRD gust of wind: a Tiny or smaller creature "is knocked down and rolled 1d4 x 10 feet, taking 1d4 points of
nonlethal damage per 10 feet"."""


def gust(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD gust of wind: "A Tiny or smaller creature on the ground is knocked down and rolled 1d4 x 10 feet, taking
    1d4 points of nonlethal damage per 10 feet ... Small creatures are knocked prone by the force of the wind ...
    Medium creatures are unable to move forward against the force of the wind ... Large or larger creatures may move
    normally"; Fortitude negates. Only the knocking down matters in the model (no movement): prone, and a Tiny one's
    rolling damage as nonlethal (the gust's dispersal of fogs and its ranged effects are left out)."""
    for target in targets:
        size = target.t.creature.size
        if (
            target.dead
            or size not in ("fine", "diminutive", "tiny", "small")
            or save(f, target, "fort", dc, caster).success
        ):
            continue
        target.prone = True
        if size != "small":
            target.nonlethal += sum(GUST_ROLL.roll(f.stream) for _ in range(GUST_ROLL.roll(f.stream)))
            refresh(f, target)
        if f.lines is not None:
            f.log(f"{target.name} is knocked down by the gust", actor=target.name, action="condition", result="prone")


def invisibility(f: FightState, caster: Combatant, target: Combatant, cl: int) -> None:
    """SRD Invisibility: "The creature or object touched becomes invisible ... The spell ends if the subject
    attacks any creature." Duration 1 minute/level. Invisible: total concealment (50% miss chance)."""
    add_condition(f, target, "invisible", cl * SPELLS["invisibility"].rounds_per_level * ROUND, cl=cl)
    target.concealed = True


ZONES = {"darkness": (CONCEALMENT, False), "fog cloud": (CONCEALMENT, True), "obscuring mist": (CONCEALMENT, True)}
"""The zone spells: (the concealment of those in it, whether it is a fog: total concealment beyond 5 feet).
SRD darkness: "All creatures in the area gain concealment (20% miss chance). Even creatures that can normally see
in such conditions (such as with darkvision or low-light vision) have the miss chance"; obscuring mist: "It
obscures all sight, including darkvision, beyond 5 feet. A creature 5 feet away has concealment (attacks have a
20% miss chance). Creatures farther away have total concealment (50% miss chance ...)"; fog cloud: "This spell
functions like obscuring mist" (its area is larger; neither's is a limit in the model)."""


def zone(f: FightState, caster: Combatant, name: str, targets: list, cl: int) -> None:
    """Darkness, fog cloud, obscuring mist centred on the caster: ``targets`` (the caster and the creatures of
    both sides fighting in the melee, chosen by the policy) stand in it for its duration."""
    chance, fog = ZONES[name]
    seconds = cl * SPELLS[name].rounds_per_level * ROUND
    for target in targets:
        old = target.conditions.get("obscured")
        if old is not None and old[1]["fog"] and not fog:
            continue  # a fog already hides it better than a darkness
        add_condition(f, target, "obscured", seconds, chance=chance, fog=fog, spell=name, cl=cl)
        target.concealed = True


def in_zone(caster: Combatant) -> list[Combatant]:
    """Who stands in a zone centred on the caster: the caster and every able creature of both sides that fights
    in the melee (those who stand back are outside it)."""
    inside = [caster]
    for group in (caster.friends, caster.foes):
        for c in group:
            if c is not caster and c.is_able and not c.ranged:
                inside.append(c)
    return inside


def unseen(f: FightState, c: Combatant, kind: str, target: Combatant | None, action: Action) -> None:
    """An invisible creature acts (its turn's ``on_action`` step, for creatures that can cast invisibility).
    Attacking (a weapon, a breath, a trample, a web, a coup de grace, a spell at a foe or whose area holds one: SRD
    "an attack includes any spell targeting a foe or whose area or effect includes a foe") ends its invisibility,
    and a weapon attack is made unseen: +2 on its attack rolls and its target denied its Dexterity bonus
    (flat-footed) for that attack action. Both end with the ``unseen`` condition, at the next turn's start (no
    other creature acts in between)."""
    hidden = c.conditions.get("invisible")
    if hidden is None or hidden[1].get("natural"):
        return  # a natural invisibility lasts, attacking or not
    if kind == "none" or (kind == "cast" and not any(t.side != c.side for t in action.targets or ())):
        return  # a spell on itself or its allies: still unseen
    c.conditions.pop("invisible")
    if "obscured" not in c.conditions:
        c.concealed = False
    if f.lines is not None:
        f.log(f"{c.name} attacks: its invisibility ends", actor=c.name, action="condition", result="invisibility ends")
    if kind != "attack" or target is None:
        return
    c.attack_bonus += UNSEEN_ATTACK
    acted = target.acted
    target.acted = False  # denied its Dexterity bonus against an attacker it cannot see
    add_condition(f, c, "unseen", UNSEEN_SECONDS, undo=lambda: seen(c, target, acted))


UNSEEN_SECONDS = 1e-6
"""The unseen attack's bonuses last past its own turn's instant only: every later turn starts at least 1/64
second later (turn offsets are fractions of a power of two), and its start ends them."""


def seen(c: Combatant, target: Combatant, acted: bool) -> None:
    """After the unseen attack: its bonuses are those of its conditions again, and the target's Dexterity back."""
    target.acted = acted or target.acted
    recompute_bonuses(c)


MONSTER_CASTS: dict[str, SpellCast] = {
    "deep slumber": deep_slumber,
    "invisibility": _invisibility,
    "blur": _blur,
    "gust of wind": gust,
    "chain lightning": chain_lightning,
    "call lightning": _call_lightning,
    "wind wall": _wind_wall,
    **dict.fromkeys(ZONES, _zone),
    "ray of frost": _ray_of_frost,
    "sound burst": sound_burst,
    "lullaby": _lullaby,
    "stinking cloud": _stinking_cloud,
    "aid": aid,
    "neutralize poison": _neutralize_poison,
    "acid arrow": acid_arrow,
    "ray of enfeeblement": enfeeble,
    "faerie fire": _faerie_fire,
    "dispel magic": _dispel,
    "web": _entangling,
    "entangle": _entangling,
    **dict.fromkeys(CONTROL_SPELLS, controls),
}
"""What each monster spell does when cast: its function (the shape :data:`SpellCast`), by spell name; a family of
spells that share a rule (the zones of :data:`ZONES`, the controls of
:data:`arena.combat.monster_controls.CONTROL_SPELLS`, web and entangle) has one function under each of its names.
A new spell is a function and its line here (and its facts in :data:`arena.world.spellbook.MONSTER_SPELLS`);
:func:`cast` looks every spell up here, the table names them all."""
