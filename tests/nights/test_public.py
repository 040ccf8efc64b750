"""The league nights' pages for everyone in the hall: a table's card that never changes (its code
opens whatever the table plays now), the sheet of those cards, and the round's pairings by table
and by name with the night's results, live and without signing in.

League and night pages are reached by their number without signing in (leagues/urls.py,
nights/urls.py): a table's address is the league's number and the table's, with no token."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import round_draw, rounds, signing
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.clubs import the_club
from tests.web.pages import HTMX, content, text
from tests.web.table import play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy")
ORGANIZER = Author(name="Organizer")


def night_of(
    players=NAMES[:8],
    *,
    played_on: datetime.date | None = None,
    game="straight",
    rules=None,
    rounds_=2,
    **fields,
) -> Night:
    """A night of a league played to 25 (a play of 25 wins a match), its players checked in."""
    league = League.objects.create(
        club=the_club(),
        name=f"Friday Fives {League.objects.count()}",
        game=game,
        rules=rules or {"target": 25},
    )
    season = Season.objects.create(league=league, name="Winter", starts_on=timezone.localdate())
    came = [player_named(name) for name in players]
    league.members.set(came)
    night = Night(
        season=season,
        played_on=played_on or timezone.localdate(),
        rounds=rounds_,
        seed="feed",
        **fields,
    )
    rounds.open_night(night, came, [])
    return night


def drawn_and_started(night: Night) -> NightRound:
    night = Night.objects.get(pk=night.pk)
    drawn = round_draw.draw_round(night)
    rounds.start_round(drawn, by=ORGANIZER)
    return drawn


def table_match(night_round: NightRound, number: int) -> Match:
    return night_round.tables.get(number=number).match


def win_every_table(night_round: NightRound) -> None:
    organizer = scorekeeper_client()
    for table in night_round.tables.all():
        match = table.match
        assert play(organizer, match, seated_names(match)[0], 25).status_code in (200, 302)


def table_url(night: Night, number: int) -> str:
    return reverse("nights:table_now", args=[night.season.league_id, number])


def pairings_url(night: Night) -> str:
    return reverse("nights:pairings", args=[night.pk])


# One card per table


def test_a_tables_card_opens_the_match_the_table_plays_now():
    night = night_of()
    first = drawn_and_started(night)
    phone = Client()

    response = phone.get(table_url(night, 2))

    assert response.status_code == 302
    assert response["Location"] == reverse("tables:scoreboard", args=[table_match(first, 2).pk])
    # to watch: the match's page opens for a phone without an account or a link, which keeps
    # no score there (that is the round's own card's scorekeeper link)
    assert phone.get(response["Location"]).status_code == 200
    match = table_match(first, 2)
    assert play(phone, match, seated_names(match)[0], 10).status_code == 403


def test_after_the_next_round_starts_the_same_card_opens_the_new_match():
    night = night_of()
    first = drawn_and_started(night)
    win_every_table(first)
    # the round is done but the next one is not started: the card still shows how it ended
    assert Client().get(table_url(night, 1))["Location"] == reverse(
        "tables:scoreboard", args=[table_match(first, 1).pk]
    )

    second = drawn_and_started(night)

    response = Client().get(table_url(night, 1))
    assert response["Location"] == reverse("tables:scoreboard", args=[table_match(second, 1).pk])
    assert table_match(second, 1) != table_match(first, 1)


def test_a_table_not_playing_says_so_and_what_comes_next():
    night = night_of(NAMES[:8])
    phone = Client()
    before = phone.get(table_url(night, 1))
    assert before.status_code == 200
    assert "Table 1 is not playing now" in text(before)
    assert "The first round has not been drawn yet." in text(before)
    assert pairings_url(night) in content(before)

    round_draw.draw_round(Night.objects.get(pk=night.pk))
    drawn = text(phone.get(table_url(night, 2)))
    assert "Next: round 1 is drawn and plays at this table when it starts." in drawn
    # the page asks again while it waits; once the round starts its answer sends the phone on
    assert phone.get(table_url(night, 2), headers=HTMX).status_code == 200
    started = NightRound.objects.get(night=night, number=1)
    rounds.start_round(started, by=ORGANIZER)
    asked = phone.get(table_url(night, 2), headers=HTMX)
    assert asked["HX-Redirect"] == reverse("tables:scoreboard", args=[table_match(started, 2).pk])

    # eight players sit at two tables: a third table is not in this round
    third = phone.get(table_url(night, 3))
    assert third.status_code == 200
    assert "Table 3 is not playing now" in text(third)
    assert "Round 1 is played at fewer tables." in text(third)


def test_after_the_last_round_a_table_points_to_the_nights_results():
    night = night_of(rounds_=1)
    win_every_table(drawn_and_started(night))

    response = Client().get(table_url(night, 1))

    assert response.status_code == 200
    assert "Tonight's rounds are over" in text(response)
    assert reverse("nights:board", args=[night.pk]) in content(response)


def test_a_table_opens_nothing_from_another_day():
    last_week = night_of(played_on=timezone.localdate() - datetime.timedelta(days=7))
    drawn_and_started(last_week)

    response = Client().get(table_url(last_week, 1))

    assert response.status_code == 200
    assert "No league night is on today." in text(response)


def test_a_night_past_midnight_is_still_on():
    yesterday = night_of(played_on=timezone.localdate() - datetime.timedelta(days=1))
    first = drawn_and_started(yesterday)

    response = Client().get(table_url(yesterday, 1))

    assert response["Location"] == reverse("tables:scoreboard", args=[table_match(first, 1).pk])


def test_a_table_of_a_league_that_does_not_exist_is_not_found():
    assert Client().get(reverse("nights:table_now", args=[999_999, 1])).status_code == 404


def test_the_sheet_of_table_cards_has_a_card_and_a_code_for_each_table():
    night = night_of()
    league = night.season.league
    url = reverse("nights:table_cards", args=[league.pk])

    response = scorekeeper_client().get(url, {"count": 8})

    assert response.status_code == 200
    page = content(response)
    assert page.count('data-testid="table-card"') == 8
    assert page.count("<svg") == 8
    printed = re.findall(r'data-testid="card-url">([^<]*)<', page)
    assert printed == [
        "http://testserver" + reverse("nights:table_now", args=[league.pk, n]) for n in range(1, 9)
    ]
    assert "Table 8" in text(response)


def test_the_sheet_has_as_many_cards_as_the_busiest_round_unless_told():
    night = night_of(NAMES[:8])
    drawn_and_started(night)
    url = reverse("nights:table_cards", args=[night.season.league_id])

    page = content(scorekeeper_client().get(url))

    assert page.count('data-testid="table-card"') == 2


def test_a_wrong_number_of_cards_is_refused_with_a_reason():
    night = night_of()
    url = reverse("nights:table_cards", args=[night.season.league_id])
    organizer = scorekeeper_client()
    for wrong in ("eight", "0", "61"):
        response = organizer.get(url, {"count": wrong})
        assert response.status_code == 422
        assert 'data-testid="table-card"' not in content(response)
        assert 'role="alert"' in content(response)


def test_only_an_organizer_prints_the_table_cards():
    night = night_of()
    url = reverse("nights:table_cards", args=[night.season.league_id])
    assert Client().get(url).status_code == 403


# The public pairings


def test_the_pairings_show_each_table_and_each_name_without_signing_in():
    night = night_of(NAMES)  # nine players: two tables and one sits out
    first = drawn_and_started(night)
    seats = {t.number: seated_names(t.match) for t in first.tables.all()}

    response = Client().get(pairings_url(night))

    assert response.status_code == 200
    shown = text(response)
    for number, (a, b, c, d) in seats.items():
        assert f"Table {number} {a} & {c} against {b} & {d}" in shown
        # by name: Bo's row says table, seat, partner and opponents
        assert f"{b} {number} 2 {d} {a} & {c}" in shown
    out = sorted(set(NAMES) - {name for names in seats.values() for name in names})
    assert f"{out[0]} Sits this round out" in shown
    rows = re.findall(r'<tr data-name="([^"]*)"', content(response))
    assert rows == sorted(NAMES)
    # a code for the wall, of the page's own address
    assert "http://testserver" + pairings_url(night) in shown
    assert "<svg" in content(response)


def test_a_chickenfoot_night_lists_everyone_else_at_the_table_as_opponents():
    night = night_of(
        NAMES, game="chickenfoot", rules={"set": 9}, partnerships=False, most_at_a_table=6
    )
    first = drawn_and_started(night)
    seats = {t.number: seated_names(t.match) for t in first.tables.all()}

    response = Client().get(pairings_url(night))

    shown = text(response)
    assert "Partner" not in shown
    for number, players in seats.items():
        assert f"Table {number} {', '.join(players)}" in shown
        first_player, *others = players
        assert f"{first_player} {number} 1 {', '.join(others)}" in shown


def test_looking_for_bo_finds_bos_table():
    night = night_of()
    first = drawn_and_started(night)
    table = next(t for t in first.tables.all() if "Bo" in seated_names(t.match))

    response = Client().get(pairings_url(night), {"name": "bo"})

    shown = re.findall(
        r'<tr data-name="([^"]*)" data-testid="pairing-name"( hidden)?>', content(response)
    )
    assert [name for name, hidden in shown if not hidden] == ["Bo"]
    bo_row = re.search(r'<tr data-name="Bo".*?</tr>', content(response), re.S).group(0)
    assert f'<td class="pairings-table-number">{table.number}</td>' in bo_row
    # the box keeps what was typed
    assert 'value="bo"' in content(response)


def test_a_name_nobody_has_says_so():
    night = night_of()
    drawn_and_started(night)

    response = Client().get(pairings_url(night), {"name": "Zofia"})

    assert re.search(r"<p role=\"status\" data-name-none>", content(response))
    assert 'data-testid="pairing-name">' not in content(response)


def test_the_pairings_of_a_round_drawn_and_not_started_are_shown_as_such():
    night = night_of()
    response = Client().get(pairings_url(night))
    assert "The first round has not been drawn yet." in text(response)

    round_draw.draw_round(Night.objects.get(pk=night.pk))

    response = Client().get(pairings_url(night))
    assert "Round 1 of 2: by table" in text(response)
    assert "Drawn: the round starts soon." in text(response)


def test_the_pairings_poll_is_answered_304_until_something_moves():
    night = night_of()
    first = drawn_and_started(night)
    wall = Client()
    response = wall.get(pairings_url(night))
    etag = response["ETag"]

    assert wall.get(pairings_url(night), headers={"If-None-Match": etag, **HTMX}).status_code == 304
    # the page's poll names the version it shows in its address
    polled = re.search(r'hx-get="([^"]*)"', content(response)).group(1).replace("&amp;", "&")
    assert wall.get(polled, headers=HTMX).status_code == 304

    match = table_match(first, 1)
    play(scorekeeper_client(), match, seated_names(match)[0], 25)
    changed = wall.get(pairings_url(night), headers={"If-None-Match": etag, **HTMX})
    assert changed.status_code == 200
    assert "<html" not in content(changed)
    assert "Tonight's results" in text(changed)
    # a phone that looks for another name is not answered with the rows of the first
    assert (
        wall.get(
            pairings_url(night), {"name": "Bo"}, headers={"If-None-Match": changed["ETag"], **HTMX}
        ).status_code
        == 200
    )


def test_the_pairings_are_drawn_again_for_a_result_or_a_seat_taken_not_for_a_play():
    night = night_of(NAMES, signed_only=True)
    first = drawn_and_started(night)
    wall = Client()
    shown = wall.get(pairings_url(night))
    assert "Sitting out:" in text(shown)

    def asked():
        nonlocal shown
        answer = wall.get(pairings_url(night), headers={"If-None-Match": shown["ETag"], **HTMX})
        if answer.status_code == 200:
            shown = answer
        return answer

    match = table_match(first, 1)
    scorer = scorekeeper_client()
    # a play in a match still being played shows nowhere on the page
    play(scorer, match, seated_names(match)[0], 10)
    assert asked().status_code == 304

    # a seat handed over: the one who sat out plays on at table 1
    leaving = match.seats.get(position=1).player
    spare = first.sitting_out.get().player
    rounds.leave(Night.objects.get(pk=night.pk), leaving, replacement=spare, by=ORGANIZER)
    assert asked().status_code == 200
    assert "Sitting out:" not in text(shown)

    # the match won, then signed: tonight's results count it once it is signed
    play(scorer, match, seated_names(match)[0], 25)
    assert asked().status_code == 200
    assert "Tonight's results" not in text(shown)
    won = Match.objects.get(pk=match.pk)
    signing.match_sign(match=won, side=1, version=won.version, via=signing.BY_LINK, by=ORGANIZER)
    assert asked().status_code == 200
    assert "Tonight's results" in text(shown)


def _queries(url: str) -> int:
    client = Client()
    client.get(url)  # sessions, the cache table: what a first request sets up
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_pairings_page_asks_as_many_queries_for_twelve_tables_as_for_two():
    players = [f"Player {n:02}" for n in range(48)]
    small, big = night_of(players[:8]), night_of(players)
    for night in (small, big):
        win_every_table(drawn_and_started(night))
        drawn_and_started(night)
    assert len(rounds.started_rounds(Night.objects.get(pk=big.pk))) == 2
    assert NightRound.objects.get(night=big, number=2).tables.count() == 12

    assert _queries(pairings_url(small)) == _queries(pairings_url(big))
