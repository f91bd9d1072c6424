"""Runtime combatants: one creature's state in one encounter.

A :class:`Combatant` is a fresh copy of the mutable state for one encounter, so nothing carries over between
encounters; what never changes in a fight is its :class:`arena.combat.template.Template`, compiled once. Pydantic
stays at the edges: the hot loop touches only these objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.combat.record import SideTally
from arena.combat.template import Template

if TYPE_CHECKING:  # a type only: the tactics sit above the combatants (docs/architecture.md)
    from arena.combat.tactics.policies import TacticsSettings

INFINITY = float("inf")
NO_INJURIES: frozenset = frozenset()
UNABLE = frozenset(
    {
        "asleep",
        "held",
        "knocked-out",
        "paralyzed",
        "helpless",
        "panicked",
        "petrified",
        "swallowed",
        "captivated",
        "stupefied",
        "charmed",
        "engulfed",
        "nauseated",
        "amorphous",
    }
)
"""Conditions under which a creature cannot act (the fight ends when a side has nobody able)."""
NOT_HELPLESS = frozenset(
    {"panicked", "petrified", "swallowed", "stupefied", "charmed", "engulfed", "nauseated", "amorphous"}
)
"""Out of the fight but no target for a coup de grace: fled, turned to stone, inside a monster."""


class Combatant:
    """One creature's state in one encounter."""

    # Its counters and rare states, reset by each encounter (the types mypy reads; the slots below hold them).
    nonlethal: int
    temp_hp: int
    attack_bonus: int
    """The changes that spells and conditions make to its attack rolls, AC, saves and damage rolls."""
    ac_bonus: int
    save_bonus: int
    damage_bonus: int
    negative_levels: int
    damage_dealt: int
    downs: int
    init: int
    """Its initiative total."""
    melee_attackers: int
    """How many able enemies made their last melee attack against it (two or more: flanked)."""
    raging: int
    """While it rages, its rage's change to its melee attack and damage rolls (:mod:`arena.abilities.rage`: +4
    Strength, 2); 0 (False) while it does not."""
    afflicted: bool
    """Something its turn must look at may be in force (a spell being cast, a fire, a grapple, a web, slow gas)."""
    frightened: bool
    """Its presence (frightful presence, a stench, an aura) has been used: it acts on the first action only."""
    ability_loss: dict[str, int] | None
    """Lost ability points by ability (None until it loses some)."""
    ability_mods: dict[str, int] | None
    """The modifier changes of its lost ability points, by ability."""
    save_mods: dict[str, int] | None
    finesse_shift: int
    """What a Weapon Finesse attack's roll takes beside :attr:`attack_bonus`: its lost points count on the better of
    Dexterity and Strength, where ``attack_bonus`` counts them on Strength (:func:`~arena.combat.conditions.
    recompute_bonuses`); 0 while it has lost none."""
    """The save modifiers they make (:func:`arena.combat.conditions.recompute_bonuses`)."""
    dodge_against: Combatant | None
    """The opponent its Dodge bonus applies against (designated on its turn)."""
    melee_target: Combatant | None
    """The creature its last melee attack was against, while it stays able."""
    casting: tuple[str, int, list[Combatant], int] | None
    """A spell of one round's casting time under way (spell, level, targets, hit points when begun)."""
    grip: tuple[bool, Combatant] | None
    specials: dict | None
    """Per-fight state of its special abilities (uses, who saved, a whirlwind's rounds): a dict once used."""
    """In a grapple: (True, the foe it holds) or (False, the creature holding it)."""
    burning: list | None
    """While it burns: [rounds left, fire damage dice, source, the fire's turn] (:mod:`arena.abilities.burn`)."""

    def __init__(
        self,
        template: Template,
        uid: int,
        settings: TacticsSettings,
        foes: list[Combatant] | None = None,
        friends: list[Combatant] | None = None,
        tally: SideTally | None = None,
    ) -> None:
        self.t = template
        self.name = template.name
        self.side = template.side
        self.uid = uid
        self.settings = settings
        self.foes = [] if foes is None else foes
        """The other side's combatants, and this side's (the lists the fight keeps)."""
        self.friends = [] if friends is None else friends
        self.tally: SideTally = SideTally() if tally is None else tally
        """This side's counters in the fight's record (its own, for a creature made outside a fight)."""
        self.hp = template.max_hp
        self.nonlethal = self.temp_hp = self.attack_bonus = self.ac_bonus = self.save_bonus = 0
        self.damage_bonus = self.negative_levels = self.damage_dealt = self.init = self.finesse_shift = 0
        self.melee_attackers = 0
        self.raging = self.afflicted = self.frightened = False
        self.ability_loss = self.ability_mods = self.save_mods = self.burning = None
        self.dodge_against = self.melee_target = self.casting = self.grip = None
        self.specials = None
        self.offset = 0.0
        """Where this creature's turn falls within a round, in seconds after the round starts (set by initiative):
        durations run from the instant of the turn that started them to the same point of a later round."""
        self.dead = self.stable = self.prone = self.acted = self.luck_used = False
        self.death_cause = 0
        self.downs = 0
        """How many times it went out of the fight (became unable to act): counted by
        :func:`arena.combat.states.refresh`, for the per-combatant rows (``fight(..., combatants=True)``)."""
        """What killed it (:data:`arena.combat.states.DEATH_CAUSES`, by code - 1); 0 while it lives."""
        self.weapon_lost = False
        """A fumbled ranged attack lost or broke the ranged weapon (set it through ``Fight.lose_weapon``, which
        also moves the creature into melee)."""
        self.called_this_round = self.blind = self.deaf = self.concealed = False
        """blind: every eye severely damaged; deaf: every ear (both kept current with the injuries)."""
        self.is_able = True
        """:meth:`able` as of the last change the fight made to this creature (the fight keeps it current)."""
        self.conditions: dict[str, list] = {}
        """name -> [ends_at (simulated seconds), data]: bless, shield of faith, asleep, held, stunned, ... (add them
        through ``Fight.add_condition``, which keeps :attr:`expires_at` current)."""
        if template.invisible:  # natural invisibility: invisible all fight, even when it attacks
            self.conditions["invisible"] = [INFINITY, {"natural": True}]
            self.concealed = True  # the swing rolls its 50% miss chance (arena.combat.concealment)
        self.expires_at = INFINITY
        """No condition ends before this time (the earliest end when set; it may be early after a removal)."""
        self.slots = {level: list(names) for level, names in template.spells.items()} if template.spells else {}
        self.slot_cache: dict[str | None, list[tuple[str, int]]] | None = None
        """Prepared spells by kind, highest level first (the policy layer's, kept current by :meth:`spend_slot`)."""
        self.policy = settings.policy or template.policy
        self.coup: str = ""
        """Which helpless foes it finishes with a coup de grace: ``ruthless``, ``after-threats`` or ``never`` (``""``
        until the fight sets it up: :func:`arena.combat.tactics.view.resolve_coup_style`, once per combatant)."""
        self.ranged = self.policy == "caster" and bool(template.ranged_full) or template.prefers_ranged
        """Fights from a distance (it has a ranged weapon and shoots): it does not engage in melee. The fight
        corrects a caster's choice under the ``caster-melee`` fix (:func:`arena.combat.template.shoots_better`)."""
        self.injuries: dict = {}
        """(part, index) -> :class:`arena.combat.injuries.Injury`: called-shot penalties in force."""
        self.toughed: frozenset = NO_INJURIES
        """Injuries toughed through for the current turn."""
        self.penalty_cache: dict = {}
        """Injury penalty by (roll, hands), valid until the injuries or the injuries toughed through change."""
        self.attack_action: object | None = None
        """The policy layer's action "attack this creature" (an :class:`arena.combat.actions.Action`, which sits
        above this module), built once per fight on first use."""

    def spend_slot(self, spell: str, level: int) -> None:
        """Use up a prepared spell, keeping the policy layer's by-kind cache in step."""
        self.slots[level].remove(spell)
        if self.slot_cache is not None:
            for entries in self.slot_cache.values():
                if (spell, level) in entries:
                    entries.remove((spell, level))
                    break

    # ------------------------------------------------------------------ states (SRD 3.5 hit points)
    @property
    def max_hp(self) -> int:
        return self.t.max_hp

    def helpless(self) -> bool:
        return not self.able()

    def able(self) -> bool:
        """Able to act: alive, conscious, not asleep, held or knocked out (the fight ends when a side has none)."""
        if self.dead or (self.hp < 0 and not self.t.ferocity) or (self.nonlethal and self.nonlethal > self.hp):
            return False  # disabled (0 hp) still acts, barely
        conditions = self.conditions
        return not conditions or UNABLE.isdisjoint(conditions)

    def single_action(self) -> bool:
        """Disabled (0 hp) or staggered (nonlethal damage equal to hit points): one standard action a turn (slow gas
        too: the fight's turn checks it)."""
        return self.hp == 0 or (self.nonlethal != 0 and self.nonlethal == self.hp)

    def dying(self) -> bool:
        return not self.dead and self.hp < 0 and not self.stable

    def state(self) -> str:
        if self.dead:
            return "dead"
        if self.hp < 0:
            return "stable" if self.stable else "dying"
        if self.nonlethal > self.hp:
            return "unconscious (nonlethal)"
        if self.hp == 0:
            return "disabled"
        if self.nonlethal == self.hp and self.nonlethal:
            return "staggered"
        for name in ("asleep", "held", "stunned"):
            if name in self.conditions:
                return name
        return "fighting"

    def __repr__(self) -> str:
        return f"<{self.name} {self.hp}/{self.t.max_hp} {self.state()}>"
