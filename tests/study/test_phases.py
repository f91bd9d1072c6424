"""A study's parts fought at once (:mod:`arena.study.runs.phases`): the same numbers as one after another, in the
order given; a failure or an interrupt stops the other parts at their next chunk and is the error raised; one
progress over every batch; a batch told to stop stops. Event-driven throughout: nothing here waits on a clock."""

from __future__ import annotations

import threading

import pytest
from experiment_fakes import FakeScenario, FakeSimulator

from arena.study.runs import phases
from arena.study.runs.plan import make_plan
from arena.study.runs.workers import Cancelled, execute


def test_one_worker_runs_the_parts_in_order_on_the_calling_thread():
    seen = []

    def part(name):
        def run(fights):
            seen.append((name, threading.current_thread() is threading.main_thread(), "stop" in fights))
            return name.upper()

        return run

    out = phases.run_phases({"a": part("a"), "b": part("b")}, {"workers": 1, "cluster": None})
    assert out == {"a": "A", "b": "B"} and list(out) == ["a", "b"]
    assert seen == [("a", True, False), ("b", True, False)]


def test_parts_run_at_once_on_a_pool_and_come_back_in_the_order_given():
    both_started = threading.Barrier(2)  # passes only if the two parts run at the same time

    def part(name):
        def run(fights):
            assert fights["share_pool"] and isinstance(fights["stop"], threading.Event)
            both_started.wait()
            return name

        return run

    out = phases.run_phases({"second": part("second"), "first": part("first")}, {"workers": 2})
    assert list(out.items()) == [("second", "second"), ("first", "first")]


def test_a_failing_part_stops_the_others_and_its_error_is_raised():
    stopped = threading.Event()

    def fails(fights):
        raise ValueError("this part is broken")

    def waits_for_stop(fights):
        fights["stop"].wait()  # set by run_phases once the other part failed
        stopped.set()
        raise Cancelled("stopped")

    with pytest.raises(ValueError, match="broken"):
        phases.run_phases({"waits": waits_for_stop, "fails": fails}, {"workers": 2})
    assert stopped.is_set()


def test_an_interrupt_in_the_waiting_thread_stops_every_part(monkeypatch):
    stopped = []

    def waits_for_stop(fights):
        fights["stop"].wait()
        stopped.append(True)
        raise Cancelled("stopped")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(phases, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        phases.run_phases({"a": waits_for_stop, "b": waits_for_stop}, {"workers": 2})
    assert stopped == [True, True]  # both parts saw the stop before run_phases returned


def test_shared_progress_sums_the_batches_in_flight_and_finished():
    calls = []
    progress = phases.SharedProgress(lambda done, total: calls.append((done, total)))
    progress(0, 10)  # a batch of 10 on this thread
    other = threading.Thread(target=lambda: (progress(0, 4), progress(4, 4)))  # a batch of 4 on another, done
    other.start()
    other.join()
    progress(5, 10)
    progress(10, 10)
    assert calls == [(0, 10), (0, 14), (4, 14), (9, 14), (14, 14)]


def test_a_batch_told_to_stop_stops_at_its_next_chunk():
    scenario = FakeScenario(n=40, keys=("d20",))
    plan = make_plan([scenario], chunk_size=5)
    chunks = list(plan.chunks())
    stop = threading.Event()
    got = []

    def sink(chunk, columns):
        got.append(chunk)
        stop.set()  # as if another part failed while this chunk was fought

    with pytest.raises(Cancelled):
        execute(plan, chunks, sink, workers=1, simulator=FakeSimulator(), stop=stop)
    assert len(got) == 1
    with pytest.raises(Cancelled):  # already set: nothing is fought
        execute(plan, chunks, sink, workers=1, simulator=FakeSimulator(), stop=stop)
    assert len(got) == 1


def test_each_phase_is_announced_as_it_starts_and_ends():
    from arena.study.runs.phases import run_phases

    said: list[str] = []
    out = run_phases({"a": lambda fighting: 1, "b": lambda fighting: 2}, {"workers": 1}, said.append)
    assert out == {"a": 1, "b": 2}
    assert [line.rsplit(" in ", 1)[0] for line in said] == ["a: started", "a: done", "b: started", "b: done"]


def test_a_lead_batch_keeps_more_chunks_in_flight_and_gives_the_same_rows(monkeypatch):
    """``lead`` (the critical path's batches, on a pool shared by parts fought at once) only changes how many of
    its chunks wait on the pool at a time, never a row."""
    import numpy as np

    from arena.study.runs import workers

    dispatched = []
    real = workers._joblib_results

    def spy(tasks, simulator, n_workers, lead=False):
        dispatched.append(lead)
        return real(tasks, simulator, n_workers, lead)

    monkeypatch.setattr(workers, "_joblib_results", spy)
    plan = make_plan([FakeScenario(n=40, keys=("d20", "3d6"))], chunk_size=5)
    chunks = list(plan.chunks())
    rows = {}
    for lead in (False, True):
        got = {}
        execute(
            plan,
            chunks,
            lambda c, cols, got=got: got.__setitem__(c, cols),
            workers=2,
            simulator=FakeSimulator(),
            share_pool=True,
            lead=lead,
        )
        rows[lead] = got
    assert dispatched == [False, True]
    assert rows[True].keys() == rows[False].keys() == set(chunks)
    for chunk in chunks:
        for name, column in rows[False][chunk].items():
            np.testing.assert_array_equal(rows[True][chunk][name], column)
