"""Rotating partners: whist schedules where every two players partner exactly once and play
against each other exactly twice, and the closest schedule for the other counts."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.nights import whist
from scorekeeper.nights.draw import Round, Schedule, Table, meetings, rotating_partners

#: every 4n and 4n + 1 players up to 32, and a few more
WHIST_SIZES = (4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29, 32)

#: counts that have no whist schedule
OTHER_SIZES = (6, 7, 10, 11, 14, 15)


def names(count: int) -> list[str]:
    return [f"player{number:02}" for number in range(count)]


def times_met(rounds: tuple[whist.Seating, ...]) -> tuple[Counter, Counter]:
    """Partners and opponents counted straight from the seats, without nights/draw.py."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for seating in rounds:
        for first, second, third, fourth in seating.tables:
            partners.update([frozenset((first, third)), frozenset((second, fourth))])
            opponents.update(
                frozenset(pair)
                for pair in ((first, second), (first, fourth), (third, second), (third, fourth))
            )
    return partners, opponents


def assert_byes_go_round(schedule: Schedule, players: list[str]) -> None:
    """Every round seats each player once, four to a table, in partnerships; after every round
    the most and the fewest times anyone sat out differ by one at most."""
    sat_out = Counter({player: 0 for player in players})
    for round_ in schedule.rounds:
        assert sorted([*round_.players, *round_.sitting_out]) == sorted(players)
        assert all(len(table.seats) == 4 and table.partnerships for table in round_.tables)
        sat_out.update(round_.sitting_out)
        assert max(sat_out.values()) - min(sat_out.values()) <= 1


# -- whist schedules ----------------------------------------------------------------------------


def test_whist_schedules_are_kept_for_every_4n_and_4n_plus_1_players_up_to_32() -> None:
    assert set(WHIST_SIZES) <= set(whist.EXACT_SIZES)
    assert all(count % 4 in (0, 1) for count in whist.EXACT_SIZES)


def test_the_module_says_which_whist_schedules_it_keeps() -> None:
    assert ", ".join(map(str, whist.EXACT_SIZES)) in " ".join(whist.__doc__.split())


@pytest.mark.parametrize("count", sorted(whist.WHIST_FIRST_ROUNDS))
def test_each_kept_first_round_turns_into_a_whist_schedule(count: int) -> None:
    rounds = whist.schedule_for(count)
    partners, opponents = times_met(rounds)

    for pair in combinations(range(count), 2):
        assert partners[frozenset(pair)] == 1, pair
        assert opponents[frozenset(pair)] == 2, pair
    assert len(rounds) == (count - 1 if count % 4 == 0 else count)
    sat_out = Counter(player for seating in rounds for player in seating.sitting_out)
    assert sat_out == (Counter() if count % 4 == 0 else Counter(range(count)))


@pytest.mark.parametrize("count", WHIST_SIZES)
def test_rotating_partners_for_4n_or_4n_plus_1_players_is_a_whist_schedule(count: int) -> None:
    players = names(count)

    schedule = rotating_partners(players)

    assert schedule.is_whist
    assert (schedule.partner_repeats, schedule.never_partners) == (0, 0)
    assert set(schedule.opponents.values()) == {2}
    assert len(schedule.opponents) == count * (count - 1) // 2
    if count % 4 == 0:
        assert len(schedule.rounds) == count - 1
        assert all(round_.sitting_out == () for round_ in schedule.rounds)
    else:
        assert len(schedule.rounds) == count
        assert Counter(player for round_ in schedule.rounds for player in round_.sitting_out) == (
            Counter(players)
        )
    assert_byes_go_round(schedule, players)


# -- the closest schedule for other counts ------------------------------------------------------


def test_ten_players_play_ten_rounds_two_sitting_out_with_no_partner_twice() -> None:
    players = names(10)

    schedule = rotating_partners(players)

    assert len(schedule.rounds) == 10
    assert all(len(round_.sitting_out) == 2 for round_ in schedule.rounds)
    sat_out = Counter(player for round_ in schedule.rounds for player in round_.sitting_out)
    assert sat_out == Counter({player: 2 for player in players})
    assert schedule.partner_repeats == 0
    # 10 rounds of 2 tables make 40 partnerships among 45 pairs: 5 pairs never partner
    assert schedule.never_partners == 5
    opposed = [schedule.opponents[frozenset(pair)] for pair in combinations(players, 2)]
    assert (min(opposed), max(opposed)) == (1, 2)
    assert not schedule.is_whist
    assert_byes_go_round(schedule, players)


@pytest.mark.parametrize("count", OTHER_SIZES)
def test_other_counts_get_fair_byes_and_no_partner_twice(count: int) -> None:
    players = names(count)

    schedule = rotating_partners(players)

    assert len(schedule.rounds) == count
    assert schedule.partner_repeats == 0
    partnerships = len(schedule.rounds) * (count // 4) * 2
    assert schedule.never_partners == count * (count - 1) // 2 - partnerships
    assert not schedule.is_whist
    assert_byes_go_round(schedule, players)


def test_the_closest_schedule_is_the_same_every_time() -> None:
    searched = whist.pattern_for.__wrapped__

    assert searched(10) == searched(10)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from((5, 6, 9, 10, 12)), st.randoms(use_true_random=False))
def test_the_same_players_get_the_same_schedule_whatever_order_they_came_in(
    count: int, shuffler
) -> None:
    players = names(count)
    shuffled = list(players)
    shuffler.shuffle(shuffled)

    assert rotating_partners(shuffled) == rotating_partners(players)


def test_fewer_than_four_players_cannot_rotate_partners() -> None:
    with pytest.raises(ValueError, match="four"):
        rotating_partners(names(3))


# -- counting who met whom ----------------------------------------------------------------------


def test_meetings_count_partners_across_and_opponents_beside() -> None:
    rounds = (
        Round((Table(1, ("Ana", "Bo", "Cy", "Dee"), partnerships=True),), ("Eve",)),
        Round((Table(1, ("Ana", "Eve", "Cy", "Bo"), partnerships=True),), ("Dee",)),
        Round((Table(1, ("Ana", "Bo", "Eve")),), ("Cy", "Dee")),
    )

    partners, opponents = meetings(rounds)

    assert partners == Counter(
        {frozenset({"Ana", "Cy"}): 2, frozenset({"Bo", "Dee"}): 1, frozenset({"Eve", "Bo"}): 1}
    )
    assert opponents[frozenset({"Ana", "Bo"})] == 3
    assert opponents[frozenset({"Ana", "Eve"})] == 2
    assert opponents[frozenset({"Cy", "Dee"})] == 1
    assert opponents[frozenset({"Bo", "Eve"})] == 1
    assert opponents[frozenset({"Ana", "Cy"})] == 0
