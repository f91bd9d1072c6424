"""Called shots (seed 003, second half): the document's tables and what a called shot does to a roll.

Once per round, on the caller's own turn, a non-touch attack that would deal lethal damage may be called at a body
part the target has: declared before the roll, made while pressing luck, against the part's improved AC (+2 for a
melee attack within reach). Beating the original AC but not the improved one is an ordinary hit; beating the
improved AC is a called hit, whose effect begins right after its damage (which first soaks temporary hit points).
The engine (`arena.combat.injuries`) applies the lasting effects over time.
"""

from __future__ import annotations

PENALTY = -2
"""A called hit imposes a -2 circumstance penalty on the rolls the table names for that part."""
MELEE_BONUS = 2
"""A melee called shot within reach gets +2 against the improved AC."""
SEVERITY_STEPS = ((1.0, -4), (0.75, -3), (0.5, -2), (0.25, -1))
"""A creature with several of a part: -1 / -2 / -3 / -4 at a quarter / half / three quarters / all of them
severely damaged."""
SONIC_EARS_FACTOR = 2
"""Sonic damage of at least twice the maximum of the first hit die is a called hit on all ears."""
TOUGH_THROUGH_BASE = 10
"""Tough through: a Fortitude or Will save (the injured creature's choice) against DC 10 + the damage dealt."""

AFFECTS: dict[str, frozenset[str]] = {
    # "Table: Called Shots and Effects", reduced to the rolls the engine makes. Keys of the rolls:
    # attack (every attack roll), ranged (ranged attack rolls), hand (attack rolls with that hand),
    # fort / ref / will (saves), initiative, str / dex (ability checks).
    "hand": frozenset({"hand"}),  # skills not modelled; "attack rolls with that hand"
    "arm": frozenset({"hand", "str"}),  # "attack rolls with that hand; Strength checks"
    "head": frozenset({"attack", "fort", "ref", "will", "initiative", "str", "dex"}),  # all attacks, saves, checks
    "crotch": frozenset({"attack", "fort", "ref", "will", "initiative", "str", "dex"}),
    "eye": frozenset({"ranged", "ref", "initiative", "dex"}),
    "ear": frozenset({"initiative"}),  # and Listen
    "foot": frozenset({"ref", "dex"}),
    "leg": frozenset({"ref", "dex"}),
    "wing": frozenset({"ref", "dex"}),
    "tail": frozenset({"ref", "dex"}),
}
PER_INSTANCE = frozenset({"hand", "arm"})
"""Parts whose penalty follows the one injured (that hand's attacks) rather than the share severely damaged."""
VALUE = {"head": 10, "crotch": 9, "hand": 6, "arm": 5, "eye": 3, "leg": 1, "foot": 1, "wing": 1, "tail": 1, "ear": 0}
"""How much the caller's side gains from a called hit on each part (``when-better`` calls the most valuable part
whose called-hit chance stays above :data:`WHEN_BETTER_FLOOR`): everything > attacks > ranged and Reflex > Reflex."""
WHEN_BETTER_FLOOR = 0.30
"""``when-better`` calls a shot only when the exact chance of a called hit is at least 30%."""
TWO_HANDED = frozenset(
    {
        "greatclub",
        "greatsword",
        "greataxe",
        "quarterstaff",
        "falchion",
        "glaive",
        "halberd",
        "longspear",
        "guisarme",
        "ranseur",
        "scythe",
        "spiked chain",
        "heavy flail",
        "light crossbow",
        "heavy crossbow",
        "longbow",
        "shortbow",
    }
)
"""Weapons used with both hands: an injury to either hand counts against them, and injuries to both stack."""
NATURAL = frozenset({"claw", "slam", "bite", "gore", "tail", "wing", "sting", "talon", "tentacle"})
"""Natural attacks: paired claws or slams use one hand each; bites, gores and tails use none."""


def severity_penalty(severe: int, count: int) -> int:
    """The penalty of a part a creature has ``count`` of, ``severe`` of them severely damaged."""
    if count <= 1:
        return PENALTY if severe else 0
    share = severe / count
    return next((p for threshold, p in SEVERITY_STEPS if share >= threshold), 0)


def hands_used(attack_name: str, swing: int, count: int) -> tuple[int, ...]:
    """Which hands (0, 1) an attack uses: both for a two-handed weapon, alternating for paired natural attacks,
    none for a bite or gore, the weapon hand (0) otherwise."""
    name = attack_name.lower()
    if name in TWO_HANDED:
        return (0, 1)
    if name in NATURAL:
        return (
            (swing % 2,)
            if name in ("claw", "slam", "talon") and count >= 2
            else ((0,) if name in ("claw", "slam", "talon") else ())
        )
    return (0,)
