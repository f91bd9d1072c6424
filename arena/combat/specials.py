"""Monsters' special abilities, second part: what a creature does with its turn instead of its attacks (summoning,
a whirlwind, crush, roar, smite) and what it does as a free action at the start of each of its turns (smoke,
entangling plants, eye rays, a captivating song kept up). The abilities of presence (despair, aura of menace, the
song's first notes) are with frightful presence in :mod:`arena.combat.abilities`.

Every save and attack roll goes through the kernel (``f.save``, ``f.resolve``), so every dice variant applies; a
chance of the SRD that is no d20 roll (a summoning's "35% chance of success") is rolled on the fight's stream.

What is abstract (the arena has no grid): which foes an area catches is the spells' count for an area of that size
(:func:`arena.world.spellbook.area_count`), a whirlwind reaches every smaller foe, a roar's "within 30 feet" is
the foes in melee. A summoned creature is a fresh combatant of the bestiary's stat block on the summoner's side:
it joins at the end of the round and acts right after its summoner from the next round on; it cannot summon in
turn. Per-fight state (uses, who saved, a whirlwind's rounds) is kept in ``Combatant.specials``.
"""

from __future__ import annotations

from arena.combat import tactics
from arena.combat.abilities import state_of
from arena.combat.attacks import attack_routine, ranged_touch_ac, swing_at
from arena.combat.combatant import Combatant, Template
from arena.combat.conditions import FOREVER, add_condition, drop_condition
from arena.combat.damage import area_damage, deal
from arena.combat.fight_state import FightState
from arena.combat.rolls import count_roll, roll_fields, roll_text, save
from arena.combat.spells import ROUND
from arena.combat.states import DEAD_AT, die, heal
from arena.dice import parse
from arena.errors import ArenaError
from arena.limits import MAX_COMBATANTS
from arena.rules import Check
from arena.world.spellbook import area_count
from arena.world.stat_types import SIZES

BLUDGEONING = frozenset({"bludgeoning"})
MAX_SUMMONED = 40
"""At most this many creatures answer one summoning (4d10 dretches rolls at most 40)."""


def _size(c: Combatant) -> int:
    return SIZES.index(c.t.creature.size)


def _worth(caught: int, enemies: int) -> bool:
    """An area ability is worth the turn when it catches two or more foes, or the only one (as a breath weapon)."""
    return caught >= 2 or (caught >= 1 and enemies == 1)


# --------------------------------------------------------------------------------------------- the turn's action
def special_turn(f: FightState, c: Combatant, target: Combatant | None, full: bool) -> bool:
    """Instead of the attack its policy chose, the creature's special action when one is ready and worth it:
    summoning (its first chance), keeping up or starting a whirlwind, a roar, a crush; a smite is its first melee
    attack (the rest of its routine follows). Returns True when the turn went to it."""
    t = c.t
    for hook in t.instead_of_attack_hooks:
        if hook(f, c, target, full):
            return True
    st = state_of(c)
    if t.quickness and target is not None and target.is_able:
        quick(f, c, target)  # its extra standard action: an attack, then its turn goes on
    if t.summon is not None and st.get("summons", 0) < t.summon.uses:
        return summon(f, c)
    if t.whirlwind is not None and whirlwind_turn(f, c, st):
        return True
    enemies = [e for e in c.foes if e.is_able]
    if t.roar is not None and f.instant >= st.get("roar_at", 0.0):
        open_to = [e for e in enemies if "exhausted" not in e.conditions and not _tireless(e)]
        if _worth(len(open_to), len(enemies)):
            roar(f, c, open_to)
            return True
    if t.crush is not None:
        under = [e for e in enemies if _size(c) - _size(e) >= t.crush.smaller_by]
        if _worth(len(under), len(enemies)):
            crush(f, c, under[: area_count("burst-10", len(under))])
            return True
    if t.glance is not None and (t.glance.uses is None or st.get("glances", 0) < t.glance.uses):
        looked = st.setdefault("looked", set())
        fresh = [
            e
            for e in enemies
            if e.uid not in looked
            and not (e.conditions and "stunned" in e.conditions)
            and "mind-affecting" not in e.t.immunities
        ]
        if fresh:
            glance(f, c, tactics.choose_target(f.view, c, fresh), st)
            return True
    if t.engulf is not None:
        inside = engulfed(c)
        size = SIZES.index(t.engulf.max_size)
        outside = [e for e in enemies if _size(e) <= size]
        if inside:
            digest(f, c, inside)
        if outside:
            engulf(f, c, outside[: area_count("burst-10", len(outside))])
            return True
        if inside:
            return True
    if t.lay_on_hands is not None and c.hp * 2 < c.max_hp and st.get("healed", 0) < t.lay_on_hands:
        lay_on_hands(f, c, st)
        return True
    if t.burst is not None and st.get("bursts", 0) < t.burst.uses:
        fresh = [e for e in enemies if "stupefied" not in e.conditions and "mind-affecting" not in e.t.immunities]
        if _worth(len(fresh), len(enemies)):
            burst(f, c, fresh, st)
            return True
    if t.smite is not None and target is not None and not c.ranged and st.get("smites", 0) < t.smite.uses:
        smite(f, c, target, full)
        return True
    return False


