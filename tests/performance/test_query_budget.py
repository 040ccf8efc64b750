"""Every page asks the database a fixed number of questions, whatever the number of hands,
matches and players: the same budget holds for a hall of four players and two matches and for
one of sixteen players, twenty-four matches and a match of forty hands.

The client is the hall's organizer, who sees the most (entry forms, edit buttons, forfeits).
The budgets count the session, the user and the organizer check (3 queries) and, for the
standings, what a first visit costs: working them out and storing them in the cache.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.performance.hall import LARGE, SMALL, Hall, Size, build, long_match
from tests.web.pages import HTMX
from tests.web.table import play, scorekeeper_client

pytestmark = pytest.mark.django_db

#: each page's address in a hall, and the most queries it may make
PAGES: dict[str, tuple[Callable[[Hall], str], int]] = {
    "home": (lambda hall: reverse("tables:home"), 9),
    "scoreboard": (lambda hall: reverse("tables:scoreboard", args=[hall.match.pk]), 15),
    "history": (lambda hall: reverse("tables:history", args=[hall.match.pk]), 8),
    "settle it": (lambda hall: reverse("tables:settle"), 3),
    "leagues": (lambda hall: reverse("leagues:league_list"), 5),
    "league": (lambda hall: reverse("leagues:league", args=[hall.league.pk]), 6),
    "season standings": (
        lambda hall: reverse("leagues:season", args=[hall.league.pk, hall.season.pk]),
        # the kept rows, and the head-to-head records of the players level before the
        # tie-breaks (leagues/kept.py), and who has a night's result not signed yet
        # (nights/signing.provisional_counts)
        21,
    ),
    # the standings' 20, the two questions of the ETag its 2-second poll is answered with, and
    # the versions the board shows kept for its next poll (leagues/views/wall.shown: on
    # PostgreSQL the cache is in the app's database)
    "wall board": (
        lambda hall: reverse("leagues:wall", args=[hall.league.pk, hall.season.pk]),
        24,
    ),
    # the player; their results as values (matches, then seats); their ratings, their
    # changes, the matches of the last ones explained, their partners' ratings and the average
    # of each game's; the recent matches listed (matches, then seats); the session, the user
    # and the organizer check
    "player": (lambda hall: reverse("leagues:player", args=[hall.player.pk]), 13),
    # the kept ratings, the trend of the first five, the leagues and seasons to filter by
    "ratings": (lambda hall: reverse("leagues:ratings", args=["straight"]), 7),
    "share page": (lambda hall: reverse("access:share", args=[hall.match.pk]), 5),
    "edit-hand form": (lambda hall: reverse("tables:edit_hand", args=[hall.match.pk, 1]), 7),
}
SIZES = {"small": SMALL, "large": LARGE}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("page", PAGES)
def test_a_page_stays_within_its_query_budget_at_any_size(
    django_assert_max_num_queries, page: str, size: str
) -> None:
    hall = build(SIZES[size])
    url, budget = PAGES[page]
    client: Client = scorekeeper_client()

    with django_assert_max_num_queries(budget):
        response = client.get(url(hall))

    assert response.status_code == 200


def test_the_standings_seen_again_cost_fewer_queries_than_the_first_visit(
    django_assert_max_num_queries,
) -> None:
    hall = build(Size(players=8, matches=6, hands=6))
    url, _ = PAGES["season standings"]
    client = scorekeeper_client()
    client.get(url(hall))

    # the session, the user, the organizer check, the season's stamp, the season and its
    # league, its league nights, and the standings kept in the cache: working them out again
    # is skipped
    with django_assert_max_num_queries(7):
        response = client.get(url(hall))

    assert response.status_code == 200


def test_a_watchers_scoreboard_seen_again_costs_three_queries(
    django_assert_max_num_queries,
) -> None:
    hall = build(Size(players=8, matches=6, hands=6))
    url, _ = PAGES["scoreboard"]
    Client().get(url(hall))

    # the match's version, then the page kept for it (cache_page: its headers and the page)
    with django_assert_max_num_queries(3):
        response = Client().get(url(hall))

    assert response.status_code == 200


def tap_queries(hands: int) -> list[str]:
    """The queries of a tap on 10 in the hand being played of a match of ``hands`` hands."""
    client = scorekeeper_client()
    match = long_match(hands_to=100_000, hands=hands)
    url = reverse("tables:record_play", args=[match.pk])
    client.post(url, {"player": "0", "points": 10}, headers=HTMX)
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            url, {"player": "1", "points": 10, "drawn": str(match.version)}, headers=HTMX
        )
    assert response.status_code == 200
    return [query["sql"] for query in captured.captured_queries]


def test_a_tap_asks_the_same_questions_at_one_and_sixty_hands_and_reads_the_match_once(
    db: None,
) -> None:
    short, long = tap_queries(1), tap_queries(60)

    assert len(short) == len(long)
    match_reads = [sql for sql in long if sql.startswith("SELECT") and 'FROM "tables_match"' in sql]
    assert len(match_reads) == 1, match_reads
    # SQLite has no row locks: its transactions take the database's write lock as they begin
    assert "FOR UPDATE" in match_reads[0] or connection.vendor == "sqlite"


def test_a_tap_reads_who_taps_before_it_locks_the_match(db: None) -> None:
    """The session and the account are read before the entry's transaction, so the lock
    (on SQLite the database's write lock, which every tap in the hall waits for) is held for
    the match and the entry alone."""
    queries = tap_queries(1)

    begun = next(n for n, sql in enumerate(queries) if sql.startswith("SAVEPOINT"))
    read_first = queries[:begun]
    locked = queries[begun:]
    assert any('FROM "django_session"' in sql for sql in read_first), read_first
    assert any('FROM "auth_user"' in sql for sql in read_first), read_first
    assert not any('FROM "django_session"' in sql or 'FROM "auth_user"' in sql for sql in locked)


def test_a_wall_boards_poll_after_a_tap_reads_no_standings_when_their_table_is_cached_drawn(
    db: None,
) -> None:
    hall = build(Size(players=8, matches=6, hands=6))
    url, _ = PAGES["wall board"]
    Client().get(url(hall), headers=HTMX)
    play(scorekeeper_client(), hall.match, hall.match.seats.first().player.name, 10)

    # the ETag's season and matches being played, the season and its league, the table cached
    # drawn, and the match that changed: no standings rows, nor the cache entry they are kept in
    with CaptureQueriesContext(connection) as captured:
        response = Client().get(url(hall), headers=HTMX)

    assert response.status_code == 200
    read = " ".join(query["sql"] for query in captured.captured_queries)
    assert ":standings:" not in read and "standingrow" not in read.lower()
    assert len(captured) <= 10, [query["sql"][:80] for query in captured.captured_queries]
