"""The record's per-side counters: :data:`arena.combat.record.PER_SIDE` names exactly the counters a
:class:`~arena.combat.record.SideTally` keeps (the class sets them in its own ``__init__``, for the compiled engine)."""

from arena.combat.record import HISTOGRAM_BINS, PER_SIDE, SideTally, record_schema


def test_per_side_names_every_counter_of_a_tally_once():
    tally = SideTally()
    counters = {name: value for name, value in vars(tally).items() if name != "hist"}
    assert sorted(PER_SIDE) == sorted(counters) and len(set(PER_SIDE)) == len(PER_SIDE)
    assert set(counters.values()) == {0} and tally.hist == [0] * HISTOGRAM_BINS


def test_the_record_has_a_column_per_counter_and_side():
    schema = record_schema()
    for name in PER_SIDE:
        assert f"{name}_party" in schema and f"{name}_monsters" in schema
