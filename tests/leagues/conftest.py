"""Leagues with a season of generated matches, stored the way the app stores them.

The matches come from tests/leagues/season.py, which plays them from a seeded random generator
and works out their results itself; here they are written with ``create_match`` (what the setup
view and an import call) and linked to the season.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import create_match, player_named
from tests.clubs import the_club
from tests.leagues.season import (
    ROSTER,
    TARGET,
    Generated,
    chickenfoot_season,
    straight_season,
)
from tests.web.table import scorekeeper_client

SEED = 20260901


@dataclass
class StoredSeason:
    league: League
    season: Season
    #: the generated matches by the id they were stored under, in the order played
    matches: dict[int, Generated]
    #: match id -> index of the side that forfeited it
    forfeits: dict[int, int] = field(default_factory=dict)

    def url(self, name: str) -> str:
        return reverse(f"leagues:{name}", args=[self.league.pk, self.season.pk])

    def add(self, generated: Generated) -> Match:
        match = create_match(generated.value)
        season_match_add(season=self.season, match=match)
        self.matches[match.pk] = generated
        return match

    @property
    def finished(self) -> dict[int, Generated]:
        return {pk: match for pk, match in self.matches.items() if match.finished}

    @property
    def in_progress(self) -> dict[int, Generated]:
        return {pk: match for pk, match in self.matches.items() if not match.finished}


def store_season(
    game: str, generated: list[Generated], *, name: str, house_rules: dict
) -> StoredSeason:
    league = League.objects.create(club=the_club(), name=name, game=game, rules=house_rules)
    league.members.set([player_named(player) for player in ROSTER])
    season = Season.objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    stored = StoredSeason(league, season, {})
    for match in generated:
        stored.add(match)
    return stored


@pytest.fixture
def rng() -> random.Random:
    return random.Random(SEED)


@pytest.fixture
def straight_league(db: None, rng: random.Random) -> StoredSeason:
    """Fourteen finished Straight Dominoes matches to 60 (two and three players, and
    partnerships) among six members, and one match still being played."""
    return store_season(
        "straight",
        straight_season(rng, 14),
        name="Thursday Fives",
        house_rules={"target": TARGET},
    )


@pytest.fixture
def chickenfoot_league(db: None, rng: random.Random) -> StoredSeason:
    """Eight finished Chickenfoot matches (two to four players) and one still being played."""
    return store_season(
        "chickenfoot", chickenfoot_season(rng, 8), name="Chicken Run", house_rules={}
    )


@pytest.fixture
def client(db: None) -> Client:
    """League pages are driven by the hall's organizer (who may do everything shown here)."""
    return scorekeeper_client()
