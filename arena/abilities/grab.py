"""Improved grab (SRD 3.5) and the hold it starts: a hit with the grabbing attack and a won grapple check (none for
a mimic's adhesive or a stirge's attach) and the creature holds its foe, constricting it at once when it constricts;
on each of its later turns each won opposed grapple check (one per attack its base attack bonus gives) deals the
grabbing attack's damage (and constrict's), drains blood (a stirge's, a rast's), swallows the foe
(:mod:`arena.abilities.swallow_whole`; a behir constricts first), and its rake (a soldier ant's acid sting) follows;
a strong grappler holds with the body part at -20 and attacks the other foes with the rest of its full attack. The
held foe spends its turns trying to escape (a swallowed one cutting its way out). Either one dropping ends the
hold.

One module for improved grab, constrict, attach, blood drain and acid sting because they are one mechanism: each is
a part of the one field ``improved_grab`` (constrict its damage, attach a grab with no check, blood drain what its
hold does each turn) or, the acid sting, what the hold makes the stat block's ``rake`` do. A mimic's adhesive is the
same field, but the importer reads it with the mimic's crush (:func:`arena.srd.holds.crush`), whose entry names the
hold's damage. Swallow whole and the paralysis of a held foe act inside the hold: the hold reads their compiled
fields (``swallow_whole``, ``paralysis``).

The whole ability: the stat-block field (:class:`ImprovedGrab`), how the importer reads it
(:func:`read_improved_grab` and the readers of its parts) and the hold in a fight (:func:`grab_on_hit` starts it,
:func:`grip_turn` is the holder's and the held one's turn). Grappling is abstract (no grid, no pinning); every roll
goes through the kernel, so under players roll all a grapple check stays an opposed check.
"""

from __future__ import annotations

import re
from typing import Annotated, NamedTuple

from pydantic import StrictBool

from arena.abilities.paralysis import paralyze
from arena.abilities.swallow_whole import digest, inside_turn, swallow
from arena.combat.abilities import opposed, state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.attacks import swing_at
from arena.combat.combatant import Combatant
from arena.combat.conditions import FOREVER, add_condition, lose_ability
from arena.combat.damage import deal
from arena.combat.fight_state import FightState
from arena.combat.tactics import choose_target
from arena.combat.template import CompiledAttack, Template
from arena.dice import DiceExpr, parse
from arena.srd.ability_items import ENTRY_DICE
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.onhit import OR_AND
from arena.srd.patterns import AMOUNT, DICE, ENERGY, singular
from arena.srd.text import clean, dice_text, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.class_tables import iteratives
from arena.world.creatures import AbilityLoss
from arena.world.stat_types import SIZES, DamageDice, Frozen, Label, _int


# --------------------------------------------------------------------------------------------- the stat-block field
class ImprovedGrab(Frozen):
    """Improved grab (SRD 3.5): when ``attack`` hits, a free grapple check; if it wins, the creature holds the foe
    and, each later round it keeps the hold, deals that attack's damage (and ``constrict`` when it has it) with a
    won grapple check. Grappling is abstract (see docs/fights.md, "Special abilities")."""

    attack: Label = "bite"
    also_on: tuple[Label, ...] = ()
    """The other attacks a hit with which grabs too (SRD 3.5 tiger: "a tiger must hit with a claw or bite attack":
    ``attack: claw``, ``also_on: [bite]``). The hold deals the damage of the attack that started it (under the fix
    ``hold-grabbing-attack``; undone, ``attack``'s whichever attack started it)."""
    constrict: DamageDice | None = None
    """Constrict: this damage on every won grapple check, in addition to the attack's."""
    damage_attack: Label | None = None
    """The attack whose damage the hold deals when it is not the grabbing one (SRD 3.5 octopus: it grabs with its
    arms, which deal none, and "automatically deals bite damage")."""
    any_size: StrictBool = False
    """It grabs "an opponent of any size" (the octopus's), not only smaller ones."""
    automatic: StrictBool = False
    """Adhesive (SRD 3.5 mimic): "automatically grapples any creature it hits with its slam attack" (no grapple check
    to start the hold), and the held foe "cannot get free while the mimic is alive" (no escape); attach (stirge,
    dire weasel) too: it latches on, and only a pin, which the model does not have, removes it."""
    hold_check: StrictBool = True
    """Each later turn it keeps the hold with a won grapple check; False: with none (an attached dire weasel
    "automatically deals bite damage each round it remains attached")."""
    drain: AbilityLoss | None = None
    """Blood drain: this ability damage to the held foe on each of its turns (stirge: 1d4 Constitution)."""
    drain_limit: Annotated[int, _int(1, 100)] | None = None
    """Once it has drained this many points it lets go and leaves the fight (a stirge: "Once it has dealt 4 points of
    Constitution damage, it detaches and flies off to digest the meal")."""


