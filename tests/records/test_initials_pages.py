"""Initials on the public pages still to name a player in full: a night's results, a
tournament's standings and its sheets, the night's board and page and its table cards; the
signing of a night's result; a player's partners, opponents and shared seats, the players list
and its search, a league's members and the lists of matches. A player who asked shows as their
initials, another keeps their whole name; an organizer's forms and the files keep whole
names."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.models import Player
from tests.nights.test_nights import draw, new_night, season_of, start
from tests.nights.test_public import drawn_and_started, night_of, win_every_table
from tests.nights.test_seat_handed_over import handed_over
from tests.nights.test_signing import sign_url
from tests.nights.test_tournament import play_round, standings_rows, tournament
from tests.records.hall import hall, played, signed_in
from tests.web.pages import content, text
from tests.web.table import board, play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db

FOUR = ("Ana Maria Lopez", "Bo", "Cy", "Di")


def asks_for_initials(name: str) -> Player:
    found = Player.objects.get(name=name)
    found.initials_only = True
    found.save(update_fields=["initials_only"])
    return found


def shows_initials(page: str, where: str, *, other: str = "Bo") -> None:
    assert "A. M. L." in page, where
    assert "Ana Maria Lopez" not in page, where
    # another player keeps their whole name
    assert other in page, where


def test_a_league_nights_results_board_page_and_table_cards_show_the_initials() -> None:
    night = night_of(FOUR, rounds_=1)
    asks_for_initials("Ana Maria Lopez")
    first = drawn_and_started(night)
    organizer = scorekeeper_client()
    cards = content(organizer.get(reverse("nights:cards", args=[night.pk, 1])))
    shows_initials(cards, "table cards")

    win_every_table(first)

    for page in ("nights:night", "nights:board", "nights:pairings"):
        shown = content(Client().get(reverse(page, args=[night.pk])))
        shows_initials(shown, page)
        assert re.search(r'<th scope="row">A\. M\. L\.', shown), page  # the results' row
    # the organizer's forms pick players by their whole names; the results show the initials
    runs = content(organizer.get(reverse("nights:night", args=[night.pk])))
    assert "Ana Maria Lopez" in runs
    assert re.search(r'<th scope="row">A\. M\. L\.', runs)
    # the results file keeps whole names
    csv = Client().get(reverse("nights:results_csv", args=[night.pk])).content.decode()
    assert "Ana Maria Lopez" in csv


def test_a_tournaments_standings_and_sheets_show_the_initials() -> None:
    organizer = scorekeeper_client()
    season = season_of("straight", {"target": 25}, FOUR, name="Hall Monthly")
    asks_for_initials("Ana Maria Lopez")
    night = tournament(organizer, season, FOUR, draw="swiss", rounds=2, partnerships="")
    drawn = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302

    play_round(organizer, drawn, lambda table: 0)

    for page, args in (
        ("nights:night", [night.pk]),
        ("nights:board", [night.pk]),
        ("nights:pairings", [night.pk]),
        ("nights:standings_sheet", [night.pk]),
        ("nights:round_sheet", [night.pk, 1]),
    ):
        shown = content(Client().get(reverse(page, args=args)))
        shows_initials(shown, page)
    entries = [
        row[1] for row in standings_rows(Client().get(reverse("nights:board", args=[night.pk])))[1:]
    ]
    assert "A. M. L." in entries and "Bo" in entries
    # the organizer's page ranks by the initials too
    ranked = standings_rows(organizer.get(reverse("nights:night", args=[night.pk])))
    assert "A. M. L." in [row[1] for row in ranked]
    # the standings file keeps whole names
    csv = Client().get(reverse("nights:standings_csv", args=[night.pk])).content.decode()
    assert "Ana Maria Lopez" in csv


def test_signing_a_nights_result_shows_the_initials() -> None:
    organizer = scorekeeper_client()
    season = season_of("straight", {"target": 25}, FOUR)
    asks_for_initials("Ana Maria Lopez")
    night = new_night(organizer, season, players=FOUR)
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    table = first.tables.get()
    phone = Client()
    joined = phone.post(reverse("access:join", args=[table.link.token]), {"name": "T1"})
    assert joined.status_code == 302
    match = table.match
    seats = seated_names(match)
    assert play(phone, match, seats[1], 10).status_code in (200, 302)
    assert play(phone, match, seats[0], 25).status_code in (200, 302)

    page = content(board(phone, match))

    part = re.search(r'<section class="card sign".*?</section>', page, re.S)
    assert part is not None, "the board asks nobody to sign"
    shows_initials(part.group(0), "the board's question", other="Bo")
    # the side's own page, through its link
    links = re.findall(r'href="(http://testserver/nights/sign/[^"]+/)"', page)
    assert links, "the scorekeeper's board gives the side's link"
    for url in (sign_url(page), *links):
        shows_initials(content(Client().get(url)), url)


def test_a_players_partners_opponents_list_search_league_and_matches_show_the_initials() -> None:
    north = hall("North Hall", FOUR)
    partnered = rules.Match(
        "straight",
        ("Ana Maria Lopez", "Bo", "Di", "Cy"),
        partnerships=(("Ana Maria Lopez", "Di"), ("Bo", "Cy")),
        rules={"target": 50},
        hands=(
            rules.Hand(
                plays=(
                    rules.Play("Ana Maria Lopez", points=30),
                    rules.Play("Di", points=20),
                )
            ),
        ),
    )
    played(north.season, partnered)
    asks_for_initials("Ana Maria Lopez")
    di, bo = Player.objects.get(name="Di"), Player.objects.get(name="Bo")

    # Di's partner, Bo's opponent
    for person in (di, bo):
        page = text(Client().get(reverse("leagues:player", args=[person.pk])))
        shows_initials(page, person.name, other="Cy")
    assert "Best partners A. M. L.: 1 of 1" in text(
        Client().get(reverse("leagues:player", args=[di.pk]))
    )
    # a search by the name does not give the name away: "Lopez" finds nobody
    found = content(Client().get(reverse("leagues:player_list") + "?q=lopez"))
    assert "A. M. L." not in found and "Ana Maria Lopez" not in found
    league = reverse("leagues:league", args=[north.league.pk])
    shows_initials(content(Client().get(league)), "the league's members")
    # its club's organizers read the whole name, as on the player's page
    assert "Ana Maria Lopez" in content(signed_in(north.organizer).get(league))
    shows_initials(content(Client().get(reverse("tables:home"))), "the home page's matches")
    club = reverse("club_pages:club", args=[north.club.pk])
    shows_initials(content(signed_in(north.organizer).get(club)), "the club's matches")


def test_a_players_shared_seats_name_who_asked_by_their_initials() -> None:
    organizer = scorekeeper_client()
    match, leaving, spare, _ = handed_over(organizer)
    shown = asks_for_initials(spare).shown_name
    left = Player.objects.get(name=leaving)

    page = content(Client().get(reverse("leagues:player", args=[left.pk])))

    part = re.search(r'data-testid="shared-matches".*?</section>', page, re.S)
    assert part is not None, "the page lists no shared seat"
    assert f"{leaving}, rounds 1-2; {shown} from round 3" in part.group(0)
    assert spare not in part.group(0)
