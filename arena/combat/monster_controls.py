"""Monsters' spells that take a foe out of the fight by its mind: charm person, charm monster, suggestion, daze,
cause fear, scare, command, hold monster. One rule, :func:`control`, for the family; :mod:`arena.combat.monster_spells`
casts them through :func:`controls`, under each name of :data:`CONTROL_SPELLS` in its ``MONSTER_CASTS``. Their
facts (save, school, who they can affect) are in :data:`arena.world.spellbook.MONSTER_SPELLS`.

- **Charm person, charm monster, suggestion**: a charmed or suggested creature stops fighting for the spell's
  duration (hours: the rest of the fight). It is out of the fight but not helpless (no coup de grace): the model's
  ``panicked`` condition, with the spell in its data; its side's count of able creatures falls, so a party all
  charmed has lost. The SRD's
  "+5 bonus on its saving throw" for a creature "currently being threatened or attacked" applies to charms (the
  arena is always a fight); suggestion's course of action is "leave the fight" (reasonable-sounding, so no
  bonus). The charm would break if the charmer's side attacked it; the policies never attack a creature out of
  the fight, so it holds.
- **Daze**: dazed 1 round: no actions, no penalty to AC. **Cause fear, scare**: frightened (flees: out of the
  fight, not helpless: ``panicked`` in the model) for 1d4 rounds (cause fear) or 1 round per level (scare);
  a successful save leaves it shaken for 1 round. **Hold monster**: hold person on any living creature.
- **Command**: halt: dazed 1 round (no actions, not helpless), Will negates.
"""

from __future__ import annotations

from arena.combat.clock import ROUND
from arena.combat.combatant import Combatant
from arena.combat.conditions import add_condition
from arena.combat.fight_state import FightState
from arena.combat.rolls import gets_through, roll, save
from arena.world.spellbook import SPELLS

__all__ = ["CONTROL_SPELLS", "OUT_OF_FIGHT", "control", "controls", "out_of_fight"]

CONTROL_SPELLS = (
    "charm person",
    "charm monster",
    "suggestion",
    "daze",
    "cause fear",
    "scare",
    "command",
    "hold monster",
)
"""The single-target spells that take a creature out of the fight after its save (:func:`control`)."""

CHARM_THREATENED = 5
"""SRD charm person / charm monster: "If the creature is currently being threatened or attacked by you or your
allies, however, it receives a +5 bonus on its saving throw." (Always, in an arena fight.)"""


def controls(f: FightState, caster: Combatant, name: str, targets: list[Combatant], dc: int, cl: int) -> None:
    """SRD charms, suggestion, daze, fears, command, hold monster: each target past SR saves or is taken out."""
    for target in targets:
        if not target.dead and target.is_able and gets_through(f, caster, target):
            control(f, caster, name, target, dc, cl)


def control(f: FightState, caster: Combatant, name: str, target: Combatant, dc: int, cl: int) -> None:
    """A single-target spell that takes its target out of the fight for a while, after its Will save."""
    if name in ("charm person", "charm monster"):
        # SRD: "This charm makes a humanoid creature regard you as its trusted friend and ally ... If the creature
        # is currently being threatened or attacked by you or your allies, however, it receives a +5 bonus on its
        # saving throw." Duration 1 hour/level (charm monster: 1 day/level): the rest of the fight.
        target.save_bonus += CHARM_THREATENED
        try:
            saved = save(f, target, "will", dc, caster).success
        finally:
            target.save_bonus -= CHARM_THREATENED
        if not saved:
            out_of_fight(f, target, "charmed", name, cl * SPELLS[name].rounds_per_level * ROUND, cl)
    elif name == "suggestion":
        # SRD: "You influence the actions of the target creature by suggesting a course of activity ... The
        # suggested course of activity can continue for the entire duration" (1 hour/level): leave the fight.
        if not save(f, target, "will", dc, caster).success:
            out_of_fight(f, target, "suggested", name, cl * SPELLS[name].rounds_per_level * ROUND, cl)
    elif name == "daze":
        # SRD: "This enchantment clouds the mind of a humanoid creature with 4 or fewer Hit Dice so that it takes
        # no actions. ... A dazed subject is not stunned, so attackers get no special advantage against it."
        # Duration 1 round.
        if not save(f, target, "will", dc, caster).success:
            add_condition(f, target, "dazed", ROUND, spell=name, cl=cl)
            target.afflicted = True  # its turn looks at the condition
    elif name in ("cause fear", "scare"):
        # SRD cause fear: "The affected creature becomes frightened. If the subject succeeds on a Will save, it is
        # shaken for 1 round. Creatures with 6 or more Hit Dice are immune to this effect." Duration 1d4 rounds
        # (scare: "all targeted creatures of less than 6 HD", 1 round/level).
        if save(f, target, "will", dc, caster).success:
            if "shaken" not in target.conditions:
                add_condition(f, target, "shaken", ROUND)
        else:
            rounds = roll(f, "1d4") if name == "cause fear" else cl
            out_of_fight(f, target, "frightened", name, rounds * ROUND, cl)
    elif name == "command":
        # SRD command: "You give the subject a single command, which it obeys to the best of its ability at its
        # earliest opportunity ... Halt: The subject stands in place for 1 round. It may not take any actions but is
        # not considered helpless." The caster's word here is halt (the others, approach, drop, fall, flee, do less
        # or as much in an arena); 1 round, Will negates: as daze's no actions, not helpless.
        if not save(f, target, "will", dc, caster).success:
            add_condition(f, target, "dazed", ROUND, spell=name, cl=cl)
            target.afflicted = True
    elif name == "hold monster" and not save(f, target, "will", dc, caster).success:
        # SRD: "This spell functions like hold person, except that it affects any living creature that fails its
        # Will save." Hold person: "The subject becomes paralyzed ... each round on its turn, the subject may
        # attempt a new saving throw to end the effect." Duration 1 round/level.
        add_condition(f, target, "held", cl * ROUND, dc=dc, spell=name, cl=cl)


OUT_OF_FIGHT = "panicked"
"""The model's condition for a creature out of the fight but not helpless (it flees, or will not fight): a
charmed, suggested or frightened creature is ``panicked`` with the spell that did it in the condition's data."""


def out_of_fight(f: FightState, target: Combatant, why: str, spell: str, seconds: float, cl: int) -> None:
    """``target`` stops fighting for ``seconds`` (charmed, suggested, frightened by ``spell``)."""
    old = target.conditions.get(OUT_OF_FIGHT)
    if old is not None and old[0] >= f.instant + seconds:
        return  # already out for longer
    add_condition(f, target, OUT_OF_FIGHT, seconds, why=why, spell=spell, cl=cl)
    if f.lines is not None:
        f.log(
            f"{target.name} is {why} by {spell}: out of the fight",
            actor=target.name,
            action="condition",
            result=why,
            spell=spell,
        )