# --------------------------------------------------------------------------------------------- reading the SRD
NATURAL = (
    "bite",
    "claw",
    "claws",
    "slam",
    "tentacle",
    "arm",
    "arms",
    "gore",
    "sting",
    "tail slap",
    "pincer",
    "talon",
    "wing",
    "tendril",
    "horn",
    "hoof",
    "hooves",
    "butt",
    "tail",
    "touch",
    "tongue",
    "rake",
    "crush",
)
"""Natural attacks, for a grab whose text names none (the first of the full attack that is one)."""
GRAB_ATTACK = re.compile(
    r"must hit\b[^.]*?\bwith (?:its |a |an |the |both |one or more )?([a-z][a-z ]*?)"
    r"(?: attacks?)?(?=[.,;]|\s+(?:to|and then|it can)\b)",
    re.IGNORECASE,
)
"""The attack a grab starts from: ``To use this ability, a lion must hit with its bite attack``, ``must hit with a
claw or bite attack``."""
ARTICLE = re.compile(r"^(?:its|a|an|the)\s+")
"""An attack's article: ``its bite``."""
BOTH = re.compile(r"\bboth\b")
"""A grab that needs two hits: ``must hit with both claw attacks``."""
ALSO_GRAB = re.compile(r"\balso use its improved grab ability on an? (\w+(?: \w+)?) attack", re.IGNORECASE)
"""A second attack that grabs: ``It can also use its improved grab ability on a tentacle attack``."""
ANY_SIZE = re.compile(r"\ban opponent of any size\b", re.IGNORECASE)
"""``It can use this ability only against an opponent of any size``."""
HOLD_DEALS = re.compile(r"\bautomatically deals (\w+) damage", re.IGNORECASE)
"""The attack whose damage a hold deals: ``and automatically deals bite damage``."""
PLUS_DICE = re.compile(rf"\bplus {DICE}(?: \w+)?")
"""What an entry adds to its damage, left out of it: ``Constrict 2d8+6 plus 1d8 fire``."""
PLUS_ENERGY = re.compile(rf"\bplus ({DICE}) {ENERGY}\b", re.IGNORECASE)
"""The energy an entry adds: ``plus 1d8 fire``."""
POINTS_OF_DAMAGE = re.compile(rf"(?<!\d)({DICE}) points? of (?:\w+ )?damage")
"""``deals 2d6+9 points of bludgeoning damage``."""
HITS_WITH = re.compile(r"hits with (?:a|its) (\w+) attack")
"""The attack an attach starts from: ``If a stirge hits with a touch attack``."""
BLOOD_LOSS = re.compile(rf"(?:dealing|for) ({AMOUNT}) points? of Constitution damage")
"""``dealing 1d4 points of Constitution damage``, ``drains blood for 1d4 points of Constitution damage``."""
DETACHES = re.compile(r"Once it has dealt (\d+) points of Constitution damage, it detaches")
"""``Once it has dealt 4 points of Constitution damage, it detaches and flies off``."""
GRABBED_DRAIN = re.compile(
    rf"from a grabbed opponent, dealing ({AMOUNT}) points? of Constitution damage each round "
    r"it maintains the hold"
)
"""A rast's: ``drains blood from a grabbed opponent, dealing 1 point of Constitution damage each round it maintains
the hold``."""
ACID_STING = re.compile(
    rf"sting each round \(([+-]\d+) attack bonus\)\. A hit with the sting attack deals "
    rf"({AMOUNT}) points of piercing damage and ({AMOUNT}) points of acid damage"
)
"""A giant soldier ant's: ``it can attempt to sting each round (+3 attack bonus). A hit with the sting attack
deals 1d4+1 points of piercing damage and 1d4 points of acid damage``."""


