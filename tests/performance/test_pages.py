"""The scoreboard and the standings as the phones and the TV of a hall receive them: gzipped,
a watcher's scoreboard kept (Django's cache_page) under the version of its match and the
language, so it is the same page for every watcher and is served without reading the hands, a
scorekeeper's page drawn for each visit with its own CSRF token and entry key, a page carrying a
message drawn for that once.

That a watcher's scoreboard shows a play recorded after it was seen, and the standings a match
finished after they were seen, is tested in test_cache.py too.
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.cache import has_vary_header

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.models import Hand, Match, Play, Player
from scorekeeper.tables.scoring import scoreboard_of, with_everything
from tests.performance.hall import SMALL, Hall, build, season_match_to_ten
from tests.web.pages import HTMX, content, text, totals
from tests.web.table import play, scorekeeper_client

pytestmark = pytest.mark.django_db

#: what a phone's browser says it accepts
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')
ENTRY_KEY = re.compile(r'name="entry_key" value="([^"]*)"')


def scoreboard_url(match: Match) -> str:
    return reverse("tables:scoreboard", args=[match.pk])


def season_url(hall: Hall) -> str:
    return reverse("leagues:season", args=[hall.league.pk, hall.season.pk])


def wall_url(hall: Hall) -> str:
    return reverse("leagues:wall", args=[hall.league.pk, hall.season.pk])


def gzipped(client: Client, url: str) -> HttpResponse:
    """The page as a phone receives it: gzipped, and said to be."""
    response = client.get(url, headers=GZIP)
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert has_vary_header(response, "Accept-Encoding")
    return response


def unzipped(response: HttpResponse) -> HttpResponse:
    """The gzipped page as the browser reads it."""
    return HttpResponse(gzip.decompress(response.content))


def board_totals(match: Match) -> list[int]:
    """The totals of the match as the engine works them out from what is stored, in side order."""
    board = scoreboard_of(with_everything(Match.objects.filter(pk=match.pk)).get())
    return [board.totals[side] for side in board.sides]


def organizer_checking_csrf() -> Client:
    """The hall's organizer in a browser whose every post is checked for its CSRF token."""
    scorekeeper_client()  # makes the organizer's account
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="organizer"))
    return client


def test_a_watcher_gets_the_same_gzipped_scoreboard_as_every_other_watcher() -> None:
    hall = build(SMALL)
    url = scoreboard_url(hall.match)
    expected = board_totals(hall.match)
    assert any(expected), "the hall's match has points to show"

    first, second = gzipped(Client(), url), gzipped(Client(), url)
    plain = Client().get(url)

    page = unzipped(first)
    assert unzipped(second).content == page.content
    assert totals(page) == expected
    assert "csrfmiddlewaretoken" not in content(page)
    # a browser that takes no gzip is sent the very same page, unzipped
    assert plain.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert plain.content == page.content


def test_a_second_watcher_is_served_the_kept_page_without_reading_the_hands() -> None:
    hall = build(SMALL)
    url = scoreboard_url(hall.match)
    gzipped(Client(), url)

    with CaptureQueriesContext(connection) as asked:
        response = gzipped(Client(), url)

    # the match's row (its version says which page is current), then cache_page's two reads:
    # the headers the page varies on and the page. A watcher has no session or account to
    # look up, and no hand or play is read: drawing the page again would take several more.
    assert len(asked) <= 3
    tables = (Hand._meta.db_table, Play._meta.db_table)
    assert not [query for query in asked if any(table in query["sql"] for table in tables)]
    assert totals(unzipped(response)) == board_totals(hall.match)


def test_a_watcher_is_sent_the_scoreboard_in_their_own_language() -> None:
    hall = build(SMALL)
    url = scoreboard_url(hall.match)
    english = text(Client().get(url))

    spanish = text(Client().get(url, headers={"Accept-Language": "es"}))

    assert "Hands" in english and "Manos" not in english
    assert "Manos" in spanish
    assert text(Client().get(url)) == english


def test_a_phone_keeping_score_by_its_link_is_never_sent_a_watchers_page() -> None:
    """The same address, the same language and no account: the link makes the page its own."""
    hall = build(SMALL)
    url = scoreboard_url(hall.match)
    assert "csrfmiddlewaretoken" not in content(Client().get(url))
    link = ShareLink.objects.create(match=hall.match, role=SCOREKEEPER, label="Bea's phone")
    keeping = Client()
    keeping.post(reverse("access:join", args=[link.token]), {"name": "Bea"})

    page = content(keeping.get(url))

    assert re.search(r'name="csrfmiddlewaretoken" value="\w{64}"', page)


def test_a_watchers_kept_scoreboard_shows_a_play_recorded_since() -> None:
    """The same as test_cache.py's, for a watcher's gzipped page: it is kept apart."""
    hall = build(SMALL)
    url = scoreboard_url(hall.match)
    before = totals(unzipped(gzipped(Client(), url)))
    # the first seat, as the board posts who scored
    first = "0"

    assert play(scorekeeper_client(), hall.match, first, 10).status_code == 302

    after = totals(unzipped(gzipped(Client(), url)))
    assert after == [before[0] + 10, *before[1:]]
    assert after == board_totals(hall.match)


