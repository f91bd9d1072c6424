"""Poison (SRD 3.5 "Poison"): a hit with its attack and the foe saves or takes the initial ability damage; one minute
(10 rounds) later a second save or the secondary damage (the ``poisoned`` condition of
:mod:`arena.combat.conditions`). A poison of sleep (a homunculus's, a dark naga's) knocks the foe out instead, and a
drow's knockout poison on its bolts lasts as long as the doses it carries.

The whole ability: the stat-block field (:class:`Poison`), how the importer reads it (:func:`read_poison`: a poison
of ability damage, by its text or its family's table by size, one of sleep, a drow's; on the attack whose rider,
``bite (1d8 plus poison)``, or text names it; a poison of paralysis or death is not the engine's, and stays
``ignored``), and the poison in a fight (:func:`poison_on_hit`).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import model_validator

from arena.combat.abilities import state_of
from arena.combat.ability_hooks import FightAbility, add_fight_ability
from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition, knock_out_for, lose_ability
from arena.combat.fight_state import FightState
from arena.combat.rolls import save
from arena.combat.template import CompiledAttack
from arena.dice import parse
from arena.limits import MAX_MODIFIER
from arena.srd.context import Reading
from arena.srd.effects import AbilityReading, add_reading
from arena.srd.onhit import deliverer, loss_of, named_attack, rider_attacks
from arena.srd.patterns import ABILITY, AMOUNT
from arena.srd.prose import column_of, size_row
from arena.srd.text import ROUNDS_PER, dice_text, in_rounds, number
from arena.world.ability_fields import AbilityField, add_fields
from arena.world.creatures import AbilityLoss
from arena.world.stat_types import DiceText, Frozen, Label, RoundsDice, SaveKind, _int

POISON_SECONDARY_ROUNDS = 10
"""SRD 3.5 poison: the secondary damage comes 1 minute after the initial damage."""


# --------------------------------------------------------------------------------------------- the stat-block field
class Poison(Frozen):
    """Poison delivered by ``attack`` (SRD 3.5 "Poison"): a save (``dc``) on a hit or take the initial ability
    damage; one minute (10 rounds) later a second save or take the secondary damage. A poison of sleep or
    unconsciousness (the homunculus's, drow poison) knocks the victim out for ``unconscious`` rounds instead (and
    ``secondary_unconscious`` after the second failed save)."""

    attack: Label
    dc: Annotated[int, _int(1, MAX_MODIFIER)]
    save: SaveKind = "fort"
    initial: AbilityLoss | None = None
    secondary: AbilityLoss | None = None
    unconscious: RoundsDice | None = None
    """Initial damage "sleep for 1 minute": unconscious (helpless) for these rounds."""
    doses: DiceText | None = None
    """Doses it carries (SRD 3.5 drow: "A typical drow carries 1d4-1 doses of drow knockout poison"), rolled at its
    first hit; each hit uses one. None: its own venom, never used up."""
    secondary_unconscious: RoundsDice | None = None

    @model_validator(mode="after")
    def _some_damage(self) -> Poison:
        if self.initial is None and self.unconscious is None:
            raise ValueError("a poison needs its initial damage: initial (ability damage) or unconscious (rounds)")
        return self


# --------------------------------------------------------------------------------------------- reading the SRD
POISON_TWO = re.compile(rf"initial damage ({AMOUNT}) {ABILITY},? secondary damage ({AMOUNT}) {ABILITY}", re.IGNORECASE)
"""``initial damage 1d6 Str, secondary damage 2d6 Str``."""
POISON_SAME = re.compile(
    rf"initial and secondary damage (?:of )?({AMOUNT}) {ABILITY}(?: and ({AMOUNT}) {ABILITY})?", re.IGNORECASE
)
"""``initial and secondary damage 1d3 Con``; ``initial and secondary damage 1d6 Str and 1d6 Dex``."""
FORTITUDE_DC = re.compile(r"\bFortitude DC (\d+)|\bDC (\d+) Fortitude")
"""``Fortitude DC 13``, ``DC 13 Fortitude``."""
POISON_USE = re.compile(r"poison use\b", re.IGNORECASE)
"""``Poison Use (Ex): Drow are skilled in the use of poison``: it coats its weapons."""
TABLE_DAMAGE = re.compile(rf"({AMOUNT}) {ABILITY}")
"""A table's damage cell: ``1d4 Str``."""
BOTH_DAMAGES = re.compile(r"initial and secondary damage|both initial and secondary", re.IGNORECASE)
"""A table's damage that is initial and secondary: ``The save DC ... both initial and secondary``."""
IS_INITIAL = re.compile(r"is initial\s*(?:and)?", re.IGNORECASE)
"""``Damage is initial and secondary damage``."""
DOSES = re.compile(rf"carries ({AMOUNT}) doses")
"""``A typical drow carries 1d4-1 doses of drow poison``."""
KNOCKOUT = re.compile(
    r"hit by an? [\w' ]+?'s poisoned weapon must succeed on a DC (\d+) Fortitude save or fall "
    r"unconscious\. After 1 minute, the subject must succeed on another DC \d+ Fortitude save or "
    rf"remain unconscious for ({AMOUNT}) (hours?|minutes?)"
)
"""Drow poison: ``An opponent hit by a drow's poisoned weapon must succeed on a DC 13 Fortitude save or fall
unconscious. After 1 minute, the subject must succeed on another DC 13 Fortitude save or remain unconscious for 2d4
hours``."""
THE_SAVE_DC = re.compile(r"\bThe save DC")
"""Where a poison's effect ends and the family's rule for its DC begins: ``The save DC is Constitution-based``."""
NOT_ABILITY = re.compile(r"\b(sleep|unconscious|paralysis|paralyzed|death|nightmare|unable to heal)\b", re.IGNORECASE)
"""A poison whose effect is not ability damage: ``initial damage 1 Con, secondary damage paralysis``."""
SECONDARY_NOT_ABILITY = re.compile(r"secondary damage (death|none|paralysis|sleep|unconscious)", re.IGNORECASE)
"""``secondary damage unconsciousness``."""
SECONDARY_WORD = re.compile(r"secondary damage (\w+)", re.IGNORECASE)
"""The first word of a poison's secondary damage: ``unconsciousness``."""
BITE_OR_STING = re.compile(r"bite|sting")
"""A natural attack that poisons: ``bite``, ``sting``."""
POISON_RIDER = re.compile(r"\bpoison", re.IGNORECASE)
"""An attack's rider of poison: ``bite (1d8+2 plus poison)``."""
SLEEP = r"(?:sleep|unconsciousness|unconscious)"
"""A poison's sleep: ``sleep``, ``unconsciousness``."""
FOR = rf"for (?:another )?({AMOUNT}|one|an?) (round|minute|hour)s?"
"""How long: ``for 1 minute``, ``for another 5d6 minutes``, ``for one hour``."""
SLEEP_INITIAL = re.compile(rf"initial damage {SLEEP} {FOR}", re.IGNORECASE)
"""A homunculus's: ``initial damage sleep for 1 minute``."""
SLEEP_LAPSE = re.compile(rf"lapse into an? [\w-]+ sleep {FOR}", re.IGNORECASE)
"""A dark naga's: ``lapse into a nightmare-haunted sleep for 2d4 minutes``."""
SLEEP_SECONDARY = re.compile(rf"secondary damage {SLEEP} {FOR}", re.IGNORECASE)
"""``secondary damage sleep for another 5d6 minutes``."""


