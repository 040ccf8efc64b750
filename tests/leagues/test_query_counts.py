"""The league pages ask the database the same number of questions at 10 matches and at 1,000.

The matches are written straight into their tables with bulk_create, with the columns the
engine keeps (totals, finished, winner, finished_at) filled in: the standings read those, not
the hands, so no hands are needed.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.leagues.kept import standings_rebuild
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.tables.models import Match, Player, Seat
from tests.clubs import the_club
from tests.web.pages import HTMX

pytestmark = pytest.mark.django_db

#: the most queries any of these pages may make, whatever the number of matches (a first visit
#: to the standings works them out and keeps them, and their drawn table, in the database cache)
MOST_QUERIES = 24
#: and the wall board reads and writes the one entry its matches being played are cached drawn in
#: (tables/drawn.py), asks once for their cached scores (tables/board_scores.py), and keeps the
#: versions the board shows (leagues/views/wall.shown, two): on PostgreSQL the cache is in the
#: app's database
WALL_DRAWN_CACHED = 9
ROSTER = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo")
SIZES = (10, 1000)


class Hall:
    """A Straight league season, and Chickenfoot matches outside any league, grown in bulk."""

    def __init__(self) -> None:
        self.league = League.objects.create(
            club=the_club(), name="Big Hall", game="straight", rules={"target": 60}
        )
        self.season = Season.objects.create(
            league=self.league, name="Year", starts_on=datetime.date(2026, 1, 1)
        )
        self.players = {
            p.name: p for p in Player.objects.bulk_create(Player(name=name) for name in ROSTER)
        }
        self.league.members.set(self.players.values())
        self.rng = random.Random(1000)
        self.count = 0
        self.started = timezone.now() - datetime.timedelta(days=365)

    def grow_to(self, count: int) -> None:
        """Add straight season matches (two players, and partnerships) and as many Chickenfoot
        matches, the last straight one of each batch still being played."""
        new = count - self.count
        matches, seatings = [], []
        for n in range(new):
            finished = n != new - 1
            matches.append(self._straight(finished, seatings))
            matches.append(self._chickenfoot(seatings))
        Match.objects.bulk_create(matches)
        Seat.objects.bulk_create(
            Seat(match=match, player=self.players[name], position=position, team=team)
            for match, seating in zip(matches, seatings, strict=True)
            for position, (name, team) in enumerate(seating)
        )
        SeasonMatch.objects.bulk_create(
            SeasonMatch(season=self.season, match=match)
            for match in matches
            if match.game == "straight"
        )
        # written in bulk, outside the app's services, as the benchmark writes its hall
        standings_rebuild(season_id=self.season.pk)
        self.count = count

    def _when(self) -> datetime.datetime:
        self.started += datetime.timedelta(minutes=7)
        return self.started

    def _straight(self, finished: bool, seatings: list) -> Match:
        partnerships = self.rng.random() < 0.4
        seated = self.rng.sample(ROSTER, 4 if partnerships else 2)
        if partnerships:
            sides = [f"{seated[0]} & {seated[2]}", f"{seated[1]} & {seated[3]}"]
            seatings.append([(name, position % 2) for position, name in enumerate(seated)])
        else:
            sides = list(seated)
            seatings.append([(name, None) for name in seated])
        winner = self.rng.choice(sides) if finished else None
        totals = {
            side: self.rng.randrange(60, 90, 5) if side == winner else self.rng.randrange(0, 60, 5)
            for side in sides
        }
        return Match(
            game="straight",
            rules={"target": 60},
            totals=[totals[side] for side in sides],
            finished=finished,
            winners=[sides.index(winner)] if winner else [],
            hand_count=3,
            finished_at=self._when() if finished else None,
        )

    def _chickenfoot(self, seatings: list) -> Match:
        seated = self.rng.sample(ROSTER, 3)
        seatings.append([(name, None) for name in seated])
        totals = {name: self.rng.randint(20, 200) for name in seated}
        lowest = min(totals.values())
        return Match(
            game="chickenfoot",
            totals=[totals[name] for name in seated],
            finished=True,
            winners=[i for i, name in enumerate(seated) if totals[name] == lowest],
            hand_count=7,
            finished_at=self._when(),
        )

    # -- the pages --------------------------------------------------------------------------------

    def season(self, client: Client) -> None:
        get(client, reverse("leagues:season", args=[self.league.pk, self.season.pk]))

    def wall(self, client: Client) -> None:
        get(client, reverse("leagues:wall", args=[self.league.pk, self.season.pk]))

    def wall_htmx(self, client: Client) -> None:
        get(client, reverse("leagues:wall", args=[self.league.pk, self.season.pk]), HTMX)

    def player(self, client: Client) -> None:
        get(client, reverse("leagues:player", args=[self.players["Ana"].pk]))

    def player_with_chart(self, client: Client) -> None:
        match = Match.objects.filter(seats__player=self.players["Ana"]).earliest("pk")
        url = reverse("leagues:player", args=[self.players["Ana"].pk])
        get(client, f"{url}?match={match.pk}")

    def traced(self, client: Client) -> None:
        url = reverse("leagues:season_matches", args=[self.league.pk, self.season.pk])
        get(client, f"{url}?player=Ana&what=won")

    def ratings(self, client: Client) -> None:
        get(client, reverse("leagues:ratings", args=["straight"]))

    def standings_csv(self, client: Client) -> None:
        get(client, reverse("leagues:standings_csv", args=[self.league.pk, self.season.pk]))


def get(client: Client, url: str, headers: dict[str, str] | None = None) -> None:
    response = client.get(url, headers=headers or {})
    assert response.status_code == 200, url


PAGES: dict[str, Callable[[Hall, Client], None]] = {
    "season standings": Hall.season,
    "wall board": Hall.wall,
    "wall board for htmx": Hall.wall_htmx,
    "player page": Hall.player,
    "player page with a match chart": Hall.player_with_chart,
    "matches behind a number": Hall.traced,
    "ratings": Hall.ratings,
    "standings CSV": Hall.standings_csv,
}


def queries(client: Client, hall: Hall, page: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        PAGES[page](hall, client)
    return len(captured)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("page", PAGES)
def test_a_league_page_stays_within_the_query_bound(
    client: Client, django_assert_max_num_queries, page: str, size: int
) -> None:
    hall = Hall()
    hall.grow_to(size)

    with django_assert_max_num_queries(MOST_QUERIES + WALL_DRAWN_CACHED * ("wall" in page)):
        PAGES[page](hall, client)


@pytest.mark.parametrize("page", PAGES)
def test_a_league_page_makes_as_many_queries_at_1000_matches_as_at_10(
    client: Client, page: str
) -> None:
    hall = Hall()
    hall.grow_to(10)
    few = queries(client, hall, page)

    hall.grow_to(1000)
    many = queries(client, hall, page)

    assert SeasonMatch.objects.filter(season=hall.season).count() == 1000
    assert many == few, f"{page}: {few} queries at 10 matches, {many} at 1,000"


def test_the_bulk_season_is_what_the_standings_read(client: Client) -> None:
    """The rows written in bulk look to the league pages like matches played at the table."""
    hall = Hall()
    hall.grow_to(10)

    response = client.get(reverse("leagues:season", args=[hall.league.pk, hall.season.pk]))

    # 10 straight matches, one still being played
    assert "All 9 finished or forfeited matches" in response.content.decode()
    played = sum(
        1
        for match in Match.objects.filter(game="straight", finished=True, seats__player__name="Ana")
    )
    assert f'?player=Ana&amp;what=played">{played}</a>' in response.content.decode()


def test_the_player_page_reads_the_seats_of_the_matches_it_read_by_their_keys(
    client: Client,
) -> None:
    """Not through a subquery: on PostgreSQL, with no statistics yet of rows written in bulk
    (a bundle imported a minute before), the planner took the subquery's tables for empty and
    nested its loops, and the page of a player of 1,000 matches ran for minutes."""
    hall = Hall()
    hall.grow_to(10)

    with CaptureQueriesContext(connection) as captured:
        hall.player(client)

    seats = [q["sql"] for q in captured if 'FROM "tables_seat"' in q["sql"].split(" WHERE ")[0]]
    assert seats
    assert not [sql for sql in seats if "IN (SELECT" in sql], seats