def read_improved_grab(ctx: Reading, item: dict) -> dict:
    """The attack it grabs with, what else its text says of the hold, and its constrict."""
    desc = ctx.description(item, "improved grab")
    text = clean(desc.text) if desc else ""
    found = _grab_attack(ctx, item, desc, text)
    if found is None:
        return {}
    attack, others, how = found
    also = ALSO_GRAB.search(text)
    if also and (other := ctx.named(also.group(1))) and other != attack and other not in others:
        others.append(other)  # "It can also use its improved grab ability on a tentacle attack"
        how += f"; it grabs with its {other} too"
    grab: dict = {"attack": attack, "constrict": None, "also_on": others}
    if ANY_SIZE.search(text):
        grab["any_size"] = True
        how += "; against a foe of any size"
    deals = HOLD_DEALS.search(text)
    if deals and (other := ctx.named(deals.group(1))) and other != attack:
        grab["damage_attack"] = other
        how += f"; the hold deals its {other}'s damage"
    ctx.mark("improved grab", "modelled", f"improved_grab on the {attack}{how}")
    squeeze = ctx.first("constrict")
    if squeeze is not None:
        grab["constrict"] = _constrict(ctx, squeeze)
    return {"improved_grab": grab}


def _grab_attack(ctx: Reading, item: dict, desc, text: str) -> tuple[str, list[str], str] | None:
    """(the attack it grabs with, the other attacks the text names that grab too, what was done to choose them);
    None when it cannot grab (improved grab and constrict marked ignored)."""
    names = ctx.attack_names()
    m = GRAB_ATTACK.search(text)
    words = [ARTICLE.sub("", w) for w in (w.strip() for w in OR_AND.split(m.group(1))) if w] if m else []
    if m is None or not words:
        natural = [n for n in names if n in NATURAL or singular(n) in NATURAL]
        candidates = natural or ctx.melee_names() or names
        if not candidates:
            ctx.note_on(
                item,
                "unread",
                "improved grab: no attack to grab with (the block has no attack routine): not modelled",
                text[:200] or item["name"],
            )
            ctx.mark("improved grab", "ignored", "no attack to grab with")
            ctx.ignored("constrict", "constrict: its improved grab is not modelled")
            return None
        attack = candidates[0]
        ctx.note_on(
            item,
            "guess",
            f"improved grab: {'its description' if desc else 'no description'} names no "
            f"attack to grab with: the {attack}, the first natural attack of the full attack",
            text[:200] or item["name"],
        )
        return attack, [], f"; the text names no attack: the {attack}, the first natural attack of the full attack"
    found = [n for n in (ctx.named(w) for w in words) if n]
    if not found:
        missing = [w for w in words if ctx.named(w) is None]
        why = "deals no hit-point damage" if ctx.deal_no_damage(missing) else "is not an attack of its routines"
        ctx.mark(
            "improved grab",
            "ignored",
            f"its {' or '.join(words)} attack {why}: not an attack the engine "
            "rolls, so the engine's improved grab (a grapple when that attack hits) "
            "cannot start",
        )
        ctx.ignored(
            "constrict",
            "constrict: the damage of a hold its improved grab would start, which the engine "
            "cannot (see improved grab)",
        )
        return None
    order = [n for n in names if n in found]  # every attack the text names ("a claw or bite attack") grabs
    attack = order[0]
    how = f"; it grabs with its {' or '.join(order)}, the hold deals its {attack}'s damage" if len(order) > 1 else ""
    if BOTH.search(m.group(0)):
        how += f"; the SRD's grab needs both {attack} attacks to hit, the engine's one"
        ctx.note_on(
            item,
            "guess",
            f"improved grab: the SRD's needs both {attack} attacks to hit; the engine's grabs when one {attack} hits",
            text[:200],
        )
    return attack, order[1:], how