def read_poison(ctx: Reading, item: dict) -> dict:
    """``Poison (Ex): Injury, Fortitude DC 13, initial damage 1d6 Str, secondary damage 2d6 Str`` (or its family's
    table by size), a poison of sleep, or a drow's knockout poison; on the attack whose rider or text names it."""
    desc, text = ctx.text_of(item, "poison")
    if desc is not None and POISON_USE.match(text):
        return ctx.ignored(
            "poison",
            "poison use: it coats its weapons with a poison it carries (the text names "
            "several), not a poison of its own",
        )
    if desc is None:
        ctx.note_on(item, "unread", "poison: no description: not modelled", item["name"])
        return ctx.ignored("poison", "no description read")
    how: list[str] = []
    dcs = set(FORTITUDE_DC.findall(text))
    dc = next((number(a or b) for a, b in dcs), None) if len(dcs) == 1 else None
    dc, initial, secondary = _ability_poison(ctx, item, desc, text, dc, how)
    unconscious = secondary_unconscious = None
    if initial is None and (sleep := _sleep_poison(text)) is not None:
        unconscious, secondary_unconscious, changed = sleep
        for what in changed:
            how.append(what)
            ctx.note_on(item, "changed", f"poison: {what}", text[:200])
    if initial is None and unconscious is None:
        return _not_ability_poison(ctx, item, text, dc)
    if dc is None:
        ctx.note_on(item, "unread", "poison: no Fortitude DC read: not modelled", text[:200])
        return ctx.ignored("poison", "no Fortitude DC read")
    ctx.save_of("poison", dc, "fort")
    if unconscious is None and SECONDARY_NOT_ABILITY.search(text) and (word := SECONDARY_WORD.search(text)):
        return ctx.ignored("poison", f"its secondary damage ({word.group(1)}) is not ability damage")
    attack, why, words = _poison_attack(ctx, item, text, how)
    if attack is None:
        what = " or ".join(words) if words else "no attack"
        return ctx.ignored(
            "poison",
            f"its {what} {why or 'is named nowhere'}: not an attack the engine rolls, and the "
            "engine's poison is on a hit with one",
        )
    extra = "; " + "; ".join(how) if how else ""
    if initial is None:  # a poison of sleep
        field = {"attack": attack, "dc": dc, "save": "fort", "unconscious": unconscious}
        if secondary_unconscious is not None:
            field["secondary_unconscious"] = secondary_unconscious
        ctx.mark(
            "poison",
            "modelled",
            f"poison on the {attack}: Fort DC {dc}, unconscious {unconscious} rounds"
            + (f", secondary {secondary_unconscious} rounds" if secondary_unconscious else ", no secondary")
            + extra,
        )
        return {"poison": field}
    told = f"{initial['dice']} {initial['ability']}" + (
        f", secondary {secondary['dice']} {secondary['ability']}" if secondary else ", no secondary"
    )
    ctx.mark("poison", "modelled", f"poison on the {attack}: Fort DC {dc}, initial {told}{extra}")
    return {"poison": {"attack": attack, "dc": dc, "save": "fort", "initial": initial, "secondary": secondary}}


