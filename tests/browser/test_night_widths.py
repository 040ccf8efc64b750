"""Every page of a league night fits a small phone (360 px wide), in each game: the night's
page, its public pairings, the table cards, the director's desk, a table's own page, while a
round is played and once its results are in. Nothing scrolls sideways: a table of numbers
too wide for its card pushes the whole page out."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.hall import ORGANIZER, PASSWORD, sign_in
from tests.browser.table import assert_fits_the_phone, save_screenshot
from tests.browser.test_accessibility import blocking_violations
from tests.clubs import organizer_of_the_club, the_club
from tests.web.table import chickenfoot_round, lay, play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db(transaction=True)

NINE = ("Ana", "Bo", "Cy", "Di", "José Núñez", "Flo", "Gus", "Hal", "Ivy")


def win_straight(client: Client, match: Match) -> None:
    play(client, match, seated_names(match)[0], 25)


def win_chickenfoot(client: Client, match: Match) -> None:
    """Seven rounds of a double-six set: seat 1 goes out of each, the others keep pips."""
    first, *others = seated_names(match)
    for _ in range(7):
        held = {name: 10 * pips for pips, name in enumerate(others, start=1)}
        chickenfoot_round(client, match, went_out=first, **held)


def win_sedma(client: Client, match: Match) -> None:
    """The rules' worked example to its eighth tile: seat 4 has 6 points, the target is 5."""
    seats = seated_names(match)
    line = ("1-1", "1-2", "2-4", "4-4", "4-0", "0-0", "0-6", "6-6")
    for n, tile in enumerate(line):
        lay(client, match, seats[n % 4], tile)


#: each game's league: its rules, who comes, and how seat 1's side (Sedma: seat 4) wins a match
GAMES: dict[str, tuple[dict, tuple[str, ...], bool, Callable[[Client, Match], None]]] = {
    "straight": ({"target": 25}, NINE, True, win_straight),
    "chickenfoot": ({}, NINE[:8], False, win_chickenfoot),
    "sedma": ({"target": 5}, NINE, False, win_sedma),
}


def night_started(game: str) -> tuple[Night, NightRound]:
    rules, came_names, partnerships, _ = GAMES[game]
    league = League.objects.create(
        club=the_club(), name="Harris County Domino Club", game=game, rules=rules
    )
    season = Season.objects.create(
        league=league, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1)
    )
    came = [player_named(name) for name in came_names]
    league.members.set(came)
    night = Night(
        season=season,
        played_on=timezone.localdate(),
        rounds=2,
        seed="wide",
        partnerships=partnerships,
    )
    rounds.open_night(night, came, [])
    drawn = round_draw.draw_round(night)
    rounds.start_round(drawn, by=Author(name="Organizer"))
    return night, drawn


def night_pages(night: Night) -> list[str]:
    league = night.season.league_id
    return [
        f"/leagues/{league}/seasons/{night.season_id}/nights/new/",
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/pairings/",
        f"/nights/{night.pk}/rounds/1/cards/",
        f"/nights/{night.pk}/desk/",
        f"/leagues/{league}/tables/1/",
        f"/leagues/{league}/tables/cards/?count=2",
    ]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_night_page_fits_a_small_phone(
    page: Page, live_server: LiveServer, output_path: str, game: str
) -> None:
    night, drawn = night_started(game)
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    page.set_viewport_size({"width": 360, "height": 780})
    sign_in(page, live_server.url)

    def every_page_fits(when: str) -> None:
        for where in night_pages(night):
            page.goto(live_server.url + where)
            try:
                assert_fits_the_phone(page)
            except AssertionError as wide:
                shot = where.strip("/").replace("/", "-").replace("?", "-")
                save_screenshot(page, output_path, f"wide-{game}-{when}-{shot}.png")
                raise AssertionError(f"{game}, {when}: {where}: {wide}") from None

    every_page_fits("playing")

    # the round played out at every table: tonight's results on the night's pages
    organizer = scorekeeper_client()
    _, _, _, win = GAMES[game]
    for table in drawn.tables.all():
        win(organizer, table.match)
        table.match.refresh_from_db()
        assert table.match.finished, f"{game}: table {table.number} is not finished"
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(page.get_by_role("heading", name="Tonight's results")).to_be_visible()
    every_page_fits("results")
    # the results' table, scrolled inside its card, is reached from the keyboard
    for where in (f"/nights/{night.pk}/", f"/nights/{night.pk}/pairings/"):
        page.goto(live_server.url + where)
        found = blocking_violations(page)
        assert not found, f"{game}: {where}:\n" + "\n".join(found)
