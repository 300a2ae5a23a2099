"""The match clock of live scoring (issue 18): halves, half-time, full time and time-outs on server timestamps."""

from __future__ import annotations

import datetime as dt

import pytest

from league import match_clock as mc

T0 = dt.datetime(2026, 9, 5, 10, 0, tzinfo=dt.UTC)


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def test_a_time_out_stops_the_clock_and_resume_carries_on():
    clock = mc.ClockState(half_seconds=20 * 60).apply(mc.START, at(0))
    assert clock.match_elapsed(at(5)) == 300
    clock = clock.apply(mc.TIMEOUT, at(5))
    # Three minutes looking for a dropped die: the clock does not move.
    assert clock.match_elapsed(at(8)) == 300 and clock.paused and not clock.running
    assert clock.text(at(8)) == "time-out 5'"
    clock = clock.apply(mc.RESUME, at(8))
    assert clock.match_elapsed(at(10)) == 420
    assert clock.text(at(10)) == "7'"
    # Every screen computes the same time from the origin alone.
    assert (at(10) - clock.origin()).total_seconds() == 420


def test_two_halves_with_added_time_and_full_time():
    calls = [(mc.START, at(0)), (mc.TIMEOUT, at(3)), (mc.RESUME, at(4)), (mc.HALF_TIME_CALL, at(12)),
             (mc.SECOND_HALF_CALL, at(20))]
    clock = mc.clock_from_events(10 * 60, calls)
    assert clock.phase == mc.SECOND_HALF
    # The second half starts at one half's length, whatever the first half's added time (11 minutes played).
    assert clock.match_elapsed(at(25)) == 15 * 60
    assert clock.text(at(25)) == "15'"
    assert clock.text(at(31.5)) == "20+2'"  # 21.5 minutes: the second minute of added time
    clock = clock.apply(mc.FULL_TIME_CALL, at(32))
    assert clock.phase == mc.FULL_TIME and clock.text(at(40)) == "FT" and clock.origin() is None


def test_half_time_shows_ht_and_the_first_half_added_time():
    clock = mc.ClockState(half_seconds=40 * 60).apply(mc.START, at(0))
    assert clock.text(at(41.2)) == "40+2'"
    clock = clock.apply(mc.HALF_TIME_CALL, at(42))
    assert clock.text(at(50)) == "HT" and clock.match_elapsed(at(50)) == 2400


@pytest.mark.parametrize(("calls", "bad", "message"), [
    ([], mc.HALF_TIME_CALL, "not kicked off"),
    ([], mc.TIMEOUT, "not kicked off"),
    ([mc.START], mc.START, "first half is being played"),
    ([mc.START], mc.RESUME, "no time-out to end"),
    ([mc.START, mc.TIMEOUT], mc.TIMEOUT, "already stopped"),
    ([mc.START, mc.HALF_TIME_CALL], mc.FULL_TIME_CALL, "half-time"),
    ([mc.START, mc.FULL_TIME_CALL], mc.START, "over"),
    ([], "extra_time", "Unknown clock call"),
])
def test_calls_that_make_no_sense_now_are_refused(calls, bad, message):
    clock = mc.clock_from_events(600, [(call, at(i)) for i, call in enumerate(calls)])
    with pytest.raises(mc.ClockError, match=message):
        clock.apply(bad, at(len(calls)))


def test_full_time_during_a_time_out_keeps_the_time_played():
    clock = mc.clock_from_events(600, [(mc.START, at(0)), (mc.HALF_TIME_CALL, at(10)), (mc.SECOND_HALF_CALL, at(15)),
                                       (mc.TIMEOUT, at(20))])
    clock = clock.apply(mc.FULL_TIME_CALL, at(30))
    assert clock.phase == mc.FULL_TIME and not clock.paused


def test_moments_from_phones():
    assert mc.from_epoch_ms(T0.timestamp() * 1000) == T0
    assert mc.from_epoch_ms("soon") is None and mc.from_epoch_ms(True) is None and mc.from_epoch_ms(1e30) is None