def glance(f: FightState, c: Combatant, target: Combatant, st: dict) -> None:
    """SRD 3.5 Nymph: "As a standard action, a wrathful nymph can stun a creature within 30 feet with a look. The
    target creature must succeed on a DC 17 Fortitude save or be stunned for 2d4 rounds"; Sea hag: "Evil Eye (Su):
    Three times per day, a sea hag can cast its dire gaze upon any single creature within 30 feet. The target must
    succeed on a DC 13 Will save or be dazed for three days ... In addition, an affected creature must succeed on a
    DC 13 Fortitude save or die from fright. Creatures with immunity to fear effects are not affected"."""
    g = c.t.glance
    st["glances"] = st.get("glances", 0) + 1
    if g.effect == "stun" and "stunning" in target.t.immunities:
        return
    if f.lines is not None:
        f.log(f"{c.name} fixes {target.name} with its look", actor=c.name, action="look", target=target.name)
    if save(f, target, g.save, g.dc, c).success:
        if g.effect == "daze":
            st["looked"].add(target.uid)  # a foe it failed to daze it tries no more
        return
    st["looked"].add(target.uid)
    if g.effect == "stun":
        add_condition(f, target, "stunned", parse(g.rounds).roll(f.stream) * ROUND)
        st["looked"].discard(target.uid)  # stunned for rounds: it may look at it again later
    else:
        add_condition(f, target, "stupefied", FOREVER)  # dazed for three days: out of the fight, not helpless
        if (
            g.fright_dc is not None
            and "death effects" not in target.t.immunities
            and not save(f, target, "fort", g.fright_dc, c).success
        ):
            target.hp = min(target.hp, DEAD_AT)
            die(f, target)


def quick(f: FightState, c: Combatant, target: Combatant) -> None:
    """SRD 3.5 Choker: "Quickness (Su): Although not particularly dexterous, a choker is supernaturally quick. It
    can take an extra standard action or move action during its turn each round": a standard attack first."""
    routine = c.t.ranged_standard if c.ranged else c.t.standard
    if routine and not (c.weapon_lost and routine[0].ranged):
        attack_routine(f, c, target, routine, False)


def engulfed(c: Combatant) -> list[Combatant]:
    """The foes inside ``c`` (engulfed by it and not dead)."""
    return [
        e for e in c.foes if not e.dead and e.conditions and e.conditions.get("engulfed", (0, {}))[1].get("by") is c
    ]


