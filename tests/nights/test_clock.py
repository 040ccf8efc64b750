"""The round clock's arithmetic (nights/clock.py) and the engine's last hand when the round's
time is up (rules/scoreboard.at_time): no database, no machine clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.nights import clock
from scorekeeper.nights.clock import Clock, State
from scorekeeper.rules.matchfile import dumps_match, read_match
from scorekeeper.rules.scoreboard import LAST_HAND

START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


def test_a_clock_started_has_its_length_left_and_counts_down() -> None:
    started = Clock(55, started_at=START)

    assert clock.time_left(started, START) == minutes(55)
    assert clock.time_left(started, START + minutes(12)) == minutes(43)
    assert clock.state(started, START + minutes(12)) == State.RUNNING
    assert clock.runs_out_at(started) == START + minutes(55)


def test_a_clock_runs_out_and_never_shows_less_than_nothing() -> None:
    started = Clock(55, started_at=START)

    assert clock.time_left(started, START + minutes(70)) == timedelta(0)
    assert clock.state(started, START + minutes(55)) == State.UP


def test_a_paused_clock_stands_still_and_resumed_runs_out_later_by_the_pause() -> None:
    started = Clock(55, started_at=START)
    paused = clock.paused(started, START + minutes(10))

    assert clock.state(paused, START + minutes(30)) == State.PAUSED
    assert clock.time_left(paused, START + minutes(30)) == minutes(45)
    assert clock.runs_out_at(paused) is None

    resumed = clock.resumed(paused, START + minutes(30))
    assert clock.time_left(resumed, START + minutes(30)) == minutes(45)
    assert clock.runs_out_at(resumed) == START + minutes(75)
    assert clock.state(resumed, START + minutes(74)) == State.RUNNING
    assert clock.state(resumed, START + minutes(75)) == State.UP


def test_a_clock_ended_by_the_director_is_up_at_once() -> None:
    ended = Clock(55, started_at=START, ended_at=START + minutes(20))

    assert clock.state(ended, START + minutes(20)) == State.UP
    assert clock.time_left(ended, START + minutes(21)) == timedelta(0)
    assert clock.runs_out_at(ended) == START + minutes(20)
    # ended while paused: up when ended
    paused = clock.paused(Clock(55, started_at=START), START + minutes(5))
    assert clock.runs_out_at(Clock(55, START, paused.paused_at, 0, START + minutes(9))) == (
        START + minutes(9)
    )


def test_a_call_of_time_taken_back_runs_on_with_the_time_it_had_when_called() -> None:
    called = Clock(55, started_at=START, ended_at=START + minutes(20))
    assert clock.called(called)

    back = clock.call_taken_back(called, START + minutes(23))

    assert clock.state(back, START + minutes(23)) == State.RUNNING
    assert clock.time_left(back, START + minutes(23)) == minutes(35)
    assert clock.runs_out_at(back) == START + minutes(58)
    # called while paused: it stays paused, with its time
    paused = clock.paused(Clock(55, started_at=START), START + minutes(5))
    called_paused = Clock(55, START, paused.paused_at, 0, START + minutes(9))
    kept_paused = clock.call_taken_back(called_paused, START + minutes(12))
    assert clock.state(kept_paused, START + minutes(12)) == State.PAUSED
    assert clock.time_left(kept_paused, START + minutes(12)) == minutes(50)
    # a clock that ran out on its own was not called: nothing to take back
    ran_out = Clock(55, started_at=START, ended_at=START + minutes(60))
    assert not clock.called(ran_out)
    assert clock.call_taken_back(ran_out, START + minutes(61)) == ran_out


def test_an_untimed_or_unstarted_clock_has_no_time_to_run_out() -> None:
    assert clock.state(Clock(None), START) == State.UNTIMED
    assert clock.time_left(Clock(None), START) is None
    assert clock.state(Clock(55), START) == State.WAITING
    assert clock.runs_out_at(Clock(55)) is None


@given(
    length=st.integers(1, 180),
    steps=st.lists(st.tuples(st.booleans(), st.integers(0, 4000)), max_size=12),
    after=st.integers(0, 20000),
)
def test_the_time_left_is_the_length_less_the_time_run_outside_pauses(
    length: int, steps: list[tuple[bool, int]], after: int
) -> None:
    """Any sequence of pauses and resumes: the time left is the length less the seconds the
    clock was running, counted second by second."""
    kept = Clock(length, started_at=START)
    now = START
    running_seconds = 0
    running = True
    for pause, seconds in steps:
        if running:
            running_seconds += seconds
        now += timedelta(seconds=seconds)
        kept = clock.paused(kept, now) if pause else clock.resumed(kept, now)
        running = kept.paused_at is None
    if running:
        running_seconds += after
    now += timedelta(seconds=after)

    expected = max(timedelta(0), minutes(length) - timedelta(seconds=running_seconds))
    assert clock.time_left(kept, now) == expected
    up = clock.runs_out_at(kept)
    if expected == timedelta(0):
        assert clock.state(kept, now) == State.UP
    elif running:
        assert up is not None and up > now
        assert clock.time_left(kept, up) == timedelta(0)
    else:
        assert up is None


def test_the_last_hand_is_the_one_being_played_when_the_time_is_up() -> None:
    up = START + minutes(55)
    ended = [START + minutes(20), START + minutes(41), None]

    assert clock.last_hand(ended, up) == 3
    # a hand ended after the time was up was the last
    assert clock.last_hand([START + minutes(20), up + minutes(3)], up) == 2
    assert clock.last_hand([], up) == 1


def test_the_boards_write_the_time_left_in_minutes_and_seconds() -> None:
    assert clock.minutes_and_seconds(timedelta(seconds=754)) == "12:34"
    assert clock.minutes_and_seconds(timedelta(seconds=5)) == "0:05"
    assert clock.minutes_and_seconds(timedelta(hours=1, seconds=62)) == "1:01:02"


# -- the engine: the match's last hand -----------------------------------------------------------


def hand(scorer: str, points: int, *, out: str | None = None, pips: int = 0) -> rules.Hand:
    """Two players: ``scorer`` scores ``points`` in play; ``out`` dominoes with the other
    holding ``pips`` (None: the hand is still being played)."""
    other = "Bo" if out == "Ana" else "Ana"
    end = rules.HandEnd(how="domino", player=out, pips={other: pips}) if out else None
    return rules.Hand(plays=(rules.Play(scorer, points=points),), end=end)


def scored(*hands: rules.Hand, last_hand: int | None = None) -> rules.Scoreboard:
    house = {"target": 250} | ({LAST_HAND: last_hand} if last_hand else {})
    return rules.score_match(rules.Match("straight", ("Ana", "Bo"), rules=house, hands=hands))


def test_time_up_ends_the_match_when_the_last_hand_ends_the_higher_total_winning() -> None:
    first = hand("Ana", 30, out="Ana", pips=10)
    second_playing = hand("Bo", 15)

    assert not scored(first, second_playing, last_hand=2).finished
    second = hand("Bo", 15, out="Bo", pips=5)
    board = scored(first, second, last_hand=2)

    assert board.finished
    assert board.winner == "Ana"
    assert board.totals == {"Ana": 40, "Bo": 20}
    assert board.next is None
    assert "Time is up after hand 2" in str(board.hands[-1].explanation[-1])


def test_without_a_last_hand_the_same_match_plays_on_to_the_target() -> None:
    board = scored(hand("Ana", 30, out="Ana", pips=10), hand("Bo", 15, out="Bo", pips=5))

    assert not board.finished


def test_level_at_time_one_more_hand_decides() -> None:
    level = (hand("Ana", 20, out="Ana", pips=0), hand("Bo", 20, out="Bo", pips=0))

    tied = scored(*level, last_hand=2)
    assert not tied.finished
    assert "one more hand decides" in str(tied.hands[-1].explanation[-1])
    decided = scored(*level, hand("Bo", 5, out="Bo", pips=5), last_hand=2)
    assert decided.finished
    assert decided.winner == "Bo"


def test_a_hand_after_the_match_ended_at_time_is_an_error() -> None:
    board = scored(hand("Ana", 30, out="Ana", pips=10), hand("Bo", 10), last_hand=1)

    assert board.finished and board.winner == "Ana"
    assert [f.code for f in board.errors] == ["after-match-end"]


def test_a_match_file_keeps_its_last_hand() -> None:
    value = rules.Match(
        "straight", ("Ana", "Bo"), rules={LAST_HAND: 1}, hands=(hand("Ana", 30, out="Ana"),)
    )
    again = read_match(dumps_match(value))

    assert again.rules == {LAST_HAND: 1}
    assert rules.score_match(again).finished


@given(
    hands=st.lists(
        st.tuples(st.sampled_from(["Ana", "Bo"]), st.sampled_from([5, 10, 15, 20])),
        min_size=1,
        max_size=12,
    ),
    last=st.integers(1, 12),
)
def test_at_time_the_first_hand_from_the_last_that_ends_with_a_side_ahead_decides(
    hands: list[tuple[str, int]], last: int
) -> None:
    """Any match below its target: it ends exactly at the first ended hand from the last hand
    on after which one side is ahead, and that side wins; until then it goes on."""
    played = tuple(hand(scorer, points, out=scorer, pips=0) for scorer, points in hands)
    running = {"Ana": 0, "Bo": 0}
    deciding = None
    for number, (scorer, points) in enumerate(hands, 1):
        running[scorer] += points
        if number >= last and running["Ana"] != running["Bo"] and deciding is None:
            deciding = (number, max(running, key=running.get))

    board = scored(*played, last_hand=last)

    if deciding is None:
        assert not board.finished
    else:
        number, winner = deciding
        assert board.finished and board.winner == winner
        # every hand entered after the deciding one is an error, as after a target is reached
        later = range(number + 1, len(hands) + 1)
        assert [(found.code, found.hand) for found in board.errors] == [
            ("after-match-end", later_hand) for later_hand in later
        ]