def _constrict(ctx: Reading, item: dict) -> str | None:
    """A constrict's damage: the entry's (``Constrict 2d6+9``), else its paragraph's, else the ability's."""
    entry = clean(item["name"])
    dice = ENTRY_DICE.findall(PLUS_DICE.sub("", entry))
    desc = ctx.description(item, "constrict")
    if not dice and desc is not None:
        m = POINTS_OF_DAMAGE.search(desc.text)
        dice = [m.group(1)] if m else []
    if not dice and item.get("damage"):
        dice = [item["damage"]]
    if not dice:
        ctx.note_on(item, "unread", "constrict: no damage dice read: not modelled", desc.text[:200] if desc else entry)
        ctx.mark("constrict", "ignored", "no damage dice read")
        return None
    damage = dice_text(dice[0])
    how = ""
    if len(dice) > 1:
        how += f"; {entry!r} gives several: the first, {damage}"
        ctx.note_on(
            item,
            "guess",
            f"constrict: {entry!r} gives {len(dice)} damages (one per attack that grabs): the first, {damage}",
            entry,
        )
    energy = PLUS_ENERGY.search(entry)
    if energy:
        how += (
            f"; its {energy.group(1)} {energy.group(2).lower()} is left out (the engine's constrict is one "
            "damage expression)"
        )
        ctx.note_on(
            item,
            "guess",
            f"constrict: the {energy.group(1)} {energy.group(2).lower()} of each constrict is "
            f"left out: stored as {damage}",
            entry,
        )
    if parse(damage).maximum < 1:
        ctx.note_on(
            item,
            "changed",
            f"constrict {damage} is always below 1: stored as 1 (the SRD's minimum of 1 on a hit)",
            entry,
        )
        damage = "1"
    ctx.mark("constrict", "modelled", f"improved_grab.constrict {damage}{how}")
    for a in ctx.abilities:
        if a["key"] == "constrict":
            a["damage"] = damage
    return damage


def read_lone_constrict(ctx: Reading, item: dict) -> dict:
    """A constrict without improved grab: the engine's constrict is the damage of the hold a grab starts."""
    if ctx.first("improved grab") is None:
        ctx.mark(
            "constrict",
            "ignored",
            "constrict without improved grab: the engine's constrict is the damage of a hold that improved grab starts",
        )
    return {}


def read_attach(ctx: Reading, item: dict) -> dict:
    """Attach and blood drain: the stirge's ("If a stirge hits with a touch attack, it uses its eight pincers to
    latch onto the opponent's body ... dealing 1d4 points of Constitution damage in any round when it begins its
    turn attached ... Once it has dealt 4 points of Constitution damage, it detaches and flies off") and the dire
    weasel's ("latches onto the opponent's body ... A dire weasel drains blood for 1d4 points of Constitution damage
    each round it remains attached"; a weasel "automatically deals bite damage each round it remains attached"):
    a hold that starts on a hit with no check, has no escape (only a pin removes it) and needs no check to keep."""
    desc, text = ctx.text_of(item, "attach")
    drain_item = ctx.first("blood drain")
    _, drain_text = ctx.text_of(drain_item, "blood drain") if drain_item is not None else (None, "")
    hit = HITS_WITH.search(text)
    loss = BLOOD_LOSS.search(drain_text)
    attack = ctx.named(hit.group(1)) if hit else None
    if attack is None or loss is None or ctx.data.get("improved_grab") is not None:
        return ctx.ignored("attach", "its attack and blood drain not read")
    limit = DETACHES.search(drain_text)
    grab: dict = {
        "attack": attack,
        "constrict": None,
        "any_size": True,
        "automatic": True,
        "hold_check": False,
        "drain": {"dice": dice_text(loss.group(1)), "ability": "con"},
    }
    if limit:
        grab["drain_limit"] = number(limit.group(1))
    bite = "; its bite's damage each round" if "bite" in attack else ""
    ctx.mark(
        "attach",
        "modelled",
        f"improved_grab on the {attack} with no grapple check, of any size, no escape (a "
        f"pin, which the model has not, removes it){bite}",
    )
    ctx.mark(
        "blood drain",
        "modelled",
        f"improved_grab.drain: {grab['drain']['dice']} Constitution on each of its "
        "turns attached" + (f", until {limit.group(1)} points: then it flies off" if limit else ""),
    )
    return {"improved_grab": grab}


