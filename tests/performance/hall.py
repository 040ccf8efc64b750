"""A hall of a chosen size, stored the way the app stores it: players, a league season of
finished matches, a match still being played with as many hands as asked, and its share link.

The matches are played out at random by the benchmark's generator (benchmarks/data.py)
and stored with create_match, as the setup form and the importer store them.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from benchmarks.data import deal, player_names, seating
from scorekeeper import rules
from scorekeeper.access.models import VIEWER, ShareLink
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.scoring import create_match
from tests.clubs import the_club


@dataclass(frozen=True)
class Size:
    players: int
    #: finished matches in the season
    matches: int
    #: hands of the match being played
    hands: int


SMALL = Size(players=4, matches=2, hands=2)
LARGE = Size(players=16, matches=24, hands=40)


@dataclass(frozen=True)
class Hall:
    league: League
    season: Season
    #: the match being played, with ``size.hands`` hands
    match: Match
    player: Player


def build(size: Size, *, seed: int = 6) -> Hall:
    rng = random.Random(seed)
    names = player_names(size.players)
    league = League.objects.create(club=the_club(), name="Thursday League", game="straight")
    season = Season.objects.create(
        league=league, name="Spring", starts_on=datetime.date(2026, 3, 1)
    )
    for _ in range(size.matches):
        value = seating(rng, names)
        season_match_add(season=season, match=create_match(value.with_hands(deal(rng, value))))
    league.members.set(Player.objects.all())
    playing = rules.Match("straight", tuple(names[:4]), rules={"target": 100_000})
    match = create_match(playing.with_hands(deal(rng, playing, hands=size.hands)))
    ShareLink.objects.create(match=match, role=VIEWER, label="the TV")
    return Hall(league, season, match, Player.objects.get(name=names[0]))


def long_match(hands_to: int = 1000, *, hands: int | None = None, seed: int = 7) -> Match:
    """A Straight match of four players to ``hands_to``, finished in some sixty hands; or
    still being played after ``hands`` hands."""
    rng = random.Random(seed)
    value = rules.Match("straight", tuple(player_names(4)), rules={"target": hands_to})
    return create_match(value.with_hands(deal(rng, value, hands=hands)))


def season_match_to_ten(hall: Hall) -> Match:
    """A season match of Quinn against Rory to 10, Quinn to lead."""
    match = create_match(
        rules.Match(
            "straight", ("Quinn", "Rory"), rules={"target": 10}, hands=(rules.Hand(leader="Quinn"),)
        )
    )
    season_match_add(season=hall.season, match=match)
    return match
