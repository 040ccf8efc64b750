"""A hall with something on every page: a match of each game with hands entered, a finished
match, a league season with its standings, and an organizer who may keep score.

Shared by the accessibility and phone tests, which look at pages rather than play matches.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.tables.models import Player
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match
from tests.clubs import organizer_of_the_club, the_club
from tests.leagues.season import straight_season

ORGANIZER = "rosa"
PASSWORD = "chalk-and-slate-42"


def _tiles(*laid: tuple[str, str]) -> tuple[rules.Play, ...]:
    return tuple(rules.Play(player, tile=(int(tile[0]), int(tile[-1]))) for player, tile in laid)


#: one match of each game, a few hands in and still being played
BOARDS = {
    # Ann & Cy 115, Bob & Dee 35: two houses and three strokes of chalk against three strokes
    "straight": rules.Match(
        "straight",
        ("Ann", "Bob", "Cy", "Dee"),
        partnerships=(("Ann", "Cy"), ("Bob", "Dee")),
        hands=(
            rules.Hand(
                leader="Ann",
                plays=(
                    rules.Play("Ann", points=20),
                    rules.Play("Bob", points=15),
                    rules.Play("Cy", points=30),
                ),
                end=rules.HandEnd("domino", player="Cy", pips={"Bob": 22, "Dee": 23}),
            ),
            rules.Hand(
                leader="Cy",
                plays=(rules.Play("Dee", points=20), rules.Play("Ann", points=20)),
            ),
        ),
    ),
    "chickenfoot": rules.Match(
        "chickenfoot",
        ("Ann", "Bob", "Cy", "Dee"),
        hands=(
            rules.Hand(
                double=6,
                starter="Cy",
                end=rules.HandEnd(
                    "domino",
                    player="Bob",
                    pips={"Ann": 14, "Cy": 22, "Dee": 5},
                    double_blank=("Dee",),
                ),
            ),
            rules.Hand(
                double=5,
                starter="Ann",
                end=rules.HandEnd("domino", player="Ann", pips={"Bob": 31, "Cy": 9, "Dee": 17}),
            ),
        ),
    ),
    "sedma": rules.Match(
        "sedma",
        ("Jirka", "Bára", "Ota", "Lída"),
        hands=(
            rules.Hand(
                opener="Jirka",
                plays=_tiles(
                    ("Jirka", "1-1"),
                    ("Lída", "4-4"),
                    ("Bára", "0-0"),
                    ("Lída", "6-6"),
                    ("Bára", "5-5"),
                    ("Lída", "2-2"),
                    ("Bára", "3-3"),
                ),
                end=rules.HandEnd("all-doubles"),
            ),
            rules.Hand(opener="Bára", plays=_tiles(("Bára", "3-3"), ("Ota", "5-5"))),
        ),
    ),
}

#: a Straight match to 50 that Ann has won, its first hand flagged
FINISHED = rules.Match(
    "straight",
    ("Ann", "Bob"),
    rules={"target": 50},
    hands=(
        rules.Hand(
            leader="Ann",
            plays=(rules.Play("Ann", points=20), rules.Play("Bob", points=15)),
            end=rules.HandEnd("domino", player="Ann", pips={"Bob": 12}),
            # the table wrote 35; the rules make it 30: a finding on the board
            claimed={"Ann": 35},
        ),
        rules.Hand(leader="Ann", plays=(rules.Play("Ann", points=20),)),
    ),
)


@dataclass(frozen=True)
class Hall:
    #: the scoreboard path of each game's match
    boards: dict[str, str]
    finished: str
    league: str
    season: str
    wall: str
    player: str
    #: a league night of the season, its first round started
    night: str

    def sheet(self, game: str) -> str:
        return f"{self.boards[game]}sheet/"

    def history(self, game: str) -> str:
        return f"{self.boards[game]}history/"


def open_the_hall() -> Hall:
    """Stores everything the pages show; the database must be a committed one (live server)."""
    # the hall's organizer started the casual matches: they keep score of them
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    boards = {
        game: f"/matches/{create_match(value, user=user).pk}/" for game, value in BOARDS.items()
    }
    finished = f"/matches/{create_match(FINISHED, user=user).pk}/"

    league = League.objects.create(
        club=the_club(), name="Thursday Club", game="straight", rules={"target": 60}
    )
    season = Season.objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    for generated in straight_season(random.Random(20260901), 5):
        season_match_add(season=season, match=create_match(generated.value))
    league.members.set(Player.objects.filter(seats__match__league_entry__season=season).distinct())
    player = league.members.order_by("name").first()
    assert player is not None

    night = Night.objects.create(season=season, played_on=datetime.date(2026, 9, 4))
    rounds.check_in(night, list(league.members.all()))
    rounds.start_round(round_draw.draw_round(night), by=Author(name=ORGANIZER, user=user))
    season_path = f"/leagues/{league.pk}/seasons/{season.pk}/"
    return Hall(
        boards=boards,
        finished=finished,
        league=f"/leagues/{league.pk}/",
        season=season_path,
        wall=f"{season_path}wall/",
        player=f"/players/{player.pk}/",
        night=f"/nights/{night.pk}/",
    )


def sign_in(page: Page, server: str) -> None:
    """As the hall's organizer, through the sign-in page: the entry forms show to them."""
    page.goto(f"{server}/accounts/login/")
    page.get_by_label("Username").fill(ORGANIZER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name=f"Sign out {ORGANIZER}")).to_be_visible()
