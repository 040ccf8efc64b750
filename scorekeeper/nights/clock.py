"""The round clock's arithmetic: how much time a round has left at an instant, when it runs out,
and which hand is a table's last once it has. Pure: given the clock's stored instants and the
instant asked about, never the machine's clock (the views pass ``timezone.now()`` in).

A clock is started once, paused and resumed any number of times, and ended by the director or
by running out. The director's call can be taken back (``call_taken_back``): the clock runs on
with the time it had when the call was made. Its time left is the round's length less the time
it has run: from its start to now (or to its pause, or its end), less the time it stood still in
pauses already over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

ZERO = timedelta(0)


class State(StrEnum):
    #: the round has no clock (untimed), or its clock has not been started
    UNTIMED = "untimed"
    WAITING = "waiting"
    RUNNING = "running"
    PAUSED = "paused"
    #: ran out, or the director ended it
    UP = "up"


@dataclass(frozen=True)
class Clock:
    """A round's clock as stored (NightRound's ``clock_*`` fields and the night's length)."""

    minutes: int | None
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_seconds: int = 0
    ended_at: datetime | None = None

    @property
    def length(self) -> timedelta:
        return timedelta(minutes=self.minutes or 0)


def time_run(clock: Clock, now: datetime) -> timedelta:
    """How long the clock has run by ``now``: not while paused, not after it was ended."""
    if clock.started_at is None:
        return ZERO
    stopped = min(t for t in (clock.paused_at, clock.ended_at, now) if t is not None)
    return max(ZERO, stopped - clock.started_at - timedelta(seconds=clock.paused_seconds))


def time_left(clock: Clock, now: datetime) -> timedelta | None:
    """The time the round has left at ``now`` (never below zero); None for an untimed round."""
    if not clock.minutes:
        return None
    if clock.ended_at is not None and clock.ended_at <= now:
        return ZERO
    return max(ZERO, clock.length - time_run(clock, now))


def runs_out_at(clock: Clock) -> datetime | None:
    """The instant the time is up: when it ran out or was ended, or when it will run out if
    nobody pauses it. None while it is not running towards an end (untimed, not started,
    paused)."""
    if not clock.minutes or clock.started_at is None:
        return None
    running_out = clock.started_at + clock.length + timedelta(seconds=clock.paused_seconds)
    if clock.ended_at is not None:
        if clock.paused_at is not None and clock.paused_at <= clock.ended_at:
            return clock.ended_at
        return min(clock.ended_at, running_out)
    if clock.paused_at is not None:
        # paused with time left: it runs out only once resumed (paused at zero: it was up)
        if clock.paused_at >= running_out:
            return running_out
        return None
    return running_out


def state(clock: Clock, now: datetime) -> State:
    if not clock.minutes:
        return State.UNTIMED
    if clock.started_at is None:
        return State.WAITING
    up = runs_out_at(clock)
    if up is not None and up <= now:
        return State.UP
    if clock.paused_at is not None:
        return State.PAUSED
    return State.RUNNING


def paused(clock: Clock, now: datetime) -> Clock:
    """The clock paused at ``now`` (as it is, when it is not running)."""
    if state(clock, now) != State.RUNNING:
        return clock
    return Clock(clock.minutes, clock.started_at, now, clock.paused_seconds, clock.ended_at)


def resumed(clock: Clock, now: datetime) -> Clock:
    """The clock running again from ``now``: the pause is added to the time it stood still."""
    if clock.paused_at is None or state(clock, now) != State.PAUSED:
        return clock
    stood = max(ZERO, now - clock.paused_at)
    return Clock(
        clock.minutes,
        clock.started_at,
        None,
        clock.paused_seconds + round(stood.total_seconds()),
        clock.ended_at,
    )


def called(clock: Clock) -> bool:
    """Whether the time is up because the director called it before it ran out."""
    if clock.ended_at is None or clock.started_at is None:
        return False
    running_out = runs_out_at(replace(clock, ended_at=None))
    return running_out is None or running_out > clock.ended_at


def call_taken_back(clock: Clock, now: datetime) -> Clock:
    """The clock as if the time had not been called: the time since the call is given back
    (the clock stood still), and a clock paused when time was called stays paused."""
    if not called(clock):
        return clock
    ended = clock.ended_at
    assert ended is not None  # called: the time was called then
    if clock.paused_at is not None and clock.paused_at <= ended:
        return replace(clock, ended_at=None)
    stood = max(ZERO, now - ended)
    return Clock(
        clock.minutes,
        clock.started_at,
        None,
        clock.paused_seconds + round(stood.total_seconds()),
        None,
    )


def last_hand(hands_ended: Iterable[datetime | None], up_at: datetime) -> int:
    """The number of a table's last hand when the time is up at ``up_at``: the hand being
    played then, which is the one after those that had ended by then. A hand with no entry yet
    counts as being played: the first tiles of a hand often score nothing, so a table may be
    well into a hand the app has not heard of."""
    return 1 + sum(1 for ended in hands_ended if ended is not None and ended <= up_at)


def minutes_and_seconds(left: timedelta) -> str:
    """12:34, or 1:02:03 past an hour: as the boards show the time left."""
    seconds = max(0, int(left.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