def read_blood_drain(ctx: Reading, item: dict) -> dict:
    """The rast's: ``drains blood from a grabbed opponent, dealing 1 point of Constitution damage each round it
    maintains the hold`` (a stirge's and a weasel's come with their attach)."""
    desc, text = ctx.text_of(item, "blood drain")
    m = GRABBED_DRAIN.search(text)
    grab = ctx.data.get("improved_grab")
    if m is None or grab is None or grab.get("drain"):
        return ctx.ignored("blood drain", "a drain of a pin, or with no hold the engine models")
    ctx.mark(
        "blood drain",
        "modelled",
        f"improved_grab.drain: {dice_text(m.group(1))} Constitution on each turn it keeps its hold",
    )
    return {"improved_grab": {**grab, "drain": {"dice": dice_text(m.group(1)), "ability": "con"}}}


def read_acid_sting(ctx: Reading, item: dict) -> dict:
    """The giant soldier ant's: ``If it successfully grabs an opponent, it can attempt to sting each round (+3 attack
    bonus). A hit with the sting attack deals 1d4+1 points of piercing damage and 1d4 points of acid damage``: the
    attack it makes each turn it holds a foe (the engine's rake does this)."""
    desc, text = ctx.text_of(item, "acid sting")
    m = ACID_STING.search(text)
    if m is None or ctx.data.get("improved_grab") is None or ctx.data.get("rake") is not None:
        return ctx.ignored("acid sting", "no grab to sting from, or its numbers not read")
    ctx.mark(
        "acid sting",
        "modelled",
        f"the sting it makes each turn it holds a foe: {m.group(1)} melee "
        f"({dice_text(m.group(2))} piercing plus {dice_text(m.group(3))} acid)",
    )
    return {
        "rake": {
            "name": "sting",
            "bonuses": [number(m.group(1))],
            "damage": dice_text(m.group(2)),
            "damage_types": ["piercing"],
            "extra_damage": dice_text(m.group(3)),
            "extra_damage_type": "acid",
        }
    }


# --------------------------------------------------------------------------------------------- in a fight
class Hold(NamedTuple):
    """What a fight keeps of improved grab (once per stat block)."""

    grab: ImprovedGrab
    constrict: DiceExpr | None
    """Constrict's damage, parsed."""


def compile_hold(grab: ImprovedGrab) -> Hold:
    return Hold(grab, parse(grab.constrict) if grab.constrict else None)


def grab_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with the grabbing attack starts a grapple: a free grapple check (none for an adhesive or an attach)
    against a foe it can grab, neither of them in a grapple already.

    SRD 3.5 Improved Grab: "The creature has the option to conduct the grapple normally, or simply use the part of
    its body it used in the improved grab to hold the opponent. If it chooses to do the latter, it takes a -20
    penalty on grapple checks, but is not considered grappled itself; the creature does not lose its Dexterity bonus
    to AC, still threatens an area, and can use its remaining attacks against other opponents": under
    ``hold-full-attack`` it holds with the body part when it has other attacks to use and its check at -20 still
    matches the foe's grapple modifier (:func:`_holds_by_part`). A constrictor's won check constricts already
    (``constrict-on-grab``): "If it wins the grapple check, it establishes a hold and can constrict" (SRD 3.5
    constrictor snake), Constrict: "dealing bludgeoning damage, after making a successful grapple check"."""
    hold: Hold = c.t.ability_data["improved_grab"]
    grab = hold.grab
    if not (
        (attack.name == grab.attack or (f.flags.fix_rider_attacks and attack.name in grab.also_on))
        and c.grip is None
        and target.grip is None
        and target.is_able
        and not target.dead
        and _can_grab(c, target, grab)
    ):
        return
    by_part = f.flags.fix_hold_full_attack and _holds_by_part(c, target, hold)
    if not (grab.automatic or opposed(f, c, c.t.grapple - (BODY_PART if by_part else 0), target, target.t.grapple)):
        return
    c.grip, target.grip = (True, target), (False, c)
    c.afflicted = target.afflicted = True
    if f.flags.fix_hold_full_attack:
        state_of(c)["by part"] = target if by_part else None
    if f.flags.fix_hold_attack:  # the attack that established the hold deals its damage (a tiger's bite or claw)
        state_of(c)["hold attack"] = attack.name
    if f.lines is not None:
        how = "attached" if not grab.hold_check else "adhesive" if grab.automatic else "improved grab"
        if by_part:
            how += ", held with its " + grab.attack
        f.log(f"{c.name} grabs {target.name} ({how})", actor=c.name, action="grab", target=target.name, result=how)
    if f.flags.fix_constrict_on_grab and hold.constrict is not None and not grab.automatic:
        constrict(f, c, target, hold, _hold_attack(f, c, grab))


BODY_PART = 20
"""SRD 3.5 Improved Grab: holding with the body part only, "it takes a -20 penalty on grapple checks"."""


def _other_attacks(t: Template, grab: ImprovedGrab) -> list[tuple[CompiledAttack, int]]:
    """The swings of its full attack left when the grabbing attack holds a foe: every (attack, bonus) but the first
    swing of the grabbing attack's name (a second claw is still free)."""
    swings = [(a, bonus) for a in t.full for bonus in a.full_bonuses]
    for i, (a, _) in enumerate(swings):
        if a.name == grab.attack:
            del swings[i]
            break
    return [(a, bonus) for a, bonus in swings if not a.ranged]


