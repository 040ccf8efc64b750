"""Cached pages never show an old state: a scoreboard is kept per version of its match and the
standings per version of their season, and every change moves the version it touches."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import Season
from scorekeeper.pages import CSRF_SLOT, ENTRY_KEY_SLOT
from scorekeeper.tables.models import Match
from tests.performance.hall import SMALL, Hall, build, season_match_to_ten
from tests.web.pages import text, text_of, totals
from tests.web.table import play, scorekeeper_client

pytestmark = pytest.mark.django_db


def season_url(hall: Hall) -> str:
    return reverse("leagues:season", args=[hall.league.pk, hall.season.pk])


def in_standings(client: Client, hall: Hall, player: str) -> bool:
    """Whether the season's table has a row for ``player``."""
    return f'<th scope="row">{player}' in client.get(season_url(hall)).content.decode()


def scoreboard(client: Client, match: Match) -> str:
    response = client.get(reverse("tables:scoreboard", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_cached_scoreboard_shows_a_play_recorded_after_it_was_cached() -> None:
    hall = build(SMALL)
    spectator, scorekeeper = Client(), scorekeeper_client()
    before = totals(spectator.get(reverse("tables:scoreboard", args=[hall.match.pk])))
    first = hall.match.seats.order_by("position").first().player.name

    play(scorekeeper, hall.match, first, 10)

    after = totals(spectator.get(reverse("tables:scoreboard", args=[hall.match.pk])))
    assert after == [before[0] + 10, *before[1:]]


def test_every_visit_to_a_cached_board_gets_its_own_keys() -> None:
    hall = build(SMALL)
    client = scorekeeper_client()

    pages = [scoreboard(client, hall.match) for _ in range(2)]

    keys = [re.findall(r'name="entry_key" value="([0-9a-f]{32})"', page) for page in pages]
    assert keys[0] and keys[1] and set(keys[0]).isdisjoint(keys[1])
    for page in pages:
        assert CSRF_SLOT not in page and ENTRY_KEY_SLOT not in page
        assert re.search(r'name="csrfmiddlewaretoken" value="\w{64}"', page)


def test_the_standings_count_a_match_finished_after_they_were_cached() -> None:
    hall = build(SMALL)
    client = scorekeeper_client()
    match = season_match_to_ten(hall)
    assert not in_standings(client, hall, "Quinn")

    play(client, match, "Quinn", 10)

    assert in_standings(client, hall, "Quinn")


def test_the_standings_count_a_forfeit_recorded_after_they_were_cached() -> None:
    hall = build(SMALL)
    client = scorekeeper_client()
    match = season_match_to_ten(hall)
    assert "(1 F)" not in text(client.get(season_url(hall)))

    client.post(
        reverse("leagues:forfeit", args=[hall.league.pk, hall.season.pk, match.pk]), {"side": 1}
    )

    assert "(1 F)" in text(client.get(season_url(hall)))


def wall_scores(client: Client, hall: Hall) -> list[str]:
    """The wall board's "Playing now" lines, as a TV shows them."""
    board = client.get(reverse("leagues:wall", args=[hall.league.pk, hall.season.pk]))
    return [
        text_of(line)
        for line in re.findall(r'<p class="wall-match">(.*?)</p>', board.content.decode(), re.S)
    ]


def season_version(hall: Hall) -> int:
    return Season.objects.values_list("version", flat=True).get(pk=hall.season.pk)


def test_a_play_in_a_league_match_shows_on_the_wall_without_working_out_the_standings() -> None:
    """League night: every tap shows on the TV at once, and the season's standings, which
    count only finished matches, are not worked out again for it."""
    hall = build(SMALL)
    scorekeeper, tv = scorekeeper_client(), Client()
    match = season_match_to_ten(hall)
    assert wall_scores(tv, hall) == ["Quinn 0 · Rory 0"]
    version = season_version(hall)

    play(scorekeeper, match, "Quinn", 5)

    assert wall_scores(tv, hall) == ["Quinn 5 · Rory 0"]
    assert season_version(hall) == version
    assert not in_standings(tv, hall, "Quinn")


def test_the_play_that_finishes_a_league_match_moves_it_into_the_standings() -> None:
    hall = build(SMALL)
    scorekeeper, tv = scorekeeper_client(), Client()
    match = season_match_to_ten(hall)
    play(scorekeeper, match, "Quinn", 5)
    assert not in_standings(tv, hall, "Quinn")

    play(scorekeeper, match, "Quinn", 5)

    assert in_standings(tv, hall, "Quinn")
    assert wall_scores(tv, hall) == []
