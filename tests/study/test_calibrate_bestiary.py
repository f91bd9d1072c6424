"""Issue 17 in the library: `calibrate(..., bestiary=)` and matchups that carry the user's stat block. Two different
stat blocks of one name (a user's `aboleth` and the SRD's) never share a digest, a prepared encounter of a worker's
cache or a result, in one long-lived process, whichever is calibrated first."""

from __future__ import annotations

import hashlib
import json
import pickle
import re

import pytest
import yaml

import arena
from arena.errors import ArenaError
from arena.study.calibration import calibrate as cal
from arena.study.runs import workers
from arena.study.runs.matchups import Matchup, own_stat_block, run_batch
from arena.world.bestiary import get_creature, load_bestiary

SMALL = {"sizes": [2], "rules": ["3d6"], "n": 6, "seed": 3, "resamples": 20}


def _write(path, creature, **changes):
    doc = {**creature.model_dump(mode="json", exclude_defaults=True), **changes}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


@pytest.fixture
def feeble_aboleth(tmp_path):
    """The user's `aboleth`: the SRD one with 1 hit point and a feeble tentacle (it replaces the imported name)."""
    srd = get_creature("aboleth")
    tentacle = {"name": "tentacle", "bonuses": [-5], "damage": "1", "damage_types": ["bludgeoning"]}
    return _write(tmp_path / "aboleth.yaml", srd, hp=1, hit_dice="1d2", attack=[[tentacle]], full_attack=[[tentacle]])


def test_same_name_different_stat_blocks_have_different_keys_and_digests(feeble_aboleth):
    srd = get_creature("aboleth")
    mine = get_creature("aboleth", load_bestiary([feeble_aboleth]))
    assert mine.name == srd.name == "aboleth" and mine != srd
    plain = Matchup(5, "aboleth", 2, ("d20",), 10)
    carried = Matchup(5, "aboleth", 2, ("d20",), 10, stat_block=mine)
    assert plain.name == carried.name  # the same label in a table ...
    assert plain.digest() != carried.digest() and plain.key != carried.key  # ... not the same matchup
    other = Matchup(5, "aboleth", 2, ("d20",), 10, stat_block=mine.model_copy(update={"hp": 2}))
    assert other.digest() != carried.digest()  # the content counts, not the name
    twin = Matchup(5, "aboleth", 2, ("d20", "3d6"), 99, seed=4, stat_block=load_bestiary([feeble_aboleth])["aboleth"])
    assert twin.digest() == carried.digest() and twin.key == carried.key  # a copy read again is the same matchup
    assert pickle.loads(pickle.dumps(carried)).digest() == carried.digest()
    assert len({plain, carried, other, twin}) == 4  # matchups hash, stat blocks compare
    assert carried == Matchup(**{**twin.__dict__, "rules": ("d20",), "n": 10, "seed": 0})
    assert carried.creature() is mine and plain.creature() == srd


def test_a_built_in_name_keeps_its_digest():
    """A matchup that carries nothing keeps the digest it had before stat blocks were carried."""
    m = Matchup(3, "orc", 2, ("d20",), 10, seed=1, attack_bonus=2)
    old = json.dumps({"matchup": [3, "orc", 2, 2, "never", "never", 50], "v": 1}, sort_keys=True)
    assert m.digest() == hashlib.sha256(old.encode()).hexdigest()
    assert "stat_block" not in m.model_dump()
    assert own_stat_block(get_creature("orc")) is None  # the built-in answer: nothing to carry
    assert own_stat_block(get_creature("srd/troll"), "srd/troll") is None
    assert own_stat_block(get_creature("srd/troll")) is not None  # "troll" is the hand-written one


def test_a_stat_block_must_be_the_named_monster():
    with pytest.raises(ArenaError, match="the stat block is 'orc', not the monster 'troll'"):
        Matchup(3, "troll", 1, ("d20",), 4, stat_block=get_creature("orc"))