def _holds_by_part(c: Combatant, target: Combatant, hold: Hold) -> bool:
    """Whether it holds ``target`` with the body part only (the -20 option): it has other melee attacks to use, it
    keeps its hold with a check (not an adhesive, an attach or a swallower, whose foe goes into its mouth), and its
    grapple modifier at -20 is still at least the foe's, so it wins the check at least about half the time."""
    grab = hold.grab
    return (
        grab.hold_check
        and not grab.automatic
        and "swallow_whole" not in c.t.ability_data
        and c.t.grapple - BODY_PART >= target.t.grapple
        and bool(_other_attacks(c.t, grab))
    )


def grapple_checks(bab: int) -> int:
    """How many grapple checks a full-round action in a grapple gives: SRD 3.5 grapple, "If your base attack bonus
    allows you multiple attacks, you can attempt one of these actions in place of each of your attacks, but at
    successively lower base attack bonuses" (+1 to +5 one, +6 to +10 two, +11 to +15 three, +16 and up four)."""
    return len(iteratives(0, bab))


def _can_grab(c: Combatant, target: Combatant, grab: ImprovedGrab) -> bool:
    """SRD 3.5: improved grab works only against opponents at least one size category smaller, unless noted (an
    octopus's "an opponent of any size", a mimic's adhesive)."""
    return grab.any_size or SIZES.index(target.t.creature.size) < SIZES.index(c.t.creature.size)


def release(c: Combatant) -> None:
    """End the grapple ``c`` is in, for both creatures."""
    if c.grip is not None:
        other = c.grip[1]
        if other.grip is not None and other.grip[1] is c:
            other.grip = None
        c.grip = None


def grip_turn(f: FightState, c: Combatant) -> bool:
    """The turn of a creature in a grapple: the holder keeps its hold (:func:`holding_turn`), the held one tries
    to escape (:func:`escape_turn`). Returns True when the grapple took the turn."""
    if c.grip is None:
        return False
    holds, other = c.grip
    if other.dead or (not other.is_able and "swallowed" not in other.conditions):
        release(c)
        return False
    if holds:
        return holding_turn(f, c, other)
    if "swallowed" in c.conditions:  # inside its swallower: it cuts its way out, or tries to (``cut-free``)
        return f.flags.fix_cut_free and inside_turn(f, c, other)
    return escape_turn(f, c, other)


