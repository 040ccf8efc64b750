"""The director's desk and the round clock through their pages: the clock started, paused,
resumed and ended from the desk, shown on the tables' boards and the night's board; a round
whose time runs out mid-hand under the "finish the hand" rule, and under "play to the target";
each table's state on the desk; its poll answered 304 while nothing moved; its queries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.nights import desk
from scorekeeper.nights.clock import State
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.nights.results import TableNow
from scorekeeper.tables.models import Hand, Match
from tests.nights.test_nights import (
    MEMBERS,
    draw,
    matches_of,
    new_night,
    season_of,
    start,
)
from tests.web.pages import HTMX, text
from tests.web.table import domino, play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


@pytest.fixture
def season():
    # played to 250: a table at time is far from the target
    return season_of("straight", {"target": 250})


def timed_round(client: Client, season, *, at_time: str = "finish_hand", players=MEMBERS[:8]):
    """A night of 55-minute rounds with its first round drawn and started."""
    night = new_night(client, season, players=players, round_minutes=55, at_time=at_time)
    first = draw(client, night)
    assert start(client, night, 1).status_code == 302
    return night, first


def clock(client: Client, night: Night, action: str, number: int = 1):
    return client.post(reverse("nights:clock", args=[night.pk, number, action]))


def desk_page(client: Client, night: Night, **headers):
    return client.get(reverse("nights:desk", args=[night.pk]), headers=headers)


def turn_back_the_clock(night_round: NightRound, minutes: int) -> None:
    """As if the round's clock had been started ``minutes`` earlier (the hands ended as they
    were, the time around them moved)."""
    night_round.refresh_from_db()
    NightRound.objects.filter(pk=night_round.pk).update(
        clock_started_at=night_round.clock_started_at - timedelta(minutes=minutes)
    )


def test_a_night_keeps_its_round_length_and_its_rule_at_time(organizer, season):
    night, _ = timed_round(organizer, season, at_time="play_on")

    assert night.round_minutes == 55
    assert night.at_time == Night.AtTime.PLAY_ON


def test_the_director_starts_pauses_resumes_and_ends_the_clock_from_the_desk(organizer, season):
    night, first = timed_round(organizer, season)
    page = text(desk_page(organizer, night))
    assert "the clock has not started" in page
    assert "Start the clock" in page

    assert clock(organizer, night, "start").status_code == 302
    first.refresh_from_db()
    assert first.clock_started_at is not None
    assert re.search(r"Round 1 · 5[45]:\d\d left", text(desk_page(organizer, night)))

    clock(organizer, night, "pause")
    first.refresh_from_db()
    assert first.clock_paused_at is not None
    assert "clock paused" in text(desk_page(organizer, night))

    clock(organizer, night, "resume")
    first.refresh_from_db()
    assert first.clock_paused_at is None

    clock(organizer, night, "end")
    first.refresh_from_db()
    assert first.clock_ended_at is not None
    assert "Time: last hand" in text(desk_page(organizer, night))


def test_a_clock_cannot_be_started_twice_or_paused_when_stopped(organizer, season):
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")
    first.refresh_from_db()
    started = first.clock_started_at

    response = clock(organizer, night, "start")
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.clock_started_at == started
    assert "has started" in text(organizer.get(response.url))
    clock(organizer, night, "end")
    clock(organizer, night, "pause")
    first.refresh_from_db()
    assert first.clock_paused_at is None


def test_the_clock_shows_on_every_tables_board_and_on_the_nights_board(organizer, season):
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")

    for match in matches_of(first):
        page = text(Client().get(reverse("tables:scoreboard", args=[match.pk])))
        assert "Round 1 · 5" in page and "left" in page
    tv = text(Client().get(reverse("nights:board", args=[night.pk])))
    assert "Round 1 · 5" in tv
    pairings = text(Client().get(reverse("nights:pairings", args=[night.pk])))
    assert "Round 1 · 5" in pairings


def test_an_untimed_nights_boards_show_no_clock(organizer, season):
    night = new_night(organizer, season, players=MEMBERS[:4])
    first = draw(organizer, night)
    start(organizer, night, 1)
    match = matches_of(first)[0]

    page = Client().get(reverse("tables:scoreboard", args=[match.pk]))
    assert b"round-clock" not in page.content
    assert "not timed" in text(desk_page(organizer, night))
    assert clock(organizer, night, "start").status_code == 302
    first.refresh_from_db()
    assert first.clock_started_at is None


def play_into_the_second_hand(client: Client, match: Match) -> list[str]:
    """Hand 1: seat 1 scores 30 and dominoes, the others holding 10 (its side 40); hand 2:
    seat 2 scores 15. The first hand ended half an hour into the round."""
    seats = seated_names(match)
    assert play(client, match, seats[0], 30).status_code in (200, 302)
    assert domino(
        client, match, seats[0], **{seats[1]: 5, seats[2]: 0, seats[3]: 5}
    ).status_code in (
        200,
        302,
    )
    Hand.objects.filter(match=match, number=1).update(
        ended_at=timezone.now() - timedelta(minutes=30)
    )
    assert play(client, match, seats[1], 15).status_code in (200, 302)
    return seats


def test_time_up_mid_hand_finish_the_hand_then_the_higher_total_wins(organizer, season):
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")
    match = matches_of(first)[0]
    seats = play_into_the_second_hand(organizer, match)
    turn_back_the_clock(first, 56)

    # the clock ran out during hand 2: the table's board says it is the last
    assert "Time: last hand" in text(Client().get(reverse("tables:scoreboard", args=[match.pk])))
    tables = text(desk_page(organizer, night))
    assert "Time: last hand" in tables

    # the hand goes on: a play in it is taken, and the match is not over
    assert play(organizer, match, seats[1], 10).status_code in (200, 302)
    match.refresh_from_db()
    assert match.rules["last_hand"] == 2
    assert not match.finished

    # the hand ends: seats 2 & 4 score 5 and 10 more; seats 1 & 3 are ahead 40 to 30, and win
    domino(organizer, match, seats[1], **{seats[0]: 5, seats[2]: 5, seats[3]: 0})
    match.refresh_from_db()
    assert match.finished
    assert match.totals == [40, 35]
    assert match.winners == [0]
    finished = Client().get(reverse("tables:scoreboard", args=[match.pk]))
    assert "Time is up after hand 2" in text(finished)
    # a table done has no clock to watch
    assert b"round-clock" not in finished.content
    # nothing more is taken at that table
    assert play(organizer, match, seats[0], 10, htmx=True).status_code == 422
    match.refresh_from_db()
    assert match.totals == [40, 35]


def test_time_up_with_play_to_the_target_nothing_ends(organizer, season):
    night, first = timed_round(organizer, season, at_time="play_on")
    clock(organizer, night, "start")
    match = matches_of(first)[0]
    seats = play_into_the_second_hand(organizer, match)
    turn_back_the_clock(first, 56)

    assert "play on to the target" in text(
        Client().get(reverse("tables:scoreboard", args=[match.pk]))
    )
    domino(organizer, match, seats[1], **{seats[0]: 5, seats[2]: 5, seats[3]: 0})
    match.refresh_from_db()
    assert not match.finished
    assert "last_hand" not in match.rules


def test_the_desk_says_each_tables_state(organizer):
    to_25 = season_of("straight", {"target": 25}, name="Short games")
    night, first = timed_round(organizer, to_25, players=MEMBERS[:12])
    one, two, three = matches_of(first)
    seats = seated_names(one)
    play(organizer, one, seats[0], 10)
    play(organizer, two, seated_names(two)[0], 25)  # reaches the target: finished
    # table 3 entered nothing for a quarter of an hour
    Match.objects.filter(pk=three.pk).update(updated_at=timezone.now() - timedelta(minutes=15))

    response = desk_page(organizer, night)
    found = re.findall(r'data-table="(\d+)" data-state="(\w+)"', response.content.decode())
    states = {int(number): state for number, state in found}
    assert states == {1: "playing", 2: "finished", 3: "idle"}
    page = text(response)
    assert "Playing hand 1" in page
    assert "No entry for 15 minutes" in page
    assert "0 disputes" in page


def test_a_disputed_table_comes_first_and_a_forfeit_is_said():
    """The desk's states from the tables as the night shows them, with the result's signature
    handed in (nights/signing.py gives it once results are signed)."""
    now = timezone.now()
    tables = [
        _shown(1, finished=True),
        _shown(2, forfeited=True),
        _shown(3, finished=True),
    ]
    signs = {1: "signed", 2: None, 3: "disputed"}
    shown = desk.desk_tables(
        tables, now=now, sign_state=lambda match: signs[match.night_table_number]
    )

    assert [t.number for t in shown] == [3, 1, 2]
    assert [t.state for t in shown] == ["finished", "finished", "forfeited"]
    assert [t.sign for t in shown] == ["disputed", "signed", None]


class _Row:
    def __init__(self, number: int) -> None:
        self.number = number
        self.match = Match(pk=number, updated_at=timezone.now())
        self.match.night_table_number = number


def _shown(number: int, *, finished: bool = False, forfeited: bool = False) -> TableNow:
    return TableNow(_Row(number), [], [], None, finished, forfeited)


def test_the_desks_poll_is_answered_304_while_nothing_moved(organizer, season):
    night, first = timed_round(organizer, season)
    page = desk_page(organizer, night)
    shown = page.context["desk_version"]
    poll = reverse("nights:desk", args=[night.pk]) + f"?v={shown}"

    assert organizer.get(poll, headers=HTMX).status_code == 304
    match = matches_of(first)[0]
    play(organizer, match, seated_names(match)[0], 10)
    moved = organizer.get(poll, headers=HTMX)
    assert moved.status_code == 200
    assert 'id="desk"' in moved.content.decode()
    # the clock started moves it too
    again = reverse("nights:desk", args=[night.pk]) + f"?v={moved.context['desk_version']}"
    assert organizer.get(again, headers=HTMX).status_code == 304
    clock(organizer, night, "start")
    assert organizer.get(again, headers=HTMX).status_code == 200


def test_a_table_turning_quiet_moves_the_desk(organizer, season):
    night, first = timed_round(organizer, season)
    shown = desk_page(organizer, night).context["desk_version"]
    poll = reverse("nights:desk", args=[night.pk]) + f"?v={shown}"
    assert organizer.get(poll, headers=HTMX).status_code == 304

    quiet = matches_of(first)[0]
    Match.objects.filter(pk=quiet.pk).update(updated_at=timezone.now() - timedelta(minutes=11))
    moved = organizer.get(poll, headers=HTMX)

    assert moved.status_code == 200
    assert "No entry for 11 minutes" in text(moved)


def test_a_tables_clock_poll_is_answered_304_until_the_clock_changes(organizer, season):
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")
    match = matches_of(first)[0]
    page = Client().get(reverse("tables:scoreboard", args=[match.pk]))
    shown = page.context["round_clock_version"]
    poll = reverse("nights:round_clock", args=[first.pk]) + f"?v={shown}"

    assert Client().get(poll, headers=HTMX).status_code == 304
    clock(organizer, night, "pause")
    paused = Client().get(poll, headers=HTMX)
    assert paused.status_code == 200
    assert "clock paused" in text(paused)


def desk_queries(client: Client, night: Night) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = desk_page(client, night)
    assert response.status_code == 200
    return len(captured)


def test_the_desk_asks_as_many_questions_for_two_tables_as_for_twelve(organizer):
    counts = []
    for tables in (2, 12):
        players = [f"Player {n}" for n in range(tables * 4)]
        season = season_of("straight", {"target": 250}, members=players, name=f"League {tables}")
        night, first = timed_round(organizer, season, players=players)
        clock(organizer, night, "start")
        for match in matches_of(first):
            play(organizer, match, seated_names(match)[0], 10)
        counts.append(desk_queries(organizer, night))

    assert counts[0] == counts[1], counts


def test_only_an_organizer_sees_the_desk_or_touches_the_clock(organizer, season):
    night, first = timed_round(organizer, season)

    assert desk_page(Client(), night).status_code == 403
    assert clock(Client(), night, "start").status_code == 403
    first.refresh_from_db()
    assert first.clock_started_at is None
    assert desk.clock_shown(first, night, timezone.now()).state == State.WAITING


def test_a_rematch_of_a_match_ended_at_time_plays_to_the_target(organizer, season):
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")
    match = matches_of(first)[0]
    seats = play_into_the_second_hand(organizer, match)
    turn_back_the_clock(first, 56)
    domino(organizer, match, seats[1], **{seats[0]: 5, seats[2]: 5, seats[3]: 0})
    match.refresh_from_db()
    assert match.finished

    organizer.post(reverse("tables:rematch", args=[match.pk]))
    again = Match.objects.latest("pk")

    assert again.pk != match.pk
    assert again.rules == {"target": 250}
