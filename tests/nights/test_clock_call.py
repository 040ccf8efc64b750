"""Calling time is asked first and can be taken back: one mis-tap on the desk's "End the
round's time" called time for every table at once, with no way back. Now the tap opens a page
that asks (a plain form: no JavaScript needed), and the director takes the call back from the
desk while no table has finished by it; the tables given their last hand by it play on."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.nights.models import NightRound
from tests.nights.test_desk import (
    clock,
    desk_page,
    organizer,  # noqa: F401 (a fixture)
    play_into_the_second_hand,
    season,  # noqa: F401 (a fixture)
    timed_round,
)
from tests.nights.test_nights import matches_of
from tests.web.pages import content, text
from tests.web.table import domino, play

pytestmark = pytest.mark.django_db


def tap_end_the_time(client: Client, night) -> None:
    """Tap the desk's "End the round's time" as a browser sends its form: by its method."""
    forms = re.findall(r"<form[^>]*>.*?</form>", content(desk_page(client, night)), re.S)
    (form,) = [form for form in forms if "End the round" in form]
    method, action = re.search(r'<form method="(\w+)" action="([^"]+)"', form).groups()
    # (the test client sends no CSRF token, and is not asked for one)
    if method == "post":
        client.post(action)
    else:
        client.get(action)


def test_a_tap_on_end_the_rounds_time_asks_first_and_the_clock_runs_on(organizer, season):  # noqa: F811
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")

    tap_end_the_time(organizer, night)

    first.refresh_from_db()
    assert first.clock_ended_at is None
    assert re.search(r"Round 1 · 5[45]:\d\d left", text(desk_page(organizer, night)))
    asked = organizer.get(reverse("nights:clock", args=[night.pk, 1, "end"]))
    assert asked.status_code == 200
    said = text(asked)
    assert "End round 1's time now?" in said
    assert "Every table finishes the hand being played" in said
    assert 'method="post"' in content(asked) and "Yes, end the time now" in said

    clock(organizer, night, "end")

    first.refresh_from_db()
    assert first.clock_ended_at is not None
    assert "Time: last hand" in text(desk_page(organizer, night))


def test_the_director_takes_the_call_back_and_the_tables_play_on(organizer, season):  # noqa: F811
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")
    match = matches_of(first)[0]
    seats = play_into_the_second_hand(organizer, match)
    # twenty minutes into the round, time is called by mistake; a play comes in after it
    NightRound.objects.filter(pk=first.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=20)
    )
    clock(organizer, night, "end")
    assert play(organizer, match, seats[1], 10).status_code in (200, 302)
    match.refresh_from_db()
    assert match.rules["last_hand"] == 2
    page = text(desk_page(organizer, night))
    assert "Take the call of time back" in page

    response = clock(organizer, night, "take-back")

    assert response.status_code == 302
    first.refresh_from_db()
    assert first.clock_ended_at is None
    # the clock runs on with the time it had when the call was made: some 35 minutes
    assert re.search(r"Round 1 · 3[45]:\d\d left", text(desk_page(organizer, night)))
    match.refresh_from_db()
    assert "last_hand" not in match.rules
    board = text(Client().get(reverse("tables:scoreboard", args=[match.pk])))
    assert "Time: last hand" not in board
    # the hand's end no longer ends the match below the target
    domino(organizer, match, seats[1], **{seats[0]: 5, seats[2]: 5, seats[3]: 0})
    match.refresh_from_db()
    assert not match.finished


def test_the_call_stands_once_a_table_has_finished_by_it(organizer, season):  # noqa: F811
    night, first = timed_round(organizer, season)
    clock(organizer, night, "start")
    match = matches_of(first)[0]
    seats = play_into_the_second_hand(organizer, match)
    clock(organizer, night, "end")
    domino(organizer, match, seats[1], **{seats[0]: 5, seats[2]: 5, seats[3]: 0})
    match.refresh_from_db()
    assert match.finished and match.rules["last_hand"] == 2

    response = clock(organizer, night, "take-back")

    first.refresh_from_db()
    assert first.clock_ended_at is not None
    table = match.night_table.number
    assert f"Table {table} has finished by the time called: the call stands." in text(
        organizer.get(response.url)
    )
    match.refresh_from_db()
    assert match.finished and match.rules["last_hand"] == 2