def holding_turn(f: FightState, c: Combatant, target: Combatant) -> bool:
    """A grappler's turn: a won opposed grapple check deals the grabbing attack's damage, plus constrict's (or
    drains blood, or swallows the foe whole); its rake follows.

    Under ``hold-full-attack`` (SRD 3.5 grapple: "you can attempt one of these actions in place of each of your
    attacks, but at successively lower base attack bonuses"; Improved Grab: "each successful grapple check it makes
    during successive rounds automatically deals the damage indicated for the attack that established the hold")
    it makes a grapple check for each attack its base attack bonus gives (-5 on each after the first), each won one
    dealing the hold's damage; one holding with the body part makes one check at -20 and then "can use its remaining
    attacks against other opponents" (:func:`_part_attacks`). A swallower swallows with one check ("it can attempt a
    new grapple check ... If it succeeds, it swallows its prey, and the opponent takes bite damage"); one that also
    constricts or rakes (a behir) first constricts and rakes the foe for a turn under ``swallow_choice:
    constrict-first``."""
    t = c.t
    data = t.ability_data
    if "swallowed" in target.conditions:  # inside it: digested, no check needed
        digest(f, c, target)
        # SRD 3.5 Swallow Whole: "A swallowed creature is considered to be grappled, while the creature that did the
        # swallowing is not" (behir: "A behir that swallows an opponent can use its Cleave feat to bite and grab
        # another opponent"): under ``swallower-acts`` the rest of its turn is its own (it attacks the others, but
        # grabs no second foe while one is inside it: the model's hold is of one foe)
        if not f.flags.fix_swallower_acts:
            return True
        if target.dead:
            release(c)
        return False
    paralysis = data.get("paralysis")
    if paralysis is not None and paralysis.on == "held" and "paralyzed" not in target.conditions:
        paralyze(f, c, target, paralysis)  # the chuul's tentacles: a save on each of its turns
    hold: Hold = data["improved_grab"]
    grab = hold.grab
    state = state_of(c) if (f.flags.fix_hold_full_attack or f.flags.constrict_first) else None
    swallows = "swallow_whole" in data and not (
        f.flags.constrict_first
        and (hold.constrict is not None or t.rake is not None)
        and state is not None
        and state.get("squeezed") is not target
    )
    by_part = not swallows and state is not None and f.flags.fix_hold_full_attack and state.get("by part") is target
    checks = 1
    if f.flags.fix_hold_full_attack and not swallows and not by_part and grab.hold_check and grab.drain is None:
        checks = grapple_checks(t.creature.bab)
    won = False
    for i in range(checks):
        if target.dead:
            break
        mod = t.grapple - 5 * i - (BODY_PART if by_part else 0)
        if grab.hold_check and not opposed(f, c, mod, target, target.t.grapple):
            if f.lines is not None:
                f.log(
                    f"{c.name} fails to keep damaging {target.name} in its hold",
                    actor=c.name,
                    action="grip-damage",
                    target=target.name,
                    result="failed",
                )
            continue
        if grab.drain is not None:  # blood drain: ability damage each turn it holds on
            drained = state_of(c)
            drained["drained"] = drained.get("drained", 0) + lose_ability(f, target, grab.drain, c)
            if grab.drain_limit is not None and drained["drained"] >= grab.drain_limit:
                release(c)  # sated, it flies off to digest (out of the fight)
                add_condition(f, c, "panicked", FOREVER)
                if f.lines is not None:
                    f.log(f"{c.name} is sated and flies off", actor=c.name, action="sated")
                return True
            if target.dead:
                return True
        if swallows:  # swallow whole: a won check swallows the held foe
            swallow(f, c, target)
            if f.flags.fix_swallow_bite:  # "and the opponent takes bite damage"
                _grip_damage(f, c, target, _hold_attack(f, c, grab))
            return True
        won = True
        attack = _hold_attack(f, c, grab)
        _grip_damage(f, c, target, attack)
        if hold.constrict is not None and not target.dead:
            constrict(f, c, target, hold, attack)
    if won and t.rake is not None and not target.dead:  # rake: its hind claws at the held foe
        for bonus in t.rake.full_bonuses:
            if target.dead:
                break
            swing_at(f, c, target, t.rake, bonus)
    if state is not None and won:
        state["squeezed"] = target  # constrict-first: it swallows the foe it has constricted
    if by_part and target.is_able:
        _part_attacks(f, c, target, grab)
    return True


def _grip_damage(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack) -> None:
    """The hold's damage: the grabbing attack's (a stirge's touch deals none: only its drain)."""
    if not attack.harmless:
        amount = max(1, attack.damage.roll(f.stream))
        if f.lines is not None:
            f.log(
                f"{c.name} crushes {target.name} in its grip for {amount}",
                actor=c.name,
                action="grip-damage",
                target=target.name,
                damage=amount,
            )
        deal(f, c, target, amount, attack.types, attack.overcomes, weapon=True)


BLUDGEONING = frozenset({"bludgeoning"})
"""SRD 3.5 Constrict: "A creature with this special attack can crush an opponent, dealing bludgeoning damage"."""