def _ability_poison(
    ctx: Reading, item: dict, desc, text: str, dc: int | None, how: list[str]
) -> tuple[int | None, dict | None, dict | None]:
    """(DC, initial, secondary) of a poison of ability damage: its text's, else its family's table by size."""
    initial = secondary = None
    m2, m1 = POISON_TWO.search(text), POISON_SAME.search(text)
    if dc is None or (m1 is None and m2 is None):
        found = size_row(ctx.block, ctx.size, desc.line, "Fort DC")
        if found is not None:
            key, row = found
            value = column_of(row, "Fort DC")
            if dc is None and value and value.isdigit():
                dc = number(value)
            dm = TABLE_DAMAGE.fullmatch(column_of(row, "Damage") or "")
            if dm and m1 is None and m2 is None:
                initial = loss_of(dm.group(1), dm.group(2))
                secondary = dict(initial) if BOTH_DAMAGES.search(text) or IS_INITIAL.search(text) else None
            how.append(f"the {key} row of its table by size")
    if m2:
        initial, secondary = loss_of(m2.group(1), m2.group(2)), loss_of(m2.group(3), m2.group(4))
    elif m1:
        initial = loss_of(m1.group(1), m1.group(2))
        secondary = dict(initial)
        if m1.group(3):
            left = f"{m1.group(3)} {m1.group(4)}"
            how.append(f"its {left} left out (the engine's poison loses one ability)")
            ctx.note_on(
                item,
                "guess",
                f"poison: the SRD's deals {m1.group(1)} {m1.group(2)} and {left}; the engine's "
                f"one ability: the {m1.group(2)}",
                text[:200],
            )
    return dc, initial, secondary


def _not_ability_poison(ctx: Reading, item: dict, text: str, dc: int | None) -> dict:
    """A poison that deals no ability damage: a drow's knockout poison, or one of sleep or paralysis (ignored)."""
    doses, knockout = DOSES.search(text), KNOCKOUT.search(text)
    if knockout and doses:
        secondary, changed = in_rounds(knockout.group(2), knockout.group(3).rstrip("s"))
        return _weapon_poison(ctx, item, number(knockout.group(1)), secondary, dice_text(doses.group(1)), changed, text)
    bad = NOT_ABILITY.search(THE_SAVE_DC.split(text)[0])
    if bad:
        ctx.mark(
            "poison",
            "ignored",
            f"its effect ({bad.group(1).lower()}) is not ability damage, which is what the engine's poison deals",
        )
        ctx.save_of("poison", dc, "fort")
        return {}
    ctx.note_on(item, "unread", "poison: its ability damage not read: not modelled", text[:200])
    return ctx.ignored("poison", "its ability damage not read")


def _poison_attack(ctx: Reading, item: dict, text: str, how: list[str]) -> tuple[str | None, str, list[str]]:
    """(the attack that delivers the poison, why none, the words read): its rider's, else its text's, else its
    first bite or sting."""
    words = rider_attacks(ctx, POISON_RIDER) or named_attack(text)
    if not words:
        natural = [n for n in ctx.attack_names() if BITE_OR_STING.search(n)]
        if natural:
            words = [natural[0]]
            how.append(f"the text names no attack: its {natural[0]}")
            ctx.note_on(
                item, "guess", f"poison: the text names no attack that delivers it: the {natural[0]}", text[:200]
            )
    attack, why = deliverer(ctx, words) if words else (None, "")
    return attack, why, words