def test_the_worker_cache_keeps_the_two_aboleths_apart(feeble_aboleth):
    """Batches fought one after the other in one process, through the worker's prepared-encounter cache."""
    mine = get_creature("aboleth", load_bestiary([feeble_aboleth]))
    srd_m = Matchup(5, "aboleth", 2, ("d20",), 6, seed=2)
    my_m = Matchup(5, "aboleth", 2, ("d20",), 6, seed=2, stat_block=mine)

    def fought(m: Matchup) -> list:
        return run_batch([m]).rows(m, "d20")["party_hp_lost"].tolist()

    workers._PREPARED.clear()
    srd_first, mine_after = fought(srd_m), fought(my_m)
    workers._PREPARED.clear()
    mine_first, srd_after = fought(my_m), fought(srd_m)
    assert mine_after == mine_first and srd_after == srd_first
    assert mine_first != srd_first and max(mine_first) < min(srd_first)


def test_calibrating_your_aboleth_and_the_srd_one_in_one_process(feeble_aboleth):
    workers._PREPARED.clear()
    srd = cal.calibrate("aboleth", 5, **SMALL)
    mine = cal.calibrate("aboleth", 5, bestiary=[feeble_aboleth], **SMALL)
    srd_again = cal.calibrate("aboleth", 5, **SMALL)
    workers._PREPARED.clear()
    mine_alone = cal.calibrate("aboleth", 5, bestiary=feeble_aboleth, **SMALL)  # one path is a bestiary too
    assert mine.equals(mine_alone) and srd.equals(srd_again)
    assert list(mine["monster"]) == list(srd["monster"]) == ["aboleth"]
    assert mine["difficulty_d20"].iloc[0] < srd["difficulty_d20"].iloc[0]
    assert mine["difficulty"].iloc[0] != srd["difficulty"].iloc[0]


def test_the_ways_to_name_your_monster_agree(feeble_aboleth):
    book = load_bestiary([feeble_aboleth])
    by_path = cal.calibrate("aboleth", 5, bestiary=[str(feeble_aboleth)], **SMALL)
    by_book = cal.calibrate("Aboleth", 5, bestiary=book, **SMALL)
    by_block = arena.calibrate(book["aboleth"], 5, **SMALL)  # the notebook API: the stat block itself
    assert by_path.equals(by_book) and by_path.equals(by_block)
    same_as_srd = _write(feeble_aboleth.parent / "same.yaml", get_creature("aboleth"))
    assert cal.calibration_monster("aboleth", [same_as_srd]) == ("aboleth", None)  # nothing to carry


def test_your_monster_on_two_workers_is_your_monster(feeble_aboleth):
    """loky workers start with the built-in bestiary only; nothing is patched in them, the matchups carry it."""
    one = cal.calibrate("aboleth", 5, bestiary=[feeble_aboleth], workers=1, **SMALL)
    two = cal.calibrate("aboleth", 5, bestiary=[feeble_aboleth], workers=2, **SMALL)
    assert one.equals(two)


@pytest.mark.parametrize(
    ("monster", "bestiary", "needle"),
    [
        ("bog-hag", None, "unknown creature 'bog-hag'"),
        ("aboleth", ["nowhere.yaml"], "nowhere.yaml: no such file or folder"),
        (42, None, "a name or a stat block (Creature), not int"),
    ],
)
def test_bad_monsters_are_arena_errors(monster, bestiary, needle):
    with pytest.raises(ArenaError, match=re.escape(needle)):
        cal.calibrate(monster, 5, **SMALL, bestiary=bestiary)


def test_a_stat_block_takes_no_bestiary(feeble_aboleth):
    with pytest.raises(ArenaError, match="a stat block needs none"):
        cal.calibrate(get_creature("aboleth"), 5, bestiary=[feeble_aboleth], **SMALL)


def test_arena_run_takes_a_bestiary_too(tmp_path, feeble_aboleth):
    scenario = tmp_path / "duel.yaml"
    scenario.write_text("name: duel\nparty: {level: 5}\nmonsters: [aboleth]\nrules: [d20]\n")
    srd = arena.run(scenario, n=4, seed=1, workers=1)
    mine = arena.run(scenario, n=4, seed=1, workers=1, bestiary=feeble_aboleth)
    assert (mine["party_hp_lost"] < srd["party_hp_lost"]).all()
    with pytest.raises(ArenaError, match="a Scenario object has looked its names up already"):
        arena.run(arena.load_scenarios(scenario), n=4, workers=1, bestiary=[feeble_aboleth])
