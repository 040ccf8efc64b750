"""The ratings pages read the kept rows: the same number of queries at 10 matches as at
10,000 (the rows are written in bulk here, as many as a season of that size keeps)."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.leagues.kept_ratings import rating_change_row
from scorekeeper.leagues.models import League, Rating, RatingChange, Season
from scorekeeper.leagues.ratings import Game, latest, replay
from scorekeeper.tables.models import Match, Player
from tests.clubs import the_club

pytestmark = pytest.mark.django_db

PLAYERS = 40


def kept_season(matches: int) -> tuple[Season, Player, int]:
    """A season of ``matches`` two-player matches with their kept ratings, written in bulk."""
    rng = random.Random(matches)
    league = League.objects.create(club=the_club(), name="Thursday", game="straight")
    season = Season.objects.create(
        league=league, name="All year", starts_on=datetime.date(2026, 1, 1)
    )
    players = Player.objects.bulk_create(Player(name=f"Player {n}") for n in range(PLAYERS))
    league.members.set(players)
    start = timezone.now() - datetime.timedelta(days=365)
    rows = Match.objects.bulk_create(
        Match(game="straight", finished=True, finished_at=start + datetime.timedelta(minutes=n))
        for n in range(matches)
    )
    games = []
    for match in rows:
        one, other = rng.sample(players, 2)
        games.append(Game(match.pk, ((one.pk,), (other.pk,)), (1, 2)))
    changes = replay(games)
    at = {match.pk: match.finished_at for match in rows}
    RatingChange.objects.bulk_create(
        (
            rating_change_row("straight", c, (at[c.match_id], c.match_id), season.pk)
            for c in changes
        ),
        batch_size=1000,
    )
    Rating.objects.bulk_create(
        Rating(
            game="straight",
            player_id=player,
            mu=c.after.mu,
            sigma=c.after.sigma,
            shown=c.after.shown,
            played=c.number,
            last_delta=c.delta,
        )
        for player, c in latest(changes).items()
    )
    return season, players[0], rows[-1].pk


def queries(url: str) -> list[str]:
    """The queries of the page, each cut to its first words and its table: two runs that
    differ say where."""
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return [query["sql"][:120] for query in captured.captured_queries]


def pages(season: Season, player: Player, match_id: int) -> dict[str, str]:
    ratings = reverse("leagues:ratings", args=["straight"])
    return {
        "ratings": ratings,
        "ratings filtered and sorted": f"{ratings}?season={season.pk}&league={season.league_id}"
        "&sort=moved&q=Player",
        "player": reverse("leagues:player", args=[player.pk]),
        "match's ratings": reverse("leagues:match_ratings", args=[match_id]),
    }


def test_the_ratings_pages_make_as_many_queries_at_10000_matches_as_at_10() -> None:
    small = {name: queries(url) for name, url in pages(*kept_season(10)).items()}
    Match.objects.all().delete()
    Player.objects.all().delete()
    League.objects.all().delete()

    large = {name: queries(url) for name, url in pages(*kept_season(10_000)).items()}

    assert {name: len(asked) for name, asked in large.items()} == {
        name: len(asked) for name, asked in small.items()
    }, {name: (small[name], large[name]) for name in small if len(small[name]) != len(large[name])}
    assert len(small["ratings"]) <= 6