def _weapon_poison(
    ctx: Reading, item: dict, dc: int, secondary: str, doses: str, changed: str | None, text: str
) -> dict:
    """Drow knockout poison: "An opponent hit by a drow's poisoned weapon must succeed on a DC 13 Fortitude save or
    fall unconscious. After 1 minute, the subject must succeed on another DC 13 Fortitude save or remain unconscious
    for 2d4 hours. A typical drow carries 1d4-1 doses ... Drow typically coat arrows and crossbow bolts with this
    poison": on its first ranged weapon (else its first weapon), while the doses last."""
    ranged = [a["name"] for r in ctx.routines() for a in r if a.get("kind") == "ranged"]
    names = ranged or [a["name"] for r in (ctx.data.get("full_attack") or []) for a in r]
    if not names:
        return ctx.ignored("poison", "no weapon to coat")
    if changed:
        ctx.note_on(item, "changed", f"poison: {changed}", text[:200])
    ctx.save_of("poison", dc, "fort")
    ctx.mark(
        "poison",
        "modelled",
        f"poison on the {names[0]} (its bolts): Fort DC {dc}, unconscious 10 rounds (until "
        f"the second save, a minute on), then {secondary} rounds; {doses} doses, one a hit",
    )
    return {
        "poison": {
            "attack": names[0],
            "dc": dc,
            "save": "fort",
            "unconscious": "10",
            "secondary_unconscious": secondary,
            "doses": doses,
        }
    }


def _sleep_poison(text: str) -> tuple[str, str | None, list[str]] | None:
    """A poison of sleep (SRD 3.5 homunculus: "initial damage sleep for 1 minute, secondary damage sleep for another
    5d6 minutes"; dark naga: "lapse into a nightmare-haunted sleep for 2d4 minutes"): its rounds unconscious,
    initial and secondary, and what was changed to write them as rounds; None when it is not one."""
    head = THE_SAVE_DC.split(text)[0]
    first = SLEEP_INITIAL.search(head) or SLEEP_LAPSE.search(head)
    if first is None:
        return None
    changed: list[str] = []
    out: list[str | None] = []
    for m in (first, SLEEP_SECONDARY.search(head)):
        if m is None:
            out.append(None)
            continue
        amount = m.group(1).lower()
        amount = "1" if amount in ("one", "a", "an") else amount
        if amount.isdigit():  # a whole number of minutes is a whole number of rounds
            out.append(str(number(amount) * ROUNDS_PER[m.group(2).lower()]))
            continue
        rounds, note = in_rounds(amount, m.group(2))
        if note:
            changed.append(note)
        out.append(rounds)
    return out[0] or "", out[1], changed


# --------------------------------------------------------------------------------------------- in a fight
def poison_on_hit(f: FightState, c: Combatant, target: Combatant, attack: CompiledAttack, dealt: int) -> None:
    """A hit with its attack poisons a foe that fails its save (and has no immunity), while a dose is left: the
    initial damage (or sleep) now, the secondary in a minute (the ``poisoned`` condition)."""
    poison: Poison = c.t.ability_data["poison"]
    if (
        attack.name == poison.attack
        and not target.dead
        and "poison" not in target.t.immunities
        and (poison.doses is None or use_dose(f, c, poison.doses))
        and not save(f, target, poison.save, poison.dc, c).success
    ):
        if poison.initial is not None:
            lose_ability(f, target, poison.initial, c)
        elif poison.unconscious is not None:
            knock_out(f, target, poison.unconscious)
        if (poison.secondary is not None or poison.secondary_unconscious is not None) and not target.dead:
            add_condition(f, target, "poisoned", POISON_SECONDARY_ROUNDS * ROUND, poison=poison)


def use_dose(f: FightState, c: Combatant, doses: str) -> bool:
    """A dose of the poison it carries (SRD 3.5 drow: "A typical drow carries 1d4-1 doses"), rolled at its first
    hit: is there one left for this hit?"""
    st = state_of(c)
    if "doses" not in st:
        st["doses"] = parse(doses).roll(f.stream)
    if st["doses"] <= 0:
        return False
    st["doses"] -= 1
    return True


def knock_out(f: FightState, c: Combatant, rounds: str) -> None:
    """A poison of sleep or unconsciousness (SRD 3.5 homunculus: "initial damage sleep for 1 minute"; drow poison:
    "unconsciousness"): unconscious, so helpless, for ``rounds`` (``sleep`` immunity stops it too); unlike magical
    sleep, a blow does not wake it."""
    if c.dead or "sleep" in c.t.immunities:
        return
    knock_out_for(f, c, rounds)
    if f.lines is not None:
        f.log(f"{c.name} falls unconscious (poison)", actor=c.name, action="poisoned", result="unconscious")


add_fields(AbilityField("poison", Poison | None, doc=Poison.__doc__ or "", after="paralysis", every_number=True))
add_reading(AbilityReading("poison", ("poison",), read_poison, after="paralysis"))
add_fight_ability(FightAbility("poison", on_hit=poison_on_hit, rides_on=lambda poison: poison.attack, order=60))