def constrict(f: FightState, c: Combatant, target: Combatant, hold: Hold, attack: CompiledAttack) -> None:
    """Constrict's damage on a won grapple check: bludgeoning (SRD 3.5 Constrict: "dealing bludgeoning damage, after
    making a successful grapple check"), with what the holding attack overcomes (a magic beast's natural weapons),
    under the fix ``constrict-bludgeoning``; undone, the damage types of the attack that holds (a bite's piercing)."""
    if hold.constrict is None:
        return
    if f.lines is not None:
        f.log(f"{c.name} constricts {target.name}", actor=c.name, action="constrict", target=target.name)
    types = BLUDGEONING if f.flags.fix_constrict_bludgeoning else attack.types
    deal(f, c, target, hold.constrict.roll(f.stream), types, attack.overcomes, weapon=True)


def _part_attacks(f: FightState, c: Combatant, target: Combatant, grab: ImprovedGrab) -> None:
    """Holding with the body part only, it "can use its remaining attacks against other opponents": the rest of its
    full attack at the foe its targeting picks among the others it reaches (the held foe when none is left)."""
    others = [foe for foe in f.view.reachable(c) if foe is not target]
    foe = choose_target(f.view, c, others) if others else target
    if foe is None:
        return
    for attack, bonus in _other_attacks(c.t, grab):
        if not foe.is_able:
            foe = choose_target(f.view, c, None)
            if foe is None:
                return
        swing_at(f, c, foe, attack, bonus)


def _hold_attack(f: FightState, c: Combatant, grab: ImprovedGrab) -> CompiledAttack:
    """The compiled attack whose damage the hold deals: ``damage_attack`` (an octopus's bite), else the attack that
    established the hold (SRD 3.5 Improved Grab: "Each successful grapple check it makes during successive rounds
    automatically deals the damage indicated for the attack that established the hold": a tiger's bite or claw,
    under ``hold-grabbing-attack``; undone, always ``grab.attack``); the first of that name in its full attack, then
    its standard attack (a grab started, so it has one)."""
    t = c.t
    named = [a for routine in (t.full, t.standard) for a in routine]
    grabbed_with = grab.attack
    if f.flags.fix_hold_attack and c.specials is not None:
        grabbed_with = c.specials.get("hold attack", grab.attack)
    attack = next((a for a in named if a.name == grabbed_with), None) or next(a for a in named if a.name == grab.attack)
    if grab.damage_attack:
        return next((a for a in named if a.name == grab.damage_attack), attack)
    return attack


def escape_turn(f: FightState, c: Combatant, holder: Combatant) -> bool:
    """A held creature's turn: it tries to escape (an opposed grapple check against its holder); a mimic's adhesive
    holds it while the mimic lives ("Opponents so grappled cannot get free while the mimic is alive")."""
    by_part = f.flags.fix_hold_full_attack and holder.specials is not None and holder.specials.get("by part") is c
    if not holder.t.ability_data["improved_grab"].grab.automatic and opposed(
        f, c, c.t.grapple, holder, holder.t.grapple - (BODY_PART if by_part else 0)
    ):
        release(holder)
        if f.lines is not None:
            f.log(
                f"{c.name} escapes {holder.name}'s grip",
                actor=c.name,
                action="escape",
                target=holder.name,
                result="free",
            )
    elif f.lines is not None:
        f.log(
            f"{c.name} struggles in {holder.name}'s grip",
            actor=c.name,
            action="escape",
            target=holder.name,
            result="held",
        )
    return True


add_fields(
    AbilityField(
        "improved_grab", ImprovedGrab | None, doc=ImprovedGrab.__doc__ or "", after="ferocity", every_number=True
    )
)
add_reading(AbilityReading("improved grab", ("improved grab", "grab"), read_improved_grab, after="ferocity"))
add_reading(AbilityReading("constrict", ("constrict",), read_lone_constrict, after="improved grab"))
add_reading(AbilityReading("attach", ("attach",), read_attach, after="bay", only_ignored=True))
add_reading(AbilityReading("blood drain", ("blood drain",), read_blood_drain, after="fear aura", only_ignored=True))
add_reading(AbilityReading("acid sting", ("acid sting",), read_acid_sting, after="engulf", only_ignored=True))
add_fight_ability(
    FightAbility(
        "improved_grab",
        compile=compile_hold,
        on_hit=grab_on_hit,
        rides_on=lambda grab: (grab.attack, *grab.also_on),
        grip_turn=grip_turn,
        order=10,
    )
)
