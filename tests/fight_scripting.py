"""Scripted dice for engine tests: feed a fight the exact draws a test wants."""

from arena.combat.engine import Fight, prepare
from arena.dice import Stream
from arena.rules import RuleSet
from arena.world.creatures import Creature

SWORD = {"name": "sword", "bonuses": [5], "damage": "1d6", "damage_types": ["slashing"]}


def stat_block(
    name: str,
    side: str = "monster",
    hp: int = 30,
    ac: int = 12,
    attack: dict | None = None,
    *,
    flat_footed_ac: int | None = None,
    hit_dice: str = "3d8",
    saves: dict | None = None,
    **extra,
) -> Creature:
    """An inline humanoid with one attack routine (a sword unless told), for engine tests (3d8 hit dice: first hit
    die 8; default parts head +4, hand +4, eye +8 ...)."""
    fields = dict(
        name=name,
        type="humanoid",
        side=side,
        hp=hp,
        hit_dice=hit_dice,
        ac=ac,
        touch_ac=10,
        flat_footed_ac=ac if flat_footed_ac is None else flat_footed_ac,
        bab=3,
        grapple=3,
        saves=saves or {"fort": 2, "ref": 2, "will": 2},
        attack=[[attack or SWORD]],
    )
    if side == "monster":
        fields["cr"] = 1
    fields.update(extra)
    return Creature(**fields)


def make_fight(party: list[Creature], monsters: list[Creature], key: str = "d20", seed: int = 0, **options) -> Fight:
    """One of each monster against the party, with the log on."""
    return Fight(prepare(party, [(m, 1) for m in monsters], **options), RuleSet.from_key(key), seed, log=True)


class Script:
    """Feed a fight scripted draws ((face, sides) or raw floats) and tell whether all were used."""

    def __init__(self, fight: Fight, draws: list):
        self.left = [d if isinstance(d, float) else (d[0] - 0.5) / d[1] for d in draws]

        def rand() -> float:
            if not self.left:
                raise AssertionError("the engine drew more dice than scripted")
            return self.left.pop(0)

        stream = Stream.scripted([])
        stream.rand = rand
        fight.stream = stream
        fight.rand = rand

    @property
    def used_up(self) -> bool:
        return not self.left


BITE = {"name": "bite", "bonuses": [6], "damage": "1d8+4", "damage_types": ["piercing"]}
CLAWS = {"name": "claw", "bonuses": [6], "count": 2, "damage": "1d4+2", "damage_types": ["slashing"]}


def d20(natural: int) -> tuple[int, int]:
    """A scripted d20 roll: the natural, on the d20's twenty faces (a :class:`Script` draw)."""
    return natural, 20


def beast(name: str = "beast", **extra) -> Creature:
    """A Large animal with a bite and two claws (CR 3), the special-ability tests' subject; ``extra`` adds the
    ability under test."""
    fields = dict(
        size="large",
        type="animal",
        hp=40,
        hit_dice="5d8+15",
        ac=14,
        touch_ac=10,
        flat_footed_ac=13,
        bab=3,
        grapple=12,
        saves={"fort": 7, "ref": 5, "will": 2},
        attack=BITE,
        full_attack=[[BITE, CLAWS]],
        cr=3,
    )
    fields.update(extra)
    return stat_block(name, **fields)


def assert_reproducible_and_used(field: str, value) -> None:
    """Seeded fights of a level-3 party against two beasts with the ability ``field: value``, seeds 0-39: the same
    seed gives the same fight, and the ability changes some fights against beasts without it (it is used)."""
    from arena.combat.engine import fight
    from arena.world.party import generate_party

    party = generate_party(3)
    with_it = prepare(party, [(beast(**{field: value}), 2)])
    without = prepare(party, [(beast(), 2)])
    rules = RuleSet()
    first = [fight(with_it, rules, s).record.as_row() for s in range(40)]
    assert first == [fight(with_it, rules, s).record.as_row() for s in range(40)]
    assert first != [fight(without, rules, s).record.as_row() for s in range(40)]