def test_a_scorekeeper_gets_a_fresh_working_csrf_token_and_entry_key_on_every_visit() -> None:
    hall = build(SMALL)
    client = organizer_checking_csrf()
    # the first seat, as the board posts who scored
    first = "0"
    url = scoreboard_url(hall.match)
    pages = [content(client.get(url)) for _ in range(2)]
    tokens = [set(CSRF_TOKEN.findall(page)) for page in pages]
    keys = [set(ENTRY_KEY.findall(page)) for page in pages]
    before = board_totals(hall.match)

    # one token and one key for each whole page, another on the next visit
    assert all(len(found) == 1 for found in tokens + keys)
    assert tokens[0] != tokens[1] and keys[0] != keys[1]
    # the check is on: a play without a token is refused and nothing is saved
    refused = client.post(
        reverse("tables:record_play", args=[hall.match.pk]), {"player": first, "points": 5}
    )
    assert refused.status_code == 403
    assert board_totals(hall.match) == before

    # each page's token and key work: a play from each is saved
    for [token], [key] in zip(tokens, keys, strict=True):
        response = client.post(
            reverse("tables:record_play", args=[hall.match.pk]),
            {"player": first, "points": 5, "csrfmiddlewaretoken": token, "entry_key": key},
        )
        assert response.status_code == 302
        assert response["Location"] == url

    assert board_totals(hall.match) == [before[0] + 10, *before[1:]]
    assert totals(client.get(url)) == board_totals(hall.match)


def test_a_message_is_shown_once_on_a_page_drawn_for_it() -> None:
    hall = build(SMALL)
    url = scoreboard_url(hall.match)
    deleting, other_phone = scorekeeper_client(), scorekeeper_client()
    said = "Hand 1 deleted; the totals follow."
    hands = hall.match.hand_count

    response = deleting.post(reverse("tables:delete_hand", args=[hall.match.pk, 1]))
    assert response.status_code == 302 and response["Location"] == url
    # the same organizer on another phone keeps the page of the match as it now is
    assert said not in text(other_phone.get(url))

    shown = deleting.get(url)
    again = deleting.get(url)

    assert said in text(shown)
    assert said not in text(again)
    assert said not in text(other_phone.get(url))
    assert with_everything(Match.objects.filter(pk=hall.match.pk)).get().hand_count == hands - 1
    assert totals(shown) == totals(again) == board_totals(hall.match)


def test_a_watcher_gets_the_same_gzipped_standings_and_they_follow_the_season() -> None:
    hall = build(SMALL)
    url = season_url(hall)
    match = season_match_to_ten(hall)
    names = list(hall.match.seats.values_list("player__name", flat=True))

    first, second = gzipped(Client(), url), gzipped(Client(), url)

    standings = content(unzipped(first))
    assert content(unzipped(second)) == standings
    assert "csrfmiddlewaretoken" not in standings
    assert any(row_of(name) in standings for name in names)
    assert row_of("Quinn") not in standings

    assert play(scorekeeper_client(), match, "Quinn", 10).status_code == 302
    assert with_everything(Match.objects.filter(pk=match.pk)).get().finished

    assert row_of("Quinn") in content(unzipped(gzipped(Client(), url)))


def row_of(name: str) -> str:
    """The start of a player's row of the standings: the name, a link to the player's page."""
    player = Player.objects.get(name=name)
    return f'<th scope="row"><a href="{reverse("leagues:player", args=[player.pk])}">{name}</a>'


def test_the_kept_standings_are_sent_in_each_readers_language() -> None:
    """The drawn standings are kept in the cache per language: a reader in Spanish after one in
    English gets the table in Spanish, and the English reader after them English again."""
    hall = build(SMALL)
    url = season_url(hall)
    english = text(Client().get(url))

    spanish = text(Client().get(url, headers={"Accept-Language": "es"}))

    assert "Ties are broken" in english and "Jugador" not in english
    assert "Jugador" in spanish and "Ties are broken" not in spanish
    assert text(Client().get(url)) == english


@pytest.mark.parametrize("first", ["board", "page"])
def test_the_wall_boards_htmx_refresh_and_its_whole_page_are_each_what_was_asked(
    first: str,
) -> None:
    hall = build(SMALL)
    url = wall_url(hall)
    tv = Client()

    def board() -> str:
        return content(tv.get(url, headers=HTMX))

    def page() -> str:
        return content(tv.get(url))

    visits = [board, page] if first == "board" else [page, board]
    seen = [(visit, visit()) for visit in visits + visits]

    for visit, said in seen:
        assert 'id="wall-board"' in said
        assert hall.league.name in said
        assert ("<html" in said) == (visit is page)