def engulf(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """SRD 3.5 Gelatinous cube: "can simply mow down Large or smaller creatures as a standard action. It cannot make a
    slam attack during a round in which it engulfs ... must succeed on a DC 13 Reflex save or be engulfed" (those
    who would rather make an attack of opportunity and forgo the save are not modelled)."""
    e_ = c.t.engulf
    if f.lines is not None:
        f.log(
            f"{c.name} rolls over {', '.join(e.name for e in targets)}",
            actor=c.name,
            action="engulf",
            targets=[e.name for e in targets],
        )
    for e in targets:
        if not e.dead and not save(f, e, "ref", e_.dc, c).success:
            add_condition(f, e, "engulfed", 2 * ROUND, by=c)
            if f.lines is not None:
                f.log(f"{e.name} is engulfed by {c.name}", actor=e.name, action="engulfed", source=c.name)


def digest(f: FightState, c: Combatant, inside: list[Combatant]) -> None:
    """ "Engulfed creatures are subject to the cube's paralysis and acid, and are considered to be grappled and
    trapped within its body": on each of its turns, the acid's damage and a save against its paralysis; they stay
    inside while it can act (a round more: the condition lapses if it drops)."""
    e_ = c.t.engulf
    dice = parse(e_.damage)
    types = frozenset({e_.damage_type})
    for e in inside:
        deal(f, c, e, dice.roll(f.stream), types)
        if e.dead:
            continue
        paralysis = c.t.ability_data.get("paralysis")
        if (
            paralysis is not None
            and "paralyzed" not in e.conditions
            and "paralysis" not in e.t.immunities
            and not save(f, e, "fort", paralysis.dc, c).success
        ):
            add_condition(f, e, "paralyzed", parse(paralysis.duration).roll(f.stream) * ROUND)
        add_condition(f, e, "engulfed", 2 * ROUND, by=c)


def lay_on_hands(f: FightState, c: Combatant, st: dict) -> None:
    """SRD 3.5 Avoral: "Lay on Hands (Su): As the paladin class feature, except that each day, an avoral can heal an
    amount of damage equal to its full normal hit points" (a standard action; it heals itself once below half)."""
    amount = min(c.t.lay_on_hands - st.get("healed", 0), c.max_hp - c.hp)
    st["healed"] = st.get("healed", 0) + amount
    if f.lines is not None:
        f.log(f"{c.name} lays hands on itself", actor=c.name, action="lay-on-hands", target=c.name)
    heal(f, c, amount)


def burst(f: FightState, c: Combatant, targets: list[Combatant], st: dict) -> None:
    """SRD 3.5 Nalfeshnee: "Smite (Su): Three times per day a nalfeshnee can create a nimbus of unholy light ... burst
    in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will save or be dazed for 1d10 rounds
    ... The creature receives its full Dexterity and shield bonuses to AC if attacked but can take no actions"."""
    b = c.t.burst
    st["bursts"] = st.get("bursts", 0) + 1
    if f.lines is not None:
        f.log(f"{c.name}'s nimbus bursts", actor=c.name, action="nimbus")
    for e in targets:
        if not e.dead and not save(f, e, b.save, b.dc, c).success:
            add_condition(f, e, "stupefied", parse(b.rounds).roll(f.stream) * ROUND)


def _tireless(c: Combatant) -> bool:
    return bool({"fatigue", "exhaustion"} & c.t.immunities)


# --------------------------------------------------------------------------------------------- summoning
def summon(f: FightState, c: Combatant) -> bool:
    """SRD 3.5 Summon Demon (Sp): "Once per day a dretch can attempt to summon another dretch with a 35% chance of
    success" (a standard action, as the spell it is the equivalent of): the chance is rolled on the fight's
    stream; the creatures come at the end of the round (:func:`join`)."""
    s = c.t.summon
    st = state_of(c)
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
    cache = t.summon_cache
    if "template" not in cache:
        creature = cache.get("creature")  # from the fight's own bestiary (engine.prepare)
        if creature is None:
            from arena.world.bestiary import get_creature  # the bestiary loads only when a summoning succeeds

            try:
                creature = get_creature(t.summon.creature)
            except ArenaError:  # a name the bestiary does not have
                creature = None
        template = None
        if creature is not None:
            template = Template(creature, creature.name)
            template.set_side(t.side)
            template.summon = None
            template.compile_flags()
        cache["template"] = template
    return cache["template"]


def join(f: FightState, order: list[Combatant]) -> None:
    """At the end of a round the creatures summoned in it join their summoner's side, each placed right after its
    summoner in the initiative order (its turn at the summoner's instant). They are not flat-footed. No more join
    than :data:`~arena.limits.MAX_COMBATANTS` allows, counting everyone who has been in the fight."""
    record = f.record
    room = MAX_COMBATANTS - len(f.pcs) - len(f.monsters)
    for summoner, template, count, *hp in f.joining or ():
        if count > room:  # the limit of one fight holds for summoned and split creatures too
            if f.lines is not None:
                f.log(
                    f"{count - room} of {template.name} cannot join: a fight holds at most {MAX_COMBATANTS} creatures",
                    actor=summoner.name,
                    action="joins",
                    source=summoner.name,
                    count=count - room,
                    result="over the limit",
                )
            count = room
            if not count:
                continue
        room -= count
        own, foes = (f.monsters, f.pcs) if summoner.side == "monster" else (f.pcs, f.monsters)
        tally = record.monsters if summoner.side == "monster" else record.party
        place = order.index(summoner) + 1
        for k in range(count):
            uid = len(f.pcs) + len(f.monsters)
            new = Combatant(template, uid, summoner.settings, foes, own, tally)
            new.name = f"{template.name} {k + 1} ({summoner.name}'s)"
            new.offset = summoner.offset
            new.acted = True
            if hp:  # a split ooze: half the hit points, and no name of a summoning
                new.hp = hp[0]
                new.name = f"{summoner.name} (split {uid})"
            own.append(new)
            order.insert(place + k, new)
            f.able_count[new.side] += 1
            f.melee_count[new.side] += not new.ranged
        if f.lines is not None:
            f.log(
                f"{new.name} joins the fight"
                if hp
                else f"{count} {template.name} join the fight, summoned by {summoner.name}",
                actor=new.name if hp else template.name,
                action="joins",
                source=summoner.name,
                count=1 if hp else count,
            )
    f.joining = None


# --------------------------------------------------------------------------------------------- whirlwind
def whirlwind_turn(f: FightState, c: Combatant, st: dict) -> bool:
    """SRD 3.5 Whirlwind (air elemental): "Creatures one or more size categories smaller than the elemental might
    take damage when caught in the whirlwind ... must succeed on a Reflex save ... or take the indicated damage. It
    must also succeed on a second Reflex save or be picked up bodily and held suspended in the powerful winds,
    automatically taking the indicated damage each round ... take a -4 penalty to Dexterity and a -2 penalty on
    attack rolls"; "An elemental in whirlwind form cannot make slam attacks". Once a fight, when it catches two or
    more smaller foes (or the only foe); the form ends early when no smaller foe is left to catch or carry."""
    w = c.t.whirlwind
    left = st.get("whirl")
    size = _size(c)
    smaller = [e for e in c.foes if e.is_able and _size(e) < size]
    carried = [
        e for e in c.foes if not e.dead and "carried" in e.conditions and e.conditions["carried"][1].get("by") is c
    ]
    if left is None:  # not yet used
        if not _worth(len(smaller), sum(1 for e in c.foes if e.is_able)):
            return False
        left = parse(w.rounds).roll(f.stream)
        if f.lines is not None:
            f.log(f"{c.name} becomes a whirlwind for {left} rounds", actor=c.name, action="whirlwind", rounds=left)
    elif left <= 0 or not (smaller or carried):
        if left > 0:
            st["whirl"] = 0
            for e in carried:
                drop_condition(f, e, "carried")
        return False
    held = parse(w.held_damage)
    for e in carried:
        if not e.dead:
            deal(f, c, e, held.roll(f.stream), BLUDGEONING)
    hit = parse(w.damage)
    for e in smaller:
        if e.dead or e in carried:
            continue
        if not save(f, e, "ref", w.dc, c).success:
            deal(f, c, e, hit.roll(f.stream), BLUDGEONING)
        if not e.dead and not save(f, e, "ref", w.dc, c).success:
            add_condition(f, e, "carried", left * ROUND, by=c)
            if f.lines is not None:
                f.log(
                    f"{e.name} is caught up in {c.name}'s whirlwind",
                    actor=e.name,
                    action="caught-in-whirlwind",
                    source=c.name,
                )
    st["whirl"] = left - 1
    return True


# --------------------------------------------------------------------------------------------- roar, crush, smite
def roar(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """SRD 3.5 Dragonne: "A dragonne can loose a devastating roar every 1d4 rounds. All creatures except dragonnes
    within 120 feet must succeed on a DC 15 Will save or become fatigued. Those within 30 feet who fail their saves
    become exhausted" (within 30 feet: the foes in melee; a fatigued creature fatigued again is exhausted)."""
    r = c.t.roar
    state_of(c)["roar_at"] = f.instant + parse(r.recharge).roll(f.stream) * ROUND
    if f.lines is not None:
        f.log(f"{c.name} roars", actor=c.name, action="roar")
    for e in targets:
        if e.dead or save(f, e, r.save, r.dc, c).success:
            continue
        worse = not e.ranged or "fatigued" in e.conditions
        if worse:
            if "fatigued" in e.conditions:
                drop_condition(f, e, "fatigued")
            add_condition(f, e, "exhausted", FOREVER)
        else:
            add_condition(f, e, "fatigued", FOREVER)


def crush(f: FightState, c: Combatant, targets: list[Combatant]) -> None:
    """SRD 3.5 dragons, Crush: "land on opponents as a standard action ... effective only against opponents three
    or more size categories smaller ... Creatures in the affected area must succeed on a Reflex save (DC equal to
    that of the dragon's breath weapon) or be pinned, automatically taking bludgeoning damage during the next round"
    (the damage at once; keeping the pin is not modelled). One damage roll for every creature it lands on."""
    k = c.t.crush
    amount = parse(k.damage).roll(f.stream)
    if f.lines is not None:
        f.log(
            f"{c.name} lands on {', '.join(e.name for e in targets)}",
            actor=c.name,
            action="crush",
            targets=[e.name for e in targets],
        )
    for e in targets:
        if not e.dead and not save(f, e, "ref", k.dc, c).success:
            deal(f, c, e, amount, BLUDGEONING, weapon=True)


def smite(f: FightState, c: Combatant, target: Combatant, full: bool) -> None:
    """SRD 3.5 Smite Good: "Once per day ... can make a normal melee attack to deal an extra 18 points of damage
    against a good foe": the first swing of its routine, used up hit or miss; the model has no alignments and the
    party counts as good (a smite evil never applies, and is not spent)."""
    s = c.t.smite
    routine = c.t.full if full else c.t.standard
    if not routine or routine[0].ranged:
        return
    st = state_of(c)
    first = routine[0]
    swings = [(a, b) for a in routine for b in (a.full_bonuses if full else a.first_bonus)]
    applies = s.against == "good"
    if applies:
        st["smites"] = st.get("smites", 0) + 1
    for n, (attack, bonus) in enumerate(swings):
        if not target.is_able:
            target = tactics.choose_target(f.view, c)
            if target is None:
                return
        hit = swing_at(f, c, target, attack, bonus, n)
        if n == 0 and applies:
            if f.lines is not None:
                f.log(
                    f"{c.name} smites {s.against}: {'+' + str(s.damage) if hit else 'missed'}",
                    actor=c.name,
                    action="smite",
                    against=s.against,
                    result="hit" if hit else "miss",
                )
            if hit and not target.dead:
                deal(f, c, target, s.damage, first.types, first.overcomes)


# --------------------------------------------------------------------------------------------- each turn
def each_turn(f: FightState, c: Combatant) -> None:
    """A creature's free actions at the start of its turn, while it can act: a captivating song kept up, smoke,
    entangling plants, an eye ray."""
    if not c.is_able or c.hp < 0 or (c.conditions and "stunned" in c.conditions):
        return
    t = c.t
    if t.aura is not None and t.aura.effect == "captivate" and c.frightened:
        keep_singing(f, c)
    if t.smoke is not None:
        smoke(f, c)
    if t.entangle is not None:
        entangle(f, c)
    if t.eye_rays is not None:
        eye_ray(f, c)


def keep_singing(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Harpy: "The effect continues for as long as the harpy sings and for 1 round thereafter": each turn it
    can act it sings on (a free action here: the SRD names none), and its captives stay captivated another round."""
    until = f.instant + 2 * ROUND
    for e in c.foes:
        held = e.conditions.get("captivated") if e.conditions else None
        if held is not None and held[1].get("by") is c and held[0] < until:
            add_condition(f, e, "captivated", 2 * ROUND, by=c)


def smoke(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Nightmare: "fills a 15-foot cone with a hot, sulfurous smoke ... Anyone in the cone must succeed on
    a DC 16 Fortitude save or take a -2 penalty on all attack and damage rolls until 1d6 minutes after leaving the
    cone ... the nightmare uses it once as a free action during its turn each round" (it stays near them: the
    penalty lasts the fight). Creatures that do not breathe (undead, constructs) are not choked."""
    s = c.t.smoke
    enemies = [e for e in c.foes if e.is_able]
    if not enemies:
        return
    first = tactics.choose_target(f.view, c, enemies)
    caught = [first] + [e for e in enemies if e is not first]
    for e in caught[: area_count(f"cone-{s.length_ft}", len(enemies))]:
        if "choking" in e.conditions or e.t.type in ("undead", "construct", "elemental"):
            continue
        if not save(f, e, s.save, s.dc, c).success:
            add_condition(f, e, "choking", FOREVER)


def entangle(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Assassin vine: "can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)", as
    the entangle spell: "Creatures that fail their save are entangled ... Each round on your turn, the plants once
    again attempt to entangle all creatures that have avoided or escaped entanglement ... a DC 20 Strength check"."""
    e_ = c.t.entangle
    for e in c.foes:
        if not e.is_able or "entangled" in e.conditions:
            continue
        if not save(f, e, "ref", e_.dc, c).success:
            add_condition(f, e, "entangled", FOREVER, dc=e_.burst_dc)


def eye_ray(f: FightState, c: Combatant) -> None:
    """SRD 3.5 Retriever: "Each round, it can fire one ray as a free action. A particular ray is usable only once
    every 4 rounds ... The save DC for all rays is 18"; a ray is a ranged touch attack, then "Fire: Deals 12d6
    points of fire damage to the target (Reflex half)", "Petrification: The target must succeed on a Fortitude save
    or turn to stone permanently". It fires the first ray that is ready, at the foe its targeting prefers."""
    rays = c.t.eye_rays
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
    outcome = f.resolve(
        Check("attack", c.side, mod, ac, 0, 20, 2, target.side, flat_footed=not target.acted), c, target
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
    area_damage(f, c, target, parse(ray.damage), frozenset({ray.damage_type}), ray.save, rays.dc)
